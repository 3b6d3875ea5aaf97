/**
 * Issue 9's two check bypasses, through the SDK's real Client and a real `mish serve` (in a temp
 * HOME with canaries): a control character makes the command checked differ from the command
 * run, and ssh options run local commands before any check. Each must be refused with nothing run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startStdio, type Served } from './mcp-helpers.js';

describe('mish serve: the command checked is the command run', () => {
  let s: Served;
  let repo: string;
  const dirty = () => readFileSync(path.join(repo, 'f.txt'), 'utf8');

  beforeAll(async () => {
    s = await startStdio();
    repo = path.join(s.home, 'repo');
    mkdirSync(repo);
    const git = (...a: string[]) => execFileSync('git', a, { cwd: repo, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@a', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@a' } });
    git('init', '-q');
    writeFileSync(path.join(repo, 'f.txt'), 'committed\n');
    git('add', '.');
    git('commit', '-qm', 'one');
    writeFileSync(path.join(repo, 'f.txt'), 'uncommitted work\n');
  });
  afterAll(() => s.close());

  it('a NUL or a terminal control byte in sh_run (one-shot and in a session) and sh_spawn is refused, naming it; nothing runs', async () => {
    const attempts: [string, Record<string, unknown>, string][] = [
      ['sh_run', { cmd: 'git reset --ha\u0000rd', cwd: repo }, 'NUL (U+0000)'],
      ['sh_run', { cmd: 'git reset --hard\u0000 --soft', cwd: repo }, 'NUL (U+0000)'],
      ['sh_spawn', { cmd: 'git reset --hard\u0000 --soft', cwd: repo }, 'NUL (U+0000)'],
      ['sh_spawn', { cmd: 'git reset --ha\u0000rd', cwd: repo }, 'NUL (U+0000)'],
      ['sh_run', { cmd: `cd ${repo}; echo ok\u0015git reset --hard` }, 'NAK (^U) (U+0015)'],
      ['sh_run', { cmd: `cd ${repo}; echo ok\rgit reset --hard` }, 'CR (U+000D)'],
      ['sh_run', { cmd: `cd ${repo}; echo ok\u0003git reset --hard`, session: 'other' }, 'ETX (^C) (U+0003)'],
    ];
    for (const [tool, args, label] of attempts) {
      const r = await call(s.client, tool, args);
      expect(r.text, `${tool} ${JSON.stringify(args)}`).toContain(`control character ${label}`);
      expect(r.text).toContain('nothing was run');
      expect(dirty(), `${tool} ${JSON.stringify(args)} reset the work tree`).toBe('uncommitted work\n');
    }
    const nul = await call(s.client, 'sh_run', { cmd: '\u0000' });
    expect(nul.text).toMatch(/^mish: refused at line 1, column 1: control character NUL/);
    expect(nul.data.exit_code ?? nul.data.exitCode).not.toBe(0);
    // The session that got the ^C line still works and ran none of it.
    expect((await call(s.client, 'sh_run', { cmd: 'echo still here', session: 'other' })).text).toMatch(/^still here/);
  });

  it('sh_session create refuses ssh options and destinations that would run a local command; nothing runs', async () => {
    const marker = path.join(s.home, 'pwned');
    const attempts: Record<string, unknown>[] = [
      { ssh: 'me@127.0.0.1', ssh_args: [`-oProxyCommand=touch ${marker}`] },
      { ssh: 'me@127.0.0.1', ssh_args: ['-o', `LocalCommand=touch ${marker}`, '-o', 'PermitLocalCommand=yes'] },
      { ssh: 'me@127.0.0.1', ssh_args: ['-o', `KnownHostsCommand=/usr/bin/touch ${marker}`] },
      { ssh: `-oProxyCommand=touch ${marker}` },
      { ssh: 'me@127.0.0.1', ssh_args: ['-J', `-oProxyCommand=touch ${marker}`] },
    ];
    for (const [i, a] of attempts.entries()) {
      const r = await call(s.client, 'sh_session', { action: 'create', name: `ssh${i}`, ...a });
      expect(r.result.isError, JSON.stringify(a)).toBe(true);
      expect(r.text).toMatch(/sh_session create failed \(bad-ssh\)/);
      expect(r.text).toMatch(/options that run or load anything locally are refused/);
    }
    expect(existsSync(marker)).toBe(false);
    const listed = await call(s.client, 'sh_session', { action: 'list' });
    expect(listed.data.sessions.map((x: { name: string }) => x.name)).not.toContain('ssh0');
  });
});

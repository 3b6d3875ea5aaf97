/**
 * Structured on real git repositories: a machine-readable format is injected only when the user
 * chose none, parsed, and printed compact; a user's format is run and shown as written.
 * docker and kubectl exist here without a daemon or a cluster: their real error reaches the
 * agent with the exit code kept.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeUnless, missing } from '../../../../test/helpers/skip.js';
import { git, gitEnv, gitRepo, have, sandbox } from '../router/test-kit.js';
import { expandPaths } from '../compact/path-list.js';
import { LOG_ENTRIES_SHOWN } from './structured.js';

const sb = sandbox('structured');
let repo: string;
let empty: string;

beforeAll(() => {
  repo = gitRepo(path.join(sb.dir, 'repo'), { a: '1', 'old-name': 'r' }, 'first commit');
  git(repo, 'branch', 'feature');
  writeFileSync(path.join(repo, 'a'), '2');
  writeFileSync(path.join(repo, 'b'), 'new');
  writeFileSync(path.join(repo, 'c'), 'staged');
  git(repo, 'add', 'c');
  renameSync(path.join(repo, 'old-name'), path.join(repo, 'new-name'));
  git(repo, 'add', '-A', 'old-name', 'new-name');
  empty = gitRepo(path.join(sb.dir, 'empty'));
});
afterAll(() => sb.cleanup());

const run = (line: string, cwd = repo) => sb.run(line, { cwd, env: gitEnv });

describe('git status', () => {
  it('lists every changed file of a big change set, compacted losslessly (no "… N more")', async () => {
    const big = gitRepo(path.join(sb.dir, 'big'), { 'keep.txt': 'k' }, 'first');
    const want: string[] = [];
    for (const dir of ['src/core', 'src/ui/widgets', 'docs', 'assets/img dir {x}']) {
      mkdirSync(path.join(big, dir), { recursive: true });
      for (let i = 1; i <= 80; i++) {
        const f = `${dir}/file${String(i).padStart(3, '0')}.txt`;
        writeFileSync(path.join(big, f), String(i));
        want.push(f);
      }
    }
    const r = await run('git status -uall', big);
    expect(r.body).not.toMatch(/more/);
    const lines = r.body.split('\n');
    const at = lines.findIndex((l) => l.startsWith('untracked: (320,'));
    expect(at, r.body).toBeGreaterThan(0);
    const block = lines.slice(at + 1).filter((l) => l.startsWith('  ')).map((l) => l.slice(2));
    // git quotes a path with special characters ("assets/img dir {x}/…" stays as git printed it)
    const got = expandPaths(block.join('\n')).map((p) => p.replace(/^"(.*)"$/, '$1'));
    expect(new Set(got)).toEqual(new Set(want));
    expect(r.body.length).toBeLessThan(want.join('\n').length * 0.5);
  });

  it('a group whose paths share little is listed a path a line (the notation would not pay for its explanation); compacted groups share one explanation', async () => {
    const files: Record<string, string> = {};
    for (let i = 1; i <= 12; i++) {
      files[`area${i}/notes-${i}.md`] = 'x';
      mkdirSync(path.join(sb.dir, 'few', `area${i}`), { recursive: true });
    }
    const few = gitRepo(path.join(sb.dir, 'few'), files, 'first');
    for (const f of Object.keys(files)) writeFileSync(path.join(few, f), 'changed');
    const r = await run('git status', few);
    expect(r.body).not.toContain('[paths compacted');
    expect(r.body).toContain('modified: (12)\n  M:\n    area1/notes-1.md\n    area10/notes-10.md\n');
    // Two big groups in one directory each: compacted, the notation explained once.
    for (let i = 1; i <= 40; i++) {
      mkdirSync(path.join(few, 'gen'), { recursive: true });
      writeFileSync(path.join(few, 'gen', `out${String(i).padStart(2, '0')}.js`), String(i));
    }
    const r2 = await run('git status -uall', few);
    expect(r2.body.match(/\[paths compacted: /g)).toHaveLength(1);
    expect(r2.body).toContain('untracked: (40, compacted)\n  gen/: out{01..40}.js\n');
    expect(r2.body).toContain('[paths compacted: "d/: a b" = d/a d/b; bash braces]');
  });

  it('injects --porcelain and prints a compact form', async () => {
    const r = await run('git status');
    expect(r.category).toBe('structured');
    expect(r.ran).toBe("git status '--porcelain=v1' '--branch'");
    expect(r.body).toBe('branch main · 2 staged, 1 modified, 1 untracked\nstaged:    A c, R old-name -> new-name\nmodified:  M a\nuntracked: b\n');
  });

  it('a fresh repository and a clean tree', async () => {
    expect((await run('git status', empty)).body).toBe('branch main · clean\n');
    gitRepo(path.join(sb.dir, 'clean'), { x: 'x' }, 'x');
    expect((await run('git -C clean status', sb.dir)).body).toBe('branch main · clean\n');
  });

  it.each([
    ['git status -s', ' M a\nA  c\nR  old-name -> new-name\n?? b\n'],
    ['git status --short', ' M a\nA  c\nR  old-name -> new-name\n?? b\n'],
    ['git status --porcelain', ' M a\nA  c\nR  old-name -> new-name\n?? b\n'],
  ])('%s: the user chose a format, it runs as written', async (line, output) => {
    const r = await run(line);
    expect(r.category).toBe('structured');
    expect(r.ran).toBe(line);
    expect(r.body).toBe(`${output}`);
  });

  it('outside a repository: git’s own error and exit code', async () => {
    const r = await run('git status', sb.dir);
    expect(r.exitCode).toBe(128);
    expect(r.body).toBe('fatal: not a git repository (or any of the parent directories): .git\n');
  });
});

describe('git log', () => {
  it('injects a format and prints one line per commit', async () => {
    const r = await run('git log');
    expect(r.ran).toMatch(/^git log '--format=%h\x1f%an\x1f%ar\x1f%d\x1f%s'$/);
    expect(r.body).toMatch(/^[0-9a-f]{7,} first commit \(HEAD -> main, feature\) \(Ada, \d+ seconds? ago\)\n$/);
  });

  it('--oneline and --format are the user’s choice', async () => {
    const one = await run('git log --oneline');
    expect(one.ran).toBe('git log --oneline');
    expect(one.body).toMatch(/^[0-9a-f]{7,} \(HEAD -> main, feature\) first commit\n$/);
    const f = await run('git log --format=%s');
    expect(f.body).toBe('first commit\n');
  });

  it('long histories are capped with a count of the rest', async () => {
    const long = gitRepo(path.join(sb.dir, 'long'));
    for (let i = 1; i <= LOG_ENTRIES_SHOWN + 5; i++) git(long, 'commit', '-q', '--allow-empty', '-m', `c${i}`);
    const r = await run('git log', long);
    const lines = r.body.trimEnd().split('\n');
    expect(lines).toHaveLength(LOG_ENTRIES_SHOWN + 1);
    expect(lines[0]).toMatch(/ c35 \(HEAD -> main\) /);
    expect(lines.at(-1)).toBe('… 5 older commits');
  });

  it('a repository without commits: git’s error, exit kept', async () => {
    const r = await run('git log', empty);
    expect(r.exitCode).toBe(128);
    expect(r.body).toBe("fatal: your current branch 'main' does not have any commits yet\n");
  });
});

describe('git branch', () => {
  it('lists branches compactly; -v is the user’s format', async () => {
    const r = await run('git branch');
    expect(r.body).toMatch(/^ {2}feature [0-9a-f]{7,}\n\* main [0-9a-f]{7,}\n$/);
    const v = await run('git branch -v');
    expect(v.ran).toBe('git branch -v');
    expect(v.body).toMatch(/^ {2}feature +[0-9a-f]{7,} first commit\n\* main +[0-9a-f]{7,} first commit\n$/);
  });

  it('git branch <name> creates a branch: run as written, nothing injected', async () => {
    const r = await run('git branch topic');
    expect(r.ran).toBe('git branch topic');
    expect(r.exitCode).toBe(0);
    expect(git(repo, 'branch', '--list', 'topic')).toBe('  topic\n');
    expect((await run('git branch --list "t*"')).body).toMatch(/^ {2}topic [0-9a-f]{7,}\n$/);
  });

  it('no branches yet', async () => {
    expect((await run('git branch', empty)).body).toBe('no branches\n');
  });
});

/*
 * docker and kubectl with nothing to talk to: the real client error reaches the agent unchanged
 * and the exit code is kept. The docker ps / docker images parsers are tested on output recorded
 * from a real engine in structured-docker.test.ts (CI has no engine). There is no Kubernetes
 * cluster here, so compactTable for `kubectl get` is untested on real output.
 */
describeUnless(missing('docker'))('docker without a daemon', () => {
  it.each(['docker ps', 'docker images', 'docker ps -a -q'])('%s: the client error and exit code', async (line) => {
    const r = await sb.run(line, { env: { DOCKER_HOST: `unix://${sb.dir}/no-docker.sock` } });
    expect(r.category).toBe('structured');
    expect(r.exitCode).toBe(1);
    expect(r.body).toMatch(new RegExp(`Cannot connect to the Docker daemon at unix://${sb.dir}/no-docker\\.sock\\. Is the docker daemon running\\?\\n$`));
    if (!line.includes('-q')) expect(r.ran).toBe(`${line} '--format' '{{json .}}'`);
  });
});

describeUnless(missing('kubectl'))('kubectl without a cluster', () => {
  it('kubectl get pods: the connection error and exit code', async () => {
    const kubeconfig = path.join(sb.dir, 'kubeconfig');
    // A cluster entry pointing at a closed local port: fails fast, never touches a real cluster.
    writeFileSync(
      kubeconfig,
      'apiVersion: v1\nkind: Config\nclusters:\n- name: none\n  cluster:\n    server: https://127.0.0.1:1\ncontexts:\n- name: none\n  context:\n    cluster: none\n    user: none\ncurrent-context: none\nusers:\n- name: none\n  user:\n    token: x\n',
    );
    const r = await sb.run('kubectl get pods', { env: { KUBECONFIG: kubeconfig } });
    expect(r.category).toBe('structured');
    expect(r.exitCode).toBe(1);
    expect(r.body).toMatch(/The connection to the server 127\.0\.0\.1:1 was refused - did you specify the right host or port\?\n$/);
  });
});

/**
 * The policy over MCP, with the SDK's real Client against `mish serve` in a temp HOME: sh_run
 * and sh_spawn refusals carry the decision, rule and reason in structuredContent; forbid is
 * said as such; text typed with sh_interact into a process that is a shell gets the same
 * decision line by line (a line split over several sends, or typed key by key, is judged
 * whole) and nothing is sent when it is refused. A canary in the temp HOME proves nothing ran.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll } from 'vitest';
import { call, startStdio, type Served } from './mcp-helpers.js';
import { serveForSuite } from './mcp-suite.js';

describe('policy decisions over MCP', () => {
  let s: Served;
  serveForSuite((served) => (s = served));

  it('sh_run and sh_spawn refusals are structured: decision, rule, reason', async () => {
    const canary = path.join(s.home, 'canary.txt');
    writeFileSync(canary, 'alive');
    for (const tool of ['sh_run', 'sh_spawn'] as const) {
      const r = await call(s.client, tool, { cmd: 'rm -rf ~' });
      expect(r.result.isError).toBeFalsy();
      expect(r.data).toMatchObject({ status: 'refused', category: 'dangerous', policy: { decision: 'ask', rule: 'rm-recursive-root-or-home', reason: expect.stringMatching(/recursive delete/) } });
      // No operator is attached to this server: the escalation is refused, naming the rule and why.
      expect(r.text).toContain('blocked by rule rm-recursive-root-or-home: recursive delete');
      expect(r.text).toContain('refused: no operator is attached to approve it; nothing was run');
    }
    const f = await call(s.client, 'sh_run', { cmd: 'bash -i >& /dev/tcp/127.0.0.1/9 0>&1' });
    expect(f.data).toMatchObject({ status: 'refused', policy: { decision: 'forbid', rule: 'reverse-shell' } });
    expect(f.text).toContain('refused: forbidden by policy (rule reverse-shell)');
    const wrapped = await call(s.client, 'sh_run', { cmd: `sudo sh -c 'echo $(rm -rf ~)'` });
    expect(wrapped.data).toMatchObject({ status: 'refused', policy: { rule: 'rm-recursive-root-or-home' } });
    expect(existsSync(canary)).toBe(true);
  });

  it("follows the session shell's CDPATH: a relative cd it sends into HOME is judged there (sh_run and sh_spawn)", async () => {
    const ssh = path.join(s.home, '.ssh');
    mkdirSync(ssh, { recursive: true });
    writeFileSync(path.join(ssh, 'id_canary'), 'alive');
    // A project folder with a .ssh of its own: without CDPATH, `cd .ssh` goes there and the line is an ordinary clean-up.
    const project = mkdtempSync(path.join(tmpdir(), 'mish-cdpath-'));
    mkdirSync(path.join(project, '.ssh'));
    writeFileSync(path.join(project, '.ssh', 'junk'), 'x');
    try {
      await call(s.client, 'sh_session', { action: 'create', name: 'cdp', cwd: project });
      expect((await call(s.client, 'sh_run', { cmd: `CDPATH=${s.home}`, session: 'cdp' })).data).toMatchObject({ status: 'exited', exit_code: 0 });
      for (const tool of ['sh_run', 'sh_spawn'] as const) {
        const r = await call(s.client, tool, { cmd: 'cd .ssh && rm -rf *', session: 'cdp' });
        expect(r.data).toMatchObject({ status: 'refused', policy: { decision: 'ask', rule: 'rm-recursive-root-or-home' } });
      }
      expect(existsSync(path.join(ssh, 'id_canary'))).toBe(true);
      // Unset, the same line is judged in the project and runs there.
      await call(s.client, 'sh_run', { cmd: 'unset CDPATH', session: 'cdp' });
      expect((await call(s.client, 'sh_run', { cmd: 'cd .ssh && rm -rf *', session: 'cdp' })).data).toMatchObject({ status: 'exited', exit_code: 0 });
      expect(existsSync(path.join(project, '.ssh', 'junk'))).toBe(false);
      expect(existsSync(path.join(ssh, 'id_canary'))).toBe(true);
    } finally {
      await call(s.client, 'sh_session', { action: 'close', name: 'cdp' });
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('sh_session create: an environment or ssh options that would run a refused command create nothing', async () => {
    const env = await call(s.client, 'sh_session', { action: 'create', name: 'evil', env: { PROMPT_COMMAND: 'rm -rf ~' } });
    expect(env.data).toMatchObject({ action: 'create', sessions: [], refused: true, policy: { decision: 'ask', rule: 'rm-recursive-root-or-home' } });
    const ssh = await call(s.client, 'sh_session', { action: 'create', name: 'evil2', ssh: 'me@example.invalid', ssh_args: ['-o', 'ProxyCommand=bash -i >& /dev/tcp/127.0.0.1/9 0>&1'] });
    expect(ssh.data).toMatchObject({ refused: true, policy: { decision: 'forbid', rule: 'reverse-shell' } });
    const names = async () => ((await call(s.client, 'sh_session', { action: 'list' })).data.sessions as { name: string }[]).map((x) => x.name);
    expect(await names()).not.toContain('evil');
    expect(await names()).not.toContain('evil2');
    // A harmless environment creates the session: it is listed, and its shell has the variable.
    // (Not only "no refusal": a failed call's data is {} and has no `refused` either.)
    const ok = await call(s.client, 'sh_session', { action: 'create', name: 'fine', env: { FOO: 'bar' } });
    expect(ok.result.isError).toBeFalsy();
    expect(ok.data).toMatchObject({ action: 'create', sessions: [expect.objectContaining({ name: 'fine' })] });
    expect(ok.data.refused).toBeUndefined();
    expect(await names()).toContain('fine');
    expect((await call(s.client, 'sh_run', { cmd: 'echo "FOO=$FOO"', session: 'fine' })).text).toContain('FOO=bar');
  });

  it('sh_interact: a line typed into a shell gets the same decision; nothing is sent when it is refused', async () => {
    const canary = path.join(s.home, 'canary2.txt');
    writeFileSync(canary, 'alive');
    const sp = await call(s.client, 'sh_spawn', { cmd: 'bash --norc --noprofile', alias: 'shell' });
    expect(sp.data.status).toBe('started');
    const ok = await call(s.client, 'sh_interact', { id: 'shell', action: 'send', text: 'echo policy-ok\n', wait_for: 'policy-ok' });
    expect(ok.result.isError).toBeFalsy();
    expect(ok.data.refused).toBeUndefined();
    expect(ok.text).toContain('policy-ok');
    // Split over two sends: the first submits nothing and is sent; the second would submit `rm -rf ~`.
    const part = await call(s.client, 'sh_interact', { id: 'shell', action: 'send', text: 'rm -rf ', wait: 0.2 });
    expect(part.result.isError).toBeFalsy();
    expect(part.data.refused).toBeUndefined();
    const rest = await call(s.client, 'sh_interact', { id: 'shell', action: 'send', text: '~\n', wait: 0.2 });
    expect(rest.data).toMatchObject({ refused: true, policy: { decision: 'ask', rule: 'rm-recursive-root-or-home' } });
    expect(rest.text).toMatch(/nothing was sent/);
    // Clear what was typed, then key by key.
    await call(s.client, 'sh_interact', { id: 'shell', action: 'keys', keys: ['C-u'], wait: 0.2 });
    const keys = await call(s.client, 'sh_interact', { id: 'shell', action: 'keys', keys: [...'git push -f'].map((c) => (c === ' ' ? 'Space' : c)).concat('Enter'), wait: 0.2 });
    expect(keys.data).toMatchObject({ refused: true, policy: { rule: 'git-push-force' } });
    const history = await call(s.client, 'sh_interact', { id: 'shell', action: 'keys', keys: ['Up', 'Enter'], wait: 0.2 });
    expect(history.data).toMatchObject({ refused: true, policy: { rule: 'shell-input-unknown' } });
    await call(s.client, 'sh_interact', { id: 'shell', action: 'keys', keys: ['C-c'], wait: 0.2 });
    const after = await call(s.client, 'sh_interact', { id: 'shell', action: 'send', text: 'echo still-here\n', wait_for: 'still-here' });
    expect(after.text).toContain('still-here');
    expect(existsSync(canary)).toBe(true);
    await call(s.client, 'sh_interact', { id: 'shell', action: 'kill' });
  });
});

describe('a policy file given to mish serve ($MISH_POLICY), with a session-scoped rule', () => {
  let s: Served;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mish-policy-serve-'));
    const file = path.join(dir, 'policy.toml');
    writeFileSync(file, '[[rule]]\nid = "prod-no-uname"\nreason = "not in prod"\ndecision = "forbid"\ncommands = ["uname"]\nsession = ["prod"]\n');
    s = await startStdio({ MISH_POLICY: file });
  });
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('applies in that session only, for sh_run and sh_spawn', async () => {
    await call(s.client, 'sh_session', { action: 'create', name: 'prod' });
    const prod = await call(s.client, 'sh_run', { cmd: 'uname -s', session: 'prod' });
    expect(prod.data).toMatchObject({ status: 'refused', policy: { decision: 'forbid', rule: 'prod-no-uname', reason: 'not in prod' } });
    const spawned = await call(s.client, 'sh_spawn', { cmd: 'uname -s', session: 'prod' });
    expect(spawned.data).toMatchObject({ status: 'refused', policy: { decision: 'forbid', rule: 'prod-no-uname' } });
    const dev = await call(s.client, 'sh_run', { cmd: 'uname -s' });
    expect(dev.data).toMatchObject({ status: 'exited', exit_code: 0 });
    expect(dev.text).toContain('Linux');
  });
});

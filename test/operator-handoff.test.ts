/**
 * Credential-blind handoff (issue 10 point 5) with real parts: real secret prompts (`read -s`,
 * Python's getpass) in a real `mish serve` spawned by the MCP SDK's Client; the human side is
 * the real `mish attach` in a real PTY (node-pty), or the operator client library. The secret
 * must appear in no MCP reply, no read_raw, and (where the program never prints it) no file
 * under the server's HOME — spool and state included.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawn as ptySpawn } from 'node-pty';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, homeEnv, ROOT, startStdio, type Served } from './mcp-helpers.js';
import { discoverServers, OperatorClient } from '../src/main/operator/client.js';
import { AttachResultSchema } from '../src/shared/operator-wire.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describeUnless, anyOf, missing, notRoot } from './helpers/skip.js';
import { createSudoUser, type SudoUser } from './helpers/sudo-user.js';
import { filesContaining } from './helpers/files-containing.js';

const DIST = path.join(ROOT, 'dist/mish.mjs');
/** The real interpreter (a pyenv shim would not run with the temp HOME). */
const PYTHON = (() => {
  const r = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
})();

describe('credential-blind handoff', () => {
  let opDir: string;
  let served: Served;
  const replies: string[] = [];
  const agent = async (name: string, args: Record<string, unknown>) => {
    const r = await call(served.client, name, args);
    replies.push(JSON.stringify(r.result));
    return r;
  };

  beforeAll(async () => {
    opDir = path.join(mkdtempSync(path.join(tmpdir(), 'mish-handoff-')), 'servers');
    served = await startStdio({ MISH_OPERATOR_DIR: opDir });
  }, 30_000);
  afterAll(async () => {
    await served?.close();
    rmSync(path.dirname(opDir), { recursive: true, force: true });
  });

  it('read -s through `mish attach` in a real terminal: the agent gets a handoff id, is told "an operator has this session", then a summary; the secret is nowhere', async () => {
    const secret = 'Tr0ub4dor-read-s';
    writeFileSync(path.join(served.home, 'ask.sh'), 'read -r -s -p "Password: " pw\necho\necho "len=${#pw}"\nprintf %s "$pw" | sha256sum | cut -c1-16\n');
    const started = await agent('sh_run', { cmd: 'bash ask.sh', cwd: served.home });
    expect(started.data.status).toBe('waiting-for-input');
    const handoff = started.data.handoff as string;
    expect(handoff, started.text).toMatch(/^h_/);
    expect(started.text).toContain(`waiting for an operator: handoff ${handoff}`);
    expect(started.text).toContain(`mish attach ${handoff}`);
    const id = started.data.id as string;

    // While handed off, the agent cannot type into it.
    const blocked = await agent('sh_interact', { id, action: 'send', text: 'guess\n' });
    expect(blocked.result.isError).toBe(true);
    expect(blocked.text).toContain('an operator has this session');
    const busy = await agent('sh_run', { cmd: 'echo hi' });
    expect(busy.result.isError).toBe(true);
    expect(busy.text).toContain('an operator has this session');

    // The human: `mish attach <id>` in a real PTY.
    const term = ptySpawn(process.execPath, [DIST, 'attach', handoff, '--name', 'tester'], { cols: 100, rows: 30, cwd: served.home, env: homeEnv(served.home, { MISH_OPERATOR_DIR: opDir }) });
    let screen = '';
    const watchers = new Set<() => void>();
    term.onData((d) => {
      screen += d;
      for (const w of [...watchers]) w();
    });
    const exited = new Promise<number>((resolve) => term.onExit((e) => resolve(e.exitCode)));
    const seen = (s: string) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`attach never showed ${JSON.stringify(s)}; screen: ${screen}`)), 20_000);
        const check = () => {
          if (!screen.includes(s)) return;
          clearTimeout(timer);
          watchers.delete(check);
          resolve();
        };
        watchers.add(check);
        check();
      });
    await seen('Type the answer and press Return');
    await seen('Password: ');
    term.write(`${secret}\r`);
    expect(await exited).toBe(0);
    expect(screen).toContain(`[operator handoff ${handoff}: secret prompt "Password:`);
    expect(screen).not.toContain(secret);

    const status = await agent('sh_interact', { id, action: 'status', wait: 30 });
    expect(status.text).toContain(`[operator handoff ${handoff}: secret prompt "Password:`);
    expect(status.text).toContain('held by tester');
    expect(status.text).toContain('the operator typed an answer (not shown to you)');
    expect(status.text).toContain(`len=${secret.length}`);
    expect(status.data.state).toBe('exited');
    expect(status.data.handoffs).toHaveLength(1);

    // Single use: a second attach is refused.
    const again = spawnSync(process.execPath, [DIST, 'attach', handoff], { env: homeEnv(served.home, { MISH_OPERATOR_DIR: opDir }), encoding: 'utf8' });
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(`no pending handoff ${handoff}`);

    const raw = await agent('sh_interact', { id, action: 'read_raw' });
    expect(raw.text).toContain(`len=${secret.length}`);
    for (const r of replies) expect(r).not.toContain(secret);
    // Echo was off: the typed bytes were never output, so never spooled or stored anywhere.
    expect(filesContaining(served.home, secret)).toEqual([]);
  }, 60_000);

  it('asked again (a wrong password): `mish attach` follows the process to its next secret prompt; two summaries, neither secret anywhere', async () => {
    const first = 'first-WRONG-pw';
    const second = 'second-right-pw';
    writeFileSync(path.join(served.home, 'twice.sh'), 'read -r -s -p "Password: " a\necho\necho "Sorry, try again."\nread -r -s -p "Password: " b\necho\necho "lens ${#a} ${#b}"\n');
    const started = await agent('sh_run', { cmd: 'bash twice.sh', cwd: served.home, session: 'twice' });
    const handoff = started.data.handoff as string;
    expect(handoff, started.text).toMatch(/^h_/);
    const term = ptySpawn(process.execPath, [DIST, 'attach', handoff, '--name', 'tester'], { cols: 100, rows: 30, cwd: served.home, env: homeEnv(served.home, { MISH_OPERATOR_DIR: opDir }) });
    let screen = '';
    const watchers = new Set<() => void>();
    term.onData((d) => {
      screen += d;
      for (const w of [...watchers]) w();
    });
    const exited = new Promise<number>((resolve) => term.onExit((e) => resolve(e.exitCode)));
    const seen = (needle: string, from = 0) =>
      new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`attach never showed ${JSON.stringify(needle)}; screen: ${screen}`)), 20_000);
        const check = () => {
          const at = screen.indexOf(needle, from);
          if (at < 0) return;
          clearTimeout(timer);
          watchers.delete(check);
          resolve(at + needle.length);
        };
        watchers.add(check);
        check();
      });
    await seen('Password: ', await seen('Type the answer'));
    term.write(`${first}\r`);
    const again = await seen('it asks again');
    await seen('Password: ', again);
    term.write(`${second}\r`);
    expect(await exited).toBe(0);
    const status = await agent('sh_interact', { id: started.data.id, action: 'status', wait: 30 });
    expect(status.text).toContain(`lens ${first.length} ${second.length}`);
    expect(status.data.handoffs).toHaveLength(2);
    for (const r of replies) for (const secret of [first, second]) expect(r).not.toContain(secret);
    for (const secret of [first, second]) {
      expect(screen).not.toContain(secret);
      expect(filesContaining(served.home, secret)).toEqual([]);
    }
  }, 60_000);

  it('a password prompt whose echo goes off only after it was first seen waiting is still handed to a human', async () => {
    // The first read has echo on (an ordinary wait), the second the same prompt with echo off: no output in between.
    writeFileSync(path.join(served.home, 'late.sh'), 'printf "Password: "\nread -r -t 0.5 x\nstty -echo\nread -r pw\nstty echo\necho\necho "n=${#pw}"\n');
    const started = await agent('sh_run', { cmd: 'bash late.sh', cwd: served.home, session: 'late' });
    expect(started.data.status).toBe('waiting-for-input');
    expect(started.data.waiting_for_input, started.text).toEqual({ prompt: 'Password:', secret: true });
    expect(started.data.handoff, started.text).toMatch(/^h_/);
    const k = await agent('sh_interact', { id: started.data.id, action: 'kill' });
    expect(k.data.state).toBe('killed');
  }, 30_000);

  it.skipIf(!PYTHON)("Python's getpass through the client library: a secret the program prints later is masked (exact, base64, URL-encoded) in replies and read_raw", async () => {
    const secret = 'pa ss/w@rd+42!';
    const script = 'import getpass, base64, urllib.parse\ns = getpass.getpass("Passphrase: ")\nprint("b64", base64.b64encode(s.encode()).decode())\nprint("url", urllib.parse.quote(s))\nprint("raw", s)\nprint("done")\n';
    writeFileSync(path.join(served.home, 'ask.py'), script);
    const started = await agent('sh_spawn', { cmd: `${PYTHON} ask.py`, cwd: served.home, wait_for: 'never-matches' });
    expect(started.data.wait).toBe('waiting-for-input');
    const handoff = started.data.handoff as string;
    expect(handoff).toMatch(/^h_/);
    expect(started.text).toContain(`mish attach ${handoff}`);
    const id = started.data.id as string;

    const [server] = discoverServers(opDir);
    const c = await OperatorClient.connect(server.path, { name: 'lib-operator', role: 'attach' });
    if (!c.ok) throw new Error(c.error);
    const op = c.client;
    const attach = await op.request({ type: 'handoff-attach', id: handoff });
    expect(attach.ok).toBe(true);
    const parsed = AttachResultSchema.parse(attach.ok ? attach.result : undefined);
    expect(Buffer.from(parsed.backlog, 'base64').toString()).toContain('Passphrase: ');
    // A second operator cannot take the same handoff.
    const c2 = await OperatorClient.connect(server.path, { name: 'second', role: 'attach' });
    if (!c2.ok) throw new Error(c2.error);
    expect(await c2.client.request({ type: 'handoff-attach', id: handoff })).toMatchObject({ ok: false, error: expect.stringContaining('single-use') });
    c2.client.close();
    // The operator's input goes to the process; the agent's does not.
    op.send({ type: 'input', handoffId: handoff, data: Buffer.from(`${secret}\r`).toString('base64') });
    const back = await op.request({ type: 'handoff-return', id: handoff });
    expect(back.ok).toBe(true);
    op.close();

    const status = await agent('sh_interact', { id, action: 'status', wait: 30 });
    expect(status.data.state).toBe('exited');
    expect(status.text).toContain(`[operator handoff ${handoff}: secret prompt "Passphrase:`);
    const raw = await agent('sh_interact', { id, action: 'read_raw' });
    const tail = await agent('sh_interact', { id, action: 'read_tail', raw: true });
    expect(raw.text).toContain('done');
    expect(raw.text).toContain('raw [masked: typed secret]');
    expect(raw.text).toContain('b64 [masked: typed secret]');
    expect(raw.text).toContain('url [masked: typed secret]');
    expect(tail.text).toContain('raw [masked: typed secret]');
    const forms = [secret, Buffer.from(secret).toString('base64'), encodeURIComponent(secret)];
    for (const r of replies) for (const f of forms) expect(r).not.toContain(f);
  }, 60_000);

  it('execFileSync sanity: the attach CLI has --help and rejects a malformed id with one line', () => {
    const help = execFileSync(process.execPath, [DIST, 'attach', '--help'], { encoding: 'utf8' });
    expect(help).toContain('usage: mish attach <handoff-id>');
    const bad = spawnSync(process.execPath, [DIST, 'attach', 'nope'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });
});

/** Why the sudo handoff cannot run here ('' when it can). */
const SUDO_SKIP = anyOf(notRoot('creates an unprivileged user with a password for sudo to ask (as root sudo asks none; CI runs as root)'), missing('sudo', 'useradd', 'chpasswd', 'visudo', 'setpriv'));

describeUnless(SUDO_SKIP)('credential-blind sudo handoff, as an unprivileged user', () => {
  let user: SudoUser;
  let client: Client;
  let opDir: string;
  const replies: string[] = [];
  const agent = async (name: string, args: Record<string, unknown>) => {
    const r = await call(client, name, args);
    replies.push(JSON.stringify(r.result));
    return r;
  };

  beforeAll(async () => {
    user = createSudoUser();
    opDir = path.join(user.home, 'operators');
    // `mish serve` runs as that user, in its HOME, with only what it needs from our environment.
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      LANG: 'C.UTF-8',
      HOME: user.home,
      USER: user.name,
      LOGNAME: user.name,
      XDG_STATE_HOME: path.join(user.home, '.state'),
      XDG_CONFIG_HOME: path.join(user.home, '.config'),
      XDG_RUNTIME_DIR: path.join(user.home, '.run'),
      MISH_OPERATOR_DIR: opDir,
    };
    const run = user.asUser([process.execPath, DIST, 'serve']);
    const transport = new StdioClientTransport({ command: run.command, args: run.args, cwd: user.home, env, stderr: 'pipe' });
    client = new Client({ name: 'sudo-agent', version: '1.0.0' });
    await client.connect(transport);
    const who = await agent('sh_run', { cmd: 'id -un' });
    expect(who.text).toContain(user.name);
  }, 60_000);
  afterAll(async () => {
    await client?.close().catch(() => {});
    user?.dispose();
  });

  it('sudo -k; sudo true: the password prompt is handed to `mish attach` in a real terminal, sudo gets the password, the agent never sees it', async () => {
    const started = await agent('sh_run', { cmd: 'sudo -k; sudo true; echo "sudo exit $?"', session: 'sudo', timeout: 50 });
    expect(started.data.status, started.text).toBe('waiting-for-input');
    expect(started.data.waiting_for_input, started.text).toMatchObject({ secret: true, prompt: expect.stringContaining(`password for ${user.name}`) });
    const handoff = started.data.handoff as string;
    expect(handoff, started.text).toMatch(/^h_/);
    const id = started.data.id as string;

    // The operator (here root, as a human at the console would be anyone) types it in `mish attach`.
    const term = ptySpawn(process.execPath, [DIST, 'attach', handoff, '--name', 'sudo-op'], { cols: 100, rows: 30, cwd: user.home, env: { ...process.env, MISH_OPERATOR_DIR: opDir } as Record<string, string> });
    let screen = '';
    const watchers = new Set<() => void>();
    term.onData((d) => {
      screen += d;
      for (const w of [...watchers]) w();
    });
    const exited = new Promise<number>((resolve) => term.onExit((e) => resolve(e.exitCode)));
    const seen = (needle: string) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`attach never showed ${JSON.stringify(needle)}; screen: ${screen}`)), 60_000);
        const check = () => {
          if (!screen.includes(needle)) return;
          clearTimeout(timer);
          watchers.delete(check);
          resolve();
        };
        watchers.add(check);
        check();
      });
    await seen('Type the answer and press Return');
    await seen(`password for ${user.name}`);
    term.write(`${user.password}\r`);
    expect(await exited).toBe(0);
    expect(screen).not.toContain(user.password);

    const status = await agent('sh_interact', { id, action: 'status', wait: 60 });
    expect(status.data.state, status.text).toBe('exited');
    // sudo accepted the password: the command it guards ran and succeeded.
    expect(status.text).toContain('sudo exit 0');
    expect(status.text).toContain(`[operator handoff ${handoff}: secret prompt "[sudo] password for ${user.name}:`);
    expect(status.text).toContain('held by sudo-op');
    expect(status.text).toContain('the operator typed an answer (not shown to you)');
    await agent('sh_interact', { id, action: 'read_raw' });
    for (const r of replies) expect(r).not.toContain(user.password);
    // Echo was off: the password was never output, so never spooled or stored under the server's HOME.
    expect(filesContaining(user.home, user.password)).toEqual([]);
  }, 180_000);
});

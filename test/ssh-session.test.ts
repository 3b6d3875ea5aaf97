/**
 * Remote sessions through the system ssh client against a real OpenSSH server started on
 * loopback by this test (generated host and client keys, a temp sshd_config): on the session
 * manager, and over MCP through the SDK's real Client (sh_session create {ssh, ssh_args}).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodePtyPort } from '../src/main/platform/node-pty-port.js';
import { createSessionManager } from '../src/main/core/session/session-manager.js';
import type { SessionManager } from '../src/main/core/session/types.js';
import { describeUnless, itUnless, missing } from './helpers/skip.js';
import { call, startStdio } from './mcp-helpers.js';

const SSHD = '/usr/sbin/sshd';

function whyNoSshd(): string | undefined {
  if (!existsSync(SSHD)) return `${SSHD} not installed (apt-get install openssh-server)`;
  if (!existsSync('/usr/bin/ssh-keygen') || spawnSync('ssh', ['-V']).error) return 'ssh client or ssh-keygen missing (apt-get install openssh-client)';
  return undefined;
}

const skipReason = whyNoSshd() ?? '';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (a && typeof a === 'object' ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

describeUnless(skipReason)('remote session over ssh', () => {
  let dir: string;
  let sshd: ChildProcess;
  let sshArgs: string[];
  let m: SessionManager;
  let sshdLog = '';
  const user = userInfo().username;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mish-ssh-'));
    mkdirSync('/run/sshd', { recursive: true }); // privilege separation directory
    for (const k of ['host', 'client']) spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, k)]);
    writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'client.pub')));
    const port = await freePort();
    writeFileSync(
      join(dir, 'sshd_config'),
      [
        `HostKey ${join(dir, 'host')}`,
        'ListenAddress 127.0.0.1',
        `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'PubkeyAuthentication yes',
        'PermitRootLogin prohibit-password',
        'StrictModes no',
        'UsePAM no',
        `PidFile ${join(dir, 'sshd.pid')}`,
        'PrintMotd no',
        'LogLevel ERROR',
      ].join('\n') + '\n',
    );
    sshd = spawn(SSHD, ['-D', '-e', '-f', join(dir, 'sshd_config'), '-p', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
    sshd.stderr?.on('data', (d) => (sshdLog += d));
    // Wait until it accepts connections.
    for (let i = 0; i < 100; i++) {
      const ok = await new Promise<boolean>((r) => {
        const c = connect(port, '127.0.0.1', () => (c.destroy(), r(true)));
        c.on('error', () => r(false));
      });
      if (ok) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    sshArgs = ['-p', String(port), '-i', join(dir, 'client'), '-o', 'StrictHostKeyChecking=no', '-o', `UserKnownHostsFile=${join(dir, 'known_hosts')}`, '-o', 'BatchMode=yes', '-o', 'LogLevel=ERROR'];
    m = createSessionManager({ port: nodePtyPort, cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir } });
  });

  afterAll(async () => {
    await m?.dispose();
    sshd?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs commands remotely with exit codes, cwd and env that persist', async () => {
    const r = await m.create({ name: 'remote', ssh: `${user}@127.0.0.1`, sshArgs, cwd: '/tmp' });
    if (!r.ok) throw new Error(`${r.error.message}\nsshd: ${sshdLog}`);
    expect(r.value.remote).toBe(`${user}@127.0.0.1`);
    expect(r.value.cwd).toBe('/tmp');
    let out = '';
    const a = await m.run({ session: 'remote', command: 'cd /usr && export R=1; echo "$SSH_CONNECTION" | wc -w; ls /nope', onData: (c) => (out += Buffer.from(c)) });
    expect(a.exitCode).toBe(2);
    expect(a.cwd).toBe('/usr');
    expect(out).toMatch(/^4\r\n.*nope/s);
    out = '';
    const b = await m.run({ session: 'remote', command: 'echo "$R $PWD"', onData: (c) => (out += Buffer.from(c)) });
    expect(out).toBe('1 /usr\r\n');
    expect(b.exitCode).toBe(0);
  });

  it('a remote [Y/n] prompt is detected from the tail and can be answered', async () => {
    let out = '';
    let id = '';
    const p = m.run({ session: 'remote', command: 'read -p "Continue? [Y/n] " a; echo "a=$a"', onData: (c) => (out += Buffer.from(c)), onStart: (c) => (id = c.id) });
    while (!id) await new Promise((r) => setTimeout(r, 10));
    const ctl = m.process(id)!;
    const w = await ctl.waitFor(undefined, 10_000, { stopOnInput: true });
    expect(w.status).toBe('waiting-for-input');
    ctl.send('y\n');
    expect((await p).exitCode).toBe(0);
    expect(out).toContain('a=y');
  });

  it('over MCP: sh_session create {ssh, ssh_args} gives a remote session with exit codes, cwd, prompts and a reconnect after exit', async () => {
    const served = await startStdio();
    try {
      const created = await call(served.client, 'sh_session', { action: 'create', name: 'far', ssh: `${user}@127.0.0.1`, ssh_args: sshArgs, cwd: '/tmp' });
      if (created.result.isError) throw new Error(`${created.text}\nsshd: ${sshdLog}`);
      expect(created.data.sessions[0]).toMatchObject({ name: 'far', remote: `${user}@127.0.0.1`, integration: 'osc', cwd: '/tmp' });
      const r = await call(served.client, 'sh_run', { cmd: 'cd /usr && echo "$SSH_CONNECTION" | wc -w; ls /nope', session: 'far' });
      expect(r.data).toMatchObject({ status: 'exited', exit_code: 2, cwd: '/usr' });
      expect(r.text.split('\n')[0]).toBe('4');
      const asked = await call(served.client, 'sh_run', { cmd: 'read -p "Continue? [Y/n] " a; echo "a=$a"', session: 'far', timeout: 20 });
      expect(asked.data.status).toBe('waiting-for-input');
      const answered = await call(served.client, 'sh_interact', { id: asked.data.id, action: 'send', text: 'y\n', wait: 10 });
      expect(answered.text).toContain('a=y');
      const gone = await call(served.client, 'sh_run', { cmd: 'exit 3', session: 'far' });
      expect(gone.data).toMatchObject({ exit_code: 3, shell_exited: true });
      const back = await call(served.client, 'sh_run', { cmd: 'echo back', session: 'far' });
      expect(back.data.exit_code).toBe(0);
      expect(back.data.fresh_shell).toBeTruthy();
      expect(back.text.split('\n')[0]).toBe('back');
    } finally {
      await served.close();
    }
  });

  // The remote fish session runs on this same host (sshd on loopback).
  itUnless(missing('fish'))('a remote fish session: fish quoting, exit codes, cwd and env that persist, exit and reconnect', async () => {
    const r = await m.create({ name: 'remote-fish', ssh: `${user}@127.0.0.1`, sshArgs, shell: 'fish', cwd: '/tmp' });
    if (!r.ok) throw new Error(`${r.error.message}\nsshd: ${sshdLog}`);
    expect(r.value).toMatchObject({ kind: 'fish', integration: 'sentinel', cwd: '/tmp' });
    const run = async (command: string) => {
      let out = '';
      const res = await m.run({ session: 'remote-fish', command, onData: (c) => (out += Buffer.from(c)) });
      return { ...res, out };
    };
    const a = await run("cd /usr; set -x R 'it\\'s'; echo $SSH_CONNECTION | wc -w; ls /nope");
    expect(a.exitCode).toBe(2);
    expect(a.cwd).toBe('/usr');
    // $SSH_CONNECTION has four words on the remote side; then ls's own error.
    expect(a.out).toBe("4\r\nls: cannot access '/nope': No such file or directory\r\n");
    const b = await run('printenv R; echo $PWD; for x in a b\n  echo "$x ü"\nend');
    expect(b.out).toBe("it's\r\n/usr\r\na ü\r\nb ü\r\n");
    const gone = await run('exit 3');
    expect(gone).toMatchObject({ exitCode: 3, shellExited: true });
    const back = await run('echo back $status');
    expect(back.freshShell).toEqual({ previousExitCode: 3, reason: 'the previous shell of session "remote-fish" had exited with status 3; started a fresh one (cwd and environment were reset)' });
    expect(back.out).toBe('back 0\r\n');
  });

  it('exit in the remote shell is reported and the next call reconnects', async () => {
    const r = await m.run({ session: 'remote', command: 'exit 3' });
    expect(r.exitCode).toBe(3);
    expect(r.shellExited).toBe(true);
    let out = '';
    const n = await m.run({ session: 'remote', command: 'echo back', onData: (c) => (out += Buffer.from(c)) });
    expect(n.freshShell).toEqual({ previousExitCode: 3, reason: 'the previous shell of session "remote" had exited with status 3; started a fresh one (cwd and environment were reset)' });
    expect(out).toBe('back\r\n');
  });
});

/**
 * Remote machines over SSH (issue 24): a real OpenSSH server on loopback, twice — two "hosts"
 * (127.0.0.1 and 127.0.0.2, each sshd giving its sessions its own MISH_OPERATOR_DIR and spool,
 * as two machines would have), each with a real agent (the MCP SDK's Client spawning
 * `mish serve` there). The console reaches them only through the user's ssh (`mish console
 * --ssh` as startConsole's remotes): servers grouped by host, raw reads and output, an approval
 * and a credential-blind takeover over the link, and a link killed mid-approval: the request
 * stays pending on its host, is decided after the reconnect, and runs exactly once.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startConsole, type RunningConsole } from '../src/main/console/console-command.js';
import type { ConsoleConnection } from '../src/main/console/hub-types.js';
import type { RequestResult } from '../src/shared/contract.js';
import { ensureElectronBuild, ROOT } from './helpers/fresh-build.js';
import { safeHome, type SafeHome } from './helpers/safe-home.js';
import { describeUnless, itUnless } from './helpers/skip.js';
import { CHROMIUM, launchChromium } from '../e2e/remote-console-kit.js';
import { CONSOLE_FRAME, screenshot } from '../e2e/screenshots.js';

const SSHD = '/usr/sbin/sshd';
const MISH = path.join(ROOT, 'bin', 'mish.js');
/** Hang guard for one step on a loaded machine (never a timing assertion). */
const STEP_MS = 60_000;

const skipReason = !existsSync(SSHD) ? `${SSHD} not installed (apt-get install openssh-server)` : spawnSync('ssh', ['-V']).error ? 'ssh client missing (apt-get install openssh-client)' : '';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => (a && typeof a === 'object' ? resolve(a.port) : reject(new Error('no port'))));
    });
  });
}

async function until<T>(what: string, get: () => T | undefined | false, timeoutMs = STEP_MS): Promise<T> {
  const t = Date.now();
  for (;;) {
    const v = get();
    if (v) return v;
    if (Date.now() - t > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface Host {
  dest: string;
  dir: string;
  env: Record<string, string>;
  sshd: ChildProcess;
  sshArgs: string[];
  agent?: { client: Client; pid: number };
}

describeUnless(skipReason)('the console over ssh: two hosts', () => {
  const user = userInfo().username;
  let safe: SafeHome;
  let keys: string;
  let running: RunningConsole | undefined;
  let view: ConsoleConnection;
  const hosts: Host[] = [];
  const snap = () => running!.web.service.snapshot();
  const ask = async <T>(method: Parameters<ConsoleConnection['handle']>[0], params: unknown): Promise<T> => {
    const r = await view.handle(method, params);
    if (!r.ok) throw new Error(r.error);
    return r.result as T;
  };

  async function startHost(address: string): Promise<Host> {
    const dir = mkdtempSync(path.join(safe.home, 'host-'));
    const env = safe.env({ MISH_OPERATOR_DIR: path.join(dir, 'operators'), MISH_SPOOL_DIR: path.join(dir, 'spool'), MISH_AUDIT_LOG: path.join(dir, 'audit.jsonl') });
    const port = await freePort();
    writeFileSync(
      path.join(dir, 'sshd_config'),
      [
        `HostKey ${path.join(keys, 'host')}`,
        `ListenAddress ${address}`,
        `AuthorizedKeysFile ${path.join(keys, 'authorized_keys')}`,
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'PubkeyAuthentication yes',
        'PermitRootLogin prohibit-password',
        'StrictModes no',
        'UsePAM no',
        'AllowStreamLocalForwarding yes',
        // This "machine"'s own mish state (another machine has its own), and the temp HOME.
        `SetEnv MISH_OPERATOR_DIR=${env.MISH_OPERATOR_DIR} MISH_SPOOL_DIR=${env.MISH_SPOOL_DIR} XDG_RUNTIME_DIR=${env.XDG_RUNTIME_DIR}`,
        `PidFile ${path.join(dir, 'sshd.pid')}`,
        'LogLevel ERROR',
      ].join('\n') + '\n',
    );
    const sshd = spawn(SSHD, ['-D', '-e', '-f', path.join(dir, 'sshd_config'), '-p', String(port)], { stdio: ['ignore', 'ignore', 'inherit'] });
    for (let i = 0; i < 200; i++) {
      const ok = await new Promise<boolean>((r) => {
        const c = connect(port, address, () => (c.destroy(), r(true)));
        c.on('error', () => r(false));
      });
      if (ok) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const sshArgs = ['-p', String(port), '-i', path.join(keys, 'client'), '-o', 'StrictHostKeyChecking=no', '-o', `UserKnownHostsFile=${path.join(keys, 'known_hosts')}`, '-o', 'LogLevel=ERROR'];
    return { dest: `${user}@${address}`, dir, env, sshd, sshArgs };
  }

  async function startAgent(h: Host, name: string): Promise<void> {
    const transport = new StdioClientTransport({ command: process.execPath, args: [MISH, 'serve'], cwd: safe.cwd, env: h.env, stderr: 'ignore' });
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(transport);
    h.agent = { client, pid: transport.pid! };
  }

  const run = (h: Host, args: Record<string, unknown>) =>
    h.agent!.client.callTool({ name: 'sh_run', arguments: { timeout: 120, ...args } }, undefined, { timeout: 10 * 60_000, resetTimeoutOnProgress: true }).then((r) => (r.content as { text: string }[]).map((c) => c.text).join(''));
  const serverIdOf = (h: Host) => `${h.dest}:serve-${h.agent!.pid}`;

  beforeAll(async () => {
    ensureElectronBuild();
    safe = safeHome('operator-relay');
    keys = mkdtempSync(path.join(tmpdir(), 'mish-relay-keys-'));
    mkdirSync('/run/sshd', { recursive: true });
    for (const k of ['host', 'client']) spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(keys, k)]);
    writeFileSync(path.join(keys, 'authorized_keys'), readFileSync(path.join(keys, 'client.pub')));
    hosts.push(await startHost('127.0.0.1'), await startHost('127.0.0.2'));
    await startAgent(hosts[0], 'claude-code');
    await startAgent(hosts[1], 'codex');
    // The console: no local discovery (this machine's servers are not the point), two remotes.
    const started = await startConsole({
      rendererDir: path.join(ROOT, 'out', 'renderer'),
      discover: false,
      remotes: hosts.map((h) => ({ ssh: h.dest, sshArgs: h.sshArgs, mish: [process.execPath, MISH] })),
    });
    if (!started.ok) throw new Error(started.error);
    running = started.value;
    view = running.web.service.connect({ send() {} });
    for (const h of hosts) await until(`${h.dest}'s server in the hub`, () => snap().servers.find((s) => s.id === serverIdOf(h) && s.state === 'connected'));
  }, 4 * STEP_MS);

  afterAll(async () => {
    view?.dispose();
    for (const h of hosts) await h.agent?.client.close().catch(() => {});
    await running?.close();
    for (const h of hosts) h.sshd.kill('SIGTERM');
    rmSync(keys, { recursive: true, force: true });
    safe?.assertCanariesIntact();
    safe?.dispose();
  });

  it('lists each host\'s servers under that host, its link up; output and raw reads come over the link', async () => {
    const s = snap();
    expect(s.hosts?.map((h) => [h.host, h.state]).sort()).toEqual(hosts.map((h) => [h.dest, 'up']).sort());
    expect(s.servers.find((x) => x.id === serverIdOf(hosts[0]))).toMatchObject({ host: hosts[0].dest, name: 'claude-code', kind: 'serve' });
    expect(s.servers.find((x) => x.id === serverIdOf(hosts[1]))).toMatchObject({ host: hosts[1].dest, name: 'codex' });
    const reply = await run(hosts[0], { cmd: 'printf "%s-%s\\n" remote raw', session: 'far' });
    expect(reply).toContain('remote-raw');
    const sessionId = `${serverIdOf(hosts[0])}/far`;
    const cmd = await until('the command in the timeline', () => running!.web.service.timeline(sessionId).find((c) => c.state === 'done' && c.command.includes('remote')));
    const raw = await ask<RequestResult<'command:raw'>>('command:raw', { sessionId, commandId: cmd.id });
    expect(raw.text).toContain('remote-raw');
    const sub = await ask<RequestResult<'session:subscribe'>>('session:subscribe', { sessionId });
    expect(Buffer.from(sub.backlog, 'base64').toString()).toContain('remote-raw');
  }, 3 * STEP_MS);

  it('decides an approval over the link, and takes over a secret prompt credential-blind', async () => {
    const h = hosts[1];
    const scratch = path.join(safe.cwd, 'b-scratch');
    mkdirSync(path.join(scratch, 'dist'), { recursive: true });
    const call = run(h, { cmd: 'rm -rf ./*', session: 'b', cwd: scratch });
    const a = await until('the approval from host b', () => snap().approvals.find((x) => x.serverId === serverIdOf(h)));
    await ask('approval:decide', { serverId: a.serverId, id: a.id, decision: 'approve' });
    expect(await call).toMatch(/\[approved by operator console \(/);
    expect(readdirSync(scratch)).toEqual([]);

    const secret = 'hunter2-over-ssh';
    const prompt = run(h, { cmd: `read -r -s -p 'Token: ' t; echo "len=\${#t}"`, session: 'b2' });
    const ho = await until('the secret prompt handoff', () => snap().handoffs.find((x) => x.serverId === serverIdOf(h) && x.state === 'pending'));
    await prompt; // the agent was told it waits for a human
    const took = await ask<RequestResult<'handoff:take'>>('handoff:take', { sessionId: ho.sessionId, handoffId: ho.id });
    await ask('handoff:input', { serverId: took.serverId, handoffId: took.handoffId, data: `${secret}\r` });
    const back = await ask<RequestResult<'handoff:return'>>('handoff:return', { serverId: took.serverId, handoffId: took.handoffId });
    expect(back.summary).not.toContain(secret);
    const after = await run(h, { cmd: 'echo done', session: 'b2' });
    expect(after).not.toContain(secret);
    expect(readFileSync(h.env.MISH_AUDIT_LOG, 'utf8')).not.toContain(secret);
  }, 3 * STEP_MS);

  it('a link killed mid-approval: the request stays pending, is decided after the reconnect, and runs once', async () => {
    const h = hosts[0];
    const link = running!.links.find((l) => l.target.ssh === h.dest)!;
    const scratch = path.join(safe.cwd, 'a-scratch');
    mkdirSync(path.join(scratch, 'dist'), { recursive: true });
    const count = path.join(safe.cwd, 'a-ran.txt');
    const call = run(h, { cmd: `rm -rf ./* ; echo ran >> ${count}`, session: 'kill', cwd: scratch });
    const a = await until('the approval from host a', () => snap().approvals.find((x) => x.serverId === serverIdOf(h)));
    // The link drops (its ssh connection killed): the host's server is gone here, the link says so.
    process.kill(link.masterPid!, 'SIGKILL');
    await until('the link reconnecting', () => snap().hosts?.find((x) => x.host === h.dest && x.state === 'reconnecting'));
    expect(snap().servers.find((s) => s.id === serverIdOf(h))?.state).toBe('gone');
    // Deciding now cannot reach the host (and must not be queued to run later).
    const early = await view.handle('approval:decide', { serverId: a.serverId, id: a.id, decision: 'approve' });
    expect(early.ok).toBe(false);
    // The link comes back by itself; the same request is still pending on the host.
    await until('the link up again', () => snap().hosts?.find((x) => x.host === h.dest && x.state === 'up' && x.reconnects === 1));
    const again = await until('the same approval after the reconnect', () => snap().approvals.find((x) => x.id === a.id));
    expect(again.serverId).toBe(a.serverId);
    expect(existsSync(count)).toBe(false);
    await ask('approval:decide', { serverId: again.serverId, id: again.id, decision: 'approve' });
    expect(await call).toMatch(/\[approved by operator console \(/);
    expect(readFileSync(count, 'utf8')).toBe('ran\n');
    // Deciding it again is refused by the host: it was settled once.
    const twice = await view.handle('approval:decide', { serverId: again.serverId, id: again.id, decision: 'approve' });
    expect(twice.ok).toBe(false);
    expect(readFileSync(count, 'utf8')).toBe('ran\n');
    // The reconnect replayed host a's recent commands: each is still one row of its timeline.
    const far = running!.web.service.timeline(`${serverIdOf(h)}/far`);
    expect(far.length).toBeGreaterThan(0);
    expect(new Set(far.map((c) => c.id)).size).toBe(far.length);
    // The other host never noticed.
    expect(snap().hosts?.find((x) => x.host === hosts[1].dest)).toMatchObject({ state: 'up', reconnects: 0 });
  }, 4 * STEP_MS);

  // The browser check needs Debian's chromium (scripts/apt-packages.txt); the wire checks above run without it.
  itUnless(existsSync(CHROMIUM) ? '' : `needs ${CHROMIUM} (Debian's chromium, not installed)`)('the page groups sessions by host, then agent, each host saying its link\'s state', async () => {
    const browser = await launchChromium();
    try {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 760 }, colorScheme: 'dark' })).newPage();
      await page.goto(running!.web.url);
      for (const h of hosts) await page.locator(`.host-head[data-host="${h.dest}"]`, { hasText: '● linked' }).waitFor({ timeout: STEP_MS });
      // Host a's heading comes before its agent, host b's before its own.
      const order = await page.locator('.groups > .host-head, .groups > .group').evaluateAll((els) => els.map((e) => e.getAttribute('data-host') ?? e.getAttribute('data-server-id')));
      expect(order).toEqual([hosts[0].dest, serverIdOf(hosts[0]), hosts[1].dest, serverIdOf(hosts[1])]);
      await screenshot(page, 'remote-hosts.png', [...CONSOLE_FRAME, ...hosts.map((h) => `.host-head[data-host="${h.dest}"]`)]);
    } finally {
      await browser.close();
    }
  }, 3 * STEP_MS);
});

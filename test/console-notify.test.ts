/**
 * Notifications (issue 24) against a local HTTP receiver: a real console (its hub and the
 * notifier, `[notify]` settings as the config gives them) with a real agent (the MCP SDK's
 * Client spawning `mish serve` in a temp HOME). Approvals waiting, a session waiting for a
 * secret, and a command failing after a long run each POST one JSON notification with the
 * agent, session, command, rule and a deep link; a quick failure posts nothing; a secret in a
 * command never leaves masked; a burst beyond the rate is summed up in one notification.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole, type RunningConsole } from '../src/main/console/console-command.js';
import { loadConsoleConfig } from '../src/main/console/console-config.js';
import { Notifier, type Notification } from '../src/main/console/notifier.js';
import { secretSamples } from '../src/main/core/redact/test-secrets.js';
import type { PendingApproval } from '../src/shared/contract.js';
import { ROOT } from './helpers/fresh-build.js';
import { safeHome, type SafeHome } from './helpers/safe-home.js';

const MISH = path.join(ROOT, 'bin', 'mish.js');
/** Hang guard for one step on a loaded machine (never a timing assertion). */
const STEP_MS = 60_000;

/** The webhook: a local HTTP server keeping every JSON body it was posted. */
async function receiver(): Promise<{ url: string; got: Notification[]; raw: string[]; next(pred: (n: Notification) => boolean): Promise<Notification>; close(): Promise<void> }> {
  const got: Notification[] = [];
  const raw: string[] = [];
  let wake = () => {};
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      raw.push(`${req.method} ${req.headers['content-type']} ${body}`);
      got.push(JSON.parse(body) as Notification);
      res.writeHead(204).end();
      wake();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    got,
    raw,
    async next(pred) {
      for (;;) {
        const n = got.find(pred);
        if (n) return n;
        await new Promise<void>((r) => (wake = r));
      }
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('notifications to a webhook', () => {
  let safe: SafeHome;
  let running: RunningConsole | undefined;
  let hook: Awaited<ReturnType<typeof receiver>>;
  let client: Client | undefined;
  let serverId: string;
  const call = (args: Record<string, unknown>) => client!.callTool({ name: 'sh_run', arguments: args }, undefined, { timeout: 10 * 60_000, resetTimeoutOnProgress: true });

  beforeAll(async () => {
    safe = safeHome('console-notify');
    hook = await receiver();
    const env = safe.env({ MISH_OPERATOR_DIR: path.join(safe.home, 'operators'), MISH_SPOOL_DIR: path.join(safe.home, 'spool'), MISH_AUDIT_LOG: path.join(safe.home, 'audit.jsonl') });
    // The settings as a user writes them, read by the console's config loader (temp HOME).
    mkdirSync(path.join(safe.home, '.config', 'mish'), { recursive: true });
    writeFileSync(path.join(safe.home, '.config', 'mish', 'console.toml'), `[notify]\nwebhook = "${hook.url}"\nlong_run_seconds = 1\nconsole_url = "http://localhost:8022"\n`);
    const config = loadConsoleConfig(undefined, env);
    if (!config.ok) throw new Error(config.error);
    expect(config.value.notify).toEqual({ webhook: hook.url, events: ['approval', 'input', 'secret', 'failed'], maxPerMinute: 6, longRunSeconds: 1, consoleUrl: 'http://localhost:8022' });
    const started = await startConsole({ rendererDir: path.join(ROOT, 'out', 'renderer'), operatorDir: env.MISH_OPERATOR_DIR, setup: { notify: config.value.notify, remotes: [] } });
    if (!started.ok) throw new Error(started.error);
    running = started.value;
    const transport = new StdioClientTransport({ command: process.execPath, args: [MISH, 'serve'], cwd: safe.cwd, env, stderr: 'ignore' });
    client = new Client({ name: 'claude-code', version: '2.1' });
    await client.connect(transport);
    serverId = `serve-${transport.pid}`;
    // The console found the agent's server (hooks have no expect.poll).
    for (let t = Date.now(); !running.web.service.snapshot().servers.some((s) => s.id === serverId); ) {
      if (Date.now() - t > STEP_MS) throw new Error(`the console never listed ${serverId}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }, 3 * STEP_MS);

  afterAll(async () => {
    await client?.close().catch(() => {});
    await running?.close();
    await hook?.close();
    safe?.assertCanariesIntact();
    safe?.dispose();
  });

  const decide = async (id: string, decision: 'approve' | 'deny') => {
    const view = running!.web.service.connect({ send() {} });
    const r = await view.handle('approval:decide', { serverId, id, decision });
    view.dispose();
    expect(r.ok).toBe(true);
  };

  it('posts an approval waiting with agent, session, command, rule and a deep link; the secret in it masked', async () => {
    const scratch = path.join(safe.cwd, 'n1');
    mkdirSync(path.join(scratch, 'dist'), { recursive: true });
    const token = secretSamples().find((s) => s.kind === 'github classic token')!.secret;
    const pending = call({ cmd: `rm -rf ./* # deploy key ${token}`, session: 'n1', cwd: scratch, timeout: 120 });
    const n = await hook.next((x) => x.kind === 'approval');
    const id = running!.web.service.snapshot().approvals[0].id;
    expect(n).toMatchObject({ kind: 'approval', agent: 'claude-code 2.1', session: 'n1', rule: 'rm-recursive-root-or-home', link: `http://localhost:8022/#session=${encodeURIComponent(`${serverId}/n1`)}&approval=${id}` });
    expect(n.command).toMatch(/^rm -rf \.\/\* # deploy key \[masked: github token\]$/);
    expect(n.text).toMatch(/^⚠ claude-code 2\.1 · n1: approve\? rm -rf/);
    expect(hook.raw.join('\n')).not.toContain(token);
    expect(hook.raw[0]).toMatch(/^POST application\/json /);
    await decide(id, 'deny');
    expect(JSON.stringify((await pending).content)).toMatch(/denied by the operator/);
    // Once per approval: still one after the hub's later snapshots.
    await running!.web.service.snapshot();
    expect(hook.got.filter((x) => x.kind === 'approval')).toHaveLength(1);
  }, 3 * STEP_MS);

  it('posts a session waiting for a secret (the prompt, never a typed value)', async () => {
    const waiting = call({ cmd: `read -r -s -p 'Vault password: ' pw; echo "got \${#pw}"`, session: 'n2', cwd: safe.cwd, timeout: 120 });
    const n = await hook.next((x) => x.kind === 'secret');
    expect(n).toMatchObject({ kind: 'secret', agent: 'claude-code 2.1', session: 'n2', link: `http://localhost:8022/#session=${encodeURIComponent(`${serverId}/n2`)}` });
    expect(n.prompt).toContain('Vault password:');
    expect(n.command).toContain('read -r -s');
    // The agent was told it waits; its call returned (it answers with sh_interact, or a human takes over).
    expect(JSON.stringify((await waiting).content)).toMatch(/password|input/i);
    // A handoff and a waiting session stand for the same prompt: posted once.
    expect(hook.got.filter((x) => x.kind === 'secret' || x.kind === 'input')).toHaveLength(1);
  }, 3 * STEP_MS);

  it('posts a command failing after a long run, and nothing for a quick failure', async () => {
    await call({ cmd: 'false', session: 'n3', cwd: safe.cwd });
    await call({ cmd: 'sleep 1.3; exit 3', session: 'n3', cwd: safe.cwd });
    const n = await hook.next((x) => x.kind === 'failed');
    expect(n).toMatchObject({ kind: 'failed', agent: 'claude-code 2.1', session: 'n3', command: 'sleep 1.3; exit 3', exitCode: 3 });
    expect(n.durationMs).toBeGreaterThanOrEqual(1000);
    expect(n.text).toMatch(/failed \(exit 3\) after 1 s$/);
    expect(hook.got.filter((x) => x.kind === 'failed')).toHaveLength(1);
  }, 3 * STEP_MS);
});

describe('the notifier\'s rate limit', () => {
  const approval = (id: string): PendingApproval => ({ id, serverId: 's', sessionId: 's/w', session: 'w', tool: 'sh_run', command: `rm -rf ./${id}`, cwd: '/w', dangers: [{ id: 'rm', description: 'd', text: 'rm -rf' }], createdAt: 1, expiresAt: 2 });

  it('sends up to the rate, counts the rest, and sums them up once the window allows', async () => {
    const posted: Notification[] = [];
    const WINDOW_MS = 300;
    const n = new Notifier({ webhook: 'http://unused.invalid/', events: ['approval'], maxPerMinute: 2, longRunSeconds: 60 }, 'http://127.0.0.1:1/#token=x', () => {}, async (_u, body) => void posted.push(body), WINDOW_MS);
    const hub = (ids: string[]) => ({ servers: [{ id: 's', kind: 'serve' as const, name: 'codex', state: 'connected' as const }], sessions: [], approvals: ids.map(approval), handoffs: [] });
    n.onHub(hub(['a_1', 'a_2', 'a_3', 'a_4', 'a_5']));
    n.onHub(hub(['a_1', 'a_2', 'a_3', 'a_4', 'a_5'])); // the same again: nothing new
    await n.flushed();
    expect(posted.map((p) => p.kind)).toEqual(['approval', 'approval']);
    expect(posted[0].link).toBe('http://127.0.0.1:1/#session=s%2Fw&approval=a_1');
    await expect.poll(() => posted.length, { timeout: 5_000 }).toBe(3);
    await n.flushed();
    expect(posted[2]).toMatchObject({ kind: 'suppressed', suppressed: 3 });
    expect(posted[2].text).toBe('3 more notifications held back (rate limit); open the console');
    n.dispose();
  });

  it('refuses a bad [notify] section with one line', () => {
    const safe = safeHome('notify-config');
    try {
      const file = path.join(safe.home, 'console.toml');
      writeFileSync(file, '[notify]\nwebhook = "ftp://x"\n');
      const r = loadConsoleConfig(file, safe.env());
      expect(r).toEqual({ ok: false, error: `console config ${file}: notify.webhook: an http:// or https:// URL` });
      writeFileSync(file, '[notify]\nwebhook = "https://x"\nevents = ["approval", "lunch"]\n');
      const r2 = loadConsoleConfig(file, safe.env());
      expect(r2.ok).toBe(false);
      if (!r2.ok) expect(r2.error).toMatch(/^console config .*: notify\.events\.1: [^\n]+$/);
    } finally {
      safe.dispose();
    }
  });
});

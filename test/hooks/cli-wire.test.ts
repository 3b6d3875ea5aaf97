/**
 * A `mish <cmd>` run (what a hook's rewrite runs) is published on the operator wire while an
 * operator is running: a session of the agent named by MISH_AGENT / MISH_AGENT_SESSION, with the
 * command's start and end, its raw output and the exact text the agent received — through the
 * same OperatorClient the console and `mish approvals` use. With no operator running it opens no
 * socket at all.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../src/shared/operator-wire.js';
import { startDiscovery } from '../../src/main/console/wire-server.js';
import { safeHome, type SafeHome } from '../helpers/safe-home.js';
import { watchServers } from './operator-watch.js';

const MISH = path.resolve(__dirname, '../../bin/mish.js');
let home: SafeHome;
let dir: string;
beforeEach(() => {
  home = safeHome('cli-wire');
  dir = path.join(home.home, '.run', 'ops');
});
afterEach(() => home.dispose());

function run(line: string, extra: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [MISH, '--', line], { cwd: home.cwd, env: home.env({ MISH_OPERATOR_DIR: dir, ...extra }), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString()));
    c.on('close', (code) => resolve({ code, out }));
  });
}

/** The safe home's audit log (XDG_STATE_HOME/mish/audit.jsonl), parsed. */
function auditRecords(): Record<string, unknown>[] {
  const log = path.join(home.home, '.state', 'mish', 'audit.jsonl');
  return existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) : [];
}

/** A hang guard on a loaded machine, never a speed claim: the wait ends and the assertion after it says what was missing. */
const HANG_GUARD_MS = 15_000;
async function until(ok: () => boolean): Promise<void> {
  for (const end = Date.now() + HANG_GUARD_MS; !ok() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
}

describe('mish <cmd> on the operator wire', () => {
  it('with an operator running: a session of the agent, its command, raw output and the text the agent received', async () => {
    const seen: { client?: string; version?: string; sessions: string[]; messages: ServerMessage[]; backlog: string; live: string }[] = [];
    // Looking for servers marks this process as a running operator, as the console does.
    const operator = watchServers(dir, { name: 'test-console', role: 'console', approvals: true }, async (client) => {
      const rec = { client: client.hello.client?.name, version: client.hello.client?.version, sessions: client.hello.sessions.map((x) => x.name), messages: [...(client.hello.recent ?? [])] as ServerMessage[], backlog: '', live: '' };
      seen.push(rec);
      for (const t of ['command-start', 'command-end', 'condensed', 'command-report'] as const) client.on(t, (m) => rec.messages.push(m as ServerMessage));
      // The output after the subscription (on a loaded machine the command may not have printed yet when the backlog is read).
      client.on('output', (m) => {
        if (m.type === 'output' && m.stream.id === 'sess-42') rec.live += Buffer.from(m.data, 'base64').toString();
      });
      const sub = await client.request({ type: 'subscribe', stream: { kind: 'session', id: 'sess-42' } });
      if (sub.ok) rec.backlog = Buffer.from((sub.result as { backlog: string }).backlog, 'base64').toString();
    });
    try {
      await new Promise((res) => setTimeout(res, 100));
      const r = await run('printf "alpha\\nbeta\\n"; exit 4', { MISH_AGENT: 'claude-code', MISH_AGENT_VERSION: '2.1.332', MISH_AGENT_SESSION: 'sess-42' });
      expect(r.code).toBe(4);
      expect(r.out).toContain('[exit 4]');
      expect(seen.length).toBe(1);
      const s = seen[0];
      expect(s).toMatchObject({ client: 'claude-code', version: '2.1.332', sessions: ['sess-42'] });
      const start = s.messages.find((m) => m.type === 'command-start');
      const end = s.messages.find((m) => m.type === 'command-end');
      const reply = s.messages.find((m) => m.type === 'condensed' && m.reply && m.final);
      expect(start).toMatchObject({ session: 'sess-42', command: 'printf "alpha\\nbeta\\n"; exit 4' });
      expect(end).toMatchObject({ session: 'sess-42', exitCode: 4 });
      expect(reply && reply.type === 'condensed' ? reply.lines.join('\n') : '').toBe(r.out.replace(/\n$/, ''));
      await until(() => /alpha\r?\nbeta/.test(s.backlog + s.live));
      expect(s.backlog + s.live).toMatch(/alpha\r?\nbeta/);
      // Its audit record names the agent and its session, with the command id the wire showed: a
      // console started later reads it back as this same row (console/hook-history.ts).
      const ran = auditRecords().filter((x) => x.kind === 'command');
      expect(ran).toHaveLength(1);
      expect(ran[0]).toMatchObject({ agent: 'claude-code/2.1.332', session: 'sess-42', id: start && start.type === 'command-start' ? start.commandId : '?', decision: 'ran', exitCode: 4 });
    } finally {
      await operator.stop();
    }
  }, 60_000);

  it('with no operator running: no socket, and the audit record still says whose run it was (agent, session, command id)', async () => {
    const r = await run('echo unwatched', { MISH_AGENT: 'gemini-cli', MISH_AGENT_VERSION: '0.61.0', MISH_AGENT_SESSION: 'g-7' });
    expect(r.code).toBe(0);
    expect(existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.sock')) : []).toEqual([]);
    const ran = auditRecords().filter((x) => x.kind === 'command');
    expect(ran).toHaveLength(1);
    expect(ran[0]).toMatchObject({ agent: 'gemini-cli/0.61.0', session: 'g-7', command: 'echo unwatched', decision: 'ran', exitCode: 0 });
    expect(ran[0].id).toMatch(/^c[0-9a-f]{12}$/);
    // A run by hand (no hook) names no agent, as before.
    await run('echo by-hand', {});
    const byHand = auditRecords().filter((x) => x.kind === 'command' && x.command === 'echo by-hand');
    expect(byHand).toHaveLength(1);
    expect(byHand[0].agent).toBeUndefined();
    expect(byHand[0].session).toBeUndefined();
  }, 60_000);

  it("the console's own discovery finds a short agent run (socket settle, directory watch) and gets its record", async () => {
    const found: { name?: string; sessions: string[]; commands: string[] }[] = [];
    const d = await startDiscovery({
      dir,
      onServer: (server) => {
        // What the console builds its timeline from: the hello's recent messages, then live ones.
        const rec = { name: server.client.hello.client?.name, sessions: server.client.hello.sessions.map((x) => x.name), commands: (server.client.hello.recent ?? []).flatMap((m) => (m.type === 'command-start' ? [m.command] : [])) };
        server.client.on('command-start', (m) => rec.commands.push(m.command));
        found.push(rec);
      },
      onGone: () => {},
    });
    try {
      const r = await run('echo quick', { MISH_AGENT: 'gemini-cli', MISH_AGENT_SESSION: 'g-1' });
      expect(r.code).toBe(0);
      // The run waited for the console's connection; the console's side of the hello may finish a moment after the run's exit.
      for (let i = 0; i < 100 && found.length === 0; i++) await new Promise((res) => setTimeout(res, 20));
      expect(found).toEqual([{ name: 'gemini-cli', sessions: ['g-1'], commands: ['echo quick'] }]);
    } finally {
      d.close();
    }
  }, 60_000);

  it('with no operator running: no socket is opened', async () => {
    let sockets = 0;
    let stop = false;
    const watch = (async () => {
      while (!stop) {
        if (existsSync(dir)) sockets += readdirSync(dir).filter((n) => n.endsWith('.sock')).length;
        await new Promise((res) => setTimeout(res, 10));
      }
    })();
    const r = await run('sleep 0.5; echo done', { MISH_AGENT: 'codex' });
    stop = true;
    await watch;
    expect(r.code).toBe(0);
    expect(sockets).toBe(0);
  }, 60_000);
});

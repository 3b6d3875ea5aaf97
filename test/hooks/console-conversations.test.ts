/**
 * Hooked runs in the console, grouped per agent conversation, with real parts: real `mish <cmd>`
 * runs as a hook's rewrite starts them (MISH_AGENT / MISH_AGENT_SESSION), the console's own
 * discovery of their operator sockets, and its hub (ConsoleService) as a view reads it. Two runs
 * of one session id are one agent entry with one session whose timeline has both; another
 * session id is another entry; a finished run's rows, raw output and terminal output stay.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventName } from '../../src/shared/contract.js';
import { ConsoleService } from '../../src/main/console/console-service.js';
import { startDiscovery } from '../../src/main/console/wire-server.js';
import { safeHome, type SafeHome } from '../helpers/safe-home.js';

const MISH = path.resolve(__dirname, '../../bin/mish.js');
let home: SafeHome;
let dir: string;
const savedSpoolDir = process.env.MISH_SPOOL_DIR;
beforeEach(() => {
  home = safeHome('console-conv');
  dir = path.join(home.home, '.run', 'ops');
  // The hub reads a run's raw output from the spool its run wrote (same user, same machine).
  process.env.MISH_SPOOL_DIR = path.join(home.home, '.state', 'mish', 'spool');
});
afterEach(() => {
  if (savedSpoolDir === undefined) delete process.env.MISH_SPOOL_DIR;
  else process.env.MISH_SPOOL_DIR = savedSpoolDir;
  home.dispose();
});

/** One hooked run, as the hook's rewrite runs it: `MISH_AGENT=… MISH_AGENT_SESSION=… mish -- '<line>'`. */
function hookedRun(line: string, agent: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [MISH, '--', line], { cwd: home.cwd, env: home.env({ MISH_OPERATOR_DIR: dir, MISH_SPOOL_DIR: process.env.MISH_SPOOL_DIR!, ...agent }), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString()));
    c.on('close', (code) => resolve({ code, out }));
  });
}

describe('hooked runs in the console, per agent conversation', () => {
  it('two runs of one session id: one agent entry, one session, two timeline rows (raw and agent text kept after the runs ended); another session id: a second entry', async () => {
    const service = new ConsoleService([]);
    const discovery = await startDiscovery({ dir, onServer: (s) => service.addServer(s), onGone: (id) => service.serverGone(id) });
    const seen: { event: EventName; payload: unknown }[] = [];
    const view = service.connect({ send: (event, payload) => void seen.push({ event, payload }) });
    try {
      // The hook's rewrite passes the host's transcript_path: the console shows it on the conversation's entry.
      const claudeA = { MISH_AGENT: 'claude-code', MISH_AGENT_VERSION: '2.1.332', MISH_AGENT_SESSION: 'sess-A', MISH_AGENT_TRANSCRIPT: '/home/u/.claude/projects/-w/sess-A.jsonl' };
      const first = await hookedRun('printf "alpha\\n"; exit 3', claudeA);
      expect(first.code).toBe(3);
      const second = await hookedRun('echo beta', claudeA);
      expect(second.code).toBe(0);
      // Claude Code names itself and its version in its shell tool's environment (AI_AGENT): the version when the hook gave none.
      const other = await hookedRun('echo gamma', { MISH_AGENT: 'claude-code', MISH_AGENT_SESSION: 'sess-B', AI_AGENT: 'claude-code_2-1-332_agent' });
      expect(other.code).toBe(0);

      // Every run has ended (its socket closed): the console still shows the two conversations.
      await expect.poll(() => service.snapshot().servers.filter((s) => s.conversation?.live === 0).length).toBe(2);
      const snap = service.snapshot();
      expect(snap.servers.map((s) => ({ name: s.name, version: s.version, state: s.state, conversation: s.conversation }))).toEqual([
        { name: 'claude-code', version: '2.1.332', state: 'connected', conversation: { session: 'sess-A', runs: 2, live: 0, lastRunAt: expect.any(Number), transcript: '/home/u/.claude/projects/-w/sess-A.jsonl' } },
        { name: 'claude-code', version: '2.1.332', state: 'connected', conversation: { session: 'sess-B', runs: 1, live: 0, lastRunAt: expect.any(Number) } },
      ]);
      expect(snap.sessions.map((s) => [s.name, s.state, s.cwd])).toEqual([
        ['sess-A', 'idle', home.cwd],
        ['sess-B', 'idle', home.cwd],
      ]);
      const a = snap.sessions[0].id;
      // Both rows, with the exit codes, what the agent received and the raw tokens (counted from each run's spool).
      await expect.poll(() => service.timeline(a).filter((c) => c.tokensRaw !== undefined).length).toBe(2);
      const rows = service.timeline(a);
      expect(rows.map((c) => [c.command, c.state, c.exitCode])).toEqual([
        ['printf "alpha\\n"; exit 3', 'done', 3],
        ['echo beta', 'done', 0],
      ]);
      expect(rows[0].agentSaw).toBe(first.out.replace(/\n$/, ''));
      expect(rows[1].agentSaw).toBe(second.out.replace(/\n$/, ''));
      expect(rows[0].tokensRaw).toBeGreaterThan(0);
      expect(service.timeline(snap.sessions[1].id).map((c) => c.command)).toEqual(['echo gamma']);

      // Raw vs what the agent saw, for a run long gone: the raw pane reads its spool.
      const raw = await view.handle('command:raw', { sessionId: a, commandId: rows[0].id });
      expect(raw).toMatchObject({ ok: true, result: { text: 'alpha' } });
      // The conversation's terminal holds each run's output in turn.
      const sub = await view.handle('session:subscribe', { sessionId: a });
      expect(sub.ok).toBe(true);
      const backlog = Buffer.from((sub as { result: { backlog: string } }).result.backlog, 'base64').toString();
      expect(backlog).toMatch(/alpha[\s\S]*beta/);
      expect(backlog).not.toContain('gamma');
    } finally {
      view.dispose();
      discovery.close();
      service.dispose();
    }
  }, 90_000);
});

import { describe, expect, it } from 'vitest';
import type { EventName, EventPayload } from '../../shared/contract.js';
import type { SessionEvent, SessionEventListener, SessionInfo } from '../core/session/types.js';
import { type HubOperator, ConsoleService, FLOW_HIGH_WATERMARK, FLOW_LOW_WATERMARK, type HubServer } from './console-service.js';

/** A server driven by the test: the hub's bookkeeping, not PTYs, is under test here. */
function scripted(id: string): HubServer & { emit(e: SessionEvent): void; raw(bytes: Buffer | string, cmd?: string): void; sessions: SessionInfo[] } {
  const listeners = new Set<SessionEventListener>();
  const sessions: SessionInfo[] = [{ name: 'default', shell: '/bin/bash', kind: 'bash', integration: 'osc', pid: 42, cwd: '/w', state: 'idle', createdAt: 0, commands: 0 }];
  return {
    id,
    sessions,
    info: () => ({ kind: 'serve', name: `agent-${id}`, cwd: '/w' }),
    list: () => sessions,
    subscribe: (l) => (listeners.add(l), () => void listeners.delete(l)),
    emit: (e) => listeners.forEach((l) => l(e)),
    raw(bytes, cmd = 'c1') {
      this.emit({ type: 'raw', source: { kind: 'command', id: cmd, session: 'default' }, chunk: Buffer.from(bytes) });
    },
  };
}

/** A view that records events and lets the test wait for one. */
function view() {
  const events: { event: EventName; payload: any }[] = [];
  let wake = () => {};
  return {
    events,
    client: {
      send<E extends EventName>(event: E, payload: EventPayload<E>) {
        events.push({ event, payload });
        wake();
      },
    },
    async until(pred: () => boolean) {
      while (!pred()) await new Promise<void>((r) => (wake = r));
    },
    bytes: () => events.filter((e) => e.event === 'session:output').reduce((n, e) => n + Buffer.from(e.payload.data, 'base64').length, 0),
  };
}

describe('console hub', () => {
  it('groups sessions by server and marks a gone server\'s sessions gone, leaving the other alone', async () => {
    const a = scripted('a');
    const b = scripted('b');
    const hub = new ConsoleService([a, b]);
    a.emit({ type: 'command-start', id: 'c1', session: 'default', command: 'sleep 9', cwd: '/w', at: 1 });
    expect(hub.snapshot().sessions.map((s) => [s.id, s.state])).toEqual([
      ['a/default', 'idle'],
      ['b/default', 'idle'],
    ]);
    hub.serverGone('a');
    const snap = hub.snapshot();
    expect(snap.servers.map((s) => [s.id, s.state])).toEqual([
      ['a', 'gone'],
      ['b', 'connected'],
    ]);
    expect(snap.sessions.map((s) => [s.id, s.state])).toEqual([
      ['a/default', 'gone'],
      ['b/default', 'idle'],
    ]);
    // The running command ends without an exit code (nobody can know it).
    expect(hub.timeline('a/default')[0].state).toBe('done');
    expect(hub.timeline('a/default')[0].exitCode).toBeUndefined();
    hub.dispose();
  });

  it('lists the escalations waiting for an operator with their server and session, oldest first', () => {
    const a = scripted('a');
    const approval = (id: string, createdAt: number) => ({ id, session: 'default', tool: 'sh_run' as const, command: 'rm -rf build', cwd: '/w', dangers: [{ id: 'rm-rf', description: 'recursive delete', text: 'rm -rf build' }], rule: 'rm-recursive', reason: 'deletes a tree', createdAt, expiresAt: createdAt + 300_000 });
    const pending = [approval('a_2', 20), approval('a_1', 10)];
    const refused = async () => ({ ok: false as const, error: 'not in this test' });
    const operator: HubOperator = { approvals: () => pending, handoffs: () => [], decide: refused, take: refused, input: () => {}, giveBack: refused };
    const hub = new ConsoleService([{ ...a, operator }]);
    expect(hub.snapshot().approvals.map((x) => [x.id, x.serverId, x.sessionId, x.rule])).toEqual([
      ['a_1', 'a', 'a/default', 'rm-recursive'],
      ['a_2', 'a', 'a/default', 'rm-recursive'],
    ]);
    // A gone server's escalations are gone with it (its calls were denied when it ended).
    hub.serverGone('a');
    expect(hub.snapshot().approvals).toEqual([]);
    hub.dispose();
  });

  it('raises and clears the waiting state of a session', async () => {
    const a = scripted('a');
    const hub = new ConsoleService([a]);
    a.emit({ type: 'command-start', id: 'c1', session: 'default', command: 'apt install x', cwd: '/w', at: 1 });
    a.emit({ type: 'waiting-for-input', source: { kind: 'command', id: 'c1', session: 'default' }, waiting: { prompt: 'Continue? [Y/n]', secret: false, reasons: ['prompt-pattern'], since: 5 } });
    expect(hub.snapshot().sessions[0]).toMatchObject({ state: 'waiting', waiting: { prompt: 'Continue? [Y/n]', secret: false }, command: 'apt install x' });
    expect(hub.timeline('a/default')[0].state).toBe('waiting');
    a.raw('y\r\n');
    expect(hub.snapshot().sessions[0].state).not.toBe('waiting');
    expect(hub.timeline('a/default')[0].state).toBe('running');
    hub.dispose();
  });

  it('stops sending a view more than the high watermark unacknowledged, resumes below the low one, and skips what fell out of the backlog', async () => {
    const a = scripted('a');
    const hub = new ConsoleService([a]);
    const v = view();
    const conn = hub.connect(v.client);
    const sub = await conn.handle('session:subscribe', { sessionId: 'a/default' });
    expect(sub.ok).toBe(true);
    const chunk = Buffer.alloc(32 * 1024, 0x61);
    for (let i = 0; i < 16; i++) a.raw(chunk); // 512 KB
    await v.until(() => v.bytes() >= FLOW_HIGH_WATERMARK);
    // Let a few more batch timers pass: nothing beyond the window is sent.
    await new Promise((r) => setTimeout(r, 100));
    expect(v.bytes()).toBe(FLOW_HIGH_WATERMARK);
    // Acknowledging down to just above the low watermark is not enough …
    await conn.handle('session:ack', { sessionId: 'a/default', offset: FLOW_HIGH_WATERMARK - FLOW_LOW_WATERMARK - 1 });
    await new Promise((r) => setTimeout(r, 100));
    expect(v.bytes()).toBe(FLOW_HIGH_WATERMARK);
    // … at the low watermark sending resumes, up to the window again.
    await conn.handle('session:ack', { sessionId: 'a/default', offset: FLOW_HIGH_WATERMARK - FLOW_LOW_WATERMARK });
    await v.until(() => v.bytes() === 2 * FLOW_HIGH_WATERMARK - FLOW_LOW_WATERMARK);
    // The view stays stalled while 2 MB more arrive: the backlog (512 KB) cannot hold it all.
    for (let i = 0; i < 64; i++) a.raw(chunk);
    await conn.handle('session:ack', { sessionId: 'a/default', offset: 2 * FLOW_HIGH_WATERMARK - FLOW_LOW_WATERMARK });
    await v.until(() => v.events.some((e) => e.event === 'session:output' && e.payload.skipped));
    const skippedEv = v.events.find((e) => e.event === 'session:output' && e.payload.skipped)!;
    const total = 80 * chunk.length;
    // Every byte is either sent or counted as skipped, and the resumed output starts where the skip ends.
    expect(skippedEv.payload.offset).toBe(2 * FLOW_HIGH_WATERMARK - FLOW_LOW_WATERMARK + skippedEv.payload.skipped);
    expect(skippedEv.payload.offset).toBeLessThanOrEqual(total);
    conn.dispose();
    hub.dispose();
  });
});

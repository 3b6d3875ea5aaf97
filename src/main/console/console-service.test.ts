import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EventName, EventPayload } from '../../shared/contract.js';
import type { SessionEvent, SessionEventListener, SessionInfo } from '../core/session/types.js';
import { ConsoleService } from './console-service.js';
import type { HubEvent, HubOperator, HubServer } from './hub-types.js';
import { FLOW_HIGH_WATERMARK, FLOW_LOW_WATERMARK } from './output-streams.js';

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

/** One step of the hub's (fake) clock: its output batching interval. */
const FRAME_MS = 16;
/** A hang guard in frames of the fake clock (a minute of it): no real time passes in these tests. */
const MAX_FRAMES = 60_000 / FRAME_MS;
/** "Nothing more is sent": this much of the hub's clock passes (several batch and rate timers), then the test looks. */
const QUIET_MS = 500;
const quiet = () => vi.advanceTimersByTimeAsync(QUIET_MS);

/** A view that records events and lets the test wait for one. */
function view() {
  const events: { event: EventName; payload: any }[] = [];
  return {
    events,
    client: {
      send<E extends EventName>(event: E, payload: EventPayload<E>) {
        events.push({ event, payload });
      },
    },
    /** Lets the hub's clock run, a frame at a time, until `pred` holds (fake timers: see the describe). */
    async until(pred: () => boolean) {
      for (let frames = 0; !pred(); frames++) {
        if (frames > MAX_FRAMES) throw new Error(`still not so after ${MAX_FRAMES} frames of the hub's clock`);
        await vi.advanceTimersByTimeAsync(FRAME_MS);
      }
    },
    bytes: () => events.filter((e) => e.event === 'session:output').reduce((n, e) => n + Buffer.from(e.payload.data, 'base64').length, 0),
  };
}

/** A `mish serve` seen by the hub whose output is acknowledged on demand (consumed), for the flow tests. */
function onDemandServer() {
  const listeners = new Set<(e: HubEvent) => void>();
  const consumed: number[] = [];
  let opened = 0;
  let end = 0;
  const server: HubServer = {
    id: 's',
    info: () => ({ kind: 'serve', name: 'agent', cwd: '/w' }),
    list: () => [{ name: 'w', shell: '/bin/bash', state: 'busy' }],
    subscribe: (l) => (listeners.add(l), () => void listeners.delete(l)),
    openStream: async () => (opened++, { ok: true, backlog: Buffer.alloc(0), offset: end }),
    consumed: (_session, bytes) => void consumed.push(bytes),
  };
  const out = (n: number) => {
    listeners.forEach((l) => l({ type: 'stream-output', session: 'w', offset: end, chunk: Buffer.alloc(n, 0x62) }));
    end += n;
  };
  return { server, consumed, out, opens: () => opened, offset: () => end };
}

describe('console hub', () => {
  // The hub's batching, rate and flow timers run on a fake clock the test advances: "nothing more
  // was sent" is checked after a known number of the hub's timers have fired, never after a real
  // sleep that a loaded machine may not even schedule in time.
  beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] }));
  afterEach(() => void vi.useRealTimers());

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
    // Flow control alone: no rate limit on the view (that has its own test below).
    const hub = new ConsoleService([a], { viewRate: { bytesPerSecond: 1e12, burst: 1e12, piece: 1 } });
    const v = view();
    const conn = hub.connect(v.client);
    const sub = await conn.handle('session:subscribe', { sessionId: 'a/default' });
    expect(sub.ok).toBe(true);
    const chunk = Buffer.alloc(32 * 1024, 0x61);
    for (let i = 0; i < 16; i++) a.raw(chunk); // 512 KB
    await v.until(() => v.bytes() >= FLOW_HIGH_WATERMARK);
    // Let a few more batch timers pass: nothing beyond the window is sent.
    await quiet();
    expect(v.bytes()).toBe(FLOW_HIGH_WATERMARK);
    // Acknowledging down to just above the low watermark is not enough …
    await conn.handle('session:ack', { sessionId: 'a/default', offset: FLOW_HIGH_WATERMARK - FLOW_LOW_WATERMARK - 1 });
    await quiet();
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

  it('draws a burst within a view\'s budget whole; of output beyond it, only the newest bytes, saying how many it skipped, then nothing until the budget refills', async () => {
    const a = scripted('a');
    // A refill too slow to matter within the test: the burst is what the view may get.
    const hub = new ConsoleService([a], { viewRate: { bytesPerSecond: 1024, burst: 64 * 1024, piece: 16 * 1024, shown: 8 * 1024 } });
    const v = view();
    const conn = hub.connect(v.client);
    await conn.handle('session:subscribe', { sessionId: 'a/default' });
    // A burst within the budget (a test run's report): every byte, nothing skipped.
    a.raw(Buffer.alloc(32 * 1024, 0x41));
    await v.until(() => v.bytes() >= 32 * 1024);
    let out = v.events.filter((e) => e.event === 'session:output').map((e) => e.payload);
    expect(out.every((o) => !o.skipped)).toBe(true);
    expect(v.bytes()).toBe(32 * 1024);
    // Then a flood beyond what is left of the budget: one look at its newest bytes.
    const total = 32 * 1024 + 16 * 16 * 1024;
    for (let i = 0; i < 16; i++) a.raw(Buffer.alloc(16 * 1024, 0x61 + i));
    await v.until(() => v.events.some((e) => e.event === 'session:output' && e.payload.skipped));
    await quiet();
    out = v.events.filter((e) => e.event === 'session:output').map((e) => e.payload);
    const flood = out.slice(out.findIndex((o) => o.skipped));
    const floodBytes = flood.reduce((n, o) => n + Buffer.from(o.data, 'base64').length, 0);
    expect(floodBytes).toBe(8 * 1024);
    // The newest bytes, contiguous up to the end, after one reported skip of all the rest.
    expect(flood[0].skipped).toBe(flood[0].offset - 32 * 1024);
    const last = flood[flood.length - 1];
    expect(last.offset + Buffer.from(last.data, 'base64').length).toBe(total);
    expect(Buffer.from(last.data, 'base64').at(-1)).toBe(0x61 + 15);
    // The whole budget is spent on that look: more output waits for the refill.
    a.raw(Buffer.alloc(1024, 0x7a));
    await quiet();
    expect(v.bytes()).toBe(32 * 1024 + 8 * 1024);
    conn.dispose();
    hub.dispose();
  });

  it('acknowledges an on-demand server\'s output only while a view keeps up, and opens the stream again for a view after a pause', async () => {
    const { server, consumed, out, opens, offset } = onDemandServer();
    const hub = new ConsoleService([server]);
    const v = view();
    const conn = hub.connect(v.client);
    await conn.handle('session:subscribe', { sessionId: 's/w' });
    // A view that keeps up (the test acknowledges everything at once): the server hears of every byte.
    for (let i = 0; i < 4; i++) {
      out(10_000);
      await v.until(() => v.bytes() === offset());
      await conn.handle('session:ack', { sessionId: 's/w', offset: offset() });
    }
    await quiet();
    expect(consumed.reduce((x, y) => x + y, 0)).toBe(40_000);
    // Nobody watching: nothing more is acknowledged (the server stops sending it).
    await conn.handle('session:unsubscribe', { sessionId: 's/w' });
    out(10_000);
    await quiet();
    expect(consumed.reduce((x, y) => x + y, 0)).toBe(40_000);
    // A view comes back: the stream is opened again (the server's window starts afresh).
    expect(opens()).toBe(1);
    await conn.handle('session:subscribe', { sessionId: 's/w' });
    expect(opens()).toBe(2);
    conn.dispose();
    hub.dispose();
  });

  it('does not acknowledge a flood a view only looks at (the server stops encoding it), and does once the view is level again', async () => {
    const { server, consumed, out, offset } = onDemandServer();
    // A fast refill (a look every ~50 ms) so the test sees the view come level again.
    const hub = new ConsoleService([server], { viewRate: { bytesPerSecond: 160 * 1024, burst: 16 * 1024, piece: 8 * 1024, shown: 4 * 1024 } });
    const v = view();
    const conn = hub.connect(v.client);
    await conn.handle('session:subscribe', { sessionId: 's/w' });
    // A flood far beyond the view's budget: it is shown the newest bytes only...
    for (let i = 0; i < 16; i++) out(16 * 1024);
    await v.until(() => v.events.some((e) => e.event === 'session:output' && e.payload.skipped));
    // ...and no more than what it drew whole (at most its burst) is acknowledged while it is behind.
    expect(consumed.reduce((x, y) => x + y, 0)).toBeLessThanOrEqual(16 * 1024);
    // The flood stops: at its next look the view is level with the stream, and the server hears of every byte.
    await v.until(() => consumed.reduce((x, y) => x + y, 0) === offset());
    conn.dispose();
    hub.dispose();
  });
});

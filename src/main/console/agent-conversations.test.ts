import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalRequest, Handoff } from '../../shared/operator-wire.js';
import { CONVERSATION_IDLE_MS, ConversationServer, FINISHED_RUNS_KEPT, conversationId, skippedNote } from './agent-conversations.js';
import { ConsoleService } from './console-service.js';
import type { HubEvent, HubServer } from './hub-types.js';

/**
 * A hooked run as the hub sees it (a WireServer's HubServer side), driven by the test: the hub's
 * merging of runs per conversation is under test here, not sockets (test/hooks/console-conversations.test.ts
 * runs real `mish` runs against the real discovery).
 */
function hookedRun(id: string, agent: string, session: string | undefined, options: { sessions?: boolean; version?: string; cwd?: string; transcript?: string } = {}) {
  const listeners = new Set<(e: HubEvent) => void>();
  const consumed: number[] = [];
  const decided: string[] = [];
  const taken: { handoffId?: string; session?: string }[] = [];
  const approvals: ApprovalRequest[] = [];
  const handoffs: (Handoff & { mine: boolean })[] = [];
  const spools = new Map<string, string>();
  let state: 'idle' | 'running' | 'waiting' = 'idle';
  let end = 0;
  let backlog = Buffer.alloc(0);
  const name = session ?? `cli-${id}`;
  const emit = (e: HubEvent) => listeners.forEach((l) => l(e));
  const server: HubServer = {
    id,
    info: () => ({ kind: 'serve', name: agent, ...(options.version ? { version: options.version } : {}), cwd: options.cwd ?? '/w', pid: Number(id.replace(/\D/g, '')) || 1 }),
    list: () => (options.sessions === false ? [] : [{ name, shell: '/bin/bash', cwd: options.cwd ?? '/w', state, cols: 100, rows: 20 }]),
    subscribe: (l) => (listeners.add(l), () => void listeners.delete(l)),
    openStream: async () => ({ ok: true, backlog, offset: end }),
    consumed: (_s, bytes) => void consumed.push(bytes),
    conversation: () => (session ? { agent, session, ...(options.transcript ? { transcript: options.transcript } : {}) } : undefined),
    process: (cid) =>
      spools.has(cid)
        ? { entry: () => ({ rawLines: 1, rawBytes: spools.get(cid)!.length, state: 'exited' as const }), read: () => ({ lines: [{ n: 1, text: spools.get(cid)! }], totalLines: 1, droppedLines: 0 }) }
        : undefined,
    operator: {
      approvals: () => approvals,
      handoffs: () => handoffs,
      decide: async (aid) => (decided.push(aid), { ok: true }),
      take: async (target) => {
        taken.push(target);
        const h: Handoff = { id: 'h_x', processId: 'c1', session: name, stream: { kind: 'session', id: name }, command: 'sudo true', prompt: '', why: 'takeover', state: 'attached', createdAt: 0 };
        return { ok: true, handoff: h };
      },
      input: () => {},
      giveBack: async () => ({ ok: true, summary: 'handed back' }),
    },
  };
  return {
    server,
    consumed,
    decided,
    taken,
    approvals,
    handoffs,
    /** Output before the console connected: what its openStream returns. */
    printedBefore(text: string) {
      backlog = Buffer.from(text);
      end += backlog.length;
    },
    out(text: string, at = end) {
      const chunk = Buffer.from(text);
      emit({ type: 'stream-output', session: name, offset: at, chunk });
      end = Math.max(end, at + chunk.length);
    },
    emitResolved(approval: ApprovalRequest, outcome: 'approved' | 'denied', by: string) {
      emit({ type: 'approval-resolved', approval, outcome, by, at: Date.now() });
    },
    start(cid: string, command: string) {
      state = 'running';
      emit({ type: 'command-start', id: cid, session: name, command, cwd: options.cwd ?? '/w', at: Date.now() });
    },
    done(cid: string, exitCode: number, raw: string, agentSaw: string) {
      state = 'idle';
      spools.set(cid, raw);
      emit({ type: 'command-done', session: name, id: cid, exitCode, durationMs: 12, rawLines: 1, rawBytes: raw.length });
      emit({ type: 'condensed', source: { kind: 'command', id: cid, session: name }, lines: agentSaw.split('\n'), final: true, reply: true, category: 'condense' });
    },
  };
}

/** The conversation server's terminal as a listener records it: offsets and bytes. */
function terminal(conv: ConversationServer) {
  const chunks: { offset: number; text: string }[] = [];
  conv.subscribe((e) => {
    if (e.type === 'stream-output') chunks.push({ offset: e.offset, text: Buffer.from(e.chunk).toString() });
  });
  return {
    chunks,
    text: () => chunks.map((c) => c.text).join(''),
    /** Every chunk starts where the previous ended: one stream, no gap, no overlap. */
    contiguous: () => chunks.every((c, i) => i === 0 || c.offset === chunks[i - 1].offset + chunks[i - 1].text.length),
  };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('hooked runs grouped per agent conversation', () => {
  let service: ConsoleService;
  beforeEach(() => {
    service = new ConsoleService([]);
  });
  afterEach(() => service.dispose());

  it('two runs of one conversation are one agent with one session whose timeline holds both; another session id is another agent', async () => {
    const a1 = hookedRun('serve-101', 'claude-code', 'sess-A', { version: '2.1.332', cwd: '/home/u/shop' });
    service.addServer(a1.server);
    a1.start('c1', 'npm test');
    a1.done('c1', 1, 'FAIL x', '✘ 1 failed [exit 1]');
    service.serverGone('serve-101');
    const a2 = hookedRun('serve-102', 'claude-code', 'sess-A', { cwd: '/home/u/shop' });
    service.addServer(a2.server);
    a2.start('c2', 'ls');
    a2.done('c2', 0, 'a b', 'a b [exit 0]');
    const b1 = hookedRun('serve-103', 'claude-code', 'sess-B', { cwd: '/home/u/api' });
    service.addServer(b1.server);
    b1.start('c3', 'git status');

    const snap = service.snapshot();
    expect(snap.servers.map((s) => s.name)).toEqual(['claude-code', 'claude-code']);
    const [a, b] = snap.servers;
    expect(a).toMatchObject({ id: conversationId({ agent: 'claude-code', session: 'sess-A' }), state: 'connected', version: '2.1.332', cwd: '/home/u/shop', conversation: { session: 'sess-A', runs: 2, live: 1 } });
    expect(b).toMatchObject({ cwd: '/home/u/api', conversation: { session: 'sess-B', runs: 1, live: 1 } });
    const sessions = snap.sessions.map((s) => ({ server: s.serverId, name: s.name, state: s.state }));
    expect(sessions).toEqual([
      { server: a.id, name: 'sess-A', state: 'idle' },
      { server: b.id, name: 'sess-B', state: 'running' },
    ]);
    const rows = service.timeline(`${a.id}/sess-A`).map((c) => ({ id: c.id, command: c.command, exit: c.exitCode, state: c.state, saw: c.agentSaw }));
    expect(rows).toEqual([
      { id: 'c1', command: 'npm test', exit: 1, state: 'done', saw: '✘ 1 failed [exit 1]' },
      { id: 'c2', command: 'ls', exit: 0, state: 'done', saw: 'a b [exit 0]' },
    ]);
    expect(service.timeline(`${b.id}/sess-B`).map((c) => c.command)).toEqual(['git status']);
  });

  it('a finished run takes nothing away: its row and raw output stay, the session is idle (not gone), a run killed mid-command ends its row', async () => {
    const r1 = hookedRun('serve-201', 'codex', 'thread-1');
    service.addServer(r1.server);
    r1.start('c1', 'make');
    r1.done('c1', 2, 'make: *** [all] Error 2', 'make: *** [all] Error 2 [exit 2]');
    service.serverGone('serve-201');
    const r2 = hookedRun('serve-202', 'codex', 'thread-1');
    service.addServer(r2.server);
    r2.start('c2', 'sleep 100');
    service.serverGone('serve-202');

    const snap = service.snapshot();
    expect(snap.servers).toHaveLength(1);
    expect(snap.servers[0]).toMatchObject({ state: 'connected', conversation: { runs: 2, live: 0 } });
    expect(snap.sessions.map((s) => s.state)).toEqual(['idle']);
    const sessionId = snap.sessions[0].id;
    const rows = service.timeline(sessionId);
    expect(rows.map((c) => [c.command, c.state, c.exitCode])).toEqual([
      ['make', 'done', 2],
      ['sleep 100', 'done', undefined],
    ]);
    // Raw vs what the agent saw, for a run whose server is gone: read from its spool by reference.
    const view = service.connect({ send: () => {} });
    const raw = await view.handle('command:raw', { sessionId, commandId: 'c1' });
    expect(raw).toMatchObject({ ok: true, result: { text: 'make: *** [all] Error 2', totalLines: 1 } });
    view.dispose();
  });

  it("the terminal is each run's output in turn, on one stream; acknowledgements go back to the run whose bytes they were", async () => {
    const conv = new ConversationServer('agent-x', { agent: 'claude-code', session: 's' });
    const term = terminal(conv);
    const r1 = hookedRun('serve-1', 'claude-code', 's');
    r1.printedBefore('one\r\n');
    conv.add(r1.server);
    await settle();
    r1.out('more\r\n');
    conv.remove('serve-1');
    const r2 = hookedRun('serve-2', 'claude-code', 's');
    conv.add(r2.server);
    await settle();
    r2.out('two\r\n');
    // Sent again (a second subscription's backlog overlaps): passed on once, its bytes acknowledged at once.
    r2.out('two\r\nthree\r\n', 0);
    expect(term.text()).toBe('one\r\nmore\r\ntwo\r\nthree\r\n');
    expect(term.contiguous()).toBe(true);
    expect(r2.consumed).toEqual([5]);
    // The hub took everything: each run's live bytes are acknowledged to it (r1 is gone: nothing to tell it).
    conv.consumed('s', term.text().length);
    expect(r1.consumed).toEqual([]);
    expect(r2.consumed).toEqual([5, 5, 7]);
    // Bytes a run skipped (its flow control) are said, not silently joined.
    r2.out('four\r\n', 100);
    expect(term.text().endsWith(`${skippedNote(100 - 12)}four\r\n`)).toBe(true);
    expect(term.contiguous()).toBe(true);
    // The hub opens the stream (a view subscribes): nothing passed twice, the offset is the stream's end.
    const opened = await conv.openStream();
    expect(opened.offset).toBe(term.text().length);
    expect(opened.backlog.length).toBe(0);
  });

  it("the hook's approval request shows on the conversation's session and is decided on the run that asked; take-over goes to the running run", async () => {
    const run = hookedRun('serve-301', 'claude-code', 'sess-C');
    service.addServer(run.server);
    run.start('c1', 'sudo apt-get update');
    const hook = hookedRun('serve-302', 'claude-code', 'sess-C', { sessions: false });
    hook.approvals.push({ id: 'a_1', session: 'sess-C', tool: 'sh_run', command: 'rm -rf build', cwd: '/w', dangers: [], decision: 'ask', rule: 'rm-recursive', reason: 'deletes a tree', createdAt: 1, expiresAt: 2 });
    service.addServer(hook.server);

    const snap = service.snapshot();
    expect(snap.servers).toHaveLength(1);
    // The hook that asks is no run of a command: one run, live.
    expect(snap.servers[0].conversation).toMatchObject({ session: 'sess-C', runs: 1, live: 1 });
    const sessionId = snap.sessions[0].id;
    expect(snap.sessions[0].state).toBe('needs-approval');
    expect(snap.approvals).toMatchObject([{ id: 'a_1', serverId: snap.servers[0].id, sessionId }]);
    const view = service.connect({ send: () => {} });
    expect(await view.handle('approval:decide', { serverId: snap.servers[0].id, id: 'a_1', decision: 'approve' })).toEqual({ ok: true, result: {} });
    expect(hook.decided).toEqual(['a_1']);
    expect(run.decided).toEqual([]);
    expect(await view.handle('handoff:take', { sessionId })).toMatchObject({ ok: true, result: { serverId: snap.servers[0].id, why: 'takeover' } });
    expect(run.taken).toEqual([{ session: 'sess-C' }]);
    // The asking hook answered and left: the session is the run's again (running), the approval gone.
    hook.approvals.length = 0;
    service.serverGone('serve-302');
    expect(service.snapshot().sessions.map((s) => s.state)).toEqual(['running']);
    view.dispose();
  });

  it('servers that name no conversation (mish serve, a run by hand) are shown as themselves', () => {
    const byHand = hookedRun('serve-401', 'mish-cli', undefined);
    service.addServer(byHand.server);
    const snap = service.snapshot();
    expect(snap.servers).toMatchObject([{ id: 'serve-401', name: 'mish-cli' }]);
    expect(snap.servers[0].conversation).toBeUndefined();
    service.serverGone('serve-401');
    expect(service.snapshot().servers[0].state).toBe('gone');
  });

  it(`keeps the records of the last ${FINISHED_RUNS_KEPT} finished runs (bounded memory), the newest readable`, () => {
    const conv = new ConversationServer('agent-y', { agent: 'codex', session: 't' });
    for (let i = 0; i < FINISHED_RUNS_KEPT + 5; i++) {
      const r = hookedRun(`serve-${i}`, 'codex', 't');
      conv.add(r.server);
      r.start(`c${i}`, `echo ${i}`);
      r.done(`c${i}`, 0, `${i}`, `${i}`);
      conv.remove(r.server);
    }
    expect(conv.process('c0')).toBeUndefined();
    expect(conv.process(`c${FINISHED_RUNS_KEPT + 4}`)?.entry().rawBytes).toBe(3);
    expect(conv.info().conversation).toMatchObject({ session: 't', runs: FINISHED_RUNS_KEPT + 5, live: 0 });
  });
});

describe('a hooked conversation ends, can be dismissed, and comes back with its rows', () => {
  let service: ConsoleService;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    service = new ConsoleService([]);
  });
  afterEach(() => {
    service.dispose();
    vi.useRealTimers();
  });

  it("shows the host's transcript path; ends after CONVERSATION_IDLE_MS without a run; dismissed, it is hidden; a new run shows it again with every row", async () => {
    const transcript = '/home/u/.claude/projects/-home-u-shop/sess-E.jsonl';
    const r1 = hookedRun('serve-901', 'claude-code', 'sess-E', { transcript });
    service.addServer(r1.server);
    r1.start('c1', 'npm test');
    r1.done('c1', 0, 'ok', 'ok [exit 0]');
    const id = conversationId({ agent: 'claude-code', session: 'sess-E' });
    expect(service.snapshot().servers[0]).toMatchObject({ id, conversation: { transcript, runs: 1, live: 1 } });
    expect(service.snapshot().servers[0].conversation?.ended).toBeUndefined();

    // Not dismissable while it may go on.
    const view = service.connect({ send: () => {} });
    expect(await view.handle('conversation:dismiss', { serverId: id })).toMatchObject({ ok: false, error: expect.stringMatching(/has not ended/) });

    service.serverGone('serve-901');
    vi.advanceTimersByTime(CONVERSATION_IDLE_MS - 1);
    expect(service.snapshot().servers[0].conversation?.ended).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(service.snapshot().servers[0].conversation).toMatchObject({ ended: true, live: 0, transcript });

    expect(await view.handle('conversation:dismiss', { serverId: id })).toEqual({ ok: true, result: {} });
    expect(service.snapshot().servers).toEqual([]);
    expect(service.snapshot().sessions).toEqual([]);

    // A new run of the same conversation: listed again, live, with the earlier row kept.
    const r2 = hookedRun('serve-902', 'claude-code', 'sess-E');
    service.addServer(r2.server);
    r2.start('c2', 'ls');
    const snap = service.snapshot();
    expect(snap.servers[0]).toMatchObject({ id, conversation: { runs: 2, live: 1, transcript } });
    expect(snap.servers[0].conversation?.ended).toBeUndefined();
    expect(service.timeline(`${id}/sess-E`).map((c) => c.command)).toEqual(['npm test', 'ls']);
    view.dispose();
  });

  it('an approval resolved in a hooked run is placed in the conversation\'s session', () => {
    const hook = hookedRun('serve-911', 'claude-code', 'sess-F', { sessions: false });
    service.addServer(hook.server);
    const id = conversationId({ agent: 'claude-code', session: 'sess-F' });
    const approval: ApprovalRequest = { id: 'a_h1', session: 'sess-F', tool: 'sh_run', command: 'git reset --hard', cwd: '/w', dangers: [], rule: 'git-reset-hard', createdAt: Date.now(), expiresAt: Date.now() + 1000 };
    // The hook's own server says it resolved (denied): the conversation's session gets the row.
    hook.emitResolved(approval, 'denied', 'console (alice)');
    expect(service.timeline(`${id}/sess-F`)).toMatchObject([{ id: 'a_h1', command: 'git reset --hard', approval: { outcome: 'denied', by: 'console (alice)', rule: 'git-reset-hard' } }]);
  });
});

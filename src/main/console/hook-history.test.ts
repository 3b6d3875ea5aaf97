/**
 * A console started after agents' hooks ran and refused commands shows them from the audit log
 * (hook-history.ts → ConsoleService.addHookHistory): one agent entry per conversation with its
 * session, rows in time order marked as read from the log, refusals as rows that never ran with
 * what the agent was told, a run's raw output from its spool; a row the hub already had (a run
 * still on the wire) stays one row. Real parts: the audit log (AuditLog) and a spool (SpoolStore).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../core/audit/audit-log.js';
import { SpoolStore } from '../core/spool/spool.js';
import { conversationId, CONVERSATION_IDLE_MS } from './agent-conversations.js';
import { ConsoleService } from './console-service.js';
import { AUDIT_TAIL_RECORDS } from '../core/audit/audit-tail.js';
import { describeHookHistory, followHookHistory, HISTORY_ROWS_PER_CONVERSATION, loadHookHistory, type HookHistoryFollower } from './hook-history.js';
import type { HubEvent, HubServer } from './hub-types.js';

const SESSION = '3b1f0c2e-1111-4222-8333-944455556666';
const DENY = 'mish policy: rule git-push-force (ask): force push rewrites (or deletes) the remote branch history; no mish operator is attached to decide. Nothing was run. Do not retry it as is; do the task another way, or ask the user to approve it (in the mish console or `mish approvals`).';

let dir: string;
let log: string;
let spoolDir: string;
let service: ConsoleService | undefined;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'mish-hook-history-'));
  log = path.join(dir, 'audit.jsonl');
  spoolDir = path.join(dir, 'spool');
});
afterEach(() => {
  service?.dispose();
  service = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** The records one hooked run and one hook refusal write, at these times (ms epoch). */
async function writeHistory(at: { run: number; refused: number }, runId = 'c0a1b2c3d4e5f'): Promise<string> {
  const store = new SpoolStore(spoolDir);
  const spool = store.create('npm test', '/w');
  spool.write(Buffer.from('ok 1 - adds\r\nnot ok 2 - cart total\r\n'));
  spool.close({ exitCode: 1 });
  let now = at.run;
  const audit = new AuditLog({ path: log, now: () => new Date(now) });
  audit.record({ kind: 'command', by: 'agent', host: 'cli', agent: 'claude-code/2.1.332', session: SESSION, id: runId, command: 'npm test', cwd: '/w', decision: 'ran', category: 'condense', exitCode: 1, durationMs: 1200, spoolRef: `mish raw ${spool.ref.replace(/^mish raw /, '')}` });
  await audit.flush();
  now = at.refused;
  audit.record({ kind: 'decision', by: 'policy', host: 'cli', agent: 'claude-code/2.1.332', session: SESSION, command: 'git push --force origin main', cwd: '/w', decision: 'deny', reason: DENY, detail: { hook: 'claude-code' } });
  await audit.flush();
  return spool.ref;
}

describe('hooked history in a console started afterwards', () => {
  it("the conversation, its run (exit, category, raw output from the spool) and the hook's refusal (never ran, rule, what the agent read), marked as read from the log", async () => {
    const t = Date.now() - 60_000;
    await writeHistory({ run: t, refused: t + 5_000 });
    const h = await loadHookHistory({ log, spoolDir });
    expect(h).toMatchObject({ records: 2, skipped: 0, partial: false });
    service = new ConsoleService([]);
    service.addHookHistory(h.conversations, (ref) => h.process(ref));

    const id = conversationId({ agent: 'claude-code', session: SESSION });
    const snap = service.snapshot();
    expect(snap.servers).toHaveLength(1);
    expect(snap.servers[0]).toMatchObject({ id, name: 'claude-code', version: '2.1.332', cwd: '/w', state: 'connected', conversation: { session: SESSION, runs: 1, live: 0, lastRunAt: t + 5_000 } });
    // A minute ago: not yet ended (CONVERSATION_IDLE_MS after its last record).
    expect(snap.servers[0].conversation?.ended).toBeUndefined();
    expect(snap.sessions.map((s) => s.id)).toEqual([`${id}/${SESSION}`]);

    const [run, refused] = service.timeline(`${id}/${SESSION}`);
    expect(run).toMatchObject({ id: 'c0a1b2c3d4e5f', command: 'npm test', state: 'done', exitCode: 1, durationMs: 1200, category: 'condense', startedAt: t - 1200, rawLines: 2, audit: { seq: 1 } });
    expect(run.outputOffset).toBeUndefined();
    expect(run.agentSaw).toBeUndefined();
    expect(refused).toMatchObject({ id: 'a_h2', command: 'git push --force origin main', state: 'done', agentSaw: DENY, exact: true, audit: { seq: 2 }, approval: { id: 'a_h2', outcome: 'no-operator', rule: 'git-push-force', at: t + 5_000 } });
    expect(refused.exitCode).toBeUndefined();
    // Nothing pending: a row of the past, never something to approve.
    expect(snap.approvals).toEqual([]);

    // The run's raw output, from its spool, through the contract's request.
    const view = service.connect({ send: () => {} });
    const raw = await view.handle('command:raw', { sessionId: `${id}/${SESSION}`, commandId: 'c0a1b2c3d4e5f' });
    expect(raw).toMatchObject({ ok: true, result: { text: expect.stringContaining('not ok 2 - cart total'), totalLines: 2 } });
    view.dispose();
  });

  it('history older than the idle time shows as an ended conversation (dismissable)', async () => {
    const t = Date.now() - CONVERSATION_IDLE_MS - 60_000;
    await writeHistory({ run: t, refused: t + 1 });
    const h = await loadHookHistory({ log, spoolDir });
    service = new ConsoleService([]);
    service.addHookHistory(h.conversations, (ref) => h.process(ref));
    expect(service.snapshot().servers[0].conversation).toMatchObject({ ended: true, runs: 1 });
  });

  it('a run still on the wire when the history is read stays one row (same command id), not marked as from the log; history goes before newer rows', async () => {
    const t = Date.now() - 30_000;
    await writeHistory({ run: t, refused: t + 1_000 }, 'cLIVE0000001');
    // The lingering run of the same conversation, already shown live.
    const listeners = new Set<(e: HubEvent) => void>();
    const live: HubServer = {
      id: 'serve-4242',
      info: () => ({ kind: 'serve', name: 'claude-code', version: '2.1.332', cwd: '/w', pid: 4242 }),
      list: () => [{ name: SESSION, shell: 'bash', cwd: '/w', state: 'idle' }],
      subscribe: (l) => (listeners.add(l), () => void listeners.delete(l)),
      conversation: () => ({ agent: 'claude-code', session: SESSION }),
    };
    service = new ConsoleService([]);
    service.addServer(live);
    for (const l of listeners) l({ type: 'command-start', id: 'cLIVE0000001', session: SESSION, command: 'npm test', cwd: '/w', at: t - 1200 });
    for (const l of listeners) l({ type: 'command-end', id: 'cLIVE0000001', session: SESSION, exitCode: 1, durationMs: 1200, shellExited: false });
    for (const l of listeners) l({ type: 'command-start', id: 'cNEWER', session: SESSION, command: 'echo later', cwd: '/w', at: t + 10_000 });

    const h = await loadHookHistory({ log, spoolDir });
    service.addHookHistory(h.conversations, (ref) => h.process(ref));
    const id = conversationId({ agent: 'claude-code', session: SESSION });
    const rows = service.timeline(`${id}/${SESSION}`);
    expect(rows.map((r) => r.id)).toEqual(['cLIVE0000001', 'a_h2', 'cNEWER']);
    expect(rows[0].audit).toBeUndefined();
    expect(rows[1].audit).toEqual({ seq: 2 });
    expect(service.snapshot().servers).toHaveLength(1);
  });

  it('a run read from the log before the console reached its (lingering) socket, then connecting: one row, counted once', async () => {
    const t = Date.now() - 2_000;
    await writeHistory({ run: t, refused: t + 1 }, 'cLATE0000001');
    const h = await loadHookHistory({ log, spoolDir });
    service = new ConsoleService([]);
    service.addHookHistory(h.conversations, h.process);
    const id = conversationId({ agent: 'claude-code', session: SESSION });
    expect(service.snapshot().servers[0].conversation).toMatchObject({ runs: 1 });
    const listeners = new Set<(e: HubEvent) => void>();
    service.addServer({
      id: 'serve-777',
      info: () => ({ kind: 'serve', name: 'claude-code', cwd: '/w', pid: 777 }),
      list: () => [{ name: SESSION, shell: 'bash', cwd: '/w', state: 'idle' }],
      subscribe: (l) => (listeners.add(l), () => void listeners.delete(l)),
      conversation: () => ({ agent: 'claude-code', session: SESSION }),
    });
    for (const l of listeners) l({ type: 'command-start', id: 'cLATE0000001', session: SESSION, command: 'npm test', cwd: '/w', at: t - 1200 });
    for (const l of listeners) l({ type: 'command-end', id: 'cLATE0000001', session: SESSION, exitCode: 1, durationMs: 1200, shellExited: false });
    expect(service.snapshot().servers[0].conversation).toMatchObject({ runs: 1, live: 1 });
    expect(service.timeline(`${id}/${SESSION}`).map((r) => r.id)).toEqual(['cLATE0000001', 'a_h2']);
  });

  it('a malformed line among the records is skipped and said in one line; the rest is shown', async () => {
    const t = Date.now() - 1000;
    await writeHistory({ run: t, refused: t + 1 });
    const { appendFileSync } = await import('node:fs');
    appendFileSync(log, '{"seq": 3, "cut short\n');
    const h = await loadHookHistory({ log, spoolDir });
    expect(h.skipped).toBe(1);
    expect(h.conversations[0].entries).toHaveLength(2);
    expect(describeHookHistory(h)).toBe('audit log: 1 line among the newest 3 could not be read as records (skipped; `mish audit verify` checks the log)');
  });

  it('a big log (50,000 records, 3 agents): only the newest records are read, at most a timeline of rows per conversation', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(path.dirname(log), { recursive: true });
    const t = Date.now() - 3_600_000;
    const lines: string[] = [];
    for (let i = 1; i <= 50_000; i++) {
      const agent = ['claude-code/2.1.332', 'codex/0.9.0', 'gemini-cli/0.61.0'][i % 3];
      lines.push(JSON.stringify({ seq: i, ts: new Date(t + i).toISOString(), pid: 1000 + i, prev: 'p', hash: `h${i}`, kind: 'command', by: 'agent', host: 'cli', agent, session: `s-${i % 3}`, id: `c${i.toString(16).padStart(12, '0')}`, command: `echo ${i}`, cwd: '/w', decision: 'ran', exitCode: 0, durationMs: 1, spoolRef: `mish raw gone${i}` }));
    }
    writeFileSync(log, lines.join('\n') + '\n');
    const h = await loadHookHistory({ log, spoolDir });
    expect(h).toMatchObject({ records: AUDIT_TAIL_RECORDS, skipped: 0, partial: true });
    expect(h.conversations).toHaveLength(3);
    for (const c of h.conversations) expect(c.entries.length).toBeLessThanOrEqual(HISTORY_ROWS_PER_CONVERSATION);
    expect(h.conversations.flatMap((c) => c.entries).some((e) => e.command === 'echo 50000')).toBe(true);
    service = new ConsoleService([]);
    service.addHookHistory(h.conversations, h.process);
    const snap = service.snapshot();
    expect(snap.servers).toHaveLength(3);
    for (const s of snap.sessions) expect(service.timeline(s.id)).toHaveLength(HISTORY_ROWS_PER_CONVERSATION);
    // The newest row last; their spools were pruned long ago: no raw output to read, and no error.
    const claude = snap.sessions.find((s) => s.name === 's-2')!;
    expect(service.timeline(claude.id).at(-1)).toMatchObject({ command: 'echo 50000', state: 'done', exitCode: 0 });
  });

  it('no audit log: nothing shown, nothing said', async () => {
    const h = await loadHookHistory({ log: path.join(dir, 'none.jsonl'), spoolDir });
    expect(h.conversations).toEqual([]);
    expect(describeHookHistory(h)).toBeUndefined();
  });
});

describe('following the log while the console runs', () => {
  let follower: HookHistoryFollower | undefined;
  afterEach(() => follower?.close());

  const FORBIDDEN = "mish policy: forbidden by rule mish-own-files: changes mish's own configuration, policy or audit files; only the operator edits them. Do not retry it or a variant of it; do the task another way, or ask the user.";

  it("a refusal the hook made on its own (it never reaches the wire) appears as it is written, marked as decided without the console; a run's record is left to the wire", async () => {
    const t = Date.now() - 5_000;
    await writeHistory({ run: t, refused: t + 1 }, 'cSEEN0000001');
    const h = await loadHookHistory({ log, spoolDir });
    service = new ConsoleService([]);
    service.addHookHistory(h.conversations, h.process);
    const id = conversationId({ agent: 'claude-code', session: SESSION });
    const key = `${id}/${SESSION}`;
    expect(service.timeline(key)).toHaveLength(2);
    const delivered: number[] = [];
    follower = followHookHistory(h.follow, (found) => {
      delivered.push(...found.flatMap((c) => c.entries.map((e) => e.seq)));
      service!.addHookHistory(found, h.process, { consoleOpen: true });
    }, { pollMs: 60_000, settleMs: 60_000 });

    // Nothing new: nothing delivered.
    await follower.check();
    expect(delivered).toEqual([]);

    const audit = new AuditLog({ path: log });
    audit.record({ kind: 'decision', by: 'policy', host: 'cli', agent: 'claude-code/2.1.332', session: SESSION, command: `rm ${log}`, cwd: '/w', decision: 'deny', reason: FORBIDDEN, detail: { hook: 'claude-code' } });
    // The run record of the first run again would be a second row if the same id were not recognised: written as a live run's would be.
    audit.record({ kind: 'command', by: 'agent', host: 'cli', agent: 'claude-code/2.1.332', session: SESSION, id: 'cSEEN0000001', command: 'npm test', cwd: '/w', decision: 'ran', exitCode: 1, durationMs: 1200 });
    await audit.flush();
    await follower.check();
    // The refusal only: a run made while the console runs is on the wire (its record may come first: it would count twice).
    expect(delivered).toEqual([3]);
    const rows = service.timeline(key);
    expect(rows.map((r) => r.id)).toEqual(['cSEEN0000001', 'a_h2', 'a_h3']);
    expect(rows[2]).toMatchObject({ command: `rm ${log}`, agentSaw: FORBIDDEN, exact: true, audit: { seq: 3, consoleOpen: true }, approval: { outcome: 'forbidden', rule: 'mish-own-files' } });
    expect(service.snapshot().servers[0].conversation).toMatchObject({ runs: 1 });
    // Read once: a later check delivers nothing again.
    await follower.check();
    expect(delivered).toEqual([3]);
  });

  it("an escalation's records written in two steps (the request, then the decision and refusal) make one row with the operator's outcome", async () => {
    const h = await loadHookHistory({ log, spoolDir });
    expect(h.follow.end).toBe(0);
    service = new ConsoleService([]);
    follower = followHookHistory(h.follow, (found) => service!.addHookHistory(found, h.process, { consoleOpen: true }), { pollMs: 60_000, settleMs: 60_000 });
    const audit = new AuditLog({ path: log });
    audit.record({ kind: 'approval', by: 'policy', host: 'cli', agent: 'codex', session: 'x-1', id: 'a_Req1', command: 'git reset --hard', cwd: '/w', decision: 'requested', rule: 'git-reset-hard', reason: 'discards uncommitted work', detail: { tool: 'sh_run', hook: 'codex' } });
    await audit.flush();
    await follower.check();
    expect(service.snapshot().servers).toEqual([]);
    audit.record({ kind: 'approval', by: 'policy', host: 'operator', agent: 'codex', session: 'x-1', id: 'a_Req1', command: 'git reset --hard', decision: 'timeout', detail: { hook: 'codex' } });
    audit.record({ kind: 'decision', by: 'policy', host: 'cli', agent: 'codex', session: 'x-1', command: 'git reset --hard', cwd: '/w', decision: 'deny', reason: 'mish: no operator decided within 55s (a_Req1); rule git-reset-hard: discards uncommitted work. Nothing was run.', detail: { hook: 'codex' } });
    await audit.flush();
    await follower.check();
    const id = conversationId({ agent: 'codex', session: 'x-1' });
    expect(service.timeline(`${id}/x-1`)).toEqual([expect.objectContaining({ id: 'a_Req1', approval: expect.objectContaining({ outcome: 'timeout', rule: 'git-reset-hard' }), audit: { seq: 3, consoleOpen: true } })]);
  });

  it('follows a log that does not exist yet, from its first record (the watch or the poll finds it)', async () => {
    const h = await loadHookHistory({ log, spoolDir });
    service = new ConsoleService([]);
    const seen: string[] = [];
    follower = followHookHistory(h.follow, (found) => seen.push(...found.flatMap((c) => c.entries.map((e) => e.command))), { pollMs: 50, settleMs: 10 });
    const audit = new AuditLog({ path: log });
    audit.record({ kind: 'decision', by: 'policy', host: 'cli', agent: 'gemini-cli', session: 'g', command: 'rm -rf ~', cwd: '/w', decision: 'deny', reason: DENY, detail: { hook: 'gemini-cli' } });
    await audit.flush();
    // A hang guard, never a timing claim: the poll alone finds it within a few of its 50 ms periods.
    for (const end = Date.now() + 10_000; !seen.length && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual(['rm -rf ~']);
  });
});

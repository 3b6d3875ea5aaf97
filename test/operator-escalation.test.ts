/**
 * Escalation over MCP (issue 10 point 4) with real parts: the SDK's Client spawns `mish serve`,
 * a test operator connects over the real socket with the client library. Every dangerous line
 * runs in a temp HOME and cwd with canary files that must survive a denial.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, startStdio, type Served } from './mcp-helpers.js';
import { discoverServers, OperatorClient } from '../src/main/operator/client.js';
import type { ApprovalRequest } from '../src/shared/operator-wire.js';

const CANARY = 'canary.txt';

function canaries(home: string): string[] {
  return [path.join(home, CANARY), path.join(home, 'work', CANARY)];
}
function plantCanaries(home: string): void {
  mkdirSync(path.join(home, 'work'), { recursive: true });
  for (const c of canaries(home)) writeFileSync(c, 'canary\n');
}
function assertCanaries(home: string): void {
  for (const c of canaries(home)) expect(readFileSync(c, 'utf8'), c).toBe('canary\n');
}

async function operator(opDir: string, name: string, approvals = true): Promise<OperatorClient> {
  const [server] = discoverServers(opDir);
  const c = await OperatorClient.connect(server.path, { name, role: 'approvals', approvals });
  if (!c.ok) throw new Error(c.error);
  return c.client;
}

/** Resolves with the next approval request the operator sees. */
function nextRequest(op: OperatorClient): Promise<ApprovalRequest> {
  return new Promise((resolve) => {
    const off = op.on('approval-request', (m) => {
      off();
      resolve(m.approval);
    });
  });
}

/**
 * The approval timeout of the server the operator tests decide on: far longer than a decision
 * takes even on a loaded machine (the test's operator answers as soon as the request arrives), so
 * only the timeout test, on its own server, ever sees a timeout.
 */
const DECIDING_TIMEOUT_MS = 120_000;
/** The timeout test's own server: nobody decides, so its length is only how long the test waits. */
const UNDECIDED_TIMEOUT_MS = 1_000;

/** Resolves with the next approval-resolved message the operator sees. */
function nextResolved(op: OperatorClient): Promise<{ id: string; outcome: string; by?: string }> {
  return new Promise((resolve) => {
    const off = op.on('approval-resolved', (m) => {
      off();
      resolve(m);
    });
  });
}

describe('escalation over MCP', () => {
  let opDir: string;
  let served: Served;
  let ops: OperatorClient[] = [];

  beforeAll(async () => {
    opDir = path.join(mkdtempSync(path.join(tmpdir(), 'mish-esc-')), 'servers');
    served = await startStdio({ MISH_OPERATOR_DIR: opDir, MISH_APPROVAL_TIMEOUT_MS: String(DECIDING_TIMEOUT_MS) });
    plantCanaries(served.home);
    // The agent's session works in the temp HOME: `~` is that HOME, never the machine's.
    const r = await call(served.client, 'sh_run', { cmd: 'echo $HOME', cwd: path.join(served.home, 'work') });
    expect(r.text).toContain(served.home);
  }, 30_000);
  afterEach(() => {
    for (const o of ops) o.close();
    ops = [];
    assertCanaries(served.home);
  });
  afterAll(async () => {
    await served?.close();
    rmSync(path.dirname(opDir), { recursive: true, force: true });
  });

  it('no operator attached: a structured refusal naming what was blocked, the rule and why; nothing runs', async () => {
    const r = await call(served.client, 'sh_run', { cmd: 'rm -rf ~' });
    expect(r.data.status).toBe('refused');
    expect(r.data.exit_code).toBeNull();
    expect(r.data.escalation).toMatchObject({ outcome: 'no-operator', rule: 'rm-recursive-root-or-home', reason: expect.stringContaining('recursive delete') });
    expect(r.text).toContain('⚠ dangerous: rm -rf ~');
    expect(r.text).toContain('blocked by rule rm-recursive-root-or-home');
    expect(r.text).toContain('no operator is attached');
    expect(r.text).toContain('mish approvals');
  });

  it('no operator attached: the refusal is recorded (audit log: rule and id) and an operator that connects later gets it in its hello, with the reply the agent got', async () => {
    const cmd = 'rm -rf ~/';
    const r = await call(served.client, 'sh_run', { cmd });
    expect(r.data.status).toBe('refused');
    const esc = r.data.escalation as { id?: string; outcome: string; rule: string };
    expect(esc.outcome).toBe('no-operator');
    expect(esc.id).toMatch(/^a_[A-Za-z0-9_-]+$/);
    // The audit log: a policy refusal of this command under its rule, with the id the console's row carries.
    const log = path.join(served.home, '.state', 'mish', 'audit.jsonl');
    const audited = async () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>) : []).filter((x) => x.id === esc.id);
    await expect.poll(audited, { timeout: 10_000 }).toHaveLength(1);
    expect((await audited())[0]).toMatchObject({ kind: 'decision', by: 'policy', decision: 'refused', command: cmd, rule: esc.rule, detail: { escalation: 'no-operator' } });
    // An operator attached after the refusal: its hello holds it (not as a pending approval), and the agent's exact reply under its id.
    const op = await operator(opDir, 'late');
    ops.push(op);
    expect(op.hello.approvals).toEqual([]);
    const refused = (op.hello.refused ?? []).find((x) => x.id === esc.id);
    expect(refused).toMatchObject({ type: 'escalation-refused', command: cmd, rule: esc.rule, why: 'no-operator', tool: 'sh_run', session: 'default' });
    const reply = (op.hello.recent ?? []).find((m) => m.type === 'condensed' && m.processId === esc.id);
    expect(reply && reply.type === 'condensed' && reply.lines.join('\n')).toContain('no operator is attached');
  });

  it('an operator denies: the call waits (with progress), then is refused with who denied; the canaries survive', async () => {
    const op = await operator(opDir, 'alice');
    ops.push(op);
    let progress = 0;
    let sawProgress: () => void = () => {};
    const progressed = new Promise<void>((r) => (sawProgress = r));
    const request = nextRequest(op);
    const pending = call(served.client, 'sh_run', { cmd: 'rm -rf ~' }, { onprogress: () => (progress++, sawProgress()) });
    const req = await request;
    expect(req).toMatchObject({ id: expect.stringMatching(/^a_/), tool: 'sh_run', session: 'default', command: 'rm -rf ~', rule: 'rm-recursive-root-or-home', dangers: [expect.objectContaining({ id: 'rm-recursive-root-or-home' })] });
    expect(req.cwd).toBe(path.join(served.home, 'work'));
    await progressed; // the agent's client is told the call is alive while the human thinks
    const decided = await op.request({ type: 'approval-decide', id: req.id, decision: 'deny' });
    expect(decided.ok).toBe(true);
    const r = await pending;
    expect(progress).toBeGreaterThan(0);
    expect(r.data.status).toBe('refused');
    expect(r.data.escalation).toMatchObject({ id: req.id, outcome: 'denied', by: 'alice' });
    expect(r.text).toContain(`denied by the operator (alice, approval ${req.id}); nothing was run`);
  }, 30_000);

  it('an operator approves: the line runs and the reply says who approved', async () => {
    const victim = path.join(served.home, 'work', 'victim');
    mkdirSync(victim, { recursive: true });
    writeFileSync(path.join(victim, 'junk.txt'), 'x');
    const op = await operator(opDir, 'bob');
    ops.push(op);
    const request = nextRequest(op);
    const pending = call(served.client, 'sh_run', { cmd: 'rm -rf ./*', cwd: victim });
    const req = await request;
    await op.request({ type: 'approval-decide', id: req.id, decision: 'approve' });
    const r = await pending;
    expect(r.data.status).toBe('exited');
    expect(r.data.exit_code).toBe(0);
    expect(r.data.escalation).toMatchObject({ id: req.id, outcome: 'approved', by: 'bob' });
    // First line, as the console's dialog and docs/operators.md tell the operator.
    expect(r.text.split('\n')[0]).toBe(`[approved by operator bob (${req.id})]`);
    expect(existsSync(path.join(victim, 'junk.txt'))).toBe(false);
  }, 30_000);

  it('edit: the operator rewrites the line; what ran is the edit', async () => {
    const op = await operator(opDir, 'carol');
    ops.push(op);
    const request = nextRequest(op);
    const pending = call(served.client, 'sh_run', { cmd: 'rm -rf ~', cwd: path.join(served.home, 'work') });
    const req = await request;
    await op.request({ type: 'approval-decide', id: req.id, decision: 'edit', command: 'echo edited-instead' });
    const r = await pending;
    expect(r.data.exit_code).toBe(0);
    expect(r.text).toContain('edited-instead');
    expect(r.data.escalation).toMatchObject({ outcome: 'edited', by: 'carol', command: 'echo edited-instead' });
  }, 30_000);

  it('edit to a command the policy still escalates: asked again, and the request says it is that operator\'s edit', async () => {
    const op = await operator(opDir, 'frank');
    ops.push(op);
    const first = nextRequest(op);
    const pending = call(served.client, 'sh_run', { cmd: 'rm -rf ~', cwd: path.join(served.home, 'work') });
    const req = await first;
    expect(req.editOf).toBeUndefined();
    const second = nextRequest(op);
    await op.request({ type: 'approval-decide', id: req.id, decision: 'edit', command: 'rm -rf ~/' });
    const again = await second;
    expect(again).toMatchObject({ command: 'rm -rf ~/', editOf: { id: req.id, by: 'frank' } });
    await op.request({ type: 'approval-decide', id: again.id, decision: 'deny' });
    const r = await pending;
    expect(r.data.status).toBe('refused');
  }, 30_000);

  it('nobody decides: the timeout denies', async () => {
    // Its own server with a short timeout: the others' is long, so a slow decision there is never a timeout.
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'mish-esc-to-')), 'servers');
    const undecided = await startStdio({ MISH_OPERATOR_DIR: dir, MISH_APPROVAL_TIMEOUT_MS: String(UNDECIDED_TIMEOUT_MS) });
    try {
      plantCanaries(undecided.home);
      const op = await operator(dir, 'dave');
      ops.push(op);
      const resolved = nextResolved(op);
      const r = await call(undecided.client, 'sh_run', { cmd: 'rm -rf ~', cwd: path.join(undecided.home, 'work') });
      expect(r.data.status).toBe('refused');
      expect(r.data.escalation).toMatchObject({ outcome: 'timeout' });
      expect(r.text).toMatch(/denied: no operator decided within \d+s/);
      expect(await resolved).toMatchObject({ outcome: 'timeout' });
      assertCanaries(undecided.home);
    } finally {
      await undecided.close();
      rmSync(path.dirname(dir), { recursive: true, force: true });
    }
  }, 30_000);

  it('the agent cancels its call while the operator decides: the request is withdrawn as cancelled, nothing runs', async () => {
    const op = await operator(opDir, 'ivan');
    ops.push(op);
    const request = nextRequest(op);
    const resolved = nextResolved(op);
    const abort = new AbortController();
    const pending = call(served.client, 'sh_run', { cmd: 'rm -rf ~', cwd: path.join(served.home, 'work') }, { signal: abort.signal });
    const req = await request;
    abort.abort();
    // The agent's client gives up at once (its request is cancelled over MCP) …
    await expect(pending).rejects.toThrow(/abort/i);
    // … and the server withdraws the escalation from every operator, saying why.
    expect(await resolved).toEqual({ type: 'approval-resolved', id: req.id, outcome: 'cancelled' });
    const late = await op.request({ type: 'approval-decide', id: req.id, decision: 'approve' });
    expect(late).toMatchObject({ ok: false, error: expect.stringContaining(`no pending approval ${req.id}`) });
    // The audit log has the withdrawal, and the session is free for the next call.
    // (Audit records are written behind the reply: wait for it.)
    const auditLog = path.join(served.home, '.state', 'mish', 'audit.jsonl');
    const withdrawal = () => (existsSync(auditLog) ? readFileSync(auditLog, 'utf8').split('\n') : []).filter((l) => l.includes(req.id) && l.includes('cancelled'));
    await expect.poll(withdrawal).toHaveLength(1);
    expect((await call(served.client, 'sh_run', { cmd: 'echo still-here' })).text).toContain('still-here');
  }, 30_000);

  it('the operator disconnects while deciding: the pending request is denied', async () => {
    const op = await operator(opDir, 'erin');
    const request = nextRequest(op);
    const pending = call(served.client, 'sh_run', { cmd: 'rm -rf ~' });
    await request;
    op.close();
    const r = await pending;
    expect(r.data.escalation).toMatchObject({ outcome: 'operator-gone' });
    expect(r.text).toContain('the operator disconnected before deciding');
  }, 30_000);

  it('always for this session: the next same danger in that session runs without asking, another session still asks', async () => {
    const victim = path.join(served.home, 'work', 'victim2');
    mkdirSync(victim, { recursive: true });
    const op = await operator(opDir, 'frank');
    ops.push(op);
    const request = nextRequest(op);
    const first = call(served.client, 'sh_run', { cmd: 'rm -rf ./*', cwd: victim, session: 'alw' });
    await op.request({ type: 'approval-decide', id: (await request).id, decision: 'always' });
    expect((await first).data.escalation).toMatchObject({ outcome: 'always', by: 'frank' });
    writeFileSync(path.join(victim, 'again.txt'), 'x');
    const second = await call(served.client, 'sh_run', { cmd: 'rm -rf ./*', session: 'alw' });
    expect(second.data.exit_code).toBe(0);
    expect(second.data.escalation).toBeUndefined();
    expect(existsSync(path.join(victim, 'again.txt'))).toBe(false);
    // Another session was not approved: it asks again (denied here).
    const again = nextRequest(op);
    const third = call(served.client, 'sh_run', { cmd: 'rm -rf ./*', cwd: victim, session: 'other' });
    await op.request({ type: 'approval-decide', id: (await again).id, decision: 'deny' });
    expect((await third).data.escalation).toMatchObject({ outcome: 'denied' });
  }, 30_000);

  it('an operator without approvals: true cannot decide, and does not count as attached', async () => {
    const watcher = await operator(opDir, 'mallory', false);
    ops.push(watcher);
    const r = await call(served.client, 'sh_run', { cmd: 'rm -rf ~' });
    expect(r.data.escalation).toMatchObject({ outcome: 'no-operator' });
    const bad = await watcher.request({ type: 'approval-decide', id: 'a_nope', decision: 'approve' });
    expect(bad).toMatchObject({ ok: false, error: expect.stringContaining('approvals: true') });
  });

  it('sh_spawn escalates too: denied, nothing started', async () => {
    const op = await operator(opDir, 'gina');
    ops.push(op);
    const request = nextRequest(op);
    const pending = call(served.client, 'sh_spawn', { cmd: 'rm -rf ~' });
    const req = await request;
    expect(req.tool).toBe('sh_spawn');
    await op.request({ type: 'approval-decide', id: req.id, decision: 'deny' });
    const r = await pending;
    expect(r.data.status).toBe('refused');
    expect(r.data.escalation).toMatchObject({ outcome: 'denied', by: 'gina' });
  }, 30_000);
});

/**
 * The operator's decisions in the timeline: a denied command (which never starts, so no other
 * event would leave a row) is a row of its own with who denied it, when and under which rule; an
 * approved one's row carries who approved it and when. Hub bookkeeping under test (the server is
 * driven by the test); e2e/console-actions.e2e.test.ts shows the same through real `mish serve`
 * approvals decided in Chromium.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApprovalRequest } from '../../shared/operator-wire.js';
import { APPROVAL_MATCH_MS } from './approval-rows.js';
import { ConsoleService } from './console-service.js';
import type { HubEvent, HubServer } from './hub-types.js';

function server(id = 'serve-7') {
  const listeners = new Set<(e: HubEvent) => void>();
  const emit = (e: HubEvent) => listeners.forEach((l) => l(e));
  const s: HubServer = {
    id,
    info: () => ({ kind: 'serve', name: 'claude-code', version: '2.1', cwd: '/w' }),
    list: () => [{ name: 'build', shell: '/bin/bash', state: 'idle' }],
    subscribe: (l) => (listeners.add(l), () => void listeners.delete(l)),
  };
  const request = (id: string, command: string, at: number): ApprovalRequest => ({
    id,
    session: 'build',
    tool: 'sh_run',
    command,
    cwd: '/w',
    dangers: [{ id: 'rm-recursive', description: 'recursive delete', text: 'rm -rf' }],
    rule: 'rm-recursive-root-or-home',
    reason: 'deletes a whole tree',
    createdAt: at,
    expiresAt: at + 300_000,
  });
  return {
    server: s,
    resolve(approval: ApprovalRequest, outcome: 'approved' | 'denied' | 'edited' | 'timeout', by?: string, command?: string) {
      emit({ type: 'approval-resolved', approval, outcome, ...(by ? { by } : {}), ...(command ? { command } : {}), at: Date.now() });
    },
    request,
    start(cid: string, command: string) {
      emit({ type: 'command-start', id: cid, session: 'build', command, cwd: '/w', at: Date.now() });
    },
    reply(cid: string, asked: string) {
      emit({ type: 'condensed', source: { kind: 'command', id: cid, session: 'build' }, lines: ['ok'], final: true, reply: true, asked });
    },
    done(cid: string) {
      emit({ type: 'command-done', session: 'build', id: cid, exitCode: 0, durationMs: 5 });
    },
  };
}

describe('approvals in the timeline', () => {
  let service: ConsoleService;
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(1_700_000_000_000);
    service = new ConsoleService([]);
  });
  afterEach(() => {
    service.dispose();
    vi.useRealTimers();
  });

  it('a denied command is a row: never ran, no exit code, who denied it, when, the rule', () => {
    const s = server();
    service.addServer(s.server);
    s.start('c1', 'ls');
    s.done('c1');
    const asked = Date.now();
    vi.advanceTimersByTime(4_000);
    s.resolve(s.request('a_deny1', 'rm -rf ~', asked), 'denied', 'console (alice)');
    const rows = service.timeline('serve-7/build');
    expect(rows.map((c) => c.command)).toEqual(['ls', 'rm -rf ~']);
    expect(rows[1]).toMatchObject({
      id: 'a_deny1',
      state: 'done',
      rawBytes: 0,
      approval: { id: 'a_deny1', outcome: 'denied', by: 'console (alice)', at: asked + 4_000, askedAt: asked, rule: 'rm-recursive-root-or-home', reason: 'deletes a whole tree' },
    });
    expect(rows[1].exitCode).toBeUndefined();
  });

  it('nobody deciding in time is a row too (no one named)', () => {
    const s = server();
    service.addServer(s.server);
    s.resolve(s.request('a_late', 'git push --force', Date.now()), 'timeout');
    const [row] = service.timeline('serve-7/build');
    expect(row.approval).toMatchObject({ outcome: 'timeout' });
    expect(row.approval?.by).toBeUndefined();
  });

  it("an approved command's row carries who approved it and when; an unrelated later command does not", () => {
    const s = server();
    service.addServer(s.server);
    const asked = Date.now();
    vi.advanceTimersByTime(2_000);
    s.resolve(s.request('a_ok1', 'rm -rf ./build', asked), 'approved', 'console (alice)');
    s.start('c2', 'rm -rf ./build');
    s.done('c2');
    s.start('c3', 'rm -rf ./build');
    const rows = service.timeline('serve-7/build');
    expect(rows.map((c) => [c.id, c.approval?.outcome, c.approval?.by])).toEqual([
      ['c2', 'approved', 'console (alice)'],
      ['c3', undefined, undefined],
    ]);
    expect(rows[0].approval?.at).toBe(asked + 2_000);
  });

  it('a command that started before its decision reached the hub (in-process delivery) still gets the mark', () => {
    const s = server();
    service.addServer(s.server);
    const asked = Date.now();
    s.start('c4', 'rm -rf ./dist');
    s.resolve(s.request('a_ok2', 'rm -rf ./dist', asked), 'approved', 'console (alice)');
    expect(service.timeline('serve-7/build')[0].approval).toMatchObject({ id: 'a_ok2', outcome: 'approved' });
  });

  it("an edit marks the command that ran with the agent's original", () => {
    const s = server();
    service.addServer(s.server);
    s.resolve(s.request('a_ed', 'rm -rf ~', Date.now()), 'edited', 'console (alice)', 'rm -rf ./tmp');
    s.start('c5', 'rm -rf ./tmp');
    expect(service.timeline('serve-7/build')[0].approval).toMatchObject({ outcome: 'edited', original: 'rm -rf ~' });
  });

  it('a command mish ran in another form (a structured view) gets the approval of the line the agent sent', () => {
    const s = server();
    service.addServer(s.server);
    s.resolve(s.request('a_st', 'git push --force', Date.now()), 'approved', 'console (alice)');
    s.start('c7', "git push --force '--porcelain'");
    s.reply('c7', 'git push --force');
    expect(service.timeline('serve-7/build')[0]).toMatchObject({ asked: 'git push --force', approval: { id: 'a_st', outcome: 'approved' } });
  });

  it('an approval whose command never starts within APPROVAL_MATCH_MS is not pinned on a later run of the same line', () => {
    const s = server();
    service.addServer(s.server);
    s.resolve(s.request('a_ok3', 'make clean', Date.now()), 'approved', 'console (alice)');
    vi.advanceTimersByTime(APPROVAL_MATCH_MS + 1);
    s.start('c6', 'make clean');
    expect(service.timeline('serve-7/build')[0].approval).toBeUndefined();
  });

  it("a wire server's own figure for where a command's output starts is taken, even when the hub was not reading that stream", () => {
    const listeners = new Set<(e: HubEvent) => void>();
    const emit = (e: HubEvent) => listeners.forEach((l) => l(e));
    service.addServer({
      id: 'wire',
      info: () => ({ kind: 'serve', name: 'codex' }),
      list: () => [{ name: 'w', shell: 'bash', state: 'idle' }],
      subscribe: (l) => (listeners.add(l), () => void listeners.delete(l)),
      openStream: async () => ({ ok: true, backlog: Buffer.alloc(0), offset: 0 }),
    });
    emit({ type: 'command-start', id: 'c9', session: 'w', command: 'make', cwd: '/', at: Date.now() });
    expect(service.timeline('wire/w')[0].outputOffset).toBeUndefined(); // nobody watched: the hub cannot tell
    emit({ type: 'command-offset', session: 'w', id: 'c9', offset: 4096 });
    expect(service.timeline('wire/w')[0].outputOffset).toBe(4096);
    // Its shell restarted: offsets of the old terminal are forgotten (no mark in the new one's output).
    emit({ type: 'session-closed', session: 'w', reason: 'restarted' });
    expect(service.timeline('wire/w')[0].outputOffset).toBeUndefined();
  });

  it("each command's row says where its output starts in the session's terminal", () => {
    const listeners = new Set<(e: HubEvent) => void>();
    const emit = (e: HubEvent) => listeners.forEach((l) => l(e));
    service.addServer({ id: 'eng', info: () => ({ kind: 'console', name: 'mish console' }), list: () => [{ name: 'w', shell: 'bash', state: 'idle' }], subscribe: (l) => (listeners.add(l), () => void listeners.delete(l)) });
    emit({ type: 'command-start', id: 'c1', session: 'w', command: 'echo one', cwd: '/', at: Date.now() });
    emit({ type: 'raw', source: { kind: 'command', id: 'c1', session: 'w' }, chunk: Buffer.from('one\r\n') });
    emit({ type: 'command-end', session: 'w', id: 'c1', exitCode: 0, durationMs: 1, shellExited: false });
    emit({ type: 'command-start', id: 'c2', session: 'w', command: 'echo two', cwd: '/', at: Date.now() });
    expect(service.timeline('eng/w').map((c) => c.outputOffset)).toEqual([0, 5]);
  });
});

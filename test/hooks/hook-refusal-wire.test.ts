/**
 * A hooked command an operator denies never runs, so the console's row of it is the approval's:
 * the hook's operator socket publishes the exact text the agent gets (the host's deny reason) as
 * the reply to that approval id, and the console shows it as "what the agent saw" — the
 * walkthrough saw "it never ran: no output" there, beside a summary of the decision.
 * Real parts: `mish hook claude-code` as Claude Code runs it, the operator wire's real client.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerMessage } from '../../src/shared/operator-wire.js';
import { safeHome, type SafeHome } from '../helpers/safe-home.js';
import { OPERATOR_WATCHING_ENV, watchServers } from './operator-watch.js';

const MISH = path.resolve(__dirname, '../../bin/mish.js');
let home: SafeHome;
let dir: string;
beforeEach(() => {
  home = safeHome('hook-refusal-wire');
  dir = path.join(home.home, '.run', 'ops');
});
afterEach(() => home.dispose());

function hook(payload: Record<string, unknown>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [MISH, 'hook', 'claude-code'], { cwd: home.cwd, env: home.env({ MISH_OPERATOR_DIR: dir, ...OPERATOR_WATCHING_ENV }), stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString()));
    c.on('close', (code) => resolve({ code, out }));
    c.stdin.end(JSON.stringify(payload));
  });
}

// The operator joins the hook's new socket within OPERATOR_WATCHING_ENV's 15 s (the default 1.5 s is short on a loaded machine).
describe("a hooked command the operator denies: the agent's exact reply on the wire", () => {
  it('the hook publishes the deny reason the agent gets as the reply to the approval id', async () => {
    const messages: ServerMessage[] = [];
    const asked: string[] = [];
    const operator = watchServers(dir, { name: 'test-console', role: 'console', approvals: true }, (client) => {
      const deny = (id: string) => {
        if (asked.includes(id)) return;
        asked.push(id);
        void client.request({ type: 'approval-decide', id, decision: 'deny' });
      };
      client.on('condensed', (m) => messages.push(m));
      client.on('approval-resolved', (m) => messages.push(m));
      client.on('approval-request', (m) => deny(m.approval.id));
      // A request the hook made while our hello was in flight is in the hello, not an event (as the console and autoApprove
      // read it): two stress runs saw the hook wait out its 55 s deadline for a decision this test never made.
      for (const a of client.hello.approvals) deny(a.id);
    });
    try {
      const session = '3b1f0c2e-1111-4222-8333-944455556666';
      const r = await hook({ session_id: session, cwd: home.cwd, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git push --force origin main' } });
      expect(r.code).toBe(0);
      const answer = JSON.parse(r.out) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } };
      expect(answer.hookSpecificOutput.permissionDecision).toBe('deny');
      expect(asked, JSON.stringify(messages)).toHaveLength(1);
      const id = asked[0];
      const reply = messages.find((m) => m.type === 'condensed' && m.processId === id);
      expect(reply, JSON.stringify(messages)).toMatchObject({ type: 'condensed', session, reply: true, final: true });
      expect(reply && reply.type === 'condensed' ? reply.lines.join('\n') : '').toBe(answer.hookSpecificOutput.permissionDecisionReason);
      // After the decision (the console makes the never-ran row from approval-resolved first).
      expect(messages.findIndex((m) => m.type === 'approval-resolved')).toBeLessThan(messages.indexOf(reply!));
    } finally {
      await operator.stop();
    }
  }, 60_000);
});

/**
 * One-shot approval tokens (approval-token.ts): an escalation an operator approved in the hook
 * runs through mish with a token for exactly that line. The real hook (runHook, the built-in
 * policy) with a real operator approving over the wire issues it; the real `mish` CLI redeems
 * it: once, for that line only, never replayed, never after it expired.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { approvalsDir, issueApprovalToken, redeemApprovalToken, TOKEN_TTL_MS } from '../../src/main/hooks/approval-token.js';
import { runHook, type HookIo } from '../../src/main/hooks/hook-command.js';
import { safeHome, type SafeHome } from '../helpers/safe-home.js';
import { autoApprove, OPERATOR_WATCHING_ENV } from './operator-watch.js';

const MISH = path.resolve(__dirname, '../../bin/mish.js');
/** A line the built-in policy escalates (an operator or the user must approve it); harmless in a temp folder. */
const DANGEROUS = 'git reset --hard 2>&1; echo reset-$((40+2))';
/** Printed only when the line ran (the refusal quotes the line unexpanded). */
const RAN = 'reset-42';
/** What the CLI exits with for a line it refused (router's REFUSED_EXIT). */
const REFUSED = 126;

let home: SafeHome;
beforeEach(() => {
  home = safeHome('approval-token');
});
afterEach(() => home.dispose());

function mish(line: string, extra: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const c = spawn(process.execPath, [MISH, '--', line], { cwd: home.cwd, env: home.env(extra), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString()));
    c.stderr.on('data', (d: Buffer) => (err += d.toString()));
    c.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('approval tokens', () => {
  it('redeemed once, for its own line only; a replay and an expired token are refused', () => {
    const env = home.env();
    const t = issueApprovalToken('rm -rf build', { by: 'alice', id: 'a_1' }, { env });
    // The folder holds no usable token: records are named by the token's hash.
    expect(readdirSync(approvalsDir(env)).join(' ')).not.toContain(t);
    expect(redeemApprovalToken(t, 'rm -rf /', { env })).toEqual({ ok: false, reason: expect.stringContaining('another command line') });
    expect(redeemApprovalToken(t, 'rm -rf build', { env })).toEqual({ ok: true, by: 'alice', id: 'a_1' });
    expect(redeemApprovalToken(t, 'rm -rf build', { env })).toEqual({ ok: false, reason: expect.stringContaining('already used') });
    const old = issueApprovalToken('rm -rf build', { by: 'alice', id: 'a_2' }, { env });
    expect(redeemApprovalToken(old, 'rm -rf build', { env, now: Date.now() + TOKEN_TTL_MS + 1 })).toMatchObject({ ok: false, reason: expect.stringContaining('expired') });
    expect(redeemApprovalToken('not a token', 'rm -rf build', { env })).toMatchObject({ ok: false });
  });

  it('the mish CLI runs the approved line once with its token; the same token again, or on another line, is refused and runs nothing', async () => {
    const env = home.env();
    const without = await mish(DANGEROUS);
    expect(without.code).toBe(REFUSED);
    expect(without.out + without.err).not.toContain(RAN);

    const token = issueApprovalToken(DANGEROUS, { by: 'op', id: 'a_x' }, { env });
    const first = await mish(DANGEROUS, { MISH_APPROVAL_TOKEN: token });
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain(RAN);
    const replay = await mish(DANGEROUS, { MISH_APPROVAL_TOKEN: token });
    expect(replay.code).toBe(REFUSED);
    expect(replay.err).toContain('approval token refused: unknown or already used');
    expect(replay.out).not.toContain(RAN);

    const other = issueApprovalToken(DANGEROUS, { by: 'op', id: 'a_y' }, { env });
    const marker = path.join(home.cwd, 'other-ran');
    const wrong = await mish(`git reset --hard 2>&1; touch ${marker}`, { MISH_APPROVAL_TOKEN: other });
    expect(wrong.code).toBe(REFUSED);
    expect(wrong.err).toContain('issued for another command line');
    expect(existsSync(marker)).toBe(false);
  }, 60_000);

  it('the hook: an operator approves over the wire; Claude Code gets the line rewritten through mish with a token that runs it', async () => {
    const dir = path.join(home.home, '.run', 'ops');
    // The approver has 15 s to join the hook's socket (OPERATOR_WATCHING_ENV), as every test with an approver does.
    const env = home.env({ MISH_OPERATOR_DIR: dir, ...OPERATOR_WATCHING_ENV });
    const approver = autoApprove(dir, 'token-op');
    let out = '';
    try {
      const payload = JSON.stringify({ session_id: 's-1', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: DANGEROUS, description: 'reset' }, cwd: home.cwd, permission_mode: 'default' });
      const io: HookIo = { readStdin: async () => payload, out: (t) => (out += t), err: () => {}, env, cwd: () => home.cwd, now: () => Date.now() };
      expect(await runHook(['claude-code'], io)).toBe(0);
    } finally {
      await approver.stop();
    }
    const answer = JSON.parse(out) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string; updatedInput: { command: string; description: string } } };
    expect(answer.hookSpecificOutput.permissionDecision).toBe('allow');
    expect(answer.hookSpecificOutput.permissionDecisionReason).toContain('approved by operator token-op');
    expect(answer.hookSpecificOutput.updatedInput.description).toBe('reset');
    const rewritten = answer.hookSpecificOutput.updatedInput.command;
    expect(rewritten).toMatch(/MISH_APPROVAL_TOKEN=[A-Za-z0-9_-]{40,}/);
    // What Claude Code then runs: the agent's shell runs the rewritten line, once; again, it is refused.
    const run = () =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const c = spawn('bash', ['-c', rewritten], { cwd: home.cwd, env: home.env(), stdio: ['ignore', 'pipe', 'pipe'] });
        let o = '';
        c.stdout.on('data', (d: Buffer) => (o += d.toString()));
        c.stderr.on('data', (d: Buffer) => (o += d.toString()));
        c.on('close', (code) => resolve({ code, out: o }));
      });
    const first = await run();
    expect(first.code, first.out).toBe(0);
    expect(first.out).toContain(RAN);
    const again = await run();
    expect(again.code).toBe(REFUSED);
    expect(again.out).toContain('approval token refused');
  }, 60_000);
});

import { describe, expect, it } from 'vitest';
import type { CommandApproval } from '../../shared/contract.js';
import { approvalBadge, approvalSentence, neverRan, shownCommand } from './approval-mark.js';

const at = new Date(2026, 10, 29, 14, 2, 3).getTime();
const base: CommandApproval = { id: 'a_1', outcome: 'denied', by: 'console (alice)', at, askedAt: at - 12_000, rule: 'rm-recursive-root-or-home' };

describe("an operator's decision on a row", () => {
  it('a denied command: never ran, who and when on the row, the wait and what it meant in the detail', () => {
    expect(neverRan({ approval: base })).toBe(true);
    expect(approvalBadge(base)).toEqual({ text: '⊘ denied by console (alice) · 14:02:03', tone: 'denied' });
    expect(approvalSentence(base)).toMatch(/^Denied by console \(alice\) at .+ after 12\.0 s of waiting\. Nothing ran/);
  });
  it("this console's own decision reads \"you\"; approved, always and edited ran", () => {
    const ok = { ...base, outcome: 'approved' as const };
    expect(approvalBadge(ok, 'console (alice)').text).toBe('✓ approved by you · 14:02:03');
    expect(approvalSentence(ok, 'console (alice)')).toMatch(/^Approved by console \(alice\) \(you\) at /);
    for (const outcome of ['approved', 'always', 'edited'] as const) expect(neverRan({ approval: { ...base, outcome } })).toBe(false);
    expect(neverRan({})).toBe(false);
  });
  it('nobody decided: says so, names no one', () => {
    expect(approvalBadge({ ...base, outcome: 'timeout', by: undefined }).text).toBe('⊘ denied: nobody decided in time · 14:02:03');
  });
  it('refused with no operator attached: never ran, nobody was asked, says so', () => {
    const refused = { ...base, outcome: 'no-operator' as const, by: undefined, askedAt: at };
    expect(neverRan({ approval: refused })).toBe(true);
    expect(approvalBadge(refused)).toEqual({ text: '⊘ refused: no operator attached · 14:02:03', tone: 'denied' });
    expect(approvalSentence(refused)).toMatch(/^Refused at .+: no operator was attached to ask\. Nothing was asked and nothing ran/);
  });
});

describe("a hook's refusal read back from the audit log", () => {
  it('refused by policy in the hook: never ran, nobody asked, says so', () => {
    const forbidden = { ...base, outcome: 'forbidden' as const, by: undefined, askedAt: at };
    expect(neverRan({ approval: forbidden })).toBe(true);
    expect(approvalBadge(forbidden)).toEqual({ text: '⊘ refused by policy · 14:02:03', tone: 'denied' });
    expect(approvalSentence(forbidden)).toMatch(/^Refused by mish's policy in the agent's hook at .+, before it ran\. Nobody was asked and nothing ran; the agent was told why\.$/);
  });
  it("left to the host's own prompt: not run through mish, and not claimed to have never run", () => {
    const asked = { ...base, outcome: 'host-asked' as const, by: undefined, askedAt: at };
    expect(approvalBadge(asked)).toEqual({ text: "⚠ no operator: left to the agent's own prompt · 14:02:03", tone: 'denied' });
    expect(approvalSentence(asked)).toMatch(/the hook answered "ask", so the agent's host asked its own user\. It did not run through mish; whether the user let it run is not recorded here\.$/);
  });
});

describe('the command a row shows', () => {
  it("an operator's edit shows what ran (the walkthrough's row said `rm -rf ~/y` for a `rmdir ~/y` that ran); otherwise the agent's line", () => {
    const edited = { ...base, outcome: 'edited' as const, original: 'rm -rf ~/y' };
    expect(shownCommand({ command: 'rmdir ~/y', asked: 'rm -rf ~/y', approval: edited })).toBe('rmdir ~/y');
    expect(shownCommand({ command: 'git status --porcelain=v2', asked: 'git status' })).toBe('git status');
    expect(shownCommand({ command: 'ls' })).toBe('ls');
  });
});

/**
 * Hooked runs and hook refusals read back from audit records (hook-history.ts), per agent
 * conversation. The records are shaped as `mish hook` and a hooked `mish <cmd>` write them (the
 * reasons are the hook's own words, taken from a real run).
 */
import { describe, expect, it } from 'vitest';
import { hookHistory } from './hook-history.js';
import type { AuditRecord } from './types.js';

const T0 = Date.parse('2026-12-01T08:00:00.000Z');
const SESSION = '3b1f0c2e-1111-4222-8333-944455556666';
let seq = 0;
function rec(r: Partial<AuditRecord> & Pick<AuditRecord, 'kind' | 'by' | 'host'>, atMs: number, pid = 100): AuditRecord {
  seq++;
  return { seq, ts: new Date(T0 + atMs).toISOString(), pid, prev: 'p', hash: `h${seq}`, ...r };
}

const NO_OPERATOR_DENY =
  'mish policy: rule git-push-force (ask): force push rewrites (or deletes) the remote branch history; no mish operator is attached to decide. Nothing was run. Do not retry it as is; do the task another way, or ask the user to approve it (in the mish console or `mish approvals`).';
const NO_OPERATOR_ASK = 'mish policy: rule rm-recursive-root-or-home (ask): recursive delete of /, the home directory or a folder directly in it; no mish operator is attached to decide. Approve only if you meant it.';
const FORBIDDEN = 'mish policy: forbidden by rule mish-own-audit-log: deletes mish\'s audit log. Do not retry it or a variant of it; do the task another way, or ask the user.';

describe('hookHistory', () => {
  it('a hooked run: its conversation (host id, version, session), command, start (end less duration), exit code, category, spool and command id', () => {
    const h = hookHistory([rec({ kind: 'command', by: 'agent', host: 'cli', agent: 'claude-code/2.1.332', session: SESSION, id: 'c0a1b2c3d4e5f', command: 'npm test', cwd: '/w', decision: 'ran', category: 'condense', exitCode: 1, durationMs: 1500, spoolRef: 'mish raw x3kwg7a66' }, 5000)]);
    expect(h).toHaveLength(1);
    expect(h[0]).toMatchObject({ agent: 'claude-code', version: '2.1.332', session: SESSION, cwd: '/w' });
    expect(h[0].entries).toEqual([{ kind: 'run', seq: expect.any(Number), id: 'c0a1b2c3d4e5f', command: 'npm test', cwd: '/w', at: T0 + 3500, exitCode: 1, durationMs: 1500, category: 'condense', spoolRef: 'mish raw x3kwg7a66' }]);
  });

  it('refusals: forbidden, no operator (deny), left to the host prompt (ask); each with its rule from the reason and the exact text', () => {
    const h = hookHistory([
      rec({ kind: 'decision', by: 'policy', host: 'cli', agent: 'codex', session: SESSION, command: 'rm ~/.local/state/mish/audit.jsonl', cwd: '/w', decision: 'deny', reason: FORBIDDEN, detail: { hook: 'codex' } }, 1000, 201),
      rec({ kind: 'decision', by: 'policy', host: 'cli', agent: 'codex', session: SESSION, command: 'git push --force origin main', cwd: '/w', decision: 'deny', reason: NO_OPERATOR_DENY, detail: { hook: 'codex' } }, 2000, 202),
      rec({ kind: 'decision', by: 'policy', host: 'cli', agent: 'codex', session: SESSION, command: 'rm -rf ~', cwd: '/w', decision: 'ask', reason: NO_OPERATOR_ASK, detail: { hook: 'codex' } }, 3000, 203),
    ]);
    expect(h).toHaveLength(1);
    const [forbidden, unattended, asked] = h[0].entries;
    expect(forbidden).toMatchObject({ kind: 'refusal', outcome: 'forbidden', rule: 'mish-own-audit-log', answer: 'deny', reason: FORBIDDEN, at: T0 + 1000 });
    expect(unattended).toMatchObject({ kind: 'refusal', outcome: 'no-operator', rule: 'git-push-force', answer: 'deny', reason: NO_OPERATOR_DENY, command: 'git push --force origin main' });
    expect(asked).toMatchObject({ kind: 'refusal', outcome: 'host-asked', rule: 'rm-recursive-root-or-home', answer: 'ask' });
    // Ids of rows no operator saw: stable, from the record's place in the log, and distinct.
    expect(new Set(h[0].entries.map((e) => e.id)).size).toBe(3);
    for (const e of h[0].entries) expect(e.id).toBe(`a_h${e.seq}`);
  });

  it("an operator's denial in the hook: the approval's id, who denied, when asked; the decision record's text is what the agent read", () => {
    const said = 'mish: denied by operator console (alice) (a_Q1w2E3r4); rule git-reset-hard: discards uncommitted work. Nothing was run. Do not retry it; ask the user what they want instead.';
    const h = hookHistory([
      rec({ kind: 'approval', by: 'policy', host: 'cli', agent: 'claude-code/2.1.332', session: SESSION, id: 'a_Q1w2E3r4', command: 'git reset --hard', cwd: '/w', decision: 'requested', rule: 'git-reset-hard', reason: 'discards uncommitted work', detail: { tool: 'sh_run', hook: 'claude-code' } }, 1000, 300),
      rec({ kind: 'approval', by: 'operator', host: 'operator', agent: 'claude-code/2.1.332', session: SESSION, id: 'a_Q1w2E3r4', command: 'git reset --hard', decision: 'denied', detail: { operator: 'console (alice)', hook: 'claude-code' } }, 4000, 300),
      rec({ kind: 'decision', by: 'policy', host: 'cli', agent: 'claude-code/2.1.332', session: SESSION, command: 'git reset --hard', cwd: '/w', decision: 'deny', reason: said, detail: { hook: 'claude-code' } }, 4001, 300),
    ]);
    expect(h[0].entries).toEqual([
      { kind: 'refusal', seq: expect.any(Number), id: 'a_Q1w2E3r4', command: 'git reset --hard', cwd: '/w', at: T0 + 4001, askedAt: T0 + 1000, outcome: 'denied', by: 'console (alice)', rule: 'git-reset-hard', answer: 'deny', reason: said },
    ]);
  });

  it("an approved escalation: no refusal row; the run that redeemed its token carries the approval (id, by, when)", () => {
    const h = hookHistory([
      rec({ kind: 'approval', by: 'policy', host: 'cli', agent: 'claude-code', session: SESSION, id: 'a_Zz9', command: 'git reset --hard', cwd: '/w', decision: 'requested', rule: 'git-reset-hard', reason: 'discards uncommitted work', detail: { tool: 'sh_run', hook: 'claude-code' } }, 1000, 400),
      rec({ kind: 'approval', by: 'operator', host: 'operator', agent: 'claude-code', session: SESSION, id: 'a_Zz9', command: 'git reset --hard', decision: 'approved', detail: { operator: 'console (bob)', hook: 'claude-code' } }, 2000, 400),
      rec({ kind: 'approval', by: 'operator', host: 'cli', agent: 'claude-code', session: SESSION, command: 'git reset --hard', decision: 'token-redeemed', rule: 'git-reset-hard', reason: "approved by operator console (bob) (a_Zz9) in the agent's hook" }, 2500, 401),
      rec({ kind: 'command', by: 'agent', host: 'cli', agent: 'claude-code', session: SESSION, id: 'cabc', command: 'git reset --hard', cwd: '/w', decision: 'ran', exitCode: 0, durationMs: 100, rule: 'git-reset-hard', detail: { approved: true } }, 2700, 401),
    ]);
    expect(h[0].entries).toHaveLength(1);
    expect(h[0].entries[0]).toMatchObject({ kind: 'run', id: 'cabc', approval: { id: 'a_Zz9', by: 'console (bob)', at: T0 + 2000, askedAt: T0 + 1000, rule: 'git-reset-hard', reason: 'discards uncommitted work' } });
  });

  it('one conversation per host and session, in order of their first record; records of no hooked conversation are left out', () => {
    const h = hookHistory([
      // mish serve's own records (an MCP client), a run typed by hand (no agent), an operator connecting: none is a hook's.
      rec({ kind: 'command', by: 'agent', host: 'mcp', agent: 'claude-code/2.1.332', session: 'default', command: 'ls', decision: 'ran', exitCode: 0 }, 100),
      rec({ kind: 'command', by: 'user', host: 'cli', command: 'make', decision: 'ran', exitCode: 0 }, 200),
      rec({ kind: 'session', by: 'operator', host: 'operator', decision: 'operator-connected', detail: { operator: 'console (alice)', role: 'console' } }, 300),
      rec({ kind: 'command', by: 'agent', host: 'cli', agent: 'gemini-cli/0.61.0', session: 'g-1', id: 'c1', command: 'echo one', decision: 'ran', exitCode: 0, durationMs: 5 }, 400),
      rec({ kind: 'command', by: 'agent', host: 'cli', agent: 'claude-code', session: SESSION, id: 'c2', command: 'echo two', decision: 'ran', exitCode: 0, durationMs: 5 }, 500),
      rec({ kind: 'command', by: 'agent', host: 'cli', agent: 'gemini-cli/0.61.0', session: 'g-1', id: 'c3', command: 'echo three', decision: 'ran', exitCode: 0, durationMs: 5 }, 600),
      // A run's record written before runs named their agent: no conversation to put it in.
      rec({ kind: 'command', by: 'agent', host: 'cli', command: 'echo old', decision: 'ran', exitCode: 0 }, 700),
    ]);
    expect(h.map((c) => `${c.agent} ${c.version ?? '-'} ${c.session}: ${c.entries.map((e) => e.command).join(', ')}`)).toEqual(['gemini-cli 0.61.0 g-1: echo one, echo three', `claude-code - ${SESSION}: echo two`]);
  });

  it('a run record without a command id gets one from its place in the log (h<seq>)', () => {
    const r = rec({ kind: 'command', by: 'agent', host: 'cli', agent: 'claude-code', session: SESSION, command: 'true', decision: 'ran', exitCode: 0 }, 0);
    expect(hookHistory([r])[0].entries[0].id).toBe(`h${r.seq}`);
  });
});

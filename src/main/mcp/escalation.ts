/**
 * Escalation over MCP: the `confirm` the MCP host gives the router (sh_run) and sh_spawn's check.
 * A dangerous line becomes an approval request with an id that an attached operator decides
 * (approve / deny / edit / always for this session); the call waits with progress
 * notifications, and the timeout denies. No operator attached: a structured refusal saying what
 * was blocked, by which rule and why. The agent has no way to approve: no tool decides, and
 * nothing is asked on the PTY it could answer with `y`.
 */
import { dangerWarning, type ConfirmFn, type DangerDecision, type DangerPrompt } from '../core/handlers/dangerous.js';
import type { ApprovalResult } from '../operator/operator-host.js';
import { ranAfterApproval } from '../../shared/operator-wire.js';
import { startProgress, truncate, type McpDeps, type ToolExtra } from './tool-kit.js';

/** What happened to one escalated line, for the reply's text and structuredContent. */
export interface EscalationRecord {
  /** Approval id; with no operator attached (nothing was asked), the id of the refusal's record for the console, if there is one. */
  id?: string;
  command: string;
  outcome: ApprovalResult['outcome'];
  rule: string;
  reason: string;
  by?: string;
  /** edit: what ran instead. */
  editedTo?: string;
  /** Refusals: what the agent is told (the warning, the rule, why, and what to do next). */
  text?: string;
}

/** The policy engine (branch `policy`) adds these to DangerPrompt; today's prompt has the matched patterns only. */
type PolicyPrompt = DangerPrompt & { decision?: string; rule?: string; reason?: string };

export function ruleOf(prompt: DangerPrompt): { rule: string; reason: string; decision?: string } {
  const p = prompt as PolicyPrompt;
  return {
    rule: p.rule ?? prompt.dangers.map((d) => d.id).join(', '),
    reason: p.reason ?? prompt.dangers.map((d) => d.description).join('; '),
    ...(p.decision ? { decision: p.decision } : {}),
  };
}

/**
 * A ConfirmFn that asks the operators of this server. Every escalation of the call is appended
 * to `records` (an edit that is still dangerous asks again).
 */
export function operatorConfirm(deps: McpDeps, ctx: { tool: 'sh_run' | 'sh_spawn'; session: string; cwd: string; extra: ToolExtra; signal?: AbortSignal }, records: EscalationRecord[]): ConfirmFn {
  return async (prompt): Promise<DangerDecision> => {
    const { rule, reason, decision } = ruleOf(prompt);
    const warning = dangerWarning(prompt.command, prompt.dangers);
    const host = deps.operator;
    // Asked again for the operator's own edit (still dangerous): the request says whose edit it is.
    const last = records[records.length - 1];
    const editOf = last?.outcome === 'edited' && last.editedTo === prompt.command && last.id && last.by ? { id: last.id, by: last.by } : undefined;
    const input = { tool: ctx.tool, session: ctx.session, command: prompt.command, cwd: ctx.cwd, dangers: prompt.dangers, rule, reason, ...(decision ? { decision } : {}), ...(editOf ? { editOf } : {}) };
    let pendingId: string | undefined;
    const started = Date.now();
    const stop = startProgress(ctx.extra, () => ({ progress: Math.floor((Date.now() - started) / 1000), message: `waiting for an operator to approve \`${truncate(prompt.command, 80)}\`${pendingId ? ` (${pendingId})` : ''}` }));
    let result: ApprovalResult;
    try {
      result = host ? await host.requestApproval(input, { signal: ctx.signal }) : { outcome: 'no-operator' };
    } finally {
      stop();
    }
    const record: EscalationRecord = { command: prompt.command, outcome: result.outcome, rule, reason, ...('id' in result && result.id ? { id: result.id } : {}) };
    records.push(record);
    const blocked = `${warning}\nblocked by rule ${rule}: ${reason}`;
    const next = 'Next: you cannot approve it yourself. Do it another way, or ask the user to decide (they run `mish approvals` in a terminal, or open the mish console) and call again.';
    switch (result.outcome) {
      case 'approved':
      case 'always':
        record.by = result.by;
        return { kind: result.outcome === 'always' ? 'always' : 'yes' };
      case 'edited':
        record.by = result.by;
        record.editedTo = result.command;
        return { kind: 'edit', command: result.command };
      case 'no-operator':
        record.text = `${blocked}\nrefused: no operator is attached to approve it; nothing was run.\n${next}`;
        return { kind: 'no' };
      case 'denied':
        record.by = result.by;
        record.text = `${blocked}\ndenied by the operator (${result.by}, approval ${result.id}); nothing was run.\nNext: do not retry it; ask the user what they want instead.`;
        return { kind: 'no' };
      case 'timeout':
        record.text = `${blocked}\ndenied: no operator decided within ${Math.round(result.waitedMs / 1000)}s (approval ${result.id}); nothing was run.\n${next}`;
        return { kind: 'no' };
      case 'operator-gone':
        record.text = `${blocked}\ndenied: the operator disconnected before deciding (approval ${result.id}); nothing was run.\n${next}`;
        return { kind: 'no' };
      case 'cancelled':
        record.text = `${blocked}\ncancelled while waiting for an operator (approval ${result.id}); nothing was run.`;
        return { kind: 'no' };
    }
  };
}

/** A line for the reply about approvals that let the command run: `[approved by alice (a_x)]`. */
export function approvalNote(records: EscalationRecord[]): string | undefined {
  const lines = records
    .filter((r) => ranAfterApproval(r.outcome))
    .map((r) =>
      r.outcome === 'edited'
        ? `[operator ${r.by} edited the command (${r.id}); what ran: \`${truncate(r.editedTo ?? '', 200)}\`]`
        : `[approved by operator ${r.by} (${r.id}${r.outcome === 'always' ? `; rule ${r.rule} is allowed for the rest of this session` : ''})]`,
    );
  return lines.length ? lines.join('\n') : undefined;
}

/** structuredContent of the last escalation of a call. */
export function escalationData(records: EscalationRecord[]): Record<string, unknown> | undefined {
  const r = records[records.length - 1];
  if (!r) return undefined;
  return { ...(r.id ? { id: r.id } : {}), outcome: r.outcome, rule: r.rule, reason: r.reason, ...(r.by ? { by: r.by } : {}), ...(r.editedTo ? { command: r.editedTo } : {}) };
}

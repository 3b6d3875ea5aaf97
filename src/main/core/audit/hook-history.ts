/**
 * What agents' hooks did, read back from audit records: each hooked run (a `mish <cmd>` an
 * agent's hook rewrote, recorded with the agent and its session) and each call a hook refused or
 * left to the host's own prompt, gathered per agent conversation (host id + the host's session id,
 * the key the console groups hooked runs by). Pure: records in, history out.
 *
 * Which records: a hook's decision records (`kind: decision`, `detail.hook`, answer `deny` or
 * `ask`), the operator records of its escalation (same process: the hook's pid), and the run
 * records of `mish <cmd>` started by a hook (`kind: command`, with `agent` and `session`).
 */
import type { AuditRecord } from './types.js';

/** How a refused (or host-asked) hooked call ended, as the console's rows word it. */
export type HookRefusalOutcome =
  /** The policy refused it (forbidden rule, protected file, an answer mish could not give): nobody was asked. */
  | 'forbidden'
  /** Escalated with no operator attached; the hook refused it. */
  | 'no-operator'
  /** Escalated with no operator attached; the hook answered `ask`, so the host asked its own user (outside mish). */
  | 'host-asked'
  /** An operator's decision, or nobody's in time. */
  | 'denied'
  | 'timeout'
  | 'operator-gone'
  | 'cancelled';

export interface HookRun {
  kind: 'run';
  /** The record's seq (its place in the log). */
  seq: number;
  /** The run's command id (`c…`, as on the operator wire) when recorded, else `h<seq>`. */
  id: string;
  command: string;
  cwd?: string;
  /** When it started (ms epoch): the record's time less its duration. */
  at: number;
  exitCode?: number;
  durationMs?: number;
  category?: string;
  /** `mish raw <id>` of its raw output. */
  spoolRef?: string;
  /** An operator approved it in the hook (its one-shot token was redeemed by this run). */
  approval?: { id: string; by?: string; at: number; askedAt?: number; rule?: string; reason?: string };
}

export interface HookRefusal {
  kind: 'refusal';
  seq: number;
  /** The approval's id (`a_…`) when an operator was asked, else `a_h<seq>`. */
  id: string;
  command: string;
  cwd?: string;
  /** When it was decided (ms epoch). */
  at: number;
  /** When the operator was asked, for an escalation that reached one. */
  askedAt?: number;
  outcome: HookRefusalOutcome;
  /** The operator who decided (denied). */
  by?: string;
  rule?: string;
  /** The hook's answer as the host got it: `deny` (the agent read `reason`) or `ask` (the host's user did). */
  answer: 'deny' | 'ask';
  /** The text the hook answered with, word for word (what the agent read, for `deny`). */
  reason: string;
}

export type HookHistoryEntry = HookRun | HookRefusal;

/** One agent conversation's hooked history, oldest first. */
export interface HookConversationHistory {
  /** The agent host's id (`claude-code`), as its hook names it on the wire. */
  agent: string;
  /** The host's version, when a record said it. */
  version?: string;
  /** The host's session id. */
  session: string;
  /** The latest working directory recorded. */
  cwd?: string;
  entries: HookHistoryEntry[];
}

/** A rule id in the hook's reason (`mish policy: rule git-push-force (ask): …`, `forbidden by rule rm-root: …`), for records without a `rule` field. */
const RULE_IN_REASON = /\brule ([A-Za-z0-9_][A-Za-z0-9_./-]*[A-Za-z0-9_])/;
/** The hook's text when an escalation found no operator (hook-decision.ts `unattended`). */
const NO_OPERATOR_WORDS = 'no mish operator is attached';
/** The approval id an operator's approval gave the run's token (`approved by operator X (a_…)`). */
const APPROVAL_ID_IN_REASON = /\((a_[A-Za-z0-9_-]+)\)/;

/** `claude-code/2.1.3` → host id and version. */
function splitAgent(agent: string): { agent: string; version?: string } {
  const i = agent.indexOf('/');
  return i > 0 ? { agent: agent.slice(0, i), version: agent.slice(i + 1) || undefined } : { agent };
}

const timeOf = (r: AuditRecord) => {
  const t = Date.parse(r.ts);
  return Number.isFinite(t) ? t : 0;
};

const isHook = (r: AuditRecord) => r.detail !== undefined && typeof r.detail.hook === 'string';

/** Hooked runs and hook refusals in `records` (file order), per conversation, conversations in order of their first entry. */
export function hookHistory(records: readonly AuditRecord[]): HookConversationHistory[] {
  const conversations = new Map<string, HookConversationHistory>();
  // A hook's escalation records by its process: the request (when asked) and the decision.
  const asked = new Map<string, AuditRecord>();
  const resolved = new Map<string, AuditRecord>();
  const resolvedById = new Map<string, AuditRecord>();
  // A run's redeemed token (an operator's approval), by the run's process.
  const redeemed = new Map<number, AuditRecord>();
  const escalationKey = (r: AuditRecord) => `${r.pid}\0${r.command ?? ''}`;

  const conversationOf = (r: AuditRecord): HookConversationHistory | undefined => {
    if (!r.agent || !r.session) return undefined;
    const { agent, version } = splitAgent(r.agent);
    const key = `${agent}\0${r.session}`;
    let c = conversations.get(key);
    if (!c) conversations.set(key, (c = { agent, session: r.session, entries: [] }));
    if (version) c.version = version;
    if (r.cwd) c.cwd = r.cwd;
    return c;
  };

  for (const r of records) {
    if (r.kind === 'approval' && isHook(r)) {
      if (r.decision === 'requested') asked.set(escalationKey(r), r);
      else {
        resolved.set(escalationKey(r), r);
        if (r.id) resolvedById.set(r.id, r);
      }
      continue;
    }
    if (r.kind === 'approval' && r.decision === 'token-redeemed') {
      redeemed.set(r.pid, r);
      continue;
    }
    if (r.kind === 'decision' && isHook(r) && (r.decision === 'deny' || r.decision === 'ask') && r.command !== undefined) {
      const c = conversationOf(r);
      if (!c) continue;
      const reason = r.reason ?? '';
      const esc = resolved.get(escalationKey(r));
      const req = asked.get(escalationKey(r));
      const operatorOutcome = esc?.decision === 'denied' || esc?.decision === 'timeout' || esc?.decision === 'operator-gone' || esc?.decision === 'cancelled' ? esc.decision : undefined;
      const outcome: HookRefusalOutcome = operatorOutcome ?? (r.decision === 'ask' ? 'host-asked' : reason.includes(NO_OPERATOR_WORDS) ? 'no-operator' : 'forbidden');
      const by = esc?.detail?.operator;
      const rule = r.rule ?? req?.rule ?? RULE_IN_REASON.exec(reason)?.[1];
      c.entries.push({
        kind: 'refusal',
        seq: r.seq,
        id: operatorOutcome && esc?.id ? esc.id : `a_h${r.seq}`,
        command: r.command,
        ...(r.cwd ? { cwd: r.cwd } : {}),
        at: timeOf(r),
        ...(operatorOutcome && req ? { askedAt: timeOf(req) } : {}),
        outcome,
        ...(operatorOutcome && typeof by === 'string' ? { by } : {}),
        ...(rule ? { rule } : {}),
        answer: r.decision,
        reason,
      });
      asked.delete(escalationKey(r));
      resolved.delete(escalationKey(r));
      continue;
    }
    if (r.kind === 'command' && r.host === 'cli' && r.command !== undefined && (r.decision === 'ran' || r.decision === 'ran-raw')) {
      const c = conversationOf(r);
      if (!c) continue;
      const end = timeOf(r);
      const duration = typeof r.durationMs === 'number' && r.durationMs >= 0 ? r.durationMs : undefined;
      const token = r.detail?.approved === true ? redeemed.get(r.pid) : undefined;
      const approvalId = token?.reason ? APPROVAL_ID_IN_REASON.exec(token.reason)?.[1] : undefined;
      const decided = approvalId ? resolvedById.get(approvalId) : undefined;
      const request = decided ? [...asked.values()].find((a) => a.id === approvalId) : undefined;
      const by = decided?.detail?.operator;
      c.entries.push({
        kind: 'run',
        seq: r.seq,
        id: r.id ?? `h${r.seq}`,
        command: r.command,
        ...(r.cwd ? { cwd: r.cwd } : {}),
        at: end - (duration ?? 0),
        ...(typeof r.exitCode === 'number' ? { exitCode: r.exitCode } : {}),
        ...(duration !== undefined ? { durationMs: duration } : {}),
        ...(r.category ? { category: r.category } : {}),
        ...(r.spoolRef ? { spoolRef: r.spoolRef } : {}),
        ...(approvalId
          ? {
              approval: {
                id: approvalId,
                ...(typeof by === 'string' ? { by } : {}),
                at: decided ? timeOf(decided) : timeOf(token!),
                ...(request ? { askedAt: timeOf(request) } : {}),
                ...(r.rule ? { rule: r.rule } : {}),
                ...(request?.reason ? { reason: request.reason } : {}),
              },
            }
          : {}),
      });
      redeemed.delete(r.pid);
    }
  }
  return [...conversations.values()];
}

/**
 * An operator's decisions as the timeline shows them: a command the operator denied (or nobody
 * decided in time) never runs, so nothing else would leave a row of it; one approved runs, and
 * its row carries who approved it and when. The server says only "approval a_x resolved"; which
 * command start it let through is matched here by session and command line.
 *
 * One job: the approval marks and the approved-but-not-yet-started commands.
 */
import type { CommandApproval } from '../../shared/contract.js';
import type { HubEvent } from './hub-types.js';

/**
 * How long an approved command may take to start before its approval is no longer matched to a
 * start: the agent's call resumes the moment it is decided (a start comes within milliseconds;
 * a hooked run's host launches its `mish` a moment later). Beyond, a later run of the same line
 * is another command, not the one approved.
 */
export const APPROVAL_MATCH_MS = 30_000;

/** The mark a row carries for a resolved approval. */
export function approvalMark(e: Extract<HubEvent, { type: 'approval-resolved' }>): CommandApproval {
  const a = e.approval;
  return {
    id: a.id,
    outcome: e.outcome,
    ...(e.by ? { by: e.by } : {}),
    at: e.at,
    askedAt: a.createdAt,
    ...(a.rule ? { rule: a.rule } : {}),
    ...(a.reason ? { reason: a.reason } : {}),
    tool: a.tool,
    ...(e.outcome === 'edited' && e.command && e.command !== a.command ? { original: a.command } : {}),
  };
}

/** Approved commands per session, each matched to the first start of its line within APPROVAL_MATCH_MS. */
export class ApprovalMatcher {
  private readonly waiting = new Map<string, { command: string; mark: CommandApproval }[]>();

  expect(sessionId: string, command: string, mark: CommandApproval): void {
    const list = this.waiting.get(sessionId) ?? [];
    list.push({ command, mark });
    this.waiting.set(sessionId, list);
  }

  /** The approval of a command starting now in this session, if one was approved for its line. */
  take(sessionId: string, command: string, at: number): CommandApproval | undefined {
    const list = this.waiting.get(sessionId);
    if (!list) return undefined;
    const fresh = list.filter((w) => at - w.mark.at <= APPROVAL_MATCH_MS);
    const i = fresh.findIndex((w) => w.command === command);
    const found = i >= 0 ? fresh.splice(i, 1)[0] : undefined;
    if (fresh.length) this.waiting.set(sessionId, fresh);
    else this.waiting.delete(sessionId);
    return found?.mark;
  }
}

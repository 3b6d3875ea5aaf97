/**
 * How the hub's records look to a view: a server's approvals, handoffs and background
 * processes placed under their server (`<serverId>/<session>` ids), and a session's state word.
 * Pure functions; the hub decides what to convert and when.
 */
import type { BackgroundProcess, HandoffInfo, PendingApproval, SessionInfo } from '../../shared/contract.js';
import type { ApprovalRequest, Handoff } from '../../shared/operator-wire.js';
import type { HubBackgroundProcess, HubSession } from './hub-types.js';

/** A background process's last line in the list (the whole line is in its output). */
const LAST_LINE_MAX_CHARS = 200;

export const sessionKey = (serverId: string, name: string) => `${serverId}/${name}`;

export function toPendingApproval(serverId: string, a: ApprovalRequest): PendingApproval {
  return {
    id: a.id,
    serverId,
    sessionId: sessionKey(serverId, a.session),
    session: a.session,
    tool: a.tool,
    command: a.command,
    cwd: a.cwd,
    dangers: a.dangers,
    ...(a.decision ? { decision: a.decision } : {}),
    ...(a.rule ? { rule: a.rule } : {}),
    ...(a.reason ? { reason: a.reason } : {}),
    ...(a.editOf ? { editOf: a.editOf } : {}),
    createdAt: a.createdAt,
    expiresAt: a.expiresAt,
  };
}

export function toHandoffInfo(serverId: string, h: Handoff & { mine: boolean; summary?: string }): HandoffInfo {
  return {
    id: h.id,
    serverId,
    ...(h.session ? { sessionId: sessionKey(serverId, h.session) } : {}),
    processId: h.processId,
    command: h.command,
    prompt: h.prompt,
    why: h.why,
    state: h.state,
    createdAt: h.createdAt,
    mine: h.mine,
    ...(h.summary ? { summary: h.summary } : {}),
  };
}

export function toBackgroundProcess(serverId: string, p: HubBackgroundProcess): BackgroundProcess {
  return {
    id: p.id,
    serverId,
    ...(p.session ? { sessionId: sessionKey(serverId, p.session) } : {}),
    ...(p.alias ? { alias: p.alias } : {}),
    command: p.command,
    cwd: p.cwd,
    pid: p.pid,
    state: p.state,
    ...(p.exitCode !== undefined ? { exitCode: p.exitCode } : {}),
    startedAt: p.startedAt,
    lastLine: p.lastLine.slice(0, LAST_LINE_MAX_CHARS),
  };
}

/** The one state word a view shows for a session (its server gone, waiting for input, …). */
export function sessionState(s: HubSession, gone: boolean, waiting: boolean): SessionInfo['state'] {
  if (gone) return 'gone';
  if (s.state === 'needs-approval' || s.state === 'handed-off') return s.state;
  if (waiting || s.state === 'waiting') return 'waiting';
  if (s.state === 'busy') return 'running';
  if (s.state === 'closed') return 'exited';
  return s.state;
}

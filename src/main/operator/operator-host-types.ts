/**
 * What the operator host (operator-host.ts) offers its callers: the MCP host asks for approvals
 * and reports audit events; a transport (socket-server.ts, the console in-process) connects
 * peers. Types and the approval timeout only (the host re-exports them; its parts import them).
 */
import type { AgentConversation, ApprovalOutcome, ApprovalRequest, ClientMessage, Handoff, ServerMessage } from '../../shared/operator-wire.js';
import type { SessionManager } from '../core/session/types.js';

/** How long an escalated call waits for a decision before it is denied (seed 003: a human decides, or nobody runs it). */
export const APPROVAL_TIMEOUT_MS = 5 * 60_000;
/** The approval timeout: APPROVAL_TIMEOUT_MS, or MISH_APPROVAL_TIMEOUT_MS (tests). */
export function approvalTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const v = Number(env.MISH_APPROVAL_TIMEOUT_MS);
  return Number.isFinite(v) && v > 0 ? v : APPROVAL_TIMEOUT_MS;
}

/** What the host reports for the audit log (seams §3: the lead wires it to core/audit). */
export type OperatorAuditEvent =
  | { type: 'operator-connected' | 'operator-disconnected'; at: number; operator: string; role: string }
  | { type: 'approval-requested'; at: number; approval: ApprovalRequest }
  | { type: 'approval-resolved'; at: number; id: string; outcome: ApprovalOutcome; by?: string; command: string; editedTo?: string; session: string }
  | { type: 'handoff-requested'; at: number; handoff: Handoff }
  /** `typedBytes`: how many bytes the operator typed (never what). */
  | { type: 'handoff-attached' | 'handoff-returned' | 'handoff-ended'; at: number; id: string; processId: string; by?: string; typedBytes?: number; summary?: string };

/** An escalated line, as the MCP host asks about it. */
export interface ApprovalInput {
  tool: 'sh_run' | 'sh_spawn';
  session: string;
  command: string;
  cwd: string;
  dangers: { id: string; description: string; text: string }[];
  decision?: string;
  rule?: string;
  reason?: string;
  /** An operator's edit of an earlier request, still escalated (the operator sees whose edit it is). */
  editOf?: { id: string; by: string };
}

export type ApprovalResult =
  /** Nobody was asked; `id`: the refusal's record on the wire (absent when the host is gone or never asked). */
  | { outcome: 'no-operator'; id?: string }
  | { outcome: 'approved' | 'always'; id: string; by: string }
  | { outcome: 'edited'; id: string; by: string; command: string }
  | { outcome: 'denied'; id: string; by: string }
  | { outcome: 'timeout' | 'operator-gone' | 'cancelled'; id: string; waitedMs: number };

/** What the host reads of an engine: a `mish serve`'s SessionManager, or a hook's view of no sessions. */
export type OperatorSessionSource = Pick<SessionManager, 'subscribe' | 'list' | 'processes' | 'process'>;

export interface OperatorHostOptions {
  sessions: OperatorSessionSource;
  version: string;
  cwd?: string;
  transport?: 'stdio' | 'http';
  onAudit?: (event: OperatorAuditEvent) => void;
  /** Default: approvalTimeoutMs() (MISH_APPROVAL_TIMEOUT_MS or 5 min). */
  approvalTimeoutMs?: number;
  log?: (message: string) => void;
  /** What the agent was shown of a text (the MCP server's masking); default: only the values typed at handoffs. */
  maskForAgent?: (text: string) => string;
  /** A hooked run (a hook call, the `mish <cmd>` of its rewrite): the agent conversation it belongs to (the hello says it). */
  conversation?: AgentConversation;
}

/** One connected operator, as the transport gives it to the host. */
export interface OperatorPeer {
  send(message: ServerMessage): void;
  /** Ends the connection (the host calls it on a protocol error). */
  close(): void;
}

export interface OperatorConnection {
  receive(message: ClientMessage): void;
  /** The transport closed: pending approvals only it could decide are denied. */
  closed(): void;
}

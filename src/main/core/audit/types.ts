/**
 * The audit log's records: one per command, decision, approval, handoff and session event, with
 * who acted. Hosts and the operator code report events through an AuditSink; the log adds the
 * sequence number, time, pid and hash chain (audit-log.ts).
 */

/** What happened. */
export type AuditKind = 'command' | 'decision' | 'approval' | 'handoff' | 'session';

/**
 * Who acted or decided: the agent (an MCP client's call), the operator (a human at the console
 * or `mish approvals`), the user (a human at mish's own terminal), or the policy (rules, no human).
 */
export type AuditActor = 'agent' | 'operator' | 'user' | 'policy';

/** Which host saw it. */
export type AuditHost = 'cli' | 'mcp' | 'console' | 'operator';

/** Extra facts of an event: flat, JSON-safe values only. */
export type AuditDetail = Record<string, string | number | boolean | null>;

/** An event as a host reports it. Strings are redacted before they are written. */
export interface AuditEvent {
  kind: AuditKind;
  by: AuditActor;
  host: AuditHost;
  /** The MCP client (`name/version`) the event belongs to, when an agent is involved. */
  agent?: string;
  session?: string;
  /** The command line (redacted). */
  command?: string;
  /**
   * What was decided or done: `ran`, `refused`, `yes` / `no` / `always` / `edit` (a human's
   * answer), `allow` / `ask` / `operator` / `forbid` (policy), `approved` / `denied`,
   * `started`, `created`, `closed`, `restarted`, `handed-over`, `returned`, …
   */
  decision?: string;
  /** The rule or pattern ids behind a decision. */
  rule?: string;
  reason?: string;
  /** Process-table id (`c3`, `p2`) or approval / handoff id. */
  id?: string;
  cwd?: string;
  exitCode?: number | null;
  signal?: number;
  durationMs?: number;
  category?: string;
  /** `mish raw <id>` of the command's raw output. */
  spoolRef?: string;
  detail?: AuditDetail;
}

/** A written record: the event plus its place in the chain. */
export interface AuditRecord extends AuditEvent {
  /** 1, 2, 3, … in file order. */
  seq: number;
  /** ISO 8601 time of the event. */
  ts: string;
  /** The process that wrote it. */
  pid: number;
  /** `hash` of the previous record (GENESIS_HASH for the first). */
  prev: string;
  /** sha256 (hex) of this record's canonical text without `hash`. */
  hash: string;
}

/**
 * Where events go. `record` never throws and never blocks (the write happens in the
 * background, in order); `flush` resolves once everything recorded so far is on disk.
 */
export interface AuditSink {
  record(event: AuditEvent): void;
  flush(): Promise<void>;
}

/** A sink that drops everything (audit disabled, or a host built without one). */
export const NO_AUDIT: AuditSink = { record: () => {}, flush: async () => {} };

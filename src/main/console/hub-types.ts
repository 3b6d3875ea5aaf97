/**
 * What the hub (console-service.ts) speaks on both sides: a server it watches (HubServer — the
 * console's own engine, a `mish serve` on the wire, one reached over SSH), and a view it feeds
 * (ConsoleClient). Types only: every console module may import this one, and it imports
 * nothing of the console, so imports run one way (hosts → hub → these types).
 */
import type { CommandApproval, ServerInfo, EventName, EventPayload, RequestName } from '../../shared/contract.js';
import type { ProcessEntry, SessionInfo as CoreSessionInfo, SessionEvent, SpoolReadOptions, SpoolReadResult } from '../core/session/types.js';
import type { ApprovalDecisionKind, ApprovalRequest, Handoff } from '../../shared/operator-wire.js';

/** What a view can read of one process of a server: its figures and its spooled lines. */
export interface HubProcess {
  entry(): Pick<ProcessEntry, 'rawLines' | 'rawBytes'> & { state?: ProcessEntry['state']; spoolRef?: string };
  /** A remote server's spool is read over its link: then a promise. */
  read(options?: SpoolReadOptions): SpoolReadResult | Promise<SpoolReadResult>;
}

/** A session as a server reports it (the engine's SessionInfo fits; the wire adds waiting / approval / handoff states). */
export interface HubSession {
  name: string;
  shell: string;
  cwd?: string;
  pid?: number;
  state: CoreSessionInfo['state'] | 'running' | 'waiting' | 'needs-approval' | 'handed-off';
  lastExitCode?: number;
  cols?: number;
  rows?: number;
}

/**
 * What a server tells the hub: the engine's events, plus what a server that numbers its own
 * output stream (the operator wire) says — output with offsets, a command's end with its
 * figures (exit code unknown when its shell went away), and "the session states changed".
 */
export type HubEvent =
  | SessionEvent
  | { type: 'stream-output'; session: string; offset: number; chunk: Uint8Array }
  | { type: 'command-done'; session: string; id: string; exitCode?: number; durationMs: number; rawLines?: number; rawBytes?: number }
  /** Where a command's output starts in its session's stream, in the server's own numbering (a wire server says so at its start). */
  | { type: 'command-offset'; session: string; id: string; offset: number }
  /** A wire server's background process changed (`onlyOutput`: it only printed). */
  | { type: 'background-changed'; onlyOutput: boolean }
  /**
   * An approval was decided (or timed out, or its call was cancelled): `command` is what ran instead (edit).
   * `no-operator`: refused at once, nobody was attached to ask (the server's `escalation-refused`).
   * `forbidden` / `host-asked`: a hook's answer read back from the audit log (hook-history.ts).
   */
  | { type: 'approval-resolved'; approval: ApprovalRequest; outcome: CommandApproval['outcome']; by?: string; command?: string; at: number }
  | { type: 'sessions-changed' };

/** What an operator can do on a server (the operator wire): approvals and handoffs. */
export interface HubOperator {
  approvals(): ApprovalRequest[];
  handoffs(): (Handoff & { mine: boolean; summary?: string })[];
  decide(id: string, decision: ApprovalDecisionKind, command?: string): Promise<{ ok: true } | { ok: false; error: string }>;
  take(target: { handoffId?: string; session?: string }): Promise<{ ok: true; handoff: Handoff } | { ok: false; error: string }>;
  input(handoffId: string, data: string): void;
  giveBack(handoffId: string): Promise<{ ok: true; summary: string } | { ok: false; error: string }>;
}

/** A background process as a server reports it (the engine's ProcessEntry and the wire's process both fit). */
export type HubBackgroundProcess = Pick<ProcessEntry, 'id' | 'kind' | 'alias' | 'session' | 'command' | 'cwd' | 'pid' | 'state' | 'exitCode' | 'startedAt' | 'lastLine'>;

/** A hooked run's agent conversation (the wire hello's `conversation`; `host`: a remote machine's). */
export interface HubConversation {
  agent: string;
  session: string;
  host?: string;
  /** The host's transcript file of the conversation (its hook payload's `transcript_path`). */
  transcript?: string;
}

/** One server the hub watches. */
export interface HubServer {
  /** Approvals and handoffs, for servers on the operator wire. */
  readonly operator?: HubOperator;
  readonly id: string;
  /** Client name/version, cwd, pid, endpoint (everything but id and state). */
  info(): Omit<ServerInfo, 'id' | 'state'>;
  list(): HubSession[];
  subscribe(listener: (event: HubEvent) => void): () => void;
  process?(id: string): HubProcess | undefined;
  /** Its process table (background processes are those of kind `spawn`; changes come as `process` or `sessions-changed` events). */
  processes?(): HubBackgroundProcess[];
  /** Fires when info() changes (a client connected or said who it is). */
  onInfoChanged?(listener: () => void): () => void;
  /**
   * For servers whose output flows on demand (the wire): start a session's output; resolves with
   * its recent output and the stream offset where that ends. Output then comes as `stream-output`.
   */
  openStream?(session: string): Promise<{ ok: true; backlog: Buffer; offset: number } | { ok: false; error: string }>;
  /** For such servers: the hub took this many bytes of a session's output (their flow control). */
  consumed?(session: string, bytes: number): void;
  /**
   * The hub receives every byte of its sessions' output whether or not a view watches (an
   * on-demand server's output flows only once opened): a command's start offset is then exact.
   */
  readonly streamsAlways?: boolean;
  /** A hooked run of an agent's shell tool: the conversation it belongs to (the hub shows it there, agent-conversations.ts). */
  conversation?(): HubConversation | undefined;
}

/** A connected view (a BrowserWindow's webContents or a WebSocket). */
export interface ConsoleClient {
  send<E extends EventName>(event: E, payload: EventPayload<E>): void;
}

export type RequestOutcome = { ok: true; result: unknown } | { ok: false; error: string };

/** One view's connection: answers its requests, ends its subscriptions on dispose. */
export interface ConsoleConnection {
  handle(method: RequestName, params: unknown): Promise<RequestOutcome>;
  dispose(): void;
}

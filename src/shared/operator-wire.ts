/**
 * The operator wire: every message between one `mish serve` process and an operator client
 * (the console hub, `mish approvals`, `mish attach`). Newline-delimited JSON frames over a
 * per-server Unix socket (mode 0600 in a private 0700 per-user directory), validated with these
 * schemas at both ends.
 *
 * Shape of a conversation:
 *   server → client  `hello` (who the server is, with a snapshot of its sessions, approvals, handoffs)
 *   client → server  `hello` (who the operator is; `approvals: true` when it decides approvals)
 *   then either side at any time; requests carry a `rid` the server answers with `reply`.
 *
 * Raw terminal output is base64 with the byte offset of its first byte in the stream, so a
 * client sees gaps (flow control, a backlog cut) as offset jumps, never as silent loss.
 * Flow control as VS Code's terminal: the server stops sending a stream's output to a client
 * with more than OUTPUT_HIGH_WATERMARK unacknowledged bytes and resumes below
 * OUTPUT_LOW_WATERMARK; the agent's PTY is never paused (an operator must not slow an agent),
 * so what a paused client misses is skipped and the next chunk's offset says how much.
 *
 * Imports nothing of ours (src/shared is the contract).
 */
import { z } from 'zod';

/** Version of this wire; a peer speaking another major version is refused at hello. */
export const OPERATOR_WIRE_VERSION = 1;
/** The longest an approver may ask its pending approvals to wait for it to reconnect (a link's reconnect, not a lunch break). */
export const APPROVER_LINGER_MAX_MS = 120_000;
/** Pause a stream for a client above this many unacknowledged output bytes (VS Code: 100k chars). */
export const OUTPUT_HIGH_WATERMARK = 100_000;
/** Resume it once the unacknowledged bytes fall below this (VS Code: 5k chars). */
export const OUTPUT_LOW_WATERMARK = 5_000;
/** Clients acknowledge at least every this many bytes received (VS Code acks every 5k chars). */
export const OUTPUT_ACK_EVERY = 5_000;
/** Longest frame accepted; a longer line is dropped (a peer cannot make the other buffer without bound). */
export const MAX_FRAME_BYTES = 8 * 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// Shared pieces

/** Whose output a stream is: a session's terminal (by session name) or a background process's own PTY. */
export const StreamRefSchema = z.object({ kind: z.enum(['session', 'process']), id: z.string().min(1) });
export type StreamRef = z.infer<typeof StreamRefSchema>;

/** The MCP client behind a server, as it said at `initialize` (clientInfo). */
export const McpClientInfoSchema = z.object({ name: z.string(), version: z.string().optional() });
export type McpClientInfo = z.infer<typeof McpClientInfoSchema>;

export const OperatorSessionStateSchema = z.enum(['starting', 'idle', 'running', 'waiting', 'exited', 'needs-approval', 'handed-off']);
export type OperatorSessionState = z.infer<typeof OperatorSessionStateSchema>;

/** A session of a server as operators see it. Sessions are identified by name within a server. */
export const OperatorSessionSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  shell: z.string(),
  cwd: z.string(),
  state: OperatorSessionStateSchema,
  pid: z.number().int().optional(),
  /** "user@host" for ssh sessions. */
  remote: z.string().optional(),
  /** The command running now (state running / waiting / needs-approval / handed-off). */
  command: z.string().optional(),
  commandId: z.string().optional(),
  /** Milliseconds the current command has run, at the time of the message. */
  elapsedMs: z.number().nonnegative().optional(),
  lastExitCode: z.number().int().optional(),
  cols: z.number().int().positive().optional(),
  rows: z.number().int().positive().optional(),
  createdAt: z.number(),
});
export type OperatorSession = z.infer<typeof OperatorSessionSchema>;

/** A background process (sh_spawn) or a session command in the process table. */
export const OperatorProcessSchema = z.object({
  id: z.string(),
  kind: z.enum(['spawn', 'command']),
  alias: z.string().optional(),
  session: z.string().optional(),
  command: z.string(),
  cwd: z.string(),
  pid: z.number().int(),
  state: z.enum(['running', 'waiting-for-input', 'exited', 'killed']),
  exitCode: z.number().int().optional(),
  startedAt: z.number(),
  elapsedMs: z.number().nonnegative(),
  rawLines: z.number().int().nonnegative(),
  rawBytes: z.number().int().nonnegative(),
  lastLine: z.string(),
  spoolRef: z.string().optional(),
});
export type OperatorProcess = z.infer<typeof OperatorProcessSchema>;

/** What a dangerous line matched (today's danger patterns; the policy engine adds rule/reason). */
export const DangerSchema = z.object({ id: z.string(), description: z.string(), text: z.string() });

export const ApprovalDecisionKindSchema = z.enum(['approve', 'deny', 'edit', 'always']);
export type ApprovalDecisionKind = z.infer<typeof ApprovalDecisionKindSchema>;

/** What a request and a refusal both tell of an escalated line: where, what, and the policy's verdict. */
const EscalationFields = {
  id: z.string().regex(/^a_[A-Za-z0-9_-]+$/),
  /** Session the command would run in (sh_run), or the session an sh_spawn inherits from. */
  session: z.string(),
  tool: z.enum(['sh_run', 'sh_spawn']),
  command: z.string(),
  cwd: z.string(),
  dangers: z.array(DangerSchema),
  /** The policy decision that escalated it (ask | operator), when the policy engine gives one. */
  decision: z.string().optional(),
  rule: z.string().optional(),
  reason: z.string().optional(),
};

/** A tool call waiting for a human decision. */
export const ApprovalRequestSchema = z.object({
  ...EscalationFields,
  /** The command is an operator's edit of an earlier request (`id`, decided by `by`) that the policy still escalates. */
  editOf: z.object({ id: z.string(), by: z.string() }).optional(),
  createdAt: z.number(),
  /** When it is denied if nobody decides (epoch ms). */
  expiresAt: z.number(),
});
export type ApprovalRequest = z.infer<typeof ApprovalRequestSchema>;

export const ApprovalOutcomeSchema = z.enum(['approved', 'denied', 'edited', 'always', 'timeout', 'operator-gone', 'cancelled']);
export type ApprovalOutcome = z.infer<typeof ApprovalOutcomeSchema>;

/**
 * An escalated line refused at once because no operator who decides approvals was attached:
 * nothing was asked and nothing ran. The server keeps the recent ones (REFUSED_ESCALATIONS) and a
 * console that connects later gets them in its hello (`refused`), so the operator sees what was
 * stopped while nobody watched. Its id (`a_…`) is the one the agent's reply row carries.
 */
export const EscalationRefusedSchema = z.object({
  type: z.literal('escalation-refused'),
  ...EscalationFields,
  /** Why nobody was asked: no operator that decides approvals was attached. */
  why: z.literal('no-operator'),
  at: z.number(),
});
export type EscalationRefused = z.infer<typeof EscalationRefusedSchema>;
/** How many refused escalations a server remembers for consoles that connect later. */
export const REFUSED_ESCALATIONS = 100;

/** Outcomes after which the command runs (as approved, or as the operator edited it); the others stop it (and so does finding no operator, which the wire never carries). */
export function ranAfterApproval(outcome: ApprovalOutcome | 'no-operator' | 'forbidden' | 'host-asked'): boolean {
  return outcome === 'approved' || outcome === 'always' || outcome === 'edited';
}

export const HandoffStateSchema = z.enum(['pending', 'attached', 'returned', 'ended']);
export type HandoffState = z.infer<typeof HandoffStateSchema>;

/** A process handed to a human (a secret prompt, or an operator takeover). */
export const HandoffSchema = z.object({
  id: z.string().regex(/^h_[A-Za-z0-9_-]+$/),
  /** Process-table id of the process waiting ("c3" for a session command, "p2" for a spawn). */
  processId: z.string(),
  session: z.string().optional(),
  /** The stream an attached operator sees and types into. */
  stream: StreamRefSchema,
  command: z.string(),
  /** The prompt as printed (never what is typed). */
  prompt: z.string(),
  why: z.enum(['secret-prompt', 'takeover']),
  state: HandoffStateSchema,
  createdAt: z.number(),
  cols: z.number().int().positive().optional(),
  rows: z.number().int().positive().optional(),
});
export type Handoff = z.infer<typeof HandoffSchema>;

const Rid = z.number().int().nonnegative();

// ---------------------------------------------------------------------------------------------
// Server → client

const CommandStartSchema = z.object({
  type: z.literal('command-start'),
  session: z.string(),
  commandId: z.string(),
  command: z.string(),
  cwd: z.string(),
  at: z.number(),
  /** Offset in the session's output stream where the command's output starts (the console marks it in the terminal). */
  offset: z.number().int().nonnegative().optional(),
});
/** The command ended in its shell: exit code, duration and raw figures. */
const CommandEndSchema = z.object({
  type: z.literal('command-end'),
  session: z.string(),
  commandId: z.string(),
  exitCode: z.number().int().nullable(),
  durationMs: z.number().nonnegative(),
  rawLines: z.number().int().nonnegative(),
  rawBytes: z.number().int().nonnegative(),
  shellExited: z.boolean(),
  cwd: z.string().optional(),
  spoolRef: z.string().optional(),
});
const CondensedSchema = z.object({
  type: z.literal('condensed'),
  session: z.string().optional(),
  /** The command's process id; for a reply to a command that never ran (an approval denied), the approval's id (`a_…`). */
  processId: z.string(),
  lines: z.array(z.string()),
  final: z.boolean().optional(),
  /** The lines are the exact text of a tool reply the agent received (sh_run's whole reply, footer included). */
  reply: z.boolean().optional(),
  /** The router's treatment of the command (condense / narrate / passthrough / structured / refused …). */
  category: z.string().optional(),
  /** With a final reply: the command line the agent sent (a structured view runs it with an output format added). */
  asked: z.string().optional(),
});

/**
 * What a client that connects late needs to show the commands that ran before it came: the
 * server's recent command-start / command-end messages and the agent's exact replies
 * (`condensed` with `reply` or `final`), oldest first, bounded (RECENT_COMMAND_MESSAGES).
 */
export const RecentCommandMessageSchema = z.discriminatedUnion('type', [CommandStartSchema, CommandEndSchema, CondensedSchema]);
export type RecentCommandMessage = z.infer<typeof RecentCommandMessageSchema>;
/** How many recent command messages a hello carries (about the last 200 commands). */
export const RECENT_COMMAND_MESSAGES = 600;

/**
 * A run of an agent's own shell tool, hooked (`mish hook` and the `mish <cmd>` its rewrite runs):
 * the agent conversation it belongs to, from the host's hook payload. Each hook call and each
 * run is a short-lived server of its own; a console shows every run of one conversation (same
 * agent, same session id) as one agent with one session.
 */
export const AgentConversationSchema = z.object({
  /** The host (`claude-code`, `codex`, …): the same as the hello's client name. */
  agent: z.string().min(1).max(200),
  /** The host's session id for the conversation (Claude Code's `session_id`, Cursor's `conversation_id`). */
  session: z.string().min(1).max(1000),
  /** The host's transcript file of the conversation (its hook payload's `transcript_path`), when it gives one. */
  transcript: z.string().min(1).optional(),
});
export type AgentConversation = z.infer<typeof AgentConversationSchema>;

export const ServerHelloSchema = z.object({
  type: z.literal('hello'),
  wire: z.literal(OPERATOR_WIRE_VERSION),
  pid: z.number().int(),
  mishVersion: z.string(),
  cwd: z.string(),
  startedAt: z.number(),
  /** Undefined until the MCP client has sent `initialize`; then `server` updates it. */
  client: McpClientInfoSchema.optional(),
  transport: z.enum(['stdio', 'http']),
  sessions: z.array(OperatorSessionSchema),
  processes: z.array(OperatorProcessSchema),
  /** Pending approvals (sent to every client; only those with `approvals: true` may decide). */
  approvals: z.array(ApprovalRequestSchema),
  handoffs: z.array(HandoffSchema),
  /** Recent command messages, oldest first (a client that connects late builds its timeline from them). */
  recent: z.array(RecentCommandMessageSchema).max(RECENT_COMMAND_MESSAGES).optional(),
  /** A hooked run of an agent's shell tool: its conversation (absent for `mish serve`). */
  conversation: AgentConversationSchema.optional(),
  /**
   * Escalations refused because no operator was attached, oldest first. A field of its own, not
   * part of `recent`: a console of an older version ignores it instead of rejecting the hello.
   */
  refused: z.array(EscalationRefusedSchema).max(REFUSED_ESCALATIONS).optional(),
});

export const serverMessageSchemas = {
  hello: ServerHelloSchema,
  /** The server's MCP client became known (initialize) or changed. */
  server: z.object({ type: z.literal('server'), client: McpClientInfoSchema.optional() }),
  /** Full sessions snapshot (on every change of the set or of a session's state). */
  sessions: z.object({ type: z.literal('sessions'), sessions: z.array(OperatorSessionSchema) }),
  /** One session changed (state, cwd, current command). */
  session: z.object({ type: z.literal('session'), session: OperatorSessionSchema }),
  'session-closed': z.object({ type: z.literal('session-closed'), id: z.string(), reason: z.string(), exitCode: z.number().int().optional() }),
  process: z.object({ type: z.literal('process'), change: z.enum(['added', 'updated', 'removed']), process: OperatorProcessSchema }),
  'command-start': CommandStartSchema,
  /** The command ended in its shell: exit code, duration and raw figures. */
  'command-end': CommandEndSchema,
  /** The command ended in its shell: exit code, duration and raw figures. */
  /**
   * What the agent got for a command (after `command-end`): router category, lines shown and the
   * exact text of the reply's body (masked as the agent saw it). `refused` commands never started.
   */
  'command-report': z.object({
    type: z.literal('command-report'),
    session: z.string(),
    commandId: z.string().optional(),
    command: z.string(),
    category: z.string(),
    exitCode: z.number().int().nullable(),
    durationMs: z.number().nonnegative(),
    rawLines: z.number().int().nonnegative(),
    rawBytes: z.number().int().nonnegative().optional(),
    shownLines: z.number().int().nonnegative(),
    agentText: z.string(),
    refused: z.boolean().optional(),
    spoolRef: z.string().optional(),
  }),
  /** Condensed lines as the squasher finds them (hazards live; `final`: the whole reply body). */
  condensed: CondensedSchema,
  /** Raw output of a stream this client subscribed to. `data`: base64; `offset`: stream offset of its first byte. */
  output: z.object({ type: z.literal('output'), stream: StreamRefSchema, data: z.string(), offset: z.number().int().nonnegative() }),
  /** A process stopped to wait for input (`secret`: the terminal has ECHO off). */
  waiting: z.object({
    type: z.literal('waiting'),
    processId: z.string(),
    session: z.string().optional(),
    prompt: z.string(),
    secret: z.boolean(),
    since: z.number(),
  }),
  'approval-request': z.object({ type: z.literal('approval-request'), approval: ApprovalRequestSchema }),
  'approval-resolved': z.object({
    type: z.literal('approval-resolved'),
    id: z.string(),
    outcome: ApprovalOutcomeSchema,
    /** Who decided (an operator's name), absent for timeout / operator-gone. */
    by: z.string().optional(),
    /** The command that ran instead (edit). */
    command: z.string().optional(),
  }),
  /** An escalated line was refused at once: no operator that decides approvals was attached (see EscalationRefusedSchema). */
  'escalation-refused': EscalationRefusedSchema,
  'handoff-request': z.object({ type: z.literal('handoff-request'), handoff: HandoffSchema }),
  /** A handoff moved on: attached (by whom), returned to the agent, or ended (the process exited). */
  'handoff-state': z.object({
    type: z.literal('handoff-state'),
    id: z.string(),
    state: HandoffStateSchema,
    by: z.string().optional(),
    /** returned / ended: what the agent is told (the credential-blind summary). */
    summary: z.string().optional(),
  }),
  /** Answer to a client request with the same `rid`. */
  reply: z.object({ type: z.literal('reply'), rid: Rid, ok: z.boolean(), error: z.string().optional(), result: z.unknown().optional() }),
} as const;

export type ServerMessageType = keyof typeof serverMessageSchemas;
export type ServerMessageOf<T extends ServerMessageType> = z.infer<(typeof serverMessageSchemas)[T]>;
export const ServerMessageSchema = z.discriminatedUnion('type', Object.values(serverMessageSchemas) as unknown as [
  (typeof serverMessageSchemas)['hello'],
  ...(typeof serverMessageSchemas)[Exclude<ServerMessageType, 'hello'>][],
]);
export type ServerMessage = { [T in ServerMessageType]: ServerMessageOf<T> }[ServerMessageType];

// ---------------------------------------------------------------------------------------------
// Client → server

export const clientMessageSchemas = {
  hello: z.object({
    type: z.literal('hello'),
    wire: z.literal(OPERATOR_WIRE_VERSION),
    /** Who the operator is (shown to agents' audit as "who decided"): `mish approvals (alice)`, `console`. */
    name: z.string().min(1).max(200),
    role: z.enum(['console', 'approvals', 'attach']),
    /** This client decides approvals: while at least one such client is connected, escalations wait for it. */
    approvals: z.boolean().optional(),
    /**
     * An approver over a link that may drop (the console over SSH): when it was the last approver
     * and disconnects, pending approvals stay pending this long (ms) for an approver to come back,
     * then are denied as `operator-gone`. Absent: denied at once.
     */
    linger: z.number().int().min(0).max(APPROVER_LINGER_MAX_MS).optional(),
    /** When given, the server replies once the hello is in effect (an approver counts from then on). */
    rid: Rid.optional(),
  }),
  /** Start receiving a stream's output, after a bounded backlog (the reply: `{ backlog, offset }`). */
  subscribe: z.object({ type: z.literal('subscribe'), rid: Rid, stream: StreamRefSchema }),
  unsubscribe: z.object({ type: z.literal('unsubscribe'), stream: StreamRefSchema }),
  /** Flow control: this many more output bytes of `stream` are consumed. */
  ack: z.object({ type: z.literal('ack'), stream: StreamRefSchema, bytes: z.number().int().positive() }),
  'approval-decide': z.object({
    type: z.literal('approval-decide'),
    rid: Rid,
    id: z.string(),
    decision: ApprovalDecisionKindSchema,
    /** edit: the command to run instead (checked again; still dangerous → asked again). */
    command: z.string().optional(),
  }),
  /** Attach to a pending handoff (single use: one attach per id). Reply `{ backlog, offset, stream }`; output follows. */
  'handoff-attach': z.object({
    type: z.literal('handoff-attach'),
    rid: Rid,
    id: z.string(),
    cols: z.number().int().positive().optional(),
    rows: z.number().int().positive().optional(),
  }),
  /** Take any session over at will (a handoff of kind `takeover`); the reply holds its handoff. */
  takeover: z.object({ type: z.literal('takeover'), rid: Rid, session: z.string() }),
  /** Bytes typed by the attached operator (base64): go to the PTY only; never recorded, never shown to the agent. */
  input: z.object({ type: z.literal('input'), handoffId: z.string(), data: z.string() }),
  /** The attached operator's terminal size (the PTY follows while the operator holds it). */
  resize: z.object({ type: z.literal('resize'), handoffId: z.string(), cols: z.number().int().positive(), rows: z.number().int().positive() }),
  /** Hand the process back to the agent (the agent then gets the credential-blind summary). */
  'handoff-return': z.object({ type: z.literal('handoff-return'), rid: Rid.optional(), id: z.string() }),
} as const;

export type ClientMessageType = keyof typeof clientMessageSchemas;
export type ClientMessageOf<T extends ClientMessageType> = z.infer<(typeof clientMessageSchemas)[T]>;
export const ClientMessageSchema = z.discriminatedUnion('type', Object.values(clientMessageSchemas) as unknown as [
  (typeof clientMessageSchemas)['hello'],
  ...(typeof clientMessageSchemas)[Exclude<ClientMessageType, 'hello'>][],
]);
export type ClientMessage = { [T in ClientMessageType]: ClientMessageOf<T> }[ClientMessageType];

/** Results of the requests that return something. */
export const SubscribeResultSchema = z.object({ backlog: z.string(), offset: z.number().int().nonnegative() });
export const AttachResultSchema = z.object({ handoff: HandoffSchema, backlog: z.string(), offset: z.number().int().nonnegative() });
export const TakeoverResultSchema = z.object({ handoff: HandoffSchema });

// ---------------------------------------------------------------------------------------------
// Framing

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

function parseWith<T>(schema: z.ZodType<T>, line: string): Parsed<T> {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (e) {
    return { ok: false, error: `not JSON: ${(e as Error).message}` };
  }
  const r = schema.safeParse(value);
  if (!r.success) return { ok: false, error: r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ') };
  return { ok: true, value: r.data };
}

/** Parses and validates one frame a server sent. */
export function parseServerMessage(line: string): Parsed<ServerMessage> {
  return parseWith(ServerMessageSchema as unknown as z.ZodType<ServerMessage>, line);
}

/** Parses and validates one frame a client sent. */
export function parseClientMessage(line: string): Parsed<ClientMessage> {
  return parseWith(ClientMessageSchema as unknown as z.ZodType<ClientMessage>, line);
}

/** One frame: the message as JSON and a newline. */
export function encodeFrame(message: ServerMessage | ClientMessage): string {
  return `${JSON.stringify(message)}\n`;
}

/**
 * The typed contract between the main process (or the web host) and the renderer: every
 * message name with the zod schema of its payload. Both transports (Electron IPC through the
 * preload, WebSocket in browser mode) carry exactly these messages, and every payload is
 * validated where it crosses a process boundary.
 *
 * Raw terminal output travels base64-encoded: bytes are never re-encoded as text on the way
 * (a UTF-8 character split across chunks is reassembled by xterm's own decoder).
 */
import { z } from 'zod';
import { EVENT_METHODS, REQUEST_METHODS, type EventMethod, type EventName, type RequestMethod, type RequestName } from './channels.js';
import { ApprovalOutcomeSchema, OperatorProcessSchema } from './operator-wire.js';

export * from './channels.js';

/**
 * A server the console watches: its own engine (agents connecting by URL), or a `mish serve`
 * an agent started over stdio. `gone` once its connection ended (its sessions are kept, marked gone).
 */
export const ServerInfoSchema = z.object({
  id: z.string().min(1),
  kind: z.enum(['console', 'serve']),
  /** The MCP client's name from `initialize` (`claude-code`), or `mish console` for the console's own engine. */
  name: z.string(),
  version: z.string().optional(),
  cwd: z.string().optional(),
  pid: z.number().int().optional(),
  state: z.enum(['connected', 'gone']),
  /** Where agents connect (the console's MCP URL, without its token). */
  endpoint: z.string().optional(),
  /** MCP clients connected to this server (name version), when it has several. */
  clients: z.array(z.string()).optional(),
  /** The ssh destination of a server on another machine (`mish console --ssh`); absent: this machine. */
  host: z.string().optional(),
  /**
   * An agent whose own shell tool is hooked: one entry for its conversation (the host's session
   * id), gathering every hooked run of it (`runs`, ever seen by this console; `live`: running now).
   */
  conversation: z
    .object({
      session: z.string(),
      runs: z.number().int().nonnegative(),
      live: z.number().int().nonnegative(),
      /** The host's transcript of the conversation (its hook payload's `transcript_path`), when it gives one. */
      transcript: z.string().optional(),
      /** When its last run connected or ended (ms epoch). */
      lastRunAt: z.number().optional(),
      /** No run for a while (agent-conversations.ts CONVERSATION_IDLE_MS): shown greyed, and may be dismissed; a new run revives it. */
      ended: z.boolean().optional(),
    })
    .optional(),
});
export type ServerInfo = z.infer<typeof ServerInfoSchema>;

/**
 * `waiting`: a command waits for input; `needs-approval`: a command waits for an operator's
 * decision; `handed-off`: an operator holds its terminal; `gone`: its server went away.
 */
export const SessionStateSchema = z.enum(['starting', 'idle', 'running', 'waiting', 'needs-approval', 'handed-off', 'exited', 'gone']);
export type SessionState = z.infer<typeof SessionStateSchema>;

export const WaitingSchema = z.object({ prompt: z.string(), secret: z.boolean(), since: z.number() });

/** What the console shows about a session. */
export const SessionInfoSchema = z.object({
  /** Unique across servers: `<serverId>/<name>`. */
  id: z.string().min(1),
  serverId: z.string().min(1),
  name: z.string(),
  /** Shell executable (`/bin/bash`). */
  shell: z.string(),
  cwd: z.string().optional(),
  state: SessionStateSchema,
  pid: z.number().int().optional(),
  /** The command running now (state running / waiting), with its id and start time. */
  command: z.string().optional(),
  commandId: z.string().optional(),
  commandStartedAt: z.number().optional(),
  lastExitCode: z.number().int().optional(),
  waiting: WaitingSchema.optional(),
  /** The PTY's own size: a view renders at this size and never resizes the agent's terminal. */
  cols: z.number().int().positive(),
  rows: z.number().int().positive(),
});
export type SessionInfo = z.infer<typeof SessionInfoSchema>;

/** An operator's decision on an escalated command (the operator wire's approval-resolved, placed on its row). */
export const CommandApprovalSchema = z.object({
  /** The approval's id (`a_…`), as in the audit log and the agent's reply. */
  id: z.string().min(1),
  /**
   * `no-operator`: refused at once, since no operator was attached to ask (nothing was asked, nothing ran).
   * Hooked calls read back from the audit log (the console was not open) add two: `forbidden`, the
   * policy refused it in the agent's hook without asking anyone; `host-asked`, escalated with no
   * operator attached, so the hook left it to the agent host's own prompt (its user decided there;
   * had it run, it ran outside mish).
   */
  outcome: z.union([ApprovalOutcomeSchema, z.literal('no-operator'), z.literal('forbidden'), z.literal('host-asked')]),
  /** Who decided (an operator's name); absent when nobody did (timeout, operator gone, cancelled, no operator). */
  by: z.string().optional(),
  /** When it was decided (ms epoch). */
  at: z.number(),
  /** When it was asked (ms epoch). */
  askedAt: z.number().optional(),
  rule: z.string().optional(),
  reason: z.string().optional(),
  /** sh_run or sh_spawn (a background process approved has no row of its own). */
  tool: z.string().optional(),
  /** `edited`: the agent's command, which the operator replaced by the row's command. */
  original: z.string().optional(),
});
export type CommandApproval = z.infer<typeof CommandApprovalSchema>;

/** One command of a session's timeline, with its figures. */
export const CommandInfoSchema = z.object({
  id: z.string().min(1),
  sessionId: z.string().min(1),
  /** What the session ran. */
  command: z.string(),
  /** The command line the agent sent, when mish ran another form of it (a structured view adds an output format). */
  asked: z.string().optional(),
  startedAt: z.number(),
  state: z.enum(['running', 'waiting', 'done']),
  exitCode: z.number().int().optional(),
  durationMs: z.number().nonnegative().optional(),
  /** The router's treatment: condense / narrate / passthrough / structured / refused … */
  category: z.string().optional(),
  rawBytes: z.number().int().nonnegative(),
  rawLines: z.number().int().nonnegative(),
  shownLines: z.number().int().nonnegative().optional(),
  /** o200k tokens of the raw output (ANSI stripped) and of what the agent received. */
  tokensRaw: z.number().int().nonnegative().optional(),
  tokensShown: z.number().int().nonnegative().optional(),
  /** True when tokensRaw is estimated (output too large to tokenize on the spot). */
  tokensApprox: z.boolean().optional(),
  /** The text the agent received: sh_run's exact reply (`exact`), else the condensed lines so far. */
  agentSaw: z.string().optional(),
  exact: z.boolean().optional(),
  /** Its spool id (`mish raw <id>`): the grammar editor previews against this output. */
  spoolId: z.string().optional(),
  /**
   * The operator's decision when the policy escalated it: who decided and when, under which rule.
   * A command that never ran (denied, no decision in time, cancelled) is a row of its own with
   * this and no exit code: the operator's record of what was stopped.
   */
  approval: CommandApprovalSchema.optional(),
  /** Offset in the session's output stream where its output starts (the live terminal marks the spot; absent when the hub was not reading that stream). */
  outputOffset: z.number().int().nonnegative().optional(),
  /**
   * Read back from the audit log: a hooked run or a hook's refusal that happened while no console
   * watched (read when the console started), or one that never reached the operator wire (a
   * refusal the hook made on its own, read as the log grows). `seq`: its record (`mish audit`). What the
   * agent saw is known only where the hook recorded it (a refusal's reason); a run's raw output
   * is read from its spool.
   */
  audit: z
    .object({
      seq: z.number().int().nonnegative(),
      /** It happened while this console ran, and reached it only through the log (a hook refused it on its own, asking nobody). */
      consoleOpen: z.boolean().optional(),
    })
    .optional(),
});
export type CommandInfo = z.infer<typeof CommandInfoSchema>;


const SessionRef = z.object({ sessionId: z.string().min(1) });
/** Approvals one bulk decision may carry: far above a real queue, bounded so one frame stays small. */
export const BULK_DECISION_MAX = 500;
/** An agent's dangerous command waiting for the operator (issue 12.1), from the operator wire. */
export const PendingApprovalSchema = z.object({
  id: z.string().min(1),
  serverId: z.string().min(1),
  /** `<serverId>/<session>` */
  sessionId: z.string().min(1),
  session: z.string(),
  tool: z.string(),
  command: z.string(),
  cwd: z.string(),
  /** What matched: `text` is the risky part of the command. */
  dangers: z.array(z.object({ id: z.string(), description: z.string(), text: z.string() })),
  decision: z.string().optional(),
  rule: z.string().optional(),
  reason: z.string().optional(),
  /** An operator's edit of an earlier request (its id, who edited) that the policy still escalates. */
  editOf: z.object({ id: z.string(), by: z.string() }).optional(),
  createdAt: z.number(),
  expiresAt: z.number(),
});
export type PendingApproval = z.infer<typeof PendingApprovalSchema>;

/** A process handed to a human: a secret prompt, or a takeover (issue 12.2). Never carries typed text. */
export const HandoffInfoSchema = z.object({
  id: z.string().min(1),
  serverId: z.string().min(1),
  sessionId: z.string().optional(),
  processId: z.string(),
  command: z.string(),
  prompt: z.string(),
  why: z.enum(['secret-prompt', 'takeover']),
  state: z.enum(['pending', 'attached', 'returned', 'ended']),
  createdAt: z.number(),
  /** This console holds it (its keystrokes go to the PTY). */
  mine: z.boolean(),
  /** returned / ended: what the agent was told (the credential-blind summary). */
  summary: z.string().optional(),
});
export type HandoffInfo = z.infer<typeof HandoffInfoSchema>;

/** One line of the audit log: the record when it parses (fields as core/audit/types.ts). */
export const AuditLineSchema = z.object({ line: z.number().int().positive(), record: z.record(z.string(), z.unknown()).optional(), text: z.string().optional() });
export type AuditLine = z.infer<typeof AuditLineSchema>;
export const AuditVerdictSchema = z.object({
  ok: z.boolean(),
  records: z.number().int().nonnegative(),
  problems: z.array(z.object({ line: z.number().int().nonnegative(), seq: z.number().int().optional(), why: z.string() })),
});
export type AuditVerdictInfo = z.infer<typeof AuditVerdictSchema>;

/** A process an agent started in the background (sh_spawn: a dev server, a watcher), from its server (the wire's process, placed). */
export const BackgroundProcessSchema = OperatorProcessSchema.pick({ alias: true, command: true, cwd: true, pid: true, state: true, exitCode: true, startedAt: true, lastLine: true }).extend({
  /** The server's process id (`p3`), unique within its server. */
  id: z.string().min(1),
  serverId: z.string().min(1),
  /** `<serverId>/<session>` when it was started in a session (its cwd and environment). */
  sessionId: z.string().optional(),
});
export type BackgroundProcess = z.infer<typeof BackgroundProcessSchema>;

/** The link to a remote machine: up, or being re-established (its servers show as gone meanwhile). */
export const HostLinkSchema = z.object({
  host: z.string(),
  state: z.enum(['connecting', 'up', 'reconnecting']),
  /** Since when it is in this state (ms epoch). */
  since: z.number(),
  /** Why it is not up (ssh's last words). */
  reason: z.string().optional(),
  /** Times it came back after a drop. */
  reconnects: z.number().int().nonnegative(),
});
export type HostLink = z.infer<typeof HostLinkSchema>;

const HubSnapshotSchema = z.object({
  servers: z.array(ServerInfoSchema),
  sessions: z.array(SessionInfoSchema),
  approvals: z.array(PendingApprovalSchema),
  handoffs: z.array(HandoffInfoSchema),
  /** Background processes of every connected server, oldest first. */
  processes: z.array(BackgroundProcessSchema).optional(),
  /** Who this console is to the servers (recorded as who decided): `console (alice)`. */
  operator: z.string().optional(),
  /** Remote machines (`mish console --ssh`) and the state of each one's link. */
  hosts: z.array(HostLinkSchema).optional(),
});

// ---------------------------------------------------------------------------------------------
// Grammar editor (issue 12.3): requests answered by src/main/console/grammar-service.ts.

/** Where a grammar comes from; `project` is `.mish/grammars` of the console's working directory. */
export const GrammarOriginSchema = z.enum(['builtin', 'user', 'project']);
export type GrammarOrigin = z.infer<typeof GrammarOriginSchema>;
/** A grammar name as the loader accepts it (also its file name, `<name>.toml`). */
export const GrammarNameSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.+-]*$/, 'a grammar name is a plain word (letters, digits, _ . + -)').max(64);

export const GrammarFileSchema = z.object({
  name: z.string(),
  origin: GrammarOriginSchema,
  file: z.string(),
  commands: z.array(z.string()),
  description: z.string().optional(),
  /** A higher layer has a grammar of the same name (this one is not in effect). */
  overridden: z.boolean(),
});
export type GrammarFile = z.infer<typeof GrammarFileSchema>;

/** A loader error, placed at its line with the rule named (grammar/compile.ts). */
export const GrammarProblemSchema = z.object({ file: z.string(), line: z.number().int().optional(), rule: z.string().optional(), message: z.string() });
export type GrammarProblem = z.infer<typeof GrammarProblemSchema>;

/** A recorded raw output to preview against: its bytes and what detection and the header need. */
export const GrammarRawSchema = z.object({
  /** Base64 of the raw bytes (ANSI kept), bounded: the first bytes when `truncated`. */
  data: z.string(),
  command: z.string(),
  argv: z.array(z.string()),
  exitCode: z.number().int(),
  durationMs: z.number().nonnegative(),
  bytes: z.number().int().nonnegative(),
  truncated: z.boolean(),
});
export type GrammarRaw = z.infer<typeof GrammarRawSchema>;

export const grammarRequestSchemas = {
  'grammar:list': {
    params: z.object({}),
    result: z.object({
      grammars: z.array(GrammarFileSchema),
      /** Layer folders: where saving to `user` / `project` writes. */
      dirs: z.object({ builtin: z.string().optional(), user: z.string(), project: z.string() }),
      /** Recorded outputs (fixtures/recorded) to preview against. */
      fixtures: z.array(z.object({ name: z.string(), tool: z.string(), command: z.string(), bytes: z.number().int(), exitCode: z.number().int(), about: z.string().optional() })),
    }),
  },
  'grammar:open': {
    params: z.object({ file: z.string().min(1) }),
    result: z.object({
      name: z.string(),
      origin: GrammarOriginSchema,
      file: z.string(),
      text: z.string(),
      /** Include name (`_shared/x`) → TOML text, for the preview to resolve `include`. */
      shared: z.record(z.string(), z.string()),
      /** What the loader says about the file on disk. */
      problems: z.array(GrammarProblemSchema),
    }),
  },
  'grammar:fixture': { params: z.object({ name: z.string().min(1) }), result: GrammarRawSchema },
  /** A command's raw output from the spool (`mish raw <id>`), bounded. */
  'grammar:raw': { params: z.object({ spoolId: z.string().regex(/^[0-9a-z]+$/, 'a spool id is lowercase letters and digits') }), result: GrammarRawSchema },
  /** Saves to the user or project layer (never the built-ins); refused while the loader reports problems. */
  'grammar:save': {
    params: z.object({ name: GrammarNameSchema, text: z.string().max(48 * 1024), target: z.enum(['user', 'project']) }),
    result: z.object({ file: z.string(), origin: GrammarOriginSchema, overrides: z.string().optional() }),
  },
  /** A new grammar's text: detection by argv (`commands`, and the action when argv names one). */
  'grammar:template': {
    params: z.object({ name: GrammarNameSchema, argv: z.array(z.string()).min(1) }),
    result: z.object({ text: z.string() }),
  },
} as const satisfies Record<Extract<RequestName, `grammar:${string}`>, { params: z.ZodType; result: z.ZodType }>;
// ---------------------------------------------------------------------------------------------

/** Schemas of every request: params in, result out. */
export const requestSchemas = {
  'hub:snapshot': {
    params: z.object({}),
    result: HubSnapshotSchema,
  },
  'session:subscribe': {
    params: SessionRef,
    result: z.object({
      /** Base64 of the most recent raw output (bounded), so a new view starts with context. */
      backlog: z.string(),
      /** Offset in the session's output stream where the backlog ends; later events start here. */
      offset: z.number().int().nonnegative(),
    }),
  },
  'session:unsubscribe': {
    params: SessionRef,
    result: z.object({}),
  },
  /** Flow control: the view has written output up to `offset` into its terminal. */
  'session:ack': {
    params: SessionRef.extend({ offset: z.number().int().nonnegative() }),
    result: z.object({}),
  },
  'session:commands': {
    params: SessionRef,
    result: z.object({ commands: z.array(CommandInfoSchema) }),
  },
  /** A command's exact raw output from the spool (ANSI kept), bounded to its last lines. */
  'command:raw': {
    params: SessionRef.extend({ commandId: z.string().min(1) }),
    result: z.object({
      text: z.string(),
      /** 1-based raw line number of the first line in `text`. */
      firstLine: z.number().int().positive(),
      totalLines: z.number().int().nonnegative(),
      /** Lines before firstLine were left out (bound) or dropped by the spool ring. */
      truncated: z.boolean(),
    }),
  },
  ...grammarRequestSchemas,
  /** The operator decides an approval; the server records who (the console's operator name). */
  'approval:decide': {
    params: z.object({ serverId: z.string().min(1), id: z.string().min(1), decision: z.enum(['approve', 'deny', 'edit', 'always']), command: z.string().max(64 * 1024).optional() }),
    result: z.object({}),
  },
  /**
   * Bulk decision: approve or deny several pending approvals (any servers) together. Each is
   * decided on its own (its own audit record, same operator); `failed` names those that could
   * not be (already decided, expired, server gone) with why.
   */
  'approval:decide-many': {
    params: z.object({
      items: z.array(z.object({ serverId: z.string().min(1), id: z.string().min(1) })).min(1).max(BULK_DECISION_MAX),
      decision: z.enum(['approve', 'deny']),
    }),
    result: z.object({
      decided: z.array(z.object({ serverId: z.string(), id: z.string() })),
      failed: z.array(z.object({ serverId: z.string(), id: z.string(), error: z.string() })),
    }),
  },
  /** Take over: attach to a pending handoff, or take a session's running command at will. */
  'handoff:take': {
    params: z.object({ sessionId: z.string().min(1), handoffId: z.string().optional() }),
    result: z.object({ handoffId: z.string(), serverId: z.string(), why: z.enum(['secret-prompt', 'takeover']), prompt: z.string() }),
  },
  /** Keystrokes of the operator holding a handoff: to the PTY only, never stored or echoed anywhere. */
  'handoff:input': {
    params: z.object({ serverId: z.string().min(1), handoffId: z.string().min(1), data: z.string().min(1).max(64 * 1024) }),
    result: z.object({}),
  },
  /** Return to agent: the agent gets the credential-blind summary. */
  'handoff:return': {
    params: z.object({ serverId: z.string().min(1), handoffId: z.string().min(1) }),
    result: z.object({ summary: z.string() }),
  },
  /** Hides an ended hooked conversation from the list (its records stay in the hub; a new run shows it again). */
  'conversation:dismiss': {
    params: z.object({ serverId: z.string().min(1) }),
    result: z.object({}),
  },
  /** The audit log (its newest lines) and its chain verdict. */
  'audit:read': {
    params: z.object({}),
    result: z.object({ file: z.string(), lines: z.array(AuditLineSchema), firstLine: z.number().int().positive(), totalLines: z.number().int().nonnegative(), verify: AuditVerdictSchema }),
  },
} as const satisfies Record<RequestName, { params: z.ZodType; result: z.ZodType }>;

/** Schemas of every event payload. */
export const eventSchemas = {
  'hub:changed': HubSnapshotSchema,
  'session:output': z.object({
    sessionId: z.string(),
    /** Base64 of raw PTY bytes. */
    data: z.string(),
    /** Byte offset of this chunk in the session's output stream (lets a view drop overlap with its backlog). */
    offset: z.number().int().nonnegative(),
    /** Bytes left out before this chunk because the view fell behind more than the host keeps. */
    skipped: z.number().int().nonnegative().optional(),
  }),
  'command:updated': CommandInfoSchema,
} as const satisfies Record<EventName, z.ZodType>;

export type RequestParams<N extends RequestName> = z.infer<(typeof requestSchemas)[N]['params']>;
export type RequestResult<N extends RequestName> = z.infer<(typeof requestSchemas)[N]['result']>;
export type EventPayload<N extends EventName> = z.infer<(typeof eventSchemas)[N]>;

/**
 * The one interface the renderer talks to. Implemented by the preload (Electron IPC) and by
 * the WebSocket client (browser mode). Listeners return a disposer.
 */
export type ConsoleBridge = {
  [M in RequestMethod]: (params: RequestParams<(typeof REQUEST_METHODS)[M]>) => Promise<RequestResult<(typeof REQUEST_METHODS)[M]>>;
} & {
  [M in EventMethod]: (listener: (payload: EventPayload<(typeof EVENT_METHODS)[M]>) => void) => () => void;
};

/** WebSocket wire frames (browser mode). */
export const ClientFrameSchema = z.object({
  id: z.number().int(),
  method: z.enum(Object.values(REQUEST_METHODS) as [RequestName, ...RequestName[]]),
  params: z.unknown(),
});
export type ClientFrame = z.infer<typeof ClientFrameSchema>;

export const ServerFrameSchema = z.union([
  z.object({ id: z.number().int(), result: z.unknown() }),
  z.object({ id: z.number().int(), error: z.object({ message: z.string() }) }),
  z.object({ event: z.enum(Object.values(EVENT_METHODS) as [EventName, ...EventName[]]), payload: z.unknown() }),
]);
export type ServerFrame = z.infer<typeof ServerFrameSchema>;

/** Parse a request's params; errors as values, with a one-line message. */
export function parseParams<N extends RequestName>(name: N, raw: unknown): { ok: true; value: RequestParams<N> } | { ok: false; error: string } {
  const r = requestSchemas[name].params.safeParse(raw ?? {});
  return r.success ? { ok: true, value: r.data as RequestParams<N> } : { ok: false, error: `${name}: ${z.prettifyError(r.error).replace(/\n/g, '; ')}` };
}

/** Parse an event payload; errors as values. */
export function parseEvent<N extends EventName>(name: N, raw: unknown): { ok: true; value: EventPayload<N> } | { ok: false; error: string } {
  const r = eventSchemas[name].safeParse(raw);
  return r.success ? { ok: true, value: r.data as EventPayload<N> } : { ok: false, error: `${name}: ${z.prettifyError(r.error).replace(/\n/g, '; ')}` };
}

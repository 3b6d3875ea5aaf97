/**
 * The console's transport-agnostic half, a hub: it watches any number of servers (the
 * console's own engine, and every `mish serve` an agent started), keeps what a view needs
 * (servers, sessions with their states, each session's command timeline with figures, a
 * bounded output backlog), and feeds each connected view through the contract
 * (src/shared/contract.ts), with acknowledged-bytes flow control per view and session.
 *
 * The Electron host (IPC) and the web host (WebSocket) both wrap one ConsoleService; neither
 * holds logic of its own. A server is anything that gives a session snapshot and the engine's
 * event stream (HubServer): the console's SessionManager directly, a wire connection through
 * an adapter.
 */
import {
  parseParams,
  type CommandInfo,
  type BackgroundProcess,
  type HandoffInfo,
  type PendingApproval,
  type EventName,
  type EventPayload,
  type RequestName,
  type RequestResult,
  type ServerInfo,
  type SessionInfo,
} from '../../shared/contract.js';
import type { ProcessEntry, SessionInfo as CoreSessionInfo, SessionEvent, SpoolReadOptions, SpoolReadResult } from '../core/session/types.js';
import { stripAnsi } from '../core/squasher/vt-stripper.js';
import type { GrammarRequestName, GrammarService } from './grammar-service.js';
import type { ApprovalDecisionKind, ApprovalRequest, Handoff } from '../../shared/operator-wire.js';
import { readAuditLines, type AuditReader } from './audit-view.js';

/** Scrollback kept per session for views that open late or fall behind: ~4,000 wide lines. */
const BACKLOG_BYTES = 512 * 1024;
/** Output batching like Hyper: one message per 16 ms (a frame) instead of one per PTY read. */
const BATCH_INTERVAL_MS = 16;
/**
 * Hub changes and command updates go to views at most this often, each command once with its
 * latest state: an agent running commands back to back (a `sh_run` every few ms) costs a view
 * one message per command per tick, not one per event, and at most five renders a second
 * (measured: Chromium spent ~15 ms of CPU per `sh_run true` when each event was a message and
 * each burst a render; ~5 ms with this). Terminal output keeps its own, faster batching.
 */
const VIEW_TICK_MS = 200;
/** ... and never a message larger than this, so a flood is cut into frame-sized pieces. */
const BATCH_MAX_BYTES = 128 * 1024;
/**
 * Flow control (VS Code's terminal: high/low watermarks on unacknowledged chars). A view that
 * has this many bytes sent but not yet written into its terminal gets no more …
 */
export const FLOW_HIGH_WATERMARK = 256 * 1024;
/** … until it acknowledges down to this. The agent's PTY is never paused: a slow view skips ahead in the backlog instead. */
export const FLOW_LOW_WATERMARK = 64 * 1024;
/**
 * What a view is sent of fast output (a token bucket per view): a terminal drawn in a browser
 * costs CPU on the agent's machine for every line (measured here: xterm in Chromium parsed and
 * drew ~1.5–2 MB/s with a full core; one 25 MB `sh_run` watched in full cost ~3–5 s of
 * Chromium's CPU and took 2.8–3.6× as long). 64 KB/s is still ~750 lines a second, beyond
 * anyone's reading; faster output skips to the newest (with a note; the raw pane reads every
 * line from the spool).
 */
export const VIEW_BYTES_PER_SECOND = 64 * 1024;
/** A burst up to this is drawn in full (a test run, a build step: ~1,500 lines at once). */
export const VIEW_BURST_BYTES = 128 * 1024;
/**
 * While output outruns a view, it gets one look at the newest output per this much budget (at
 * the rate above: two a second; each look is a render of the page, on the agent's machine) …
 */
const VIEW_FLOOD_PIECE_BYTES = 32 * 1024;
/**
 * … of this many newest bytes (~90 lines: the screen of a 120×30 terminal, twice). More of a
 * flood is lines scrolled past unseen, each costing the page a line's work. Measured on a 25 MB
 * `sh_run` watched: the page drew ~190 KB (the whole burst first, then 16 KB four times a
 * second) for ~120 ms of Chromium's main thread; ~25 KB in two or three looks for ~40 ms now.
 */
const VIEW_FLOOD_SHOWN_BYTES = 8 * 1024;
/**
 * A running command's growing figures (raw lines/bytes) go to views at most this often: once a
 * second, with the elapsed clocks (each update is a render of the page, on the agent's machine).
 */
const LIVE_FIGURES_MS = 1000;
/** A background process's last line in the list (the whole line is in its output). */
const LAST_LINE_MAX_CHARS = 200;
/** Commands kept per session in the timeline. */
const TIMELINE_MAX = 200;
/** Raw output above this is not tokenized on the spot (≈300 ms of CPU); its token count is estimated. */
const TOKENIZE_MAX_BYTES = 4 * 1024 * 1024;
/** Reading a spool another process just closed: retries, first delay (doubling), ≈ 3 s in all. */
const SPOOL_RETRIES = 5;
const SPOOL_RETRY_MS = 100;
/** Bytes per token of typical terminal output, for the estimate above. */
const BYTES_PER_TOKEN_ESTIMATE = 4;
/** The raw pane shows at most this many last lines of a command (the spool keeps all; `mish raw` reads them). */
const RAW_PANE_MAX_LINES = 5000;
/** Default PTY size when a server does not say (the engine's PTYs default to 120×30). */
const DEFAULT_COLS = 120;
const DEFAULT_ROWS = 30;

/** What a view can read of one process of a server: its figures and its spooled lines. */
export interface HubProcess {
  entry(): Pick<ProcessEntry, 'rawLines' | 'rawBytes'> & { state?: ProcessEntry['state']; spoolRef?: string };
  read(options?: SpoolReadOptions): SpoolReadResult;
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
  /** A wire server's background process changed (`onlyOutput`: it only printed). */
  | { type: 'background-changed'; onlyOutput: boolean }
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
  /** Escalations waiting for an operator (changes come as `sessions-changed`). */
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

/** Output kept for one session: a ring of chunks with their stream offsets. */
interface SessionStream {
  chunks: { offset: number; data: Buffer }[];
  /** Offset of the first byte still kept. */
  start: number;
  /** Offset of the next byte (bytes seen since the session started). */
  end: number;
  timer?: NodeJS.Timeout;
  subscribers: Map<ConsoleClient, Subscription>;
  /** On-demand servers: the output was opened (its backlog is in the ring). */
  opened?: Promise<void>;
  /**
   * On-demand servers: bytes received but not yet acknowledged to the server. The hub
   * acknowledges only while a view keeps up, so a server does not encode output nobody will
   * draw (its flow control skips it, as for any slow operator); the views skip ahead too.
   */
  owed: number;
}

interface Subscription {
  /** Offset up to which output was sent to the view. */
  sent: number;
  /** Offset up to which the view acknowledged having written it. */
  acked: number;
  /** True while sent − acked passed the high watermark (until it falls below the low one). */
  paused: boolean;
  /** Budget left of the view's rate (VIEW_BYTES_PER_SECOND), and when it was last topped up. */
  tokens: number;
  refilledAt: number;
  /** Bytes skipped and not yet reported to the view (with the next output it is sent). */
  skipped: number;
  /**
   * Output came faster than the view's rate at the last flush (it is shown the newest only). A
   * flooding view does not count as keeping up: the server's output is not acknowledged for it,
   * so the server pauses after its window and skips what nobody will draw, instead of encoding
   * and sending a whole flood to be dropped here (+100–170 ms of the server's CPU per 25 MB).
   */
  flooding?: boolean;
}

interface SessionMeta {
  serverId: string;
  name: string;
  /** Last snapshot of the session (kept once its server is gone). */
  last?: HubSession;
  commandId?: string;
  command?: string;
  commandStartedAt?: number;
  waiting?: { prompt: string; secret: boolean; since: number };
  gone?: boolean;
}

interface ServerEntry {
  server: HubServer;
  state: 'connected' | 'gone';
  /** Info as last seen (kept once gone). */
  info: Omit<ServerInfo, 'id' | 'state'>;
  dispose: () => void;
}

const sessionKey = (serverId: string, name: string) => `${serverId}/${name}`;

export class ConsoleService {
  private readonly servers = new Map<string, ServerEntry>();
  private readonly meta = new Map<string, SessionMeta>();
  private readonly streams = new Map<string, SessionStream>();
  private readonly timelines = new Map<string, CommandInfo[]>();
  private readonly commands = new Map<string, CommandInfo>();
  private readonly clients = new Set<ConsoleClient>();
  private hubTimer?: NodeJS.Timeout;
  /** The hub changed since views last heard (sent with the next tick). */
  private hubDirty = false;
  private backgroundTimer: NodeJS.Timeout | undefined;
  /** Commands changed since views last heard (sent with the next tick, latest state). */
  private readonly changedCommands = new Set<CommandInfo>();
  private figuresTimer?: NodeJS.Timeout;
  /** Running commands whose raw figures grew since views last heard. */
  private readonly grown = new Set<CommandInfo>();

  /** Answers the grammar editor's `grammar:*` requests (grammar-service.ts). */
  private readonly grammar?: GrammarService;

  /** The audit log the viewer reads (issue 12.4). */
  private readonly audit: AuditReader;

  /** The name servers record as who decided (the wire's hello). */
  private readonly operatorName?: string;

  /** Fast output's budget per view (tests use their own). */
  private readonly rate: { bytesPerSecond: number; burst: number; piece: number; shown?: number };

  constructor(
    servers: HubServer[] = [],
    options: { grammar?: GrammarService; auditLog?: string; operatorName?: string; viewRate?: { bytesPerSecond: number; burst: number; piece: number; shown?: number } } = {},
  ) {
    this.rate = options.viewRate ?? { bytesPerSecond: VIEW_BYTES_PER_SECOND, burst: VIEW_BURST_BYTES, piece: VIEW_FLOOD_PIECE_BYTES, shown: VIEW_FLOOD_SHOWN_BYTES };
    this.grammar = options.grammar;
    this.operatorName = options.operatorName;
    this.audit = readAuditLines(options.auditLog);
    for (const s of servers) this.addServer(s);
  }

  /** Starts watching a server (a new `mish serve`, or the console's engine). */
  addServer(server: HubServer): void {
    this.servers.get(server.id)?.dispose();
    const unsubscribe = server.subscribe((event) => this.onEvent(server.id, event));
    const offInfo = server.onInfoChanged?.(() => {
      const e = this.servers.get(server.id);
      if (e && e.state === 'connected') e.info = server.info();
      this.hubChanged();
    });
    this.servers.set(server.id, {
      server,
      state: 'connected',
      info: server.info(),
      dispose: () => {
        unsubscribe();
        offInfo?.();
      },
    });
    for (const s of server.list()) this.sessionMeta(server.id, s.name).last = s;
    this.hubChanged();
  }

  /** The server went away: its sessions stay listed, marked gone; running commands end without an exit code. */
  serverGone(serverId: string): void {
    const e = this.servers.get(serverId);
    if (!e || e.state === 'gone') return;
    for (const s of safeList(e.server)) this.sessionMeta(serverId, s.name).last = s;
    e.dispose();
    e.state = 'gone';
    for (const [key, m] of this.meta) {
      if (m.serverId !== serverId) continue;
      m.gone = true;
      m.waiting = undefined;
      this.flushIfAny(key);
      const running = m.commandId ? this.commands.get(`${key}#${m.commandId}`) : undefined;
      if (running && running.state !== 'done') this.updateCommand(running, { state: 'done' });
      m.commandId = m.command = m.commandStartedAt = undefined;
    }
    this.hubChanged();
  }

  /** Registers a view; every view gets hub changes and command updates, output only for subscribed sessions. */
  connect(client: ConsoleClient): ConsoleConnection {
    this.clients.add(client);
    const subscribed = new Set<string>();
    return {
      handle: async (method, params) => {
        if (method.startsWith('grammar:')) {
          return this.grammar ? this.grammar.handle(method as GrammarRequestName, params) : { ok: false, error: `${method}: the grammar editor is not available here` };
        }
        try {
          return { ok: true, result: await this.request(client, subscribed, method, params) };
        } catch (err) {
          return { ok: false, error: err instanceof RequestError ? err.message : `${method}: ${String(err)}` };
        }
      },
      dispose: () => {
        this.clients.delete(client);
        for (const id of subscribed) this.streams.get(id)?.subscribers.delete(client);
        subscribed.clear();
      },
    };
  }

  /** Servers and sessions as the contract shows them. */
  snapshot(): RequestResult<'hub:snapshot'> {
    const servers: ServerInfo[] = [];
    const sessions: SessionInfo[] = [];
    const approvals: PendingApproval[] = [];
    const handoffs: HandoffInfo[] = [];
    for (const [id, e] of this.servers) {
      servers.push({ ...e.info, id, state: e.state });
      const live = e.state === 'connected' ? safeList(e.server) : [];
      for (const s of live) this.sessionMeta(id, s.name).last = s;
      if (e.state !== 'connected' || !e.server.operator) continue;
      for (const a of e.server.operator.approvals()) {
        approvals.push({
          id: a.id,
          serverId: id,
          sessionId: sessionKey(id, a.session),
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
        });
      }
      for (const h of e.server.operator.handoffs()) {
        handoffs.push({
          id: h.id,
          serverId: id,
          ...(h.session ? { sessionId: sessionKey(id, h.session) } : {}),
          processId: h.processId,
          command: h.command,
          prompt: h.prompt,
          why: h.why,
          state: h.state,
          createdAt: h.createdAt,
          mine: h.mine,
          ...(h.summary ? { summary: h.summary } : {}),
        });
      }
    }
    approvals.sort((a, b) => a.createdAt - b.createdAt);
    handoffs.sort((a, b) => a.createdAt - b.createdAt);
    for (const [key, m] of this.meta) {
      if (!m.last) continue;
      const live = !m.gone && this.servers.get(m.serverId)?.state === 'connected';
      // A session closed on a live server is no longer listed by it: drop it.
      if (live && !safeList(this.servers.get(m.serverId)!.server).some((s) => s.name === m.name)) continue;
      sessions.push(this.toContractSession(key, m));
    }
    approvals.sort((a, b) => a.createdAt - b.createdAt);
    const processes: BackgroundProcess[] = [];
    for (const [id, e] of this.servers) {
      if (e.state !== 'connected') continue;
      for (const p of safeProcesses(e.server)) {
        if (p.kind !== 'spawn') continue;
        processes.push({
          id: p.id,
          serverId: id,
          ...(p.session ? { sessionId: sessionKey(id, p.session) } : {}),
          ...(p.alias ? { alias: p.alias } : {}),
          command: p.command,
          cwd: p.cwd,
          pid: p.pid,
          state: p.state,
          ...(p.exitCode !== undefined ? { exitCode: p.exitCode } : {}),
          startedAt: p.startedAt,
          lastLine: p.lastLine.slice(0, LAST_LINE_MAX_CHARS),
        });
      }
    }
    processes.sort((a, b) => a.startedAt - b.startedAt);
    return { servers, sessions, approvals, handoffs, processes, ...(this.operatorName ? { operator: this.operatorName } : {}) };
  }

  /** A session's timeline, oldest first. */
  timeline(sessionId: string): CommandInfo[] {
    return this.timelines.get(sessionId) ?? [];
  }

  dispose(): void {
    for (const e of this.servers.values()) e.dispose();
    for (const s of this.streams.values()) clearTimeout(s.timer);
    clearTimeout(this.hubTimer);
    clearTimeout(this.backgroundTimer);
    clearTimeout(this.figuresTimer);
    this.streams.clear();
    this.clients.clear();
  }

  private async request(client: ConsoleClient, subscribed: Set<string>, method: RequestName, params: unknown): Promise<unknown> {
    switch (method) {
      case 'hub:snapshot': {
        unwrap(parseParams(method, params));
        return this.snapshot() satisfies RequestResult<'hub:snapshot'>;
      }
      case 'session:subscribe': {
        const { sessionId } = unwrap(parseParams(method, params));
        const m = this.meta.get(sessionId);
        if (!m?.last) throw new RequestError(`session:subscribe: no session "${sessionId}"`);
        const stream = this.stream(sessionId);
        const server = this.servers.get(m.serverId);
        if (server?.server.openStream && server.state === 'connected' && !m.gone) {
          // Output nobody watched was left unacknowledged (the server stopped sending it): open
          // the stream again for the server's recent output (it resets the server's window).
          if (stream.opened && stream.owed > 0 && stream.subscribers.size === 0) {
            stream.opened = undefined;
            stream.owed = 0;
          }
          stream.opened ??= server.server.openStream(m.name).then((r) => {
            if (!r.ok) {
              stream.opened = undefined;
              throw new RequestError(`session:subscribe: ${r.error}`);
            }
            // The server's recent output, placed where it sits in its stream.
            const from = r.offset - r.backlog.length;
            if (r.backlog.length && stream.end <= from) {
              stream.chunks = [{ offset: from, data: r.backlog }];
              stream.start = from;
              stream.end = r.offset;
            } else if (stream.end < r.offset) this.output(sessionId, r.backlog.subarray(stream.end - from));
          });
          await stream.opened;
        }
        const backlog = Buffer.concat(stream.chunks.map((c) => c.data));
        stream.subscribers.set(client, { sent: stream.end, acked: stream.end, paused: false, tokens: this.rate.burst, refilledAt: Date.now(), skipped: 0 });
        subscribed.add(sessionId);
        this.settle(m.serverId, m.name, stream);
        return { backlog: backlog.toString('base64'), offset: stream.end } satisfies RequestResult<'session:subscribe'>;
      }
      case 'session:unsubscribe': {
        const { sessionId } = unwrap(parseParams(method, params));
        this.streams.get(sessionId)?.subscribers.delete(client);
        subscribed.delete(sessionId);
        return {} satisfies RequestResult<'session:unsubscribe'>;
      }
      case 'session:ack': {
        const { sessionId, offset } = unwrap(parseParams(method, params));
        const stream = this.streams.get(sessionId);
        const sub = stream?.subscribers.get(client);
        if (stream && sub) {
          sub.acked = Math.min(Math.max(sub.acked, offset), sub.sent);
          if (sub.paused && sub.sent - sub.acked <= FLOW_LOW_WATERMARK) {
            sub.paused = false;
            this.schedule(sessionId, stream);
          }
        }
        return {} satisfies RequestResult<'session:ack'>;
      }
      case 'session:commands': {
        const { sessionId } = unwrap(parseParams(method, params));
        return { commands: this.timeline(sessionId) } satisfies RequestResult<'session:commands'>;
      }
      case 'command:raw': {
        const { sessionId, commandId } = unwrap(parseParams(method, params));
        // A background process started outside any session is named by its server alone (`<serverId>/`).
        const serverId = this.meta.get(sessionId)?.serverId ?? sessionId.slice(0, sessionId.lastIndexOf('/'));
        const proc = this.servers.get(serverId)?.server.process?.(commandId);
        if (!proc) throw new RequestError(`command:raw: the raw output of ${commandId} is not available (its server is gone or no longer keeps it)`);
        const total = proc.entry().rawLines;
        const fromLine = Math.max(1, total - RAW_PANE_MAX_LINES + 1);
        const r = proc.read({ fromLine });
        const first = r.lines[0]?.n ?? fromLine;
        return {
          text: r.lines.map((l) => l.text).join('\n'),
          firstLine: Math.max(1, first),
          totalLines: r.totalLines,
          truncated: first > 1 || r.droppedLines !== 0,
        } satisfies RequestResult<'command:raw'>;
      }
      case 'approval:decide': {
        const p = unwrap(parseParams(method, params));
        const op = this.operatorOf(p.serverId, method);
        if (p.decision === 'edit' && !p.command?.trim()) throw new RequestError('approval:decide: edit needs the command to run instead');
        const r = await op.decide(p.id, p.decision, p.command);
        if (!r.ok) throw new RequestError(`approval:decide: ${r.error}`);
        this.hubChanged();
        return {} satisfies RequestResult<'approval:decide'>;
      }
      case 'handoff:take': {
        const p = unwrap(parseParams(method, params));
        const m = this.meta.get(p.sessionId);
        if (!m) throw new RequestError(`handoff:take: no session ${p.sessionId}`);
        const op = this.operatorOf(m.serverId, method);
        const r = await op.take(p.handoffId ? { handoffId: p.handoffId } : { session: m.name });
        if (!r.ok) throw new RequestError(`handoff:take: ${r.error}`);
        this.hubChanged();
        return { handoffId: r.handoff.id, serverId: m.serverId, why: r.handoff.why, prompt: r.handoff.prompt } satisfies RequestResult<'handoff:take'>;
      }
      case 'handoff:input': {
        // Deliberately no logging or keeping of `data` here: it may be a password.
        const p = unwrap(parseParams(method, params));
        this.operatorOf(p.serverId, method).input(p.handoffId, p.data);
        return {} satisfies RequestResult<'handoff:input'>;
      }
      case 'handoff:return': {
        const p = unwrap(parseParams(method, params));
        const r = await this.operatorOf(p.serverId, method).giveBack(p.handoffId);
        if (!r.ok) throw new RequestError(`handoff:return: ${r.error}`);
        this.hubChanged();
        return { summary: r.summary } satisfies RequestResult<'handoff:return'>;
      }
      case 'audit:read': {
        unwrap(parseParams(method, params));
        return this.audit() satisfies RequestResult<'audit:read'>;
      }
      default:
        throw new RequestError(`unknown request "${String(method)}"`);
    }
  }

  private operatorOf(serverId: string, method: string): HubOperator {
    const e = this.servers.get(serverId);
    if (!e || e.state !== 'connected') throw new RequestError(`${method}: server ${serverId} is gone`);
    if (!e.server.operator) throw new RequestError(`${method}: server ${serverId} takes no operator actions here`);
    return e.server.operator;
  }

  private sessionMeta(serverId: string, name: string): SessionMeta {
    const key = sessionKey(serverId, name);
    let m = this.meta.get(key);
    if (!m) this.meta.set(key, (m = { serverId, name }));
    return m;
  }

  private stream(sessionId: string): SessionStream {
    let s = this.streams.get(sessionId);
    if (!s) this.streams.set(sessionId, (s = { chunks: [], start: 0, end: 0, subscribers: new Map(), owed: 0 }));
    return s;
  }

  private onEvent(serverId: string, event: HubEvent): void {
    switch (event.type) {
      case 'stream-output': {
        const key = sessionKey(serverId, event.session);
        const s = this.stream(key);
        let chunk = Buffer.from(event.chunk);
        let offset = event.offset;
        s.owed += chunk.length;
        // Acknowledged once a view keeps up (flush), or at once when one does already.
        if (!s.timer) this.settle(serverId, event.session, s);
        if (offset + chunk.length <= s.end) return; // already have it (backlog overlap)
        if (offset < s.end) {
          chunk = chunk.subarray(s.end - offset);
          offset = s.end;
        }
        // A gap (the server skipped output for us): restart the ring there; views skip ahead.
        if (offset > s.end) {
          s.chunks = [];
          s.start = s.end = offset;
        }
        // Figures of such a server's commands come with their end (the hub sees output only while watched).
        this.output(key, chunk);
        return;
      }
      case 'sessions-changed': {
        // The server tracks waiting itself: a session no longer waiting was answered.
        for (const s of safeList(this.servers.get(serverId)!.server)) {
          const key = sessionKey(serverId, s.name);
          const m = this.sessionMeta(serverId, s.name);
          m.last = s;
          if (m.waiting && s.state !== 'waiting') {
            m.waiting = undefined;
            const c = m.commandId ? this.commands.get(`${key}#${m.commandId}`) : undefined;
            if (c && c.state === 'waiting') this.updateCommand(c, { state: 'running' });
          }
        }
        this.hubChanged();
        return;
      }
      case 'command-done':
        this.commandDone(serverId, event);
        return;
      case 'process':
        if (event.entry.kind === 'spawn') this.backgroundChanged(event.change === 'updated' && event.entry.state === 'running');
        return;
      case 'background-changed':
        this.backgroundChanged(event.onlyOutput);
        return;
      case 'raw': {
        // Only a session's own commands are its terminal; a background process (sh_spawn) has a
        // PTY of its own even when it was started "in" a session, and must not interleave here.
        if (event.source.kind !== 'command' || !event.source.session) return;
        const key = sessionKey(serverId, event.source.session);
        this.output(key, event.chunk);
        const c = this.commands.get(`${key}#${event.source.id}`);
        if (c) this.grow(c, event.chunk);
        const m = this.meta.get(key);
        // Output after a prompt: answered, unless the process still reads its terminal.
        if (m?.waiting && this.servers.get(serverId)?.server.process?.(event.source.id)?.entry().state !== 'waiting-for-input') {
          m.waiting = undefined;
          if (c && c.state === 'waiting') this.updateCommand(c, { state: 'running' });
          this.hubChanged();
        }
        return;
      }
      case 'command-start': {
        const key = sessionKey(serverId, event.session);
        this.flushIfAny(key);
        const m = this.sessionMeta(serverId, event.session);
        Object.assign(m, { commandId: event.id, command: event.command, commandStartedAt: event.at, waiting: undefined });
        const c: CommandInfo = { id: event.id, sessionId: key, command: event.command, startedAt: event.at, state: 'running', rawBytes: 0, rawLines: 0 };
        this.commands.set(`${key}#${event.id}`, c);
        const list = this.timelines.get(key) ?? [];
        list.push(c);
        while (list.length > TIMELINE_MAX) this.commands.delete(`${key}#${list.shift()!.id}`);
        this.timelines.set(key, list);
        this.commandChanged(c);
        this.hubChanged();
        return;
      }
      case 'command-end':
        this.commandDone(serverId, { session: event.session, id: event.id, exitCode: event.exitCode, durationMs: event.durationMs });
        return;
      case 'condensed': {
        if (event.source.kind !== 'command' || !event.source.session) return;
        const c = this.commands.get(`${sessionKey(serverId, event.source.session)}#${event.source.id}`);
        if (!c) return;
        const ext = event;
        if (ext.reply) {
          // The tool's reply as sent; a final one (the command's complete reply) is not superseded.
          this.updateCommand(c, { agentSaw: event.lines.join('\n'), exact: !!event.final, ...(ext.category ? { category: ext.category } : {}), ...(ext.asked !== undefined && ext.asked !== c.command ? { asked: ext.asked } : {}) });
        } else if (!c.exact) {
          const text = event.final ? event.lines.join('\n') : [c.agentSaw, ...event.lines].filter((x) => x !== undefined).join('\n');
          this.updateCommand(c, { agentSaw: text, ...(ext.category ? { category: ext.category } : {}) });
        }
        return;
      }
      case 'waiting-for-input': {
        if (event.source.kind !== 'command' || !event.source.session) return;
        const key = sessionKey(serverId, event.source.session);
        const m = this.sessionMeta(serverId, event.source.session);
        m.waiting = { prompt: event.waiting.prompt, secret: event.waiting.secret, since: event.waiting.since };
        const c = this.commands.get(`${key}#${event.source.id}`);
        if (c && c.state !== 'done') this.updateCommand(c, { state: 'waiting' });
        this.hubChanged();
        return;
      }
      case 'session-created':
        this.sessionMeta(serverId, event.session.name).last = event.session;
        this.hubChanged();
        return;
      case 'session-closed': {
        const key = sessionKey(serverId, event.session);
        const s = this.streams.get(key);
        if (s) {
          this.flush(key, s);
          // A restarted shell under the same name is a new terminal with offsets from zero;
          // views see the new pid in `hub:changed` and subscribe again.
          clearTimeout(s.timer);
          this.streams.delete(key);
        }
        this.hubChanged();
        return;
      }
      default:
        return;
    }
  }

  private commandDone(serverId: string, e: { session: string; id: string; exitCode?: number; durationMs: number; rawLines?: number; rawBytes?: number }): void {
    const key = sessionKey(serverId, e.session);
    // Output first, then the end: a view must never see "exit 0" before the last bytes.
    this.flushIfAny(key);
    const m = this.sessionMeta(serverId, e.session);
    if (m.commandId === e.id) m.commandId = m.command = m.commandStartedAt = m.waiting = undefined;
    const c = this.commands.get(`${key}#${e.id}`);
    if (c) {
      this.updateCommand(c, {
        state: 'done',
        ...(e.exitCode !== undefined ? { exitCode: e.exitCode } : {}),
        durationMs: e.durationMs,
        ...(e.rawLines !== undefined ? { rawLines: e.rawLines } : {}),
        ...(e.rawBytes !== undefined ? { rawBytes: e.rawBytes } : {}),
        ...spoolIdOf(this.servers.get(serverId)?.server, e.id),
      });
      void this.countRawTokens(serverId, c);
    }
    this.hubChanged();
  }

  /** A running command's output grew: count it, and tell views (throttled). */
  private grow(c: CommandInfo, chunk: Uint8Array): void {
    c.rawBytes += chunk.length;
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (let i = buf.indexOf(0x0a); i !== -1; i = buf.indexOf(0x0a, i + 1)) c.rawLines++;
    this.grown.add(c);
    this.figuresTimer ??= setTimeout(() => {
      this.figuresTimer = undefined;
      for (const g of this.grown) if (g.state !== 'done') this.commandChanged(g);
      this.grown.clear();
    }, LIVE_FIGURES_MS);
  }

  private updateCommand(c: CommandInfo, patch: Partial<CommandInfo>): void {
    Object.assign(c, patch);
    if (patch.agentSaw !== undefined) c.tokensShown = countTokensSync(patch.agentSaw);
    if (patch.agentSaw !== undefined) c.shownLines = patch.agentSaw === '' ? 0 : patch.agentSaw.split('\n').length;
    this.commandChanged(c);
  }

  /** Sends the command's state with the next view tick (once, however often it changed meanwhile). */
  private commandChanged(c: CommandInfo): void {
    this.changedCommands.add(c);
    this.scheduleTick();
  }

  /** Tokens of the raw output, ANSI stripped, from the spool; estimated above TOKENIZE_MAX_BYTES. */
  private async countRawTokens(serverId: string, c: CommandInfo): Promise<void> {
    // Nothing printed (`true`, `cd`, `mkdir`): nothing to read from the spool (agents run many of these).
    if (c.rawBytes === 0) {
      this.updateCommand(c, { tokensRaw: 0 });
      return;
    }
    if (c.rawBytes > TOKENIZE_MAX_BYTES) {
      this.updateCommand(c, { tokensRaw: Math.round(c.rawBytes / BYTES_PER_TOKEN_ESTIMATE), tokensApprox: true });
      return;
    }
    await tokenizerReady;
    // Another process's spool is complete a moment after its command ends (its index is written on close).
    for (let attempt = 0, delay = SPOOL_RETRY_MS; attempt < SPOOL_RETRIES; attempt++, delay *= 2) {
      const proc = this.servers.get(serverId)?.server.process?.(c.id);
      if (!proc) return;
      try {
        const text = stripAnsi(proc.read().lines.map((l) => l.text).join('\n'));
        this.updateCommand(c, { tokensRaw: countTokensSync(text) ?? 0 });
        return;
      } catch {
        await new Promise((r) => setTimeout(r, delay));
      }
    }
    // spool gone (pruned) or unreadable: no figure rather than a wrong one
  }

  private output(sessionId: string, chunk: Uint8Array): void {
    const s = this.stream(sessionId);
    const data = Buffer.from(chunk); // copy: the producer may reuse its buffer
    s.chunks.push({ offset: s.end, data });
    s.end += data.length;
    while (s.chunks.length > 1 && s.end - s.chunks[1].offset >= BACKLOG_BYTES) s.chunks.shift();
    s.start = s.chunks[0].offset;
    if (s.subscribers.size) this.schedule(sessionId, s);
  }

  private schedule(sessionId: string, s: SessionStream): void {
    s.timer ??= setTimeout(() => this.flush(sessionId, s), BATCH_INTERVAL_MS);
  }

  private flushIfAny(sessionId: string): void {
    const s = this.streams.get(sessionId);
    if (s) this.flush(sessionId, s);
  }

  /**
   * Sends each subscriber what it has not had yet, within its flow-control window and its rate:
   * output faster than a view is drawn skips to the newest (the skip is reported to the view).
   */
  private flush(sessionId: string, s: SessionStream): void {
    clearTimeout(s.timer);
    s.timer = undefined;
    const now = Date.now();
    let more = false;
    let wakeIn: number | undefined;
    for (const [client, sub] of s.subscribers) {
      if (sub.paused) continue;
      sub.tokens = Math.min(this.rate.burst, sub.tokens + ((now - sub.refilledAt) * this.rate.bytesPerSecond) / 1000);
      sub.refilledAt = now;
      if (sub.sent < s.start) {
        // The view fell further behind than the backlog reaches: skip ahead, and say how much.
        sub.skipped += s.start - sub.sent;
        // Whatever was in flight counts as written: the view's later acks for it fall below this.
        sub.sent = sub.acked = s.start;
      }
      const budget = Math.floor(sub.tokens);
      sub.flooding = s.end - sub.sent > budget;
      if (sub.flooding) {
        // Faster than a view is drawn: wait for a piece's worth of budget, then send the newest.
        if (budget < this.rate.piece) {
          const ms = Math.ceil(((this.rate.piece - sub.tokens) * 1000) / this.rate.bytesPerSecond);
          wakeIn = Math.min(wakeIn ?? ms, ms);
          continue;
        }
        // Only the newest bytes are drawn (the rest of the budget would be lines scrolled past
        // in the same frame), and the whole budget is spent: a flood is one look per piece of rate.
        const shown = Math.min(this.rate.shown ?? this.rate.piece, this.rate.piece);
        sub.skipped += s.end - shown - sub.sent;
        sub.sent = sub.acked = s.end - shown;
        sub.tokens -= budget - shown;
        // Come back when the next look is due even if nothing new arrives: then the view is
        // level with the stream and the server's output is acknowledged again (see `flooding`).
        const again = Math.ceil((this.rate.piece * 1000) / this.rate.bytesPerSecond);
        wakeIn = Math.min(wakeIn ?? again, again);
      }
      while (sub.sent < s.end) {
        const window = FLOW_HIGH_WATERMARK - (sub.sent - sub.acked);
        if (window <= 0) {
          sub.paused = true;
          break;
        }
        const n = Math.min(s.end - sub.sent, window, BATCH_MAX_BYTES);
        const data = slice(s, sub.sent, sub.sent + n);
        client.send('session:output', { sessionId, data: data.toString('base64'), offset: sub.sent, ...(sub.skipped ? { skipped: sub.skipped } : {}) });
        sub.skipped = 0;
        sub.sent += n;
        sub.tokens -= n;
      }
      if (!sub.paused && sub.sent < s.end) more = true;
    }
    if (more) this.schedule(sessionId, s);
    else if (wakeIn !== undefined) s.timer = setTimeout(() => this.flush(sessionId, s), wakeIn);
    const m = this.meta.get(sessionId);
    if (m) this.settle(m.serverId, m.name, s);
  }

  /** On-demand servers: acknowledges the output received while a view keeps up with it. */
  private settle(serverId: string, session: string, s: SessionStream): void {
    if (s.owed === 0) return;
    let keepsUp = false;
    for (const sub of s.subscribers.values()) if (!sub.paused && !sub.flooding && sub.sent >= s.end) keepsUp = true;
    if (!keepsUp) return;
    const server = this.servers.get(serverId);
    if (server?.state === 'connected') server.server.consumed?.(session, s.owed);
    s.owed = 0;
  }

  private toContractSession(key: string, m: SessionMeta): SessionInfo {
    const s = m.last!;
    const serverGone = this.servers.get(m.serverId)?.state !== 'connected';
    const state: SessionInfo['state'] =
      m.gone || serverGone
        ? 'gone'
        : s.state === 'needs-approval' || s.state === 'handed-off'
          ? s.state
          : m.waiting || s.state === 'waiting'
            ? 'waiting'
            : s.state === 'busy'
              ? 'running'
              : s.state === 'closed'
                ? 'exited'
                : s.state;
    return {
      id: key,
      serverId: m.serverId,
      name: s.name,
      shell: s.shell,
      cwd: s.cwd,
      state,
      pid: s.pid,
      ...(m.command && state !== 'gone' ? { command: m.command, commandId: m.commandId, commandStartedAt: m.commandStartedAt } : {}),
      ...(s.lastExitCode !== undefined ? { lastExitCode: s.lastExitCode } : {}),
      ...(m.waiting && state === 'waiting' ? { waiting: m.waiting } : {}),
      cols: s.cols ?? DEFAULT_COLS,
      rows: s.rows ?? DEFAULT_ROWS,
    };
  }

  /** Coalesces bursts of changes (commands starting and ending) into one message per view tick. */
  private hubChanged(): void {
    this.hubDirty = true;
    this.scheduleTick();
  }

  /**
   * A background process started, changed state or was forgotten: the list shows it at the next
   * tick. One that only printed (its last line) is shown again at most once a second, with the
   * live figures: a chatty dev server must not re-render the page five times a second.
   */
  private backgroundChanged(onlyOutput: boolean): void {
    if (!onlyOutput) return this.hubChanged();
    if (this.backgroundTimer) return;
    this.backgroundTimer = setTimeout(() => {
      this.backgroundTimer = undefined;
      this.hubChanged();
    }, LIVE_FIGURES_MS);
    this.backgroundTimer.unref?.();
  }

  private scheduleTick(): void {
    this.hubTimer ??= setTimeout(() => {
      this.hubTimer = undefined;
      if (this.hubDirty) this.broadcast('hub:changed', this.snapshot());
      this.hubDirty = false;
      for (const c of this.changedCommands) this.broadcast('command:updated', { ...c });
      this.changedCommands.clear();
    }, VIEW_TICK_MS);
  }

  private broadcast<E extends EventName>(event: E, payload: EventPayload<E>): void {
    for (const c of this.clients) c.send(event, payload);
  }
}

class RequestError extends Error {}

function unwrap<T>(r: { ok: true; value: T } | { ok: false; error: string }): T {
  if (!r.ok) throw new RequestError(r.error);
  return r.value;
}

/** What a server lists; nothing from one that cannot say (a server going away mid-call). */
function safely<T>(list: () => T[] | undefined): T[] {
  try {
    return list() ?? [];
  } catch {
    return [];
  }
}

const safeList = (server: HubServer): HubSession[] => safely(() => server.list());
const safeProcesses = (server: HubServer): HubBackgroundProcess[] => safely(() => server.processes?.());

/** Bytes [from, to) of the ring (both within it). */
function slice(s: SessionStream, from: number, to: number): Buffer {
  const parts: Buffer[] = [];
  for (const c of s.chunks) {
    const cEnd = c.offset + c.data.length;
    if (cEnd <= from) continue;
    if (c.offset >= to) break;
    parts.push(c.data.subarray(Math.max(0, from - c.offset), Math.min(c.data.length, to - c.offset)));
  }
  return parts.length === 1 ? parts[0] : Buffer.concat(parts);
}

// o200k (the GPT-4o / Claude-scale vocabulary the benchmarks use), loaded once, lazily.
let countTokensImpl: ((text: string) => number) | undefined;
const tokenizerReady: Promise<void> = import('gpt-tokenizer/encoding/o200k_base').then(
  (m) => void (countTokensImpl = (t: string) => m.countTokens(t)),
  () => undefined,
);

function countTokensSync(text: string): number | undefined {
  return countTokensImpl?.(text);
}

/** The spool id of a command (`mish raw <id>`), for the grammar editor's "preview against this output". */
function spoolIdOf(server: HubServer | undefined, commandId: string): { spoolId?: string } {
  try {
    const ref = server?.process?.(commandId)?.entry().spoolRef;
    const id = ref?.replace(/^mish raw /, '');
    return id && /^[0-9a-z]+$/.test(id) ? { spoolId: id } : {};
  } catch {
    return {};
  }
}

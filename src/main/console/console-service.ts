/**
 * The console's hub: it watches any number of servers (the console's own engine, every
 * `mish serve` an agent started, those reached over SSH), keeps what a view needs of them
 * (servers, sessions with their states), and answers each connected view's requests through
 * the contract (src/shared/contract.ts).
 *
 * Its parts, each in its own module, imported one way (hub → parts → hub-types):
 * - hub-types.ts: what a server and a view are to the hub;
 * - output-streams.ts: each session's output ring and flow control per view;
 * - command-timeline.ts: each session's commands with their figures;
 * - decisions.ts: approvals (one or in bulk) and handoffs relayed to servers;
 * - hub-snapshot.ts: how servers' records look to a view;
 * - agent-conversations.ts: hooked runs of one agent conversation shown as one server.
 *
 * The Electron host (IPC) and the web host (WebSocket) both wrap one ConsoleService; neither
 * holds logic of its own.
 */
import { parseParams, type EventName, type EventPayload, type RequestName, type RequestResult, type ServerInfo, type SessionInfo, type CommandInfo, type PendingApproval, type HandoffInfo, type BackgroundProcess, type HostLink } from '../../shared/contract.js';
import type { GrammarRequestName, GrammarService } from './grammar-service.js';
import { readAuditLines, type AuditReader } from './audit-view.js';
import type { ConsoleClient, ConsoleConnection, HubBackgroundProcess, HubEvent, HubOperator, HubServer, HubSession } from './hub-types.js';
import { DEFAULT_VIEW_RATE, OutputStreams, type SessionStream, type ViewRate } from './output-streams.js';
import { CommandTimelines, LIVE_FIGURES_MS } from './command-timeline.js';
import { decideApproval, decideApprovals, handoffInput, returnHandoff, takeHandoff, type DecisionsHub } from './decisions.js';
import { sessionKey, sessionState, toBackgroundProcess, toHandoffInfo, toPendingApproval } from './hub-snapshot.js';
import { RequestError, unwrap } from './request-error.js';
import { AgentConversations } from './agent-conversations.js';
import { approvalMark, ApprovalMatcher } from './approval-rows.js';
import { ranAfterApproval } from '../../shared/operator-wire.js';
import type { HookConversationHistory } from '../core/audit/hook-history.js';

/**
 * Hub changes and command updates go to views at most this often, each command once with its
 * latest state: an agent running commands back to back (a `sh_run` every few ms) costs a view
 * one message per command per tick, not one per event, and at most five renders a second
 * (measured: Chromium spent ~15 ms of CPU per `sh_run true` when each event was a message and
 * each burst a render; ~5 ms with this). Terminal output keeps its own, faster batching.
 */
const VIEW_TICK_MS = 200;
/** The raw pane shows at most this many last lines of a command (the spool keeps all; `mish raw` reads them). */
const RAW_PANE_MAX_LINES = 5000;
/** Default PTY size when a server does not say (the engine's PTYs default to 120×30). */
const DEFAULT_COLS = 120;
const DEFAULT_ROWS = 30;

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
  /** An ended conversation the operator dismissed: not listed until a new run comes. */
  dismissed?: boolean;
}

export class ConsoleService {
  private readonly servers = new Map<string, ServerEntry>();
  private readonly meta = new Map<string, SessionMeta>();
  private readonly streams: OutputStreams;
  private readonly commands: CommandTimelines;
  private readonly clients = new Set<ConsoleClient>();
  /** Remote machines' links, by ssh destination (ssh-link.ts reports them). */
  private readonly hosts = new Map<string, HostLink>();
  private hubTimer?: NodeJS.Timeout;
  /** The hub changed since views last heard (sent with the next tick). */
  private hubDirty = false;
  private backgroundTimer: NodeJS.Timeout | undefined;
  /** Commands changed since views last heard (sent with the next tick, latest state). */
  private readonly changedCommands = new Set<CommandInfo>();

  /** Answers the grammar editor's `grammar:*` requests (grammar-service.ts). */
  private readonly grammar?: GrammarService;

  /** The audit log the viewer reads (issue 12.4). */
  private readonly audit: AuditReader;

  /** Hooked runs (each a short-lived server) gathered per agent conversation: one server each here. */
  private readonly conversations: AgentConversations;

  /** Approved commands waiting for their start, to carry the approval on their row. */
  private readonly approved = new ApprovalMatcher();

  /** The name servers record as who decided (the wire's hello). */
  private readonly operatorName?: string;

  /** What decisions.ts needs of the hub. */
  private readonly decisions: DecisionsHub = {
    operatorOf: (serverId, method) => this.operatorOf(serverId, method),
    session: (sessionId) => this.meta.get(sessionId),
    changed: () => this.hubChanged(),
  };

  constructor(servers: HubServer[] = [], options: { grammar?: GrammarService; auditLog?: string; operatorName?: string; viewRate?: ViewRate; conversationIdleMs?: number } = {}) {
    this.conversations = new AgentConversations((c) => this.addServer(c), options.conversationIdleMs);
    this.streams = new OutputStreams(options.viewRate ?? DEFAULT_VIEW_RATE, (sessionId, s) => {
      const m = this.meta.get(sessionId);
      if (m) this.settle(m.serverId, m.name, s);
    });
    this.commands = new CommandTimelines((c) => this.commandChanged(c));
    this.grammar = options.grammar;
    this.operatorName = options.operatorName;
    this.audit = readAuditLines(options.auditLog);
    for (const s of servers) this.addServer(s);
  }

  /** Starts watching a server (a new `mish serve`, or the console's engine). */
  addServer(server: HubServer): void {
    // A hooked run joins its agent conversation (added here as a server on its first run).
    if (this.conversations.join(server)) return;
    this.servers.get(server.id)?.dispose();
    const unsubscribe = server.subscribe((event) => this.onEvent(server.id, event));
    const offInfo = server.onInfoChanged?.(() => {
      const e = this.servers.get(server.id);
      if (e && e.state === 'connected') e.info = server.info();
      // A dismissed conversation that has a new run is shown again, with all its rows.
      if (e?.dismissed && !e.info.conversation?.ended) e.dismissed = false;
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
    for (const s of server.list()) {
      const m = this.sessionMeta(server.id, s.name);
      m.last = s;
      m.gone = false;
    }
    this.hubChanged();
  }

  /**
   * Hooked runs and hook refusals read back from the audit log (hook-history.ts): from before this
   * console started, or (`consoleOpen`) appended while it runs — a refusal the hook made on its
   * own, which never reaches the wire. Each conversation is shown as it would have been had the
   * console watched (its agent entry, session and rows, in time order), each new row marked as
   * read from the log. A row the hub has already (a run seen live) stays as it is.
   */
  addHookHistory(histories: HookConversationHistory[], processes: (spoolRef: string) => ReturnType<NonNullable<HubServer['process']>>, options: { consoleOpen?: boolean } = {}): void {
    for (const h of histories) {
      if (!h.entries.length) continue;
      const known = new Set<string>();
      for (const [key, m] of this.meta) if (m.name === h.session) for (const c of this.commands.timeline(key)) known.add(c.id);
      const conv = this.conversations.addHistory(h, processes);
      const key = sessionKey(conv.id, h.session);
      for (const e of h.entries) {
        const c = this.commands.get(key, e.id);
        if (!c || known.has(e.id)) continue;
        this.commands.update(c, {
          audit: { seq: e.seq, ...(options.consoleOpen ? { consoleOpen: true } : {}) },
          // Its output is not in the conversation's terminal (it ran before the console read it): no mark there.
          outputOffset: undefined,
          ...(e.kind === 'run' && e.category && !c.category ? { category: e.category } : {}),
          ...(e.kind === 'run' && e.approval && !c.approval ? { approval: { ...e.approval, outcome: 'approved' as const, tool: 'sh_run' } } : {}),
        });
      }
    }
  }

  /** The server went away: its sessions stay listed, marked gone; running commands end without an exit code. */
  serverGone(serverId: string): void {
    // A hooked run that finished: its conversation stays, with the run's records.
    if (this.conversations.leave(serverId)) return;
    const e = this.servers.get(serverId);
    if (!e || e.state === 'gone') return;
    for (const s of safeList(e.server)) this.sessionMeta(serverId, s.name).last = s;
    e.dispose();
    e.state = 'gone';
    for (const [key, m] of this.meta) {
      if (m.serverId !== serverId) continue;
      m.gone = true;
      m.waiting = undefined;
      this.streams.flushIfAny(key);
      const running = this.commands.get(key, m.commandId);
      if (running && running.state !== 'done') this.commands.update(running, { state: 'done' });
      m.commandId = m.command = m.commandStartedAt = undefined;
    }
    this.hubChanged();
  }

  /** A remote machine's link changed (connecting, up, reconnecting): views show it on the host's group. */
  setHost(link: HostLink): void {
    this.hosts.set(link.host, link);
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
        for (const id of subscribed) this.streams.unsubscribe(id, client);
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
    const processes: BackgroundProcess[] = [];
    const listed = new Map<string, Set<string>>();
    const hidden = new Set<string>();
    for (const [id, e] of this.servers) {
      if (e.dismissed) {
        hidden.add(id);
        continue;
      }
      servers.push({ ...e.info, id, state: e.state });
      if (e.state !== 'connected') continue;
      const live = safeList(e.server);
      listed.set(id, new Set(live.map((s) => s.name)));
      for (const s of live) this.sessionMeta(id, s.name).last = s;
      for (const p of safeProcesses(e.server)) if (p.kind === 'spawn') processes.push(toBackgroundProcess(id, p));
      if (!e.server.operator) continue;
      for (const a of e.server.operator.approvals()) approvals.push(toPendingApproval(id, a));
      for (const h of e.server.operator.handoffs()) handoffs.push(toHandoffInfo(id, h));
    }
    for (const [key, m] of this.meta) {
      if (!m.last || hidden.has(m.serverId)) continue;
      const live = !m.gone && this.servers.get(m.serverId)?.state === 'connected';
      // A session closed on a live server is no longer listed by it: drop it.
      if (live && !listed.get(m.serverId)?.has(m.name)) continue;
      sessions.push(this.toContractSession(key, m, !live));
    }
    approvals.sort((a, b) => a.createdAt - b.createdAt);
    handoffs.sort((a, b) => a.createdAt - b.createdAt);
    processes.sort((a, b) => a.startedAt - b.startedAt);
    return {
      servers,
      sessions,
      approvals,
      handoffs,
      processes,
      ...(this.operatorName ? { operator: this.operatorName } : {}),
      ...(this.hosts.size ? { hosts: [...this.hosts.values()] } : {}),
    };
  }

  /** A session's timeline, oldest first. */
  timeline(sessionId: string): CommandInfo[] {
    return this.commands.timeline(sessionId);
  }

  dispose(): void {
    for (const e of this.servers.values()) e.dispose();
    this.conversations.dispose();
    this.streams.dispose();
    this.commands.dispose();
    clearTimeout(this.hubTimer);
    clearTimeout(this.backgroundTimer);
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
        const stream = this.streams.stream(sessionId);
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
            } else if (stream.end < r.offset) this.streams.output(sessionId, r.backlog.subarray(stream.end - from));
          });
          await stream.opened;
        }
        const { backlog, offset } = this.streams.subscribe(sessionId, client);
        subscribed.add(sessionId);
        this.settle(m.serverId, m.name, stream);
        return { backlog: backlog.toString('base64'), offset } satisfies RequestResult<'session:subscribe'>;
      }
      case 'session:unsubscribe': {
        const { sessionId } = unwrap(parseParams(method, params));
        this.streams.unsubscribe(sessionId, client);
        subscribed.delete(sessionId);
        return {} satisfies RequestResult<'session:unsubscribe'>;
      }
      case 'session:ack': {
        const { sessionId, offset } = unwrap(parseParams(method, params));
        this.streams.ack(sessionId, client, offset);
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
        const r = await proc.read({ fromLine });
        const first = r.lines[0]?.n ?? fromLine;
        return {
          text: r.lines.map((l) => l.text).join('\n'),
          firstLine: Math.max(1, first),
          totalLines: r.totalLines,
          truncated: first > 1 || r.droppedLines !== 0,
        } satisfies RequestResult<'command:raw'>;
      }
      case 'approval:decide':
        return decideApproval(this.decisions, unwrap(parseParams(method, params)));
      case 'approval:decide-many':
        return decideApprovals(this.decisions, unwrap(parseParams(method, params)));
      case 'handoff:take':
        return takeHandoff(this.decisions, unwrap(parseParams(method, params)));
      case 'handoff:input':
        return handoffInput(this.decisions, unwrap(parseParams(method, params)));
      case 'handoff:return':
        return returnHandoff(this.decisions, unwrap(parseParams(method, params)));
      case 'conversation:dismiss': {
        const { serverId } = unwrap(parseParams(method, params));
        const e = this.servers.get(serverId);
        if (!e?.info.conversation) throw new RequestError(`conversation:dismiss: ${serverId} is no hooked conversation`);
        if (!e.info.conversation.ended) throw new RequestError(`conversation:dismiss: ${serverId} has not ended (a run came within the last minutes)`);
        e.dismissed = true;
        this.hubChanged();
        return {} satisfies RequestResult<'conversation:dismiss'>;
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

  /** On-demand servers: acknowledges the output received while a view keeps up with it. */
  private settle(serverId: string, session: string, s: SessionStream): void {
    if (s.owed === 0 || !this.streams.keepsUp(s)) return;
    const server = this.servers.get(serverId);
    if (server?.state === 'connected') server.server.consumed?.(session, s.owed);
    s.owed = 0;
  }

  private onEvent(serverId: string, event: HubEvent): void {
    switch (event.type) {
      case 'stream-output': {
        const key = sessionKey(serverId, event.session);
        const s = this.streams.stream(key);
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
        this.streams.output(key, chunk);
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
            const c = m.commandId ? this.commands.get(key, m.commandId) : undefined;
            if (c && c.state === 'waiting') this.commands.update(c, { state: 'running' });
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
        this.streams.output(key, event.chunk);
        const c = this.commands.get(key, event.source.id);
        if (c) this.commands.grow(c, event.chunk);
        const m = this.meta.get(key);
        // Output after a prompt: answered, unless the process still reads its terminal.
        if (m?.waiting && this.servers.get(serverId)?.server.process?.(event.source.id)?.entry().state !== 'waiting-for-input') {
          m.waiting = undefined;
          if (c && c.state === 'waiting') this.commands.update(c, { state: 'running' });
          this.hubChanged();
        }
        return;
      }
      case 'command-start': {
        const key = sessionKey(serverId, event.session);
        this.streams.flushIfAny(key);
        const m = this.sessionMeta(serverId, event.session);
        Object.assign(m, { commandId: event.id, command: event.command, commandStartedAt: event.at, waiting: undefined });
        // Where its output starts in the terminal, when the hub reads that stream (the view marks it).
        const server = this.servers.get(serverId)?.server;
        const stream = this.streams.stream(key);
        const reading = !server?.openStream || server.streamsAlways || stream.opened !== undefined;
        const approval = this.approved.take(key, event.command, event.at);
        this.commands.start(key, event.id, event.command, event.at, { ...(reading ? { outputOffset: stream.end } : {}), ...(approval ? { approval } : {}) });
        this.hubChanged();
        return;
      }
      case 'command-end':
        this.commandDone(serverId, { session: event.session, id: event.id, exitCode: event.exitCode, durationMs: event.durationMs });
        return;
      case 'condensed': {
        if (event.source.kind !== 'command' || !event.source.session) return;
        const c = this.commands.get(sessionKey(serverId, event.source.session), event.source.id);
        if (!c) return;
        const ext = event;
        if (ext.reply) {
          // The tool's reply as sent; a final one (the command's complete reply) is not superseded.
          // mish ran another form of the agent's line (a structured view): an approval was of the line the agent sent.
          const approval = !c.approval && ext.asked !== undefined && ext.asked !== c.command ? this.approved.take(sessionKey(serverId, event.source.session), ext.asked, c.startedAt) : undefined;
          this.commands.update(c, {
            agentSaw: event.lines.join('\n'),
            exact: !!event.final,
            // A row that never ran (its id is the approval's) keeps its rule in the category column.
            ...(ext.category && !(c.approval && !ranAfterApproval(c.approval.outcome)) ? { category: ext.category } : {}),
            ...(ext.asked !== undefined && ext.asked !== c.command ? { asked: ext.asked } : {}),
            ...(approval ? { approval } : {}),
          });
        } else if (!c.exact) {
          const text = event.final ? event.lines.join('\n') : [c.agentSaw, ...event.lines].filter((x) => x !== undefined).join('\n');
          this.commands.update(c, { agentSaw: text, ...(ext.category ? { category: ext.category } : {}) });
        }
        return;
      }
      case 'command-offset': {
        // The server's own figure is exact; the hub's (set at the start) holds only while it read the stream.
        const c = this.commands.get(sessionKey(serverId, event.session), event.id);
        if (c && c.outputOffset !== event.offset) this.commands.update(c, { outputOffset: event.offset });
        return;
      }
      case 'approval-resolved': {
        const key = sessionKey(serverId, event.approval.session);
        const mark = approvalMark(event);
        if (!ranAfterApproval(event.outcome)) {
          // Never ran: the operator's record of it is a row of its own.
          this.commands.neverRan(key, event.approval.command, mark);
          return;
        }
        // A sh_spawn approved runs as a background process: no row of the session's to mark.
        if (event.approval.tool !== 'sh_run') return;
        const ran = event.outcome === 'edited' && event.command ? event.command : event.approval.command;
        // Its command may have started already (an in-process engine delivers the decision a tick late).
        const started = [...this.commands.timeline(key)].reverse().find((c) => !c.approval && c.startedAt >= event.approval.createdAt && c.command === ran);
        if (started) this.commands.update(started, { approval: mark });
        else this.approved.expect(key, ran, mark);
        return;
      }
      case 'waiting-for-input': {
        if (event.source.kind !== 'command' || !event.source.session) return;
        const key = sessionKey(serverId, event.source.session);
        const m = this.sessionMeta(serverId, event.source.session);
        m.waiting = { prompt: event.waiting.prompt, secret: event.waiting.secret, since: event.waiting.since };
        const c = this.commands.get(key, event.source.id);
        if (c && c.state !== 'done') this.commands.update(c, { state: 'waiting' });
        this.hubChanged();
        return;
      }
      case 'session-created':
        this.sessionMeta(serverId, event.session.name).last = event.session;
        this.hubChanged();
        return;
      case 'session-closed': {
        // A restarted shell under the same name is a new terminal with offsets from zero;
        // views see the new pid in `hub:changed` and subscribe again. Its earlier commands' offsets
        // were of the old terminal: forgotten, so no mark lands in the new one's output.
        const key = sessionKey(serverId, event.session);
        this.streams.close(key);
        for (const c of this.commands.timeline(key)) if (c.outputOffset !== undefined) this.commands.update(c, { outputOffset: undefined });
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
    this.streams.flushIfAny(key);
    const m = this.sessionMeta(serverId, e.session);
    if (m.commandId === e.id) m.commandId = m.command = m.commandStartedAt = m.waiting = undefined;
    const c = this.commands.get(key, e.id);
    if (c) {
      this.commands.update(c, {
        state: 'done',
        ...(e.exitCode !== undefined ? { exitCode: e.exitCode } : {}),
        durationMs: e.durationMs,
        ...(e.rawLines !== undefined ? { rawLines: e.rawLines } : {}),
        ...(e.rawBytes !== undefined ? { rawBytes: e.rawBytes } : {}),
        ...spoolIdOf(this.servers.get(serverId)?.server, e.id),
      });
      void this.commands.countRawTokens(c, () => this.servers.get(serverId)?.server.process?.(c.id));
    }
    this.hubChanged();
  }

  /** Sends the command's state with the next view tick (once, however often it changed meanwhile). */
  private commandChanged(c: CommandInfo): void {
    this.changedCommands.add(c);
    this.scheduleTick();
  }

  private toContractSession(key: string, m: SessionMeta, gone: boolean): SessionInfo {
    const s = m.last!;
    const state = sessionState(s, gone, !!m.waiting);
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

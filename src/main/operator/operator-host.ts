/**
 * The server half of the operator wire, apart from any socket: turns one `mish serve`'s engine
 * events into wire messages for each connected operator, holds the pending approvals and
 * handoffs, and answers operators' requests. The socket server (socket-server.ts) only frames
 * and validates; tests and the console can drive an OperatorHost through `connect()` directly.
 *
 * Never blocks the agent: output to operators is batched and flow-controlled per client (a slow
 * operator misses bytes, the PTY never waits), a pending approval times out to deny, and an
 * operator that goes away denies what only it could decide.
 */
import { randomBytes } from 'node:crypto';
import {
  OPERATOR_WIRE_VERSION,
  RECENT_COMMAND_MESSAGES,
  REFUSED_ESCALATIONS,
  type ApprovalOutcome,
  type EscalationRefused,
  type ApprovalRequest,
  type ClientMessage,
  type ClientMessageOf,
  type Handoff,
  type McpClientInfo,
  type OperatorProcess,
  type OperatorSession,
  type RecentCommandMessage,
  type ServerMessage,
  type ServerMessageOf,
  type StreamRef,
} from '../../shared/operator-wire.js';
import type { ProcessEntry, SessionEvent, SessionInfo } from '../core/session/types.js';
import { KnownSecrets } from '../core/redact/known-secrets.js';
import { SessionApprovals } from '../core/handlers/dangerous.js';
import { OutputFanout, streamKey, type Subscription } from './output-fanout.js';
import { toWireProcess, toWireSession } from './wire-shapes.js';
import {
  approvalTimeoutMs,
  type ApprovalInput,
  type ApprovalResult,
  type OperatorAuditEvent,
  type OperatorConnection,
  type OperatorHostOptions,
  type OperatorPeer,
} from './operator-host-types.js';

export * from './operator-host-types.js';

/**
 * While an operator is connected, a running background process that printed since is reported
 * again this often (its last line and figures): the process table itself reports state changes
 * only, and a console shows what a dev server or watcher last said.
 */
const PROCESS_REFRESH_MS = 1000;
/** Coalesce bursts of state changes (a command start + process update + …) into one sessions snapshot. */
const SNAPSHOT_DEBOUNCE_MS = 10;
/** Handoffs and approvals that ended are forgotten after this many (bounded memory). */
const MAX_ENDED_RECORDS = 200;

interface Client {
  peer: OperatorPeer;
  name: string;
  role: string;
  approvals: boolean;
  /** ms its pending approvals wait for an approver to come back after it leaves (hello's `linger`). */
  linger?: number;
  helloed: boolean;
  subs: Map<string, Subscription>;
}

interface PendingApproval {
  request: ApprovalRequest;
  resolve: (r: ApprovalResult) => void;
  timer: NodeJS.Timeout;
}

interface HandoffRecord {
  wire: Handoff;
  owner?: Client;
  /** The owner watched this stream already before attaching (a console): it keeps watching afterwards. */
  ownerWasWatching?: boolean;
  attachedAt?: number;
  endedAt?: number;
  /** Raw line count of the process when the handoff began / ended: lines after `startLine` are the operator's. */
  startLine: number;
  endLine?: number;
  /** What the operator typed, line by line, in memory only until it is added to the known secrets. */
  typedLine: string;
  typedLines: string[];
  typedBytes: number;
  /**
   * A secret prompt's answer was submitted (the operator pressed Return): output from then on is
   * the program's answer, the agent's again, even before the hand-back message arrives.
   */
  submitted?: boolean;
  /** The process's raw output (bytes) when the answer was submitted: none since means the program has not read it yet. */
  submittedAtBytes?: number;
  summary?: string;
}

const newId = (prefix: string) => `${prefix}_${randomBytes(6).toString('base64url')}`;

export class OperatorHost {
  /** Values typed at handoffs: masked in every reply to the agent. */
  readonly known = new KnownSecrets();
  private readonly clients = new Set<Client>();
  /** Output to operators: backlog, batching, flow control (output-fanout.ts). */
  private readonly fanout = new OutputFanout<Client>();
  private readonly approvals = new Map<string, PendingApproval>();
  /** Pending approvals wait for a lingering approver to come back until this fires (see Client.linger). */
  private lingerTimer?: NodeJS.Timeout;
  private readonly handoffs = new Map<string, HandoffRecord>();
  private readonly sessionApprovals = new Map<string, SessionApprovals>();
  /** Processes ever handed off: their summaries and withheld line ranges stay for later reads. */
  private readonly processHandoffs = new Map<string, HandoffRecord[]>();
  private readonly settledWaiters = new Map<string, (() => void)[]>();
  private readonly startedAt = Date.now();
  /** Recent command messages (starts, ends, the agent's exact replies), oldest first: a late client's timeline. */
  private readonly recent: RecentCommandMessage[] = [];
  /** Escalations refused with nobody to ask, oldest first (REFUSED_ESCALATIONS at most): a late console's record of them. */
  private readonly refused: EscalationRefused[] = [];
  private client?: McpClientInfo;
  private readonly unsubscribe: () => void;
  private snapshotTimer?: NodeJS.Timeout;
  private disposed = false;

  constructor(private readonly options: OperatorHostOptions) {
    this.unsubscribe = options.sessions.subscribe((e) => this.onEngineEvent(e));
    this.processTimer = setInterval(() => this.refreshProcesses(), PROCESS_REFRESH_MS);
    this.processTimer.unref?.();
  }

  /** Output bytes of each background process when last reported. */
  private readonly reportedBytes = new Map<string, number>();
  private readonly processTimer: NodeJS.Timeout;

  /** Reports the running background processes that printed since their last report (see PROCESS_REFRESH_MS). */
  private refreshProcesses(): void {
    if (this.disposed || this.clients.size === 0) return;
    for (const e of this.options.sessions.processes.list()) {
      if (e.kind !== 'spawn' || (e.state !== 'running' && e.state !== 'waiting-for-input')) continue;
      if (this.reportedBytes.get(e.id) === e.rawBytes) continue;
      this.reportedBytes.set(e.id, e.rawBytes);
      this.broadcast({ type: 'process', change: 'updated', process: this.wireProcess(e) });
    }
  }

  /** `text` as the agent saw it: masked (the console's "agent saw" pane); raw output is the operator's and stays exact. */
  maskForAgent(text: string): string {
    return this.options.maskForAgent ? this.options.maskForAgent(text) : this.known.mask(text);
  }

  /** A process as the wire reports it; its last line masked like all output an operator is sent. */
  private wireProcess(e: ProcessEntry): OperatorProcess {
    return { ...toWireProcess(e), lastLine: this.known.mask(e.lastLine) };
  }

  // -------------------------------------------------------------------------------------------
  // Server facts

  /** The agent's MCP client (name and version), once it has said hello. */
  get mcpClient(): McpClientInfo | undefined {
    return this.client;
  }

  setMcpClient(info: McpClientInfo | undefined): void {
    this.client = info;
    this.broadcast({ type: 'server', client: info });
  }

  /** True while at least one connected operator decides approvals. */
  hasApprover(): boolean {
    for (const c of this.clients) if (c.helloed && c.approvals) return true;
    return false;
  }

  /** True while a console (an operator of role `console`) is connected. */
  hasConsole(): boolean {
    for (const c of this.clients) if (c.helloed && c.role === 'console') return true;
    return false;
  }

  /** Some connected operator receives this stream's output. */
  isWatched(ref: StreamRef): boolean {
    return this.fanout.watched(ref);
  }

  /** `always` approvals of a session, in memory only (seed 003). */
  approvalsFor(session: string): SessionApprovals {
    let a = this.sessionApprovals.get(session);
    if (!a) this.sessionApprovals.set(session, (a = new SessionApprovals()));
    return a;
  }

  // -------------------------------------------------------------------------------------------
  // Connections

  connect(peer: OperatorPeer): OperatorConnection {
    const client: Client = { peer, name: 'operator', role: 'console', approvals: false, helloed: false, subs: new Map() };
    this.clients.add(client);
    peer.send(this.hello());
    return {
      receive: (m) => this.receive(client, m),
      closed: () => this.drop(client),
    };
  }

  private hello(): ServerMessageOf<'hello'> {
    return {
      type: 'hello',
      wire: OPERATOR_WIRE_VERSION,
      pid: process.pid,
      mishVersion: this.options.version,
      cwd: this.options.cwd ?? process.cwd(),
      startedAt: this.startedAt,
      ...(this.client ? { client: this.client } : {}),
      transport: this.options.transport ?? 'stdio',
      sessions: this.sessionsSnapshot(),
      processes: this.options.sessions.processes.list().map((e) => this.wireProcess(e)),
      approvals: [...this.approvals.values()].map((a) => a.request),
      handoffs: this.activeHandoffs().map((h) => h.wire),
      ...(this.recent.length ? { recent: this.recent.slice() } : {}),
      ...(this.refused.length ? { refused: this.refused.slice() } : {}),
      ...(this.options.conversation ? { conversation: this.options.conversation } : {}),
    };
  }

  private drop(client: Client): void {
    if (!this.clients.delete(client)) return;
    this.fanout.drop(client);
    if (client.helloed) this.audit({ type: 'operator-disconnected', at: Date.now(), operator: client.name, role: client.role });
    // A handoff the operator held goes back to the agent; nothing it typed half-way is sent.
    for (const h of this.handoffs.values()) if (h.owner === client && h.wire.state === 'attached') this.returnHandoff(h, 'the operator disconnected');
    if (client.approvals && !this.hasApprover()) {
      const goneAll = () => {
        this.lingerTimer = undefined;
        if (this.hasApprover()) return;
        for (const [id, p] of this.approvals) this.settleApproval(id, p, { outcome: 'operator-gone', id, waitedMs: Date.now() - p.request.createdAt }, 'operator-gone');
      };
      // An approver over a link that may drop asked its approvals to wait for its return (issue 24).
      if (client.linger) {
        clearTimeout(this.lingerTimer);
        this.lingerTimer = setTimeout(goneAll, client.linger);
        this.lingerTimer.unref?.();
      } else goneAll();
    }
  }

  private receive(client: Client, m: ClientMessage): void {
    if (this.disposed) return;
    if (!client.helloed && m.type !== 'hello') {
      client.peer.close();
      return;
    }
    switch (m.type) {
      case 'hello':
        client.helloed = true;
        client.name = m.name;
        client.role = m.role;
        client.approvals = m.approvals === true;
        if (m.linger) client.linger = m.linger;
        if (client.approvals) {
          clearTimeout(this.lingerTimer);
          this.lingerTimer = undefined;
        }
        this.audit({ type: 'operator-connected', at: Date.now(), operator: m.name, role: m.role });
        if (m.rid !== undefined) this.ok(client, m.rid, {});
        return;
      case 'subscribe': {
        const { backlog, offset } = this.fanout.subscribe(client, m.stream);
        this.ok(client, m.rid, { backlog, offset });
        return;
      }
      case 'unsubscribe':
        this.fanout.unsubscribe(client, streamKey(m.stream));
        return;
      case 'ack':
        this.fanout.ack(client, m.stream, m.bytes);
        return;
      case 'approval-decide':
        return this.decide(client, m);
      case 'handoff-attach':
        return this.attach(client, m);
      case 'takeover':
        return this.takeover(client, m);
      case 'input': {
        const h = this.handoffs.get(m.handoffId);
        if (!h || h.owner !== client || h.wire.state !== 'attached') return;
        const bytes = Buffer.from(m.data, 'base64');
        this.track(h, bytes);
        const control = this.options.sessions.process(h.wire.processId);
        if (h.wire.why === 'secret-prompt' && !h.submitted && (bytes.includes(0x0d) || bytes.includes(0x0a))) {
          // Marked before the bytes reach the PTY: whatever the program prints in reply is the agent's.
          h.submitted = true;
          h.endLine = control?.entry().rawLines ?? h.startLine;
          h.submittedAtBytes = control?.entry().rawBytes;
        }
        control?.send(bytes.toString('utf8'));
        return;
      }
      case 'resize':
        // The agent's terminal keeps its size (watching or typing never resizes it): a wider
        // operator terminal shows the same lines. Accepted for forward compatibility.
        return;
      case 'handoff-return': {
        const h = this.handoffs.get(m.id);
        // The process may end (and so the handoff) between the operator's last key and this message: not an error.
        if (h && h.owner === client && (h.wire.state === 'ended' || h.wire.state === 'returned')) {
          if (m.rid !== undefined) this.ok(client, m.rid, { summary: h.summary });
          return;
        }
        if (!h || h.owner !== client || h.wire.state !== 'attached') {
          if (m.rid !== undefined) this.fail(client, m.rid, `handoff ${m.id} is not attached by this operator`);
          return;
        }
        this.returnHandoff(h);
        if (m.rid !== undefined) this.ok(client, m.rid, { summary: h.summary });
        return;
      }
    }
  }

  private ok(client: Client, rid: number, result: unknown): void {
    client.peer.send({ type: 'reply', rid, ok: true, result });
  }

  private fail(client: Client, rid: number, error: string): void {
    client.peer.send({ type: 'reply', rid, ok: false, error });
  }

  private broadcast(m: ServerMessage): void {
    if (m.type === 'command-start' || m.type === 'command-end' || (m.type === 'condensed' && (m.reply || m.final))) {
      this.recent.push(m);
      if (this.recent.length > RECENT_COMMAND_MESSAGES) this.recent.splice(0, this.recent.length - RECENT_COMMAND_MESSAGES);
    }
    for (const c of this.clients) c.peer.send(m);
  }

  private audit(e: OperatorAuditEvent): void {
    try {
      this.options.onAudit?.(e);
    } catch (err) {
      this.options.log?.(`audit callback failed: ${(err as Error).message}`);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Approvals

  /**
   * Asks the operators about an escalated line. Without an operator who decides approvals:
   * `no-operator` at once. Otherwise waits for the first decision, the timeout (deny), the
   * last approver leaving (deny) or the agent's cancel.
   */
  requestApproval(input: ApprovalInput, options: { signal?: AbortSignal } = {}): Promise<ApprovalResult> {
    // While a lingering approver may come back (its link dropped), new requests wait for it too.
    if (this.disposed) return Promise.resolve({ outcome: 'no-operator' });
    if (!this.hasApprover() && !this.lingerTimer) return Promise.resolve({ outcome: 'no-operator', id: this.refuse(input) });
    const id = newId('a');
    const now = Date.now();
    const timeout = this.options.approvalTimeoutMs ?? approvalTimeoutMs();
    const request: ApprovalRequest = {
      id,
      ...escalationFields(input),
      ...(input.editOf ? { editOf: input.editOf } : {}),
      createdAt: now,
      expiresAt: now + timeout,
    };
    return new Promise<ApprovalResult>((resolve) => {
      const timer = setTimeout(() => this.settleApproval(id, p, { outcome: 'timeout', id, waitedMs: Date.now() - now }, 'timeout'), timeout);
      timer.unref?.();
      const p: PendingApproval = { request, resolve, timer };
      this.approvals.set(id, p);
      options.signal?.addEventListener('abort', () => this.settleApproval(id, p, { outcome: 'cancelled', id, waitedMs: Date.now() - now }, 'cancelled'), { once: true });
      this.audit({ type: 'approval-requested', at: now, approval: request });
      this.broadcast({ type: 'approval-request', approval: request });
      this.sessionsChangedSoon();
    });
  }

  /**
   * An escalation refused because nobody could be asked: remembered (bounded) for a console that
   * connects later, and told to the operators connected now (viewers that do not decide).
   */
  private refuse(input: ApprovalInput): string {
    const m: EscalationRefused = {
      type: 'escalation-refused',
      id: newId('a'),
      ...escalationFields(input),
      why: 'no-operator',
      at: Date.now(),
    };
    this.refused.push(m);
    if (this.refused.length > REFUSED_ESCALATIONS) this.refused.splice(0, this.refused.length - REFUSED_ESCALATIONS);
    this.broadcast(m);
    return m.id;
  }

  private settleApproval(id: string, p: PendingApproval, result: ApprovalResult, outcome: ApprovalOutcome, by?: string, command?: string): void {
    if (this.approvals.get(id) !== p) return;
    this.approvals.delete(id);
    clearTimeout(p.timer);
    this.audit({ type: 'approval-resolved', at: Date.now(), id, outcome, ...(by ? { by } : {}), command: p.request.command, ...(command ? { editedTo: command } : {}), session: p.request.session });
    this.broadcast({ type: 'approval-resolved', id, outcome, ...(by ? { by } : {}), ...(command ? { command } : {}) });
    this.sessionsChangedSoon();
    p.resolve(result);
  }

  private decide(client: Client, m: ClientMessageOf<'approval-decide'>): void {
    if (!client.approvals) return this.fail(client, m.rid, 'this connection did not say approvals: true at hello; it cannot decide');
    const p = this.approvals.get(m.id);
    if (!p) return this.fail(client, m.rid, `no pending approval ${m.id} (decided, timed out or cancelled)`);
    const by = client.name;
    switch (m.decision) {
      case 'approve':
        this.settleApproval(m.id, p, { outcome: 'approved', id: m.id, by }, 'approved', by);
        break;
      case 'always':
        this.settleApproval(m.id, p, { outcome: 'always', id: m.id, by }, 'always', by);
        break;
      case 'deny':
        this.settleApproval(m.id, p, { outcome: 'denied', id: m.id, by }, 'denied', by);
        break;
      case 'edit': {
        const command = m.command?.trim();
        if (!command) return this.fail(client, m.rid, 'edit needs the command to run instead');
        this.settleApproval(m.id, p, { outcome: 'edited', id: m.id, by, command }, 'edited', by, command);
        break;
      }
    }
    this.ok(client, m.rid, {});
  }

  // -------------------------------------------------------------------------------------------
  // Handoffs

  /** The live handoff of a process (pending or attached). */
  handoffOf(processId: string): Handoff | undefined {
    const h = this.activeRecord(processId);
    return h?.wire;
  }

  /** The live handoff of a session's command. */
  handoffOfSession(session: string): Handoff | undefined {
    return this.activeHandoffs().find((h) => h.wire.session === session && h.wire.stream.kind === 'session')?.wire;
  }

  /** True while a process's output belongs to an operator (withheld from the agent). */
  withheld(processId: string): boolean {
    const h = this.activeRecord(processId);
    return h !== undefined && !h.submitted;
  }

  /** Resolves when the process has no live handoff any more (at once when it has none). */
  handoffSettled(processId: string): Promise<void> {
    if (!this.activeRecord(processId)) return Promise.resolve();
    return new Promise((resolve) => {
      const list = this.settledWaiters.get(processId) ?? [];
      list.push(resolve);
      this.settledWaiters.set(processId, list);
    });
  }

  /** Credential-blind summaries of the process's finished handoffs, oldest first. */
  summaries(processId: string): string[] {
    return (this.processHandoffs.get(processId) ?? []).flatMap((h) => (h.summary ? [h.summary] : []));
  }

  /** Raw line ranges (1-based, inclusive) the agent may not read: the output shown during handoffs. */
  withheldLines(processId: string): { from: number; to: number }[] {
    const out: { from: number; to: number }[] = [];
    for (const h of this.processHandoffs.get(processId) ?? []) {
      const to = h.endLine ?? Number.MAX_SAFE_INTEGER;
      if (to > h.startLine) out.push({ from: h.startLine + 1, to });
    }
    return out;
  }

  /**
   * The last handoff of this process answered this prompt and the program has printed nothing since: the answer is still on
   * its way (a PTY's input reaches the program through a kernel worker; on a loaded machine the prompt was seen waiting
   * again before the program read it, and a second handoff opened for it: stress run 192, cli-handoff.test.ts). A new
   * prompt, even the same text after a wrong answer, comes with output of its own.
   */
  private answerInFlight(entry: ProcessEntry, prompt: string): boolean {
    const last = (this.processHandoffs.get(entry.id) ?? []).at(-1);
    return last !== undefined && last.wire.why === 'secret-prompt' && last.submitted === true && last.wire.prompt === prompt && last.submittedAtBytes === entry.rawBytes;
  }

  private activeRecord(processId: string): HandoffRecord | undefined {
    return (this.processHandoffs.get(processId) ?? []).find((h) => h.wire.state === 'pending' || h.wire.state === 'attached');
  }

  private activeHandoffs(): HandoffRecord[] {
    return [...this.handoffs.values()].filter((h) => h.wire.state === 'pending' || h.wire.state === 'attached');
  }

  private startHandoff(entry: ProcessEntry, prompt: string, why: Handoff['why']): HandoffRecord {
    const stream: StreamRef = entry.kind === 'command' && entry.session ? { kind: 'session', id: entry.session } : { kind: 'process', id: entry.id };
    const wire: Handoff = {
      id: newId('h'),
      processId: entry.id,
      ...(entry.session ? { session: entry.session } : {}),
      stream,
      command: entry.command,
      prompt,
      why,
      state: 'pending',
      createdAt: Date.now(),
    };
    const h: HandoffRecord = { wire, startLine: entry.rawLines, typedLine: '', typedLines: [], typedBytes: 0 };
    this.handoffs.set(wire.id, h);
    const list = this.processHandoffs.get(entry.id) ?? [];
    list.push(h);
    this.processHandoffs.set(entry.id, list);
    this.trimEnded();
    this.audit({ type: 'handoff-requested', at: wire.createdAt, handoff: wire });
    this.broadcast({ type: 'handoff-request', handoff: wire });
    this.sessionsChangedSoon();
    return h;
  }

  private attach(client: Client, m: ClientMessageOf<'handoff-attach'>): void {
    const h = this.handoffs.get(m.id);
    if (!h) return this.fail(client, m.rid, `no handoff ${m.id} on this server`);
    if (h.wire.state !== 'pending') return this.fail(client, m.rid, `handoff ${m.id} is ${h.wire.state}: a handoff id is single-use`);
    h.owner = client;
    h.attachedAt = Date.now();
    h.wire = { ...h.wire, state: 'attached', ...(m.cols ? { cols: m.cols } : {}), ...(m.rows ? { rows: m.rows } : {}) };
    const sub = this.fanout.subscribe(client, h.wire.stream);
    h.ownerWasWatching = sub.wasWatching;
    this.ok(client, m.rid, { handoff: h.wire, backlog: sub.backlog, offset: sub.offset });
    this.audit({ type: 'handoff-attached', at: h.attachedAt, id: h.wire.id, processId: h.wire.processId, by: client.name });
    this.broadcast({ type: 'handoff-state', id: h.wire.id, state: 'attached', by: client.name });
    this.sessionsChangedSoon();
  }

  private takeover(client: Client, m: ClientMessageOf<'takeover'>): void {
    const info = this.options.sessions.list().find((s) => s.name === m.session);
    if (!info) return this.fail(client, m.rid, `no session "${m.session}"`);
    const entry = info.runningCommandId ? this.options.sessions.processes.get(info.runningCommandId) : undefined;
    if (!entry || entry.state === 'exited' || entry.state === 'killed') return this.fail(client, m.rid, `nothing runs in session "${m.session}": there is nothing to take over`);
    const existing = this.activeRecord(entry.id);
    if (existing) return this.ok(client, m.rid, { handoff: existing.wire });
    const h = this.startHandoff(entry, entry.waiting?.prompt ?? entry.lastLine, 'takeover');
    this.ok(client, m.rid, { handoff: h.wire });
  }

  /** Follows what the operator types, in memory only: lines become known secrets at the end. */
  private track(h: HandoffRecord, bytes: Buffer): void {
    h.typedBytes += bytes.length;
    for (const ch of bytes.toString('utf8')) {
      if (ch === '\r' || ch === '\n') {
        if (h.typedLine) h.typedLines.push(h.typedLine);
        h.typedLine = '';
      } else if (ch === '\x7f' || ch === '\b') h.typedLine = h.typedLine.slice(0, -1);
      else if (ch === '\x15') h.typedLine = ''; // ^U kills the line
      else if (ch >= ' ') h.typedLine += ch;
    }
  }

  private returnHandoff(h: HandoffRecord, note?: string): void {
    if (h.wire.state !== 'attached' && h.wire.state !== 'pending') return;
    // Half a secret typed without Return stays in the terminal's line buffer: kill the line (^U),
    // so the agent's next input can never complete the operator's partial password.
    if (h.typedLine && !h.submitted) this.options.sessions.process(h.wire.processId)?.send('\x15');
    const entry = this.options.sessions.processes.get(h.wire.processId);
    this.finishHandoff(h, 'returned', entry, note);
  }

  private finishHandoff(h: HandoffRecord, state: 'returned' | 'ended', entry: ProcessEntry | undefined, note?: string): void {
    if (h.typedLine) h.typedLines.push(h.typedLine);
    // A secret typed at an echo-off prompt is masked wherever it shows up later.
    if (h.wire.why === 'secret-prompt') for (const line of h.typedLines) this.known.add(line);
    h.typedLine = '';
    h.typedLines = [];
    h.endedAt = Date.now();
    if (!h.submitted) h.endLine = entry?.rawLines ?? h.startLine;
    const by = h.owner?.name;
    h.wire = { ...h.wire, state };
    const secs = ((h.endedAt - h.wire.createdAt) / 1000).toFixed(1);
    const outcome = !entry
      ? 'the process is gone'
      : entry.state === 'exited' || entry.state === 'killed'
        ? `the process ended with exit ${entry.exitCode ?? '?'}`
        : 'the process continues';
    const what = h.wire.why === 'secret-prompt' ? `secret prompt "${h.wire.prompt}"` : 'operator takeover';
    const typed = h.typedBytes > 0 ? 'the operator typed an answer (not shown to you)' : 'the operator typed nothing';
    const withheld = (h.endLine ?? 0) > h.startLine ? `; ${h.endLine! - h.startLine} line(s) of output shown during it are withheld` : '';
    h.summary = `[operator handoff ${h.wire.id}: ${what} · ${by ? `held by ${by}` : 'no operator attached'} for ${secs}s · ${typed}${note ? ` · ${note}` : ''} · ${outcome}${withheld}]`;
    if (h.owner) {
      const key = streamKey(h.wire.stream);
      // What the process printed up to now reaches the operator before the stream closes for them.
      this.fanout.flushKey(key);
      if (!h.ownerWasWatching) this.fanout.unsubscribe(h.owner, key);
    }
    this.audit({ type: state === 'returned' ? 'handoff-returned' : 'handoff-ended', at: h.endedAt, id: h.wire.id, processId: h.wire.processId, ...(by ? { by } : {}), typedBytes: h.typedBytes, summary: h.summary });
    this.broadcast({ type: 'handoff-state', id: h.wire.id, state, ...(by ? { by } : {}), summary: h.summary });
    this.sessionsChangedSoon();
    const waiters = this.settledWaiters.get(h.wire.processId);
    this.settledWaiters.delete(h.wire.processId);
    for (const w of waiters ?? []) w();
  }

  private trimEnded(): void {
    if (this.handoffs.size <= MAX_ENDED_RECORDS) return;
    for (const [id, h] of this.handoffs) {
      if (this.handoffs.size <= MAX_ENDED_RECORDS) break;
      if (h.wire.state === 'returned' || h.wire.state === 'ended') this.handoffs.delete(id);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Engine events → wire

  /** What the agent got for a command (the MCP host's route result). */
  reportCommand(report: Omit<ServerMessageOf<'command-report'>, 'type'>): void {
    this.broadcast({ type: 'command-report', ...report, agentText: report.agentText });
  }

  private onEngineEvent(e: SessionEvent): void {
    if (this.disposed) return;
    switch (e.type) {
      case 'raw': {
        const ref: StreamRef = e.source.kind === 'command' && e.source.session ? { kind: 'session', id: e.source.session } : { kind: 'process', id: e.source.id };
        this.fanout.output(ref, e.chunk);
        return;
      }
      case 'command-start':
        this.fanout.flushKey(`session:${e.session}`);
        // Where its output starts in the session's stream: an operator that was not watching then marks it later.
        this.broadcast({ type: 'command-start', session: e.session, commandId: e.id, command: e.command, cwd: e.cwd, at: e.at, offset: this.fanout.offsetOf({ kind: 'session', id: e.session }) });
        this.sessionsChangedSoon();
        return;
      case 'command-end': {
        this.fanout.flushKey(`session:${e.session}`);
        const entry = this.options.sessions.processes.get(e.id);
        this.broadcast({
          type: 'command-end',
          session: e.session,
          commandId: e.id,
          exitCode: e.exitCode,
          durationMs: e.durationMs,
          rawLines: entry?.rawLines ?? 0,
          rawBytes: entry?.rawBytes ?? 0,
          shellExited: e.shellExited,
          ...(e.cwd ? { cwd: e.cwd } : {}),
          ...(entry?.spoolRef ? { spoolRef: entry.spoolRef } : {}),
        });
        this.sessionsChangedSoon();
        return;
      }
      case 'session-created':
        this.sessionsChangedSoon();
        return;
      case 'session-closed': {
        this.fanout.remove(`session:${e.session}`, true);
        this.broadcast({ type: 'session-closed', id: e.session, reason: e.reason, ...(e.exitCode !== undefined ? { exitCode: e.exitCode } : {}) });
        this.sessionsChangedSoon();
        return;
      }
      case 'process': {
        this.reportedBytes.set(e.entry.id, e.entry.rawBytes);
        if (e.change === 'removed') this.reportedBytes.delete(e.entry.id);
        this.broadcast({ type: 'process', change: e.change, process: this.wireProcess(e.entry) });
        if (e.change === 'removed') {
          // A forgotten process's backlog goes with it (memory stays bounded by the process table).
          this.fanout.remove(`process:${e.entry.id}`, false);
        }
        if (e.entry.state === 'exited' || e.entry.state === 'killed') {
          const h = this.activeRecord(e.entry.id);
          if (h) this.finishHandoff(h, 'ended', e.entry);
        }
        this.sessionsChangedSoon();
        return;
      }
      case 'waiting-for-input': {
        this.broadcast({ type: 'waiting', processId: e.source.id, ...(e.source.session ? { session: e.source.session } : {}), prompt: e.waiting.prompt, secret: e.waiting.secret, since: e.waiting.since });
        if (e.waiting.secret && !this.activeRecord(e.source.id)) {
          const entry = this.options.sessions.processes.get(e.source.id);
          if (entry && !this.answerInFlight(entry, e.waiting.prompt)) this.startHandoff(entry, e.waiting.prompt, 'secret-prompt');
        }
        this.sessionsChangedSoon();
        return;
      }
      case 'condensed':
        this.broadcast({
          type: 'condensed',
          ...(e.source.session ? { session: e.source.session } : {}),
          processId: e.source.id,
          lines: this.maskForAgent(e.lines.join('\n')).split('\n'),
          ...(e.final ? { final: true } : {}),
          ...(e.reply ? { reply: true } : {}),
          ...(e.category ? { category: e.category } : {}),
          ...(e.asked !== undefined ? { asked: e.asked } : {}),
        });
        return;
      default:
        return;
    }
  }

  /** Session states as operators see them (approvals and handoffs included). */
  sessionsSnapshot(): OperatorSession[] {
    const table = this.options.sessions.processes;
    return this.options.sessions.list().map((s) => toWireSession(s, s.runningCommandId ? table.get(s.runningCommandId) : undefined, this.stateOverride(s)));
  }

  private stateOverride(s: SessionInfo): OperatorSession['state'] | undefined {
    if (this.activeHandoffs().some((h) => h.wire.session === s.name)) return 'handed-off';
    for (const a of this.approvals.values()) if (a.request.session === s.name && a.request.tool === 'sh_run') return 'needs-approval';
    return undefined;
  }

  private sessionsChangedSoon(): void {
    if (this.snapshotTimer || this.disposed) return;
    this.snapshotTimer = setTimeout(() => {
      this.snapshotTimer = undefined;
      if (this.clients.size) this.broadcast({ type: 'sessions', sessions: this.sessionsSnapshot() });
    }, SNAPSHOT_DEBOUNCE_MS);
    this.snapshotTimer.unref?.();
  }

  dispose(): void {
    clearTimeout(this.lingerTimer);
    if (this.disposed) return;
    for (const [id, p] of this.approvals) this.settleApproval(id, p, { outcome: 'operator-gone', id, waitedMs: Date.now() - p.request.createdAt }, 'operator-gone');
    this.disposed = true;
    clearInterval(this.processTimer);
    this.unsubscribe();
    clearTimeout(this.snapshotTimer);
    this.fanout.dispose();
    for (const c of [...this.clients]) c.peer.close();
    this.clients.clear();
  }
}

/** What an approval request and a refusal both tell of an escalation: where, what, and the policy's verdict. */
function escalationFields(input: ApprovalInput): Pick<ApprovalRequest, 'session' | 'tool' | 'command' | 'cwd' | 'dangers' | 'decision' | 'rule' | 'reason'> {
  return {
    session: input.session,
    tool: input.tool,
    command: input.command,
    cwd: input.cwd,
    dangers: input.dangers.map((d) => ({ id: d.id, description: d.description, text: d.text })),
    ...(input.decision ? { decision: input.decision } : {}),
    ...(input.rule ? { rule: input.rule } : {}),
    ...(input.reason ? { reason: input.reason } : {}),
  };
}

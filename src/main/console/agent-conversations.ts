/**
 * Hooked runs gathered per agent conversation. An agent whose own shell tool is hooked (`mish
 * init claude-code`) reaches mish as many short-lived servers: each hook call that asks an
 * operator and each `mish <cmd>` of a rewrite opens its own operator socket, and says in its
 * hello which conversation it belongs to (agent + the host's session id). Shown as they come, a
 * conversation of 30 commands would be 30 agents; here each conversation is ONE hub server with
 * ONE session, whatever runs come and go:
 *
 * - the session's timeline holds every run's command (start, end, exit code, what the agent saw);
 * - its terminal is every run's output in turn, renumbered into one stream (each run numbers its
 *   own from zero), with each run's flow control kept (the hub's acknowledgements go back to the
 *   run whose bytes they were);
 * - its state is the most urgent of the runs live now (needs approval, handed off, waiting for
 *   input, running), idle between runs;
 * - approvals and handoffs are the runs' own, each routed back to the run that holds it;
 * - a run that ends takes nothing away: its rows stay, and its raw output stays readable from the
 *   spool by its reference (the last FINISHED_RUNS_KEPT runs' records are kept for that).
 *
 * The hub (console-service.ts) hands every server that names a conversation to `join` and
 * every gone one to `leave`; to it a conversation is a server like any other, always connected.
 */
import { createHash } from 'node:crypto';
import type { ServerInfo } from '../../shared/contract.js';
import type { HookConversationHistory } from '../core/audit/hook-history.js';
import type { HubBackgroundProcess, HubConversation, HubEvent, HubOperator, HubProcess, HubServer, HubSession } from './hub-types.js';

/** Finished runs whose records a conversation keeps (their spool references, for the raw pane): as many as a timeline shows. */
export const FINISHED_RUNS_KEPT = 200;
/**
 * Output chunks awaiting the hub's acknowledgement, at most: beyond, the oldest are forgotten
 * (their run then skips output for the console as for any slow operator, never waits).
 */
const UNACKED_CHUNKS_MAX = 1000;

/**
 * A conversation with no run for this long is shown as ended (greyed, dismissable): hosts send no
 * "conversation over" to a PreToolUse hook, and an agent thinking or waiting for its user goes
 * minutes without a command. A new run revives it with every earlier row.
 */
export const CONVERSATION_IDLE_MS = 10 * 60_000;

/** Which state of the runs live now the conversation's session shows: the most urgent. */
const URGENCY: Partial<Record<HubSession['state'], number>> = { 'needs-approval': 5, 'handed-off': 4, waiting: 3, running: 2, busy: 2, starting: 1 };

/** The hub id of a conversation: stable for its host, agent and session id, safe in `<serverId>/<session>` keys. */
export function conversationId(c: HubConversation): string {
  const digest = createHash('sha256').update(`${c.host ?? ''}\0${c.agent}\0${c.session}`).digest('hex').slice(0, 12);
  return `agent-${c.agent.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 40)}-${digest}`;
}

/** A line in the conversation's terminal where a run's output was skipped (flow control): never the program's bytes. */
export function skippedNote(bytes: number): string {
  return `\r\n\x1b[2m[mish: ${bytes} bytes of output not shown here; the raw pane has them]\x1b[0m\r\n`;
}

interface Run {
  server: HubServer;
  /** Its session's name on its own server (the conversation's session id). */
  session: string;
  live: boolean;
  offs: (() => void)[];
  /** Its own stream offset up to which its output was passed on; `streamed`: some was. */
  streamEnd: number;
  streamed: boolean;
  /** Its commands that started and have not ended (id → start time). */
  running: Map<string, number>;
  info: Omit<ServerInfo, 'id' | 'state'>;
  /** It runs a command (a `mish <cmd>`), not only asks about one (the hook's own server lists no session). */
  runsCommand: boolean;
}

/** One agent conversation as one hub server. */
export class ConversationServer implements HubServer {
  readonly operator: HubOperator;
  /** Every run's output is passed on from the moment it connects (openRun), watched or not. */
  readonly streamsAlways = true;
  /** When a run last connected or ended. */
  private lastRunAt = Date.now();
  /** The host's transcript file, as the latest run that named one said. */
  private transcript?: string;
  private idleTimer?: NodeJS.Timeout;
  /** Every run seen, oldest first (finished ones pruned beyond FINISHED_RUNS_KEPT). */
  private readonly runs: Run[] = [];
  private readonly listeners = new Set<(e: HubEvent) => void>();
  private readonly infoListeners = new Set<() => void>();
  /** Which run a command is of (command ids are the runs' own). */
  private readonly owners = new Map<string, Run>();
  private seen = 0;
  /** Offset of the next byte of the conversation's terminal. */
  private end = 0;
  /** Bytes passed to the hub and not yet acknowledged, in order, with the run to acknowledge them to. */
  private readonly unacked: { run?: Run; bytes: number }[] = [];
  /** The session as last listed by a live run (kept between runs). */
  private last?: HubSession;
  private lastExitCode?: number;
  /** A run connected (not only history read back): its time and exit code are newer than any record's. */
  private hadLiveRun = false;
  /** Command ids of runs counted in `seen` from the audit log (one that then connects on the wire is not counted twice). */
  private readonly countedFromLog = new Set<string>();
  /** The record-keeping run of what was read from the audit log (addHistory): its commands' spools by id. */
  private fromLog?: { run: Run; byId: Map<string, HubProcess> };

  constructor(
    readonly id: string,
    private readonly about: HubConversation,
    private readonly idleMs: number = CONVERSATION_IDLE_MS,
  ) {
    const liveRuns = () => this.runs.filter((r) => r.live);
    const holding = (pick: (op: HubOperator) => { id: string }[], id: string) => liveRuns().find((r) => r.server.operator && pick(r.server.operator).some((x) => x.id === id))?.server.operator;
    this.operator = {
      approvals: () => liveRuns().flatMap((r) => safely(() => r.server.operator?.approvals()).map((a) => ({ ...a, session: this.about.session }))),
      handoffs: () => liveRuns().flatMap((r) => safely(() => r.server.operator?.handoffs()).map((h) => ({ ...h, ...(h.session !== undefined ? { session: this.about.session } : {}) }))),
      decide: async (id, decision, command) => {
        const op = holding((o) => o.approvals(), id);
        return op ? op.decide(id, decision, command) : { ok: false, error: `approval ${id} is no longer pending (its run ended or it was decided)` };
      },
      take: async (target) => {
        if (target.handoffId) {
          const op = holding((o) => o.handoffs(), target.handoffId);
          return op ? op.take({ handoffId: target.handoffId }) : { ok: false, error: `handoff ${target.handoffId} is not open (its run ended)` };
        }
        // Taking the session over: the run whose command is running now (the latest, if several).
        const run = liveRuns()
          .reverse()
          .find((r) => r.server.operator && r.running.size > 0);
        if (!run) return { ok: false, error: `no command of ${this.about.agent} session ${this.about.session} is running now` };
        return run.server.operator!.take({ session: run.session });
      },
      input: (handoffId, data) => holding((o) => o.handoffs(), handoffId)?.input(handoffId, data),
      giveBack: async (handoffId) => {
        const op = holding((o) => o.handoffs(), handoffId);
        return op ? op.giveBack(handoffId) : { ok: false, error: `handoff ${handoffId} is not open (its run ended: the agent was told)` };
      },
    };
  }

  /** A run of the conversation connected. */
  add(server: HubServer): void {
    const session = server.conversation?.()?.session ?? this.about.session;
    const runsCommand = safely(() => server.list()).some((s) => s.name === session);
    const run: Run = { server, session, live: true, offs: [], streamEnd: 0, streamed: false, running: new Map(), info: server.info(), runsCommand };
    this.runs.push(run);
    this.lastRunAt = Date.now();
    this.hadLiveRun = true;
    this.transcript = server.conversation?.()?.transcript ?? this.transcript;
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (runsCommand) this.seen++;
    run.offs.push(server.subscribe((e) => this.onRunEvent(run, e)));
    const offInfo = server.onInfoChanged?.(() => {
      run.info = server.info();
      this.infoChanged();
    });
    if (offInfo) run.offs.push(offInfo);
    void this.openRun(run);
    this.prune();
    this.infoChanged();
    this.emit({ type: 'sessions-changed' });
  }

  /**
   * What the conversation did while no console watched, read back from the audit log
   * (hook-history.ts): its runs become timeline rows (start, end, exit code; the raw output read
   * from each run's spool through `processes`) and its hook refusals rows that never ran, with
   * what the agent was told. Events go to the hub now, as a live run's would have; rows the hub
   * knows already (a run that is still lingering on the wire) stay one row (same ids).
   */
  addHistory(history: HookConversationHistory, processes: (spoolRef: string) => HubProcess | undefined): void {
    const session = this.about.session;
    // One record-keeping run for everything read from the log: the oldest of the runs.
    if (!this.fromLog) {
      const byId = new Map<string, HubProcess>();
      const info = { kind: 'serve' as const, name: this.about.agent };
      const server: HubServer = { id: `${this.id}/audit`, info: () => ({ ...info }), list: () => [], subscribe: () => () => {}, process: (id) => byId.get(id) };
      this.fromLog = { run: { server, session, live: false, offs: [], streamEnd: 0, streamed: false, running: new Map(), info, runsCommand: true }, byId };
      this.runs.unshift(this.fromLog.run);
    }
    const { run, byId } = this.fromLog;
    run.info = { ...run.info, ...(history.version ? { version: history.version } : {}), ...(history.cwd ? { cwd: history.cwd } : {}) };
    // Runs the hub saw live (their command ids are known) were counted when they connected.
    const runs = history.entries.filter((e) => e.kind === 'run');
    for (const e of runs) {
      if (this.owners.has(e.id) || this.countedFromLog.has(e.id)) continue;
      this.countedFromLog.add(e.id);
      this.seen++;
    }
    const last = history.entries[history.entries.length - 1];
    if (last) {
      // Before any live run, the log's last record is the conversation's last activity; after, whichever is later.
      const before = this.lastRunAt;
      this.lastRunAt = this.hadLiveRun ? Math.max(this.lastRunAt, last.at) : last.at;
      // The session's last exit code: the log's last run, unless a live run ended after it.
      const lastRun = runs[runs.length - 1];
      if (lastRun?.exitCode !== undefined && (!this.hadLiveRun || lastRun.at + (lastRun.durationMs ?? 0) >= before)) this.lastExitCode = lastRun.exitCode;
      // With no run live, the conversation ends idleMs after its last activity, as if a run had just left.
      if (!this.runs.some((r) => r.live)) {
        clearTimeout(this.idleTimer);
        this.idleTimer = undefined;
        const left = this.idleMs - (Date.now() - this.lastRunAt);
        if (left > 0) {
          this.idleTimer = setTimeout(() => {
            this.idleTimer = undefined;
            this.infoChanged();
          }, left);
          this.idleTimer.unref?.();
        }
      }
    }
    for (const e of history.entries) {
      if (e.kind === 'run') {
        // A run the hub saw live (on the wire) has its row already: told again, it would look like a new start.
        if (this.owners.has(e.id)) continue;
        const proc = e.spoolRef ? processes(e.spoolRef) : undefined;
        if (proc) byId.set(e.id, proc);
        this.owners.set(e.id, run);
        const figures = proc ? safely(() => [proc.entry()])[0] : undefined;
        this.emit({ type: 'command-start', id: e.id, session, command: e.command, cwd: e.cwd ?? history.cwd ?? '', at: e.at });
        this.emit({
          type: 'command-done',
          session,
          id: e.id,
          ...(e.exitCode !== undefined ? { exitCode: e.exitCode } : {}),
          durationMs: e.durationMs ?? 0,
          ...(figures ? { rawLines: figures.rawLines, rawBytes: figures.rawBytes } : {}),
        });
        continue;
      }
      const approval = { id: e.id, session, tool: 'sh_run' as const, command: e.command, cwd: e.cwd ?? history.cwd ?? '', dangers: [], ...(e.rule ? { rule: e.rule } : {}), ...(e.answer === 'ask' ? { reason: e.reason } : {}), createdAt: e.askedAt ?? e.at, expiresAt: e.at };
      this.emit({ type: 'approval-resolved', approval, outcome: e.outcome, ...(e.by ? { by: e.by } : {}), at: e.at });
      // What the agent read: the hook's deny reason, word for word (an `ask` went to the host's user instead).
      if (e.answer === 'deny') this.emit({ type: 'condensed', source: { kind: 'command', id: e.id, session }, lines: e.reason.split('\n'), final: true, reply: true });
    }
    this.prune();
    this.infoChanged();
    this.emit({ type: 'sessions-changed' });
  }

  /** A run's connection ended (it finished): its records stay, its commands still open end without an exit code. */
  remove(server: HubServer | string): void {
    const run = this.runs.find((r) => r.live && (typeof server === 'string' ? r.server.id === server : r.server === server));
    if (!run) return;
    this.sessionOf(run);
    run.offs.forEach((off) => off());
    run.offs = [];
    run.live = false;
    for (const u of this.unacked) if (u.run === run) u.run = undefined;
    for (const [id, at] of run.running) this.emit({ type: 'command-done', session: this.about.session, id, durationMs: Date.now() - at });
    run.running.clear();
    this.lastRunAt = Date.now();
    // The last live run gone: the conversation ends after idleMs without a new one (views hear it then).
    if (!this.runs.some((r) => r.live)) {
      clearTimeout(this.idleTimer);
      this.idleTimer = setTimeout(() => {
        this.idleTimer = undefined;
        this.infoChanged();
      }, this.idleMs);
      this.idleTimer.unref?.();
    }
    this.prune();
    this.infoChanged();
    this.emit({ type: 'sessions-changed' });
  }

  info(): Omit<ServerInfo, 'id' | 'state'> {
    const latest = this.runs[this.runs.length - 1]?.info;
    const version = [...this.runs].reverse().find((r) => r.info.version)?.info.version;
    const live = this.runs.filter((r) => r.live);
    const pid = live[live.length - 1]?.info.pid;
    const liveRuns = live.filter((r) => r.runsCommand).length;
    return {
      kind: 'serve',
      name: this.about.agent,
      ...(version ? { version } : {}),
      ...(this.last?.cwd || latest?.cwd ? { cwd: this.last?.cwd || latest?.cwd } : {}),
      ...(pid !== undefined ? { pid } : {}),
      ...(this.about.host ? { host: this.about.host } : {}),
      // Runs of commands: a hook that only asked an operator is no run of its own.
      conversation: {
        session: this.about.session,
        runs: this.seen,
        live: liveRuns,
        lastRunAt: this.lastRunAt,
        ...(this.transcript ? { transcript: this.transcript } : {}),
        ...(this.ended() ? { ended: true } : {}),
      },
    };
  }

  /** One session: the conversation's, named by its session id, in the most urgent state of its live runs. */
  list(): HubSession[] {
    let state: HubSession['state'] = 'idle';
    const rank = (s: HubSession['state']) => URGENCY[s] ?? 0;
    for (const run of this.runs) {
      if (!run.live) continue;
      const s = this.sessionOf(run);
      if (s && rank(s.state) > rank(state)) state = s.state;
      if (safely(() => run.server.operator?.approvals()).length > 0 && rank('needs-approval') > rank(state)) state = 'needs-approval';
    }
    const s = this.last;
    const exit = this.lastExitCode ?? s?.lastExitCode;
    return [
      {
        name: this.about.session,
        shell: s?.shell ?? 'bash',
        ...(s?.cwd || this.runs.length ? { cwd: s?.cwd ?? this.runs[this.runs.length - 1].info.cwd } : {}),
        // No pid: runs come and go, the conversation's terminal stays the same one.
        state,
        ...(exit !== undefined ? { lastExitCode: exit } : {}),
        ...(s?.cols ? { cols: s.cols } : {}),
        ...(s?.rows ? { rows: s.rows } : {}),
      },
    ];
  }

  subscribe(listener: (event: HubEvent) => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  onInfoChanged(listener: () => void): () => void {
    this.infoListeners.add(listener);
    return () => void this.infoListeners.delete(listener);
  }

  processes(): HubBackgroundProcess[] {
    return this.runs.filter((r) => r.live).flatMap((r) => safely(() => r.server.processes?.()).map((p) => ({ ...p, ...(p.session !== undefined ? { session: this.about.session } : {}) })));
  }

  /** A command of any run, finished ones included (their spool is read by reference). */
  process(id: string): HubProcess | undefined {
    const owner = this.owners.get(id);
    if (owner) return owner.server.process?.(id);
    for (const r of this.runs) {
      const p = r.server.process?.(id);
      if (p) return p;
    }
    return undefined;
  }

  /**
   * The hub opens the session's output, and opens it again after nobody watched what it was sent
   * (it then forgot what it owed): each live run sends its recent output again with its window
   * started over; what the conversation passed on already is not passed twice.
   */
  async openStream(): Promise<{ ok: true; backlog: Buffer; offset: number }> {
    this.unacked.length = 0;
    await Promise.all(this.runs.filter((r) => r.live).map((r) => this.openRun(r)));
    return { ok: true, backlog: Buffer.alloc(0), offset: this.end };
  }

  /** The hub took `bytes` more of the terminal: acknowledged to the runs they came from, in order. */
  consumed(_session: string, bytes: number): void {
    let n = bytes;
    while (n > 0 && this.unacked.length > 0) {
      const u = this.unacked[0];
      const k = Math.min(n, u.bytes);
      if (u.run?.live) u.run.server.consumed?.(u.run.session, k);
      u.bytes -= k;
      n -= k;
      if (u.bytes === 0) this.unacked.shift();
    }
  }

  /** No run live, and none for idleMs. */
  ended(): boolean {
    return !this.runs.some((r) => r.live) && Date.now() - this.lastRunAt >= this.idleMs;
  }

  dispose(): void {
    clearTimeout(this.idleTimer);
    for (const r of this.runs) {
      r.offs.forEach((off) => off());
      r.offs = [];
    }
    this.listeners.clear();
    this.infoListeners.clear();
  }

  /**
   * Every run's terminal is watched from the moment it connects: a run lives a few seconds and
   * takes its output with it, and the conversation's terminal is meant to hold each run in turn.
   * (The run's output goes to the console only while the console runs, as every hooked run's does.)
   */
  private async openRun(run: Run): Promise<void> {
    if (!run.server.openStream || !run.runsCommand) return;
    const r = await run.server.openStream(run.session).catch(() => undefined);
    if (r?.ok && run.live) this.output(run, r.offset - r.backlog.length, r.backlog, false);
  }

  /** A run's output at its own offset, passed on at the conversation's (`counted`: the run awaits its acknowledgement). */
  private output(run: Run, offset: number, chunk: Uint8Array, counted: boolean): void {
    let data = chunk;
    let at = offset;
    // A run's first bytes start where its backlog does: not a gap.
    if (!run.streamed) {
      run.streamed = true;
      run.streamEnd = at;
    }
    const dup = Math.min(data.length, Math.max(0, run.streamEnd - at));
    if (dup > 0) {
      if (counted) run.server.consumed?.(run.session, dup);
      data = data.subarray(dup);
      at += dup;
    }
    if (data.length === 0) return;
    // Skipped by the run's flow control: said in the terminal, rather than restarting it (which would drop earlier runs' output).
    if (at > run.streamEnd) this.pass(undefined, Buffer.from(skippedNote(at - run.streamEnd)));
    run.streamEnd = at + data.length;
    this.pass(counted ? run : undefined, data);
  }

  private pass(run: Run | undefined, data: Uint8Array): void {
    const offset = this.end;
    this.end += data.length;
    this.unacked.push({ run, bytes: data.length });
    if (this.unacked.length > UNACKED_CHUNKS_MAX) this.unacked.shift();
    this.emit({ type: 'stream-output', session: this.about.session, offset, chunk: data });
  }

  private onRunEvent(run: Run, e: HubEvent): void {
    const session = this.about.session;
    switch (e.type) {
      case 'stream-output':
        if (e.session === run.session) this.output(run, e.offset, e.chunk, true);
        return;
      // A run's terminal ends with it; the conversation's goes on.
      case 'session-closed':
      case 'session-created':
        this.emit({ type: 'sessions-changed' });
        return;
      case 'command-start':
        // A run read back from the audit log first (its record written before the console reached
        // its socket) and counted then is the same run, counted again as it connected: once.
        if (this.countedFromLog.delete(e.id)) {
          this.seen--;
          this.infoChanged();
        }
        this.owners.set(e.id, run);
        run.running.set(e.id, e.at);
        this.emit({ ...e, session });
        return;
      case 'command-end':
      case 'command-done':
        run.running.delete(e.id);
        if (e.exitCode !== undefined) this.lastExitCode = e.exitCode;
        this.emit({ ...e, session });
        return;
      case 'raw':
      case 'condensed':
      case 'waiting-for-input':
        this.emit({ ...e, source: { ...e.source, ...(e.source.session !== undefined ? { session } : {}) } } as HubEvent);
        return;
      case 'segment':
        this.emit({ ...e, session });
        return;
      // A run numbers its own stream from zero; the conversation's terminal has its own offsets (set at the start by the hub).
      case 'command-offset':
        return;
      // The hook's own server asks under the conversation's session id; a run's under its own session name.
      case 'approval-resolved':
        this.emit({ ...e, approval: { ...e.approval, session } });
        return;
      default:
        this.emit(e);
    }
  }

  /** A live run's session as it lists it now (remembered as the conversation's last). */
  private sessionOf(run: Run): HubSession | undefined {
    const s = safely(() => run.server.list()).find((x) => x.name === run.session);
    if (s) this.last = s;
    return s;
  }

  /** Finished runs beyond FINISHED_RUNS_KEPT are forgotten, with their commands' records. */
  private prune(): void {
    let finished = this.runs.filter((r) => !r.live).length;
    for (let i = 0; i < this.runs.length && finished > FINISHED_RUNS_KEPT; ) {
      const r = this.runs[i];
      // Live runs, and the one holding what was read from the audit log, stay.
      if (r.live || r === this.fromLog?.run) {
        i++;
        continue;
      }
      this.runs.splice(i, 1);
      finished--;
      for (const [id, owner] of this.owners) if (owner === r) this.owners.delete(id);
    }
  }

  private infoChanged(): void {
    for (const l of this.infoListeners) l();
  }

  private emit(e: HubEvent): void {
    for (const l of this.listeners) l(e);
  }
}

/** Every conversation the hub shows, by id; which conversation each live run belongs to. */
export class AgentConversations {
  private readonly conversations = new Map<string, ConversationServer>();
  /** A live run's server id → its conversation's id. */
  private readonly runOf = new Map<string, string>();

  /** `added`: a conversation seen for the first time, for the hub to show as a server. */
  constructor(
    private readonly added: (conversation: ConversationServer) => void,
    private readonly idleMs: number = CONVERSATION_IDLE_MS,
  ) {}

  /** A server that names its conversation joins it (false: any other server, for the hub to show as itself). */
  join(server: HubServer): boolean {
    const c = server.conversation?.();
    if (!c) return false;
    const id = conversationId(c);
    // The same id again (a remote link back up, a pid reused): the new connection replaces the old.
    this.leave(server.id);
    let conv = this.conversations.get(id);
    if (!conv) {
      conv = new ConversationServer(id, c, this.idleMs);
      this.conversations.set(id, conv);
      this.added(conv);
    }
    this.runOf.set(server.id, id);
    conv.add(server);
    return true;
  }

  /**
   * A conversation's history from the audit log (`host`: a remote machine's; absent here): shown
   * under the conversation its runs would have joined, created if no run of it is live. Returns it.
   */
  addHistory(history: HookConversationHistory, processes: (spoolRef: string) => HubProcess | undefined): ConversationServer {
    const about: HubConversation = { agent: history.agent, session: history.session };
    const id = conversationId(about);
    let conv = this.conversations.get(id);
    if (!conv) {
      conv = new ConversationServer(id, about, this.idleMs);
      this.conversations.set(id, conv);
      this.added(conv);
    }
    conv.addHistory(history, processes);
    return conv;
  }

  /** A run's connection ended; false when the server is no run of a conversation. */
  leave(serverId: string): boolean {
    const id = this.runOf.get(serverId);
    if (id === undefined) return false;
    this.runOf.delete(serverId);
    this.conversations.get(id)?.remove(serverId);
    return true;
  }

  dispose(): void {
    for (const c of this.conversations.values()) c.dispose();
    this.conversations.clear();
    this.runOf.clear();
  }
}

function safely<T>(f: () => T[] | undefined): T[] {
  try {
    return f() ?? [];
  } catch {
    return [];
  }
}

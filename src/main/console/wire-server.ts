/**
 * The hub's side of the operator wire: every running `mish serve` of this user, found through
 * its socket in the private per-user directory (src/main/operator/paths.ts), watched for new
 * ones, connected with the wire's client library, and presented to the ConsoleService as a
 * HubServer. A server that goes away (its socket closes) marks its sessions gone; the console
 * going away never disturbs a server (it only closes its own connections).
 *
 * Output flows on demand: the hub subscribes to a session's stream when a view first watches
 * it, so an agent nobody watches pays nothing for the console. Raw output for the raw pane is
 * read from the spool by its reference (same user, same machine).
 */
import { statSync, watch, type FSWatcher } from 'node:fs';
import { userInfo } from 'node:os';
import { SubscribeResultSchema, type EscalationRefused, type OperatorProcess, type OperatorSession, type RecentCommandMessage, type ServerMessageOf } from '../../shared/operator-wire.js';
import { trackOperator, type OperatorIo } from './operator-tracker.js';
import { OperatorClient, discoverServers } from '../operator/client.js';
import { ensurePrivateDir, operatorDir } from '../operator/paths.js';
import type { SpoolReadOptions, SpoolReadResult } from '../core/session/types.js';
import type { HubBackgroundProcess, HubConversation, HubEvent, HubOperator, HubProcess, HubServer, HubSession } from './hub-types.js';

/** Rescans the socket directory this often too: directory watches can miss events (NFS, overflow). */
const RESCAN_MS = 2_000;
/**
 * A socket file younger than this may be bound but not yet listening (bind and listen are two
 * steps): connecting then is refused, and the wire's client takes a refused socket for a stale
 * one and removes it — the server would vanish for every operator. Young sockets wait a moment.
 */
const SOCKET_SETTLE_MS = 300;
/**
 * Name the console gives itself on the wire: servers record it in the audit log as who decided
 * an approval or held a handoff (`console (alice)`).
 */
export function consoleOperatorName(): string {
  try {
    return `console (${userInfo().username})`;
  } catch {
    return 'console';
  }
}

/** What the hub needs of the spool: reading a command's lines by its reference. */
export interface SpoolLookup {
  /** A remote host's spool answers over its link (a promise). */
  read(ref: string, options?: SpoolReadOptions): SpoolReadResult | undefined | Promise<SpoolReadResult | undefined>;
}

/** Reads spools with the core spool module (default directory, as `mish raw`). */
export async function defaultSpoolLookup(): Promise<SpoolLookup> {
  const { SpoolStore } = await import('../core/spool/spool.js');
  const store = new SpoolStore();
  return {
    read(ref, options = {}) {
      // Servers give the reference as the command that reads it (`mish raw x3kwg7a66`).
      const reader = store.open(ref.trim().split(/\s+/).pop() ?? '');
      if (!reader) return undefined;
      const r = reader.readLines({ from: options.fromLine, to: options.toLine });
      return { lines: r.lines.map((l) => ({ n: l.no, text: l.text })), totalLines: r.totalLines, droppedLines: r.droppedBytes > 0 ? -1 : 0 };
    },
  };
}

/** One connected `mish serve` as a hub server. */
export class WireServer implements HubServer {
  readonly id: string;
  readonly operator: HubOperator;
  private sessions: OperatorSession[];
  private clientInfo: { name: string; version?: string } | undefined;
  private readonly listeners = new Set<(e: HubEvent) => void>();
  private readonly infoListeners = new Set<() => void>();
  /** What the server said about each command: figures and spool reference. */
  private readonly commands = new Map<string, { rawLines: number; rawBytes: number; spoolRef?: string; state?: 'running' | 'waiting-for-input' | 'exited' | 'killed' }>();
  private readonly offs: (() => void)[] = [];
  /** Its background processes (sh_spawn), as last reported. */
  private readonly background = new Map<string, OperatorProcess>();
  /** Hub events of the commands the server reported before this client connected (its hello's `recent`). */
  private readonly earlier: HubEvent[] = [];

  /** The ssh destination of a remote server (absent: this machine). */
  readonly host?: string;

  constructor(
    readonly client: OperatorClient,
    private readonly spool: SpoolLookup,
    /** A remote server: its hub id (pids repeat across machines) and its host. */
    remote?: { id: string; host: string },
  ) {
    const hello = client.hello;
    this.id = remote?.id ?? `serve-${hello.pid}`;
    if (remote) this.host = remote.host;
    this.sessions = hello.sessions;
    this.clientInfo = hello.client;
    for (const p of hello.processes) {
      this.commands.set(p.id, { rawLines: p.rawLines, rawBytes: p.rawBytes, spoolRef: p.spoolRef, state: p.state });
      if (p.kind === 'spawn') this.background.set(p.id, p);
    }
    // Commands that ran before this connection: replayed to each hub listener when it subscribes.
    // Escalations refused while no operator was attached go between them, in time order.
    const refused = [...(hello.refused ?? [])];
    for (const m of hello.recent ?? []) {
      if (m.type === 'command-start') while (refused.length && refused[0].at <= m.at) this.earlier.push(refusalEvent(refused.shift()!));
      // The agent's reply to a refusal (its row's text) comes after the refusal it answers.
      if (m.type === 'condensed' && m.processId.startsWith('a_')) {
        const i = refused.findIndex((r) => r.id === m.processId);
        if (i >= 0) for (const r of refused.splice(0, i + 1)) this.earlier.push(refusalEvent(r));
      }
      this.earlier.push(...this.commandEvents(m));
    }
    for (const r of refused) this.earlier.push(refusalEvent(r));
    const on = <T extends Parameters<OperatorClient['on']>[0]>(type: T, l: (m: ServerMessageOf<T>) => void) => this.offs.push(client.on(type, l));
    const tracked = trackOperator(client as unknown as OperatorIo, () => this.emit({ type: 'sessions-changed' }), (r) => this.emit(r));
    this.operator = tracked.operator;
    this.offs.push(tracked.dispose);
    on('server', (m) => {
      this.clientInfo = m.client;
      this.infoListeners.forEach((l) => l());
    });
    on('sessions', (m) => {
      this.sessions = m.sessions;
      this.emit({ type: 'sessions-changed' });
    });
    on('session', (m) => {
      this.sessions = [...this.sessions.filter((s) => s.name !== m.session.name), m.session];
      this.emit({ type: 'sessions-changed' });
    });
    on('session-closed', (m) => this.emit({ type: 'session-closed', session: m.id, reason: m.reason === 'restarted' ? 'restarted' : 'closed', ...(m.exitCode !== undefined ? { exitCode: m.exitCode } : {}) }));
    const command = (m: RecentCommandMessage) => {
      for (const e of this.commandEvents(m)) this.emit(e);
    };
    on('command-start', command);
    on('command-end', command);
    on('process', (m) => {
      const p = m.process;
      this.commands.set(p.id, { rawLines: p.rawLines, rawBytes: p.rawBytes, spoolRef: p.spoolRef, state: p.state });
      if (p.kind !== 'spawn') return;
      if (m.change === 'removed') this.background.delete(p.id);
      else this.background.set(p.id, p);
      this.emit({ type: 'background-changed', onlyOutput: m.change === 'updated' && p.state === 'running' });
    });
    on('condensed', command);
    on('escalation-refused', (m) => this.emit(refusalEvent(m)));
    on('waiting', (m) => {
      if (!m.session) return;
      this.emit({ type: 'waiting-for-input', source: { kind: 'command', id: m.processId, session: m.session }, waiting: { prompt: m.prompt, secret: m.secret, reasons: [], since: m.since } });
    });
    on('output', (m) => {
      const chunk = Buffer.from(m.data, 'base64');
      // A session's output is acknowledged as the hub's views keep up with it (consumed()).
      if (m.stream.kind !== 'session') return client.consumed(m.stream, chunk.length);
      this.emit({ type: 'stream-output', session: m.stream.id, offset: m.offset, chunk });
    });
  }

  info() {
    const hello = this.client.hello;
    return {
      kind: 'serve' as const,
      name: this.clientInfo?.name ?? 'mish serve',
      ...(this.clientInfo?.version ? { version: this.clientInfo.version } : {}),
      cwd: hello.cwd,
      pid: hello.pid,
      ...(this.host ? { host: this.host } : {}),
    };
  }

  processes(): HubBackgroundProcess[] {
    return [...this.background.values()];
  }

  conversation(): HubConversation | undefined {
    const c = this.client.hello.conversation;
    return c ? { agent: c.agent, session: c.session, ...(this.host ? { host: this.host } : {}), ...(c.transcript ? { transcript: c.transcript } : {}) } : undefined;
  }

  list(): HubSession[] {
    return this.sessions.map((s) => ({
      name: s.name,
      shell: s.shell,
      cwd: s.cwd,
      ...(s.pid !== undefined ? { pid: s.pid } : {}),
      state: s.state,
      ...(s.lastExitCode !== undefined ? { lastExitCode: s.lastExitCode } : {}),
      ...(s.cols ? { cols: s.cols } : {}),
      ...(s.rows ? { rows: s.rows } : {}),
    }));
  }

  subscribe(listener: (e: HubEvent) => void): () => void {
    for (const e of this.earlier) listener(e);
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  onInfoChanged(listener: () => void): () => void {
    this.infoListeners.add(listener);
    return () => void this.infoListeners.delete(listener);
  }

  process(id: string): HubProcess | undefined {
    const c = this.commands.get(id);
    if (!c) return undefined;
    return {
      entry: () => ({ rawLines: c.rawLines, rawBytes: c.rawBytes, ...(c.state ? { state: c.state } : {}), ...(c.spoolRef ? { spoolRef: c.spoolRef } : {}) }),
      read: (options?: SpoolReadOptions) => {
        const r = c.spoolRef ? this.spool.read(c.spoolRef, options) : undefined;
        const unreadable = () => new Error(`the spool of ${id} is not readable here`);
        if (r instanceof Promise) return r.then((x) => x ?? Promise.reject(unreadable()));
        if (!r) throw unreadable();
        return r;
      },
    };
  }

  consumed(session: string, bytes: number): void {
    this.client.consumed({ kind: 'session', id: session }, bytes);
  }

  async openStream(session: string): Promise<{ ok: true; backlog: Buffer; offset: number } | { ok: false; error: string }> {
    const r = await this.client.request({ type: 'subscribe', stream: { kind: 'session', id: session } });
    if (!r.ok) return r;
    const parsed = SubscribeResultSchema.safeParse(r.result);
    if (!parsed.success) return { ok: false, error: 'malformed subscribe reply' };
    return { ok: true, backlog: Buffer.from(parsed.data.backlog, 'base64'), offset: parsed.data.offset };
  }

  dispose(): void {
    this.offs.forEach((off) => off());
    this.listeners.clear();
    this.client.close();
  }

  /** A command message as hub events (with its figures noted); none for one the hub does not show. */
  private commandEvents(m: RecentCommandMessage): HubEvent[] {
    const e = this.commandEvent(m);
    if (!e) return [];
    // Where its output starts in the session's stream (servers that say so): marked in the terminal even if nobody watched then.
    if (m.type === 'command-start' && m.offset !== undefined) return [e, { type: 'command-offset', session: m.session, id: m.commandId, offset: m.offset }];
    return [e];
  }

  private commandEvent(m: RecentCommandMessage): HubEvent | undefined {
    switch (m.type) {
      case 'command-start':
        this.commands.set(m.commandId, { rawLines: 0, rawBytes: 0, state: 'running' });
        return { type: 'command-start', id: m.commandId, session: m.session, command: m.command, cwd: m.cwd, at: m.at };
      case 'command-end':
        this.commands.set(m.commandId, { rawLines: m.rawLines, rawBytes: m.rawBytes, spoolRef: m.spoolRef, state: 'exited' });
        return { type: 'command-done', session: m.session, id: m.commandId, ...(m.exitCode !== null ? { exitCode: m.exitCode } : {}), durationMs: m.durationMs, rawLines: m.rawLines, rawBytes: m.rawBytes };
      case 'condensed':
        if (!m.session) return undefined;
        return {
          type: 'condensed',
          source: { kind: 'command', id: m.processId, session: m.session },
          lines: m.lines,
          ...(m.final ? { final: true } : {}),
          ...(m.reply ? { reply: true } : {}),
          ...(m.category ? { category: m.category } : {}),
          ...(m.asked !== undefined ? { asked: m.asked } : {}),
        };
    }
  }

  private emit(e: HubEvent): void {
    for (const l of this.listeners) l(e);
  }
}

/**
 * An escalation refused with no operator attached, as the hub's approval events say it: resolved
 * as `no-operator` the moment it was asked (the timeline shows it as a row that never ran).
 */
function refusalEvent(r: EscalationRefused): HubEvent {
  const { type: _type, why: _why, at, ...rest } = r;
  return { type: 'approval-resolved', approval: { ...rest, createdAt: at, expiresAt: at }, outcome: 'no-operator', at };
}

export interface Discovery {
  /** Servers connected now. */
  servers(): WireServer[];
  /** Looks for new sockets now (also done on directory changes and every RESCAN_MS). */
  rescan(): Promise<void>;
  close(): void;
}

/**
 * Connects to every `mish serve` in the socket directory and to each new one as it appears;
 * `onServer` gets each connected server, `onGone` its id when its connection ends.
 */
export async function startDiscovery(options: {
  onServer: (server: WireServer) => void;
  onGone: (serverId: string) => void;
  dir?: string;
  /** Who decides, in servers' audit logs (default `console (<user>)`). */
  operatorName?: string;
  log?: (m: string) => void;
}): Promise<Discovery> {
  const dir = options.dir ?? operatorDir();
  const spool = await defaultSpoolLookup();
  const connected = new Map<string, WireServer>();
  /** Socket paths being connected or connected: never two connections to one server. */
  const known = new Set<string>();
  /** Sockets whose connection failed and was logged once. */
  const reported = new Set<string>();
  let closed = false;
  let watcher: FSWatcher | undefined;
  let settleTimer: NodeJS.Timeout | undefined;

  const rescan = async () => {
    if (closed) return;
    const now = Date.now();
    const found = discoverServers(dir).filter((s) => {
      if (s.pid === process.pid || known.has(s.path)) return false;
      const age = socketAge(s.path, now);
      if (age !== undefined && age < SOCKET_SETTLE_MS) {
        settleTimer ??= setTimeout(() => {
          settleTimer = undefined;
          void rescan();
        }, SOCKET_SETTLE_MS - age);
        return false;
      }
      return true;
    });
    await Promise.all(
      found.map(async (s) => {
        known.add(s.path);
        // approvals: true — while the console is connected, agents' escalations wait for its operator.
        const r = await OperatorClient.connect(s.path, { name: options.operatorName ?? consoleOperatorName(), role: 'console', approvals: true });
        if (!r.ok) {
          known.delete(s.path);
          // A server dying right now (its socket not yet removed) is retried quietly on each rescan.
          if (!reported.has(s.path)) options.log?.(`cannot connect to ${s.path}: ${r.error}`);
          reported.add(s.path);
          return;
        }
        reported.delete(s.path);
        if (closed) return r.client.close();
        const server = new WireServer(r.client, spool);
        connected.set(s.path, server);
        r.client.onClose(() => {
          connected.delete(s.path);
          known.delete(s.path);
          server.dispose();
          if (!closed) options.onGone(server.id);
        });
        options.onServer(server);
      }),
    );
  };

  // The directory may not exist before the first server: create it private, as servers do.
  const ready = ensurePrivateDir(dir);
  if (ready.ok) {
    try {
      watcher = watch(dir, () => void rescan());
      watcher.on('error', () => watcher?.close());
    } catch {
      // no watch here: the periodic rescan finds new servers
    }
  }
  const timer = setInterval(() => void rescan(), RESCAN_MS);
  timer.unref?.();
  await rescan();
  return {
    servers: () => [...connected.values()],
    rescan,
    close: () => {
      closed = true;
      clearInterval(timer);
      clearTimeout(settleTimer);
      watcher?.close();
      for (const s of connected.values()) s.dispose();
      connected.clear();
    },
  };
}

/** Milliseconds since the socket file was created (its ctime), if it can be read. */
function socketAge(path: string, now: number): number | undefined {
  try {
    return now - statSync(path).ctimeMs;
  } catch {
    return undefined;
  }
}

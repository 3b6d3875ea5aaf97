/**
 * Client library of the operator wire: discover every running `mish serve` of this user,
 * connect, send typed requests, receive validated events. Used by `mish approvals`,
 * `mish attach` and the console hub.
 */
import { statSync } from 'node:fs';
import net from 'node:net';
import {
  encodeFrame,
  OPERATOR_WIRE_VERSION,
  OUTPUT_ACK_EVERY,
  parseServerMessage,
  RECENT_COMMAND_MESSAGES,
  type ClientMessage,
  type ClientMessageOf,
  type ServerMessage,
  type ServerMessageOf,
  type ServerMessageType,
  type StreamRef,
} from '../../shared/operator-wire.js';
import { FrameReader } from './framing.js';
import { listServerSockets, operatorDir, pidAlive, removeQuietly } from './paths.js';
import { announceOperator } from './presence.js';

/** How long connecting to one server may take before it counts as gone (a live server answers at once). */
export const CONNECT_TIMEOUT_MS = 2_000;
/** How long a request waits for its reply. */
export const REQUEST_TIMEOUT_MS = 10_000;

export interface DiscoveredServer {
  pid: number;
  path: string;
}

/**
 * Running servers' sockets (stale ones of dead servers are removed on the way). Looking marks
 * this process as a running operator (presence.ts): short `mish <cmd>` runs then publish to it.
 */
export function discoverServers(dir = operatorDir()): DiscoveredServer[] {
  announceOperator(dir);
  return listServerSockets(dir);
}

export interface ConnectOptions {
  name: string;
  role: 'console' | 'approvals' | 'attach';
  approvals?: boolean;
  /** ms the server keeps our pending approvals for us after a dropped link (hello's `linger`). */
  linger?: number;
  timeoutMs?: number;
}

type Listener<T extends ServerMessageType> = (m: ServerMessageOf<T>) => void;

/** Requests that expect a reply (they carry a `rid`). */
type RequestType = 'hello' | 'subscribe' | 'approval-decide' | 'handoff-attach' | 'takeover' | 'handoff-return';
type WithoutRid<T extends RequestType> = Omit<ClientMessageOf<T>, 'rid'>;

export type Reply = { ok: true; result: unknown } | { ok: false; error: string };

export class OperatorClient {
  private nextRid = 1;
  private readonly pending = new Map<number, { resolve: (r: Reply) => void; timer: NodeJS.Timeout }>();
  private readonly listeners = new Map<string, Set<(m: ServerMessage) => void>>();
  private readonly received = new Map<string, number>();
  private closedFlag = false;
  private readonly closeListeners = new Set<() => void>();

  private constructor(
    private readonly socket: net.Socket,
    readonly hello: ServerMessageOf<'hello'>,
    readonly path: string,
  ) {}

  /** Connects, waits for the server's hello and sends ours. */
  static connect(path: string, options: ConnectOptions): Promise<{ ok: true; client: OperatorClient } | { ok: false; error: string }> {
    return new Promise((resolve) => {
      const socket = net.createConnection(path);
      let client: OperatorClient | undefined;
      let early: ServerMessage[] = [];
      const timer = setTimeout(() => finish({ ok: false, error: `${path}: no hello within ${options.timeoutMs ?? CONNECT_TIMEOUT_MS} ms` }), options.timeoutMs ?? CONNECT_TIMEOUT_MS);
      let done = false;
      /** A refused connect is being checked again (the error path finishes then). */
      let rechecking = false;
      const finish = (r: { ok: true; client: OperatorClient } | { ok: false; error: string }) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (!r.ok) socket.destroy();
        resolve(r);
      };
      const reader = new FrameReader((line) => {
        const parsed = parseServerMessage(line);
        if (!parsed.ok) return; // a frame of a newer server we do not know: ignored
        const m = parsed.value;
        if (!client) {
          if (m.type !== 'hello') {
            early.push(m);
            return;
          }
          const c = (client = new OperatorClient(socket, m, path));
          for (const e of early) c.dispatch(e);
          early = [];
          // Connected once the server has taken our hello: from then on an approver counts as attached.
          void c.request({ type: 'hello', wire: OPERATOR_WIRE_VERSION, name: options.name, role: options.role, ...(options.approvals ? { approvals: true } : {}), ...(options.linger ? { linger: options.linger } : {}) }).then((r) =>
            finish(r.ok ? { ok: true, client: c } : { ok: false, error: `${path}: hello refused: ${r.error}` }),
          );
          return;
        }
        client.dispatch(m);
      });
      socket.on('data', (chunk: Buffer) => reader.push(chunk));
      socket.on('error', (e) => {
        // Nobody listens: the socket file outlived its server (pid gone, or reused by another
        // program). A young file may be a server between bind and listen: that one is kept.
        if ((e as NodeJS.ErrnoException).code === 'ECONNREFUSED' && staleSocket(path)) removeQuietly(path);
        finish({ ok: false, error: `${path}: ${e.message}` });
      });
      socket.on('close', () => {
        if (!rechecking) finish({ ok: false, error: `${path}: closed before hello` });
        client?.onClosed();
      });
    });
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  /** Subscribes to one message type; returns the disposer. */
  on<T extends ServerMessageType>(type: T, listener: Listener<T>): () => void {
    let set = this.listeners.get(type);
    if (!set) this.listeners.set(type, (set = new Set()));
    const l = listener as (m: ServerMessage) => void;
    set.add(l);
    return () => set!.delete(l);
  }

  onClose(listener: () => void): () => void {
    if (this.closedFlag) {
      listener();
      return () => {};
    }
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** Sends a message that has no reply (ack, input, resize, unsubscribe). */
  send(message: ClientMessage): void {
    if (this.closedFlag || this.socket.destroyed) return;
    this.socket.write(encodeFrame(message));
  }

  /** Sends a request and resolves with the server's reply (or an error after REQUEST_TIMEOUT_MS / on close). */
  request<T extends RequestType>(message: WithoutRid<T> & { type: T }): Promise<Reply> {
    const rid = this.nextRid++;
    return new Promise((resolve) => {
      if (this.closedFlag) return resolve({ ok: false, error: 'connection closed' });
      const timer = setTimeout(() => {
        this.pending.delete(rid);
        resolve({ ok: false, error: `no reply within ${REQUEST_TIMEOUT_MS} ms` });
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(rid, { resolve, timer });
      this.send({ ...message, rid } as unknown as ClientMessage);
    });
  }

  /**
   * Counts output received for flow control: call with each output message you have consumed
   * (rendered); acks go out every OUTPUT_ACK_EVERY bytes.
   */
  consumed(stream: StreamRef, bytes: number): void {
    const key = `${stream.kind}:${stream.id}`;
    const n = (this.received.get(key) ?? 0) + bytes;
    if (n >= OUTPUT_ACK_EVERY) {
      this.send({ type: 'ack', stream, bytes: n });
      this.received.set(key, 0);
    } else this.received.set(key, n);
  }

  close(): void {
    this.socket.end();
    this.socket.destroy();
  }

  private dispatch(m: ServerMessage): void {
    this.keepHelloCurrent(m);
    if (m.type === 'reply') {
      const p = this.pending.get(m.rid);
      if (p) {
        this.pending.delete(m.rid);
        clearTimeout(p.timer);
        p.resolve(m.ok ? { ok: true, result: m.result } : { ok: false, error: m.error ?? 'failed' });
      }
    }
    for (const l of this.listeners.get(m.type) ?? []) l(m);
  }

  /**
   * Keeps `hello` a current snapshot: messages that arrive while our hello is in flight (before
   * anyone could subscribe) would otherwise be lost to a user that starts from `hello` — e.g. the
   * MCP client's name, or an approval requested in that moment.
   */
  private keepHelloCurrent(m: ServerMessage): void {
    const h = this.hello as ServerMessageOf<'hello'> | undefined;
    if (!h) return;
    switch (m.type) {
      case 'server':
        if (m.client) h.client = m.client;
        else delete h.client;
        return;
      case 'sessions':
        h.sessions = m.sessions;
        return;
      case 'approval-request':
        h.approvals = [...h.approvals.filter((a) => a.id !== m.approval.id), m.approval];
        return;
      case 'approval-resolved':
        h.approvals = h.approvals.filter((a) => a.id !== m.id);
        return;
      case 'handoff-request':
        h.handoffs = [...h.handoffs.filter((x) => x.id !== m.handoff.id), m.handoff];
        return;
      case 'handoff-state':
        h.handoffs = m.state === 'returned' || m.state === 'ended' ? h.handoffs.filter((x) => x.id !== m.id) : h.handoffs.map((x) => (x.id === m.id ? { ...x, state: m.state } : x));
        return;
      case 'command-start':
      case 'command-end':
      case 'condensed':
        // The timeline of a client that starts from `hello` (the server keeps the same messages).
        if (m.type !== 'condensed' || m.reply || m.final) h.recent = [...(h.recent ?? []), m].slice(-RECENT_COMMAND_MESSAGES);
        return;
      default:
        return;
    }
  }

  private onClosed(): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    for (const [, p] of this.pending) {
      clearTimeout(p.timer);
      p.resolve({ ok: false, error: 'connection closed' });
    }
    this.pending.clear();
    for (const l of this.closeListeners) l();
  }
}

/** Before a live pid's socket counts as stale after a refused connect (bind→listen is microseconds). */
const STALE_RECHECK_MS = 300;

/** True when connecting to `path` is refused again after STALE_RECHECK_MS. */
function stillRefused(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    setTimeout(() => {
      const probe = net.createConnection(path);
      probe.on('connect', () => {
        probe.destroy();
        resolve(false);
      });
      probe.on('error', (e) => resolve((e as NodeJS.ErrnoException).code === 'ECONNREFUSED'));
    }, STALE_RECHECK_MS);
  });
}

/** Connects to every discovered server; those that do not answer are reported, not fatal. */
export async function connectAll(options: ConnectOptions, dir = operatorDir()): Promise<{ clients: OperatorClient[]; errors: string[] }> {
  const results = await Promise.all(discoverServers(dir).map((s) => OperatorClient.connect(s.path, options)));
  const clients: OperatorClient[] = [];
  const errors: string[] = [];
  for (const r of results) (r.ok ? clients.push(r.client) : errors.push(r.error));
  return { clients, errors };
}

/** A refused socket younger than this may belong to a server still starting (bind before listen). */
const STARTING_SOCKET_MS = 5_000;

/** Is a refused `<pid>.sock` left over: its pid is gone, or it is too old to be a server starting up? */
function staleSocket(path: string): boolean {
  const pid = Number(/(\d+)\.sock$/.exec(path)?.[1]);
  if (pid > 0) {
    try {
      process.kill(pid, 0);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ESRCH') return true;
    }
  }
  try {
    return Date.now() - statSync(path).mtimeMs > STARTING_SOCKET_MS;
  } catch {
    return false;
  }
}

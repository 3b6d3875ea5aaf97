/**
 * The console's transport-agnostic half: turns the session manager's event stream into the
 * contract's events for each connected view, and answers the contract's requests. The
 * Electron host (IPC) and the web host (WebSocket) both wrap one ConsoleService; neither
 * holds logic of its own.
 */
import {
  parseParams,
  type EventName,
  type EventPayload,
  type RequestName,
  type RequestResult,
  type SessionInfo,
} from '../../shared/contract.js';
import type { SessionInfo as CoreSessionInfo, SessionManager, SessionEvent } from '../core/session/types.js';
import type { GrammarRequestName, GrammarService } from './grammar-service.js';

/** What the console needs from the engine: a snapshot and the live event stream. */
export type ConsoleSessionSource = Pick<SessionManager, 'list' | 'subscribe'>;

/** Scrollback a newly opened view receives: ~2,000 wide lines, far below what xterm keeps. */
const BACKLOG_BYTES = 256 * 1024;
/** Output batching like Hyper: one message per 16 ms (a frame) instead of one per PTY read. */
const BATCH_INTERVAL_MS = 16;
/** ... or sooner when a batch grows this large, so a flood does not build one huge message. */
const BATCH_MAX_BYTES = 200 * 1024;

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

interface SessionStream {
  /** Recent output, oldest first; total length bounded by BACKLOG_BYTES (+ one chunk). */
  backlog: Buffer[];
  backlogBytes: number;
  /** Bytes of output seen since the session started (the offset of the next byte). */
  offset: number;
  pending: Buffer[];
  pendingBytes: number;
  pendingOffset: number;
  timer?: NodeJS.Timeout;
  subscribers: Set<ConsoleClient>;
}

export class ConsoleService {
  private readonly streams = new Map<string, SessionStream>();
  private readonly clients = new Set<ConsoleClient>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly source: ConsoleSessionSource,
    /** Answers the grammar editor's `grammar:*` requests (grammar-service.ts). */
    private readonly grammar?: GrammarService,
  ) {
    this.unsubscribe = source.subscribe((event) => this.onEvent(event));
  }

  /** Registers a view; every view gets `sessions:changed`, output only for subscribed sessions. */
  connect(client: ConsoleClient): ConsoleConnection {
    this.clients.add(client);
    const subscribed = new Set<string>();
    return {
      handle: async (method, params) => {
        if (method.startsWith('grammar:')) {
          return this.grammar ? this.grammar.handle(method as GrammarRequestName, params) : { ok: false, error: `${method}: the grammar editor is not available here` };
        }
        try {
          return { ok: true, result: this.request(client, subscribed, method, params) };
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

  /** The sessions as the contract shows them. */
  sessions(): SessionInfo[] {
    return this.source.list().map(toContractSession);
  }

  dispose(): void {
    this.unsubscribe();
    for (const s of this.streams.values()) clearTimeout(s.timer);
    this.streams.clear();
    this.clients.clear();
  }

  private request(client: ConsoleClient, subscribed: Set<string>, method: RequestName, params: unknown): unknown {
    switch (method) {
      case 'sessions:list': {
        unwrap(parseParams(method, params));
        return { sessions: this.sessions() } satisfies RequestResult<'sessions:list'>;
      }
      case 'session:subscribe': {
        const { sessionId } = unwrap(parseParams(method, params));
        if (!this.source.list().some((s) => s.name === sessionId)) throw new RequestError(`session:subscribe: no session named "${sessionId}"`);
        const stream = this.stream(sessionId);
        // Deliver what is batched to the existing views first, so the backlog below ends
        // exactly where this view's first event will start.
        this.flush(sessionId, stream);
        stream.subscribers.add(client);
        subscribed.add(sessionId);
        const backlog = Buffer.concat(stream.backlog);
        return { backlog: backlog.toString('base64'), offset: stream.offset } satisfies RequestResult<'session:subscribe'>;
      }
      case 'session:unsubscribe': {
        const { sessionId } = unwrap(parseParams(method, params));
        this.streams.get(sessionId)?.subscribers.delete(client);
        subscribed.delete(sessionId);
        return {} satisfies RequestResult<'session:unsubscribe'>;
      }
      default:
        throw new RequestError(`unknown request "${String(method)}"`);
    }
  }

  private stream(sessionId: string): SessionStream {
    let s = this.streams.get(sessionId);
    if (!s) {
      s = { backlog: [], backlogBytes: 0, offset: 0, pending: [], pendingBytes: 0, pendingOffset: 0, subscribers: new Set() };
      this.streams.set(sessionId, s);
    }
    return s;
  }

  private onEvent(event: SessionEvent): void {
    switch (event.type) {
      case 'raw': {
        // Only a session's own commands are its terminal; a background process (sh_spawn) has a
        // PTY of its own even when it was started "in" a session, and must not interleave here.
        const id = event.source.kind === 'command' ? event.source.session : undefined;
        if (!id) return;
        this.output(id, event.chunk);
        return;
      }
      case 'command-start':
        this.flushIfAny(event.session);
        this.broadcast('session:command-start', { sessionId: event.session, commandId: event.id, command: event.command, startedAt: event.at });
        this.sessionsChanged();
        return;
      case 'command-end':
        // Output first, then the end: a view must never see "exit 0" before the last bytes.
        this.flushIfAny(event.session);
        this.broadcast('session:command-end', { sessionId: event.session, commandId: event.id, exitCode: event.exitCode, durationMs: event.durationMs });
        this.sessionsChanged();
        return;
      case 'session-created':
        this.sessionsChanged();
        return;
      case 'session-closed': {
        const s = this.streams.get(event.session);
        if (s) {
          this.flush(event.session, s);
          // A restarted shell under the same name is a new terminal with offsets from zero;
          // views see the change in `sessions:changed` and subscribe again.
          clearTimeout(s.timer);
          this.streams.delete(event.session);
        }
        this.sessionsChanged();
        return;
      }
      default:
        return;
    }
  }

  private output(sessionId: string, chunk: Uint8Array): void {
    const s = this.stream(sessionId);
    const buf = Buffer.from(chunk); // copy: the producer may reuse its buffer
    s.backlog.push(buf);
    s.backlogBytes += buf.length;
    while (s.backlogBytes - (s.backlog[0]?.length ?? 0) >= BACKLOG_BYTES && s.backlog.length > 1) {
      s.backlogBytes -= s.backlog.shift()!.length;
    }
    if (s.pendingBytes === 0) s.pendingOffset = s.offset;
    s.offset += buf.length;
    if (s.subscribers.size === 0) return;
    s.pending.push(buf);
    s.pendingBytes += buf.length;
    if (s.pendingBytes >= BATCH_MAX_BYTES) this.flush(sessionId, s);
    else s.timer ??= setTimeout(() => this.flush(sessionId, s), BATCH_INTERVAL_MS);
  }

  private flushIfAny(sessionId: string): void {
    const s = this.streams.get(sessionId);
    if (s) this.flush(sessionId, s);
  }

  private flush(sessionId: string, s: SessionStream): void {
    clearTimeout(s.timer);
    s.timer = undefined;
    if (s.pendingBytes === 0) return;
    const data = Buffer.concat(s.pending).toString('base64');
    const offset = s.pendingOffset;
    s.pending = [];
    s.pendingBytes = 0;
    for (const c of s.subscribers) c.send('session:output', { sessionId, data, offset });
  }

  private sessionsChanged(): void {
    this.broadcast('sessions:changed', { sessions: this.sessions() });
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

/** The engine's session snapshot in the contract's terms (sessions are identified by name). */
export function toContractSession(s: CoreSessionInfo): SessionInfo {
  const state = s.state === 'busy' ? 'running' : s.state === 'closed' ? 'exited' : s.state;
  return { id: s.name, name: s.name, shell: s.shell, cwd: s.cwd, state, pid: s.pid };
}

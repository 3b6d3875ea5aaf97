/**
 * The console as an operator of one server: pending approvals and live handoffs as the server
 * reports them on the operator wire, and the actions (decide, take over, type, hand back). Used
 * over a socket for each `mish serve` (wire-server.ts) and in-process for the console's own
 * engine (agents connected by URL).
 */
import {
  AttachResultSchema,
  TakeoverResultSchema,
  type ApprovalDecisionKind,
  type ApprovalRequest,
  type ClientMessage,
  type Handoff,
  type ServerMessageOf,
  type ServerMessageType,
} from '../../shared/operator-wire.js';
import type { OperatorHost } from '../operator/operator-host.js';
import type { HubEvent, HubOperator } from './hub-types.js';

type Reply = { ok: true; result: unknown } | { ok: false; error: string };
type RequestType = 'subscribe' | 'approval-decide' | 'handoff-attach' | 'takeover' | 'handoff-return';

/** What the tracker needs of a connection to a server (OperatorClient fits). */
export interface OperatorIo {
  readonly hello: Pick<ServerMessageOf<'hello'>, 'approvals' | 'handoffs'>;
  on<T extends ServerMessageType>(type: T, listener: (m: ServerMessageOf<T>) => void): () => void;
  request(message: { type: RequestType } & Record<string, unknown>): Promise<Reply>;
  send(message: ClientMessage): void;
}

/** An approval the server resolved, with what it was (the wire's approval-resolved names only its id). */
export type ResolvedApproval = Extract<HubEvent, { type: 'approval-resolved' }>;

export function trackOperator(io: OperatorIo, changed: () => void, resolved?: (r: ResolvedApproval) => void): { operator: HubOperator; dispose: () => void } {
  const approvals = new Map<string, ApprovalRequest>();
  /** Live handoffs, by id; `mine` once this console attached; one it held stays with its summary until the session's next. */
  const handoffs = new Map<string, Handoff & { mine: boolean; summary?: string }>();
  for (const a of io.hello.approvals) approvals.set(a.id, a);
  for (const h of io.hello.handoffs) if (h.state === 'pending' || h.state === 'attached') handoffs.set(h.id, { ...h, mine: false });
  const offs = [
    io.on('approval-request', (m) => {
      approvals.set(m.approval.id, m.approval);
      changed();
    }),
    io.on('approval-resolved', (m) => {
      const a = approvals.get(m.id);
      if (!a) return;
      approvals.delete(m.id);
      resolved?.({ type: 'approval-resolved', approval: a, outcome: m.outcome, ...(m.by ? { by: m.by } : {}), ...(m.command ? { command: m.command } : {}), at: Date.now() });
      changed();
    }),
    io.on('handoff-request', (m) => {
      for (const [id, h] of handoffs) if (h.session === m.handoff.session && (h.state === 'returned' || h.state === 'ended')) handoffs.delete(id);
      handoffs.set(m.handoff.id, { ...m.handoff, mine: false });
      changed();
    }),
    io.on('handoff-state', (m) => {
      const h = handoffs.get(m.id);
      if (m.state === 'returned' || m.state === 'ended') {
        if (h?.mine) handoffs.set(m.id, { ...h, state: m.state, ...(m.summary ? { summary: m.summary } : {}) });
        else handoffs.delete(m.id);
      } else if (h) handoffs.set(m.id, { ...h, state: m.state });
      changed();
    }),
  ];
  const operator: HubOperator = {
    approvals: () => [...approvals.values()],
    handoffs: () => [...handoffs.values()],
    decide: async (id: string, decision: ApprovalDecisionKind, command?: string) => {
      const r = await io.request({ type: 'approval-decide', id, decision, ...(command ? { command } : {}) });
      return r.ok ? { ok: true as const } : { ok: false as const, error: r.error };
    },
    take: async (target: { handoffId?: string; session?: string }) => {
      let id = target.handoffId;
      if (!id) {
        const t = await io.request({ type: 'takeover', session: target.session ?? '' });
        if (!t.ok) return { ok: false as const, error: t.error };
        const parsed = TakeoverResultSchema.safeParse(t.result);
        if (!parsed.success) return { ok: false as const, error: 'malformed takeover reply' };
        id = parsed.data.handoff.id;
        handoffs.set(id, { ...parsed.data.handoff, mine: false });
      }
      const r = await io.request({ type: 'handoff-attach', id });
      if (!r.ok) return { ok: false as const, error: r.error };
      const parsed = AttachResultSchema.safeParse(r.result);
      if (!parsed.success) return { ok: false as const, error: 'malformed attach reply' };
      handoffs.set(id, { ...parsed.data.handoff, mine: true });
      changed();
      return { ok: true as const, handoff: parsed.data.handoff };
    },
    // Typed bytes go to the server and nowhere else: never logged, never kept here.
    input: (handoffId: string, data: string) => io.send({ type: 'input', handoffId, data: Buffer.from(data, 'utf8').toString('base64') }),
    giveBack: async (handoffId: string) => {
      const r = await io.request({ type: 'handoff-return', id: handoffId });
      if (!r.ok) return { ok: false as const, error: r.error };
      const summary = (r.result as { summary?: string } | undefined)?.summary;
      const h = handoffs.get(handoffId);
      if (h) handoffs.set(handoffId, { ...h, state: 'returned', ...(summary ? { summary } : {}) });
      changed();
      return { ok: true as const, summary: summary ?? 'handed back' };
    },
  };
  return { operator, dispose: () => offs.forEach((off) => off()) };
}

/**
 * The console's own engine as an operator connection without a socket: an in-process peer of
 * its OperatorHost that decides approvals (agents connected by URL wait for the console too).
 */
/**
 * `printed`: a running background process printed (the host reports that at most once a second,
 * operator-host.ts PROCESS_REFRESH_MS), so a list can show its last line.
 */
export function inProcessOperator(host: OperatorHost, name: string, changed: () => void, printed?: () => void, resolved?: (r: ResolvedApproval) => void): { operator: HubOperator; dispose: () => void } {
  const listeners = new Map<string, Set<(m: never) => void>>();
  const pending = new Map<number, (r: Reply) => void>();
  let nextRid = 1;
  let hello: ServerMessageOf<'hello'> | undefined;
  const conn = host.connect({
    send: (m) => {
      if (m.type === 'hello') hello = m;
      if (m.type === 'reply') {
        const p = pending.get(m.rid);
        pending.delete(m.rid);
        p?.(m.ok ? { ok: true, result: m.result } : { ok: false, error: m.error ?? 'failed' });
      }
      // Delivered after the current call returns, as a socket would: never re-entrant into the host.
      queueMicrotask(() => listeners.get(m.type)?.forEach((l) => (l as (x: typeof m) => void)(m)));
    },
    close: () => {},
  });
  const io: OperatorIo = {
    get hello() {
      return hello ?? { approvals: [], handoffs: [] };
    },
    on: (type, l) => {
      let set = listeners.get(type);
      if (!set) listeners.set(type, (set = new Set()));
      set.add(l as (m: never) => void);
      return () => void set!.delete(l as (m: never) => void);
    },
    request: (message) =>
      new Promise<Reply>((resolve) => {
        const rid = nextRid++;
        pending.set(rid, resolve);
        conn.receive({ ...message, rid } as unknown as ClientMessage);
      }),
    send: (m) => conn.receive(m),
  };
  conn.receive({ type: 'hello', wire: 1, name, role: 'console', approvals: true });
  const tracked = trackOperator(io, changed, resolved);
  const offPrinted = printed ? io.on('process', (m) => m.change === 'updated' && m.process.kind === 'spawn' && m.process.state === 'running' && printed()) : () => {};
  return {
    operator: tracked.operator,
    dispose: () => {
      offPrinted();
      tracked.dispose();
      conn.closed();
    },
  };
}

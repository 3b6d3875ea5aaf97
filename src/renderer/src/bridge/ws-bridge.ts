/**
 * The console bridge over a WebSocket (browser mode): the same ConsoleBridge the Electron
 * preload exposes, spoken as JSON frames to src/main/console/web-host.ts.
 */
import {
  EVENT_METHODS,
  REQUEST_METHODS,
  ServerFrameSchema,
  parseEvent,
  requestSchemas,
  type ClientFrame,
  type ConsoleBridge,
  type EventName,
  type RequestName,
} from '../../../shared/contract.js';

export type ConnectionState = 'connecting' | 'open' | 'closed';

interface Pending {
  name: RequestName;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

/** Reconnect delays after a dropped connection: doubling from this … */
const RECONNECT_FIRST_MS = 250;
/** … up to this. */
const RECONNECT_MAX_MS = 5_000;

/**
 * Connects to `url` (ws://127.0.0.1:PORT/ws, the token in `protocols`); `onState` reports the connection. A
 * dropped connection is retried ("reconnecting…"); once it is back, `onState('open')` fires
 * again and the app takes a fresh snapshot and re-subscribes its views (whose backlogs fill
 * what was missed, within their bound).
 */
export function createWebSocketBridge(url: string, onState: (s: ConnectionState, reason?: string) => void, protocols: string[] = []): ConsoleBridge {
  let ws: WebSocket;
  const pending = new Map<number, Pending>();
  const listeners = new Map<EventName, Set<(p: unknown) => void>>();
  const queue: string[] = [];
  let nextId = 1;
  let delay = RECONNECT_FIRST_MS;

  const open = () => {
    ws = new WebSocket(url, protocols);
    ws.addEventListener('open', () => {
      delay = RECONNECT_FIRST_MS;
      onState('open');
      for (const f of queue.splice(0)) ws.send(f);
    });
    ws.addEventListener('close', (e) => {
      for (const p of pending.values()) p.reject(new Error('console connection closed'));
      pending.clear();
      // 1008/4xx-like refusals (bad token) will not get better by retrying.
      if (e.code === 1008) return onState('closed', e.reason || `connection refused (${e.code})`);
      onState('connecting', `reconnecting… (${e.reason || `closed, code ${e.code}`})`);
      setTimeout(open, delay);
      delay = Math.min(delay * 2, RECONNECT_MAX_MS);
    });
    ws.addEventListener('message', onMessage);
  };

  onState('connecting');
  const onMessage = (e: MessageEvent) => {
    let json: unknown;
    try {
      json = JSON.parse(String(e.data));
    } catch {
      return;
    }
    const frame = ServerFrameSchema.safeParse(json);
    if (!frame.success) return console.warn('mish console: bad frame from server', json);
    const f = frame.data;
    if ('event' in f) {
      const parsed = parseEvent(f.event, f.payload);
      if (!parsed.ok) return console.warn('mish console:', parsed.error);
      for (const l of listeners.get(f.event) ?? []) l(parsed.value);
      return;
    }
    const p = pending.get(f.id);
    if (!p) return;
    pending.delete(f.id);
    if ('error' in f) return p.reject(new Error(f.error.message));
    const result = requestSchemas[p.name].result.safeParse(f.result);
    if (result.success) p.resolve(result.data);
    else p.reject(new Error(`${p.name}: malformed result from server`));
  };
  open();

  const request = (name: RequestName, params: unknown) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { name, resolve, reject });
      const frame = JSON.stringify({ id, method: name, params } satisfies ClientFrame);
      if (ws.readyState === WebSocket.OPEN) ws.send(frame);
      else queue.push(frame);
    });

  const subscribe = (name: EventName, listener: (p: unknown) => void) => {
    let set = listeners.get(name);
    if (!set) listeners.set(name, (set = new Set()));
    set.add(listener);
    return () => void set.delete(listener);
  };

  const bridge: Record<string, unknown> = {};
  for (const [method, name] of Object.entries(REQUEST_METHODS)) bridge[method] = (params: unknown) => request(name, params);
  for (const [method, name] of Object.entries(EVENT_METHODS)) bridge[method] = (listener: (p: unknown) => void) => subscribe(name, listener);
  return bridge as ConsoleBridge;
}

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

export * from './channels.js';

export const SessionStateSchema = z.enum(['starting', 'idle', 'running', 'exited']);
export type SessionState = z.infer<typeof SessionStateSchema>;

/** What the console shows about a session. */
export const SessionInfoSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  /** Shell executable (`/bin/bash`). */
  shell: z.string(),
  cwd: z.string().optional(),
  state: SessionStateSchema,
  pid: z.number().int().optional(),
  /** The command running now, when state is `running`. */
  command: z.string().optional(),
});
export type SessionInfo = z.infer<typeof SessionInfoSchema>;

const SessionRef = z.object({ sessionId: z.string().min(1) });

/** Schemas of every request: params in, result out. */
export const requestSchemas = {
  'sessions:list': {
    params: z.object({}),
    result: z.object({ sessions: z.array(SessionInfoSchema) }),
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
} as const satisfies Record<RequestName, { params: z.ZodType; result: z.ZodType }>;

/** Schemas of every event payload. */
export const eventSchemas = {
  'sessions:changed': z.object({ sessions: z.array(SessionInfoSchema) }),
  'session:output': z.object({
    sessionId: z.string(),
    /** Base64 of raw PTY bytes. */
    data: z.string(),
    /** Byte offset of this chunk in the session's output stream (lets a view drop overlap with its backlog). */
    offset: z.number().int().nonnegative(),
  }),
  'session:command-start': z.object({
    sessionId: z.string(),
    commandId: z.string(),
    command: z.string(),
    startedAt: z.number(),
  }),
  'session:command-end': z.object({
    sessionId: z.string(),
    commandId: z.string(),
    exitCode: z.number().int(),
    durationMs: z.number().nonnegative(),
  }),
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

/**
 * MCP over Streamable HTTP, for clients that cannot spawn a process. Loopback only: a shell
 * server must never listen on a network interface. Every request must carry the bearer token,
 * and Host/Origin are checked against DNS rebinding (a web page on evil.com resolving to
 * 127.0.0.1 sends `Host: evil.com` and `Origin: http://evil.com`).
 *
 * One McpServer (and SDK transport) per MCP session, all sharing the same deps, so every client
 * sees the same shell sessions and process table.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomBytes, randomUUID, timingSafeEqual, createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** The endpoint path (the MCP spec's conventional "/mcp"). */
export const MCP_PATH = '/mcp';
/** Request bodies above this are refused: tool arguments are small, and the server must not buffer without bound. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

export interface HttpOptions {
  host: string;
  port: number;
  /** Bearer token every request must carry; null disables auth (only with an explicit --no-auth). */
  token: string | null;
  /** Builds the MCP server of a new session. */
  newServer: () => McpServer;
  log: (message: string) => void;
}

export interface HttpHandle {
  url: string;
  port: number;
  close(): Promise<void>;
}

export type ListenError = { kind: 'not-loopback' | 'listen-failed'; message: string };

/** Parses `[HOST:]PORT` (`3000`, `127.0.0.1:3000`, `[::1]:3000`, `localhost:0`). */
export function parseHostPort(spec: string): { host: string; port: number } | { error: string } {
  const m = /^(?:(\[[0-9a-fA-F:.]+\]|[^:[\]]+):)?(\d{1,5})$/.exec(spec.trim());
  if (!m) return { error: `--http expects [HOST:]PORT, e.g. 8765 or 127.0.0.1:8765; got "${spec}"` };
  const port = Number(m[2]);
  if (port > 65535) return { error: `port ${port} is out of range (0-65535)` };
  const host = (m[1] ?? '127.0.0.1').replace(/^\[|\]$/g, '');
  return { host, port };
}

/** True for hosts that only ever mean this machine. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || h === '0:0:0:0:0:0:0:1';
  return false;
}

/** A random token for the session of `mish serve --http` when none is given. */
export function generateToken(): string {
  return randomBytes(24).toString('base64url');
}

function tokensEqual(a: string, b: string): boolean {
  // Hash first so the comparison is constant-time whatever the lengths.
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

export async function startHttp(options: HttpOptions): Promise<{ ok: true; value: HttpHandle } | { ok: false; error: ListenError }> {
  if (!isLoopbackHost(options.host)) {
    return {
      ok: false,
      error: { kind: 'not-loopback', message: `refusing to listen on ${options.host}: mish serve --http binds loopback only (127.0.0.1, ::1, localhost); use an SSH tunnel to reach it from elsewhere` },
    };
  }
  const sessions = new Map<string, { transport: StreamableHTTPServerTransport; server: McpServer }>();
  let port = options.port;
  const allowedHost = (h: string) => {
    const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(h);
    return !!m && isLoopbackHost(m[1].replace(/^\[|\]$/g, '')) && (m[2] === undefined || Number(m[2]) === port);
  };
  const allowedOrigin = (o: string) => {
    try {
      const u = new URL(o);
      return (u.protocol === 'http:' || u.protocol === 'https:') && isLoopbackHost(u.hostname.replace(/^\[|\]$/g, ''));
    } catch {
      return false;
    }
  };

  const jsonRpcError = (res: ServerResponse, id: string | number | null, code: number, message: string) => {
    res.writeHead(400, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }));
  };

  const fail = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) => {
    if (res.headersSent) return res.end();
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const host = req.headers.host ?? '';
    if (!allowedHost(host)) return fail(res, 403, `Forbidden: Host "${host}" is not this loopback server (DNS rebinding protection)`);
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigin(origin)) return fail(res, 403, `Forbidden: Origin "${origin}" is not allowed (DNS rebinding protection)`);
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== MCP_PATH) return fail(res, 404, `Not found: the MCP endpoint is ${MCP_PATH}`);
    if (options.token !== null) {
      const auth = req.headers.authorization ?? '';
      const m = /^Bearer\s+(.+)$/i.exec(auth);
      if (!m || !tokensEqual(m[1].trim(), options.token)) {
        return fail(res, 401, 'Unauthorized: send "Authorization: Bearer <token>" (printed by mish serve --http, or set with --token / MISH_TOKEN)', {
          'www-authenticate': 'Bearer realm="mish"',
        });
      }
    }

    let body: unknown;
    if (req.method === 'POST') {
      const read = await readBody(req);
      if (read.error !== undefined) return fail(res, read.status, read.error);
      try {
        body = JSON.parse(read.text);
      } catch (e) {
        return jsonRpcError(res, null, PARSE_ERROR, `Parse error: ${(e as Error).message}`);
      }
      // Valid JSON that is not JSON-RPC is an Invalid Request (JSON-RPC 2.0 §5.1), with the id
      // when one can be read — as over stdio; the SDK would call it a parse error.
      const messages = Array.isArray(body) ? body : [body];
      const bad = messages.length === 0 ? null : messages.find((m) => !JSONRPCMessageSchema.safeParse(m).success);
      if (bad !== undefined) {
        const id = bad && typeof bad === 'object' && 'id' in bad && (typeof bad.id === 'string' || typeof bad.id === 'number') && !Array.isArray(body) ? bad.id : null;
        return jsonRpcError(res, id, INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 request, notification or response');
      }
    }

    const sid = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(sid) ? sid[0] : sid;
    if (sessionId) {
      const s = sessions.get(sessionId);
      if (!s) return fail(res, 404, 'Session not found: initialize a new MCP session');
      return s.transport.handleRequest(req, res, body);
    }
    if (req.method === 'POST' && isInitializeRequest(body)) {
      const server = options.newServer();
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, { transport, server }),
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
        void server.close().catch(() => {});
      };
      await server.connect(transport);
      return transport.handleRequest(req, res, body);
    }
    return fail(res, 400, 'Bad Request: no valid mcp-session-id; start with an initialize request');
  };

  const http: Server = createHttpServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      options.log(`http: ${(e as Error).stack ?? String(e)}`);
      fail(res, 500, `Internal error: ${(e as Error).message}`);
    });
  });
  const listened = await new Promise<ListenError | undefined>((resolve) => {
    http.once('error', (e) => resolve({ kind: 'listen-failed', message: `cannot listen on ${options.host}:${options.port}: ${(e as Error).message}` }));
    http.listen(options.port, options.host, () => resolve(undefined));
  });
  if (listened) return { ok: false, error: listened };
  const addr = http.address();
  port = typeof addr === 'object' && addr ? addr.port : options.port;
  const hostInUrl = isIP(options.host) === 6 ? `[${options.host}]` : options.host;
  return {
    ok: true,
    value: {
      url: `http://${hostInUrl}:${port}${MCP_PATH}`,
      port,
      async close() {
        for (const { transport, server } of sessions.values()) {
          await transport.close().catch(() => {});
          await server.close().catch(() => {});
        }
        sessions.clear();
        http.closeAllConnections();
        await new Promise<void>((resolve) => http.close(() => resolve()));
      },
    },
  };
}

async function readBody(req: IncomingMessage): Promise<{ text: string; error?: undefined } | { error: string; status: number }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return { error: `Payload too large: requests are limited to ${MAX_BODY_BYTES} bytes`, status: 413 };
    chunks.push(chunk as Buffer);
  }
  return { text: Buffer.concat(chunks).toString('utf8') };
}

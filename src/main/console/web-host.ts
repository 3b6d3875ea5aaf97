/**
 * Browser mode of the operator console: serves the built renderer (out/renderer) and one
 * WebSocket endpoint carrying the contract, on 127.0.0.1 only. A phone reaches it through the
 * user's own tunnel (an SSH port forward, Tailscale…), never through a port opened here.
 *
 * Access needs the random token. It travels in the URL's fragment (`/#token=…`), which browsers
 * never send to a server nor in a Referer, and from the page on the WebSocket upgrade only, as a
 * subprotocol (`mish-token.<token>`) — never in a request's query. The page itself (public
 * code, no data) is served without it. The Host header must be a loopback name (any port: a
 * forwarded port differs) and a browser's Origin must be that same host, so a web page the
 * operator has open elsewhere cannot reach it (DNS rebinding, cross-site WebSocket hijacking).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { ClientFrameSchema, type EventName, type EventPayload, type ServerFrame } from '../../shared/contract.js';
import type { ConsoleService } from './console-service.js';

/** Bytes of randomness in the access token (URL-safe base64 → 32 characters). */
const TOKEN_BYTES = 24;
/** A view that stops reading (tab asleep) must not grow our memory without bound: drop it. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
/** Requests are tiny; anything bigger is not from our renderer. */
const MAX_FRAME_BYTES = 64 * 1024;
/** The WebSocket subprotocol the page speaks (the server selects it) … */
export const WS_PROTOCOL = 'mish.v1';
/** … and the prefix of the one that carries the token. */
export const WS_TOKEN_PREFIX = 'mish-token.';
/** Host names that are this machine (a browser reaching the console directly or through a forwarded port). */
const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\]):\d{1,5}$/;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export interface WebHostOptions {
  service: ConsoleService;
  /** Directory with the built renderer (index.html + assets/). */
  rendererDir: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Fixed token (tests); default random. */
  token?: string;
}

export interface WebHost {
  /** `http://127.0.0.1:PORT/#token=…` — what the operator opens (the token stays in the browser). */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export type WebHostError = { kind: 'listen-failed'; message: string } | { kind: 'no-renderer'; message: string };

/** Starts the web host; errors as values (port in use, renderer not built). */
export async function startWebHost(options: WebHostOptions): Promise<{ ok: true; value: WebHost } | { ok: false; error: WebHostError }> {
  const rendererDir = path.resolve(options.rendererDir);
  try {
    await readFile(path.join(rendererDir, 'index.html'));
  } catch {
    return { ok: false, error: { kind: 'no-renderer', message: `the console UI is not built (${rendererDir}/index.html missing): in a checkout of mish run \`npm run build:electron\`; an installed mish ships it built, so reinstall it` } };
  }
  const token = options.token ?? randomBytes(TOKEN_BYTES).toString('base64url');
  let port = 0;
  const hostOk = (req: IncomingMessage) => LOOPBACK_HOST.test(req.headers.host ?? '');
  const same = (given: string) => given.length === token.length && timingSafeEqual(Buffer.from(given), Buffer.from(token));
  /** An old-style link (`/?token=…`): checked once, then moved into the fragment. */
  const queryToken = (req: IncomingMessage) => new URL(req.url ?? '/', 'http://x').searchParams.get('token');
  const protocolToken = (req: IncomingMessage) =>
    String(req.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((p) => p.trim())
      .find((p) => p.startsWith(WS_TOKEN_PREFIX))
      ?.slice(WS_TOKEN_PREFIX.length) ?? '';

  const server = createServer((req, res) => {
    if (!hostOk(req)) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('mish console: unexpected Host header\n');
      return;
    }
    const q = queryToken(req);
    if (q !== null) {
      if (!same(q)) {
        res.writeHead(403, { 'content-type': 'text/plain' }).end('mish console: wrong token; open the URL printed by `mish console`\n');
        return;
      }
      // Into the fragment: the browser keeps it, no request carries it again.
      res.writeHead(303, { location: `/#token=${token}`, 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' }).end();
      return;
    }
    void serveFile(req, res, rendererDir, port);
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES, handleProtocols: (protocols) => (protocols.has(WS_PROTOCOL) ? WS_PROTOCOL : false) });
  server.on('upgrade', (req, socket, head) => {
    const origin = req.headers.origin;
    // Browsers always send Origin on a WebSocket; it must be this very host (the page we served).
    const originOk = origin === undefined || origin === `http://${req.headers.host}`;
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/ws' || !hostOk(req) || !same(protocolToken(req)) || !originOk) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => attach(ws, options.service));
  });

  const listened = await new Promise<{ ok: true } | { ok: false; message: string }>((resolve) => {
    server.once('error', (err) => resolve({ ok: false, message: err.message }));
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve({ ok: true }));
  });
  if (!listened.ok) return { ok: false, error: { kind: 'listen-failed', message: `cannot listen on 127.0.0.1:${options.port ?? 0}: ${listened.message}` } };
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;

  return {
    ok: true,
    value: {
      url: `http://127.0.0.1:${port}/#token=${token}`,
      port,
      close: async () => {
        for (const ws of wss.clients) ws.terminate();
        await new Promise<void>((resolve) => wss.close(() => resolve()));
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    },
  };
}

function attach(ws: WebSocket, service: ConsoleService): void {
  const sendFrame = (frame: ServerFrame) => {
    if (ws.readyState !== ws.OPEN) return;
    if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      ws.close(1013, 'view too slow; reload to reconnect');
      return;
    }
    ws.send(JSON.stringify(frame));
  };
  const connection = service.connect({
    send<E extends EventName>(event: E, payload: EventPayload<E>) {
      sendFrame({ event, payload });
    },
  });
  ws.on('message', (data, isBinary) => {
    if (isBinary) return;
    let json: unknown;
    try {
      json = JSON.parse(data.toString());
    } catch {
      return; // not ours; no id to answer to
    }
    const frame = ClientFrameSchema.safeParse(json);
    if (!frame.success) {
      const id = typeof (json as { id?: unknown })?.id === 'number' ? (json as { id: number }).id : -1;
      sendFrame({ id, error: { message: 'bad request frame: expected {id, method, params}' } });
      return;
    }
    const { id, method, params } = frame.data;
    void connection.handle(method, params).then((r) => sendFrame(r.ok ? { id, result: r.result } : { id, error: { message: r.error } }));
  });
  ws.on('close', () => connection.dispose());
  ws.on('error', () => connection.dispose());
}

/** CSP of the browser page (the WebSocket origin is appended per host). */
const WEB_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; connect-src 'self'";

async function serveFile(req: IncomingMessage, res: ServerResponse, root: string, port: number): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405).end();
    return;
  }
  const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  // The page and its assets are public code and hold no data: everything comes over the
  // WebSocket, which needs the token.
  const isPage = pathname === '/' || pathname === '/index.html';
  const file = path.resolve(root, '.' + (isPage ? '/index.html' : pathname));
  if (!file.startsWith(root + path.sep)) {
    res.writeHead(404).end();
    return;
  }
  try {
    const body = await readFile(file);
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      // The page loads only its own files and talks only to this host's WebSocket.
      // ('self' covers ws: to the page's own host in CSP 3, which a forwarded port needs.)
      'content-security-policy': `${WEB_CSP} ws://127.0.0.1:${port} ws://localhost:${port}`,
      'x-frame-options': 'DENY',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  } catch {
    res.writeHead(404).end();
  }
}

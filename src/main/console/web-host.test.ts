import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { SessionEvent, SessionEventListener, SessionInfo } from '../core/session/types.js';
import { ConsoleService } from './console-service.js';
import { startWebHost, WS_PROTOCOL, WS_TOKEN_PREFIX, type WebHost } from './web-host.js';

/** An event source driven by the test (the console's contract logic, not PTYs, is under test here). */
class ScriptedSource {
  readonly id = 'srv';
  info() {
    return { kind: 'serve' as const, name: 'test-agent', version: '1.0', cwd: '/tmp', pid: 7 };
  }
  sessions: SessionInfo[] = [{ name: 'default', shell: '/bin/bash', kind: 'bash', integration: 'osc', pid: 42, cwd: '/tmp', state: 'idle', createdAt: 0, commands: 0 }];
  private readonly listeners = new Set<SessionEventListener>();
  list() {
    return this.sessions;
  }
  subscribe(l: SessionEventListener) {
    this.listeners.add(l);
    return () => void this.listeners.delete(l);
  }
  emit(e: SessionEvent) {
    for (const l of this.listeners) l(e);
  }
  raw(text: string) {
    this.emit({ type: 'raw', source: { kind: 'command', id: 'c1', session: 'default' }, chunk: Buffer.from(text) });
  }
}

/** GET with the path sent exactly as given (no URL normalisation on the client side). */
function rawGet(port: number, rawPath: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: rawPath, method: 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The page's WebSocket: the token as a subprotocol, from the page's own origin. */
function wsOf(h: WebHost, token = tokenOf(h), origin: string | undefined = `http://127.0.0.1:${h.port}`) {
  return { url: `ws://127.0.0.1:${h.port}/ws`, protocols: [WS_PROTOCOL, `${WS_TOKEN_PREFIX}${token}`], origin };
}
const tokenOf = (h: WebHost) => /#token=([\w-]+)$/.exec(h.url)![1];

function client(target: { url: string; protocols: string[]; origin?: string }) {
  const ws = new WebSocket(target.url, target.protocols, target.origin ? { origin: target.origin } : {});
  const frames: any[] = [];
  const waiters: (() => void)[] = [];
  ws.on('message', (d) => {
    frames.push(JSON.parse(d.toString()));
    waiters.splice(0).forEach((w) => w());
  });
  const next = async (pred: (f: any) => boolean) => {
    for (;;) {
      const f = frames.find(pred);
      if (f) return f;
      await new Promise<void>((r) => waiters.push(r));
    }
  };
  return { ws, frames, next, opened: new Promise<void>((r, j) => (ws.once('open', () => r()), ws.once('error', j))) };
}

describe('web host', () => {
  let host: WebHost | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await host?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function start(source: ScriptedSource) {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mish-web-'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>t</title>');
    const r = await startWebHost({ service: new ConsoleService([source]), rendererDir: dir });
    if (!r.ok) throw new Error(r.error.message);
    host = r.value;
    return r.value;
  }

  it('reports a missing renderer build as a value', async () => {
    const r = await startWebHost({ service: new ConsoleService([new ScriptedSource()]), rendererDir: '/nonexistent/renderer' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.kind).toBe('no-renderer');
  });

  it('keeps the token out of every request: in the URL fragment, moved there from an old ?token= link', async () => {
    const h = await start(new ScriptedSource());
    expect(h.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]{32}$/);
    // The page is public code without data: served as is (the fragment never reaches a server).
    const page = await fetch(h.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('content-security-policy')).toMatch(new RegExp(`^default-src 'self'; script-src 'self';.*connect-src 'self' ws://127\\.0\\.0\\.1:${h.port} ws://localhost:${h.port}$`));
    // A link with the token in its query is answered once, by moving it into the fragment.
    const moved = await fetch(`http://127.0.0.1:${h.port}/?token=${tokenOf(h)}`, { redirect: 'manual' });
    expect(moved.status).toBe(303);
    expect(moved.headers.get('location')).toBe(`/#token=${tokenOf(h)}`);
    expect((await fetch(`http://127.0.0.1:${h.port}/?token=nope`, { redirect: 'manual' })).status).toBe(403);
  });

  it('answers loopback names on any port (a forwarded port) and nothing else (DNS rebinding)', async () => {
    const h = await start(new ScriptedSource());
    const get = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port: h.port, path: '/', headers: { host } }, (res) => (res.resume(), resolve(res.statusCode ?? 0)));
        req.on('error', reject);
        req.end();
      });
    expect(await get('localhost:8443')).toBe(200);
    expect(await get(`127.0.0.1:${h.port}`)).toBe(200);
    expect(await get(`evil.example:${h.port}`)).toBe(403);
    expect(await get('127.0.0.1.evil.example:80')).toBe(403);
  });

  it('never serves a file outside the renderer directory, whatever the raw path', async () => {
    const h = await start(new ScriptedSource());
    // A file right next to the renderer directory: what a traversal would reach.
    const name = `${path.basename(dir!)}-secret.txt`;
    const secret = path.join(path.dirname(dir!), name);
    writeFileSync(secret, 'SECRET-BYTES');
    try {
      // fetch() would normalise these paths before sending them; http.request sends the bytes as written.
      for (const raw of [`/../${name}`, `/%2e%2e/${name}`, `/%2E%2E/${name}`, `/..%2f${name}`, `/%2e%2e%2f${name}`, `/assets/../../${name}`, `/..%5c${name}`]) {
        const r = await rawGet(h.port, raw);
        expect({ raw, status: r.status, body: r.body.includes('SECRET') }).toEqual({ raw, status: 404, body: false });
      }
      // The same request shape inside the directory is served (the check is not a blanket 404).
      writeFileSync(path.join(dir!, 'app.js'), 'ok');
      expect(await rawGet(h.port, '/assets/../app.js')).toEqual({ status: 200, body: 'ok' });
    } finally {
      rmSync(secret, { force: true });
    }
  });

  it('rejects a WebSocket without the right token, with it in the query, or from another origin', async () => {
    const h = await start(new ScriptedSource());
    await expect(client(wsOf(h, 'bad')).opened).rejects.toThrow(/403/);
    await expect(client({ url: `ws://127.0.0.1:${h.port}/ws?token=${tokenOf(h)}`, protocols: [WS_PROTOCOL] }).opened).rejects.toThrow(/403/);
    await expect(client(wsOf(h, tokenOf(h), 'http://evil.example')).opened).rejects.toThrow(/403/);
    // Another local page (another port on 127.0.0.1) is another origin too.
    await expect(client(wsOf(h, tokenOf(h), `http://127.0.0.1:${h.port + 1}`)).opened).rejects.toThrow(/403/);
    const ok = client(wsOf(h));
    await ok.opened;
    expect(ok.ws.protocol).toBe(WS_PROTOCOL);
    ok.ws.close();
  });

  it('lists sessions, streams output after the backlog without gaps or overlap, and reports command end', async () => {
    const source = new ScriptedSource();
    const h = await start(source);
    source.raw('before subscribe\r\n');
    const c = client(wsOf(h));
    await c.opened;
    c.ws.send(JSON.stringify({ id: 1, method: 'hub:snapshot', params: {} }));
    const list = await c.next((f) => f.id === 1);
    expect(list.result.servers).toEqual([{ id: 'srv', kind: 'serve', name: 'test-agent', version: '1.0', cwd: '/tmp', pid: 7, state: 'connected' }]);
    expect(list.result.sessions).toEqual([{ id: 'srv/default', serverId: 'srv', name: 'default', shell: '/bin/bash', cwd: '/tmp', state: 'idle', pid: 42, cols: 120, rows: 30 }]);

    c.ws.send(JSON.stringify({ id: 2, method: 'session:subscribe', params: { sessionId: 'srv/default' } }));
    const sub = await c.next((f) => f.id === 2);
    expect(Buffer.from(sub.result.backlog, 'base64').toString()).toBe('before subscribe\r\n');
    expect(sub.result.offset).toBe(18);

    source.emit({ type: 'command-start', id: 'c1', session: 'default', command: 'make', cwd: '/tmp', at: 1000 });
    source.raw('after 1\r\n');
    // A background process started in the session has its own PTY: not this terminal's bytes.
    source.emit({ type: 'raw', source: { kind: 'spawn', id: 'p1', session: 'default' }, chunk: Buffer.from('dev server ready\r\n') });
    source.raw('after 2\r\n');
    source.emit({ type: 'condensed', source: { kind: 'command', id: 'c1', session: 'default' }, lines: ['error: x', '[exit 3]'], final: true, reply: true, category: 'condense' });
    source.emit({ type: 'command-end', id: 'c1', session: 'default', exitCode: 3, shellExited: false, durationMs: 5 });
    const end = await c.next((f) => f.event === 'command:updated' && f.payload.state === 'done');
    const outputs = c.frames.filter((f) => f.event === 'session:output');
    // Output is flushed before the end event, batched into one message, starting at the backlog's end.
    expect(c.frames.indexOf(outputs[outputs.length - 1])).toBeLessThan(c.frames.indexOf(end));
    expect(outputs.map((f) => f.payload.offset)).toEqual([18]);
    expect(outputs.map((f) => Buffer.from(f.payload.data, 'base64').toString()).join('')).toBe('after 1\r\nafter 2\r\n');
    expect(end.payload).toMatchObject({ sessionId: 'srv/default', id: 'c1', command: 'make', exitCode: 3, durationMs: 5, rawBytes: 18, rawLines: 2, agentSaw: 'error: x\n[exit 3]', exact: true, category: 'condense', shownLines: 2 });

    c.ws.send(JSON.stringify({ id: 3, method: 'session:subscribe', params: { sessionId: 'nope' } }));
    expect((await c.next((f) => f.id === 3)).error.message).toMatch(/no session "nope"/);
    c.ws.send(JSON.stringify({ id: 4, method: 'session:subscribe', params: {} }));
    expect((await c.next((f) => f.id === 4)).error.message).toMatch(/sessionId/);
    c.ws.send(JSON.stringify({ id: 5, method: 'rm -rf', params: {} }));
    expect((await c.next((f) => f.id === 5)).error.message).toMatch(/bad request frame/);
    c.ws.close();
  });
});

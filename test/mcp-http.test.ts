/**
 * `mish serve --http` driven by the SDK's real StreamableHTTPClientTransport: bearer token,
 * DNS-rebinding checks (Host/Origin), loopback-only binding, and the official MCP conformance
 * suite's server scenarios that apply to a server without the suite's fixture tools.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { call, eventually, ROOT, serveCommand, spawnRaw } from './mcp-helpers.js';

interface HttpServed {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  home: string;
  stop(): Promise<void>;
}

async function startHttpServe(args: string[], env: Record<string, string> = {}): Promise<HttpServed> {
  const { child, home } = spawnRaw(args, env);
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const ok = await eventually(() => /listening on (http\S+)/.test(err) || child.exitCode !== null, 30_000);
  const m = /listening on (http\S+)/.exec(err);
  if (!ok || !m) throw new Error(`mish serve --http did not start: ${err}`);
  return {
    child,
    url: m[1],
    stderr: () => err,
    home,
    async stop() {
      if (child.exitCode === null) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
      rmSync(home, { recursive: true, force: true });
    },
  };
}

function rawPost(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = request(
      { host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        let b = '';
        res.on('data', (d) => (b += d));
        res.on('end', () => resolve({ status: res.statusCode!, body: b, headers: res.headers }));
      },
    );
    req.on('error', reject);
    // A string is sent as is (malformed-input tests); anything else as JSON.
    req.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
}

const INIT = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '0' } } };

describe('mish serve --http', () => {
  let s: HttpServed;
  const token = 'test-token-1234567890';
  beforeAll(async () => {
    s = await startHttpServe(['--http', '127.0.0.1:0', '--token', token]);
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('serves the tools to the SDK client with the token', async () => {
    const client = new Client({ name: 'http-test', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('sh_run');
    const r = await call(client, 'sh_run', { cmd: 'echo over-http' });
    expect(r.text).toContain('over-http');
    expect(r.data.exit_code).toBe(0);
    await client.close();
  });

  it('cancellation and progress notifications work over HTTP too', async () => {
    const client = new Client({ name: 'http-test', version: '0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    const progress: number[] = [];
    const ticks = await call(client, 'sh_run', { cmd: 'for i in 1 2 3; do echo tick $i; sleep 1; done', session: 'http-progress' }, { onprogress: (p) => progress.push(p.progress) });
    expect(ticks.data.exit_code).toBe(0);
    expect(progress.length).toBeGreaterThanOrEqual(1);
    const ac = new AbortController();
    const started = path.join(s.home, 'http-cancel-started');
    const pending = call(client, 'sh_run', { cmd: `touch ${started}; sleep 300`, session: 'http-cancel' }, { signal: ac.signal });
    // Cancel once the command is running (its marker file exists), not after a guessed delay.
    expect(await eventually(() => existsSync(started), 30_000)).toBe(true);
    ac.abort();
    await expect(pending).rejects.toThrow();
    // The session is free again at once: the sleep was interrupted, not left running (a busy session would be an error).
    const after = await call(client, 'sh_run', { cmd: 'echo after-cancel', session: 'http-cancel' });
    expect(after.result.isError).toBeFalsy();
    expect(after.text).toContain('after-cancel');
    await client.close();
  });

  it('refuses a missing or wrong token with 401', async () => {
    expect((await rawPost(s.url, {}, INIT)).status).toBe(401);
    const wrong = await rawPost(s.url, { authorization: 'Bearer nope' }, INIT);
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatch(/Authorization: Bearer/);
    const client = new Client({ name: 'http-test', version: '0' });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(s.url), { requestInit: { headers: { Authorization: 'Bearer wrong' } } }))).rejects.toThrow();
  });

  it('answers malformed JSON-RPC with JSON-RPC errors and keeps serving', async () => {
    const auth = { authorization: `Bearer ${token}` };
    /** The JSON-RPC message of a reply: a JSON body, or the data of an SSE event. */
    const message = (r: { body: string }) => JSON.parse(r.body.startsWith('{') ? r.body : /^data: (.*)$/m.exec(r.body)![1]);
    // Before any session: not JSON, then JSON that is not JSON-RPC.
    const notJson = await rawPost(s.url, auth, 'this is not json');
    expect(notJson.status).toBe(400);
    expect(message(notJson)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    const wrongType = await rawPost(s.url, auth, { jsonrpc: '2.0', id: 7, method: 5 });
    expect(wrongType.status).toBe(400);
    expect(message(wrongType)).toMatchObject({ id: 7, error: { code: -32600 } });
    const noSession = await rawPost(s.url, auth, { jsonrpc: '2.0', id: 8, method: 'tools/list' });
    expect(noSession.status).toBe(400);
    expect(message(noSession).error.message).toMatch(/initialize/);
    // Inside a session: the same, plus an unknown method, a batch of garbage, bad tool arguments.
    const init = await rawPost(s.url, auth, INIT);
    const sid = init.headers['mcp-session-id'] as string;
    expect(sid).toBeTruthy();
    const h = { ...auth, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' };
    expect((await rawPost(s.url, h, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    expect(message(await rawPost(s.url, h, '{"jsonrpc":'))).toMatchObject({ id: null, error: { code: -32700 } });
    expect(message(await rawPost(s.url, h, { jsonrpc: '2.0', id: 9, method: 5 }))).toMatchObject({ id: 9, error: { code: -32600 } });
    expect(message(await rawPost(s.url, h, [1, 2, 3]))).toMatchObject({ id: null, error: { code: -32600 } });
    expect(message(await rawPost(s.url, h, 'null'))).toMatchObject({ id: null, error: { code: -32600 } });
    expect(message(await rawPost(s.url, h, { jsonrpc: '2.0', id: 10, method: 'no/such/method' }))).toMatchObject({ id: 10, error: { code: -32601 } });
    const badArgs = message(await rawPost(s.url, h, { jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'sh_run', arguments: { cmd: 42 } } }));
    expect(badArgs.id).toBe(11);
    // A tool error the agent can read (not a protocol error), naming the argument and what was wrong.
    expect(badArgs).toEqual({
      jsonrpc: '2.0',
      id: 11,
      result: { isError: true, content: [{ type: 'text', text: expect.stringMatching(/^MCP error -32602: Input validation error: Invalid arguments for tool sh_run: .*expected string, received number at cmd$/) }] },
    });
    // The same session still runs commands.
    const ok = message(await rawPost(s.url, h, { jsonrpc: '2.0', id: 12, method: 'tools/call', params: { name: 'sh_run', arguments: { cmd: 'echo still-serving' } } }));
    expect(ok.result.content[0].text).toContain('still-serving');
    expect(s.child.exitCode).toBeNull();
  });

  it('refuses a foreign Origin or Host with 403 (DNS rebinding)', async () => {
    const auth = { authorization: `Bearer ${token}` };
    expect((await rawPost(s.url, { ...auth, origin: 'http://evil.example' }, INIT)).status).toBe(403);
    expect((await rawPost(s.url, { ...auth, host: `evil.example:${new URL(s.url).port}` }, INIT)).status).toBe(403);
    // Loopback origins (a local web console) are fine.
    expect((await rawPost(s.url, { ...auth, origin: 'http://localhost:5173' }, INIT)).status).toBe(200);
  });
});

describe('mish serve --http options', () => {
  it('refuses a non-loopback host with a clear error', () => {
    const cmd = serveCommand(['--http', '0.0.0.0:0']);
    const r = spawnSync(cmd.command, cmd.args, { encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/loopback only/);
    expect(r.stdout).toBe('');
  });

  it('rejects bad flags with a one-line error and exit 2', () => {
    const cmd = serveCommand(['--bogus']);
    const r = spawnSync(cmd.command, cmd.args, { encoding: 'utf8', timeout: 30_000 });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('generates a token and prints it to stderr when none is given', async () => {
    const s = await startHttpServe(['--http', '0'], { MISH_TOKEN: '' });
    try {
      const m = /bearer token (\S+)\)/.exec(s.stderr());
      expect(m).not.toBeNull();
      expect((await rawPost(s.url, {}, INIT)).status).toBe(401);
      expect((await rawPost(s.url, { authorization: `Bearer ${m![1]}` }, INIT)).status).toBe(200);
    } finally {
      await s.stop();
    }
  });
});

/**
 * The conformance suite's server scenarios that apply to mish. The others exercise the suite's
 * own fixture tools/resources/prompts (test_simple_text, test_image, …) that a shell server
 * does not have. The suite has no option for an auth header, so this server runs --no-auth.
 */
const CONFORMANCE_SCENARIOS = ['server-initialize', 'ping', 'logging-set-level', 'tools-list', 'dns-rebinding-protection', 'server-sse-multiple-streams'];

describe('MCP conformance suite (server scenarios)', () => {
  let s: HttpServed;
  beforeAll(async () => {
    s = await startHttpServe(['--http', '127.0.0.1:0', '--no-auth']);
  });
  afterAll(async () => {
    await s?.stop();
  });

  for (const scenario of CONFORMANCE_SCENARIOS) {
    it(scenario, () => {
      const out = mkdtempSync(path.join(tmpdir(), 'mish-conformance-'));
      const r = spawnSync(
        process.execPath,
        ['--import', path.join(ROOT, 'test/mcp-conformance-node20.mjs'), path.join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js'), 'server', '--url', s.url, '--scenario', scenario],
        { cwd: out, encoding: 'utf8', timeout: 120_000 },
      );
      rmSync(out, { recursive: true, force: true });
      const report = `${r.stdout}\n${r.stderr}`;
      expect(r.status, report).toBe(0);
      expect(report).toMatch(/Passed: (\d+)\/\1, 0 failed/);
    });
  }
});

/**
 * The operator wire end to end: a real `mish serve` (spawned by the MCP SDK's Client) publishes
 * its socket in a private directory; the client library discovers it, connects, and receives
 * validated events of a real command (start, raw output with offsets, end with figures, the
 * report of what the agent got). Socket 0600 in a 0700 directory; stale sockets are cleaned.
 */
import { existsSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startStdio, type Served } from './mcp-helpers.js';
import { discoverServers, OperatorClient } from '../src/main/operator/client.js';
import type { ServerMessage } from '../src/shared/operator-wire.js';
import { parseClientMessage, parseServerMessage } from '../src/shared/operator-wire.js';

/** Waits until `pick` finds a message among those received (events, never sleeps). */
function collector(client: OperatorClient) {
  const got: ServerMessage[] = [];
  const waiters: { pick: (m: ServerMessage) => boolean; resolve: (m: ServerMessage) => void }[] = [];
  const types = ['sessions', 'session', 'session-closed', 'process', 'command-start', 'command-end', 'command-report', 'condensed', 'output', 'waiting', 'approval-request', 'approval-resolved', 'handoff-request', 'handoff-state', 'server'] as const;
  for (const t of types)
    client.on(t, (m) => {
      got.push(m as ServerMessage);
      for (const w of [...waiters]) if (w.pick(m as ServerMessage)) (waiters.splice(waiters.indexOf(w), 1), w.resolve(m as ServerMessage));
    });
  return {
    got,
    next<T extends ServerMessage['type']>(type: T, pick: (m: Extract<ServerMessage, { type: T }>) => boolean = () => true, ms = 20_000): Promise<Extract<ServerMessage, { type: T }>> {
      const seen = got.find((m) => m.type === type && pick(m as Extract<ServerMessage, { type: T }>));
      if (seen) return Promise.resolve(seen as Extract<ServerMessage, { type: T }>);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${type} within ${ms} ms`)), ms);
        waiters.push({ pick: (m) => m.type === type && pick(m as Extract<ServerMessage, { type: T }>), resolve: (m) => (clearTimeout(timer), resolve(m as Extract<ServerMessage, { type: T }>)) });
      });
    },
  };
}

describe('operator wire over a real mish serve', () => {
  let opDir: string;
  let served: Served;
  let op: OperatorClient;

  beforeAll(async () => {
    opDir = path.join(mkdtempSync(path.join(tmpdir(), 'mish-opdir-')), 'servers');
    served = await startStdio({ MISH_OPERATOR_DIR: opDir });
    const servers = discoverServers(opDir);
    expect(servers.map((s) => s.pid)).toEqual([served.pid()]);
    const c = await OperatorClient.connect(servers[0].path, { name: 'wire-test', role: 'console' });
    if (!c.ok) throw new Error(c.error);
    op = c.client;
  }, 30_000);
  afterAll(async () => {
    op?.close();
    await served?.close();
    rmSync(path.dirname(opDir), { recursive: true, force: true });
  });

  it('socket 0600 in a 0700 directory; hello names the server, its MCP client and cwd', () => {
    expect(statSync(opDir).mode & 0o777).toBe(0o700);
    expect(statSync(op.path).mode & 0o777).toBe(0o600);
    expect(op.hello).toMatchObject({ type: 'hello', wire: 1, pid: served.pid(), transport: 'stdio', cwd: served.home, client: { name: 'mish-test', version: '0.0.0' } });
    expect(typeof op.hello.mishVersion).toBe('string');
  });

  it('a command: sessions snapshot, command-start, raw output with offsets, command-end with figures, the agent text', async () => {
    const ev = collector(op);
    const sub = await op.request({ type: 'subscribe', stream: { kind: 'session', id: 'w' } });
    expect(sub.ok).toBe(true);
    const r = await call(served.client, 'sh_run', { cmd: 'for i in 1 2 3 4 5; do echo "line $i"; done; echo "error: boom" >&2; sh -c "exit 3"', session: 'w' });
    expect(r.data.exit_code).toBe(3);
    const start = await ev.next('command-start', (m) => m.session === 'w');
    expect(start.command).toContain('echo "line $i"');
    const end = await ev.next('command-end', (m) => m.commandId === start.commandId);
    expect(end).toMatchObject({ session: 'w', exitCode: 3, rawLines: 6, shellExited: false });
    expect(end.rawBytes).toBeGreaterThan(30);
    const report = await ev.next('command-report', (m) => m.commandId === start.commandId);
    expect(report).toMatchObject({ session: 'w', category: 'condense', exitCode: 3, rawLines: 6 });
    expect(report.agentText).toContain('error: boom');
    const outputs = ev.got.filter((m): m is Extract<ServerMessage, { type: 'output' }> => m.type === 'output' && m.stream.id === 'w');
    const bytes = Buffer.concat(outputs.map((o) => Buffer.from(o.data, 'base64'))).toString();
    expect(bytes).toContain('line 5\r\n');
    // Offsets are contiguous: each chunk starts where the previous ended.
    for (let i = 1; i < outputs.length; i++) expect(outputs[i].offset).toBe(outputs[i - 1].offset + Buffer.from(outputs[i - 1].data, 'base64').length);
    // The start says where the command's output begins in the stream (the console marks it there): a chunk starts at it.
    const from = outputs.findIndex((o) => o.offset === start.offset);
    expect(from, JSON.stringify({ start: start.offset, chunks: outputs.map((o) => o.offset) })).toBeGreaterThanOrEqual(0);
    expect(Buffer.concat(outputs.slice(from).map((o) => Buffer.from(o.data, 'base64'))).toString()).toContain('line 1\r\n');
    const snap = await ev.next('sessions', (m) => m.sessions.some((s) => s.name === 'w' && s.state === 'idle' && s.lastExitCode === 3));
    expect(snap.sessions.find((s) => s.name === 'w')).toMatchObject({ shell: expect.stringContaining('bash'), cwd: served.home, cols: 120, rows: 40 });
  }, 30_000);

  it('frames are validated at both ends: a bad client frame is ignored, the connection lives on', async () => {
    expect(parseClientMessage('{"type":"approval-decide","rid":1,"id":"a_x","decision":"maybe"}').ok).toBe(false);
    expect(parseServerMessage('{"type":"output","stream":{"kind":"session","id":"w"},"data":"AA==","offset":-1}').ok).toBe(false);
    (op as unknown as { socket: { write(s: string): void } }).socket.write('{"type":"nonsense"}\nnot json\n');
    const sub = await op.request({ type: 'subscribe', stream: { kind: 'session', id: 'w' } });
    expect(sub.ok).toBe(true);
  });

  it('an operator that stops reading, or dies mid-stream, never slows or breaks the agent', async () => {
    const stuck = net.createConnection(op.path);
    await new Promise<void>((resolve) => stuck.once('connect', () => resolve()));
    stuck.write('{"type":"hello","wire":1,"name":"stuck","role":"console","approvals":true}\n{"type":"subscribe","rid":1,"stream":{"kind":"session","id":"flood"}}\n');
    stuck.pause(); // never reads again
    const t0 = Date.now();
    const r = await call(served.client, 'sh_run', { cmd: "head -c 3000000 /dev/zero | tr '\\0' y | fold -w 100; echo end", session: 'flood', timeout: 60 });
    expect(r.data.exit_code).toBe(0);
    expect(r.data.raw_lines).toBeGreaterThanOrEqual(30_000);
    stuck.destroy();
    // The approver that vanished is not waited for: the next dangerous line is denied at once —
    // refused for want of an operator, or asked and then denied as the close arrives.
    const refused = await call(served.client, 'sh_run', { cmd: 'rm -rf ~', session: 'flood' });
    expect(['no-operator', 'operator-gone']).toContain(refused.data.escalation.outcome);
    expect(refused.data.status).toBe('refused');
    expect(Date.now() - t0).toBeLessThan(60_000);
  }, 90_000);

  it('a stale socket of a dead server is removed by discovery', () => {
    const stale = path.join(opDir, '999999999.sock');
    writeFileSync(stale, '');
    expect(discoverServers(opDir).map((s) => s.pid)).toEqual([served.pid()]);
    expect(existsSync(stale)).toBe(false);
  });

  it('a socket file nobody listens on (its pid reused by another program) is removed when connecting fails', async () => {
    // Our own pid is alive but serves nothing here: a bound-then-closed socket leaves such a file.
    const orphan = path.join(opDir, `${process.pid}.sock`);
    const srv = net.createServer();
    await new Promise<void>((resolve) => srv.listen(orphan, resolve));
    await new Promise<void>((resolve) => srv.close(() => resolve()));
    writeFileSync(orphan, ''); // the file stays behind as after a crash
    expect(discoverServers(opDir).map((s) => s.pid)).toContain(process.pid);
    // Young, with a live pid: it may be a server between bind and listen, so it is kept…
    expect((await OperatorClient.connect(orphan, { name: 'x', role: 'console' })).ok).toBe(false);
    expect(existsSync(orphan)).toBe(true);
    // …old: left over, removed.
    const past = new Date(Date.now() - 60_000);
    utimesSync(orphan, past, past);
    const r = await OperatorClient.connect(orphan, { name: 'x', role: 'console' });
    expect(r.ok).toBe(false);
    expect(existsSync(orphan)).toBe(false);
  });
});

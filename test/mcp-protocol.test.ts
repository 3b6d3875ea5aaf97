/**
 * `mish serve` over stdio, driven by the SDK's real Client in a child process: tool listing and
 * schemas, protocol robustness (garbage input, cancellation, progress), tool errors, shutdown
 * leaving nothing behind, and the sh_run edge cases the issue names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { encode } from 'gpt-tokenizer';
import { alive, call, eventually, sleep, spawnRaw, startStdio, type Served } from './mcp-helpers.js';

describe('mish serve over stdio', () => {
  let s: Served;
  beforeAll(async () => {
    s = await startStdio();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('lists the five tools with input and output schemas, annotations and actionable descriptions', async () => {
    const { tools } = await s.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['sh_help', 'sh_interact', 'sh_run', 'sh_session', 'sh_spawn']);
    for (const t of tools) {
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type).toBe('object');
      expect(t.description!.length).toBeGreaterThan(80);
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) expect(typeof t.annotations?.[hint]).toBe('boolean');
    }
    const run = tools.find((t) => t.name === 'sh_run')!;
    expect(Object.keys(run.inputSchema.properties!)).toEqual(expect.arrayContaining(['cmd', 'cwd', 'session', 'timeout']));
    expect(run.inputSchema.required).toEqual(['cmd']);
    expect(s.client.getInstructions()).toMatch(/sh_run/);
  });

  it('sh_help returns the reference card as text and structured content', async () => {
    const r = await call(s.client, 'sh_help', {});
    expect(r.result.isError).toBeFalsy();
    expect(r.text).toContain('sh_spawn {cmd, alias?, wait_for?');
    expect(r.data.card).toBe(r.text);
  });

  it('sh_run returns condensed output, exit code, cwd, line counts, spool reference and a [procs] digest', async () => {
    await call(s.client, 'sh_spawn', { cmd: 'sleep 600', alias: 'sleeper' });
    const r = await call(s.client, 'sh_run', { cmd: 'cd /tmp && echo hello-from-mish' });
    expect(r.result.isError).toBeFalsy();
    expect(r.text).toContain('hello-from-mish');
    expect(r.data).toMatchObject({ status: 'exited', exit_code: 0, cwd: '/tmp', session: 'default' });
    expect(r.data.raw_lines).toBeGreaterThanOrEqual(1);
    expect(r.data.id).toMatch(/^c\d+$/);
    expect(r.data.spool).toContain(r.data.id);
    expect(r.data.procs).toMatch(/^\[procs\].*sleeper/);
    expect(r.text).toContain('[procs]');
    // cwd persists across calls.
    const pwd = await call(s.client, 'sh_run', { cmd: 'pwd' });
    expect(pwd.text).toContain('/tmp');
    await call(s.client, 'sh_interact', { id: 'sleeper', action: 'kill' });
  });

  it('a failing command reports its exit code without isError (the call itself worked)', async () => {
    const r = await call(s.client, 'sh_run', { cmd: 'ls /definitely/not/here' });
    expect(r.result.isError).toBeFalsy();
    expect(r.data.exit_code).not.toBe(0);
    expect(r.text).toMatch(/No such file/);
  });

  it('`exit 3` reports exit 3 and the ended shell; the next call gets a fresh shell and says so', async () => {
    await call(s.client, 'sh_session', { action: 'create', name: 'ex' });
    const r = await call(s.client, 'sh_run', { cmd: 'exit 3', session: 'ex' });
    expect(r.data.exit_code).toBe(3);
    expect(r.data.shell_exited).toBe(true);
    expect(r.text).toMatch(/shell ended/);
    const next = await call(s.client, 'sh_run', { cmd: 'echo again', session: 'ex' });
    expect(next.data.exit_code).toBe(0);
    expect(next.data.fresh_shell).toBeTruthy();
    expect(next.text).toMatch(/fresh shell/);
  });

  it('sh_spawn with wait_for matches a ready line printed at once (not waiting out the timeout)', async () => {
    const r = await call(s.client, 'sh_spawn', { cmd: 'echo ready-now; sleep 600', alias: 'instant', wait_for: 'ready-now', timeout: 30 });
    expect(r.data.wait).toBe('matched');
    expect(r.data.match).toContain('ready-now');
    const k = await call(s.client, 'sh_interact', { id: 'instant', action: 'kill' });
    expect(k.data.state).toBe('killed');
  });

  it('a timeout leaves the command running in the background with its id; status later gives its final reply', async () => {
    const r = await call(s.client, 'sh_run', { cmd: 'sleep 2; echo finished-late', session: 'bg', timeout: 0.5 });
    expect(r.data.status).toBe('running');
    expect(r.text).toContain(r.data.id);
    expect(r.text).toMatch(/background/);
    const done = await call(s.client, 'sh_interact', { id: r.data.id, action: 'status', wait: 30 });
    expect(done.text).toContain('finished-late');
    expect(done.data.exit_code).toBe(0);
  });

  it('caps a huge reply at ~20k tokens with an exact marker', async () => {
    const big = path.join(s.home, 'big.txt');
    // Dense, unrepetitive content: the worst case for tokens per char.
    const lines: string[] = [];
    for (let i = 0; i < 6000; i++) lines.push(`${i.toString(16)} ${Math.sin(i).toString(36).slice(2)} ${Math.cos(i).toString(36).slice(2)} ${(i * 7919).toString(36)}`);
    writeFileSync(big, lines.join('\n') + '\n');
    const r = await call(s.client, 'sh_run', { cmd: `cat ${big}` });
    expect(r.data.exit_code).toBe(0);
    expect(r.data.raw_lines).toBe(6000);
    expect(encode(r.text).length).toBeLessThanOrEqual(20_000);
    // The raw read-back of 2000 dense lines is far beyond the cap: cut with an exact marker.
    const raw = await call(s.client, 'sh_interact', { id: r.data.id, action: 'read_raw', from_line: 1, to_line: 2000 });
    expect(raw.text).toMatch(/\[mish: reply cut at ~20k tokens: \d+ more line\(s\), \d+ chars omitted; /);
    expect(encode(raw.text).length).toBeLessThanOrEqual(20_000);
    expect(raw.text).toContain(`1│ ${lines[0]}`);
    rmSync(big);
  });

  it('tool failures are isError results that say what to do next', async () => {
    const r = await call(s.client, 'sh_interact', { id: 'nope', action: 'status' });
    expect(r.result.isError).toBe(true);
    expect(r.text).toMatch(/no process with id or alias "nope"/);
    expect(r.text).toMatch(/Next: /);
    const bad = await call(s.client, 'sh_spawn', { cmd: 'true', wait_for: '(' });
    expect(bad.result.isError).toBe(true);
    expect(bad.text).toMatch(/invalid regular expression/);
    const badArgs = await call(s.client, 'sh_run', { timeout: 5 });
    expect(badArgs.result.isError).toBe(true);
  });

  it('notifications/cancelled stops the running command', async () => {
    const ac = new AbortController();
    const pending = call(s.client, 'sh_run', { cmd: 'sleep 300', session: 'cancel' }, { signal: ac.signal });
    // Cancel once the command is in the process table.
    await sleep(500);
    ac.abort();
    await expect(pending).rejects.toThrow();
    // The session is usable again at once: the sleep was interrupted, not left running.
    const after = await call(s.client, 'sh_run', { cmd: 'echo after-cancel', session: 'cancel' });
    expect(after.result.isError).toBeFalsy();
    expect(after.text).toContain('after-cancel');
  });

  it('sends progress notifications during long calls when the client asks for them', async () => {
    const progress: number[] = [];
    const r = await call(s.client, 'sh_run', { cmd: 'for i in 1 2 3; do echo tick $i; sleep 1; done' }, { onprogress: (p) => progress.push(p.progress) });
    expect(r.data.exit_code).toBe(0);
    expect(progress.length).toBeGreaterThanOrEqual(1);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThan(progress[i - 1]);
  });
});

describe('mish serve robustness', () => {
  it('answers garbage lines with JSON-RPC errors and keeps serving', async () => {
    const { child, home } = spawnRaw();
    const out: string[] = [];
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        out.push(buf.slice(0, i));
        buf = buf.slice(i + 1);
      }
    });
    child.stdin!.write('this is not json\n');
    child.stdin!.write('{"jsonrpc":"2.0","id":7,"method":5}\n');
    child.stdin!.write('[1,2,3]\n');
    child.stdin!.write('{"jsonrpc":"2.0","id":8,"method":"no/such/method"}\n');
    child.stdin!.write(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } } }) + '\n',
    );
    expect(await eventually(() => out.some((l) => l.includes('"id":1')), 20_000)).toBe(true);
    const msgs = out.map((l) => JSON.parse(l)); // every stdout line is JSON: nothing else leaks onto stdout
    expect(msgs[0]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(msgs[1]).toMatchObject({ id: 7, error: { code: -32600 } });
    expect(msgs[2]).toMatchObject({ id: null, error: { code: -32600 } });
    expect(msgs.find((m) => m.id === 8)).toMatchObject({ error: { code: -32601 } });
    expect(msgs.find((m) => m.id === 1).result.serverInfo.name).toBe('mish');
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.stdin!.end();
    expect(await exited).toBe(0);
    rmSync(home, { recursive: true, force: true });
  });

  it('on stdin EOF exits and leaves no process behind', async () => {
    const s = await startStdio();
    const spawned = await call(s.client, 'sh_spawn', { cmd: 'sleep 600', alias: 'orphan-candidate' });
    const run = await call(s.client, 'sh_run', { cmd: 'echo shellpid=$$' });
    const shellPid = Number(/shellpid=(\d+)/.exec(run.text)![1]);
    const serverPid = s.pid()!;
    expect(alive(spawned.data.pid)).toBe(true);
    await s.close(); // closes stdin
    expect(await eventually(() => !alive(serverPid), 5_000)).toBe(true);
    expect(await eventually(() => !alive(spawned.data.pid) && !alive(shellPid), 5_000)).toBe(true);
  });

  it('on SIGTERM exits and leaves no process behind', async () => {
    const s = await startStdio();
    const spawned = await call(s.client, 'sh_spawn', { cmd: 'sleep 600' });
    const serverPid = s.pid()!;
    process.kill(serverPid, 'SIGTERM');
    expect(await eventually(() => !alive(serverPid), 5_000)).toBe(true);
    expect(await eventually(() => !alive(spawned.data.pid), 5_000)).toBe(true);
    await s.close();
  });
});

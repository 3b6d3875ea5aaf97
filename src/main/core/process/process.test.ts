import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodePtyPort } from '../../platform/node-pty-port.js';
import { createSessionManager } from '../session/session-manager.js';
import type { ProcessControl, SessionEvent, SessionManager } from '../session/types.js';
import { readStat, sessionMembers } from '../../platform/platform.js';
import { keysToBytes } from './keys.js';
import { OutputRing } from './output-ring.js';
import { SpoolStore } from '../spool/spool.js';

let dir: string;
let m: SessionManager;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'mish-proc-'));
  m = createSessionManager({ port: nodePtyPort, cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir } });
});
afterAll(async () => {
  await m.dispose();
  rmSync(dir, { recursive: true, force: true });
});

async function spawn(cmd: string, alias?: string): Promise<ProcessControl> {
  const r = await m.spawn({ cmd, alias });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Program name of a process ('' once gone). */
function comm(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/** Wait (polling) until `cond` holds; the bound is a hang guard on a loaded machine, not a speed claim. */
async function until(cond: () => boolean, guardMs = 15_000): Promise<void> {
  const end = Date.now() + guardMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`not met within ${guardMs} ms: ${cond}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function alive(pid: number): boolean {
  const st = readStat(pid);
  return !!st && st.state !== 'Z';
}

describe('background processes', () => {
  it('wait_for matches a ready line printed instantly (output already received)', async () => {
    const p = await spawn('echo "ready on :3000"; sleep 30', 'dev');
    // The line has been received before wait_for is called.
    await until(() => p.entry().lastLine === 'ready on :3000');
    const res = await p.waitFor(/ready on :(\d+)/, 10_000);
    expect(res.status).toBe('matched');
    if (res.status === 'matched') expect(res.match).toBe('ready on :3000');
    expect(m.processes.digest()).toMatch(/\[procs\] 1 running: dev\(pid \d+, \d+s, "ready on :3000"\)/);
    // Said once: the next digest names the process without the line it already showed.
    expect(m.processes.digest()).toMatch(/\[procs\] 1 running: dev\(pid \d+, \d+s\)$/);
    await p.kill();
  });

  it('a digest shows a running process\'s last line again once it changed', async () => {
    const p = await spawn('echo compiling; sleep 0.4; echo "compiled with 2 errors"; sleep 30', 'watch');
    await until(() => p.entry().lastLine === 'compiling');
    expect(m.processes.digest()).toContain('watch(pid');
    expect(m.processes.digest()).not.toContain('"compiling"');
    await until(() => p.entry().lastLine === 'compiled with 2 errors');
    expect(m.processes.digest()).toContain('"compiled with 2 errors"');
    await p.kill();
  });

  it('wait_for matches future output, and resolves on exit and on timeout', async () => {
    const p = await spawn('sleep 0.3; echo listening; sleep 0.3; exit 4');
    expect((await p.waitFor('listening', 10_000)).status).toBe('matched');
    const e = await p.waitFor('never', 10_000);
    expect(e).toMatchObject({ status: 'exited', exitCode: 4 });
    expect(p.entry()).toMatchObject({ state: 'exited', exitCode: 4, lastLine: 'listening' });
    const q = await spawn('sleep 30');
    expect((await q.waitFor('x', 100)).status).toBe('timeout');
    await q.kill();
  });

  it('kill ends the whole process group (TERM, then KILL) and leaves nothing in /proc', async () => {
    const p = await spawn("trap '' TERM; (sleep 300 &) ; sleep 300 & sleep 300; wait");
    const pid = p.entry().pid;
    // All three sleeps exist (not a guessed delay): then the kill has something to miss.
    await until(() => sessionMembers(pid).filter((x) => comm(x) === 'sleep').length === 3);
    const members = sessionMembers(pid);
    expect(members.length).toBeGreaterThanOrEqual(4);
    const end = await p.kill(300);
    expect(end.state).toBe('killed');
    for (const pid2 of members) expect(alive(pid2)).toBe(false);
  });

  it('send, keys and signal reach the process; the raw output can be read back by line', async () => {
    const p = await spawn('while IFS= read -r l; do echo "got:$l"; [ "$l" = quit ] && exit 0; done');
    p.send('hello\n');
    expect((await p.waitFor('got:hello', 5000)).status).toBe('matched');
    p.sendKeys(['q', 'u', 'i', 't', 'Enter']);
    const e = await p.waitFor(undefined, 5000);
    expect(e).toMatchObject({ status: 'exited', exitCode: 0 });
    const lines = p.read({ grep: 'got:' }).lines.map((l) => l.text);
    expect(lines).toEqual(['got:hello', 'got:quit']);
    // Signal once the command runs (before that the wrapper shell would absorb it).
    const s = await spawn('echo started; exec sleep 30');
    await s.waitFor('started', 5000);
    // The exec has happened: sleep, not the shell, gets the SIGINT.
    await until(() => sessionMembers(s.entry().pid).some((x) => comm(x) === 'sleep'));
    s.signal('SIGINT');
    const end = await s.done;
    expect(end.exitCode).toBe(130);
  });

  it('detects a [Y/n] prompt of a background process and publishes it', async () => {
    const events: SessionEvent[] = [];
    const off = m.subscribe((e) => events.push(e));
    const p = await spawn('printf "Proceed with install? [Y/n] "; read a; echo "answer=$a"', 'inst');
    const w = await p.waitFor(undefined, 10_000, { stopOnInput: true });
    expect(w.status).toBe('waiting-for-input');
    expect(m.processes.digest()).toContain('waiting for input: "Proceed with install? [Y/n]"');
    p.send('n\n');
    expect((await p.waitFor('answer=n', 5000)).status).toBe('matched');
    off();
    expect(events.some((e) => e.type === 'waiting-for-input' && e.source.id === p.id)).toBe(true);
    expect(events.some((e) => e.type === 'process' && e.change === 'added' && e.entry.id === p.id)).toBe(true);
  });

  it('alias clashes and bad cwd are errors as values; dispose kills everything', async () => {
    const m2 = createSessionManager({ port: nodePtyPort, cwd: dir, env: { PATH: process.env.PATH ?? '' } });
    const a = await m2.spawn({ cmd: 'sleep 300', alias: 'a' });
    expect(a.ok).toBe(true);
    const b = await m2.spawn({ cmd: 'sleep 300', alias: 'a' });
    expect(!b.ok && b.error.kind).toBe('alias-taken');
    const c = await m2.spawn({ cmd: 'true', cwd: '/nonexistent/x' });
    expect(!c.ok && c.error.kind).toBe('bad-cwd');
    const pid = a.ok ? a.value.entry().pid : 0;
    await m2.dispose();
    expect(alive(pid)).toBe(false);
  });
});

describe('with the on-disk spool', () => {
  it('spools raw output of processes and session commands; wait_for and read work on it', async () => {
    const spoolDir = join(dir, 'spool');
    const ms = createSessionManager({ port: nodePtyPort, cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir }, spool: new SpoolStore(spoolDir) });
    try {
      const r = await ms.spawn({ cmd: 'echo "server ready"; printf "\\033[31mred\\033[0m\\n"; sleep 30' });
      if (!r.ok) throw new Error(r.error.message);
      await new Promise((res) => setTimeout(res, 200));
      expect((await r.value.waitFor(/server ready/, 5000)).status).toBe('matched');
      expect(r.value.entry().spoolRef).toMatch(/^mish raw [0-9a-z]+$/);
      expect(r.value.read().lines.map((l) => l.text)).toEqual(['server ready', '\x1b[31mred\x1b[0m']);
      const c = await ms.run({ command: 'seq 3' });
      const entry = ms.processes.get(c.id);
      expect(entry?.spoolRef).toMatch(/^mish raw /);
      expect(ms.process(c.id)?.read({ fromLine: 2, toLine: 3 }).lines).toEqual([{ n: 2, text: '2' }, { n: 3, text: '3' }]);
    } finally {
      await ms.dispose();
    }
  });
});

describe('keys and output ring', () => {
  it('maps key names to terminal bytes', () => {
    expect(keysToBytes(['C-c', 'C-d', 'Enter', 'Up', 'Tab', 'x', 'M-b'])).toBe('\x03\x04\r\x1b[A\tx\x1bb');
  });
  it('keeps exact lines, drops the oldest past its budget, greps', () => {
    const r = new OutputRing(20);
    r.write(Buffer.from('one\r\ntwo\nthr'));
    r.write(Buffer.from('ee\nfour\nfive\n'));
    const all = r.read();
    expect(all.lines.map((l) => l.text)).toEqual(['two', 'three', 'four', 'five']);
    expect(all.droppedLines).toBe(1);
    expect(r.read({ fromLine: 4, toLine: 4 }).lines).toEqual([{ n: 4, text: 'four' }]);
    expect(r.read({ grep: /f/ }).lines.map((l) => l.n)).toEqual([4, 5]);
  });
});

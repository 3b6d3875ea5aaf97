/**
 * The two implementations of the platform port answer alike on real processes and a real PTY
 * (the Linux one from /proc, the portable one from ps and stty), and MISH_PLATFORM picks.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { nodePtyPort } from './node-pty-port.js';
import { linuxPort } from './linux-port.js';
import { choosePlatform } from './platform.js';
import { portablePort } from './portable-port.js';
import type { PtyProcess } from '../core/pty/types.js';

const children: ChildProcess[] = [];
const ptys: PtyProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const p of ptys.splice(0)) p.kill('SIGKILL');
});

async function until<T>(get: () => T | undefined | Promise<T | undefined>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('platform port selection', () => {
  it('MISH_PLATFORM picks the implementation; the OS decides without it; an unknown name is a one-line error', () => {
    expect(choosePlatform({ MISH_PLATFORM: 'portable' }, 'linux').name).toBe('portable');
    expect(choosePlatform({ MISH_PLATFORM: 'linux' }, 'linux').name).toBe('linux');
    expect(choosePlatform({}, 'linux').name).toBe('linux');
    expect(choosePlatform({}, 'darwin').name).toBe('portable');
    expect(() => choosePlatform({ MISH_PLATFORM: 'macos' }, 'linux')).toThrow(/^mish: MISH_PLATFORM must be linux or portable, got "macos"$/);
  });

  it('runtime directories: XDG_RUNTIME_DIR on Linux; $TMPDIR (per user) or the home elsewhere', () => {
    expect(linuxPort.runtimeDir({ XDG_RUNTIME_DIR: '/run/user/7', HOME: '/h' })).toBe('/run/user/7/mish');
    expect(linuxPort.runtimeDir({ HOME: '/h' })).toBe('/h/.local/state/mish/run');
    expect(portablePort.runtimeDir({ TMPDIR: '/var/folders/x/T', HOME: '/h' })).toBe(`/var/folders/x/T/mish-${process.getuid!()}`);
  });
});

describe.each([linuxPort, portablePort])('the $name platform port', (port) => {
  it('reads a process: its parent, group and session, as the other implementation does', () => {
    const mine = port.readStat(process.pid)!;
    const other = (port === linuxPort ? portablePort : linuxPort).readStat(process.pid)!;
    expect(mine).toMatchObject({ pid: process.pid, ppid: process.ppid });
    expect({ pgrp: mine.pgrp, session: mine.session }).toEqual({ pgrp: other.pgrp, session: other.session });
    expect(port.readStat(2 ** 22 + 12345)).toBeUndefined();
  });

  it('finds children and grandchildren below a process, and processes by an environment entry', async () => {
    const mark = `MISH_PORT_TEST=${port.name}-${process.pid}-${Date.now()}`;
    const child = spawn('bash', ['-c', 'sleep 30 & wait'], { env: { ...process.env, [mark.split('=')[0]]: mark.split('=')[1] }, stdio: 'ignore' });
    children.push(child);
    const below = await until(() => {
      const d = port.descendantsOf(process.pid);
      return d.includes(child.pid!) && d.length >= 2 ? d : undefined;
    });
    const sleeper = port.findProcesses((s) => s.ppid === child.pid)[0];
    expect(below).toContain(sleeper.pid);
    expect(below.indexOf(child.pid!)).toBeLessThan(below.indexOf(sleeper.pid));
    expect(port.processesWithEnv(mark).sort()).toEqual([child.pid!, sleeper.pid].sort());
  });

  it('reads a terminal: its foreground group, the terminal mode (echo off for a password), a read blocked on it', async () => {
    const term = nodePtyPort.spawn('bash', ['--norc', '--noprofile'], { cols: 80, rows: 24, cwd: process.cwd(), env: { ...process.env, PS1: '$ ' } as Record<string, string> });
    ptys.push(term);
    const pts = term.ptsName!;
    expect(await until(async () => (await port.readTermMode(pts)) !== undefined)).toBe(true);
    term.write('read -r x\n');
    // bash's own read: the shell itself is the foreground group and waits reading the terminal.
    const probe = await until(() => {
      const p = port.probeForeground(term.pid, pts);
      return p?.ttyRead ? p : undefined;
    });
    expect(probe.pids).toContain(term.pid);
    expect(await port.readTermMode(pts)).toEqual({ echo: true, icanon: true });
    term.write('\nstty -echo; read -r x\n');
    await until(async () => (await port.readTermMode(pts))?.echo === false || undefined);
    expect(await port.readTermMode(pts)).toEqual({ echo: false, icanon: true });
    expect(port.foregroundRunning(term.pid)).toBe(false);
  });
});

describe('linux-proc childrenOf (the orphan sweep reads its own children, not every process)', () => {
  it.runIf(process.platform === 'linux')('finds a child as the full /proc scan does (same stat), and not a grandchild', async () => {
    const { allProcesses, childrenOf } = await import('./linux-proc.js');
    const c = spawn('bash', ['-c', 'sleep 30 & wait'], { stdio: 'ignore' });
    children.push(c);
    const grandchild = await until(() => allProcesses().find((s) => s.ppid === c.pid));
    const mine = childrenOf(process.pid)!;
    expect(mine.find((s) => s.pid === c.pid)).toEqual(allProcesses().find((s) => s.pid === c.pid));
    expect(mine.some((s) => s.pid === grandchild.pid)).toBe(false);
    expect(childrenOf(c.pid!)!.map((s) => s.pid)).toEqual([grandchild.pid]);
    process.kill(grandchild.pid, 'SIGKILL');
  });
});

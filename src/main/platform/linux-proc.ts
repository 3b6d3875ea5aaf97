/**
 * The Linux implementation of the platform port (platform.ts): process state from /proc, the
 * terminal's mode from `stty -a -F <pts>` (node has no tcgetattr). Is a process of the
 * terminal's foreground group blocked reading that terminal, and is the terminal in "secret"
 * mode (ECHO off, ICANON on, as for a password prompt)? /proc needs no privileges for our own
 * children.
 */
import { execFile } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import { entryNames } from '../core/fs/tolerant-fs.js';
import type { BlockedOn, ForegroundProbe, ProcStat, TermMode } from './port.js';
import { descendantsIn } from './process-tree.js';

/** Syscall numbers of read(2)-like calls whose first argument is the fd. */
const READ_SYSCALLS: Record<string, number[]> = {
  x64: [0 /* read */, 17 /* pread64 */, 19 /* readv */],
  arm64: [63 /* read */, 65 /* readv */, 67 /* pread64 */],
};
/** Syscalls that wait on several fds (select/poll family): a REPL with readline sits here. */
const POLL_SYSCALLS: Record<string, number[]> = {
  x64: [7 /* poll */, 23 /* select */, 270 /* pselect6 */, 271 /* ppoll */, 232 /* epoll_wait */, 281 /* epoll_pwait */],
  arm64: [72 /* pselect6 */, 73 /* ppoll */, 22 /* epoll_pwait */],
};
/** stty can hang on a vanished pts; never wait longer than this for the terminal mode. */
const STTY_TIMEOUT_MS = 1000;

export function readStat(pid: number): ProcStat | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { pid, state: f[0], ppid: Number(f[1]), pgrp: Number(f[2]), session: Number(f[3]), ttyNr: Number(f[4]), tpgid: Number(f[5]) };
  } catch {
    return undefined;
  }
}

/** The pids /proc lists now (its entries named by a number); none where there is no /proc. */
function procPids(): number[] {
  const pids: number[] = [];
  for (const n of entryNames('/proc')) {
    const c = n.charCodeAt(0);
    if (c >= 48 /* 0 */ && c <= 57 /* 9 */) pids.push(Number(n));
  }
  return pids;
}

/**
 * The children of `pid` (zombies included) from /proc/<pid>/task/<tid>/children: a few files
 * rather than every process of the machine. Undefined when the kernel does not offer those files
 * (no CONFIG_PROC_CHILDREN): the caller scans /proc.
 */
export function childrenOf(pid: number): ProcStat[] | undefined {
  const out: ProcStat[] = [];
  let any = false;
  // Children hang off the thread that forked them: read every task's list.
  for (const tid of entryNames(`/proc/${pid}/task`)) {
    let list: string;
    try {
      list = readFileSync(`/proc/${pid}/task/${tid}/children`, 'latin1');
    } catch {
      continue; // a thread that ended meanwhile, or no such file at all (any stays false)
    }
    any = true;
    for (const c of list.split(' ')) {
      const child = c ? readStat(Number(c)) : undefined;
      if (child && child.ppid === pid) out.push(child);
    }
  }
  return any ? out : undefined;
}

/** Every process /proc lists now, zombies included. */
export function allProcesses(): ProcStat[] {
  const out: ProcStat[] = [];
  for (const pid of procPids()) {
    const st = readStat(pid);
    if (st) out.push(st);
  }
  return out;
}

/**
 * Every live process below `root` in the process tree (children, theirs, …), parents before
 * children. With the server a child subreaper, orphans of its descendants are its children, so
 * this finds what left its process group and dropped its marks (setsid, a double fork, env -u).
 */
export function descendantsOf(root: number): number[] {
  return descendantsIn(allProcesses(), root, (st) => st.state !== 'Z' && st.state !== 'X');
}

/** All live pids whose stat satisfies `pick` (one pass over /proc). */
export function findProcesses(pick: (s: ProcStat) => boolean): ProcStat[] {
  const out: ProcStat[] = [];
  for (const pid of procPids()) {
    const st = readStat(pid);
    if (st && st.state !== 'Z' && pick(st)) out.push(st);
  }
  return out;
}

/** What the process is blocked in, judged from /proc/<pid>/syscall. */
export function blockedOn(pid: number, ptsName: string | undefined): BlockedOn {
  let sc: string;
  try {
    sc = readFileSync(`/proc/${pid}/syscall`, 'latin1').trim();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'EACCES' || code === 'EPERM' ? 'unreadable' : undefined;
  }
  const parts = sc.split(' ');
  const nr = Number(parts[0]);
  if (!Number.isInteger(nr)) return undefined; // "running" or "-1 …"
  const arch = process.arch;
  if ((READ_SYSCALLS[arch] ?? []).includes(nr)) {
    const fd = Number.parseInt(parts[1] ?? '', 16);
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (target === '/dev/tty' || (ptsName && target === ptsName) || target.startsWith('/dev/pts/')) return 'tty-read';
    } catch {
      return undefined;
    }
    return undefined;
  }
  if ((POLL_SYSCALLS[arch] ?? []).includes(nr)) return 'poll';
  return undefined;
}

/**
 * Probe the foreground process group of the terminal whose session leader is `leaderPid`.
 * Returns undefined when /proc is not available (not Linux) or the leader is gone.
 */
export function probeForeground(leaderPid: number, ptsName: string | undefined): ForegroundProbe | undefined {
  const members = foregroundMembers(leaderPid);
  if (!members) return undefined;
  let ttyRead = false;
  let polling = false;
  let unreadable = false;
  for (const m of members) {
    const b = blockedOn(m.pid, ptsName);
    if (b === 'tty-read') ttyRead = true;
    else if (b === 'poll') polling = true;
    else if (b === 'unreadable' && m.state === 'S') unreadable = true;
  }
  return { ttyRead, polling, unreadable, pids: members.map((m) => m.pid) };
}

/** The live processes of the foreground group of the terminal led by `leaderPid`; undefined without /proc or the leader. */
function foregroundMembers(leaderPid: number): ProcStat[] | undefined {
  const leader = readStat(leaderPid);
  if (!leader) return undefined;
  const fg = leader.tpgid > 0 ? leader.tpgid : leader.pgrp;
  const pick = (s: ProcStat) => s.pgrp === fg && s.session === leader.session;
  // The members are nearly always below the leader: walking its tree reads a few files where a
  // /proc scan reads every process of the machine (it ran on every silence of every command).
  const below = treeBelow(leader, pick);
  return below?.length ? below : findProcesses(pick);
}

/** Bounds the walk below a session leader (a fork bomb must not make one probe slow). */
const MAX_TREE_WALK = 256;

/**
 * The live processes satisfying `pick` in the tree of `root` (itself included), through
 * /proc/<pid>/task/<tid>/children; undefined when the kernel does not offer those files or
 * the tree is larger than MAX_TREE_WALK (the caller then scans /proc).
 */
function treeBelow(root: ProcStat, pick: (s: ProcStat) => boolean): ProcStat[] | undefined {
  const out: ProcStat[] = [];
  const queue: ProcStat[] = [root];
  for (let seen = 0; queue.length; seen++) {
    if (seen > MAX_TREE_WALK) return undefined;
    const st = queue.shift()!;
    if (st.state !== 'Z' && pick(st)) out.push(st);
    // Children hang off the thread that forked them: read every task's list (most programs have one).
    for (const tid of entryNames(`/proc/${st.pid}/task`)) {
      let list: string;
      try {
        list = readFileSync(`/proc/${st.pid}/task/${tid}/children`, 'latin1');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT' && st === root) return undefined; // no CONFIG_PROC_CHILDREN
        continue;
      }
      for (const c of list.split(' ')) {
        const child = c ? readStat(Number(c)) : undefined;
        if (child) queue.push(child);
      }
    }
  }
  return out;
}

/**
 * Some process of that foreground group is on a CPU or ready to run (state R): it is
 * computing, not waiting for a key. A program stalled in synchronous work while its terminal
 * is raw (a spinner's stdin discarder) is quiet but not asking anything. Undefined without /proc.
 */
export function foregroundRunning(leaderPid: number): boolean | undefined {
  return foregroundMembers(leaderPid)?.some((m) => m.state === 'R');
}

/** The terminal's line discipline flags, read with `stty -a -F <pts>`. */
export function readTermMode(ptsName: string): Promise<TermMode | undefined> {
  return new Promise((resolve) => {
    execFile('stty', ['-a', '-F', ptsName], { timeout: STTY_TIMEOUT_MS }, (err, stdout) => {
      if (err) return resolve(undefined);
      const words = new Set(stdout.split(/[\s;]+/));
      resolve({ echo: words.has('echo'), icanon: words.has('icanon') });
    });
  });
}

/** Every live process in the terminal session led by `sid` (the PTY child), leader included. */
export function sessionMembers(sid: number): number[] {
  return findProcesses((s) => s.session === sid).map((s) => s.pid);
}

/**
 * Live pids whose environment holds `entry` ("NAME=value") exactly: the processes that left
 * their session and group (setsid, double fork) still carry the environment they were started
 * with. Processes of other users are unreadable and skipped.
 */
export function processesWithEnv(entry: string): number[] {
  const needle = Buffer.from(`${entry}\0`);
  const out: number[] = [];
  for (const pid of procPids()) {
    let env: Buffer;
    try {
      env = readFileSync(`/proc/${pid}/environ`);
    } catch {
      continue;
    }
    const at = env.indexOf(needle);
    // A whole entry: at the start, or right after the previous entry's NUL.
    if (at === 0 || (at > 0 && env[at - 1] === 0)) out.push(pid);
  }
  return out;
}

/** The executable of a process (/proc/<pid>/exe); undefined when gone or not ours. */
export function executableOf(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return undefined;
  }
}

export function commandLineOf(pid: number): string[] | undefined {
  try {
    const s = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return s === '' ? [] : s.replace(/\0$/, '').split('\0');
  } catch {
    return undefined;
  }
}

/** SIGINT's bit in /proc/<pid>/status signal masks (signal 2 → bit 1). */
const SIGINT_BIT = 1n << 1n;

function sigMask(status: string, field: 'SigBlk' | 'SigCgt'): bigint {
  const m = new RegExp(`^${field}:\\s*([0-9a-f]+)$`, 'm').exec(status);
  return m ? BigInt(`0x${m[1]}`) : 0n;
}

/** Does the process block or catch SIGINT (/proc/<pid>/status)? False when it cannot be read. */
export function blocksOrCatchesSigint(pid: number): boolean {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return ((sigMask(status, 'SigBlk') | sigMask(status, 'SigCgt')) & SIGINT_BIT) !== 0n;
  } catch {
    return false;
  }
}

/** The calling thread's own id (/proc/thread-self → <pid>/task/<tid>); undefined without /proc. */
export function currentThreadId(): number | undefined {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

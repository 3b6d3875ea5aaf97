/**
 * The platform port where there is no /proc (macOS, the BSDs), selectable on Linux with
 * MISH_PLATFORM=portable so CI runs the engine through it too. Processes come from `ps` (the
 * keywords used are in both BSD ps and Linux procps: pid, ppid, pgid, sess, tpgid, stat, tty,
 * wchan, sigmask, sigcatch, comm), the terminal's mode from `stty -a` with the terminal as its
 * stdin (BSD spells the device option -f, GNU -F; a redirect works with both). There is no
 * child subreaper: processes are owned by their process group and the owner variable.
 *
 * What a process waits in comes from its wait channel: BSD/macOS name a terminal read `ttyin`
 * and select/poll `select`/`poll`/`kqread`; Linux names a terminal read `wait_woken` (which a
 * socket read shares: a guess there, exact on macOS) and poll `poll_schedule_timeout`/`do_select`/`ep_poll`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type { BlockedOn, ForegroundProbe, PlatformPort, ProcStat, TermMode } from './port.js';
import { descendantsIn } from './process-tree.js';

/** stty can hang on a vanished terminal; never wait longer than this for the terminal mode. */
const STTY_TIMEOUT_MS = 1000;
/** ps of a busy machine is slow under load; past this the snapshot is treated as unavailable. */
const PS_TIMEOUT_MS = 5000;
/** Large process tables: ps's output for a few thousand processes. */
const PS_MAX_BUFFER = 32 * 1024 * 1024;

const TTY_READ_WCHANS = new Set(['ttyin', 'ttread', 'ttyread', 'n_tty_read', 'wait_woken']);
const POLL_WCHANS = new Set(['select', 'poll', 'kqread', 'poll_schedule_timeout', 'do_select', 'ep_poll', 'do_epoll_wait', 'core_sys_select', 'do_sys_poll']);

interface PsRow extends ProcStat {
  wchan: string;
}

let snapshot: { at: number; rows: PsRow[] } | undefined;

/**
 * Every process: one `ps` run (wchan last: Linux procps does not truncate the last column).
 * `ps` is a process per call, so one snapshot serves every question asked in the same turn of
 * the event loop (a probe asks several); the next turn looks again (a ^C waiting for a job to
 * start polls every few ms and must never see an older table).
 */
function table(): PsRow[] {
  if (snapshot) return snapshot.rows;
  const now = Date.now();
  const r = spawnSync('ps', ['-A', '-o', 'pid=,ppid=,pgid=,sess=,tpgid=,stat=,tty=,wchan='], { encoding: 'utf8', timeout: PS_TIMEOUT_MS, maxBuffer: PS_MAX_BUFFER });
  const rows: PsRow[] = [];
  if (r.status === 0) {
    for (const line of r.stdout.split('\n')) {
      const f = line.trim().split(/\s+/);
      if (f.length < 7) continue;
      const [pid, ppid, pgrp, session, tpgid] = f.slice(0, 5).map(Number);
      if (!Number.isInteger(pid)) continue;
      // Stopped/zombie letters are the same in both ps; the terminal's name stands for its number here (only compared).
      rows.push({ pid, ppid, pgrp, session, tpgid, state: f[5][0], ttyNr: f[6] === '?' || f[6] === '??' ? 0 : hashName(f[6]), wchan: (f[7] ?? '').replace(/\.constprop\.\d+$|\.isra\.\d+$/, '') });
    }
  }
  snapshot = { at: now, rows };
  setImmediate(() => (snapshot = undefined)).unref?.();
  return rows;
}

/** A stable number for a terminal's name (`pts/3`, `ttys003`): ProcStat.ttyNr is only compared. */
function hashName(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
  return Math.abs(h) || 1;
}

const live = (s: ProcStat) => s.state !== 'Z' && s.state !== 'X';

function readStat(pid: number): ProcStat | undefined {
  return table().find((s) => s.pid === pid);
}

function findProcesses(pick: (s: ProcStat) => boolean): ProcStat[] {
  return table().filter((s) => live(s) && pick(s));
}

function descendantsOf(root: number): number[] {
  return descendantsIn(table(), root, live);
}

function blockedOn(row: PsRow): BlockedOn {
  if (TTY_READ_WCHANS.has(row.wchan)) return 'tty-read';
  if (POLL_WCHANS.has(row.wchan)) return 'poll';
  return undefined;
}

function foregroundMembers(leaderPid: number): PsRow[] | undefined {
  const rows = table();
  const leader = rows.find((s) => s.pid === leaderPid);
  if (!leader) return undefined;
  const fg = leader.tpgid > 0 ? leader.tpgid : leader.pgrp;
  return rows.filter((s) => live(s) && s.pgrp === fg && s.session === leader.session);
}

function probeForeground(leaderPid: number): ForegroundProbe | undefined {
  const members = foregroundMembers(leaderPid);
  if (!members) return undefined;
  let ttyRead = false;
  let polling = false;
  for (const m of members) {
    const b = blockedOn(m);
    if (b === 'tty-read') ttyRead = true;
    else if (b === 'poll') polling = true;
  }
  // ps shows every process's wait channel, another user's too: nothing is unreadable here.
  return { ttyRead, polling, unreadable: false, pids: members.map((m) => m.pid) };
}

/** `stty -a` reading the terminal as its stdin (opened without becoming anyone's controlling terminal). */
function readTermMode(ptsName: string): Promise<TermMode | undefined> {
  let fd: number;
  try {
    fd = openSync(ptsName, constants.O_RDONLY | constants.O_NOCTTY | constants.O_NONBLOCK);
  } catch {
    return Promise.resolve(undefined);
  }
  return new Promise<TermMode | undefined>((resolve) => {
    let out = '';
    const child = spawn('stty', ['-a'], { stdio: [fd, 'pipe', 'ignore'], timeout: STTY_TIMEOUT_MS });
    closeSync(fd); // the child has its copy
    child.stdout!.on('data', (d: Buffer) => (out += d.toString('latin1')));
    child.on('error', () => resolve(undefined));
    child.on('close', (code) => {
      if (code !== 0) return resolve(undefined);
      const words = new Set(out.split(/[\s;]+/));
      resolve({ echo: words.has('echo'), icanon: words.has('icanon') });
    });
  });
}

function sessionMembers(sid: number): number[] {
  return findProcesses((s) => s.session === sid).map((s) => s.pid);
}

/** `ps` with each process's environment after its command line (BSD: -E; procps: e). */
function processesWithEnv(entry: string): number[] {
  const args = process.platform === 'linux' ? ['-A', 'e', '-ww', '-o', 'pid=,args='] : ['-A', '-E', '-ww', '-o', 'pid=,command='];
  const r = spawnSync('ps', args, { encoding: 'utf8', timeout: PS_TIMEOUT_MS, maxBuffer: PS_MAX_BUFFER });
  if (r.status !== 0) return [];
  const out: number[] = [];
  for (const line of r.stdout.split('\n')) {
    const m = /^\s*(\d+)\s(.*)$/.exec(line);
    // A whole word: entries are separated by spaces there (values with spaces cannot be told apart; mish's owner marks have none).
    if (m && (` ${m[2]} `).includes(` ${entry} `)) out.push(Number(m[1]));
  }
  return out;
}

interface SignalRow {
  comm: string;
  sigmask: string;
  sigcatch: string;
}

let signalSnapshot: Map<number, SignalRow> | undefined;

/**
 * Every process's executable name and signal masks from one `ps` run, kept for the same turn of
 * the event loop as table(): "is this job still starting" asks both of several processes, and
 * answers from separate `ps` runs (tens of ms apart on a loaded machine) could describe a
 * process before and after its exec. comm is last: it may hold spaces (a macOS path).
 */
function signalTable(): Map<number, SignalRow> {
  if (signalSnapshot) return signalSnapshot;
  const r = spawnSync('ps', ['-A', '-o', 'pid=,sigmask=,sigcatch=,comm='], { encoding: 'utf8', timeout: PS_TIMEOUT_MS, maxBuffer: PS_MAX_BUFFER });
  const rows = new Map<number, SignalRow>();
  if (r.status === 0) {
    for (const line of r.stdout.split('\n')) {
      const m = /^\s*(\d+)\s+(\S+)\s+(\S+)\s+(.*?)\s*$/.exec(line);
      if (m) rows.set(Number(m[1]), { sigmask: m[2], sigcatch: m[3], comm: m[4] });
    }
  }
  signalSnapshot = rows;
  setImmediate(() => (signalSnapshot = undefined)).unref?.();
  return rows;
}

function psField(pid: number, keyword: string): string | undefined {
  const r = spawnSync('ps', ['-p', String(pid), '-o', `${keyword}=`], { encoding: 'utf8', timeout: PS_TIMEOUT_MS });
  return r.status === 0 ? r.stdout.trim() || undefined : undefined;
}

function blocksOrCatchesSigint(pid: number): boolean {
  const SIGINT_BIT = 1n << 1n;
  const row = signalTable().get(pid);
  if (!row) return false;
  return [row.sigmask, row.sigcatch].some((v) => /^[0-9a-f]+$/i.test(v) && (BigInt(`0x${v}`) & SIGINT_BIT) !== 0n);
}

export const portablePort: PlatformPort = {
  name: 'portable',
  readStat,
  allProcesses: () => table(),
  findProcesses,
  descendantsOf,
  probeForeground: (leaderPid) => probeForeground(leaderPid),
  foregroundRunning: (leaderPid) => foregroundMembers(leaderPid)?.some((m) => m.state === 'R'),
  readTermMode,
  sessionMembers,
  processesWithEnv,
  executableOf: (pid) => signalTable().get(pid)?.comm || undefined,
  // ps joins the arguments with spaces: enough to look for one flag among them.
  commandLineOf: (pid) => psField(pid, 'args')?.split(/\s+/),
  blocksOrCatchesSigint,
  currentThreadId: () => undefined,
  becomeChildSubreaper: async () => ({ ok: false, why: 'no child subreaper on this platform (processes are owned by their process group and the owner variable)' }),
  // $TMPDIR is per user on macOS; elsewhere it may be a shared /tmp, so the directory carries the uid (and is created 0700).
  runtimeDir: (env) =>
    env.TMPDIR
      ? path.join(env.TMPDIR, `mish-${process.getuid?.() ?? 'user'}`)
      : process.platform === 'darwin'
        ? path.join(env.HOME || homedir(), 'Library', 'Application Support', 'mish', 'run')
        : path.join(env.HOME || homedir(), '.local', 'state', 'mish', 'run'),
};

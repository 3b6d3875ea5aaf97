/**
 * The per-user hook daemon (`mish hook --daemon`): answers the bash front (bin/mish-hook.sh) for
 * the calls it can decide at once, so an allowed command costs a bash start and one round trip
 * instead of a Node start (~100 ms on a 2-core machine by itself). It answers only what is
 * decided without waiting for anyone and without a record to write: a pass (no opinion) and a
 * rewrite the host's own permission check still judges. Everything else — a refusal (audited),
 * an escalation (operator), a fallback, a request it does not fully recognise — is answered
 * `slow`, and the front runs the node hook, which decides it as before. Its answers are the node
 * hook's own: the same runHook() (hook-command.ts) in fast-only mode, with the caller's cwd and
 * exactly the environment keys the decision reads (FORWARDED_ENV), nothing of its own.
 *
 * Transport: FIFOs in a 0700 per-user directory (hook-daemon-dir.ts), no socket, token or HMAC:
 * the front writes its request to a 0600 file `q.<id>`, makes its reply FIFO `a.<id>`, and writes
 * the line `<id>` (atomic: shorter than PIPE_BUF) to the daemon's FIFO `req`; the daemon answers
 * one line on `a.<id>` and removes both.
 *
 * Ownership: started on demand by the node hook (when the front fell back to it and no daemon
 * runs), detached, owning itself; never two (the pidfile is taken with link(2), and a daemon
 * whose pidfile or FIFO was taken over exits); exits after DAEMON_IDLE_MS without a request, when
 * its bundle or Node changes, when its directory, FIFO or pidfile is removed or replaced, and on
 * SIGTERM (`mish hook --stop-daemon`). One exception: a regular file where its FIFO was (a front
 * that opened `req` just after it was removed creates one; so does a stray `> req`) is replaced by
 * a new FIFO, and the daemon carries on: the fronts would otherwise skip it, and the node hook
 * would start no other while it lives, until `mish hook --stop-daemon`.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, fstatSync, linkSync, lstatSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync, type Stats } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Policy } from '../core/policy/index.js';
import { removeQuietly } from '../operator/paths.js';
import { FORWARDED_ENV, hookDaemonDir, runningDaemon } from './hook-daemon-dir.js';
import { runHook, SlowPath, type HookIo } from './hook-command.js';

/**
 * A daemon with no request for this long exits: an agent's pauses between commands are seconds
 * to minutes, and after a quarter of an hour without one its ~40 MB are worth giving back (the
 * next call pays one node start and starts it again). MISH_HOOKD_IDLE_MS overrides it (tests).
 */
export const DAEMON_IDLE_MS = 15 * 60_000;
/** How often it checks, between requests, that its directory, FIFO, pidfile and bundle are still its own. */
const DAEMON_CHECK_MS = 2_000;
/** Largest request file read: the front sends payloads up to its own cap (64 KB) plus the environment. */
const MAX_REQUEST_BYTES = 256 * 1024;
/** Longest reply line: written at once to a fresh FIFO (PIPE_BUF), so the front never reads half of one. */
const MAX_REPLY_BYTES = 4096;
/** The first field of a request file (bin/mish-hook.sh writes it). */
const REQUEST_MAGIC = 'mish-hook-request 1';
/** Request ids as the front makes them ($$.$RANDOM.$RANDOM). */
const REQUEST_ID = /^\d{1,10}\.\d{1,5}\.\d{1,5}$/;

export type FastReply = { kind: 'pass' } | { kind: 'out'; line: string } | { kind: 'slow'; why: string };

/** A request as the front wrote it. */
export interface FrontRequest {
  binDir: string;
  node: string;
  cwd: string;
  argv: string[];
  env: Record<string, string>;
  payload: string;
}

/** Reads `q.<id>` (a 0600 regular file of ours, not a link): NUL-separated fields, then the payload. */
export function readRequest(file: string): FrontRequest | string {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    if (!st.isFile()) return 'the request is not a regular file';
    if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return 'the request is not the user\'s own';
    if ((st.mode & 0o077) !== 0) return 'the request is readable by others';
    if (st.size > MAX_REQUEST_BYTES) return 'the request is too large';
    return parseRequest(readFileSync(fd));
  } catch (e) {
    return `the request cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export function parseRequest(buf: Buffer): FrontRequest | string {
  let at = 0;
  const field = (): string | undefined => {
    const end = buf.indexOf(0, at);
    if (end < 0) return undefined;
    const s = buf.subarray(at, end).toString('utf8');
    at = end + 1;
    return s;
  };
  if (field() !== REQUEST_MAGIC) return 'not a request of this version';
  const binDir = field();
  const node = field();
  const cwd = field();
  const argc = Number(field());
  if (binDir === undefined || node === undefined || cwd === undefined || !Number.isInteger(argc) || argc < 0 || argc > 8) return 'a malformed request header';
  const argv: string[] = [];
  for (let i = 0; i < argc; i++) {
    const a = field();
    if (a === undefined) return 'a malformed argument list';
    argv.push(a);
  }
  const env: Record<string, string> = {};
  const allowed = new Set<string>(FORWARDED_ENV);
  for (;;) {
    const kv = field();
    if (kv === undefined) return 'an unterminated environment';
    if (kv === '') break;
    const eq = kv.indexOf('=');
    const k = kv.slice(0, eq);
    if (eq <= 0 || !allowed.has(k) || k in env) return `an unexpected environment entry`;
    env[k] = kv.slice(eq + 1);
  }
  return { binDir, node, cwd, argv, env, payload: buf.subarray(at).toString('utf8') };
}

/**
 * The node hook's answer for this request, when it is a fast one: runHook() in fast-only mode
 * with process.env replaced by the forwarded keys and the process in the caller's cwd, as the
 * node hook runs (restored after). One request at a time: nothing else runs meanwhile.
 */
export async function fastDecision(req: Pick<FrontRequest, 'argv' | 'cwd' | 'payload'> & { env: NodeJS.ProcessEnv }, memo?: Map<string, Policy>): Promise<FastReply> {
  const savedEnv = process.env;
  const savedCwd = process.cwd();
  let out = '';
  let err = '';
  try {
    process.chdir(req.cwd);
  } catch {
    return { kind: 'slow', why: 'the caller\'s cwd is not reachable' };
  }
  process.env = req.env;
  try {
    const io: HookIo = {
      readStdin: async (max) => (Buffer.byteLength(req.payload) > max ? undefined : req.payload),
      out: (t) => {
        out += t;
      },
      err: (t) => {
        err += t;
      },
      env: req.env,
      cwd: () => process.cwd(),
      now: () => Date.now(),
    };
    // As hook-entry.ts reads its argv (`hook <agent> …`).
    const argv = req.argv[0] === 'hook' ? req.argv.slice(1) : req.argv;
    const code = await runHook(argv, io, { fastOnly: true, policyMemo: memo });
    if (code !== 0 || err !== '') return { kind: 'slow', why: `exit ${code}` };
    if (out === '') return { kind: 'pass' };
    if (!/^\{[^\n]*\}\n$/.test(out)) return { kind: 'slow', why: 'an answer that is not one JSON line' };
    return { kind: 'out', line: out.slice(0, -1) };
  } catch (e) {
    return { kind: 'slow', why: e instanceof SlowPath ? e.message : `internal error (${(e as Error)?.message ?? String(e)})` };
  } finally {
    process.env = savedEnv;
    try {
      process.chdir(savedCwd);
    } catch {
      process.chdir('/');
    }
  }
}

/** The reply line for the front (`mishd1 <id> pass|slow|out <json>`); a line too long to write at once is `slow`. */
export function replyLine(id: string, r: FastReply): string {
  // A slow reply says why (one line, for tests and `bash -x`): the front runs the node hook for any reply but pass and out.
  const line = r.kind === 'out' ? `mishd1 ${id} out ${r.line}\n` : r.kind === 'slow' ? `mishd1 ${id} slow ${r.why.replace(/[\r\n]/g, ' ')}\n` : `mishd1 ${id} pass\n`;
  return Buffer.byteLength(line) > MAX_REPLY_BYTES ? `mishd1 ${id} slow\n` : line;
}

const identity = (s: Stats) => `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
const inode = (s: Stats) => `${s.dev}:${s.ino}`;

/** This installation's dist/hook.cjs (the code the node hook runs) and bin/ (where the front lives). */
function installation(): { bundle: string; binDir: string } {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const rel of ['..', '../..', '../../..']) {
    const root = path.resolve(here, rel);
    try {
      statSync(path.join(root, 'dist', 'hook.cjs'));
      return { bundle: path.join(root, 'dist', 'hook.cjs'), binDir: realpathSync(path.join(root, 'bin')) };
    } catch {
      // next
    }
  }
  throw new Error('dist/hook.cjs not found: run `npm run build:cli`');
}

function idleMs(env: NodeJS.ProcessEnv): number {
  const v = Number(env.MISH_HOOKD_IDLE_MS);
  return env.MISH_HOOKD_IDLE_MS && Number.isFinite(v) && v > 0 ? v : DAEMON_IDLE_MS;
}

/** Makes (or checks) the 0700 directory of ours; a message when it is not safe to serve from. */
function ownDir(dir: string): string | undefined {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory()) return `${dir} is not a directory`;
    if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return `${dir} belongs to another user`;
    if ((st.mode & 0o077) !== 0) return `${dir} is open to other users (mode ${(st.mode & 0o777).toString(8)})`;
    return undefined;
  } catch (e) {
    return `${dir}: ${(e as Error).message}`;
  }
}

/** Takes the pidfile with link(2) (atomic); a stale one (its process gone) is removed and taken once more. */
function takePidfile(dir: string): boolean {
  const pidfile = path.join(dir, 'pid');
  const tmp = path.join(dir, `pid.${process.pid}.tmp`);
  writeFileSync(tmp, `${process.pid}\n`, { mode: 0o600 });
  try {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        linkSync(tmp, pidfile);
        return true;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        if (runningDaemon(dir) !== undefined) return false;
        removeQuietly(pidfile); // (another starter may have removed it first)
      }
    }
    return false;
  } finally {
    removeQuietly(tmp);
  }
}

/** Runs the daemon until it has a reason to stop; exits the process then. */
export async function runDaemon(env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const dir = hookDaemonDir(env);
  const bad = ownDir(dir);
  if (bad) {
    process.stderr.write(`mish hook daemon: not started: ${bad}\n`);
    return 1;
  }
  const { bundle, binDir } = installation();
  if (!takePidfile(dir)) return 0; // one runs already
  const pidfile = path.join(dir, 'pid');
  const req = path.join(dir, 'req');
  const tmpFifo = path.join(dir, `req.${process.pid}.tmp`);
  /** Makes the FIFO under a name of its own and renames it to `req` (over whatever is there); its inode. */
  const makeFifo = (): string => {
    execFileSync('mkfifo', ['-m', '600', tmpFifo], { stdio: 'ignore' });
    renameSync(tmpFifo, req);
    return inode(lstatSync(req));
  };
  let fifoId: string;
  try {
    fifoId = makeFifo();
  } catch (e) {
    removeQuietly(pidfile);
    process.stderr.write(`mish hook daemon: not started: cannot make its FIFO (${(e as Error).message})\n`);
    return 1;
  }
  const dirId = inode(lstatSync(dir));
  const bundleId = identity(statSync(bundle));
  const memo = new Map<string, Policy>();
  /** Its pidfile still names it (else another daemon took over). */
  const pidfileOurs = (): boolean => {
    try {
      return readFileSync(pidfile, 'utf8').trim() === String(process.pid);
    } catch {
      return false;
    }
  };

  /**
   * A regular file of ours where its FIFO was, in its own directory, with its pidfile: a new FIFO
   * replaces it (and is read from then on). True when it did.
   */
  const fifoRestored = (): boolean => {
    try {
      if (inode(lstatSync(dir)) !== dirId || !pidfileOurs()) return false;
      const f = lstatSync(req);
      if (!f.isFile() || (typeof process.getuid === 'function' && f.uid !== process.getuid())) return false;
      fifoId = makeFifo();
      listen(openSync(req, constants.O_RDWR | constants.O_NONBLOCK));
      if (env.MISH_HOOKD_LOG) process.stderr.write(`mish hook daemon ${process.pid}: a regular file was where its FIFO was: made a new FIFO\n`);
      return true;
    } catch {
      removeQuietly(tmpFifo);
      return false;
    }
  };

  const stillOurs = (): string | undefined => {
    try {
      if (inode(lstatSync(dir)) !== dirId) return 'its directory was replaced';
      const f = lstatSync(req);
      if ((!f.isFIFO() || inode(f) !== fifoId) && !(f.isFile() && fifoRestored())) return 'its FIFO was replaced';
      if (readFileSync(pidfile, 'utf8').trim() !== String(process.pid)) return 'its pidfile names another process';
      if (identity(statSync(bundle)) !== bundleId) return 'its bundle changed';
      return undefined;
    } catch (e) {
      return `its files are gone (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
    }
  };
  const stop = (why: string): void => {
    // Only what is still ours is removed: a successor's pidfile and FIFO stay.
    try {
      if (inode(lstatSync(req)) === fifoId) unlinkSync(req);
    } catch {
      // gone
    }
    try {
      if (readFileSync(pidfile, 'utf8').trim() === String(process.pid)) unlinkSync(pidfile);
    } catch {
      // gone
    }
    if (env.MISH_HOOKD_LOG) process.stderr.write(`mish hook daemon ${process.pid}: exits: ${why}\n`);
    process.exit(0);
  };
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(sig, () => stop(sig));

  let idle: NodeJS.Timeout;
  const idleFor = idleMs(env);
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(() => stop('idle'), idleFor);
  };
  touch();
  setInterval(() => {
    const why = stillOurs();
    if (why) stop(why);
  }, DAEMON_CHECK_MS);

  const queue: string[] = [];
  let busy = false;
  const serve = async (): Promise<void> => {
    if (busy) return;
    busy = true;
    while (queue.length > 0) {
      const id = queue.shift()!;
      touch();
      if (!REQUEST_ID.test(id)) continue; // not a request of a front: nothing to answer
      const q = path.join(dir, `q.${id}`);
      const a = path.join(dir, `a.${id}`);
      const why = stillOurs();
      let r: FastReply;
      if (why) r = { kind: 'slow', why };
      else {
        const request = readRequest(q);
        if (typeof request === 'string') r = { kind: 'slow', why: request };
        else if (request.node !== process.execPath) r = { kind: 'slow', why: 'another node' };
        else if (!sameDir(request.binDir, binDir)) r = { kind: 'slow', why: 'another installation of mish' };
        else if (!path.isAbsolute(request.cwd)) r = { kind: 'slow', why: 'a relative cwd' };
        // The node hook falls back to the passwd entry's home without HOME; the daemon's own would be another process's answer.
        else if (!request.env.HOME) r = { kind: 'slow', why: 'no HOME' };
        else r = await fastDecision(request, memo);
      }
      writeReply(a, replyLine(id, r));
      removeQuietly(q);
      removeQuietly(a);
      if (why) stop(why);
    }
    busy = false;
  };
  let pending = '';
  let fifo: net.Socket | undefined;
  /** Reads request ids from the FIFO open on `fd` (the one before it, if any, is closed). */
  function listen(fd: number): void {
    const old = fifo;
    const socket = new net.Socket({ fd, readable: true, writable: false });
    fifo = socket;
    pending = '';
    old?.destroy();
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      // A line longer than any id is noise: dropped, so one writer cannot grow it without bound.
      if (pending.length > 64) pending = '';
      queue.push(...lines);
      void serve();
    });
    socket.on('error', (e) => {
      if (fifo === socket) stop(`its FIFO failed (${e.message})`);
    });
  }
  listen(openSync(req, constants.O_RDWR | constants.O_NONBLOCK));
  return new Promise<number>(() => {
    // runs until stop() exits the process
  });
}

const realCache = new Map<string, string>();
function sameDir(a: string, b: string): boolean {
  if (a === b) return true;
  let r = realCache.get(a);
  if (r === undefined) {
    try {
      r = realpathSync(a);
    } catch {
      r = '';
    }
    if (realCache.size > 16) realCache.clear();
    realCache.set(a, r);
  }
  return r === b;
}

/** One line to the front's reply FIFO: never blocks (no reader: the front gave up; it then runs the node hook). */
function writeReply(file: string, line: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    if (!fstatSync(fd).isFIFO()) return;
    writeSync(fd, line);
  } catch {
    // the front is gone or the file is not its FIFO
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

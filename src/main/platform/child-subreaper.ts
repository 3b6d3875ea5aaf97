/**
 * Makes this process the "child subreaper" of everything it starts (Linux prctl
 * PR_SET_CHILD_SUBREAPER): a descendant whose parent dies — a double fork, `setsid cmd &` in a
 * shell that then exits — is re-parented to us instead of to init, so the server can still find
 * it by ancestry when it shuts down, even if it dropped the MISH_OWNER variable that marks it
 * (issue 9). The call goes through koffi, a maintained FFI library whose package ships prebuilt
 * binaries (Node has no prctl binding of its own).
 *
 * Re-parented orphans that exit become our zombies, and nobody else waits for them: node-pty
 * waits for its own children at once and libuv for its child_process children within a loop
 * turn, so a zombie child of ours seen on two sweeps at least ORPHAN_SWEEP_MS apart is an orphan
 * and is reaped with waitpid(pid, WNOHANG).
 */
import { allProcesses, childrenOf } from './linux-proc.js';
import type { SubreaperOutcome } from './port.js';

/** prctl option numbers (linux/prctl.h). */
const PR_SET_CHILD_SUBREAPER = 36;
/** waitpid flag: do not block. */
const WNOHANG = 1;
/** How often orphaned zombies are looked for: long enough that node-pty and libuv have surely reaped their own children first. */
export const ORPHAN_SWEEP_MS = 2_000;

interface Libc {
  prctl(option: number, a2: number, a3: number, a4: number, a5: number): number;
  waitpid(pid: number, status: null, options: number): number;
}

let libc: Libc | null | undefined;

async function loadLibc(): Promise<Libc | null> {
  if (libc !== undefined) return libc;
  if (process.platform !== 'linux') return (libc = null);
  try {
    const koffi = (await import('koffi')).default;
    const lib = koffi.load('libc.so.6');
    libc = {
      prctl: lib.func('int prctl(int option, unsigned long a2, unsigned long a3, unsigned long a4, unsigned long a5)'),
      waitpid: lib.func('int waitpid(int pid, void *status, int options)'),
    };
  } catch {
    libc = null;
  }
  return libc;
}



/**
 * Becomes the subreaper and starts the orphan sweep; dispose() stops the sweep. Fails (as a
 * value) off Linux or where libc cannot be loaded: the owner-variable sweep still works there.
 */
export async function becomeChildSubreaper(): Promise<SubreaperOutcome> {
  const c = await loadLibc();
  if (!c) return { ok: false, why: process.platform === 'linux' ? 'libc could not be loaded through koffi' : `not Linux (${process.platform})` };
  if (c.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) !== 0) return { ok: false, why: 'prctl(PR_SET_CHILD_SUBREAPER) failed' };
  let seen = new Set<number>();
  const timer = setInterval(() => {
    const now = zombieChildren(process.pid);
    for (const pid of now) if (seen.has(pid)) c.waitpid(pid, null, WNOHANG);
    seen = new Set(now);
  }, ORPHAN_SWEEP_MS);
  timer.unref();
  return { ok: true, dispose: () => clearInterval(timer) };
}

/**
 * pids of the zombie children of `parent`: from its children lists (a few files), else from a
 * scan of every process (on a shared machine, hundreds of /proc reads every ORPHAN_SWEEP_MS on
 * the server's event loop, which showed in the round trips' tail).
 */
function zombieChildren(parent: number): number[] {
  return (childrenOf(parent) ?? allProcesses())
    .filter((st) => st.ppid === parent && st.state === 'Z')
    .map((st) => st.pid);
}

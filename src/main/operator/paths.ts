/**
 * Where `mish serve` processes publish their operator sockets: one `<pid>.sock` per server in a
 * private per-user directory — `servers/` in the platform's runtime directory (Linux:
 * `$XDG_RUNTIME_DIR/mish`, tmpfs, per login, cleaned by the system, else `~/.local/state/mish/run`;
 * elsewhere `$TMPDIR/mish-<uid>` or `~/Library/Application Support/mish/run`). `MISH_OPERATOR_DIR`
 * overrides it (tests, several users' sandboxes). The directory is 0700 and each socket 0600: only the user reaches them.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { runtimeDir } from '../platform/platform.js';

/** Private directory mode: the user only (sockets in it carry approvals and typed secrets). */
export const OPERATOR_DIR_MODE = 0o700;
/** Socket file mode: the user only. */
export const OPERATOR_SOCKET_MODE = 0o600;

export function operatorDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MISH_OPERATOR_DIR) return env.MISH_OPERATOR_DIR;
  return path.join(runtimeDir(env), 'servers');
}

export function socketPathFor(pid: number, dir = operatorDir()): string {
  return path.join(dir, `${pid}.sock`);
}

export type DirResult = { ok: true; dir: string } | { ok: false; error: string };

/**
 * Creates the directory 0700 (parents too) and tightens it if it exists looser; refuses a
 * directory that is not ours or a symlink (another user could read the sockets).
 */
export function ensurePrivateDir(dir = operatorDir()): DirResult {
  try {
    mkdirSync(dir, { recursive: true, mode: OPERATOR_DIR_MODE });
    const st = lstatSync(dir);
    if (!st.isDirectory()) return { ok: false, error: `${dir} is not a directory` };
    if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return { ok: false, error: `${dir} belongs to another user` };
    if ((st.mode & 0o777) !== OPERATOR_DIR_MODE) chmodSync(dir, OPERATOR_DIR_MODE);
    return { ok: true, dir };
  } catch (e) {
    return { ok: false, error: `cannot prepare ${dir}: ${(e as Error).message}` };
  }
}

/** True while a process with this pid exists (EPERM: exists, someone else's). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Socket files of the directory with their pids; files of dead processes are removed (stale). */
export function listServerSockets(dir = operatorDir()): { pid: number; path: string }[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: { pid: number; path: string }[] = [];
  for (const name of names) {
    const m = /^(\d+)\.sock$/.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    const p = path.join(dir, name);
    if (!pidAlive(pid)) {
      removeQuietly(p);
      continue;
    }
    out.push({ pid, path: p });
  }
  return out.sort((a, b) => a.pid - b.pid);
}

export function removeQuietly(p: string): void {
  try {
    unlinkSync(p);
  } catch {
    // already gone
  }
}

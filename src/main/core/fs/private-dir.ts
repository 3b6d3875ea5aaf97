/**
 * mish's state (spool, audit log, sockets) is private to the user: directories 0700, files 0600.
 * Created that way, and tightened when an older mish (or a umask) left them wider.
 */
import { chmodSync, mkdirSync, statSync } from 'node:fs';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Makes `dir` (and missing parents) with mode 0700; an existing `dir` of ours with wider permissions is narrowed to 0700. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  tighten(dir, PRIVATE_DIR_MODE);
}

/** Narrows `file` to `mode` when group or others have any access and we own it; never widens. */
export function tighten(file: string, mode: number = PRIVATE_FILE_MODE): void {
  try {
    const st = statSync(file);
    if ((st.mode & 0o077) !== 0 && (typeof process.getuid !== 'function' || st.uid === process.getuid())) chmodSync(file, mode);
  } catch {
    // vanished or not ours to change: the caller's next open reports what matters
  }
}

/**
 * Filesystem reads for checks, hints and scans, where a path that cannot be read (missing,
 * permission denied, vanished mid-walk) simply counts as absent or empty instead of throwing.
 */
import { readdirSync, statSync } from 'node:fs';

/** `p` exists and is a directory (after following links); false when it cannot be stat'ed. */
export function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The entry names of `dir`; none when it cannot be read. */
export function entryNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

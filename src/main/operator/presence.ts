/**
 * Whether an operator (the console, `mish approvals`) is running, for programs too short-lived to
 * wait for one to connect: a `mish <cmd>` run publishes itself on the operator wire only then.
 * Operators mark themselves present while they look for servers (discoverServers, about every
 * 1-2 s): `<socket dir>/.operators/<pid>`, its mtime refreshed. A mark whose process is gone,
 * or that has not been refreshed for PRESENCE_TTL_MS, does not count.
 */
import { mkdirSync, readdirSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { OPERATOR_DIR_MODE, operatorDir, pidAlive } from './paths.js';

/** A presence mark older than this is stale (operators refresh it every 1-2 s while they look for servers). */
export const PRESENCE_TTL_MS = 10_000;
/** An operator refreshes its mark at most this often. */
const REFRESH_MS = 1_000;

const presenceDir = (dir: string) => path.join(dir, '.operators');
/** Per socket directory: when this process last refreshed its mark there (an operator may watch several). */
const lastRefresh = new Map<string, number>();
/** Mark files this process wrote (removed when it exits). */
const marked = new Set<string>();

/** Marks this process as a running operator (cheap to call on every discovery round). */
export function announceOperator(dir = operatorDir()): void {
  const now = Date.now();
  if (now - (lastRefresh.get(dir) ?? 0) < REFRESH_MS) return;
  lastRefresh.set(dir, now);
  const file = path.join(presenceDir(dir), String(process.pid));
  try {
    if (marked.has(file)) utimesSync(file, now / 1000, now / 1000);
    else {
      mkdirSync(presenceDir(dir), { recursive: true, mode: OPERATOR_DIR_MODE });
      writeFileSync(file, '', { mode: 0o600 });
      if (marked.size === 0) process.once('exit', removeMarks);
      marked.add(file);
    }
  } catch {
    marked.delete(file); // a directory we cannot write (or a mark removed under us): written again next round
  }
}

function removeMarks(): void {
  for (const file of marked) {
    try {
      unlinkSync(file);
    } catch {
      // already gone
    }
  }
}

/** Is an operator running (a fresh mark of a live process)? One readdir when none ever ran. */
export function operatorPresent(dir = operatorDir()): boolean {
  let names: string[];
  try {
    names = readdirSync(presenceDir(dir));
  } catch {
    return false;
  }
  const now = Date.now();
  for (const n of names) {
    const pid = Number(n);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) continue;
    try {
      if (now - statSync(path.join(presenceDir(dir), n)).mtimeMs < PRESENCE_TTL_MS && pidAlive(pid)) return true;
    } catch {
      // removed meanwhile
    }
  }
  return false;
}

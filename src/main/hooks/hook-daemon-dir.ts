/**
 * Where the per-user hook daemon (hook-daemon.ts) and the bash front (bin/mish-hook.sh) meet, and
 * what the front forwards per call. Kept apart from the daemon so the node hook can look for a
 * running daemon (to start one) without loading it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pidAlive } from '../operator/paths.js';
import { commandLineOf, runtimeDir } from '../platform/platform.js';

/**
 * The environment keys `mish hook`'s decision on a shell call reads (the host adapters' parse,
 * the policy's files and cache, mish's own paths): the front sends exactly these with each
 * request and the daemon decides with nothing else in process.env. A decision that read another
 * key would differ between the daemon and the node hook; test/hooks/hook-front.test.ts fails if
 * one does. bin/mish-hook.sh holds the same list (the test compares them).
 */
export const FORWARDED_ENV = [
  'HOME',
  'TMPDIR',
  'XDG_CONFIG_HOME',
  'XDG_STATE_HOME',
  'XDG_CACHE_HOME',
  'XDG_RUNTIME_DIR',
  'MISH_POLICY',
  'MISH_POLICY_DEFAULT',
  'MISH_AUDIT_LOG',
  'MISH_SPOOL_DIR',
  'MISH_OPERATOR_DIR',
  'CLAUDE_CONFIG_DIR',
  'CLAUDE_PROJECT_DIR',
  'CODEX_HOME',
  'CODEX_VERSION',
  'GEMINI_CLI_VERSION',
  'COPILOT_HOME',
  'CURSOR_VERSION',
  // A `cd` the policy follows searches CDPATH (the host's, which its shell tool inherits).
  'CDPATH',
] as const;

/** `<mish's runtime dir>/hookd`: inside mish's own files (the policy forbids an agent's command to write there). */
export function hookDaemonDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(runtimeDir(env), 'hookd');
}

/** The pid in the daemon's pidfile, when one is written there (alive or not). */
export function daemonPid(dir: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(dir, 'pid'), 'utf8').trim());
    return Number.isInteger(pid) && pid > 1 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** The pid of a live daemon serving `dir` (its pidfile names a live `mish hook --daemon`), or undefined. */
export function runningDaemon(dir: string): number | undefined {
  const pid = daemonPid(dir);
  return pid !== undefined && pidAlive(pid) && isHookDaemon(pid) ? pid : undefined;
}

/** Is `pid` a `mish hook --daemon` process (its command line; a zombie has none)? */
function isHookDaemon(pid: number): boolean {
  return commandLineOf(pid)?.includes('--daemon') === true;
}

/** `mish hook --stop-daemon`: ends this user's hook daemon (SIGTERM; it removes its FIFO and pidfile). */
export function stopDaemon(env: NodeJS.ProcessEnv = process.env): string {
  const dir = hookDaemonDir(env);
  const pid = runningDaemon(dir);
  if (pid === undefined) return `no mish hook daemon runs for ${dir}`;
  try {
    process.kill(pid, 'SIGTERM');
  } catch (e) {
    return `could not stop the mish hook daemon (pid ${pid}, ${dir}): ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
  }
  return `stopped the mish hook daemon (pid ${pid}, ${dir})`;
}

/** One line for `mish doctor` and `mish hook --daemon-status`. */
export function daemonStatus(env: NodeJS.ProcessEnv = process.env): { running: boolean; line: string } {
  const dir = hookDaemonDir(env);
  const pid = runningDaemon(dir);
  return pid !== undefined
    ? { running: true, line: `hook daemon: running (pid ${pid}, ${dir})` }
    : { running: false, line: `hook daemon: not running (the next hook call through bin/mish-hook.sh starts it; ${dir})` };
}

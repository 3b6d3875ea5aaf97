/**
 * Starting the per-user hook daemon (hook-daemon.ts) on demand: the node hook does it when the
 * bash front ran it because no daemon answered. Detached, in its own session, with no stdio of
 * the host's (the host must not wait for it) and an environment of only what it needs to find
 * its directory and caches: the keys a decision reads come with each request, not from here.
 */
import { spawn } from 'node:child_process';
import { FORWARDED_ENV, hookDaemonDir, runningDaemon } from './hook-daemon-dir.js';
import { launcherScript } from './mish-path.js';

/** The argument bin/mish-hook.sh adds when it runs the node hook. */
export const FROM_FRONT = '--from-front';

export function startDaemonIfAbsent(env: NodeJS.ProcessEnv = process.env): void {
  // MISH_HOOK_DAEMON=0: the front never asks a daemon and none is started (every call runs the node hook).
  if (env.MISH_HOOK_DAEMON === '0') return;
  try {
    if (runningDaemon(hookDaemonDir(env)) !== undefined) return;
    const own: NodeJS.ProcessEnv = {};
    for (const k of [...FORWARDED_ENV, 'PATH', 'MISH_HOOKD_IDLE_MS', 'MISH_HOOKD_LOG']) if (env[k] !== undefined) own[k] = env[k];
    const child = spawn(process.execPath, [launcherScript('mish-hook.cjs'), 'hook', '--daemon'], { detached: true, stdio: 'ignore', cwd: '/', env: own });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // no daemon: the front keeps running this hook, as before
  }
}

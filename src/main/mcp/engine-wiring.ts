/**
 * Builds the engine behind `mish serve`: the session manager on node-pty, and the route
 * function sh_run calls. The host owns the manager and disposes it on shutdown.
 */
import { createRequire } from 'node:module';
import { nodePtyPort } from '../platform/node-pty-port.js';
import { createSessionManager } from '../core/session/session-manager.js';
import type { SessionManager, SessionRunResult } from '../core/session/types.js';
import { Squasher } from '../core/squasher/squasher.js';
import { renderSummary } from '../core/squasher/render.js';
import { BackgroundRuns } from './background-runs.js';
import type { McpDeps, RouteCommand, RouteCommandResult } from './tool-kit.js';

/** How often the squasher's timers run while a command streams (partial-line prompt detection needs ~100 ms resolution). */
const SQUASH_TICK_MS = 100;

/** The package version, shown to clients at initialize. */
function packageVersion(): string {
  // Source (src/main/mcp/) and bundle (dist/) sit at different depths below the package root.
  const req = createRequire(import.meta.url);
  for (const rel of ['../package.json', '../../../package.json']) {
    try {
      const pkg = req(rel) as { name?: string; version?: string };
      if (pkg.name === 'mish' && pkg.version) return pkg.version;
    } catch {
      // not at this depth
    }
  }
  return '0.0.0';
}

export async function makeEngineDeps(log: (m: string) => void): Promise<McpDeps & { dispose(): Promise<void> }> {
  const sessions = createSessionManager({ port: nodePtyPort, cwd: process.cwd(), env: process.env as Record<string, string> });
  return {
    sessions,
    route: condenseInSession(sessions),
    runs: new BackgroundRuns(),
    version: packageVersion(),
    log,
    dispose: () => sessions.dispose(),
  };
}

/**
 * Runs a command line in a session and condenses its output with the squasher. This is the
 * condense path of the category router; the router's other categories (narrate, passthrough,
 * structured, interactive and dangerous refusals) take over here once src/main/core/router
 * exports its route().
 */
export function condenseInSession(sessions: SessionManager): RouteCommand {
  return async (request) => {
    const squasher = new Squasher();
    const timer = setInterval(() => squasher.tick(), SQUASH_TICK_MS);
    timer.unref?.();
    let result: SessionRunResult;
    try {
      result = await sessions.run({
        command: request.command,
        session: request.session,
        cwd: request.cwd,
        signal: request.signal,
        onData: (chunk) => squasher.write(chunk),
        onStart: (control) => request.onStart?.(control.id),
      });
    } finally {
      clearInterval(timer);
    }
    const squashed = squasher.finish({ exitCode: result.exitCode, signal: result.signal });
    const text = renderSummary(squashed);
    const out: RouteCommandResult = {
      id: result.id,
      session: result.session,
      text,
      exitCode: result.exitCode,
      category: 'condense',
      cwd: result.cwd,
      rawLines: squashed.totalLines,
      shownLines: text.split('\n').length - 1,
      shellExited: result.shellExited,
      freshShell: result.freshShell,
      durationMs: result.durationMs,
    };
    return out;
  };
}

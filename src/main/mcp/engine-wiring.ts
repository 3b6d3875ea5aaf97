/**
 * Builds the engine behind `mish serve`: the session manager on node-pty, and the route
 * function sh_run calls. The host owns the manager and disposes it on shutdown.
 */
import { createRequire } from 'node:module';
import { nodePtyPort } from '../platform/node-pty-port.js';
import { createSessionManager } from '../core/session/session-manager.js';
import type { SessionManager, SessionRunResult } from '../core/session/types.js';
import type { Executor } from '../core/exec/types.js';
import type { Detection } from '../core/grammar/types.js';
import { GrammarRegistry } from '../core/grammar/registry.js';
import { detectTool } from '../core/grammar/detect.js';
import { formatGrammarError } from '../core/grammar/loader.js';
import { loadRouterMeta, type RouterMeta } from '../core/router/meta.js';
import { route } from '../core/router/route.js';
import { Squasher } from '../core/squasher/squasher.js';
import { renderSummary } from '../core/squasher/render.js';
import { BackgroundRuns } from './background-runs.js';
import type { McpDeps, RouteCommand, RouteCommandResult } from './tool-kit.js';

/** How often the squasher's timers run while a command streams (partial-line prompt detection needs ~100 ms resolution). */
const SQUASH_TICK_MS = 100;

/** The package version, shown to clients at initialize. */
function packageVersion(): string {
  // Source (src/main/mcp/), bundle (dist/) and its chunks (dist/chunks/) sit at different depths below the package root.
  const req = createRequire(import.meta.url);
  for (const rel of ['../package.json', '../../package.json', '../../../package.json']) {
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
  const grammars = new GrammarRegistry({ onError: (e) => log(`grammar: ${formatGrammarError(e)}`) });
  const meta = loadRouterMeta();
  let route: RouteCommand;
  if (meta.ok) {
    route = routeInSession(sessions, meta.meta, (argv, cwd) => detectTool(argv, grammars.snapshot(cwd)));
  } else {
    // The built-in category tables are broken (a packaging error): condense everything rather than refuse to serve.
    log(`router tables failed to load (${meta.error.message}); every command is condensed`);
    route = condenseInSession(sessions);
  }
  return {
    sessions,
    route,
    runs: new BackgroundRuns(),
    version: packageVersion(),
    log,
    dispose: () => sessions.dispose(),
  };
}

/**
 * sh_run's path: the category router (mode "mcp") with a persistent session as its executor.
 * The adapter records what only the session knows (process-table id, cwd after the command,
 * whether the shell ended or was restarted) and counts raw lines.
 */
export function routeInSession(sessions: SessionManager, meta: RouterMeta, detect: (argv: string[], cwd: string) => Detection | undefined): RouteCommand {
  return async (request) => {
    const sessionName = request.session ?? 'default';
    // list(), not get(): get() would quietly replace an ended shell, and run() must see that to report it.
    const info = () => sessions.list().find((s) => s.name === sessionName);
    const cwd = request.cwd ?? info()?.cwd ?? process.cwd();
    let last: SessionRunResult | undefined;
    let newlines = 0;
    let trailing = false;
    const executor: Executor = {
      run: async (req) => {
        const { onStart, onData, cwd: _routerCwd, ...rest } = req;
        void _routerCwd;
        const r = await sessions.run({
          ...rest,
          // Only an explicit cwd moves the session; otherwise it stays where the last command left it.
          ...(request.cwd ? { cwd: request.cwd } : {}),
          session: sessionName,
          onStart: (control) => {
            request.onStart?.(control.id);
            onStart?.(control);
          },
          onData: (chunk) => {
            for (let i = 0; i < chunk.length; i++) if (chunk[i] === 0x0a) newlines++;
            if (chunk.length) trailing = chunk[chunk.length - 1] !== 0x0a;
            onData(chunk);
          },
        });
        last = r;
        return r;
      },
    };
    const r = await route(request.command, { mode: 'mcp', executor, meta, detect: (argv) => detect(argv, cwd), cwd, signal: request.signal });
    const rawLines = newlines + (trailing ? 1 : 0);
    const base = {
      id: last?.id,
      session: last?.session ?? sessionName,
      text: r.text,
      cwd: last?.cwd ?? info()?.cwd ?? cwd,
      rawLines,
      shownLines: r.text.split('\n').length - 1,
      durationMs: last?.durationMs ?? 0,
      ...(last?.shellExited ? { shellExited: true } : {}),
      ...(last?.freshShell ? { freshShell: last.freshShell } : {}),
    };
    if (r.kind === 'ran') return { ...base, exitCode: r.exitCode, category: r.category };
    if (r.kind === 'refused') return { ...base, exitCode: null, category: r.category, refused: true };
    return { ...base, exitCode: null, category: 'parse-error', refused: true };
  };
}

/**
 * Fallback when the router's category tables cannot load: run the line in the session and
 * condense its output with the squasher (never loses errors; no narrate/passthrough/refusals).
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

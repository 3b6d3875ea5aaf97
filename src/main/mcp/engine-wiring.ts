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
import { explain, parseFailureText, route, type RouteResult } from '../core/router/route.js';
import { dangerWarning } from '../core/handlers/dangerous.js';
import { interactiveAdvice } from '../core/handlers/interactive.js';
import { SpoolStore } from '../core/spool/spool.js';
import { Squasher } from '../core/squasher/squasher.js';
import { renderSummary } from '../core/squasher/render.js';
import type { SquashEvent } from '../core/squasher/types.js';
import { BackgroundRuns } from './background-runs.js';
import { Redactor } from '../core/redact/redactor.js';
import { AuditLog } from '../core/audit/audit-log.js';
import { operatorAuditRecord } from './operator-audit.js';
import { withCutReadHint } from './passthrough-reply.js';
import type { CheckCommand, CondenseLines, McpDeps, RouteCommand, RouteCommandResult } from './tool-kit.js';
import { OperatorHost, type OperatorAuditEvent } from '../operator/operator-host.js';

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

export interface EngineOptions {
  /** Operator audit events (approvals, handoffs); the lead wires it to core/audit. */
  onAudit?: (event: OperatorAuditEvent) => void;
  transport?: 'stdio' | 'http';
}

export async function makeEngineDeps(log: (m: string) => void, options: EngineOptions = {}): Promise<McpDeps & { dispose(): Promise<void> }> {
  // Every session command and background process is spooled to disk ($MISH_SPOOL_DIR or the XDG
  // state dir, the same place `mish raw <id>` reads), so read_raw is exact beyond any memory bound.
  const spool = new SpoolStore();
  const sessions = createSessionManager({ port: nodePtyPort, cwd: process.cwd(), env: process.env as Record<string, string>, spool });
  const grammars = new GrammarRegistry({ onError: (e) => log(`grammar: ${formatGrammarError(e)}`) });
  const detect = (argv: string[], cwd: string) => detectTool(argv, grammars.snapshot(cwd));
  const meta = loadRouterMeta();
  const version = packageVersion();
  // Replies mask secret patterns, the values of secret-named variables of the environment the sessions start with, and what operators typed at handoffs.
  const redactor = new Redactor({ env: process.env });
  const audit = new AuditLog({ redactor, onError: log });
  const operator = new OperatorHost({
    sessions,
    version,
    cwd: process.cwd(),
    transport: options.transport,
    onAudit: (e) => {
      audit.record(operatorAuditRecord(e));
      options.onAudit?.(e);
    },
    log,
  });
  redactor.addMasker(operator.known);
  let route: RouteCommand;
  let check: CheckCommand;
  if (meta.ok) {
    route = routeInSession(sessions, meta.meta, detect, operator);
    check = checkWithRouter(meta.meta, detect);
  } else {
    // The built-in category tables are broken (a packaging error): condense everything rather than refuse to serve.
    log(`router tables failed to load (${meta.error.message}); every command is condensed`);
    route = condenseInSession(sessions);
    check = () => ({ kind: 'ok', category: 'condense' });
  }
  audit.record({ kind: 'session', by: 'agent', host: 'mcp', decision: 'server-started', cwd: process.cwd(), detail: { pid: process.pid } });
  return {
    sessions,
    route,
    check,
    redactor,
    audit,
    condense: condenseWithGrammar(meta.ok ? meta.meta : undefined, detect),
    runs: new BackgroundRuns(),
    version,
    log,
    operator,
    dispose: async () => {
      operator.dispose();
      await sessions.dispose();
      audit.record({ kind: 'session', by: 'agent', host: 'mcp', decision: 'server-stopped', detail: { pid: process.pid } });
      await audit.flush();
    },
  };
}

/**
 * sh_run's path: the category router (mode "mcp") with a persistent session as its executor.
 * The adapter records what only the session knows (process-table id, cwd after the command,
 * whether the shell ended or was restarted) and counts raw lines.
 */
export function routeInSession(sessions: SessionManager, meta: RouterMeta, detect: (argv: string[], cwd: string) => Detection | undefined, operator?: OperatorHost): RouteCommand {
  return async (request) => {
    const sessionName = request.session ?? 'default';
    // list(), not get(): get() would quietly replace an ended shell, and run() must see that to report it.
    const info = () => sessions.list().find((s) => s.name === sessionName);
    const cwd = request.cwd ?? info()?.cwd ?? process.cwd();
    let last: SessionRunResult | undefined;
    let newlines = 0;
    let trailing = false;
    let commandId: string | undefined;
    // The console's condensed pane: hazards while the command runs, then the whole reply.
    const publishCondensed = (lines: string[], final: boolean, category?: string) => {
      if (commandId === undefined || lines.length === 0) return;
      sessions.publish({ type: 'condensed', source: { kind: 'command', id: commandId, session: sessionName }, lines, ...(final ? { final: true } : {}), ...(category ? { category } : {}) });
    };
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
            commandId = control.id;
            request.onStart?.(control.id);
            onStart?.(control);
          },
          onData: (chunk) => {
            for (let i = 0; i < chunk.length; i++) if (chunk[i] === 0x0a) newlines++;
            if (chunk.length) trailing = chunk[chunk.length - 1] !== 0x0a;
            // Output shown while an operator holds the command (a handoff) is the operator's, never the agent's.
            if (commandId !== undefined && operator?.withheld(commandId)) return;
            onData(chunk);
          },
        });
        last = r;
        return r;
      },
    };
    const onEvent = (ev: SquashEvent) => {
      if (ev.type === 'hazard') publishCondensed([ev.hazard.text, ...ev.hazard.context], false);
    };
    const r = await route(request.command, {
      mode: 'mcp',
      executor,
      meta,
      detect: (argv) => detect(argv, cwd),
      cwd,
      signal: request.signal,
      onEvent,
      ...(request.confirm ? { confirm: request.confirm } : {}),
      ...(operator ? { approvals: operator.approvalsFor(sessionName) } : {}),
    });
    const rawLines = newlines + (trailing ? 1 : 0);
    const spoolRef = last ? sessions.process(last.id)?.entry().spoolRef : undefined;
    let text = r.kind === 'ran' ? withoutRouterFooter(r) : r.text;
    // A condensed run that printed nothing: the squasher's lone `0 lines → exit 0 (0.01s)` only repeats sh_run's footer.
    if (r.kind === 'ran' && r.report.category === 'condense' && rawLines === 0 && EMPTY_SUMMARY.test(text)) text = '';
    if (r.kind === 'ran' && r.report.category === 'passthrough') text = withCutReadHint(text, last?.id);
    publishCondensed(text.replace(/\n$/, '').split('\n'), true, r.kind === 'ran' ? r.category : r.kind);
    const base = {
      id: last?.id,
      session: last?.session ?? sessionName,
      // sh_run prints one footer with exit code, cwd, line counts and the spool reference.
      text,
      ...(spoolRef ? { spoolRef } : {}),
      cwd: last?.cwd ?? info()?.cwd ?? cwd,
      rawLines,
      shownLines: r.text.split('\n').length - 1,
      durationMs: last?.durationMs ?? 0,
      ...(last?.shellExited ? { shellExited: true } : {}),
      ...(last?.freshShell ? { freshShell: last.freshShell } : {}),
    };
    operator?.reportCommand({
      session: base.session,
      ...(base.id ? { commandId: base.id } : {}),
      command: request.command,
      category: r.kind === 'ran' ? r.category : r.kind === 'refused' ? r.category : 'parse-error',
      exitCode: r.kind === 'ran' ? r.exitCode : null,
      durationMs: base.durationMs,
      rawLines,
      ...(base.id ? { rawBytes: sessions.processes.get(base.id)?.rawBytes ?? 0 } : {}),
      shownLines: base.shownLines,
      agentText: operator.known.mask(text),
      ...(r.kind !== 'ran' ? { refused: true } : {}),
      ...(spoolRef ? { spoolRef } : {}),
    });
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
    let source: { kind: 'command'; id: string; session: string } | undefined;
    const squasher = new Squasher({
      onEvent: (ev) => {
        if (ev.type === 'hazard' && source) sessions.publish({ type: 'condensed', source, lines: [ev.hazard.text, ...ev.hazard.context] });
      },
    });
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
        onStart: (control) => {
          source = { kind: 'command', id: control.id, session: control.session };
          request.onStart?.(control.id);
        },
      });
    } finally {
      clearInterval(timer);
    }
    const squashed = squasher.finish({ exitCode: result.exitCode, signal: result.signal });
    const text = renderSummary(squashed);
    sessions.publish({ type: 'condensed', source: { kind: 'command', id: result.id, session: result.session }, lines: text.replace(/\n$/, '').split('\n'), final: true });
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
      spoolRef: sessions.process(result.id)?.entry().spoolRef,
    };
    return out;
  };
}

/** The squasher's summary of an empty output, and nothing else (no outcome, no hint). */
const EMPTY_SUMMARY = /^0 lines → [^\n]*\n?$/;

/** The router's own metadata lines in context mode: `[3 lines, 40B, exit 0]` (passthrough), `[exit 2]`, `[raw: …]`. */
const ROUTER_META_LINE = /^\[(?:\d+ lines?, [^\]]*, )?exit -?\d+(?: \(signal \d+\))?\]$/;
const ROUTER_RAW_LINE = /^\[raw: [^\]]*\]$/;

/**
 * The router's text without the metadata footer it appends for passthrough / narrate /
 * structured output (sh_run's own footer carries exit code, line counts and the spool). Only
 * the lines the renderer appended are removed: the footer sits just above the enrichment
 * hints, whose count the result states, and a `[raw: …]` line closes the text.
 */
export function withoutRouterFooter(r: Extract<RouteResult, { kind: 'ran' }>): string {
  if (r.category === 'condense' || r.category === 'interactive') return r.text;
  const lines = r.text.replace(/\n$/, '').split('\n');
  if (r.facts.spoolRef && ROUTER_RAW_LINE.test(lines[lines.length - 1] ?? '')) lines.pop();
  const hints = r.facts.enrichment.length ? lines.splice(lines.length - r.facts.enrichment.length) : [];
  if (lines.length && ROUTER_META_LINE.test(lines[lines.length - 1])) lines.pop();
  const out = [...lines, ...hints];
  return out.length ? `${out.join('\n')}\n` : '';
}

/** Reasons sh_spawn refuses a line, worded as sh_run's refusals (src/main/core/router/route.ts). */
export function checkWithRouter(meta: RouterMeta, detect: (argv: string[], cwd: string) => Detection | undefined): CheckCommand {
  return (command, cwd) => {
    const r = explain(command, meta, (argv) => detect(argv, cwd));
    if (!r.ok) {
      const e = r.error;
      return { kind: 'parse-error', line: e.line, column: e.column, text: parseFailureText(e) };
    }
    const plan = r.plan;
    if (plan.category === 'dangerous') {
      return {
        kind: 'dangerous',
        dangers: plan.dangers.map((d) => d.id),
        matches: plan.dangers,
        text: `${dangerWarning(command, plan.dangers)}\nrefused: dangerous commands need an operator decision (policy engine)`,
      };
    }
    if (plan.treatment === 'interactive') {
      const seg = plan.segments.find((s) => s.category === 'interactive') ?? plan.segments[0];
      const advice = interactiveAdvice(seg);
      // Where the router's advice is "run it with sh_spawn and drive it with sh_interact", refusing here would send the agent in a circle.
      const drivable = /\bsh_spawn\b/.test(advice);
      return { kind: 'interactive', advice, drivable, text: `refused: ${seg.name} is interactive; in the background nobody could use it\ninstead: ${advice}` };
    }
    return { kind: 'ok', category: plan.treatment };
  };
}

/** A condensed view of output lines that keeps every marker's line numbers raw: `(lines A-B)`. */
const OMITTED_MARKER = /(\[\.\.\. [\d,]+ lines? omitted \(lines )(\d+)-(\d+)\)/g;

/**
 * read_tail's condensed view: the squasher with the grammar the router would pick for the
 * command (its first segment with one), over a slice of raw lines starting at raw line `firstLine`.
 */
export function condenseWithGrammar(meta: RouterMeta | undefined, detect: (argv: string[], cwd: string) => Detection | undefined): CondenseLines {
  return (command, cwd, lines, firstLine) => {
    let detection: Detection | undefined;
    if (meta) {
      const r = explain(command, meta, (argv) => detect(argv, cwd));
      if (r.ok) detection = r.plan.segments.find((s) => s.detection)?.detection;
    }
    const squasher = new Squasher({ detection });
    squasher.write(lines.map((l) => `${l}\n`).join(''));
    // The header ("N lines → exit 0") would claim an exit the process may not have had; the caller states what the slice is.
    const text = offsetMarkers(renderSummary(squasher.finish({ exitCode: 0 }), { noHeader: true }), firstLine);
    return { text, ...(detection ? { grammar: detection.grammar.name } : {}) };
  };
}

/** Shifts the squasher's `(lines A-B)` markers of a slice that starts at raw line `firstLine`. */
export function offsetMarkers(text: string, firstLine: number): string {
  if (firstLine <= 1) return text;
  const d = firstLine - 1;
  return text.replace(OMITTED_MARKER, (_m, head: string, a: string, b: string) => `${head}${Number(a) + d}-${Number(b) + d})`);
}

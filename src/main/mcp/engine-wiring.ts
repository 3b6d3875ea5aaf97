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
import { builtinGrammarsDir, loadRouterMeta, type RouterMeta } from '../core/router/meta.js';
import { decide, formatPolicyError, loadPolicy } from '../core/policy/index.js';
import { explain, parseFailureText, route } from '../core/router/route.js';
import { renderBody, type RenderInput, type Shown } from '../core/format/render.js';
import { dangerWarning } from '../core/handlers/dangerous.js';
import { interactiveAdvice } from '../core/handlers/interactive.js';
import { SpoolStore } from '../core/spool/spool.js';
import { Squasher } from '../core/squasher/squasher.js';
import { renderSquash, renderSummary } from '../core/squasher/render.js';
import type { SquashEvent } from '../core/squasher/types.js';
import { BackgroundRuns } from './background-runs.js';
import { Redactor } from '../core/redact/redactor.js';
import { secretSpansWithNames } from '../core/redact/kept-spans.js';
import { AuditLog } from '../core/audit/audit-log.js';
import { operatorAuditRecord } from './operator-audit.js';
import { countLines, mcpRawRef, type CheckCommand, type CondenseLines, type McpDeps, type RouteCommand, type RouteCommandResult } from './tool-kit.js';
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
  const policy = meta.ok ? meta.meta.policy : loadPolicy({ grammarsDir: builtinGrammarsDir() });
  for (const e of policy.errors) log(`policy: ${formatPolicyError(e)} (decisions held at ask until fixed)`);
  const version = packageVersion();
  // Replies mask secret patterns, the values of secret-named variables of the environment the sessions start with, and what operators typed at handoffs.
  const redactor = new Redactor({ env: process.env });
  // Every command's raw output, chunk by chunk, through its stream state: secrets split across
  // chunks are found and remembered for the session, and private key blocks' lines recorded for
  // later reads. Synchronous, before the reply that shows the output is masked.
  sessions.subscribe((e) => {
    if (e.type === 'raw') redactor.stream(e.source.id).pushBytes(e.chunk);
    // A command whose whole output is a credential (`gh auth token`): its value lines are remembered as they stream.
    else if (e.type === 'command-start') redactor.noteCommand(e.id, e.command);
    else if (e.type === 'process' && e.change === 'added' && e.entry.kind === 'spawn') redactor.noteCommand(e.entry.id, e.entry.command);
    else if (e.type === 'command-end') redactor.streamOf(e.id)?.flush();
  });
  const audit = new AuditLog({ redactor, onError: log });
  const operator = new OperatorHost({
    sessions,
    version,
    cwd: process.cwd(),
    transport: options.transport,
    // The console's "agent saw" pane shows what the agent saw: masked (its raw pane stays exact).
    maskForAgent: (text) => redactor.mask(text),
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
    check = checkWithRouter(meta.meta, detect, cdpathOf(sessions));
  } else {
    // The built-in category tables are broken (a packaging error): condense everything rather than refuse to serve.
    // The policy still decides: a line it does not allow is refused, never run unchecked.
    log(`router tables failed to load (${meta.error.message}); every command is condensed`);
    const condense = condenseInSession(sessions);
    const sessionCdpath = cdpathOf(sessions);
    check = (command, cwd, session) => {
      const cdpath = sessionCdpath(session);
      const d = decide(command, policy, { cwd, session, ...(cdpath ? { cdpath } : {}) });
      if (d.decision === 'allow' || d.decision === 'confirm') return { kind: 'ok', category: 'condense' };
      return { kind: 'dangerous', dangers: d.matches.map((m) => m.rule), policy: { decision: d.decision, rule: d.rule, reason: d.reason }, text: `refused: policy says ${d.decision} (rule ${d.rule}): ${d.reason}` };
    };
    route = async (request) => {
      const v = check(request.command, request.cwd ?? process.cwd(), request.session ?? 'default');
      if (v.kind !== 'dangerous') return condense(request);
      return { session: request.session ?? 'default', text: `${v.text}\n`, exitCode: null, category: 'dangerous', rawLines: 0, shownLines: 1, refused: true, durationMs: 0, policy: v.policy };
    };
  }
  audit.record({ kind: 'session', by: 'agent', host: 'mcp', decision: 'server-started', cwd: process.cwd(), detail: { pid: process.pid } });
  return {
    sessions,
    route,
    check,
    redactor,
    audit,
    condense: condenseWithGrammar(meta.ok ? meta.meta : undefined, detect),
    // An sh_run that outlived its call: its end is audited when it comes (the call's record said "backgrounded").
    runs: new BackgroundRuns((run) => {
      const r = run.result;
      // Named like the call records (reply-guard.ts): the audit view tells two agents' runs apart.
      const client = operator.mcpClient;
      const agent = client ? `${client.name}${client.version ? `/${client.version}` : ''}` : undefined;
      audit.record({ kind: 'command', by: 'agent', host: 'mcp', ...(agent ? { agent } : {}), session: run.session, command: run.command, id: run.id, decision: r ? (r.refused ? 'refused' : 'ran') : 'error', ...(r ? { exitCode: r.exitCode, category: r.category, cwd: r.cwd, durationMs: r.durationMs, ...(r.spoolRef ? { spoolRef: r.spoolRef } : {}) } : { reason: run.error }), detail: { background: true } });
    }),
    policy: () => policy,
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
    // The session as the line meets it: where it runs and the CDPATH its shell last reported (the policy follows both).
    const before = info();
    const cwd = request.cwd ?? before?.cwd ?? process.cwd();
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
            // indexOf scans natively: a byte loop here cost 14% of the server's CPU while 8 sessions streamed.
            for (let i = chunk.indexOf(0x0a); i >= 0; i = chunk.indexOf(0x0a, i + 1)) newlines++;
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
      session: sessionName,
      ...(before?.cdpath ? { cdpath: before.cdpath } : {}),
      signal: request.signal,
      onEvent,
      ...(request.confirm ? { confirm: request.confirm } : {}),
      ...(operator ? { approvals: operator.approvalsFor(sessionName) } : {}),
    });
    const rawLines = newlines + (trailing ? 1 : 0);
    const spoolRef = last ? sessions.process(last.id)?.entry().spoolRef : undefined;
    // The run's facts rendered for the agent (sh_run adds the status line from the same facts).
    const body = r.kind === 'ran' ? agentBody(r.input, last?.id) : { text: r.text, shown: { hidden: false } };
    const text = body.text;
    publishCondensed(text.replace(/\n$/, '').split('\n'), true, r.kind === 'ran' ? r.category : r.kind);
    const base = {
      id: last?.id,
      session: last?.session ?? sessionName,
      text,
      shown: body.shown,
      ...(spoolRef ? { spoolRef } : {}),
      cwd: last?.cwd ?? info()?.cwd ?? cwd,
      startCwd: cwd,
      rawLines,
      shownLines: countLines(text),
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
      agentText: operator.maskForAgent(text),
      ...(r.kind !== 'ran' ? { refused: true } : {}),
      ...(spoolRef ? { spoolRef } : {}),
    });
    if (r.kind === 'ran') return { ...base, exitCode: r.exitCode, ...(r.signal ? { signal: r.signal } : {}), category: r.category };
    if (r.kind === 'refused') return { ...base, exitCode: null, category: r.category, refused: true, ...(r.policy ? { policy: r.policy } : {}) };
    return { ...base, exitCode: null, category: 'parse-error', refused: true };
  };
}

/**
 * Fallback when the router's category tables cannot load: run the line in the session and
 * condense its output with the squasher (never loses errors; no narrate/passthrough/refusals).
 */
export function condenseInSession(sessions: SessionManager): RouteCommand {
  return async (request) => {
    const startCwd = request.cwd ?? sessions.list().find((s) => s.name === (request.session ?? 'default'))?.cwd;
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
    const { text, hidden } = renderSquash(squashed, { keepWhole: secretSpans });
    sessions.publish({ type: 'condensed', source: { kind: 'command', id: result.id, session: result.session }, lines: text.replace(/\n$/, '').split('\n'), final: true });
    const out: RouteCommandResult = {
      id: result.id,
      session: result.session,
      text,
      shown: { hidden, totalLines: squashed.totalLines },
      exitCode: result.exitCode,
      ...(result.signal ? { signal: result.signal } : {}),
      category: 'condense',
      cwd: result.cwd,
      ...(startCwd ? { startCwd } : {}),
      rawLines: squashed.totalLines,
      shownLines: countLines(text),
      shellExited: result.shellExited,
      freshShell: result.freshShell,
      durationMs: result.durationMs,
      spoolRef: sessions.process(result.id)?.entry().spoolRef,
    };
    return out;
  };
}

/**
 * A long line's secrets, which its cut in a reply must not split (adv142: a token cut at the head showed 39 of 40 characters,
 * its pieces too short for any rule): each is shown whole and masked, or left out whole, with the name before it (a value whose
 * name the cut took is no longer known for one: adv162 F18).
 */
const secretSpans = secretSpansWithNames;

/**
 * A run's body as sh_run's text shows it: the router's facts rendered with the agent's name for
 * the raw output (`read_raw c7`; a cut marker names the exact read_raw call). The status line is
 * sh_run's (tool-kit.ts runStatus), from the same facts.
 */
export function agentBody(input: RenderInput, id: string | undefined): { text: string; shown: Shown } {
  return renderBody(input, { keepWhole: secretSpans, ...(id ? { raw: mcpRawRef(id) } : {}) });
}

/** Reasons sh_spawn refuses a line, worded as sh_run's refusals (src/main/core/router/route.ts). */
/** A session's CDPATH as its shell last reported it (SessionInfo.cdpath), for the policy's relative `cd`s. */
function cdpathOf(sessions: SessionManager): (session: string | undefined) => string | undefined {
  return (session) => sessions.list().find((s) => s.name === (session ?? 'default'))?.cdpath;
}

export function checkWithRouter(meta: RouterMeta, detect: (argv: string[], cwd: string) => Detection | undefined, cdpathOfSession: (session: string | undefined) => string | undefined = () => undefined): CheckCommand {
  return (command, cwd, session) => {
    const r = explain(command, meta, (argv) => detect(argv, cwd), cwd, session, cdpathOfSession(session));
    if (!r.ok) {
      const e = r.error;
      return { kind: 'parse-error', line: e.line, column: e.column, text: parseFailureText(e) };
    }
    const plan = r.plan;
    if (plan.category === 'dangerous') {
      const pol = plan.policy;
      const why = pol.decision === 'forbid' ? `forbidden by policy (rule ${pol.rule})` : `policy says ${pol.decision} (rule ${pol.rule}); an operator must approve it and none is attached`;
      return {
        kind: 'dangerous',
        dangers: plan.dangers.map((d) => d.id),
        policy: { decision: pol.decision, rule: pol.rule, reason: pol.reason },
        matches: plan.dangers,
        text: `${dangerWarning(command, plan.dangers)}\nrefused: ${why}`,
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
    // No status line: it would claim an exit the process may not have had; the caller states what the slice is.
    const text = offsetMarkers(renderSummary(squasher.finish({ exitCode: 0 }), { keepWhole: secretSpans }), firstLine);
    return { text, ...(detection ? { grammar: detection.grammar.name } : {}) };
  };
}

/** Shifts the squasher's `(lines A-B)` markers of a slice that starts at raw line `firstLine`. */
export function offsetMarkers(text: string, firstLine: number): string {
  if (firstLine <= 1) return text;
  const d = firstLine - 1;
  return text.replace(OMITTED_MARKER, (_m, head: string, a: string, b: string) => `${head}${Number(a) + d}-${Number(b) + d})`);
}

/**
 * The router's public entry: every command from every host goes parse → grammar lookup →
 * category → handler → facts, rendered as text for the CLI (seeds 000/001 "Key Architectural Decision": sh_run and
 * `mish <cmd>` take the same path; only interactive and dangerous differ by mode).
 */
import { enrich } from '../enrich/enrich.js';
import { render, toJson, type OutputMode, type RenderInput } from '../format/render.js';
import { runCondense } from '../handlers/condense.js';
import { dangerWarning, type ConfirmFn, type SessionApprovals } from '../handlers/dangerous.js';
import { interactiveAdvice, runInteractive } from '../handlers/interactive.js';
import { runNarrate } from '../handlers/narrate.js';
import { runPassthrough } from '../handlers/passthrough.js';
import { runStructured } from '../handlers/structured.js';
import type { HandlerContext, Report, RunFacts, TerminalPort } from '../handlers/types.js';
import { preflight } from '../preflight/preflight.js';
import type { DangerMatch, DetectFn, RoutedCategory } from './categorize.js';
import type { RouterMeta } from './meta.js';
import { parseCommandLine, type ParseFailure } from './parse.js';
import { planLine, type Plan } from './plan.js';
import type { PolicyDecision } from '../policy/index.js';

/** Exit status of a line that did not parse (bash uses 2 for syntax errors). */
export const PARSE_ERROR_EXIT = 2;
/** Exit status of a refused line (126: "found but cannot be executed", the nearest POSIX meaning). */
export const REFUSED_EXIT = 126;
/** Edits of a dangerous line re-checked before giving up (each edit is parsed and checked again). */
const MAX_EDITS = 5;

/** Environment for non-interactive runs: pagers would wait for a human that is not there. */
const NON_INTERACTIVE_ENV: Record<string, string> = { PAGER: 'cat', GIT_PAGER: 'cat', MANPAGER: 'cat', SYSTEMD_PAGER: '', GIT_TERMINAL_PROMPT: '0' };

/**
 * The `presentation_env` of the line's tool when every command of the line is that one tool
 * (`tsc -p .`, `npx tsc`): tsc's NO_COLOR also turns off its pretty format, whose code frames
 * made a failing type check bigger than without mish. A line mixing tools gets none (their
 * colour is a classification hint the others would lose). The caller's own env wins.
 */
function presentationEnv(plan: Plan): Record<string, string> {
  const real = plan.segments.filter((s) => s.name !== '');
  const envs = real.map((s) => s.detection?.grammar.presentationEnv);
  if (!envs.length || envs.some((e) => e === undefined)) return {};
  const names = new Set(real.map((s) => s.detection!.grammar.name));
  return names.size === 1 ? { ...envs[0] } : {};
}

/** What route() takes: the handlers' context (its env completed per treatment) and the router's own choices. */
export interface RouteOptions extends Omit<HandlerContext, 'env'> {
  meta: RouterMeta;
  /** Added to the command's environment (non-interactive runs also get NON_INTERACTIVE_ENV below it). */
  env?: Record<string, string>;
  /** Default: human for the CLI, context for MCP. */
  output?: OutputMode;
  color?: boolean;
  /** CLI: the terminal interactive commands get. Without it, interactive lines are refused. */
  terminal?: TerminalPort;
  /** Ask a human about a line the policy escalates (ask / operator): CLI the terminal, MCP an attached operator. Without it, such lines are refused. */
  confirm?: ConfirmFn;
  approvals?: SessionApprovals;
  /** CLI: mish's stdin is a pipe or file the line reads (see PlanOptions.stdinFed). */
  stdinFed?: boolean;
  /** The MCP session the line runs in (policy rules can be limited to sessions). */
  session?: string;
  /** The CDPATH of the shell the line runs in (a relative `cd` may land in any of its folders): the policy follows it. */
  cdpath?: string;
}

export type RouteResult =
  | { kind: 'parse-error'; exitCode: typeof PARSE_ERROR_EXIT; error: ParseFailure; text: string }
  | {
      kind: 'refused';
      exitCode: typeof REFUSED_EXIT;
      category: 'dangerous' | 'interactive';
      reason: string;
      dangers: DangerMatch[];
      advice?: string;
      text: string;
      /** Refused by policy: the decision, its rule and reason (structured for MCP replies). */
      policy?: { decision: PolicyDecision['decision']; rule: string; reason: string };
    }
  | {
      kind: 'ran';
      category: RoutedCategory;
      exitCode: number;
      signal?: number;
      /** The run rendered for the requested output mode (core/format/render.ts): what the CLI prints. */
      text: string;
      /** The facts `text` was rendered from: a host that shows the run its own way renders these (MCP: renderBody with its RawRef). */
      input: RenderInput;
      report: Report;
      facts: RunFacts;
      plan: Plan;
      /** The line as it ran (preflight flags, structured formats). */
      ran: string;
      /** Dangers the human approved for this run. */
      approved: DangerMatch[];
      json: Record<string, unknown>;
    };

/** Parse and categorise only (no execution): for `--explain`, the MCP policy layer and the bench. */
export function explain(commandLine: string, meta: RouterMeta, detect?: DetectFn, cwd?: string, session?: string, cdpath?: string): { ok: true; plan: Plan } | { ok: false; error: ParseFailure } {
  const p = parseCommandLine(commandLine);
  if (!p.ok) return p;
  return { ok: true, plan: planLine(p.line, meta, detect, { cwd, session, cdpath }) };
}

/** The outcome of the policy gate: run this line (possibly edited by the human), or stop with this result. */
export type GateOutcome = { kind: 'run'; line: string; plan: Plan; approved: DangerMatch[] } | { kind: 'stop'; result: RouteResult };

/**
 * The one gate every line passes before it reaches a shell (the router's run, `mish --raw`):
 * parse, then the policy decision. allow / confirm run; forbid is refused with its rule and
 * reason, no question asked; ask / operator go to `options.confirm` (the human on the CLI's
 * terminal, or an attached operator) and, without one, are refused naming rule and reason.
 */
export async function gate(commandLine: string, options: RouteOptions, output: OutputMode = options.output ?? (options.mode === 'cli' ? 'human' : 'context')): Promise<GateOutcome> {
  let line = commandLine;
  for (let edits = 0; ; edits++) {
    const parsed = parseCommandLine(line);
    if (!parsed.ok) return { kind: 'stop', result: parseError(line, parsed.error, output) };
    const plan = planLine(parsed.line, options.meta, options.detect, { stdinFed: options.stdinFed, cwd: options.cwd, session: options.session, cdpath: options.cdpath });
    if (plan.category !== 'dangerous') return { kind: 'run', line, plan, approved: [] };
    const pol = plan.policy;
    const warning = dangerWarning(line, plan.dangers);
    if (pol.decision === 'forbid') return { kind: 'stop', result: refused('dangerous', `${warning}\nrefused: forbidden by policy (rule ${pol.rule})`, plan.dangers, output, line, undefined, pol) };
    if (options.approvals?.covers(plan.dangers)) return { kind: 'run', line, plan, approved: plan.dangers };
    if (!options.confirm) {
      const who = options.mode === 'mcp' ? 'an operator must approve it and none is attached' : 'there is no terminal to ask for confirmation';
      return { kind: 'stop', result: refused('dangerous', `${warning}\nrefused: policy says ${pol.decision} (rule ${pol.rule}); ${who}`, plan.dangers, output, line, undefined, pol) };
    }
    const d = await options.confirm({ command: line, dangers: plan.dangers, decision: pol.decision === 'operator' ? 'operator' : 'ask', rule: pol.rule, reason: pol.reason });
    // The human has just read the warning at the question: one line says what happened, not the warning again.
    if (d.kind === 'no') return { kind: 'stop', result: refused('dangerous', 'refused by the user; nothing was run', plan.dangers, output, line, undefined, pol) };
    if (d.kind === 'always') options.approvals?.approve(plan.dangers.map((x) => x.id));
    if (d.kind === 'yes' || d.kind === 'always') return { kind: 'run', line, plan, approved: plan.dangers };
    if (edits >= MAX_EDITS) return { kind: 'stop', result: refused('dangerous', `${warning}\nrefused: too many edits`, plan.dangers, output, line, undefined, pol) };
    line = d.command;
  }
}

export async function route(commandLine: string, options: RouteOptions): Promise<RouteResult> {
  const output = options.output ?? (options.mode === 'cli' ? 'human' : 'context');
  const g = await gate(commandLine, options, output);
  if (g.kind === 'stop') return g.result;
  return execute(g.line, g.plan, g.approved, options, output);
}

/** How a line that was not run for a parse failure (or a control character) is told, in every host. */
export function parseFailureText(error: ParseFailure): string {
  const what = error.kind === 'control-character' ? 'refused' : 'syntax error';
  return `mish: ${what} at line ${error.line}, column ${error.column}: ${error.message}\n${error.excerpt}\nnothing was run`;
}

function parseError(line: string, error: ParseFailure, output: OutputMode): RouteResult {
  const msg = parseFailureText(error);
  const text = output === 'json' ? JSON.stringify({ command: line, error: error.kind === 'control-character' ? 'control-character' : 'parse', exitCode: PARSE_ERROR_EXIT, message: error.message, line: error.line, column: error.column, pos: error.pos }) + '\n' : msg + '\n';
  return { kind: 'parse-error', exitCode: PARSE_ERROR_EXIT, error, text };
}

function refused(category: 'dangerous' | 'interactive', reason: string, dangers: DangerMatch[], output: OutputMode, line: string, advice: string | undefined, policy?: PolicyDecision): RouteResult {
  const pol = policy ? { decision: policy.decision, rule: policy.rule, reason: policy.reason } : undefined;
  const text =
    output === 'json'
      ? JSON.stringify({ command: line, refused: category, exitCode: REFUSED_EXIT, reason, ...(pol ? { policy: pol } : {}), dangers: dangers.map((d) => ({ id: d.id, description: d.description, command: d.text, ...(d.decision ? { decision: d.decision } : {}) })), ...(advice ? { advice } : {}) }) + '\n'
      : `${reason}${advice ? `\ninstead: ${advice}` : ''}\n`;
  return { kind: 'refused', exitCode: REFUSED_EXIT, category, reason, dangers, advice, text, ...(pol ? { policy: pol } : {}) };
}

async function execute(line: string, plan: Plan, approved: DangerMatch[], o: RouteOptions, output: OutputMode): Promise<RouteResult> {
  const treatment = plan.treatment;
  const base: HandlerContext = {
    mode: o.mode,
    executor: o.executor,
    cwd: o.cwd,
    env: treatment === 'interactive' ? { ...o.env } : { ...NON_INTERACTIVE_ENV, ...presentationEnv(plan), ...o.env },
    detect: o.detect,
    spool: o.spool,
    signal: o.signal,
    terminal: o.terminal,
    onStart: o.onStart,
    onEvent: o.onEvent,
    cols: o.cols,
    rows: o.rows,
  };
  let report: Report;
  let facts: Omit<RunFacts, 'enrichment'>;
  let text = '';
  let ran = line;
  let injected: string[] = [];
  let grammars: string[] | undefined;
  switch (treatment) {
    case 'interactive': {
      const seg = plan.segments.find((s) => s.category === 'interactive') ?? plan.segments[0];
      if (o.mode === 'mcp' || !o.terminal) {
        const why = o.mode === 'mcp' ? `refused: ${seg.name} is interactive and cannot run over MCP` : `refused: ${seg.name} is interactive and there is no terminal`;
        return refused('interactive', why, [], output, line, interactiveAdvice(seg));
      }
      ({ report, facts } = await runInteractive(base, line, seg.name));
      break;
    }
    case 'condense': {
      const pf = preflight(line, plan.segments);
      ran = pf.command;
      injected = pf.injected;
      const r = await runCondense(base, ran, plan.segments);
      ({ report, facts } = r);
      grammars = r.grammars;
      text = r.report.category === 'condense' ? r.report.squash.hazards.map((h) => h.text).join('\n') + '\n' + r.report.squash.body.map((b) => (b.type === 'line' ? b.text : '')).join('\n') : '';
      break;
    }
    case 'narrate':
      ({ report, facts, text } = await runNarrate(base, line, plan.segments));
      break;
    case 'structured': {
      const r = await runStructured(base, line, plan.segments[0]);
      ({ report, facts, text, ran } = r);
      break;
    }
    case 'passthrough':
      ({ report, facts, text } = await runPassthrough(base, line, plan.segments));
      break;
  }
  // A success has no hints (enrich returns none): the environment is not copied for it (~55 µs, a fifth of a `true`'s route).
  const full: RunFacts = { ...facts, enrichment: facts.exitCode === 0 ? [] : enrich({ output: text, exitCode: facts.exitCode, cwd: o.cwd, env: { ...process.env, ...o.env }, commands: plan.segments.map((s) => s.command) }) };
  const input: RenderInput = { command: line, report, facts: full, ran, injected, grammars, cwd: o.cwd };
  return {
    kind: 'ran',
    // A condensed command that took over the screen (alternate screen on a terminal) ran as interactive.
    category: report.category === 'interactive' ? 'interactive' : treatment,
    exitCode: full.exitCode,
    ...(full.signal ? { signal: full.signal } : {}),
    text: render(input, output, o.color ?? false),
    input,
    report,
    facts: full,
    plan,
    ran,
    approved,
    json: toJson(input),
  };
}

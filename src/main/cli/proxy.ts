/**
 * `mish <command> [args…]`: runs the command in a real PTY, prints condensed output (hazards
 * as they happen on a terminal, periodic progress on long runs, the summary at the end) and
 * exits with the command's exit code. `--raw` passes everything through; `--json` prints a
 * machine-readable result. The raw bytes always go to the spool (`mish raw <id>`).
 */
import { spawnCommand, type CommandSpec } from '../core/pty/spawn-command.js';
import type { PtyExit } from '../core/pty/types.js';
import { SpoolStore } from '../core/spool/spool.js';
import { renderSummary, headerLine } from '../core/squasher/render.js';
import { Squasher } from '../core/squasher/squasher.js';
import type { SquashEvent, SquashResult } from '../core/squasher/types.js';
import type { Detection } from '../core/grammar/types.js';
import { nodePtyPort } from '../platform/node-pty-port.js';
import { attachTerminal, terminalSize } from './terminal-io.js';

/** How often the squasher's timers run (partial-line prompt, silence flush, progress). */
const TICK_MS = 100;

export interface ProxyOptions {
  output: 'human' | 'json' | 'raw';
  color: boolean;
  /** Grammar for the command, from tool detection (undefined: unknown tool, heuristics only). */
  detection?: Detection;
  spoolStore?: SpoolStore;
}

/** Does a single argument need a shell (`mish "make && make test"`)? */
export function needsShell(args: string[]): boolean {
  return args.length === 1 && /[|&;<>()$`*?[\]{}~\n"'\\]|\s/.test(args[0]);
}

export async function runProxy(args: string[], options: ProxyOptions): Promise<number> {
  const spec: CommandSpec = needsShell(args) ? { shellCommand: args[0] } : { argv: args };
  const commandText = args.length === 1 ? args[0] : args.map(quoteForDisplay).join(' ');
  const store = options.spoolStore ?? new SpoolStore();
  const spool = store.create(commandText, process.cwd());
  const live = options.output === 'human' && process.stdout.isTTY === true;
  const printed = new Set<number>();
  const squasher = new Squasher({
    detection: options.detection,
    onEvent: live ? (e) => onLiveEvent(e, options.color, printed) : undefined,
  });
  const { cols, rows } = terminalSize();
  const env = childEnv();
  let child;
  try {
    child = spawnCommand(nodePtyPort, spec, { cwd: process.cwd(), env, cols, rows });
  } catch (err) {
    process.stderr.write(`mish: cannot start ${commandText}: ${(err as Error).message}\n`);
    spool.close({ exitCode: 127 });
    return 127;
  }
  const detach = attachTerminal(child, { forwardStdin: process.stdin.isTTY === true || !process.stdin.readableEnded });
  const timer = setInterval(() => squasher.tick(), TICK_MS);
  child.onData((chunk) => {
    spool.write(chunk);
    if (options.output === 'raw') process.stdout.write(chunk);
    else squasher.write(chunk);
  });
  const exit: PtyExit = await new Promise((resolve) => child.onExit(resolve));
  clearInterval(timer);
  detach();
  clearStatus(live);
  const result = squasher.finish(exit);
  spool.close({ exitCode: exit.exitCode });
  if (options.output === 'json') {
    process.stdout.write(JSON.stringify(toJson(commandText, result, spool.id), null, 2) + '\n');
  } else if (options.output === 'human') {
    const text = renderSummary(live ? { ...result, hazards: result.hazards.filter((h) => !printed.has(h.lineNo)) } : result, { color: options.color, spoolRef: spool.ref });
    process.stdout.write(live && printed.size ? text.replace(/\n/, ` (${printed.size} shown above)\n`) : text);
  }
  return exit.exitCode;
}

let statusShown = false;

function onLiveEvent(e: SquashEvent, color: boolean, printed: Set<number>): void {
  const red = color ? '\x1b[31m' : '';
  const yellow = color ? '\x1b[33m' : '';
  const dim = color ? '\x1b[2m' : '';
  const reset = color ? '\x1b[0m' : '';
  clearStatus(true);
  if (e.type === 'hazard') {
    printed.add(e.hazard.lineNo);
    const c = e.hazard.severity === 'error' ? red : yellow;
    process.stdout.write(`${c}${e.hazard.severity === 'error' ? '✗' : '⚠'} ${e.hazard.text}${reset}\n${e.hazard.context.map((l) => `    ${l}\n`).join('')}`);
  } else if (e.type === 'prompt') {
    process.stdout.write(`${yellow}? ${e.text}${reset}\n`);
  } else if (e.type === 'progress') {
    const last = (e.lastLine ?? '').slice(0, 60);
    process.stderr.write(`${dim}… ${headerLine({ totalLines: e.lines, exitCode: 0, durationMs: e.elapsedMs }).replace(/ → exit 0/, '')} ${last}${reset}`);
    statusShown = true;
  }
}

function clearStatus(live: boolean): void {
  if (live && statusShown) {
    process.stderr.write('\r\x1b[K');
    statusShown = false;
  }
}

function childEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  // Tools print colour and progress to a terminal; colour is a classification hint.
  if (!env.TERM || env.TERM === 'dumb') env.TERM = 'xterm-256color';
  return env;
}

function quoteForDisplay(a: string): string {
  return /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}

function toJson(command: string, r: SquashResult, spoolId: string) {
  return {
    command,
    exitCode: r.exitCode,
    signal: r.signal,
    durationMs: Math.round(r.durationMs),
    lines: r.totalLines,
    bytes: r.bytes,
    hazards: r.hazards,
    hazardsOmitted: r.hazardsOmitted,
    outcomes: r.outcomes,
    groups: r.groups,
    body: r.body,
    verbatim: r.verbatim,
    finalPrompt: r.finalPrompt,
    spool: { id: spoolId, ref: `mish raw ${spoolId}` },
    text: renderSummary(r, { color: false }),
  };
}

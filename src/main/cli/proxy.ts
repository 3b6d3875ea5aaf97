/**
 * `mish <command> [args…]`: the CLI host of the router. Parses the line, picks the category
 * (condense, narrate, passthrough, structured, interactive, dangerous) and prints what the
 * handler reports; hazards appear as they happen on a terminal, with periodic progress on
 * long runs. Exits with the command's exit code. `--raw` passes everything through; `--json`
 * prints a machine-readable result. The raw bytes always go to the spool (`mish raw <id>`).
 */
import { cutAtWord } from '../core/format/cut-at-word.js';
import { fstatSync, statSync } from 'node:fs';
import { config as zodConfig } from 'zod';
import { CliExecutor } from '../core/exec/cli-executor.js';
import { OnlcrUndoer } from '../core/exec/terminal-newlines.js';
import { GrammarRegistry, detectTool, formatGrammarError } from '../core/grammar/index.js';
import { SessionApprovals, type ConfirmFn, type DangerDecision } from '../core/handlers/dangerous.js';
import { APPROVAL_TOKEN_ENV, redeemApprovalToken } from '../hooks/approval-token.js';
import type { TerminalPort } from '../core/handlers/types.js';
import { loadRouterMeta } from '../core/router/meta.js';
import { gate, route } from '../core/router/route.js';
import { formatPolicyError } from '../core/policy/index.js';
import { SpoolStore } from '../core/spool/spool.js';
import { contextLine, continuesBlock, formatDuration, hazardMark, plural } from '../core/squasher/render.js';
import type { HazardReport } from '../core/squasher/types.js';
import { render, type OutputMode, type RenderInput } from '../core/format/render.js';
import type { SquashEvent } from '../core/squasher/types.js';
import { nodePtyPort } from '../platform/node-pty-port.js';
import { exitOnClosedOutput, setRunningCommand } from './closed-output.js';
import { AnswerEchoExecutor } from './answer-echo.js';
import { confirmOnTty } from './confirm-tty.js';
import { InterruptEchoExecutor } from './interrupt-echo.js';
import { attachTerminal, terminalSize } from './terminal-io.js';
import { UsageError } from './usage-error.js';
import type { CliAudit } from './cli-audit.js';
import { hookedRun, maskForAgent, printsToAgent } from './agent-output.js';
import type { AuditActor } from '../core/audit/types.js';
import { operatorPresent } from '../operator/presence.js';

export interface ProxyOptions {
  output: 'human' | 'json' | 'raw';
  color: boolean;
  spoolStore?: SpoolStore;
  /** --policy FILE / --policy-default DECISION: the policy's CLI layer. */
  policyFile?: string;
  policyDefault?: string;
}

/** Does a single argument need a shell (`mish "make && make test"`)? */
export function needsShell(args: string[]): boolean {
  return args.length === 1 && /[|&;<>()$`*?[\]{}~\n"'\\]|\s/.test(args[0]);
}

/** argv → one command line for the router: a single argument with shell syntax is taken as written. */
export function toCommandLine(args: string[]): string {
  return needsShell(args) ? args[0] : args.map(shellQuote).join(' ');
}

export async function runProxy(args: string[], options: ProxyOptions): Promise<number> {
  // One process validates each grammar and the router data once: zod's JIT (it compiles a
  // parser per schema with new Function) costs more start-up time than it saves here.
  zodConfig({ jitless: true });
  exitOnClosedOutput();
  const cwd = currentDirectory();
  if (cwd === undefined) {
    process.stderr.write('mish: cannot start: the current directory no longer exists (cd to one that does)\n');
    return CANNOT_START_EXIT;
  }
  const line = toCommandLine(args);
  // An agent's run: the terminal, if there is one, is the agent's own (a PTY shell tool), so it
  // is never asked a question, handed an interactive program or shown live unmasked lines.
  const forAgent = printsToAgent();
  const humanTty = forAgent ? undefined : confirmOnTty;
  // An escalation an operator approved in the agent's hook: a one-shot token for exactly this line (approval-token.ts).
  const approvedBy = redeemToken(line);
  const env = childEnv();
  // Piped stdin (`echo x | mish cat`) goes to the command as a pipe; a terminal stdin is the keyboard.
  const executor = new CliExecutor(nodePtyPort, { env, stdin: process.stdin.isTTY ? undefined : stdinIsDevNull() ? 'null' : process.stdin });
  const spool = options.spoolStore ?? new SpoolStore();
  // A run an agent's hook rewrote: its audit record and its wire session name the agent, its session and one command id.
  const hooked = hookedRun();
  // The audit log (and the masking rules, to mask it) loads while the command runs.
  const auditing = loadCliAudit(hooked);
  // Who ran it: a human at a terminal, or a program (an agent's shell tool, a script) without one.
  const by: AuditActor = process.stdin.isTTY ? 'user' : 'agent';
  const metaResult = loadRouterMeta(undefined, { cwd, cliFile: options.policyFile, cliDefault: options.policyDefault });
  if (!metaResult.ok) throw new UsageError(`mish: ${metaResult.error.file}: ${metaResult.error.message}`);
  for (const e of metaResult.meta.policy.errors) process.stderr.write(`mish: policy: ${formatPolicyError(e)} (decisions held at ask until fixed)\n`);
  if (options.output === 'raw') {
    // --raw skips condensing, never the policy: the same gate as every other line.
    const confirm: ConfirmFn | undefined = approvedBy ? async (p) => (p.command === line && !approvedBy.used ? ((approvedBy.used = true), { kind: 'yes' }) : { kind: 'no' }) : humanTty;
    const g = await gate(line, { mode: 'cli', executor, meta: metaResult.meta, cwd, spool, confirm, approvals: new SessionApprovals(), output: 'human' });
    if (g.kind === 'stop') {
      process.stderr.write(g.result.text.endsWith('\n') ? g.result.text : `${g.result.text}\n`);
      const audit = await auditing;
      const reason = g.result.kind === 'parse-error' ? g.result.error.message : g.result.kind === 'refused' ? (g.result.policy ? `${g.result.policy.decision} (rule ${g.result.policy.rule}): ${g.result.policy.reason}` : g.result.reason) : '';
      audit?.refusedRaw(line, cwd, reason, by);
      await audit?.flush();
      return g.result.exitCode;
    }
    return runRaw(executor, g.line, cwd, spool, auditing, by);
  }
  // An operator is running (the console, mish approvals): this run is published on the operator wire (wire-publish.ts).
  const publishing = operatorPresent(process.env.MISH_OPERATOR_DIR) ? import('./wire-publish.js').then((m) => m.startCliPublish(cwd, process.env, hooked?.id), () => undefined) : undefined;
  const registry = new GrammarRegistry({ cwd, onError: (e) => process.stderr.write(`mish: warning: ${formatGrammarError(e, cwd)} (grammar skipped)\n`) });
  const grammars = registry.snapshot(cwd);
  const live = options.output === 'human' && process.stdout.isTTY === true && !forAgent;
  const printed = new Set<number>();
  const { cols, rows } = terminalSize();
  // The tty's `^C` echo is not counted as the command's output; a live terminal shows it on its own line.
  const interruptible = new InterruptEchoExecutor(executor, live ? () => (clearStatus(true), process.stdout.write('^C\n')) : undefined);
  // An answer typed while a `? question` is shown appears as the terminal echoes it.
  const routed = new AnswerEchoExecutor(interruptible, (echo) => process.stdout.write(echo));
  let detach: (() => void) | undefined;
  const publisher = await publishing;
  const started = Date.now();
  try {
    const result = await route(line, {
      mode: 'cli',
      executor: publisher ? publisher.wrap(routed) : routed,
      meta: metaResult.meta,
      detect: (argv) => detectTool(argv, grammars),
      cwd,
      output: options.output,
      color: options.color,
      spool: publisher ? publisher.spools(spool) : spool,
      terminal: forAgent ? undefined : terminalPort(() => interruptible.handOver()),
      // No terminal (confirmOnTty undefined): the router refuses, and the refusal is audited below.
      confirm: approvedBy
        ? async (prompt) => {
            // The token approves the line it was issued for, once: an operator's edit loop never reaches here with another.
            const answer: DangerDecision = prompt.command === line && !approvedBy.used ? ((approvedBy.used = true), { kind: 'yes' }) : { kind: 'no' };
            if (answer.kind === 'yes') (await auditing)?.redeemed(prompt.command, prompt.dangers, approvedBy);
            return answer;
          }
        : humanTty
        ? async (prompt) => {
            const answer = await humanTty(prompt);
            (await auditing)?.answered(prompt.command, prompt.dangers, answer.kind);
            return answer;
          }
        : undefined,
      approvals: new SessionApprovals(),
      stdinFed: !process.stdin.isTTY && stdinIsInput(),
      cols,
      rows,
      // Non-interactive commands still get the keyboard, so a prompt can be answered.
      onStart: (control) => {
        setRunningCommand(control);
        detach = attachTerminal(control);
      },
      onEvent: live
        ? (e) => {
            onLiveEvent(e, options.color, printed);
            if (e.type === 'prompt') routed.questionShown();
          }
        : undefined,
    });
    clearStatus(live);
    const audit = await auditing;
    audit?.routed(line, cwd, result, by);
    // Hazards were printed as they happened: the summary does not repeat them (the status line counts them).
    // An agent's text: its long lines cut around secrets (withSecretsWhole), in what it reads and in the console's "agent saw".
    const agentText = forAgent && result.kind === 'ran' ? await withSecretsWhole(result.input, result.text, options) : result.text;
    const shown = live && printed.size && result.kind === 'ran' && result.report.category === 'condense' ? render(result.input, 'human', options.color, { skipHazard: (h) => printed.has(h.lineNo) }) : agentText;
    // On the wire, a password prompt may have been handed to an operator: what they typed is masked, the summary added.
    const spoolRef = result.kind === 'ran' ? result.facts.spoolRef : undefined;
    const text = await maskForAgent(publisher ? publisher.agentView(shown) : shown, line, { spoolRef });
    // --json: the result is on stdout whatever it is (a consumer parses one stream).
    const stream = result.kind === 'ran' || options.output === 'json' ? process.stdout : process.stderr;
    stream.write(text.endsWith('\n') ? text : `${text}\n`);
    await audit?.flush();
    await publisher?.finish({ command: line, exitCode: result.exitCode, agentText: await maskForAgent(publisher.agentView(agentText), line, { spoolRef }), category: result.kind === 'ran' ? result.report.category : result.kind, durationMs: Date.now() - started, refused: result.kind !== 'ran' });
    return result.exitCode;
  } finally {
    setRunningCommand(undefined);
    detach?.();
  }
}

/** A long line's cut as line-cut.ts marks it. */
const CUT_MARK = /… \[\+[\d,]+ chars\] …/;

/**
 * An agent's text with its long lines cut around their secrets, not through them (line-cut.ts KeepWhole): cut bare, a token
 * starting just before the cut showed all but its last characters to the agent's shell tool, each piece too short for any
 * rule (adv142, on the MCP host; the hooked CLI path had the same cut). The scanner (~65 ms to load) is loaded only when a
 * line was cut, so the hooked commands that print short lines do not pay it.
 */
async function withSecretsWhole(input: RenderInput, text: string, options: { output: OutputMode | 'raw'; color: boolean }): Promise<string> {
  if (options.output === 'json' || options.output === 'raw' || !CUT_MARK.test(text)) return text;
  const { secretSpansWithNames } = await import('../core/redact/kept-spans.js');
  return render(input, options.output, options.color, { keepWhole: secretSpansWithNames });
}

/**
 * `--raw`: the command's bytes straight to stdout (still spooled), exit code preserved. To a
 * pipe or a file they are the program's own bytes: the PTY's `\r\n` is undone (terminal-newlines.ts).
 */
async function runRaw(executor: CliExecutor, line: string, cwd: string, store: SpoolStore, auditing: Promise<CliAudit | undefined>, by: AuditActor): Promise<number> {
  const spool = store.create(line, cwd);
  let detach: (() => void) | undefined;
  const { cols, rows } = terminalSize();
  const newlines = process.stdout.isTTY ? undefined : new OnlcrUndoer();
  try {
    const res = await executor.run({
      command: line,
      cwd,
      cols,
      rows,
      onData: (chunk) => {
        spool.write(chunk);
        process.stdout.write(newlines ? newlines.push(chunk) : chunk);
      },
      onStart: (control) => {
        setRunningCommand(control);
        detach = attachTerminal(control);
      },
    });
    if (newlines) process.stdout.write(newlines.end());
    spool.close({ exitCode: res.exitCode });
    const audit = await auditing;
    audit?.ranRaw(line, cwd, res.exitCode, spool.ref, by);
    await audit?.flush();
    return res.exitCode;
  } finally {
    setRunningCommand(undefined);
    detach?.();
  }
}

/** The CLI's audit log, loaded in the background; undefined when it cannot load (the run goes on, said on stderr). */
function loadCliAudit(run?: ReturnType<typeof hookedRun>): Promise<CliAudit | undefined> {
  return import('./cli-audit.js').then(
    (m) => m.createCliAudit(run),
    (e: unknown) => {
      process.stderr.write(`mish: warning: audit log unavailable: ${(e as Error).message}\n`);
      return undefined;
    },
  );
}

/** The real terminal, for interactive commands (vim, less, REPLs): raw stdin, resize, signals. */
function terminalPort(onHandOver: () => void): TerminalPort | undefined {
  if (!process.stdin.isTTY || !process.stdout.isTTY) return undefined;
  return {
    attach: (control) => {
      onHandOver();
      setRunningCommand(control);
      return attachTerminal(control);
    },
    write: (bytes) => {
      onHandOver();
      clearStatus(true); // a condensed run handed over mid-way: its progress line must not prefix the screen
      process.stdout.write(bytes);
    },
    size: terminalSize,
  };
}

let statusShown = false;
/** The hazard printed live last, while nothing else was printed after it (a block's next line gets no second mark). */
let lastLive: HazardReport | undefined;

function onLiveEvent(e: SquashEvent, color: boolean, printed: Set<number>): void {
  const red = color ? '\x1b[31m' : '';
  const yellow = color ? '\x1b[33m' : '';
  const dim = color ? '\x1b[2m' : '';
  const reset = color ? '\x1b[0m' : '';
  clearStatus(true);
  if (e.type === 'hazard') {
    printed.add(e.hazard.lineNo);
    const c = e.hazard.severity === 'error' ? red : yellow;
    const mark = continuesBlock(lastLive, e.hazard) ? '' : hazardMark(e.hazard);
    lastLive = e.hazard;
    process.stdout.write(`${c}${mark}${e.hazard.text}${reset}\n${e.hazard.context.map((l) => `${contextLine(l)}\n`).join('')}`);
  } else if (e.type === 'prompt') {
    lastLive = undefined;
    process.stdout.write(`${yellow}? ${e.text}${reset}\n`);
  } else if (e.type === 'progress') {
    const last = cutAtWord(e.lastLine ?? '', 60);
    process.stderr.write(`${dim}… ${plural(e.lines, 'line')} (${formatDuration(e.elapsedMs)}) ${last}${reset}`);
    statusShown = true;
  }
}

function clearStatus(live: boolean): void {
  if (live && statusShown) {
    process.stderr.write('\r\x1b[K');
    statusShown = false;
  }
}

/** What a shell reports for a command it could not start. */
const CANNOT_START_EXIT = 127;

/** The working directory, or undefined when it was deleted under us (getcwd fails). */
function currentDirectory(): string | undefined {
  try {
    return process.cwd();
  } catch {
    return undefined;
  }
}

/**
 * Is mish's stdin input for the command: a shell pipe or a file (`echo 1+1 | mish python3`,
 * `mish psql < q.sql`)? Not a socket (an agent's idle channel, which may never end) nor
 * /dev/null: there a bare REPL still waits for a human and is refused.
 */
function stdinIsInput(): boolean {
  try {
    const st = fstatSync(0);
    return st.isFIFO() || st.isFile();
  } catch {
    return false;
  }
}

/** Is mish's stdin /dev/null (a program started it with no input, e.g. stdio 'ignore')? */
function stdinIsDevNull(): boolean {
  try {
    const st = fstatSync(0);
    return st.isCharacterDevice() && st.rdev === statSync('/dev/null').rdev;
  } catch {
    return false;
  }
}

/**
 * Redeems MISH_APPROVAL_TOKEN (set by the hook's rewrite of an approved escalation) for this
 * line: who approved it, or undefined (no token; or refused, said on stderr, and the policy then
 * decides as without one). The command never sees the token.
 */
function redeemToken(line: string): { by: string; id: string; used: boolean } | undefined {
  const token = process.env[APPROVAL_TOKEN_ENV];
  delete process.env[APPROVAL_TOKEN_ENV];
  if (!token) return undefined;
  const r = redeemApprovalToken(token, line);
  if (r.ok) return { by: r.by, id: r.id, used: false };
  process.stderr.write(`mish: approval token refused: ${r.reason}\n`);
  return undefined;
}

function childEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  // Tools print colour and progress to a terminal; colour is a classification hint.
  if (!env.TERM || env.TERM === 'dumb') env.TERM = 'xterm-256color';
  return env;
}

/** Quotes for bash and zsh alike: a leading `=` too (zsh expands `=name` to a program's path). */
function shellQuote(a: string): string {
  return /^[\w@%+:,./-][\w@%+=:,./-]*$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}

/**
 * What every MCP tool of mish shares: the dependencies a tool gets, reply building (text plus
 * structuredContent), the reply size cap with its exact marker, agent-actionable error results,
 * and progress notifications. Tools translate; the engine (src/main/core) does the work.
 */
import { cutAtWord } from '../core/format/cut-at-word.js';
import { z } from 'zod';
import type { Policy } from '../core/policy/index.js';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ProcessControl, ProcessEntry, SessionManager, SpoolReadResult } from '../core/session/types.js';
import type { BackgroundRuns } from './background-runs.js';
import type { OperatorHost } from '../operator/operator-host.js';
import type { ConfirmFn } from '../core/handlers/dangerous.js';
import type { DangerMatch } from '../core/router/categorize.js';
import type { AuditSink } from '../core/audit/types.js';
import type { ReplyRedactor } from './reply-guard.js';
import { statusLine, statusParts, type RawRef, type Shown } from '../core/format/render.js';
import { countTokens, estimateTokens } from '../core/format/tokens.js';
import { thousands } from '../core/format/thousands.js';

export { estimateTokens };

/**
 * Runs one command line through the category router in a session and renders the reply text.
 * Implemented by serve-command.ts on top of src/main/core/router; injected so the server can be
 * built (and its protocol tested) apart from the engine wiring.
 */
export type RouteCommand = (request: RouteCommandRequest) => Promise<RouteCommandResult>;

export interface RouteCommandRequest {
  command: string;
  session?: string;
  cwd?: string;
  signal?: AbortSignal;
  /** Fires with the process-table id of the session command before it is written to the shell. */
  onStart?: (id: string) => void;
  /** Asks an operator about a dangerous line (escalation.ts); without it dangerous lines are refused. */
  confirm?: ConfirmFn;
}

export interface RouteCommandResult {
  /** Process-table id of the (last) session command, when one ran. */
  id?: string;
  session: string;
  /** The run's body as the agent reads it (condensed / narrated / passthrough / structured, then hints): no status line (runStatus renders it from these facts). */
  text: string;
  /** What `text` leaves out of the output (core/format/render.ts); absent: the output whole. */
  shown?: Shown;
  /** null when nothing ran (the router refused: interactive, dangerous, parse error). */
  exitCode: number | null;
  /** The signal that ended the command, if one did. */
  signal?: number;
  category: string;
  /** The session's cwd after the command. */
  cwd?: string;
  /** The cwd the command started in (the reply names `cwd` only when the command ended elsewhere). */
  startCwd?: string;
  /** Lines of raw output vs lines in `text`. */
  rawLines: number;
  shownLines: number;
  /** The router refused to run the command; `text` says why and what to do instead. */
  refused?: boolean;
  /** Refused by the policy engine: its decision, rule and reason. */
  policy?: { decision: string; rule: string; reason: string };
  shellExited?: boolean;
  freshShell?: { previousExitCode?: number; reason: string };
  durationMs: number;
  /** `mish raw <spool id>`: the command's exact raw bytes on disk, readable from the CLI too. */
  spoolRef?: string;
}

/**
 * The router's verdict on a line that runs outside sh_run (sh_spawn), before anything starts:
 * the same parse / dangerous / interactive checks sh_run gets from route().
 */
export type CheckCommand = (command: string, cwd: string, session?: string) => CommandVerdict;

export type CommandVerdict =
  | { kind: 'ok'; category: string }
  /** `text`: the error with line, column and a caret excerpt; nothing may run. */
  | { kind: 'parse-error'; text: string; line: number; column: number }
  /** `text`: sh_run's refusal (the warning with every matched pattern). */
  | { kind: 'dangerous'; text: string; dangers: string[]; policy: { decision: string; rule: string; reason: string }; /** The matches themselves (for the operator's approval request). */ matches?: DangerMatch[] }
  /**
   * An interactive program. `drivable`: the router itself advises running it in the
   * background and driving it with sh_interact (ssh, tools with no one-shot form); otherwise
   * `advice` names the non-interactive way (vim → sed/heredoc, a bare REPL → -c/-e).
   */
  | { kind: 'interactive'; text: string; advice: string; drivable: boolean };

/**
 * Condenses raw output lines with the grammar detected for `command` (read_tail). `firstLine`:
 * the raw line number of lines[0], so "omitted (lines A-B)" markers name raw lines for read_raw.
 */
export type CondenseLines = (command: string, cwd: string, lines: string[], firstLine: number) => { text: string; grammar?: string };

/** What createServer needs. One instance can back several MCP connections (HTTP sessions). */
export interface McpDeps {
  sessions: SessionManager;
  route: RouteCommand;
  /** The router's checks for lines that do not go through `route` (sh_spawn). */
  check: CheckCommand;
  /** Squashes a slice of raw output (sh_interact read_tail). */
  condense: CondenseLines;
  /** sh_run calls that outlived their timeout, so their final condensed reply is not lost. */
  runs: BackgroundRuns;
  version: string;
  /** Diagnostics; stderr in `mish serve` (stdout is the protocol). */
  log: (message: string) => void;
  /**
   * The policy in force (src/main/core/policy): sh_interact judges each line typed into a
   * process that is a shell with it, as sh_run judges its lines.
   */
  policy?: () => Policy;
  /**
   * The operator side (approvals, handoffs, known secrets, the wire's events); absent in
   * embeddings without operators: escalations are then refused, secret prompts not handed off.
   */
  operator?: OperatorHost;
  /** Masks secrets in every reply (reply-guard.ts); default: secret patterns only. */
  redactor?: ReplyRedactor;
  /** Where tool calls are recorded (commands, refusals, session events); default: nowhere. */
  audit?: AuditSink;
}

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** A session name as every tool takes it (it appears in replies and ids: keep it one plain word). */
export const sessionNameArg = () => z.string().min(1).max(64).regex(/^[\w.-]+$/, 'session names: letters, digits, _ . - only');

/** A policy decision in a reply's structuredContent (sh_run, sh_spawn, sh_interact). */
export const policyOutput = () =>
  z.object({ decision: z.string().describe('ask | operator | forbid'), rule: z.string().describe('the policy rule id'), reason: z.string() }).optional();

/** What became of a line sent to an operator, in a reply's structuredContent (sh_run, sh_spawn). */
export const escalationOutput = () =>
  z
    .object({ id: z.string().optional(), outcome: z.string(), rule: z.string(), reason: z.string(), by: z.string().optional(), command: z.string().optional() })
    .optional()
    .describe('a dangerous line went to an operator: approval id, outcome (approved | always | edited | denied | timeout | operator-gone | no-operator | cancelled), the rule and why, who decided, the edited command');

/** The issue's budget for one reply's text, in estimateTokens' units (a bound on the high side for any tokenizer). */
export const MAX_REPLY_TOKENS = 20_000;
/** Room kept below the budget for what follows the capped body (meta line, [procs] digest, marker). */
const FOOTER_TOKEN_ROOM = 1_000;

/**
 * Cuts `text` at a line boundary to fit MAX_REPLY_TOKENS and says exactly what was cut and how to
 * get it. The cap is measured with estimateTokens (a high bound); what was kept is stated with
 * countTokens, the figure the console shows for the same text: the marker never passes the cap
 * off as what the agent received (a prose reply cut at the cap is ~8k o200k tokens, not 20k).
 */
export function capReply(text: string, readHint: (fromLine: number) => string): { text: string; truncated: boolean } {
  // Fast path: a char is at most ~1 token except astral chars, so short text always fits.
  if (text.length <= (MAX_REPLY_TOKENS - FOOTER_TOKEN_ROOM) / 2) return { text, truncated: false };
  const budget = MAX_REPLY_TOKENS - FOOTER_TOKEN_ROOM;
  if (estimateTokens(text) <= budget) return { text, truncated: false };
  const lines = text.split('\n');
  let used = 0;
  let kept = 0;
  for (; kept < lines.length; kept++) {
    const cost = estimateTokens(lines[kept]) + 1;
    if (used + cost > budget) break;
    used += cost;
  }
  const body = lines.slice(0, kept).join('\n');
  const totalLines = countLines(text);
  const omittedLines = totalLines - kept;
  const omittedChars = text.length - body.length;
  const marker = `\n[mish: reply cut at its ~${MAX_REPLY_TOKENS / 1000}k-token cap (a high estimate): ${thousands(countTokens(body))} tokens of output kept, ${thousands(omittedLines)} more line(s), ${thousands(omittedChars)} chars omitted; ${readHint(kept + 1)}]`;
  return { text: body + marker, truncated: true };
}

export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
}

/** How sh_run's text names a command's raw output: the read_raw action with its id (sh_interact). */
export function mcpRawRef(id: string): RawRef {
  return { all: `read_raw ${id}`, lines: (from, to) => `sh_interact {id: "${id}", action: "read_raw", from_line: ${from}, to_line: ${to}}` };
}

/**
 * The status line of a finished command's reply (core/format/render.ts statusParts): `[exit 0]`
 * for an output shown whole; `[exit 1 · 3,013 lines · read_raw c7]` when something was folded or
 * cut; `cwd …` when the command ended in another directory than it started in. Every fact is in
 * structuredContent too.
 */
export function runStatus(r: RouteCommandResult, truncated = false): string {
  const shown: Shown = { ...(r.shown ?? { hidden: false }), ...(truncated ? { hidden: true, totalLines: r.rawLines, inOrder: false } : {}) };
  const moved = r.cwd !== undefined && r.startCwd !== undefined && r.cwd !== r.startCwd;
  return statusLine(statusParts({ exitCode: r.exitCode, signal: r.signal, durationMs: r.durationMs }, shown, r.id ? mcpRawRef(r.id).all : undefined, moved ? [`cwd ${r.cwd}`] : []));
}

/**
 * A finished command's reply text, as sh_run sends it (and the bench measures it): what the
 * agent should know before the output (an operator approved or edited the command), the body,
 * the notes (fresh shell, answered prompts), the status line, the [procs] digest.
 */
export function runReplyText(r: RouteCommandResult, body: string, options: { lead?: string[]; notes?: string[]; digest?: string; truncated?: boolean } = {}): string {
  return [...(options.lead ?? []), body.replace(/\n+$/, ''), ...(options.notes ?? []), runStatus(r, options.truncated), options.digest ?? ''].filter((s) => s.length > 0).join('\n');
}

/** A successful reply: the text the agent reads plus the same facts as structured content. */
export function reply<T extends Record<string, unknown>>(text: string, structured: T): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/**
 * A failed call: `isError` with text that says what went wrong and what to do next. (Output
 * schemas are not checked on error results, so no structuredContent is needed.)
 */
export function toolError(what: string, next: string): CallToolResult {
  return { content: [{ type: 'text', text: `${what}\nNext: ${next}` }], isError: true };
}

/** Interval of progress notifications during long calls: often enough to reset client timeouts, rare enough to be free. */
export const PROGRESS_INTERVAL_MS = 1_000;

/**
 * Sends `notifications/progress` every PROGRESS_INTERVAL_MS while a call runs, when the client
 * asked for it (a progressToken in `_meta`). Returns the stopper.
 */
export function startProgress(extra: ToolExtra, describe: () => { progress: number; message?: string }): () => void {
  const token = extra._meta?.progressToken;
  if (token === undefined) return () => {};
  let last = -1;
  const timer = setInterval(() => {
    const { progress, message } = describe();
    // Progress must increase with every notification (MCP spec), even when the count stalls.
    const value = progress > last ? progress : last + 1;
    last = value;
    extra
      .sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: value, ...(message ? { message } : {}) } })
      .catch(() => {});
  }, PROGRESS_INTERVAL_MS);
  timer.unref?.();
  return () => clearInterval(timer);
}

/** `running 12s, 340 lines, last: "…"` for progress messages and status lines. */
export function describeEntry(e: ProcessEntry): string {
  const secs = Math.round(e.elapsedMs / 1000);
  const last = e.lastLine ? `, last: "${truncate(e.lastLine, 80)}"` : '';
  const waiting = e.waiting ? `, waiting for input${e.waiting.prompt ? `: "${truncate(e.waiting.prompt, 80)}"` : ' (no prompt printed)'}${e.waiting.secret ? ' (secret)' : ''}` : '';
  const end = e.state === 'exited' || e.state === 'killed' ? ` exit ${e.exitCode ?? '?'}${e.signal ? ` (signal ${e.signal})` : ''}` : '';
  return `${e.id}${e.alias ? ` (${e.alias})` : ''} ${e.state}${end} ${secs}s, ${e.rawLines} lines${last}${waiting}`;
}

/**
 * What to tell the agent about a process that reads its input without having printed a prompt
 * (`cat`, a script reading stdin): there is no question to answer, only input to give or end.
 */
export function readsStdinAdvice(id: string): string {
  return `It printed no prompt: it reads its input. Send lines with sh_interact {id: "${id}", action: "send", text: "…\\n"}, end the input with keys ["C-d"], or stop it with action "kill".`;
}

/** `s` cut to `max` characters between words (core/format/cut-at-word.ts: never a secret's piece). */
export function truncate(s: string, max: number): string {
  return cutAtWord(s, max);
}

/** Seconds from a tool argument to milliseconds, clamped to [min, max]. */
export function secondsToMs(seconds: number | undefined, fallbackS: number, maxS: number): number {
  const s = seconds === undefined || !Number.isFinite(seconds) ? fallbackS : Math.min(Math.max(seconds, 0), maxS);
  return Math.round(s * 1000);
}

/**
 * An optional regex argument from the agent: `re` when given and valid; when it does not compile,
 * `error`, the tool's failed result (`<label>: invalid regular expression …`, then `next`).
 */
export function regexArg(label: string, source: string | undefined, next: string): { re?: RegExp; error?: CallToolResult } {
  if (source === undefined) return {};
  try {
    return { re: new RegExp(source, 'm') };
  } catch (e) {
    return { error: toolError(`${label}: invalid regular expression ${JSON.stringify(source)}: ${(e as Error).message}`, next) };
  }
}

/** The last `n` raw lines of a process, with the read they come from (total and dropped line counts). */
export function readLastLines(control: ProcessControl, n: number): { read: SpoolReadResult; lines: SpoolReadResult['lines'] } {
  const read = control.read({ fromLine: Math.max(1, control.entry().rawLines - n + 1) });
  return { read, lines: read.lines.slice(-n) };
}

/** Races a promise against a timer; `undefined` when the timer wins. */
export function withTimeout<T>(p: Promise<T>, ms: number, signal?: AbortSignal): Promise<T | undefined> {
  return new Promise<T | undefined>((resolve, reject) => {
    const timer = setTimeout(() => resolve(undefined), ms);
    const onAbort = () => {
      clearTimeout(timer);
      resolve(undefined);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/**
 * What every MCP tool of mish shares: the dependencies a tool gets, reply building (text plus
 * structuredContent), the reply size cap with its exact marker, agent-actionable error results,
 * and progress notifications. Tools translate; the engine (src/main/core) does the work.
 */
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ProcessEntry, SessionManager } from '../core/session/types.js';
import type { BackgroundRuns } from './background-runs.js';

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
}

export interface RouteCommandResult {
  /** Process-table id of the (last) session command, when one ran. */
  id?: string;
  session: string;
  /** The router's rendered text (condensed / narrated / passthrough / structured). */
  text: string;
  /** null when nothing ran (the router refused: interactive, dangerous, parse error). */
  exitCode: number | null;
  category: string;
  cwd?: string;
  /** Lines of raw output vs lines in `text`. */
  rawLines: number;
  shownLines: number;
  /** The router refused to run the command; `text` says why and what to do instead. */
  refused?: boolean;
  shellExited?: boolean;
  freshShell?: { previousExitCode?: number; reason: string };
  durationMs: number;
}

/** What createServer needs. One instance can back several MCP connections (HTTP sessions). */
export interface McpDeps {
  sessions: SessionManager;
  route: RouteCommand;
  /** sh_run calls that outlived their timeout, so their final condensed reply is not lost. */
  runs: BackgroundRuns;
  version: string;
  /** Diagnostics; stderr in `mish serve` (stdout is the protocol). */
  log: (message: string) => void;
}

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * Reply text cap. The issue's budget is ~20k tokens; code and logs tokenise at ~3-4 chars per
 * token and dense output (hex, minified JS) at ~2.4, so 48k chars stays under 20k tokens.
 */
export const MAX_REPLY_CHARS = 48_000;

/** Cuts `text` to MAX_REPLY_CHARS at a line boundary and says exactly what was cut and how to get it. */
export function capReply(text: string, readHint: (fromLine: number) => string): { text: string; truncated: boolean } {
  if (text.length <= MAX_REPLY_CHARS) return { text, truncated: false };
  const totalLines = countLines(text);
  // Keep room for the marker itself.
  let cut = text.lastIndexOf('\n', MAX_REPLY_CHARS - 400);
  if (cut <= 0) cut = MAX_REPLY_CHARS - 400;
  const kept = text.slice(0, cut);
  const keptLines = countLines(kept);
  const omittedLines = totalLines - keptLines;
  const omittedChars = text.length - kept.length;
  const marker = `\n[mish: reply cut at ${MAX_REPLY_CHARS} chars (~20k tokens): ${omittedLines} more line(s), ${omittedChars} chars omitted; ${readHint(keptLines + 1)}]`;
  return { text: kept + marker, truncated: true };
}

export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n - 1 : n;
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
  const waiting = e.waiting ? `, waiting for input: "${truncate(e.waiting.prompt, 80)}"${e.waiting.secret ? ' (secret)' : ''}` : '';
  const end = e.state === 'exited' || e.state === 'killed' ? ` exit ${e.exitCode ?? '?'}${e.signal ? ` (signal ${e.signal})` : ''}` : '';
  return `${e.id}${e.alias ? ` (${e.alias})` : ''} ${e.state}${end} ${secs}s, ${e.rawLines} lines${last}${waiting}`;
}

export function truncate(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

/** Seconds from a tool argument to milliseconds, clamped to [min, max]. */
export function secondsToMs(seconds: number | undefined, fallbackS: number, maxS: number): number {
  const s = seconds === undefined || !Number.isFinite(seconds) ? fallbackS : Math.min(Math.max(seconds, 0), maxS);
  return Math.round(s * 1000);
}

/** Turns an agent-supplied regex source into a RegExp, or an error text. */
export function parseRegex(source: string): RegExp | string {
  try {
    return new RegExp(source, 'm');
  } catch (e) {
    return `invalid regular expression ${JSON.stringify(source)}: ${(e as Error).message}`;
  }
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

/**
 * Run a command line through the executor, collecting its raw bytes (and spooling them, so the
 * exact output stays retrievable whatever the handler shows).
 */
import { BoundedBytes, type BoundedResult } from './bounded-bytes.js';
import type { HandlerContext, RunFacts } from './types.js';

/** The raw bytes of a run and its facts (the router adds the enrichment hints afterwards). */
export interface Captured extends Omit<RunFacts, 'enrichment'> {
  bytes: Buffer;
}

export interface CaptureOptions {
  onData?: (chunk: Uint8Array) => void;
  onSegment?: (command: string) => void;
  /** Keep the bytes in memory (handlers that only stream, like interactive, say no). */
  keep?: boolean;
}

/** A run whose bytes are kept in bounded memory (head, newest tail, exact counts): for handlers that show head and tail. */
export async function captureBounded(ctx: HandlerContext, command: string): Promise<Omit<Captured, 'bytes'> & { kept: BoundedResult }> {
  const kept = new BoundedBytes();
  const c = await capture(ctx, command, { keep: false, onData: (chunk) => kept.push(chunk) });
  return { exitCode: c.exitCode, ...(c.signal !== undefined ? { signal: c.signal } : {}), durationMs: c.durationMs, ...(c.spoolRef ? { spoolRef: c.spoolRef } : {}), kept: kept.result() };
}

export async function capture(ctx: HandlerContext, command: string, opts: CaptureOptions = {}): Promise<Captured> {
  const chunks: Buffer[] = [];
  const keep = opts.keep ?? true;
  const spool = ctx.spool?.create(command, ctx.cwd);
  const started = performance.now();
  const r = await ctx.executor.run({
    command,
    cwd: ctx.cwd,
    env: ctx.env,
    cols: ctx.cols,
    rows: ctx.rows,
    signal: ctx.signal,
    onStart: ctx.onStart,
    onSegment: opts.onSegment,
    onData: (c) => {
      spool?.write(c);
      if (keep) chunks.push(Buffer.from(c));
      opts.onData?.(c);
    },
  });
  spool?.close({ exitCode: r.exitCode });
  return { bytes: Buffer.concat(chunks), exitCode: r.exitCode, signal: r.signal, durationMs: performance.now() - started, spoolRef: spool?.ref };
}

/** PTY output → the program's own bytes: the tty's ONLCR turned every `\n` into `\r\n`; undo exactly that. */
export function fromTerminal(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

// CSI, OSC (BEL or ST terminated), charset selection, and other two-byte escapes.
const ANSI_RE = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()*+][0-9A-Za-z]|\x1b[@-Z\\-_=>78]/g;

/**
 * Remove terminal escape sequences and nothing else (tabs, `\r`, UTF-8 kept exactly). Our own
 * small regex rather than the squasher's VT stripper: that one interprets cursor movement for
 * classification, passthrough must keep every other byte as written.
 */
export function stripEscapes(text: string): string {
  return text.includes('\x1b') ? text.replace(ANSI_RE, '') : text;
}

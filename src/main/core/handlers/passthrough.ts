/**
 * Passthrough: content the agent acts on (cat, grep, git diff, sed -n, …) comes back exactly
 * as the program wrote it — only terminal escapes are removed — with a metadata footer. Very
 * large output is cut head + tail with an exact marker naming the omitted line range and the
 * spool reference; never silently.
 */
import { capture, fromTerminal, stripEscapes } from './run.js';
import type { HandlerContext, PassthroughCut, Report, RunFacts } from './types.js';

/** Lines shown whole; beyond this the middle is cut (an agent rarely needs more at once). */
export const PASSTHROUGH_MAX_LINES = 2000;
/** Bytes shown whole (a few long lines can be as costly as many short ones). */
export const PASSTHROUGH_MAX_BYTES = 256 * 1024;
/** Share of the kept lines taken from the head when cutting; the rest from the tail. */
const HEAD_SHARE = 0.5;

export async function runPassthrough(ctx: HandlerContext, command: string): Promise<{ report: Report; facts: Omit<RunFacts, 'enrichment'>; text: string }> {
  const c = await capture(ctx, command);
  const text = stripEscapes(fromTerminal(c.bytes.toString('utf8')));
  return { report: passthroughReport(text), facts: c, text };
}

/** Build the report: whole output, or head + tail with an exact cut. */
export function passthroughReport(text: string, maxLines = PASSTHROUGH_MAX_LINES, maxBytes = PASSTHROUGH_MAX_BYTES): Report & { category: 'passthrough' } {
  const bytes = Buffer.byteLength(text);
  const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines <= maxLines && bytes <= maxBytes) return { category: 'passthrough', output: text, lines, bytes };
  const all = text.split('\n');
  if (text.endsWith('\n')) all.pop();
  // Fit both limits: lines first, then shrink until the kept bytes fit too.
  let keep = Math.min(maxLines, all.length - 1);
  const size = (n: number) => {
    const h = Math.ceil(n * HEAD_SHARE);
    let s = 0;
    for (let i = 0; i < h; i++) s += Buffer.byteLength(all[i]) + 1;
    for (let i = all.length - (n - h); i < all.length; i++) s += Buffer.byteLength(all[i]) + 1;
    return s;
  };
  while (keep > 2 && size(keep) > maxBytes) keep = Math.floor(keep * 0.8);
  const head = Math.ceil(keep * HEAD_SHARE);
  const tail = keep - head;
  const shownHead = all.slice(0, head);
  const shownTail = tail > 0 ? all.slice(all.length - tail) : [];
  // Omitted bytes count each omitted line with its newline: exactly what `mish raw --lines` gives back.
  let omittedBytes = 0;
  for (let i = head; i < all.length - tail; i++) omittedBytes += Buffer.byteLength(all[i]) + (i < all.length - 1 || text.endsWith('\n') ? 1 : 0);
  const cut: PassthroughCut = { fromLine: head + 1, toLine: all.length - tail, omittedLines: all.length - tail - head, omittedBytes };
  const output = shownHead.join('\n') + '\n' + CUT_PLACEHOLDER + '\n' + (shownTail.length ? shownTail.join('\n') + (text.endsWith('\n') ? '\n' : '') : '');
  return { category: 'passthrough', output, lines, bytes, cut };
}

/** Where the renderer puts the cut marker (it knows the spool reference). */
export const CUT_PLACEHOLDER = '\u0000mish-cut\u0000';

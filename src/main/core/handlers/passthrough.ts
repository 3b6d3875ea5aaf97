/**
 * Passthrough: content the agent acts on (cat, grep, git diff, sed -n, …) comes back exactly
 * as the program wrote it — only terminal escapes are removed — with a metadata footer. Very
 * large output is cut head + tail with an exact marker naming the omitted line range and the
 * spool reference; never silently. Binary output (`cat image.png`) is not text to act on: it
 * is counted, not shown (as UTF-8 it would be a screenful of replacement characters).
 */
import { undoOnlcr } from '../exec/terminal-newlines.js';
import { MAX_NAMED_MENTIONS, mentionsErrorWord } from '../squasher/dedup.js';
import type { Segment } from '../router/categorize.js';
import { renderLineOverwrites } from './line-overwrites.js';
import { listViewOf } from './list-view.js';
import { captureBounded, fromTerminal, stripEscapes } from './run.js';
import type { HandlerContext, PassthroughCut, Report, RunFacts } from './types.js';

/** Lines shown whole; beyond this the middle is cut (an agent rarely needs more at once). */
export const PASSTHROUGH_MAX_LINES = 2000;
/** Bytes shown whole (a few long lines can be as costly as many short ones). */
export const PASSTHROUGH_MAX_BYTES = 256 * 1024;
/** Share of the kept lines taken from the head when cutting; the rest from the tail. */
const HEAD_SHARE = 0.5;

export async function runPassthrough(ctx: HandlerContext, command: string, segments: readonly Segment[] = []): Promise<{ report: Report; facts: Omit<RunFacts, 'enrichment'>; text: string }> {
  const { kept, ...facts } = await captureBounded(ctx, command);
  if ('whole' in kept) {
    const terminal = fromTerminal(kept.whole.toString('utf8'));
    const printed = stripEscapes(terminal);
    // Binary output keeps its text in the report (hosts judge it themselves); renderers show a note.
    if (looksBinary(printed)) return { report: { ...passthroughReport(printed), binary: true, bytes: programBytes(kept.whole) }, facts, text: printed };
    const text = shownText(terminal);
    // A successful path listing is shown in the lossless compact path notation when that fits
    // the cap whole (list-view.ts); otherwise as printed, cut head + tail past the cap.
    // `grep -rn` matches are grouped by file the same way (exit 0: something matched).
    // `ls` in columns or blocks and `du` are compacted too (list-view.ts).
    const view = facts.exitCode !== 0 ? undefined : listViewOf(segments, text);
    if (view && countLines(view.output) <= PASSTHROUGH_MAX_LINES && Buffer.byteLength(view.output) <= PASSTHROUGH_MAX_BYTES) {
      return { report: { category: 'passthrough', output: view.output, lines: countLines(text), bytes: Buffer.byteLength(text), ...(view.kind ? { list: { entries: view.entries, kind: view.kind } } : {}) }, facts, text };
    }
    return { report: passthroughReport(text), facts, text };
  }
  // Too big to keep: memory held the first and the newest megabyte; the middle is on disk (the spool) and counted.
  const { head, tail, counts } = kept;
  const headRaw = head.subarray(0, head.lastIndexOf(10) + 1);
  const tailRaw = tail.subarray(tail.indexOf(10) + 1);
  const headTerminal = fromTerminal(headRaw.toString('utf8'));
  const tailTerminal = fromTerminal(tailRaw.toString('utf8'));
  const headPrinted = stripEscapes(headTerminal);
  const tailPrinted = stripEscapes(tailTerminal);
  const programTotal = counts.bytes - counts.crlf;
  const totalLines = counts.newlines + (counts.lastByte === 10 ? 0 : 1);
  const printed = headPrinted + tailPrinted;
  if (looksBinary(printed)) return { report: { category: 'passthrough', output: printed, lines: totalLines, bytes: programTotal, binary: true }, facts, text: printed };
  const headText = shownText(headTerminal);
  const tailText = shownText(tailTerminal);
  const text = headText + tailText;
  const headLines = countLines(headText);
  const middleLines = totalLines - headLines - countLines(tailText);
  const middleBytes = programTotal - programBytes(headRaw) - programBytes(tailRaw);
  const shown = passthroughReport(text);
  const cut: PassthroughCut = shown.cut
    ? { fromLine: shown.cut.fromLine, toLine: shown.cut.toLine + middleLines, omittedLines: shown.cut.omittedLines + middleLines, omittedBytes: shown.cut.omittedBytes + middleBytes }
    : { fromLine: headLines + 1, toLine: headLines + middleLines, omittedLines: middleLines, omittedBytes: middleBytes };
  const output = shown.cut ? shown.output : `${headText}${CUT_PLACEHOLDER}\n${tailText}`;
  return { report: { category: 'passthrough', output, lines: totalLines, bytes: programTotal, cut }, facts, text };
}

/**
 * Text (the program's newlines) → what the agent reads: each line as a terminal finally shows it
 * (no spinner frames), no escapes. Binary output is judged, and its text lines found, on the text
 * as printed instead: rendering would let random bytes (a CR, a cursor-to-column, an erase) move
 * or erase the error message among them.
 */
function shownText(terminal: string): string {
  return stripEscapes(renderLineOverwrites(terminal));
}

/** How much of the output the binary check reads: enough to judge, cheap on a huge dump. */
const BINARY_SAMPLE_CHARS = 8_192;
/**
 * Share of characters that are not text (control characters other than layout ones, DEL,
 * undecodable bytes) above which output is binary: random or compressed bytes score ~50%, a
 * Latin-1 text read as UTF-8 a few percent (its accented letters).
 */
const BINARY_SHARE = 0.1;
/** Fewer non-text characters than this are stray bytes in text (a NUL in a log), never "binary". */
const BINARY_MIN_CHARS = 8;
// Below space except \t \n \v \f \r \b (layout), DEL, U+FFFD (what invalid UTF-8 decodes to).
const NOT_TEXT = /[\x00-\x07\x0e-\x1f\x7f\ufffd]/g;

/** Is decoded output mostly not text (`cat image.png`, an executable, an archive)? */
function looksBinary(text: string): boolean {
  const sample = text.slice(0, BINARY_SAMPLE_CHARS);
  const odd = sample.match(NOT_TEXT)?.length ?? 0;
  return odd >= BINARY_MIN_CHARS && odd / sample.length > BINARY_SHARE;
}

/** Lines this long without a single non-text character are text, even amid binary output (random bytes have one every few characters). */
const TEXT_LINE_MIN_CHARS = 10;
/** Text lines shown from binary output of a failed command (its error message). */
const TEXT_LINES_SHOWN = 5;

/**
 * The text among binary output (`cat app.bin missing.txt`: cat's error), the last few lines:
 * of each line, what follows its last non-text character (the bytes before an error message
 * need not end with a newline), when that is a phrase (a space in it) of some length.
 */
export function textLinesOf(output: string): string[] {
  const tails = output.split('\n').map((l) => l.split(NOT_TEXT_RUN).pop()!.trimEnd());
  return tails.filter((t) => t.trim().length >= TEXT_LINE_MIN_CHARS && /\S\s+\S/.test(t)).slice(-TEXT_LINES_SHOWN);
}

/** A run of NOT_TEXT characters (the same class). */
const NOT_TEXT_RUN = new RegExp(`${NOT_TEXT.source}+`);

/** The program's byte count: what the PTY delivered with its ONLCR (`\n` → `\r\n`) undone. */
function programBytes(bytes: Buffer): number {
  return undoOnlcr(bytes).length;
}

function countLines(text: string): number {
  return text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Build the report: whole output, or head + tail with an exact cut. */
export function passthroughReport(text: string, maxLines = PASSTHROUGH_MAX_LINES, maxBytes = PASSTHROUGH_MAX_BYTES): Report & { category: 'passthrough' } {
  const bytes = Buffer.byteLength(text);
  const lines = countLines(text);
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
  // The cut names the lines in it that mention an error word (issue 13 pt 3): `cat app.log`
  // cut in the middle must not hide its one ERROR line without a trace.
  let mentionCount = 0;
  const mentions: number[] = [];
  for (let i = head; i < all.length - tail; i++) {
    if (!mentionsErrorWord(all[i])) continue;
    mentionCount++;
    if (mentions.length < MAX_NAMED_MENTIONS) mentions.push(i + 1);
  }
  if (mentionCount) Object.assign(cut, { mentions, mentionCount });
  const output = shownHead.join('\n') + '\n' + CUT_PLACEHOLDER + '\n' + (shownTail.length ? shownTail.join('\n') + (text.endsWith('\n') ? '\n' : '') : '');
  return { category: 'passthrough', output, lines, bytes, cut };
}

/** Where the renderer puts the cut marker (it knows the spool reference). */
export const CUT_PLACEHOLDER = '\u0000mish-cut\u0000';

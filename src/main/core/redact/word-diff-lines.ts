/**
 * `git diff --word-diff`'s lines, read as the two files had them: `add password core-* [-{old} {old2}-]{+{new} {new2}+}` is
 * `add password core-* {old} {old2}` before and `add password core-* {new} {new2}` after. A rule anchored at a line's start or
 * reading a line's words in order (clogin's `add password`, a FortiGate's `set psksecret`) then sees the file's own line; the
 * markers broke it (adv246 F4: a rotated `.cloginrc`, four passwords shown).
 *
 * Cost: run on a diff only (the scanner's `--- a/` / `+++ b/` gate), on the lines that hold a marker, each scanned twice.
 */
import type { SecretFinding } from './finding.js';

/** Marked lines read at most (a diff of a million changed words is read in its first part only: a bound on the cost). */
const MAX_LINES = 20_000;
/** A marked line longer than this is not read (a minified file's one line: its words are the scanner's on the text itself). */
const MAX_LINE = 64 * 1024;
/** Characters of marked lines read in all, at most (each costs an offset on each side). */
const MAX_CHARS = 2 * 1024 * 1024;

/** The findings of `scan` on the old and the new text of `text`'s word-diff lines, at their places in `text`. */
export function wordDiffFindings(text: string, out: SecretFinding[], scan: (t: string) => SecretFinding[]): void {
  const starts = new Set<number>();
  for (const [mark, close] of [['[-', '-]'], ['{+', '+}']]) {
    for (let i = text.indexOf(mark); i >= 0 && starts.size < MAX_LINES; ) {
      const nl = text.indexOf('\n', i);
      // A line with a whole marker only (a compiler's `[-Wunused]` opens one and closes none).
      const c = text.indexOf(close, i + 2);
      if (c >= 0 && (nl < 0 || c < nl)) starts.add(text.lastIndexOf('\n', i) + 1);
      if (nl < 0) break;
      i = text.indexOf(mark, nl + 1);
    }
  }
  if (starts.size === 0) return;
  const sides = [new View(), new View()];
  let read = 0;
  for (const s of [...starts].sort((a, b) => a - b)) {
    let end = text.indexOf('\n', s);
    if (end < 0) end = text.length;
    if (end - s > MAX_LINE) continue;
    read += end - s;
    if (read > MAX_CHARS) break;
    readLine(text, s, end, sides[0], sides[1]);
  }
  for (const side of sides) side.scanInto(scan, out);
}

/** One side's text: its characters, and for each the offset in the diff it came from. */
class View {
  private readonly parts: string[] = [];
  private readonly at: number[] = [];
  private length = 0;

  /** text[from, to) as is. */
  copy(text: string, from: number, to: number): void {
    if (to <= from) return;
    this.parts.push(text.slice(from, to));
    for (let i = from; i < to; i++) this.at.push(i);
    this.length += to - from;
  }

  /** A line's end (offset `at`: the diff's own newline, or its end). */
  endLine(at: number): void {
    this.parts.push('\n');
    this.at.push(at);
    this.length++;
  }

  /** `scan`'s findings on the view, each given back as the runs of the diff's characters it covers (markers between stay). */
  scanInto(scan: (t: string) => SecretFinding[], out: SecretFinding[]): void {
    if (this.length === 0) return;
    for (const f of scan(this.parts.join(''))) {
      let runStart = -1;
      for (let v = f.start; v <= f.end; v++) {
        const here = v < f.end ? this.at[v] : -1;
        if (runStart >= 0 && (here < 0 || here !== this.at[v - 1] + 1)) {
          out.push({ ...f, start: this.at[runStart], end: this.at[v - 1] + 1 });
          runStart = -1;
        }
        if (here >= 0 && runStart < 0) runStart = v;
      }
    }
  }
}

/** A word-diff line `text[from, to)` into the old side (its `[-…-]` kept, `{+…+}` left out) and the new side (the other way). */
function readLine(text: string, from: number, to: number, old: View, neu: View): void {
  let plain = from;
  let i = from;
  while (i < to) {
    const removed = text.startsWith('[-', i);
    if (!removed && !text.startsWith('{+', i)) {
      i++;
      continue;
    }
    const close = text.indexOf(removed ? '-]' : '+}', i + 2);
    if (close < 0 || close >= to) break;
    old.copy(text, plain, i);
    neu.copy(text, plain, i);
    (removed ? old : neu).copy(text, i + 2, close);
    i = plain = close + 2;
  }
  old.copy(text, plain, to);
  neu.copy(text, plain, to);
  old.endLine(to);
  neu.endLine(to);
}

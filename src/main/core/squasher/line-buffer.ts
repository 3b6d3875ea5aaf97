/**
 * Line buffer (seed: "Stage 2"): assembles stripped text into logical lines.
 *  - `\n` (or `\r\n`) completes a line;
 *  - `\r` followed by more text overwrites in place: only the final state of the line counts
 *    and the line is reported as `overwrite` (progress bars, spinners collapse in one rule);
 *  - a line redrawn after a cursor-up (multi-line progress displays) is `overwrite` too;
 *  - text with no terminator is a *provisional* partial line: `peekPartial()` lets the caller
 *    report it after a silence (a prompt), but it stays buffered, so the final lines never
 *    depend on timing (deterministic counts).
 */
import { ColorHint, type Line } from './types.js';
import { HAZARD_KEYWORDS } from './universal-patterns.js';
import { CURSOR_UP_MARK, RED_MARK, YELLOW_MARK } from './vt-stripper.js';

/** A line longer than this is split: bounds memory on output with no newlines at all (1 GB of `yes | tr -d '\n'`). */
export const MAX_LINE_CHARS = 64 * 1024;

const MARKS = /[\x01-\x03]/g;

export class LineBuffer {
  private carry = '';
  private completeCount = 0;
  private redrawRemaining = 0;

  constructor(private readonly onLine: (line: Line) => void) {}

  /** Number of complete lines so far. */
  get lines(): number {
    return this.completeCount;
  }

  ingest(text: string): void {
    const hasMarks = text.indexOf(RED_MARK) >= 0 || text.indexOf(YELLOW_MARK) >= 0 || text.indexOf(CURSOR_UP_MARK) >= 0 || (this.carry.length > 0 && MARKS.test(this.carry));
    MARKS.lastIndex = 0;
    // Offsets of hazard keywords in this chunk, found in one scan.
    const hits: number[] = [];
    HAZARD_KEYWORDS.lastIndex = 0;
    for (let m = HAZARD_KEYWORDS.exec(text); m; m = HAZARD_KEYWORDS.exec(text)) hits.push(m.index);
    let hit = 0;
    let pos = 0;
    const n = text.length;
    while (pos < n) {
      const nl = text.indexOf('\n', pos);
      if (nl < 0) {
        this.carry += text.slice(pos);
        if (this.carry.length > MAX_LINE_CHARS) {
          const whole = this.carry;
          this.carry = '';
          this.emit(whole, true, hasKeyword(whole), false);
        }
        return;
      }
      while (hit < hits.length && hits[hit] < pos) hit++;
      let hot = hit < hits.length && hits[hit] < nl;
      let raw: string;
      if (this.carry.length) {
        raw = this.carry + text.slice(pos, nl);
        hot = hasKeyword(raw);
      } else raw = text.slice(pos, nl);
      this.carry = '';
      pos = nl + 1;
      if (raw.length > MAX_LINE_CHARS) raw = raw.slice(0, MAX_LINE_CHARS);
      this.emit(raw, hasMarks, hot, true);
    }
  }

  /** Flush a trailing unterminated line as complete (at exit). */
  end(): void {
    if (this.carry.length) {
      const raw = this.carry;
      this.carry = '';
      this.emit(raw, true, hasKeyword(raw), false);
    }
  }

  /** The buffered unterminated text (prompt candidate), marks removed; '' if none. */
  peekPartial(): string {
    if (!this.carry) return '';
    const { text } = finalState(this.carry, true, false);
    return text;
  }

  private emit(raw: string, mayHaveMarks: boolean, hot: boolean, newlineTerminated: boolean): void {
    const { text, color, overwritten, redraws } = finalState(raw, mayHaveMarks, newlineTerminated);
    this.completeCount++;
    let kind: Line['kind'] = overwritten ? 'overwrite' : 'complete';
    if (redraws > 0) this.redrawRemaining = Math.max(this.redrawRemaining, redraws);
    if (this.redrawRemaining > 0) {
      kind = 'overwrite';
      this.redrawRemaining--;
    }
    this.onLine({ kind, text, color, hot, no: this.completeCount });
  }
}

function hasKeyword(s: string): boolean {
  HAZARD_KEYWORDS.lastIndex = 0;
  return HAZARD_KEYWORDS.test(s);
}

interface FinalState {
  text: string;
  color: number;
  overwritten: boolean;
  redraws: number;
}

/** The visible final state of one raw line: last `\r` frame, backspaces applied, marks read. */
function finalState(raw: string, mayHaveMarks: boolean, newlineTerminated: boolean): FinalState {
  let s = raw;
  // PTYs translate \n to \r\n: that one \r is the line ending, not an overwrite.
  if (newlineTerminated && s.length && s.charCodeAt(s.length - 1) === 13) s = s.slice(0, -1);
  let color: number = ColorHint.None;
  let redraws = 0;
  if (mayHaveMarks) {
    if (s.indexOf(RED_MARK) >= 0) color |= ColorHint.Red;
    if (s.indexOf(YELLOW_MARK) >= 0) color |= ColorHint.Yellow;
    for (let i = s.indexOf(CURSOR_UP_MARK); i >= 0; i = s.indexOf(CURSOR_UP_MARK, i + 1)) redraws++;
    if (color || redraws) s = s.replace(MARKS, '');
  }
  let overwritten = false;
  const cr = s.lastIndexOf('\r');
  if (cr >= 0) {
    // Final state: the last frame. Text printed after a progress frame (`50%\rerror: x`) is
    // that last frame, so it is never lost; a line that ends in `\r` was returned to and
    // cleared by its tool (a spinner erasing itself), so its final state is empty.
    const frames = s.split('\r');
    overwritten = frames.length > 1;
    s = frames[frames.length - 1];
  }
  if (s.indexOf('\b') >= 0) s = applyBackspaces(s);
  return { text: s, color, overwritten, redraws };
}

function applyBackspaces(s: string): string {
  const out: string[] = [];
  for (const ch of s) {
    if (ch === '\b') out.pop();
    else out.push(ch);
  }
  return out.join('');
}

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
import { CURSOR_UP_MARK, RED_MARK, YELLOW_MARK } from './vt-stripper.js';

/** A line longer than this is split: bounds memory on output with no newlines at all (1 GB of `yes | tr -d '\n'`). */
export const MAX_LINE_CHARS = 64 * 1024;

const MARKS = /[\x01-\x03]/g;

export class LineBuffer {
  private carry = '';
  private completeCount = 0;
  private redrawRemaining = 0;
  // Final state of the line being emitted (fields rather than a returned object: one per line adds up).
  private fsText = '';
  private fsColor = 0;
  private fsOverwritten = false;
  private fsRedraws = 0;

  constructor(private readonly onLine: (line: Line) => void) {}

  /** Number of complete lines so far. */
  get lines(): number {
    return this.completeCount;
  }

  ingest(text: string): void {
    const hasMarks = text.indexOf(RED_MARK) >= 0 || text.indexOf(YELLOW_MARK) >= 0 || text.indexOf(CURSOR_UP_MARK) >= 0 || (this.carry.length > 0 && hasMark(this.carry));
    let pos = 0;
    const n = text.length;
    while (pos < n) {
      const nl = text.indexOf('\n', pos);
      if (nl < 0) {
        this.carry += pos === 0 ? text : text.slice(pos);
        if (this.carry.length > MAX_LINE_CHARS) {
          const whole = this.carry;
          this.carry = '';
          this.emit(whole, true, false);
        }
        return;
      }
      let raw = text.slice(pos, nl);
      if (this.carry.length) {
        raw = this.carry + raw;
        this.carry = '';
      }
      pos = nl + 1;
      if (raw.length > MAX_LINE_CHARS) raw = raw.slice(0, MAX_LINE_CHARS);
      this.emit(raw, hasMarks, true);
    }
  }

  /** Flush a trailing unterminated line as complete (at exit). */
  end(): void {
    if (this.carry.length) {
      const raw = this.carry;
      this.carry = '';
      this.emit(raw, true, false);
    }
  }

  /** The buffered unterminated text (prompt candidate), marks removed; '' if none. */
  peekPartial(): string {
    if (!this.carry) return '';
    this.finalState(this.carry, true, false);
    return this.fsText;
  }

  private emit(raw: string, mayHaveMarks: boolean, newlineTerminated: boolean): void {
    this.finalState(raw, mayHaveMarks, newlineTerminated);
    this.completeCount++;
    let kind: Line['kind'] = this.fsOverwritten ? 'overwrite' : 'complete';
    const redraws = this.fsRedraws;
    if (redraws > 0) this.redrawRemaining = Math.max(this.redrawRemaining, redraws);
    if (this.redrawRemaining > 0) {
      kind = 'overwrite';
      this.redrawRemaining--;
    }
    this.onLine({ kind, text: this.fsText, color: this.fsColor, no: this.completeCount });
  }

  /** The visible final state of one raw line: last `\r` frame, backspaces applied, marks read. */
  private finalState(raw: string, mayHaveMarks: boolean, newlineTerminated: boolean): void {
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
    // Final state: the last frame. Text printed after a progress frame (`50%\rerror: x`) is
    // that last frame, so it is never lost; a line that ends in `\r` was returned to and
    // cleared by its tool (a spinner erasing itself), so its final state is empty.
    const cr = s.lastIndexOf('\r');
    if (cr >= 0) s = s.slice(cr + 1);
    if (s.indexOf('\b') >= 0) s = applyBackspaces(s);
    this.fsText = s;
    this.fsColor = color;
    this.fsOverwritten = cr >= 0;
    this.fsRedraws = redraws;
  }
}

function hasMark(s: string): boolean {
  return s.indexOf(RED_MARK) >= 0 || s.indexOf(YELLOW_MARK) >= 0 || s.indexOf(CURSOR_UP_MARK) >= 0;
}

function applyBackspaces(s: string): string {
  const out: string[] = [];
  for (const ch of s) {
    if (ch === '\b') out.pop();
    else out.push(ch);
  }
  return out.join('');
}

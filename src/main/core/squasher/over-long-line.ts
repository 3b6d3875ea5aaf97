/**
 * An over-long line: no newline for more than the line buffer's MAX_LINE_CHARS (minified code, a
 * JSON record, base64, `yes | tr -d '\n'`, a progress bar redrawn with CR for minutes). The line
 * buffer must not hold it whole (memory stays flat on 1 GB without a newline), and it is still
 * one line (the line count matches the raw output's). What is kept is what would be shown of its
 * final state (line-cut.ts): the first SHOWN_HEAD_CHARS and the last SHOWN_TAIL_CHARS characters
 * of the text after its last CR, an exact count of what lies between, and what the dropped text
 * changes about the line: its colour hints, its cursor movement, whether a frame was drawn over.
 *
 * The line is then classified on head + marker + tail, the very text that is shown: an error at
 * the end of a 500 KB line is found, and shown with its message; a word in the dropped middle is
 * not looked at (the raw output has it).
 *
 * The result does not depend on where the chunks were cut: the head is the frame's first
 * characters, the tail its last, the count the rest, whenever the squeezes happened.
 */
import { codeUnitBoundary, cutMarker, SHOWN_HEAD_CHARS, SHOWN_TAIL_CHARS } from './line-cut.js';
import { MAX_REACHABLE_ROWS } from './redraw-region.js';
import { isTextFrame, textDrawnBefore } from './spinner-frame.js';
import { CURSOR_DOWN_MARK, CURSOR_UP_MARK, RED_MARK, YELLOW_MARK } from './vt-stripper.js';

const HAS_MARK = /[\x01-\x05]/;
const NOT_MARK = /[^\x01-\x05]+/g;

export class OverLongLine {
  /** Marks of the frames drawn over (before the last CR), squashed. */
  private frameMarks = '';
  /** Raw head of the current frame, once the frame is too long to keep whole. */
  private head: string | undefined;
  /** Marks of the current frame's dropped middle, squashed. */
  private middleMarks = '';
  /** Characters of the current frame dropped between head and tail (marks not counted). */
  private dropped = 0;
  private drawnOver = false;
  /** A frame drawn over held text other than a spinner's (spinner-frame.ts). */
  private drawnText = false;
  /** From the first squeeze until reset(): the line's text is frameMarks + head + … + the carry. */
  active = false;

  constructor(private readonly maxChars: number) {}

  /**
   * The line is an `overwrite` given its last frame (`finalFrame`, decoded, no CR in it): a frame
   * was drawn over and either that frame or the last one is not text written over a spinner.
   */
  overwrittenBy(finalFrame: string): boolean {
    return this.drawnOver && (this.drawnText || !isTextFrame(finalFrame, 0, finalFrame.length, false));
  }

  /**
   * Bounds `text`, the raw rest of the line (what the line buffer carries), and returns what to
   * keep carrying. `ending`: the line is complete, so its tail is cut to what is shown.
   */
  squeeze(text: string, ending: boolean): string {
    this.active = true;
    let s = text;
    // A CR with text after it returns over the frame drawn so far (a CR at the very end may be
    // the first half of the CRLF that ends the line).
    const cr = s.lastIndexOf('\r', s.length - 2);
    if (cr >= 0) {
      if (this.head !== undefined || drawnBefore(s, cr)) this.drawnOver = true;
      // A frame kept as head and tail is long: no spinner's.
      if (!this.drawnText && (this.head !== undefined || textDrawnBefore(s, 0, cr, false))) this.drawnText = true;
      this.frameMarks = squashMarks(this.frameMarks + marksOf(this.head ?? '') + this.middleMarks + marksOf(s.slice(0, cr)));
      this.head = undefined;
      this.middleMarks = '';
      this.dropped = 0;
      s = s.slice(cr + 1);
    }
    if (s.length > this.maxChars || (ending && this.head !== undefined)) {
      let from = 0;
      if (this.head === undefined) {
        from = codeUnitBoundary(s, afterVisible(s, SHOWN_HEAD_CHARS));
        this.head = s.slice(0, from);
      }
      const keep = codeUnitBoundary(s, Math.max(from, beforeVisible(s, SHOWN_TAIL_CHARS)));
      if (keep > from) {
        const gone = s.slice(from, keep);
        const marks = marksOf(gone);
        if (marks) this.middleMarks = squashMarks(this.middleMarks + marks);
        this.dropped += gone.length - marks.length;
        s = s.slice(keep);
      }
    }
    return s;
  }

  /** The bounded raw line: what was kept, then `rest` (the carry), for the line buffer's finalState. */
  compose(rest: string): string {
    if (this.head === undefined) return this.frameMarks + rest;
    return this.frameMarks + this.head + this.middleMarks + cutMarker(this.dropped) + rest;
  }

  reset(): void {
    this.frameMarks = '';
    this.head = undefined;
    this.middleMarks = '';
    this.dropped = 0;
    this.drawnOver = false;
    this.drawnText = false;
    this.active = false;
  }
}

/** Anything but CR before `cr` (the line buffer's rule for "a frame was drawn over"). */
function drawnBefore(s: string, cr: number): boolean {
  for (let k = cr - 1; k >= 0; k--) if (s.charCodeAt(k) !== 13) return true;
  return false;
}

/** Index in `s` after its first `n` characters that are not marks (marks ride along in the head). */
function afterVisible(s: string, n: number): number {
  let i = 0;
  for (let seen = 0; i < s.length && seen < n; i++) if (s.charCodeAt(i) > 4) seen++;
  return i;
}

/** Index in `s` where its last `n` characters that are not marks begin. */
function beforeVisible(s: string, n: number): number {
  let i = s.length;
  for (let seen = 0; i > 0 && seen < n; ) if (s.charCodeAt(--i) > 4) seen++;
  return i;
}

function marksOf(s: string): string {
  return HAS_MARK.test(s) ? s.replace(NOT_MARK, '') : '';
}

/**
 * Marks of dropped text in bounded form with the same effect: each colour hint once, and the
 * cursor movement as the rows it went up to, then down to where it ended (the highest row
 * reached and the net move are what the line buffer reads from them), each capped at the rows
 * a redraw can reach.
 */
function squashMarks(marks: string): string {
  if (!marks) return '';
  let out = '';
  if (marks.includes(RED_MARK)) out += RED_MARK;
  if (marks.includes(YELLOW_MARK)) out += YELLOW_MARK;
  let at = 0;
  let highest = 0;
  for (let i = 0; i < marks.length; i++) {
    const c = marks[i];
    if (c === CURSOR_UP_MARK) highest = Math.min(highest, --at);
    else if (c === CURSOR_DOWN_MARK) at++;
  }
  return out + CURSOR_UP_MARK.repeat(Math.min(-highest, MAX_REACHABLE_ROWS)) + CURSOR_DOWN_MARK.repeat(Math.min(at - highest, MAX_REACHABLE_ROWS));
}

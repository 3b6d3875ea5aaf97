/**
 * Line buffer (seed: "Stage 2"): assembles stripped text into logical lines.
 *  - `\n` (or `\r\n`) completes a line;
 *  - `\r` followed by more text overwrites in place: only the final state of the line counts
 *    and the line is reported as `overwrite` (progress bars, spinners collapse in one rule),
 *    unless it is text written over nothing but a spinner's frames (spinner-frame.ts: npm clears
 *    its spinner before each line it prints);
 *  - rows of a multi-line display that moves the cursor up to draw them again keep only their
 *    last drawing: earlier drawings are `redrawn`/`repeat` (redraw-region.ts);
 *  - text with no terminator is a *provisional* partial line: `peekPartial()` lets the caller
 *    report it after a silence (a prompt), but it stays buffered, so the final lines never
 *    depend on timing (deterministic counts);
 *  - a line longer than MAX_LINE_CHARS is still one line, kept bounded as what is shown of it
 *    (head, an exact count, tail: over-long-line.ts).
 */
import { OverLongLine } from './over-long-line.js';
import { MAX_REACHABLE_ROWS, RedrawRegion, type RowMove } from './redraw-region.js';
import { isTextFrame, textDrawnBefore } from './spinner-frame.js';
import { ColorHint, type Line } from './types.js';
import { utf8PartFromLatin1 } from './utf8-decoder.js';
import { ANY_MARK, CURSOR_DOWN_MARK, CURSOR_UP_MARK, ERASED_ROW, NEXT_LINE_MARK, RED_MARK, YELLOW_MARK, type StripNotes } from './vt-stripper.js';

/**
 * A line longer than this is not kept whole: memory stays bounded on output with no newlines at
 * all (1 GB of `yes | tr -d '\n'`). Up to this length a line is classified whole; past it, on
 * the head and tail that are shown of it (over-long-line.ts).
 */
export const MAX_LINE_CHARS = 64 * 1024;

/** No cursor movement (shared: most lines). */
const NO_MOVE: RowMove = { highest: 0, writeAt: 0, net: 0 };

export class LineBuffer {
  private carry = '';
  /** The carry may hold a mark (tracked, so a long carry is not searched again on every chunk). */
  private carryHasMark = false;
  /** State of the line being carried once it is over MAX_LINE_CHARS. */
  private readonly long = new OverLongLine(MAX_LINE_CHARS);
  private completeCount = 0;
  /** Set once the output moves the cursor up: from then on lines go through it. */
  private redraw: RedrawRegion | undefined;
  private linesSinceMove = 0;
  // Final state of the line being emitted (fields rather than a returned object: one per line adds up).
  private fsText = '';
  private fsColor = 0;
  private fsOverwritten = false;
  private fsMove: RowMove = NO_MOVE;
  /** The chunk being ingested is UTF-8 bytes: where its runs of non-ASCII bytes start (VtStripper's `highAt`), else undefined. */
  private highAt: readonly number[] | undefined;
  private highCount = 0;
  /** The first of `highAt` not yet passed. */
  private highIdx = 0;

  constructor(private readonly onLine: (line: Line) => void) {}

  /** Number of complete lines so far. */
  get lines(): number {
    return this.completeCount;
  }

  /**
   * One stripped chunk. `notes`: what the VT stripper knows of it — where its marks are, whether
   * it is UTF-8 bytes read as Latin-1 and where their non-ASCII characters are. Without them it
   * is text, searched for marks.
   */
  ingest(text: string, notes?: StripNotes): void {
    const textHasMark = notes ? notes.marked : hasMark(text);
    const markAt = notes?.markAt;
    const markCount = notes ? notes.markCount : 0;
    this.highAt = notes !== undefined && notes.utf8 && notes.highCount > 0 ? notes.highAt : undefined;
    this.highCount = notes ? notes.highCount : 0;
    this.highIdx = 0;
    const hasMarks = textHasMark || this.carryHasMark;
    let pos = 0;
    const n = text.length;
    // Where the next CR, backspace and mark are at or after `pos` (n: none), found once per
    // chunk and reused while ahead: a line without them is cut from the chunk with one slice.
    let crAt = -1;
    let bsAt = -1;
    let nextMark = textHasMark ? -1 : n;
    /** The first of `markAt` not yet passed. */
    let markIdx = 0;
    while (pos < n) {
      const nl = text.indexOf('\n', pos);
      if (nl < 0) {
        this.carry += this.part(text, pos, n);
        this.carryHasMark ||= textHasMark;
        if (this.carry.length > MAX_LINE_CHARS) this.carry = this.long.squeeze(this.carry, false);
        return;
      }
      const from = pos;
      pos = nl + 1;
      if (this.long.active || this.carry.length + (nl - from) > MAX_LINE_CHARS) {
        const part = this.part(text, from, nl);
        if (this.long.active || this.carry.length + part.length > MAX_LINE_CHARS) {
          this.carry += part;
          this.emitLong(true);
        } else {
          // Over the limit in UTF-8 bytes only: in characters, a line like any other.
          const raw = this.carry + part;
          this.carry = '';
          this.carryHasMark = false;
          this.emit(raw, true, true);
        }
        continue;
      }
      if (this.carry.length) {
        const raw = this.carry + this.part(text, from, nl);
        this.carry = '';
        this.carryHasMark = false;
        this.emit(raw, hasMarks, true);
        continue;
      }
      if (nextMark < from) {
        if (markAt) {
          // A run of marks never holds a newline, so none starts before `from` and reaches it.
          while (markIdx < markCount && markAt[markIdx] < from) markIdx++;
          nextMark = markIdx < markCount ? markAt[markIdx] : n;
        } else {
          ANY_MARK_AFTER.lastIndex = from;
          nextMark = ANY_MARK_AFTER.test(text) ? ANY_MARK_AFTER.lastIndex - 1 : n;
        }
      }
      if (nextMark < nl) {
        this.emit(this.part(text, from, nl), true, true);
        continue;
      }
      // No mark in the line: its final state read off the chunk (what finalState does). CRs at its end draw nothing.
      let end = nl;
      while (end > from && text.charCodeAt(end - 1) === 13) end--;
      if (crAt < from) crAt = indexOr(text, '\r', from, n);
      let start = from;
      let overwritten = false;
      if (crAt < end) {
        // The last CR before the line's end: the final frame starts after it.
        let cr = crAt;
        let next = indexOr(text, '\r', cr + 1, n);
        for (let k = 0; next < end; k++) {
          if (k === MAX_CR_HOPS) {
            next = text.lastIndexOf('\r', end - 1);
            cr = next;
            next = indexOr(text, '\r', end, n);
            break;
          }
          cr = next;
          next = indexOr(text, '\r', cr + 1, n);
        }
        crAt = next;
        for (let k = cr - 1; k >= from && !overwritten; k--) overwritten = text.charCodeAt(k) !== 13 && text.charCodeAt(k) !== ERASED_ROW_CODE;
        start = cr + 1;
        if (start < end && text.charCodeAt(start) === ERASED_ROW_CODE) start++; // ERASED_ROW: the row erased after the CR
        // Text written over nothing but a spinner is the program's line (spinner-frame.ts).
        if (overwritten) {
          const bytes = this.highAt !== undefined;
          overwritten = !isTextFrame(text, start, end, bytes) || textDrawnBefore(text, from, cr, bytes);
        }
      }
      if (bsAt < start) bsAt = indexOr(text, '\b', start, n);
      const shown = bsAt < end ? applyBackspaces(this.part(text, start, end)) : this.part(text, start, end);
      this.deliver(shown, ColorHint.None, overwritten, NO_MOVE);
    }
  }

  /**
   * text[from, to) as text: decoded when the chunk is UTF-8 bytes with a non-ASCII character in
   * that part (called with ascending `from`, each at a line start or after a CR: a run of
   * non-ASCII bytes holds neither, so none starts before `from` and reaches into the part).
   */
  private part(text: string, from: number, to: number): string {
    const high = this.highAt;
    if (high === undefined) return text.slice(from, to);
    let k = this.highIdx;
    while (k < this.highCount && high[k] < from) k++;
    this.highIdx = k;
    return k < this.highCount && high[k] < to ? utf8PartFromLatin1(text, from, to, high, k, this.highCount) : text.slice(from, to);
  }

  /** Flush a trailing unterminated line as complete (at exit). */
  end(): void {
    if (this.long.active) this.emitLong(false);
    else if (this.carry.length) {
      const raw = this.carry;
      this.carry = '';
      this.carryHasMark = false;
      this.emit(raw, true, false);
    }
    this.redraw?.settle();
  }

  /** The carried over-long line is complete: one line, in the bounded form that is shown of it. */
  private emitLong(newlineTerminated: boolean): void {
    let rest = this.carry;
    // The CR of the CRLF ending the line goes before the tail is cut, so the tail is all text.
    if (newlineTerminated && rest.charCodeAt(rest.length - 1) === 13) rest = rest.slice(0, -1);
    const raw = this.long.compose(this.long.squeeze(rest, true));
    const overwritten = this.long.overwrittenBy(raw);
    this.long.reset();
    this.carry = '';
    this.carryHasMark = false;
    this.emit(raw, true, false, overwritten);
  }

  /**
   * The output has been quiet: take the rows of a redrawing display as final and deliver them
   * (their errors reach the live view now rather than at exit). A redraw after this cannot take
   * back what was delivered, so the price of a late redraw is a repeated row.
   */
  settle(): void {
    this.redraw?.settle();
  }

  /** The buffered unterminated text (prompt candidate), marks removed; '' if none. */
  peekPartial(): string {
    if (!this.carry && !this.long.active) return '';
    this.finalState(this.long.active ? this.long.compose(this.carry) : this.carry, true, false);
    return this.fsText;
  }

  /** `drawnOver`: a frame of the line was drawn over before what `raw` holds (an over-long line's). */
  private emit(raw: string, mayHaveMarks: boolean, newlineTerminated: boolean, drawnOver = false): void {
    if (mayHaveMarks && raw.indexOf(NEXT_LINE_MARK) >= 0) {
      // Cursor-next-line inside the raw line: each row it ends is a screen row of its own, as if
      // a newline ended it, and keeps the raw line's number (`mish raw --lines` counts newlines).
      const rows = raw.split(NEXT_LINE_MARK);
      for (let i = 0; i < rows.length - 1; i++) {
        this.finalState(rows[i], true, false);
        this.deliver(this.fsText, this.fsColor, this.fsOverwritten || (i === 0 && drawnOver), this.fsMove, i > 0);
      }
      this.finalState(rows[rows.length - 1], true, newlineTerminated);
      this.deliver(this.fsText, this.fsColor, this.fsOverwritten, this.fsMove, true);
      return;
    }
    const draws = mayHaveMarks ? rowDrawings(raw) : undefined;
    if (draws) {
      // Several rows drawn in one raw line, the cursor moved between them (docker pull's `ESC[2A` layer row `\r ESC[2B`, once a
      // layer): each drawing is a row's line. The region takes a line's end as a newline (one row down); these end where they
      // were drawn, so each drawing after the first is read from one row higher (a cursor-up mark before it).
      for (let i = 0; i < draws.length; i++) {
        this.finalState(i === 0 ? draws[i] : CURSOR_UP_MARK + draws[i], true, newlineTerminated && i === draws.length - 1);
        this.deliver(this.fsText, this.fsColor, this.fsOverwritten || (i === 0 && drawnOver), this.fsMove, i > 0);
      }
      return;
    }
    this.finalState(raw, mayHaveMarks, newlineTerminated);
    this.deliver(this.fsText, this.fsColor, this.fsOverwritten || drawnOver, this.fsMove);
  }

  /** A complete line in its final state, to the consumer (through the redraw region while one is active). */
  /** `sameRawLine`: another screen row of the raw line just delivered (after a cursor-next-line): same number. */
  private deliver(text: string, color: number, overwritten: boolean, move: RowMove, sameRawLine = false): void {
    if (!sameRawLine) this.completeCount++;
    const line: Line = { kind: overwritten ? 'overwrite' : 'complete', text, color, no: this.completeCount };
    if (this.redraw) {
      this.redraw.add(line, move);
      // A display that stopped moving the cursor: after this many lines nothing held is within
      // reach of a redraw any more, so deliver directly again (the fast path).
      if (move !== NO_MOVE) this.linesSinceMove = 0;
      else if (++this.linesSinceMove >= MAX_REACHABLE_ROWS) {
        this.redraw.settle();
        this.redraw = undefined;
      }
    } else if (move.highest < 0) {
      this.redraw = new RedrawRegion(this.onLine);
      this.linesSinceMove = 0;
      this.redraw.add(line, move);
    } else this.onLine(line);
  }

  /** The visible final state of one raw line: last `\r` frame, backspaces applied, marks read. */
  private finalState(raw: string, mayHaveMarks: boolean, newlineTerminated: boolean): void {
    let s = raw;
    // PTYs translate \n to \r\n: that one \r is the line ending, not an overwrite.
    if (newlineTerminated && s.length && s.charCodeAt(s.length - 1) === 13) s = s.slice(0, -1);
    let color: number = ColorHint.None;
    let move = NO_MOVE;
    if (mayHaveMarks) {
      // A partial line (peekPartial) may still hold a cursor-next-line: its last row is the one the cursor is on.
      const next = s.indexOf(NEXT_LINE_MARK) < 0 ? -1 : s.lastIndexOf(NEXT_LINE_MARK);
      if (next >= 0) s = s.slice(next + 1);
      if (s.indexOf(RED_MARK) >= 0) color |= ColorHint.Red;
      if (s.indexOf(YELLOW_MARK) >= 0) color |= ColorHint.Yellow;
      if (s.indexOf(CURSOR_UP_MARK) >= 0 || s.indexOf(CURSOR_DOWN_MARK) >= 0) move = rowMove(s);
      if (color || move !== NO_MOVE) s = s.replace(ANY_MARK, '');
    }
    // Final state: the last frame. Text printed after a progress frame (`50%\rerror: x`) is
    // that last frame, so it is never lost. Carriage returns at the line's end draw nothing, so
    // the frame before them stays, as a terminal shows it: a program's own `\r\n` reaches the PTY
    // as `\r\r\n` (curl -i's headers, PowerShell, Windows tools: their lines were all lost). A
    // spinner that clears itself does so with an erase (`\r\x1b[K`: ERASED_ROW after the CR, read below).
    // indexOf first: V8's lastIndexOf is a runtime call that walks the whole line back to front
    // (7–13% of squashing the large fixtures), indexOf a native scan, and most lines have no CR.
    let cr = s.indexOf('\r') < 0 ? -1 : s.lastIndexOf('\r');
    if (cr >= 0 && cr === s.length - 1) {
      let end = cr;
      while (end > 0 && s.charCodeAt(end - 1) === 13) end--;
      s = s.slice(0, end);
      cr = end > 0 ? s.lastIndexOf('\r') : -1;
    }
    // Carriage returns with nothing drawn before them (`\r\x1b[K` before a line, a redraw that
    // starts at column 0) overwrite nothing.
    let overwritten = false;
    if (cr >= 0) {
      for (let k = cr - 1; k >= 0 && !overwritten; k--) overwritten = s.charCodeAt(k) !== 13 && s.charCodeAt(k) !== ERASED_ROW_CODE;
      // A line written over nothing but a spinner's frames is the program's line, not progress (spinner-frame.ts).
      if (overwritten) overwritten = !isTextFrame(s, cr + 1, s.length, false) || textDrawnBefore(s, 0, cr, false);
      s = s.slice(cr + 1);
      // The row erased right after that CR (ERASED_ROW: a spinner clearing itself) is blank where nothing follows.
      if (s.charCodeAt(0) === ERASED_ROW_CODE) s = s.slice(1);
    }
    if (s.indexOf('\b') >= 0) s = applyBackspaces(s);
    this.fsText = s;
    this.fsColor = color;
    this.fsOverwritten = overwritten;
    this.fsMove = move;
  }
}

/** ERASED_ROW's code: it stands right after a CR, so at the start of the frame after it. */
const ERASED_ROW_CODE = ERASED_ROW.charCodeAt(0);
/** A private mark, searched for from `lastIndex`. */
const ANY_MARK_AFTER = /[\x01-\x05]/g;
/** CRs looked for one by one (indexOf, a fast builtin) before asking lastIndexOf (a slower runtime call) for the last. */
const MAX_CR_HOPS = 8;

/** `text.indexOf(ch, from)`, or `none` when absent. */
function indexOr(text: string, ch: string, from: number, none: number): number {
  const at = text.indexOf(ch, from);
  return at < 0 ? none : at;
}

function hasMark(s: string): boolean {
  return s.indexOf(RED_MARK) >= 0 || s.indexOf(YELLOW_MARK) >= 0 || s.indexOf(CURSOR_UP_MARK) >= 0 || s.indexOf(CURSOR_DOWN_MARK) >= 0 || s.indexOf(NEXT_LINE_MARK) >= 0;
}

/**
 * The rows a line's cursor marks moved: the highest reached, the row its final text (after the
 * last CR) was drawn on, and where it ended — `\x1b[2A<===> 50%\x1b[1B` draws two rows up and
 * ends one row up.
 */
function rowMove(s: string): RowMove {
  let at = 0;
  let highest = 0;
  let writeAt = 0;
  let drawn = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 3) highest = Math.min(highest, --at);
    else if (c === 4) at++;
    else if (c === 13) drawn = false;
    else if (!drawn && c > 4) {
      drawn = true;
      writeAt = at;
    }
  }
  return { highest, writeAt: drawn ? writeAt : at, net: at };
}

/**
 * A raw line cut where the cursor moved (up or down) between two drawings, when it holds more than one; undefined for a line
 * that draws once (the common redraw: `ESC[2A` then a row; a bar then `ESC[1B`). Moves after the last drawing stay with it.
 */
function rowDrawings(raw: string): string[] | undefined {
  if (raw.indexOf(CURSOR_UP_MARK) < 0 && raw.indexOf(CURSOR_DOWN_MARK) < 0) return undefined;
  let out: string[] | undefined;
  let start = 0;
  let drawn = false;
  /** The first move after the segment's drawing: where the segment ends if text is drawn again. */
  let moveAt = -1;
  /** A carriage return since the last drawn character: the next drawing starts a row at its start, not the same row's next column. */
  let returned = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 3 || c === 4) {
      if (drawn && moveAt < 0) moveAt = i;
    } else if (c === 13) returned = true;
    else if (c >= 0x20 || c === 9) {
      // Up and back down to the same column (`abc ESC[1A ESC[1B def`) goes on drawing the row: only a return starts another.
      if (moveAt >= 0 && returned) {
        (out ??= []).push(raw.slice(start, moveAt));
        start = moveAt;
      }
      moveAt = -1;
      returned = false;
      drawn = true;
    }
  }
  if (out === undefined) return undefined;
  out.push(raw.slice(start));
  return out;
}

function applyBackspaces(s: string): string {
  const out: string[] = [];
  for (const ch of s) {
    if (ch === '\b') out.pop();
    else out.push(ch);
  }
  return out.join('');
}

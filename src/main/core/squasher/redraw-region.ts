/**
 * Multi-line progress displays (BuildKit's `[+] Building` frame, jest's and vitest's live
 * status, pnpm's progress) move the cursor up and draw rows again. Only a row's last drawing is
 * on the final screen, so only that one is a `complete` line; earlier drawings of the row are
 * `redrawn` (or `repeat` when the row was drawn again unchanged: the first drawing stands for
 * it). A row's last drawing is known only once no redraw can reach it, so lines are held, in
 * order, while their row is within reach: below the highest row the latest redraw went up to,
 * and at most MAX_REACHABLE_ROWS rows above the cursor. Output that never moves the cursor up
 * does not come here: the line buffer delivers it directly until the first cursor-up, so a
 * display's first frame, drawn before it, cannot be taken back (nor can rows delivered after
 * the output went quiet). Erase-line is not tracked: a row cleared and never drawn over again
 * keeps its last text.
 */
import type { Line } from './types.js';

/**
 * Rows above the cursor a redraw may still reach. The VT stripper caps one cursor-up at 64
 * rows (vt-stripper MAX_REDRAW_LINES); a display taller than a terminal is not redrawn in place.
 */
export const MAX_REACHABLE_ROWS = 64;
/**
 * Held lines behind the oldest row still within reach (dead drawings of the rows below it).
 * Past this the oldest row is taken as final, so memory stays flat on a display that redraws
 * one row a million times under a row that never changes.
 */
export const MAX_HELD_LINES = 1024;

const LIVE = 0;
const SETTLED = 1;

interface Held {
  /** Undefined for a stand-in: a row above the rows held (delivered already, or never seen). */
  line: Line | undefined;
  /** LIVE while its row may still be drawn over; SETTLED once final or dead (deliverable). */
  state: number;
  delivered: boolean;
}

/** Cursor movement within one line, in rows relative to where it started (down positive). */
export interface RowMove {
  /** The highest row reached (0 or negative). */
  highest: number;
  /** The row the line's final text was drawn on. */
  writeAt: number;
  /** The row the line ended on (its newline moves one further down). */
  net: number;
}

export class RedrawRegion {
  /** Reachable screen rows, top first; the cursor is on `rows[cursor]` or just below the last. */
  private rows: Held[] = [];
  private cursor = 0;
  private held: Held[] = [];
  private head = 0;

  constructor(private readonly deliver: (line: Line) => void) {}

  /** A completed line, drawn after the cursor moved by `move` (zero moves for plain output). */
  add(line: Line, move: RowMove): void {
    const rows = this.rows;
    if (this.cursor + move.highest < 0) {
      // The redraw went above the rows held: stand-ins for those rows keep the geometry.
      const more = -(this.cursor + move.highest);
      for (let i = 0; i < more; i++) rows.unshift({ line: undefined, state: SETTLED, delivered: true });
      this.cursor += more;
    }
    if (move.highest < 0) {
      // The rows above the highest row this redraw went up to are out of its reach: final.
      const top = this.cursor + move.highest;
      for (let i = 0; i < top; i++) rows[i].state = SETTLED;
    }
    const row = Math.min(this.cursor + move.writeAt, rows.length);
    const h: Held = { line, state: LIVE, delivered: false };
    this.held.push(h);
    if (row < rows.length) {
      const old = rows[row];
      if (old.line && (line.text.length === 0 || line.text === old.line.text)) {
        // Only the cursor moved over the row, or it was drawn again unchanged: the row's
        // drawing so far stands, this line is a copy.
        line.kind = 'repeat';
        h.state = SETTLED;
      } else {
        if (!old.delivered && old.line) old.line.kind = 'redrawn';
        old.state = SETTLED;
        rows[row] = h;
      }
    } else rows.push(h);
    // The newline moves one row down from where the line ended.
    this.cursor = Math.min(Math.max(0, row + move.net - move.writeAt + 1), rows.length);
    while (rows.length > MAX_REACHABLE_ROWS) {
      rows.shift()!.state = SETTLED;
      this.cursor = Math.max(0, this.cursor - 1);
    }
    // Past the cap the oldest line held is taken as final (it stays on the screen rows).
    if (this.held.length - this.head > MAX_HELD_LINES) this.held[this.head].state = SETTLED;
    this.release();
  }

  /** The display is done (exit) or quiet: what is on screen is final; deliver everything held. */
  settle(): void {
    for (const r of this.rows) r.state = SETTLED;
    this.release();
  }

  private release(): void {
    const held = this.held;
    while (this.head < held.length && held[this.head].state === SETTLED) {
      const h = held[this.head++];
      h.delivered = true;
      this.deliver(h.line!);
    }
    if (this.head === held.length) {
      held.length = 0;
      this.head = 0;
    } else if (this.head > MAX_HELD_LINES) {
      held.splice(0, this.head);
      this.head = 0;
    }
  }
}

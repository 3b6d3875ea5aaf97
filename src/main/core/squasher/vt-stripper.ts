/**
 * VT/ANSI handling: removes escape sequences from decoded text while keeping what the line
 * buffer needs. Written by hand rather than with @xterm/headless because the squasher must
 * run at >= 100 MB/s and needs the byte stream (CR, LF, BS) rather than a rendered screen;
 * the state machine follows the DEC/ECMA-48 grammar that xterm.js's parser implements.
 *
 * Output alphabet: printable text, `\t`, `\n`, `\r`, `\b`, plus five private markers that
 * never occur in stripped text (all other C0 controls are removed):
 *   RED_MARK / YELLOW_MARK — the foreground turned red/yellow (a classification hint);
 *   CURSOR_UP_MARK — the cursor moved up a row: the following line(s) redraw earlier ones;
 *   CURSOR_DOWN_MARK — the cursor moved down a row (a display that moves up and down to
 *   redraw a few rows in place, like Gradle's);
 *   NEXT_LINE_MARK — cursor next line (CNL, `ESC[E`): the next row, column 1, as a newline goes,
 *   but within one raw line (the line buffer shows the rows apart under the raw line's number);
 * And ERASED_ROW, no mark (the line buffer's fast path reads it, the marks' slower path is not
 * taken for it): erase in line (EL, `ESC[K`, `ESC[2K`) right after a carriage return, the row
 * blank until more is drawn (a spinner clearing itself), which a CR alone never makes it; it
 * only ever stands right after a `\r`. An erase anywhere else is dropped.
 * Cursor-to-column-1 (CHA 1, `ESC[G`) is turned into `\r`, because tools use it exactly like
 * a carriage return to redraw progress lines. Colour sequences never look like a line
 * overwrite (a known failure mode that made compiler diagnostics vanish elsewhere).
 */

import { TextBytes } from './text-bytes.js';

export const RED_MARK = '\x01';
export const YELLOW_MARK = '\x02';
export const CURSOR_UP_MARK = '\x03';
export const CURSOR_DOWN_MARK = '\x04';
export const NEXT_LINE_MARK = '\x05';
/** An erase-in-line right after a CR (see above): never in stripped text otherwise, and no mark. */
export const ERASED_ROW = '\x06';
/** Every private mark (for removing them). */
export const ANY_MARK = /[\x01-\x05]/g;

const enum State {
  Ground,
  Escape,
  EscapeIntermediate,
  Csi,
  /** OSC, DCS, SOS, PM, APC: a string terminated by BEL or ST. */
  String,
  StringEscape,
}

/** Longest control sequence we keep buffering; longer ones are garbage and are dropped. */
const MAX_SEQUENCE_CHARS = 4096;

/** Cap on lines a single cursor-up may mark as redrawn (multi-line progress displays are short). */
const MAX_REDRAW_LINES = 64;

/**
 * Ground-state characters that end a run of kept text (ESC, C1 CSI, dropped controls). `\t \n
 * \r \b` are kept verbatim, so they do not interrupt a run. Used with `test` + `lastIndex`,
 * which finds the next one natively without allocating a match array. Written as a negated
 * class, which V8 scans about 1.5x faster; it also stops at the rest of the C1 range
 * U+0080–U+009F, which the loop keeps as text.
 */
const GROUND_SPECIAL = /[^\x08-\x0a\x0d\x20-\x7e\xa0-\uffff]/g;
/** Characters looked at one by one for the next special one before handing over to GROUND_SPECIAL. */
const SHORT_SCAN_CHARS = 24;

/**
 * GROUND_SPECIAL for UTF-8 bytes read as Latin-1 (`process` with `utf8`): the controls, and
 * every byte of a non-ASCII character (noted in `highAt`, kept as text). No C1 control is in
 * such text (Utf8Decoder's `utf8` says why), so 0x80–0x9F are continuation bytes, not controls.
 */
const GROUND_SPECIAL_BYTE = /[^\x08-\x0a\x0d\x20-\x7e]/g;

/** Characters that can end or interrupt an OSC/DCS string. */
const STRING_END = /[\x07\x1b\x9c]/g;
/** STRING_END for UTF-8 bytes: there 0x9C is a continuation byte, never U+009C (ST). */
const STRING_END_BYTE = /[\x07\x1b]/g;

/**
 * What the VT stripper knows of the text its last `process` returned, which the line buffer
 * reads instead of searching the text again.
 */
export interface StripNotes {
  /** The text may hold a private mark. */
  readonly marked: boolean;
  /** Offsets in the text where a run of marks starts, ascending: `markAt[0]` to `markAt[markCount - 1]`. */
  readonly markAt: readonly number[];
  readonly markCount: number;
  /** The text is UTF-8 bytes read as Latin-1 (`process` with `utf8`): its lines are decoded where they hold a non-ASCII character. */
  readonly utf8: boolean;
  /** With `utf8`: offsets where a run of non-ASCII bytes (whole characters) starts, ascending. */
  readonly highAt: readonly number[];
  readonly highCount: number;
}

export class VtStripper implements StripNotes {
  private state = State.Ground;
  /** The last character put out (in an earlier chunk) was a CR: an erase-in-line at a chunk's start follows it. */
  private afterCR = false;
  /** Scans a chunk given as bytes too. */
  private readonly scan = new TextBytes();
  /** CSI parameter characters carried over from the previous chunk(s). */
  private params = '';
  /**
   * The text the last `process` returned may hold a private mark (only the stripper writes
   * them: the controls they stand for are dropped from the input). The line buffer reads this
   * instead of searching every chunk for four characters (four scans of each chunk).
   */
  marked = false;
  /**
   * Where the marks of the last `process` are: the offset in the returned text of each run of
   * marks written at once, ascending, `markAt[0]` to `markAt[markCount - 1]` (reused). The line
   * buffer walks them instead of searching the text for the next mark (a RegExp scan of every
   * marked chunk was 7% of squashing a large cargo build).
   */
  readonly markAt: number[] = [];
  markCount = 0;
  /** The last `process` was given UTF-8 bytes read as Latin-1 and returned such bytes. */
  utf8 = false;
  /**
   * With `utf8`: where the runs of non-ASCII bytes of the returned text start, ascending,
   * `highAt[0]` to `highAt[highCount - 1]` (reused): the line buffer decodes the lines that
   * hold one, and only those.
   */
  readonly highAt: number[] = [];
  highCount = 0;

  /**
   * Strip one decoded chunk. Sequences split across chunks are handled.
   * With `utf8`, `text` is UTF-8 bytes read as Latin-1 with no C1 control (a Utf8Decoder piece
   * with `utf8` set) and so is the result; null when a non-ASCII character sits inside an escape
   * sequence (where decoded text counts characters, not bytes): nothing was changed, and the
   * chunk is to be given again, decoded.
   */
  process(text: string): string;
  process(text: string, utf8: boolean, bytes?: Uint8Array): string | null;
  process(text: string, utf8 = false, bytes?: Uint8Array): string | null {
    // `bytes`: the chunk's bytes, of which `text` is the Latin-1 reading (ASCII, or UTF-8 with `utf8`): scanned as words.
    if (bytes !== undefined) this.scan.reset(bytes);
    this.marked = false;
    this.markCount = 0;
    this.utf8 = utf8;
    this.highCount = 0;
    const state0 = this.state;
    const params0 = this.params;
    let out = '';
    /** The last character put out is a CR (read here, not off `out`: reading a string built by `+=` flattens it). */
    let afterCR = this.afterCR;
    /**
     * An erase-in-line after a CR, not put out yet: text drawn next makes it moot (npm redraws its spinner with `⠙\x1b[1G\x1b[0K`
     * then the next line's colours and text: 11,000 times in a large install), a line break or a cursor move does not.
     */
    let erase = false;
    const n = text.length;
    /** Start of the CSI parameters within `text` (those before it are in `this.params`). */
    let paramStart = 0;
    let i = 0;
    while (i < n) {
      const state = this.state;
      if (state === State.Ground) {
        // The next special character: a short look first (escape-dense output has a colour
        // every few characters, where a native call costs more than the look), then one native
        // scan. No scan of the whole chunk first: that was a tenth of the squasher's time.
        let next = i;
        if (bytes !== undefined) next = this.nextSpecialByte(text, i, out.length, utf8);
        else if (utf8) next = this.nextControlByte(text, i, out.length);
        else {
          const stop = Math.min(n, i + SHORT_SCAN_CHARS);
          for (; next < stop; next++) {
            const c = text.charCodeAt(next);
            if (c < 0x20 ? c < 0x08 || (c > 0x0a && c !== 0x0d) : c >= 0x7f && c < 0xa0) break;
          }
          if (next === stop) {
            if (stop === n) next = -1;
            else {
              GROUND_SPECIAL.lastIndex = stop;
              next = GROUND_SPECIAL.test(text) ? GROUND_SPECIAL.lastIndex - 1 : -1;
            }
          }
        }
        if (next < 0) {
          if (erase) {
            erase = false;
            if (drawsNothing(text.charCodeAt(i))) out += ERASED_ROW;
          }
          out += i === 0 ? text : text.slice(i);
          afterCR = text.charCodeAt(n - 1) === 13;
          break;
        }
        if (next > i) {
          if (erase) {
            erase = false;
            if (drawsNothing(text.charCodeAt(i))) out += ERASED_ROW;
          }
          out += text.slice(i, next);
          afterCR = text.charCodeAt(next - 1) === 13;
        }
        const c = text.charCodeAt(next);
        i = next + 1;
        if (c === 0x1b && i < n && text.charCodeAt(i) === 0x5b /* [ */) {
          // Fast path: a whole CSI sequence inside this chunk (colours, erase-line: nearly all).
          let j = i + 1;
          let f = 0;
          while (j < n && (f = text.charCodeAt(j)) >= 0x20 && f <= 0x3f) j++;
          if (j < n && f >= 0x40 && f <= 0x7e && j - (i + 1) < MAX_SEQUENCE_CHARS) {
            // Erase-in-line read in place (gcc follows every colour with `\x1b[K`: a slice each cost ~20% of squashing make's output).
            const mark = f === 0x6d ? (j - i <= 3 ? shortSgrMark(text, i + 1, j) : sgrMark(text, i + 1, j)) : f === 0x4b ? eraseInLine(text, i + 1, j) : f === 0x47 || f === 0x41 || f === 0x46 || f === 0x42 || f === 0x45 ? finishCsi(f, text.slice(i + 1, j)) : '';
            if (mark === ERASED_ROW) erase ||= afterCR;
            else if (mark) {
              const colour = mark === RED_MARK || mark === YELLOW_MARK;
              if (erase && !colour) {
                out += ERASED_ROW;
                erase = false;
              }
              if (mark !== '\r') this.noteMark(out.length); // CHA 1 is a CR, not a mark
              out += mark;
              // A colour between the CR and the erase draws nothing (`\r\x1b[0;31m\x1b[K`); a cursor move leaves the row.
              afterCR = mark === '\r' || (afterCR && colour);
            }
            i = j + 1;
            continue;
          }
        }
        if (c === 0x1b) this.state = State.Escape;
        else if (c >= 0x80 && c !== 0x9b) {
          out += text[next]; // other C1 range: printable here
          afterCR = false;
          erase = false;
        }
        else if (c === 0x9b) {
          this.state = State.Csi;
          this.params = '';
          paramStart = i;
        }
        // other C0 controls (BEL, NUL, …) and DEL are dropped
        continue;
      }
      if (state === State.String) {
        const stringEnd = utf8 ? STRING_END_BYTE : STRING_END;
        stringEnd.lastIndex = i;
        if (!stringEnd.test(text)) break; // the whole rest is inside the string
        const end = stringEnd.lastIndex - 1;
        const c = text.charCodeAt(end);
        this.state = c === 0x1b ? State.StringEscape : State.Ground;
        i = end + 1;
        continue;
      }
      const c = text.charCodeAt(i);
      if (c >= 0x80 && utf8) {
        // A character inside an escape sequence: one there as decoded text, several bytes here.
        this.state = state0;
        this.params = params0;
        this.marked = false;
        this.markCount = 0;
        this.highCount = 0;
        return null;
      }
      switch (state) {
        case State.Escape:
          if (c === 0x5b /* [ */) {
            this.state = State.Csi;
            this.params = '';
            paramStart = i + 1;
          } else if (c === 0x5d /* ] */ || c === 0x50 /* P */ || c === 0x58 /* X */ || c === 0x5e /* ^ */ || c === 0x5f /* _ */) {
            this.state = State.String;
          } else if (c >= 0x20 && c <= 0x2f) this.state = State.EscapeIntermediate; // ESC ( B, ESC # 8 …
          else if (c === 0x1b) this.state = State.Escape;
          else this.state = State.Ground; // two-char escape (ESC 7, ESC M, ESC =, …): drop
          break;
        case State.EscapeIntermediate:
          if (!(c >= 0x20 && c <= 0x2f)) this.state = State.Ground;
          break;
        case State.Csi:
          if (c >= 0x40 && c <= 0x7e) {
            const p = this.params.length ? this.params + text.slice(paramStart, i) : i === paramStart ? '' : text.slice(paramStart, i);
            this.params = '';
            const mark = finishCsi(c, p);
            if (mark === ERASED_ROW) erase ||= afterCR;
            else if (mark) {
              const colour = mark === RED_MARK || mark === YELLOW_MARK;
              if (erase && !colour) {
                out += ERASED_ROW;
                erase = false;
              }
              if (mark !== '\r') this.noteMark(out.length); // CHA 1 is a CR, not a mark
              out += mark;
              // A colour between the CR and the erase draws nothing (`\r\x1b[0;31m\x1b[K`); a cursor move leaves the row.
              afterCR = mark === '\r' || (afterCR && colour);
            }
            this.state = State.Ground;
          } else if (c === 0x1b) {
            this.state = State.Escape; // malformed: a new sequence starts
          } else if (c < 0x20) {
            // C0 inside CSI is executed (ECMA-48); keep line structure. It is not a parameter.
            this.params += text.slice(paramStart, i);
            paramStart = i + 1;
            if (c === 0x0a || c === 0x0d) {
              if (erase) {
                out += ERASED_ROW;
                erase = false;
              }
              out += text[i];
              afterCR = c === 0x0d;
            }
          } else if (this.params.length + (i - paramStart) >= MAX_SEQUENCE_CHARS) {
            this.state = State.Ground;
          }
          break;
        case State.StringEscape:
          // ESC \ is ST; any other ESC x aborts the string and starts a new escape.
          if (c === 0x5c) this.state = State.Ground;
          else if (c === 0x5b) {
            this.state = State.Csi;
            this.params = '';
            paramStart = i + 1;
          } else this.state = State.Escape;
          break;
      }
      i++;
    }
    // A CSI still open at the end of the chunk keeps its parameters for the next one.
    if (this.state === State.Csi && paramStart < n) this.params += text.slice(paramStart);
    // An erase not drawn over in this chunk: put out (the next chunk's text, if any, draws after it at the frame's start).
    if (erase) out += ERASED_ROW;
    this.afterCR = afterCR;
    return out;
  }

  private noteMark(at: number): void {
    this.marked = true;
    this.markAt[this.markCount++] = at;
  }

  /**
   * nextControlByte (and, for ASCII, the search for a special character) over the chunk's bytes
   * as words (text-bytes.ts): the next byte at or after `from` that is not plain text and not
   * (with `utf8`) part of a non-ASCII character, whose runs are noted on the way.
   */
  private nextSpecialByte(text: string, from: number, outAt: number, utf8: boolean): number {
    const n = text.length;
    let p = from;
    for (;;) {
      const next = this.scan.next(p);
      if (next < 0 || !utf8 || text.charCodeAt(next) < 0x80) return next;
      this.highAt[this.highCount++] = outAt + (next - from);
      p = next + 1;
      while (p < n && text.charCodeAt(p) >= 0x80) p++;
    }
  }

  /**
   * UTF-8 bytes: the next control at or after `from` that ends a run of kept text, or -1. The
   * non-ASCII characters on the way are text: each run of their bytes is noted in `highAt` at
   * its offset in the output, to which text[from, next) is appended next (`outAt` its length now).
   */
  private nextControlByte(text: string, from: number, outAt: number): number {
    const n = text.length;
    let p = from;
    for (;;) {
      let next = p;
      const stop = Math.min(n, p + SHORT_SCAN_CHARS);
      for (; next < stop; next++) {
        const c = text.charCodeAt(next);
        if (c < 0x20 ? c < 0x08 || (c > 0x0a && c !== 0x0d) : c >= 0x7f) break;
      }
      if (next === stop) {
        if (stop === n) return -1;
        GROUND_SPECIAL_BYTE.lastIndex = stop;
        if (!GROUND_SPECIAL_BYTE.test(text)) return -1;
        next = GROUND_SPECIAL_BYTE.lastIndex - 1;
      }
      if (text.charCodeAt(next) < 0x80) return next; // a C0 control or DEL
      this.highAt[this.highCount++] = outAt + (next - from);
      p = next + 1;
      while (p < n && text.charCodeAt(p) >= 0x80) p++;
    }
  }
}

/** Translate a complete CSI sequence into the output alphabet (usually nothing). */
function finishCsi(final: number, p: string): string {
  switch (final) {
    case 0x6d /* m: SGR */:
      return sgrMark(p, 0, p.length);
    case 0x47 /* G: CHA */:
      return p === '' || p === '1' || p === '0' ? '\r' : '';
    case 0x41 /* A: CUU */:
    case 0x46 /* F: CPL */:
      return CURSOR_UP_MARK.repeat(Math.min(Math.max(Number(p) || 1, 1), MAX_REDRAW_LINES));
    case 0x42 /* B: CUD */:
      return CURSOR_DOWN_MARK.repeat(Math.min(Math.max(Number(p) || 1, 1), MAX_REDRAW_LINES));
    case 0x45 /* E: CNL */:
      // Playwright's list reporter ends the row it redrew (`✘  4 test (1.9s)`) with CNL and
      // writes the next test's running row after it: two screen rows, one raw line. As a mere
      // cursor-down they read as one row no terminal shows (`✘  4 … (1.9s)     5 tests/… › next`).
      return NEXT_LINE_MARK + CURSOR_DOWN_MARK.repeat(Math.min(Math.max(Number(p) || 1, 1), MAX_REDRAW_LINES) - 1);
    case 0x4b /* K: EL */:
      // To the line's end (0) or all of it (2); to its start (1) leaves what is right of the cursor.
      return p === '' || p === '0' || p === '2' ? ERASED_ROW : '';
    default:
      return '';
  }
}

/** A character after a pending erase that draws nothing on the row (it stays blank): a CR, a newline, a backspace. */
function drawsNothing(c: number): boolean {
  return c === 0x0d || c === 0x0a || c === 0x08;
}

/** finishCsi of an erase-in-line whose parameters are text[from, to): ERASED_ROW for EL 0 (or none) and EL 2. */
function eraseInLine(text: string, from: number, to: number): string {
  if (to === from) return ERASED_ROW;
  if (to - from !== 1) return '';
  const p = text.charCodeAt(from);
  return p === 0x30 || p === 0x32 ? ERASED_ROW : '';
}

/**
 * sgrMark of a parameter list of at most two characters (`1`, `0`, `94`, `39`: most of them),
 * without its scan and parse: a mark only for 31/91 (red) or 33/93 (yellow) — one character
 * is no colour, and any other two (38 wants more parameters, a `;` or `:` splits them into
 * single digits) are none either. The test compares it with sgrMark on every such list.
 */
function shortSgrMark(s: string, from: number, to: number): string {
  if (to - from < 2) return '';
  const a = s.charCodeAt(from);
  if (a !== 0x33 && a !== 0x39) return '';
  const b = s.charCodeAt(from + 1);
  return b === 0x31 ? RED_MARK : b === 0x33 ? YELLOW_MARK : '';
}

/**
 * Which colour mark, if any, an SGR parameter list switches the foreground to. Fast path for
 * the common case (plain decimal parameters, no extended colour): parsed in place, no split.
 */
function sgrMark(s: string, from: number, to: number): string {
  // Red and yellow need a 31/33/91/93 or an extended 38;… colour — all contain a 3 or a 9, so
  // lists without either (bold, reset, 32 green, 1;4 …) are done after one short scan.
  let k = from;
  let ch = 0;
  while (k < to && (ch = s.charCodeAt(k)) !== 0x33 && ch !== 0x39) k++;
  if (k === to) return '';
  let mark = '';
  let v = 0;
  for (let i = from; i <= to; i++) {
    const c = i < to ? s.charCodeAt(i) : 0x3b;
    if (c >= 0x30 && c <= 0x39) v = v * 10 + (c - 0x30);
    else if (c === 0x3b /* ; */) {
      if (v === 31 || v === 91) mark = RED_MARK;
      else if (v === 33 || v === 93) mark = YELLOW_MARK;
      else if (v === 38) return sgrMarkSlow(s.slice(from, to));
      v = 0;
    } else return sgrMarkSlow(s.slice(from, to)); // ':' sub-parameters or anything unusual
  }
  return mark;
}

function sgrMarkSlow(params: string): string {
  let mark = '';
  const parts = params.split(/[;:]/);
  for (let i = 0; i < parts.length; i++) {
    const v = Number(parts[i]);
    if (v === 31 || v === 91) mark = RED_MARK;
    else if (v === 33 || v === 93) mark = YELLOW_MARK;
    else if (v === 38 && parts[i + 1] === '5') {
      const idx = Number(parts[i + 2]);
      if (idx === 1 || idx === 9 || idx === 160 || idx === 196 || idx === 124) mark = RED_MARK;
      else if (idx === 3 || idx === 11 || idx === 214 || idx === 220 || idx === 178) mark = YELLOW_MARK;
      i += 2;
    } else if (v === 38 && parts[i + 1] === '2') {
      const r = Number(parts[i + 2]);
      const g = Number(parts[i + 3]);
      const b = Number(parts[i + 4]);
      if (r > 180 && g < 100 && b < 100) mark = RED_MARK;
      else if (r > 180 && g > 150 && b < 100) mark = YELLOW_MARK;
      i += 4;
    }
  }
  return mark;
}

/** One-shot helper: strip all escape sequences and private marks from a complete string. */
export function stripAnsi(text: string): string {
  const s = new VtStripper().process(text);
  const t = s.includes(ERASED_ROW) ? s.replaceAll(ERASED_ROW, '') : s;
  return t.includes(RED_MARK) || t.includes(YELLOW_MARK) || t.includes(CURSOR_UP_MARK) || t.includes(CURSOR_DOWN_MARK) || t.includes(NEXT_LINE_MARK) ? t.replace(ANY_MARK, '') : t;
}

/**
 * VT/ANSI handling: removes escape sequences from decoded text while keeping what the line
 * buffer needs. Written by hand rather than with @xterm/headless because the squasher must
 * run at >= 100 MB/s and needs the byte stream (CR, LF, BS) rather than a rendered screen;
 * the state machine follows the DEC/ECMA-48 grammar that xterm.js's parser implements.
 *
 * Output alphabet: printable text, `\t`, `\n`, `\r`, `\b`, plus three private markers that
 * never occur in stripped text (all other C0 controls are removed):
 *   RED_MARK / YELLOW_MARK — the foreground turned red/yellow (a classification hint);
 *   CURSOR_UP_MARK — the cursor moved up: the following line(s) redraw earlier ones.
 * Cursor-to-column-1 (CHA 1, `ESC[G`) is turned into `\r`, because tools use it exactly like
 * a carriage return to redraw progress lines. Colour sequences never look like a line
 * overwrite (a known failure mode that made compiler diagnostics vanish elsewhere).
 */

export const RED_MARK = '\x01';
export const YELLOW_MARK = '\x02';
export const CURSOR_UP_MARK = '\x03';

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

/** Special characters in the ground state: ESC, C1 CSI, DEL and C0 controls (incl. \t \n \r \b). */
const SPECIAL = /[\x00-\x1f\x7f\x9b]/g;

/** Characters that need the slow path: ESC, C1 CSI, and C0 controls other than \t \n \r \b. */
const NEEDS_SLOW_PATH = /[\x00-\x07\x0b\x0c\x0e-\x1f\x7f\x9b]/;

export class VtStripper {
  private state = State.Ground;
  private params = '';
  private stringIsOsc = false;

  /** Strip one decoded chunk. Sequences split across chunks are handled. */
  process(text: string): string {
    if (this.state === State.Ground && !NEEDS_SLOW_PATH.test(text)) return text;
    let out = '';
    let runStart = -1;
    const n = text.length;
    for (let i = 0; i < n; i++) {
      if (this.state === State.Ground) {
        // Jump to the next special character with one native scan.
        SPECIAL.lastIndex = i;
        const m = SPECIAL.exec(text);
        const next = m ? m.index : n;
        if (next > i) {
          if (runStart < 0) runStart = i;
          i = next;
          if (i >= n) break;
        }
      }
      const c = text.charCodeAt(i);
      switch (this.state) {
        case State.Ground:
          if (c >= 0x20 && c !== 0x7f && c !== 0x9b) {
            if (runStart < 0) runStart = i;
            continue;
          }
          if (runStart >= 0) {
            out += text.slice(runStart, i);
            runStart = -1;
          }
          if (c === 0x0a || c === 0x0d || c === 0x09 || c === 0x08) out += text[i];
          else if (c === 0x1b) this.state = State.Escape;
          else if (c === 0x9b) this.enterCsi();
          // other C0 controls (BEL, NUL, …) and DEL are dropped
          continue;
        case State.Escape:
          if (c === 0x5b /* [ */) this.enterCsi();
          else if (c === 0x5d /* ] */ || c === 0x50 /* P */ || c === 0x58 /* X */ || c === 0x5e /* ^ */ || c === 0x5f /* _ */) {
            this.state = State.String;
            this.stringIsOsc = c === 0x5d;
            this.params = '';
          } else if (c >= 0x20 && c <= 0x2f) this.state = State.EscapeIntermediate; // ESC ( B, ESC # 8 …
          else if (c === 0x1b) this.state = State.Escape;
          else this.state = State.Ground; // two-char escape (ESC 7, ESC M, ESC =, …): drop
          continue;
        case State.EscapeIntermediate:
          if (c >= 0x20 && c <= 0x2f) continue;
          this.state = State.Ground;
          continue;
        case State.Csi:
          if (c >= 0x40 && c <= 0x7e) {
            out += this.finishCsi(c);
            this.state = State.Ground;
          } else if (c === 0x1b) {
            this.state = State.Escape; // malformed: a new sequence starts
          } else if (c < 0x20) {
            // C0 inside CSI is executed (ECMA-48); keep line structure.
            if (c === 0x0a || c === 0x0d) out += text[i];
          } else if (this.params.length < MAX_SEQUENCE_CHARS) {
            this.params += text[i];
          } else {
            this.state = State.Ground;
          }
          continue;
        case State.String:
          if (c === 0x07) this.state = State.Ground;
          else if (c === 0x1b) this.state = State.StringEscape;
          else if (c === 0x9c) this.state = State.Ground;
          else if (this.params.length >= MAX_SEQUENCE_CHARS) this.params = '';
          continue;
        case State.StringEscape:
          // ESC \ is ST; any other ESC x aborts the string and starts a new escape.
          if (c === 0x5c) this.state = State.Ground;
          else if (c === 0x5b) this.enterCsi();
          else this.state = State.Escape;
          continue;
      }
    }
    if (runStart >= 0) out += text.slice(runStart);
    void this.stringIsOsc;
    return out;
  }

  private enterCsi(): void {
    this.state = State.Csi;
    this.params = '';
  }

  /** Translate a complete CSI sequence into the output alphabet (usually nothing). */
  private finishCsi(final: number): string {
    const p = this.params;
    switch (final) {
      case 0x6d /* m: SGR */:
        return sgrMark(p);
      case 0x47 /* G: CHA */:
        return p === '' || p === '1' || p === '0' ? '\r' : '';
      case 0x41 /* A: CUU */:
      case 0x46 /* F: CPL */: {
        const n = Math.min(Math.max(Number(p) || 1, 1), MAX_REDRAW_LINES);
        return CURSOR_UP_MARK.repeat(n);
      }
      default:
        return '';
    }
  }
}

/** Which colour mark, if any, an SGR parameter list switches the foreground to. */
function sgrMark(params: string): string {
  // Fast path: red and yellow need a 31/33/91/93 or an extended 38;… colour — all contain 3.
  if (params.indexOf('3') < 0) return '';
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
  return s.includes(RED_MARK) || s.includes(YELLOW_MARK) || s.includes(CURSOR_UP_MARK) ? s.replace(/[\x01-\x03]/g, '') : s;
}

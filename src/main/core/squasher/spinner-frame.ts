/**
 * What a frame of a line drawn over with CR holds, for the line buffer's "is this line progress?"
 * (an `overwrite` line is noise unless a rule claims it).
 *
 * A line whose earlier frames are all a spinner's (a glyph, alone or before its status text) and
 * whose last frame is text is not progress: it is the program's own line, written after the
 * spinner cleared itself. npm draws `⠹`, then before each line it prints clears it (`ESC[1G
 * ESC[0K`, read as a CR) and writes the line, so every line of `npm pack` came as `⠹\racme-ui-3.2.0.tgz`
 * and its result line was lost as a spinner frame; ora-style spinners end on their result
 * (`⠙ Building\r✔ Built in 2.1s`). A line whose last frame is itself a spinner's, or blank, or
 * that drew over any other text (a bar, a counter: `[##  ] 40%\rdone`) stays an overwrite.
 */

/** A frame: nothing drawn (blanks, an erase), a spinner's, or anything else. */
const enum Frame {
  Blank = 0,
  Spinner = 1,
  Text = 2,
}

/** The circle-quarter spinner glyphs (ansi-progress's `progress-spinner` set), all in U+25C0–U+25FF. */
const CIRCLES = '◐◓◑◒◴◷◶◵◰◳◲◱◜◝◞◟◠◡';
/** CIRCLES as a 64-bit set over U+25C0–U+25FF (the low byte of their UTF-8 is 0x80 + the offset). */
const CIRCLE_LO = bitsOf(0);
const CIRCLE_HI = bitsOf(32);

function bitsOf(base: number): number {
  let bits = 0;
  for (const c of CIRCLES) {
    const off = c.charCodeAt(0) - 0x25c0 - base;
    if (off >= 0 && off < 32) bits |= 1 << off;
  }
  return bits;
}

function isCircle(code: number): boolean {
  const off = code - 0x25c0;
  if (off < 0 || off >= 64) return false;
  return off < 32 ? (CIRCLE_LO & (1 << off)) !== 0 : (CIRCLE_HI & (1 << (off - 32))) !== 0;
}

/**
 * Length of the spinner glyph at s[i] (a braille pattern, U+2800–U+28FF, or a circle quarter),
 * 0 if none. `bytes`: the text is UTF-8 bytes read as Latin-1 (the line buffer's fast path), where
 * a glyph is three characters.
 */
function glyphAt(s: string, i: number, to: number, bytes: boolean): number {
  const c = s.charCodeAt(i);
  if (!bytes) return (c >= 0x2800 && c <= 0x28ff) || isCircle(c) ? 1 : 0;
  if (c !== 0xe2 || i + 2 >= to) return 0;
  const c1 = s.charCodeAt(i + 1);
  const c2 = s.charCodeAt(i + 2);
  if (c2 < 0x80 || c2 > 0xbf) return 0;
  if (c1 >= 0xa0 && c1 <= 0xa3) return 3;
  return c1 === 0x97 && isCircle(0x25c0 + c2 - 0x80) ? 3 : 0;
}

/** Blanks, an erased row (ERASED_ROW, 0x06) and the private marks (0x01–0x05) draw nothing. */
function drawsNothing(c: number): boolean {
  return c === 32 || c === 9 || (c >= 1 && c <= 6);
}

/**
 * What s[from, to) — one frame, no CR in it — holds. A spinner's frame is one or more glyphs at
 * its start, alone or followed by a blank and text (`⠙ Building`); an ASCII spinner (`| / - \`,
 * npm without unicode) only alone, since a line may well start with `-` or `/`.
 */
function frameKind(s: string, from: number, to: number, bytes: boolean): Frame {
  let i = from;
  while (i < to && drawsNothing(s.charCodeAt(i))) i++;
  if (i === to) return Frame.Blank;
  const c = s.charCodeAt(i);
  if (c === 0x7c || c === 0x2f || c === 0x2d || c === 0x5c) {
    for (i++; i < to; i++) if (!drawsNothing(s.charCodeAt(i))) return Frame.Text;
    return Frame.Spinner;
  }
  let n = glyphAt(s, i, to, bytes);
  if (n === 0) return Frame.Text;
  while (n > 0) {
    i += n;
    n = i < to ? glyphAt(s, i, to, bytes) : 0;
  }
  return i === to || drawsNothing(s.charCodeAt(i)) ? Frame.Spinner : Frame.Text;
}

/** s[from, to) — the last frame of a line — is text: neither blank nor a spinner's. */
export function isTextFrame(s: string, from: number, to: number, bytes: boolean): boolean {
  return frameKind(s, from, to, bytes) === Frame.Text;
}

/**
 * A frame before `cr` (in s[from, cr), frames cut at CRs) held text other than a spinner's.
 * Read from the last frame back: a bar or a counter is found at once.
 */
export function textDrawnBefore(s: string, from: number, cr: number, bytes: boolean): boolean {
  let end = cr;
  while (end > from) {
    const prev = s.lastIndexOf('\r', end - 1);
    const start = prev < from ? from : prev + 1;
    if (frameKind(s, start, end, bytes) === Frame.Text) return true;
    end = prev < from ? from : prev;
  }
  return false;
}

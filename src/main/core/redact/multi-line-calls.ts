/**
 * A call opened at a line's end and closed on a later line, read again as one line: the layout black, prettier and
 * gofmt give a call too long for one line,
 *
 *     gis = GIS(
 *         "https://www.arcgis.com",
 *         "analyst",
 *         "<password>",
 *     )
 *
 * A rule that reads a client's arguments by position (ArcGIS' `GIS(url, user, password)`, pyzotero's `Zotero(id, type, key)`,
 * `cohere.Client('<key>')`) sees them on one line, as it would the call written
 * short (session 47's leads: passes 292, 294, 304). A named argument on its own line (`api_key="…",`) is read where it stands
 * already; what the view adds is position.
 *
 * Cost: two byte searches of the text (a line ending in `(`); only the calls found are scanned again, each a line of the
 * view (bounded: MAX_CALL_LINES, MAX_CALL_CHARS, MAX_CALLS).
 */
import type { SecretFinding } from './finding.js';
import { indexOfAscii } from './low-bytes.js';
import { indexAt } from './offsets.js';

/** A call's lines read at most, its opening and closing lines with them (a client's arguments: a few lines; a list of keys: tens). */
const MAX_CALL_LINES = 40;
/** A call's joined text at most (a longer one is data, not a call a rule reads by position). */
const MAX_CALL_CHARS = 4096;
/** Calls read again per text at most (a formatted source file of thousands: its first ones; a bound on the cost). */
const MAX_CALLS = 2000;
/**
 * The opener: a line's last character (before its `\r`, if any). Not a list's `[`: a JSON list under its name (`"authorization": [`)
 * has its own readers, and a joined one read `[ "Bearer …"` as the header's value.
 */
const OPENERS = ['(\n', '(\r\n'];

/** One piece of the view: `length` characters at `viewAt` in the view are those at `textAt` in the text. */
interface Piece {
  viewAt: number;
  textAt: number;
  length: number;
}

/** A character of a function's name (`[A-Za-z0-9_]`). */
const isNameChar = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;

/** The width of the blanks a line starts with. */
function indentOf(text: string, lineStart: number, lineEnd: number): number {
  let i = lineStart;
  while (i < lineEnd && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i++;
  return i - lineStart;
}

/** The end of the line at `lineStart` (its `\n`, or the text's end), without a `\r` before it. */
function lineEndOf(text: string, lineStart: number): number {
  let nl = text.indexOf('\n', lineStart);
  if (nl < 0) nl = text.length;
  return nl > lineStart && text.charCodeAt(nl - 1) === 0x0d ? nl - 1 : nl;
}

/**
 * The findings of `scan` on the text's multi-line calls, each joined to one line (its inner lines' indents dropped, one
 * blank between them), at their places in `text`. `bytes`: the text's low bytes (low-bytes.ts) for the openers' searches.
 */
export function multiLineCallFindings(text: string, out: SecretFinding[], scan: (t: string) => SecretFinding[], bytes?: Buffer): void {
  const openLines: number[] = [];
  for (const opener of OPENERS) {
    for (let i = indexOfAscii(text, bytes, opener, 0); i >= 0 && openLines.length < MAX_CALLS * 4; i = indexOfAscii(text, bytes, opener, i + 1)) {
      // A call: a name before its `(` (`GIS(`, `Client(`); PHP's print_r opens its arrays with a `(` alone on a line.
      if (isNameChar(text.charCodeAt(i - 1))) openLines.push(text.lastIndexOf('\n', i) + 1);
    }
  }
  if (openLines.length === 0) return;
  openLines.sort((a, b) => a - b);
  const pieces: Piece[] = [];
  let view = '';
  let calls = 0;
  let doneTo = -1;
  for (const start of openLines) {
    if (start < doneTo || calls >= MAX_CALLS) continue;
    const openEnd = lineEndOf(text, start);
    const indent = indentOf(text, start, openEnd);
    // The call's pieces: its opening line, each inner line without its indent, the closing line's `)` / `]` and what follows.
    const call: Piece[] = [{ viewAt: 0, textAt: start, length: openEnd - start }];
    let chars = openEnd - start;
    let closed = -1;
    for (let at = openEnd + 1, n = 0; at < text.length && n < MAX_CALL_LINES && chars <= MAX_CALL_CHARS; n++) {
      if (text.charCodeAt(at - 1) !== 0x0a) at = text.indexOf('\n', at) + 1;
      const end = lineEndOf(text, at);
      const ind = indentOf(text, at, end);
      const body = at + ind;
      if (body === end) break; // a blank line: no formatter's call holds one
      const c = text.charCodeAt(body);
      if (ind <= indent) {
        // Closed at the opener's indent (`)`, `]`, `})`, `),`), or not a call's layout at all.
        if (ind === indent && (c === 0x29 || c === 0x5d || c === 0x7d)) {
          call.push({ viewAt: 0, textAt: body, length: end - body });
          chars += end - body + 1;
          closed = end;
        }
        break;
      }
      call.push({ viewAt: 0, textAt: body, length: end - body });
      chars += end - body + 1;
      at = end + 1;
    }
    if (closed < 0 || chars > MAX_CALL_CHARS || call.length < 3) continue;
    // One line of the view: the pieces one blank apart.
    call.forEach((p, k) => {
      if (k > 0) view += ' ';
      p.viewAt = view.length;
      view += text.slice(p.textAt, p.textAt + p.length);
      pieces.push(p);
    });
    view += '\n';
    calls++;
    doneTo = closed;
  }
  if (calls === 0) return;
  const starts = pieces.map((p) => p.viewAt);
  for (const f of scan(view)) {
    // A finding over several pieces is given back a piece a line (the blanks and indents between stay).
    for (let n = indexAt(starts, f.start); n < pieces.length && pieces[n].viewAt < f.end; n++) {
      const p = pieces[n];
      const s = Math.max(f.start, p.viewAt);
      const e = Math.min(f.end, p.viewAt + p.length);
      if (e > s) out.push({ ...f, start: p.textAt + (s - p.viewAt), end: p.textAt + (e - p.viewAt) });
    }
  }
}

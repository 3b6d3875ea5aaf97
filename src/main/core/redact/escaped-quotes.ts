/**
 * Names and their quotes written as escapes other than a JSON string's `\"`, read decoded: HTML's character references in
 * server-rendered JSON (`data-config="{&quot;adminPassword&quot;:…}"`, Go's html/template writes `&#34;`, others `&#x22;`),
 * C-style hex escapes (nginx's `$request_body` logs every quote as `\x22`: `{\x22client_secret\x22:\x22…\x22}`; Python's bytes
 * repr), and JSON's `\u0070` (an encoder that escapes letters: `{"\u0070assword":"…"}`, adv119 F10, F41, F42). The name reads as
 * one only decoded, and a value glued to `&#34;` ends nowhere a rule expects. Every line holding such an escape is decoded
 * (escapes of printable ASCII only: a byte past it is no name's nor quote's), the lines are scanned together once, and what is
 * found is mapped back to the characters (escapes whole) that spell it.
 */
import type { SecretFinding } from './finding.js';

/** The escapes read: an HTML named reference of the five XML ones, a numeric one (decimal or hex), `\xNN`, `\u00NN`. */
const ESCAPE = /&(?:quot|apos|amp|lt|gt);|&#(?:[0-9]{2,3}|[xX][0-9a-fA-F]{2});|\\x[0-9a-fA-F]{2}|\\u00[0-9a-fA-F]{2}/y;
const NAMED: Record<string, string> = { '&quot;': '"', '&apos;': "'", '&amp;': '&', '&lt;': '<', '&gt;': '>' };
/** Lines longer than this are read in pieces of it (a megabyte on one line is decoded once, not held twice whole). */
const MAX_LINE = 65_536;

/** The character an escape at `m` spells, when it is printable ASCII (a quote, a letter); undefined otherwise. */
function decodedChar(m: string): string | undefined {
  if (m.charCodeAt(0) === 0x26 && m.charCodeAt(1) !== 0x23) return NAMED[m];
  let code: number;
  if (m.charCodeAt(0) === 0x26) code = m.charCodeAt(2) === 0x78 || m.charCodeAt(2) === 0x58 ? Number.parseInt(m.slice(3, -1), 16) : Number.parseInt(m.slice(2, -1), 10);
  else code = Number.parseInt(m.slice(m.charCodeAt(1) === 0x78 ? 2 : 4), 16);
  return code >= 0x20 && code <= 0x7e ? String.fromCharCode(code) : undefined;
}

/** Is an escape's start at `i` (`&` or a backslash before `x`/`u`)? A cheap test before the pattern. */
function mayStartEscape(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c === 0x26) return true;
  if (c !== 0x5c) return false;
  const n = text.charCodeAt(i + 1);
  return n === 0x78 || n === 0x75;
}

/** Is a text being scanned decoded (it is not decoded again: `&amp;quot;` stays one escape deep)? */
let inDecoded = false;

/**
 * Findings of `scan` on `text`'s lines that hold an escape of a quote, decoded, mapped back to `text`. The gate (the keyword pass's
 * hit of `&quot;`, `&#`, `\x2`, `\u00`…) is the caller's; each line is read once.
 */
export function escapedQuoteFindings(text: string, out: SecretFinding[], scan: (t: string) => SecretFinding[]): void {
  if (inDecoded) return;
  const parts: string[] = [];
  // For each decoded character, its offset in `text`; one more entry after each line: the line's end.
  const at: number[] = [];
  let any = false;
  for (let start = 0; start < text.length; ) {
    const nl = text.indexOf('\n', start);
    const end = Math.min(nl < 0 ? text.length : nl, start + MAX_LINE);
    const line = decodedLine(text, start, end, at);
    if (line !== undefined) {
      parts.push(line);
      at.push(end);
      any = true;
    }
    start = end === nl ? end + 1 : end;
  }
  if (!any) return;
  inDecoded = true;
  try {
    for (const f of scan(parts.join('\n'))) {
      const s = at[f.start];
      const e = f.end > f.start ? endOf(text, at[f.end - 1]) : s;
      if (e > s) out.push({ start: s, end: e, kind: f.kind, byContext: f.byContext });
    }
  } finally {
    inDecoded = false;
  }
}

/** The end in `text` of the character (or the escape) that starts at `i`. */
function endOf(text: string, i: number): number {
  if (mayStartEscape(text, i)) {
    ESCAPE.lastIndex = i;
    const m = ESCAPE.exec(text);
    if (m && decodedChar(m[0]) !== undefined) return i + m[0].length;
  }
  return i + 1;
}

/** text[start, end) decoded, its characters' offsets pushed on `at`; undefined (nothing pushed) when it holds no escape read. */
function decodedLine(text: string, start: number, end: number, at: number[]): string | undefined {
  let first = -1;
  for (let k = start; k < end && first < 0; k++) {
    if (!mayStartEscape(text, k)) continue;
    ESCAPE.lastIndex = k;
    const m = ESCAPE.exec(text);
    if (m && decodedChar(m[0]) !== undefined && k + m[0].length <= end) first = k;
  }
  if (first < 0) return undefined;
  const pieces: string[] = [];
  let from = start;
  for (let i = first; i < end; i++) {
    if (!mayStartEscape(text, i)) continue;
    ESCAPE.lastIndex = i;
    const m = ESCAPE.exec(text);
    const c = m ? decodedChar(m[0]) : undefined;
    if (!m || c === undefined || i + m[0].length > end) continue;
    pieces.push(text.slice(from, i), c);
    for (let k = from; k <= i; k++) at.push(k);
    from = i + m[0].length;
    i = from - 1;
  }
  pieces.push(text.slice(from, end));
  for (let k = from; k < end; k++) at.push(k);
  const decoded = pieces.join('');
  return decoded;
}

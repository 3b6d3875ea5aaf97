/**
 * Hex dumps (`hexdump -C`, `xxd`) of a credentials file (adv3 M22): the secret is cut into 16-byte
 * rows, its characters in the ASCII column and its bytes in the hex column, so no pattern sees it
 * whole. The rows of a dump are decoded back to the bytes they show, the bytes scanned as text,
 * and each finding masked where it shows: its bytes' hex digits and its ASCII characters, row by
 * row. Hand-written: no npm package parses dump text back to bytes, and the layouts are fixed
 * (util-linux's `-C` canonical form, vim's xxd default `-g2`, od's, Java's HexDumpEncoder, curl's `--trace` and `--trace-ascii`).
 */
import type { SecretFinding } from './finding.js';
import { indexOfAscii } from './low-bytes.js';
import { isLookAlike, madeWord } from './look-alikes.js';
import { encodedValueKind, type KindOfName } from './named-encodings.js';

/** `hexdump -C`: `00000000  68 74 74 70 73 3a 2f 2f  62 6f 62 3a 50 71 37 57  |https://bob:Pq7W|`. */
const CANONICAL = /^[0-9a-f]{8,}  (?<hex>(?:[0-9a-f]{2} {1,2}){1,16}) *\|(?<ascii>[^|\n]{1,16})\|\r?$/gm;
/** `xxd`: `00000000: 6874 7470 733a 2f2f 626f 623a 5071 3757  https://bob:Pq7W` (groups of two bytes, two blanks before the ASCII). */
// tcpdump -X / -XX prints the same groups after a tab and `0x<offset>:` and two blanks (adv22 F36: a Bearer header cut over rows).
// Rows of up to 256 bytes (`xxd -c 64`: a build config's `steam_webapi_key=…` in one row's column, pass 177 F41).
const XXD = /^(?:[0-9a-f]{8,}: |\t0x[0-9a-f]{4,8}:  )(?<hex>(?:[0-9a-f]{4} ){0,127}(?:[0-9a-f]{4}|[0-9a-f]{2}))  +(?<ascii>[^\n]*?)\r?$/gm;

/**
 * Java's HexDumpEncoder (`-Djavax.net.debug=all`'s `Plaintext before ENCRYPTION`, adv81 F34): `0040: 69 6F 6E 3A 20 42 65 61   72
 * 65 72 20 78 6F 78 62  ion: Bearer xoxb` (indented, a four-digit offset, upper-case bytes, three blanks after the eighth).
 */
const JAVA_HEX = /^[ \t]{0,8}[0-9A-F]{4}: (?<hex>[0-9A-F]{2}(?:(?: {1}| {3})[0-9A-F]{2}){0,15})  +(?<ascii>[^\n]*?)\r?$/gm;

/**
 * `od -A x -t x1z` (and `-A d`, `-A o`): `000010 35 46 66 48 …  >5FfHCb1TOXNHjHc7<`, one byte a field, the characters between `>`
 * and `<` after two blanks (adv153 F15: a password in one row's column, its name in the row above).
 */
const OD_Z = /^[0-9a-f]{6,} (?<hex>(?:[0-9a-f]{2} ){0,15}[0-9a-f]{2}) * {2}>(?<ascii>[^\n]{1,16})<\r?$/gm;

interface Row {
  /** Offsets in the text of each byte's first hex digit, and of its ASCII character. */
  hexAt: number[];
  asciiAt: number[];
  bytes: number[];
  /** Where the row's line starts and ends (a block is rows on consecutive lines). */
  lineStart: number;
  lineEnd: number;
  /** An `od -c` row: one column, each byte's field four characters wide. */
  od?: boolean;
  /** An od row of numbers: each byte's digits this many characters wide (from its hexAt), not od -c's field. */
  fieldWidth?: number;
  /** A curl `--trace-ascii` row: its characters are its only column (asciiAt, one character a byte). */
  charsOnly?: boolean;
}

/** A byte the dump counts but does not show (the CRLF that ends a `--trace-ascii` row): no place in the text, skipped when masking. */
const UNSHOWN = -1;

/**
 * `od -c` (and `od -An -c`, no offset column): a row of up to 16 fields four characters wide, each a byte as a character
 * (`   D`), an escape (`  \n`), an octal byte (` 303`) or `  **` (a multi-byte character's later bytes, after the character).
 */
// A dump's last row may hold one to three fields: after an offset, or under a row (a row alone needs four, not to read any text).
const OD = /^(?<offset>[0-7]{7,}|[0-9a-f]{6,})?(?<fields>(?: {3}\S| {2}\\[0abfnrtv]| [0-7]{3}| {2}\*\*| {4}){1,16})\r?$/gmu;
const OD_ESCAPES: Record<string, string> = { '0': '\0', a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** Every row of `od -c` dumps in `text`: one byte (or character) per field, its place the field's. */
function odRows(text: string, out: Row[]): void {
  OD.lastIndex = 0;
  for (let m = OD.exec(text); m; m = OD.exec(text)) {
    const fields = m.groups!.fields;
    const at = m.index + m[0].indexOf(fields);
    const hexAt: number[] = [];
    const bytes: number[] = [];
    for (let i = 0; i < fields.length; ) {
      // A field is four characters, except a non-BMP character's (one code point, two code units).
      const cp = fields.codePointAt(i + 3) ?? 0;
      const width = cp > 0xffff ? 5 : 4;
      const f = fields.slice(i, i + width);
      if (f.length < 4) break;
      const body = f.trim();
      let ch: string | undefined;
      if (body === '**') ch = undefined;
      else if (body.length === 0) ch = ' ';
      else if (body.length === 2 && body[0] === '\\') ch = OD_ESCAPES[body[1]];
      else if (/^[0-7]{3}$/.test(body)) ch = String.fromCharCode(Number.parseInt(body, 8));
      else ch = body;
      if (ch !== undefined) {
        hexAt.push(at + i);
        bytes.push(ch.codePointAt(0)!);
      }
      i += width;
    }
    // …unless it is the last row of a dump whose rows are just above (`od -An -c`'s last of a value: adv110 F02).
    if (bytes.length < 4 && m.groups!.offset === undefined && !(out.length > 0 && out[out.length - 1].lineEnd + 1 === m.index)) continue;
    // The field is the byte's only place (no second column): asciiAt spans it too.
    out.push({ hexAt, asciiAt: hexAt.map((h) => h + 2), bytes, lineStart: m.index, lineEnd: m.index + m[0].length, od: true });
  }
}

/**
 * `od -b` (` 160 141 163`: octal bytes), `od -t x1` (` 70 61 73`) and `od -x` / `hexdump` without options (` 6170 7373`: two
 * bytes a field, little-endian) after a seven-digit octal offset: one column, no characters (adv56 F38).
 */
const OD_NUMBERS = /^(?<offset>[0-7]{7})?(?<fields>(?: [0-7]{3}){1,16}|(?: [0-9a-f]{2}){1,16}|(?: [0-9a-f]{4}){1,8})\r?$/gm;
/** A row without its offset (`od -An -tx1`: adv107 F37) holds this many fields at least (fewer: any line of short numbers). */
const MIN_BARE_OD_FIELDS = 4;

/** Every row of od's numeric forms in `text`. */
function odNumberRows(text: string, out: Row[]): void {
  OD_NUMBERS.lastIndex = 0;
  for (let m = OD_NUMBERS.exec(text); m; m = OD_NUMBERS.exec(text)) {
    const fields = m.groups!.fields;
    const width = fields.indexOf(' ', 1) > 0 ? fields.indexOf(' ', 1) - 1 : fields.length - 1;
    if (m.groups!.offset === undefined && fields.length < MIN_BARE_OD_FIELDS * (width + 1)) continue;
    // Octal when every field is three digits of 0-7 (an `od -b` row); a row of `od -t x1` with only such digits is rare and decodes to the same kind of bytes.
    const radix = width === 3 ? 8 : 16;
    const hexAt: number[] = [];
    const bytes: number[] = [];
    const at = m.index + (m.groups!.offset?.length ?? 0);
    for (let i = 0; i < fields.length; i += width + 1) {
      const f = at + i + 1;
      if (width === 4) {
        // Little-endian: the field's low byte (its last two digits) first.
        hexAt.push(f + 2, f);
        bytes.push(Number.parseInt(fields.slice(i + 3, i + 5), 16), Number.parseInt(fields.slice(i + 1, i + 3), 16));
      } else {
        hexAt.push(f);
        bytes.push(Number.parseInt(fields.slice(i + 1, i + 1 + width), radix));
      }
    }
    if (bytes.some((b) => b > 255)) continue;
    out.push({ hexAt, asciiAt: hexAt, bytes, lineStart: m.index, lineEnd: m.index + m[0].length, od: true, fieldWidth: width === 4 ? 2 : width });
  }
}

/**
 * curl's `--trace` (tool_cb_dbg.c's dump(), libcurl's debug.c example): `0000: 7b 22 63 6c … 37 36 {"client_id":"76`, an offset of
 * four hex digits at least, up to 16 bytes each as two lower-case digits and a blank, a short last row's missing bytes as three
 * blanks each, then one character a byte with no blank before it. The row's rest (blanks and characters) is taken whole and cut by
 * the count of bytes: an ASCII column that starts with blanks (bytes 0x20) would be read as padding by a pattern.
 */
const CURL_HEX = /^[0-9a-f]{4,8}: (?<hex>(?:[0-9a-f]{2} ){1,16})(?<rest>[\x20-\x7f]{1,61})\r?$/gm;
/** A `--trace` row: 16 bytes' fields of three characters (`7b `), a missing byte's field three blanks, before the characters. */
const CURL_HEX_BYTES = 16;
const CURL_HEX_FIELD = 3;

/** What curl prints for a byte in its ASCII column: the byte when printable (0x20-0x7f), else `.`. */
const curlShows = (b: number): number => (b >= 0x20 && b < 0x80 ? b : 0x2e);

/**
 * Every row of curl `--trace` dumps in `text` on lines not `taken` (od's), each added to them. The ASCII column must show the
 * row's bytes as curl does (or `.`): a `--trace-ascii` row of text that starts with pairs of hex digits (`0000: ab cd ef …`) is
 * no `--trace` row, and is left to be read as characters.
 */
function curlHexRows(text: string, taken: Set<number>, out: Row[]): void {
  CURL_HEX.lastIndex = 0;
  for (let m = CURL_HEX.exec(text); m; m = CURL_HEX.exec(text)) {
    if (taken.has(m.index)) continue;
    const hex = m.groups!.hex;
    const rest = m.groups!.rest;
    const count = hex.length / CURL_HEX_FIELD;
    const pad = (CURL_HEX_BYTES - count) * CURL_HEX_FIELD;
    if (rest.length !== pad + count || rest.slice(0, pad).trim() !== '') continue;
    const hexStart = m.index + m[0].indexOf(hex);
    const asciiStart = hexStart + hex.length + pad;
    const hexAt: number[] = [];
    const asciiAt: number[] = [];
    const bytes: number[] = [];
    let shown = true;
    for (let i = 0; i < count && shown; i++) {
      const b = Number.parseInt(hex.slice(i * CURL_HEX_FIELD, i * CURL_HEX_FIELD + 2), 16);
      const c = text.charCodeAt(asciiStart + i);
      shown = c === curlShows(b) || c === 0x2e;
      hexAt.push(hexStart + i * CURL_HEX_FIELD);
      asciiAt.push(asciiStart + i);
      bytes.push(b);
    }
    if (!shown) continue;
    out.push({ hexAt, asciiAt, bytes, lineStart: m.index, lineEnd: m.index + m[0].length });
    taken.add(m.index);
  }
}

/**
 * curl's `--trace-ascii`: `004f: Authorization: Bearer abcd…` and, under it, `008f: GHIJ…`: the offset, then 64 characters a row
 * (a byte outside 0x20-0x7f as `.`), a row cut early where the data has a CRLF (not shown, but counted in the next row's offset).
 * The characters are the row's only column.
 */
const CURL_ASCII = /^(?<offset>[0-9a-f]{4,8}): (?<chars>[\x20-\x7f]{0,64})\r?$/gm;
/** The CRLF curl cut a row at, and does not show. */
const CRLF = [0x0d, 0x0a];

/**
 * Every row of curl `--trace-ascii` dumps in `text` on lines no other layout read. A row joins the next by what their offsets say
 * lies between them: nothing when the next starts where it ends (a value cut at 64 characters is whole again), the CRLF it was
 * cut at when two bytes lie between (headers stay one a line), else a line break (a new dump; lines that only look like rows
 * are not run together).
 */
function curlAsciiRows(text: string, taken: Set<number>, out: Row[]): void {
  let last: { row: Row; end: number } | undefined;
  CURL_ASCII.lastIndex = 0;
  for (let m = CURL_ASCII.exec(text); m; m = CURL_ASCII.exec(text)) {
    if (taken.has(m.index)) continue;
    const chars = m.groups!.chars;
    const offset = Number.parseInt(m.groups!.offset, 16);
    if (last !== undefined && last.row.lineEnd + 1 === m.index) {
      const between = offset - last.end;
      const joint = between === 0 ? [] : between === CRLF.length ? CRLF : [0x0a];
      for (const b of joint) {
        last.row.bytes.push(b);
        last.row.hexAt.push(UNSHOWN);
        last.row.asciiAt.push(UNSHOWN);
      }
    }
    const at = m.index + m.groups!.offset.length + 2;
    // Two arrays of places, the same (a joint is pushed to each).
    const row: Row = { hexAt: [], asciiAt: [], bytes: [], lineStart: m.index, lineEnd: m.index + m[0].length, charsOnly: true };
    for (let i = 0; i < chars.length; i++) {
      row.hexAt.push(at + i);
      row.asciiAt.push(at + i);
      row.bytes.push(chars.charCodeAt(i));
    }
    out.push(row);
    last = { row, end: offset + chars.length };
  }
}

/** Every row of the dumps in `text`, in text order. */
function rows(text: string): Row[] {
  const out: Row[] = [];
  // od -c's rows, then od's numeric rows on the other lines (a row of octal fields reads the same either way; od -c of a value
  // with no line break has no `  \n`: adv107 F04).
  odRows(text, out);
  const odLines = new Set(out.map((r) => r.lineStart));
  const numbers: Row[] = [];
  odNumberRows(text, numbers);
  for (const r of numbers) if (!odLines.has(r.lineStart)) out.push(r);
  // curl's `--trace` rows next (their check is strict), the other layouts on the lines left, then `--trace-ascii`'s, which any
  // short line after an offset matches, on the lines still left: one row a line, or a block would break at the line read twice.
  const taken = new Set(out.map((r) => r.lineStart));
  curlHexRows(text, taken, out);
  for (const re of [CANONICAL, OD_Z, XXD, JAVA_HEX]) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      if (taken.has(m.index)) continue;
      const hex = m.groups!.hex;
      const ascii = m.groups!.ascii;
      const hexStart = m.index + m[0].indexOf(hex);
      const hexAt: number[] = [];
      const bytes: number[] = [];
      for (let i = 0; i < hex.length; ) {
        if (hex[i] === ' ') {
          i++;
          continue;
        }
        hexAt.push(hexStart + i);
        bytes.push(Number.parseInt(hex.slice(i, i + 2), 16));
        i += 2;
      }
      // The ASCII column shows one character a byte: its last bytes.length characters (xxd's may start with a blank).
      const bounded = re === CANONICAL || re === OD_Z;
      if (ascii.length < bytes.length && bounded) continue;
      const asciiEnd = m.index + m[0].replace(/\r$/, '').length - (bounded ? 1 : 0);
      const asciiAt = bytes.map((_, i) => asciiEnd - bytes.length + i);
      out.push({ hexAt, asciiAt, bytes, lineStart: m.index, lineEnd: m.index + m[0].length });
      taken.add(m.index);
    }
  }
  curlAsciiRows(text, taken, out);
  return out.sort((a, b) => a.lineStart - b.lineStart);
}

/** A dump under a name this long at most is read as one value (a secret's; a longer dump is a file's). */
const MAX_NAMED_DUMP_BYTES = 256;

/** The findings of `scan` in the bytes the dumps in `text` show, as ranges of `text`; `kindOfName`, a name's kind (named-encodings.ts). */
export function hexDumpFindings(text: string, out: SecretFinding[], scan: (t: string) => SecretFinding[], kindOfName?: KindOfName): void {
  const all = rows(text);
  for (let i = 0; i < all.length; ) {
    // A block: rows on consecutive lines.
    let j = i + 1;
    while (j < all.length && all[j].lineStart === all[j - 1].lineEnd + 1) j++;
    const block = all.slice(i, j);
    i = j;
    // Each byte's places and row, filled in typed arrays: a megabyte of `--trace-ascii` rows is ~900k bytes (a character each),
    // and three flatMaps over them took ~0.7 s.
    let count = 0;
    for (const r of block) count += r.bytes.length;
    const hexAt = new Int32Array(count);
    const asciiAt = new Int32Array(count);
    const rowOf = new Int32Array(count);
    for (let r = 0, k = 0; r < block.length; r++) {
      for (let c = 0; c < block[r].bytes.length; c++, k++) {
        hexAt[k] = block[r].hexAt[c];
        asciiAt[k] = block[r].asciiAt[c];
        rowOf[k] = r;
      }
    }
    // One UTF-16 unit per byte (an od field holding a character past U+FFFF counts as one), so a finding's offsets are byte indexes.
    const decoded = block.map((r) => r.bytes.map((c) => String.fromCharCode(c > 0xffff ? 0xfffd : c)).join('')).join('');
    const found = [...scan(decoded), ...utf16Findings(decoded, scan)];
    // A dump of a file that holds one made word and nothing else (`od -c ~/.vault-pass`, `xxd secret.txt`: adv76 F22): a
    // password file's whole content; no name says so, the dump of a one-word file does. The whole file: its first row's offset 0
    // and its line break last (a window of a longer file's first rows, `//registry.npmjs.org/:_authToken`, has none: adv76 L03).
    const word = /^(\S{10,128})\r?\n$/.exec(decoded);
    if (found.length === 0 && word && madeWord(word[1]) && !isLookAlike(word[1], true) && !word[1].includes('/') && text.startsWith('0000000', block[0].lineStart)) found.push({ start: 0, end: word[1].length, kind: 'password file' });
    // A made word under a secret's name on the line above the dump (`# od -c $DB_PASSWORD`, `API_SECRET bytes:`: adv107 F04, F37).
    else if (found.length === 0 && kindOfName && decoded.length <= MAX_NAMED_DUMP_BYTES) {
      const kind = encodedValueKind(text, block[0].lineStart, block[block.length - 1].lineEnd, decoded, kindOfName, false);
      if (kind !== undefined) found.push({ start: 0, end: decoded.replace(/\r?\n$/, '').length, kind });
    }
    for (const f of found) {
      // Each row's piece is remembered for the session (byContext), whatever found the secret: a read's status line shows the
      // dump's last row alone (`last: "00000020: 7347 5265 …  sGReDs12."`: adv48 F29), where no bytes around it say what it is.
      // Row by row: the finding's hex digits (blanks between them included) and its ASCII characters; an od row's fields.
      for (let b = f.start; b < f.end; ) {
        if (hexAt[b] === UNSHOWN) {
          b++;
          continue;
        }
        const od = block[rowOf[b]].od === true;
        let e = b + 1;
        while (e < f.end && rowOf[e] === rowOf[b] && hexAt[e] !== UNSHOWN) e++;
        const width = block[rowOf[b]].fieldWidth;
        if (block[rowOf[b]].charsOnly) out.push({ start: asciiAt[b], end: asciiAt[e - 1] + 1, kind: f.kind, byContext: true });
        else if (width !== undefined) {
          // od -x's bytes are in reverse order within a field: the piece spans the fields its bytes are in.
          const first = Math.min(...hexAt.slice(b, e));
          const last = Math.max(...hexAt.slice(b, e));
          out.push({ start: first, end: last + width, kind: f.kind, byContext: true });
        } else if (od) out.push({ start: hexAt[b], end: fieldEnd(text, hexAt[e - 1]), kind: f.kind, byContext: true });
        else {
          out.push({ start: hexAt[b], end: hexAt[e - 1] + 2, kind: f.kind, byContext: true });
          out.push({ start: asciiAt[b], end: asciiAt[e - 1] + 1, kind: f.kind, byContext: true });
        }
        b = e;
      }
    }
  }
}

/** Fewer UTF-16 characters than this: not read as UTF-16 (a token's shortest text). */
const MIN_UTF16_CHARS = 16;

/**
 * A dump of UTF-16LE text (a Windows `web.config`, a `.reg` export, PowerShell's redirection: `P.a.s.s.w.o.r.d.=.` in the
 * ASCII column, adv56 F33): when most bytes at odd offsets are NUL, the bytes are read two at a time and scanned again; what is
 * found is given back as byte offsets (each character's two bytes).
 */
function utf16Findings(bytes: string, scan: (t: string) => SecretFinding[]): SecretFinding[] {
  const half = bytes.length >> 1;
  if (half < MIN_UTF16_CHARS) return [];
  let zeros = 0;
  for (let i = 1; i < bytes.length; i += 2) if (bytes.charCodeAt(i) === 0) zeros++;
  // Three in four (a line of CJK text has no NUL high bytes; ASCII text in UTF-16 has them all).
  if (zeros * 4 < half * 3) return [];
  let text = '';
  for (let i = 0; i + 1 < bytes.length; i += 2) text += String.fromCharCode(bytes.charCodeAt(i) | (bytes.charCodeAt(i + 1) << 8));
  return scan(text).map((f) => ({ ...f, start: 2 * f.start, end: Math.min(2 * f.end, bytes.length) }));
}

/**
 * The gate of od -c dumps without offsets (`od -An -c`): their `  \n`. Needles whose first character is rare (a backslash): V8
 * finds them with a fast search, where `  \n` alone would stop at every blank. Rows with an offset at a line's start (`0000…`:
 * a file under 256 MB; a window that starts mid-dump, `xxd -s 16`, has `00000010: `) are found by the scanner's one pass
 * (its `0000` keyword), not by a search of their own.
 */
export const mayHoldOdDump = (text: string): boolean => text.includes('\\n') && text.includes('  \\n');

/**
 * An offset-less od row's first four fields at a line's start (sticky): numbers (`od -An -tx1`), or od -c's characters (`od -An
 * -c` of a value with no line break, so no `  \n` opens mayHoldOdDump: adv110 F02).
 */
const BARE_OD_ROW_AT = / [0-9a-f]{2,4} [0-9a-f]{2,4} [0-9a-f]{2,4} [0-9a-f]{2,4}|(?: {3}[^ \n]| [0-7]{3}){4}/y;

/**
 * The gate of od's numeric rows without offsets (`od -An -tx1`): a line that starts with four of them. Each indented line is
 * tried once (a search for a line break and a blank, then a sticky match).
 */
export function mayHoldBareOdRows(text: string, bytes?: Buffer): boolean {
  if (text.charCodeAt(0) === 0x20 && bareOdRowAt(text, 0)) return true;
  for (let nl = indexOfAscii(text, bytes, '\n '); nl >= 0; nl = indexOfAscii(text, bytes, '\n ', nl + 1)) if (bareOdRowAt(text, nl + 1)) return true;
  return false;
}

function bareOdRowAt(text: string, at: number): boolean {
  BARE_OD_ROW_AT.lastIndex = at;
  return BARE_OD_ROW_AT.test(text);
}

/** The end of the od field at `at` (four characters; five for a character past U+FFFF). */
function fieldEnd(text: string, at: number): number {
  return (text.codePointAt(at + 3) ?? 0) > 0xffff ? at + 5 : at + 4;
}

/**
 * Text written as its bytes or code units, one number or escape a character, where no rule reads a secret:
 * - a list of numbers: journald's JSON output (`journalctl -o json`) writes a field that is not valid UTF-8 or holds control
 *   characters — a coloured log line, `\e[36mINFO\e[0m connecting to postgres://shop:…@db` — as `"MESSAGE":[27,91,51,…]`
 *   (adv18 F19); Node's `Buffer.toJSON()` prints `{"type":"Buffer","data":[…]}`; delve prints a `[]uint8` as
 *   `[103,104,112,…]`, Go's fmt `[103 104 112 …]`, Python's `list(b…)` and Rust's `{:?}` `[103, 104, …]`, Java's
 *   `Arrays.toString` signed bytes `[103, -12, …]` (adv56 F17); `xxd -i` a C array over lines, `0x73, 0x6b, …` (adv56 F37);
 *   Node's `<Buffer 67 68 70 …>` (adv59 F40);
 * - a string of escapes: `strace -xx` writes every byte read as `\x4e` (adv56 F10), Python's bytes repr the non-ASCII ones,
 *   a JSON encoder every character as `\u0067` (adv56 F34), C and strace without `-x` octal `\123`.
 * The bytes are decoded (one character a number or escape), read without their terminal escape sequences, and what is
 * found is mapped back to the numbers or escapes that spell it, line by line (a C array keeps its rows). Hand-written: each
 * form is a fixed notation with no parser on the registry that maps its output back to the source's offsets.
 */
import type { SecretFinding } from './finding.js';
import { rangeInText, withoutEscapes } from './escapes.js';
import { encodedValueKind, type KindOfName } from './named-encodings.js';

/**
 * Fewer numbers or escapes than this: not decoded (16: a token's shortest text; a list of a few numbers is a version, a date,
 * coordinates).
 */
const MIN_UNITS = 16;
/**
 * Fewer, down to this many, under a name that says secret on the list's line (`const api_key = [_]u8{ 68, 107, … }` of 14 bytes,
 * `DB_PASSWORD=$(printf '\172\122…')`, `"api_token": "\u0052\u0063…"`: adv69): the name's value whole. 8: a password's shortest.
 */
const MIN_NAMED_UNITS = 8;
/** The same list read from its `[` only (sticky): each `[` before a digit or a `-` is tried (a regex's own search cost 5% of masking). */
const DECIMAL_LIST_AT = /\[(?<bytes>-?\d{1,3}(?:(?:,[ \t]?|[ \t])-?\d{1,3}){7,262143})[ \t]*\]/y;
/**
 * Characters quoted one by one, separated by commas, from the first quote to the last (sticky, at the quote): in single quotes
 * (Python's repr, Java's chars) or double (JSON's: `json.dumps(list(…))`, Ruby's `chars.inspect`: adv110 F07).
 */
const CHAR_LIST_AT: Record<string, RegExp> = {
  "'": /'(?:[^'\\\n]|\\.)'(?:[ \t]*,[ \t]*'(?:[^'\\\n]|\\.)'){7,4095}/y,
  '"': /"(?:[^"\\\n]|\\.)"(?:[ \t]*,[ \t]*"(?:[^"\\\n]|\\.)"){7,4095}/y,
};
/** A list of decimal bytes in braces (Zig's `[_]u8{ 68, 107, … }`, C's `= {72, 117, …}`, C#'s `new byte[] { … }`): read under a name only. */
const DECIMAL_BRACE_AT = /\{[ \t]*(?<bytes>\d{1,3}(?:,[ \t]*\d{1,3}){7,262143})[ \t]*(?:,[ \t]*)?\}/y;
/** `0x`-prefixed bytes separated by commas, over lines (`xxd -i`, a C or Rust array literal). */
// One way to match each gap (blanks, then a line break and the next row's indent): blanks that two `[ \t]*` could share were
// split every way before a failed 0x (exponential).
const HEX_LIST = /0x[0-9a-fA-F]{2}(?:,[ \t]*(?:\r?\n[ \t]*)?0x[0-9a-fA-F]{2}){7,262143}/y;
const LETTER_ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '0': '\0', '"': '"', "'": "'", '\\': '\\', '/': '/' };

/** Decoded units and, for each, where it is written in the text: what the three forms hand to one reader. */
interface Spelled {
  decoded: string;
  starts: number[];
  ends: number[];
}

/** The secrets `scan` finds in a decoded text, pushed as the ranges that spell them, split where the spelling crosses a line. */
function mapBack(text: string, s: Spelled, out: SecretFinding[], scan: (t: string) => SecretFinding[]): void {
  const u = withoutEscapes(s.decoded);
  for (const f of scan(u?.plain ?? s.decoded)) {
    const { start, end } = u ? rangeInText(u, f.start, f.end) : f;
    for (let b = start; b < end; ) {
      let e = b + 1;
      while (e < end && !breakBetween(text, s.ends[e - 1], s.starts[e])) e++;
      out.push({ start: s.starts[b], end: s.ends[e - 1], kind: f.kind, byContext: f.byContext });
      b = e;
    }
  }
}

/** A list's numbers under a secret's name, masked row by row (a C array's rows stay on their lines: `xxd -i`). */
function pushRows(text: string, s: Spelled, kind: string, out: SecretFinding[]): void {
  for (let b = 0; b < s.starts.length; ) {
    let e = b + 1;
    while (e < s.starts.length && !breakBetween(text, s.ends[e - 1], s.starts[e])) e++;
    out.push({ start: s.starts[b], end: s.ends[e - 1], kind, byContext: true });
    b = e;
  }
}

/** Is there a line break in text[from, to) (the gap between two units: `, `, `,\n  `)? */
function breakBetween(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 0x0a) return true;
  return false;
}

/** One quoted character of a list, its escape's letter (sticky-free: matched over the list), by its quote. */
const QUOTED_CHAR: Record<string, RegExp> = { "'": /'((?:[^'\\\n]|\\.))'/g, '"': /"((?:[^"\\\n]|\\.))"/g };

/** The characters of a list quoted one by one (`['n', 'p', '\\n', …]`) in text[at, at + list.length). */
function charListUnits(list: string, at: number): Spelled {
  const s: Spelled = { decoded: '', starts: [], ends: [] };
  const parts: string[] = [];
  for (const c of list.matchAll(QUOTED_CHAR[list[0]])) {
    const u = c[1];
    parts.push(u.length === 2 ? (LETTER_ESCAPES[u[1]] ?? u[1]) : u);
    s.starts.push(at + c.index! + 1);
    s.ends.push(at + c.index! + 1 + u.length);
  }
  s.decoded = parts.join('');
  return s;
}

/** The numbers of a list in text[at, at + list.length), as bytes (16: `0x67`; 'hex': bare `67`); undefined when one is no byte. */
function listBytes(list: string, at: number, radix: 10 | 16 | 'hex'): Spelled | undefined {
  const s: Spelled = { decoded: '', starts: [], ends: [] };
  const codes: number[] = [];
  for (const n of list.matchAll(radix === 16 ? /0x([0-9a-fA-F]{2})/g : radix === 'hex' ? /([0-9a-f]{2})/g : /-?\d+/g)) {
    let b = radix === 10 ? Number(n[0]) : Number.parseInt(n[1], 16);
    if (b < 0) b += 256;
    if (b < 0 || b > 255) return undefined;
    s.starts.push(at + n.index);
    s.ends.push(at + n.index + n[0].length);
    codes.push(b);
  }
  s.decoded = Buffer.from(codes).toString('latin1');
  return s;
}

/**
 * A name on a list's line before it, followed by a separator (`network_key: [`, `"psk" = [`, Go's `HMACKey:[]uint8{`, C's
 * `psk[] = {`, Zig's `api_key = [_]u8{` and `token: [12]u8 = .{`, Rust's `key: [u8; 12] = [`, `pw = new byte[] {`, a shell's
 * `=$(printf '`, `=$'`); the last such name that says secret is the list's (`signer.go:58: signing secret=[42 42 …]`: adv71 F17).
 */
// (Or a setter's name before its call: ESPHome's generated `api_apiserver_id->set_noise_psk({166, 246, …})`: pass 278 F10.)
const NAME_BEFORE_SEPARATOR = /[A-Za-z_][\w.-]{0,63}(?=["']?[ \t]*(?:\[\w{0,64}\][ \t]*)?[:=]|\()/g;
/**
 * What may stand between a list's name and its first byte: a separator, blanks, brackets (a size's constant too:
 * `k_rgubEncryptedAppTicketKey[k_nSteamEncryptedAppTicketSymmetricKeyLen] = {`: pass 239 F5), a type's or a call's words.
 */
const TYPE_BETWEEN = /^(?:["']?[ \t]*(?:\[\w{0,64}\][ \t]*)?[:=]|\()[ \t\w.;:=$'"()[\]{}<>*&]*$/;
const BLANKS = /^[ \t]*$/;
/** `Buffer.toJSON()`'s head before its bytes (JSON.stringify's, no blanks), at a list's line's end. */
const BUFFER_AS_JSON = /\{"type":"Buffer","data":\[$/;
/** Characters of a list's line read back for its name (a C declaration with a long size constant is ~100). */
const MAX_NAME_BEFORE_LIST = 160;

/** The kind of the secret a list's name says (`kindOfName`), the list starting at `at` (its opening included in text[…at)). */
function nameKind(text: string, at: number, kindOfName: ((name: string) => string | undefined) | undefined): string | undefined {
  if (!kindOfName) return undefined;
  // The line's last characters before the list (bounded: a megabyte line of lists is not read back to its start for each).
  const before = text.slice(Math.max(0, at - MAX_NAME_BEFORE_LIST), at);
  let line = before.slice(before.lastIndexOf('\n') + 1);
  // A list whose bytes start on the line after its opening (`static const unsigned char hmac_key[16] = {` then the rows:
  // adv71 F15): the line above.
  if (BLANKS.test(line) && before.lastIndexOf('\n') > 0) {
    const above = before.slice(0, before.lastIndexOf('\n')).replace(/\r$/, '');
    line = above.slice(above.lastIndexOf('\n') + 1);
  }
  // Node's Buffer as JSON is an object between its name and its bytes (`"apiSecret":{"type":"Buffer","data":[`: adv107 F50).
  line = line.replace(BUFFER_AS_JSON, '');
  let kind: string | undefined;
  for (const m of line.matchAll(NAME_BEFORE_SEPARATOR)) {
    const k = kindOfName(m[0]);
    if (k !== undefined && TYPE_BETWEEN.test(line.slice(m.index + m[0].length))) kind = k;
  }
  return kind;
}

/**
 * The secrets in `text`'s lists of bytes, each as the ranges of the numbers that spell it; `scan` reads the decoded text. A
 * list of random bytes decodes to nothing a rule reads: one under a name that says secret (`network_key: [4, 98, 170, …]` of
 * zigbee2mqtt's configuration: adv59 F25) is the name's value whole (`kindOfName`: the name's kind, or undefined).
 */
/** `hexLists`: the text may hold `0x` (the caller's keyword pass saw it): a search for it costs a reply of build log ~1%. */
export function byteArrayFindings(text: string, out: SecretFinding[], scan: (t: string) => SecretFinding[], kindOfName?: (name: string) => string | undefined, hexLists = true): void {
  // A bracketed list of numbers of one to three digits (a signed byte's `-`), separated by `,`, `, ` or blanks.
  for (let i = text.indexOf('['); i >= 0; i = text.indexOf('[', i + 1)) {
    const c = text.charCodeAt(i + 1);
    if (!((c >= 0x30 && c <= 0x39) || c === 0x2d)) continue;
    DECIMAL_LIST_AT.lastIndex = i;
    const m = DECIMAL_LIST_AT.exec(text);
    if (!m) continue;
    const s = listBytes(m.groups!.bytes, i + 1, 10);
    if (s) {
      const kind = nameKind(text, i + 1, kindOfName);
      if (kind !== undefined) pushRows(text, s, kind, out);
      else {
        const before = out.length;
        if (s.starts.length >= MIN_UNITS) mapBack(text, s, out, scan);
        // A made word with a secret's name near it (the line above: `>>> list(os.environ["API_TOKEN"].encode())`).
        const near = out.length === before && kindOfName ? encodedValueKind(text, i, i + m[0].length, s.decoded, kindOfName, true) : undefined;
        if (near !== undefined) pushRows(text, s, near, out);
      }
    }
    i += m[0].length - 1;
  }
  // Characters one by one under a name (Java's `char[] KEYSTORE_PASS = { 'M', 'Z', … }`, Python's `list('…')`: adv71 F23).
  // Found from their `{` and `[` (a quote right after, or after a blank): a text has several times as many quotes as those.
  if (kindOfName) for (const opener of ['{', '[']) {
    for (let at = text.indexOf(opener); at >= 0; at = text.indexOf(opener, at + 1)) {
      const i = text.charCodeAt(at + 1) === 0x20 ? at + 2 : at + 1;
      const quote = text[i];
      if (quote !== "'" && quote !== '"') continue;
      CHAR_LIST_AT[quote].lastIndex = i;
      const m = CHAR_LIST_AT[quote].exec(text);
      if (!m) continue;
      const kind = nameKind(text, at + 1, kindOfName);
      if (kind !== undefined) out.push({ start: i + 1, end: i + m[0].length - 1, kind, byContext: true });
      else {
        // Decoded and read (Python's `list(os.environ["NPM_TOKEN"])`, its name on the command's line above: adv107 F47); a made
        // word with a secret's name near it, whole.
        const s = charListUnits(m[0], i);
        const before = out.length;
        if (s.starts.length >= MIN_UNITS) mapBack(text, s, out, scan);
        const near = out.length === before ? encodedValueKind(text, i, i + m[0].length, s.decoded, kindOfName, true) : undefined;
        if (near !== undefined) out.push({ start: i + 1, end: i + m[0].length - 1, kind: near, byContext: true });
      }
      at = i + m[0].length - 1;
    }
  }
  // Decimal bytes in braces: under a name only (a list in braces of a few numbers is any language's data).
  if (kindOfName) {
    for (let i = text.indexOf('{'); i >= 0; i = text.indexOf('{', i + 1)) {
      let d = i + 1;
      while (text.charCodeAt(d) === 0x20 || text.charCodeAt(d) === 0x09) d++;
      const c = text.charCodeAt(d);
      if (!(c >= 0x30 && c <= 0x39)) continue;
      DECIMAL_BRACE_AT.lastIndex = i;
      const m = DECIMAL_BRACE_AT.exec(text);
      if (!m) continue;
      const kind = nameKind(text, i + 1, kindOfName);
      const s = kind === undefined ? undefined : listBytes(m.groups!.bytes, i + m[0].indexOf(m.groups!.bytes), 10);
      if (s) pushRows(text, s, kind!, out);
      i += m[0].length - 1;
    }
  }
  // Read from each `0x` that starts a byte and a comma (an address, `0x7ffd5c1e`, starts none).
  if (hexLists) for (let i = text.indexOf('0x'); i >= 0; i = text.indexOf('0x', i + 1)) {
    if (!(isHex(text.charCodeAt(i + 2)) && isHex(text.charCodeAt(i + 3)) && text.charCodeAt(i + 4) === 0x2c)) continue;
    HEX_LIST.lastIndex = i;
    const m = HEX_LIST.exec(text);
    if (!m) continue;
    const s = listBytes(m[0], i, 16)!;
    // Under a name that says secret, its type between (Go's `%#v`, `HMACKey:[]uint8{0xe8, …}`: adv65 F20; C's `psk[] = {`).
    const kind = nameKind(text, i, kindOfName);
    if (kind !== undefined) pushRows(text, s, kind, out);
    else if (s.starts.length >= MIN_UNITS) mapBack(text, s, out, scan);
    i += m[0].length - 1;
  }
  // Node's inspect of a Buffer: `<Buffer 67 68 70 …>` (50 bytes shown at most).
  for (let i = text.indexOf('<Buffer '); i >= 0; i = text.indexOf('<Buffer ', i + 1)) {
    NODE_BUFFER_AT.lastIndex = i;
    const m = NODE_BUFFER_AT.exec(text);
    if (!m) continue;
    // Under a name that says secret (`secret: <Buffer a3 b5 …>` of an HMAC key's random bytes: adv122 F17), the bytes whole.
    const bytes = listBytes(m[1], i + 7, 'hex')!;
    const kind = nameKind(text, i, kindOfName);
    if (kind !== undefined) pushRows(text, bytes, kind, out);
    else mapBack(text, bytes, out, scan);
  }
  escapedLines(text, out, scan, kindOfName);
}

/** `<Buffer` and 16 or more bytes in hex, each after a blank (sticky: tried at each `<Buffer `). */
const NODE_BUFFER_AT = /<Buffer((?: [0-9a-f]{2}){16,50})/y;

/**
 * Each line holding a run of MIN_UNITS escapes, decoded whole (the characters written as they are kept: a JSON key
 * outside the escaped value, `read(21, "` before strace's string) and scanned, so a name before the escaped value counts.
 */
function escapedLines(text: string, out: SecretFinding[], scan: (t: string) => SecretFinding[], kindOfName?: (name: string) => string | undefined): void {
  for (let i = text.indexOf('\\'); i >= 0; ) {
    // A run of escapes from i: its length, escape by escape (a backslash is found by indexOf; most start no run).
    let at = i;
    let run = 0;
    for (let w = escapeWidth(text, at); w > 0 && run < MIN_UNITS; w = escapeWidth(text, at)) {
      run++;
      at += w;
    }
    if (run < MIN_UNITS) {
      // A short run under a name that says secret: the name's value, when the escapes spell visible characters; or a made word
      // with a secret's name near it (named-encodings.ts).
      const kind = run >= MIN_NAMED_UNITS ? nameKind(text, i, kindOfName) ?? nearName(text, i, at, kindOfName) : undefined;
      if (kind !== undefined && visibleEscapes(text, i, at)) out.push({ start: i, end: at, kind, byContext: true });
      i = text.indexOf('\\', Math.max(at, i + 1));
      continue;
    }
    const before = out.length;
    const start = text.lastIndexOf('\n', i) + 1;
    const nl = text.indexOf('\n', i);
    const end = nl < 0 ? text.length : nl;
    const line = text.slice(start, end);
    const s: Spelled = { decoded: '', starts: [], ends: [] };
    const parts: string[] = [];
    for (let k = 0; k < line.length; ) {
      let ch = line[k];
      let w = 1;
      if (ch === '\\') {
        const byte = escapeWidth(line, k);
        if (byte > 0) {
          w = byte;
          ch = String.fromCharCode(escapeCode(line, k, byte));
        } else if (LETTER_ESCAPES[line[k + 1]] !== undefined) {
          w = 2;
          ch = LETTER_ESCAPES[line[k + 1]];
        }
      }
      parts.push(ch);
      s.starts.push(start + k);
      s.ends.push(start + k + w);
      k += w;
    }
    s.decoded = parts.join('');
    mapBack(text, s, out, scan);
    // Nothing found in the line: the run, a made word with a secret's name near it (`printf '\146\107…' > ~/.pgpass  # DB
    // password`: adv107 F44).
    if (out.length === before) {
      let runEnd = at;
      for (let w = escapeWidth(text, runEnd); w > 0 && runEnd - i < MAX_NAMED_RUN; w = escapeWidth(text, runEnd)) runEnd += w;
      const kind = nearName(text, i, runEnd, kindOfName);
      if (kind !== undefined && visibleEscapes(text, i, runEnd)) out.push({ start: i, end: runEnd, kind, byContext: true });
    }
    // The next line.
    i = nl < 0 ? -1 : text.indexOf('\\', nl);
  }
}

/** A run of escapes this long at most is read as a named value (a secret's; a longer run is a file's or a payload's). */
const MAX_NAMED_RUN = 1024;

/** The kind a secret's name near the escapes text[from, to) gives them, when they spell a made word (named-encodings.ts). */
function nearName(text: string, from: number, to: number, kindOfName: KindOfName | undefined): string | undefined {
  if (!kindOfName) return undefined;
  let decoded = '';
  for (let k = from; k < to; ) {
    const w = escapeWidth(text, k);
    decoded += String.fromCharCode(escapeCode(text, k, w));
    k += w;
  }
  return encodedValueKind(text, from, to, decoded, kindOfName, true);
}

/** Do the escapes in text[from, to) each spell a visible ASCII character (a value's, not `\x00\x01` control bytes or `\u00e9` text)? */
function visibleEscapes(text: string, from: number, to: number): boolean {
  for (let k = from; k < to; ) {
    const w = escapeWidth(text, k);
    const code = escapeCode(text, k, w);
    if (code <= 0x20 || code >= 0x7f) return false;
    k += w;
  }
  return true;
}

const isHex = (c: number) => (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
const isOctal = (c: number) => c >= 0x30 && c <= 0x37;

/** The code the escape text[at, at + width) spells (escapeWidth's: `\x4e`, `\u0067`; an octal one as a byte, `\116`). */
function escapeCode(text: string, at: number, width: number): number {
  const c = text.charCodeAt(at + 1);
  return c === 0x78 || c === 0x75 ? Number.parseInt(text.slice(at + 2, at + width), 16) : Number.parseInt(text.slice(at + 1, at + width), 8) & 0xff;
}

/** The width of a byte or code-unit escape at text[i] (`\x4e` 4, `\u0067` 6, `\116` 4), 0 when none starts there. */
function escapeWidth(text: string, i: number): number {
  if (text.charCodeAt(i) !== 0x5c) return 0;
  const c = text.charCodeAt(i + 1);
  if (c === 0x78) return isHex(text.charCodeAt(i + 2)) && isHex(text.charCodeAt(i + 3)) ? 4 : 0;
  if (c === 0x75) return isHex(text.charCodeAt(i + 2)) && isHex(text.charCodeAt(i + 3)) && isHex(text.charCodeAt(i + 4)) && isHex(text.charCodeAt(i + 5)) ? 6 : 0;
  return isOctal(c) && isOctal(text.charCodeAt(i + 2)) && isOctal(text.charCodeAt(i + 3)) ? 4 : 0;
}

/** A line written with a blank after each character holds this many characters at least (a token's shortest text). */
const MIN_SPACED_CHARS = 16;

/**
 * Lines written with a blank after each character (`sed 's/./& /g' .env`: `N P M _ T O K E N = n p m _ h 1 5 9 …`, adv107 F07;
 * a blank of the line is three): read without them, what is found mapped back to its characters. Opened by a secret's name so
 * spelled (the scanner's gate words), every line of the text tried by its second and fourth characters.
 */
export function spacedLineFindings(text: string, out: SecretFinding[], scan: (t: string) => SecretFinding[]): void {
  for (let start = 0; start < text.length; ) {
    const nl = text.indexOf('\n', start);
    let end = nl < 0 ? text.length : nl;
    if (text.charCodeAt(end - 1) === 0x0d) end--;
    if (end - start >= 2 * MIN_SPACED_CHARS - 1 && text.charCodeAt(start + 1) === 0x20 && text.charCodeAt(start + 3) === 0x20) {
      let spaced = true;
      for (let k = start + 1; k < end && spaced; k += 2) spaced = text.charCodeAt(k) === 0x20;
      if (spaced) {
        let decoded = '';
        for (let k = start; k < end; k += 2) decoded += text[k];
        for (const f of scan(decoded)) out.push({ start: start + 2 * f.start, end: start + 2 * (f.end - 1) + 1, kind: f.kind, byContext: f.byContext });
      }
    }
    if (nl < 0) break;
    start = nl + 1;
  }
}

/**
 * Private key blocks as mish shows them: whole, cut by a capped reply or a read_raw page (BEGIN
 * without END, END without BEGIN), with line numbers or indentation in front of each line, a small
 * EC key ("MHc…"), a block whose middle the squasher folded, and a key printed on one line with
 * literal `\n` escapes (printf '%s', JSON's "private_key": "-----BEGIN…\n…"). Masked from BEGIN
 * forward over body lines (to END when it is there), and from END backward over the body lines
 * before it. Walked line by line, not by one regex, so a long run of base64 lines costs linear
 * time. A page that starts and ends inside a block (no armour line at all) is the stateful
 * masker's job (stream-masker.ts), which knows where the blocks of a command's output are.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import type { SecretFinding } from './finding.js';

const KIND = 'private key';
/** A private key's file by its name: OpenSSH's `id_<type>`, a `.key`, a `.pem` named as a private key, PuTTY's `.ppk`. */
// (Not a `.pem` named as a public key's: `public-key.pem`, `jwt-pubkey.pem`.)
export const PRIVATE_KEY_FILE = /(?:^|\/)(?:id_(?:rsa|ed25519|ecdsa|dsa)|[^/]+\.key|(?![^/]*pub)[^/]*(?:private|priv|key)[^/]*\.pem|[^/]+\.ppk)$/i;
/**
 * A line's gutter as mish shows lines: indentation (sh_spawn's tail) or a line number (`12│ `, read_raw); or a number a program
 * put before each line (`cat -n`'s tab, awk's `printf "%4d  %s"`: two blanks and up; adv126 F47).
 */
const GUTTER = /^[ \t]*(?:\d+(?:[│|:] ?|\t| {2,}))?[ \t]*/;
/**
 * Mish's own gutter only (indentation, `12│ `): what stands before an armour line beyond it is a tool's prefix the stream strips
 * from the block's every line (toolLinePrefix: `cat -n`'s growing numbers are read as one shape of prefix there).
 */
const MISH_GUTTER = /^[ \t]*(?:\d+[│|:] ?)?[ \t]*/;
export const BASE64_LINE = /^[A-Za-z0-9+/=]+$/;
/** What a key block's armour names: a private key (PEM, OpenSSH, PGP), or an OpenVPN static key (`<tls-auth>`, `<tls-crypt>`: a shared secret in hex lines). */
export const KEY_LABEL = '(?:[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?|OpenVPN Static key V1)';
export const PEM_BEGIN = new RegExp(`-----BEGIN ?${KEY_LABEL}-----`, 'g');
export const PEM_END = new RegExp(`-----END ?${KEY_LABEL}-----`, 'g');
const PEM_END_AT_START = new RegExp(`^-----END ?${KEY_LABEL}-----`);
/** PEM body lines are 64 (or 70) chars; shorter ones are taken only as a block's last line. */
export const MIN_BODY_LINE = 16;
/** A line continued in a Java `.properties` value (`…\n\` at its end: the key's line break written out, then the continuation). */
const CONTINUED = /(?:\\n)?\\$/;
/** `cat -A` / `cat -e`'s end of line (`$`, and `^M` before it for a CRLF file: adv38 F47): no part of a body line. */
export const SHOWN_LINE_END = /(?:\^M)?\$$/;
/**
 * What a tool writes in front of every line it passes on, when the armour line does not start its line: grep's `file:` on
 * the match and `file-` on the context lines after it, journalctl's `Mar 11 09:12:31 host unit[812]: ` (adv38 F46, F48),
 * compose's `web-1  | `. A body line must carry a prefix of the same length and shape (digits may differ, as a timestamp's
 * do, and its last character, as grep's separator does) to be read as the key's.
 */
const MAX_LINE_PREFIX = 160;
/** A block on one line with `\n` (or `\\n`, `\r\n`) escapes between its lines, up to its END or the end of its base64. */
const ESCAPED_BLOCK = new RegExp(`-----BEGIN ?${KEY_LABEL}-----(?:\\\\\\\\?[rn]|[A-Za-z0-9+/=: ,-](?!----))*(?:-----END ?${KEY_LABEL}-----)?`, 'g');

/**
 * A key's line as one quoted piece of a string split at its line breaks: pprint's `'MIIEvQ…\n'` under `'private_key':
 * '-----BEGIN PRIVATE KEY-----\n'` (adv122 F03), a literal concatenated over lines (`"…\n" +`). Its body, or its END armour.
 */
const QUOTED_CHUNK = new RegExp(`^(['"])([A-Za-z0-9+/=]+|-----END ?${KEY_LABEL}-----)(?:\\\\n)?\\1[ \\t]*[+,)]?[ \\t]*$`);

/** A key's shown line without its quoted piece's wrapping (QUOTED_CHUNK), for the stream's line-by-line reading. */
export function unquotedKeyLine(body: string): string {
  const chunk = QUOTED_CHUNK.exec(body);
  return chunk ? chunk[2] : body;
}

/** An OpenPGP armour's checksum line: `=` and the CRC-24 in base64 (RFC 4880 §6.1), between the body's last line and END. */
const PGP_CHECKSUM = /^=[A-Za-z0-9+/]{4}$/;

/** Does `l` (the line after a short one) end the body: END, or an OpenPGP checksum with END after it (`lineAt` reads a line)? */
function lastBodyLineBefore(l: { body: string; next: number }, lineAt: (from: number) => { body: string }): boolean {
  if (PEM_END_AT_START.test(l.body)) return true;
  return PGP_CHECKSUM.test(l.body) && l.next >= 0 && PEM_END_AT_START.test(lineAt(l.next).body);
}

/** A block on one line with blanks between its lines (`echo $KEY` unquoted: adv108 F47): ESCAPED_BLOCK reads it too. */
const SPACED_ARMOUR = new RegExp(`-----BEGIN ?${KEY_LABEL}----- [A-Za-z0-9+/]`);

export function privateKeyBlocks(text: string): SecretFinding[] {
  const out: SecretFinding[] = [];
  const lineAt = (from: number, prefix?: string) => {
    const nl = text.indexOf('\n', from);
    const end = nl < 0 ? text.length : nl;
    let raw = text.slice(from, end).replace(/\r$/, '');
    let skip = 0;
    const shaped = prefix ? shapePrefixLength(raw, prefix) : 0;
    if (prefix && shaped > 0) {
      skip = shaped;
      raw = raw.slice(skip);
      // The prefix opened a string on each line (jq's array of a key's lines: `  "MIGH…",`, adv127 F29): its closing quote goes too.
      const quote = prefix[prefix.length - 1];
      const chunk = (quote === '"' || quote === "'") && QUOTED_CHUNK.exec(quote + raw.replace(/\r$/, ''));
      if (chunk) return { start: from + skip, body: chunk[2], next: nl < 0 ? -1 : nl + 1 };
    }
    const gutter = skip ? 0 : GUTTER.exec(raw)![0].length;
    const body = raw.slice(gutter).replace(SHOWN_LINE_END, '').replace(CONTINUED, '');
    // A line of a string a program's printer split at each `\n` (Python's pprint: `'<line>\n'`; a JS or Java literal `"…\n" +`).
    const chunk = QUOTED_CHUNK.exec(body);
    if (chunk) return { start: from + skip + gutter + 1, body: chunk[2], next: nl < 0 ? -1 : nl + 1 };
    return { start: from + skip + gutter, body, next: nl < 0 ? -1 : nl + 1 };
  };
  PEM_BEGIN.lastIndex = 0;
  for (let m = PEM_BEGIN.exec(text); m; m = PEM_BEGIN.exec(text)) {
    let end = m.index + m[0].length;
    const prefix = linePrefix(text, m.index);
    const nl = text.indexOf('\n', end);
    // An OpenPGP armour's blank line ends its headers, and stands right after BEGIN when it has none (RFC 4880 §6.2: adv57 F50).
    let afterHeader = true;
    for (let at = nl < 0 ? -1 : nl + 1; at >= 0 && at < text.length; ) {
      const l = lineAt(at, prefix);
      const close = PEM_END_AT_START.exec(l.body);
      if (close) {
        end = l.start + close[0].length;
        break;
      }
      // RFC 1421's encrypted form: `Proc-Type:` / `DEK-Info:` headers, a blank line, then the body (adv26 F50).
      if (afterHeader && l.body.trim() === '') {
        afterHeader = false;
        at = l.next;
        continue;
      }
      // A blank line between body lines: a YAML scalar folded in quotes (PyYAML's `yq -y` of a `key: |` block writes the key as
      // `'-----BEGIN…` with a blank line after each line: adv126 F49): the block goes on when a body line or its END follows.
      if (l.body.trim() === '' && l.next >= 0) {
        const after = lineAt(l.next, prefix);
        if (PEM_END_AT_START.test(after.body) || (after.body.length >= MIN_BODY_LINE && BASE64_LINE.test(after.body))) {
          at = l.next;
          continue;
        }
      }
      const header = /^[A-Za-z-]+: \S/.test(l.body);
      afterHeader = header;
      // A short line is the body's last: END after it, or an OpenPGP armour's checksum (`=7FlU`, RFC 4880 §6.1) then END.
      const short = l.body.length < MIN_BODY_LINE && !(l.next >= 0 && lastBodyLineBefore(lineAt(l.next, prefix), (from) => lineAt(from, prefix)));
      if (!header && (!BASE64_LINE.test(l.body) || short)) break;
      end = l.start + l.body.length;
      at = l.next;
    }
    out.push({ start: m.index, end, kind: KIND });
  }
  PEM_END.lastIndex = 0;
  for (let m = PEM_END.exec(text); m; m = PEM_END.exec(text)) {
    // A block on one line with blanks between its lines, read from its END back (the squasher cut the line: its BEGIN is gone).
    if (text.charCodeAt(m.index - 1) === 0x20) {
      const from = spacedBodyStart(text, m.index - 1);
      if (from < m.index - 1) out.push({ start: from, end: m.index + m[0].length, kind: KIND });
    }
    let start = -1;
    // The line read last was the one right before END (atChecksum), and its body (lastBody).
    let atChecksum = false;
    let lastBody = '';
    const prefix = linePrefix(text, m.index);
    for (let lineStart = text.lastIndexOf('\n', m.index - 1) + 1; lineStart > 0; ) {
      const prevStart = text.lastIndexOf('\n', lineStart - 2) + 1;
      const l = lineAt(prevStart, prefix);
      // Any length right before END (a body's last line is short), and right before an OpenPGP checksum line right before END;
      // full-length lines above them.
      if (!BASE64_LINE.test(l.body) || (start >= 0 && l.body.length < MIN_BODY_LINE && !(atChecksum && PGP_CHECKSUM.test(lastBody)))) break;
      atChecksum = start < 0;
      lastBody = l.body;
      start = l.start;
      lineStart = prevStart;
    }
    if (start >= 0) out.push({ start, end: m.index + m[0].length, kind: KIND });
  }
  if (text.includes('\\n') || SPACED_ARMOUR.test(text)) {
    ESCAPED_BLOCK.lastIndex = 0;
    for (let m = ESCAPED_BLOCK.exec(text); m; m = ESCAPED_BLOCK.exec(text)) out.push({ start: m.index, end: m.index + m[0].length, kind: KIND });
  }
  return out;
}

/**
 * Where the base64 words before `at` (a blank before an END armour) start, back along the line, each followed by one blank
 * (`… QH+24f…8 7+xZ…A== -----END PRIVATE KEY-----` of `echo $KEY`: adv108 F47): the word before END any length (the block's
 * last line), the others a body line's width (64, or 70); `at` when none is (prose before an armour is no key).
 */
function spacedBodyStart(text: string, at: number): number {
  let start = at;
  let lines = 0;
  for (let i = at, words = 0; i > 0 && text.charCodeAt(i) === 0x20 && words < MAX_SPACED_LINES; words++) {
    let w = i;
    while (w > 0 && i - w <= PEM_LINE_WIDE && isBase64Code(text.charCodeAt(w - 1))) w--;
    const width = i - w;
    if (width === 0 || (start < at && width !== PEM_LINE && width !== PEM_LINE_WIDE)) break;
    if (width === PEM_LINE || width === PEM_LINE_WIDE) lines++;
    start = w;
    i = w - 1;
  }
  return lines > 0 ? start : at;
}
/** Body lines read back from an END (a 8192-bit RSA key has ~100). */
const MAX_SPACED_LINES = 128;
/** A PEM body line's width (RFC 7468), and the 70 of some writers. */
const PEM_LINE = 64;
const PEM_LINE_WIDE = 70;

const isBase64Code = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2f || c === 0x3d;

/** What stands before `at` on its line when it is a tool's line prefix (not a gutter, not a string's opening quote), else undefined. */
function linePrefix(text: string, at: number): string | undefined {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  return at - lineStart > MAX_LINE_PREFIX ? undefined : toolLinePrefix(text.slice(lineStart, at));
}

/** `before` (what stands before an armour line on its line) when it is a tool's line prefix, not a gutter; else undefined. */
export function toolLinePrefix(before: string): string | undefined {
  // A diff's mark alone (`git show` of a deleted key: `------END PRIVATE KEY-----`, its body `-MIIE…`: adv44 F50).
  if (before === '-' || before === '+') return before;
  if (before.length < 2 || before.length > MAX_LINE_PREFIX) return undefined;
  return MISH_GUTTER.exec(before)![0].length === before.length ? undefined : before;
}

/**
 * The length of `line`'s prefix of `prefix`'s shape, 0 when it has none: `prefix`'s length and shape, the same but for digits and
 * the last character. A number padded with blanks to the right counts as its shape too (`cat -n`'s `     9\t` then `    10\t`,
 * journalctl's `Mar  9` then `Mar 10`: adv54 F23). A line number first and not padded may have grown by a digit (grep's `9-    `
 * then `10-    ` over a key's lines in `grep -n -A8`: 140 F49): that prefix is a character longer.
 */
export function shapePrefixLength(line: string, prefix: string): number {
  let grown = 0;
  if (isDigit(prefix.charCodeAt(0))) {
    let a = 0;
    let b = 0;
    while (isDigit(line.charCodeAt(a))) a++;
    while (isDigit(prefix.charCodeAt(b))) b++;
    if (a === b + 1 && a < line.length) grown = 1;
  }
  if (line.length <= prefix.length + grown) return 0;
  const last = prefix.length - 1;
  for (let i = 0; i < last; i++) {
    // The grown number's first digit is compared with itself: the rest of the line is read one character on.
    const a = line.charCodeAt(i + (grown && i > 0 ? 1 : 0));
    const b = prefix.charCodeAt(i);
    if (a !== b && !(isDigit(a) && isDigit(b)) && !(((a === 0x20 && isDigit(b)) || (b === 0x20 && isDigit(a))) && isDigit(line.charCodeAt(i + 1)))) return 0;
  }
  const sep = line[last + grown];
  return sep === prefix[last] || /[\s:|│-]/.test(sep) ? prefix.length + grown : 0;
}

/** Is `c` an ASCII digit's code? (Shared with the scanner.) */
export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * A private key's DER structure as base64 at a line's start: PKCS#1 RSA (`MIIEowIBAAKC…`), PKCS#8 RSA (`MII…ADANBgkqhkiG9w0BAQEFAASC`),
 * OpenSSH (`b3BlbnNzaC1rZXktdjE`: "openssh-key-v1"), SEC1 EC (`MHcCAQEE`), PKCS#8 Ed25519 (`MC4CAQAwBQYDK2VwBCIEI`), PKCS#8 EC
 * (`MIGHAgEAMBMGByqGSM49AgEG…`: P-256's, P-384's `MIG2AgEAMBAG…`; SPIRE's disk key manager's `keys.json`: pass 275 F18).
 */
const DER_KEY_START = /^(?:MII[A-Za-z0-9+/]{3}IBAAKC|MII[A-Za-z0-9+/]{3}IBADANBgkqhkiG9w0BAQEFAASC|b3BlbnNzaC1rZXktdjE|MHcCAQEE|MC4CAQAwBQYDK2VwBCIEI|MI[GH][A-Za-z0-9+/]{1,2}AgEAMB[AM]GByqGSM49AgEG)/;
/**
 * An RSA private key's public exponent (65537) then its private exponent's INTEGER header (`02 03 01 00 01 02 82` / `02 81`), as
 * base64 at each of its three alignments. Only a private key has the one after the other (in a certificate or a public key the
 * exponent ends its sequence), so a body line holding it is a key's on whatever line of the block a diff hunk or a page starts
 * (`git show` of a rotated key, the hunk inside the body: adv48 F48).
 */
export const RSA_PRIVATE_EXPONENT = /AgMBAAECg|IDAQABAo|CAwEAAQK[BC]/;
/** A DER start after a tool's line prefix (`+ echo MIIE…` of `bash -x`, docker's json-file log `{"log":"MIIE…\n",…}`: adv49 F44, F49). */
const DER_KEY_START_INSIDE = new RegExp(`(?<![A-Za-z0-9+/])(?:${DER_KEY_START.source.slice(1)})`);
/** A run of base64 at a line's position (a body line's, after its prefix). */
const BASE64_RUN_AT = /[A-Za-z0-9+/]+={0,2}/y;

/**
 * A key body each of whose lines a tool wrote behind the same prefix (and maybe text after it: the json-file log's `\n","stream":…`):
 * the line holding the DER start at `idx` of `raw` and the lines after it with a prefix of the same shape, each line's base64 run
 * masked and remembered. Returns the block's end.
 */
function prefixedBody(text: string, at: number, raw: string, idx: number, out: SecretFinding[]): number {
  const prefix = raw.slice(0, idx);
  if (prefix.length > MAX_LINE_PREFIX) return -1;
  BASE64_RUN_AT.lastIndex = idx;
  const run = BASE64_RUN_AT.exec(raw)![0];
  if (run.length < MIN_FULL_BODY_LINE) return -1;
  out.push({ start: at + idx, end: at + idx + run.length, kind: KIND, byContext: true });
  let blockEnd = at + idx + run.length;
  let next = text.indexOf('\n', at);
  for (let n = 0; n < MAX_BARE_KEY_LINES && next >= 0 && next + 1 < text.length; n++) {
    const lineStart = next + 1;
    next = text.indexOf('\n', lineStart);
    const line = text.slice(lineStart, next < 0 ? text.length : next);
    // The squasher's mark of the lines it left out (the body's middle, in a reply): the body goes on after it.
    if (OMITTED_LINES.test(line)) continue;
    const shaped = line.startsWith(prefix) ? prefix.length : shapePrefixLength(line, prefix);
    if (shaped === 0) break;
    BASE64_RUN_AT.lastIndex = shaped;
    const body = BASE64_RUN_AT.exec(line)?.[0];
    if (!body || body.length < 4) break;
    out.push({ start: lineStart + shaped, end: lineStart + shaped + body.length, kind: KIND, byContext: true });
    blockEnd = lineStart + shaped + body.length;
    if (body.length < MIN_FULL_BODY_LINE) break;
  }
  return blockEnd;
}

/** A full line of a wrapped key body (64 characters in PEM, 76 in some tools' base64); the block's last line may be shorter. */
const MIN_FULL_BODY_LINE = 40;
/** A unified diff's mark of a removed, added or unchanged line; a normal diff's `< ` / `> ` (`diff a b`: adv49 F50). */
const DIFF_MARK = /^(?:[-+ ]|[<>] )/;
/** The squasher's line in place of the lines it left out (`[... 8 lines omitted (lines 13-20): 0 errors, 0 warnings ...]`), the reply cap's (`[mish: lines 40-90 omitted …]`). */
const OMITTED_LINES = /^\[(?:\.\.\. [\d,]+ lines?|mish: lines [\d,]+-[\d,]+) omitted\b/;
/** A key's line as a string piece: quoted, its `\\n` written out, a `+` or `,` joining it to the next. */
const QUOTED_PIECE = /^(["'])([A-Za-z0-9+\/=]{4,})(?:\\n)?\1[ \t]*(?:[+,][ \t]*)?$/;
/** Lines of a bare key body read at most (a 16K-bit RSA key is ~200 lines of 64). */
const MAX_BARE_KEY_LINES = 256;

/**
 * A key's body printed without its armour (`grep -v -- ----- key.pem | head`, a key pasted into a variable without its
 * BEGIN / END lines: adv26 F49): a line that starts with a private key's DER structure, and the base64 lines after it.
 */
export function bareKeyBodies(text: string): SecretFinding[] {
  const out: SecretFinding[] = [];
  if (text.includes('diff --git ') || text.includes('--- a/') || text.includes('+++ b/')) keyFileHunks(text, out);
  let covered = -1;
  for (let at = 0; at < text.length; ) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    const raw = text.slice(at, end).replace(/\r$/, '');
    const gutter = GUTTER.exec(raw)![0].length;
    // A diff's line (`-MHcCAQEE…`, `+MHcCAQEE…`: `git diff -U0` of a rotated key shows no armour line: adv31 F03): its mark is no
    // part of the body, on this line or the lines after it.
    const mark = DIFF_MARK.exec(raw.slice(gutter));
    const diffMark = mark !== null && DER_KEY_START.test(raw.slice(gutter + mark[0].length).replace(/^["']/, ''));
    const first = at > covered ? bodyOf(raw, gutter, diffMark, true) : undefined;
    if (first && DER_KEY_START.test(raw.slice(first.at, first.at + first.length))) {
      // One finding a line, remembered for the session (byContext): a read's status line shows the last one apart (`last: "…"`).
      out.push({ start: at + first.at, end: at + first.at + first.length, kind: KIND, byContext: true });
      covered = at + first.at + first.length;
      let next = nl < 0 ? -1 : nl + 1;
      for (let n = 0; n < MAX_BARE_KEY_LINES && next >= 0 && next < text.length; n++) {
        const nl2 = text.indexOf('\n', next);
        const line = text.slice(next, nl2 < 0 ? text.length : nl2).replace(/\r$/, '');
        const b = bodyOf(line, GUTTER.exec(line)![0].length, diffMark, first.quoted);
        // The squasher's mark of lines it left out (the body's middle, in a reply): the body goes on after it.
        if (!b && OMITTED_LINES.test(line)) {
          next = nl2 < 0 ? -1 : nl2 + 1;
          continue;
        }
        if (!b) break;
        out.push({ start: next + b.at, end: next + b.at + b.length, kind: KIND, byContext: true });
        covered = next + b.at + b.length;
        next = nl2 < 0 ? -1 : nl2 + 1;
      }
    }
    else if (at > covered && raw.length - gutter >= MIN_FULL_BODY_LINE && RSA_PRIVATE_EXPONENT.test(raw)) covered = midBlock(text, at, end, raw, gutter, out);
    else if (at > covered && !first) {
      const inside = DER_KEY_START_INSIDE.exec(raw);
      if (inside && inside.index > gutter) covered = prefixedBody(text, at, raw, inside.index, out);
    }
    if (nl < 0) break;
    at = nl + 1;
  }
  return out;
}

/** A diff's line naming its file: `diff --git a/X b/X`, `--- a/X`, `+++ b/X`. */
const DIFF_FILE_LINE = /^(?:diff --git a\/(\S+) b\/\S+|--- a\/(\S+)|\+\+\+ b\/(\S+))[ \t]*\r?$/;
/** A hunk's line of base64 after its mark: a key's body line (16 characters and up). */
const HUNK_BODY_LINE = /^[-+ ]([A-Za-z0-9+/]{16,}={0,2})\r?$/;

/**
 * A diff of a private key's file (`git show HEAD -- config/jwt/private.pem`, `git log -p` of `deploy/id_ed25519`: adv52 F50): its
 * hunks' base64 lines are the key's body, whatever line of it a hunk starts on (no armour, no DER start in view).
 */
export function keyFileHunks(text: string, out: SecretFinding[]): void {
  let inKeyFile = false;
  for (let at = 0; at < text.length; ) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    const line = text.slice(at, end);
    const file = DIFF_FILE_LINE.exec(line);
    if (file) {
      const path = file[1] ?? file[2] ?? file[3];
      // `diff --git` starts a file's diff; its `---` / `+++` lines may name /dev/null on one side.
      if (line.startsWith('diff --git ')) inKeyFile = PRIVATE_KEY_FILE.test(path);
      else inKeyFile ||= PRIVATE_KEY_FILE.test(path);
    } else if (inKeyFile) {
      const body = HUNK_BODY_LINE.exec(line);
      if (body) out.push({ start: at + 1, end: at + 1 + body[1].length, kind: KIND, byContext: true });
    }
    if (nl < 0) break;
    at = nl + 1;
  }
}

/**
 * The body lines around a line that holds RSA_PRIVATE_EXPONENT (text[at, end), `raw` without its `\r`): the full base64 lines above
 * it and the body lines below it, each masked and remembered. Returns the block's end (nothing is found again before it).
 */
function midBlock(text: string, at: number, end: number, raw: string, gutter: number, out: SecretFinding[]): number {
  // A diff's `-` is no base64; its `+` is a mark where the rest is whole groups of four.
  const rest = raw.slice(gutter);
  const diffMark = rest[0] === '-' || (rest[0] === '+' && (rest.length - 1) % 4 === 0 && rest.length % 4 !== 0);
  const own = bodyOf(raw, gutter, diffMark, false);
  if (!own || own.length < MIN_FULL_BODY_LINE || !RSA_PRIVATE_EXPONENT.test(raw.slice(own.at, own.at + own.length))) return -1;
  const found: SecretFinding[] = [{ start: at + own.at, end: at + own.at + own.length, kind: KIND, byContext: true }];
  // Up: full lines only (a shorter line is no part of the block above).
  for (let n = 0, lineEnd = at - 1; n < MAX_BARE_KEY_LINES && lineEnd > 0; n++) {
    const lineStart = text.lastIndexOf('\n', lineEnd - 1) + 1;
    const line = text.slice(lineStart, lineEnd).replace(/\r$/, '');
    const b = bodyOf(line, GUTTER.exec(line)![0].length, diffMark, false);
    if (!b || b.length < MIN_FULL_BODY_LINE) break;
    found.push({ start: lineStart + b.at, end: lineStart + b.at + b.length, kind: KIND, byContext: true });
    lineEnd = lineStart - 1;
  }
  // Down: body lines to the first that is not one (the last may be short).
  let blockEnd = end;
  for (let n = 0, next = end + 1; n < MAX_BARE_KEY_LINES && next < text.length && text[next - 1] === '\n'; n++) {
    const nl = text.indexOf('\n', next);
    const line = text.slice(next, nl < 0 ? text.length : nl).replace(/\r$/, '');
    const b = bodyOf(line, GUTTER.exec(line)![0].length, diffMark, false);
    if (!b) break;
    found.push({ start: next + b.at, end: next + b.at + b.length, kind: KIND, byContext: true });
    blockEnd = next + b.at + b.length;
    if (nl < 0 || b.length < MIN_FULL_BODY_LINE) break;
    next = nl + 1;
  }
  out.push(...found);
  return blockEnd;
}

/**
 * A key body's line after its gutter (and a diff's mark): the base64 (a `.properties` continuation aside), or the inside of a
 * string piece a language printed the key's lines as (pprint's `'MIIE…\n'`, util.inspect's `'MIIE…\n' +`: adv30 F03, F17).
 */
function bodyOf(line: string, gutter: number, diffMark: boolean, quotedToo: boolean): { at: number; length: number; quoted: boolean } | undefined {
  let at = gutter;
  if (diffMark) at += DIFF_MARK.exec(line.slice(at))?.[0].length ?? 0;
  const rest = line.slice(at);
  const piece = quotedToo ? QUOTED_PIECE.exec(rest) : null;
  if (piece) return { at: at + 1, length: piece[2].length, quoted: true };
  const body = rest.replace(CONTINUED, '');
  return body.length > 0 && BASE64_LINE.test(body) ? { at, length: body.length, quoted: false } : undefined;
}

/**
 * A PEM body line alone on its line: 64 base64 characters, both cases and a digit (a sentence or a hash is not one); after a
 * compose service's prefix or not (`api-1    | `: its lines interleaved with another container's, adv108 F50).
 */
const LONE_BODY_LINE = /^(?:[\w.-]{1,64}[ \t]*\|[ \t])?(?<body>(?=[A-Za-z0-9+/]{0,63}[a-z])(?=[A-Za-z0-9+/]{0,63}[A-Z])(?=[A-Za-z0-9+/]{0,63}\d)[A-Za-z0-9+/]{64})\r?$/dgm;
/** A certificate's (or a public key's) armour: its body lines are no secret's. */
const PUBLIC_ARMOUR = /-----(BEGIN|END) (?:[A-Z0-9 ]*CERTIFICATE(?: REQUEST)?|[A-Z0-9 ]*PUBLIC KEY)-----/g;

/**
 * Body lines of a private key scattered among other lines (`env | sort` of a variable holding a PEM key: its lines sorted among
 * the other variables, a lone one between `DEPLOY_HOST=…` and `HOME=…`: adv101 F21), in a text where a private key was found:
 * every line of 64 base64 characters outside a certificate's or a public key's block. Remembered for the session (byContext),
 * so a read of the line alone shows it masked.
 */
export function loneKeyLines(text: string, out: SecretFinding[]): void {
  // The spans of public blocks (from BEGIN to its END, or to the text's end when cut).
  const publicSpans: [number, number][] = [];
  PUBLIC_ARMOUR.lastIndex = 0;
  for (let m = PUBLIC_ARMOUR.exec(text); m; m = PUBLIC_ARMOUR.exec(text)) {
    if (m[1] === 'BEGIN') publicSpans.push([m.index, text.length]);
    else if (publicSpans.length > 0 && publicSpans[publicSpans.length - 1][1] === text.length) publicSpans[publicSpans.length - 1][1] = m.index;
  }
  // Lines and spans both come in text order: one pointer walks the spans.
  let span = 0;
  LONE_BODY_LINE.lastIndex = 0;
  for (let m = LONE_BODY_LINE.exec(text); m; m = LONE_BODY_LINE.exec(text)) {
    const at = m.indices!.groups!.body![0];
    while (span < publicSpans.length && publicSpans[span][1] < at) span++;
    if (span < publicSpans.length && publicSpans[span][0] < at) continue;
    out.push({ start: at, end: at + 64, kind: KIND, byContext: true });
  }
}

/** A key block longer than this is not parsed for its public half (an RSA key of 16,384 bits is ~12 KB of PEM). */
const MAX_PARSED_KEY = 16_384;
/** A PEM block's armour and what is between (prefixes and quotes on its lines aside: read per line below). */
const PEM_BLOCK = /^-----BEGIN ([A-Z0-9 ]{0,40}PRIVATE KEY)-----([\s\S]{1,16384}?)-----END \1-----/;
/** A block's line's base64: the run that ends it (grep's `file-12-`, a quote, a literal `\n` before or after it aside). */
const LINE_BASE64 = /([A-Za-z0-9+/]+={0,2})(?:\\n)?['"]?[ \t]*(?:[+,)][ \t]*)?\r?$/;

/**
 * The public halves of the private key blocks in `text` in base64, as it is printed (SPKI's DER, and PKCS#1's for RSA), or [] when the block is
 * no key node can read (encrypted, cut, another armour). A private key's body holds its public half at the same offsets in some
 * layouts (PKCS#1's modulus lines up with SPKI's): those body lines, remembered, masked the public key printed later — an
 * opendkim-genkey's DNS record after its private key (pass 202 L1).
 */
export function publicKeyFormsIn(text: string): string[] {
  const forms: string[] = [];
  // Each BEGIN read once, to its END within MAX_PARSED_KEY (a megabyte of BEGIN lines with no END is read MAX_PARSED_KEYS times).
  for (let n = 0, at = text.indexOf('-----BEGIN '); at >= 0 && n < MAX_PARSED_KEYS; n++, at = text.indexOf('-----BEGIN ', at + 1)) {
    const m = PEM_BLOCK.exec(text.slice(at, at + MAX_PARSED_KEY));
    if (m) forms.push(...publicKeyForms(m));
  }
  return forms;
}

/** Key blocks parsed per text at most (each a parse of a few hundred microseconds). */
const MAX_PARSED_KEYS = 16;

function publicKeyForms(m: RegExpMatchArray): string[] {
  if (m[0].length > MAX_PARSED_KEY) return [];
  // (A block inside a JSON string has `\n` escapes for its line breaks: mailcow's DKIM API beside its `pubkey`, adv211 L1.)
  const body = m[2].replace(/\\n/g, '\n').split('\n').flatMap((l) => LINE_BASE64.exec(l)?.[1] ?? []);
  const pem = `-----BEGIN ${m[1]}-----\n${body.join('\n')}\n-----END ${m[1]}-----\n`;
  try {
    const pub = createPublicKey(createPrivateKey({ key: pem, format: 'pem' }));
    const forms = [pub.export({ type: 'spki', format: 'der' }).toString('base64')];
    if (pub.asymmetricKeyType === 'rsa') forms.push(pub.export({ type: 'pkcs1', format: 'der' }).toString('base64'));
    return forms;
  } catch {
    return [];
  }
}

/**
 * uuencoded files (`uuencode ~/.aws/credentials credentials`, Python's `binascii.b2a_uu`, a mail's attachment shown raw: adv95
 * F22): `begin <mode> <name>`, then lines of a length character and groups of four characters for three bytes, then `` ` `` and
 * `end`. The lines are decoded back to their bytes, the bytes scanned as text, and each finding masked as the groups of
 * characters its bytes are written in, line by line. Hand-written: the format is fixed (POSIX uuencode's historical form) and
 * the decoding a few lines; no npm package maps bytes back to where they were written.
 */
import type { SecretFinding } from './finding.js';

/** The header: `begin`, an octal mode, a file name (POSIX). */
const HEADER = /^begin [0-7]{3,4} [^\n]{1,256}$/gm;
/** A line of the body: its length character (`!`–`M`: 1–45 bytes), then its groups. */
const BODY_LINE = /^[!-M][ -`]{4,84}\r?$/;
/** Lines of one file read at most (a credentials file is a dozen; a big attachment's head holds what a config would). */
const MAX_UU_LINES = 2048;
/** Bytes a line holds at most (its length character `M`). */
const MAX_LINE_BYTES = 45;

/** A character's six bits (`` ` `` stands for 0, as a blank does). */
const bits = (c: number): number => (c - 0x20) & 0x3f;

/** The findings of `scan` in the bytes the uuencoded files in `text` hold, as ranges of `text`. */
export function uuencodedFindings(text: string, out: SecretFinding[], scan: (t: string) => SecretFinding[]): void {
  HEADER.lastIndex = 0;
  for (let h = HEADER.exec(text); h; h = HEADER.exec(text)) {
    let decoded = '';
    // For each byte, where the group of four characters that writes it starts.
    const groupAt: number[] = [];
    let lineStart = h.index + h[0].length + 1;
    for (let n = 0; n < MAX_UU_LINES && lineStart < text.length; n++) {
      let lineEnd = text.indexOf('\n', lineStart);
      if (lineEnd < 0) lineEnd = text.length;
      const line = text.slice(lineStart, lineEnd);
      if (!BODY_LINE.test(line)) break;
      const count = Math.min(bits(line.charCodeAt(0)), MAX_LINE_BYTES);
      for (let b = 0; b < count; b++) {
        const g = 1 + 4 * Math.floor(b / 3);
        const c = (k: number) => bits(line.charCodeAt(g + k) || 0x20);
        const byte = b % 3 === 0 ? (c(0) << 2) | (c(1) >> 4) : b % 3 === 1 ? ((c(1) & 0xf) << 4) | (c(2) >> 2) : ((c(2) & 0x3) << 6) | c(3);
        decoded += String.fromCharCode(byte);
        groupAt.push(lineStart + g);
      }
      lineStart = lineEnd + 1;
    }
    if (decoded.length === 0) continue;
    HEADER.lastIndex = Math.max(HEADER.lastIndex, lineStart);
    for (const f of scan(decoded)) {
      // Group by group: consecutive bytes' groups on one line make one range.
      for (let b = f.start; b < f.end; ) {
        let e = b + 1;
        while (e < f.end && groupAt[e] - groupAt[e - 1] <= 4 && groupAt[e] >= groupAt[e - 1]) e++;
        out.push({ start: groupAt[b], end: Math.min(groupAt[e - 1] + 4, text.length), kind: `uuencoded ${f.kind}`, byContext: true });
        b = e;
      }
    }
  }
}

/** Does `text` hold a uuencoded file's header (a line starting `begin ` and its mode)? */
export function mayHoldUuencoded(text: string): boolean {
  for (let i = text.indexOf('begin '); i >= 0; i = text.indexOf('begin ', i + 6)) {
    if ((i === 0 || text.charCodeAt(i - 1) === 0x0a) && /^[0-7]{3}/.test(text.slice(i + 6, i + 9))) return true;
  }
  return false;
}

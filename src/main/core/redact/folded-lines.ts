/**
 * One long word cut over lines by a fold: `fold -w 76`, `base64 -w 64`, a terminal's hard wrap as `tmux capture-pane` or a
 * screen scrape shows it (adv49 F19, adv50 F12, F13, F21, F22). A rule sees the first line's piece only (a JWT's
 * header and half its payload, `client-key-data: LS0t…` cut at column 76), and the continuation lines are plain base64 or
 * letters that no rule reads alone. The lines are joined back, scanned as one, and what the scan finds past the first line is
 * masked on each line it spans, remembered (byContext) so that a read's window of continuation lines alone is masked too.
 *
 * What counts as a fold: a line at least MIN_FOLD_WIDTH long that ends in a non-blank character, followed by at least one line
 * exactly as long with no blank in it, and a last shorter one (or its first word). A continuation line that starts like an
 * entry of its own (`NAME=…`, `key: …`) is no continuation. (A terminal's wrap of one line shows no width: a remembered value's
 * pieces at its line breaks are found by LearnedSecrets.findAtLineBreaks.)
 */
import type { SecretFinding } from './finding.js';

/**
 * Lines shorter than this are not taken for a fold's lines: a terminal's wrap is at 40 columns and up, `fold -w 20` of a key
 * narrower (adv76 F27); a word of 20 is a vendor key's shortest piece that says what it is (`sk-proj-` and 12).
 */
const MIN_FOLD_WIDTH = 20;
/** A terminal's wrap or a fold of text is this wide and up (narrower: only a word's pieces). */
const MIN_WRAP_WIDTH = 40;
/** Continuation lines one fold is read over at most (a 4096-bit key's base64 folded at 64 is ~50 lines; a kubeconfig's ~80). */
const MAX_FOLD_LINES = 256;
/**
 * A line that starts an entry of its own: a name, then `=` or `:` not followed by padding to the line's end; or an .npmrc
 * registry's setting (`//registry.npmjs.org/:_authToken=…` under another registry's line as long: pass 134 F38).
 */
// Behind a diff's mark too (`-KEY=<old>` then `+KEY=<new>` of a rotated key, one as long as the other: adv223 F28's new line
// and mish's `[exit 0]` after it were masked as the old value's fold).
const NEW_ENTRY = /^[+-]?[ \t]*(?:["']?[A-Za-z_][\w.-]*["']?[ \t]*[=:](?!=*\r?$)|\/\/[^\s:=]{1,256}:[\w-]{1,64}=)/;
const BLANK = /[ \t]/;
/** Characters two lines may begin alike with before they read as one tool's lines rather than a fold's. */
const SAME_START = 8;
/** The squasher's line in place of lines it left out (`[... 12 lines omitted (lines 13-24): …]`), the reply cap's. */
const OMITTED_LINES = /^\[(?:\.\.\. [\d,]+ lines?|mish: lines [\d,]+-[\d,]+) omitted\b/;

interface Piece {
  /** Where the piece starts in the text. */
  at: number;
  /** Its length (the line's, without `\r`; or the next line's first word). */
  length: number;
}

/** The findings of `scan` in the folded words of `text`, past each fold's first line, as ranges of `text`. */
// One pass over the lines with two numbers a line (no list of lines: most texts hold no fold, and many hold lines as long as
// the one before them); a fold's lines are read only from a line that starts one.
// `eachLine`: what else reads every line (bare-mnemonics.ts), given each line this walk reads (a fold's continuation lines are
// not: long words without blanks), so that no other reader walks the lines again.
export function foldedLineFindings(text: string, out: SecretFinding[], scan: (t: string) => SecretFinding[], eachLine?: { line(at: number, end: number): void }): void {
  let prevAt = -1;
  let prevLength = -1;
  for (let at = 0; at < text.length; ) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    eachLine?.line(at, end);
    const length = end - at - (end > at && text.charCodeAt(end - 1) === 0x0d ? 1 : 0);
    if (length === prevLength && length >= MIN_FOLD_WIDTH && startsFold(text, prevAt, at, length)) {
      const after = fold(text, { at: prevAt, length: prevLength }, out, scan);
      prevAt = -1;
      prevLength = -1;
      if (after < 0) return;
      at = after;
      continue;
    }
    prevAt = at;
    prevLength = length;
    if (nl < 0) return;
    at = nl + 1;
  }
}

/** Do the line at `firstAt` and the next one (at `at`, as long) start a fold: the first ends in a non-blank, the next is one word. */
function startsFold(text: string, firstAt: number, at: number, width: number): boolean {
  if (isBlank(text.charCodeAt(firstAt + width - 1))) return false;
  // Narrower than a terminal: `fold -w 20` of one word, whose first piece has no blank either (equal lines of 20-39 characters
  // with blanks, a table's or a log's, are common and are no fold).
  if (width < MIN_WRAP_WIDTH && hasBlank(text, firstAt, firstAt + width)) return false;
  // Read in place before a line is cut out: a build log's lines of one length (`   Compiling crate-12 v0.1.2`) each were.
  if (hasBlank(text, at, at + width)) return false;
  const line = text.slice(at, at + width);
  return !NEW_ENTRY.test(line) && !text.startsWith(line.slice(0, SAME_START), firstAt);
}

const isBlank = (c: number) => c === 0x20 || c === 0x09;

/** A blank in text[from, to)? */
function hasBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (isBlank(text.charCodeAt(i))) return true;
  return false;
}

/** The fold that starts at `first`: its pieces joined and scanned. Returns where the line after it starts (-1: the text's end). */
function fold(text: string, first: Piece, out: SecretFinding[], scan: (t: string) => SecretFinding[]): number {
  const width = first.length;
  const pieces: Piece[] = [first];
  let at = text.indexOf('\n', first.at) + 1;
  while (at > 0 && at < text.length && pieces.length <= MAX_FOLD_LINES) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    const length = end - at - (end > at && text.charCodeAt(end - 1) === 0x0d ? 1 : 0);
    const line = text.slice(at, at + length);
    const next = nl < 0 ? -1 : nl + 1;
    // The squasher's mark of the lines it left out of a reply (the fold's middle): the fold goes on after it.
    if (OMITTED_LINES.test(line)) {
      at = next;
      continue;
    }
    if (length === 0 || length > width || NEW_ENTRY.test(line)) break;
    // Lines that start alike are a tool's lines behind its prefix (grep's `file-`, a log's stamp), not a word's pieces.
    if (text.startsWith(line.slice(0, SAME_START), first.at)) break;
    // A shorter line, or one with words, ends the fold only after a full one showed the width (any two lines are a line and a
    // shorter one).
    if (pieces.length < 2 && (length < width || BLANK.test(line))) break;
    // A last line with words after the fold's end (`…DQ==\n-----END EC PRIVATE KEY-----",`): its first word ends the fold.
    if (BLANK.test(line)) {
      const word = /^[^\s]+/.exec(line);
      if (word) pieces.push({ at, length: word[0].length });
      at = next;
      break;
    }
    pieces.push({ at, length });
    at = next;
    if (length < width) break;
  }
  if (pieces.length >= 2) joinedFindings(text, pieces, out, scan);
  return at;
}

/** The findings of `scan` in the pieces joined, those that reach past the first piece, cut back into the pieces. */
function joinedFindings(text: string, pieces: Piece[], out: SecretFinding[], scan: (t: string) => SecretFinding[]): void {
  const joined = pieces.map((p) => text.slice(p.at, p.at + p.length)).join('');
  const firstLength = pieces[0].length;
  for (const f of scan(joined)) {
    if (f.end <= firstLength) continue;
    let offset = 0;
    for (const p of pieces) {
      const s = Math.max(f.start, offset);
      const e = Math.min(f.end, offset + p.length);
      if (s < e) out.push({ start: p.at + s - offset, end: p.at + e - offset, kind: f.kind, byContext: true });
      offset += p.length;
    }
  }
}

/**
 * The stream's byte path reads a window of lines around a name's hit: how many lines after the name's line (buf[lineStart,
 * lineEnd), lineEnd at its `\n`) continue a fold of it, so the window holds the value's pieces and they are remembered.
 */
export function foldLinesAfter(buf: Buffer, lineStart: number, lineEnd: number, n: number): number {
  const width = lineEnd - lineStart - (buf[lineEnd - 1] === 0x0d ? 1 : 0);
  if (width < MIN_FOLD_WIDTH) return 0;
  let count = 0;
  for (let at = lineEnd + 1; at < n && count < MAX_FOLD_LINES; ) {
    let end = buf.indexOf(0x0a, at);
    if (end < 0 || end > n) end = n;
    const length = end - at - (buf[end - 1] === 0x0d ? 1 : 0);
    if (length === 0 || length > width) break;
    // A fold shows its width by a full line first (foldedLineFindings: a line and a shorter one are any two lines).
    if (count === 0 && (length < width || buf.subarray(at, at + length).some((c) => c === 0x20 || c === 0x09))) return 0;
    count++;
    // A wrapped line's next line may go on with other words (the terminal case): it is read, not followed.
    if (length < width || buf.subarray(at, at + length).some((c) => c === 0x20 || c === 0x09)) break;
    at = end + 1;
  }
  return count;
}

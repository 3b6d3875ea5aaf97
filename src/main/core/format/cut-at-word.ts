/**
 * Text shortened for a status line, a progress message or a process table's last line, never inside a word. A secret cut
 * in two is a piece no masking rule knows (a base64 value cut at 79 characters no longer decodes; a token's head has no
 * prefix test left): the reply guard masks what is shown, so what is shown must be whole words (adversary pass 20's
 * `read_raw` status line showed 11 characters of an `APP_KEY` so). A word longer than the room is left out whole, and so is
 * a list of bytes written one per word (node's `<Buffer 67 68 70 …>`, od's `67 68 70`, `[103, 104, …]`): its bytes are one
 * value, and a cut list decodes to a token's head no rule knows (adversary pass 102 F40: 37 of a GitHub token's 40 bytes).
 */
export function cutAtWord(s: string, max: number): string {
  if (s.length <= max) return s;
  let cut = max - 1;
  while (cut > 0 && !isBlank(s.charCodeAt(cut)) && !isBlank(s.charCodeAt(cut - 1))) cut--;
  return `${s.slice(0, byteListStart(s, cut)).trimEnd()}…`;
}

/** Byte words in a row before a cut that make it a list of bytes (a date's `12 05 14` is three; a key is 16 or more). */
const MIN_BYTE_WORDS = 6;

/** Where the run of byte words ending at `cut` starts, when it has MIN_BYTE_WORDS or more; else `cut`. */
function byteListStart(s: string, cut: number): number {
  let start = cut;
  let words = 0;
  for (let end = cut; end > 0; ) {
    while (end > 0 && isBlank(s.charCodeAt(end - 1))) end--;
    let begin = end;
    while (begin > 0 && !isBlank(s.charCodeAt(begin - 1))) begin--;
    if (begin === end || !BYTE_WORD.test(s.slice(begin, end))) break;
    words++;
    start = begin;
    end = begin;
  }
  return words >= MIN_BYTE_WORDS ? start : cut;
}

/** One byte as a word: two hex digits (`0x` before them perhaps) or one to three decimal digits, a comma or bracket about it. */
const BYTE_WORD = /^[[{(]?(?:(?:0x)?[0-9a-fA-F]{2}|\d{1,3}),?$/;

/** A blank between words: space, tab, or a line break. */
function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

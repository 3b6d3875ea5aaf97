/**
 * Text shortened for a status line, a progress message or a process table's last line, never inside a word. A secret cut
 * in two is a piece no masking rule knows (a base64 value cut at 79 characters no longer decodes; a token's head has no
 * prefix test left): the reply guard masks what is shown, so what is shown must be whole words (adversary pass 20's
 * `read_raw` status line showed 11 characters of an `APP_KEY` so). A word longer than the room is left out whole.
 */
export function cutAtWord(s: string, max: number): string {
  if (s.length <= max) return s;
  let cut = max - 1;
  while (cut > 0 && !isBlank(s.charCodeAt(cut)) && !isBlank(s.charCodeAt(cut - 1))) cut--;
  return `${s.slice(0, cut).trimEnd()}…`;
}

/** A blank between words: space, tab, or a line break. */
function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

/**
 * A value written one character or byte at a time (`xxd -p`, `od -c`, `od -An -tx1`, octal escapes, a list of its characters or
 * its bytes) that decodes to a bare random word (look-alikes.ts mintedWord): no rule reads a made word alone, and the readers that decode these forms
 * (hex-dumps.ts, byte-arrays.ts, the scanner's hex text) found nothing in it. A secret's name near it says what it is: on the
 * value's own line, outside it (`printf '\146\107…' > ~/.pgpass  # DB password`), or on the line just above its first (a header,
 * `aws_secret_access_key (hex):`, `API_SECRET bytes:`; the command that printed it, `# od -c $DB_PASSWORD`,
 * `>>> list(os.environ["NPM_TOKEN"])`: adv107 F03, F04, F37, F44, F47). A made word's encoding under such a name is the value.
 */
import { isLookAlike, mintedWord } from './look-alikes.js';

/** The kind of secret a name says (scanner.ts columnKind: a name isSecretName accepts), undefined for any other word. */
export type KindOfName = (name: string) => string | undefined;

/** A made word this long and up, under a name (look-alikes.ts mintedWord: its 12 is for a word with no name near it). */
const MIN_NAMED_WORD_CHARS = 10;
/** Slashes a value starts with: read without them (a path's segments are still no made word: `run/secrets/db`). */
const LEADING_SLASHES = /^\/+/;
/** Characters of a line read for names (a line of a megabyte is not read whole for each value on it). */
const MAX_NAME_LINE = 160;
/** A name: an identifier (`$DB_PASSWORD`'s, `os.environ["NPM_TOKEN"]`'s, `aws_secret_access_key`). */
const NAME = /[A-Za-z_][A-Za-z0-9_]*/g;

/** The kind the last secret's name in `line` says, undefined when none does. */
function lineKind(line: string, kindOfName: KindOfName): string | undefined {
  let kind: string | undefined;
  for (const m of line.matchAll(NAME)) kind = kindOfName(m[0]) ?? kind;
  return kind;
}

/**
 * The kind a secret's name near the encoded value text[start, end) gives it, when the value `decoded` is a made word (a line
 * break after it allowed: a file's); undefined otherwise. `ownLine`: the value's own line counts (not for a dump's rows, whose
 * line is the dump's).
 */
export function encodedValueKind(text: string, start: number, end: number, decoded: string, kindOfName: KindOfName, ownLine: boolean): string | undefined {
  const word = decoded.endsWith('\n') ? decoded.slice(0, decoded.endsWith('\r\n') ? -2 : -1) : decoded;
  // A random base64 value may start with `/` (an AWS secret key: adv107 F03), which mintedWord reads as a path's start.
  if (!mintedWord(word.replace(LEADING_SLASHES, ''), MIN_NAMED_WORD_CHARS) || isLookAlike(word, true)) return undefined;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  if (ownLine) {
    let lineEnd = text.indexOf('\n', end);
    if (lineEnd < 0) lineEnd = text.length;
    const kind = lineKind(text.slice(Math.max(lineStart, start - MAX_NAME_LINE), start), kindOfName) ?? lineKind(text.slice(end, Math.min(lineEnd, end + MAX_NAME_LINE)), kindOfName);
    if (kind !== undefined) return kind;
  }
  if (lineStart === 0) return undefined;
  const aboveStart = text.lastIndexOf('\n', lineStart - 2) + 1;
  return lineKind(text.slice(Math.max(aboveStart, lineStart - 1 - MAX_NAME_LINE), lineStart - 1), kindOfName);
}

/**
 * A search for a known value (an environment secret's, a handoff's) from its rarest character: V8's `includes` looks for a
 * pattern's first character (on a two-byte text, for that character's low byte) and checks the rest at each candidate, so a
 * value that starts with a letter common in output (`hunter2…`, `ghs_…`) stopped at every `h` or `g` of a megabyte of build
 * log. From a rare character the candidates are few: a value starting `Zq8x…` was found in 0.09 ms on the bench's 3.4 MB of
 * mixed output, one starting `ghs_…` in 0.76 ms.
 */

/**
 * Characters common in terminal output (lower case, digits, blanks and the punctuation of paths, flags and JSON): a value is
 * searched from its first character that is none of these; from its start when all are (measured: `hunter2…` searched from
 * its `2` took longer than from its `h`: digits are everywhere in a build log).
 */
const COMMON = /[a-z0-9\s\-_/.=:,'"()]/;
/** Punctuation rare in output: rarer than an upper-case letter. */
const RARE = /[+*$;{}<>|~^%#@!?&`[\]\\]/;

/** A character's rarity: 0 common, 1 an upper-case letter or a character past ASCII, 2 rare punctuation. */
function rarity(c: string): number {
  return RARE.test(c) ? 2 : COMMON.test(c) ? 0 : 1;
}

export interface AnchoredValue {
  readonly value: string;
  /** Where the rarest character stands in the value, and the value from there. */
  readonly at: number;
  readonly tail: string;
}

/** The value with its search's anchor (the first of its rarest characters). */
export function anchored(value: string): AnchoredValue {
  let at = 0;
  for (let i = 1; i < value.length; i++) if (rarity(value[i]) > rarity(value[at])) at = i;
  return { value, at, tail: value.slice(at) };
}

/** Does `text` hold the value? */
export function holds(text: string, v: AnchoredValue): boolean {
  for (let i = text.indexOf(v.tail, v.at); i >= 0; i = text.indexOf(v.tail, i + 1)) if (text.startsWith(v.value, i - v.at)) return true;
  return false;
}

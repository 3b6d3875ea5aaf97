/**
 * The spans of a long line its cut must keep whole (squasher/line-cut.ts KeepWhole): each secret the scanner finds on the line,
 * with the name before it. A value kept whole with its name cut off (`… [+46 chars] …aes_signing_key <key>`: the cut took the
 * option's `--`, adv162 F18 on the hooked CLI path) is read again by the masker without the context that named it, and shown.
 */
import { scanSecrets } from './scanner.js';

/** Separator characters between a name and its value (`--name value`, `name=value`, `"name": "value"`), read back at most this many. */
const MAX_SEPARATOR = 4;
/** A name's characters read back at most this many (a long option's, a dotted setting's). */
const MAX_NAME = 64;
const SEPARATOR = /[ \t"'=:]/;
const NAME_CHAR = /[A-Za-z0-9_.-]/;

/** The line's secrets, each widened back over the separator and name before it. */
export function secretSpansWithNames(line: string): { start: number; end: number }[] {
  return scanSecrets(line).map(({ start, end }) => {
    let at = start;
    while (at > 0 && start - at < MAX_SEPARATOR && SEPARATOR.test(line[at - 1])) at--;
    const separated = at;
    while (at > 0 && separated - at < MAX_NAME && NAME_CHAR.test(line[at - 1])) at--;
    return { start: at < separated ? at : start, end };
  });
}

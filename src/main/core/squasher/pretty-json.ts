/**
 * A pretty-printed JSON document in the output (`jq .`, `JSON.stringify(x, null, 2)`,
 * `python -m json.tool`, Go's MarshalIndent, `kubectl -o json`, `gh api`, `sentry-cli … --json`):
 * its lines are data, to be shown in place. A line of it that a rule would call a hazard
 * (`"level": "error",` in a Sentry event, `"severity": "ERROR",` in a log event,
 * `"message": "open x: No such file or directory",`) is not an error of the command, and lifting
 * it to the hazards at the top of a condensed reply put one line of the document before its `{`
 * (adversary pass 61, F48). Inside a document every line is unclassified (the squasher's body,
 * in order; a line with an error word stays shown even in a folded middle, or is named in the
 * fold marker), never hoisted, grouped or stripped.
 *
 * A document is recognised only by the one-token-per-line layout every pretty-printer uses: it
 * opens with a line that is `{` or `[` alone, and every line after it up to its closing bracket is
 * a JSON line: `"key": value,`, `value,`, `"key": {` / `[` (deeper), `}` / `]` (shallower). The
 * first line that is not (a blank line, a diagnostic, a diff's `+ {`) ends it, and that line is
 * classified as usual: a real error printed in the middle of a document (stderr interleaved) still
 * is one.
 */

/** A JSON string (escapes included). */
const STRING = String.raw`"(?:[^"\\]|\\.)*"`;
/** A line of a pretty-printed JSON document after its opening line: an optional key, then a value, an opening bracket, or a closing bracket. */
const JSON_LINE = new RegExp(
  String.raw`^[ \t]*(?:(?:${STRING}[ \t]*:[ \t]*)?(?:[\[{]|(?:${STRING}|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null|\{\}|\[\])[ \t]*,?)|[\]}][ \t]*,?)[ \t]*$`,
);

const SPACE = 32;
const TAB = 9;
const OPEN_BRACE = 123; // {
const OPEN_BRACKET = 91; // [
const CLOSE_BRACE = 125; // }
const CLOSE_BRACKET = 93; // ]

/** Index of the first character that is not a space or tab (text.length if none). */
function firstNonBlank(text: string): number {
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== SPACE && c !== TAB) break;
    i++;
  }
  return i;
}

/** Index of the last character that is not a space or tab (-1 if none). */
function lastNonBlank(text: string): number {
  let i = text.length - 1;
  while (i >= 0) {
    const c = text.charCodeAt(i);
    if (c !== SPACE && c !== TAB) break;
    i--;
  }
  return i;
}

export class PrettyJson {
  /** Brackets open in the current document; 0 outside one. */
  private depth = 0;

  /**
   * Whether this line (a complete line of the output, in order) belongs to a pretty-printed JSON
   * document: its opening line, a line inside it, or its closing line. Cheap outside a document
   * (the line's last character, and its first when that is a bracket), one RegExp test inside one.
   */
  step(text: string, complete: boolean): boolean {
    if (!complete) {
      this.depth = 0;
      return false;
    }
    if (this.depth === 0) {
      // The last character first: on almost every line it is no bracket, and one compare says so.
      const end = lastNonBlank(text);
      if (end < 0) return false;
      const c = text.charCodeAt(end);
      if ((c !== OPEN_BRACE && c !== OPEN_BRACKET) || firstNonBlank(text) !== end) return false;
      this.depth = 1;
      return true;
    }
    if (!JSON_LINE.test(text)) {
      this.depth = 0;
      return false;
    }
    const first = text.charCodeAt(firstNonBlank(text));
    if (first === CLOSE_BRACE || first === CLOSE_BRACKET) this.depth--;
    else {
      const last = text.charCodeAt(lastNonBlank(text));
      if (last === OPEN_BRACE || last === OPEN_BRACKET) this.depth++;
    }
    return true;
  }

  /** Forget any open document (a segment boundary of a compound command). */
  reset(): void {
    this.depth = 0;
  }
}

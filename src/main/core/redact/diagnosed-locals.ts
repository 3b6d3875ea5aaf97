/**
 * A traceback that shows each variable's value under the code (loguru's `diagnose=True`, better_exceptions: adv100 F11): the
 * code line, then lines of `│` and `└ <value>`, the `└` under the first character of the name it shows. No name is on the
 * value's line: the name is the code line's word at the `└`'s column (`settings.SMTP_PASSWORD` → `SMTP_PASSWORD`), and a value
 * under a secret's name is masked. Hand-written: the layout is the two libraries' own.
 */
import type { SecretFinding } from './finding.js';

/** A value's line: blanks and `│` (the names still to show), `└`, a blank, the value (a repr: quoted, or `<…>`). */
const VALUE_LINE = /^(?<marks>[ │]*)└ (?<value>[^\n]{1,4096}?)\r?$/gm;
/** Lines of marks read up from a value's line to the code line at most (a line holds a few dozen names at most). */
const MAX_MARK_LINES = 64;
/** A name at a column of the code line: a dotted identifier. */
const NAME_AT = /[A-Za-z_][\w.]{0,127}/y;
/** A repr's quoted string: the value inside its quotes. */
const QUOTED = /^(?<q>['"])(?<v>[^'"\n]+)\k<q>$/;

/**
 * Values shown under a secret's name in `text`'s diagnosed tracebacks: `secretKind` gives a name's kind (undefined: no secret's
 * name), `isLookAlike` keeps what is no secret.
 */
export function diagnosedLocals(text: string, secretKind: (name: string) => string | undefined, isLookAlike: (value: string) => boolean, out: SecretFinding[]): void {
  VALUE_LINE.lastIndex = 0;
  for (let m = VALUE_LINE.exec(text); m; m = VALUE_LINE.exec(text)) {
    const column = m.groups!.marks.length;
    const value = QUOTED.exec(m.groups!.value);
    if (!value) continue;
    // Up over the lines of marks to the code line.
    let lineStart = m.index;
    let code: string | undefined;
    for (let n = 0; n < MAX_MARK_LINES && lineStart > 0; n++) {
      const prev = text.lastIndexOf('\n', lineStart - 2) + 1;
      const line = text.slice(prev, lineStart - 1);
      lineStart = prev;
      if (!/^[ │]*[│└]/.test(line)) {
        code = line;
        break;
      }
    }
    if (code === undefined) continue;
    NAME_AT.lastIndex = column;
    const name = NAME_AT.exec(code)?.[0];
    // The `└` stands under a name's first character (an attribute's, after its `.`), not inside a word.
    if (!name || (column > 0 && /\w/.test(code[column - 1]))) continue;
    const kind = secretKind(name.slice(name.lastIndexOf('.') + 1));
    if (kind === undefined || isLookAlike(value.groups!.v)) continue;
    // After the marks, `└`, its blank and the opening quote.
    const start = m.index + column + 3;
    out.push({ start, end: start + value.groups!.v.length, kind, byContext: true });
  }
}

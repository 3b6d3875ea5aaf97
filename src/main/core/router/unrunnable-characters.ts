/**
 * Characters a command line may not contain, because what runs would not be what was checked
 * (issue 9: `git reset --ha\0rd` was checked as written and ran as `git reset --hard`). Between
 * the check and the program, the bytes pass through the shell and, for session commands, a
 * terminal's line discipline and line editor:
 * - NUL ends a C string: bash drops it from `$'…'` words and argv is cut at it;
 * - CR becomes a newline on a terminal (ICRNL), starting a second command the check read as
 *   part of a word;
 * - ^C, ^D, ^U, ^W, ^V, ^Z, ^\, DEL, ESC … are signals, erasures, literal-next and editor keys
 *   to the terminal and readline (`echo ok^Urm -rf ~` would run `rm -rf ~`);
 * - the C1 controls (U+0080–U+009F) are terminal controls on an 8-bit terminal.
 * Tab and newline are ordinary shell syntax and stay allowed. Such a line is refused whole with
 * the position of the character; nothing runs.
 */

/** Names of the C0 controls, for messages ("NUL (U+0000)"). */
const C0_NAMES = ['NUL', 'SOH', 'STX', 'ETX (^C)', 'EOT (^D)', 'ENQ', 'ACK', 'BEL', 'BS', 'TAB', 'LF', 'VT', 'FF', 'CR', 'SO', 'SI', 'DLE', 'DC1', 'DC2', 'DC3', 'DC4', 'NAK (^U)', 'SYN (^V)', 'ETB (^W)', 'CAN', 'EM', 'SUB (^Z)', 'ESC', 'FS (^\\)', 'GS', 'RS', 'US'];

/** Tab (9) and newline (10) are shell syntax; every other C0 control, DEL and C1 control is refused. */
const UNRUNNABLE_CLASS = '[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f]';
const UNRUNNABLE = new RegExp(UNRUNNABLE_CLASS);

export interface UnrunnableCharacter {
  /** Index in the string. */
  index: number;
  /** The code point. */
  code: number;
  /** "NUL (U+0000)". */
  label: string;
}

/** The first character of `text` the shell or terminal would transform before running it, if any. */
export function findUnrunnableCharacter(text: string): UnrunnableCharacter | undefined {
  const m = UNRUNNABLE.exec(text);
  if (!m) return undefined;
  const code = m[0].charCodeAt(0);
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const name = code < 32 ? C0_NAMES[code] : code === 0x7f ? 'DEL' : 'C1 control';
  return { index: m.index, code, label: `${name} (${hex})` };
}

/** The one-line reason given when a line is refused for such a character. */
export function unrunnableReason(found: UnrunnableCharacter): string {
  return `control character ${found.label} in the command: the shell or terminal would change it before running, so the command checked would not be the command run; remove it (to produce such a byte, have the command make it: printf '\\x${found.code.toString(16).padStart(2, '0')}')`;
}

/** Control characters shown as their one-column Unicode pictures (␀, ␍, ␛, ␡), so an excerpt prints safely and its caret lines up. */
export function visibleControls(text: string): string {
  return text.replace(new RegExp(UNRUNNABLE_CLASS, 'g'), (c) => {
    const code = c.charCodeAt(0);
    return code < 32 ? String.fromCharCode(0x2400 + code) : code === 0x7f ? '\u2421' : '\ufffd';
  });
}

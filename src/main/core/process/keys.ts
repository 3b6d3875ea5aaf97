/** Key names (as agents write them) to the bytes a terminal sends. */
const NAMED: Record<string, string> = {
  enter: '\r',
  return: '\r',
  tab: '\t',
  esc: '\x1b',
  escape: '\x1b',
  backspace: '\x7f',
  space: ' ',
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  home: '\x1b[H',
  end: '\x1b[F',
  pageup: '\x1b[5~',
  pagedown: '\x1b[6~',
  delete: '\x1b[3~',
};

/** Ctrl chords as agents write them: C-c, Ctrl-c, Ctrl+C, ^C. */
const CTRL_KEY = /^(?:C-|Ctrl[-+]|\^)(.)$/i;
/** Meta chords: M-x, Alt-x, Alt+x. */
const META_KEY = /^(?:M-|Alt[-+])(.)$/i;

/**
 * Whether `key` names a key keyToBytes knows, or is one character. A longer name it does not
 * know ("F1", "Ctrl+Shift+T") would otherwise be typed as text.
 */
export function isKeyName(key: string): boolean {
  return NAMED[key.toLowerCase()] !== undefined || CTRL_KEY.test(key) || META_KEY.test(key) || [...key].length === 1;
}

/** "C-c" → \x03, "Enter" → \r, "M-x" → ESC x, "Up" → ESC [A; anything else literally. */
export function keyToBytes(key: string): string {
  const named = NAMED[key.toLowerCase()];
  if (named !== undefined) return named;
  const ctrl = CTRL_KEY.exec(key);
  if (ctrl) {
    const ch = ctrl[1].toUpperCase();
    const code = ch.charCodeAt(0);
    if (code >= 64 && code <= 95) return String.fromCharCode(code - 64);
    if (ch === '?') return '\x7f';
  }
  const meta = META_KEY.exec(key);
  if (meta) return `\x1b${meta[1]}`;
  return key;
}

export function keysToBytes(keys: string[]): string {
  return keys.map(keyToBytes).join('');
}

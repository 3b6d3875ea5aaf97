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

/** "C-c" → \x03, "Enter" → \r, "M-x" → ESC x, "Up" → ESC [A; anything else literally. */
export function keyToBytes(key: string): string {
  const named = NAMED[key.toLowerCase()];
  if (named !== undefined) return named;
  const ctrl = /^(?:C-|Ctrl-|\^)(.)$/i.exec(key);
  if (ctrl) {
    const ch = ctrl[1].toUpperCase();
    const code = ch.charCodeAt(0);
    if (code >= 64 && code <= 95) return String.fromCharCode(code - 64);
    if (ch === '?') return '\x7f';
  }
  const meta = /^(?:M-|Alt-)(.)$/i.exec(key);
  if (meta) return `\x1b${meta[1]}`;
  return key;
}

export function keysToBytes(keys: string[]): string {
  return keys.map(keyToBytes).join('');
}

import { describe, expect, it } from 'vitest';
import { parseCommandLine } from './parse.js';
import { findUnrunnableCharacter, visibleControls } from './unrunnable-characters.js';

describe('characters the shell or terminal would transform', () => {
  it('every C0 control but tab and newline, DEL and the C1 controls are refused; the rest of Unicode is not', () => {
    for (let c = 0; c < 0xa0; c++) {
      const ch = String.fromCharCode(c);
      const refused = (c < 0x20 && c !== 9 && c !== 10) || (c >= 0x7f && c <= 0x9f);
      expect(findUnrunnableCharacter(`echo a${ch}b`)?.index, `U+${c.toString(16)}`).toBe(refused ? 6 : undefined);
    }
    for (const ok of ['echo "héllo wörld" ✓', 'printf "a\\tb\\n"', "cat <<'EOF'\nx\tgo\nEOF\n", 'echo \u202e']) expect(findUnrunnableCharacter(ok)).toBeUndefined();
  });

  it('a line with one is refused by the parser at its position, with a printable excerpt, before anything else is read', () => {
    const cases: [string, number, string][] = [
      ['git reset --ha\u0000rd', 15, 'NUL (U+0000)'],
      ['git reset --hard\u0000 --soft', 17, 'NUL (U+0000)'],
      ['\u0000', 1, 'NUL (U+0000)'],
      ['echo ok\u0015rm -rf ~', 8, 'NAK (^U) (U+0015)'],
      ['echo x\rrm -rf ~', 7, 'CR (U+000D)'],
      ['echo \u001b[31m', 6, 'ESC (U+001B)'],
      ['rm -rf ~/.c\u007f\u007fssh', 12, 'DEL (U+007F)'],
    ];
    for (const [line, column, label] of cases) {
      const p = parseCommandLine(line);
      expect(p.ok, JSON.stringify(line)).toBe(false);
      if (p.ok) continue;
      expect(p.error).toMatchObject({ kind: 'control-character', line: 1, column });
      expect(p.error.message).toContain(`control character ${label}`);
      expect(findUnrunnableCharacter(p.error.excerpt)).toBeUndefined();
      expect(p.error.excerpt.split('\n')[1]).toBe(`${' '.repeat(column - 1)}^`);
    }
  });

  it('shows controls as their one-column pictures', () => {
    expect(visibleControls('a\u0000b\rc\u001bd\u007f')).toBe('a␀b␍c␛d␡');
  });
});

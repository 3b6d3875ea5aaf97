/**
 * The quoting mish writes to shells, read back by the real shells: fish quoting through fish,
 * and the remote command line of ssh sessions through every login shell installed here.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { describeUnless, itUnless, missing } from '../../../../test/helpers/skip.js';
import { fishQuote, loginShellSafe } from './integration.js';

/** Every byte fish strings can hold in one place: controls (no NUL), quotes, backslashes, globs, expansions, UTF-8. */
const CONTROLS = Array.from({ length: 31 }, (_, i) => String.fromCharCode(i + 1)).join('') + '\x7f';
const TRICKY = [
  "it's",
  'a\\b',
  "\\'",
  'trailing\\',
  "'",
  "''",
  '\\\\',
  '$HOME (pwd) $(pwd) *.ts ~ {a,b} "dq" ; & | > < # %s %%',
  'line1\nline2\n',
  CONTROLS,
  'ü 日本 😀',
  '',
];

// scripts/apt-packages.txt lists fish; npm test installs it.
describeUnless(missing('fish'))('fishQuote', () => {
  it.each(TRICKY.map((s) => [JSON.stringify(s), s]))('fish reads %s back exactly', (_, s) => {
    const r = spawnSync('fish', ['-c', `printf '%s' ${fishQuote(s)}`], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(s);
  });

  it('puts no raw control character (tab and newline included) on the line fish reads', () => {
    // eslint-disable-next-line no-control-regex
    expect(fishQuote(`a\tb\nc${CONTROLS}`)).not.toMatch(/[\x00-\x1f\x7f]/);
  });
});

describe('loginShellSafe: the remote command line of ssh sessions', () => {
  // What the session's script printed, through a heredoc: every printable ASCII character, tab, UTF-8, printf-like text.
  const printable = Array.from({ length: 95 }, (_, i) => String.fromCharCode(i + 32)).join('');
  const content = `${printable}\n\ttab ü 😀 %s %% \\n \\\\ '\n`;
  const script = `cat <<'MISH_EOF'\n${content}MISH_EOF\nprintf '%s\\n' "it's 100% \\\\ fine"`;
  const expected = `${content}it's 100% \\ fine\n`;

  for (const login of ['bash', 'dash', 'zsh', 'fish']) {
    itUnless(missing(login))(`a ${login} login shell hands the script to sh unchanged`, () => {
      // sshd runs the command as `<login shell> -c <command>`.
      const r = spawnSync(login, ['-c', loginShellSafe(script)], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe(expected);
    });
  }

  it('is one line', () => {
    expect(loginShellSafe(script)).not.toContain('\n');
  });
});

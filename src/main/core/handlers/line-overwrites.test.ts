import { describe, expect, it } from 'vitest';
import { renderLine, renderLineOverwrites } from './line-overwrites.js';

describe('renderLineOverwrites: what a terminal finally shows of a line drawn over itself', () => {
  it("npm's spinner frames before its text are gone; the text stays", () => {
    // The bytes npm ls --all writes on a terminal (recorded with script -qec), newlines undone.
    const pty = '⠙\x1b[1G\x1b[0K⠹\x1b[1G\x1b[0K⠸\x1b[1G\x1b[0K\x1b[0m/tmp/p\x1b[0m\n\x1b[0m└── (empty)\x1b[0m\n\x1b[0m\x1b[0m\n⠸\x1b[1G\x1b[0K';
    expect(renderLineOverwrites(pty)).toBe('\x1b[0m/tmp/p\x1b[0m\n\x1b[0m└── (empty)\x1b[0m\n\x1b[0m\x1b[0m\n');
  });

  it('a \\r counter shows its last value; a longer earlier frame leaves its tail as a terminal does', () => {
    expect(renderLine('10%\r50%\r100%')).toBe('100%');
    expect(renderLine('working...\rdone')).toBe('doneing...');
    expect(renderLine('working...\r\x1b[Kdone')).toBe('done');
  });

  it('erase modes and cursor moves; a backspace stays a byte of the text', () => {
    expect(renderLineOverwrites('vertical\bback')).toBe('vertical\bback');
    expect(renderLine('abcdef\x1b[3D\x1b[1K')).toBe('    ef');
    expect(renderLine('abc\x1b[2Kxy')).toBe('   xy');
    expect(renderLine('ab\x1b[5Gz')).toBe('ab  z');
    expect(renderLine('ab\x1b[2Cz')).toBe('ab  z');
  });

  it('lines without a control are returned byte for byte: tabs, a CRLF line, UTF-8, colour', () => {
    const text = 'a\tb\ncrlf line\r\nüñí ✓ 日本語\n\x1b[31mred\x1b[0m\n';
    expect(renderLineOverwrites(text)).toBe(text);
    expect(renderLine('only a final cr\r')).toBe('only a final cr\r');
  });

  it("reads rows drawn again after a cursor-up, with no newline between them (docker pull's layer rows: adversary pass 97 L06)", () => {
    const E = '\x1b';
    const pty = `a1: Pulling fs layer\nb2: Pulling fs layer\n${E}[2A${E}[2Ka1: Downloading [=>  ] 12MB/40MB\r${E}[2B${E}[2A${E}[2Ka1: Pull complete\r${E}[2B${E}[1A${E}[2Kb2: Pull complete\r${E}[1B\nDigest: sha256:0f1e\n`;
    expect(renderLineOverwrites(pty)).toBe('a1: Pull complete\nb2: Pull complete\n\nDigest: sha256:0f1e\n');
    // Up no further than 64 rows above the line, down no further than the rows drawn; colour before a row kept with it.
    expect(renderLineOverwrites(`x\n${E}[9Ay\n`)).toBe('y\n');
    expect(renderLineOverwrites(`${E}[31mred${E}[0m\nz${E}[5B!\n`)).toBe(`${E}[31mred${E}[0m\nz!\n`);
    // A line drawn on, then up into rows kept as text: what it drew before moving stays on its own row, drawn once.
    expect(renderLineOverwrites(`one\ntwo\nthree\nxy${E}[2A\rZ\n`)).toBe('one\nZwo\nthree\nxy\n');
  });
});

import { describe, expect, it } from 'vitest';
import { CURSOR_DOWN_MARK, CURSOR_UP_MARK, NEXT_LINE_MARK, ERASED_ROW, RED_MARK, VtStripper, YELLOW_MARK, stripAnsi } from './vt-stripper.js';

describe('VtStripper', () => {
  it('removes SGR, keeps text, and marks red/yellow as hints', () => {
    const s = new VtStripper().process('\x1b[1;31merror\x1b[0m: bad \x1b[33mwarn\x1b[m ok');
    expect(s).toBe(`${RED_MARK}error: bad ${YELLOW_MARK}warn ok`);
  });

  it('marks bright red (91) and bright yellow (93) as hints, alone or with other parameters', () => {
    // 91 has no '3' in it: a prefilter that looked only for '3' missed it.
    expect(new VtStripper().process('\x1b[91merror\x1b[0m')).toBe(`${RED_MARK}error`);
    expect(new VtStripper().process('\x1b[1;91mFAILED\x1b[0m')).toBe(`${RED_MARK}FAILED`);
    expect(new VtStripper().process('\x1b[93mwarn\x1b[0m')).toBe(`${YELLOW_MARK}warn`);
    // Split across chunks (the CSI is finished by the slow path).
    const vt = new VtStripper();
    expect(vt.process('a\x1b[9') + vt.process('1mb')).toBe(`a${RED_MARK}b`);
    // Backgrounds and other colours are not foreground hints.
    expect(new VtStripper().process('\x1b[41m FAIL \x1b[101mx\x1b[94my\x1b[9mz')).toBe(' FAIL xyz');
  });

  it('reads a parameter list of up to two characters as the full SGR parse does (every such list)', () => {
    const lists = [''];
    for (let a = 0x20; a <= 0x3f; a++) {
      lists.push(String.fromCharCode(a));
      for (let b = 0x20; b <= 0x3f; b++) lists.push(String.fromCharCode(a, b));
    }
    for (const p of lists) {
      // Whole, the sequence takes the short path; split after its parameters, the full parse.
      const split = new VtStripper();
      expect(new VtStripper().process(`a\x1b[${p}mb`), JSON.stringify(p)).toBe(split.process(`a\x1b[${p}`) + split.process('mb'));
    }
    expect(new VtStripper().process('\x1b[31mx\x1b[93my\x1b[38mz')).toBe(`${RED_MARK}x${YELLOW_MARK}yz`);
  });

  it('removes OSC (title, hyperlinks) terminated by BEL or ST, also when split across chunks', () => {
    const vt = new VtStripper();
    const parts = ['a\x1b]0;ti', 'tle\x07b\x1b]8;;http://x\x1b', '\\link\x1b]8;;\x1b\\c'];
    expect(parts.map((p) => vt.process(p)).join('')).toBe('ablinkc');
  });

  it('handles a CSI split at every position', () => {
    const input = 'x\x1b[38;5;196mred\x1b[0my';
    for (let cut = 0; cut <= input.length; cut++) {
      const vt = new VtStripper();
      expect(vt.process(input.slice(0, cut)) + vt.process(input.slice(cut))).toBe(`x${RED_MARK}redy`);
    }
  });

  it('turns cursor-to-column-1 into CR, cursor-up into redraw marks, and an erase-line right after a CR into ERASED_ROW', () => {
    // Put out only when nothing is drawn after it on the row (text after it makes it moot; colours draw nothing).
    expect(new VtStripper().process('50%\x1b[1G\x1b[K100%')).toBe('50%\r100%');
    expect(new VtStripper().process('⠙\x1b[1G\x1b[0K\x1b[1mnpm\x1b[22m info\r\n')).toBe('⠙\rnpm info\r\n');
    expect(new VtStripper().process('50%\x1b[1G\x1b[K\x1b[0m\r\n')).toBe(`50%\r${ERASED_ROW}\r\n`);
    expect(new VtStripper().process('50%\x1b[1G\x1b[K')).toBe(`50%\r${ERASED_ROW}`);
    // Anywhere else an erase-line is dropped (nothing drawn is erased: a line's start, after text, EL 1).
    expect(new VtStripper().process('\x1b[2Ka\x1b[0Kb\r\x1b[1Kc')).toBe('ab\rc');
    // A CR at the end of one chunk, the erase at the start of the next.
    const st = new VtStripper();
    expect(st.process('⠙ 1/3\r') + st.process('\x1b[K')).toBe(`⠙ 1/3\r${ERASED_ROW}`);
    expect(stripAnsi('50%\x1b[1G\x1b[K100%')).toBe('50%\r100%');
    expect(new VtStripper().process('\x1b[2Aline')).toBe(`${CURSOR_UP_MARK}${CURSOR_UP_MARK}line`);
    // cursor-next-line is its own mark (a row ends there, column 1 follows); CNL 3 goes two rows further
    expect(new VtStripper().process('\x1b[2Bline\x1b[E')).toBe(`${CURSOR_DOWN_MARK}${CURSOR_DOWN_MARK}line${NEXT_LINE_MARK}`);
    expect(new VtStripper().process('a\x1b[3Eb')).toBe(`a${NEXT_LINE_MARK}${CURSOR_DOWN_MARK}${CURSOR_DOWN_MARK}b`);
    expect(stripAnsi('a\x1b[1Eb')).toBe('ab');
  });

  it('drops other C0 controls but keeps tab, CR, LF, BS', () => {
    expect(new VtStripper().process('a\x00\x07b\tc\r\n\bd\x7f')).toBe('ab\tc\r\n\bd');
  });

  it('lists where each run of marks it wrote starts (the line buffer walks them instead of searching)', () => {
    const vt = new VtStripper();
    const out = vt.process('a\x1b[31mb\x1b[1G\x1b[3Ac\r\n\x1b[9');
    expect(out).toBe(`a${RED_MARK}b\r${CURSOR_UP_MARK.repeat(3)}c\r\n`);
    expect(vt.markAt.slice(0, vt.markCount)).toEqual([1, 4]); // CHA 1 wrote a CR, not a mark
    // The rest of a split CSI is finished by the slow path, which lists its mark too.
    expect(vt.process('3mx')).toBe(`${YELLOW_MARK}x`);
    expect(vt.markAt.slice(0, vt.markCount)).toEqual([0]);
    vt.process('plain');
    expect([vt.marked, vt.markCount]).toEqual([false, 0]);
  });

  it('stripAnsi removes everything including hint marks', () => {
    expect(stripAnsi('\x1b[31mred\x1b[0m plain \x1b[2A\x1b[1B')).toBe('red plain ');
  });
});

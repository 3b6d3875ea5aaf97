import { describe, expect, it } from 'vitest';
import { LineBuffer, MAX_LINE_CHARS } from './line-buffer.js';
import type { Line } from './types.js';
import { CURSOR_UP_MARK, RED_MARK } from './vt-stripper.js';

function collect(chunks: string[]): Line[] {
  const lines: Line[] = [];
  const lb = new LineBuffer((l) => lines.push(l));
  for (const c of chunks) lb.ingest(c);
  lb.end();
  return lines;
}

describe('LineBuffer', () => {
  it('completes lines on LF and CRLF, numbering them', () => {
    const lines = collect(['one\r\ntwo\nthr', 'ee\r\n']);
    expect(lines.map((l) => [l.kind, l.text, l.no])).toEqual([
      ['complete', 'one', 1],
      ['complete', 'two', 2],
      ['complete', 'three', 3],
    ]);
  });

  it('collapses CR overwrites to the final state, also when CR and LF arrive in different chunks', () => {
    const lines = collect(['Downloading 10%\rDownloading 50%\r', 'Downloading 100%\r', '\nDone\r\n']);
    expect(lines.map((l) => [l.kind, l.text])).toEqual([
      ['overwrite', 'Downloading 100%'],
      ['complete', 'Done'],
    ]);
  });

  it('keeps an error printed over a cleared progress frame', () => {
    const [line] = collect(['[#####     ] 50%\r', 'error: disk full\r\n']);
    expect(line.text).toBe('error: disk full');
  });

  it('reads colour marks as hints and never as overwrites', () => {
    const [line] = collect([`src/a.c:1:2: ${RED_MARK}error: x\r\n`]);
    expect(line).toMatchObject({ kind: 'complete', text: 'src/a.c:1:2: error: x', color: 1 });
  });

  it('marks lines redrawn after a cursor-up as overwrite', () => {
    const lines = collect(['a: 1%\r\nb: 1%\r\n', `${CURSOR_UP_MARK}${CURSOR_UP_MARK}a: 9%\r\nb: 9%\r\nStatus: done\r\n`]);
    expect(lines.map((l) => l.kind)).toEqual(['complete', 'complete', 'overwrite', 'overwrite', 'complete']);
  });

  it('keeps a partial line provisional: peeking does not consume it', () => {
    const lines: Line[] = [];
    const lb = new LineBuffer((l) => lines.push(l));
    lb.ingest('Continue? [Y/n] ');
    expect(lb.peekPartial()).toBe('Continue? [Y/n] ');
    lb.ingest('y\r\n');
    expect(lines.map((l) => l.text)).toEqual(['Continue? [Y/n] y']);
  });

  it('splits a line with no newline at all once it reaches the cap (bounded memory)', () => {
    const lines: Line[] = [];
    const lb = new LineBuffer((l) => lines.push(l));
    for (let i = 0; i < 10; i++) lb.ingest('x'.repeat(MAX_LINE_CHARS / 2));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lb.peekPartial().length).toBeLessThanOrEqual(MAX_LINE_CHARS);
  });

  it('applies backspaces (spinners drawn with BS)', () => {
    expect(collect(['work |\b/\b-\b\\\bdone\r\n'])[0].text).toBe('work done');
  });
});

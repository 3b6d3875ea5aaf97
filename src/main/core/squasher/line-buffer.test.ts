import { describe, expect, it } from 'vitest';
import { LineBuffer, MAX_LINE_CHARS } from './line-buffer.js';
import { CUT_MARKER_MAX_CHARS, MAX_SHOWN_LINE_CHARS, SHOWN_HEAD_CHARS, SHOWN_TAIL_CHARS } from './line-cut.js';
import { MAX_HELD_LINES, MAX_REACHABLE_ROWS } from './redraw-region.js';
import { ColorHint, type Line } from './types.js';
import { CURSOR_DOWN_MARK, CURSOR_UP_MARK, NEXT_LINE_MARK, RED_MARK, VtStripper } from './vt-stripper.js';

const UP = CURSOR_UP_MARK;

/** `kind:text` of each line, in order. */
function trace(lines: Line[]): string {
  return lines.map((l) => `${l.kind}:${l.text}`).join(' | ');
}

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

  it("keeps a program's own CRLF lines, which a PTY delivers as CR CR LF (curl -i, PowerShell: they were lost)", () => {
    // Without marks (the fast path) and with them (a colour mark on the line), split anywhere.
    for (const chunks of [['HTTP/1.1 200 OK\r\r\nContent-Type: text/html\r\r\n\r\r\nbody\r\n'], ['HTTP/1.1 200 OK\r', '\r', '\nContent-Type: text/html\r\r\n\r\r\nbody\r\n']]) {
      expect(collect(chunks).map((l) => [l.kind, l.text])).toEqual([['complete', 'HTTP/1.1 200 OK'], ['complete', 'Content-Type: text/html'], ['complete', ''], ['complete', 'body']]);
    }
    expect(collect([`${RED_MARK}error: x\r\r\n`]).map((l) => l.text)).toEqual(['error: x']);
  });

  it('a row erased after a carriage return is blank: a spinner clearing itself (`\\r\\x1b[K`), the erase read by the VT stripper', () => {
    const st = new VtStripper();
    const lines = collect([st.process('⠙ building\x1b[1G\x1b[0K\r\nDone\r\n\x1b[2K\x1b[1G\x1b[2K\x1b[1Ginfo ok\r\n')]);
    expect(lines.map((l) => [l.kind, l.text])).toEqual([['overwrite', ''], ['complete', 'Done'], ['complete', 'info ok']]);
    // An erase to the line's end after text keeps the text; a spinner cleared at the very end leaves no text.
    expect(collect([new VtStripper().process('ready\x1b[K\r\n⠙\x1b[1G\x1b[0K')]).map((l) => [l.kind, l.text])).toEqual([['complete', 'ready'], ['overwrite', '']]);
  });

  it("a line printed after a spinner cleared itself is the program's line, not a progress frame (npm pack: its result line was lost)", () => {
    // npm: each line is written after its spinner frame is cleared (`⠹ ESC[1G ESC[0K line`); ora-style spinners end on their result.
    const npm = '⠙\x1b[1G\x1b[0K⠹\x1b[1G\x1b[0K\x1b[1mnpm\x1b[22m notice\r\n⠹\x1b[1G\x1b[0Kacme-ui-3.2.0.tgz\r\n⠹\x1b[1G\x1b[0K';
    const ora = '⠋ Building\r\x1b[K⠙ Building\r\x1b[K✔ Built in 2.1s\r\n| \r/ \rdone\r\n';
    for (const input of [npm, ora]) {
      const text = collect([new VtStripper().process(input)]);
      const bytes = new VtStripper();
      // The same bytes as UTF-8 read as Latin-1 (how the squasher feeds them: VtStripper's notes).
      const asBytes = Buffer.from(input).toString('latin1');
      const lines: Line[] = [];
      const lb = new LineBuffer((l) => lines.push(l));
      lb.ingest(bytes.process(asBytes, true)!, bytes);
      lb.end();
      for (const got of [text, lines]) expect(trace(got)).toBe(input === npm ? 'complete:npm notice | complete:acme-ui-3.2.0.tgz | overwrite:' : 'complete:✔ Built in 2.1s | complete:done');
    }
    // Still frames of progress: a spinner's last frame, a bar's, a frame after a bar, a spinner cleared at the line's end.
    const still = collect([new VtStripper().process('⠋ Building\r⠙ Building\r\n⠋\r⠙\r\n[##   ] 40%\r[#####] 100%\r\n[##   ] 40%\r\x1b[Kdone 5 files\r\n⠙ x\x1b[1G\x1b[0K\r\n')]);
    expect(trace(still)).toBe('overwrite:⠙ Building | overwrite:⠙ | overwrite:[#####] 100% | overwrite:done 5 files | overwrite:');
    // A spinner that ran for hours before its line (past MAX_LINE_CHARS): the same, in chunks; a bar that long stays an overwrite.
    const spun = '⠙\r'.repeat(MAX_LINE_CHARS);
    for (const [line, want] of [[`${spun}acme-ui-3.2.0.tgz\r\n`, 'complete:acme-ui-3.2.0.tgz'], [`${spun}⠹\r\n`, 'overwrite:⠹'], [`${'[##  ] 40%\r'.repeat(8000)}done\r\n`, 'overwrite:done']]) {
      expect(trace(collect(line.match(/[^]{1,5000}/g)!))).toBe(want);
    }
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

  it('keeps only the last drawing of each row of a display redrawn after a cursor-up, in order', () => {
    // BuildKit's shape: a header and step rows, redrawn from the header down; the first
    // frame is drawn after a cursor-up too, so every frame is within reach.
    const lines = collect([`${UP}[+] Building 0.1s (0/2)\r\n`, `${UP}[+] Building 0.2s (1/2)\r\n => a 0.1s\r\n`, `${UP}${UP}[+] Building 0.3s (2/2) FINISHED\r\n => a 0.2s\r\n => b 0.1s\r\ndone\r\n`]);
    expect(trace(lines)).toBe(
      'redrawn:[+] Building 0.1s (0/2) | redrawn:[+] Building 0.2s (1/2) | redrawn: => a 0.1s | complete:[+] Building 0.3s (2/2) FINISHED | complete: => a 0.2s | complete: => b 0.1s | complete:done',
    );
    expect(lines.map((l) => l.no)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('a cursor-next-line ends a screen row inside a raw line: Playwright\'s verdict rows stand alone, the running rows they replace go, raw numbering stays', () => {
    // Playwright's list reporter under a terminal: the running row, then (cursor up, erase, column 1) its
    // verdict, CNL, the next test's running row — one raw line holding two screen rows.
    const NL = NEXT_LINE_MARK;
    const lines = collect([
      '     1 a.spec.js:5:1 › one\r\n',
      `${UP}\r  ✓  1 a.spec.js:5:1 › one (1.5s)${NL}     2 a.spec.js:10:1 › two\r\n`,
      `${UP}\r  ✘  2 a.spec.js:10:1 › two (2.0s)${NL}\r\n`,
      '\r\n',
      '  1) a.spec.js:10:1 › two\r\n',
    ]);
    // (the first running row was delivered before any cursor-up: it cannot be taken back, redraw-region.ts)
    expect(lines.filter((l) => l.kind !== 'redrawn').map((l) => l.text)).toEqual(['     1 a.spec.js:5:1 › one', '  ✓  1 a.spec.js:5:1 › one (1.5s)', '  ✘  2 a.spec.js:10:1 › two (2.0s)', '', '', '  1) a.spec.js:10:1 › two']);
    // the rows of one raw line share its number: `mish raw --lines` counts newlines
    expect(lines.find((l) => l.text.includes('✘'))!.no).toBe(3);
    expect(lines[lines.length - 1].no).toBe(5);
    // without the mark the two rows ran together
    expect(lines.some((l) => l.text.includes('(1.5s)     2'))).toBe(false);
  });

  it("reads several rows drawn in one raw line, the cursor moved between them (docker pull's layer rows: adversary pass 97 L06)", () => {
    // docker's redraw of a layer's row: up to it, erase, return, the row, return, back down; no newline until the end.
    const DOWN = CURSOR_DOWN_MARK;
    const lines = collect([
      'a1: Pulling fs layer\r\n',
      'b2: Pulling fs layer\r\n',
      `${UP}${UP}\ra1: Downloading  12.1MB/40MB\r${DOWN}${DOWN}${UP}${UP}\ra1: Pull complete\r${DOWN}${DOWN}${UP}\rb2: Pull complete\r${DOWN}\r\n`,
      'Digest: sha256:0f1e\r\n',
    ]);
    const shown = lines.filter((l) => l.kind === 'complete').map((l) => l.text);
    // The first drawings were delivered before any cursor-up (they cannot be taken back); each row's last drawing follows them.
    expect(shown).toEqual(['a1: Pulling fs layer', 'b2: Pulling fs layer', 'a1: Pull complete', 'b2: Pull complete', 'Digest: sha256:0f1e']);
    expect(trace(lines)).toContain('redrawn:a1: Downloading  12.1MB/40MB');
    // Up and down again with no return goes on drawing the same row.
    expect(collect([`abc${UP}${DOWN}def\r\n`]).map((l) => l.text)).toEqual(['abcdef']);
  });

  it('a row drawn again unchanged keeps its first drawing; a line that only moves the cursor over a row leaves it', () => {
    const lines = collect([`${UP}status\r\n => a done\r\n`, `${UP}${UP}status 2\r\n => a done\r\n`, `${UP}\r\n`, 'next\r\n']);
    expect(trace(lines)).toBe(
      'redrawn:status | complete: => a done | complete:status 2 | repeat: => a done | repeat: | complete:next',
    );
  });

  it('rows above the highest row a redraw reaches are final at once (a failure printed above a status line)', () => {
    const lines: Line[] = [];
    const lb = new LineBuffer((l) => lines.push(l));
    lb.ingest(`${UP}RUNS a\r\n`);
    lb.ingest(`${UP}FAIL a\r\n  ● test one\r\n    expected 1\r\nRUNS b\r\n`);
    expect(lines.map((l) => l.text)).toEqual(['RUNS a']); // the rest may still be drawn over
    lb.ingest(`${UP}RUNS b 2s\r\n`);
    expect(trace(lines)).toBe(
      'redrawn:RUNS a | complete:FAIL a | complete:  ● test one | complete:    expected 1 | redrawn:RUNS b',
    );
    lb.settle(); // quiet output: what is on screen is final
    expect(lines.at(-1)).toMatchObject({ kind: 'complete', text: 'RUNS b 2s' });
  });

  it('a display that moves up and down in place (Gradle) draws over the row it moved to', () => {
    const DOWN = CURSOR_DOWN_MARK;
    // Two status rows: up two, draw the bar over the first, down one; the next line goes below.
    const lines = collect([`${UP}<===> 0%\r\n> settings\r\n`, `${UP}${UP}\r<===> 50%${DOWN}\r\n`, 'BUILD FAILED\r\n']);
    expect(trace(lines)).toBe(
      'redrawn:<===> 0% | complete:> settings | complete:<===> 50% | complete:BUILD FAILED',
    );
  });

  it('a display that stops redrawing is delivered as it goes again after a screenful of lines', () => {
    const lines: Line[] = [];
    const lb = new LineBuffer((l) => lines.push(l));
    lb.ingest(`${UP}50%\r\n${UP}100%\r\n`);
    for (let i = 0; i < MAX_REACHABLE_ROWS + 5; i++) lb.ingest(`line ${i}\r\n`);
    expect(lines.length).toBeGreaterThan(MAX_REACHABLE_ROWS);
    expect(lines.at(-1)!.text).toBe(`line ${MAX_REACHABLE_ROWS + 4}`);
  });

  it('a row redrawn thousands of times under a row that never changes: lines keep flowing (bounded memory)', () => {
    const lines: Line[] = [];
    const lb = new LineBuffer((l) => lines.push(l));
    lb.ingest(`${UP}header\r\nprogress 0\r\n`);
    // each redraw goes up over the header (drawing nothing there), then draws the progress row
    for (let i = 1; i <= 3000; i++) lb.ingest(`${UP}${UP}\r\nprogress ${i}\r\n`);
    expect(lines.length).toBeGreaterThan(6000 - MAX_HELD_LINES - 10);
    expect(lines[0]).toMatchObject({ kind: 'complete', text: 'header' });
    lb.end();
    expect(lines.filter((l) => l.kind === 'complete').map((l) => l.text)).toEqual(['header', 'progress 3000']);
  });

  it('keeps a partial line provisional: peeking does not consume it', () => {
    const lines: Line[] = [];
    const lb = new LineBuffer((l) => lines.push(l));
    lb.ingest('Continue? [Y/n] ');
    expect(lb.peekPartial()).toBe('Continue? [Y/n] ');
    lb.ingest('y\r\n');
    expect(lines.map((l) => l.text)).toEqual(['Continue? [Y/n] y']);
  });

  it('a line with no newline at all stays one line, held bounded as head, exact count and tail', () => {
    const lines: Line[] = [];
    const lb = new LineBuffer((l) => lines.push(l));
    for (let i = 0; i < 10; i++) lb.ingest(`${'x'.repeat(MAX_LINE_CHARS / 2 - 1)}${i}`);
    expect(lines).toEqual([]);
    // what is carried stays bounded however long the line gets
    expect(lb.peekPartial().length).toBeLessThanOrEqual(MAX_LINE_CHARS + MAX_SHOWN_LINE_CHARS + CUT_MARKER_MAX_CHARS);
    lb.end();
    const total = 10 * (MAX_LINE_CHARS / 2);
    expect(lines.map((l) => [l.kind, l.no])).toEqual([['complete', 1]]);
    expect(lines[0].text).toBe(`${'x'.repeat(SHOWN_HEAD_CHARS)}… [+${(total - MAX_SHOWN_LINE_CHARS).toLocaleString('en-US')} chars] …${'x'.repeat(SHOWN_TAIL_CHARS - 1)}9`);
  });

  it('an over-long line is one line whatever the chunks: head, count and tail, then the next lines numbered on', () => {
    const long = `${RED_MARK}head:${'a'.repeat(200_000)}${'b'.repeat(100_000)}:tail\r\n`;
    const text = `${long}next\r\n`;
    const whole = collect([text]);
    for (const size of [1000, 4096, 65_537]) {
      const chunks: string[] = [];
      for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
      expect(collect(chunks), `chunks of ${size}`).toEqual(whole);
    }
    expect(whole.map((l) => [l.kind, l.no, l.color])).toEqual([
      ['complete', 1, ColorHint.Red],
      ['complete', 2, ColorHint.None],
    ]);
    expect(whole[0].text).toBe(`head:${'a'.repeat(SHOWN_HEAD_CHARS - 5)}… [+${(300_010 - MAX_SHOWN_LINE_CHARS).toLocaleString('en-US')} chars] …${'b'.repeat(SHOWN_TAIL_CHARS - 5)}:tail`);
    expect(whole[1].text).toBe('next');
  });

  it('a progress bar redrawn with CR past the cap is one overwrite line in its final frame', () => {
    const frames = Array.from({ length: 20_000 }, (_, i) => `\rdownloading ${(i / 200).toFixed(1)}%`).join('');
    const lines = collect([frames.slice(0, 100_000), frames.slice(100_000), '\rdownloaded 100%\r\n', 'done\r\n']);
    expect(lines.map((l) => [l.kind, l.text, l.no])).toEqual([
      ['overwrite', 'downloaded 100%', 1],
      ['complete', 'done', 2],
    ]);
  });

  it('a colour hint or a cursor move in the dropped middle of an over-long line still counts', () => {
    const red = collect([`plain ${'x'.repeat(100_000)}${RED_MARK}${'y'.repeat(100_000)} end\r\n`]);
    expect(red[0].color).toBe(ColorHint.Red);
    // cursor-ups at the end of a line make a redraw of the rows above: the same, short or long
    const shape = (n: number) =>
      collect(['row one\r\n', 'row two\r\n', `${'z'.repeat(n)}${UP}${UP}\r\n`, 'row one again\r\n', 'row two again\r\n']).map((l) => `${l.kind}:${l.text.startsWith('zzz') ? 'z…' : l.text}`);
    expect(shape(100_000)).toEqual(shape(10));
    expect(shape(10)).toContain('redrawn:z…');
  });

  it('applies backspaces (spinners drawn with BS)', () => {
    expect(collect(['work |\b/\b-\b\\\bdone\r\n'])[0].text).toBe('work done');
  });
});

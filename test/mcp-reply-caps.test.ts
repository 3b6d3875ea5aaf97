/**
 * Every reply stays under the ~20k-token cap, in its text and in its structuredContent, also for
 * one enormous line (issue 9: a 4,000,000-character line came back whole from read_raw), and the
 * middle of such a line can still be read exactly by columns.
 */
import { writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startStdio, type Served } from './mcp-helpers.js';

const CAP = 20_000;
const tokens = (s: string) => encode(s).length;

describe('reply caps on one enormous line', () => {
  let s: Served;
  let line: string;
  let file: string;
  beforeAll(async () => {
    s = await startStdio();
    // Dense, unrepetitive text (the worst case for tokens per char), 4,000,000 characters, then a marker at the end.
    line = `${randomBytes(3_000_000).toString('base64').slice(0, 4_000_000 - 4)} END`;
    file = path.join(s.home, 'one-line.txt');
    writeFileSync(file, `before\n${line}\nafter\n`);
  });
  afterAll(() => s.close());

  it('sh_run, read_raw and read_tail raw stay under the cap in text and structuredContent; the end of the line shows; columns read the middle exactly', async () => {
    const run = await call(s.client, 'sh_run', { cmd: `cat ${file}` });
    const id = run.data.id as string;
    const replies = {
      sh_run: run,
      read_raw: await call(s.client, 'sh_interact', { id, action: 'read_raw' }),
      read_tail_raw: await call(s.client, 'sh_interact', { id, action: 'read_tail', raw: true }),
      read_tail: await call(s.client, 'sh_interact', { id, action: 'read_tail' }),
    };
    for (const [name, r] of Object.entries(replies)) {
      expect(tokens(r.text), `${name} text`).toBeLessThanOrEqual(CAP);
      expect(tokens(JSON.stringify(r.result.structuredContent ?? {})), `${name} structuredContent`).toBeLessThanOrEqual(CAP);
    }
    const raw = replies.read_raw;
    expect(raw.data.lines.map((l: { n: number }) => l.n)).toEqual([1, 2, 3]);
    const cut = raw.data.lines[1];
    expect(cut.chars).toBe(line.length);
    expect(cut.text.startsWith(line.slice(0, 2_500))).toBe(true);
    expect(cut.text.endsWith(line.slice(-1_500))).toBe(true);
    expect(cut.text).toMatch(/… \[\+3,996,000 chars: columns 2501-3998500; read them with from_col\/to_col\] …/);
    expect(raw.text).toContain(' END');
    // The middle, exactly, by columns.
    const mid = await call(s.client, 'sh_interact', { id, action: 'read_raw', from_line: 2, to_line: 2, from_col: 2_000_001, to_col: 2_003_000 });
    expect(mid.data.lines).toEqual([{ n: 2, text: line.slice(2_000_000, 2_003_000), chars: line.length }]);
    expect(mid.text).toContain('columns 2000001-2003000');
    // A column range is capped too.
    const wide = await call(s.client, 'sh_interact', { id, action: 'read_raw', from_line: 2, to_line: 2, from_col: 1, to_col: 4_000_000 });
    expect(wide.data.lines[0].text).toBe(line.slice(0, 4_000));
    expect((await call(s.client, 'sh_interact', { id, action: 'read_raw', from_col: 9, to_col: 3 })).result.isError).toBe(true);
  });
});

describe('a line that never ends', () => {
  let s: Served;
  beforeAll(async () => (s = await startStdio()));
  afterAll(() => s.close());

  it('a 27 MB single-line output is condensed like any other (it took 83 s for 13 MB: the partial line was re-split whole on every chunk)', async () => {
    const r = await call(s.client, 'sh_run', { cmd: `python3 -c "import sys; sys.stdout.write('A' * 27_000_000 + 'Z\\n'); print('done')"` });
    expect(r.data.exit_code, r.text).toBe(0);
    expect(r.data.raw_lines).toBe(2);
    // The long line was cut: the status line names the line count and how to read it whole.
    expect(r.text).toMatch(/^A+… \[\+26,999,[\d,]+ chars\] …A+Z\ndone\n\[exit 0 (?:· \d+s )?· 2 lines · read_raw c\d+\]/);
    expect(tokens(r.text)).toBeLessThanOrEqual(CAP);
  });
});

/** A hang guard for the 103 MB run (the SDK client's own bound would cut it first on a loaded machine). */
const SPOOL_CAP_CALL_MS = 400_000;

describe('past the 96 MiB spool cap', () => {
  let s: Served;
  beforeAll(async () => (s = await startStdio()));
  afterAll(() => s.close());

  it('the status line, read_tail and read_raw use one numbering; tail reads work; the gap is stated', async () => {
    const N = 14_000_000; // `seq` prints ~103 MB: past the head (32 MiB) + two tail segments (64 MiB)
    // 103 MB through a PTY: 8 s idle, past the helpers' 120 s call bound at load 20 (the stress run).
    const run = await call(s.client, 'sh_run', { cmd: `seq 1 ${N}`, timeout: 600 }, { timeout: SPOOL_CAP_CALL_MS });
    expect(run.data.exit_code).toBe(0);
    expect(run.data.raw_lines).toBe(N);
    const id = run.data.id as string;
    const tail = await call(s.client, 'sh_interact', { id, action: 'read_tail', raw: true, lines: 3 });
    expect(tail.data.lines).toEqual([N - 2, N - 1, N].map((n) => ({ n, text: String(n) })));
    expect(tail.data.total_lines).toBe(N);
    const head = await call(s.client, 'sh_interact', { id, action: 'read_raw', from_line: 1, to_line: 2 });
    expect(head.data.lines).toEqual([{ n: 1, text: '1' }, { n: 2, text: '2' }]);
    const around = await call(s.client, 'sh_interact', { id, action: 'read_raw', from_line: 9_000_000, to_line: 9_000_002 });
    expect(around.data.lines).toEqual([9_000_000, 9_000_001, 9_000_002].map((n) => ({ n, text: String(n) })));
    const gapRead = await call(s.client, 'sh_interact', { id, action: 'read_raw', from_line: 5_000_000, to_line: 5_000_001 });
    expect(gapRead.text).toMatch(/lines \d+-\d+ \([\d,]+\) were dropped from its middle/);
    expect(gapRead.data.dropped_lines).toBeGreaterThan(1_000_000);
  }, SPOOL_CAP_CALL_MS + 120_000);
});

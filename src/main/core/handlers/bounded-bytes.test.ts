import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sandbox } from '../router/test-kit.js';
import { BoundedBytes } from './bounded-bytes.js';
import { passthroughReport } from './passthrough.js';

describe('BoundedBytes', () => {
  it('keeps head and newest tail, and counts the whole stream exactly (CRLF split across chunks included)', () => {
    const b = new BoundedBytes(10, 10);
    const data = Buffer.from('a\r\nbb\r\nccc\r\n'.repeat(20) + 'end');
    for (let i = 0; i < data.length; i += 7) b.push(data.subarray(i, i + 7));
    const r = b.result();
    expect('head' in r).toBe(true);
    if (!('head' in r)) return;
    expect(r.head.equals(data.subarray(0, 10))).toBe(true);
    expect(data.subarray(data.length - r.tail.length).equals(r.tail)).toBe(true);
    expect(r.tail.length).toBeGreaterThanOrEqual(10);
    expect(r.counts).toEqual({ bytes: data.length, newlines: 60, crlf: 60, lastByte: 'd'.charCodeAt(0) });
  });

  it('small streams come back whole', () => {
    const b = new BoundedBytes(10, 10);
    b.push(Buffer.from('0123456789abc'));
    expect(b.result()).toEqual({ whole: Buffer.from('0123456789abc'), counts: { bytes: 13, newlines: 0, crlf: 0, lastByte: 99 } });
  });
});

describe('passthrough of an output too big to hold', () => {
  const sb = sandbox('bounded');
  afterAll(() => sb.cleanup());

  it('shows what the whole-memory cut shows: same head, tail, line numbers and counts', async () => {
    const lines: string[] = [];
    for (let i = 1; i <= 400_000; i++) lines.push(`row ${i} ${'x'.repeat(i % 17)}`);
    const text = `${lines.join('\n')}\n`;
    writeFileSync(path.join(sb.dir, 'big.txt'), text);
    const r = await sb.run('cat big.txt', { output: 'json' });
    expect(r.report.category).toBe('passthrough');
    const got = r.report as Extract<typeof r.report, { category: 'passthrough' }>;
    const want = passthroughReport(readFileSync(path.join(sb.dir, 'big.txt'), 'utf8'));
    expect(got.lines).toBe(want.lines);
    expect(got.bytes).toBe(Buffer.byteLength(text));
    expect(got.cut).toEqual(want.cut);
    expect(got.output).toBe(want.output);
  });
});

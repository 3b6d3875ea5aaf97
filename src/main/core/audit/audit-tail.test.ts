/**
 * The audit log's newest records, read from its end (audit-tail.ts): bounded by a record count
 * and a byte count whatever the log's size, and lines that are not records skipped and counted,
 * never thrown.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from './audit-log.js';
import { AUDIT_TAIL_RECORDS, readAuditFrom, readAuditTail } from './audit-tail.js';

let dir: string;
let log: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'mish-audit-tail-'));
  log = path.join(dir, 'state', 'mish', 'audit.jsonl');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A record line as the log writes it (the reader needs seq, hash and prev; the chain is verify's business). */
const line = (seq: number, extra: Record<string, unknown> = {}) => `${JSON.stringify({ seq, ts: new Date(1_700_000_000_000 + seq).toISOString(), pid: 1, prev: 'p', hash: `h${seq}`, kind: 'command', by: 'agent', host: 'cli', command: `echo ${seq}`, ...extra })}\n`;

function writeLog(text: string): void {
  mkdirSync(path.dirname(log), { recursive: true });
  writeFileSync(log, text);
}

describe('readAuditTail', () => {
  it('no log yet: nothing, said as missing', async () => {
    expect(await readAuditTail(log)).toEqual({ records: [], skipped: 0, partial: false, missing: true, end: 0 });
  });

  it("reads a real log's records in file order", async () => {
    const audit = new AuditLog({ path: log });
    for (let i = 1; i <= 5; i++) audit.record({ kind: 'command', by: 'agent', host: 'cli', agent: 'claude-code/2.1.3', session: 's1', command: `echo ${i}`, exitCode: 0 });
    await audit.flush();
    const t = await readAuditTail(log);
    expect(t.records.map((r) => r.command)).toEqual(['echo 1', 'echo 2', 'echo 3', 'echo 4', 'echo 5']);
    expect(t.records[4]).toMatchObject({ seq: 5, agent: 'claude-code/2.1.3', session: 's1' });
    expect(t).toMatchObject({ skipped: 0, partial: false, missing: false });
  });

  it('a malformed line, a line that is JSON but no record, and a last record cut short are skipped and counted; the rest is read', async () => {
    const cut = line(6).slice(0, 40); // a crash mid-append: no newline, half a record
    writeLog(line(1) + line(2) + '{"seq": 3, this is not json\n' + line(4) + '{"hello":"world"}\n' + '\n' + line(5) + cut);
    const t = await readAuditTail(log);
    expect(t.records.map((r) => r.seq)).toEqual([1, 2, 4, 5]);
    expect(t.skipped).toBe(3);
    expect(t.partial).toBe(false);
  });

  it('a line that is not UTF-8 or holds a NUL is skipped, not thrown', async () => {
    writeLog(line(1));
    appendFileSync(log, Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0x0a]));
    appendFileSync(log, line(2));
    const t = await readAuditTail(log);
    expect(t.records.map((r) => r.seq)).toEqual([1, 2]);
    expect(t.skipped).toBe(1);
  });

  it('a big log: only the newest AUDIT_TAIL_RECORDS are returned, the newest last, and older ones are said to exist', async () => {
    const n = AUDIT_TAIL_RECORDS * 20;
    const parts: string[] = [];
    for (let i = 1; i <= n; i++) parts.push(line(i));
    writeLog(parts.join(''));
    const t = await readAuditTail(log);
    expect(t.records).toHaveLength(AUDIT_TAIL_RECORDS);
    expect(t.records[0].seq).toBe(n - AUDIT_TAIL_RECORDS + 1);
    expect(t.records.at(-1)!.seq).toBe(n);
    expect(t.partial).toBe(true);
    expect(t.skipped).toBe(0);
  });

  it('reads no further back than its byte bound: garbage at the start of a large log is never looked at', async () => {
    // 1 MB of garbage lines, then 100 records: a bound below the records' size never reaches the garbage.
    const garbage = 'x'.repeat(1023) + '\n';
    const records = Array.from({ length: 100 }, (_, i) => line(i + 1)).join('');
    writeLog(garbage.repeat(1024) + records);
    const t = await readAuditTail(log, { maxBytes: Buffer.byteLength(records) + 10 });
    expect(t.records.map((r) => r.seq)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    // The one line the bound cut through is not a line read (its start is beyond the bound): not counted.
    expect(t.skipped).toBe(0);
    expect(t.partial).toBe(true);
  });

  it('records larger than the byte bound: the bound holds, what fits is read', async () => {
    const big = (seq: number) => line(seq, { reason: 'r'.repeat(100_000) });
    writeLog(Array.from({ length: 50 }, (_, i) => big(i + 1)).join(''));
    const t = await readAuditTail(log, { maxBytes: 1_000_000 });
    expect(t.records.length).toBeGreaterThanOrEqual(8);
    expect(t.records.length).toBeLessThanOrEqual(10);
    expect(t.records.at(-1)!.seq).toBe(50);
    expect(t.skipped).toBe(0);
  });

  it('a record count bound smaller than the log: the newest, in order', async () => {
    writeLog(Array.from({ length: 30 }, (_, i) => line(i + 1)).join(''));
    const t = await readAuditTail(log, { maxRecords: 7 });
    expect(t.records.map((r) => r.seq)).toEqual([24, 25, 26, 27, 28, 29, 30]);
    expect(t.partial).toBe(true);
  });
});

describe('readAuditFrom (following the log)', () => {
  it('reads what was appended after the tail read; a line still being written is left for the next read', async () => {
    writeLog(line(1) + line(2));
    const t = await readAuditTail(log);
    expect(t.end).toBe(Buffer.byteLength(line(1) + line(2)));
    const half = line(4).slice(0, 30);
    appendFileSync(log, line(3) + half);
    const a = await readAuditFrom(log, t.end);
    expect(a.records.map((r) => r.seq)).toEqual([3]);
    expect(a.skipped).toBe(0);
    // Ends before the half line: it is read whole once its writer finished it.
    appendFileSync(log, line(4).slice(30) + '{broken\n');
    const b = await readAuditFrom(log, a.end);
    expect(b.records.map((r) => r.seq)).toEqual([4]);
    expect(b.skipped).toBe(1);
    expect((await readAuditFrom(log, b.end)).records).toEqual([]);
  });

  it('a burst larger than the byte bound: the newest records, the rest passed over and said', async () => {
    writeLog(line(1));
    const from = Buffer.byteLength(line(1));
    appendFileSync(log, Array.from({ length: 1000 }, (_, i) => line(i + 2)).join(''));
    const a = await readAuditFrom(log, from, { maxBytes: 10 * line(999).length + 5 });
    expect(a.passed).toBeGreaterThan(0);
    expect(a.records.at(-1)!.seq).toBe(1001);
    expect(a.records.length).toBeGreaterThanOrEqual(9);
    expect(a.records.length).toBeLessThanOrEqual(10);
    // The line the bound cut through is not a line read.
    expect(a.skipped).toBe(0);
  });

  it('a log shorter than where the reader was (replaced): read from its start; no log: nothing', async () => {
    writeLog(line(1) + line(2) + line(3));
    writeLog(line(1));
    expect((await readAuditFrom(log, 10_000)).records.map((r) => r.seq)).toEqual([1]);
    expect(await readAuditFrom(path.join(dir, 'none'), 0)).toEqual({ records: [], skipped: 0, end: 0, passed: 0 });
  });
});

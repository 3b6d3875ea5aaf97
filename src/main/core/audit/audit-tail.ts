/**
 * The newest records of the audit log, read from its end: a bounded read for a reader that wants
 * recent history (the console at start), never the whole file. The log grows without bound (one
 * record per command of every agent), so the cost of reading it must not grow with it.
 *
 * Lines that are not records (a write cut short by a crash, a line edited by hand, garbage) are
 * skipped and counted, never thrown: the reader shows what it can and says how much it could not.
 * `mish audit verify` is where a broken chain is judged.
 */
import * as fsp from 'node:fs/promises';
import { parseRecord } from './audit-log.js';
import type { AuditRecord } from './types.js';

/**
 * Records a tail read returns at most. The console's timeline keeps 200 rows per session; 2,000
 * records are several busy conversations' worth (each hooked run writes one record, an escalation
 * three or four), and parse in a few milliseconds.
 */
export const AUDIT_TAIL_RECORDS = 2_000;
/**
 * Bytes a tail read looks at, at most, whatever the record count: records are usually well under
 * 1 KB, so 4 MB holds the count above many times over; a log of unusually large records (long
 * command lines, long reasons) costs this much and no more.
 */
export const AUDIT_TAIL_MAX_BYTES = 4 * 1024 * 1024;
/** Bytes read per step from the end (a step finds ~100 records). */
const TAIL_CHUNK_BYTES = 64 * 1024;

export interface AuditTail {
  /** The newest parsable records, in file order (oldest first). */
  records: AuditRecord[];
  /** Lines in the part read that were not records (malformed, cut short): skipped. */
  skipped: number;
  /** The read stopped before the file's start (the record or byte bound): older records exist. */
  partial: boolean;
  /** No log file (nothing recorded yet). */
  missing: boolean;
  /** The log's size when read: a reader following the log reads on from here (readAuditFrom). */
  end: number;
}

export interface AuditTailOptions {
  maxRecords?: number;
  maxBytes?: number;
}

/** The last `maxRecords` records of `log`, reading at most `maxBytes` from its end. */
export async function readAuditTail(log: string, options: AuditTailOptions = {}): Promise<AuditTail> {
  const maxRecords = options.maxRecords ?? AUDIT_TAIL_RECORDS;
  const maxBytes = options.maxBytes ?? AUDIT_TAIL_MAX_BYTES;
  let fh: fsp.FileHandle;
  try {
    fh = await fsp.open(log, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], skipped: 0, partial: false, missing: true, end: 0 };
    throw e;
  }
  try {
    const size = (await fh.stat()).size;
    const floor = Math.max(0, size - maxBytes);
    // Complete lines found so far (newest last), and the bytes before them not yet split into lines.
    const lines: Buffer[] = [];
    let rest = Buffer.alloc(0);
    let pos = size;
    while (pos > floor && lines.length <= maxRecords) {
      const n = Math.min(TAIL_CHUNK_BYTES, pos - floor);
      pos -= n;
      const chunk = Buffer.alloc(n);
      const { bytesRead } = await fh.read(chunk, 0, n, pos);
      let buf = Buffer.concat([chunk.subarray(0, bytesRead), rest]);
      // Every line that starts after a newline in this buffer is complete; the part before the first newline may continue further back.
      const found: Buffer[] = [];
      for (let nl = buf.lastIndexOf(0x0a); nl !== -1; nl = buf.lastIndexOf(0x0a)) {
        found.push(buf.subarray(nl + 1));
        buf = buf.subarray(0, nl);
      }
      rest = buf;
      lines.unshift(...found.reverse());
    }
    // At the file's start, what is left is the first line (complete); at a bound, its start is cut off: not a line.
    if (pos === 0 && rest.length) lines.unshift(rest);
    // The last "line" after the final newline: empty for a log whose last write completed; else a record cut short.
    let skipped = 0;
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length === 0) lines.pop();
    const records: AuditRecord[] = [];
    // Newest first, until enough: a line cut short or malformed counts as skipped.
    let i = lines.length - 1;
    for (; i >= 0 && records.length < maxRecords; i--) {
      const text = lines[i].toString('utf8');
      if (!text.trim()) continue;
      const r = parseRecord(text);
      if (r) records.push(r);
      else skipped++;
    }
    records.reverse();
    // Older lines left unread: lines not looked at, or bytes before the part read.
    return { records, skipped, partial: i >= 0 || pos > 0, missing: false, end: size };
  } finally {
    await fh.close();
  }
}

export interface AuditAppended {
  /** Complete records appended since `from`, in file order. */
  records: AuditRecord[];
  /** Complete lines since `from` that were not records. */
  skipped: number;
  /** Where the next read starts: after the last complete line (a line still being written is read next time). */
  end: number;
  /** Bytes appended beyond `maxBytes` that were not read (their records are not returned). */
  passed: number;
}

/**
 * Records appended to `log` since byte `from` (a follower's next step after readAuditTail), at
 * most `maxBytes` of them (the newest; a burst beyond is passed over and said). A log shorter
 * than `from` was replaced or cut: read from its start.
 */
export async function readAuditFrom(log: string, from: number, options: { maxBytes?: number } = {}): Promise<AuditAppended> {
  const maxBytes = options.maxBytes ?? AUDIT_TAIL_MAX_BYTES;
  let fh: fsp.FileHandle;
  try {
    fh = await fsp.open(log, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], skipped: 0, end: 0, passed: 0 };
    throw e;
  }
  try {
    const size = (await fh.stat()).size;
    let start = size < from ? 0 : from;
    let passed = 0;
    if (size - start > maxBytes) {
      passed = size - maxBytes - start;
      start = size - maxBytes;
    }
    // Passing bytes over: one byte more in front says whether the first line starts a line.
    const lead = passed > 0 ? 1 : 0;
    const buf = Buffer.alloc(size - start + lead);
    const { bytesRead } = await fh.read(buf, 0, buf.length, start - lead);
    const cutFirst = lead === 1 && buf[0] !== 0x0a;
    const text = buf.subarray(lead, bytesRead);
    const lastNl = text.lastIndexOf(0x0a);
    if (lastNl === -1) return { records: [], skipped: 0, end: start, passed };
    const records: AuditRecord[] = [];
    let skipped = 0;
    const lines = text.subarray(0, lastNl).toString('utf8').split('\n');
    // After passing bytes over, a first line that started before them is a tail of one: not a line.
    if (cutFirst) lines.shift();
    for (const line of lines) {
      if (!line.trim()) continue;
      const r = parseRecord(line);
      if (r) records.push(r);
      else skipped++;
    }
    return { records, skipped, end: start + lastNl + 1, passed };
  } finally {
    await fh.close();
  }
}

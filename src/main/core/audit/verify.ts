/**
 * `mish audit verify`: walks the chain and names every record that breaks it, and why: edited
 * (its text no longer matches its hash, or it is not in canonical form), removed (a seq is
 * missing), inserted (a seq twice, or a record that does not chain to the one before),
 * reordered (seqs out of order), truncated (the head file names a later record than the last).
 *
 * What it cannot catch: someone who rewrites the whole file and the head file consistently
 * (recomputing every hash) — a local chain proves order and integrity against partial edits,
 * not against its owner. Copy the head line elsewhere (a CI log, a ticket) to pin a point.
 */
import * as fs from 'node:fs';
import { readHead } from './audit-log.js';
import { canonicalJson, GENESIS_HASH, recordHash } from './chain.js';
import type { AuditRecord } from './types.js';

export interface AuditProblem {
  /** 1-based line of the log (= record number in file order); 0 for the log as a whole. */
  line: number;
  /** The record's seq when it could be read. */
  seq?: number;
  why: string;
}

export interface AuditVerdict {
  ok: boolean;
  /** Lines holding a record. */
  records: number;
  /** seq and hash of the last record. */
  last?: { seq: number; hash: string };
  problems: AuditProblem[];
}

/** The first record with `seq` (and its line), searching the whole log (it may sit later when reordered). */
function findSeq(parsed: (AuditRecord | undefined)[], seq: number): (AuditRecord & { line: number }) | undefined {
  const i = parsed.findIndex((r) => r?.seq === seq);
  return i < 0 ? undefined : { ...parsed[i]!, line: i + 1 };
}

export function verifyAuditLog(log: string): AuditVerdict {
  let text: string;
  try {
    text = fs.readFileSync(log, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return { ok: false, records: 0, problems: [{ line: 0, why: `cannot read ${log}: ${(e as Error).message}` }] };
    text = '';
  }
  const problems: AuditProblem[] = [];
  // An absent or empty log holds no lines (''.split would give one blank "record").
  const lines = text === '' ? [] : text.split('\n');
  const complete = text.endsWith('\n') || text === '';
  if (text.endsWith('\n')) lines.pop();

  // First pass: parse, so "where else is this seq" can be answered.
  const parsed: (AuditRecord | undefined)[] = lines.map((l) => {
    try {
      const r = JSON.parse(l) as AuditRecord;
      return r && typeof r === 'object' && Number.isInteger(r.seq) && typeof r.hash === 'string' && typeof r.prev === 'string' ? r : undefined;
    } catch {
      return undefined;
    }
  });
  const linesOfSeq = new Map<number, number[]>();
  parsed.forEach((r, i) => {
    if (r) linesOfSeq.set(r.seq, [...(linesOfSeq.get(r.seq) ?? []), i + 1]);
  });

  // The chain is checked by seq (each record's prev is the hash of seq - 1, wherever that is),
  // the order by position (seqs only grow): a moved record is named once, not every one after it.
  const firstOfSeq = new Map<number, AuditRecord & { line: number }>();
  let records = 0;
  let last: { seq: number; hash: string } | undefined;
  let before: { seq: number; line: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    const r = parsed[i];
    if (!r) {
      const torn = i === lines.length - 1 && !complete;
      problems.push({ line, why: torn ? 'incomplete last line (cut off: the log was truncated mid-record or a write was torn)' : lines[i].trim() ? 'not an audit record (edited: not JSON with seq, prev and hash)' : 'empty line (edited: a record was blanked out)' });
      continue;
    }
    records++;
    last = { seq: r.seq, hash: r.hash };
    const seq = r.seq;
    const p = (why: string) => problems.push({ line, seq, why });
    const twins = linesOfSeq.get(seq) ?? [];
    if (recordHash(r) !== r.hash) p('edited or forged: its contents do not match its hash');
    else if (canonicalJson(r) !== lines[i]) p('edited: same contents but not the text that was written (reformatted)');
    if (twins.length > 1 && twins[0] !== line) p(`inserted: seq ${seq} appears twice (lines ${twins[0]} and ${line}): one of them was inserted`);
    else if (before && seq < before.seq) p(`reordered: seq ${seq} comes after seq ${before.seq} (line ${before.line})`);
    else if (seq === 1) {
      if (r.prev !== GENESIS_HASH) p('inserted or edited: seq 1 does not start the chain');
    } else {
      const parent = firstOfSeq.get(seq - 1) ?? findSeq(parsed, seq - 1);
      if (!parent) {
        let gapFrom = seq - 1;
        while (gapFrom > 1 && !linesOfSeq.has(gapFrom - 1)) gapFrom--;
        p(gapFrom === seq - 1 ? `removed: the record with seq ${seq - 1} is missing` : `removed: the records with seq ${gapFrom}–${seq - 1} are missing`);
      } else if (r.prev !== parent.hash) p(`does not chain to seq ${seq - 1} (line ${parent.line}): that record was edited and rehashed, or this one was inserted`);
    }
    if (!firstOfSeq.has(seq)) firstOfSeq.set(seq, { ...r, line });
    before = { seq, line };
  }

  const head = readHead(log);
  if (head === 'unreadable') problems.push({ line: 0, why: `the head file ${log}.head is unreadable (edited)` });
  else if (head === undefined) {
    if (records > 0) problems.push({ line: 0, why: `the head file ${log}.head is missing: records at the end could have been removed unseen` });
  } else if (!last) problems.push({ line: 0, why: `truncated: the log is empty but its head names seq ${head.seq}` });
  else if (head.seq > last.seq) problems.push({ line: lines.length, seq: last.seq, why: `truncated: the log ends at seq ${last.seq} but its head names seq ${head.seq}: records ${last.seq + 1}–${head.seq} were removed` });
  else if (head.seq < last.seq && findSeq(parsed, head.seq)?.hash === head.hash) {
    // The head lags (a crash between the log's fsync and the head's write): the log is longer, not shorter.
  } else if (head.seq !== last.seq || head.hash !== last.hash) problems.push({ line: lines.length, seq: last.seq, why: `the last record (seq ${last.seq}) is not the one the head names (seq ${head.seq}): appended or edited behind mish's back` });

  return { ok: problems.length === 0, records, ...(last ? { last } : {}), problems };
}

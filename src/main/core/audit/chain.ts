/**
 * The hash chain: each record's `hash` is the sha256 of its canonical text (sorted keys, no
 * spaces) without `hash`; that text holds `prev`, the previous record's hash, so changing,
 * removing, inserting or moving any record breaks the chain from that point on.
 */
import { createHash } from 'node:crypto';
import type { AuditRecord } from './types.js';

/** `prev` of the first record. */
export const GENESIS_HASH = '0'.repeat(64);

/** JSON with object keys sorted at every level and undefined fields left out: one text per value. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** The hash a record must carry: sha256 of its canonical text without `hash`. */
export function recordHash(record: Omit<AuditRecord, 'hash'> & { hash?: string }): string {
  const { hash: _hash, ...rest } = record;
  void _hash;
  return createHash('sha256').update(canonicalJson(rest)).digest('hex');
}

/** The line written to the log for `record` (canonical text, newline-terminated). */
export function recordLine(record: AuditRecord): string {
  return `${canonicalJson(record)}\n`;
}

/**
 * The console's audit viewer (issue 12.4): the newest lines of the audit log, each with its
 * line number (so a broken chain is shown at the record where it breaks) and `verify`'s verdict.
 * Read on request, never cached: the log is the record, the view only shows it.
 */
import * as fs from 'node:fs';
import type { RequestResult } from '../../shared/contract.js';
import { defaultAuditPath, parseRecord } from '../core/audit/audit-log.js';
import { verifyAuditLog } from '../core/audit/verify.js';

/** Lines sent to the viewer: the newest ones (the log grows without bound; verify reads it all). */
const AUDIT_VIEW_MAX_LINES = 5000;

export type AuditReader = () => RequestResult<'audit:read'>;

export function readAuditLines(log: string = defaultAuditPath()): AuditReader {
  return () => {
    let text: string;
    try {
      text = fs.readFileSync(log, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      // No log yet: nothing to verify (verify itself reports an absent log as one blank line).
      return { file: log, lines: [], firstLine: 1, totalLines: 0, verify: { ok: true, records: 0, problems: [] } };
    }
    const all = text.split('\n');
    if (text.endsWith('\n')) all.pop();
    if (text === '') all.length = 0;
    const from = Math.max(0, all.length - AUDIT_VIEW_MAX_LINES);
    const lines = all.slice(from).map((t, i) => {
      const record = parseRecord(t);
      return record ? { line: from + i + 1, record: record as unknown as Record<string, unknown> } : { line: from + i + 1, text: t.slice(0, 2000) };
    });
    const v = verifyAuditLog(log);
    return {
      file: log,
      lines,
      firstLine: from + 1,
      totalLines: all.length,
      verify: { ok: v.ok, records: v.records, problems: v.problems.map((p) => ({ line: p.line, ...(p.seq !== undefined ? { seq: p.seq } : {}), why: p.why })) },
    };
  };
}

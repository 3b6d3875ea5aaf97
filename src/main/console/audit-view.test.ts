/**
 * The audit viewer's reader on a real audit log (core/audit's AuditLog): every line with its
 * number, and a record edited after the fact named at its line by verify.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../core/audit/audit-log.js';
import { readAuditLines } from './audit-view.js';

describe('audit viewer reader', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('lists a missing log as empty and intact', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mish-audit-view-'));
    dirs.push(dir);
    const r = readAuditLines(path.join(dir, 'none.jsonl'))();
    expect(r.lines).toEqual([]);
    expect(r.verify.ok).toBe(true);
  });

  it('numbers every record and shows an edited one broken at its line', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mish-audit-view-'));
    dirs.push(dir);
    const file = path.join(dir, 'audit.jsonl');
    const log = new AuditLog({ path: file });
    for (const decision of ['approved', 'denied', 'ran']) log.record({ kind: 'approval', by: 'operator', host: 'operator', session: 's1', command: 'rm -rf ./*', decision });
    await log.flush();
    const read = readAuditLines(file);
    const before = read();
    expect(before.lines.map((l) => [l.line, l.record?.decision])).toEqual([
      [1, 'approved'],
      [2, 'denied'],
      [3, 'ran'],
    ]);
    expect(before.verify).toMatchObject({ ok: true, records: 3, problems: [] });

    writeFileSync(file, readFileSync(file, 'utf8').replace('"decision":"denied"', '"decision":"approved"'));
    const after = read();
    expect(after.verify.ok).toBe(false);
    expect(after.verify.problems[0].line).toBe(2);
  });
});

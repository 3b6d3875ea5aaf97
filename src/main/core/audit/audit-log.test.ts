import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync, chmodSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Redactor } from '../redact/redactor.js';
import { AuditLog, defaultAuditPath, headPath, LOCK_WAIT_MS, lockPath, readAuditRecords, STALE_LOCK_MS } from './audit-log.js';
import { recordHash, recordLine } from './chain.js';
import type { AuditRecord } from './types.js';
import { verifyAuditLog } from './verify.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '../../../..');
const TSX_LOADER = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

let dir: string;
let log: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'mish-audit-'));
  log = path.join(dir, 'state', 'mish', 'audit.jsonl');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function writeSix(): Promise<string[]> {
  const audit = new AuditLog({ path: log });
  for (let i = 1; i <= 6; i++) audit.record({ kind: 'command', by: 'agent', host: 'mcp', agent: 'claude-code/1.0', command: `echo ${i}`, exitCode: 0, session: 'default' });
  await audit.flush();
  return readFileSync(log, 'utf8').split('\n').slice(0, -1);
}

const save = (lines: string[]) => writeFileSync(log, lines.map((l) => `${l}\n`).join(''));
const problemsOf = () => verifyAuditLog(log).problems.map((p) => `${p.line}: ${p.why}`);

describe('audit log', () => {
  it('chains, fsyncs and verifies; state files 0600, directories 0700', async () => {
    const lines = await writeSix();
    expect(lines).toHaveLength(6);
    const recs = readAuditRecords(log);
    expect(recs.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    for (let i = 1; i < recs.length; i++) expect(recs[i].prev).toBe(recs[i - 1].hash);
    expect(verifyAuditLog(log)).toMatchObject({ ok: true, records: 6, problems: [] });
    expect(statSync(log).mode & 0o777).toBe(0o600);
    expect(statSync(headPath(log)).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(log)).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dir, 'state')).mode & 0o777).toBe(0o700);
    expect(existsSync(lockPath(log))).toBe(false);
  });

  it('narrows a log and directory left world-readable by an older version', async () => {
    mkdirSync(path.dirname(log), { recursive: true, mode: 0o755 });
    chmodSync(path.dirname(log), 0o755);
    writeFileSync(log, '', { mode: 0o644 });
    chmodSync(log, 0o644);
    await new AuditLog({ path: log }).append({ kind: 'session', by: 'agent', host: 'mcp', decision: 'created' });
    expect(statSync(log).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(log)).mode & 0o777).toBe(0o700);
  });

  it('redacts before hashing and writing', async () => {
    const token = `ghp_${'aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dF2hJ4'}`;
    const audit = new AuditLog({ path: log, redactor: new Redactor({ env: { DEPLOY_TOKEN: 's3cr3t-value-99' } }) });
    audit.record({ kind: 'command', by: 'agent', host: 'cli', command: `git push https://x:${token}@github.com/o/r && echo s3cr3t-value-99`, detail: { note: `password=hunter22` } });
    await audit.flush();
    const text = readFileSync(log, 'utf8');
    expect(text).not.toContain(token);
    expect(text).not.toContain('s3cr3t-value-99');
    expect(text).not.toContain('hunter22');
    expect(text).toContain('[masked: $DEPLOY_TOKEN value]');
    expect(verifyAuditLog(log).ok).toBe(true);
  });

  it('defaultAuditPath: MISH_AUDIT_LOG, else XDG_STATE_HOME, else ~/.local/state', () => {
    expect(defaultAuditPath({ MISH_AUDIT_LOG: '/x/a.jsonl', XDG_STATE_HOME: '/s' })).toBe('/x/a.jsonl');
    expect(defaultAuditPath({ XDG_STATE_HOME: '/s' })).toBe('/s/mish/audit.jsonl');
    expect(defaultAuditPath({})).toMatch(/\.local\/state\/mish\/audit\.jsonl$/);
  });

  describe('verify names the tampered record', () => {
    it('edit', async () => {
      const lines = await writeSix();
      lines[2] = lines[2].replace('echo 3', 'echo 9');
      save(lines);
      expect(problemsOf()).toEqual(['3: edited or forged: its contents do not match its hash']);
    });

    it('edit with the hash recomputed', async () => {
      const lines = await writeSix();
      const r = JSON.parse(lines[2]) as AuditRecord;
      r.command = 'echo nothing to see';
      r.hash = recordHash(r);
      lines[2] = recordLine(r).trimEnd();
      save(lines);
      expect(problemsOf()).toEqual(['4: does not chain to seq 3 (line 3): that record was edited and rehashed, or this one was inserted']);
    });

    it('remove', async () => {
      const lines = await writeSix();
      lines.splice(2, 1);
      save(lines);
      expect(problemsOf()).toEqual(['3: removed: the record with seq 3 is missing']);
    });

    it('insert (a copy of another record)', async () => {
      const lines = await writeSix();
      lines.splice(4, 0, lines[1]);
      save(lines);
      expect(problemsOf()).toEqual(['5: inserted: seq 2 appears twice (lines 2 and 5): one of them was inserted']);
    });

    it('insert (a forged record with a valid hash)', async () => {
      const lines = await writeSix();
      const before = JSON.parse(lines[1]) as AuditRecord;
      const forged: Omit<AuditRecord, 'hash'> = { kind: 'command', by: 'operator', host: 'cli', command: 'true', seq: 3, ts: before.ts, pid: 1, prev: before.hash };
      lines.splice(2, 0, recordLine({ ...forged, hash: recordHash(forged) }).trimEnd());
      save(lines);
      expect(problemsOf()).toEqual([
        '4: inserted: seq 3 appears twice (lines 3 and 4): one of them was inserted',
        '5: does not chain to seq 3 (line 3): that record was edited and rehashed, or this one was inserted',
      ]);
    });

    it('reorder', async () => {
      const lines = await writeSix();
      [lines[2], lines[3]] = [lines[3], lines[2]];
      save(lines);
      expect(problemsOf()).toEqual(['4: reordered: seq 3 comes after seq 4 (line 3)']);
    });

    it('truncate (whole records at the end)', async () => {
      const lines = await writeSix();
      save(lines.slice(0, 4));
      expect(problemsOf()).toEqual(['4: truncated: the log ends at seq 4 but its head names seq 6: records 5–6 were removed']);
    });

    it('truncate (mid-record)', async () => {
      const lines = await writeSix();
      writeFileSync(log, lines.map((l) => `${l}\n`).join('').slice(0, -40));
      const problems = problemsOf();
      expect(problems[0]).toBe('6: incomplete last line (cut off: the log was truncated mid-record or a write was torn)');
      expect(problems[1]).toMatch(/^6: truncated: the log ends at seq 5 but its head names seq 6/);
    });

    it('the head file removed', async () => {
      await writeSix();
      rmSync(headPath(log));
      expect(problemsOf()).toEqual([`0: the head file ${log}.head is missing: records at the end could have been removed unseen`]);
    });

    it('a reformatted line (same contents, other text)', async () => {
      const lines = await writeSix();
      lines[1] = JSON.stringify(JSON.parse(lines[1]), null, 1).replace(/\n/g, '');
      save(lines);
      expect(problemsOf()).toEqual(['2: edited: same contents but not the text that was written (reformatted)']);
    });

    it('after a torn write the log keeps going and verify names the torn line only', async () => {
      const lines = await writeSix();
      writeFileSync(log, `${lines.join('\n')}\n{"seq":7,"trunc`);
      await new AuditLog({ path: log }).append({ kind: 'command', by: 'user', host: 'cli', command: 'ls' });
      const recs = readAuditRecords(log);
      expect(recs.at(-1)!.seq).toBe(7);
      expect(problemsOf()).toEqual(['7: not an audit record (edited: not JSON with seq, prev and hash)']);
    });
  });

  it('concurrent appenders (4 processes and this one) keep one valid chain', async () => {
    const PER_CHILD = 25;
    const children = ['a', 'b', 'c', 'd'].map(
      (tag) =>
        new Promise<number>((resolve, reject) => {
          const c = spawn(process.execPath, ['--import', TSX_LOADER, path.join(HERE, 'test-appender.ts'), log, String(PER_CHILD), tag], { stdio: ['ignore', 'ignore', 'inherit'] });
          c.on('error', reject);
          c.on('exit', (code) => resolve(code ?? -1));
        }),
    );
    const here = new AuditLog({ path: log });
    for (let i = 0; i < PER_CHILD; i++) here.record({ kind: 'command', by: 'agent', host: 'mcp', command: `echo main ${i}` });
    await here.flush();
    expect(await Promise.all(children)).toEqual([0, 0, 0, 0]);
    const recs = readAuditRecords(log);
    expect(recs).toHaveLength(5 * PER_CHILD);
    expect(recs.map((r) => r.seq)).toEqual(Array.from({ length: 5 * PER_CHILD }, (_, i) => i + 1));
    expect(new Set(recs.map((r) => r.pid)).size).toBe(5);
    expect(verifyAuditLog(log)).toMatchObject({ ok: true, records: 5 * PER_CHILD });
  });

  it('breaks a stale lock left by a writer that died', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(dead.stdout);
    mkdirSync(path.dirname(log), { recursive: true });
    writeFileSync(lockPath(log), `${deadPid} ${Date.now()} cafe\n`);
    const rec = await new AuditLog({ path: log }).append({ kind: 'session', by: 'agent', host: 'mcp', decision: 'created' });
    expect(rec.seq).toBe(1);
    expect(existsSync(lockPath(log))).toBe(false);
  });

  it('waits for a lock held by a live writer until it is released', async () => {
    mkdirSync(path.dirname(log), { recursive: true });
    // a lock held by this (live) process, fresh: not stale
    writeFileSync(lockPath(log), `${process.pid} ${Date.now()} beef\n`);
    const errors: string[] = [];
    const audit = new AuditLog({ path: log, onError: (m) => errors.push(m) });
    // What the log held, and who held the lock, at the moment the lock is released: a writer that
    // ignored the lock (or broke a live writer's lock as stale) has written by then (an append
    // takes milliseconds); one that waits writes only after.
    let atRelease: { records: number; lock: string } | undefined;
    setTimeout(() => {
      atRelease = { records: existsSync(log) ? readAuditRecords(log).length : 0, lock: readFileSync(lockPath(log), 'utf8') };
      rmSync(lockPath(log));
    }, 300);
    audit.record({ kind: 'session', by: 'agent', host: 'mcp', decision: 'created' });
    await audit.flush();
    expect(errors).toEqual([]);
    expect(atRelease).toEqual({ records: 0, lock: expect.stringMatching(new RegExp(`^${process.pid} \\d+ beef\n$`)) });
    expect(readAuditRecords(log)).toHaveLength(1);
  });
});

describe('audit log: a lock held through a stalled disk', () => {
  it('keeps the records while a live writer holds the lock for 12 s (past the 10 s that used to lose them), then writes them', async () => {
    mkdirSync(path.dirname(log), { recursive: true });
    writeFileSync(lockPath(log), `${process.pid} ${Date.now()} beef\n`);
    const errors: string[] = [];
    const audit = new AuditLog({ path: log, onError: (m) => errors.push(m) });
    expect(LOCK_WAIT_MS).toBeGreaterThan(STALE_LOCK_MS);
    setTimeout(() => rmSync(lockPath(log)), 12_000);
    audit.record({ kind: 'session', by: 'agent', host: 'mcp', decision: 'created' });
    await audit.flush();
    expect(errors).toEqual([]);
    expect(readAuditRecords(log)).toHaveLength(1);
    expect(verifyAuditLog(log).problems).toEqual([]);
  }, 30_000);
});

describe('audit log: records are written in groups (AUDIT_GROUP_MS)', () => {
  it('records made in a burst reach the disk without flush(), as consecutive chained records, one head', async () => {
    const audit = new AuditLog({ path: log });
    for (let i = 1; i <= 20; i++) audit.record({ kind: 'command', by: 'agent', host: 'mcp', command: `echo ${i}`, exitCode: 0 });
    const written = async () => {
      for (let i = 0; i < 200 && !(existsSync(log) && readAuditRecords(log).length === 20); i++) await new Promise((r) => setTimeout(r, 25));
      return readAuditRecords(log);
    };
    const recs = await written();
    // The records are in the log; the head file is written right after their fsync: let that finish.
    await audit.flush();
    expect(recs.map((r) => r.command)).toEqual(Array.from({ length: 20 }, (_, i) => `echo ${i + 1}`));
    expect(recs.map((r) => r.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(verifyAuditLog(log)).toMatchObject({ ok: true, records: 20, problems: [] });
    expect(JSON.parse(readFileSync(headPath(log), 'utf8'))).toEqual({ seq: 20, hash: recs[19].hash });
  });

  it('a process that ends on its own, without flush(), still writes what it recorded', () => {
    const script = `import { AuditLog } from ${JSON.stringify(pathToFileURL(path.join(HERE, 'audit-log.ts')).href)};
const a = new AuditLog({ path: ${JSON.stringify(log)} });
a.record({ kind: 'session', by: 'agent', host: 'mcp', decision: 'created' });
a.record({ kind: 'session', by: 'agent', host: 'mcp', decision: 'closed' });`;
    const file = path.join(dir, 'ends-on-its-own.mts');
    writeFileSync(file, script);
    const r = spawnSync(process.execPath, ['--import', TSX_LOADER, file], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(readAuditRecords(log).map((x) => x.decision)).toEqual(['created', 'closed']);
    expect(verifyAuditLog(log)).toMatchObject({ ok: true, records: 2 });
  });

  it('records after a flush() start a new group that continues the chain', async () => {
    const audit = new AuditLog({ path: log });
    audit.record({ kind: 'session', by: 'agent', host: 'mcp', decision: 'created' });
    await audit.flush();
    expect(readAuditRecords(log)).toHaveLength(1);
    audit.record({ kind: 'command', by: 'agent', host: 'mcp', command: 'true', exitCode: 0 });
    audit.record({ kind: 'session', by: 'agent', host: 'mcp', decision: 'closed' });
    await audit.flush();
    expect(readAuditRecords(log).map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(verifyAuditLog(log)).toMatchObject({ ok: true, records: 3 });
  });
});

/**
 * The append-only audit log: one JSONL file, one hash-chained record per line, fsynced.
 *
 * Several writers share it (every `mish serve` and every CLI run), so an append is: take the
 * lock file (`<log>.lock`, created with O_EXCL, holding the writer's pid and time), read the
 * last record for its seq and hash, write the new line, fsync, update the head file
 * (`<log>.head`: seq and hash of the last record, so a truncated tail is detected), release.
 * Records made within AUDIT_GROUP_MS of each other share one append (one lock, write and fsync). A lock whose holder is dead, or older than STALE_LOCK_MS, is broken. One chain for
 * everyone (rather than per-process segments) keeps `mish audit` and `verify` a single pass in
 * time order. Records are redacted before they are hashed and written.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensurePrivateDir, PRIVATE_FILE_MODE, tighten } from '../fs/private-dir.js';
import { GENESIS_HASH, recordHash, recordLine } from './chain.js';
import type { AuditEvent, AuditRecord, AuditSink } from './types.js';

/** An append holds the lock for milliseconds; a lock this old belongs to a hung or killed writer. */
export const STALE_LOCK_MS = 30_000;
/**
 * How long an append waits for the lock before giving up (and reporting the lost record): until
 * a lock that is not released would be broken as stale, and a little more. A writer held up by a
 * disk that stalls (an fsync of seconds beside a big build) delays the records; it used to cost
 * them after 10 s, and an audit log that loses records is no record of what ran.
 */
export const LOCK_WAIT_MS = STALE_LOCK_MS + 5_000;
/** Pause between attempts at a held lock. */
const LOCK_RETRY_MS = 3;
/**
 * Records are written in groups: the first record of a group is written this long after it was
 * made, together with every record made meanwhile, under one lock, one write and one fsync (a
 * burst of commands used to pay ~12 file operations and an fsync each, competing with the next
 * command for the event loop). `flush()` (at exit, and in the CLI before it returns) writes at
 * once. So a record reaches the disk, fsynced, at most this long after its command's reply, or
 * at exit; a crash in that window loses it, as one mid-append always could.
 */
export const AUDIT_GROUP_MS = 50;
/** First read size when looking for the last record from the end of the file. */
const TAIL_READ_BYTES = 16 * 1024;

/** The log: $MISH_AUDIT_LOG, else $XDG_STATE_HOME/mish/audit.jsonl, else ~/.local/state/mish/audit.jsonl. */
export function defaultAuditPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MISH_AUDIT_LOG) return env.MISH_AUDIT_LOG;
  const state = env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state');
  return path.join(state, 'mish', 'audit.jsonl');
}

export const headPath = (log: string) => `${log}.head`;
export const lockPath = (log: string) => `${log}.lock`;

/** Anything that redacts every string of a value (the Redactor). */
export interface RecordRedactor {
  redactDeep<T>(value: T): Promise<T>;
}

export interface AuditLogOptions {
  path?: string;
  /** Applied to every event before it is hashed and written. */
  redactor?: RecordRedactor;
  /** A record that could not be written (disk full, lock never released): the host reports it. */
  onError?: (message: string) => void;
  /** The clock (tests). */
  now?: () => Date;
}

/** The audit log of this machine's user; an AuditSink. */
export class AuditLog implements AuditSink {
  readonly path: string;
  private queue: Promise<void> = Promise.resolve();
  /** Records made and not yet handed to the queue (the group being gathered), in order. */
  private pending: { event: AuditEvent; ts: string }[] = [];
  private groupTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: AuditLogOptions = {}) {
    this.path = options.path ?? defaultAuditPath();
  }

  record(event: AuditEvent): void {
    const ts = (this.options.now?.() ?? new Date()).toISOString();
    this.pending.push({ event, ts });
    // Not unref'd: a process that ends on its own still writes the group first (≤ AUDIT_GROUP_MS later).
    this.groupTimer ??= setTimeout(() => this.writeGroup(), AUDIT_GROUP_MS);
  }

  /** Writes what was recorded so far; resolves when it is on disk (or reported lost). */
  flush(): Promise<void> {
    this.writeGroup();
    return this.queue;
  }

  /** Hands the gathered group to the queue: redacted, then appended under one lock and one fsync. */
  private writeGroup(): void {
    clearTimeout(this.groupTimer);
    this.groupTimer = undefined;
    if (this.pending.length === 0) return;
    const group = this.pending;
    this.pending = [];
    this.queue = this.queue.then(async () => {
      try {
        const clean: { event: AuditEvent; ts: string }[] = [];
        for (const g of group) clean.push({ event: this.options.redactor ? await this.options.redactor.redactDeep(g.event) : g.event, ts: g.ts });
        await this.appendAll(clean);
      } catch (e) {
        this.options.onError?.(`audit log ${this.path}: ${group.length === 1 ? 'record' : `${group.length} records`} lost: ${(e as Error).message}`);
      }
    });
  }

  /**
   * Appends one event under the lock; returns the record written. The file I/O is asynchronous
   * (an fsync can take tens of milliseconds on a busy disk: the MCP server's event loop must not wait on it).
   */
  async append(event: AuditEvent, ts: string = new Date().toISOString()): Promise<AuditRecord> {
    return (await this.appendAll([{ event, ts }]))[0];
  }

  /** Appends events in order under one lock, as consecutive records of the chain, with one write and one fsync. */
  private async appendAll(events: readonly { event: AuditEvent; ts: string }[]): Promise<AuditRecord[]> {
    ensurePrivateDir(path.dirname(this.path));
    return withLock(lockPath(this.path), async () => {
      const fh = await fsp.open(this.path, fs.constants.O_RDWR | fs.constants.O_CREAT | fs.constants.O_APPEND, PRIVATE_FILE_MODE);
      try {
        tighten(this.path);
        const { last, endsWithNewline } = await lastRecord(fh);
        const records: AuditRecord[] = [];
        let seq = last?.seq ?? 0;
        let prev = last?.hash ?? GENESIS_HASH;
        // A torn last line (a writer killed mid-write) stays as it is, for verify to report; the new records start on their own line.
        let text = endsWithNewline ? '' : '\n';
        for (const { event, ts } of events) {
          const body: Omit<AuditRecord, 'hash'> = { ...event, seq: ++seq, ts, pid: process.pid, prev };
          const record: AuditRecord = { ...body, hash: recordHash(body) };
          records.push(record);
          text += recordLine(record);
          prev = record.hash;
        }
        await fh.write(text);
        await fh.sync();
        await writeHead(this.path, records[records.length - 1]);
        return records;
      } finally {
        await fh.close();
      }
    });
  }
}

/** The head file: the last record's seq and hash, replaced atomically. */
async function writeHead(log: string, record: AuditRecord): Promise<void> {
  const tmp = `${headPath(log)}.${process.pid}.${randomBytes(3).toString('hex')}`;
  // Not fsynced (the log is): after a crash the head may lag the log, which verify accepts.
  await fsp.writeFile(tmp, `${JSON.stringify({ seq: record.seq, hash: record.hash })}\n`, { mode: PRIVATE_FILE_MODE });
  await fsp.rename(tmp, headPath(log));
}

/** The head file's seq and hash; undefined when there is none (or it cannot be read). */
export function readHead(log: string): { seq: number; hash: string } | undefined | 'unreadable' {
  let text: string;
  try {
    text = fs.readFileSync(headPath(log), 'utf8');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : 'unreadable';
  }
  try {
    const h = JSON.parse(text) as { seq?: unknown; hash?: unknown };
    return typeof h.seq === 'number' && typeof h.hash === 'string' ? { seq: h.seq, hash: h.hash } : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

/** The last parseable record of the open log (reading back from the end), and whether the file ends with a newline. */
async function lastRecord(fh: fsp.FileHandle): Promise<{ last?: AuditRecord; endsWithNewline: boolean }> {
  const size = (await fh.stat()).size;
  if (size === 0) return { endsWithNewline: true };
  for (let want = TAIL_READ_BYTES; ; want *= 4) {
    const len = Math.min(want, size);
    const buf = Buffer.alloc(len);
    await fh.read(buf, 0, len, size - len);
    const text = buf.toString('utf8');
    const endsWithNewline = text.endsWith('\n');
    const lines = text.split('\n');
    // The first line of a partial read may be cut: only trust it when the read reached the file's start.
    const from = len === size ? 0 : 1;
    for (let i = lines.length - 1; i >= from; i--) {
      const r = parseRecord(lines[i]);
      if (r) return { last: r, endsWithNewline };
    }
    if (len === size) return { endsWithNewline };
  }
}

/** A line as a record, or undefined when it is not one (blank, torn, edited beyond JSON). */
export function parseRecord(line: string): AuditRecord | undefined {
  if (!line.trim()) return undefined;
  try {
    const r = JSON.parse(line) as Partial<AuditRecord>;
    if (r && typeof r === 'object' && typeof r.seq === 'number' && typeof r.hash === 'string' && typeof r.prev === 'string') return r as AuditRecord;
  } catch {
    // not JSON
  }
  return undefined;
}

/** Every record of the log in file order (lines that are not records are skipped; `verify` reports them). */
export function readAuditRecords(log: string): AuditRecord[] {
  let text: string;
  try {
    text = fs.readFileSync(log, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const out: AuditRecord[] = [];
  for (const line of text.split('\n')) {
    const r = parseRecord(line);
    if (r) out.push(r);
  }
  return out;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `fn` holding the lock file `lock` (O_EXCL create; stale locks are broken). */
export async function withLock<T>(lock: string, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  const mine = `${process.pid} ${Date.now()} ${randomBytes(4).toString('hex')}\n`;
  for (;;) {
    try {
      const fd = fs.openSync(lock, 'wx', PRIVATE_FILE_MODE);
      try {
        fs.writeSync(fd, mine);
      } finally {
        fs.closeSync(fd);
      }
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      if (breakIfStale(lock)) continue;
      if (Date.now() > deadline) throw new Error(`lock ${lock} held for over ${LOCK_WAIT_MS / 1000}s by ${readText(lock)?.trim() ?? 'a writer that is gone'}`);
      await sleep(LOCK_RETRY_MS);
    }
  }
  try {
    return await fn();
  } finally {
    // Only our own lock: had it been broken as stale and retaken, the file is someone else's now.
    if (readText(lock) === mine) fs.rmSync(lock, { force: true });
  }
}

function readText(p: string): string | undefined {
  try {
    return fs.readFileSync(p, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Breaks `lock` when its holder is dead or it is older than STALE_LOCK_MS; true when it did.
 * The lock is moved aside first and checked again: when a live writer had just retaken it, it
 * is put back (link fails if yet another writer has the lock by then, which is then theirs).
 */
function breakIfStale(lock: string): boolean {
  const text = readText(lock);
  if (text === undefined) return true; // released meanwhile: try again at once
  const [pidText, timeText] = text.split(' ');
  const pid = Number(pidText);
  const at = Number(timeText);
  if (!Number.isFinite(pid) || !Number.isFinite(at) || !text.endsWith('\n')) {
    // Empty or cut: its writer is between open and write, or died there; only age tells.
    if (Date.now() - mtimeMs(lock) < STALE_LOCK_MS) return false;
  } else if (isAlive(pid) && Date.now() - at < STALE_LOCK_MS) return false;
  const aside = `${lock}.stale.${process.pid}.${randomBytes(3).toString('hex')}`;
  try {
    fs.renameSync(lock, aside);
  } catch {
    return true; // someone else moved it: try again
  }
  if (readText(aside) !== text) {
    try {
      fs.linkSync(aside, lock);
    } catch {
      // the lock was taken again meanwhile
    }
  }
  fs.rmSync(aside, { force: true });
  return true;
}

function mtimeMs(p: string): number {
  try {
    return fs.statSync(p).mtimeMs;
  } catch {
    return 0;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

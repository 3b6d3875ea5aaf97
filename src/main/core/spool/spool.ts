/**
 * Spool: the exact raw bytes of every command, on disk, so condensing never loses anything.
 *
 * Bounded: the first HEAD_BYTES are kept in segment 0; after that, output rolls through tail
 * segments of SEGMENT_BYTES and only the newest TAIL_SEGMENTS stay (so 1 GB of output costs
 * at most HEAD_BYTES + TAIL_SEGMENTS × SEGMENT_BYTES of disk). Whatever was dropped is
 * counted and reported, never silently missing. Old spools are pruned past MAX_SPOOLS.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stripAnsi } from '../squasher/vt-stripper.js';
import { ensurePrivateDir } from '../fs/private-dir.js';

/** Start of the output, kept whole: the command's first errors are usually the ones that matter. */
export const HEAD_BYTES = 32 * 1024 * 1024;
/** Size of one rolling tail segment. */
export const SEGMENT_BYTES = 32 * 1024 * 1024;
/** Newest tail segments kept. Head + tail = at most 96 MiB per command. */
export const TAIL_SEGMENTS = 2;
/** Writes are batched: one write syscall per this many bytes (or on close). */
const WRITE_BATCH_BYTES = 256 * 1024;
/** Spools kept per directory; the oldest are deleted first. */
export const MAX_SPOOLS = 300;

export interface SpoolMeta {
  id: string;
  command: string;
  cwd: string;
  startedAt: string;
  endedAt?: string;
  exitCode?: number;
  bytes: number;
  /** Bytes dropped between the head and the kept tail (0 when the spool is complete). */
  droppedBytes: number;
  /** Number of `\n` in the output. */
  lines: number;
}

/** The spool directory: $MISH_SPOOL_DIR, else $XDG_STATE_HOME/mish/spool, else ~/.local/state/mish/spool. */
export function defaultSpoolDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MISH_SPOOL_DIR) return env.MISH_SPOOL_DIR;
  const state = env.XDG_STATE_HOME || path.join(os.homedir(), '.local', 'state');
  return path.join(state, 'mish', 'spool');
}

/** Size limits of one spool (overridable for tests). */
export interface SpoolLimits {
  headBytes: number;
  segmentBytes: number;
  tailSegments: number;
}

const DEFAULT_LIMITS: SpoolLimits = { headBytes: HEAD_BYTES, segmentBytes: SEGMENT_BYTES, tailSegments: TAIL_SEGMENTS };

/** Pruning scans the directory: do it on the first spool of a store and then every this many. */
const PRUNE_EVERY = 50;

export class SpoolStore {
  private created = 0;
  /** Spools of this store still being written (a long-lived server's dev server): pruning must not delete them. */
  private readonly live = new Set<string>();

  constructor(
    readonly dir: string = defaultSpoolDir(),
    private readonly limits: SpoolLimits = DEFAULT_LIMITS,
  ) {}

  create(command: string, cwd: string): Spool {
    if (this.created++ % PRUNE_EVERY === 0) {
      // Raw output may hold secrets the agent never sees: private to the user (0700, narrowed if it was wider).
      ensurePrivateDir(this.dir);
      this.prune();
    }
    // Sortable by time, unique by randomness; short enough to type (`mish raw 1a2b3c4d`).
    const id = `${Date.now().toString(36).slice(-5)}${randomBytes(2).toString('hex')}`;
    this.live.add(id);
    return new Spool(this.dir, { id, command, cwd, startedAt: new Date().toISOString(), bytes: 0, droppedBytes: 0, lines: 0 }, this.limits, () => this.live.delete(id));
  }

  /** Open an existing spool for reading; undefined if unknown. Accepts a unique id prefix. */
  open(idOrPrefix: string): SpoolReader | undefined {
    if (!/^[0-9a-z]+$/.test(idOrPrefix)) return undefined;
    let files: string[];
    try {
      files = fs.readdirSync(this.dir);
    } catch {
      return undefined;
    }
    const metas = files.filter((f) => f.endsWith('.json') && f.startsWith(idOrPrefix));
    if (metas.length !== 1) return undefined;
    const meta = JSON.parse(fs.readFileSync(path.join(this.dir, metas[0]), 'utf8')) as SpoolMeta;
    return new SpoolReader(this.dir, meta);
  }

  list(): SpoolMeta[] {
    try {
      return fs
        .readdirSync(this.dir)
        .filter((f) => f.endsWith('.json'))
        .map((f) => JSON.parse(fs.readFileSync(path.join(this.dir, f), 'utf8')) as SpoolMeta)
        .sort((a, b) => a.startedAt.localeCompare(b.startedAt));
    } catch {
      return [];
    }
  }

  private prune(): void {
    let metas: { f: string; t: number }[];
    try {
      metas = fs
        .readdirSync(this.dir)
        .filter((f) => f.endsWith('.json') && !this.live.has(f.slice(0, -5)))
        .map((f) => ({ f, t: fs.statSync(path.join(this.dir, f)).mtimeMs }));
    } catch {
      return;
    }
    if (metas.length < MAX_SPOOLS) return;
    metas.sort((a, b) => a.t - b.t);
    for (const { f } of metas.slice(0, metas.length - MAX_SPOOLS + 1)) {
      const id = f.slice(0, -5);
      for (const g of fs.readdirSync(this.dir)) if (g.startsWith(`${id}.`)) fs.rmSync(path.join(this.dir, g), { force: true });
    }
  }
}

export class Spool {
  private fd: number;
  private segment = 0;
  private segmentBytes = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private closed = false;

  constructor(
    private readonly dir: string,
    readonly meta: SpoolMeta,
    private readonly limits: SpoolLimits = DEFAULT_LIMITS,
    private readonly onClose?: () => void,
  ) {
    this.fd = fs.openSync(this.segmentPath(0), 'w', 0o600);
    this.writeMeta();
  }

  get id(): string {
    return this.meta.id;
  }

  /** `mish raw <id>`: how a reader gets the bytes back. */
  get ref(): string {
    return `mish raw ${this.meta.id}`;
  }

  get path(): string {
    return this.segmentPath(0);
  }

  write(chunk: Uint8Array): void {
    if (this.closed || chunk.byteLength === 0) return;
    this.meta.bytes += chunk.byteLength;
    this.meta.lines += countNewlines(chunk);
    this.pending.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    this.pendingBytes += chunk.byteLength;
    if (this.pendingBytes >= Math.min(WRITE_BATCH_BYTES, this.limits.segmentBytes)) this.flush();
  }

  private flush(): void {
    if (this.pendingBytes === 0) return;
    let data = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    while (data.length > 0) {
      const cap = this.segment === 0 ? this.limits.headBytes : this.limits.segmentBytes;
      const room = cap - this.segmentBytes;
      if (room <= 0) {
        this.rotate();
        continue;
      }
      const part = data.length <= room ? data : data.subarray(0, room);
      fs.writeSync(this.fd, part);
      this.segmentBytes += part.length;
      data = data.subarray(part.length);
    }
  }

  private rotate(): void {
    fs.closeSync(this.fd);
    this.segment++;
    this.segmentBytes = 0;
    this.fd = fs.openSync(this.segmentPath(this.segment), 'w', 0o600);
    const expired = this.segment - this.limits.tailSegments;
    if (expired >= 1) {
      const p = this.segmentPath(expired);
      try {
        this.meta.droppedBytes += fs.statSync(p).size;
        fs.rmSync(p);
      } catch {
        // already gone
      }
    }
  }

  close(result: { exitCode?: number } = {}): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    fs.closeSync(this.fd);
    this.meta.endedAt = new Date().toISOString();
    this.meta.exitCode = result.exitCode;
    this.writeMeta();
    this.onClose?.();
  }

  private writeMeta(): void {
    fs.writeFileSync(path.join(this.dir, `${this.meta.id}.json`), JSON.stringify(this.meta), { mode: 0o600 });
  }

  private segmentPath(n: number): string {
    return path.join(this.dir, `${this.meta.id}.${n}`);
  }

  /** Read back what has been written so far (flushes first). */
  reader(): SpoolReader {
    this.flush();
    return new SpoolReader(this.dir, this.meta);
  }
}

export interface ReadLinesOptions {
  /** 1-based, inclusive. Negative counts from the end (-20 = the last 20 lines). */
  from?: number;
  to?: number;
  /** Only lines matching this (tested on the ANSI-stripped text). */
  grep?: RegExp;
  /** Strip ANSI sequences from returned lines. */
  strip?: boolean;
  /** Stop after this many bytes of result. */
  maxBytes?: number;
}

export interface ReadLinesResult {
  lines: { no: number; text: string }[];
  totalLines: number;
  truncated: boolean;
  droppedBytes: number;
}

export class SpoolReader {
  constructor(
    private readonly dir: string,
    readonly meta: SpoolMeta,
  ) {}

  /** Segment files that still exist, in order. */
  private segments(): string[] {
    const prefix = `${this.meta.id}.`;
    return fs
      .readdirSync(this.dir)
      .filter((f) => f.startsWith(prefix) && /^\d+$/.test(f.slice(prefix.length)))
      .map((f) => Number(f.slice(prefix.length)))
      .sort((a, b) => a - b)
      .map((n) => path.join(this.dir, `${prefix}${n}`));
  }

  /** All kept bytes, in order (with a marker where bytes were dropped). */
  readAll(): Buffer {
    const parts: Buffer[] = [];
    const segs = this.segments();
    segs.forEach((p, i) => {
      if (i === 1 && this.meta.droppedBytes > 0) parts.push(Buffer.from(`\n[... ${this.meta.droppedBytes} bytes dropped from the spool ...]\n`));
      parts.push(fs.readFileSync(p));
    });
    return Buffer.concat(parts);
  }

  readLines(options: ReadLinesOptions = {}): ReadLinesResult {
    const all = this.readAll().toString('utf8');
    const raw = all.split('\n');
    if (raw.length && raw[raw.length - 1] === '') raw.pop();
    const total = raw.length;
    let from = options.from ?? 1;
    let to = options.to ?? total;
    if (from < 0) from = Math.max(1, total + from + 1);
    if (to < 0) to = total + to + 1;
    const max = options.maxBytes ?? Number.POSITIVE_INFINITY;
    const lines: { no: number; text: string }[] = [];
    let bytes = 0;
    let truncated = false;
    for (let no = Math.max(1, from); no <= Math.min(to, total); no++) {
      let text = raw[no - 1];
      if (text.endsWith('\r')) text = text.slice(0, -1);
      const plain = options.grep || options.strip ? stripAnsi(text) : text;
      if (options.grep && !options.grep.test(plain)) continue;
      const shown = options.strip ? plain : text;
      if (bytes + shown.length > max) {
        truncated = true;
        break;
      }
      bytes += shown.length + 1;
      lines.push({ no, text: shown });
    }
    return { lines, totalLines: total, truncated, droppedBytes: this.meta.droppedBytes };
  }
}

function countNewlines(chunk: Uint8Array): number {
  let n = 0;
  let i = chunk.indexOf(10);
  while (i >= 0) {
    n++;
    i = chunk.indexOf(10, i + 1);
  }
  return n;
}

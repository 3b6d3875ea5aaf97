/**
 * Spool: the exact raw bytes of every command, on disk, so condensing never loses anything.
 *
 * Bounded: the first HEAD_BYTES are kept in segment 0; after that, output rolls through tail
 * segments of SEGMENT_BYTES and only the newest TAIL_SEGMENTS stay (so 1 GB of output costs
 * at most HEAD_BYTES + TAIL_SEGMENTS × SEGMENT_BYTES of disk). Whatever was dropped is
 * counted and reported, never silently missing. Old spools are pruned past MAX_SPOOLS (+ PRUNE_SLACK).
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { stripAnsi } from '../squasher/vt-stripper.js';
import { ensurePrivateDir } from '../fs/private-dir.js';
import { thousands } from '../format/thousands.js';

/** Start of the output, kept whole: the command's first errors are usually the ones that matter. */
export const HEAD_BYTES = 32 * 1024 * 1024;
/** Size of one rolling tail segment. */
export const SEGMENT_BYTES = 32 * 1024 * 1024;
/** Newest tail segments kept. Head + tail = at most 96 MiB per command. */
export const TAIL_SEGMENTS = 2;
/** Writes are batched: one write syscall per this many bytes (or on close) … */
const WRITE_BATCH_BYTES = 256 * 1024;
/**
 * … or this long after output came, whichever is first: another process reading a running
 * command's spool (the console's view of a background dev server, `mish raw` of a process still
 * running) must see what it printed, not wait for 256 KB of it.
 */
export const WRITE_LATENCY_MS = 500;
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
  /** Number of `\n` in the head segment (absent in spools written before it was recorded). */
  headLines?: number;
  /** Number of `\n` in the dropped bytes: the kept tail's line numbers continue after them. */
  droppedLines?: number;
  /** Number of `\n` in each kept tail segment, by segment number: a read finds its lines' segment without reading the others. */
  segmentLines?: Record<string, number>;
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
export const PRUNE_EVERY = 50;
/** Spools past MAX_SPOOLS tolerated before a prune deletes any (so the stat-ing pass runs once per this many new spools, not on every `mish` run). */
export const PRUNE_SLACK = 50;

/** A spool's id: the time's last five base-36 digits, then 16 random bits. */
const newSpoolId = (): string => `${Date.now().toString(36).slice(-5)}${randomBytes(2).toString('hex')}`;
/** Draws of an id before one not in use is taken (a collision is rare; a run of them is not). */
const MAX_ID_DRAWS = 8;

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
    // Sortable by time, unique by randomness; short enough to type (`mish raw 1a2b3c4d`). Two spools made in the same
    // millisecond share the time part, and 16 random bits collide about once in a few hundred such bursts (the pruning test
    // lost one spool to it in a CI run: 360 files for 361): an id already in use here is drawn again.
    let id = newSpoolId();
    for (let n = 0; n < MAX_ID_DRAWS && (this.live.has(id) || fs.existsSync(path.join(this.dir, `${id}.json`))); n++) id = newSpoolId();
    this.live.add(id);
    return new Spool(this.dir, { id, command, cwd, startedAt: new Date().toISOString(), bytes: 0, droppedBytes: 0, lines: 0, headLines: 0, droppedLines: 0 }, this.limits, () => this.live.delete(id));
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

  /**
   * Deletes the oldest closed spools once there are PRUNE_SLACK more than MAX_SPOOLS, down to
   * MAX_SPOOLS - 1. Below that only the directory is listed: every `mish <cmd>` is a new store
   * that checks on its first spool, and stat-ing 300 spools on each run cost ~10 ms of its start.
   */
  private prune(): void {
    let files: string[];
    try {
      files = fs.readdirSync(this.dir);
    } catch {
      return;
    }
    const closed = files.filter((f) => f.endsWith('.json') && !this.live.has(f.slice(0, -5)));
    if (closed.length < MAX_SPOOLS + PRUNE_SLACK) return;
    let metas: { id: string; t: number }[];
    try {
      metas = closed.map((f) => ({ id: f.slice(0, -5), t: fs.statSync(path.join(this.dir, f)).mtimeMs }));
    } catch {
      return; // another mish pruned at the same time
    }
    metas.sort((a, b) => a.t - b.t);
    const doomed = new Set(metas.slice(0, metas.length - MAX_SPOOLS + 1).map((m) => m.id));
    // A spool's files are `<id>.json`, `<id>.0`, `<id>.1`…: one listing serves every deletion.
    for (const f of files) {
      const dot = f.indexOf('.');
      if (dot > 0 && doomed.has(f.slice(0, dot))) fs.rmSync(path.join(this.dir, f), { force: true });
    }
  }
}

export class Spool {
  /** Segment file being written; -1 until the spool's files exist (materialize). */
  private fd = -1;
  /** Creates the files of a spool still open and silent WRITE_LATENCY_MS after it started. */
  private materializeTimer: NodeJS.Timeout | undefined;
  private segment = 0;
  private segmentBytes = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private flushTimer: NodeJS.Timeout | undefined;
  private closed = false;
  /** The metadata file exists (createMeta, materialize). */
  private metaWritten = false;

  constructor(
    private readonly dir: string,
    readonly meta: SpoolMeta,
    private readonly limits: SpoolLimits = DEFAULT_LIMITS,
    private readonly onClose?: () => void,
  ) {
    // The files are created on the first output, or once the command has run WRITE_LATENCY_MS
    // (so another process finds a running, silent command's spool, as it finds one with output),
    // or at close: a command that ends sooner with no output (`true`, `cd`) costs two file writes
    // at its end instead of four file operations, two of them before it could start.
    this.materializeTimer = setTimeout(() => {
      this.materializeTimer = undefined;
      try {
        if (!this.closed) this.materialize();
      } catch {
        // the directory went away: the first write or the close tries again, and reports it
      }
    }, WRITE_LATENCY_MS);
    this.materializeTimer.unref?.();
  }

  /** Creates segment 0 and the metadata file, once. */
  private materialize(): void {
    if (this.fd >= 0) return;
    clearTimeout(this.materializeTimer);
    this.materializeTimer = undefined;
    this.fd = fs.openSync(this.segmentPath(0), 'w', 0o600);
    this.writeMeta();
  }

  /**
   * Creates the metadata file now, if no file of this spool exists yet (not segment 0, which
   * waits for output): called while the command runs (shell-session.ts, just after the command
   * is written to the shell), so that a silent command's close rewrites a file rather than
   * creates one while its reply waits (creating a file is the costly part: ~0.05 ms, and ~1 ms
   * where many files were deleted recently, as ext4 then searches its inode table longer).
   */
  createMeta(): void {
    if (this.fd >= 0 || this.metaWritten || this.closed) return;
    try {
      this.writeMeta();
    } catch {
      // the directory went away: the first write or the close tries again, and reports it
    }
  }

  get id(): string {
    return this.meta.id;
  }

  /** `mish raw <id>`: how a reader gets the bytes back. */
  get ref(): string {
    return `mish raw ${this.meta.id}`;
  }

  write(chunk: Uint8Array): void {
    if (this.closed || chunk.byteLength === 0) return;
    this.materialize();
    this.meta.bytes += chunk.byteLength;
    this.meta.lines += countNewlines(chunk);
    this.pending.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    this.pendingBytes += chunk.byteLength;
    if (this.pendingBytes >= Math.min(WRITE_BATCH_BYTES, this.limits.segmentBytes)) this.flush();
    else if (!this.flushTimer) {
      this.flushTimer = setTimeout(() => {
        this.flushTimer = undefined;
        if (!this.closed) this.flush();
      }, WRITE_LATENCY_MS);
      this.flushTimer.unref?.();
    }
  }

  private flush(): void {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    if (this.pendingBytes === 0) return;
    this.materialize();
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
      const newlines = countNewlines(part);
      if (this.segment === 0) this.meta.headLines = (this.meta.headLines ?? 0) + newlines;
      else {
        const counts = (this.meta.segmentLines ??= {});
        counts[this.segment] = (counts[this.segment] ?? 0) + newlines;
      }
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
        this.meta.droppedLines = (this.meta.droppedLines ?? 0) + (this.meta.segmentLines?.[expired] ?? 0);
        if (this.meta.segmentLines) delete this.meta.segmentLines[expired];
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
    clearTimeout(this.materializeTimer);
    this.materializeTimer = undefined;
    // Never materialized: no output, and no segment file (readers list the segments there are: none is no bytes). Not creating
    // an empty one saves a file's creation on every silent command (`true`, `cd`, `mkdir`: ~0.15 ms of a 1.5 ms sh_run).
    if (this.fd >= 0) fs.closeSync(this.fd);
    this.meta.endedAt = new Date().toISOString();
    this.meta.exitCode = result.exitCode;
    this.writeMeta();
    this.onClose?.();
  }

  private writeMeta(): void {
    fs.writeFileSync(path.join(this.dir, `${this.meta.id}.json`), JSON.stringify(this.meta), { mode: 0o600 });
    this.metaWritten = true;
  }

  private segmentPath(n: number): string {
    return path.join(this.dir, `${this.meta.id}.${n}`);
  }

  /** Read back what has been written so far (flushes first). */
  reader(): SpoolReader {
    this.flush();
    if (!this.closed) this.materialize();
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
  /** Numbered as in the original output: past a gap the numbers continue where the output's did. */
  lines: { no: number; text: string }[];
  /** Lines of the original output (a last line without a newline counts). */
  totalLines: number;
  truncated: boolean;
  droppedBytes: number;
  /**
   * Lines no longer on disk (the bounded spool dropped the middle of a long output): lines
   * `from`..`to` are gone whole (none when from > to), and the lines either side of the gap may be
   * cut (`cut`: their numbers; their text ends or starts at the gap).
   */
  gap?: { from: number; to: number; cut: number[] };
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

  /**
   * The output as numbered lines: `raw[i]` is line `first + i`. With a gap, the head's lines, then
   * the kept tail's, numbered from where the output's numbering continues (`headLines` +
   * `droppedLines` newlines before it), so every host shows the same line numbers.
   */
  private numbered(): { raw: string[]; index: (no: number) => number | undefined; total: number; gap?: ReadLinesResult['gap'] } {
    const m = this.meta;
    const segs = this.segments();
    if (m.droppedBytes === 0 || m.headLines === undefined || m.droppedLines === undefined || segs.length < 2) {
      const raw = this.readAll().toString('utf8').split('\n');
      if (raw.length && raw[raw.length - 1] === '') raw.pop();
      return { raw, index: (no) => (no >= 1 && no <= raw.length ? no - 1 : undefined), total: raw.length };
    }
    const head = fs.readFileSync(segs[0]).toString('utf8').split('\n');
    const tail = Buffer.concat(segs.slice(1).map((p) => fs.readFileSync(p))).toString('utf8').split('\n');
    if (tail.length && tail[tail.length - 1] === '') tail.pop();
    // head: lines 1..headLines complete, then the start of line headLines+1 (may be '').
    const headFragment = head.pop() ?? '';
    const firstTail = m.headLines + m.droppedLines + 1;
    const marker = `… [${thousands(m.droppedBytes)} bytes dropped from the spool] …`;
    let raw: string[];
    let tailStart: number;
    if (firstTail === m.headLines + 1) {
      // No whole line was dropped: the head's last fragment and the tail's first are one line.
      raw = [...head, `${headFragment}${marker}${tail[0] ?? ''}`, ...tail.slice(1)];
      tailStart = head.length;
    } else {
      raw = [...head, `${headFragment}${marker}`, `${marker}${tail[0] ?? ''}`, ...tail.slice(1)];
      tailStart = head.length + 1;
    }
    // raw[0..tailStart-1] are lines 1..tailStart; raw[tailStart + k] is line firstTail + k.
    const total = firstTail + (raw.length - tailStart) - 1;
    const index = (no: number) => (no >= 1 && no <= tailStart ? no - 1 : no >= firstTail && no <= total ? tailStart + (no - firstTail) : undefined);
    // No whole line dropped: an empty range right after the one cut line.
    const gap = firstTail === m.headLines + 1 ? { from: firstTail + 1, to: firstTail, cut: [firstTail] } : { from: m.headLines + 2, to: firstTail - 1, cut: [m.headLines + 1, firstTail] };
    return { raw, index, total, gap };
  }

  /**
   * A range read without grep touches only the segments holding its lines (a tail read of a
   * 96 MiB spool reads the newest segment, not all of it); undefined when the range spans the
   * gap or the spool predates per-segment line counts.
   */
  private rangeRead(from: number | undefined, to: number | undefined): { raw: string[]; first: number; total: number; gap?: ReadLinesResult['gap'] } | undefined {
    const m = this.meta;
    if (m.headLines === undefined || m.segmentLines === undefined) return undefined;
    const files = this.segments();
    const numberOf = (p: string) => Number(p.slice(p.lastIndexOf('.') + 1));
    const dropped = m.droppedBytes > 0;
    // Newlines before each kept segment, in the output's own numbering.
    let before = 0;
    const segs = files.map((p, i) => {
      const n = numberOf(p);
      const lines = n === 0 ? m.headLines! : (m.segmentLines![n] ?? 0);
      if (i === 1 && dropped) before = m.headLines! + (m.droppedLines ?? 0);
      const seg = { path: p, n, before, lines, afterGap: i === 1 && dropped };
      before += lines;
      return seg;
    });
    const last = segs[segs.length - 1];
    if (!last) return undefined;
    const total = m.lines + (endsWithoutNewline(last.path) ? 1 : 0);
    const lo = from === undefined ? 1 : from < 0 ? Math.max(1, total + from + 1) : from;
    const hi = to === undefined ? total : to < 0 ? total + to + 1 : Math.min(to, total);
    if (lo > hi) return { raw: [], first: lo, total };
    // Which side of the gap: the head holds lines 1..headLines+1 (the last one cut when there is a gap).
    const firstTail = dropped ? m.headLines! + (m.droppedLines ?? 0) + 1 : Infinity;
    if (dropped && lo <= m.headLines! + 1 && hi >= firstTail) return undefined;
    const side = dropped ? (hi <= m.headLines! + 1 ? segs.slice(0, 1) : segs.slice(1)) : segs;
    let a = 0;
    for (let i = 0; i < side.length; i++) if (side[i].before + 1 < lo) a = i;
    let b = side.length - 1;
    for (let i = a; i < side.length; i++) {
      if (side[i].before + side[i].lines >= hi) {
        b = i;
        break;
      }
    }
    const raw = Buffer.concat(side.slice(a, b + 1).map((x) => fs.readFileSync(x.path))).toString('utf8').split('\n');
    // The empty piece after a final newline is no line, except the head's before a gap (the cut line's start).
    if (b === side.length - 1 && !(dropped && side[b].n === 0) && raw.length && raw[raw.length - 1] === '') raw.pop();
    const marker = `… [${thousands(m.droppedBytes)} bytes dropped from the spool] …`;
    if (dropped && side[a].afterGap && raw.length) raw[0] = `${marker}${raw[0]}`;
    if (dropped && side[b].n === 0 && raw.length > m.headLines!) raw[m.headLines!] = `${raw[m.headLines!]}${marker}`;
    const gap = dropped ? (firstTail === m.headLines! + 1 ? { from: firstTail + 1, to: firstTail, cut: [firstTail] } : { from: m.headLines! + 2, to: firstTail - 1, cut: [m.headLines! + 1, firstTail] }) : undefined;
    return { raw, first: side[a].before + 1, total, ...(gap ? { gap } : {}) };
  }

  readLines(options: ReadLinesOptions = {}): ReadLinesResult {
    const fast = options.grep ? undefined : this.rangeRead(options.from, options.to);
    if (fast) {
      const lines: { no: number; text: string }[] = [];
      const lo = options.from === undefined ? 1 : options.from < 0 ? Math.max(1, fast.total + options.from + 1) : options.from;
      const hi = options.to === undefined ? fast.total : options.to < 0 ? fast.total + options.to + 1 : Math.min(options.to, fast.total);
      const max = options.maxBytes ?? Number.POSITIVE_INFINITY;
      let bytes = 0;
      let truncated = false;
      for (let no = Math.max(lo, fast.first); no <= hi && no - fast.first < fast.raw.length; no++) {
        let text = fast.raw[no - fast.first];
        if (text.endsWith('\r')) text = text.slice(0, -1);
        const shown = options.strip ? stripAnsi(text) : text;
        if (bytes + shown.length > max) {
          truncated = true;
          break;
        }
        bytes += shown.length + 1;
        lines.push({ no, text: shown });
      }
      return { lines, totalLines: fast.total, truncated, droppedBytes: this.meta.droppedBytes, ...(fast.gap ? { gap: fast.gap } : {}) };
    }
    const { raw, index, total, gap } = this.numbered();
    let from = options.from ?? 1;
    let to = options.to ?? total;
    if (from < 0) from = Math.max(1, total + from + 1);
    if (to < 0) to = total + to + 1;
    const max = options.maxBytes ?? Number.POSITIVE_INFINITY;
    const lines: { no: number; text: string }[] = [];
    let bytes = 0;
    let truncated = false;
    for (let no = Math.max(1, from); no <= Math.min(to, total); no++) {
      const i = index(no);
      if (i === undefined) {
        // Inside the gap: jump to the first line after it.
        if (gap && no <= gap.to) no = gap.to;
        continue;
      }
      let text = raw[i];
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
    return { lines, totalLines: total, truncated, droppedBytes: this.meta.droppedBytes, ...(gap ? { gap } : {}) };
  }
}

/** Does the file's last byte differ from a newline (the output's last line has none)? */
function endsWithoutNewline(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    if (size === 0) return false;
    const b = Buffer.alloc(1);
    fs.readSync(fd, b, 0, 1, size - 1);
    return b[0] !== 10;
  } finally {
    fs.closeSync(fd);
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

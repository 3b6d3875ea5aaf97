/**
 * The squash workers: a small pool of node:worker_threads threads, each running many commands'
 * squashers (worker-entry.ts). The pool owns its threads: it starts one when a command's
 * output is first offloaded, ends it after a quiet spell with no command on it, and ends all
 * at `dispose()` (the server's shutdown). A thread holds the process open only while a command
 * is on it (its result must arrive), never when idle. A thread that dies fails over its commands (their owners squash in-process again).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import type { Detection } from '../grammar/types.js';
import type { PtyExit } from '../pty/types.js';
import type { SquashEvent, SquashResult } from '../squasher/types.js';
import type { FromWorker, SquashOp, ToWorker } from './protocol.js';

/** node:worker_threads costs ~2 ms to load: only a host that offloads (and only when it does) pays it, not every `mish <cmd>`. */
const loadWorkerThreads = () => createRequire(import.meta.url)('node:worker_threads') as typeof import('node:worker_threads');

/** At most this many threads: squashing is one stream of work per command, and the main thread and the shells need the other cores. */
const MAX_WORKERS = 2;
/** A thread with no command is ended after this long (a burst of commands reuses it; an idle server holds none). */
const IDLE_MS = 10_000;
/** Bytes sent but not yet squashed above which every command on that thread pauses its source (the PTY). */
export const HIGH_WATER_BYTES = 4 * 1024 * 1024;
/** …and below which they resume. */
export const LOW_WATER_BYTES = 1024 * 1024;
/** Heap cap of a thread: the squasher is bounded and the queue is too; this only stops a runaway bug. */
const WORKER_HEAP_MB = 256;
/** After this many threads died, the pool stops offloading (squashing stays in-process). */
const MAX_FAILURES = 3;

/** What a command's owner hears from the worker. */
export interface LaneClient {
  onEvent(event: SquashEvent): void;
  onResult(result: SquashResult): void;
  /** The squasher in the worker is gone (it threw, or the thread died): squash in-process. */
  onFailed(reason: string): void;
  /** The thread is behind (true) or caught up (false): pause or resume the source. */
  onPressure(paused: boolean): void;
}

/** One command's squasher in a worker. */
export interface Lane {
  write(chunk: Uint8Array, at: number, quiet?: boolean): void;
  text(text: string, at: number, quiet?: boolean): void;
  tick(at: number, quiet?: boolean): void;
  detect(detection: Detection | undefined): void;
  finish(exit: PtyExit, at: number): void;
  /** Forget the command (no result is wanted). */
  close(): void;
}

interface Thread {
  worker: Worker;
  lanes: Map<number, LaneClient>;
  ops: SquashOp[];
  chunks: Uint8Array[];
  pendingBytes: number;
  /** Bytes posted and not yet acknowledged. */
  inflight: number;
  paused: boolean;
  flushing: boolean;
  dead: boolean;
  idle?: NodeJS.Timeout;
}

/** Where the worker's entry is: next to the bundle (dist/, out/main/), or the TypeScript source under tsx. */
export function squashWorkerEntry(): { entry: URL | string; eval?: true } | undefined {
  const here = import.meta.url;
  if (!here) return undefined;
  if (/\.[cm]?ts$/.test(here)) {
    // From the sources (tests, benchmarks): the thread registers tsx's loader, then loads the TypeScript entry
    // (node 20 does not carry the main thread's loader or an `--import` over to a worker).
    try {
      // tsx/esm/api as an ES module (require.resolve would give its CommonJS twin).
      const api = pathToFileURL(path.join(path.dirname(createRequire(here).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href;
      const entry = new URL('./worker-entry.ts', here).href;
      return { entry: `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`, eval: true };
    } catch {
      return undefined;
    }
  }
  // Bundles: this code sits in the entry file or in a chunk one folder below it.
  for (const rel of ['./squash-worker.mjs', '../squash-worker.mjs', './squash-worker.js', '../squash-worker.js']) {
    const url = new URL(rel, here);
    if (existsSync(fileURLToPath(url))) return { entry: url };
  }
  return undefined;
}

export interface SquashPoolOptions {
  /** Threads at most (default: one per core beyond the first, at most MAX_WORKERS). */
  size?: number;
  /** Reports thread failures (a server logs them to stderr). */
  log?: (message: string) => void;
}

export class SquashWorkerPool {
  private readonly threads: Thread[] = [];
  private readonly size: number;
  private nextId = 1;
  private failures = 0;
  private disabled: string | undefined;
  private disposed = false;

  constructor(private readonly options: SquashPoolOptions = {}) {
    this.size = Math.max(1, options.size ?? Math.min(MAX_WORKERS, availableParallelism() - 1));
  }

  /** Why the pool no longer offloads, if it does not. */
  get unavailable(): string | undefined {
    return this.disposed ? 'disposed' : this.disabled;
  }

  /** Live threads (tests check that none is left). */
  get threadCount(): number {
    return this.threads.length;
  }

  /** A lane for one command's squasher, or undefined when no worker can take it (squash in-process). */
  open(client: LaneClient, detection: Detection | undefined, at: number): Lane | undefined {
    if (this.disposed || this.disabled) return undefined;
    const t = this.pick();
    if (!t) return undefined;
    const id = this.nextId++;
    if (t.idle) clearTimeout(t.idle);
    t.idle = undefined;
    if (t.lanes.size === 0) t.worker.ref();
    t.lanes.set(id, client);
    this.push(t, { k: 'open', id, at, ...(detection ? { detection } : {}) });
    if (t.paused) client.onPressure(true);
    const live = () => !t.dead && t.lanes.get(id) === client;
    return {
      write: (chunk, at2, quiet) => {
        if (!live()) return;
        t.chunks.push(chunk);
        t.pendingBytes += chunk.byteLength;
        this.push(t, { k: 'write', id, at: at2, len: chunk.byteLength, ...(quiet ? { quiet: true } : {}) });
        this.checkPressure(t);
      },
      text: (text, at2, quiet) => live() && this.push(t, { k: 'text', id, at: at2, text, ...(quiet ? { quiet: true } : {}) }),
      tick: (at2, quiet) => live() && this.push(t, { k: 'tick', id, at: at2, ...(quiet ? { quiet: true } : {}) }),
      detect: (d) => live() && this.push(t, { k: 'detect', id, ...(d ? { detection: d } : {}) }),
      finish: (exit, at2) => live() && this.push(t, { k: 'finish', id, at: at2, exit }),
      close: () => {
        if (!live()) return;
        this.push(t, { k: 'close', id });
        this.release(t, id);
      },
    };
  }

  /** Ends every thread now; commands on them fail over to in-process squashing. */
  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.all([...this.threads].map((t) => this.end(t, 'the server is shutting down')));
  }

  /** Test hook: the thread running lanes throws, as a bug in it would. */
  crashForTest(): void {
    for (const t of this.threads) t.worker.postMessage({ type: 'crash' } satisfies ToWorker);
  }

  private pick(): Thread | undefined {
    const least = this.threads.reduce<Thread | undefined>((a, t) => (!a || t.lanes.size < a.lanes.size ? t : a), undefined);
    if (least && (least.lanes.size === 0 || this.threads.length >= this.size)) return least;
    return this.spawn() ?? least;
  }

  private spawn(): Thread | undefined {
    const entry = squashWorkerEntry();
    if (!entry) {
      this.disabled = 'the squash worker entry was not found next to the program';
      this.options.log?.(`squash worker: ${this.disabled}; squashing in-process`);
      return undefined;
    }
    let worker: Worker;
    try {
      const { Worker: WorkerThread } = loadWorkerThreads();
      worker = new WorkerThread(entry.entry, { ...(entry.eval ? { eval: true } : {}), resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    } catch (e) {
      this.fail(`cannot start: ${(e as Error).message}`);
      return undefined;
    }
    const t: Thread = { worker, lanes: new Map(), ops: [], chunks: [], pendingBytes: 0, inflight: 0, paused: false, flushing: false, dead: false };
    this.threads.push(t);
    let why: string | undefined;
    worker.on('message', (m: FromWorker) => this.onMessage(t, m));
    worker.on('error', (e) => (why = e.message));
    worker.on('exit', (code) => {
      if (t.dead) return;
      this.drop(t, `the squash worker ended (${why ?? `exit code ${code}`})`);
      this.fail(why ?? `exit code ${code}`);
    });
    // Only a thread with commands on it holds the process open (a pending result must arrive); listeners ref it, so after them.
    worker.unref();
    return t;
  }

  private onMessage(t: Thread, m: FromWorker): void {
    switch (m.type) {
      case 'ack':
        t.inflight -= m.bytes;
        this.checkPressure(t);
        break;
      case 'event':
        t.lanes.get(m.id)?.onEvent(m.event);
        break;
      case 'result': {
        const c = t.lanes.get(m.id);
        this.release(t, m.id);
        c?.onResult(m.result);
        break;
      }
      case 'failed': {
        const c = t.lanes.get(m.id);
        this.release(t, m.id);
        c?.onFailed(`the squasher failed in the worker: ${m.message}`);
        break;
      }
    }
  }

  private push(t: Thread, op: SquashOp): void {
    t.ops.push(op);
    if (t.flushing) return;
    t.flushing = true;
    // One message per event-loop turn and thread: every chunk that arrived in this turn travels together.
    setImmediate(() => this.flush(t));
  }

  private flush(t: Thread): void {
    t.flushing = false;
    if (t.dead || t.ops.length === 0) return;
    const data = new Uint8Array(t.pendingBytes); // never a pooled Buffer: its memory is transferred
    let o = 0;
    for (const c of t.chunks) {
      data.set(c, o);
      o += c.byteLength;
    }
    const msg: ToWorker = { type: 'batch', ops: t.ops, data };
    t.inflight += t.pendingBytes;
    t.ops = [];
    t.chunks = [];
    t.pendingBytes = 0;
    t.worker.postMessage(msg, [data.buffer]);
  }

  private checkPressure(t: Thread): void {
    const queued = t.inflight + t.pendingBytes;
    const paused = t.paused ? queued > LOW_WATER_BYTES : queued > HIGH_WATER_BYTES;
    if (paused === t.paused) return;
    t.paused = paused;
    for (const c of [...t.lanes.values()]) c.onPressure(paused);
  }

  private release(t: Thread, id: number): void {
    const c = t.lanes.get(id);
    if (!c) return;
    t.lanes.delete(id);
    if (t.paused) c.onPressure(false);
    if (t.lanes.size === 0 && !t.dead) {
      t.worker.unref();
      t.idle = setTimeout(() => void this.end(t, 'idle'), IDLE_MS);
      t.idle.unref();
    }
  }

  /** The thread is gone: its commands hear it and squash in-process. */
  private drop(t: Thread, reason: string): void {
    t.dead = true;
    if (t.idle) clearTimeout(t.idle);
    const i = this.threads.indexOf(t);
    if (i >= 0) this.threads.splice(i, 1);
    const lanes = [...t.lanes.values()];
    t.lanes.clear();
    for (const c of lanes) {
      if (t.paused) c.onPressure(false);
      c.onFailed(reason);
    }
  }

  private async end(t: Thread, reason: string): Promise<void> {
    if (t.dead) return;
    this.drop(t, `the squash worker was ended (${reason})`);
    await t.worker.terminate();
  }

  private fail(why: string): void {
    this.failures++;
    this.options.log?.(`squash worker failed: ${why}`);
    if (this.failures >= MAX_FAILURES && !this.disabled) {
      this.disabled = `${this.failures} squash workers failed (last: ${why})`;
      this.options.log?.(`squash worker: ${this.disabled}; squashing in-process from now on`);
    }
  }
}

let shared: SquashWorkerPool | null | undefined;
let sharedLog: ((m: string) => void) | undefined;
let enabled = false;

/**
 * Offloading is for hosts that serve many commands from one event loop (`mish serve`): they
 * call this at start. The CLI runs one command whose squashing is its critical path, so it
 * squashes in-process (a thread there only adds start-up and, niced, loses the CPU under load).
 */
export function enableSquashWorkers(log?: (message: string) => void): void {
  enabled = true;
  sharedLog = log;
}

/**
 * The process's pool (created on first use), or undefined when offloading is off: not enabled
 * by the host, or `MISH_SQUASH_WORKERS=0`; `MISH_SQUASH_WORKERS=N` allows at most N threads.
 */
export function squashWorkers(): SquashWorkerPool | undefined {
  if (!enabled) return undefined;
  if (shared === undefined) {
    const env = process.env.MISH_SQUASH_WORKERS;
    const n = env !== undefined && /^\d+$/.test(env) ? Number(env) : undefined;
    shared = n === 0 ? null : new SquashWorkerPool({ ...(n ? { size: n } : {}), log: (m) => (sharedLog ?? ((x: string) => process.stderr.write(`mish: ${x}\n`)))(m) });
  }
  return shared ?? undefined;
}

/** Ends the shared pool's threads (server shutdown); a later command starts a new pool. */
export async function shutdownSquashWorkers(): Promise<void> {
  const p = shared;
  shared = undefined;
  await p?.dispose();
}

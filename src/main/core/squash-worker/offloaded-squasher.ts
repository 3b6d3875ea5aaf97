/**
 * A squasher whose work leaves the event loop once a command's output is big: the same
 * `Squasher` runs in-process for the first OFFLOAD_AFTER_BYTES (a `true`, a short listing:
 * no thread hop, no latency), then in a squash worker (pool.ts), fed by replaying what the
 * in-process one saw. Both read the clock of the operations as they happened, so the result
 * is the same SquashResult either way (offloaded-squasher.test.ts proves it on recordings).
 *
 * If the worker fails (the thread dies or its squasher throws), the operations it was sent
 * are replayed into an in-process squasher, which finishes the command: no output lost and
 * no call left hanging. The replay log is bounded (REPLAY_LOG_BYTES); a failure past it
 * squashes the rest in-process and says what the summary lacks.
 */
import type { Detection } from '../grammar/types.js';
import type { PtyExit } from '../pty/types.js';
import { Squasher } from '../squasher/squasher.js';
import type { SquashEvent, SquashResult } from '../squasher/types.js';
import type { Lane, LaneClient, SquashWorkerPool } from './pool.js';

/** Output up to this size is squashed in-process: it costs well under a millisecond, less than the hop to a thread. */
export const OFFLOAD_AFTER_BYTES = 64 * 1024;
/** Operations kept to rebuild the squasher if its worker fails; past it a failure loses the summary of the start. */
export const REPLAY_LOG_BYTES = 8 * 1024 * 1024;
/** Ticks kept in-process before offloading anyway (a slow trickle would otherwise grow the log one tick per 100 ms). */
const MAX_LOCAL_OPS = 2_000;

type Op =
  | { k: 'write'; at: number; chunk: Uint8Array }
  | { k: 'text'; at: number; text: string }
  | { k: 'tick'; at: number }
  | { k: 'detect'; detection: Detection | undefined };

export interface OffloadedSquasherOptions {
  detection?: Detection;
  onEvent?: (event: SquashEvent) => void;
  /** Threads to offload to; absent: in-process only (the same as a plain Squasher). */
  pool?: SquashWorkerPool;
  /** The worker is behind: pause the source (true) until it catches up (false). */
  onPressure?: (paused: boolean) => void;
  /** Why the squasher came back in-process (a worker failure), for the host's log. */
  onFallback?: (reason: string) => void;
  /** Clock in ms (injected for tests). */
  now?: () => number;
  /** Bytes squashed in-process before offloading (default OFFLOAD_AFTER_BYTES). */
  offloadAfterBytes?: number;
}

export class OffloadedSquasher {
  private readonly now: () => number;
  private readonly startedAt: number;
  private readonly firstDetection: Detection | undefined;
  /** The clock the in-process squasher reads: the time of the operation it runs. */
  private at: number;
  private local: Squasher | undefined;
  private lane: Lane | undefined;
  /** Every operation since the start, while within REPLAY_LOG_BYTES; undefined once over. */
  private log: Op[] | undefined = [];
  private logBytes = 0;
  private bytes = 0;
  private offloadable: boolean;
  private paused = false;
  private lost: string | undefined;
  private ending: { exit: PtyExit; at: number; resolve(r: SquashResult): void; reject(e: Error): void } | undefined;
  private done = false;

  constructor(private readonly options: OffloadedSquasherOptions = {}) {
    this.now = options.now ?? (() => performance.now());
    this.at = this.startedAt = this.now();
    this.firstDetection = options.detection;
    this.offloadable = options.pool !== undefined;
    // Without threads to move to (the CLI), nothing needs replaying: keep no log.
    if (!this.offloadable) this.log = undefined;
    // The in-process squasher is built on the first operation (inProcess()), not here: a command is spawned
    // after its squasher is made, and building the rules' prefilter is milliseconds a fresh `mish <cmd>` spent
    // before spawning; its first operation comes once the command runs.
  }

  /** The in-process squasher, built on first use exactly as at construction (its clock then reads the start time). */
  private inProcess(): Squasher {
    if (this.local) return this.local;
    const at = this.at;
    this.at = this.startedAt;
    this.local = this.newLocal(this.options.onEvent);
    this.at = at;
    return this.local;
  }

  /** Whether the squashing runs in a worker now. */
  get offloaded(): boolean {
    return this.lane !== undefined;
  }

  setDetection(detection: Detection | undefined): void {
    this.record({ k: 'detect', detection }, 0);
    if (this.lane) this.lane.detect(detection);
    else this.inProcess().setDetection(detection);
  }

  write(chunk: Uint8Array | string): void {
    if (this.done) return;
    const at = (this.at = this.now());
    const size = typeof chunk === 'string' ? chunk.length : chunk.byteLength;
    this.bytes += size;
    this.record(typeof chunk === 'string' ? { k: 'text', at, text: chunk } : { k: 'write', at, chunk }, size);
    if (this.lane) {
      if (typeof chunk === 'string') this.lane.text(chunk, at);
      else this.lane.write(chunk, at);
      return;
    }
    this.inProcess().write(chunk);
    if (this.offloadable && this.bytes >= (this.options.offloadAfterBytes ?? OFFLOAD_AFTER_BYTES)) this.offload();
  }

  tick(): void {
    if (this.done) return;
    const at = (this.at = this.now());
    this.record({ k: 'tick', at }, 0);
    if (this.lane) this.lane.tick(at);
    else this.inProcess().tick();
    if (this.lane === undefined && this.offloadable && this.log && this.log.length > MAX_LOCAL_OPS && this.bytes > 0) this.offload();
  }

  /** The command ended: its SquashResult, from the worker or in-process. */
  finish(exit: PtyExit): Promise<SquashResult> {
    if (this.done) return Promise.reject(new Error('squasher already finished'));
    this.done = true;
    const at = (this.at = this.now());
    if (!this.lane) return Promise.resolve(this.finishLocal(exit));
    return new Promise<SquashResult>((resolve, reject) => {
      this.ending = { exit, at, resolve, reject };
      this.lane!.finish(exit, at);
    });
  }

  /** Lets go of the worker's squasher if the command ends without finish() (an error on the way). */
  dispose(): void {
    this.done = true;
    this.lane?.close();
    this.lane = undefined;
    this.setPaused(false);
  }

  private newLocal(onEvent: ((e: SquashEvent) => void) | undefined): Squasher {
    return new Squasher({ detection: this.firstDetection, now: () => this.at, onEvent });
  }

  private finishLocal(exit: PtyExit): SquashResult {
    this.log = undefined;
    return this.inProcess().finish(exit);
  }

  private record(op: Op, size: number): void {
    if (!this.log) return;
    this.logBytes += size;
    if (this.logBytes > REPLAY_LOG_BYTES) this.log = undefined;
    else this.log.push(op);
  }

  /** Move to a worker: it replays what the in-process squasher saw, quietly, then takes over. */
  private offload(): void {
    const client: LaneClient = {
      onEvent: (e) => this.options.onEvent?.(e),
      onResult: (r) => {
        const end = this.ending;
        this.lane = undefined;
        this.ending = undefined;
        this.setPaused(false);
        end?.resolve(r);
      },
      onFailed: (reason) => this.fallBack(reason),
      onPressure: (p) => this.setPaused(p),
    };
    const lane = this.options.pool!.open(client, this.firstDetection, this.startedAt);
    if (!lane) {
      this.offloadable = false;
      return;
    }
    for (const op of this.log!) {
      if (op.k === 'write') lane.write(op.chunk, op.at, true);
      else if (op.k === 'text') lane.text(op.text, op.at, true);
      else if (op.k === 'tick') lane.tick(op.at, true);
      else lane.detect(op.detection);
    }
    this.lane = lane;
    this.local = undefined;
  }

  /** The worker's squasher is gone: rebuild it in-process from the log and carry on. */
  private fallBack(reason: string): void {
    if (!this.lane) return;
    this.lane = undefined;
    this.offloadable = false;
    this.setPaused(false);
    this.lost = reason;
    const log = this.log;
    // Replayed operations already delivered their events (from the worker): only new ones speak.
    let quiet = true;
    const now = this.at;
    this.at = this.startedAt; // the rebuilt squasher starts when the command did
    this.local = this.newLocal((e) => {
      if (!quiet) this.options.onEvent?.(e);
    });
    if (log) {
      for (const op of log) {
        if (op.k === 'detect') {
          this.local.setDetection(op.detection);
          continue;
        }
        this.at = op.at;
        if (op.k === 'write') this.local.write(op.chunk);
        else if (op.k === 'text') this.local.write(op.text);
        else this.local.tick();
      }
      this.options.onFallback?.(`${reason}; squashing in-process (nothing lost)`);
      this.at = now;
    } else {
      this.at = now;
      const note = `[mish: ${reason}; the summary covers only the output after it (all of it is in the spool)]\n`;
      this.local.write(note);
      this.options.onFallback?.(`${reason}; squashing the rest in-process (the summary lacks the output before it)`);
    }
    quiet = false;
    const end = this.ending;
    if (end) {
      this.ending = undefined;
      this.at = end.at;
      try {
        end.resolve(this.finishLocal(end.exit));
      } catch (e) {
        end.reject(e as Error);
      }
    }
  }

  private setPaused(p: boolean): void {
    if (p === this.paused) return;
    this.paused = p;
    this.options.onPressure?.(p);
  }

  /** Why the worker was given up, if it was (tests, logs). */
  get fallbackReason(): string | undefined {
    return this.lost;
  }
}

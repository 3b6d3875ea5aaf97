/**
 * Messages between the main thread and a squash worker (worker-entry.ts). The main thread
 * batches every command's operations of one event-loop turn into one message whose chunk
 * bytes travel in a single transferred buffer (no copy on the way, one postMessage per turn).
 */
import type { Detection } from '../grammar/types.js';
import type { PtyExit } from '../pty/types.js';
import type { SquashEvent, SquashResult } from '../squasher/types.js';

/**
 * One squasher operation. `at` is the main thread's clock when the operation happened: the
 * worker's squasher reads it as its clock, so it decides prompts, silence and durations
 * exactly as an in-process squasher fed the same operations would. `quiet`: a replay of
 * operations an in-process squasher already ran (its events were already delivered).
 */
export type SquashOp =
  | { k: 'open'; id: number; at: number; detection?: Detection }
  /** `len` bytes of the batch's data, following the previous write's. */
  | { k: 'write'; id: number; at: number; len: number; quiet?: true }
  /** A chunk given as text (the squasher also accepts strings). */
  | { k: 'text'; id: number; at: number; text: string; quiet?: true }
  | { k: 'tick'; id: number; at: number; quiet?: true }
  | { k: 'detect'; id: number; detection?: Detection }
  | { k: 'finish'; id: number; at: number; exit: PtyExit }
  /** The owner gave up on this squasher (an error on its side): forget it. */
  | { k: 'close'; id: number };

export interface SquashBatch {
  type: 'batch';
  ops: SquashOp[];
  /** The concatenated bytes of every `write` op, in order. */
  data: Uint8Array;
}

/** A test hook: the worker throws from its message handler, as a bug in it would. */
export interface CrashRequest {
  type: 'crash';
}

export type ToWorker = SquashBatch | CrashRequest;

export type FromWorker =
  /** A batch was processed: `bytes` of data left the worker's queue (backpressure). */
  | { type: 'ack'; bytes: number }
  | { type: 'event'; id: number; event: SquashEvent }
  | { type: 'result'; id: number; result: SquashResult }
  /** The squasher of `id` threw: the owner falls back to in-process squashing. */
  | { type: 'failed'; id: number; message: string };

/**
 * The squash worker's entry (a node:worker_threads thread): it runs the same `Squasher` class
 * as the main thread, one instance per offloaded command, and answers with its events and
 * final SquashResult. Built as its own entry: dist/squash-worker.mjs (scripts/build-cli.mjs)
 * and out/main/squash-worker.js (electron.vite.config.ts); from the sources under tsx.
 */
import { currentThreadId } from '../../platform/platform.js';
import { getPriority, setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { Squasher } from '../squasher/squasher.js';
import type { FromWorker, ToWorker } from './protocol.js';

interface Slot {
  squasher: Squasher;
  /** The clock of the operation being run (the main thread's, see protocol.ts). */
  at: number;
  /** Events of a replayed operation are not sent again. */
  quiet: boolean;
}

/**
 * How much nicer than the process this thread runs: squashing is bulk work, and on a busy
 * machine the main thread (the protocol, other sessions' prompts) must get the CPU first;
 * backpressure then slows the streaming command, not every call. Relative, so a server started
 * with `nice -n 10` still puts its worker below its main thread (an absolute 10 would equal it,
 * and under `nice -n 15` run as root would even raise the worker above it).
 */
const WORKER_NICENESS_STEP = 10;
/** The nicest a thread can be (Linux, macOS). */
const MAX_NICENESS = 19;

const port = parentPort;
if (!port) throw new Error('squash worker: not started as a worker thread');

// On Linux a thread has its own id, and setpriority on it concerns this thread only.
try {
  const tid = currentThreadId();
  if (tid !== undefined) setPriority(tid, Math.min(MAX_NICENESS, getPriority(tid) + WORKER_NICENESS_STEP));
} catch {
  // Not permitted: the thread keeps the process's priority (as it does where threads have no id of their own).
}

const slots = new Map<number, Slot>();
const send = (m: FromWorker) => port.postMessage(m);

function fail(id: number, e: unknown): void {
  slots.delete(id);
  send({ type: 'failed', id, message: e instanceof Error ? e.message : String(e) });
}

port.on('message', (m: ToWorker) => {
  if (m.type === 'crash') throw new Error('squash worker: crash requested (test hook)');
  let offset = 0;
  for (const op of m.ops) {
    if (op.k === 'open') {
      const slot: Slot = { squasher: undefined as unknown as Squasher, at: op.at, quiet: false };
      try {
        slot.squasher = new Squasher({
          detection: op.detection,
          now: () => slot.at,
          onEvent: (event) => {
            if (!slot.quiet) send({ type: 'event', id: op.id, event });
          },
        });
        slots.set(op.id, slot);
      } catch (e) {
        fail(op.id, e);
      }
      continue;
    }
    const slot = slots.get(op.id);
    if (op.k === 'write') offset += op.len;
    if (!slot) continue; // failed or closed: its later operations are dropped
    try {
      switch (op.k) {
        case 'write':
          slot.at = op.at;
          slot.quiet = op.quiet === true;
          slot.squasher.write(m.data.subarray(offset - op.len, offset));
          break;
        case 'text':
          slot.at = op.at;
          slot.quiet = op.quiet === true;
          slot.squasher.write(op.text);
          break;
        case 'tick':
          slot.at = op.at;
          slot.quiet = op.quiet === true;
          slot.squasher.tick();
          break;
        case 'detect':
          slot.squasher.setDetection(op.detection);
          break;
        case 'finish':
          slot.at = op.at;
          slot.quiet = false;
          slots.delete(op.id);
          send({ type: 'result', id: op.id, result: slot.squasher.finish(op.exit) });
          break;
        case 'close':
          slots.delete(op.id);
          break;
      }
    } catch (e) {
      fail(op.id, e);
    }
  }
  send({ type: 'ack', bytes: m.data.byteLength });
});

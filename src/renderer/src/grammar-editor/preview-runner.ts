/**
 * Drives the preview worker: debounced runs, one in flight, the newest edit wins.
 *
 * - A keystroke when the worker is idle runs at once; keystrokes within DEBOUNCE_MS of the last
 *   run make one trailing run (typing a word fast is one or two previews, not five).
 * - While a run is in flight, newer edits wait as one pending run; the in-flight answer is
 *   dropped when a newer edit is pending (stale), and the pending run starts at once.
 * - A run still busy STALE_KILL_MS after a newer edit arrived is cancelled for real: the
 *   worker is terminated and a fresh one gets the raw output again (a pathological regex must
 *   not hold the preview hostage).
 * - Each delivered result carries the time of the newest keystroke it includes, so the view
 *   can measure keystroke → preview painted.
 */
import type { FromWorker, GrammarOriginName, ToWorker } from './protocol.js';

/** Minimum gap between runs: short against the 100 ms keystroke → preview budget, long enough to batch a burst of typing. */
export const DEBOUNCE_MS = 30;
/** A run this much older than a pending edit is cancelled by terminating the worker. */
export const STALE_KILL_MS = 400;

export interface GrammarDoc {
  text: string;
  file: string;
  origin: GrammarOriginName;
  shared: Record<string, string>;
}

export interface RawInput {
  bytes: Uint8Array;
  argv: string[];
  exitCode: number;
  durationMs: number;
}

type ResultMsg = Extract<FromWorker, { type: 'result' }>;
export type Delivered = ResultMsg & { keystrokeAt: number };

export interface RunnerEvents {
  onRaw(display: string, rawLines: number): void;
  onResult(r: Delivered): void;
  onFailure(message: string): void;
}

export class PreviewRunner {
  private worker: Worker;
  private rawId = 0;
  private raw: RawInput | undefined;
  private gen = 0;
  private inFlight: { gen: number; startedAt: number; keystrokeAt: number } | undefined;
  private pending: { doc: GrammarDoc; keystrokeAt: number } | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private killTimer: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;
  private lastRunAt = -Infinity;

  constructor(private readonly events: RunnerEvents) {
    this.worker = this.spawn();
  }

  private spawn(): Worker {
    const w = new Worker(new URL('./preview.worker.ts', import.meta.url), { type: 'module', name: 'mish-grammar-preview' });
    w.onmessage = (e: MessageEvent<FromWorker>) => this.onMessage(e.data);
    w.onerror = (e) => this.events.onFailure(`preview worker: ${e.message || 'failed to start'}`);
    return w;
  }

  private post(m: ToWorker, transfer: Transferable[] = []): void {
    this.worker.postMessage(m, transfer);
  }

  /** Chooses the raw output to preview against (copied: the caller keeps its bytes). */
  setRaw(raw: RawInput): void {
    this.raw = raw;
    this.rawId++;
    this.inFlight = undefined;
    this.sendRaw();
  }

  private sendRaw(): void {
    if (!this.raw) return;
    const copy = this.raw.bytes.slice().buffer as ArrayBuffer;
    this.post({ type: 'raw', rawId: this.rawId, bytes: copy, argv: this.raw.argv, exitCode: this.raw.exitCode, durationMs: this.raw.durationMs }, [copy]);
  }

  /** Asks for a preview of this text; `now` runs it without the debounce (opening a grammar). */
  request(doc: GrammarDoc, keystrokeAt: number, now = false): void {
    this.pending = { doc, keystrokeAt };
    clearTimeout(this.timer);
    // Leading edge when idle (a single keystroke previews at once); a burst within DEBOUNCE_MS
    // of the last run, or while one runs, becomes one trailing run of the newest text.
    const sinceLast = performance.now() - this.lastRunAt;
    if (now || (!this.inFlight && sinceLast >= DEBOUNCE_MS)) this.pump();
    else if (!this.inFlight) this.timer = setTimeout(() => this.pump(), DEBOUNCE_MS - sinceLast);
    if (this.inFlight && !this.killTimer) this.killTimer = setTimeout(() => this.killIfStale(), STALE_KILL_MS);
  }

  private pump(): void {
    if (this.disposed || !this.pending || this.inFlight || !this.raw) return;
    const { doc, keystrokeAt } = this.pending;
    this.pending = undefined;
    const gen = ++this.gen;
    this.lastRunAt = performance.now();
    this.inFlight = { gen, startedAt: this.lastRunAt, keystrokeAt };
    this.post({ type: 'run', gen, rawId: this.rawId, text: doc.text, file: doc.file, origin: doc.origin, shared: doc.shared });
  }

  private killIfStale(): void {
    this.killTimer = undefined;
    if (!this.inFlight || !this.pending) return;
    if (performance.now() - this.inFlight.startedAt < STALE_KILL_MS) {
      this.killTimer = setTimeout(() => this.killIfStale(), STALE_KILL_MS);
      return;
    }
    this.worker.terminate();
    this.worker = this.spawn();
    this.inFlight = undefined;
    this.sendRaw();
    this.pump();
  }

  private onMessage(m: FromWorker): void {
    if (m.type === 'raw-ready') {
      if (m.rawId === this.rawId) this.events.onRaw(m.display, m.rawLines);
      this.pump();
      return;
    }
    const flight = this.inFlight;
    if (!flight || m.gen !== flight.gen) return; // answer of a cancelled run
    this.inFlight = undefined;
    clearTimeout(this.killTimer);
    this.killTimer = undefined;
    if (m.type === 'failed') this.events.onFailure(m.message);
    else if (m.rawId === this.rawId && !this.pending) this.events.onResult({ ...m, keystrokeAt: flight.keystrokeAt });
    // A newer edit is waiting: this answer is stale, run the newer one now.
    if (this.pending) {
      clearTimeout(this.timer);
      this.pump();
    }
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.timer);
    clearTimeout(this.killTimer);
    this.worker.terminate();
  }
}

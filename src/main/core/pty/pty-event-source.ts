/**
 * The listener bookkeeping every PtyProcess implementation shares: output fans out to the
 * current listeners, and the exit is reported exactly once — a listener added after it gets it
 * at once, so a caller that subscribes late can never wait forever.
 */
import type { PtyExit } from './types.js';

export abstract class PtyEventSource {
  private readonly dataListeners = new Set<(chunk: Uint8Array) => void>();
  private readonly exitListeners = new Set<(exit: PtyExit) => void>();
  private exitStatus: PtyExit | undefined;

  onData(listener: (chunk: Uint8Array) => void): () => void {
    this.dataListeners.add(listener);
    return () => this.dataListeners.delete(listener);
  }

  onExit(listener: (exit: PtyExit) => void): () => void {
    if (this.exitStatus) {
      listener(this.exitStatus);
      return () => {};
    }
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  /** The exit, once reported. */
  protected get exited(): PtyExit | undefined {
    return this.exitStatus;
  }

  protected emitData(chunk: Uint8Array): void {
    for (const l of this.dataListeners) l(chunk);
  }

  /** Reports the exit (only the first call counts) and drops every listener: nothing follows it. */
  protected emitExit(exit: PtyExit): void {
    if (this.exitStatus) return;
    this.exitStatus = exit;
    for (const l of this.exitListeners) l(exit);
    this.dataListeners.clear();
    this.exitListeners.clear();
  }
}

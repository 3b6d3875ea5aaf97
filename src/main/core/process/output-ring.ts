/**
 * Bounded in-memory OutputStore: exact raw bytes split into lines, oldest lines dropped past
 * a byte budget. Stands in for the on-disk spool (src/main/core/spool) behind the same
 * OutputStore interface until that lands; hosts pass a factory to switch.
 */
import type { OutputStore, SpoolReadOptions, SpoolReadResult } from '../session/types.js';

/** Per-process raw output kept in memory: enough for every realistic test run's log. */
export const RING_MAX_BYTES = 8 * 1024 * 1024;

export class OutputRing implements OutputStore {
  private lines: string[] = [];
  private bytes = 0;
  private dropped = 0;
  private partial = '';
  private readonly decoder = new TextDecoder('utf-8');
  private closed = false;

  constructor(private readonly maxBytes = RING_MAX_BYTES) {}

  write(chunk: Uint8Array): void {
    if (this.closed) return;
    const text = this.partial + this.decoder.decode(chunk, { stream: true });
    const parts = text.split('\n');
    this.partial = parts.pop() ?? '';
    for (const p of parts) this.push(p.endsWith('\r') ? p.slice(0, -1) : p);
  }

  close(): void {
    if (this.closed) return;
    const rest = this.partial + this.decoder.decode();
    if (rest.length > 0) this.push(rest);
    this.partial = '';
    this.closed = true;
  }

  private push(line: string): void {
    this.lines.push(line);
    this.bytes += line.length + 1;
    while (this.bytes > this.maxBytes && this.lines.length > 1) {
      this.bytes -= (this.lines.shift()?.length ?? 0) + 1;
      this.dropped++;
    }
  }

  read(options: SpoolReadOptions = {}): SpoolReadResult {
    const all = this.partial ? [...this.lines, this.partial] : this.lines;
    const total = this.dropped + all.length;
    const from = Math.max(options.fromLine ?? 1, this.dropped + 1);
    const to = Math.min(options.toLine ?? total, total);
    const grep = options.grep;
    const test = grep === undefined ? undefined : typeof grep === 'string' ? (s: string) => s.includes(grep) : (s: string) => grep.test(s);
    const lines: { n: number; text: string }[] = [];
    for (let n = from; n <= to; n++) {
      const text = all[n - 1 - this.dropped];
      if (!test || test(text)) lines.push({ n, text });
    }
    return { lines, totalLines: total, droppedLines: this.dropped };
  }

  /** Lines written so far (a trailing partial line counts). */
  lineCount(): number {
    return this.dropped + this.lines.length + (this.partial ? 1 : 0);
  }
}

/**
 * The bytes of a run kept in bounded memory: the first HEAD_BYTES and the newest TAIL_BYTES,
 * with exact counts of the whole stream (issue 9: `mish serve` held a 50 MB passthrough output
 * in memory several times over, 410 MB RSS; 105 MB → 778 MB). The spool keeps every byte on
 * disk; a handler that shows head and tail needs only these.
 */

/** Start of the output kept in memory: far more than passthrough shows (256 KB), so its cut falls inside what is kept. */
export const HEAD_BYTES = 1024 * 1024;
/** End of the output kept in memory (the same reasoning for the tail). */
export const TAIL_BYTES = 1024 * 1024;

/** Counts of the whole stream, kept or not. */
export interface StreamCounts {
  /** PTY bytes. */
  bytes: number;
  /** `\n` bytes. */
  newlines: number;
  /** `\r\n` pairs (the tty's ONLCR): the program wrote one byte fewer for each. */
  crlf: number;
  /** The stream's last byte, -1 when empty. */
  lastByte: number;
}

export type BoundedResult = { whole: Buffer; counts: StreamCounts } | { head: Buffer; tail: Buffer; counts: StreamCounts };

export class BoundedBytes {
  private readonly head: Buffer[] = [];
  private headBytes = 0;
  private readonly tail: Buffer[] = [];
  private tailBytes = 0;
  private dropped = false;
  private readonly counts: StreamCounts = { bytes: 0, newlines: 0, crlf: 0, lastByte: -1 };

  constructor(
    private readonly headLimit = HEAD_BYTES,
    private readonly tailLimit = TAIL_BYTES,
  ) {}

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    const k = this.counts;
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) {
      k.newlines++;
      if ((i > 0 ? chunk[i - 1] : k.lastByte) === 13) k.crlf++;
    }
    k.bytes += chunk.length;
    k.lastByte = chunk[chunk.length - 1];
    let c = Buffer.from(chunk);
    if (this.headBytes < this.headLimit) {
      const part = c.subarray(0, this.headLimit - this.headBytes);
      this.head.push(part);
      this.headBytes += part.length;
      c = c.subarray(part.length);
      if (c.length === 0) return;
    }
    this.tail.push(c);
    this.tailBytes += c.length;
    while (this.tail.length > 1 && this.tailBytes - this.tail[0].length >= this.tailLimit) {
      this.tailBytes -= this.tail.shift()!.length;
      this.dropped = true;
    }
  }

  /** Everything when nothing was dropped; else the head and the tail apart (what lies between is on disk only). */
  result(): BoundedResult {
    const counts = { ...this.counts };
    if (!this.dropped) return { whole: Buffer.concat([...this.head, ...this.tail]), counts };
    return { head: Buffer.concat(this.head), tail: Buffer.concat(this.tail), counts };
  }
}

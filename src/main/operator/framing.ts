/**
 * Newline-delimited JSON framing of the operator wire over a byte stream (a Unix socket).
 */
import { MAX_FRAME_BYTES } from '../../shared/operator-wire.js';

/** Splits a byte stream into lines (frames); a line over MAX_FRAME_BYTES is dropped and reported. */
export class FrameReader {
  private parts: Buffer[] = [];
  private size = 0;
  private discarding = false;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly onOversize: () => void = () => {},
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (this.discarding) {
        this.discarding = false;
        this.parts = [];
        this.size = 0;
        continue;
      }
      const line = this.size ? Buffer.concat([...this.parts, piece]) : piece;
      this.parts = [];
      this.size = 0;
      if (line.length) this.onLine(line.toString('utf8'));
    }
    const rest = chunk.subarray(start);
    if (!rest.length || this.discarding) return;
    this.parts.push(Buffer.from(rest));
    this.size += rest.length;
    if (this.size > MAX_FRAME_BYTES) {
      this.parts = [];
      this.size = 0;
      this.discarding = true;
      this.onOversize();
    }
  }
}

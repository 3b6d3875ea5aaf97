/**
 * Stream parser for mish's shell-integration markers (resources/shell-integration/*.sh):
 * private OSC 6474 sequences carrying the session nonce. Bytes that are not one of *our*
 * markers (including look-alikes with a wrong nonce, printed by a command) pass through as
 * data, unchanged and in order. Markers split across reads are reassembled.
 */
import { MISH_OSC } from '../pty/spawn-command.js';

export type MarkerEvent =
  | { type: 'data'; bytes: Uint8Array }
  | { type: 'ready' }
  | { type: 'start' }
  | { type: 'segment'; command: string }
  | { type: 'end'; exitCode: number; cwd: string };

const BEL = 0x07;
const ESC = 0x1b;
/** A marker longer than this is not ours (cwd and one simple command line fit easily). */
const MAX_MARKER_BYTES = 64 * 1024;

export class MarkerParser {
  private readonly prefix: Buffer;
  private carry: Buffer = Buffer.alloc(0);

  constructor(nonce: string) {
    // Every marker is ESC ] 6474 ; <kind> ; <nonce> [; …] BEL — we match on the common head.
    this.prefix = Buffer.from(`\x1b]${MISH_OSC};`, 'latin1');
    this.nonce = Buffer.from(nonce, 'latin1');
  }

  private readonly nonce: Buffer;

  /** Feeds one chunk; returns events in stream order. */
  feed(chunk: Uint8Array): MarkerEvent[] {
    const out: MarkerEvent[] = [];
    let buf = this.carry.length ? Buffer.concat([this.carry, chunk]) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.carry = Buffer.alloc(0);
    let from = 0;
    let scan = 0;
    for (;;) {
      const at = buf.indexOf(this.prefix, scan);
      if (at < 0) break;
      const end = buf.indexOf(BEL, at + this.prefix.length);
      if (end < 0) {
        if (buf.length - at > MAX_MARKER_BYTES) {
          scan = at + 1; // too long to be ours: treat as data
          continue;
        }
        pushData(out, buf.subarray(from, at));
        this.carry = Buffer.from(buf.subarray(at));
        return out;
      }
      const ev = this.decode(buf.subarray(at + this.prefix.length, end));
      if (!ev) {
        scan = at + 1;
        continue;
      }
      pushData(out, buf.subarray(from, at));
      out.push(ev);
      from = end + 1;
      scan = from;
    }
    // Hold back a tail that could be the start of a marker.
    let stop = buf.length;
    const esc = buf.lastIndexOf(ESC);
    if (esc >= from && esc >= buf.length - this.prefix.length) {
      const tail = buf.subarray(esc);
      if (this.prefix.subarray(0, tail.length).equals(tail)) stop = esc;
    }
    pushData(out, buf.subarray(from, stop));
    if (stop < buf.length) this.carry = Buffer.from(buf.subarray(stop));
    return out;
  }

  /** Bytes held back (an incomplete marker); flushed as data when the stream ends. */
  flush(): Uint8Array {
    const c = this.carry;
    this.carry = Buffer.alloc(0);
    return c;
  }

  private decode(body: Buffer): MarkerEvent | undefined {
    // body: <kind> ; <nonce> [; payload]
    if (body.length < 2 + this.nonce.length || body[1] !== 0x3b) return undefined;
    if (!body.subarray(2, 2 + this.nonce.length).equals(this.nonce)) return undefined;
    const rest = body.subarray(2 + this.nonce.length);
    if (rest.length > 0 && rest[0] !== 0x3b) return undefined;
    const payload = rest.subarray(1).toString('utf8');
    switch (String.fromCharCode(body[0])) {
      case 'R':
        return { type: 'ready' };
      case 'S':
        return { type: 'start' };
      case 'C':
        return { type: 'segment', command: payload };
      case 'E': {
        const semi = payload.indexOf(';');
        const code = Number(semi < 0 ? payload : payload.slice(0, semi));
        if (!Number.isInteger(code)) return undefined;
        return { type: 'end', exitCode: code, cwd: semi < 0 ? '' : payload.slice(semi + 1) };
      }
      default:
        return undefined;
    }
  }
}

function pushData(out: MarkerEvent[], bytes: Uint8Array): void {
  if (bytes.length > 0) out.push({ type: 'data', bytes: Buffer.from(bytes) });
}

/**
 * Decoder for mish's shell-integration markers (resources/shell-integration/*.sh): private
 * OSC 6474 sequences carrying the session nonce, found by the shared NonceMarkerScanner. Bytes
 * that are not one of *our* markers (including look-alikes with a wrong nonce, printed by a
 * command) pass through as data, unchanged and in order. Markers split across reads are
 * reassembled.
 */
import { NonceMarkerScanner } from '../pty/nonce-marker-scanner.js';

export type MarkerEvent =
  | { type: 'data'; bytes: Uint8Array }
  | { type: 'ready' }
  | { type: 'start' }
  | { type: 'segment'; command: string }
  | { type: 'cdpath'; value: string }
  | { type: 'end'; exitCode: number; cwd: string };

/** Marker kinds of the protocol (see resources/shell-integration/bash.sh). */
const KINDS = ['R', 'S', 'C', 'D', 'E'];

export class MarkerParser {
  private readonly scanner: NonceMarkerScanner;
  /** Events of the chunk being fed (the scanner reports synchronously). */
  private out: MarkerEvent[] = [];

  constructor(nonce: string) {
    this.scanner = new NonceMarkerScanner(nonce, KINDS, {
      onData: (bytes) => this.out.push({ type: 'data', bytes }),
      onMarker: (kind, payload) => {
        const ev = decode(kind, payload.toString('utf8'));
        if (ev) this.out.push(ev);
        return ev !== undefined;
      },
    });
  }

  /** Feeds one chunk; returns events in stream order. */
  feed(chunk: Uint8Array): MarkerEvent[] {
    this.scanner.push(chunk);
    const out = this.out;
    this.out = [];
    return out;
  }

  /** Bytes held back (an incomplete marker); flushed as data when the stream ends. */
  flush(): Uint8Array {
    this.scanner.end();
    const rest = this.out.flatMap((ev) => (ev.type === 'data' ? [ev.bytes] : []));
    this.out = [];
    return Buffer.concat(rest);
  }
}

function decode(kind: string, payload: string): MarkerEvent | undefined {
  switch (kind) {
    case 'R':
      return { type: 'ready' };
    case 'S':
      return { type: 'start' };
    case 'C':
      return { type: 'segment', command: payload };
    case 'D':
      // The shell's CDPATH, just before an end marker (none: CDPATH is unset or empty).
      return { type: 'cdpath', value: payload };
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

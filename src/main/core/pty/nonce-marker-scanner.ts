/**
 * Finds mish's private, nonce'd OSC markers in a PTY byte stream and cuts them out:
 *
 *     ESC ] 6474 ; <kind> ; <nonce> [ ; <payload> ] BEL
 *
 * Three producers print them: the lossless-exit wrapper of `spawnCommand` (`exit`), the CLI's
 * bash DEBUG trap (`seg`) and the persistent-session shell integration (`R`, `S`, `C`, `E`).
 * One scanner serves all three so the guarantees are proved once:
 * - every byte that is not one of *our* markers reaches `onData` unchanged and in order —
 *   look-alikes with another nonce or an unknown kind (a command printing a forged marker)
 *   included; only the chunking may differ from the input's;
 * - a marker split across reads is reassembled; bytes are held back only while they can still
 *   become one of our markers, and a forged head is released as soon as it stops matching;
 * - output cannot forge a marker: the nonce is random per run or session.
 */

/** OSC number for mish's private sequences (unassigned by xterm; "mish" on a phone keypad is 6474). */
export const MISH_OSC = 6474;

/**
 * A held-back marker whose nonce matched but whose BEL has not come after this many bytes is
 * given up and passed on as data: its printer was killed mid-write, and output must not be
 * held forever. Real markers carry a status, a cwd or one simple command line.
 */
export const MAX_MARKER_BYTES = 1024 * 1024;

const ESC = 0x1b;
const BEL = 0x07;
const SEMI = 0x3b;
const HEAD = Buffer.from(`\x1b]${MISH_OSC};`, 'latin1');
const EMPTY = Buffer.alloc(0);

export interface NonceMarkerSink {
  /**
   * Bytes that are not one of our markers, in stream order. Views into the pushed chunk (or a
   * buffer the scanner made): never changed afterwards, so they may be kept without copying.
   */
  onData(bytes: Buffer): void;
  /**
   * One of our markers (`payload`: the bytes after `<nonce>;`, empty when absent). Return
   * false to reject a malformed one: its bytes then go to onData like any other output.
   */
  onMarker(kind: string, payload: Buffer): boolean | void;
}

/** What a look at a marker head can find besides a position: not ours, or cut by the read. */
const NOT_OURS = -1;
const INCOMPLETE = -2;

export class NonceMarkerScanner {
  private readonly kinds: Buffer[];
  private readonly kindNames: readonly string[];
  private readonly nonce: Buffer;
  /** Bytes held back because they may be the start of one of our markers. */
  private carry: Buffer = EMPTY;

  /** `kinds`: the marker kinds this stream carries; any other kind is output. */
  constructor(
    nonce: string,
    kinds: readonly string[],
    private readonly sink: NonceMarkerSink,
  ) {
    if (!nonce || nonce.includes(';') || nonce.includes('\x07')) throw new Error(`NonceMarkerScanner: bad nonce ${JSON.stringify(nonce)}`);
    for (const k of kinds) if (!k || /[;\x07]/.test(k)) throw new Error(`NonceMarkerScanner: bad kind ${JSON.stringify(k)}`);
    this.nonce = Buffer.from(nonce, 'latin1');
    this.kinds = kinds.map((k) => Buffer.from(k, 'latin1'));
    this.kindNames = [...kinds];
  }

  /** Feeds one chunk; onData / onMarker are called synchronously, in stream order. */
  push(chunk: Uint8Array): void {
    const buf = this.carry.length ? Buffer.concat([this.carry, chunk]) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    this.carry = EMPTY;
    let from = 0; // start of the output not yet delivered
    let scan = 0;
    for (;;) {
      const at = buf.indexOf(HEAD, scan);
      if (at < 0) break;
      const k = this.kindAt(buf, at + HEAD.length);
      const kind = k >= 0 ? this.kinds[k] : undefined;
      const bel = kind ? this.markerEnd(buf, at + HEAD.length + kind.length + 1) : k;
      if (bel === INCOMPLETE) {
        if (buf.length - at <= MAX_MARKER_BYTES) {
          this.emit(buf, from, at);
          this.carry = Buffer.from(buf.subarray(at));
          return;
        }
        scan = at + 1; // waited long enough: output after all
        continue;
      }
      if (!kind || bel === NOT_OURS) {
        scan = at + 1;
        continue;
      }
      this.emit(buf, from, at);
      from = at;
      const payloadAt = at + HEAD.length + kind.length + 1 + this.nonce.length + 1;
      const payload = payloadAt <= bel ? buf.subarray(payloadAt, bel) : EMPTY;
      if (this.sink.onMarker(this.kindNames[k], payload) !== false) from = bel + 1;
      scan = Math.max(at + 1, from);
    }
    // A tail shorter than HEAD that is a prefix of it may be a marker cut by the read.
    const stop = this.headPrefixAt(buf, from);
    this.emit(buf, from, stop);
    if (stop < buf.length) this.carry = Buffer.from(buf.subarray(stop));
  }

  /** The stream ended: held-back bytes never became a marker, so they are output. */
  end(): void {
    const rest = this.carry;
    this.carry = EMPTY;
    if (rest.length) this.sink.onData(rest);
  }

  private emit(buf: Buffer, from: number, to: number): void {
    if (to > from) this.sink.onData(buf.subarray(from, to));
  }

  /** Index in `kinds` of the kind at `pos` followed by `;`; NOT_OURS, or INCOMPLETE if the buffer ends first. */
  private kindAt(buf: Buffer, pos: number): number {
    let result = NOT_OURS;
    for (let i = 0; i < this.kinds.length; i++) {
      const k = this.kinds[i];
      const n = Math.min(k.length, buf.length - pos);
      if (buf.compare(k, 0, n, pos, pos + n) !== 0) continue;
      if (pos + k.length >= buf.length) result = INCOMPLETE;
      else if (buf[pos + k.length] === SEMI) return i;
    }
    return result;
  }

  /** Index of the closing BEL of a marker whose nonce starts at `pos`; NOT_OURS or INCOMPLETE. */
  private markerEnd(buf: Buffer, pos: number): number {
    const n = Math.min(this.nonce.length, buf.length - pos);
    if (buf.compare(this.nonce, 0, n, pos, pos + n) !== 0) return NOT_OURS;
    if (n < this.nonce.length) return INCOMPLETE;
    const after = pos + n;
    if (after >= buf.length) return INCOMPLETE;
    if (buf[after] === BEL) return after;
    if (buf[after] !== SEMI) return NOT_OURS; // a longer nonce that starts with ours
    const bel = buf.indexOf(BEL, after + 1);
    return bel < 0 ? INCOMPLETE : bel;
  }

  /** Start of a tail (at or after `from`) that is a proper prefix of HEAD, else buf.length. */
  private headPrefixAt(buf: Buffer, from: number): number {
    // HEAD has one ESC, at its start: only the last ESC within HEAD.length-1 of the end counts.
    const first = Math.max(from, buf.length - (HEAD.length - 1));
    for (let i = buf.length - 1; i >= first; i--) {
      if (buf[i] !== ESC) continue;
      return buf.compare(HEAD, 0, buf.length - i, i, buf.length) === 0 ? i : buf.length;
    }
    return buf.length;
  }
}

/**
 * A PTY's line discipline turns every `\n` a program writes into `\r\n` (ONLCR, on by default
 * and the only output translation a PTY makes). Where mish hands a command's bytes to a pipe
 * or a file rather than a screen (`mish --raw … > out`, `mish raw <id> > build.log`), that is
 * undone exactly, so what arrives is what the program wrote: every `\r\n` becomes `\n` (a
 * program's own `\r\n` reached the PTY as `\r\r\n` and comes back as `\r\n`). Binary output
 * survives byte for byte.
 */

/** Undo ONLCR on one whole buffer. */
export function undoOnlcr(bytes: Uint8Array): Buffer {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!buf.includes(0x0d)) return buf;
  // latin1 maps each byte to one char and back: the replace cannot touch anything else.
  return Buffer.from(buf.toString('latin1').replace(/\r\n/g, '\n'), 'latin1');
}

/** The same on a stream of chunks: a `\r` that ends a chunk waits to see whether `\n` follows. */
export class OnlcrUndoer {
  private heldCr = false;

  push(chunk: Uint8Array): Buffer {
    let buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (this.heldCr) buf = Buffer.concat([Buffer.from([0x0d]), buf]);
    this.heldCr = buf.length > 0 && buf[buf.length - 1] === 0x0d;
    return undoOnlcr(this.heldCr ? buf.subarray(0, -1) : buf);
  }

  /** At the end: a final `\r` was the program's. */
  end(): Buffer {
    const rest = this.heldCr ? Buffer.from([0x0d]) : Buffer.alloc(0);
    this.heldCr = false;
    return rest;
  }
}

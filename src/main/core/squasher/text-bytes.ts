/**
 * Finds the next byte of a chunk that is not plain text — a C0 control other than `\b \t \n \r`
 * (ESC among them), DEL, or a byte of a non-ASCII character — for the VT stripper, when the
 * chunk's text is its bytes read as Latin-1 (an ASCII chunk, or UTF-8 bytes: Utf8Decoder's
 * `bytes`). Four bytes per step, in 32-bit words over the chunk's buffer: a word with no such
 * byte is passed after one test, and the RegExp scan it replaces took three to four times as
 * long over the large recorded outputs (make's long compiler lines between their few escapes).
 */

/** Bytes of plain text: `\b \t \n \r` and printable ASCII. */
const PLAIN = new Uint8Array(256);
for (const c of [0x08, 0x09, 0x0a, 0x0d]) PLAIN[c] = 1;
for (let c = 0x20; c < 0x7f; c++) PLAIN[c] = 1;

/**
 * Per 32-bit word: a high bit in some byte where that byte is below 0x20 (x - 0x20202020 borrows
 * there), 0x7F (x + 0x01010101 carries into it) or 0x80 and up (its own high bit). Borrows and
 * carries into the next byte can flag a plain byte too, never hide one of these: a flagged
 * word is looked at byte by byte.
 */
function maybeNotPlain(x: number): boolean {
  return (((x - 0x20202020) | x | (x + 0x01010101)) & 0x80808080) !== 0;
}

export class TextBytes {
  private bytes: Uint8Array = new Uint8Array(0);
  /** The chunk's whole ArrayBuffer as words (kept while chunks come from the same buffer: a PTY's pool, a recorded file). */
  private words: Uint32Array = new Uint32Array(0);
  private wordsOf: ArrayBufferLike | undefined;
  /** Offset of the chunk in its buffer. */
  private base = 0;

  /** Scan `bytes` from now on. */
  reset(bytes: Uint8Array): void {
    this.bytes = bytes;
    this.base = bytes.byteOffset;
    if (this.wordsOf !== bytes.buffer) {
      this.wordsOf = bytes.buffer;
      this.words = new Uint32Array(bytes.buffer, 0, bytes.buffer.byteLength >> 2);
    }
  }

  /** Index of the first byte at or after `from` that is not plain text, or -1. */
  next(from: number): number {
    const bytes = this.bytes;
    const n = bytes.length;
    const base = this.base;
    let i = from;
    // Byte by byte up to a word boundary of the buffer, then word by word, then the tail.
    while (i < n && ((base + i) & 3) !== 0) {
      if (PLAIN[bytes[i]] === 0) return i;
      i++;
    }
    const words = this.words;
    const lastWord = (base + n) >> 2;
    for (let w = (base + i) >> 2; w < lastWord; w++) {
      if (!maybeNotPlain(words[w])) continue;
      const at = (w << 2) - base;
      for (let k = at; k < at + 4; k++) if (PLAIN[bytes[k]] === 0) return k;
    }
    for (i = Math.max(i, (lastWord << 2) - base); i < n; i++) if (PLAIN[bytes[i]] === 0) return i;
    return -1;
  }
}

/**
 * A text as one byte per UTF-16 code unit (its low byte), in a reused buffer: offsets are the
 * string's, and V8 reads a byte array about twice as fast as `charCodeAt` (more on a two-byte
 * string, or on a slice of a larger one, as replies are). A code unit above 0xFF keeps only its
 * low byte, so a search over these bytes can report a place the text does not match (its caller
 * checks the text there) but never misses one.
 */

/** Texts up to this size reuse one buffer; a larger text gets its own (a 100 MB read must not pin 100 MB). */
export const SCRATCH_BYTES = 1024 * 1024;

export class LowBytes {
  private scratch = Buffer.alloc(0);

  /** `text`'s low bytes, then a newline at `text.length` (a byte that ends every line, keyword and run). Valid until the next call. */
  of(text: string): Buffer {
    const n = text.length;
    let buf = this.scratch;
    if (n + 1 > buf.length) {
      buf = Buffer.allocUnsafe(n + 1);
      if (n < SCRATCH_BYTES) this.scratch = buf;
    }
    buf.write(text, 0, n, 'latin1');
    buf[n] = 0x0a;
    return buf;
  }
}

/**
 * The first place of `needle` (ASCII) in `text` at or after `from`, searched in `bytes` when given (`text`'s low bytes, no
 * longer than it): a byte search, where a two-byte text's `indexOf` of a common first character (`\n`) reads candidates
 * slowly. Each place the bytes give is checked on the text (a character past 0xFF can read as the needle's byte). A needle
 * past U+00FF works too: `latin1` keeps its characters' low bytes, as the text's bytes do (Tilt's `│ `: prefixed-lines.ts).
 */
export function indexOfAscii(text: string, bytes: Buffer | undefined, needle: string, from = 0): number {
  if (bytes === undefined) return text.indexOf(needle, from);
  for (let i = bytes.indexOf(needle, from, 'latin1'); i >= 0; i = bytes.indexOf(needle, i + 1, 'latin1')) if (text.startsWith(needle, i)) return i;
  return -1;
}

/**
 * Streaming UTF-8 decoding for the squasher: bytes in, text out, exactly what one streaming
 * `TextDecoder` would produce (U+FFFD for bad bytes, no U+FFFD for a character split across
 * reads, a BOM dropped only at the very start), handed out in one or more pieces — or, for a
 * chunk of valid UTF-8, its bytes themselves (see `utf8`).
 *
 * Why not simply TextDecoder: most build output is ASCII, and ASCII bytes are their own
 * decoding. Read as Latin-1 they become a one-byte string about ten times faster than
 * TextDecoder makes one here — and a one-byte string is what every later regex and search of
 * the pipeline runs fastest on, while TextDecoder returns a two-byte string for a whole chunk
 * as soon as one byte in it is not ASCII (one `‘` in a gcc warning made the whole 4 KB chunk,
 * and every line cut from it, two-byte: about a quarter slower end to end). So a chunk with a
 * few non-ASCII lines is cut at line ends: the ASCII lines go out as Latin-1, only the lines
 * with other bytes go through the decoder. The pieces join to exactly the decoder's text, and
 * the VT stripper and line buffer give the same lines however their input is cut.
 *
 * The pieces are returned in a reused array rather than pushed to a callback: one more call
 * level on the squasher's hottest path cost measurably more than the loop over the array.
 */
import { isAscii, isUtf8 } from 'node:buffer';

/** An ASCII stretch shorter than this stays with the decoded lines around it (one more piece costs more than it saves). */
const MIN_ASCII_PIECE = 256;
/** After this many non-ASCII lines with no ASCII stretch between them the rest of the chunk is decoded whole (npm prints a spinner glyph on every line). */
const MAX_MIXED_LINES = 4;

/** A byte outside ASCII, in a chunk read as Latin-1 (one character per byte). */
const NON_ASCII = /[\x80-\xff]/g;

export class Utf8Decoder {
  private readonly decoder = new TextDecoder('utf-8', { fatal: false });
  /** The decoder has consumed a byte, so a BOM from now on is text (TextDecoder drops one only at the start). */
  private started = false;
  /** The decoder holds no partial character: its last input ended on an ASCII byte. */
  private clean = true;

  /** The text of the last `write` or `end`, in order: `pieces[0]` to `pieces[count - 1]` (reused). */
  readonly pieces: string[] = [];
  /**
   * Per piece: true when it is not decoded text but UTF-8 bytes read as Latin-1, one character
   * per byte (reused). A chunk of valid UTF-8 (no bad bytes, no character cut at its end) with a
   * few non-ASCII characters comes as one such piece: read as Latin-1 ten times faster than
   * decoded, a one-byte string all the way, and only the lines that keep a non-ASCII character
   * are decoded, by the line buffer (npm's spinner glyph starts every line and is drawn over).
   * No C1 control (U+0080–U+009F) is in one: the VT stripper acts on those, and their second
   * byte looks like any character's continuation byte. Escape sequences and line ends are ASCII,
   * so they never fall inside a character, and stripping and cutting the bytes cuts the text
   * at the same places.
   */
  readonly utf8: boolean[] = [];
  /**
   * Per piece: the chunk's bytes when the piece is all of them read as Latin-1 (an ASCII chunk, or
   * one with `utf8`), for the VT stripper to scan as words; else undefined (reused; the caller
   * drops them once stripped).
   */
  readonly bytes: (Uint8Array | undefined)[] = [];
  private count = 0;

  /** Decode one chunk; returns how many pieces of text it gave (in `pieces`). */
  write(chunk: Uint8Array): number {
    this.count = 0;
    const n = chunk.byteLength;
    if (n === 0) return 0;
    // Until the decoder has seen the start of the stream, and while it holds part of a
    // character, only it can say what the next bytes mean.
    if (!this.started || !this.clean) this.decode(chunk);
    else {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, n);
      if (isAscii(buf)) this.emit(buf.toString('latin1'), false, buf);
      else if (isUtf8(buf) && !hasC1(buf)) this.emit(buf.toString('latin1'), true, buf);
      else this.mixed(buf);
    }
    return this.count;
  }

  /** Flush a character left incomplete at the end of the stream (U+FFFD); returns the piece count like `write`. */
  end(): number {
    this.count = 0;
    const tail = this.decoder.decode();
    if (tail) this.emit(tail);
    return this.count;
  }

  private emit(text: string, utf8 = false, bytes?: Uint8Array): void {
    this.pieces[this.count] = text;
    this.utf8[this.count] = utf8;
    this.bytes[this.count++] = bytes;
  }

  private decode(bytes: Uint8Array): void {
    const n = bytes.byteLength;
    if (n === 0) return;
    this.started = true;
    this.clean = bytes[n - 1] < 0x80;
    this.emit(this.decoder.decode(bytes, { stream: true }));
  }

  /** A chunk with some non-ASCII bytes: its ASCII lines as Latin-1, the others decoded. */
  private mixed(buf: Buffer): void {
    const n = buf.length;
    // Non-ASCII at both ends (npm draws a spinner glyph on every line): nothing worth cutting out.
    if (n < 2 * MIN_ASCII_PIECE || (!isAscii(buf.subarray(0, MIN_ASCII_PIECE)) && !isAscii(buf.subarray(n - MIN_ASCII_PIECE)))) return this.decode(buf);
    const bytes = buf.toString('latin1');
    /** Everything before `at` is handed out or in the pending decoded region. */
    let at = 0;
    /** Start of the pending region of non-ASCII lines (decoded when it ends), or -1. */
    let region = -1;
    let mixedLines = 0;
    for (;;) {
      NON_ASCII.lastIndex = at;
      if (!NON_ASCII.test(bytes)) break;
      const p = NON_ASCII.lastIndex - 1;
      const lineStart = Math.max(bytes.lastIndexOf('\n', p) + 1, at);
      if (lineStart - at >= MIN_ASCII_PIECE) {
        if (region >= 0) this.decode(buf.subarray(region, at));
        this.emit(bytes.slice(at, lineStart));
        region = lineStart;
        mixedLines = 0;
      } else {
        if (region < 0) region = at;
        if (++mixedLines > MAX_MIXED_LINES) return this.decode(buf.subarray(region));
      }
      const nl = bytes.indexOf('\n', p);
      if (nl < 0) return this.decode(buf.subarray(region));
      at = nl + 1;
    }
    // [at, n) is ASCII.
    if (region >= 0 && n - at < MIN_ASCII_PIECE) return this.decode(buf.subarray(region));
    if (region >= 0) this.decode(buf.subarray(region, at));
    if (at < n) this.emit(bytes.slice(at));
  }
}

/** UTF-8 lead byte of U+0080–U+00BF; followed by 0x80–0x9F it is a C1 control. */
const C1_LEAD = 0xc2;

/** Does valid UTF-8 hold a C1 control? (A native search for each U+0080–U+00BF character: `©`, `°`, NBSP are rare.) */
function hasC1(buf: Buffer): boolean {
  for (let at = buf.indexOf(C1_LEAD); at >= 0; at = buf.indexOf(C1_LEAD, at + 2)) if (buf[at + 1] <= 0x9f) return true;
  return false;
}

/** The text of valid UTF-8 bytes read as Latin-1 (a piece with `utf8` set, or a part of one cut at ASCII). */
export function utf8FromLatin1(bytes: string): string {
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Non-ASCII runs up to this many bytes are decoded by hand; longer ones (a line of CJK text) by Buffer. */
const MAX_RUN_DECODED_BY_HAND = 24;

/**
 * bytes[from, to), valid UTF-8 read as Latin-1, as text, given where its runs of non-ASCII bytes
 * start (`runAt[k]` on, ascending; a run is whole characters, and the part holds whole runs):
 * the ASCII between the runs is sliced as it is, and only the runs are decoded. A Buffer round
 * trip for every line with a `‘` in it was 4% of squashing make-build-large.
 */
export function utf8PartFromLatin1(bytes: string, from: number, to: number, runAt: readonly number[], k: number, runCount: number): string {
  let out = '';
  let copied = from;
  for (; k < runCount && runAt[k] < to; k++) {
    const start = runAt[k];
    if (start < copied) continue; // a run the stripper joined to the one before (an escape sequence stood between them)
    let end = start + 1;
    while (end < to && bytes.charCodeAt(end) >= 0x80) end++;
    out += bytes.slice(copied, start) + (end - start > MAX_RUN_DECODED_BY_HAND ? utf8FromLatin1(bytes.slice(start, end)) : decodeRun(bytes, start, end));
    copied = end;
  }
  return out + bytes.slice(copied, to);
}

/** Valid UTF-8 bytes[start, end) (whole characters, read as Latin-1) as text. */
function decodeRun(bytes: string, start: number, end: number): string {
  let out = '';
  for (let i = start; i < end; ) {
    const b = bytes.charCodeAt(i);
    if (b < 0xe0) {
      out += String.fromCharCode(((b & 0x1f) << 6) | (bytes.charCodeAt(i + 1) & 0x3f));
      i += 2;
    } else if (b < 0xf0) {
      out += String.fromCharCode(((b & 0x0f) << 12) | ((bytes.charCodeAt(i + 1) & 0x3f) << 6) | (bytes.charCodeAt(i + 2) & 0x3f));
      i += 3;
    } else {
      const cp = ((b & 0x07) << 18) | ((bytes.charCodeAt(i + 1) & 0x3f) << 12) | ((bytes.charCodeAt(i + 2) & 0x3f) << 6) | (bytes.charCodeAt(i + 3) & 0x3f);
      out += String.fromCharCode(0xd7c0 + (cp >> 10), 0xdc00 | (cp & 0x3ff)); // a surrogate pair
      i += 4;
    }
  }
  return out;
}

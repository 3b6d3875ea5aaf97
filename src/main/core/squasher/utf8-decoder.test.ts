import { describe, expect, it } from 'vitest';
import { Utf8Decoder, utf8FromLatin1, utf8PartFromLatin1 } from './utf8-decoder.js';

/** Everything the decoder hands out for `chunks`, as one string (bytes decoded), and the pieces of each write. */
function run(chunks: Uint8Array[]): { text: string; pieces: string[][] } {
  const d = new Utf8Decoder();
  let text = '';
  const pieces: string[][] = [];
  for (const c of chunks) {
    const k = d.write(c);
    const texts = d.pieces.slice(0, k).map((p, i) => (d.utf8[i] ? utf8FromLatin1(p) : p));
    pieces.push(texts);
    text += texts.join('');
  }
  const k = d.end();
  text += d.pieces.slice(0, k).join('');
  return { text, pieces };
}

describe('Utf8Decoder', () => {
  it('gives exactly what one streaming TextDecoder gives, however the bytes are mixed and cut', () => {
    const ascii = 'x'.repeat(300);
    const parts = ['ab', '\uFEFF', 'é', '‘unused’', '✓', '🎉', '\r\n', '\n', ascii, `${ascii}\n`, `gcc -c ${ascii}\r\n`].map((s) => Buffer.from(s));
    parts.push(Buffer.from([0xe2, 0x9c]), Buffer.from([0xff]), Buffer.from([0x80]), Buffer.from([0xf0, 0x9f]));
    let seed = 11;
    const rnd = (k: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % k;
    for (let round = 0; round < 500; round++) {
      const list: Buffer[] = [];
      for (let i = 0, n = 1 + rnd(40); i < n; i++) list.push(parts[rnd(parts.length)]);
      const bytes = Buffer.concat(list);
      const chunks: Uint8Array[] = [];
      // PTY-sized reads mostly, odd ones sometimes; plain Uint8Arrays as well as Buffers.
      for (let at = 0; at < bytes.length; ) {
        const n = rnd(3) === 0 ? 1 + rnd(9) : 256 + rnd(4096);
        const c = bytes.subarray(at, at + n);
        chunks.push(rnd(2) ? new Uint8Array(c) : c);
        at += n;
      }
      expect(run(chunks).text).toBe(new TextDecoder().decode(bytes));
    }
  });

  it('hands out the ASCII lines of a mixed chunk apart from its non-ASCII lines', () => {
    // (A chunk that is not all valid UTF-8, or holds a C1 control: otherwise it comes as bytes.)
    const a = `gcc -c ${'a'.repeat(400)}\r\n`;
    const u = 'src/m.c: In function ‘f’:\u0085\r\n';
    const b = `gcc -c ${'b'.repeat(400)}\r\n`;
    const { pieces } = run([Buffer.from('start\n'), Buffer.from(a + u + b)]);
    expect(pieces[1]).toEqual([a, u, b]);
  });

  it('decodes a chunk with non-ASCII at both ends whole', () => {
    const line = `⠙ ${'n'.repeat(100)}\u0085\r\n`;
    const { pieces } = run([Buffer.from('start\n'), Buffer.from(line.repeat(10))]);
    expect(pieces[1]).toEqual([line.repeat(10)]);
  });

  it('hands out a chunk of valid UTF-8 as its bytes, unless it holds a C1 control or ends inside a character', () => {
    const d = new Utf8Decoder();
    d.write(Buffer.from('start\n'));
    const bytesOf = (s: string | Buffer) => {
      const k = d.write(typeof s === 'string' ? Buffer.from(s) : s);
      return d.pieces.slice(0, k).map((p, i) => [p, d.utf8[i]]);
    };
    expect(bytesOf('⠙ npm ✓ ‘x’\r\n')).toEqual([[Buffer.from('⠙ npm ✓ ‘x’\r\n').toString('latin1'), true]]);
    expect(bytesOf('plain\r\n')).toEqual([['plain\r\n', false]]);
    // '©' (C2 A9) and '✜' (E2 9C 9C) are not C1 controls; U+009B (a CSI) and U+0085 are: decoded.
    expect(bytesOf('© ✜')[0][1]).toBe(true);
    expect(bytesOf('a\u009b31mb')).toEqual([['a\u009b31mb', false]]);
    expect(bytesOf('\u0085')).toEqual([['\u0085', false]]);
    expect(bytesOf(Buffer.from([0x61, 0xe2, 0x9c]))).toEqual([['a', false]]); // the cut character waits in the decoder
    expect(bytesOf(Buffer.from([0x93, 0x62]))).toEqual([['✓b', false]]);
    expect(bytesOf(Buffer.from([0x61, 0xff]))).toEqual([['a\uFFFD', false]]);
  });

  it('decodes a part of UTF-8 bytes from where its runs of non-ASCII bytes start, as Buffer decodes it', () => {
    const chars = ['a', ' ', 'é', 'ü', '✓', '─', '日', '🎉', '𝄞', '\u00a0', '\u07ff', '\u0800', '\uffff', '\u{10ffff}'];
    let seed = 9;
    const rnd = (k: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % k; // (in 32 bits: a float product loses the low bits)
    for (let round = 0; round < 2000; round++) {
      let text = '';
      // Mostly short runs (decoded by hand), some long ones (a line of CJK text).
      for (let i = 0, n = rnd(40); i < n; i++) text += rnd(2) ? 'a' : rnd(8) ? chars[rnd(chars.length)] : chars[rnd(chars.length)].repeat(1 + rnd(12));
      const bytes = Buffer.from(text).toString('latin1');
      // Where runs start, as the VT stripper notes them: sometimes a run is split in two (an escape
      // sequence stood inside it and was removed), which must not decode its second half twice.
      const runAt: number[] = [];
      for (let i = 0; i < bytes.length; i++) {
        if (bytes.charCodeAt(i) < 0x80) continue;
        if (i === 0 || bytes.charCodeAt(i - 1) < 0x80 || (rnd(4) === 0 && (bytes.charCodeAt(i) & 0xc0) !== 0x80)) runAt.push(i);
      }
      expect(utf8PartFromLatin1(bytes, 0, bytes.length, runAt, 0, runAt.length)).toBe(text);
      expect(utf8FromLatin1(bytes)).toBe(text);
    }
  });

  it('drops a BOM only at the very start of the stream', () => {
    expect(run([Buffer.from('\uFEFFa')]).text).toBe('a');
    expect(run([Buffer.from('a'), Buffer.from('\uFEFFb')]).text).toBe('a\uFEFFb');
  });
});

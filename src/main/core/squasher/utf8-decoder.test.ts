import { describe, expect, it } from 'vitest';
import { Utf8Decoder } from './utf8-decoder.js';

/** Everything the decoder hands out for `chunks`, as one string, and the pieces of each write. */
function run(chunks: Uint8Array[]): { text: string; pieces: string[][] } {
  const d = new Utf8Decoder();
  let text = '';
  const pieces: string[][] = [];
  for (const c of chunks) {
    const k = d.write(c);
    pieces.push(d.pieces.slice(0, k));
    text += d.pieces.slice(0, k).join('');
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
    const a = `gcc -c ${'a'.repeat(400)}\r\n`;
    const u = 'src/m.c: In function ‘f’:\r\n';
    const b = `gcc -c ${'b'.repeat(400)}\r\n`;
    const { pieces } = run([Buffer.from('start\n'), Buffer.from(a + u + b)]);
    expect(pieces[1]).toEqual([a, u, b]);
  });

  it('decodes a chunk with non-ASCII at both ends whole', () => {
    const line = `⠙ ${'n'.repeat(100)}\r\n`;
    const { pieces } = run([Buffer.from('start\n'), Buffer.from(line.repeat(10))]);
    expect(pieces[1]).toEqual([line.repeat(10)]);
  });

  it('drops a BOM only at the very start of the stream', () => {
    expect(run([Buffer.from('\uFEFFa')]).text).toBe('a');
    expect(run([Buffer.from('a'), Buffer.from('\uFEFFb')]).text).toBe('a\uFEFFb');
  });
});

import { describe, expect, it } from 'vitest';
import { TextBytes } from './text-bytes.js';

/** Plain text bytes as TextBytes defines them. */
const plain = (b: number) => b === 0x08 || b === 0x09 || b === 0x0a || b === 0x0d || (b >= 0x20 && b < 0x7f);

describe('TextBytes', () => {
  it('finds the next byte that is not plain text, at any offset and alignment in its buffer', () => {
    let seed = 21;
    const rnd = (k: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % k;
    // Mostly plain bytes with rare others (every kind: controls, ESC, DEL, high bytes), in chunks cut anywhere from shared buffers.
    const others = [0x00, 0x07, 0x0b, 0x0c, 0x0e, 0x1b, 0x1f, 0x7f, 0x80, 0x9b, 0xc2, 0xe2, 0xff];
    const scan = new TextBytes();
    for (let round = 0; round < 300; round++) {
      const buffer = new Uint8Array(64 + rnd(600));
      for (let i = 0; i < buffer.length; i++) buffer[i] = rnd(12) === 0 ? others[rnd(others.length)] : [0x08, 0x09, 0x0a, 0x0d, 0x20, 0x41, 0x7e][rnd(7)];
      for (let cut = 0; cut < 8; cut++) {
        const from = rnd(buffer.length);
        const chunk = buffer.subarray(from, from + rnd(buffer.length - from + 1));
        scan.reset(chunk);
        for (let at = 0; at <= chunk.length; at += 1 + rnd(5)) {
          let want = -1;
          for (let i = at; i < chunk.length; i++) if (!plain(chunk[i])) {
            want = i;
            break;
          }
          expect(scan.next(at)).toBe(want);
        }
      }
    }
  });
});

/**
 * A byte search over a text's low bytes (low-bytes.ts) against the text's own indexOf: the same answers, characters past
 * 0xFF whose low byte is the needle's (`Ċ` U+010A reads as a line break) included.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { indexOfAscii, LowBytes } from './low-bytes.js';

describe('indexOfAscii', () => {
  it("finds what the text's indexOf finds, from any offset, on texts whose characters read as the needle's bytes (property)", () => {
    const low = new LowBytes();
    const alphabet = fc.constantFrom(...'\n =\'ab\u010a\u0120\u273d日'.split(''));
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 80 }).map((a) => a.join('')), fc.constantFrom('\n ', '\n= ', "\n'", '= '), fc.nat(90), (text, needle, from) => {
        const bytes = low.of(text).subarray(0, text.length);
        expect(indexOfAscii(text, bytes, needle, from)).toBe(text.indexOf(needle, from));
        expect(indexOfAscii(text, undefined, needle, from)).toBe(text.indexOf(needle, from));
      }),
      { numRuns: 500 },
    );
  });

  it('does not read past the text into the reused buffer (a longer text left there before)', () => {
    const low = new LowBytes();
    low.of('x\n y\n z\n ');
    const text = 'abc';
    expect(indexOfAscii(text, low.of(text).subarray(0, text.length), '\n ')).toBe(-1);
  });
});

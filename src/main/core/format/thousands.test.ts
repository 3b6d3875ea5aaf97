import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { thousands } from './thousands.js';

describe('thousands', () => {
  it("is n.toLocaleString('en-US') for integers", () => {
    for (const n of [0, 1, 9, 10, 99, 100, 999, 1000, 1001, 9999, 10000, 99999, 100000, 999999, 1000000, 409598, 1234567890, -1, -999, -1000, -1234567, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]) {
      expect(thousands(n)).toBe(n.toLocaleString('en-US'));
    }
    fc.assert(fc.property(fc.maxSafeInteger(), (n) => thousands(n) === n.toLocaleString('en-US')), { numRuns: 2000 });
  });

  it('leaves other numbers to toLocaleString', () => {
    for (const n of [-0, 0.5, 1234.5678, -1234.5, 2 ** 53, 1e21, NaN, Infinity, -Infinity]) expect(thousands(n)).toBe(n.toLocaleString('en-US'));
    fc.assert(fc.property(fc.double(), (n) => thousands(n) === n.toLocaleString('en-US')), { numRuns: 2000 });
  });
});

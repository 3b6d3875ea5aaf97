import { describe, expect, it } from 'vitest';
import { reduction } from './format.js';

describe('reduction (the timeline and agent pane figure)', () => {
  it('is a whole percentage, signed, and never rounds a real reply to −100%', () => {
    expect(reduction(1000, 80)).toBe('−92%');
    expect(reduction(100, 105)).toBe('+5%');
    expect(reduction(17_009, 46)).toBe('−99.7%');
    expect(reduction(1_000_000, 1)).toBe('−99.9%');
    expect(reduction(500, 0)).toBe('−100%');
    expect(reduction(54, 54)).toBe('0%');
    expect(reduction(0, 10)).toBeUndefined();
  });
});

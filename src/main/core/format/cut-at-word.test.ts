import { describe, expect, it } from 'vitest';
import { cutAtWord } from './cut-at-word.js';

describe('cutAtWord', () => {
  it('keeps short text and cuts long text only between words, a long word left out whole', () => {
    expect(cutAtWord('short', 10)).toBe('short');
    expect(cutAtWord('APP_KEY=base64:Zm9vYmFyYmF6cXV4cXV1eHh4eXl5enp6MTIzNDU2Nzg5MA==', 20)).toBe('…');
    expect(cutAtWord('deploying with key Zm9vYmFyYmF6cXV4cXV1eHh4eXl5enp6MTIzNDU2Nzg5MA==', 40)).toBe('deploying with key…');
    expect(cutAtWord('a b c d e f g h', 8)).toBe('a b c d…');
  });
});

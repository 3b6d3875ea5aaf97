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

describe('cutAtWord on a list of bytes', () => {
  const hex = (s: string) => Buffer.from(s).toString('hex').replace(/(..)(?!$)/g, '$1 ');
  it("leaves out a list of bytes the cut would split (node's Buffer of a token, od's bytes, a decimal list): adversary pass 102 F40", () => {
    const token = 'ghp_HlwwhcBi70XFXIp6Ewia7qCVmIukb2HoEYmv';
    expect(cutAtWord(`<Buffer ${hex(token)}>`, 120)).toBe('<Buffer…');
    expect(cutAtWord(`0000000 ${hex(token)}`, 60)).toBe('0000000…');
    expect(cutAtWord(`key = [${[...Buffer.from(token)].join(', ')}]`, 60)).toBe('key =…');
  });
  it('keeps words that are not a list of bytes, and a short run of numbers', () => {
    expect(cutAtWord('built 12 05 14 files in the tree and more words after these ones', 30)).toBe('built 12 05 14 files in the…');
    expect(cutAtWord('copied 1 2 3 then went on to the next thing and so on', 20)).toBe('copied 1 2 3 then…');
  });
});

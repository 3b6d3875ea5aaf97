import { describe, expect, it } from 'vitest';
import { KnownSecrets, SECRET_MASK } from './known-secrets.js';
import fc from 'fast-check';
import { anchored, holds } from './rare-anchor.js';

describe('KnownSecrets', () => {
  const secret = 'pa ss/w@rd+42!';
  const k = new KnownSecrets();
  k.add(secret);

  it('masks the exact value', () => {
    expect(k.mask(`password is ${secret}.`)).toBe(`password is ${SECRET_MASK}.`);
  });

  it('masks base64 of the value alone and inside a longer encoded string, at every alignment', () => {
    expect(k.mask(Buffer.from(secret).toString('base64'))).not.toContain(Buffer.from(secret).toString('base64').slice(2, -4));
    for (const prefix of ['', 'a', 'ab', 'user:']) {
      const enc = Buffer.from(`${prefix}${secret}`).toString('base64');
      const masked = k.mask(`Authorization: Basic ${enc}`);
      expect(masked, prefix).toContain(SECRET_MASK);
      // Only the few characters that mix the value's first/last byte with its neighbours may stay.
      const middle = enc.slice(Math.ceil((prefix.length * 4) / 3) + 2, Math.floor(((prefix.length + secret.length) * 4) / 3) - 2);
      expect(middle.length).toBeGreaterThan(10);
      expect(masked, prefix).not.toContain(middle.slice(0, 6));
      expect(masked, prefix).not.toContain(middle.slice(-6));
    }
  });

  it('masks base64url of the value (JWTs, URL tokens) the same way: the encoded value is gone, not only a mask added', () => {
    // A value whose encodings have '+' and '/' at every alignment: its base64url ('-', '_') differs
    // from its base64, so a mask of only the base64 form leaves it (the first secret's has neither).
    const urlish = 't0k>en?~~ab>>??x';
    const u = new KnownSecrets();
    u.add(urlish);
    const whole = Buffer.from(urlish).toString('base64url');
    expect(whole).toMatch(/[-_]/);
    expect(u.mask(whole)).not.toContain(whole.slice(2, -4));
    for (const prefix of ['', 'a', 'ab', 'user:']) {
      const enc = Buffer.from(`${prefix}${urlish}`).toString('base64url');
      expect(enc, prefix).not.toBe(Buffer.from(`${prefix}${urlish}`).toString('base64').replace(/=+$/, ''));
      const masked = u.mask(`https://x/cb?state=${enc}&q=1`);
      expect(masked, prefix).toContain(SECRET_MASK);
      const middle = enc.slice(Math.ceil((prefix.length * 4) / 3) + 2, Math.floor(((prefix.length + urlish.length) * 4) / 3) - 2);
      expect(middle.length).toBeGreaterThan(10);
      expect(masked, prefix).not.toContain(middle.slice(0, 6));
      expect(masked, prefix).not.toContain(middle.slice(-6));
      expect(masked, prefix).toMatch(/&q=1$/);
    }
  });

  it("masks URL encodings: encodeURIComponent, RFC 3986 strict, Python's quote (keeps /), + for space, lowercase hex", () => {
    for (const enc of [encodeURIComponent(secret), 'pa%20ss%2Fw%40rd%2B42%21', 'pa%20ss/w%40rd%2B42%21', 'pa+ss%2Fw%40rd%2B42%21', 'pa%20ss%2fw%40rd%2b42%21']) {
      expect(k.mask(`https://x/?p=${enc}&q=1`), enc).toBe(`https://x/?p=${SECRET_MASK}&q=1`);
    }
  });

  it('ignores values too short to mask safely, and text without secrets is unchanged', () => {
    const s = new KnownSecrets();
    s.add('abc');
    s.add('\n');
    expect(s.size).toBe(0);
    expect(s.mask('abc abc')).toBe('abc abc');
    expect(k.mask('nothing secret here')).toBe('nothing secret here');
  });
});

describe('the search from a value\'s rarest character (rare-anchor.ts)', () => {
  it('finds a value exactly where includes does (property: values and texts over a small alphabet, overlaps and edges)', () => {
    const alphabet = fc.constantFrom(...'ab2Q_ h\n'.split(''));
    const word = (min: number, max: number) => fc.array(alphabet, { minLength: min, maxLength: max }).map((a) => a.join(''));
    fc.assert(
      fc.property(word(1, 8), word(0, 60), (value, text) => {
        const a = anchored(value);
        expect(value.slice(a.at)).toBe(a.tail);
        expect(holds(text, a)).toBe(text.includes(value));
        expect(holds(`${text}${value}`, a)).toBe(true);
        expect(holds(`${value}${text}`, a)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

import { describe, expect, it } from 'vitest';
import { KnownSecrets, SECRET_MASK } from './known-secrets.js';

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
    expect(k.mask(Buffer.from(secret).toString('base64url'))).toContain(SECRET_MASK);
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

import { describe, expect, it } from 'vitest';
import { Redactor } from './redactor.js';

/**
 * The text path turns away `://` and `:5432` hits by a character test before cutting out their
 * line (scanner.ts contextFindings): each case here has a credential the test must let through.
 */
const masked = (text: string) => new Redactor().mask(text);

describe('hit prefilters of the text path (URL credentials, .pgpass)', () => {
  it('a URL with user:password@ is masked, after a URL without credentials on the same line too', () => {
    expect(masked('clone https://example.com/a then https://bob:Pq7WzT9xLm2@git.example.com/r.git')).not.toContain('Pq7WzT9xLm2');
    expect(masked('postgres://app:s3cr3t-Pw-991@db.internal:5432/app')).not.toContain('s3cr3t-Pw-991');
  });

  it('a URL whose host or user has characters past ASCII, and a percent-encoded userinfo, are masked', () => {
    expect(masked('https://bjørn:Xk29vLq7Wm@mïrror.example/')).not.toContain('Xk29vLq7Wm');
    expect(masked('redirect=https%3A%2F%2Fbob%3AZq81LmX0vT%40host.example')).not.toContain('Zq81LmX0vT');
  });

  it('URLs without credentials and times stay as they are', () => {
    const text = 'GET https://registry.npmjs.org/react 200 in 12:34:56 (port :5432)';
    expect(masked(text)).toBe(text);
  });

  it('.pgpass lines (port, or *) are masked; a line numbered by cat -n too', () => {
    expect(masked('db.example.com:5432:app:alice:Lk3vR9qT2xWm')).not.toContain('Lk3vR9qT2xWm');
    expect(masked('*:*:*:postgres:Hx81pQz7vN4k')).not.toContain('Hx81pQz7vN4k');
    expect(masked('     1\tlocalhost:5433:shop:bob:Wm2q9Lx7Tz')).not.toContain('Wm2q9Lx7Tz');
  });
});

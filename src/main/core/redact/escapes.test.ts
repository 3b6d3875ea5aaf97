/**
 * Colour codes between a name and its value (escapes.ts): `jq .` colours every key and value under a PTY, `grep
 * --color=always` splits a name from its `=`. A read_raw page and the raw stream keep them; what they hide is found.
 */
import { describe, expect, it } from 'vitest';
import { rangeInText, withoutEscapes } from './escapes.js';
import { Redactor } from './redactor.js';

const ESC = '\x1b';
const key = (k: string) => `${ESC}[34;1m"${k}"${ESC}[0m${ESC}[1;39m:${ESC}[0m`;
const str = (v: string) => `${ESC}[0;32m"${v}"${ESC}[0m`;
const hi = (s: string) => `${ESC}[01;31m${ESC}[K${s}${ESC}[m${ESC}[K`;

describe('escape sequences inside a text the scanner reads', () => {
  it('withoutEscapes: the plain text and the way back to each character', () => {
    const text = `a${ESC}[31mbc${ESC}[0m${ESC}]8;;https://x${ESC}\\d`;
    const u = withoutEscapes(text)!;
    expect(u.plain).toBe('abcd');
    expect(rangeInText(u, 1, 3)).toEqual({ start: 6, end: 8 });
    expect(text.slice(rangeInText(u, 3, 4).start, rangeInText(u, 3, 4).end)).toBe('d');
    expect(withoutEscapes('no escapes')).toBeUndefined();
  });

  it("jq's colours under a PTY: the values are masked, the keys and the colours kept", () => {
    const text = `${ESC}[1;39m{\n  ${key('profile')} ${str('prod')}${ESC}[1;39m,\n  ${key('api_key')} ${str('Zq8xK2mN4pR7tV9wY3bD6fG8')}${ESC}[1;39m\n${ESC}[1;39m}${ESC}[0m\n`;
    const out = new Redactor().mask(text);
    expect(out).not.toContain('Zq8xK2mN4pR7tV9wY3bD6fG8');
    expect(out).toContain(`${key('api_key')} ${ESC}[0;32m"[masked: api key]"${ESC}[0m`);
    expect(out).toContain(str('prod'));
  });

  it("grep --color=always: a name split by the match's colour; the raw stream learns the value, a later plain text is masked", () => {
    const r = new Redactor();
    const stream = r.stream('c1');
    stream.pushBytes(Buffer.from(`CI_JOB_${hi('TOKEN')}=kGrepCol8Zx0Qw1Ab9Lm\r\nPATH=/usr/bin\r\n`));
    stream.flush();
    expect(r.mask('the job used kGrepCol8Zx0Qw1Ab9Lm\n')).toBe('the job used [masked: token]\n');
  });
});

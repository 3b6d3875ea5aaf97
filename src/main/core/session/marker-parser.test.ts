import { describe, expect, it } from 'vitest';
import { MarkerParser, type MarkerEvent } from './marker-parser.js';

const N = 'abc123';
const feedAll = (p: MarkerParser, chunks: string[]): MarkerEvent[] => chunks.flatMap((c) => p.feed(Buffer.from(c, 'latin1')));
const text = (evs: MarkerEvent[]) => evs.map((e) => (e.type === 'data' ? Buffer.from(e.bytes).toString('latin1') : `<${e.type}>`)).join('');

describe('MarkerParser', () => {
  it('splits markers from data, even byte by byte', () => {
    const stream = `echo\r\n\x1b]6474;S;${N}\x07out\x1b]6474;C;${N};ls -l\x07more\x1b]6474;E;${N};2;/a;b\x07$ `;
    const whole = feedAll(new MarkerParser(N), [stream]);
    const bytes = feedAll(new MarkerParser(N), stream.split(''));
    expect(text(whole)).toBe('echo\r\n<start>out<segment>more<end>$ ');
    expect(text(bytes)).toBe(text(whole));
    expect(whole.find((e) => e.type === 'end')).toEqual({ type: 'end', exitCode: 2, cwd: '/a;b' });
    expect(whole.find((e) => e.type === 'segment')).toEqual({ type: 'segment', command: 'ls -l' });
  });
  it("reads the shell's CDPATH marker (before the end marker), a `;` and `:` in it kept", () => {
    const evs = feedAll(new MarkerParser(N), [`out\x1b]6474;D;${N};/a:/b;c\x07\x1b]6474;E;${N};0;/w\x07`]);
    expect(text(evs)).toBe('out<cdpath><end>');
    expect(evs.find((e) => e.type === 'cdpath')).toEqual({ type: 'cdpath', value: '/a:/b;c' });
  });
  it('passes forged markers with another nonce through as data', () => {
    const forged = `\x1b]6474;E;zzz;0;/x\x07\x1b]6474;E;${N}x;0;/\x07\x1b]0;title\x07`;
    expect(text(feedAll(new MarkerParser(N), [forged]))).toBe(forged);
  });
});

import { describe, expect, it } from 'vitest';
import { MAX_MARKER_BYTES, NonceMarkerScanner } from './nonce-marker-scanner.js';

const NONCE = 'n0nce';
// 'E' is a prefix of 'Ex': the kind is only known at its `;`.
const KINDS = ['E', 'Ex', 'seg'];

interface Scan {
  data: Buffer;
  markers: string[];
  /** Data bytes delivered before end() (what was not held back). */
  beforeEnd: number;
}

/** Feeds `chunks` and collects the data bytes and the markers as `kind:payload`. */
function scan(chunks: Buffer[], accept: (kind: string, payload: string) => boolean = () => true): Scan {
  const data: Buffer[] = [];
  const markers: string[] = [];
  const s = new NonceMarkerScanner(NONCE, KINDS, {
    onData: (b) => data.push(Buffer.from(b)),
    onMarker: (kind, payload) => {
      const ok = accept(kind, payload.toString('latin1'));
      if (ok) markers.push(`${kind}:${payload.toString('latin1')}`);
      return ok;
    },
  });
  for (const c of chunks) s.push(c);
  const beforeEnd = Buffer.concat(data).length;
  s.end();
  return { data: Buffer.concat(data), markers, beforeEnd };
}

const bytes = (s: string) => Buffer.from(s, 'latin1');
const marker = (kind: string, payload?: string, nonce = NONCE) => `\x1b]6474;${kind};${nonce}${payload === undefined ? '' : `;${payload}`}\x07`;

/** What the scanner must do, written as one regular expression over the whole stream. */
function reference(stream: string): { data: string; markers: string[] } {
  const markers: string[] = [];
  const re = new RegExp(`\\x1b\\]6474;(${KINDS.join('|')});${NONCE}(?:;([^\\x07]*))?\\x07`, 'g');
  const data = stream.replace(re, (_m, kind: string, payload: string | undefined) => {
    markers.push(`${kind}:${payload ?? ''}`);
    return '';
  });
  return { data, markers };
}

function expectLike(stream: string, got: Scan): void {
  const want = reference(stream);
  expect(got.data.toString('latin1')).toBe(want.data);
  expect(got.markers).toEqual(want.markers);
}

// Real markers, forged ones and near misses, back to back and between output.
const STREAM = [
  'out\r\n',
  marker('E', '0;/tmp'),
  marker('seg', 'make\\ test'),
  marker('Ex'),
  'mid',
  marker('E', '1;/a', 'n0ncf'), // wrong nonce
  marker('E', '1;/a', 'n0nce2'), // our nonce is only its prefix
  marker('E', '1;/a', 'n0n'), // our nonce's prefix
  marker('Q', '1;/a'), // unknown kind
  marker('Exx', '1;/a'), // a kind that merely starts with one of ours
  '\x1b]6474;E;n0nce', // our head cut short by other output
  '\x1b]0;title\x07',
  '\x1b]6474\x1b[31mred\x1b[0m',
  marker('E', 'é;ü', undefined), // non-ASCII payload (latin1 here)
  '\x1b\x1b]',
  marker('seg', ''),
  '\x07\x07;',
  marker('E', '2;/b'),
].join('');

describe('NonceMarkerScanner', () => {
  it('cuts out exactly our markers in one chunk', () => {
    const got = scan([bytes(STREAM)]);
    expectLike(STREAM, got);
    expect(got.markers).toEqual(['E:0;/tmp', 'seg:make\\ test', 'Ex:', 'E:é;ü', 'seg:', 'E:2;/b']);
    expect(got.data.toString('latin1')).toContain(marker('E', '1;/a', 'n0ncf'));
  });

  it('gives the same result with the stream split at every byte position', () => {
    const whole = bytes(STREAM);
    const want = scan([whole]);
    for (let i = 0; i <= whole.length; i++) {
      const got = scan([whole.subarray(0, i), whole.subarray(i)]);
      expect(got.data.equals(want.data), `split at ${i}`).toBe(true);
      expect(got.markers, `split at ${i}`).toEqual(want.markers);
    }
  });

  it('gives the same result with the stream split at every pair of positions and byte by byte', () => {
    const whole = bytes(STREAM);
    const want = scan([whole]);
    for (let i = 0; i <= whole.length; i++) {
      for (let j = i; j <= whole.length; j++) {
        const got = scan([whole.subarray(0, i), whole.subarray(i, j), whole.subarray(j)]);
        if (!got.data.equals(want.data) || got.markers.join('|') !== want.markers.join('|')) throw new Error(`split at ${i} and ${j}`);
      }
    }
    const single = scan([...whole].map((b) => Buffer.from([b])));
    expect(single.data.equals(want.data)).toBe(true);
    expect(single.markers).toEqual(want.markers);
  });

  it('passes forged markers through byte-exact and without holding them back', () => {
    const forged = [marker('E', '0;/x', 'deadbeef'), marker('exit', '0'), marker('E', '0', 'n0nceX'), '\x1b]6474;E;zz'].join('');
    const got = scan([bytes(forged)]);
    expect(got.data.toString('latin1')).toBe(forged);
    expect(got.markers).toEqual([]);
    // Only a tail that can still become one of our markers waits for the next read.
    expect(got.beforeEnd).toBe(forged.length);
  });

  it('holds back only what may still become a marker, and releases it at end()', () => {
    for (const tail of ['\x1b', '\x1b]64', '\x1b]6474;', '\x1b]6474;E', '\x1b]6474;E;n0', `\x1b]6474;E;${NONCE}`, `\x1b]6474;E;${NONCE};1;/pa`]) {
      const got = scan([bytes(`ab${tail}`)]);
      expect(got.beforeEnd, JSON.stringify(tail)).toBe(2);
      expect(got.data.toString('latin1')).toBe(`ab${tail}`);
      expect(got.markers).toEqual([]);
    }
  });

  it('reports adjacent markers in order with nothing between them', () => {
    const s = marker('E', '1') + marker('E', '2') + marker('seg', 'x') + marker('Ex', '3');
    const got = scan([bytes(s)]);
    expect(got.markers).toEqual(['E:1', 'E:2', 'seg:x', 'Ex:3']);
    expect(got.data.length).toBe(0);
  });

  it('passes a marker the sink rejects through as data', () => {
    const s = `a${marker('E', 'bad')}b${marker('E', '7')}c`;
    const got = scan([bytes(s)], (_k, p) => p !== 'bad');
    expect(got.data.toString('latin1')).toBe(`a${marker('E', 'bad')}bc`);
    expect(got.markers).toEqual(['E:7']);
  });

  it('gives up a marker whose BEL never comes after MAX_MARKER_BYTES', () => {
    const head = `\x1b]6474;E;${NONCE};`;
    const filler = Buffer.alloc(MAX_MARKER_BYTES, 0x61);
    const got = scan([bytes(`x${head}`), filler, bytes(`tail${marker('E', '0')}`)]);
    expect(got.data.equals(Buffer.concat([bytes(`x${head}`), filler, bytes('tail')]))).toBe(true);
    expect(got.markers).toEqual(['E:0']);
  });

  it('loses and alters no byte on random streams full of near misses, however they are cut', () => {
    let seed = 0x6474;
    const rand = (n: number) => {
      // mulberry32: a fixed seed keeps the test deterministic.
      seed = (seed + 0x6d2b79f5) | 0;
      let t = seed;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return (((t ^ (t >>> 14)) >>> 0) / 4294967296) * n;
    };
    const pieces = ['\x1b', ']', '6474', ';', '\x07', '\x1b]6474;', 'E', 'Ex', 'seg', NONCE, 'n0n', 'n0nceZ', '0;/a', '\r\n', 'é', '\x00\xff'];
    for (let round = 0; round < 300; round++) {
      let stream = '';
      const n = 1 + Math.floor(rand(60));
      for (let i = 0; i < n; i++) {
        const r = rand(10);
        if (r < 1) stream += marker(KINDS[Math.floor(rand(KINDS.length))], rand(2) < 1 ? undefined : `${Math.floor(rand(200))};/p`);
        else if (r < 2) stream += String.fromCharCode(Math.floor(rand(256)));
        else stream += pieces[Math.floor(rand(pieces.length))];
      }
      const whole = bytes(stream);
      const chunks: Buffer[] = [];
      for (let at = 0; at < whole.length; ) {
        const len = Math.floor(rand(12));
        chunks.push(whole.subarray(at, at + len));
        at += len;
      }
      expectLike(stream, scan(chunks));
    }
  });

  it('rejects a nonce or kind that would make markers ambiguous', () => {
    const sink = { onData: () => {}, onMarker: () => true };
    expect(() => new NonceMarkerScanner('', ['E'], sink)).toThrow(/nonce/);
    expect(() => new NonceMarkerScanner('a;b', ['E'], sink)).toThrow(/nonce/);
    expect(() => new NonceMarkerScanner('ab', ['E;'], sink)).toThrow(/kind/);
  });
});

/**
 * The scanner's one pass (keyword-automaton.ts) against the obvious slow search: every
 * occurrence of every keyword, case-insensitive, overlapping and nested ones included, and every
 * maximal run of run characters of the asked length — on any text, non-ASCII included.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { keywordRows, keywordTableIsCompact } from './scanner.js';
import { KeywordAutomaton } from './keyword-automaton.js';

const RUN_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.+/=:~-';
const KEYWORDS = ['ghp_', 'he', 'she', 'hers', 'pass', 'password', '://', 'sk', 'sk_live_', ' -u', 'key'];

/** Every (keyword id, end) of `text`, found one position at a time. */
function naiveHits(keywords: string[], text: string): number[][] {
  const lower = text.toLowerCase();
  const out: number[][] = [];
  for (let end = 1; end <= text.length; end++) keywords.forEach((k, id) => end >= k.length && lower.slice(end - k.length, end) === k && out.push([id, end]));
  return out;
}

function naiveRuns(text: string, minRun: number): number[][] {
  const out: number[][] = [];
  for (const m of text.matchAll(/[A-Za-z0-9_.+/=:~-]+/g)) if (m[0].length >= minRun) out.push([m.index, m.index + m[0].length]);
  return out;
}

const pairs = (a: number[]) => Array.from({ length: a.length / 2 }, (_, i) => [a[2 * i], a[2 * i + 1]]);
const sorted = (a: number[][]) => [...a].sort((x, y) => x[1] - y[1] || x[0] - y[0]);

describe('KeywordAutomaton', () => {
  const automaton = new KeywordAutomaton(KEYWORDS, RUN_CHARS);

  it('finds nested, overlapping and case-changed keywords', () => {
    const text = 'USHERS typed PassWord= ghp_x https://a sk_live_1';
    expect(sorted(pairs(automaton.pass(text, 0).hits))).toEqual(sorted(naiveHits(KEYWORDS, text)));
  });

  it('finds what a position-by-position search finds, and the same runs (property)', () => {
    const alphabet = fc.constantFrom(...'ghp_shers PASWORDkey:/-u\t\n é│日ab12=.+~'.split(''));
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 200 }).map((a) => a.join('')), fc.integer({ min: 1, max: 12 }), (text, minRun) => {
        const r = automaton.pass(text, minRun);
        expect(sorted(pairs(r.hits))).toEqual(sorted(naiveHits(KEYWORDS, text)));
        expect(pairs(r.runs)).toEqual(naiveRuns(text, minRun));
      }),
      { numRuns: 300 },
    );
  });

  it("the scanner's table fits 16-bit offsets (280 keywords once pushed it to 32-bit: the reply scan went a third slower)", () => {
    expect(keywordTableIsCompact()).toBe(true);
  });

  it("past 63 characters a few rare ones of long keywords share a class: the scanner's rows stay 64 wide", () => {
    expect(keywordRows().width).toBe(64);
    expect(keywordRows().sharedChars.length).toBeGreaterThan(1);
  });

  it('with a shared class, every hit is still found; an extra hit stands only where shared characters stand in for each other (property)', () => {
    // 68 distinct characters: letters, digits and punctuation, the punctuation in long keywords only.
    const punct = '!#$%&()*,;<>?@[]^`{|}"\'+=.~';
    const many = [...KEYWORDS, 'abcdefghijklmnopqrstuvwxyz', '0123456789', ...[...punct].map((c, i) => `x${c}${'qwertyuiop'[i % 10]}z`)];
    const wide = new KeywordAutomaton(many, RUN_CHARS);
    expect(wide.rowWidth).toBe(64);
    const shared = wide.sharedChars;
    expect(shared.length).toBeGreaterThan(1);
    const canon = (t: string) => t.toLowerCase().replace(new RegExp(`[${shared.replace(/[\]^-]/g, '\\$&')}]`, 'g'), shared[0]);
    const alphabet = fc.constantFrom(...`xqwz${punct}ab0 `.split(''));
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 120 }).map((a) => a.join('')), (text) => {
        const got = sorted(pairs(wide.pass(text, 0).hits));
        const exact = naiveHits(many, text);
        for (const h of exact) expect(got).toContainEqual(h);
        // Each hit is an exact one once the shared characters are read as one.
        expect(got).toEqual(sorted(naiveHits(many.map(canon), canon(text))));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses an empty or non-ASCII keyword with a clear error', () => {
    expect(() => new KeywordAutomaton([''], RUN_CHARS)).toThrow(/empty keyword/);
    expect(() => new KeywordAutomaton(['clé'], RUN_CHARS)).toThrow(/non-ASCII/);
  });
});

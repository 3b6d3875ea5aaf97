import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadGrammarFile } from '../grammar/loader.js';
import type { CompiledRule } from '../grammar/types.js';
import { LeadGate, lineLead, NON_ASCII_LEAD, type LineLead } from './line-lead.js';
import { needleSetSource } from './needle-set.js';
import { anchoredSource } from './prefilter.js';
import { stripAnsi } from './vt-stripper.js';
import { withoutLookarounds } from './test-regex.js';

const ROOT = path.resolve(__dirname, '../../../..');
const GRAMMARS = path.join(ROOT, 'grammars');
const RECORDED = path.join(ROOT, 'fixtures', 'recorded');

/** The lead's characters as a string (NON_ASCII_LEAD as `…`). */
function chars(l: LineLead): string {
  let s = '';
  for (let c = 0; c < NON_ASCII_LEAD; c++) if (l.lead[c] === 1) s += String.fromCharCode(c);
  return l.lead[NON_ASCII_LEAD] === 1 ? `${s}…` : s;
}

/** Does `line` meet the lead's condition: as read off (first character, a factor of a set), and as LeadGate asks it? */
function meets(l: LineLead, line: string): boolean {
  const c = line.charCodeAt(0);
  const at = c < NON_ASCII_LEAD ? c : NON_ASCII_LEAD;
  const read = line.length > 0 && (l.lead[at] === 1 || (l.prefix[at] === 1 && l.sets.some((set) => new RegExp(needleSetSource(set)).test(line))));
  expect(new LeadGate([l]).open(line), JSON.stringify(line)).toBe(read);
  return read;
}

describe('lineLead', () => {
  it('reads the first characters past optional atoms, and the needle sets of optional groups', () => {
    const info = /^(?:[\w.-]+\s*\|\s?)?\[?(?:\d{4}[-/]\d\d[-/]\d\d|\d\d:\d\d:\d\d|\d{10}(?:\.\d+)?|\d{13})\]?\s+INFO/;
    const l = lineLead(info)!;
    expect(chars(l)).toBe('0123456789[');
    expect(l.sets.map(needleSetSource)).toEqual(['\\|']);
    expect(chars({ lead: l.prefix, prefix: l.prefix, sets: [] })).toBe('-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz'); // the compose prefix starts with [\w.-]
    expect(chars(lineLead(/^\s*(?:npm|yarn) /)!)).toBe('\t\n\v\f\r ny…'); // \s reaches outside ASCII
    expect(chars(lineLead(/^(?=x)[a-c]+\b:/)!)).toBe('abc');
    expect(chars(lineLead(/^x?y*(?:z|\x41)/)!)).toBe('Axyz');
    expect(chars(lineLead(/^[\w-]?[\]\\-]/)!)).toBe(`-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ\\]_abcdefghijklmnopqrstuvwxyz`);
    expect(lineLead(/^a?/)).toBeUndefined(); // may match an empty line start
    expect(lineLead(/^.x/)).toBeUndefined();
    expect(lineLead(/^[^a]x/)).toBeUndefined();
    expect(lineLead(/^\Sx/)).toBeUndefined();
    expect(lineLead(/x/)).toBeUndefined(); // not anchored
    expect(lineLead(/^x/i)).toBeUndefined(); // flags: not modelled
    expect(lineLead(/^(?:^|a)b/)).toBeUndefined();
  });

  it('never shuts on a line its RegExp matches: random anchored patterns, random and generated lines', () => {
    const atom = fc.constantFrom('a', 'b', 'E', ':', '-', '1', '\\d', '\\w', '\\s', '[ab]', '[a-c:]', '[\\d:]', '[^a]', '.', '\\b', '$', 'x', '\\.', '\\[', '\\|', '[Ee]', '\\x41');
    const regexAt = (depth: number): fc.Arbitrary<string> => {
      const items: fc.Arbitrary<string>[] = [atom, atom, fc.tuple(atom, fc.constantFrom('?', '*', '+', '{2}', '{0,2}', '{1,3}', '??')).map(([a, q]) => (/^[$]|\\b/.test(a) ? a : a + q))];
      if (depth > 0) {
        const inner = regexAt(depth - 1);
        items.push(
          inner.map((r) => `(?:${r})`),
          fc.tuple(inner, fc.constantFrom('', '?', '+', '{2}', '*', '{0,1}')).map(([r, q]) => `(${r})${q}`),
          inner.map((r) => `(?=${r})`),
          inner.map((r) => `(?!${r})`),
        );
      }
      const seq = fc.array(fc.oneof(...items), { minLength: 1, maxLength: 4 }).map((xs) => xs.join(''));
      return fc.oneof(seq, seq, fc.tuple(seq, seq).map(([a, b]) => `${a}|${b}`));
    };
    const line = fc.array(fc.constantFrom('a', 'b', 'c', 'E', 'e', ':', '-', '|', '[', 'A', '1', '2', ' ', '.', 'x', '_', '\t', 'é'), { maxLength: 16 }).map((xs) => xs.join(''));
    let withLead = 0;
    fc.assert(
      fc.property(regexAt(2), fc.array(line, { minLength: 20, maxLength: 20 }), (body, lines) => {
        const source = `^(?:${body})`;
        const re = new RegExp(source);
        const l = lineLead(re);
        if (!l) return;
        withLead++;
        let generated: string[] = [];
        const plain = withoutLookarounds(source);
        try {
          if (plain !== undefined) generated = fc.sample(fc.stringMatching(new RegExp(plain), { size: 'xsmall' }), { numRuns: 20, seed: 1 }).filter((x) => x.length <= 20);
        } catch {
          // not generable: random lines only
        }
        for (const x of [...lines, ...generated]) if (re.test(x)) expect(meets(l, x), `${source} on ${JSON.stringify(x)}: ${chars(l)} ${l.sets.map(needleSetSource)}`).toBe(true);
      }),
      { numRuns: 3000 },
    );
    expect(withLead).toBeGreaterThan(500);
  });

  it('never shuts on a line a shipped anchored rule matches (all recorded output, and lines generated from the rule)', () => {
    const lines = [...new Set(readdirSync(RECORDED).filter((f) => f.endsWith('.raw')).flatMap((f) => stripAnsi(readFileSync(path.join(RECORDED, f), 'utf8')).split(/\r?\n|\r/)))];
    const rules = readdirSync(GRAMMARS)
      .filter((f) => f.endsWith('.toml'))
      .map((f) => loadGrammarFile(path.join(GRAMMARS, f), { includeDirs: [GRAMMARS] }))
      .concat([loadGrammarFile(path.join(GRAMMARS, '_shared', 'log-levels.toml'), { includeDirs: [GRAMMARS] })])
      .flatMap((r) => (r.ok ? [r.value] : []))
      .flatMap((g) => [...g.hazard, ...g.outcome, ...g.noise, ...g.prompt] as CompiledRule[]);
    let withLead = 0;
    for (const r of rules) {
      const source = anchoredSource(r.re);
      const l = source === undefined ? undefined : lineLead(r.re, source);
      if (!l) continue;
      withLead++;
      const missed = lines.filter((x) => r.re.test(x) && !meets(l, x));
      const plain = withoutLookarounds(r.re.source);
      if (plain !== undefined) {
        try {
          for (const x of fc.sample(fc.stringMatching(new RegExp(plain, r.re.flags)), { numRuns: 200, seed: 42 })) if (r.re.test(x) && !meets(l, x)) missed.push(x);
        } catch {
          // not generable: the recorded lines only
        }
      }
      expect(missed, `${r.id}: ${r.re.source}`).toEqual([]);
    }
    expect(withLead).toBeGreaterThan(50);
  });
});

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadGrammarFile } from '../grammar/loader.js';
import type { CompiledRule } from '../grammar/types.js';
import { buildProbes, needleSet, needleSetSource, probeable, type Factor } from './needle-set.js';
import { stripAnsi } from './vt-stripper.js';
import { withoutLookarounds } from './test-regex.js';

const ROOT = path.resolve(__dirname, '../../../..');
const GRAMMARS = path.join(ROOT, 'grammars');
const RECORDED = path.join(ROOT, 'fixtures', 'recorded');

function shippedRules(): CompiledRule[] {
  return readdirSync(GRAMMARS)
    .filter((f) => f.endsWith('.toml'))
    .map((f) => loadGrammarFile(path.join(GRAMMARS, f), { includeDirs: [GRAMMARS] }))
    .flatMap((r) => (r.ok ? [r.value] : []))
    .flatMap((g) => [...g.hazard, ...g.outcome, ...g.noise, ...g.prompt] as CompiledRule[])
    .concat(
      (() => {
        const always = loadGrammarFile(path.join(GRAMMARS, '_shared', 'log-levels.toml'), { includeDirs: [GRAMMARS] });
        if (!always.ok) throw new Error('log-levels.toml does not load');
        return [...always.value.hazard, ...always.value.outcome, ...always.value.noise] as CompiledRule[];
      })(),
    );
}

function fixtureLines(): string[] {
  const out = new Set<string>();
  for (const f of readdirSync(RECORDED).filter((f) => f.endsWith('.raw'))) {
    for (const l of stripAnsi(readFileSync(path.join(RECORDED, f), 'utf8')).split(/\r?\n|\r/)) out.add(l);
  }
  return [...out];
}

const setRe = (set: readonly Factor[]) => new RegExp(needleSetSource(set));
const src = (re: RegExp) => {
  const s = needleSet(re);
  return s && needleSetSource(s);
};

describe('needleSet', () => {
  it('reads the pieces every match holds: alternations, classes, repeats, case under i', () => {
    expect(src(/ERR(?:OR|O)?/)).toBe('ERR');
    expect(src(/^(?:a|b)x(?:FATAL|FATL)y/)).toBe('axFATALy|axFATLy|bxFATALy|bxFATLy'); // a cross product along the sequence
    expect(src(/^\S+ (?:FATAL|FATL)y/)).toBe(' FATALy| FATLy');
    expect(src(/^[EF]\d{4} \d\d:\d\d:\d\d\.\d+\s/)).toBe('\\d\\d \\d\\d:\\d\\d:\\d\\d\\.'); // cut to 12 around the rare `:`
    expect(src(/\[(?:[\w-]+:)?(?:[Ee]rror|err)\]/)).toBe('[Ee]rror\\]|err\\]');
    expect(src(/(?:level|lvl)=(?:info|debug)\b/)).toBe('level=info|level=debug|lvl=info|lvl=debug');
    expect(src(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/)).toBe('\\-\\d\\dT\\d\\d:\\d\\d:\\d\\d'); // cut to 12 positions, keeping the rarest character (T)
    expect(src(/warn: x/i)).toBe('[Ww][Aa][Rr][Nn]: [Xx]');
    expect(src(/a(?=bc)d/)).toBe('ad'); // a lookaround consumes nothing
    expect(src(/a?b?/)).toBeUndefined(); // may match ''
    expect(src(/a|.*/)).toBeUndefined();
    expect(src(/(a)\1/)).toBe('a'); // a back-reference is "anything"
    expect(src(/[^a]x/)).toBe('x');
    expect(src(/x{0}y/)).toBe('y');
    expect(src(/(?:ab){2,}/)).toBe('abab');
    expect(src(/\u0041\x42\cJ/)).toBe('AB\\u000a');
    expect(needleSet(new RegExp('a', 'v'))).toBeUndefined(); // (a literal /a/v needs an es2024 target)
    expect(needleSet(/\u{1F600}x/u)).toBe(undefined); // \u{…} is not read
  });

  it('knows which sets a probe can key on (a rare character in every factor)', () => {
    expect(probeable(needleSet(/\d\d:\d\d/)!)).toBe(true);
    expect(probeable(needleSet(/debug|INFO/)!)).toBe(false); // `debug`: lower case only
    expect(probeable(needleSet(/\d{10}/)!)).toBe(false);
  });

  it('never leaves out a line its RegExp matches: random patterns, random and generated lines', () => {
    // Patterns over a small alphabet, built from the syntax the reader models (and some it does not).
    const atom = fc.constantFrom('a', 'b', 'E', ':', '-', '\\d', '\\w', '\\s', '[ab]', '[a-c:]', '[^a]', '.', '\\b', '^', '$', 'x', '\\.', '[Ee]');
    // Two levels of groups at most: deeper random nesting of quantifiers backtracks for minutes.
    const regexAt = (depth: number): fc.Arbitrary<string> => {
      const items: fc.Arbitrary<string>[] = [atom, atom, fc.tuple(atom, fc.constantFrom('?', '*', '+', '{2}', '{0,2}', '{1,3}', '+?')).map(([a, q]) => (/^[\^$]|\\b/.test(a) ? a : a + q))];
      if (depth > 0) {
        const inner = regexAt(depth - 1);
        items.push(
          inner.map((r) => `(?:${r})`),
          fc.tuple(inner, fc.constantFrom('', '?', '+', '{2}')).map(([r, q]) => `(${r})${q}`),
          inner.map((r) => `(?=${r})`),
          inner.map((r) => `(?!${r})`),
        );
      }
      const seq = fc.array(fc.oneof(...items), { minLength: 1, maxLength: 4 }).map((xs) => xs.join(''));
      return fc.oneof(seq, seq, fc.tuple(seq, seq).map(([a, b]) => `${a}|${b}`));
    };
    const regexSource = regexAt(2);
    const line = fc.array(fc.constantFrom('a', 'b', 'c', 'E', 'e', ':', '-', '1', '2', ' ', '.', 'x', '_', '\t'), { maxLength: 16 }).map((xs) => xs.join(''));
    fc.assert(
      fc.property(regexSource, fc.boolean(), fc.array(line, { minLength: 20, maxLength: 20 }), (source, ignoreCase, lines) => {
        const re = new RegExp(source, ignoreCase ? 'i' : '');
        const set = needleSet(re);
        if (!set) return;
        const gate = setRe(set);
        let generated: string[] = [];
        const plain = withoutLookarounds(source);
        try {
          // Short ones: random nested quantifiers backtrack exponentially on long lines.
          if (plain !== undefined) generated = fc.sample(fc.stringMatching(new RegExp(plain, re.flags), { size: 'xsmall' }), { numRuns: 20, seed: 1 }).filter((l) => l.length <= 20);
        } catch {
          // a pattern stringMatching cannot generate from: random lines only
        }
        for (const l of [...lines, ...generated]) if (re.test(l)) expect(gate.test(l), `${source} /${re.flags} on ${JSON.stringify(l)}`).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('never leaves out a line a shipped grammar rule matches (all recorded output, and lines generated from the rule)', () => {
    const lines = fixtureLines();
    let withSet = 0;
    for (const r of shippedRules()) {
      const set = needleSet(r.re);
      if (!set) continue;
      withSet++;
      const gate = setRe(set);
      const missed = lines.filter((l) => r.re.test(l) && !gate.test(l));
      const plain = withoutLookarounds(r.re.source);
      if (plain !== undefined) {
        try {
          for (const l of fc.sample(fc.stringMatching(new RegExp(plain, r.re.flags)), { numRuns: 200, seed: 42 })) if (r.re.test(l) && !gate.test(l)) missed.push(l);
        } catch {
          // not generable: the recorded lines only
        }
      }
      expect(missed, `${r.id}: ${r.re.source}`).toEqual([]);
    }
    expect(withSet).toBeGreaterThan(50);
  });
});

describe('buildProbes', () => {
  it('finds every line holding a factor of a set, keyed on shared rare characters', () => {
    const sets = [needleSet(/\d\d:\d\d:\d\d/)!, needleSet(/[EF]\d{4} \d\d:\d\d:/)!, needleSet(/\[(?:[Ee]rror|err)\]/)!, needleSet(/(?:INFO|DEBUG):/)!, needleSet(/", line /)!, needleSet(/lvl"/)!];
    const { probes, keys } = buildProbes(sets, ['lvl']);
    // Three keys: `:` (both timestamps and `INFO:`), `"` and a bracket; `lvl"` holds the literal `lvl`: dropped.
    expect(probes.map((p) => p.key).sort()).toEqual(expect.arrayContaining([':', '"']));
    expect(probes).toHaveLength(3);
    const alphabet = ['1', '2', ':', ' ', 'E', 'F', '[', ']', 'rror', 'err', 'INFO', 'DEBUG', '"', ', line ', 'lvl', 'x'];
    const all = sets.map(setRe);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 14 }), (parts) => {
        const l = parts.join('');
        const probed = keys!.test(l) && probes.some((p) => l.includes(p.key) && p.re.test(l));
        if (all.some((g) => g.test(l)) && !l.includes('lvl')) expect(probed, JSON.stringify(l)).toBe(true);
      }),
      { numRuns: 20000 },
    );
  });

  it('any: a line without one of its characters holds no literal and no factor (random literals, sets and lines)', () => {
    const alphabet = ['a', 'e', 'l', 'v', 's', 'E', 'W', 'R', 'N', ':', '"', '[', ']', '1', ' ', '|'];
    const word = fc.array(fc.constantFrom(...alphabet), { minLength: 1, maxLength: 5 }).map((xs) => xs.join(''));
    const escaped = (w: string) => w.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
    fc.assert(
      fc.property(fc.array(word, { maxLength: 6 }), fc.array(word, { maxLength: 4 }), fc.array(word, { maxLength: 30 }), (literals, setWords, lineParts) => {
        // A set per word: `\d\d:` style factors keyed on a rare character, when the word has one.
        const sets = setWords.map((w) => needleSet(new RegExp(`${escaped(w)}\\d`))).filter((x): x is Factor[] => x !== undefined && probeable(x));
        const { probes, any } = buildProbes(sets, literals);
        if (any === undefined) {
          expect(probes).toEqual([]);
          expect(literals).toEqual([]);
          return;
        }
        const line = lineParts.join('');
        const meets = literals.some((l) => line.includes(l)) || sets.some((set) => setRe(set).test(line));
        if (meets) expect(any.test(line), `${any.source} on ${JSON.stringify(line)}`).toBe(true);
      }),
      { numRuns: 20000 },
    );
    // The shipped log-level literals are looked for by one rare letter each, not by `l` or `s`.
    expect(buildProbes([], ['severity', 'lvl', 'level', 'WARN']).any!.source).toBe('[Wv]');
  });
});

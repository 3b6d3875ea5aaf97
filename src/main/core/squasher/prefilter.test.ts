import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadGrammarFile } from '../grammar/loader.js';
import type { CompiledRule } from '../grammar/types.js';
import { RuleFilter, anchoredSource, combinableAnchored, failsFast, literalNeedle, opensCheaply } from './prefilter.js';
import { stripAnsi } from './vt-stripper.js';

const ROOT = path.resolve(__dirname, '../../../..');
const GRAMMARS = path.join(ROOT, 'grammars');
const RECORDED = path.join(ROOT, 'fixtures', 'recorded');

const rule = (source: string, flags = ''): CompiledRule => ({ id: source, re: new RegExp(source, flags) }) as CompiledRule;

function allRules(): CompiledRule[][] {
  return readdirSync(GRAMMARS)
    .filter((f) => f.endsWith('.toml'))
    .map((f) => loadGrammarFile(path.join(GRAMMARS, f), { includeDirs: [GRAMMARS] }))
    .flatMap((r) => (r.ok ? [r.value] : []))
    .flatMap((g) => [g.hazard, g.outcome, g.noise, g.prompt] as CompiledRule[][]);
}

function allGrammars() {
  return readdirSync(GRAMMARS)
    .filter((f) => f.endsWith('.toml'))
    .map((f) => loadGrammarFile(path.join(GRAMMARS, f), { includeDirs: [GRAMMARS] }))
    .flatMap((r) => (r.ok ? [r.value] : []));
}

function fixtureLines(): string[] {
  const out: string[] = [];
  for (const f of readdirSync(RECORDED).filter((f) => f.endsWith('.raw'))) {
    for (const l of stripAnsi(readFileSync(path.join(RECORDED, f), 'utf8')).split(/\r?\n|\r/)) out.push(l);
  }
  return out;
}

describe('literalNeedle', () => {
  it('reads mandatory literals and nothing optional', () => {
    expect(literalNeedle(/^npm (?:ERR!|error) (?<msg>\S.*)/)).toBe('npm ');
    expect(literalNeedle(/^\s*(?<file>[^\s:][^:]*?):(?<line>\d+): warning: (?<msg>.*)$/)).toBe(': warning: ');
    expect(literalNeedle(/(?<type>\w*Warning): /)).toBe(': '); // a rare first character beats length
    expect(literalNeedle(/(?<type>\w*Warning) x/)).toBe('Warning');
    expect(literalNeedle(/abc?d/)).toBe('ab');
    expect(literalNeedle(/(?:xyz)?ab/)).toBe('ab');
    expect(literalNeedle(/(?=needle)ab/)).toBe('ab');
    expect(literalNeedle(/a|b/)).toBeUndefined();
    expect(literalNeedle(/(?:error|warning): x/)).toBe(': x');
    expect(literalNeedle(/\d+%/i)).toBe('%');
    expect(literalNeedle(/Error: /i)).toBe(': ');
    expect(literalNeedle(/\[\d+\/\d+\]/)).toBe('[');
    expect(literalNeedle(/x{2,}yz/)).toBe('yz');
  });

  it('every line a shipped grammar rule matches contains its needle (checked on all recorded output)', () => {
    const lines = fixtureLines();
    let withNeedle = 0;
    for (const rules of allRules()) {
      for (const r of rules) {
        const needle = literalNeedle(r.re);
        if (needle === undefined) continue;
        withNeedle++;
        expect(lines.filter((l) => r.re.test(l) && !l.includes(needle)), `${r.id} /${r.re.source}/`).toEqual([]);
      }
    }
    expect(withNeedle).toBeGreaterThan(50);
  });

  it('opensCheaply only where a literal, \\d or a positive class must come first (past \\s*, optional groups and into every branch)', () => {
    const yes = [String.raw`(?<file>(?:file:\/\/)?(?:\/|\.{1,2}\/|[A-Za-z]:\\|node:)[^\s:][^\s]*?):(?<line>\d+)$`, String.raw`(?:[\w.-]+\s*\|\s?)?[EF]\d{4} `, String.raw`\s+(?<l>\d+):`, String.raw`(?<f>\.\/\S+?):`];
    const no = [String.raw`(?:[\w.]+=\S+\s+)*?level=`, String.raw`(?:\S+\s+){0,6}?\[`, String.raw`\S+[._-]test:$`, String.raw`(?<t>.+?) FAILED`, String.raw`\s\S.* \|`, String.raw`[^:]*:`, 'a*b', '(?:a|b*)c', '(?=x)a', String.raw`\d{0,3}x`, '(?:a)??b'];
    for (const src of yes) expect(opensCheaply(src), src).toBe(true);
    for (const src of no) expect(opensCheaply(src), src).toBe(false);
  });

  it('failsFast only for RegExps anchored by a literal', () => {
    expect(failsFast(/^npm (?:silly|verb) /)).toBe(true);
    expect(failsFast(/^\s*Running `/)).toBe(true);
    expect(failsFast(/^\(node:\d+\)/)).toBe(true);
    expect(failsFast(/^\s*(?<file>[^\s:][^:]*?):\d+/)).toBe(false);
    expect(failsFast(/\[=+\]/)).toBe(false);
    expect(failsFast(/^error/i)).toBe(false);
  });
});

describe('RuleFilter', () => {
  it('finds the same first matching rule as testing every rule in order', () => {
    const lines = fixtureLines();
    for (const rules of allRules()) {
      if (rules.length === 0) continue;
      const filter = new RuleFilter(rules);
      const wrong = lines.filter((l) => filter.first(l) !== rules.findIndex((r) => r.re.test(l)));
      expect(wrong, rules.map((r) => r.id).join(' ')).toEqual([]);
    }
  });

  it('finds the same first rule over all tiers of a grammar at once, alone and followed by the always-on log-levels rules (as the classifier uses it)', () => {
    const always = loadGrammarFile(path.join(GRAMMARS, '_shared', 'log-levels.toml'), { includeDirs: [GRAMMARS] });
    if (!always.ok) throw new Error('log-levels.toml does not load');
    const tail = [...always.value.hazard, ...always.value.outcome, ...always.value.noise] as CompiledRule[];
    const lines = [...new Set(fixtureLines())];
    const tailFirst = lines.map((l) => tail.findIndex((r) => r.re.test(l)));
    for (const g of allGrammars()) {
      const rules = [...g.hazard, ...g.outcome, ...g.noise] as CompiledRule[];
      const filter = new RuleFilter(rules);
      const withTail = new RuleFilter([...rules, ...tail]);
      const wrong: string[] = [];
      lines.forEach((l, i) => {
        const own = rules.findIndex((r) => r.re.test(l));
        if (filter.first(l) !== own) wrong.push(l);
        const both = own >= 0 ? own : tailFirst[i] >= 0 ? rules.length + tailFirst[i] : -1;
        if (withTail.first(l) !== both) wrong.push(`with log-levels: ${l}`);
      });
      expect(wrong, g.name).toEqual([]);
    }
  });

  it('combines anchored rules faithfully: capture groups, named groups, flags, order against unanchored rules', () => {
    const rules = [
      rule('(\\d+) apples'), // unanchored, before the anchored ones
      rule('^(a)(b)?c'),
      rule('^(?<x>a)\\(?<y>'), // an escaped paren before ?< is no named group
      rule('^a(?<n>b)'),
      rule('^A', 'i'),
      rule('^(x)\\1'), // back-reference: never combined
      rule('^q|z'), // top-level alternation: not anchored
      rule('^\\s*[0-9]+ apples'),
      rule('^ab'),
    ];
    const f = new RuleFilter(rules);
    const cases = ['ac', 'abc', 'a(<y>', 'a<y>', 'ab', 'abd', 'A', 'aa', 'xx', 'x', 'q', 'zz', '3 apples', ' 3 apples', 'Ab', '', 'b', 'a(', 'y'];
    for (const c of cases) expect(f.first(c), c).toBe(rules.findIndex((r) => r.re.test(c)));
    expect(combinableAnchored(/^(x)\1/)).toBe(false);
    expect(combinableAnchored(/^q|z/)).toBe(false);
    expect(combinableAnchored(/^a/m)).toBe(false);
    expect(combinableAnchored(/^(?:q|z)/)).toBe(true);
  });

  it('anchors a top-level alternation whose every branch starts with ^, and only that', () => {
    expect(anchoredSource(/^failures:$|^---- \S+ stdout ----$/)).toBe('^(?:failures:$|---- \\S+ stdout ----$)');
    expect(anchoredSource(/^a|b/)).toBeUndefined();
    expect(anchoredSource(/^a|^b/m)).toBeUndefined();
    expect(anchoredSource(/^(a)|^\1/)).toBeUndefined();
    expect(anchoredSource(/^[|]x|^(?:y|z)/)).toBe('^(?:[|]x|(?:y|z))');
    const rules = [rule('z'), rule('^ab|^c(d)?$|^\\|'), rule('^[|]$|^e')];
    const f = new RuleFilter(rules);
    for (const c of ['ab', 'xab', 'c', 'cd', 'cdd', '\\|', '|', 'e', 'ze', 'xe', '']) expect(f.first(c), c).toBe(rules.findIndex((r) => r.re.test(c)));
  });

  it('with a gate over many needles: the same answers as testing rules in order on random lines', () => {
    const rules = [rule('ERR'), rule('^x'), rule('WARN[:]'), rule('lvl=(?:a|b)'), rule('level: '), rule('^[yz]+$'), rule('ERR!'), rule('= ')];
    const f = new RuleFilter(rules);
    const alphabet = ['ERR', '!', 'WARN', ':', 'lvl', '=', 'a', 'b', 'level', ' ', 'x', 'y', 'z'];
    let seed = 7;
    const rnd = (k: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % k;
    for (let i = 0; i < 20000; i++) {
      let l = '';
      for (let j = 0, n = rnd(7); j < n; j++) l += alphabet[rnd(alphabet.length)];
      expect(f.first(l), JSON.stringify(l)).toBe(rules.findIndex((r) => r.re.test(l)));
    }
  });

  it('with a tail gate (rare needles, anchored rules) after rules it cannot cover: the same answers as testing rules in order', () => {
    const rules = [rule('q+r', 'i'), rule('^a\\d:'), rule('LEVEL'), rule('^(?:\\w+ )?b: (?<m>.*)'), rule('^c(d)?$|^e'), rule('WARN[:]'), rule('= x'), rule('^[ab]+ = ')];
    const f = new RuleFilter(rules);
    // Every rule run alone but the first (i flag, no needle) is in the tail.
    expect((f as unknown as { tailFrom: number }).tailFrom).toBe(1);
    const alphabet = ['a', 'b', 'b: ', 'QR', 'c', 'd', 'e', '1', ':', ' ', '=', 'x', 'LEVEL', 'WARN', 'z'];
    let seed = 13;
    const rnd = (k: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % k; // (in 32 bits: a float product loses the low bits)
    for (let i = 0; i < 20000; i++) {
      let l = '';
      for (let j = 0, n = rnd(8); j < n; j++) l += alphabet[rnd(alphabet.length)];
      expect(f.first(l), JSON.stringify(l)).toBe(rules.findIndex((r) => r.re.test(l)));
    }
  });

  it('skips a run of rules whose needles share an absent root, and only then: the same answers as testing rules in order', () => {
    const rules = [rule('a: (\\d)'), rule(': b'), rule('xy: '), rule('(?<f>\\w+): warning: '), rule('^\\s+q'), rule(': '), rule('\\[x'), rule('w: ')];
    const f = new RuleFilter(rules);
    const alphabet = ['a', ':', ' ', 'b', 'x', 'y', 'warning', '1', 'q', '[', 'w'];
    let seed = 17;
    const rnd = (k: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % k; // (in 32 bits: a float product loses the low bits)
    for (let i = 0; i < 20000; i++) {
      let l = '';
      for (let j = 0, n = rnd(8); j < n; j++) l += alphabet[rnd(alphabet.length)];
      expect(f.first(l), JSON.stringify(l)).toBe(rules.findIndex((r) => r.re.test(l)));
    }
  });

  it('agrees with testing rules in order on random lines', () => {
    const rules = [rule('^npm (?:ERR!|error) (?<msg>\\S.*)'), rule('^(\\w+): (\\d+)%'), rule('(?<p>\\d+)%'), rule('^\\s*[xy]+$'), rule('^x(y)?(z)?$'), rule('y: '), rule('^[0-9]{2}: ')];
    const f = new RuleFilter(rules);
    const alphabet = ['npm ', 'ERR!', 'error', ' ', 'x', 'y', 'z', ': ', '1', '2', '%', '\t'];
    let seed = 3;
    const rnd = (k: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % k;
    for (let i = 0; i < 20000; i++) {
      let l = '';
      for (let j = 0, n = rnd(8); j < n; j++) l += alphabet[rnd(alphabet.length)];
      expect(f.first(l), JSON.stringify(l)).toBe(rules.findIndex((r) => r.re.test(l)));
    }
  });

  it('with the log-level rules gated by their needle sets: the same answers as testing rules in order on generated log lines', () => {
    const always = loadGrammarFile(path.join(GRAMMARS, '_shared', 'log-levels.toml'), { includeDirs: [GRAMMARS] });
    if (!always.ok) throw new Error('log-levels.toml does not load');
    const tail = [...always.value.hazard, ...always.value.outcome, ...always.value.noise] as CompiledRule[];
    const cargo = allGrammars().find((g) => g.name === 'cargo')!;
    const own = [...cargo.hazard, ...cargo.outcome, ...cargo.noise] as CompiledRule[];
    // As the classifier builds it (sets only for the always-on part), and with sets for every rule.
    const lists: [CompiledRule[], number][] = [
      [tail, 0],
      [[...own, ...tail], own.length],
      [[...own, ...tail], 0],
    ];
    // Pieces of the shapes the rules look for (timestamps, level words and fields, brackets, glog), and filler.
    const piece = fc.constantFrom(
      '2026-11-26', '18:40:00', ',123', '.123456', 'T', 'Z', ' ', '  ', '\t', ' - ', ' | ', 'api-1', 'E1122', 'I1122', 'W1122', '12', '1700000000', '1700000000123', '[1700000000.5]', 'file.go:12]',
      'ERROR', 'ERRO', 'WARN', 'INFO', 'DEBUG', 'TRACE', 'error', 'warn', 'info', 'debug', 'Error', 'Warning', 'FATAL', 'CRIT', 'PANIC', 'SEVERE', 'ALERT', 'EMERG',
      '[', ']', '[main]', '[error]', '[core:error]', ':', ': ', '=', 'level', 'lvl', 'severity', '"level":', '"info"', '"error"', '{', '}', ',', 'msg="x"', 'no ', '0 ',
      'Nov 26', ' 6:40:00 PM', 'host', 'sshd[12]:', 'Traceback (most recent call last):', 'File "a.py", line 3', 'ValueError: x', 'Compiling', 'module', '(target/debug/build)', 'root',
    );
    const lines = fc.array(piece, { maxLength: 9 }).map((xs) => xs.join(''));
    for (const [rules, setsFrom] of lists) {
      const f = new RuleFilter(rules, { setsFrom });
      fc.assert(
        fc.property(lines, (l) => {
          expect(f.first(l), JSON.stringify(l)).toBe(rules.findIndex((r) => r.re.test(l)));
        }),
        { numRuns: 20000 },
      );
    }
  });

  it('keeps rule order and handles mixed flags, needle-less and shared-needle rules', () => {
    const rules = [rule('^x'), rule('b: '), rule('warn', 'i'), rule('[0-9]{3}'), rule(': '), rule('^(?:a|b)')];
    const f = new RuleFilter(rules);
    const cases = ['x: 1', 'ab: 2', 'WARN', '123', 'c: 4', 'a', 'zzz', ''];
    for (const c of cases) expect(f.first(c), c).toBe(rules.findIndex((r) => r.re.test(c)));
    expect(new RuleFilter([]).first('anything')).toBe(-1);
  });
});

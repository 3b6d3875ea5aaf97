import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DedupGroups, HEX_ID_RE, MAX_DEDUP_GROUPS, MAX_PINNED_RUNS, MAYBE_ERROR_WORD, RunCollector, groupKey, keyMatcher, keyMatches, maskHexIds, mentionsErrorWord, quietRunRegExp, sameRunRegExp, sameTemplate, templateOf, templateRegExp } from './dedup.js';
import type { BodyLine } from './types.js';
import { stripAnsi } from './vt-stripper.js';

const RECORDED = path.resolve(__dirname, '../../../../fixtures/recorded');

/** Lines of every recorded fixture, escape sequences removed, progress frames split. */
function fixtureLines(): string[] {
  const out: string[] = [];
  for (const f of readdirSync(RECORDED).filter((f) => f.endsWith('.raw'))) {
    for (const l of stripAnsi(readFileSync(path.join(RECORDED, f), 'utf8')).split(/\r?\n|\r/)) if (l) out.push(l);
  }
  return out;
}

const EDGE_CASES = [
  'Compiling foo v1.2.3 (/home/u/foo)',
  'Compiling bar v10.0.0-beta.1 (/home/u/bar)',
  'literal # and {p} and 7',
  'literal # and {p} and 8',
  'literal 9 and {p} and #',
  'ab12 cd/3 4/ef 5-6:7 x',
  'ab99 zz/3 1/ef 0-0:0 x',
  'ab12 cd 4/ef 5-6:7 x',
  '12/34',
  '/',
  '//a b//',
  'x1/y z',
  'x2 y z',
  '0x1f .5 -3 a1b2c3',
  '0xff .9 -7 a9b9c9',
  'a  b',
  'a b',
  '',
  ' ',
  '1',
  'café 3 naïve/x',
  'café 4 naïve/y',
  'a.b(c)[d]{e}|f^g$h*i+j?k\\l 1',
  'a.b(c)[d]{e}|f^g$h*i+j?k\\l 22',
];

describe('dedup templates', () => {
  it('a group matcher accepts only lines of its template, and almost all of them', () => {
    const lines = [...EDGE_CASES, ...fixtureLines()];
    // Pairs: every line against its neighbours and against edge cases (same and different templates).
    let checked = 0;
    let sameTemplate = 0;
    let recognised = 0;
    for (let i = 0; i < lines.length; i++) {
      const re = templateRegExp(lines[i]);
      if (!re) continue;
      const t = templateOf(lines[i]);
      for (const j of [i + 1, i + 2, i + 7, (i * 7919) % lines.length]) {
        const other = lines[j % lines.length];
        if (other.includes('\t')) continue;
        const same = templateOf(other) === t;
        // Never a false yes (it would count a line in the wrong group); a false no only costs
        // time (templateOf decides), e.g. a literal '#' in the text that looks like a number's mark.
        if (re.test(other)) expect(same, `${JSON.stringify(lines[i])} vs ${JSON.stringify(other)}`).toBe(true);
        else if (same) recognised--;
        if (same) {
          sameTemplate++;
          recognised++;
        }
        checked++;
      }
      expect(re.test(lines[i])).toBe(true);
    }
    expect(checked).toBeGreaterThan(10_000);
    expect(recognised / sameTemplate).toBeGreaterThan(0.99);
  });

  it('matchers accept exactly what they accepted with lookarounds making runs and paths whole', () => {
    // The earlier sources: a run maximal by a lookahead, a path token whole by lookarounds.
    const withLookarounds = (re: RegExp) =>
      new RegExp(
        re.source
          .split(String.raw`\d[\da-fA-F.,:_-]*`)
          .join(String.raw`\d[\da-fA-F.,:_-]*(?![\da-fA-F.,:_-])`)
          .split(String.raw`[^ /]*\/[^ ]*`)
          .join(String.raw`(?<![^ ])[^ /]*\/[^ ]*(?![^ ])`)
          .replace(/(?<!\[\^ )\\\/\[\^ \]\*/g, String.raw`\/[^ ]*(?![^ ])`),
      );
    const alphabet = fc.constantFrom(...'0123456789abcdefgxyz_.,:-/ #'.split(''));
    const text = fc.array(alphabet, { maxLength: 30 }).map((a) => a.join(''));
    const mutant = (s: string) =>
      fc.array(fc.tuple(fc.nat(), alphabet), { maxLength: 3 }).map((edits) => {
        const a = s.split('');
        for (const [at, c] of edits) if (a.length) a[at % a.length] = c;
        return a.join('');
      });
    let accepted = 0;
    fc.assert(
      fc.property(text.chain((s) => fc.tuple(fc.constant(s), mutant(s))), ([s, other]) => {
        for (const re of [templateRegExp(s), sameRunRegExp(s)]) {
          if (!re) continue;
          const old = withLookarounds(re);
          expect(re.test(other), `${re.source} on ${JSON.stringify(other)}`).toBe(old.test(other));
          if (re.test(other)) accepted++;
        }
      }),
      { numRuns: 30000 },
    );
    expect(accepted).toBeGreaterThan(5000);
  });

  it('a run matcher accepts exactly the lines sameTemplate accepts', () => {
    const lines = [...EDGE_CASES, 'a/b\tc 1', 'a/x\ty 2', 'p 1/q', 'p 2/r', ...fixtureLines()];
    let same = 0;
    for (let i = 0; i < lines.length; i++) {
      const re = sameRunRegExp(lines[i]);
      if (!re) continue;
      for (const j of [i + 1, i + 2, i + 5, (i * 7919) % lines.length]) {
        const other = lines[j % lines.length];
        const expected = sameTemplate(lines[i], other);
        if (expected) same++;
        if (re.test(other) !== expected) expect(re.test(other), `${JSON.stringify(lines[i])} vs ${JSON.stringify(other)}`).toBe(expected);
      }
    }
    expect(same).toBeGreaterThan(1000);
  });

  it('folds a long run the same with or without its matcher', () => {
    const c = new RunCollector();
    for (let i = 1; i <= 100; i++) c.add(`Compiling module ${i} of /work/x${i}`, i);
    c.add('done', 101);
    expect(c.body()).toEqual([
      { type: 'line', text: 'Compiling module 1 of /work/x1', no: 1 },
      { type: 'omitted', count: 98, errors: 0, warnings: 0, fromNo: 2, toNo: 99, similar: true },
      { type: 'line', text: 'Compiling module 100 of /work/x100', no: 100 },
      { type: 'line', text: 'done', no: 101 },
    ]);
  });

  it('groups by template and keeps first and last line whatever the matcher cache holds', () => {
    const g = new DedupGroups();
    const input = ['gcc -c src/a1.c -o obj/a1.o', 'ar rcs lib1.a', 'gcc -c src/a2.c -o obj/a2.o', 'echo 1', 'ar rcs lib2.a', 'x\t1', 'x\t2', 'gcc -c src/a3.c -o obj/a3.o'];
    input.forEach((t, i) => g.add(t, i + 1));
    const byTemplate = new Map(g.list().map((x) => [x.template, x]));
    expect(byTemplate.get('gcc -c {p} -o {p}')).toMatchObject({ count: 3, first: input[0], last: input[7], firstNo: 1, lastNo: 8 });
    expect(byTemplate.get(templateOf('ar rcs lib1.a'))).toMatchObject({ count: 2, lastNo: 5 });
    expect(byTemplate.get('x\t#')).toMatchObject({ count: 2 });
  });

  it('counts exactly like grouping by templateOf, before and after a group gets its matcher', () => {
    const g = new DedupGroups();
    const lines: string[] = [];
    for (let i = 0; i < 60; i++) {
      lines.push(`gcc -c src/a${i}.c -o obj/a${i}.o`, `ar rcs lib${i % 7}.a`, `x\t${i}`, `Running unit${i} --extern dep${i % 3}=/t/lib${i}.rlib`);
      if (i % 5 === 0) lines.push(`Running unit${i} -L /t --extern dep=/t/lib${i}.rlib`);
    }
    lines.forEach((t, i) => g.add(t, i + 1));
    const want = new Map<string, { count: number; first: string; last: string }>();
    for (const t of lines) {
      const k = templateOf(t);
      const w = want.get(k) ?? { count: 0, first: t, last: t };
      w.count++;
      w.last = t;
      want.set(k, w);
    }
    expect(new Map(g.list().map((x) => [x.template, { count: x.count, first: x.first, last: x.last }]))).toEqual(want);
  });
});

describe('key matchers (a group recognised by its key without building it)', () => {
  /** Characters that matter to groupKey: hex and other letters, digits, run separators, slash, space, breaks, the characters maskHexIds looks at. */
  const ALPHABET = '0123456789abcdefABCDEFgxzG_.,:-=#/ "{}()[]\'é';
  const line = fc.array(fc.constantFrom(...ALPHABET.split('')), { maxLength: 40 }).map((a) => a.join(''));
  /** `s` with up to four characters replaced: often the same key, often not. */
  const mutant = (s: string) =>
    fc.array(fc.tuple(fc.nat(), fc.constantFrom(...ALPHABET.split(''))), { maxLength: 4 }).map((edits) => {
      const a = s.split('');
      for (const [at, c] of edits) if (a.length) a[at % a.length] = c;
      return a.join('');
    });

  it('a line\'s key is its tokens\' keys joined with spaces (what makes the matcher exact)', () => {
    const byTokens = (t: string) => t.split(' ').map((tok) => (tok.includes('/') ? '{p}' : tok.split(/([!"$%&'()*+;<>?@[\\\]^`{|}~])/).map((p, j) => (j % 2 ? p : groupKey(p))).join(''))).join(' ');
    fc.assert(fc.property(line, (t) => t.includes('\t') || groupKey(t) === byTokens(t)), { numRuns: 20000 });
    for (const t of fixtureLines()) if (!t.includes('\t')) expect(byTokens(t), t).toBe(groupKey(t));
  });

  it('accepts its own line, and a line only when the line has its key', () => {
    let accepted = 0;
    let acceptedOtherTemplate = 0;
    fc.assert(
      fc.property(line.chain((s) => fc.tuple(fc.constant(s), mutant(s))), ([s, other]) => {
        const m = keyMatcher(s);
        if (!m) return true;
        expect(keyMatches(m, s)).toBe(true);
        if (keyMatches(m, other)) {
          expect(groupKey(other), `${JSON.stringify(s)} vs ${JSON.stringify(other)}`).toBe(groupKey(s));
          accepted++;
          if (templateOf(other) !== templateOf(s)) acceptedOtherTemplate++;
        }
        return true;
      }),
      { numRuns: 30000 },
    );
    expect(accepted).toBeGreaterThan(1000);
    // The case the key matcher exists for (same key, another template) is exercised: ~10–30 of the
    // random 30,000 (8 in one CI run, where "> 10" failed); any one proves the path ran.
    expect(acceptedOtherTemplate).toBeGreaterThan(0);
  });

  it('on recorded lines: never a false yes, and it recognises hashes that start with a letter', () => {
    const lines = fixtureLines().filter((t) => !t.includes('\t'));
    let recognised = 0;
    for (let i = 0; i < lines.length; i++) {
      const m = keyMatcher(lines[i]);
      if (!m) continue;
      const k = groupKey(lines[i]);
      for (const j of [i + 1, i + 2, i + 7, (i * 7919) % lines.length]) {
        const other = lines[j % lines.length];
        if (keyMatches(m, other)) {
          expect(groupKey(other), `${JSON.stringify(lines[i])} vs ${JSON.stringify(other)}`).toBe(k);
          if (templateOf(other) !== templateOf(lines[i])) recognised++;
        }
      }
    }
    expect(recognised).toBeGreaterThan(0);
  });

  it('groups count exactly as without key matchers (recorded noise, generated logs, past the group cap)', () => {
    const sequences: string[][] = [fixtureLines()];
    for (let v = 0; v < 3; v++) {
      const seq: string[] = [];
      for (let i = 0; i < 3000; i++) {
        const id = ((i * 2654435761) >>> (v * 3)).toString(16).padStart(8, '0');
        seq.push(`{"level":${20 + (i % 3) * 10},"time":${1795718545170 + i},"reqId":"req-${id.slice(0, 6)}","msg":"query ${i % 5 ? 'done' : 'failed'}"}`);
        seq.push(`     Running \`rustc --crate-name unit${i} -C metadata=${id}${id} -C extra-filename=-${id.slice(2)}${id} --out-dir /t/deps\``);
        if (i % (v + 2) === 0) seq.push(`shape ${i % (MAX_DEDUP_GROUPS + 9)}: x${'y'.repeat(i % (MAX_DEDUP_GROUPS + 9))} ${id}`);
      }
      sequences.push(seq);
    }
    for (const seq of sequences) {
      const a = new DedupGroups();
      const b = new DedupGroups(false);
      seq.forEach((t, i) => {
        a.add(t, i + 1);
        b.add(t, i + 1);
      });
      expect(a.list()).toEqual(b.list());
      expect([a.overflowLines, a.overflowFirstNo, a.overflowLastNo]).toEqual([b.overflowLines, b.overflowFirstNo, b.overflowLastNo]);
    }
  });
});

describe('markers state only what was checked (issue 13 pt 3)', () => {
  /** 3,000 unclassified lines of two shapes, with lines mentioning an error word at `at`. */
  function collect(at: Map<number, string>): BodyLine[] {
    const c = new RunCollector();
    for (let i = 1; i <= 3000; i++) c.add(at.get(i) ?? (i % 10 === 0 ? `cache warm ${i}` : `step ${i}: processed batch ${i * 7}`), i);
    return c.body();
  }

  it('keeps an unclassified line that mentions an error word, out of the omitted middle', () => {
    const body = collect(new Map([[1500, 'upstream connection refused, will retry'], [2000, 'checksum mismatch on shard 4']]));
    expect(body).toContainEqual({ type: 'line', text: 'upstream connection refused, will retry', no: 1500 });
    expect(body).toContainEqual({ type: 'line', text: 'checksum mismatch on shard 4', no: 2000 });
    // The markers around them count exactly the lines they stand for.
    const omitted = body.filter((b) => b.type === 'omitted' && !b.similar);
    const shown = body.filter((b) => b.type === 'line').length + body.filter((b) => b.type === 'omitted' && b.similar).reduce((n, b) => n + (b.type === 'omitted' ? b.count : 0), 0);
    expect(shown + omitted.reduce((n, b) => n + (b.type === 'omitted' ? b.count : 0), 0)).toBe(3000);
  });

  it('past the pin budget, names the other lines with an error word by number in the marker', () => {
    const at = new Map<number, string>();
    for (let k = 0; k < MAX_PINNED_RUNS + 3; k++) at.set(200 + k * 100, `job ${k + 1} failed: disk quota`);
    const body = collect(at);
    const kept = body.filter((b) => b.type === 'line' && b.text.includes('failed'));
    expect(kept).toHaveLength(MAX_PINNED_RUNS);
    const named = body.flatMap((b) => (b.type === 'omitted' && b.mentions ? b.mentions : []));
    expect(named).toEqual([200 + MAX_PINNED_RUNS * 100, 200 + (MAX_PINNED_RUNS + 1) * 100, 200 + (MAX_PINNED_RUNS + 2) * 100]);
  });

  it('reads error words as words, and not in a count of nothing', () => {
    expect(mentionsErrorWord('request 42 failed, retrying')).toBe(true);
    expect(mentionsErrorWord('ECONNREFUSED: connection refused')).toBe(true);
    expect(mentionsErrorWord('Traceback (most recent call last):')).toBe(true);
    expect(mentionsErrorWord('summary: 0 errors, no failures')).toBe(false);
    expect(mentionsErrorWord('terror of the errorless (a word inside a word)')).toBe(false);
    expect(mentionsErrorWord('compiled 12 files')).toBe(false);
  });
});

describe('maskHexIds (hand-written scan of HEX_ID)', () => {
  const byRegExp = (t: string) => t.replace(HEX_ID_RE, '0');

  it('masks exactly what the HEX_ID RegExp masks on every recorded fixture line', () => {
    let masked = 0;
    for (const l of fixtureLines()) {
      expect(maskHexIds(l), l).toBe(byRegExp(l));
      if (maskHexIds(l) !== l) masked++;
    }
    expect(masked).toBeGreaterThan(0);
  });

  it('masks exactly what the RegExp masks on generated lines of hex, word and separator characters', () => {
    const alphabet = fc.constantFrom(...'0123456789abcdefABCDEFgxyzG_.-=:#/ \té'.split(''));
    fc.assert(fc.property(fc.array(alphabet, { maxLength: 40 }).map((a) => a.join('')), (t) => maskHexIds(t) === byRegExp(t)), { numRuns: 20000 });
  });

  it('edge cases: ids after separators, at the ends, inside words and after dots', () => {
    for (const t of ['req-ed9cf6 done', 'id=abcdef', 'abcdef', '7f3a9c1e', 'x7f3a9c1e', 'v1.7f3a9c1e', '#deadbeef;', 'a_abcdef', 'deadbeefg', '123456', 'ab12cd ef34ab']) {
      expect(maskHexIds(t), t).toBe(byRegExp(t));
    }
  });
});

describe('quietRunRegExp', () => {
  it('rests on MAYBE_ERROR_WORD being letters only, each alternative with a letter that is no hex digit', () => {
    for (const alt of MAYBE_ERROR_WORD.source.split('|')) {
      expect(alt, alt).toMatch(/^(?:\[[A-Za-z]{2}\])+$/);
      expect(/[g-zG-Z]/.test(alt), alt).toBe(true);
    }
  });

  it('accepts only lines of the same run that mention no error word (random runs: numeric runs varied, words, paths)', () => {
    const word = fc.constantFrom('Compiling', 'module', 'of', ' ', '  ', 'fa', 'tal', 'err', 'or', 'ab', 'ort', 'time', 'out', 'e', 'd', 'ef', 'x', 'ok', ':', '.', '-', '(', ')', 'fail', 'ed', '0 errors', '/path/to/error.log', '/a/b', '(target/debug/build)', 'C', 'é');
    const num = fc.stringMatching(/^\d[\da-fA-F.,:_-]{0,5}$/);
    const piece = fc.oneof(word, word, fc.constant(null));
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 10 }), fc.array(num, { minLength: 10, maxLength: 10 }), fc.array(num, { minLength: 10, maxLength: 10 }), fc.array(word, { maxLength: 8 }), (pieces, a, b, random) => {
        const fill = (nums: string[]) => pieces.map((p, i) => p ?? nums[i]).join('');
        const first = fill(a);
        const quiet = quietRunRegExp(first);
        if (!quiet) return;
        expect(mentionsErrorWord(first)).toBe(false);
        const run = sameRunRegExp(first)!;
        for (const line of [fill(b), random.join(''), first + random.join('')]) {
          if (!quiet.test(line)) continue;
          expect(mentionsErrorWord(line), JSON.stringify([first, line])).toBe(false);
          expect(run.test(line) && sameTemplate(first, line), JSON.stringify([first, line])).toBe(true);
        }
      }),
      { numRuns: 20000 },
    );
    expect(quietRunRegExp('Compiling module 000000001 of the workspace (target/debug/build)')!.test('Compiling module 000000002 of the workspace (target/debug/build)')).toBe(true);
    expect(quietRunRegExp('Compiling module 000000001 of the workspace (target/debug/build)')!.test('Compiling module 000000002 of the workspace (target/error/build)')).toBe(false); // another path word
    expect(quietRunRegExp('step 1ctl')).toBeUndefined(); // a numeric run followed by a letter: `step 1fatl` (its `fat`) would be a line of the run
    expect(quietRunRegExp('request failed 1')).toBeUndefined();
  });
});

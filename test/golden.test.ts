/**
 * Golden tests on real recorded tool output (fixtures/recorded, see fixtures/README.md).
 *
 * For every fixture with a facts file, the exact recorded bytes go through the squasher with the
 * grammar that tool detection picks for the recorded argv, and every fact — an error or warning
 * line with its location, a failing test id, a summary count — must appear in the condensed
 * text, together with the exit code. The facts were picked by reading the raw output, not the
 * grammar, so a grammar or squasher change that drops one fails here.
 *
 * The bytes are fed in odd-sized chunks as well as whole, because a PTY delivers them in
 * arbitrary pieces and the result must not depend on where the cuts fall.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { GrammarRegistry, detectTool } from '../src/main/core/grammar/index.js';
import { render } from '../src/main/core/format/render.js';
import { ALWAYS_GRAMMAR } from '../src/main/core/squasher/always-rules.js';
import { Squasher } from '../src/main/core/squasher/squasher.js';
import type { SquashResult } from '../src/main/core/squasher/types.js';
import { stripAnsi } from '../src/main/core/squasher/vt-stripper.js';
import { shownLine } from '../src/main/core/squasher/line-cut.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RECORDED = path.join(ROOT, 'fixtures', 'recorded');
const GRAMMARS = path.join(ROOT, 'grammars');
/** Chunk size for the split-feeding pass: small and odd, so cuts land inside UTF-8 characters and escape sequences. */
const ODD_CHUNK_BYTES = 7;
/** Below this many lines the squasher shows output whole (plus a header), so "shorter" cannot be asked of it. */
const SMALL_FIXTURE_LINES = 20;

interface FixtureMeta {
  name: string;
  tool: string;
  argv: string[];
  exitCode: number;
  durationMs: number;
  large?: boolean;
}

interface Facts {
  name: string;
  exitCode: number;
  mustSurvive: string[];
  /**
   * Facts that survive as unclassified lines on purpose (shown in the body, not as a hazard,
   * outcome or group), each with why; every other fact must be classified (see below).
   */
  unclassified?: Record<string, string>;
}

const registry = new GrammarRegistry({ builtinDir: GRAMMARS, userDir: null, projectGrammars: false, revalidateMs: 0 });
const names = readdirSync(RECORDED)
  .filter((f) => f.endsWith('.facts.json'))
  .map((f) => f.slice(0, -'.facts.json'.length))
  .sort();
const reductions: string[] = [];

/**
 * Lines in raw output as `mish raw --lines` numbers them: one per newline, and an unterminated
 * last one if it prints something (not only `ESC[?25h`).
 */
function rawLineCount(raw: Buffer): number {
  let n = 0;
  for (const b of raw) if (b === 0x0a) n++;
  const last = raw.subarray(raw.lastIndexOf(0x0a) + 1).toString('utf8');
  return stripAnsi(last).length ? n + 1 : n;
}

/** What `mish <cmd>` prints for the recording (the summary, then the status line), and the squasher's result. */
function squash(meta: FixtureMeta, raw: Buffer, chunk?: number): { text: string; result: SquashResult } {
  let t = 0;
  const detection = detectTool(meta.argv, registry);
  const sq = new Squasher({ detection, now: () => t });
  const bytes = new Uint8Array(raw);
  if (!chunk) sq.write(bytes);
  else for (let i = 0; i < bytes.length; i += chunk) sq.write(bytes.subarray(i, i + chunk));
  t = meta.durationMs;
  const result = sq.finish({ exitCode: meta.exitCode });
  const text = render({ command: meta.argv.join(' '), report: { category: 'condense', squash: result }, facts: { exitCode: meta.exitCode, durationMs: meta.durationMs, spoolRef: 'mish raw x4moz7240', enrichment: [] } }, 'human', false);
  resultOf.set(text, result);
  return { text, result };
}

/** The squasher's result behind each rendered text (to tell hazard lines, which carry no mark when they name their severity). */
const resultOf = new Map<string, SquashResult>();

/** The rendered lines that head a hazard (with its `✗`/`⚠` when it has one, and its `(xN)`). */
function hazardHeads(text: string, severity?: 'error' | 'warning'): string[] {
  const heads = new Set(resultOf.get(text)!.hazards.filter((h) => !severity || h.severity === severity).map((h) => shownLine(h.text)));
  return text.split('\n').filter((l) => heads.has(l.replace(/^[✗⚠] /, '').replace(/ \(x\d+\)$/, '')));
}

describe('golden: real tool output keeps every fact', () => {
  it('has fixtures, and every built-in grammar loads', () => {
    expect(names.length).toBeGreaterThan(40);
    expect(registry.snapshot().errors).toEqual([]);
  });

  for (const name of names) {
    it(name, () => {
      const meta = JSON.parse(readFileSync(path.join(RECORDED, `${name}.json`), 'utf8')) as FixtureMeta;
      const facts = JSON.parse(readFileSync(path.join(RECORDED, `${name}.facts.json`), 'utf8')) as Facts;
      const raw = readFileSync(path.join(RECORDED, `${name}.raw`));
      expect(facts.exitCode).toBe(meta.exitCode);

      const detection = detectTool(meta.argv, registry);
      // Log fixtures are read by the grammar applied to every command, whatever tool runs.
      if (meta.tool !== ALWAYS_GRAMMAR) expect(detection?.grammar.name, `grammar for ${meta.argv.join(' ')}`).toBe(meta.tool);

      const { text, result } = squash(meta, raw);
      const status = text.replace(/\n$/, '').split('\n').pop()!;
      expect(status).toMatch(new RegExp(`^\\[exit ${meta.exitCode}\\b`));
      const missing = facts.mustSurvive.filter((f) => !text.includes(f));
      expect(missing, `facts lost in the condensed output of ${name}:\n${text}`).toEqual([]);

      // Chunking must not change the result.
      expect(squash(meta, raw, ODD_CHUNK_BYTES).text).toBe(text);

      // One raw line is one line: the count (the status line states it when lines were left out) is what `mish raw --lines` numbers.
      expect(result.totalLines, 'line count').toBe(rawLineCount(raw));
      const stated = /· ([\d,]+) lines? ·/.exec(status);
      if (stated) expect(Number(stated[1].replace(/,/g, '')), 'stated line count').toBe(rawLineCount(raw));
      // Nothing left out: nothing to read back, so no raw reference; else the reference, once.
      const folded = (result as { folded?: number }).folded ?? 0;
      expect(status.includes('mish raw x4moz7240'), status).toBe(!result.verbatim || folded > 0 || text.includes('… [+'));

      const lines = raw.toString('utf8').split('\n').length;
      if (lines > SMALL_FIXTURE_LINES) expect(text.length).toBeLessThan(raw.length);
      reductions.push(`${name.padEnd(30)} ${String(raw.length).padStart(9)} B → ${String(text.length).padStart(7)} B  (${((1 - text.length / raw.length) * 100).toFixed(0)}% smaller)`);
    });
  }

  afterAll(() => {
    // The reduction per fixture, for the issue note and for spotting regressions by eye.
    if (process.env.MISH_GOLDEN_REPORT) console.log(reductions.join('\n'));
  });
});

describe('golden: fixture files are complete', () => {
  it('every recording has its metadata and every fixture used by the tests exists', () => {
    for (const name of names) {
      expect(existsSync(path.join(RECORDED, `${name}.raw`)), `${name}.raw`).toBe(true);
      expect(existsSync(path.join(RECORDED, `${name}.json`)), `${name}.json`).toBe(true);
    }
  });
});

/** The SquashResult (the JSON's summary) of one fixture: what the classifier made of each line, shown whole or not. */
function squashResult(name: string): SquashResult {
  const meta = JSON.parse(readFileSync(path.join(RECORDED, `${name}.json`), 'utf8')) as FixtureMeta;
  const sq = new Squasher({ detection: detectTool(meta.argv, registry), now: () => 0 });
  sq.write(new Uint8Array(readFileSync(path.join(RECORDED, `${name}.raw`))));
  return sq.finish({ exitCode: meta.exitCode });
}

/**
 * Where a fact landed in the classifier's reading: on a hazard (✗/⚠) line or in the lines kept
 * with it, on an outcome (+) line, or as the shown first or last line of a counted group (~).
 * Undefined: only in the unclassified body, which a small output shows whole whatever the
 * classifier did.
 */
function landing(r: SquashResult, fact: string): string | undefined {
  if (r.hazards.some((h) => h.text.includes(fact))) return 'hazard';
  if (r.hazards.some((h) => h.context.some((c) => c.includes(fact)))) return 'hazard context';
  if (r.outcomes.some((o) => o.includes(fact))) return 'outcome';
  if (r.groups.some((g) => g.first.includes(fact) || g.last.includes(fact))) return 'group';
  return undefined;
}

describe('golden: every fact is classified, not only shown (a small output is shown whole)', () => {
  it('most fixtures are small enough to be shown whole: the must-survive check alone cannot test their grammar', () => {
    const small = names.filter((n) => squashResult(n).verbatim);
    expect(small.length).toBeGreaterThan(20);
  });

  for (const name of names) {
    it(name, () => {
      const facts = JSON.parse(readFileSync(path.join(RECORDED, `${name}.facts.json`), 'utf8')) as Facts;
      const r = squashResult(name);
      const exempt = facts.unclassified ?? {};
      for (const f of Object.keys(exempt)) expect(facts.mustSurvive, `unclassified fact ${f} is a must-survive fact`).toContain(f);
      const lost = facts.mustSurvive.filter((f) => !(f in exempt) && landing(r, f) === undefined);
      expect(lost, `facts only in the unclassified body of ${name} (verbatim: ${r.verbatim})`).toEqual([]);
    });
  }
});

/** Lines of raw output as a reader sees them: escape sequences (CSI, OSC hyperlinks) removed, split at newlines and carriage returns. */
function plainLines(raw: Buffer): string[] {
  return raw
    .toString('utf8')
    // eslint-disable-next-line no-control-regex
    .replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, '')
    // eslint-disable-next-line no-control-regex
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    .split(/\r?\n|\r/);
}

/** Hazards of one severity the result accounts for: shown (with their counted repeats) plus counted as not shown. */
function accounted(r: SquashResult, severity: 'error' | 'warning'): number {
  const shown = r.hazards.filter((h) => h.severity === severity).reduce((n, h) => n + 1 + (h.repeats ?? 0), 0);
  return shown + (severity === 'error' ? r.hazardsOmitted.errors : r.hazardsOmitted.warnings);
}

describe('golden: large fixtures account for every diagnostic (facts in proportion to the content)', () => {
  // Each raw diagnostic counted by a pattern read from the recording, independent of the grammar.
  const cases: { name: string; warnings: RegExp; errors?: RegExp; expected: number }[] = [
    { name: 'make-build-large', warnings: /^src\/mod\d+\.c:\d+:\d+: warning: unused parameter ‘unused’/, errors: /: error: /, expected: 500 },
    { name: 'cargo-build-large', warnings: /^warning: unused variable: `unused_\d+`$/, errors: /^error(?:\[E\d+\])?: /, expected: 300 },
    { name: 'npm-install-large', warnings: /^\S?npm warn /, errors: /^\S?npm (?:ERR!|error) /, expected: 6 },
  ];

  for (const c of cases) {
    it(`${c.name}: ${c.expected} warnings in the recording, each one shown or counted, none invented`, () => {
      const raw = readFileSync(path.join(RECORDED, `${c.name}.raw`));
      const lines = plainLines(raw);
      const warnings = lines.filter((l) => c.warnings.test(l));
      expect(warnings.length, 'the recording itself').toBe(c.expected);
      const errors = c.errors ? lines.filter((l) => c.errors!.test(l)).length : 0;
      const r = squashResult(c.name);
      expect(accounted(r, 'warning')).toBe(warnings.length);
      expect(accounted(r, 'error')).toBe(errors);
      // What is shown is the recording's own lines (a spinner glyph drawn in front aside), in order, each once.
      const shown = r.hazards.filter((h) => h.severity === 'warning').map((h) => h.text);
      expect(shown.length).toBeGreaterThan(0);
      let at = -1;
      for (const t of shown) {
        const next = warnings.findIndex((w, i) => i > at && (w === t || w.endsWith(t)));
        expect(next, `shown warning "${t}" is a recorded line after line ${at} of the warnings`).toBeGreaterThan(at);
        at = next;
      }
      // The rendered text says how many were left out.
      const text = squashFixture(c.name);
      if (r.hazardsOmitted.warnings) expect(text).toContain(`[... ${r.hazardsOmitted.errors} more errors, ${r.hazardsOmitted.warnings} more warnings not shown: see the raw output ...]`);
    });
  }
});

/** The condensed text of one recorded fixture, by name. */
function squashFixture(name: string): string {
  const meta = JSON.parse(readFileSync(path.join(RECORDED, `${name}.json`), 'utf8')) as FixtureMeta;
  return squash(meta, readFileSync(path.join(RECORDED, `${name}.raw`))).text;
}

/**
 * The context lines of the hazard whose line contains `marker` (trimmed; a blank line of the
 * diagnostic is rendered empty), checked to be printed right under it.
 */
function contextAfter(text: string, marker: string): string[] {
  const h = resultOf.get(text)!.hazards.find((x) => x.text.includes(marker));
  expect(h, `"${marker}" in:\n${text}`).toBeDefined();
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.includes(marker));
  const ctx = h!.context.map((c) => shownLine(c));
  expect(lines.slice(at + 1, at + 1 + ctx.length).map((l) => l.trim())).toEqual(ctx.map((c) => c.trim()));
  const out = ctx.map((c) => c.trim());
  while (out.length && out[out.length - 1] === '') out.pop();
  return out;
}

/** How many rendered lines contain `needle`. */
function occurrences(text: string, needle: string): number {
  return text.split('\n').filter((l) => l.includes(needle)).length;
}

describe('golden: a diagnostic keeps the lines that explain it, next to it', () => {
  it('tsc --pretty: the first error in a file keeps its code frame; later ones there keep location and message only', () => {
    const text = squashFixture('tsc-errors-pretty');
    expect(contextAfter(text, 'src/app.ts:2:1 - error TS6133')).toEqual(
      expect.arrayContaining(["2 import { formatDate } from './dates';", '~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~']),
    );
    // The same file again: no frame (the line and its squiggle are in the raw output).
    expect(contextAfter(text, 'src/app.ts:2:28 - error TS2307')).toEqual([]);
    // A message chain and related information are not frame lines: they stay.
    expect(contextAfter(text, 'src/app.ts:15:31 - error TS2345')).toEqual(
      expect.arrayContaining(["Property 'name' is missing in type '{ id: number; }' but required in type 'User'.", 'src/user.ts:3:3', "'name' is declared here."]),
    );
    expect(contextAfter(text, 'src/app.ts:15:31 - error TS2345').join('\n')).not.toContain('greet({ id: 3 })');
    // The first error in another file keeps its frame.
    expect(contextAfter(text, 'src/user.ts:12:3 - error TS2322')).toEqual(
      expect.arrayContaining(['12   return users.find((u) => u.id === id);']),
    );
  });

  it('pytest: each failure banner keeps the failing source line and the frames under it', () => {
    const text = squashFixture('pytest-fail');
    expect(contextAfter(text, ' test_total_counts_quantities _')).toContain('>       assert inv.total() == 5');
    expect(contextAfter(text, ' test_nested_error _')).toEqual(
      expect.arrayContaining(['>       helper_that_explodes({"present": 1})', "data = {'present': 1}", '>       return data["missing"]']),
    );
  });
});

describe('golden: an error inside a failure block keeps the rest of the block', () => {
  it('jest: the second failing test keeps its code frame and stack under its TypeError, once', () => {
    const text = squashFixture('jest-fail');
    const ctx = contextAfter(text, "TypeError: Cannot read properties of undefined (reading 'split')");
    expect(ctx).toEqual(
      expect.arrayContaining(["> 11 |   const [cat, num] = sku.split('-');", '|                          ^', 'at split (cart.js:11:26)', 'at Object.parseSku (cart.test.js:17:12)']),
    );
    expect(occurrences(text, 'at split (cart.js:11:26)')).toBe(1);
    // jest's RUNS status redrawn under the block is not part of it
    expect(ctx.join('\n')).not.toContain('RUNS');
  });

  it('vitest: the assertion keeps its Expected/Received diff and the code frame, once', () => {
    const text = squashFixture('vitest-fail');
    const ctx = contextAfter(text, "AssertionError: expected 'hello,-world!' to be 'hello-world'");
    expect(ctx).toEqual(
      expect.arrayContaining([
        'Expected: "hello-world"',
        'Received: "hello,-world!"',
        '❯ slug.test.js:9:38',
        "9|     expect(slugify('Hello, World!')).toBe('hello-world');",
        '|                                      ^',
      ]),
    );
    expect(occurrences(text, 'Received: "hello,-world!"')).toBe(1);
  });
});

describe('golden: node --test', () => {
  const base = 'file:///work/main/fixtures/.work/run';

  it('spec reporter: each assertion keeps its diff and location under it, shown once though the recap repeats it', () => {
    const text = squashFixture('node-test-fail');
    const strict = contextAfter(text, 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:');
    expect(strict).toEqual(expect.arrayContaining(['0 !== 180', `at TestContext.<anonymous> (${base}/node-test-fail/test/inventory.test.js:17:12)`, 'expected: 180,']));
    const deep = contextAfter(text, 'AssertionError [ERR_ASSERTION]: Expected values to be strictly deep-equal:');
    expect(deep).toEqual(expect.arrayContaining(['+ actual - expected', '+   food: [],', "-     'apple'", `at TestContext.<anonymous> (${base}/node-test-fail/test/inventory.test.js:21:12)`]));
    const thrown = contextAfter(text, '✖ parses a sku that is missing');
    expect(thrown).toEqual(expect.arrayContaining([`at parseSku (${base}/node-test-fail/inventory.js:21:26)`]));
    // the `✖ failing tests:` recap prints each failure again: counted, not shown twice
    expect(occurrences(text, '0 !== 180')).toBe(1);
    expect(text).toMatch(/^ {2}✖ applies a 10% discount \([\d.]+ms\) \(x2\)$/m);
    // node's own frames are not the failure's context
    expect(text).not.toContain('node:internal/test_runner/test:796:25');
  });

  it('every count line survives, the passing rows do not crowd the output', () => {
    const text = squashFixture('node-test-fail');
    const counts = ['tests 11', 'suites 2', 'pass 4', 'fail 3', 'cancelled 0', 'skipped 2', 'todo 2'].map((c) => `+ ℹ ${c}`);
    expect(text.split('\n').filter((l) => l.startsWith('+ ℹ ')).slice(0, counts.length)).toEqual(counts);
    expect(text).not.toContain('✔ totals items');
  });

  it('TAP reporter: each `not ok` keeps its YAML block (location, message, first frame) up to its `...`', () => {
    const text = squashFixture('node-test-tap-fail');
    expect(contextAfter(text, 'not ok 2 - applies a 10% discount')).toContain(`location: '/work/main/fixtures/.work/run/node-test-tap-fail/test/inventory.test.js:16:3'`);
    expect(contextAfter(text, 'error: |-')).toEqual(
      expect.arrayContaining(['Expected values to be strictly equal:', '0 !== 180', `TestContext.<anonymous> (${base}/node-test-tap-fail/test/inventory.test.js:17:12)`, '...']),
    );
  });

  it('npm test running node --test: the same failures with their context, and the counts', () => {
    const text = squashFixture('npm-test-node-fail');
    expect(contextAfter(text, 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:')).toContain(
      `at TestContext.<anonymous> (${base}/npm-test-node-fail/test/inventory.test.js:17:12)`,
    );
    expect(text).toContain('+ ℹ fail 3');
  });
});

describe('golden: noise a reader never misses is left out, the facts around it are not (issue 23)', () => {
  it('pytest: the progress rows go, failing ones too; the FAILED lines and the totals stay', () => {
    const text = squashFixture('pytest-fail');
    expect(text).not.toMatch(/\.py [.sxXFE]+\s*\[\s*\d+%\]/);
    expect(text).toContain('FAILED tests/test_bugs.py::test_nested_error');
    expect(text).toContain('+ 3 failed, 7 passed, 1 skipped, 1 warning in 1.31s');
  });

  it("Playwright: the frames inside the page go; the error and the test file's frame stay", () => {
    const text = squashFixture('playwright-test-fail');
    expect(text).not.toContain('UtilityScript');
    expect(text).not.toContain('at eval (eval at evaluate');
    const ctx = contextAfter(text, '3) tests/checkout.spec.js:15:1 › reads the order id');
    expect(ctx).toContain("Error: page.evaluate: TypeError: Cannot read properties of null (reading 'dataset')");
    // The recording's absolute path (no cwd here to show it relative).
    expect(ctx.some((l) => /^at \/\S+\/tests\/checkout\.spec\.js:17:25$/.test(l))).toBe(true);
  });

  it("pip: the fixed 'not a problem with pip' advice goes; the error box stays", () => {
    const text = squashFixture('pip-build-fail');
    expect(text).not.toContain('likely not a problem with pip');
    expect(text).not.toContain('not pip.');
    expect(text).not.toContain('hint: See above for details.');
    expect(text).toContain("error: invalid command 'bdist_wheel'");
  });

  it("timing lines go (the status line states the run's time): jest, vitest, mvn, node --test; the counts stay", () => {
    const jest = squashFixture('jest-fail');
    expect(jest).not.toMatch(/^\+ Time:/m);
    expect(jest).toContain('+ Tests:       2 failed, 1 skipped, 4 passed, 7 total');
    const vitest = squashFixture('vitest-fail');
    expect(vitest).not.toContain('Duration  ');
    expect(vitest).toContain('+ Tests  1 failed | 6 passed | 1 skipped (8)');
    const mvn = squashFixture('mvn-test-fail');
    expect(mvn).not.toContain('Total time:');
    expect(mvn).not.toMatch(/-+< \S+ >-+|-+\[ jar \]-+/);
    expect(mvn).toContain('[ERROR] Tests run: 3, Failures: 1, Errors: 1, Skipped: 0');
    for (const name of ['node-test-fail', 'node-test-tap-fail']) {
      const text = squashFixture(name);
      expect(text).not.toContain('duration_ms 1');
      expect(text).toMatch(/^\+ (?:ℹ|#) tests 11$/m);
    }
  });
});

describe('golden: rendering', () => {
  it('a blank line (hazard context or a small output shown whole) is rendered empty, not as indentation', () => {
    for (const name of names) {
      const text = squashFixture(name);
      const blankish = text.split('\n').filter((l) => l.length > 0 && l.trim() === '');
      expect(blankish, name).toEqual([]);
    }
  });
});

describe('golden: docker BuildKit TTY progress', () => {
  it('a build keeps its own steps and the image it wrote, not the internal steps or transfer sub-steps', () => {
    const text = squashFixture('docker-build-buildkit');
    expect(text).toContain('naming to docker.io/library/mish-demo-buildkit');
    expect(text).toContain('[stage-1 2/2] COPY hello.txt /hello.txt');
    expect(text).not.toContain('[internal]');
    expect(text).not.toContain('transferring');
  });

  it('a redrawn display keeps its final frame once: the FINISHED header, each step once in its final state', () => {
    const text = squashFixture('docker-build-buildkit');
    expect(occurrences(text, '[+] Building 0.6s (9/9) FINISHED')).toBe(1);
    expect(text, 'a header of an earlier frame').not.toMatch(/\[\+\] Building [\d.]+s \(\d+\/\d+\)\s*$/m);
    for (const step of ['[build 1/2] FROM', '[build 2/2] RUN', '[stage-1 1/2] COPY', '[stage-1 2/2] COPY']) expect(occurrences(text, step), step).toBe(1);
    // the step's time in the final frame, not in the frame it was first drawn in (0.1s)
    expect(text).toMatch(/\[build 2\/2\] RUN echo "built by stage one" .* 0\.5s/);
  });

  it('a failed build: the FINISHED header once, the failed step only in its final (ERROR) state', () => {
    const text = squashFixture('docker-build-buildkit-fail');
    expect(occurrences(text, '[+] Building 0.9s (7/7) FINISHED')).toBe(1);
    expect(occurrences(text, 'ERROR [3/3] RUN')).toBe(1);
    expect(text, 'the step as drawn while it still ran').not.toMatch(/=> \[3\/3\] RUN/);
  });

  it('a failed RUN: the step, its log once (the error block, not the live tail) and the exit code', () => {
    const text = squashFixture('docker-build-buildkit-fail');
    expect(hazardHeads(text)).toContainEqual(expect.stringMatching(/^ => ERROR \[3\/3\] RUN echo "checking config" && ls \/etc\/app\/config\.toml/));
    expect(text.match(/ls: \/etc\/app\/config\.toml: No such file or directory/g)).toHaveLength(1);
    expect(hazardHeads(text)).toContain('executor failed running [/bin/sh -c echo "checking config" && ls /etc/app/config.toml]: exit code: 1');
  });
});

/**
 * Condensed text of several recorded fixtures played back to back as one run of the first one's
 * tool. `perCopy` may rewrite each copy's text (copy i of the same recording made distinct).
 */
function squashConcatenated(names: string[], exitCode: number, perCopy?: (text: string, i: number) => string): string {
  const meta = JSON.parse(readFileSync(path.join(RECORDED, `${names[0]}.json`), 'utf8')) as FixtureMeta;
  const raws = names.map((n) => readFileSync(path.join(RECORDED, `${n}.raw`)));
  const raw = Buffer.concat(perCopy ? raws.map((r, i) => Buffer.from(perCopy(r.toString('utf8'), i))) : raws);
  return squash({ ...meta, exitCode }, raw).text;
}

describe('golden: past the hazard cap, errors still win over warnings', () => {
  const errorFacts = (JSON.parse(readFileSync(path.join(RECORDED, 'cargo-build-error.facts.json'), 'utf8')) as Facts).mustSurvive.filter(
    (f) => !f.includes('warning') && f !== '--> src/main.rs:6:9',
  );

  it('300 crates of warnings, then a compile error: every error with its location survives', () => {
    const text = squashConcatenated(['cargo-build-large', 'cargo-build-error'], 101);
    const missing = errorFacts.filter((f) => !text.includes(f));
    expect(missing, text).toEqual([]);
    expect(text).toMatch(/\[\.\.\. 0 more errors, \d+ more warnings not shown/);
    // A warning left out takes its code frame with it: no orphaned `--> unitN/src/lib.rs` in the body.
    const shownWarnings = hazardHeads(text, 'warning').filter((l) => l.startsWith('warning: unused variable: `unused_')).length;
    expect(occurrences(text, '--> unit')).toBe(shownWarnings);
  });

  it('hundreds of errors: the first ones, an exact count, then the newest ones (the final one included), under 64 KB', () => {
    // 200 crates failing the same way: each copy of the recording names its own crate and files.
    const copies = Array.from({ length: 200 }, () => 'cargo-build-error');
    const text = squashConcatenated(copies, 101, (t, i) => t.replaceAll('src/', `unit${i}/src/`).replaceAll('mish-broken', `mish-broken-${i}`));
    expect(text.length).toBeLessThan(64 * 1024);
    const lines = text.split('\n');
    const marker = lines.findIndex((l) => /\[\.\.\. \d+ more errors?, \d+ more warnings? not shown/.test(l));
    expect(marker, text.slice(0, 2000)).toBeGreaterThan(0);
    const after = lines.slice(marker + 1).join('\n');
    expect(after).toMatch(/^error: could not compile `mish-broken-199`/m);
    expect(after).toMatch(/^error\[E0004\]: non-exhaustive patterns/m);
    // 200 copies × 5 errors: what is shown plus what is counted is every error.
    const shownErrors = hazardHeads(text, 'error').length;
    const counted = Number(/(\d+) more errors?/.exec(lines[marker])![1]);
    expect(shownErrors + counted).toBe(200 * 5);
  });

  it('the same errors reported 200 times: each shown once, with its context and how often it came', () => {
    const text = squashConcatenated(Array.from({ length: 200 }, () => 'cargo-build-error'), 101);
    expect(text).not.toMatch(/more errors?, \d+ more warnings? not shown/);
    expect(occurrences(text, 'error[E0004]: non-exhaustive patterns: `&Shape::Circle { .. }` not covered (x200)')).toBe(1);
    expect(occurrences(text, 'error: could not compile `mish-broken` (bin "mish-broken") due to 4 previous errors; 1 warning emitted (x200)')).toBe(1);
    expect(occurrences(text, '--> src/shapes.rs:7:11')).toBe(1);
    // every error is one shown report and its repeats
    const counts = hazardHeads(text, 'error').map((l) => Number(/ \(x(\d+)\)$/.exec(l)?.[1] ?? 1));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(200 * 5);
  });
});

describe('golden: application logs (grammars/_shared/log-levels.toml, applied to every command)', () => {
  const LOGS = names.filter((n) => n.startsWith('log-'));
  /** Every WARN/ERROR line of a log fixture: its facts, minus the INFO line kept for its error word. */
  const levelFacts = (name: string) => (JSON.parse(readFileSync(path.join(RECORDED, `${name}.facts.json`), 'utf8')) as Facts).mustSurvive.filter((f) => !f.includes('retried after timeout'));

  it('has the recorded logs', () => {
    expect(LOGS.length).toBeGreaterThanOrEqual(6);
  });

  for (const name of LOGS) {
    it(`${name}: every ERROR/WARN line is reported as a hazard, INFO/DEBUG lines become counted templates`, () => {
      const text = squashFixture(name);
      const lines = text.split('\n');
      const hazards = resultOf.get(text)!.hazards;
      for (const fact of levelFacts(name)) {
        expect(text, fact).toContain(fact);
        // A logged exception's closing line may sit in its traceback's context (under its hazard line).
        expect(hazards.some((h) => h.text.includes(fact) || h.context.some((c) => c.includes(fact))), `${fact} in:\n${text}`).toBe(true);
      }
      const templates = lines.filter((l) => l.startsWith('~ ') && / \(x\d+\)$/.test(l));
      expect(templates.length, text).toBeGreaterThan(0);
      // The INFO line that mentions a failure is shown, not folded into a template.
      const mention = lines.find((l) => l.includes('retried after timeout'));
      expect(mention, text).not.toMatch(/^[✗⚠~+] /);
      expect(hazards.some((h) => h.text.includes('retried after timeout')), text).toBe(false);
      // No cut marker claims "0 errors" over a region with an error in it: nothing is cut at all.
      expect(text).not.toMatch(/lines omitted/);
    });
  }
});

describe('golden: decoration costs no tokens (issue 13 pt 1)', () => {
  it('vitest: its 120-column ⎯ separators are folded (the failed count is in the Tests line), the facts around them whole', () => {
    const text = squashFixture('vitest-fail');
    expect(text).not.toMatch(/⎯{4}/);
    expect(text).not.toContain('Failed Tests 1');
    expect(text).toContain('Tests  1 failed | 6 passed | 1 skipped (8)');
    expect(text).toContain(' FAIL  slug.test.js > slugify > strips punctuation');
  });
});

describe("golden: a progress bar drawn on the error's row (prisma's engine download, a hazard rule's lead_noise)", () => {
  const UNREACHABLE = ['prisma-validate-unreachable', 'prisma-migrate-dev-unreachable'];

  for (const name of UNREACHABLE) {
    it(`${name}: the error as the plain pipe prints it, byte for byte, without the bar the terminal drew before it`, () => {
      const text = squashFixture(name);
      const result = resultOf.get(text)!;
      const raw = stripAnsi(readFileSync(path.join(RECORDED, `${name}.raw`), 'utf8'));
      // The recording has the bar and the error on one row; the plain pipe has the error alone.
      expect(raw).toMatch(/^> Downloading Prisma engines for debian-openssl-3\.0\.x \[ +\] 0%Error: request to /m);
      const pipedError = readFileSync(path.join(RECORDED, `${name}.piped`), 'utf8').split('\n').find((l) => l.startsWith('Error: '))!;
      expect(result.hazards.map((h) => h.text)).toEqual([pipedError]);
      expect(text.split('\n')).toContain(pipedError);
      expect(text).not.toContain('Downloading Prisma engines');
      expect(result.trimmed).toBe(1);
      // Not the output whole: the status line names the raw output, which keeps the row.
      expect(text).toContain('mish raw x4moz7240');
    });
  }

  it('issue 23: each reply costs at most its piped output + 5 tokens (o200k), the exit code in its status line', async () => {
    const { encode } = await import('gpt-tokenizer/encoding/o200k_base');
    for (const name of UNREACHABLE) {
      const text = squashFixture(name);
      const piped = readFileSync(path.join(RECORDED, `${name}.piped`), 'utf8');
      expect(text.split('\n').at(-2), name).toBe('[exit 1 · mish raw x4moz7240]');
      expect(encode(text).length, `${name}:\n${text}`).toBeLessThanOrEqual(encode(piped).length + 5);
    }
  });

  it("prisma's errors drawn on a row of their own are unchanged (no lead taken)", () => {
    for (const name of ['prisma-validate-errors', 'prisma-format-error']) {
      const text = squashFixture(name);
      const result = resultOf.get(text)!;
      expect(result.trimmed, name).toBeUndefined();
      expect(result.hazards.map((h) => h.text)).toContain('Error: Prisma schema validation - (validate wasm)');
    }
  });
});

describe('golden: npm prints its results as `npm notice` lines, each drawn after it clears its spinner (npm pack lost them all)', () => {
  const cases = [
    { name: 'npm-pack-dry-run', result: 'acme-ui-3.2.0.tgz', shasum: 'e099d7d68b6da0afa7a6bb5da62df4759256a0af' },
    { name: 'npm-pack-many-files', result: 'acme-icons-1.4.0.tgz', shasum: 'f4cd2147ebdc5325be984759e791d2197463a1e0' },
    { name: 'npm-publish-dry-run', result: '+ @acme/ui@3.2.0', shasum: 'e099d7d68b6da0afa7a6bb5da62df4759256a0af' },
  ];
  for (const c of cases) {
    it(`${c.name}: the result line on stdout stands on its own line, the tarball's details are outcomes`, () => {
      const raw = readFileSync(path.join(RECORDED, `${c.name}.raw`), 'utf8');
      // The recording has npm's spinner in front of its lines: what the case is about.
      expect(raw).toContain(`\x1b[1G\x1b[0K${c.result}\r\n`);
      const text = squashFixture(c.name);
      const result = resultOf.get(text)!;
      expect(result.outcomes).toContain(c.result);
      expect(result.outcomes).toContain(`npm notice shasum: ${c.shasum}`);
      // A line of its own: in a small output as printed, in a condensed one as an outcome (`+ …`).
      expect(text.split('\n').some((l) => l === c.result || l === `+ ${c.result}`), text).toBe(true);
      // The blank notices that frame the tarball and npm's spinner add nothing.
      expect(text).not.toMatch(/[\u2800-\u28ff]/);
    });
  }
});

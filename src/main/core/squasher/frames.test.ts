/**
 * What a condensed run keeps of code frames and tool boilerplate (issue 13 pt 1, the content half),
 * on real recorded output (fixtures/recorded) with the built-in grammars:
 *  - a code frame (the rule's frame_pattern lines) is kept for the first error in a file; later
 *    hazards in that file, and warnings, keep their location, message, notes and labels;
 *  - a small output (shown whole, in order) leaves out what the grammar strips as noise and
 *    counts a noise line like an earlier one on that one.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GrammarRegistry, detectTool } from '../grammar/index.js';
import { compileGrammarSource } from '../grammar/loader.js';
import { UNFOLD_MAX_CHARS, restatedBy } from './emit-buffer.js';
import { renderSquash } from './render.js';
import { Squasher } from './squasher.js';
import type { Classification, HazardReport, Line, SquashResult } from './types.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const RECORDED = path.join(ROOT, 'fixtures', 'recorded');
const registry = new GrammarRegistry({ builtinDir: path.join(ROOT, 'grammars'), userDir: null, projectGrammars: false, revalidateMs: 0 });

/** The fixture's recorded bytes through the squasher with the grammar its argv selects (`times`: fed again, as a rerun would print it). */
function squashFixture(name: string, times = 1): SquashResult {
  const meta = JSON.parse(readFileSync(path.join(RECORDED, `${name}.json`), 'utf8')) as { argv: string[]; exitCode: number };
  const raw = new Uint8Array(readFileSync(path.join(RECORDED, `${name}.raw`)));
  const sq = new Squasher({ detection: detectTool(meta.argv, registry), now: () => 0 });
  for (let i = 0; i < times; i++) sq.write(raw);
  return sq.finish({ exitCode: meta.exitCode });
}

function hazard(r: SquashResult, text: string): HazardReport {
  const h = r.hazards.find((x) => x.text.includes(text));
  expect(h, `hazard "${text}" in ${r.hazards.map((x) => x.text).join('\n')}`).toBeDefined();
  return h!;
}

describe('code frames: once per file, for errors', () => {
  it('gcc: the first error in a file keeps its frame; the next one there, and warnings, keep location, message and notes', () => {
    const r = squashFixture('gcc-errors-relative');
    expect(r.verbatim).toBe(false);
    expect(hazard(r, 'src/broken.c:8:27: error:').context).toEqual(['    8 |     return p->x * p->x + p->z * p->z;', '      |                           ^~']);
    expect(hazard(r, 'src/broken.c:8:34: error:').context).toEqual([]);
    // gcc's fixed note under an undeclared identifier (the same sentence every time) is left out; notes that say something stay (clang below).
    expect(hazard(r, 'src/broken.c:16:12: error:').context).toEqual([]);
    expect(r.hazards.some((h) => h.context.some((c) => c.includes('each undeclared identifier')))).toBe(false);
    for (const w of r.hazards.filter((h) => h.severity === 'warning')) expect(w.context, w.text).toEqual([]);
    // gcc's scope lines are folded, not moved after the diagnostics.
    expect(r.body.some((b) => b.type === 'line' && b.text.includes('In function'))).toBe(false);
  });

  it("clang: a note that names something stays with its warning; the fixed -Wparentheses fix-it notes go", () => {
    const r = squashFixture('clang-errors-relative');
    expect(hazard(r, 'src/util.c:7:9: warning:').context).toContain("src/util.c:5:14: note: initialize the variable 'total' to silence this warning");
    const text = renderSquash(r).text;
    expect(text).toContain('src/util.c:13:11: warning: using the result of an assignment as a condition without parentheses [-Wparentheses]');
    expect(text).not.toContain('note: place parentheses around the assignment');
    expect(text).not.toContain("note: use '==' to turn this assignment");
  });

  it('clang -Werror: a fixed fix-it note goes with its own code frame; the error keeps its frame and the next note stays', () => {
    const lines = [
      'src/util.c:13:11: error: using the result of an assignment as a condition without parentheses [-Werror,-Wparentheses]',
      '    if (n = 0)',
      '        ~~^~~',
      'src/util.c:13:11: note: place parentheses around the assignment to silence this warning',
      '    if (n = 0)',
      '          ^',
      '        (    )',
      "src/util.c:13:11: note: use '==' to turn this assignment into an equality comparison",
      '    if (n = 0)',
      '          ^',
      '          ==',
      'src/util.c:5:14: note: previous declaration is here',
      '    int total;',
      '             ^',
      '1 error generated.',
      ...Array.from({ length: 25 }, (_, i) => `filler line ${i}`),
    ];
    const sq = new Squasher({ detection: detectTool(['clang', '-c', 'src/util.c'], registry), now: () => 0 });
    sq.write(new TextEncoder().encode(lines.join('\r\n') + '\r\n'));
    const r = sq.finish({ exitCode: 1 });
    expect(hazard(r, 'src/util.c:13:11: error:').context).toEqual(['    if (n = 0)', '        ~~^~~', 'src/util.c:5:14: note: previous declaration is here', '    int total;', '             ^']);
  });

  it("make: echoed recipes and recursive `make -C` lines are left out; the diagnostics, make's errors and the directories stay", () => {
    const r = squashFixture('make-recursive-fail');
    const text = renderSquash(r).text;
    expect(text).not.toMatch(/^(?:~ )?(?:cc|ar|make) -/m);
    expect(text).toContain("main.c:8:60: error: expected ‘;’ before ‘return’");
    expect(text).toContain('count.c:1:36: warning: unused parameter');
    expect(text).toContain('make[1]: *** [Makefile:8: main.o] Error 1');
    expect(text).toContain('make: *** [Makefile:8: app] Error 2');
    expect(text).toContain("make[1]: Entering directory '/work/main/fixtures/.work/run/make-recursive-fail/app'");
  });

  it('rustc: a later error in the file keeps its location, labels and help, not the source lines', () => {
    const r = squashFixture('cargo-build-error');
    const first = hazard(r, 'error[E0308]: mismatched types');
    expect(first.context).toContain('12 |     let total: i32 = area(&s);');
    const second = r.hazards.filter((h) => h.text === 'error[E0308]: mismatched types')[1];
    expect(second.context).toEqual(['  --> src/main.rs:13:25', '   |                ------   ^ expected `String`, found integer', '   |                expected due to this', 'help: try using a conversion method']);
    // Another file: its first error keeps its frame.
    expect(hazard(r, 'error[E0004]').context).toContain('7 |     match s {');
  });

  it('a rerun of the same diagnostics counts each on the first report, frames left out or not', () => {
    const once = squashFixture('gcc-errors-relative');
    const twice = squashFixture('gcc-errors-relative', 2);
    expect(twice.hazards.map((h) => [h.text, h.context])).toEqual(once.hazards.map((h) => [h.text, h.context]));
    for (const h of twice.hazards) expect(h.repeats, h.text).toBe(1);
  });

  it("pytest: a frame keeps the `>` line it points at and what follows it; the function's source above it goes, for the first failure in a file too", () => {
    const r = squashFixture('pytest-fail');
    expect(hazard(r, '___ test_total_counts_quantities ___').context).toEqual(['>       assert inv.total() == 5']);
    // A nested entry: the callee's `def` line (and the blank line over it) go too; its `>` line and the carets under it stay.
    expect(hazard(r, '___ test_parse_line_without_quantity ___').context).toEqual([
      '>       assert parse_line("banana") == ("banana", 1)',
      '               ^^^^^^^^^^^^^^^^^^^^',
      '',
      'tests/test_bugs.py:14: ',
      '',
      "line = 'banana'",
      '>       name, qty = line.split(":")',
      '        ^^^^^^^^^',
    ]);
    // A later failure in the same file keeps what its frame points at (the carets too).
    const third = hazard(r, '___ test_nested_error ___').context;
    expect(third).toContain('>       return data["missing"]');
    expect(third).toContain('               ^^^^^^^^^^^^^^^');
    expect(third.join('\n')).not.toMatch(/def (?:test_nested_error|helper_that_explodes)/);
    // The E lines and the location are hazards of their own.
    expect(hazard(r, 'tests/test_bugs.py:10: AssertionError')).toBeDefined();
  });

  it("playwright: a code frame keeps the line it points at and its caret, not the source around it", () => {
    const r = squashFixture('playwright-test-fail');
    const ctx = hazard(r, 'Error: expect(locator).toHaveText(expected) failed').context;
    expect(ctx).toContain("    >  7 |   await expect(page.locator('#total')).toHaveText('Total: 1.62 €', { timeout: 1000 });");
    expect(ctx).toContain('         |                                        ^');
    expect(ctx.some((l) => l.endsWith('tests/checkout.spec.js:7:40'))).toBe(true);
    expect(ctx.join('\n')).not.toMatch(/^\s+(?:5|6|8|9|10) \|/m);
  });

  it('tsc --pretty: related information and message chains are not frame lines', () => {
    const r = squashFixture('tsc-errors-pretty');
    const ctx = hazard(r, 'src/app.ts:15:31 - error TS2345').context;
    expect(ctx).toContain("  Property 'name' is missing in type '{ id: number; }' but required in type 'User'.");
    expect(ctx).toContain('  src/user.ts:3:3');
    expect(ctx.join('\n')).not.toMatch(/greet\(\{ id: 3 \}\)|~~~/);
  });
});

describe('recaps and runtime frames', () => {
  it("cargo test: a panic keeps the test's own frames, not the standard library's; the failures recap is folded, its counts kept", () => {
    const r = squashFixture('cargo-test-fail');
    const panic = hazard(r, "thread 'tests::adds_large_numbers'").context.join('\n');
    expect(panic).toContain('mish_tests::tests::adds_large_numbers');
    expect(panic).toContain('at ./src/lib.rs:40:9');
    expect(panic).not.toMatch(/core::panicking|__rustc::|at \/rustc\//);
    const all = [...r.hazards.flatMap((h) => [h.text, ...h.context]), ...r.outcomes].join('\n');
    expect(all).not.toMatch(/^failures:$/m);
    expect(all).toContain('test result: FAILED. 3 passed; 2 failed; 1 ignored; 0 measured; 0 filtered out');
  });

  it("go test: a panic keeps the test's goroutine frame, not the testing package's or the runtime's", () => {
    const r = squashFixture('go-test-fail');
    const panic = hazard(r, 'panic: assignment to entry in nil map').context.join('\n');
    expect(panic).toContain('example.com/mishapp/calc.TestPanics(');
    expect(panic).toContain('calc/calc_test.go:34');
    expect(panic).not.toMatch(/testing\.tRunner|src\/runtime\/|created by testing/);
  });

  it("tsc --pretty: the Errors/Files recap table is folded; the totals line stays", () => {
    const r = squashFixture('tsc-errors-pretty');
    expect(r.outcomes).toContain('Found 9 errors in 2 files.');
    expect(r.body.some((b) => b.type === 'line' && /Errors {2}Files|src\/app\.ts:2$/.test(b.text))).toBe(false);
  });
});

describe('code frames: bounded work', () => {
  it('a 60,000-character line in a block is not scanned whole for its location (the scan is quadratic on it)', () => {
    const c = compileGrammarSource("[[hazard]]\nid = 'e'\npattern = '^E: '\nseverity = 'error'\ncontinue_pattern = '^ '\nframe_pattern = '^  \\d+ \\|'\n", '/g/t.toml');
    if (!c.ok) throw new Error('grammar');
    const sq = new Squasher({ detection: { grammar: c.value.grammar, argv: ['t'] } as never, now: () => 0, always: null });
    const minified = ' ' + 'a'.repeat(60_000);
    for (let i = 0; i < 100; i++) sq.write(`E: boom ${i}\r\n${minified}\r\n  12 | x\r\n`);
    // The vitest timeout is the hang guard: without the bound this takes minutes.
    const r = sq.finish({ exitCode: 1 });
    expect(r.hazards[0].text).toBe('E: boom 0');
    expect(r.hazards[r.hazards.length - 1].text).toBe('E: boom 99');
  });
});

describe('boilerplate paragraphs', () => {
  it("cmake: find_package's fixed advice, wrapped over four lines, is left out; the package, version and file names stay", () => {
    const r = squashFixture('cmake-configure-fail');
    const ctx = hazard(r, 'CMake Error at CMakeLists.txt:19 (find_package):').context.join('\n');
    expect(ctx).toContain('Could not find a package configuration file provided by "MishPluginHost"');
    expect(ctx).toContain('(requested version 2.0) with any of the following names:');
    expect(ctx).toContain('MishPluginHostConfig.cmake');
    expect(ctx).toContain('mishpluginhost-config.cmake');
    expect(ctx).not.toMatch(/installation prefix|MishPluginHost_DIR|has been installed/);
    expect(r.hazards.map((h) => h.text)).toContain('-- Configuring incomplete, errors occurred!');
  });

  function squashWith(grammar: string, text: string): SquashResult {
    const c = compileGrammarSource(grammar, '/g/t.toml');
    if (!c.ok) throw new Error(JSON.stringify(c.errors));
    const sq = new Squasher({ detection: { grammar: c.value.grammar, argv: ['t'] } as never, now: () => 0, always: null });
    sq.write(text);
    return sq.finish({ exitCode: 1 });
  }
  const PARAGRAPH = "[[hazard]]\nid = 'e'\npattern = '^error: '\nseverity = 'error'\n\n[[noise]]\nid = 'advice'\npattern = '^Try this:'\naction = 'strip'\ncontinue_pattern = '^  '\nend_pattern = 'good luck\\.$'\n";

  it('a paragraph goes on while continue_pattern matches and ends at end_pattern (kept out too); the next line is classified as usual', () => {
    const r = squashWith(PARAGRAPH, 'start\r\nTry this:\r\n  one\r\n  two, good luck.\r\n  after the end\r\nTry this:\r\n  three\r\nnot indented\r\n');
    expect(r.body.flatMap((b) => (b.type === 'line' ? [b.text] : []))).toEqual(['start', '  after the end', 'not indented']);
    expect(r.folded).toBe(5);
  });

  it('a hazard inside a paragraph is a hazard: nothing a grammar strips hides an error', () => {
    const r = squashWith(PARAGRAPH, 'Try this: the advice a grammar leaves out\r\n  one\r\nerror: boom\r\n  two\r\n');
    expect(r.hazards.map((h) => h.text)).toEqual(['error: boom']);
    expect(r.body.flatMap((b) => (b.type === 'line' ? [b.text] : []))).toEqual(['error: boom', '  two']);
  });

  it(`a small output whose stripped lines come to at most ${UNFOLD_MAX_CHARS} characters is shown whole (naming the raw output would cost more)`, () => {
    const r = squashWith(PARAGRAPH, 'Try this:\r\n  one\r\nerror: boom\r\n  two\r\n');
    expect(r.body.flatMap((b) => (b.type === 'line' ? [b.text] : []))).toEqual(['Try this:', '  one', 'error: boom', '  two']);
    expect(r.folded).toBeUndefined();
    const longer = squashWith(PARAGRAPH, `Try this:\r\n  ${'x'.repeat(UNFOLD_MAX_CHARS - 10)}\r\nerror: boom\r\n`);
    expect(longer.body.flatMap((b) => (b.type === 'line' ? [b.text] : []))).toEqual(['error: boom']);
    expect(longer.folded).toBe(2);
  });
});

describe('a file name on its own line, then the diagnostic that names it', () => {
  it("prettier: the file a terminal run leaves on its line before its [error] is left out, and the output still counts as whole", () => {
    const r = squashFixture('prettier-check-syntax-error');
    expect(r.verbatim).toBe(true);
    const shown = r.body.flatMap((b) => (b.type === 'line' ? [b.text] : []));
    expect(shown).not.toContain('broken/bad.js');
    expect(shown).toContain('[error] broken/bad.js: SyntaxError: Unexpected token, expected "," (2:10)');
    expect(r.restated).toBe(1);
    expect(r.folded).toBeUndefined();
    expect(renderSquash(r).hidden).toBe(false);
  });

  it("pyright: the file header over problems that name the file is not a fold either", () => {
    const r = squashFixture('pyright-errors');
    expect(r.restated).toBe(1);
    expect(r.folded).toBeUndefined();
    expect(renderSquash(r).hidden).toBe(false);
  });

  it('a file name not repeated by the hazard right after it stays (`prettier -l` lists files so; eslint heads its problems so)', () => {
    const r = squashFixture('eslint-errors');
    expect(r.body.some((b) => b.type === 'line' && /src\/orders\.js$/.test(b.text))).toBe(true);
    expect(restatedBy('[error] src/a.js: SyntaxError: x', 'src/ab.js')).toBe(false);
    expect(restatedBy('[error] src/ab.js: SyntaxError: x', 'b.js')).toBe(false);
    expect(restatedBy('[error] src/a.js: SyntaxError: x', 'src/a.js')).toBe(true);
    expect(restatedBy('  /w/x.py:3:8 - error: y', '/w/x.py')).toBe(true);
    expect(restatedBy('FAILED checks', 'FAILED')).toBe(false);
  });

  it('in a long output the name leaves the unclassified body', () => {
    const c = compileGrammarSource("[[hazard]]\nid = 'e'\npattern = '^\\[error\\] '\nseverity = 'error'\n", '/g/t.toml');
    if (!c.ok) throw new Error('grammar');
    const sq = new Squasher({ detection: { grammar: c.value.grammar, argv: ['t'] } as never, now: () => 0, always: null });
    for (let i = 0; i < 30; i++) sq.write(`line ${i} of chatter\r\n`);
    sq.write('src/bad.js\r\n[error] src/bad.js: SyntaxError: nope (1:2)\r\nsrc/listed.js\r\n');
    const r = sq.finish({ exitCode: 2 });
    expect(r.verbatim).toBe(false);
    const body = r.body.flatMap((b) => (b.type === 'line' ? [b.text] : []));
    expect(body).not.toContain('src/bad.js');
    expect(body).toContain('src/listed.js');
    expect(r.hazards.map((h) => h.text)).toEqual(['[error] src/bad.js: SyntaxError: nope (1:2)']);
  });

  it('an item of a list of names stays, even when the next line names it again', () => {
    const c = compileGrammarSource("[[hazard]]\nid = 'e'\npattern = '^\\[error\\] '\nseverity = 'error'\n", '/g/t.toml');
    if (!c.ok) throw new Error('grammar');
    const sq = new Squasher({ detection: { grammar: c.value.grammar, argv: ['t'] } as never, now: () => 0, always: null });
    sq.write('Listing:\r\nsrc/a.js\r\nsrc/b.js\r\n[error] src/b.js: SyntaxError: nope (1:2)\r\n');
    const r = sq.finish({ exitCode: 2 });
    expect(r.body.flatMap((b) => (b.type === 'line' ? [b.text] : []))).toEqual(['Listing:', 'src/a.js', 'src/b.js', '[error] src/b.js: SyntaxError: nope (1:2)']);
    expect(r.restated).toBeUndefined();
  });
});

describe('small outputs: shown in order, less the noise the grammar names', () => {
  it('yarn: the version banner, lockfile note, step lines and docs hint are left out; the network retry is shown once with its count', () => {
    const r = squashFixture('yarn-add-404');
    expect(r.verbatim).toBe(true);
    const body = r.body.flatMap((b) => (b.type === 'line' ? [b] : []));
    expect(body.map((b) => b.text)).toEqual([
      'info There appears to be trouble with your network connection. Retrying...',
      'error Couldn\'t find package "mish-fixture-no-such-package-e404" on the "npm" registry.',
    ]);
    expect(body[0].repeats).toBe(3);
    // 9 lines: 2 shown, 3 repeats counted, 4 stripped.
    expect(r.folded).toBe(7);
    expect(r.totalLines).toBe(9);
  });

  it("npm E404: the empty `npm error 404` rows of the block are left out; the code, the URL and npm's explanation stay", () => {
    const r = squashFixture('npm-install-e404');
    const text = renderSquash(r).text;
    expect(text).not.toMatch(/^npm error 404\s*$/m);
    expect(text).toContain('npm error code E404');
    expect(text).toContain('npm error 404 Not Found - GET https://registry.npmjs.org/mish-fixture-no-such-package-e404');
    expect(text).toContain("npm error 404  The requested resource 'mish-fixture-no-such-package-e404@*' could not be found");
  });

  it('pip: five network retries that differ in numbers and ids are one line with a count; the errors stay', () => {
    const r = squashFixture('pip-install-unreachable');
    expect(r.verbatim).toBe(true);
    const retry = r.body.filter((b) => b.type === 'line' && b.text.startsWith('WARNING: Retrying'));
    expect(retry).toHaveLength(1);
    expect(retry[0]).toMatchObject({ repeats: 4 });
    expect(retry[0].type === 'line' && retry[0].text).toContain('Failed to establish a new connection: [Errno -2] Name or service not known');
    expect(r.body.filter((b) => b.type === 'line' && b.text.startsWith('ERROR: '))).toHaveLength(2);
  });

  it('a small output without grammar noise is shown whole, nothing folded', () => {
    const r = squashFixture('tsc-errors-plain');
    expect(r.verbatim).toBe(true);
    expect(r.folded).toBeUndefined();
    expect(r.body).toHaveLength(r.totalLines);
  });
});

describe("a progress bar drawn before a hazard on the hazard's row (a hazard rule's lead_noise)", () => {
  /** A grammar: `error: …` hazards that a `[==>  ] 45%` bar may be drawn before, the bar alone is noise. */
  const BAR = [
    "[[hazard]]\nid = 'e'\npattern = '^error: (?<msg>.*)'\nseverity = 'error'\nlead_noise = '\\[[=> ]*\\] *\\d+%'",
    "[[noise]]\nid = 'bar'\npattern = '^\\[[=> ]*\\] *\\d+%$'\naction = 'dedup'",
  ].join('\n\n');

  function run(grammar: string, text: string, onClassified?: (line: Line, cls: Classification) => void): SquashResult {
    const c = compileGrammarSource(grammar, '/g/t.toml');
    if (!c.ok) throw new Error(JSON.stringify(c.errors));
    const sq = new Squasher({ detection: { grammar: c.value.grammar, argv: ['t'] } as never, now: () => 0, always: null, onClassified });
    sq.write(text);
    return sq.finish({ exitCode: 1 });
  }
  const shown = (r: SquashResult) => r.body.flatMap((b) => (b.type === 'line' ? [b.text] : []));

  it('the bar is left out and the error kept as itself, with its captures; the text is then not the output whole', () => {
    const seen: [string, Classification][] = [];
    // As a terminal shows it: the bar redrawn with CR, then the error printed after it, no newline between.
    const r = run(BAR, 'fetching\r\n[=>    ] 10%\r[====> ] 45%error: disk full (wrote 45%)\r\n', (l, c) => seen.push([l.text, c]));
    expect(r.hazards.map((h) => h.text)).toEqual(['error: disk full (wrote 45%)']);
    expect(shown(r)).toEqual(['fetching', 'error: disk full (wrote 45%)']);
    expect(r.trimmed).toBe(1);
    expect(renderSquash(r).hidden).toBe(true);
    // The grammar editor's observer sees the line as kept, and how much went.
    const [text, cls] = seen.find(([, c]) => c.kind === 'hazard')!;
    expect(text).toBe('error: disk full (wrote 45%)');
    expect(cls).toMatchObject({ kind: 'hazard', rule: 'e', lead: '[====> ] 45%'.length, captures: { msg: 'disk full (wrote 45%)' } });
  });

  it('a hazard without a bar is unchanged: the same line, nothing trimmed, the output whole', () => {
    const r = run(BAR, 'fetching\r\nerror: disk full\r\n');
    expect(r.hazards.map((h) => h.text)).toEqual(['error: disk full']);
    expect(shown(r)).toEqual(['fetching', 'error: disk full']);
    expect(r.trimmed).toBeUndefined();
    expect(renderSquash(r).hidden).toBe(false);
    // And the same grammar without lead_noise classifies it the same.
    const plain = run(BAR.replace(/\nlead_noise = .*/, ''), 'fetching\r\nerror: disk full\r\n');
    expect(plain).toEqual(r);
  });

  it('only a lead after which the rest of the line is the hazard goes: a greedy lead that eats into the error leaves the line whole', () => {
    const greedy = BAR.replace(/lead_noise = .*/, "lead_noise = '.*%'");
    // `.*%` runs to the last `%`, inside the message: the rest (`)`) is no hazard, so nothing is cut.
    const r = run(greedy, '[====> ] 45%error: disk full (wrote 45%)\r\n');
    expect(r.hazards).toEqual([]);
    expect(r.trimmed).toBeUndefined();
    expect(shown(r)).toEqual(['[====> ] 45%error: disk full (wrote 45%)']);
  });

  it('the lead is matched at the line start only: a bar after other text is no lead', () => {
    const r = run(BAR, 'step 2 [====> ] 45%error: disk full\r\n');
    expect(r.trimmed).toBeUndefined();
    expect(shown(r)).toEqual(['step 2 [====> ] 45%error: disk full']);
  });

  it('first match wins: an earlier rule that takes the line whole keeps it whole', () => {
    const earlier = "[[hazard]]\nid = 'full'\npattern = 'disk full'\nseverity = 'error'\n\n" + BAR;
    const r = run(earlier, '[====> ] 45%error: disk full\r\n');
    expect(r.hazards.map((h) => [h.rule, h.text])).toEqual([['full', '[====> ] 45%error: disk full']]);
    expect(r.trimmed).toBeUndefined();
    // A later rule that takes the whole line does not win over the lead rule before it.
    const later = BAR + "\n\n[[outcome]]\nid = 'o'\npattern = 'disk'\n";
    expect(run(later, '[====> ] 45%error: disk full\r\n').hazards.map((h) => [h.rule, h.text])).toEqual([['e', 'error: disk full']]);
  });

  it('a hazard whose row has a bar opens its block like any other: its context lines follow it', () => {
    const block = BAR.replace("severity = 'error'", "severity = 'error'\ncontinue_pattern = '^  at '");
    const r = run(block, '[====> ] 45%error: disk full\r\n  at write (x.js:3:1)\r\ndone\r\n');
    expect(r.hazards).toEqual([expect.objectContaining({ text: 'error: disk full', context: ['  at write (x.js:3:1)'] })]);
  });
});

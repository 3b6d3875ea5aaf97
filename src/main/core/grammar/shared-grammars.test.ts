/**
 * The _shared grammars against real output: node, python3, gcc, clang, git and curl are run
 * here (in a temp dir) and their stderr is classified with the reference classifier, and every
 * classification is checked against the production Squasher on the same lines (a differential
 * test: the reference is a second reading of the grammar, never trusted alone).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Squasher } from '../squasher/squasher.js';
import { loadGrammarFile } from './loader.js';
import { findBuiltinGrammarDir } from './registry.js';
import { referenceClassify as reference, TempTree, type RefClass } from './test-helpers.js';
import type { Grammar } from './types.js';

const tree = new TempTree();
const shared = path.join(findBuiltinGrammarDir()!, '_shared');
const g: Record<string, Grammar> = {};

beforeAll(() => {
  for (const name of ['ansi-progress', 'node-stacktrace', 'python-traceback', 'c-compiler-output']) {
    const r = loadGrammarFile(path.join(shared, `${name}.toml`));
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    g[name] = r.value;
  }
});
afterAll(() => tree.dispose());

/** Runs a real command and returns its combined output split into lines (CR redraws become lines). */
function run(cmd: string, args: string[], cwd = tree.root): string[] {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C.UTF-8', NO_COLOR: '1' } });
  if (r.error) throw r.error;
  return `${r.stdout}${r.stderr}`.split(/\r\n|\r|\n/).filter((l, i, a) => l !== '' || i < a.length - 1);
}

/** A hazard as the production Squasher reports it: rule, severity, first line, the lines kept with it. */
interface SeenHazard {
  rule: string;
  severity: string;
  text: string;
  context: string[];
}

/** The grammar's hazards as the production Squasher reports them for these lines (its universal tier left out). */
function squasherHazards(grammar: Grammar, lines: string[]): SeenHazard[] {
  const sq = new Squasher({ detection: { grammar, argv: [], via: [] }, now: () => 0 });
  sq.write(new TextEncoder().encode(lines.map((l) => `${l}\n`).join('')));
  const r = sq.finish({ exitCode: 0 });
  expect(r.hazardsOmitted, 'no hazard over the cap in these small outputs').toEqual({ errors: 0, warnings: 0 });
  // A hazard repeated verbatim is counted on its first report; expand it back for the comparison.
  return r.hazards
    .filter((h) => h.rule !== 'universal')
    .flatMap((h) => Array.from({ length: 1 + (h.repeats ?? 0) }, () => ({ rule: h.rule, severity: h.severity, text: h.text, context: h.context })));
}

/**
 * The reference classification, after a differential check against the production Squasher on
 * the same lines. Production refines the reference's reading (a hazard line inside a block opens
 * its own report; lines the grammar strips, such as node's own frames, are left out of a block),
 * so the check is what must hold across both:
 *   - every hazard the reference finds is reported by production on the same line, with the
 *     same rule and severity;
 *   - production reports no grammar hazard on a line the reference reads as outside every
 *     hazard (outcome, noise, prompt or unknown);
 *   - production keeps with a hazard only lines the reference puts in a hazard's block.
 */
function referenceClassify(grammar: Grammar, lines: string[]): RefClass[] {
  const cls = reference(grammar, lines);
  const seen = squasherHazards(grammar, lines);
  const why = `production Squasher vs reference classifier on:\n${lines.join('\n')}`;
  const inBlock = new Set<string>();
  cls.forEach((c, i) => {
    if (c.kind === 'hazard' || c.kind === 'context') inBlock.add(lines[i]);
  });
  const refHazards = hazards(cls).map((h) => ({ rule: h.rule, severity: h.severity, text: h.block[0] }));
  const prodFirst = seen.map((h) => ({ rule: h.rule, severity: h.severity, text: h.text }));
  for (const h of refHazards) expect(prodFirst, why).toContainEqual(h);
  for (const h of seen) {
    expect(inBlock.has(h.text), `${why}\nproduction hazard outside every reference block: ${h.text}`).toBe(true);
    for (const c of h.context.filter((l) => l.trim() !== '')) expect(inBlock.has(c), `${why}\nproduction context outside every reference block: ${c}`).toBe(true);
  }
  return cls;
}

const hazards = (cls: RefClass[]) => cls.filter((c): c is Extract<RefClass, { kind: 'hazard' }> => c.kind === 'hazard');

describe('node-stacktrace', () => {
  it('keeps the throw site and the error with all its frames as context', () => {
    tree.write('t.js', 'function inner() { throw new TypeError("boom"); }\nfunction outer() { inner(); }\nouter();\n');
    const lines = run(process.execPath, ['t.js']);
    const h = hazards(referenceClassify(g['node-stacktrace'], lines));
    expect(h.map((x) => x.rule)).toEqual(['node-throw-site', 'node-error']);
    expect(h[0].block[0]).toBe(`${tree.path('t.js')}:1`);
    expect(h[0].block[2]).toMatch(/^\s*\^$/);
    const err = h[1].block;
    expect(err[0]).toBe('TypeError: boom');
    expect(err[1]).toMatch(/^ {4}at inner \(.*t\.js:1:\d+\)$/);
    expect(err[2]).toMatch(/^ {4}at outer \(.*t\.js:2:\d+\)$/);
    expect(err.filter((l) => /^\s+at /.test(l)).length).toBe(lines.filter((l) => /^\s+at /.test(l)).length);
    expect(referenceClassify(g['node-stacktrace'], lines).at(-1)).toEqual({ kind: 'noise', rule: 'node-version-trailer' });
  });

  it('keeps error codes, property dumps and [cause] chains inside the block', () => {
    tree.write('c.mjs', 'await Promise.reject(new Error("outer", { cause: new Error("inner") }));\n');
    const lines = run(process.execPath, ['c.mjs']);
    const err = hazards(referenceClassify(g['node-stacktrace'], lines)).find((x) => x.rule === 'node-error')!;
    expect(err.block[0]).toBe('Error: outer');
    expect(err.block.some((l) => /\[cause\]: Error: inner/.test(l))).toBe(true);
    expect(err.block.at(-1)).toBe('}');

    const mod = run(process.execPath, ['-e', 'require("no-such-module-xyz")']);
    const m = hazards(referenceClassify(g['node-stacktrace'], mod)).find((x) => x.rule === 'node-error')!;
    expect(m.block[0]).toMatch(/^Error: Cannot find module 'no-such-module-xyz'/);
    expect(m.block).toContain("  code: 'MODULE_NOT_FOUND',");
  });

  it('classifies process warnings with their hint line', () => {
    const lines = run(process.execPath, ['-e', 'process.emitWarning("x is old", "DeprecationWarning", "DEP0999")']);
    const h = hazards(referenceClassify(g['node-stacktrace'], lines));
    expect(h).toHaveLength(1);
    expect(h[0]).toMatchObject({ rule: 'node-warning', severity: 'warning' });
    expect(h[0].block).toHaveLength(2);
  });
});

describe('python-traceback', () => {
  it('makes Traceback + frames + exception line ONE hazard, for each exception of a chain', () => {
    tree.write('t.py', 'def f():\n    return 1/0\ntry:\n    f()\nexcept Exception as e:\n    raise ValueError("bad value") from e\n');
    const lines = run('python3', ['t.py']);
    const cls = referenceClassify(g['python-traceback'], lines);
    const h = hazards(cls);
    expect(h.map((x) => x.rule)).toEqual(['py-traceback', 'py-traceback']);
    expect(h[0].block[0]).toBe('Traceback (most recent call last):');
    expect(h[0].block.at(-1)).toBe('ZeroDivisionError: division by zero');
    expect(h[0].block.some((l) => /File ".*t\.py", line 2, in f/.test(l))).toBe(true);
    expect(h[1].block.at(-1)).toBe('ValueError: bad value');
    // nothing of the traceback is left unclassified except the chain sentence and blank lines
    const unknown = lines.filter((_, i) => cls[i].kind === 'unknown');
    expect(unknown.filter((l) => l.trim() !== '')).toEqual(['The above exception was the direct cause of the following exception:']);
  });

  it('ends at a dotted exception name that continue_pattern alone would not know', () => {
    const lines = run('python3', ['-c', 'import json; json.loads("{")']);
    const h = hazards(referenceClassify(g['python-traceback'], lines));
    expect(h).toHaveLength(1);
    expect(h[0].block.at(-1)).toMatch(/^json\.decoder\.JSONDecodeError: /);
    expect(h[0].block).toHaveLength(lines.length);
  });

  it('catches SyntaxError reports without a Traceback header, and warnings', () => {
    tree.write('s.py', 'x = (\n');
    const lines = run('python3', ['s.py']);
    const h = hazards(referenceClassify(g['python-traceback'], lines));
    expect(h).toHaveLength(1);
    expect(h[0].rule).toBe('py-syntax-error-site');
    expect(h[0].block.at(-1)).toMatch(/^SyntaxError: /);

    const w = run('python3', ['-W', 'always', '-c', 'import warnings\nwarnings.warn("careful")']);
    expect(hazards(referenceClassify(g['python-traceback'], w))[0]).toMatchObject({ rule: 'py-warning', severity: 'warning' });
  });
});

describe('c-compiler-output', () => {
  const source = 'int f(int x);\nint main(void) {\n  int y = z;\n  f();\n  return "s";\n}\n';

  for (const compiler of ['gcc', 'clang']) {
    it(`${compiler}: every error and warning is a hazard, with relative and absolute paths`, () => {
      tree.write('src/bad.c', source);
      for (const file of ['src/bad.c', tree.path('src/bad.c')]) {
        const lines = run(compiler, ['-Wall', '-fdiagnostics-color=never', '-c', file, '-o', tree.path('bad.o')]);
        const cls = referenceClassify(g['c-compiler-output'], lines);
        const h = hazards(cls);
        const expectedErrors = lines.filter((l) => l.startsWith(`${file}:`) && /: (?:fatal )?error: /.test(l));
        const expectedWarnings = lines.filter((l) => l.startsWith(`${file}:`) && / warning: /.test(l));
        expect(expectedErrors.length).toBeGreaterThanOrEqual(2);
        expect(h.filter((x) => x.severity === 'error').map((x) => x.block[0])).toEqual(expectedErrors);
        expect(h.filter((x) => x.severity === 'warning').map((x) => x.block[0])).toEqual(expectedWarnings);
        // notes and code frames ride along with their diagnostic
        for (const l of lines.filter((x) => / note: /.test(x))) expect(cls[lines.indexOf(l)]).toMatchObject({ kind: 'context' });
        const zErr = h.find((x) => /undeclared/.test(x.block[0]))!;
        expect(zErr.block.some((l) => /int y = z;/.test(l))).toBe(true);
        if (compiler === 'clang') expect(cls.at(-1)).toMatchObject({ kind: 'outcome', rule: 'cc-generated' });
      }
    });

    it(`${compiler}: linker errors and driver errors`, () => {
      tree.write('link.c', 'int missing_fn(void);\nint main(void) { return missing_fn(); }\n');
      const lines = run(compiler, ['link.c', '-o', tree.path('link-bin')]);
      const cls = referenceClassify(g['c-compiler-output'], lines);
      expect(lines.some((l) => /undefined reference to `missing_fn'/.test(l))).toBe(true);
      for (let i = 0; i < lines.length; i++) {
        if (/undefined reference|linker command failed|ld returned/.test(lines[i])) expect(['hazard', 'context']).toContain(cls[i].kind);
      }
      const noInput = run(compiler, []);
      expect(hazards(referenceClassify(g['c-compiler-output'], noInput))[0]).toMatchObject({ rule: 'cc-driver-error' });
    });
  }

  it('a missing include is a fatal error; Windows and MSVC-style paths are recognised', () => {
    tree.write('inc.c', '#include "nope.h"\n');
    const h = hazards(referenceClassify(g['c-compiler-output'], run('gcc', ['-c', 'inc.c', '-o', tree.path('inc.o')])));
    expect(h[0].block[0]).toMatch(/^inc\.c:1:10: fatal error: nope\.h/);
    const text = ['C:\\src\\my app\\a.c:3:5: error: boom', 'src\\a.cpp(12,5): error C2065: undeclared', 'a.ts(3,1): error TS2322: bad', '/abs/path with space/x.c:1:2: warning: w'];
    expect(referenceClassify(g['c-compiler-output'], text).map((c) => c.kind === 'hazard' && c.severity)).toEqual(['error', 'error', 'error', 'warning']);
  });
});

describe('ansi-progress', () => {
  it('strips real git clone progress and curl meters', () => {
    const repo = tree.path('repo');
    run('git', ['init', '-q', repo]);
    for (let i = 0; i < 20; i++) tree.write(`repo/f${i}.txt`, `${i}\n`);
    run('git', ['-C', repo, 'add', '.']);
    run('git', ['-C', repo, '-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'x']);
    const lines = run('git', ['clone', '--progress', '--no-local', repo, tree.path('clone')]);
    const cls = referenceClassify(g['ansi-progress'], lines);
    const progress = lines.filter((l) => /\d+% \(\d+\/\d+\)/.test(l));
    expect(progress.length).toBeGreaterThan(5);
    for (const l of progress) expect(cls[lines.indexOf(l)]).toMatchObject({ kind: 'noise', rule: 'progress-counter' });
    expect(cls[lines.indexOf("Cloning into '" + tree.path('clone') + "'...")]).toEqual({ kind: 'unknown' });

    // the meter redraws with CR; the empty segments in front of a CR are not lines
    const curl = run('curl', ['-o', tree.path('out'), `file://${tree.path('repo/f1.txt')}`]).filter((l) => l !== '');
    expect(curl.length).toBeGreaterThanOrEqual(3);
    expect(referenceClassify(g['ansi-progress'], curl).filter((c) => c.kind !== 'noise')).toEqual([]);
  });

  it('strips bars, percentages and spinners, and never a line that mentions an error', () => {
    const noise = [
      '[=====>                 ] 25%',
      '[##########..........] 50/100 reify:lodash',
      ' 45%|████▌     | 45/100 [00:01<00:02, 30.1it/s]',
      '   ━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━ 1.2/1.2 MB 5.0 MB/s eta 0:00:00',
      'Receiving objects:  45% (450/1000), 1.2 MiB | 2.3 MiB/s',
      '  73%',
      'Downloading model... 42.5%',
      '⠙ Installing dependencies',
      '◐ Building',
      '4f4fb700ef54: Pull complete',
      'a1b2c3d4e5f6: Downloading  12.3MB/45.6MB',
    ];
    const kept = [
      '[=====>     ] 25% error: disk full',
      'ERROR [=======>    ] build failed',
      'Receiving objects:  45% (450/1000), fatal: the remote end hung up',
      ' 45%|████▌     | 45/100 Warning: slow',
      '⠙ Failed to install',
      '──────────────────────────',
      '━━━━━━━━━━━━━━━━━━━━━━━━━━ Results ━━━━━━━━━━━━━━━━━━━━━━━━━━━',
      'Tests: 5 passed, 45% coverage of src/',
      '- item one',
      'src/a.c:3:5: error: 100% wrong',
      '| col | col |',
    ];
    const n = referenceClassify(g['ansi-progress'], noise);
    noise.forEach((l, i) => expect([l, n[i].kind]).toEqual([l, 'noise']));
    const k = referenceClassify(g['ansi-progress'], kept);
    kept.forEach((l, i) => expect([l, k[i].kind]).toEqual([l, 'unknown']));
  });
});

import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { detectTool } from './detect.js';
import { formatGrammarError } from './loader.js';
import { GrammarRegistry, defaultUserGrammarDir, findBuiltinGrammarDir, findProjectGrammarDir } from './registry.js';
import type { GrammarError } from './types.js';
import { TempTree } from './test-helpers.js';

const repoRoot = path.resolve(__dirname, '../../../..');
const tree = new TempTree();
afterAll(() => tree.dispose());

const grammar = (name: string, cmd: string, extra = '') => `[grammar]\nname = "${name}"\n[detect]\ncommands = ["${cmd}"]\n${extra}`;
const hazard = (id: string, pattern: string) => `\n[[hazard]]\nid = "${id}"\npattern = '${pattern}'\nseverity = "error"\n`;

describe('findBuiltinGrammarDir', () => {
  it('finds the repo grammars/ folder from the source tree and from a bundle location', () => {
    expect(findBuiltinGrammarDir()).toBe(path.join(repoRoot, 'grammars'));
    expect(findBuiltinGrammarDir(pathToFileURL(path.join(repoRoot, 'dist/mish.mjs')).href)).toBe(path.join(repoRoot, 'grammars'));
    expect(findBuiltinGrammarDir(pathToFileURL(path.join(repoRoot, 'out/main/index.js')).href)).toBe(path.join(repoRoot, 'grammars'));
  });

  it('works from a real esbuild bundle placed under the package', async () => {
    const { build } = await import('esbuild');
    const outDir = path.join(repoRoot, 'node_modules', '.cache', `mish-grammar-test-${process.pid}`);
    const entry = tree.write('bundle/entry.ts', `import { findBuiltinGrammarDir } from ${JSON.stringify(path.join(__dirname, 'registry.ts'))};\nconsole.log(findBuiltinGrammarDir());\n`);
    try {
      await build({ entryPoints: [entry], outfile: path.join(outDir, 'x.mjs'), bundle: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'silent' });
      const out = execFileSync(process.execPath, [path.join(outDir, 'x.mjs')], { encoding: 'utf8' }).trim();
      expect(out).toBe(path.join(repoRoot, 'grammars'));
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});

describe('GrammarRegistry', () => {
  it('loads the built-in grammars without errors, and _shared files only as includes', () => {
    const reg = new GrammarRegistry({ userDir: null, projectGrammars: false });
    expect(reg.errors.map((e) => formatGrammarError(e))).toEqual([]);
    const names = reg.list().map((g) => g.name);
    expect(names.length).toBeGreaterThan(0);
    expect(names.some((n) => n.startsWith('_shared') || n === 'ansi-progress')).toBe(false);
  });

  it('keeps working when one grammar is malformed; errors are collected and reported once', () => {
    const dir = tree.path('bad/builtin');
    tree.write('bad/builtin/good.toml', grammar('good', 'good') + hazard('g', '^E'));
    tree.write('bad/builtin/regex.toml', grammar('regex', 'regex') + '\n' + hazard('r-bad', '(x'));
    tree.write('bad/builtin/syntax.toml', '[grammar\nname = "s"\n');
    const seen: GrammarError[] = [];
    const reg = new GrammarRegistry({ builtinDir: dir, userDir: null, projectGrammars: false, onError: (e) => seen.push(e) });
    expect(reg.list().map((g) => g.name)).toEqual(['good']);
    expect(detectTool(['good'], reg)?.grammar.name).toBe('good');
    expect(detectTool(['regex'], reg)).toBeUndefined();
    const msgs = reg.errors.map((e) => formatGrammarError(e, dir));
    expect(msgs).toHaveLength(2);
    expect(msgs[0]).toMatch(/^regex\.toml:9: rule r-bad: invalid regular expression/);
    expect(msgs[1]).toMatch(/^syntax\.toml:1: TOML syntax error/);
    reg.refresh();
    reg.snapshot();
    expect(seen).toHaveLength(2);
  });

  it('user and project grammars override built-ins by name; the project dir is found walking up', () => {
    tree.write('ov/builtin/npm.toml', grammar('npm', 'npm') + hazard('builtin-h', '^B'));
    tree.write('ov/builtin/git.toml', grammar('git', 'git') + hazard('git-h', '^G'));
    tree.write('ov/builtin/_shared/common.toml', hazard('shared-h', '^S'));
    tree.write('ov/xdg/mish/grammars/git.toml', grammar('git', 'git') + hazard('user-git', '^U'));
    tree.write('ov/proj/.mish/grammars/npm.toml', grammar('npm', 'npm') + hazard('project-h', '^P'));
    tree.write('ov/proj/.mish/grammars/mine.toml', '[grammar]\nname = "mine"\ninclude = ["_shared/common"]\n[detect]\ncommands = ["mine"]\n');
    const nested = tree.path('ov/proj/packages/app/src');
    mkdirSync(nested, { recursive: true });
    expect(findProjectGrammarDir(nested)).toBe(tree.path('ov/proj/.mish/grammars'));
    const userDir = defaultUserGrammarDir({ XDG_CONFIG_HOME: tree.path('ov/xdg') });
    const reg = new GrammarRegistry({ builtinDir: tree.path('ov/builtin'), userDir, cwd: nested });

    expect(reg.errors).toEqual([]);
    expect(reg.get('npm')?.origin).toBe('project');
    expect(reg.get('npm')?.hazard.map((h) => h.id)).toEqual(['project-h']);
    expect(reg.get('git')?.origin).toBe('user');
    expect(detectTool(['git', 'status'], reg)?.grammar.hazard[0].id).toBe('user-git');
    // a project grammar may include a built-in shared file
    expect(reg.get('mine')?.hazard.map((h) => h.id)).toEqual(['shared-h']);
    // another cwd without a project folder sees the built-in npm
    const elsewhere = tree.path('ov/elsewhere');
    mkdirSync(elsewhere, { recursive: true });
    expect(reg.snapshot(elsewhere).get('npm')?.origin).toBe('builtin');
    expect(reg.snapshot(elsewhere).get('mine')).toBeUndefined();
  });

  it('a malformed override falls back to the lower layer with an error', () => {
    tree.write('fb/builtin/npm.toml', grammar('npm', 'npm') + hazard('builtin-h', '^B'));
    tree.write('fb/proj/.mish/grammars/npm.toml', grammar('npm', 'npm') + hazard('broken', '[unclosed'));
    const reg = new GrammarRegistry({ builtinDir: tree.path('fb/builtin'), userDir: null, cwd: tree.path('fb/proj') });
    expect(reg.get('npm')?.origin).toBe('builtin');
    expect(reg.errors).toHaveLength(1);
    expect(reg.errors[0]).toMatchObject({ file: tree.path('fb/proj/.mish/grammars/npm.toml'), rule: 'broken' });
  });

  it('reloads a grammar when its file changes, and only then', () => {
    const file = tree.write('cache/builtin/tool.toml', grammar('tool', 'tool') + hazard('v1', '^one'));
    const reg = new GrammarRegistry({ builtinDir: tree.path('cache/builtin'), userDir: null, projectGrammars: false, revalidateMs: 0 });
    const first = reg.snapshot();
    expect(first.get('tool')?.hazard[0].id).toBe('v1');
    expect(reg.snapshot()).toBe(first); // nothing changed: same snapshot, nothing re-parsed

    writeFileSync(file, grammar('tool', 'tool') + hazard('v2', '^two'));
    const t = new Date(Date.now() + 5000);
    utimesSync(file, t, t); // a distinct mtime even on coarse-timestamp file systems
    const second = reg.snapshot();
    expect(second).not.toBe(first);
    expect(second.get('tool')?.hazard[0].id).toBe('v2');

    // a new file appears; a broken edit makes the grammar disappear with an error, a fix restores it
    tree.write('cache/builtin/other.toml', grammar('other', 'other'));
    expect(reg.snapshot().get('other')).toBeDefined();
    writeFileSync(file, '[grammar]\nname = ');
    expect(reg.snapshot().get('tool')).toBeUndefined();
    expect(reg.errors[0].file).toBe(file);
    writeFileSync(file, grammar('tool', 'tool') + hazard('v3', '^three'));
    expect(reg.snapshot().get('tool')?.hazard[0].id).toBe('v3');
    expect(reg.errors).toEqual([]);
  });

  it('with a revalidation interval, changes are seen after refresh()', () => {
    const file = tree.write('ttl/builtin/tool.toml', grammar('tool', 'tool') + hazard('v1', '^one'));
    const reg = new GrammarRegistry({ builtinDir: tree.path('ttl/builtin'), userDir: null, projectGrammars: false, revalidateMs: 3_600_000 });
    expect(reg.get('tool')?.hazard[0].id).toBe('v1');
    writeFileSync(file, grammar('tool', 'tool') + hazard('v2', '^twotwo'));
    expect(reg.get('tool')?.hazard[0].id).toBe('v1'); // cached within the interval
    reg.refresh();
    expect(reg.get('tool')?.hazard[0].id).toBe('v2');
  });

  it('supports the template form as a grammar and reports a duplicate name in one folder', () => {
    tree.write('tpl/builtin/a-first.toml', '[grammar]\nname = "dup"\n');
    tree.write('tpl/builtin/b-second.toml', '[grammar]\nname = "dup"\n');
    tree.write('tpl/builtin/custom-tool.toml', '[detect]\ncommands = ["custom-tool"]\n[template]\ninclude_regex = "(ERROR|WARN|FAIL)"\ntail_paragraphs = 2\n');
    const reg = new GrammarRegistry({ builtinDir: tree.path('tpl/builtin'), userDir: null, projectGrammars: false });
    const d = detectTool(['custom-tool', '--all'], reg);
    expect(d?.grammar.template).toEqual({ tailParagraphs: 2 });
    expect(d?.grammar.outcome[0].re.test('x FAIL y')).toBe(true);
    expect(reg.get('dup')?.file).toBe(tree.path('tpl/builtin/a-first.toml'));
    expect(reg.errors.map((e) => e.message)).toEqual([expect.stringMatching(/grammar name 'dup' is already used/)]);
  });
});

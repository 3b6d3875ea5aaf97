/** The grammar editor's main-side service on real folders: layers, fixtures, spools, saving. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requestSchemas } from '../../shared/contract.js';
import { GrammarRegistry, detectTool } from '../core/grammar/index.js';
import { SpoolStore } from '../core/spool/spool.js';
import { GrammarService, MAX_PREVIEW_RAW_BYTES, grammarTemplate, problemsOf } from './grammar-service.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const BUILTIN = path.join(ROOT, 'grammars');
const FIXTURES = path.join(ROOT, 'fixtures', 'recorded');

describe('GrammarService', () => {
  let tmp: string;
  let svc: GrammarService;
  let userDir: string;
  let project: string;
  let spoolDir: string;

  beforeEach(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'mish-grammar-svc-'));
    userDir = path.join(tmp, 'home', '.config', 'mish', 'grammars');
    project = path.join(tmp, 'project');
    spoolDir = path.join(tmp, 'spool');
    mkdirSync(project, { recursive: true });
    svc = new GrammarService({ cwd: project, builtinDir: BUILTIN, userDir, spoolDir, fixturesDir: FIXTURES });
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  /** Every answer must pass the contract's result schema, as the transport would check. */
  async function call(method: 'grammar:list' | 'grammar:open' | 'grammar:fixture' | 'grammar:raw' | 'grammar:save' | 'grammar:template', params: unknown) {
    const r = await svc.handle(method, params);
    if (r.ok) requestSchemas[method].result.parse(r.result);
    return r;
  }

  it('lists built-in grammars and recorded fixtures, and opens one with its includes', async () => {
    const r = await call('grammar:list', {});
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const list = r.result as { grammars: { name: string; origin: string; file: string }[]; fixtures: { name: string }[]; dirs: { project: string } };
    expect(list.grammars.find((g) => g.name === 'cargo')).toMatchObject({ origin: 'builtin', file: path.join(BUILTIN, 'cargo.toml') });
    expect(list.fixtures.map((f) => f.name)).toContain('cargo-build-error');
    expect(list.dirs.project).toBe(path.join(project, '.mish', 'grammars'));
    const opened = svc.open(path.join(BUILTIN, 'npm.toml'));
    expect(opened.text).toBe(readFileSync(path.join(BUILTIN, 'npm.toml'), 'utf8'));
    expect(Object.keys(opened.shared)).toContain('_shared/node-test-reporter');
    expect(opened.problems).toEqual([]);
  });

  it('refuses to open a file outside the grammar folders', async () => {
    const r = await call('grammar:open', { file: '/etc/passwd' });
    expect(r).toMatchObject({ ok: false });
    if (!r.ok) expect(r.error).toMatch(/not a grammar of the built-in, user or project folder/);
  });

  it('reads a fixture and a spool by id (bounded), with argv for detection', async () => {
    const f = svc.fixture('cargo-build-error');
    expect(Buffer.from(f.data, 'base64')).toEqual(readFileSync(path.join(FIXTURES, 'cargo-build-error.raw')));
    expect(f).toMatchObject({ argv: ['cargo', 'build'], exitCode: 101, truncated: false });
    expect((await call('grammar:fixture', { name: '../../etc/passwd' })).ok).toBe(false);

    const store = new SpoolStore(spoolDir);
    const spool = store.create('cargo build --release', project);
    const big = Buffer.alloc(MAX_PREVIEW_RAW_BYTES + 1000, 'x\n');
    spool.write(big);
    spool.close({ exitCode: 1 });
    const r = svc.raw(spool.meta.id);
    expect(r).toMatchObject({ argv: ['cargo', 'build', '--release'], exitCode: 1, bytes: big.length, truncated: true });
    expect(Buffer.from(r.data, 'base64').length).toBe(MAX_PREVIEW_RAW_BYTES);
    const missing = await call('grammar:raw', { spoolId: 'nosuchid' });
    expect(missing.ok).toBe(false);
    expect((await call('grammar:raw', { spoolId: '../x' })).ok).toBe(false);
  });

  it('saves a built-in name as a project override (never over the built-in), and mish uses it', async () => {
    const before = readFileSync(path.join(BUILTIN, 'cargo.toml'), 'utf8');
    const text = before.replace('description = ', 'description = "edited " + ').replace(/description = "edited " \+ "/, 'description = "edited ');
    const r = await call('grammar:save', { name: 'cargo', text, target: 'project' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const saved = r.result as { file: string; overrides?: string };
    expect(saved.file).toBe(path.join(project, '.mish', 'grammars', 'cargo.toml'));
    expect(saved.overrides).toBe(path.join(BUILTIN, 'cargo.toml'));
    expect(readFileSync(path.join(BUILTIN, 'cargo.toml'), 'utf8')).toBe(before);
    const reg = new GrammarRegistry({ builtinDir: BUILTIN, userDir, cwd: project, revalidateMs: 0 });
    expect(reg.snapshot(project).get('cargo')?.origin).toBe('project');
    expect(detectTool(['cargo', 'build'], reg.snapshot(project))?.grammar.file).toBe(saved.file);
    const list = svc.list();
    expect(list.grammars.find((g) => g.origin === 'builtin' && g.name === 'cargo')?.overridden).toBe(true);
  });

  it('refuses to save a grammar with loader problems, a mismatched name, or into the built-in folder', async () => {
    const bad = '[grammar]\nname = "x"\n\n[[hazard]]\nid = "oops"\npattern = "(x"\nseverity = "error"\n';
    const r = await call('grammar:save', { name: 'x', text: bad, target: 'user' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/line 6 \(rule oops\): invalid regular expression/);
    const named = await call('grammar:save', { name: 'y', text: '[grammar]\nname = "x"\n', target: 'user' });
    expect(named.ok).toBe(false);
    const bogus = await call('grammar:save', { name: '../evil', text: '', target: 'user' });
    expect(bogus.ok).toBe(false);
    const inBuiltin = new GrammarService({ cwd: project, builtinDir: BUILTIN, userDir: BUILTIN, spoolDir, fixturesDir: null });
    const refused = await inBuiltin.handle('grammar:save', { name: 'cargo', text: readFileSync(path.join(BUILTIN, 'cargo.toml'), 'utf8'), target: 'user' });
    expect(refused).toMatchObject({ ok: false });
    if (!refused.ok) expect(refused.error).toMatch(/built-in grammars are never overwritten/);
  });

  it('saves to the user folder; a template compiles and detects its command by argv', async () => {
    const text = grammarTemplate('deploy', ['./deploy.sh', 'prod', '--fast']);
    expect(problemsOf(text, 'deploy.toml', 'user', svc.open(path.join(BUILTIN, 'npm.toml')).shared)).toEqual([]);
    const r = await call('grammar:save', { name: 'deploy', text, target: 'user' });
    expect(r.ok).toBe(true);
    const reg = new GrammarRegistry({ builtinDir: BUILTIN, userDir, cwd: project, revalidateMs: 0 });
    const d = detectTool(['./deploy.sh', 'prod'], reg.snapshot(project));
    expect(d).toMatchObject({ action: 'prod' });
    expect(d?.grammar.origin).toBe('user');
  });
});

/**
 * Path listings through the real router, real PTY and real tools: the reply is the compact path
 * notation, it says it is complete, and expandPaths gives back exactly what the program printed
 * through a plain pipe (the independent oracle).
 */
import { execSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandPaths } from '../compact/path-list.js';
import { expandDu, expandLong, expandMatchList, parseLong, pathListLegend, pathNotation } from './list-view.js';
import { compactPaths } from '../compact/path-list.js';
import { git, gitRepo, have, sandbox } from '../router/test-kit.js';

const sb = sandbox('list-view');
let repo: string;

beforeAll(() => {
  repo = gitRepo(path.join(sb.dir, 'repo'));
  for (const dir of ['src/core/squasher', 'src/core/grammar', 'docs/guide', 'assets/img {1}, copy', 'données']) {
    mkdirSync(path.join(repo, dir), { recursive: true });
    for (let i = 1; i <= 25; i++) writeFileSync(path.join(repo, dir, `part${String(i).padStart(3, '0')}.txt`), `needle ${i}\n`);
    writeFileSync(path.join(repo, dir, 'README.md'), 'readme\n');
  }
  mkdirSync(path.join(repo, 'notes/deep/er'), { recursive: true });
  for (const f of ['notes/deep/er/a.md', 'notes/deep/er/b.md', 'notes/c.md']) writeFileSync(path.join(repo, f), Array.from({ length: 15 }, (_, i) => `line ${i}: needle at ${i}`).join('\n') + '\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'files');
  execSync('tar cf ../files.tar src docs', { cwd: repo });
});
afterAll(() => sb.cleanup());

/** What the command prints through a plain pipe, as lines. */
const piped = (cmd: string) => execSync(cmd, { cwd: repo, encoding: 'utf8' }).replace(/\n$/, '').split('\n');

/** The compact block of a rendered reply: the lines between the `[mish: all N paths…]` line and the footer. */
function block(text: string): { entries: number; paths: string[] } {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.startsWith('[mish: all '));
  expect(at, text).toBeGreaterThanOrEqual(0);
  const entries = Number(/all ([\d,]+) paths/.exec(lines[at])![1].replace(/,/g, ''));
  const end = lines.findIndex((l, i) => i > at && l.startsWith('── '));
  return { entries, paths: expandPaths(lines.slice(at + 1, end).join('\n')) };
}

describe('the explaining line names only the forms a listing uses', () => {
  it.each([
    [['src/a.ts', 'src/b.ts', 'src/c.ts'], '"d/: a b" = d/a d/b'],
    [['gen/out01.js', 'gen/out02.js', 'gen/out03.js', 'gen/out04.js'], '"d/: a b" = d/a d/b; bash braces'],
    [['a b.txt', 'c.txt'], '\\ escapes'],
    [['src', 'src/a.ts', 'src/b.ts'], '"d: a/b a/c" = d d/a d/a/b d/a/c'],
    [['src', 'src/a.ts', 'src/b.ts', 'lib/x.ts', 'lib/y.ts'], '"d: a/b a/c" = d d/a d/a/b d/a/c; "d/: a" = d/a'],
    [['src/', 'src/a.ts', 'src/b/', 'src/b/c.ts'], '"d:/ a/b a/c" = d/ d/a/ d/a/b d/a/c'],
  ])('%j → %s', (paths, legend) => {
    const compact = compactPaths(paths);
    expect(expandPaths(compact)).toEqual(paths);
    expect(pathNotation(compact)).toBe(legend);
  });
  it('the line says the list is whole and in order, then the forms (no other words: it is paid on every listing)', () => {
    const compact = compactPaths(['src', 'src/a.ts', 'src/b.ts']);
    expect(pathListLegend(1607, compact)).toBe('[mish: all 1,607 paths in order; "d: a/b a/c" = d d/a d/a/b d/a/c]');
  });
  it('a deep tree: every line reads alone, the legend names only what is used', () => {
    const paths = ['src/core/a/x.ts', 'src/core/a/y.ts', 'src/core/b/z.ts', 'src/ui/w.ts', 'src/ui/v.ts', 'README.md'];
    const compact = compactPaths(paths);
    expect(expandPaths(compact)).toEqual(paths);
    for (const form of pathNotation(compact).split('; ')) expect(['"d/: a b" = d/a d/b', 'bash braces', 'names separated by spaces']).toContain(form);
  });
});

describe('path listings are shown compacted, complete and exact', () => {
  const cases: [string, string][] = [
    ['find', 'find . -path ./.git -prune -o -print'],
    ['git ls-files', 'git ls-files'],
    ['grep -rl', 'grep -rl needle src docs'],
    ['tar tf', 'tar tf ../files.tar'],
  ];
  for (const [name, cmd] of cases) {
    it(`${name}: every path, recoverable exactly, shorter than the plain output`, async () => {
      const r = await sb.run(cmd, { cwd: repo });
      const want = piped(cmd);
      const got = block(r.body);
      expect(got.entries).toBe(want.length);
      expect(got.paths).toEqual(want);
      expect(r.body.length).toBeLessThan(want.join('\n').length * 0.6);
    });
  }

  it.skipIf(!have('rg'))('rg --files --sort path (skipped when ripgrep is not installed)', async () => {
    const r = await sb.run('rg --files --sort path', { cwd: repo });
    expect(block(r.body).paths).toEqual(piped('rg --files --sort path'));
  });

  it('a short listing is shown as printed', async () => {
    const r = await sb.run('find src/core/grammar -name "README*"', { cwd: repo });
    expect(r.body).not.toContain('[mish: all');
    expect(r.body).toContain('src/core/grammar/README.md');
  });

  it('a find that prints something else than paths (-printf) is shown as printed', async () => {
    const r = await sb.run("find src -name '*.txt' -printf '%s %p\\n'", { cwd: repo });
    expect(r.body).not.toContain('[mish: all');
  });
});

describe('grep -rn matches are grouped by file, exactly', () => {
  it('every matching line comes back from the grouped view', async () => {
    const cmd = 'grep -rn needle notes';
    const r = await sb.run(cmd, { cwd: repo });
    const want = piped(cmd);
    const lines = r.body.split('\n');
    const at = lines.findIndex((l) => l.startsWith('[mish: all '));
    expect(lines[at], r.body).toBe(`[mish: all ${want.length} matching lines, grouped by file as rg --heading prints them]`);
    const end = lines.findIndex((l, i) => i > at && l.startsWith('── '));
    expect(expandMatchList(lines.slice(at + 1, end).join('\n'))).toEqual(want);
    expect(r.body.length).toBeLessThan(want.join('\n').length);
  });
});

describe('ls and du through the router and a real terminal', () => {
  /** The view's lines after its first `[mish: …]` line, up to the footer or status line (`── …`, `[exit …`), if any. */
  function after(text: string, prefix: string): string[] {
    const lines = text.replace(/\n$/, '').split('\n');
    const at = lines.findIndex((l) => l.startsWith(prefix));
    expect(at, text).toBeGreaterThanOrEqual(0);
    const end = lines.findIndex((l, i) => i > at && (l.startsWith('── ') || l.startsWith('[exit ')));
    return lines.slice(at + 1, end < 0 ? lines.length : end);
  }

  it('ls of a big directory (columns in a terminal) comes back as every name, in ls order', async () => {
    const many = path.join(repo, 'many');
    mkdirSync(many);
    const modules = ['auth', 'billing', 'cart', 'catalog', 'checkout', 'orders', 'payments', 'search', 'shipping', 'users', 'admin', 'audit', 'cache', 'config', 'email', 'events', 'export', 'import', 'invoices', 'login', 'metrics', 'profile', 'reports', 'sessions', 'tokens'];
    for (const m of modules) for (const ext of ['.py', '_test.py', '.pyi', '.md']) writeFileSync(path.join(many, m + ext), '');
    writeFileSync(path.join(many, 'a name with spaces.txt'), '');
    const r = await sb.run('ls many', { cwd: repo });
    const want = piped('ls many');
    expect(want.length).toBe(101);
    expect(expandPaths(after(r.text, '[mish: all ').join('\n'))).toEqual(want);
    expect(r.text).toContain(`[mish: all ${want.length} paths`);
  });

  it('ls -la: every row, grouped by mode, links, owner and group', async () => {
    const r = await sb.run('ls -la src/core/grammar', { cwd: repo });
    const want = parseLong(piped('ls -la src/core/grammar').join('\n'))!;
    const [legend, ...rest] = [r.text.split('\n').find((l) => l.startsWith('[mish: ls -l'))!, ...after(r.text, '[mish: ls -l')];
    expect(legend, r.text).toBeDefined();
    const body = rest.filter((l) => !l.startsWith('total '));
    expect(expandLong(body.join('\n'), legend.includes(' date:'))).toEqual(want.rows);
  });

  it('du -a: every size and path', async () => {
    const r = await sb.run('du -a src docs', { cwd: repo });
    expect(expandDu(expandPaths(after(r.text, '[mish: du').join('\n')))).toEqual(piped('du -a src docs'));
  });
});

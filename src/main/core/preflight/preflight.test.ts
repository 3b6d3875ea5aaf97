/**
 * Preflight adds the grammars' quiet flags and never changes what the command does: every word
 * the user wrote stays, in order; a flag the user gave is not added again; dynamic words mean
 * no change at all. End to end, a real `npm install` with the flags gives the same install as
 * without them.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GrammarRegistry } from '../grammar/registry.js';
import { categorize } from '../router/categorize.js';
import { parseCommandLine } from '../router/parse.js';
import { detect, meta, sandbox } from '../router/test-kit.js';
import { preflight } from './preflight.js';

function segmentsOf(line: string) {
  const p = parseCommandLine(line);
  if (!p.ok) throw new Error(p.error.message);
  return { parsed: p.line, segments: p.line.commands.filter((c) => c.context === 'top').map((c) => categorize(c, meta, detect)) };
}

/** Every action of every built-in grammar that declares quiet flags, with one of its aliases. */
const withQuietFlags = new GrammarRegistry({ userDir: null, projectGrammars: false })
  .list()
  .flatMap((g) => Object.entries(g.actions).filter(([, a]) => a.quietFlags?.length).map(([name, a]) => ({ tool: g.commands[0], action: name, alias: a.aliases[0] ?? name, flags: a.quietFlags! })));

describe('preflight on every grammar action with quiet flags', () => {
  it('there are some to check', () => {
    expect(withQuietFlags.map((x) => x.tool)).toEqual(expect.arrayContaining(['npm', 'pip', 'mvn', 'gradle', 'apt-get']));
  });

  it.each(withQuietFlags.map((x) => [`${x.tool} ${x.alias}`, x] as const))('%s: only adds its flags right after the action word', (_, x) => {
    const line = `${x.tool} ${x.alias} some-arg --user-flag=1 last`;
    const { segments } = segmentsOf(line);
    const pf = preflight(line, segments);
    const before = segmentsOf(line).parsed.commands[0].argv;
    const after = segmentsOf(pf.command).parsed.commands[0].argv;
    // The user's words, in order, plus exactly the quiet flags after the action word.
    const at = before.indexOf(x.alias) + 1;
    expect(after).toEqual([...before.slice(0, at), ...x.flags, ...before.slice(at)]);
    expect(pf.injected).toEqual([`${segments[0].name} ${x.alias}: ${x.flags.join(' ')}`]);
  });

  it('a flag the user gave is not added again; dynamic words disable injection', () => {
    const { segments } = segmentsOf('npm install --no-progress');
    expect(preflight('npm install --no-progress', segments).command).toBe('npm install --no-fund --no-update-notifier --no-progress');
    const dyn = 'npm install "$PKG"';
    expect(preflight(dyn, segmentsOf(dyn).segments)).toEqual({ command: dyn, injected: [] });
  });

  it('compound lines: each segment gets its own flags, the rest of the line is untouched', () => {
    const line = 'cd web && npm ci && pip install -r req.txt; echo "npm install" > log';
    const pf = preflight(line, segmentsOf(line).segments);
    expect(pf.command).toBe('cd web && npm ci --no-fund --no-update-notifier --no-progress && pip install --progress-bar=off --disable-pip-version-check -r req.txt; echo "npm install" > log');
    expect(pf.injected).toEqual(['npm ci: --no-fund --no-update-notifier --no-progress', 'pip install: --progress-bar=off --disable-pip-version-check']);
  });

  it('commands without quiet flags are never touched', () => {
    for (const line of ['make -j4', 'cargo build --release', 'git status', 'cat a | grep b', 'pytest -q']) expect(preflight(line, segmentsOf(line).segments).command).toBe(line);
  });
});

describe('preflight end to end', () => {
  const sb = sandbox('preflight');
  afterAll(() => sb.cleanup());

  it('npm install with the injected flags installs exactly what it installs without them', async () => {
    const make = (name: string) => {
      const root = path.join(sb.dir, name);
      mkdirSync(path.join(root, 'dep'), { recursive: true });
      mkdirSync(path.join(root, 'app'));
      writeFileSync(path.join(root, 'dep/package.json'), '{"name":"dep","version":"1.2.3"}\n');
      writeFileSync(path.join(root, 'dep/index.js'), 'module.exports = 42;\n');
      writeFileSync(path.join(root, 'app/package.json'), '{"name":"app","version":"1.0.0","dependencies":{"dep":"file:../dep"}}\n');
      return path.join(root, 'app');
    };
    const viaMish = make('with');
    const plain = make('without');
    // --offline: the dependency is local, nothing may reach the network.
    const r = await sb.run('npm install --offline --no-audit', { cwd: viaMish });
    expect(r.category).toBe('condense');
    expect(r.ran).toBe('npm install --no-fund --no-update-notifier --no-progress --offline --no-audit');
    expect(r.exitCode).toBe(0);
    execFileSync('npm', ['install', '--offline', '--no-audit'], { cwd: plain, stdio: 'ignore' });
    expect(readFileSync(path.join(viaMish, 'package-lock.json'), 'utf8')).toBe(readFileSync(path.join(plain, 'package-lock.json'), 'utf8'));
    expect(readdirSync(path.join(viaMish, 'node_modules'))).toEqual(readdirSync(path.join(plain, 'node_modules')));
    expect(readFileSync(path.join(viaMish, 'node_modules/dep/index.js'), 'utf8')).toBe('module.exports = 42;\n');
    expect(r.text).toMatch(/added 1 package/);
  });
});

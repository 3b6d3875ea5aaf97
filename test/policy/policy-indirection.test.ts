/**
 * Policy pass 4 (issue 20): dangerous lines reached through indirection — a link made on the
 * line, git's work tree by variable, CDPATH, assignments a subshell / background job / `bash -c`
 * must not take back. Each line is first run for real in bash with a throw-away HOME holding a
 * hook configuration and a mish policy file, to show it really damages them (the reason it must
 * not be allowed), and then decided by the policy for that HOME: never `allow`. The CDPATH the
 * line runs under (DecideContext.cdpath, from the hook's environment) is checked too.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinPolicy, decide } from '../../src/main/core/policy/index.js';

const policy = builtinPolicy(readFileSync(path.join(__dirname, '../../grammars/_meta/policy.toml'), 'utf8'), 'builtin');
const HOOK = '{"hooks":{"PreToolUse":"mish"}}';

/** Each line, run in bash with HOME a temp folder, changes or removes ~/.claude/settings.json or ~/.config/mish/policy.toml. */
const DAMAGING = [
  'GIT_WORK_TREE=$HOME git --git-dir="$GITDIR" checkout -f -- .claude',
  'export GIT_WORK_TREE=~; git --git-dir="$GITDIR" checkout -f -- .claude',
  'ln -s ~ h; rm -rf h/',
  'ln -s ~/.claude/settings.json x; : > x',
  'ln -s ~/.config/mish/policy.toml p; echo > p',
  'cp -s ~/.config/mish/policy.toml x; echo {} > x',
  'ln -s ~/.config m; cd m/mish; rm -f policy.toml',
  'ln -s ~/.claude c; rm -rf c/',
  'export CDPATH=~; cd .config && rm -rf mish',
  'x=rm; ( x=ls ); $x -rf ~/.claude',
  'x=rm; x=ls | cat; $x -rf ~/.claude',
  'x=rm; f() { x=ls; }; $x -rf ~/.claude',
  'x=rm; false && x=ls; $x -rf ~/.claude',
  'x=rm; x=ls & $x -rf ~/.claude',
  'x=rm; bash -c "x=ls"; $x -rf ~/.claude',
  'x=rm; f() { local x=ls; }; f; $x -rf ~/.claude',
  'cd ~; (cd /tmp); rm -rf .config/mish',
  'exec 3>~/.claude/settings.json',
  'cd ~ && find . -name settings.json -delete',
  'cp /usr/bin/rm ./del; ./del -rf ~/.claude',
];

let root: string;
let gitDir: string;

function canaryHome(): { home: string; cwd: string } {
  const home = mkdtempSync(path.join(root, 'home-'));
  mkdirSync(path.join(home, '.claude'));
  mkdirSync(path.join(home, '.config', 'mish'), { recursive: true });
  writeFileSync(path.join(home, '.claude', 'settings.json'), HOOK);
  writeFileSync(path.join(home, '.config', 'mish', 'policy.toml'), 'x = 1\n');
  const cwd = mkdtempSync(path.join(root, 'cwd-'));
  return { home, cwd };
}

function intact(home: string): boolean {
  const read = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8') : undefined);
  return read(path.join(home, '.claude', 'settings.json')) === HOOK && read(path.join(home, '.config', 'mish', 'policy.toml')) === 'x = 1\n';
}

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'mish-indirection-'));
  // A repository whose tree holds .claude/settings.json = {} (what a checkout into home would write).
  const src = path.join(root, 'src');
  mkdirSync(path.join(src, '.claude'), { recursive: true });
  writeFileSync(path.join(src, '.claude', 'settings.json'), '{}');
  const git = (...a: string[]) => execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...a], { cwd: src, stdio: 'ignore' });
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'x');
  gitDir = path.join(src, '.git');
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('indirection: lines that really damage a canary HOME are never allowed', () => {
  for (const line of DAMAGING) {
    it(line, () => {
      const { home, cwd } = canaryHome();
      const r = spawnSync('bash', ['-c', line], { cwd, env: { PATH: process.env.PATH, HOME: home, GITDIR: gitDir }, timeout: 10_000, stdio: 'ignore' });
      expect(r.error).toBeUndefined();
      expect(intact(home), 'the line damages the canary HOME in real bash').toBe(false);
      const d = decide(line.replaceAll('"$GITDIR"', '/tmp/x.git'), policy, { cwd, home, cdpath: '' });
      expect(d.decision, `${d.rule}: ${d.reason}`).not.toBe('allow');
    });
  }
});

describe('CDPATH from the environment the line runs in', () => {
  const ctx = { cwd: '/work/project', home: '/home/me' };
  it('a relative cd may land in a CDPATH folder: a guarded name there is asked about', () => {
    expect(decide('cd .config && rm -rf mish', policy, { ...ctx, cdpath: '/home/me' }).decision).not.toBe('allow');
    expect(decide('cd .claude && : > settings.json', policy, { ...ctx, cdpath: '~' }).decision).not.toBe('allow');
  });
  it('with no CDPATH the same cd stays in the project, and ordinary lines stay allowed with one', () => {
    expect(decide('cd .config && rm -rf mish', policy, { ...ctx, cdpath: '' }).decision).toBe('allow');
    expect(decide('cd src && rm -rf build', policy, { ...ctx, cdpath: '/home/me' }).decision).toBe('allow');
  });
});

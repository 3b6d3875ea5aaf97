/**
 * The README's "One router, six treatments" block is real output: each `$ mish …` example is
 * re-run with the built CLI in the scratch repository the block describes, and its lines must
 * match (`...` stands for lines left out; `# …` are comments). Catches drift when output changes.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeHome } from './helpers/safe-home.js';

const root = path.resolve(__dirname, '..');
const bundle = path.join(root, 'dist', 'mish.mjs');
let repo: string;
/** The examples run with a temp HOME holding canaries: one of them is `mish rm -rf ~/`. */
const safe = safeHome('readme');

interface Example {
  args: string[];
  expected: string[];
}

/** The examples of the README block, in order. */
function examples(): Example[] {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## One router, six treatments'));
  const block = /```\n([\s\S]*?)```/.exec(section)![1];
  const out: Example[] = [];
  for (const line of block.split('\n')) {
    const cmd = /^\$ mish (.*?)(?:\s{2,}#.*)?$/.exec(line);
    if (cmd) out.push({ args: cmd[1].trim().split(/\s+/), expected: [] });
    else if (out.length && line.trim() !== '' && !/^\s+#/.test(line)) out[out.length - 1].expected.push(line);
  }
  return out;
}

/** Do the output lines match the README lines (`...` matches any run of lines)? */
function matches(actual: string[], expected: string[]): boolean {
  const go = (i: number, j: number): boolean => {
    if (j === expected.length) return i === actual.length;
    if (expected[j] === '...') {
      for (let k = i; k <= actual.length; k++) if (go(k, j + 1)) return true;
      return false;
    }
    return i < actual.length && actual[i] === expected[j] && go(i + 1, j + 1);
  };
  return go(0, 0);
}

beforeAll(() => {
  // dist/mish.mjs is rebuilt when older than its sources by the vitest global setup (test/helpers/global-setup.ts).
  // The scratch repository the README block was recorded in.
  repo = mkdtempSync(path.join(tmpdir(), 'mish-readme-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@a', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@a' } });
  git('init', '-q', '-b', 'master');
  writeFileSync(path.join(repo, 'notes.txt'), 'notes\n');
  git('add', '.');
  git('commit', '-qm', 'notes');
  writeFileSync(path.join(repo, 'notes.txt'), 'notes\nmore\n');
  writeFileSync(path.join(repo, 'new.txt'), 'n\n');
});
afterAll(() => {
  safe.dispose();
  rmSync(repo, { recursive: true, force: true });
  rmSync(`${repo}-spool`, { recursive: true, force: true });
});

describe('README examples', () => {
  it('every category is shown', () => {
    const cmds = examples().map((e) => e.args.join(' '));
    expect(cmds).toEqual(['cp notes.txt backup.txt', 'git status', 'git diff', 'cat missing.txt', 'rm -rf ~/', 'vim notes.txt']);
  });

  it('match what mish prints today', () => {
    for (const ex of examples()) {
      // No controlling terminal (setsid): the dangerous and interactive examples are the refusals.
      const r = spawnSync('setsid', ['-w', process.execPath, bundle, ...ex.args.map((a) => (a === '~/' ? `${safe.home}/` : a))], {
        cwd: repo,
        encoding: 'utf8',
        env: safe.env({ NO_COLOR: '1', GIT_CONFIG_GLOBAL: '/dev/null', MISH_SPOOL_DIR: `${repo}-spool` }),
      });
      const actual = `${r.stdout}${r.stderr}`.replace(/\n$/, '').split('\n');
      const expected = ex.expected.map((l) => l.replaceAll('/root/', `${safe.home}/`));
      expect(matches(actual, expected), `mish ${ex.args.join(' ')}\n--- README\n${expected.join('\n')}\n--- actual\n${actual.join('\n')}`).toBe(true);
    }
    safe.assertCanariesIntact();
  });
});

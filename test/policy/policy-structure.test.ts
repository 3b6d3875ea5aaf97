/**
 * The resolver's rooms (issue 19: resolve.ts split into evaluation / wrappers / runners /
 * interpreters / feeds) and the one wrapper option table the router and the policy share: a
 * wrapper option the router knows is one the policy knows, so `setpriv --landlock-access fs
 * rm -rf ~` (an option only the router's near-copy listed) is no longer read as running `fs`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinPolicy, decide } from '../../src/main/core/policy/index.js';
import { PREFIX } from '../../src/main/core/policy/wrappers.js';
import { unwrap, WRAPPER_OPTIONS } from '../../src/main/core/router/wrappers.js';

const root = path.join(__dirname, '../..');
const policy = builtinPolicy(readFileSync(path.join(root, 'grammars/_meta/policy.toml'), 'utf8'), 'builtin');
const ctx = { cwd: '/work/project', home: '/home/me' };

describe('one wrapper option table for the router and the policy', () => {
  it('every shared wrapper is the same object in the policy table', () => {
    for (const [name, spec] of Object.entries(WRAPPER_OPTIONS)) expect(PREFIX[name], name).toBe(spec);
  });

  it('options only one of the old copies listed are read by both', () => {
    expect(decide('setpriv --landlock-access fs rm -rf ~', policy, ctx).decision).not.toBe('allow');
    expect(decide('setpriv --rlimit NOFILE=10 rm -rf /', policy, ctx).decision).not.toBe('allow');
    // doas -L / ionice -p are queries: the router does not route them as the "command" after them.
    expect(unwrap(['doas', '-L']).wrappers).toEqual([]);
    expect(unwrap(['ionice', '-p', '123']).argv).toEqual(['ionice', '-p', '123']);
    expect(unwrap(['sudo', '-u', 'root', 'timeout', '-k', '5', '10', 'make']).argv).toEqual(['make']);
  });

  it('resolve.ts is split into rooms a newcomer finds from the tree', () => {
    const dir = path.join(root, 'src/main/core/policy');
    for (const f of ['resolve.ts', 'resolved.ts', 'ast.ts', 'wrappers.ts', 'runners.ts', 'feeds.ts', 'interpreters.ts', 'interpreter-command.ts', 'shell-command.ts', 'subst.ts', 'links.ts', 'git-env.ts']) {
      const text = readFileSync(path.join(dir, f), 'utf8');
      expect(text.startsWith('/**'), `${f} opens with what it is`).toBe(true);
      expect(text.split('\n').length, `${f} stays small`).toBeLessThan(800);
    }
  });
});

describe('built-in rules stay linear in the line length', () => {
  it('the formerly quadratic shapes decide a 60 KB line quickly enough for a test (each once)', () => {
    for (const line of [`git ${'gc '.repeat(2500)}x`, `docker run ${'--privileged '.repeat(1500)}x`, `kubectl ${'scale '.repeat(2000)}x`]) {
      const d = decide(line, policy, ctx);
      expect(['allow', 'ask']).toContain(d.decision);
    }
    expect(decide('git gc --prune=now', policy, ctx).rule).toBe('git-gc-prune-now');
    expect(decide('docker run --privileged --pid=host -it alpine', policy, ctx).rule).toBe('container-privileged-host-pid');
    expect(decide('kubectl scale deploy/web --replicas=0', policy, ctx).rule).toBe('kubectl-scale-zero');
    expect(decide('kubectl scale deploy/web --replicas=3', policy, ctx).decision).toBe('allow');
    expect(decide('git worktree remove --force ../wt', policy, ctx).rule).toBe('git-worktree-remove-force');
  });
});

/**
 * The end-of-run guard that proves no test reached the real HOME or dirtied the checkout
 * (test/helpers/real-home-guard.ts, called by the global setup): here pointed at a stand-in HOME
 * and a stand-in checkout, it must name what a stray test would have done.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { guardRealHome } from './helpers/real-home-guard.js';
import { safeHome } from './helpers/safe-home.js';

function standIn() {
  const safe = safeHome('guard');
  const env = { HOME: safe.home } as NodeJS.ProcessEnv;
  const repo = path.join(safe.home, 'repo');
  mkdirSync(repo);
  spawnSync('git', ['init', '-q', repo]);
  writeFileSync(path.join(repo, '.gitignore'), 'test-results/\n');
  return { safe, env, repo };
}

describe('the real-HOME guard', () => {
  it('passes when nothing outside the run changed, even with files there before', () => {
    const { safe, env, repo } = standIn();
    mkdirSync(path.join(safe.home, '.config', 'mish'), { recursive: true });
    writeFileSync(path.join(safe.home, '.config', 'mish', 'policy.toml'), '# mine\n');
    const check = guardRealHome(env, repo, { checkout: true });
    // Ignored build output is not a trace.
    mkdirSync(path.join(repo, 'test-results'));
    writeFileSync(path.join(repo, 'test-results', 'a.png'), 'x');
    expect(() => check()).not.toThrow();
    safe.dispose();
  });

  it('names an audit log written, a hook config edited, a policy deleted and a file left in the checkout', () => {
    const { safe, env, repo } = standIn();
    const policy = path.join(safe.home, '.config', 'mish', 'policy.toml');
    mkdirSync(path.dirname(policy), { recursive: true });
    writeFileSync(policy, '# mine\n');
    mkdirSync(path.join(safe.home, '.claude'));
    writeFileSync(path.join(safe.home, '.claude', 'settings.json'), '{}');
    const check = guardRealHome(env, repo, { checkout: true });
    mkdirSync(path.join(safe.home, '.local', 'state', 'mish'), { recursive: true });
    writeFileSync(path.join(safe.home, '.local', 'state', 'mish', 'audit.jsonl'), '{}\n');
    writeFileSync(path.join(safe.home, '.claude', 'settings.json'), '{"hooks":{}}');
    rmSync(policy);
    writeFileSync(path.join(repo, 'screenshot.png'), 'x');
    let message = '';
    try {
      check();
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain(`real HOME touched: ${path.join(safe.home, '.local', 'state', 'mish', 'audit.jsonl')}: created`);
    expect(message).toContain(`real HOME touched: ${path.join(safe.home, '.claude', 'settings.json')}: changed`);
    expect(message).toContain(`real HOME touched: ${policy}: deleted`);
    expect(message).toContain('the run left the checkout dirty: ?? screenshot.png');
    safe.dispose();
  });
});

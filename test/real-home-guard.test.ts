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

  it('fails the run with a trace: a vitest run whose global teardown finds one exits non-zero (a throw alone exits 0)', () => {
    const safe = safeHome('guard-run');
    const dir = path.join(safe.home, 'run');
    mkdirSync(dir);
    const guard = path.join(import.meta.dirname, 'helpers', 'real-home-guard.ts');
    writeFileSync(path.join(dir, 'one.test.ts'), "import { it, expect } from 'vitest';\nit('passes', () => expect(1).toBe(1));\n");
    const run = (teardown: string) => {
      writeFileSync(path.join(dir, 'setup.ts'), `import { failRunOn } from ${JSON.stringify(guard)};\nexport default () => () => { ${teardown} };\n`);
      writeFileSync(path.join(dir, 'vitest.config.ts'), "export default { test: { globalSetup: ['./setup.ts'], include: ['one.test.ts'] } };\n");
      const vitest = path.join(import.meta.dirname, '..', 'node_modules', 'vitest', 'vitest.mjs');
      return spawnSync(process.execPath, [vitest, 'run', '--root', dir], { cwd: dir, encoding: 'utf8', env: { ...process.env, CI: 'true' } });
    };
    const traced = run("failRunOn(() => { throw new Error('1 trace(s) of the test run outside its temp dirs'); });");
    expect(traced.stdout + traced.stderr).toContain('1 trace(s) of the test run outside its temp dirs');
    expect(traced.status).toBe(1);
    // The same throw without failRunOn: vitest's own exit code says nothing (why failRunOn sets it).
    expect(run("throw new Error('bare');").status).toBe(0);
    expect(run('failRunOn(() => {});').status).toBe(0);
    safe.dispose();
  }, 60_000);
});

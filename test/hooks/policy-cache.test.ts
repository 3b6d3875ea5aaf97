/**
 * The hook's compiled-policy cache (src/main/hooks/policy-cache.ts): the cached policy decides
 * exactly as the compiled one on the policy tables; any change to a policy file, to
 * $MISH_POLICY_DEFAULT or to the code is a miss; an entry that is not the user's own, is
 * writable by others or holds another key is never used. And the built hook: a cache hit loads
 * neither zod (dist/zod.cjs) nor the policy compiler's TOML tables.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide, loadPolicy, type Policy, type PolicySources } from '../../src/main/core/policy/index.js';
import { deserializePolicy, loadPolicyCached, policyCacheDir, serializePolicy } from '../../src/main/hooks/policy-cache.js';
import { readTable } from '../policy/tables.js';
import { safeHome, type SafeHome } from '../helpers/safe-home.js';
import { itUnless } from '../helpers/skip.js';

const ROOT = path.resolve(__dirname, '../..');
const GRAMMARS = path.join(ROOT, 'grammars');
/** Tries before a differing decision counts: a time-bound decision differs now and then, a cache defect every time. */
const TRIES = 3;
let home: SafeHome;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  home = safeHome('policy-cache');
  env = home.env();
});
afterAll(() => home.dispose());

const sources = (extra: Partial<PolicySources> = {}): PolicySources => ({ grammarsDir: GRAMMARS, cwd: home.cwd, env, ...extra });
const cacheFiles = () => (existsSync(policyCacheDir(env)) ? readdirSync(policyCacheDir(env)).filter((f) => f.endsWith('.json')) : []);
const verdict = (p: Policy, line: string) => {
  const d = decide(line, p, { cwd: home.cwd });
  return `${d.decision} ${d.rule}`;
};

describe('compiled policy cache', () => {
  it('the cached policy decides every line of the policy tables as the compiled one does', () => {
    const fresh = loadPolicy(sources());
    const revived = deserializePolicy(serializePolicy(fresh));
    const lines = [...readTable('dangerous.txt'), ...readTable('benign.txt')];
    // A decision may depend on time by design (an interpreter parse or the analysis past its
    // deadline asks instead), so on a loaded machine one call of a pair can run out where the
    // other did not: a line differs only if it still differs on each of a few tries.
    const differ = lines.filter((l) => Array.from({ length: TRIES }).every(() => verdict(fresh, l) !== verdict(revived, l)));
    expect(differ).toEqual([]);
    expect(lines.length).toBeGreaterThan(100);
  });

  it('a second load is a hit (same policy), and no code identity means no cache', () => {
    const none = loadPolicyCached(sources());
    expect(cacheFiles()).toEqual([]);
    const first = loadPolicyCached(sources(), { codeId: 'code-1' });
    expect(cacheFiles()).toHaveLength(1);
    const file = path.join(policyCacheDir(env), cacheFiles()[0]);
    expect(readFileSync(file, 'utf8')).toContain('code-1');
    const second = loadPolicyCached(sources(), { codeId: 'code-1' });
    expect(serializePolicy(second)).toBe(serializePolicy(first));
    expect(serializePolicy(second)).toBe(serializePolicy(none));
  });

  it('a user policy file written, edited or removed is a miss: the new rule decides', () => {
    const line = 'cowsay hello';
    expect(verdict(loadPolicyCached(sources(), { codeId: 'code-1' }), line)).toMatch(/^allow/);
    const user = path.join(env.XDG_CONFIG_HOME!, 'mish', 'policy.toml');
    mkdirSync(path.dirname(user), { recursive: true });
    writeFileSync(user, '[[rule]]\nid = "no-cows"\nreason = "test"\ndecision = "forbid"\ncommands = ["cowsay"]\n');
    expect(verdict(loadPolicyCached(sources(), { codeId: 'code-1' }), line)).toBe('forbid no-cows');
    // Same size, another decision: the stat (mtime, ctime) changes.
    writeFileSync(user, '[[rule]]\nid = "no-cows"\nreason = "test"\ndecision = "ask"   \ncommands = ["cowsay"]\n');
    expect(verdict(loadPolicyCached(sources(), { codeId: 'code-1' }), line)).toBe('ask no-cows');
    writeFileSync(user, '');
    expect(verdict(loadPolicyCached(sources(), { codeId: 'code-1' }), line)).toMatch(/^allow/);
  });

  it('a project policy appearing above the cwd, $MISH_POLICY_DEFAULT and another code identity are misses', () => {
    const line = 'cowsay moo';
    expect(verdict(loadPolicyCached(sources(), { codeId: 'code-1' }), line)).toMatch(/^allow/);
    mkdirSync(path.join(home.cwd, '.mish'), { recursive: true });
    writeFileSync(path.join(home.cwd, '.mish', 'policy.toml'), '[[rule]]\nid = "proj-cows"\nreason = "test"\ndecision = "operator"\ncommands = ["cowsay"]\n');
    expect(verdict(loadPolicyCached(sources(), { codeId: 'code-1' }), line)).toBe('operator proj-cows');
    const strict = { ...env, MISH_POLICY_DEFAULT: 'forbid' };
    expect(loadPolicyCached(sources({ env: strict }), { codeId: 'code-1' }).layers.at(-1)?.default).toBe('forbid');
    expect(loadPolicyCached(sources(), { codeId: 'code-1' }).layers.at(-1)?.default).not.toBe('forbid');
    const before = cacheFiles().length;
    loadPolicyCached(sources(), { codeId: 'code-2' });
    expect(cacheFiles().length).toBe(before + 1);
  });

  it('keeps at most 32 entries: a new one removes the oldest', () => {
    for (let i = 0; i < 40; i++) loadPolicyCached(sources(), { codeId: `code-prune-${i}` });
    expect(cacheFiles().length).toBe(32);
    const texts = cacheFiles().map((f) => readFileSync(path.join(policyCacheDir(env), f), 'utf8'));
    expect(texts.some((t) => t.includes('code-prune-39\\n'))).toBe(true);
    expect(texts.some((t) => t.includes('code-prune-0\\n'))).toBe(false);
  });

  it('an entry writable by others, or holding another key, is not used', () => {
    const line = 'rm -rf --no-preserve-root /';
    const codeId = 'code-tamper';
    expect(verdict(loadPolicyCached(sources(), { codeId }), line)).toMatch(/^forbid/);
    const dir = policyCacheDir(env);
    const file = cacheFiles().map((f) => path.join(dir, f)).find((f) => readFileSync(f, 'utf8').includes(codeId))!;
    const entry = JSON.parse(readFileSync(file, 'utf8')) as { key: string; policy: Policy };
    const permissive: Policy = { layers: [{ name: 'builtin', file: 'x', rules: [], default: 'allow' }], errors: [] };
    // The right key, but the file is group/world-writable: ignored.
    writeFileSync(file, JSON.stringify({ key: entry.key, policy: permissive }));
    chmodSync(file, 0o666);
    expect(verdict(loadPolicyCached(sources(), { codeId }), line)).toMatch(/^forbid/);
    // Another key under this file's name: ignored (and rewritten).
    writeFileSync(file, JSON.stringify({ key: `${entry.key}x`, policy: permissive }));
    chmodSync(file, 0o600);
    expect(verdict(loadPolicyCached(sources(), { codeId }), line)).toMatch(/^forbid/);
    // Not JSON: ignored.
    writeFileSync(file, '{');
    expect(verdict(loadPolicyCached(sources(), { codeId }), line)).toMatch(/^forbid/);
  });
});

const HOOK = path.join(ROOT, 'dist/hook.cjs');
const built = existsSync(HOOK) && existsSync(path.join(ROOT, 'dist/zod.cjs')) ? '' : 'needs the built hook (npm run build:cli)';

describe('the built hook (dist/hook.cjs)', () => {
  /** Runs the hook as an agent would, reporting which of dist/'s files it required. */
  function run(extraEnv: Record<string, string> = {}): { out: string; loaded: string[] } {
    const probe = `const M = require('node:module'); const o = M._load; const seen = [];
      M._load = function (r, ...a) { seen.push(r); return o.call(this, r, ...a); };
      process.on('exit', () => require('node:fs').writeSync(2, '\\nLOADED ' + JSON.stringify(seen) + '\\n'));
      process.argv = [process.argv[0], ${JSON.stringify(path.join(ROOT, 'bin/mish-hook.cjs'))}, 'hook', 'claude-code'];
      require(${JSON.stringify(path.join(ROOT, 'bin/mish-hook.cjs'))});`;
    const payload = { session_id: 's', cwd: home.cwd, hook_event_name: 'PreToolUse', permission_mode: 'bypassPermissions', tool_name: 'Bash', tool_input: { command: 'npm test' } };
    const r = spawnSync(process.execPath, ['-e', probe], { input: JSON.stringify(payload), encoding: 'utf8', env: home.env({ XDG_CACHE_HOME: path.join(home.home, 'hook-cache'), ...extraEnv }) });
    expect(r.status, r.stderr).toBe(0);
    const loaded = JSON.parse(/LOADED (.*)/.exec(r.stderr)?.[1] ?? '[]') as string[];
    return { out: r.stdout, loaded };
  }

  itUnless(built)('compiles the policy once; the next runs load neither zod nor node:crypto, and answer the same', () => {
    const first = run();
    expect(first.out).toContain('updatedInput');
    expect(first.loaded).toContain('./zod.cjs');
    const second = run();
    expect(second.out).toBe(first.out);
    expect(second.loaded).not.toContain('./zod.cjs');
    expect(second.loaded).not.toContain('node:crypto');
    expect(second.loaded).not.toContain('node:child_process');
  });
});

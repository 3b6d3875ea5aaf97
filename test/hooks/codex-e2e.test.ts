/**
 * A real Codex (the @openai/codex devDependency, its native binary) running `codex exec --json`
 * in a temp HOME against a scripted stand-in for the Responses API on 127.0.0.1, with mish's hook
 * installed by `mish init codex`. Codex runs a hook only once it is trusted: the test passes
 * `--dangerously-bypass-hook-trust` (a user trusts it once with /hooks). What the stand-in
 * receives as the call's output is what the model read.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { stopDaemon } from '../../src/main/hooks/hook-daemon-dir.js';
import { safeHome, type SafeHome } from '../helpers/safe-home.js';
import { itUnless } from '../helpers/skip.js';
import { autoApprove, OPERATOR_WATCHING_ENV } from './operator-watch.js';
import { startOpenAiStandIn, type OpenAiStandIn, type ScriptedCall } from './openai-standin.js';

const ROOT = path.resolve(__dirname, '../..');
const MISH = path.join(ROOT, 'bin/mish.js');
const CODEX = path.join(ROOT, 'node_modules/.bin/codex');
const why = existsSync(CODEX) && spawnSync(CODEX, ['--version'], { encoding: 'utf8' }).status === 0 ? '' : 'needs @openai/codex with its platform binary (npm ci)';

let home: SafeHome;
let api: OpenAiStandIn;
const codexHome = () => path.join(home.home, '.codex');
const ops = () => path.join(home.home, '.run', 'ops');

/** A model Codex's catalogue gives apply_patch to (the stand-in answers whatever the name). */
const PATCH_MODEL = ['-m', 'gpt-5.5'];

async function runCodex(command: ScriptedCall, extraEnv: Record<string, string> = {}, extraArgs: string[] = []): Promise<string> {
  api.script.push(command);
  const before = api.outputs.length;
  const child = spawn(CODEX, ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-hook-trust', '--dangerously-bypass-approvals-and-sandbox', ...extraArgs, 'run the scripted command'], {
    cwd: home.cwd,
    env: home.env({ ...extraEnv, CODEX_HOME: codexHome(), STANDIN_KEY: 'sk-standin', MISH_OPERATOR_DIR: ops() }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code, `codex exited ${code}: ${err.slice(0, 500)}`).toBe(0);
  const out = api.outputs[before];
  // A denied call never runs: Codex tells the model why instead (its output then is the hook's reason).
  expect(out, 'no call output reached the stand-in').toBeDefined();
  return out.output;
}

describe('Codex with mish init codex', () => {
  beforeAll(async () => {
    home = safeHome('codex-hook');
    api = await startOpenAiStandIn();
    mkdirSync(codexHome(), { recursive: true });
    writeFileSync(path.join(codexHome(), 'config.toml'), `model = "gpt-standin"\nmodel_provider = "standin"\n\n[model_providers.standin]\nname = "standin"\nbase_url = "${api.url}/v1"\nwire_api = "responses"\nenv_key = "STANDIN_KEY"\n`);
    const r = spawnSync(process.execPath, [MISH, 'init', 'codex'], { env: home.env({ CODEX_HOME: codexHome() }), encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
  });
  afterAll(async () => {
    home?.assertCanariesIntact();
    await api?.close();
    // The hook daemon the bash front started for this temp HOME (it would also end once its directory is gone).
    if (home) stopDaemon(home.env());
    home?.dispose();
  });

  itUnless(why)('an allowed command runs as Codex wrote it (Codex cannot rewrite without approving): output and exit code', async () => {
    const out = await runCodex('echo hello-from-codex; exit 3');
    expect(out).toContain('hello-from-codex');
    expect(out).toMatch(/exited with code 3/);
  }, 120_000);

  itUnless(why)('a forbidden command is denied; the model reads the rule and the reason', async () => {
    const out = await runCodex('rm -rf --no-preserve-root /');
    expect(out).toContain('rm-no-preserve-root');
    expect(out).toMatch(/forbidden/);
  }, 120_000);

  itUnless(why)('a dangerous command with no operator is denied (Codex would run it on ask)', async () => {
    const marker = path.join(home.cwd, 'codex-reset-ran');
    const out = await runCodex(`git reset --hard; touch ${marker}`);
    expect(out).toContain('git-reset-hard');
    expect(existsSync(marker)).toBe(false);
  }, 120_000);

  itUnless(why)('apply_patch (Codex\'s file-editing tool) of an ordinary file runs; of its own hooks.json it is denied and the file is unchanged', async () => {
    const out = await runCodex({ patch: '*** Begin Patch\n*** Add File: codex-patched.txt\n+patched by codex\n*** End Patch\n' }, {}, PATCH_MODEL);
    expect(readFileSync(path.join(home.cwd, 'codex-patched.txt'), 'utf8'), `what the agent read: ${out.slice(0, 400)}`).toBe('patched by codex\n');
    const hooks = path.join(codexHome(), 'hooks.json');
    const installed = readFileSync(hooks, 'utf8');
    const denied = await runCodex({ patch: `*** Begin Patch\n*** Delete File: ${hooks}\n*** End Patch\n` }, {}, PATCH_MODEL);
    expect(denied).toContain('mish-hook-config');
    expect(readFileSync(hooks, 'utf8')).toBe(installed);
  }, 120_000);

  itUnless(why)('`apply_patch <<EOF` in the shell tool (which Codex applies itself) of its own hooks.json, through a link, is denied', async () => {
    const hooks = path.join(codexHome(), 'hooks.json');
    const installed = readFileSync(hooks, 'utf8');
    // The line names no hook file (the policy alone lets it through); the patch deletes one through the link.
    symlinkSync(codexHome(), path.join(home.cwd, 'codex-link'));
    const out = await runCodex(`apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: codex-link/hooks.json\n*** End Patch\nEOF\n`);
    expect(out).toContain('mish-hook-config');
    expect(readFileSync(hooks, 'utf8')).toBe(installed);
  }, 120_000);

  itUnless(why)('a dangerous command approved by an operator over the operator wire runs', async () => {
    const marker = path.join(home.cwd, 'codex-approved-ran');
    const approver = autoApprove(ops(), 'test-operator', 50);
    try {
      const out = await runCodex(`git reset --hard 2>&1; touch ${marker}; echo approved-and-ran`, OPERATOR_WATCHING_ENV);
      expect(approver.seen.map((a) => `${a.agent}: ${a.command}`), `what the agent read: ${out.slice(0, 400)}`).toEqual([`codex: git reset --hard 2>&1; touch ${marker}; echo approved-and-ran`]);
      expect(out).toContain('approved-and-ran');
      expect(existsSync(marker)).toBe(true);
    } finally {
      await approver.stop();
    }
  }, 120_000);
});

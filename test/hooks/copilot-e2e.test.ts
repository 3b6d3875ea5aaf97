/**
 * A real GitHub Copilot CLI (the @github/copilot devDependency, its native binary) running
 * `copilot -p` in a temp HOME with a custom model provider (COPILOT_PROVIDER_BASE_URL pointing at a
 * scripted Chat Completions stand-in on 127.0.0.1, COPILOT_OFFLINE=true: no GitHub sign-in, no
 * call to GitHub), with mish's preToolUse hook installed by `mish init copilot`. What the stand-in
 * receives as the tool's result is what the model read.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { stopDaemon } from '../../src/main/hooks/hook-daemon-dir.js';
import { safeHome, type SafeHome } from '../helpers/safe-home.js';
import { itUnless } from '../helpers/skip.js';
import { startChatStandIn, type ChatStandIn, type ScriptedCall } from './openai-chat-standin.js';

const ROOT = path.resolve(__dirname, '../..');
const MISH = path.join(ROOT, 'bin/mish.js');
const COPILOT = path.join(ROOT, 'node_modules/.bin/copilot');
const why = existsSync(COPILOT) && spawnSync(COPILOT, ['--version'], { encoding: 'utf8', env: { ...process.env, HOME: '/nonexistent' } }).status === 0 ? '' : 'needs @github/copilot with its platform binary (npm ci)';
/** One Copilot CLI run takes 2-15 s on a loaded machine. */
const RUN_TIMEOUT_MS = 120_000;

let home: SafeHome;
let api: ChatStandIn;

/** Runs one scripted command; `permissions`: Copilot's own flags (its rules judge the command it finally runs). */
/** A model Copilot CLI gives its create/edit tools to (over Chat Completions it offers GPT models none); the stand-in answers whatever the name. */
const FILE_TOOLS_MODEL = 'claude-sonnet-4.5';

async function runCopilot(command: ScriptedCall, permissions = ['--allow-all-tools', '--allow-all-paths'], model = 'gpt-5.4'): Promise<string> {
  api.script.push(command);
  const before = api.outputs.length;
  const child = spawn(COPILOT, ['-p', 'run the scripted command', ...permissions], {
    cwd: home.cwd,
    env: home.env({ COPILOT_OFFLINE: 'true', COPILOT_PROVIDER_BASE_URL: `${api.url}/v1`, COPILOT_PROVIDER_API_KEY: 'standin-key', COPILOT_MODEL: model, MISH_OPERATOR_DIR: path.join(home.home, '.run', 'ops'), NO_COLOR: '1' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  child.stdout.resume();
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code, `copilot exited ${code}: ${err.slice(-800)}`).toBe(0);
  const got = api.outputs[before];
  expect(got, `no tool result reached the stand-in (${api.requests.join(', ')})`).toBeDefined();
  return got;
}

describe('Copilot CLI with mish init copilot', () => {
  beforeAll(async () => {
    home = safeHome('copilot-hook');
    api = await startChatStandIn();
    const r = spawnSync(process.execPath, [MISH, 'init', 'copilot'], { env: home.env(), encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(path.join(home.home, '.copilot', 'hooks', 'mish.json'), 'utf8')).toContain('hook copilot');
  });
  afterAll(async () => {
    home?.assertCanariesIntact();
    await api?.close();
    // The hook daemon the bash front started for this temp HOME (it would also end once its directory is gone).
    if (home) stopDaemon(home.env());
    home?.dispose();
  });

  itUnless(why)('an allowed command runs through mish: the model reads its output and exit code', async () => {
    const out = await runCopilot('echo hello-from-copilot; ls /nonexistent-copilot-dir');
    expect(out).toContain('hello-from-copilot');
    // mish's status line (the run went through mish) and Copilot's own report of ls's exit code.
    expect(out).toMatch(/\[exit 2\]/);
    expect(out).toMatch(/exit code 2/);
  }, RUN_TIMEOUT_MS);

  itUnless(why)('never wider than Copilot: a command its own rules do not allow does not run once rewritten (only `shell(echo)` allowed)', async () => {
    const marker = path.join(home.cwd, 'copilot-rewrite-ran');
    const out = await runCopilot(`touch ${marker}`, ['--allow-tool', 'shell(echo)']);
    expect(out).toMatch(/[Pp]ermission denied/);
    expect(existsSync(marker)).toBe(false);
  }, RUN_TIMEOUT_MS);

  itUnless(why)('a forbidden command is denied; the model reads the rule and the reason', async () => {
    const out = await runCopilot('rm -rf --no-preserve-root /');
    expect(out).toContain('Denied by preToolUse hook');
    expect(out).toContain('rm-no-preserve-root');
  }, RUN_TIMEOUT_MS);

  itUnless(why)('create and edit (its file-editing tools) of an ordinary file run; of its own hook file they are denied and the file is unchanged', async () => {
    const notes = path.join(home.cwd, 'copilot-notes.txt');
    await runCopilot({ name: 'create', args: { path: notes, file_text: 'one\n' } }, undefined, FILE_TOOLS_MODEL);
    await runCopilot({ name: 'edit', args: { path: notes, old_str: 'one', new_str: 'two' } }, undefined, FILE_TOOLS_MODEL);
    expect(readFileSync(notes, 'utf8')).toBe('two\n');
    const hookFile = path.join(home.home, '.copilot', 'hooks', 'mish.json');
    const installed = readFileSync(hookFile, 'utf8');
    const edited = await runCopilot({ name: 'edit', args: { path: hookFile, old_str: 'hook copilot', new_str: 'true' } }, undefined, FILE_TOOLS_MODEL);
    expect(edited).toContain('mish-hook-config');
    const created = await runCopilot({ name: 'create', args: { path: path.join(home.cwd, '.github', 'hooks', 'mish.json'), file_text: '{}' } }, undefined, FILE_TOOLS_MODEL);
    expect(created).toContain('mish-hook-config');
    expect(readFileSync(hookFile, 'utf8')).toBe(installed);
    expect(existsSync(path.join(home.cwd, '.github', 'hooks', 'mish.json'))).toBe(false);
  }, RUN_TIMEOUT_MS * 2);

  itUnless(why)('a dangerous command with no operator is denied, though every tool is allowed', async () => {
    const marker = path.join(home.cwd, 'copilot-reset-ran');
    const out = await runCopilot(`git reset --hard; touch ${marker}`);
    expect(out).toContain('git-reset-hard');
    expect(existsSync(marker)).toBe(false);
  }, RUN_TIMEOUT_MS);
});

/**
 * A real Gemini CLI (the @google/gemini-cli devDependency, its bundled Node program) running
 * `gemini -p … --output-format json` in a temp HOME against a scripted stand-in for the Gemini API
 * on 127.0.0.1 (GOOGLE_GEMINI_BASE_URL, any GEMINI_API_KEY; the settings pick the API-key auth and
 * trust the working folder), with mish's BeforeTool hook installed by `mish init gemini-cli`.
 * `--approval-mode yolo` is Gemini CLI's own setting for running tools without its prompt (in
 * -p mode its prompt cannot be answered); mish's rewrite leaves that setting in force. What the
 * stand-in receives as the call's functionResponse is what the model read.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { stopDaemon } from '../../src/main/hooks/hook-daemon-dir.js';
import { safeHome, type SafeHome } from '../helpers/safe-home.js';
import { itUnless } from '../helpers/skip.js';
import { autoApprove, OPERATOR_WATCHING_ENV } from './operator-watch.js';
import { startGeminiStandIn, type GeminiStandIn, type ScriptedCall } from './gemini-standin.js';

const ROOT = path.resolve(__dirname, '../..');
const MISH = path.join(ROOT, 'bin/mish.js');
const GEMINI = path.join(ROOT, 'node_modules/@google/gemini-cli/bundle/gemini.js');
const why = existsSync(GEMINI) ? '' : 'needs @google/gemini-cli (npm ci)';
/** One Gemini CLI run (start, the router call, two turns) takes 5-15 s on a loaded machine. */
const RUN_TIMEOUT_MS = 120_000;

let home: SafeHome;
let api: GeminiStandIn;
const ops = () => path.join(home.home, '.run', 'ops');

async function runGemini(command: ScriptedCall, extraEnv: Record<string, string> = {}): Promise<string> {
  api.script.push(command);
  const before = api.outputs.length;
  const child = spawn(process.execPath, [GEMINI, '-p', 'run the scripted command', '--output-format', 'json', '--approval-mode', 'yolo'], {
    cwd: home.cwd,
    env: home.env({ ...extraEnv, GEMINI_API_KEY: 'standin-key', GOOGLE_GEMINI_BASE_URL: api.url, MISH_OPERATOR_DIR: ops(), NO_COLOR: '1' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code, `gemini exited ${code}: ${err.slice(-800)} ${out.slice(0, 400)}`).toBe(0);
  const got = api.outputs[before];
  // A denied call never runs: Gemini CLI tells the model why instead (its output is then the hook's reason).
  expect(got, `no functionResponse reached the stand-in (${api.requests.join(', ')})`).toBeDefined();
  return got;
}

describe('Gemini CLI with mish init gemini-cli', () => {
  beforeAll(async () => {
    home = safeHome('gemini-hook');
    api = await startGeminiStandIn();
    const dir = path.join(home.home, '.gemini');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'settings.json'),
      `${JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, general: { disableAutoUpdate: true, disableUpdateNag: true }, privacy: { usageStatisticsEnabled: false }, telemetry: { enabled: false } }, null, 2)}\n`,
    );
    writeFileSync(path.join(dir, 'trustedFolders.json'), JSON.stringify({ [home.cwd]: 'TRUST_FOLDER' }));
    const r = spawnSync(process.execPath, [MISH, 'init', 'gemini-cli'], { env: home.env(), encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'settings.json'), 'utf8')).toContain('hook gemini-cli');
  });
  afterAll(async () => {
    home?.assertCanariesIntact();
    await api?.close();
    // The hook daemon the bash front started for this temp HOME (it would also end once its directory is gone).
    if (home) stopDaemon(home.env());
    home?.dispose();
  });

  itUnless(why)('an allowed command is rewritten to run through mish: the model reads its output and exit code', async () => {
    // Not `exit 3`: a line with a shell-state builtin (exit, cd, export …) is never rewritten.
    const out = await runGemini('echo hello-from-gemini; ls /nonexistent-gemini-dir');
    expect(out).toContain('hello-from-gemini');
    // mish's status line (the run went through mish) and Gemini CLI's own exit report: ls's exit code 2 kept.
    expect(out).toMatch(/\[exit 2\]/);
    expect(out).toMatch(/Exit Code: 2/);
  }, RUN_TIMEOUT_MS);

  itUnless(why)('a forbidden command is denied; the model reads the rule and the reason', async () => {
    const out = await runGemini('rm -rf --no-preserve-root /');
    expect(out).toContain('rm-no-preserve-root');
    expect(out).toMatch(/forbidden/);
  }, RUN_TIMEOUT_MS);

  itUnless(why)('a dangerous command with no operator is denied (Gemini CLI hooks have no ask)', async () => {
    const marker = path.join(home.cwd, 'gemini-reset-ran');
    const out = await runGemini(`git reset --hard; touch ${marker}`);
    expect(out).toContain('git-reset-hard');
    expect(existsSync(marker)).toBe(false);
  }, RUN_TIMEOUT_MS);

  itUnless(why)('write_file and replace (its file-editing tools) of an ordinary file run; of the project\'s .gemini/settings.json they are denied and the file is unchanged', async () => {
    const notes = path.join(home.cwd, 'gemini-notes.txt');
    await runGemini({ name: 'write_file', args: { file_path: notes, content: 'one\n' } });
    await runGemini({ name: 'replace', args: { file_path: notes, old_string: 'one', new_string: 'two', instruction: 'change one to two' } });
    expect(readFileSync(notes, 'utf8')).toBe('two\n');
    // The project's hook file (Gemini CLI itself refuses a path outside its workspace, such as ~/.gemini, before any hook runs).
    const settings = path.join(home.cwd, '.gemini', 'settings.json');
    mkdirSync(path.dirname(settings), { recursive: true });
    const installed = '{ "hooks": { "BeforeTool": [] } }\n';
    writeFileSync(settings, installed);
    const denied = await runGemini({ name: 'write_file', args: { file_path: settings, content: '{}\n' } });
    expect(denied).toContain('mish-hook-config');
    const replaced = await runGemini({ name: 'replace', args: { file_path: settings, old_string: '"BeforeTool": []', new_string: '"BeforeTool": 0', instruction: 'switch the hooks off' } });
    expect(replaced).toContain('mish-hook-config');
    expect(readFileSync(settings, 'utf8')).toBe(installed);
    // Not left for the next runs to read as project settings.
    rmSync(path.dirname(settings), { recursive: true });
  }, RUN_TIMEOUT_MS * 2);

  itUnless(why)('a dangerous command approved by an operator over the operator wire runs', async () => {
    const marker = path.join(home.cwd, 'gemini-approved-ran');
    const approver = autoApprove(ops(), 'test-operator', 50);
    try {
      const out = await runGemini(`git reset --hard 2>&1; touch ${marker}; echo approved-and-ran`, OPERATOR_WATCHING_ENV);
      expect(approver.seen.map((a) => `${a.agent}: ${a.command}`), `what the agent read: ${out.slice(0, 400)}`).toEqual([`gemini-cli: git reset --hard 2>&1; touch ${marker}; echo approved-and-ran`]);
      expect(out).toContain('approved-and-ran');
      expect(existsSync(marker)).toBe(true);
    } finally {
      await approver.stop();
    }
  }, RUN_TIMEOUT_MS);
});

/**
 * End to end: a real Claude Code (the @anthropic-ai/claude-code devDependency, headless, in a
 * temp HOME, against the scripted Messages API stand-in on 127.0.0.1) with mish's hook installed
 * by `mish init claude-code`, watched by the browser console (`mish console --web`'s page in
 * Debian's Chromium). One conversation runs two Bash commands, another runs one: the console
 * shows one agent entry per conversation (claude-code with its version, its session id, its cwd),
 * the first with one session whose timeline has both runs' rows, raw output vs what the model
 * received, and each run's output in its terminal. A third conversation's dangerous command waits
 * in that conversation's session until the operator approves it in the console's dialog; then it
 * runs through mish as the session's next row.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { startConsole, type RunningConsole } from '../src/main/console/console-command.js';
import { requireElectronBuild } from '../test/helpers/fresh-build.js';
import { safeHome, type SafeHome } from '../test/helpers/safe-home.js';
import { itUnless } from '../test/helpers/skip.js';
import { startStandIn, type StandIn } from '../test/hooks/anthropic-standin.js';
import { CHROMIUM, MISH, RENDERER, ROOT, STEP_MS, launchChromium } from './remote-console-kit.js';
import { CONSOLE_FRAME, screenshot } from './screenshots.js';
import { waitForTerminalText } from './xterm-wait.js';

const CLAUDE = path.join(ROOT, 'node_modules/.bin/claude');
const why = existsSync(CLAUDE) && spawnSync(CLAUDE, ['--version'], { encoding: 'utf8' }).status === 0 ? '' : 'needs @anthropic-ai/claude-code with its platform binary (npm ci)';

describe('hooked Claude Code runs in the browser console', () => {
  let browser: Browser | undefined;
  let running: RunningConsole | undefined;
  let safe: SafeHome;
  let api: StandIn;
  let page: Page;
  let env: Record<string, string>;
  const errors: string[] = [];
  const savedSpoolDir = process.env.MISH_SPOOL_DIR;

  /** One `claude -p` conversation; resolves with its session id once it ended. */
  async function converse(commands: string[]): Promise<string> {
    api.script.push(commands);
    const child = spawn(CLAUDE, ['-p', 'run the scripted commands', '--output-format', 'json', '--permission-mode', 'bypassPermissions'], { cwd: safe.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code, `claude exited ${code}: ${err.slice(0, 500)}`).toBe(0);
    return (JSON.parse(out) as { session_id: string }).session_id;
  }

  beforeAll(async () => {
    if (why) return;
    requireElectronBuild();
    expect(existsSync(CHROMIUM), `${CHROMIUM} missing: apt-get install chromium`).toBe(true);
    safe = safeHome('console-hooked');
    const spoolDir = path.join(safe.home, '.state', 'mish', 'spool');
    // The console reads each run's raw output from the spool the run wrote (same user, same machine).
    process.env.MISH_SPOOL_DIR = spoolDir;
    api = await startStandIn();
    env = safe.env({
      ANTHROPIC_BASE_URL: api.url,
      ANTHROPIC_API_KEY: 'sk-ant-standin',
      DISABLE_TELEMETRY: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      // bypassPermissions is refused as root outside a sandbox; the temp HOME is this test's sandbox.
      IS_SANDBOX: '1',
      MISH_OPERATOR_DIR: path.join(safe.home, 'operators'),
      MISH_SPOOL_DIR: spoolDir,
      MISH_AUDIT_LOG: path.join(safe.home, '.state', 'mish', 'audit.jsonl'),
    });
    const init = spawnSync(process.execPath, [MISH, 'init', 'claude-code'], { env, encoding: 'utf8' });
    expect(init.status, init.stderr).toBe(0);
    mkdirSync(path.join(safe.cwd, 'shop'), { recursive: true });
    writeFileSync(path.join(safe.cwd, 'test.sh'), 'for i in $(seq 1 200); do echo "ok $i - checks pass"; done\necho "not ok 201 - cart total" >&2\nexit 1\n');
    // The console reads hooked history from the same audit log as the runs write (not the run's shared HOME).
    const started = await startConsole({ rendererDir: RENDERER, operatorDir: env.MISH_OPERATOR_DIR, auditLog: env.MISH_AUDIT_LOG });
    if (!started.ok) throw new Error(started.error);
    running = started.value;
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1480, height: 900 }, colorScheme: 'dark' })).newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(running.web.url);
  }, 5 * STEP_MS);

  afterAll(async () => {
    await browser?.close();
    await running?.close();
    await api?.close();
    if (savedSpoolDir === undefined) delete process.env.MISH_SPOOL_DIR;
    else process.env.MISH_SPOOL_DIR = savedSpoolDir;
    safe?.assertCanariesIntact();
    safe?.dispose();
  });

  itUnless(why)('two runs of one conversation: one agent entry, one session, two timeline rows; another conversation: a second entry', async () => {
    const first = await converse(['sh test.sh', 'echo "built in $(pwd)"']);
    const second = await converse(['git --version']);
    expect(first).not.toBe(second);

    // One entry per conversation, named by the host and its version (from Claude Code's own environment), marked hooked.
    const entries = page.locator('.group[data-server-id] .badge.hooked');
    await expect.poll(() => entries.count(), { timeout: STEP_MS }).toBe(2);
    const entryA = page.locator('.group', { has: page.locator(`.badge.hooked[data-conversation="${first}"]`) });
    const entryB = page.locator('.group', { has: page.locator(`.badge.hooked[data-conversation="${second}"]`) });
    await expect.poll(() => entryA.locator('.badge.hooked').innerText(), { timeout: STEP_MS }).toBe('hooked · 2 runs');
    expect(await entryB.locator('.badge.hooked').innerText()).toBe('hooked · 1 run');
    expect(await entryA.locator('.server-name').innerText()).toMatch(/^claude-code 2\.1\.\d+$/);
    expect(await entryA.locator('.server-cwd').innerText()).toBe(safe.cwd.replace(/^\/root/, '~'));
    // One session each, named by Claude Code's session id (its start shown, all of it on hover).
    expect(await entryA.locator('.session').count()).toBe(1);
    expect(await entryB.locator('.session').count()).toBe(1);
    const sessionA = entryA.locator('.session');
    expect(await sessionA.getAttribute('title')).toContain(first);
    expect(await sessionA.locator('.name').innerText()).toBe(`${first.slice(0, 8)}…`);
    // The conversation's transcript, from Claude Code's hook payload (transcript_path), copyable on its entry.
    const transcript = entryA.locator('.conv-detail [data-transcript]');
    await expect.poll(() => transcript.getAttribute('data-transcript'), { timeout: STEP_MS }).toMatch(new RegExp(`/\\.claude/projects/[^/]+/${first}\\.jsonl$`));
    expect(await transcript.locator('button.copy-btn').isVisible()).toBe(true);

    // Its timeline: both runs, in order, with exit codes and raw → shown tokens.
    await sessionA.click();
    const rows = page.locator('.timeline .row[data-command-id]');
    await expect.poll(() => rows.count(), { timeout: STEP_MS }).toBe(2);
    await expect.poll(() => rows.nth(0).locator('.tok').innerText(), { timeout: STEP_MS }).toMatch(/^[\d,]+ → [\d,]+ tok$/);
    expect(await rows.nth(0).locator('.cmd').innerText()).toBe('sh test.sh');
    expect(await rows.nth(0).locator('.exit').innerText()).toBe('1');
    expect(await rows.nth(1).locator('.cmd').innerText()).toBe('echo "built in $(pwd)"');
    expect(await rows.nth(1).locator('.exit').innerText()).toBe('0');
    // Each run's output in the conversation's terminal, in turn.
    await waitForTerminalText(page, 'not ok 201 - cart total', STEP_MS);
    await waitForTerminalText(page, `built in ${safe.cwd}`, STEP_MS);
    // Where each run's command starts in that terminal: a mark per row (xterm draws only those in
    // view: the first run's 200 lines push its mark into the scrollback).
    await expect.poll(() => page.locator('.terminal[data-session]').getAttribute('data-marks'), { timeout: STEP_MS }).toBe('2');
    expect(await page.locator('.terminal[data-session] .cmd-mark').last().getAttribute('data-label')).toMatch(/^▸ echo "built in \$\(pwd\)" · c\w+$/);
    // What the model received for the first run (condensed, exit code kept) beside its raw output.
    const firstId = await rows.nth(0).getAttribute('data-command-id');
    await rows.nth(0).click();
    const agentPane = page.locator(`.agent-pane[data-command-id="${firstId}"] .agent-text`);
    await expect.poll(() => agentPane.innerText(), { timeout: STEP_MS }).toContain('not ok 201 - cart total');
    expect(await agentPane.innerText()).toMatch(/exit 1/);
    await page.locator(`.raw-pane[data-command-id="${firstId}"]`).getByText('ok 200 - checks pass').waitFor({ timeout: STEP_MS });
    await screenshot(page, 'console-hooked-agents.png', [...CONSOLE_FRAME, '.badge.hooked', '.timeline', `.agent-pane[data-command-id="${firstId}"]`, `.raw-pane[data-command-id="${firstId}"]`]);

    // The other conversation: its own session, its one row.
    await entryB.locator('.session').click();
    await expect.poll(() => rows.count(), { timeout: STEP_MS }).toBe(1);
    expect(await rows.nth(0).locator('.cmd').innerText()).toBe('git --version');
    expect(errors).toEqual([]);
  }, 6 * STEP_MS);

  itUnless(why)("an escalated command waits in its conversation's session; approved in the console's dialog, it runs through mish as that session's next row", async () => {
    const conversation = converse(['echo before-the-risky-one', 'git reset --hard 2>&1; echo approved-and-ran']);
    // The hook asks the console: the queue names the conversation's session, which waits on it.
    const item = page.locator('.pending-item.approval-item', { hasText: 'git reset --hard' });
    await item.waitFor({ timeout: STEP_MS });
    // The queue says whose: the host, hooked, and the conversation.
    expect(await item.locator('.whose').innerText()).toMatch(/^claude-code 2\.1\.\d+ · hooked · [0-9a-f]{8}…$/);
    const waiting = page.locator('.group', { has: page.locator('button.session[data-state="needs-approval"]') });
    await waiting.waitFor({ timeout: STEP_MS });
    expect(await waiting.locator('.session .name').innerText()).toBe(await item.locator('.where').innerText());
    expect(await waiting.locator('.badge.hooked').innerText()).toBe('hooked · 1 run');
    const id = await item.getAttribute('data-approval');
    const overlay = page.locator(`.approval-overlay[data-approval-id="${id}"]`);
    if (!(await overlay.isVisible())) await item.click();
    const dialog = page.locator('.dialog.approval');
    await expect.poll(() => dialog.innerText(), { timeout: STEP_MS }).toContain('git reset --hard');
    expect(await dialog.innerText()).toContain('claude-code');
    // What the dialog promises is what the hook does: its host's words, no "always" (each call is a hook process of its own).
    const said = await dialog.innerText();
    expect(said).toContain("the agent's own shell tool (hooked)");
    expect(said).toContain('the host is told “mish: approved by operator');
    expect(said).not.toContain('Always for this session');
    expect(said).not.toContain('sh_run');
    await page.locator('.dialog.approval[data-armed]').waitFor({ timeout: STEP_MS }); // decisions wake a moment after it appears
    await page.keyboard.press('a');
    const session = await conversation;
    const approved = api.results.at(-1)!;
    expect(approved.content).toContain('approved-and-ran');
    // Through mish (its status line), not as Claude Code would have run it.
    expect(approved.content).toContain('[exit 0]');

    const entry = page.locator('.group', { has: page.locator(`.badge.hooked[data-conversation="${session}"]`) });
    await expect.poll(() => entry.locator('.badge.hooked').innerText(), { timeout: STEP_MS }).toBe('hooked · 2 runs');
    await entry.locator('.session').click();
    const rows = page.locator('.timeline .row[data-command-id]');
    await expect.poll(() => rows.count(), { timeout: STEP_MS }).toBe(2);
    expect(await rows.nth(0).locator('.cmd').innerText()).toBe('echo before-the-risky-one');
    expect(await rows.nth(1).locator('.cmd').innerText()).toBe('git reset --hard 2>&1; echo approved-and-ran');
    // The run the operator approved carries the approval on its row.
    await expect.poll(() => rows.nth(1).locator('.approval-mark').innerText(), { timeout: STEP_MS }).toMatch(/^✓ approved by you · /);
    expect(await page.locator('.pending-item.approval-item').count()).toBe(0);
    expect(errors).toEqual([]);
  }, 6 * STEP_MS);
});

/**
 * End to end: an escalation refused while no console was attached, seen by a console opened
 * afterwards (Debian's Chromium against the browser mode). A real MCP client (the SDK's Client
 * spawning `mish serve` in a temp HOME with canary files) runs `rm -rf ~` before any console
 * exists: the policy escalates it, nobody can be asked, it is refused and nothing runs. Then
 * the console starts, connects to that server, and shows the refusal in the session's timeline
 * as a row that never ran (command, rule, "no operator attached"), never as a pending approval
 * that could still be approved; its detail is the reply the agent got, word for word.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_FRAME, screenshot } from './screenshots.js';
import { startConsole, type RunningConsole } from '../src/main/console/console-command.js';
import { requireElectronBuild } from '../test/helpers/fresh-build.js';
import { enterSafeHome, safeHome, type SafeHome } from '../test/helpers/safe-home.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RENDERER = path.join(ROOT, 'out', 'renderer');
const MISH = path.join(ROOT, 'bin', 'mish.js');
/** Debian's Chromium (scripts/apt-packages.txt); Playwright never downloads a browser here. */
const CHROMIUM = '/usr/bin/chromium';
const VIEWPORT = { width: 1480, height: 900 };
/** Hang guard for one step on a loaded 2-core machine (never a timing assertion). */
const STEP_MS = 60_000;

describe('an escalation refused before any console was attached', () => {
  let browser: Browser | undefined;
  let running: RunningConsole | undefined;
  let safe: SafeHome;
  let client: Client | undefined;
  let serverId = '';
  let leave: (() => void) | undefined;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    requireElectronBuild();
    expect(existsSync(CHROMIUM), `${CHROMIUM} missing: apt-get install chromium`).toBe(true);
    safe = safeHome('console-unattended');
    const wire = { MISH_OPERATOR_DIR: path.join(safe.home, 'operators'), MISH_SPOOL_DIR: path.join(safe.home, 'spool'), MISH_AUDIT_LOG: path.join(safe.home, '.state', 'mish', 'audit.jsonl') };
    const env = safe.env(wire);
    leave = enterSafeHome(safe, wire);
    const transport = new StdioClientTransport({ command: process.execPath, args: [MISH, 'serve'], cwd: safe.cwd, env, stderr: 'ignore' });
    client = new Client({ name: 'claude-code', version: '1.0.0' });
    await client.connect(transport);
    serverId = `serve-${transport.pid}`;
  }, 5 * STEP_MS);

  afterAll(async () => {
    await browser?.close();
    await client?.close().catch(() => {});
    await running?.close();
    leave?.();
    safe?.assertCanariesIntact();
    safe?.dispose();
  });

  const run = async (cmd: string) => {
    const r = await client!.callTool({ name: 'sh_run', arguments: { cmd, session: 'cleanup', cwd: safe.cwd, timeout: 60 } });
    return { text: (r.content as { type: string; text: string }[]).map((x) => x.text).join(''), structured: (r.structuredContent ?? {}) as Record<string, unknown> };
  };

  it('shows the refusal in the session timeline of a console opened afterwards: command, rule, no operator attached; not pending', async () => {
    await run('echo before-the-refusal');
    const refused = await run('rm -rf ~');
    expect(refused.structured.status).toBe('refused');
    const esc = refused.structured.escalation as { id: string; outcome: string; rule: string };
    expect(esc.outcome).toBe('no-operator');
    expect(refused.text).toContain('no operator is attached');
    safe.assertCanariesIntact();

    // Only now does an operator appear.
    const started = await startConsole({ rendererDir: RENDERER, operatorDir: process.env.MISH_OPERATOR_DIR });
    if (!started.ok) throw new Error(started.error);
    running = started.value;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    const context = await browser.newContext({ viewport: VIEWPORT, colorScheme: 'dark' });
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(running.web.url);
    await page.locator(`[data-server-id="${serverId}"] .server-name`, { hasText: 'claude-code 1.0.0' }).waitFor({ timeout: STEP_MS });
    await page.locator(`button.session[data-session-id="${serverId}/cleanup"]`).click();

    const row = page.locator('.timeline li[data-approval-outcome="no-operator"]');
    await row.waitFor({ timeout: STEP_MS });
    expect(await row.locator('.cmd').innerText()).toBe('rm -rf ~');
    expect(await row.locator('.glyph').getAttribute('aria-label')).toBe('refused: no operator attached');
    expect(await row.locator('.approval-mark').innerText()).toMatch(/^⊘ refused: no operator attached · \d\d:\d\d:\d\d$/);
    expect(await row.locator('.cat').innerText()).toBe(esc.rule);
    expect(await row.locator('.tok').innerText()).toBe('never ran');
    expect(await row.locator('.approval-mark').getAttribute('data-approval')).toBe(esc.id);
    // In time order: after the command that ran before it.
    const cmds = await page.locator('.timeline li .cmd').allInnerTexts();
    expect(cmds.indexOf('echo before-the-refusal'), cmds.join('\n')).toBeLessThan(cmds.indexOf('rm -rf ~'));
    // Nothing is waiting for a decision: no queue item, no dialog, nothing to approve.
    expect(await page.locator('.pending-item.approval-item').count()).toBe(0);
    expect(await page.locator('.approval-overlay').count()).toBe(0);
    expect(await page.locator('.timeline li[data-pending-approval]').count()).toBe(0);

    // Its detail: what happened, the rule, and the exact reply the agent got.
    await row.locator('button.row').click();
    const decision = page.locator('.agent-pane .decision[data-decision="no-operator"]');
    await decision.waitFor({ timeout: STEP_MS });
    expect(await decision.innerText()).toMatch(/Refused at .+: no operator was attached to ask\. Nothing was asked and nothing ran/);
    expect(await decision.innerText()).toContain(esc.rule);
    await expect.poll(() => page.locator('.agent-pane .agent-text').getAttribute('data-exact'), { timeout: STEP_MS }).toBe('true');
    expect((await page.locator('.agent-pane .agent-text').innerText()).trim()).toBe(refused.text.trim());
    await screenshot(page, 'timeline-refused-unattended.png', [...CONSOLE_FRAME, '.timeline li[data-approval-outcome="no-operator"]', '.agent-pane .decision']);
    expect(errors).toEqual([]);
  }, 10 * STEP_MS);
});

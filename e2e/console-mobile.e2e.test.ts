/**
 * End to end: the phone-sized console (issue 24) in Debian's Chromium at 390×844 with touch
 * emulation, against the browser console and a real agent (an MCP client spawning `mish serve`
 * in a temp HOME). The page opens on what needs the operator; an escalated delete shows as a
 * card with its risky part marked and what the agent receives; a tap on Approve reaches the
 * agent (the figure is printed: tap → the agent's MCP reply); every touch target is ≥ 44 px;
 * the session view stacks a readable timeline over a terminal that scrolls under a finger; the
 * token leaves the address bar. Screenshots are saved for a human to look at.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole, type RunningConsole } from '../src/main/console/console-command.js';
import { requireElectronBuild } from '../test/helpers/fresh-build.js';
import { safeHome, type SafeHome } from '../test/helpers/safe-home.js';
import { waitForTerminalText } from './xterm-wait.js';
import { screenshot } from './screenshots.js';
import { CHROMIUM, RENDERER, SHOTS, STEP_MS, launchChromium, serveAgent, type Agent } from './remote-console-kit.js';

/** An iPhone 12–15's CSS viewport (the issue's target size). */
const PHONE = { width: 390, height: 844 };
/** The smallest touch target (WCAG 2.5.5, Apple HIG). */
const MIN_TARGET_PX = 44;
/** Approvals decided by taps, for the tap → agent figure (median of these). */
const TAPS = 3;

/** Visible interactive elements smaller than MIN_TARGET_PX either way (with what they are). */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate((min) => {
    // Runs in the page (this file compiles without the DOM's types).
    const g = globalThis as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    const out: string[] = [];
    for (const el of g.document.querySelectorAll('button, a[href], input, select, textarea, [role="tab"], label.pickbox')) {
      if (el.closest('label.pickbox') && el.tagName === 'INPUT') continue; // the label around it is the target
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || g.getComputedStyle(el).visibility === 'hidden') continue;
      if (el.closest('.xterm')) continue; // xterm's hidden input
      if (r.width < min - 0.5 || r.height < min - 0.5) out.push(`${el.tagName.toLowerCase()}.${el.className} "${(el.textContent ?? '').trim().slice(0, 30)}" ${Math.round(r.width)}×${Math.round(r.height)}`);
    }
    return out;
  }, MIN_TARGET_PX);
}

describe('the console on a phone-sized screen', () => {
  let browser: Browser | undefined;
  let running: RunningConsole | undefined;
  let safe: SafeHome;
  let agent: Agent | undefined;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    requireElectronBuild();
    expect(existsSync(CHROMIUM), `${CHROMIUM} missing: apt-get install chromium`).toBe(true);
    mkdirSync(SHOTS, { recursive: true });
    safe = safeHome('console-mobile');
    const auditLog = path.join(safe.home, '.state', 'mish', 'audit.jsonl');
    const env = safe.env({ MISH_OPERATOR_DIR: path.join(safe.home, 'operators'), MISH_SPOOL_DIR: path.join(safe.home, 'spool'), MISH_AUDIT_LOG: auditLog });
    process.env.MISH_AUDIT_LOG = auditLog;
    process.env.MISH_SPOOL_DIR = env.MISH_SPOOL_DIR;
    const started = await startConsole({ rendererDir: RENDERER, operatorDir: env.MISH_OPERATOR_DIR });
    if (!started.ok) throw new Error(started.error);
    running = started.value;
    agent = await serveAgent('claude-code', safe.cwd, env);
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 2, colorScheme: 'dark' });
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(running.web.url);
    await page.locator('.app[data-layout="phone"]').waitFor({ timeout: STEP_MS });
  }, 5 * STEP_MS);

  afterAll(async () => {
    await browser?.close();
    await agent?.close().catch(() => {});
    await running?.close();
    safe?.assertCanariesIntact();
    safe?.dispose();
  });

  it('keeps the token off the address bar (it was only ever in the fragment)', async () => {
    expect(running!.web.url).toMatch(/#token=/);
    await page.locator('.conn', { hasText: 'connected' }).waitFor();
    expect(page.url()).not.toMatch(/token/);
    // A reload in the same tab still connects (the tab kept it, no request carried it).
    await page.reload();
    await page.locator('.conn', { hasText: 'connected' }).waitFor();
  });

  it('opens on what needs you: a card with the risky part, the decisions and what the agent receives; a tap approves', async () => {
    const a = agent!;
    await a.call('sh_run', { cmd: 'printf "%s\\n" "build ok" && ls', session: 'phone', cwd: safe.cwd });
    await page.locator('[data-phone-tab="needs"][aria-selected="true"]').waitFor();
    await page.locator('.needs-you .calm').waitFor();
    const latencies: number[] = [];
    for (let i = 0; i < TAPS; i++) {
      const scratch = path.join(safe.cwd, `tap-${i}`);
      mkdirSync(path.join(scratch, 'dist'), { recursive: true });
      writeFileSync(path.join(scratch, 'dist', 'app.js'), 'x');
      const call = a.call('sh_run', { cmd: 'ls && rm -rf ./*', session: 'phone', cwd: scratch, timeout: 120 });
      const card = page.locator('.approval-card');
      await card.waitFor({ timeout: STEP_MS });
      await page.locator('.approval-card[data-armed]').waitFor();
      if (i === 0) {
        expect(await card.locator('mark.risk').innerText()).toBe('rm -rf ./*');
        const text = await card.innerText();
        expect(text).toContain('rm-recursive-root-or-home');
        expect(text).toMatch(/the command runs; its reply starts “\[approved by operator console \(/);
        expect(text).toMatch(/denied by the operator \(console \(/);
        expect(await smallTargets(page)).toEqual([]);
        await screenshot(page, 'phone-needs-you.png', ['nav.phone-tabs', '.approval-card .card-cmd', '.approval-card .card-decisions']);
      }
      // The tap's time as the page saw it (same machine, same clock as this process).
      await page.evaluate(() => (globalThis as any).document.addEventListener('touchend', () => ((globalThis as { __tapAt?: number }).__tapAt = Date.now()), { capture: true, once: true }));
      await card.locator('button[data-decision="approve"]').tap();
      const r = await call;
      const arrived = Date.now();
      const tapAt = await page.evaluate(() => (globalThis as { __tapAt?: number }).__tapAt);
      expect(tapAt).toBeTypeOf('number');
      latencies.push(arrived - tapAt!);
      expect(r.text).toMatch(/\[approved by operator console \([^)]+\) \(a_/);
      expect(readdirSync(scratch)).toEqual([]);
      await card.waitFor({ state: 'detached' });
    }
    const sorted = [...latencies].sort((x, y) => x - y);
    // The figure for BENCHMARKS.md (issue 24 target ≤ 1 s); printed, not asserted: this machine is shared and loaded.
    console.log(`phone approval, tap → agent's MCP reply (ms): ${latencies.join(', ')}; median ${sorted[Math.floor(sorted.length / 2)]}`);
    expect(errors).toEqual([]);
  }, 10 * STEP_MS);

  it('shows the session stacked: a readable timeline, a terminal that scrolls under a finger, the agent pane', async () => {
    await page.locator('[data-phone-tab="sessions"]').tap();
    const item = page.locator('button.session', { hasText: 'phone' });
    await item.waitFor();
    expect(await smallTargets(page)).toEqual([]);
    await screenshot(page, 'phone-sessions.png', ['nav.phone-tabs', 'button.session']);
    await item.tap();
    await page.locator('[data-phone-view="session"] .session-view').waitFor();
    const rows = page.locator('.timeline .rows button.row');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(TAPS + 1);
    // Each row shows its command, exit and time within the width (no sideways scrolling to read it).
    const fits = await page.evaluate(() => {
      const g = globalThis as any; // eslint-disable-line @typescript-eslint/no-explicit-any
      return [...g.document.querySelectorAll('.timeline .rows button.row')].every((r: any) => r.getBoundingClientRect().right <= g.innerWidth + 0.5);
    });
    expect(fits).toBe(true);
    expect(await rows.first().locator('.cmd').innerText()).toContain('printf');
    // The terminal (the agent's 120 columns) is wider than the phone and scrolls sideways under a swipe.
    const wrap = page.locator('.terminal-wrap');
    await wrap.waitFor();
    await waitForTerminalText(page, 'build ok');
    await screenshot(page, 'phone-session.png', ['nav.phone-tabs', '.timeline .rows button.row', '.terminal-wrap']);
    const box = (await wrap.boundingBox())!;
    expect(await wrap.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    const cdp = await page.context().newCDPSession(page);
    const y = box.y + box.height / 2;
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y }] });
    await touch('touchStart', box.x + box.width - 20);
    for (let x = box.x + box.width - 40; x > box.x + 40; x -= 30) await touch('touchMove', x);
    await touch('touchEnd', box.x + 40);
    await expect.poll(() => wrap.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    // Below the terminal: what the agent saw of the selected command.
    await page.locator('.agent-pane').scrollIntoViewIfNeeded();
    expect(await page.locator('.agent-pane .agent-text').innerText()).toMatch(/approved by operator/);
    expect(await smallTargets(page)).toEqual([]);
    await screenshot(page, 'phone-session-agent.png', ['.agent-pane .agent-text']);
    expect(errors).toEqual([]);
  }, 10 * STEP_MS);
});

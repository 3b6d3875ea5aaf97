/**
 * End to end: bulk decisions (issue 24) in Debian's Chromium against the browser console, with
 * two real agents (MCP clients spawning `mish serve` in a temp HOME) whose dangerous commands
 * wait for the operator. The operator picks "all under rule git-push-force" and denies them,
 * then "all from claude-code" and approves them; the confirmation names how many and which
 * rules; every agent's call resolves accordingly, and the audit log holds one decision per
 * approval, all by the same operator.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole, type RunningConsole } from '../src/main/console/console-command.js';
import { requireElectronBuild } from '../test/helpers/fresh-build.js';
import { safeHome, type SafeHome } from '../test/helpers/safe-home.js';
import { CONSOLE_FRAME, screenshot } from './screenshots.js';
import { CHROMIUM, RENDERER, SHOTS, STEP_MS, launchChromium, serveAgent, type Agent, type Reply } from './remote-console-kit.js';

describe('bulk decisions in a browser', () => {
  let browser: Browser | undefined;
  let running: RunningConsole | undefined;
  let safe: SafeHome;
  let auditLog: string;
  const agents: Agent[] = [];
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    requireElectronBuild();
    expect(existsSync(CHROMIUM), `${CHROMIUM} missing: apt-get install chromium`).toBe(true);
    mkdirSync(SHOTS, { recursive: true });
    safe = safeHome('console-bulk');
    auditLog = path.join(safe.home, '.state', 'mish', 'audit.jsonl');
    const env = safe.env({ MISH_OPERATOR_DIR: path.join(safe.home, 'operators'), MISH_SPOOL_DIR: path.join(safe.home, 'spool'), MISH_AUDIT_LOG: auditLog });
    process.env.MISH_AUDIT_LOG = auditLog;
    const started = await startConsole({ rendererDir: RENDERER, operatorDir: env.MISH_OPERATOR_DIR });
    if (!started.ok) throw new Error(started.error);
    running = started.value;
    agents.push(await serveAgent('claude-code', safe.cwd, env), await serveAgent('codex', safe.cwd, env));
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1480, height: 900 }, colorScheme: 'dark' })).newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(running.web.url);
    for (const a of agents) await page.locator(`[data-server-id="${a.serverId}"] .server-name`).waitFor({ timeout: STEP_MS });
  }, 5 * STEP_MS);

  afterAll(async () => {
    await browser?.close();
    for (const a of agents) await a.close().catch(() => {});
    await running?.close();
    safe?.assertCanariesIntact();
    safe?.dispose();
  });

  it('denies all under one rule, approves all from one agent; one audit decision each, same operator', async () => {
    const [claude, codex] = agents;
    const scratch = (name: string) => {
      const dir = path.join(safe.cwd, name);
      mkdirSync(path.join(dir, 'build'), { recursive: true });
      writeFileSync(path.join(dir, 'build', 'out.o'), 'x');
      return dir;
    };
    const s1 = scratch('s1');
    const s2 = scratch('s2');
    const s3 = scratch('s3');
    // A force push from a directory that is no repository: denied here; had it run, it would fail harmlessly.
    const calls: Record<string, Promise<Reply>> = {
      rm1: claude.call('sh_run', { cmd: 'rm -rf ./*', session: 'b1', cwd: s1, timeout: 120 }),
      rm2: claude.call('sh_run', { cmd: 'rm -rf ./*', session: 'b2', cwd: s2, timeout: 120 }),
      push1: claude.call('sh_run', { cmd: 'git push --force origin main', session: 'b3', cwd: safe.cwd, timeout: 120 }),
      push2: codex.call('sh_run', { cmd: 'git push --force origin main', session: 'c1', cwd: safe.cwd, timeout: 120 }),
      rm3: codex.call('sh_run', { cmd: 'rm -rf ./*', session: 'c2', cwd: s3, timeout: 120 }),
    };
    await expect.poll(() => page.locator('.pending-item.approval-item').count(), { timeout: STEP_MS }).toBe(5);
    // Bulk decisions are deliberate: close a dialog that opened by itself for the selected session.
    if (await page.locator('.approval-overlay').isVisible()) await page.keyboard.press('Escape');
    const ids = await page.locator('.pending-item.approval-item').evaluateAll((els) => els.map((e) => e.getAttribute('data-approval')!));
    expect(new Set(ids).size).toBe(5);

    // 1. All under rule git-push-force, from both agents: denied together.
    await page.locator('.chip[data-pick="rule:git-push-force"]').click();
    await page.locator('button[data-bulk="deny"]', { hasText: 'Deny 2…' }).click();
    const confirm = page.locator('.dialog.bulk-confirm');
    await confirm.waitFor();
    const text = await confirm.innerText();
    expect(text).toContain('Deny 2 approvals?');
    expect(text).toContain('Rules: git-push-force ×2');
    expect(text).toContain('Agents: claude-code 1.0.0 ×1, codex 1.0.0 ×1');
    await screenshot(page, 'bulk-confirm.png', [...CONSOLE_FRAME, '.dialog.bulk-confirm']);
    await confirm.locator('button[data-bulk-go="deny"]').click();
    const [push1, push2] = await Promise.all([calls.push1, calls.push2]);
    for (const r of [push1, push2]) expect(r.text).toMatch(/denied by the operator \(console \([^)]+\), approval a_[^)]+\); nothing was run/);
    await expect.poll(() => page.locator('.pending-item.approval-item').count()).toBe(3);
    await page.locator('.bulk-outcome', { hasText: '2 denied' }).waitFor();

    // 2. All from claude-code (its two deletes): approved together.
    await page.locator('.chip[data-pick="agent:claude-code 1.0.0"]').click();
    await page.locator('button[data-bulk="approve"]', { hasText: 'Approve 2…' }).click();
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain('Rules: rm-recursive-root-or-home ×2');
    await confirm.locator('button[data-bulk-go="approve"]').click();
    const [rm1, rm2] = await Promise.all([calls.rm1, calls.rm2]);
    for (const r of [rm1, rm2]) expect(r.text).toMatch(/\[approved by operator console \([^)]+\) \(a_/);
    expect(readdirSync(s1)).toEqual([]);
    expect(readdirSync(s2)).toEqual([]);

    // 3. The one left (codex's delete) was never picked: still waiting; denied by its own pick box.
    await expect.poll(() => page.locator('.pending-item.approval-item').count()).toBe(1);
    expect(readdirSync(s3)).toEqual(['build']);
    await page.locator('.approval-row input[type="checkbox"]').check();
    await page.locator('button[data-bulk="deny"]', { hasText: 'Deny 1…' }).click();
    expect(await confirm.innerText()).toContain('Deny 1 approval?');
    await confirm.locator('button[data-bulk-go="deny"]').click();
    expect((await calls.rm3).text).toMatch(/denied by the operator/);
    expect(readdirSync(s3)).toEqual(['build']);
    await expect.poll(() => page.locator('.pending-item.approval-item').count()).toBe(0);

    // The audit log: each approval decided once, as its own record, all by the same operator.
    const records = readFileSync(auditLog, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((r) => r.kind === 'approval' && (r.decision === 'approved' || r.decision === 'denied'));
    const byId = new Map<string, Record<string, unknown>[]>();
    for (const r of records) {
      const id = JSON.stringify(r).match(/a_[A-Za-z0-9_-]+/)?.[0] ?? '';
      byId.set(id, [...(byId.get(id) ?? []), r]);
    }
    expect([...byId.keys()].sort()).toEqual([...ids].sort());
    for (const list of byId.values()) expect(list).toHaveLength(1);
    const who = new Set(records.map((r) => JSON.stringify(r).match(/console \([^)]+\)/)?.[0]));
    expect(who.size).toBe(1);
    expect(records.filter((r) => r.decision === 'denied')).toHaveLength(3);
    expect(records.filter((r) => r.decision === 'approved')).toHaveLength(2);
    expect(errors).toEqual([]);
  }, 10 * STEP_MS);
});

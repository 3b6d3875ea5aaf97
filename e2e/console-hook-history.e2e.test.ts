/**
 * End to end: what an agent's hook did while no console was open, seen by a console opened
 * afterwards (Debian's Chromium against the browser mode). `mish hook claude-code` runs as Claude
 * Code runs it (its PreToolUse payload on stdin, in bypassPermissions mode: mish rewrites what it
 * allows and denies what it would escalate), in a temp HOME with canaries, with no console
 * anywhere: one command is allowed and its rewrite is run the way Claude Code runs it (a shell
 * running the rewritten line), one is escalated and refused (no operator attached), one is
 * forbidden outright; and one escalated in Claude Code's default mode is left to its own prompt. A hooked run's socket is gone seconds after it ends and a refusal never
 * opens one: the audit log is all that is left. Then the console starts and shows the
 * conversation as it would have had it been open: the agent entry (hooked, one run), its session,
 * the run's row (exit code, category, raw output from its spool) and each refusal as a row that
 * never ran (rule, how it was refused, the agent's exact text), each marked as read from the log.
 * Then, with the console open, a command the hook forbids on its own (it asks nobody, so nothing
 * reaches the wire) appears as it happens: the console follows the log.
 */
import { spawnSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConsoleWithAgent, type ConsoleKit } from './console-kit.js';
import { MISH, STEP_MS } from './remote-console-kit.js';
import { CONSOLE_FRAME, screenshot } from './screenshots.js';

/** Claude Code's session id of the conversation (the key the console groups hooked runs by). */
const SESSION = '7c0ffee0-1111-4222-8333-944455556666';

describe("an agent's hooked commands and hook refusals before any console was open", () => {
  // The console is opened inside the test, after the hook ran: that is the point of this file.
  let kit: ConsoleKit | undefined;

  beforeAll(async () => {
    // The kit's own agent (mish serve) is named apart from the hooked conversation.
    kit = await openConsoleWithAgent('console-hook-history', { console: 'later', agent: { name: 'serve-agent' } });
  }, 5 * STEP_MS);

  afterAll(async () => {
    await kit?.close();
  });

  /** `mish hook claude-code` with Claude Code's payload for a Bash call; its answer as Claude Code reads it. */
  const hook = (command: string, mode = 'bypassPermissions') => {
    const { safe, env } = kit!;
    const payload = { session_id: SESSION, cwd: safe.cwd, permission_mode: mode, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } };
    const r = spawnSync(process.execPath, [MISH, 'hook', 'claude-code'], { cwd: safe.cwd, env, input: JSON.stringify(payload), encoding: 'utf8', timeout: STEP_MS });
    expect(r.status, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string; updatedInput?: { command: string } } }).hookSpecificOutput;
  };

  it('shows the conversation, its run and both refusals, each as it happened, marked as read from the audit log', async () => {
    const { safe, env, wire, errors } = kit!;
    // 1. Allowed: rewritten to run through mish; run as Claude Code runs its Bash tool.
    const allowed = hook('printf "ok 1 - adds\\nnot ok 2 - cart total\\n" && false');
    expect(allowed.permissionDecision).toBe('allow');
    const ran = spawnSync('bash', ['-c', allowed.updatedInput!.command], { cwd: safe.cwd, env, encoding: 'utf8', timeout: STEP_MS });
    expect(ran.status).toBe(1);
    expect(ran.stdout).toContain('[exit 1]');
    // 2. Escalated, nobody to ask: refused (Claude Code in this mode would run an `ask`).
    const escalated = hook('git push --force origin main');
    expect(escalated.permissionDecision).toBe('deny');
    expect(escalated.permissionDecisionReason).toContain('no mish operator is attached');
    // 3. Forbidden: mish's own audit log.
    const forbidden = hook(`rm ${wire.MISH_AUDIT_LOG}`);
    expect(forbidden.permissionDecision).toBe('deny');
    expect(forbidden.permissionDecisionReason).toMatch(/^mish policy: forbidden by rule mish-own-files: /);
    // 4. Escalated in Claude Code's default mode, nobody to ask: left to Claude Code's own prompt (its user decides).
    const asked = hook('dd if=/dev/zero of=/dev/sda', 'default');
    expect(asked.permissionDecision).toBe('ask');
    safe.assertCanariesIntact();

    // Only now does a console start (and open in Chromium).
    const page: Page = await kit!.openConsole();
    await kit!.running.history;
    const entry = page.locator('.group', { has: page.locator(`.badge.hooked[data-conversation="${SESSION}"]`) });
    await entry.waitFor({ timeout: STEP_MS });
    expect(await entry.locator('.server-name').innerText()).toBe('claude-code');
    expect(await entry.locator('.badge.hooked').innerText()).toBe('hooked · 1 run');
    await entry.locator('button.session').click();

    const rows = page.locator('.timeline li:has(.row[data-command-id])');
    await expect.poll(() => rows.count(), { timeout: STEP_MS }).toBe(4);
    // In the order they happened, each read from the audit log.
    expect(await rows.locator('.cmd').allInnerTexts()).toEqual(['printf "ok 1 - adds\\nnot ok 2 - cart total\\n" && false', 'git push --force origin main', `rm ${wire.MISH_AUDIT_LOG}`, 'dd if=/dev/zero of=/dev/sda']);
    for (let i = 0; i < 4; i++) expect(await rows.nth(i).getAttribute('data-audit-seq')).toMatch(/^\d+$/);

    // The run: exit code, category, its raw output from the spool.
    const run = rows.nth(0);
    expect(await run.locator('.exit').innerText()).toBe('1');
    expect(await run.locator('.glyph').getAttribute('aria-label')).toBe('failed (exit 1)');
    expect(await run.locator('.cat').innerText()).toBe('passthrough');
    await run.locator('button.row').click();
    await page.locator('.raw-pane').getByText('not ok 2 - cart total').waitFor({ timeout: STEP_MS });
    await page.locator('.agent-pane .from-audit').waitFor({ timeout: STEP_MS });
    expect(await page.locator('.agent-pane .from-audit').innerText()).toMatch(/^From the audit log \(record \d+\): no console was open when this happened\./);

    // The escalation refused with nobody attached: like mish serve's unattended refusal.
    const refused = page.locator('.timeline li[data-approval-outcome="no-operator"]');
    expect(await refused.locator('.glyph').getAttribute('aria-label')).toBe('refused: no operator attached');
    expect(await refused.locator('.approval-mark').innerText()).toMatch(/^⊘ refused: no operator attached · \d\d:\d\d:\d\d$/);
    expect(await refused.locator('.cat').innerText()).toBe('git-push-force');
    expect(await refused.locator('.tok').innerText()).toBe('never ran');
    await refused.locator('button.row').click();
    await page.locator('.agent-pane .decision[data-decision="no-operator"]').waitFor({ timeout: STEP_MS });
    await expect.poll(() => page.locator('.agent-pane .agent-text').getAttribute('data-exact'), { timeout: STEP_MS }).toBe('true');
    // What the agent read, word for word.
    expect((await page.locator('.agent-pane .agent-text').innerText()).trim()).toBe(escalated.permissionDecisionReason);

    // The forbidden one: refused by the policy in the hook, nobody asked.
    const denied = page.locator('.timeline li[data-approval-outcome="forbidden"]');
    expect(await denied.locator('.glyph').getAttribute('aria-label')).toBe('refused by policy');
    expect(await denied.locator('.approval-mark').innerText()).toMatch(/^⊘ refused by policy · \d\d:\d\d:\d\d$/);
    expect(await denied.locator('.cat').innerText()).toBe('mish-own-files');
    await denied.locator('button.row').click();
    const decision = page.locator('.agent-pane .decision[data-decision="forbidden"]');
    await decision.waitFor({ timeout: STEP_MS });
    expect(await decision.innerText()).toMatch(/Refused by mish's policy in the agent's hook at .+, before it ran\. Nobody was asked and nothing ran/);
    await expect.poll(async () => (await page.locator('.agent-pane .agent-text').innerText()).trim(), { timeout: STEP_MS }).toBe(forbidden.permissionDecisionReason);

    // Left to the host's prompt: said so, not struck through as never run (the user may have let Claude Code run it).
    const hostAsked = page.locator('.timeline li[data-approval-outcome="host-asked"]');
    expect(await hostAsked.locator('.glyph').getAttribute('aria-label')).toBe("left to the agent's own prompt (no operator)");
    expect(await hostAsked.locator('.approval-mark').innerText()).toMatch(/^⚠ no operator: left to the agent's own prompt · \d\d:\d\d:\d\d$/);
    expect(await hostAsked.locator('.cat').innerText()).toBe('dd-to-device');
    expect(await hostAsked.locator('.tok').innerText()).toBe('not via mish');
    expect(await hostAsked.locator('button.row').getAttribute('class')).not.toContain('never-ran');

    // A record, never a decision to make: nothing pending.
    expect(await page.locator('.pending-item.approval-item').count()).toBe(0);
    expect(await page.locator('.timeline li[data-pending-approval]').count()).toBe(0);

    // The row the brief asks about, shown: the unattended refusal, selected, with its detail.
    await refused.locator('button.row').click();
    await page.locator('.agent-pane .decision[data-decision="no-operator"]').waitFor({ timeout: STEP_MS });
    await screenshot(page, 'timeline-hook-history.png', [...CONSOLE_FRAME, '.timeline li[data-approval-outcome="no-operator"]', '.timeline li[data-approval-outcome="forbidden"]', '.agent-pane .decision', '.agent-pane .from-audit']);
    safe.assertCanariesIntact();
    expect(errors).toEqual([]);
  }, 10 * STEP_MS);

  it('with the console open, a command the hook forbids on its own (no socket, nothing asked) appears as it happens, read from the log', async () => {
    const { safe, wire, errors, page } = kit!;
    const forbidden = hook(`rm ${wire.MISH_AUDIT_LOG}.head`);
    expect(forbidden.permissionDecision).toBe('deny');
    const row = page.locator('.timeline li[data-approval-outcome="forbidden"]', { has: page.locator('.cmd', { hasText: `rm ${wire.MISH_AUDIT_LOG}.head` }) });
    await row.waitFor({ timeout: STEP_MS });
    // The newest row, after the four before it.
    expect(await page.locator('.timeline li:has(.row[data-command-id]) .cmd').last().innerText()).toBe(`rm ${wire.MISH_AUDIT_LOG}.head`);
    await row.locator('button.row').click();
    await page.locator('.agent-pane .decision[data-decision="forbidden"]').waitFor({ timeout: STEP_MS });
    expect(await page.locator('.agent-pane .from-audit').innerText()).toMatch(/^From the audit log \(record \d+\): mish’s hook decided this on its own, without asking the console\.$/);
    await expect.poll(async () => (await page.locator('.agent-pane .agent-text').innerText()).trim(), { timeout: STEP_MS }).toBe(forbidden.permissionDecisionReason);
    // Still one run in the conversation, nothing pending.
    expect(await page.locator('.badge.hooked').innerText()).toBe('hooked · 1 run');
    expect(await page.locator('.pending-item.approval-item').count()).toBe(0);

    // The page connecting again (a reload: a new connection to the same console) shows it all again.
    await page.reload();
    const entry = page.locator('.group', { has: page.locator(`.badge.hooked[data-conversation="${SESSION}"]`) });
    await entry.waitFor({ timeout: STEP_MS });
    await entry.locator('button.session').click();
    const rows = page.locator('.timeline li:has(.row[data-command-id])');
    await expect.poll(() => rows.count(), { timeout: STEP_MS }).toBe(5);
    expect(await page.locator('.timeline li[data-audit-seq]').count()).toBe(5);
    safe.assertCanariesIntact();
    expect(errors).toEqual([]);
  }, 5 * STEP_MS);
});

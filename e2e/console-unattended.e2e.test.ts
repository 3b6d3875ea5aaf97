/**
 * End to end: an escalation refused while no console was attached, seen by a console opened
 * afterwards (Debian's Chromium against the browser mode). A real MCP client (the SDK's Client
 * spawning `mish serve` in a temp HOME with canary files) runs `rm -rf ~` before any console
 * exists: the policy escalates it, nobody can be asked, it is refused and nothing runs. Then
 * the console starts, connects to that server, and shows the refusal in the session's timeline
 * as a row that never ran (command, rule, "no operator attached"), never as a pending approval
 * that could still be approved; its detail is the reply the agent got, word for word.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConsoleWithAgent, type ConsoleKit } from './console-kit.js';
import { STEP_MS } from './remote-console-kit.js';
import { CONSOLE_FRAME, screenshot } from './screenshots.js';

describe('an escalation refused before any console was attached', () => {
  // The agent connects FIRST and no console exists yet: the console is opened inside the test,
  // after the refusal (`openConsole()`), which is the point of this file.
  let kit: ConsoleKit | undefined;

  beforeAll(async () => {
    kit = await openConsoleWithAgent('console-unattended', { console: 'later' });
  }, 5 * STEP_MS);

  afterAll(async () => {
    await kit?.close();
  });

  const run = async (cmd: string) => {
    const r = await kit!.client.callTool({ name: 'sh_run', arguments: { cmd, session: 'cleanup', cwd: kit!.safe.cwd, timeout: 60 } });
    return { text: (r.content as { type: string; text: string }[]).map((x) => x.text).join(''), structured: (r.structuredContent ?? {}) as Record<string, unknown> };
  };

  it('shows the refusal in the session timeline of a console opened afterwards: command, rule, no operator attached; not pending', async () => {
    await run('echo before-the-refusal');
    const refused = await run('rm -rf ~');
    expect(refused.structured.status).toBe('refused');
    const esc = refused.structured.escalation as { id: string; outcome: string; rule: string };
    expect(esc.outcome).toBe('no-operator');
    expect(refused.text).toContain('no operator is attached');
    const { safe, serverId, errors } = kit!;
    safe.assertCanariesIntact();

    // Only now does an operator appear (the console starts, opens in Chromium, and lists claude-code 1.0.0).
    const page: Page = await kit!.openConsole();
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

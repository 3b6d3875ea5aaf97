/**
 * End to end: the console's actions (issue 12) in Debian's Chromium against the browser mode,
 * with real MCP clients (the SDK's Client spawning `mish serve` in a temp HOME and cwd with
 * canary files) playing the agents:
 *   - one escalated `rm -rf` approved and another denied in the console; the agents' calls
 *     resolve accordingly (checked in the MCP replies), canaries intact for the denied one;
 *   - a `read -s` prompt taken over by typing into the embedded terminal; the secret is found in
 *     no MCP reply, no read_raw and no audit record;
 *   - the audit viewer showing the log intact, then a tampered log as broken at its line.
 * Each flow waits on what the page shows, never on sleeps, and saves a screenshot.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_FRAME, screenshot } from './screenshots.js';
import type { RunningConsole } from '../src/main/console/console-command.js';
import type { SafeHome } from '../test/helpers/safe-home.js';
import { itUnless } from '../test/helpers/skip.js';
import { terminalText, waitForTerminalText } from './xterm-wait.js';
import { openConsoleWithAgent, type ConsoleKit } from './console-kit.js';
import { STEP_MS } from './remote-console-kit.js';

/** The real interpreter (a pyenv shim would not run with the temp HOME). */
const PYTHON = (() => {
  const r = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
})();

interface Reply {
  text: string;
  structured: Record<string, unknown>;
  isError: boolean;
}

/** The kit's agent, every reply it got kept (a secret typed into the terminal must be in none). */
function recordingAgent(client: Client, serverId: string) {
  const replies: string[] = [];
  const call = async (tool: string, args: Record<string, unknown>): Promise<Reply> => {
    const r = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 10 * 60_000, resetTimeoutOnProgress: true });
    replies.push(JSON.stringify(r));
    const content = r.content as { type: string; text: string }[];
    return { text: content.map((x) => x.text).join(''), structured: (r.structuredContent ?? {}) as Record<string, unknown>, isError: r.isError === true };
  };
  return { client, serverId, call, replies };
}

describe('console actions in a browser', () => {
  let kit: ConsoleKit | undefined;
  let running: RunningConsole | undefined;
  let safe: SafeHome;
  let auditLog: string;
  let agent: ReturnType<typeof recordingAgent> | undefined;
  let page: Page;
  let errors: string[] = [];

  beforeAll(async () => {
    // The console (this process) and its own engine live in the same temp HOME and scratch cwd as
    // the agent's server, with the same audit log and spools: the engine approves a real
    // `rm -rf ./*`, and the canaries checked after each decision are the ones it could reach.
    // The console starts first; the kit waits until it lists claude-code 1.0.0 (connected as an approver).
    kit = await openConsoleWithAgent('console-actions');
    ({ running, safe, page, errors } = kit);
    auditLog = kit.wire.MISH_AUDIT_LOG;
    agent = recordingAgent(kit.client, kit.serverId);
  }, 5 * STEP_MS);

  afterAll(async () => {
    await kit?.close();
  });

  it('approves one escalated rm -rf and denies another; the agent\'s calls resolve accordingly', async () => {
    const a = agent!;
    // Approved: a recursive delete of everything in a scratch directory (matches the rm-recursive rule).
    const scratch = path.join(safe.cwd, 'scratch');
    mkdirSync(path.join(scratch, 'build'), { recursive: true });
    writeFileSync(path.join(scratch, 'build', 'out.o'), 'x');
    writeFileSync(path.join(scratch, 'old.log'), 'x');
    // In a list, the risky part is the rm (highlighted), not the harmless `ls` before it.
    const approvedCall = a.call('sh_run', { cmd: 'ls && rm -rf ./*', session: 'cleanup', cwd: scratch, timeout: 120 });
    const item = page.locator('.pending-item.approval-item', { hasText: 'rm -rf ./*' });
    await item.waitFor({ timeout: STEP_MS });
    // Whose it is, in the queue itself: the agent (name and version) and its session.
    expect(await item.locator('.whose').innerText()).toBe('claude-code 1.0.0 · cleanup');
    await item.click();
    const dialog = page.locator('.dialog.approval');
    await dialog.waitFor();
    await expect.poll(() => dialog.locator('mark.risk').innerText()).toBe('rm -rf ./*');
    await expect.poll(() => dialog.innerText()).toContain('rm-recursive-root-or-home');
    expect(await dialog.innerText()).toContain(scratch);
    await expect.poll(() => dialog.innerText()).toContain('claude-code 1.0.0');
    expect(await dialog.innerText()).toMatch(/denied by the operator \(console \(/);
    await screenshot(page, 'approval-dialog.png', [...CONSOLE_FRAME, '.dialog.approval', '.dialog.approval mark.risk']);
    await page.locator('.dialog.approval[data-armed]').waitFor(); // decisions wake DECISION_ARM_MS after it appears
    await page.keyboard.press('a');
    const approved = await approvedCall;
    expect(approved.isError).toBe(false);
    expect(approved.text).toMatch(/\[approved by operator console \([^)]+\) \(a_/);
    expect(readdirSync(scratch)).toEqual([]);
    await dialog.waitFor({ state: 'detached' });

    // The approved command is in the session's timeline; ✎ opens the grammar editor on its raw output.
    await page.locator(`button.session[data-session-id="${a.serverId}/cleanup"]`).click();
    const spoolId = String(approved.structured.spool_ref ?? approved.text.match(/mish raw ([0-9a-z]+)/)?.[1] ?? '');
    expect(spoolId).not.toBe('');
    await page.locator('.timeline .row-action').first().click();
    await page.locator('.gx-file', { hasText: `spool ${spoolId.replace(/^mish raw /, '')}` }).waitFor({ timeout: STEP_MS });
    await page.keyboard.press('Escape');
    await page.locator('.gx-file').first().waitFor({ state: 'detached' });

    // Denied: rm -rf ~ (HOME is the temp HOME; the canaries there must survive).
    const deniedCall = a.call('sh_run', { cmd: 'rm -rf ~', session: 'cleanup', cwd: safe.cwd, timeout: 120 });
    const item2 = page.locator('.pending-item.approval-item', { hasText: 'rm -rf ~' });
    await item2.waitFor({ timeout: STEP_MS });
    // Its session is the selected one, so its dialog opens by itself; from the queue otherwise.
    const id2 = await item2.getAttribute('data-approval');
    const overlay2 = page.locator(`.approval-overlay[data-approval-id="${id2}"]`);
    // While it waits, it is a row of its session's timeline: waiting for approval, under its rule.
    const waitingRow = page.locator(`.timeline li[data-pending-approval="${id2}"]`);
    await waitingRow.waitFor({ state: 'attached', timeout: STEP_MS });
    expect(await waitingRow.locator('.glyph').getAttribute('aria-label')).toBe('waiting for approval');
    expect(await waitingRow.locator('.cmd').innerText()).toBe('rm -rf ~');
    expect(await waitingRow.locator('.cat').innerText()).toMatch(/^rm-/);
    if (!(await overlay2.isVisible())) await item2.click();
    await overlay2.waitFor();
    await expect.poll(() => dialog.locator('mark.risk').innerText()).toBe('rm -rf ~');
    await dialog.locator('button[data-decision="deny"]').click();
    const denied = await deniedCall;
    expect(denied.text).toMatch(/denied by the operator \(console \([^)]+\), approval a_[^)]+\); nothing was run/);
    safe.assertCanariesIntact();
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('.pending-item.approval-item').count()).toBe(0);
    // Decided: the waiting row becomes the denied one (below), not a second row.
    await waitingRow.waitFor({ state: 'detached', timeout: STEP_MS });

    // The operator's record of both in the session's timeline: the approved row marked approved
    // (by this console, when); the denied command, which never ran, a row of its own.
    const approvedRow = page.locator('.timeline li[data-approval-outcome="approved"]');
    await approvedRow.waitFor({ timeout: STEP_MS });
    expect(await approvedRow.locator('.cmd').innerText()).toBe('ls && rm -rf ./*');
    expect(await approvedRow.locator('.approval-mark').innerText()).toMatch(/^✓ approved by you · \d\d:\d\d:\d\d$/);
    const deniedRow = page.locator('.timeline li[data-approval-outcome="denied"]');
    await deniedRow.waitFor({ timeout: STEP_MS });
    expect(await deniedRow.locator('.cmd').innerText()).toBe('rm -rf ~');
    expect(await deniedRow.locator('.glyph').getAttribute('aria-label')).toBe('denied by operator');
    expect(await deniedRow.locator('.approval-mark').innerText()).toMatch(/^⊘ denied by you · \d\d:\d\d:\d\d$/);
    expect(await deniedRow.locator('.cat').innerText()).toMatch(/^rm-/);
    expect(await deniedRow.locator('.tok').innerText()).toBe('never ran');
    // Its detail: who, when, how long the agent waited, the rule; no raw output to open.
    await deniedRow.locator('button.row').click();
    const decision = page.locator('.agent-pane .decision[data-decision="denied"]');
    await decision.waitFor();
    expect(await decision.innerText()).toMatch(/Denied by console \([^)]+\) \(you\) at .+ of waiting\. Nothing ran/);
    expect(await decision.innerText()).toMatch(/rule rm-\S+/);
    expect(await page.getByRole('tab', { name: /^Raw/ }).isDisabled()).toBe(true);
    // What the agent saw is the reply it got, word for word (not a summary of the decision).
    await expect.poll(() => page.locator('.agent-pane .agent-text').getAttribute('data-exact'), { timeout: STEP_MS }).toBe('true');
    expect((await page.locator('.agent-pane .agent-text').innerText()).trim()).toBe(denied.text.trim());
    await screenshot(page, 'timeline-decisions.png', [...CONSOLE_FRAME, '.timeline li[data-approval-outcome="denied"]', '.agent-pane .decision']);
    await approvedRow.locator('button.row').click();
    await expect.poll(() => page.locator('.agent-pane .decision').getAttribute('data-decision')).toBe('approved');
    expect(await page.locator('.agent-pane .decision').innerText()).toMatch(/Approved by console \([^)]+\) \(you\) at .+; it ran\./);
    await page.keyboard.press('Control+l'); // back to the live terminal

    // Who decided is in the audit log: the console's operator name.
    const log = readFileSync(auditLog, 'utf8');
    expect(log).toMatch(/"decision":"approved"[^\n]*console \(/);
    expect(log).toMatch(/"decision":"denied"[^\n]*console \(/);
    expect(errors).toEqual([]);
  }, 10 * STEP_MS);

  it('an approval that opens by itself leaves the focus where the operator types, and keys typed there decide nothing', async () => {
    const a = agent!;
    await a.call('sh_run', { cmd: 'echo ready-for-review', session: 'typing', cwd: safe.cwd });
    await page.locator(`button.session[data-session-id="${a.serverId}/typing"]`).click();
    // The operator searches the selected session's terminal, typing …
    await page.keyboard.press('Control+f');
    const search = page.locator('.search input');
    await search.waitFor();
    await search.type('re');
    // … when the agent asks for a recursive delete in that session: its dialog opens by itself.
    const scratch = path.join(safe.cwd, 'scratch-typing');
    mkdirSync(path.join(scratch, 'keep'), { recursive: true });
    const call = a.call('sh_run', { cmd: 'rm -rf ./*', session: 'typing', cwd: scratch, timeout: 120 });
    await page.locator('.approval-overlay', { hasText: 'rm -rf ./*' }).waitFor({ timeout: STEP_MS });
    await page.locator('.dialog.approval[data-armed]').waitFor();
    // The keys go on into the search box ('a' and 'd' among them); the command still waits.
    await page.keyboard.type('ady');
    expect(await search.inputValue()).toBe('ready');
    expect(await page.locator('.pending-item.approval-item', { hasText: 'rm -rf ./*' }).count()).toBe(1);
    expect(readdirSync(scratch)).toEqual(['keep']);
    // Deciding takes a deliberate act: into the dialog, then its key.
    await page.locator('.dialog.approval h2').click();
    await page.keyboard.press('d');
    const r = await call;
    expect(r.text).toMatch(/denied by the operator/);
    expect(readdirSync(scratch)).toEqual(['keep']);
    await expect.poll(() => page.locator('.pending-item.approval-item').count()).toBe(0);
    expect(errors).toEqual([]);
  }, 10 * STEP_MS);

  it("decides an escalation of an agent connected by URL to the console's own endpoint", async () => {
    const engine = running!.engine!;
    const client = new Client({ name: 'cursor', version: '0.5.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(engine.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${engine.mcpToken}` } } }));
    try {
      const scratch = path.join(safe.cwd, 'scratch-url');
      mkdirSync(path.join(scratch, 'dist'), { recursive: true });
      const call = client.callTool({ name: 'sh_run', arguments: { cmd: 'rm -rf ./*', session: 'url', cwd: scratch, timeout: 120 } }, undefined, { timeout: 10 * 60_000, resetTimeoutOnProgress: true });
      const overlay = page.locator('.approval-overlay', { hasText: 'rm -rf ./*' });
      const item = page.locator('.pending-item.approval-item', { hasText: 'rm -rf ./*' });
      await item.waitFor({ timeout: STEP_MS });
      if (!(await overlay.isVisible())) await item.click();
      await overlay.waitFor();
      await page.locator('.dialog.approval[data-armed]').waitFor();
      await page.keyboard.press('a');
      const r = await call;
      const text = (r.content as { text: string }[]).map((c) => c.text).join('');
      expect(text).toMatch(/\[approved by operator console \(/);
      expect(readdirSync(scratch)).toEqual([]);
      // The engine ran it in the scratch directory it was given, nowhere else.
      safe.assertCanariesIntact();
      await overlay.waitFor({ state: 'detached' });
    } finally {
      await client.close();
    }
  }, 10 * STEP_MS);

  /** Opens the dialog of the pending escalation showing `command` (by itself when its session is selected, else from the queue) once its keys are armed. */
  async function openDialogFor(command: string) {
    const item = page.locator('.pending-item.approval-item', { hasText: command });
    await item.waitFor({ timeout: STEP_MS });
    const id = await item.getAttribute('data-approval');
    const overlay = page.locator(`.approval-overlay[data-approval-id="${id}"]`);
    if (!(await overlay.isVisible())) await item.click();
    await overlay.waitFor();
    await page.locator('.dialog.approval[data-armed]').waitFor();
    return { id: id!, overlay };
  }

  it('edits an escalated command in the dialog: what runs is the edit, and the agent is told so', async () => {
    const a = agent!;
    const scratch = path.join(safe.cwd, 'scratch-edit');
    mkdirSync(path.join(scratch, 'build'), { recursive: true });
    writeFileSync(path.join(scratch, 'old.log'), 'x');
    const call = a.call('sh_run', { cmd: 'rm -rf ./*', session: 'edit', cwd: scratch, timeout: 120 });
    const { id, overlay } = await openDialogFor('rm -rf ./*');
    // E opens the edit box on the agent's command; the operator narrows it to one file.
    await page.keyboard.press('e');
    const box = page.locator('.dialog.approval .edit textarea');
    await box.waitFor();
    expect(await box.inputValue()).toBe('rm -rf ./*');
    await expect.poll(() => page.evaluate('document.activeElement?.tagName')).toBe('TEXTAREA');
    await box.fill('rm -f old.log');
    await page.keyboard.press('Enter');
    const r = await call;
    expect(r.isError).toBe(false);
    expect(r.text.split('\n')[0]).toMatch(new RegExp(`^\\[operator console \\([^)]+\\) edited the command \\(${id}\\); what ran: \`rm -f old\\.log\`\\]$`));
    expect(r.structured.escalation).toMatchObject({ id, outcome: 'edited', command: 'rm -f old.log' });
    // The edit ran, not the agent's line: the build directory is still there.
    expect(readdirSync(scratch)).toEqual(['build']);
    await overlay.waitFor({ state: 'detached' });
    safe.assertCanariesIntact();
    expect(errors).toEqual([]);
  }, 10 * STEP_MS);

  it('always for this session: S approves, and the next same danger in that session runs without asking', async () => {
    const a = agent!;
    const scratch = path.join(safe.cwd, 'scratch-always');
    mkdirSync(path.join(scratch, 'dist'), { recursive: true });
    const first = a.call('sh_run', { cmd: 'rm -rf ./*', session: 'always', cwd: scratch, timeout: 120 });
    const { id, overlay } = await openDialogFor('rm -rf ./*');
    await page.keyboard.press('s');
    const r1 = await first;
    expect(r1.text.split('\n')[0]).toMatch(new RegExp(`^\\[approved by operator console \\([^)]+\\) \\(${id}; rule rm-recursive-root-or-home is allowed for the rest of this session\\)\\]$`));
    expect(readdirSync(scratch)).toEqual([]);
    await overlay.waitFor({ state: 'detached' });
    // The same danger again in that session: no escalation, no dialog; it simply runs.
    mkdirSync(path.join(scratch, 'dist-again'));
    const r2 = await a.call('sh_run', { cmd: 'rm -rf ./*', session: 'always', timeout: 120 });
    expect(r2.structured).toMatchObject({ status: 'exited', exit_code: 0 });
    expect(r2.structured.escalation).toBeUndefined();
    expect(readdirSync(scratch)).toEqual([]);
    expect(await page.locator('.pending-item.approval-item').count()).toBe(0);
    // It printed nothing, and the agent got a reply: what that cost, never a dash.
    await page.locator(`button.session[data-session-id="${a.serverId}/always"]`).click();
    const silent = page.locator('.timeline li', { hasText: 'rm -rf ./*' }).last();
    await expect.poll(() => silent.locator('.tok').innerText(), { timeout: STEP_MS }).toMatch(/^0 → \d+ tok$/);
    expect(await silent.locator('.red').innerText()).toMatch(/^\+\d+ tok$/);
    safe.assertCanariesIntact();
    expect(errors).toEqual([]);
  }, 10 * STEP_MS);

  it('takes over a read -s prompt by typing into the terminal; the secret reaches no reply, no read_raw and no audit record', async () => {
    const a = agent!;
    const secret = `Tr0ub4dor-${Math.random().toString(36).slice(2, 10)}`;
    // After the secret, the script asks an ordinary question: it still runs when the operator hands it back.
    writeFileSync(path.join(safe.cwd, 'ask.sh'), 'read -r -s -p "Password: " pw\necho\necho "len=${#pw}"\nread -r -p "Go on? " go\necho "go=$go"\n');
    const started = await a.call('sh_run', { cmd: 'bash ask.sh', session: 'deploy', cwd: safe.cwd, timeout: 120 });
    expect(started.structured.status).toBe('waiting-for-input');
    const handoff = String(started.structured.handoff);
    expect(handoff).toMatch(/^h_/);
    const id = String(started.structured.id);

    await page.locator(`button.session[data-session-id="${a.serverId}/deploy"]`).click();
    const take = page.locator(`.handoff-banner[data-handoff="${handoff}"] .take-btn`);
    await take.waitFor({ timeout: STEP_MS });
    await waitForTerminalText(page, 'Password:', STEP_MS);
    await take.click();
    await page.locator('.takeover-banner').waitFor({ timeout: STEP_MS });
    expect(await page.locator('.takeover-banner').innerText()).toContain('You have this terminal — the agent sees nothing you type.');
    await page.locator('.operator-session').waitFor();
    // Keystrokes go into the xterm (focused on takeover; clicked here as an operator would), and over the wire to the PTY.
    await page.locator('.pane-body.held .terminal[data-session]').click();
    await page.keyboard.type(secret);
    await screenshot(page, 'takeover.png', [...CONSOLE_FRAME, '.takeover-banner', '.pane-body.held .terminal[data-session]']);
    await page.keyboard.press('Enter');
    try {
      await waitForTerminalText(page, `len=${secret.length}`, STEP_MS);
    } catch (e) {
      throw new Error(`the process never got the answer; terminal:\n${await terminalText(page)}\n${(e as Error).message}`);
    }
    await page.keyboard.press('Control+t');
    await page.locator('[data-returned]').waitFor({ timeout: STEP_MS });
    expect(await page.locator('[data-returned]').innerText()).toContain(`operator handoff ${handoff}`);
    await screenshot(page, 'takeover-returned.png', [...CONSOLE_FRAME, '[data-returned]']);

    expect(await page.locator('[data-returned]').innerText()).toContain('the process continues');
    // Back with the agent: it answers the ordinary question itself and gets the summary.
    await a.call('sh_interact', { id, action: 'send', text: 'yes\n' });
    const status = await a.call('sh_interact', { id, action: 'status', wait: 30 });
    expect(status.text).toContain(`[operator handoff ${handoff}: secret prompt "Password:`);
    expect(status.text).toMatch(/held by console \(/);
    expect(status.text).toContain('the operator typed an answer (not shown to you)');
    expect(status.text).toContain('go=yes');
    // The process is done: the "Returned to the agent" note goes by itself (it stayed for good before).
    await page.locator('[data-returned]').waitFor({ state: 'detached', timeout: STEP_MS });
    await a.call('sh_interact', { id, action: 'read_raw' });
    await a.call('sh_interact', { id, action: 'read_tail', raw: true });
    for (const r of a.replies) expect(r).not.toContain(secret);
    expect(readFileSync(auditLog, 'utf8')).not.toContain(secret);
    expect(readFileSync(auditLog, 'utf8')).toContain(handoff);
    expect(errors).toEqual([]);
  }, 10 * STEP_MS);

  itUnless(PYTHON ? '' : 'python3 is not installed')("takes over Python's getpass the same way", async () => {
    const a = agent!;
    const secret = `c0rrect-h0rse-${Math.random().toString(36).slice(2, 10)}`;
    writeFileSync(path.join(safe.cwd, 'gp.py'), 'import getpass\npw = getpass.getpass("Vault password: ")\nprint("got", len(pw))\n');
    const started = await a.call('sh_run', { cmd: `${PYTHON} gp.py`, session: 'vault', cwd: safe.cwd, timeout: 120 });
    expect(started.structured.status).toBe('waiting-for-input');
    const handoff = String(started.structured.handoff);
    const id = String(started.structured.id);
    await page.locator(`button.session[data-session-id="${a.serverId}/vault"]`).click();
    const take = page.locator(`.handoff-banner[data-handoff="${handoff}"] .take-btn`);
    await take.waitFor({ timeout: STEP_MS });
    await page.keyboard.press('Control+t');
    await page.locator('.takeover-banner').waitFor({ timeout: STEP_MS });
    await page.keyboard.type(secret);
    await page.keyboard.press('Enter');
    await waitForTerminalText(page, `got ${secret.length}`, STEP_MS);
    // The process ended while the operator held it: the console shows what the agent is told.
    await page.locator('[data-returned]').waitFor({ timeout: STEP_MS });
    const status = await a.call('sh_interact', { id, action: 'status', wait: 30 });
    expect(status.text).toContain(`[operator handoff ${handoff}: secret prompt "Vault password:`);
    await a.call('sh_interact', { id, action: 'read_raw' });
    for (const r of a.replies) expect(r).not.toContain(secret);
    expect(readFileSync(auditLog, 'utf8')).not.toContain(secret);
    expect(errors).toEqual([]);
  }, 10 * STEP_MS);

  it('takes over any waiting session at will and hands it back; the panes then follow the session, not the row looked at before', async () => {
    const a = agent!;
    await a.call('sh_run', { cmd: 'echo preparing-release', session: 'release', cwd: safe.cwd, timeout: 120 });
    await page.locator(`button.session[data-session-id="${a.serverId}/release"]`).click();
    // The operator looks at that finished command (its row selected, its raw output open) …
    const earlier = page.locator('.timeline button.row', { hasText: 'echo preparing-release' });
    await earlier.click();
    const earlierId = await earlier.getAttribute('data-command-id');
    await expect.poll(() => page.locator('.agent-pane').getAttribute('data-command-id')).toBe(earlierId);
    // … when the agent's next command waits for input, and the operator takes it over.
    const started = await a.call('sh_run', { cmd: 'read -r -p "Release name? " n; echo "releasing $n"', session: 'release', cwd: safe.cwd, timeout: 120 });
    expect(started.structured.status).toBe('waiting-for-input');
    const id = String(started.structured.id);
    await page.getByRole('tab', { name: /^Live terminal/ }).click();
    await waitForTerminalText(page, 'Release name?', STEP_MS);
    await page.locator('.take-btn.quiet').click();
    await page.locator('.takeover-banner').waitFor({ timeout: STEP_MS });
    await page.locator('.pane-body.held .terminal[data-session]').click();
    await page.keyboard.type('v2');
    await page.keyboard.press('Enter');
    await waitForTerminalText(page, 'releasing v2', STEP_MS);
    await page.locator('[data-returned]').waitFor({ timeout: STEP_MS });
    const status = await a.call('sh_interact', { id, action: 'status', wait: 30 });
    expect(status.text).toMatch(/\[operator handoff h_[^:]+: operator takeover · held by console \(/);
    // Handed back: the panes show the session's command (the one taken over), then its newest.
    await expect.poll(() => page.locator('.agent-pane').getAttribute('data-command-id'), { timeout: STEP_MS }).toBe(id);
    await a.call('sh_run', { cmd: 'echo after-the-release', session: 'release', cwd: safe.cwd, timeout: 120 });
    const newest = page.locator('.timeline button.row', { hasText: 'echo after-the-release' });
    await newest.waitFor({ timeout: STEP_MS });
    await expect.poll(() => page.locator('.agent-pane').getAttribute('data-command-id'), { timeout: STEP_MS }).toBe(await newest.getAttribute('data-command-id'));
    expect(errors).toEqual([]);
  }, 10 * STEP_MS);

  it('shows the audit log with filters and details, and a tampered log broken at the record where it breaks', async () => {
    // `u` opens it from anywhere but a text field, a terminal that only shows included: the focus
    // in its xterm text area (a click into it, a takeover that ended) used to swallow the key.
    await page.locator('.terminal[data-session] .xterm-screen').first().click();
    expect(await page.evaluate('document.activeElement?.className')).toContain('xterm-helper-textarea');
    await page.keyboard.press('u');
    const view = page.locator('.audit-view');
    await view.waitFor();
    await view.locator('[data-verify="ok"]').waitFor({ timeout: STEP_MS });
    // Filter: only denied decisions → the denied rm -rf ~.
    await view.locator('select[aria-label="decision filter"]').selectOption('denied');
    await expect.poll(() => view.locator('.audit-row').count()).toBeGreaterThan(0);
    for (const t of await view.locator('.audit-row .dec').allInnerTexts()) expect(t).toBe('denied');
    await view.locator('.audit-row').first().click();
    await expect.poll(() => view.locator('.audit-detail pre').innerText()).toContain('rm -rf ~');
    // An agent's runs name the agent (its MCP client), not only "agent".
    await view.locator('select[aria-label="decision filter"]').selectOption('ran');
    await expect.poll(() => view.locator('.audit-row').count()).toBeGreaterThan(0);
    for (const t of await view.locator('.audit-row .by').allInnerTexts()) expect(t).toMatch(/^agent · \S/);
    await view.locator('select[aria-label="decision filter"]').selectOption('');
    // A handoff's later records (attached, returned) name their session, taken from its request.
    const attached = view.locator('.audit-row', { hasText: 'attached' }).first();
    await attached.waitFor();
    expect(await attached.locator('.sess').innerText()).not.toBe('');
    // No decision is cut off: the longest (operator-connected) fits its column.
    const cut = await page.evaluate(`[...document.querySelectorAll('.audit-row .dec')].filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent)`);
    expect(cut).toEqual([]);

    // Tamper: rewrite what one record says happened (an approval turned into a denial).
    const lines = readFileSync(auditLog, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes('"decision":"approved"'));
    expect(at).toBeGreaterThanOrEqual(0);
    lines[at] = lines[at].replace('"decision":"approved"', '"decision":"denied"');
    writeFileSync(auditLog, lines.join('\n'));
    await view.getByRole('button', { name: 'Refresh' }).click();
    const broken = view.locator('[data-verify="broken"]');
    await broken.waitFor({ timeout: STEP_MS });
    expect(await broken.innerText()).toContain(`line ${at + 1}`);
    const row = view.locator(`.audit-row[data-line="${at + 1}"]`);
    expect(await row.getAttribute('data-broken')).toBe('true');
    await broken.click();
    await expect.poll(() => view.locator('.audit-detail').innerText()).toContain(`line ${at + 1}`);
    await row.scrollIntoViewIfNeeded();
    await screenshot(page, 'audit-broken.png', ['.audit-view', '[data-verify="broken"]', `.audit-row[data-line="${at + 1}"]`]);
    await page.keyboard.press('Escape');
    await view.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  }, 5 * STEP_MS);
});

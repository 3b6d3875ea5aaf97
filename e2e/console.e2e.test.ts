/**
 * End to end: the browser console (web host + built renderer in real Chromium) against real
 * sessions. A command runs in a session; the test waits until xterm in the page has parsed its
 * output and the command bar shows its exit code.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebConsole, type WebConsole } from '../src/main/console/console-command.js';
import { createConsoleManager } from '../src/main/console/engine.js';
import type { SessionManager } from '../src/main/core/session/types.js';
import { terminalText, waitForTerminalText } from './xterm-wait.js';
import { ensureElectronBuild } from '../test/helpers/fresh-build.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RENDERER = path.join(ROOT, 'out', 'renderer');
/** Debian's Chromium (scripts/apt-packages.txt); Playwright never downloads a browser here. */
const CHROMIUM = '/usr/bin/chromium';

describe('operator console in a browser', () => {
  let browser: Browser | undefined;
  let web: WebConsole | undefined;
  let manager: SessionManager;

  beforeAll(async () => {
    // out/ is rebuilt when missing or older than its sources: never the renderer of an old checkout.
    ensureElectronBuild();
    expect(existsSync(CHROMIUM), `${CHROMIUM} missing: apt-get install chromium`).toBe(true);
    const engine = await createConsoleManager({ cwd: os.tmpdir() });
    if (!engine.ok) throw new Error(engine.error);
    manager = engine.value;
    const started = await startWebConsole({ manager, rendererDir: RENDERER });
    if (!started.ok) throw new Error(started.error.message);
    web = started.value;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  });

  afterAll(async () => {
    await browser?.close();
    await web?.close();
    await manager?.dispose();
  });

  it('shows the sessions and the live output of a command with its exit code', async () => {
    for (const name of ['build', 'e2e']) {
      const created = await manager.create({ name, shell: 'bash' });
      if (!created.ok) throw new Error(created.error.message);
    }
    const page = await browser!.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(web!.url);

    await page.locator('li.session[data-session="e2e"]').click();
    await page.locator('.terminal[data-session="e2e"] .xterm').waitFor();
    expect(await page.locator('li.session').count()).toBe(2);

    const nonce = `mish-e2e-${Math.random().toString(36).slice(2, 10)}`;
    // The marker is assembled by the shell, so the echoed command line can never match it.
    const result = await manager.run({ session: 'e2e', command: `printf '%s-%s\\n' ${nonce} done; printf '\\033[31mred line\\033[0m\\n'; (exit 3)` });
    expect(result.exitCode).toBe(3);
    try {
      await waitForTerminalText(page, `${nonce}-done`);
    } catch (e) {
      throw new Error(`terminal never showed the output; it shows:\n${await terminalText(page)}\n${(e as Error).message}`);
    }
    await waitForTerminalText(page, 'red line');
    await page.locator('.command-bar .exit.fail', { hasText: 'exit 3' }).waitFor();

    // A view opened later starts from the backlog: reload and find the same output again.
    await page.reload();
    await page.locator('li.session[data-session="e2e"]').click();
    await waitForTerminalText(page, `${nonce}-done`);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('refuses the page and the WebSocket without the token', async () => {
    const base = web!.url.replace(/\?token=.*$/, '');
    expect((await fetch(base)).status).toBe(403);
    expect((await fetch(`${base}?token=wrong`)).status).toBe(403);
    expect((await fetch(web!.url)).status).toBe(200);
  });
});

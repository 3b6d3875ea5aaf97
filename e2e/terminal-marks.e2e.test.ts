/**
 * End to end: the live terminal's command marks never cover the session's text (Debian's
 * Chromium against the browser mode, a real `mish serve` driven by the SDK's Client). A mark
 * sits where a command's output starts; when that line fills the terminal's width or wraps,
 * a mark drawn over the text columns hides its end. Marks live in a gutter left of the first
 * column (as VS Code's terminal draws its command decorations), so whatever the output, every
 * drawn part of a mark is outside the text area; the command is the mark's tooltip and label.
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
import { waitForTerminalText } from './xterm-wait.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RENDERER = path.join(ROOT, 'out', 'renderer');
const MISH = path.join(ROOT, 'bin', 'mish.js');
/** Debian's Chromium (scripts/apt-packages.txt); Playwright never downloads a browser here. */
const CHROMIUM = '/usr/bin/chromium';
const VIEWPORT = { width: 1480, height: 900 };
/** Hang guard for one step on a loaded 2-core machine (never a timing assertion). */
const STEP_MS = 60_000;

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

describe('command marks in the live terminal', () => {
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
    safe = safeHome('terminal-marks');
    const wire = { MISH_OPERATOR_DIR: path.join(safe.home, 'operators'), MISH_SPOOL_DIR: path.join(safe.home, 'spool'), MISH_AUDIT_LOG: path.join(safe.home, '.state', 'mish', 'audit.jsonl') };
    const env = safe.env(wire);
    leave = enterSafeHome(safe, wire);
    const started = await startConsole({ rendererDir: RENDERER, operatorDir: env.MISH_OPERATOR_DIR });
    if (!started.ok) throw new Error(started.error);
    running = started.value;
    const transport = new StdioClientTransport({ command: process.execPath, args: [MISH, 'serve'], cwd: safe.cwd, env, stderr: 'ignore' });
    client = new Client({ name: 'claude-code', version: '1.0.0' });
    await client.connect(transport);
    serverId = `serve-${transport.pid}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    const context = await browser.newContext({ viewport: VIEWPORT, colorScheme: 'dark' });
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(running.web.url);
    await page.locator(`[data-server-id="${serverId}"] .server-name`, { hasText: 'claude-code 1.0.0' }).waitFor({ timeout: STEP_MS });
  }, 5 * STEP_MS);

  afterAll(async () => {
    await browser?.close();
    await client?.close().catch(() => {});
    await running?.close();
    leave?.();
    safe?.assertCanariesIntact();
    safe?.dispose();
  });

  const run = (cmd: string) => client!.callTool({ name: 'sh_run', arguments: { cmd, session: 'wide', cwd: safe.cwd, timeout: 60 } });

  it('a mark on a line that fills the width, and on one that wraps, covers none of its text', async () => {
    await run('echo short-line');
    await page.locator(`button.session[data-session-id="${serverId}/wide"]`).click();
    await waitForTerminalText(page, 'short-line');
    // A line exactly as wide as the terminal (its last column is text), then one that wraps onto three rows.
    await run(`cols=$(tput cols); printf 'W%.0s' $(seq 1 $((cols - 1))); echo E`);
    await run(`printf 'L%.0s' $(seq 1 290); echo END-OF-WRAPPED`);
    await waitForTerminalText(page, 'END-OF-WRAPPED');
    await expect.poll(() => page.locator('.terminal[data-session]').getAttribute('data-marks'), { timeout: STEP_MS }).toBe('3');

    // The text area: the screen's columns × rows. Every drawn part of every mark stays outside it.
    const geometry = (await page.evaluate(`(() => {
      const screen = document.querySelector('.terminal[data-session] .xterm-screen');
      const term = window.__mishTerm;
      const s = screen.getBoundingClientRect();
      const rowHeight = s.height / term.rows;
      const text = { left: s.left, right: s.left + s.width, top: s.top, bottom: s.bottom };
      const rows = [...screen.querySelectorAll('.xterm-rows > div')].map((r) => r.textContent);
      const parts = [];
      for (const m of screen.parentElement.querySelectorAll('.cmd-mark')) {
        if (getComputedStyle(m).display === 'none') continue;
        for (const el of [m, ...m.querySelectorAll('*')]) {
          const st = getComputedStyle(el);
          if (st.display === 'none' || st.visibility === 'hidden') continue;
          const r = el.getBoundingClientRect();
          if (r.width === 0 || r.height === 0) continue;
          parts.push({ id: m.getAttribute('data-command-id'), cls: el.className, left: r.left, right: r.right, top: r.top, bottom: r.bottom, row: Math.floor((m.getBoundingClientRect().top - s.top) / rowHeight + 0.5) });
        }
      }
      return { text, rows, parts, cols: term.cols };
    })()`)) as { text: Box; rows: string[]; parts: (Box & { id: string; cls: string; row: number })[]; cols: number };
    const dump = JSON.stringify(geometry, null, 1);
    // The marked lines really are full: the width-filling line's last column holds text.
    const full = geometry.rows.findIndex((r) => /^W+E$/.test(r.replace(/\s+$/, '')));
    expect(full, dump).toBeGreaterThanOrEqual(0);
    expect(geometry.rows[full].replace(/\s+$/, '').length, dump).toBe(geometry.cols);
    const marked = new Set(geometry.parts.map((p) => p.row));
    expect(marked.has(full), dump).toBe(true);
    expect(geometry.parts.length, dump).toBeGreaterThanOrEqual(3);
    // The wrapped line's mark is on its first row, where its output starts (not on the row the wrap ends on).
    const wrapStart = geometry.rows.findIndex((r) => r.startsWith('LLLL'));
    const wrapMark = geometry.parts.find((p) => p.row > full);
    expect(wrapMark?.row, dump).toBe(wrapStart);
    const t = geometry.text;
    const inside = (p: Box) => p.left < t.right - 0.5 && p.right > t.left + 0.5 && p.top < t.bottom - 0.5 && p.bottom > t.top + 0.5;
    expect(geometry.parts.filter(inside), dump).toEqual([]);

    // The command is still named: each mark's label says its command and id, and a click on it shows that command.
    const labels = await page.locator('.terminal[data-session] .cmd-mark .cmd-mark-label').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
    expect(labels.some((l) => /^▸ printf 'L%\.0s' .+ · c\w+$/.test(l)), labels.join('\n')).toBe(true);
    await screenshot(page, 'terminal-marks-gutter.png', [...CONSOLE_FRAME, '.terminal[data-session] .xterm']);
    expect(errors).toEqual([]);
  }, 10 * STEP_MS);
});

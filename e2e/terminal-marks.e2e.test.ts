/**
 * End to end: the live terminal's command marks never cover the session's text (Debian's
 * Chromium against the browser mode, a real `mish serve` driven by the SDK's Client). A mark
 * sits where a command's output starts; when that line fills the terminal's width or wraps,
 * a mark drawn over the text columns hides its end. Marks live in a gutter left of the first
 * column (as VS Code's terminal draws its command decorations), so whatever the output, every
 * drawn part of a mark is outside the text area; the command is the mark's tooltip and label.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openConsoleWithAgent, type ConsoleKit } from './console-kit.js';
import { STEP_MS } from './remote-console-kit.js';
import { CONSOLE_FRAME, screenshot } from './screenshots.js';
import { waitForTerminalText } from './xterm-wait.js';

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

describe('command marks in the live terminal', () => {
  // The console starts first and lists the agent (claude-code 1.0.0) before any test runs.
  let kit: ConsoleKit | undefined;
  let page: Page;
  let serverId = '';
  let errors: string[] = [];

  beforeAll(async () => {
    kit = await openConsoleWithAgent('terminal-marks');
    ({ page, serverId, errors } = kit);
  }, 5 * STEP_MS);

  afterAll(async () => {
    await kit?.close();
  });

  const run = (cmd: string) => kit!.client.callTool({ name: 'sh_run', arguments: { cmd, session: 'wide', cwd: kit!.safe.cwd, timeout: 60 } });

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
      const texts = [];
      for (const m of screen.parentElement.querySelectorAll('.cmd-mark')) {
        if (getComputedStyle(m).display === 'none') continue;
        const row = Math.floor((m.getBoundingClientRect().top - s.top) / rowHeight + 0.5);
        // The command shown after the mark: kept apart, checked against its row's characters below.
        const t = m.querySelector('.cmd-mark-text');
        if (t && getComputedStyle(t).display !== 'none') {
          const r = t.getBoundingClientRect();
          const line = term.buffer.active.getLine(term.buffer.active.viewportY + row);
          let used = 0;
          for (let x = term.cols - 1; x >= 0; x--) { const ch = line?.getCell(x)?.getChars(); if (ch && ch !== ' ') { used = x + 1; break; } }
          texts.push({ id: m.getAttribute('data-command-id'), text: t.textContent, left: r.left, right: r.right, width: r.width, row, textEnd: s.left + used * (s.width / term.cols), seen: (() => { const hit = document.elementFromPoint(r.left + Math.min(10, r.width / 2), r.top + r.height / 2); return hit === t; })() });
        }
        for (const el of [m, ...m.querySelectorAll(':scope > :not(.cmd-mark-text), :scope > :not(.cmd-mark-text) *')]) {
          const st = getComputedStyle(el);
          if (st.display === 'none' || st.visibility === 'hidden') continue;
          const r = el.getBoundingClientRect();
          if (r.width === 0 || r.height === 0) continue;
          parts.push({ id: m.getAttribute('data-command-id'), cls: el.className, left: r.left, right: r.right, top: r.top, bottom: r.bottom, row: Math.floor((m.getBoundingClientRect().top - s.top) / rowHeight + 0.5) });
        }
      }
      return { text, rows, parts, texts, cols: term.cols };
    })()`)) as { text: Box; rows: string[]; parts: (Box & { id: string; cls: string; row: number })[]; texts: { id: string; text: string; left: number; right: number; width: number; row: number; textEnd: number; seen: boolean }[]; cols: number };
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
    // The command is shown as text after its mark (session 48: the pane showed the ▸ marks but not
    // the commands), visible, and only where its row has no character: after the row's text.
    const shownText = (re: RegExp) => geometry.texts.find((x) => re.test(x.text));
    const short = shownText(/^▸ echo short-line$/);
    expect(short, dump).toBeDefined();
    expect(short!.width, dump).toBeGreaterThan(20);
    expect(short!.seen, dump).toBe(true);
    for (const x of geometry.texts) expect(x.left, dump).toBeGreaterThanOrEqual(x.textEnd - 0.5);
    // The full-width and wrapped lines' commands go right of the last column, if the pane has room there.
    for (const x of geometry.texts.filter((y) => y.row === full || y.row === wrapStart)) expect(x.left, dump).toBeGreaterThanOrEqual(t.right - 0.5);

    // The command is still named: each mark's label says its command and id, and a click on it shows that command.
    const labels = await page.locator('.terminal[data-session] .cmd-mark .cmd-mark-label').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
    expect(labels.some((l) => /^▸ printf 'L%\.0s' .+ · c\w+$/.test(l)), labels.join('\n')).toBe(true);
    await screenshot(page, 'terminal-marks-gutter.png', [...CONSOLE_FRAME, '.terminal[data-session] .xterm']);
    expect(errors).toEqual([]);
  }, 10 * STEP_MS);
});

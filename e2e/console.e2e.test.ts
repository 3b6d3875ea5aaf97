/**
 * End to end: the browser console (engine + hub + web host + built renderer in Debian's
 * Chromium) with real MCP clients (the SDK's Client) playing the agents. Each flow waits on
 * what the page shows (xterm's parsed buffer, DOM state), never on sleeps, and saves a
 * checked screenshot to test-results/screenshots (e2e/screenshots.ts); `npm run screenshots`
 * copies them to e2e/screenshots/, which docs/console.md and the README show.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_FRAME, screenshot } from './screenshots.js';
import { startConsole, type RunningConsole } from '../src/main/console/console-command.js';
import { startWebHost } from '../src/main/console/web-host.js';
import { OperatorClient, discoverServers } from '../src/main/operator/client.js';
import { startStdio } from '../test/mcp-helpers.js';
import { terminalText, waitForTerminalText } from './xterm-wait.js';
import { requireElectronBuild } from '../test/helpers/fresh-build.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RENDERER = path.join(ROOT, 'out', 'renderer');
/** Debian's Chromium (scripts/apt-packages.txt); Playwright never downloads a browser here. */
const CHROMIUM = '/usr/bin/chromium';
const VIEWPORT = { width: 1480, height: 900 };

interface Agent {
  client: Client;
  /** The hub's id of the agent's server. */
  serverId: string;
  /** pid of its `mish serve` (agents started over stdio). */
  pid?: number;
  run(session: string, cmd: string, timeout?: number): Promise<{ text: string; structured: Record<string, unknown> }>;
  close(): Promise<void>;
}

/** An agent connected by URL to the console's own MCP endpoint. */
async function urlAgent(c: RunningConsole, name: string, cwd: string): Promise<Agent> {
  const client = new Client({ name, version: '1.0.0' });
  const engine = c.engine!;
  await client.connect(new StreamableHTTPClientTransport(new URL(engine.mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${engine.mcpToken}` } } }));
  return {
    client,
    serverId: 'console',
    async run(session, cmd, timeout = 60) {
      const r = await client.callTool({ name: 'sh_run', arguments: { cmd, session, cwd, timeout } });
      const content = r.content as { type: string; text: string }[];
      return { text: content.map((x) => x.text).join(''), structured: (r.structuredContent ?? {}) as Record<string, unknown> };
    },
    close: () => client.close(),
  };
}

const MISH = path.join(ROOT, 'bin', 'mish.js');

/** An agent as Claude Code or Codex runs one: the SDK client spawning `mish serve` over stdio. */
async function serveAgent(name: string, version: string, cwd: string, env: Record<string, string>): Promise<Agent> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [MISH, 'serve'], cwd, env: { ...(process.env as Record<string, string>), ...env }, stderr: 'ignore' });
  const client = new Client({ name, version });
  await client.connect(transport);
  const pid = transport.pid!;
  return {
    client,
    pid,
    serverId: `serve-${pid}`,
    async run(session, cmd, timeout = 60) {
      const r = await client.callTool({ name: 'sh_run', arguments: { cmd, session, cwd, timeout } });
      const content = r.content as { type: string; text: string }[];
      return { text: content.map((x) => x.text).join(''), structured: (r.structuredContent ?? {}) as Record<string, unknown> };
    },
    close: () => client.close(),
  };
}

const item = (page: Page, sessionId: string) => page.locator(`button.session[data-session-id="${sessionId}"]`);

describe('operator console in a browser', () => {
  let browser: Browser | undefined;
  let running: RunningConsole | undefined;
  let work: string;
  let wireEnv: Record<string, string>;
  const agents: Agent[] = [];
  const pages: Page[] = [];

  beforeAll(async () => {
    // out/ is built by the run's global setup; never the renderer of an old checkout.
    requireElectronBuild();
    expect(existsSync(CHROMIUM), `${CHROMIUM} missing: apt-get install chromium`).toBe(true);
    work = mkdtempSync(path.join(os.tmpdir(), 'mish-e2e-'));
    writeFileSync(path.join(work, 'process.sh'), 'for i in $(seq 1 3000); do echo "processed item $i"; done\necho "warning: 3 items skipped"\necho done\n');
    writeFileSync(path.join(work, 'ask.sh'), 'read -r -p "Apply 3 migrations? [Y/n] " a\necho "answer: $a"\n');
    // Spools of this run stay in its scratch directory.
    process.env.MISH_SPOOL_DIR = path.join(work, 'spool');
    // Servers publish their operator sockets here; the console discovers them here.
    wireEnv = { MISH_OPERATOR_DIR: path.join(work, 'operators'), MISH_SPOOL_DIR: path.join(work, 'spool') };
    const started = await startConsole({ rendererDir: RENDERER, operatorDir: wireEnv.MISH_OPERATOR_DIR });
    if (!started.ok) throw new Error(started.error);
    running = started.value;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  });

  afterAll(async () => {
    for (const p of pages) await p.close().catch(() => {});
    await browser?.close();
    for (const a of agents) await a.close().catch(() => {});
    await running?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  async function openConsole(): Promise<Page> {
    const context = await browser!.newContext({ viewport: VIEWPORT, colorScheme: 'dark' });
    await context.grantPermissions(['notifications']);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    (page as Page & { errors?: string[] }).errors = errors;
    pages.push(page);
    await page.goto(running!.web.url);
    return page;
  }

  it('shows every agent\'s server with its sessions, and their output live', async () => {
    const a = await serveAgent('claude-code', '2.1.0', work, wireEnv);
    const b = await serveAgent('codex', '0.9.1', work, wireEnv);
    agents.push(a, b);
    const page = await openConsole();
    const nonce = `mish-e2e-${Math.random().toString(36).slice(2, 10)}`;
    // The marker is assembled by the shell, so the echoed command line can never match it.
    await a.run('build', `printf '%s-%s\\n' ${nonce} build`);
    await b.run('e2e', `printf '%s-%s\\n' ${nonce} e2e; printf '\\033[31mred line\\033[0m\\n'; (exit 3)`);
    // Each server with its MCP client's name and version (from initialize) and its cwd.
    await page.locator(`[data-server-id="${a.serverId}"] .server-name`, { hasText: 'claude-code 2.1.0' }).waitFor();
    await page.locator(`[data-server-id="${b.serverId}"] .server-name`, { hasText: 'codex 0.9.1' }).waitFor();
    await item(page, `${a.serverId}/build`).waitFor();
    await item(page, `${b.serverId}/e2e`).click();
    // The hub starts watching on demand: the backlog brings what ran before.
    try {
      await waitForTerminalText(page, `${nonce}-e2e`);
    } catch (e) {
      throw new Error(`terminal never showed the output; it shows:\n${await terminalText(page)}\n${(e as Error).message}`);
    }
    await waitForTerminalText(page, 'red line');
    await page.locator('.timeline .row.tone-fail .exit', { hasText: '3' }).waitFor();

    // Live: a command that is still printing shows up while it runs.
    await item(page, `${a.serverId}/build`).click();
    await waitForTerminalText(page, `${nonce}-build`);
    const slow = a.run('build', `for i in 1 2 3 4 5 6; do printf '%s-%s\\n' ${nonce} tick$i; sleep 0.3; done`);
    await waitForTerminalText(page, `${nonce}-tick2`);
    expect(await item(page, `${a.serverId}/build`).getAttribute('data-state')).toBe('running');
    await screenshot(page, 'sessions-live.png', [...CONSOLE_FRAME, '.session-view', '.terminal[data-session] .xterm-screen']);
    await slow;
    await waitForTerminalText(page, `${nonce}-tick6`);

    // A view opened later starts from the backlog.
    await page.reload();
    await item(page, `${a.serverId}/build`).click();
    await waitForTerminalText(page, `${nonce}-build`);
    expect((page as Page & { errors?: string[] }).errors).toEqual([]);
  });

  it("marks where each command starts in the live terminal without changing its bytes; ✎ stays whole at 1480×900 and 1280×800; a tiny output's saving reads in tokens", async () => {
    const a = agents[0];
    const page = await openConsole();
    await a.run('marks', 'echo first-command-output');
    await item(page, `${a.serverId}/marks`).click();
    await waitForTerminalText(page, 'first-command-output');
    // Watched live from here: the next two starts are marked as their bytes arrive.
    await a.run('marks', 'echo second-command-output');
    await waitForTerminalText(page, 'second-command-output');
    await a.run('marks', 'printf "third-%s\\n" command-output');
    await waitForTerminalText(page, 'third-command-output');
    const marks = page.locator('.terminal[data-session] .cmd-mark');
    // The first ran before anyone watched this session: its server said where its output starts, so it is marked too.
    await expect.poll(() => page.locator('.terminal[data-session]').getAttribute('data-marks'), { timeout: 60_000 }).toBe('3');
    await expect.poll(() => marks.count()).toBeGreaterThanOrEqual(3);
    // Each mark sits on the line where its command's output starts: below the previous command's output, at or above its own.
    // (A page function as text: these files are type-checked without the DOM library.)
    const placed = (await page.evaluate(`(() => {
      const screen = document.querySelector('.terminal[data-session] .xterm-screen');
      const rows = [...screen.querySelectorAll('.xterm-rows > div')].map((r) => r.innerText);
      const top = screen.getBoundingClientRect().top;
      const rowHeight = screen.querySelector('.xterm-rows > div').getBoundingClientRect().height;
      const marks = [...screen.querySelectorAll('.cmd-mark')].map((m) => ({ id: m.getAttribute('data-command-id'), label: m.getAttribute('data-label') ?? '', row: Math.round((m.getBoundingClientRect().top - top) / rowHeight), shown: getComputedStyle(m).display !== 'none' }));
      return { rows, marks: marks.sort((x, y) => x.row - y.row) };
    })()`)) as { rows: string[]; marks: { id: string; label: string; row: number; shown: boolean }[] };
    // One drawn mark per command (xterm may keep a hidden element of a decoration it re-laid out).
    const drawn = placed.marks.filter((m) => m.shown);
    expect(new Set(drawn.map((m) => m.id)).size, JSON.stringify(placed.marks)).toBe(drawn.length);
    placed.marks = drawn;
    const rowOf = (text: string) => placed.rows.findIndex((r) => r.includes(text));
    expect(placed.marks.map((m) => m.label.replace(/ · c\w+$/, ''))).toEqual(['▸ echo first-command-output', '▸ echo second-command-output', '▸ printf "third-%s\\n" command-output']);
    for (const [i, [before, own]] of [['', 'first-command-output'], ['first-command-output', 'second-command-output'], ['second-command-output', 'third-command-output']].entries()) {
      expect(placed.marks[i].row, `${own}\n${placed.rows.join('\n')}`).toBeLessThanOrEqual(rowOf(own));
      if (before) expect(placed.marks[i].row, `${own}\n${placed.rows.join('\n')}`).toBeGreaterThan(rowOf(before));
    }
    // Decorations, not bytes: the terminal's text has no mark in it.
    expect(await terminalText(page)).not.toContain('▸');
    // Each label is one terminal row tall (neighbouring commands' labels never overlap) and names its command and id (a gutter glyph; e2e/terminal-marks checks it covers no text).
    const labels = (await page.evaluate(`(() => {
      const screen = document.querySelector('.terminal[data-session] .xterm-screen');
      const rowHeight = screen.querySelector('.xterm-rows > div').getBoundingClientRect().height;
      return { rowHeight, labels: [...screen.querySelectorAll('.cmd-mark')].filter((m) => getComputedStyle(m).display !== 'none').map((m) => { const l = m.querySelector('.cmd-mark-label'); const r = l.getBoundingClientRect(); return { text: l.getAttribute('aria-label'), height: r.height }; }) };
    })()`)) as { rowHeight: number; labels: { text: string; height: number }[] };
    expect(labels.labels.length, JSON.stringify(labels)).toBe(3);
    for (const l of labels.labels) {
      expect(l.height, JSON.stringify(labels)).toBeLessThanOrEqual(labels.rowHeight + 0.5);
      expect(l.text).toMatch(/^▸ .+ · c\w+$/);
    }
    // A click on a label shows that command: its timeline row selected, its reply in the agent pane; the focus stays put.
    const second = placed.marks[1];
    // The focused element itself, marked (its class names its session's state, which changes as the command ends).
    const focusBefore = await page.evaluate('(() => { const el = document.activeElement; el?.setAttribute("data-focus-probe", "before-click"); return el?.tagName ?? ""; })()');
    await page.locator(`.terminal[data-session] .cmd-mark[data-command-id="${second.id}"] .cmd-mark-label`).click();
    await expect.poll(() => page.locator('.timeline button.row[aria-current="true"]').getAttribute('data-command-id')).toBe(second.id);
    await expect.poll(() => page.locator('.agent-pane').getAttribute('data-command-id')).toBe(second.id);
    expect(await page.evaluate('document.activeElement?.getAttribute("data-focus-probe") ?? document.activeElement?.tagName ?? ""'), `focus was on a ${focusBefore}`).toBe('before-click');
    // A command that prints nothing is marked at once (not only when the next command prints).
    await a.run('marks', 'cd .');
    await expect.poll(() => page.locator('.terminal[data-session]').getAttribute('data-marks'), { timeout: 60_000 }).toBe('4');
    await screenshot(page, 'terminal-command-marks.png', [...CONSOLE_FRAME, '.terminal[data-session] .xterm']);

    // `echo` prints a few tokens; its reply's status line is longer: a token difference, not "+200%".
    const saved = page.locator('.timeline .row', { hasText: 'echo second-command-output' }).locator('.red');
    await expect.poll(() => saved.innerText(), { timeout: 60_000 }).toMatch(/^[+−±][\d,]+ tok$/);
    expect(await saved.getAttribute('class')).toContain('small');

    // The ✎ at each row's right edge is whole and in view at the default window size and a smaller one.
    for (const size of [VIEWPORT, { width: 1280, height: 800 }]) {
      await page.setViewportSize(size);
      const pen = page.locator('.timeline .row-action').first();
      await pen.waitFor();
      const fit = (await page.evaluate(`(() => {
        const el = document.querySelector('.timeline .row-action');
        const r = el.getBoundingClientRect();
        const rows = el.closest('.rows');
        const box = rows.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return { right: r.right, left: r.left, width: r.width, visibleRight: box.left + rows.clientWidth, hit: hit === el || el.contains(hit), clipped: el.scrollWidth > el.clientWidth };
      })()`)) as { right: number; left: number; width: number; visibleRight: number; hit: boolean; clipped: boolean };
      expect(fit, JSON.stringify({ size, fit })).toMatchObject({ hit: true, clipped: false });
      expect(fit.right, JSON.stringify({ size, fit })).toBeLessThanOrEqual(fit.visibleRight);
      expect(fit.width).toBeGreaterThanOrEqual(20);
    }
    // More rows than the list shows: scrolled to the newest, the column heads stay on top of the rows, readable.
    for (let i = 4; i <= 9; i++) await a.run('marks', `echo row-${i}`);
    await page.locator('.timeline .row', { hasText: 'echo row-9' }).waitFor();
    const head = (await page.evaluate(`(() => {
      const list = document.querySelector('.timeline .rows');
      list.scrollTop = list.scrollHeight;
      list.dispatchEvent(new Event('scroll'));
      const label = [...document.querySelectorAll('.timeline .row.head > span')].find((s) => s.textContent === 'command');
      const r = label.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      // The list's first visible pixel row is a command row, not the header over it.
      const box = list.getBoundingClientRect();
      const top = document.elementFromPoint(box.left + 60, box.top + 1);
      return { scrolled: list.scrollTop > 0, onTop: !!hit && !!hit.closest('.row.head'), rowAtTop: !!top && !!top.closest('button.row') && !top.closest('.row.head') };
    })()`)) as { scrolled: boolean; onTop: boolean; rowAtTop: boolean };
    expect(head).toEqual({ scrolled: true, onTop: true, rowAtTop: true });
    // Following the newest row, the first row shown is whole: its box starts at or below the
    // column heads' bottom and the list's top (session 48: the list was 7.57 rows tall, the top
    // one cut in half under the heads), and it is that row the eye sees at its top and bottom edge.
    await a.run('marks', 'echo row-10');
    await page.locator('.timeline .row', { hasText: 'echo row-10' }).waitFor();
    const firstRow = async () =>
      (await page.evaluate(`(() => {
        const list = document.querySelector('.timeline .rows');
        const head = document.querySelector('.timeline .rows-head').getBoundingClientRect();
        const box = list.getBoundingClientRect();
        const rows = [...list.querySelectorAll(':scope > li')];
        const first = rows.find((li) => li.getBoundingClientRect().bottom > box.top + 0.5);
        const r = first.getBoundingClientRect();
        const x = r.left + 60;
        const seen = (y) => { const el = document.elementFromPoint(x, y); return !!el && first.contains(el); };
        return {
          following: list.scrollHeight - list.scrollTop - list.clientHeight < 1,
          text: first.innerText.split('\\n').join(' '),
          top: r.top, bottom: r.bottom, listTop: box.top, headBottom: head.bottom,
          coveredPx: Math.max(0, Math.max(box.top, head.bottom) - r.top),
          // 2 px in from each edge: hit testing works on the pixel-snapped layout, the box is fractional.
          seenTop: seen(r.top + 2), seenBottom: seen(r.bottom - 2),
        };
      })()`)) as { following: boolean; text: string; top: number; bottom: number; listTop: number; headBottom: number; coveredPx: number; seenTop: boolean; seenBottom: boolean };
    await expect.poll(async () => (await firstRow()).following).toBe(true);
    const shownFirst = await firstRow();
    expect(shownFirst, JSON.stringify(shownFirst)).toMatchObject({ following: true, coveredPx: 0, seenTop: true, seenBottom: true });
    await screenshot(page, 'timeline-following.png', [...CONSOLE_FRAME, '.timeline']);
    // Rows scrolled out above are said in words.
    await expect.poll(() => page.locator('.timeline .earlier').innerText()).toMatch(/^↑ \d+ earlier commands?$/);
    // Going back through the commands ([) keeps the shown one's row in view, and says what is below.
    await page.locator('.timeline h2').click();
    for (let i = 0; i < 8; i++) await page.keyboard.press('[');
    const inView = (await page.evaluate(`(() => {
      const list = document.querySelector('.timeline .rows');
      const sel = list.querySelector('button.row[aria-current="true"]');
      const a = list.getBoundingClientRect(), b = sel.getBoundingClientRect();
      return b.top >= a.top - 1 && b.bottom <= a.bottom + 1;
    })()`)) as boolean;
    expect(inView).toBe(true);
    await expect.poll(() => page.locator('.timeline .later').innerText()).toMatch(/^↓ \d+ later commands?$/);
    await screenshot(page, 'timeline-1280.png', [...CONSOLE_FRAME, '.timeline']);
    await page.setViewportSize(VIEWPORT);
    expect((page as Page & { errors?: string[] }).errors).toEqual([]);
  });

  it('shows a command\'s exact raw output beside exactly what the agent received, with the figures', async () => {
    const a = agents[0];
    const page = await openConsole();
    const r = await a.run('build', 'bash process.sh');
    // (The whole reply in the message: a rare failure here had raw_lines 0 — to be diagnosed.)
    expect(r.structured.raw_lines, `${JSON.stringify(r.structured)}\n${r.text}`).toBe(3002);
    const id = String(r.structured.id);
    await item(page, `${a.serverId}/build`).click();
    const row = page.locator(`.timeline .row[data-command-id="${id}"]`);
    // Figures arrive once the host has counted the tokens.
    await row.locator('.tok', { hasText: 'tok' }).waitFor();
    await row.click();
    const agentText = page.locator(`.agent-pane[data-command-id="${id}"] .agent-text[data-exact="true"]`);
    await agentText.waitFor();
    // Exactly the text of the MCP reply.
    expect(await agentText.innerText()).toBe(r.text);
    const figures = await page.locator(`.agent-pane[data-command-id="${id}"] [data-figures]`).innerText();
    expect(figures).toContain('3,002 lines');
    expect(figures).toMatch(/[\d,]+ → [\d,]+ tok/);
    const [rawTok, shownTok] = figures.match(/([\d,]+) → ([\d,]+) tok/)!.slice(1).map((x) => Number(x.replace(/,/g, '')));
    expect(rawTok).toBeGreaterThan(10 * shownTok);
    // The raw pane: every line from the spool, numbered; the warning the agent also saw is marked.
    const raw = page.locator(`.raw-pane[data-command-id="${id}"]`);
    await raw.waitFor();
    // (Read again once the server's spool is complete: the count settles at every line.)
    await expect.poll(() => raw.locator('.raw-line').count()).toBe(3002);
    await expect.poll(() => raw.locator('.raw-line[data-line="3001"]').innerText()).toContain('warning: 3 items skipped');
    expect(await raw.locator('.raw-line[data-line="3001"]').getAttribute('class')).toContain('seen');
    expect(await raw.locator('.raw-line[data-line="1500"]').innerText()).toContain('processed item 1500');
    // A fold marker jumps to the lines it stands for: "[... 2,998 similar lines ...]" between items 1 and 3000.
    const fold = page.locator('.agent-pane .fold', { hasText: '2,998 similar lines' });
    await fold.click();
    await raw.locator('.raw-line.jumped[data-line="2"]').waitFor();
    expect(await raw.locator('.raw-line.jumped').count()).toBe(2998);
    expect(await raw.locator('.raw-line.jumped').last().getAttribute('data-line')).toBe('2999');
    await screenshot(page, 'raw-vs-agent.png', [...CONSOLE_FRAME, `.agent-pane[data-command-id="${id}"]`, `.raw-pane[data-command-id="${id}"]`]);
  });

  it("names a command in the timeline as the agent sent it, and what mish ran in its place (git status with an output format)", async () => {
    const a = agents[0];
    const page = await openConsole();
    const repo = path.join(work, 'repo-asked');
    mkdirSync(repo, { recursive: true });
    execFileSync('git', ['init', '-q', repo]);
    const r = (await a.client.callTool({ name: 'sh_run', arguments: { cmd: 'git status', session: 'gitwork', cwd: repo } })) as { structuredContent?: Record<string, unknown> };
    expect(r.structuredContent?.category).toBe('structured');
    await item(page, `${a.serverId}/gitwork`).click();
    const cmd = page.locator('.timeline .row .cmd', { hasText: 'git status' }).first();
    await expect.poll(() => cmd.getAttribute('data-ran')).toBe("git status '--porcelain=v1' '--branch'");
    expect(await cmd.innerText()).toBe('git status');
  });

  it('raises the waiting state for a [Y/n] prompt, in the list, the title and a notification', async () => {
    const b = agents[1];
    const page = await openConsole();
    // Record notifications (headless shows none); the same API, so the page's code path is the real one.
    await page.evaluate(`(() => {
      window.__notes = [];
      const Real = Notification;
      window.Notification = class extends Real {
        constructor(title, options) { super(title, options); window.__notes.push(title); }
      };
    })()`);
    const r = await b.run('deploy', 'bash ask.sh', 20);
    expect(r.structured.status).toBe('waiting-for-input');
    const waiting = page.locator(`button.session[data-session-id="${b.serverId}/deploy"][data-state="waiting"]`);
    await waiting.waitFor();
    await expect.poll(() => page.title()).toBe('(1) ⚠ mish console');
    await page.locator(`.pending [data-pending="${b.serverId}/deploy"]`).waitFor();
    await waiting.click();
    await page.locator('.banner.attn', { hasText: 'Apply 3 migrations? [Y/n]' }).waitFor();
    await expect.poll(() => page.evaluate('window.__notes')).toEqual([expect.stringContaining('deploy waits for input')]);
    await screenshot(page, 'waiting-for-input.png', [...CONSOLE_FRAME, '.banner.attn', '.pending']);
    // Answering clears it.
    await b.client.callTool({ name: 'sh_interact', arguments: { id: String(r.structured.id), action: 'send', text: 'y\n' } });
    await page.locator(`button.session[data-session-id="${b.serverId}/deploy"][data-state="idle"]`).waitFor();
    await expect.poll(() => page.title()).toBe('mish console');
  });

  it("lists an agent's background processes under its sessions, live: started, printing, killed", async () => {
    const a = agents[0];
    const page = await openConsole();
    const started = (await a.client.callTool({ name: 'sh_spawn', arguments: { cmd: "for i in $(seq 1 600); do echo tick-$i; sleep 0.2; done", alias: 'ticker', wait_for: 'tick-1', session: 'build' } })) as { structuredContent?: Record<string, unknown> };
    const id = String(started.structuredContent?.id);
    expect(id).toMatch(/^p\d+$/);
    const row = page.locator(`[data-server-id="${a.serverId}"] .bg-process[data-process-id="${a.serverId}/${id}"]`);
    await row.locator('.bg-command', { hasText: 'ticker: for i in' }).waitFor();
    expect(await row.getAttribute('data-state')).toBe('running');
    // Its last line follows the output (at most once a second).
    await expect.poll(async () => Number(/tick-(\d+)/.exec((await row.getAttribute('title')) ?? '')?.[1] ?? 0)).toBeGreaterThan(5);
    // Its output, opened from the list, follows it while it runs.
    await row.click();
    const view = page.locator(`.process-overlay[data-process-id="${a.serverId}/${id}"]`);
    await view.locator('.raw-line', { hasText: 'tick-1' }).first().waitFor();
    const lastTick = async () => Math.max(0, ...(await view.locator('.raw-line .txt').allInnerTexts()).map((t) => Number(/tick-(\d+)/.exec(t)?.[1] ?? 0)));
    const seen = await lastTick();
    await expect.poll(lastTick).toBeGreaterThan(seen);
    await screenshot(page, 'background-process.png', [...CONSOLE_FRAME, `.process-overlay[data-process-id="${a.serverId}/${id}"]`]);
    await page.keyboard.press('Escape');
    await view.waitFor({ state: 'detached' });
    await a.client.callTool({ name: 'sh_interact', arguments: { id, action: 'kill' } });
    await page.locator(`.bg-process[data-process-id="${a.serverId}/${id}"][data-state="killed"]`).waitFor();
  });

  it('marks the sessions of a server that died gone, and the other agent carries on', async () => {
    const [a, b] = agents;
    const page = await openConsole();
    await item(page, `${b.serverId}/e2e`).waitFor();
    process.kill(b.pid!, 'SIGKILL');
    await page.locator(`[data-server-id="${b.serverId}"] .badge.gone`).waitFor();
    await page.locator(`button.session[data-session-id="${b.serverId}/e2e"][data-state="gone"]`).waitFor();
    await page.locator(`button.session[data-session-id="${b.serverId}/deploy"][data-state="gone"]`).waitFor();
    // The other agent's server is untouched: its session still runs commands, shown live.
    expect(await page.locator(`[data-server-id="${a.serverId}"] .badge.gone`).count()).toBe(0);
    await item(page, `${a.serverId}/build`).click();
    const nonce = `after-${Math.random().toString(36).slice(2, 8)}`;
    const r = await a.run('build', `printf '%s-%s\\n' ${nonce} alive`);
    expect(r.structured.exit_code).toBe(0);
    await waitForTerminalText(page, `${nonce}-alive`);
    await item(page, `${b.serverId}/e2e`).click();
    await page.locator('.banner.gone').waitFor();
    await screenshot(page, 'server-gone.png', [...CONSOLE_FRAME, '.banner.gone']);
  });

  it('shows an agent connected by URL to the console\'s own MCP endpoint', async () => {
    const u = await urlAgent(running!, 'cursor-e2e', work);
    agents.push(u);
    const page = await openConsole();
    await u.run('url', 'echo by-url');
    await page.locator('[data-server-id="console"] .clients', { hasText: 'cursor-e2e 1.0.0' }).waitFor();
    await item(page, 'console/url').waitFor();
    // Its background processes too, their last line followed.
    const spawned = (await u.client.callTool({ name: 'sh_spawn', arguments: { cmd: 'for i in $(seq 1 300); do echo url-tick-$i; sleep 0.2; done', session: 'url', wait_for: 'url-tick-1' } })) as { structuredContent?: Record<string, unknown> };
    const id = String(spawned.structuredContent?.id);
    const row = page.locator(`[data-server-id="console"] .bg-process[data-process-id="console/${id}"]`);
    await row.waitFor();
    await expect.poll(async () => Number(/url-tick-(\d+)/.exec((await row.getAttribute('title')) ?? '')?.[1] ?? 0)).toBeGreaterThan(5);
    await u.client.callTool({ name: 'sh_interact', arguments: { id, action: 'kill' } });
  });

  it('queues an escalated command waiting for an operator, and clears it once decided', async () => {
    // The agent's HOME and cwd are a scratch tree with canaries: the dangerous line is denied
    // and the canaries must survive (it could never reach the real HOME either way).
    const served = await startStdio({ ...wireEnv, MISH_APPROVAL_TIMEOUT_MS: '60000' });
    const work = path.join(served.home, 'work');
    mkdirSync(work, { recursive: true });
    const canaries = [path.join(served.home, 'canary.txt'), path.join(work, 'canary.txt')];
    for (const c of canaries) writeFileSync(c, 'canary\n');
    const serverId = `serve-${served.pid()}`;
    try {
      const page = await openConsole();
      await page.locator(`[data-server-id="${serverId}"]`).waitFor();
      // An approver (as `mish approvals` is) makes escalations wait for a decision.
      const sock = discoverServers(wireEnv.MISH_OPERATOR_DIR).find((x) => x.pid === served.pid())!;
      const approver = await OperatorClient.connect(sock.path, { name: 'e2e approver', role: 'approvals', approvals: true });
      if (!approver.ok) throw new Error(approver.error);
      const requested = new Promise<string>((resolve) => approver.client.on('approval-request', (m) => resolve(m.approval.id)));
      const call = served.client.callTool({ name: 'sh_run', arguments: { cmd: 'rm -rf ~', cwd: work } });
      call.catch(() => {}); // awaited below; a failure above must not leave it unhandled
      const id = await requested;
      const queued = page.locator(`.pending [data-approval="${id}"]`);
      await queued.waitFor();
      expect(await queued.innerText()).toContain('rm -rf ~');
      await expect.poll(() => page.title()).toBe('(1) ⚠ mish console');
      await screenshot(page, 'approval-pending.png', [...CONSOLE_FRAME, `.pending [data-approval="${id}"]`]);
      const decided = await approver.client.request({ type: 'approval-decide', id, decision: 'deny' });
      expect(decided.ok).toBe(true);
      await call;
      await queued.waitFor({ state: 'detached' });
      approver.client.close();
      for (const c of canaries) expect(readFileSync(c, 'utf8')).toBe('canary\n');
    } finally {
      await served.close();
    }
  });

  it('shows a dropped connection as reconnecting and resumes when the console is back', async () => {
    const u = agents[2];
    const token = 'e2e-reconnect-token-0123456789abcdef';
    // A second page host over the same hub: closing it drops the page's connection, the hub stays.
    const service = running!.web.service;
    const first = await startWebHost({ service, rendererDir: RENDERER, token });
    if (!first.ok) throw new Error(first.error.message);
    const port = first.value.port;
    expect(first.value.url).toContain(token);
    const context = await browser!.newContext({ viewport: VIEWPORT });
    const page = await context.newPage();
    pages.push(page);
    await page.goto(first.value.url);
    await item(page, 'console/url').click();
    await waitForTerminalText(page, 'by-url');
    await first.value.close();
    await page.locator('.conn', { hasText: 'reconnecting…' }).waitFor();
    // The console comes back on the same port; the page reconnects by itself.
    const again = await startWebHost({ service, rendererDir: RENDERER, token, port });
    if (!again.ok) throw new Error(again.error.message);
    try {
      await page.locator('.conn', { hasText: 'connected' }).waitFor();
      await u.run('url', `printf '%s-%s\\n' back again`);
      await waitForTerminalText(page, 'back-again');
      await waitForTerminalText(page, 'by-url'); // the backlog brought back what was shown before
    } finally {
      await again.value.close();
    }
  });

  it('refuses a wrong token; the token stays in the fragment (never sent in a request)', async () => {
    // The page (public code, no data) is served without the token; the WebSocket needs it (web-host.test.ts).
    const base = running!.web.url.replace(/#token=.*$/, '');
    expect(running!.web.url).toMatch(/\/#token=[\w-]+$/);
    expect((await fetch(`${base}?token=wrong`, { redirect: 'manual' })).status).toBe(403);
    expect((await fetch(running!.web.url)).status).toBe(200);
  });
});

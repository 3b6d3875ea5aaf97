/**
 * End to end: the grammar editor in the browser console (web host + built renderer in Debian's
 * Chromium). Opens the built-in c-compiler grammar on gcc's recorded output, pins a line as
 * must-keep, types a rule (an invalid regex first: the loader's error shows inline at its line
 * with the rule named), sees the preview drop the pinned line and the warning, saves to the
 * project, and then the real `mish` CLI bundle condenses a real gcc run by the new rule.
 * Measures keystroke → preview on ~1 MB recordings (BENCHMARKS.md).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from './screenshots.js';
import { requireElectronBuild } from '../test/helpers/fresh-build.js';
import { safeHome, type SafeHome } from '../test/helpers/safe-home.js';
import { startWebConsole, type WebConsole } from '../src/main/console/console-command.js';
import { createConsoleManager, managerAsServer } from '../src/main/console/engine.js';
import type { SessionManager } from '../src/main/core/session/types.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RENDERER = path.join(ROOT, 'out', 'renderer');
const BUNDLE = path.join(ROOT, 'dist', 'mish.mjs');
/** Debian's Chromium (scripts/apt-packages.txt); Playwright never downloads a browser here. */
const CHROMIUM = '/usr/bin/chromium';
/** Generous hang guard for one preview on this shared 2-core machine (the target, 100 ms, is reported, not asserted). */
const PREVIEW_GUARD_MS = 1000;
/** Keystrokes per latency measurement, typed slower than one preview so each gets its own. */
const LATENCY_KEYS = 12;
const KEY_GAP_MS = 250;

const GCC_ARGV = ['gcc', '-Wall', '-Wextra', '-Iinclude', '-c', 'src/util.c', 'src/broken.c'];
/** What must be drawn in the grammar editor's screenshots: its bar, the raw output and the summary beside it. */
const GRAMMAR_EDITOR_REGIONS = ['.gx-bar', '.gx-raw', '.gx-out'];

/**
 * A line the built-in grammar shows (the code frame under an error), pinned as must-keep: the rule typed below drops it, and the
 * editor says so. (gcc's `note: each undeclared identifier…` served until the built-in grammar learned to drop it.)
 */
const PINNED = '8 |     return p->x * p->x + p->z * p->z;';

describe('grammar editor in a browser', () => {
  let browser: Browser | undefined;
  let web: WebConsole | undefined;
  let manager: SessionManager;
  let safe: SafeHome;
  let project: string;

  function mish(args: string[]) {
    const r = spawnSync('setsid', ['-w', process.execPath, BUNDLE, ...args], {
      cwd: project,
      input: '',
      encoding: 'utf8',
      env: safe.env({ MISH_SPOOL_DIR: path.join(safe.home, 'spool'), NO_COLOR: '1' }),
      timeout: 60_000,
    });
    return { code: r.status, out: r.stdout, err: r.stderr };
  }

  beforeAll(async () => {
    // The renderer is rebuilt when a source is newer; the CLI bundle by the global setup.
    requireElectronBuild();
    expect(existsSync(CHROMIUM), `${CHROMIUM} missing: apt-get install chromium`).toBe(true);
    safe = safeHome('grammar-editor');
    project = safe.cwd;
    // The project the saved grammar is for: the same small C project gcc's recording was made in.
    cpSync(path.join(ROOT, 'fixtures', 'projects', 'c-project'), project, { recursive: true });
    const engine = await createConsoleManager({ cwd: project });
    if (!engine.ok) throw new Error(engine.error);
    manager = engine.value;
    const env = safe.env();
    const started = await startWebConsole({
      servers: [managerAsServer(manager)],
      rendererDir: RENDERER,
      grammar: { cwd: project, env, builtinDir: path.join(ROOT, 'grammars'), fixturesDir: path.join(ROOT, 'fixtures', 'recorded'), spoolDir: path.join(safe.home, 'spool') },
    });
    if (!started.ok) throw new Error(started.error.message);
    web = started.value;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  });

  afterAll(async () => {
    await browser?.close();
    await web?.close();
    await manager?.dispose();
    safe?.assertCanariesIntact();
    safe?.dispose();
  });

  const summary = (page: Page) => page.locator('.gx-out .cm-content').innerText();

  async function pick(page: Page, grammar: string, fixture: string) {
    const file = path.join(ROOT, 'grammars', `${grammar}.toml`);
    await page.selectOption('select[aria-label="grammar"]', file);
    await page.locator('.gx-file', { hasText: file }).waitFor();
    await page.selectOption('select[aria-label="recorded output"]', fixture);
    await page.locator('.gx-file', { hasText: `fixture ${fixture}` }).waitFor();
  }

  async function latencySamples(page: Page): Promise<number[]> {
    const s = await page.locator('.gx-latency').getAttribute('data-latency-samples');
    return (s ?? '').split(',').filter(Boolean).map(Number);
  }

  /** Types into a TOML comment, one key per preview, and returns keystroke → preview figures. */
  async function measure(page: Page): Promise<{ p50: number; max: number; compute: number }> {
    const toml = page.locator('.gx-pane').first().locator('.cm-content');
    await toml.click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.type('# ');
    await page.waitForTimeout(KEY_GAP_MS);
    const before = (await latencySamples(page)).length;
    const computes: number[] = [];
    for (let i = 0; i < LATENCY_KEYS; i++) {
      const count = (await latencySamples(page)).length;
      await page.keyboard.type('x');
      await expect.poll(async () => (await latencySamples(page)).length, { timeout: PREVIEW_GUARD_MS * 5 }).toBeGreaterThan(count);
      computes.push(Number(await page.locator('.gx-latency').getAttribute('data-compute-ms')));
      await page.waitForTimeout(KEY_GAP_MS);
    }
    const samples = (await latencySamples(page)).slice(-(LATENCY_KEYS));
    expect(samples.length + before).toBeGreaterThanOrEqual(LATENCY_KEYS);
    const sorted = [...samples].sort((a, b) => a - b);
    computes.sort((a, b) => a - b);
    return { p50: sorted[Math.floor(sorted.length / 2)], max: sorted[sorted.length - 1], compute: computes[Math.floor(computes.length / 2)] };
  }

  it('edits a rule with live preview, warns about a dropped must-keep line, saves, and mish uses it', async () => {
    // Before: mish condenses gcc with the built-in grammar (the code frame under the first error is shown).
    const before = mish(GCC_ARGV);
    expect(before.out).toContain(PINNED);
    expect(before.out).toMatch(/^src\/util\.c:12:9: warning: unused variable/m);

    const page = await browser!.newPage({ viewport: { width: 1600, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      // A missing resource is checked by URL below (the browser asks for /favicon.ico on its own).
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
    });
    page.on('response', (r) => {
      if (r.status() >= 400 && !new URL(r.url()).pathname.endsWith('/favicon.ico')) errors.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${web!.url}&grammar`); // the URL carries #token=…
    await page.locator('.gx').waitFor();
    // Opened with no output named, it starts on a grammar with one of its recorded failing outputs: the preview is not empty.
    await page.locator('.gx-file', { hasText: /fixture cargo-/ }).waitFor();
    await page.locator('.gx-out .cm-content', { hasText: 'error' }).waitFor();
    await pick(page, 'c-compiler', 'gcc-errors-relative');
    // Wait for a line only gcc's output has: cargo's preview (shown before) also says "warning: unused variable".
    await page.locator('.gx-out .cm-content', { hasText: 'src/util.c:12:9: warning: unused variable' }).waitFor();
    const base = await summary(page);
    expect(base).toContain(PINNED);
    await page.locator('.gx-status', { hasText: 'detects gcc' }).waitFor();

    // Pin the raw line as must-keep (the ◇ gutter on its row): kept, so no warning yet.
    const rawLine = page.locator('.gx-raw .cm-line', { hasText: PINNED }).first();
    await expect.poll(() => rawLine.getAttribute('class')).toContain('gx-kept');
    const box = (await rawLine.boundingBox())!;
    const gutter = (await page.locator('.gx-raw .gx-pin-gutter').boundingBox())!;
    await page.mouse.click(gutter.x + gutter.width / 2, box.y + box.height / 2);
    await page.locator('.gx-raw .gx-pin.on').waitFor();
    expect(await page.locator('.gx-warning').count()).toBe(0);

    // Type a rule at the end of the TOML; its regex is unfinished first: an inline error, named.
    const toml = page.locator('.gx-pane').first().locator('.cm-content');
    await toml.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(`\n[[noise]]\nid = "hide-frame-line"\npattern = '^ +8 . +return p(?<fn'\naction = "strip"\n`);
    // Typing is seen as it happens (a half-typed `action = "st` is its own error first): wait for the regex's.
    const problem = page.locator('.gx-problems', { hasText: 'rule hide-frame-line: invalid regular expression' });
    await problem.waitFor({ timeout: PREVIEW_GUARD_MS * 5 });
    expect(await problem.innerText()).toMatch(/line \d+ · rule hide-frame-line: invalid regular expression in pattern/);
    const lines = (await page.locator('.gx-pane').first().locator('.cm-line').allInnerTexts()).map((l) => l.trim());
    const problemLine = Number(/line (\d+)/.exec(await problem.innerText())![1]);
    expect(lines[problemLine - 1]).toMatch(/^pattern = '\^ \+8 \. \+return p\(\?<fn'$/);
    await page.locator('.cm-lint-marker-error').first().waitFor();

    // Finish the regex: the preview drops the pinned line, and the warning names it.
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('End');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.type('>.*)');
    await page.locator('.gx-warning').waitFor({ timeout: PREVIEW_GUARD_MS * 5 });
    expect(await page.locator('.gx-problems').count()).toBe(0);
    const warning = await page.locator('.gx-warning').innerText();
    expect(warning).toMatch(/must-keep line is no longer shown/);
    expect(warning).toMatch(/line \d+ dropped \(noise strip:grammar\)/);
    const after = await summary(page);
    expect(after).not.toBe(base);
    expect(after).not.toContain('return p->x');
    expect(after).toContain('warning: unused variable');
    await expect.poll(() => rawLine.getAttribute('class')).toContain('gx-dropped');

    // Save to the project (a built-in's name: an override), then a real gcc run through mish.
    await page.selectOption('select[aria-label="save to"]', 'project');
    await page.getByRole('button', { name: /^Save/ }).click();
    const saved = path.join(project, '.mish', 'grammars', 'c-compiler.toml');
    await page.locator('.gx-message.gx-ok', { hasText: saved }).waitFor();
    expect(await page.locator('.gx-message').innerText()).toContain(`overrides ${path.join(ROOT, 'grammars', 'c-compiler.toml')}`);
    expect(readFileSync(saved, 'utf8')).toContain('id = "hide-frame-line"');
    // Clicking a raw line highlights the summary line that shows it.
    await page.locator('.gx-raw .cm-line', { hasText: 'unused variable' }).click({ position: { x: 30, y: 5 } });
    await page.locator('.gx-out .cm-line.gx-focus', { hasText: 'unused variable' }).waitFor();
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'grammar-editor.png', GRAMMAR_EDITOR_REGIONS);
    await page.emulateMedia({ colorScheme: 'light' });
    await screenshot(page, 'grammar-editor-light.png', GRAMMAR_EDITOR_REGIONS);

    const run = mish(GCC_ARGV);
    expect(run.code).toBe(1);
    expect(run.out).not.toContain('return p->x');
    expect(run.out).toMatch(/^src\/util\.c:12:9: warning: unused variable/m);
    expect(run.out).toMatch(/^src\/broken\.c:16:12: error: ‘missing_value’ undeclared/m);

    // That run's raw output, by its spool id (the status line names it when lines were left out; --json always), previewed with the saved grammar.
    const ref = /· (mish raw [0-9a-z]+)\]$/m.exec(run.out) ?? /"spool":"(mish raw [0-9a-z]+)"/.exec(mish(['--json', ...GCC_ARGV]).out);
    expect(ref, run.out).not.toBeNull();
    await page.fill('input[aria-label="spool id"]', ref![1]);
    await page.getByRole('button', { name: 'Load' }).click();
    const id = ref![1].slice('mish raw '.length);
    await page.locator('.gx-file', { hasText: `spool ${id}: gcc -Wall` }).waitFor();
    await page.locator('.gx-raw .cm-line', { hasText: 'missing_value’ undeclared' }).first().waitFor();
    expect(run.out).not.toContain('return p->x');
    expect(run.out).toMatch(/^src\/util\.c:12:9: warning: unused variable/m);
    expect(run.out).toMatch(/^src\/broken\.c:16:12: error: ‘missing_value’ undeclared/m);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('makes a new grammar from a template detected by argv, saves it to the user folder, and mish uses it', async () => {
    // A project script: 30 progress lines, an error, a summary (real output of a real process).
    const script = path.join(project, 'deploy.sh');
    writeFileSync(script, '#!/bin/sh\nfor i in $(seq 1 30); do echo "Fetching part $i of 30"; done\necho "error: disk full on /srv"\necho "Done in 3s"\nexit 2\n', { mode: 0o755 });
    const plain = mish(['./deploy.sh', 'prod']);
    expect(plain.out).toContain('[... 28 similar lines ...]');
    expect(plain.out).not.toContain('+ Done in 3s');

    const page = await browser!.newPage({ viewport: { width: 1600, height: 900 } });
    await page.goto(`${web!.url}&grammar`); // the URL carries #token=…
    await page.locator('.gx').waitFor();
    await page.getByRole('button', { name: 'New…' }).click();
    await page.fill('input[aria-label="new grammar name"]', 'deploy');
    await page.fill('input[aria-label="new grammar command"]', './deploy.sh prod');
    await page.getByRole('button', { name: 'Create from template' }).click();
    await page.locator('.gx-pane').first().locator('.cm-line', { hasText: 'commands = ["deploy.sh"]' }).waitFor();
    await page.locator('.gx-pane').first().locator('.cm-line', { hasText: '[actions.prod]' }).waitFor();
    await page.selectOption('select[aria-label="save to"]', 'user');
    await page.getByRole('button', { name: /^Save/ }).click();
    const saved = path.join(safe.home, '.config', 'mish', 'grammars', 'deploy.toml');
    await page.locator('.gx-message.gx-ok', { hasText: saved }).waitFor();
    await page.close();

    const run = mish(['./deploy.sh', 'prod']);
    expect(run.code).toBe(2);
    expect(run.out).toMatch(/^error: disk full on \/srv$/m);
    expect(run.out).toContain('+ Done in 3s');
    expect(run.out).toMatch(/~ Fetching part 1 of 30 … Fetching part 30 of 30 \(x30\)/);
    expect(run.out).not.toContain('similar lines');
  });

  it('keeps keystroke → preview within budget on ~1 MB outputs', async () => {
    const page = await browser!.newPage({ viewport: { width: 1600, height: 900 } });
    await page.goto(`${web!.url}&grammar`); // the URL carries #token=…
    await page.locator('.gx').waitFor();
    const figures: string[] = [];
    for (const [grammar, fixture] of [
      ['cargo', 'cargo-build-large'],
      ['npm', 'npm-install-large'],
    ] as const) {
      await pick(page, grammar, fixture);
      await page.locator('.gx-counts').waitFor({ timeout: PREVIEW_GUARD_MS * 10 });
      const bytes = readFileSync(path.join(ROOT, 'fixtures', 'recorded', `${fixture}.raw`)).length;
      const m = await measure(page);
      figures.push(`${fixture} (${(bytes / 1048576).toFixed(2)} MB): keystroke → preview p50 ${m.p50.toFixed(0)} ms, max ${m.max.toFixed(0)} ms, worker ${m.compute.toFixed(0)} ms`);
      expect(m.p50).toBeLessThan(PREVIEW_GUARD_MS);
    }
    console.log(`grammar editor latency:\n  ${figures.join('\n  ')}`);
    await page.close();
  });
});

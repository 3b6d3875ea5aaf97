/**
 * `mish console` without Electron (issue 25): the console opens as an app window of Debian's
 * Chromium on a virtual X display (Xvfb), shows the demo agent, and owns that browser (closing
 * the window stops the console; stopping the console closes the window). The screenshot is of
 * the X display (scrot), not of a page: it shows the window as the desktop would.
 *
 * The window's DOM is read over the browser's DevTools port (MISH_APP_BROWSER_ARGS adds
 * --remote-debugging-port=0; Chromium writes the port into the profile directory).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { ensureElectronBuild } from '../test/helpers/fresh-build.js';
import { safeHome, type SafeHome } from '../test/helpers/safe-home.js';
import { itUnless, missing } from '../test/helpers/skip.js';
import { SHOTS_DIR as SHOTS } from './screenshots.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MISH = path.join(ROOT, 'bin', 'mish.js');
const CHROMIUM = '/usr/bin/chromium';
/** The virtual screen: the window's default size (1480x900) fits with room for nothing else. */
const SCREEN = '1480x900x24';
/** A rendered console compresses to far more than an empty or black screen (about 1 KB at this size). */
const MIN_RENDERED_PNG_BYTES = 30_000;
/** A Chromium start, the console's first page load and the demo agent's first command, on the loaded machine. */
const WINDOW_TIMEOUT_MS = 90_000;

const why = missing('Xvfb', 'scrot', CHROMIUM);
const it = itUnless(why);

/** Lines of a stream, as they come. */
function lines(stream: NodeJS.ReadableStream): { waitFor(re: RegExp, ms: number): Promise<RegExpExecArray>; text(): string } {
  const seen: string[] = [];
  const waiters: { re: RegExp; resolve: (m: RegExpExecArray) => void }[] = [];
  createInterface({ input: stream }).on('line', (l) => {
    seen.push(l);
    for (const w of [...waiters]) {
      const m = w.re.exec(l);
      if (m) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  });
  return {
    text: () => seen.join('\n'),
    waitFor: (re, ms) =>
      new Promise((resolve, reject) => {
        for (const l of seen) {
          const m = re.exec(l);
          if (m) return resolve(m);
        }
        const timer = setTimeout(() => reject(new Error(`no line matching ${re} within ${ms} ms; got:\n${seen.join('\n')}`)), ms);
        waiters.push({ re, resolve: (m) => (clearTimeout(timer), resolve(m)) });
      }),
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(cond: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (cond()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return cond();
}

describe('mish console as an app window of Chromium (no Electron)', () => {
  let xvfb: ChildProcess | undefined;
  let display = '';
  let home: SafeHome;
  const started: ChildProcess[] = [];
  const browsers: Browser[] = [];
  const browserPids: number[] = [];

  beforeAll(async () => {
    if (why) return;
    ensureElectronBuild();
    home = safeHome('app-window');
    // -displayfd: Xvfb picks a free display number and writes it (no clash with other runs).
    xvfb = spawn('Xvfb', ['-displayfd', '1', '-screen', '0', SCREEN, '-nolisten', 'tcp'], { stdio: ['ignore', 'pipe', 'ignore'] });
    display = `:${(await lines(xvfb.stdout!).waitFor(/^(\d+)$/, 30_000))[1]}`;
  }, 60_000);

  afterAll(async () => {
    for (const b of browsers) await b.close().catch(() => {});
    for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    // A failed test may leave a window: its browser's process group (the console started it as one).
    for (const pid of browserPids) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // gone, as it should be
      }
    }
    xvfb?.kill('SIGTERM');
    home?.dispose();
  });

  /** `mish console --demo` on the virtual display; resolves once the window is up, with the console's page in it. */
  async function startConsole(): Promise<{ child: ChildProcess; browserPid: number; page: Page; exited: Promise<number | null>; err: () => string }> {
    // The window's profile is mish's (under its state directory), never the user's browser profile.
    const portFile = path.join(home.home, '.state', 'mish', 'console-window', 'DevToolsActivePort');
    rmSync(portFile, { force: true }); // the previous window's
    const child = spawn(process.execPath, [MISH, 'console', '--demo'], {
      cwd: home.cwd,
      env: home.env({ DISPLAY: display, MISH_APP_BROWSER: CHROMIUM, MISH_APP_BROWSER_ARGS: '--disable-gpu --disable-background-networking --remote-debugging-port=0', MISH_OPERATOR_DIR: path.join(home.home, 'operators') }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(child);
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const out = lines(child.stdout!);
    const err = lines(child.stderr!);
    const url = (await out.waitFor(/^(http:\/\/127\.0\.0\.1:\d+\/\S*)$/, WINDOW_TIMEOUT_MS))[1];
    const browserPid = Number((await err.waitFor(/opened in an app window of \S+ \(pid (\d+)\)/, WINDOW_TIMEOUT_MS))[1]);
    browserPids.push(browserPid);
    expect(await until(() => existsSync(portFile) && readFileSync(portFile, 'utf8').includes('\n'), WINDOW_TIMEOUT_MS), `no ${portFile}; console stderr:\n${err.text()}`).toBe(true);
    const browser = await chromium.connectOverCDP(`http://127.0.0.1:${readFileSync(portFile, 'utf8').split('\n')[0]}`);
    browsers.push(browser);
    // Matched by origin: the page drops `#token=…` from its address once it has read it
    // (history.replaceState in the bridge), so on a loaded machine, where the page runs before
    // this connects, its address is already the bare `http://127.0.0.1:PORT/`.
    const origin = `${new URL(url).origin}/`;
    let page: Page | undefined;
    await until(() => (page = browser.contexts().flatMap((c) => c.pages()).find((p) => p.url().startsWith(origin))) !== undefined, WINDOW_TIMEOUT_MS);
    expect(page, `no window with ${url}; console stderr:\n${err.text()}`).toBeDefined();
    return { child, browserPid, page: page!, exited, err: err.text };
  }

  it('opens a window on the display that shows the demo agent; closing the window stops the console', async () => {
    const c = await startConsole();
    await c.page.locator('.server-name', { hasText: 'mish-demo-agent' }).waitFor({ timeout: WINDOW_TIMEOUT_MS });
    await c.page.locator('button.session[data-session-id$="/build"]').waitFor({ timeout: WINDOW_TIMEOUT_MS });
    // The demo's first command has output in the terminal once its session is picked.
    await c.page.locator('button.session[data-session-id$="/build"]').click();
    await c.page.waitForTimeout(1500); // the window repaints on the display; the X screenshot has no event to wait for
    mkdirSync(SHOTS, { recursive: true });
    const shot = path.join(SHOTS, 'console-app-window.png');
    const r = spawnSync('scrot', ['--overwrite', shot], { env: { ...process.env, DISPLAY: display }, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(statSync(shot).size).toBeGreaterThan(MIN_RENDERED_PNG_BYTES);

    await c.page.close();
    // The last window closed: the browser ends, and with it the console (exit 0), leaving no browser behind.
    expect(await Promise.race([c.exited, new Promise((r) => setTimeout(() => r('running'), 30_000))])).toBe(0);
    expect(await until(() => !alive(c.browserPid), 10_000)).toBe(true);
  }, 4 * WINDOW_TIMEOUT_MS);

  it('stopping the console closes its window (the console owns the browser)', async () => {
    const c = await startConsole();
    c.child.kill('SIGTERM');
    expect(await Promise.race([c.exited, new Promise((r) => setTimeout(() => r('running'), 30_000))])).toBe(0);
    expect(await until(() => !alive(c.browserPid), 10_000), `browser ${c.browserPid} outlived the console`).toBe(true);
  }, 4 * WINDOW_TIMEOUT_MS);
});

/**
 * The console as a desktop window without Electron (issue 25): an installed Chromium, Chrome,
 * Edge or Brave opens the console's URL with `--app` (a window of its own, no tabs or address
 * bar) on a profile directory of mish's (under its state directory, so the user's browser
 * profile is never touched and the window keeps its size between runs). The console owns that
 * browser: it starts it in a process group of its own and ends the group when the console
 * stops; closing the window stops the console, as closing the Electron window does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

/** Chromium-family browsers that take --app, as commands on PATH (Linux and the BSDs), in order of preference. */
const PATH_BROWSERS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'microsoft-edge', 'microsoft-edge-stable', 'brave-browser', 'brave'];
/** The same browsers' executables inside their macOS app bundles. */
const MAC_BROWSERS = [
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
  '/Applications/Brave Browser.app/Contents/MacOS/Brave Browser',
];
/** The window's first size (the console's layout is made for about this much). */
const WINDOW_SIZE = '1480,900';
/**
 * A browser that ends this soon after its start did not open a window (no display, a bad
 * profile, handed over to another instance): the console keeps running with its URL printed.
 * Past this, the browser ending means the user closed the window.
 */
export const WINDOW_STARTUP_MS = 3000;
/** How long the browser gets to end on SIGTERM before its group is killed. */
const WINDOW_CLOSE_GRACE_MS = 3000;

/**
 * The browser to open the window with: $MISH_APP_BROWSER (a path or a command; "none" turns
 * the window off), else the first installed of the known ones; undefined when there is none.
 */
export function findAppBrowser(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | undefined {
  const chosen = env.MISH_APP_BROWSER;
  if (chosen === 'none') return undefined;
  if (chosen) return chosen.includes('/') ? (existsSync(chosen) ? chosen : undefined) : onPath(chosen, env);
  if (platform === 'darwin') {
    const home = env.HOME || homedir();
    return [...MAC_BROWSERS, ...MAC_BROWSERS.map((b) => path.join(home, b))].find((b) => existsSync(b));
  }
  for (const name of PATH_BROWSERS) {
    const found = onPath(name, env);
    if (found) return found;
  }
  return undefined;
}

function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, name);
    if (existsSync(p)) return p;
  }
  return undefined;
}

/** Is there a screen to open a window on? (X11/Wayland elsewhere than macOS and Windows.) */
export function hasDisplay(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): boolean {
  return platform === 'darwin' || platform === 'win32' || !!env.DISPLAY || !!env.WAYLAND_DISPLAY;
}

/** mish's state directory: $XDG_STATE_HOME/mish, else ~/Library/Application Support/mish on macOS, else ~/.local/state/mish. */
function stateDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string {
  if (env.XDG_STATE_HOME) return path.join(env.XDG_STATE_HOME, 'mish');
  const home = env.HOME || homedir();
  return platform === 'darwin' ? path.join(home, 'Library', 'Application Support', 'mish') : path.join(home, '.local', 'state', 'mish');
}

/** The window's profile directory (kept between runs). */
export function windowProfileDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  return path.join(stateDir(env, platform), 'console-window');
}

/** Chromium's lock of a profile in use: a symlink to "<host>-<pid>". True while that process lives. */
function profileInUse(dir: string): boolean {
  let target: string;
  try {
    target = readlinkSync(path.join(dir, 'SingletonLock'));
  } catch {
    return false;
  }
  const pid = Number(target.slice(target.lastIndexOf('-') + 1));
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The console's own origin (127.0.0.1, any port: each console picks a free one) may show
 * notifications without asking: the window's profile is the console's alone, and a permission
 * bubble over the agent list at every start (a new port each time) would be noise. Written into
 * the profile's Preferences, which Chromium reads at start and keeps.
 */
function allowConsoleNotifications(profile: string): void {
  const file = path.join(profile, 'Default', 'Preferences');
  let prefs: Record<string, unknown> = {};
  try {
    prefs = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    // a new profile (or an unreadable file, which Chromium would reset anyway)
  }
  const at = (o: Record<string, unknown>, k: string) => ((o[k] && typeof o[k] === 'object') ? o[k] : (o[k] = {})) as Record<string, unknown>;
  const notifications = at(at(at(at(prefs, 'profile'), 'content_settings'), 'exceptions'), 'notifications');
  notifications['http://127.0.0.1:*,*'] = { setting: 1 };
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, JSON.stringify(prefs));
}

export interface AppWindow {
  browser: string;
  pid: number;
  /** Resolves when the browser has ended: `early` when within WINDOW_STARTUP_MS of its start (no window was shown). */
  ended: Promise<{ early: boolean; code: number | null; signal: NodeJS.Signals | null }>;
  /** Ends the browser (TERM to its group, KILL after a grace) and removes a temporary profile. */
  close(): Promise<void>;
}

/**
 * Opens `url` as an app window of `browser`. A second console while the first one's window is
 * open gets a throw-away profile (Chromium would hand the URL to the first one's process and
 * exit, and this console could not own its window).
 */
export function openAppWindow(url: string, browser: string, env: NodeJS.ProcessEnv = process.env): AppWindow | { error: string } {
  let profile = windowProfileDir(env);
  let temporary = false;
  try {
    mkdirSync(profile, { recursive: true, mode: 0o700 });
    if (profileInUse(profile)) {
      profile = mkdtempSync(`${profile}-`);
      temporary = true;
    }
    allowConsoleNotifications(profile);
  } catch (e) {
    return { error: `cannot prepare the window's profile directory ${profile}: ${(e as Error).message}` };
  }
  const args = [
    `--app=${url}`,
    `--user-data-dir=${profile}`,
    `--window-size=${WINDOW_SIZE}`,
    '--no-first-run',
    '--no-default-browser-check',
    // Chromium refuses to run as root with its sandbox on (containers, CI).
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    // Extra switches for unusual machines (a display without a GPU: --disable-gpu), space-separated.
    ...(env.MISH_APP_BROWSER_ARGS ?? '').split(/\s+/).filter(Boolean),
  ];
  const started = Date.now();
  let child: ChildProcess;
  try {
    // Its own process group: the browser's helpers (zygote, renderers, GPU) end with it.
    child = spawn(browser, args, { stdio: 'ignore', detached: true, env });
  } catch (e) {
    return { error: `cannot start ${browser}: ${(e as Error).message}` };
  }
  const ended = new Promise<{ early: boolean; code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('error', () => resolve({ early: true, code: null, signal: null }));
    child.once('exit', (code, signal) => resolve({ early: Date.now() - started < WINDOW_STARTUP_MS, code, signal }));
  });
  const group = (signal: NodeJS.Signals) => {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  return {
    browser,
    pid: child.pid ?? -1,
    ended,
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        group('SIGTERM');
        const timer = setTimeout(() => group('SIGKILL'), WINDOW_CLOSE_GRACE_MS);
        await ended;
        clearTimeout(timer);
      }
      // Helpers that outlived the browser's main process.
      group('SIGKILL');
      if (temporary) rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Which browser opens the console's window, when there is a screen for it, and where its profile lives. */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findAppBrowser, hasDisplay, windowProfileDir } from './app-window.js';

const bin = mkdtempSync(path.join(tmpdir(), 'mish-app-window-bin-'));
afterAll(() => rmSync(bin, { recursive: true, force: true }));
function program(name: string): string {
  const p = path.join(bin, name);
  writeFileSync(p, '#!/bin/sh\n');
  chmodSync(p, 0o755);
  return p;
}

describe('the app window browser', () => {
  it('takes the first Chromium-family browser on PATH, in order of preference; none when there is none', () => {
    expect(findAppBrowser({ PATH: bin }, 'linux')).toBeUndefined();
    const brave = program('brave-browser');
    expect(findAppBrowser({ PATH: bin }, 'linux')).toBe(brave);
    const chromium = program('chromium');
    expect(findAppBrowser({ PATH: bin }, 'linux')).toBe(chromium);
  });

  it('MISH_APP_BROWSER names another (a path or a command), or none', () => {
    program('chromium');
    const other = program('my-browser');
    expect(findAppBrowser({ PATH: bin, MISH_APP_BROWSER: 'none' }, 'linux')).toBeUndefined();
    expect(findAppBrowser({ PATH: bin, MISH_APP_BROWSER: other }, 'linux')).toBe(other);
    expect(findAppBrowser({ PATH: bin, MISH_APP_BROWSER: 'my-browser' }, 'linux')).toBe(other);
    expect(findAppBrowser({ PATH: bin, MISH_APP_BROWSER: '/nonexistent/browser' }, 'linux')).toBeUndefined();
  });

  it('needs a display on Linux (X11 or Wayland), not on macOS', () => {
    expect(hasDisplay({}, 'linux')).toBe(false);
    expect(hasDisplay({ DISPLAY: ':0' }, 'linux')).toBe(true);
    expect(hasDisplay({ WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toBe(true);
    expect(hasDisplay({}, 'darwin')).toBe(true);
  });

  it("keeps the window's profile under mish's state directory, never the browser's own", () => {
    expect(windowProfileDir({ HOME: '/h' }, 'linux')).toBe('/h/.local/state/mish/console-window');
    expect(windowProfileDir({ HOME: '/h', XDG_STATE_HOME: '/s' }, 'linux')).toBe('/s/mish/console-window');
    expect(windowProfileDir({ HOME: '/h' }, 'darwin')).toBe('/h/Library/Application Support/mish/console-window');
  });
});

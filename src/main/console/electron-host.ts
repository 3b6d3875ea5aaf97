/**
 * The console's Electron window: a sandboxed, context-isolated BrowserWindow whose preload
 * exposes the contract (one function per message), wired to a ConsoleService through ipcMain.
 * Runs inside Electron's main process only (src/main/index.ts); never imported by the CLI bundle.
 *
 * Hardening (Electron's security checklist): contextIsolation + sandbox on, nodeIntegration
 * off, no remote content (a strict CSP on every response, navigation and new windows blocked,
 * webviews refused), only the notification permission granted, every request validated with
 * the zod contract before it reaches the service and every event before it reaches the page.
 */
import { app, BrowserWindow, ipcMain, session, shell, type WebContents } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEvent, parseParams, REQUEST_METHODS, type EventName, type EventPayload } from '../../shared/contract.js';
import type { ConsoleService } from './console-service.js';

/** Initial window size: room for the session list, a 120-column terminal and the agent pane. */
const WINDOW_WIDTH = 1480;
const WINDOW_HEIGHT = 900;
/** The page loads only its own files; no inline script, no remote anything. */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/** The only permission the page may have: desktop notifications for sessions waiting for input. */
const ALLOWED_PERMISSIONS = new Set(['notifications']);

/** Opens the console window; resolves when it is closed. */
export async function openConsoleWindow(service: ConsoleService): Promise<void> {
  await app.whenReady();
  const here = path.dirname(fileURLToPath(import.meta.url));
  const ses = session.defaultSession;
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONSOLE_CSP] } });
  });
  ses.setPermissionRequestHandler((_wc, permission, callback) => callback(ALLOWED_PERMISSIONS.has(permission)));
  ses.setPermissionCheckHandler((_wc, permission) => ALLOWED_PERMISSIONS.has(permission));
  app.on('web-contents-created', (_e, contents: WebContents) => {
    contents.on('will-attach-webview', (e) => e.preventDefault());
  });

  const win = new BrowserWindow({
    width: WINDOW_WIDTH,
    height: WINDOW_HEIGHT,
    title: 'mish console',
    backgroundColor: '#1e1e1e',
    webPreferences: {
      preload: path.join(here, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
    },
  });
  // Links open in the system browser (http/https only), never inside the privileged window.
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https?:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (e) => e.preventDefault());
  win.webContents.on('will-redirect', (e) => e.preventDefault());

  const connection = service.connect({
    send<E extends EventName>(event: E, payload: EventPayload<E>) {
      if (win.isDestroyed()) return;
      const checked = parseEvent(event, payload);
      if (checked.ok) win.webContents.send(event, checked.value);
    },
  });
  for (const channel of Object.values(REQUEST_METHODS)) {
    ipcMain.handle(channel, async (event, params: unknown) => {
      if (event.sender !== win.webContents) throw new Error('mish console: request from an unknown window');
      // Validated here, at the process boundary, and again by the service.
      const checked = parseParams(channel, params);
      if (!checked.ok) throw new Error(checked.error);
      const r = await connection.handle(channel, checked.value);
      if (!r.ok) throw new Error(r.error);
      return r.result;
    });
  }

  const devUrl = process.env.ELECTRON_RENDERER_URL;
  if (devUrl) await win.loadURL(devUrl);
  else await win.loadFile(path.join(here, '../renderer/index.html'));

  await new Promise<void>((resolve) => win.on('closed', () => resolve()));
  connection.dispose();
  for (const channel of Object.values(REQUEST_METHODS)) ipcMain.removeHandler(channel);
}

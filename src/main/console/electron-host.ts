/**
 * The console's Electron window: a sandboxed, context-isolated BrowserWindow whose preload
 * exposes the contract, wired to a ConsoleService through ipcMain. Runs inside Electron's
 * main process only (src/main/index.ts); never imported by the CLI bundle.
 */
import { app, BrowserWindow, ipcMain, shell } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEvent, REQUEST_METHODS, type EventName, type EventPayload } from '../../shared/contract.js';
import type { ConsoleService } from './console-service.js';

/** Initial window size: room for the session list plus a 120-column terminal. */
const WINDOW_WIDTH = 1280;
const WINDOW_HEIGHT = 800;

/** Opens the console window; resolves when it is closed. */
export async function openConsoleWindow(service: ConsoleService): Promise<void> {
  await app.whenReady();
  const here = path.dirname(fileURLToPath(import.meta.url));
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
    },
  });
  // Links open in the system browser, never inside the privileged window.
  win.webContents.setWindowOpenHandler(({ url }) => {
    void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (e) => e.preventDefault());

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
      const r = await connection.handle(channel, params);
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

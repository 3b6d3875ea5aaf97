/**
 * Electron main entry (out/main/index.js, started by `mish console`): a thin host. It builds
 * the engine, serves the browser console too (so the first line printed is a URL, as for
 * `mish console --web`), and opens the window. Closing the window ends every session.
 */
import { app } from 'electron';
import { openConsoleWindow } from './console/electron-host.js';
import { startWebConsole } from './console/console-command.js';
import { createConsoleManager } from './console/engine.js';

async function main(): Promise<number> {
  const engine = await createConsoleManager();
  if (!engine.ok) {
    process.stderr.write(`mish console: ${engine.error}\n`);
    return 1;
  }
  const manager = engine.value;
  const port = Number(process.env.MISH_CONSOLE_PORT) || undefined;
  const web = await startWebConsole({ manager, port });
  if (!web.ok) {
    process.stderr.write(`mish console: ${web.error.message}\n`);
    await manager.dispose();
    return 1;
  }
  process.stdout.write(`${web.value.url}\n`);
  await manager.create({ name: 'default' });
  await openConsoleWindow(web.value.service);
  await web.value.close();
  await manager.dispose();
  return 0;
}

app.on('window-all-closed', () => {
  // Quit is driven by main() once the window closed and everything was disposed.
});
void main().then(
  (code) => app.exit(code),
  (err: unknown) => {
    process.stderr.write(`mish console: ${err instanceof Error ? err.stack : String(err)}\n`);
    app.exit(1);
  },
);

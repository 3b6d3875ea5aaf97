/**
 * Electron main entry (out/main/index.js, started by `mish console`): a thin host. It starts
 * the console (engine, MCP endpoint, hub, and the browser page too, so the first line printed
 * is a URL, as for `mish console --web`) and opens the window. Closing the window ends the
 * console's own sessions; agents' `mish serve` processes are never disturbed.
 */
import { app } from 'electron';
import { openConsoleWindow } from './console/electron-host.js';
import { connectHelp, consoleSetup, ELECTRON_SSH_ENV, startConsole, startDemoAgent } from './console/console-command.js';

async function main(): Promise<number> {
  const port = Number(process.env.MISH_CONSOLE_PORT) || undefined;
  const setup = consoleSetup({ ssh: process.env[ELECTRON_SSH_ENV]?.split('\n').filter(Boolean) });
  if (!setup.ok) {
    process.stderr.write(`mish console: ${setup.error}\n`);
    return 2;
  }
  const started = await startConsole({ port, setup: setup.value });
  if (!started.ok) {
    process.stderr.write(`mish console: ${started.error}\n`);
    return 1;
  }
  const { web, engine } = started.value;
  process.stdout.write(`${web.url}\n`);
  process.stdout.write(connectHelp(engine));
  const demo = process.env.MISH_CONSOLE_DEMO ? startDemoAgent() : undefined;
  await openConsoleWindow(web.service);
  demo?.kill('SIGTERM');
  await started.value.close();
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

/**
 * The same smoke flow in the Electron window (`_electron.launch`), where an Electron binary is
 * installed. Here it is often not (the npm package downloads it lazily, and this machine has no
 * access to its host): the spec is then skipped with the reason printed, never silently.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { _electron, type ElectronApplication } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { findElectronBinary } from '../src/main/console/console-command.js';
import { waitForTerminalText } from './xterm-wait.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ELECTRON = findElectronBinary(ROOT);
const SKIP_REASON = 'the Electron binary is not installed (node_modules/electron/dist missing; `npx electron` downloads it where the network allows)';
if (!ELECTRON) process.stdout.write(`console.electron.e2e: skipped: ${SKIP_REASON}\n`);

describe.skipIf(!ELECTRON)(`operator console in the Electron window${ELECTRON ? '' : ` (skipped: ${SKIP_REASON})`}`, () => {
  let app: ElectronApplication | undefined;
  let client: Client | undefined;
  const work = mkdtempSync(path.join(os.tmpdir(), 'mish-electron-'));
  afterAll(async () => {
    await app?.close();
    await client?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('opens a hardened window that shows an agent\'s session live', async () => {
    if (!existsSync(path.join(ROOT, 'out', 'main', 'index.js'))) execFileSync(path.join(ROOT, 'node_modules', '.bin', 'electron-vite'), ['build'], { cwd: ROOT });
    const env = { ...(process.env as Record<string, string>), MISH_OPERATOR_DIR: path.join(work, 'op'), MISH_SPOOL_DIR: path.join(work, 'spool') };
    app = await _electron.launch({ executablePath: ELECTRON!, args: [ROOT, '--no-sandbox'], env });
    const win = await app.firstWindow();
    // The page has the bridge (one function per contract message) and no node.
    expect(await win.evaluate('typeof window.mish.snapshot === "function" && typeof window.require === "undefined" && typeof window.process === "undefined"')).toBe(true);
    // Navigation away from the console is refused (will-navigate is prevented).
    await win.evaluate('location.href = "https://example.com/"').catch(() => {});
    expect(win.url()).toMatch(/^file:.*index\.html$/);

    const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(ROOT, 'bin', 'mish.js'), 'serve'], cwd: work, env, stderr: 'ignore' });
    client = new Client({ name: 'claude-code', version: '2.1.0' });
    await client.connect(transport);
    await client.callTool({ name: 'sh_run', arguments: { cmd: "printf '%s-%s\\n' electron smoke", session: 'build' } });
    await win.locator(`button.session[data-session-id="serve-${transport.pid}/build"]`).click();
    await waitForTerminalText(win, 'electron-smoke');
  });
});

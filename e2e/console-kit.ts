/**
 * The setup most console e2e files repeat, kept in one place: a temp HOME with canaries entered
 * by this process (the console and its engine live where the agent's server lives), one real
 * agent (the SDK's Client spawning `mish serve` over stdio), the browser console, and Debian's
 * Chromium on its page, waiting until the console lists that agent. `close()` undoes all of it
 * in the order the files did by hand and then checks the canaries.
 *
 * The console may start before the agent connects (the usual case) or only when the test says
 * so (`console: 'later'`): a file that checks what a console opened afterwards shows (what the
 * agent did while nobody was attached) calls `openConsole()` itself.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { startConsole, type RunningConsole } from '../src/main/console/console-command.js';
import { requireElectronBuild } from '../test/helpers/fresh-build.js';
import { enterSafeHome, safeHome, type SafeHome } from '../test/helpers/safe-home.js';
import { CHROMIUM, MISH, RENDERER, STEP_MS, launchChromium } from './remote-console-kit.js';

export interface ConsoleKitOptions {
  /** 'first' (default): console, then agent, then browser. 'later': only the agent; `openConsole()` does the rest. */
  console?: 'first' | 'later';
  /** The agent's MCP client info; the console lists the server as `${name} ${version}`. */
  agent?: { name?: string; version?: string };
  /** The browser context's viewport (default 1480×900, the size the screenshots are taken at). */
  viewport?: { width: number; height: number };
  /** The browser context's colour scheme (default dark, as the screenshots are). */
  colorScheme?: 'light' | 'dark';
}

export interface ConsoleKit {
  safe: SafeHome;
  /** The env the agent's `mish serve` runs with (the safe home's, plus the wire below). */
  env: Record<string, string>;
  /** Where the console, the agent's server and this process meet: operators, spools, audit log. */
  wire: { MISH_OPERATOR_DIR: string; MISH_SPOOL_DIR: string; MISH_AUDIT_LOG: string };
  readonly client: Client;
  /** The console's id for the agent's server: `serve-<pid>`. */
  readonly serverId: string;
  /** The page's uncaught errors (`pageerror`), for an `expect(errors).toEqual([])` at the end. */
  errors: string[];
  /** The running console; throws before `openConsole()` with `console: 'later'`. */
  readonly running: RunningConsole;
  /** The console's page; throws before `openConsole()` with `console: 'later'`. */
  readonly page: Page;
  /** Starts the console, opens it in Chromium and waits until it lists the agent (once; again is a no-op). */
  openConsole(): Promise<Page>;
  /** Browser, agent, console closed; process env and cwd restored; canaries checked; temp HOME removed. */
  close(): Promise<void>;
}

/**
 * A safe home named `name` (its temp dir's prefix), an agent connected to its own `mish serve`,
 * and (unless `console: 'later'`) the console open in Chromium listing that agent. Callers keep
 * their own hang guard on the hook that calls this. A failure part way closes what was started
 * before it rethrows, so a failed `beforeAll` leaves no Chromium, server or console behind.
 */
export async function openConsoleWithAgent(name: string, options: ConsoleKitOptions = {}): Promise<ConsoleKit> {
  const agentName = options.agent?.name ?? 'claude-code';
  const agentVersion = options.agent?.version ?? '1.0.0';
  requireElectronBuild();
  expect(existsSync(CHROMIUM), `${CHROMIUM} missing: apt-get install chromium`).toBe(true);
  const safe = safeHome(name);
  const wire = { MISH_OPERATOR_DIR: path.join(safe.home, 'operators'), MISH_SPOOL_DIR: path.join(safe.home, 'spool'), MISH_AUDIT_LOG: path.join(safe.home, '.state', 'mish', 'audit.jsonl') };
  const env = safe.env(wire);
  // The console (this process) and its own engine live in the same temp HOME and scratch cwd as
  // the agent's server, with the same audit log and spools.
  const leave = enterSafeHome(safe, wire);
  let running: RunningConsole | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  let client: Client | undefined;
  let serverId = '';
  const errors: string[] = [];

  const startTheConsole = async () => {
    const started = await startConsole({ rendererDir: RENDERER, operatorDir: wire.MISH_OPERATOR_DIR });
    if (!started.ok) throw new Error(started.error);
    running = started.value;
  };
  const openTheBrowser = async () => {
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: options.viewport ?? { width: 1480, height: 900 }, colorScheme: options.colorScheme ?? 'dark' });
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(running!.web.url);
    // The console has connected to the agent's server (as an approver) once it lists it.
    await page.locator(`[data-server-id="${serverId}"] .server-name`, { hasText: `${agentName} ${agentVersion}` }).waitFor({ timeout: STEP_MS });
  };

  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    // Each step runs even if the one before it threw: no Chromium, server or console outlives the file.
    try {
      await browser?.close();
    } finally {
      try {
        await client?.close().catch(() => {});
      } finally {
        try {
          await running?.close();
        } finally {
          leave();
        }
      }
    }
    safe.assertCanariesIntact();
    safe.dispose();
  };

  let opening: Promise<Page> | undefined;
  const kit: ConsoleKit = {
    safe,
    env,
    wire,
    get client() {
      return client!;
    },
    get serverId() {
      return serverId;
    },
    errors,
    get running() {
      if (!running) throw new Error('the console is not started yet: call openConsole()');
      return running;
    },
    get page() {
      if (!page) throw new Error('the console is not open yet: call openConsole()');
      return page;
    },
    openConsole() {
      opening ??= (async () => {
        await startTheConsole();
        await openTheBrowser();
        return page!;
      })();
      return opening;
    },
    close,
  };

  try {
    if (options.console !== 'later') await startTheConsole();
    const transport = new StdioClientTransport({ command: process.execPath, args: [MISH, 'serve'], cwd: safe.cwd, env, stderr: 'ignore' });
    client = new Client({ name: agentName, version: agentVersion });
    await client.connect(transport);
    serverId = `serve-${transport.pid}`;
    if (options.console !== 'later') {
      opening = (async () => {
        await openTheBrowser();
        return page!;
      })();
      await opening;
    }
  } catch (e) {
    // Nothing may outlive a failed setup; the setup's own error is the one worth reading.
    await close().catch(() => {});
    throw e;
  }
  return kit;
}

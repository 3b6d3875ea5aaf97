/**
 * `mish console [--web] [--port N]`: the operator console. Opens the Electron window when a
 * working Electron binary is installed (else, or with --web, serves the same UI to a browser
 * on 127.0.0.1). Either way the first line printed is the URL to open.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionManager } from '../core/session/types.js';
import { ConsoleService } from './console-service.js';
import { createConsoleManager } from './engine.js';
import { GrammarService, type GrammarServiceOptions } from './grammar-service.js';
import { startWebHost, type WebHostError } from './web-host.js';

const USAGE = `usage: mish console [--web] [--port N]

Opens the operator console: live terminals of every session.
  --web      serve the console to a browser on 127.0.0.1 instead of opening the Electron window
             (the default when Electron is not installed)
  --port N   listen on port N (default: a free port)
The first line printed is the URL to open (it carries an access token).
`;

export interface ConsoleArgs {
  web: boolean;
  port?: number;
  help: boolean;
}

/** Parses the console's argv; errors as values with a one-line message. */
export function parseConsoleArgs(argv: string[]): { ok: true; value: ConsoleArgs } | { ok: false; error: string } {
  const out: ConsoleArgs = { web: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--web') out.web = true;
    else if (a === '--help' || a === '-h') out.help = true;
    else if (a === '--port' || a.startsWith('--port=')) {
      const v = a === '--port' ? argv[++i] : a.slice('--port='.length);
      const n = Number(v);
      if (v === undefined || !/^\d+$/.test(v) || n < 1 || n > 65535) return { ok: false, error: `mish console: --port needs a port number 1-65535, got ${v === undefined ? 'nothing' : JSON.stringify(v)}` };
      out.port = n;
    } else return { ok: false, error: `mish console: unknown argument ${JSON.stringify(a)} (see mish console --help)` };
  }
  return { ok: true, value: out };
}

/** The package root: the nearest directory above this module with mish's package.json. */
export function packageRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string | undefined {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const pj = path.join(dir, 'package.json');
    if (existsSync(pj)) {
      try {
        if (JSON.parse(readFileSync(pj, 'utf8')).name === 'mish') return dir;
      } catch {
        // unreadable package.json: keep walking up
      }
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** Where the built renderer lives (out/renderer, built by `npm run build:electron`). */
export function defaultRendererDir(): string {
  return path.join(packageRoot() ?? process.cwd(), 'out', 'renderer');
}

/**
 * The Electron executable, if one is actually installed. Resolved without `require('electron')`,
 * whose first call tries to download the binary (and hangs or fails offline).
 */
export function findElectronBinary(root: string | undefined = packageRoot()): string | undefined {
  try {
    const req = createRequire(path.join(root ?? process.cwd(), 'package.json'));
    const dir = path.dirname(req.resolve('electron/package.json'));
    const rel = readFileSync(path.join(dir, 'path.txt'), 'utf8').trim();
    const base = process.env.ELECTRON_OVERRIDE_DIST_PATH ?? path.join(dir, 'dist');
    const bin = path.join(base, rel);
    return existsSync(bin) ? bin : undefined;
  } catch {
    return undefined;
  }
}

export interface WebConsole {
  url: string;
  port: number;
  service: ConsoleService;
  close(): Promise<void>;
}

/** Starts the browser-mode console over a session manager (the caller owns the manager). */
export async function startWebConsole(options: {
  manager: Pick<SessionManager, 'list' | 'subscribe'>;
  port?: number;
  rendererDir?: string;
  token?: string;
  /** Grammar editor layers (default: the process's cwd and environment). */
  grammar?: GrammarServiceOptions;
}): Promise<{ ok: true; value: WebConsole } | { ok: false; error: WebHostError }> {
  const service = new ConsoleService(options.manager, new GrammarService(options.grammar ?? { cwd: process.cwd() }));
  const host = await startWebHost({ service, rendererDir: options.rendererDir ?? defaultRendererDir(), port: options.port, token: options.token });
  if (!host.ok) {
    service.dispose();
    return host;
  }
  return {
    ok: true,
    value: {
      url: host.value.url,
      port: host.value.port,
      service,
      close: async () => {
        await host.value.close();
        service.dispose();
      },
    },
  };
}

/** `mish console …`; returns the exit code. */
export async function runConsole(argv: string[]): Promise<number> {
  const parsed = parseConsoleArgs(argv);
  if (!parsed.ok) {
    process.stderr.write(parsed.error + '\n');
    return 2;
  }
  const args = parsed.value;
  if (args.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (!args.web) {
    const root = packageRoot();
    const electron = findElectronBinary(root);
    const mainJs = root && path.join(root, 'out', 'main', 'index.js');
    if (electron && mainJs && existsSync(mainJs)) return runElectron(electron, root!, args.port);
    // No Electron here: the browser console is the same UI.
  }
  const engine = await createConsoleManager();
  if (!engine.ok) {
    process.stderr.write(`mish console: ${engine.error}\n`);
    return 1;
  }
  const manager = engine.value;
  const started = await startWebConsole({ manager, port: args.port });
  if (!started.ok) {
    await manager.dispose();
    process.stderr.write(`mish console: ${started.error.message}\n`);
    return 1;
  }
  const web = started.value;
  process.stdout.write(`${web.url}\n`);
  process.stdout.write('mish console: open the URL above in a browser; Ctrl-C stops the console and its sessions\n');
  // A session to watch from the start; agents' sessions appear next to it as they are created.
  const created = await manager.create({ name: 'default' });
  if (!created.ok && created.error.kind !== 'exists') process.stderr.write(`mish console: ${created.error.message}\n`);

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    process.once('SIGHUP', stop);
  });
  await web.close();
  await manager.dispose();
  return 0;
}

function runElectron(bin: string, appRoot: string, port: number | undefined): Promise<number> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, ...(port ? { MISH_CONSOLE_PORT: String(port) } : {}) };
    delete env.ELECTRON_RUN_AS_NODE;
    const child = spawn(bin, [appRoot], { stdio: 'inherit', env });
    child.on('error', (err) => {
      process.stderr.write(`mish console: cannot start Electron: ${err.message}\n`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

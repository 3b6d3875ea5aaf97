/**
 * `mish console [--web] [--port N]`: the operator console. Opens the Electron window when a
 * working Electron binary is installed, else an app window of an installed Chromium, Chrome,
 * Edge or Brave (app-window.ts), else (or with --web) only serves the same UI to a browser on
 * 127.0.0.1. Either way the first line printed is the URL to open.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import path from 'node:path';
import { ConsoleService } from './console-service.js';
import type { HubServer } from './hub-types.js';
import { packageRoot } from './package-root.js';
import { startConsoleEngine, type ConsoleEngine } from './engine.js';
import { consoleOperatorName, startDiscovery, type Discovery } from './wire-server.js';
import { GrammarService, type GrammarServiceOptions } from './grammar-service.js';
import { startWebHost, type WebHostError } from './web-host.js';
import { loadConsoleConfig, type NotifySettings } from './console-config.js';
import { Notifier } from './notifier.js';
import { SshLink, type RemoteTarget } from './ssh-link.js';
import { findAppBrowser, hasDisplay, openAppWindow, type AppWindow } from './app-window.js';
import { describeHookHistory, followHookHistory, loadHookHistory, type HookHistoryFollower } from './hook-history.js';

export { packageRoot };

const USAGE = `usage: mish console [--web] [--port N] [--demo] [--ssh [user@]host]... [--config FILE]

Opens the operator console: every agent's sessions, live terminals, command timelines and
what each agent saw. Agents connect by URL (the console's MCP endpoint, printed on start) or
through \`mish serve\`, which registers with the running console by itself.
  --web      serve the console to a browser on 127.0.0.1 instead of opening a window
             (without it: the Electron window where Electron is installed, else an app
             window of Chromium, Chrome, Edge or Brave; MISH_APP_BROWSER names another, or
             "none"; with neither, the URL is printed to open in any browser)
  --port N   listen on port N (default, or 0: a free port)
  --demo     also start a demo agent that runs commands in two sessions (what \`npm start\` does)
  --ssh DEST also supervise every \`mish serve\` of that user on that host, through your own
             OpenSSH (repeatable; also [[remote]] ssh = "DEST" in the config)
  --config F the console's config (default $XDG_CONFIG_HOME/mish/console.toml): [notify] webhook
             notifications, [[remote]] machines
The first line printed is the URL to open (its token is in the fragment, never sent in a request).
`;

export interface ConsoleArgs {
  web: boolean;
  /** ssh destinations (`user@host`, a Host of ~/.ssh/config). */
  ssh: string[];
  config?: string;
  demo?: boolean;
  port?: number;
  help: boolean;
}

/** Parses the console's argv; errors as values with a one-line message. */
export function parseConsoleArgs(argv: string[]): { ok: true; value: ConsoleArgs } | { ok: false; error: string } {
  const out: ConsoleArgs = { web: false, help: false, ssh: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--web') out.web = true;
    else if (a === '--demo') out.demo = true;
    else if (a === '--help' || a === '-h') out.help = true;
    else if (a === '--ssh' || a.startsWith('--ssh=') || a === '--config' || a.startsWith('--config=')) {
      const name = a.startsWith('--ssh') ? 'ssh' : 'config';
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      if (!v || v.startsWith('-')) return { ok: false, error: `mish console: --${name} needs ${name === 'ssh' ? 'a destination ([user@]host)' : 'a file'}` };
      if (name === 'ssh') out.ssh.push(v);
      else out.config = v;
    }
    else if (a === '--port' || a.startsWith('--port=')) {
      const v = a === '--port' ? argv[++i] : a.slice('--port='.length);
      const n = Number(v);
      // (0 is a free port, as for `mish serve --http`: the console hand session of session 47 tried it first.)
      if (v === undefined || !/^\d+$/.test(v) || n > 65535) return { ok: false, error: `mish console: --port needs a port number 0-65535 (0: a free one), got ${v === undefined ? 'nothing' : JSON.stringify(v)}` };
      if (n > 0) out.port = n;
    } else return { ok: false, error: `mish console: unknown argument ${JSON.stringify(a)} (see mish console --help)` };
  }
  return { ok: true, value: out };
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

/** Starts the browser-mode console over hub servers (the caller owns the servers' engines). */
export async function startWebConsole(options: {
  servers: HubServer[];
  port?: number;
  rendererDir?: string;
  token?: string;
  /** Grammar editor layers (default: the process's cwd and environment). */
  grammar?: GrammarServiceOptions;
}): Promise<{ ok: true; value: WebConsole } | { ok: false; error: WebHostError }> {
  const service = new ConsoleService(options.servers, { grammar: new GrammarService(options.grammar ?? { cwd: process.cwd() }), operatorName: consoleOperatorName() });
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

/** What the console's config and arguments add: notifications, remote machines. */
export interface ConsoleSetup {
  notify?: NotifySettings;
  /** ssh destinations to supervise (arguments first, then the config's, each once). */
  remotes: string[];
}

/** Reads the config (`--config` or the default file) and merges `--ssh`; one-line errors. */
export function consoleSetup(args: { ssh?: string[]; config?: string }, env: NodeJS.ProcessEnv = process.env): { ok: true; value: ConsoleSetup } | { ok: false; error: string } {
  const config = loadConsoleConfig(args.config, env);
  if (!config.ok) return config;
  const remotes = [...new Set([...(args.ssh ?? []), ...config.value.remotes])];
  return { ok: true, value: { remotes, ...(config.value.notify ? { notify: config.value.notify } : {}) } };
}

/** The running console's pieces: engine, hub, page; `close` ends them in order. */
export interface RunningConsole {
  web: WebConsole;
  /** The console's own engine and MCP endpoint; absent when it could not start (the hub still shows every `mish serve`). */
  engine?: ConsoleEngine;
  discovery?: Discovery;
  /** Links to remote machines (`--ssh`, `[[remote]]`). */
  links: SshLink[];
  /** Resolves once what agents' hooks did before the console started is read back from the audit log and shown (and following the log has begun). */
  history: Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the console's engine, hub and page (shared by `mish console` and the Electron main),
 * and connects to every running `mish serve` (and each new one) unless `discover` is false.
 */
export async function startConsole(
  options: {
    port?: number;
    rendererDir?: string;
    discover?: boolean;
    operatorDir?: string;
    setup?: ConsoleSetup;
    remotes?: RemoteTarget[];
    /** The audit log hooked history is read from (default: this user's); `false`: none read. */
    auditLog?: string | false;
  } = {},
): Promise<{ ok: true; value: RunningConsole } | { ok: false; error: string }> {
  const started0 = await startConsoleEngine({ operatorName: consoleOperatorName() });
  // Without its own engine (inside Electron, node-pty built for another ABI) the console is still
  // the hub of every agent's `mish serve`; say why and go on.
  if (!started0.ok) process.stderr.write(`mish console: ${started0.error}; agents connecting by URL are not available, \`mish serve\` agents are\n`);
  const engine = started0.ok ? started0 : undefined;
  const started = await startWebConsole({ servers: engine ? [engine.value.server] : [], port: options.port, rendererDir: options.rendererDir });
  if (!started.ok) {
    await engine?.value.dispose();
    return { ok: false, error: started.error.message };
  }
  const web = started.value;
  const log = (m: string) => void process.stderr.write(`mish console: ${m}\n`);
  // What agents' hooks did before the console started: a hooked run lives seconds and a hook's
  // refusal opens no socket, so the audit log is their only record. Read in the background (a
  // bounded read of the log's end), never holding up the page or the agents.
  // Then what hooks append while the console runs: a refusal the hook makes on its own (a
  // forbidden command) never reaches the wire, and a run the console missed is in the log too.
  let follower: HookHistoryFollower | undefined;
  let closing = false;
  const history =
    options.auditLog === false
      ? Promise.resolve()
      : loadHookHistory(options.auditLog ? { log: options.auditLog } : {}).then(
          (h) => {
            web.service.addHookHistory(h.conversations, h.process);
            const note = describeHookHistory(h);
            if (note) log(note);
            if (!closing) follower = followHookHistory(h.follow, (found) => web.service.addHookHistory(found, h.process, { consoleOpen: true }), { log });
          },
          (e: unknown) => void log(`hooked history not read from the audit log: ${(e as Error).message}`),
        );
  const discovery =
    options.discover === false
      ? undefined
      : await startDiscovery({
          dir: options.operatorDir,
          onServer: (server) => web.service.addServer(server),
          onGone: (id) => web.service.serverGone(id),
          log: (m) => process.stderr.write(`mish console: ${m}\n`),
        });
  // Notifications: one more view of the hub, posting what needs the operator.
  const notify = options.setup?.notify;
  const notifier = notify ? new Notifier(notify, web.url) : undefined;
  const notifierView = notifier ? web.service.connect(notifier) : undefined;
  // Remote machines over the user's own ssh: each link adds its host's servers to the hub.
  const links = (options.remotes ?? options.setup?.remotes.map((ssh) => ({ ssh })) ?? []).map((target) => {
    const link = new SshLink(target, consoleOperatorName(), {
      onServer: (server) => web.service.addServer(server),
      onGone: (id) => web.service.serverGone(id),
      onStatus: (status) => web.service.setHost(status),
      log: (m) => process.stderr.write(`mish console: ${m}\n`),
    });
    link.start();
    return link;
  });
  return {
    ok: true,
    value: {
      web,
      ...(engine ? { engine: engine.value } : {}),
      discovery,
      links,
      history,
      close: async () => {
        // Only our connections close: the agents' servers keep running.
        closing = true;
        await history;
        follower?.close();
        discovery?.close();
        for (const l of links) l.close();
        notifierView?.dispose();
        notifier?.dispose();
        await web.close();
        await engine?.value.dispose();
      },
    },
  };
}

/** The lines printed after the URL: where agents connect. */
export function connectHelp(engine: ConsoleEngine | undefined): string {
  return (
    'mish console: agents running `mish serve` appear here by themselves' +
    (engine ? `; agents can also connect by URL: ${engine.mcpUrl} with header "Authorization: Bearer ${engine.mcpToken}"` : '') +
    '. Ctrl-C stops the console (never the agents\' servers).\n'
  );
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
  const setup = consoleSetup(args);
  if (!setup.ok) {
    process.stderr.write(`mish console: ${setup.error}\n`);
    return 2;
  }
  if (!args.web) {
    const root = packageRoot();
    const electron = findElectronBinary(root);
    const mainJs = root && path.join(root, 'out', 'main', 'index.js');
    if (electron && mainJs && existsSync(mainJs)) return runElectron(electron, root!, args);
    // No Electron here: the browser console is the same UI.
  }
  const started = await startConsole({ port: args.port, setup: setup.value });
  if (!started.ok) {
    process.stderr.write(`mish console: ${started.error}\n`);
    return 1;
  }
  const { web, engine } = started.value;
  process.stdout.write(`${web.url}\n`);
  process.stdout.write(connectHelp(engine));
  const demo = args.demo ? startDemoAgent() : undefined;
  const window = args.web ? undefined : openWindow(web.url);

  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    process.once('SIGHUP', stop);
    // Closing the window stops the console; a browser that ended at once showed no window.
    void window?.ended.then((e) => {
      if (!e.early) return resolve();
      process.stderr.write(`mish console: ${window.browser} did not open a window (exit ${e.code ?? e.signal}); open the URL above in a browser\n`);
    });
  });
  await window?.close();
  demo?.kill('SIGTERM');
  await started.value.close();
  return 0;
}

/** The console's app window when a browser and a display are there; else the URL printed is the way in. */
function openWindow(url: string): AppWindow | undefined {
  const browser = findAppBrowser();
  if (!browser || !hasDisplay()) return undefined;
  const w = openAppWindow(url, browser);
  if ('error' in w) {
    process.stderr.write(`mish console: ${w.error}; open the URL above in a browser\n`);
    return undefined;
  }
  process.stderr.write(`mish console: opened in an app window of ${browser} (pid ${w.pid}); closing it stops the console\n`);
  return w;
}

/**
 * The demo agent (scripts/demo-agent.mjs): a real MCP client that spawns `mish serve` (as Claude
 * Code does) and drives two sessions; the console finds its server like any other. The console
 * owns the demo agent and ends it.
 */
export function startDemoAgent(): ChildProcess | undefined {
  const script = path.join(packageRoot() ?? process.cwd(), 'scripts', 'demo-agent.mjs');
  if (!existsSync(script)) {
    process.stderr.write(`mish console: --demo needs ${script} (a checkout of mish)\n`);
    return undefined;
  }
  // Its stdin is a pipe the console never writes: when the console dies, even by SIGKILL, the
  // pipe closes and the agent ends (with its `mish serve`) instead of living on as an orphan
  // (seen after a killed console in the stress run).
  const child = spawn(process.execPath, [script], {
    stdio: ['pipe', 'ignore', 'inherit'],
    env: process.env,
  });
  (child.stdin as Socket | null)?.unref(); // the pipe alone never keeps the console's process alive
  child.on('error', (e) => process.stderr.write(`mish console: demo agent: ${e.message}\n`));
  return child;
}

/** The Electron main's share of the arguments (src/main/index.ts reads them back). */
export const ELECTRON_SSH_ENV = 'MISH_CONSOLE_SSH';

function runElectron(bin: string, appRoot: string, args: ConsoleArgs): Promise<number> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...(args.port ? { MISH_CONSOLE_PORT: String(args.port) } : {}),
      ...(args.demo ? { MISH_CONSOLE_DEMO: '1' } : {}),
      ...(args.ssh.length ? { [ELECTRON_SSH_ENV]: args.ssh.join('\n') } : {}),
      ...(args.config ? { MISH_CONSOLE_CONFIG: path.resolve(args.config) } : {}),
    };
    delete env.ELECTRON_RUN_AS_NODE;
    const child = spawn(bin, [appRoot], { stdio: 'inherit', env });
    child.on('error', (err) => {
      process.stderr.write(`mish console: cannot start Electron: ${err.message}\n`);
      resolve(1);
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

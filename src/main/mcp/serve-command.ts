/**
 * `mish serve [--http [HOST:]PORT] [--token T | --no-auth] [--help]`: the MCP server agents
 * connect to. stdio by default; Streamable HTTP on loopback with --http.
 *
 * stdout belongs to the protocol: in this mode console.log/info/debug go to stderr, and the
 * shells run in PTYs, so no child ever inherits fd 1. The server ends within a second of stdin
 * EOF (stdio) or SIGTERM/SIGINT, after disposing the session manager (process groups TERM,
 * then KILL) so nothing outlives it.
 */
import { createServer } from './server.js';
import { RobustStdioTransport } from './stdio.js';
import { generateToken, parseHostPort, startHttp } from './http.js';
import type { McpDeps } from './tool-kit.js';
import { becomeChildSubreaper, descendantsOf } from '../platform/platform.js';
import { startOperatorSocket, type OperatorSocket } from '../operator/socket-server.js';
import { enableSquashWorkers, shutdownSquashWorkers } from '../core/squash-worker/pool.js';

export const SERVE_HELP = `usage: mish serve [--http [HOST:]PORT] [--token TOKEN | --no-auth]

Run the mish MCP server (tools sh_run, sh_spawn, sh_interact, sh_session, sh_help).

  (no flags)          speak MCP over stdio — what Claude Code, Codex and Cursor launch
  --http [HOST:]PORT  speak MCP over Streamable HTTP at http://HOST:PORT/mcp; HOST must be
                      loopback (default 127.0.0.1); PORT 0 picks a free port
  --token TOKEN       bearer token HTTP clients must send (default: $MISH_TOKEN, else a
                      random one printed to stderr)
  --no-auth           accept HTTP requests without a token (loopback only still applies)
  -h, --help          show this help

Operators reach this server through a private socket (<runtime dir>/servers/<pid>.sock: on Linux
$XDG_RUNTIME_DIR/mish, else ~/.local/state/mish/run; on macOS $TMPDIR/mish-<uid>; MISH_OPERATOR_DIR
overrides): \`mish approvals\` decides
dangerous commands, \`mish attach <handoff-id>\` types a password prompt for the agent.

Register with Claude Code:  claude mcp add mish -- mish serve
`;

/** Upper bound of shutdown: disposing sessions TERMs process groups and KILLs after a grace; the issue allows 1 s in all. */
const SHUTDOWN_DEADLINE_MS = 900;
/** Descendants found by ancestry after dispose get this long after SIGTERM before SIGKILL (dispose already spent ~600 ms of the 1 s exit budget). */
const DESCENDANT_GRACE_MS = 150;

export interface ServeArgs {
  http?: { host: string; port: number };
  token?: string;
  noAuth: boolean;
  help: boolean;
}

/** Parses serve's argv; an error text for bad input (the caller prints it and exits 2). */
export function parseServeArgs(argv: string[]): ServeArgs | { error: string } {
  const out: ServeArgs = { noAuth: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = (name: string) => {
      const eq = a.indexOf('=');
      if (eq >= 0) return a.slice(eq + 1);
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) return undefined;
      return v;
    };
    if (a === '-h' || a === '--help') out.help = true;
    else if (a === '--no-auth') out.noAuth = true;
    else if (a === '--http' || a.startsWith('--http=')) {
      const v = value('--http');
      if (v === undefined) return { error: 'mish serve: --http needs [HOST:]PORT, e.g. --http 8765' };
      const hp = parseHostPort(v);
      if ('error' in hp) return { error: `mish serve: ${hp.error}` };
      out.http = hp;
    } else if (a === '--token' || a.startsWith('--token=')) {
      const v = value('--token');
      if (!v) return { error: 'mish serve: --token needs a value' };
      out.token = v;
    } else return { error: `mish serve: unknown argument "${a}" (see mish serve --help)` };
  }
  if (out.noAuth && out.token) return { error: 'mish serve: --token and --no-auth contradict each other' };
  if (!out.http && (out.token || out.noAuth)) return { error: 'mish serve: --token/--no-auth only apply with --http' };
  return out;
}

/** After shutdown, how long the process may linger on open handles before it exits regardless. */
const LINGER_MS = 50;

export interface ServeOptions {
  /** Exit the process shortly after shutdown even if a handle lingers (default true; false when embedded). */
  exitProcess?: boolean;
  /**
   * Become the child subreaper and end every descendant at shutdown (default: when the process is
   * the server's own, i.e. exitProcess is not false; an embedding host owns its other children).
   */
  subreaper?: boolean;
  /** Builds the engine behind the tools; default: the real session manager and router. */
  makeDeps?: (log: (m: string) => void) => Promise<McpDeps & { dispose(): Promise<void> }>;
  stderr?: NodeJS.WritableStream;
}

/**
 * Entry of `mish serve`; resolves with the exit code once the server has shut down.
 * The CLI's main calls it with the arguments after "serve".
 */
export async function runServe(argv: string[], options: ServeOptions = {}): Promise<number> {
  const stderr = options.stderr ?? process.stderr;
  // A client that died closes our stderr too: a write then fails with EPIPE, and an unheard
  // 'error' event would become an uncaught exception that logs to stderr again — a busy loop
  // that kept the server (and its shells) alive forever. Logging simply stops instead.
  let stderrGone = false;
  const onStderrError = () => {
    stderrGone = true;
  };
  stderr.on('error', onStderrError);
  const log = (m: string) => {
    if (!stderrGone) stderr.write(`mish serve: ${m}\n`);
  };
  const args = parseServeArgs(argv);
  if ('error' in args) {
    stderr.write(`${args.error}\n`);
    return 2;
  }
  if (args.help) {
    // Help is the one thing serve prints on stdout: no protocol runs.
    process.stdout.write(SERVE_HELP);
    return 0;
  }
  protectStdout();
  // Big outputs are squashed in worker threads: many sessions share this event loop (core/squash-worker).
  enableSquashWorkers(log);
  // Orphans of what we start become our children, so shutdown finds them by ancestry (endDescendants).
  const subreaper = (options.subreaper ?? options.exitProcess !== false) ? await becomeChildSubreaper() : undefined;
  if (subreaper && !subreaper.ok) log(`not a child subreaper (${subreaper.why}): processes that drop MISH_OWNER and leave with setsid can outlive the server`);
  const transportKind = args.http ? 'http' : 'stdio';
  const makeDeps = options.makeDeps ?? (async (l: (m: string) => void) => (await import('./engine-wiring.js')).makeEngineDeps(l, { transport: transportKind }));
  const deps = await makeDeps(log);
  // Operators (console, `mish approvals`, `mish attach`) reach this server over a private
  // socket. Best effort: without it the agent is served all the same (escalations are refused).
  let operatorSocket: OperatorSocket | undefined;
  if (deps.operator && process.env.MISH_NO_OPERATOR_SOCKET !== '1') {
    const started = await startOperatorSocket(deps.operator, { log });
    if (started.ok) operatorSocket = started.socket;
    else log(`operator socket unavailable (${started.error}); escalations will be refused`);
  }
  const disposeAll = async () => {
    await operatorSocket?.close().catch(() => {});
    await deps.dispose();
    await shutdownSquashWorkers();
  };
  const operator = deps.operator;
  const newServer = () => {
    const server = createServer(deps);
    // The operator sees which agent runs this server (clientInfo of MCP initialize).
    server.server.oninitialized = () => operator?.setMcpClient(server.server.getClientVersion());
    return server;
  };

  let resolveExit: (code: number) => void = () => {};
  const exited = new Promise<number>((resolve) => (resolveExit = resolve));
  let stopping = false;
  let closeTransport: () => Promise<void> = async () => {};
  const shutdown = async (why: string, code: number) => {
    if (stopping) return;
    stopping = true;
    if (process.env.MISH_DEBUG) log(`shutting down (${why})`);
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_DEADLINE_MS).unref());
    const ownedEnd = subreaper?.ok ? endDescendants : async () => {};
    await Promise.race([Promise.allSettled([closeTransport(), disposeAll()]).then(ownedEnd), deadline]);
    if (subreaper?.ok) {
      subreaper.dispose();
      // Past the deadline nothing gets more grace: whatever is still below us is killed now.
      signalEach(descendantsOf(process.pid), 'SIGKILL');
    }
    resolveExit(code);
  };
  const onSignal = (sig: NodeJS.Signals) => void shutdown(sig, 0);
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  process.once('SIGHUP', onSignal);
  // A bug in one tool call must not take every session down with it: log and keep serving.
  const onUncaught = (e: unknown) => log(`internal error (server keeps running): ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);

  if (args.http) {
    // An empty MISH_TOKEN counts as unset: an empty bearer token would be no protection at all.
    const envToken = process.env.MISH_TOKEN || undefined;
    const token = args.noAuth ? null : (args.token ?? envToken ?? generateToken());
    const started = await startHttp({ host: args.http.host, port: args.http.port, token, newServer, log });
    if (!started.ok) {
      stderr.write(`mish serve: ${started.error.message}\n`);
      await disposeAll();
      return 2;
    }
    closeTransport = () => started.value.close();
    const tokenNote = token === null ? 'no auth (--no-auth)' : args.token || envToken ? 'bearer token from --token/MISH_TOKEN' : `bearer token ${token}`;
    log(`listening on ${started.value.url} (${tokenNote})`);
  } else {
    const server = newServer();
    const transport = new RobustStdioTransport(process.stdin, process.stdout);
    transport.onclose = () => void shutdown('stdin closed', 0);
    transport.onerror = (e) => {
      if (process.env.MISH_DEBUG) log(e.message);
    };
    closeTransport = () => server.close();
    await server.connect(transport);
  }
  const code = await exited;
  process.off('SIGTERM', onSignal);
  process.off('SIGINT', onSignal);
  process.off('SIGHUP', onSignal);
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onUncaught);
  stderr.off('error', onStderrError);
  if (options.exitProcess !== false) {
    // Whatever handle is still open (a PTY the kernel has not reaped yet, a socket of a dead
    // client) must not keep a server nobody talks to alive: the promise of exiting within 1 s.
    setTimeout(() => process.exit(code), LINGER_MS).unref();
  }
  return code;
}

/** Anything the engine or a library logs goes to stderr: stdout carries only JSON-RPC. */
function protectStdout(): void {
  const toStderr = (...a: unknown[]) => void process.stderr.write(`${a.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(' ')}\n`);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}

/** After dispose: what is still below us (it dropped the owner variable, or ignored TERM) gets TERM, then KILL. */
async function endDescendants(): Promise<void> {
  signalEach(descendantsOf(process.pid), 'SIGTERM');
  const end = Date.now() + DESCENDANT_GRACE_MS;
  let left = descendantsOf(process.pid);
  while (left.length && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 20));
    left = descendantsOf(process.pid);
  }
  signalEach(left, 'SIGKILL');
}

function signalEach(pids: number[], sig: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, sig);
    } catch {
      // gone already
    }
  }
}

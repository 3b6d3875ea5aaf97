/**
 * The console's own engine: the same session manager and router `mish serve` runs, plus an MCP
 * endpoint (Streamable HTTP on loopback, bearer token) for agents that connect by URL. It is
 * one HubServer of the console ("mish console"), next to every `mish serve` it discovers.
 *
 * Errors as values: inside Electron, node-pty must be rebuilt for Electron's ABI, and a
 * mismatch surfaces here as a clear message instead of a crash at start-up.
 */
import type { SessionManager } from '../core/session/types.js';
import type { HubEvent, HubServer } from './hub-types.js';
import { inProcessOperator } from './operator-tracker.js';

/** Id of the console's own server in the hub. */
export const CONSOLE_SERVER_ID = 'console';

export interface ConsoleEngine {
  manager: SessionManager;
  /** The engine as the hub sees it. */
  server: HubServer;
  /** MCP endpoint for agents (`http://127.0.0.1:PORT/mcp`) and its bearer token. */
  mcpUrl: string;
  mcpToken: string;
  dispose(): Promise<void>;
}

export async function startConsoleEngine(
  options: { mcpPort?: number; mcpToken?: string; log?: (m: string) => void; operatorName?: string } = {},
): Promise<{ ok: true; value: ConsoleEngine } | { ok: false; error: string }> {
  const log = options.log ?? ((m: string) => void process.stderr.write(`mish console: ${m}\n`));
  let deps: Awaited<ReturnType<typeof import('../mcp/engine-wiring.js').makeEngineDeps>>;
  let mcp: typeof import('../mcp/server.js');
  let http: typeof import('../mcp/http.js');
  try {
    const wiring = await import('../mcp/engine-wiring.js');
    mcp = await import('../mcp/server.js');
    http = await import('../mcp/http.js');
    deps = await wiring.makeEngineDeps(log);
    // Like mish serve: the console's main thread carries the hub, the pages and its own agents'
    // protocol, so commands' output is squashed in a worker thread (core/squash-worker).
    (await import('../core/squash-worker/pool.js')).enableSquashWorkers(log);
  } catch (e) {
    return { ok: false, error: `cannot start the session engine: ${(e as Error).message.split('\n')[0]}` };
  }
  const token = options.mcpToken ?? http.generateToken();
  /** MCP clients connected now, by connection: "claude-code 2.1.3". */
  const clients = new Map<object, string>();
  const infoListeners = new Set<() => void>();
  const infoChanged = () => infoListeners.forEach((l) => l());
  const started = await http.startHttp({
    host: '127.0.0.1',
    port: options.mcpPort ?? 0,
    token,
    log,
    newServer: () => {
      const server = mcp.createServer(deps);
      const key = {};
      server.server.oninitialized = () => {
        const v = server.server.getClientVersion();
        clients.set(key, v ? `${v.name} ${v.version}` : 'unknown client');
        infoChanged();
      };
      server.server.onclose = () => {
        if (clients.delete(key)) infoChanged();
      };
      return server;
    },
  });
  if (!started.ok) {
    await deps.dispose();
    return { ok: false, error: started.error.message };
  }
  const manager = deps.sessions;
  const mcpUrl = started.value.url;
  // The console decides its own agents' escalations and holds their handoffs, as it does for every `mish serve`.
  const hubListeners = new Set<(e: HubEvent) => void>();
  const emit = (e: HubEvent) => hubListeners.forEach((l) => l(e));
  // Its background processes' last lines come the way every `mish serve` sends them to an operator.
  const op =
    deps.operator && options.operatorName
      ? inProcessOperator(
          deps.operator,
          options.operatorName,
          () => emit({ type: 'sessions-changed' }),
          () => emit({ type: 'background-changed', onlyOutput: true }),
          (r) => emit(r),
        )
      : undefined;
  const server: HubServer = {
    id: CONSOLE_SERVER_ID,
    info: () => ({
      kind: 'console',
      name: 'mish console',
      version: deps.version,
      cwd: process.cwd(),
      pid: process.pid,
      endpoint: mcpUrl,
      clients: [...clients.values()],
    }),
    list: () => manager.list(),
    subscribe: (l) => {
      hubListeners.add(l);
      const off = manager.subscribe(l);
      return () => {
        hubListeners.delete(l);
        off();
      };
    },
    process: (id) => manager.process(id),
    processes: () => manager.processes.list(),
    ...(op ? { operator: op.operator } : {}),
    onInfoChanged: (l) => {
      infoListeners.add(l);
      return () => void infoListeners.delete(l);
    },
  };
  return {
    ok: true,
    value: {
      manager,
      server,
      mcpUrl,
      mcpToken: token,
      dispose: async () => {
        op?.dispose();
        await started.value.close();
        await deps.dispose();
        await (await import('../core/squash-worker/pool.js')).shutdownSquashWorkers();
      },
    },
  };
}

/** A bare session manager on real PTYs (tests that drive sessions directly). */
export async function createConsoleManager(options: { cwd?: string } = {}): Promise<{ ok: true; value: SessionManager } | { ok: false; error: string }> {
  try {
    const { createSessionManager } = await import('../core/session/session-manager.js');
    const { nodePtyPort } = await import('../platform/node-pty-port.js');
    return { ok: true, value: createSessionManager({ port: nodePtyPort, cwd: options.cwd ?? process.cwd() }) };
  } catch (e) {
    return { ok: false, error: `cannot start the session engine: ${(e as Error).message.split('\n')[0]}` };
  }
}

/** A session manager as a hub server (tests, or a console without an MCP endpoint). */
export function managerAsServer(manager: SessionManager, id = CONSOLE_SERVER_ID): HubServer {
  return {
    id,
    info: () => ({ kind: 'console', name: 'mish console', cwd: process.cwd(), pid: process.pid }),
    list: () => manager.list(),
    subscribe: (l) => manager.subscribe(l),
    process: (pid) => manager.process(pid),
    processes: () => manager.processes.list(),
  };
}

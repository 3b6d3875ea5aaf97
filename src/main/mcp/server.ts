/**
 * The mish MCP server, apart from any transport (modelcontextprotocol/servers "everything"
 * layout): createServer(deps) registers one tool per file under tools/ and returns an McpServer
 * that stdio.ts or http.ts connects. Hosts translate JSON-RPC; the engine does the work.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpDeps } from './tool-kit.js';
import { registerShRun } from './tools/sh-run.js';
import { registerShSpawn } from './tools/sh-spawn.js';
import { registerShInteract } from './tools/sh-interact.js';
import { registerShSession } from './tools/sh-session.js';
import { registerShHelp } from './tools/sh-help.js';

export type { McpDeps, RouteCommand, RouteCommandRequest, RouteCommandResult } from './tool-kit.js';
export { BackgroundRuns } from './background-runs.js';

/** Shown to clients at initialize; agents read it as a hint of how to use the server. */
export const SERVER_INSTRUCTIONS =
  'mish runs shell commands for you in persistent sessions and condenses their output without losing errors, failing tests, counts or exit codes. ' +
  'Use sh_run for commands that finish, sh_spawn (with wait_for) for servers and watchers, sh_interact to answer prompts / read raw output / kill, ' +
  'sh_session for extra or remote sessions, sh_help for the reference card.';

/** Builds one MCP server (one per connection; the deps, and so the sessions, can be shared). */
export function createServer(deps: McpDeps): McpServer {
  const server = new McpServer(
    { name: 'mish', title: 'mish — shell for agents', version: deps.version },
    { capabilities: { tools: {}, logging: {} }, instructions: SERVER_INSTRUCTIONS },
  );
  // Every reply passes the known-secrets mask (values typed at handoffs) on its way to the agent.
  const masked = deps.operator ? withMaskedReplies(server, (t) => deps.operator!.known.mask(t)) : server;
  registerShRun(masked, deps);
  registerShSpawn(masked, deps);
  registerShInteract(masked, deps);
  registerShSession(masked, deps);
  registerShHelp(masked);
  return server;
}

/** The server as tools see it, with each tool's result passed through `mask` (text and structuredContent). */
function withMaskedReplies(server: McpServer, mask: (text: string) => string): McpServer {
  const maskValue = (v: unknown): unknown => {
    if (typeof v === 'string') return mask(v);
    if (Array.isArray(v)) return v.map(maskValue);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, maskValue(x)]));
    return v;
  };
  const register = ((name: string, config: unknown, cb: (...a: unknown[]) => unknown) =>
    (server.registerTool as unknown as (n: string, c: unknown, f: (...a: unknown[]) => unknown) => unknown)(name, config, async (...a: unknown[]) => maskResult(await cb(...a)))) as unknown as McpServer['registerTool'];
  const maskResult = (r: unknown): unknown => {
    const res = r as { content?: { type: string; text?: string }[]; structuredContent?: unknown };
    if (!res || typeof res !== 'object') return r;
    return {
      ...res,
      ...(res.content ? { content: res.content.map((c) => (c.type === 'text' && typeof c.text === 'string' ? { ...c, text: mask(c.text) } : c)) } : {}),
      ...(res.structuredContent !== undefined ? { structuredContent: maskValue(res.structuredContent) } : {}),
    };
  };
  return new Proxy(server, { get: (target, prop, receiver) => (prop === 'registerTool' ? register : Reflect.get(target, prop, receiver)) });
}

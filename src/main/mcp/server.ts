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
import { guardReplies } from './reply-guard.js';
import { Redactor } from '../core/redact/redactor.js';
import { NO_AUDIT } from '../core/audit/types.js';

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
  // First: every tool registered below gets its replies redacted (secret patterns, secret-named
  // variables, values typed at handoffs) and its calls audited.
  guardReplies(server, deps.redactor ?? new Redactor({ known: deps.operator ? [deps.operator.known] : [] }), deps.audit ?? NO_AUDIT);
  registerShRun(server, deps);
  registerShSpawn(server, deps);
  registerShInteract(server, deps);
  registerShSession(server, deps);
  registerShHelp(server);
  return server;
}

/**
 * Masking fails closed. When the masking itself throws (a defect, a limit the rules hit), the
 * agent gets a withheld notice instead of the unmasked text: in an MCP reply (the reply guard,
 * driven through the SDK's real Client and McpServer) and in a hooked CLI run (agent-output.ts).
 * A tool that throws an error quoting a secret has that error masked like any reply (the SDK
 * would send the message as it is). And a hooked run on a terminal that is the agent's own (the
 * PTY shell tools of Gemini CLI and Codex) shows no live line before masking and asks no question.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { maskForAgent } from '../src/main/cli/agent-output.js';
import { Redactor } from '../src/main/core/redact/redactor.js';
import { guardReplies, type ReplyRedactor } from '../src/main/mcp/reply-guard.js';
import { nodePtyPort } from '../src/main/platform/node-pty-port.js';
import { ROOT } from './helpers/fresh-build.js';
import { safeHome, type SafeHome } from './helpers/safe-home.js';

// A GitHub token's shape, built at run time so no scanner of this repository flags the file.
const TOKEN = ['ghp', '_', 'WNpxJcfj6sM3b1kbwC4mgV1bzIWz6vL7Zukj'].join('');
const NO_AUDIT = { record: () => {}, flush: async () => {} };

/** A server with one tool printing `text`, its replies guarded by `redactor`, and a Client on it. */
async function served(redactor: ReplyRedactor, tool: () => Promise<CallToolResult>): Promise<{ client: Client; close: () => Promise<void> }> {
  const server = new McpServer({ name: 'fail-closed', version: '0' });
  guardReplies(server, redactor, NO_AUDIT);
  server.registerTool('sh_run', { inputSchema: { cmd: z.string() }, outputSchema: { id: z.string(), status: z.string(), exit_code: z.number(), spool_ref: z.string(), output: z.string() } }, tool);
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '0' });
  await Promise.all([server.connect(a), client.connect(b)]);
  return { client, close: async () => (await client.close(), await server.close()) };
}

const printed = async (): Promise<CallToolResult> => ({
  content: [{ type: 'text', text: `error: bad credentials for ${TOKEN}\n[exit 1]` }],
  structuredContent: { id: 'c7', status: 'exited', exit_code: 1, spool_ref: 'mish raw c7', output: `error: bad credentials for ${TOKEN}` },
});

describe('an MCP reply whose masking throws is withheld', () => {
  it('no byte of the output; the exit code, the id and where the output is stay', async () => {
    const broken: ReplyRedactor = { redactDeep: async () => { throw new RangeError(`cannot mask ${TOKEN}`); }, addEnv: () => {} };
    const s = await served(broken, printed);
    try {
      const r = (await s.client.callTool({ name: 'sh_run', arguments: { cmd: 'deploy' } })) as CallToolResult;
      expect(JSON.stringify(r)).not.toContain(TOKEN);
      expect(r.isError).toBe(true);
      const text = (r.content[0] as { text: string }).text;
      expect(text).toContain('withheld');
      expect(text).toContain('(RangeError)');
      expect(text).toContain('`mish raw c7`');
      expect(r.structuredContent).toEqual({ id: 'c7', status: 'exited', exit_code: 1, spool_ref: 'mish raw c7', withheld: true });
    } finally {
      await s.close();
    }
  });

  it('with working masking the same reply arrives, masked (the guard is what the first case broke)', async () => {
    const s = await served(new Redactor(), printed);
    try {
      const r = (await s.client.callTool({ name: 'sh_run', arguments: { cmd: 'deploy' } })) as CallToolResult;
      expect(r.isError).toBeFalsy();
      expect(JSON.stringify(r)).not.toContain(TOKEN);
      expect((r.content[0] as { text: string }).text).toContain('[masked: github token]');
    } finally {
      await s.close();
    }
  });

  it("masking that over-reaches into the reply's own fields leaves them as the tool made them (an id, a status, where the output is)", async () => {
    // A redactor that masks every string: the output goes, the protocol's fields stay (a masked status fails the output schema).
    const greedy: ReplyRedactor = { redactDeep: async (v) => JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === 'string' && x !== 'text' ? '[masked: x]' : x))), addEnv: () => {} };
    const s = await served(greedy, printed);
    try {
      const r = (await s.client.callTool({ name: 'sh_run', arguments: { cmd: 'deploy' } })) as CallToolResult;
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toEqual({ id: 'c7', status: 'exited', exit_code: 1, spool_ref: 'mish raw c7', output: '[masked: x]' });
    } finally {
      await s.close();
    }
  });

  it('a tool that throws an error quoting a secret: the error is masked', async () => {
    const s = await served(new Redactor(), async () => {
      throw new Error(`session died while printing ${TOKEN}`);
    });
    try {
      const r = (await s.client.callTool({ name: 'sh_run', arguments: { cmd: 'x' } })) as CallToolResult;
      expect(r.isError).toBe(true);
      expect(JSON.stringify(r)).not.toContain(TOKEN);
      expect((r.content[0] as { text: string }).text).toContain('session died while printing [masked: github token]');
    } finally {
      await s.close();
    }
  });
});

describe("a hooked CLI run's text", () => {
  const agent = { MISH_AGENT: 'claude-code' };
  it('masking that throws withholds the text and names the spool', async () => {
    const out = await maskForAgent(`token ${TOKEN}`, 'cat .env', { env: agent, spoolRef: 'mish raw c3', masker: { mask: async () => { throw new TypeError(TOKEN); } } });
    expect(out).not.toContain(TOKEN);
    expect(out).toContain('output withheld: masking secrets failed (TypeError)');
    expect(out).toContain('`mish raw c3`');
  });
  it('masks with the real rules; a human run is left as printed', async () => {
    expect(await maskForAgent(`token ${TOKEN}`, 'cat .env', { env: agent })).toBe('token [masked: github token]');
    expect(await maskForAgent(`token ${TOKEN}`, 'cat .env', { env: {} })).toBe(`token ${TOKEN}`);
  });
});

describe('a hooked run on a terminal that is the agent’s own (a PTY shell tool)', () => {
  let safe: SafeHome;
  beforeAll(() => {
    safe = safeHome('agent-terminal');
  });
  afterAll(() => {
    safe.assertCanariesIntact();
    safe.dispose();
  });

  /** `mish -- <line>` in a PTY with MISH_AGENT set; answers `y` to anything that looks like a question. */
  function onAgentTerminal(line: string): Promise<{ code: number; screen: string }> {
    return new Promise((resolve, reject) => {
      const env = safe.env({ MISH_AGENT: 'gemini-cli', SHELL: '/bin/bash', NO_COLOR: '1', TERM: 'xterm-256color' });
      const p = nodePtyPort.spawn(process.execPath, [path.join(ROOT, 'bin', 'mish.js'), '--', line], { cwd: safe.cwd, env, cols: 120, rows: 30 });
      let screen = '';
      const timer = setTimeout(() => (p.kill('SIGKILL'), reject(new Error(`timed out; screen so far:\n${screen}`))), 60_000);
      p.onData((d) => {
        screen += Buffer.from(d).toString('utf8');
        if (/\[y\]es/.test(screen.slice(-200))) p.write('y\r');
      });
      p.onExit((e) => (clearTimeout(timer), resolve({ code: e.exitCode, screen })));
    });
  }

  it('an error line holding a token is shown once, masked, after the run (no live line before masking)', async () => {
    // Long enough to be condensed, the error line printed while the command still runs.
    const line = `for i in $(seq 1 300); do echo "compiling module $i"; done; echo "error: bad credentials for token ${TOKEN}"; sleep 1; seq 1 100; exit 1`;
    const { code, screen } = await onAgentTerminal(line);
    expect(code).toBe(1);
    expect(screen).not.toContain(TOKEN);
    expect(screen.match(/error: bad credentials for token \[masked: github token\]/g)).toHaveLength(1);
  });

  it('a dangerous line is not put to the terminal (the agent would answer it): refused', async () => {
    const { code, screen } = await onAgentTerminal('rm -rf ./build');
    expect(screen).not.toContain('[y]es');
    expect(screen).toContain('refused');
    expect(code).not.toBe(0);
  });
});

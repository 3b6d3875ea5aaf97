/**
 * What the issue-24 e2e files share (kept apart from the suite's common helpers): real MCP
 * clients (the SDK's Client spawning `mish serve` in a temp HOME, as an agent does) and
 * Debian's Chromium launched the way the project launches it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chromium, type Browser } from 'playwright-core';
import { SHOTS_DIR } from './screenshots.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const RENDERER = path.join(ROOT, 'out', 'renderer');
/** Screenshots go to the build directory (gitignored); `npm run screenshots` copies them to the docs' images. */
export const SHOTS = SHOTS_DIR;
export const MISH = path.join(ROOT, 'bin', 'mish.js');
/** Debian's Chromium (scripts/apt-packages.txt); Playwright never downloads a browser here. */
export const CHROMIUM = '/usr/bin/chromium';
/** Hang guard for one step on a loaded 2-core machine (never a timing assertion). */
export const STEP_MS = 60_000;

export interface Reply {
  text: string;
  isError: boolean;
}

export type Agent = Awaited<ReturnType<typeof serveAgent>>;

/** An agent: an MCP client that started its own `mish serve` (stdio) in `cwd` with `env`. */
export async function serveAgent(name: string, cwd: string, env: Record<string, string>) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [MISH, 'serve'], cwd, env, stderr: 'ignore' });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  const call = async (tool: string, args: Record<string, unknown>): Promise<Reply> => {
    const r = await client.callTool({ name: tool, arguments: args }, undefined, { timeout: 10 * 60_000, resetTimeoutOnProgress: true });
    const content = r.content as { type: string; text: string }[];
    return { text: content.map((x) => x.text).join(''), isError: r.isError === true };
  };
  return { client, serverId: `serve-${transport.pid}`, call, close: () => client.close() };
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}

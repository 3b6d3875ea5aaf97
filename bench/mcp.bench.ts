/**
 * MCP server benchmark: round trip of `sh_run {cmd: "true"}` in a warm session, through the
 * SDK's real Client over stdio to a real `mish serve` child (JSON-RPC, router, persistent shell,
 * prompt-hook boundary detection and back).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
// The tests' way to start `mish serve` (the built bundle, else the sources through tsx) and to confine it to a temp HOME.
import { homeEnv, serveCommand } from '../test/mcp-helpers.js';

/** Calls before measuring: starts the default session and warms caches and the JIT. */
const WARMUP_CALLS = 30;
/** Measured calls: enough for a stable p99 (the 99th of 300 is the 3rd slowest). */
const MEASURED_CALLS = 300;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export async function benchMcp(): Promise<{ name: string; value: number; unit: string; target?: string }[]> {
  const home = mkdtempSync(path.join(tmpdir(), 'mish-bench-mcp-'));
  const cmd = serveCommand();
  const transport = new StdioClientTransport({ command: cmd.command, args: cmd.args, cwd: home, env: homeEnv(home), stderr: 'ignore' });
  const client = new Client({ name: 'mish-bench', version: '0' });
  try {
    await client.connect(transport);
    for (let i = 0; i < WARMUP_CALLS; i++) await client.callTool({ name: 'sh_run', arguments: { cmd: 'true' } });
    const times: number[] = [];
    for (let i = 0; i < MEASURED_CALLS; i++) {
      const t0 = performance.now();
      const r = await client.callTool({ name: 'sh_run', arguments: { cmd: 'true' } });
      times.push(performance.now() - t0);
      if (r.isError) throw new Error(`sh_run true failed: ${JSON.stringify(r.content)}`);
    }
    times.sort((a, b) => a - b);
    const round = (x: number) => Math.round(x * 100) / 100;
    return [
      { name: 'mcp sh_run `true` round trip, warm session, p50', value: round(percentile(times, 50)), unit: 'ms', target: '<= 5' },
      { name: 'mcp sh_run `true` round trip, warm session, p99', value: round(percentile(times, 99)), unit: 'ms', target: '<= 20' },
    ];
  } finally {
    await client.close().catch(() => {});
    rmSync(home, { recursive: true, force: true });
  }
}

// `tsx bench/mcp.bench.ts` prints the figures on its own.
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  for (const r of await benchMcp()) console.log(`${r.name}: ${r.value} ${r.unit}${r.target ? ` (target ${r.target})` : ''}`);
}

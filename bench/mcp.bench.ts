/**
 * MCP server benchmark, through the SDK's real Client over stdio to a real `mish serve` child:
 * - round trip of `sh_run {cmd: "true"}` in a warm session (JSON-RPC, router, persistent shell,
 *   prompt-hook boundary detection and back), alone and while 8 other sessions stream (then the
 *   same load on a server that squashes in-process, MISH_SQUASH_WORKERS=0, for the ratio);
 * - the server's peak RSS (VmHWM) while one sh_run prints 1 GB (issue 9: bounded state per command).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
// The tests' way to start `mish serve` (the built bundle, else the sources through tsx) and to confine it to a temp HOME.
import { homeEnv, serveCommand } from '../test/mcp-helpers.js';
import type { BenchOutput, BenchSkip } from './types.js';

/** Calls before measuring: starts the default session and warms caches and the JIT. */
const WARMUP_CALLS = 30;
/** Measured calls: enough for a stable p99 (the 99th of 300 is the 3rd slowest). */
const MEASURED_CALLS = 300;
/** Sessions streaming while `true` is timed under load (issue 9's setting). */
const LOAD_SESSIONS = 8;
/** Lines each loading session prints per round (issue 9: 200k lines each). */
const LOAD_LINES = 200_000;
/** The large run: lines of ~60 bytes, about 1.2 GB. */
const LARGE_LINES = 20_000_000;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** A real `mish serve` in a temp HOME with the SDK Client connected. */
async function served(env: Record<string, string> = {}): Promise<{ client: Client; pid: number; close(): Promise<void> }> {
  const home = mkdtempSync(path.join(tmpdir(), 'mish-bench-mcp-'));
  const cmd = serveCommand();
  const transport = new StdioClientTransport({ command: cmd.command, args: cmd.args, cwd: home, env: homeEnv(home, env), stderr: 'ignore' });
  const client = new Client({ name: 'mish-bench', version: '0' });
  await client.connect(transport);
  return {
    client,
    pid: transport.pid!,
    close: async () => {
      await client.close().catch(() => {});
      rmSync(home, { recursive: true, force: true });
    },
  };
}

async function timeTrue(client: Client, calls: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    const r = await client.callTool({ name: 'sh_run', arguments: { cmd: 'true' } });
    times.push(performance.now() - t0);
    if (r.isError) throw new Error(`sh_run true failed: ${JSON.stringify(r.content)}`);
  }
  return times.sort((a, b) => a - b);
}

/** `true` round trips (sorted) while LOAD_SESSIONS other sessions stream LOAD_LINES lines per round until the measurement ends. */
async function timeUnderLoad(client: Client): Promise<number[]> {
  let streaming = true;
  const load = Array.from({ length: LOAD_SESSIONS }, async (_, k) => {
    await client.callTool({ name: 'sh_session', arguments: { action: 'create', name: `load${k}` } });
    while (streaming) await client.callTool({ name: 'sh_run', arguments: { cmd: `seq 1 ${LOAD_LINES}`, session: `load${k}`, timeout: 600 } }, undefined, { timeout: 600_000 });
  });
  await new Promise((r) => setTimeout(r, 2_000));
  const loaded = await timeTrue(client, MEASURED_CALLS);
  streaming = false;
  await Promise.all(load);
  return loaded;
}

const round = (x: number) => Math.round(x * 100) / 100;

/**
 * The floor under the same load, without mish: one bash in a node-pty terminal answering
 * `true; echo <marker>` while LOAD_SESSIONS other terminals print `seq 1 LOAD_LINES` back to back
 * into the same process, which throws their output away. What is left is the cost of sharing the
 * machine's cores with eight busy producers: no `mish serve` round trip can be faster.
 */
async function floorUnderLoad(): Promise<number[]> {
  const pty = await import('node-pty');
  const opts = { cols: 120, rows: 40, cwd: tmpdir(), env: { ...process.env, PS1: '' } as Record<string, string> };
  const loaders = Array.from({ length: LOAD_SESSIONS }, () => pty.spawn('bash', ['-c', `while :; do seq 1 ${LOAD_LINES}; done`], opts));
  for (const l of loaders) l.onData(() => {});
  const sh = pty.spawn('bash', ['--norc', '--noprofile'], opts);
  let seen = '';
  let waiting: { marker: string; done: () => void } | undefined;
  sh.onData((d) => {
    seen += d;
    if (waiting && seen.includes(waiting.marker)) {
      const w = waiting;
      waiting = undefined;
      w.done();
    }
  });
  try {
    await new Promise((r) => setTimeout(r, 2_000));
    const times: number[] = [];
    for (let i = 0; i < MEASURED_CALLS; i++) {
      const t0 = performance.now();
      // The marker is split by quotes in what is typed, so only bash's output contains it whole.
      await new Promise<void>((done) => {
        seen = '';
        waiting = { marker: `floor${i}mark`, done };
        sh.write(`true; echo floor${i}''mark\r`);
      });
      times.push(performance.now() - t0);
    }
    return times.sort((a, b) => a - b);
  } finally {
    for (const l of loaders) l.kill('SIGKILL');
    sh.kill('SIGKILL');
  }
}

export async function benchMcp(options: { skipLarge?: boolean } = {}): Promise<BenchOutput> {
  const skipped: BenchSkip[] = [];
  const s = await served();
  const figures = [];
  try {
    const { client } = s;
    for (let i = 0; i < WARMUP_CALLS; i++) await client.callTool({ name: 'sh_run', arguments: { cmd: 'true' } });
    const times = await timeTrue(client, MEASURED_CALLS);
    figures.push(
      { name: 'mcp sh_run `true` round trip, warm session, p50', value: round(percentile(times, 50)), unit: 'ms', target: '<= 5' },
      { name: 'mcp sh_run `true` round trip, warm session, p99', value: round(percentile(times, 99)), unit: 'ms', target: '<= 20' },
    );
    const loaded = await timeUnderLoad(client);
    figures.push(
      { name: `mcp sh_run \`true\` p50 while ${LOAD_SESSIONS} sessions stream`, value: round(percentile(loaded, 50)), unit: 'ms', note: `each loading session runs seq 1 ${LOAD_LINES} back to back; big outputs are squashed in a worker thread` },
      { name: `mcp sh_run \`true\` p99 while ${LOAD_SESSIONS} sessions stream`, value: round(percentile(loaded, 99)), unit: 'ms', target: '<= 25' },
    );
  } finally {
    await s.close();
  }
  // The same load with squashing kept on the event loop (MISH_SQUASH_WORKERS=0), for the ratio within this run.
  const inProcess = await served({ MISH_SQUASH_WORKERS: '0' });
  try {
    for (let i = 0; i < WARMUP_CALLS; i++) await inProcess.client.callTool({ name: 'sh_run', arguments: { cmd: 'true' } });
    const loaded = await timeUnderLoad(inProcess.client);
    figures.push({ name: `mcp sh_run \`true\` p99 while ${LOAD_SESSIONS} sessions stream, squashing in-process`, value: round(percentile(loaded, 99)), unit: 'ms', note: 'MISH_SQUASH_WORKERS=0: the comparison for the figure above' });
  } finally {
    await inProcess.close();
  }
  const floor = await floorUnderLoad();
  figures.push({ name: `floor: bare PTY \`true\` round trip p99 under the same load (no mish)`, value: round(percentile(floor, 99)), unit: 'ms', note: `p50 ${round(percentile(floor, 50))} ms; node-pty + bash, ${LOAD_SESSIONS} terminals printing seq 1 ${LOAD_LINES} back to back into a process that discards it: what sharing the cores costs by itself` });
  if (options.skipLarge) skipped.push({ name: 'mcp server peak RSS on a 1 GB sh_run', reason: '--skip-large' });
  else {
    const big = await served();
    try {
      const cmd = `awk 'BEGIN { for (i = 0; i < ${LARGE_LINES}; i++) print "line " i " of the benchmark output, padded to sixty bytes" }'`;
      const r = await big.client.callTool({ name: 'sh_run', arguments: { cmd, timeout: 3600 } }, undefined, { timeout: 3_600_000 });
      if (r.isError) throw new Error(`large run failed: ${JSON.stringify(r.content)}`);
      const hwm = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${big.pid}/status`, 'utf8'))![1]);
      figures.push({ name: 'mcp server peak RSS, one sh_run printing ~1.2 GB', value: Math.round(hwm / 1024), unit: 'MB', target: '<= 200', note: 'VmHWM of the mish serve process' });
    } finally {
      await big.close();
    }
  }
  return { figures, skipped };
}

// `tsx bench/mcp.bench.ts` prints the figures on its own.
if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const out = await benchMcp({ skipLarge: process.argv.includes('--skip-large') });
  for (const r of Array.isArray(out) ? out : out.figures) console.log(`${r.name}: ${r.value} ${r.unit}${r.target ? ` (target ${r.target})` : ''}`);
}

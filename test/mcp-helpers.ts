/**
 * Test helpers for the MCP server: start `mish serve` as a real child process and talk to it with
 * the SDK's real Client (stdio or Streamable HTTP) — never by calling handlers directly.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readStat } from '../src/main/platform/platform.js';

export const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const DIST = path.join(ROOT, 'dist/mish.mjs');
const TSX_LOADER = pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

/** node argv running `tsEntry` from the sources through tsx (when the bundle is not built or not wanted). */
function fromSources(tsEntry: string, args: string[]): string[] {
  return ['--import', TSX_LOADER, path.join(ROOT, tsEntry), ...args];
}

/**
 * Command that runs `mish serve`: the bundled CLI when it is built and wires "serve" (what users
 * run), else the TypeScript entry through tsx. MISH_TEST_SERVE=tsx|dist forces one.
 */
export function serveCommand(args: string[] = []): { command: string; args: string[] } {
  const want = process.env.MISH_TEST_SERVE;
  if (want !== 'tsx' && existsSync(DIST) && (want === 'dist' || distHasServe(DIST))) return { command: process.execPath, args: [DIST, 'serve', ...args] };
  return { command: process.execPath, args: fromSources('src/main/mcp/stdio-entry.ts', args) };
}

/**
 * Environment of a mish run confined to a temp `home`: its config, state and spool live there,
 * never in the developer's own (an inherited XDG_STATE_HOME would otherwise win over HOME).
 */
export function homeEnv(home: string, env: Record<string, string> = {}): Record<string, string> {
  // MISH_OPERATOR_DIR: the server's operator socket stays in the temp HOME, so a developer's own
  // `mish approvals` never sees (or decides) a test's escalations.
  return { ...(process.env as Record<string, string>), HOME: home, MISH_HOME: path.join(home, '.mish'), XDG_STATE_HOME: path.join(home, '.state'), MISH_OPERATOR_DIR: path.join(home, '.mish-run'), ...env };
}

let distServe: boolean | undefined;
function distHasServe(dist: string): boolean {
  if (distServe === undefined) {
    // Cheap check without running it: main's bundle names the serve-command chunk once it wires serve.
    distServe = readFileSync(dist, 'utf8').includes('serve-command');
  }
  return distServe!;
}

export interface Served {
  client: Client;
  transport: StdioClientTransport;
  home: string;
  stderr: () => string;
  pid: () => number | null;
  close(): Promise<void>;
}

/** Starts `mish serve` over stdio in a temp HOME and connects the SDK Client. */
export async function startStdio(env: Record<string, string> = {}): Promise<Served> {
  const home = mkdtempSync(path.join(tmpdir(), 'mish-mcp-'));
  const cmd = serveCommand();
  const transport = new StdioClientTransport({
    command: cmd.command,
    args: cmd.args,
    cwd: home,
    env: homeEnv(home, env),
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: 'mish-test', version: '0.0.0' });
  await client.connect(transport);
  return {
    client,
    transport,
    home,
    stderr: () => err,
    pid: () => transport.pid,
    async close() {
      await client.close().catch(() => {});
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** The text of a tool result. */
export function text(r: unknown): string {
  const c = (r as CallToolResult).content ?? [];
  return c.map((x) => (x.type === 'text' ? x.text : '')).join('\n');
}

/**
 * How long a tool call may take before the test's client gives up: the SDK's default (60 s) is
 * shorter than some calls take on a loaded 2-core machine. A hang guard; a caller may pass its own.
 */
const CALL_TIMEOUT_MS = 120_000;

/** Calls a tool and returns its result typed loosely for assertions. */
export async function call(client: Client, name: string, args: Record<string, unknown>, options?: Parameters<Client['callTool']>[2]) {
  const r = (await client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS, ...options })) as CallToolResult;
  return { result: r, text: text(r), data: (r.structuredContent ?? {}) as Record<string, any> };
}

/** Whether a pid is alive. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Exists and is not a zombie (an orphan reparented to a pid 1 that never reaps stays a zombie). */
export function liveProcess(pid: number): boolean {
  const st = readStat(pid);
  return !!st && st.state !== 'Z' && st.state !== 'X';
}

/** How long `eventually` waits by default: a hang guard on a loaded 2-core machine (it returns as soon as the check holds). */
const EVENTUALLY_MS = 15_000;

/** Polls `check` until it is true or `ms` passes (for asserting that processes are gone). */
export async function eventually(check: () => boolean, ms = EVENTUALLY_MS, stepMs = 25): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, stepMs));
  }
  return check();
}

/** Spawns `mish serve <args>` in a temp HOME as a raw child (not through the SDK): to feed it bytes, or to drive it over HTTP. */
export function spawnRaw(args: string[] = [], env: Record<string, string> = {}): { child: ChildProcess; home: string } {
  const home = mkdtempSync(path.join(tmpdir(), 'mish-mcp-raw-'));
  const cmd = serveCommand(args);
  const child = spawn(cmd.command, cmd.args, { cwd: home, env: homeEnv(home, env), stdio: ['pipe', 'pipe', 'pipe'] });
  return { child, home };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Collects a raw server's stdout as lines (each one protocol message) and its stderr as text. */
export function collectOutput(child: ChildProcess): { out: string[]; err: () => string } {
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const out: string[] = [];
  let buf = '';
  child.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    for (let i; (i = buf.indexOf('\n')) >= 0; buf = buf.slice(i + 1)) out.push(buf.slice(0, i));
  });
  return { out, err: () => err };
}

/**
 * Runs the `mish` CLI (the bundle when built, else the sources through tsx) with the state dirs of
 * a served HOME, so `mish raw <id>` reads the spool the server wrote.
 */
export function runCli(args: string[], home: string): { status: number | null; stdout: string; stderr: string } {
  const useDist = process.env.MISH_TEST_SERVE !== 'tsx' && existsSync(DIST);
  const r = spawnSync(process.execPath, useDist ? [DIST, ...args] : fromSources('src/main/cli/main.ts', args), {
    cwd: home,
    env: homeEnv(home),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const MISH = path.join(ROOT, 'bin', 'mish.js');
const run = promisify(execFile);

describe('mish ps', () => {
  let dir: string;
  let env: Record<string, string>;
  let client: Client;
  let transport: StdioClientTransport;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'mish-ps-'));
    env = { ...(process.env as Record<string, string>), MISH_OPERATOR_DIR: path.join(dir, 'op'), MISH_SPOOL_DIR: path.join(dir, 'spool') };
    transport = new StdioClientTransport({ command: process.execPath, args: [MISH, 'serve'], cwd: dir, env, stderr: 'ignore' });
    client = new Client({ name: 'claude-code', version: '2.1.0' });
    await client.connect(transport);
    await client.callTool({ name: 'sh_run', arguments: { cmd: 'true', session: 'build' } });
  });

  afterAll(async () => {
    await client?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists each running server with its MCP client, cwd and sessions, as JSON and as a table', async () => {
    const { stdout } = await run(process.execPath, [MISH, 'ps', '--json'], { env });
    const servers = JSON.parse(stdout);
    expect(servers).toHaveLength(1);
    expect(servers[0]).toMatchObject({ pid: transport.pid, client: { name: 'claude-code', version: '2.1.0' }, cwd: dir, transport: 'stdio' });
    expect(servers[0].sessions.map((s: { name: string; state: string }) => [s.name, s.state])).toEqual([['build', 'idle']]);

    const table = (await run(process.execPath, [MISH, 'ps'], { env })).stdout.split('\n');
    expect(table[0]).toMatch(/^PID\s+AGENT\s+CWD\s+SESSION\s+STATE\s+COMMAND$/);
    expect(table[1]).toMatch(new RegExp(`^${transport.pid}\\s+claude-code 2\\.1\\.0\\s+${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+build\\s+idle\\s+last exit 0$`));
  });

  it('says so when no server runs, and rejects bad arguments in one line', async () => {
    const none = { ...env, MISH_OPERATOR_DIR: path.join(dir, 'empty') };
    expect((await run(process.execPath, [MISH, 'ps'], { env: none })).stdout).toBe('no mish server is running (agents start one with `mish serve`)\n');
    const bad = await run(process.execPath, [MISH, 'ps', '--nope'], { env }).catch((e) => e);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('mish ps: unknown argument "--nope" (see mish ps --help)\n');
  });
});

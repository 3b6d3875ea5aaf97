/**
 * `mish approvals` as a human uses it: the real CLI in a real PTY (node-pty) next to a real
 * `mish serve` spawned by the MCP SDK's Client. Dangerous lines run in a temp HOME and cwd
 * with canaries that must survive the denial.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { spawn as ptySpawn, type IPty } from 'node-pty';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, homeEnv, ROOT, startStdio, type Served } from './mcp-helpers.js';

const DIST = path.join(ROOT, 'dist/mish.mjs');
const run = promisify(execFile);

describe('mish approvals (terminal operator)', () => {
  let served: Served;
  let opDir: string;
  let term: IPty;
  let screen = '';
  const watchers = new Set<() => void>();
  /** Resolves once the screen (since `from`) shows `s`. */
  const seen = (s: string, from = 0) =>
    new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`never showed ${JSON.stringify(s)}; screen: ${screen.slice(-2000)}`)), 20_000);
      const check = () => {
        const at = screen.indexOf(s, from);
        if (at < 0) return;
        clearTimeout(timer);
        watchers.delete(check);
        resolve(at + s.length);
      };
      watchers.add(check);
      check();
    });

  beforeAll(async () => {
    served = await startStdio();
    opDir = path.join(served.home, '.mish-run');
    mkdirSync(path.join(served.home, 'work'), { recursive: true });
    for (const c of ['canary.txt', 'work/canary.txt']) writeFileSync(path.join(served.home, c), 'canary\n');
    await call(served.client, 'sh_run', { cmd: 'true', cwd: path.join(served.home, 'work') });
    term = ptySpawn(process.execPath, [DIST, 'approvals', '--name', 'tty-op'], { cols: 160, rows: 40, cwd: served.home, env: homeEnv(served.home) });
    term.onData((d) => {
      screen += d;
      for (const w of [...watchers]) w();
    });
    await seen('1 server(s) connected');
  }, 30_000);
  afterAll(async () => {
    term?.kill();
    await served?.close();
  });

  it('--help, and bad arguments are one line with exit 2', async () => {
    const help = await run(process.execPath, [DIST, 'approvals', '--help']);
    expect(help.stdout).toContain('usage: mish approvals [--json] [--name NAME]');
    const bad = await run(process.execPath, [DIST, 'approvals', '--bogus']).catch((e: { code: number; stderr: string }) => e);
    expect(bad).toMatchObject({ code: 2 });
    expect((bad as { stderr: string }).stderr.trim().split('\n')).toHaveLength(1);
  });

  it('a pending request shows live with its rule; d denies it, the agent is refused and the canaries survive; --json lists it while pending', async () => {
    const from = screen.length;
    const pending = call(served.client, 'sh_run', { cmd: 'rm -rf ~' });
    await seen('$ rm -rf ~', from);
    await seen('rule rm-recursive-root-or-home', from);
    const listed = await run(process.execPath, [DIST, 'approvals', '--json'], { env: homeEnv(served.home) });
    const json = JSON.parse(listed.stdout) as { id: string; command: string; server: { pid: number; client?: { name: string } } }[];
    expect(json).toEqual([expect.objectContaining({ command: 'rm -rf ~', server: expect.objectContaining({ pid: served.pid(), client: { name: 'mish-test', version: '0.0.0' } }) })]);
    term.write('d');
    const r = await pending;
    expect(r.data.escalation).toMatchObject({ outcome: 'denied', by: 'tty-op', id: json[0].id });
    for (const c of ['canary.txt', 'work/canary.txt']) expect(readFileSync(path.join(served.home, c), 'utf8')).toBe('canary\n');
  }, 30_000);

  it('a approves: the line runs', async () => {
    const victim = path.join(served.home, 'work', 'victim');
    mkdirSync(victim);
    writeFileSync(path.join(victim, 'junk'), 'x');
    const from = screen.length;
    const pending = call(served.client, 'sh_run', { cmd: 'rm -rf ./*', cwd: victim });
    await seen('$ rm -rf ./*', from);
    term.write('a');
    const r = await pending;
    expect(r.data).toMatchObject({ status: 'exited', exit_code: 0, escalation: { outcome: 'approved', by: 'tty-op' } });
    expect(existsSync(path.join(victim, 'junk'))).toBe(false);
    expect(readFileSync(path.join(served.home, 'canary.txt'), 'utf8')).toBe('canary\n');
  }, 30_000);

  it('q quits with exit 0', async () => {
    const exited = new Promise<number>((resolve) => term.onExit((e) => resolve(e.exitCode)));
    term.write('q');
    expect(await exited).toBe(0);
  });
});

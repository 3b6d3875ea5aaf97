/**
 * `mish hook`'s decision time, process start to answer, for an allowed command (what an agent
 * pays before each of its shell calls): the command `mish init` writes (the bash front,
 * bin/mish-hook.sh) with this user's hook daemon warm, the same front with no daemon (it runs the
 * node hook: the cold path), the node launcher alone (bin/mish-hook.cjs, what bash 3.2 gets),
 * and a bare `node` start, interleaved in one run; and the rewritten command's overhead: the
 * same command through `mish -- '<line>'` as the hook rewrites it vs run bare by sh.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, type BenchFigure } from './types.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MISH = path.join(ROOT, 'bin/mish.js');
/** The node hook launcher (what `mish init` writes where bash 4 is missing, and the front's fallback). */
const MISH_HOOK = path.join(ROOT, 'bin/mish-hook.cjs');
/** What `mish init` writes into an agent's hook configuration where bash 4 or newer is found. */
const FRONT = path.join(ROOT, 'bin/mish-hook.sh');
/** Cold-path runs (no daemon: the front runs the node hook; each also starts a daemon, stopped before the next). */
const COLD_RUNS = 20;
/** Hook runs measured (p99 of 100 is its second-slowest run). */
const HOOK_RUNS = 100;
/** Runs of the rewritten command and of the bare one. */
const RUN_PAIRS = 15;

function timed(cmd: string, args: string[], input: string | undefined, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const c = spawn(cmd, args, { env, stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'ignore'] });
    if (input !== undefined) c.stdin!.end(input);
    c.on('error', reject);
    c.on('close', () => resolve(Number(process.hrtime.bigint() - t0) / 1e6));
  });
}

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

export async function benchHook(): Promise<BenchFigure[]> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'mish-hook-bench-'));
  // Everything in a temp HOME, the hook daemon's directory (the runtime dir) and the caches too.
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_STATE_HOME: path.join(home, '.state'), XDG_CONFIG_HOME: path.join(home, '.config'), XDG_CACHE_HOME: path.join(home, '.cache'), XDG_RUNTIME_DIR: path.join(home, '.run'), MISH_OPERATOR_DIR: path.join(home, 'ops') };
  for (const k of ['MISH_HOOK_DAEMON', 'MISH_HOOK_FRONT_TRACE', 'MISH_POLICY', 'MISH_POLICY_DEFAULT']) delete env[k];
  const stop = () => spawnSync(process.execPath, [MISH_HOOK, 'hook', '--stop-daemon'], { env, stdio: 'ignore' });
  try {
    const payload = JSON.parse(readFileSync(path.join(ROOT, 'fixtures/hooks/claude-code/recorded-2.1.332-bypass.json'), 'utf8')) as Record<string, unknown>;
    payload.cwd = home;
    const input = JSON.stringify(payload);
    const hookArgs = ['hook', 'claude-code', '--timeout', '330'];
    const frontArgs = [FRONT, process.execPath, ...hookArgs];
    const front: number[] = [];
    const hook: number[] = [];
    const bare: number[] = [];
    // Warm: the first call starts the daemon (through the node hook); a few more let it read the compiled policy.
    for (let i = 0; i < 10; i++) {
      await timed('bash', frontArgs, input, env);
      await new Promise((r) => setTimeout(r, 100));
    }
    for (let i = 0; i < HOOK_RUNS; i++) {
      // Interleaved, so load on the machine hits all alike.
      front.push(await timed('bash', frontArgs, input, env));
      if (i % 2 === 0) hook.push(await timed(process.execPath, [MISH_HOOK, ...hookArgs], input, { ...env, MISH_HOOK_DAEMON: '0' }));
      if (i % 4 === 0) bare.push(await timed(process.execPath, ['-e', ''], undefined, env));
    }
    const cold: number[] = [];
    for (let i = 0; i < COLD_RUNS; i++) {
      stop();
      await new Promise((r) => setTimeout(r, 150));
      cold.push(await timed('bash', frontArgs, input, env));
    }
    stop();
    const line = "for i in 1 2 3; do echo step $i; done";
    const through: number[] = [];
    const direct: number[] = [];
    for (let i = 0; i < RUN_PAIRS; i++) {
      through.push(await timed('sh', ['-c', `MISH_AGENT=claude-code ${process.execPath} ${MISH} -- '${line}'`], undefined, env));
      direct.push(await timed('sh', ['-c', line], undefined, env));
    }
    return [
      { name: 'hook decision p50 (allowed command, process start → answer; bash front, warm daemon)', value: +median(front).toFixed(1), unit: 'ms', target: '<= 60', note: `${HOOK_RUNS} runs of bash bin/mish-hook.sh <node> hook claude-code (the command mish init writes) on the recorded bypassPermissions payload, this user's hook daemon warm` },
      { name: 'hook decision p99 (bash front, warm daemon)', value: +pct(front, 99).toFixed(1), unit: 'ms', target: '<= 150' },
      { name: 'hook decision p50, cold (bash front, no daemon: the node hook)', value: +median(cold).toFixed(1), unit: 'ms', note: `${COLD_RUNS} runs, the daemon stopped before each (each run starts one)` },
      { name: 'hook decision p50, node launcher alone (bin/mish-hook.cjs)', value: +median(hook).toFixed(1), unit: 'ms', note: 'what mish init writes where no bash 4 is found; interleaved with the front' },
      { name: 'hook decision p99, node launcher alone', value: +pct(hook, 99).toFixed(1), unit: 'ms' },
      { name: 'bare node start p50 (same run, the floor of any Node hook)', value: +median(bare).toFixed(1), unit: 'ms', note: 'node -e "" interleaved with the hook runs' },
      { name: 'node hook p50 minus bare node start', value: +(median(hook) - median(bare)).toFixed(1), unit: 'ms', note: 'what mish adds to a Node start' },
      { name: 'rewritten command overhead (mish -- line vs sh -c line), median', value: +(median(through) - median(direct)).toFixed(1), unit: 'ms', note: `${RUN_PAIRS} pairs; a 3-line loop` },
    ];
  } finally {
    stop();
    rmSync(home, { recursive: true, force: true });
  }
}

/**
 * `mish hook`'s decision time, process start to answer, for an allowed command (what an agent
 * pays before each of its shell calls), beside a bare `node` start in the same run (the floor no
 * Node program goes under on this machine); and the rewritten command's overhead: the same
 * command through `mish -- '<line>'` as the hook rewrites it vs run bare by sh.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, type BenchFigure } from './types.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MISH = path.join(ROOT, 'bin/mish.js');
/** What `mish init` writes into an agent's hook configuration. */
const MISH_HOOK = path.join(ROOT, 'bin/mish-hook.cjs');
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
  const env = { ...process.env, HOME: home, XDG_STATE_HOME: path.join(home, '.state'), XDG_CONFIG_HOME: path.join(home, '.config'), MISH_OPERATOR_DIR: path.join(home, 'ops') };
  try {
    const payload = JSON.parse(readFileSync(path.join(ROOT, 'fixtures/hooks/claude-code/recorded-2.1.332-bypass.json'), 'utf8')) as Record<string, unknown>;
    payload.cwd = home;
    const input = JSON.stringify(payload);
    const hook: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < HOOK_RUNS; i++) {
      // Interleaved, so load on the machine hits both alike.
      hook.push(await timed(process.execPath, [MISH_HOOK, 'hook', 'claude-code', '--timeout', '330'], input, env));
      if (i % 4 === 0) bare.push(await timed(process.execPath, ['-e', ''], undefined, env));
    }
    const line = "for i in 1 2 3; do echo step $i; done";
    const through: number[] = [];
    const direct: number[] = [];
    for (let i = 0; i < RUN_PAIRS; i++) {
      through.push(await timed('sh', ['-c', `MISH_AGENT=claude-code ${process.execPath} ${MISH} -- '${line}'`], undefined, env));
      direct.push(await timed('sh', ['-c', line], undefined, env));
    }
    return [
      { name: 'hook decision p50 (allowed command, process start → answer)', value: +median(hook).toFixed(1), unit: 'ms', target: '<= 60', note: `${HOOK_RUNS} runs of node bin/mish-hook.cjs hook claude-code (the command mish init writes) on the recorded bypassPermissions payload; the first compiles and caches the policy` },
      { name: 'hook decision p99', value: +pct(hook, 99).toFixed(1), unit: 'ms', target: '<= 150' },
      { name: 'bare node start p50 (same run, the floor)', value: +median(bare).toFixed(1), unit: 'ms', note: 'node -e "" interleaved with the hook runs' },
      { name: 'hook p50 minus bare node start', value: +(median(hook) - median(bare)).toFixed(1), unit: 'ms', note: 'what mish adds to any Node start' },
      { name: 'rewritten command overhead (mish -- line vs sh -c line), median', value: +(median(through) - median(direct)).toFixed(1), unit: 'ms', note: `${RUN_PAIRS} pairs; a 3-line loop` },
    ];
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

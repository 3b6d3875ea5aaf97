/**
 * `npm run bench -- --against <git ref>`: this code against the code of another commit, on one
 * machine, interleaved. Absolute figures move with the machine and its load (a colleague's build
 * slows both sides alike only when both sides run at the same time), so every performance claim
 * quotes the ratio printed here.
 *
 * How: the ref is checked out in a temporary git worktree; its node_modules is a symlink to this
 * one when package-lock.json is identical, else `npm ci` runs there; its CLI is built. This
 * checkout's bench/ is copied over the ref's, so both sides are measured by the same harness on
 * the same inputs (the recorded fixtures of this checkout, MISH_BENCH_FIXTURES) and differ only
 * in the code under test. Each module runs in a fresh process per side and round, sides
 * alternating (ref first in odd rounds, this code first in even ones); each figure's ratio is
 * this/ref within a round, and the median over the rounds is printed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median, type BenchFigure, type BenchSkip } from './types.js';

/** Rounds per module when --rounds is not given: three ratios give a median that one outlier cannot move. */
export const DEFAULT_ROUNDS = 3;

export interface ModuleRun {
  figures: BenchFigure[];
  skipped: BenchSkip[];
}

export interface AgainstOptions {
  root: string;
  ref: string;
  modules: string[];
  rounds: number;
  skipLarge: boolean;
  keep: boolean;
}

function git(root: string, args: string[]): string {
  const r = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${(r.stderr || r.stdout).trim().split('\n')[0]}`);
  return r.stdout.trim();
}

/** Runs a command to completion with its output in `log`; throws with the log's tail when it fails. */
function step(cwd: string, argv: string[], log: string): void {
  const r = spawnSync(argv[0], argv.slice(1), { cwd, encoding: 'utf8', env: process.env, maxBuffer: 64 * 1024 * 1024 });
  writeFileSync(log, `${r.stdout ?? ''}${r.stderr ?? ''}`, { flag: 'a' });
  if (r.status !== 0) {
    const tail = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-3).join(' | ');
    throw new Error(`${argv.join(' ')} failed in ${cwd} (exit ${r.status}): ${tail}`);
  }
}

/** Checks out and builds `ref` in a worktree under the OS temp dir; reuses one a --keep run left. */
function prepareRef(root: string, ref: string): { dir: string; sha: string } {
  const sha = git(root, ['rev-parse', '--verify', `${ref}^{commit}`]);
  const dir = path.join(os.tmpdir(), `mish-bench-against-${sha.slice(0, 12)}`);
  const ready = path.join(dir, '.bench-against-ready');
  if (existsSync(ready)) {
    console.log(`[against] reusing ${dir} (${ref} = ${sha.slice(0, 12)})`);
  } else {
    if (existsSync(dir)) removeRef(root, dir);
    console.log(`[against] checking out ${ref} (${sha.slice(0, 12)}) in ${dir}`);
    git(root, ['worktree', 'add', '--detach', '--force', dir, sha]);
    const log = path.join(dir, '.bench-against.log');
    const sameLock = existsSync(path.join(dir, 'package-lock.json')) && readFileSync(path.join(dir, 'package-lock.json'), 'utf8') === readFileSync(path.join(root, 'package-lock.json'), 'utf8');
    if (sameLock) {
      symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
      console.log('[against] package-lock.json identical: node_modules linked');
    } else {
      console.log(`[against] package-lock.json differs: npm ci in the worktree (log: ${log})`);
      // --ignore-scripts: the ref's prepare builds the Electron app too, which the bench does not
      // use; the native packages the bench needs are rebuilt below and the CLI is built after.
      step(dir, ['npm', 'ci', '--ignore-scripts', '--no-audit', '--no-fund'], log);
      step(dir, ['npm', 'rebuild', 'node-pty', 'esbuild'], log);
    }
    if (existsSync(path.join(dir, 'scripts', 'build-cli.mjs'))) step(dir, ['node', 'scripts/build-cli.mjs'], log);
    writeFileSync(ready, `${sha}\n`);
  }
  // The same harness on both sides: this checkout's bench/ over the ref's.
  rmSync(path.join(dir, 'bench'), { recursive: true, force: true });
  mkdirSync(path.join(dir, 'bench'));
  cpSync(path.join(root, 'bench'), path.join(dir, 'bench'), { recursive: true, filter: (src) => !src.includes(`${path.sep}.work`) });
  return { dir, sha };
}

function removeRef(root: string, dir: string): void {
  spawnSync('git', ['worktree', 'remove', '--force', dir], { cwd: root });
  rmSync(dir, { recursive: true, force: true });
  spawnSync('git', ['worktree', 'prune'], { cwd: root });
}

/** One module in one tree, in a fresh process (module caches and JIT state are per side). */
export function runModule(tree: string, tsx: string, module: string, skipLarge: boolean, fixtures: string): Promise<ModuleRun> {
  const out = path.join(os.tmpdir(), `mish-bench-${process.pid}-${Date.now()}-${module}.json`);
  const args = [tsx, 'bench/run.ts', '--only', module, '--no-write', '--emit-json', out, ...(skipLarge ? ['--skip-large'] : [])];
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: tree, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, MISH_BENCH_FIXTURES: fixtures } });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()).length > 8192 && (err = err.slice(-4096)));
    child.on('close', (code) => {
      try {
        const r = JSON.parse(readFileSync(out, 'utf8')) as ModuleRun;
        resolve(r);
      } catch {
        resolve({ figures: [], skipped: [{ name: module, reason: `bench process exited ${code}: ${err.trim().split('\n').slice(-1)[0] ?? ''}` }] });
      } finally {
        rmSync(out, { force: true });
      }
    });
  });
}

/** +1: a larger value is better (throughput), −1: smaller is better, 0: neither (a count, a token figure without target). */
export function direction(f: BenchFigure): 1 | -1 | 0 {
  const t = typeof f.target === 'string' ? /^\s*(>=|>|<=|<)/.exec(f.target)?.[1] : f.target?.op;
  if (t) return t.startsWith('>') ? 1 : -1;
  if (f.unit === 'MB/s') return 1;
  if (['ms', 's', 'x', 'MB', 'KB'].includes(f.unit)) return -1;
  return 0;
}

function fmt(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  return a >= 100 ? v.toFixed(0) : a >= 10 ? v.toFixed(1) : v.toFixed(2);
}

export interface AgainstRow {
  module: string;
  name: string;
  unit: string;
  ref: number;
  current: number;
  ratio: number;
  direction: 1 | -1 | 0;
}

/** Runs the comparison, prints the table and returns its rows. */
export async function benchAgainst(o: AgainstOptions): Promise<{ rows: AgainstRow[]; sha: string; skipped: string[] }> {
  const { dir, sha } = prepareRef(o.root, o.ref);
  const tsx = path.join(o.root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const fixtures = path.join(o.root, 'fixtures', 'recorded');
  const rows: AgainstRow[] = [];
  const skipped: string[] = [];
  let aborted = false;
  const onSignal = () => {
    aborted = true;
  };
  process.once('SIGINT', onSignal);
  try {
    for (const m of o.modules) {
      const perFigure = new Map<string, { unit: string; dir: 1 | -1 | 0; ref: number[]; cur: number[]; ratios: number[] }>();
      for (let r = 0; r < o.rounds && !aborted; r++) {
        const order: ('ref' | 'cur')[] = r % 2 === 0 ? ['ref', 'cur'] : ['cur', 'ref'];
        const got: Record<string, ModuleRun> = {};
        for (const side of order) {
          console.log(`[against] ${m}: round ${r + 1}/${o.rounds}, ${side === 'ref' ? o.ref : 'this checkout'}`);
          got[side] = await runModule(side === 'ref' ? dir : o.root, tsx, m, o.skipLarge, fixtures);
        }
        for (const side of ['ref', 'cur'] as const) for (const s of got[side].skipped) if (r === 0) skipped.push(`${m} (${side === 'ref' ? o.ref : 'this checkout'}): ${s.name}: ${s.reason}`);
        const refBy = new Map(got.ref.figures.map((f) => [f.name, f]));
        for (const f of got.cur.figures) {
          const rf = refBy.get(f.name);
          if (!rf) continue;
          const e = perFigure.get(f.name) ?? { unit: f.unit, dir: direction(f), ref: [], cur: [], ratios: [] };
          e.ref.push(rf.value);
          e.cur.push(f.value);
          if (rf.value !== 0) e.ratios.push(f.value / rf.value);
          perFigure.set(f.name, e);
        }
      }
      for (const [name, e] of perFigure) {
        rows.push({ module: m, name, unit: e.unit, ref: median(e.ref), current: median(e.cur), ratio: e.ratios.length ? median(e.ratios) : NaN, direction: e.dir });
      }
    }
  } finally {
    process.off('SIGINT', onSignal);
    if (o.keep) console.log(`[against] kept ${dir} (--keep-ref): the next --against ${o.ref} reuses it`);
    else removeRef(o.root, dir);
  }
  printAgainst(rows, o.ref, sha, o.rounds);
  for (const s of skipped) console.log(`not compared: ${s}`);
  return { rows, sha, skipped };
}

export function againstTable(rows: AgainstRow[], refName: string): string[] {
  const head = ['module', 'benchmark', refName, 'this', 'unit', 'this/ref', 'better?'];
  const cells = rows.map((r) => [
    r.module,
    r.name,
    fmt(r.ref),
    fmt(r.current),
    r.unit,
    Number.isFinite(r.ratio) ? `${r.ratio.toFixed(2)}×` : '–',
    r.direction === 0 || !Number.isFinite(r.ratio) ? '' : (r.ratio - 1) * r.direction > 0.02 ? 'better' : (r.ratio - 1) * r.direction < -0.02 ? 'worse' : 'same',
  ]);
  const w = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => c.map((x, i) => ([2, 3, 5].includes(i) ? x.padStart(w[i]) : x.padEnd(w[i]))).join('  ');
  return [line(head), w.map((n) => '-'.repeat(n)).join('  '), ...cells.map(line)];
}

function printAgainst(rows: AgainstRow[], ref: string, sha: string, rounds: number): void {
  console.log('');
  console.log(`this checkout against ${ref} (${sha.slice(0, 12)}): medians of ${rounds} interleaved round(s); this/ref is the median of the per-round ratios; load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  for (const l of againstTable(rows, ref)) console.log(l);
}

/**
 * Reply masking (Redactor.mask) CPU time of several checkouts in ONE process, passes alternating:
 * steadier on a loaded machine than two bench runs minutes apart (as squash-ab.ts for the squasher).
 *
 *   mkdir /tmp/ref && git archive main src | tar -x -C /tmp/ref && ln -s "$PWD/node_modules" /tmp/ref/node_modules
 *   npx tsx bench/redact-ab.ts /tmp/ref .          (each directory: a checkout with src/)
 *   npx tsx bench/redact-ab.ts --passes 30 /tmp/ref .
 *
 * Each pass masks every ~80 KB reply of redact.bench.ts's mixed output (this checkout's fixtures and
 * corpus) once, with a fresh Redactor of each checkout (learned values grow within the pass, as in
 * the bench). Printed: the first quartile and the median of the CPU ms per pass (the machine's load
 * only adds time) and each checkout's ratio to the first one (>1: faster), with the median of the
 * per-pass ratios. Not a test, and no figure for BENCHMARKS.md's generated block: quote it with
 * the load (`uptime`) it ran at.
 */
import { abSides } from './ab-sides.js';
import path from 'node:path';
import { mixedOutput } from './redact.bench.js';

/** Passes per checkout when --passes is not given (~80 ms per pass and checkout on a quiet core). */
const DEFAULT_PASSES = 30;
/** Passes run first and not counted: JIT, RegExp compilation. */
const WARMUP_PASSES = 3;
/** The bench's session environment (redact.bench.ts). */
const ENV = { GITHUB_TOKEN: 'ghs_notreallyatoken0123456789', DB_PASSWORD: 'hunter2hunter2' };

interface Side {
  dir: string;
  maskAll(replies: readonly string[]): void;
}

// Another checkout's module: its types are that checkout's, so it is read as any.
async function loadSide(dir: string): Promise<Side> {
  const { Redactor } = (await import(path.join(dir, 'src/main/core/redact/redactor.ts'))) as any;
  return {
    dir,
    maskAll(replies) {
      const r = new Redactor({ env: ENV });
      for (const t of replies) r.mask(t);
    },
  };
}

const quantile = (xs: number[], q: number): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * q)];

async function main(): Promise<void> {
  const { passes, sides } = await abSides<Side>('redact-ab', 'checkouts with src/', DEFAULT_PASSES, loadSide);
  const { replies } = mixedOutput();
  const mb = replies.reduce((n, r) => n + Buffer.byteLength(r), 0) / 1e6;
  const ms = sides.map(() => [] as number[]);
  for (let r = 0; r < passes + WARMUP_PASSES; r++) {
    for (let k = 0; k < sides.length; k++) {
      // Rotate which checkout goes first, so a burst of load hits each alike.
      const s = (k + r) % sides.length;
      const c0 = process.cpuUsage();
      sides[s].maskAll(replies);
      const c = process.cpuUsage(c0);
      if (r >= WARMUP_PASSES) ms[s].push((c.user + c.system) / 1000);
    }
  }
  console.log(`${replies.length} replies, ${mb.toFixed(1)} MB per pass; CPU ms per pass over ${passes} passes; ratio = first checkout's time / this one's (>1: faster)`);
  for (const [s, side] of sides.entries()) {
    const q1 = quantile(ms[s], 0.25);
    const med = quantile(ms[s], 0.5);
    const pairRatio = quantile(ms[0].map((a, i) => a / ms[s][i]), 0.5);
    console.log(`  ${side.dir.padEnd(24)} q1 ${q1.toFixed(1)} ms (${(quantile(ms[0], 0.25) / q1).toFixed(2)}x)  median ${med.toFixed(1)} ms (${(quantile(ms[0], 0.5) / med).toFixed(2)}x, ${(mb / (med / 1000)).toFixed(0)} MB/s)  median of per-pass ratios ${pairRatio.toFixed(2)}x`);
  }
}

void main();

/**
 * Squasher benchmarks, in-process on real recorded output (fixtures/recorded/*.raw):
 * throughput in MB/s on the large fixtures (token figures: tokens.bench.ts).
 * Falls back to a generated build log, with a note, when no large fixture is recorded.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, type BenchFigure, type BenchOutput, type BenchSkip } from './types.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** MISH_BENCH_FIXTURES: bench --against points both sides at one checkout's recordings, so only the code differs. */
const RECORDED = process.env.MISH_BENCH_FIXTURES || path.join(ROOT, 'fixtures', 'recorded');

/** A Linux PTY hands the reader at most ~4 KB per read: feed the squasher the same way. */
const CHUNK_BYTES = 4096;
/** Replay each input until at least this much was squashed, so a run lasts long enough to time. */
const MIN_BYTES_PER_SAMPLE = 32 * 1024 * 1024;
/** Samples per input; the median is reported (the machine is shared, outliers happen). */
const SAMPLES = 5;
/** Size of the generated fallback log when no large fixture exists. */
const GENERATED_BYTES = 32 * 1024 * 1024;

interface Fixture {
  name: string;
  raw: Buffer;
  argv: string[];
  exitCode: number;
  large: boolean;
}

export function loadFixtures(): Fixture[] {
  if (!existsSync(RECORDED)) return [];
  const out: Fixture[] = [];
  for (const f of readdirSync(RECORDED).filter((f) => f.endsWith('.json')).sort()) {
    const name = f.slice(0, -'.json'.length);
    const rawFile = path.join(RECORDED, `${name}.raw`);
    if (!existsSync(rawFile)) continue;
    try {
      const meta = JSON.parse(readFileSync(path.join(RECORDED, f), 'utf8')) as { argv?: string[]; exitCode?: number; large?: boolean };
      out.push({ name, raw: readFileSync(rawFile), argv: meta.argv ?? [], exitCode: meta.exitCode ?? 0, large: meta.large === true });
    } catch {
      // unreadable metadata: not a fixture
    }
  }
  return out;
}

/** A realistic noisy build log: compile lines, progress bars with CR, colour, a few warnings. */
export function generatedLog(bytes: number): Buffer {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    let s = `   \x1b[1m\x1b[32mCompiling\x1b[0m crate-${i % 997} v0.${i % 13}.${i % 7} (/home/dev/work/project/crates/crate-${i % 997})\r\n`;
    if (i % 50 === 0) s += `\x1b[33mwarning\x1b[0m: unused variable: \`x${i}\`\r\n  --> src/lib.rs:${i % 400}:9\r\n`;
    if (i % 10 === 0) for (let p = 0; p <= 100; p += 20) s += `\r[${'#'.repeat(p / 5).padEnd(20)}] ${p}% ${i}/${bytes}`;
    if (i % 10 === 0) s += '\r\n';
    parts.push(s);
    size += s.length;
  }
  return Buffer.from(parts.join(''), 'utf8');
}

type SquasherModule = typeof import('../src/main/core/squasher/squasher.js');
type Detect = (argv: string[]) => unknown;

export async function loadDetection(): Promise<{ detect: Detect; note?: string }> {
  try {
    const { loadGrammarFile } = await import('../src/main/core/grammar/loader.js');
    const { buildCommandIndex, detectTool } = await import('../src/main/core/grammar/detect.js');
    const dir = path.join(ROOT, 'grammars');
    const grammars = readdirSync(dir)
      .filter((f) => f.endsWith('.toml'))
      .map((f) => loadGrammarFile(path.join(dir, f), { includeDirs: [dir] }))
      .flatMap((r) => (r.ok ? [r.value] : []));
    const index = buildCommandIndex(grammars);
    const lookup = { lookupCommand: (b: string) => index.get(b) };
    return { detect: (argv) => detectTool(argv, lookup), note: grammars.length ? undefined : 'no grammars in grammars/: universal patterns only' };
  } catch (e) {
    return { detect: () => undefined, note: `grammar detection unavailable (${(e as Error).message.split('\n')[0]}): universal patterns only` };
  }
}

function squashOnce(S: SquasherModule, detection: unknown, raw: Buffer, exitCode: number) {
  const sq = new S.Squasher({ detection: detection as never, now: () => 0 });
  for (let at = 0; at < raw.length; at += CHUNK_BYTES) sq.write(raw.subarray(at, at + CHUNK_BYTES));
  return sq.finish({ exitCode });
}

/**
 * MB/s squashing `raw` (median of SAMPLES, each replaying the input ≥ MIN_BYTES_PER_SAMPLE),
 * per wall-clock second and per CPU second of this process. The wall figure is the target's.
 * The gap between the two is time this process waited for a core on this shared 2-core machine;
 * CPU time still drops under load (shared caches, clock), so neither isolates the code: compare
 * before/after code side by side in one run for that (BENCHMARKS.md "Speed work").
 */
function throughput(S: SquasherModule, detection: unknown, raw: Buffer, exitCode: number): { wall: number; cpu: number } {
  const reps = Math.max(1, Math.ceil(MIN_BYTES_PER_SAMPLE / raw.length));
  squashOnce(S, detection, raw, exitCode); // warm-up: JIT, regex compilation
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let s = 0; s < SAMPLES; s++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (let r = 0; r < reps; r++) squashOnce(S, detection, raw, exitCode);
    const sec = (performance.now() - t0) / 1000;
    const c = process.cpuUsage(c0);
    const mb = (raw.length * reps) / 1e6;
    wall.push(mb / sec);
    cpu.push(mb / ((c.user + c.system) / 1e6));
  }
  return { wall: median(wall), cpu: median(cpu) };
}

export async function benchSquasher(): Promise<BenchOutput> {
  const figures: BenchFigure[] = [];
  const skipped: BenchSkip[] = [];
  let S: SquasherModule;
  try {
    S = await import('../src/main/core/squasher/squasher.js');
  } catch (e) {
    return { figures, skipped: [{ name: 'squasher', reason: `squasher not importable: ${(e as Error).message.split('\n')[0]}` }] };
  }
  const { detect, note: detectNote } = await loadDetection();
  if (detectNote) console.log(`  note: ${detectNote}`);

  // Throughput.
  const fixtures = loadFixtures();
  let inputs = fixtures.filter((f) => f.large);
  let inputNote = `large recorded fixtures: ${inputs.map((f) => f.name).join(', ')}`;
  if (inputs.length === 0) {
    inputs = [{ name: 'generated-build-log', raw: generatedLog(GENERATED_BYTES), argv: ['cargo', 'build'], exitCode: 0, large: true }];
    inputNote = 'no large recorded fixture in fixtures/recorded: generated build log (32 MB)';
    console.log(`  note: ${inputNote}`);
  }
  let totalBytes = 0;
  let totalSec = 0;
  let totalCpuSec = 0;
  for (const f of inputs) {
    const { wall, cpu } = throughput(S, detect(f.argv), f.raw, f.exitCode);
    figures.push({ name: `squasher throughput: ${f.name} (${(f.raw.length / 1e6).toFixed(1)} MB)`, value: wall, unit: 'MB/s' });
    totalBytes += f.raw.length;
    totalSec += f.raw.length / 1e6 / wall;
    totalCpuSec += f.raw.length / 1e6 / cpu;
  }
  figures.push({ name: 'squasher throughput (large outputs, aggregate)', value: totalBytes / 1e6 / totalSec, unit: 'MB/s', target: '>= 100', note: `${inputNote}; in-process, ${CHUNK_BYTES}-byte chunks, median of ${SAMPLES}` });
  figures.push({
    name: 'squasher throughput per CPU second (aggregate)',
    value: totalBytes / 1e6 / totalCpuSec,
    unit: 'MB/s',
    note: 'same runs, bytes per second of user+system CPU time of this process (GC threads included); wall below CPU = time spent waiting for a core',
  });

  // Token figures are bench/tokens.bench.ts's: against the piped output and the PTY output with
  // overwritten frames collapsed (issue 14 pt 6). The former figure here counted every
  // overwritten progress frame of the raw PTY text as output, which flattered the reduction.
  return { figures, skipped };
}

/**
 * Squasher CPU time of several checkouts in ONE process, passes alternating: steadier on a
 * loaded machine than `--against`, whose sides run in separate processes minutes apart.
 *
 *   git worktree add --detach /tmp/ref f5b602d && ln -s "$PWD/node_modules" /tmp/ref/node_modules
 *   npx tsx bench/squash-ab.ts /tmp/ref .            (each directory: a checkout with src/ and grammars/)
 *   npx tsx bench/squash-ab.ts --passes 60 /tmp/ref .
 *
 * Each pass squashes each large recorded fixture of this checkout once (4 KB chunks, as
 * squasher.bench.ts), with each checkout's own squasher, grammars and detection; the first
 * quartile of the CPU times per pass is printed (the machine's load only adds time) and each
 * checkout's ratio to the first one (>1: faster). Not a test, and no figure for BENCHMARKS.md's
 * generated block: quote it with the load (`uptime`) it ran at.
 */
import { abSides } from './ab-sides.js';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadFixtures } from './squasher.bench.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Passes per checkout when --passes is not given (40 × ~50 ms per checkout at load 20). */
const DEFAULT_PASSES = 40;
/** Passes run first and not counted: JIT, RegExp compilation. */
const WARMUP_PASSES = 3;
/** A Linux PTY read, as squasher.bench.ts feeds it. */
const CHUNK_BYTES = 4096;

interface Side {
  dir: string;
  squash(raw: Buffer, argv: string[], exitCode: number): void;
}

// Another checkout's modules: their types are that checkout's, so they are read as any.
async function loadSide(dir: string): Promise<Side> {
  const core = (p: string): Promise<any> => import(path.join(dir, 'src/main/core', p));
  const { Squasher } = await core('squasher/squasher.ts');
  const { loadGrammarFile } = await core('grammar/loader.ts');
  const { buildCommandIndex, detectTool } = await core('grammar/detect.ts');
  const gdir = path.join(dir, 'grammars');
  const grammars = readdirSync(gdir)
    .filter((f) => f.endsWith('.toml'))
    .map((f) => loadGrammarFile(path.join(gdir, f), { includeDirs: [gdir] }))
    .flatMap((r: any) => (r.ok ? [r.value] : []));
  const index = buildCommandIndex(grammars);
  const lookup = { lookupCommand: (b: string) => index.get(b) };
  return {
    dir,
    squash(raw, argv, exitCode) {
      const sq = new Squasher({ detection: detectTool(argv, lookup), now: () => 0 });
      for (let at = 0; at < raw.length; at += CHUNK_BYTES) sq.write(raw.subarray(at, at + CHUNK_BYTES));
      sq.finish({ exitCode });
    },
  };
}

function firstQuartile(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 4)];
}

async function main(): Promise<void> {
  const { passes, sides } = await abSides<Side>('squash-ab', 'checkouts with src/ and grammars/', DEFAULT_PASSES, loadSide);
  const fixtures = loadFixtures().filter((f) => f.large);
  if (fixtures.length === 0) {
    console.error(`squash-ab: no large recorded fixture in ${path.join(ROOT, 'fixtures', 'recorded')}`);
    process.exit(2);
  }
  const ms = sides.map(() => fixtures.map(() => [] as number[]));
  for (let r = 0; r < passes + WARMUP_PASSES; r++) {
    for (let k = 0; k < sides.length; k++) {
      // Rotate which checkout goes first, so a burst of load hits each alike.
      const s = (k + r) % sides.length;
      fixtures.forEach((f, i) => {
        const c0 = process.cpuUsage();
        sides[s].squash(f.raw, f.argv, f.exitCode);
        const c = process.cpuUsage(c0);
        if (r >= WARMUP_PASSES) ms[s][i].push((c.user + c.system) / 1000);
      });
    }
  }
  const total = sides.map((_, s) => fixtures.reduce((sum, _f, i) => sum + firstQuartile(ms[s][i]), 0));
  console.log(`CPU ms per pass, first quartile of ${passes}; ratio = first checkout's time / this one's`);
  fixtures.forEach((f, i) => {
    const base = firstQuartile(ms[0][i]);
    console.log(`  ${f.name.padEnd(22)} ${sides.map((side, s) => `${path.basename(side.dir)} ${firstQuartile(ms[s][i]).toFixed(2)} (${(base / firstQuartile(ms[s][i])).toFixed(2)}×)`).join('  ')}`);
  });
  console.log(`  ${'aggregate'.padEnd(22)} ${sides.map((side, s) => `${path.basename(side.dir)} ${total[s].toFixed(2)} (${(total[0] / total[s]).toFixed(2)}×)`).join('  ')}`);
}

void main();

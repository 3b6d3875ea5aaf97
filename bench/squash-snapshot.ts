/**
 * Speed work must not change what the squasher says. This records, for every recorded fixture,
 * everything the squasher hands out — the SquashResult, its live events, every line's
 * classification (what the grammar editor maps) and the rendered summary — fed in several
 * chunkings (PTY-sized reads, small irregular reads that split escape sequences and UTF-8
 * characters, the whole input at once), and compares two recordings.
 *
 *   npx tsx bench/squash-snapshot.ts --write /tmp/before.json     before a change
 *   npx tsx bench/squash-snapshot.ts --compare /tmp/before.json   after it: exit 1 on any difference
 *
 * Not a test (the golden tests pin the facts; this pins every byte of every reply of this
 * checkout's fixtures against this checkout's earlier code, which no test can name).
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { renderSquash } from '../src/main/core/squasher/render.js';
import { Squasher } from '../src/main/core/squasher/squasher.js';
import type { SquashEvent } from '../src/main/core/squasher/types.js';
import { loadDetection, loadFixtures } from './squasher.bench.js';

/** Chunkings: a Linux PTY read, a small prime (splits nearly every escape sequence somewhere), the whole input. */
const CHUNKINGS: (number | 'irregular')[] = [4096, 61, 'irregular', Number.MAX_SAFE_INTEGER];
/** Seed of the irregular chunking (deterministic: both recordings cut the same places). */
const SEED = 0x2545f491;

function* irregular(n: number): Generator<number> {
  let x = SEED;
  let at = 0;
  while (at < n) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const len = 1 + ((x >>> 0) % 700);
    yield Math.min(len, n - at);
    at += len;
  }
}

type Snapshot = Record<string, { hash: string; summary: string }>;

async function record(): Promise<Snapshot> {
  const { detect } = await loadDetection();
  const out: Snapshot = {};
  for (const f of loadFixtures()) {
    for (const c of CHUNKINGS) {
      const events: SquashEvent[] = [];
      const classified: string[] = [];
      const sq = new Squasher({
        detection: detect(f.argv) as never,
        now: () => 0,
        onEvent: (e) => events.push(structuredClone(e)),
        onClassified: (line, cls) => classified.push(JSON.stringify([line, cls])),
      });
      if (c === 'irregular') {
        let at = 0;
        for (const len of irregular(f.raw.length)) {
          sq.write(f.raw.subarray(at, at + len));
          at += len;
        }
      } else for (let at = 0; at < f.raw.length; at += c) sq.write(f.raw.subarray(at, at + c));
      const result = sq.finish({ exitCode: f.exitCode });
      const rendered = renderSquash(result, { cwd: '/home/dev/work' });
      const all = JSON.stringify({ result, events, rendered });
      const hash = createHash('sha256').update(all).update(classified.join('\n')).digest('hex');
      out[`${f.name} @${c === Number.MAX_SAFE_INTEGER ? 'whole' : c}`] = { hash, summary: rendered.text };
    }
  }
  return out;
}

async function main(): Promise<number> {
  const [flag, file] = process.argv.slice(2);
  if ((flag !== '--write' && flag !== '--compare') || !file) {
    console.error('usage: squash-snapshot.ts --write FILE | --compare FILE');
    return 2;
  }
  const now = await record();
  if (flag === '--write') {
    writeFileSync(file, JSON.stringify(now));
    console.log(`recorded ${Object.keys(now).length} fixture×chunking replies to ${file}`);
    return 0;
  }
  const before = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  let differ = 0;
  for (const k of new Set([...Object.keys(before), ...Object.keys(now)])) {
    if (before[k]?.hash === now[k]?.hash) continue;
    differ++;
    if (differ <= Number(process.env.MISH_SNAPSHOT_SHOWN ?? 5)) {
      console.log(`DIFFERS: ${k}`);
      const a = (before[k]?.summary ?? '(absent)').split('\n');
      const b = (now[k]?.summary ?? '(absent)').split('\n');
      const i = a.findIndex((l, j) => l !== b[j]);
      if (i >= 0) console.log(`  summary line ${i + 1}:\n  - ${a[i]}\n  + ${b[i]}`);
      else console.log('  summary text equal: the result, events or classifications differ');
    }
  }
  console.log(differ ? `${differ} of ${Object.keys(now).length} replies differ` : `all ${Object.keys(now).length} replies identical`);
  return differ ? 1 : 0;
}

main().then((code) => process.exit(code));

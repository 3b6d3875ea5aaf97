/**
 * The squash worker gives the same answers as the in-process squasher: every recorded fixture
 * (fixtures/recorded) is fed in PTY-sized chunks with a moving clock and timer ticks, once to a
 * plain Squasher and once to an OffloadedSquasher that moves to a real worker thread part-way;
 * the SquashResults and the live events must be identical. A worker that crashes or is ended
 * mid-command is replaced by in-process squashing from its replay log, losing no line.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { GrammarRegistry, detectTool } from '../grammar/index.js';
import type { Detection } from '../grammar/types.js';
import { Squasher } from '../squasher/squasher.js';
import type { SquashEvent, SquashResult } from '../squasher/types.js';
import { OffloadedSquasher } from './offloaded-squasher.js';
import { HIGH_WATER_BYTES, SquashWorkerPool } from './pool.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const RECORDED = path.join(ROOT, 'fixtures', 'recorded');
const registry = new GrammarRegistry({ builtinDir: path.join(ROOT, 'grammars'), userDir: null, projectGrammars: false, revalidateMs: 0 });
/** What a PTY read tends to deliver. */
const CHUNK = 4095;
/** Offload after this much, so the worker takes over mid-stream (its replay of the start is tested too). */
const OFFLOAD_AT = 2000;

interface Meta {
  argv: string[];
  exitCode: number;
  durationMs: number;
}

const fixtures = readdirSync(RECORDED)
  .filter((f) => f.endsWith('.raw'))
  .map((f) => f.slice(0, -'.raw'.length))
  .sort();

interface Feedable {
  write(chunk: Uint8Array): void;
  tick(): void;
}

/** Feeds `raw` in chunks; the clock moves 30 ms per chunk, and every 3rd chunk a tick runs (and a pause long enough for a prompt check). */
function feed(sq: Feedable, raw: Uint8Array, clock: { t: number }, upTo = raw.length, from = 0): void {
  for (let i = from, n = 0; i < upTo; i += CHUNK, n++) {
    clock.t += 30;
    sq.write(raw.subarray(i, Math.min(upTo, i + CHUNK)));
    if (n % 3 === 2) {
      clock.t += 600;
      sq.tick();
    }
  }
}

function inProcess(raw: Uint8Array, detection: Detection | undefined, meta: Meta): { result: SquashResult; events: SquashEvent[] } {
  const clock = { t: 1000 };
  const events: SquashEvent[] = [];
  // A snapshot of each event as it is emitted: the emit buffer later counts repeats into the same report object.
  const sq = new Squasher({ detection, now: () => clock.t, onEvent: (e) => events.push(structuredClone(e)) });
  feed(sq, raw, clock);
  clock.t += 50;
  return { result: sq.finish({ exitCode: meta.exitCode }), events };
}

const pool = new SquashWorkerPool({ size: 1 });
afterAll(async () => {
  await pool.dispose();
  expect(pool.threadCount).toBe(0);
});

function load(name: string): { raw: Uint8Array; meta: Meta; detection: Detection | undefined } {
  const raw = new Uint8Array(readFileSync(path.join(RECORDED, `${name}.raw`)));
  const meta = JSON.parse(readFileSync(path.join(RECORDED, `${name}.json`), 'utf8')) as Meta;
  return { raw, meta, detection: detectTool(meta.argv, registry) };
}

describe('squashing in a worker thread', () => {
  it('has recorded fixtures to compare on', () => {
    expect(fixtures.length).toBeGreaterThan(20);
  });

  it.each(fixtures)('%s: the worker gives the in-process SquashResult and events', async (name) => {
    const { raw, meta, detection } = load(name);
    const want = inProcess(raw, detection, meta);
    const clock = { t: 1000 };
    const events: SquashEvent[] = [];
    const sq = new OffloadedSquasher({ detection, pool, now: () => clock.t, onEvent: (e) => events.push(structuredClone(e)), offloadAfterBytes: OFFLOAD_AT });
    feed(sq, raw, clock);
    expect(sq.offloaded).toBe(raw.length >= OFFLOAD_AT);
    clock.t += 50;
    const got = await sq.finish({ exitCode: meta.exitCode });
    expect(got).toEqual(want.result);
    expect(events).toEqual(want.events);
    expect(sq.fallbackReason).toBeUndefined();
  });

  it('a grammar switched mid-command (make && make test) switches in the worker too', async () => {
    const { raw, meta } = load('cargo-test-fail');
    const first = detectTool(['make'], registry);
    const second = detectTool(['cargo', 'test'], registry);
    const half = Math.floor(raw.length / 2);
    const run = (sq: Feedable & { setDetection(d: Detection | undefined): void }, clock: { t: number }) => {
      feed(sq, raw, clock, half);
      sq.setDetection(second);
      feed(sq, raw, clock, raw.length, half);
    };
    const c1 = { t: 0 };
    const plain = new Squasher({ detection: first, now: () => c1.t });
    run(plain, c1);
    const c2 = { t: 0 };
    const off = new OffloadedSquasher({ detection: first, pool, now: () => c2.t, offloadAfterBytes: 100 });
    run(off, c2);
    expect(off.offloaded).toBe(true);
    expect(await off.finish({ exitCode: meta.exitCode })).toEqual(plain.finish({ exitCode: meta.exitCode }));
  });
});

describe('backpressure', () => {
  it('a worker behind by more than HIGH_WATER_BYTES pauses the source, and resumes it when caught up', async () => {
    const own = new SquashWorkerPool({ size: 1 });
    const pressure: boolean[] = [];
    const sq = new OffloadedSquasher({ pool: own, onPressure: (p) => pressure.push(p) });
    const line = new TextEncoder().encode('a line of a long stream of output, sixty-four bytes in all....\n');
    const chunk = new Uint8Array(line.length * 64);
    for (let i = 0; i < 64; i++) chunk.set(line, i * line.length);
    const chunks = Math.ceil((HIGH_WATER_BYTES * 1.5) / chunk.length);
    // All in one turn: nothing reaches the worker before the queue passes the mark.
    for (let i = 0; i < chunks; i++) sq.write(chunk);
    expect(pressure).toEqual([true]);
    const result = await sq.finish({ exitCode: 0 });
    expect(pressure).toEqual([true, false]);
    expect(result.totalLines).toBe(chunks * 64);
    await own.dispose();
  });
});

describe('a worker that fails', () => {
  /** A long output with hazards all through it: every line must be counted and every error kept. */
  function output(lines: number): Uint8Array {
    let s = '';
    for (let i = 1; i <= lines; i++) s += i % 5000 === 0 ? `error: failure number ${i / 5000}\n` : `compiling unit ${i} of the build\n`;
    return new TextEncoder().encode(s);
  }

  async function crashMidway(kill: (p: SquashWorkerPool) => Promise<void> | void, finishFirst: boolean): Promise<void> {
    const raw = output(40_000);
    const want = inProcess(raw, undefined, { argv: [], exitCode: 1, durationMs: 0 });
    const own = new SquashWorkerPool({ size: 1 });
    const clock = { t: 1000 };
    const reasons: string[] = [];
    const sq = new OffloadedSquasher({ pool: own, now: () => clock.t, onFallback: (r) => reasons.push(r) });
    const half = Math.floor(raw.length / 2);
    feed(sq, raw, clock, half);
    expect(sq.offloaded).toBe(true);
    let result: Promise<SquashResult>;
    if (finishFirst) {
      feed(sq, raw, clock, raw.length, half);
      clock.t += 50;
      result = sq.finish({ exitCode: 1 });
      await kill(own);
    } else {
      await kill(own);
      feed(sq, raw, clock, raw.length, half);
      clock.t += 50;
      result = sq.finish({ exitCode: 1 });
    }
    const got = await result;
    expect(got).toEqual(want.result);
    expect(got.totalLines).toBe(40_000);
    expect(got.hazards.length).toBe(8);
    expect(sq.fallbackReason).toMatch(/squash worker/);
    expect(reasons.join('\n')).toMatch(/nothing lost/);
    await own.dispose();
    expect(own.threadCount).toBe(0);
  }

  /** The thread throws from its message handler and dies, as a bug in it would. */
  const crash = async (p: SquashWorkerPool) => {
    p.crashForTest();
    // The crash lands once the thread reads the message: wait for its exit to reach us.
    for (let i = 0; i < 500 && p.threadCount > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(p.threadCount).toBe(0);
  };

  it('a crash mid-command falls back in-process without losing a line', () => crashMidway(crash, false));
  it('a crash while the result is awaited still answers, with every line', () => crashMidway(crash, true));
  it('a worker ended by its owner (shutdown) mid-command falls back too', () => crashMidway((p) => p.dispose(), false));

  it('after repeated crashes the pool stops offloading and squashing stays in-process', async () => {
    const own = new SquashWorkerPool({ size: 1, log: () => {} });
    for (let i = 0; i < 3; i++) {
      const sq = new OffloadedSquasher({ pool: own, offloadAfterBytes: 10 });
      sq.write(output(100));
      expect(sq.offloaded).toBe(true);
      await crash(own);
      expect((await sq.finish({ exitCode: 0 })).totalLines).toBe(100);
    }
    expect(own.unavailable).toMatch(/3 squash workers failed/);
    const sq = new OffloadedSquasher({ pool: own, offloadAfterBytes: 10 });
    sq.write(output(100));
    expect(sq.offloaded).toBe(false);
    expect((await sq.finish({ exitCode: 0 })).totalLines).toBe(100);
  });
});

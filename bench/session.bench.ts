/**
 * Session benchmarks (issue 4): `true` round trip in a warm session (p50/p99), time from a
 * `[Y/n]` prompt appearing on the PTY to the waiting-for-input report, and peak RSS with 16
 * sessions each streaming output.
 */
import { readFileSync } from 'node:fs';
import { nodePtyPort } from '../src/main/platform/node-pty-port.js';
import { createSessionManager } from '../src/main/core/session/session-manager.js';
import type { SessionManager } from '../src/main/core/session/types.js';
import { sessionMembers } from '../src/main/platform/platform.js';
import { median, type BenchFigure } from './types.js';

/** Round trips measured after warm-up: enough for a stable p99. */
const ROUND_TRIPS = 1000;
const WARMUP = 50;
/** Prompt detections measured (each waits for the silence-triggered probe). */
const PROMPT_RUNS = 15;
const STREAM_SESSIONS = 16;
/** Lines each streaming session prints (≈ 1.2 MB per session). */
const STREAM_LINES = 20_000;

function newManager(): SessionManager {
  return createSessionManager({ port: nodePtyPort, cwd: process.cwd(), env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', MISH_SKIP_USER_RC: '1' } });
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
}

function rssKb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

export async function benchSessions(): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  const m = newManager();
  try {
    // 1. `true` round trip in a warm session.
    await m.run({ command: 'true' });
    for (let i = 0; i < WARMUP; i++) await m.run({ command: 'true' });
    const times: number[] = [];
    for (let i = 0; i < ROUND_TRIPS; i++) {
      const t0 = performance.now();
      await m.run({ command: 'true' });
      times.push(performance.now() - t0);
    }
    figures.push({ name: 'session: `true` round trip p50', value: round(median(times)), unit: 'ms', target: '<= 5', note: `${ROUND_TRIPS} runs in a warm bash session` });
    figures.push({ name: 'session: `true` round trip p99', value: round(percentile(times, 99)), unit: 'ms', target: '<= 20' });

    // 2. [Y/n] prompt → waiting-for-input report.
    const delays: number[] = [];
    for (let i = 0; i < PROMPT_RUNS; i++) {
      let shownAt = 0;
      let reportedAt = 0;
      let id = '';
      const off = m.subscribe((e) => {
        if (e.type === 'waiting-for-input' && e.source.id === id && !reportedAt) reportedAt = performance.now();
      });
      const run = m.run({
        command: 'sleep 0.05; printf "Continue? [Y/n] "; read a',
        onStart: (c) => (id = c.id),
        onData: (c) => {
          if (!shownAt && Buffer.from(c).toString().includes('[Y/n]')) shownAt = performance.now();
        },
      });
      while (!reportedAt) await new Promise((r) => setTimeout(r, 1));
      m.process(id)?.send('y\n');
      await run;
      off();
      delays.push(reportedAt - shownAt);
    }
    figures.push({ name: 'session: [Y/n] prompt reported after', value: round(median(delays)), unit: 'ms', note: `median of ${PROMPT_RUNS}; silence trigger + /proc read-syscall probe` });
  } finally {
    await m.dispose();
  }

  // 3. Peak RSS with 16 sessions streaming.
  const m2 = newManager();
  try {
    const names = Array.from({ length: STREAM_SESSIONS }, (_, i) => `s${i}`);
    for (const n of names) await m2.create({ name: n });
    const pids = m2.list().map((s) => s.pid);
    let peakSelf = process.memoryUsage().rss;
    let peakAll = 0;
    const sample = setInterval(() => {
      peakSelf = Math.max(peakSelf, process.memoryUsage().rss);
      let kids = 0;
      for (const p of pids) for (const c of sessionMembers(p)) kids += rssKb(c);
      peakAll = Math.max(peakAll, process.memoryUsage().rss + kids * 1024);
    }, 50);
    await Promise.all(names.map((n) => m2.run({ session: n, command: `seq -f 'line %g of streamed output padding padding' ${STREAM_LINES}`, onData: () => {} })));
    clearInterval(sample);
    figures.push({ name: `session: peak RSS, ${STREAM_SESSIONS} sessions streaming (mish process)`, value: round(peakSelf / 1048576), unit: 'MB', note: `${STREAM_LINES} lines each, in-memory output rings` });
    figures.push({ name: `session: peak RSS, ${STREAM_SESSIONS} sessions streaming (incl. shells)`, value: round(peakAll / 1048576), unit: 'MB' });
  } finally {
    await m2.dispose();
  }
  return figures;
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchSessions().then((f) => console.table(f), (e) => (console.error(e), process.exit(1)));
}

/**
 * Console performance (issue 11), opt-in: MISH_CONSOLE_PERF=1 npx vitest run e2e/console.perf.test.ts
 *  1. 16 sessions each streaming ~1 MB/s to an open console (Chromium): p95 frame time from
 *     requestAnimationFrame deltas while the selected terminal draws its session's flood, host
 *     RSS, and every byte in the raw pane's source (the spool) — nothing lost.
 *  2. What watching costs an agent: `sh_run true` p50 through a real `mish serve`, and the wall
 *     time of an `sh_run` printing 25 MB, in alternating blocks without a console and with the
 *     console attached and a page watching that session (the machine is shared: alternating
 *     spreads its drifting load over both sides). With each, the CPU the agent's server, the
 *     console and Chromium spent per call (/proc).
 * Figures are printed as one JSON line (recorded in BENCHMARKS.md).
 *
 * MISH_CONSOLE_PERF_PART=calls runs part 2 only.
 * MISH_CONSOLE_PERF_PROFILE=<dir> also writes CPU profiles there: `serve.cpuprofile` and
 * `console-N.cpuprofile` (node --cpu-prof), `page-calls-N.cpuprofile` / `page-flood.cpuprofile`
 * (Chromium's profiler over CDP) and `host-flood.cpuprofile` (the test process hosting the flood).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session as InspectorSession } from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chromium, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startConsole } from '../src/main/console/console-command.js';
import { waitForTerminalText } from './xterm-wait.js';
import { childrenNamed, selfCpuMs, treeCpuMs } from './proc-cpu.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RENDERER = path.join(ROOT, 'out', 'renderer');
const ENABLED = process.env.MISH_CONSOLE_PERF === '1';
const SESSIONS = 16;
/** Each session prints this many 1 MB bursts, one per second. */
const SECONDS = 8;
const MB = 1_000_000;
/** The large output of target 2 (issue 11: "a 25 MB output's wall time ≤ 1.1×"), and how often each side runs it. */
const BIG_BYTES = 25 * MB;
const BIG_RUNS = 16;
/** `sh_run true` calls per side. */
const TRUE_CALLS = 60;
/** Blocks per side, alternating (without, with, without, …, without: one more block without). */
const BLOCKS = 4;
const PROFILE_DIR = process.env.MISH_CONSOLE_PERF_PROFILE;
const median = (xs: number[]) => p(xs, 0.5);
const round = (x: number, digits = 1) => +x.toFixed(digits);

/** Runs `fn` under Chromium's sampling profiler when profiling, writing `<name>.cpuprofile`. */
async function profilePage<T>(page: Page, name: string, fn: () => Promise<T>): Promise<T> {
  if (!PROFILE_DIR) return fn();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.start');
  try {
    return await fn();
  } finally {
    const { profile } = await cdp.send('Profiler.stop');
    writeFileSync(path.join(PROFILE_DIR, `${name}.cpuprofile`), JSON.stringify(profile));
    await cdp.detach();
  }
}

/** Resolves once the page draws 10 frames in a row on time (its start-up work is done). */
async function settled(page: Page): Promise<void> {
  await page.evaluate(`new Promise((resolve) => {
    let last = performance.now();
    let calm = 0;
    const tick = (t) => {
      calm = t - last < 25 ? calm + 1 : 0;
      last = t;
      if (calm >= 10) resolve();
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })`);
}

const p = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

describe.skipIf(!ENABLED)(`console performance${ENABLED ? '' : ' (skipped: set MISH_CONSOLE_PERF=1)'}`, () => {
  it('16 sessions × 1 MB/s to an open console; what watching costs an agent', async () => {
    expect(existsSync(path.join(RENDERER, 'index.html'))).toBe(true);
    const work = mkdtempSync(path.join(os.tmpdir(), 'mish-perf-'));
    const env = { MISH_OPERATOR_DIR: path.join(work, 'op'), MISH_SPOOL_DIR: path.join(work, 'spool') };
    process.env.MISH_SPOOL_DIR = env.MISH_SPOOL_DIR;
    const figures: Record<string, unknown> = {};

    if (PROFILE_DIR) mkdirSync(PROFILE_DIR, { recursive: true });
    const nodeArgs = (name: string) => (PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`, `--cpu-prof-name=${name}.cpuprofile`] : []);

    // --- 2. The agent's server, measured in alternating blocks without a console and with one
    // attached and a page watching the session (the machine is shared: its load drifts by more
    // than the effect measured; alternating spreads the drift over both sides).
    const transport = new StdioClientTransport({ command: process.execPath, args: [...nodeArgs('serve'), path.join(ROOT, 'bin', 'mish.js'), 'serve'], cwd: work, env: { ...(process.env as Record<string, string>), ...env }, stderr: 'ignore' });
    const agent = new Client({ name: 'perf-agent', version: '1' });
    await agent.connect(transport);
    const servePid = transport.pid!;
    const call = async (cmd: string) => {
      const t = performance.now();
      const r = (await agent.callTool({ name: 'sh_run', arguments: { cmd, session: 'w' } })) as { isError?: boolean; content: { text?: string }[] };
      const ms = performance.now() - t;
      if (r.isError) throw new Error(`sh_run ${cmd.slice(0, 40)} failed: ${r.content.map((c) => c.text).join('')}`);
      return ms;
    };
    const bigCmd = `yes 'compiling module src/components/widget_0123456789.tsx ........ ok (12 ms) [cache miss]' | head -c ${BIG_BYTES}`;
    type Cpu = { serve: number; console: number; chromium: number };
    /** Messages between the watching page and the console during `sh_run true` calls, by kind. */
    const messages: Record<string, number> = {};
    let counting = false;
    /** Terminal output sent to the watching page during the 25 MB runs (characters of its messages, base64). */
    let bigOutputBytes = 0;
    let phase: 'true' | 'big' = 'true';
    /** Samples of one side: `sh_run true` and 25 MB wall times, CPU spent during each kind. */
    const sides = {
      without: { trues: [] as number[], bigs: [] as number[], cpuTrue: { serve: 0, console: 0, chromium: 0 }, cpuBig: { serve: 0, console: 0, chromium: 0 } },
      withConsole: { trues: [] as number[], bigs: [] as number[], cpuTrue: { serve: 0, console: 0, chromium: 0 }, cpuBig: { serve: 0, console: 0, chromium: 0 } },
    };
    const add = (to: Cpu, a: Cpu, b: Cpu) => {
      for (const k of ['serve', 'console', 'chromium'] as const) to[k] += b[k] - a[k];
    };
    const block = async (side: keyof typeof sides, cpu: () => Cpu) => {
      const s = sides[side];
      const c0 = cpu();
      phase = 'true';
      for (let i = 0; i < TRUE_CALLS / BLOCKS; i++) s.trues.push(await call('true'));
      phase = 'big';
      const c1 = cpu();
      for (let i = 0; i < BIG_RUNS / BLOCKS; i++) s.bigs.push(await call(bigCmd));
      const c2 = cpu();
      add(s.cpuTrue, c0, c1);
      add(s.cpuBig, c1, c2);
    };
    for (let i = 0; i < 5; i++) await call('true'); // warm up
    await call(bigCmd);
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
    const chromiumPids = childrenNamed(process.pid, 'chrom');
    const chromiumCpu = () => chromiumPids.reduce((sum, pid) => sum + treeCpuMs(pid), 0);
    const alone = () => ({ serve: selfCpuMs(servePid), console: 0, chromium: chromiumCpu() });

    /** The console as the operator runs it, its own process (`mish console --web`), with a page open on the session. */
    const attached = async (n: number) => {
      const child = spawn(process.execPath, [...nodeArgs(`console-${n}`), path.join(ROOT, 'bin', 'mish.js'), 'console', '--web'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'ignore'] });
      const url = await new Promise<string>((resolve, reject) => {
        let buf = '';
        child.stdout!.on('data', (d: Buffer) => {
          buf += d.toString();
          const m = /^(http:\S+)\n/.exec(buf);
          if (m) resolve(m[1]);
        });
        child.once('exit', (code) => reject(new Error(`mish console exited with ${code}`)));
      });
      const watching = await browser.newPage({ viewport: { width: 1480, height: 900 } });
      // Messages between the page and the console while the block runs, by kind.
      watching.on('websocket', (ws) => {
        const count = (dir: string, payload: string | Buffer) => {
          if (counting && phase === 'big' && dir === 'in' && String(payload).includes('"session:output"')) bigOutputBytes += String(payload).length;
          if (!counting || phase !== 'true') return;
          const kind = /"(?:event|method)":"([^"]+)"/.exec(String(payload))?.[1] ?? 'reply';
          messages[`${dir} ${kind}`] = (messages[`${dir} ${kind}`] ?? 0) + 1;
        };
        ws.on('framereceived', (f) => count('in', f.payload));
        ws.on('framesent', (f) => count('out', f.payload));
      });
      await watching.goto(url);
      await watching.locator(`button.session[data-session-id="serve-${servePid}/w"]`).click();
      await watching.locator('.terminal .xterm').waitFor();
      // Opening costs once (the page's start, the session's backlog drawn): measure the steady state.
      await settled(watching);
      counting = true;
      await profilePage(watching, `page-calls-${n}`, () => block('withConsole', () => ({ serve: selfCpuMs(servePid), console: selfCpuMs(child.pid!), chromium: chromiumCpu() })));
      counting = false;
      await watching.close();
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    };
    for (let b = 0; b < BLOCKS; b++) {
      await block('without', alone);
      await attached(b);
    }
    await block('without', alone);
    const w = sides.without;
    const c = sides.withConsole;
    figures.shRunTrueP50Ms = {
      without: round(median(w.trues)),
      withConsole: round(median(c.trues)),
      ratio: round(median(c.trues) / median(w.trues), 2),
    };
    const perTrue = (x: number, n: number) => round(x / n);
    figures.cpuPerTrueCallMs = {
      serveWithout: perTrue(w.cpuTrue.serve, w.trues.length),
      serveWithConsole: perTrue(c.cpuTrue.serve, c.trues.length),
      console: perTrue(c.cpuTrue.console, c.trues.length),
      chromium: perTrue(c.cpuTrue.chromium, c.trues.length),
    };
    figures.pageMessagesPerTrueCall = Object.fromEntries(Object.entries(messages).map(([k, v]) => [k, round(v / c.trues.length)]));
    figures.big25MBWallMs = {
      without: Math.round(median(w.bigs)),
      withConsole: Math.round(median(c.bigs)),
      runs: { without: w.bigs.map(Math.round), withConsole: c.bigs.map(Math.round) },
      ratio: round(median(c.bigs) / median(w.bigs), 2),
      pageOutputKBPerRun: Math.round(bigOutputBytes / 1024 / c.bigs.length),
      cpuPerRunMs: {
        serveWithout: Math.round(w.cpuBig.serve / w.bigs.length),
        serveWithConsole: Math.round(c.cpuBig.serve / c.bigs.length),
        console: Math.round(c.cpuBig.console / c.bigs.length),
        chromium: Math.round(c.cpuBig.chromium / c.bigs.length),
      },
    };
    process.stdout.write(`console-perf-calls ${JSON.stringify(figures)}\n`);
    if (process.env.MISH_CONSOLE_PERF_PART === 'calls') {
      // Only part 2 (while working on it): the flood is skipped.
      await browser.close();
      await agent.close();
      rmSync(work, { recursive: true, force: true });
      return;
    }

    const started = await startConsole({ rendererDir: RENDERER, operatorDir: env.MISH_OPERATOR_DIR });
    if (!started.ok) throw new Error(started.error);
    const consoleApp = started.value;
    try {
      const page = await browser.newPage({ viewport: { width: 1480, height: 900 } });
      await page.goto(consoleApp.web.url);

      // --- 1. 16 sessions streaming in the console's own engine.
      const manager = consoleApp.engine!.manager;
      for (let i = 0; i < SESSIONS; i++) {
        const r = await manager.create({ name: `s${i}`, cwd: work });
        if (!r.ok) throw new Error(r.error.message);
      }
      await page.locator('button.session[data-session-id="console/s0"]').click();
      await page.locator('.terminal .xterm').waitFor();
      await page.evaluate(`(() => {
        window.__frames = [];
        let last = performance.now();
        const tick = (t) => { window.__frames.push(t - last); last = t; if (!window.__stop) requestAnimationFrame(tick); };
        requestAnimationFrame(tick);
      })()`);
      const line = 'compiling module src/components/widget_0123456789.tsx ........ ok (12 ms) [cache miss]';
      const cmd = `for s in $(seq 1 ${SECONDS}); do yes '${line}' | head -c ${MB}; sleep 1; done; echo flood-done`;
      const rssBefore = process.memoryUsage().rss;
      let rssPeak = rssBefore;
      const rssTimer = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 200);
      const host = PROFILE_DIR ? new InspectorSession() : undefined;
      if (host) {
        host.connect();
        await host.post('Profiler.enable');
        await host.post('Profiler.start');
      }
      const t0 = performance.now();
      const { results, wall } = await profilePage(page, 'page-flood', async () => {
        const results = await Promise.all(Array.from({ length: SESSIONS }, (_, i) => manager.run({ session: `s${i}`, command: cmd })));
        const wall = performance.now() - t0;
        await waitForTerminalText(page, 'flood-done', 120_000);
        return { results, wall };
      });
      clearInterval(rssTimer);
      if (host) {
        const { profile } = await host.post('Profiler.stop');
        writeFileSync(path.join(PROFILE_DIR!, 'host-flood.cpuprofile'), JSON.stringify(profile));
        host.disconnect();
      }
      const frames = (await page.evaluate('(window.__stop = true, window.__frames)')) as number[];
      const expectedBytes = SECONDS * MB + 'flood-done\n'.length;
      // Nothing lost: every session's spool holds every byte (the raw pane reads it).
      const rawBytes = results.map((r) => manager.process(r.id)?.entry().rawBytes ?? 0);
      figures.flood = {
        sessions: SESSIONS,
        bytesPerSession: expectedBytes,
        wallS: +(wall / 1000).toFixed(1),
        frames: frames.length,
        frameMsP50: +p(frames, 0.5).toFixed(1),
        frameMsP95: +p(frames, 0.95).toFixed(1),
        frameMsMax: +Math.max(...frames).toFixed(1),
        hostRssMB: { before: Math.round(rssBefore / 2 ** 20), peak: Math.round(rssPeak / 2 ** 20) },
        rawBytesMin: Math.min(...rawBytes),
      };
      process.stdout.write(`console-perf ${JSON.stringify(figures)}\n`);
      // The PTY turns each \n into \r\n: at least the bytes printed, for every session.
      for (const b of rawBytes) expect(b).toBeGreaterThanOrEqual(expectedBytes);
      // Issue 11's targets (timing: opt-in, and read with the figures printed above).
      expect.soft(p(frames, 0.95), 'flood: rAF frame time p95 (ms)').toBeLessThanOrEqual(50);
      expect.soft(median(c.trues) / median(w.trues), 'sh_run true p50, console watching / without').toBeLessThanOrEqual(1.2);
      expect.soft(median(c.bigs) / median(w.bigs), '25 MB sh_run wall time, console watching / without').toBeLessThanOrEqual(1.1);
    } finally {
      await browser.close();
      await agent.close();
      await consoleApp.close();
      rmSync(work, { recursive: true, force: true });
    }
  }, 300_000);
});

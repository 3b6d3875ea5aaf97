/**
 * The CPU budget of the hang guards (far-names.test.ts): a linear reader takes a CPU second or two per hostile megabyte, a
 * quadratic one 8-50 s, on the machine the guards were written on. Machines differ: session 17's ran plain JavaScript about
 * three times slower than session 16's, and linear cases took up to 10.7 s of CPU there, over the fixed 10 s budget. So the
 * budget is counted in units of a fixed piece of plain JavaScript work measured on the machine that runs the test (a ratio in
 * one run, as the benchmarks compare), and never below 10 s.
 */

/** The least budget, in ms (what the guards had on a fast machine). */
const MIN_BUDGET_MS = 10_000;
/**
 * The budget in units of calibrationWork()'s CPU time: 400 × ~120 ms = ~48 s on session 17's machine, where the slowest linear
 * case took 10.7 s and a quadratic one would take 25-150 s. (280 until session 43: CI's run of session 42's code calibrated to
 * 13.9 s while two linear cases that take 7.4 s of CPU here alone took 14.0 and 16.4 s there, beside the other test files: CPU
 * time grows too when a neighbour shares the core's caches. Those two now take ~0.1 and ~3 s; the slowest left, ~5 s.)
 */
const BUDGET_IN_WORK_UNITS = 400;

/** A fixed piece of work of the kind masking does: character codes, string searches, a small regex over a text. */
function calibrationWork(): number {
  const text = 'level=info msg="connected" host=db.internal port=5432 user=shop\n'.repeat(20_000);
  let n = 0;
  for (let round = 0; round < 10; round++) {
    for (let i = 0; i < text.length; i++) n += text.charCodeAt(i) & 7;
    for (let i = text.indexOf('port='); i >= 0; i = text.indexOf('port=', i + 1)) n++;
    n += text.match(/user=\w+/g)!.length;
  }
  return n;
}

/** calibrationWork()'s CPU time here in ms: the least of three runs (the first also compiles it). */
function measure(): number {
  let best = Infinity;
  for (let k = 0; k < 3; k++) {
    const started = process.cpuUsage();
    calibrationWork();
    const cpu = process.cpuUsage(started);
    best = Math.min(best, (cpu.user + cpu.system) / 1000);
  }
  return best;
}

/** The CPU budget of one hostile input on this machine, in ms. */
export const HANG_CPU_MS = Math.max(MIN_BUDGET_MS, BUDGET_IN_WORK_UNITS * measure());

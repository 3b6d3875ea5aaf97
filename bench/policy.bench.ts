/**
 * `mish policy explain --stdin` cost per line: every line of the policy tables (dangerous.txt,
 * benign.txt and the domain tables test/policy/tables/*.tsv, one-line rows) judged in one
 * process through explainLines, as the CLI does. Issue 19's
 * targets: <= 5 ms per line (median) and no line over 100 ms.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtinPolicy } from '../src/main/core/policy/index.js';
import { explainLines } from '../src/main/core/policy/explain-lines.js';
import { median, type BenchFigure } from './types.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Lines that run interpreter code the policy parses (python -c, node -e, ruby -e, perl -e, heredocs fed to them). */
const INTERPRETER_LINE = /(?:^|[\s;|&(])(?:python\d?(?:\.\d+)?|node|nodejs|deno|bun|ruby|perl)\s+(?:[^|;&]*\s)?(?:-[a-zA-Z]*[ceEp]\b|eval\b|-\s*<<|<<)/;
/** Passes over the whole input (the first warms the JIT and the pack compile). */
const ROUNDS = 3;

export async function benchPolicy(): Promise<BenchFigure[]> {
  const policy = builtinPolicy(readFileSync(path.join(ROOT, 'grammars/_meta/policy.toml'), 'utf8'), 'builtin');
  const read = (f: string) => readFileSync(path.join(ROOT, 'test/policy', f), 'utf8');
  // Rows whose line holds a newline (ESC: JSON bodies) would be split by --stdin: left out.
  const domains = readdirSync(path.join(ROOT, 'test/policy/tables'))
    .filter((f) => f.endsWith('.tsv'))
    .flatMap((f) => read(`tables/${f}`).split('\n'))
    .filter((l) => l.trim() !== '' && !l.startsWith('#'))
    .map((l) => l.split('\t').slice(2).join('\t'))
    .filter((l) => !l.startsWith('ESC:'));
  const text = [read('dangerous.txt'), read('benign.txt'), ...domains].join('\n');
  const perLine = new Map<number, number[]>();
  /** The first line handed to the Python / Ruby parser in the process (round 0): the parser thread's start, paid once. */
  let parserStart: { ms: number; line: string } | undefined;
  const textOf = new Map<number, string>();
  let lines = 0;
  let total = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const t = performance.now();
    lines = 0;
    for (const x of explainLines(text, policy, { cwd: '/work/project', home: '/home/me' })) {
      lines++;
      if (r > 0) perLine.set(x.n, [...(perLine.get(x.n) ?? []), x.ms]);
      else if (!parserStart && INTERPRETER_LINE.test(x.line) && /^(?:\S*\/)?(?:python\d?|ruby)\b/.test(x.line)) parserStart = { ms: x.ms, line: x.line };
      textOf.set(x.n, x.line);
    }
    if (r > 0) total += performance.now() - t;
  }
  const entries = [...perLine.entries()].map(([n, t]) => [n, median(t)] as const);
  const medians = entries.map(([, m]) => m);
  const slowest = entries.reduce((a, b) => (b[1] > a[1] ? b : a));
  const round = (x: number) => Math.round(x * 1000) / 1000;
  // Interpreter one-liners (parsed by acorn / tree-sitter) beside the other lines.
  const interp = entries.filter(([n]) => INTERPRETER_LINE.test(textOf.get(n) ?? '')).map(([, m]) => m);
  const other = entries.filter(([n]) => !INTERPRETER_LINE.test(textOf.get(n) ?? '')).map(([, m]) => m);
  return [
    { name: `policy explain --stdin, per line (median over ${lines} table lines)`, value: round(median(medians)), unit: 'ms', target: '<= 5', note: `${ROUNDS - 1} timed passes in one process` },
    { name: 'policy explain --stdin, mean per line (whole input)', value: round(total / (ROUNDS - 1) / lines), unit: 'ms', target: '<= 5' },
    { name: `policy explain --stdin, per interpreter one-liner (median over ${interp.length} python/node/ruby/perl lines)`, value: round(median(interp)), unit: 'ms', target: '<= 5', note: `other lines: ${round(median(other))} ms` },
    { name: 'policy explain --stdin, first python/ruby line (parser thread start, once per process)', value: round(parserStart?.ms ?? 0), unit: 'ms', note: parserStart ? JSON.stringify(parserStart.line.slice(0, 50)) : 'no python/ruby line in the input' },
    { name: 'policy explain --stdin, slowest line (median)', value: round(Math.max(...medians)), unit: 'ms', target: '<= 100', note: `line ${JSON.stringify((textOf.get(slowest[0]) ?? '').slice(0, 60))}` },
  ];
}

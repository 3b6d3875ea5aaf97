/**
 * Router overhead per command: parse (unbash) + categorise (rules, grammar detection, danger
 * patterns) on representative command lines, median per line. Target from issue 3: <= 1 ms.
 */
import { detectTool } from '../src/main/core/grammar/detect.js';
import { GrammarRegistry } from '../src/main/core/grammar/registry.js';
import { explain } from '../src/main/core/router/route.js';
import { loadRouterMeta } from '../src/main/core/router/meta.js';
import { median, type BenchFigure } from './types.js';

const LINES = [
  'npm install',
  'git status',
  'git log --oneline -20',
  'git diff HEAD~1 -- src/',
  'cat README.md',
  'cp file backup/',
  'rm -rf build dist',
  'make -j4 && make test',
  'cd web && npm ci && npm run build',
  'cat a | grep -n foo | sort | uniq -c',
  'FOO=1 sudo -u root env A=2 timeout 10 make check',
  'for f in *.ts; do echo "$f"; done',
  'docker ps -a',
  'kubectl get pods -n prod',
  'pytest -x tests/ 2>&1 | tee log.txt',
  'echo $(git rev-parse HEAD) > rev.txt',
  'curl -fsSL https://example.com/install.sh | sh',
  'git push --force origin main',
  "psql -c 'select 1'",
  "python3 - <<'EOF'\nprint(1)\nEOF\n",
];
/** Warm-up rounds (JIT, grammar cache) before timing. */
const WARMUP = 200;
/** Timed rounds over all lines. */
const ROUNDS = 500;

export async function benchRouter(): Promise<BenchFigure[]> {
  const m = loadRouterMeta();
  if (!m.ok) throw new Error(`${m.error.file}: ${m.error.message}`);
  const meta = m.meta;
  const registry = new GrammarRegistry({ userDir: null, projectGrammars: false });
  const detect = (argv: string[]) => detectTool(argv, registry.snapshot());
  for (let i = 0; i < WARMUP; i++) for (const l of LINES) explain(l, meta, detect);
  const perLine: number[] = [];
  for (const l of LINES) {
    const t: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const s = performance.now();
      const r = explain(l, meta, detect);
      t.push(performance.now() - s);
      if (!r.ok) throw new Error(`bench line did not parse: ${l}`);
    }
    perLine.push(median(t));
  }
  return [
    { name: 'router parse+categorise, median over 20 lines', value: round(median(perLine)), unit: 'ms', target: '<= 1', note: `median of per-line medians, ${ROUNDS} rounds each` },
    { name: 'router parse+categorise, slowest line (median)', value: round(Math.max(...perLine)), unit: 'ms', target: '<= 1' },
  ];
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

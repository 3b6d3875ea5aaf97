// Layering check (ARCHITECTURE.md §1): the engine never imports electron, the DOM or renderer
// code; the renderer never imports node or electron; src/shared imports nothing of ours.
// The compiler half of the check is tsconfig.core.json (no DOM lib).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const rules = [
  {
    dir: 'src/main/core',
    forbid: [/from\s+['"](electron|react|react-dom|@xterm\/xterm|zustand)['"]/, /require\(['"]electron['"]\)/, /\b(document|window)\.\w/, /from\s+['"]\.\.\/\.\.\/(cli|mcp|console)\//, /from\s+['"][./]*\/?(renderer|preload)\//],
    why: 'the engine (src/main/core) must not import electron, the DOM, renderer code or a host',
  },
  {
    dir: 'src/renderer',
    forbid: [/from\s+['"](electron|node:[a-z_/]+|fs|child_process|node-pty)['"]/, /from\s+['"][./]*\/main\//],
    // The grammar editor's worker runs the engine's node-free preview (squasher + grammar compiler) on the UI's side.
    allow: { 'src/renderer/src/grammar-editor/preview.worker.ts': /from\s+['"](\.\.\/)+main\/core\/grammar-preview\/[a-z-]+\.js['"]/ },
    why: 'the renderer talks to the bridge only: no electron, node or main-process imports',
  },
  {
    dir: 'src/shared',
    forbid: [/from\s+['"]\.\.\/(main|renderer|preload)\//, /from\s+['"](electron|node-pty|react)['"]/],
    why: 'src/shared is the contract and imports nothing of ours',
  },
  {
    // Issue 25: the Linux-only calls live behind the platform port (src/main/platform/port.ts), so
    // the portable implementation (macOS, MISH_PLATFORM=portable) covers everything. Tests may read /proc.
    dir: 'src/main',
    skip: (file) => file.startsWith('src/main/platform/') || /\.test\.ts$/.test(file),
    forbid: [
      /(readFileSync|readlinkSync|readdirSync|entryNames|existsSync|statSync|openSync|readFile|readdir)\(\s*[`'"]\/proc[/`'"]/,
      /(execFile|execFileSync|spawn|spawnSync)\(\s*['"]stty['"]/,
      /\bprctl\(/,
      /env\.XDG_RUNTIME_DIR/,
      /(from\s+|import\(\s*)['"]koffi['"]/,
    ],
    why: 'Linux-only calls (/proc, stty -F, prctl, XDG_RUNTIME_DIR, koffi) go through src/main/platform/',
  },
];

function* files(dir) {
  let entries;
  try { entries = readdirSync(dir); } catch { return; }
  for (const e of entries) {
    const p = path.join(dir, e);
    if (statSync(p).isDirectory()) yield* files(p);
    else if (/\.(ts|tsx|mts|js|mjs)$/.test(e)) yield p;
  }
}

let bad = 0;
for (const rule of rules) {
  for (const file of files(rule.dir)) {
    if (rule.skip?.(file.split(path.sep).join('/'))) continue;
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (/^\s*(\/\/|\*)/.test(line)) return;
      const allowed = rule.allow?.[file.split(path.sep).join('/')];
      if (allowed && allowed.test(line)) return;
      for (const re of rule.forbid) {
        if (re.test(line)) {
          bad++;
          console.error(`${file}:${i + 1}: ${rule.why}\n    ${line.trim()}`);
        }
      }
    });
  }
}

// Import cycles (ARCHITECTURE.md §1: imports run one way). Every relative import of src/ counts,
// `import type` included (a type cycle is a design cycle too); tests are left out. A cycle among
// these directories fails the check; elsewhere it is reported until its owner breaks it.
const CYCLE_FREE = ['src/main/console', 'src/main/operator', 'src/main/core', 'src/shared', 'src/renderer', 'src/preload'];
const graph = new Map();
for (const file of files('src')) {
  if (/\.test\.tsx?$/.test(file)) continue;
  const deps = [];
  const text = readFileSync(file, 'utf8');
  for (const m of text.matchAll(/^\s*(?:import|export)\s[^'";]*?from\s+['"](\.[^'"]+)['"]/gm)) {
    const base = path.join(path.dirname(file), m[1]).replace(/\.js$/, '');
    const target = [base + '.ts', base + '.tsx', path.join(base, 'index.ts')].find((c) => existsSync(c));
    if (target) deps.push(target);
  }
  graph.set(file, deps);
}
// Tarjan's strongly connected components: each with more than one file is a cycle.
const index = new Map();
const low = new Map();
const stack = [];
const onStack = new Set();
const cycles = [];
let counter = 0;
const visit = (v) => {
  index.set(v, counter);
  low.set(v, counter++);
  stack.push(v);
  onStack.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!index.has(w)) {
      visit(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
  }
  if (low.get(v) !== index.get(v)) return;
  const scc = [];
  let w;
  do {
    w = stack.pop();
    onStack.delete(w);
    scc.push(w.split(path.sep).join('/'));
  } while (w !== v);
  if (scc.length > 1) cycles.push(scc.sort());
};
for (const v of graph.keys()) if (!index.has(v)) visit(v);
for (const scc of cycles) {
  const strict = scc.some((f) => CYCLE_FREE.some((d) => f.startsWith(d + '/')));
  if (strict) bad++;
  (strict ? console.error : console.warn)(`${strict ? 'import cycle' : 'note: import cycle (outside the cycle-free directories)'}: ${scc.join(' ↔ ')}`);
}

if (bad) {
  console.error(`layer check: ${bad} violation(s)`);
  process.exit(1);
}
console.log('layer check: ok');

// Layering check (ARCHITECTURE.md §1): the engine never imports electron, the DOM or renderer
// code; the renderer never imports node or electron; src/shared imports nothing of ours.
// The compiler half of the check is tsconfig.core.json (no DOM lib).
import { readdirSync, readFileSync, statSync } from 'node:fs';
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
if (bad) {
  console.error(`layer check: ${bad} violation(s)`);
  process.exit(1);
}
console.log('layer check: ok');

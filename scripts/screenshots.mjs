#!/usr/bin/env node
/**
 * Refreshes the documentation's screenshots on purpose (`npm run screenshots`), never as a side
 * effect of `npm test` (issue 22: the tests write theirs to test-results/screenshots, gitignored).
 *
 *   npm run screenshots            run the e2e that take them, then copy them into place
 *   npm run screenshots -- --copy  only copy what the last e2e run left in test-results/screenshots
 *
 * "Into place" is wherever the documentation refers to them: every Markdown image in README.md
 * and docs/**\/*.md whose file name is one the e2e produced is replaced by the new PNG, at the
 * path that Markdown file names (so moving the docs or their images needs no change here). A
 * referenced image under a screenshots directory that no e2e produced fails the script: the
 * documentation would show a picture nothing keeps up to date.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SHOTS = process.env.MISH_SCREENSHOTS_DIR || path.join(ROOT, 'test-results', 'screenshots');
/** The e2e files that take the documentation's screenshots. */
const E2E = ['e2e/console.e2e.test.ts', 'e2e/console-actions.e2e.test.ts', 'e2e/grammar-editor.e2e.test.ts', 'e2e/console-bulk.e2e.test.ts', 'e2e/console-mobile.e2e.test.ts', 'e2e/console-app-window.e2e.test.ts', 'e2e/console-hooked.e2e.test.ts', 'test/operator-relay.test.ts'];
/** Markdown images: ![alt](path) (an alt may hold [brackets], as in "a [Y/n] prompt") and <img src="path">. */
const IMAGE_REFS = [/!\[(?:[^[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+\.png)>?(?:\s+"[^"]*")?\s*\)/g, /<img\s[^>]*src="([^"]+\.png)"/g];

function markdownFiles() {
  const files = [path.join(ROOT, 'README.md')].filter(existsSync);
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir)) {
      const p = path.join(dir, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (e.endsWith('.md')) files.push(p);
    }
  };
  walk(path.join(ROOT, 'docs'));
  return files;
}

const copyOnly = process.argv.includes('--copy');
if (!copyOnly) {
  console.log(`screenshots: running ${E2E.join(', ')}`);
  const r = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'vitest'), ['run', ...E2E], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, MISH_SCREENSHOTS_DIR: SHOTS } });
  if (r.status !== 0) {
    console.error('screenshots: the e2e failed; nothing was copied');
    process.exit(r.status ?? 1);
  }
}
const shots = new Set(existsSync(SHOTS) ? readdirSync(SHOTS).filter((f) => f.endsWith('.png')) : []);
if (shots.size === 0) {
  console.error(`screenshots: no PNG in ${path.relative(ROOT, SHOTS)}; run without --copy`);
  process.exit(1);
}
/** target path → shot name, for every reference the e2e can fill; the references none can. */
const plan = new Map();
const stale = [];
for (const md of markdownFiles()) {
  const text = readFileSync(md, 'utf8');
  for (const re of IMAGE_REFS) {
    for (const m of text.matchAll(re)) {
      const ref = m[1];
      if (/^[a-z]+:/i.test(ref)) continue; // a URL: not ours
      const target = path.resolve(path.dirname(md), decodeURI(ref));
      const name = path.basename(target);
      if (shots.has(name)) plan.set(target, name);
      else if (/(^|\/)screenshots\//.test(ref)) stale.push(`${path.relative(ROOT, md)}: ${ref}`);
    }
  }
}
if (stale.length) {
  console.error(`screenshots: the docs show screenshots no e2e took (rename the shot or the reference); nothing was copied:\n  ${stale.join('\n  ')}`);
  process.exit(1);
}
for (const [target, name] of plan) {
  mkdirSync(path.dirname(target), { recursive: true });
  copyFileSync(path.join(SHOTS, name), target);
  console.log(`screenshots: updated ${path.relative(ROOT, target)}`);
}
const used = new Set(plan.values());
const unused = [...shots].filter((s) => !used.has(s));
if (unused.length) console.log(`screenshots: taken but shown nowhere in the docs: ${unused.join(', ')}`);
const copied = plan;
console.log(`screenshots: ${copied.size} image(s) refreshed from ${path.relative(ROOT, SHOTS)}; review with git diff --stat and commit them`);

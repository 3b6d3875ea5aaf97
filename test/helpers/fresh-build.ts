/**
 * Built outputs the tests run (dist/mish.mjs, out/) are rebuilt when a source is newer, so
 * `npx vitest run` after an edit never tests the old bundle (issue 14 pt 7). The CLI bundle is
 * checked once per run in the vitest global setup (test/helpers/global-setup.ts), before any
 * test file starts, so parallel workers never build at the same time; so is the Electron build
 * (slower, only the e2e needs it: built when the run includes e2e files). Test files never build.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI_BUNDLE = path.join(ROOT, 'dist', 'mish.mjs');
export const RENDERER_INDEX = path.join(ROOT, 'out', 'renderer', 'index.html');

/** Newest modification time (ms) of the files under these paths; tests are not part of a build. */
export function newestMtime(paths: readonly string[]): number {
  let newest = 0;
  const walk = (p: string): void => {
    let st;
    try {
      st = statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const e of readdirSync(p)) walk(path.join(p, e));
      return;
    }
    if (/\.test\.tsx?$/.test(p)) return;
    newest = Math.max(newest, st.mtimeMs);
  };
  for (const p of paths) walk(p);
  return newest;
}

function mtimeOf(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return -1;
  }
}

/** Is `output` missing or older than any of `sources`? */
export function stale(output: string, sources: readonly string[]): boolean {
  const built = mtimeOf(output);
  return built < 0 || newestMtime(sources) > built;
}

/** What the CLI bundle is built from (src/renderer and src/preload are the Electron build's; grammars/ for dist/precompiled-toml.json). */
const CLI_SOURCES = ['src/main', 'src/shared', 'grammars', 'scripts/build-cli.mjs', 'package-lock.json'].map((p) => path.join(ROOT, p));
/** What the Electron build (out/) is built from. */
const ELECTRON_SOURCES = ['src', 'electron.vite.config.ts', 'package-lock.json'].map((p) => path.join(ROOT, p));

/** Rebuild dist/mish.mjs when missing or older than its sources; returns whether it built. */
export function ensureCliBundle(): boolean {
  if (!stale(CLI_BUNDLE, CLI_SOURCES)) return false;
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build-cli.mjs'), '--quiet'], { cwd: ROOT, stdio: 'inherit' });
  return true;
}

/** Rebuild out/ (electron-vite) when missing or older than its sources; returns whether it built. */
export function ensureElectronBuild(): boolean {
  if (!stale(RENDERER_INDEX, ELECTRON_SOURCES)) return false;
  execFileSync(path.join(ROOT, 'node_modules', '.bin', 'electron-vite'), ['build', '--logLevel', 'warn'], { cwd: ROOT, stdio: 'pipe' });
  return true;
}

/** Fails with what to do when out/ is missing or older than its sources (the e2e's start; the global setup builds it). */
export function requireElectronBuild(): void {
  if (stale(RENDERER_INDEX, ELECTRON_SOURCES)) {
    throw new Error(`${path.relative(ROOT, RENDERER_INDEX)} is missing or older than its sources: run the e2e through vitest (its global setup builds it) or \`npx electron-vite build\``);
  }
}

/**
 * Does this vitest run include e2e files? True for a whole-suite run (no file filter) and for a
 * filter naming e2e; false for `npx vitest run test/foo.test.ts` (no Electron build for that).
 */
export function runIncludesE2e(argv: readonly string[] = process.argv.slice(2)): boolean {
  const filters = argv.filter((a, i) => !a.startsWith('-') && a !== 'run' && !(i > 0 && /^-(t|-[a-zA-Z-]+)$/.test(argv[i - 1]) && !argv[i - 1].includes('=')));
  return filters.length === 0 || filters.some((f) => f.includes('e2e'));
}

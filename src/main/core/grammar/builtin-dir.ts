/**
 * Where the built-in grammars are, in a module of its own: the hook's lean bundle asks it (mish's
 * own files include the installation it runs from) and must not load the grammar loader, whose
 * schemas pull zod in (test/hooks/policy-cache.test.ts checks a cached hook run loads no zod).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder of grammars/ that holds the policy and shared definitions. */
const META_DIR = '_meta';

/**
 * Folder of the built-in grammars: walks up from this module (src/main/core/grammar under
 * vitest/tsx, dist/ for the esbuild bundle, out/main for electron-vite) to the first folder that
 * has `grammars/_meta` or is the mish package root with a `grammars/` folder.
 */
export function findBuiltinGrammarDir(from?: string): string | undefined {
  // A CommonJS bundle has no import.meta.url (esbuild leaves it undefined): fall back to the
  // entry script, then the working directory.
  const start = from ?? (import.meta as { url?: string }).url ?? process.argv[1] ?? process.cwd();
  let dir = path.dirname(start.startsWith('file:') ? fileURLToPath(start) : start);
  for (;;) {
    const g = path.join(dir, 'grammars');
    if (existsSync(path.join(g, META_DIR))) return g;
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg) && existsSync(g)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: unknown }).name === 'mish') return g;
      } catch {
        // not our package.json; keep walking
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

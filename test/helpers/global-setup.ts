/**
 * Vitest global setup: runs once, before any test file, in the main process.
 *  - Rebuilds the CLI bundle (dist/mish.mjs) when a source is newer, so the tests that run it
 *    (cli, router-cli, readme-examples, the MCP tests through `mish serve`) test the code as it is
 *    now. This is the only build during a run: test files never build (a build while another
 *    file executes the bundle would hand it a half-written file). The same for out/ (the console's
 *    page, electron-vite) when the run includes the e2e.
 *  - Gives the whole run a temp HOME with canaries (inherited by every test file's process,
 *    which then enters its own: confine-test-file.ts), and one cache for the Go toolchain,
 *    shared by the files of the run instead of the developer's.
 *  - Fingerprints the real HOME's mish and hook paths and the checkout's `git status` first, and
 *    fails the run at its end if either changed (real-home-guard.ts).
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { ensureCliBundle, ensureElectronBuild, ROOT, runIncludesE2e } from './fresh-build.js';
import { failRunOn, guardRealHome } from './real-home-guard.js';
import { confinedVars, OUTSIDE_POINTERS, safeHome } from './safe-home.js';

export default function setup(): () => void {
  if (ensureCliBundle()) process.stdout.write('global setup: dist/mish.mjs was older than its sources; rebuilt\n');
  if (runIncludesE2e() && ensureElectronBuild()) process.stdout.write('global setup: out/ was older than its sources; rebuilt (electron-vite)\n');
  // Before anything points the run elsewhere: what the real HOME and the checkout hold now.
  const checkRealHome = guardRealHome(process.env, ROOT);
  const suite = safeHome('suite');
  for (const k of OUTSIDE_POINTERS) delete process.env[k];
  Object.assign(process.env, confinedVars(suite.home), {
    GOCACHE: path.join(suite.home, 'go-cache'),
    GOMODCACHE: path.join(suite.home, 'go', 'pkg', 'mod'),
    GOPATH: path.join(suite.home, 'go'),
  });
  return () => {
    try {
      failRunOn(() => {
        suite.assertCanariesIntact();
        checkRealHome();
      });
    } finally {
      // Go's module cache is read-only; rmSync force handles it only after chmod, so try and go on.
      try {
        rmSync(suite.home, { recursive: true, force: true });
      } catch {
        /* a leftover temp dir is harmless */
      }
    }
  };
}

/**
 * Vitest setup file (vitest.config.ts `setupFiles`): runs in each test file's process before the
 * file is imported, and makes that process live in a fresh temp HOME with canaries and a
 * scratch working directory (safe-home.ts enterSafeHome). So every process a test starts — a
 * `mish serve`, a PTY shell, a CLI run, the console's in-process engine, a browser — gets that
 * HOME and cwd unless the test names its own: none can reach the developer's real HOME, audit
 * log or repository by default (issue 22). After the file's own afterAll hooks (after-hooks run
 * in reverse order, and this one is registered first), the canaries must be intact.
 */
import { afterAll } from 'vitest';
import { enterSafeHome, safeHome } from './safe-home.js';

const safe = safeHome('t');
const leave = enterSafeHome(safe);

afterAll(() => {
  try {
    safe.assertCanariesIntact();
  } finally {
    leave();
    safe.dispose();
  }
});

import { defineConfig } from 'vitest/config';

/**
 * How long `expect.poll` waits for a state by default. vitest's own 1 s fails on a loaded 2-core
 * machine (a page re-reading 3,002 raw lines from a spool, a PTY under two busy loops); a poll
 * that is satisfied returns at once, so only a real failure waits this long.
 */
const POLL_TIMEOUT_MS = 30_000;
/**
 * A test or hook that has not finished after this long hangs. Integration tests spawn real PTYs,
 * shells and browsers on a shared 2-core machine: beside two busy loops a test taking 20 s idle
 * took over 60 s (the earlier limit). A hang guard, never a timing claim.
 */
const HANG_GUARD_MS = 120_000;
/** How often `expect.poll` looks again (vitest's default 50 ms is a busy loop over a browser page). */
const POLL_INTERVAL_MS = 100;

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'e2e/**/*.test.ts'],
    testTimeout: HANG_GUARD_MS,
    hookTimeout: HANG_GUARD_MS,
    // forks, not threads: each test file's process enters its own temp HOME and cwd (process.chdir).
    pool: 'forks',
    expect: { poll: { timeout: POLL_TIMEOUT_MS, interval: POLL_INTERVAL_MS } },
    // Builds dist/mish.mjs when a source is newer (the only build of a run), and a temp HOME for the run.
    globalSetup: ['./test/helpers/global-setup.ts'],
    // Every test file's process lives in a temp HOME with canaries and a scratch cwd (issue 22).
    setupFiles: ['./test/helpers/confine-test-file.ts'],
    // The default report, then the list of skipped tests and why (issue 14: no silent skips).
    reporters: ['default', './test/helpers/skipped-reporter.ts'],
  },
});

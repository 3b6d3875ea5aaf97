import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'e2e/**/*.test.ts'],
    // Integration tests spawn real PTYs and shells; the machine has 2 cores and is shared.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Rebuilds dist/mish.mjs when a source is newer (tests run the bundle; never a stale one).
    globalSetup: ['./test/helpers/global-setup.ts'],
    // The default report, then the list of skipped tests and why (issue 14: no silent skips).
    reporters: ['default', './test/helpers/skipped-reporter.ts'],
  },
});

/**
 * One `mish serve` (stdio, temp HOME) shared by the tests of the enclosing describe block:
 * started before its first test, closed and its HOME removed after its last. Kept out of
 * mcp-helpers.ts, which the benchmarks import without vitest.
 */
import { afterAll, beforeAll } from 'vitest';
import { startStdio, type Served } from './mcp-helpers.js';

/** `ready` gets the started server (keep it in the suite's `s`; prepare files in its HOME there). */
export function serveForSuite(ready: (served: Served) => void): void {
  let served: Served | undefined;
  beforeAll(async () => {
    served = await startStdio();
    ready(served);
  });
  afterAll(async () => {
    await served?.close();
  });
}

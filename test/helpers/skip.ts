/**
 * Skips that say why. A test that cannot run here (a program missing, not root) is skipped
 * with `it.skipIf`, and the reason is in its name, so `npm test` lists it with the reason at
 * the end (test/helpers/skipped-reporter.ts) instead of passing without doing its work.
 */
import { spawnSync } from 'node:child_process';
import { describe, it, type TestFunction } from 'vitest';

/** Does a program exist on PATH (or at this absolute path)? */
export function onPath(program: string): boolean {
  return spawnSync('sh', ['-c', 'command -v "$1"', 'sh', program], { stdio: 'ignore' }).status === 0;
}

/** Why a test needing these programs cannot run here: '' when all are installed, else e.g. 'needs zip (not installed)'. */
export function missing(...programs: string[]): string {
  const gone = programs.filter((p) => !onPath(p));
  return gone.length ? `needs ${gone.join(', ')} (not installed)` : '';
}

/** '' as root, else why a root-only test cannot run. */
export function notRoot(why: string): string {
  return process.getuid?.() === 0 ? '' : `needs root: ${why}`;
}

/** The first non-empty reason of several ('' when none). */
export function anyOf(...reasons: string[]): string {
  return reasons.find((r) => r !== '') ?? '';
}

/** A test name carrying its skip reason when it is skipped. */
export function named(name: string, why: string): string {
  return why ? `${name} [skipped: ${why}]` : name;
}

type SuiteFn = () => void;

/** `it`, skipped with `why` in its name when `why` is not ''. */
export function itUnless(why: string) {
  return (name: string, fn: TestFunction, timeout?: number): void => {
    it.skipIf(why !== '')(named(name, why), fn, timeout);
  };
}

/** `describe`, skipped with `why` in its name when `why` is not ''. */
export function describeUnless(why: string) {
  return (name: string, fn: SuiteFn): void => {
    describe.skipIf(why !== '')(named(name, why), fn);
  };
}

/** A bad command line: printed as one line (no stack trace), exit status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Exit status for usage errors (the convention of most Unix tools). */
export const USAGE_EXIT = 2;

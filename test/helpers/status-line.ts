/**
 * A reply's status line states the run's duration from LONG_RUN_MS (1 s) on
 * (src/main/core/format/render.ts): `[exit 0 · 3s · 100,000 lines]`. A test asserting the rest of
 * the line exactly must not depend on whether its run took a second, which on a loaded machine
 * any run may: it compares the text without that one part.
 */
const DURATION_PART = /(\[exit [^\]\n]*?) · \d+(?:m\d\d)?s(?= · |\])/g;

/** `text` with the duration part of every `[exit …]` status line removed. */
export function withoutDuration(text: string): string {
  return text.replace(DURATION_PART, '$1');
}

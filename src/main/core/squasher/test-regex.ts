/**
 * For the property tests of the regex readers (needle-set.test.ts, line-lead.test.ts): a pattern fast-check can
 * generate lines for. Test support only.
 */
import { skipGroup } from './regex-source.js';

/** The source with its lookarounds removed (fast-check's stringMatching does not generate them: the result matches a superset); undefined if malformed. */
export function withoutLookarounds(source: string): string | undefined {
  let out = source;
  for (let n = 0; n < 20 && /\(\?<?[=!]/.test(out); n++) {
    const at = out.search(/\(\?<?[=!]/);
    const close = skipGroup(out, at);
    if (close < 0) return undefined;
    out = out.slice(0, at) + out.slice(close + 1).replace(/^(?:[?*+]|\{\d+(?:,\d*)?\})\??/, '');
  }
  return /\(\?<?[=!]/.test(out) ? undefined : out;
}

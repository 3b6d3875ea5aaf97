/**
 * Token figures of text mish sends, in one place, so every host states the same number for the
 * same text: the console's timeline (`53,814 → 14,713 tok`) and a cut reply's marker (`14,102
 * tokens of output kept`) both come from `countTokens`.
 *
 * Two measures, for two jobs, never mixed up in what mish says:
 * - `countTokens`: what a text costs, o200k (the GPT-4o-scale vocabulary the benchmarks use),
 *   exact for that vocabulary. What the operator and the agent are told a text cost.
 * - `estimateTokens`: a bound, on the high side for any tokenizer, free to run on every reply
 *   (no tables to load). What the reply cap (mcp/tool-kit.ts capReply) measures with; on prose it
 *   counts up to ~2.5× o200k, so it is never stated as what a reply cost — only as the cap's unit.
 */
import { createRequire } from 'node:module';

type Counter = (text: string) => number;
let o200k: Counter | undefined;

/**
 * o200k tokens of `text`. The encoder's tables load on the first call (~0.3 s, once a process):
 * only hosts that state a figure pay it (the console's hub; `mish serve` when it cuts a reply).
 */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  if (!o200k) {
    // CommonJS build, loaded synchronously: the figure is needed where the text is built.
    const m = createRequire(import.meta.url)('gpt-tokenizer/cjs/encoding/o200k_base') as { countTokens: Counter };
    o200k = (t) => m.countTokens(t);
  }
  return o200k(text);
}

/**
 * Estimated tokens of `text`, on the high side for any tokenizer (measured against o200k:
 * source code and prose are overestimated ~1.3-2.5x, random base36/hex barely). Counting runs instead of
 * running a real tokenizer keeps it free. A bound for caps, not a figure to state (countTokens is).
 */
export function estimateTokens(text: string): number {
  let n = 0;
  const re = /[A-Za-z]+|[0-9]+|\s+|[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]|[^\x00-\x7f]/gu;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const t = m[0];
    const c = t.charCodeAt(0);
    if (c >= 48 && c <= 57) n += Math.ceil(t.length / 3); // o200k splits digit runs in threes
    else if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) n += Math.ceil(t.length / 2.5);
    else if (c <= 32) n += 1;
    else if (c < 128) n += 1;
    else n += t.length > 1 || c > 0xffff ? 2 : 1; // astral (emoji) chars cost more
  }
  return n;
}

/**
 * `n.toLocaleString('en-US')`, the same text, without ICU for the integers mish counts (lines,
 * bytes, entries): the first `toLocaleString` of a process loads ICU's number formatting, ~9 ms
 * of CPU, on every `mish <cmd>` whose summary has a count over 999 (`[... 409,598 similar lines
 * ...]`). Other numbers (fractions, -0, beyond 2^53, NaN, Infinity) go to ICU as before.
 */
export function thousands(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  const digits = String(n < 0 ? -n : n);
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
}

/**
 * Values masked once, masked everywhere later in the session: a token found in `TOKEN=ghp_…`
 * or a password found on a `mysql -p…` line is remembered (in memory only) with its kind, so
 * `echo` of the same value later, or the value in a context no rule knows, is masked too.
 */

/** Shorter values are not remembered: masking every later `admin1` or `8080` would shred output. */
export const MIN_LEARNED_CHARS = 8;
/** At most this many values (the oldest are forgotten first): bounds memory and the matcher's size. */
export const MAX_LEARNED = 128;

/** Values per matcher: a new value rebuilds only the last matcher (compiling one big alternation per reply cost more than scanning). */
const VALUES_PER_MATCHER = 64;

export class LearnedSecrets {
  private readonly kinds = new Map<string, string>();
  /** Append-only groups of values, each with its alternation (built on first use). */
  private groups: { values: string[]; re: RegExp | null }[] = [];

  get size(): number {
    return this.kinds.size;
  }

  /** Remembers `value` (a secret the scanner found) under `kind`. */
  learn(value: string, kind: string): void {
    // `'pw'` on a command line: the value is what is between the quotes.
    if (value.length > 2 && (value[0] === "'" || value[0] === '"') && value[value.length - 1] === value[0]) value = value.slice(1, -1);
    if (value.length < MIN_LEARNED_CHARS || value.includes('\n') || this.kinds.has(value)) return;
    this.kinds.set(value, kind);
    if (this.kinds.size > MAX_LEARNED) {
      // Forget the oldest group whole (cheaper than rebuilding every matcher).
      const old = this.groups.shift()!;
      for (const v of old.values) this.kinds.delete(v);
    }
    let last = this.groups[this.groups.length - 1];
    if (!last || last.values.length >= VALUES_PER_MATCHER) this.groups.push((last = { values: [], re: null }));
    last.values.push(value);
    last.re = null;
  }

  /** Ranges of the remembered values in `text`. */
  find(text: string, out: { start: number; end: number; kind: string }[]): void {
    for (const g of this.groups) {
      // Longest first: a value containing another is masked whole.
      g.re ??= new RegExp(
        [...g.values]
          .sort((a, b) => b.length - a.length)
          .map((v) => v.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
          .join('|'),
        'g',
      );
      const re = g.re;
      re.lastIndex = 0;
      for (let m = re.exec(text); m; m = re.exec(text)) {
        const kind = this.kinds.get(m[0]);
        if (kind) out.push({ start: m.index, end: m.index + m[0].length, kind });
      }
    }
  }
}

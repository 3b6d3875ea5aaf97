/**
 * Values masked once, masked everywhere later in the session: a token found in `TOKEN=ghp_…`
 * or a password found on a `mysql -p…` line is remembered (in memory only) with its kind, so
 * `echo` of the same value later, or the value in a context no rule knows, is masked too.
 */

/** Shorter values are not remembered: masking every later `admin1` or `8080` would shred output. */
export const MIN_LEARNED_CHARS = 8;
/** At most this many values (the oldest are forgotten first): bounds memory and the matcher's size. */
export const MAX_LEARNED = 256;

export class LearnedSecrets {
  private readonly kinds = new Map<string, string>();
  private matcher: RegExp | null = null;

  get size(): number {
    return this.kinds.size;
  }

  /** Remembers `value` (a secret the scanner found) under `kind`. */
  learn(value: string, kind: string): void {
    // `'pw'` on a command line: the value is what is between the quotes.
    if (value.length > 2 && (value[0] === "'" || value[0] === '"') && value[value.length - 1] === value[0]) value = value.slice(1, -1);
    if (value.length < MIN_LEARNED_CHARS || value.includes('\n') || this.kinds.has(value)) return;
    this.kinds.set(value, kind);
    if (this.kinds.size > MAX_LEARNED) this.kinds.delete(this.kinds.keys().next().value!);
    this.matcher = null;
  }

  /** Ranges of the remembered values in `text`. */
  find(text: string, out: { start: number; end: number; kind: string }[]): void {
    if (this.kinds.size === 0) return;
    // One alternation, longest first (a value containing another is masked whole); rebuilt only when a value was added.
    this.matcher ??= new RegExp(
      [...this.kinds.keys()]
        .sort((a, b) => b.length - a.length)
        .map((v) => v.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
        .join('|'),
      'g',
    );
    const re = this.matcher;
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) out.push({ start: m.index, end: m.index + m[0].length, kind: this.kinds.get(m[0])! });
  }
}

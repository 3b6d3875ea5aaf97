/**
 * Values masked once, masked everywhere later in the session: a token found in `TOKEN=ghp_…`
 * or a password found on a `mysql -p…` line is remembered (in memory only) with its kind, so
 * `echo` of the same value later, or the value in a context no rule knows, is masked too.
 *
 * Every reply is searched for every remembered value, so the search skips: a Wu-Manber scan
 * (shift table over 2-character blocks of the values' first MIN_LEARNED_CHARS characters)
 * looks at about one position in six of a text that holds none of them. The alternation
 * regexes it replaced read every character once per 64 values (on the bench: ~40% of a reply's
 * masking time with 128 values remembered).
 */

/** Shorter values are not remembered: masking every later `admin1` or `8080` would shred output. */
export const MIN_LEARNED_CHARS = 8;
/** At most this many values (the oldest are forgotten first): bounds memory and the verification work per candidate. */
export const MAX_LEARNED = 128;

/** Characters per block of the shift table (2: a 64K table indexed by two UTF-16 units' hash). */
const BLOCK = 2;
const TABLE_BITS = 16;
const TABLE_MASK = (1 << TABLE_BITS) - 1;
/** Hash of the block ending at `i`. */
const blockHash = (text: string, i: number): number => ((text.charCodeAt(i - 1) * 0x9e37) ^ text.charCodeAt(i)) & TABLE_MASK;

interface Index {
  /** Window length: the shortest value's length, at most MIN_LEARNED_CHARS (values are at least that long). */
  m: number;
  /** Block hash → how far the window may move (0: a value's prefix may end here). */
  shift: Uint8Array;
  /** Block hash of a prefix's last block → the values with that prefix end. */
  candidates: Map<number, string[]>;
}

export class LearnedSecrets {
  /** Value → kind, oldest first. */
  private readonly kinds = new Map<string, string>();
  private index: Index | null = null;

  get size(): number {
    return this.kinds.size;
  }

  /** Remembers `value` (a secret the scanner found) under `kind`; `minLength`: lower for a value a command printed alone (secret-printers.ts). */
  learn(value: string, kind: string, minLength = MIN_LEARNED_CHARS): void {
    // `'pw'` on a command line: the value is what is between the quotes.
    if (value.length > 2 && (value[0] === "'" || value[0] === '"') && value[value.length - 1] === value[0]) value = value.slice(1, -1);
    if (value.length < minLength || value.includes('\n') || this.kinds.has(value)) return;
    this.kinds.set(value, kind);
    if (this.kinds.size > MAX_LEARNED) this.kinds.delete(this.kinds.keys().next().value!);
    this.index = null;
  }

  /** Ranges of the remembered values in `text` (overlaps included: the masker merges). */
  find(text: string, out: { start: number; end: number; kind: string }[]): void {
    if (this.kinds.size === 0) return;
    const { m, shift, candidates } = (this.index ??= this.build());
    for (let i = m - 1; i < text.length; ) {
      const h = blockHash(text, i);
      const s = shift[h];
      if (s > 0) {
        i += s;
        continue;
      }
      const start = i - m + 1;
      for (const v of candidates.get(h) ?? []) if (text.startsWith(v, start)) out.push({ start, end: start + v.length, kind: this.kinds.get(v)! });
      i++;
    }
  }

  private build(): Index {
    let m = MIN_LEARNED_CHARS;
    for (const v of this.kinds.keys()) m = Math.min(m, v.length);
    const shift = new Uint8Array(1 << TABLE_BITS).fill(m - BLOCK + 1);
    const candidates = new Map<number, string[]>();
    for (const v of this.kinds.keys()) {
      for (let j = BLOCK - 1; j < m; j++) {
        const h = blockHash(v, j);
        shift[h] = Math.min(shift[h], m - 1 - j);
      }
      const h = blockHash(v, m - 1);
      const list = candidates.get(h);
      if (list) list.push(v);
      else candidates.set(h, [v]);
    }
    return { m, shift, candidates };
  }
}

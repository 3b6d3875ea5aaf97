/**
 * The scanner's one pass over a text: an Aho-Corasick automaton over the rules' literal anchors
 * (vendor prefixes `ghp_`, `sk_live_`; context words `password`, `token`, `://`, `mysql`),
 * ASCII case-insensitive, compiled once into a dense transition table (a DFA: one table load
 * per character, no failure-link walk at scan time). The same loop notes the long runs of
 * token characters (where vendor tokens and base64 can be).
 *
 * The text is walked as its low bytes (low-bytes.ts: one byte per UTF-16 code unit, so offsets
 * are the string's). A code unit above 0xFF keeps only its low byte: that can only make a false
 * keyword hit or lengthen a run (each hit is checked by its rule's pattern on the real text),
 * never hide a keyword, which is ASCII.
 *
 * Why hand-written (docs/masking.md): measured on the bench's 3.3 MB of build output with these
 * ~250 keywords, `modern-ahocorasick` (maintained; it segments the text into grapheme clusters
 * with Intl.Segmenter) did not finish 6 passes in two minutes and `@monyone/aho-corasick` (a
 * Map-based trie walked with failure links) ran at 3 MB/s, against 325 MB/s for this table on
 * the same loaded machine; neither is case-insensitive without a lowercased copy of the text.
 */

import { LowBytes } from './low-bytes.js';

/** Keywords are ASCII: characters past this cannot be part of one. */
const ASCII = 128;

export interface PassResult {
  /** Keyword hits as pairs: keyword id, end offset (exclusive). In order of end. */
  hits: number[];
  /** Maximal runs of run characters at least `minRun` long, as pairs: start, end (exclusive). In order. */
  runs: number[];
  /**
   * The text's low bytes the pass read (low-bytes.ts), for a caller's own walks over the runs: valid while the automaton's
   * `passes` is what it was after this pass (the next pass reuses the buffer).
   */
  bytes: Buffer;
}

export class KeywordAutomaton {
  /** Keyword i, lowercase. */
  readonly keywords: readonly string[];
  /** The characters that share one class (sharedClassChars): a hit may stand where the text has another of them. */
  readonly sharedChars: string;
  /** Byte → class; bit 7 set for a byte that is not a run character. */
  private readonly classOf = new Uint8Array(256);
  /**
   * Transitions: state s (its index) on class c goes to next[(s << shift) + c], a row a power of two
   * wide. States with outputs are numbered last, so "is there a hit" is `s >= firstOutput`. The table
   * holds state indexes, not offsets premultiplied by the row's width: 16 bits then hold 65,535
   * states (offsets held 65,535 / 50 classes = 1,310, a limit the scanner's rules reached in
   * session 8; the shift costs the pass less than a third of the wide table's loss).
   */
  private readonly next: Uint16Array | Int32Array;
  /** The table's state indexes need 32 bits (more than 65,535 states): twice the memory, and the scanner's pass measured a third slower. */
  get wide(): boolean {
    return this.next instanceof Int32Array;
  }
  /** The table's row width: a power of two ≥ the classes (NARROW_CLASSES). */
  get rowWidth(): number {
    return 1 << this.shift;
  }
  /** States, and the table's row width (a power of two ≥ the classes) as a shift. */
  readonly states: number;
  private readonly shift: number;
  private readonly firstOutput: number;
  /** By state index: its keyword ids (suffix keywords included). */
  private readonly outputs: Int32Array[];
  private readonly classes: number;
  private readonly lowBytes = new LowBytes();
  /** Passes run so far: a pass's `bytes` are overwritten by the next one. */
  passes = 0;
  private readonly walk: (buf: Uint8Array, n: number) => number[];
  private readonly walkWithRuns: (buf: Uint8Array, n: number, minRun: number, runs: number[]) => number[];

  /** `runChars`: the characters of a token run (the scanner's `[A-Za-z0-9_.+/=:~-]`). */
  constructor(keywords: readonly string[], runChars: string) {
    this.keywords = keywords.map((k) => k.toLowerCase());
    for (const k of this.keywords) {
      if (k.length === 0) throw new Error('keyword automaton: empty keyword');
      for (let i = 0; i < k.length; i++) if (k.charCodeAt(i) >= ASCII) throw new Error(`keyword automaton: non-ASCII keyword ${JSON.stringify(k)}`);
    }
    // Classes: one per distinct (lowercased) character of the keywords, 0 for every other byte; past NARROW_CLASSES, a few
    // rare characters of long keywords share one (sharedClassChars).
    let classes = 1;
    const cls = new Uint8Array(256);
    const shared = sharedClassChars(this.keywords);
    for (const k of this.keywords) {
      for (let i = 0; i < k.length; i++) {
        const c = k.charCodeAt(i);
        if (cls[c] !== 0) continue;
        if (shared.includes(c)) for (const d of shared) cls[d] = classes;
        else cls[c] = classes;
        classes++;
      }
    }
    this.sharedChars = String.fromCharCode(...shared);
    for (let c = 65; c <= 90; c++) if (cls[c] === 0) cls[c] = cls[c + 32]; // A-Z as a-z
    if (classes > 127) throw new Error('keyword automaton: more than 127 distinct keyword characters');
    this.classes = classes;
    for (let b = 0; b < 256; b++) this.classOf[b] = cls[b] | (runChars.includes(String.fromCharCode(b)) && b < ASCII ? 0 : 0x80);

    // The trie (goto function), then failure links breadth first, folded into a full DFA table.
    const goto: Int32Array[] = [new Int32Array(classes).fill(-1)];
    const outs: number[][] = [[]];
    this.keywords.forEach((k, id) => {
      let s = 0;
      for (let i = 0; i < k.length; i++) {
        const c = cls[k.charCodeAt(i)];
        if (goto[s][c] < 0) {
          goto[s][c] = goto.length;
          goto.push(new Int32Array(classes).fill(-1));
          outs.push([]);
        }
        s = goto[s][c];
      }
      outs[s].push(id);
    });
    const states = goto.length;
    const dfa = new Int32Array(states * classes);
    const fail = new Int32Array(states);
    const queue: number[] = [];
    for (let c = 0; c < classes; c++) {
      const t = goto[0][c];
      dfa[c] = t < 0 ? 0 : t;
      if (t > 0) queue.push(t);
    }
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q];
      // A state's outputs include its failure state's (a keyword that is a suffix of another).
      outs[s].push(...outs[fail[s]]);
      for (let c = 0; c < classes; c++) {
        const t = goto[s][c];
        if (t < 0) dfa[s * classes + c] = dfa[fail[s] * classes + c];
        else {
          fail[t] = dfa[fail[s] * classes + c];
          dfa[s * classes + c] = t;
          queue.push(t);
        }
      }
    }
    // Renumber: the root, the states without outputs, then those with; each group breadth first (the queue's order), so the
    // shallow states a text visits most share the table's first rows and stay in the cache (the pass ran 4-8% faster over
    // the bench's replies than with the keywords' order, the two tables side by side in one process: session 49).
    const all = [0, ...queue];
    const order = [0, ...all.filter((s) => s > 0 && outs[s].length === 0), ...all.filter((s) => outs[s].length > 0)];
    const index = new Int32Array(states);
    order.forEach((s, i) => (index[s] = i));
    this.states = states;
    this.shift = Math.ceil(Math.log2(classes));
    const width = 1 << this.shift;
    this.next = states <= 0xffff ? new Uint16Array(states * width) : new Int32Array(states * width);
    for (let s = 0; s < states; s++) for (let c = 0; c < classes; c++) this.next[index[s] * width + c] = index[dfa[s * classes + c]];
    this.firstOutput = order.findIndex((s) => outs[s].length > 0);
    if (this.firstOutput < 0) this.firstOutput = states;
    this.outputs = order.map((s) => Int32Array.from(outs[s]));
    ({ walk: this.walk, walkWithRuns: this.walkWithRuns } = walker(this.classOf, this.next, this.shift, this.firstOutput));
    // Every operation of the loops run once before a long text: a loop compiled on the stack of its
    // first long text with some branch never taken is deoptimised there, at every later call.
    const warm = `${this.keywords.join(' ')} ${'x'.repeat(64)}`;
    for (let i = 0; i < 3; i++) {
      this.pass(warm, 20);
      this.pass(warm, 0);
    }
  }

  /**
   * Every keyword hit of `text`, and its runs of `minRun`+ run characters (0: no runs noted). `into`: the buffer the text's
   * bytes are written to, when the caller keeps them past later passes (its own: the next pass reuses the automaton's).
   */
  pass(text: string, minRun: number, into: LowBytes = this.lowBytes): PassResult {
    // Followed by a newline: a byte no keyword and no run holds, so the loops need no code after them (code the loop's
    // first, on-stack-replaced compilation has no feedback for: it was deoptimised at every call).
    const buf = into.of(text);
    this.passes++;
    // Two loops in two functions: one function with both was optimised with one loop never run, then deoptimised.
    return minRun > 0 ? this.hitsAndRuns(buf, text.length + 1, minRun) : { hits: this.hitsOnly(buf, text.length + 1), runs: [], bytes: buf };
  }

  /**
   * Every keyword hit of UTF-8 bytes `buf[0, n)`, whose last byte (`buf[n - 1]`) must be a
   * newline: the stream's raw output, walked without decoding it (a non-ASCII character's bytes
   * are all ≥ 0x80, so they hide no keyword and make none). Offsets are byte offsets.
   */
  hitsInBytes(buf: Buffer, n: number): number[] {
    if (n === 0 || buf[n - 1] !== 0x0a) throw new Error('keyword automaton: bytes must end in a newline');
    return this.hitsOnly(buf, n);
  }

  /** Keyword hits from the loops' (state, end) pairs: each state's keyword ids. */
  private hitsOf(states: number[]): number[] {
    const hits: number[] = [];
    for (let j = 0; j < states.length; j += 2) {
      const ids = this.outputs[states[j]];
      for (let k = 0; k < ids.length; k++) hits.push(ids[k], states[j + 1]);
    }
    return hits;
  }

  private hitsOnly(buf: Buffer, n: number): number[] {
    return this.hitsOf(this.walk(buf, n));
  }

  private hitsAndRuns(buf: Buffer, n: number, minRun: number): PassResult {
    const runs: number[] = [];
    const states = this.walkWithRuns(buf, n, minRun, runs);
    return { hits: this.hitsOf(states), runs, bytes: buf };
  }
}

/**
 * A table's rows are a power of two wide: 64 classes or fewer make them half as wide as 65-127 do. The scanner's ~5,800 states
 * with 67 classes took 1.5 MB, their pass 15.4 ms over the bench's 3.4 MB; at 64, 0.75 MB and 12.2 ms (session 30, measured):
 * the table's hot rows stay in the cache.
 */
const NARROW_CLASSES = 64;
/**
 * Keywords this long or longer may hold a shared class's character: a hit the sharing makes (`&#3` read at `&;3`) needs the
 * keyword's other characters around it, so it is rare, and each hit is checked by its rule on the real text (as a hit the low
 * bytes of a character past 0xFF make: low-bytes.ts). Not one or two characters (`% `, a prompt's mark: a hit at every `, `).
 */
const MIN_SHARING_KEYWORD = 3;

/**
 * The characters that share one class so that the classes fit NARROW_CLASSES (none if they fit already, or if too few can):
 * those only long keywords hold, fewest keywords first.
 */
function sharedClassChars(keywords: readonly string[]): number[] {
  const holders = new Map<number, number>();
  const inShort = new Set<number>();
  for (const k of keywords) {
    for (const c of new Set(Array.from(k, (ch) => ch.charCodeAt(0)))) {
      holders.set(c, (holders.get(c) ?? 0) + 1);
      if (k.length < MIN_SHARING_KEYWORD) inShort.add(c);
    }
  }
  // Merging m characters into one class removes m - 1 classes.
  const excess = holders.size + 1 - NARROW_CLASSES;
  if (excess <= 0) return [];
  const letters = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
  const candidates = [...holders].filter(([c]) => !inShort.has(c) && !letters(c)).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
  return candidates.length > excess ? candidates.slice(0, excess + 1).map(([c]) => c) : [];
}

/**
 * The loops, as closures over their tables: V8 runs a loop over tables it sees as constants
 * (closure or module constants) about 1.6x faster than over tables passed in or read from
 * `this` (measured). They note (state, end) per accepting state; hitsOf turns states into
 * keyword ids.
 */
function walker(cls: Uint8Array, next: Uint16Array | Int32Array, shift: number, accept: number) {
  /** The DFA over buf[0, n) (the text and its closing newline). */
  const walk = (buf: Uint8Array, n: number): number[] => {
    const out: number[] = [];
    let s = 0;
    for (let i = 0; i < n; i++) {
      s = next[(s << shift) + (cls[buf[i]] & 0x7f)];
      if (s >= accept) out.push(s, i + 1);
    }
    return out;
  };
  /** walk, also noting into `runs` the runs of `minRun`+ run characters (start, end pairs). */
  const walkWithRuns = (buf: Uint8Array, n: number, minRun: number, runs: number[]): number[] => {
    const out: number[] = [];
    let s = 0;
    let len = 0;
    const longer = minRun - 1;
    for (let i = 0; i < n; i++) {
      const k = cls[buf[i]];
      s = next[(s << shift) + (k & 0x7f)];
      if (s >= accept) out.push(s, i + 1);
      // Without a branch per run border (they come every few characters, unpredictably): `ends`
      // is 1 at a non-run byte; a run is noted when one ends `minRun`+ long.
      const ends = k >> 7;
      if (((longer - len) >> 31) & ends) runs.push(i - len, i);
      len = (len + 1) & (ends - 1);
    }
    return out;
  };
  return { walk, walkWithRuns };
}

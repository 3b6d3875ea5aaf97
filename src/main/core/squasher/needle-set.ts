/**
 * Needle SETS: for a RegExp whose matches share no single literal (a top-level alternation, a
 * level word in one of several spellings, a timestamp of digits), a short list of *factors* such
 * that every line the RegExp matches holds at least one of them. A factor is a fixed-length
 * sequence of character sets (`ERR`, `[EF]\d\d\d\d \d`, `"level"`), so the whole set is one
 * alternation of fixed-length pieces that V8 scans in one native call, where the RegExp itself
 * (`^(?:\S+\s+){0,6}?\[…` tried over the line) backtracks. A line holding none of the factors
 * is proven not to match: the RegExp need not run.
 *
 * Derived from the pattern's source by a small parser, conservatively: anything it does not
 * model (a back-reference, `\p{…}`, a negated class, `.`) counts as "any string", which only
 * makes the set weaker (or absent), never wrong. Lookarounds count as the empty string (they
 * consume nothing). This is the "required trigram" analysis of Russ Cox's code search
 * (exact sets of short alternatives, cross products along a sequence, unions across `|`),
 * with character sets in place of trigrams.
 */

/** One position of a factor: the characters it may be, sorted, no repeats. */
export type CharSet = string;
/** Fixed-length sequence of character sets: a line holds it when some substring matches it position by position. */
export type Factor = readonly CharSet[];

/** Most factors an exact set or a needle set holds (a cross product past this is dropped: the gate RegExp stays small). */
const MAX_FACTORS = 48;
/** Longest factor kept: a longer one is cut to its start (still mandatory), as more positions barely make a rarer piece. */
const MAX_FACTOR_LENGTH = 12;
/** Largest character class read as a set (`[A-Za-z_]`, `\w`); a larger one is "any character". */
const MAX_CLASS = 128;
/** Most repetitions `x{n,m}` is expanded to in an exact set (`\d{13}`, an epoch in milliseconds, is one factor). */
const MAX_REPEAT = 16;

/** sortSet per input: \d, \w and \s come back on every atom of a pattern (sorting them was a fifth of reading one). */
const sorted = new Map<string, CharSet>();

const DIGITS = '0123456789';
const WORD = `${DIGITS}ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz`;
/** What `\s` matches in JavaScript. */
const SPACE = sortSet('\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff');

/** What is known about the strings a piece of pattern matches. */
interface Info {
  /** Every string it matches is one of these factors (undefined: too many, or unbounded). */
  exact?: Factor[];
  /** Every string it matches contains one of these (undefined: no constraint, e.g. it may match ''). */
  need?: Factor[];
}

const ANY: Info = {};
const EMPTY: Info = { exact: [[]] };

class Unsupported extends Error {}

/** classAtom's answer for a class escape it does not model (not a character: two code units, never a set). */
const ANY_CLASS = '\ufffe\uffff';

/**
 * The needle set of `re`, or undefined when none can be read off (the RegExp may match a line
 * holding no particular piece, or the source uses syntax this reader does not model).
 */
export function needleSet(re: RegExp): Factor[] | undefined {
  let set = readSets.get(re);
  if (set === undefined) {
    const known = precomputed?.get(needleSetKey(re));
    readSets.set(re, (set = known !== undefined ? known : (readNeedleSet(re) ?? null)));
  }
  return set ?? undefined;
}

/** Needle sets already read, per RegExp (a grammar's rules are compiled once; every rule set of a command reuses them). */
const readSets = new WeakMap<RegExp, Factor[] | null>();

/**
 * Needle sets read ahead of time (needle-table.ts: the build reads the built-in always-on rules'
 * into dist/precompiled-needles.json), by needleSetKey; null: the RegExp has none. Reading the
 * log-level rules' sets in a fresh process took ~15 ms and made V8 optimize the reader (~50 ms
 * of its compiler threads) on every `mish <cmd>`, more CPU than the gate saves on 25 MB.
 */
let precomputed: ReadonlyMap<string, Factor[] | null> | undefined;

/** What a precomputed set is looked up by: the flags and the source, which are all the reader reads. */
export function needleSetKey(re: RegExp): string {
  return `${re.flags}/${re.source}`;
}

/** Use `table`'s sets instead of reading those RegExps (undefined: read every one). Sets already read stay. */
export function usePrecomputedNeedleSets(table: ReadonlyMap<string, Factor[] | null> | undefined): void {
  precomputed = table;
}

function readNeedleSet(re: RegExp): Factor[] | undefined {
  const flags = re.flags;
  if (flags.includes('v')) return undefined; // set notation: another class syntax
  // With `u`, a character outside the BMP is one atom (and \w / case folding reach non-ASCII
  // characters under `iu`): not modelled.
  if (flags.includes('u') && (/[\ud800-\udfff]/.test(re.source) || flags.includes('i'))) return undefined;
  try {
    const p = new Parser(re.source, flags.includes('i'), flags.includes('u'));
    const info = p.alternation();
    if (p.i !== re.source.length) return undefined;
    return info.need && info.need.length > 0 && !info.need.some((f) => f.length === 0) ? info.need : undefined;
  } catch (e) {
    if (e instanceof Unsupported) return undefined;
    throw e;
  }
}

/** RegExp source (no flags) matching exactly the lines that hold one of `factors`. */
export function needleSetSource(factors: readonly Factor[]): string {
  return factors.map((f) => f.map(setSource).join('')).join('|');
}

/**
 * Rough chance that a needle set occurs at one position of an ordinary output line (lower:
 * rarer, so a better gate): the sum over factors of the product over positions of each set's
 * share of typical text. Letter frequencies understate real words; used only to choose between
 * the candidates one pattern offers and to judge whether a set is worth a gate.
 */
export function needleSetScore(factors: readonly Factor[]): number {
  let sum = 0;
  for (const f of factors) {
    let p = 1;
    for (const s of f) p *= setShare(s);
    sum += p;
  }
  return sum;
}

/** Share of typical output text taken by one character (a crude table: blanks, lower case, digits, common punctuation, the rest). */
export function charShare(c: string): number {
  if (c === ' ') return 0.15;
  if (c >= 'a' && c <= 'z') return 0.035;
  if (c >= '0' && c <= '9') return 0.02;
  if (c >= 'A' && c <= 'Z') return 0.008;
  if ('/.-_:,()\'"='.includes(c)) return 0.01;
  return c < '\x80' ? 0.003 : 0.001;
}

function setShare(s: CharSet): number {
  let p = shares.get(s);
  if (p === undefined) {
    p = 0;
    for (const c of s) p += charShare(c);
    shares.set(s, (p = Math.min(1, p)));
  }
  return p;
}

/** setShare per set: the same few sets (\d, \w, \s, one letter) are scored thousands of times while reading a grammar. */
const shares = new Map<CharSet, number>();

function sortSet(chars: string): CharSet {
  if (chars.length === 1) return chars;
  let s = sorted.get(chars);
  if (s === undefined) sorted.set(chars, (s = [...new Set(chars)].sort().join('')));
  return s;
}

function setSource(s: CharSet): string {
  if (s === DIGITS) return '\\d';
  const one = (c: string) => {
    const code = c.charCodeAt(0);
    if (code < 0x20 || code > 0x7e) return `\\u${code.toString(16).padStart(4, '0')}`;
    return /[\\^$.*+?()[\]{}|/-]/.test(c) ? `\\${c}` : c;
  };
  return s.length === 1 ? one(s) : `[${[...s].map(one).join('')}]`;
}

/** The factors of `a` followed by those of `b` (every pairing), or undefined past MAX_FACTORS. */
function product(a: readonly Factor[], b: readonly Factor[]): Factor[] | undefined {
  if (a.length * b.length > MAX_FACTORS) return undefined;
  const out: Factor[] = [];
  for (const x of a) for (const y of b) out.push([...x, ...y]);
  return out;
}

/** True when every string matching `big` contains a match of `small` (so `small` alone says as much in a union). */
function covers(small: Factor, big: Factor): boolean {
  for (let o = 0; o + small.length <= big.length; o++) {
    let ok = true;
    for (let i = 0; ok && i < small.length; i++) {
      const b = big[o + i];
      const a = small[i];
      ok = b === a || (b.length < a.length && [...b].every((c) => a.includes(c)));
    }
    if (ok) return true;
  }
  return false;
}

/**
 * A factor cut to MAX_FACTOR_LENGTH positions (any window of a mandatory piece is mandatory),
 * keeping its rarest single character (a date and time keeps the time's `:`, a probe's key).
 */
function cutFactor(f: Factor): Factor {
  if (f.length <= MAX_FACTOR_LENGTH) return f;
  let rarest = 0;
  f.forEach((s, k) => {
    if (s.length === 1 && (f[rarest].length !== 1 || charShare(s) < charShare(f[rarest]))) rarest = k;
  });
  const from = Math.min(rarest, f.length - MAX_FACTOR_LENGTH);
  return f.slice(from, from + MAX_FACTOR_LENGTH);
}

/** A union of factors made small: each cut, repeats and factors holding another factor dropped. */
function simplify(factors: readonly Factor[]): Factor[] {
  const cut = factors.map(cutFactor);
  const out: Factor[] = [];
  cut.forEach((f, k) => {
    // Drop f when another factor is held in it (ties between equal factors: keep the first).
    const held = cut.some((g, j) => j !== k && covers(g, f) && (!covers(f, g) || j < k));
    if (!held) out.push(f);
  });
  return out;
}

/** The best needle set among candidates (each valid alone): no empty factor, then the lowest score. */
function best(candidates: readonly (Factor[] | undefined)[]): Factor[] | undefined {
  let pick: Factor[] | undefined;
  let pickScore = Infinity;
  for (const c of candidates) {
    if (!c || c.length === 0 || c.some((f) => f.length === 0)) continue;
    // Scored as it is (simplifying every candidate cost more than the rest of the reading).
    const score = needleSetScore(c);
    if (score < pickScore) {
      pick = c;
      pickScore = score;
    }
  }
  return pick && simplify(pick);
}

/** Recursive descent over a RegExp source, returning what each piece says about its matches. */
class Parser {
  i = 0;
  /** Inside a lookaround: its body is only parsed past, not read (log-levels' GUARD is 30 alternatives on every noise rule). */
  private skipping = 0;
  constructor(
    private readonly src: string,
    private readonly ignoreCase: boolean,
    private readonly unicode: boolean,
  ) {}

  alternation(): Info {
    const branches = [this.sequence()];
    while (this.src[this.i] === '|') {
      this.i++;
      branches.push(this.sequence());
    }
    if (branches.length === 1 || this.skipping > 0) return branches.length === 1 ? branches[0] : ANY;
    let exact: Factor[] | undefined = [];
    let need: Factor[] | undefined = [];
    for (const b of branches) {
      exact = exact && b.exact && exact.length + b.exact.length <= MAX_FACTORS ? [...exact, ...b.exact] : undefined;
      need = need && b.need && need.length + b.need.length <= MAX_FACTORS ? [...need, ...b.need] : undefined;
    }
    return { exact, need: need ? simplify(need) : undefined };
  }

  sequence(): Info {
    let run: Factor[] = [[]]; // the exact product of the current run of exact pieces
    let whole: Factor[] | undefined = [[]];
    const candidates: (Factor[] | undefined)[] = [];
    while (this.i < this.src.length && this.src[this.i] !== '|' && this.src[this.i] !== ')') {
      const item = this.quantified(this.atom());
      if (this.skipping > 0) continue;
      if (item.exact) {
        const p = product(run, item.exact);
        if (p) run = p;
        else {
          candidates.push(run);
          run = item.exact;
        }
        whole = whole && product(whole, item.exact);
      } else {
        candidates.push(run);
        run = [[]];
        whole = undefined;
      }
      candidates.push(item.need);
    }
    candidates.push(run);
    return { exact: whole, need: best(candidates) };
  }

  private quantified(info: Info): Info {
    const q = this.quantifier();
    if (!q) return info;
    if (this.skipping > 0) {
      if (this.src[this.i] === '?') this.i++;
      return ANY;
    }
    const [min, max] = q;
    if (this.src[this.i] === '?') this.i++; // lazy: same strings
    if (max === 0) return EMPTY;
    let exact: Factor[] | undefined;
    if (info.exact && max <= MAX_REPEAT) {
      exact = [];
      for (let n = min; n <= max && exact; n++) {
        let rep: Factor[] | undefined = [[]];
        for (let k = 0; k < n && rep; k++) rep = product(rep, info.exact);
        exact = rep && exact.length + rep.length <= MAX_FACTORS ? [...exact, ...rep] : undefined;
      }
    }
    if (min === 0) return { exact };
    // At least `min` repetitions: their first `min` (or fewer: a start of a mandatory piece is
    // mandatory too) are one contiguous piece.
    let first: Factor[] | undefined;
    if (info.exact) {
      first = [[]];
      for (let k = 0; k < Math.min(min, MAX_FACTOR_LENGTH) && first; k++) first = product(first, info.exact);
    }
    return { exact, need: best([info.need, first]) };
  }

  /** `[min, max]` of a quantifier at the cursor (consumed), or undefined. */
  private quantifier(): [number, number] | undefined {
    const c = this.src[this.i];
    if (c === '*' || c === '+' || c === '?') {
      this.i++;
      return c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
    }
    if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
      if (!m) {
        if (this.unicode) throw new Unsupported();
        return undefined; // a literal `{` (Annex B), read as the next atom
      }
      this.i += m[0].length;
      const min = Number(m[1]);
      return [min, m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3])];
    }
    return undefined;
  }

  private atom(): Info {
    const src = this.src;
    const c = src[this.i++];
    if (c === '(') {
      let look = false;
      if (src.startsWith('?:', this.i)) this.i += 2;
      else if (src.startsWith('?=', this.i) || src.startsWith('?!', this.i)) (this.i += 2), (look = true);
      else if (src.startsWith('?<=', this.i) || src.startsWith('?<!', this.i)) (this.i += 3), (look = true);
      else if (src.startsWith('?<', this.i)) {
        const close = src.indexOf('>', this.i);
        if (close < 0) throw new Unsupported();
        this.i = close + 1;
      } else if (src[this.i] === '?') throw new Unsupported(); // modifiers (?i:…) and the like
      if (look) this.skipping++;
      const body = this.alternation();
      if (look) this.skipping--;
      if (src[this.i] !== ')') throw new Unsupported();
      this.i++;
      // A lookaround consumes nothing: as far as the match's text goes, it is the empty string.
      return look ? EMPTY : body;
    }
    if (c === '[') return this.charClass();
    if (c === '\\') return this.escape();
    if (c === '.') return ANY;
    if (c === '^' || c === '$') return EMPTY;
    if (c === ')' || c === '|' || c === '*' || c === '+' || c === '?' || c === undefined) throw new Unsupported();
    if (c === '{' && /^\{\d+(,\d*)?\}/.test(src.slice(this.i - 1))) throw new Unsupported(); // a quantifier with nothing to repeat
    if ((c === '{' || c === '}' || c === ']') && this.unicode) throw new Unsupported();
    return this.chars(c);
  }

  /** A piece matching one of `chars` (case-expanded under `i`; a non-ASCII letter then is "any"). */
  private chars(chars: string): Info {
    let set = chars;
    if (this.ignoreCase) {
      for (const ch of chars) {
        if (ch.toLowerCase() === ch.toUpperCase()) continue;
        if (ch > '\x7f') return ANY;
        set += ch.toLowerCase() + ch.toUpperCase();
      }
    }
    const s = sortSet(set);
    return s.length > MAX_CLASS ? ANY : { exact: [[s]], need: [[s]] };
  }

  private escape(): Info {
    const src = this.src;
    const e = src[this.i++];
    if (e === undefined) throw new Unsupported();
    switch (e) {
      case 'd':
        return this.chars(DIGITS);
      case 'w':
        return this.chars(WORD);
      case 's':
        return this.chars(SPACE);
      case 'b':
      case 'B':
        return EMPTY;
      case 'D':
      case 'W':
      case 'S':
        return ANY;
      case 'k':
        if (src[this.i] === '<') {
          const close = src.indexOf('>', this.i);
          if (close < 0) throw new Unsupported();
          this.i = close + 1;
          return ANY; // back-reference
        }
        if (this.unicode) throw new Unsupported();
        return this.chars('k');
      case 'p':
      case 'P':
        if (!this.unicode) return this.chars(e);
        if (src[this.i] !== '{') throw new Unsupported();
        this.i = src.indexOf('}', this.i) + 1;
        if (this.i === 0) throw new Unsupported();
        return ANY;
    }
    if (/[1-9]/.test(e)) {
      while (/\d/.test(src[this.i] ?? '')) this.i++;
      return ANY; // a back-reference (or, without named groups, an octal escape): either way, not modelled
    }
    const ch = this.escapedChar(e);
    return this.chars(ch);
  }

  /** The character an escape (after `\`, `e` consumed) stands for: control letters, \xHH, \uHHHH, \cX, \0, identity. */
  private escapedChar(e: string): string {
    const src = this.src;
    const simple: Record<string, string> = { t: '\t', n: '\n', r: '\r', f: '\f', v: '\v' };
    if (simple[e]) return simple[e];
    if (e === '0') {
      if (/\d/.test(src[this.i] ?? '')) throw new Unsupported(); // a legacy octal escape
      return '\0';
    }
    if (e === 'x' && /^[0-9a-fA-F]{2}/.test(src.slice(this.i, this.i + 2))) {
      this.i += 2;
      return String.fromCharCode(parseInt(src.slice(this.i - 2, this.i), 16));
    }
    if (e === 'u') {
      if (/^[0-9a-fA-F]{4}/.test(src.slice(this.i, this.i + 4))) {
        const code = parseInt(src.slice(this.i, this.i + 4), 16);
        this.i += 4;
        if (code >= 0xd800 && code <= 0xdfff) throw new Unsupported(); // half of a pair (one atom under `u`)
        return String.fromCharCode(code);
      }
      throw new Unsupported(); // \u{…}, or a malformed one
    }
    if (e === 'c') {
      if (/[A-Za-z]/.test(src[this.i] ?? '')) return String.fromCharCode(src.charCodeAt(this.i++) % 32);
      throw new Unsupported();
    }
    if (/[A-Za-z]/.test(e)) {
      if (this.unicode) throw new Unsupported();
      return e; // Annex B identity escape of a letter
    }
    return e;
  }

  /** A class `[…]` (the `[` consumed): a set of characters, or "any" when negated or too large. */
  private charClass(): Info {
    const src = this.src;
    const negated = src[this.i] === '^';
    if (negated) this.i++;
    let set = '';
    let any = false;
    while (this.i < src.length && src[this.i] !== ']') {
      const from = this.classAtom();
      if (src[this.i] === '-' && this.i + 1 < src.length && src[this.i + 1] !== ']') {
        this.i++;
        const to = this.classAtom();
        if (from.length !== 1 || to.length !== 1) {
          if (this.unicode) throw new Unsupported();
          any = true; // `[\w-x]`: a literal `-` beside a class escape (Annex B); not modelled
          continue;
        }
        const a = from.charCodeAt(0);
        const b = to.charCodeAt(0);
        if (b < a) throw new Unsupported();
        if (b - a >= MAX_CLASS) any = true;
        else for (let k = a; k <= b; k++) set += String.fromCharCode(k);
      } else if (from === ANY_CLASS) any = true;
      else set += from;
    }
    if (src[this.i] !== ']') throw new Unsupported();
    this.i++;
    // `[]` matches nothing, `[^…]` nearly anything: "any" is true of both.
    if (negated || any || set.length === 0) return ANY;
    return this.chars(set);
  }

  /**
   * One item of a class (consumed): a character, the characters of \d \w \s (more than one),
   * or ANY_CLASS for an escape not modelled (\D \W \S \p{…}).
   */
  private classAtom(): string {
    const src = this.src;
    const c = src[this.i++];
    if (c !== '\\') {
      if (c >= '\ud800' && c <= '\udfff') throw new Unsupported();
      return c;
    }
    const e = src[this.i++];
    if (e === undefined) throw new Unsupported();
    if (e === 'd') return DIGITS;
    if (e === 'w') return WORD;
    if (e === 's') return SPACE;
    if (e === 'D' || e === 'W' || e === 'S') return ANY_CLASS;
    if (e === 'p' || e === 'P') {
      if (!this.unicode) return e;
      this.i = src.indexOf('}', this.i) + 1;
      if (this.i === 0) throw new Unsupported();
      return ANY_CLASS;
    }
    if (e === 'b') return '\b';
    if (e === '-') return '-';
    if (/[1-9]/.test(e)) throw new Unsupported(); // octal in a class
    if (e === 'k' && !this.unicode) return 'k';
    return this.escapedChar(e);
  }
}

/**
 * A character this common or more (lower case, digits, blanks) keys no probe: it is in most
 * lines, so its indexOf would not spare the probe's RegExp. Upper case and punctuation qualify.
 */
const MAX_KEY_SHARE = 0.01;

/**
 * One step of a needle gate: a rare character searched with indexOf (a native scan), and a
 * RegExp of the factors that hold it, run only on lines where it occurs. A RegExp of all the
 * factors at once is slower than the rules it would spare (V8 tries every alternative whose
 * first position is a class, at every position of the line: ~300 ns on a 64-character line).
 */
export interface Probe {
  key: string;
  re: RegExp;
}

/** The characters `f` may be keyed on: positions holding one character, rare enough. */
function keyCandidates(f: Factor): string[] {
  return f.filter((s) => s.length === 1 && charShare(s) <= MAX_KEY_SHARE);
}

/** True when every factor of the set has a key character: the set can be probed. */
export function probeable(set: readonly Factor[]): boolean {
  return set.length > 0 && set.every((f) => keyCandidates(f).length > 0);
}

/** Probes, and one RegExp (a class) matching the lines that hold any of their keys (undefined: no probe). */
export interface Probes {
  probes: Probe[];
  keys: RegExp | undefined;
  /**
   * One class holding every probe key and one character of every literal (undefined: neither):
   * a line without any of them holds no literal and no factor, so the gate is shut after one
   * native scan instead of two (the literals' alternation, then the keys' class). Most lines of
   * a build hold none (`Compiling module 000000123 …`).
   */
  any: RegExp | undefined;
}

/**
 * Lower-case letters from the most to the least frequent in English text: charShare gives them
 * all one share, but `severity`, `lvl` and `level` should be looked for by their `v`, not by an
 * `l` or `s` nearly every line holds.
 */
const LOWER_BY_FREQUENCY = 'etaoinsrhldcumfpgwybvkxjqz';

/** Rarer first: by charShare, lower-case letters by LOWER_BY_FREQUENCY. */
function rarer(a: string, b: string): boolean {
  const sa = charShare(a);
  const sb = charShare(b);
  return sa !== sb ? sa < sb : LOWER_BY_FREQUENCY.indexOf(a) > LOWER_BY_FREQUENCY.indexOf(b);
}

/**
 * The character a literal is looked for by in `Probes.any`: one of `chosen` (the probe keys, the
 * other literals' characters) when the literal holds one, so the class stays small; else its
 * rarest (`WARN` → `W` when `W` keys a probe, `severity` → `v`).
 */
function literalKey(literal: string, chosen: string): string {
  let best = literal[0];
  for (const c of literal) {
    if (chosen.includes(c)) return c;
    if (rarer(c, best)) best = c;
  }
  return best;
}

/**
 * Probes that together find every line holding a factor of one of `sets` (each probeable),
 * except factors holding one of `literals` (the gate searches for those already). Each factor
 * is keyed on the candidate character most factors share (then the rarer), so the timestamps
 * of many rules all hang on one `:` and one indexOf.
 */
export function buildProbes(sets: readonly (readonly Factor[])[], literals: readonly string[]): Probes {
  const lits: Factor[] = literals.map((l) => [...l]);
  const factors = sets.flat().filter((f) => !lits.some((l) => covers(l, f)));
  const count = new Map<string, number>();
  for (const f of factors) for (const c of new Set(keyCandidates(f))) count.set(c, (count.get(c) ?? 0) + 1);
  const groups = new Map<string, Factor[]>();
  for (const f of factors) {
    const cands = keyCandidates(f);
    if (cands.length === 0) throw new Error(`needle-set: factor ${needleSetSource([f])} has no key character`);
    const key = cands.reduce((a, b) => (count.get(b)! > count.get(a)! || (count.get(b) === count.get(a) && charShare(b) < charShare(a)) ? b : a));
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const probes = [...groups].map(([key, fs]) => ({ key, re: new RegExp(needleSetSource(simplify(fs))) }));
  const keys = probes.map((p) => p.key).join('');
  let any = keys;
  for (const l of literals) if (l.length > 0) any += literalKey(l, any);
  // An empty literal is in every line: no class can stand for it.
  const anyOk = any.length > 0 && literals.every((l) => l.length > 0);
  return { probes, keys: probes.length ? new RegExp(setSource(sortSet(keys))) : undefined, any: anyOk ? new RegExp(setSource(sortSet(any))) : undefined };
}

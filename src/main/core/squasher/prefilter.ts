/**
 * Literal prefilter for grammar rules: every RegExp gets, where one exists, a *needle* — a
 * literal substring that any line it matches must contain. `text.indexOf(needle)` is a native
 * memchr-speed scan, while a RegExp like `^\s*[^\s:][^:]*?:\d+: error: ` walks a long
 * line with backtracking even when it cannot match; and one combined RegExp with an
 * unanchored alternative (a progress-bar rule) retries every alternative at every position.
 * A rule whose needle is absent is skipped without running its RegExp, so the result is
 * exactly the same as running every rule in order: only provably failing tests are left out.
 */
import type { CompiledRule } from '../grammar/types.js';

/**
 * The longest literal that every match of `re` contains, or undefined when none can be read
 * off safely. Read: literal characters and identity escapes, not followed by a quantifier, at
 * the top level or inside a group that must match (no alternation in it, not optional, not a
 * lookaround). Conservative, so a returned needle is always mandatory. With the `i` flag only
 * characters without case (ASCII punctuation, digits, space) count.
 */
export function literalNeedle(re: RegExp): string | undefined {
  if (re.flags.includes('v')) return undefined; // set notation: different class syntax
  const best = needleIn(re.source, re.flags.includes('i'));
  return best ? best : undefined;
}

/** Characters that are rare in tool output lines: good first characters for a needle. */
const RARE_START = /[:;*()[\]{}<>#@!?=|`'"~^$%&\\]/;

/**
 * Any part of a mandatory literal is mandatory too. indexOf looks for the needle's first
 * character natively, so a needle should start with a character that is rare in output: from
 * the first uncommon punctuation if any (` ... FAILED` → `... FAILED`), else after leading blanks.
 */
function trimNeedle(run: string): string {
  const rare = run.search(RARE_START);
  if (rare > 0) return run.slice(rare);
  return rare < 0 ? run.trimStart() : run;
}

/** The better of two needles: one starting with a rare character, else the longer. */
function better(a: string, b: string): string {
  const ra = a.length > 0 && RARE_START.test(a[0]);
  const rb = b.length > 0 && RARE_START.test(b[0]);
  if (ra !== rb) return ra ? a : b;
  return b.length > a.length ? b : a;
}

/** The best mandatory literal of a pattern (or group body); '' when none; undefined if unsure. */
function needleIn(src: string, ignoreCase: boolean): string | undefined {
  let best = '';
  let run = '';
  const endRun = () => {
    best = better(best, trimNeedle(run));
    run = '';
  };
  const literal = (c: string) => {
    if (ignoreCase && !/^[\x20-\x40\x5b-\x60\x7b-\x7e]$/.test(c)) endRun(); // may match another case
    else run += c;
  };
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '|') return ''; // alternation: nothing is mandatory
    if (c === '\\') {
      const e = src[i + 1];
      if (e === undefined) return undefined;
      i++;
      if (/[A-Za-z0-9_]/.test(e)) {
        // \d \w \s \b \n \x41 \u{…} \p{…} \k<…> \1 …: not a literal (skip its argument if any)
        endRun();
        if (e === 'k' && src[i + 1] === '<') i = src.indexOf('>', i);
        else if ((e === 'p' || e === 'P' || e === 'u') && src[i + 1] === '{') i = src.indexOf('}', i);
        if (i < 0) return undefined;
        continue;
      }
      literal(e);
    } else if (c === '(') {
      endRun();
      const close = skipGroup(src, i);
      if (close < 0) return undefined;
      const q = src[close + 1];
      const optional = q === '?' || q === '*' || (q === '{' && /^\{0*[,}]/.test(src.slice(close + 1)));
      const look = src.startsWith('(?=', i) || src.startsWith('(?!', i) || src.startsWith('(?<=', i) || src.startsWith('(?<!', i);
      if (!optional && !look) {
        const bodyStart = src.startsWith('(?:', i) ? i + 3 : src.startsWith('(?<', i) ? src.indexOf('>', i) + 1 : i + 1;
        const inner = needleIn(src.slice(bodyStart, close), ignoreCase);
        if (inner === undefined) return undefined;
        best = better(best, inner);
      }
      i = close;
    } else if (c === '[') {
      endRun();
      i = skipClass(src, i);
      if (i < 0) return undefined;
    } else if (c === '*' || c === '+' || c === '?' || c === '{') {
      // A quantified atom is not mandatory as written: drop the literal's last character.
      run = run.slice(0, -1);
      endRun();
      if (c === '{') {
        const close = src.indexOf('}', i);
        if (close >= 0 && /^\{\d*,?\d*\}$/.test(src.slice(i, close + 1))) i = close;
      }
    } else if (c === '.' || c === '^' || c === '$') {
      endRun();
    } else if (c === ')' || c === ']' || c === '}') {
      return undefined; // unbalanced: do not guess
    } else {
      literal(c);
    }
  }
  endRun();
  return best;
}

/**
 * True for a RegExp anchored at the line start by a literal, like `^npm `, `^\s*Running `,
 * `^(?:g?make)` or `^\(node:`: on a line that does not start so, it fails within a few
 * characters, so it is cheaper to run than to search the line for a needle first.
 */
export function failsFast(re: RegExp): boolean {
  if (re.flags.includes('i')) return false;
  return /^\^(?:\\s[*+])?(?:\(\?:)?(?:[^\\^$.|?*+()[\]{}]|\\[^A-Za-z0-9_])/.test(re.source);
}

/** Index of the `]` closing the class opened at `open`, or -1. */
function skipClass(src: string, open: number): number {
  for (let i = open + 1; i < src.length; i++) {
    if (src[i] === '\\') i++;
    else if (src[i] === ']') return i;
  }
  return -1;
}

/** Index of the `)` closing the group opened at `open` (classes and escapes respected), or -1. */
function skipGroup(src: string, open: number): number {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === '[') {
      i = skipClass(src, i);
      if (i < 0) return -1;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

/**
 * An ordered list of rules with their needles. `first(text)` returns the index of the first
 * rule (in order) whose RegExp matches, exactly like testing them one by one. Most lines match
 * no rule of a tier, so that answer is made cheap:
 *  - rules anchored by a literal (`failsFast`) are tested together in one combined RegExp;
 *  - other rules with a needle count only when the needle occurs in the line (a needle shared
 *    by several rules, or containing a shorter needle that is absent, is not searched again);
 *  - the remaining rules (no needle) are tested one by one: each alone is a simple scan,
 *    whereas in one combined RegExp an unanchored alternative retries them all at every position.
 * Only when one of these says "maybe" are the rules run in order to find the first match.
 */
export class RuleFilter<R extends CompiledRule> {
  readonly rules: readonly R[];
  /** True when the filter has no rule (callers skip the tier). */
  readonly empty: boolean;
  /** Per rule: index into `needles`, or -1 when the rule has no needle. */
  private readonly needleOf: Int32Array;
  private readonly needles: string[];
  /** Per needle: a shorter needle it contains (absent ⇒ this one is absent too), or -1. */
  private readonly parentOf: Int32Array;
  /** Per needle, for the line numbered `seenLine`: 1 present, 2 absent. */
  private readonly seen: Uint8Array;
  /** `seen` is valid for the line numbered `seenLine` (a counter instead of clearing it per line). */
  private readonly seenLine: Int32Array;
  private line = 0;
  /** The fails-fast rules combined (or undefined when none). */
  private readonly fastRe: RegExp | undefined;
  /** Per rule: 1 when it is part of `fastRe`. */
  private readonly isFast: Uint8Array;
  /** Rules that are neither fails-fast nor have a needle. */
  private readonly plain: readonly R[];

  constructor(rules: readonly R[]) {
    this.rules = rules;
    this.empty = rules.length === 0;
    const needles: string[] = [];
    this.needleOf = new Int32Array(rules.length).fill(-1);
    const fast: R[] = [];
    const plain: R[] = [];
    this.isFast = new Uint8Array(rules.length);
    rules.forEach((r, k) => {
      if (failsFast(r.re)) {
        fast.push(r);
        this.isFast[k] = 1;
        return;
      }
      const n = literalNeedle(r.re);
      if (n === undefined) {
        plain.push(r);
        return;
      }
      let at = needles.indexOf(n);
      if (at < 0) at = needles.push(n) - 1;
      this.needleOf[k] = at;
    });
    this.needles = needles;
    this.parentOf = new Int32Array(needles.length).fill(-1);
    needles.forEach((n, k) => {
      let best = -1;
      needles.forEach((m, j) => {
        if (j !== k && m.length < n.length && n.includes(m) && (best < 0 || m.length > needles[best].length)) best = j;
      });
      this.parentOf[k] = best;
    });
    this.seen = new Uint8Array(needles.length);
    this.seenLine = new Int32Array(needles.length);
    // Fast rules that cannot be combined faithfully (mixed `u`) stay apart, tested one by one.
    const fastRe = combine(fast);
    this.fastRe = fastRe;
    this.plain = fastRe || fast.length === 0 ? plain : [...fast, ...plain];
    if (!fastRe) this.isFast.fill(0);
  }

  /** Index of the first rule matching `text`, or -1. */
  first(text: string): number {
    const rules = this.rules;
    const n = rules.length;
    if (n === 0) return -1;
    this.line = (this.line + 1) | 0 || 1;
    // When the combined fails-fast RegExp says no, none of those rules is run again below.
    const fastHit = this.fastRe !== undefined && this.fastRe.test(text);
    if (!fastHit && !this.mayMatchSlow(text)) return -1;
    for (let k = 0; k < n; k++) {
      if (this.isFast[k] === 1 && !fastHit) continue;
      const nd = this.needleOf[k];
      if (nd >= 0 && !this.present(nd, text)) continue;
      if (rules[k].re.test(text)) return k;
    }
    return -1;
  }

  /** Whether a rule that is not fails-fast may match: a needle occurs, or a plain rule matches. */
  private mayMatchSlow(text: string): boolean {
    for (let nd = 0; nd < this.needles.length; nd++) if (this.present(nd, text)) return true;
    const plain = this.plain;
    for (let k = 0; k < plain.length; k++) if (plain[k].re.test(text)) return true;
    return false;
  }

  private present(nd: number, text: string): boolean {
    if (this.seenLine[nd] === this.line) return this.seen[nd] === 1;
    const parent = this.parentOf[nd];
    const yes = (parent < 0 || this.present(parent, text)) && text.indexOf(this.needles[nd]) >= 0;
    this.seen[nd] = yes ? 1 : 2;
    this.seenLine[nd] = this.line;
    return yes;
  }
}

/**
 * One RegExp that matches whenever any rule matches (a yes/no gate; which rule is found
 * afterwards, so a gate that says yes too often costs time, never correctness). Named groups
 * are renamed away (duplicates across rules are illegal) and back-references dropped (both
 * only widen it); the union of `i`/`m`/`s` flags only widens it on one line. Rules that
 * disagree on `u` get no gate (undefined): `u` changes what `.` or `[^…]` match.
 */
export function combine(rules: readonly CompiledRule[]): RegExp | undefined {
  if (rules.length === 0) return undefined;
  if (rules.length === 1) return rules[0].re;
  const unicode = rules[0].re.unicode;
  if (rules.some((r) => r.re.unicode !== unicode || r.re.flags.includes('v'))) return undefined;
  const flags = new Set<string>();
  for (const r of rules) for (const f of r.re.flags) if (f !== 'g' && f !== 'y' && f !== 'd') flags.add(f);
  const sources = rules.map((r) => `(?:${r.re.source.replace(/\(\?<([A-Za-z_$][\w$]*)>/g, '(?:').replace(/\\k<[A-Za-z_$][\w$]*>/g, '')})`);
  try {
    return new RegExp(sources.join('|'), [...flags].join(''));
  } catch {
    return undefined;
  }
}

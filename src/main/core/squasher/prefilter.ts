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
import { fromPlan, LeadGate, leadGatePlan, lineLead, leadShare, regExpPlan, type LeadGatePlan, type LineLead, type RegExpPlan } from './line-lead.js';
import { buildProbes, charShare, needleSet, probeable, type Factor, type Probe, type Probes } from './needle-set.js';
import { skipClass, skipGroup, topLevelBranches } from './regex-source.js';

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

/** Needles this long or longer go in the gate (a one- or two-character needle, `:` or `: `, is in most lines: the gate would pass anyway). */
const MIN_GATED_NEEDLE = 3;
/** A gate pays for itself from this many needles (one indexOf is as cheap as one RegExp search). */
const MIN_GATE_NEEDLES = 3;
/**
 * A tail gate (tailGate below) pays for itself from this many rules: it replaces their
 * needle tests and RegExp runs by one search on most lines (the log-level rules every command
 * gets after its tool's: 26 rules, ~250 ns a line cargo's grammar leaves unclaimed).
 */
const MIN_TAIL_GATE_RULES = 4;
/**
 * A quick rule is gated by its line lead (line-lead.ts) only when lines start with one of its
 * first characters this rarely (charShare summed): the digits and `[` (~0.2) shut the gate on
 * most build lines; a lead of letters would open it on most and cost the test for nothing.
 */
const MAX_LEAD_SHARE = 0.25;

function escapeSource(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/**
 * An ordered list of rules. `first(text)` returns the index of the first rule (in order) whose
 * RegExp matches, exactly like testing them one by one, with as few native calls per line as
 * possible (a call costs more than the scan on most lines):
 *  - rules anchored at the line start that fail within a few characters on other lines
 *    (`^npm `, `^\s*Running `, `^[ar] - `, and needle-less ones like `^\s*\d{1,3}\s+…`) run
 *    together as ONE RegExp `^(?:(?:a)()|(?:b)()|…)`: anchored alternatives are tried in
 *    order at position 0, so the first one that matches is the first of those rules that
 *    matches, and its empty marker group says which it is;
 *  - every other rule runs alone, in order, only while it comes before that anchored match,
 *    and only when its needle occurs in the line (a needle shared by several rules, or
 *    containing a shorter needle that is absent, is not searched again);
 *  - rules that cannot be combined faithfully (back-references, a top-level `|`, flags other
 *    than the group's) run alone, in order, like any other.
 */
export class RuleFilter<R extends CompiledRule> {
  readonly rules: readonly R[];
  /** True when the filter has no rule. */
  readonly empty: boolean;
  private readonly needles: string[];
  /** Per needle: a shorter needle it contains (absent ⇒ this one is absent too), or -1. */
  private readonly parentOf: Int32Array;
  /** Per needle, for the line numbered `seenLine`: 1 present, 2 absent. */
  private readonly seen: Uint8Array;
  /** `seen` is valid for the line numbered `seenLine` (a counter instead of clearing it per line). */
  private readonly seenLine: Int32Array;
  private line = 0;
  /** Combined anchored rules, one RegExp per flag set (usually one). */
  private readonly combined: Combined[];
  /** Rules run alone, ascending, with their needle index (-1: none). */
  private readonly alone: Int32Array;
  private readonly aloneNeedle: Int32Array;

  /**
   * `setsFrom`: only rules from this index on may be gated by their needle sets (the always-on
   * log-level rules, after a tool's): a tool's progress rules keyed on upper-case letters
   * (`Downloading`, `Extracting`) would pull a dozen probes into the gate that most lines open,
   * and split the tool's anchored rules into two combinations (make's lines: 0.58x).
   */
  constructor(rules: readonly R[], options: { setsFrom?: number } = {}) {
    const setsFrom = options.setsFrom ?? 0;
    this.rules = rules;
    this.empty = rules.length === 0;
    // The plan of a built-in rule list comes from the build (needle-table.ts); one this Node's
    // RegExp compiler would refuse (another version's syntax) is made here as for any other list.
    const plan = precomputedPlan?.(rules, setsFrom);
    let made: ReturnType<typeof fromFilterPlan> | undefined;
    if (plan) {
      try {
        made = fromFilterPlan(plan);
      } catch {
        // read below
      }
    }
    made ??= fromFilterPlan(filterPlan(rules, setsFrom));
    this.combined = made.combined;
    this.alone = made.alone;
    this.aloneNeedle = made.aloneNeedle;
    this.needles = made.needles;
    this.parentOf = made.parentOf;
    this.seen = made.seen;
    this.seenLine = made.seenLine;
    this.gated = made.gated;
    this.gate = made.gate;
    this.tailFrom = made.tailFrom;
    this.rootOf = made.rootOf;
    this.runEnd = made.runEnd;
    this.tailNeedles = made.tailNeedles;
    this.tailAnchored = made.tailAnchored;
    this.tailProbes = made.tailProbes;
    this.tailKeys = made.tailKeys;
    this.tailAny = made.tailAny;
  }

  /**
   * From this position in `alone` on, and in the combinations marked `gated`, no rule can match
   * a line that neither `tailNeedles`, a probe of `tailProbes` nor `tailAnchored` matches: a few
   * searches on most lines instead of a needle test or a RegExp run per rule (`alone.length`: no
   * tail gate). Separate RegExps, not one: in one, the anchored part is tried at every position
   * of the line (twice the time on cargo's lines), and the needle sets' classes at every position.
   */
  private readonly tailFrom: number;
  private readonly tailNeedles: RegExp | undefined;
  private readonly tailAnchored: RegExp | undefined;
  private readonly tailProbes: readonly Probe[];
  /** Any key of `tailProbes` (one class): most lines hold none, and one search beats an indexOf per key. */
  private readonly tailKeys: RegExp | undefined;
  /** A key of `tailProbes` or a character of each of `tailNeedles` (one class): a line without one meets neither. */
  private readonly tailAny: RegExp | undefined;

  /** Per needle: the shortest needle it contains through `parentOf` (itself if none). */
  private readonly rootOf: Int32Array;
  /**
   * Per position in `alone`: where the run of rules from there whose needles share one root
   * ends. A line without that root holds none of their needles: skipped in one step (make's
   * twelve compiler and linker rules all hang on `: `, absent from its 5,000 recipe lines).
   */
  private readonly runEnd: Int32Array;

  /** Does `text` meet a condition of the tail gate? */
  private tailOpen(text: string): boolean {
    if (this.tailAny !== undefined && !this.tailAny.test(text)) return this.tailAnchored !== undefined && this.tailAnchored.test(text);
    if (this.tailNeedles !== undefined && this.tailNeedles.test(text)) return true;
    if (this.tailKeys !== undefined && this.tailKeys.test(text)) {
      const probes = this.tailProbes;
      for (let p = 0; p < probes.length; p++) if (text.indexOf(probes[p].key) >= 0 && probes[p].re.test(text)) return true;
    }
    return this.tailAnchored !== undefined && this.tailAnchored.test(text);
  }

  /** Per needle: 1 when the gate covers it (its absence follows from the gate failing). */
  private readonly gated: Uint8Array;
  /** One RegExp of the gated needles: most lines contain none, and one native search beats one indexOf per needle (~2.5x on build logs). */
  private readonly gate: RegExp | undefined;
  /** The gate's answer for the line numbered `gateLine`. */
  private gateLine = 0;
  private gateHit = false;

  /** Index of the first rule matching `text`, or -1. */
  first(text: string): number {
    const rules = this.rules;
    // The first combined (anchored) rule that matches bounds the answer.
    let limit = rules.length;
    // The tail gate's answer for this line, asked at most once: 0 not yet, 1 open, 2 shut.
    let gate = 0;
    const combined = this.combined;
    for (let c = 0; c < combined.length; c++) {
      const cc = combined[c];
      // Rules are ascending in each combination: one whose first rule comes after an earlier
      // combination's match cannot change the answer (npm's lines skip the log-level rules' one).
      if (cc.ruleOf[0] > limit) continue;
      if (cc.gated) {
        if (gate === 0) gate = this.tailOpen(text) ? 1 : 2;
        if (gate === 2) continue;
      }
      if (cc.lead !== undefined && !cc.lead.open(text)) continue;
      const alt = cc.firstMatch(text);
      if (alt < 0) continue;
      const k = cc.ruleOf[alt];
      if (k < limit) limit = k;
    }
    const alone = this.alone;
    if (alone.length > 0 && alone[0] < limit) {
      this.line = (this.line + 1) | 0 || 1;
      const aloneNeedle = this.aloneNeedle;
      for (let j = 0; j < alone.length; j++) {
        const k = alone[j];
        if (k >= limit) break;
        if (j === this.tailFrom) {
          if (gate === 0) gate = this.tailOpen(text) ? 1 : 2;
          if (gate === 2) break;
        }
        const nd = aloneNeedle[j];
        if (nd >= 0 && !this.present(nd, text)) {
          const end = this.runEnd[j];
          if (end > j + 1 && !this.present(this.rootOf[nd], text)) j = end - 1;
          continue;
        }
        if (rules[k].re.test(text)) return k;
      }
    }
    return limit < rules.length ? limit : -1;
  }

  private present(nd: number, text: string): boolean {
    if (this.seenLine[nd] === this.line) return this.seen[nd] === 1;
    if (this.gated[nd] === 1) {
      if (this.gateLine !== this.line) {
        this.gateLine = this.line;
        this.gateHit = this.gate!.test(text);
      }
      if (!this.gateHit) return false;
    }
    const parent = this.parentOf[nd];
    const yes = (parent < 0 || this.present(parent, text)) && text.indexOf(this.needles[nd]) >= 0;
    this.seen[nd] = yes ? 1 : 2;
    this.seenLine[nd] = this.line;
    return yes;
  }
}

/** A combination of anchored rules as plain data (FilterPlan). */
interface CombinedPlan {
  re: RegExpPlan;
  bodies: string[];
  flags: string;
  ruleOf: number[];
  gated: boolean;
  lead?: LeadGatePlan;
}

/**
 * What a RuleFilter is made of, as plain data (every RegExp by its source and flags): what
 * reading its rules gives (filterPlan), the same for the same rules and `setsFrom`. The build
 * stores the plans of the built-in rule lists (needle-table.ts): reading the always-on rules was
 * ~4 ms of a fresh `mish <cmd>`, and enough of it that V8 optimised the readers on its
 * compiler threads.
 */
export interface FilterPlan {
  needles: string[];
  parentOf: number[];
  combined: CombinedPlan[];
  alone: number[];
  aloneNeedle: number[];
  /** The needles the gate covers, and the gate (when it covers enough of them). */
  gated: number[];
  gate?: RegExpPlan;
  tail?: { from: number; needles?: RegExpPlan; anchored?: RegExpPlan; probes: { key: string; re: RegExpPlan }[]; keys?: RegExpPlan; any?: RegExpPlan };
}

/** Looks a rule list's plan up (needle-table.ts installs it), or undefined: read the rules. */
export type FilterPlanLookup = (rules: readonly CompiledRule[], setsFrom: number) => FilterPlan | undefined;

let precomputedPlan: FilterPlanLookup | undefined;

/** Installs (undefined: removes) the source of precomputed plans. */
export function usePrecomputedFilterPlans(lookup: FilterPlanLookup | undefined): void {
  precomputedPlan = lookup;
}

/** The key a rule list's plan is stored under: what filterPlan reads of it (the RegExps' flags and sources, and `setsFrom`). */
export function filterPlanKey(rules: readonly CompiledRule[], setsFrom: number): string {
  let key = `${setsFrom}`;
  for (const r of rules) key += `\n${r.re.flags}/${r.re.source}`;
  return key;
}

/** What a RuleFilter of `rules` is made of (see RuleFilter and its constructor's parameters). */
export function filterPlan(rules: readonly CompiledRule[], setsFrom = 0): FilterPlan {
  const needles: string[] = [];
  const byFlags = new Map<string, number[]>();
  const alone: number[] = [];
  const aloneNeedle: number[] = [];
  const sources = rules.map((r) => anchoredSource(r.re));
  const literal = rules.map((r) => literalNeedle(r.re));
  // Needle sets a tail gate can probe (needle-set.ts): read only where a single needle is no
  // good and the tail walk asks (reading costs ~0.1 ms a rule in a fresh process).
  const sets = (k: number): Factor[] | undefined => {
    if (k < setsFrom || (literal[k] !== undefined && literal[k]!.length >= MIN_GATED_NEEDLE)) return undefined;
    const set = needleSet(rules[k].re);
    return set && probeable(set) ? set : undefined;
  };
  // Anchored rules that fail within a few characters, or have no needle, run combined.
  const quick = rules.map((r, k) => sources[k] !== undefined && (literal[k] === undefined || failsFast(r.re) || startsWithClass(r.re)));
  // So does one with a needle of one character that opens cheaply, but not where a tail gate
  // takes the rules alone (the log-level rules: their gate is cheaper still).
  // A quick rule the gate may cover, so that its combination is asked only when the gate opens.
  // Line leads (line-lead.ts) of the always-on quick rules the tail gate cannot cover
  // (log-info-after-time: digits first, no rare piece), read once.
  const leadOf: (LineLead | null | undefined)[] = [];
  const leads = (k: number): LineLead | undefined => {
    if (k < setsFrom || sources[k] === undefined) return undefined;
    if (leadOf[k] === undefined) {
      const lead = lineLead(rules[k].re, sources[k]);
      leadOf[k] = lead && leadShare(lead.lead, charShare) <= MAX_LEAD_SHARE ? lead : null;
    }
    return leadOf[k] ?? undefined;
  };
  const gateable = (k: number) => k >= setsFrom && coveredQuick(literal[k], () => sets(k));
  const tailStart = tailStartRule(rules, quick, literal, sets, gateable);
  rules.forEach((r, k) => {
    const needle = literal[k];
    const cheap = !quick[k] && k < tailStart && needle !== undefined && needle.length === 1 && r.re.flags === '' && sources[k] !== undefined && opensCheaply(sources[k]!.slice(1));
    let at = -1;
    if (needle !== undefined && !quick[k]) {
      // (Also the needle of a rule combined for opening cheaply: a longer needle containing it keeps it as its parent.)
      at = needles.indexOf(needle);
      if (at < 0) at = needles.push(needle) - 1;
    }
    if (quick[k] || cheap) {
      // A quick rule in the tail with a needle set: in a combination asked only when the tail gate opens.
      // One the gate cannot cover but with a line lead: in a combination asked only when a lead opens it.
      const gated = quick[k] && k >= tailStart && gateable(k);
      const key = `${r.re.flags}${gated ? GATED_COMBINATION : quick[k] && leads(k) !== undefined ? LEAD_COMBINATION : ''}`;
      const list = byFlags.get(key) ?? [];
      list.push(k);
      byFlags.set(key, list);
      return;
    }
    alone.push(k);
    aloneNeedle.push(at);
  });
  const combined: CombinedPlan[] = [];
  for (const [key, list] of byFlags) {
    const flags = key.replace(GATED_COMBINATION, '').replace(LEAD_COMBINATION, '');
    const c = combineAnchored(list.map((k) => sources[k]!), flags);
    const lead = key.endsWith(LEAD_COMBINATION) ? leadGatePlan(list.map((k) => leads(k)!)) : undefined;
    if (c) combined.push({ re: regExpPlan(c.re), bodies: c.bodies, flags, ruleOf: list, gated: key.endsWith(GATED_COMBINATION), ...(lead ? { lead } : {}) });
    else for (const k of list) {
      // Not combinable after all (the RegExp compiler refused it): run alone, in order.
      const needle = literalNeedle(rules[k].re);
      let at = -1;
      if (needle !== undefined) {
        at = needles.indexOf(needle);
        if (at < 0) at = needles.push(needle) - 1;
      }
      const pos = alone.findIndex((j) => j > k);
      alone.splice(pos < 0 ? alone.length : pos, 0, k);
      aloneNeedle.splice(pos < 0 ? aloneNeedle.length : pos, 0, at);
    }
  }
  const parentOf = needles.map((n, k) => {
    let best = -1;
    needles.forEach((m, j) => {
      if (j !== k && m.length < n.length && n.includes(m) && (best < 0 || m.length > needles[best].length)) best = j;
    });
    return best;
  });
  const gatedNeedles = needles.map((n, k) => (n.length >= MIN_GATED_NEEDLE && parentOf[k] < 0 ? k : -1)).filter((k) => k >= 0);
  const gating = gatedNeedles.length >= MIN_GATE_NEEDLES;
  const gatedCombined = combined.filter((c) => c.gated).flatMap((c) => c.ruleOf);
  const tail = tailGate(rules, Int32Array.from(alone), Int32Array.from(aloneNeedle), needles, sets, gatedCombined);
  if (!tail) for (const c of combined) c.gated = false;
  const plan: FilterPlan = { needles, parentOf, combined, alone, aloneNeedle, gated: gating ? gatedNeedles : [] };
  if (gating) plan.gate = regExpPlan(new RegExp(gatedNeedles.map((k) => escapeSource(needles[k])).join('|')));
  if (tail) {
    plan.tail = { from: tail.from, probes: tail.probes.map((p) => ({ key: p.key, re: regExpPlan(p.re) })) };
    if (tail.needles) plan.tail.needles = regExpPlan(tail.needles);
    if (tail.anchored) plan.tail.anchored = regExpPlan(tail.anchored);
    if (tail.keys) plan.tail.keys = regExpPlan(tail.keys);
    if (tail.any) plan.tail.any = regExpPlan(tail.any);
  }
  return plan;
}

/** A RuleFilter's parts, made from its plan (throws where this Node's RegExp compiler refuses one). */
function fromFilterPlan(plan: FilterPlan) {
  const needles = plan.needles;
  const alone = Int32Array.from(plan.alone);
  const aloneNeedle = Int32Array.from(plan.aloneNeedle);
  const parentOf = Int32Array.from(plan.parentOf);
  const combined = plan.combined.map((c) => new Combined(fromPlan(c.re), c.bodies, c.flags, Int32Array.from(c.ruleOf), c.gated, c.lead ? new LeadGate(c.lead) : undefined));
  const gated = new Uint8Array(needles.length);
  for (const k of plan.gated) gated[k] = 1;
  const tailFrom = plan.tail ? plan.tail.from : alone.length;
  const rootOf = Int32Array.from(needles, (_, k) => {
    let r = k;
    while (parentOf[r] >= 0) r = parentOf[r];
    return r;
  });
  // Runs of rules whose needles share a root, not across the tail gate (checked where the tail starts).
  const runEnd = new Int32Array(alone.length);
  for (let j = alone.length - 1; j >= 0; j--) {
    const nd = aloneNeedle[j];
    const next = j + 1 < alone.length && j + 1 !== tailFrom ? aloneNeedle[j + 1] : -1;
    runEnd[j] = nd >= 0 && next >= 0 && rootOf[next] === rootOf[nd] ? runEnd[j + 1] : j + 1;
  }
  const t = plan.tail;
  const re = (p: RegExpPlan | undefined) => (p === undefined ? undefined : fromPlan(p));
  return {
    needles,
    alone,
    aloneNeedle,
    parentOf,
    combined,
    seen: new Uint8Array(needles.length),
    seenLine: new Int32Array(needles.length),
    gated,
    gate: re(plan.gate),
    tailFrom,
    rootOf,
    runEnd,
    tailNeedles: re(t?.needles),
    tailAnchored: re(t?.anchored),
    tailProbes: t ? t.probes.map((p): Probe => ({ key: p.key, re: fromPlan(p.re) })) : [],
    tailKeys: re(t?.keys),
    tailAny: re(t?.any),
  };
}

/**
 * The first rule of the tail the gate would cover, or `rules.length` when it would cover fewer
 * than MIN_TAIL_GATE_RULES: the walk of tailGate from the end, before the rules are placed
 * (`quick`: run combined). A quick rule with a needle set is covered (its combination is then
 * asked only when the gate opens); one without is passed over (its combination is asked on
 * every line, as before there was a gate).
 */
function tailStartRule(
  rules: readonly CompiledRule[],
  quick: readonly boolean[],
  literal: readonly (string | undefined)[],
  sets: (k: number) => Factor[] | undefined,
  gateable: (k: number) => boolean,
): number {
  let start = rules.length;
  let count = 0;
  for (let k = rules.length - 1; k >= 0; k--) {
    if (quick[k] && !gateable(k)) continue;
    if (!quick[k] && condition(rules[k], literal[k], () => sets(k)) === undefined) break;
    start = k;
    count++;
  }
  return count >= MIN_TAIL_GATE_RULES ? start : rules.length;
}

/** True when the tail gate can cover a quick (combined) rule: by its needle when long enough, else its needle set. */
function coveredQuick(needle: string | undefined, set: () => Factor[] | undefined): boolean {
  return (needle !== undefined && needle.length >= MIN_GATED_NEEDLE) || set() !== undefined;
}

/** Marks a combination key (flags + this) whose rules the tail gate covers. */
const GATED_COMBINATION = '\0gated';
/**
 * Marks a combination key (flags + this) of rules the tail gate cannot cover but a line lead
 * can: apart from the tail gate, whose conditions a lead would widen (rustc's `|` context lines
 * would open it for every log-level rule: cargo's lines 0.91x when the lead was one of them).
 */
const LEAD_COMBINATION = '\0lead';

/**
 * What a rule run alone gives the tail gate: its needle when long enough to be rare
 * (MIN_GATED_NEEDLE), else its needle set (probed: needle-set.ts), else its own anchored body
 * when it has no flags (`^…` tried at the line start only); undefined when none.
 */
function condition(rule: CompiledRule, needle: string | undefined, setOf: () => Factor[] | undefined): { needle: string } | { set: Factor[] } | { anchored: string } | undefined {
  if (needle !== undefined && needle.length >= MIN_GATED_NEEDLE) return { needle };
  const set = setOf();
  if (set) return { set };
  const src = rule.re.flags === '' ? anchoredSource(rule.re) : undefined;
  const body = src === undefined ? undefined : uncapture(src.slice(1));
  return body === undefined ? undefined : { anchored: body };
}

/**
 * The tail gate of the rules run alone (`alone`: their indexes, ascending; `aloneNeedle`: their
 * needles' indexes in `needles`, -1 for none) and of the combined rules `gatedCombined` (each
 * with a needle set): the longest run of alone rules, at the end, of which each has a
 * condition (see `condition`) every line it matches meets, and the searches that together find
 * exactly the lines meeting one of the conditions: one RegExp of the needles, probes of the
 * needle sets, one RegExp of the anchored bodies (`^(?:[\w.-]+\s*\|\s?)?[EF]\d{4} `, whose
 * needle is `:`). Undefined when fewer than MIN_TAIL_GATE_RULES rules are covered or the RegExp
 * compiler refuses one.
 */
function tailGate(
  rules: readonly CompiledRule[],
  alone: Int32Array,
  aloneNeedle: Int32Array,
  needles: readonly string[],
  sets: (k: number) => Factor[] | undefined,
  gatedCombined: readonly number[],
): ({ from: number; needles?: RegExp; anchored?: RegExp } & Probes) | undefined {
  const literals = new Set<string>();
  const anchored: string[] = [];
  const probed: Factor[][] = [];
  const add = (c: NonNullable<ReturnType<typeof condition>>) => {
    if ('needle' in c) literals.add(c.needle);
    else if ('set' in c) probed.push(c.set);
    else anchored.push(c.anchored);
  };
  // A gated combination's rule has a long needle or a set (coveredQuick). Probed, not added to
  // the needles' RegExp: V8 scans a few words whose first letters differ fast (~25 ns a line),
  // but a longer list, or one with punctuation (`", line `), ~4x slower.
  for (const k of gatedCombined) probed.push(sets(k) ?? [[...literalNeedle(rules[k].re)!]]);
  let from = alone.length;
  for (let j = alone.length - 1; j >= 0; j--) {
    const needle = aloneNeedle[j] >= 0 ? needles[aloneNeedle[j]] : undefined;
    const c = condition(rules[alone[j]], needle, () => sets(alone[j]));
    if (c === undefined) break;
    add(c);
    from = j;
  }
  if (alone.length - from + gatedCombined.length < MIN_TAIL_GATE_RULES) return undefined;
  try {
    return {
      from,
      needles: literals.size ? new RegExp([...literals].map(escapeSource).join('|')) : undefined,
      anchored: anchored.length ? new RegExp(`^(?:${anchored.map((b) => `(?:${b})`).join('|')})`) : undefined,
      ...buildProbes(probed, [...literals]),
    };
  } catch {
    return undefined;
  }
}

/**
 * True when `re` can be one alternative of an anchored combination with the same meaning: its
 * source starts with `^` that anchors all of it (no top-level `|`), it has no back-reference
 * (group numbers shift when combined) and no `m` flag (`^` would also match after U+2028).
 */
export function combinableAnchored(re: RegExp): boolean {
  const src = re.source;
  if (src[0] !== '^' || re.flags.includes('m') || re.flags.includes('v')) return false;
  if (/\\[1-9]|\\k</.test(src)) return false;
  return !hasTopLevelAlternation(src);
}

/**
 * The source of `re` as one anchored alternative, or undefined: its own source when
 * combinableAnchored, or `^(?:a|b)` for a top-level alternation whose every branch starts with
 * `^` (`^failures:$|^---- \S+ stdout ----$`). Such a RegExp is anchored, but V8 does not see it
 * and tries every position of the line; as `^(?:…)` it fails at position 0.
 */
export function anchoredSource(re: RegExp): string | undefined {
  if (combinableAnchored(re)) return re.source;
  const src = re.source;
  if (re.flags.includes('m') || re.flags.includes('v') || /\\[1-9]|\\k</.test(src)) return undefined;
  const branches = topLevelBranches(src);
  if (!branches || branches.length < 2 || !branches.every((b) => b[0] === '^')) return undefined;
  return `^(?:${branches.map((b) => b.slice(1)).join('|')})`;
}

/** `^` followed by an optional `\s*`/`\s+` and a positive character class or `\d`: fails at once on most lines. */
function startsWithClass(re: RegExp): boolean {
  return /^\^(?:\\s[*+])?(?:\[[^^]|\\d)/.test(re.source);
}

/**
 * True when an anchored source (its `^` removed) must start with a literal character, `\d` or a
 * positive class, after a leading `\s*`/`\s+` and optional groups, looking into a mandatory
 * group's every branch: `(?<file>(?:file:\/\/)?(?:\/|\.{1,2}\/|[A-Za-z]:\\|node:)…`, glog's
 * `(?:[\w.-]+\s*\|\s?)?[EF]\d{4} `. Such a rule fails within a few characters on most lines; with
 * a needle of one character (`:`, present in most lines) it is cheaper inside the combination
 * than run alone (node's throw-site rule ran on 8,000 of npm's 10,800 lines). Conservative:
 * anything else (`\S+`, `.`, a negated class, a repeated group) is false. Only for rules without
 * flags: the flagged ones' combination (`i`: the progress rules) is asked of most lines as it is,
 * and taking a rule's needle away can change what the needle gate holds.
 */
export function opensCheaply(src: string): boolean {
  let i = /^\\s[*+]/.test(src) ? 3 : 0;
  for (;;) {
    if (src[i] === '(') {
      const close = skipGroup(src, i);
      if (close < 0 || src.startsWith('(?=', i) || src.startsWith('(?!', i) || src.startsWith('(?<=', i) || src.startsWith('(?<!', i)) return false;
      const q = src[close + 1];
      if (q === '?' && src[close + 2] !== '?') {
        i = close + 2; // an optional group: what follows it must open cheaply too
        continue;
      }
      if (q === '*' || q === '+' || q === '?' || q === '{') return false;
      const bodyStart = src.startsWith('(?:', i) ? i + 3 : src.startsWith('(?<', i) ? src.indexOf('>', i) + 1 : i + 1;
      const branches = topLevelBranches(src.slice(bodyStart, close));
      return branches !== undefined && branches.every((b) => opensCheaply(b));
    }
    const atom = /^(?:[^\\^$.|?*+()[\]{}]|\\[^A-Za-z0-9_]|\\d|\[[^^\]](?:\\.|[^\]\\])*\])/.exec(src.slice(i));
    if (!atom) return false;
    const after = src[i + atom[0].length];
    return after !== '*' && after !== '?' && !(after === '{' && /^\{0*[,}]/.test(src.slice(i + atom[0].length)));
  }
}

function hasTopLevelAlternation(src: string): boolean {
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === '[') {
      i = skipClass(src, i);
      if (i < 0) return true; // malformed: do not combine
    } else if (c === '(') {
      i = skipGroup(src, i);
      if (i < 0) return true;
    } else if (c === '|') return true;
  }
  return false;
}

/**
 * The source with every capturing group, named or not, made non-capturing (outside classes
 * and escapes); undefined if malformed. Safe without back-references, which are not combined.
 */
function uncapture(src: string): string | undefined {
  let out = '';
  let copied = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === '[') {
      i = skipClass(src, i);
      if (i < 0) return undefined;
    } else if (c === '(' && src[i + 1] !== '?') {
      out += src.slice(copied, i) + '(?:';
      copied = i + 1;
    } else if (c === '(' && src[i + 1] === '?' && src[i + 2] === '<' && src[i + 3] !== '=' && src[i + 3] !== '!') {
      const close = src.indexOf('>', i);
      if (close < 0) return undefined;
      out += src.slice(copied, i) + '(?:';
      copied = close + 1;
      i = close;
    }
  }
  return out + src.slice(copied);
}

/**
 * `^(?:(?:a)()|(?:b)()|…)` from anchored sources (leading `^` removed, their own groups made
 * non-capturing), so the only captures are the empty markers, in order: the first one
 * defined (`match.indexOf('', 1)`, a native search) names the alternative that matched.
 * Undefined if the RegExp compiler refuses the combination.
 */
function combineAnchored(sources: string[], flags: string): { re: RegExp; bodies: string[] } | undefined {
  const bodies: string[] = [];
  for (const src of sources) {
    const body = uncapture(src.slice(1));
    if (body === undefined) return undefined;
    bodies.push(body);
  }
  try {
    return { re: new RegExp(`^(?:${bodies.map((b) => `(?:${b})()`).join('|')})`, flags), bodies };
  } catch {
    return undefined;
  }
}

/**
 * One combination of anchored rules, answering "which alternative matches first" (-1: none).
 * The answer comes from `exec` (the marker group that is defined), whose result array has an
 * element per alternative: building it was a third of the cost on lines that match (npm's, all
 * of them). Consecutive lines usually match the same alternative (`npm silly …` ten thousand
 * times), so that one is asked first with two tests and no array: it matches alone, and none
 * before it does (those before it, combined). Either test failing falls back to `exec`.
 */
class Combined {
  /** Alternative that matched the previous line, or -1. */
  private last = -1;
  /** Per alternative, lazily: it alone, and the ones before it combined (null: none before it). */
  private readonly alone: (RegExp | undefined)[] = [];
  private readonly before: (RegExp | null | undefined)[] = [];
  /** `test` on these RegExps means the same as the combination's exec (no lastIndex state). */
  private readonly memo: boolean;

  constructor(
    readonly re: RegExp,
    private readonly bodies: readonly string[],
    private readonly flags: string,
    readonly ruleOf: Int32Array,
    /** Its rules are covered by the tail gate: asked only when the gate opens (cleared when there is no gate). */
    public gated = false,
    /** Its rules' line leads: asked only on a line one of them lets through. */
    readonly lead?: LeadGate,
  ) {
    this.memo = !flags.includes('g') && !flags.includes('y');
  }

  firstMatch(text: string): number {
    const j = this.last;
    if (j >= 0 && this.aloneOf(j).test(text)) {
      const before = this.beforeOf(j);
      if (before === null || !before.test(text)) return j;
    }
    const m = this.re.exec(text);
    const alt = m === null ? -1 : m.indexOf('', 1) - 1;
    if (this.memo) this.last = alt;
    return alt;
  }

  private aloneOf(j: number): RegExp {
    return (this.alone[j] ??= new RegExp(`^(?:${this.bodies[j]})`, this.flags));
  }

  private beforeOf(j: number): RegExp | null {
    let b = this.before[j];
    if (b === undefined) b = this.before[j] = j === 0 ? null : new RegExp(`^(?:${this.bodies.slice(0, j).map((x) => `(?:${x})`).join('|')})`, this.flags);
    return b;
  }
}

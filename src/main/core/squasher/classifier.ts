/**
 * Classifier (seed: "Stage 3", three tiers, first match wins):
 *   1. line type — overwrite frames are noise unless a hazard/outcome rule claims them;
 *   2. grammar rules (hazard → outcome → noise) for the detected tool, action and dialect;
 *   3. universal patterns; 4. structural heuristics (decorative lines; default unknown).
 *
 * Speed: the prefilter (prefilter.ts) answers "first matching rule" with few native calls:
 * anchored rules in one combined RegExp, the others only on lines containing their needle.
 */
import { selectRules } from '../grammar/select-rules.js';
import type { CompiledHazardRule, CompiledNoiseRule, CompiledOutcomeRule, CompiledRule, Detection, Grammar } from '../grammar/types.js';
import { RuleFilter } from './prefilter.js';
import type { Classification, Line } from './types.js';
import { DECORATIVE, HAZARD_KEYWORDS, universalHazard } from './universal-patterns.js';

/**
 * Rules of one grammar narrowed to one action/dialect, followed by the rules applied to every
 * command (`grammars/_shared/log-levels.toml`: log levels). Tier 2 is one ordered list behind
 * one prefilter: the tool's hazard → outcome → noise strip → noise dedup rules, then the
 * always-on ones in the same order, so a tool's own grammar is always asked first. "First
 * matching rule of the first tier that has one" within each part is the first matching rule of
 * the list, and one filter shares its needle searches and combined anchored RegExp across them.
 */
export interface RuleSet {
  all: RuleFilter<CompiledRule>;
  /** Per index in `all`: what kind of rule it is. */
  kinds: Uint8Array;
  hazard: readonly CompiledHazardRule[];
  prompt: CompiledRule[];
  /** Indexes in `all` of the hazard rules with a `lead_noise` (leadRe), ascending; usually none. */
  leads: Int32Array;
}

/** Kinds of the rules in `RuleSet.all`. */
const enum RuleKind {
  Hazard = 0,
  Outcome = 1,
  Strip = 2,
  Dedup = 3,
}

/** The rule set of no rules, made on first use (not at module load: every `mish <cmd>` loads this module, few use it). */
let emptyRules: RuleSet | undefined;
const ruleSetCache = new WeakMap<object, WeakMap<object, RuleSet> | RuleSet>();
const NO_ALWAYS = {};

interface SelectedRules {
  hazard: readonly CompiledHazardRule[];
  outcome: readonly CompiledOutcomeRule[];
  noise: readonly CompiledNoiseRule[];
  prompt: readonly CompiledRule[];
}

/**
 * The detection's rules (selectRules narrows them to its action/dialect), then `always`'s
 * rules (a grammar applied to every command, with or without a detection), with the prefilter
 * (cached per pair).
 */
export function ruleSetFor(detection: Detection | undefined, always?: Grammar): RuleSet {
  const selected = detection ? selectRules(detection.grammar, detection.action, detection.dialect) : undefined;
  if (!selected && !always) return (emptyRules ??= { all: new RuleFilter([]), kinds: new Uint8Array(0), hazard: [], prompt: [], leads: new Int32Array(0) });
  const key1: object = selected ?? NO_ALWAYS;
  const key2: object = always ?? NO_ALWAYS;
  let inner = ruleSetCache.get(key1) as WeakMap<object, RuleSet> | undefined;
  if (!inner) ruleSetCache.set(key1, (inner = new WeakMap()));
  const cached = inner.get(key2);
  if (cached) return cached;
  const parts: SelectedRules[] = [];
  if (selected) parts.push(selected);
  if (always) parts.push(always);
  const rules: CompiledRule[] = [];
  const kinds: number[] = [];
  const hazard: CompiledHazardRule[] = [];
  const prompt: CompiledRule[] = [];
  // A rule the tool's grammar already has (the same shared file's rule, included by both) is
  // not tried twice: it could only match where it already failed.
  const seen = new Set<string>();
  // Where the always-on rules begin: only they are gated by needle sets (RuleFilter's setsFrom).
  let alwaysFrom = 0;
  for (const p of parts) {
    if (p === always) alwaysFrom = rules.length;
    const fresh = <T extends CompiledRule>(list: readonly T[]) => list.filter((r) => !seen.has(`${r.source}#${r.id}`));
    const add = (list: readonly CompiledRule[], kind: RuleKind) => {
      for (const r of list) {
        rules.push(r);
        kinds.push(kind);
      }
    };
    const h = fresh(p.hazard);
    const o = fresh(p.outcome);
    const n = fresh(p.noise);
    add(h, RuleKind.Hazard);
    add(o, RuleKind.Outcome);
    add(n.filter((r) => r.action === 'strip'), RuleKind.Strip);
    add(n.filter((r) => r.action === 'dedup'), RuleKind.Dedup);
    hazard.push(...h);
    prompt.push(...fresh(p.prompt));
    for (const r of [...p.hazard, ...p.outcome, ...p.noise, ...p.prompt]) seen.add(`${r.source}#${r.id}`);
  }
  const leads: number[] = [];
  rules.forEach((r, k) => {
    if (kinds[k] === RuleKind.Hazard && (r as CompiledHazardRule).leadRe) leads.push(k);
  });
  const set: RuleSet = { all: new RuleFilter<CompiledRule>(rules, { setsFrom: alwaysFrom }), kinds: Uint8Array.from(kinds), hazard, prompt, leads: Int32Array.from(leads) };
  inner.set(key2, set);
  return set;
}

/** Shared results for the classifications that carry no per-line data (no allocation per line). */
export const NOISE_STRIP_GRAMMAR: Classification = { kind: 'noise', action: 'strip', rule: 'grammar' };
const NOISE_DEDUP_GRAMMAR: Classification = { kind: 'noise', action: 'dedup', rule: 'grammar' };
const NOISE_OVERWRITE: Classification = { kind: 'noise', action: 'strip', rule: 'overwrite' };
const NOISE_DECORATIVE: Classification = { kind: 'noise', action: 'strip', rule: 'decorative' };
const UNKNOWN: Classification = { kind: 'unknown' };

/** Classify one line with the given rule set (tiers 1–4). The result must not be mutated. */
export function classifyLine(line: Line, rules: RuleSet): Classification {
  // A copy of a row that is delivered as well (its first drawing): nothing to classify twice.
  if (line.kind === 'repeat') return NOISE_OVERWRITE;
  const text = line.text;
  // Tier 2: grammar rules. They also see the final frame of overwritten lines, so an error or
  // a message printed over a progress bar is never dropped.
  if (!rules.all.empty) {
    const k = rules.all.first(text);
    if (rules.leads.length) {
      const led = leadHazard(text, rules, k);
      if (led) return led;
    }
    if (k >= 0) {
      const kind = rules.kinds[k];
      if (kind === RuleKind.Hazard) {
        const r = rules.all.rules[k] as CompiledHazardRule;
        const m = r.re.exec(text)!;
        // exec makes a fresh groups object per call: no copy needed (spreading one is slow in V8).
        return { kind: 'hazard', severity: r.severity, rule: r.id, captures: m.groups };
      }
      if (kind === RuleKind.Outcome) {
        const r = rules.all.rules[k] as CompiledOutcomeRule;
        const m = r.re.exec(text)!;
        return { kind: 'outcome', rule: r.id, text: r.format ? formatOutcome(r.format, m.groups, text) : text.trim() };
      }
      if (kind === RuleKind.Dedup) return NOISE_DEDUP_GRAMMAR;
      const r = rules.all.rules[k] as CompiledNoiseRule;
      return r.continueRe || r.endRe ? paragraphStart(r) : NOISE_STRIP_GRAMMAR;
    }
  }
  // Tier 3: universal patterns (only lines with a hazard keyword get the shape tests).
  if (HAZARD_KEYWORDS.test(text)) {
    const u = universalHazard(text, line.color);
    if (u) return { kind: 'hazard', severity: u, rule: 'universal' };
  }
  // Tier 1 (applied last, so every rule above still sees the final frame and a drawing of a
  // row that was drawn over later): an overwritten line that nothing claimed is progress.
  if (line.kind === 'overwrite' || line.kind === 'redrawn') return NOISE_OVERWRITE;
  // Tier 4: structure.
  if (mayBeDecorative(text) && DECORATIVE.test(text)) return NOISE_DECORATIVE;
  return UNKNOWN;
}

/**
 * A hazard drawn after decoration on its terminal row (a rule's `lead_noise`): the first hazard
 * rule with a lead, up to the rule the whole line matched (`k`, first match wins: -1 for none),
 * whose lead matches a non-empty start of the line and whose pattern matches the rest. Only the
 * lead is left out, and only when the rest is itself a line the rule calls a hazard; else the
 * line is classified as it stands.
 */
function leadHazard(text: string, rules: RuleSet, k: number): Classification | undefined {
  const leads = rules.leads;
  for (let i = 0; i < leads.length; i++) {
    const at = leads[i];
    if (k >= 0 && at > k) return undefined;
    const r = rules.all.rules[at] as CompiledHazardRule;
    const lead = r.leadRe!.exec(text)?.[0].length;
    if (!lead) continue;
    const m = r.re.exec(text.slice(lead));
    if (m) return { kind: 'hazard', severity: r.severity, rule: r.id, captures: m.groups, lead };
  }
  return undefined;
}

/** The classification of a strip rule's line that opens a paragraph (one object per rule). */
const paragraphStarts = new WeakMap<CompiledNoiseRule, Classification>();
function paragraphStart(r: CompiledNoiseRule): Classification {
  let c = paragraphStarts.get(r);
  if (!c) paragraphStarts.set(r, (c = { kind: 'noise', action: 'strip', rule: 'grammar', paragraph: { continueRe: r.continueRe, endRe: r.endRe } }));
  return c;
}

/**
 * The classification of a line while a paragraph of boilerplate is open (a strip rule with
 * continue_pattern / end_pattern matched a line above): the line's own classification when that
 * is a hazard, outcome or prompt (nothing a grammar strips hides an error), else stripped noise
 * when the paragraph takes it. `open` says whether the paragraph goes on after this line.
 */
export function inParagraph(
  text: string,
  own: Classification,
  p: NonNullable<Extract<Classification, { kind: 'noise' }>['paragraph']>,
): { cls: Classification; open: boolean } {
  if (own.kind === 'hazard' || own.kind === 'outcome' || own.kind === 'prompt') return { cls: own, open: false };
  if (p.endRe?.test(text)) return { cls: NOISE_STRIP_GRAMMAR, open: false };
  if (p.continueRe?.test(text)) return { cls: NOISE_STRIP_GRAMMAR, open: true };
  return { cls: own, open: false };
}

/** Cheap pre-test for DECORATIVE: empty, or the first non-blank character is a rule character. */
function mayBeDecorative(text: string): boolean {
  let i = 0;
  while (i < text.length && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  if (i === text.length) return true;
  return '=-_*#~.+─━═•·'.includes(text[i]);
}

/** Find the hazard rule that matched (for context_after / continue_pattern). */
export function hazardRule(rules: RuleSet, id: string): CompiledHazardRule | undefined {
  return rules.hazard.find((r) => r.id === id);
}

function formatOutcome(format: string, groups: Record<string, string> | undefined, line: string): string {
  return format.replace(/\{(\w+)\}/g, (whole, name: string) => (groups && groups[name] !== undefined ? groups[name] : name === 'line' ? line.trim() : whole));
}

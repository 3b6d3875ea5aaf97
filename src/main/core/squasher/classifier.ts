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
import type { CompiledHazardRule, CompiledOutcomeRule, CompiledRule, Detection } from '../grammar/types.js';
import { RuleFilter } from './prefilter.js';
import type { Classification, Line } from './types.js';
import { DECORATIVE, HAZARD_KEYWORDS, universalHazard } from './universal-patterns.js';

/**
 * Rules of one grammar narrowed to one action/dialect. Tier 2's four rule lists (hazard →
 * outcome → noise strip → noise dedup) are one ordered list behind one prefilter: "first
 * matching rule of the first tier that has one" is the first matching rule of the list, and
 * one filter shares its needle searches and its combined anchored RegExp across the tiers.
 */
export interface RuleSet {
  all: RuleFilter<CompiledRule>;
  hazard: readonly CompiledHazardRule[];
  outcome: readonly CompiledOutcomeRule[];
  /** Indexes in `all` where outcome, noise strip and noise dedup rules start. */
  outcomeAt: number;
  stripAt: number;
  dedupAt: number;
  prompt: CompiledRule[];
}

const EMPTY_RULES: RuleSet = { all: new RuleFilter([]), hazard: [], outcome: [], outcomeAt: 0, stripAt: 0, dedupAt: 0, prompt: [] };
const ruleSetCache = new WeakMap<object, RuleSet>();

/** The detection's rules (selectRules narrows them to its action/dialect) with the prefilter (cached). */
export function ruleSetFor(detection: Detection | undefined): RuleSet {
  if (!detection) return EMPTY_RULES;
  const selected = selectRules(detection.grammar, detection.action, detection.dialect);
  const cached = ruleSetCache.get(selected);
  if (cached) return cached;
  const strip = selected.noise.filter((r) => r.action === 'strip');
  const dedup = selected.noise.filter((r) => r.action === 'dedup');
  const set: RuleSet = {
    all: new RuleFilter<CompiledRule>([...selected.hazard, ...selected.outcome, ...strip, ...dedup]),
    hazard: selected.hazard,
    outcome: selected.outcome,
    outcomeAt: selected.hazard.length,
    stripAt: selected.hazard.length + selected.outcome.length,
    dedupAt: selected.hazard.length + selected.outcome.length + strip.length,
    prompt: [...selected.prompt],
  };
  ruleSetCache.set(selected, set);
  return set;
}

/** Shared results for the classifications that carry no per-line data (no allocation per line). */
const NOISE_STRIP_GRAMMAR: Classification = { kind: 'noise', action: 'strip', rule: 'grammar' };
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
    if (k >= 0) {
      if (k < rules.outcomeAt) {
        const r = rules.hazard[k];
        const m = r.re.exec(text)!;
        // exec makes a fresh groups object per call: no copy needed (spreading one is slow in V8).
        return { kind: 'hazard', severity: r.severity, rule: r.id, captures: m.groups };
      }
      if (k < rules.stripAt) {
        const r = rules.outcome[k - rules.outcomeAt];
        const m = r.re.exec(text)!;
        return { kind: 'outcome', rule: r.id, text: r.format ? formatOutcome(r.format, m.groups, text) : text.trim() };
      }
      return k < rules.dedupAt ? NOISE_STRIP_GRAMMAR : NOISE_DEDUP_GRAMMAR;
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

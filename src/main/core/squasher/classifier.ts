/**
 * Classifier (seed: "Stage 3", three tiers, first match wins):
 *   1. line type — overwrite frames are noise unless a hazard/outcome rule claims them;
 *   2. grammar rules (hazard → outcome → noise) for the detected tool, action and dialect;
 *   3. universal patterns; 4. structural heuristics (decorative lines; default unknown).
 *
 * Speed: each rule carries a literal needle (prefilter.ts) and runs only on lines containing
 * it; most lines of a big build contain the needles of few rules, so most RegExps never run.
 */
import { selectRules } from '../grammar/select-rules.js';
import type { CompiledHazardRule, CompiledOutcomeRule, CompiledRule, Detection } from '../grammar/types.js';
import { RuleFilter } from './prefilter.js';
import type { Classification, Line } from './types.js';
import { DECORATIVE, HAZARD_KEYWORDS, universalHazard } from './universal-patterns.js';

/** Rules of one grammar narrowed to one action/dialect, each tier behind its literal prefilter. */
export interface RuleSet {
  hazard: RuleFilter<CompiledHazardRule>;
  outcome: RuleFilter<CompiledOutcomeRule>;
  noiseStrip: RuleFilter<CompiledRule>;
  noiseDedup: RuleFilter<CompiledRule>;
  prompt: CompiledRule[];
}

const EMPTY_RULES: RuleSet = { hazard: new RuleFilter([]), outcome: new RuleFilter([]), noiseStrip: new RuleFilter([]), noiseDedup: new RuleFilter([]), prompt: [] };
const ruleSetCache = new WeakMap<object, RuleSet>();

/** The detection's rules (selectRules narrows them to its action/dialect) with the prefilters (cached). */
export function ruleSetFor(detection: Detection | undefined): RuleSet {
  if (!detection) return EMPTY_RULES;
  const selected = selectRules(detection.grammar, detection.action, detection.dialect);
  const cached = ruleSetCache.get(selected);
  if (cached) return cached;
  const set: RuleSet = {
    hazard: new RuleFilter(selected.hazard),
    outcome: new RuleFilter(selected.outcome),
    noiseStrip: new RuleFilter(selected.noise.filter((r) => r.action === 'strip')),
    noiseDedup: new RuleFilter(selected.noise.filter((r) => r.action === 'dedup')),
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
  const text = line.text;
  // Tier 2: grammar rules. They also see the final frame of overwritten lines, so an error or
  // a message printed over a progress bar is never dropped.
  if (!rules.hazard.empty) {
    const k = rules.hazard.first(text);
    if (k >= 0) {
      const r = rules.hazard.rules[k];
      const m = r.re.exec(text)!;
      // exec makes a fresh groups object per call: no copy needed (spreading one is slow in V8).
      return { kind: 'hazard', severity: r.severity, rule: r.id, captures: m.groups };
    }
  }
  if (!rules.outcome.empty) {
    const k = rules.outcome.first(text);
    if (k >= 0) {
      const r = rules.outcome.rules[k];
      const m = r.re.exec(text)!;
      return { kind: 'outcome', rule: r.id, text: r.format ? formatOutcome(r.format, m.groups, text) : text.trim() };
    }
  }
  if (!rules.noiseStrip.empty && rules.noiseStrip.first(text) >= 0) return NOISE_STRIP_GRAMMAR;
  if (!rules.noiseDedup.empty && rules.noiseDedup.first(text) >= 0) return NOISE_DEDUP_GRAMMAR;
  // Tier 3: universal patterns (only lines with a hazard keyword get the shape tests).
  if (HAZARD_KEYWORDS.test(text)) {
    const u = universalHazard(text, line.color);
    if (u) return { kind: 'hazard', severity: u, rule: 'universal' };
  }
  // Tier 1 (applied last, so every rule above still sees the final frame): an overwritten
  // line that nothing claimed is progress.
  if (line.kind === 'overwrite') return NOISE_OVERWRITE;
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
  return rules.hazard.rules.find((r) => r.id === id);
}

function formatOutcome(format: string, groups: Record<string, string> | undefined, line: string): string {
  return format.replace(/\{(\w+)\}/g, (whole, name: string) => (groups && groups[name] !== undefined ? groups[name] : name === 'line' ? line.trim() : whole));
}

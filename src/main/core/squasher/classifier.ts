/**
 * Classifier (seed: "Stage 3", three tiers, first match wins):
 *   1. line type — overwrite frames are noise unless a hazard/outcome rule claims them;
 *   2. grammar rules (hazard → outcome → noise) for the detected tool, action and dialect;
 *   3. universal patterns; 4. structural heuristics (decorative lines; default unknown).
 *
 * Speed: a line is first tested against one combined RegExp per tier (one native call);
 * only when that matches do we look for *which* rule matched. Most lines match nothing or a
 * noise rule, so the per-line cost stays flat however many rules a grammar has.
 */
import { selectRules } from '../grammar/select-rules.js';
import type { CompiledHazardRule, CompiledOutcomeRule, CompiledRule, Detection } from '../grammar/types.js';
import type { Classification, Line } from './types.js';
import { DECORATIVE, universalHazard } from './universal-patterns.js';

/** Rules of one grammar narrowed to one action/dialect, with combined prefilters. */
export interface RuleSet {
  hazard: CompiledHazardRule[];
  outcome: CompiledOutcomeRule[];
  noiseStrip: CompiledRule[];
  noiseDedup: CompiledRule[];
  prompt: CompiledRule[];
  anyHazard?: RegExp;
  anyOutcome?: RegExp;
  anyStrip?: RegExp;
  anyDedup?: RegExp;
}

const EMPTY_RULES: RuleSet = { hazard: [], outcome: [], noiseStrip: [], noiseDedup: [], prompt: [] };
const ruleSetCache = new WeakMap<object, RuleSet>();

/** The detection's rules (selectRules narrows them to its action/dialect) with the prefilters (cached). */
export function ruleSetFor(detection: Detection | undefined): RuleSet {
  if (!detection) return EMPTY_RULES;
  const selected = selectRules(detection.grammar, detection.action, detection.dialect);
  const cached = ruleSetCache.get(selected);
  if (cached) return cached;
  const set: RuleSet = {
    hazard: [...selected.hazard],
    outcome: [...selected.outcome],
    noiseStrip: selected.noise.filter((r) => r.action === 'strip'),
    noiseDedup: selected.noise.filter((r) => r.action === 'dedup'),
    prompt: [...selected.prompt],
  };
  set.anyHazard = combine(set.hazard);
  set.anyOutcome = combine(set.outcome);
  set.anyStrip = combine(set.noiseStrip);
  set.anyDedup = combine(set.noiseDedup);
  ruleSetCache.set(selected, set);
  return set;
}

/** One RegExp that matches when any rule matches. Named groups are renamed away (duplicates are illegal). */
function combine(rules: CompiledRule[]): RegExp | undefined {
  if (rules.length === 0) return undefined;
  if (rules.length === 1) return rules[0].re;
  const flags = new Set<string>();
  for (const r of rules) for (const f of r.re.flags) if (f !== 'g' && f !== 'y') flags.add(f);
  const sources = rules.map((r) => `(?:${r.re.source.replace(/\(\?<[A-Za-z_$][\w$]*>/g, '(?:').replace(/\\k<[A-Za-z_$][\w$]*>/g, '')})`);
  try {
    return new RegExp(sources.join('|'), [...flags].join(''));
  } catch {
    // Mixed flags or backreferences that do not survive renaming: test rules one by one.
    return new RegExp(rules.map((r) => `(?:${r.re.source})`).join('|').replace(/\(\?<[A-Za-z_$][\w$]*>/g, '(?:').replace(/\\k<[A-Za-z_$][\w$]*>|\\\d/g, '(?:)'));
  }
}

/** Classify one line with the given rule set (tiers 1–4). */
export function classifyLine(line: Line, rules: RuleSet): Classification {
  const text = line.text;
  // Tier 2: grammar rules. They also see the final frame of overwritten lines, so an error or
  // a message printed over a progress bar is never dropped.
  if (rules.anyHazard && rules.anyHazard.test(text)) {
    for (const r of rules.hazard) {
      const m = r.re.exec(text);
      if (m) return { kind: 'hazard', severity: r.severity, rule: r.id, captures: m.groups ? { ...m.groups } : undefined };
    }
  }
  if (rules.anyOutcome && rules.anyOutcome.test(text)) {
    for (const r of rules.outcome) {
      const m = r.re.exec(text);
      if (m) return { kind: 'outcome', rule: r.id, text: r.format ? formatOutcome(r.format, m.groups, text) : text.trim() };
    }
  }
  if (rules.anyStrip && rules.anyStrip.test(text)) return { kind: 'noise', action: 'strip', rule: 'grammar' };
  if (rules.anyDedup && rules.anyDedup.test(text)) return { kind: 'noise', action: 'dedup', rule: 'grammar' };
  // Tier 3: universal patterns (only lines the chunk scan found a keyword in).
  if (line.hot) {
    const u = universalHazard(text, line.color);
    if (u) return { kind: 'hazard', severity: u, rule: 'universal' };
  }
  // Tier 1 (applied last, so every rule above still sees the final frame): an overwritten
  // line that nothing claimed is progress.
  if (line.kind === 'overwrite') return { kind: 'noise', action: 'strip', rule: 'overwrite' };
  // Tier 4: structure.
  if (mayBeDecorative(text) && DECORATIVE.test(text)) return { kind: 'noise', action: 'strip', rule: 'decorative' };
  return { kind: 'unknown' };
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

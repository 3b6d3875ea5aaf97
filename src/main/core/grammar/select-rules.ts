/**
 * The rules that apply to one run: a rule restricted with `actions`/`dialects` applies only when
 * the detected action/dialect is in its set (an undetected action matches no restricted rule).
 * Filtering happens once per (grammar, action, dialect), not per line.
 */
import type { CompiledHazardRule, CompiledNoiseRule, CompiledOutcomeRule, CompiledRule, Detection, Grammar } from './types.js';

/** Rules of a grammar for one action/dialect, in evaluation order (own rules, then included). */
export interface RuleSet {
  hazard: readonly CompiledHazardRule[];
  outcome: readonly CompiledOutcomeRule[];
  noise: readonly CompiledNoiseRule[];
  prompt: readonly CompiledRule[];
}

const cache = new WeakMap<Grammar, Map<string, RuleSet>>();

function applies(rule: CompiledRule, action: string | undefined, dialect: string | undefined): boolean {
  if (rule.actions && (action === undefined || !rule.actions.has(action))) return false;
  if (rule.dialects && (dialect === undefined || !rule.dialects.has(dialect))) return false;
  return true;
}

/** Rules of `grammar` that apply to `action`/`dialect`; memoised per grammar object. */
export function selectRules(grammar: Grammar, action?: string, dialect?: string): RuleSet {
  let perGrammar = cache.get(grammar);
  if (!perGrammar) cache.set(grammar, (perGrammar = new Map()));
  const key = `${action ?? ''}\0${dialect ?? ''}`;
  let set = perGrammar.get(key);
  if (!set) {
    const f = <T extends CompiledRule>(rules: T[]) => rules.filter((r) => applies(r, action, dialect));
    set = { hazard: f(grammar.hazard), outcome: f(grammar.outcome), noise: f(grammar.noise), prompt: f(grammar.prompt) };
    perGrammar.set(key, set);
  }
  return set;
}

/** selectRules for a Detection. */
export function rulesFor(d: Detection): RuleSet {
  return selectRules(d.grammar, d.action, d.dialect);
}

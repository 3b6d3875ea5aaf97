/**
 * A RuleFilter made from a plan (prefilter.ts FilterPlan, stored by the build for the always-on
 * rules: dist/precompiled-needles.json `filters`) answers exactly as one that reads its rules:
 * for every built-in grammar (with and without the always-on rules after it, as the classifier
 * builds it) the plan survives JSON, and a filter built from it gives the same first rule on all
 * recorded output; the build's stored plan is what reading gives, and it is the one used.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadGrammarFile } from '../grammar/loader.js';
import type { CompiledRule } from '../grammar/types.js';
import { loadAlwaysGrammar } from './always-rules.js';
import { ruleSetFor } from './classifier.js';
import { readNeedleTable, useNeedleTable } from './needle-table.js';
import { filterPlan, RuleFilter, usePrecomputedFilterPlans, type FilterPlan } from './prefilter.js';
import { stripAnsi } from './vt-stripper.js';

const ROOT = path.resolve(__dirname, '../../../..');
const GRAMMARS = path.join(ROOT, 'grammars');
const RECORDED = path.join(ROOT, 'fixtures', 'recorded');

function fixtureLines(): string[] {
  const out = new Set<string>();
  for (const f of readdirSync(RECORDED).filter((f) => f.endsWith('.raw'))) {
    for (const l of stripAnsi(readFileSync(path.join(RECORDED, f), 'utf8')).split(/\r?\n|\r/)) out.add(l);
  }
  return [...out];
}

afterEach(() => {
  usePrecomputedFilterPlans(undefined);
  useNeedleTable(undefined);
});

/** A filter of `rules` made from `plan` (its JSON round trip), whatever the rules would read to. */
function fromPlan(rules: readonly CompiledRule[], plan: FilterPlan, setsFrom = 0): RuleFilter<CompiledRule> {
  const stored = JSON.parse(JSON.stringify(plan)) as FilterPlan;
  usePrecomputedFilterPlans((r, s) => (r === rules && s === setsFrom ? stored : undefined));
  try {
    return new RuleFilter(rules, { setsFrom });
  } finally {
    usePrecomputedFilterPlans(undefined);
  }
}

describe('RuleFilter plans', () => {
  it('give the same first rule as reading the rules, for every grammar alone and before the always-on rules', () => {
    const always = loadAlwaysGrammar(GRAMMARS);
    if (!always.ok) throw new Error('log-levels.toml does not load');
    const tail = [...always.value.hazard, ...always.value.outcome, ...always.value.noise] as CompiledRule[];
    const lines = fixtureLines();
    const grammars = readdirSync(GRAMMARS)
      .filter((f) => f.endsWith('.toml'))
      .map((f) => loadGrammarFile(path.join(GRAMMARS, f), { includeDirs: [GRAMMARS] }))
      .flatMap((r) => (r.ok ? [r.value] : []));
    expect(grammars.length).toBeGreaterThan(20);
    const lists: [string, CompiledRule[], number][] = [['log-levels', tail, 0]];
    for (const g of grammars) {
      const own = [...g.hazard, ...g.outcome, ...g.noise] as CompiledRule[];
      lists.push([g.name, own, 0], [`${g.name} + log-levels`, [...own, ...tail], own.length]);
    }
    for (const [name, rules, setsFrom] of lists) {
      const read = new RuleFilter(rules, { setsFrom });
      const planned = fromPlan(rules, filterPlan(rules, setsFrom), setsFrom);
      const wrong = lines.filter((l) => planned.first(l) !== read.first(l));
      expect(wrong, name).toEqual([]);
    }
  });

  it('the build stores the always-on rules\' plan as reading gives it, and a command without a grammar gets it', () => {
    const table = readNeedleTable(path.join(ROOT, 'dist', 'precompiled-needles.json'));
    expect(table?.filters).toBeDefined();
    const always = loadAlwaysGrammar(GRAMMARS);
    if (!always.ok) throw new Error('log-levels.toml does not load');
    const rules = ruleSetFor(undefined, always.value).all.rules;
    const stored = Object.values(table!.filters!);
    expect(stored).toEqual([JSON.parse(JSON.stringify(filterPlan(rules, 0)))]);
    // Installed, the table's plan is the one used: one emptied of every rule finds none.
    const lines = fixtureLines();
    const read = new RuleFilter(rules, { setsFrom: 0 });
    const matching = lines.find((l) => read.first(l) >= 0)!;
    expect(matching).toBeDefined();
    const [key] = Object.keys(table!.filters!);
    const emptied: FilterPlan = { ...stored[0], combined: [], alone: [], aloneNeedle: [] };
    useNeedleTable({ ...table!, filters: { [key]: emptied } });
    expect(new RuleFilter(rules, { setsFrom: 0 }).first(matching)).toBe(-1);
    useNeedleTable(table);
    const fromTable = new RuleFilter(rules, { setsFrom: 0 });
    expect(lines.filter((l) => fromTable.first(l) !== read.first(l))).toEqual([]);
  });

  it('a plan this Node cannot build (a RegExp it refuses) is not used: the rules are read', () => {
    const rules = [{ id: 'a', re: /^npm (?:ERR!|error) \S/ }, { id: 'b', re: /: warning: / }, { id: 'c', re: /^\d+ passing/ }] as CompiledRule[];
    const plan = filterPlan(rules, 0);
    const broken: FilterPlan = { ...plan, combined: plan.combined.map((c) => ({ ...c, re: { source: '(' } })) };
    expect(plan.combined.length).toBeGreaterThan(0);
    const f = fromPlan(rules, broken);
    for (const l of ['npm ERR! x', 'a.c:1: warning: y', '3 passing', 'nothing']) expect(f.first(l)).toBe(rules.findIndex((r) => r.re.test(l)));
  });
});

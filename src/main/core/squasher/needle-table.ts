/**
 * The needle sets (needle-set.ts) and line leads (line-lead.ts) of the built-in always-on rules
 * (grammars/_shared/log-levels.toml), read at build time (scripts/build-cli.mjs →
 * dist/precompiled-needles.json) and looked up at run time instead of read. Reading them is the
 * same work in every fresh process: ~15 ms of the main thread for 18 rules, and enough of it
 * that V8 optimizes the readers on its compiler threads (~50 ms more CPU) — on every
 * `mish <cmd>`, where 25 MB of output cost ~500 ms of CPU in all.
 *
 * Keyed by what the readers read (a RegExp's flags and source), so a rule that differs (a user's
 * grammar, an edited file) misses and is read as usual. The file is written by the build of the
 * code that reads it, so a hit is exactly what reading would give.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Grammar } from '../grammar/types.js';
import { ruleSetFor } from './classifier.js';
import { lineLead, NON_ASCII_LEAD, usePrecomputedLineLeads, type LineLead } from './line-lead.js';
import { needleSet, needleSetKey, usePrecomputedNeedleSets, type Factor } from './needle-set.js';
import { anchoredSource, filterPlan, filterPlanKey, usePrecomputedFilterPlans, type FilterPlan } from './prefilter.js';

/** The file layout this reader understands (the build writes the same number). */
export const NEEDLE_TABLE_FORMAT = 1;

/** A LineLead as JSON: the character codes (0..NON_ASCII_LEAD) set in `lead` and `prefix`. */
interface StoredLead {
  lead: number[];
  prefix: number[];
  sets: Factor[][];
}

export interface NeedleTable {
  format: number;
  /** By needleSetKey: the RegExp's needle set, null for none. */
  sets: Record<string, Factor[] | null>;
  /** By the anchored source the prefilter reads (prefilter.ts anchoredSource): its lead, null for none. */
  leads: Record<string, StoredLead | null>;
  /**
   * By filterPlanKey's sha1: the prefilter of a rule list as it is built (prefilter.ts
   * FilterPlan), for the always-on rules alone (every command without a grammar of its own).
   */
  filters?: Record<string, FilterPlan>;
}

const planKey = (key: string) => createHash('sha1').update(key).digest('hex');

/** Every needle set and line lead the prefilter may read of `grammar`'s rules. */
export function needleTableOf(grammar: Grammar): NeedleTable {
  const sets: NeedleTable['sets'] = {};
  const leads: NeedleTable['leads'] = {};
  for (const r of [...grammar.hazard, ...grammar.outcome, ...grammar.noise, ...grammar.prompt]) {
    sets[needleSetKey(r.re)] = needleSet(r.re) ?? null;
    const source = anchoredSource(r.re);
    if (source !== undefined && r.re.flags === '') leads[source] = storeLead(lineLead(r.re, source));
  }
  // The prefilter of the always-on rules alone, as a command without a grammar gets it (classifier.ts ruleSetFor).
  const alone = ruleSetFor(undefined, grammar).all.rules;
  const filters = { [planKey(filterPlanKey(alone, 0))]: filterPlan(alone, 0) };
  return { format: NEEDLE_TABLE_FORMAT, sets, leads, filters };
}

function storeLead(l: LineLead | undefined): StoredLead | null {
  if (!l) return null;
  const codes = (t: Uint8Array) => [...t.keys()].filter((c) => t[c] !== 0);
  return { lead: codes(l.lead), prefix: codes(l.prefix), sets: l.sets };
}

function loadLead(s: StoredLead | null): LineLead | null {
  if (!s) return null;
  const table = (codes: number[]) => {
    const t = new Uint8Array(NON_ASCII_LEAD + 1);
    for (const c of codes) t[c] = 1;
    return t;
  };
  return { lead: table(s.lead), prefix: table(s.prefix), sets: s.sets };
}

/** The table in `file`, or undefined when it is absent, foreign or corrupt (then every set is read). */
export function readNeedleTable(file: string): NeedleTable | undefined {
  let t: Partial<NeedleTable>;
  try {
    t = JSON.parse(readFileSync(file, 'utf8')) as Partial<NeedleTable>;
  } catch {
    return undefined;
  }
  if (t.format !== NEEDLE_TABLE_FORMAT || !t.sets || typeof t.sets !== 'object' || !t.leads || typeof t.leads !== 'object') return undefined;
  return t as NeedleTable;
}

/** Look the readers' answers up in `table` (undefined: read every RegExp again). */
export function useNeedleTable(table: NeedleTable | undefined): void {
  usePrecomputedNeedleSets(table ? new Map(Object.entries(table.sets)) : undefined);
  usePrecomputedLineLeads(table ? new Map(Object.entries(table.leads).map(([k, v]) => [k, loadLead(v)])) : undefined);
  const filters = table?.filters && typeof table.filters === 'object' ? table.filters : undefined;
  usePrecomputedFilterPlans(filters ? (rules, setsFrom) => filters[planKey(filterPlanKey(rules, setsFrom))] : undefined);
}

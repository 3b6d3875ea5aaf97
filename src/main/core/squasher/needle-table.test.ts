/**
 * The needle sets and line leads the build reads ahead (dist/precompiled-needles.json, by
 * scripts/build-cli.mjs) are what the readers give at run time for every always-on rule, and a
 * RegExp the table lacks is read as usual.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadAlwaysGrammar } from './always-rules.js';
import { lineLead } from './line-lead.js';
import { needleSet } from './needle-set.js';
import { needleTableOf, readNeedleTable, useNeedleTable } from './needle-table.js';
import { anchoredSource } from './prefilter.js';

const root = path.resolve(__dirname, '../../../..');
const file = path.join(root, 'dist', 'precompiled-needles.json');

function alwaysRules() {
  const g = loadAlwaysGrammar(path.join(root, 'grammars'));
  if (!g.ok) throw new Error('log-levels.toml does not load');
  return { grammar: g.value, rules: [...g.value.hazard, ...g.value.outcome, ...g.value.noise, ...g.value.prompt] };
}

/** A RegExp the readers have not seen (their answers are kept per RegExp object). */
const fresh = (re: RegExp) => new RegExp(re.source, re.flags);

afterEach(() => useNeedleTable(undefined));

describe('precomputed needle sets and line leads (dist/precompiled-needles.json)', () => {
  // dist/ is rebuilt by the vitest global setup when older than the sources or grammars.
  const table = readNeedleTable(file);

  it('hold what the readers give for every always-on rule', () => {
    expect(table).toBeDefined();
    const { grammar, rules } = alwaysRules();
    expect(rules.length).toBeGreaterThan(10);
    expect(table).toEqual(JSON.parse(JSON.stringify(needleTableOf(grammar))));
    const read = rules.map((r) => ({ set: needleSet(fresh(r.re)), lead: lineLead(fresh(r.re), anchoredSource(r.re)) }));
    useNeedleTable(table);
    rules.forEach((r, k) => {
      expect(needleSet(fresh(r.re)), r.re.source).toEqual(read[k].set);
      expect(lineLead(fresh(r.re), anchoredSource(r.re)), r.re.source).toEqual(read[k].lead);
    });
    // Some always-on rule has each: a table of nulls would pass the loop above only if reading gave none.
    expect(read.some((x) => x.set)).toBe(true);
    expect(read.some((x) => x.lead)).toBe(true);
  });

  it('miss on any other RegExp, which is read as usual', () => {
    const set = /^(?:ab|cd)QQ/;
    const lead = /^[xy]\d+ z/;
    const read = { set: needleSet(fresh(set)), lead: lineLead(fresh(lead)) };
    expect(read.set).toBeDefined();
    expect(read.lead?.lead[0x78]).toBe(1);
    useNeedleTable(table);
    expect(needleSet(fresh(set))).toEqual(read.set);
    expect(lineLead(fresh(lead))).toEqual(read.lead);
  });

  it('a missing, foreign or corrupt file gives no table (everything is read)', () => {
    const bad = path.join(tmpdir(), `mish-needles-${process.pid}.json`);
    expect(readNeedleTable(`${bad}.absent`)).toBeUndefined();
    writeFileSync(bad, '{"format": 99, "sets": {}, "leads": {}}');
    expect(readNeedleTable(bad)).toBeUndefined();
    writeFileSync(bad, '{not json');
    expect(readNeedleTable(bad)).toBeUndefined();
  });
});

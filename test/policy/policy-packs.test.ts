/**
 * The rule packs (src/main/core/policy/packs/*.ts), one per domain: every pack is well formed
 * and described, every rule id is `PACK/RULE`, and the domain tables (tables/*.tsv, asserted
 * row by row in policy-domains.test.ts) use every pack.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinPolicy, decide } from '../../src/main/core/policy/index.js';
import { PACKS, packRules } from '../../src/main/core/policy/packs/index.js';
import { readDomainTables } from './tables.js';

const policy = builtinPolicy(readFileSync(path.join(__dirname, '../../grammars/_meta/policy.toml'), 'utf8'), 'builtin');
const ctx = { cwd: '/work/project', home: '/home/me' };

const all = readDomainTables().flatMap((t) => t.rows);

describe('rule packs', () => {
  it('every pack compiles, is described, and names its rules PACK/RULE', () => {
    const { rules, errors } = packRules();
    expect(errors).toEqual([]);
    expect(PACKS.length).toBeGreaterThanOrEqual(12);
    for (const p of PACKS) {
      expect(p.description.length, p.id).toBeGreaterThan(40);
      expect(rules.some((r) => r.id.startsWith(`${p.id}/`)), p.id).toBe(true);
    }
    expect(new Set(rules.map((r) => r.id)).size).toBe(rules.length);
  });

  it('the built-in policy carries the packs', () => {
    expect(policy.layers[0].rules.some((r) => r.id === 'persistence/git-hook')).toBe(true);
  });

  it('the domain tables cover every pack', () => {
    const used = new Set(all.map((r) => r.rule.split('/')[0]));
    for (const p of PACKS) expect(used.has(p.id), p.id).toBe(true);
  });

});

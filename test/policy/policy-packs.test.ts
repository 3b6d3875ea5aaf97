/**
 * The rule packs (src/main/core/policy/packs/*.ts), one per domain: every pack is well formed
 * and described, every rule id is `PACK/RULE`, and the domain table (domains.tsv: decision,
 * rule, line) holds — each dangerous line gets exactly the decision and the rule written next
 * to it, each look-alike (the issue's precision list among them) stays allowed. Most lines
 * were allowed (or escalated for the wrong reason) before the packs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinPolicy, decide } from '../../src/main/core/policy/index.js';
import { PACKS, packRules } from '../../src/main/core/policy/packs/index.js';

const policy = builtinPolicy(readFileSync(path.join(__dirname, '../../grammars/_meta/policy.toml'), 'utf8'), 'builtin');
const ctx = { cwd: '/work/project', home: '/home/me' };

const rows = readFileSync(path.join(__dirname, 'domains.tsv'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '' && !l.startsWith('#'))
  .map((l) => {
    const [decision, rule, ...rest] = l.split('\t');
    return { decision, rule, line: rest.join('\t') };
  });

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

  it('the domain table covers every pack', () => {
    const used = new Set(rows.map((r) => r.rule.split('/')[0]));
    for (const p of PACKS) expect(used.has(p.id), p.id).toBe(true);
  });

  it.each(rows)('$decision $rule: $line', ({ decision, rule, line }) => {
    const d = decide(line, policy, ctx);
    expect(d.decision, JSON.stringify(d.matches)).toBe(decision);
    if (rule !== '-') expect(d.rule, JSON.stringify(d.matches)).toBe(rule);
  });
});

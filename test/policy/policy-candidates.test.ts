/**
 * candidateRules (rules.ts) judges a command against only the rules its name does not rule out.
 * Property: for any command line — built from the real built-in policy's command names (and
 * names its `mkfs.*`-style prefixes match), near misses of them and random names, with flags,
 * subcommands and paths the rules look at, wrapped and joined — decide() gives the SAME answer
 * (decision, rule, reason, every command's match) as a copy of the policy code that checks every
 * rule. The reference copy is the same source loaded again with candidateRules replaced by
 * "all rules", so the property compares the shortcut against exactly the code it replaced.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import * as fast from '../../src/main/core/policy/index.js';
import type { Policy } from '../../src/main/core/policy/index.js';
import { readTable } from './tables.js';

type PolicyModule = typeof fast;
const RULES_MODULE = '../../src/main/core/policy/rules.js';
const POLICY_TEXT = readFileSync(path.join(__dirname, '../../grammars/_meta/policy.toml'), 'utf8');

/** A user and a project layer with the pattern shapes a file may use: `*`, prefixes, plain names, none. */
const USER_TEXT = `
[default]
decision = "confirm"
[[rule]]
id = "user-any"
reason = "every command"
decision = "ask"
commands = ["*"]
flags_any = ["--force"]
[[rule]]
id = "user-git-prefix"
reason = "git-ish"
decision = "allow"
commands = ["gi*", "rm"]
[[rule]]
id = "user-no-commands"
reason = "no name"
decision = "confirm"
args_any = "^/etc"
`;
const PROJECT_TEXT = `
[[rule]]
id = "project-curl"
reason = "tighten curl"
decision = "forbid"
commands = ["curl", "mkfs.*"]
[[rule]]
id = "project-loosen-rm"
reason = "loosen rm (must be ignored)"
decision = "allow"
commands = ["rm"]
`;

function layered(m: PolicyModule): Policy {
  const base = m.builtinPolicy(POLICY_TEXT);
  const user = m.compilePolicyText(USER_TEXT, '/home/u/.config/mish/policy.toml');
  const project = m.compilePolicyText(PROJECT_TEXT, '/work/project/.mish/policy.toml');
  return {
    layers: [...base.layers, { name: 'user', file: '/home/u/.config/mish/policy.toml', rules: user.rules, default: user.default }, { name: 'project', file: '/work/project/.mish/policy.toml', rules: project.rules, default: project.default }],
    errors: [...base.errors, ...user.errors, ...project.errors],
  };
}

let reference: PolicyModule;
let referenceRules: typeof import('../../src/main/core/policy/rules.js');
beforeAll(async () => {
  vi.resetModules();
  vi.doMock(RULES_MODULE, async (importOriginal) => {
    const real = await importOriginal<typeof import('../../src/main/core/policy/rules.js')>();
    return { ...real, candidateRules: (rules: readonly unknown[]) => rules };
  });
  reference = await import('../../src/main/core/policy/index.js');
  referenceRules = await import('../../src/main/core/policy/rules.js');
  vi.doUnmock(RULES_MODULE);
});

const builtin = fast.builtinPolicy(POLICY_TEXT);
const rules = builtin.layers.flatMap((l) => l.rules);
const patterns = [...new Set(rules.flatMap((r) => r.commands ?? []))];
/** Every name a built-in rule names; a prefix pattern gives a name it matches and its bare prefix. */
const names = [...new Set(patterns.flatMap((p) => (p.endsWith('*') ? [`${p.slice(0, -1)}ext4`, p.slice(0, -1)] : [p])))].filter((n) => n !== '');
/** Words the rules test: flags, subcommand words, and paths their targets look for. */
const words = [
  ...new Set([
    ...rules.flatMap((r) => [...(r.flagsAll ?? []).flat().flatMap((f) => f.split('|')), ...(r.flagsAny ?? []), ...(r.unlessFlags ?? []), ...(r.subcommand ?? []).flat().flatMap((w) => w.split('|'))]),
    ...['/', '~', '.', '*', '..', '/etc/passwd', '~/.ssh/id_rsa', '/dev/sda', 'origin', 'main', 'HEAD~1', '-rf', '--force', 'x', '"a b"', '$HOME', '/tmp/x'],
  ]),
].filter((w) => w !== '' && !/['\n]/.test(w));

const nameArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...names) },
  // Near misses: a name with a letter added or dropped (a prefix pattern must still decide them alike).
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...names), fc.constantFrom('x', '.', '-', '2', '')).map(([n, s]) => (s === '' ? n.slice(0, -1) || n : n + s)) },
  { weight: 2, arbitrary: fc.stringMatching(/^[a-z][a-z0-9._-]{0,8}$/) },
);
const simpleArb = fc.tuple(nameArb, fc.array(fc.constantFrom(...words), { maxLength: 5 })).map(([n, a]) => [n, ...a].join(' '));
const JOINS = [' && ', ' || ', ' | ', '; '];
const WRAPS: Array<(c: string) => string> = [(c) => c, (c) => `sudo ${c}`, (c) => `env A=1 ${c}`, (c) => `sh -c '${c}'`, (c) => `echo $(${c})`, (c) => `xargs ${c}`, (c) => `timeout 5 ${c}`];
const lineArb = fc
  .tuple(fc.array(fc.tuple(simpleArb, fc.constantFrom(...JOINS)), { minLength: 1, maxLength: 3 }), fc.constantFrom(...WRAPS))
  .map(([parts, wrap]) => wrap(parts.map(([c, j], i) => (i === 0 ? c : j + c)).join('')));

const ctx = { cwd: '/work/project', home: '/home/u' };

describe('candidateRules decides as checking every rule', () => {
  it('the built-in policy: the same decision for any line (real command names, near misses, random names)', () => {
    const policy = fast.builtinPolicy(POLICY_TEXT);
    const all = reference.builtinPolicy(POLICY_TEXT);
    fc.assert(
      fc.property(lineArb, (line) => {
        expect(fast.decide(line, policy, ctx), line).toEqual(reference.decide(line, all, ctx));
      }),
      { numRuns: 3000 },
    );
  });

  it('layered policies (wildcard, prefix and nameless rules; a project layer that may only tighten): the same decision', () => {
    const policy = layered(fast);
    const all = layered(reference);
    fc.assert(
      fc.property(lineArb, (line) => {
        expect(fast.decide(line, policy, ctx), line).toEqual(reference.decide(line, all, ctx));
      }),
      { numRuns: 1500 },
    );
  });

  it('the recorded dangerous and wrap-seed tables: the same decision line by line', () => {
    const policy = fast.builtinPolicy(POLICY_TEXT);
    const all = reference.builtinPolicy(POLICY_TEXT);
    for (const line of [...readTable('dangerous.txt'), ...readTable('wrap-seeds.txt')]) expect(fast.decide(line, policy, ctx), line).toEqual(reference.decide(line, all, ctx));
  });

  it('the reference really checks every rule; the shortcut really leaves rules out', async () => {
    const { candidateRules } = await import('../../src/main/core/policy/rules.js');
    const list = fast.builtinPolicy(POLICY_TEXT).layers[0].rules;
    expect(referenceRules.candidateRules(list, 'git')).toBe(list);
    expect(candidateRules(list, 'git').length).toBeLessThan(list.length / 2);
  });
});

/**
 * Properties of the policy decision (fast-check): any string — random, or a dangerous line
 * mutated — gets a verdict with a rule and a reason and never throws; wrapping a dangerous
 * command in any supported wrapper (or several) never lowers its verdict; a line that does
 * not parse is never allowed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtinPolicy, decide, RANK, VERDICTS } from '../../src/main/core/policy/index.js';
import { parseCommandLine } from '../../src/main/core/router/parse.js';
import { readTable, WRAPPERS } from './tables.js';

/** Wrappers that build shell structure around a line (a command wrapper such as sudo cannot go outside them). */
const STRUCTURAL = new Set(['subshell', 'group', 'and', 'or', 'pipeline', 'background', '$( )', 'backticks', '<( )', 'assignment $( )', '[[ ]]', '(( ))', '${x:-$( )}', 'heredoc body $( )', 'if', 'for', 'while', 'case', 'function']);

const policy = builtinPolicy(readFileSync(path.join(__dirname, '../../grammars/_meta/policy.toml'), 'utf8'));
const ctx = { cwd: '/work/project' };
const seeds = readTable('wrap-seeds.txt');
const dangerous = readTable('dangerous.txt');

/** Shell-ish alphabet: random strings hit quotes, substitutions, operators and controls often. */
const SHELL_CHARS = [...'abcdefrm -/~.*$(){}[]<>|&;`\'"\\\n\t=!#%@:,+0123456789', '\r', '\u0000', '\u001b', '\u202e'];
const shellish = fc.array(fc.constantFrom(...SHELL_CHARS), { maxLength: 60 }).map((a) => a.join(''));

const mutate = (line: string, at: number, insert: string, del: number) => {
  const i = Math.min(at, line.length);
  return line.slice(0, i) + insert + line.slice(i + del);
};

function wellFormed(line: string): void {
  const d = decide(line, policy, ctx);
  expect(VERDICTS).toContain(d.decision);
  expect(typeof d.rule).toBe('string');
  expect(d.rule.length).toBeGreaterThan(0);
  expect(d.reason.length).toBeGreaterThan(0);
  expect(Array.isArray(d.commands)).toBe(true);
  if (!parseCommandLine(line).ok) expect(d.decision).not.toBe('allow');
}

describe('policy properties', () => {
  it('random strings always get a verdict (never throws; a parse failure is never allowed)', () => {
    fc.assert(fc.property(fc.oneof(fc.string({ maxLength: 80 }), shellish, fc.string({ unit: 'grapheme', maxLength: 40 })), (s) => wellFormed(s)), { numRuns: 1500 });
  });

  it('mutated dangerous lines always get a verdict', () => {
    fc.assert(
      fc.property(fc.constantFrom(...dangerous), fc.nat(80), fc.oneof(shellish, fc.string({ maxLength: 8 })), fc.nat(6), (line, at, ins, del) => wellFormed(mutate(line, at, ins, del))),
      { numRuns: 1500 },
    );
  });

  it('wrapping a dangerous command in any supported wrapper (nested up to 3) never lowers its verdict', () => {
    fc.assert(
      fc.property(fc.constantFrom(...seeds), fc.array(fc.constantFrom(...WRAPPERS), { minLength: 1, maxLength: 3 }), (seed, chain) => {
        const base = decide(seed, policy, ctx).decision;
        // As a shell line can be written: command wrappers (sudo, env, find -exec, …) around the
        // simple command, then structure (lists, $( ), if, …), then at most one quoting wrapper
        // outermost (quotes do not nest inside quotes).
        const quoting = (w: (typeof WRAPPERS)[number]) => w[1]('X').replace('X', '').match(/['"`]/) !== null;
        const structural = (w: (typeof WRAPPERS)[number]) => STRUCTURAL.has(w[0]);
        const order = [...chain.filter((w) => !quoting(w) && !structural(w)), ...chain.filter((w) => structural(w) && !quoting(w)), ...chain.filter(quoting).slice(0, 1)];
        const line = order.reduce((acc, [, w]) => w(acc), seed);
        const d = decide(line, policy, ctx);
        expect(RANK[d.decision], `${line} → ${d.decision} (${d.rule}); unwrapped: ${base}`).toBeGreaterThanOrEqual(RANK[base]);
      }),
      { numRuns: 1500 },
    );
  });

  it('wrapping any dangerous table line in a shell string or a substitution never lowers its verdict', () => {
    fc.assert(
      fc.property(fc.constantFrom(...dangerous.filter((l) => !l.includes("'") && !l.includes('\n'))), fc.constantFrom<(c: string) => string>((c) => `sh -c '${c}'`, (c) => `echo $(${c})`, (c) => `sudo ${c}`, (c) => `true && ${c}`, (c) => `bash <<< '${c}'`), (line, w) => {
        const base = decide(line, policy, ctx).decision;
        const d = decide(w(line), policy, ctx);
        expect(RANK[d.decision], `${w(line)} → ${d.decision}`).toBeGreaterThanOrEqual(Math.min(RANK[base], RANK.ask));
      }),
      { numRuns: 800 },
    );
  });
});

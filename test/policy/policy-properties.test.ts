/**
 * Properties of the policy decision (fast-check): any string — random, or a dangerous line
 * mutated — gets a verdict with a rule and a reason and never throws; wrapping a dangerous
 * command in any supported wrapper (or several) never lowers its verdict; neither does
 * passing its path through variables, arrays, printf -v, $(echo …), defaults, functions, loops
 * and xargs, nested in any order (issue 19); an unknown value at a destructive position is
 * asked about; a line that does not parse is never allowed.
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

  // `sudo cd /var && rm -rf lib` moves nothing (the cd runs in sudo's process): sudo wraps such a line whole.
  it('wrapping any dangerous table line in a shell string or a substitution never lowers its verdict', () => {
    fc.assert(
      fc.property(fc.constantFrom(...dangerous.filter((l) => !l.includes("'") && !l.includes('\n'))), fc.constantFrom<(c: string) => string>((c) => `sh -c '${c}'`, (c) => `echo $(${c})`, (c) => (/^(?:cd|pushd)\s/.test(c) ? `sudo sh -c '${c}'` : `sudo ${c}`), (c) => `true && ${c}`, (c) => `bash <<< '${c}'`), (line, w) => {
        const base = decide(line, policy, ctx).decision;
        const d = decide(w(line), policy, ctx);
        expect(RANK[d.decision], `${w(line)} → ${d.decision}`).toBeGreaterThanOrEqual(Math.min(RANK[base], RANK.ask));
      }),
      { numRuns: 800 },
    );
  });

  it('passing the path through variables, arrays, printf -v, $(echo), defaults, functions, loops or xargs (nested) never lowers the verdict', () => {
    // [command before the path, a path that makes it dangerous]
    const seeds: Array<[string, string]> = [['rm -rf', '~'], ['rm -rf', '/'], ['rm -rf', '/etc'], ['rm -rf', '~/.ssh'], ['rm -fr', '$HOME'], ['rm -rf', '~/.config/mish'], ['rm -r', '..'], ['chmod -R 777', '/'], ['chown -R nobody', '/usr'], ['shred -u', '~/.ssh/id_rsa'], ['rm -rf', '/Applications'], ['rm -rf', '~/projects/*']];
    type Step = (st: { setup: string[]; expr: string; k: number }) => void;
    // Steps that hand the value on in a new name (any number, any order).
    const steps: Step[] = [
      (st) => { st.setup.push(`v${st.k}=${st.expr}`); st.expr = `"$v${st.k}"`; },
      (st) => { st.setup.push(`export V${st.k}=${st.expr}`); st.expr = `"$V${st.k}"`; },
      (st) => { st.setup.push(`a${st.k}=(${st.expr})`); st.expr = `"\${a${st.k}[@]}"`; },
      (st) => { st.setup.push(`printf -v p${st.k} '%s' ${st.expr}`); st.expr = `"$p${st.k}"`; },
      (st) => { st.expr = `"$(echo ${st.expr})"`; },
      (st) => { st.setup.push(`u${st.k}=${st.expr}`); st.expr = `"\${u${st.k}:-/tmp/x}"`; },
      (st) => { st.setup.push(`read -r r${st.k} <<< ${st.expr}`); st.expr = `"$r${st.k}"`; },
    ];
    // How the command finally receives it.
    const finals: Array<(pre: string, expr: string) => string> = [
      (pre, e) => `${pre} ${e}`,
      (pre, e) => `wipe() { ${pre} "$1"; }; wipe ${e}`,
      (pre, e) => `for d in ${e}; do ${pre} "$d"; done`,
      (pre, e) => `set -- ${e}; ${pre} "$@"`,
      (pre, e) => `echo ${e} | xargs ${pre}`,
      (pre, e) => `sh -c '${pre} "$1"' _ ${e.replace(/'/g, '')}`,
    ];
    fc.assert(
      fc.property(fc.constantFrom(...seeds), fc.array(fc.nat(steps.length - 1), { maxLength: 4 }), fc.nat(finals.length - 1), ([pre, target], chain, fin) => {
        const base = decide(`${pre} ${target}`, policy, ctx).decision;
        const st = { setup: [] as string[], expr: target, k: 0 };
        for (const i of chain) {
          st.k++;
          steps[i](st);
        }
        const last = finals[fin](pre, st.expr);
        // sh -c's $1 gets the word as the outer shell expanded it: only for a plain start.
        if (fin === 5 && (chain.length > 0 || /[*'"]/.test(target))) return;
        const line = [...st.setup, last].join('; ');
        const d = decide(line, policy, ctx);
        expect(RANK[d.decision], `${line} → ${d.decision} (${d.rule}); direct: ${base}`).toBeGreaterThanOrEqual(RANK[base]);
        expect(RANK[d.decision]).toBeGreaterThanOrEqual(RANK.ask);
      }),
      { numRuns: 1500 },
    );
  });

  it('an unknown value at a destructive position is asked about (or worse), never allowed', () => {
    const destructive = ['rm -rf', 'rm -f', 'rm', 'shred -u', 'mv x', 'truncate -s 0', 'chmod -R 777', 'chown -R me', 'rmdir', 'unlink', 'find', 'rsync -a --delete empty/'];
    const known = new Set(['HOME', 'TMPDIR', 'TMP', 'TEMP', 'USER', 'LOGNAME', 'SHELL', 'IFS', 'PWD']);
    const unknownExpr = fc.oneof(
      fc.stringMatching(/^[A-Z][A-Z0-9_]{0,10}$/).filter((v) => !known.has(v)).map((v) => `"$${v}"`),
      fc.stringMatching(/^[A-Z][A-Z0-9_]{0,10}$/).filter((v) => !known.has(v)).map((v) => `\${${v}}/data`),
      // ("$1" is unknown only at the top: inside sh -c '…' with no words after it, it is empty.)
      fc.constantFrom('"$(cat dirs.txt)"', '$(curl -s https://x.example/p)', '`head -1 list`', '"$(git config --get x.dir)"', '"$(read -r x < f; echo "$x")"'),
    );
    fc.assert(
      fc.property(fc.constantFrom(...destructive), unknownExpr, fc.constantFrom<(c: string) => string>((c) => c, (c) => `sudo ${c}`, (c) => `sh -c '${c.replace(/'/g, '')}'`, (c) => `( ${c} )`, (c) => `true && ${c}`), (pre, expr, wrap) => {
        const line = wrap(pre === 'find' ? `find ${expr} -delete` : `${pre} ${expr}`);
        const d = decide(line, policy, ctx);
        expect(RANK[d.decision], `${line} → ${d.decision} (${d.rule})`).toBeGreaterThanOrEqual(RANK.ask);
      }),
      { numRuns: 800 },
    );
  });
});

/**
 * The evaluators the evasion fixes rest on, checked against the real programs: bash's printf /
 * echo (printf.ts) against /usr/bin/bash, the IFS field splitting (values.ts) against bash's own
 * splitting, and the Tcl reader (interpreters/tcl.ts) against tclsh with `exec` / `spawn`
 * replaced by procs that print the argv they were given. A reader that drifts from the
 * program it models is what lets `eval "$(printf '\162\155 -rf ~')"` through; the decisions
 * themselves are in tables/evasions.tsv (policy-domains.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinPolicy, decide } from '../../src/main/core/policy/index.js';
import { bashPrintf, echoOutput } from '../../src/main/core/policy/printf.js';
import { resolveLine } from '../../src/main/core/policy/resolve.js';
import { analyzeTcl } from '../../src/main/core/policy/interpreters/tcl.js';
import { itUnless, missing } from '../helpers/skip.js';

const policy = builtinPolicy(readFileSync(path.join(__dirname, '../../grammars/_meta/policy.toml'), 'utf8'), 'builtin');
const ctx = { cwd: '/work/project', home: '/home/me' };

/** What bash prints for `printf ARGS…` (or `echo ARGS…`), bytes as latin1 code units like printf.ts's output. */
function bash(builtin: 'printf' | 'echo', args: string[]): string {
  return execFileSync('bash', ['-c', `${builtin} "$@"`, 'bash', ...args], { env: { PATH: process.env.PATH, LC_ALL: 'C' } }).toString('latin1');
}

describe('printf.ts prints what bash prints', () => {
  const cases: string[][] = [
    ['\\162\\155 -rf ~'],
    ['\\x72\\x6d'],
    ['\\x7'],
    ['\\0162'],
    ['\\u0072\\u006d'],
    ['%s%s', 'r', 'm'],
    ['%b', '\\0162\\0155'],
    ['%b', '\\x72m\\c never'],
    ['%s-', 'a', 'b', 'c'],
    ['%5s|%-4s|%.2s', 'ab', 'c', 'xyz'],
    ['%d %i %o %x %X %u', '42', '0x1f', '8', '255', '255', '7'],
    ['%c%c', 'rm', 'm'],
    ['%d', "'r"],
    ['\\\\%o\\\\%o', '114', '109'],
    ['%05d|%-5d|%+d', '42', '42', '42'],
    ['%*s|%.*s', '4', 'ab', '2', 'xyz'],
    ['a\\tb\\nc\\a\\e'],
    ['%%s %s', 'x'],
    ['no conversion', 'extra'],
    ['\\q\\'],
  ];
  it.each(cases.map((c) => [JSON.stringify(c), c] as const))('printf %s', (_n, args) => {
    expect(bashPrintf(args)).toBe(bash('printf', args));
  });

  it('gives up (undefined) on what it does not model rather than guessing', () => {
    expect(bashPrintf(['%f', '1'])).toBeUndefined();
    expect(bashPrintf(['%(%Y)T', '-1'])).toBeUndefined();
    expect(bashPrintf(['%d', 'rm'])).toBeUndefined();
    expect(bashPrintf(['%q', 'a b'])).toBeUndefined();
    // A width past the output cap is not built first (the review found %9999999999s threw "Invalid string length").
    expect(bashPrintf(['%9999999999s', 'rm'])).toBeUndefined();
    expect(bashPrintf(['%*s', '-400000000', 'rm'])).toBeUndefined();
  });

  it.each([[['-e', '\\x72\\x6d']], [['-e', 'a\\0101b']], [['-E', '\\x72']], [['-n', 'plain']], [['-e', 'a\\cb']], [['a', 'b']]])('echo %j', (args) => {
    const e = echoOutput(args)!;
    expect(e.text + (e.newline ? '\n' : '')).toBe(bash('echo', args));
  });

  it('echo with a backslash and neither -e nor -E is unknown: dash decodes it, bash does not', () => {
    expect(echoOutput(['\\x72\\x6d'])).toBeUndefined();
    expect(execFileSync('dash', ['-c', 'echo "\\0162\\0155"']).toString()).toBe('rm\n');
  });
});

describe('IFS splitting follows bash', () => {
  const lines: Array<[string, string]> = [
    ['IFS=_; c=rm_-rf_x', '$c'],
    ['IFS=_; c=a__b_', '$c'],
    ["IFS=' _'; c=' a _ b  c '", '$c'],
    ['IFS=/; c=/a/b', '$c'],
    ['c="a  b"', 'x$c'],
    ['a=(p "q r" s)', '"${a[@]}"'],
    ['set -- p "q r"', '"$@"'],
  ];
  // The line's IFS is known only as its last assignment (a subshell's, a function's or a branch's
  // may not hold), so an IFS other than bash's default adds its reading first and keeps the
  // default one beside it (worst case); with the default IFS there is one reading.
  it.each(lines)('%s; printf %s', (setup, word) => {
    const expected = execFileSync('bash', ['-c', `${setup}; printf '%s\\n' ${word}`]).toString().split('\n').slice(0, -1);
    const got = resolveLine(`${setup}; printf '%s\\n' ${word}`).commands.find((c) => c.name === 'printf')!;
    expect(got.argv.slice(2, 2 + expected.length)).toEqual(expected);
    if (!setup.startsWith('IFS=')) expect(got.argv.slice(2)).toEqual(expected);
  });
});

describe('the Tcl reader finds what tclsh runs', () => {
  const scripts = [
    'exec rm -rf ~',
    'set x [exec ls -la /tmp]',
    'proc f {} { exec touch /tmp/a b }\nf',
    'if {1} { exec echo "a b" c }',
    'exec echo a\\x62c {d e}',
    'catch {exec false} msg',
    'foreach d {1} { exec echo $d }',
  ];
  const stub = 'rename exec {}; proc exec args { puts [join $args \\x01] }\n';
  itUnless(missing('tclsh'))('every exec argv tclsh runs is one the reader reports (substituted words as unknown)', () => {
    for (const s of scripts) {
      const ran = execFileSync('tclsh', [], { input: stub + s }).toString().split('\n').filter(Boolean).map((l) => l.split('\x01'));
      const read = analyzeTcl(s).argv;
      for (const argv of ran) {
        const match = read.some((r) => r.length === argv.length && r.every((x, k) => x === argv[k] || x === '$MISH_INTERPRETER_VALUE'));
        expect(match, `${JSON.stringify(s)}: tclsh ran ${JSON.stringify(argv)}, the reader found ${JSON.stringify(read)}`).toBe(true);
      }
    }
  });

  it('code built at run time or a command named by a variable is unknown', () => {
    expect(analyzeTcl('eval $argv').unknown).toBe(true);
    expect(analyzeTcl('set c exec; $c rm -rf ~').unknown).toBe(true);
    expect(analyzeTcl('puts hello; set x [expr {1+2}]').unknown).toBe(false);
  });
});

describe('the adversary pass 2 cases (hook-cases.json H03 H10 H11 H12 H13 H14) are escalated', () => {
  const cases = [
    "shopt -s expand_aliases\nalias r='rm -rf'\nr ~",
    'eval "$(printf \'\\162\\155 -rf ~\')"',
    'IFS=_; c=rm_-rf_$HOME; $c',
    'declare -n r=HOME; rm -rf "$r"',
    "sudo -s <<< 'rm -rf /'",
    "tclsh <<< 'exec rm -rf ~'",
  ];
  it.each(cases)('%s', (line) => {
    expect(decide(line, policy, ctx).decision).not.toBe('allow');
  });
});

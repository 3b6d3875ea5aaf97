/**
 * Values the check follows (issue 19, values.ts): variables, arrays, `read`, `printf -v`,
 * `set --`, functions, `for` over literal words, parameter expansions with defaults and
 * trimming, knowable command substitutions, `cd` / `env -C` / `sudo -D`, data piped into
 * xargs from printers of home, root or the project. Each line names the decision AND the rule
 * expected; all of them were allowed before values.ts. An unknown value at a destructive
 * position is asked about (rule unknown-target), never assumed safe; the benign look-alikes
 * stay allowed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtinPolicy, decide, RANK } from '../../src/main/core/policy/index.js';
import { readTable } from './tables.js';

const policy = builtinPolicy(readFileSync(path.join(__dirname, '../../grammars/_meta/policy.toml'), 'utf8'), 'builtin');
const ctx = { cwd: '/work/project', home: '/home/me' };
const HOME_RM = 'rm-recursive-root-or-home';

const followed: Array<[string, string, string]> = [
  ['d=$HOME; rm -rf "$d"', 'ask', HOME_RM],
  ['d=~; rm -rf $d/', 'ask', HOME_RM],
  ['d=~/.config/mish; rm -rf $d', 'forbid', 'mish-own-files'],
  ['a=(x "$HOME" y); rm -rf "${a[@]}"', 'ask', HOME_RM],
  ['a=(x y); a+=(~); rm -rf "${a[2]}"', 'ask', HOME_RM],
  ['read -r d <<< "$HOME"; rm -rf "$d"', 'ask', HOME_RM],
  ['echo ~ | { read d; rm -rf "$d"; }', 'ask', HOME_RM],
  ['f(){ rm -rf "$1"; }; f ~', 'ask', HOME_RM],
  ['function wipe { rm -rf "$@"; }; wipe build /', 'ask', HOME_RM],
  ['g(){ sudo rm -rf "$2"; }; g x /etc', 'ask', HOME_RM],
  ['for x in build ~ dist; do rm -rf "$x"; done', 'ask', HOME_RM],
  // Found by the wrapper property: a function redefined inside its own body, and a recursive call with new arguments.
  ['f() { f() { rm -rf /; }; f; }; f', 'ask', HOME_RM],
  ['f(){ rm -rf "$1"; f ~; }; f x', 'ask', HOME_RM],
  ['set -- / ~; rm -rf "$1"', 'ask', HOME_RM],
  ['set -- a ~; shift; rm -rf "$1"', 'ask', HOME_RM],
  ["printf -v d '%s' ~; rm -rf \"$d\"", 'ask', HOME_RM],
  ['unset X; rm -rf "${X:-/}"', 'ask', HOME_RM],
  // The folder above home (it holds mish's own files, as home does): the recursive delete's ask, like rm -rf ~.
  ['rm -rf "${HOME%/*}"', 'ask', HOME_RM],
  ['X=~/; rm -rf "${X%%/}"', 'ask', HOME_RM],
  ['rm -rf "$(echo ~)"', 'ask', HOME_RM],
  ['rm -rf "$(dirname "$PWD")"', 'ask', HOME_RM],
  ['rm -rf "$(git rev-parse --show-toplevel)"', 'ask', HOME_RM],
  ['rm -rf "$(echo fi8= | base64 -d)"', 'ask', HOME_RM],
  ['rm -rf "$(base64 -d <<< fi8=)"', 'ask', HOME_RM],
  ['x=rm; $x -rf ~', 'ask', HOME_RM],
  ['cd ~ && rm -rf .', 'ask', HOME_RM],
  ['cd .. && rm -rf *', 'ask', HOME_RM],
  ['env -C /etc rm -rf *', 'ask', HOME_RM],
  ['sudo -D /usr rm -rf lib', 'ask', HOME_RM],
  ['sudo --chdir=/ rm -rf boot', 'ask', HOME_RM],
  ['pwd | xargs rm -rf', 'ask', HOME_RM],
  ['echo $HOME | xargs rm -rf', 'ask', HOME_RM],
  ['git rev-parse --show-toplevel | xargs rm -rf', 'ask', HOME_RM],
  ['cd ~ && pwd | xargs rm -rf', 'ask', HOME_RM],
  ['realpath ~ | xargs rm -rf', 'ask', HOME_RM],
  // Unknown values at destructive positions: the worst case.
  ['rm -rf "$d"', 'ask', 'unknown-target'],
  ['rm -rf "$BUILD_DIR/out"', 'ask', 'unknown-target'],
  ['rm -rf "${X:-/tmp/x}"', 'ask', 'unknown-target'],
  ['d=$(curl -s https://x.example/p); rm -rf "$d"', 'ask', 'unknown-target'],
  ['rm -rf $(cat list.txt)', 'ask', 'unknown-target'],
  ['mv "$SRC" /tmp/trash', 'ask', 'unknown-target'],
  ['shred -u "$F"', 'ask', 'unknown-target'],
  ['chmod -R 777 "$DIR"', 'ask', 'unknown-target'],
  ['chown -R me "$DIR"', 'ask', 'unknown-target'],
  ['find "$D" -delete', 'ask', 'unknown-target'],
  ['rsync -a --delete empty/ "$T"', 'ask', 'unknown-target'],
  ['while read f; do rm -rf "$f"; done < list.txt', 'ask', 'unknown-target'],
];

const benign = [
  'f(){ rm -rf "$1"; }; f build',
  'for x in build dist; do rm -rf "$x"; done',
  'rm -rf build/"$name"',
  't=$(mktemp -d); rm -rf "$t"',
  "rm -rf '~'",
  'rm -rf "~/x"',
  'rm -rf ./build',
  'd=build; rm -rf "$d"',
  'd=node_modules/.cache; rm -rf $d',
  'for f in *.o; do rm "$f"; done',
  'find . -name "*.pyc" -delete',
  'cd build && rm -rf dist',
  'cd "$(git rev-parse --show-toplevel)" && npm test',
  'env -C sub make',
  'X=${X:-default}; echo "$X"',
  'echo "${HOME%/*}"',
  'rm -rf "${TMPDIR:-/tmp}/mish-test"',
  'printf -v n "%s" out; rm -rf "$n"',
  'set -- a b; echo "$@"',
  'a=(one two); echo "${a[@]}"',
];

describe('values the check follows', () => {
  it.each(followed)('%s → %s (%s)', (line, decision, rule) => {
    const d = decide(line, policy, ctx);
    expect(d.decision, JSON.stringify(d.matches)).toBe(decision);
    expect(d.matches.map((m) => m.rule)).toContain(rule);
  });

  it.each(benign)('stays allowed: %s', (line) => {
    const d = decide(line, policy, ctx);
    expect(d.decision, JSON.stringify(d.matches)).toBe('allow');
  });
});

/** Ways to hand a line's target to it through a value: each must keep the decision. */
const INDIRECTIONS: Array<[string, (cmd: string, target: string) => string]> = [
  ['variable', (c, t) => `v=${t}; ${c} "$v"`],
  ['variable unquoted', (c, t) => `v=${t}; ${c} $v`],
  ['array', (c, t) => `v=(x ${t}); ${c} "\${v[1]}"`],
  ['function', (c, t) => `f(){ ${c} "$1"; }; f ${t}`],
  ['function $@', (c, t) => `f(){ ${c} "$@"; }; f ${t}`],
  ['function redefined inside itself', (c, t) => `f(){ f(){ ${c} "$1"; }; f "$1"; }; f ${t}`],
  ['for', (c, t) => `for v in a ${t}; do ${c} "$v"; done`],
  ['set --', (c, t) => `set -- ${t}; ${c} "$1"`],
  ['read', (c, t) => `read v <<< ${t}; ${c} "$v"`],
  ['printf -v', (c, t) => `printf -v v %s ${t}; ${c} "$v"`],
  ['default', (c, t) => `${c} "\${UNSET_X:-${t}}"`],
  ['echo subst', (c, t) => `${c} "$(echo ${t})"`],
  ['xargs', (c, t) => `echo ${t} | xargs ${c}`],
];

describe('properties: indirection never lowers a decision', () => {
  // Table lines of the form `CMD... TARGET` whose last word is a plain path.
  const cases = readTable('dangerous.txt')
    .map((l) => /^((?:rm|chmod|chown|mv|shred)(?: -[\w-]+| \d+| [\w:]+(?= -))* ?)(?: )([~/][\w./~*-]*)$/.exec(l))
    // Globs are left out: `v=/e*; rm -rf "$v"` names a file called `/e*`, which is harmless.
    .filter((m): m is RegExpExecArray => m !== null && !m[1].includes('"') && !/[*?[]/.test(m[2]))
    .map((m) => [m[1].trim(), m[2]] as const);

  it('has table lines to build on', () => expect(cases.length).toBeGreaterThan(20));

  it('a dangerous command behind any indirection keeps at least its decision', () => {
    fc.assert(
      fc.property(fc.constantFrom(...cases), fc.constantFrom(...INDIRECTIONS), ([cmd, target], [, wrap]) => {
        const plain = decide(`${cmd} ${target}`, policy, ctx).decision;
        const line = wrap(cmd, target);
        const got = decide(line, policy, ctx).decision;
        expect(RANK[got], `${line} → ${got}, plain ${plain}`).toBeGreaterThanOrEqual(RANK[plain]);
      }),
      { numRuns: 300 },
    );
  });

  it('an unknown value at a destructive position asks', () => {
    const unknowns = ['"$X"', '$X', '"${X}"', '"$(cat f)"', '`cat f`', '"$X/sub"', '"${X:-build}"'];
    const commands = ['rm -rf', 'rm', 'shred -u', 'mv', 'rmdir', 'unlink', 'chown -R me', 'truncate -s 0'];
    fc.assert(
      fc.property(fc.constantFrom(...commands), fc.constantFrom(...unknowns), (c, u) => {
        const d = decide(`${c} ${u}`, policy, ctx);
        expect(RANK[d.decision], `${c} ${u} → ${d.decision}`).toBeGreaterThanOrEqual(RANK.ask);
      }),
      { numRuns: 100 },
    );
  });
});

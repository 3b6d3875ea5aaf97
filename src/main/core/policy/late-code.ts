/**
 * Code bash runs from places that do not look like commands (adversary pass 4, H14–H19):
 *
 * - a variable's value read as an arithmetic expression (`$((x))`, `(( x ))`, `let x`,
 *   `[[ $x -eq 1 ]]`, an array subscript `${a[$x]}`): bash evaluates `a[$(cmd)]` in it, so the
 *   command substitution in a value the line stored unexpanded (`x='a[$(rm -rf ~)]'`) runs;
 * - `${x@P}` (prompt expansion) runs the `$(…)` / backticks in x's value;
 * - `hash -p /bin/rm ls`: `ls` is rm from then on (read like an alias);
 * - the start-up file a shell reads first: `BASH_ENV` / `ENV` in its environment, `--rcfile` /
 *   `--init-file` on its command line.
 *
 * Pure helpers; resolve.ts / shell-command.ts parse what they return.
 */
import type { Node } from './ast.js';
import type { Piece } from './values.js';

/** A value holding a command substitution. */
const CODE = /\$\(|`/;
/** Names in an arithmetic expression (and in the values it reads: evaluation is recursive). */
const NAMES = /[A-Za-z_]\w*/g;
/** Levels of "a name whose value names another" followed (bash stops at 1024; real lines use one). */
const MAX_NAME_HOPS = 4;


/**
 * The stored values (known candidates) an arithmetic evaluation of `text` (or of the variables
 * `names`) would read that hold a command substitution: each is run when evaluated.
 */
export function codeInValues(lookup: (name: string) => Piece, text: string, names?: string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  let todo = names ?? [...text.matchAll(NAMES)].map((m) => m[0]);
  for (let hop = 0; hop < MAX_NAME_HOPS && todo.length; hop++) {
    const next: string[] = [];
    for (const n of todo) {
      if (seen.has(n)) continue;
      seen.add(n);
      for (const v of lookup(n).cands) {
        if (CODE.test(v)) out.push(v);
        else next.push(...[...v.matchAll(NAMES)].map((m) => m[0]));
      }
    }
    todo = next;
  }
  return out;
}

/** A value as shell text whose substitutions run when read (`: a[$(rm -rf ~)]`). */
export function asWord(value: string): string {
  return `: ${value}`;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * `hash -p PATH NAME…`: each NAME now runs PATH. Returned as alias text (a known path quoted,
 * an unknown one as written, so it is read as the dynamic word it is).
 */
export function hashBindings(argv: readonly string[], literal: readonly boolean[], raw: readonly string[]): Array<[string, string]> {
  const k = argv.findIndex((x, i) => i > 0 && /^-[a-z]*p$/.test(x));
  if (k < 0 || argv[k + 1] === undefined) return [];
  const target = literal[k + 1] ? quote(argv[k + 1]) : raw[k + 1];
  return argv.slice(k + 2).filter((x) => /^[^=/\s$`'"-][^=/\s$`'"]*$/.test(x)).map((n) => [n, target]);
}

/** `bash --rcfile F -i`, `bash --init-file F`: the file read first (index of its word in argv). */
export function rcFileIndex(argv: readonly string[]): number {
  const k = argv.findIndex((x) => x === '--rcfile' || x === '--init-file');
  return k > 0 && k + 1 < argv.length ? k + 1 : -1;
}

/** The variables naming a file a shell reads before its command: bash's `BASH_ENV` (non-interactive) and sh's `ENV`. */
export const STARTUP_VARIABLES = ['BASH_ENV', 'ENV'] as const;

/** Where bash evaluates arithmetic (a command's words and assignments, `((…))`, `for ((…))`, `[[ ]]`, `$((…))`, `${s:x}`, `${a[x]}`) or prompt-expands (`${x@P}`). */
export const EVALUATING = /^(?:Command|ArithmeticCommand|ArithmeticFor|TestCommand|ArithmeticExpansion|ParameterExpansion)$/;
/** A stored value whose command substitution an arithmetic evaluation runs: one in an array subscript (`a[$(cmd)]`). */
const SUBSCRIPT_CODE = /\[[^\]]*(?:\$\(|`)/;

/**
 * The stored values node `n` (one of EVALUATING) may run as code: for any arithmetic context,
 * those with a subscripted substitution that the node names (worst case: any mention of the name,
 * `echo "$x"` included — such values are made to be evaluated), directly or through another
 * variable; for `${x@P}`, x's value with any substitution.
 */
export function evaluatedCode(n: Node, source: string, values: { lookup(name: string): Piece; namesHolding(re: RegExp): string[] }): string[] {
  const op = n.type === 'ParameterExpansion' ? (n.operation as Node | undefined) : undefined;
  const prompt = op?.type === 'Transform' && (op.operand as Node | undefined)?.value === 'P' ? codeInValues((k) => values.lookup(k), '', [String(n.parameter ?? '')]) : [];
  if (n.type === 'ParameterExpansion' && !prompt.length) return [];
  const held = new Set(values.namesHolding(SUBSCRIPT_CODE));
  if (held.size === 0) return prompt;
  // A name that holds another's name (`y=x; echo $((y))`) is followed by codeInValues.
  const used = [...source.slice(Number(n.pos ?? 0), Number(n.end ?? 0)).matchAll(NAMES)].map((m) => m[0]);
  return [...prompt, ...codeInValues((k) => values.lookup(k), '', used).filter((v) => SUBSCRIPT_CODE.test(v))];
}

/**
 * An assignment into bash's hash table (`BASH_CMDS[ls]=/bin/rm`, `BASH_CMDS=([ls]=/bin/rm)`,
 * `declare -A BASH_CMDS=(…)`): each name now runs that path, as after `hash -p`. The value is
 * returned as written (alias text, read again where the name is used).
 */
export function hashAssignments(text: string): Array<[string, string]> {
  const one = /^BASH_CMDS\[["']?([^\]"']+)["']?\]\+?=([\s\S]*)$/.exec(text);
  if (one) return [[one[1], one[2]]];
  const all = /^BASH_CMDS\+?=\(([\s\S]*)\)$/.exec(text);
  return all ? [...all[1].matchAll(/\[["']?([^\]"']+)["']?\]=(\S+)/g)].map((m) => [m[1], m[2]]) : [];
}

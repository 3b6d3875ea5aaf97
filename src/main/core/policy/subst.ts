/**
 * A command substitution's output, when it is knowable from the line alone (`$(echo ~)`,
 * `$(pwd)` after the line's cds, `$(echo … | base64 -d)`): the script must be one simple command
 * or a pipeline of them whose words are all known; Values.substOutput says what each prints.
 * Anything else is unknown (the caller treats it as the worst case). Moved out of resolve.ts.
 */
import type { Node } from './ast.js';
import { ELEMENT, Values, type Piece } from './values.js';
import { commandName } from './wrappers.js';

/** `cwd`: the directory after the line's cds (null unknown, undefined the line's own); `subst` reads nested substitutions. */
export function knowableOutput(p: Node, values: Values, cwd: string | null | undefined, subst: (n: Node) => Piece): Piece {
  const unknown: Piece = { cands: [], unknown: true };
  let script: Node | undefined;
  try {
    script = p.script as Node | undefined;
  } catch {
    return unknown;
  }
  const stmts = (script?.commands as Node[] | undefined) ?? [];
  if (stmts.length !== 1) return unknown;
  const top = stmts[0].command as Node | undefined;
  const list = top?.type === 'Pipeline' ? ((top.commands as Node[]) ?? []) : [top];
  const cmds: Array<{ argv: string[]; known: boolean; stdin?: string }> = [];
  for (const c of list) {
    if (!c || c.type !== 'Command' || !c.name) return unknown;
    const argv: string[] = [];
    let stdin: string | undefined;
    for (const x of [c.name as Node, ...((c.suffix as Node[]) ?? [])]) {
      if (x.type === 'Word') {
        const v = values.word(x, subst);
        if (v.unknown || v.values.length !== 1) return unknown;
        argv.push(...v.values[0].split(ELEMENT));
      } else if (x.type === 'HereString') {
        const v = values.word(x.target as Node, subst);
        if (v.unknown || v.values.length !== 1) return unknown;
        stdin = `${v.values[0]}\n`;
      } else return unknown;
    }
    cmds.push({ argv, known: true, stdin });
  }
  let out = Values.substOutput(cmds);
  if (out === undefined) return unknown;
  if (out === '.' && commandName(cmds[cmds.length - 1].argv[0]) === 'pwd' && cwd !== undefined) {
    if (cwd === null) return unknown;
    out = cwd;
  }
  return { cands: [out], unknown: false };
}

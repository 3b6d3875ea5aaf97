/**
 * Destructive positions: the arguments a command deletes, moves, overwrites or hands over
 * recursively. A value there that cannot be known before the line runs (an environment
 * variable, a program's output, `read` from a pipe) is the worst case, never assumed safe:
 * the command gets the fact `unknown-target` (→ ask).
 */
import { positionals } from '../router/argv.js';
import type { ResolvedCommand } from './resolved.js';

/** Commands whose every path argument is destroyed or moved. */
const DELETERS = new Set(['rm', 'rmdir', 'unlink', 'shred', 'srm', 'wipe', 'trash', 'trash-put', 'gio', 'rimraf', 'del', 'mv', 'truncate']);
/** Commands destructive only with a recursive flag. */
const RECURSIVE = new Set(['chmod', 'chown', 'chgrp', 'setfacl', 'chattr']);

/** A word whose value starts with something unknown (`$d`, `${X}/y`, `$(cmd)`, backticks). */
function unknownPrefix(v: string, literal: boolean): boolean {
  return !literal && (/^["']?\$/.test(v) || v.startsWith('`'));
}

export function unknownTarget(c: ResolvedCommand): boolean {
  const a = c.argv;
  if (a.length < 2) return false;
  const lit = (k: number) => c.literal[k] ?? true;
  const check = (words: string[]) => words.some((p) => {
    const k = a.indexOf(p, 1);
    return k > 0 && unknownPrefix(p, lit(k));
  });
  const pos = positionals(a.slice(1));
  if (DELETERS.has(c.name)) return check(pos);
  if (RECURSIVE.has(c.name) && a.slice(1).some((x) => /^-[a-zA-Z]*R/.test(x) || x === '--recursive')) return check(pos.slice(1));
  if (c.name === 'find' && a.some((x) => x === '-delete' || x === '-exec' || x === '-execdir')) {
    const starts: string[] = [];
    for (const x of a.slice(1)) {
      if (x.startsWith('-') || x === '(' || x === '!') break;
      starts.push(x);
    }
    return check(starts);
  }
  if (c.name === 'rsync' && a.some((x) => x.startsWith('--delete') || x === '--remove-source-files')) return check(pos);
  if (c.name === 'dd') return a.some((x, k) => x.startsWith('of=') && !lit(k) && /^of=\$/.test(x));
  return false;
}

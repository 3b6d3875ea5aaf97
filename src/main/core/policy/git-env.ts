/**
 * git's work tree given through its environment (`GIT_WORK_TREE=~ git --git-dir=x checkout -f`,
 * `export GIT_WORK_TREE=~; git …`, `env GIT_WORK_TREE=~ git …`): written into the git commands'
 * argv as the `--work-tree=DIR` option it stands for, so the rules that follow `--work-tree` and
 * `-C` (a checkout, reset or clean writing into home or a guarded folder) judge it the same way.
 * An option written on the command line wins over the variable, as in git.
 */
import { literalWords, type Ctx, type ResolvedCommand, type Walker } from './resolved.js';
import { laterStrings } from './wrappers.js';

export function gitWorkTree(cmds: readonly ResolvedCommand[], tree: { value: string; literal: boolean } | undefined): void {
  if (!tree) return;
  for (const c of cmds) {
    if (c.name !== 'git' || c.argv.some((a) => a === '--work-tree' || a.startsWith('--work-tree='))) continue;
    c.argv.splice(1, 0, `--work-tree=${tree.value}`);
    c.literal.splice(1, 0, tree.literal);
    c.glob.splice(1, 0, false);
  }
}

/**
 * Settings given through git's environment (`GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.x
 * GIT_CONFIG_VALUE_0='!rm -rf ~' git x`, `GIT_CONFIG_PARAMETERS="'alias.x=!…'"`): git reads them
 * as `-c KEY=VALUE`, so they are put into the git commands' argv as such, and the commands they
 * run are read (an alias, core.sshCommand, a pager) as `git -c` does.
 * `get`: a variable's value in the command's environment (undefined: not set on the line).
 */
export function gitConfigEnv(r: Walker, cmds: readonly ResolvedCommand[], get: (name: string) => { value: string; literal: boolean } | undefined, text: string, ctx: Ctx): ResolvedCommand[] {
  if (!cmds.some((c) => c.name === 'git')) return [];
  const out: string[] = [];
  const count = get('GIT_CONFIG_COUNT');
  const n = count?.literal && /^\d{1,2}$/.test(count.value) ? Number(count.value) : 0;
  for (let i = 0; i < n; i++) {
    const k = get(`GIT_CONFIG_KEY_${i}`);
    const v = get(`GIT_CONFIG_VALUE_${i}`);
    if (k && v) out.push(`${k.value}=${v.value}`);
  }
  const p = get('GIT_CONFIG_PARAMETERS');
  // `'key=value' 'k2'='v2'`: single-quoted items, `'\''` for a quote inside.
  const item = /'((?:[^']|'\\'')*)'(?:='((?:[^']|'\\'')*)')?/g;
  const unq = (s: string) => s.replace(/'\\''/g, "'");
  if (p) for (const m of p.value.matchAll(item)) out.push(m[2] === undefined ? unq(m[1]) : `${unq(m[1])}=${unq(m[2])}`);
  for (const c of cmds) {
    if (c.name !== 'git') continue;
    for (const s of out) {
      c.argv.splice(1, 0, '-c', s);
      c.literal.splice(1, 0, true, true);
      c.glob.splice(1, 0, false, false);
    }
  }
  return laterStrings('git', literalWords(['git', ...out.flatMap((x) => ['-c', x])])).flatMap((src) => r.parseAndWalk(src, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'git config env'], outerText: text, pipeIn: undefined }));
}

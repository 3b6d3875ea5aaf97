/**
 * git's work tree given through its environment (`GIT_WORK_TREE=~ git --git-dir=x checkout -f`,
 * `export GIT_WORK_TREE=~; git …`, `env GIT_WORK_TREE=~ git …`): written into the git commands'
 * argv as the `--work-tree=DIR` option it stands for, so the rules that follow `--work-tree` and
 * `-C` (a checkout, reset or clean writing into home or a guarded folder) judge it the same way.
 * An option written on the command line wins over the variable, as in git.
 */
import type { ResolvedCommand } from './resolved.js';

export function gitWorkTree(cmds: readonly ResolvedCommand[], tree: { value: string; literal: boolean } | undefined): void {
  if (!tree) return;
  for (const c of cmds) {
    if (c.name !== 'git' || c.argv.some((a) => a === '--work-tree' || a.startsWith('--work-tree='))) continue;
    c.argv.splice(1, 0, `--work-tree=${tree.value}`);
    c.literal.splice(1, 0, tree.literal);
    c.glob.splice(1, 0, false);
  }
}

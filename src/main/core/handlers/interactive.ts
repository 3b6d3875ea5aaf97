/**
 * Interactive programs (editors, pagers, REPLs, ssh without a command). CLI: the whole terminal
 * is handed over (raw stdin, resize, every byte to the screen), then one summary line. MCP:
 * they cannot run over a request/response channel, so the agent gets an error value saying
 * what to run instead.
 */
import type { Segment } from '../router/categorize.js';
import { capture } from './run.js';
import type { HandlerContext, Report, RunFacts } from './types.js';

export async function runInteractive(ctx: HandlerContext, command: string, name: string): Promise<{ report: Report; facts: Omit<RunFacts, 'enrichment'> }> {
  const term = ctx.terminal!;
  const { cols, rows } = term.size();
  let detach: (() => void) | undefined;
  const c = await capture(
    { ...ctx, cols, rows, onStart: (control) => (detach = term.attach(control)) },
    command,
    { keep: false, onData: (b) => term.write(b) },
  );
  detach?.();
  const secs = (c.durationMs / 1000).toFixed(1);
  return { report: { category: 'interactive', summary: `→ ${name}: interactive session ${secs}s, exit ${c.exitCode}` }, facts: c };
}

/** What the agent should do instead of an interactive command (MCP). */
export function interactiveAdvice(seg: Segment): string {
  const n = seg.name;
  const sub = seg.subcommand;
  if (n === 'git' && sub === 'commit') return 'pass the message: git commit -m "…" (or --no-edit)';
  if (n === 'git') return 'use the non-interactive form (no -i/-p), e.g. git add <paths>, git --no-pager …';
  if (['less', 'more', 'most', 'man'].includes(n)) return 'read the content directly: cat, head -n, sed -n \'1,80p\', or `man … | col -b`';
  if (['vi', 'vim', 'nvim', 'nano', 'emacs', 'pico'].includes(n)) return 'edit files non-interactively (sed -i, a heredoc `cat > file <<EOF`, or your own file-edit tool)';
  if (['top', 'htop', 'btop', 'watch'].includes(n)) return 'take a snapshot instead: ps aux --sort=-%cpu | head -20, or top -b -n 1 | head -30';
  if (['python', 'python3', 'node', 'ruby', 'irb', 'perl', 'php', 'lua', 'deno', 'bun'].includes(n)) return `run code non-interactively: ${n} -c/-e '…', a script file, or pipe it in (echo '…' | ${n})`;
  if (['psql', 'mysql', 'mariadb', 'sqlite3', 'redis-cli', 'mongosh', 'mongo'].includes(n)) return `pass the query: ${n === 'psql' ? "psql -c '…'" : n === 'sqlite3' ? "sqlite3 db.sqlite '…'" : `${n} -e '…'`}`;
  if (n === 'ssh' || n === 'mosh') return 'give the remote command: ssh host \'command\' — or open a session with sh_spawn and drive it with sh_interact';
  return 'run it in the background with sh_spawn and drive it with sh_interact (send keys, read output)';
}

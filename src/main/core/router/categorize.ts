/**
 * One simple command → its category and grammar (seeds 000/001 "Category Router": grammar
 * front matter → categories.toml → condense). Whether a line is dangerous is the policy
 * engine's decision (src/main/core/policy), not a category.
 */
import type { Category, Detection } from '../grammar/types.js';
import { basename } from './wrappers.js';
import { hasFlag, positionals, type CategoryRule, type RouterMeta } from './meta.js';
import type { SimpleCommand } from './parse.js';

/** Grammar detection, injected (the host wires `argv => detectTool(argv, registry)`). */
export type DetectFn = (argv: string[]) => Detection | undefined;

export type RoutedCategory = Exclude<Category, 'dangerous'>;

export interface Segment {
  command: SimpleCommand;
  /** Basename of the effective command (`/usr/bin/git` → `git`); '' for a bare assignment. */
  name: string;
  /** First positional argument after the command's global options (`git -C x status` → status). */
  subcommand?: string;
  category: RoutedCategory;
  /** Where the category came from, for `--explain` and tests. */
  categorySource: 'rule' | 'grammar-action' | 'meta-subcommand' | 'grammar' | 'meta' | 'builtin' | 'default';
  detection?: Detection;
}

/** Global options that take a value, before the subcommand. */
const GLOBAL_VALUE_FLAGS: Record<string, string[]> = {
  git: ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env'],
  docker: ['-H', '--host', '--context', '-c', '--config', '-l', '--log-level'],
  kubectl: ['-n', '--namespace', '--context', '--kubeconfig', '--cluster', '--user', '-s', '--server'],
  npm: ['-w', '--workspace', '--prefix'],
  // tmux's socket and config options (`tmux -L build capture-pane -p`).
  tmux: ['-L', '-S', '-f', '-T'],
};

/** Shell builtins that only change the shell's own state or print nothing of interest. */
const QUIET_BUILTINS = new Set(['cd', 'export', 'unset', 'set', 'shopt', 'alias', 'unalias', 'local', 'declare', 'typeset', 'readonly', 'true', 'false', ':', 'shift', 'return', 'exit', 'trap', 'umask', 'wait', 'source', '.', 'eval', 'test', '[', 'pushd', 'popd', 'sleep']);

export function subcommandOf(name: string, args: readonly string[]): string | undefined {
  return positionals(args, GLOBAL_VALUE_FLAGS[name] ?? [])[0];
}

/** Categorise one simple command. */
export function categorize(cmd: SimpleCommand, meta: RouterMeta, detect?: DetectFn): Segment {
  const argv = cmd.argv;
  if (argv.length === 0) return { command: cmd, name: '', category: 'passthrough', categorySource: 'builtin' };
  const name = basename(argv[0]);
  const args = argv.slice(1);
  const subcommand = subcommandOf(name, args);
  const detection = detect?.(argv);
  const base = { command: cmd, name, subcommand, detection };

  for (const rule of meta.rules) if (ruleApplies(rule, cmd, name, args, subcommand)) return { ...base, category: rule.category, categorySource: 'rule' };

  if (subcommand) {
    // "git add -p" style keys: command, subcommand and one flag.
    for (const a of args) {
      const k = meta.commands.get(`${name} ${subcommand} ${a}`);
      if (k && a.startsWith('-')) return { ...base, category: k, categorySource: 'meta-subcommand' };
    }
    const sub = meta.commands.get(`${name} ${subcommand}`);
    if (sub) return { ...base, category: sub, categorySource: 'meta-subcommand' };
  }
  const action = detection?.action ? detection.grammar.actions[detection.action] : undefined;
  const actionCat = action?.category;
  if (actionCat && actionCat !== 'dangerous') return { ...base, category: actionCat, categorySource: 'grammar-action' };
  const gCat = detection?.grammar.category;
  if (gCat && gCat !== 'dangerous') return { ...base, category: gCat, categorySource: 'grammar' };
  const c = meta.commands.get(name);
  if (c) return { ...base, category: c, categorySource: 'meta' };
  if (QUIET_BUILTINS.has(name)) return { ...base, category: 'passthrough', categorySource: 'builtin' };
  return { ...base, category: 'condense', categorySource: 'default' };
}

function ruleApplies(rule: CategoryRule, cmd: SimpleCommand, name: string, args: readonly string[], subcommand: string | undefined): boolean {
  if (!rule.commands.includes(name)) return false;
  let flagArgs = args;
  if (rule.tar_style && args[0] && !args[0].startsWith('-')) flagArgs = [`-${args[0]}`, ...args.slice(1)];
  if (rule.subcommand && (!subcommand || !rule.subcommand.includes(subcommand))) return false;
  if (rule.when_flags && !rule.when_flags.some((f) => hasFlag(flagArgs, f))) return false;
  if (rule.unless_flags && rule.unless_flags.some((f) => hasFlag(flagArgs, f))) return false;
  if (rule.unless_stdin && cmd.stdinRedirected) return false;
  if (rule.max_positional !== undefined || rule.unless_args) {
    let pos = positionals(args, rule.value_flags ?? []);
    if (rule.subcommand) pos = pos.slice(1);
    if (rule.max_positional !== undefined && pos.length > rule.max_positional) return false;
    // A second word that makes the subcommand a reader (`git stash show -p` prints a patch; `git stash -p` asks a human).
    if (rule.unless_args && pos.some((a) => rule.unless_args!.includes(a))) return false;
  }
  return true;
}

/** One policy finding above `allow`, as the router's dangerous category reports it. */
export interface DangerMatch {
  /** The policy rule id (used by "always this session" and in refusals). */
  id: string;
  /** The rule's reason. */
  description: string;
  /** Source text of the simple command that matched (or of the function for a fork bomb). */
  text: string;
  pos: number;
  /** The rule's decision: ask | operator | forbid (confirm and allow never make a line dangerous). */
  decision?: 'confirm' | 'ask' | 'operator' | 'forbid';
}

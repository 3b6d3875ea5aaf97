/**
 * One simple command → its category and grammar (seeds 000/001 "Category Router": grammar
 * front matter → categories.toml → condense), plus the dangerous-pattern check on the whole
 * parsed line.
 */
import type { Category, Detection } from '../grammar/types.js';
import { basename } from './wrappers.js';
import { hasFlag, positionals, type CategoryRule, type DangerPattern, type RouterMeta } from './meta.js';
import type { ParsedLine, SimpleCommand } from './parse.js';

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
  if (rule.max_positional !== undefined) {
    let pos = positionals(args, rule.value_flags ?? []);
    if (rule.subcommand) pos = pos.slice(1);
    if (pos.length > rule.max_positional) return false;
  }
  return true;
}

export interface DangerMatch {
  id: string;
  description: string;
  /** Source text of the simple command that matched (or of the function for a fork bomb). */
  text: string;
  pos: number;
}

function commandMatches(patterns: readonly string[], name: string): boolean {
  return patterns.some((p) => p === '*' || p === name || (p.endsWith('*') && name.startsWith(p.slice(0, -1))));
}

/** Every dangerous pattern matched anywhere in the line (substitutions and function bodies included). */
export function findDangers(line: ParsedLine, meta: RouterMeta): DangerMatch[] {
  const out: DangerMatch[] = [];
  const cmds = line.commands;
  for (const p of meta.dangerous) {
    if (p.selfSpawningFunction) {
      for (const f of line.functions) if (f.selfSpawning) out.push({ id: p.id, description: p.description, text: `${f.name}() { … }`, pos: 0 });
      continue;
    }
    for (let i = 0; i < cmds.length; i++) {
      const c = cmds[i];
      if (c.argv.length === 0) continue;
      if (matchesPattern(p, c, cmds)) out.push({ id: p.id, description: p.description, text: c.text, pos: c.pos });
    }
  }
  return out;
}

function matchesPattern(p: DangerPattern, c: SimpleCommand, all: readonly SimpleCommand[]): boolean {
  const name = basename(c.argv[0]);
  if (p.commands && !commandMatches(p.commands, name)) return false;
  const args = c.argv.slice(1);
  if (p.subcommand) {
    const sub = subcommandOf(name, args);
    if (!sub || !p.subcommand.includes(sub)) return false;
  }
  if (p.flagsAll && !p.flagsAll.every((alts) => alts.some((f) => hasFlag(args, f)))) return false;
  if (p.flagsAny && !p.flagsAny.some((f) => hasFlag(args, f))) return false;
  if (p.argsAny) {
    const re = p.argsAny;
    // Dynamic words are matched as written ("$HOME"/* → $HOME/*), so `rm -rf "$HOME"/*` is seen;
    // the home directory spelled out (/home/me/, what the agent's shell expanded ~/ to) is ~ too.
    if (!positionals(args).some((a) => re.test(a) || re.test(homeAsTilde(a)))) return false;
  }
  if (p.stdinAny) {
    const re = p.stdinAny;
    const fed = c.redirects.filter((r) => r.op.startsWith('<<')).map((r) => r.target ?? '');
    if (!fed.some((t) => re.test(t))) return false;
  }
  if (p.redirectAny) {
    const re = p.redirectAny;
    if (!c.redirects.some((r) => r.op.startsWith('>') && r.op !== '>&' && r.target !== undefined && re.test(r.target))) return false;
  }
  if (p.pipedTo) {
    const { index, position, length } = c.pipeline;
    if (position >= length - 1) return false;
    const downstream = all.filter((o) => o.pipeline.index === index && o.pipeline.position > position);
    if (!downstream.some((o) => o.argv.length > 0 && p.pipedTo!.includes(basename(o.argv[0])))) return false;
  }
  return true;
}

/** `/home/me/x` → `~/x` when HOME is /home/me (HOME of this process: the shell the command runs in inherits it). */
function homeAsTilde(arg: string): string {
  const home = process.env.HOME?.replace(/\/+$/, '');
  if (!home) return arg;
  const a = arg.replace(/\/{2,}/g, '/');
  return a === home || a.startsWith(`${home}/`) ? `~${a.slice(home.length)}` : arg;
}

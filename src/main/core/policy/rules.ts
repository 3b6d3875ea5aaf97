/**
 * Policy rules: the TOML schema (grammars/_meta/policy.toml, ~/.config/mish/policy.toml,
 * .mish/policy.toml, $MISH_POLICY, --policy), compiled once, and how one rule matches one
 * resolved command. A malformed file is an error value naming the file, the line and the rule.
 */
import { parseToml } from '../toml/parse-toml.js';
import { z } from 'zod';
import { normalizePath, targetForms } from './paths.js';
import { positionalArgs, type ResolvedCommand } from './resolve.js';

export const VERDICTS = ['allow', 'confirm', 'ask', 'operator', 'forbid'] as const;
export type Verdict = (typeof VERDICTS)[number];
/** Strictness order: a line's decision is its strictest command's; a fallback only ever moves up. */
export const RANK: Record<Verdict, number> = { allow: 0, confirm: 1, ask: 2, operator: 3, forbid: 4 };
export const stricter = (a: Verdict, b: Verdict): Verdict => (RANK[a] >= RANK[b] ? a : b);

/**
 * The schemas are built on first use, not at module load: `mish hook` (a process per agent
 * command) compiles only the built-in policy and pays for zod's schema construction once, and
 * processes that never compile a policy file do not pay at all.
 */
let schemas: { rule: ReturnType<typeof ruleSchema>; file: ReturnType<typeof fileSchema> } | undefined;
const policySchemas = () => (schemas ??= { rule: ruleSchema(), file: fileSchema() });

const verdictSchema = () => z.enum(VERDICTS);

const ruleSchema = () => z
  .object({
    id: z.string().min(1),
    reason: z.string().min(1).optional(),
    description: z.string().min(1).optional(),
    decision: verdictSchema().default('ask'),
    commands: z.array(z.string()).optional(),
    subcommand: z.array(z.string()).optional(),
    flags_all: z.array(z.string()).optional(),
    flags_any: z.array(z.string()).optional(),
    unless_flags: z.array(z.string()).optional(),
    args_any: z.string().optional(),
    argv_any: z.string().optional(),
    targets_any: z.string().optional(),
    writes_any: z.string().optional(),
    redirect_any: z.string().optional(),
    stdin_any: z.string().optional(),
    sql_any: z.string().optional(),
    piped_to: z.array(z.string()).optional(),
    piped_from: z.array(z.string()).optional(),
    facts_any: z.array(z.string()).optional(),
    session: z.array(z.string()).optional(),
  })
  .strict()
  .refine((r) => r.reason !== undefined || r.description !== undefined, { message: 'needs a reason' })
  .refine((r) => Object.keys(r).some((k) => !['id', 'reason', 'description', 'decision', 'session'].includes(k)), { message: 'has no condition (it would match every command)' });

const fileSchema = () => z
  .object({
    default: z.object({ decision: verdictSchema() }).strict().optional(),
    rule: z.array(z.unknown()).default([]),
  })
  .strict();

export interface CompiledRule {
  id: string;
  reason: string;
  decision: Verdict;
  commands?: string[];
  subcommand?: string[][];
  flagsAll?: string[][];
  flagsAny?: string[];
  unlessFlags?: string[];
  argsAny?: RegExp;
  argvAny?: RegExp;
  targetsAny?: RegExp;
  writesAny?: RegExp;
  redirectAny?: RegExp;
  stdinAny?: RegExp;
  sqlAny?: RegExp;
  pipedTo?: string[];
  pipedFrom?: string[];
  factsAny?: string[];
  session?: string[];
}

export interface PolicyError {
  file: string;
  line?: number;
  rule?: string;
  message: string;
}

export const formatPolicyError = (e: PolicyError): string => `${e.file}${e.line ? `:${e.line}` : ''}: ${e.rule ? `rule "${e.rule}": ` : ''}${e.message}`;

export interface CompiledFile {
  rules: CompiledRule[];
  default?: Verdict;
  errors: PolicyError[];
}

function compileRegex(src: string, field: string): RegExp {
  let flags = '';
  let body = src;
  if (body.startsWith('(?i)')) {
    flags = 'i';
    body = body.slice(4);
  }
  try {
    return new RegExp(body, flags);
  } catch (e) {
    throw new Error(`${field}: invalid regex: ${(e as Error).message}`);
  }
}

/** Line of the n-th `[[rule]]` header (1-based), for error messages. */
function ruleLine(text: string, index: number): number | undefined {
  const re = /^[ \t]*\[\[[ \t]*rule[ \t]*\]\]/gm;
  let m: RegExpExecArray | null;
  let k = 0;
  while ((m = re.exec(text))) {
    if (k++ === index) return text.slice(0, m.index).split('\n').length;
  }
  return undefined;
}

/** Compile one policy file's text. Bad rules are left out and reported; the caller decides the fallback. */
/** A policy text's schema outputs, for a text whose top level and every rule pass (checkPolicyData). */
interface CheckedPolicy {
  default?: { decision: Verdict };
  /** Each rule's output of the rule schema. */
  rule: RuleData[];
}
type RuleData = z.infer<ReturnType<typeof ruleSchema>>;

/**
 * The schemas' outputs for a policy text, or undefined to parse and check it; or
 * PARSED_WITH_DEFAULTS: they are the text's parsed TOML with the schemas' defaults filled in
 * (withPolicyDefaults), as the build checked for this text (the table then holds no second copy
 * of the built-in policy beside its parsed TOML, which `mish hook` reads).
 */
export type CheckedPolicyLookup = (source: string) => unknown;

/** A checked-policy table's value: the schemas' outputs are withPolicyDefaults(the parsed TOML). */
export const PARSED_WITH_DEFAULTS = 1;

/**
 * The parsed TOML of a policy file with what the schemas default filled in (`rule = []`, a rule's
 * `decision = "ask"`): their output for a file that passes them, where the build has checked that
 * it is (scripts/build-cli.mjs); not a check itself.
 */
export function withPolicyDefaults(raw: Record<string, unknown>): CheckedPolicy {
  const rule = ((raw.rule as Record<string, unknown>[] | undefined) ?? []).map((r) => ('decision' in r ? r : { ...r, decision: 'ask' }) as RuleData);
  return raw.default === undefined ? { rule } : { default: raw.default as CheckedPolicy['default'], rule };
}

let checkedLookup: CheckedPolicyLookup | undefined;

/**
 * Installs (undefined: removes) the source of built-in policy texts (grammars/_meta/policy.toml,
 * the rule packs) the build parsed and checked (dist/precompiled-toml.json, scripts/build-cli.mjs):
 * checking them with zod was ~5 ms of every `mish <cmd>` start, and loading zod for it more.
 * A hit is what the schemas gave for this exact text, so the rules compile as they would have.
 */
export function useCheckedPolicies(next: CheckedPolicyLookup | undefined): void {
  checkedLookup = next;
}

/** The schemas' outputs for a policy file's parsed TOML when its top level and every rule pass (the build's check), else undefined. */
export function checkPolicyData(raw: unknown): CheckedPolicy | undefined {
  const top = policySchemas().file.safeParse(raw);
  if (!top.success) return undefined;
  const rule: RuleData[] = [];
  for (const r of top.data.rule) {
    const c = policySchemas().rule.safeParse(r);
    if (!c.success) return undefined;
    rule.push(c.data);
  }
  return top.data.default === undefined ? { rule } : { default: top.data.default, rule };
}

export function compilePolicyText(text: string, file: string): CompiledFile {
  const hit = checkedLookup?.(text);
  const checked = hit === PARSED_WITH_DEFAULTS ? withPolicyDefaults(parseToml(text)) : (hit as CheckedPolicy | undefined);
  let top: { success: true; data: { default?: { decision: Verdict }; rule: unknown[] } } | { success: false; error: z.ZodError };
  if (checked !== undefined) top = { success: true, data: checked };
  else {
    let data: unknown;
    try {
      data = parseToml(text);
    } catch (e) {
      const err = e as Error & { line?: number };
      return { rules: [], errors: [{ file, line: err.line, message: `invalid TOML: ${err.message.split('\n')[0]}` }] };
    }
    top = policySchemas().file.safeParse(data);
  }
  if (!top.success) {
    const i = top.error.issues[0];
    return { rules: [], errors: [{ file, message: `${i.path.join('.') || '(top level)'}: ${i.message}` }] };
  }
  const rules: CompiledRule[] = [];
  const errors: PolicyError[] = [];
  const seen = new Set<string>();
  top.data.rule.forEach((raw, index) => {
    // Only a rule with an error needs its line (scanning the text for every rule is quadratic).
    const at = () => ruleLine(text, index);
    const idGuess = typeof (raw as { id?: unknown })?.id === 'string' ? String((raw as { id: string }).id) : `#${index + 1}`;
    const r: { success: true; data: RuleData } | { success: false; error: z.ZodError } = checked !== undefined ? { success: true, data: checked.rule[index] } : policySchemas().rule.safeParse(raw);
    if (!r.success) {
      const i = r.error.issues[0];
      errors.push({ file, line: at(), rule: idGuess, message: `${i.path.join('.') ? `${i.path.join('.')}: ` : ''}${i.message}` });
      return;
    }
    const d = r.data;
    if (seen.has(d.id)) {
      errors.push({ file, line: at(), rule: d.id, message: 'duplicate rule id' });
      return;
    }
    seen.add(d.id);
    try {
      rules.push({
        id: d.id,
        reason: d.reason ?? d.description ?? d.id,
        decision: d.decision,
        commands: d.commands,
        subcommand: d.subcommand?.map((s) => s.split(/\s+/)),
        flagsAll: d.flags_all?.map((f) => f.split('|')),
        flagsAny: d.flags_any,
        unlessFlags: d.unless_flags,
        argsAny: d.args_any !== undefined ? compileRegex(d.args_any, 'args_any') : undefined,
        argvAny: d.argv_any !== undefined ? compileRegex(d.argv_any, 'argv_any') : undefined,
        targetsAny: d.targets_any !== undefined ? compileRegex(d.targets_any, 'targets_any') : undefined,
        writesAny: d.writes_any !== undefined ? compileRegex(d.writes_any, 'writes_any') : undefined,
        redirectAny: d.redirect_any !== undefined ? compileRegex(d.redirect_any, 'redirect_any') : undefined,
        stdinAny: d.stdin_any !== undefined ? compileRegex(d.stdin_any, 'stdin_any') : undefined,
        sqlAny: d.sql_any !== undefined ? compileRegex(d.sql_any, 'sql_any') : undefined,
        pipedTo: d.piped_to,
        pipedFrom: d.piped_from,
        factsAny: d.facts_any,
        session: d.session,
      });
    } catch (e) {
      errors.push({ file, line: at(), rule: d.id, message: (e as Error).message });
    }
  });
  return { rules, default: top.data.default?.decision, errors };
}

// ---------------------------------------------------------------- matching

/** Global options that take a value, before the subcommand. */
const GLOBAL_VALUE_FLAGS: Record<string, string[]> = {
  git: ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env', '--exec-path'],
  docker: ['-H', '--host', '--context', '-c', '--config', '-l', '--log-level'],
  podman: ['--url', '--connection', '-c', '--root', '--runroot', '--log-level'],
  kubectl: ['-n', '--namespace', '--context', '--kubeconfig', '--cluster', '--user', '-s', '--server', '-l', '--selector', '--as', '--as-group', '--as-uid', '-o', '--output', '--token', '--certificate-authority', '--client-certificate', '--client-key', '--request-timeout', '--tls-server-name', '--username', '--password', '--cache-dir', '-v', '--v'],
  oc: ['-n', '--namespace', '--context', '--kubeconfig', '--cluster', '--user', '-s', '--server', '-l', '--selector'],
  helm: ['-n', '--namespace', '--kube-context', '--kubeconfig', '--repository-config'],
  systemctl: ['-H', '--host', '-M', '--machine', '-t', '--type', '-p', '--property', '-s', '--signal', '--state', '-n', '--lines', '-o', '--output'],
  npm: ['-w', '--workspace', '--prefix'],
  aws: ['--profile', '--region', '--output', '--endpoint-url', '--query', '--cli-read-timeout', '--cli-connect-timeout', '--ca-bundle', '--color', '--cli-binary-format'],
  gcloud: ['--project', '--account', '--configuration', '--format', '--verbosity', '--impersonate-service-account', '--billing-project', '--filter', '--zone', '--region'],
  az: ['--subscription', '--output', '-o', '--query'],
  gh: ['-R', '--repo'],
};

export interface MatchContext {
  cwd?: string;
  session?: string;
  /** The home directory: `/home/me/.ssh` (what the agent's shell expanded `~/.ssh` to) is judged as `~/.ssh`. Default $HOME. */
  home?: string;
}

/** Forms of a path argument, with the home directory spelled out also seen as `~`. */
function pathForms(a: string, glob: boolean, cwd: string | undefined, home: string | undefined, asWritten = true): string[] {
  const forms = targetForms(a, glob, cwd, asWritten);
  if (!home || home === '/') return forms;
  const h = home.replace(/\/+$/, '');
  const extra: string[] = [];
  for (const f of forms) if (f === h || f.startsWith(`${h}/`)) extra.push(`~${f.slice(h.length)}`);
  if (extra.length === 0) return forms;
  const out = [...forms, ...extra];
  // A glob under the spelled-out home (`/home/me/.g*`) is probed as `~/.g*`.
  if (glob) for (const e of extra) out.push(...targetForms(e, true));
  return out;
}

/** Prepared views of one command, computed once per command and shared by every rule. */
export interface CommandView {
  cmd: ResolvedCommand;
  args: string[];
  positionals: string[];
  argvText: string;
  writes?: string[];
  /** Path forms per argument, computed once for all rules (a 300-word brace expansion × every targets_any rule). */
  forms?: Map<string, string[]>;
  /** Whether each argument value carries a glob (first occurrence). */
  globs?: Map<string, boolean>;
}

function formsOf(v: CommandView, a: string, glob: boolean, cwd: string | undefined, home: string | undefined, asWritten = true): string[] {
  v.forms ??= new Map();
  const key = `${glob ? 1 : 0}${asWritten ? 1 : 0}\u0000${a}`;
  let f = v.forms.get(key);
  if (!f) {
    f = pathForms(a, glob, cwd, home, asWritten);
    v.forms.set(key, f);
  }
  return f;
}

export function viewOf(cmd: ResolvedCommand): CommandView {
  const args = cmd.argv.slice(1);
  const positionals = positionalArgs(args, GLOBAL_VALUE_FLAGS[cmd.name] ?? []).filter((p) => !/^-\w+=/.test(p));
  return { cmd, args, positionals, argvText: [cmd.name, ...args].join(' ') };
}

/**
 * Whether `flag` is among `args`, as the program would read it: `--flag=value`; a one-letter
 * short flag inside a cluster (`-rf` has `-r`); an unambiguous abbreviation of a long option
 * (`--rec`, `--forc`: getopt_long accepts them; any prefix of two letters or more counts, which
 * errs towards matching); a single-dash long option (`-destroy`) also as `-destroy=true`.
 */
export function hasFlag(args: readonly string[], flag: string): boolean {
  const short = /^-[A-Za-z0-9]$/.test(flag) ? flag[1] : undefined;
  for (const a of args) {
    if (a === '--') return false;
    if (a === flag) return true;
    if (a.startsWith(flag + '=')) return !(flag.startsWith('-') && !flag.startsWith('--') && /=(?:false|0)$/i.test(a));
    if (flag.startsWith('--') && a.startsWith('--') && a.length >= 4) {
      const name = a.split('=')[0];
      if (flag.startsWith(name)) return true;
    }
    if (short && a.startsWith('-') && !a.startsWith('--') && a.length > 2) {
      for (let k = 1; k < a.length && /[A-Za-z0-9]/.test(a[k]); k++) if (a[k] === short) return true;
    }
  }
  return false;
}

function nameMatches(patterns: readonly string[], name: string): boolean {
  return patterns.some((p) => p === '*' || p === name || (p.endsWith('*') && name.startsWith(p.slice(0, -1))));
}

/** Per list of rules (a policy layer's): by command name, the rules whose `commands` do not rule that name out. */
const candidatesOf = new WeakMap<readonly CompiledRule[], Map<string, readonly CompiledRule[]>>();
/** Names remembered per list before it starts over (a long-running server sees any number of command names). */
const MAX_CANDIDATE_NAMES = 1024;

/**
 * The rules of `rules` that may match a command named `name`, in order: those without `commands`
 * and those whose `commands` name it. The others cannot (ruleMatches returns false on its
 * `commands` test whatever else they say), so testing these alone decides the same. Worked out
 * once per name: a policy has ~140 rules, and a command is judged against each of them.
 */
export function candidateRules(rules: readonly CompiledRule[], name: string): readonly CompiledRule[] {
  let byName = candidatesOf.get(rules);
  if (!byName) candidatesOf.set(rules, (byName = new Map()));
  let list = byName.get(name);
  if (!list) {
    if (byName.size >= MAX_CANDIDATE_NAMES) byName.clear();
    list = rules.filter((r) => !r.commands || nameMatches(r.commands, name));
    byName.set(name, list);
  }
  return list;
}

function subcommandMatches(subs: readonly string[][], positionals: readonly string[]): number {
  for (const s of subs) {
    if (s.every((word, k) => positionals[k] !== undefined && word.split('|').includes(positionals[k]))) return s.length;
  }
  return -1;
}

/** Files a command writes: output redirections, tee, cp/mv/install/ln destinations, dd of=, sed -i files. */
export function writeTargets(v: CommandView): string[] {
  const c = v.cmd;
  const out = c.redirects.filter((r) => /^(?:>|>>|>\||&>|&>>|<>)$/.test(r.op)).map((r) => r.target);
  const pos = v.positionals;
  switch (c.name) {
    case 'tee':
      out.push(...pos);
      break;
    case 'cp':
    case 'mv':
    case 'install':
    case 'ln':
    case 'rsync':
    case 'rename': {
      const t = v.args.findIndex((a) => a === '-t' || a === '--target-directory');
      if (t >= 0 && v.args[t + 1]) out.push(v.args[t + 1]);
      const te = v.args.find((a) => a.startsWith('--target-directory='));
      if (te) out.push(te.slice('--target-directory='.length));
      if (pos.length >= 2) out.push(pos[pos.length - 1]);
      else if (c.name === 'install' && pos.length === 1 && hasFlag(v.args, '-d')) out.push(pos[0]);
      break;
    }
    case 'dd':
      for (const a of v.args) if (a.startsWith('of=')) out.push(a.slice(3));
      break;
    case 'curl':
    case 'wget':
    case 'aria2c':
      for (let k = 0; k < v.args.length; k++) {
        const a = v.args[k];
        if (['-o', '--output', '-O', '--output-document', '-d', '--dir'].includes(a) && v.args[k + 1] && !(c.name === 'curl' && (a === '-O' || a === '-d'))) out.push(v.args[k + 1]);
        else if (/^--output(?:-document)?=/.test(a)) out.push(a.slice(a.indexOf('=') + 1));
        else if (c.name === 'wget' && /^-O./.test(a)) out.push(a.slice(2));
      }
      break;
    case 'sed':
    case 'perl':
    case 'ruby':
      if (v.args.some((a) => a === '-i' || /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'))) {
        const scriptGiven = v.args.some((a) => a === '-e' || a === '-f' || /^-[a-z]*[ef]$/.test(a));
        out.push(...(c.name === 'sed' && !scriptGiven ? pos.slice(1) : pos.filter((p, k) => !(k === 0 && c.name !== 'sed' && !scriptGiven))));
      }
      break;
    case 'truncate':
    case 'shred':
    case 'chattr':
    case 'visudo':
      out.push(...pos.filter((p) => !/^[-+=]/.test(p)));
      break;
    case 'ed':
    case 'ex':
      out.push(...pos);
      break;
    default:
      out.push(...outputFileArgs(c.name, v.args));
  }
  return out;
}

/**
 * Options whose value is a file the program writes (truncating it first), by program: `sort -o
 * FILE`, `find -fprint FILE`, `script -O FILE`, … An agent can empty any file with one
 * (`sort -o ~/.config/mish/policy.toml /dev/null`), so they are writes like `>`.
 */
const OUTPUT_OPTIONS: Record<string, readonly string[]> = {
  sort: ['-o', '--output'],
  shuf: ['-o', '--output'],
  iconv: ['-o', '--output'],
  strip: ['-o'],
  find: ['-fprint', '-fprint0', '-fprintf', '-fls'],
  script: ['-O', '--log-out', '-I', '--log-in', '-B', '--log-io', '-T', '--log-timing', '--timing'],
  cpio: ['-O', '-F', '--file'],
  tar: ['-f', '--file'],
  bsdtar: ['-f', '--file'],
  zip: ['--out'],
};
/** Of those, options taking a value that is not a file (to find the operands). */
const OTHER_VALUE_OPTIONS: Record<string, readonly string[]> = {
  uniq: ['-f', '--skip-fields', '-s', '--skip-chars', '-w', '--check-chars'],
  script: ['-c', '--command', '-E', '--echo', '-m', '--logging-format', '-o', '--output-limit'],
  xxd: ['-c', '-cols', '-g', '-groupsize', '-l', '-len', '-s', '-seek', '-o', '-offset', '-n', '-name'],
};

/** Files written through OUTPUT_OPTIONS, plus the output operands: `uniq IN OUT`, `script FILE`, `xxd IN OUT`. */
function outputFileArgs(name: string, args: readonly string[]): string[] {
  const opts = OUTPUT_OPTIONS[name];
  const other = OTHER_VALUE_OPTIONS[name] ?? [];
  const out: string[] = [];
  // tar/cpio write -f FILE only when creating or appending (`tar -xf x.tar` reads it).
  if ((name === 'tar' || name === 'bsdtar') && !args.some((a, i) => /^--(?:create|append|update|catenate)$/.test(a) || /^-[a-zA-Z]*[cruA][a-zA-Z]*$/.test(a) || (i === 0 && /^[a-zA-Z]*[cruA][a-zA-Z]*$/.test(a)))) return out;
  if (name === 'cpio' && !args.some((a) => a === '-o' || a === '--create' || /^-[a-zA-Z]*o/.test(a))) return out;
  // Bundled short flags ending in f take the next word (`tar -czf FILE`, old-style `tar cf FILE`).
  if (name === 'tar' || name === 'bsdtar') args.forEach((a, i) => (/^-[a-zA-Z]+f$/.test(a) || (i === 0 && /^[a-zA-Z]+f$/.test(a))) && args[i + 1] && out.push(args[i + 1]));
  const operands: string[] = [];
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    if (a === '--') {
      operands.push(...args.slice(k + 1));
      break;
    }
    const hit = opts?.find((o) => a === o || (o.startsWith('--') && a.startsWith(`${o}=`)) || (/^-[a-zA-Z]$/.test(o) && a.startsWith(o) && a.length > 2));
    if (hit) {
      if (a === hit) out.push(args[++k] ?? '');
      else out.push(a.slice(hit.startsWith('--') ? hit.length + 1 : 2));
      continue;
    }
    // `-qc CMD`: bundled short flags whose last one takes a value.
    if (other.includes(a) || (/^-[a-zA-Z]{2,}$/.test(a) && other.includes(`-${a[a.length - 1]}`))) {
      k++;
      continue;
    }
    if (!a.startsWith('-') || a === '-') operands.push(a);
  }
  if (name === 'uniq' && operands.length >= 2) out.push(operands[1]);
  if (name === 'script' && operands.length >= 1) out.push(operands[0]);
  // `xxd [-r] IN OUT`: the second operand is written (with -r in place, without truncating it).
  if (name === 'xxd' && operands.length >= 2) out.push(operands[1]);
  return out.filter((f) => f !== '' && f !== '-');
}

export function ruleMatches(rule: CompiledRule, v: CommandView, ctx: MatchContext): boolean {
  const c = v.cmd;
  if (rule.session && !(ctx.session !== undefined && rule.session.includes(ctx.session))) return false;
  if (rule.factsAny && !rule.factsAny.some((f) => c.facts.has(f))) return false;
  if (rule.commands && !nameMatches(rule.commands, c.name)) return false;
  if (!rule.commands && !rule.factsAny && c.name === '') return false;
  let pos = v.positionals;
  if (rule.subcommand) {
    const n = subcommandMatches(rule.subcommand, pos);
    if (n < 0) return false;
    pos = pos.slice(n);
  }
  if (rule.flagsAll && !rule.flagsAll.every((alts) => alts.some((f) => hasFlag(v.args, f)))) return false;
  if (rule.flagsAny && !rule.flagsAny.some((f) => hasFlag(v.args, f))) return false;
  if (rule.unlessFlags && rule.unlessFlags.some((f) => hasFlag(v.args, f))) return false;
  if (rule.argvAny && !rule.argvAny.test(v.argvText)) return false;
  if (rule.argsAny) {
    const re = rule.argsAny;
    if (!pos.some((a) => re.test(a))) return false;
  }
  // A `cd` earlier in the line moved where relative paths point (null: somewhere unknown).
  const cwd = c.cwd === null ? undefined : (c.cwd ?? ctx.cwd);
  if (rule.targetsAny) {
    const re = rule.targetsAny;
    if (!v.globs) {
      v.globs = new Map();
      c.argv.forEach((x, k) => {
        if (!v.globs!.has(x)) v.globs!.set(x, c.glob[k] ?? false);
      });
    }
    // A relative path is also judged as written (`*`, `.`: wherever the line runs, that folder's
    // content) — unless a `cd` on the line moved to a known folder that is neither the line's own
    // nor above it (`cd dist && rm -rf ./*` empties dist, not the project).
    const asWritten = !(typeof c.cwd === 'string' && ctx.cwd !== undefined && c.cwd !== ctx.cwd && !ctx.cwd.startsWith(`${c.cwd.replace(/\/+$/, '')}/`) && !c.cwd.startsWith('~'));
    // An empty word names no file (`rm -rf ""` fails), not the current folder.
    const hit = pos.some((a) => a !== '' && formsOf(v, a, v.globs!.get(a) ?? false, cwd, ctx.home, asWritten).some((f) => re.test(f)));
    if (!hit) return false;
  }
  if (rule.writesAny) {
    const re = rule.writesAny;
    v.writes ??= writeTargets(v);
    if (!v.writes.some((t) => formsOf(v, t, /[*?[]/.test(t), cwd, ctx.home).some((f) => re.test(f)) || re.test(normalizePath(t)))) return false;
  }
  if (rule.redirectAny) {
    const re = rule.redirectAny;
    if (!c.redirects.some((r) => r.op.startsWith('>') && r.op !== '>&' && re.test(r.target))) return false;
  }
  if (rule.stdinAny) {
    const re = rule.stdinAny;
    if (c.stdinText === undefined || !re.test(c.stdinText)) return false;
  }
  if (rule.sqlAny) {
    const re = rule.sqlAny;
    if (!c.sql.some((s) => re.test(s))) return false;
  }
  if (rule.pipedTo && !c.pipedTo.some((n) => rule.pipedTo!.includes(n))) return false;
  if (rule.pipedFrom && !c.pipedFrom.some((n) => rule.pipedFrom!.includes(n))) return false;
  return true;
}

/**
 * A command line → every simple command it would run, resolved for policy decisions:
 * wherever it sits (pipelines, lists, subshells, `$(…)`, backticks, `<(…)`, `[[ ]]`, `(( ))`,
 * `${x:-$(…)}`, heredoc bodies), with wrappers unwrapped recursively (sudo, env, timeout, sh -c,
 * eval, su -c, ssh host …, find -exec, xargs, parallel, watch, docker exec, …) and strings fed
 * to a shell or an interpreter parsed as commands where that is possible. What cannot be
 * resolved statically is recorded as a fact (`dynamic-command`, `shell-stdin-unknown`, …) that
 * the built-in rules turn into `ask`: the resolver fails closed.
 *
 * Pure: no file system, no processes. The unbash AST is walked generically (every child, lazy
 * substitution scripts included), so a construct this file does not name is still searched.
 */
import { parse as parseBash } from 'unbash';
import { positionals } from '../router/argv.js';
import { analyzeCode, type Language } from './interpreters.js';
import { expandBracesChecked, normalizePath } from './paths.js';

/** Wrapper / re-entry levels followed before giving up (each level is a new argv or a new parse). */
export const MAX_DEPTH = 8;
/** Inputs of xargs -I / parallel / find -exec expanded into one command each; more are asked about (fact `expansion-too-large`), never dropped. */
const MAX_FANOUT = 16;
/** Commands resolved from one line before the rest is refused (a pathological line costs no more). */
const MAX_COMMANDS = 512;
/**
 * Analysis steps (AST nodes walked, argvs resolved, code bytes read / 1 KB) one decision may
 * take: a few hundred for real lines; a line past it is not analysed further and is asked
 * about (fact `analysis-budget`), so no input can hold the synchronous decide() for long.
 */
export const MAX_ANALYSIS_STEPS = 100_000;
/** Wall-clock backstop for the same budget (ms): far above any real line (~1 ms), far below a stalled server. */
export const ANALYSIS_DEADLINE_MS = 1_000;
/** mish subcommands that are the operator's, not an agent's (deciding approvals, typing into handoffs). */
const MISH_OPERATOR_SUBCOMMANDS = new Set(['approvals', 'attach', 'console']);
/** mish subcommands that run no command line of their own. */
const MISH_OTHER_SUBCOMMANDS = new Set(['serve', 'ps', 'raw', 'policy', 'audit', 'help', 'init', 'hook', 'doctor']);
/** Assignments that would give a nested mish another policy. */
const MISH_POLICY_ASSIGNMENT = /^(?:MISH_POLICY|MISH_POLICY_DEFAULT)=/;

export interface Redirect {
  op: string;
  fd?: number;
  /** Target as written (quote-removed); a heredoc/herestring: the text fed. */
  target: string;
  literal: boolean;
}

export interface ResolvedCommand {
  argv: string[];
  /** Per argv word: no expansion, the value is exact. */
  literal: boolean[];
  /** Per argv word: carries an unquoted glob. */
  glob: boolean[];
  /** Basename of argv[0] ('' when argv is empty). */
  name: string;
  /** Source text of the outermost simple command it came from. */
  text: string;
  /** Wrappers and re-entries it was found through, outermost first (`sudo`, `sh -c`). */
  via: string[];
  redirects: Redirect[];
  /** Text known to be fed on stdin (heredoc, herestring, `echo … |`). */
  stdinText?: string;
  /** Names of the commands earlier in its pipeline. */
  pipedFrom: string[];
  /** Names of the commands later in its pipeline. */
  pipedTo: string[];
  /** The commands earlier in its pipeline (what feeds its stdin). */
  upstream: ResolvedCommand[];
  /** SQL / redis text it is given (arguments and stdin), string literals and comments removed. */
  sql: string[];
  /** Engine findings about this command (see grammars/_meta/policy.toml, facts_any). */
  facts: Set<string>;
  /** It reads a program/commands from stdin (a shell or interpreter with no script). */
  readsProgramFromStdin?: boolean;
  /**
   * Where it runs when a `cd` earlier in the line moved (absolute, or `~/…`); null when a `cd`
   * went somewhere unknown (`cd "$X"`, `cd -`); undefined: the line's own cwd.
   */
  cwd?: string | null;
}

export interface LineFact {
  fact: string;
  text: string;
}

export interface Resolution {
  commands: ResolvedCommand[];
  /** Facts about the line as a whole (parse failures, control characters, depth). */
  lineFacts: LineFact[];
}

interface Words {
  argv: string[];
  literal: boolean[];
  glob: boolean[];
  /** Source text of each word as written (quotes kept). */
  raw: string[];
}

interface PipeIn {
  /** Static text the upstream produces (`echo "rm -rf /" |`), when known. */
  text?: string;
  producers: ResolvedCommand[];
}

interface Ctx {
  depth: number;
  via: string[];
  source: string;
  /** Text of the outermost simple command, for nested parses. */
  outerText?: string;
  pipeIn?: PipeIn;
}

interface Base {
  text: string;
  redirects: Redirect[];
  stdinText?: string;
  /** A `<` redirect whose content is not known (`< <(curl …)`). */
  stdinOpaque?: 'substitution' | 'file';
}

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\0-\x08\x0b-\x1f\x7f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'yash', 'rbash', 'fish', 'tcsh', 'csh', 'pdksh', 'posh']);
const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'aria2c', 'http', 'https', 'xh', 'lwp-request', 'GET']);
const DECODERS = new Set(['base64', 'base32', 'xxd', 'uudecode', 'openssl', 'gunzip', 'zcat', 'gzip', 'bzip2', 'bzcat', 'xz', 'xzcat', 'unxz', 'rev', 'tr', 'od', 'basenc', 'zstd', 'zstdcat', 'perl', 'python', 'python3']);
export const NETWORK_TOOLS = new Set(['curl', 'wget', 'nc', 'ncat', 'netcat', 'socat', 'telnet', 'scp', 'sftp', 'rsync', 'ssh', 'ftp', 'tftp', 'http', 'https', 'xh', 'openssl', 'rclone', 'aws', 'gsutil', 'sendmail', 'mail', 'mutt']);
const SQL_CLIENTS = new Set(['psql', 'mysql', 'mariadb', 'sqlite3', 'sqlcmd', 'clickhouse-client', 'clickhouse', 'cockroach', 'mongo', 'mongosh', 'duckdb', 'redis-cli', 'pgcli', 'mycli', 'usql', 'valkey-cli', 'keydb-cli']);

interface PrefixSpec {
  /** Short options taking a value (`-u root`, `-uroot`). */
  shortValue?: string;
  /** Long options taking a value as the next word. */
  longValue?: string[];
  /** Leading positionals that belong to the wrapper (timeout's duration, chroot's root). */
  positional?: number;
  /** Options after which no command runs (`command -v`, `sudo -l`). */
  query?: string[];
}

/** Wrappers that run their arguments as a command, with the options they take. */
const PREFIX: Record<string, PrefixSpec> = {
  sudo: { shortValue: 'ugpCDrtUTh', longValue: ['--user', '--group', '--prompt', '--chdir', '--close-from', '--role', '--type', '--other-user', '--command-timeout', '--host'], query: ['-l', '--list', '-v', '--validate', '-k', '-K', '-e', '--edit', '-V', '--version'] },
  doas: { shortValue: 'uC', query: ['-L'] },
  pkexec: { longValue: ['--user'] },
  time: { shortValue: 'fo', longValue: ['--format', '--output'] },
  nice: { shortValue: 'n', longValue: ['--adjustment'] },
  ionice: { shortValue: 'cnp', longValue: ['--class', '--classdata', '--pid'], query: ['-p', '--pid'] },
  chrt: { positional: 1, query: ['-p', '--pid', '-m', '--max'] },
  timeout: { shortValue: 'sk', longValue: ['--signal', '--kill-after'], positional: 1 },
  nohup: {},
  setsid: {},
  stdbuf: { shortValue: 'ioe', longValue: ['--input', '--output', '--error'] },
  command: { query: ['-v', '-V'] },
  builtin: {},
  exec: { shortValue: 'a' },
  setpriv: { longValue: ['--reuid', '--regid', '--groups', '--inh-caps', '--ambient-caps', '--bounding-set', '--securebits', '--pdeathsig', '--selinux-label', '--apparmor-profile'], query: ['-d', '--dump', '--list-caps'] },
  taskset: { positional: 1, query: ['-p', '--pid'] },
  strace: { shortValue: 'abeEIoOpPsSuXU', longValue: ['--output', '--trace', '--signal', '--attach', '--user', '--string-limit', '--env'], query: ['-p', '--attach'] },
  ltrace: { shortValue: 'aAeElnopsSuXwx', longValue: ['--output'], query: ['-p'] },
  chroot: { longValue: ['--userspec', '--groups', '--skip-chdir'], positional: 1 },
  unshare: { shortValue: 'S', longValue: ['--setuid', '--setgid', '--wd', '--root'] },
  nsenter: { shortValue: 'tSGwr', longValue: ['--target', '--setuid', '--setgid', '--wd', '--root'] },
  'systemd-run': { shortValue: 'pEM', longValue: ['--unit', '--property', '--setenv', '--uid', '--gid', '--nice', '--slice', '--machine', '--description', '--working-directory', '--on-calendar', '--on-active', '--timer-property', '--service-type'] },
  firejail: {},
  torsocks: { shortValue: 'uPaip' },
  proxychains: { shortValue: 'f' },
  proxychains4: { shortValue: 'f' },
  'xvfb-run': { shortValue: 'snfe', longValue: ['--server-args', '--server-num', '--auth-file', '--error-file'] },
  catchsegv: {},
  valgrind: {},
  caffeinate: { shortValue: 'tw' },
  eatmydata: {},
  nocache: {},
  unbuffer: {},
  rlwrap: {},
  faketime: { shortValue: 'm', positional: 1 },
  cgexec: { shortValue: 'g' },
  'dbus-run-session': {},
  chpst: { shortValue: 'uUebnlmdosv' },
  busybox: {},
  toybox: {},
  sg: { positional: 1 },
  numactl: {},
  trickle: { shortValue: 'udwtlsn' },
  'aws-vault': {},
};

/** Interpreters whose code is read for shell escapes (os.system, child_process, system(), backticks). */
const INTERPRETERS: Record<string, Language> = {
  python: 'python', python2: 'python', python3: 'python', pypy: 'python', pypy3: 'python',
  perl: 'perl', ruby: 'ruby', node: 'node', nodejs: 'node', bun: 'node', deno: 'node', php: 'php', lua: 'lua', luajit: 'lua',
  awk: 'awk', gawk: 'awk', mawk: 'awk', nawk: 'awk', Rscript: 'r', osascript: 'applescript',
};

/** The program a command word names: `/usr/bin/rm` → rm, zsh's `=rm` → rm, `python3.12` → python3. */
export function commandName(word: string): string {
  const name = word.startsWith('=') ? word.slice(1) : word;
  const at = name.lastIndexOf('/');
  const base = at >= 0 ? name.slice(at + 1) : name;
  return /^python\d(?:\.\d+)?$/.test(base) ? base.replace(/\.\d+$/, '') : base;
}

// ---------------------------------------------------------------- AST helpers

type Node = Record<string, unknown> & { type?: string; pos?: number; end?: number };

const getterCache = new Map<object, string[]>();
/** Own enumerable keys and the prototype's getters (unbash builds substitution scripts lazily). */
function childKeys(n: object): string[] {
  const proto = Object.getPrototypeOf(n) as object | null;
  let getters: string[] = [];
  if (proto && proto !== Object.prototype) {
    const cached = getterCache.get(proto);
    if (cached) getters = cached;
    else {
      const d = Object.getOwnPropertyDescriptors(proto);
      getters = Object.keys(d).filter((k) => typeof d[k].get === 'function' && k !== '__proto__');
      getterCache.set(proto, getters);
    }
  }
  return [...Object.keys(n), ...getters];
}

function isLiteralPart(p: Node): boolean {
  switch (p.type) {
    case 'Literal':
    case 'SingleQuoted':
    case 'AnsiCQuoted':
    case 'BraceExpansion':
      return true;
    case 'DoubleQuoted':
      return ((p.parts as Node[]) ?? []).every((c) => c.type === 'Literal');
    default:
      return false;
  }
}

function wordInfo(w: Node): { value: string; literal: boolean; glob: boolean; raw: string } {
  const parts = w.parts as Node[] | undefined;
  const value = String(w.value ?? w.text ?? '');
  const raw = String(w.text ?? value);
  if (!parts) return { value, literal: true, glob: false, raw };
  return {
    value,
    literal: parts.every(isLiteralPart),
    glob: parts.some((p) => p.type === 'Glob' || p.type === 'ExtendedGlob' || p.type === 'BracketGlob' || p.type === 'StarGlob' || p.type === 'QuestionGlob'),
    raw,
  };
}

/** Positional arguments of argv[1..] (flags skipped, values of `valueFlags` skipped, all after `--`): the router's reading. */
export const positionalArgs = positionals;

function slice(w: Words, from: number, to = w.argv.length): Words {
  return { argv: w.argv.slice(from, to), literal: w.literal.slice(from, to), glob: w.glob.slice(from, to), raw: w.raw.slice(from, to) };
}

function literalWords(argv: string[]): Words {
  return { argv, literal: argv.map(() => true), glob: argv.map(() => false), raw: argv };
}

/** Interpret echo / printf escapes the way their output would carry them. */
function unescapeEcho(s: string): string {
  return s.replace(/\\n/g, '\n').replace(/\\t/g, '\t').replace(/\\x([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))).replace(/\\0?([0-7]{1,3})/g, (_m, o: string) => String.fromCharCode(parseInt(o, 8)));
}

/** SQL with string literals and comments removed: `SELECT 'drop table x'` has no DROP. */
export function sqlSkeleton(s: string): string {
  return s
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/\$\$[\s\S]*?\$\$/g, "''")
    .replace(/--[^\n]*/g, ' ')
    .replace(/\/\*[\s\S]*?\*\//g, ' ');
}

// ---------------------------------------------------------------- resolver

export function resolveLine(source: string, cwd?: string): Resolution {
  const r = new Resolver(cwd);
  if (CONTROL_CHARS.test(source)) r.lineFacts.push({ fact: 'control-chars', text: JSON.stringify(source).slice(1, -1) });
  r.parseAndWalk(source, { depth: 0, via: [], source });
  return { commands: r.all, lineFacts: r.lineFacts };
}

class Resolver {
  readonly all: ResolvedCommand[] = [];
  readonly lineFacts: LineFact[] = [];
  /** Steps taken so far (see MAX_ANALYSIS_STEPS). */
  private steps = 0;
  private readonly deadline = Date.now() + ANALYSIS_DEADLINE_MS;
  private spent = false;
  /** The directory after the `cd`s seen so far (see ResolvedCommand.cwd). */
  private curCwd: string | null | undefined;
  /** Files this line writes with known text (`echo … > x.sh`, `cat > x.sh <<EOF`), by normalised path. */
  private readonly written = new Map<string, string>();

  constructor(readonly cwd?: string) {}

  /** Counts `n` steps; false once the budget is spent (the line is then asked about, never allowed). */
  step(n = 1): boolean {
    if (this.spent) return false;
    this.steps += n;
    if (this.steps > MAX_ANALYSIS_STEPS || Date.now() > this.deadline) {
      this.spent = true;
      this.lineFacts.push({ fact: 'analysis-budget', text: 'the line is too complex to analyse within the decision budget' });
      return false;
    }
    return true;
  }

  /** Parse `src` as bash and walk it; a parse failure is a fact, never a pass. */
  parseAndWalk(src: string, ctx: Ctx): ResolvedCommand[] {
    if (!this.step(1 + (src.length >> 10))) return [];
    if (ctx.depth > MAX_DEPTH) {
      this.lineFacts.push({ fact: 'unwrap-depth', text: ctx.outerText ?? src });
      return [];
    }
    let script: Node;
    try {
      script = parseBash(src) as unknown as Node;
    } catch (e) {
      this.lineFacts.push({ fact: 'parse-error', text: `${ctx.outerText ?? src}: ${(e as Error).message}` });
      return [];
    }
    const errors = script.errors as Array<{ message: string }> | undefined;
    if (errors?.length) this.lineFacts.push({ fact: 'parse-error', text: `${ctx.outerText ?? src}: ${errors[0].message}` });
    return this.walk(script, { ...ctx, source: src });
  }

  /** Walks any node; returns the commands that run directly under it (not inside substitutions). */
  private walk(node: unknown, ctx: Ctx): ResolvedCommand[] {
    if (!node || typeof node !== 'object') return [];
    if (!this.step()) return [];
    if (this.all.length > MAX_COMMANDS) {
      if (!this.lineFacts.some((f) => f.fact === 'unwrap-depth')) this.lineFacts.push({ fact: 'unwrap-depth', text: 'too many commands in one line' });
      return [];
    }
    if (Array.isArray(node)) return node.flatMap((n) => this.walk(n, ctx));
    const n = node as Node;
    switch (n.type) {
      case 'Pipeline':
        return this.pipeline(n, ctx);
      case 'Command':
        return this.command(n, ctx);
      case 'CommandExpansion':
      case 'ProcessSubstitution':
      case 'ArithmeticCommandExpansion':
        // Runs too, but its output feeds the word it sits in: no pipe context, not direct.
        // unbash parses its text when `script` is first read: charged like any nested parse.
        if (!this.step(1 + ((Number(n.end ?? 0) - Number(n.pos ?? 0)) >> 10))) return [];
        this.walk(n.script, { ...ctx, pipeIn: undefined });
        return [];
      case 'Function': {
        const name = String((n.name as Node | undefined)?.value ?? (n.name as Node | undefined)?.text ?? '');
        const before = this.all.length;
        this.walk(n.body, { ...ctx, pipeIn: undefined });
        const inner = this.all.slice(before);
        const bodyText = ctx.source.slice(Number((n.body as Node).pos ?? 0), Number((n.body as Node).end ?? 0));
        const esc = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        const selfSpawn = inner.some((c) => c.name === name && (c.pipedTo.length > 0 || c.pipedFrom.length > 0)) || new RegExp(`(?:^|[\\s;{(|])${esc}\\s*&(?!&)`).test(bodyText);
        if (selfSpawn) this.lineFacts.push({ fact: 'fork-bomb', text: `${name}() { … }` });
        return [];
      }
      default: {
        const out: ResolvedCommand[] = [];
        for (const k of childKeys(n)) {
          if (k === 'type' || k === 'pos' || k === 'end') continue;
          let v: unknown;
          try {
            v = n[k];
          } catch {
            continue;
          }
          if (v && typeof v === 'object') out.push(...this.walk(v, ctx));
        }
        return out;
      }
    }
  }

  private pipeline(n: Node, ctx: Ctx): ResolvedCommand[] {
    const elements = (n.commands as Node[]) ?? [];
    const groups: ResolvedCommand[][] = [];
    let pipeIn = ctx.pipeIn;
    for (const el of elements) {
      const g = this.walk(el, { ...ctx, pipeIn });
      groups.push(g);
      pipeIn = { producers: g, text: staticOutput(g) };
    }
    // Wiring each element to all the others costs n² (a 10,000-stage pipeline took 41 s): charged to the budget.
    if (!this.step((groups.length * groups.length) >> 6)) return groups.flat();
    for (let i = 0; i < groups.length; i++) {
      const from = groups.slice(0, i).flat().map((c) => c.name);
      const to = groups.slice(i + 1).flat().map((c) => c.name);
      const up = groups.slice(0, i).flat();
      for (const c of groups[i]) {
        c.upstream.push(...up);
        c.pipedFrom.push(...from);
        c.pipedTo.push(...to);
      }
    }
    // A shell reading commands from a pipe whose output goes to the network, or fed by one: a reverse shell.
    for (let i = 0; i < groups.length; i++) {
      for (const c of groups[i]) {
        if (!c.readsProgramFromStdin) continue;
        if (c.pipedTo.some((x) => NETWORK_TOOLS.has(x)) || c.pipedFrom.some((x) => NETWORK_TOOLS.has(x) && !DOWNLOADERS.has(x))) c.facts.add('reverse-shell');
      }
    }
    return groups.flat();
  }

  private command(n: Node, ctx: Ctx): ResolvedCommand[] {
    const prefix = (n.prefix as Node[]) ?? [];
    const suffix = (n.suffix as Node[]) ?? [];
    // Substitutions anywhere in the command (assignments, words, redirections, heredoc bodies) run too.
    for (const p of prefix) this.walk(p, { ...ctx, pipeIn: undefined });
    if (n.name) this.walk(n.name, { ...ctx, pipeIn: undefined });
    for (const s of suffix) this.walk(s, { ...ctx, pipeIn: undefined });

    const redirects: Redirect[] = [];
    let stdinText: string | undefined;
    let stdinOpaque: Base['stdinOpaque'];
    for (const r of [...prefix, ...suffix]) {
      if (r.type === 'Assignment' || r.type === 'Word' || r.type === 'ArrayValue') continue;
      const op = String(r.operator ?? '');
      if (!op) continue;
      const desc = r.descriptor as Node | undefined;
      const fd = desc?.type === 'FileDescriptor' ? Number(desc.value) : undefined;
      if (r.type === 'HereDoc') {
        const body = String((r.body as Node | undefined)?.text ?? '');
        redirects.push({ op, fd, target: body, literal: true });
        if (fd === undefined || fd === 0) stdinText = body;
        continue;
      }
      const t = r.target as Node | undefined;
      const info = t ? wordInfo(t) : { value: '', literal: true, glob: false, raw: '' };
      redirects.push({ op, fd, target: info.value, literal: info.literal });
      if (op === '<<<' && (fd === undefined || fd === 0)) stdinText = `${info.value}\n`;
      if ((op === '<' || op === '<>') && (fd === undefined || fd === 0)) stdinOpaque = info.literal ? 'file' : 'substitution';
    }
    const text = ctx.outerText ?? ctx.source.slice(Number(n.pos ?? 0), Number(n.end ?? 0));
    // `GIT_SSH_COMMAND='…' git fetch`, `PAGER='…' man x`: the value is run as a command later.
    const later: ResolvedCommand[] = [];
    let preload = false;
    for (const p of prefix) {
      if (p.type !== 'Assignment') continue;
      const t = String(p.text ?? '');
      if (/^LD_PRELOAD=/.test(t) || /^LD_AUDIT=/.test(t)) preload = true;
      if (MISH_POLICY_ASSIGNMENT.test(t)) this.lineFacts.push({ fact: 'mish-policy-override', text });
      if (COMMAND_VARIABLES.test(t)) later.push(...this.parseAndWalk(String((p.value as Node | undefined)?.value ?? t.slice(t.indexOf('=') + 1)), { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, t.slice(0, t.indexOf('='))], outerText: text, pipeIn: undefined }));
    }
    if (!n.name) {
      // `> /etc/passwd` alone truncates the file: judged as the no-op command `:` with that redirection.
      if (redirects.some((r) => r.op.startsWith('>') || r.op === '<>')) return [...this.expand(literalWords([':']), { text, redirects, stdinText, stdinOpaque }, ctx), ...later];
      return later;
    }
    const words: Node[] = [n.name as Node, ...suffix.filter((s) => s.type === 'Word' || s.type === 'Assignment')];
    const w: Words = { argv: [], literal: [], glob: [], raw: [] };
    for (const x of words) {
      if (x.type === 'Assignment') {
        // `alias ll='…'`, `export A="…"`: NAME=value with the value's quotes removed.
        const t = String(x.text ?? '');
        const eq = t.indexOf('=');
        const v = (x.value as Node | undefined)?.value;
        w.argv.push(eq >= 0 && typeof v === 'string' ? t.slice(0, eq + 1) + v : t);
        w.literal.push(false);
        w.glob.push(false);
        w.raw.push(String(x.text ?? ''));
        continue;
      }
      const i = wordInfo(x);
      const parts = (x.parts as Node[] | undefined) ?? [];
      let values = [i.value];
      if (parts.some((p) => p.type === 'BraceExpansion')) {
        const b = expandBracesChecked(i.value);
        values = b.words;
        // Words past the cap are not checked: the line is asked about, never allowed on the words seen.
        if (b.truncated) this.lineFacts.push({ fact: 'expansion-too-large', text: `${i.raw}: the brace expansion is too large to check` });
        if (!this.step(values.length >> 4)) return [];
      }
      for (const v of values) {
        w.argv.push(v);
        w.literal.push(i.literal);
        w.glob.push(i.glob);
        w.raw.push(i.raw);
      }
    }
    const direct = this.expand(w, { text, redirects, stdinText, stdinOpaque }, ctx);
    if (preload) for (const c of direct) c.facts.add('ld-preload');
    // A script written here and run later in the line is read when it runs.
    for (const c of direct) for (const f of downloadOutputs(c)) this.written.set(normalizePath(f, this.curCwd ?? this.cwd), `\u0000${c.name}`);
    const out = staticOutput(direct.slice(0, 1));
    for (const r of redirects) {
      if ((r.op === '>' || r.op === '>>' || r.op === '>|') && (r.fd === undefined || r.fd === 1) && r.literal) {
        const key = normalizePath(r.target, this.curCwd ?? this.cwd);
        this.written.set(key, out !== undefined ? (r.op === '>>' ? (this.written.get(key) ?? '') + out : out) : `\u0000${direct[0]?.name ?? ''}`);
      }
    }
    return [...direct, ...later];
  }

  private make(w: Words, base: Base, ctx: Ctx, facts: string[] = []): ResolvedCommand {
    const c: ResolvedCommand = {
      argv: w.argv,
      literal: w.literal,
      glob: w.glob,
      name: w.argv.length ? commandName(w.argv[0]) : '',
      text: base.text,
      via: ctx.via,
      redirects: base.redirects,
      stdinText: base.stdinText ?? ctx.pipeIn?.text,
      pipedFrom: [],
      pipedTo: [],
      upstream: [],
      sql: [],
      facts: new Set(facts),
    };
    if (base.redirects.some((r) => /^\/dev\/(?:tcp|udp)\//.test(r.target))) c.facts.add(SHELLS.has(c.name) ? 'reverse-shell' : 'dev-tcp');
    if (this.curCwd !== undefined) c.cwd = this.curCwd;
    if (c.name === 'cd' || c.name === 'pushd') {
      const dir = positionalArgs(w.argv.slice(1))[0];
      const k = dir === undefined ? -1 : w.argv.indexOf(dir);
      if (dir === undefined) this.curCwd = '~';
      else if (dir === '-' || !w.literal[k]) this.curCwd = null;
      else {
        const from = this.curCwd === undefined ? this.cwd : this.curCwd;
        this.curCwd = dir.startsWith('/') || dir.startsWith('~') || from ? normalizePath(dir, from ?? undefined) : null;
      }
    }
    this.all.push(c);
    return c;
  }

  /** Resolve one argv: unwrap wrappers and re-entries; returns the commands it runs directly. */
  private expand(w: Words, base: Base, ctx: Ctx): ResolvedCommand[] {
    if (w.argv.length === 0) return [];
    if (!this.step(1 + (w.argv.length >> 4))) return [this.make(w, base, ctx)];
    if (ctx.depth > MAX_DEPTH) {
      this.lineFacts.push({ fact: 'unwrap-depth', text: base.text });
      return [this.make(w, base, ctx)];
    }
    // NAME=value in command position (after a wrapper): seen as an assignment, the command follows.
    let skip = 0;
    while (skip < w.argv.length - 1 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w.argv[skip]) && w.literal[skip]) skip++;
    if (skip > 0) return this.withAssignments(w.argv.slice(0, skip), this.expand(slice(w, skip), base, ctx), base, ctx);
    if (!w.literal[0] || w.glob[0] || w.argv[0] === '') return [this.make(w, base, ctx, ['dynamic-command'])];
    const name = commandName(w.argv[0]);
    const deeper = (label: string): Ctx => ({ ...ctx, depth: ctx.depth + 1, via: [...ctx.via, label] });
    const args = w.argv.slice(1);

    if (w.argv[0].includes('/')) {
      const script = this.writtenScript(w.argv[0], true);
      if (script !== undefined) {
        const self = this.make(w, base, ctx, script === null ? [this.unseenScript(w.argv[0])] : []);
        return script === null ? [self] : [self, ...this.parseAndWalk(script, { ...deeper('script'), outerText: base.text })];
      }
    }
    const spec = PREFIX[name];
    if (spec) {
      const j = skipOptions(w.argv, spec);
      if (j !== 'query' && j < w.argv.length) return this.withAssignments(w.argv.slice(1, j), this.expand(slice(w, j), base, deeper(name)), base, ctx);
      return [this.make(w, base, ctx)];
    }
    if (name === 'env') return this.env(w, base, ctx);
    if (name === 'mish') return this.mish(w, base, ctx);
    if (SHELLS.has(name)) return this.shell(w, base, ctx, name);
    switch (name) {
      case 'eval': {
        const self = this.make(w, base, ctx);
        if (args.length === 0) return [self];
        const src = args.join(' ');
        return [self, ...this.parseAndWalk(src, { ...deeper('eval'), outerText: base.text, pipeIn: ctx.pipeIn })];
      }
      case 'source':
      case '.': {
        const self = this.make(w, base, ctx);
        const file = args[0];
        if (file !== undefined && (!w.literal[1] || file === '/dev/stdin' || file === '-' || /^\/dev\/fd\//.test(file) || /^\/proc\/self\/fd\//.test(file))) {
          const text = base.stdinText ?? ctx.pipeIn?.text;
          if (text !== undefined && (file === '/dev/stdin' || file === '-')) return [self, ...this.parseAndWalk(text, { ...deeper(name), outerText: base.text })];
          self.facts.add(/\b(?:curl|wget|fetch)\b/.test(w.raw[1] ?? '') || ctx.pipeIn?.producers.some((p) => DOWNLOADERS.has(p.name)) ? 'download-to-shell' : 'shell-stdin-unknown');
        }
        return [self];
      }
      case 'su':
      case 'runuser':
        return this.su(w, base, ctx, name);
      case 'flock': {
        const self = this.make(w, base, ctx);
        const c = w.argv.findIndex((x, k) => k > 0 && (x === '-c' || x === '--command'));
        if (c > 0 && w.argv[c + 1] !== undefined) return [self, ...this.parseAndWalk(w.argv[c + 1], { ...deeper('flock -c'), outerText: base.text })];
        const j = skipOptions(w.argv, { shortValue: 'wE', longValue: ['--timeout', '--wait', '--conflict-exit-code'], positional: 1 });
        return j !== 'query' && j < w.argv.length ? [self, ...this.expand(slice(w, j), base, deeper('flock'))] : [self];
      }
      case 'ssh':
        return this.ssh(w, base, ctx);
      case 'docker':
      case 'podman':
      case 'nerdctl':
        return this.containerExec(w, base, ctx, name);
      case 'kubectl':
      case 'oc': {
        const self = this.make(w, base, ctx);
        const dd = args.indexOf('--');
        if (args.includes('exec') && dd >= 0 && dd < args.length - 1) return [self, ...this.expand(slice(w, dd + 2), base, deeper(`${name} exec`))];
        return [self];
      }
      case 'find':
        return this.find(w, base, ctx);
      case 'xargs':
        return this.xargs(w, base, ctx);
      case 'parallel':
        return this.parallel(w, base, ctx);
      case 'watch':
        return this.watch(w, base, ctx);
      case 'script': {
        const self = this.make(w, base, ctx);
        const c = args.findIndex((a) => a === '-c' || a === '--command' || /^-[a-zA-Z]*c$/.test(a));
        if (c >= 0 && args[c + 1] !== undefined) return [self, ...this.parseAndWalk(args[c + 1], { ...deeper('script -c'), outerText: base.text })];
        return [self];
      }
      case 'tmux':
      case 'screen':
        return this.multiplexer(w, base, ctx, name);
      case 'at':
      case 'batch': {
        const self = this.make(w, base, ctx);
        const text = base.stdinText ?? ctx.pipeIn?.text;
        if (text !== undefined) return [self, ...this.parseAndWalk(text, { ...deeper(name), outerText: base.text })];
        if (ctx.pipeIn || base.stdinOpaque === 'substitution') self.facts.add('shell-stdin-unknown');
        return [self];
      }
    }
    if (/^(?:export|declare|typeset|readonly|local)$/.test(name) && args.some((x) => MISH_POLICY_ASSIGNMENT.test(x))) this.lineFacts.push({ fact: 'mish-policy-override', text: base.text });
    const later = laterStrings(name, w);
    if (later.length) {
      const self = this.make(w, base, ctx);
      if (SQL_CLIENTS.has(name)) collectSql(self, w, base, ctx);
      return [self, ...later.flatMap((src) => this.parseAndWalk(src, { ...deeper(`${name} string`), outerText: base.text, pipeIn: undefined }))];
    }
    const lang = INTERPRETERS[name];
    if (lang) return this.interpreter(w, base, ctx, lang);
    const cmd = this.make(w, base, ctx);
    if (SQL_CLIENTS.has(name)) collectSql(cmd, w, base, ctx);
    return [cmd];
  }

  private env(w: Words, base: Base, ctx: Ctx): ResolvedCommand[] {
    const a = w.argv;
    let j = 1;
    while (j < a.length) {
      const x = a[j];
      if (x === '--') {
        j++;
        break;
      }
      if (x === '-S' || x === '--split-string') {
        const s = a[j + 1];
        if (s === undefined) break;
        return [this.make(w, base, ctx), ...this.parseAndWalk([s, ...a.slice(j + 2)].join(' '), { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'env -S'], outerText: base.text })];
      }
      if (x.startsWith('-S') || x.startsWith('--split-string=')) {
        const s = x.startsWith('-S') ? x.slice(2) : x.slice('--split-string='.length);
        return [this.make(w, base, ctx), ...this.parseAndWalk([s, ...a.slice(j + 1)].join(' '), { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'env -S'], outerText: base.text })];
      }
      if (x === '-u' || x === '--unset' || x === '-C' || x === '--chdir') {
        j += 2;
        continue;
      }
      if (x.startsWith('-')) {
        j++;
        continue;
      }
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(x)) {
        j++;
        continue;
      }
      break;
    }
    if (j >= a.length) return [this.make(w, base, ctx)];
    return this.withAssignments(a.slice(1, j), this.expand(slice(w, j), base, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'env'] }), base, ctx);
  }

  /**
   * A nested mish run by the agent: the command it runs is judged here, under the policy the
   * agent already runs under (so the nested mish can only add its own, stricter checks); giving
   * it another policy (--policy, --policy-default, $MISH_POLICY*) is forbidden, as are the
   * operator's subcommands (deciding approvals, typing into a handoff, the console).
   */
  private mish(w: Words, base: Base, ctx: Ctx): ResolvedCommand[] {
    const a = w.argv;
    const self = this.make(w, base, ctx);
    let j = 1;
    let ended = false;
    for (; j < a.length; j++) {
      const x = a[j];
      if (x === '--') {
        ended = true;
        j++;
        break;
      }
      if (!x.startsWith('-')) break;
      if (x === '--policy' || x === '--policy-default' || x.startsWith('--policy=') || x.startsWith('--policy-default=')) {
        self.facts.add('mish-policy-override');
        if (!x.includes('=')) j++;
      }
    }
    if (j >= a.length) return [self];
    const sub = a[j];
    if (!ended && MISH_OPERATOR_SUBCOMMANDS.has(sub)) {
      self.facts.add('mish-operator-command');
      return [self];
    }
    if (!ended && MISH_OTHER_SUBCOMMANDS.has(sub)) {
      // A nested server runs what its stdin asks under a policy loaded afresh: not this one.
      if (sub === 'serve') self.facts.add('shell-stdin-unknown');
      return [self];
    }
    const deeper: Ctx = { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'mish'], outerText: base.text, pipeIn: undefined };
    // `mish "a && b"` runs the line in a shell; `mish rm -rf x` runs the argv.
    if (a.length - j === 1) return [self, ...this.parseAndWalk(a[j], deeper)];
    return [self, ...this.expand(slice(w, j), base, deeper)];
  }

  /** NAME=value words before a command (after env, sudo, …): LD_PRELOAD marks it; command variables are parsed. */
  private withAssignments(words: string[], cmds: ResolvedCommand[], base: Base, ctx: Ctx): ResolvedCommand[] {
    const extra: ResolvedCommand[] = [];
    for (const x of words) {
      if (/^(?:LD_PRELOAD|LD_AUDIT)=/.test(x)) for (const c of cmds) c.facts.add('ld-preload');
      if (MISH_POLICY_ASSIGNMENT.test(x)) this.lineFacts.push({ fact: 'mish-policy-override', text: base.text });
      if (COMMAND_VARIABLES.test(x)) extra.push(...this.parseAndWalk(x.slice(x.indexOf('=') + 1), { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, x.slice(0, x.indexOf('='))], outerText: base.text, pipeIn: undefined }));
    }
    return [...cmds, ...extra];
  }

  private shell(w: Words, base: Base, ctx: Ctx, name: string): ResolvedCommand[] {
    const a = w.argv;
    let cFlag = false;
    let sFlag = false;
    let j = 1;
    for (; j < a.length; j++) {
      const x = a[j];
      if (x === '--' || x === '-') {
        j++;
        break;
      }
      if (x === '-o' || x === '+o' || x === '-O' || x === '+O' || x === '--rcfile' || x === '--init-file') {
        j++;
        continue;
      }
      if (x.startsWith('--')) {
        if (x === '--command') cFlag = true;
        continue;
      }
      if ((x.startsWith('-') || x.startsWith('+')) && x.length > 1) {
        if (x.slice(1).includes('c')) cFlag = true;
        if (x.slice(1).includes('s')) sFlag = true;
        continue;
      }
      break;
    }
    const self = this.make(w, base, ctx);
    const deeper: Ctx = { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, cFlag ? `${name} -c` : name], outerText: base.text, pipeIn: undefined };
    if (cFlag) {
      const s = a[j];
      if (s === undefined) return [self];
      // `sh -c 'rm -rf "$1"' _ /`: the words after the string are $0, $1, …
      return [self, ...this.parseAndWalk(withPositionals(s, a.slice(j + 1)), deeper)];
    }
    if (j < a.length && !sFlag && substituted(w.raw[j])) {
      // `bash <(…)`, `sh "$(…)"`: the script is another command's output.
      self.facts.add(/\b(?:curl|wget|fetch)\b/.test(w.raw[j]) ? 'download-to-shell' : 'shell-stdin-unknown');
      return [self];
    }
    if (j < a.length && !sFlag) {
      // Runs a script file: opaque like any program — unless this line wrote it.
      const script = this.writtenScript(a[j], w.literal[j]);
      if (script === undefined) return [self];
      if (script === null) {
        self.facts.add(this.unseenScript(a[j]));
        return [self];
      }
      return [self, ...this.parseAndWalk(script, { ...deeper, via: [...ctx.via, `${name} script`] })];
    }
    // Commands come from stdin.
    self.readsProgramFromStdin = true;
    const text = base.stdinText ?? ctx.pipeIn?.text;
    if (text !== undefined) return [self, ...this.parseAndWalk(text, deeper)];
    if (base.stdinOpaque === 'substitution') self.facts.add('shell-stdin-unknown');
    else if (ctx.pipeIn) {
      const f = unknownFeed(ctx.pipeIn);
      if (f !== 'none') self.facts.add(f);
    }
    return [self];
  }

  /** Text of a script this line wrote (null: written with content we cannot see), undefined: not written here. */
  private writtenScript(file: string, literal: boolean): string | null | undefined {
    if (!literal || this.written.size === 0) return undefined;
    const t = this.written.get(normalizePath(file, this.curCwd ?? this.cwd));
    if (t === undefined) return undefined;
    return t.startsWith('\u0000') ? null : t;
  }

  /** Why a script this line wrote with unseen content is escalated. */
  private unseenScript(file: string): string {
    const t = this.written.get(normalizePath(file, this.curCwd ?? this.cwd)) ?? '';
    return DOWNLOADERS.has(t.slice(1)) ? 'download-to-shell' : 'shell-stdin-unknown';
  }

  private su(w: Words, base: Base, ctx: Ctx, name: string): ResolvedCommand[] {
    const a = w.argv;
    for (let j = 1; j < a.length; j++) {
      const x = a[j];
      if (x === '-c' || x === '--command' || /^-[a-zA-Z]*c$/.test(x)) {
        const s = a[j + 1];
        if (s === undefined) break;
        return [this.make(w, base, ctx), ...this.parseAndWalk(s, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, `${name} -c`], outerText: base.text })];
      }
      if (x.startsWith('--command=')) return [this.make(w, base, ctx), ...this.parseAndWalk(x.slice(10), { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, `${name} -c`], outerText: base.text })];
    }
    if (name === 'runuser') {
      const j = skipOptions(a, { shortValue: 'ugGsw', longValue: ['--user', '--group', '--supp-group', '--shell', '--whitelist-environment'] });
      if (j !== 'query' && j < a.length && a.slice(1, j).some((x) => x === '-u' || x === '--user' || x.startsWith('-u'))) return this.expand(slice(w, j), base, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, name] });
    }
    return [this.make(w, base, ctx)];
  }

  private ssh(w: Words, base: Base, ctx: Ctx): ResolvedCommand[] {
    const a = w.argv;
    const valued = 'BbcDEeFIiJLlmOoPpQRSWw';
    let j = 1;
    for (; j < a.length; j++) {
      const x = a[j];
      if (x === '--') {
        j++;
        break;
      }
      if (x.startsWith('-') && x.length > 1) {
        const last = x[x.length - 1];
        // -p22 carries its value; -p 22 takes the next word.
        const k = [...x.slice(1)].findIndex((ch) => valued.includes(ch));
        if (k >= 0 && k === x.length - 2 && valued.includes(last)) j++;
        continue;
      }
      break;
    }
    const self = this.make(w, base, ctx);
    const local = laterStrings('ssh', w).flatMap((src) => this.parseAndWalk(src, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'ssh -o'], outerText: base.text, pipeIn: undefined }));
    const rest = j + 1;
    if (rest >= a.length) return [self, ...local];
    const remote = a.slice(rest).join(' ');
    return [self, ...local, ...this.parseAndWalk(remote, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'ssh'], outerText: base.text, pipeIn: undefined })];
  }

  private containerExec(w: Words, base: Base, ctx: Ctx, name: string): ResolvedCommand[] {
    const a = w.argv;
    const self = this.make(w, base, ctx);
    let j = 1;
    while (j < a.length && a[j].startsWith('-')) j += ['-H', '--host', '--context', '-c', '--config', '-l', '--log-level'].includes(a[j]) ? 2 : 1;
    if (a[j] === 'container' && a[j + 1] === 'exec') j++;
    if (a[j] !== 'exec') return [self];
    j++;
    const valued = ['-e', '--env', '--env-file', '-u', '--user', '-w', '--workdir', '--detach-keys'];
    while (j < a.length && a[j].startsWith('-')) j += valued.includes(a[j]) ? 2 : 1;
    j++; // the container
    if (j >= a.length) return [self];
    return [self, ...this.expand(slice(w, j), { ...base, stdinOpaque: undefined }, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, `${name} exec`] })];
  }

  private find(w: Words, base: Base, ctx: Ctx): ResolvedCommand[] {
    const a = w.argv;
    const self = this.make(w, base, ctx);
    const starts: string[] = [];
    let i = 1;
    while (i < a.length && ['-H', '-L', '-P'].includes(a[i])) i++;
    if (a[i] === '-D' || a[i] === '-O' || /^-O\d$/.test(a[i] ?? '')) i += a[i] === '-D' ? 2 : 1;
    for (; i < a.length; i++) {
      const x = a[i];
      if (x.startsWith('-') || x === '(' || x === '!' || x === ',') break;
      starts.push(x);
    }
    if (starts.length === 0) starts.push('.');
    const FILTERS = /^-(?:i?name|i?path|i?wholename|i?regex|newer\w*|[amc]time|[amc]min|size|empty|user|group|nouser|nogroup|perm|links|inum|samefile|i?lname|used)$/;
    const filtered = a.slice(i).some((x) => FILTERS.test(x));
    // What `{}` / -delete can reach: the start points themselves, or (with a filter) something below them.
    // Below an absolute or home start, a match can be anything there: `/etc/*` (tested as a glob
    // against the protected paths); below a relative start, something in the project.
    const below = (s: string) => (/^(?:\/|~|\$HOME|\$\{HOME\})/.test(s) ? `${s.replace(/\/+$/, '')}/*` : `${s.replace(/\/+$/, '')}/\u2026/found`);
    const reach = filtered ? starts.map(below) : starts;
    const out: ResolvedCommand[] = [self];
    for (let k = i; k < a.length; k++) {
      const x = a[k];
      if (x === '-exec' || x === '-execdir' || x === '-ok' || x === '-okdir') {
        let e = k + 1;
        while (e < a.length && a[e] !== ';' && a[e] !== '+') e++;
        const inner = slice(w, k + 1, e);
        if (reach.length > MAX_FANOUT) this.tooMany(base.text, `find -exec over ${reach.length} start points`);
        for (const target of reach.slice(0, MAX_FANOUT)) {
          const sub: Words = { ...inner, argv: inner.argv.map((v) => v.replace(/\{\}/g, target)), glob: inner.argv.map((v, k) => inner.glob[k] || (v.includes('{}') && target.endsWith('/*'))) };
          out.push(...this.expand(sub, { ...base, stdinOpaque: undefined }, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, `find ${x}`], pipeIn: undefined }));
        }
        k = e;
      } else if (x === '-delete') {
        const rm = literalWords(['rm', '-r', ...reach]);
        rm.glob = rm.argv.map((v, k) => k >= 2 && v.endsWith('/*'));
        out.push(...this.expand(rm, base, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'find -delete'], pipeIn: undefined }));
      }
    }
    return out;
  }

  private xargs(w: Words, base: Base, ctx: Ctx): ResolvedCommand[] {
    const a = w.argv;
    const spec: PrefixSpec = { shortValue: 'adEeIiLlnPs', longValue: ['--arg-file', '--delimiter', '--eof', '--replace', '--max-lines', '--max-args', '--max-procs', '--max-chars', '--process-slot-var'] };
    let replace: string | undefined;
    for (let k = 1; k < a.length && a[k].startsWith('-'); k++) {
      if (a[k] === '-I' || a[k] === '--replace') replace = a[k + 1];
      else if (a[k].startsWith('-I') && a[k].length > 2) replace = a[k].slice(2);
      else if (a[k] === '-i') replace = '{}';
      else if (a[k].startsWith('--replace=')) replace = a[k].slice(10);
    }
    const j = skipOptions(a, spec, { gluedOnly: 'il' });
    const self = this.make(w, base, ctx);
    const inner = j === 'query' || j >= a.length ? literalWords(['echo']) : slice(w, j);
    const text = base.stdinText ?? ctx.pipeIn?.text;
    const deeper: Ctx = { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'xargs'], pipeIn: undefined };
    if (text === undefined) {
      // Items listed from a path (`ls /`, `find ~ -name x`) are somewhere below it.
      const lister = ctx.pipeIn?.producers.find((p) => ['ls', 'find', 'fd', 'locate', 'du', 'tree'].includes(p.name));
      const from = lister ? (positionalArgs(lister.argv.slice(1)).find((x) => !x.startsWith('-')) ?? '.') : undefined;
      if (from !== undefined && /^(?:\/|~|\$HOME|\$\{HOME\})/.test(from)) {
        // find prints whole paths; ls prints names, which a template such as `~/{}` puts back under a path.
        const item = `${from.replace(/\/+$/, '')}/*`;
        const named = lister!.name === 'ls' ? '*' : item;
        const argv = replace !== undefined ? inner.argv.map((v) => v.split(replace!).join(named)) : [...inner.argv, item];
        const glob = replace !== undefined ? inner.argv.map((v, k) => inner.glob[k] || v.includes(replace!)) : [...inner.glob, true];
        return [self, ...this.expand({ argv, literal: argv.map(() => true), glob, raw: argv }, { ...base, stdinText: undefined, stdinOpaque: undefined }, deeper)];
      }
      return [self, ...this.expand(inner, { ...base, stdinText: undefined, stdinOpaque: undefined }, deeper)];
    }
    const items = text.split(a.includes('-0') || a.includes('--null') ? /\0/ : /\s+/).filter((s) => s !== '');
    if (items.length === 0) return [self, ...this.expand(inner, base, deeper)];
    if (replace !== undefined) {
      const r = replace;
      if (items.length > MAX_FANOUT) this.tooMany(base.text, `xargs -I over ${items.length} inputs`);
      return [self, ...items.slice(0, MAX_FANOUT).flatMap((it) => this.expand({ ...inner, argv: inner.argv.map((v) => v.split(r).join(it)) }, { ...base, stdinText: undefined }, deeper))];
    }
    const fed = literalWords(items);
    return [self, ...this.expand({ argv: [...inner.argv, ...fed.argv], literal: [...inner.literal, ...fed.literal], glob: [...inner.glob, ...fed.glob], raw: [...inner.raw, ...fed.raw] }, { ...base, stdinText: undefined }, deeper)];
  }

  /** A fan-out past MAX_FANOUT: the commands not resolved make the line an ask, never a pass. */
  private tooMany(text: string, what: string): void {
    this.lineFacts.push({ fact: 'expansion-too-large', text: `${text}: ${what} is too many to check` });
  }

  private parallel(w: Words, base: Base, ctx: Ctx): ResolvedCommand[] {
    const a = w.argv;
    const self = this.make(w, base, ctx);
    const valued = ['-j', '--jobs', '-S', '--sshlogin', '-N', '-n', '--delay', '--timeout', '--joblog', '--results', '-a', '--arg-file', '--colsep', '-d', '--delimiter', '--tag-string', '--memfree', '--load'];
    let j = 1;
    while (j < a.length && a[j].startsWith('-') && a[j] !== ':::' && a[j] !== '::::') j += valued.includes(a[j]) ? 2 : 1;
    const sep = a.findIndex((x, k) => k >= j && (x === ':::' || x === ':::+'));
    const cmdWords = a.slice(j, sep < 0 ? a.length : sep);
    let inputs: string[] = [];
    if (sep >= 0) inputs = a.slice(sep + 1).filter((x) => x !== ':::' && x !== ':::+' && x !== '::::');
    else {
      const text = base.stdinText ?? ctx.pipeIn?.text;
      if (text !== undefined) inputs = text.split('\n').filter((s) => s.trim() !== '');
    }
    const deeper: Ctx = { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'parallel'], outerText: base.text, pipeIn: undefined };
    const out: ResolvedCommand[] = [self];
    const template = cmdWords.join(' ');
    if (inputs.length === 0) {
      if (template) out.push(...this.parseAndWalk(template, deeper));
      return out;
    }
    if (inputs.length > MAX_FANOUT) this.tooMany(base.text, `parallel over ${inputs.length} inputs`);
    for (const input of inputs.slice(0, MAX_FANOUT)) {
      const line = template === '' ? input : template.includes('{}') ? template.split('{}').join(input) : `${template} ${input}`;
      out.push(...this.parseAndWalk(line, deeper));
    }
    return out;
  }

  private watch(w: Words, base: Base, ctx: Ctx): ResolvedCommand[] {
    const a = w.argv;
    const self = this.make(w, base, ctx);
    let exec = false;
    let j = 1;
    for (; j < a.length && a[j].startsWith('-'); j++) {
      if (a[j] === '--') {
        j++;
        break;
      }
      if (a[j] === '-n' || a[j] === '--interval' || a[j] === '-q' || a[j] === '--equexit') j++;
      if (a[j] === '-x' || a[j] === '--exec') exec = true;
    }
    if (j >= a.length) return [self];
    const deeper: Ctx = { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'watch'], outerText: base.text, pipeIn: undefined };
    if (exec) return [self, ...this.expand(slice(w, j), base, deeper)];
    return [self, ...this.parseAndWalk(a.slice(j).join(' '), deeper)];
  }

  private multiplexer(w: Words, base: Base, ctx: Ctx, name: string): ResolvedCommand[] {
    const a = w.argv;
    const self = this.make(w, base, ctx);
    const deeper: Ctx = { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, name], outerText: base.text, pipeIn: undefined };
    if (name === 'tmux') {
      const sub = a.findIndex((x, k) => k > 0 && !x.startsWith('-'));
      if (sub < 0) return [self];
      const s = a[sub];
      if (s === 'send-keys' || s === 'send') {
        const keys = positionalArgs(a.slice(sub + 1), ['-t', '-N', '-c']).filter((k) => !/^(?:Enter|C-m|KPEnter)$/.test(k));
        return keys.length ? [self, ...this.parseAndWalk(keys.join(' '), deeper)] : [self];
      }
      if (/^(?:new-session|new|new-window|neww|split-window|splitw|respawn-pane|respawnp|respawn-window|respawnw|run-shell|run)$/.test(s)) {
        const pos = positionalArgs(a.slice(sub + 1), ['-t', '-s', '-n', '-c', '-F', '-x', '-y', '-e', '-l', '-f', '-L', '-S']);
        return pos.length ? [self, ...this.parseAndWalk(pos.join(' '), deeper)] : [self];
      }
      return [self];
    }
    // screen [-dmS name] cmd args
    let j = 1;
    while (j < a.length && a[j].startsWith('-')) j += /^-[a-zA-Z]*[ScehpTtX]$/.test(a[j]) ? 2 : 1;
    return j < a.length ? [self, ...this.expand(slice(w, j), base, deeper)] : [self];
  }

  private interpreter(w: Words, base: Base, ctx: Ctx, lang: Language): ResolvedCommand[] {
    const a = w.argv;
    const self = this.make(w, base, ctx);
    const codes: string[] = [];
    let module = false;
    let script = false;
    let dynamic = false;
    const name = self.name;
    const codeFlags: Record<Language, string[]> = {
      python: ['-c'],
      perl: ['-e', '-E'],
      ruby: ['-e'],
      node: ['-e', '--eval', '-p', '--print'],
      php: ['-r'],
      lua: ['-e'],
      awk: [],
      r: ['-e'],
      applescript: ['-e'],
    };
    if (lang === 'awk') {
      let j = 1;
      for (; j < a.length; j++) {
        const x = a[j];
        if (x === '--') {
          j++;
          break;
        }
        if (x === '-f' || x === '--file') {
          script = true;
          j++;
          continue;
        }
        if (x === '-F' || x === '-v' || x === '--assign' || x === '--field-separator') {
          j++;
          continue;
        }
        if (x.startsWith('-') && x.length > 1) continue;
        break;
      }
      if (!script && j < a.length) {
        codes.push(a[j]);
        if (!w.literal[j]) dynamic = true;
      }
    } else if (name === 'deno') {
      const k = a.indexOf('eval');
      if (k > 0 && a[k + 1] !== undefined) codes.push(a[k + 1]);
      else script = true;
    } else {
      const flags = codeFlags[lang];
      for (let j = 1; j < a.length; j++) {
        const x = a[j];
        if (x === '--') break;
        const glued = flags.find((f) => f.length === 2 && x.startsWith(f) && x.length > 2 && lang !== 'perl');
        // perl/python clusters ending in the code flag: `-pe`, `-lne`, `-Sc`.
        const clusterEnd = /^-[A-Za-z0-9.]*[A-Za-z]$/.test(x) && !x.startsWith('--') && flags.some((f) => f.length === 2 && x.endsWith(f[1]) && x.length > 2 && (lang === 'perl' || lang === 'python' || lang === 'ruby'));
        if (flags.includes(x) || clusterEnd) {
          if (a[j + 1] !== undefined) {
            codes.push(a[j + 1]);
            if (!w.literal[j + 1]) dynamic = true;
          }
          j++;
          continue;
        }
        if (glued) {
          codes.push(x.slice(2));
          continue;
        }
        if (lang === 'python' && (x === '-m' || (x.startsWith('-') && !x.startsWith('--') && x.endsWith('m')))) {
          module = true;
          break;
        }
        if (lang === 'python' && (x === '-W' || x === '-X')) {
          j++;
          continue;
        }
        if (x === '-') break;
        if (x.startsWith('-')) continue;
        if (codes.length === 0) {
          script = true;
          // `python3 <(curl …)`: the program is another command's output.
          if (substituted(w.raw[j])) self.facts.add(/\b(?:curl|wget|fetch)\b/.test(w.raw[j]) ? 'download-to-shell' : 'interpreter-stdin-unknown');
        }
        break;
      }
    }
    const deeper: Ctx = { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, `${name} code`], outerText: base.text, pipeIn: undefined };
    const out: ResolvedCommand[] = [self];
    if (codes.length === 0 && !module && !script && lang !== 'awk' && name !== 'deno') {
      // The program comes from stdin.
      self.readsProgramFromStdin = true;
      const text = base.stdinText ?? ctx.pipeIn?.text;
      if (text !== undefined) codes.push(text);
      else if (base.stdinOpaque === 'substitution') self.facts.add('interpreter-stdin-unknown');
      else if (ctx.pipeIn) {
        const f = unknownFeed(ctx.pipeIn);
        if (f !== 'none') self.facts.add(f === 'shell-stdin-unknown' ? 'interpreter-stdin-unknown' : f);
      }
    }
    if (dynamic) self.facts.add('interpreter-code-unknown');
    for (const code of codes) {
      const r = analyzeCode(lang, code);
      if (r.reverseShell) self.facts.add('reverse-shell');
      if (r.unknown) self.facts.add('interpreter-code-unknown');
      for (const line of r.shell) out.push(...this.parseAndWalk(line, deeper));
      for (const argv of r.argv) out.push(...this.expand(literalWords(argv), { text: base.text, redirects: [] }, deeper));
    }
    return out;
  }
}

/** Variables whose value a program runs as a shell command (or loads as code). */
const COMMAND_VARIABLES = /^(?:GIT_SSH_COMMAND|GIT_SSH|GIT_EDITOR|GIT_SEQUENCE_EDITOR|GIT_PAGER|GIT_ASKPASS|SSH_ASKPASS|EDITOR|VISUAL|PAGER|MANPAGER|LESSOPEN|LESSCLOSE|BASH_ENV|ENV|PROMPT_COMMAND|SUDO_ASKPASS|BROWSER)=/;
/** git -c settings whose value git runs as a command. */
const GIT_COMMAND_SETTINGS = /^(?:core\.sshcommand|core\.pager|core\.editor|core\.fsmonitor|core\.askpass|sequence\.editor|diff\.external|gpg\.program|credential\.helper|pager\.[\w-]+|alias\.[\w-]+|filter\.[\w-]+\.(?:clean|smudge|process)|difftool\.[\w-]+\.cmd|mergetool\.[\w-]+\.cmd)=/i;

/**
 * Shell strings a command stores to be run later or elsewhere: alias bodies, trap actions,
 * command-running variables (`export GIT_SSH_COMMAND=…`), git -c settings, vim's `-c '!…'`.
 */
function laterStrings(name: string, w: Words): string[] {
  const a = w.argv;
  const out: string[] = [];
  const assignValue = (x: string) => x.slice(x.indexOf('=') + 1);
  if (name === 'alias') for (const x of a.slice(1)) if (x.includes('=')) out.push(assignValue(x));
  if (name === 'trap') {
    const action = a.slice(1).find((x) => !x.startsWith('-'));
    if (action !== undefined && a.length > 2) out.push(action);
  }
  if (name === 'export' || name === 'declare' || name === 'typeset' || name === 'local' || name === 'readonly') for (const x of a.slice(1)) if (COMMAND_VARIABLES.test(x)) out.push(assignValue(x));
  if (name === 'git') {
    for (let k = 1; k < a.length; k++) {
      const setting = a[k] === '-c' ? a[k + 1] : a[k].startsWith('-c') && a[k].length > 2 ? a[k].slice(2) : undefined;
      if (setting && GIT_COMMAND_SETTINGS.test(setting)) out.push(assignValue(setting).replace(/^!/, ''));
    }
  }
  if (name === 'ssh' || name === 'scp' || name === 'sftp' || name === 'rsync' || name === 'autossh' || name === 'sshfs') {
    // -o ProxyCommand=… / LocalCommand=… run locally; rsync -e / --rsh is the command it starts.
    for (let k = 1; k < a.length; k++) {
      const opt = a[k] === '-o' ? a[k + 1] : a[k].startsWith('-o') && a[k].length > 2 ? a[k].slice(2) : undefined;
      const m = opt !== undefined ? /^\s*(?:ProxyCommand|LocalCommand|KnownHostsCommand)\s*[= ]\s*(.*)$/i.exec(opt) : null;
      if (m && !/^none$/i.test(m[1])) out.push(m[1]);
      if (name === 'rsync' && (a[k] === '-e' || a[k] === '--rsh') && a[k + 1] !== undefined) out.push(a[k + 1]);
      if (name === 'rsync' && a[k].startsWith('--rsh=')) out.push(a[k].slice(6));
    }
  }
  if (/^(?:vim?|nvim|ex|view|gvim)$/.test(name)) {
    for (let k = 1; k < a.length; k++) {
      const cmd = a[k] === '-c' || a[k] === '--cmd' ? a[k + 1] : a[k].startsWith('+') ? a[k].slice(1) : undefined;
      const bang = cmd !== undefined ? /^\s*:?\s*(?:\d*,?\d*)?!(.*)$/.exec(cmd) : null;
      if (bang) out.push(bang[1]);
    }
  }
  return out;
}

/** A word whose text comes from running a command: `<(…)`, `$(…)`, backticks. */
function substituted(raw: string | undefined): boolean {
  return raw !== undefined && (/^[<>]\(/.test(raw) || /\$\(|`/.test(raw));
}

/** A `sh -c` string with $0, $1, …, "$@" and $* replaced by the words that follow it. */
function withPositionals(script: string, args: string[]): string {
  if (args.length === 0 || !/\$(?:\{?[0-9@*])/.test(script)) return script;
  const all = args.slice(1).join(' ');
  return script.replace(/\$\{?([0-9])\}?|\$([@*])|\$\{([@*])\}/g, (m, n?: string) => (n !== undefined ? (args[Number(n)] ?? '') : all));
}

/** Files curl / wget save a download to (`-o f`, `-O f`, `-qO f`, `--output-document=f`). */
function downloadOutputs(c: ResolvedCommand): string[] {
  if (c.name !== 'curl' && c.name !== 'wget') return [];
  const out: string[] = [];
  const a = c.argv;
  for (let k = 1; k < a.length; k++) {
    const x = a[k];
    const flag = c.name === 'curl' ? /^-[a-zA-Z]*o$/ : /^-[a-zA-Z]*O$/;
    if ((flag.test(x) || x === '--output' || x === '--output-document') && a[k + 1] !== undefined) out.push(a[++k]);
    else if (/^--output(?:-document)?=/.test(x)) out.push(x.slice(x.indexOf('=') + 1));
    else if (c.name === 'wget' && /^-O./.test(x)) out.push(x.slice(2));
  }
  return out.filter((f) => f !== '-');
}

/** Why a shell fed on stdin by something we cannot read is escalated. */
function unknownFeed(p: PipeIn): string {
  const names = p.producers.map((c) => c.name);
  if (names.some((n) => DOWNLOADERS.has(n))) return 'download-to-shell';
  if (p.producers.some((c) => DECODERS.has(c.name) && c.argv.some((x) => /^-(?:[a-zA-Z]*d|-decode|r|-reverse)$|^-?-?d(?:ecode)?$|^enc$/.test(x)))) return 'decoded-payload-to-shell';
  if (names.some((n) => DECODERS.has(n))) return 'decoded-payload-to-shell';
  if (names.some((n) => NETWORK_TOOLS.has(n))) return 'reverse-shell';
  // `cat install.sh | bash` runs a local file, as `bash install.sh` does.
  if (p.producers.length > 0 && p.producers.every((c) => c.name === 'cat' && c.argv.length > 1 && c.literal.every(Boolean) && !c.argv.slice(1).some((x) => x === '-' || x.startsWith('/dev/') || x.startsWith('/proc/')))) return 'none';
  return 'shell-stdin-unknown';
}

/** The text a pipeline element writes, when it is static (`echo …`, `printf …`, `cat <<EOF`). */
function staticOutput(g: ResolvedCommand[]): string | undefined {
  if (g.length !== 1) return undefined;
  const c = g[0];
  if (c.facts.size) return undefined;
  if (c.name === 'echo' && c.literal.every(Boolean)) {
    let args = c.argv.slice(1);
    let esc = false;
    while (args.length && /^-[neE]+$/.test(args[0])) {
      if (args[0].includes('e')) esc = true;
      args = args.slice(1);
    }
    const s = args.join(' ');
    return `${esc ? unescapeEcho(s) : s}\n`;
  }
  if (c.name === 'printf' && c.literal.every(Boolean) && c.argv.length > 1) {
    const args = c.argv.slice(1).filter((x, k) => !(k === 0 && x === '--'));
    return unescapeEcho(args[0].replace(/%[sbdq]/g, () => '')) + args.slice(1).join(' ');
  }
  if ((c.name === 'cat' || c.name === 'tee') && c.argv.length === 1 && c.stdinText !== undefined && !c.pipedFrom.length) return c.stdinText;
  return undefined;
}

/** SQL handed to a database client: -c/-e values, sqlite3's statements, stdin text. */
function collectSql(cmd: ResolvedCommand, w: Words, base: Base, ctx: Ctx): void {
  const a = w.argv;
  const texts: string[] = [];
  const flags = ['-c', '--command', '-e', '--execute', '--eval', '-q', '--query', '-Q', '-x'];
  for (let j = 1; j < a.length; j++) {
    const x = a[j];
    if (flags.includes(x) && a[j + 1] !== undefined) texts.push(a[++j]);
    else {
      const eq = flags.find((f) => f.startsWith('--') && x.startsWith(`${f}=`));
      if (eq) texts.push(x.slice(eq.length + 1));
    }
  }
  const pos = positionalArgs(a.slice(1), ['-h', '-p', '-U', '-d', '-u', '-H', '-P', '-n', '-a', '-S', '--host', '--port', '--user', '--username', '--dbname', '--password', '-D', '--database', '-f', '--file', '-c', '--command', '-e', '--execute', '--eval', '-q', '--query', '-Q', '-x', '-o', '--output', '-v', '--set', '-cmd']);
  if (cmd.name === 'sqlite3' || cmd.name === 'duckdb') texts.push(...pos.slice(1));
  else if (cmd.name === 'redis-cli' || cmd.name === 'valkey-cli' || cmd.name === 'keydb-cli') texts.push(pos.join(' '));
  else if (cmd.name === 'clickhouse-client' || cmd.name === 'clickhouse' || cmd.name === 'cockroach') texts.push(...pos);
  const stdin = base.stdinText ?? ctx.pipeIn?.text;
  if (stdin !== undefined) texts.push(stdin);
  cmd.sql = texts.map(sqlSkeleton);
}

/** Index of the wrapped command in argv (after the wrapper's options), or 'query'. */
function skipOptions(argv: readonly string[], spec: PrefixSpec, opts: { gluedOnly?: string } = {}): number | 'query' {
  let j = 1;
  let positional = spec.positional ?? 0;
  while (j < argv.length) {
    const a = argv[j];
    if (a === '--') {
      j++;
      break;
    }
    // NAME=value before the command (sudo takes them; elsewhere it errs towards seeing the command).
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) {
      j++;
      continue;
    }
    if (a.startsWith('--') && a.length > 2) {
      if (spec.query?.includes(a.split('=')[0])) return 'query';
      j += !a.includes('=') && (spec.longValue ?? []).includes(a) ? 2 : 1;
      continue;
    }
    if (a.startsWith('-') && a.length > 1 && positional === (spec.positional ?? 0)) {
      if (spec.query?.includes(a)) return 'query';
      let consumesNext = false;
      for (let k = 1; k < a.length; k++) {
        const c = a[k];
        if (spec.query?.includes(`-${c}`)) return 'query';
        if ((spec.shortValue ?? '').includes(c) && !(opts.gluedOnly ?? '').includes(c)) {
          consumesNext = k === a.length - 1;
          break;
        }
      }
      j += consumesNext ? 2 : 1;
      continue;
    }
    if (positional > 0) {
      positional--;
      j++;
      continue;
    }
    break;
  }
  return j;
}

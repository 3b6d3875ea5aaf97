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
import { INTERPRETERS } from './interpreters.js';
import { parserWaitMs } from './interpreters/tree-sitter-host.js';
import { splitFields, Values, type Piece } from './values.js';
import { unknownTarget } from './destructive.js';
import { expandBracesChecked, normalizePath } from './paths.js';
import { childKeys, wordInfo, type Node } from './ast.js';
import { concat, envHome, literalWords, positionalArgs, slice, withEnv, type Base, type Ctx, type LineFact, type Redirect, type Resolution, type ResolvedCommand, type Words } from './resolved.js';
import { argsText, chdirOption, commandName, startsShell, laterStrings, PREFIX, SHELLS, skipOptions, storedCommand } from './wrappers.js';
import { atCommand, entrShell, evalCommand, envCommand, flockCommand, kubectlExec, packageExec, sgCommand, sourceCommand, suCommand, sshCommand, containerExec, fdCommand, findCommand, xargsCommand, parallelCommand, watchCommand, multiplexerCommand, tarCommand, pagerCommand, makeCommand, scriptCommand } from './runners.js';
import { interpreterCommand } from './interpreter-command.js';
import { mishCommand } from './mish-command.js';
import { shellCommand } from './shell-command.js';
import { Links } from './links.js';
import { gitConfigEnv, gitWorkTree } from './git-env.js';
import { asWord, EVALUATING, evaluatedCode, hashAssignments, hashBindings } from './late-code.js';
import { knowableOutput } from './subst.js';
import { collectSql, DATA_READERS, SHELL_ESCAPE_LINE, SPECULATIVE_FACTS, DOWNLOADERS, downloadOutputs, NETWORK_TOOLS, SQL_CLIENTS, staticOutput, unseenWrites } from './feeds.js';

export type { LineFact, Redirect, Resolution, ResolvedCommand } from './resolved.js';
export { positionalArgs } from './resolved.js';
export { commandName } from './wrappers.js';
export { NETWORK_TOOLS, sqlSkeleton } from './feeds.js';

/** Wrapper / re-entry levels followed before giving up (each level is a new argv or a new parse). */
export const MAX_DEPTH = 8;
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
/** Programs that only filter the lines they read (their output is some of their input). */
const PIPE_FILTERS = new Set(['grep', 'egrep', 'fgrep', 'rg', 'sort', 'uniq', 'head', 'tail', 'cut', 'tr', 'sed', 'awk', 'tac', 'shuf']);
/** Wrappers that are builtins of the shell itself, and programs that run what they are given in another process. */
const SAME_SHELL = /^(?:time|command|builtin|exec)$/;
const CHILD_RUNNERS = /^(?:env|su|runuser|ssh|sg|flock|docker|podman|nerdctl|kubectl|oc|at|batch|fd|fdfind|find|xargs|parallel|watch|tar|gtar|bsdtar|less|more|make|gmake|script|tmux|screen|npm|pnpm|yarn|bun|entr|bwrap|start-stop-daemon)$/;
/** Assignments that would give a nested mish another policy. */
const MISH_POLICY_ASSIGNMENT = /^(?:MISH_POLICY|MISH_POLICY_DEFAULT)=/;

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\0-\x08\x0b-\x1f\x7f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
// ---------------------------------------------------------------- resolver

export function resolveLine(source: string, cwd?: string, env: { CDPATH?: string } = {}): Resolution {
  const r = new Resolver(cwd);
  // A CDPATH in the environment the line runs in moves a relative `cd` as one set on the line does.
  if (env.CDPATH) r.values.set('CDPATH', { cands: [env.CDPATH], unknown: false });
  if (CONTROL_CHARS.test(source)) r.lineFacts.push({ fact: 'control-chars', text: JSON.stringify(source).slice(1, -1) });
  r.parseAndWalk(source, { depth: 0, via: [], source });
  // A connection opened on /dev/tcp earlier in the line (`exec 5<>/dev/tcp/h/p`) and a shell
  // that reads its commands from stdin (`cat <&5 | bash >&5`): file descriptors are not
  // followed, so the pair is taken for what it almost always is, a reverse shell.
  if (r.all.some((c) => c.facts.has('dev-tcp'))) for (const c of r.all) if (c.readsProgramFromStdin && c.stdinText === undefined) c.facts.add('reverse-shell');
  return { commands: r.all, lineFacts: r.lineFacts };
}

class Resolver {
  readonly all: ResolvedCommand[] = [];
  readonly lineFacts: LineFact[] = [];
  /** Steps taken so far (see MAX_ANALYSIS_STEPS). */
  private steps = 0;
  private readonly deadline = Date.now() + ANALYSIS_DEADLINE_MS;
  private readonly parserWaitBefore = parserWaitMs(); // the deadline leaves out parser-thread waits (see parserWaitMs)
  private spent = false;
  /** The directory after the `cd`s seen so far (see ResolvedCommand.cwd). */
  private curCwd: string | null | undefined;
  /** bash's OLDPWD (`cd -`, `~-`; null unknown, undefined the line's start) and pushd's stack, encoded as curCwd. */
  private prevCwd: string | null | undefined = null;
  private readonly dirStack: Array<string | null | undefined> = [];
  /** Variables assigned in the prefix of the command being expanded (`CDPATH=… cd x`, `HOME=… cd`). */
  private prefixNames = new Set<string>();
  private prefixEnv: Node[] = [];
  /** Links this line makes (`ln -s ~ h`): later paths through them are judged as their targets too. */
  private readonly links = new Links();
  /** Files this line writes with known text (`echo … > x.sh`, `cat > x.sh <<EOF`), by normalised path. */
  private readonly written = new Map<string, string>();
  /** Variables, arrays and positionals assigned so far on the line (values.ts). */
  readonly values = new Values({ cwd: () => this.curCwd, step: (n?: number) => this.step(n) });
  /** Functions defined so far on the line: their body, run with the caller's arguments when called. */
  private readonly functions = new Map<string, { body: Node; source: string; id: number }>();
  /** Function calls already read, by name and arguments: a recursive call with the same ones adds nothing (`:(){ :|:& };:` stays linear). */
  private readonly calls = new Set<string>();
  /** Function definitions read so far (each gets its own id). */
  private definitions = 0;
  /**
   * Aliases defined so far on the line (`alias r='rm -rf'`), by name. Bash expands them only in
   * an interactive shell or after `shopt -s expand_aliases`, and only on a later line; the
   * policy assumes the worst case and expands them wherever the name is a command's first word.
   */
  private readonly aliases = new Map<string, string>();
  /** Aliases being expanded (bash never expands an alias inside its own expansion: `alias ls='ls -l'`). */
  private readonly expanding = new Set<string>();

  constructor(readonly cwd?: string) {}

  /** Counts `n` steps; false once the budget is spent (the line is then asked about, never allowed). */
  step(n = 1): boolean {
    if (this.spent) return false;
    this.steps += n;
    if (this.steps > MAX_ANALYSIS_STEPS || Date.now() - (parserWaitMs() - this.parserWaitBefore) > this.deadline) {
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
    if (EVALUATING.test(String(n.type))) this.codeValues(n, ctx);
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
        // A subshell: what it assigns or `cd`s to does not reach the rest of the line.
        // `tee >(sh)`: what runs in an output substitution reads what the command writes, not known here.
        this.scoped('restore', () => this.walk(n.script, { ...ctx, pipeIn: n.type === 'ProcessSubstitution' && n.operator === '>' ? { producers: [] } : undefined }));
        return [];
      case 'Subshell':
        return this.scoped('restore', () => this.walk(n.body, ctx));
      // Parts that may not run keep what the line held before them too (Values.branch).
      case 'AndOr': {
        // `a && b && c`: c runs after b did (its state is theirs); after the list, any prefix may have run.
        const out: ResolvedCommand[] = [];
        const open: Array<() => void> = [];
        for (const [k, c] of ((n.commands as Node[]) ?? []).entries()) {
          if (k > 0) open.push(this.enter('join'));
          out.push(...this.walk(c, ctx));
        }
        while (open.length) open.pop()!();
        return out;
      }
      case 'If':
      case 'Case':
      case 'While': {
        const first = n.type === 'Case' ? 'word' : 'clause';
        return [...this.walk(n[first], ctx), ...childKeys(n).filter((k) => !['type', 'pos', 'end', 'kind', first].includes(k)).flatMap((k) => this.scoped('join', () => this.walk(n[k], ctx)))];
      }
      case 'Select':
      case 'For': {
        // `for x in a b ~; do …`: x holds every listed word while the body is read (no list: "$@").
        const name = String((n.name as Node | undefined)?.value ?? '');
        const list = n.wordlist as Node[] | undefined;
        if (name) this.values.loop(name, list?.map((x) => this.wordValue(x)));
        // The body may run no time at all (`for i in ; do x=ls; done`): what it assigns is kept beside the old values.
        return [...this.walk(list, ctx), ...this.scoped('join', () => this.walk(n.body, ctx))];
      }
      case 'Statement': // `x=ls &` (background) and `coproc …` run in a subshell
      case 'Coproc':
        if (n.type === 'Coproc' || n.background) return this.scoped('restore', () => this.walk(n.type === 'Coproc' ? n.body : n.command, ctx));
        break;
      case 'Function': {
        const name = String((n.name as Node | undefined)?.value ?? (n.name as Node | undefined)?.text ?? '');
        this.functions.set(name, { body: n.body as Node, source: ctx.source, id: ++this.definitions });
        // Read once for a self-spawning body (fork bomb); what it runs is judged where it is called.
        const before = this.all.length;
        // A scratch read: the calls and definitions it makes are forgotten (the real call reads them again).
        const saved = this.values.positional;
        const savedCalls = new Set(this.calls);
        const savedFunctions = new Map(this.functions);
        this.scoped('restore', () => this.walk(n.body, { ...ctx, pipeIn: undefined }));
        this.values.positional = saved;
        this.calls.clear();
        for (const k of savedCalls) this.calls.add(k);
        this.functions.clear();
        for (const [k, v] of savedFunctions) this.functions.set(k, v);
        const inner = this.all.slice(before);
        this.all.length = before;
        const bodyText = ctx.source.slice(Number((n.body as Node).pos ?? 0), Number((n.body as Node).end ?? 0));
        const esc = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        const selfSpawn = inner.some((c) => c.name === name && (c.pipedTo.length > 0 || c.pipedFrom.length > 0)) || new RegExp(`(?:^|[\\s;{(|])${esc}\\s*&(?!&)`).test(bodyText);
        if (selfSpawn) this.lineFacts.push({ fact: 'fork-bomb', text: `${name}() { … }` });
        // bash calls it (in a subshell) for any command not found: its body is judged as run here, the worst case.
        if (name === 'command_not_found_handle') this.scoped('restore', () => this.walk(n.body, { ...ctx, via: [...ctx.via, `${name}()`], pipeIn: undefined }));
        return [];
      }
    }
    switch (n.type) {
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
    for (const [k, el] of elements.entries()) {
      // Each member is a subshell (the last one too, unless `shopt -s lastpipe`: both readings kept).
      const g = elements.length < 2 ? this.walk(el, { ...ctx, pipeIn }) : this.scoped(k === elements.length - 1 ? 'join' : 'restore', () => this.walk(el, { ...ctx, pipeIn }));
      groups.push(g);
      // A filter (`ls | grep -v keep | xargs rm`) passes on what the earlier producers listed.
      pipeIn = { producers: g.length > 0 && g.every((c) => PIPE_FILTERS.has(c.name)) && pipeIn ? [...g, ...pipeIn.producers] : g, text: staticOutput(g) };
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
    // openssl talks to the network only as s_client / s_server (`openssl enc -d -base64` decodes).
    const networked = (c: ResolvedCommand) => NETWORK_TOOLS.has(c.name) && (c.name !== 'openssl' || /^s_(?:client|server)$/.test(c.argv[1] ?? ''));
    for (let i = 0; i < groups.length; i++) {
      for (const c of groups[i]) {
        if (!c.readsProgramFromStdin) continue;
        if (groups.slice(i + 1).flat().some(networked) || groups.slice(0, i).flat().some((x) => networked(x) && !DOWNLOADERS.has(x.name))) c.facts.add('reverse-shell');
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
      const info = t ? this.single(t) : { value: '', literal: true, glob: false, raw: '' };
      redirects.push({ op, fd, target: info.value, literal: info.literal });
      if (op === '<<<' && (fd === undefined || fd === 0)) stdinText = `${info.value}\n`;
      // `sh <&3`: stdin is a descriptor opened elsewhere (`exec 3< <(curl …)`), not known here.
      if ((op === '<' || op === '<>' || (op === '<&' && info.value !== '0')) && (fd === undefined || fd === 0)) stdinOpaque = info.literal && op !== '<&' ? 'file' : 'substitution';
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
      const stored = storedCommand(t, (p.value as Node | undefined)?.value === undefined ? undefined : String((p.value as Node).value));
      if (stored !== undefined) later.push(...this.parseAndWalk(stored, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, t.slice(0, t.indexOf('='))], outerText: text, pipeIn: undefined }));
    }
    if (!n.name) for (const p of prefix) if (p.type === 'Assignment') this.assign(p);
    const cmdName = n.name ? commandName(String((n.name as Node).value ?? '')) : '';
    for (const [k, v] of [...prefix, ...suffix].flatMap((p) => (p.type === 'Assignment' && (!n.name || /^(?:declare|typeset)$/.test(cmdName)) ? hashAssignments(String(p.text ?? '')) : []))) this.aliases.set(k, v);
    if (/^(?:export|declare|typeset|local|readonly)$/.test(cmdName)) {
      // `declare -n r=HOME`: r is a reference to HOME, not the string "HOME".
      const nameref = cmdName !== 'export' && suffix.some((x) => x.type === 'Word' && /^-[a-zA-Z]*n/.test(String(x.value ?? '')));
      // `local x=ls` ends with its function (and fails outside one); `declare` in a function is local too: both values kept.
      const leave = cmdName === 'export' || nameref ? undefined : this.enter('declare');
      for (const x of suffix) {
        if (nameref && x.type === 'Assignment') {
          const v = x.value ? this.values.word(x.value as Node, this.substPiece) : undefined;
          this.values.reference(String(x.name ?? ''), v ? { cands: v.values, unknown: v.unknown } : { cands: [''], unknown: false });
        }
        else if (nameref && x.type === 'Word' && /^[A-Za-z_]\w*$/.test(String(x.value ?? ''))) this.values.reference(String(x.value), undefined);
        else if (x.type === 'Assignment') this.assign(x);
        else if (x.type === 'Word' && /^[A-Za-z_]\w*$/.test(String(x.value ?? ''))) this.values.set(String(x.value), { cands: [''], unknown: false });
      }
      leave?.();
    }
    if (!n.name) {
      // `> /etc/passwd` alone truncates the file: judged as the no-op command `:` with that redirection.
      if (redirects.some((r) => r.op.startsWith('>') || r.op === '<>')) return [...this.expand(literalWords([':']), { text, redirects, stdinText, stdinOpaque }, ctx), ...later];
      return later;
    }
    const words: Node[] = [n.name as Node, ...suffix.filter((s) => s.type === 'Word' || s.type === 'Assignment')];
    const w: Words = { argv: [], literal: [], glob: [], raw: [] };
    /** Where each candidate of the command word starts in argv (`for x in ls rm; do $x …`: two commands). */
    let nameStarts: number[] = [0];
    let nameEnd = 0;
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
      const v = this.wordValue(x);
      if (v.spent) return [];
      if (x === words[0]) nameStarts = v.starts;
      for (let k = 0; k < v.argv.length; k++) {
        w.argv.push(v.argv[k]);
        w.literal.push(v.literal[k]);
        w.glob.push(v.glob);
        w.raw.push(v.raw);
      }
      if (x === words[0]) nameEnd = w.argv.length;
    }
    this.values.builtin(w.argv, w.literal, stdinText ?? ctx.pipeIn?.text, prefix.some((p) => p.type === 'Assignment' && String(p.text ?? '').startsWith('IFS=')));
    this.prefixEnv = prefix.filter((p) => p.type === 'Assignment');
    this.prefixNames = new Set(this.prefixEnv.map((p) => String(p.name ?? '')));
    const direct =
      nameStarts.length > 1
        ? // Each value the command word may have is a command of its own, with the same arguments; and all of them
          // in a row, in case they are an array's elements (`a[0]=rm; a[1]=-rf; "${a[@]}" ~`).
          [...nameStarts.map((from, k) => concat(slice(w, from, nameStarts[k + 1] ?? nameEnd), slice(w, nameEnd))), w].flatMap((alt) => this.expand(alt, { text, redirects, stdinText, stdinOpaque }, ctx))
        : this.expand(w, { text, redirects, stdinText, stdinOpaque }, ctx);
    later.push(...gitConfigEnv(this, direct, (k) => this.envValue(k), text, ctx));
    [this.prefixNames, this.prefixEnv] = [new Set(), []];
    // `GIT_WORK_TREE=~ git checkout -f …`, or exported earlier on the line: git reads it as --work-tree.
    const tree = prefix.find((p) => p.type === 'Assignment' && p.name === 'GIT_WORK_TREE');
    gitWorkTree(direct, tree ? (tree.value ? this.single(tree.value as Node) : { value: '', literal: true }) : this.values.assigned('GIT_WORK_TREE'));
    if (preload) for (const c of direct) c.facts.add('ld-preload');
    // A script written here and run later in the line is read when it runs.
    for (const c of direct) for (const f of [...downloadOutputs(c), ...unseenWrites(c)]) this.written.set(normalizePath(f, this.curCwd ?? this.cwd), `\u0000${c.name}`);
    const out = staticOutput(direct.slice(0, 1));
    for (const r of redirects) {
      if ((r.op === '>' || r.op === '>>' || r.op === '>|') && (r.fd === undefined || r.fd === 1) && r.literal) {
        const key = normalizePath(r.target, this.curCwd ?? this.cwd);
        this.written.set(key, out !== undefined ? (r.op === '>>' ? (this.written.get(key) ?? '') + out : out) : `\u0000${direct[0]?.name ?? ''}`);
      }
    }
    return [...direct, ...later];
  }

  /** A word's values as argv words: known candidates (braces expanded, unquoted expansions split), or its text when unknown. */
  private wordValue(x: Node): { argv: string[]; literal: boolean[]; starts: number[]; glob: boolean; raw: string; unknown: boolean; spent: boolean } {
    const i = wordInfo(x);
    const parts = (x.parts as Node[] | undefined) ?? [];
    const ev = this.values.word(x, this.substPiece, true);
    if (ev.truncated) this.lineFacts.push({ fact: 'expansion-too-large', text: `${i.raw}: the word has too many possible values to check` });
    const vals: Array<[string, boolean]> = ev.values.map((v) => [v, true]);
    // Unknown: the word as written stands for every value it could take (rules see `$d`, `$(cmd)`).
    if (ev.unknown) vals.push([i.value, false]);
    // Unquoted expansions are split into words by the shell (values.ts marks where); one alone that is empty is no word at all.
    const split = parts.length === 1 && /^(?:SimpleExpansion|ParameterExpansion|CommandExpansion)$/.test(String(parts[0].type));
    const argv: string[] = [];
    const literal: boolean[] = [];
    const starts: number[] = [];
    for (const [v, lit] of vals) {
      starts.push(argv.length);
      let words = [v];
      if (parts.some((p) => p.type === 'BraceExpansion') && lit) {
        const b = expandBracesChecked(v);
        words = b.words;
        // Words past the cap are not checked: the line is asked about, never allowed on the words seen.
        if (b.truncated) this.lineFacts.push({ fact: 'expansion-too-large', text: `${i.raw}: the brace expansion is too large to check` });
        if (!this.step(words.length >> 4)) return { argv, literal, starts, glob: ev.glob, raw: i.raw, unknown: ev.unknown, spent: true };
      }
      if (lit) words = words.flatMap((t) => (split || /[\u0001-\u0003]/.test(t) ? splitFields(t) : [t]));
      for (const t of words) {
        argv.push(t);
        literal.push(lit && i.literal ? true : lit);
      }
    }
    if (argv.length === 0 && !split) {
      argv.push('');
      literal.push(true);
    }
    // Candidates that make no word (an empty unquoted expansion) start nowhere.
    return { argv, literal, starts: starts.filter((x, k) => x < argv.length && starts.indexOf(x) === k), glob: ev.glob || i.glob, raw: i.raw, unknown: ev.unknown, spent: false };
  }

  /** A redirection target or herestring: its one known value, else as written (not literal). */
  private single(t: Node): { value: string; literal: boolean; glob: boolean; raw: string } {
    const i = wordInfo(t);
    const ev = this.values.word(t, this.substPiece);
    if (!ev.unknown && ev.values.length === 1) return { value: ev.values[0], literal: true, glob: ev.glob, raw: i.raw };
    return { ...i, literal: false };
  }

  /** A command substitution's output when it is knowable (subst.ts); its commands are walked elsewhere. */
  private readonly substPiece = (p: Node): Piece => knowableOutput(p, this.values, this.curCwd, this.substPiece);

  /** `NAME=value`, `NAME=(a b c)`, `NAME+=…`, `NAME[i]=…` (values.ts). */
  private assign(p: Node): void {
    this.values.assign(p, (el) => this.wordValue(el), (n) => this.values.word(n, this.substPiece));
  }

  /** Runs `fn` as a subshell ('restore': its values and `cd`s are forgotten) or a branch that may not run ('join': both kept, a cwd it moved is unknown). */
  private scoped<T>(how: 'restore' | 'join', fn: () => T): T {
    const leave = this.enter(how);
    try {
      return fn();
    } finally {
      leave();
    }
  }

  /** Opens such a scope; the function returned closes it. */
  private enter(how: 'restore' | 'join' | 'declare'): () => void {
    const v = this.values.branch();
    const [cwd, prev, stack, aliases, functions] = [this.curCwd, this.prevCwd, [...this.dirStack], new Map(this.aliases), new Map(this.functions)];
    return () => {
      if (how === 'restore') {
        [this.curCwd, this.prevCwd] = [cwd, prev];
        this.dirStack.splice(0, Infinity, ...stack);
        // `( alias x=ls )`, `( f() { ls; } )`: definitions made in a subshell end with it.
        for (const [m, from] of [[this.aliases, aliases], [this.functions, functions]] as Array<[Map<string, unknown>, Map<string, unknown>]>) {
          m.clear();
          from.forEach((x, k) => m.set(k, x));
        }
        v.restore();
      } else {
        v.join(how === 'declare');
        if (this.curCwd !== cwd) this.curCwd = null;
        if (this.prevCwd !== prev) this.prevCwd = null;
      }
    };
  }

  /** Runs `fn` with the working directory moved (`env -C DIR`, `sudo -D DIR`); null: somewhere unknown. */
  inDir<T>(dir: { path: string; literal: boolean } | undefined, fn: () => T): T {
    if (!dir) return fn();
    const saved = this.curCwd;
    const from = this.curCwd === undefined ? this.cwd : this.curCwd;
    this.curCwd = !dir.literal ? null : dir.path.startsWith('/') || dir.path.startsWith('~') || from ? normalizePath(dir.path, from ?? undefined) : null;
    try {
      return fn();
    } finally {
      this.curCwd = saved;
    }
  }

  make(w: Words, base: Base, ctx: Ctx, facts: string[] = []): ResolvedCommand {
    // `~-` is bash's OLDPWD: spelled out when the line's cds make it known (`cd ~; cd /tmp; rm -rf ~-/*`).
    const old = this.prevCwd === undefined ? this.cwd : this.prevCwd;
    if (old && w.argv.some((a, k) => w.literal[k] && /^~-(?:\/|$)/.test(a))) w = { ...w, argv: w.argv.map((a, k) => (w.literal[k] && /^~-(?:\/|$)/.test(a) ? `${old.replace(/\/+$/, '')}${a.slice(2)}` : a)) };
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
    if (unknownTarget(c)) c.facts.add('unknown-target');
    if (c.name === 'cd' || c.name === 'pushd' || c.name === 'popd') {
      const dir = c.name === 'popd' ? undefined : positionalArgs(w.argv.slice(1))[0];
      const k = dir === undefined ? -1 : w.argv.indexOf(dir);
      const before = this.curCwd;
      // A HOME assigned on the line moves a bare `cd` (and `~`) there.
      // A HOME the child's environment was given as a plain absolute path (`sudo HOME=/root sh -c 'cd …'`) is where a bare `cd` goes.
      const home = envHome(ctx) ?? (this.prefixNames.has('HOME') ? { cands: [], unknown: true } : this.values.lookup('HOME'));
      const homeDir = !home.unknown && home.cands.length === 1 && (home.cands[0].startsWith('~') || home.cands[0].startsWith('/')) ? home.cands[0] : null;
      if (c.name === 'popd') this.curCwd = this.dirStack.length ? this.dirStack.pop() : null;
      else if (dir === undefined) this.curCwd = homeDir;
      else if (dir === '-') this.curCwd = this.prevCwd;
      else if (!w.literal[k]) this.curCwd = null;
      // CDPATH set on the line: a relative `cd DIR` may go to any of its entries' DIR.
      else if (!/^(?:\.\.?(?:\/|$)|\/|~)/.test(dir) && (this.prefixNames.has('CDPATH') || ctx.env?.has('CDPATH') || this.values.lookup('CDPATH').cands.some((x) => x !== ''))) this.curCwd = null;
      else if (dir.startsWith('~') && homeDir !== '~') this.curCwd = homeDir === null ? null : normalizePath(dir.replace(/^~/, homeDir));
      else {
        const from = this.curCwd === undefined ? this.cwd : this.curCwd;
        this.curCwd = dir.startsWith('/') || dir.startsWith('~') || from ? normalizePath(dir, from ?? undefined) : null;
      }
      if (c.name === 'pushd') this.dirStack.push(before);
      if (c.name !== 'popd' || before !== this.curCwd) this.prevCwd = before;
    }
    // A write through a link made earlier on the line is also judged as a write to its target (links.ts).
    const twin = this.links.through(c, this.cwd);
    this.links.record(c, this.cwd);
    this.all.push(c, ...(twin ? [twin] : []));
    return c;
  }

  /** Resolve one argv: unwrap wrappers and re-entries; returns the commands it runs directly. */
  expand(w: Words, base: Base, ctx: Ctx): ResolvedCommand[] {
    if (w.argv.length === 0) return [];
    if (!this.step(1 + (w.argv.length >> 4))) return [this.make(w, base, ctx)];
    if (ctx.depth > MAX_DEPTH) {
      this.lineFacts.push({ fact: 'unwrap-depth', text: base.text });
      return [this.make(w, base, ctx)];
    }
    // NAME=value in command position (after a wrapper): seen as an assignment, the command follows.
    let skip = 0;
    while (skip < w.argv.length - 1 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w.argv[skip]) && w.literal[skip]) skip++;
    if (skip > 0) return this.withAssignments(w.argv.slice(0, skip), this.expand(slice(w, skip), base, withEnv(ctx, w.argv.slice(0, skip))), base, ctx);
    if (!w.literal[0] || w.glob[0] || w.argv[0] === '') return [this.make(w, base, ctx, ['dynamic-command'])];
    const alias = w.argv[0].includes('/') || this.expanding.has(w.argv[0]) ? undefined : this.aliases.get(w.argv[0]);
    if (alias !== undefined) {
      // The alias's text replaces the word, then the line is read again with the rest of the words.
      this.expanding.add(w.argv[0]);
      try {
        return this.parseAndWalk(`${alias} ${argsText(w)}`, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, `alias ${w.argv[0]}`], outerText: base.text });
      } finally {
        this.expanding.delete(w.argv[0]);
      }
    }
    // `cp /bin/bash b; ./b -c …`: a program copied or linked on the line is that program; `ln -s /bin/rm b/ls; PATH=b:$PATH ls` too (links.ts).
    const real = w.argv[0].includes('/') ? this.links.program(w.argv[0], this.curCwd === null ? undefined : (this.curCwd ?? this.cwd)) : this.prefixNames.has('PATH') || this.values.assigned('PATH') !== undefined || /\bPATH\+?=/.test(base.text) ? this.links.named(w.argv[0], this.written) : undefined;
    if (real !== undefined && real !== w.argv[0]) return real === '' ? [this.make(w, base, ctx, ['dynamic-command'])] : this.expand({ ...w, argv: [real, ...w.argv.slice(1)] }, base, { ...ctx, depth: ctx.depth + 1 });
    const name = commandName(w.argv[0]);
    // `bash -c 'x=ls; cd /tmp'`, `sudo …`, `ssh h …`: another process; its assignments and cds do not come back.
    if (!ctx.child && !this.functions.has(w.argv[0]) && (SHELLS.has(name) || (PREFIX[name] && !SAME_SHELL.test(name)) || CHILD_RUNNERS.test(name))) return this.scoped('restore', () => this.expand(w, base, { ...withEnv(ctx, [...this.prefixNames].map((n) => `${n}=`)), child: true }));
    const fn = w.argv[0].includes('/') ? undefined : this.functions.get(w.argv[0]);
    if (fn) {
      // A function defined earlier on the line: its body runs with these arguments as $1, $2, …
      const self = this.make(w, base, ctx);
      // Per definition: a function redefined inside its own body is a new one.
      const key = `${fn.id}\u0000${JSON.stringify(w.argv)}`;
      if (this.calls.has(key)) return [self];
      this.calls.add(key);
      if (ctx.depth + 1 > MAX_DEPTH) {
        this.lineFacts.push({ fact: 'unwrap-depth', text: base.text });
        return [self];
      }
      const saved = this.values.positional;
      this.values.positional = w.argv.slice(1);
      const inner = this.walk(fn.body, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, `${w.argv[0]}()`], source: fn.source, outerText: base.text, pipeIn: ctx.pipeIn });
      this.values.positional = saved;
      return [self, ...inner];
    }
    const deeper = (label: string): Ctx => ({ ...ctx, depth: ctx.depth + 1, via: [...ctx.via, label] });
    const args = w.argv.slice(1);

    if (w.argv[0].includes('/')) {
      const script = this.scriptWritten(w.argv[0], true);
      if (script !== undefined) {
        const self = this.make(w, base, ctx, script === null ? [this.unseenScript(w.argv[0])] : []);
        return script === null ? [self] : [self, ...this.parseAndWalk(script, { ...deeper('script'), outerText: base.text })];
      }
    }
    if (/^(?:entr|npx|bwrap|start-stop-daemon)$/.test(name)) {
      const e = entrShell(this, w, base, ctx, name);
      if (e) return e;
    }
    const spec = PREFIX[name];
    if (spec) {
      const j = skipOptions(w.argv, spec);
      if (j !== 'query' && j < w.argv.length) {
        const dir = chdirOption(name, w, j);
        return this.withAssignments(w.argv.slice(1, j), this.inDir(dir, () => this.expand(slice(w, j), base, withEnv(deeper(name), w.argv.slice(1, j).filter((x) => /^[A-Za-z_]\w*=/.test(x))))), base, ctx);
      }
      // `sudo -s`, `sudo -i`, `doas -s`, a bare `pkexec` / `run0`: a shell that reads its commands from stdin.
      if (j !== 'query' && startsShell(name, w.argv.slice(1, j))) return [this.make(w, base, ctx), ...this.stdinShell(base, ctx, name)];
      return [this.make(w, base, ctx)];
    }
    if (name === 'env') return envCommand(this, w, base, ctx);
    if (name === 'mish') return mishCommand(this, w, base, ctx);
    if (SHELLS.has(name)) return shellCommand(this, w, base, ctx, name);
    switch (name) {
      case 'eval':
        return evalCommand(this, w, base, ctx);
      case 'source':
      case '.':
        return sourceCommand(this, w, base, ctx, name);
      case 'sg':
        return sgCommand(this, w, base, ctx);
      case 'npm':
      case 'pnpm':
      case 'yarn':
      case 'bun': {
        const r = packageExec(this, w, base, ctx, name);
        if (r) return r;
        break;
      }
      case 'su':
      case 'runuser':
        return suCommand(this, w, base, ctx, name);
      case 'flock':
        return flockCommand(this, w, base, ctx);
      case 'ssh':
        return sshCommand(this, w, base, ctx);
      case 'docker':
      case 'podman':
      case 'nerdctl':
        return containerExec(this, w, base, ctx, name);
      case 'kubectl':
      case 'oc':
        return kubectlExec(this, w, base, ctx, name);
      case 'at':
      case 'batch':
        return atCommand(this, w, base, ctx, name);
      case 'fd':
      case 'fdfind':
        return fdCommand(this, w, base, ctx);
      case 'find':
        return findCommand(this, w, base, ctx);
      case 'xargs':
        return xargsCommand(this, w, base, ctx);
      case 'parallel':
        return parallelCommand(this, w, base, ctx);
      case 'watch':
        return watchCommand(this, w, base, ctx);
      case 'tar':
      case 'gtar':
      case 'bsdtar':
        return tarCommand(this, w, base, ctx, name);
      case 'less':
      case 'more':
        return pagerCommand(this, w, base, ctx, name);
      case 'make':
      case 'gmake':
        return makeCommand(this, w, base, ctx);
      case 'script':
        return scriptCommand(this, w, base, ctx);
      case 'tmux':
      case 'screen':
        return multiplexerCommand(this, w, base, ctx, name);
    }
    if (/^(?:export|declare|typeset|readonly|local)$/.test(name) && args.some((x) => MISH_POLICY_ASSIGNMENT.test(x))) this.lineFacts.push({ fact: 'mish-policy-override', text: base.text });
    if (name === 'hash') for (const [k, v] of hashBindings(w.argv, w.literal, w.raw)) this.aliases.set(k, v);
    if (name === 'alias') for (const m of args.map((x) => /^([^=/\s$`'"]+)=([\s\S]*)$/.exec(x))) if (m) this.aliases.set(m[1], m[2]);
    const later = laterStrings(name, w);
    if (later.length) {
      const self = this.make(w, base, ctx);
      if (SQL_CLIENTS.has(name)) collectSql(self, w, base, ctx);
      return [self, ...later.flatMap((src) => this.parseAndWalk(src, { ...deeper(`${name} string`), outerText: base.text, pipeIn: undefined }))];
    }
    const lang = INTERPRETERS[name];
    if (lang) return interpreterCommand(this, w, base, ctx, lang);
    const cmd = this.make(w, base, ctx);
    if (SQL_CLIENTS.has(name)) collectSql(cmd, w, base, ctx);
    const fed = base.stdinText ?? ctx.pipeIn?.text;
    if (fed !== undefined && fed.trim() !== '' && !DATA_READERS.has(name)) return [cmd, ...this.stdinAsCode(fed, base, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, `${name} stdin`], outerText: base.text, pipeIn: undefined })];
    return [cmd];
  }

  /** NAME=value words before a command (after env, sudo, …): LD_PRELOAD marks it; command variables are parsed. */
  withAssignments(words: string[], cmds: ResolvedCommand[], base: Base, ctx: Ctx): ResolvedCommand[] {
    const extra: ResolvedCommand[] = [];
    for (const x of words) {
      if (/^(?:LD_PRELOAD|LD_AUDIT)=/.test(x)) for (const c of cmds) c.facts.add('ld-preload');
      if (MISH_POLICY_ASSIGNMENT.test(x)) this.lineFacts.push({ fact: 'mish-policy-override', text: base.text });
      if (x.startsWith('GIT_WORK_TREE=')) gitWorkTree(cmds, { value: x.slice(14), literal: true });
      const stored = storedCommand(x);
      if (stored !== undefined) extra.push(...this.parseAndWalk(stored, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, x.slice(0, x.indexOf('='))], outerText: base.text, pipeIn: undefined }));
    }
    const env = new Map(words.map((x) => [x.slice(0, x.indexOf('=')), { value: x.slice(x.indexOf('=') + 1), literal: true }]));
    return [...cmds, ...extra, ...gitConfigEnv(this, cmds, (k) => env.get(k), base.text, ctx)];
  }

  /** A variable in the environment of the command being expanded: its prefix assignment, else one made earlier on the line. */
  envValue(name: string): { value: string; literal: boolean } | undefined {
    const p = this.prefixEnv.find((x) => x.name === name);
    return p ? (p.value ? this.single(p.value as Node) : { value: '', literal: true }) : this.values.assigned(name);
  }

  /** Stored values bash runs as code where they are evaluated (`x='a[$(cmd)]'; echo $((x))`, `${x@P}`: late-code.ts). */
  private codeValues(n: Node, ctx: Ctx): void {
    for (const v of evaluatedCode(n, ctx.source, this.values)) this.scoped('restore', () => this.parseAndWalk(asWord(v), { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, 'evaluated value'], pipeIn: undefined }));
  }


  /**
   * Text fed to a program this file does not know (`tclsh`-like REPLs, `gdb -batch`, `ed`,
   * `sqlite3`'s `.shell`, a renamed shell): read, worst case, as the shell lines it may run —
   * the text itself and each line after a REPL's shell escape (`!cmd`, `.shell cmd`). Only what
   * those lines would concretely run counts: what is merely unknown or unparsable in them (text
   * that is not shell at all: SQL, YAML, prose) adds no fact, and nothing they assign, define or
   * `cd` to outlives the read. Programs known to read stdin as data (feeds.ts DATA_READERS) are
   * not read this way: `grep rm <<< 'rm -rf /'` stays allowed.
   */
  private stdinAsCode(text: string, base: Base, ctx: Ctx): ResolvedCommand[] {
    const escaped = [...text.matchAll(SHELL_ESCAPE_LINE)].map((m) => m[1]);
    const src = escaped.length ? `${text}\n${escaped.join('\n')}` : text;
    const restore = this.values.snapshot();
    const saved = { cwd: this.curCwd, prev: this.prevCwd, functions: new Map(this.functions), aliases: new Map(this.aliases), written: new Map(this.written), facts: this.lineFacts.length, commands: this.all.length };
    try {
      const out = this.parseAndWalk(src, ctx);
      for (const c of this.all.slice(saved.commands)) for (const f of SPECULATIVE_FACTS) c.facts.delete(f);
      // Keep only the facts that fail closed on their own (budget spent, a fork bomb); parse errors of non-shell text are dropped.
      const kept = this.lineFacts.slice(saved.facts).filter((f) => f.fact === 'analysis-budget' || f.fact === 'fork-bomb' || f.fact === 'expansion-too-large');
      this.lineFacts.length = saved.facts;
      this.lineFacts.push(...kept);
      return out;
    } finally {
      restore();
      this.curCwd = saved.cwd;
      this.prevCwd = saved.prev;
      for (const [m, from] of [[this.functions, saved.functions], [this.aliases, saved.aliases], [this.written, saved.written]] as Array<[Map<string, unknown>, Map<string, unknown>]>) {
        m.clear();
        from.forEach((v, k) => m.set(k, v));
      }
    }
  }

  /** A shell started with no command (`sudo -s`, `su -`): it runs what its stdin holds (here-string, heredoc, pipe). */
  stdinShell(base: Base, ctx: Ctx, via: string): ResolvedCommand[] {
    return shellCommand(this, literalWords(['sh']), base, { ...ctx, depth: ctx.depth + 1, via: [...ctx.via, via] }, 'sh');
  }

  /** `sh < x.sh` where this line wrote x.sh: its text (undefined when not written here; unseen content adds its fact). */
  redirectedScript(base: Base, self: ResolvedCommand): string | undefined {
    const r = base.stdinOpaque === 'file' ? base.redirects.findLast((x) => (x.op === '<' || x.op === '<>') && (x.fd === undefined || x.fd === 0)) : undefined;
    const t = r ? this.scriptWritten(r.target, r.literal) : undefined;
    if (t === null) self.facts.add(this.unseenScript(r!.target));
    return t ?? undefined;
  }

  /** Text of a script this line wrote (null: written with content we cannot see), undefined: not written here. */
  scriptWritten(file: string, literal: boolean): string | null | undefined {
    if (!literal || this.written.size === 0) return undefined;
    const t = this.written.get(normalizePath(file, this.curCwd ?? this.cwd));
    if (t === undefined) return undefined;
    return t.startsWith('\u0000') ? null : t;
  }

  /** Why a script this line wrote with unseen content is escalated. */
  unseenScript(file: string): string {
    const t = this.written.get(normalizePath(file, this.curCwd ?? this.cwd)) ?? '';
    return DOWNLOADERS.has(t.slice(1)) ? 'download-to-shell' : 'shell-stdin-unknown';
  }

  /** A fan-out past MAX_FANOUT: the commands not resolved make the line an ask, never a pass. */
  tooMany(text: string, what: string): void {
    this.lineFacts.push({ fact: 'expansion-too-large', text: `${text}: ${what} is too many to check` });
  }
}


/**
 * What the resolver produces and passes around: a resolved simple command (argv after wrappers,
 * redirections, pipeline neighbours, facts), line facts, and the walk's internal records
 * (words with per-word literal/glob flags, pipe input, walk context).
 */
import { positionals } from '../router/argv.js';

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
  /** Run by find -exec / -delete whose matches are only entries with these names (`-name 'cache-*'`). */
  findNames?: string[];
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

export interface Words {
  argv: string[];
  literal: boolean[];
  glob: boolean[];
  /** Source text of each word as written (quotes kept). */
  raw: string[];
}

export interface PipeIn {
  /** Static text the upstream produces (`echo "rm -rf /" |`), when known. */
  text?: string;
  producers: ResolvedCommand[];
}

export interface Ctx {
  depth: number;
  via: string[];
  source: string;
  /** Text of the outermost simple command, for nested parses. */
  outerText?: string;
  pipeIn?: PipeIn;
  /** Inside a command that runs in a process of its own (`bash -c`, `sudo`, `ssh`): what it assigns or `cd`s to stays there. */
  child?: boolean;
  /**
   * Names the environment of this process sets on the way in (`CDPATH=~ bash -c …`, `env HOME=/x sh -c …`, `sudo CDPATH=… bash -c`):
   * a `cd` inside it reads them as that shell's own (a relative `cd` may go to any CDPATH entry; a bare `cd` to that HOME).
   */
  env?: ReadonlyMap<string, string>;
}

export interface Base {
  text: string;
  redirects: Redirect[];
  stdinText?: string;
  /** A `<` redirect whose content is not known (`< <(curl …)`). */
  stdinOpaque?: 'substitution' | 'file';
}

/** Positional arguments of argv[1..] (flags skipped, values of `valueFlags` skipped, all after `--`): the router's reading. */
export const positionalArgs = positionals;

/** The HOME `ctx`'s environment was given, as lookup's answer: known when a plain absolute path (`/root`), else unknown; undefined when not given. */
export function envHome(ctx: Ctx): { cands: string[]; unknown: boolean } | undefined {
  const given = ctx.env?.get('HOME');
  return given === undefined ? undefined : /^\/[\w./-]*$/.test(given) ? { cands: [given], unknown: false } : { cands: [], unknown: true };
}

/** `ctx` with `assignments` (`NAME=value` words, as written) added to the environment its commands start with. */
export function withEnv(ctx: Ctx, assignments: string[]): Ctx {
  const names = assignments.map((a) => a.slice(0, a.indexOf('='))).filter((n) => n !== '');
  return names.length === 0 ? ctx : { ...ctx, env: new Map([...(ctx.env ?? []), ...assignments.filter((a) => a.indexOf('=') > 0).map((a) => [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] as const)]) };
}

export function slice(w: Words, from: number, to = w.argv.length): Words {
  return { argv: w.argv.slice(from, to), literal: w.literal.slice(from, to), glob: w.glob.slice(from, to), raw: w.raw.slice(from, to) };
}

export function concat(a: Words, b: Words): Words {
  return { argv: [...a.argv, ...b.argv], literal: [...a.literal, ...b.literal], glob: [...a.glob, ...b.glob], raw: [...a.raw, ...b.raw] };
}

export function literalWords(argv: string[]): Words {
  return { argv, literal: argv.map(() => true), glob: argv.map(() => false), raw: argv };
}

/** The walker's operations the per-program readers (runners.ts, interpreter-command.ts) use. */
export interface Walker {
  /** Counts analysis steps; false once the budget is spent. */
  step(n?: number): boolean;
  /** Parses a string as bash and resolves it (a nested line: sh -c, eval, ssh's remote command). */
  parseAndWalk(src: string, ctx: Ctx): ResolvedCommand[];
  /** Records one resolved command. */
  make(w: Words, base: Base, ctx: Ctx, facts?: string[]): ResolvedCommand;
  /** Resolves an argv (wrappers and re-entries unwrapped). */
  expand(w: Words, base: Base, ctx: Ctx): ResolvedCommand[];
  /** NAME=value words before a wrapped command (LD_PRELOAD, command variables, $MISH_POLICY). */
  withAssignments(words: string[], cmds: ResolvedCommand[], base: Base, ctx: Ctx): ResolvedCommand[];
  /** A shell started with no command (`sudo -s`, `su -`): what its stdin holds is run. */
  stdinShell(base: Base, ctx: Ctx, via: string): ResolvedCommand[];
  /** Text of a script this line wrote (null: written with content not seen), undefined: not written here. */
  scriptWritten(file: string, literal: boolean): string | null | undefined;
  /** The fact for running a script this line wrote with content not seen. */
  unseenScript(file: string): string;
  /** A fan-out past its cap: the line is asked about. */
  tooMany(text: string, what: string): void;
  /** Runs `fn` with relative paths read against another directory (`env -C DIR`); literal false: unknown. */
  inDir<T>(dir: { path: string; literal: boolean } | undefined, fn: () => T): T;
}

/** Inputs of xargs -I / parallel / find -exec expanded into one command each; more are asked about (fact `expansion-too-large`), never dropped. */
export const MAX_FANOUT = 16;

/**
 * Command wrappers that run another command (`sudo make`, `env A=1 npm test`, `timeout 5 curl …`,
 * `xargs rm`, `setpriv --reuid=1000 cp …`): the router categorises and picks a grammar for the wrapped command, not the
 * wrapper. Package-runner wrappers (npx, npm exec, pnpm dlx, yarn, python -m) are seen through
 * by the grammar module's detectTool; these are the generic process wrappers.
 */

/** How a wrapper's own options are read, so the command it wraps is found (shared with the policy's resolver). */
export interface WrapperOptions {
  /** Short options that take a value (`-u root`, `-uroot`). */
  shortValue?: string;
  /** Long options that take a value when written without `=` (`--user root`). */
  longValue?: string[];
  /** Number of leading positional arguments that belong to the wrapper (timeout's DURATION). */
  positional?: number;
  /** Options after which the wrapper does not run a command (`command -v ls` is a lookup). */
  query?: string[];
  /** Its options may also follow its own positionals (`flock FILE -c CMD`). */
  optionsAfterPositional?: boolean;
}

interface WrapperSpec extends WrapperOptions {
  /** Skip NAME=value words before the command (env). */
  assignments?: boolean;
  /** Command run when none is given (xargs defaults to echo). */
  defaultCommand?: string;
}

/**
 * Process wrappers both the router (which grammar condenses the output) and the policy (what
 * really runs) see through, with their option tables: one copy, so a fix to how `sudo -u x` or
 * `timeout -k 5 10` is read reaches both.
 */
export const WRAPPER_OPTIONS: Record<string, WrapperOptions> = {
  sudo: { shortValue: 'ugpCDrtUTh', longValue: ['--user', '--group', '--prompt', '--chdir', '--close-from', '--role', '--type', '--other-user', '--command-timeout', '--host'], query: ['-l', '--list', '-v', '--validate', '-k', '-K', '-e', '--edit', '-V', '--version'] },
  doas: { shortValue: 'uC', query: ['-L'] },
  time: { shortValue: 'fo', longValue: ['--format', '--output'] },
  nice: { shortValue: 'n', longValue: ['--adjustment'] },
  ionice: { shortValue: 'cnp', longValue: ['--class', '--classdata', '--pid'], query: ['-p', '--pid'] },
  timeout: { shortValue: 'sk', longValue: ['--signal', '--kill-after'], positional: 1 },
  command: { query: ['-v', '-V'] },
  exec: { shortValue: 'a' },
  nohup: {},
  stdbuf: { shortValue: 'ioe', longValue: ['--input', '--output', '--error'] },
  builtin: {},
  // Run as another user or under a CPU set: the wrapped command is what runs.
  setpriv: { longValue: ['--reuid', '--regid', '--groups', '--inh-caps', '--ambient-caps', '--bounding-set', '--securebits', '--pdeathsig', '--selinux-label', '--apparmor-profile', '--landlock-access', '--landlock-rule', '--rlimit'], query: ['-d', '--dump', '--list-caps'] },
  taskset: { positional: 1, query: ['-p', '--pid'] },
};

/** The router's wrappers: the shared table plus the ones whose command the policy reads its own way. */
const WRAPPERS: Record<string, WrapperSpec> = {
  ...WRAPPER_OPTIONS,
  env: { shortValue: 'uCS', longValue: ['--unset', '--chdir', '--split-string'], assignments: true },
  xargs: { shortValue: 'adEeIiLlnPs', longValue: ['--arg-file', '--delimiter', '--eof', '--replace', '--max-lines', '--max-args', '--max-procs', '--max-chars', '--process-slot-var'], defaultCommand: 'echo' },
  runuser: { shortValue: 'ugGsw', longValue: ['--user', '--group', '--supp-group', '--shell', '--whitelist-environment'], query: ['-c', '--command', '-l', '--login'] },
  flock: { shortValue: 'wEc', longValue: ['--timeout', '--wait', '--conflict-exit-code', '--command'], positional: 1, query: ['-c', '--command'], optionsAfterPositional: true },
};

/** Wrappers whose optional value is glued to the flag only (`xargs -i{}`, `xargs -l5`): never a separate word. */
const GLUED_ONLY_VALUE: Record<string, string> = { xargs: 'il' };

/**
 * Index in argv of the command a wrapper at argv[from - 1] runs (after its options, its own
 * positionals and, with `assignments`, NAME=value words), or 'query' when an option makes the
 * wrapper itself the command (`sudo -l`, `command -v ls`). Options are read only before the
 * wrapper's first positional (`timeout 5 -x` runs `-x`) unless optionsAfterPositional.
 */
export function skipWrapperOptions(argv: readonly string[], from: number, spec: WrapperOptions, opts: { assignments?: boolean; gluedOnly?: string } = {}): number | 'query' {
  let j = from;
  let positional = spec.positional ?? 0;
  while (j < argv.length) {
    const a = argv[j];
    if (a === '--') {
      j++;
      break;
    }
    if (opts.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) {
      j++;
      continue;
    }
    if (a.startsWith('--') && a.length > 2) {
      if (spec.query?.includes(a.split('=')[0])) return 'query';
      j += !a.includes('=') && (spec.longValue ?? []).includes(a) ? 2 : 1;
      continue;
    }
    if (a.startsWith('-') && a.length > 1 && (positional === (spec.positional ?? 0) || spec.optionsAfterPositional)) {
      if (spec.query?.includes(a)) return 'query';
      // A short-option cluster: the first value-taking letter consumes the rest of the word, or the next word when it is last.
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

export interface Unwrapped {
  /** Wrapper names, outermost first (`['sudo', 'env']`). */
  wrappers: string[];
  /** Index into the original argv where the effective command starts (argv.length if none). */
  start: number;
  /** The effective argv (may be a default command such as xargs' echo). */
  argv: string[];
}

/** Strip process wrappers from the front of an argv. */
export function unwrap(argv: readonly string[]): Unwrapped {
  const wrappers: string[] = [];
  let i = 0;
  while (i < argv.length) {
    const name = basename(argv[i]);
    const spec = WRAPPERS[name];
    if (!spec) break;
    const j = skipWrapperOptions(argv, i + 1, spec, { assignments: spec.assignments, gluedOnly: GLUED_ONLY_VALUE[name] });
    if (j === 'query') break; // `command -v ls`, `sudo -l`: the wrapper itself is the command
    if (j >= argv.length) {
      // Nothing wrapped: `xargs` runs its default command; `env` alone is the command itself.
      const def = spec.defaultCommand;
      if (def) return { wrappers: [...wrappers, name], start: j, argv: [def] };
      break;
    }
    wrappers.push(name);
    i = j;
  }
  return { wrappers, start: i, argv: argv.slice(i) };
}

/**
 * The program a command word names: its last path component (`/usr/bin/git` → `git`), and
 * `=rm` → `rm`: zsh, which runs `mish "…"` lines for zsh users, expands `=rm` to rm's path
 * (bash finds no command `=rm`, so seeing rm there costs nothing).
 */
export function basename(word: string): string {
  const name = word.startsWith('=') ? word.slice(1) : word;
  const at = name.lastIndexOf('/');
  return at >= 0 ? name.slice(at + 1) : name;
}

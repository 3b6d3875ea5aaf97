/**
 * Command wrappers that run another command (`sudo make`, `env A=1 npm test`, `timeout 5 curl …`,
 * `xargs rm`, `setpriv --reuid=1000 cp …`): the router categorises and picks a grammar for the wrapped command, not the
 * wrapper. Package-runner wrappers (npx, npm exec, pnpm dlx, yarn, python -m) are seen through
 * by the grammar module's detectTool; these are the generic process wrappers.
 */

interface WrapperSpec {
  /** Short options that take a value (`-u root`, `-uroot`). */
  shortValue: string;
  /** Long options that take a value when written without `=` (`--user root`). */
  longValue: string[];
  /** Number of leading positional arguments that belong to the wrapper (timeout's DURATION). */
  positional?: number;
  /** Skip NAME=value words before the command (env). */
  assignments?: boolean;
  /** Options after which the wrapper does not run a command (`command -v ls` is a lookup). */
  query?: string[];
  /** Command run when none is given (xargs defaults to echo). */
  defaultCommand?: string;
}

const WRAPPERS: Record<string, WrapperSpec> = {
  sudo: { shortValue: 'ugpCDrtUTh', longValue: ['--user', '--group', '--prompt', '--chdir', '--close-from', '--role', '--type', '--other-user', '--command-timeout', '--host'], query: ['-l', '--list', '-v', '--validate', '-k', '-K', '-e', '--edit', '-V', '--version'] },
  doas: { shortValue: 'uC', longValue: [] },
  env: { shortValue: 'uCS', longValue: ['--unset', '--chdir', '--split-string'], assignments: true },
  time: { shortValue: 'fo', longValue: ['--format', '--output'] },
  nice: { shortValue: 'n', longValue: ['--adjustment'] },
  ionice: { shortValue: 'cnp', longValue: ['--class', '--classdata', '--pid'] },
  timeout: { shortValue: 'sk', longValue: ['--signal', '--kill-after'], positional: 1 },
  xargs: { shortValue: 'adEeIiLlnPs', longValue: ['--arg-file', '--delimiter', '--eof', '--replace', '--max-lines', '--max-args', '--max-procs', '--max-chars', '--process-slot-var'], defaultCommand: 'echo' },
  command: { shortValue: '', longValue: [], query: ['-v', '-V'] },
  exec: { shortValue: 'a', longValue: [] },
  nohup: { shortValue: '', longValue: [] },
  stdbuf: { shortValue: 'ioe', longValue: ['--input', '--output', '--error'] },
  builtin: { shortValue: '', longValue: [] },
  // Run as another user or under a lock/CPU set: the wrapped command is what runs.
  setpriv: { shortValue: '', longValue: ['--reuid', '--regid', '--groups', '--inh-caps', '--ambient-caps', '--bounding-set', '--securebits', '--pdeathsig', '--selinux-label', '--apparmor-profile', '--landlock-access', '--landlock-rule', '--rlimit'], query: ['-d', '--dump', '--list-caps'] },
  runuser: { shortValue: 'ugGsw', longValue: ['--user', '--group', '--supp-group', '--shell', '--whitelist-environment'], query: ['-c', '--command', '-l', '--login'] },
  flock: { shortValue: 'wEc', longValue: ['--timeout', '--wait', '--conflict-exit-code', '--command'], positional: 1, query: ['-c', '--command'] },
  taskset: { shortValue: '', longValue: [], positional: 1, query: ['-p', '--pid'] },
};

/** Wrappers whose optional value is glued to the flag only (`xargs -i{}`, `xargs -l5`): never a separate word. */
const GLUED_ONLY_VALUE: Record<string, string> = { xargs: 'il' };

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
    let j = i + 1;
    let positional = spec.positional ?? 0;
    let isQuery = false;
    while (j < argv.length) {
      const a = argv[j];
      if (a === '--') {
        j++;
        break;
      }
      if (spec.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(a)) {
        j++;
        continue;
      }
      if (a.startsWith('--') && a.length > 2) {
        if (spec.query?.includes(a)) isQuery = true;
        j += !a.includes('=') && spec.longValue.includes(a) ? 2 : 1;
        continue;
      }
      if (a.startsWith('-') && a.length > 1) {
        if (spec.query?.includes(a)) isQuery = true;
        // A short-option cluster: the first value-taking letter consumes the rest of the word,
        // or the next word when it is last.
        let consumesNext = false;
        for (let k = 1; k < a.length; k++) {
          const c = a[k];
          if (spec.shortValue.includes(c) && !(GLUED_ONLY_VALUE[name] ?? '').includes(c)) {
            consumesNext = k === a.length - 1;
            break;
          }
          if (spec.query?.includes(`-${c}`)) isQuery = true;
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
    if (isQuery) break; // `command -v ls`, `sudo -l`: the wrapper itself is the command
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

/**
 * Tool detection (seeds 000/001 "Tool Detection"): argv → grammar + action + dialect, before any
 * output arrives. Package-runner wrappers (npx, npm exec, pnpm dlx, yarn <bin>, bunx,
 * python -m, uv run, poetry run …) and command prefixes (env, time, nice …) are seen through.
 *
 * Speed matters (router overhead target ≤ 1 ms for parse + categorise): detection is a handful of
 * Map lookups on a prebuilt command index, never a scan over grammars or their regexes.
 */
import type { Detection, Grammar } from './types.js';

/** What the command index knows about one executable basename. */
export interface CommandEntry {
  grammar: Grammar;
  dialect?: string;
  /** Action alias (`i`, `install`, `ci`) → action name (`install`). */
  aliases: ReadonlyMap<string, string>;
  /** Flags of this tool that take a separate value, skipped when looking for the action. */
  valueFlags: ReadonlySet<string>;
}

/** Anything that can answer "which grammar handles this executable?" (a registry or a snapshot of it). */
export interface GrammarLookup {
  lookupCommand(basename: string): CommandEntry | undefined;
}

/**
 * Global flags that take a separate value, for tools whose action comes after them
 * (`git -C dir status`, `make -C dir test`). Grammars add more with `[detect] value_flags`.
 * Why built in: the rule is a fact about the tool, not about any one grammar file, and a user
 * grammar overriding `git` should not have to repeat it.
 */
const MAKE_VALUE_FLAGS = ['-C', '--directory', '-f', '--file', '--makefile', '-I', '--include-dir', '-o', '--old-file', '--assume-old', '-W', '--what-if', '--new-file', '--assume-new'];
const MVN_VALUE_FLAGS = ['-f', '--file', '-s', '--settings', '-pl', '--projects', '-P', '--activate-profiles'];
const GRADLE_VALUE_FLAGS = ['-p', '--project-dir', '-b', '--build-file', '-c', '--settings-file'];
export const KNOWN_VALUE_FLAGS: Readonly<Record<string, readonly string[]>> = {
  git: ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env'],
  cargo: ['-C', '-Z', '--config', '--color'],
  make: MAKE_VALUE_FLAGS,
  gmake: MAKE_VALUE_FLAGS,
  docker: ['-H', '--host', '-c', '--context', '--config', '-l', '--log-level', '--tlscacert', '--tlscert', '--tlskey'],
  podman: ['--connection', '-c', '--url', '--log-level', '--root', '--runroot'],
  kubectl: ['-n', '--namespace', '--context', '--cluster', '--user', '--kubeconfig', '-s', '--server', '--token'],
  helm: ['-n', '--namespace', '--kube-context', '--kubeconfig'],
  npm: ['--prefix', '-w', '--workspace', '--loglevel', '--registry', '--cache', '--userconfig'],
  pnpm: ['-C', '--dir', '--filter', '-F', '--reporter', '--loglevel'],
  yarn: ['--cwd'],
  go: ['-C'],
  poetry: ['-C', '--directory', '-P', '--project'],
  uv: ['--directory', '--project', '--config-file', '--cache-dir'],
  mvn: MVN_VALUE_FLAGS,
  mvnw: MVN_VALUE_FLAGS,
  gradle: GRADLE_VALUE_FLAGS,
  gradlew: GRADLE_VALUE_FLAGS,
};

/** Flags whose value is optional and only taken when the next word is a number (`make -j 4 test` vs `make -j test`). */
const OPTIONAL_NUMERIC_FLAGS: ReadonlySet<string> = new Set(['-j', '--jobs', '-l', '--load-average']);

const EMPTY: ReadonlySet<string> = new Set();

/**
 * Builds the executable → grammar index used by detectTool. `grammars` must be ordered from the
 * lowest layer to the highest (builtin → user → project): a later layer takes a command over
 * from an earlier one; within one layer the first grammar claiming a command keeps it.
 */
export function buildCommandIndex(grammars: readonly Grammar[]): Map<string, CommandEntry> {
  const rank = { builtin: 0, user: 1, project: 2 } as const;
  const index = new Map<string, CommandEntry>();
  for (const g of grammars) {
    const aliases = new Map<string, string>();
    for (const [name, a] of Object.entries(g.actions)) {
      for (const alias of a.aliases) if (!aliases.has(alias)) aliases.set(alias, name);
    }
    const claim = (cmd: string, dialect: string | undefined) => {
      const prev = index.get(cmd);
      if (prev && prev.grammar !== g && rank[prev.grammar.origin] >= rank[g.origin]) return;
      if (prev && prev.grammar === g && prev.dialect) return; // a dialect entry is more specific
      const flags = new Set([...(KNOWN_VALUE_FLAGS[cmd] ?? []), ...g.valueFlags]);
      const entry: CommandEntry = { grammar: g, aliases, valueFlags: flags.size ? flags : EMPTY };
      if (dialect) entry.dialect = dialect;
      index.set(cmd, entry);
    };
    for (const [dialect, cmds] of Object.entries(g.dialects)) for (const c of cmds) claim(c, dialect);
    for (const c of g.commands) claim(c, undefined);
  }
  return index;
}

/** `/usr/bin/gcc` → `gcc`; `C:\\bin\\npm.cmd` → `npm`. */
export function executableName(arg0: string): string {
  const slash = Math.max(arg0.lastIndexOf('/'), arg0.lastIndexOf('\\'));
  const base = slash >= 0 ? arg0.slice(slash + 1) : arg0;
  return base.replace(/\.(?:exe|cmd|bat)$/i, '');
}

/** Versioned executables: `gcc-12` → `gcc`, `python3.12` → `python3`, `clang++-17` → `clang++`. */
function unversioned(name: string): string | undefined {
  const m = /^(.+?)-\d+(?:\.\d+)*$/.exec(name) ?? /^(python\d?)\.\d+$/.exec(name);
  return m ? m[1] : undefined;
}

function lookup(name: string, grammars: GrammarLookup): CommandEntry | undefined {
  const e = grammars.lookupCommand(name);
  if (e) return e;
  const u = unversioned(name);
  return u ? grammars.lookupCommand(u) : undefined;
}

const isAssignment = (a: string) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(a);

/** The direct match: argv[0] names a grammar's command; the action is the first non-flag word. */
function detectDirect(argv: string[], grammars: GrammarLookup, via: string[]): Detection | undefined {
  if (argv.length === 0) return undefined;
  const entry = lookup(executableName(argv[0]), grammars);
  if (!entry) return undefined;
  const d: Detection = { grammar: entry.grammar, argv, via };
  if (entry.dialect) d.dialect = entry.dialect;
  if (entry.aliases.size) {
    const word = firstPositional(argv, 1, entry.valueFlags);
    const action = word === undefined ? undefined : entry.aliases.get(word);
    if (action) d.action = action;
  }
  return d;
}

/**
 * Index of the first positional argument at or after `from`, skipping flags (and the values of
 * flags in `valueFlags`), `+toolchain` selectors and `VAR=value` assignments; -1 if none.
 */
function positionalIndex(argv: readonly string[], from: number, valueFlags: ReadonlySet<string>): number {
  for (let i = from; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') return i + 1 < argv.length ? i + 1 : -1;
    if (a.length > 1 && a[0] === '-') {
      // -j/-l first: grammars list them as value flags, but `make -j test` has no value.
      if (OPTIONAL_NUMERIC_FLAGS.has(a)) {
        if (/^\d+$/.test(argv[i + 1] ?? '')) i++;
      } else if (valueFlags.has(a)) i++;
      continue;
    }
    if (a[0] === '+' || isAssignment(a)) continue;
    return i;
  }
  return -1;
}

function firstPositional(argv: readonly string[], from: number, valueFlags: ReadonlySet<string>): string | undefined {
  const i = positionalIndex(argv, from, valueFlags);
  return i < 0 ? undefined : argv[i];
}

// --- wrappers ---------------------------------------------------------------------------------

interface Unwrapped {
  inner: string[];
  /** How the wrapper is shown in Detection.via (`npx`, `npm exec`, `python -m`). */
  label: string;
}

const set = (...xs: string[]): ReadonlySet<string> => new Set(xs);

const KNOWN_VALUE_FLAGS_SET = {
  npm: new Set(KNOWN_VALUE_FLAGS.npm),
  pnpm: new Set(KNOWN_VALUE_FLAGS.pnpm),
  uv: new Set(KNOWN_VALUE_FLAGS.uv),
};

/** Flags of the package runners that take a separate value. */
const NPX_VALUE_FLAGS = set('-p', '--package', '-w', '--workspace', '--prefix', '--registry', '--cache', '--userconfig', '--loglevel');
const PNPM_DLX_VALUE_FLAGS = set('--package', '--reporter', '-C', '--dir', '--filter', '-F');
const YARN_VALUE_FLAGS = set('--cwd', '-p', '--package');
const UV_RUN_VALUE_FLAGS = set('--with', '--with-requirements', '--with-editable', '--python', '-p', '--directory', '--project', '--package', '--extra', '--group', '--only-group', '--env-file', '--index', '--default-index', '--from', '--config-file', '--cache-dir');
const POETRY_VALUE_FLAGS = set('-C', '--directory', '-P', '--project');
const BUNDLE_VALUE_FLAGS = set('--gemfile');
const PIPX_VALUE_FLAGS = set('--spec', '--python', '--pip-args', '--index-url');
const PYTHON_VALUE_FLAGS = set('-X', '-W', '--check-hash-based-pycs');
const ENV_VALUE_FLAGS = set('-u', '--unset', '-C', '--chdir', '-S', '--split-string');
const NICE_VALUE_FLAGS = set('-n', '--adjustment');
const TIMEOUT_VALUE_FLAGS = set('-s', '--signal', '-k', '--kill-after');
const STDBUF_VALUE_FLAGS = set('-i', '-o', '-e');

/**
 * yarn's own commands (classic and berry); any other first word is a script or a bin
 * (`yarn jest` runs node_modules/.bin/jest).
 */
const YARN_BUILTINS = set('access', 'add', 'audit', 'autoclean', 'bin', 'cache', 'check', 'config', 'constraints', 'create', 'dedupe', 'dlx', 'exec', 'explain', 'generate-lock-entry', 'global', 'help', 'import', 'info', 'init', 'install', 'licenses', 'link', 'list', 'login', 'logout', 'node', 'npm', 'outdated', 'owner', 'pack', 'patch', 'patch-commit', 'plugin', 'policies', 'publish', 'rebuild', 'remove', 'run', 'search', 'set', 'stage', 'tag', 'team', 'unlink', 'unplug', 'up', 'upgrade', 'upgrade-interactive', 'version', 'versions', 'why', 'workspace', 'workspaces');
/** pnpm's own commands; like yarn, pnpm runs a script or bin for any other word. */
const PNPM_BUILTINS = set('add', 'approve-builds', 'audit', 'bin', 'c', 'cat-file', 'cat-index', 'config', 'create', 'dedupe', 'deploy', 'dlx', 'doctor', 'env', 'exec', 'fetch', 'find-hash', 'help', 'i', 'ignored-builds', 'import', 'init', 'install', 'install-test', 'it', 'la', 'licenses', 'link', 'list', 'll', 'ln', 'ls', 'm', 'multi', 'outdated', 'pack', 'patch', 'patch-commit', 'patch-remove', 'prune', 'publish', 'rb', 'rebuild', 'recursive', 'remove', 'restart', 'rm', 'root', 'run', 'run-script', 'sbom', 'self-update', 'server', 'setup', 'start', 'stop', 'store', 't', 'test', 'tst', 'un', 'uninstall', 'unlink', 'up', 'update', 'upgrade', 'version', 'why');

/** `prettier@3`, `@scope/tool@1.2` → the bin name a package most likely installs. */
function packageBin(spec: string): string {
  let s = spec;
  const at = s.lastIndexOf('@');
  if (at > 0) s = s.slice(0, at);
  const slash = s.lastIndexOf('/');
  return s.startsWith('@') && slash > 0 ? s.slice(slash + 1) : s;
}

/** argv from the first positional at or after `from`, or undefined when there is none. */
function rest(argv: string[], from: number, valueFlags: ReadonlySet<string>): string[] | undefined {
  const i = positionalIndex(argv, from, valueFlags);
  return i < 0 ? undefined : argv.slice(i);
}

function withBin(inner: string[] | undefined): string[] | undefined {
  if (!inner) return undefined;
  const bin = packageBin(inner[0]);
  return bin === inner[0] ? inner : [bin, ...inner.slice(1)];
}

const PYTHON_RE = /^(?:python(?:\d+(?:\.\d+)?)?|py|pypy\d?)$/;

/** One level of wrapper: returns the wrapped argv, or undefined if argv[0] is not a wrapper. */
function unwrap(argv: string[]): Unwrapped | undefined {
  const exe = executableName(argv[0]);
  switch (exe) {
    case 'npx':
    case 'pnpx':
    case 'bunx': {
      // `npx -c 'cmd'` runs a shell string: not argv we can see through.
      if (argv.includes('-c') || argv.includes('--call')) return undefined;
      const inner = withBin(rest(argv, 1, NPX_VALUE_FLAGS));
      return inner && { inner, label: exe };
    }
    case 'uvx':
    case 'pipx': {
      const from = exe === 'pipx' ? (argv[1] === 'run' ? 2 : -1) : 1;
      if (from < 0) return undefined;
      const inner = rest(argv, from, exe === 'pipx' ? PIPX_VALUE_FLAGS : UV_RUN_VALUE_FLAGS);
      return inner && { inner: withBin(inner)!, label: exe === 'pipx' ? 'pipx run' : exe };
    }
    case 'npm': {
      const sub = positionalIndex(argv, 1, KNOWN_VALUE_FLAGS_SET.npm);
      if (sub < 0 || (argv[sub] !== 'exec' && argv[sub] !== 'x')) return undefined;
      if (argv.includes('-c') || argv.includes('--call')) return undefined;
      const inner = withBin(rest(argv, sub + 1, NPX_VALUE_FLAGS));
      return inner && { inner, label: `npm ${argv[sub]}` };
    }
    case 'pnpm': {
      const sub = positionalIndex(argv, 1, KNOWN_VALUE_FLAGS_SET.pnpm);
      if (sub < 0) return undefined;
      const word = argv[sub];
      if (word === 'dlx' || word === 'exec') {
        if (argv.includes('-c') || argv.includes('--shell-mode')) return undefined;
        const inner = withBin(rest(argv, sub + 1, PNPM_DLX_VALUE_FLAGS));
        return inner && { inner, label: `pnpm ${word}` };
      }
      if (word === 'run' || word === 'run-script') {
        const inner = rest(argv, sub + 1, PNPM_DLX_VALUE_FLAGS);
        return inner && { inner, label: `pnpm ${word}` };
      }
      if (!PNPM_BUILTINS.has(word)) return { inner: argv.slice(sub), label: 'pnpm' };
      return undefined;
    }
    case 'yarn': {
      const sub = positionalIndex(argv, 1, YARN_VALUE_FLAGS);
      if (sub < 0) return undefined;
      const word = argv[sub];
      if (word === 'dlx') {
        const inner = withBin(rest(argv, sub + 1, YARN_VALUE_FLAGS));
        return inner && { inner, label: 'yarn dlx' };
      }
      if (word === 'exec' || word === 'run') {
        const inner = rest(argv, sub + 1, YARN_VALUE_FLAGS);
        return inner && { inner, label: `yarn ${word}` };
      }
      if (word === 'workspace') {
        // `yarn workspace <name> <cmd…>` runs `yarn <cmd…>` in that workspace.
        return sub + 2 < argv.length ? { inner: [argv[0], ...argv.slice(sub + 2)], label: 'yarn workspace' } : undefined;
      }
      if (!YARN_BUILTINS.has(word)) return { inner: argv.slice(sub), label: 'yarn' };
      return undefined;
    }
    case 'bun': {
      const sub = positionalIndex(argv, 1, EMPTY);
      if (sub < 0) return undefined;
      if (argv[sub] === 'x') {
        const inner = withBin(rest(argv, sub + 1, NPX_VALUE_FLAGS));
        return inner && { inner, label: 'bun x' };
      }
      if (argv[sub] === 'run') {
        const inner = rest(argv, sub + 1, EMPTY);
        return inner && { inner, label: 'bun run' };
      }
      return undefined;
    }
    case 'uv': {
      const sub = positionalIndex(argv, 1, KNOWN_VALUE_FLAGS_SET.uv);
      if (sub < 0) return undefined;
      let from = -1;
      if (argv[sub] === 'run') from = sub + 1;
      else if (argv[sub] === 'tool' && argv[sub + 1] === 'run') from = sub + 2;
      if (from < 0) return undefined;
      const inner = rest(argv, from, UV_RUN_VALUE_FLAGS);
      return inner && { inner, label: argv[sub] === 'run' ? 'uv run' : 'uv tool run' };
    }
    case 'bundle':
    case 'bundler': {
      // `bundle exec rspec …` runs rspec with the bundle's gems.
      const sub = positionalIndex(argv, 1, BUNDLE_VALUE_FLAGS);
      if (sub < 0 || argv[sub] !== 'exec') return undefined;
      const inner = rest(argv, sub + 1, EMPTY);
      return inner && { inner, label: 'bundle exec' };
    }
    case 'poetry':
    case 'pdm':
    case 'pipenv':
    case 'hatch': {
      const sub = positionalIndex(argv, 1, POETRY_VALUE_FLAGS);
      if (sub < 0 || argv[sub] !== 'run') return undefined;
      const inner = rest(argv, sub + 1, POETRY_VALUE_FLAGS);
      return inner && { inner, label: `${exe} run` };
    }
    case 'env': {
      const inner = rest(argv, 1, ENV_VALUE_FLAGS);
      return inner && { inner, label: 'env' };
    }
    case 'time':
    case 'nohup':
    case 'command':
    case 'exec':
    case 'nice':
    case 'stdbuf':
    case 'ionice':
    case 'chrt': {
      if (exe === 'command' && (argv[1] === '-v' || argv[1] === '-V')) return undefined;
      const flags = exe === 'nice' ? NICE_VALUE_FLAGS : exe === 'stdbuf' ? STDBUF_VALUE_FLAGS : EMPTY;
      const inner = rest(argv, 1, flags);
      // chrt takes a priority before the command.
      const skipped = exe === 'chrt' && inner && /^\d+$/.test(inner[0]) ? inner.slice(1) : inner;
      return skipped && skipped.length ? { inner: skipped, label: exe } : undefined;
    }
    case 'timeout': {
      const i = positionalIndex(argv, 1, TIMEOUT_VALUE_FLAGS); // the duration
      if (i < 0 || i + 1 >= argv.length) return undefined;
      return { inner: argv.slice(i + 1), label: 'timeout' };
    }
  }
  if (PYTHON_RE.test(exe)) {
    for (let i = 1; i < argv.length; i++) {
      const a = argv[i];
      if (a === '-m') return i + 1 < argv.length ? { inner: argv.slice(i + 1), label: `${exe} -m` } : undefined;
      if (a.startsWith('-m') && a.length > 2) return { inner: [a.slice(2), ...argv.slice(i + 1)], label: `${exe} -m` };
      if (a === '-c' || !a.startsWith('-')) return undefined; // a script or -c code: the interpreter itself
      if (PYTHON_VALUE_FLAGS.has(a)) i++;
    }
  }
  return undefined;
}

/**
 * Which grammar applies to this argv. Wrappers are seen through (`npx -y eslint .` → eslint);
 * when the wrapped tool has no grammar, the wrapper's own grammar applies if it has one
 * (`npx unknown-tool` → npm's grammar if it claims `npx`). Returns undefined for unknown tools.
 */
export function detectTool(argv: readonly string[], grammars: GrammarLookup): Detection | undefined {
  return detect(argv as string[], grammars, []);
}

function detect(argv: string[], grammars: GrammarLookup, via: string[]): Detection | undefined {
  if (argv.length === 0) return undefined;
  const u = unwrap(argv);
  // Every wrapper strips at least one word, so this recursion ends. `yarn <script>` / `pnpm run x`
  // may name a script rather than a bin: falling back to the wrapper's own grammar covers that.
  if (u && u.inner.length > 0 && u.inner.length < argv.length) {
    const inner = detect(u.inner, grammars, [...via, u.label]);
    if (inner) return inner;
  }
  return detectDirect(argv, grammars, via);
}

/** The category a detection implies: the action's, else the grammar's (undefined: ask _meta/categories). */
export function detectionCategory(d: Detection): Grammar['category'] {
  return (d.action ? d.grammar.actions[d.action]?.category : undefined) ?? d.grammar.category;
}

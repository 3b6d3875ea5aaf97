/**
 * The `mish` command line: dispatches to a subcommand or runs a command through the proxy.
 * Flags before the command are mish's; everything from the command on is the command's.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { usePrecompiledToml } from '../core/toml/parse-toml.js';
import { readPrecompiledTables } from '../core/toml/precompiled-toml.js';
import { useCheckedGrammars } from '../core/grammar/compile.js';
import { useCheckedPolicies } from '../core/policy/rules.js';
import { useCheckedCategories } from '../core/router/meta.js';
import { readNeedleTable, useNeedleTable } from '../core/squasher/needle-table.js';
import { runProxy, type ProxyOptions } from './proxy.js';
import { runRaw, RAW_HELP } from './raw-command.js';
import { UsageError, USAGE_EXIT } from './usage-error.js';
import { choosePlatform } from '../platform/platform.js';

export const MAIN_HELP = `mish — the shell for AI coding agents

usage: mish [options] <command> [args…]     run a command, print condensed output
       mish [options] "<shell command line>" run a compound command in your shell
       mish serve [--http [HOST:]PORT]        MCP server for agents (stdio, or HTTP on loopback)
       mish console [--web] [--port N]        operator console (Electron, or a browser page)
       mish ps [--json]                       running mish servers (agents) and their sessions
       mish raw <id>                          print the exact raw output of an earlier run
       mish policy explain "<command line>"    the policy decision as JSON (runs nothing)
       mish policy check                      validate the policy files in effect
       mish approvals [--json]                decide agents' dangerous commands (operator)
       mish attach <handoff-id>               type an agent's password prompt for it, blind to it
       mish audit [filters] | audit verify    list the audit log, or check its hash chain
       mish init [<agent>] [--project] [--uninstall] [--dry-run]
                                              hook mish into an agent (claude-code, codex,
                                              gemini-cli, cursor, copilot); alone: list them
       mish doctor                            per agent: hook installed, reachable, answering
       mish help | --help | --version

Condensing never drops an error, a warning with its location, a failing test, a summary
count or the exit code; mish exits with the command's exit code (128+n for signal n).
The raw output of every run is kept: the summary's last line says how to get it back.

A quoted command line runs in your $SHELL when that is zsh or bash, otherwise (dash, sh,
fish, unset) in bash, as agents write bash; each segment of "a && b" gets its own grammar.
zsh reads ~/.zshenv (not .zshrc); bash reads no rc file.

options (before the command):
  --json        print a machine-readable result instead of the summary
  --raw         pass the output through unchanged (still spooled; to a pipe or a
                file without the terminal's \\r\\n: the program's own bytes)
  --color       force colour;  --no-color  never colour (also NO_COLOR=1)
  --policy FILE           policy rules above all others (see mish policy --help)
  --policy-default D      decision for commands no rule names: allow|confirm|ask|operator|forbid
  -h, --help    this help;     --version   print the version
  --            end of mish's options (to run a command named like a subcommand)

examples:
  mish npm install
  mish cargo build
  mish "make && make test"
  mish --json pytest -q
`;

/**
 * Subcommands load lazily (esbuild splits them into chunks): `mish <cmd>` must not pay for the
 * MCP SDK or the console's web server at start-up.
 */
const SUBCOMMANDS: Record<string, (argv: string[]) => Promise<number> | number> = {
  raw: (argv) => runRaw(argv),
  policy: async (argv) => (await import('./policy-command.js')).runPolicy(argv),
  audit: async (argv) => (await import('./audit-command.js')).runAudit(argv),
  serve: async (argv) => (await import('../mcp/serve-command.js')).runServe(argv),
  console: async (argv) => (await import('../console/console-command.js')).runConsole(argv),
  ps: async (argv) => (await import('../console/ps-command.js')).runPs(argv),
  'operator-relay': async (argv) => (await import('../console/operator-relay-command.js')).runOperatorRelay(argv),
  approvals: async (argv) => (await import('../operator/approvals-command.js')).runApprovals(argv),
  attach: async (argv) => (await import('../operator/attach-command.js')).runAttach(argv),
  hook: async (argv) => (await import('../hooks/hook-command.js')).runHook(argv),
  init: async (argv) => (await import('../hooks/init-command.js')).runInit(argv),
  doctor: async (argv) => (await import('../hooks/doctor-command.js')).runDoctor(argv),
  help: () => {
    process.stdout.write(MAIN_HELP);
    return 0;
  },
};

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    return pkg.version;
  } catch {
    return 'unknown';
  }
}

export async function main(argv: string[]): Promise<number> {
  // A misspelt MISH_PLATFORM is a one-line error here, not a stack trace from deep in a session.
  try {
    choosePlatform();
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    return USAGE_EXIT;
  }
  const opts: ProxyOptions = { output: 'human', color: process.stdout.isTTY === true && !process.env.NO_COLOR };
  let i = 0;
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-')) break;
    switch (a) {
      case '-h':
      case '--help':
        process.stdout.write(MAIN_HELP);
        return 0;
      case '--version':
        process.stdout.write(`mish ${version()}\n`);
        return 0;
      case '--json':
        opts.output = 'json';
        break;
      case '--raw':
        opts.output = 'raw';
        break;
      case '--color':
        opts.color = true;
        break;
      case '--no-color':
        opts.color = false;
        break;
      case '--policy':
      case '--policy-default': {
        const v = argv[++i];
        if (v === undefined) throw new UsageError(`mish: ${a} needs a value (see mish --help)`);
        if (a === '--policy') opts.policyFile = v;
        else opts.policyDefault = v;
        break;
      }
      default:
        throw new UsageError(`mish: unknown option '${a}' (see mish --help)`);
    }
  }
  const rest = argv.slice(i);
  if (rest.length === 0) throw new UsageError('mish: no command given (see mish --help)');
  const sub = i === argv.indexOf(rest[0]) && argv[i - 1] !== '--' ? SUBCOMMANDS[rest[0]] : undefined;
  if (sub) {
    if (rest[0] === 'policy') return (await import('./policy-command.js')).runPolicy(rest.slice(1), { policyFile: opts.policyFile, policyDefault: opts.policyDefault });
    if (rest[0] === 'raw' && (rest[1] === '--help' || rest[1] === '-h')) {
      process.stdout.write(RAW_HELP);
      return 0;
    }
    return sub(rest.slice(1));
  }
  return runProxy(rest, opts);
}

// The built-in TOML tables pre-parsed by the build (dist/precompiled-toml.json, next to this
// bundle); from the sources there is no such file and every table is parsed as usual.
// The built-in grammar, policy and categories files come checked by the build too (the same file).
const precompiled = readPrecompiledTables(fileURLToPath(new URL('./precompiled-toml.json', import.meta.url)));
usePrecompiledToml(precompiled?.toml);
useCheckedGrammars(precompiled?.grammar);
useCheckedPolicies(precompiled?.policy);
useCheckedCategories(precompiled?.categories);
// The always-on rules' needle sets and line leads, read by the build (dist/precompiled-needles.json);
// from the sources, or for a rule the table lacks, they are read when the squasher first needs them.
useNeedleTable(readNeedleTable(fileURLToPath(new URL('./precompiled-needles.json', import.meta.url))));

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`${(err as Error).message}\n`);
      process.exitCode = USAGE_EXIT;
      return;
    }
    process.stderr.write(`mish: internal error: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exitCode = 70; // EX_SOFTWARE
  },
);

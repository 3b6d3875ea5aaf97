/**
 * How each shell is started with mish's integration, and how a command line is written to it.
 * Scripts live in resources/shell-integration/ (bash.sh, zsh/, sh.sh, fish.fish).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IntegrationMode, ShellKind } from './types.js';

/**
 * The tty's canonical line buffer holds 4095 bytes: longer physical lines would be cut.
 * Commands with a longer line are sent in chunks into a shell variable first.
 */
export const MAX_TTY_LINE = 3000;
/** Size of each chunk of a long command (well under MAX_TTY_LINE after quoting). */
const LONG_COMMAND_CHUNK = 1000;

let cachedDir: string | undefined;

/** Finds resources/shell-integration from this module (source tree or a bundle next to it). */
export function integrationDir(): string {
  if (cachedDir) return cachedDir;
  const env = process.env.MISH_SHELL_INTEGRATION_DIR;
  if (env && existsSync(join(env, 'bash.sh'))) return (cachedDir = env);
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, 'resources', 'shell-integration');
    if (existsSync(join(candidate, 'bash.sh'))) return (cachedDir = candidate);
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new Error('mish: resources/shell-integration not found (set MISH_SHELL_INTEGRATION_DIR)');
}

/** Every shell a session can run, by the basename of its executable. */
export const SHELL_KINDS: readonly ShellKind[] = ['bash', 'zsh', 'dash', 'sh', 'fish'];

export function modeOf(kind: ShellKind): IntegrationMode {
  return kind === 'bash' || kind === 'zsh' ? 'osc' : 'sentinel';
}

/** "bash" → {kind, path}; an absolute path is classified by its basename. */
export function resolveShell(shell: string | undefined): { kind: ShellKind; path: string } | undefined {
  const s = shell ?? 'bash';
  const base = s.split('/').pop() ?? s;
  const kind = SHELL_KINDS.find((k) => k === base);
  if (!kind) return undefined;
  if (s.startsWith('/')) return existsSync(s) ? { kind, path: s } : undefined;
  for (const d of (process.env.PATH ?? '/usr/bin:/bin').split(':')) {
    const p = join(d || '.', s);
    if (d && existsSync(p)) return { kind, path: p };
  }
  return undefined;
}

export interface ShellLaunch {
  file: string;
  args: string[];
  env: Record<string, string>;
}

/** argv/env for a local shell with integration. */
export function localLaunch(kind: ShellKind, path: string, nonce: string, env: Record<string, string>): ShellLaunch {
  const dir = integrationDir();
  const e: Record<string, string> = { ...env, MISH_NONCE: nonce };
  switch (kind) {
    case 'bash':
      return { file: path, args: ['--noediting', '--rcfile', join(dir, 'bash.sh'), '-i'], env: e };
    case 'zsh':
      e.MISH_USER_ZDOTDIR = env.ZDOTDIR ?? env.HOME ?? '';
      e.ZDOTDIR = join(dir, 'zsh');
      return { file: path, args: ['-i'], env: e };
    case 'fish':
      // --init-command runs after the user's config.fish: their settings load first, ours last.
      return { file: path, args: ['-i', '-C', `source ${fishQuote(join(dir, 'fish.fish'))}`], env: e };
    default:
      if (env.ENV) e.MISH_USER_ENV = env.ENV;
      e.ENV = join(dir, 'sh.sh');
      return { file: path, args: ['-i'], env: e };
  }
}

/** argv for `ssh -tt … dest <remote command>` that starts the remote shell with integration. */
export function remoteLaunch(kind: ShellKind, dest: string, sshArgs: string[], nonce: string, env: Record<string, string>): ShellLaunch {
  const dir = integrationDir();
  let inner: string;
  const pre = `MISH_NONCE=${nonce}; export MISH_NONCE; `;
  if (kind === 'zsh') {
    const zshenv = readFileSync(join(dir, 'zsh', '.zshenv'), 'utf8');
    const zshrc = readFileSync(join(dir, 'zsh', '.zshrc'), 'utf8');
    inner =
      pre +
      `d=$(mktemp -d) || exit 97; printf '%s' ${sq(zshenv)} > "$d/.zshenv"; printf '%s' ${sq(zshrc)} > "$d/.zshrc"; ` +
      `MISH_USER_ZDOTDIR="\${ZDOTDIR:-$HOME}" MISH_RCFILE="$d" ZDOTDIR="$d" exec zsh -i`;
  } else {
    const script = readFileSync(join(dir, kind === 'bash' ? 'bash.sh' : kind === 'fish' ? 'fish.fish' : 'sh.sh'), 'utf8');
    // fish expands $MISH_RCFILE itself (one word, whatever the temp path holds).
    const start = kind === 'bash' ? 'exec bash --noediting --rcfile "$f" -i' : kind === 'fish' ? `exec fish -i -C 'source $MISH_RCFILE'` : `ENV="$f" exec ${kind} -i`;
    inner = pre + `f=$(mktemp) || exit 97; printf '%s' ${sq(script)} > "$f"; MISH_RCFILE="$f"; export MISH_RCFILE; ${start}`;
  }
  // `--`: whatever the destination is, ssh reads it as the destination, never as an option.
  return { file: 'ssh', args: ['-tt', ...sshArgs, '--', dest, loginShellSafe(inner)], env };
}

/**
 * The remote command line for `script`: ssh hands it to the user's login shell, which must only
 * pass it on to sh. POSIX quoting alone is not enough: fish reads \\ and \' inside single quotes
 * as escapes, and csh rejects a newline in quotes. So the script travels as printf octal escapes
 * (\ooo for backslash, quotes and newlines; %% for %) in one line that every login shell reads
 * the same, and sh rebuilds it.
 */
export function loginShellSafe(script: string): string {
  const format = script.replace(/[\\'%\n]/g, (c) => (c === '%' ? '%%' : `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`));
  return `exec sh -c ${sq(`eval "$(printf '${format}')"`)}`;
}

/** POSIX single-quoting. */
export function sq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Control characters: the tty line discipline (^C, ^D, ^U, DEL…) or a line editor would act on them raw. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/g;
/**
 * What fish's line editor must not receive raw: the control characters above, plus tab (it
 * completes) and newline (one physical line keeps the editor out of continuation lines).
 */
// eslint-disable-next-line no-control-regex
const FISH_CONTROL = /[\x00-\x1f\x7f]/g;

const hex2 = (c: string) => c.charCodeAt(0).toString(16).padStart(2, '0');

/**
 * fish quoting: inside '…' fish reads \' and \\ as escapes (POSIX quoting would be misread),
 * and control characters go between quotes as \xHH, which fish expands outside quotes.
 */
export function fishQuote(s: string): string {
  return `'${s.replace(/[\\']/g, '\\$&')}'`.replace(FISH_CONTROL, (c) => `'\\x${hex2(c)}'`);
}

/**
 * Quotes a command for `eval`. Control characters would be acted on by the tty line
 * discipline (^C, ^D, ^U, DEL…), so they are spelled as escapes instead of sent raw.
 */
export function quoteCommand(cmd: string, mode: IntegrationMode): string {
  if (cmd.search(CONTROL) < 0) return sq(cmd);
  return sq(cmd).replace(CONTROL, (c) => {
    if (mode === 'osc') return `'$'\\x${hex2(c)}''`;
    return `'"$(printf '\\${c.charCodeAt(0).toString(8).padStart(3, '0')}')"'`;
  });
}

/** The text written to the shell's terminal to run `cmd` (ends with a newline). */
export function commandLine(cmd: string, kind: ShellKind): string {
  if (kind === 'fish') return fishCommandLine(cmd);
  const mode = modeOf(kind);
  const longest = Math.max(...cmd.split('\n').map((l) => l.length));
  // osc: __mish_g puts the prompt hook back if the command replaced it (PROMPT_COMMAND=…, precmd_functions=()).
  const evalOf = (arg: string) => (mode === 'osc' ? `__mish_s; eval -- ${arg}; __mish_g\n` : `__mish_s; command eval ${arg}; __mish_e "$?"\n`);
  if (longest <= MAX_TTY_LINE) return evalOf(quoteCommand(cmd, mode));
  const lines: string[] = [];
  for (let i = 0; i < cmd.length; i += LONG_COMMAND_CHUNK) {
    const q = quoteCommand(cmd.slice(i, i + LONG_COMMAND_CHUNK), mode);
    lines.push(i === 0 ? `__mish_b=${q}\n` : `__mish_b="$__mish_b"${q}\n`);
  }
  lines.push(evalOf('"$__mish_b"'));
  return lines.join('');
}

/**
 * Commands longer than this (bytes) reach a local POSIX shell through a private file instead of
 * its terminal: typing a 1 MB line took 9-24 s, its echo looked like a prompt waiting for input
 * (6 runs in 35), and the tty's line discipline is not made for it. Short lines are still typed
 * (they show in the terminal as the user would type them).
 */
export const LONG_COMMAND_FILE_BYTES = 8 * 1024;

/**
 * The line typed to run the command stored in `file`: the shell reads it into a variable (a
 * trailing `.` keeps trailing newlines from `$(…)`), deletes the file, then evaluates exactly
 * what `commandLine` would have typed, with the same hooks around it.
 */
export function commandFromFile(file: string, kind: Exclude<ShellKind, 'fish'>): string {
  const mode = modeOf(kind);
  const q = `'${file.replace(/'/g, `'\\''`)}'`;
  const load = ` __mish_b=$(command cat -- ${q}; printf .); command rm -f -- ${q}; __mish_b=\${__mish_b%.};`;
  return mode === 'osc' ? `${load} __mish_s; eval -- "$__mish_b"; __mish_g\n` : `${load} __mish_s; command eval "$__mish_b"; __mish_e "$?"\n`;
}

/**
 * A command mish runs for itself (not the user's): a leading space keeps it out of the shell's
 * history where the shell allows (fish always; bash with HISTCONTROL ignorespace/ignoreboth,
 * zsh with HIST_IGNORE_SPACE).
 */
export function hiddenCommandLine(cmd: string, kind: ShellKind): string {
  const line = commandLine(cmd, kind);
  return line.startsWith(' ') ? line : ` ${line}`;
}

/**
 * fish: one physical line per command (newlines are escaped), each starting with a space so
 * fish keeps it out of the user's history. A line longer than the tty holds is built up in a
 * variable from chunks whose quoted form stays under LONG_COMMAND_CHUNK bytes.
 */
function fishCommandLine(cmd: string): string {
  const evalOf = (arg: string) => ` __mish_s; eval ${arg}; __mish_e $status\n`;
  const whole = evalOf(fishQuote(cmd));
  if (Buffer.byteLength(whole) <= MAX_TTY_LINE) return whole;
  const lines = fishChunks(cmd).map((c, i) => (i === 0 ? ` set -g __mish_b ${fishQuote(c)}\n` : ` set -g __mish_b "$__mish_b"${fishQuote(c)}\n`));
  lines.push(evalOf('"$__mish_b"'));
  return lines.join('');
}

/** Splits at code points so that each chunk's fishQuote() is at most LONG_COMMAND_CHUNK bytes (plus its quotes). */
function fishChunks(cmd: string): string[] {
  const chunks: string[] = [];
  let cur = '';
  let bytes = 0;
  for (const ch of cmd) {
    // '\x03' outside quotes costs 6 bytes, \' and \\ cost 2, the rest their UTF-8 length.
    const code = ch.charCodeAt(0);
    const cost = code < 0x20 || code === 0x7f ? 6 : ch === '\\' || ch === "'" ? 2 : Buffer.byteLength(ch);
    if (bytes + cost > LONG_COMMAND_CHUNK && cur) {
      chunks.push(cur);
      cur = '';
      bytes = 0;
    }
    cur += ch;
    bytes += cost;
  }
  if (cur) chunks.push(cur);
  return chunks;
}

/** The shell-language pieces mish writes around a command itself: env exports and the cd of a per-call cwd. */
export interface ShellSyntax {
  quote(s: string): string;
  exportVar(name: string, value: string): string;
  cd(dir: string): string;
  /** Runs `text` only after `cd` succeeded. */
  afterCd(cd: string, text: string): string;
}

const POSIX_SYNTAX: ShellSyntax = {
  quote: sq,
  exportVar: (name, value) => `export ${name}=${sq(value)}`,
  cd: (dir) => `cd -- ${sq(dir)}`,
  afterCd: (cd, text) => `${cd} && {\n${text}\n}`,
};

const FISH_SYNTAX: ShellSyntax = {
  quote: fishQuote,
  exportVar: (name, value) => `set -gx ${name} ${fishQuote(value)}`,
  cd: (dir) => `cd -- ${fishQuote(dir)}`,
  afterCd: (cd, text) => `${cd} && begin\n${text}\nend`,
};

export function syntaxOf(kind: ShellKind): ShellSyntax {
  return kind === 'fish' ? FISH_SYNTAX : POSIX_SYNTAX;
}

/** Variables the integration hands a starting shell for its own use; the scripts unset them, and they never go further. */
const INTEGRATION_ONLY_ENV = ['MISH_NONCE', 'MISH_RCFILE', 'MISH_USER_ZDOTDIR', 'MISH_USER_ENV', 'MISH_SKIP_USER_RC'];

/**
 * Parses `env -0` output (the exported environment of a session's shell) into the environment
 * for a process started from that session: without the integration's own variables, with
 * variables the launch pointed at mish's scripts (sh's ENV) back to the values the session was
 * created with, and without what only described the env process itself (`_`) or the shell's
 * directory (PWD: the process's own cwd decides).
 */
export function environmentFromDump(dump: Buffer, kind: ShellKind, created: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of dump.toString('utf8').split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  for (const k of [...INTEGRATION_ONLY_ENV, '_', 'PWD']) delete env[k];
  const launched = localLaunch(kind, kind, '', created).env;
  for (const [k, v] of Object.entries(launched)) {
    if (created[k] === v || env[k] !== v) continue;
    if (created[k] === undefined) delete env[k];
    else env[k] = created[k];
  }
  return env;
}

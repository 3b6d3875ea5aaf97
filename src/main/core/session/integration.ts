/**
 * How each shell is started with mish's integration, and how a command line is written to it.
 * Scripts live in resources/shell-integration/ (bash.sh, zsh/, sh.sh).
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

export function modeOf(kind: ShellKind): IntegrationMode {
  return kind === 'bash' || kind === 'zsh' ? 'osc' : 'sentinel';
}

/** "bash" → {kind, path}; an absolute path is classified by its basename. */
export function resolveShell(shell: string | undefined): { kind: ShellKind; path: string } | undefined {
  const s = shell ?? 'bash';
  const base = s.split('/').pop() ?? s;
  const kind: ShellKind | undefined = base === 'bash' ? 'bash' : base === 'zsh' ? 'zsh' : base === 'dash' ? 'dash' : base === 'sh' ? 'sh' : undefined;
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
    const script = readFileSync(join(dir, kind === 'bash' ? 'bash.sh' : 'sh.sh'), 'utf8');
    const start = kind === 'bash' ? 'exec bash --noediting --rcfile "$f" -i' : `ENV="$f" exec ${kind} -i`;
    inner = pre + `f=$(mktemp) || exit 97; printf '%s' ${sq(script)} > "$f"; MISH_RCFILE="$f"; export MISH_RCFILE; ${start}`;
  }
  // Run through sh -c so the remote login shell (bash, zsh, fish …) only has to pass it on.
  return { file: 'ssh', args: ['-tt', ...sshArgs, dest, `exec sh -c ${sq(inner)}`], env };
}

/** POSIX single-quoting. */
export function sq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/**
 * Quotes a command for `eval`. Control characters would be acted on by the tty line
 * discipline (^C, ^D, ^U, DEL…), so they are spelled as escapes instead of sent raw.
 */
export function quoteCommand(cmd: string, mode: IntegrationMode): string {
  // eslint-disable-next-line no-control-regex
  const ctl = /[\x00-\x08\x0b-\x1f\x7f]/g;
  if (!ctl.test(cmd)) return sq(cmd);
  return sq(cmd).replace(ctl, (c) => {
    const code = c.charCodeAt(0);
    if (mode === 'osc') return `'$'\\x${code.toString(16).padStart(2, '0')}''`;
    return `'"$(printf '\\${code.toString(8).padStart(3, '0')}')"'`;
  });
}

/** The text written to the shell's terminal to run `cmd` (ends with a newline). */
export function commandLine(cmd: string, mode: IntegrationMode): string {
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

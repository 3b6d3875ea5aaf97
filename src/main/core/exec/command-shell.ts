/**
 * Which shell runs the CLI's command lines: the user's $SHELL when it is bash or zsh, else bash.
 *
 * - zsh users get zsh (`zsh -c`: /etc/zsh/zshenv and ~/.zshenv are read, as for any
 *   `zsh -c`, so what they set up for all their shells, such as a PATH entry, holds; .zshrc
 *   with its aliases and prompts is not, the shell is not interactive).
 * - bash users get their bash (`bash -c`: no rc file is read).
 * - anyone else (dash, sh, fish, ksh, unset) gets bash: agents write bash syntax, and mish
 *   parses every line as bash to route it and check it for dangerous commands.
 *
 * bash is looked for at $SHELL (when that is a bash), /bin/bash, then on PATH; zsh at $SHELL,
 * then on PATH, else bash is used. No bash at all is an error that says so.
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import type { TraceShell } from './segment-trace.js';

export interface CommandShell {
  kind: TraceShell;
  /** Absolute path of the executable. */
  path: string;
}

/** Where bash normally is; a system without it (NixOS, some containers) has it on PATH. */
export const SYSTEM_BASH = '/bin/bash';

export function resolveCommandShell(env: Record<string, string | undefined>, systemBash = SYSTEM_BASH): CommandShell {
  const shell = env.SHELL && path.isAbsolute(env.SHELL) ? env.SHELL : undefined;
  const named = shell ? path.basename(shell) : '';
  if (named === 'zsh') {
    const zsh = (isExecutable(shell!) ? shell : undefined) ?? onPath('zsh', env.PATH);
    if (zsh) return { kind: 'zsh', path: zsh };
  }
  const bash = (named === 'bash' && isExecutable(shell!) ? shell : undefined) ?? (isExecutable(systemBash) ? systemBash : undefined) ?? onPath('bash', env.PATH);
  if (bash) return { kind: 'bash', path: bash };
  throw new Error(`no bash to run the command line: ${systemBash} does not exist and there is no bash on PATH (${env.PATH ?? 'PATH is not set'})`);
}

function onPath(name: string, searchPath: string | undefined): string | undefined {
  for (const dir of (searchPath ?? '').split(path.delimiter)) {
    // An empty entry means the current directory; a shell found there is not the user's.
    if (!dir || !path.isAbsolute(dir)) continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

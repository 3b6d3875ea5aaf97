/**
 * The CLI's Executor: every command line runs in a fresh PTY through `spawnCommand` (lossless
 * exit), with bash.
 *
 * Why bash, whatever $SHELL is (a zsh user's `mish "a && b"` runs in bash too, on purpose):
 * - the router parsed the line as bash (unbash) and the policy judged that parse, so bash is
 *   the shell whose meaning was checked. zsh gives the same text another meaning: `=rm` is
 *   /usr/bin/rm (bash: a command named "=rm", not flagged), `$x` is not word-split, `**` recurses.
 * - per-segment grammars need a hook before each simple command. zsh's TRAPDEBUG fires once per
 *   sublist (`echo one && echo two | tr a-z A-Z` is one call, one ZSH_DEBUG_CMD), so it cannot
 *   say which part of `make && make test` is running.
 * zsh sessions (`sh_session {shell: "zsh"}`) are another matter: there the user chose the shell.
 *
 * Segment reporting (`make && make test` switches grammars as each part starts): for a
 * compound line we prepend `set -T; trap '…' DEBUG;`. Before each simple command bash prints
 * `ESC ] 6474 ; seg ; <nonce> ; <printf %q of $BASH_COMMAND> BEL` to /dev/tty — the terminal,
 * not stdout, so a pipe or redirection never receives it — and we cut it out of the byte
 * stream before onData. The per-run random nonce means output can never forge one. `set -T`
 * makes subshells `( cd x && make )` report too. Bash saves and restores `$?` around a trap, so
 * the command behaves exactly as without it; the only visible trace is `T` in `$-`.
 */
import { randomBytes } from 'node:crypto';
import { parse as parseBash } from 'unbash';
import { MISH_OSC, NonceMarkerScanner } from '../pty/nonce-marker-scanner.js';
import { spawnCommand } from '../pty/spawn-command.js';
import type { PtyPort } from '../pty/types.js';
import type { ExecRequest, ExecResult, Executor } from './types.js';

/** Terminal size when the caller gives none: wide enough that tools do not wrap or truncate. */
export const DEFAULT_COLS = 120;
export const DEFAULT_ROWS = 40;
/** After an abort: SIGINT first (what ^C does), then SIGTERM, then SIGKILL, this far apart. */
const ABORT_ESCALATE_MS = 2000;
/** Kind of the DEBUG trap's marker: `ESC ] 6474 ; seg ; <nonce> ; <printf %q of the command> BEL`. */
const SEGMENT_MARKER = 'seg';

export interface CliExecutorOptions {
  /** bash to run lines with (default /bin/bash; never $SHELL, see above). */
  bash?: string;
  /** Base environment (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Report segments for every line, not just compound ones (tests). */
  alwaysTrace?: boolean;
}

export class CliExecutor implements Executor {
  constructor(
    private readonly port: PtyPort,
    private readonly options: CliExecutorOptions = {},
  ) {}

  run(request: ExecRequest): Promise<ExecResult> {
    const nonce = randomBytes(8).toString('hex');
    const trace = request.onSegment !== undefined && (this.options.alwaysTrace || looksCompound(request.command));
    const script = trace ? `${traceProlog(nonce)}${request.command}` : request.command;
    const env = cleanEnv({ ...(this.options.env ?? process.env), ...request.env });
    if (!env.TERM) env.TERM = 'xterm-256color';
    const cwd = request.cwd ?? process.cwd();
    let child;
    try {
      child = spawnCommand(this.port, { shellCommand: script, shell: this.options.bash ?? '/bin/bash' }, { cwd, env, cols: request.cols ?? DEFAULT_COLS, rows: request.rows ?? DEFAULT_ROWS });
    } catch (e) {
      // Bad cwd and the like: what a shell prints, as output, with its status.
      request.onData(Buffer.from(`mish: cannot start: ${(e as Error).message}\r\n`));
      return Promise.resolve({ exitCode: 127 });
    }
    const filter = trace ? new SegmentFilter(nonce, request.onData, request.onSegment!) : undefined;
    child.onData((chunk) => (filter ? filter.push(chunk) : request.onData(chunk)));
    request.onStart?.(child);
    const timers: NodeJS.Timeout[] = [];
    const onAbort = () => {
      child.kill('SIGINT');
      timers.push(setTimeout(() => child.kill('SIGTERM'), ABORT_ESCALATE_MS));
      timers.push(setTimeout(() => child.kill('SIGKILL'), 2 * ABORT_ESCALATE_MS));
    };
    if (request.signal?.aborted) onAbort();
    else request.signal?.addEventListener('abort', onAbort, { once: true });
    return new Promise((resolve) => {
      child.onExit((exit) => {
        filter?.end();
        for (const t of timers) clearTimeout(t);
        request.signal?.removeEventListener('abort', onAbort);
        resolve(exit.signal ? { exitCode: exit.exitCode, signal: exit.signal } : { exitCode: exit.exitCode });
      });
    });
  }
}

function cleanEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

/** Cheap pre-check; a false positive only costs the (invisible) trap. */
function looksCompound(command: string): boolean {
  return /[;&|()\n`]|\$\(|\b(?:if|for|while|until|case)\b/.test(command);
}

function traceProlog(nonce: string): string {
  const osc = `\\033]${MISH_OSC};${SEGMENT_MARKER};${nonce};%q\\007`;
  // Single-quoted trap body; 2>/dev/null: no terminal (setsid'd child) must not print errors.
  return `set -T; trap 'printf "${osc}" "$BASH_COMMAND" >/dev/tty 2>/dev/null' DEBUG; `;
}

/** Removes nonce'd segment markers from the byte stream and reports their commands. */
export class SegmentFilter {
  private readonly scanner: NonceMarkerScanner;

  constructor(nonce: string, onData: (chunk: Uint8Array) => void, onSegment: (command: string) => void) {
    this.scanner = new NonceMarkerScanner(nonce, [SEGMENT_MARKER], {
      onData,
      onMarker: (_kind, payload) => onSegment(unquote(payload.toString('utf8'))),
    });
  }

  push(chunk: Uint8Array): void {
    this.scanner.push(chunk);
  }

  /** At exit: a held-back tail that never became a marker is output. */
  end(): void {
    this.scanner.end();
  }
}

/** Undo bash's `printf %q` (backslashes and $'…'): it is a shell word, so the shell parser reads it. */
function unquote(q: string): string {
  const ast = parseBash(`: ${q}`);
  const cmd = ast.commands[0]?.command;
  if (cmd?.type === 'Command' && cmd.suffix[0]?.type === 'Word') return cmd.suffix[0].value;
  return q;
}

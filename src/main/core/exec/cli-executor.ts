/**
 * The CLI's Executor: every command line runs in a fresh PTY through `spawnCommand` (lossless
 * exit), with the user's shell when that is bash or zsh, else bash (command-shell.ts).
 *
 * A compound line reports each part as it starts (`make && make test` switches grammars per
 * segment): see segment-trace.ts for how bash and zsh are made to print a nonce'd marker to
 * the terminal, which SegmentFilter cuts out of the byte stream before onData.
 *
 * What runs is what the router checked: it parsed the line as bash (unbash). zsh reads most
 * such lines the same way; where it differs (an unquoted `$x` is not word-split, `**`
 * recurses, `=rm` is /usr/bin/rm) zsh's meaning is what the zsh user asked for, and the
 * router's command names already see `=rm` as rm.
 */
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { parse as parseBash } from 'unbash';
import { NonceMarkerScanner } from '../pty/nonce-marker-scanner.js';
import { spawnCommand } from '../pty/spawn-command.js';
import type { PtyPort } from '../pty/types.js';
import { resolveCommandShell, SYSTEM_BASH } from './command-shell.js';
import { PipedStdin, withStdinFrom, withStdinFromDevNull } from './piped-stdin.js';
import { SEGMENT_MARKER, tracedScript } from './segment-trace.js';
import type { ExecRequest, ExecResult, Executor } from './types.js';

/** Terminal size when the caller gives none: wide enough that tools do not wrap or truncate. */
export const DEFAULT_COLS = 120;
export const DEFAULT_ROWS = 40;
/** After an abort: SIGINT first (what ^C does), then SIGTERM, then SIGKILL, this far apart. */
const ABORT_ESCALATE_MS = 2000;

export interface CliExecutorOptions {
  /** Where to look for bash first (default /bin/bash); see command-shell.ts. */
  bash?: string;
  /** Base environment (default process.env); its SHELL picks the shell. */
  env?: NodeJS.ProcessEnv;
  /** Report segments for every line, not just compound ones (tests). */
  alwaysTrace?: boolean;
  /**
   * The commands' standard input when it is not the terminal (mish's own piped stdin): read
   * through a FIFO, never typed into the PTY (see piped-stdin.ts). Without it the command
   * reads the PTY, where the host forwards the keyboard. `'null'`: mish's stdin is /dev/null,
   * and so is the command's (no FIFO to make: making one runs `mkfifo`, ~8 ms a command).
   */
  stdin?: Readable | 'null';
}

export class CliExecutor implements Executor {
  constructor(
    private readonly port: PtyPort,
    private readonly options: CliExecutorOptions = {},
  ) {}

  run(request: ExecRequest): Promise<ExecResult> {
    const nonce = randomBytes(8).toString('hex');
    const env = cleanEnv({ ...(this.options.env ?? process.env), ...request.env });
    if (!env.TERM) env.TERM = 'xterm-256color';
    const cwd = request.cwd ?? process.cwd();
    let child;
    let traced: string | undefined;
    let stdin: PipedStdin | undefined;
    try {
      const shell = resolveCommandShell(env, this.options.bash ?? SYSTEM_BASH);
      const trace = request.onSegment !== undefined && (this.options.alwaysTrace || looksCompound(request.command));
      traced = trace ? tracedScript(shell.kind, request.command, nonce) : undefined;
      const argv = [shell.path, '-c', traced ?? request.command];
      const input = this.options.stdin;
      stdin = input && input !== 'null' ? new PipedStdin(input) : undefined;
      const full = stdin ? withStdinFrom(stdin.path, argv) : input === 'null' ? withStdinFromDevNull(argv) : argv;
      child = spawnCommand(this.port, { argv: full }, { cwd, env, cols: request.cols ?? DEFAULT_COLS, rows: request.rows ?? DEFAULT_ROWS });
    } catch (e) {
      stdin?.close();
      // No shell, a bad cwd and the like: what a shell prints, as output, with its status.
      request.onData(Buffer.from(`mish: cannot start: ${(e as Error).message}\r\n`));
      return Promise.resolve({ exitCode: 127 });
    }
    const filter = traced !== undefined ? new SegmentFilter(nonce, request.onData, request.onSegment!) : undefined;
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
        stdin?.close();
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

/** Undo bash's `printf %q` or zsh's `${(q)…}` (backslashes and $'…'): a shell word, so the shell parser reads it. */
function unquote(q: string): string {
  const ast = parseBash(`: ${q}`);
  const cmd = ast.commands[0]?.command;
  if (cmd?.type === 'Command' && cmd.suffix[0]?.type === 'Word') return cmd.suffix[0].value;
  return q;
}

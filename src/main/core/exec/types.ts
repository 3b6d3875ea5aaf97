/**
 * Executor: where a command line actually runs. The router and its handlers are written
 * against this interface so the same code serves the CLI (a fresh PTY per command) and the
 * MCP server (a persistent shell session).
 */

export interface ExecRequest {
  /** The command line as the user/agent wrote it (already parsed and allowed by the router). */
  command: string;
  cwd?: string;
  env?: Record<string, string>;
  cols?: number;
  rows?: number;
  /** Raw PTY bytes, in order, never re-encoded (the spool and the squasher both get them). */
  onData: (chunk: Uint8Array) => void;
  /**
   * A command is about to run, reported through a nonce'd OSC sequence that output cannot
   * forge: lets the router switch grammars per segment of `make && make test`. The CLI reports
   * each simple command in bash and zsh alike (exec/segment-trace.ts); zsh sessions report
   * each sublist (their TRAPDEBUG: `a && b` at once).
   */
  onSegment?: (simpleCommand: string) => void;
  /** Aborting interrupts the command (SIGINT to its process group, then escalates). */
  signal?: AbortSignal;
  /**
   * The command started: a host that owns a terminal forwards its stdin and size to it (the
   * CLI's interactive passthrough, answering a prompt). Executors without a PTY per command
   * may not call it.
   */
  onStart?: (control: ExecControl) => void;
}

/** Control of a running command: input, terminal size and signals to its process group. */
export interface ExecControl {
  readonly pid: number;
  write(data: string | Uint8Array): void;
  resize(cols: number, rows: number): void;
  kill(signal?: NodeJS.Signals): void;
  /** The PTY's slave (`/dev/pts/N`) when the command has one of its own: its line discipline tells raw-mode programs apart. */
  readonly ptsName?: string;
  /** Stop reading the command's output (backpressure: the kernel's buffer then blocks the writer) … */
  pause?(): void;
  /** … and read it again. */
  resume?(): void;
}

export interface ExecResult {
  exitCode: number;
  signal?: number;
  /** Working directory after the command, when the executor knows it (sessions do). */
  cwd?: string;
  /** True when the shell itself ended (`exit 3` in a session). */
  shellExited?: boolean;
}

export interface Executor {
  run(request: ExecRequest): Promise<ExecResult>;
}

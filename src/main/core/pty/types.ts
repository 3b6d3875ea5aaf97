/**
 * The engine's view of a pseudoterminal. Implemented in src/main/platform/node-pty-port.ts
 * with node-pty; tests and hosts get it injected, so the engine never imports node-pty itself.
 */

export interface PtySpawnOptions {
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
}

export interface PtyExit {
  /** Exit status when the process exited normally, else 128+signal (shell convention). */
  exitCode: number;
  /** Signal number if the process was killed by a signal. */
  signal?: number;
}

export interface PtyProcess {
  readonly pid: number;
  /** Raw bytes from the master side, in order. Never split or re-encoded. */
  onData(listener: (chunk: Uint8Array) => void): () => void;
  /**
   * Fires once, after the child exited AND every byte it wrote was delivered through onData
   * (the master was read to EOF), so no output is ever lost at exit.
   */
  onExit(listener: (exit: PtyExit) => void): () => void;
  write(data: string | Uint8Array): void;
  resize(cols: number, rows: number): void;
  /** Signal the whole process group (the PTY child is a session leader). */
  kill(signal?: NodeJS.Signals): void;
  /** Path of the slave side (`/dev/pts/N`), for termios queries by the yield engine. */
  readonly ptsName?: string;
  /** Stop reading the master (flow control: a full buffer blocks the child's writes) until resume(). */
  pause?(): void;
  resume?(): void;
}

export interface PtyPort {
  spawn(file: string, args: string[], options: PtySpawnOptions): PtyProcess;
}

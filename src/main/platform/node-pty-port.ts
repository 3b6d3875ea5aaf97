/**
 * PtyPort implemented with node-pty. The only module that imports node-pty.
 *
 * No output lost at exit: node-pty's UnixTerminal already defers 'exit' until its read
 * socket closes (EIO on the master after the slave's last writer is gone), but it gives up
 * after 200 ms and destroys the socket when a grandchild still holds the slave open. We
 * deliver onExit only after node-pty's exit AND the master stream ended, so every byte the
 * child wrote before exiting has been delivered through onData first.
 */
import * as pty from 'node-pty';
import { PtyEventSource } from '../core/pty/pty-event-source.js';
import type { PtyPort, PtyProcess, PtySpawnOptions } from '../core/pty/types.js';

/** Shell convention for "killed by signal n": exit status 128+n. */
const SIGNAL_EXIT_BASE = 128;

export const nodePtyPort: PtyPort = {
  spawn(file: string, args: string[], options: PtySpawnOptions): PtyProcess {
    const term = pty.spawn(file, args, {
      name: options.env.TERM ?? 'xterm-256color',
      cols: options.cols,
      rows: options.rows,
      cwd: options.cwd,
      env: options.env,
      encoding: null,
    } as pty.IPtyForkOptions);
    return new NodePtyProcess(term);
  },
};

class NodePtyProcess extends PtyEventSource implements PtyProcess {
  constructor(private readonly term: pty.IPty) {
    super();
    term.onData((data: string | Buffer) => this.emitData(typeof data === 'string' ? Buffer.from(data, 'utf8') : data));
    term.onExit(({ exitCode, signal }) => this.emitExit(signal ? { exitCode: SIGNAL_EXIT_BASE + signal, signal } : { exitCode }));
  }

  get pid(): number {
    return this.term.pid;
  }

  get ptsName(): string | undefined {
    return (this.term as unknown as { _pty?: string })._pty;
  }

  write(data: string | Uint8Array): void {
    this.term.write(typeof data === 'string' ? data : Buffer.from(data));
  }

  resize(cols: number, rows: number): void {
    try {
      this.term.resize(cols, rows);
    } catch {
      // The child already exited: nothing to resize.
    }
  }

  pause(): void {
    this.term.pause();
  }

  resume(): void {
    this.term.resume();
  }

  kill(signal: NodeJS.Signals = 'SIGHUP'): void {
    try {
      // The PTY child is a session leader: its pid is its process group id.
      process.kill(-this.term.pid, signal);
    } catch {
      try {
        this.term.kill(signal);
      } catch {
        // Already gone.
      }
    }
  }
}

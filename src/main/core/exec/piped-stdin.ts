/**
 * Piped input for a command that runs in a PTY (`echo x | mish cat`, `mish wc -l < file`,
 * `git diff | mish patch -p1`).
 *
 * Written into the PTY, that input would be echoed into the command's output (`x` twice),
 * read as keystrokes (a ^C, ^D or ^Z byte in the data becomes a signal or an end-of-file, CR
 * becomes NL) and cut at the line discipline's 4 KB line limit, and the command would see a
 * terminal on stdin (`rm` asks about write-protected files, and gets no answer). Instead the
 * command reads a FIFO that mish feeds from its own stdin, as it would read the pipe or file
 * directly; the PTY stays its controlling terminal, for its output and for prompts on /dev/tty.
 *
 * The FIFO is opened without blocking on either side: mish holds a read end of its own (never
 * read) so its write end opens at once (see withStdinFrom for the command's side), and
 * nothing blocks a thread if the command never reads.
 * The command sees end-of-file when mish's stdin ends; when the command is done, what it did
 * not read is dropped, as with any pipe.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * The command line that gives `command` the FIFO as stdin: a POSIX sh opens it and execs the
 * real shell, so the command line itself (and the segment trace around it) is unchanged.
 * A read-only open of a FIFO waits for a writer, and mish's may be gone already (a short
 * input, /dev/null): so the sh first opens it read-write on fd 3 (never waits), then read-only
 * as stdin (a writer exists: itself), then closes fd 3. What mish wrote stays in the pipe (mish
 * holds a read end until the command ends), and end-of-file comes once mish's writer is closed.
 * Once open, the FIFO and its directory are removed: nothing is left in /tmp even if mish is
 * killed (SIGKILL) while the command runs.
 */
export function withStdinFrom(fifo: string, argv: string[]): string[] {
  return ['/bin/sh', '-c', 'f=$1; shift; exec 3<>"$f" <"$f" 3<&-; rm -rf "${f%/*}"; exec "$@"', 'mish-stdin', fifo, ...argv];
}

/** The command line that gives `command` /dev/null as stdin (what mish itself has), the PTY staying its terminal. */
export function withStdinFromDevNull(argv: string[]): string[] {
  return ['/bin/sh', '-c', 'exec "$@" </dev/null', 'mish-stdin', ...argv];
}

export class PipedStdin {
  readonly path: string;
  private readonly dir: string;
  private readonly readFd: number;
  private readonly writer: Socket;
  private closed = false;

  constructor(private readonly source: Readable) {
    this.dir = mkdtempSync(path.join(tmpdir(), 'mish-stdin-'));
    this.path = path.join(this.dir, 'stdin');
    try {
      execFileSync('mkfifo', ['-m', '600', this.path], { stdio: 'ignore' });
      this.readFd = openSync(this.path, constants.O_RDONLY | constants.O_NONBLOCK);
      const writeFd = openSync(this.path, constants.O_WRONLY | constants.O_NONBLOCK);
      this.writer = new Socket({ fd: writeFd, readable: false, writable: true });
    } catch (e) {
      rmSync(this.dir, { recursive: true, force: true });
      throw new Error(`cannot pass stdin to the command: ${(e as Error).message}`);
    }
    // The command stopped reading (it exited, or closed stdin): the rest is not wanted.
    this.writer.on('error', () => this.stopFeeding());
    source.pipe(this.writer);
    // mish may exit before the command ends (its reader went away: closed-output.ts).
    process.once('exit', this.removeFifo);
  }

  private readonly removeFifo = (): void => {
    rmSync(this.dir, { recursive: true, force: true });
  };

  private stopFeeding(): void {
    this.source.unpipe(this.writer);
    this.source.pause();
    this.writer.destroy();
  }

  /** After the command ended: stop reading mish's stdin, close both ends, remove the FIFO. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stopFeeding();
    closeSync(this.readFd);
    process.off('exit', this.removeFifo);
    this.removeFifo();
  }
}

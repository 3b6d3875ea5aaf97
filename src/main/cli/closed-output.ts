/**
 * `mish --raw yes | head`, `mish raw <id> | head -5`: when the reader of mish's output goes
 * away, mish ends the way any program in a pipeline does, as if killed by SIGPIPE: the running
 * command's process group gets SIGPIPE (as it would have, writing into the pipe itself) and
 * mish exits 141, without a stack trace. Any other write error (a full disk, /dev/full) is one
 * line on stderr and exit 74.
 *
 * Only for the proxy and `mish raw`: `mish serve` handles its own streams.
 */
import type { TerminalTarget } from './terminal-io.js';

/** 128 + SIGPIPE (13): the status a shell reports for a program whose reader went away. */
export const SIGPIPE_EXIT = 141;
/** EX_IOERR (sysexits.h): an output error other than a closed pipe. */
export const OUTPUT_ERROR_EXIT = 74;

let running: TerminalTarget | undefined;

/** The command now running (its process group gets the SIGPIPE), or undefined once it ended. */
export function setRunningCommand(target: TerminalTarget | undefined): void {
  running = target;
}

let installed = false;

export function exitOnClosedOutput(): void {
  if (installed) return;
  installed = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') {
        running?.kill('SIGPIPE');
        process.exit(SIGPIPE_EXIT);
      }
      if (stream === process.stdout) {
        try {
          process.stderr.write(`mish: cannot write the output: ${err.message}\n`);
        } catch {
          // stderr is gone too: the exit status is all that is left.
        }
      }
      process.exit(OUTPUT_ERROR_EXIT);
    });
  }
}

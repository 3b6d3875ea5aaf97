/**
 * While a question is shown on a terminal (`? package name: (web)`), the human types the answer
 * into the command's PTY, whose echo is condensed output the CLI does not print: they typed
 * blind until the summary. This mirrors that echo live: output arriving right after a keystroke
 * the CLI forwarded, while a question is open, up to the end of the answer's line. What the tty
 * does not echo (a password prompt, ECHO off) is never shown, since only its echo is mirrored.
 * The echo stays in the condensed output once, as before: this only prints it.
 */
import type { Executor, ExecRequest, ExecResult } from '../core/exec/types.js';
import { tapWrites } from './control-tap.js';

/** The line discipline echoes while it takes in a key; this covers node-pty's read loop under load. */
const ECHO_WINDOW_MS = 300;
/** Enter as the terminal sends it (ICRNL makes it the line's end). */
const CR = 0x0d;

export class AnswerEchoExecutor implements Executor {
  private open = false;

  constructor(
    private readonly inner: Executor,
    private readonly show: (echo: Uint8Array) => void,
  ) {}

  /** A question was shown: the answer typed next is mirrored until its Enter. */
  questionShown(): void {
    this.open = true;
  }

  run(request: ExecRequest): Promise<ExecResult> {
    let typedAt: number | undefined;
    let entered = false;
    return this.inner.run({
      ...request,
      onStart: tapWrites(request.onStart, (bytes) => {
        if (!this.open) return;
        typedAt = performance.now();
        if (bytes.includes(CR)) entered = true;
      }),
      onData: (chunk) => {
        if (this.open && typedAt !== undefined && performance.now() - typedAt <= ECHO_WINDOW_MS) {
          const b = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
          const eol = entered ? b.indexOf('\n') : -1;
          // The answer's line ends with its echoed Enter: what follows is the program's again.
          this.show(eol >= 0 ? b.subarray(0, eol + 1) : b);
          if (eol >= 0) {
            this.open = false;
            entered = false;
            typedAt = undefined;
          }
        }
        request.onData(chunk);
      },
    });
  }
}

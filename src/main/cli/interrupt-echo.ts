/**
 * The `^C` a terminal echoes when the human presses ^C is the line discipline's, not the
 * program's output: counted, it made `sleep 5` interrupted read "1 line, 2B" and put `^C` in
 * front of Python's traceback. The CLI forwards the keyboard byte by byte (terminal-io.ts), so it
 * knows when it wrote a ^C (ETX) into the command's PTY; the kernel echoes `^C` (ECHOCTL) at
 * once, so the first `^C` in the output right after is that echo and is cut before any handler
 * or the spool sees it. A live terminal still shows it (`onEcho`), as a shell would, once.
 *
 * Only on the condensed path: once the terminal is handed to the program (vim, a REPL, a raw
 * menu), its screen is the program's own, `^C` drawn by readline included, and nothing is cut.
 */
import type { Executor, ExecRequest, ExecResult } from '../core/exec/types.js';
import { tapWrites } from './control-tap.js';

/** The ^C key as the terminal sends it (ETX). */
const ETX = 0x03;
/** The echo the line discipline writes for it (ECHOCTL). */
const CARET_C = Buffer.from('^C');
/**
 * How long after a forwarded ^C its echo is looked for. The kernel echoes while it takes in the
 * byte, so the echo is in the PTY's buffer before the write returns; the window only covers
 * node-pty's read loop under load. A program's own `^C` text later on is never touched.
 */
const ECHO_WINDOW_MS = 500;

export class InterruptEchoExecutor implements Executor {
  /** The terminal belongs to the program now: its output is shown as drawn. */
  private handedOver = false;

  constructor(
    private readonly inner: Executor,
    /** The cut echo, for a host that shows it itself (the human sees their ^C land). */
    private readonly onEcho?: () => void,
  ) {}

  /** Called when the real terminal is given to the command (TerminalPort attach or write). */
  handOver(): void {
    this.handedOver = true;
  }

  run(request: ExecRequest): Promise<ExecResult> {
    /** When a ^C was last forwarded and its echo not yet seen. */
    let pendingSince: number | undefined;
    return this.inner.run({
      ...request,
      onStart: tapWrites(request.onStart, (bytes) => {
        if (!this.handedOver && bytes.includes(ETX)) pendingSince = performance.now();
      }),
      onData: (chunk) => {
        if (pendingSince !== undefined && !this.handedOver) {
          if (performance.now() - pendingSince > ECHO_WINDOW_MS) pendingSince = undefined;
          else {
            const b = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
            const at = b.indexOf(CARET_C);
            if (at >= 0) {
              pendingSince = undefined;
              this.onEcho?.();
              const rest = Buffer.concat([b.subarray(0, at), b.subarray(at + CARET_C.length)]);
              if (rest.length === 0) return;
              return request.onData(rest);
            }
          }
        }
        request.onData(chunk);
      },
    });
  }
}

/**
 * The CLI's side of a PTY: forwards the real terminal (size, SIGWINCH, raw stdin) to the
 * child and forwards signals, so a command behind mish behaves as if typed directly.
 * Every listener it adds is removed by the returned disposer.
 */
/** What the terminal is wired to: a PtyProcess or an executor's ExecControl. */
export interface TerminalTarget {
  write(data: string | Uint8Array): void;
  resize(cols: number, rows: number): void;
  kill(signal?: NodeJS.Signals): void;
}

/** Size used when stdout is not a terminal: wide enough that tools do not wrap or truncate. */
export const DEFAULT_COLS = 120;
export const DEFAULT_ROWS = 40;

export function terminalSize(): { cols: number; rows: number } {
  const out = process.stdout;
  if (out.isTTY && out.columns && out.rows) return { cols: out.columns, rows: out.rows };
  return { cols: DEFAULT_COLS, rows: DEFAULT_ROWS };
}

/**
 * Wire the keyboard (a terminal stdin, raw), resize and signals to the child; returns a
 * disposer. Piped stdin is not forwarded here: the executor gives it to the command directly
 * (core/exec/piped-stdin.ts), since through the PTY it would be echoed and read as keystrokes.
 */
export function attachTerminal(child: TerminalTarget): () => void {
  const disposers: (() => void)[] = [];
  const stdin = process.stdin;
  if (stdin.isTTY) {
    stdin.setRawMode(true);
    const onData = (d: Buffer) => child.write(d);
    stdin.on('data', onData);
    stdin.resume();
    disposers.push(() => {
      stdin.off('data', onData);
      stdin.pause();
      stdin.setRawMode(false);
    });
  }
  if (process.stdout.isTTY) {
    const onResize = () => {
      const { cols, rows } = terminalSize();
      child.resize(cols, rows);
    };
    process.stdout.on('resize', onResize);
    disposers.push(() => process.stdout.off('resize', onResize));
  }
  // Without a raw TTY, ^C reaches mish as SIGINT: pass it on to the child's process group.
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'] as const) {
    const h = () => child.kill(sig);
    process.on(sig, h);
    disposers.push(() => process.off(sig, h));
  }
  return () => {
    for (const d of disposers.reverse()) d();
  };
}

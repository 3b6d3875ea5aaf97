/**
 * Programs that take the keyboard without taking the screen: an inquirer/prompts menu
 * (`? Select a framework ›`), `read -n1` in a script, a REPL or ssh started from a script.
 * They switch the terminal to non-canonical mode (ICANON off: raw or cbreak) and wait for
 * keys, drawing nothing more. When the output goes quiet and the command's processes are all
 * asleep, the CLI reads the PTY's line discipline, once per quiet spell (the platform
 * port's `stty -a` on the PTY: one small process, never one per chunk); a terminal left non-canonical
 * means a human has to drive the program.
 *
 * A password prompt (ECHO off, ICANON on) is not raw: it stays on the condensed path, which
 * reports the prompt and forwards the typed secret. A program that is quiet because it is
 * computing (state R) is not asked yet, even if its terminal is raw (ora-style spinners set raw
 * mode to discard keys while they spin, and freeze during synchronous work). Where the terminal
 * mode cannot be read or the PTY has no slave name, the probe finds nothing and the command
 * stays condensed (the alternate-screen handover still works there).
 */
import { foregroundRunning, readTermMode } from '../../platform/platform.js';

/**
 * Quiet long enough to probe. A program waiting for a key has finished drawing; a busy one
 * delivers its output in bursts a few ms apart, so 200 ms of nothing is a real pause. It is
 * under the squasher's 500 ms partial-line prompt timer (PARTIAL_LINE_MS), so a prompt that is
 * handed over is not also reported as a condensed `? prompt` line, and short enough that the
 * human does not wait for the screen.
 */
const RAW_PROBE_SILENCE_MS = 200;
/**
 * A command still computing in a quiet spell is looked at again after this, doubling up to
 * RAW_BUSY_RECHECK_MAX_MS: a long silent build costs a few /proc scans (1-2 ms each), not one
 * per tick, and a program that starts waiting late is still found within a few seconds.
 */
const RAW_BUSY_RECHECK_MS = 200;
const RAW_BUSY_RECHECK_MAX_MS = 3200;

/** The running command's terminal: its session leader (the PTY child) and slave name. */
export interface RawModeTarget {
  pid: number;
  ptsName?: string;
}

export class RawModeWatch {
  private lastDataAt = performance.now();
  /** Quiet needed before the next look (grows while the command is seen computing). */
  private quietNeeded = RAW_PROBE_SILENCE_MS;
  private busyRecheck = RAW_BUSY_RECHECK_MS;
  /** This quiet spell was already probed: the next probe needs new output first. */
  private probed = false;
  private pending = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;

  /**
   * @param target the command's terminal, known once it started (undefined: no probing)
   * @param onRaw called once, when a probe found the terminal non-canonical
   */
  constructor(
    private readonly target: () => RawModeTarget | undefined,
    private readonly onRaw: () => void,
  ) {}

  /** Output arrived: a new quiet spell starts after it. */
  data(): void {
    this.lastDataAt = performance.now();
    this.probed = false;
    this.quietNeeded = RAW_PROBE_SILENCE_MS;
    this.busyRecheck = RAW_BUSY_RECHECK_MS;
    if (this.timer) {
      // It was armed for the old spell (maybe a long busy recheck): the next tick arms it anew.
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  /** A probe is running (its answer may hand the terminal over). */
  get probing(): boolean {
    return this.pending;
  }

  /**
   * Called on the handler's timer: probe when the output has been quiet long enough. Between
   * ticks a one-shot timer catches the moment the quiet spell is long enough (at most one armed:
   * never one per chunk), so the probe comes at RAW_PROBE_SILENCE_MS, not up to a tick later.
   */
  tick(): void {
    if (this.stopped || this.probed || this.pending) return;
    const quiet = performance.now() - this.lastDataAt;
    if (quiet < this.quietNeeded) return this.arm(this.quietNeeded - quiet);
    const t = this.target();
    if (!t?.ptsName) return;
    if (foregroundRunning(t.pid)) {
      this.quietNeeded = quiet + this.busyRecheck;
      this.busyRecheck = Math.min(2 * this.busyRecheck, RAW_BUSY_RECHECK_MAX_MS);
      return this.arm(this.quietNeeded - quiet);
    }
    this.probed = true;
    this.pending = true;
    void readTermMode(t.ptsName).then((mode) => {
      this.pending = false;
      if (this.stopped || !mode || mode.icanon) return;
      this.stop();
      this.onRaw();
    });
  }

  /** The command ended or was handed over another way: no more probes, no late handover. */
  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(ms: number): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.tick();
    }, ms);
  }
}

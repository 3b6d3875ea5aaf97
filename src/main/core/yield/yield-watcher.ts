/**
 * Yield engine: decides when a running process waits for input. Triggered by silence (no
 * output for YIELD_SILENCE_MS), then combines the prompt patterns on the tail with the
 * process state from the platform port (blocked reading the terminal) and the terminal mode (ECHO off
 * with ICANON on = secret prompt). Re-checks while the silence lasts; any output clears it.
 */
import type { WaitReason, WaitingForInput } from '../session/types.js';
import { probeForeground, readTermMode } from '../../platform/platform.js';
import { lastVisibleLine, matchPrompt } from './prompt-patterns.js';

/** First look after this much silence: a prompt is printed, then the program blocks at once. */
export const YIELD_SILENCE_MS = 30;
/** While silent and not yet waiting, look again this often (a program may block later). */
export const YIELD_RECHECK_MS = 250;
/** Without process-state evidence (remote sessions) a prompt pattern needs this much silence. */
export const PATTERN_ONLY_SILENCE_MS = 400;
/**
 * A wait found with echo still on (or the terminal mode unreadable: `stty` slow under load) is
 * looked at again this many times, YIELD_RECHECK_MS apart: a password prompt must not stay
 * classified as an ordinary one, since only a secret prompt is handed to a human.
 */
export const SECRET_RECHECKS = 4;

export interface YieldWatcherOptions {
  /** Session leader of the process's terminal (PTY child), for process-state probing; undefined = remote. */
  leaderPid?: number;
  ptsName?: string;
  /** Recent output text (decoded), for prompt patterns. */
  tail: () => string;
  onChange: (waiting: WaitingForInput | undefined) => void;
  /** Start checking only at begin() or the first output (a command typed into a shell, not yet started). */
  deferred?: boolean;
  /**
   * The leader is the session's shell, running a command typed into it: the shell alone reading its terminal is a `read`
   * builtin's prompt, or the shell back at its prompt with the command's end marker not yet read (a loaded machine) —
   * reported only when a second look, YIELD_RECHECK_MS later with no output between, finds it still so.
   */
  leaderIsShell?: boolean;
}

export class YieldWatcher {
  private timer: NodeJS.Timeout | undefined;
  private lastOutput = Date.now();
  private waiting: WaitingForInput | undefined;
  private stopped = false;
  private checking = false;
  private secretRechecks = 0;
  private held = false;
  /** When the pending timer fires (Date.now() clock). */
  private timerDue = 0;
  /** Counts the silences (each output or input starts a new one): a millisecond clock can give two the same start. */
  private silence = 0;
  /** The silence in which the shell alone was first seen reading its terminal (leaderIsShell). */
  private shellReadIn: number | undefined;

  constructor(private readonly options: YieldWatcherOptions) {
    if (!options.deferred) this.arm(YIELD_SILENCE_MS);
  }

  /** The program started: silence from now on counts. */
  begin(): void {
    if (this.stopped || this.held || this.timer || this.checking || this.waiting) return;
    this.lastOutput = Date.now();
    this.silence++;
    this.arm(YIELD_SILENCE_MS);
  }

  /**
   * The host stopped reading the output (backpressure): the silence is its own, and the
   * program may have finished meanwhile (a shell at its next prompt, the end marker unread).
   * No checks while held; when released, silence counts from then.
   */
  hold(held: boolean): void {
    if (this.stopped || held === this.held) return;
    this.held = held;
    if (held) {
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
    } else this.activity();
  }

  /** New output arrived: the process is not (or no longer) waiting. */
  activity(): void {
    if (this.stopped) return;
    this.lastOutput = Date.now();
    this.silence++;
    if (this.waiting) {
      this.waiting = undefined;
      this.options.onChange(undefined);
    }
    // Output streams in thousands of chunks a second: re-arm only when the pending look would come
    // later than the silence needs (after a recheck); an earlier one re-arms itself (fire()).
    if (!this.held && (!this.timer || this.timerDue > this.lastOutput + YIELD_SILENCE_MS)) this.arm(YIELD_SILENCE_MS);
  }

  /** Input was sent to the process: whatever it waited for may be answered. */
  inputSent(): void {
    this.activity();
  }

  current(): WaitingForInput | undefined {
    return this.waiting;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = Date.now() + ms;
    this.timer = setTimeout(() => this.fire(), ms);
    this.timer.unref?.();
  }

  /** A look is due: if output came since it was armed, wait for the silence first. */
  private fire(): void {
    this.timer = undefined;
    const wait = this.lastOutput + YIELD_SILENCE_MS - Date.now();
    if (wait > 0) this.arm(wait);
    else void this.check();
  }

  /** Runs one check now (tests, and hosts that want a fresh answer). */
  async check(): Promise<WaitingForInput | undefined> {
    if (this.stopped || this.held || this.checking) return this.waiting;
    this.checking = true;
    try {
      const found = await this.evaluate();
      if (this.stopped || this.held) return undefined;
      if (found && !this.waiting) {
        this.waiting = found;
        this.secretRechecks = found.secret || !this.options.ptsName || this.options.leaderPid === undefined ? 0 : SECRET_RECHECKS;
        this.options.onChange(found);
      }
      if (!this.waiting) this.arm(YIELD_RECHECK_MS);
      else if (this.secretRechecks > 0) this.armSecretRecheck();
      return this.waiting;
    } finally {
      this.checking = false;
    }
  }

  private armSecretRecheck(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timerDue = Date.now() + YIELD_RECHECK_MS;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.recheckSecret();
    }, YIELD_RECHECK_MS);
    this.timer.unref?.();
  }

  /** Upgrades the current wait to a secret one when the terminal has turned echo off meanwhile. */
  private async recheckSecret(): Promise<void> {
    const w = this.waiting;
    if (this.stopped || !w || w.secret || this.secretRechecks <= 0 || !this.options.ptsName) return;
    this.secretRechecks--;
    const mode = await readTermMode(this.options.ptsName);
    if (this.stopped || this.waiting !== w) return; // output or input came meanwhile
    if (mode && !mode.echo && mode.icanon) {
      this.secretRechecks = 0;
      this.waiting = { ...w, secret: true, reasons: [...w.reasons, 'secret-terminal-mode'] };
      this.options.onChange(this.waiting);
      return;
    }
    if (this.secretRechecks > 0) this.armSecretRecheck();
  }

  private async evaluate(): Promise<WaitingForInput | undefined> {
    const since = this.lastOutput;
    const silence = this.silence;
    const silentFor = Date.now() - since;
    const tail = this.options.tail();
    const pattern = matchPrompt(tail);
    const reasons: WaitReason[] = [];
    const { leaderPid, ptsName } = this.options;
    const probe = leaderPid !== undefined ? probeForeground(leaderPid, ptsName) : undefined;
    let mode: Awaited<ReturnType<typeof readTermMode>>;
    if (probe) {
      if (probe.ttyRead && this.options.leaderIsShell && probe.pids.every((p) => p === leaderPid) && this.shellReadIn !== silence) {
        // The shell itself reads: its command may have ended a moment ago (see leaderIsShell). Look again before saying so.
        this.shellReadIn = silence;
        return undefined;
      }
      if (probe.ttyRead) reasons.push('read-syscall');
      else if (!probe.polling) {
        // A process we cannot look into (setuid sudo run by an unprivileged user) asleep with
        // its terminal in secret mode (ECHO off, ICANON on) is reading a password: nothing
        // else turns echo off and waits. Anything else we cannot see is not a wait.
        if (!probe.unreadable || !ptsName) return undefined;
        mode = await readTermMode(ptsName);
        if (!mode || mode.echo || !mode.icanon) return undefined;
        reasons.push('read-syscall');
      } else if (!pattern) {
        // Polling with the terminal in raw mode: a line editor (readline REPL, nested shell).
        mode = ptsName ? await readTermMode(ptsName) : undefined;
        if (!mode || mode.icanon) return undefined;
        reasons.push('read-syscall');
      }
      if (pattern) reasons.push('prompt-pattern');
    } else {
      if (!pattern || silentFor < PATTERN_ONLY_SILENCE_MS) return undefined;
      reasons.push('prompt-pattern', 'silence');
    }
    let secret = false;
    if (ptsName && probe) {
      mode ??= await readTermMode(ptsName);
      if (mode && !mode.echo && mode.icanon) {
        secret = true;
        reasons.push('secret-terminal-mode');
      }
    } else if (pattern?.secretHint) {
      secret = true;
    }
    if (this.silence !== silence) return undefined; // output arrived meanwhile (within the same millisecond too)
    const prompt = pattern?.prompt ?? lastVisibleLine(tail).trim().slice(0, 200);
    return { prompt, secret, reasons, since: Date.now() };
  }
}

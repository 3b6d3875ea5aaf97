/**
 * One entry of the process table with its live controls: a background process (own PTY) or a
 * command running in a session. Owns its output store, last line, wait_for waiters and yield
 * watcher; the owner supplies how to write to / signal / kill the real process.
 */
import { cutAtWord } from '../format/cut-at-word.js';
import type {
  KeyName,
  OutputStore,
  ProcessControl,
  ProcessEntry,
  ProcessState,
  SpoolReadOptions,
  SpoolReadResult,
  WaitForResult,
  WaitingForInput,
} from '../session/types.js';
import { YieldWatcher } from '../yield/yield-watcher.js';
import { lastVisibleLine, stripAnsi } from '../yield/prompt-patterns.js';
import { keysToBytes } from './keys.js';

/** Recent decoded output kept for prompt patterns and last-line display. */
const TAIL_CHARS = 4096;
/** The last line shown in the table and digest is cut to this. */
const LAST_LINE_CHARS = 120;
/** Default grace between TERM and KILL. */
export const KILL_GRACE_MS = 2000;

export interface ProcessDriver {
  write(data: string): void;
  signal(signal: NodeJS.Signals): void;
  /** TERM (or HUP) the whole group, KILL after graceMs; resolves when it is gone. */
  kill(graceMs: number): Promise<void>;
}

/** The entry's identity fields (as ProcessEntry documents them), plus what drives the process. */
export interface TrackedInit extends Pick<ProcessEntry, 'id' | 'kind' | 'alias' | 'session' | 'command' | 'cwd' | 'pid' | 'pgid'> {
  store: OutputStore;
  driver: ProcessDriver;
  /** Terminal session leader for process-state probing (undefined for remote sessions). */
  leaderPid?: number;
  ptsName?: string;
  /**
   * The command is typed into a shell and starts later (sessions): no input-wait checks until
   * begin() or its first output. Before it, the silent program is the shell reading the line.
   */
  deferYield?: boolean;
  onChange: (entry: ProcessEntry) => void;
  onWaiting: (waiting: WaitingForInput) => void;
}

interface Waiter {
  test: (line: string) => RegExpExecArray | undefined;
  resolve: (r: WaitForResult) => void;
  stopOnInput: boolean;
  started: number;
  timer?: NodeJS.Timeout;
}

/** Of a line still being written, what is kept to match wait_for patterns against: its newest characters (prompts end lines). */
const PARTIAL_LINE_MAX_CHARS = 64 * 1024;

export class TrackedProcess implements ProcessControl {
  readonly id: string;
  private state: ProcessState = 'running';
  private exitCode: number | undefined;
  private exitSignal: number | undefined;
  private readonly startedAt = Date.now();
  private endedAt: number | undefined;
  private tail = '';
  private partialLine = '';
  private rawBytes = 0;
  private rawLines = 0;
  private readonly decoder = new TextDecoder('utf-8');
  private readonly waiters = new Set<Waiter>();
  private readonly yieldWatcher: YieldWatcher;
  private waiting: WaitingForInput | undefined;
  private killRequested = false;
  private resolveDone!: (e: ProcessEntry) => void;
  readonly done: Promise<ProcessEntry>;

  constructor(private readonly init: TrackedInit) {
    this.id = init.id;
    this.done = new Promise((r) => (this.resolveDone = r));
    this.yieldWatcher = new YieldWatcher({
      leaderPid: init.leaderPid,
      ptsName: init.ptsName,
      tail: () => this.tail,
      onChange: (w) => this.setWaiting(w),
      deferred: init.deferYield,
      // A command typed into a shell (the only deferred one): the leader is that shell.
      leaderIsShell: init.deferYield,
    });
  }

  get alias(): string | undefined {
    return this.init.alias;
  }

  /** The command started running (the shell's start marker): input-wait checks begin. */
  begin(): void {
    this.yieldWatcher.begin();
  }

  /** The host paused (true) or resumed (false) reading the output: no input-wait checks while paused. */
  holdYield(held: boolean): void {
    this.yieldWatcher.hold(held);
  }

  /** When it ended (ms since the epoch), without building the whole entry. */
  get endedAtMs(): number | undefined {
    return this.endedAt;
  }

  get ended(): boolean {
    return this.state === 'exited' || this.state === 'killed';
  }

  entry(): ProcessEntry {
    const i = this.init;
    const end = this.endedAt ?? Date.now();
    return {
      id: i.id,
      kind: i.kind,
      alias: i.alias,
      session: i.session,
      command: i.command,
      cwd: i.cwd,
      pid: i.pid,
      pgid: i.pgid,
      state: this.state,
      exitCode: this.exitCode,
      signal: this.exitSignal,
      startedAt: this.startedAt,
      endedAt: this.endedAt,
      elapsedMs: end - this.startedAt,
      lastLine: cutAtWord(lastVisibleLine(this.tail).trim(), LAST_LINE_CHARS),
      waiting: this.waiting,
      rawBytes: this.rawBytes,
      rawLines: this.rawLines + (this.partialLine ? 1 : 0),
      ...(i.store.ref ? { spoolRef: i.store.ref } : {}),
    };
  }

  /** Output of the process (already stripped of any integration markers). */
  output(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.init.store.write(chunk);
    this.rawBytes += chunk.length;
    const text = this.decoder.decode(chunk, { stream: true });
    this.tail = (this.tail + text).slice(-TAIL_CHARS);
    if (this.waiters.size > 0) {
      const parts = (this.partialLine + text).split('\n');
      // Bounded: a line that never ends (a 50 MB single-line JSON) must not be re-joined and re-split whole on every chunk.
      this.partialLine = (parts.pop() ?? '').slice(-PARTIAL_LINE_MAX_CHARS);
      this.rawLines += parts.length;
      for (const line of parts) this.matchWaiters(line);
      if (this.partialLine) this.matchWaiters(this.partialLine);
    } else {
      // Nobody waits for a line: count them without splitting (this runs for every chunk of every stream).
      let last = -1;
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
        this.rawLines++;
        last = i;
      }
      this.partialLine = (last < 0 ? this.partialLine + text : text.slice(last + 1)).slice(-PARTIAL_LINE_MAX_CHARS);
    }
    this.yieldWatcher.activity();
  }

  private matchWaiters(rawLine: string): void {
    const line = stripAnsi(rawLine).replace(/\r$/, '');
    for (const w of this.waiters) {
      const m = w.test(line);
      if (m) this.settle(w, { status: 'matched', match: m[0], line: line.slice(0, 500), elapsedMs: Date.now() - w.started });
    }
  }

  private settle(w: Waiter, r: WaitForResult): void {
    if (!this.waiters.delete(w)) return;
    if (w.timer) clearTimeout(w.timer);
    w.resolve(r);
  }

  private setWaiting(w: WaitingForInput | undefined): void {
    if (this.ended) return;
    this.waiting = w;
    this.state = w ? 'waiting-for-input' : 'running';
    this.init.onChange(this.entry());
    if (w) {
      this.init.onWaiting(w);
      for (const waiter of this.waiters) {
        if (waiter.stopOnInput) this.settle(waiter, { status: 'waiting-for-input', waiting: w, elapsedMs: Date.now() - waiter.started });
      }
    }
  }

  /** The process ended (exit code, signal); `killed` when we ended it. */
  finish(exitCode: number, signal?: number): void {
    if (this.ended) return;
    this.yieldWatcher.stop();
    const rest = this.decoder.decode();
    if (rest) this.partialLine += rest;
    if (this.partialLine && this.waiters.size) this.matchWaiters(this.partialLine);
    this.init.store.close({ exitCode });
    this.exitCode = exitCode;
    this.exitSignal = signal;
    this.endedAt = Date.now();
    this.waiting = undefined;
    this.state = this.killRequested || signal !== undefined ? 'killed' : 'exited';
    if (this.killRequested && signal === undefined && exitCode < 128) this.state = 'exited';
    const entry = this.entry();
    for (const w of [...this.waiters]) this.settle(w, { status: 'exited', exitCode, signal, elapsedMs: Date.now() - w.started });
    this.init.onChange(entry);
    this.resolveDone(entry);
  }

  send(text: string): void {
    if (this.ended) return;
    this.yieldWatcher.inputSent();
    this.init.driver.write(text);
  }

  sendKeys(keys: KeyName[]): void {
    this.send(keysToBytes(keys));
  }

  signal(signal: NodeJS.Signals): void {
    if (this.ended) return;
    this.init.driver.signal(signal);
  }

  async kill(graceMs = KILL_GRACE_MS): Promise<ProcessEntry> {
    if (this.ended) return this.entry();
    this.killRequested = true;
    await this.init.driver.kill(graceMs);
    return this.done;
  }

  waitFor(pattern: RegExp | string | undefined, timeoutMs: number, options: { stopOnInput?: boolean } = {}): Promise<WaitForResult> {
    const started = Date.now();
    const re = pattern === undefined ? undefined : typeof pattern === 'string' ? new RegExp(pattern) : new RegExp(pattern.source, pattern.flags.replace('g', '').replace('y', ''));
    const test = (line: string): RegExpExecArray | undefined => (re ? (re.exec(line) ?? undefined) : undefined);
    // Output that arrived before the call counts: a ready line printed instantly must match now.
    if (re) {
      const seen = this.init.store.read({ grep: re });
      const first = seen.lines[0];
      if (first) {
        const line = stripAnsi(first.text);
        const m = re.exec(line);
        if (m) return Promise.resolve({ status: 'matched', match: m[0], line: line.slice(0, 500), elapsedMs: 0 });
      }
    }
    if (this.ended) return Promise.resolve({ status: 'exited', exitCode: this.exitCode ?? 0, signal: this.exitSignal, elapsedMs: 0 });
    if (options.stopOnInput && this.waiting) return Promise.resolve({ status: 'waiting-for-input', waiting: this.waiting, elapsedMs: 0 });
    return new Promise((resolve) => {
      const w: Waiter = { test, resolve, stopOnInput: !!options.stopOnInput, started };
      w.timer = setTimeout(() => this.settle(w, { status: 'timeout', elapsedMs: Date.now() - started }), Math.max(0, timeoutMs));
      this.waiters.add(w);
    });
  }

  read(options?: SpoolReadOptions): SpoolReadResult {
    return this.init.store.read(options);
  }

  /** Ends the yield watcher and timers without touching the process (manager shutdown). */
  detach(): void {
    this.yieldWatcher.stop();
    for (const w of [...this.waiters]) this.settle(w, { status: 'timeout', elapsedMs: Date.now() - w.started });
  }
}

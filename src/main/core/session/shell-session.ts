/**
 * A persistent shell (bash/zsh with OSC hooks, dash/sh/fish with sentinels, local or over ssh) in
 * a PTY. One command at a time; output between the nonce'd start and end markers is the
 * command's output — the echo of the command line, prompts and markers are never delivered.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecRequest } from '../exec/types.js';
import type { PtyExit, PtyPort, PtyProcess } from '../pty/types.js';
import type { ProcessTableImpl } from '../process/process-table.js';
import { KILL_GRACE_MS, TrackedProcess } from '../process/tracked-process.js';
import { findProcesses, readStat, sessionMembers } from '../../platform/platform.js';
import { groupMembers, jobStillStarting, lateMembers } from './job-start.js';
import { commandFromFile, commandLine, environmentFromDump, hiddenCommandLine, LONG_COMMAND_FILE_BYTES, localLaunch, modeOf, remoteLaunch, syntaxOf } from './integration.js';
import { MarkerParser } from './marker-parser.js';
import type {
  CreateSessionError,
  IntegrationMode,
  Outcome,
  OutputStore,
  ProcessControl,
  Session,
  SessionEvent,
  SessionInfo,
  SessionRunRequest,
  SessionRunResult,
  SessionState,
  ShellKind,
} from './types.js';

/** A shell that has not printed its ready marker by then is reported as failed (ssh: login). */
export const SHELL_START_TIMEOUT_MS = 15_000;
/** After an abort's ^C, escalate to TERM/KILL of the foreground group after this. */
export const ABORT_ESCALATE_MS = 1000;
/** Grace between HUP and KILL when a shell is closed. */
export const CLOSE_GRACE_MS = 1000;
/** How often an interrupted command's foreground group is looked at (after the ^C, and in its TERM grace: a /proc read each time). */
const GROUP_POLL_MS = 50;
/**
 * Longest a ^C waits for the foreground process to leave the shell's fork-to-exec window (a fork
 * and exec take well under a millisecond to a few ms on a loaded machine; a subshell that traps INT
 * looks the same forever and gets its ^C after this).
 */
const FORK_WINDOW_WAIT_MS = 200;
/**
 * Longest a ^C waits while the shell itself is running with no foreground job: it may be about to
 * start one (a ^C in the middle of forking a pipeline can end its first member before the last one
 * starts), or be busy with builtins (a `while :` loop), which this delays by as much.
 */
const SHELL_BUSY_WAIT_MS = 30;
/** How often a starting job is looked at while a ^C waits for it (a /proc scan of the session). */
const FORK_WINDOW_POLL_MS = 2;
/** An idle shell answers the hidden environment read in milliseconds; one that has not by then is treated as busy. */
export const ENV_READ_TIMEOUT_MS = 2000;
const DEFAULT_COLS = 120;
const DEFAULT_ROWS = 40;

export interface ShellSessionConfig {
  name: string;
  kind: ShellKind;
  path: string;
  cwd: string;
  env: Record<string, string>;
  ssh?: string;
  sshArgs?: string[];
  cols?: number;
  rows?: number;
}

export interface ShellSessionDeps {
  port: PtyPort;
  table: ProcessTableImpl;
  newStore: (id: string, meta: { command: string; cwd: string }) => OutputStore;
  emit: (event: SessionEvent) => void;
}

interface Running {
  tracked: TrackedProcess;
  request: SessionRunRequest & { onData: ExecRequest['onData'] };
  phase: 'written' | 'running';
  started: number;
  resolve: (r: SessionRunResult) => void;
  /** Simple commands mish put before the user's (env exports, the cd of `cwd`), in order: not the user's segments. */
  ownSegments: string[];
  /** Resolves at the start marker: the shell has read the command line and runs it. */
  begun: Promise<void>;
  markBegun: () => void;
}

/** A command mish runs in the shell for itself: no process-table entry, no events, its output dropped. */
interface Internal {
  phase: 'written' | 'running';
  /** The end marker's status, or undefined when the shell ended first. */
  done: (exitCode: number | undefined) => void;
}

/** The shell's exported environment as last read, for processes started from this session. */
export interface EnvironmentSnapshot {
  env: Record<string, string>;
  at: number;
}

export class ShellSession implements Session {
  readonly name: string;
  private pty!: PtyProcess;
  private parser!: MarkerParser;
  private state: SessionState = 'starting';
  private cwd: string;
  /** The shell's CDPATH as its prompt hook last reported it (D marker before R or E; none: unset). */
  private cdpath: string | undefined;
  /** A D marker's value, until the R or E marker it comes before. */
  private pendingCdpath: string | undefined;
  private commands = 0;
  /** Private directory (0700) for long commands delivered as files (typedLine); removed when the session closes. */
  private commandDir: string | undefined;
  private lastExitCode: number | undefined;
  private readonly createdAt = Date.now();
  /** The PTY's current size (reported in info()). */
  private size = { cols: DEFAULT_COLS, rows: DEFAULT_ROWS };
  private running: Running | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** User commands running or waiting in the queue. */
  private queued = 0;
  private internal: Internal | undefined;
  private envRead: Promise<EnvironmentSnapshot | undefined> | undefined;
  private lastEnv: EnvironmentSnapshot | undefined;
  private readyResolve: ((ok: boolean) => void) | undefined;
  private exitInfo: PtyExit | undefined;
  private readonly exited: Promise<PtyExit>;
  private resolveExited!: (e: PtyExit) => void;
  private startupNoise = '';
  readonly mode: IntegrationMode;

  private constructor(
    readonly config: ShellSessionConfig,
    private readonly deps: ShellSessionDeps,
  ) {
    this.name = config.name;
    this.cwd = config.cwd;
    this.mode = modeOf(config.kind);
    this.exited = new Promise((r) => (this.resolveExited = r));
  }

  /** Starts the shell and waits for its ready marker. */
  static async start(config: ShellSessionConfig, deps: ShellSessionDeps): Promise<Outcome<ShellSession, CreateSessionError>> {
    const s = new ShellSession(config, deps);
    const err = await s.boot();
    if (err) return { ok: false, error: err };
    return { ok: true, value: s };
  }

  private async boot(): Promise<CreateSessionError | undefined> {
    const nonce = randomBytes(12).toString('hex');
    this.parser = new MarkerParser(nonce);
    const c = this.config;
    const launch = c.ssh ? remoteLaunch(c.kind, c.ssh, c.sshArgs ?? [], nonce, c.env) : localLaunch(c.kind, c.path, nonce, c.env);
    try {
      this.size = { cols: c.cols ?? DEFAULT_COLS, rows: c.rows ?? DEFAULT_ROWS };
      this.pty = this.deps.port.spawn(launch.file, launch.args, { cwd: c.cwd, env: launch.env, cols: this.size.cols, rows: this.size.rows });
    } catch (e) {
      return { kind: 'start-failed', message: `cannot start ${launch.file}: ${(e as Error).message}` };
    }
    const ready = new Promise<boolean>((r) => (this.readyResolve = r));
    this.pty.onData((chunk) => this.onData(chunk));
    this.pty.onExit((exit) => this.onExit(exit));
    const timer = setTimeout(() => this.readyResolve?.(false), SHELL_START_TIMEOUT_MS);
    const ok = await ready;
    clearTimeout(timer);
    if (!ok) {
      const why = this.exitInfo ? `exited with ${this.exitInfo.exitCode}` : `no ready marker within ${SHELL_START_TIMEOUT_MS} ms`;
      await this.close();
      const noise = this.startupNoise.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').trim().slice(-500);
      return { kind: 'start-failed', message: `${c.ssh ? `ssh ${c.ssh}` : c.path} ${why}${noise ? `: ${noise}` : ''}` };
    }
    // Remote sessions: the remote cwd comes from the first prompt; ask for it with a no-op.
    if (c.ssh) await this.run({ command: 'true', onData: () => {} });
    this.state = 'idle';
    return undefined;
  }

  get pid(): number {
    return this.pty.pid;
  }

  info(): SessionInfo {
    return {
      name: this.name,
      shell: this.config.ssh ? this.config.kind : this.config.path,
      kind: this.config.kind,
      integration: this.mode,
      remote: this.config.ssh,
      pid: this.pty?.pid ?? 0,
      cwd: this.cwd,
      ...(this.cdpath ? { cdpath: this.cdpath } : {}),
      state: this.state,
      createdAt: this.createdAt,
      commands: this.commands,
      lastExitCode: this.lastExitCode,
      runningCommandId: this.running?.tracked.id,
      cols: this.size.cols,
      rows: this.size.rows,
    };
  }

  get alive(): boolean {
    return this.exitInfo === undefined && this.state !== 'closed';
  }

  get shellExit(): PtyExit | undefined {
    return this.exitInfo;
  }

  /** Session interface: process control of the running command. */
  current(): ProcessControl | undefined {
    return this.running?.tracked;
  }

  private onData(chunk: Uint8Array): void {
    for (const ev of this.parser.feed(chunk)) {
      const cur = this.running;
      switch (ev.type) {
        case 'data':
          if (cur?.phase === 'running') {
            cur.request.onData(ev.bytes);
            cur.tracked.output(ev.bytes);
            this.deps.emit({ type: 'raw', source: { kind: 'command', id: cur.tracked.id, session: this.name }, chunk: ev.bytes });
          } else if (this.state === 'starting' && this.startupNoise.length < 4096) {
            this.startupNoise += Buffer.from(ev.bytes).toString('utf8');
          }
          break;
        case 'cdpath':
          this.pendingCdpath = ev.value;
          break;
        case 'ready':
          this.cdpath = this.pendingCdpath;
          this.pendingCdpath = undefined;
          this.readyResolve?.(true);
          this.readyResolve = undefined;
          break;
        case 'start':
          if (cur && cur.phase === 'written') {
            cur.phase = 'running';
            cur.tracked.begin();
            cur.markBegun();
          } else if (this.internal?.phase === 'written') this.internal.phase = 'running';
          break;
        case 'segment':
          if (cur?.phase === 'running') {
            if (cur.ownSegments.length && cur.ownSegments[0] === ev.command) {
              cur.ownSegments.shift();
              break;
            }
            cur.ownSegments.length = 0;
            cur.request.onSegment?.(ev.command);
            this.deps.emit({ type: 'segment', id: cur.tracked.id, session: this.name, command: ev.command });
          }
          break;
        case 'end':
          if (ev.cwd) this.cwd = ev.cwd;
          this.cdpath = this.pendingCdpath;
          this.pendingCdpath = undefined;
          if (cur && cur.phase === 'running') this.finishCurrent(ev.exitCode, undefined, false);
          else if (this.internal?.phase === 'running') this.finishInternal(ev.exitCode);
          break;
      }
    }
  }

  private onExit(exit: PtyExit): void {
    const rest = this.parser.flush();
    if (rest.length && this.running?.phase === 'running') {
      this.running.request.onData(rest);
      this.running.tracked.output(rest);
    }
    this.exitInfo = exit;
    if (this.commandDir) rmSync(this.commandDir, { recursive: true, force: true });
    this.readyResolve?.(false);
    this.readyResolve = undefined;
    if (this.running) this.finishCurrent(exit.exitCode, exit.signal, true);
    this.finishInternal(undefined);
    const wasClosed = this.state === 'closed';
    this.state = wasClosed ? 'closed' : 'exited';
    this.resolveExited(exit);
    if (!wasClosed) this.deps.emit({ type: 'session-closed', session: this.name, reason: 'shell-exited', exitCode: exit.exitCode });
  }

  private finishCurrent(exitCode: number, signal: number | undefined, shellExited: boolean): void {
    const cur = this.running;
    if (!cur) return;
    this.running = undefined;
    this.lastExitCode = exitCode;
    if (!shellExited) this.state = 'idle';
    cur.tracked.finish(exitCode, signal);
    const durationMs = Date.now() - cur.started;
    this.deps.emit({ type: 'command-end', id: cur.tracked.id, session: this.name, exitCode, cwd: this.cwd, shellExited, durationMs });
    cur.resolve({
      exitCode,
      ...(signal !== undefined ? { signal } : {}),
      cwd: this.cwd,
      shellExited,
      id: cur.tracked.id,
      session: this.name,
      durationMs,
    });
  }

  /** Runs one command; concurrent calls queue. */
  run(request: ExecRequest | (SessionRunRequest & { onData: ExecRequest['onData'] })): Promise<SessionRunResult> {
    this.queued++;
    const p = this.queue.then(() => this.runNow(request)).finally(() => this.queued--);
    this.queue = p.catch(() => undefined);
    return p;
  }

  /** The exported environment as last read by exportedEnvironment(). */
  get lastEnvironment(): EnvironmentSnapshot | undefined {
    return this.lastEnv;
  }

  /**
   * The shell's exported environment now (what `export VAR=…` / `set -x` left), read by a hidden
   * `env -0` into a private temp file between user commands. Undefined when the shell is busy
   * (a command runs or waits), is remote, has ended, or does not answer within ENV_READ_TIMEOUT_MS.
   */
  exportedEnvironment(): Promise<EnvironmentSnapshot | undefined> {
    if (this.config.ssh || !this.alive || this.state !== 'idle' || this.queued > 0) return Promise.resolve(undefined);
    if (this.envRead) return this.envRead;
    const done = this.queue.then(() => this.readEnvironmentNow());
    // User commands wait for the read itself, not for the timeout: its markers must not be taken for theirs.
    this.queue = done.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const read = Promise.race([done, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ENV_READ_TIMEOUT_MS)))]).finally(() => {
      clearTimeout(timer);
      this.envRead = undefined;
    });
    this.envRead = read;
    return read;
  }

  private async readEnvironmentNow(): Promise<EnvironmentSnapshot | undefined> {
    if (!this.alive) return undefined;
    const dir = mkdtempSync(join(tmpdir(), 'mish-env-'));
    const file = join(dir, 'env');
    try {
      const status = await new Promise<number | undefined>((resolve) => {
        this.internal = { phase: 'written', done: resolve };
        this.pty.write(hiddenCommandLine(`command env -0 > ${syntaxOf(this.config.kind).quote(file)}`, this.config.kind));
      });
      if (status !== 0) return undefined;
      this.lastEnv = { env: environmentFromDump(readFileSync(file), this.config.kind, this.config.env), at: Date.now() };
      return this.lastEnv;
    } catch {
      return undefined;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  private finishInternal(exitCode: number | undefined): void {
    const internal = this.internal;
    this.internal = undefined;
    internal?.done(exitCode);
  }

  private runNow(request: SessionRunRequest & { onData: ExecRequest['onData'] }): Promise<SessionRunResult> {
    const id = this.deps.table.nextId('command');
    if (!this.alive) {
      return Promise.resolve({ exitCode: this.exitInfo?.exitCode ?? 255, cwd: this.cwd, shellExited: true, id, session: this.name, durationMs: 0 });
    }
    let text = request.command;
    const syntax = syntaxOf(this.config.kind);
    const pre: string[] = [];
    for (const [k, v] of Object.entries(request.env ?? {})) if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) pre.push(syntax.exportVar(k, v));
    // A cwd that cannot be entered must not run the command somewhere else: the group runs only after cd succeeds.
    const cd = request.cwd ? syntax.cd(request.cwd) : undefined;
    if (cd) text = syntax.afterCd(cd, text);
    if (pre.length) text = `${pre.join('\n')}\n${text}`;
    const ownSegments = cd ? [...pre, cd] : pre;
    if (request.cols && request.rows) {
      this.pty.resize(request.cols, request.rows);
      this.size = { cols: request.cols, rows: request.rows };
    }
    return new Promise<SessionRunResult>((resolve) => {
      const store = this.deps.newStore(id, { command: request.command, cwd: this.cwd });
      const tracked = new TrackedProcess({
        id,
        kind: 'command',
        session: this.name,
        command: request.command,
        cwd: this.cwd,
        pid: this.pty.pid,
        pgid: this.pty.pid,
        store,
        driver: this.commandDriver(),
        leaderPid: this.config.ssh ? undefined : this.pty.pid,
        ptsName: this.config.ssh ? undefined : this.pty.ptsName,
        deferYield: true,
        onChange: (entry) => this.deps.emit({ type: 'process', change: 'updated', entry }),
        onWaiting: (waiting) => this.deps.emit({ type: 'waiting-for-input', source: { kind: 'command', id, session: this.name }, waiting }),
      });
      this.deps.table.add(tracked);
      let markBegun = () => {};
      const begun = new Promise<void>((r) => (markBegun = r));
      this.running = { tracked, request, phase: 'written', started: Date.now(), resolve, ownSegments, begun, markBegun };
      this.state = 'busy';
      this.commands++;
      this.deps.emit({ type: 'process', change: 'added', entry: tracked.entry() });
      this.deps.emit({ type: 'command-start', id, session: this.name, command: request.command, cwd: this.cwd, at: Date.now() });
      const driver = this.commandDriver();
      request.onStart?.({
        id,
        session: this.name,
        pid: this.pty.pid,
        write: (d) => tracked.send(typeof d === 'string' ? d : Buffer.from(d).toString('utf8')),
        resize: (c, r) => {
          this.pty.resize(c, r);
          this.size = { cols: c, rows: r };
        },
        kill: (sig = 'SIGTERM') => driver.signal(sig),
        // Backpressure from the squash worker: the silence while paused is ours, not the program's (no input-wait check).
        pause: () => {
          tracked.holdYield(true);
          this.pty.pause?.();
        },
        resume: () => {
          this.pty.resume?.();
          tracked.holdYield(false);
        },
      });
      const signal = request.signal;
      if (signal) {
        const onAbort = () => void this.interrupt(tracked, begun);
        if (signal.aborted) onAbort();
        else {
          signal.addEventListener('abort', onAbort, { once: true });
          void tracked.done.then(() => signal.removeEventListener('abort', onAbort));
        }
      }
      this.pty.write(this.typedLine(text));
      // While the shell runs it: the spool's metadata file, which a silent command's reply would otherwise wait for at its close.
      store.handedOver?.();
    });
  }

  /** What is typed to run `text`: the text itself, or for a long one on a local POSIX shell, a line that runs it from a private file. */
  private typedLine(text: string): string {
    const kind = this.config.kind;
    if (this.config.ssh || kind === 'fish' || Buffer.byteLength(text) <= LONG_COMMAND_FILE_BYTES) return commandLine(text, kind);
    this.commandDir ??= mkdtempSync(join(tmpdir(), 'mish-cmd-'));
    const file = join(this.commandDir, `c${this.commands}`);
    try {
      // 0600 in a 0700 directory (mkdtemp's mode): the command may hold what other users must not read.
      writeFileSync(file, text, { mode: 0o600 });
    } catch {
      return commandLine(text, kind);
    }
    return commandFromFile(file, kind);
  }

  /**
   * ^C, then TERM/KILL of the foreground group, then the shell itself. Members of the group
   * that ignore SIGINT (`cmd &` inside a script: non-interactive shells start background
   * children with SIGINT ignored) would outlive the interrupted command: they go too.
   * The ^C waits for the start marker: one that reaches the shell before it has read the command
   * line (an abort right after the write, or already aborted) makes the tty flush that line, or
   * only interrupts the prompt, and then the command runs uninterrupted or never starts.
   */
  private async interrupt(tracked: TrackedProcess, begun: Promise<void>): Promise<void> {
    if (tracked.ended) return;
    await settledWithin(Promise.race([begun, tracked.done]), ABORT_ESCALATE_MS);
    if (tracked.ended) return;
    const fg = await this.foregroundReadyForCtrlC(tracked);
    if (tracked.ended) return;
    // Who the ^C is for, from the same look that decided it may go now (see lateMembers).
    const members = new Set(fg === undefined ? [] : groupMembers(fg, this.pty.pid));
    this.pty.write('\x03');
    if (!(await this.interruptEnds(tracked, fg, members))) await tracked.kill(KILL_GRACE_MS);
    if (fg !== undefined) await this.endGroup(fg);
  }

  /**
   * Whether the interrupted command ends within ABORT_ESCALATE_MS. A ^C that reaches the shell
   * just after the start marker, before it has handed the terminal to the job it starts, is held
   * by the shell until that job ends, and the job never sees it: a foreground group that appears
   * after the ^C gets SIGINT itself, as if the ^C had come a moment later (once it can take it:
   * jobStillStarting). A group that had the ^C never gets a second SIGINT; a member of it that
   * was not there when the ^C was decided on gets one, once (lateMembers).
   */
  private async interruptEnds(tracked: TrackedProcess, hadCtrlC: number | undefined, members: Set<number>): Promise<boolean> {
    const signalled = new Set([hadCtrlC]);
    /** When each group was first seen: one still being started gets SIGINT once out of its fork window, or after FORK_WINDOW_WAIT_MS anyway. */
    const seen = new Map<number, number>();
    const start = Date.now();
    const end = start + ABORT_ESCALATE_MS;
    for (let left = ABORT_ESCALATE_MS; left > 0; left = end - Date.now()) {
      // A ^C sent while the shell was busy with no job in front (forking one, under load) may be
      // followed at once by the job it was meant for: look closely for it then.
      const appearing = hadCtrlC === undefined && Date.now() - start < FORK_WINDOW_WAIT_MS;
      const waiting = appearing || [...seen.keys()].some((g) => !signalled.has(g));
      if (await settledWithin(tracked.done, Math.min(waiting ? FORK_WINDOW_POLL_MS : GROUP_POLL_MS, left))) return true;
      if (hadCtrlC !== undefined) {
        for (const pid of lateMembers(hadCtrlC, this.pty.pid, members)) {
          members.add(pid);
          safeKill(pid, 'SIGINT');
        }
      }
      const fg = this.foregroundGroup();
      if (fg === undefined || signalled.has(fg)) continue;
      if (!seen.has(fg)) seen.set(fg, Date.now());
      if (!jobStillStarting(fg, this.pty.pid) || Date.now() - seen.get(fg)! >= FORK_WINDOW_WAIT_MS) {
        signalled.add(fg);
        safeKill(-fg, 'SIGINT');
      }
    }
    return tracked.ended;
  }

  /**
   * The foreground group once it can take a ^C, after a bounded wait: while the shell runs with no
   * foreground job it may be forking one (SHELL_BUSY_WAIT_MS), and a ^C that reaches bash's child
   * between fork and exec is swallowed there and the program runs on (jobStillStarting).
   */
  private async foregroundReadyForCtrlC(tracked: TrackedProcess): Promise<number | undefined> {
    const start = Date.now();
    for (;;) {
      const fg = this.foregroundGroup();
      const waited = Date.now() - start;
      const starting =
        fg === undefined
          ? !this.config.ssh && waited < SHELL_BUSY_WAIT_MS && readStat(this.pty.pid)?.state === 'R'
          : waited < FORK_WINDOW_WAIT_MS && jobStillStarting(fg, this.pty.pid);
      if (!starting || (await settledWithin(tracked.done, FORK_WINDOW_POLL_MS))) return fg;
    }
  }

  /** TERMs what is left of a (former) foreground group of this terminal, KILLs it after a grace. */
  private async endGroup(pgid: number): Promise<void> {
    // Only processes still in this shell's session: a recycled pgid elsewhere is never touched.
    const members = () => findProcesses((s) => s.pgrp === pgid && s.session === this.pty.pid);
    if (members().length === 0) return;
    safeKill(-pgid, 'SIGTERM');
    const end = Date.now() + KILL_GRACE_MS;
    while (Date.now() < end && members().length > 0) await delay(GROUP_POLL_MS);
    if (members().length > 0) safeKill(-pgid, 'SIGKILL');
  }

  /** Foreground process group of the shell's terminal when it is not the shell itself. */
  private foregroundGroup(): number | undefined {
    if (this.config.ssh) return undefined;
    const st = readStat(this.pty.pid);
    if (!st || st.tpgid <= 0 || st.tpgid === st.pgrp) return undefined;
    return st.tpgid;
  }

  private commandDriver() {
    const keyFor: Partial<Record<NodeJS.Signals, string>> = { SIGINT: '\x03', SIGQUIT: '\x1c', SIGTSTP: '\x1a' };
    return {
      write: (data: string) => this.pty.write(data),
      signal: (sig: NodeJS.Signals) => {
        const fg = this.foregroundGroup();
        if (fg) {
          try {
            process.kill(-fg, sig);
            return;
          } catch {
            // group gone
          }
        }
        const key = keyFor[sig];
        if (key) this.pty.write(key);
      },
      kill: async (graceMs: number) => {
        const cur = this.running?.tracked;
        if (!cur) return;
        const fg = this.foregroundGroup();
        if (fg) safeKill(-fg, 'SIGTERM');
        else this.pty.write('\x03');
        if (await settledWithin(cur.done, graceMs)) return;
        const fg2 = this.foregroundGroup();
        if (fg2) safeKill(-fg2, 'SIGKILL');
        if (await settledWithin(cur.done, graceMs)) return;
        // The shell itself is stuck (a builtin ignoring ^C, a nested shell): end the shell.
        await this.close();
      },
    };
  }

  /** Ends the shell and everything in its terminal session. */
  async close(): Promise<void> {
    if (!this.pty) return;
    const wasAlive = this.exitInfo === undefined;
    if (this.state !== 'exited') this.state = 'closed';
    if (wasAlive) {
      const members = this.config.ssh ? [] : sessionMembers(this.pty.pid);
      this.pty.kill('SIGHUP');
      if (!(await settledWithin(this.exited, CLOSE_GRACE_MS))) this.pty.kill('SIGKILL');
      for (const pid of members) safeKill(pid, 'SIGKILL');
      await settledWithin(this.exited, CLOSE_GRACE_MS);
    }
    // Jobs that survived the hangup (nohup, disown) still belong to this session: end them.
    if (!this.config.ssh) for (const pid of sessionMembers(this.pty.pid)) safeKill(pid, 'SIGKILL');
    if (this.commandDir) rmSync(this.commandDir, { recursive: true, force: true });
    this.state = 'closed';
  }
}

function safeKill(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

async function settledWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let t: NodeJS.Timeout | undefined;
  const r = await Promise.race([p.then(() => true), new Promise<boolean>((res) => (t = setTimeout(() => res(false), ms)))]);
  if (t) clearTimeout(t);
  return r;
}

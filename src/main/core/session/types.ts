/**
 * Public API of persistent sessions, background processes, the process table and the yield
 * engine. Hosts (MCP server, console, CLI) code against these types only; the implementation
 * lives in session-manager.ts and friends. Keep this file stable: additions only.
 */
import type { ExecControl, ExecRequest, ExecResult, Executor } from '../exec/types.js';

/** Shells a session can run. bash/zsh get full integration; dash/sh/fish get nonce'd sentinels. */
export type ShellKind = 'bash' | 'zsh' | 'dash' | 'sh' | 'fish';

/** How command boundaries are detected in a session. */
export type IntegrationMode = 'osc' | 'sentinel';

export interface SessionCreateOptions {
  /** Session name; default "default". Names are unique within a manager. */
  name?: string;
  /** Shell kind or absolute path of a shell; default: bash. */
  shell?: ShellKind | string;
  /** Initial working directory; default: the manager's cwd. */
  cwd?: string;
  /** Extra environment for the shell (merged over the manager's base env). */
  env?: Record<string, string>;
  /**
   * Remote session through the system `ssh` client: "user@host" or "host". The same shell
   * integration is injected on the remote side (remote shell: bash unless `shell` says otherwise).
   */
  ssh?: string;
  /** Extra arguments for `ssh` before the destination (e.g. ["-p", "2222", "-i", key]). */
  sshArgs?: string[];
  cols?: number;
  rows?: number;
}

export type SessionState = 'starting' | 'idle' | 'busy' | 'exited' | 'closed';

/** A snapshot of a session, safe to serialise. */
export interface SessionInfo {
  name: string;
  /** Absolute path of the shell (remote: the remote shell name). */
  shell: string;
  kind: ShellKind;
  integration: IntegrationMode;
  /** "user@host" for remote sessions. */
  remote?: string;
  pid: number;
  /** Last known working directory (reported by the prompt hook after every command). */
  cwd: string;
  /** The shell's CDPATH, as the prompt hook reported it with the cwd (absent: unset or empty): a relative `cd` searches it, and the policy follows. */
  cdpath?: string;
  state: SessionState;
  createdAt: number;
  /** Commands run so far in this shell. */
  commands: number;
  lastExitCode?: number;
  /** Process-table id of the command running now, if any. */
  runningCommandId?: string;
  /** The PTY's size (operators render the terminal at it; watching never resizes it). */
  cols?: number;
  rows?: number;
}

/** What a session command returns: the Executor result plus session bookkeeping. */
export interface SessionRunResult extends ExecResult {
  /** Process-table id of this command (its raw output is in the spool under this id). */
  id: string;
  session: string;
  /**
   * Set when the previous shell of this session had ended (`exit 3`, crash) and this command
   * ran in a freshly started shell: say so to the agent (cwd/env were reset).
   */
  freshShell?: { previousExitCode?: number; reason: string };
  durationMs: number;
}

/** ExecControl of a session command, plus its process-table id (for "still running: c3"). */
export interface SessionExecControl extends ExecControl {
  /** Process-table id of the command ("c<N>"); its raw output is spooled under this id. */
  readonly id: string;
  readonly session: string;
}

/** Options of one command in a session (the router's ExecRequest plus the session name). */
export interface SessionRunRequest extends Omit<ExecRequest, 'onData' | 'onStart'> {
  /** Session name; default "default" (created on first use). */
  session?: string;
  onData?: (chunk: Uint8Array) => void;
  /** Fires before the command is written to the shell, with its id and controls. */
  onStart?: (control: SessionExecControl) => void;
}

/** A persistent shell. Implements the router's Executor. One command at a time. */
export interface Session extends Executor {
  readonly name: string;
  info(): SessionInfo;
  run(request: ExecRequest): Promise<SessionRunResult>;
  /** Process control for the command running now (send input, keys, signal), if any. */
  current(): ProcessControl | undefined;
  /** Ends the shell (HUP its process group, then KILL after a grace). */
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Process table

export type ProcessState = 'running' | 'waiting-for-input' | 'exited' | 'killed';

/** Why the yield engine believes a process waits for input. */
export type WaitReason = 'prompt-pattern' | 'secret-terminal-mode' | 'read-syscall' | 'silence';

export interface WaitingForInput {
  /** The prompt text as seen on the tail of the output (last non-empty line). */
  prompt: string;
  /** True when the terminal has ECHO off (password/passphrase prompt): never echo answers. */
  secret: boolean;
  reasons: WaitReason[];
  since: number;
}

export interface ProcessEntry {
  /** Stable id: "p<N>" for background processes, "c<N>" for session commands. */
  id: string;
  kind: 'spawn' | 'command';
  alias?: string;
  /** Session the process belongs to (session commands; spawns started "in" a session). */
  session?: string;
  command: string;
  cwd: string;
  pid: number;
  pgid: number;
  state: ProcessState;
  exitCode?: number;
  signal?: number;
  startedAt: number;
  endedAt?: number;
  /** Milliseconds since start (until end, once ended), at the time of the snapshot. */
  elapsedMs: number;
  /** Last non-empty output line, ANSI stripped, truncated. */
  lastLine: string;
  waiting?: WaitingForInput;
  /** Raw bytes and lines written so far. */
  rawBytes: number;
  rawLines: number;
  /** How to read the raw bytes back (`mish raw <id>`) when the output is spooled to disk. */
  spoolRef?: string;
}

export interface SpoolReadOptions {
  /** 1-based, inclusive. Default: 1. */
  fromLine?: number;
  /** 1-based, inclusive. Default: last line. */
  toLine?: number;
  /** Only lines matching this (string → substring, RegExp → test). */
  grep?: string | RegExp;
}

export interface SpoolReadResult {
  lines: { n: number; text: string }[];
  totalLines: number;
  /** Lines no longer stored: from the front of a bounded ring, or the middle of a long spooled output (-1: some, count unknown). */
  droppedLines: number;
  /** Spooled output: lines `from`..`to` were dropped from its middle; the lines in `cut` border the gap (numbering is the output's own either side). */
  gap?: { from: number; to: number; cut: number[] };
}

/**
 * Raw output store for one process or command. Backed by the core spool module
 * (src/main/core/spool) when available, else a bounded in-memory ring.
 */
export interface OutputStore {
  write(chunk: Uint8Array): void;
  close(result?: { exitCode?: number }): void;
  read(options?: SpoolReadOptions): SpoolReadResult;
  /** Where the raw bytes live (a file path) when the store is on disk. */
  readonly ref?: string;
  /**
   * The command has just been handed to the shell: a store on disk may create its metadata now,
   * while the command runs, rather than at close, when the reply waits for it.
   */
  handedOver?(): void;
}

export type WaitForResult =
  | { status: 'matched'; match: string; line: string; elapsedMs: number }
  | { status: 'exited'; exitCode: number; signal?: number; elapsedMs: number }
  | { status: 'timeout'; elapsedMs: number }
  | { status: 'waiting-for-input'; waiting: WaitingForInput; elapsedMs: number };

/**
 * Named keys for sendKeys: "Enter", "Tab", "Esc", "Backspace", "Up", "Down", "Left", "Right",
 * "Home", "End", "PageUp", "PageDown", "Space", "C-<letter>" (C-c, C-d, C-z, …), "M-<char>".
 * Anything else is sent literally.
 */
export type KeyName = string;

/** Control of one live (or ended) entry of the process table. */
export interface ProcessControl {
  readonly id: string;
  entry(): ProcessEntry;
  /** Write text to the process's terminal (no newline added). */
  send(text: string): void;
  sendKeys(keys: KeyName[]): void;
  signal(signal: NodeJS.Signals): void;
  /** TERM the process group, KILL after `graceMs`; resolves once it is gone. */
  kill(graceMs?: number): Promise<ProcessEntry>;
  /**
   * Resolves when the output (already received or future) matches `pattern`, the process
   * exits, or `timeoutMs` passes; with `stopOnInput` also when it starts waiting for input.
   */
  waitFor(pattern: RegExp | string | undefined, timeoutMs: number, options?: { stopOnInput?: boolean }): Promise<WaitForResult>;
  /** Exact raw output lines (from the spool). */
  read(options?: SpoolReadOptions): SpoolReadResult;
  /** Resolves when the process has ended. */
  readonly done: Promise<ProcessEntry>;
}

export interface SpawnOptions {
  cmd: string;
  alias?: string;
  cwd?: string;
  /**
   * Session whose cwd and current exported environment the process inherits (default: manager
   * cwd/env). A local idle session is asked for its environment (a hidden `env -0`); see SpawnEnvSource.
   */
  session?: string;
  env?: Record<string, string>;
  cols?: number;
  rows?: number;
}

/** Where the environment of a spawned process came from. */
export type SpawnEnvSource =
  /** The session shell's exported environment, read just before the start. */
  | { kind: 'session-now'; session: string }
  /** The session could not be asked (busy, or no answer): its environment as read at `at`. */
  | { kind: 'session-earlier'; session: string; at: number; why: string }
  /** The session could not be asked and never was: the environment it was created with. */
  | { kind: 'session-created'; session: string; why: string }
  /** No (local) session: the manager's environment. */
  | { kind: 'manager' };

/** A started background process, and where its environment came from. */
export interface SpawnedProcess extends ProcessControl {
  readonly envSource: SpawnEnvSource;
}

export interface ProcessTable {
  list(): ProcessEntry[];
  get(idOrAlias: string): ProcessEntry | undefined;
  /** `[procs] 2 running: dev(pid 123, 4m, "ready on :3000") …` — empty string when nothing to say. */
  digest(): string;
}

// ---------------------------------------------------------------------------------------------
// Events

export type ProcessSource = { kind: 'command' | 'spawn'; id: string; session?: string };

export type SessionEvent =
  | { type: 'session-created'; session: SessionInfo; restartOf?: string }
  | { type: 'session-closed'; session: string; reason: 'closed' | 'shell-exited' | 'restarted' | 'disposed'; exitCode?: number }
  | { type: 'raw'; source: ProcessSource; chunk: Uint8Array }
  | { type: 'command-start'; id: string; session: string; command: string; cwd: string; at: number }
  | { type: 'command-end'; id: string; session: string; exitCode: number; cwd?: string; shellExited: boolean; durationMs: number }
  | { type: 'segment'; id: string; session: string; command: string }
  | { type: 'process'; change: 'added' | 'updated' | 'removed'; entry: ProcessEntry }
  | { type: 'waiting-for-input'; source: ProcessSource; waiting: WaitingForInput }
  /**
   * Published by hosts (the router/squasher output) through SessionManager.publish: while a
   * command runs, its hazard lines as they are found; at its end (`final`), the whole condensed
   * reply, which supersedes the live lines. `reply`: the exact text of the tool reply the agent
   * received (sh_run adds its footer); `category`: the router's treatment of the command.
   */
  /** `asked`: with a tool's final reply, the command line the agent sent (mish may have run another form of it). */
  | { type: 'condensed'; source: ProcessSource; lines: string[]; final?: boolean; reply?: boolean; category?: string; asked?: string };

export type SessionEventListener = (event: SessionEvent) => void;

// ---------------------------------------------------------------------------------------------
// Manager

export type CreateSessionError =
  | { kind: 'exists'; message: string }
  | { kind: 'bad-cwd'; message: string }
  | { kind: 'bad-shell'; message: string }
  /** An ssh destination or option that could run something locally, or that ssh would misread. */
  | { kind: 'bad-ssh'; message: string }
  | { kind: 'start-failed'; message: string };

export type Outcome<T, E> = { ok: true; value: T } | { ok: false; error: E };

export interface SessionManager {
  create(options?: SessionCreateOptions): Promise<Outcome<SessionInfo, CreateSessionError>>;
  /** The named session, created with defaults on first use ("default" when omitted). */
  get(name?: string): Promise<Session>;
  list(): SessionInfo[];
  close(name: string): Promise<boolean>;
  /** Closes and recreates with the same options. */
  restart(name: string): Promise<Outcome<SessionInfo, CreateSessionError>>;
  /**
   * Runs a command in a session. If the shell had exited, a fresh one is started first and
   * the result's `freshShell` says so. `onStart` fires with the process-table id (control.id)
   * before the command is written, so a host can report it when its own timeout passes.
   */
  run(request: SessionRunRequest): Promise<SessionRunResult>;
  /** An Executor bound to a session, for the router. */
  executor(session?: string): Executor;
  spawn(options: SpawnOptions): Promise<Outcome<SpawnedProcess, { kind: 'bad-cwd' | 'alias-taken' | 'spawn-failed'; message: string }>>;
  /** Background process or session command by id or alias. */
  process(idOrAlias: string): ProcessControl | undefined;
  readonly processes: ProcessTable;
  subscribe(listener: SessionEventListener): () => void;
  publish(event: SessionEvent): void;
  /** Kills every process and closes every session; nothing outlives it. */
  dispose(): Promise<void>;
}

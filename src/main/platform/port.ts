/**
 * The platform port: every call mish makes to the operating system beyond Node's own API
 * (process table, a terminal's foreground job and termios state, the child subreaper, per-user
 * directories) goes through this interface. Two implementations: linux-port.ts (/proc, prctl)
 * and portable-port.ts (ps, stty, process groups; what macOS and the BSDs offer); platform.ts
 * picks one (MISH_PLATFORM=linux|portable overrides the choice by OS).
 */

/** One process, as the engine needs it (field names as in Linux's /proc/<pid>/stat). */
export interface ProcStat {
  pid: number;
  /** One-letter state: R running, S sleeping, D disk wait, T stopped, Z zombie, … */
  state: string;
  ppid: number;
  pgrp: number;
  session: number;
  ttyNr: number;
  /** Foreground process group of the process's terminal (-1/0: none). */
  tpgid: number;
}

/** 'unreadable': the process's state is closed to us (a setuid program such as sudo, run by an unprivileged user). */
export type BlockedOn = 'tty-read' | 'poll' | 'unreadable' | undefined;

export interface ForegroundProbe {
  /** Some process of the foreground group is blocked reading the terminal. */
  ttyRead: boolean;
  /** Some process of the foreground group waits in select/poll (REPLs with readline). */
  polling: boolean;
  /**
   * Some sleeping process of the foreground group cannot be looked into (another user's: sudo,
   * su, passwd run by an unprivileged user are setuid root). Only the terminal mode can then say
   * whether it reads a password.
   */
  unreadable: boolean;
  pids: number[];
}

export interface TermMode {
  echo: boolean;
  icanon: boolean;
}

export type SubreaperOutcome = { ok: true; dispose(): void } | { ok: false; why: string };

export interface PlatformPort {
  readonly name: 'linux' | 'portable';
  readStat(pid: number): ProcStat | undefined;
  /** Every process now, zombies included. */
  allProcesses(): ProcStat[];
  /** Live (non-zombie) processes satisfying `pick`. */
  findProcesses(pick: (s: ProcStat) => boolean): ProcStat[];
  /** Every live process below `root` in the process tree, parents before children. */
  descendantsOf(root: number): number[];
  /** The foreground group of the terminal led by `leaderPid`; undefined when it cannot be known. */
  probeForeground(leaderPid: number, ptsName: string | undefined): ForegroundProbe | undefined;
  /** Some process of that foreground group is computing (state R); undefined when unknown. */
  foregroundRunning(leaderPid: number): boolean | undefined;
  /** The terminal's line discipline flags; undefined when they cannot be read. */
  readTermMode(ptsName: string): Promise<TermMode | undefined>;
  /** Live processes of the terminal session led by `sid`, leader included. */
  sessionMembers(sid: number): number[];
  /** Live pids whose environment holds `entry` ("NAME=value") exactly. */
  processesWithEnv(entry: string): number[];
  /** The program a process runs (to compare two processes'); undefined when unknown. */
  executableOf(pid: number): string | undefined;
  /** A process's arguments (argv; [] for a zombie); undefined when it cannot be read. */
  commandLineOf(pid: number): string[] | undefined;
  /** Does the process block or catch SIGINT? False when unknown. */
  blocksOrCatchesSigint(pid: number): boolean;
  /** The calling thread's own id for setpriority, where threads have one; undefined elsewhere. */
  currentThreadId(): number | undefined;
  /**
   * Re-parent orphaned descendants to this process (Linux's child subreaper). Where that does
   * not exist the outcome says why and ownership rests on process groups and the owner variable.
   */
  becomeChildSubreaper(): Promise<SubreaperOutcome>;
  /** The per-user private runtime directory of mish (sockets); created by its users 0700. */
  runtimeDir(env: NodeJS.ProcessEnv): string;
}

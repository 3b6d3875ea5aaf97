/**
 * Whether a ^C sent now to a terminal's foreground group would be lost in a shell's fork-to-exec
 * window (through the platform port: /proc on Linux, ps elsewhere; where neither answers,
 * nothing is found and nothing is waited for).
 *
 * bash forks a command's process with its own SIGINT handler installed (and SIGINT blocked for a
 * while), makes it the terminal's foreground group, and only then puts SIGINT back to default and
 * execs. A ^C in that window is taken by bash's handler in the child, which execs the program
 * anyway: `sleep 30` runs on as if nothing had been sent (and in `sleep 30 | cat` a `cat` still in
 * its window outlives the sleep and the pipeline reports 0). Such a process runs the shell's
 * binary, blocks or catches SIGINT, and has no children yet. A subshell or bash script waiting for
 * its child catches SIGINT too but has that child, so it does not count; a childless subshell
 * that traps INT does, for the bounded wait of its caller.
 */
import { blocksOrCatchesSigint, executableOf, findProcesses, readStat } from '../../platform/platform.js';

/**
 * True while foreground group `pgid` of shell `shellPid`'s terminal session is still being
 * started: the shell itself is not asleep yet (it forks a pipeline's members one by one: a ^C
 * before the last fork ends `sleep 30` in `sleep 30 | cat` and `cat` starts after it, reads EOF
 * and the pipeline reports 0), or a member is between fork and exec.
 */
export function jobStillStarting(pgid: number, shellPid: number): boolean {
  // The process table first, then each process's executable and signals: a port that reads them
  // from separate snapshots (ps) then sees every process of the table in the later one, or gone.
  const shell = readStat(shellPid);
  const inSession = findProcesses((s) => s.session === shellPid);
  const shellExe = executableOf(shellPid);
  if (shellExe === undefined || shell === undefined) return false;
  if (shell.state !== 'S') return true;
  const parents = new Set(inSession.map((s) => s.ppid));
  return inSession.some((s) => s.pgrp === pgid && !parents.has(s.pid) && inForkWindow(s.pid, shellExe));
}

/** Still running the shell's binary with SIGINT blocked or caught: a ^C now would be swallowed. */
function inForkWindow(pid: number, shellExe: string): boolean {
  return executableOf(pid) === shellExe && blocksOrCatchesSigint(pid);
}

/** The members of group `pgid` in shell `shellPid`'s terminal session now. */
export function groupMembers(pgid: number, shellPid: number): number[] {
  return findProcesses((s) => s.pgrp === pgid && s.session === shellPid).map((s) => s.pid);
}

/**
 * Members of group `pgid` that were not there when the ^C was decided on (`before`) and are past
 * their fork window now. A member forked after that look (a table a moment old: the portable
 * port's `ps` takes tens of ms on a loaded machine) may have been in its fork window when the ^C
 * came and swallowed it: `sleep 30 | cat` then ends 0 when the sleep dies and `cat` reads EOF.
 * Each is owed the SIGINT it missed, once.
 */
export function lateMembers(pgid: number, shellPid: number, before: ReadonlySet<number>): number[] {
  const shellExe = executableOf(shellPid);
  return groupMembers(pgid, shellPid).filter((pid) => !before.has(pid) && (shellExe === undefined || !inForkWindow(pid, shellExe)));
}

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
  const shellExe = executableOf(shellPid);
  const shell = readStat(shellPid);
  if (shellExe === undefined || shell === undefined) return false;
  if (shell.state !== 'S') return true;
  const inSession = findProcesses((s) => s.session === shellPid);
  const parents = new Set(inSession.map((s) => s.ppid));
  return inSession.some((s) => s.pgrp === pgid && !parents.has(s.pid) && executableOf(s.pid) === shellExe && blocksOrCatchesSigint(s.pid));
}

/**
 * The platform port in use (port.ts): the Linux one on Linux, the portable one elsewhere;
 * MISH_PLATFORM=linux|portable chooses (CI runs the session, yield and process-ownership tests
 * through the portable one too). The engine reaches the OS only through these functions
 * (scripts/check-layers.mjs keeps /proc, stty, prctl and XDG_RUNTIME_DIR out of src/main/core).
 */
import { linuxPort } from './linux-port.js';
import type { PlatformPort, ProcStat } from './port.js';
import { portablePort } from './portable-port.js';

export type { BlockedOn, ForegroundProbe, PlatformPort, ProcStat, SubreaperOutcome, TermMode } from './port.js';

/** The port MISH_PLATFORM names, else the one for this OS; an unknown name is a one-line error. */
export function choosePlatform(env: NodeJS.ProcessEnv = process.env, os: NodeJS.Platform = process.platform): PlatformPort {
  const want = env.MISH_PLATFORM;
  if (want === 'portable') return portablePort;
  if (want === 'linux') return linuxPort;
  if (want) throw new Error(`mish: MISH_PLATFORM must be linux or portable, got ${JSON.stringify(want)}`);
  return os === 'linux' ? linuxPort : portablePort;
}

let chosen: PlatformPort | undefined;
/** The port of this process (chosen once). */
export function platform(): PlatformPort {
  return (chosen ??= choosePlatform());
}

export const readStat = (pid: number) => platform().readStat(pid);
export const allProcesses = () => platform().allProcesses();
export const findProcesses = (pick: (s: ProcStat) => boolean) => platform().findProcesses(pick);
export const descendantsOf = (root: number) => platform().descendantsOf(root);
export const probeForeground = (leaderPid: number, ptsName: string | undefined) => platform().probeForeground(leaderPid, ptsName);
export const foregroundRunning = (leaderPid: number) => platform().foregroundRunning(leaderPid);
export const readTermMode = (ptsName: string) => platform().readTermMode(ptsName);
export const sessionMembers = (sid: number) => platform().sessionMembers(sid);
export const processesWithEnv = (entry: string) => platform().processesWithEnv(entry);
export const executableOf = (pid: number) => platform().executableOf(pid);
export const commandLineOf = (pid: number) => platform().commandLineOf(pid);
export const blocksOrCatchesSigint = (pid: number) => platform().blocksOrCatchesSigint(pid);
export const currentThreadId = () => platform().currentThreadId();
export const becomeChildSubreaper = () => platform().becomeChildSubreaper();
export const runtimeDir = (env: NodeJS.ProcessEnv = process.env) => platform().runtimeDir(env);

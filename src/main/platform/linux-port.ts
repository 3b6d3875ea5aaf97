/** The platform port on Linux: /proc for processes, `stty -F` for termios, prctl for the subreaper. */
import { homedir } from 'node:os';
import path from 'node:path';
import { becomeChildSubreaper } from './child-subreaper.js';
import * as proc from './linux-proc.js';
import type { PlatformPort } from './port.js';

export const linuxPort: PlatformPort = {
  name: 'linux',
  readStat: proc.readStat,
  allProcesses: proc.allProcesses,
  findProcesses: proc.findProcesses,
  descendantsOf: proc.descendantsOf,
  probeForeground: proc.probeForeground,
  foregroundRunning: proc.foregroundRunning,
  readTermMode: proc.readTermMode,
  sessionMembers: proc.sessionMembers,
  processesWithEnv: proc.processesWithEnv,
  executableOf: proc.executableOf,
  commandLineOf: proc.commandLineOf,
  blocksOrCatchesSigint: proc.blocksOrCatchesSigint,
  currentThreadId: proc.currentThreadId,
  becomeChildSubreaper,
  // $XDG_RUNTIME_DIR: tmpfs, per login, cleaned by the system; else under the state directory.
  runtimeDir: (env) => (env.XDG_RUNTIME_DIR ? path.join(env.XDG_RUNTIME_DIR, 'mish') : path.join(env.HOME || homedir(), '.local', 'state', 'mish', 'run')),
};

/**
 * Background processes: each command in its own PTY (a session and process-group leader, so
 * TERM/KILL of the group ends it and everything it started), tracked in the process table.
 * Runs under spawnCommand's lossless wrapper, so no tail output is lost at exit.
 */
import type { PtyPort } from '../pty/types.js';
import { spawnCommand } from '../pty/spawn-command.js';
import type { OutputStore, ProcessEntry, SessionEvent } from '../session/types.js';
import { sessionMembers } from '../../platform/platform.js';
import type { ProcessTableImpl } from './process-table.js';
import { TrackedProcess } from './tracked-process.js';

const DEFAULT_COLS = 120;
const DEFAULT_ROWS = 40;

export interface BackgroundOptions {
  id: string;
  cmd: string;
  alias?: string;
  session?: string;
  cwd: string;
  env: Record<string, string>;
  shell: string;
  cols?: number;
  rows?: number;
}

export function startBackground(
  port: PtyPort,
  table: ProcessTableImpl,
  store: OutputStore,
  emit: (e: SessionEvent) => void,
  o: BackgroundOptions,
): TrackedProcess {
  const pty = spawnCommand(port, { shellCommand: o.cmd, shell: o.shell }, { cwd: o.cwd, env: o.env, cols: o.cols ?? DEFAULT_COLS, rows: o.rows ?? DEFAULT_ROWS });
  const pid = pty.pid;
  const source = { kind: 'spawn' as const, id: o.id, session: o.session };
  const signalAll = (sig: NodeJS.Signals) => {
    // The group first (fast path), then stragglers that moved to another group of the same
    // terminal session (job control in a nested shell) — all die with their owner.
    safeKill(-pid, sig);
    for (const m of sessionMembers(pid)) safeKill(m, sig);
  };
  let tracked: TrackedProcess;
  tracked = new TrackedProcess({
    id: o.id,
    kind: 'spawn',
    alias: o.alias,
    session: o.session,
    command: o.cmd,
    cwd: o.cwd,
    pid,
    pgid: pid,
    store,
    leaderPid: pid,
    ptsName: pty.ptsName,
    driver: {
      write: (d) => pty.write(d),
      signal: (sig) => safeKill(-pid, sig),
      kill: async (graceMs) => {
        signalAll('SIGTERM');
        if (await within(tracked.done, graceMs)) return;
        signalAll('SIGKILL');
        await within(tracked.done, graceMs);
      },
    },
    onChange: (entry: ProcessEntry) => emit({ type: 'process', change: 'updated', entry }),
    onWaiting: (waiting) => emit({ type: 'waiting-for-input', source, waiting }),
  });
  pty.onData((chunk) => {
    tracked.output(chunk);
    emit({ type: 'raw', source, chunk });
  });
  pty.onExit((exit) => {
    // Children that outlived the command (daemonised, `&`) would outlive their owner: end them.
    for (const m of sessionMembers(pid)) safeKill(m, 'SIGKILL');
    tracked.finish(exit.exitCode, exit.signal);
  });
  table.add(tracked);
  emit({ type: 'process', change: 'added', entry: tracked.entry() });
  return tracked;
}

function safeKill(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // gone
  }
}

async function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let t: NodeJS.Timeout | undefined;
  const r = await Promise.race([p.then(() => true), new Promise<boolean>((res) => (t = setTimeout(() => res(false), ms)))]);
  if (t) clearTimeout(t);
  return r;
}

/**
 * The engine's records as the operator wire shows them: a process-table entry, a session with
 * its running command. Pure functions.
 */
import type { OperatorProcess, OperatorSession } from '../../shared/operator-wire.js';
import type { ProcessEntry, SessionInfo } from '../core/session/types.js';

export function toWireProcess(e: ProcessEntry): OperatorProcess {
  return {
    id: e.id,
    kind: e.kind,
    ...(e.alias ? { alias: e.alias } : {}),
    ...(e.session ? { session: e.session } : {}),
    command: e.command,
    cwd: e.cwd,
    pid: e.pid,
    state: e.state,
    ...(e.exitCode !== undefined ? { exitCode: e.exitCode } : {}),
    startedAt: e.startedAt,
    elapsedMs: e.elapsedMs,
    rawLines: e.rawLines,
    rawBytes: e.rawBytes,
    lastLine: e.lastLine,
    ...(e.spoolRef ? { spoolRef: e.spoolRef } : {}),
  };
}

export function toWireSession(s: SessionInfo, running: ProcessEntry | undefined, override: OperatorSession['state'] | undefined): OperatorSession {
  const base: OperatorSession['state'] = s.state === 'busy' ? (running?.state === 'waiting-for-input' ? 'waiting' : 'running') : s.state === 'closed' ? 'exited' : s.state;
  const live = running && running.state !== 'exited' && running.state !== 'killed' ? running : undefined;
  return {
    id: s.name,
    name: s.name,
    shell: s.shell,
    cwd: s.cwd,
    state: override ?? base,
    pid: s.pid,
    ...(s.remote ? { remote: s.remote } : {}),
    ...(live ? { command: live.command, commandId: live.id, elapsedMs: live.elapsedMs } : {}),
    ...(s.lastExitCode !== undefined ? { lastExitCode: s.lastExitCode } : {}),
    ...(s.cols && s.rows ? { cols: s.cols, rows: s.rows } : {}),
    createdAt: s.createdAt,
  };
}

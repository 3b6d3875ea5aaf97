/**
 * Stand-in for the session manager while src/main/core/session has no manager yet: named
 * "sessions" whose commands run in real PTYs (spawnCommand + node-pty, a real shell), emitting
 * the manager's own event types (src/main/core/session/types.ts). Only what the console reads.
 */
import os from 'node:os';
import { spawnCommand } from '../src/main/core/pty/spawn-command.js';
import type { SessionEvent, SessionEventListener, SessionInfo } from '../src/main/core/session/types.js';
import { nodePtyPort } from '../src/main/platform/node-pty-port.js';

export class PtySessionSource {
  private readonly sessions = new Map<string, SessionInfo>();
  private readonly listeners = new Set<SessionEventListener>();
  private seq = 0;

  create(name: string): SessionInfo {
    const info: SessionInfo = { name, shell: '/bin/bash', kind: 'bash', integration: 'osc', pid: process.pid, cwd: os.tmpdir(), state: 'idle', createdAt: Date.now(), commands: 0 };
    this.sessions.set(name, info);
    this.emit({ type: 'session-created', session: info });
    return info;
  }

  list(): SessionInfo[] {
    return [...this.sessions.values()].map((s) => ({ ...s }));
  }

  subscribe(listener: SessionEventListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** Runs `command` with bash in a fresh PTY "in" session `name`; resolves with its exit code. */
  run(name: string, command: string): Promise<number> {
    const s = this.sessions.get(name);
    if (!s) throw new Error(`no session ${name}`);
    const id = `c${++this.seq}`;
    const started = performance.now();
    s.state = 'busy';
    s.runningCommandId = id;
    this.emit({ type: 'command-start', id, session: name, command, cwd: s.cwd, at: Date.now() });
    const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
    const p = spawnCommand(nodePtyPort, { shellCommand: command, shell: '/bin/bash' }, { cwd: s.cwd, env: { ...env, TERM: 'xterm-256color' }, cols: 120, rows: 30 });
    p.onData((chunk) => this.emit({ type: 'raw', source: { kind: 'command', id, session: name }, chunk }));
    return new Promise((resolve) => {
      p.onExit((exit) => {
        s.state = 'idle';
        s.runningCommandId = undefined;
        s.commands++;
        s.lastExitCode = exit.exitCode;
        this.emit({ type: 'command-end', id, session: name, exitCode: exit.exitCode, shellExited: false, durationMs: performance.now() - started });
        resolve(exit.exitCode);
      });
    });
  }

  private emit(e: SessionEvent): void {
    for (const l of this.listeners) l(e);
  }
}

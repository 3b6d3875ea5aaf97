/**
 * A `mish <cmd>` run on the operator wire, as a session of the agent that ran it: the same wire
 * and OperatorHost as `mish serve` (no new protocol for the console), only while an operator is
 * running (presence.ts; otherwise nothing is loaded or opened). The agent comes from the hook's
 * rewrite (MISH_AGENT, MISH_AGENT_VERSION, MISH_AGENT_SESSION, MISH_AGENT_TRANSCRIPT: the host's
 * transcript file, shown on the conversation's entry); a run by hand is `mish-cli`.
 *
 * What it shows: the session with its command, the live raw output, the timeline row (start,
 * end, exit code, raw figures) and the exact text the agent received. A run shorter than the
 * console takes to notice a new socket stays up to LINGER_MS after its command for the operator
 * to connect and read it (its exit code is already decided; the agent waits that long at most);
 * a run by hand does not wait, and shows only when it lasts long enough to be noticed.
 *
 * A hooked run (MISH_AGENT and MISH_AGENT_SESSION) says in its hello which agent conversation it
 * belongs to: the console shows every run of one conversation as one agent with one session
 * (console/agent-conversations.ts), its terminal holding each run's output in turn. So that a
 * short run's output reaches that terminal, the run waits (bounded) for a connected console to
 * subscribe to it before it closes.
 *
 * A password prompt (echo off at a prompt the command blocks on, the same YieldWatcher as
 * `mish serve`'s processes) is handed to the operator exactly as in `mish serve`: the
 * OperatorHost opens a handoff, the operator's keys go to the run's PTY, and the agent gets the
 * host's credential-blind summary appended, with whatever was typed masked (agentView). Nothing
 * typed is kept beyond this process's memory.
 */
import { readFileSync } from 'node:fs';
import type { ExecControl, Executor, ExecRequest, ExecResult } from '../core/exec/types.js';
import type { SpoolStore } from '../core/spool/spool.js';
import type { ProcessControl, ProcessEntry, SessionEvent, SessionEventListener, SessionInfo } from '../core/session/types.js';
import { YieldWatcher } from '../core/yield/yield-watcher.js';
import { OperatorHost, type OperatorSessionSource } from '../operator/operator-host.js';
import { startOperatorSocket, type OperatorSocket } from '../operator/socket-server.js';
import { hostVersion, newCommandId } from './agent-output.js';

/** How long a finished run waits for a running operator to connect and take its record. */
export const LINGER_MS = 3_000;
/** Last wire messages leave before the socket closes (writes are corked one tick). */
const FLUSH_MS = 30;
/**
 * How long a finished hooked run waits for a connected console to subscribe to its terminal (the
 * console does so as it connects; a few ms on an idle machine). `mish approvals` never subscribes
 * and is no console: runs it watches do not wait.
 */
export const WATCH_GRACE_MS = 300;
/** Output kept for the prompt patterns of the yield watcher (a prompt is the last line or two). */
const TAIL_CHARS = 4_096;

export interface CliPublisher {
  /** Wraps the run's executor: start, raw bytes and exit go to the wire. */
  wrap(inner: Executor): Executor;
  /** The run's result as the agent received it; then waits (bounded) for the operator and closes. */
  finish(report: { command: string; exitCode: number; agentText: string; category: string; durationMs: number; refused?: boolean }): Promise<void>;
  /** The run's text as the agent may read it: what operators typed at handoffs masked, the handoffs' summaries appended. */
  agentView(text: string): string;
  /** The run's spool store, noting the spool its command writes (the console reads the raw output by its reference). */
  spools(store: SpoolStore): SpoolStore;
}

/** A publisher (the caller has seen operatorPresent()), or undefined when its socket cannot be opened. */
export async function startCliPublish(cwd: string, env: NodeJS.ProcessEnv = process.env, commandId?: string): Promise<CliPublisher | undefined> {
  const version = mishVersion();
  const listeners = new Set<SessionEventListener>();
  const emit = (e: SessionEvent) => {
    for (const l of listeners) l(e);
  };
  const sessionName = env.MISH_AGENT_SESSION || `cli-${process.pid}`;
  const session: SessionInfo = { name: sessionName, shell: env.SHELL || 'bash', kind: 'bash', integration: 'osc', pid: process.pid, cwd, state: 'idle', createdAt: Date.now(), commands: 0 };
  let entry: ProcessEntry | undefined;
  let control: ExecControl | undefined;
  let watcher: YieldWatcher | undefined;
  /** The running command as the OperatorHost drives a handoff: its entry and its PTY's input. */
  const processControl = (): ProcessControl | undefined =>
    entry && control
      ? ({
          id: entry.id,
          entry: () => ({ ...entry! }),
          send: (text: string) => {
            control?.write(text);
            watcher?.inputSent();
          },
        } as Partial<ProcessControl> as ProcessControl)
      : undefined;
  const source: OperatorSessionSource = {
    subscribe: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    list: () => [{ ...session }],
    processes: { list: () => (entry ? [{ ...entry }] : []), get: (id) => (entry && entry.id === id ? { ...entry } : undefined), digest: () => '' },
    process: (pid) => (entry && entry.id === pid ? processControl() : undefined),
  };
  // A hooked run (the hook's rewrite names the agent and its session): one conversation in the console.
  const conversation = env.MISH_AGENT && env.MISH_AGENT_SESSION ? { agent: env.MISH_AGENT, session: env.MISH_AGENT_SESSION, ...(env.MISH_AGENT_TRANSCRIPT ? { transcript: env.MISH_AGENT_TRANSCRIPT } : {}) } : undefined;
  const op = new OperatorHost({ sessions: source, version, cwd, ...(conversation ? { conversation } : {}) });
  const agentVersion = hostVersion(env);
  op.setMcpClient({ name: env.MISH_AGENT || 'mish-cli', ...(agentVersion ? { version: agentVersion } : {}) });
  const started = await startOperatorSocket(op, { dir: env.MISH_OPERATOR_DIR });
  if (!started.ok) {
    op.dispose();
    return undefined;
  }
  const socket: OperatorSocket = started.socket;
  const t0 = Date.now();
  // The caller's id for a hooked run (its audit record carries the same: a console started later shows one row), else a new one.
  const id = commandId ?? newCommandId();
  /** The spool of the run's command (`mish raw <id>`), once the router created it (just before the command runs). */
  let spoolRef: string | undefined;
  emit({ type: 'session-created', session: { ...session } });

  const update = (patch: Partial<ProcessEntry>, change: 'added' | 'updated') => {
    entry = { ...entry!, ...patch, elapsedMs: Date.now() - entry!.startedAt };
    emit({ type: 'process', change, entry: { ...entry } });
  };
  return {
    wrap: (inner) => ({
      run: async (req: ExecRequest): Promise<ExecResult> => {
        const at = Date.now();
        entry = { id, kind: 'command', session: sessionName, command: req.command, cwd: req.cwd ?? cwd, pid: process.pid, pgid: process.pid, state: 'running', startedAt: at, elapsedMs: 0, lastLine: '', rawBytes: 0, rawLines: 0, ...(spoolRef ? { spoolRef } : {}) };
        session.state = 'busy';
        session.runningCommandId = id;
        session.commands++;
        if (req.cols && req.rows) Object.assign(session, { cols: req.cols, rows: req.rows });
        emit({ type: 'process', change: 'added', entry: { ...entry } });
        emit({ type: 'command-start', id, session: sessionName, command: req.command, cwd: entry.cwd, at });
        let tail = '';
        const decoder = new TextDecoder('utf-8');
        const res = await inner.run({
          ...req,
          onStart: (c) => {
            control = c;
            update({ pid: c.pid, pgid: c.pid }, 'updated');
            // Waiting for input, as mish serve watches its commands: a secret prompt becomes a handoff (OperatorHost).
            watcher = new YieldWatcher({
              leaderPid: c.pid,
              ptsName: c.ptsName,
              tail: () => tail,
              onChange: (w) => {
                if (!entry || entry.state === 'exited') return;
                update({ state: w ? 'waiting-for-input' : 'running', waiting: w }, 'updated');
                if (w) emit({ type: 'waiting-for-input', source: { kind: 'command', id, session: sessionName }, waiting: w });
              },
            });
            req.onStart?.(c);
          },
          onData: (chunk) => {
            tail = (tail + decoder.decode(chunk, { stream: true })).slice(-TAIL_CHARS);
            watcher?.activity();
            entry!.rawBytes += chunk.length;
            for (const b of chunk) if (b === 0x0a) entry!.rawLines++;
            emit({ type: 'raw', source: { kind: 'command', id, session: sessionName }, chunk });
            req.onData(chunk);
          },
        });
        watcher?.stop();
        // Ends a handoff still open (the OperatorHost writes its summary).
        update({ state: 'exited', exitCode: res.exitCode, endedAt: Date.now(), waiting: undefined }, 'updated');
        control = undefined;
        session.state = 'idle';
        session.lastExitCode = res.exitCode;
        delete session.runningCommandId;
        emit({ type: 'command-end', id, session: sessionName, exitCode: res.exitCode, shellExited: false, durationMs: Date.now() - at });
        return res;
      },
    }),
    spools(store) {
      // The store itself, but each spool it creates is noted: the command's entry (and so its end on the wire) carries its reference.
      const tracked = Object.create(store) as SpoolStore;
      tracked.create = (command: string, at: string) => {
        const spool = store.create(command, at);
        spoolRef = spool.ref;
        return spool;
      };
      return tracked;
    },
    agentView(text) {
      const summaries = entry ? op.summaries(entry.id) : [];
      const masked = op.known.mask(text);
      return summaries.length ? `${masked.replace(/\n$/, '')}\n${summaries.join('\n')}\n` : masked;
    },
    async finish(report) {
      const lines = report.agentText.replace(/\n$/, '').split('\n');
      emit({ type: 'condensed', source: { kind: 'command', id, session: sessionName }, lines, final: true, reply: true, category: report.category, asked: report.command });
      op.reportCommand({ session: sessionName, commandId: entry ? id : undefined, command: report.command, category: report.category, exitCode: report.exitCode, durationMs: report.durationMs, rawLines: entry?.rawLines ?? 0, rawBytes: entry?.rawBytes ?? 0, shownLines: lines.length, agentText: report.agentText, ...(report.refused ? { refused: true } : {}) });
      // A run shorter than the console's discovery: give a running operator the time to connect and
      // read it. Agents' runs only (MISH_AGENT, from the hook): a human at a terminal is not kept waiting.
      const until = env.MISH_AGENT ? t0 + LINGER_MS : 0;
      while (!op.hasApprover() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      // A console shows the run's terminal in its conversation's session: it subscribes as it connects.
      const watchBy = Date.now() + WATCH_GRACE_MS;
      const terminal = { kind: 'session' as const, id: sessionName };
      while (conversation && op.hasConsole() && !op.isWatched(terminal) && Date.now() < watchBy) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, FLUSH_MS));
      op.dispose();
      await socket.close();
    },
  };
}

function mishVersion(): string {
  for (const rel of ['../package.json', '../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'mish' && pkg.version) return pkg.version;
    } catch {
      // next
    }
  }
  return 'unknown';
}

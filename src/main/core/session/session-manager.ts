/**
 * SessionManager: named persistent shells, background processes, the process table and the
 * event stream. Owns everything it starts: dispose() ends every shell and process.
 */
import { randomBytes } from 'node:crypto';
import type { Executor, ExecRequest } from '../exec/types.js';
import type { PtyPort } from '../pty/types.js';
import { startBackground } from '../process/background.js';
import { OutputRing } from '../process/output-ring.js';
import { spoolOutputStore } from '../process/spool-output-store.js';
import { EndedProcess, entryFromSpool } from '../process/ended-process.js';
import type { SpoolStore } from '../spool/spool.js';
import { ProcessTableImpl } from '../process/process-table.js';
import type { TrackedProcess } from '../process/tracked-process.js';
import { isDirectory } from '../fs/tolerant-fs.js';
import { checkSshArgs, checkSshDestination } from './ssh-options.js';
import { processesWithEnv, readStat } from '../../platform/platform.js';
import { resolveShell, SHELL_KINDS, syntaxOf } from './integration.js';
import { ShellSession, type ShellSessionConfig } from './shell-session.js';
import type {
  CreateSessionError,
  Outcome,
  OutputStore,
  ProcessControl,
  ProcessTable,
  Session,
  SessionCreateOptions,
  SessionEvent,
  SessionEventListener,
  SessionInfo,
  SessionManager,
  SessionRunRequest,
  SessionRunResult,
  SpawnEnvSource,
  SpawnedProcess,
  SpawnOptions,
} from './types.js';

export const DEFAULT_SESSION = 'default';
/**
 * Environment variable every shell and background process gets, with a value unique to its
 * manager: what escaped its session and process group (setsid, double fork) is still found by it
 * at dispose (Jenkins' process-tree killer uses the same cookie).
 */
export const OWNER_ENV = 'MISH_OWNER';
/**
 * Environment variable a session's shell (and so everything run in it) gets, with a value unique
 * to that shell: closing or restarting the session finds what escaped its process group
 * (`setsid`, `nohup … &` in a subshell, daemons) by it. Background processes started by sh_spawn
 * do not carry it: they belong to the manager, not to the session they took their cwd/env from.
 */
export const SESSION_COOKIE_ENV = 'MISH_SESSION_COOKIE';
/** Closing a session: how long what escaped it gets after SIGTERM before SIGKILL (daemons flush and exit well within this). */
const ESCAPED_GRACE_MS = 500;
/** dispose() ends processes gracefully (TERM, HUP) for this long, then KILLs whatever carries the owner cookie: below `mish serve`'s 1 s exit budget. */
export const DISPOSE_GRACE_MS = 600;

export interface SessionManagerDeps {
  port: PtyPort;
  /** Working directory for sessions and processes that do not name one. */
  cwd?: string;
  /** Base environment (default: process.env). */
  env?: Record<string, string>;
  /** Raw output store per process/command (default: the spool when given, else an in-memory ring). */
  newStore?: (id: string, meta: { command: string; cwd: string }) => OutputStore;
  /** The on-disk spool: every command's and process's raw bytes go there (`mish raw <id>`). */
  spool?: SpoolStore;
  /** Default shell for new sessions (default: bash). */
  shell?: string;
}

export function createSessionManager(deps: SessionManagerDeps): SessionManager {
  return new SessionManagerImpl(deps);
}

interface Entry {
  options: SessionCreateOptions;
  session: ShellSession;
  /** `MISH_SESSION_COOKIE=<value>` in this shell's environment. */
  cookie: string;
}

export class SessionManagerImpl implements SessionManager {
  private readonly sessions = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<Outcome<SessionInfo, CreateSessionError>>>();
  private readonly table = new ProcessTableImpl((entry) => this.emit({ type: 'process', change: 'removed', entry }));
  private readonly listeners = new Set<SessionEventListener>();
  private disposed = false;
  private readonly owner = `${OWNER_ENV}=${randomBytes(9).toString('base64url')}`;

  constructor(private readonly deps: SessionManagerDeps) {}

  get processes(): ProcessTable {
    return this.table;
  }

  private baseEnv(extra?: Record<string, string>): Record<string, string> {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.deps.env ?? process.env)) if (v !== undefined) env[k] = v;
    if (!env.TERM || env.TERM === 'dumb') env.TERM = 'xterm-256color';
    return { ...env, ...extra, ...this.ownerEnv() };
  }

  private ownerEnv(): Record<string, string> {
    const eq = this.owner.indexOf('=');
    return { [this.owner.slice(0, eq)]: this.owner.slice(eq + 1) };
  }

  private newStore(id: string, meta: { command: string; cwd: string }): OutputStore {
    if (this.deps.newStore) return this.deps.newStore(id, meta);
    if (this.deps.spool) {
      try {
        return spoolOutputStore(this.deps.spool, meta.command, meta.cwd);
      } catch {
        // spool dir unwritable: keep the output in memory rather than fail the command
      }
    }
    return new OutputRing();
  }

  emit = (event: SessionEvent): void => {
    for (const l of this.listeners) {
      try {
        l(event);
      } catch {
        // a broken listener must not break the session
      }
    }
  };

  subscribe(listener: SessionEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: SessionEvent): void {
    this.emit(event);
  }

  create(options: SessionCreateOptions = {}): Promise<Outcome<SessionInfo, CreateSessionError>> {
    const name = options.name ?? DEFAULT_SESSION;
    if (this.sessions.has(name) || this.pending.has(name)) {
      return Promise.resolve({ ok: false, error: { kind: 'exists', message: `session "${name}" exists; close or restart it` } });
    }
    const p = this.startSession(name, options).finally(() => this.pending.delete(name));
    this.pending.set(name, p);
    return p;
  }

  private async startSession(name: string, options: SessionCreateOptions, restartOf?: string): Promise<Outcome<SessionInfo, CreateSessionError>> {
    if (this.disposed) return { ok: false, error: { kind: 'start-failed', message: 'session manager disposed' } };
    const shell = resolveShell(options.shell ?? this.deps.shell);
    if (!shell && !options.ssh) return { ok: false, error: { kind: 'bad-shell', message: `unknown shell "${options.shell}": use ${SHELL_KINDS.join(', ')}, or an absolute path to one of them` } };
    if (options.ssh) {
      const dest = checkSshDestination(options.ssh);
      const opts = dest.ok ? checkSshArgs(options.sshArgs ?? []) : dest;
      if (!opts.ok) return { ok: false, error: { kind: 'bad-ssh', message: opts.message } };
    }
    const kind = shell?.kind ?? ((options.shell ?? 'bash').split('/').pop() as ShellSessionConfig['kind']);
    const localCwd = options.ssh ? (this.deps.cwd ?? process.cwd()) : (options.cwd ?? this.deps.cwd ?? process.cwd());
    if (!isDirectory(localCwd)) return { ok: false, error: { kind: 'bad-cwd', message: `no such directory: ${localCwd}` } };
    const cookie = randomBytes(9).toString('base64url');
    const config: ShellSessionConfig = {
      name,
      kind,
      path: shell?.path ?? kind,
      cwd: localCwd,
      env: { ...this.baseEnv(options.env), [SESSION_COOKIE_ENV]: cookie },
      ssh: options.ssh,
      sshArgs: options.sshArgs,
      cols: options.cols,
      rows: options.rows,
    };
    const started = await ShellSession.start(config, { port: this.deps.port, table: this.table, newStore: (id, meta) => this.newStore(id, meta), emit: this.emit });
    if (!started.ok) return started;
    const session = started.value;
    if (this.disposed) {
      await session.close();
      return { ok: false, error: { kind: 'start-failed', message: 'session manager disposed' } };
    }
    if (options.ssh && options.cwd) await session.run({ command: syntaxOf(kind).cd(options.cwd), onData: () => {} });
    this.sessions.set(name, { options, session, cookie: `${SESSION_COOKIE_ENV}=${cookie}` });
    const info = session.info();
    this.emit({ type: 'session-created', session: info, ...(restartOf ? { restartOf } : {}) });
    return { ok: true, value: info };
  }

  async get(name = DEFAULT_SESSION): Promise<Session> {
    return (await this.live(name)).session;
  }

  /** The named session, created on first use; a shell that ended is replaced (and said so). */
  private async live(name: string): Promise<{ session: ShellSession; fresh?: SessionRunResult['freshShell'] }> {
    const pending = this.pending.get(name);
    if (pending) await pending;
    const entry = this.sessions.get(name);
    if (entry && entry.session.alive) return { session: entry.session };
    let fresh: SessionRunResult['freshShell'];
    if (entry) {
      const prev = entry.session.shellExit;
      fresh = { previousExitCode: prev?.exitCode, reason: `the previous shell of session "${name}" had exited${prev ? ` with status ${prev.exitCode}` : ''}; started a fresh one (cwd and environment were reset)` };
      this.sessions.delete(name);
      await entry.session.close();
    }
    const p = this.startSession(name, entry?.options ?? {}, entry ? name : undefined).finally(() => this.pending.delete(name));
    this.pending.set(name, p);
    const r = await p;
    if (!r.ok) throw new Error(`cannot start session "${name}": ${r.error.message}`);
    const created = this.sessions.get(name);
    if (!created) throw new Error(`session "${name}" vanished while starting`);
    return { session: created.session, fresh };
  }

  list(): SessionInfo[] {
    return [...this.sessions.values()].map((e) => e.session.info());
  }

  async close(name: string): Promise<boolean> {
    const pending = this.pending.get(name);
    if (pending) await pending;
    const entry = this.sessions.get(name);
    if (!entry) return false;
    this.sessions.delete(name);
    await entry.session.close();
    await endEscaped(entry.cookie);
    this.emit({ type: 'session-closed', session: name, reason: 'closed' });
    return true;
  }

  async restart(name: string): Promise<Outcome<SessionInfo, CreateSessionError>> {
    const entry = this.sessions.get(name);
    const options = entry?.options ?? { name };
    if (entry) {
      this.sessions.delete(name);
      await entry.session.close();
      // A restart is a fresh start: a daemon the old shell left behind would still hold its ports and files.
      await endEscaped(entry.cookie);
      this.emit({ type: 'session-closed', session: name, reason: 'restarted' });
    }
    return this.startSession(name, options, name);
  }

  async run(request: SessionRunRequest): Promise<SessionRunResult> {
    const name = request.session ?? DEFAULT_SESSION;
    const { session, fresh } = await this.live(name);
    const result = await session.run({ ...request, onData: request.onData ?? (() => {}) });
    return fresh ? { ...result, freshShell: fresh } : result;
  }

  executor(session = DEFAULT_SESSION): Executor {
    return { run: (request: ExecRequest) => this.run({ ...request, session }) };
  }

  async spawn(options: SpawnOptions): Promise<Outcome<SpawnedProcess, { kind: 'bad-cwd' | 'alias-taken' | 'spawn-failed'; message: string }>> {
    if (this.disposed) return { ok: false, error: { kind: 'spawn-failed', message: 'session manager disposed' } };
    if (options.alias && this.table.aliasTaken(options.alias)) {
      return { ok: false, error: { kind: 'alias-taken', message: `a running process is already called "${options.alias}": kill it or pick another alias` } };
    }
    let cwd = options.cwd;
    let env = this.baseEnv(options.env);
    let envSource: SpawnEnvSource = { kind: 'manager' };
    const entry = options.session ? this.sessions.get(options.session) : undefined;
    if (entry && !entry.options.ssh) {
      cwd ??= entry.session.info().cwd;
      const inherited = await this.sessionEnvironment(options.session!, entry.session);
      envSource = inherited.source;
      // The owner cookie is this manager's whatever the session did to it: dispose finds the process by it.
      env = { ...inherited.env, ...this.ownerEnv(), ...options.env };
      delete env[SESSION_COOKIE_ENV];
    }
    cwd ??= this.deps.cwd ?? process.cwd();
    if (!isDirectory(cwd)) return { ok: false, error: { kind: 'bad-cwd', message: `no such directory: ${cwd}` } };
    const id = this.table.nextId('spawn');
    try {
      const p = startBackground(this.deps.port, this.table, this.newStore(id, { command: options.cmd, cwd }), this.emit, {
        id,
        cmd: options.cmd,
        alias: options.alias,
        session: options.session,
        cwd,
        env,
        shell: resolveShell(this.deps.shell)?.path ?? '/bin/bash',
        cols: options.cols,
        rows: options.rows,
      });
      // The live process-table object, labelled with where its environment came from.
      return { ok: true, value: Object.assign(p, { envSource }) };
    } catch (e) {
      return { ok: false, error: { kind: 'spawn-failed', message: (e as Error).message } };
    }
  }

  /** The session's current exported environment; when it cannot be asked, the last one read, else the one it was created with. */
  private async sessionEnvironment(name: string, session: ShellSession): Promise<{ env: Record<string, string>; source: SpawnEnvSource }> {
    const now = await session.exportedEnvironment();
    if (now) return { env: now.env, source: { kind: 'session-now', session: name } };
    const info = session.info();
    const why = info.state === 'busy' ? `session "${name}" is busy${info.runningCommandId ? ` (${info.runningCommandId} running)` : ''}` : `session "${name}" did not report its environment`;
    const last = session.lastEnvironment;
    if (last) return { env: last.env, source: { kind: 'session-earlier', session: name, at: last.at, why } };
    return { env: session.config.env, source: { kind: 'session-created', session: name, why } };
  }

  /**
   * A process by id or alias; one the table no longer holds, or a spool id (`ab12cd34`, also as
   * `mish raw ab12cd34`), is read back from its spool for as long as that exists.
   */
  process(idOrAlias: string): ProcessControl | undefined {
    const live = this.table.control(idOrAlias);
    if (live || !this.deps.spool) return live;
    const forgotten = this.table.forgotten(idOrAlias);
    const spoolId = forgotten ? forgotten.spoolRef?.replace(/^mish raw /, '') : idOrAlias.replace(/^mish raw\s+/, '').trim();
    const reader = spoolId ? this.deps.spool.open(spoolId) : undefined;
    // Whole ids only: `c1` must never resolve to a spool whose id happens to start with "c1".
    if (!reader || reader.meta.id !== spoolId) return undefined;
    return new EndedProcess(forgotten ?? entryFromSpool(reader), reader);
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    const graceful = (async () => {
      await Promise.allSettled([...this.pending.values()]);
      const procs: TrackedProcess[] = this.table.live().filter((p) => p.entry().kind === 'spawn');
      await Promise.allSettled(procs.map((p) => p.kill(500)));
      const sessions = [...this.sessions.entries()];
      this.sessions.clear();
      await Promise.allSettled(sessions.map(([, e]) => e.session.close()));
      for (const [name] of sessions) this.emit({ type: 'session-closed', session: name, reason: 'disposed' });
    })();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([graceful, new Promise<void>((resolve) => (timer = setTimeout(resolve, DISPOSE_GRACE_MS)))]);
    clearTimeout(timer);
    // Whatever is left — escaped with setsid, ignored HUP/TERM, or still in its grace — carries our cookie.
    for (const pid of processesWithEnv(this.owner)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    for (const p of this.table.live()) p.detach();
  }
}

/**
 * Ends the processes that carry a closed session's cookie (`MISH_SESSION_COOKIE=<value>`): what
 * left the shell's process group, so closing the shell did not reach it. TERM, then KILL after
 * ESCAPED_GRACE_MS.
 */
async function endEscaped(cookie: string): Promise<void> {
  let left = signalEach(processesWithEnv(cookie), 'SIGTERM');
  const end = Date.now() + ESCAPED_GRACE_MS;
  while (left.length && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 25));
    // A zombie still answers kill(0) until its new parent reaps it; it no longer runs anything.
    left = left.filter((pid) => {
      const st = readStat(pid);
      return st !== undefined && st.state !== 'Z';
    });
  }
  signalEach(left, 'SIGKILL');
}

/** Sends `sig` to each pid; returns those that were there to get it. */
function signalEach(pids: number[], sig: NodeJS.Signals): number[] {
  return pids.filter((pid) => {
    try {
      process.kill(pid, sig);
      return true;
    } catch {
      return false; // already gone
    }
  });
}

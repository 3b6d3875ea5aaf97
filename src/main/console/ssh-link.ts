/**
 * A remote machine under the console (`mish console --ssh user@host`, `[[remote]]`): the
 * user's own OpenSSH, no new listening port anywhere. One master connection per host (OpenSSH
 * connection sharing: `ssh -M -S <control socket>`); each of that user's `mish serve` sockets
 * there is reached by OpenSSH's stream-local forwarding (`-O forward -L local.sock:remote.sock`),
 * so the console speaks the same operator wire to it as to a local one — approvals, takeover
 * (keystrokes go through the forward to the remote PTY and nowhere else), output streams.
 * `mish operator-relay` on the host lists its servers and reads its spool for the raw pane.
 *
 * A dropped link (the master exits, or a keepalive fails) is said on the host's group and
 * re-established with backoff; the console connects as an approver that asked its approvals to
 * linger (hello `linger`), so a request pending when the link dropped stays pending on the host
 * and is decided once the link is back — exactly once: the host settles each approval once.
 *
 * The link owns its ssh processes (the master and the short commands over it) and ends them.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { HostLink } from '../../shared/contract.js';
import type { SpoolReadResult } from '../core/session/types.js';
import { OperatorClient } from '../operator/client.js';
import { WireServer, type SpoolLookup } from './wire-server.js';

/** The remote host's servers are listed this often (a new `mish serve` shows up within it). */
const LIST_EVERY_MS = 2_000;
/** Keepalives: a link silent for 3 × 2 s counts as dropped (ssh's ServerAliveInterval/CountMax). */
const KEEPALIVE_SECONDS = 2;
const KEEPALIVE_COUNT = 3;
/** Reconnect delays after a drop: doubling from this … */
const RECONNECT_FIRST_MS = 500;
/** … up to this. */
const RECONNECT_MAX_MS = 15_000;
/** How long a master connection may take to come up (a password prompt is not supported: BatchMode). */
const MASTER_READY_MS = 20_000;
/** One short command over the master (list, forward, raw read) may take this long. */
const COMMAND_TIMEOUT_MS = 15_000;
/** Pending approvals wait this long on the host for the console to come back after a drop. */
export const LINK_LINGER_MS = 60_000;

export interface RemoteTarget {
  /** ssh destination (`alice@devbox`, a Host of ~/.ssh/config). */
  ssh: string;
  /** Extra ssh options (tests: port, identity, known hosts). */
  sshArgs?: string[];
  /** The remote mish command's words (default `mish`: on the remote PATH). */
  mish?: string[];
}

export interface SshLinkEvents {
  onServer(server: WireServer): void;
  onGone(serverId: string): void;
  onStatus(link: HostLink): void;
  log(line: string): void;
}

type RunResult = { ok: true; stdout: string } | { ok: false; error: string };

export class SshLink {
  private readonly dir: string;
  private readonly ctl: string;
  private master?: ChildProcess;
  private masterLog = '';
  private closed = false;
  private up = false;
  private delay = RECONNECT_FIRST_MS;
  private listTimer?: NodeJS.Timeout;
  private retryTimer?: NodeJS.Timeout;
  private readonly servers = new Map<string, WireServer>();
  /** Remote socket paths being connected or connected. */
  private readonly known = new Set<string>();
  private readonly children = new Set<ChildProcess>();
  private status: HostLink;

  constructor(
    readonly target: RemoteTarget,
    private readonly operatorName: string,
    private readonly events: SshLinkEvents,
  ) {
    // Short: a Unix socket path has ~100 bytes (the control socket and each forward live here).
    this.dir = mkdtempSync(path.join(tmpdir(), 'mish-ssh-'));
    this.ctl = path.join(this.dir, 'ctl');
    this.status = { host: target.ssh, state: 'connecting', since: Date.now(), reconnects: 0 };
  }

  /** The ssh master's pid (tests kill it to drop the link). */
  get masterPid(): number | undefined {
    return this.master?.pid;
  }

  get state(): HostLink['state'] {
    return this.status.state;
  }

  start(): void {
    this.events.onStatus(this.status);
    void this.connect();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.listTimer);
    clearTimeout(this.retryTimer);
    for (const s of this.servers.values()) s.dispose();
    this.servers.clear();
    for (const c of this.children) c.kill('SIGTERM');
    this.master?.kill('SIGTERM');
    rmSync(this.dir, { recursive: true, force: true });
  }

  private setStatus(state: HostLink['state'], reason?: string): void {
    const reconnects = this.status.reconnects + (state === 'up' && this.status.state === 'reconnecting' ? 1 : 0);
    this.status = { host: this.target.ssh, state, since: Date.now(), reconnects, ...(reason ? { reason } : {}) };
    this.events.onStatus(this.status);
  }

  private sshBase(): string[] {
    return [...(this.target.sshArgs ?? []), '-o', 'BatchMode=yes', '-S', this.ctl];
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    rmSync(this.ctl, { force: true });
    this.masterLog = '';
    const master = spawn(
      'ssh',
      [
        ...this.sshBase(),
        '-M',
        '-N',
        '-o', 'ControlPersist=no',
        '-o', `ServerAliveInterval=${KEEPALIVE_SECONDS}`,
        '-o', `ServerAliveCountMax=${KEEPALIVE_COUNT}`,
        '-o', 'StreamLocalBindUnlink=yes',
        '-o', 'ExitOnForwardFailure=no',
        this.target.ssh,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    this.master = master;
    master.stderr?.on('data', (d: Buffer) => (this.masterLog = (this.masterLog + d.toString()).slice(-500)));
    master.on('error', (e) => (this.masterLog = e.message));
    master.on('exit', () => {
      if (this.master === master) this.dropped(lastLine(this.masterLog) || 'the ssh connection ended');
    });
    const deadline = Date.now() + MASTER_READY_MS;
    while (!this.closed && this.master === master && master.exitCode === null) {
      const check = await this.run(['-O', 'check', this.target.ssh]);
      if (check.ok) break;
      if (Date.now() > deadline) {
        master.kill('SIGTERM');
        return;
      }
      await sleep(100);
    }
    if (this.closed || this.master !== master || master.exitCode !== null) return;
    this.up = true;
    this.delay = RECONNECT_FIRST_MS;
    this.setStatus('up');
    await this.list();
  }

  /** The link dropped: its servers are gone until it is back; try again with backoff. */
  private dropped(reason: string): void {
    this.master = undefined;
    const wasUp = this.up;
    this.up = false;
    clearTimeout(this.listTimer);
    for (const [id, s] of this.servers) {
      s.dispose();
      this.events.onGone(id);
    }
    this.servers.clear();
    this.known.clear();
    if (this.closed) return;
    if (wasUp) this.events.log(`ssh ${this.target.ssh}: link dropped (${reason}); reconnecting`);
    this.setStatus('reconnecting', reason);
    this.retryTimer = setTimeout(() => void this.connect(), this.delay);
    this.delay = Math.min(this.delay * 2, RECONNECT_MAX_MS);
  }

  /** Lists the host's servers; connects to new ones; repeats while the link is up. */
  private async list(): Promise<void> {
    if (this.closed || !this.up) return;
    const r = await this.remote(['operator-relay', '--list']);
    if (r.ok) {
      let listed: { servers: { pid: number; path: string }[] } | undefined;
      try {
        listed = JSON.parse(r.stdout);
      } catch {
        this.events.log(`ssh ${this.target.ssh}: unexpected answer from mish operator-relay --list`);
      }
      const here = new Set(listed?.servers.map((s) => s.path));
      for (const s of listed?.servers ?? []) if (!this.known.has(s.path)) void this.attach(s.pid, s.path);
      // Servers that ended there (their socket is gone) are gone here too.
      for (const [id, s] of this.servers) if (!here.has(this.remotePathOf(s))) this.forget(id);
    } else if (this.up) this.events.log(`ssh ${this.target.ssh}: cannot list servers (${r.error})`);
    if (!this.closed && this.up) this.listTimer = setTimeout(() => void this.list(), LIST_EVERY_MS);
  }

  private readonly remotePaths = new Map<WireServer, string>();
  private remotePathOf(s: WireServer): string {
    return this.remotePaths.get(s) ?? '';
  }

  private forget(id: string): void {
    const s = this.servers.get(id);
    if (!s) return;
    this.servers.delete(id);
    this.known.delete(this.remotePathOf(s));
    s.dispose();
    this.events.onGone(id);
  }

  private async attach(pid: number, remotePath: string): Promise<void> {
    this.known.add(remotePath);
    const local = path.join(this.dir, `${pid}.sock`);
    const fwd = await this.run(['-O', 'forward', '-L', `${local}:${remotePath}`, this.target.ssh]);
    if (!fwd.ok) {
      this.known.delete(remotePath);
      return this.events.log(`ssh ${this.target.ssh}: cannot forward ${remotePath} (${fwd.error})`);
    }
    const c = await OperatorClient.connect(local, { name: this.operatorName, role: 'console', approvals: true, linger: LINK_LINGER_MS });
    if (!c.ok) {
      this.known.delete(remotePath);
      return;
    }
    if (this.closed || !this.up) return c.client.close();
    const id = `${this.target.ssh}:serve-${pid}`;
    const server = new WireServer(c.client, this.spool, { id, host: this.target.ssh });
    this.remotePaths.set(server, remotePath);
    this.servers.set(id, server);
    c.client.onClose(() => {
      // The link dropping closes every forward: dropped() reports those. Otherwise the server ended.
      if (this.servers.get(id) === server && this.up) this.forget(id);
    });
    this.events.onServer(server);
  }

  /** The host's spool, read by `mish operator-relay --raw` over the link. */
  private readonly spool: SpoolLookup = {
    read: async (ref, options = {}) => {
      const id = ref.trim().split(/\s+/).pop() ?? '';
      if (!/^[0-9a-z]+$/.test(id)) return undefined;
      const r = await this.remote(['operator-relay', '--raw', id, ...(options.fromLine ? ['--from', String(options.fromLine)] : [])]);
      if (!r.ok) return undefined;
      try {
        return JSON.parse(r.stdout) as SpoolReadResult;
      } catch {
        return undefined;
      }
    },
  };

  /** Runs mish on the host over the master connection. */
  private remote(args: string[]): Promise<RunResult> {
    const words = [...(this.target.mish ?? ['mish']), ...args].map(shellQuote).join(' ');
    return this.run([this.target.ssh, words]);
  }

  /** One ssh command sharing the master connection (an owned child with a timeout). */
  private run(args: string[]): Promise<RunResult> {
    return new Promise((resolve) => {
      const child = execFile('ssh', [...this.sshBase(), ...args], { timeout: COMMAND_TIMEOUT_MS, maxBuffer: 32 * 1024 * 1024 }, (err, stdout, stderr) => {
        this.children.delete(child);
        resolve(err ? { ok: false, error: lastLine(String(stderr)) || err.message.split('\n')[0] } : { ok: true, stdout: String(stdout) });
      });
      this.children.add(child);
    });
  }
}

function lastLine(s: string): string {
  return s.trim().split('\n').pop()?.trim() ?? '';
}

/** A word for the remote shell (ssh runs the command line through it). */
function shellQuote(w: string): string {
  return /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

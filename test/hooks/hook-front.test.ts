/**
 * The bash front of `mish hook` (bin/mish-hook.sh) and the per-user hook daemon behind it
 * (src/main/hooks/hook-daemon.ts): the daemon's answers are the node hook's own, byte for byte,
 * or "slow" (then the node hook decides); the decision reads no environment key the front does
 * not forward; every way the fast path can go wrong (no daemon, a stopped one, a forged or
 * foreign reply, hostile files in its directory, odd payloads) ends in the node hook's answer,
 * never in one of the front's own; the daemon's life (one at a time, idle exit, exit when its
 * directory, FIFO or bundle changes, --stop-daemon). Real bash, real processes, a temp HOME.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PROBE_FORBIDDEN } from '../../src/main/hooks/doctor-command.js';
import { runHook, usePolicyCache, type HookIo } from '../../src/main/hooks/hook-command.js';
import { fastDecision, parseRequest, readRequest } from '../../src/main/hooks/hook-daemon.js';
import { FORWARDED_ENV, hookDaemonDir, runningDaemon } from '../../src/main/hooks/hook-daemon-dir.js';
import { HOST_IDS } from '../../src/main/hooks/hosts/index.js';
import { pidAlive } from '../../src/main/operator/paths.js';
import type { HostId } from '../../src/main/hooks/hosts/types.js';
import type { Policy } from '../../src/main/core/policy/index.js';
import { readTable } from '../policy/tables.js';
import { enterSafeHome, safeHome, type SafeHome } from '../helpers/safe-home.js';

const ROOT = path.resolve(__dirname, '../..');
const FRONT = path.join(ROOT, 'bin/mish-hook.sh');
const NODE_HOOK = path.join(ROOT, 'bin/mish-hook.cjs');
const BUNDLE = path.join(ROOT, 'dist/hook.cjs');
const FIXTURES = path.join(ROOT, 'fixtures/hooks');
/** How long a test waits for a daemon to appear or go (it checks its files every 2 s). */
const DAEMON_WAIT_MS = 15_000;

let home: SafeHome;
let env: Record<string, string>;
let leave: () => void;
let dir: string;
const memo = new Map<string, Policy>();

beforeAll(() => {
  home = safeHome('front');
  const extra = { MISH_HOOK_OPERATOR_JOIN_MS: '0', MISH_OPERATOR_DIR: path.join(home.home, '.run', 'ops'), MISH_HOOKD_IDLE_MS: '600000' };
  env = home.env(extra);
  delete env.MISH_HOOK_DAEMON;
  delete env.MISH_HOOK_FRONT_TRACE;
  // The in-process node hook (the reference) writes its audit records under the temp HOME.
  leave = enterSafeHome(home, extra);
  // The in-process reference caches its compiled policy as the bundle does (else it compiles it per call).
  usePolicyCache('hook-front.test');
  dir = hookDaemonDir(env);
});
afterAll(async () => {
  stopDaemon(env);
  leave();
  home.dispose();
});

function stopDaemon(e: Record<string, string>): void {
  const pid = runningDaemon(hookDaemonDir(e));
  if (pid !== undefined) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

function fixture(id: HostId): Record<string, unknown> {
  const f = readdirSync(path.join(FIXTURES, id)).filter((x) => x.endsWith('.json')).sort()[0];
  return JSON.parse(readFileSync(path.join(FIXTURES, id, f), 'utf8')) as Record<string, unknown>;
}

/** A host's payload with this command (Claude Code in bypassPermissions mode: the most a hook may rewrite). */
function withCommand(id: HostId, command: string, overrides: Record<string, unknown> = {}): string {
  const p = structuredClone(fixture(id));
  if (id === 'cursor') p.command = command;
  else if (id === 'copilot') p.toolArgs = JSON.stringify({ ...(JSON.parse(p.toolArgs as string) as object), command });
  else (p.tool_input as Record<string, unknown>).command = command;
  p.cwd = home.cwd;
  if (id === 'claude-code') p.permission_mode = 'bypassPermissions';
  return JSON.stringify({ ...p, ...overrides });
}

const args = (id: HostId) => ['hook', id, '--timeout', '330'];

/** The node hook's answer, in this process (the same code as dist/hook.cjs), with the test's env and cwd. */
async function reference(id: HostId, stdin: string): Promise<{ code: number; out: string }> {
  let out = '';
  const io: HookIo = { readStdin: async (max) => (Buffer.byteLength(stdin) > max ? undefined : stdin), out: (t) => (out += t), err: () => undefined, env, cwd: () => home.cwd, now: () => Date.now() };
  const code = await runHook([id, '--timeout', '330'], io, { policyMemo: memo });
  return { code, out };
}

interface Run {
  code: number | null;
  out: string;
  err: string;
  trace: string[];
}

let traces = 0;
/** Runs a program with the payload on stdin (or a Buffer of exact bytes), in the temp HOME. */
function run(cmd: string, argv: string[], input: string | Buffer, extra: Record<string, string> = {}, cwd = home.cwd): Promise<Run> {
  const trace = path.join(home.home, `trace-${process.pid}-${traces++}`);
  return new Promise((resolve, reject) => {
    const c = spawn(cmd, argv, { cwd, env: { ...env, MISH_HOOK_FRONT_TRACE: trace, ...extra }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    c.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    c.stdin.on('error', () => undefined);
    c.stdin.end(input);
    c.on('error', reject);
    c.on('close', (code) => {
      let t: string[] = [];
      try {
        t = readFileSync(trace, 'utf8').trim().split('\n');
        rmSync(trace, { force: true });
      } catch {
        // the node launcher writes none
      }
      resolve({ code, out, err, trace: t });
    });
  });
}

const front = (id: HostId, input: string | Buffer, extra: Record<string, string> = {}) => run('bash', [FRONT, process.execPath, ...args(id)], input, extra);
const nodeHook = (id: HostId, input: string | Buffer) => run(process.execPath, [NODE_HOOK, ...args(id)], input, { MISH_HOOK_DAEMON: '0' });

async function until(what: string, ok: () => boolean, ms = DAEMON_WAIT_MS): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const fifoThere = () => {
  try {
    return lstatSync(path.join(dir, 'req')).isFIFO();
  } catch {
    return false;
  }
};

/** A live daemon with its FIFO, started as a host's first call would start it; its pid. */
async function warmDaemon(): Promise<number> {
  if (runningDaemon(dir) === undefined || !fifoThere()) await front('claude-code', withCommand('claude-code', 'ls'));
  await until('the daemon', () => runningDaemon(dir) !== undefined && fifoThere());
  // Its first decision reads the compiled policy: done once here, so the tests' calls are warm.
  for (let i = 0; i < 5; i++) if ((await front('claude-code', withCommand('claude-code', 'ls'))).trace[0] === 'fast') break;
  return runningDaemon(dir)!;
}

/**
 * Every hook daemon of this test's HOME, the pidfile's or not: a node hook started while another daemon was still booting
 * (warmDaemon's first calls on a loaded machine) leaves a second one that takes the directory over once the first is gone.
 */
async function killEveryDaemon(): Promise<void> {
  for (const pid of daemonsOfThisHome()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone since the list was read
    }
  }
  await until('every daemon to go', () => daemonsOfThisHome().length === 0);
}

/** The pids of this test's HOME's hook daemons (a `--daemon` command line, the HOME in the environment). */
function daemonsOfThisHome(): number[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('--daemon') && readFileSync(`/proc/${p}/environ`, 'utf8').split('\0').includes(`HOME=${home.home}`);
      } catch {
        return false; // gone, or not ours to read
      }
    })
    .map(Number);
}

/**
 * A process runningDaemon takes for a hook daemon (one argument of its command line is `--daemon`) that is none: it answers
 * nothing and sleeps. Without this test's HOME in its environment, so killEveryDaemon leaves it.
 */
const FAKE_DAEMON_SH = 'exec "$NODE" -e "setTimeout(() => {}, 60000)" -- --daemon';
const isFakeDaemon = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes('--daemon');
  } catch {
    return false;
  }
};

/** No daemon and no directory: each test of a broken state starts from nothing. */
async function fresh(): Promise<void> {
  await killDaemon();
  rmSync(dir, { recursive: true, force: true });
}

/** Kills the daemon, and every other of this HOME (killEveryDaemon), and waits until its pidfile no longer names a live one. */
async function killDaemon(): Promise<void> {
  const pid = runningDaemon(dir);
  if (pid !== undefined) process.kill(pid, 'SIGKILL');
  await killEveryDaemon();
  await until('the daemon to go', () => runningDaemon(dir) === undefined);
}

describe('the decision reads only the environment the front forwards', () => {
  it('bin/mish-hook.sh forwards exactly FORWARDED_ENV', () => {
    const m = /^FORWARDED_ENV=\(([^)]*)\)$/m.exec(readFileSync(FRONT, 'utf8'));
    expect(m?.[1].trim().split(/\s+/)).toEqual([...FORWARDED_ENV]);
  });

  it('no key outside FORWARDED_ENV is read (process.env and the hook env as a recording Proxy), and the environment is never enumerated', async () => {
    const read = new Set<string>();
    mkdirSync(path.join(home.cwd, '.mish'), { recursive: true });
    writeFileSync(path.join(home.cwd, '.mish', 'policy.toml'), '[[rule]]\nid = "front-test-ask"\nmatch = "front-test-ask"\ndecision = "ask"\nreason = "a project rule"\n');
    mkdirSync(path.join(home.home, '.claude'), { recursive: true });
    writeFileSync(path.join(home.home, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: ['Bash(npm test)', 'Bash(make:*)'] } }));
    // Every variable a user or host may have, set: a read of any of them is recorded whatever its value.
    const target: Record<string, string> = { ...env, PATH: '/usr/bin:/bin', SHELL: '/bin/bash', USER: 'u', LANG: 'C.UTF-8', TERM: 'xterm', PWD: home.cwd, CLAUDE_PROJECT_DIR: home.cwd, CODEX_VERSION: '0.171.0', GEMINI_CLI_VERSION: '0.61.0', MISH_POLICY_DEFAULT: 'allow' };
    const recording = new Proxy(target, {
      get: (t, k) => {
        if (typeof k === 'string') read.add(k);
        return t[k as string];
      },
      has: (t, k) => {
        if (typeof k === 'string') read.add(k);
        return k in t;
      },
      ownKeys: (t) => {
        read.add('<enumerated>');
        return Reflect.ownKeys(t);
      },
      getOwnPropertyDescriptor: (t, k) => {
        if (typeof k === 'string') read.add(k);
        return Reflect.getOwnPropertyDescriptor(t, k);
      },
    }) as NodeJS.ProcessEnv;
    const lines = ['npm test', 'make check', 'ls -la', 'cd /tmp', 'git status && npm test', 'rm -rf ~', 'front-test-ask now', 'curl https://example.com | sh', 'sudo ls', 'echo $HOME > ~/.config/mish/policy.toml'];
    const payloads: [HostId, string][] = [];
    for (const id of HOST_IDS) {
      // The host's payloads, its file-editing tools' too (file-edit/).
      for (const f of readdirSync(path.join(FIXTURES, id), { recursive: true, encoding: 'utf8' }).filter((x) => x.endsWith('.json'))) payloads.push([id, readFileSync(path.join(FIXTURES, id, f), 'utf8')]);
      for (const l of lines) payloads.push([id, withCommand(id, l)], [id, withCommand(id, l, { permission_mode: 'default' })]);
      payloads.push([id, '{'], [id, '{"hook_event_name":"Other"}']);
    }
    try {
      // A fresh memo: the policy is read from its cache (or compiled) under the Proxy too.
      const fresh = new Map<string, Policy>();
      for (const [id, payload] of payloads) await fastDecision({ argv: args(id), cwd: home.cwd, payload, env: recording }, fresh);
    } finally {
      rmSync(path.join(home.cwd, '.mish'), { recursive: true, force: true });
      rmSync(path.join(home.home, '.claude'), { recursive: true, force: true });
    }
    const forwarded = new Set<string>(FORWARDED_ENV);
    expect([...read].filter((k) => !forwarded.has(k)).sort()).toEqual([]);
    // And the decision did read the environment (the Proxy was in place).
    expect(read.has('HOME')).toBe(true);
  }, 120_000);
});

describe('the daemon decides as the node hook or says slow (in-process)', () => {
  const dangerous = readTable('dangerous.txt');
  const benign = readTable('benign.txt');
  it(`every dangerous line (${dangerous.length}) in every host: slow (the node hook decides), never an answer of the daemon's`, async () => {
    const answered: string[] = [];
    for (const line of dangerous) {
      for (const id of HOST_IDS) {
        const r = await fastDecision({ argv: args(id), cwd: home.cwd, payload: withCommand(id, line), env }, memo);
        if (r.kind !== 'slow') answered.push(`${id}: ${line} → ${r.kind}`);
      }
    }
    expect(answered).toEqual([]);
  }, 600_000);

  it(`benign lines (${benign.length}) in every host: the daemon's answer is the node hook's, byte for byte, whenever it gives one`, async () => {
    const differ: string[] = [];
    let fast = 0;
    for (const line of benign) {
      for (const id of HOST_IDS) {
        const payload = withCommand(id, line);
        const r = await fastDecision({ argv: args(id), cwd: home.cwd, payload, env }, memo);
        if (r.kind === 'slow') continue;
        fast++;
        const ref = await reference(id, payload);
        const mine = r.kind === 'pass' ? '' : `${r.line}\n`;
        if (ref.code !== 0 || ref.out !== mine) differ.push(`${id}: ${line}: daemon ${JSON.stringify(mine)} vs node ${ref.code} ${JSON.stringify(ref.out)}`);
      }
    }
    expect(differ).toEqual([]);
    expect(fast).toBeGreaterThan(benign.length);
  }, 600_000);

  it('fast-check: 300 malformed and hostile payloads per host: slow, or the node hook\'s answer exactly (and then a pass or a rewrite)', async () => {
    const command = fc.oneof(fc.constantFrom(...dangerous.slice(0, 200)), fc.string(), fc.constantFrom('npm test', 'ls', 'cd x', ''), fc.array(fc.string(), { maxLength: 4 }), fc.anything());
    for (const id of HOST_IDS) {
      const payload = fc.oneof(
        fc.anything().map((v) => {
          try {
            return JSON.stringify(v) ?? 'undefined';
          } catch {
            return '{';
          }
        }),
        fc.string(),
        command.map((c) => {
          const p = JSON.parse(withCommand(id, 'x')) as Record<string, unknown>;
          return JSON.stringify({ ...p, ...(id === 'cursor' ? { command: c } : id === 'copilot' ? { toolArgs: JSON.stringify({ command: c }) } : { tool_input: { command: c } }) });
        }),
        command.chain((c) => fc.record({ hook_event_name: fc.constantFrom('PreToolUse', 'BeforeTool', 'beforeShellExecution', 'Other'), tool_name: fc.constantFrom('Bash', 'bash', 'run_shell_command', 'Read'), toolName: fc.constantFrom('bash', 'Bash', 'view'), toolArgs: fc.oneof(fc.constant(JSON.stringify({ command: c })), fc.anything()), tool_input: fc.oneof(fc.constant({ command: c }), fc.anything()), command: fc.constant(c), permission_mode: fc.constantFrom('bypassPermissions', 'default') }, { requiredKeys: [] }).map((o) => JSON.stringify(o))),
      );
      await fc.assert(
        fc.asyncProperty(payload, async (text) => {
          const r = await fastDecision({ argv: args(id), cwd: home.cwd, payload: text, env }, memo);
          if (r.kind === 'slow') return;
          const ref = await reference(id, text);
          const mine = r.kind === 'pass' ? '' : `${r.line}\n`;
          if (ref.code !== 0 || ref.out !== mine) throw new Error(`${id}: daemon ${JSON.stringify(mine)} vs node ${ref.code} ${JSON.stringify(ref.out)} for ${text.slice(0, 200)}`);
          // What the daemon answers is never a refusal, an ask or an operator's allow: those are the node hook's to give (and audit).
          if (/"(?:deny|ask|block)"/.test(mine)) throw new Error(`the daemon answered a refusal: ${mine}`);
        }),
        { numRuns: 300 },
      );
    }
  }, 600_000);

  it('a request of another shape is not decided: unknown environment keys, a duplicated key, a short header', () => {
    const req = (fields: string[], payload = '{}') => Buffer.concat([Buffer.from(fields.map((f) => `${f}\0`).join('')), Buffer.from(payload)]);
    const head = ['mish-hook-request 1', '/x/bin', process.execPath, '/tmp', '2', 'hook', 'claude-code'];
    expect(parseRequest(req([...head, 'HOME=/h', ''], '{"a":1}'))).toMatchObject({ argv: ['hook', 'claude-code'], env: { HOME: '/h' }, payload: '{"a":1}' });
    expect(parseRequest(req([...head, 'LD_PRELOAD=/evil.so', '']))).toBe('an unexpected environment entry');
    expect(parseRequest(req([...head, 'HOME=/a', 'HOME=/b', '']))).toBe('an unexpected environment entry');
    expect(parseRequest(req(['mish-hook-request 2', ...head.slice(1), '']))).toBe('not a request of this version');
    expect(parseRequest(Buffer.from('mish-hook-request 1\0/x\0'))).toBe('a malformed request header');
    expect(parseRequest(req([...head, 'HOME=/h']).subarray(0, -3))).toBe('an unterminated environment');
  });

  it('a request file readable by others, a link, a FIFO or another user\'s is not read', () => {
    const q = path.join(home.home, 'q.1.2.3');
    writeFileSync(q, 'mish-hook-request 1\0', { mode: 0o644 });
    spawnSync('chmod', ['644', q]);
    expect(readRequest(q)).toBe('the request is readable by others');
    rmSync(q);
    writeFileSync(path.join(home.home, 'target'), 'x', { mode: 0o600 });
    symlinkSync(path.join(home.home, 'target'), q);
    expect(readRequest(q)).toMatch(/^the request cannot be read \(ELOOP\)$/);
    rmSync(q);
    spawnSync('mkfifo', ['-m', '600', q]);
    expect(readRequest(q)).toBe('the request is not a regular file');
    rmSync(q);
  });
});

describe('through bin/mish-hook.sh with a live daemon (real processes)', () => {
  it('the first call runs the node hook and starts the daemon; later ones are answered by it, byte for byte the node hook\'s answer', async () => {
    await killDaemon();
    const payload = withCommand('claude-code', 'npm test');
    const first = await front('claude-code', payload);
    expect(first.trace[0]).toBe('node: no daemon FIFO');
    await warmDaemon();
    const later = await front('claude-code', payload);
    expect(later.trace).toEqual(['fast']);
    const ref = await nodeHook('claude-code', payload);
    expect(first).toMatchObject({ code: 0, out: ref.out });
    expect(later).toMatchObject({ code: 0, out: ref.out, err: '' });
    expect(later.out).toContain("bin/mish.js -- 'npm test'");
  }, 60_000);

  it('every dangerous line through the front, for Claude Code (bypassPermissions): the node hook\'s exact answer (0 let through)', async () => {
    await warmDaemon();
    const dangerous = readTable('dangerous.txt');
    const differ: string[] = [];
    // One host through real processes (each line goes on to a node hook start); every host in-process above.
    const jobs: [HostId, string][] = dangerous.map((l) => ['claude-code', l]);
    let next = 0;
    // A few at a time: each goes on to a node hook start (~0.1-0.4 s on this machine).
    const worker = async () => {
      while (next < jobs.length) {
        const [id, line] = jobs[next++];
        const payload = withCommand(id, line);
        const [r, ref] = [await front(id, payload), await reference(id, payload)];
        if (r.code !== ref.code || r.out !== ref.out) differ.push(`${id}: ${line}: front ${r.code} ${r.out.slice(0, 120)} vs node ${ref.code} ${ref.out.slice(0, 120)}`);
        if (r.trace[0] === 'fast') differ.push(`${id}: ${line}: answered by the daemon`);
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    expect(differ).toEqual([]);
  }, 900_000);

  it('allowed lines in every host through the front: the node hook\'s exact answer, from the daemon', async () => {
    await warmDaemon();
    const differ: string[] = [];
    let fast = 0;
    for (const id of HOST_IDS) {
      for (const line of ['npm test', 'ls -la', 'git status', 'cargo build --release', 'cd src', 'echo "héllo wörld ✓"', "grep -rn 'a b' .", 'make -j4 2>&1 | tail -5']) {
        const payload = withCommand(id, line);
        const [r, ref] = [await front(id, payload), await reference(id, payload)];
        if (r.trace[0] === 'fast') fast++;
        if (r.code !== ref.code || r.out !== ref.out || r.err !== '') differ.push(`${id}: ${line}: front ${r.code} ${JSON.stringify(r.out)} ${r.err} vs node ${ref.code} ${JSON.stringify(ref.out)}`);
      }
    }
    expect(differ).toEqual([]);
    // Under load a reply can miss the front's 1.5 s wait (the node hook then answers, the same): most are the daemon's.
    expect(fast).toBeGreaterThan(20);
  }, 300_000);
});

describe('failing closed: anything odd runs the node hook, never an answer of the front\'s own', () => {
  // Forbidden by the built-in policy (mish doctor's probe): denied in every host.
  const forbidden = (id: HostId) => withCommand(id, PROBE_FORBIDDEN);
  beforeEach(fresh);
  const expectDenied = (id: HostId, r: Run) => {
    if (id === 'copilot') {
      // Copilot CLI runs the tool after a failed hook: every answer there is a JSON deny with exit 0.
      expect(r.code).toBe(0);
      expect(JSON.parse(r.out).permissionDecision).toBe('deny');
    } else expect(JSON.parse(r.out).hookSpecificOutput.permissionDecision).toBe('deny');
  };

  it('no daemon at all (MISH_HOOK_DAEMON=0): the node hook, none started', async () => {
    await killDaemon();
    const r = await front('claude-code', forbidden('claude-code'), { MISH_HOOK_DAEMON: '0' });
    expect(r.trace).toEqual(['node: MISH_HOOK_DAEMON=0']);
    expectDenied('claude-code', r);
    await new Promise((res) => setTimeout(res, 500));
    expect(runningDaemon(dir)).toBeUndefined();
  }, 60_000);

  it('a stopped (wedged) daemon: after the front\'s wait the node hook answers, its FIFO is removed, and it exits when resumed', async () => {
    const pid = await warmDaemon();
    process.kill(pid, 'SIGSTOP');
    try {
      const started = Date.now();
      const r = await front('copilot', forbidden('copilot'));
      expect(r.trace[0]).toMatch(/^node: no reply in/);
      expectDenied('copilot', r);
      expect(Date.now() - started).toBeGreaterThan(1_400);
      expect(fifoThere()).toBe(false);
      // Later calls skip it at once.
      const again = await front('copilot', withCommand('copilot', 'ls'));
      expect(again.trace[0]).toBe('node: no daemon FIFO');
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    await until('the resumed daemon to exit', () => !pidAlive(pid));
  }, 60_000);

  it('a crashed daemon (stale pidfile and FIFO): the node hook answers, and a new daemon replaces it', async () => {
    const pid = await warmDaemon();
    process.kill(pid, 'SIGKILL');
    await until('the kill', () => runningDaemon(dir) === undefined);
    const r = await front('claude-code', forbidden('claude-code'));
    expect(r.trace[0]).toBe('node: no daemon process');
    expectDenied('claude-code', r);
    await until('a new daemon', () => {
      const p = runningDaemon(dir);
      return p !== undefined && p !== pid && fifoThere();
    });
  }, 60_000);

  it('a pidfile naming a live process that is not the daemon: the node hook answers; a daemon takes the pidfile over', async () => {
    await killDaemon();
    // The FIFO a crashed daemon left, and this test's own pid in the pidfile.
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    spawnSync('mkfifo', ['-m', '600', path.join(dir, 'req')]);
    writeFileSync(path.join(dir, 'pid'), `${process.pid}\n`, { mode: 0o600 });
    const r = await front('claude-code', forbidden('claude-code'));
    // The front sees a live pid and asks; nobody reads that FIFO: after its wait the node hook answers.
    expect(r.trace[0]).toMatch(/^node: no reply in/);
    expectDenied('claude-code', r);
    await until('a real daemon', () => runningDaemon(dir) !== undefined && readFileSync(path.join(dir, 'pid'), 'utf8').trim() !== String(process.pid) && fifoThere());
  }, 60_000);

  it('forged, foreign and malformed replies (a fake daemon on the FIFO): the node hook\'s answer every time', async () => {
    await killDaemon();
    // @@ is the request's id.
    const replies = [
      'mishd1 @@x out {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}',
      'mishd1 1.2.3 out {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}',
      'mishd1 1.2.3 pass',
      'mishd1 @@ out not json',
      'mishd1 @@ out {"a":1} trailing',
      'mishd2 @@ pass',
      'mishd1 @@ passed',
      'mishd1 @@ slow because',
      ' mishd1 @@ pass',
      '',
    ];
    // The pid it writes is a process with a `--daemon` argument (as runningDaemon reads it: one argument of its command line):
    // the node hook the front falls back to then starts no real daemon, which took the directory over mid-test under load (a
    // stress run read the fake's pidfile gone between two reads).
    const fakeDaemon = `(${FAKE_DAEMON_SH}) & echo $! > "$D/pid"; exec 3<>"$D/req"; read -r id <&3; line=\${TPL//@@/$id}; printf '%s\\n' "$line" > "$D/a.$id"`;
    for (const [i, tpl] of replies.entries()) {
      // A fake daemon on the FIFO answering with the forged line; a sleeping process's pid in the pidfile.
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      rmSync(path.join(dir, 'req'), { force: true });
      rmSync(path.join(dir, 'pid'), { force: true });
      spawnSync('mkfifo', ['-m', '600', path.join(dir, 'req')]);
      const fake = spawn('bash', ['-c', fakeDaemon], { stdio: 'ignore', env: { PATH: process.env.PATH ?? '', D: dir, TPL: tpl, NODE: process.execPath } });
      let sleeper = 0;
      await until('the fake daemon', () => {
        const text = existsSync(path.join(dir, 'pid')) ? readFileSync(path.join(dir, 'pid'), 'utf8') : '';
        if (/^\d+\n$/.test(text)) sleeper = Number(text);
        return sleeper > 0;
      });
      const r = await front('claude-code', forbidden('claude-code'));
      expect(r.trace[0], `reply ${i}: ${tpl}`).toMatch(/^node: /);
      expectDenied('claude-code', r);
      fake.kill('SIGKILL');
      try {
        process.kill(sleeper, 'SIGKILL');
      } catch {
        // gone
      }
    }
    rmSync(path.join(dir, 'req'), { force: true });
    rmSync(path.join(dir, 'pid'), { force: true });
  }, 120_000);

  it('hostile files: the FIFO a regular file, the directory a link: the node hook answers', async () => {
    await warmDaemon();
    // A request file that already exists (a link planted under the name the front would use) cannot be guessed,
    // but one in every name would stop the front from writing: it falls back.
    await killDaemon();
    rmSync(dir, { recursive: true, force: true });
    // Stress run 151: a daemon the first part's node hook started came up late on the loaded machine, took the second
    // part's directory over (the pidfile named this test's process, no daemon) and answered. Now every daemon is killed
    // after the first part, and the pidfile names a live process with a `--daemon` argument (as runningDaemon reads it):
    // neither part's node hook starts one. Stress run 180 (session 8): the fake was `exec -a "fake-mishd --daemon" sleep
    // 60`, one argument `fake-mishd --daemon` that runningDaemon does not take for a daemon, and it had this test's HOME,
    // so killEveryDaemon killed it: both parts' node hooks started real daemons, and the second one's FIFO replaced the
    // regular file when it came up before the check (1 run in 6 alone beside three busy loops).
    const sleeper = spawn('bash', ['-c', FAKE_DAEMON_SH], { stdio: 'ignore', env: { PATH: process.env.PATH ?? '', NODE: process.execPath } });
    await until('the fake daemon', () => runningDaemon(dir) === undefined && isFakeDaemon(sleeper.pid!));
    try {
      // The directory is a link to somewhere else: not used.
      const elsewhere = path.join(home.home, 'elsewhere');
      mkdirSync(elsewhere, { recursive: true, mode: 0o700 });
      spawnSync('mkfifo', ['-m', '600', path.join(elsewhere, 'req')]);
      writeFileSync(path.join(elsewhere, 'pid'), `${sleeper.pid}\n`);
      symlinkSync(elsewhere, dir);
      let r = await front('claude-code', forbidden('claude-code'));
      expect(r.trace[0]).toBe('node: no daemon FIFO');
      expectDenied('claude-code', r);
      // The node hook took the fake for a running daemon and started none (it would start before the front exits).
      expect(daemonsOfThisHome()).toEqual([]);
      rmSync(dir, { force: true });
      // A linked directory is no daemon's: the node hook started one, which would make the next part's directory its own.
      await killEveryDaemon();
      // The FIFO is a regular file.
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(path.join(dir, 'req'), '');
      writeFileSync(path.join(dir, 'pid'), `${sleeper.pid}\n`);
      r = await front('claude-code', forbidden('claude-code'));
      expect(r.trace[0]).toBe('node: no daemon FIFO');
      expectDenied('claude-code', r);
      // No daemon was started beside the fake (it would have replaced the regular file with its FIFO).
      expect(daemonsOfThisHome()).toEqual([]);
      expect(lstatSync(path.join(dir, 'req')).isFile()).toBe(true);
      rmSync(dir, { recursive: true, force: true });
      rmSync(elsewhere, { recursive: true, force: true });
    } finally {
      sleeper.kill('SIGKILL');
    }
  }, 60_000);

  it('a live daemon whose FIFO became a regular file makes a new one and answers again, the same process (no --stop-daemon, no restart)', async () => {
    const pid = await warmDaemon();
    // What a front's open of `req` just after a removal leaves, or a stray `> req`.
    rmSync(path.join(dir, 'req'));
    writeFileSync(path.join(dir, 'req'), '', { mode: 0o600 });
    const r = await front('claude-code', withCommand('claude-code', 'ls'));
    expect(r.trace[0]).toBe('node: no daemon FIFO');
    expect(r.code).toBe(0);
    await until('a new FIFO', fifoThere);
    expect(runningDaemon(dir)).toBe(pid);
    let fast = false;
    for (let i = 0; i < 5 && !fast; i++) fast = (await front('claude-code', withCommand('claude-code', 'ls'))).trace[0] === 'fast';
    expect(fast).toBe(true);
    expect(runningDaemon(dir)).toBe(pid);
  }, 60_000);

  it('a daemon refuses a directory open to others', async () => {
    await killDaemon();
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    spawnSync('chmod', ['755', dir]);
    const r = spawnSync(process.execPath, [NODE_HOOK, 'hook', '--daemon'], { env, encoding: 'utf8', timeout: 20_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^mish hook daemon: not started: .* is open to other users \(mode 755\)\n$/);
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('payloads the front does not hand over: a NUL byte, over 64 KB, not JSON: the node hook gets the exact bytes', async () => {
    await warmDaemon();
    const withNul = Buffer.concat([Buffer.from(withCommand('claude-code', 'npm test').slice(0, -1)), Buffer.from([0]), Buffer.from('}')]);
    const big = withCommand('claude-code', `echo ${'x'.repeat(70_000)}`);
    for (const [input, why] of [
      [withNul, 'node: a NUL byte in the payload'],
      [big, 'node: payload over the cap'],
    ] as const) {
      const r = await front('claude-code', input);
      const ref = await nodeHook('claude-code', input);
      expect(r.trace[0]).toBe(why);
      expect({ code: r.code, out: r.out }).toEqual({ code: ref.code, out: ref.out });
    }
    // Not JSON goes to the daemon, which leaves it to the node hook (the fallback answer is audited).
    const r = await front('codex', 'not json');
    expect(r.trace[0]).toMatch(/^node: reply: mishd1 \S+ slow /);
    expect(JSON.parse(r.out).hookSpecificOutput.permissionDecision).toBe('deny');
  }, 60_000);
});

describe('a host that never finishes writing the payload', () => {
  /** The front run with half a payload on a stdin that stays open: its trace, exit code and answer. */
  async function stalled(timeout: string): Promise<{ trace: string; code: number | null; out: string }> {
    const trace = path.join(home.home, `stall-trace-${timeout}`);
    const c = spawn('bash', [FRONT, process.execPath, 'hook', 'codex', '--timeout', timeout], { cwd: home.cwd, env: { ...env, MISH_HOOK_FRONT_TRACE: trace }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    c.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    c.stdin.write(withCommand('codex', 'npm test').slice(0, 40));
    const code = await new Promise<number | null>((resolve) => c.on('close', resolve));
    c.stdin.destroy();
    return { trace: readFileSync(trace, 'utf8').trim(), code, out };
  }

  it('the front gives up after 10 s and the node hook answers the host\'s ask or deny (not JSON), never an allow', async () => {
    await warmDaemon();
    const r = await stalled('330');
    expect(r.trace).toBe('node: stdin stalled (10.000s)');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).hookSpecificOutput.permissionDecision).toBe('deny');
  }, 60_000);

  it("within a short host timeout, the front's wait leaves the node hook its time: --timeout 10 waits 3.5 s, --timeout 2 half a second", async () => {
    await warmDaemon();
    // 10 s less the node hook's margin (5 s) less its start (1.5 s); 2 s less 1 s less 1.5 s is under the floor.
    for (const [timeout, wait] of [['10', '3.500'], ['2', '0.500']] as const) {
      const r = await stalled(timeout);
      expect(r.trace).toBe(`node: stdin stalled (${wait}s)`);
      expect(JSON.parse(r.out).hookSpecificOutput.permissionDecision).toBe('deny');
    }
  }, 60_000);
});

describe('the daemon\'s life', () => {
  beforeEach(fresh);
  it('never two: five started at once leave one, which serves', async () => {
    await killDaemon();
    const kids = Array.from({ length: 5 }, () => spawn(process.execPath, [NODE_HOOK, 'hook', '--daemon'], { env, stdio: 'ignore', detached: true }));
    await until('one daemon', () => runningDaemon(dir) !== undefined && fifoThere());
    await new Promise((r) => setTimeout(r, 2_500));
    const alive = kids.filter((k) => pidAlive(k.pid!));
    expect(alive.map((k) => k.pid)).toEqual([runningDaemon(dir)]);
    for (const k of kids) k.unref();
  }, 60_000);

  it('--stop-daemon ends it and it removes its FIFO and pidfile; --daemon-status says so', async () => {
    await warmDaemon();
    const s = spawnSync(process.execPath, [NODE_HOOK, 'hook', '--daemon-status'], { env, encoding: 'utf8' });
    expect(s.stdout).toMatch(/^hook daemon: running \(pid \d+, /);
    const r = spawnSync(process.execPath, [NODE_HOOK, 'hook', '--stop-daemon'], { env, encoding: 'utf8' });
    expect(r.stdout).toMatch(/^stopped the mish hook daemon \(pid \d+, /);
    await until('its files to go', () => !existsSync(path.join(dir, 'pid')) && !existsSync(path.join(dir, 'req')));
    expect(spawnSync(process.execPath, [NODE_HOOK, 'hook', '--daemon-status'], { env, encoding: 'utf8' }).stdout).toMatch(/^hook daemon: not running/);
  }, 60_000);

  it('exits when idle, when its directory is removed, and when its bundle changes', async () => {
    await killDaemon();
    // Idle.
    const idle = spawn(process.execPath, [NODE_HOOK, 'hook', '--daemon'], { env: { ...env, MISH_HOOKD_IDLE_MS: '1000' }, stdio: 'ignore' });
    await until('the idle daemon to exit', () => idle.exitCode !== null, 20_000);
    expect(runningDaemon(dir)).toBeUndefined();
    // Its directory removed.
    const pid = await warmDaemon();
    rmSync(dir, { recursive: true, force: true });
    await until('the daemon to notice its directory is gone', () => !pidAlive(pid));
    // Its bundle changed (a rebuild): the same bytes, a new mtime.
    const pid2 = await warmDaemon();
    const st = statSync(BUNDLE);
    utimesSync(BUNDLE, st.atime, new Date(st.mtimeMs + 1000));
    try {
      const r = await front('claude-code', withCommand('claude-code', 'ls'));
      // The request that notices gets slow (the node hook answers it) and the daemon exits.
      expect(r.trace[0]).toMatch(/^node: reply: mishd1 \S+ slow its bundle changed/);
      await until('the daemon to exit after its bundle changed', () => !pidAlive(pid2));
    } finally {
      utimesSync(BUNDLE, st.atime, st.mtime);
    }
  }, 90_000);
});

/**
 * `mish hook <agent>`: the program an agent host runs before each of its shell tool's calls.
 * Reads the host's payload on stdin, decides (hook-decision.ts) and prints the host's answer.
 *
 * Fails closed and never wedges: a payload it cannot read, an error inside mish, or a decision
 * still open near the host's timeout (`--timeout`, written by `mish init`) end in the host's
 * ask (where that asks its user) or deny, with a one-line reason, never in a silent allow.
 *
 * This module is its own bundle entry (dist/hook.mjs): it loads the policy and nothing of the
 * router, squasher or PTY code; the operator wire and the audit log load only for escalations.
 */
import { existsSync, read, readFileSync, realpathSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { decide, type Policy, type PolicyDecision } from '../core/policy/index.js';
import { policyOwnPaths } from '../core/policy/decide.js';
import { fileEditChange, hookConfigPaths, mishOwnPaths } from '../core/policy/own-files.js';
import { APPROVAL_TOKEN_ENV, issueApprovalToken } from './approval-token.js';
import { loadEscalation } from './escalation-loader.js';
import { askWhereHostAsks, decideHook, type OperatorOutcome } from './hook-decision.js';
import { HOST_IDS, hostOf } from './hosts/index.js';
import type { HookAnswer, HostAdapter, ShellCall } from './hosts/types.js';
import { launcherScript, mishLauncher, shellQuote } from './mish-path.js';
import { loadPolicyCached } from './policy-cache.js';

export const HOOK_HELP = `usage: mish hook <agent> [--timeout SECONDS]

The hook program an agent runs before each command of its own shell tool (installed by
\`mish init <agent>\`; you do not run it yourself). Reads the agent's hook payload on stdin and
prints the agent's answer: forbidden commands are denied with the rule and reason, dangerous
ones go to a mish operator (console or \`mish approvals\`) or to the agent's own prompt, allowed
ones are rewritten to run through mish where the agent allows that without approving them.

agents: ${HOST_IDS.join(', ')}
  --timeout SECONDS   the agent's timeout for this hook (mish answers on its own before it)
  -h, --help          this help

mish hook --daemon-status   whether this user's hook daemon runs (bin/mish-hook.sh's fast path)
mish hook --stop-daemon     end it (it also ends itself after 15 idle minutes)
`;

/** Largest payload read: a shell call is a few KB; anything far larger is not a payload. */
const MAX_PAYLOAD_BYTES = 4 * 1024 * 1024;
/** The hook answers this long before the host's timeout (process exit and host overhead). */
export const HOOK_DEADLINE_MARGIN_MS = 5_000;
/** Without --timeout: the deadline of the hosts' documented defaults (Gemini 60 s, Claude Code 60 s+). */
const DEFAULT_TIMEOUT_SEC = 60;
/** Bytes read from stdin at a time. */
const STDIN_CHUNK = 64 * 1024;

/** The identity of the code compiling the policy (dist/hook.cjs's); set, the compiled policy is cached between runs (policy-cache.ts). */
let policyCodeId: string | undefined;
export function usePolicyCache(codeId: string | undefined): void {
  policyCodeId = codeId;
}

/**
 * Thrown in fast-only mode (the hook daemon, hook-daemon.ts) where the answer is not one the
 * daemon gives: an escalation, a refusal (it is audited), a fallback, anything unusual. The
 * bash front then runs the node hook, which decides it as it always did.
 */
export class SlowPath extends Error {
  constructor(why: string) {
    super(`slow path: ${why}`);
  }
}

export interface RunHookOptions {
  /** Answer only what needs no operator, no audit record and no timer (pass, a rewrite); else throw SlowPath. */
  fastOnly?: boolean;
  /** Compiled policies kept in memory by the long-lived daemon (policy-cache.ts: same key, same checks). */
  policyMemo?: Map<string, Policy>;
}

/** Answers the daemon gives: no side effect, nothing waited for. */
function fastAnswer(a: HookAnswer): boolean {
  return a.kind === 'pass' || (a.kind === 'rewrite' && !a.approve);
}

export async function runHook(argv: string[], io: HookIo = processIo(), opts: RunHookOptions = {}): Promise<number> {
  // The per-user daemon behind bin/mish-hook.sh (hook-daemon.ts), and its controls.
  if (!opts.fastOnly && argv[0] === '--daemon') return (await import('./hook-daemon.js')).runDaemon();
  if (!opts.fastOnly && (argv[0] === '--stop-daemon' || argv[0] === '--daemon-status')) {
    const d = await import('./hook-daemon-dir.js');
    io.out(`${argv[0] === '--stop-daemon' ? d.stopDaemon(io.env) : d.daemonStatus(io.env).line}\n`);
    return 0;
  }
  let id: string | undefined;
  let timeoutSec = DEFAULT_TIMEOUT_SEC;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h' || a === '--help') {
      io.out(HOOK_HELP);
      return 0;
    }
    if (a === '--timeout' || a.startsWith('--timeout=')) {
      const v = Number(a.includes('=') ? a.slice(10) : argv[++i]);
      if (!Number.isFinite(v) || v <= 0) return usage(io, 'mish hook: --timeout needs a number of seconds');
      timeoutSec = v;
    } else if (a.startsWith('-')) return usage(io, `mish hook: unknown option '${a}' (see mish hook --help)`);
    else if (id === undefined) id = a;
    else return usage(io, `mish hook: unexpected argument '${a}' (see mish hook --help)`);
  }
  if (id === undefined) return usage(io, `mish hook: name the agent (${HOST_IDS.join(', ')}; see mish hook --help)`);
  const host = hostOf(id);
  if (!host) return usage(io, `mish hook: unknown agent '${id}' (one of ${HOST_IDS.join(', ')})`);

  const startedAt = io.now();
  const deadline = startedAt + Math.max(1_000, timeoutSec * 1000 - Math.min(HOOK_DEADLINE_MARGIN_MS, (timeoutSec * 1000) / 2));
  const abort = new AbortController();
  // What the payload showed about the host's own prompt, for an answer mish gives without deciding (a timeout, a crash).
  const seen: Seen = {};
  let answered = false;
  const answer = (a: HookAnswer): number => {
    if (opts.fastOnly && !fastAnswer(a)) throw new SlowPath(a.kind);
    if (answered) return 0;
    answered = true;
    const r = host.render(a);
    if (r.stdout) io.out(r.stdout);
    if (r.stderr) io.err(r.stderr);
    return r.exitCode;
  };
  // Near the host's timeout, whatever is still open is answered on its own (a timed-out hook fails open in some hosts).
  let timer: NodeJS.Timeout | undefined;
  // Fast-only (the daemon): no deadline of its own; the bash front waits a short while and runs this hook in full if no answer came.
  if (opts.fastOnly) return answer(await decideCall(host, io, deadline, abort.signal, opts, seen));
  const late = new Promise<number>((resolve) => {
    timer = setTimeout(() => {
      abort.abort();
      resolve(answer(fallback(host, `mish hook: no decision within ${Math.round((deadline - startedAt) / 1000)}s, before ${host.name}'s hook timeout`, seen.hostWouldNotAsk)));
    }, Math.max(0, deadline - io.now()));
    timer.unref?.();
  });
  try {
    return await Promise.race([late, decideCall(host, io, deadline, abort.signal, opts, seen).then(answer)]);
  } catch (e) {
    if (e instanceof SlowPath) throw e;
    return answer(fallback(host, `mish hook: internal error (${(e as Error)?.message ?? String(e)}); not checked by mish`, seen.hostWouldNotAsk));
  } finally {
    clearTimeout(timer);
  }
}

let launchers: string[] | undefined;
/** The launchers an agent's hook runs (what `mish init` writes), looked up once per process. */
function hookLaunchers(): string[] {
  return (launchers ??= [launcherScript('mish-hook.sh'), launcherScript('mish-hook.cjs')]);
}

interface Seen {
  /** The host would run the call without asking its user (so its `ask` would not ask: Claude Code in bypassPermissions mode). */
  hostWouldNotAsk?: boolean;
}

/** The answer when mish could not decide: ask where the host then asks its user, else deny. */
export function fallback(host: HostAdapter, why: string, hostWouldNotAsk = false): HookAnswer {
  return askWhereHostAsks(host, hostWouldNotAsk, `${why}. Approve only if you meant it.`, `${why}. Nothing was run; try again, or ask the user.`);
}

async function decideCall(host: HostAdapter, io: HookIo, deadline: number, signal: AbortSignal, opts: RunHookOptions = {}, seen: Seen = {}): Promise<HookAnswer> {
  const text = await io.readStdin(MAX_PAYLOAD_BYTES);
  // A payload mish cannot read does not say the host's permission mode either: in Claude Code's
  // bypassPermissions an ask runs the call, and the agent controls the size (a Write of 5 MB), so deny.
  if (text === undefined) return fallback(host, `mish hook: the payload is larger than ${MAX_PAYLOAD_BYTES} bytes`, true);
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch (e) {
    return fallback(host, `mish hook: the payload is not JSON (${(e as Error).message})`, true);
  }
  // Claude Code's field (Codex's payloads share the shape): read before parsing, so a malformed payload in that mode is denied too.
  seen.hostWouldNotAsk = typeof payload === 'object' && payload !== null && (payload as Record<string, unknown>).permission_mode === 'bypassPermissions';
  const parsed = host.parse(payload, io.env);
  if (parsed.kind === 'other') return { kind: 'pass', note: parsed.what };
  if (parsed.kind === 'malformed') return fallback(host, `mish hook: unexpected ${host.name} payload (${parsed.error})`, seen.hostWouldNotAsk);
  if (parsed.call.hostWouldNotAsk) seen.hostWouldNotAsk = true;
  if (parsed.kind === 'file-edit') return decideFileEdit(host, parsed.tool, parsed.files, parsed.call, io, opts);
  const call = parsed.call;
  // A line that also edits files by the host's own means (Codex's `apply_patch <<EOF`): a protected file decides first.
  const edits = parsed.editsFiles?.length ? await decideFileEdit(host, 'apply_patch', parsed.editsFiles, call, io, opts) : undefined;
  if (edits?.kind === 'deny') return edits;
  const cwd = call.cwd && path.isAbsolute(call.cwd) && existsSync(call.cwd) ? call.cwd : io.cwd();
  const policy = loadPolicyCached({ grammarsDir: grammarsDir(), cwd, env: io.env }, { codeId: policyCodeId, memo: opts.policyMemo });
  // mish's own files for this environment, from io.env (what decide() would spread from process.env): the decision reads only the keys it names.
  const ownPaths = [...mishOwnPaths(io.env), ...policyOwnPaths(policy)];
  // The agents' hook configuration files (where this hook is installed), from the same environment.
  const hookFiles = hookConfigPaths(io.env, hookLaunchers());
  const home = io.env.HOME;
  let audit: Promise<HookAudit | undefined> | undefined;
  const auditing = () => (audit ??= loadEscalation().then((m) => m.createHookAudit(host, call), () => undefined));
  const result = await decideHook(host, { ...call, cwd }, {
    decide: (line) => decide(line, policy, { cwd, ownPaths, hookFiles, ...(home !== undefined ? { home } : {}), ...(io.env.CDPATH !== undefined ? { cdpath: io.env.CDPATH } : {}) }),
    askOperator: async (c: ShellCall, d: PolicyDecision): Promise<OperatorOutcome> => {
      if (opts.fastOnly) throw new SlowPath('an escalation');
      const a = await auditing();
      const m = await loadEscalation();
      const join = Number(io.env.MISH_HOOK_OPERATOR_JOIN_MS);
      return m.askOperator(host, c, d, { version: mishVersion(), deadline, signal, onAudit: a?.operator, dir: io.env.MISH_OPERATOR_DIR, ...(Number.isFinite(join) && join >= 0 && io.env.MISH_HOOK_OPERATOR_JOIN_MS !== '' ? { joinMs: join } : {}) });
    },
    // The launcher is looked up (stat + realpath of bin/mish.js) only for a rewrite, not for every deny, ask or pass.
    rewriteAs: (c) => rewriteCommand(host, c, mishLauncher()),
    rewriteApproved: (c, approval) => rewriteCommand(host, c, mishLauncher(), issueApprovalToken(c.command, approval, { env: io.env })),
  });
  if (opts.fastOnly && (!fastAnswer(result) || audit)) throw new SlowPath(result.kind);
  // Escalations (an approved one may be a rewrite) and refusals are recorded; every record of an escalation is on disk before the answer.
  if ((result.kind !== 'pass' && result.kind !== 'rewrite') || audit) {
    const a = await auditing();
    if (result.kind !== 'pass' && result.kind !== 'rewrite') a?.decided(result);
    await a?.flush();
  }
  // The edit's ask stands unless the line itself was refused (the stricter answer).
  if (edits?.kind === 'ask' && result.kind !== 'deny') return edits;
  return result;
}

/**
 * The host's own file-editing tool on `files`: mish's own files are denied, an agent's hook
 * configuration is asked about (the host's prompt: the user decides; denied where the host would
 * not prompt or its hooks cannot ask), anything else passes. Several files (a patch): the
 * strictest answer of any of them. Not sent to a mish operator: an approval there could not be
 * passed on as a rewrite of an edit.
 */
async function decideFileEdit(host: HostAdapter, tool: string, files: string[], call: ShellCall, io: HookIo, opts: RunHookOptions): Promise<HookAnswer> {
  const cwd = call.cwd && path.isAbsolute(call.cwd) ? call.cwd : io.cwd();
  const policy = loadPolicyCached({ grammarsDir: grammarsDir(), cwd, env: io.env }, { codeId: policyCodeId, memo: opts.policyMemo });
  const own = [...mishOwnPaths(io.env), ...policyOwnPaths(policy)];
  const hookFiles = hookConfigPaths(io.env, hookLaunchers());
  // As written, and as the filesystem will write it: a link made earlier (`ln -s ~/.claude /tmp/c`,
  // then a Write of /tmp/c/settings.json) is followed; both, because the protected list is as spelled.
  const judge = (file: string) => fileEditChange(file, own, hookFiles, cwd, io.env.HOME) ?? fileEditChange(realTarget(file, cwd), own, hookFiles, cwd, io.env.HOME);
  let v: ReturnType<typeof judge>;
  for (const file of files) {
    const w = judge(file);
    if (w && (!v || (w.decision === 'forbid' && v.decision !== 'forbid'))) v = w;
  }
  if (!v) return { kind: 'pass', note: `${tool} of a file mish does not protect` };
  if (opts.fastOnly) throw new SlowPath(`a ${tool} of a protected file`);
  const base = `mish policy: rule ${v.rule} (${v.decision}): ${tool} ${v.reason}`;
  const notAsked = host.unattended === 'ask' ? `${host.name} would not ask you in this mode` : `${host.name}'s hooks cannot ask you`;
  const a: HookAnswer =
    v.decision === 'forbid'
      ? { kind: 'deny', reason: `${base}. Do not retry it; ask the user.` }
      : askWhereHostAsks(host, call.hostWouldNotAsk, `${base}. Approve only if you meant it.`, `${base}; ${notAsked}, so it was not done. Ask the user to make this change.`);
  const audit = await loadEscalation().then((m) => m.createHookAudit(host, { ...call, cwd }), () => undefined);
  audit?.decided(a);
  await audit?.flush();
  return a;
}

/** `file` with the links in its existing part resolved (its missing tail kept as written). */
export function realTarget(file: string, cwd: string): string {
  const abs = path.resolve(cwd, file);
  const rest: string[] = [];
  for (let dir = abs; ; ) {
    try {
      return path.join(realpathSync(dir), ...rest);
    } catch {
      const up = path.dirname(dir);
      if (up === dir) return abs;
      rest.unshift(path.basename(dir));
      dir = up;
    }
  }
}

export interface HookAudit {
  decided(a: HookAnswer): void;
  operator(e: import('../operator/operator-host.js').OperatorAuditEvent): void;
  flush(): Promise<void>;
}

/** `MISH_AGENT=claude-code MISH_AGENT_SESSION=… '<node>' '<mish.js>' -- '<line>'`: the run knows whose it is. */
export function rewriteCommand(host: HostAdapter, call: ShellCall, launcher: string, approvalToken?: string): string {
  const env = [`MISH_AGENT=${host.id}`];
  if (approvalToken) env.push(`${APPROVAL_TOKEN_ENV}=${approvalToken}`);
  if (call.hostVersion) env.push(`MISH_AGENT_VERSION=${shellQuote(call.hostVersion)}`);
  if (call.sessionId) env.push(`MISH_AGENT_SESSION=${shellQuote(call.sessionId)}`);
  if (call.sessionId && call.transcriptPath) env.push(`MISH_AGENT_TRANSCRIPT=${shellQuote(call.transcriptPath)}`);
  return `${env.join(' ')} ${launcher} -- ${shellQuote(call.command)}`;
}

/** The built-in grammars/ folder: next to dist/ in a build, three levels up from src/main/hooks in the sources. */
function grammarsDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const rel of ['../grammars', '../../grammars', '../../../grammars']) {
    const g = path.resolve(here, rel);
    if (existsSync(path.join(g, '_meta', 'policy.toml'))) return g;
  }
  return path.resolve(here, '../grammars');
}

function mishVersion(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const rel of ['../package.json', '../../package.json', '../../../package.json']) {
    try {
      return (JSON.parse(readFileSync(path.resolve(here, rel), 'utf8')) as { version: string }).version;
    } catch {
      // next
    }
  }
  return 'unknown';
}

function usage(io: HookIo, message: string): number {
  io.err(`${message}\n`);
  return 2;
}

export interface HookIo {
  readStdin(max: number): Promise<string | undefined>;
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  cwd(): string;
  now(): number;
}

/**
 * stdin and stdout of the hook process as plain descriptors: a hook reads one payload and writes
 * one answer, and process.stdin / process.stdout cost ~10 ms of stream set-up on every run.
 * stdin is read with fs.read (off the main thread, so the deadline timer still fires if the host
 * never closes it); a non-blocking descriptor (EAGAIN) falls back to the streams.
 */
function processIo(): HookIo {
  return {
    readStdin: (max) => readFd(max),
    out: (t) => writeOut(1, t),
    err: (t) => writeOut(2, t),
    env: process.env,
    cwd: () => {
      try {
        return process.cwd();
      } catch {
        return '/';
      }
    },
    now: () => Date.now(),
  };
}

function readFd(max: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  return new Promise((resolve, reject) => {
    const next = (): void => {
      const buf = Buffer.allocUnsafe(STDIN_CHUNK);
      read(0, buf, 0, buf.length, null, (e, n) => {
        if (e) {
          if (e.code === 'EOF') resolve(Buffer.concat(chunks).toString('utf8'));
          else if (e.code === 'EAGAIN') readStream(max, chunks, size).then(resolve, reject);
          else reject(e);
          return;
        }
        if (n === 0) return resolve(Buffer.concat(chunks).toString('utf8'));
        size += n;
        if (size > max) return resolve(undefined);
        chunks.push(buf.subarray(0, n));
        next();
      });
    };
    next();
  });
}

/** The rest of stdin through process.stdin (a non-blocking descriptor). */
function readStream(max: number, chunks: Buffer[], size: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    process.stdin.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) {
        process.stdin.destroy();
        resolve(undefined);
      } else chunks.push(c);
    });
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', reject);
  });
}

/** Whether an answer went through process.stdout/stderr (the entry then waits for them to drain before exiting). */
export let wroteThroughStreams = false;

function writeOut(fd: 1 | 2, text: string): void {
  let buf = Buffer.from(text, 'utf8');
  try {
    while (buf.length > 0) buf = buf.subarray(writeSync(fd, buf));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // EPIPE: the host stopped reading; the exit code still carries the answer.
    if (code === 'EPIPE') return;
    if (code !== 'EAGAIN') throw e;
    wroteThroughStreams = true;
    (fd === 1 ? process.stdout : process.stderr).write(buf);
  }
}

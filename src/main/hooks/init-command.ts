/**
 * `mish init [<agent>] [--project] [--uninstall] [--dry-run]`: installs mish's hook into an
 * agent's settings (settings-file.ts edits only mish's entry), or lists the agents found.
 *
 * Byte-exact uninstall: install keeps the file's bytes from before (and after) the change in
 * mish's state directory; `--uninstall` puts the original bytes back when the file is still
 * exactly what mish wrote, and otherwise removes only mish's entry (keeping the user's changes).
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HOST_IDS, HOSTS, hostOf } from './hosts/index.js';
import type { HostAdapter } from './hosts/types.js';
import { hookLauncher } from './mish-path.js';
import { addEntry, hasEntry, removeEntry } from './settings-file.js';

export const INIT_HELP = `usage: mish init                                  list the agents found and what each would get
       mish init <agent> [--project] [--dry-run]   install mish's hook into the agent
       mish init <agent> --uninstall [--project] [--dry-run]

agents: ${HOST_IDS.join(', ')}

Installs \`mish hook <agent>\` as the agent's hook before each command of its own shell tool:
the policy checks every command (forbidden → denied with the reason; dangerous → a mish
operator or the agent's own prompt decides), and where the agent allows it without approving,
the command runs through mish (condensed output, exit code kept). Merges into the agent's
settings file without touching anything else; running it again changes nothing.

  --project     the project's settings file (in this directory) instead of your user file
  --uninstall   remove mish's hook (the file's original bytes come back if nothing else changed);
                refused inside an agent's shell: switching supervision off is yours to do
  --dry-run     print the change as a diff, write nothing
  -h, --help    this help
`;

interface InitArgs {
  agent?: string;
  project: boolean;
  uninstall: boolean;
  dryRun: boolean;
}

export interface InitEnv {
  env: NodeJS.ProcessEnv;
  cwd: string;
  out(t: string): void;
  err(t: string): void;
}

const defaultIo = (): InitEnv => ({ env: process.env, cwd: process.cwd(), out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) });

export function runInit(argv: string[], io: InitEnv = defaultIo()): number {
  const a: InitArgs = { project: false, uninstall: false, dryRun: false };
  for (const x of argv) {
    if (x === '-h' || x === '--help') {
      io.out(INIT_HELP);
      return 0;
    }
    if (x === '--project') a.project = true;
    else if (x === '--uninstall') a.uninstall = true;
    else if (x === '--dry-run') a.dryRun = true;
    else if (x.startsWith('-')) return fail(io, `mish init: unknown option '${x}' (see mish init --help)`);
    else if (a.agent === undefined) a.agent = x;
    else return fail(io, `mish init: one agent at a time ('${x}' is extra; see mish init --help)`);
  }
  if (a.agent === undefined) {
    if (a.uninstall || a.project || a.dryRun) return fail(io, 'mish init: name the agent (see mish init --help)');
    return listAgents(io);
  }
  const host = hostOf(a.agent);
  if (!host) return fail(io, `mish init: unknown agent '${a.agent}' (one of ${HOST_IDS.join(', ')})`);
  const inAgent = a.uninstall && !a.dryRun ? agentShellMarker(io.env) : undefined;
  if (inAgent) return fail(io, `mish init: refusing to remove mish's hook from inside an agent's shell (${inAgent} is set): switching supervision off is an operator action; run it in your own terminal`);
  const file = a.project ? host.files.project(io.cwd) : host.files.user(io.env);
  let before: string | undefined;
  try {
    before = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return fail(io, `mish init: cannot read ${file}: ${(e as Error).message}`);
  }
  return a.uninstall ? uninstall(io, host, file, before, a.dryRun) : install(io, host, file, before, a.dryRun);
}

/**
 * Variables an agent host sets in the shell its tool runs (and mish's own rewrite sets
 * MISH_AGENT): `mish init --uninstall` run there is the agent switching its own supervision off.
 * The policy forbids the line before it runs (own-files.ts mishInitChange); this catches it where
 * the line was not checked (a script the agent wrote and then ran). Copilot CLI sets none.
 */
const AGENT_SHELL_MARKERS = ['MISH_AGENT', 'CLAUDECODE', 'CODEX_SANDBOX', 'CODEX_THREAD_ID', 'GEMINI_CLI', 'CURSOR_AGENT'] as const;

/** The first agent-shell marker set in this environment, if any. */
export function agentShellMarker(env: NodeJS.ProcessEnv): string | undefined {
  return AGENT_SHELL_MARKERS.find((k) => env[k] !== undefined && env[k] !== '' && env[k] !== '0');
}

/** The hook command written into the agent's settings. */
export function hookCommand(host: HostAdapter, env: NodeJS.ProcessEnv = process.env): string {
  return `${hookLauncher(env)} hook ${host.id} --timeout ${host.timeoutSec}`;
}

function install(io: InitEnv, host: HostAdapter, file: string, before: string | undefined, dryRun: boolean): number {
  const r = addEntry(before ?? '', host, hookCommand(host, io.env));
  if (!r.ok) return fail(io, `mish init: ${file}: ${r.error}; fix it first (nothing was changed)`);
  if (!r.changed) {
    io.out(`mish's hook is already installed for ${host.name} in ${file}; nothing to do\n`);
    return 0;
  }
  if (dryRun) {
    io.out(diff(file, before ?? '', r.text));
    return 0;
  }
  const st = stateFile(io.env, file);
  const prior = readState(st);
  writeAtomic(file, r.text);
  // The original bytes from before mish's first install stay the ones an uninstall restores.
  writeState(st, { file, original: prior && prior.installed === before ? prior.original : (before ?? null), installed: r.text });
  io.out(`${r.state === 'updated' ? 'updated' : 'installed'} mish's hook for ${host.name} in ${file}\n${whatItGets(host)}`);
  if (host.id === 'codex') io.out('Codex runs a new hook only once you trust it: open codex and review it with /hooks.\n');
  return 0;
}

function uninstall(io: InitEnv, host: HostAdapter, file: string, before: string | undefined, dryRun: boolean): number {
  if (before === undefined) {
    io.out(`no ${file}: mish's hook is not installed for ${host.name}\n`);
    return 0;
  }
  const st = stateFile(io.env, file);
  const saved = readState(st);
  let after: string | null;
  if (saved && saved.installed === before) after = saved.original;
  else {
    const r = removeEntry(before, host);
    if (!r.ok) return fail(io, `mish init: ${file}: ${r.error}; fix it first (nothing was changed)`);
    if (!r.changed) {
      io.out(`mish's hook is not installed for ${host.name} in ${file}; nothing to do\n`);
      return 0;
    }
    after = r.text;
  }
  if (dryRun) {
    io.out(diff(file, before, after ?? ''));
    return 0;
  }
  if (after === null) rmSync(file, { force: true });
  else writeAtomic(file, after);
  rmSync(st, { force: true });
  io.out(`removed mish's hook for ${host.name} from ${file}${saved && saved.installed === before ? ' (the file is back as it was)' : ''}\n`);
  return 0;
}

/** What checking and rewriting mean for this host, in one or two lines. */
export function whatItGets(host: HostAdapter): string {
  const rewrite =
    host.rewrite === 'always'
      ? 'allowed commands run through mish (condensed output, exit code kept); the agent still asks you where it would have'
      : host.rewrite === 'when-host-would-not-ask'
        ? 'allowed commands run through mish where the agent runs them without asking you (bypassPermissions mode, or your own Bash allow rules); otherwise they run as they are, after its own prompt'
        : `commands are not rewritten (${host.name} cannot rewrite a command without approving it)`;
  const esc = host.unattended === 'ask' ? "dangerous ones go to a mish operator, else to the agent's own prompt" : 'dangerous ones go to a mish operator, else they are denied with the reason';
  return `  every command is checked by mish's policy: forbidden ones are denied with the reason; ${esc}\n  ${rewrite}\n`;
}

function listAgents(io: InitEnv): number {
  io.out('agents mish can hook into (mish init <agent> installs; --project for the project file):\n');
  for (const id of HOST_IDS) {
    const host = HOSTS[id];
    const file = host.files.user(io.env);
    const found = host.detect.dirs(io.env).some((d) => existsSync(d)) || host.detect.programs.some((p) => onPath(p, io.env));
    let installed = false;
    try {
      installed = hasEntry(readFileSync(file, 'utf8'), host).installed;
    } catch {
      // no file
    }
    io.out(`\n  ${id.padEnd(11)} ${found ? 'found' : 'not found'} · ${installed ? 'installed' : 'not installed'} · ${file}\n${whatItGets(host).replace(/^ {2}/gm, '              ')}`);
  }
  return 0;
}

function onPath(program: string, env: NodeJS.ProcessEnv): boolean {
  return (env.PATH ?? '').split(path.delimiter).some((d) => {
    try {
      return d !== '' && statSync(path.join(d, program)).isFile();
    } catch {
      return false;
    }
  });
}

interface SavedState {
  file: string;
  original: string | null;
  installed: string;
}

/** Where the bytes for a byte-exact uninstall are kept: $XDG_STATE_HOME/mish/init/ (or ~/.local/state). */
export function stateFile(env: NodeJS.ProcessEnv, file: string): string {
  const base = env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : path.join(env.HOME || os.homedir(), '.local', 'state');
  return path.join(base, 'mish', 'init', `${createHash('sha1').update(path.resolve(file)).digest('hex').slice(0, 16)}.json`);
}

function readState(p: string): SavedState | undefined {
  try {
    const s = JSON.parse(readFileSync(p, 'utf8')) as SavedState;
    return typeof s.installed === 'string' ? s : undefined;
  } catch {
    return undefined;
  }
}

function writeState(p: string, s: SavedState): void {
  mkdirSync(path.dirname(p), { recursive: true, mode: 0o700 });
  writeFileSync(p, JSON.stringify(s), { mode: 0o600 });
}

/** Writes through a temp file and a rename: an agent reading its settings never sees half a file. */
function writeAtomic(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  let mode: number | undefined;
  try {
    mode = statSync(file).mode & 0o777;
  } catch {
    // new file
  }
  const tmp = `${file}.mish-${process.pid}.tmp`;
  writeFileSync(tmp, text, mode !== undefined ? { mode } : {});
  renameSync(tmp, file);
}

/** A unified diff (diff(1), part of every Linux and macOS base system). */
function diff(file: string, a: string, b: string): string {
  const dir = path.join(os.tmpdir(), `mish-init-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  try {
    writeFileSync(path.join(dir, 'a'), a);
    writeFileSync(path.join(dir, 'b'), b);
    const r = spawnSync('diff', ['-u', '--label', `${file} (now)`, '--label', `${file} (after)`, path.join(dir, 'a'), path.join(dir, 'b')], { encoding: 'utf8' });
    return r.stdout || '(no change)\n';
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function fail(io: InitEnv, message: string): number {
  io.err(`${message}\n`);
  return 2;
}

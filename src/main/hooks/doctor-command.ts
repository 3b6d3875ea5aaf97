/**
 * `mish doctor`: per agent, whether mish's hook is installed (user and project files), whether
 * the command it runs is there, and whether it answers: the installed command is run with a
 * probe payload for a command the built-in policy forbids, and must deny it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { HOST_IDS, HOSTS } from './hosts/index.js';
import type { HostAdapter } from './hosts/types.js';
import { daemonStatus } from './hook-daemon-dir.js';
import { hasEntry } from './settings-file.js';

export const DOCTOR_HELP = `usage: mish doctor [--json]

For each agent mish hooks into (${HOST_IDS.join(', ')}): is the hook installed (user file, and
the project file here), is the program it runs there, and does it answer (it is given a probe
for a command the policy forbids, which it must deny). Runs no command of yours.
`;

/** A line the built-in policy forbids: the probe the installed hook must deny. */
export const PROBE_FORBIDDEN = 'rm -rf --no-preserve-root /';
/** How long the probe may take (a hook answers in tens of milliseconds). */
const PROBE_TIMEOUT_MS = 10_000;

export function probePayload(host: HostAdapter, command: string, cwd: string): Record<string, unknown> {
  switch (host.id) {
    case 'claude-code':
    case 'codex':
      return { session_id: 'mish-doctor', cwd, hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command } };
    case 'gemini-cli':
      return { session_id: 'mish-doctor', cwd, hook_event_name: 'BeforeTool', tool_name: 'run_shell_command', tool_input: { command } };
    case 'cursor':
      return { conversation_id: 'mish-doctor', hook_event_name: 'beforeShellExecution', command, cwd, workspace_roots: [cwd] };
    case 'copilot':
      return { sessionId: 'mish-doctor', timestamp: Date.now(), cwd, toolName: 'bash', toolArgs: JSON.stringify({ command }) };
  }
}

interface Row {
  agent: string;
  file: string;
  installed: boolean;
  reachable?: boolean;
  answering?: boolean;
  ms?: number;
  problem?: string;
  /** An older install covers fewer of the agent's tools than `mish init` writes now (its file-editing tools): the fix. */
  outdated?: string;
}

export function runDoctor(argv: string[]): number {
  if (argv.includes('-h') || argv.includes('--help')) {
    process.stdout.write(DOCTOR_HELP);
    return 0;
  }
  const bad = argv.find((a) => a !== '--json');
  if (bad) {
    process.stderr.write(`mish doctor: unknown argument '${bad}' (see mish doctor --help)\n`);
    return 2;
  }
  const cwd = process.cwd();
  const rows: Row[] = [];
  for (const id of HOST_IDS) {
    const host = HOSTS[id];
    for (const file of [host.files.user(process.env), host.files.project(cwd)]) {
      let text: string | undefined;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        // not there
      }
      const e = text === undefined ? { installed: false } : hasEntry(text, host);
      if (!e.installed && file !== host.files.user(process.env)) continue;
      rows.push({ agent: id, file, ...check(host, e, cwd), ...outdated(host, e) });
    }
  }
  if (argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
  } else {
    for (const r of rows) {
      const state = !r.installed ? 'not installed' : r.answering ? `installed · reachable · answering (${r.ms} ms)` : `installed · ${r.reachable ? 'reachable' : 'NOT reachable'} · NOT answering${r.problem ? `: ${r.problem}` : ''}`;
      process.stdout.write(`${r.agent.padEnd(11)} ${state}\n            ${r.file}\n${r.outdated ? `            ${r.outdated}\n` : ''}`);
    }
    // The fast path of bin/mish-hook.sh: whether this user's hook daemon runs (it starts on the first hook call).
    process.stdout.write(`${daemonStatus(process.env).line}\n`);
  }
  return rows.some((r) => r.installed && !r.answering) ? 1 : 0;
}

/** The matcher the installed entry has, when it is not the one `mish init` writes now. */
function outdated(host: HostAdapter, e: { installed: boolean; matcher?: string }): Pick<Row, 'outdated'> {
  const want = host.entry('').value.matcher;
  if (!e.installed || typeof want !== 'string' || e.matcher === undefined || e.matcher === want) return {};
  return { outdated: `an older install: it hooks ${e.matcher}, not ${want} (the agent's file-editing tools); run mish init ${host.id} again` };
}

function check(host: HostAdapter, e: { installed: boolean; command?: string }, cwd: string): Omit<Row, 'agent' | 'file'> {
  if (!e.installed || !e.command) return { installed: e.installed };
  const programs = quotedPaths(e.command);
  const missing = programs.find((p) => !existsSync(p));
  if (missing) return { installed: true, reachable: false, answering: false, problem: `${missing} does not exist (run mish init ${host.id} again)` };
  const started = Date.now();
  const r = spawnSync('sh', ['-c', e.command], { input: JSON.stringify(probePayload(host, PROBE_FORBIDDEN, cwd)), encoding: 'utf8', timeout: PROBE_TIMEOUT_MS, cwd });
  const ms = Date.now() - started;
  if (r.error) return { installed: true, reachable: true, answering: false, problem: r.error.message };
  const denied = (r.status === 0 && /"deny"/.test(r.stdout)) || r.status === 2;
  return { installed: true, reachable: true, answering: denied, ms, ...(denied ? {} : { problem: `exit ${r.status}, answered ${JSON.stringify(r.stdout.slice(0, 200))}${r.stderr ? `; ${r.stderr.trim().slice(0, 200)}` : ''}` }) };
}

/** The absolute program paths at the start of a hook command (`'/usr/bin/node' '/…/bin/mish-hook.cjs' hook …`, `'/usr/bin/bash' '/…/bin/mish-hook.sh' '/usr/bin/node' hook …`). */
function quotedPaths(command: string): string[] {
  const out: string[] = [];
  const re = /\s*(?:'([^']*)'|(\S+))/y;
  for (let i = 0; i < 3; i++) {
    const m = re.exec(command);
    if (!m) break;
    const p = m[1] ?? m[2];
    if (p.startsWith('/')) out.push(p);
  }
  return out;
}

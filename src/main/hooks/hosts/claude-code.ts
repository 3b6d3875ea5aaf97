/**
 * Claude Code's PreToolUse hook on its Bash tool.
 * Protocol: https://code.claude.com/docs/en/hooks#pretooluse (input: session_id, transcript_path,
 * cwd, permission_mode, hook_event_name, tool_name, tool_input.command, tool_use_id) and
 * https://code.claude.com/docs/en/hooks#pretooluse-decision-control (output:
 * hookSpecificOutput.permissionDecision allow | deny | ask, permissionDecisionReason, updatedInput;
 * exit 2 blocks with stderr as the reason; `timeout` per hook in seconds).
 *
 * Rewriting: `updatedInput` takes effect with `allow`, which also skips Claude Code's own
 * permission prompt. mish rewrites only when the payload shows Claude Code would not have asked
 * anyway (permission_mode bypassPermissions); in the other modes the command is left as it is
 * and Claude Code's own prompt decides (never widened). `ask` in `claude -p` is a denial.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { carriesCommand, isRecord, runsMishHook, str, type HookAnswer, type HostAdapter, type ParsedPayload, type RenderedAnswer } from './types.js';
import { HOST_HOOK_FILES } from '../../core/hook-config-files.js';

export const CLAUDE_CODE_DOCS = 'https://code.claude.com/docs/en/hooks#pretooluse-decision-control';

/**
 * Claude Code's own file-editing tools and the input field naming the file
 * (https://code.claude.com/docs/en/settings#tools-available-to-claude): mish's hook sees them so
 * that an edit of mish's own files or of a hook configuration is judged like the shell's.
 */
const FILE_TOOLS: Record<string, string> = { Edit: 'file_path', Write: 'file_path', MultiEdit: 'file_path', NotebookEdit: 'notebook_path' };
/** The matcher `mish init claude-code` writes: the shell tool and the file-editing tools. */
export const CLAUDE_CODE_MATCHER = ['Bash', ...Object.keys(FILE_TOOLS)].join('|');

/** A PreToolUse payload of one of Claude Code's file-editing tools, or undefined for any other payload. */
function parseFileEdit(payload: unknown): ParsedPayload | undefined {
  if (!isRecord(payload)) return undefined;
  const tool = str(payload, 'tool_name');
  const event = str(payload, 'hook_event_name');
  if (tool === undefined || !Object.hasOwn(FILE_TOOLS, tool) || (event !== undefined && event !== 'PreToolUse')) return undefined;
  const input = payload.tool_input;
  const file = isRecord(input) ? str(input, FILE_TOOLS[tool]) : undefined;
  if (!file?.trim()) return { kind: 'malformed', error: `tool_input.${FILE_TOOLS[tool]} of ${tool} is not a file name` };
  const permissionMode = str(payload, 'permission_mode');
  const call = { command: `${tool} ${file}`, cwd: str(payload, 'cwd'), sessionId: str(payload, 'session_id'), transcriptPath: str(payload, 'transcript_path'), permissionMode };
  // Edits run without a prompt in bypassPermissions and acceptEdits modes: there an `ask` would not ask.
  return { kind: 'file-edit', tool, files: [file], call: { ...call, hostWouldNotAsk: claudeWouldNotAsk(permissionMode) || permissionMode === 'acceptEdits' } };
}

/** Permission modes in which Claude Code runs a Bash command without asking its user. */
const MODES_THAT_DO_NOT_ASK = new Set(['bypassPermissions']);

export function parseClaudeLike(payload: unknown, toolNames: Set<string>): ParsedPayload {
  if (!isRecord(payload)) return { kind: 'malformed', error: 'the payload is not a JSON object' };
  const event = str(payload, 'hook_event_name');
  // mish init installs the hook for PreToolUse only: another event carrying a command is not a payload to wave through.
  if (event !== undefined && event !== 'PreToolUse') return carriesCommand(payload) ? { kind: 'malformed', error: `event ${event} with a command` } : { kind: 'other', what: `event ${event}` };
  const tool = str(payload, 'tool_name');
  if (tool === undefined) return { kind: 'malformed', error: 'tool_name is missing' };
  if (!toolNames.has(tool)) {
    // A name that differs from the shell tool's only in case or spaces (`bash`, `Bash `) is a forgery, not another tool.
    const near = [...toolNames].some((t) => t.toLowerCase() === tool.trim().toLowerCase());
    return near ? { kind: 'malformed', error: `tool_name "${tool}" imitates ${[...toolNames].join('/')}` } : { kind: 'other', what: `tool ${tool}` };
  }
  const input = payload.tool_input;
  if (!isRecord(input)) return { kind: 'malformed', error: 'tool_input is not an object' };
  const command = commandText(input.command);
  if (command === undefined) return { kind: 'malformed', error: 'tool_input.command is not a command line' };
  return {
    kind: 'shell',
    call: {
      command,
      cwd: str(payload, 'cwd'),
      sessionId: str(payload, 'session_id'),
      transcriptPath: str(payload, 'transcript_path'),
      permissionMode: str(payload, 'permission_mode'),
      toolInput: input,
    },
  };
}

/** A command as a string, or an argv array (`["bash", "-lc", "…"]` is its script). */
function commandText(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() ? v : undefined;
  if (Array.isArray(v) && v.length > 0 && v.every((a) => typeof a === 'string')) {
    const a = v as string[];
    if (a.length === 3 && /(?:^|\/)(?:ba|z|da)?sh$/.test(a[0]) && /^-l?c$/.test(a[1])) return a[2];
    return a.map((x) => (/^[\w@%+=:,./-]+$/.test(x) ? x : `'${x.replace(/'/g, `'\\''`)}'`)).join(' ');
  }
  return undefined;
}

export function renderClaudeLike(answer: HookAnswer): RenderedAnswer {
  const out = (o: Record<string, unknown>) => ({ stdout: `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', ...o } })}\n`, exitCode: 0 });
  switch (answer.kind) {
    case 'pass':
      return { stdout: '', exitCode: 0 };
    case 'rewrite':
      return out({
        permissionDecision: 'allow',
        permissionDecisionReason: answer.reason ?? 'mish: runs through mish (condensed output, exit code kept)',
        updatedInput: { ...(answer.call.toolInput ?? {}), command: answer.command },
      });
    case 'allow':
      return out({ permissionDecision: 'allow', permissionDecisionReason: answer.reason });
    case 'ask':
      return out({ permissionDecision: 'ask', permissionDecisionReason: answer.reason });
    case 'deny':
      return out({ permissionDecision: 'deny', permissionDecisionReason: answer.reason });
  }
}

/** `{ matcher, hooks: [{ type: command, command, timeout }] }` under hooks.<event>, as Claude Code and Codex read it. */
export function matcherEntry(event: string, matcher: string, command: string, timeoutSec: number) {
  return { path: ['hooks', event], value: { matcher, hooks: [{ type: 'command', command, timeout: timeoutSec }] } };
}

export function isMatcherEntry(value: unknown, id: 'claude-code' | 'codex'): boolean {
  return isRecord(value) && Array.isArray(value.hooks) && value.hooks.some((h) => isRecord(h) && runsMishHook(h.command, id));
}

const home = (env: NodeJS.ProcessEnv) => env.HOME || os.homedir();

export const claudeCode: HostAdapter = {
  id: 'claude-code',
  name: 'Claude Code',
  docs: CLAUDE_CODE_DOCS,
  parse(payload, env) {
    const edit = parseFileEdit(payload);
    if (edit) return edit;
    const p = parseClaudeLike(payload, new Set(['Bash']));
    if (p.kind === 'shell') p.call.hostWouldNotAsk = claudeWouldNotAsk(p.call.permissionMode) || claudeAllowRuleCovers(p.call.command, settingsFiles(env, p.call.cwd));
    return p;
  },
  render: renderClaudeLike,
  rewrite: 'when-host-would-not-ask',
  unattended: 'ask',
  // Long enough for an operator to decide (the hook answers on its own HOOK_DEADLINE_MARGIN_MS before it).
  timeoutSec: 330,
  files: HOST_HOOK_FILES['claude-code'],
  entry(command) {
    return matcherEntry('PreToolUse', CLAUDE_CODE_MATCHER, command, this.timeoutSec);
  },
  isMishEntry: (v) => isMatcherEntry(v, 'claude-code'),
  detect: { dirs: (env) => [env.CLAUDE_CONFIG_DIR || path.join(home(env), '.claude')], programs: ['claude'] },
};

/** Claude Code's settings files that hold permission rules, for a call in `cwd`. */
function settingsFiles(env: NodeJS.ProcessEnv, cwd: string | undefined): string[] {
  const project = env.CLAUDE_PROJECT_DIR || cwd;
  return [
    path.join(env.CLAUDE_CONFIG_DIR || path.join(home(env), '.claude'), 'settings.json'),
    ...(project ? [path.join(project, '.claude', 'settings.json'), path.join(project, '.claude', 'settings.local.json')] : []),
    '/etc/claude-code/managed-settings.json',
  ];
}

/**
 * Does one of the user's own Claude Code allow rules (`permissions.allow`: `Bash(npm test)`,
 * `Bash(npm run test:*)`, `Bash(git diff *)`) cover this command, so that Claude Code would run it
 * without asking (and an `allow` with the rewrite widens nothing)? Deliberately narrow: a single
 * simple command without any shell syntax (Claude Code judges each part of a compound line; mish
 * does not guess how), and no deny or ask rule for Bash naming the same program anywhere.
 * https://code.claude.com/docs/en/iam#tool-specific-permission-rules
 */
export function claudeAllowRuleCovers(command: string, files: string[]): boolean {
  const line = command.trim();
  if (line === '' || /[;&|<>`$(){}\n\\'"*?[\]~!#]/.test(line)) return false;
  const program = line.split(/\s+/)[0];
  const allow: string[] = [];
  const stop: string[] = [];
  for (const f of files) {
    let settings: unknown;
    try {
      settings = JSON.parse(readFileSync(f, 'utf8'));
    } catch {
      continue;
    }
    const perms = isRecord(settings) && isRecord(settings.permissions) ? settings.permissions : undefined;
    if (!perms) continue;
    const bash = (v: unknown) => (Array.isArray(v) ? v.filter((r): r is string => typeof r === 'string').map((r) => /^Bash(?:\((.*)\))?$/s.exec(r.trim())).filter((m) => m !== null).map((m) => m[1] ?? '*') : []);
    allow.push(...bash(perms.allow));
    stop.push(...bash(perms.deny), ...bash(perms.ask));
  }
  // Any deny or ask rule for Bash that could concern this program: mish leaves the decision to Claude Code.
  if (stop.some((r) => r === '*' || r === '' || r.split(/[\s:]/)[0] === program || /[*?]/.test(r.split(/[\s:]/)[0]))) return false;
  return allow.some((r) => {
    if (r.endsWith(':*')) {
      const prefix = r.slice(0, -2).trim();
      return prefix !== '' && (line === prefix || line.startsWith(`${prefix} `));
    }
    if (!r.includes('*')) return line === r.trim();
    const re = new RegExp(`^${r.trim().split('*').map((x) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
    return re.test(line);
  });
}

/** Would Claude Code run this call without asking its user (so a rewrite that approves widens nothing)? */
export function claudeWouldNotAsk(mode: string | undefined): boolean {
  return mode !== undefined && MODES_THAT_DO_NOT_ASK.has(mode);
}

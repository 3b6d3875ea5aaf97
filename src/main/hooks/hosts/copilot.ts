/**
 * GitHub Copilot CLI's preToolUse hook on its `bash` tool.
 * Protocol: https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference
 * — hook files are `*.json` in the user's hooks folder (~/.copilot/hooks/, or $COPILOT_HOME/hooks/)
 * or in the repository's .github/hooks/; mish writes its own file there, `mish.json`:
 * `{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": …, "timeoutSec": …}]}}`
 * (default timeout 30 s). Input (the camelCase format, chosen by the event's camelCase name):
 * sessionId, timestamp, cwd, toolName, toolArgs (the tool's arguments: an object from Copilot CLI
 * 1.0.102, a JSON text in the documentation's examples; both are read). Output: permissionDecision
 * allow | deny | ask, permissionDecisionReason (required for deny), modifiedArgs.
 *
 * Failing closed: Copilot CLI logs and skips a hook that fails (a non-zero exit, a timeout) — the
 * tool then runs — so every answer here, a deny included, is JSON on stdout with exit 0, and an
 * escalation no operator decides is denied (the hooks-configuration reference says only deny is
 * processed; 1.0.102 does ask its user, and denies in -p mode, but an older one may not).
 *
 * Rewriting: `modifiedArgs` (the whole argument object: the other fields are carried over) with
 * no permissionDecision. Copilot CLI 1.0.102, run here, judges the rewritten line with its own
 * permission rules (`--allow-tool`, its prompt): a rewrite never runs what Copilot would not have
 * run — but an allow rule naming the original program (`shell(npm)`) no longer matches it.
 *
 * File edits: preToolUse sees every tool, the file tools too: `create` and `edit` (toolArgs.path;
 * recorded from Copilot CLI 1.0.102 with a Claude model, fixtures/hooks/copilot/file-edit/;
 * with a GPT model over Chat Completions it offers no file tool). An edit of mish's
 * own files or of a hook configuration is denied (Copilot's ask may not hold, above).
 */
import os from 'node:os';
import path from 'node:path';
import { isRecord, runsMishHook, str, type HostAdapter } from './types.js';
import { HOST_HOOK_FILES } from '../../core/hook-config-files.js';

/** Copilot CLI's shell tool on Unix (`powershell` is its Windows one, which mish does not run on). */
const SHELL_TOOL = 'bash';
/** Copilot CLI's file-writing tools (1.0.102) and the argument naming the file. */
const FILE_TOOLS: Record<string, string> = { create: 'path', edit: 'path' };
/** Tool names that run command lines: such a tool other than `bash` is not waved through as "another tool". */
const SHELL_LIKE = /bash|shell|powershell|pwsh|^z?sh$/i;

function copilotHome(env: NodeJS.ProcessEnv): string {
  return env.COPILOT_HOME && path.isAbsolute(env.COPILOT_HOME) ? env.COPILOT_HOME : path.join(env.HOME || os.homedir(), '.copilot');
}

/** toolArgs as an object (Copilot CLI 1.0.102) or as JSON text (the documentation's examples); undefined when neither. */
function parseArgs(args: unknown): unknown {
  if (typeof args !== 'string') return args;
  try {
    return JSON.parse(args);
  } catch {
    return undefined;
  }
}

export const copilot: HostAdapter = {
  id: 'copilot',
  name: 'Copilot CLI',
  docs: 'https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference#pretooluse-decision-control',
  parse(payload) {
    if (!isRecord(payload)) return { kind: 'malformed', error: 'the payload is not a JSON object' };
    // mish installs preToolUse (camelCase fields); the VS Code format (PreToolUse: hook_event_name, tool_name, tool_input) is read alike.
    const event = str(payload, 'hook_event_name');
    const carriesCommand = (a: unknown) => (isRecord(a) ? a.command !== undefined : typeof a === 'string' && /"command"\s*:/.test(a));
    if (event !== undefined && !/^pretooluse$/i.test(event)) return carriesCommand(payload.toolArgs ?? payload.tool_input) ? { kind: 'malformed', error: `event ${event} with a command` } : { kind: 'other', what: `event ${event}` };
    const tool = str(payload, 'toolName') ?? str(payload, 'tool_name');
    if (tool === undefined) return { kind: 'malformed', error: 'toolName is missing' };
    let args: unknown = payload.toolArgs ?? payload.tool_input;
    if (Object.hasOwn(FILE_TOOLS, tool)) {
      const a = parseArgs(args);
      const file = isRecord(a) ? str(a, FILE_TOOLS[tool]) : undefined;
      if (!file?.trim()) return { kind: 'malformed', error: `toolArgs.${FILE_TOOLS[tool]} of ${tool} is not a file name` };
      return { kind: 'file-edit', tool, files: [file], call: { command: `${tool} ${file}`, cwd: str(payload, 'cwd'), sessionId: str(payload, 'sessionId') ?? str(payload, 'session_id') } };
    }
    if (tool.toLowerCase() !== SHELL_TOOL) return SHELL_LIKE.test(tool) && carriesCommand(args) ? { kind: 'malformed', error: `a command line for tool ${tool} (mish checks the bash tool's)` } : { kind: 'other', what: `tool ${tool}` };
    if (typeof args === 'string') {
      try {
        args = JSON.parse(args);
      } catch {
        return { kind: 'malformed', error: 'toolArgs is not JSON' };
      }
    }
    if (!isRecord(args)) return { kind: 'malformed', error: 'toolArgs is not an object' };
    const command = str(args, 'command');
    if (!command?.trim()) return { kind: 'malformed', error: 'toolArgs.command is not a command line' };
    return { kind: 'shell', call: { command, cwd: str(payload, 'cwd'), sessionId: str(payload, 'sessionId') ?? str(payload, 'session_id'), toolInput: args } };
  },
  render(answer) {
    const out = (o: Record<string, unknown>) => ({ stdout: `${JSON.stringify(o)}\n`, exitCode: 0 });
    switch (answer.kind) {
      case 'pass':
        return { stdout: '', exitCode: 0 };
      case 'rewrite':
        return out({ modifiedArgs: { ...answer.call.toolInput, command: answer.command }, ...(answer.approve ? { permissionDecision: 'allow', permissionDecisionReason: answer.reason ?? 'mish: approved' } : {}) });
      case 'allow':
        return out({ permissionDecision: 'allow', permissionDecisionReason: answer.reason });
      case 'ask':
        return out({ permissionDecision: 'ask', permissionDecisionReason: answer.reason });
      case 'deny':
        return out({ permissionDecision: 'deny', permissionDecisionReason: answer.reason });
    }
  },
  rewrite: 'always',
  unattended: 'deny',
  timeoutSec: 330,
  files: HOST_HOOK_FILES.copilot,
  entry(command) {
    return { path: ['hooks', 'preToolUse'], value: { type: 'command', bash: command, timeoutSec: this.timeoutSec }, topLevel: { version: 1 } };
  },
  isMishEntry: (v) => isRecord(v) && runsMishHook(v.bash, 'copilot'),
  detect: { dirs: (env) => [copilotHome(env)], programs: ['copilot'] },
};

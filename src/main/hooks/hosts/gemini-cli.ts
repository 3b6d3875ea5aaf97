/**
 * Gemini CLI's BeforeTool hook on run_shell_command.
 * Protocol: https://geminicli.com/docs/hooks/reference#beforetool — hooks in settings.json
 * (~/.gemini/settings.json, or .gemini/settings.json in the project) under hooks.BeforeTool
 * (matcher = tool name regex; `timeout` in milliseconds, default 60000). Input: session_id, cwd,
 * hook_event_name, timestamp, tool_name, tool_input. Output: `decision` "deny" (alias "block")
 * with `reason` sent to the agent as the tool's error; `hookSpecificOutput.tool_input` merges
 * with and overrides the model's arguments; exit 2 blocks with stderr as the reason.
 *
 * Rewriting: `hookSpecificOutput.tool_input` without a `decision` changes the command and leaves
 * Gemini CLI's own confirmation in force, so mish rewrites there. Gemini's hooks have no "ask"
 * answer: an escalation no operator decides is denied with the reason.
 *
 * File edits: Gemini CLI's own file-writing tools, `write_file` and `replace` (tool_input.file_path;
 * the only two in the tool list Gemini CLI 0.61.0 offers, recorded in
 * fixtures/hooks/gemini-cli/file-edit/), go through the same
 * BeforeTool hook: an edit of mish's own files or of a hook configuration is denied (no ask here).
 */
import os from 'node:os';
import path from 'node:path';
import { carriesCommand, isRecord, runsMishHook, str, type HostAdapter } from './types.js';
import { HOST_HOOK_FILES } from '../../core/hook-config-files.js';

/** Gemini CLI's file-writing tools and the input field naming the file. */
const FILE_TOOLS: Record<string, string> = { write_file: 'file_path', replace: 'file_path' };
/** The matcher `mish init gemini-cli` writes (a regular expression on the tool name). */
export const GEMINI_MATCHER = ['run_shell_command', ...Object.keys(FILE_TOOLS)].join('|');

export const geminiCli: HostAdapter = {
  id: 'gemini-cli',
  name: 'Gemini CLI',
  docs: 'https://geminicli.com/docs/hooks/reference#beforetool',
  parse(payload, env) {
    if (!isRecord(payload)) return { kind: 'malformed', error: 'the payload is not a JSON object' };
    const event = str(payload, 'hook_event_name');
    // mish init installs the hook for BeforeTool only: another event carrying a command is not a payload to wave through.
    if (event !== undefined && event !== 'BeforeTool') return carriesCommand(payload) ? { kind: 'malformed', error: `event ${event} with a command` } : { kind: 'other', what: `event ${event}` };
    const tool = str(payload, 'tool_name');
    if (tool === undefined) return { kind: 'malformed', error: 'tool_name is missing' };
    const input = payload.tool_input;
    if (Object.hasOwn(FILE_TOOLS, tool)) {
      const file = isRecord(input) ? str(input, FILE_TOOLS[tool]) : undefined;
      if (!file?.trim()) return { kind: 'malformed', error: `tool_input.${FILE_TOOLS[tool]} of ${tool} is not a file name` };
      const cwd = str(payload, 'cwd');
      return { kind: 'file-edit', tool, files: [file], call: { command: `${tool} ${file}`, cwd, sessionId: str(payload, 'session_id'), transcriptPath: str(payload, 'transcript_path'), hostVersion: env.GEMINI_CLI_VERSION } };
    }
    if (tool !== 'run_shell_command') return { kind: 'other', what: `tool ${tool}` };
    if (!isRecord(input)) return { kind: 'malformed', error: 'tool_input is not an object' };
    const command = str(input, 'command');
    if (!command?.trim()) return { kind: 'malformed', error: 'tool_input.command is not a command line' };
    const dir = str(input, 'dir_path') ?? str(input, 'directory');
    const cwd = str(payload, 'cwd');
    return {
      kind: 'shell',
      call: { command, cwd: dir && cwd ? path.resolve(cwd, dir) : (cwd ?? dir), sessionId: str(payload, 'session_id'), transcriptPath: str(payload, 'transcript_path'), hostVersion: env.GEMINI_CLI_VERSION, toolInput: input },
    };
  },
  render(answer) {
    switch (answer.kind) {
      case 'pass':
      case 'allow':
        return { stdout: '', exitCode: 0 };
      case 'rewrite':
        return { stdout: `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'BeforeTool', tool_input: { command: answer.command } } })}\n`, exitCode: 0 };
      case 'ask':
      case 'deny':
        return { stdout: `${JSON.stringify({ decision: 'deny', reason: answer.reason })}\n`, exitCode: 0 };
    }
  },
  rewrite: 'always',
  unattended: 'deny',
  timeoutSec: 330,
  files: HOST_HOOK_FILES['gemini-cli'],
  entry(command) {
    return { path: ['hooks', 'BeforeTool'], value: { matcher: GEMINI_MATCHER, hooks: [{ name: 'mish', type: 'command', command, timeout: this.timeoutSec * 1000 }] } };
  },
  isMishEntry: (v) => isRecord(v) && Array.isArray(v.hooks) && v.hooks.some((h) => isRecord(h) && runsMishHook(h.command, 'gemini-cli')),
  detect: { dirs: (env) => [path.join(env.HOME || os.homedir(), '.gemini')], programs: ['gemini'] },
};

/**
 * Cursor's beforeShellExecution hook.
 * Protocol: https://cursor.com/docs/agent/hooks#beforeshellexecution — hooks in ~/.cursor/hooks.json
 * or <project>/.cursor/hooks.json (`{"version": 1, "hooks": {"beforeShellExecution": [{"command": …}]}}`).
 * Input: conversation_id, generation_id, hook_event_name, command, cwd, workspace_roots,
 * cursor_version. Output: `permission` allow | deny | ask, `user_message`, `agent_message`.
 *
 * Rewriting: beforeShellExecution has no field to change the command: mish checks and decides,
 * never rewrites there. An allowed command gets no permission at all (`{}`), leaving Cursor's
 * own run settings in force; `allow` would skip them.
 */
import os from 'node:os';
import path from 'node:path';
import { carriesCommand, isRecord, runsMishHook, str, type HostAdapter } from './types.js';
import { HOST_HOOK_FILES } from '../../core/hook-config-files.js';

export const cursor: HostAdapter = {
  id: 'cursor',
  name: 'Cursor',
  docs: 'https://cursor.com/docs/agent/hooks#beforeshellexecution',
  parse(payload) {
    if (!isRecord(payload)) return { kind: 'malformed', error: 'the payload is not a JSON object' };
    const event = str(payload, 'hook_event_name');
    // mish init installs the hook for beforeShellExecution only: another event carrying a command is not a payload to wave through.
    if (event !== undefined && event !== 'beforeShellExecution') return carriesCommand(payload) ? { kind: 'malformed', error: `event ${event} with a command` } : { kind: 'other', what: `event ${event}` };
    const command = str(payload, 'command');
    if (!command?.trim()) return { kind: 'malformed', error: 'command is not a command line' };
    const roots = Array.isArray(payload.workspace_roots) ? payload.workspace_roots.filter((r): r is string => typeof r === 'string') : [];
    return { kind: 'shell', call: { command, cwd: str(payload, 'cwd') || roots[0], sessionId: str(payload, 'conversation_id'), hostVersion: str(payload, 'cursor_version') } };
  },
  render(answer) {
    const out = (o: Record<string, unknown>) => ({ stdout: `${JSON.stringify(o)}\n`, exitCode: 0 });
    switch (answer.kind) {
      case 'pass':
      case 'rewrite':
        return out({});
      case 'allow':
        return out({ permission: 'allow', user_message: answer.reason });
      case 'ask':
        return out({ permission: 'ask', user_message: answer.reason, agent_message: answer.reason });
      case 'deny':
        return out({ permission: 'deny', user_message: answer.reason, agent_message: answer.reason });
    }
  },
  rewrite: 'never',
  unattended: 'ask',
  timeoutSec: 330,
  files: HOST_HOOK_FILES.cursor,
  entry(command) {
    return { path: ['hooks', 'beforeShellExecution'], value: { command }, topLevel: { version: 1 } };
  },
  isMishEntry: (v) => isRecord(v) && runsMishHook(v.command, 'cursor'),
  detect: { dirs: (env) => [path.join(env.HOME || os.homedir(), '.cursor')], programs: ['cursor', 'cursor-agent'] },
};

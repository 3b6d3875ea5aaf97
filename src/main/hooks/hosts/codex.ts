/**
 * Codex's PreToolUse hook on its shell tool.
 * Protocol: https://developers.openai.com/codex/hooks#pretooluse — hooks in $CODEX_HOME/hooks.json
 * (default ~/.codex) or <repo>/.codex/hooks.json, the same JSON shape as Claude Code's (input:
 * session_id, cwd, hook_event_name, model, turn_id, tool_name "Bash", tool_input.command; output:
 * hookSpecificOutput.permissionDecision, permissionDecisionReason; exit 2 blocks).
 *
 * What Codex honours (tried with Codex 0.17x, issue 20): `deny` blocks; `ask`, `allow` with
 * `updatedInput`, and a hook that times out all let the ORIGINAL command run. So mish never
 * rewrites for Codex (it cannot without the command running unsupervised), answers an
 * escalation no operator decides with `deny`, and decides on its own before the timeout it
 * writes into hooks.json.
 */
import os from 'node:os';
import path from 'node:path';
import { isMatcherEntry, matcherEntry, parseClaudeLike, renderClaudeLike } from './claude-code.js';
import type { HostAdapter } from './types.js';
import { HOST_HOOK_FILES } from '../../core/hook-config-files.js';

export const codex: HostAdapter = {
  id: 'codex',
  name: 'Codex',
  docs: 'https://developers.openai.com/codex/hooks#pretooluse',
  parse(payload, env) {
    const p = parseClaudeLike(payload, new Set(['Bash', 'shell', 'exec_command', 'local_shell']));
    if (p.kind === 'shell' && env.CODEX_VERSION) p.call.hostVersion = env.CODEX_VERSION;
    return p;
  },
  render(answer) {
    // Codex runs the original command on ask/allow: only deny is an answer it keeps.
    if (answer.kind === 'ask') return renderClaudeLike({ kind: 'deny', reason: answer.reason });
    if (answer.kind === 'rewrite' || answer.kind === 'allow') return { stdout: '', exitCode: 0 };
    return renderClaudeLike(answer);
  },
  rewrite: 'never',
  unattended: 'deny',
  timeoutSec: 330,
  files: HOST_HOOK_FILES.codex,
  entry(command) {
    return matcherEntry('PreToolUse', 'Bash', command, this.timeoutSec);
  },
  isMishEntry: (v) => isMatcherEntry(v, 'codex'),
  detect: { dirs: (env) => [env.CODEX_HOME || path.join(env.HOME || os.homedir(), '.codex')], programs: ['codex'] },
};

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
 *
 * File edits: Codex's own edit tool, `apply_patch`, reaches PreToolUse as tool_name "apply_patch"
 * with the patch text in tool_input.command (recorded from Codex 0.171.0:
 * fixtures/hooks/codex/file-edit/), and an `apply_patch <<'EOF' … EOF` line
 * in the shell tool, which Codex applies itself, as tool_name "Bash" with the heredoc. The files
 * the patch names are judged like Claude Code's Edit/Write (hook-command.ts decideFileEdit).
 */
import os from 'node:os';
import path from 'node:path';
import { isMatcherEntry, matcherEntry, parseClaudeLike, renderClaudeLike } from './claude-code.js';
import { looksLikePatch, patchFiles } from './patch-files.js';
import { isRecord, str, type HostAdapter, type ParsedPayload } from './types.js';
import { HOST_HOOK_FILES } from '../../core/hook-config-files.js';

/** Codex's file-editing tool, as its PreToolUse payload names it. */
const APPLY_PATCH = 'apply_patch';
/** The matcher `mish init codex` writes: the shell tool and apply_patch. */
export const CODEX_MATCHER = `Bash|${APPLY_PATCH}`;

/** A PreToolUse payload of Codex's apply_patch, or undefined for any other payload. */
function parseApplyPatch(payload: unknown): ParsedPayload | undefined {
  if (!isRecord(payload) || str(payload, 'tool_name') !== APPLY_PATCH) return undefined;
  const event = str(payload, 'hook_event_name');
  if (event !== undefined && event !== 'PreToolUse') return undefined;
  const input = payload.tool_input;
  // The patch text: tool_input.command (Codex 0.171.0); `input`/`patch` read alike should a version name it so.
  const text = isRecord(input) ? (str(input, 'command') ?? str(input, 'input') ?? str(input, 'patch')) : undefined;
  if (text === undefined) return { kind: 'malformed', error: 'apply_patch without a patch text in tool_input.command' };
  const files = patchFiles(text);
  // A patch naming no file cannot be judged: never waved through (Codex applies what it can parse).
  if (files.length === 0) return { kind: 'malformed', error: 'apply_patch names no file (*** Add/Update/Delete File:, *** Move to:)' };
  const call = { command: `${APPLY_PATCH} ${files.join(' ')}`, cwd: str(payload, 'cwd'), sessionId: str(payload, 'session_id'), transcriptPath: str(payload, 'transcript_path'), permissionMode: str(payload, 'permission_mode') };
  return { kind: 'file-edit', tool: APPLY_PATCH, files, call };
}

export const codex: HostAdapter = {
  id: 'codex',
  name: 'Codex',
  docs: 'https://developers.openai.com/codex/hooks#pretooluse',
  parse(payload, env) {
    const edit = parseApplyPatch(payload);
    if (edit) {
      if (edit.kind === 'file-edit' && env.CODEX_VERSION) edit.call.hostVersion = env.CODEX_VERSION;
      return edit;
    }
    const p = parseClaudeLike(payload, new Set(['Bash', 'shell', 'exec_command', 'local_shell']));
    if (p.kind === 'shell') {
      if (env.CODEX_VERSION) p.call.hostVersion = env.CODEX_VERSION;
      // `apply_patch <<'EOF' …` in the shell tool: Codex applies the patch itself, so its files are judged too.
      if (looksLikePatch(p.call.command)) p.editsFiles = patchFiles(p.call.command);
    }
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
    return matcherEntry('PreToolUse', CODEX_MATCHER, command, this.timeoutSec);
  },
  isMishEntry: (v) => isMatcherEntry(v, 'codex'),
  detect: { dirs: (env) => [env.CODEX_HOME || path.join(env.HOME || os.homedir(), '.codex')], programs: ['codex'] },
};

/**
 * Where each agent host keeps the configuration that runs mish's hook, and the other files of
 * that host that can switch its hooks off — pure path knowledge, shared by the host adapters
 * (`mish init` writes `user`/`project`) and the policy (own-files.ts asks about or forbids
 * changing any of them from the agent's own shell, so an agent cannot switch its supervision off).
 *
 * The hosts' documentation: Claude Code https://code.claude.com/docs/en/settings#settings-files
 * (settings.json, settings.local.json; `disableAllHooks` in any of them stops every hook), Codex
 * https://developers.openai.com/codex/hooks (hooks.json, or `[hooks]` tables and `[features]
 * hooks = false` in config.toml), Gemini CLI https://geminicli.com/docs/hooks/reference (hooks in
 * settings.json), Cursor https://cursor.com/docs/agent/hooks (hooks.json), Copilot CLI
 * https://docs.github.com/en/copilot/reference/copilot-cli-reference/cli-hooks-reference (*.json
 * in the hooks folder; mish's is mish.json).
 */
import os from 'node:os';
import path from 'node:path';

export type HookHostName = 'claude-code' | 'codex' | 'gemini-cli' | 'cursor' | 'copilot';

export interface HostHookFiles {
  /** The user-scope file `mish init <agent>` writes. */
  user(env: Record<string, string | undefined>): string;
  /** The project file `mish init --project` writes, under the project root. */
  project(root: string): string;
  /** Other user-scope files of this host that can switch its hooks off. */
  userAlso(env: Record<string, string | undefined>): string[];
  /** Other project files (relative to the project root) that can switch its hooks off. */
  projectAlso: string[];
}

const home = (env: Record<string, string | undefined>) => env.HOME || os.homedir();
const abs = (v: string | undefined) => (v && path.isAbsolute(v) ? v : undefined);
// As each host reads them (Claude Code and Codex take any value; the adapters always did).
const claudeDir = (env: Record<string, string | undefined>) => env.CLAUDE_CONFIG_DIR || path.join(home(env), '.claude');
const codexDir = (env: Record<string, string | undefined>) => env.CODEX_HOME || path.join(home(env), '.codex');
const copilotDir = (env: Record<string, string | undefined>) => abs(env.COPILOT_HOME) ?? path.join(home(env), '.copilot');

export const HOST_HOOK_FILES: Record<HookHostName, HostHookFiles> = {
  'claude-code': {
    user: (env) => path.join(claudeDir(env), 'settings.json'),
    project: (root) => path.join(root, '.claude', 'settings.json'),
    userAlso: (env) => [path.join(claudeDir(env), 'settings.local.json'), '/etc/claude-code/managed-settings.json'],
    projectAlso: ['.claude/settings.local.json'],
  },
  codex: {
    user: (env) => path.join(codexDir(env), 'hooks.json'),
    project: (root) => path.join(root, '.codex', 'hooks.json'),
    userAlso: (env) => [path.join(codexDir(env), 'config.toml')],
    projectAlso: ['.codex/config.toml'],
  },
  'gemini-cli': {
    user: (env) => path.join(home(env), '.gemini', 'settings.json'),
    project: (root) => path.join(root, '.gemini', 'settings.json'),
    userAlso: () => ['/etc/gemini-cli/settings.json'],
    projectAlso: [],
  },
  cursor: {
    user: (env) => path.join(home(env), '.cursor', 'hooks.json'),
    project: (root) => path.join(root, '.cursor', 'hooks.json'),
    userAlso: () => [],
    projectAlso: [],
  },
  copilot: {
    user: (env) => path.join(copilotDir(env), 'hooks', 'mish.json'),
    project: (root) => path.join(root, '.github', 'hooks', 'mish.json'),
    userAlso: () => [],
    projectAlso: [],
  },
};

/** Every host's user-scope hook configuration files for this environment (absolute). */
export function userHookFiles(env: Record<string, string | undefined>): string[] {
  const out = new Set<string>();
  for (const h of Object.values(HOST_HOOK_FILES)) for (const f of [h.user(env), ...h.userAlso(env)]) out.add(f);
  return [...out];
}

/** Every host's project hook files, relative to a project root (`.claude/settings.json`, …). */
export function projectHookFiles(): string[] {
  const out = new Set<string>();
  for (const h of Object.values(HOST_HOOK_FILES)) for (const f of [path.relative('/', h.project('/')), ...h.projectAlso]) out.add(f);
  return [...out];
}

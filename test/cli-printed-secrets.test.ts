/**
 * The CLI run path (`mish <cmd>`, what an agent's hook rewrites its shell calls to, MISH_AGENT
 * set): a command whose whole output is a credential (`gh auth token`, run for real against its
 * own config file) prints `[masked: token printed by gh auth token]` to the agent; a human's run
 * prints the token as gh printed it.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { ROOT } from './helpers/fresh-build.js';
import { itUnless, missing } from './helpers/skip.js';

const MISH = path.join(ROOT, 'bin', 'mish.js');
// A pre-2021 GitHub token's shape (40 hex): nothing in it says "token", only the command does.
const TOKEN = ['9f86d081', '884c7d65', '9a2feaa0', 'c55ad015', 'a3bf4f1b'].join('');

function ghAuthToken(env: Record<string, string>): string {
  const config = path.join(process.cwd(), 'gh-config');
  mkdirSync(config, { recursive: true });
  writeFileSync(path.join(config, 'hosts.yml'), `github.com:\n    oauth_token: ${TOKEN}\n    user: octocat\n    git_protocol: https\n`);
  const base = { ...process.env, GH_CONFIG_DIR: config, GH_TOKEN: '', GITHUB_TOKEN: '' } as Record<string, string>;
  delete base.MISH_AGENT;
  const r = spawnSync(process.execPath, [MISH, 'gh', 'auth', 'token'], { encoding: 'utf8', env: { ...base, ...env } });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe('a hooked CLI run of a command that prints a credential', () => {
  itUnless(missing('gh'))('gh auth token: the agent reads the mask, a human the token', () => {
    const agent = ghAuthToken({ MISH_AGENT: 'claude-code', MISH_AGENT_SESSION: 'conv-1' });
    expect(agent).toContain('[masked: token printed by gh auth token]');
    expect(agent).not.toContain(TOKEN);
    expect(ghAuthToken({})).toContain(TOKEN);
  });
});

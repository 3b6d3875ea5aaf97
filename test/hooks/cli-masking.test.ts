/**
 * A run an agent's hook rewrote (`MISH_AGENT` set, hook-command.ts) prints to the agent: its text
 * is masked like an MCP reply. A run a human types is printed as the command printed it.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/fresh-build.js';

const MISH = path.join(ROOT, 'bin', 'mish.js');
// Built here, not written out: a GitHub token's shape and a password named by its variable.
const TOKEN = `ghp_${'A1b2C3d4'.repeat(4)}E5f6`;
const PASSWORD = 'Tr0ub4dor-and-3-horses';

function run(env: Record<string, string>): string {
  const script = path.join(process.cwd(), 'print-secrets.sh');
  writeFileSync(script, `echo "Authorization: token ${TOKEN}"\necho "MYSQL_PWD=${PASSWORD} mysql -u root"\n`);
  const r = spawnSync(process.execPath, [MISH, '--', 'bash', script], { encoding: 'utf8', env: { ...process.env, ...env } });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe('a hooked CLI run', () => {
  it('masks the secrets it prints before the agent reads them', () => {
    const out = run({ MISH_AGENT: 'claude-code', MISH_AGENT_SESSION: 'conv-1' });
    expect(out).toContain('Authorization: token [masked: github token]');
    expect(out).toContain('MYSQL_PWD=[masked: password] mysql -u root');
    expect(out).not.toContain(TOKEN);
    expect(out).not.toContain(PASSWORD);
    expect(out).toMatch(/\[exit 0\]/);
  });

  it("cuts a long line around a token, not through it (adv142's cut, on the hooked path)", () => {
    // The token starts 20 characters before the head's cut (line-cut.ts SHOWN_HEAD_CHARS, 240): cut bare, its head showed 20.
    const line = `${'w'.repeat(219)} ${TOKEN} ${'v'.repeat(800)} done`;
    const r = spawnSync(process.execPath, [MISH, 'python3', '-c', `print("${line}")`], { encoding: 'utf8', env: { ...process.env, MISH_AGENT: 'claude-code', MISH_AGENT_SESSION: 'conv-1' } });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/… \[\+[\d,]+ chars\] …/);
    expect(r.stdout).toContain('done');
    for (let i = 0; i + 8 <= TOKEN.length; i++) expect(r.stdout, TOKEN.slice(i, i + 8)).not.toContain(TOKEN.slice(i, i + 8));
  });

  it('prints a human\'s run as the command printed it', () => {
    expect(process.env.MISH_AGENT).toBeUndefined();
    const out = run({});
    expect(out).toContain(TOKEN);
  });
});

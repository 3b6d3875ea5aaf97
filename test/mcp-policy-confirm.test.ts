/**
 * A policy `confirm` rule over MCP: the command's yes/no questions are answered "y" and the reply
 * says which, by which rule; a line no confirm rule names still stops at its question, and a
 * secret prompt is never answered. Real `mish serve`, SDK Client, policy from MISH_POLICY.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startStdio, type Served } from './mcp-helpers.js';

describe('policy confirm over MCP', () => {
  let s: Served;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mish-confirm-'));
    const policy = path.join(dir, 'policy.toml');
    writeFileSync(
      policy,
      `[[rule]]\nid = "setup-answers-yes"\nreason = "the setup script may answer its own questions"\ndecision = "confirm"\nargv_any = '^bash (setup|secret)\\.sh'\n`,
    );
    const questions = `read -p "Install 3 packages? [Y/n] " a; echo "got $a"; read -p "Overwrite config? [y/N] " b; echo "got $b"\n`;
    writeFileSync(path.join(dir, 'setup.sh'), questions);
    writeFileSync(path.join(dir, 'other.sh'), questions);
    writeFileSync(path.join(dir, 'secret.sh'), 'read -s -p "Password: " p; echo; echo "len ${#p}"\n');
    s = await startStdio({ MISH_POLICY: policy, MISH_APPROVAL_TIMEOUT_MS: '2000' });
  });
  afterAll(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the yes/no questions of a line its confirm rule names, and says so', async () => {
    const r = await call(s.client, 'sh_run', { cmd: 'bash setup.sh', cwd: dir });
    expect(r.data.exit_code, r.text).toBe(0);
    expect(r.text).toContain('got y');
    expect(r.text.match(/got y/g)).toHaveLength(2);
    expect(r.text).toContain('[answered "y" to "Install 3 packages? [Y/n]" (policy rule setup-answers-yes: confirm)]');
    expect(r.text).toContain('[answered "y" to "Overwrite config? [y/N]" (policy rule setup-answers-yes: confirm)]');
  });

  it('a line no confirm rule names stops at its question for the agent', async () => {
    const r = await call(s.client, 'sh_run', { cmd: 'bash other.sh', cwd: dir });
    expect(r.data.status).toBe('waiting-for-input');
    expect(r.text).toMatch(/^waiting for input: "Install 3 packages\? \[Y\/n\]"/);
    await call(s.client, 'sh_interact', { id: r.data.id, action: 'kill' });
  });

  it('a secret prompt is never answered, even under a confirm rule', async () => {
    const r = await call(s.client, 'sh_run', { cmd: 'bash secret.sh', cwd: dir });
    expect(r.text).not.toContain('answered "y"');
    expect(r.data.exit_code ?? null).toBeNull();
    await call(s.client, 'sh_interact', { id: r.data.id, action: 'kill' });
  });
});

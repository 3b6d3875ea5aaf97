/**
 * Issue 21, through a real `mish serve` and the MCP SDK's Client: commands whose whole output is
 * a credential (`gh auth token`, `printenv DB_PASSWORD`, `kubectl … -o jsonpath | base64 -d`,
 * run for real) reach the agent as `[masked: <kind> printed by <tool>]` in sh_run and read_raw,
 * the value is masked later in the session wherever it shows, and the spool keeps the exact
 * bytes for the operator. And a password prompt is no secret: `read -s -p "Password: " pw`
 * followed by the program's output (`got 13`) comes back as printed, command line included.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, runCli, startStdio, type Served } from './mcp-helpers.js';
import { itUnless, missing } from './helpers/skip.js';

// A pre-2021 GitHub token's shape (40 hex): nothing in it says "token", only the command does.
const GH_TOKEN_VALUE = ['9f86d081', '884c7d65', '9a2feaa0', 'c55ad015', 'a3bf4f1b'].join('');
const DB_PASSWORD_VALUE = ['Kx9vR2', 'mQ7zL4', 'pW8n'].join('');

describe('commands whose whole output is a credential, and password prompts', () => {
  let served: Served;

  beforeAll(async () => {
    served = await startStdio({ GH_CONFIG_DIR: '', GH_TOKEN: '', GITHUB_TOKEN: '' });
    // gh's own config file (hosts.yml, its insecure-storage form): `gh auth token` prints the token from it.
    const gh = path.join(served.home, 'gh-config');
    mkdirSync(gh, { recursive: true });
    writeFileSync(path.join(gh, 'hosts.yml'), `github.com:\n    oauth_token: ${GH_TOKEN_VALUE}\n    user: octocat\n    git_protocol: https\n`);
  });
  afterAll(async () => {
    await served?.close();
  });

  itUnless(missing('gh'))('gh auth token: masked in sh_run and read_raw, remembered for the session; the spool is exact', async () => {
    const run = await call(served.client, 'sh_run', { cmd: `GH_CONFIG_DIR=${path.join(served.home, 'gh-config')} gh auth token` });
    expect(run.data.exit_code, run.text).toBe(0);
    expect(run.text).toContain('[masked: token printed by gh auth token]');
    expect(JSON.stringify(run.result)).not.toContain(GH_TOKEN_VALUE);
    const raw = await call(served.client, 'sh_interact', { id: run.data.id, action: 'read_raw' });
    expect(JSON.stringify(raw.result)).not.toContain(GH_TOKEN_VALUE);
    expect(raw.text).toContain('[masked: token printed by gh auth token]');
    const later = await call(served.client, 'sh_run', { cmd: `echo "remote: https://x-access-token@github.com ${GH_TOKEN_VALUE.slice(0, 20)}""${GH_TOKEN_VALUE.slice(20)}"` });
    expect(later.text).not.toContain(GH_TOKEN_VALUE);
    expect(later.text).toContain('[masked: token printed by gh auth token]');
    const spool = runCli(['raw', run.data.spool_ref.replace(/^mish raw /, '')], served.home);
    expect(spool.stdout).toContain(GH_TOKEN_VALUE);
  });

  it('printenv of a secret-named variable the session set: masked; a message from a printer is not', async () => {
    await call(served.client, 'sh_run', { cmd: `export APP_DB_PASSWORD='${DB_PASSWORD_VALUE}'` });
    const run = await call(served.client, 'sh_run', { cmd: 'printenv APP_DB_PASSWORD' });
    // Masked by the printer rule, or — when the stream masker has already learned the value from the
    // export line (it learns off the reply's path, so either may come first) — as the known password.
    expect(run.text).toMatch(/^\[masked: (?:\$APP_DB_PASSWORD value printed by printenv|password)\]$/m);
    expect(JSON.stringify(run.result)).not.toContain(DB_PASSWORD_VALUE);
    const none = await call(served.client, 'sh_run', { cmd: 'printenv NO_SUCH_TOKEN || echo "no such variable here"' });
    expect(none.text).toContain('no such variable here');
  });

  itUnless(missing('kubectl'))("kubectl … -o jsonpath='{.data.password}' | base64 -d (a Secret made client-side, no cluster): masked", async () => {
    const pw = ['Tq4!zR8', '#wL2vN6'].join('');
    const run = await call(served.client, 'sh_run', { cmd: `kubectl create secret generic db --from-literal=password='${pw}' --dry-run=client -o jsonpath='{.data.password}' | base64 -d; echo` });
    expect(run.data.exit_code, run.text).toBe(0);
    expect(run.text).toContain('[masked: secret printed by kubectl create secret]');
    expect(JSON.stringify(run.result)).not.toContain(pw);
  });

  it('a password prompt and what follows it on its line stay visible (read -s, sh_spawn + send)', async () => {
    // One prompt (a second would be handed to an operator): nothing typed is echoed, so the next output lands on the prompt's line.
    const cmd = 'read -s -p "Password: " pw; echo "got ${#pw}"; echo "Password: ********"';
    const spawned = await call(served.client, 'sh_spawn', { cmd, wait_for: 'Password:' });
    expect(spawned.text).toContain(cmd);
    const id = spawned.data.id;
    const sent = await call(served.client, 'sh_interact', { id, action: 'send', text: 'hunter2hunter\n' });
    let raw = '';
    for (let i = 0; i < 200 && !raw.includes('********'); i++) {
      raw = (await call(served.client, 'sh_interact', { id, action: 'read_raw' })).text;
      if (!raw.includes('********')) await new Promise((r) => setTimeout(r, 50));
    }
    expect(raw, sent.text).toContain('Password: got 13');
    expect(`${sent.text}\n${raw}`).not.toContain('[masked');
  });
});

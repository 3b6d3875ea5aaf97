/**
 * sh_spawn starts from the session's *current* environment, through the SDK's real Client and a
 * real `mish serve`: what sh_run exported or unset is seen; a busy session gives the last reading
 * and the reply says so; the hidden read is no command of the session.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, type Served } from './mcp-helpers.js';
import { serveForSuite } from './mcp-suite.js';

describe("sh_spawn starts with the session's current environment", () => {
  let s: Served;
  serveForSuite((served) => {
    s = served;
    mkdirSync(path.join(s.home, 'app'));
  });

  it('a variable exported by sh_run is seen (with the cwd), with or without naming the session; unset is seen too', async () => {
    await call(s.client, 'sh_run', { cmd: 'export PORT=3001; cd app' });
    const named = await call(s.client, 'sh_spawn', { cmd: 'echo "port=${PORT:-none} cwd=$PWD"', session: 'default', wait_for: 'port=' });
    expect(named.data).toMatchObject({ status: 'started', wait: 'matched', env_from: 'session', match: `port=3001 cwd=${path.join(s.home, 'app')}` });
    expect(named.text).not.toContain('[env:');
    const unnamed = await call(s.client, 'sh_spawn', { cmd: 'printenv PORT', wait_for: '^\\d+' });
    expect(unnamed.data).toMatchObject({ wait: 'matched', match: '3001', env_from: 'session' });
    await call(s.client, 'sh_run', { cmd: 'unset PORT' });
    const unset = await call(s.client, 'sh_spawn', { cmd: 'echo "port=${PORT:-none}"', session: 'default', wait_for: 'port=' });
    expect(unset.data.match).toBe('port=none');
    // The reads ran no command of the session: two sh_run calls, two commands, c1 and c2.
    const listed = await call(s.client, 'sh_session', { action: 'list' });
    expect(listed.data.sessions[0]).toMatchObject({ name: 'default', commands: 2, state: 'idle' });
    const next = await call(s.client, 'sh_run', { cmd: 'echo after' });
    expect(next.data).toMatchObject({ id: 'c3', raw_lines: 1 });
    expect(next.text.split('\n')[0]).toBe('after');
  });

  it('a busy session: the process gets the environment as read before, and the reply says so', async () => {
    await call(s.client, 'sh_run', { cmd: 'export EARLY=1', session: 'busy' });
    expect((await call(s.client, 'sh_spawn', { cmd: 'true', session: 'busy' })).data.env_from).toBe('session');
    const sleeping = await call(s.client, 'sh_run', { cmd: 'export LATE=2; sleep 30', session: 'busy', timeout: 0.5 });
    expect(sleeping.data.status).toBe('running');
    const p = await call(s.client, 'sh_spawn', { cmd: 'echo "early=${EARLY:-none} late=${LATE:-none}"', session: 'busy', wait_for: 'early=' });
    expect(p.data).toMatchObject({ wait: 'matched', match: 'early=1 late=none', env_from: 'session-earlier' });
    expect(p.text).toMatch(new RegExp(`\\[env: session "busy" is busy \\(${sleeping.data.id} running\\); started with its environment as read \\d+s ago — variables exported since are not seen`));
    await call(s.client, 'sh_interact', { id: sleeping.data.id, action: 'kill' });
  });
});

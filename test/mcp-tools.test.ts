/**
 * The tools' contracts that the scenario and protocol tests do not reach, through the SDK's real
 * Client and a real `mish serve`: sh_session's actions, sh_spawn's wait outcomes and where it
 * starts, sh_interact keys / signal / kill escalation, the process table as sh_interact status
 * reports it, and secret prompts.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { call, eventually, liveProcess, type Served } from './mcp-helpers.js';
import { serveForSuite } from './mcp-suite.js';

describe('mish serve tools', () => {
  let s: Served;
  serveForSuite((served) => (s = served));

  it('sh_session: "default" appears on first use; create, list, restart (fresh shell, same options), close; failures say what to do', async () => {
    const empty = await call(s.client, 'sh_session', { action: 'list' });
    expect(empty.data.sessions).toEqual([]);
    await call(s.client, 'sh_run', { cmd: 'true' });
    expect((await call(s.client, 'sh_session', { action: 'list' })).data.sessions.map((x: { name: string }) => x.name)).toEqual(['default']);

    const dir = path.join(s.home, 'work');
    mkdirSync(dir);
    const created = await call(s.client, 'sh_session', { action: 'create', name: 'w', shell: 'zsh', cwd: dir, env: { GREETING: 'hi' } });
    expect(created.data.sessions[0]).toMatchObject({ name: 'w', integration: 'osc', cwd: dir, state: 'idle' });
    expect(created.data.sessions[0].shell).toMatch(/zsh$/);
    const run = await call(s.client, 'sh_run', { cmd: 'echo "$GREETING $ZSH_NAME"; cd /; export LATER=1', session: 'w' });
    expect(run.text.split('\n')[0]).toBe('hi zsh');
    const listed = (await call(s.client, 'sh_session', { action: 'list' })).data.sessions.find((x: { name: string }) => x.name === 'w');
    expect(listed).toMatchObject({ cwd: '/', commands: 1, last_exit_code: 0, state: 'idle' });

    const restarted = await call(s.client, 'sh_session', { action: 'restart', name: 'w' });
    expect(restarted.text).toMatch(/fresh shell: cwd and env reset/);
    expect(restarted.data.sessions[0]).toMatchObject({ name: 'w', cwd: dir, commands: 0 });
    expect(restarted.data.sessions[0].pid).not.toBe(listed.pid);
    // Created-with options survive the restart; what the old shell did does not.
    expect((await call(s.client, 'sh_run', { cmd: 'echo "$GREETING ${LATER:-unset}"; pwd', session: 'w' })).text.split('\n').slice(0, 2)).toEqual(['hi unset', dir]);

    const dup = await call(s.client, 'sh_session', { action: 'create', name: 'w' });
    expect(dup.result.isError).toBe(true);
    expect(dup.text).toMatch(/exists[\s\S]*Next: /);
    const badShell = await call(s.client, 'sh_session', { action: 'create', name: 'f', shell: 'no-such-shell' });
    expect(badShell.result.isError).toBe(true);
    expect(badShell.text).toMatch(/Next: use bash, zsh, dash, sh/);
    const badCwd = await call(s.client, 'sh_session', { action: 'create', name: 'g', cwd: path.join(s.home, 'nope') });
    expect(badCwd.result.isError).toBe(true);
    expect(badCwd.text).toMatch(/bad-cwd/);
    const stray = await call(s.client, 'sh_session', { action: 'create', name: 'h', ssh_args: ['-p', '2222'] });
    expect(stray.result.isError).toBe(true);

    const shellPid = restarted.data.sessions[0].pid;
    const closed = await call(s.client, 'sh_session', { action: 'close', name: 'w' });
    expect(closed.result.isError).toBeFalsy();
    expect(await eventually(() => !liveProcess(shellPid), 5_000)).toBe(true);
    expect((await call(s.client, 'sh_session', { action: 'list' })).data.sessions.map((x: { name: string }) => x.name)).toEqual(['default']);
    const again = await call(s.client, 'sh_session', { action: 'close', name: 'w' });
    expect(again.result.isError).toBe(true);
    expect(again.text).toMatch(/no session named "w"/);
  });

  it('sh_spawn wait_for ends on a match, on the exit (with its code and output) or on the timeout (the process keeps running)', async () => {
    const exited = await call(s.client, 'sh_spawn', { cmd: 'echo building; echo "fatal: no such target" >&2; exit 3', wait_for: 'listening', timeout: 20 });
    expect(exited.data).toMatchObject({ status: 'started', wait: 'exited', state: 'exited', exit_code: 3 });
    expect(exited.data.tail).toEqual(['building', 'fatal: no such target']);
    expect(exited.text).toMatch(/exited with 3 .* before wait_for matched/);

    const slow = await call(s.client, 'sh_spawn', { cmd: 'echo warming up; sleep 600', alias: 'slow', wait_for: 'never-ready', timeout: 1 });
    expect(slow.data).toMatchObject({ wait: 'timeout', state: 'running' });
    expect(slow.text).toMatch(/did not match within 1\.\ds; the process keeps running/);
    expect(liveProcess(slow.data.pid)).toBe(true);
    expect(slow.data.procs).toMatch(/slow\(pid \d+/);
    await call(s.client, 'sh_interact', { id: 'slow', action: 'kill' });

    const noWait = await call(s.client, 'sh_spawn', { cmd: 'echo quick' });
    expect(noWait.data.wait).toBe('none');
  });

  it('sh_spawn starts where the agent works: the default session\'s cwd, a named session\'s cwd and current env (creation env plus what sh_run exported); relative cwd from there', async () => {
    const dir = path.join(s.home, 'proj');
    mkdirSync(path.join(dir, 'api'), { recursive: true });
    await call(s.client, 'sh_run', { cmd: `cd ${dir}` });
    const here = await call(s.client, 'sh_spawn', { cmd: 'pwd', wait_for: '/' });
    expect(here.data.match).toBe(dir);
    const rel = await call(s.client, 'sh_spawn', { cmd: 'pwd', cwd: 'api', wait_for: '/' });
    expect(rel.data.match).toBe(path.join(dir, 'api'));
    await call(s.client, 'sh_session', { action: 'create', name: 'envs', cwd: path.join(dir, 'api'), env: { SVC_PORT: '4100' } });
    await call(s.client, 'sh_run', { cmd: 'export LATER_ONLY=1', session: 'envs' });
    const named = await call(s.client, 'sh_spawn', { cmd: 'echo "cwd=$PWD port=$SVC_PORT later=${LATER_ONLY:-unset}"', session: 'envs', wait_for: 'cwd=' });
    expect(named.data.match).toBe(`cwd=${path.join(dir, 'api')} port=4100 later=1`);
    const { tools } = await s.client.listTools();
    const sessionDoc = (tools.find((t) => t.name === 'sh_spawn')!.inputSchema.properties as Record<string, { description?: string }>).session.description!;
    expect(sessionDoc).toMatch(/what sh_run commands exported there \(`export PORT=3001`\) or unset is seen/);
  });

  it('sh_interact keys and signal: arrows and Enter arrive as the terminal sends them, C-d ends input, C-c and SIGTERM stop a process', async () => {
    const keys = await call(s.client, 'sh_spawn', { cmd: `bash -c 'read -rsn3 k; printf "got %q\\n" "$k"; read -r line; echo "line=$line"; cat; echo cat-done'`, alias: 'keys', wait_for: 'never', timeout: 0.5 });
    expect(keys.data.state).toMatch(/running|waiting-for-input/);
    const up = await call(s.client, 'sh_interact', { id: 'keys', action: 'keys', keys: ['Up'], wait_for: 'got' });
    expect(up.text).toContain("got $'\\E[A'");
    const typed = await call(s.client, 'sh_interact', { id: 'keys', action: 'send', text: 'hello', wait: 0.3 });
    expect(typed.result.isError).toBeFalsy();
    const enter = await call(s.client, 'sh_interact', { id: 'keys', action: 'keys', keys: ['Enter'], wait_for: 'line=' });
    expect(enter.text).toContain('line=hello');
    const eof = await call(s.client, 'sh_interact', { id: 'keys', action: 'keys', keys: ['C-d'], wait_for: 'cat-done' });
    expect(eof.text).toContain('cat-done');
    expect((await call(s.client, 'sh_interact', { id: 'keys', action: 'status', wait: 5 })).data).toMatchObject({ state: 'exited', exit_code: 0 });

    await call(s.client, 'sh_spawn', { cmd: 'sleep 600', alias: 'ctrl-c' });
    const cc = await call(s.client, 'sh_interact', { id: 'ctrl-c', action: 'keys', keys: ['C-c'], wait: 5 });
    expect(cc.data.state).toMatch(/exited|killed/);
    expect(cc.data.exit_code).toBe(130);

    await call(s.client, 'sh_spawn', { cmd: 'sleep 600', alias: 'termed' });
    const term = await call(s.client, 'sh_interact', { id: 'termed', action: 'signal', signal: 'SIGTERM' });
    expect(term.data.exit_code).toBe(143);
    const late = await call(s.client, 'sh_interact', { id: 'termed', action: 'signal' });
    expect(late.result.isError).toBe(true);
    expect(late.text).toMatch(/already ended/);
  });

  it('kill ends the whole process group, TERM then KILL for what ignores TERM and HUP; the table says killed', async () => {
    const pids = path.join(s.home, 'deaf-pids');
    // Both ignore TERM and the HUP of the terminal closing (the disposition is inherited).
    const deaf = await call(s.client, 'sh_spawn', { cmd: `trap '' TERM HUP; sleep 600 & echo "$! $$" > ${pids}; echo up; wait`, alias: 'deaf', wait_for: 'up' });
    expect(deaf.data.wait).toBe('matched');
    const [child, shell] = readFileSync(pids, 'utf8').trim().split(' ').map(Number);
    expect(liveProcess(child) && liveProcess(shell)).toBe(true);
    const killed = await call(s.client, 'sh_interact', { id: 'deaf', action: 'kill' });
    expect(killed.data.state).toBe('killed');
    expect(killed.text).toMatch(/process group TERM, then KILL/);
    expect(await eventually(() => !liveProcess(child) && !liveProcess(shell), 5_000)).toBe(true);
  });

  it('the process table through status: every field, states running / waiting-for-input / exited / killed, and the [procs] digest', async () => {
    const spawnCalled = Date.now();
    const running = await call(s.client, 'sh_spawn', { cmd: 'echo first; echo second line; sleep 600', alias: 'tbl', wait_for: 'second' });
    const before = Date.now();
    const st = await call(s.client, 'sh_interact', { id: 'tbl', action: 'status' });
    const after = Date.now();
    expect(st.data).toMatchObject({
      id: running.data.id,
      alias: 'tbl',
      kind: 'spawn',
      state: 'running',
      command: 'echo first; echo second line; sleep 600',
      pid: running.data.pid,
      pgid: running.data.pid,
      last_line: 'second line',
      raw_lines: 2,
    });
    // started_at is when sh_spawn started it; elapsed_ms is measured from it at the time of the status call.
    const startedAt = Date.parse(st.data.started_at);
    expect(startedAt).toBeGreaterThanOrEqual(spawnCalled - 1);
    expect(startedAt).toBeLessThanOrEqual(before);
    // ISO timestamps are whole milliseconds: allow the one lost to rounding.
    expect(st.data.elapsed_ms).toBeGreaterThanOrEqual(before - startedAt - 1);
    expect(st.data.elapsed_ms).toBeLessThanOrEqual(after - startedAt + 1);
    // The digest names a running process's last line once (sh_spawn's reply did), then only when it changes.
    expect(running.data.procs).toMatch(/\[procs\] \d+ running: .*tbl\(pid \d+, \d+s, "second line"\)/);
    expect(st.data.procs).toMatch(/\[procs\] \d+ running: .*tbl\(pid \d+, \d+s\)/);

    const asking = await call(s.client, 'sh_run', { cmd: 'read -p "Overwrite config? [y/N] " a; echo "a=$a"', session: 'tbl', timeout: 20 });
    expect(asking.data.status).toBe('waiting-for-input');
    const waiting = await call(s.client, 'sh_interact', { id: asking.data.id, action: 'status' });
    expect(waiting.data).toMatchObject({ kind: 'command', session: 'tbl', state: 'waiting-for-input', waiting_for_input: { prompt: 'Overwrite config? [y/N]', secret: false } });
    expect(waiting.data.procs).toContain('waiting for input: "Overwrite config? [y/N]"');
    await call(s.client, 'sh_interact', { id: asking.data.id, action: 'send', text: 'n\n' });
    expect((await call(s.client, 'sh_interact', { id: asking.data.id, action: 'status', wait: 10 })).data).toMatchObject({ state: 'exited', exit_code: 0 });

    const k = await call(s.client, 'sh_interact', { id: 'tbl', action: 'kill' });
    expect(k.data.state).toBe('killed');
    // Ended background processes stay in the digest for a while, so the agent learns they ended.
    expect(k.data.procs).toMatch(/ended: .*tbl\(killed/);
  });

  it('a secret prompt is reported as such and handed to a human: the agent cannot answer it (issue 10: credential-blind handoff)', async () => {
    const r = await call(s.client, 'sh_run', { cmd: 'read -s -p "Password: " pw; echo; echo "length ${#pw}"', session: 'secret', timeout: 20 });
    expect(r.data.status).toBe('waiting-for-input');
    expect(r.data.waiting_for_input).toEqual({ prompt: 'Password:', secret: true });
    expect(r.data.handoff).toMatch(/^h_/);
    expect(r.text).toMatch(/asks for a secret .*only a human may type/);
    expect(r.data.procs).toContain('(secret)');
    const sent = await call(s.client, 'sh_interact', { id: r.data.id, action: 'send', text: 'hunter2\n' });
    expect(sent.result.isError).toBe(true);
    expect(sent.text).toContain('an operator has this session');
    const k = await call(s.client, 'sh_interact', { id: r.data.id, action: 'kill' });
    expect(k.data.state).toBe('killed');
    const raw = await call(s.client, 'sh_interact', { id: r.data.id, action: 'read_raw' });
    expect(raw.text).not.toContain('hunter2');
  });
});

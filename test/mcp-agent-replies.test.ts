/**
 * What an agent reads back in the cases a first real session through `mish serve` tripped on,
 * through the SDK's real Client and real shells: a background server that crashes at start, a
 * busy session, a program reading stdin without a prompt, key names, read_raw ranges, daemons a
 * session leaves behind, names that do not exist, very long passthrough output and no output.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { call, eventually, liveProcess, type Served } from './mcp-helpers.js';
import { serveForSuite } from './mcp-suite.js';
import { withoutDuration } from './helpers/status-line.js';

describe('mish serve: replies an agent can act on', () => {
  let s: Served;
  serveForSuite((served) => (s = served));

  it('sh_spawn of a server that crashes at start shows the error line above a long stack trace, without terminal escapes', async () => {
    const first = await call(s.client, 'sh_spawn', {
      cmd: `node -e "const s = require('http').createServer().listen(0, () => console.log('listening on ' + s.address().port))"`,
      alias: 'first',
      wait_for: 'listening on \\d+',
    });
    expect(first.data.wait).toBe('matched');
    const port = /listening on (\d+)/.exec(first.data.match)![1];
    // The same port again: node prints "Error: listen EADDRINUSE" and then a stack of ~20 lines (coloured on a terminal).
    const second = await call(s.client, 'sh_spawn', { cmd: `node -e "require('http').createServer().listen(${port})"`, wait_for: 'never', timeout: 20 });
    expect(second.data).toMatchObject({ wait: 'exited', state: 'exited', exit_code: 1 });
    expect(second.text).toMatch(/Error: listen EADDRINUSE: address already in use/);
    expect(second.data.output).toMatch(/Error: listen EADDRINUSE/);
    expect(second.text).not.toContain('\x1b');
    expect(second.data.tail.join('\n')).not.toContain('\x1b');
    await call(s.client, 'sh_interact', { id: 'first', action: 'kill' });
  });

  it('a session busy with a backgrounded command refuses another sh_run at once, saying which command and what to do', async () => {
    const bg = await call(s.client, 'sh_run', { cmd: 'sleep 60', session: 'busy', timeout: 0.3 });
    expect(bg.data.status).toBe('running');
    const refused = await call(s.client, 'sh_run', { cmd: 'echo hi', session: 'busy' });
    // Refused while the backgrounded command still runs (it did not wait for it to end). That it
    // does not wait out the 2 s grace first (kept for a command being interrupted by a cancel) is
    // a speed claim for the benchmarks, not a sub-second assertion on a shared machine.
    expect((await call(s.client, 'sh_interact', { id: bg.data.id, action: 'status' })).data.state).toBe('running');
    expect(refused.result.isError).toBe(true);
    expect(refused.text).toContain(`session "busy" is busy: ${bg.data.id} running`);
    expect(refused.text).toMatch(/Next: .*sh_interact \{id: "c\d+", action: "status"\}/);
    await call(s.client, 'sh_interact', { id: bg.data.id, action: 'kill' });
  });

  it('a program reading stdin with no prompt (cat) is described as such; unknown key names are refused; the final reply has the sh_run status line', async () => {
    // The reply comes as soon as the wait is seen; the timeout is only a hang guard (10 s passed on a loaded machine).
    const cat = await call(s.client, 'sh_run', { cmd: 'cat', session: 'stdin', timeout: 60 });
    expect(cat.data.status).toBe('waiting-for-input');
    expect(cat.text).toMatch(/^waiting for input: `cat` is reading its input as c\d+\.\nIt printed no prompt/);
    expect(cat.text).toContain('end the input with keys ["C-d"]');
    expect(cat.text).not.toContain('""');
    expect(cat.data.procs).toContain('waiting for input (no prompt printed)');

    const f1 = await call(s.client, 'sh_interact', { id: cat.data.id, action: 'keys', keys: ['F1'] });
    expect(f1.result.isError).toBe(true);
    expect(f1.text).toMatch(/unknown key name\(s\) "F1"; nothing was sent\nNext: .*to type text use action "send"/);

    await call(s.client, 'sh_interact', { id: cat.data.id, action: 'send', text: 'one line\n' });
    const done = await call(s.client, 'sh_interact', { id: cat.data.id, action: 'keys', keys: ['Ctrl+D'] });
    expect(done.data).toMatchObject({ state: 'exited', exit_code: 0, cwd: s.home });
    // The [procs] digest may follow the status line (other tests' processes that ended recently). The output is shown whole: the exit is all it adds.
    expect(withoutDuration(done.text).split('\n').slice(0, 4).join('\n')).toMatch(
      new RegExp(`^${cat.data.id} finished: \`cat\`\none line\none line\n\\[exit 0\\]$`),
    );
  });

  it('interrupting a backgrounded sh_run with signal hands over its final reply: what it printed, exit 130, the status line', async () => {
    const hung = await call(s.client, 'sh_run', { cmd: 'echo before-hang; sleep 30', session: 'hang', timeout: 0.5 });
    expect(hung.data.status).toBe('running');
    const sig = await call(s.client, 'sh_interact', { id: hung.data.id, action: 'signal', signal: 'SIGINT' });
    expect(sig.data).toMatchObject({ action: 'signal', state: 'exited', exit_code: 130 });
    expect(sig.text).toContain('before-hang');
    expect(sig.text).toMatch(/\n\[exit 130(?: SIGINT)?(?: · \d+s)?\]/);
    // The session is usable at once.
    expect((await call(s.client, 'sh_run', { cmd: 'echo next', session: 'hang' })).text.split('\n')[0]).toBe('next');
  });

  it('read_raw says when a range is reversed (error) or starts past the end (how many lines there are)', async () => {
    const r = await call(s.client, 'sh_run', { cmd: 'echo a; echo b', session: 'ranges' });
    const reversed = await call(s.client, 'sh_interact', { id: r.data.id, action: 'read_raw', from_line: 2, to_line: 1 });
    expect(reversed.result.isError).toBe(true);
    expect(reversed.text).toMatch(/to_line 1 is before from_line 2\nNext: pass from_line <= to_line/);
    const past = await call(s.client, 'sh_interact', { id: r.data.id, action: 'read_raw', from_line: 5 });
    expect(past.result.isError).toBeFalsy();
    expect(past.text.split('\n')[1]).toBe('no lines from 5: the output has 2 line(s)');
    expect(past.data.lines).toEqual([]);
  });

  it('closing or restarting a session ends the daemons it left (setsid, nohup in a subshell); a process sh_spawn started from it stays', async () => {
    await call(s.client, 'sh_session', { action: 'create', name: 'daemons' });
    const pidOf = (f: string) => Number(readFileSync(path.join(s.home, f), 'utf8'));
    const fork = (tag: string) =>
      call(s.client, 'sh_run', {
        session: 'daemons',
        cmd: `setsid sh -c 'echo $$ > ${tag}-setsid.pid; exec sleep 300' & (nohup sh -c 'echo $$ > ${tag}-nohup.pid; exec sleep 300' >/dev/null 2>&1 &); sleep 0.3`,
      });
    await fork('a');
    const spawned = await call(s.client, 'sh_spawn', { cmd: 'sleep 300', session: 'daemons' });
    const before = [pidOf('a-setsid.pid'), pidOf('a-nohup.pid')];
    expect(before.every(liveProcess)).toBe(true);

    const restarted = await call(s.client, 'sh_session', { action: 'restart', name: 'daemons' });
    expect(restarted.text).toMatch(/what the old shell ran was ended, daemons included/);
    expect(await eventually(() => !before.some(liveProcess))).toBe(true);

    await fork('b');
    const after = [pidOf('b-setsid.pid'), pidOf('b-nohup.pid')];
    const closed = await call(s.client, 'sh_session', { action: 'close', name: 'daemons' });
    expect(closed.text).toMatch(/daemons started with setsid\/nohup too/);
    expect(await eventually(() => !after.some(liveProcess))).toBe(true);
    expect(liveProcess(spawned.data.pid)).toBe(true);
    await call(s.client, 'sh_interact', { id: spawned.data.id, action: 'kill' });
  });

  it('a session name that does not exist or is malformed is an error that lists the sessions, never a process started elsewhere', async () => {
    await call(s.client, 'sh_run', { cmd: 'true', session: 'known' });
    const spawn = await call(s.client, 'sh_spawn', { cmd: 'sleep 30', session: 'knwon' });
    expect(spawn.result.isError).toBe(true);
    expect(spawn.text).toMatch(/no session named "knwon"; nothing was started\nNext: sessions: .*known/);
    expect(spawn.data).toEqual({});
    const restart = await call(s.client, 'sh_session', { action: 'restart', name: 'knwon' });
    expect(restart.result.isError).toBe(true);
    expect(restart.text).toMatch(/no session named "knwon" to restart\nNext: sessions: .*known.*; create it with/);
    expect((await call(s.client, 'sh_session', { action: 'list' })).data.sessions.map((x: { name: string }) => x.name)).not.toContain('knwon');
    const badName = await call(s.client, 'sh_run', { cmd: 'true', session: 'two words' });
    expect(badName.result.isError).toBe(true);
    expect(badName.text).toMatch(/session names: letters, digits, _ \. - only/);
  });

  it('passthrough: binary output stays one line; text with a few NULs is shown; a head/tail cut says which read_raw call has the rest; a condensed silence is the status line alone', async () => {
    // The router names binary output (8f6658a); over MCP the reply stays one short line, not ~20k tokens of U+FFFD.
    const blob = await call(s.client, 'sh_run', { cmd: 'head -c 20000 /dev/urandom > blob.bin && cat blob.bin', session: 'pass' });
    expect(blob.data).toMatchObject({ status: 'exited', exit_code: 0, category: 'passthrough' });
    expect(blob.text).toMatch(/^\[mish: binary output .*not shown/);
    expect(blob.text.length).toBeLessThan(600);

    const nuls = await call(s.client, 'sh_run', { cmd: "printf 'name\\0value\\0\\n'; echo plain text line", session: 'pass' });
    expect(nuls.text).toContain('plain text line');
    expect(nuls.text).not.toContain('binary output');

    // A condensed command that printed nothing: the status line alone.
    const quiet = await call(s.client, 'sh_run', { cmd: 'seq 1 5000 > n.txt', session: 'pass' });
    expect(quiet.data).toMatchObject({ category: 'condense', raw_lines: 0, shown_lines: 0 });
    expect(quiet.text).toMatch(/^\[exit 0\](?:\n\[procs\] .*)?$/);
    const long = await call(s.client, 'sh_run', { cmd: 'cat n.txt', session: 'pass' });
    const hint = /\[mish: lines (\d+)-(\d+) omitted \(\d+ lines, [^)]*\); read them: sh_interact \{id: "(c\d+)", action: "read_raw", from_line: (\d+), to_line: (\d+)\}\]/.exec(long.text);
    expect(hint).not.toBeNull();
    expect(hint![3]).toBe(long.data.id);
    expect([hint![4], hint![5]]).toEqual([hint![1], hint![2]]);
    const rest = await call(s.client, 'sh_interact', { id: long.data.id, action: 'read_raw', from_line: Number(hint![1]), to_line: Number(hint![1]) + 1 });
    expect(rest.data.lines.map((l: { text: string }) => l.text)).toEqual([hint![1], String(Number(hint![1]) + 1)]);
  });
});

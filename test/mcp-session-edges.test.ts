/**
 * Persistent sessions over MCP, through the SDK's real Client and a real `mish serve`: the edge
 * cases of seed 002 §7 (user switch, REPL subshells, OSC missing, prompt look-alikes, rapid
 * sequential commands, empty output) and the ones issue 4 adds (set -u / set -e / pipefail,
 * the user's PROMPT_COMMAND / precmd chained, multi-line commands, heredocs, the per-call cwd).
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import { anyOf, itUnless, missing, notRoot } from './helpers/skip.js';
import { call, eventually, type Served } from './mcp-helpers.js';
import { serveForSuite } from './mcp-suite.js';

/** `su` switches user without a password only for root; elsewhere the nested-shell case stands in. */
const NO_SU = anyOf(notRoot('su switches user without a password only for root'), missing('su'));

describe('sessions over MCP: seed 002 §7 edge cases', () => {
  let s: Served;
  serveForSuite((served) => {
    s = served;
    // The user's own hooks, read by the shells the server starts in this HOME.
    writeFileSync(path.join(s.home, '.bashrc'), `PROMPT_COMMAND='echo "$?" > "$HOME/bash-hook-status"'\nPS1='custom \\u> '\n`);
    writeFileSync(path.join(s.home, '.zshrc'), `precmd() { echo "$?" > "$HOME/zsh-hook-status" }\nPROMPT='zsh-custom %# '\n`);
  });

  itUnless(NO_SU)('user switch (su): the other user\'s shell is reported as waiting for commands, and exiting it ends the call\'s command with its status', async () => {
    const su = await call(s.client, 'sh_run', { cmd: 'su -s /bin/bash nobody', session: 'su', timeout: 20 });
    expect(su.result.isError).toBeFalsy();
    expect(su.data.status).toBe('waiting-for-input');
    expect(su.data.waiting_for_input.prompt).toMatch(/[$#]$/);
    expect(su.text).toMatch(/shell or REPL .* waits for commands/);
    // Terminal control sequences of the other shell (bracketed paste) do not reach the agent.
    expect(su.text).not.toMatch(/\[\?2004[hl]/);
    const who = await call(s.client, 'sh_interact', { id: su.data.id, action: 'send', text: 'id -un\n', wait: 5 });
    expect(who.text).toContain('nobody');
    await call(s.client, 'sh_interact', { id: su.data.id, action: 'send', text: 'exit 4\n' });
    const done = await call(s.client, 'sh_interact', { id: su.data.id, action: 'status', wait: 10 });
    expect(done.data).toMatchObject({ state: 'exited', exit_code: 4 });
    // Back in the session's own shell, with its integration intact.
    const back = await call(s.client, 'sh_run', { cmd: 'id -un; (exit 2)', session: 'su' });
    expect(back.data.exit_code).toBe(2);
    expect(back.text).toContain(userInfo().username);
  });

  it('a nested shell without integration (OSC missing) is reported at its prompt, never a hang; its exit status is the command\'s', async () => {
    writeFileSync(path.join(s.home, 'nested.sh'), "PS1='other@box:~$ ' exec bash --norc --noprofile -i\n");
    const nested = await call(s.client, 'sh_run', { cmd: 'bash nested.sh', session: 'nested', timeout: 20 });
    expect(nested.data.status).toBe('waiting-for-input');
    expect(nested.data.waiting_for_input.prompt).toBe('other@box:~$');
    await call(s.client, 'sh_interact', { id: nested.data.id, action: 'send', text: 'exit 7\n' });
    const done = await call(s.client, 'sh_interact', { id: nested.data.id, action: 'status', wait: 10 });
    expect(done.data).toMatchObject({ state: 'exited', exit_code: 7 });
    expect((await call(s.client, 'sh_run', { cmd: 'echo fine', session: 'nested' })).text).toContain('fine');
  });

  it('REPL subshells: a bare python3 is refused with the one-shot form; a REPL a script starts is answered through sh_interact', async () => {
    const bare = await call(s.client, 'sh_run', { cmd: 'python3', session: 'repl' });
    expect(bare.result.isError).toBeFalsy();
    expect(bare.data).toMatchObject({ status: 'refused', category: 'interactive' });
    expect(bare.text).toMatch(/python3 -c/);
    writeFileSync(path.join(s.home, 'repl.sh'), 'python3 -q -i\n');
    const repl = await call(s.client, 'sh_run', { cmd: 'bash repl.sh', session: 'repl', timeout: 20 });
    expect(repl.data.status).toBe('waiting-for-input');
    expect(repl.data.waiting_for_input.prompt).toBe('>>>');
    const answer = await call(s.client, 'sh_interact', { id: repl.data.id, action: 'send', text: 'print(6*7)\n', wait: 5 });
    expect(answer.text).toContain('42');
    await call(s.client, 'sh_interact', { id: repl.data.id, action: 'send', text: 'exit()\n' });
    const done = await call(s.client, 'sh_interact', { id: repl.data.id, action: 'status', wait: 10 });
    expect(done.data).toMatchObject({ state: 'exited', exit_code: 0 });
  });

  it('OSC missing: a command that replaces or removes the prompt hook does not silence the end marker (bash and zsh)', async () => {
    // bash: PROMPT_COMMAND replaced, the replacement chained as the user's hook.
    const hook = path.join(s.home, 'replaced-hook-ran');
    const set = await call(s.client, 'sh_run', { cmd: `PROMPT_COMMAND='echo "$?" > ${hook}'; (exit 3)`, session: 'osc', timeout: 10 });
    expect(set.data).toMatchObject({ status: 'exited', exit_code: 3 });
    const next = await call(s.client, 'sh_run', { cmd: 'echo next; (exit 5)', session: 'osc', timeout: 10 });
    expect(next.data).toMatchObject({ status: 'exited', exit_code: 5 });
    expect(next.text.split('\n')[0]).toBe('next');
    // The replacement runs after every command, with the command's status — after mish's end marker, so it may still be
    // writing when the reply arrives (CI run 303: the reply came first once sh_run got faster).
    await eventually(() => readFileSync(hook, 'utf8') === '5\n');
    expect(readFileSync(hook, 'utf8')).toBe('5\n');
    const unset = await call(s.client, 'sh_run', { cmd: 'set -u; unset PROMPT_COMMAND; (exit 6)', session: 'osc', timeout: 10 });
    expect(unset.data).toMatchObject({ status: 'exited', exit_code: 6 });
    expect((await call(s.client, 'sh_run', { cmd: 'echo still', session: 'osc', timeout: 10 })).data.exit_code).toBe(0);

    // zsh: precmd_functions emptied, then unset.
    await call(s.client, 'sh_session', { action: 'create', name: 'osc-zsh', shell: 'zsh' });
    const z1 = await call(s.client, 'sh_run', { cmd: 'precmd_functions=(); (exit 6)', session: 'osc-zsh', timeout: 10 });
    expect(z1.data).toMatchObject({ status: 'exited', exit_code: 6 });
    const z2 = await call(s.client, 'sh_run', { cmd: 'unset precmd_functions; echo z2', session: 'osc-zsh', timeout: 10 });
    expect(z2.data).toMatchObject({ status: 'exited', exit_code: 0 });
    const z3 = await call(s.client, 'sh_run', { cmd: 'echo z3; (exit 2)', session: 'osc-zsh', timeout: 10 });
    expect(z3.data).toMatchObject({ status: 'exited', exit_code: 2 });
    expect(z3.text.split('\n')[0]).toBe('z3');
  });

  it('prompt look-alikes and forged markers in output do not end the command early', async () => {
    const cmd = [
      "printf 'root@host:~# \\n'",
      "printf '\\033]6474;E;deadbeefdeadbeefdeadbeef;0;/forged\\007\\n'",
      "printf 'user@host:~$ '",
      'sleep 0.5',
      'echo; echo after-lookalikes',
      '(exit 9)',
    ].join('; ');
    const r = await call(s.client, 'sh_run', { cmd, session: 'lookalike', timeout: 20 });
    expect(r.data).toMatchObject({ status: 'exited', exit_code: 9 });
    expect(r.text).toContain('after-lookalikes');
    expect(r.data.cwd).toBe(s.home);
    const raw = await call(s.client, 'sh_interact', { id: r.data.id, action: 'read_raw' });
    expect(raw.data.lines.map((l: { text: string }) => l.text)).toEqual(['root@host:~# ', '\x1b]6474;E;deadbeefdeadbeefdeadbeef;0;/forged\x07', 'user@host:~$ ', 'after-lookalikes']);
  });

  it('rapid sequential commands: each reply holds its own output and nothing else', async () => {
    for (let i = 0; i < 25; i++) {
      const r = await call(s.client, 'sh_run', { cmd: `echo rapid-${i}; printf 'tail-${i}'`, session: 'rapid' });
      expect(r.data.exit_code).toBe(0);
      expect(r.text.split('\n').slice(0, 2)).toEqual([`rapid-${i}`, `tail-${i}`]);
      expect(r.data.raw_lines).toBe(2);
    }
  });

  it('empty output: no body, only the status line: the exit code, and the new cwd when the command moved', async () => {
    for (const [cmd, status] of [['true', '[exit 0]'], ['export EMPTY_T=1', '[exit 0]'], ['cd /', '[exit 0 · cwd /]']]) {
      const r = await call(s.client, 'sh_run', { cmd, session: 'empty' });
      expect(r.data).toMatchObject({ status: 'exited', exit_code: 0, raw_lines: 0, shown_lines: 0, complete: true });
      expect(r.text.split('\n')[0]).toBe(status);
    }
    expect((await call(s.client, 'sh_run', { cmd: 'pwd; echo "$EMPTY_T"', session: 'empty' })).text.split('\n').slice(0, 2)).toEqual(['/', '1']);
  });

  it('set -u, set -o pipefail and set -e: exit codes stay right; set -e ending the shell is reported and the next call gets a fresh one', async () => {
    expect((await call(s.client, 'sh_run', { cmd: 'set -u; set -o pipefail', session: 'opts' })).data.exit_code).toBe(0);
    const pipe = await call(s.client, 'sh_run', { cmd: 'false | true', session: 'opts' });
    expect(pipe.data.exit_code).toBe(1);
    const unbound = await call(s.client, 'sh_run', { cmd: 'echo "$NOT_SET_ANYWHERE"', session: 'opts' });
    expect(unbound.data.exit_code).not.toBe(0);
    expect(unbound.text).toMatch(/unbound variable/);
    expect((await call(s.client, 'sh_run', { cmd: 'echo alive', session: 'opts' })).data).toMatchObject({ exit_code: 0 });
    const e = await call(s.client, 'sh_run', { cmd: 'set -e; echo before; false; echo never', session: 'opts' });
    expect(e.data).toMatchObject({ exit_code: 1, shell_exited: true });
    expect(e.text).toContain('before');
    expect(e.text).not.toContain('never');
    expect(e.text).toMatch(/the shell ended \(exit 1\)/);
    const fresh = await call(s.client, 'sh_run', { cmd: 'echo fresh', session: 'opts' });
    expect(fresh.data.exit_code).toBe(0);
    expect(fresh.data.fresh_shell).toMatch(/had exited with status 1/);
  });

  /** What a hook wrote to its status file in the served HOME ('' while it does not exist yet). */
  const hookStatus = (name: string) => (existsSync(path.join(s.home, name)) ? readFileSync(path.join(s.home, name), 'utf8') : '');

  it("the user's PROMPT_COMMAND (bash) and precmd (zsh) run after every command with its status; custom prompts do not leak", async () => {
    const b = await call(s.client, 'sh_run', { cmd: 'echo in-bash; (exit 4)', session: 'hooks-bash' });
    expect(b.data.exit_code).toBe(4);
    expect(b.text.split('\n')[0]).toBe('in-bash');
    expect(b.text).not.toContain('custom');
    // The user's hook runs at the prompt, which can come after the command's end was reported: wait
    // for it to write the command's status (the file is truncated, then written; a hang guard only).
    expect(await eventually(() => hookStatus('bash-hook-status') === '4\n', 15_000), hookStatus('bash-hook-status')).toBe(true);
    await call(s.client, 'sh_session', { action: 'create', name: 'hooks-zsh', shell: 'zsh' });
    const z = await call(s.client, 'sh_run', { cmd: 'echo in-zsh; (exit 6)', session: 'hooks-zsh' });
    expect(z.data.exit_code).toBe(6);
    expect(z.text.split('\n')[0]).toBe('in-zsh');
    expect(z.text).not.toContain('zsh-custom');
    expect(await eventually(() => hookStatus('zsh-hook-status') === '6\n', 15_000), hookStatus('zsh-hook-status')).toBe(true);
  });

  it('multi-line commands and heredocs run as written, in bash, zsh and dash', async () => {
    const script = ["x='it'\"'\"'s'", 'for i in 1 2; do', '  echo "loop $i"', 'done', 'cat <<EOF', 'line $x', '\tindented', 'EOF', "cat <<'RAW'", '$x stays', 'RAW', '(exit 3)'].join('\n');
    for (const shell of ['bash', 'zsh', 'dash']) {
      await call(s.client, 'sh_session', { action: 'create', name: `ml-${shell}`, shell });
      const r = await call(s.client, 'sh_run', { cmd: script, session: `ml-${shell}` });
      expect(r.data.exit_code, shell).toBe(3);
      expect(r.text.split('\n').slice(0, 5), shell).toEqual(['loop 1', 'loop 2', "line it's", '\tindented', '$x stays']);
    }
  });
});

describe('dash and sh sessions over MCP: an interrupted command ends at once, the shell stays', () => {
  let s: Served;
  serveForSuite((served) => {
    s = served;
    mkdirSync(path.join(s.home, 'kept'));
  });

  /** The session's shell pid and whether it runs a command, from sh_session list. */
  async function sessionOf(name: string) {
    const list = await call(s.client, 'sh_session', { action: 'list' });
    return (list.data.sessions as { name: string; pid: number; state: string }[]).find((x) => x.name === name)!;
  }

  it.each(['dash', 'sh'])('%s: notifications/cancelled frees the session (the next call runs, same shell); cwd and exports survive', async (shell) => {
    const name = `cancel-${shell}`;
    await call(s.client, 'sh_session', { action: 'create', name, shell });
    expect((await call(s.client, 'sh_run', { cmd: 'cd kept && export KEPT=yes', session: name })).data.exit_code).toBe(0);
    const shellPid = (await sessionOf(name)).pid;
    const ac = new AbortController();
    const started = path.join(s.home, `${name}-started`);
    const pending = call(s.client, 'sh_run', { cmd: `touch ${started}; sleep 30`, session: name }, { signal: ac.signal });
    // Cancel once the command runs (its marker file exists), not after a guessed delay.
    expect(await eventually(() => existsSync(started), 15_000)).toBe(true);
    ac.abort();
    await expect(pending).rejects.toThrow();
    // A session still busy would make this call wait, then refuse it (isError): the reply, not a
    // stopwatch, shows the session was freed.
    const after = await call(s.client, 'sh_run', { cmd: 'pwd; echo "$KEPT"', session: name });
    expect(after.result.isError).toBeFalsy();
    expect(after.text.split('\n').slice(0, 2)).toEqual([path.join(s.home, 'kept'), 'yes']);
    expect(after.data.fresh_shell).toBeUndefined();
    expect((await sessionOf(name)).pid).toBe(shellPid);
  });

  it('dash: C-c through sh_interact ends a backgrounded sh_run with exit 130', async () => {
    await call(s.client, 'sh_session', { action: 'create', name: 'keys-dash', shell: 'dash' });
    const run = await call(s.client, 'sh_run', { cmd: 'sleep 30', session: 'keys-dash', timeout: 1 });
    expect(run.data.status).toBe('running');
    await call(s.client, 'sh_interact', { id: run.data.id, action: 'keys', keys: ['C-c'] });
    const done = await call(s.client, 'sh_interact', { id: run.data.id, action: 'status', wait: 2 });
    expect(done.data).toMatchObject({ state: 'exited', exit_code: 130 });
    expect((await call(s.client, 'sh_run', { cmd: 'echo again', session: 'keys-dash' })).text.split('\n')[0]).toBe('again');
  });
});

describe('sh_run cwd: per call, and it persists like cd', () => {
  let s: Served;
  serveForSuite((served) => {
    s = served;
    mkdirSync(path.join(s.home, 'proj', 'sub'), { recursive: true });
  });

  it('moves the session there for later calls, as the description says; relative paths start from the session cwd', async () => {
    const { tools } = await s.client.listTools();
    const cwdDoc = (tools.find((t) => t.name === 'sh_run')!.inputSchema.properties as Record<string, { description?: string }>).cwd.description!;
    expect(cwdDoc).toMatch(/stays there for later calls/);
    const a = await call(s.client, 'sh_run', { cmd: 'pwd', cwd: path.join(s.home, 'proj') });
    expect(a.text.split('\n')[0]).toBe(path.join(s.home, 'proj'));
    const b = await call(s.client, 'sh_run', { cmd: 'pwd' });
    expect(b.text.split('\n')[0]).toBe(path.join(s.home, 'proj'));
    expect(b.data.cwd).toBe(path.join(s.home, 'proj'));
    const c = await call(s.client, 'sh_run', { cmd: 'pwd', cwd: 'sub' });
    expect(c.text.split('\n')[0]).toBe(path.join(s.home, 'proj', 'sub'));
    expect((await call(s.client, 'sh_run', { cmd: 'pwd' })).data.cwd).toBe(path.join(s.home, 'proj', 'sub'));
  });

  it('a directory that does not exist fails the call (isError) and nothing runs', async () => {
    const marker = path.join(s.home, 'ran-anyway');
    const r = await call(s.client, 'sh_run', { cmd: `touch ${marker}`, cwd: path.join(s.home, 'nope') });
    expect(r.result.isError).toBe(true);
    expect(r.text).toMatch(/cwd: no such directory: .*nope; nothing was run/);
    expect(r.text).toMatch(/Next: /);
    expect(existsSync(marker)).toBe(false);
    // The session stayed where it was.
    expect((await call(s.client, 'sh_run', { cmd: 'pwd' })).data.cwd).toBe(path.join(s.home, 'proj', 'sub'));
  });

  it("sh_spawn's cwd is the process's only: the session does not move", async () => {
    await call(s.client, 'sh_run', { cmd: 'cd', cwd: s.home });
    const p = await call(s.client, 'sh_spawn', { cmd: 'pwd', cwd: path.join(s.home, 'proj'), wait_for: 'proj' });
    expect(p.data.match).toBe(path.join(s.home, 'proj'));
    expect((await call(s.client, 'sh_run', { cmd: 'pwd' })).data.cwd).toBe(s.home);
  });
});

describe('a fish session over MCP', () => {
  let s: Served;
  serveForSuite((served) => (s = served));

  it('sh_session create {shell: "fish"}; env and cwd persist, exit codes, empty output, quoting, exit and a fresh shell', async () => {
    const created = await call(s.client, 'sh_session', { action: 'create', name: 'f', shell: 'fish' });
    expect(created.result.isError).toBeFalsy();
    expect(created.data.sessions[0]).toMatchObject({ name: 'f', integration: 'sentinel' });
    expect(created.data.sessions[0].shell).toMatch(/\/fish$/);
    const set = await call(s.client, 'sh_run', { cmd: 'set -x FOO bar; cd /tmp', session: 'f' });
    expect(set.data).toMatchObject({ status: 'exited', exit_code: 0, cwd: '/tmp', raw_lines: 0 });
    expect(set.text.split('\n')[0]).toBe('[exit 0 · cwd /tmp]');
    // fish reads '\\\\' as one backslash; bash would keep two: what runs is fish.
    const echo = await call(s.client, 'sh_run', { cmd: `echo $FOO; pwd; echo "it's" 'a\\\\b' ü`, session: 'f' });
    expect(echo.text.split('\n').slice(0, 3)).toEqual(['bar', '/tmp', "it's a\\b ü"]);
    // The router checks lines as bash: fish-only syntax is refused before it runs, with how to write it.
    const block = await call(s.client, 'sh_run', { cmd: 'for i in 1 2; echo $i; end', session: 'f' });
    expect(block.result.isError).toBe(true);
    expect(block.text).toMatch(/this session runs fish, but mish checks each line as bash/);
    expect((await call(s.client, 'sh_run', { cmd: 'false', session: 'f' })).data.exit_code).toBe(1);
    const gone = await call(s.client, 'sh_run', { cmd: 'exit 3', session: 'f' });
    expect(gone.data).toMatchObject({ exit_code: 3, shell_exited: true });
    expect(gone.text).toMatch(/the shell ended \(exit 3\)/);
    const fresh = await call(s.client, 'sh_run', { cmd: 'echo $FOO; pwd', session: 'f' });
    expect(fresh.data.fresh_shell).toMatch(/had exited with status 3/);
    expect(fresh.text.split('\n').slice(0, 2)).toEqual(['', s.home]);
  });
});

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodePtyPort } from '../../platform/node-pty-port.js';
import { readStat } from '../../platform/platform.js';
import { createSessionManager } from './session-manager.js';
import { ABORT_ESCALATE_MS } from './shell-session.js';
import type { SessionEvent, SessionManager, ShellKind } from './types.js';

let home: string;
beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'mish-sess-'));
});
afterAll(() => rmSync(home, { recursive: true, force: true }));

function manager(extraEnv: Record<string, string> = {}): SessionManager {
  return createSessionManager({ port: nodePtyPort, cwd: home, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8', ...extraEnv } });
}

async function run(m: SessionManager, command: string, session?: string) {
  let out = '';
  const segments: string[] = [];
  const r = await m.run({ command, session, onData: (c) => (out += Buffer.from(c).toString('utf8')), onSegment: (s) => segments.push(s) });
  return { ...r, out, segments };
}

const shells: ShellKind[] = ['bash', 'zsh', 'dash', 'fish'];
/**
 * fish has no heredocs, POSIX functions or set -e/-u: these cases are declared for POSIX shells
 * only (not skipped), and fish's own versions are in the fish block below.
 */
const posix = (shell: ShellKind) => shell !== 'fish';
const itPosix = (shell: ShellKind): typeof it | ((...args: Parameters<typeof it>) => void) => (posix(shell) ? it : () => {});

describe.each(shells)('%s session', (shell) => {
  let m: SessionManager;
  beforeAll(async () => {
    m = manager();
    const r = await m.create({ shell });
    expect(r.ok).toBe(true);
  });
  afterAll(() => m.dispose());

  it('delivers only the output, with exit code and cwd', async () => {
    const r = await run(m, 'echo hello; ls /nonexistent-mish');
    expect(r.out).toMatch(/^hello\r\n.*nonexistent-mish.*\r\n$/s);
    expect(r.exitCode).not.toBe(0);
    expect(r.out).not.toContain('__mish');
    expect(r.out).not.toContain('\x1b]6474');
  });

  it('empty output, cwd and env persist across calls', async () => {
    const a = await run(m, 'cd /usr && export MISH_T=42');
    expect(a.out).toBe('');
    expect(a.exitCode).toBe(0);
    expect(a.cwd).toBe('/usr');
    const b = await run(m, 'pwd; echo "$MISH_T"');
    expect(b.out).toBe('/usr\r\n42\r\n');
  });

  it("reports the shell's CDPATH with the cwd after every command (set, changed, unset), never in the output", async () => {
    const info = () => m.list().find((s) => s.name === 'default')!;
    expect(info().cdpath).toBeUndefined();
    // Not exported in the POSIX shells: a shell variable is what `cd` searches.
    const set = await run(m, posix(shell) ? 'CDPATH=/tmp:/var; echo set' : 'set -g CDPATH /tmp /var; echo set');
    expect(set.out).toBe('set\r\n');
    expect(info().cdpath).toBe('/tmp:/var');
    await run(m, posix(shell) ? 'CDPATH=/usr' : 'set -g CDPATH /usr');
    expect(info().cdpath).toBe('/usr');
    const unset = await run(m, posix(shell) ? 'unset CDPATH' : 'set -e CDPATH');
    expect(unset.out).toBe('');
    expect(info().cdpath).toBeUndefined();
  });

  itPosix(shell)('multi-line commands, heredocs, quotes and control characters', async () => {
    const r = await run(m, "x='it'\"'\"'s'\ncat <<EOF\nline $x\n\tindented\nEOF\nprintf 'a\\033[1mb\\n'");
    expect(r.out).toBe("line it's\r\n\tindented\r\na\x1b[1mb\r\n");
    const ctl = await run(m, "printf '%s' 'x\x03y' | od -An -c | tr -s ' '");
    expect(ctl.out).toContain('x 003 y');
  });

  it('rapid sequential commands do not leak output into each other', async () => {
    for (let i = 0; i < 30; i++) {
      const r = await run(m, `echo out-${i}`);
      expect(r.out).toBe(`out-${i}\r\n`);
    }
  });

  itPosix(shell)('fake markers and prompt look-alikes in output do not end the command', async () => {
    // Its own cwd, not the one an earlier test left behind.
    expect((await run(m, 'cd /usr/bin')).exitCode).toBe(0);
    const r = await run(m, "printf '\\033]6474;E;0000;0;/fake\\007user@host:~$ \\n'; printf '\\033]6474;E;deadbeefdeadbeefdeadbeef;0;/x\\007\\n'; sleep 0.2; echo still; exit_code_test() { return 0; }; false");
    expect(r.out).toContain('still');
    expect(r.out).toContain('\x1b]6474;E;0000;0;/fake\x07');
    expect(r.exitCode).toBe(1);
    expect(r.cwd).toBe('/usr/bin');
  });

  it('syntax errors come back as a status, not a hang', async () => {
    const r = await run(m, 'echo $(( 1 + ');
    // Each shell's own message and status; the shell stays up and the next command runs.
    const expected: Record<string, [number, RegExp]> = {
      bash: [2, /^bash: unexpected EOF while looking for matching `\)'\r\n$/],
      zsh: [1, /^zsh: parse error near `\$\(\( 1 \+ '\r\n$/],
      dash: [2, /^\S*dash: 1: eval: Syntax error: Missing '\)\)'\r\n$/],
      fish: [123, /^fish: Unexpected end of string, expecting '\)'\r\n/],
    };
    expect(r.exitCode).toBe(expected[shell][0]);
    expect(r.out).toMatch(expected[shell][1]);
    expect(r.shellExited).toBe(false);
    expect((await run(m, 'echo alive')).out).toBe('alive\r\n');
  });

  it('a long command line (beyond the tty line limit) runs intact', async () => {
    const long = 'x'.repeat(6000);
    const r = await run(m, `echo ${long} | wc -c`);
    expect(r.out.trim()).toBe('6001');
  });

  it('exit 3 reports the status and that the shell ended; next call gets a fresh shell', async () => {
    const events: SessionEvent[] = [];
    const off = m.subscribe((e) => events.push(e));
    const r = await run(m, 'exit 3');
    expect(r.exitCode).toBe(3);
    expect(r.shellExited).toBe(true);
    const next = await run(m, 'echo again; pwd');
    expect(next.freshShell?.previousExitCode).toBe(3);
    expect(next.out).toBe(`again\r\n${home}\r\n`);
    off();
    expect(events.some((e) => e.type === 'session-closed' && e.reason === 'shell-exited' && e.exitCode === 3)).toBe(true);
    expect(events.some((e) => e.type === 'session-created')).toBe(true);
  });

  itPosix(shell)('set -e plus a failing command ends the shell and says so', async () => {
    const r = await run(m, 'set -e; false');
    expect(r.exitCode).toBe(1);
    expect(r.shellExited).toBe(true);
    expect((await run(m, 'echo ok')).freshShell).toBeDefined();
  });

  itPosix(shell)('set -u and set -o pipefail do not break the integration', async () => {
    const opts = shell === 'dash' ? 'set -u' : 'set -u; set -o pipefail';
    expect((await run(m, opts)).exitCode).toBe(0);
    const r = await run(m, shell === 'dash' ? 'false | true; echo $?' : 'false | true; echo $?');
    expect(r.out).toBe(shell === 'dash' ? '0\r\n' : '1\r\n');
    const u = await run(m, 'echo "${NOPE_UNSET}"');
    // An interactive shell reports the unset variable and stays up (a script would exit).
    const expected: Record<string, [number, RegExp]> = {
      bash: [1, /^bash: NOPE_UNSET: unbound variable\r\n$/],
      zsh: [1, /^zsh: NOPE_UNSET: parameter not set\r\n$/],
      dash: [2, /^\S*dash: 1: eval: NOPE_UNSET: parameter not set\r\n$/],
    };
    expect(u.exitCode).toBe(expected[shell][0]);
    expect(u.out).toMatch(expected[shell][1]);
    expect(u.shellExited).toBe(false);
    expect((await run(m, 'echo alive')).out).toBe('alive\r\n');
  });
});

describe('fish session (sentinels, fish quoting)', () => {
  let m: SessionManager;
  let fishHome: string;
  beforeAll(async () => {
    // The user's own config.fish: it must still run (first), with a greeting and a prompt that looks like output.
    fishHome = mkdtempSync(join(tmpdir(), 'mish-fish-'));
    mkdirSync(join(fishHome, '.config', 'fish'), { recursive: true });
    writeFileSync(
      join(fishHome, '.config', 'fish', 'config.fish'),
      ["set -gx FROM_CONFIG yes", "set -g fish_greeting 'hello from config.fish'", "function fish_prompt; echo -n 'user@host:~$ '; end", 'function greet; echo "hi $argv"; end'].join('\n') + '\n',
    );
    m = createSessionManager({ port: nodePtyPort, cwd: fishHome, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: fishHome, LANG: 'C.UTF-8' } });
    const r = await m.create({ shell: 'fish' });
    expect(r.ok && r.value).toMatchObject({ kind: 'fish', integration: 'sentinel' });
  });
  afterAll(async () => {
    await m.dispose();
    rmSync(fishHome, { recursive: true, force: true });
  });

  it("the user's config.fish ran; only the command's output comes back (no greeting, prompt or markers)", async () => {
    const r = await run(m, 'echo "$FROM_CONFIG"; greet there; ls /nonexistent-mish');
    expect(r.out).toMatch(/^yes\r\nhi there\r\n.*nonexistent-mish.*\r\n$/s);
    expect(r.exitCode).not.toBe(0);
    expect(r.out).not.toMatch(/__mish|6474|hello from config|user@host/);
  });

  it('exit codes: false is 1, and $status of the previous command is still there', async () => {
    expect((await run(m, 'false')).exitCode).toBe(1);
    const s = await run(m, 'echo $status');
    expect(s.out).toBe('1\r\n');
    expect((await run(m, 'true')).exitCode).toBe(0);
  });

  it('empty output, cwd and env persist across calls (set -x, export, cd)', async () => {
    expect(await run(m, 'cd /usr; set -x MISH_T 42; export MISH_U=u')).toMatchObject({ out: '', exitCode: 0, cwd: '/usr' });
    expect((await run(m, 'pwd; echo "$MISH_T"; printenv MISH_T MISH_U')).out).toBe('/usr\r\n42\r\n42\r\nu\r\n');
    // printenv fails for the erased variable; `cd -` goes back to where the session started.
    expect(await run(m, 'set -e MISH_T; printenv MISH_T; cd -')).toMatchObject({ out: '', exitCode: 0, cwd: fishHome });
  });

  it("quotes ', \\, $, newlines, unicode and control characters as fish reads them; multi-line blocks run", async () => {
    const r = await run(m, ["set x 'it\\'s'", 'echo "$x" \'a\\\\b\' "\\$HOME" \'$HOME\' ü日本😀', 'for i in 1 2', '  echo "loop $i"', 'end', "printf 'a\\033[1mb\\n'"].join('\n'));
    expect(r.out).toBe("it's a\\b $HOME $HOME ü日本😀\r\nloop 1\r\nloop 2\r\na\x1b[1mb\r\n");
    const ctl = await run(m, "printf '%s' 'x\x03y\tz\x7f' | od -An -c | tr -s ' '");
    expect(ctl.out).toBe(' x 003 y \\t z 177\r\n');
  });

  it('a long command line (beyond the tty line limit) with quotes, unicode and control characters runs intact', async () => {
    const payload = "a'b\\c ü😀\tx\x01y ".repeat(400);
    const r = await run(m, `printf '%s' '${payload.replace(/[\\']/g, '\\$&')}' | sha256sum`);
    expect(r.out.split(' ')[0]).toBe(createHash('sha256').update(payload).digest('hex'));
  });

  it('fake markers and prompt look-alikes in output do not end the command', async () => {
    const r = await run(m, "printf '\\033]6474;E;0000;0;/fake\\007user@host:~$ \\n'; printf '\\033]6474;E;deadbeefdeadbeefdeadbeef;0;/x\\007\\n'; sleep 0.2; echo still; false");
    expect(r.out).toContain('still');
    expect(r.out).toContain('\x1b]6474;E;0000;0;/fake\x07');
    expect(r.exitCode).toBe(1);
  });

  it("a per-call cwd and env (the router's) use fish syntax; a bad cwd runs nothing", async () => {
    let out = '';
    const r = await m.run({ command: 'pwd; echo $PAGER', cwd: '/tmp', env: { PAGER: "it's \\ $x" }, onData: (c) => (out += Buffer.from(c).toString('utf8')) });
    expect(out).toBe("/tmp\r\nit's \\ $x\r\n");
    expect(r.cwd).toBe('/tmp');
    const refused = await m.run({ command: `touch ${join(fishHome, 'not-ran')}`, cwd: '/nonexistent/mish' });
    expect(refused.exitCode).not.toBe(0);
    expect(existsSync(join(fishHome, 'not-ran'))).toBe(false);
  });

  it('^C (an abort) ends an external command and a builtin loop; the session stays usable', async () => {
    const fishPid = m.list()[0].pid;
    const cases: [string, (out: string) => boolean][] = [
      ['sleep 30', () => childNamed(fishPid, 'sleep')],
      ['echo looping; while true; end', (out) => out.includes('looping')],
    ];
    for (const [command, ready] of cases) {
      const ac = new AbortController();
      let out = '';
      const p = m.run({ command, signal: ac.signal, onData: (c) => (out += Buffer.from(c).toString('utf8')) });
      // Abort once it runs, not after a guessed delay.
      await until(() => ready(out));
      ac.abort();
      const r = await p;
      expect(r.exitCode, command).toBe(130);
      expect(r.shellExited, command).toBe(false);
      expect((await run(m, 'echo ok')).out).toBe('ok\r\n');
    }
  });

  it("mish's command lines stay out of the user's fish history", async () => {
    const r = await run(m, 'echo in-history-test; exit 0');
    expect(r).toMatchObject({ exitCode: 0, shellExited: true });
    expect(r.out).toMatch(/^in-history-test\r\n/);
    // `exit` ends fish cleanly, so it saved its history: mish's command lines are not in it.
    const history = join(fishHome, '.local', 'share', 'fish', 'fish_history');
    expect(existsSync(history) ? readFileSync(history, 'utf8') : '').not.toContain('__mish');
  });
});

/**
 * dash and sh have no prompt hook: a ^C makes them abandon the rest of the command line, the end
 * marker's __mish_e included, and the end marker comes from the prompt instead (sh.sh).
 */
describe.each(['dash', 'sh'] as const)('an interrupted command in a %s session', (shell) => {
  // Caught by the ^C, the command reports 130 from the prompt's end marker; a ^C that missed is
  // escalated to TERM after ABORT_ESCALATE_MS and reports 143 (see the SIGINT-deaf child below),
  // so the status, not a stopwatch, tells the two apart.
  let m: SessionManager;
  beforeAll(async () => {
    m = manager();
    expect((await m.create({ shell })).ok).toBe(true);
  });
  afterAll(() => m.dispose());

  /** Runs `command`, aborts it once `ready(output)` holds (it is running, not merely sent); the result and how long the abort took to report. */
  async function abortWhen(command: string, ready: (out: string) => boolean) {
    const ac = new AbortController();
    let out = '';
    const p = m.run({ command, signal: ac.signal, onData: (c) => (out += Buffer.from(c).toString('utf8')) });
    await until(() => ready(out));
    const t0 = Date.now();
    ac.abort();
    const r = await p;
    return { ...r, out, reportMs: Date.now() - t0 };
  }
  const sleeping = () => childNamed(m.list()[0].pid, 'sleep');

  it('sleep 30 ends at once with 130; the next command sees the cd and the exported variable', async () => {
    expect((await run(m, 'cd /usr && export MISH_KEPT="a b"')).exitCode).toBe(0);
    const shellPid = m.list()[0].pid;
    const r = await abortWhen('sleep 30; echo not-reached', sleeping);
    expect(r).toMatchObject({ exitCode: 130, shellExited: false, cwd: '/usr' });
    expect(r.out).not.toContain('not-reached');
    const next = await run(m, 'pwd; echo "$MISH_KEPT"');
    expect(next.freshShell).toBeUndefined();
    expect(next.out).toBe('/usr\r\na b\r\n');
    expect(m.list()[0].pid).toBe(shellPid);
  });

  it('a builtin loop and a read are interrupted too; a cd inside the interrupted command stays', async () => {
    const shellPid = m.list()[0].pid;
    const cases: [string, (out: string) => boolean][] = [
      // The loop is running once the shell's own cwd is /tmp (the cd before it ran).
      ['cd /tmp; while :; do :; done', () => cwdOf(shellPid) === '/tmp'],
      ['echo reading; read x', (out) => out.includes('reading')],
    ];
    for (const [command, ready] of cases) {
      const r = await abortWhen(command, ready);
      expect(r, command).toMatchObject({ exitCode: 130, shellExited: false });
    }
    expect((await run(m, 'pwd')).out).toBe('/tmp\r\n');
  });

  it('SIGINT to the foreground job (sh_interact signal) and C-c keys end it with its status', async () => {
    const viaSignal = run(m, 'sleep 30');
    (await waitCommand(m)).signal('SIGINT');
    expect(await viaSignal).toMatchObject({ exitCode: 130, shellExited: false });
    const viaKeys = run(m, 'sleep 30');
    const ctl = await waitCommand(m);
    await until(() => childNamed(m.list()[0].pid, 'sleep'));
    ctl.sendKeys(['C-c']);
    expect(await viaKeys).toMatchObject({ exitCode: 130, shellExited: false });
    expect((await run(m, 'echo ok')).out).toBe('ok\r\n');
  });

  it('a child that ignores SIGINT still ends (TERM after the escalation delay); the shell stays', async () => {
    const shellPid = m.list()[0].pid;
    // The subshell forks the sleep: wait for it, so the ^C reaches a running SIGINT-deaf child.
    const r = await abortWhen("(trap '' INT; sleep 30)", () => descendantNamed(shellPid, 'sleep'));
    expect(r).toMatchObject({ exitCode: 143, shellExited: false });
    // Not before the escalation delay (a timer never fires early); the upper bound is a hang guard only.
    expect(r.reportMs).toBeGreaterThanOrEqual(ABORT_ESCALATE_MS - 50);
    expect(r.reportMs).toBeLessThan(ABORT_ESCALATE_MS + HANG_GUARD_MS);
    expect((await run(m, 'echo ok')).out).toBe('ok\r\n');
    expect(m.list()[0].pid).toBe(shellPid);
  });

  it('rapid cancel-then-run: aborted at once, before the start, or already aborted; the next command gets only its own output', async () => {
    for (let i = 0; i < 6; i++) {
      const ac = new AbortController();
      if (i % 3 === 2) ac.abort();
      const p = m.run({ command: `sleep 30; echo not-${i}`, signal: ac.signal });
      if (i % 3 === 0) ac.abort();
      if (i % 3 === 1) setTimeout(() => ac.abort(), 5);
      const r = await p;
      expect(r, `round ${i}`).toMatchObject({ exitCode: 130, shellExited: false });
      expect((await run(m, `echo next-${i}`)).out, `round ${i}`).toBe(`next-${i}\r\n`);
    }
  });

  it("a command that replaced PS1 does not silence the interrupt's marker; printing PS1 forges nothing", async () => {
    expect((await run(m, "PS1='custom> '; echo set")).out).toBe('set\r\n');
    const r = await abortWhen('sleep 30', sleeping);
    expect(r).toMatchObject({ exitCode: 130, shellExited: false });
    // PS1 names the nonce's variable, it does not hold the nonce: its text, printed, is output.
    const printed = await run(m, `printf '%s\\n' "$PS1"; sleep 0.2; echo still; (exit 4)`);
    expect(printed.out).toContain('\x1b]6474;E;${__mish_n-};');
    expect(printed.out).toContain('still');
    expect(printed.exitCode).toBe(4);
  });
});

/**
 * bash forks a command's process with its own SIGINT handler and makes it the foreground group
 * before it execs: a ^C in that window was swallowed and `sleep 30` ran on (job-start.ts).
 */
describe('a command cancelled as it starts in a bash session', () => {
  let m: SessionManager;
  beforeAll(async () => {
    m = manager();
    expect((await m.create({ shell: 'bash' })).ok).toBe(true);
  });
  afterAll(() => m.dispose());

  it('40 rapid cancels of sleep and of a pipeline each end at once with 130; the shell stays usable', async () => {
    // A cancel that missed is TERMed after ABORT_ESCALATE_MS and reports 143, or the sleep dies and
    // `echo not-N` runs (status 0, its output seen): the status and the output tell, not a stopwatch.
    const shellPid = m.list()[0].pid;
    for (let i = 0; i < 40; i++) {
      const command = i % 2 === 0 ? `sleep 30; echo not-${i}` : `sleep 30 | cat; echo not-${i}`;
      const ac = new AbortController();
      let out = '';
      const p = m.run({ command, signal: ac.signal, onData: (c) => (out += Buffer.from(c).toString('utf8')) });
      // At once (the ^C waits for the start marker), or a few ms into the job's start.
      if (i % 4 < 2) ac.abort();
      else setTimeout(() => ac.abort(), i % 4);
      const r = await p;
      expect(r, `round ${i}: ${command}`).toMatchObject({ exitCode: 130, shellExited: false });
      expect(out, `round ${i}`).not.toContain('not-');
    }
    expect((await run(m, 'echo next')).out).toBe('next\r\n');
    expect(m.list()[0].pid).toBe(shellPid);
  });

  it('a program that tidies up on its ^C gets exactly one SIGINT and its own status', async () => {
    // Counts the SIGINTs it gets and tidies up slowly: a second SIGINT would print "ints 2".
    // os.write, not print, in the handler: a ^C landing inside print("ready") would make a print
    // in the handler a reentrant call on the same buffered stdout (RuntimeError), not the behaviour under test.
    const counter = `python3 -c 'import os,signal,sys,time
n=0
def h(*a):
  global n; n+=1; os.write(1, ("ints %d\\n" % n).encode())
  if n==1: time.sleep(0.3); sys.exit(3)
signal.signal(signal.SIGINT,h)
print("ready",flush=True)
time.sleep(30)'`;
    for (let i = 0; i < 3; i++) {
      const ac = new AbortController();
      let out = '';
      const p = m.run({
        command: counter,
        signal: ac.signal,
        onData: (c) => {
          out += Buffer.from(c).toString('utf8');
          if (out.includes('ready')) ac.abort();
        },
      });
      const r = await p;
      expect(r, out).toMatchObject({ exitCode: 3, shellExited: false });
      expect(out).toContain('ints 1\r\n');
      expect(out).not.toContain('ints 2');
    }
  });
});

describe('bash integration details', () => {
  it('reports each simple command as a segment', async () => {
    const m = manager();
    try {
      const r = await run(m, 'true && echo a | cat; false || echo b');
      expect(r.segments).toEqual(['true', 'echo a', 'cat', 'false', 'echo b']);
    } finally {
      await m.dispose();
    }
  });

  it("chains the user's PROMPT_COMMAND and survives a custom PS1", async () => {
    const h = mkdtempSync(join(tmpdir(), 'mish-home-'));
    writeFileSync(join(h, '.bashrc'), `PROMPT_COMMAND='echo "$?" > ${h}/pc-ran'\nPS1='custom \\u> '\n`);
    const m = createSessionManager({ port: nodePtyPort, cwd: h, env: { PATH: process.env.PATH ?? '', HOME: h } });
    try {
      const r = await run(m, 'echo x; (exit 7)');
      expect(r.exitCode).toBe(7);
      expect(r.out).toBe('x\r\n');
      expect((await run(m, 'cat pc-ran')).out).toBe('7\r\n');
      const p = await run(m, "PS1='$ '; echo y");
      expect(p.out).toBe('y\r\n');
      expect((await run(m, 'echo z')).out).toBe('z\r\n');
    } finally {
      await m.dispose();
      rmSync(h, { recursive: true, force: true });
    }
  });

  it('aborting interrupts the command and the session stays usable', async () => {
    const m = manager();
    try {
      const ac = new AbortController();
      const p = m.run({ command: 'sleep 30', signal: ac.signal });
      // The session's shell starts with the first run: wait for it, then for its sleep.
      await until(() => m.list().length > 0 && childNamed(m.list()[0].pid, 'sleep'));
      ac.abort();
      const r = await p;
      expect(r.exitCode).toBe(130);
      expect((await run(m, 'echo ok')).out).toBe('ok\r\n');
    } finally {
      await m.dispose();
    }
  });

  it('a nested shell (user switch) is reported as waiting for input, and exiting it finishes the command', async () => {
    const m = manager();
    try {
      let id = '';
      const waits: SessionEvent[] = [];
      m.subscribe((e) => e.type === 'waiting-for-input' && waits.push(e));
      const p = run(m, 'PS1="other@box:~$ " bash --norc --noprofile -i');
      // The nested shell has no integration: no end marker, the yield engine sees it waiting.
      await new Promise<void>((resolve) => {
        const t = setInterval(() => {
          const e = m.processes.list().find((x) => x.kind === 'command' && x.state === 'waiting-for-input');
          if (e) {
            id = e.id;
            clearInterval(t);
            resolve();
          }
        }, 50);
      });
      expect(waits.length).toBeGreaterThan(0);
      expect(m.processes.digest()).toContain('waiting for input');
      m.process(id)?.send('exit 5\n');
      const r = await p;
      expect(r.exitCode).toBe(5);
      expect(r.shellExited).toBe(false);
    } finally {
      await m.dispose();
    }
  });

  it('a python REPL is reported as waiting for input at ">>>"', async () => {
    const m = manager();
    try {
      const p = run(m, 'python3 -i -q');
      const ctl = await waitCommand(m);
      const res = await ctl.waitFor(undefined, 10_000, { stopOnInput: true });
      expect(res.status).toBe('waiting-for-input');
      if (res.status === 'waiting-for-input') expect(res.waiting.prompt).toContain('>>>');
      ctl.send('print(6*7)\n');
      ctl.send('exit()\n');
      const r = await p;
      expect(r.out).toContain('42');
      expect(r.exitCode).toBe(0);
    } finally {
      await m.dispose();
    }
  });

  it('a [Y/n] prompt and a secret prompt are detected and can be answered', async () => {
    const m = manager();
    try {
      const p = run(m, 'read -p "Continue? [Y/n] " a; echo "got $a"; read -s -p "Password: " pw; echo; echo "pw ${#pw}"');
      const ctl = await waitCommand(m);
      const w1 = await ctl.waitFor(undefined, 10_000, { stopOnInput: true });
      expect(w1.status === 'waiting-for-input' && w1.waiting.prompt).toBe('Continue? [Y/n]');
      expect(w1.status === 'waiting-for-input' && w1.waiting.secret).toBe(false);
      ctl.sendKeys(['y', 'Enter']);
      await ctl.waitFor(/got y/, 5000);
      const w2 = await ctl.waitFor(undefined, 10_000, { stopOnInput: true });
      expect(w2.status === 'waiting-for-input' && w2.waiting.secret).toBe(true);
      ctl.send('hunter2\n');
      const r = await p;
      expect(r.out).toContain('pw 7');
      expect(r.out).not.toContain('hunter2');
    } finally {
      await m.dispose();
    }
  });

  it('rejects a bad cwd and an unknown shell as values', async () => {
    const m = manager();
    try {
      const a = await m.create({ name: 'x', cwd: '/nonexistent/mish' });
      expect(!a.ok && a.error.kind).toBe('bad-cwd');
      const b = await m.create({ name: 'y', shell: 'fish-nope' });
      expect(!b.ok && b.error.kind).toBe('bad-shell');
      const c = await m.create({ name: 'z', shell: 'sh', cwd: '/tmp' });
      expect(c.ok).toBe(true);
      expect((await run(m, 'pwd', 'z')).out).toBe('/tmp\r\n');
      expect(m.list().map((s) => s.name)).toEqual(['z']);
      expect(await m.close('z')).toBe(true);
      expect(m.list()).toEqual([]);
    } finally {
      await m.dispose();
    }
  });

  it('close leaves no process of the session behind', async () => {
    const m = manager();
    const r = await run(m, 'sleep 300 & echo $!');
    const bgPid = Number(r.out.trim().split('\n').pop());
    const shellPid = m.list()[0].pid;
    expect(alive(bgPid)).toBe(true);
    await m.dispose();
    // Killed by dispose; on a loaded machine the kernel may take a moment to end them (a CI run saw one alive right after).
    await until(() => !alive(bgPid) && !alive(shellPid));
    expect(alive(bgPid)).toBe(false);
    expect(alive(shellPid)).toBe(false);
  });
});

/** A generous bound on waiting for an event: a hang guard on a loaded machine, never a speed claim. */
const HANG_GUARD_MS = 15_000;

/** Wait (polling) until `cond` holds; throws after the hang guard. */
async function until(cond: () => boolean, guardMs = HANG_GUARD_MS): Promise<void> {
  const end = Date.now() + guardMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`not met within ${guardMs} ms: ${cond}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The live processes (pid, parent, command name) in /proc. */
function procs(): { pid: number; ppid: number; comm: string }[] {
  const out: { pid: number; ppid: number; comm: string }[] = [];
  for (const n of readdirSync('/proc')) {
    if (!/^\d+$/.test(n)) continue;
    try {
      const s = readFileSync(`/proc/${n}/stat`, 'latin1');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      if (f[0] !== 'Z') out.push({ pid: Number(n), ppid: Number(f[1]), comm: s.slice(s.indexOf('(') + 1, s.lastIndexOf(')')) });
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/** Is a direct child of `pid` running program `comm` (the command's process has exec'd)? */
function childNamed(pid: number, comm: string): boolean {
  return procs().some((p) => p.ppid === pid && p.comm === comm);
}

/** Is any descendant of `pid` running program `comm`? */
function descendantNamed(pid: number, comm: string): boolean {
  const all = procs();
  const below = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of all) if (below.has(p.ppid) && !below.has(p.pid)) (below.add(p.pid), (grew = true));
  }
  return all.some((p) => p.comm === comm && p.pid !== pid && below.has(p.pid));
}

/** The current directory of a process. */
function cwdOf(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return undefined;
  }
}

async function waitCommand(m: SessionManager) {
  for (;;) {
    const info = m.list().find((s) => s.runningCommandId);
    const ctl = info?.runningCommandId ? m.process(info.runningCommandId) : undefined;
    if (ctl) return ctl;
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Live = exists and not a zombie (pid 1 here may never reap reparented zombies). */
function alive(pid: number): boolean {
  const st = readStat(pid);
  return !!st && st.state !== 'Z' && st.state !== 'X';
}

describe.each(shells)('a spawn from a %s session gets its current environment', (shell) => {
  let m: SessionManager;
  beforeAll(async () => {
    m = manager({ ENV: '/nonexistent/user-env.sh' });
    expect((await m.create({ name: 's', shell })).ok).toBe(true);
  });
  afterAll(() => m.dispose());

  /** The spawned process's output once it exited, and where its environment came from. */
  async function spawnOut(cmd: string, session = 's') {
    const r = await m.spawn({ cmd, session });
    if (!r.ok) throw new Error(r.error.message);
    const w = await r.value.waitFor(undefined, 10_000);
    expect(w.status).toBe('exited');
    return { out: r.value.read().lines.map((l) => l.text.replace(/\r$/, '')), source: r.value.envSource, exitCode: r.value.entry().exitCode };
  }

  it('sees variables exported and unset by earlier commands, and the cwd; the read is invisible', async () => {
    const exportCmd = shell === 'fish' ? "set -gx SPAWN_T 'a b'\\n'c'; set -gx GONE x; cd /usr" : 'export SPAWN_T="a b\nc" GONE=x; cd /usr';
    expect((await run(m, exportCmd, 's')).exitCode).toBe(0);
    expect((await run(m, shell === 'fish' ? 'set -e GONE' : 'unset GONE', 's')).exitCode).toBe(0);
    const before = m.list()[0].commands;
    const events: SessionEvent[] = [];
    const off = m.subscribe((e) => events.push(e));
    const r = await spawnOut('printenv SPAWN_T; printenv GONE || echo no-GONE; pwd');
    off();
    expect(r.source).toEqual({ kind: 'session-now', session: 's' });
    expect(r.out).toEqual(['a b', 'c', 'no-GONE', '/usr']);
    // The hidden read is no command of the session: not counted, no command or process events of its own.
    expect(m.list()[0].commands).toBe(before);
    expect(events.filter((e) => e.type === 'command-start' || e.type === 'segment' || (e.type === 'process' && e.entry.kind === 'command'))).toEqual([]);
    expect(m.processes.list().filter((p) => p.kind === 'command')).toHaveLength(2);
    // The next command's output is its own.
    expect((await run(m, 'echo next', 's')).out).toBe('next\r\n');
  });

  it("keeps mish's integration variables out, its owner cookie in, and the user's ENV as it was", async () => {
    const r = await spawnOut('env');
    const names = r.out.map((l) => l.split('=')[0]);
    for (const k of ['MISH_NONCE', 'MISH_RCFILE', 'MISH_USER_ENV', 'MISH_USER_ZDOTDIR', 'MISH_SKIP_USER_RC']) expect(names, k).not.toContain(k);
    expect(names).toContain('MISH_OWNER');
    expect(r.out).toContain('ENV=/nonexistent/user-env.sh');
    expect(r.out.join('\n')).not.toContain('shell-integration');
  });

  it('a busy session: the environment as read before, said so; a session never read: the one it was created with', async () => {
    await run(m, shell === 'fish' ? 'set -gx LATER 1' : 'export LATER=1', 's');
    const busy = m.run({ command: 'sleep 30', session: 's' });
    await until(() => !!m.list().find((x) => x.name === 's')?.runningCommandId);
    const r = await spawnOut('printenv SPAWN_T; printenv LATER || echo no-LATER');
    expect(r.source).toMatchObject({ kind: 'session-earlier', session: 's', why: expect.stringMatching(/^session "s" is busy \(c\d+ running\)$/) });
    expect(r.out).toEqual(['a b', 'c', 'no-LATER']);

    expect((await m.create({ name: 'fresh', shell })).ok).toBe(true);
    const slow = m.run({ command: 'sleep 30', session: 'fresh' });
    await until(() => !!m.list().find((x) => x.name === 'fresh')?.runningCommandId);
    const f = await spawnOut('printenv ENV; echo done', 'fresh');
    expect(f.source).toMatchObject({ kind: 'session-created', session: 'fresh' });
    expect(f.out).toEqual(['/nonexistent/user-env.sh', 'done']);
    // Closing ends the sleeping shells.
    await Promise.all([m.close('fresh'), m.close('s')]);
    expect((await Promise.all([busy, slow])).map((x) => x.shellExited)).toEqual([true, true]);
  });
});

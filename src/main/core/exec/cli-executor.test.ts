import { existsSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { nodePtyPort } from '../../platform/node-pty-port.js';
import { CliExecutor, SegmentFilter, type CliExecutorOptions } from './cli-executor.js';

const dir = mkdtempSync(path.join(tmpdir(), 'mish-exec-'));
const realBash = realpathSync('/bin/bash');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The tests below pin the shell through SHELL: the developer's own $SHELL must not change them. */
const BASH_USER = { ...process.env, SHELL: '/bin/bash' };

async function run(command: string, trace = true, options: CliExecutorOptions = { env: BASH_USER }) {
  const chunks: Buffer[] = [];
  const segments: string[] = [];
  const r = await new CliExecutor(nodePtyPort, options).run({
    command,
    cwd: dir,
    onData: (c) => chunks.push(Buffer.from(c)),
    onSegment: trace ? (s) => segments.push(s) : undefined,
  });
  return { ...r, out: Buffer.concat(chunks).toString('utf8'), segments };
}

describe('CliExecutor', () => {
  it('reports each simple command of a compound line and strips the markers', async () => {
    const r = await run('echo one && echo "two words" | tr a-z A-Z; (cd . && echo sub)');
    expect(r.out).toBe('one\r\nTWO WORDS\r\nsub\r\n');
    expect(r.segments).toEqual(['echo one', 'echo "two words"', 'tr a-z A-Z', 'cd .', 'echo sub']);
    expect(r.exitCode).toBe(0);
  });

  it('never sends markers into pipes or files, and keeps $? and exit codes', async () => {
    const r = await run('echo x | od -c | head -1; false; echo "status=$?"; echo data > f.txt; cat f.txt; (exit 3)');
    expect(r.out).toContain('0000000   x  \\n\r\n');
    expect(r.out).toContain('status=1\r\n');
    expect(r.out).toContain('data\r\n');
    expect(r.out).not.toContain('6474');
    expect(r.exitCode).toBe(3);
  });

  it('decodes commands with quotes, newlines and control characters', async () => {
    const r = await run("printf '%s\\n' 'it''s' && echo $'tab\\there'");
    // bash reports $BASH_COMMAND in its own normalised form ($'\t' becomes a quoted tab).
    expect(r.segments).toEqual(["printf '%s\\n' 'it''s'", "echo 'tab\there'"]);
    expect(r.out).toBe('its\r\ntab\there\r\n');
  });

  it('runs a simple command without any trap', async () => {
    const r = await run('echo $-', true);
    expect(r.out).not.toMatch(/T/);
    expect(r.segments).toEqual([]);
  });

  it('reports a signal death', async () => {
    const r = await run('kill -TERM $$', false);
    expect(r.exitCode).toBe(143);
  });

  it('interrupts on abort', async () => {
    const ac = new AbortController();
    const chunks: string[] = [];
    const p = new CliExecutor(nodePtyPort, { env: BASH_USER }).run({ command: 'echo started; sleep 30', cwd: dir, onData: (c) => {
      chunks.push(Buffer.from(c).toString());
      if (chunks.join('').includes('started')) ac.abort();
    }, signal: ac.signal });
    const r = await p;
    expect(r.exitCode).toBe(130);
  });
});

describe('SegmentFilter', () => {
  it('handles markers split across chunks and forged markers without the nonce', () => {
    const out: string[] = [];
    const segs: string[] = [];
    const f = new SegmentFilter('n0nce', (c) => out.push(Buffer.from(c).toString()), (s) => segs.push(s));
    const stream = 'a\x1b]6474;seg;n0nce;make\\ test\x07b\x1b]6474;seg;forged;rm\x07c';
    for (const ch of stream) f.push(Buffer.from(ch));
    f.end();
    expect(out.join('')).toBe('ab\x1b]6474;seg;forged;rm\x07c');
    expect(segs).toEqual(['make test']);
  });
});

describe('CliExecutor for a zsh user (SHELL=/usr/bin/zsh): the line runs in zsh, segment by segment', () => {
  const zsh = (command: string, trace = true) => run(command, trace, { env: { ...process.env, SHELL: '/usr/bin/zsh' } });

  it('runs what only zsh understands, and reports each part of a sublist', async () => {
    // ${(U)x} is a "bad substitution" in bash; =ls is zsh's path of ls; $x is not word-split.
    const r = await zsh('x="a b" && print -r -- ${(U)x} ${ZSH_VERSION:+zsh} =ls && for w in $x; do echo "[$w]"; done');
    expect(r.out).toMatch(/^A B zsh \/\S*\/ls\r\n\[a b\]\r\n$/);
    // zsh's own rendering of each command (an assignment keeps a trailing blank).
    expect(r.segments).toEqual(['x="a b" ', 'print -r -- ${(U)x} ${ZSH_VERSION:+zsh} =ls', 'echo "[$w]"']);
    expect(r.exitCode).toBe(0);
  });

  it('reports pipeline elements, subshells and functions; keeps $?, exit codes and output exact', async () => {
    const r = await zsh('echo one && echo "two words" | tr a-z A-Z; (cd . && echo sub); f() { echo in-f && false; }; f || echo "f=$?"; (exit 3)');
    expect(r.out).toBe('one\r\nTWO WORDS\r\nsub\r\nin-f\r\nf=1\r\n');
    // The two sides of a pipe start together: their order is the scheduler's.
    const [first, a, b, ...rest] = r.segments;
    expect([first, [a, b].sort(), ...rest]).toEqual(['echo one', ['echo "two words"', 'tr a-z A-Z'], 'cd .', 'echo sub', 'f () {\n\t{\n\t\techo in-f\n\t} && {\n\t\tfalse\n\t}\n}', 'f', 'echo in-f', 'false', 'echo "f=$?"', 'exit 3']);
    expect(r.exitCode).toBe(3);
  });

  it('never sends markers into pipes or files', async () => {
    const r = await zsh('echo x | od -c | head -1 && echo data > f.txt && cat f.txt');
    expect(r.out).toBe('0000000   x  \\n\r\ndata\r\n');
    expect(r.segments.length).toBe(5);
  });

  it.each([
    ['false || echo "st=$?"', 'st=1\r\n', 0],
    ['true && false', '', 1],
    ['false | true', '', 0],
    ['true | false', '', 1],
    ['setopt pipefail; false | true && echo no', '', 1],
    ['set -e; false || true; echo ok; false; echo never', 'ok\r\n', 1],
    ['! false && echo negated', 'negated\r\n', 0],
    ['cat <<EOF && echo after\nbody\nEOF', 'body\r\nafter\r\n', 0],
    ['echo a && exit 4; echo never', 'a\r\n', 4],
  ])('%j exits as zsh does', async (line, out, code) => {
    const r = await zsh(line);
    const plain = await zsh(line, false);
    expect(r.segments.length).toBeGreaterThan(1);
    expect(plain.segments).toEqual([]);
    expect([r.out, r.exitCode]).toEqual([out, code]);
    expect([plain.out, plain.exitCode]).toEqual([out, code]);
  });

  it('a timed part is timed (zsh does not time a brace group: the whole pipeline is wrapped)', async () => {
    const r = await zsh('time sleep 0.01 && echo timed');
    expect(r.out).toMatch(/^sleep 0\.01 .* total\r\ntimed\r\n$/);
    expect(r.segments).toEqual(['time sleep 0.01', 'echo timed']);
  });

  it('a line that reads $pipestatus or $_ runs untraced, so both stay exact', async () => {
    const ps = await zsh('true | false | true; echo "ps=$pipestatus"');
    expect(ps.out).toBe('ps=0 1 0\r\n');
    expect(ps.segments).toEqual([]);
    const last = await zsh('echo x y && echo "last=$_"');
    expect(last.out).toBe('x y\r\nlast=y\r\n');
  });

  it('set -x traces the user\'s commands only, not the trap', async () => {
    const r = await zsh('set -x; echo a && echo b');
    expect(r.out).toBe('+zsh:1> echo a\r\na\r\n+zsh:1> echo b\r\nb\r\n');
    expect(r.segments).toEqual(['set -x', 'echo a', 'echo b']);
  });

  it('a simple line runs in zsh too', async () => {
    expect((await zsh('echo ${ZSH_VERSION:+zsh}', false)).out).toBe('zsh\r\n');
  });
});

describe('CliExecutor for other shells: bash', () => {
  it.each([['/usr/bin/dash'], ['/usr/bin/fish'], ['/bin/sh'], [undefined]])('SHELL=%s runs the line with bash', async (shell) => {
    const env = { ...process.env, SHELL: shell };
    if (shell === undefined) delete env.SHELL;
    const r = await run('echo ${BASH_VERSION:+bash} && x="a b" && for w in $x; do echo "[$w]"; done', true, { env });
    expect(r.out).toBe('bash\r\n[a]\r\n[b]\r\n');
    expect(r.segments).toEqual(['echo ${BASH_VERSION:+bash}', 'x="a b"', 'for w in $x', 'echo "[$w]"', 'for w in $x', 'echo "[$w]"']);
  });

  it('without /bin/bash, bash is found on PATH', async () => {
    const bin = mkdtempSync(path.join(tmpdir(), 'mish-bin-'));
    symlinkSync(realBash, path.join(bin, 'bash'));
    try {
      const r = await run('echo ${BASH_VERSION:+bash} && echo two', true, { bash: path.join(bin, 'no-such-bash'), env: { PATH: bin, SHELL: '/usr/bin/fish' } });
      expect(r.out).toBe('bash\r\ntwo\r\n');
      expect(r.segments).toEqual(['echo ${BASH_VERSION:+bash}', 'echo two']);
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('no bash anywhere: a clear error naming what is missing, exit 127', async () => {
    const r = await run('echo hi', true, { bash: '/nonexistent/bash', env: { PATH: dir, SHELL: '/bin/dash' } });
    expect(r.out).toBe(`mish: cannot start: no bash to run the command line: /nonexistent/bash does not exist and there is no bash on PATH (${dir})\r\n`);
    expect(r.exitCode).toBe(127);
  });
});

describe('CliExecutor with piped stdin (the host\'s stdin is a pipe or a file)', () => {
  const piped = (command: string, stdin: Readable) => run(command, true, { env: BASH_USER, stdin });

  it('the command reads it exactly, as a pipe: no echo, control bytes and long lines intact', async () => {
    const r = await piped('cat; echo "[stdin is a tty: $([ -t 0 ] && echo yes || echo no)]"', Readable.from([Buffer.from('x\n')]));
    expect(r.out).toBe('x\r\n[stdin is a tty: no]\r\n');
    // ^C, ^D, ^Z and CR typed into a PTY would be a signal, an end-of-file, a suspend and a newline.
    const od = await piped('od -An -c', Readable.from([Buffer.from('a\x03b\x04c\x1ad\re\n')]));
    expect(od.out.replace(/\s+/g, ' ').trim()).toBe('a 003 b 004 c 032 d \\r e \\n');
    // A line longer than the tty's 4 KB canonical-mode limit.
    const long = await piped('wc -c', Readable.from([Buffer.from(`${'z'.repeat(10_000)}\n`)]));
    expect(long.out.trim()).toBe('10001');
  });

  it('a command that does not read all of it (or nothing) still ends', async () => {
    const endless = new Readable({ read() { this.push(Buffer.alloc(65536, 0x61)); } });
    const r = await piped('echo done', endless);
    expect(r.out).toBe('done\r\n');
    const head = await piped('head -c 5', endless);
    expect(head.out).toBe('aaaaa');
  });

  it('nothing is left in the temp directory, even when mish cannot clean up (killed)', async () => {
    // The command's shell removed the FIFO once it had it open: its stdin names a deleted file.
    const r = await piped('readlink /proc/$$/fd/0; cat', Readable.from([Buffer.from('still read\n')]));
    expect(r.out).toMatch(/^\/\S+\/mish-stdin-\w+\/stdin \(deleted\)\r\nstill read\r\n$/);
    expect(existsSync(path.dirname(r.out.split(' ')[0]))).toBe(false);
  });

  it('a compound line shares it, and segments are still reported', async () => {
    const r = await piped('read first && echo "got $first" && cat | wc -l', Readable.from([Buffer.from('one\ntwo\nthree\n')]));
    expect(r.out).toBe('got one\r\n2\r\n');
    expect(r.segments).toEqual(['read first', 'echo "got $first"', 'cat', 'wc -l']);
  });
});

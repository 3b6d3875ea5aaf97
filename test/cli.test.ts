/**
 * The `mish` command line end to end: the built bundle (dist/mish.mjs) run as a user runs it,
 * on real commands, files and git repos.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeHome, type SafeHome } from './helpers/safe-home.js';
import { withoutDuration } from './helpers/status-line.js';

const root = path.resolve(__dirname, '..');
const bundle = path.join(root, 'dist', 'mish.mjs');
let work: string;
let spoolDir: string;
/** Every run here has a temp HOME with canaries (one test sends `rm -rf ~`). */
let safe: SafeHome;

/** Runs without a controlling terminal (setsid), as from an agent or CI: never asks on the developer's tty. */
function mish(args: string[], opts: { cwd?: string; input?: string } = {}) {
  const r = spawnSync('setsid', ['-w', process.execPath, bundle, ...args], {
    cwd: opts.cwd ?? work,
    input: opts.input ?? '',
    encoding: 'utf8',
    env: safe.env({ MISH_SPOOL_DIR: spoolDir, MISH_AUDIT_LOG: path.join(spoolDir, 'audit.jsonl'), NO_COLOR: '1' }),
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** A line run by bash without a controlling terminal: real shell pipes and redirections around mish. */
function sh(line: string) {
  const r = spawnSync('setsid', ['-w', 'bash', '-c', line], {
    cwd: work,
    encoding: 'utf8',
    env: safe.env({ MISH: `${process.execPath} ${bundle}`, MISH_SPOOL_DIR: spoolDir, MISH_AUDIT_LOG: path.join(spoolDir, 'audit.jsonl'), NO_COLOR: '1' }),
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

beforeAll(() => {
  // dist/mish.mjs is rebuilt when older than its sources by the vitest global setup (test/helpers/global-setup.ts).
  safe = safeHome('cli');
  work = safe.cwd;
  spoolDir = path.join(work, '.spool');
});
afterAll(() => {
  safe.assertCanariesIntact();
  safe.dispose();
});

describe('mish <command>', () => {
  it('exits with the command exit code, 128+n for a signal', () => {
    expect(mish(['sh', '-c', 'exit 7']).code).toBe(7);
    expect(mish(['sh -c "kill -TERM \\$\\$"']).code).toBe(143);
    expect(mish(['true']).code).toBe(0);
  });

  it('condenses a long output and keeps the error in the middle, with the raw bytes recoverable', () => {
    const script = 'for i in $(seq 1 3000); do echo "step $i ok"; done; echo "src/app.ts:12:5 - error TS2322: bad"; for i in $(seq 1 3000); do echo "tail $i"; done; exit 1';
    writeFileSync(path.join(work, 'build.sh'), script);
    const r = mish(['sh', 'build.sh']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^src\/app.ts:12:5 - error TS2322: bad$/m);
    expect(r.out.length).toBeLessThan(2000);
    // One status line: the exit, and (lines were left out) the line count and how to read them.
    const id = /^\[exit 1 · 6,001 lines · mish raw (\w+)\]$/m.exec(withoutDuration(r.out))?.[1];
    expect(id).toBeTruthy();
    const raw = mish(['raw', id!, '--lines', '3001-3001']);
    expect(raw.out.trim()).toBe('src/app.ts:12:5 - error TS2322: bad');
    expect(mish(['raw', id!]).out.split('\n').length).toBe(6002);
  });

  it('switches grammars per segment of a compound command', () => {
    writeFileSync(path.join(work, 'Makefile'), 'all:\n\t@echo building\n\t@false\n');
    writeFileSync(path.join(work, 'nope.c'), 'int main(void) { return undefined_thing; }\n');
    const r = mish(['--json', 'echo start && make; cc -c nope.c']);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out);
    expect(j.grammars).toEqual(['make', 'c-compiler']);
    // make's failure by the make grammar, the compiler error by the c-compiler grammar's own rule.
    expect(j.summary.hazards.map((h: { rule: string; text: string }) => [h.rule, h.text])).toEqual([
      ['make-error', 'make: *** [Makefile:3: all] Error 1'],
      ['c-error', expect.stringMatching(/^nope\.c:1:\d+: error: .undefined_thing. undeclared/)],
    ]);
  });

  it('passes content through byte-exact (cat) with a status line', () => {
    const text = 'line one\n\tindented two\nthree — ünïcode\n';
    writeFileSync(path.join(work, 'f.txt'), text);
    const r = mish(['cat', 'f.txt']);
    expect(r.code).toBe(0);
    expect(r.out.startsWith(text)).toBe(true);
    // Shown whole: nothing to add but the exit code.
    expect(withoutDuration(r.out)).toBe(`${text}[exit 0]\n`);
  });

  it("keeps a program's own CRLF lines (a PTY sends them as CR CR LF; they came out empty)", () => {
    const r = mish(['--', 'node', '-e', "process.stdout.write('HTTP/1.1 200 OK\\r\\nContent-Type: text/html\\r\\n\\r\\nhello\\r\\n')"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('HTTP/1.1 200 OK\nContent-Type: text/html\n');
    expect(r.out).toContain('hello');
  });

  it('narrates file operations', () => {
    writeFileSync(path.join(work, 'a.txt'), 'x'.repeat(4300));
    const r = mish(['cp', 'a.txt', 'b.txt']);
    expect(withoutDuration(r.out)).toBe('→ cp: a.txt → b.txt (4.2KB)\n[exit 0]\n');
  });

  it('refuses a dangerous command when there is no terminal to ask, and runs nothing', () => {
    const marker = path.join(work, 'marker');
    writeFileSync(marker, '');
    const r = mish([`rm -rf ~ ; echo ran > ${marker}`]);
    expect(r.code).toBe(126);
    expect(r.err).toContain('dangerous');
    expect(execFileSync('cat', [marker]).toString()).toBe('');
    safe.assertCanariesIntact();
  });

  it('a terminal control byte in the line (^U, CR, ESC) is refused with its position, also with --raw; nothing runs', () => {
    for (const [line, label] of [
      ['echo ok\u0015touch made', 'NAK (^U) (U+0015)'],
      ['echo ok\rtouch made', 'CR (U+000D)'],
      ['echo \u001b[2Jtouch made', 'ESC (U+001B)'],
    ]) {
      for (const args of [[line], ['--raw', line]]) {
        const r = mish(args);
        expect(r.code, JSON.stringify(args)).toBe(2);
        expect(r.err).toContain(`mish: refused at line 1, column `);
        expect(r.err).toContain(`control character ${label}`);
        expect(r.out).toBe('');
        expect(existsSync(path.join(work, 'made'))).toBe(false);
      }
    }
  });

  it('--json gives a machine-readable result', () => {
    const r = mish(['--json', 'sh', '-c', 'echo hello; exit 3']);
    const j = JSON.parse(r.out);
    expect(j.exitCode).toBe(3);
    // The output itself, not the echoed command (which also contains "hello").
    expect(j.summary.body).toEqual([{ type: 'line', text: 'hello', no: 1 }]);
    expect(j.summary.totalLines).toBe(1);
    expect(r.code).toBe(3);
  });

  it("--raw passes the bytes through unchanged: to a pipe or a file, the program's own bytes (the terminal's \\r\\n undone)", () => {
    const r = mish(['--raw', 'printf', 'a\\033[31mb\\033[0m\\n']);
    expect(r.out).toBe('a\x1b[31mb\x1b[0m\n');
    const blob = randomBytes(50_000);
    writeFileSync(path.join(work, 'blob.bin'), blob);
    expect(sh('$MISH --raw cat blob.bin > copy.bin && cmp blob.bin copy.bin && echo same').out).toBe('same\n');
    // The spool keeps the terminal's bytes; `mish raw <id>` to a file gives the program's back.
    const id = /"spool":"mish raw (\w+)"/.exec(mish(['--json', 'cat', 'blob.bin']).out)?.[1];
    expect(sh(`$MISH raw ${id} > again.bin && cmp blob.bin again.bin && echo same`).out).toBe('same\n');
  });

  it('gives one-line errors and exit 2 for bad usage, never a stack trace', () => {
    for (const args of [['--bogus'], [], ['raw'], ['raw', 'nosuchid'], ['ls (']]) {
      const r = mish(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err.trim().split('\n').length, r.err).toBeLessThanOrEqual(4);
      expect(r.err).not.toMatch(/\n\s+at /);
    }
    expect(mish(['raw', '--bogus']).err).toBe("mish raw: unknown option '--bogus' (see mish raw --help)\n");
  });

  it('a deleted working directory is a one-line error, exit 127', () => {
    const r = sh('mkdir -p doomed && cd doomed && rmdir ../doomed && $MISH ls');
    expect(r.code).toBe(127);
    expect(r.err).toBe('mish: cannot start: the current directory no longer exists (cd to one that does)\n');
  });

  it('mish raw --lines -N prints the last N lines, as its help says', () => {
    const id = /· mish raw (\w+)\]$/m.exec(mish(['seq', '1', '500']).out)?.[1];
    expect(mish(['raw', '--help']).out).toContain('-20 alone = the last 20 lines');
    expect(mish(['raw', id!, '--lines', '-2']).out).toBe('499\n500\n');
    expect(mish(['raw', '--lines', '-1', id!]).out).toBe('500\n');
  });

  it('mish raw --lines: a reversed or zero range is a usage error, a range past the end says how many lines there are', () => {
    // Ten lines are shown whole (no raw reference in the text): --json names the spool.
    const id = /"spool":"mish raw (\w+)"/.exec(mish(['--json', 'seq', '1', '10']).out)?.[1];
    expect(mish(['raw', id!, '--lines', '5-3'])).toMatchObject({ code: 2, out: '', err: 'mish raw: --lines 5-3: the range is reversed (write 3-5)\n' });
    expect(mish(['raw', id!, '--lines', '0'])).toMatchObject({ code: 2, err: 'mish raw: --lines 0: lines are numbered from 1\n' });
    expect(mish(['raw', id!, '--lines', '11-20'])).toMatchObject({ code: 1, out: '', err: `mish raw: ${id} has 10 lines; --lines 11-20 is past the end\n` });
    expect(mish(['raw', id!, '--lines', '9-20'])).toMatchObject({ code: 0, out: '9\n10\n' });
  });

  it('--json puts a refusal and a syntax error on stdout as JSON too', () => {
    const refused = mish(['--json', 'vim', 'x.txt']);
    expect(refused.code).toBe(126);
    expect(JSON.parse(refused.out)).toMatchObject({ refused: 'interactive', exitCode: 126 });
    const parse = mish(['--json', "echo 'oops"]);
    expect(parse.code).toBe(2);
    expect(JSON.parse(parse.out)).toMatchObject({ error: 'parse', exitCode: 2 });
  });

  it('prints help for mish and its subcommands', () => {
    expect(mish(['--help']).out).toContain('usage: mish');
    expect(mish(['--help']).out).toContain('A quoted command line runs in your $SHELL when that is zsh or bash, otherwise (dash, sh,\nfish, unset) in bash');
    expect(mish(['raw', '--help']).out).toContain('usage: mish raw');
    expect(mish(['serve', '--help']).out).toMatch(/serve/);
  });
});

describe('mish with piped stdin', () => {
  it('gives it to the command as a pipe: never echoed, bytes exact, end-of-file at its end', () => {
    expect(withoutDuration(sh('echo x | $MISH cat').out)).toBe('x\n[exit 0]\n');
    writeFileSync(path.join(work, 'three.txt'), 'a\nb\nc\n');
    expect(withoutDuration(sh('$MISH wc -l < three.txt').out)).toBe('3\n[exit 0]\n');
    // Typed into a terminal, ^C would interrupt, ^D end the input and CR turn into NL.
    expect(sh("printf 'a\\003b\\004c\\rd\\n' | $MISH --raw od -An -c").out.replace(/\s+/g, ' ').trim()).toBe('a 003 b 004 c \\r d \\n');
    expect(sh('head -c 5000 /dev/zero | tr "\\0" z | $MISH --raw wc -c').out.trim()).toBe('5000');
    // rm sees no terminal on stdin, so it does not stop to ask about a write-protected file.
    writeFileSync(path.join(work, 'ro.txt'), 'x');
    chmodSync(path.join(work, 'ro.txt'), 0o444);
    expect(withoutDuration(sh('$MISH rm ro.txt < /dev/null').out)).toBe('→ rm: 1 file (1B)\n[exit 0]\n');
    // /dev/null is handed on as it is (no FIFO): the command reads end-of-file at once.
    expect(sh('$MISH --raw sh -c \'readlink /proc/self/fd/0; cat; echo end\' < /dev/null').out).toBe('/dev/null\nend\n');
  });

  it('a REPL fed from a pipe or a file runs (a bare one without input is still refused)', () => {
    writeFileSync(path.join(work, 'answer.py'), 'print(6 * 7)\n');
    for (const line of ["echo 'print(6 * 7)' | $MISH python3", '$MISH python3 < answer.py']) {
      const r = sh(line);
      expect(r.code, line).toBe(0);
      expect(withoutDuration(r.out), line).toBe('42\n[exit 0]\n');
    }
    const bare = mish(['python3']);
    expect(bare.code).toBe(126);
    expect(bare.err).toContain('refused: python3 is interactive');
  });
});

describe('mish when its reader goes away (mish … | head)', () => {
  it('ends like a program killed by SIGPIPE: exit 141, no stack trace, the command stopped', () => {
    // The loop is dead once it is gone or a zombie (its parent died too; init reaps it when it gets to it).
    // It never ends by itself: polled until it is dead, 15 s at most (a hang guard, not a speed claim).
    const dead = `case "$(ps -o stat= -p $(cat loop.pid))" in ''|Z*) true;; *) false;; esac`;
    const r = sh(`$MISH --raw sh -c 'echo $$ > loop.pid; while :; do echo tick; done' | head -2; echo "status=\${PIPESTATUS[0]}"; for i in $(seq 150); do ${dead} && break; sleep 0.1; done; ${dead} && echo gone || echo running`);
    expect(r.out).toBe('tick\ntick\nstatus=141\ngone\n');
    expect(r.err).toBe('');
  });

  it('mish raw <id> | head exits 141 quietly', () => {
    const id = /· mish raw (\w+)\]$/m.exec(mish(['seq', '1', '200000']).out)?.[1];
    const r = sh(`$MISH raw ${id} | head -1; echo "status=\${PIPESTATUS[0]}"`);
    expect(r.out).toBe('1\nstatus=141\n');
    expect(r.err).toBe('');
  });
});


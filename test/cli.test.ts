/**
 * The `mish` command line end to end: the built bundle (dist/mish.mjs) run as a user runs it,
 * on real commands, files and git repos.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '..');
const bundle = path.join(root, 'dist', 'mish.mjs');
let work: string;
let spoolDir: string;

/** Runs without a controlling terminal (setsid), as from an agent or CI: never asks on the developer's tty. */
function mish(args: string[], opts: { cwd?: string; input?: string } = {}) {
  const r = spawnSync('setsid', ['-w', process.execPath, bundle, ...args], {
    cwd: opts.cwd ?? work,
    input: opts.input ?? '',
    encoding: 'utf8',
    env: { ...process.env, MISH_SPOOL_DIR: spoolDir, NO_COLOR: '1' },
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

beforeAll(() => {
  if (!existsSync(bundle)) execFileSync(process.execPath, [path.join(root, 'scripts', 'build-cli.mjs'), '--quiet']);
  work = mkdtempSync(path.join(tmpdir(), 'mish-cli-'));
  spoolDir = path.join(work, '.spool');
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

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
    expect(r.out).toMatch(/^6,001 lines → exit 1 /);
    expect(r.out).toContain('✗ src/app.ts:12:5 - error TS2322: bad');
    expect(r.out.length).toBeLessThan(2000);
    const id = /raw: mish raw (\w+)/.exec(r.out)?.[1];
    expect(id).toBeTruthy();
    const raw = mish(['raw', id!, '--lines', '3001-3001']);
    expect(raw.out.trim()).toBe('src/app.ts:12:5 - error TS2322: bad');
    expect(mish(['raw', id!]).out.split('\n').length).toBe(6002);
  });

  it('switches grammars per segment of a compound command', () => {
    writeFileSync(path.join(work, 'Makefile'), 'all:\n\t@echo building\n\t@cc -c nope.c\n');
    writeFileSync(path.join(work, 'nope.c'), 'int main(void) { return undefined_thing; }\n');
    const r = mish(['echo start && make']);
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/nope\.c:1:\d+: error: .undefined_thing. undeclared/);
  });

  it('passes content through byte-exact (cat) with a footer', () => {
    const text = 'line one\n\tindented two\nthree — ünïcode\n';
    writeFileSync(path.join(work, 'f.txt'), text);
    const r = mish(['cat', 'f.txt']);
    expect(r.code).toBe(0);
    expect(r.out.startsWith(text)).toBe(true);
    expect(r.out).toMatch(/3 lines, .*exit 0/);
  });

  it('narrates file operations', () => {
    writeFileSync(path.join(work, 'a.txt'), 'x'.repeat(4300));
    const r = mish(['cp', 'a.txt', 'b.txt']);
    expect(r.out.trim()).toBe('→ cp: a.txt → b.txt (4.2KB)');
  });

  it('refuses a dangerous command when there is no terminal to ask, and runs nothing', () => {
    const marker = path.join(work, 'marker');
    writeFileSync(marker, '');
    const r = mish([`rm -rf ~ ; echo ran > ${marker}`]);
    expect(r.code).toBe(126);
    expect(r.err).toContain('dangerous');
    expect(execFileSync('cat', [marker]).toString()).toBe('');
  });

  it('--json gives a machine-readable result', () => {
    const r = mish(['--json', 'sh', '-c', 'echo hello; exit 3']);
    const j = JSON.parse(r.out);
    expect(j.exitCode).toBe(3);
    expect(JSON.stringify(j)).toContain('hello');
    expect(r.code).toBe(3);
  });

  it('--raw passes the bytes through unchanged', () => {
    const r = mish(['--raw', 'printf', 'a\\033[31mb\\033[0m\\n']);
    expect(r.out).toBe('a\x1b[31mb\x1b[0m\r\n');
  });

  it('gives one-line errors and exit 2 for bad usage, never a stack trace', () => {
    for (const args of [['--bogus'], [], ['raw'], ['raw', 'nosuchid'], ['ls (']]) {
      const r = mish(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err.trim().split('\n').length, r.err).toBeLessThanOrEqual(4);
      expect(r.err).not.toMatch(/\n\s+at /);
    }
  });

  it('prints help for mish and its subcommands', () => {
    expect(mish(['--help']).out).toContain('usage: mish');
    expect(mish(['--help']).out).toContain('A quoted command line runs in your $SHELL when that is zsh or bash, otherwise (dash, sh,\nfish, unset) in bash');
    expect(mish(['raw', '--help']).out).toContain('usage: mish raw');
    expect(mish(['serve', '--help']).out).toMatch(/serve/);
  });
});

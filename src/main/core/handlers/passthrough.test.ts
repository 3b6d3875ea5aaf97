/**
 * Passthrough is byte-exact: for every content command the issue names, what the agent gets
 * equals what the program writes when its output is not a terminal (the PTY's `\r\n` undone,
 * colour removed — nothing else). Real programs on real files and a real git repository.
 */
import { execSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itUnless, missing } from '../../../../test/helpers/skip.js';
import { git, gitEnv, gitRepo, have, sandbox } from '../router/test-kit.js';
import { PASSTHROUGH_MAX_BYTES, PASSTHROUGH_MAX_LINES, passthroughReport } from './passthrough.js';
import { humanSize } from './narrate.js';
import { withoutDuration } from '../../../../test/helpers/status-line.js';

const sb = sandbox('passthrough');
const dir = sb.dir;
let repo: string;

/** Text with what breaks naive handling: tabs, CRLF, UTF-8, blank lines, a line wider than the terminal. */
const TEXT = ['first line', '\tindented with a tab', 'crlf line\r', 'üñíçødé — ✓ 日本語', '', `${'wide '.repeat(60)}end`, 'match me', 'last line without newline'].join('\n');

beforeAll(() => {
  writeFileSync(path.join(dir, 'text.txt'), TEXT);
  writeFileSync(path.join(dir, 'a.txt'), 'one\ntwo\nthree\nfour\n');
  writeFileSync(path.join(dir, 'b.txt'), 'one\n2\nthree\nfour\nfive\n');
  writeFileSync(path.join(dir, 'data.json'), '{"name":"mish","tags":["a","b"],"n":{"x":1.5,"y":null}}');
  repo = gitRepo(path.join(dir, 'repo'), { 'f.txt': 'a\nb\nc\n' }, 'first');
  writeFileSync(path.join(repo, 'f.txt'), 'a\nB\nc\nd\n');
  git(repo, 'commit', '-qam', 'second');
  writeFileSync(path.join(repo, 'f.txt'), 'a\nB\nc\nd\ne\n');
});
afterAll(() => sb.cleanup());

/** The program's own output, to a pipe. */
function own(line: string, cwd = dir): string {
  try {
    return execSync(line, { cwd, encoding: 'utf8', env: { ...process.env, ...gitEnv, GIT_PAGER: 'cat', PAGER: 'cat' }, shell: '/bin/bash' });
  } catch (e) {
    // diff exits 1 when files differ: its stdout is still the output.
    return (e as { stdout: string }).stdout;
  }
}

/**
 * What the program prints on a terminal, from a pipe: git decorates commits (`(HEAD -> main)`)
 * only on a terminal (log.decorate=auto), so the pipe run asks for it.
 */
function ownOnTerminal(line: string, cwd: string): string {
  return own(line.startsWith('git ') ? `git -c log.decorate=short ${line.slice(4)}` : line, cwd);
}

async function exact(line: string, cwd = dir) {
  const r = await sb.run(line, { cwd, env: gitEnv });
  expect(r.category, line).toBe('passthrough');
  if (r.report.category !== 'passthrough') throw new Error('not passthrough');
  expect(r.report.output, line).toBe(ownOnTerminal(line, cwd));
  // The rendered text is exactly that output, then the status line (shown whole: the exit alone).
  const body = r.report.output.endsWith('\n') ? r.report.output : `${r.report.output} ⏎ (no newline at end)\n`;
  expect(r.text, line).toBe(`${body}${r.facts.enrichment.map((h) => `${h}\n`).join('')}[exit ${r.exitCode}]\n`);
  return r;
}

describe('passthrough is byte-exact against the program', () => {
  it.each([
    'cat text.txt',
    'head -n 3 text.txt',
    'head -c 20 text.txt',
    'tail -n 2 text.txt',
    "sed -n '2,4p' text.txt",
    'grep -n match text.txt',
    'grep -c line text.txt',
    'diff a.txt b.txt',
    'diff -u a.txt b.txt',
    'ls',
    'ls -la repo',
    'cat a.txt | grep t',
  ])('%s', async (line) => {
    if (line.startsWith('ls')) {
      // ls prints columns on a terminal (the PTY is 120 wide): the same as `ls -C -w 120`.
      const r = await sb.run(line);
      expect(r.category).toBe('passthrough');
      const expected = line === 'ls' ? own('ls -C -w 120') : own(`${line} --color=never`);
      expect(r.report.category === 'passthrough' && r.report.output).toBe(expected);
      return;
    }
    await exact(line);
  });

  it('diff keeps its exit status 1 (files differ) in the footer', async () => {
    const r = await exact('diff a.txt b.txt');
    expect(r.exitCode).toBe(1);
    expect(r.text).toMatch(/$/);
  });

  it.each(['git diff', 'git diff HEAD~1', 'git show', 'git show --stat HEAD~1', 'git log -p', 'git log -p -1 --format=%H%n%an%n%s'])('%s (colour on a terminal, stripped)', async (line) => {
    await exact(line, repo);
  });

  itUnless(missing('jq'))('jq (colour on a terminal, stripped)', async () => {
    await exact('jq . data.json');
    await exact('jq -r .tags[] data.json');
    await exact("jq -c '.n' data.json");
  });

  itUnless(missing('rg'))('rg', async () => {
    await exact('rg -n --no-heading match text.txt');
  });

  it('a heredoc feeds the command, output exact', async () => {
    await exact("cat <<'EOF'\nalpha $HOME\n\tbeta\nEOF");
  });
});

describe('terminal-only decorations are not passed through (issue 23 pt 3)', () => {
  it('npm ls --all: no spinner frames, and no "no newline at end" for a spinner erased at the end', async () => {
    const proj = path.join(dir, 'npm-ls');
    execSync(`mkdir -p ${proj} && cd ${proj} && printf '{"name":"p","version":"1.0.0"}' > package.json`);
    const r = await sb.run('npm ls --all', { cwd: proj });
    expect(r.category).toBe('passthrough');
    if (r.report.category !== 'passthrough') throw new Error('not passthrough');
    expect(r.report.output).toBe(own('npm ls --all', proj));
    expect(r.text).not.toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]|no newline at end/);
  });

  it('a \r progress line shows its final frame', async () => {
    const r = await sb.run(`sh -c 'printf "10%%\\r50%%\\r100%%\\ndone\\n" > /dev/stdout; cat a.txt'`);
    expect(r.text).toContain('100%\ndone\none\n');
    expect(r.text).not.toContain('50%');
  });
});

describe('very large passthrough output', () => {
  it('cuts head + tail with an exact marker, and the spool has every byte', async () => {
    const lines = Array.from({ length: 100_000 }, (_, i) => `row ${i + 1} ${'x'.repeat(i % 7)}`);
    writeFileSync(path.join(dir, 'big.txt'), `${lines.join('\n')}\n`);
    const r = await sb.run('cat big.txt');
    expect(r.category).toBe('passthrough');
    if (r.report.category !== 'passthrough') throw new Error('not passthrough');
    const cut = r.report.cut!;
    const head = PASSTHROUGH_MAX_LINES / 2;
    expect(cut).toMatchObject({ fromLine: head + 1, toLine: 100_000 - head, omittedLines: 100_000 - 2 * head });
    const omitted = lines.slice(head, 100_000 - head);
    expect(cut.omittedBytes).toBe(Buffer.byteLength(`${omitted.join('\n')}\n`));
    const marker = `[mish: lines ${head + 1}-${100_000 - head} omitted (${cut.omittedLines} lines, ${humanSize(cut.omittedBytes)}); read them: ${r.facts.spoolRef} --lines ${head + 1}-${100_000 - head}]`;
    // The marker names the raw output: the status line gives the line count, not the reference again.
    expect(withoutDuration(r.text)).toBe(`${lines.slice(0, head).join('\n')}\n${marker}\n${lines.slice(-head).join('\n')}\n[exit 0 · 100,000 lines]\n`);
    const id = /mish raw (\w+)/.exec(r.facts.spoolRef!)![1];
    const raw = sb.spool.open(id)!.readAll().toString().replace(/\r\n/g, '\n');
    expect(raw).toBe(`${lines.join('\n')}\n`);
  });

  it('cuts by bytes when a few lines are long', async () => {
    const lines = Array.from({ length: 1500 }, (_, i) => `${String(i + 1).padStart(4, '0')} ${'y'.repeat(400)}`);
    writeFileSync(path.join(dir, 'wide.txt'), `${lines.join('\n')}\n`);
    const r = await sb.run('cat wide.txt');
    if (r.report.category !== 'passthrough') throw new Error('not passthrough');
    const cut = r.report.cut!;
    expect(cut).toBeDefined();
    const shown = r.text.split('\n');
    const markerAt = shown.findIndex((l) => l.startsWith('[mish: lines '));
    // Every line before the marker is the file's head, every line after it (to the footer) its tail.
    expect(shown.slice(0, markerAt)).toEqual(lines.slice(0, cut.fromLine - 1));
    expect(shown.slice(markerAt + 1, -2)).toEqual(lines.slice(cut.toLine));
    expect(Buffer.byteLength(shown.slice(0, markerAt).join('\n')) + Buffer.byteLength(shown.slice(markerAt + 1, -2).join('\n'))).toBeLessThanOrEqual(PASSTHROUGH_MAX_BYTES);
    expect(shown[markerAt]).toBe(`[mish: lines ${cut.fromLine}-${cut.toLine} omitted (${cut.omittedLines} lines, ${humanSize(cut.omittedBytes)}); read them: ${r.facts.spoolRef} --lines ${cut.fromLine}-${cut.toLine}]`);
  });

  it('context mode keeps the marker and says how to read the rest', async () => {
    const r = await sb.run('cat big.txt', { output: 'context' });
    expect(r.text).toMatch(/\n\[mish: lines 1001-99000 omitted \(98000 lines, [\d.]+[KM]?B\); read them: mish raw \w+ --lines 1001-99000\]\n/);
    expect(withoutDuration(r.text)).toMatch(/\n\[exit 0 · 100,000 lines\]\n$/);
    const j = await sb.run('cat big.txt', { output: 'json' });
    const parsed = JSON.parse(j.text);
    expect(parsed.cut).toMatchObject({ fromLine: 1001, toLine: 99000, omittedLines: 98000 });
    expect(parsed.spool).toMatch(/^mish raw \w+$/);
  });
});

describe('binary output', () => {
  const NOTE = (bytes: number) => `[mish: binary output not shown (${humanSize(bytes)}, not text); to look inside use \`file <path>\`, \`xxd <path> | head -20\` or \`strings <path> | head -50\`]`;

  beforeAll(() => writeFileSync(path.join(dir, 'noise.bin'), randomBytes(3000)));

  it('is named with its size, not pasted: random bytes, an executable', async () => {
    for (const [line, bytes] of [['cat noise.bin', 3000], ['cat /bin/true', statSync('/bin/true').size], ['head -c 200 noise.bin', 200]] as const) {
      const r = await sb.run(line);
      if (r.report.category !== 'passthrough') throw new Error(`${line}: not passthrough`);
      expect(r.report, line).toMatchObject({ binary: true, bytes });
      // Not shown: the status line names the raw output.
      expect(withoutDuration(r.text), line).toBe(`${NOTE(bytes)}\n[exit 0 · ${r.facts.spoolRef}]\n`);
      expect(JSON.parse((await sb.run(line, { output: 'json' })).text), line).toMatchObject({ binary: true, output: '', bytes });
    }
  });

  it("a failed command's error message still shows, before or after the bytes", async () => {
    const bytes = 3000 + Buffer.byteLength('cat: missing.txt: No such file or directory\n');
    for (const line of ['cat noise.bin missing.txt', 'cat missing.txt noise.bin']) {
      const r = await sb.run(line);
      expect(r.exitCode, line).toBe(1);
      expect(r.text.split('\n').slice(0, 2), line).toEqual([NOTE(bytes), expect.stringMatching(/cat: missing\.txt: No such file or directory$/)]);
      expect(withoutDuration(r.text), line).toMatch(/\n\[exit 1 · mish raw \w+\]\n$/);
    }
  });

  it('text stays text: Latin-1 (invalid UTF-8), a stray NUL in a log, layout control characters', async () => {
    writeFileSync(path.join(dir, 'latin1.txt'), Buffer.from('café crème brûlée\nnaïve résumé\n', 'latin1'));
    writeFileSync(path.join(dir, 'nul.log'), 'started\n\0\nstopped\n');
    writeFileSync(path.join(dir, 'layout.txt'), 'tab\there\fform feed\vvertical\bback\n');
    for (const line of ['cat latin1.txt', 'cat nul.log', 'cat layout.txt']) {
      const r = await sb.run(line);
      if (r.report.category !== 'passthrough') throw new Error(`${line}: not passthrough`);
      expect(r.report.binary, line).toBeUndefined();
      expect(r.report.output, line).toBe(own(line));
    }
  });
});

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('a passthrough cut names what it hides that a reader looks for (issue 13 pt 3)', () => {
  it('the cut lists the omitted lines that mention an error word, by number', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `2026-11-26 18:40:00,${i} INFO [orders] request ${i} done`);
    lines[2499] = '2026-11-26 18:40:01,000 ERROR [orders] payment provider returned 502';
    lines[3999] = 'upstream connection refused, retried';
    lines[4099] = 'summary so far: 0 errors';
    const r = passthroughReport(lines.join('\n') + '\n', 1000);
    expect(r.cut).toMatchObject({ fromLine: 501, toLine: 4500, mentions: [2500, 4000], mentionCount: 2 });
  });
});

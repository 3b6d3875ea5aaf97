import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionApprovals, type DangerDecision } from '../handlers/dangerous.js';
import { route, REFUSED_EXIT, type RouteResult } from './route.js';
import { git, gitRepo, meta, sandbox } from './test-kit.js';
import { withoutDuration } from '../../../../test/helpers/status-line.js';

const sb = sandbox('route');
const dir = sb.dir;
const opts = sb.opts;
afterAll(() => sb.cleanup());

function ran(r: RouteResult) {
  if (r.kind !== 'ran') throw new Error(`expected a run, got ${r.kind}: ${r.text}`);
  return r;
}

describe('passthrough', () => {
  it('returns cat output byte-exact with a status line', async () => {
    const content = 'line one\n\ttabbed  spaces\nüñíçødé ✓\r\nno newline at end';
    writeFileSync(path.join(dir, 'a.txt'), content);
    const r = ran(await route('cat a.txt', opts()));
    expect(r.category).toBe('passthrough');
    expect(r.report.category === 'passthrough' && r.report.output).toBe(content);
    expect(withoutDuration(r.text)).toBe(`${content} ⏎ (no newline at end)\n[exit 0]\n`);
    expect(r.exitCode).toBe(0);
  });

  it('git diff and grep match the program run without a terminal (colour stripped)', async () => {
    const repo = gitRepo(path.join(dir, 'repo-diff'), { 'f.txt': 'a\nb\nc\n' }, 'init');
    writeFileSync(path.join(repo, 'f.txt'), 'a\nB\nc\nd\n');
    const r = ran(await route('git -c color.ui=always diff', opts({ cwd: repo })));
    expect(r.category).toBe('passthrough');
    const plain = execFileSync('git', ['diff'], { cwd: repo, encoding: 'utf8' });
    expect(r.report.category === 'passthrough' && r.report.output).toBe(plain);
    const g = ran(await route("grep -n 'B\\|d' f.txt | sed -n '1,5p'", opts({ cwd: repo })));
    expect(g.report.category === 'passthrough' && g.report.output).toBe(execFileSync('sh', ['-c', "grep -n 'B\\|d' f.txt | sed -n '1,5p'"], { cwd: repo, encoding: 'utf8' }));
  });

  it('cuts very large output head+tail with an exact marker and the spool reference', async () => {
    const r = ran(await route('seq 1 100000', opts({ meta: { ...meta, commands: new Map([...meta.commands, ['seq', 'passthrough']]) } })));
    expect(r.report.category).toBe('passthrough');
    if (r.report.category !== 'passthrough') return;
    expect(r.report.cut).toBeDefined();
    expect(r.text).toMatch(/\[mish: lines 1001-99000 omitted \(98000 lines, [\d.]+KB\); read them: mish raw [0-9a-z]+ --lines 1001-99000\]/);
    expect(withoutDuration(r.text)).toMatch(/\n\[exit 0 · 100,000 lines\]\n$/);
    expect(r.text.split('\n')[0]).toBe('1');
    expect(r.text).toContain('\n100000\n');
  });
});

describe('narrate', () => {
  it('cp, mkdir, rm say what happened', async () => {
    writeFileSync(path.join(dir, 'file'), 'x'.repeat(4300));
    const r = ran(await route('mkdir -p backup && cp file backup/', opts()));
    expect(r.category).toBe('narrate');
    expect(r.text).toContain('→ mkdir: created backup');
    expect(r.text).toContain('→ cp: file → backup/ (4.2KB)');
    expect(readFileSync(path.join(dir, 'backup/file'), 'utf8')).toHaveLength(4300);
    mkdirSync(path.join(dir, 'junk/sub'), { recursive: true });
    for (const n of ['a', 'b', 'c']) writeFileSync(path.join(dir, 'junk/sub', n), 'y'.repeat(4096));
    const rm = ran(await route('rm -r junk', opts()));
    expect(rm.text).toContain('→ rm: 3 files (12KB), 2 dirs');
    expect(existsSync(path.join(dir, 'junk'))).toBe(false);
  });

  it('failures say what went wrong, with the nearest existing path', async () => {
    const r = ran(await route('cp nope.txt backup/', opts()));
    expect(r.exitCode).not.toBe(0);
    expect(r.text).toMatch(/cannot stat 'nope.txt': No such file or directory/);
    expect(r.text).toMatch(/✗ cp: nope.txt → backup\/ \(nothing written\)/);
    expect(r.text).toMatch(/hint: nope.txt does not exist; nearest existing: \.\//);
  });

  it('chmod and redirections', async () => {
    writeFileSync(path.join(dir, 'm.sh'), 'echo hi\n');
    chmodSync(path.join(dir, 'm.sh'), 0o644);
    const r = ran(await route('chmod 755 m.sh', opts()));
    expect(r.text).toContain('→ chmod: m.sh 644 → 755');
    const w = ran(await route('cat a.txt > copy.txt', opts()));
    expect(w.category).toBe('narrate');
    expect(w.text).toMatch(/→ wrote copy.txt \(\d+B\)/);
  });
});

describe('structured', () => {
  it('git status, log and branch are compact; a user format is kept', async () => {
    const repo = gitRepo(path.join(dir, 'repo-st'), { a: '1' }, 'first commit');
    writeFileSync(path.join(repo, 'a'), '2');
    writeFileSync(path.join(repo, 'b'), 'new');
    writeFileSync(path.join(repo, 'c'), 'staged');
    git(repo, 'add', 'c');
    const st = ran(await route('git status', opts({ cwd: repo })));
    expect(st.category).toBe('structured');
    expect(st.ran).toBe("git status '--porcelain=v1' '--branch'");
    expect(withoutDuration(st.text)).toBe('branch main · 1 staged, 1 modified, 1 untracked\nstaged:    A c\nmodified:  M a\nuntracked: b\n[exit 0]\n');
    const log = ran(await route('git log', opts({ cwd: repo })));
    expect(log.text).toMatch(/^[0-9a-f]{7,} first commit \(HEAD -> main\) \(Ada, .+ ago\)\n\[exit 0\]\n$/);
    const br = ran(await route('git branch', opts({ cwd: repo })));
    expect(br.text).toMatch(/^\* main [0-9a-f]{7,}\n\[exit 0\]\n$/);
    const short = ran(await route('git status -s', opts({ cwd: repo })));
    expect(short.ran).toBe('git status -s');
    expect(short.text).toContain(' M a\nA  c\n?? b\n');
  });
});

describe('condense', () => {
  it('switches grammars per segment of a compound command', async () => {
    const cwd = path.join(dir, 'switch');
    mkdirSync(cwd);
    writeFileSync(path.join(cwd, 'Makefile'), 'all:\n\t@echo building\n\t@false\n');
    writeFileSync(path.join(cwd, 'bad.c'), 'int main(void) { return undefined_thing; }\n');
    const r = ran(await route('echo start && make; cc -c bad.c', opts({ cwd })));
    expect(r.category).toBe('condense');
    expect(r.exitCode).toBe(1);
    if (r.report.category !== 'condense') throw new Error('not condense');
    expect(r.json.grammars).toEqual(['make', 'c-compiler']);
    // Each failure is matched by its own segment's grammar: make-error by make, c-error by the
    // c-compiler grammar (the make grammar alone would call the compiler line cc-diag-error).
    expect(r.report.squash.hazards.map((h) => [h.rule, h.text])).toEqual([
      ['make-error', 'make: *** [Makefile:3: all] Error 1'],
      ['c-error', expect.stringMatching(/^bad\.c:1:\d+: error: .undefined_thing. undeclared/)],
    ]);
  });
});

describe('interactive', () => {
  it('MCP gets an error value saying what to do instead', async () => {
    const r = await route('vim notes.txt', opts({ mode: 'mcp' }));
    expect(r.kind).toBe('refused');
    if (r.kind !== 'refused') return;
    expect(r.exitCode).toBe(REFUSED_EXIT);
    expect(r.text).toMatch(/vim is interactive and cannot run over MCP\ninstead: edit files non-interactively/);
  });

  it('CLI hands the terminal over and prints a one-line summary', async () => {
    const screen: Buffer[] = [];
    let attached = 0;
    const r = ran(
      await route('python3', {
        ...opts(),
        terminal: {
          size: () => ({ cols: 80, rows: 24 }),
          write: (b) => {
            screen.push(Buffer.from(b));
            if (pending && Buffer.concat(screen).includes('>>> ')) {
              pending.write('print(6*7)\rexit()\r');
              pending = undefined;
            }
          },
          attach: (c) => {
            attached++;
            pending = c;
            return () => {};
          },
        },
      }),
    );
    expect(attached).toBe(1);
    expect(Buffer.concat(screen).toString()).toContain('42');
    expect(r.text).toMatch(/^→ python3: interactive session [\d.]+s, exit 0\n$/);
  });
});
let pending: { write(d: string): void } | undefined;

describe('dangerous', () => {
  it('refuses without a terminal, and MCP gets a structured refusal', async () => {
    writeFileSync(path.join(dir, 'keep'), 'k');
    const r = await route('rm -rf ~ && touch keep2', opts());
    expect(r.kind).toBe('refused');
    expect(r.exitCode).toBe(REFUSED_EXIT);
    expect(r.text).toMatch(/recursive delete of \/, the home directory/);
    expect(r.text).toMatch(/refused: policy says ask \(rule rm-recursive-root-or-home\); there is no terminal to ask/);
    expect(existsSync(path.join(dir, 'keep2'))).toBe(false);
    sb.assertCanariesIntact();
    const m = await route('git push --force', opts({ mode: 'mcp', output: 'json' }));
    expect(JSON.parse(m.text)).toMatchObject({ refused: 'dangerous', policy: { decision: 'ask', rule: 'git-push-force' }, dangers: [{ id: 'git-push-force', decision: 'ask' }] });
  });

  it('asks: no, edit, always this session', async () => {
    writeFileSync(path.join(dir, 'v.txt'), 'v');
    const answers: DangerDecision[] = [{ kind: 'no' }];
    let asked = 0;
    const confirm = async () => {
      asked++;
      return answers.shift()!;
    };
    const no = await route('rm -rf * ', opts({ confirm, cwd: path.join(dir, 'backup') }));
    expect(no.kind).toBe('refused');
    expect(existsSync(path.join(dir, 'backup/file'))).toBe(true);
    answers.push({ kind: 'edit', command: 'rm -rf backup' });
    const edited = ran(await route('rm -rf *', opts({ confirm })));
    expect(edited.text).toContain('→ rm: 1 file (4.2KB), 1 dir');
    const approvals = new SessionApprovals();
    answers.push({ kind: 'always' });
    const repo = path.join(dir, 'repo-st');
    expect(asked).toBe(2);
    ran(await route('git reset --hard', opts({ confirm, approvals, cwd: repo })));
    expect(asked).toBe(3);
    // Second time: no question asked, the session's approval covers it.
    const again = ran(await route('git reset --hard HEAD', opts({ confirm, approvals, cwd: repo })));
    expect(asked).toBe(3);
    expect(again.approved.map((d) => d.id)).toEqual(['git-reset-hard']);
    // A new session (fresh approvals) asks again.
    answers.push({ kind: 'no' });
    expect((await route('git reset --hard HEAD', opts({ confirm, approvals: new SessionApprovals(), cwd: repo }))).kind).toBe('refused');
    expect(asked).toBe(4);
  });
});

describe('bad input and output modes', () => {
  it('a line that does not parse names the position and runs nothing', async () => {
    const r = await route('touch made && echo "unterminated', opts());
    expect(r.kind).toBe('parse-error');
    expect(r.exitCode).toBe(2);
    expect(r.text).toBe('mish: syntax error at line 1, column 20: unterminated double quote\ntouch made && echo "unterminated\n                   ^\nnothing was run\n');
    expect(existsSync(path.join(dir, 'made'))).toBe(false);
  });

  it('command not found suggests similar names; json and context modes', async () => {
    const r = ran(await route('gti status', opts()));
    expect(r.exitCode).toBe(127);
    expect(r.text).toMatch(/hint: gti: command not found; similar on PATH: .*git/);
    const j = ran(await route('cat a.txt', opts({ output: 'json' })));
    expect(JSON.parse(j.text)).toMatchObject({ command: 'cat a.txt', category: 'passthrough', exitCode: 0, lines: 4 });
    const c = ran(await route('cat a.txt', opts({ output: 'context' })));
    // Context (an agent's text): no ⏎ note, no colour.
    expect(c.text).toMatch(/no newline at end\n\[exit 0\]\n$/);
  });
});

describe("a grammar's presentation_env (tsc: NO_COLOR turns its pretty format off)", () => {
  /** A `tsc` on PATH that prints what it was given: the line is detected as tsc by its name. */
  const bin = path.join(dir, 'fake-bin');
  mkdirSync(bin, { recursive: true });
  writeFileSync(path.join(bin, 'tsc'), '#!/bin/sh\necho "NO_COLOR=[${NO_COLOR-unset}]"\n');
  chmodSync(path.join(bin, 'tsc'), 0o755);
  const withBin = (extra: Record<string, string> = {}) => opts({ env: { PATH: `${bin}:${process.env.PATH}`, ...extra } });

  it('is set when every command of the line is that tool', async () => {
    expect(ran(await route('tsc -p .', withBin())).text).toContain('NO_COLOR=[1]');
    expect(ran(await route('tsc -p a && tsc -p b', withBin())).text).toMatch(/NO_COLOR=\[1\][^]*NO_COLOR=\[1\]/);
  });

  it('is not set for a line mixing tools, and the caller’s own value wins', async () => {
    expect(ran(await route('tsc -p . && echo done', withBin())).text).toContain('NO_COLOR=[unset]');
    expect(ran(await route('tsc -p .', withBin({ NO_COLOR: '' }))).text).toContain('NO_COLOR=[]');
  });
});

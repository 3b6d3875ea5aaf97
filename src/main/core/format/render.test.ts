/**
 * The three output modes — human, json, context — for every handler and for refusals and
 * syntax errors, on real commands. human and context: the body, then one status line
 * (`[exit 2 · mish raw …]`), colour only for human; json: one object per run.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecControl } from '../exec/types.js';
import type { TerminalPort } from '../handlers/types.js';
import { route } from '../router/route.js';
import { gitEnv, gitRepo, sandbox } from '../router/test-kit.js';
import type { RunFacts } from '../handlers/types.js';
import type { HazardReport, SquashResult } from '../squasher/types.js';
import { hazardMark } from '../squasher/render.js';
import { render, statusLine, statusParts, type OutputMode, type RenderInput } from './render.js';

const sb = sandbox('render');
const dir = sb.dir;
let repo: string;

beforeAll(() => {
  writeFileSync(path.join(dir, 'notes.txt'), 'alpha\nbeta\n');
  repo = gitRepo(path.join(dir, 'repo'), { f: '1' }, 'one');
  writeFileSync(path.join(repo, 'f'), '2');
});
afterAll(() => sb.cleanup());

const SGR = /\x1b\[/;
const modes: OutputMode[] = ['human', 'context', 'json'];
const run = (line: string, output: OutputMode, extra = {}) => sb.run(line, { output, env: gitEnv, ...extra });

describe.each(modes)('%s mode', (output) => {
  const json = output === 'json';
  const ctx = output === 'context';

  it('condense', async () => {
    const r = await run("sh -c 'echo building; echo \"main.c:3:5: error: boom\" >&2; exit 2'", output, { color: true });
    if (json) {
      const j = JSON.parse(r.text);
      expect(j).toMatchObject({ category: 'condense', exitCode: 2, spool: expect.stringMatching(/^mish raw \w+$/) });
      expect(j.summary.hazards[0]).toMatchObject({ severity: 'error', text: 'main.c:3:5: error: boom' });
      return;
    }
    const plain = r.text.replace(/\x1b\[[0-9;]*m/g, '');
    // Two lines, shown whole: no line count and no raw reference (nothing is hidden), no indent.
    expect(plain).toBe('building\nmain.c:3:5: error: boom\n[exit 2]\n');
    // Colour only for a human who asked for it.
    expect(SGR.test(r.text)).toBe(!ctx);
  });

  it('passthrough', async () => {
    const ok = await run('cat notes.txt', output);
    const bad = await run('cat nope.txt', output);
    if (json) {
      expect(JSON.parse(ok.text)).toMatchObject({ category: 'passthrough', exitCode: 0, output: 'alpha\nbeta\n', lines: 2, bytes: 11 });
      expect(JSON.parse(bad.text)).toMatchObject({ exitCode: 1, output: 'cat: nope.txt: No such file or directory\n', hints: [expect.stringMatching(/^hint: nope.txt does not exist/)] });
      return;
    }
    expect(ok.text).toBe('alpha\nbeta\n[exit 0]\n');
    const [hint] = bad.facts.enrichment;
    expect(hint).toMatch(/^hint: nope.txt does not exist; nearest existing: \.\/ \(\d entries: .*notes\.txt/);
    expect(bad.text).toBe(`cat: nope.txt: No such file or directory\n${hint}\n[exit 1]\n`);
  });

  it('narrate', async () => {
    const ok = await run('cp notes.txt copy.txt', output);
    const bad = await run('cp missing.txt copy.txt', output);
    if (json) {
      expect(JSON.parse(ok.text)).toMatchObject({ category: 'narrate', exitCode: 0, effects: ['→ cp: notes.txt → copy.txt (11B)'], output: '' });
      expect(JSON.parse(bad.text)).toMatchObject({ exitCode: 1, effects: ['✗ cp: missing.txt → copy.txt (nothing written)'], output: "cp: cannot stat 'missing.txt': No such file or directory\n", hints: [expect.any(String)] });
      return;
    }
    expect(ok.text).toBe('→ cp: notes.txt → copy.txt (11B)\n[exit 0]\n');
    expect(bad.text).toMatch(/^cp: cannot stat 'missing.txt': No such file or directory\n✗ cp: missing.txt → copy.txt \(nothing written\)\nhint: missing.txt does not exist; [^\n]+\n\[exit 1\]\n$/);
  });

  it('structured', async () => {
    const ok = await run('git status', output, { cwd: repo });
    const asWritten = await run('git status -s', output, { cwd: repo });
    if (json) {
      expect(JSON.parse(ok.text)).toMatchObject({ category: 'structured', kind: 'git-status', ran: "git status '--porcelain=v1' '--branch'", lines: ['branch main · 1 modified', 'modified:  M f'] });
      expect(JSON.parse(asWritten.text)).toMatchObject({ kind: 'as-written', output: ' M f\n' });
      return;
    }
    expect(ok.text).toBe('branch main · 1 modified\nmodified:  M f\n[exit 0]\n');
    expect(asWritten.text).toBe(' M f\n[exit 0]\n');
  });

  it('interactive (CLI terminal)', async () => {
    let control: ExecControl | undefined;
    const screen: Buffer[] = [];
    const terminal: TerminalPort = {
      size: () => ({ cols: 80, rows: 24 }),
      attach: (c) => {
        control = c;
        return () => {};
      },
      write: (b) => {
        screen.push(Buffer.from(b));
        if (control && Buffer.concat(screen).includes('>>> ')) {
          control.write('print(6*7)\rexit()\r');
          control = undefined;
        }
      },
    };
    const r = await run('python3 -q', output, { terminal });
    expect(Buffer.concat(screen).toString()).toContain('42');
    if (json) expect(JSON.parse(r.text)).toMatchObject({ category: 'interactive', exitCode: 0, summary: expect.stringMatching(/^→ python3: interactive session [\d.]+s, exit 0$/) });
    else expect(r.text).toMatch(/^→ python3: interactive session [\d.]+s, exit 0\n$/);
  });

  it('refusals and syntax errors', async () => {
    const danger = await route('rm -rf ~', sb.opts({ output }));
    const inter = await route('vim notes.txt', sb.opts({ output, mode: 'mcp' }));
    const syntax = await route('cat notes.txt | | wc', sb.opts({ output }));
    sb.assertCanariesIntact();
    if (json) {
      expect(JSON.parse(danger.text)).toMatchObject({ refused: 'dangerous', exitCode: 126, dangers: [{ id: 'rm-recursive-root-or-home', command: 'rm -rf ~' }] });
      expect(JSON.parse(inter.text)).toMatchObject({ refused: 'interactive', exitCode: 126, advice: expect.stringContaining('sed -i') });
      expect(JSON.parse(syntax.text)).toMatchObject({ error: 'parse', exitCode: 2, line: 1, column: 17 });
      return;
    }
    expect(danger.text).toMatch(/^⚠ dangerous: rm -rf ~\n {2}- recursive delete of .*\nrefused: policy says ask \(rule rm-recursive-root-or-home\); there is no terminal to ask for confirmation\n$/);
    expect(inter.text).toBe('refused: vim is interactive and cannot run over MCP\ninstead: edit files non-interactively (sed -i, a heredoc `cat > file <<EOF`, or your own file-edit tool)\n');
    expect(syntax.text).toMatch(/^mish: syntax error at line 1, column 17: .*\ncat notes.txt \| \| wc\n {16}\^\nnothing was run\n$/);
  });
});

describe('default modes', () => {
  it('human for the CLI (colour when asked), context for MCP (never colour)', async () => {
    const cli = await route("sh -c 'echo x; exit 3'", sb.opts({ color: true }));
    const mcp = await route("sh -c 'echo x; exit 3'", sb.opts({ mode: 'mcp', color: true }));
    expect(cli.text).toMatch(/\x1b\[31mexit 3/);
    expect(mcp.text).toBe('x\n[exit 3]\n');
    expect(execFileSync('cat', [path.join(dir, 'notes.txt')], { encoding: 'utf8' })).toBe('alpha\nbeta\n');
  });
});

describe('the status line', () => {
  const input = (squashLines: number, verbatim: boolean, durationMs: number, extra: Partial<RunFacts> = {}): RenderInput => ({
    command: 'x',
    report: { category: 'condense', squash: { totalLines: squashLines, bytes: 0, exitCode: 1, durationMs, outcomes: [], outcomesOmitted: 0, hazards: [], hazardsOmitted: { errors: 0, warnings: 0 }, groups: [], body: [{ type: 'line', text: 'a', no: 1 }], counts: { hazard: 0, outcome: 0, noise: 0, prompt: 0, unknown: 1 }, verbatim } },
    facts: { exitCode: 1, durationMs, spoolRef: 'mish raw ab12', enrichment: [], ...extra },
  });

  it('names the line count and the raw output only when the text is not the output whole, the duration from 1 s on (not for a failure shown whole)', () => {
    expect(render(input(1, true, 999), 'context')).toBe('a\n[exit 1]\n');
    // Issue 23 pt 4: a failure shown whole is its output and its exit, nothing more.
    expect(render(input(1, true, 4_400), 'context')).toBe('a\n[exit 1]\n');
    expect(render(input(3_013, false, 125_000), 'context')).toBe('a\n[exit 1 · 2m05s · 3,013 lines · mish raw ab12]\n');
  });

  it('a failure shown in order less its noise names the raw output only: no duration, no line count (issue 23 pt 4)', () => {
    const folded = (exitCode: number): RenderInput => {
      const i = input(3, true, 4_400, { exitCode });
      return { ...i, report: { category: 'condense', squash: { ...(i.report as { squash: SquashResult }).squash, exitCode, folded: 2 } } };
    };
    expect(render(folded(1), 'context')).toBe('a\n[exit 1 · mish raw ab12]\n');
    // A success keeps them (it is not what the budget is about), and so does a failure condensed out of order.
    expect(render(folded(0), 'context')).toBe('a\n[exit 0 · 4s · 3 lines · mish raw ab12]\n');
    expect(statusLine(statusParts({ exitCode: 1, durationMs: 4_400 }, { hidden: true, totalLines: 3 }, 'read_raw c3'))).toBe('[exit 1 · 4s · 3 lines · read_raw c3]');
    expect(statusLine(statusParts({ exitCode: 1, durationMs: 4_400 }, { hidden: true, totalLines: 3, inOrder: true }, 'read_raw c3'))).toBe('[exit 1 · read_raw c3]');
  });

  it('names the signal that ended the run', () => {
    expect(render(input(1, true, 0, { exitCode: 137, signal: 9 }), 'context')).toBe('a\n[exit 137 SIGKILL]\n');
  });

  it('a host names the raw output its own way, once', () => {
    const parts = statusParts({ exitCode: 0, durationMs: 0 }, { hidden: true, totalLines: 40, rawNamed: true }, 'read_raw c3');
    expect(statusLine(parts)).toBe('[exit 0 · 40 lines]');
    expect(statusLine(statusParts({ exitCode: 0, durationMs: 0 }, { hidden: true, totalLines: 40 }, 'read_raw c3', ['cwd /w']))).toBe('[exit 0 · 40 lines · read_raw c3 · cwd /w]');
  });
});

describe('hazard markers', () => {
  const squash = (hazards: HazardReport[]): RenderInput => ({
    command: 'x',
    report: { category: 'condense', squash: { totalLines: 40, bytes: 0, exitCode: 1, durationMs: 0, outcomes: [], outcomesOmitted: 0, hazards, hazardsOmitted: { errors: 0, warnings: 0 }, groups: [], body: [], counts: { hazard: hazards.length, outcome: 0, noise: 0, prompt: 0, unknown: 0 }, verbatim: false } },
    facts: { exitCode: 1, durationMs: 0, enrichment: [] },
  });
  const h = (lineNo: number, text: string, context: string[] = [], severity: 'error' | 'warning' = 'error'): HazardReport => ({ severity, text, context, lineNo, rule: 'r' });

  it('one marker per block of adjacent hazard lines, none where the line names its severity', () => {
    const text = render(squash([h(3, 'boom', ['    at f (a.js:1:1)']), h(5, 'Caused by: x'), h(9, 'npm error code E404'), h(10, 'npm error 404 Not Found'), h(12, 'deprecated API', [], 'warning')]), 'context');
    expect(text).toBe('✗ boom\n    at f (a.js:1:1)\nCaused by: x\nnpm error code E404\nnpm error 404 Not Found\n⚠ deprecated API\n[exit 1 · 40 lines]\n');
  });

  it('no marker where the line names an error class or starts with its tool\'s own failure mark; a marker where it does not', () => {
    const says = ['TypeError: boom', 'tests/test_bugs.py:23: KeyError', 'InvalidArgumentException: out of range', '  ● cart › applies a discount', '  ✖ applies a discount (1.1ms)', '✗ cart > totals [0.6ms]', 'not ok 2 - inventory', 'E       assert 2 == 5', '  1) Cart totals in cents', '_________ test_total _________', "thread 'main' panicked at src/lib.rs:3:5", '-- Configuring incomplete, errors occurred!'];
    for (const line of says) expect(hazardMark({ severity: 'error', text: line }), line).toBe('');
    expect(hazardMark({ severity: 'warning', text: '  tests/a.py:18: DeprecationWarning: soon' })).toBe('');
    // the same words inside other words, or a list item not at the start, say nothing
    const silent = ['terror strikes', 'see item 1) below', 'Expected: 180', 'Ending E  x', 'mirrors'];
    for (const line of silent) expect(hazardMark({ severity: 'error', text: line }), line).toBe('✗ ');
    expect(hazardMark({ severity: 'warning', text: 'deprecated API' })).toBe('⚠ ');
  });
});

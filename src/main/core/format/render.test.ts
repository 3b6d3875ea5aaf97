/**
 * The three output modes — human, json, context — for every handler and for refusals and
 * syntax errors, on real commands. human: footers with `──`, `✗` lines; context: bracketed
 * metadata, no decoration or colour, the raw reference on failure; json: one object per run.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExecControl } from '../exec/types.js';
import type { TerminalPort } from '../handlers/types.js';
import { route } from '../router/route.js';
import { gitEnv, gitRepo, sandbox } from '../router/test-kit.js';
import type { OutputMode } from './render.js';

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
    expect(plain).toMatch(/^2 lines → exit 2 \([\d.]+s\)\n/);
    expect(plain).toContain('main.c:3:5: error: boom');
    expect(plain).toMatch(/raw: mish raw \w+\n$/);
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
    expect(ok.text).toBe(ctx ? 'alpha\nbeta\n[2 lines, 11B, exit 0]\n' : 'alpha\nbeta\n── 2 lines, 11B, exit 0\n');
    const [hint] = bad.facts.enrichment;
    expect(hint).toMatch(/^hint: nope.txt does not exist; nearest existing: \.\/ \(\d entries: .*notes\.txt/);
    expect(bad.text).toBe(
      ctx
        ? `cat: nope.txt: No such file or directory\n[1 line, 41B, exit 1]\n${hint}\n[raw: ${bad.facts.spoolRef}]\n`
        : `cat: nope.txt: No such file or directory\n── 1 line, 41B, exit 1\n${hint}\n`,
    );
  });

  it('narrate', async () => {
    const ok = await run('cp notes.txt copy.txt', output);
    const bad = await run('cp missing.txt copy.txt', output);
    if (json) {
      expect(JSON.parse(ok.text)).toMatchObject({ category: 'narrate', exitCode: 0, effects: ['→ cp: notes.txt → copy.txt (11B)'], output: '' });
      expect(JSON.parse(bad.text)).toMatchObject({ exitCode: 1, effects: ['✗ cp: missing.txt → copy.txt (nothing written)'], output: "cp: cannot stat 'missing.txt': No such file or directory\n", hints: [expect.any(String)] });
      return;
    }
    expect(ok.text).toBe('→ cp: notes.txt → copy.txt (11B)\n');
    expect(bad.text).toMatch(
      new RegExp(`^cp: cannot stat 'missing.txt': No such file or directory\\n✗ cp: missing.txt → copy.txt \\(nothing written\\)\\n${ctx ? '\\[exit 1\\]' : '✗ exit 1'}\\nhint: missing.txt does not exist; [^\\n]+\\n${ctx ? '\\[raw: mish raw \\w+\\]\\n' : ''}$`),
    );
  });

  it('structured', async () => {
    const ok = await run('git status', output, { cwd: repo });
    const asWritten = await run('git status -s', output, { cwd: repo });
    if (json) {
      expect(JSON.parse(ok.text)).toMatchObject({ category: 'structured', kind: 'git-status', ran: "git status '--porcelain=v1' '--branch'", lines: ['branch main · 1 modified', 'modified:  M f'] });
      expect(JSON.parse(asWritten.text)).toMatchObject({ kind: 'as-written', output: ' M f\n' });
      return;
    }
    expect(ok.text).toBe('branch main · 1 modified\nmodified:  M f\n');
    expect(asWritten.text).toBe(ctx ? ' M f\n[exit 0]\n' : ' M f\n── exit 0\n');
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
  it('human for the CLI, context for MCP', async () => {
    const cli = await route('cat notes.txt', sb.opts());
    const mcp = await route('cat notes.txt', sb.opts({ mode: 'mcp' }));
    expect(cli.text).toContain('── 2 lines, 11B, exit 0');
    expect(mcp.text).toContain('[2 lines, 11B, exit 0]');
    expect(execFileSync('cat', [path.join(dir, 'notes.txt')], { encoding: 'utf8' })).toBe('alpha\nbeta\n');
  });
});

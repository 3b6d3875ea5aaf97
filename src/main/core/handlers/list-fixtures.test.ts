/**
 * The list views on recorded real output (fixtures/structured/ls-*, du-*: `ls` and `du` run in a
 * real PTY by fixtures/record.ts), checked against the same command through a plain pipe (the
 * `.piped` recording: one name a line, no quoting, no columns): every name, size and field comes
 * back exactly, in the program's order.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expandBlocks, compactBlocks, expandPaths, type NameBlock } from '../compact/path-list.js';
import { loadRouterMeta } from '../router/meta.js';
import { parseCommandLine } from '../router/parse.js';
import { planLine } from '../router/plan.js';
import { compactLong, estimateTokens, expandDu, expandLong, LIST_VIEW_MAX_SHARE, listViewOf, parseLong, parseLsColumns } from './list-view.js';
import { fromTerminal, stripEscapes } from './run.js';

const DIR = path.resolve(__dirname, '../../../../fixtures/structured');
const meta = loadRouterMeta();
if (!meta.ok) throw new Error(meta.error.message);

/** A recording: the text a handler sees (PTY newlines undone, escapes removed), its pipe twin, and the command's segments. */
function fixture(name: string) {
  const m = JSON.parse(readFileSync(path.join(DIR, `${name}.json`), 'utf8')) as { argv: string[] };
  const command = m.argv[0] === 'sh' ? m.argv[2] : m.argv.join(' ');
  const parsed = parseCommandLine(command);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const plan = planLine(parsed.line, meta.ok ? meta.meta : (undefined as never));
  return {
    command,
    text: stripEscapes(fromTerminal(readFileSync(path.join(DIR, `${name}.raw`), 'utf8'))),
    piped: readFileSync(path.join(DIR, `${name}.piped`), 'utf8'),
    segments: plan.segments,
  };
}

const lines = (s: string) => s.replace(/\n$/, '').split('\n');

/** `ls -R` through a pipe: blocks of one name a line under `dir:` headings. */
function pipedBlocks(piped: string): NameBlock[] {
  return piped
    .replace(/\n$/, '')
    .split('\n\n')
    .map((chunk) => {
      const [head, ...names] = chunk.split('\n');
      return { dir: head.slice(0, -1), names };
    });
}

describe('list views on recorded ls and du output', () => {
  it('ls in columns: read column by column, every name exactly (quoting undone); shown as a path list, much shorter', () => {
    const f = fixture('ls-columns');
    const blocks = parseLsColumns(f.text)!;
    expect(blocks).toHaveLength(1);
    expect(blocks[0].names).toEqual(lines(f.piped));
    expect(blocks[0].names).toContain('notes on runs.txt');
    const view = listViewOf(f.segments, f.text)!;
    expect(view.kind).toBe('paths');
    expect(expandPaths(view.output.replace(/\n$/, ''))).toEqual(lines(f.piped));
    expect(estimateTokens(view.output)).toBeLessThan(estimateTokens(f.text) * 0.5);
  });

  it('ls -R: every block and name exactly; shown as printed, since compacting it would save under 20%', () => {
    const f = fixture('ls-recursive');
    const blocks = parseLsColumns(f.text)!;
    expect(blocks).toEqual(pipedBlocks(f.piped));
    expect(expandBlocks(compactBlocks(blocks))).toEqual(blocks);
    expect(estimateTokens(compactBlocks(blocks))).toBeGreaterThan(estimateTokens(f.text) * LIST_VIEW_MAX_SHARE * 0.9);
    expect(listViewOf(f.segments, f.text)).toBeUndefined();
  });

  it('ls -la: every field of every row exactly (mode, links, owner, group, size, date, name), grouped by what rows share', () => {
    const f = fixture('ls-long');
    const want = parseLong(f.piped)!;
    expect(want.rows).toHaveLength(lines(f.piped).length - 1);
    expect(parseLong(f.text)).toEqual(want);
    const view = listViewOf(f.segments, f.text)!;
    const [legend, ...rest] = lines(view.output);
    expect(legend).toMatch(/^\[mish: ls -l, all 146 entries in ls's order/);
    const totals = rest.filter((l) => l.startsWith('total '));
    expect(totals).toEqual(want.totals);
    expect(expandLong(rest.slice(totals.length).join('\n'), legend.includes(' date:'))).toEqual(want.rows);
    expect(estimateTokens(view.output)).toBeLessThan(estimateTokens(f.text) * 0.5);
  });

  it('du -a: every size and path exactly, in du\'s order, as path=size in the path notation', () => {
    const f = fixture('du-all');
    const view = listViewOf(f.segments, f.text)!;
    const [legend, ...rest] = lines(view.output);
    expect(legend).toMatch(/^\[mish: du, all 271 lines in order/);
    expect(expandDu(expandPaths(rest.join('\n')))).toEqual(lines(f.piped));
    expect(estimateTokens(view.output)).toBeLessThan(estimateTokens(f.text) * 0.7);
  });

  it('du -h of directories only and du -sh *: small, shown as printed', () => {
    for (const name of ['du-human', 'du-sh-star']) {
      const f = fixture(name);
      expect(listViewOf(f.segments, f.text), name).toBeUndefined();
    }
  });

  it('ls -l rows read back exactly from their grouped form, whatever the names (spaces, colons, arrows, digits)', () => {
    const row = fc.record({
      head: fc.constantFrom('-rw-r--r-- 1 root root', 'drwxr-xr-x 12 me staff', 'lrwxrwxrwx 1 0 0', '-rwxr-xr-x. 2 a-user users'),
      size: fc.constantFrom('0', '4096', '4.0K', '8, 1', '123456789'),
      date: fc.constantFrom('Nov 26 21:06', 'Jan 3 2025', 'Feb 29 00:00'),
      name: fc.string({ unit: fc.constantFrom('a', 'b', ' ', ':', '1', '-', '>', '.', 'é'), minLength: 1, maxLength: 10 }).filter((n) => !n.startsWith(' ')),
    });
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 30 }), fc.boolean(), (rows, byDate) => {
        expect(expandLong(compactLong(rows, byDate), byDate)).toEqual(rows);
      }),
      { numRuns: 2000 },
    );
  });

  it('a listing printed some other way is not parsed as columns or rows', () => {
    expect(parseLsColumns('a  b\nc  d  e\n')).toBeUndefined();
    expect(parseLsColumns("a  'b\n")).toBeUndefined();
    expect(parseLong('total 4\nnot a row\n')).toBeUndefined();
  });
});

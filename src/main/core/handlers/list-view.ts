/**
 * Listings shown compacted without loss (issue 13 pt 4). Path lists (`find`, `fd`, `git
 * ls-files`, `rg --files`, `rg -l`, `grep -l`, `tar tf`, `ls -1`, and `ls` in columns read
 * column by column) in the compact path notation (compact/path-list.ts): most of their bytes
 * are repeated directory prefixes. `ls -R` as a line per directory, `ls -l` rows grouped by the
 * fields they share, `du` as `path=size` entries, `grep -rn` grouped by file. Each view is
 * complete (every line, exactly recoverable, in order) and says so; it is used only when it
 * saves a fifth (a token estimate, its explaining line counted), else the output is shown as
 * printed; when even the view is over the passthrough cap, the plain output is cut head + tail
 * as before (passthrough.ts).
 */
import { compactBlocks, compactPaths, PathListSyntaxError, type NameBlock } from '../compact/path-list.js';
import type { Segment } from '../router/categorize.js';
import { thousands } from '../format/thousands.js';

/** Below this many lines a listing is shown as printed (compacting a few paths saves little). */
export const LIST_VIEW_MIN_LINES = 20;
/** The compact form is used only if it is at most this share of the plain text (else it is not worth a new notation). */
export const LIST_VIEW_MAX_SHARE = 0.8;

/**
 * A rough token count (words, numbers, each punctuation mark, each run of white space): within
 * a few percent of o200k's ratios on listings, where characters overcount alignment padding.
 */
export function estimateTokens(s: string): number {
  return s.match(/[A-Za-z]+|[0-9]+|[^\sA-Za-z0-9]|\s+/g)?.length ?? 0;
}

/** Is the view (with the line explaining it) worth showing instead of the text? */
export const worth = (view: string, text: string) => estimateTokens(view) <= estimateTokens(text) * LIST_VIEW_MAX_SHARE;

/** Later pipeline segments that keep a path list a path list. */
const LIST_FILTERS = new Set(['sort', 'uniq', 'head', 'tail', 'grep', 'egrep', 'fgrep', 'rg']);

/** A short-flag cluster (`-rl`, `-tzf`) or a bare tar key (`tzf`) containing `ch`. */
function hasShort(args: readonly string[], ch: string, bareFirst = false): boolean {
  return args.some((a, i) => (/^-[A-Za-z0-9]+$/.test(a) && a.includes(ch)) || (bareFirst && i === 0 && /^[A-Za-z]+$/.test(a) && a.includes(ch)));
}

const has = (args: readonly string[], ...flags: string[]) => args.some((a) => flags.includes(a) || flags.some((f) => f.startsWith('--') && a.startsWith(`${f}=`)));

/** Does this command (one segment) print one path per line? */
function listsPaths(seg: Segment): boolean {
  const args = seg.command.argv.slice(1);
  switch (seg.name) {
    case 'find':
      // Actions that print something else than the path, or NUL-separated ones.
      return !has(args, '-printf', '-fprintf', '-ls', '-fls', '-exec', '-execdir', '-ok', '-okdir', '-print0', '-fprint', '-fprint0', '-delete');
    case 'fd':
    case 'fdfind':
      return !has(args, '-x', '--exec', '-X', '--exec-batch', '-0', '--print0', '-l', '--list-details');
    case 'git':
      if (seg.subcommand === 'ls-files') return !has(args, '-s', '--stage', '-z', '--debug', '-t', '-v', '--eol', '-f', '--format');
      return false;
    case 'rg':
      return has(args, '--files', '-l', '--files-with-matches', '--files-without-match') || hasShort(args, 'l');
    case 'grep':
    case 'egrep':
    case 'fgrep':
      return (has(args, '--files-with-matches', '--files-without-match') || hasShort(args, 'l') || hasShort(args, 'L')) && !has(args, '-Z', '--null', '-c', '--count');
    case 'tar':
      return (has(args, '--list') || hasShort(args, 't', true)) && !hasShort(args, 'v', true) && !has(args, '--verbose');
    case 'ls':
      // Only one name per line: on a terminal ls prints columns.
      return hasShort(args, '1') && !hasShort(args, 'l') && !hasShort(args, 'R') && !hasShort(args, 's') && !hasShort(args, 'i') && !hasShort(args, 'm') && !hasShort(args, 'x') && !hasShort(args, 'C');
    default:
      return false;
  }
}

/** Is this line's output a path list: a listing command, then only filters that keep lines as they are? */
export function isPathListing(segments: readonly Segment[]): boolean {
  const real = segments.filter((s) => s.name !== '');
  if (!real.length || !listsPaths(real[0])) return false;
  return real.slice(1).every((s) => LIST_FILTERS.has(s.name) && !hasShort(s.command.argv.slice(1), 'c') && !has(s.command.argv.slice(1), '--count'));
}

/**
 * The line shown before a compacted path list: it says the list is complete (every path, in the
 * program's order) and how to read the notation (compact/path-list.ts). The bench counts it.
 */
export function pathListLegend(entries: number, compact: string): string {
  return `[mish: all ${thousands(entries)} paths in order; ${pathNotation(compact)}]`;
}

/**
 * How to read the compact path notation, in one line: only the forms `compact` uses (the whole
 * explanation is ~60 tokens, more than a short list saves; a listing of one directory's files
 * needs only `"d/: a b"` and braces).
 */
export function pathNotation(compact: string): string {
  const bare = compact.replace(/\\[\s\S]/g, ''); // an escaped character is part of a name, not notation
  const parts: string[] = [];
  // A line whose first word ends with `:` (`:/`) but not `/:` names its directory itself first and lists
  // its tree in find's (tar's) order: a path's directories below d not yet on the line come before it.
  const tree = /^\S*[^/\s]:(?: |$)/m.test(bare);
  const tarTree = /^\S*[^/\s]:\/(?: |$)/m.test(bare);
  const below = /\/:(?: |$)/m.test(bare);
  if (tree) parts.push('"d: a/b a/c" = d d/a d/a/b d/a/c');
  if (tarTree) parts.push('"d:/ a/b a/c" = d/ d/a/ d/a/b d/a/c');
  // `.` first on a `d/:` line is d itself (`./`: d/, as tar prints it).
  if (/\/: \.\/?(?: |$)/m.test(bare)) parts.push('"d/: . a b" = d d/a d/b');
  else if (below) parts.push(tree || tarTree ? '"d/: a" = d/a' : '"d/: a b" = d/a d/b');
  if (bare.includes('{')) parts.push('bash braces');
  if (bare.length !== compact.length) parts.push('\\ escapes');
  return parts.length ? parts.join('; ') : 'names separated by spaces';
}

export interface ListView {
  /** The compact notation, a newline after its last line. */
  output: string;
  entries: number;
  /**
   * `paths` (the host prints pathListLegend above it) or `matches`; absent for a view whose
   * output says itself how to read it (ls -R, du: its first line).
   */
  kind?: 'paths' | 'matches';
}

/**
 * The compact view of a successful listing's output, or undefined to show it as printed:
 * path lists, `grep -rn` matches, `ls` in columns or blocks (`-R`, several directories), `du`.
 */
export function listViewOf(segments: readonly Segment[], text: string): ListView | undefined {
  if (isPathListing(segments)) {
    const v = pathListView(text);
    return v && { ...v, kind: 'paths' };
  }
  if (isMatchListing(segments)) {
    const v = matchListView(text);
    return v && { ...v, kind: 'matches' };
  }
  const real = segments.filter((s) => s.name !== '');
  if (real.length !== 1) return undefined;
  const args = real[0].command.argv.slice(1);
  if (real[0].name === 'ls' && printsNameColumns(args)) return lsView(text);
  if (real[0].name === 'ls' && printsLongRows(args)) return lsLongView(text);
  if (real[0].name === 'du' && !has(args, '-0', '--null', '--time', '--inodes') && !hasShort(args, '0')) return duView(text);
  return undefined;
}

/** Does this `ls` print names only (in columns on a terminal, blocks for -R or several directories)? */
function printsNameColumns(args: readonly string[]): boolean {
  // Long formats, sizes or inode numbers before names, commas, row-major order, or a chosen format: shown as printed.
  const other = ['l', 'g', 'o', 'n', 's', 'i', 'm', 'x', 'Z'].some((c) => hasShort(args, c));
  return !other && !has(args, '--format', '--size', '--inode', '--context', '--zero', '--long', '--full-time', '--author');
}

/** Does this `ls` print the long format (-l, -la, -lh, -n), with nothing before the mode? */
function printsLongRows(args: readonly string[]): boolean {
  const long = ['l', 'g', 'o', 'n'].some((c) => hasShort(args, c)) || has(args, '--format=long', '--format=verbose');
  return long && !['s', 'i', 'm', 'x', 'C', 'Z', 'R'].some((c) => hasShort(args, c)) && !has(args, '--size', '--inode', '--context', '--zero', '--recursive', '--full-time', '--time-style', '--author');
}

/** One row of `ls -l`: the fields as printed (alignment padding not kept). */
export interface LongRow {
  /** mode, links, owner, group as printed (`-rw-r--r-- 1 root root`; fewer with -g / -o). */
  head: string;
  /** The size (`4096`, `4.0K`, `8, 1` for a device). */
  size: string;
  /** The date as printed, its padding collapsed (`Nov 26 21:06`, `Jan 3 2025`). */
  date: string;
  /** The name (`a -> b` for a link); a simple `'…'` quoting undone. */
  name: string;
}

/** A long-format row: mode, links, owner/group words, size (or `major, minor`), a three-part date, the name. */
const LONG_ROW = /^([-bcdlpsw?D][-rwxsStTl]{9}[.+@]?) +(\d+) +((?:\S+ +){0,2}?)(\d+, +\d+|[\d.,]+[KMGTPEZY]?i?B?) +(\S+ +\d{1,2} +(?:\d{1,2}:\d{2}|\d{4})) (.*)$/;

/** `ls -l` output: its `total` lines and rows, or undefined when a line has another shape. */
export function parseLong(text: string): { totals: string[]; rows: LongRow[] } | undefined {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  const totals: string[] = [];
  const rows: LongRow[] = [];
  for (const line of body.split('\n')) {
    if (/^total \S+$/.test(line)) {
      if (rows.length) return undefined;
      totals.push(line);
      continue;
    }
    const m = LONG_ROW.exec(line);
    if (!m) return undefined;
    // ls puts a space before names when some other name is quoted, to line them up.
    let name = m[6].startsWith(' ') ? m[6].slice(1) : m[6];
    if (/^'[^'\\]*'( -> .*)?$/.test(name)) name = name.replace(/^'([^']*)'/, '$1');
    if (name === '' || name.startsWith(' ')) return undefined;
    rows.push({ head: `${m[1]} ${m[2]}${m[3] ? ' ' + m[3].trim().replace(/ +/g, ' ') : ''}`, size: m[4].replace(/ +/g, ' '), date: m[5].replace(/ +/g, ' '), name });
  }
  return rows.length ? { totals, rows } : undefined;
}

/**
 * `ls -l` rows grouped: consecutive rows with the same mode, links, owner, group (and date, when
 * that makes fewer groups) under one `…:` line, each row then `size name` (`size date name`).
 */
export function compactLong(rows: readonly LongRow[], byDate: boolean): string {
  const out: string[] = [];
  for (let i = 0; i < rows.length; ) {
    const key = byDate ? `${rows[i].head} ${rows[i].date}` : rows[i].head;
    let j = i + 1;
    while (j < rows.length && (byDate ? `${rows[j].head} ${rows[j].date}` : rows[j].head) === key) j++;
    const cells = rows.slice(i, j).map((r) => (byDate ? `${r.size} ${r.name}` : `${r.size} ${r.date} ${r.name}`));
    if (cells.length === 1) out.push(`${key}: ${cells[0]}`);
    else out.push(`${key}:`, ...cells.map((c) => `  ${c}`));
    i = j;
  }
  return out.join('\n');
}

/** The rows compactLong stands for (the inverse, given how it grouped). */
export function expandLong(text: string, byDate: boolean): LongRow[] {
  const rows: LongRow[] = [];
  let key = '';
  const cell = (c: string) => {
    const m = byDate ? /^(\d+, \d+|\S+) (.*)$/.exec(c) : /^(\d+, \d+|\S+) (\S+ \d{1,2} \S+) (.*)$/.exec(c);
    if (!m) throw new PathListSyntaxError(`not an ls -l row: ${c}`);
    const head = byDate ? key.split(' ').slice(0, -3).join(' ') : key;
    const date = byDate ? key.split(' ').slice(-3).join(' ') : m[2];
    rows.push({ head, size: m[1], date, name: byDate ? m[2] : m[3] });
  };
  for (const l of text.split('\n')) {
    if (l.startsWith('  ')) cell(l.slice(2));
    else {
      const at = l.indexOf(': ', byDate ? Math.max(0, l.search(/\d{1,2}:\d{2}:|\d{4}:/)) : 0);
      if (l.endsWith(':') && (at < 0 || at === l.length - 1)) key = l.slice(0, -1);
      else {
        key = l.slice(0, at);
        cell(l.slice(at + 2));
      }
    }
  }
  return rows;
}

/** `ls -l` / `ls -la`: rows grouped by what they share, with a first line saying how to read them. */
function lsLongView(text: string): ListView | undefined {
  const parsed = parseLong(text);
  if (!parsed || parsed.rows.length < LIST_VIEW_MIN_LINES) return undefined;
  const { totals, rows } = parsed;
  const views = [true, false].map((byDate) => {
    // Shown only if it reads back to the same rows (an owner or a name the pattern misread would not).
    if (JSON.stringify(expandLong(compactLong(rows, byDate), byDate)) !== JSON.stringify(rows)) return undefined;
    const legend = `[mish: ls -l, all ${thousands(rows.length)} entries in ls's order, compacted: a "mode links owner group${byDate ? ' date' : ''}:" line heads the rows indented under it (or the one row after it), a row is "size${byDate ? '' : ' date'} name"; padding not kept]`;
    return `${legend}\n${totals.map((t) => t + '\n').join('')}${compactLong(rows, byDate)}\n`;
  });
  const [a, b] = views;
  const output = a && b ? (estimateTokens(a) <= estimateTokens(b) ? a : b) : (a ?? b);
  if (!output || !worth(output, text)) return undefined;
  return { output, entries: rows.length };
}

/** Expands tabs to spaces (ls aligns its columns with tabs, 8 columns apart). */
function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  for (const ch of line) out += ch === '\t' ? ' '.repeat(8 - (out.length % 8)) : ch;
  return out;
}

/**
 * `ls` output in columns, as blocks: names with no heading (file operands), then one block
 * per `dir:` heading (`-R`, several directories); each block's rows read column by column
 * (ls's order). Undefined unless every block has the shape ls gives it: every column's names
 * start at the same place in every row, and only the last column is short.
 */
export function parseLsColumns(text: string): NameBlock[] | undefined {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  if (body === '') return undefined;
  const chunks = body.split('\n\n');
  const blocks: NameBlock[] = [];
  for (let i = 0; i < chunks.length; i++) {
    const lines = chunks[i].split('\n');
    let dir: string | undefined;
    // A heading when there are several blocks: `dir:` (the first block may be file operands without one).
    if (chunks.length > 1 && lines[0].endsWith(':') && !/ {2}/.test(lines[0])) dir = lines.shift()!.slice(0, -1);
    else if (i > 0) return undefined;
    const names = lines.length === 0 ? [] : readColumns(lines.map(expandTabs));
    if (!names || (dir === undefined && names.length === 0)) return undefined;
    blocks.push(dir === undefined ? { names } : { dir, names });
  }
  return blocks;
}

/** The names of rows in columns, column by column; undefined when the rows are not ls's columns. */
function readColumns(rows: string[]): string[] | undefined {
  const cells = rows.map(splitRow);
  if (cells.some((r) => r === undefined || r.length === 0)) return undefined;
  const table = cells as { at: number; name: string }[][];
  const cols = table[0].length;
  // Full rows first, then rows one short (column-major fill leaves only the last column short).
  let full = 0;
  while (full < table.length && table[full].length === cols) full++;
  if (table.slice(full).some((r) => r.length !== cols - 1)) return undefined;
  for (let c = 0; c < cols; c++) {
    const starts = table.filter((r) => c < r.length).map((r) => r[c].at);
    // ls puts one space before a name that is not quoted when others are, to line them up.
    if (Math.max(...starts) - Math.min(...starts) > 1) return undefined;
  }
  const names: string[] = [];
  for (let c = 0; c < cols; c++) for (const r of table) if (c < r.length) names.push(r[c].name);
  return names;
}

/**
 * The cells of one row: names separated by two spaces or more (a name with spaces is quoted by
 * ls in a terminal: `'a  b'`). A simple `'…'` quoting is undone; other quoting stays as printed.
 */
function splitRow(row: string): { at: number; name: string }[] | undefined {
  const out: { at: number; name: string }[] = [];
  let i = 0;
  while (i < row.length) {
    while (i < row.length && row[i] === ' ') i++;
    if (i >= row.length) break;
    const at = i;
    let quoted = false;
    let j = i;
    for (; j < row.length; j++) {
      if (row[j] === "'") quoted = !quoted;
      else if (!quoted && row[j] === ' ' && (row[j + 1] === ' ' || j + 1 === row.length)) break;
    }
    if (quoted) return undefined;
    const cell = row.slice(at, j);
    out.push({ at, name: /^'[^'\\]*'$/.test(cell) ? cell.slice(1, -1) : cell });
    i = j;
  }
  return out;
}

/** `ls` in columns: one block as a path list; blocks (-R) a line per directory, with a first line saying how to read them. */
function lsView(text: string): ListView | undefined {
  const blocks = parseLsColumns(text);
  if (!blocks) return undefined;
  const entries = blocks.reduce((n, b) => n + b.names.length, 0);
  if (entries < LIST_VIEW_MIN_LINES) return undefined;
  if (blocks.length === 1 && blocks[0].dir === undefined) {
    if (blocks[0].names.some((n) => n.includes('/') && !n.endsWith('/'))) return undefined;
    const compact = compactPaths(blocks[0].names);
    if (!worth(`${pathListLegend(entries, compact)}\n${compact}`, text)) return undefined;
    return { output: compact + '\n', entries, kind: 'paths' };
  }
  const legend = `[mish: ls, all ${thousands(entries)} names in ${blocks.filter((b) => b.dir !== undefined).length} directories, in ls's order, compacted: one line per directory, "dir/: a b"; bash braces; \\ escapes]`;
  const output = `${legend}\n${compactBlocks(blocks)}\n`;
  if (!worth(output, text)) return undefined;
  return { output, entries };
}

/** `du` lines: size, a tab, the path. */
const DU_LINE = /^([^\t]+)\t(.+)$/;

/**
 * `du` (-a, -h, -s …): each `size<TAB>path` line becomes the entry `path=size` in the path
 * notation (the size after the last `=`), with a first line saying so; exact: expandDu gives
 * the lines back.
 */
function duView(text: string): ListView | undefined {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  const lines = body.split('\n');
  if (lines.length < LIST_VIEW_MIN_LINES) return undefined;
  const pseudo: string[] = [];
  for (const l of lines) {
    const m = DU_LINE.exec(l);
    if (!m || m[1].includes('=')) return undefined;
    pseudo.push(`${m[2]}=${m[1]}`);
  }
  const compact = compactPaths(pseudo);
  const legend = `[mish: du, all ${thousands(lines.length)} lines in order, compacted: path=size (the size after the last =), in the path notation: ${pathNotation(compact)}]`;
  const output = `${legend}\n${compact}\n`;
  if (!worth(output, body)) return undefined;
  return { output, entries: lines.length };
}

/** The `size<TAB>path` lines a du view stands for (its lines after the first). */
export function expandDu(paths: readonly string[]): string[] {
  return paths.map((p) => {
    const at = p.lastIndexOf('=');
    return `${p.slice(at + 1)}\t${p.slice(0, at)}`;
  });
}

/**
 * The compact view of a listing's output, or undefined when it should be shown as printed:
 * short, an empty line in it (not a path), or not much shorter.
 */
export function pathListView(text: string): ListView | undefined {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  const paths = body.split('\n');
  if (paths.length < LIST_VIEW_MIN_LINES || paths.some((p) => p === '')) return undefined;
  const compact = compactPaths(paths);
  if (!worth(`${pathListLegend(paths.length, compact)}\n${compact}`, body)) return undefined;
  return { output: compact + '\n', entries: paths.length };
}

/**
 * `grep -rn` / `grep -n a b`: every line is `path:line:text`. Grouped by file in ripgrep's
 * heading form: the path on a line of its own, then its matches as `12:text` (`path + ':' +
 * match` gives each line back). Only when every line has that shape (no context lines, no `--`)
 * and no path could read as a match line (`12:…`).
 */
export function isMatchListing(segments: readonly Segment[]): boolean {
  const real = segments.filter((s) => s.name !== '');
  if (real.length !== 1) return false;
  const seg = real[0];
  if (!['grep', 'egrep', 'fgrep'].includes(seg.name)) return false;
  const args = seg.command.argv.slice(1);
  const numbered = hasShort(args, 'n') || has(args, '--line-number');
  const recursive = hasShort(args, 'r') || hasShort(args, 'R') || has(args, '--recursive', '--dereference-recursive');
  const listing = hasShort(args, 'l') || hasShort(args, 'L') || hasShort(args, 'c') || hasShort(args, 'h') || has(args, '--files-with-matches', '--files-without-match', '--count', '--no-filename', '-Z', '--null');
  return numbered && recursive && !listing;
}

const MATCH_LINE = /^([^ ].*?):(\d+):/;

/** The grouped view of `path:line:text` lines, or undefined when a line has another shape or it saves little. */
export function matchListView(text: string): ListView | undefined {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  const lines = body.split('\n');
  if (lines.length < LIST_VIEW_MIN_LINES) return undefined;
  const out: string[] = [];
  let file: string | undefined;
  for (const l of lines) {
    const m = MATCH_LINE.exec(l);
    if (!m) return undefined;
    if (m[1] !== file) {
      file = m[1];
      // A heading that looks like a match line would be read back as one.
      if (MATCH_ROW.test(file)) return undefined;
      out.push(file);
    }
    out.push(l.slice(file.length + 1));
  }
  const grouped = out.join('\n');
  if (grouped.length > body.length * LIST_VIEW_MAX_SHARE) return undefined;
  return { output: grouped + '\n', entries: lines.length };
}

/** A match row under its heading: the line number, a colon. */
const MATCH_ROW = /^\d+:/;

/** The inverse of matchListView: the `path:line:text` lines. */
export function expandMatchList(grouped: string): string[] {
  const out: string[] = [];
  let file = '';
  for (const l of grouped.replace(/\n$/, '').split('\n')) {
    if (MATCH_ROW.test(l)) out.push(`${file}:${l}`);
    else file = l;
  }
  return out;
}

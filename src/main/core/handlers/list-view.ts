/**
 * Path listings (`find`, `fd`, `git ls-files`, `rg --files`, `rg -l`, `grep -l`, `tar tf`,
 * `ls -1`) shown in the lossless compact path notation (compact/path-list.ts) instead of line
 * by line: most of their bytes are repeated directory prefixes. The view is complete (every
 * path, exactly recoverable with expandPaths) and says so; when even the compact form is over
 * the passthrough cap, the plain output is cut head + tail as before (passthrough.ts).
 */
import { compactPaths } from '../compact/path-list.js';
import type { Segment } from '../router/categorize.js';

/** Below this many lines a listing is shown as printed (compacting a few paths saves little). */
export const LIST_VIEW_MIN_LINES = 20;
/** The compact form is used only if it is at most this share of the plain text (else it is not worth a new notation). */
export const LIST_VIEW_MAX_SHARE = 0.8;

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
export function pathListLegend(entries: number): string {
  return `[mish: all ${entries.toLocaleString('en-US')} paths in order, compacted: ${PATH_NOTATION}]`;
}

/** How to read the compact path notation, in one line (also under git status's long groups). */
export const PATH_NOTATION = '"d/: a b" = d/a d/b (an indented d/: is inside the line above naming d); n(a b) = n, n/a, n/b; x/* = the x/: line below; bash braces; \\ escapes';

export interface ListView {
  /** The compact notation, a newline after its last line. */
  output: string;
  entries: number;
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
  if (compact.length > body.length * LIST_VIEW_MAX_SHARE) return undefined;
  return { output: compact + '\n', entries: paths.length };
}

/**
 * `grep -rn` / `grep -n a b`: every line is `path:line:text`. Grouped by file, the path is
 * printed once and its matches under it, indented (`  12:text`): `path + ':' + match` gives
 * each line back. Only when every line has that shape (no context lines, no `--`) and no path
 * starts with a space.
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
      out.push(file);
    }
    out.push('  ' + l.slice(file.length + 1));
  }
  const grouped = out.join('\n');
  if (grouped.length > body.length * LIST_VIEW_MAX_SHARE) return undefined;
  return { output: grouped + '\n', entries: lines.length };
}

/** The inverse of matchListView: the `path:line:text` lines. */
export function expandMatchList(grouped: string): string[] {
  const out: string[] = [];
  let file = '';
  for (const l of grouped.replace(/\n$/, '').split('\n')) {
    if (l.startsWith('  ')) out.push(`${file}:${l.slice(2)}`);
    else file = l;
  }
  return out;
}

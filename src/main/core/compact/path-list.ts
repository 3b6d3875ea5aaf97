/**
 * Lossless compaction of path lists (issue 13 pt 4): `find`, `git ls-files`, `rg --files`,
 * `grep -l`, `tar tf` print mostly repeated directory prefixes. The compact view gives a
 * directory one line, `dir/:` and then its entries; `expandPaths` gives back exactly the input
 * list, in its order (duplicates and all). `git ls-files` and `find` look like this:
 *
 *     README.md src/* package.json
 *       src/: index.ts core/* {cli,mcp}.test.ts
 *         core/: squasher/* compact/path-list.{test.ts,ts}
 *           squasher/: {classifier,dedup}.ts line-buffer.ts
 *     fixtures/: projects
 *       projects/: c-project(src(util.c main.c) include(util.h)) go-app(go.mod)
 *
 * - A line starting with `dir/:` lists the entries of dir/, a path below the directory of the
 *   line that names it (top-level lines: from the root); a line without one lists top-level
 *   entries (the first line) or continues the line above (a long line is wrapped, lined up under
 *   its first entry). Indentation is only for the reader. Entries are separated by single spaces.
 * - An entry is a name, or a path below the line's directory (`sub/x.ts`), with bash braces:
 *   `{a,b}` alternatives, `{001..019}` ranges (same-length bounds keep their zero padding),
 *   products (`{x,y}.{json,raw}`: x's names, then y's).
 * - `n(a b)` is n, then n/a and n/b (`find` and `tar tf` print a directory, then what is in it;
 *   `tar`'s `n/` adds no second slash); inside, the same entries, nested.
 * - `x/*` stands for the entries of x/: the line headed `x/:`, which comes next.
 * - A plain entry `x` (no braces) whose directory's line comes next is followed by that line's
 *   entries (a big directory in a `find` listing: its name, then its own line).
 * - Lines come in the order expansion needs them: a line is read where its `x/*` or `x` is.
 * - `\` escapes the next character: `\\`, `\ `, `\{`, `\}`, `\,`, `\(`, `\)`, and a name that is just
 *   `*` or `:` (`\*`, `\:`); a name that must not take the next line's entries is braced (`{x}`).
 *
 * Only entries next to each other in the input share a line, so the order is kept exactly: a
 * directory met again after something else gets a second line. compactBlocks/expandBlocks
 * write `ls -R`'s blocks (a directory and its names) in the same notation, a line each.
 */

/** Longest line before its entries continue on the next line (under its first entry). */
export const MAX_LINE_CHARS = 200;
/** A numbered run becomes a range from this many entries on (`a1 a2` is shorter than `a{1..2}`). */
const MIN_RANGE = 3;

/** Escapes a piece of a name or path (see the module comment). */
function escapeText(s: string): string {
  return s.replace(/[\\{}(), ]/g, '\\$&');
}

/** Escapes one name: also a name that is just `*` or `:` (else `x/*` or `x/:` would read as a marker or a header). */
function escapeName(name: string): string {
  return name === '*' || name === ':' ? `\\${name}` : escapeText(name);
}

/** Escapes a path below a line's directory (`sub/x.ts`): its last name as a name. */
function escapeRel(rel: string): string {
  const [dir, name] = splitPath(rel);
  return escapeText(dir) + escapeName(name);
}

/** Splits a path at its last `/` that is not its final character: [dir (with `/`), name]. */
function splitPath(p: string): [string, string] {
  const end = p.endsWith('/') ? p.length - 2 : p.length - 1;
  const i = end < 0 ? -1 : p.lastIndexOf('/', end);
  return i < 0 ? ['', p] : [p.slice(0, i + 1), p.slice(i + 1)];
}

/** Directory components of a dir prefix, each with its `/` (`a/b/` → [`a/`, `b/`]; `/x/` → [`/`, `x/`]). */
function components(dir: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < dir.length; i++) {
    if (dir[i] === '/') {
      out.push(dir.slice(start, i + 1));
      start = i + 1;
    }
  }
  return out;
}

/** The directory a name stands for (`x` → `x/`; a `tar tf` directory entry `x/` stays). */
const asDir = (name: string) => (name.endsWith('/') ? name : name + '/');

const LAST_NUMBER = /^(.*?)(\d+)(\D*)$/s;

interface Numbered {
  pre: string;
  digits: string;
  suf: string;
  value: bigint;
}

function numbered(name: string): Numbered | undefined {
  const m = LAST_NUMBER.exec(name);
  if (!m) return undefined;
  return { pre: m[1], digits: m[2], suf: m[3], value: BigInt(m[2]) };
}

/** May `b` follow `a` in one range? Same text around, value + 1, and a width rule expand can undo. */
function follows(a: Numbered, b: Numbered, first: Numbered): boolean {
  if (a.pre !== b.pre || a.suf !== b.suf || b.value !== a.value + 1n) return false;
  // Same width throughout (zero padding kept), or no padding anywhere (natural width).
  if (b.digits.length === first.digits.length && a.digits.length === first.digits.length) return true;
  return !hasPadding(first) && !hasPadding(a) && !hasPadding(b);
}

const hasPadding = (n: Numbered) => n.digits.length > 1 && n.digits.startsWith('0');

/** An entry as written: its text, and for a plain one (one name, no braces) the path it stands for below the line's directory. */
interface Entry {
  text: string;
  plain?: string;
  /** The directory line a plain entry would wrongly take the entries of: it is braced if that line comes next. */
  wants?: string;
}

/**
 * The entries for consecutive names of one directory, each written with `prefix` (a path below
 * the line's directory, or ''): numbered runs as ranges, runs sharing a beginning or an ending
 * as `P{a,b}S` (`{a,b,c}.d.ts`, `apt-get.{json,raw}`, `src/{a,b}.c`), the rest one entry each.
 */
function entriesOf(names: readonly string[], prefix: string): Entry[] {
  // Greedy grouping can take a long run sharing an ending where pairs sharing a beginning would
  // cross into one product (`{a,b}.{facts.json,json}`): try each way, keep the shortest.
  let best: Entry[] | undefined;
  let bestSize = Infinity;
  for (const way of GROUPINGS) {
    const entries = entriesBy(names, prefix, way);
    const size = entries.reduce((n, e) => n + e.text.length + 1, 0);
    if (size < bestSize) {
      best = entries;
      bestSize = size;
    }
    if (names.length < 2) break;
  }
  return best!;
}

/** Which shared parts a group may factor out: both, only a beginning, only an ending. */
type Grouping = 'both' | 'beginning' | 'ending';
const GROUPINGS: Grouping[] = ['both', 'beginning', 'ending'];

function entriesBy(names: readonly string[], prefix: string, way: Grouping): Entry[] {
  const out: (Entry | Grouped)[] = [];
  const full = names.map((n) => prefix + n);
  let i = 0;
  while (i < names.length) {
    const range = rangeAt(full, i);
    if (range) {
      out.push({ text: range.text });
      i = range.end;
      continue;
    }
    const group = groupAt(full, i, way);
    if (group) {
      const { p, s, end } = group;
      const alts = full.slice(i, end).map((n) => escapeText(n.slice(p.length, n.length - s.length)));
      out.push({ p, tail: `{${alts.join(',')}}${escapeText(s)}` });
      i = end;
      continue;
    }
    out.push({ text: escapeRel(full[i]), plain: full[i] });
    i++;
  }
  return crossed(out);
}

/** A `P{a,b}S` group before writing: its beginning, and the rest as written (`{a,b}S`). */
interface Grouped {
  p: string;
  tail: string;
}

/**
 * Groups next to each other with the same `{a,b}S` and beginnings ending with the same
 * separator become one product: `x.{json,raw} y.{json,raw}` → `{x,y}.{json,raw}` (brace
 * expansion gives x's names, then y's: the same order).
 */
function crossed(items: (Entry | Grouped)[]): Entry[] {
  const out: Entry[] = [];
  for (let i = 0; i < items.length; ) {
    const it = items[i];
    if (!('p' in it)) {
      out.push(it);
      i++;
      continue;
    }
    let j = i + 1;
    if (it.p) while (j < items.length && 'p' in items[j] && (items[j] as Grouped).tail === it.tail && (items[j] as Grouped).p) j++;
    if (j - i < 2) {
      out.push({ text: escapeText(it.p) + it.tail });
      i++;
      continue;
    }
    let heads = (items.slice(i, j) as Grouped[]).map((g) => g.p);
    // A separator they all end with stays outside: `{x,y}.{json,raw}` rather than `{x.,y.}{json,raw}`.
    const sep = heads[0].slice(-1);
    const common = SEPARATOR.test(sep) && heads.every((h) => h.length > 1 && h.endsWith(sep)) ? sep : '';
    if (common) heads = heads.map((h) => h.slice(0, -1));
    // Their shared beginning (up to a separator) stays in front: `src/{a,b}.{c,h}`.
    let l = 0;
    while (heads.every((h) => l < h.length && h[l] === heads[0][l])) l++;
    while (l > 0 && !SEPARATOR.test(heads[0][l - 1])) l--;
    if (heads.some((h) => h.length === l)) l = 0;
    out.push({ text: `${escapeText(heads[0].slice(0, l))}{${heads.map((h) => escapeText(h.slice(l))).join(',')}}${escapeText(common)}${it.tail}` });
    i = j;
  }
  return out;
}

/** Does a shared beginning end here (after a character that is not a letter or digit: `lib.`, `apt-get-`, `src/`)? */
const SEPARATOR = /[^\p{L}\p{N}]/u;

/**
 * Characters a `P{…}S` group must save to be used: it adds `{` `}`, and a comma costs a bit more
 * than a space (`,broken` is two tokens where ` broken` is one), so each name costs one more.
 */
const GROUP_MIN_SAVING = 4;

/**
 * The best run of names from `i` sharing a beginning P (ending at a separator) and/or an ending S
 * (from a `.`), each keeping a non-empty middle, judged by characters saved; or undefined.
 */
function groupAt(names: readonly string[], i: number, way: Grouping = 'both'): { p: string; s: string; end: number } | undefined {
  if (i + 1 >= names.length) return undefined;
  const a = names[i];
  const b = names[i + 1];
  let lcp = 0;
  while (lcp < a.length && lcp < b.length && a[lcp] === b[lcp]) lcp++;
  // A beginning ends after a separator (`lib.`, `src/`) or just before one (`auth` of `auth.py`, `auth_test.py`).
  let l = lcp;
  while (l > 0 && !SEPARATOR.test(a[l - 1])) l--;
  let before = Math.min(lcp, a.length - 1);
  while (before > 0 && !SEPARATOR.test(a[before])) before--;
  let m = 0;
  while (m < a.length && m < b.length && a[a.length - 1 - m] === b[b.length - 1 - m]) m++;
  const endings = [''];
  for (let k = a.length - m; k < a.length; k++) if (a[k] === '.' && k > 0) endings.push(a.slice(k));
  let best: { p: string; s: string; end: number; saved: number } | undefined;
  for (const p of new Set([a.slice(0, l), a.slice(0, before), ''])) {
    for (const s of endings) {
      if ((!p && !s) || (way === 'beginning' && s) || (way === 'ending' && p)) continue;
      const fits = (n: string) => n.length > p.length + s.length && n.startsWith(p) && n.endsWith(s);
      if (!fits(a)) continue;
      let j = i + 1;
      while (j < names.length && fits(names[j]) && !rangeAt(names, j)) j++;
      const run = j - i;
      const saved = (run - 1) * (p.length + s.length) - 2 - run;
      if (run >= 2 && saved >= GROUP_MIN_SAVING && (!best || saved > best.saved)) best = { p, s, end: j, saved };
    }
  }
  return best;
}

/** A numbered run of at least MIN_RANGE names from `i` (`file{001..019}.txt`), or undefined. */
function rangeAt(names: readonly string[], i: number): { text: string; end: number } | undefined {
  const first = numbered(names[i]);
  if (!first) return undefined;
  let prev = first;
  let j = i + 1;
  while (j < names.length) {
    const n = numbered(names[j]);
    if (!n || !follows(prev, n, first)) break;
    prev = n;
    j++;
  }
  // Lengths differ only without padding (follows()); expand pads exactly when they are equal.
  if (j - i < MIN_RANGE || (first.digits.length !== prev.digits.length && hasPadding(first))) return undefined;
  return { text: `${escapeText(first.pre)}{${first.digits}..${prev.digits}}${escapeText(first.suf)}`, end: j };
}

/** A directory in the order-keeping tree: runs of names and subdirectories, in input order. */
interface DirNode {
  children: (LeafGroup | DirChild)[];
}
interface LeafGroup {
  names: string[];
}
interface DirChild {
  comp: string;
  node: DirNode;
}

const isDir = (c: LeafGroup | DirChild): c is DirChild => 'comp' in c;

/**
 * The tree of a list, keeping its order: an entry goes into a directory only if that directory
 * is the newest child of its parent; a directory met again after something else gets a second
 * node (and a second line), so walking the tree gives back the input order exactly.
 */
function treeOf(paths: readonly string[]): DirNode {
  const root: DirNode = { children: [] };
  for (const p of paths) {
    if (p === '' || p.includes('\n')) throw new RangeError(`not a path for the list notation: ${JSON.stringify(p)}`);
    const [dir, name] = splitPath(p);
    let node = root;
    for (const comp of components(dir)) {
      const last = node.children[node.children.length - 1];
      if (last && isDir(last) && last.comp === comp) node = last.node;
      else {
        const child: DirChild = { comp, node: { children: [] } };
        node.children.push(child);
        node = child.node;
      }
    }
    const last = node.children[node.children.length - 1];
    if (last && !isDir(last)) last.names.push(name);
    else node.children.push({ names: [name] });
  }
  return root;
}

/** A chain of directories with one subdirectory each and nothing else, as one path (`src/main/core/`), and the node it ends at. */
function chainOf(child: DirChild): { path: string; node: DirNode } {
  let path = child.comp;
  let node = child.node;
  while (node.children.length === 1 && isDir(node.children[0])) {
    path += node.children[0].comp;
    node = node.children[0].node;
  }
  return { path, node };
}

interface Line {
  /** The directory's path below its parent line's (its full path on a top-level line; '' for top-level entries). */
  head: string;
  depth: number;
  entries: Entry[];
}

/**
 * The compact notation of a list of paths (each non-empty, without newlines): one line per
 * directory (a directory met again later gets another), numbered runs as ranges, shared
 * beginnings and endings factored out; see the module comment.
 */
export function compactPaths(paths: readonly string[]): string {
  const root = treeOf(paths);
  const lines: Line[] = [];
  let pending: Entry[] = [];
  const open = (head: string, depth: number): Line => {
    // A plain entry naming this line's directory, written since the last line began, would
    // take this line's entries on expansion: brace it.
    for (const e of pending) if (e.wants === head) e.text = `{${e.text}}`;
    pending = [];
    const line: Line = { head, depth, entries: [] };
    lines.push(line);
    return line;
  };
  const add = (line: Line, entries: Entry[]) => {
    for (const e of entries) {
      if (e.plain !== undefined) {
        e.wants = asDir(e.plain);
        pending.push(e);
      }
      line.entries.push(e);
    }
  };
  const fill = (line: Line, node: DirNode) => {
    const kids = node.children;
    for (let i = 0; i < kids.length; i++) {
      const kid = kids[i];
      if (!isDir(kid)) {
        const next = kids[i + 1];
        const last = kid.names[kid.names.length - 1];
        if (next && isDir(next) && next.comp === asDir(last)) {
          // `find` / `tar tf`: a directory, then what is in it. A small one as `name(a b c)`; a
          // big one: the name alone, it takes the entries of the line that follows.
          add(line, entriesOf(kid.names.slice(0, -1), ''));
          const nested = nestedEntries(next.node, NEST_MAX);
          if (nested) line.entries.push({ text: `${escapeName(last)}(${nested.map((e) => e.text).join(' ')})` });
          else {
            line.entries.push({ text: escapeName(last) });
            fill(open(next.comp, line.depth + 1), next.node);
          }
          i++;
        } else add(line, entriesOf(kid.names, ''));
        continue;
      }
      const { path, node: inner } = chainOf(kid);
      const prev = kids[i - 1];
      if (inlined(kid, prev && !isDir(prev) ? prev : undefined)) {
        const flat: string[] = [];
        flatten(inner, '', flat, Infinity);
        add(line, entriesOf(flat, path));
        continue;
      }
      line.entries.push({ text: escapeText(path) + '*' });
      fill(open(path, line.depth + 1), inner);
    }
  };
  if (root.children.some((c) => !isDir(c))) fill(open('', 0), root);
  else {
    for (const kid of root.children) {
      const { path, node } = chainOf(kid as DirChild);
      fill(open(path, 0), node);
    }
  }
  return lines.map(render).join('\n');
}

/**
 * A small subtree as entries inside `name(…)`, or undefined when it holds more than `max`
 * paths: its names, `sub(…)` for a directory followed by what is in it, `sub/x` for the others.
 */
function nestedEntries(node: DirNode, max: number): Entry[] | undefined {
  const flat: string[] = [];
  if (!flatten(node, '', flat, max)) return undefined;
  const out: Entry[] = [];
  const kids = node.children;
  for (let i = 0; i < kids.length; i++) {
    const kid = kids[i];
    if (isDir(kid)) {
      const sub: string[] = [];
      flatten(kid.node, '', sub, Infinity);
      out.push(...entriesOf(sub, kid.comp));
      continue;
    }
    const next = kids[i + 1];
    const last = kid.names[kid.names.length - 1];
    if (next && isDir(next) && next.comp === asDir(last)) {
      out.push(...entriesOf(kid.names.slice(0, -1), ''));
      out.push({ text: `${escapeName(last)}(${nestedEntries(next.node, Infinity)!.map((e) => e.text).join(' ')})` });
      i++;
    } else out.push(...entriesOf(kid.names, ''));
  }
  return out;
}

/** A directory listed before what is in it is written `name(…)` when it holds at most this many paths. */
const NEST_MAX = 30;

/**
 * Is a subdirectory shorter written inline (`sub/{a,b}.ts`) than as `sub/*` and a line of its
 * own? Only one with names alone; measured in characters (a fair proxy for tokens here).
 */
function inlined(kid: DirChild, prev: LeafGroup | undefined): boolean {
  const { path, node } = chainOf(kid);
  const flat: string[] = [];
  if (!flatten(node, '', flat, INLINE_MAX)) return false;
  const attaches = prev !== undefined && asDir(prev.names[prev.names.length - 1]) === path;
  const size = (es: Entry[]) => es.reduce((n, e) => n + e.text.length + 1, 0);
  const inline = size(entriesOf(flat, path));
  // `sub/*` unless it follows its name; a new line (its newline and indentation) and `sub/:`.
  const block = (attaches ? 0 : escapeText(path).length + 2) + LINE_CHARS + escapeText(path).length + 1 + compactPaths(flat).length;
  return inline <= block;
}

/** A subdirectory is written inline only if it holds at most this many paths. */
const INLINE_MAX = 12;
/** What a new line costs, in characters (its newline and indentation are about two tokens). */
const LINE_CHARS = 3;

/** The paths below a node, relative to it, in order; false when there are more than `max`. */
function flatten(node: DirNode, prefix: string, out: string[], max: number): boolean {
  for (const c of node.children) {
    if (isDir(c)) {
      if (!flatten(c.node, prefix + c.comp, out, max)) return false;
    } else {
      for (const n of c.names) out.push(prefix + n);
      if (out.length > max) return false;
    }
  }
  return true;
}

/** Spaces per level of nesting (only for the reader: expansion goes by `x/*` and names). */
const INDENT = '  ';

/** One line of text (or several: a long line continues under its first entry), entries joined by spaces. */
function render(line: Line): string {
  const indent = INDENT.repeat(line.depth);
  const head = line.head === '' ? '' : escapeText(line.head) + ':';
  const hang = ' '.repeat(indent.length + (head ? head.length + 1 : 0));
  let out = indent + head;
  let width = out.length;
  let first = true;
  for (const e of line.entries) {
    if (first && !head) {
      out += e.text;
      width += e.text.length;
    } else if (!first && width + 1 + e.text.length > MAX_LINE_CHARS) {
      out += '\n' + hang + e.text;
      width = hang.length + e.text.length;
    } else {
      out += ' ' + e.text;
      width += 1 + e.text.length;
    }
    first = false;
  }
  return out;
}

/** A problem reading the notation (only for text that compactPaths did not write). */
export class PathListSyntaxError extends Error {}

/** A parsed entry: the names it stands for (relative to its line's directory), and whether it is a `x/*` or plain. */
interface ParsedEntry {
  names: string[];
  /** `x/*`: the directory (`x/`) whose line is read here. */
  marker?: string;
  /** A plain entry: one name, no braces; the line of its directory (if it comes next) is read after it. */
  plain?: boolean;
}

interface ParsedLine {
  head: string;
  entries: ParsedEntry[];
}

/** The list of paths a compact notation stands for (the exact inverse of compactPaths). */
export function expandPaths(text: string): string[] {
  if (text === '') return [];
  const lines: ParsedLine[] = [];
  for (const raw of text.split('\n')) {
    const words = splitEntries(raw.replace(/^ +/, ''));
    if (words.length && endsUnescaped(words[0], '/:')) lines.push({ head: unescape(words.shift()!.slice(0, -1)), entries: [] });
    else if (!lines.length) lines.push({ head: '', entries: [] });
    // A line without a `dir/:` continues the line above (the first line: top-level entries).
    lines[lines.length - 1].entries.push(...words.map(parseEntry));
  }
  const out: string[] = [];
  let next = 0;
  const expandLine = (line: ParsedLine, dir: string) => {
    for (const e of line.entries) {
      if (e.marker !== undefined) {
        if (next >= lines.length || lines[next].head !== e.marker) throw new PathListSyntaxError(`${e.marker}* is not followed by the line of ${e.marker}`);
        expandLine(lines[next++], dir + e.marker);
        continue;
      }
      for (const n of e.names) out.push(dir + n);
      if (e.plain && next < lines.length && lines[next].head === asDir(e.names[0])) expandLine(lines[next++], dir + asDir(e.names[0]));
    }
  };
  while (next < lines.length) {
    const line = lines[next++];
    expandLine(line, line.head);
  }
  return out;
}

/** Splits a line at its unescaped spaces outside `( )`. */
function splitEntries(s: string): string[] {
  const out: string[] = [];
  let start = 0;
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '(') depth++;
    else if (s[i] === ')') depth--;
    else if (s[i] === ' ' && depth === 0) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  out.push(s.slice(start));
  if (out.some((w) => w === '')) throw new PathListSyntaxError(`an empty entry (two spaces?) in: ${s}`);
  return out;
}

/** Does `s` end with `suffix` whose first character is not escaped? */
function endsUnescaped(s: string, suffix: string): boolean {
  if (!s.endsWith(suffix)) return false;
  let n = 0;
  for (let i = s.length - suffix.length - 1; i >= 0 && s[i] === '\\'; i--) n++;
  return n % 2 === 0;
}

function parseEntry(word: string): ParsedEntry {
  if (endsUnescaped(word, '/*')) return { names: [], marker: unescape(word.slice(0, -1)) };
  const open = indexUnescaped(word, '(');
  if (open >= 0) {
    // `name(a b)`: name, then name/a, name/b (a `tar tf` directory `name/(…)` adds no second slash).
    if (!endsUnescaped(word, ')') || open === 0) throw new PathListSyntaxError(`a ( without its name or its ) in: ${word}`);
    const head = word.slice(0, open);
    if (hasUnescaped(head, '{')) throw new PathListSyntaxError(`braces before ( in: ${word}`);
    const name = unescape(head);
    const names = [name];
    for (const inner of splitEntries(word.slice(open + 1, -1)).map(parseEntry)) {
      if (inner.marker !== undefined) throw new PathListSyntaxError(`x/* inside ( ) in: ${word}`);
      for (const n of inner.names) names.push(asDir(name) + n);
    }
    return { names };
  }
  if (!hasUnescaped(word, '{')) return { names: [unescape(word)], plain: true };
  return { names: expandBraces(word) };
}

function hasUnescaped(s: string, ch: string): boolean {
  return indexUnescaped(s, ch) >= 0;
}

function indexUnescaped(s: string, ch: string): number {
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === ch) return i;
  }
  return -1;
}

function unescape(s: string): string {
  return s.replace(/\\(.)/gs, '$1');
}

/** Bash-style brace expansion of one entry: alternatives, ranges, escapes, nesting. */
function expandBraces(s: string): string[] {
  const [alts, end] = parseSequence(s, 0, false);
  if (end !== s.length) throw new PathListSyntaxError(`unbalanced brace in: ${s}`);
  return alts;
}

/** Parses a sequence up to an unescaped `,` or `}` (inside braces) or the end: its expansions and where it stopped. */
function parseSequence(s: string, at: number, inBraces: boolean): [string[], number] {
  let results = [''];
  let lit = '';
  let i = at;
  const flush = () => {
    if (lit) results = results.map((r) => r + lit);
    lit = '';
  };
  while (i < s.length) {
    const c = s[i];
    if (c === '\\' && i + 1 < s.length) {
      lit += s[i + 1];
      i += 2;
      continue;
    }
    if (inBraces && (c === ',' || c === '}')) break;
    if (c === '{') {
      flush();
      const range = /^\{(\d+)\.\.(\d+)\}/.exec(s.slice(i));
      let options: string[];
      if (range) {
        options = expandRange(range[1], range[2]);
        i += range[0].length;
      } else {
        options = [];
        i++;
        for (;;) {
          const [alt, stop] = parseSequence(s, i, true);
          options.push(...alt);
          if (stop >= s.length) throw new PathListSyntaxError(`unclosed brace in: ${s}`);
          i = stop + 1;
          if (s[stop] === '}') break;
        }
      }
      const next: string[] = [];
      for (const r of results) for (const o of options) next.push(r + o);
      results = next;
      continue;
    }
    lit += c;
    i++;
  }
  flush();
  return [results, i];
}

function expandRange(a: string, b: string): string[] {
  const from = BigInt(a);
  const to = BigInt(b);
  const width = a.length === b.length ? a.length : 0;
  const out: string[] = [];
  for (let v = from; v <= to; v++) out.push(width ? v.toString().padStart(width, '0') : v.toString());
  return out;
}

/** A directory's names as a listing prints them (`ls -R`: a block per directory). */
export interface NameBlock {
  /** The directory as the listing names it (`src/main`, `.`), or undefined for names with no heading (file operands). */
  dir?: string;
  names: string[];
}

/**
 * Blocks of names (one per directory, `ls -R`) in the same notation: a line per block,
 * `dir/: a b c` (an empty directory is `dir/:` alone; names with no heading, a line without
 * one), entries as in compactPaths (ranges, shared beginnings and endings). One line per block,
 * however long: the block boundaries are the lines.
 */
export function compactBlocks(blocks: readonly NameBlock[]): string {
  return blocks
    .map((b, i) => {
      if (b.dir === undefined && i > 0) throw new RangeError('only the first block may have no directory');
      for (const n of b.names) if (n === '' || n.includes('\n')) throw new RangeError(`not a name for the list notation: ${JSON.stringify(n)}`);
      const words = entriesOf(b.names, '').map((e) => e.text);
      return [...(b.dir === undefined ? [] : [escapeText(b.dir + '/') + ':']), ...words].join(' ');
    })
    .join('\n');
}

/** The exact inverse of compactBlocks. */
export function expandBlocks(text: string): NameBlock[] {
  if (text === '') return [];
  return text.split('\n').map((raw, i) => {
    const words = splitEntries(raw);
    let dir: string | undefined;
    if (endsUnescaped(words[0], '/:')) dir = unescape(words.shift()!.slice(0, -2));
    else if (i > 0) throw new PathListSyntaxError(`a block without its dir/: after the first line: ${raw}`);
    const names: string[] = [];
    for (const w of words) {
      const e = parseEntry(w);
      if (e.marker !== undefined) throw new PathListSyntaxError(`x/* in a block: ${raw}`);
      names.push(...e.names);
    }
    return dir === undefined ? { names } : { dir, names };
  });
}

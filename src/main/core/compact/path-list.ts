/**
 * Lossless compaction of path lists (issue 13 pt 4, issue 23 pt 2): `find`, `git ls-files`,
 * `rg --files`, `grep -l`, `tar tf` print mostly repeated directory prefixes. The compact view
 * groups consecutive paths by directory, and every line reads alone, with no indentation, no
 * pointer to another line and no parent line to remember:
 *
 *     README.md bin/mish.js package.json
 *     src/main/core/squasher/: {classifier,dedup,line-buffer}.ts prefilter.{test.ts,ts}
 *     src/main/core/: audit/audit-log.ts compact/path-list.{test.ts,ts}
 *
 * - A line starting with `dir/:` lists paths in dir/ (its full path); each entry is a path below
 *   it (`audit/x.ts` is dir/audit/x.ts). A line without one lists whole paths.
 * - A line starting with `dir:` (no `/` before the colon) lists dir itself, then its tree in
 *   find's order: each path comes after its directories below dir that the line has not named
 *   yet (`src: a.ts util/b.ts util/c.ts` = src src/a.ts src/util src/util/b.ts src/util/c.ts).
 *   `find` prints a directory just before what is in it: a chain of single directories
 *   (`src/test/java/demo/CalcTest.java`) is written once, and each line still reads alone (the
 *   implied directories are spelled in the line's own paths). `dir:/` is the same in tar's
 *   spelling: dir/ and each directory with its `/` (`src:/ util/b.ts` = src/ src/util/ src/util/b.ts).
 *   The compactor writes a directory's own entry where the next one would not imply it, and
 *   checks that the line reads back exactly (else it writes the plain form).
 *   Their continuation lines are `dir/:` (nothing implied). A whole path ending with `:` (or
 *   `:/`) on a line without a directory gets `\:` (it would read as such a header).
 * - `.` on a line with a directory is the directory itself (`src/: . a.ts` = src src/a.ts; `./` = src/, as
 *   tar lists it), where the `dir:` form cannot say it (a directory `/`, or not first on its line).
 * - Entries are separated by single spaces and use bash braces: `{a,b}` alternatives,
 *   `{001..019}` ranges (same-length bounds keep their zero padding), products
 *   (`{x,y}.{json,raw}`: x's names, then y's).
 * - The lines in order give the list in order (duplicates and all): a directory met again after
 *   something else gets another line; a long line goes on in another line with the same `dir/:`.
 * - `\` escapes the next character: `\\`, `\ `, `\{`, `\}`, `\,`, `\(`, `\)`, a name that
 *   is just `*` or `:` (`\*`, `\:`), and an entry that is just `.` or `./` naming itself on a
 *   `dir/:` line (`\.`: dir/. as printed).
 *
 * expandPaths gives back exactly the input list; expandPathLine reads one line alone.
 * compactBlocks/expandBlocks write `ls -R`'s blocks (a directory and its names) in the same
 * notation, a line each.
 */

/**
 * Longest line before its entries go on in another line with the same `dir/:` (each line reads
 * alone). Each such line repeats its directory (~6 tokens): at 400 characters a big directory
 * paid that every ~40 names (bench: 1.4 points on `find .` of a clone, 2 on
 * node_modules/typescript); a line of 1,000 still reads as one.
 */
export const MAX_LINE_CHARS = 1000;
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

/** A whole path ending with `:` on a line without a directory would read as a `d:` header: its last `:` escaped. */
function escapeColonEnd(entry: string): string {
  if (endsUnescaped(entry, ':/')) return `${entry.slice(0, -2)}\\:/`;
  return endsUnescaped(entry, ':') ? `${entry.slice(0, -1)}\\:` : entry;
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

/**
 * Does a shared beginning end here (after a character that is not a letter or digit: `lib.`,
 * `apt-get-`, `src/`)? Half of a surrogate pair (🙂 is two UTF-16 units) is not one: a brace
 * between the halves left each alone, and the reply's UTF-8 turned both into U+FFFD.
 */
const SEPARATOR = /[^\p{L}\p{N}\uD800-\uDFFF]/u;

/**
 * Characters a `P{…}S` group must save to be used: it adds `{` `}`, and a comma costs a bit more
 * than a space (`,broken` is two tokens where ` broken` is one), so each name costs one more.
 */
const GROUP_MIN_SAVING = 4;

/**
 * The best run of names from `i` sharing a beginning P (ending at a separator, or where a word
 * begins in every one of them: `use{Auth,Cart}.ts`) and/or an ending S
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
  // Also every directory both start with (`hooks/` of `hooks/pre-push.sample hooks/pre-rebase.sample
  // hooks/update.sample`): the longest shared beginning may hold only the first few of a run
  // that a shorter one holds whole (git's hook samples: 13 names, 2 of them `hooks/pre-…`).
  // And where a word begins inside a name (`lib.es` of `lib.es2022.object`, `use` of `useAuth`).
  let word = lcp;
  while (word > 0 && !startsWord(a, word)) word--;
  const beginnings = new Set([a.slice(0, l), a.slice(0, before), a.slice(0, word), '']);
  for (let k = a.indexOf('/'); k >= 0 && k < lcp; k = a.indexOf('/', k + 1)) beginnings.add(a.slice(0, k + 1));
  let best: { p: string; s: string; end: number; saved: number } | undefined;
  for (const p of beginnings) {
    for (const s of endings) {
      if ((!p && !s) || (way === 'beginning' && s) || (way === 'ending' && p)) continue;
      const fits = (n: string) => n.length > p.length + s.length && n.startsWith(p) && n.endsWith(s) && (p.length !== word || startsWord(n, p.length));
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

/**
 * Does a word begin at `k` in `name`? After or at a separator, where a lower-case letter meets an
 * upper-case one (`use|Auth`), and where letters meet digits (`es|2022`, `v8|js`).
 */
function startsWord(name: string, k: number): boolean {
  if (k <= 0 || k >= name.length) return true;
  const x = name[k - 1];
  const y = name[k];
  if (SEPARATOR.test(x) || SEPARATOR.test(y)) return true;
  if (LOWER.test(x) && UPPER.test(y)) return true;
  return DIGIT.test(x) !== DIGIT.test(y);
}

const LOWER = /\p{Ll}/u;
const UPPER = /\p{Lu}/u;
const DIGIT = /\p{N}/u;

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

/** A run of consecutive paths in one directory: the directory (with its `/`, '' at the top) and the names. */
interface Run {
  dir: string;
  names: string[];
  /** The directory itself came just before its names, as printed (`src` → '.', tar's `src/` → './'). */
  self?: '.' | './';
}

/** An entry that names its line's directory itself (see the module comment). */
const SELF = new Set(['.', './']);

/** What a new line costs over continuing one, in characters (its newline and the `: ` after its directory). */
const LINE_CHARS = 3;

/**
 * The compact notation of a list of paths (each non-empty, without newlines): see the module
 * comment. Every line can be read alone: `dir/: entries` or, without a directory, entries that
 * are whole paths; the lines in order give the list in order.
 */
export function compactPaths(paths: readonly string[]): string {
  const runs: Run[] = [];
  let prev = '';
  for (const p of paths) {
    if (p === '' || p.includes('\n')) throw new RangeError(`not a path for the list notation: ${JSON.stringify(p)}`);
    const [dir, name] = splitPath(p);
    const last = runs[runs.length - 1];
    if (last && last.dir === dir) last.names.push(name);
    else if (last && last.names.length && dir !== '' && (prev === dir || prev === dir.slice(0, -1))) {
      // The directory just printed, then what is in it (find, tar): it opens its own run as `.`.
      last.names.pop();
      if (!last.names.length && !last.self) runs.pop();
      runs.push({ dir, names: [name], self: prev === dir ? './' : '.' });
    } else runs.push({ dir, names: [name] });
    prev = p;
  }
  const groups = groupRuns(runs);
  const lines: string[] = [];
  for (const g of groups) lines.push(...groupLines(g));
  return lines.join('\n');
}

/** An entry of a line being written: its text, the full paths it stands for, and for a directory's own entry (find and tar print it before what is in it) its path. */
interface LineEntry {
  text: string;
  paths: string[];
  self?: string;
  /** Directories the line leaves out before this entry (its not yet named directories, implied: see the module comment). */
  implied?: LineEntry[];
}

/** The lines for one group of runs (a directory and the runs below it): the tree form when it reads back exactly, else the plain one. */
function groupLines(g: { head: string; runs: Run[] }): string[] {
  const expected: string[] = [];
  for (const r of g.runs) {
    if (r.self) expected.push(r.self === './' ? r.dir : r.dir.slice(0, -1));
    for (const n of r.names) expected.push(r.dir + n);
  }
  for (const tree of [true, false]) {
    const out = writeGroup(g, tree);
    // Only a tree line implies paths it does not spell: the plain form needs no reading back.
    if (!out.tree || sameList(out.lines.flatMap((l) => expandPathLine(l)), expected)) return out.lines;
  }
  // Not reachable for lists compactPaths accepts (kept as a guard): one whole path a line.
  return expected.map((p) => escapeColonEnd(escapeRel(p)));
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

function writeGroup(g: { head: string; runs: Run[] }, tree: boolean): { lines: string[]; tree: boolean } {
  // An entry that is just `.` or `./` on a line with a directory would read as the directory itself (a name `.`, a directory `./` of tar's).
  const selfSafe = (text: string) => (g.head !== '' && SELF.has(text) ? `\\${text}` : text);
  const entries: LineEntry[] = [];
  // A line that starts with its directory itself (find: `src`, then what is in it) is `src: a b`.
  const dirItself = g.head.slice(0, -1);
  let selfHead: '' | '.' | './' = '';
  for (const r of g.runs) {
    const prefix = r.dir.slice(g.head.length);
    const selfPath = r.self === './' ? r.dir : r.dir.slice(0, -1);
    // The directory itself: in the header when it comes first (`d:`), `.` on its own line, else its path below the line's directory.
    if (tree && r.self && prefix === '' && !entries.length && !selfHead && dirItself !== '' && !dirItself.endsWith('/')) selfHead = r.self;
    else if (r.self) entries.push({ text: prefix === '' ? r.self : selfSafe(escapeColonEnd(escapeRel(r.self === './' ? prefix : prefix.slice(0, -1)))), paths: [selfPath], self: prefix === '' ? undefined : selfPath });
    for (const e of entriesOf(r.names, prefix)) {
      const text = g.head === '' ? escapeColonEnd(e.text) : selfSafe(e.text);
      entries.push({ text, paths: selfHead ? parseEntry(text).names.map((n) => g.head + n) : [] });
    }
  }
  const head = g.head === '' ? '' : escapeText(g.head) + ':';
  // A line naming its directory first (`d:`, tar's `d:/`) lists its tree: a directory's own entry is implied by the next one.
  const listed = selfHead ? implyDirs(g.head, entries, selfHead === './') : entries;
  return { lines: wrap(selfHead ? escapeText(dirItself) + (selfHead === './' ? ':/' : ':') : head, head, listed), tree: selfHead !== '' };
}

/** The directories of `p` below `dir` (shallowest first), as a tree line spells them (tar: with their `/`). */
function dirsBelow(dir: string, p: string, slash: boolean): string[] {
  const rel = p.slice(dir.length);
  const out: string[] = [];
  for (let i = 1; i < rel.length - 1; i++) if (rel[i] === '/') out.push(dir + rel.slice(0, slash ? i + 1 : i));
  return out;
}

/** Leaves out each directory's own entry that the next entry implies (its directories not yet named on the line, shallowest first). */
function implyDirs(dir: string, entries: readonly LineEntry[], slash: boolean): LineEntry[] {
  const seen = new Set<string>();
  const out: LineEntry[] = [];
  let pending: LineEntry[] = [];
  for (const e of entries) {
    if (e.self !== undefined && !seen.has(e.self)) {
      pending.push(e);
      continue;
    }
    const unseen = e.paths.length ? dirsBelow(dir, e.paths[0], slash).filter((d) => !seen.has(d)) : [];
    if (pending.length && sameList(unseen, pending.map((q) => q.self!))) {
      out.push({ ...e, implied: pending });
    } else {
      out.push(...pending);
      out.push(e);
    }
    for (const q of pending) seen.add(q.self!);
    pending = [];
    for (const p of e.paths) {
      for (const d of dirsBelow(dir, p, slash)) seen.add(d);
      seen.add(p);
    }
  }
  out.push(...pending);
  return out;
}

/** Runs a line may hold at most (bounds the search below; a line holding more is rarely shorter). */
const MAX_RUNS_PER_LINE = 64;

/**
 * Consecutive runs split into lines, each under the longest directory all its runs are in, so
 * that the text is as short as it can be: a line costs its directory and LINE_CHARS, and each of
 * its entries what its directory has below the line's (`audit/` of `src/core/: audit/x.ts`). The
 * best split by dynamic programming over where lines start (a line holds up to MAX_RUNS_PER_LINE
 * runs); names cost the same in every split and are left out of the sum.
 */
function groupRuns(runs: readonly Run[]): { head: string; runs: Run[] }[] {
  const n = runs.length;
  // What a run's entries pay for its directory below the line's: once per entry, and names that
  // share it group into one entry (`sub/{a,b,c}.ts`): as many entries as the names alone make.
  const paying = runs.map((r) => entriesOf(r.names, '').length + (r.self ? 1 : 0));
  const best = new Float64Array(n + 1).fill(Infinity);
  const from = new Int32Array(n + 1);
  best[0] = 0;
  for (let i = 1; i <= n; i++) {
    let head = runs[i - 1].dir;
    let count = 0;
    let dirChars = 0;
    let selves = 0;
    let selfChars = 0;
    for (let j = i - 1; j >= 0 && j >= i - MAX_RUNS_PER_LINE; j--) {
      head = commonDir(head, runs[j].dir);
      // The directory itself costs its path below the head without the `/` (`.` when it is the head).
      count += paying[j];
      dirChars += paying[j] * runs[j].dir.length - (runs[j].self ? 1 : 0);
      let cost = best[j] + LINE_CHARS + head.length + dirChars - count * head.length;
      // A line that starts with its directory itself lists its tree: the other directories' own entries are implied.
      if (runs[j].self && runs[j].dir === head && head.length > 1 && !head.endsWith('//')) cost -= selfChars - selves * head.length;
      if (runs[j].self) {
        selves++;
        selfChars += runs[j].dir.length;
      }
      if (cost < best[i]) {
        best[i] = cost;
        from[i] = j;
      }
    }
  }
  const groups: { head: string; runs: Run[] }[] = [];
  for (let i = n; i > 0; i = from[i]) {
    const part = runs.slice(from[i], i);
    groups.push({ head: part.reduce((h, r) => commonDir(h, r.dir), part[0].dir), runs: part });
  }
  return groups.reverse();
}

/** The longest directory (whole components, with its `/`) both directories are in; '' if none. */
function commonDir(a: string, b: string): string {
  let n = 0;
  let lastSlash = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) {
    if (a[n] === '/') lastSlash = n + 1;
    n++;
  }
  return a.slice(0, lastSlash);
}

/** A line's entries after its head (`first` on the first line: `d:` lists d itself), on as many lines as MAX_LINE_CHARS needs, each line repeating the head (so it reads alone). */
function wrap(first: string, head: string, entries: readonly LineEntry[]): string[] {
  const out: string[] = [];
  let line = first;
  let count = 0;
  let more = false;
  for (const e of entries) {
    if (count > 0 && line.length + 1 + e.text.length > MAX_LINE_CHARS) {
      out.push(line);
      line = head;
      count = 0;
      more = true;
    }
    // On a line that goes on another (`dir/:`, no tree), the directories an entry implied are written out.
    const texts = more ? [...(e.implied ?? []).map((q) => q.text), e.text] : [e.text];
    for (const t of texts) line = line === '' ? t : `${line} ${t}`;
    count++;
  }
  out.push(line);
  return out;
}

/** A problem reading the notation (only for text that compactPaths did not write). */
export class PathListSyntaxError extends Error {}

/**
 * The list of paths a compact notation stands for (the exact inverse of compactPaths). Each
 * line is read alone (expandPathLine): the lines' paths in order.
 */
export function expandPaths(text: string): string[] {
  if (text === '') return [];
  const out: string[] = [];
  for (const raw of text.split('\n')) out.push(...expandPathLine(raw));
  return out;
}

/** The paths one line stands for: its `dir/:` (if any) followed by each entry's brace expansion. */
export function expandPathLine(raw: string): string[] {
  const words = splitEntries(raw);
  let dir = '';
  const out: string[] = [];
  let itself: string | undefined;
  if (words.length && endsUnescaped(words[0], '/:')) dir = unescape(words.shift()!.slice(0, -1));
  else if (words.length && endsUnescaped(words[0], ':/')) {
    // `d:/ a/b` = d/ d/a/ d/a/b (tar's spelling of directories).
    itself = unescape(words.shift()!.slice(0, -2)) + '/';
    out.push(itself);
    dir = itself;
  } else if (words.length && endsUnescaped(words[0], ':')) {
    // `d: a b` = d d/a d/b (the directory itself, then what is in it).
    itself = unescape(words.shift()!.slice(0, -1));
    out.push(itself);
    dir = itself + '/';
  }
  // A line naming its directory first (`d:`, `d:/`) lists its tree: each path after its directories below d not yet on the line.
  const tree = itself !== undefined;
  const slash = tree && dir === itself;
  const seen = new Set<string>();
  const emit = (p: string) => {
    if (tree) {
      for (const d of dirsBelow(dir, p, slash)) {
        if (!seen.has(d)) {
          seen.add(d);
          out.push(d);
        }
      }
      seen.add(p);
    }
    out.push(p);
  };
  for (const w of words) {
    if (dir && SELF.has(w)) out.push(w === './' ? dir : dir.slice(0, -1));
    else for (const n of parseEntry(w).names) emit(dir + n);
  }
  return out;
}

/** A parsed entry: the names it stands for (relative to its line's directory). */
interface ParsedEntry {
  names: string[];
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
  if (!hasUnescaped(word, '{')) return { names: [unescape(word)] };
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
      names.push(...parseEntry(w).names);
    }
    return dir === undefined ? { names } : { dir, names };
  });
}

/**
 * Lossless compaction of path lists (issue 13 pt 4): `find`, `git ls-files`, `rg --files`,
 * `grep -l`, `tar tf` print mostly repeated directory prefixes. The compact view is a tree of
 * directory headers with brace lists under them, and `expandPaths` gives back exactly the input
 * list, in its order:
 *
 *     src/main/core/
 *       squasher/{classifier.ts,dedup.ts,dedup.test.ts}
 *       grammar/{detect.ts,loader.ts}
 *     fixtures/recorded/file{001..019}.txt
 *
 * - A line ending with an unescaped `/` is a directory header; the lines under it, indented two
 *   more spaces, are inside it (a header may hold several components: `src/main/core/`).
 * - Any other line is a leaf: bash-style brace expansion, `{a,b}` alternatives and `{001..019}`
 *   ranges (same-length bounds keep their zero padding), joined to the headers above it.
 * - In names, `\` `{` `}` `,` are written `\\` `\{` `\}` `\,`; a leading space `\ `; a final `/`
 *   `\/` (so `ls -p`'s `src/` stays a leaf).
 * - Only entries next to each other in the input are grouped, so the order is kept exactly; a
 *   directory met again later gets its header again.
 */

/** Longest leaf line before a group continues on the next line under the same header. */
export const MAX_LEAF_CHARS = 160;
/** A numbered run becomes a range from this many entries on (`a1,a2` is shorter than `a{1..2}`). */
const MIN_RANGE = 3;
/** Spaces per tree level. */
const INDENT = '  ';

/** Escapes a name for the notation (see the module comment). */
function escapeName(name: string): string {
  let s = name.replace(/[\\{},]/g, '\\$&');
  if (s.startsWith(' ')) s = '\\' + s;
  if (s.endsWith('/')) s = s.slice(0, -1) + '\\/';
  return s;
}

/** Escapes a header segment (ends with `/`, which stays bare: it is what makes it a header). */
function escapeHeader(dir: string): string {
  let s = dir.replace(/[\\{},]/g, '\\$&');
  if (s.startsWith(' ')) s = '\\' + s;
  return s;
}

/** Splits a path at its last `/` that is not its final character: [dir (with `/`), name]. */
function splitPath(p: string): [string, string] {
  const end = p.endsWith('/') ? p.length - 2 : p.length - 1;
  const i = p.lastIndexOf('/', end);
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

/** The brace elements for the names of one group: names, and `pre{A..B}suf` for numbered runs. */
function elements(names: string[]): string[] {
  return elementsWithSpans(names).map((e) => e.text);
}

/** elements(), each with the index of its first name. */
function elementsWithSpans(names: string[]): { text: string; from: number }[] {
  const out: { text: string; from: number }[] = [];
  let i = 0;
  while (i < names.length) {
    const first = numbered(names[i]);
    let j = i + 1;
    if (first) {
      let prev = first;
      while (j < names.length) {
        const n = numbered(names[j]);
        if (!n || !follows(prev, n, first)) break;
        prev = n;
        j++;
      }
      const last = prev;
      // Lengths differ only without padding (follows()); expand pads exactly when they are equal.
      if (j - i >= MIN_RANGE && (first.digits.length === last.digits.length || !hasPadding(first))) {
        out.push({ text: `${escapeName(first.pre)}{${first.digits}..${last.digits}}${escapeName(first.suf)}`, from: i });
        i = j;
        continue;
      }
    }
    out.push({ text: escapeName(names[i]), from: i });
    i++;
  }
  return out;
}

/** The longest suffix all names share that starts at a `.` (an extension: `.ts`, `.test.ts`), or ''. */
function commonExtension(names: string[]): string {
  let suf = names[0];
  for (const n of names) {
    let k = 0;
    while (k < suf.length && k < n.length && suf[suf.length - 1 - k] === n[n.length - 1 - k]) k++;
    suf = suf.slice(suf.length - k);
    if (!suf) return '';
  }
  const dot = suf.indexOf('.');
  return dot < 0 ? '' : suf.slice(dot);
}

/** One leaf line for names: `{a,b}` with their shared extension after it (`{a,b}.ts`), or the one element bare. */
function leafLine(names: string[]): string {
  const ext = names.length > 1 ? commonExtension(names) : '';
  if (ext.length >= 2) {
    const els = elements(names.map((n) => n.slice(0, n.length - ext.length)));
    if (els.length > 1) return `{${els.join(',')}}${escapeName(ext)}`;
  }
  const els = elements(names);
  return els.length === 1 ? els[0] : `{${els.join(',')}}`;
}

/** Leaf lines for one group of names, split (between whole elements) so a line stays under MAX_LEAF_CHARS. */
function leafLines(names: string[]): string[] {
  const whole = leafLine(names);
  if (whole.length <= MAX_LEAF_CHARS) return [whole];
  // Chunks of consecutive names whose elements fit, a numbered run never split.
  const els = elementsWithSpans(names);
  const lines: string[] = [];
  let from = 0;
  let len = 2;
  for (let k = 0; k < els.length; k++) {
    const e = els[k];
    if (e.from > from && len + e.text.length + 1 > MAX_LEAF_CHARS) {
      lines.push(leafLine(names.slice(from, e.from)));
      from = e.from;
      len = 2;
    }
    len += e.text.length + 1;
  }
  lines.push(leafLine(names.slice(from)));
  return lines;
}

/** A directory in the order-keeping tree: leaf groups and subdirectories, in input order. */
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
 * node (and a second header), so walking the tree gives back the input order exactly.
 */
function treeOf(paths: readonly string[]): DirNode {
  const root: DirNode = { children: [] };
  for (const p of paths) {
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

function renderNode(node: DirNode, depth: number, out: string[]): void {
  const indent = INDENT.repeat(depth);
  for (const child of node.children) {
    if (!isDir(child)) {
      for (const l of leafLines(child.names)) out.push(indent + l);
      continue;
    }
    // A chain of directories with one subdirectory each is one header (`src/main/core/`).
    let header = child.comp;
    let inner = child.node;
    while (inner.children.length === 1 && isDir(inner.children[0])) {
      header += inner.children[0].comp;
      inner = inner.children[0].node;
    }
    const only = inner.children.length === 1 ? inner.children[0] : undefined;
    const lines = only && !isDir(only) ? leafLines(only.names) : undefined;
    if (lines && lines.length === 1) {
      // One line of entries: the directory goes in front of it (`squasher/{a.ts,b.ts}`).
      out.push(indent + escapeHeader(header) + lines[0]);
      continue;
    }
    out.push(indent + escapeHeader(header));
    renderNode(inner, depth + 1, out);
  }
}

/**
 * The compact notation of a list of paths (each without newlines): the order-keeping directory
 * tree, chains of single directories as one header, a directory with one line of entries
 * written in front of it, numbered runs as ranges.
 */
export function compactPaths(paths: readonly string[]): string {
  const out: string[] = [];
  renderNode(treeOf(paths), 0, out);
  return out.join('\n');
}

/** A problem reading the notation (only for text that compactPaths did not write). */
export class PathListSyntaxError extends Error {}

/** The list of paths a compact notation stands for (the exact inverse of compactPaths). */
export function expandPaths(text: string): string[] {
  if (text === '') return [];
  const out: string[] = [];
  const stack: string[] = [];
  for (const raw of text.split('\n')) {
    let k = 0;
    while (raw.startsWith(INDENT, k)) k += INDENT.length;
    const depth = k / INDENT.length;
    if (depth > stack.length) throw new PathListSyntaxError(`indented deeper than its header: ${raw}`);
    stack.length = depth;
    const body = raw.slice(k);
    const prefix = stack.join('');
    if (isHeader(body)) {
      stack.push(unescape(body));
      continue;
    }
    for (const name of expandBraces(body)) out.push(prefix + name);
  }
  return out;
}

/** A header ends with a `/` that is not escaped (an odd number of backslashes before it escapes it). */
function isHeader(body: string): boolean {
  if (!body.endsWith('/')) return false;
  let n = 0;
  for (let i = body.length - 2; i >= 0 && body[i] === '\\'; i--) n++;
  return n % 2 === 0;
}

function unescape(s: string): string {
  return s.replace(/\\(.)/gs, '$1');
}

/** Bash-style brace expansion of one leaf: alternatives, ranges, escapes, nesting. */
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

/**
 * Narrate: file operations print nothing on success, so we stat what they touch before and
 * after and say what happened, one line per effect (`→ cp: file → backup/ (4.2KB)`,
 * `→ rm: 3 files (12KB), 1 dir`). On failure the program's own message is kept and the effect
 * lines say what did and did not happen (`✗ cp: not copied: nope.txt`).
 *
 * Snapshots are taken before the whole line runs and after it ends (the executor cannot pause
 * between segments), so `mkdir d && cp f d/` works — each destination is checked both as
 * `dest/name` and as `dest` — but a line that creates and removes the same path sees only
 * the net effect.
 */
import { lstatSync, readFileSync, type Stats } from 'node:fs';
import path from 'node:path';
import { entryNames } from '../fs/tolerant-fs.js';
import type { Segment } from '../router/categorize.js';
import { hasFlag, positionals } from '../router/meta.js';
import { writesStdoutToFile } from '../router/parse.js';
import { capture, fromTerminal, stripEscapes } from './run.js';
import type { HandlerContext, NarrateCut, Report, RunFacts } from './types.js';
import { CUT_PLACEHOLDER } from './passthrough.js';

/** Entries visited when measuring or indexing a directory tree (a node_modules can hold 100k+). */
const TREE_ENTRY_LIMIT = 20_000;
/** Names listed in one effect line before "…". */
const NAMES_SHOWN = 3;
/** Output lines of a successful file operation shown whole (warnings such as tar's "Removing leading '/'"). */
export const NARRATE_OUTPUT_LINES = 12;
/** Lines kept from each end when a successful operation printed more (a verbose unzip). */
const NARRATE_OUTPUT_EDGE = 4;

type Kind = 'file' | 'dir' | 'link' | 'other';

interface Snap {
  exists: boolean;
  kind?: Kind;
  /** Bytes of regular files (the whole tree for a directory). */
  size: number;
  files: number;
  dirs: number;
  mode?: number;
  uid?: number;
  gid?: number;
  mtimeMs?: number;
  ctimeMs?: number;
  ino?: number;
  truncated?: boolean;
}

function kindOf(st: Stats): Kind {
  return st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
}

const MISSING: Snap = { exists: false, size: 0, files: 0, dirs: 0 };

function snap(p: string): Snap {
  let st: Stats;
  try {
    st = lstatSync(p);
  } catch {
    return MISSING;
  }
  const s: Snap = { exists: true, kind: kindOf(st), size: st.isFile() ? st.size : 0, files: st.isDirectory() ? 0 : 1, dirs: 0, mode: st.mode & 0o7777, uid: st.uid, gid: st.gid, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino };
  if (st.isDirectory()) {
    const budget = { left: TREE_ENTRY_LIMIT };
    const t = tree(p, budget);
    s.size = t.size;
    s.files = t.files;
    s.dirs = t.dirs + 1;
    s.truncated = budget.left <= 0;
  }
  return s;
}

/** A path was written (created, replaced or its content changed) between two snapshots. */
function changed(b: Snap, a: Snap): boolean {
  if (!a.exists) return false;
  if (!b.exists) return true;
  return a.ino !== b.ino || a.ctimeMs !== b.ctimeMs || a.mtimeMs !== b.mtimeMs || a.size !== b.size || a.kind !== b.kind;
}

function tree(dir: string, budget: { left: number }): { size: number; files: number; dirs: number } {
  const acc = { size: 0, files: 0, dirs: 0 };
  for (const n of entryNames(dir)) {
    if (--budget.left <= 0) break;
    const p = path.join(dir, n);
    try {
      const st = lstatSync(p);
      if (st.isDirectory()) {
        acc.dirs++;
        const t = tree(p, budget);
        acc.size += t.size;
        acc.files += t.files;
        acc.dirs += t.dirs;
      } else {
        acc.files++;
        acc.size += st.isFile() ? st.size : 0;
      }
    } catch {
      // Vanished while walking.
    }
  }
  return acc;
}

interface IndexEntry {
  kind: Kind;
  size: number;
  ctimeMs: number;
  ino: number;
}

/** Every path under `root` (relative), for "what did the extraction write"; undefined when too large. */
function indexTree(root: string, exclude: string | undefined): Map<string, IndexEntry> | undefined {
  const out = new Map<string, IndexEntry>();
  let left = TREE_ENTRY_LIMIT;
  const walk = (dir: string, prefix: string): boolean => {
    for (const n of entryNames(dir)) {
      if (--left <= 0) return false;
      const p = path.join(dir, n);
      if (exclude && p === exclude) continue;
      try {
        const st = lstatSync(p);
        const kind = kindOf(st);
        out.set(prefix + n, { kind, size: st.isFile() ? st.size : 0, ctimeMs: st.ctimeMs, ino: st.ino });
        if (kind === 'dir' && !walk(p, `${prefix}${n}/`)) return false;
      } catch {
        // Vanished while walking.
      }
    }
    return true;
  };
  return walk(root, '') ? out : undefined;
}

/** `4.2KB`, `12KB`, `1.5MB` — one decimal below 10. */
export function humanSize(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${n}B` : `${v < 10 ? v.toFixed(1) : Math.round(v)}${units[u]}`;
}

function plural(n: number, w: string): string {
  return `${n} ${w}${n === 1 ? '' : 's'}`;
}

function names(list: string[]): string {
  return list.length <= NAMES_SHOWN ? list.join(', ') : `${list.slice(0, NAMES_SHOWN).join(', ')}, … (${list.length})`;
}

/** `3 files (12KB), 1 dir` (the form of seeds 000/001). */
function counted(files: number, dirs: number, size: number): string {
  const f = files || !dirs ? `${plural(files, 'file')}${size ? ` (${humanSize(size)})` : ''}` : '';
  return [f, dirs ? plural(dirs, 'dir') : ''].filter(Boolean).join(', ');
}

/** `25B`, `3 files, 12KB`, `2 files, 1 dir, 6B`: what a copy or a new entry holds. */
function brief(files: number, dirs: number, size: number): string {
  if (!dirs) return files <= 1 ? humanSize(size) : `${files} files, ${humanSize(size)}`;
  return `${plural(files, 'file')}, ${plural(dirs, 'dir')}, ${humanSize(size)}`;
}

/** Value flags of the narrated commands (their values are not paths). */
const VALUE_FLAGS: Record<string, string[]> = {
  cp: ['-t', '--target-directory', '-S', '--suffix'],
  mv: ['-t', '--target-directory', '-S', '--suffix'],
  ln: ['-t', '--target-directory', '-S', '--suffix'],
  install: ['-m', '--mode', '-o', '--owner', '-g', '--group', '-t', '--target-directory', '-S', '--suffix'],
  mkdir: ['-m', '--mode'],
  touch: ['-d', '--date', '-r', '--reference', '-t'],
  tar: ['-C', '--directory', '-f', '--file', '-T', '--files-from', '-X', '--exclude-from', '-b', '-H', '--format'],
  unzip: ['-d', '-x'],
  zip: ['-b', '-t', '-tt', '-x', '-i'],
  sed: ['-e', '--expression', '-f', '--file', '-l', '--line-length'],
  truncate: ['-s', '--size', '-r', '--reference', '-o'],
};

/** The value of a value flag (`-t dir`, `-tdir`, `--target-directory=dir`, `--target-directory dir`); last one wins. */
function flagValue(args: readonly string[], short: string | undefined, long: string | undefined): string | undefined {
  let v: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') break;
    if (long && a === long) v = args[++i];
    else if (long && a.startsWith(long + '=')) v = a.slice(long.length + 1);
    else if (short && a === short) v = args[++i];
    else if (short && a.startsWith(short) && !a.startsWith('--') && a.length > 2) v = a.slice(2);
  }
  return v;
}

type Op = 'remove' | 'copy' | 'link' | 'create' | 'perm' | 'extract' | 'archive' | 'other';

function opOf(name: string, args: readonly string[]): Op {
  switch (name) {
    case 'rm':
    case 'rmdir':
    case 'unlink':
      return 'remove';
    case 'cp':
    case 'mv':
    case 'install':
      return 'copy';
    case 'ln':
      return 'link';
    case 'mkdir':
    case 'touch':
      return 'create';
    case 'chmod':
    case 'chown':
    case 'chgrp':
      return 'perm';
    case 'unzip':
      return 'extract';
    case 'zip':
      return 'archive';
    case 'tar': {
      const f = tarFlags(args);
      if (hasFlag(f, '-x') || hasFlag(f, '--extract') || hasFlag(f, '--get')) return 'extract';
      if (hasFlag(f, '-c') || hasFlag(f, '--create') || hasFlag(f, '-r') || hasFlag(f, '--append') || hasFlag(f, '-u') || hasFlag(f, '--update')) return 'archive';
      return 'other';
    }
    default:
      return 'other';
  }
}

/** `tar xzf a.tgz` → `tar -xzf a.tgz` (the old bundled form). */
function tarFlags(args: readonly string[]): string[] {
  return args[0] && !args[0].startsWith('-') ? [`-${args[0]}`, ...args.slice(1)] : [...args];
}

/** tar's archive file: `-f x`, `-fx`, `--file=x`, or the bundled `cf x` / `-czf x` (f takes the next word). */
function tarArchive(args: readonly string[]): string | undefined {
  const a = tarFlags(args);
  for (let i = 0; i < a.length; i++) {
    const w = a[i];
    if (w === '--') break;
    if (w === '--file') return a[i + 1];
    if (w.startsWith('--file=')) return w.slice(7);
    if (/^-[A-Za-z]+$/.test(w) && w.includes('f')) {
      const at = w.indexOf('f');
      return at === w.length - 1 ? a[i + 1] : w.slice(at + 1);
    }
  }
  return undefined;
}

/** chmod modes that look like options (`chmod -x f`, `chmod -w,o+r f`). */
const CHMOD_OPTIONS = new Set(['-R', '-c', '-f', '-v', '--recursive', '--changes', '--silent', '--quiet', '--verbose', '--no-preserve-root', '--preserve-root', '-H', '-L', '-P', '-h', '--dereference', '--no-dereference']);

/** chmod/chown/chgrp: the paths they change (after the mode/owner word unless --reference gives it). */
function permTargets(name: string, args: readonly string[]): string[] {
  const out: string[] = [];
  let modeSeen = args.some((a) => a.startsWith('--reference'));
  let rest = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!rest && a === '--') {
      rest = true;
      continue;
    }
    if (!rest && a === '--reference') {
      i++;
      continue;
    }
    if (!rest && a.startsWith('-') && a.length > 1) {
      if (name === 'chmod' && !modeSeen && !CHMOD_OPTIONS.has(a) && /^-[rwxXstugoa=+,0-7-]+$/.test(a)) modeSeen = true;
      continue;
    }
    if (!modeSeen) modeSeen = true;
    else out.push(a);
  }
  return out;
}

interface Copy {
  src: string;
  /** Where it lands if the destination is (or becomes) a directory, and if not. */
  into: string;
  as: string;
}

interface Planned {
  seg: Segment;
  op: Op;
  /** Literal arguments, or undefined when the shell expands some (globs, variables). */
  args?: string[];
  pos: string[];
  copies: Copy[];
  dest?: string;
  /** Snapshots before the run, by absolute path. */
  before: Map<string, Snap>;
  /** Extraction or archive directory and what it held (undefined when too large to index). */
  root?: string;
  index?: Map<string, IndexEntry>;
  /** Listings of directories whose entries may appear or vanish (dynamic arguments, gzip). */
  dirs: Map<string, Set<string>>;
  exclude?: string;
}

function literalArgs(seg: Segment): string[] | undefined {
  const words = seg.command.words.slice(seg.command.argvStart);
  if (words.some((w) => !w.literal)) return undefined;
  return words.slice(1).map((w) => w.value);
}

function outputTargets(seg: Segment): { file: string; append: boolean }[] {
  return seg.command.redirects
    .filter((r) => writesStdoutToFile(r) && r.target)
    .map((r) => ({ file: r.target!, append: r.op.endsWith('>>') }));
}

function expandHome(p: string): string {
  return p === '~' ? (process.env.HOME ?? p) : p.startsWith('~/') ? path.join(process.env.HOME ?? '~', p.slice(2)) : p;
}

/** The literal directory part of a dynamic word (`build/*.o` → build, `"$D"/x` → undefined). */
function literalDir(text: string): string | undefined {
  const at = text.search(/[*?[$`{]/);
  const head = at < 0 ? text : text.slice(0, at);
  if (/["'\\]/.test(head)) return undefined;
  const slash = head.lastIndexOf('/');
  return slash < 0 ? '.' : head.slice(0, slash) || '/';
}

function plan(seg: Segment, cwd: string, exclude: string | undefined): Planned {
  const args = literalArgs(seg);
  const n = seg.name;
  const abs = (p: string) => path.resolve(cwd, expandHome(p));
  const op = opOf(n, args ?? seg.command.argv.slice(1));
  const pl: Planned = { seg, op, args, pos: [], copies: [], before: new Map(), dirs: new Map(), exclude };
  const watch = (p: string) => {
    if (!pl.before.has(p)) pl.before.set(p, snap(p));
  };
  const listDir = (d: string) => {
    if (!pl.dirs.has(d)) pl.dirs.set(d, listing(d, exclude));
  };
  if (args === undefined) {
    if (op === 'extract' && !seg.command.argv.some((a) => /^(-C|--directory|-d)$|^--directory=/.test(a))) {
      pl.root = cwd;
      pl.index = indexTree(cwd, exclude);
      if (pl.index) return pl;
    }
    // The shell expands these words: watch the directories they name instead.
    for (const w of seg.command.words.slice(seg.command.argvStart + 1)) {
      if (w.literal && w.value.startsWith('-')) continue;
      const d = w.literal ? path.dirname(abs(w.value)) : literalDir(w.text);
      if (d !== undefined) listDir(abs(d));
    }
    for (const t of outputTargets(seg)) watch(abs(t.file));
    return pl;
  }
  const pos = n === 'tar' ? positionals(tarFlags(args).slice(args[0] && !args[0].startsWith('-') ? 1 : 0), VALUE_FLAGS.tar) : positionals(args, VALUE_FLAGS[n] ?? []);
  pl.pos = pos;
  if (op === 'copy' || op === 'link') {
    const target = flagValue(args, '-t', '--target-directory');
    const srcs = target !== undefined ? pos : pos.slice(0, -1);
    const dest = target ?? (pos.length >= 2 ? pos[pos.length - 1] : undefined);
    if (dest !== undefined && srcs.length) {
      pl.dest = dest;
      const d = abs(dest);
      for (const s of srcs) {
        const c = { src: s, into: path.join(d, path.basename(s)), as: d };
        pl.copies.push(c);
        watch(abs(s));
        watch(c.into);
        watch(c.as);
      }
    } else if (op === 'link' && pos.length === 1) {
      // `ln -s ../x` makes ./x.
      const c = { src: pos[0], into: abs(path.basename(pos[0])), as: abs(path.basename(pos[0])) };
      pl.dest = '.';
      pl.copies.push(c);
      watch(c.into);
    }
  } else if (op === 'perm') {
    for (const p of permTargets(n, args)) watch(abs(p));
  } else if (op === 'extract') {
    const into = n === 'tar' ? flagValue(tarFlags(args), '-C', '--directory') : flagValue(args, '-d', undefined);
    pl.root = abs(into ?? '.');
    pl.index = indexTree(pl.root, exclude);
    if (!pl.index) listDir(pl.root);
  } else if (op === 'archive') {
    const file = n === 'tar' ? tarArchive(args) : pos[0];
    if (file !== undefined && file !== '-') {
      const withExt = n === 'zip' && !path.extname(file) ? `${file}.zip` : file;
      pl.dest = withExt;
      watch(abs(withExt));
    }
  } else {
    for (const p of pos) watch(abs(p));
    if (['gzip', 'gunzip', 'xz', 'unxz', 'zstd', 'unzstd', 'bunzip2', 'bzip2'].includes(n)) for (const p of pos) listDir(path.dirname(abs(p)));
  }
  for (const t of outputTargets(seg)) watch(abs(t.file));
  return pl;
}

function listing(dir: string, exclude?: string): Set<string> {
  return new Set(entryNames(dir).filter((e) => !exclude || path.join(dir, e) !== exclude));
}

function rel(p: string, cwd: string): string {
  const r = path.relative(cwd, p);
  return r === '' ? '.' : r.startsWith('..') ? p : r;
}

function modeStr(m?: number): string {
  return m === undefined ? '?' : m.toString(8).padStart(3, '0');
}

/** uid/gid → name from /etc/passwd and /etc/group (read once); the number when unknown. */
const idNames: { user?: Map<number, string>; group?: Map<number, string> } = {};
function idName(kind: 'user' | 'group', id: number | undefined): string {
  if (id === undefined) return '?';
  let m = idNames[kind];
  if (!m) {
    m = new Map();
    try {
      for (const l of readFileSync(kind === 'user' ? '/etc/passwd' : '/etc/group', 'utf8').split('\n')) {
        const f = l.split(':');
        if (f.length >= 3 && /^\d+$/.test(f[2]) && !m.has(Number(f[2]))) m.set(Number(f[2]), f[0]);
      }
    } catch {
      // No account database: numbers it is.
    }
    idNames[kind] = m;
  }
  return m.get(id) ?? String(id);
}

function owner(s: Snap): string {
  return `${idName('user', s.uid)}:${idName('group', s.gid)}`;
}

/**
 * Where the command sits in its line: snapshots are of the whole line, so what it made may be
 * gone by the end (`touch f && mv f g`: a command `after` it), and what it removed may not have
 * been there at the start (`mkdir d && rmdir d`: a command `before` it).
 */
interface LinePosition {
  before: boolean;
  after: boolean;
}

function describe(pl: Planned, cwd: string, exitCode: number, inLine: LinePosition): string[] {
  const { seg, args, pos, op } = pl;
  const n = seg.name;
  const failed = exitCode !== 0;
  const after = (p: string) => snap(p);
  const abs = (p: string) => path.resolve(cwd, expandHome(p));
  const out: string[] = [];
  const bad = (s: string) => out.push(`✗ ${n}: ${s}`);

  if (args !== undefined && op === 'remove') {
    let files = 0, dirs = 0, size = 0;
    const kept: string[] = [], missing: string[] = [], madeInLine: string[] = [];
    const force = hasFlag(args, '-f') || hasFlag(args, '--force');
    for (const p of pos) {
      const b = pl.before.get(abs(p))!;
      if (!b.exists) {
        // Without -f a missing path fails the command: the line succeeded, so an earlier command made it.
        if (!failed && inLine.before && !force && !after(abs(p)).exists) madeInLine.push(p);
        else missing.push(p);
        continue;
      }
      if (!after(abs(p)).exists) {
        files += b.files;
        dirs += b.dirs;
        size += b.size;
      } else kept.push(p);
    }
    if (files + dirs) out.push(`→ ${n}: ${counted(files, dirs, size)}`);
    if (madeInLine.length) out.push(`→ ${n}: removed ${names(madeInLine)} (made earlier in the line)`);
    if (files + dirs === 0 && !madeInLine.length) {
      if (!failed && !kept.length) out.push(`→ ${n}: nothing to remove`);
      else if (kept.length || !missing.length) bad('nothing removed');
    }
    if (kept.length) bad(`still there: ${names(kept)}`);
    if (missing.length && !force) bad(`did not exist: ${names(missing)}`);
    return out;
  }

  if (args !== undefined && (op === 'copy' || op === 'link') && pl.copies.length) {
    const done: { c: Copy; at: string; snap: Snap }[] = [];
    const notDone: string[] = [];
    for (const c of pl.copies) {
      const into = after(c.into), as = after(c.as);
      // `cp -r dir new` lands as `new` (a directory that did not exist); `cp f dir/` lands inside.
      const at = changed(pl.before.get(c.into)!, into) ? c.into : c.as !== abs(c.src) && changed(pl.before.get(c.as)!, as) && !(as.kind === 'dir' && pl.before.get(c.as)!.kind === 'dir') ? c.as : undefined;
      if (at) done.push({ c, at, snap: at === c.into ? into : as });
      else notDone.push(c.src);
    }
    const verb = op === 'link' ? (hasFlag(args, '-s') || hasFlag(args, '--symbolic') ? 'symlink' : 'hard link') : '';
    if (done.length) {
      if (op === 'link') {
        for (const d of done.slice(0, NAMES_SHOWN)) out.push(`→ ln: ${rel(d.at, cwd)} → ${d.c.src} (${verb})`);
        if (done.length > NAMES_SHOWN) out.push(`→ ln: … ${done.length - NAMES_SHOWN} more ${verb}s in ${pl.dest}`);
      } else {
        const size = done.reduce((t, d) => t + d.snap.size, 0);
        const landed = done.reduce((t, d) => ({ files: t.files + d.snap.files, dirs: t.dirs + d.snap.dirs }), { files: 0, dirs: 0 });
        const srcSnaps = done.map((d) => (n === 'mv' ? pl.before.get(abs(d.c.src))! : after(d.at)));
        const what = done.length === 1 ? done[0].c.src : `${done.length} ${srcSnaps.every((s) => s.kind === 'file') ? 'files' : 'items'}`;
        const into = done.length === 1 && done[0].at === done[0].c.as ? pl.dest! : pl.dest!.endsWith('/') ? pl.dest! : `${pl.dest}/`;
        out.push(`→ ${n}: ${what} → ${into} (${landed.dirs ? brief(landed.files, landed.dirs, size) : humanSize(size)})`);
      }
    }
    if (notDone.length) {
      if (!done.length && pl.copies.length === 1) bad(op === 'link' ? `${pl.dest} → ${notDone[0]} not created` : `${notDone[0]} → ${pl.dest} (nothing written)`);
      else bad(`${op === 'link' ? 'not linked' : n === 'mv' ? 'not moved' : 'not copied'}: ${names(notDone)}`);
    }
    return out;
  }

  if (args !== undefined && op === 'create') {
    const created: string[] = [], updated: string[] = [], notDone: string[] = [];
    // `touch -c` creates nothing, so a path it did not find is still "not touched".
    const noCreate = n === 'touch' && args.some((a) => a === '--no-create' || /^-[a-zA-Z]*c/.test(a));
    for (const p of pos) {
      const b = pl.before.get(abs(p))!, a = after(abs(p));
      if (!b.exists && a.exists) created.push(p);
      else if (a.exists && changed(b, a)) updated.push(p);
      // Missing after a line that succeeded: made, then moved or removed by a later command (narrated on its own).
      else if (!b.exists && !failed && inLine.after && !noCreate) created.push(p);
      else notDone.push(p);
    }
    if (created.length) out.push(`→ ${n}: created ${names(created)}`);
    if (updated.length) out.push(`→ ${n}: updated ${names(updated)}`);
    if (notDone.length && (failed || n === 'touch')) bad(`${n === 'mkdir' ? 'not created' : 'not touched'}: ${names(notDone)}`);
    else if (notDone.length) out.push(`→ ${n}: already there: ${names(notDone)}`);
    return out;
  }

  if (args !== undefined && op === 'perm') {
    const targets = permTargets(n, args);
    const unchanged: string[] = [], missing: string[] = [];
    for (const p of targets) {
      const b = pl.before.get(abs(p))!, a = after(abs(p));
      if (!b.exists) {
        missing.push(p);
        continue;
      }
      const recursive = a.kind === 'dir' && (hasFlag(args, '-R') || hasFlag(args, '--recursive')) ? ` (recursive: ${counted(a.files, a.dirs, 0)})` : '';
      if (n === 'chmod') {
        if (a.mode === b.mode && !recursive) unchanged.push(p);
        else out.push(`→ chmod: ${p} ${modeStr(b.mode)} → ${modeStr(a.mode)}${recursive}`);
      } else if (owner(a) === owner(b) && !recursive) unchanged.push(p);
      else out.push(`→ ${n}: ${p} ${owner(b)} → ${owner(a)}${recursive}`);
    }
    if (unchanged.length) out.push(`→ ${n}: unchanged: ${names(unchanged.map((p) => `${p} (${n === 'chmod' ? modeStr(after(abs(p)).mode) : owner(after(abs(p)))})`))}`);
    if (missing.length) bad(`did not exist: ${names(missing)}`);
    if (!out.length) out.push(failed ? `✗ ${n}: nothing changed` : `→ ${n}: nothing to change`);
    return out;
  }

  if (op === 'extract' && pl.root && pl.index) {
    const now = indexTree(pl.root, pl.exclude);
    if (now) {
      const created: string[] = [], overwritten: string[] = [];
      let files = 0, dirs = 0, size = 0, oSize = 0;
      for (const [p, e] of now) {
        const b = pl.index.get(p);
        if (!b) {
          created.push(p);
          if (e.kind === 'dir') dirs++;
          else files++;
          size += e.size;
        } else if (e.kind !== 'dir' && (b.ino !== e.ino || b.ctimeMs !== e.ctimeMs || b.size !== e.size)) {
          overwritten.push(p);
          oSize += e.size;
        }
      }
      const where = `${rel(pl.root, cwd)}/`.replace(/^\.\/$/, './');
      const tops = [...new Set(created.map((p) => (p.includes('/') ? `${p.slice(0, p.indexOf('/'))}/` : now.get(p)!.kind === 'dir' ? `${p}/` : p)))];
      if (created.length) out.push(`→ ${n}: extracted ${counted(files, dirs, size)} into ${where}: ${names(tops)}`);
      if (overwritten.length) out.push(`→ ${n}: overwrote ${plural(overwritten.length, 'file')}${oSize ? ` (${humanSize(oSize)})` : ''} in ${where}: ${names(overwritten)}`);
      if (!out.length) out.push(failed ? `✗ ${n}: nothing extracted` : `→ ${n}: nothing new (every entry already there, unchanged)`);
      return out;
    }
  }

  if (op === 'archive' && pl.dest !== undefined) {
    const b = pl.before.get(abs(pl.dest))!, a = after(abs(pl.dest));
    if (changed(b, a)) out.push(`→ ${n}: ${b.exists ? 'updated' : 'created'} ${pl.dest} (${humanSize(a.size)}${b.exists ? `, was ${humanSize(b.size)}` : ''})`);
    else bad(`${pl.dest} ${b.exists ? 'not updated' : 'not created'}`);
    return out;
  }

  // Redirections (`cat a > b`), dynamic arguments and everything else: what appeared, changed or vanished.
  for (const t of outputTargets(seg)) {
    const a = after(abs(t.file));
    const b = pl.before.get(abs(t.file))!;
    if (!a.exists || !changed(b, a)) continue;
    // `>>` to an existing file: what was added, then the new size (the size alone read as the amount appended).
    if (t.append && b.exists && a.size >= b.size) out.push(`→ appended ${humanSize(a.size - b.size)} to ${t.file} (now ${humanSize(a.size)})`);
    else out.push(`→ wrote ${t.file} (${humanSize(a.size)})`);
  }
  for (const [dir, beforeNames] of pl.dirs) {
    const now = listing(dir, pl.exclude);
    const added = [...now].filter((x) => !beforeNames.has(x));
    const removed = [...beforeNames].filter((x) => !now.has(x));
    const where = `${rel(dir, cwd)}/`.replace(/^\.\/$/, './');
    if (added.length) {
      const s = added.map((x) => snap(path.join(dir, x)));
      out.push(`→ ${n}: new in ${where}: ${names(added)} (${brief(s.reduce((t, x) => t + x.files, 0), s.reduce((t, x) => t + x.dirs, 0), s.reduce((t, x) => t + x.size, 0))})`);
    }
    if (removed.length) out.push(`→ ${n}: removed from ${where}: ${names(removed)}`);
  }
  const redirected = new Set(outputTargets(seg).map((t) => abs(t.file)));
  for (const [w, b] of pl.before) {
    if (redirected.has(w)) continue;
    const a = after(w);
    if (b.exists && a.exists && changed(b, a)) out.push(`→ ${n}: modified ${rel(w, cwd)} (${humanSize(b.size)} → ${humanSize(a.size)})`);
  }
  if (!out.length) out.push(failed ? `✗ ${n}: nothing changed` : `→ ${n}: done, no file changes seen`);
  return out;
}

/**
 * A successful operation's own output (warnings, `-v` listings): whole when short, else head +
 * tail with CUT_PLACEHOLDER where the cut is (each host renders the marker, naming the raw
 * output its own way: core/format/render.ts).
 */
function keptOutput(output: string): { output: string; cut?: NarrateCut } {
  const lines = output.replace(/\n$/, '').split('\n');
  if (lines.length <= NARRATE_OUTPUT_LINES) return { output };
  const head = lines.slice(0, NARRATE_OUTPUT_EDGE), tail = lines.slice(-NARRATE_OUTPUT_EDGE);
  const cut = { fromLine: NARRATE_OUTPUT_EDGE + 1, toLine: lines.length - NARRATE_OUTPUT_EDGE, omittedLines: lines.length - 2 * NARRATE_OUTPUT_EDGE, totalLines: lines.length };
  return { output: [...head, CUT_PLACEHOLDER, ...tail].join('\n') + '\n', cut };
}

export async function runNarrate(ctx: HandlerContext, command: string, segments: Segment[]): Promise<{ report: Report; facts: Omit<RunFacts, 'enrichment'>; text: string }> {
  const exclude = ctx.spool?.dir;
  const plans = segments.filter((s) => s.name !== '').map((s) => plan(s, ctx.cwd, exclude));
  const c = await capture(ctx, command);
  const output = stripEscapes(fromTerminal(c.bytes.toString('utf8')));
  const effects = plans.flatMap((p, i) => describe(p, ctx.cwd, c.exitCode, { before: i > 0, after: i < plans.length - 1 }));
  const shown = c.exitCode !== 0 || output.trim() === '' ? { output } : keptOutput(output);
  return { report: { category: 'narrate', effects, output: shown.output, ...(shown.cut ? { cut: shown.cut } : {}) }, facts: c, text: output };
}

/**
 * Narrate: file operations print nothing on success, so we stat what they touch before and
 * after and say what happened, one line per effect (`→ cp: file → backup/ (4.2KB)`,
 * `→ rm: 3 files (12KB), 1 dir`). On failure the program's own message is kept and the effect
 * lines say what did and did not happen.
 */
import { lstatSync, readdirSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { Segment } from '../router/categorize.js';
import { hasFlag, positionals } from '../router/meta.js';
import { capture, fromTerminal, stripEscapes } from './run.js';
import type { HandlerContext, Report, RunFacts } from './types.js';

/** Entries counted when measuring a directory tree; beyond this the size is reported as "≥". */
const TREE_ENTRY_LIMIT = 20_000;
/** Names listed in one effect line before "…". */
const NAMES_SHOWN = 3;

interface Snap {
  exists: boolean;
  kind?: 'file' | 'dir' | 'link' | 'other';
  size: number;
  files: number;
  dirs: number;
  mode?: number;
  uid?: number;
  gid?: number;
  mtimeMs?: number;
  linkTarget?: string;
  truncated?: boolean;
}

function kindOf(st: Stats): Snap['kind'] {
  return st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other';
}

function snap(p: string): Snap {
  let st: Stats;
  try {
    st = lstatSync(p);
  } catch {
    return { exists: false, size: 0, files: 0, dirs: 0 };
  }
  const s: Snap = { exists: true, kind: kindOf(st), size: st.isFile() ? st.size : 0, files: st.isFile() ? 1 : 0, dirs: 0, mode: st.mode & 0o7777, uid: st.uid, gid: st.gid, mtimeMs: st.mtimeMs };
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

function tree(dir: string, budget: { left: number }): { size: number; files: number; dirs: number } {
  const acc = { size: 0, files: 0, dirs: 0 };
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return acc;
  }
  for (const n of names) {
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

/** Value flags of the narrated commands (their values are not paths). */
const VALUE_FLAGS: Record<string, string[]> = {
  cp: ['-t', '--target-directory', '-S', '--suffix'],
  mv: ['-t', '--target-directory', '-S', '--suffix'],
  ln: ['-t', '--target-directory', '-S', '--suffix'],
  install: ['-m', '--mode', '-o', '--owner', '-g', '--group', '-t', '--target-directory'],
  mkdir: ['-m', '--mode'],
  touch: ['-d', '--date', '-r', '--reference', '-t'],
  tar: ['-C', '--directory', '-f', '--file'],
  unzip: ['-d', '-x'],
  sed: ['-e', '--expression', '-f', '--file'],
  truncate: ['-s', '--size', '-r', '--reference'],
};

interface Planned {
  seg: Segment;
  /** Paths watched, resolved against cwd. */
  watch: string[];
  before: Map<string, Snap>;
  /** Directory listings for "what appeared here" (extraction, compression). */
  dirs: Map<string, Set<string>>;
}

function literalArgs(seg: Segment): string[] | undefined {
  const words = seg.command.words.slice(seg.command.argvStart);
  if (words.some((w) => !w.literal)) return undefined;
  return words.slice(1).map((w) => w.value);
}

function outputTargets(seg: Segment): { file: string; append: boolean }[] {
  return seg.command.redirects
    .filter((r) => (r.op === '>' || r.op === '>>' || r.op === '>|' || r.op === '&>' || r.op === '&>>') && (r.fd === undefined || r.fd === 1) && r.target)
    .map((r) => ({ file: r.target!, append: r.op.endsWith('>>') }));
}

function plan(seg: Segment, cwd: string): Planned {
  const args = literalArgs(seg) ?? [];
  const pos = positionals(args, VALUE_FLAGS[seg.name] ?? []);
  const abs = (p: string) => path.resolve(cwd, p.startsWith('~/') ? path.join(process.env.HOME ?? '~', p.slice(2)) : p);
  let watch = pos.map(abs);
  if (seg.name === 'chmod' || seg.name === 'chown' || seg.name === 'chgrp') watch = pos.slice(1).map(abs);
  if ((seg.name === 'cp' || seg.name === 'mv' || seg.name === 'ln') && pos.length >= 2) {
    const dest = abs(pos[pos.length - 1]);
    // Where the copies will land: into the directory, or as the destination itself.
    const destIsDir = snap(dest).kind === 'dir';
    watch.push(...pos.slice(0, -1).map((s) => (destIsDir ? path.join(dest, path.basename(s)) : dest)));
  }
  for (const t of outputTargets(seg)) watch.push(abs(t.file));
  const dirs = new Map<string, Set<string>>();
  if (['tar', 'unzip', 'gzip', 'gunzip', 'xz', 'unxz', 'zstd', 'bunzip2', 'zip'].includes(seg.name)) {
    const cIdx = args.findIndex((a) => a === '-C' || a === '--directory' || a === '-d');
    const into = cIdx >= 0 && args[cIdx + 1] ? abs(args[cIdx + 1]) : cwd;
    for (const d of new Set([into, ...watch.map((w) => path.dirname(w))])) dirs.set(d, listing(d));
  }
  const before = new Map<string, Snap>();
  for (const w of new Set(watch)) before.set(w, snap(w));
  return { seg, watch: [...new Set(watch)], before, dirs };
}

function listing(dir: string): Set<string> {
  try {
    return new Set(readdirSync(dir));
  } catch {
    return new Set();
  }
}

function rel(p: string, cwd: string): string {
  const r = path.relative(cwd, p);
  return r === '' ? '.' : r.startsWith('..') ? p : r;
}

function modeStr(m?: number): string {
  return m === undefined ? '?' : m.toString(8).padStart(3, '0');
}

function describe(pl: Planned, cwd: string, exitCode: number): string[] {
  const { seg } = pl;
  const after = new Map(pl.watch.map((w) => [w, snap(w)] as const));
  const args = literalArgs(seg);
  const out: string[] = [];
  const n = seg.name;
  const failed = exitCode !== 0;
  if (args === undefined) return [`→ ${n}: ran (arguments are expanded by the shell; effects not traced)`];
  const pos = positionals(args, VALUE_FLAGS[n] ?? []);
  const res = (p: string) => path.resolve(cwd, p);
  if (n === 'rm' || n === 'rmdir' || n === 'unlink') {
    let files = 0, dirs = 0, size = 0;
    const kept: string[] = [];
    for (const p of pos.map(res)) {
      const b = pl.before.get(p)!, a = after.get(p)!;
      if (b.exists && !a.exists) {
        files += b.files + (b.kind === 'link' || b.kind === 'other' ? 1 : 0);
        dirs += b.dirs;
        size += b.size;
      } else if (b.exists) kept.push(rel(p, cwd));
    }
    const parts = [files || !dirs ? `${plural(files, 'file')}${size ? ` (${humanSize(size)})` : ''}` : '', dirs ? plural(dirs, 'dir') : ''].filter(Boolean);
    out.push(`→ ${n}: ${parts.join(', ')}${files + dirs === 0 ? ' removed' : ''}`);
    if (kept.length) out.push(`✗ ${n}: still there: ${names(kept)}`);
    const missing = pos.filter((p) => !pl.before.get(res(p))!.exists);
    if (missing.length && !hasFlag(args, '-f')) out.push(`✗ ${n}: did not exist: ${names(missing)}`);
    return out;
  }
  if ((n === 'cp' || n === 'mv' || n === 'ln' || n === 'install') && pos.length >= 2) {
    const dest = pos[pos.length - 1];
    const srcs = pos.slice(0, -1);
    const before = srcs.map((s) => snap(res(s)));
    const srcSnaps = n === 'mv' ? srcs.map((s) => pl.before.get(res(s)) ?? snap(res(s))) : before;
    const landed = pl.watch.filter((w) => {
      const a = after.get(w), b = pl.before.get(w);
      return !srcs.map(res).includes(w) && a?.exists && (!b?.exists || a.mtimeMs !== b.mtimeMs || a.size !== b.size);
    });
    const size = landed.reduce((t, w) => t + (after.get(w)?.size ?? 0), 0) || srcSnaps.reduce((t, s) => t + s.size, 0);
    const what = srcs.length === 1 ? srcs[0] : `${srcs.length} ${srcSnaps.every((s) => s.kind === 'file') ? 'files' : 'items'}`;
    if (n === 'ln') out.push(`→ ln: ${dest} → ${srcs.join(', ')}${hasFlag(args, '-s') ? ' (symlink)' : ''}`);
    else out.push(`${failed && landed.length === 0 ? '✗' : '→'} ${n}: ${what} → ${dest}${landed.length || !failed ? ` (${humanSize(size)})` : ' (nothing written)'}`);
    return out;
  }
  if (n === 'mkdir' || n === 'touch' || n === 'truncate') {
    const created: string[] = [], updated: string[] = [];
    for (const p of pos) {
      const b = pl.before.get(res(p))!, a = after.get(res(p))!;
      if (!b.exists && a.exists) created.push(p);
      else if (a.exists && (a.mtimeMs !== b.mtimeMs || a.size !== b.size)) updated.push(p);
    }
    if (created.length) out.push(`→ ${n}: created ${names(created)}`);
    if (updated.length) out.push(`→ ${n}: updated ${names(updated)}`);
    if (!created.length && !updated.length) out.push(`→ ${n}: no change${failed ? '' : ` (${names(pos)} already there)`}`);
    return out;
  }
  if (n === 'chmod' || n === 'chown' || n === 'chgrp') {
    for (const p of pos.slice(1)) {
      const b = pl.before.get(res(p))!, a = after.get(res(p))!;
      if (!b.exists) continue;
      if (n === 'chmod') out.push(`→ chmod: ${p} ${modeStr(b.mode)} → ${modeStr(a.mode)}${a.kind === 'dir' && hasFlag(args, '-R') ? ` (recursive, ${plural(a.files, 'file')})` : ''}`);
      else out.push(`→ ${n}: ${p} ${b.uid}:${b.gid} → ${a.uid}:${a.gid}`);
    }
    return out.length ? out : [`→ ${n}: no change`];
  }
  // Redirections (`cat a > b`) and everything else: what appeared, changed or vanished.
  for (const t of outputTargets(seg)) {
    const a = after.get(res(t.file));
    if (a?.exists) out.push(`→ ${t.append ? 'appended to' : 'wrote'} ${t.file} (${humanSize(a.size)})`);
  }
  for (const [dir, beforeNames] of pl.dirs) {
    const now = listing(dir);
    const added = [...now].filter((x) => !beforeNames.has(x));
    const removed = [...beforeNames].filter((x) => !now.has(x));
    if (added.length) {
      const s = added.map((x) => snap(path.join(dir, x)));
      out.push(`→ ${n}: ${names(added)} in ${rel(dir, cwd)}/ (${plural(s.reduce((t, x) => t + x.files, 0), 'file')}, ${humanSize(s.reduce((t, x) => t + x.size, 0))})`);
    }
    if (removed.length) out.push(`→ ${n}: removed ${names(removed)} from ${rel(dir, cwd)}/`);
  }
  for (const w of pl.watch) {
    const b = pl.before.get(w)!, a = after.get(w)!;
    if (outputTargets(seg).some((t) => res(t.file) === w)) continue;
    if (b.exists && a.exists && (a.mtimeMs !== b.mtimeMs || a.size !== b.size)) out.push(`→ ${n}: modified ${rel(w, cwd)} (${humanSize(b.size)} → ${humanSize(a.size)})`);
  }
  if (!out.length) out.push(`→ ${n}: ${failed ? 'nothing changed' : 'done, no file changes seen'}`);
  return out;
}

export async function runNarrate(ctx: HandlerContext, command: string, segments: Segment[]): Promise<{ report: Report; facts: Omit<RunFacts, 'enrichment'>; text: string }> {
  const plans = segments.filter((s) => s.name !== '').map((s) => plan(s, ctx.cwd));
  const c = await capture(ctx, command);
  const output = stripEscapes(fromTerminal(c.bytes.toString('utf8')));
  const effects = plans.flatMap((p) => describe(p, ctx.cwd, c.exitCode));
  return { report: { category: 'narrate', effects, output }, facts: c, text: output };
}

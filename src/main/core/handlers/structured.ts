/**
 * Structured: git status / log / branch, docker ps / images, kubectl get. When the user chose
 * no output format we add a machine-readable one (`--porcelain`, `--format`), parse it and
 * print a compact form. When they chose one (`git status -s`, `git log --oneline`), their
 * output is shown as written. Flags are inserted right after the subcommand word and only
 * change how the result is printed, never what the command does.
 */
import type { Segment } from '../router/categorize.js';
import { compactPaths } from '../compact/path-list.js';
import { pathNotation, worth } from './list-view.js';
import { hasFlag, positionals } from '../router/meta.js';
import { capture, fromTerminal, stripEscapes } from './run.js';
import type { HandlerContext, Report, RunFacts } from './types.js';

/** Log entries shown; the rest are counted (the full log is in the spool). */
export const LOG_ENTRIES_SHOWN = 30;
/** Paths listed inline (`staged: A c, M d`) per status group; more are listed in the compact path notation. */
export const STATUS_PATHS_INLINE = 8;
/**
 * Paths a status group lists at most (every one, compacted, below this); past it the compact
 * list is cut head + tail with an exact count (the reply cap: the whole status is in the spool).
 */
export const STATUS_PATHS_MAX = 2000;

interface Shape {
  kind: string;
  /** Flags inserted after the subcommand. */
  inject: string[];
  /** The user already chose a format with one of these. */
  userFormat: string[];
  /** A name after the subcommand makes it act (`git branch feat` creates) unless a listing flag is given. */
  listsOnlyWithout?: { listFlags: string[] };
  parse(out: string): string[];
}

/** git's global options that take a value (`git -C repo branch`). */
const GIT_GLOBAL_VALUE_FLAGS = ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--config-env'];

const US = '\x1f'; // unit separator: cannot appear in refs, hashes or dates

/** One JSON object per container/image; fixtures/structured/docker-*.raw are recorded with exactly these flags. */
export const DOCKER_JSON_FORMAT = ['--format', '{{json .}}'];

const SHAPES: Record<string, Shape> = {
  'git status': { kind: 'git-status', inject: ['--porcelain=v1', '--branch'], userFormat: ['-s', '--short', '--porcelain', '-z', '--long'], parse: parseGitStatus },
  'git log': { kind: 'git-log', inject: [`--format=%h${US}%an${US}%ar${US}%d${US}%s`], userFormat: ['--format', '--pretty', '--oneline', '-z', '--graph'], parse: parseGitLog },
  'git branch': { kind: 'git-branch', inject: [`--format=%(HEAD)${US}%(refname:short)${US}%(upstream:short)${US}%(upstream:track)${US}%(objectname:short)`], userFormat: ['--format', '-v', '-vv', '--verbose', '-d', '-D', '-m', '-M', '-c', '-C', '--delete', '--move', '--copy', '--set-upstream-to', '-u', '--unset-upstream', '--edit-description', '--show-current'], listsOnlyWithout: { listFlags: ['-l', '--list', '-a', '--all', '-r', '--remotes', '--contains', '--no-contains', '--merged', '--no-merged', '--points-at'] }, parse: parseGitBranch },
  'docker ps': { kind: 'docker-ps', inject: DOCKER_JSON_FORMAT, userFormat: ['--format', '-q', '--quiet'], parse: parseDockerPs },
  'docker images': { kind: 'docker-images', inject: DOCKER_JSON_FORMAT, userFormat: ['--format', '-q', '--quiet'], parse: parseDockerImages },
  'kubectl get': { kind: 'kubectl-get', inject: [], userFormat: ['-o', '--output'], parse: compactTable },
};

function shapeOf(seg: Segment): Shape | undefined {
  return SHAPES[`${seg.name} ${seg.subcommand ?? ''}`];
}

/** The command line with format flags inserted after the subcommand, or undefined to run it as written. */
export function structuredCommand(source: string, seg: Segment): { command: string; shape?: Shape } {
  const shape = shapeOf(seg);
  if (!shape) return { command: source };
  const args = seg.command.argv.slice(1);
  if (shape.userFormat.some((f) => hasFlag(args, f))) return { command: source };
  if (shape.listsOnlyWithout && positionals(args, GIT_GLOBAL_VALUE_FLAGS).length > 1 && !shape.listsOnlyWithout.listFlags.some((f) => hasFlag(args, f))) return { command: source };
  if (!shape.inject.length) return { command: source, shape };
  const sub = seg.command.words.slice(seg.command.argvStart + 1).find((w) => w.value === seg.subcommand && w.literal);
  if (!sub) return { command: source };
  const quoted = shape.inject.map((f) => `'${f.replace(/'/g, `'\\''`)}'`).join(' ');
  return { command: `${source.slice(0, sub.end)} ${quoted}${source.slice(sub.end)}`, shape };
}

export async function runStructured(ctx: HandlerContext, source: string, seg: Segment): Promise<{ report: Report; facts: Omit<RunFacts, 'enrichment'>; text: string; ran: string }> {
  const { command, shape } = structuredCommand(source, seg);
  const c = await capture(ctx, command);
  const text = stripEscapes(fromTerminal(c.bytes.toString('utf8')));
  if (!shape || c.exitCode !== 0) return { report: { category: 'structured', kind: 'as-written', lines: [], output: text }, facts: c, text, ran: command };
  return { report: { category: 'structured', kind: shape.kind, lines: shape.parse(text) }, facts: c, text, ran: command };
}

/**
 * One status group: inline when short; else every path, one a line, or in the compact path
 * notation (compact/path-list.ts) when that is worth it with its explaining line counted (a
 * few files in one directory are not), one sub-group per status letter for staged/modified
 * (`M`, `A`, `D`, `R`); past STATUS_PATHS_MAX, head + tail with an exact count. Compact text
 * goes to `notation` too: the status explains the notation once, for all its groups.
 */
function listed(label: string, items: string[], notation: string[], lettered = false): string[] {
  if (!items.length) return [];
  if (items.length <= STATUS_PATHS_INLINE) return [`${label} ${items.join(', ')}`];
  const byLetter = new Map<string, string[]>();
  for (const it of items) {
    const key = lettered ? it.slice(0, 1) : '';
    const list = byLetter.get(key) ?? [];
    list.push(lettered ? it.slice(2) : it);
    byLetter.set(key, list);
  }
  const plain: string[] = [];
  const compact: string[] = [];
  const compacted: string[] = [];
  for (const [letter, paths] of byLetter) {
    const cut = Math.max(0, paths.length - STATUS_PATHS_MAX);
    const indent = letter ? '    ' : '  ';
    if (letter) {
      plain.push(`  ${letter}:`);
      compact.push(`  ${letter}:`);
    }
    const head = cut ? paths.slice(0, STATUS_PATHS_MAX / 2) : paths;
    const tail = cut ? paths.slice(paths.length - STATUS_PATHS_MAX / 2) : [];
    const more = cut ? [`${indent}[... ${cut} more paths not shown: see the raw output ...]`] : [];
    plain.push(...head.map((p) => indent + p), ...more, ...tail.map((p) => indent + p));
    const c = [compactPaths(head), ...(tail.length ? [compactPaths(tail)] : [])];
    compacted.push(...c);
    compact.push(...c[0].split('\n').map((l) => indent + l), ...more, ...(c[1] ? c[1].split('\n').map((l) => indent + l) : []));
  }
  const explained = `[paths compacted: ${pathNotation(compacted.join('\n'))}]`;
  if (!worth([explained, ...compact].join('\n'), plain.join('\n'))) return [`${label.trimEnd()} (${items.length})`, ...plain];
  notation.push(...compacted);
  return [`${label.trimEnd()} (${items.length}, compacted)`, ...compact];
}

/** `git status --porcelain=v1 --branch` → branch line + grouped paths. */
export function parseGitStatus(out: string): string[] {
  const lines = out.split('\n').filter((l) => l !== '');
  let branch = '';
  const staged: string[] = [], modified: string[] = [], untracked: string[] = [], conflicts: string[] = [];
  for (const l of lines) {
    if (l.startsWith('## ')) {
      branch = l.slice(3).replace(/^No commits yet on /, '').replace('...', ' → ');
      continue;
    }
    const x = l[0], y = l[1], p = l.slice(3);
    if (x === '?' && y === '?') untracked.push(p);
    else if (x === 'U' || y === 'U' || (x === 'A' && y === 'A') || (x === 'D' && y === 'D')) conflicts.push(p);
    else {
      if (x !== ' ') staged.push(`${x} ${p}`);
      if (y !== ' ') modified.push(`${y} ${p}`);
    }
  }
  const counts = [staged.length && `${staged.length} staged`, modified.length && `${modified.length} modified`, untracked.length && `${untracked.length} untracked`, conflicts.length && `${conflicts.length} conflicted`].filter(Boolean);
  const notation: string[] = [];
  const groups = [...listed('conflicts:', conflicts, notation), ...listed('staged:   ', staged, notation, true), ...listed('modified: ', modified, notation, true), ...listed('untracked:', untracked, notation)];
  const explained = notation.length ? [`[paths compacted: ${pathNotation(notation.join('\n'))}]`] : [];
  return [`branch ${branch} · ${counts.length ? counts.join(', ') : 'clean'}`, ...explained, ...groups];
}

export function parseGitLog(out: string): string[] {
  const entries = out.split('\n').filter((l) => l.includes(US));
  const rows = entries.slice(0, LOG_ENTRIES_SHOWN).map((l) => {
    const [h, an, ar, refs, s] = l.split(US);
    return `${h} ${s}${refs ? ` ${refs.trim()}` : ''} (${an}, ${ar})`;
  });
  if (entries.length > LOG_ENTRIES_SHOWN) rows.push(`… ${entries.length - LOG_ENTRIES_SHOWN} older commits`);
  return rows.length ? rows : ['no commits'];
}

export function parseGitBranch(out: string): string[] {
  const rows = out
    .split('\n')
    .filter((l) => l.includes(US))
    .map((l) => {
      const [head, name, up, track, sha] = l.split(US);
      return `${head === '*' ? '*' : ' '} ${name} ${sha}${up ? ` → ${up}` : ''}${track ? ` ${track}` : ''}`;
    });
  return rows.length ? rows : ['no branches'];
}

/** `docker ps --format '{{json .}}'` → `name  image  status  ports` (status carries the exit code: `Exited (3) 2 seconds ago`). */
export function parseDockerPs(out: string): string[] {
  return parseJsonLines(out, 'no containers', (r) => `${r.Names ?? ''}  ${r.Image ?? ''}  ${r.Status ?? ''}${r.Ports ? `  ${r.Ports}` : ''}`);
}

/** `docker images --format '{{json .}}'` → `repository:tag  size  id  created` (`<none>:<none>` for a dangling image). */
export function parseDockerImages(out: string): string[] {
  return parseJsonLines(out, 'no images', (r) => `${r.Repository ?? ''}:${r.Tag ?? ''}  ${r.Size ?? ''}  ${r.ID ?? ''}  ${r.CreatedSince ?? ''}`);
}

/**
 * One row per JSON object. Values are not all strings (`"Platform":null` in docker ps). A line
 * that is not JSON (a client `WARNING: …`) is kept as written rather than dropped.
 */
function parseJsonLines(out: string, empty: string, fmt: (r: Record<string, unknown>) => string): string[] {
  const rows: string[] = [];
  for (const l of out.split('\n')) {
    const t = l.trim();
    if (!t) continue;
    if (!t.startsWith('{')) {
      rows.push(t);
      continue;
    }
    try {
      rows.push(fmt(JSON.parse(t) as Record<string, unknown>));
    } catch {
      rows.push(t);
    }
  }
  return rows.length ? rows : [empty];
}

/** Collapse a space-aligned table (kubectl) to single spaces. */
export function compactTable(out: string): string[] {
  return out
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.trim().replace(/\s{2,}/g, '  '));
}

/**
 * Enrichment on failure: turn the three most common dead ends into a next step.
 *   No such file or directory → the nearest existing ancestor and its entries (closest first)
 *   Permission denied         → owner, mode and the current user
 *   command not found         → similar command names on PATH
 */
import { readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Entries of the nearest existing directory listed in a hint. */
const ENTRIES_SHOWN = 8;
/** Similar commands suggested. */
const SIMILAR_SHOWN = 5;
/** Edit distance still counted as "similar" for a command name. */
const MAX_COMMAND_DISTANCE = 2;
/** Hints per failure: enough for a couple of bad paths, never a wall of text. */
const MAX_HINTS = 4;

export function levenshtein(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0];
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const t = d[j];
      d[j] = Math.min(d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = t;
    }
  }
  return d[b.length];
}

const NOENT = [/(?:cannot (?:stat|access|open|remove|create \w+)|can't (?:open|cd to)) ['‘`"]?([^'’"\n]+?)['’"]?: No such file or directory/, /^(?:[\w./-]+: )*([^\s:'"][^:'"\n]*): No such file or directory/m, /ENOENT[^'\n]*'([^'\n]+)'/];
const EACCES = [/['‘`"]?([^'’"\s:][^'’"\n:]*)['’"]?: Permission denied/, /EACCES[^'\n]*'([^'\n]+)'/];
const NOTFOUND = [/(?:^|\s)([\w.+-]+): (?:command )?not found/m, /command not found: ([\w.+-]+)/];

export interface EnrichInput {
  output: string;
  exitCode: number;
  cwd: string;
  env: Record<string, string | undefined>;
}

export function enrich(input: EnrichInput): string[] {
  if (input.exitCode === 0) return [];
  const hints: string[] = [];
  const seen = new Set<string>();
  const once = (key: string, f: () => string | undefined) => {
    if (seen.has(key) || hints.length >= MAX_HINTS) return;
    seen.add(key);
    const h = f();
    if (h) hints.push(h);
  };
  for (const line of input.output.split('\n')) {
    for (const re of NOTFOUND) {
      const m = re.exec(line);
      if (m && /not found/.test(line)) once(`cmd:${m[1]}`, () => similarCommands(m[1], input.env.PATH ?? ''));
    }
    if (/No such file or directory|ENOENT/.test(line)) {
      for (const re of NOENT) {
        const m = re.exec(line);
        if (m) {
          once(`noent:${m[1]}`, () => nearestPath(m[1].trim(), input.cwd));
          break;
        }
      }
    }
    if (/Permission denied|EACCES/.test(line)) {
      for (const re of EACCES) {
        const m = re.exec(line);
        if (m) {
          once(`acces:${m[1]}`, () => permissionHint(m[1].trim(), input.cwd));
          break;
        }
      }
    }
  }
  return hints;
}

export function nearestPath(p: string, cwd: string): string | undefined {
  const abs = path.resolve(cwd, p);
  let dir = path.dirname(abs);
  let missing = path.basename(abs);
  while (!isDir(dir)) {
    missing = path.basename(dir);
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return undefined;
  }
  entries.sort((a, b) => levenshtein(a, missing) - levenshtein(b, missing) || a.localeCompare(b));
  const shown = entries.slice(0, ENTRIES_SHOWN).map((e) => (isDir(path.join(dir, e)) ? `${e}/` : e));
  const rel = path.relative(cwd, dir) || '.';
  return `hint: ${p} does not exist; nearest existing: ${rel}/ (${entries.length} entries${shown.length ? `: ${shown.join(', ')}${entries.length > shown.length ? ', …' : ''}` : ''})`;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function userName(uid: number): string {
  try {
    if (uid === os.userInfo().uid) return os.userInfo().username;
  } catch {
    // No passwd entry for us.
  }
  return String(uid);
}

export function permissionHint(p: string, cwd: string): string | undefined {
  const abs = path.resolve(cwd, p);
  try {
    const st = statSync(abs);
    const me = os.userInfo();
    return `hint: ${p} is owned by ${userName(st.uid)} (uid ${st.uid}, gid ${st.gid}), mode ${(st.mode & 0o7777).toString(8).padStart(4, '0')}; you are ${me.username} (uid ${me.uid}, gid ${me.gid})`;
  } catch {
    return undefined;
  }
}

export function similarCommands(name: string, PATH: string): string | undefined {
  const found = new Map<string, number>();
  for (const dir of PATH.split(':')) {
    if (!dir) continue;
    let entries: string[];
    try {
      entries = readdirSync(dir);
    } catch {
      continue;
    }
    for (const e of entries) {
      if (found.has(e)) continue;
      const d = levenshtein(e, name);
      if (d <= MAX_COMMAND_DISTANCE || (name.length >= 3 && e.startsWith(name))) found.set(e, d);
    }
  }
  const best = [...found].sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0])).slice(0, SIMILAR_SHOWN).map(([e]) => e);
  return best.length ? `hint: ${name}: command not found; similar on PATH: ${best.join(', ')}` : `hint: ${name}: command not found and nothing similar on PATH`;
}

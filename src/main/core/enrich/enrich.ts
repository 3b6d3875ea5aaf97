/**
 * Enrichment on failure: turn the three most common dead ends into a next step.
 *   No such file or directory → the nearest existing ancestor and its entries (closest first)
 *   Cannot find module './x'  → the same, for the path resolved from the importing file (when
 *                               the tool names it; a file the resolver would load exists → none)
 *   Permission denied         → owner, mode and the current user
 *   command not found         → similar command names on PATH
 */
import { closeSync, existsSync, openSync, readSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { entryNames, isDirectory } from '../fs/tolerant-fs.js';
import { whoRan, type CommandWords } from './run-as.js';

/** Entries of the nearest existing directory listed in a hint. */
const ENTRIES_SHOWN = 8;
/** Similar commands suggested. */
const SIMILAR_SHOWN = 5;
/** Edit distance still counted as "similar" for a command name. */
const MAX_COMMAND_DISTANCE = 2;
/** Hints per failure: enough for a couple of bad paths, never a wall of text. */
const MAX_HINTS = 4;

/**
 * Edit distance with a swap of two neighbouring characters counted as one edit (optimal string
 * alignment): the typo `gti` is 1 from `git`, where plain Levenshtein makes it 2 and ties it with
 * `ctr`, `gcc`, `gio`, so on a PATH with enough three-letter tools git fell out of the shown five.
 */
export function editDistance(a: string, b: string): number {
  let before = Array.from({ length: b.length + 1 }, () => 0);
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1);
      cur.push(d);
    }
    [before, prev] = [prev, cur];
  }
  return prev[b.length];
}

/** The shells' and sudo's "command not found" forms (bash, zsh, dash/sh, fish, sudo, env). */
const NOTFOUND = [
  /(?:^|: )([^\s:'"]+): command not found/m,
  /^(?:\S*\/)?(?:sh|dash|ash|ksh|mksh|bash): (?:\d+: |line \d+: )?([^\s:'"]+): not found/m,
  /command not found: ([^\s:'"]+)/,
  /^fish: Unknown command: ([^\s:'"]+)$/m,
];
const NOENT_PHRASE = /No such file or directory|ENOENT|cannot find or open|required file not found/;
/**
 * A module named by a relative or absolute path that the importer could not load, with the
 * importing file where the tool names it on the same line:
 *   src/app.ts(2,28): error TS2307: Cannot find module '../util/validate.js' …   (tsc plain)
 *   src/app.ts:2:28 - error TS2307: Cannot find module '../util/validate.js' …   (tsc pretty)
 *   Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/abs/x.js' imported from /abs/app.mjs   (node ESM)
 * node's CommonJS form names the importer below it (`Require stack:` then `- /abs/app.js`).
 */
const MODULE_PHRASE = /Cannot find module '([./][^']*)'/;
const TSC_IMPORTER = /^\s*(.+?)(?:\(\d+,\d+\):|:\d+:\d+ -) error TS\d+:/;
const ESM_IMPORTER = / imported from (\S+)/;
/** How far below a CommonJS "Cannot find module" its `Require stack:` is looked for. */
const REQUIRE_STACK_LOOKAHEAD = 12;
/** A shell reporting on the program it tried to run (`bash: line 1: ./x: …`): an exec failure, not a read. */
const SHELL_EXEC = /^(?:\S*\/)?(?:bash|sh|dash|ash|zsh|ksh): (?:line \d+: |\d+: )?/;
const EACCES_PHRASE = /Permission denied|EACCES/;

/**
 * The path a "No such file" / "Permission denied" line is about, in the forms real tools print:
 *   cp: cannot stat 'x': …           (quoted, coreutils; mkdir uses ‘x’)
 *   tar (child): x.tgz: Cannot open: …, /bin/bash: line 1: ./x: …   (colon-separated; the last
 *                                     word without spaces that is not the program name)
 *   [Errno 2] No such file or directory: 'x'   (Python)
 *   ENOENT: no such file or directory, open 'x'   (Node)
 *   unzip:  cannot find or open x.zip, x.zip.zip or x.zip.ZIP.
 *   jq: error: Could not open x.json: …   (a sentence ending with the path; `error` is a label)
 */
export function pathOfError(line: string, phrase: RegExp): string | undefined {
  const m = phrase.exec(line);
  if (!m) return undefined;
  if (m[0] === 'cannot find or open') return /cannot find or open (\S+?),/.exec(line)?.[1];
  const afterPhrase = line.slice(m.index + m[0].length);
  const trailing = /^: ['"‘]([^'"’]+)['"’]/.exec(afterPhrase) ?? /^[^']*, \w+ '([^']+)'/.exec(afterPhrase);
  if (trailing) return trailing[1];
  const before = line.slice(0, m.index).replace(/:\s*(?:\[Errno \d+\]\s*)?$/, '');
  const quoted = /['‘"`]([^'’"`]+)['’"`]$/.exec(before);
  if (quoted) return quoted[1];
  const segs = before.split(': ').map((x) => x.trim()).filter(Boolean);
  const candidates = segs.length > 1 ? segs.slice(1) : segs;
  for (let i = candidates.length - 1; i >= 0; i--) {
    const c = candidates[i];
    if (!/\s/.test(c)) {
      if (!SEVERITY_WORD.test(c)) return c;
      continue;
    }
    // `jq: error: Could not open x.json: …`: a sentence that ends with the path.
    const last = /\s(\S*[./]\S*)$/.exec(c)?.[1];
    if (last && !/^\.+$/.test(last)) return last;
  }
  return undefined;
}

/** A label between colons, not a path: `jq: error: …`, `ld: fatal: …`. */
const SEVERITY_WORD = /^(?:error|fatal|warning|warn|note|ERROR|FATAL|WARNING|Error|Fatal|Warning)$/;

export interface EnrichInput {
  output: string;
  exitCode: number;
  cwd: string;
  env: Record<string, string | undefined>;
  /** The line's simple commands, so the Permission denied hint names the user they ran as (sudo, setpriv…). */
  commands?: readonly CommandWords[];
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
  const lines = input.output.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const mod = MODULE_PHRASE.exec(line);
    if (mod) {
      const importer = importerOf(lines, i);
      // Resolved from the importing file, as the tool does; an absolute path needs none (node's
      // entry file); a relative one with no importer named: nothing checked, no hint.
      if (importer) once(`module:${mod[1]}:${importer}`, () => moduleHint(mod[1], importer, input.cwd));
      else if (path.isAbsolute(mod[1])) once(`noent:${mod[1]}`, () => nearestPath(mod[1], input.cwd));
      continue;
    }
    for (const re of NOTFOUND) {
      const m = re.exec(line);
      if (m) {
        once(`cmd:${m[1]}`, () => similarCommands(m[1], input.env.PATH ?? ''));
        break;
      }
    }
    const missing = pathOfError(line, NOENT_PHRASE);
    if (missing) once(`noent:${missing}`, () => nearestPath(missing, input.cwd));
    const denied = pathOfError(line, EACCES_PHRASE);
    if (denied) once(`acces:${denied}`, () => permissionHint(denied, input.cwd, SHELL_EXEC.test(line), input.commands));
  }
  return hints;
}

/** The file that tried to load the module of line i: on the line itself (tsc, node ESM) or in node's `Require stack:` below it. */
function importerOf(lines: readonly string[], i: number): string | undefined {
  const line = lines[i];
  const tsc = TSC_IMPORTER.exec(line);
  if (tsc) return tsc[1];
  const esm = ESM_IMPORTER.exec(line);
  if (esm) return esm[1].replace(/^file:\/\//, '');
  for (let k = i + 1; k < Math.min(lines.length, i + REQUIRE_STACK_LOOKAHEAD); k++) {
    if (/^\s*Require stack:/.test(lines[k])) return /^\s*- (\S.*)$/.exec(lines[k + 1] ?? '')?.[1];
  }
  return undefined;
}

/**
 * Files a module specifier may load, in the resolvers' order: as written; TypeScript's `.js` →
 * `.ts`/`.tsx`/`.d.ts` (and `.mjs` → `.mts`, `.cjs` → `.cts`); node's extension and index
 * lookups for CommonJS.
 */
function moduleCandidates(abs: string): string[] {
  const out = [abs];
  const ext = path.extname(abs);
  const stem = abs.slice(0, abs.length - ext.length);
  if (ext === '.js' || ext === '.jsx') out.push(`${stem}.ts`, `${stem}.tsx`, `${stem}.d.ts`);
  else if (ext === '.mjs') out.push(`${stem}.mts`, `${stem}.d.mts`);
  else if (ext === '.cjs') out.push(`${stem}.cts`, `${stem}.d.cts`);
  else if (ext === '') for (const e of ['.ts', '.tsx', '.d.ts', '.js', '.jsx', '.mjs', '.cjs', '.json', '.node', '/index.ts', '/index.tsx', '/index.js', '/index.json']) out.push(abs + e);
  return out;
}

/**
 * `Cannot find module '../util/validate.js'` from src/app.ts: the path resolved from the
 * importing file's folder. When one of the files the resolvers would try exists, the cause is
 * elsewhere (paths mapping, build output, package exports) and no hint is given; else the
 * nearest existing folder of the resolved path, named relative to the cwd.
 */
export function moduleHint(spec: string, importer: string, cwd: string): string | undefined {
  const from = path.resolve(cwd, importer);
  if (!existsSync(from)) return undefined;
  const abs = path.resolve(path.dirname(from), spec);
  if (moduleCandidates(abs).some((c) => existsSync(c))) return undefined;
  const missing = path.relative(cwd, abs) || '.';
  const near = nearestDir(missing, cwd);
  if (!near) return undefined;
  // Issue 23 pt 4: what the output does not say (where the import resolves, what is there), in
  // about 20 tokens: the output's line already names the importer and the specifier.
  const shown = near.closest.slice(0, MODULE_ENTRIES_SHOWN);
  const more = near.total > shown.length ? `, … (${near.total})` : '';
  return `hint: ${missing} does not exist; ${near.rel}/ has ${shown.length ? shown.join(', ') + more : 'nothing'}`;
}

/** Entries named in a missing module's hint (the closest names first). */
const MODULE_ENTRIES_SHOWN = 3;

/** The nearest existing directory above a missing path: as shown (relative to cwd unless p is absolute), its entries closest to the missing name first (directories with a `/`). */
function nearestDir(p: string, cwd: string): { rel: string; closest: string[]; total: number } | undefined {
  const abs = path.resolve(cwd, p);
  let dir = path.dirname(abs);
  let missing = path.basename(abs);
  while (!isDirectory(dir)) {
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
  entries.sort((a, b) => editDistance(a, missing) - editDistance(b, missing) || a.localeCompare(b));
  const closest = entries.slice(0, ENTRIES_SHOWN).map((e) => (isDirectory(path.join(dir, e)) ? `${e}/` : e));
  const rel = path.isAbsolute(p) ? dir.replace(/\/$/, '') : path.relative(cwd, dir) || '.';
  return { rel, closest, total: entries.length };
}

export function nearestPath(p: string, cwd: string): string | undefined {
  const abs = path.resolve(cwd, p);
  if (existsSync(abs)) return interpreterHint(p, abs);
  const near = nearestDir(p, cwd);
  if (!near) return undefined;
  const { rel, closest: shown, total } = near;
  return `hint: ${p} does not exist; nearest existing: ${rel}/ (${total} entries${shown.length ? `: ${shown.join(', ')}${total > shown.length ? ', …' : ''}` : ''})`;
}

/** Longest `#!` line read when a script exists but "No such file" was reported for it. */
const SHEBANG_BYTES = 256;

/** `./run.sh: No such file or directory` for a file that exists: its `#!` interpreter is what is missing. */
function interpreterHint(p: string, abs: string): string | undefined {
  let head = '';
  try {
    const fd = openSync(abs, 'r');
    try {
      const buf = Buffer.alloc(SHEBANG_BYTES);
      head = buf.toString('utf8', 0, readSync(fd, buf, 0, SHEBANG_BYTES, 0));
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  if (!head.startsWith('#!')) return undefined;
  const line = head.slice(2).split('\n')[0];
  const interp = line.replace(/\r$/, '').trim().split(/\s+/)[0];
  if (line.endsWith('\r')) return `hint: ${p} has Windows line endings: its #! line asks for "${interp}\\r", which does not exist (fix: sed -i 's/\\r$//' ${p})`;
  return interp && !existsSync(interp) ? `hint: ${p} exists; its interpreter ${interp} (from #!) was not found` : undefined;
}

function userName(uid: number): string {
  try {
    if (uid === os.userInfo().uid) return os.userInfo().username;
  } catch {
    // No passwd entry for us.
  }
  return String(uid);
}

/** Owner and mode of a denied path, and the user the command ran as (run-as.ts: sudo, setpriv… in front of it). */
export function permissionHint(p: string, cwd: string, exec = false, commands: readonly CommandWords[] = []): string | undefined {
  const abs = path.resolve(cwd, p);
  let me: os.UserInfo<string>;
  try {
    me = os.userInfo();
  } catch {
    return undefined;
  }
  const who = whoRan(commands, { name: me.username, uid: me.uid, gid: me.gid });
  const describe = (st: { uid: number; gid: number; mode: number }) => `owned by ${userName(st.uid)} (uid ${st.uid}, gid ${st.gid}), mode ${(st.mode & 0o7777).toString(8).padStart(4, '0')}`;
  try {
    const st = statSync(abs);
    // Even root cannot execute a file without any x bit.
    const noExec = exec && st.isFile() && (st.mode & 0o111) === 0 ? `; it is not executable: chmod +x ${p}, or run it with its interpreter (bash ${p})` : '';
    return `hint: ${p} is ${describe(st)}; ${who}${noExec}`;
  } catch {
    // Creating it was denied: the directory it would go in is what matters.
  }
  for (let dir = path.dirname(abs); ; dir = path.dirname(dir)) {
    try {
      const st = statSync(dir);
      const shown = path.isAbsolute(p) ? dir : path.relative(cwd, dir) || '.';
      return `hint: ${p} cannot be created in ${shown}/, which is ${describe(st)}; ${who}`;
    } catch {
      if (path.dirname(dir) === dir) return undefined;
    }
  }
}

export function similarCommands(name: string, PATH: string): string | undefined {
  const found = new Map<string, number>();
  for (const dir of PATH.split(':')) {
    if (!dir) continue;
    for (const e of entryNames(dir)) {
      if (found.has(e)) continue;
      const d = editDistance(e, name);
      // A short name is not similar to everything as short: `go` → gio, not `[`, ar, bc.
      if (d <= Math.min(MAX_COMMAND_DISTANCE, name.length - 1) || (name.length >= 3 && e.startsWith(name))) found.set(e, d);
    }
  }
  const best = [...found].sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0])).slice(0, SIMILAR_SHOWN).map(([e]) => e);
  return best.length ? `hint: ${name}: command not found; similar on PATH: ${best.join(', ')}` : `hint: ${name}: command not found and nothing similar on PATH`;
}

/**
 * GrammarRegistry: built-in grammars (this repo's grammars/), then user grammars
 * ($XDG_CONFIG_HOME/mish/grammars or ~/.config/mish/grammars), then project grammars
 * (.mish/grammars in the working directory or the nearest parent). Later layers override
 * earlier ones by grammar name (seed 004: discovered walking up, merged over built-ins, cached;
 * an invalid file falls back to the lower layer with a clear error).
 *
 * Caching: each layer directory is re-checked at most every `revalidateMs`; a file is parsed
 * again only when its mtime, size or inode changed. Snapshots (the merged view for one
 * combination of layers) are cached by the layers' signatures.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDirectory } from '../fs/tolerant-fs.js';
import { findBuiltinGrammarDir } from './builtin-dir.js';
import { buildCommandIndex, type CommandEntry, type GrammarLookup } from './detect.js';
import { compileGrammarSource, formatGrammarError, linkGrammar, readGrammarText, type GrammarDraft, type LoadResult } from './loader.js';
import type { Grammar, GrammarError } from './types.js';

/** How long a directory listing is trusted before stat-ing again; seed 004 used a 60 s TTL, but a grammar author editing a file wants to see the change on the next command. */
export const REVALIDATE_MS = 1000;
/** Snapshots kept (one per distinct builtin/user/project combination, i.e. per project in use). */
const MAX_SNAPSHOTS = 32;
/** Sub-folder of a layer holding include-only rule sets. */
const SHARED_DIR = '_shared';

export type Origin = Grammar['origin'];

/** The merged grammars for one working directory, immutable. */
export interface GrammarSet extends GrammarLookup {
  /** Effective grammars by name (after overrides). */
  readonly grammars: ReadonlyMap<string, Grammar>;
  /** Every problem found in the layers of this set; the affected grammars were skipped. */
  readonly errors: readonly GrammarError[];
  /** Layer directories in use, lowest first. */
  readonly dirs: readonly { origin: Origin; dir: string }[];
  get(name: string): Grammar | undefined;
  list(): Grammar[];
}

export interface GrammarRegistryOptions {
  /** Built-in grammar folder; default findBuiltinGrammarDir(); null = none. */
  builtinDir?: string | null;
  /** User grammar folder; default $XDG_CONFIG_HOME/mish/grammars or ~/.config/mish/grammars; null = none. */
  userDir?: string | null;
  /** Working directory whose `.mish/grammars` (here or in a parent) is the project layer; default process.cwd(). */
  cwd?: string;
  /** Set false to ignore project grammars entirely. */
  projectGrammars?: boolean;
  /** Environment for XDG_CONFIG_HOME / HOME; default process.env. */
  env?: Record<string, string | undefined>;
  /** See REVALIDATE_MS; 0 = stat on every access. */
  revalidateMs?: number;
  /** Called once per distinct problem, e.g. to print a warning to stderr. */
  onError?: (error: GrammarError) => void;
}

export { findBuiltinGrammarDir };

/** Default user grammar folder per the XDG base directory spec. */
export function defaultUserGrammarDir(env: Record<string, string | undefined> = process.env): string {
  const base = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(env.HOME || os.homedir(), '.config');
  return path.join(base, 'mish', 'grammars');
}

/** `.mish/grammars` in `cwd` or the nearest parent that has one. */
export function findProjectGrammarDir(cwd: string): string | undefined {
  let dir = path.resolve(cwd);
  for (;;) {
    const g = path.join(dir, '.mish', 'grammars');
    if (isDirectory(g)) return g;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

interface FileEntry {
  key: string;
  result: LoadResult<GrammarDraft>;
}

interface Layer {
  origin: Origin;
  dir: string;
  signature: string;
  checkedAt: number;
  /** Tool grammar files, sorted by file name. */
  tools: { file: string; result: LoadResult<GrammarDraft> }[];
  /** Include name (`_shared/x`) → compiled draft. */
  shared: Map<string, LoadResult<GrammarDraft>>;
}

function statKey(file: string): string | undefined {
  try {
    const st = statSync(file);
    return st.isFile() ? `${st.mtimeMs}:${st.size}:${st.ino}` : undefined;
  } catch {
    return undefined;
  }
}

function tomlFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => !e.isDirectory() && e.name.endsWith('.toml') && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/** Loads and caches grammars; see the module comment. */
export class GrammarRegistry implements GrammarLookup {
  /** Working directory used when no cwd is passed. */
  cwd: string;
  private readonly builtinDir: string | undefined;
  private readonly userDir: string | undefined;
  private readonly projectGrammars: boolean;
  private readonly revalidateMs: number;
  private readonly onError?: (error: GrammarError) => void;
  private readonly files = new Map<string, FileEntry>();
  private readonly layers = new Map<string, Layer>();
  private readonly projectDirs = new Map<string, { dir: string | undefined; checkedAt: number }>();
  private readonly snapshots = new Map<string, GrammarSet>();
  private readonly reported = new Set<string>();
  private readonly recent = new Map<string, { set: GrammarSet; at: number }>();

  constructor(opts: GrammarRegistryOptions = {}) {
    this.cwd = opts.cwd ?? process.cwd();
    this.builtinDir = opts.builtinDir === null ? undefined : (opts.builtinDir ?? findBuiltinGrammarDir());
    this.userDir = opts.userDir === null ? undefined : (opts.userDir ?? defaultUserGrammarDir(opts.env));
    this.projectGrammars = opts.projectGrammars ?? true;
    this.revalidateMs = opts.revalidateMs ?? REVALIDATE_MS;
    this.onError = opts.onError;
  }

  /** The merged grammars for `cwd` (default: this.cwd), reloading what changed on disk. */
  snapshot(cwd: string = this.cwd): GrammarSet {
    const now = Date.now();
    // Fast path for the per-command call from the router: no stat, no key building.
    const recent = this.recent.get(cwd);
    if (recent && now - recent.at < this.revalidateMs) return recent.set;
    const dirs: { origin: Origin; dir: string }[] = [];
    if (this.builtinDir) dirs.push({ origin: 'builtin', dir: this.builtinDir });
    if (this.userDir) dirs.push({ origin: 'user', dir: this.userDir });
    const project = this.projectGrammars ? this.projectDir(cwd, now) : undefined;
    if (project && !dirs.some((d) => path.resolve(d.dir) === path.resolve(project))) dirs.push({ origin: 'project', dir: project });

    const layers = dirs.map((d) => this.layer(d.origin, d.dir, now));
    const key = layers.map((l) => `${l.origin}\0${l.dir}\0${l.signature}`).join('\n');
    let set = this.snapshots.get(key);
    if (!set) {
      set = this.build(layers);
      if (this.snapshots.size >= MAX_SNAPSHOTS) this.snapshots.delete(this.snapshots.keys().next().value!);
      this.snapshots.set(key, set);
      for (const e of set.errors) this.report(e);
    }
    if (this.recent.size >= MAX_SNAPSHOTS && !this.recent.has(cwd)) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(cwd, { set, at: now });
    return set;
  }

  /** Forget when directories were last checked: the next access re-stats them (unchanged files are not re-parsed). */
  refresh(): void {
    for (const l of this.layers.values()) l.checkedAt = -Infinity;
    this.projectDirs.clear();
    this.recent.clear();
  }

  /** Grammar by name for the default cwd. */
  get(name: string): Grammar | undefined {
    return this.snapshot().get(name);
  }

  /** Effective grammars for the default cwd. */
  list(): Grammar[] {
    return this.snapshot().list();
  }

  /** Problems found for the default cwd (the affected grammars are skipped). */
  get errors(): readonly GrammarError[] {
    return this.snapshot().errors;
  }

  /** GrammarLookup for detectTool, for the default cwd. */
  lookupCommand(basename: string): CommandEntry | undefined {
    return this.snapshot().lookupCommand(basename);
  }

  private report(e: GrammarError): void {
    if (!this.onError) return;
    const k = formatGrammarError(e);
    if (this.reported.has(k)) return;
    this.reported.add(k);
    this.onError(e);
  }

  private projectDir(cwd: string, now: number): string | undefined {
    const hit = this.projectDirs.get(cwd);
    if (hit && now - hit.checkedAt < this.revalidateMs) return hit.dir;
    const dir = findProjectGrammarDir(cwd);
    this.projectDirs.set(cwd, { dir, checkedAt: now });
    return dir;
  }

  private loadFile(file: string, key: string, origin: Origin): LoadResult<GrammarDraft> {
    const cacheKey = `${origin}\0${file}`;
    const hit = this.files.get(cacheKey);
    if (hit && hit.key === key) return hit.result;
    const text = readGrammarText(file);
    const result = text.ok ? compileGrammarSource(text.value, file, origin) : text;
    this.files.set(cacheKey, { key, result });
    return result;
  }

  private layer(origin: Origin, dir: string, now: number): Layer {
    const id = `${origin}\0${dir}`;
    const prev = this.layers.get(id);
    if (prev && now - prev.checkedAt < this.revalidateMs) return prev;

    const toolNames = tomlFiles(dir);
    const sharedNames = tomlFiles(path.join(dir, SHARED_DIR));
    const keyed = (f: string) => ({ file: f, key: statKey(f) });
    const tools = toolNames.map((n) => keyed(path.join(dir, n)));
    const shared = sharedNames.map((n) => keyed(path.join(dir, SHARED_DIR, n)));
    const signature = [...tools, ...shared].map((f) => `${f.file}@${f.key}`).join('|');
    if (prev && prev.signature === signature) {
      prev.checkedAt = now;
      return prev;
    }
    const layer: Layer = {
      origin,
      dir,
      signature,
      checkedAt: now,
      tools: tools.filter((f) => f.key).map((f) => ({ file: f.file, result: this.loadFile(f.file, f.key!, origin) })),
      shared: new Map(
        shared
          .filter((f) => f.key)
          .map((f) => [`${SHARED_DIR}/${path.basename(f.file, '.toml')}`, this.loadFile(f.file, f.key!, origin)] as const),
      ),
    };
    this.layers.set(id, layer);
    return layer;
  }

  private build(layers: Layer[]): GrammarSet {
    const errors: GrammarError[] = [];
    const byName = new Map<string, Grammar>();
    for (let li = 0; li < layers.length; li++) {
      const layer = layers[li];
      for (const r of layer.shared.values()) if (!r.ok) errors.push(...r.errors);
      const names = new Map<string, string>();
      for (const { file, result } of layer.tools) {
        if (!result.ok) {
          errors.push(...result.errors);
          continue;
        }
        const name = result.value.grammar.name;
        const dup = names.get(name);
        if (dup) {
          errors.push({ file, message: `grammar name '${name}' is already used by ${dup} in the same folder; this file is ignored` });
          continue;
        }
        names.set(name, file);
        // Includes resolve in this layer first, then in lower layers (a project grammar may include a built-in _shared file).
        const linked = linkGrammar(result.value, (inc) => {
          for (let k = li; k >= 0; k--) {
            const hit = layers[k].shared.get(inc);
            if (hit) return hit;
          }
          return undefined;
        });
        if (!linked.ok) {
          errors.push(...linked.errors);
          continue;
        }
        byName.delete(name); // re-insert so iteration order is lowest layer first
        byName.set(name, linked.value);
      }
    }
    // Plain code-unit order: localeCompare would load ICU collation data (~10 ms at start-up).
    const ordered = [...byName.values()].sort((a, b) => ORIGIN_RANK[a.origin] - ORIGIN_RANK[b.origin] || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    const index = buildCommandIndex(ordered);
    return {
      grammars: byName,
      errors,
      dirs: layers.map((l) => ({ origin: l.origin, dir: l.dir })),
      get: (name) => byName.get(name),
      list: () => ordered.slice(),
      lookupCommand: (basename) => index.get(basename),
    };
  }
}

const ORIGIN_RANK: Record<Origin, number> = { builtin: 0, user: 1, project: 2 };

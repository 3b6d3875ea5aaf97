/**
 * The compiled policy of `mish hook`, kept between runs. Why: the hook is a process per agent
 * command, and compiling the policy (parsing the rule packs' TOML, validating every rule with
 * zod, building ~80 regexes) was about a third of what the hook added to Node's own start. The
 * compiled layers are stored as JSON in $XDG_CACHE_HOME/mish/policy/ (or ~/.cache), keyed by
 * the hook bundle's identity (the packs and the compiler are in it) and by every policy file's
 * path and stat (size, mtime, ctime, inode) or its absence, plus $MISH_POLICY_DEFAULT. Any
 * change to any of them is a miss: the policy is compiled as before and the entry rewritten.
 *
 * Never looser than loadPolicy(): a cache that cannot be read, is not the user's own, or does
 * not hold exactly this key is ignored; a policy whose files the key does not cover (a layer
 * from a source this module does not know) is not cached at all.
 */
import { closeSync, constants, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadPolicy, projectPolicyFile, userPolicyFile, type Policy, type PolicySources } from '../core/policy/index.js';

/** Bumped when the stored shape changes: an entry of another format is a miss. */
const CACHE_FORMAT = 1;
/** The marker of a serialized RegExp (a key no policy field has). */
const RE_KEY = '\u0000re';
/** Entries kept (one per bundle × set of policy files; ~40 KB each): older ones go when a new one is written. */
const MAX_ENTRIES = 32;
/** An entry is ~40 KB; one far larger is not ours (and is not read whole into the hook). */
const MAX_ENTRY_BYTES = 4 * 1024 * 1024;

export interface PolicyCacheOptions {
  /** Identity of the code that compiles the policy (the bundle's size and mtime); no caching without one. */
  codeId?: string;
  /** Default: $XDG_CACHE_HOME/mish/policy or ~/.cache/mish/policy. */
  dir?: string;
  /**
   * Entries kept in memory by a long-lived process (the hook daemon), under the same key as on
   * disk: the key's stats are taken on every call, so a changed policy file is still a miss.
   */
  memo?: Map<string, Policy>;
}

export function policyCacheDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME) ? env.XDG_CACHE_HOME : path.join(env.HOME || os.homedir(), '.cache');
  return path.join(base, 'mish', 'policy');
}

/** A file's identity in the key: its stat, or its absence. */
function fileId(file: string): string {
  try {
    const s = statSync(file);
    return `${file}\u0001${s.size}\u0001${s.mtimeMs}\u0001${s.ctimeMs}\u0001${s.ino}`;
  } catch (e) {
    return `${file}\u0001${(e as NodeJS.ErrnoException).code ?? 'error'}`;
  }
}

/** The files loadPolicy() would read for these sources, and the key over them. */
function keyOf(src: PolicySources, env: NodeJS.ProcessEnv, codeId: string): { key: string; files: Set<string> } {
  const cwd = src.cwd ?? process.cwd();
  const files = [path.join(src.grammarsDir, '_meta', 'policy.toml')];
  if (!src.builtinOnly) {
    files.push(userPolicyFile(env));
    const project = projectPolicyFile(cwd);
    if (project) files.push(project);
  }
  if (env.MISH_POLICY) files.push(path.resolve(cwd, env.MISH_POLICY));
  if (src.cliFile) files.push(path.resolve(cwd, src.cliFile));
  const parts = [`format ${CACHE_FORMAT}`, codeId, `default ${env.MISH_POLICY_DEFAULT ?? ''}`, `cli-default ${src.cliDefault ?? ''}`, ...files.map(fileId)];
  return { key: parts.join('\n'), files: new Set(files) };
}

/** FNV-1a (32-bit, twice with two seeds) of the key: a file name only; the entry holds the full key. */
function nameOf(key: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return `${(a >>> 0).toString(16).padStart(8, '0')}${(b >>> 0).toString(16).padStart(8, '0')}.json`;
}

/** JSON text of a value holding RegExps (a compiled policy). */
export function serializePolicy(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (v instanceof RegExp ? { [RE_KEY]: [v.source, v.flags] } : v));
}

/** The value serializePolicy() wrote, its RegExps rebuilt. */
export function deserializePolicy<T = Policy>(text: string): T {
  return JSON.parse(text, (_k, v: unknown) => {
    if (v && typeof v === 'object' && RE_KEY in v) {
      const [source, flags] = (v as Record<string, [string, string]>)[RE_KEY];
      return new RegExp(source, flags);
    }
    return v;
  }) as T;
}

/** The entry for `key`, or undefined (absent, not the user's own, writable by others, another key, unreadable). */
function readEntry(file: string, key: string): Policy | undefined {
  let fd: number | undefined;
  try {
    // Without blocking (a FIFO put in its place waits for a writer forever), and a regular file only.
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_ENTRY_BYTES) return undefined;
    if ((typeof process.getuid === 'function' && st.uid !== process.getuid()) || (st.mode & 0o022) !== 0) return undefined;
    const entry = deserializePolicy<{ key?: unknown; policy?: Policy }>(readFileSync(fd, 'utf8'));
    const policy = entry.key === key ? entry.policy : undefined;
    return policy && Array.isArray(policy.layers) && Array.isArray(policy.errors) ? policy : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Does the key cover every file this policy came from? (A source the key does not know is never cached.) */
function covered(p: Policy, files: Set<string>): boolean {
  const real = (f: string) => path.isAbsolute(f);
  return p.layers.every((l) => !real(l.file) || files.has(l.file)) && p.errors.every((e) => !real(e.file) || files.has(e.file));
}

/** Keeps the newest MAX_ENTRIES entries (a miss is rare: this runs only then). */
function prune(dir: string): void {
  const entries = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => {
      try {
        return { f, t: statSync(path.join(dir, f)).mtimeMs };
      } catch {
        return { f, t: 0 };
      }
    })
    .sort((a, b) => b.t - a.t);
  for (const e of entries.slice(MAX_ENTRIES)) rmSync(path.join(dir, e.f), { force: true });
}

/** Policies a memo keeps (one per set of policy files and their stats; a changed file adds a key, so old ones go). */
const MAX_MEMO = 8;

function remember(memo: Map<string, Policy> | undefined, key: string, p: Policy): void {
  if (!memo) return;
  if (memo.size >= MAX_MEMO) memo.delete(memo.keys().next().value as string);
  memo.set(key, p);
}

/** loadPolicy(), answered from the cache when nothing it depends on changed. */
export function loadPolicyCached(src: PolicySources, opts: PolicyCacheOptions = {}): Policy {
  const env = (src.env ?? process.env) as NodeJS.ProcessEnv;
  if (!opts.codeId) return loadPolicy(src);
  let key: { key: string; files: Set<string> };
  let file: string;
  try {
    key = keyOf(src, env, opts.codeId);
    file = path.join(opts.dir ?? policyCacheDir(env), nameOf(key.key));
  } catch {
    return loadPolicy(src);
  }
  const remembered = opts.memo?.get(key.key);
  if (remembered) return remembered;
  const hit = readEntry(file, key.key);
  if (hit) {
    remember(opts.memo, key.key, hit);
    return hit;
  }
  const policy = loadPolicy(src);
  if (covered(policy, key.files)) {
    remember(opts.memo, key.key, policy);
    try {
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, serializePolicy({ key: key.key, policy }), { mode: 0o600 });
      renameSync(tmp, file);
      prune(path.dirname(file));
    } catch {
      // an unwritable cache: compiled again next time
    }
  }
  return policy;
}

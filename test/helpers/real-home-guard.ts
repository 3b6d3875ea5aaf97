/**
 * Proof, at the end of every run, that no test reached the developer's real HOME (issue 22).
 *
 * The global setup takes a fingerprint of everything mish, or an agent hook that `mish init`
 * installs, would write under the real HOME and runtime dir — before it points the run at a temp
 * HOME — and compares it when the run ends. Any file created, changed or deleted there fails the
 * run, naming the file. The canaries (safe-home.ts) prove the temp HOMEs were not damaged; this
 * proves the real one was never used. On a whole run (`npm test`, which sets
 * MISH_CHECK_CLEAN_TREE=1) it also compares the repository's `git status`, so a test that writes
 * into the checkout (a screenshot, a recording) fails instead of leaving a dirty tree; not on a
 * single file run by hand, where the developer may be editing files meanwhile.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A walk stops after this many entries: a real HOME's mish dirs hold a few hundred files; a spool of thousands is still compared by its first ones. */
const MAX_ENTRIES = 20_000;

/** Where mish and the hooks it installs write, for an environment (the same defaults the code uses). */
export function watchedPaths(env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME || os.homedir();
  const config = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, '.config');
  const state = env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : path.join(home, '.local', 'state');
  const paths = [
    path.join(config, 'mish'),
    path.join(state, 'mish'),
    path.join(home, '.local', 'share', 'mish'),
    path.join(home, '.cache', 'mish'),
    path.join(home, '.mish'),
    // The agents' hook configurations `mish init` edits.
    path.join(home, '.claude', 'settings.json'),
    path.join(home, '.codex', 'hooks.json'),
    path.join(home, '.codex', 'config.toml'),
    path.join(home, '.gemini', 'settings.json'),
    path.join(home, '.cursor', 'hooks.json'),
  ];
  if (env.XDG_RUNTIME_DIR) paths.push(path.join(env.XDG_RUNTIME_DIR, 'mish'));
  return paths;
}

/** path → "type size mtime" for every entry under `roots` (absent roots are recorded as absent). */
export function fingerprint(roots: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (p: string): void => {
    if (out.size >= MAX_ENTRIES) return;
    let st;
    try {
      st = lstatSync(p);
    } catch {
      out.set(p, 'absent');
      return;
    }
    const kind = st.isDirectory() ? 'dir' : st.isSymbolicLink() ? 'link' : 'file';
    // A directory's own mtime moves when an entry is added or removed: its entries say which.
    out.set(p, kind === 'dir' ? 'dir' : `${kind} ${st.size} ${st.mtimeMs}`);
    if (kind !== 'dir') return;
    let names: string[] = [];
    try {
      names = readdirSync(p).sort();
    } catch {
      return; // unreadable: recorded as a dir, compared by its presence
    }
    for (const n of names) walk(path.join(p, n));
  };
  for (const r of roots) walk(r);
  return out;
}

/** What changed between two fingerprints, one line per path (empty when nothing did). */
export function differences(before: Map<string, string>, after: Map<string, string>): string[] {
  const lines: string[] = [];
  for (const [p, was] of before) {
    const now = after.get(p) ?? 'absent';
    if (now !== was) lines.push(`${p}: ${was === 'absent' ? 'created' : now === 'absent' ? 'deleted' : 'changed'}`);
  }
  for (const p of after.keys()) if (!before.has(p)) lines.push(`${p}: created`);
  return lines;
}

/** `git status --porcelain` of the checkout, or undefined outside a git checkout. */
export function gitStatus(root: string): string | undefined {
  if (!existsSync(path.join(root, '.git'))) return undefined;
  const r = spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: root, encoding: 'utf8' });
  return r.status === 0 ? r.stdout : undefined;
}

/**
 * Takes the fingerprint now (call it before the run's env is redirected) and returns the check
 * for the run's end, which throws naming every real-HOME path touched and every file the run
 * left modified or untracked in the checkout.
 */
export function guardRealHome(env: NodeJS.ProcessEnv, root: string, options: { checkout: boolean } = { checkout: env.MISH_CHECK_CLEAN_TREE === '1' }): () => void {
  const roots = watchedPaths(env);
  const before = fingerprint(roots);
  const statusBefore = options.checkout ? gitStatus(root) : undefined;
  return () => {
    const problems = differences(before, fingerprint(roots)).map((l) => `real HOME touched: ${l}`);
    const statusAfter = options.checkout ? gitStatus(root) : undefined;
    if (statusBefore !== undefined && statusAfter !== undefined && statusAfter !== statusBefore) {
      const was = new Set(statusBefore.split('\n'));
      for (const l of statusAfter.split('\n')) if (l && !was.has(l)) problems.push(`the run left the checkout dirty: ${l}`);
    }
    if (problems.length) throw new Error(`${problems.length} trace(s) of the test run outside its temp dirs (issue 22):\n${problems.slice(0, 40).join('\n')}`);
  };
}

/**
 * Runs an end-of-run check from a global setup's teardown so that its failure fails the run: vitest logs a teardown's throw as
 * "error during close" and still exits 0 (a CI run with 17 traces in the real HOME exited 0 in session 47), so the exit code is
 * set here too.
 */
export function failRunOn(check: () => void): void {
  try {
    check();
  } catch (err) {
    process.exitCode = 1;
    throw err;
  }
}

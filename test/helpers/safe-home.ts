/**
 * A throw-away HOME and working directory for every test that sends a dangerous command
 * (`rm -rf ~`, `git reset --hard`, …). If the danger check ever regressed, the command would
 * run against these temp directories, never against the machine running the tests; the canary
 * files prove afterwards that nothing was deleted (issue 14: tests must never endanger the
 * machine). Used by the CLI, router, render and MCP tests alike.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Content of every canary: random per helper, so a file rewritten by a test is noticed too. */
const CANARY_NAME = 'canary.txt';

export interface SafeHome {
  /** The temporary HOME (also the parent of `cwd`). */
  home: string;
  /** A working directory inside `home`, for commands that act on the cwd (`rm -rf *`). */
  cwd: string;
  /**
   * Environment for a mish run or a routed command: HOME, XDG dirs, mish's state and spool all
   * inside `home`; merged over the current environment when `inherit` is true (the default).
   */
  env(extra?: Record<string, string>, inherit?: boolean): Record<string, string>;
  /** Paths of the canary files (in HOME, in a HOME dot-directory, in cwd). */
  canaries: string[];
  /** Throws, naming the file, unless every canary still exists with its content. */
  assertCanariesIntact(): void;
  /** Removes the temp tree. */
  dispose(): void;
}

/**
 * Variables that would point a mish run (or a shell it starts) outside the temp HOME: a
 * developer's own MISH_AUDIT_LOG or spool override must never receive a test's records.
 */
/** How often removing a temp HOME is retried, and how long apart, when a process just killed is still writing there. */
const DISPOSE_RETRIES = 10;
const DISPOSE_RETRY_MS = 200;

export const OUTSIDE_POINTERS = ['MISH_AUDIT_LOG', 'MISH_SPOOL_DIR', 'MISH_OPERATOR_DIR', 'MISH_POLICY', 'MISH_POLICY_DEFAULT', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'ZDOTDIR'] as const;

/** HOME, the XDG dirs and mish's own dirs, all inside `home`. */
export function confinedVars(home: string): Record<string, string> {
  return {
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_STATE_HOME: path.join(home, '.state'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_RUNTIME_DIR: path.join(home, '.run'),
    MISH_HOME: path.join(home, '.mish'),
  };
}

/** Makes a temp HOME with `work/` inside it and canaries in HOME, `~/.gnupg` and `work/`. */
export function safeHome(prefix = 'safe'): SafeHome {
  const home = mkdtempSync(path.join(tmpdir(), `mish-${prefix}-home-`));
  const cwd = path.join(home, 'work');
  mkdirSync(cwd);
  mkdirSync(path.join(home, '.gnupg'));
  mkdirSync(path.join(home, '.run'), { mode: 0o700 });
  const content = `canary ${prefix} ${process.pid} ${Math.random()}\n`;
  const canaries = [path.join(home, CANARY_NAME), path.join(home, '.gnupg', CANARY_NAME), path.join(cwd, CANARY_NAME)];
  for (const c of canaries) writeFileSync(c, content);
  return {
    home,
    cwd,
    canaries,
    env(extra = {}, inherit = true) {
      const base = inherit ? { ...(process.env as Record<string, string>) } : {};
      for (const k of OUTSIDE_POINTERS) delete base[k];
      return { ...base, ...confinedVars(home), ...extra };
    },
    assertCanariesIntact() {
      for (const c of canaries) {
        if (!existsSync(c)) throw new Error(`canary deleted: ${c} — a dangerous command ran`);
        if (readFileSync(c, 'utf8') !== content) throw new Error(`canary changed: ${c} — a dangerous command ran`);
      }
    },
    // Retried: a browser or server killed a moment ago may still be writing its profile or state
    // inside (ENOTEMPTY at load 20: e2e/console-app-window's afterAll).
    // And never a failure: a process killed a moment ago (a `mish serve`'s shell, a browser) may
    // still be creating files there after the retries (ENOTEMPTY in mcp-fuzz's afterAll, once in a
    // clean-clone CI); the canaries were checked before, and a leftover temp dir is harmless.
    dispose: () => {
      try {
        rmSync(home, { recursive: true, force: true, maxRetries: DISPOSE_RETRIES, retryDelay: DISPOSE_RETRY_MS });
      } catch {
        /* left in the temp dir */
      }
    },
  };
}

/**
 * Makes this test process itself live in `safe`: HOME, XDG and mish dirs point into it, the
 * overrides pointing elsewhere are dropped, and the working directory is `safe.cwd`. Everything
 * started afterwards (a child process, a PTY, an engine running in-process such as the console's
 * own) inherits that. Returns the function that restores the previous environment and cwd.
 * Needs vitest's `forks` pool (process.chdir is not allowed in worker threads).
 */
export function enterSafeHome(safe: SafeHome, extra: Record<string, string> = {}): () => void {
  const saved = { ...process.env };
  const savedCwd = process.cwd();
  for (const k of OUTSIDE_POINTERS) delete process.env[k];
  Object.assign(process.env, confinedVars(safe.home), extra);
  process.chdir(safe.cwd);
  return () => {
    for (const k of Object.keys(process.env)) if (!(k in saved)) delete process.env[k];
    Object.assign(process.env, saved);
    process.chdir(savedCwd);
  };
}

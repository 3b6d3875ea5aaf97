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
      return {
        ...(inherit ? (process.env as Record<string, string>) : {}),
        HOME: home,
        XDG_CONFIG_HOME: path.join(home, '.config'),
        XDG_STATE_HOME: path.join(home, '.state'),
        XDG_RUNTIME_DIR: path.join(home, '.run'),
        MISH_HOME: path.join(home, '.mish'),
        ...extra,
      };
    },
    assertCanariesIntact() {
      for (const c of canaries) {
        if (!existsSync(c)) throw new Error(`canary deleted: ${c} — a dangerous command ran`);
        if (readFileSync(c, 'utf8') !== content) throw new Error(`canary changed: ${c} — a dangerous command ran`);
      }
    },
    dispose: () => rmSync(home, { recursive: true, force: true }),
  };
}

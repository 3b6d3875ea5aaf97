/**
 * Shared set-up for the router and handler tests: the real router on a real PTY executor, real
 * grammars and meta files, a spool outside the work directory (so file-operation narration
 * never sees the spool appear), and helpers for temp dirs and git repositories.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { safeHome } from '../../../../test/helpers/safe-home.js';
import { nodePtyPort } from '../../platform/node-pty-port.js';
import { CliExecutor } from '../exec/cli-executor.js';
import { detectTool } from '../grammar/detect.js';
import { GrammarRegistry } from '../grammar/registry.js';
import { SpoolStore } from '../spool/spool.js';
import { loadRouterMeta, type RouterMeta } from './meta.js';
import { renderBody } from '../format/render.js';
import { route, type RouteOptions, type RouteResult } from './route.js';

export const meta: RouterMeta = (() => {
  const m = loadRouterMeta();
  if (!m.ok) throw new Error(`${m.error.file}: ${m.error.message}`);
  return m.meta;
})();

const registry = new GrammarRegistry({ userDir: null, projectGrammars: false });
export const detect: RouteOptions['detect'] = (argv) => detectTool(argv, registry.snapshot(process.cwd()));
/** Lines run in bash, as the tests expect, whatever the developer's $SHELL (zsh would run them in zsh). */
export const executor = new CliExecutor(nodePtyPort, { env: { ...process.env, SHELL: '/bin/bash' } });

export interface Sandbox {
  /** The work directory commands run in (inside the sandbox's temp HOME). */
  dir: string;
  /** The temp HOME every routed command gets (so `rm -rf ~` could only ever reach it). */
  home: string;
  /** Throws unless the canary files in the temp HOME and work dir survive. */
  assertCanariesIntact(): void;
  spool: SpoolStore;
  opts(extra?: Partial<RouteOptions>): RouteOptions;
  /**
   * Route a line that must run. `body`: what the handler reported as a host shows it, without the
   * status line (core/format/render.ts renderBody; the status line has its own tests), for handler tests.
   */
  run(line: string, extra?: Partial<RouteOptions>): Promise<Extract<RouteResult, { kind: 'ran' }> & { body: string }>;
  cleanup(): void;
}

/**
 * A temp HOME (test/helpers/safe-home.ts, with canaries) holding the work dir and, next to it
 * (not inside), the spool. Every routed command gets that HOME, whatever env a test adds.
 */
export function sandbox(prefix: string): Sandbox {
  const safe = safeHome(prefix);
  const root = safe.home;
  const dir = safe.cwd;
  const spool = new SpoolStore(path.join(root, 'spool'));
  const opts = (extra: Partial<RouteOptions> = {}): RouteOptions => ({ mode: 'cli', executor, meta, detect, cwd: dir, spool, ...extra, env: safe.env(extra.env ?? {}, false) });
  return {
    dir,
    home: root,
    assertCanariesIntact: () => safe.assertCanariesIntact(),
    spool,
    opts,
    async run(line, extra) {
      const r = await route(line, opts(extra));
      if (r.kind !== 'ran') throw new Error(`expected a run, got ${r.kind}: ${r.text}`);
      return { ...r, body: renderBody(r.input, { eolNote: (extra?.output ?? 'human') === 'human' }).text };
    },
    cleanup: () => safe.dispose(),
  };
}

const GIT_ENV = { GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com' };

/** Run git for set-up (identity fixed, no user config). */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_ENV, GIT_CONFIG_GLOBAL: '/dev/null' } });
}

/** A fresh repository on branch main; given `files` (name → content), they are its first commit, `message`. */
export function gitRepo(dir: string, files?: Record<string, string>, message = 'first commit'): string {
  mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  if (files) {
    for (const [name, content] of Object.entries(files)) writeFileSync(path.join(dir, name), content);
    git(dir, 'add', '.');
    git(dir, 'commit', '-qm', message);
  }
  return dir;
}

/** Environment for routed git commands: same identity, no user config. */
export const gitEnv: Record<string, string> = { ...GIT_ENV, GIT_CONFIG_GLOBAL: '/dev/null' };

/** Does a program exist on PATH? */
export function have(program: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Every test file's process lives in a temp HOME with canaries and a scratch cwd (vitest.config.ts
 * setupFiles → confine-test-file.ts), so nothing a test starts reaches the developer's HOME,
 * audit log or repository (issue 22). These fail if that confinement is dropped or bypassed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_BUNDLE, ROOT } from './fresh-build.js';
import { OUTSIDE_POINTERS } from './safe-home.js';

/** The account's real HOME, from the password database (HOME itself is the temp one here). */
const REAL_HOME = os.userInfo().homedir;

describe('test confinement', () => {
  it('this process: HOME and the XDG dirs in a temp HOME with canaries, the cwd a scratch directory inside it, no override pointing elsewhere', () => {
    const home = process.env.HOME!;
    expect(home).not.toBe(REAL_HOME);
    expect(home.startsWith(os.tmpdir() + path.sep)).toBe(true);
    expect(os.homedir()).toBe(home);
    expect(readFileSync(path.join(home, 'canary.txt'), 'utf8')).toMatch(/^canary /);
    expect(process.cwd().startsWith(home + path.sep)).toBe(true);
    expect(process.cwd().startsWith(ROOT)).toBe(false);
    for (const v of ['XDG_CONFIG_HOME', 'XDG_STATE_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'XDG_RUNTIME_DIR', 'MISH_HOME']) {
      expect(process.env[v], v).toMatch(new RegExp(`^${home.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`));
    }
    for (const v of OUTSIDE_POINTERS.filter((k) => !k.startsWith('XDG_'))) expect(process.env[v], v).toBeUndefined();
  });

  it('a process started without a cwd or env inherits both', () => {
    const r = spawnSync('sh', ['-c', 'printf "%s\\n%s\\n" "$HOME" "$(pwd -P)"'], { encoding: 'utf8' });
    const [home, cwd] = r.stdout.trim().split('\n');
    expect(home).toBe(process.env.HOME);
    expect(cwd).toBe(path.resolve(process.cwd()));
  });

  it('a mish run started with the inherited environment writes its audit log in the temp HOME, not the real one', () => {
    const realLog = path.join(REAL_HOME, '.local', 'state', 'mish', 'audit.jsonl');
    const marker = `confinement-${process.pid}-${Date.now()}`;
    const r = spawnSync('setsid', ['-w', process.execPath, CLI_BUNDLE, 'echo', marker], { encoding: 'utf8', input: '' });
    expect(r.status, r.stderr).toBe(0);
    const log = path.join(process.env.XDG_STATE_HOME!, 'mish', 'audit.jsonl');
    expect(readFileSync(log, 'utf8')).toContain(marker);
    // (Other programs on this machine may write the real log meanwhile: only our marker counts.)
    expect(existsSync(realLog) ? readFileSync(realLog, 'utf8').includes(marker) : false).toBe(false);
  });

  it('no test names the real HOME (os.userInfo) to start a process outside the confinement', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.test\.ts$|^mcp-helpers\.ts$/.test(e.name) && p !== path.join(ROOT, 'test', 'helpers', 'confinement.test.ts') && /userInfo\(\)\.homedir/.test(readFileSync(p, 'utf8'))) offenders.push(path.relative(ROOT, p));
      }
    };
    for (const d of ['test', 'e2e']) walk(path.join(ROOT, d));
    expect(offenders).toEqual([]);
  });
});

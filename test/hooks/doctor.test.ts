/**
 * `mish doctor` runs each installed hook with a probe the policy forbids: an installed, working
 * hook answers deny; a hook whose program is gone is reported, with the fix, and exit 1.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stopDaemon } from '../../src/main/hooks/hook-daemon-dir.js';
import { safeHome, type SafeHome } from '../helpers/safe-home.js';

const MISH = path.resolve(__dirname, '../../bin/mish.js');
let home: SafeHome;
beforeEach(() => (home = safeHome('doctor')));
afterEach(() => {
  // The hook daemon a hook call through the bash front started for this temp HOME.
  stopDaemon(home.env());
  home.dispose();
});

const mish = (...args: string[]) => spawnSync(process.execPath, [MISH, ...args], { cwd: home.cwd, env: home.env(), encoding: 'utf8' });

describe('mish doctor', () => {
  it('installed hooks answer the forbidden probe; the others say not installed', () => {
    expect(mish('init', 'claude-code').status).toBe(0);
    expect(mish('init', 'cursor').status).toBe(0);
    expect(mish('init', 'copilot').status).toBe(0);
    const r = mish('doctor', '--json');
    expect(r.status, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout) as { agent: string; installed: boolean; reachable?: boolean; answering?: boolean }[];
    expect(rows.map((x) => [x.agent, x.installed, x.answering ?? null])).toEqual([
      ['claude-code', true, true],
      ['codex', false, null],
      ['gemini-cli', false, null],
      ['cursor', true, true],
      ['copilot', true, true],
    ]);
  }, 60_000);

  it('a hook whose program is gone: not reachable, the fix named, exit 1', () => {
    expect(mish('init', 'gemini-cli').status).toBe(0);
    const file = path.join(home.home, '.gemini', 'settings.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/\/[^ "']*bin\/mish(?:-hook\.sh|-hook\.cjs|\.js)/, '/nowhere/bin/mish-hook.cjs'));
    const r = mish('doctor');
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/gemini-cli {2}installed · NOT reachable · NOT answering: \/nowhere\/bin\/mish-hook\.cjs does not exist \(run mish init gemini-cli again\)/);
  }, 60_000);

  it('an older install whose matcher covers only the shell tool is named, with the fix (it still answers)', () => {
    expect(mish('init', 'codex').status).toBe(0);
    const file = path.join(home.home, '.codex', 'hooks.json');
    writeFileSync(file, readFileSync(file, 'utf8').replace('"matcher": "Bash|apply_patch"', '"matcher": "Bash"'));
    const r = mish('doctor');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/codex {7}installed · reachable · answering \(\d+ ms\)\n {12}\S+hooks\.json\n {12}an older install: it hooks Bash, not Bash\|apply_patch \(the agent's file-editing tools\); run mish init codex again\n/);
    expect(mish('init', 'codex').status).toBe(0);
    expect(mish('doctor').stdout).not.toContain('an older install');
  }, 60_000);

  it('--help, and a bad argument is one line', () => {
    expect(mish('doctor', '--help').stdout).toMatch(/^usage: mish doctor/);
    const r = mish('doctor', '--frob');
    expect(r.status).toBe(2);
    expect(r.stderr).toBe("mish doctor: unknown argument '--frob' (see mish doctor --help)\n");
  });
});

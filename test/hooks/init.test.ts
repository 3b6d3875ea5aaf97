/**
 * `mish init <agent>` on real settings files: merges without touching the user's bytes,
 * idempotent, `--uninstall` byte-exact when nothing else changed (and only mish's entry removed
 * when something did), `--dry-run` prints a diff and writes nothing, `--project`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stopDaemon } from '../../src/main/hooks/hook-daemon-dir.js';
import { runInit, stateFile, type InitEnv } from '../../src/main/hooks/init-command.js';
import { HOST_IDS, HOSTS } from '../../src/main/hooks/hosts/index.js';
import { hasEntry } from '../../src/main/hooks/settings-file.js';
import { safeHome, type SafeHome } from '../helpers/safe-home.js';

let home: SafeHome;
let out = '';
let err = '';
const io = (): InitEnv => ({ env: home.env({}, false), cwd: home.cwd, out: (t) => (out += t), err: (t) => (err += t) });
beforeEach(() => {
  home = safeHome('init');
  out = err = '';
});
afterEach(() => {
  // The hook daemon a hook call through the bash front started for this temp HOME.
  stopDaemon(home.env());
  home.dispose();
});

/** A user's settings as people write them: comments, tabs, CRLF, their own hooks and keys in their order. */
const USER_FILE = [
  '{',
  '\t// my settings',
  '\t"model": "opus",',
  '\t"hooks": {',
  '\t\t"PreToolUse": [',
  '\t\t\t{ "matcher": "Write", "hooks": [{ "type": "command", "command": "my-linter" }] }',
  '\t\t]',
  '\t},',
  '\t"permissions": { "allow": ["Bash(npm test:*)"] }',
  '}',
  '',
].join('\r\n');

describe('mish init', () => {
  for (const id of HOST_IDS) {
    it(`${id}: installs into a new file, is idempotent, and --uninstall removes the file it created`, () => {
      const file = HOSTS[id].files.user(home.env({}, false));
      expect(runInit([id], io())).toBe(0);
      const installed = readFileSync(file, 'utf8');
      expect(hasEntry(installed, HOSTS[id]).installed).toBe(true);
      expect(runInit([id], io())).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(installed);
      expect(out).toContain('already installed');
      expect(runInit([id, '--uninstall'], io())).toBe(0);
      expect(existsSync(file)).toBe(false);
    });
  }

  it('merges into an existing file without changing a byte of what was there, and restores it byte for byte', () => {
    const file = HOSTS['claude-code'].files.user(home.env({}, false));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, USER_FILE);
    expect(runInit(['claude-code'], io())).toBe(0);
    const after = readFileSync(file, 'utf8');
    // Everything the user had is still there, in order, with its comment, tabs and CRLF.
    let at = 0;
    for (const piece of ['// my settings', '"model": "opus"', '"matcher": "Write"', 'my-linter', '"Bash(npm test:*)"']) {
      const i = after.indexOf(piece, at);
      expect(i, piece).toBeGreaterThan(-1);
      at = i;
    }
    expect(after.split('\r\n').length).toBeGreaterThan(USER_FILE.split('\r\n').length);
    expect(after.replace(/\r\n/g, '')).not.toContain('\n');
    expect(after).toContain('\t\t\t{ "matcher": "Write"');
    expect(after).toMatch(/hook claude-code --timeout 330/);
    expect(runInit(['claude-code', '--uninstall'], io())).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(USER_FILE);
    expect(out).toContain('back as it was');
  });

  it('codex and gemini-cli: the matcher covers their file-editing tools; an install with the shell-only matcher is updated in place, and --uninstall still gives the user\'s bytes back', () => {
    const cases = [
      ['codex', 'Bash|apply_patch', '"matcher": "Bash"'],
      ['gemini-cli', 'run_shell_command|write_file|replace', '"matcher": "run_shell_command"'],
    ] as const;
    for (const [id, matcher, older] of cases) {
      const file = HOSTS[id].files.user(home.env({}, false));
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, USER_FILE);
      expect(runInit([id], io())).toBe(0);
      const installed = readFileSync(file, 'utf8');
      expect(installed).toContain(`"matcher": "${matcher}"`);
      // What an earlier mish wrote (its shell tool only), and the record it kept of it: running init again updates that entry, nothing else.
      const earlier = installed.replace(`"matcher": "${matcher}"`, older);
      writeFileSync(file, earlier);
      const st = stateFile(home.env({}, false), file);
      writeFileSync(st, JSON.stringify({ ...JSON.parse(readFileSync(st, 'utf8')), installed: earlier }));
      expect(runInit([id], io())).toBe(0);
      expect(out).toContain(`updated mish's hook for ${HOSTS[id].name}`);
      expect(readFileSync(file, 'utf8')).toBe(installed);
      expect(runInit([id], io())).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(installed);
      expect(runInit([id, '--uninstall'], io())).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(USER_FILE);
    }
  });

  it('--uninstall after the user changed something else removes only mish\'s entry and keeps the change', () => {
    const file = HOSTS['claude-code'].files.user(home.env({}, false));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, USER_FILE);
    runInit(['claude-code'], io());
    writeFileSync(file, readFileSync(file, 'utf8').replace('"opus"', '"sonnet"'));
    expect(runInit(['claude-code', '--uninstall'], io())).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(USER_FILE.replace('"opus"', '"sonnet"'));
  });

  it('writes the bash front where a bash 4 or newer is on PATH, the node launcher where none is', () => {
    const file = HOSTS.codex.files.user(home.env({}, false));
    const command = () => (JSON.parse(readFileSync(file, 'utf8')) as { hooks: { PreToolUse: { hooks: { command: string }[] }[] } }).hooks.PreToolUse[0].hooks[0].command;
    expect(runInit(['codex'], { ...io(), env: { ...home.env({}, false), PATH: '/usr/bin:/bin' } })).toBe(0);
    expect(command()).toMatch(/^\/\S*\/bash \/\S*\/bin\/mish-hook\.sh \/\S*\/node hook codex --timeout \d+$/);
    expect(runInit(['codex', '--uninstall'], io())).toBe(0);
    // No bash on PATH (an empty directory): the node launcher.
    const empty = path.join(home.home, 'empty-bin');
    mkdirSync(empty);
    expect(runInit(['codex'], { ...io(), env: { ...home.env({}, false), PATH: empty } })).toBe(0);
    expect(command()).toMatch(/^\/\S*\/node \/\S*\/bin\/mish-hook\.cjs hook codex --timeout \d+$/);
  });

  it('--dry-run prints the diff and writes nothing', () => {
    const file = HOSTS.codex.files.user(home.env({}, false));
    expect(runInit(['codex', '--dry-run'], io())).toBe(0);
    expect(existsSync(file)).toBe(false);
    expect(out).toMatch(/^--- .*hooks\.json \(now\)\n\+\+\+ .*hooks\.json \(after\)\n/);
    expect(out).toMatch(/^\+.*hook codex --timeout 330/m);
  });

  it('--project writes the project file; the user file is untouched', () => {
    expect(runInit(['gemini-cli', '--project'], io())).toBe(0);
    expect(hasEntry(readFileSync(path.join(home.cwd, '.gemini', 'settings.json'), 'utf8'), HOSTS['gemini-cli']).installed).toBe(true);
    expect(existsSync(HOSTS['gemini-cli'].files.user(home.env({}, false)))).toBe(false);
  });

  it('a malformed settings file is left alone with a one-line error', () => {
    const file = HOSTS.cursor.files.user(home.env({}, false));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, '{ "version": 1, ');
    expect(runInit(['cursor'], io())).toBe(2);
    expect(err).toMatch(/^mish init: .*hooks\.json: not valid JSON at line 1 .*nothing was changed\)?\n$/);
    expect(readFileSync(file, 'utf8')).toBe('{ "version": 1, ');
  });

  it('alone, lists every agent with where its file is and what it would get; bad input is one line', () => {
    expect(runInit([], io())).toBe(0);
    for (const id of HOST_IDS) expect(out).toContain(id);
    expect(runInit(['vim'], io())).toBe(2);
    expect(err).toBe("mish init: unknown agent 'vim' (one of claude-code, codex, gemini-cli, cursor, copilot)\n");
  });
});

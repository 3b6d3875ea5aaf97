/**
 * Long command lines reach a local shell through a private file, not its terminal (issue 9: a
 * 1 MB sh_run took 9-24 s and was reported waiting for input in 6 of 35 runs): the exact text
 * runs, quickly, with no false prompt, and nothing is left on disk.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodePtyPort } from '../../platform/node-pty-port.js';
import { createSessionManager } from './session-manager.js';
import type { SessionEvent, SessionManager, ShellKind } from './types.js';
import { LONG_COMMAND_FILE_BYTES } from './integration.js';

let home: string;
beforeAll(() => (home = mkdtempSync(join(tmpdir(), 'mish-long-'))));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const cmdDirs = () => readdirSync(tmpdir()).filter((f) => f.startsWith('mish-cmd-'));

describe.each(['bash', 'zsh', 'dash'] as ShellKind[])('%s: a 1 MB command line', (shell) => {
  let m: SessionManager;
  const events: SessionEvent[] = [];
  beforeAll(async () => {
    m = createSessionManager({ port: nodePtyPort, cwd: home, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8' } });
    m.subscribe((e) => void events.push(e));
    expect((await m.create({ shell })).ok).toBe(true);
  });
  afterAll(() => m.dispose());

  it('runs exactly (quotes, $, backslashes, newlines, unicode kept), is never taken for a prompt, and leaves no file', async () => {
    const before = new Set(cmdDirs());
    // A payload full of what quoting must survive; its sha256 computed by the shell proves every byte arrived.
    const unit = `a'b"c$HOME\\d\`e\` é 🙂 %s\n`;
    const payload = unit.repeat(Math.ceil(1_048_576 / Buffer.byteLength(unit)));
    const quoted = `'${payload.replace(/'/g, `'\\''`)}'`;
    const command = `printf '%s' ${quoted} | sha256sum; echo "status $?"`;
    expect(Buffer.byteLength(command)).toBeGreaterThan(LONG_COMMAND_FILE_BYTES);
    for (let i = 0; i < 5; i++) {
      let out = '';
      const r = await m.run({ command, onData: (c) => (out += Buffer.from(c).toString('utf8')) });
      expect(r.exitCode).toBe(0);
      expect(out).toBe(`${createHash('sha256').update(payload).digest('hex')}  -\r\nstatus 0\r\n`);
    }
    expect(events.filter((e) => e.type === 'waiting-for-input')).toEqual([]);
    // The files were removed as they were read; the directory goes with the session.
    const mine = cmdDirs().filter((d) => !before.has(d));
    for (const d of mine) expect(readdirSync(join(tmpdir(), d))).toEqual([]);
    await m.close('default');
    for (const d of mine) expect(existsSync(join(tmpdir(), d))).toBe(false);
  });
});

/**
 * Enrichment on failure, on real commands: No such file or directory → nearest existing path
 * and its entries; Permission denied → owner, mode and current user; command not found →
 * similar commands on PATH. Each through the router, as the agent sees it.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anyOf, itUnless, missing, notRoot } from '../../../../test/helpers/skip.js';
import { sandbox } from '../router/test-kit.js';
import { editDistance, similarCommands } from './enrich.js';

const sb = sandbox('enrich');
const dir = sb.dir;
const me = os.userInfo();

beforeAll(() => {
  mkdirSync(path.join(dir, 'src/lib'), { recursive: true });
  writeFileSync(path.join(dir, 'src/lib/util.ts'), '');
  writeFileSync(path.join(dir, 'src/lib/utils.test.ts'), '');
  writeFileSync(path.join(dir, 'src/main.ts'), '');
  writeFileSync(path.join(dir, 'script.sh'), 'echo hi\n');
  chmodSync(path.join(dir, 'script.sh'), 0o644);
  writeFileSync(path.join(dir, 'bad-interp.sh'), '#!/usr/bin/no-such-interpreter\necho hi\n');
  chmodSync(path.join(dir, 'bad-interp.sh'), 0o755);
  writeFileSync(path.join(dir, 'crlf.sh'), '#!/bin/bash\r\necho hi\r\n');
  chmodSync(path.join(dir, 'crlf.sh'), 0o755);
  writeFileSync(path.join(dir, 'secret.txt'), 'x');
  chmodSync(path.join(dir, 'secret.txt'), 0o600);
});
afterAll(() => sb.cleanup());

const hints = async (line: string) => {
  const r = await sb.run(line);
  expect(r.exitCode, line).not.toBe(0);
  return r.facts.enrichment;
};

describe('No such file or directory', () => {
  it.each([
    ['cat src/lib/utl.ts', 'hint: src/lib/utl.ts does not exist; nearest existing: src/lib/ (2 entries: util.ts, utils.test.ts)'],
    ['cat src/nope/deeper/x.ts', 'hint: src/nope/deeper/x.ts does not exist; nearest existing: src/ (2 entries: lib/, main.ts)'],
    ['ls src/mian.ts', 'hint: src/mian.ts does not exist; nearest existing: src/ (2 entries: main.ts, lib/)'],
    ['cd src/lbi', 'hint: src/lbi does not exist; nearest existing: src/ (2 entries: lib/, main.ts)'],
    ['tar xzf src/archive.tgz', 'hint: src/archive.tgz does not exist; nearest existing: src/ (2 entries: main.ts, lib/)'],
    ['python3 src/main.py', `hint: ${dir}/src/main.py does not exist; nearest existing: ${dir}/src/ (2 entries: main.ts, lib/)`],
    ['node src/mian.js', `hint: ${dir}/src/mian.js does not exist; nearest existing: ${dir}/src/ (2 entries: main.ts, lib/)`],
    // `jq: error: Could not open src/lib/util.json: No such file or directory`
    ['jq . src/lib/util.json', 'hint: src/lib/util.json does not exist; nearest existing: src/lib/ (2 entries: util.ts, utils.test.ts)'],
  ])('%s', async (line, hint) => {
    expect(await hints(line)).toEqual([hint]);
  });

  it('an absolute path names its nearest existing ancestor absolutely', async () => {
    expect(await hints('touch /no-such-root-dir/x')).toEqual([expect.stringMatching(/^hint: \/no-such-root-dir\/x does not exist; nearest existing: \/ \(\d+ entries: /)]);
  });

  it('a script that exists but whose #! interpreter does not', async () => {
    expect(await hints('./bad-interp.sh')).toEqual(['hint: ./bad-interp.sh exists; its interpreter /usr/bin/no-such-interpreter (from #!) was not found']);
    expect(await hints('./crlf.sh')).toEqual(["hint: ./crlf.sh has Windows line endings: its #! line asks for \"/bin/bash\\r\", which does not exist (fix: sed -i 's/\\r$//' ./crlf.sh)"]);
  });
});

describe('Permission denied', () => {
  it('a script without the execute bit (denied even to root)', async () => {
    expect(await hints('./script.sh')).toEqual([`hint: ./script.sh is owned by ${me.username} (uid ${me.uid}, gid ${me.gid}), mode 0644; you are ${me.username} (uid ${me.uid}, gid ${me.gid}); it is not executable: chmod +x ./script.sh, or run it with its interpreter (bash ./script.sh)`]);
  });

  itUnless(anyOf(notRoot('drops to nobody with setpriv'), missing('setpriv')))('reading another user’s file, and creating in their directory', async () => {
    const asNobody = 'setpriv --reuid=65534 --regid=65534 --clear-groups';
    // The command ran as nobody: the hint names nobody, not the user mish runs as (root).
    expect(await hints(`${asNobody} cat secret.txt`)).toEqual(['hint: secret.txt is owned by root (uid 0, gid 0), mode 0600; it ran as nobody (uid 65534, gid 65534) through setpriv']);
    chmodSync(dir, 0o755);
    expect(await hints(`${asNobody} touch new.txt`)).toEqual([`hint: new.txt cannot be created in ./, which is owned by root (uid 0, gid 0), mode 0755; it ran as nobody (uid 65534, gid 65534) through setpriv`]);
    // One command switched user, one did not: both are named.
    expect(await hints(`cat secret.txt >/dev/null && ${asNobody} cat secret.txt`)).toEqual(['hint: secret.txt is owned by root (uid 0, gid 0), mode 0600; it ran as nobody (uid 65534, gid 65534) through setpriv, and as you: root (uid 0, gid 0)']);
  });
});

describe('command not found', () => {
  it.each([
    ['gti status', /^hint: gti: command not found; similar on PATH: .*\bgit\b/],
    ['pyhton3 -V', /^hint: pyhton3: command not found; similar on PATH: .*\bpython3\b/],
    ['echo x | grpe x', /^hint: grpe: command not found; similar on PATH: .*\bgrep\b/],
  ])('%s', async (line, hint) => {
    const h = await hints(line);
    expect(h).toHaveLength(1);
    expect(h[0]).toMatch(hint);
  });

  for (const [shell, line] of [
    ['dash', "dash -c 'gti status'"],
    ['zsh', "zsh -fc 'gti status'"],
    ['fish', "fish --no-config -c 'gti status'"],
  ]) {
    itUnless(missing(shell))(`under ${shell} too`, async () => {
      expect(await hints(line)).toEqual([expect.stringMatching(/^hint: gti: command not found; similar on PATH: .*\bgit\b/)]);
    });
  }

  it('a short name: only what keeps part of it (go → gio, not [, ar, bc)', () => {
    const bin = path.join(dir, 'short-bin');
    mkdirSync(bin);
    for (const n of ['gio', '[', 'ar', 'bc', 'git']) {
      writeFileSync(path.join(bin, n), '');
      chmodSync(path.join(bin, n), 0o755);
    }
    expect(similarCommands('go', bin)).toBe('hint: go: command not found; similar on PATH: gio');
    expect(similarCommands('x', bin)).toBe('hint: x: command not found and nothing similar on PATH');
    expect(similarCommands('gti', bin)).toBe('hint: gti: command not found; similar on PATH: git, gio');
  });

  it('nothing similar: says so', async () => {
    expect(await hints('qqqqzzzzxxxx')).toEqual(['hint: qqqqzzzzxxxx: command not found and nothing similar on PATH']);
  });
});

describe('no hint when the command succeeds or the message is something else', () => {
  it('success, and a failure with no path problem', async () => {
    expect((await sb.run('cat src/main.ts')).facts.enrichment).toEqual([]);
    expect((await sb.run("sh -c 'echo not found: everything; exit 3'")).facts.enrichment).toEqual([]);
  });
});

describe('editDistance (ranks "similar on PATH")', () => {
  it('a swap of two neighbouring characters is one edit, so the typo outranks same-length strangers', () => {
    expect(editDistance('gti', 'git')).toBe(1);
    expect(editDistance('sl', 'ls')).toBe(1);
    expect(editDistance('gti', 'ctr')).toBe(2);
    expect(editDistance('gti', 'gcc')).toBe(2);
    expect(editDistance('kubeclt', 'kubectl')).toBe(1);
  });

  it('insertions, deletions and substitutions as in Levenshtein', () => {
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('python', 'python3')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
});

/**
 * Narrate on real files in a temp dir: every file operation the issue names says what it did,
 * and on failure what went wrong (the program's message, what did not happen, a hint).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { anyOf, itUnless, missing, notRoot } from '../../../../test/helpers/skip.js';
import { sandbox } from '../router/test-kit.js';
import { NARRATE_OUTPUT_LINES } from './narrate.js';
import { withoutDuration } from '../../../../test/helpers/status-line.js';

const sb = sandbox('narrate');
let n = 0;
/** A fresh sub-directory per test, so tests never see each other's files. */
let cwd: string;
beforeEach(() => {
  cwd = path.join(sb.dir, `t${++n}`);
  mkdirSync(cwd);
});
afterAll(() => sb.cleanup());

function file(rel: string, content: string | number): string {
  const p = path.join(cwd, rel);
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, typeof content === 'number' ? 'x'.repeat(content) : content);
  return p;
}

async function narrate(line: string) {
  const r = await sb.run(line, { cwd });
  expect(r.category, line).toBe('narrate');
  return r;
}

/** The effect lines of a run. */
async function effects(line: string): Promise<string[]> {
  const r = await narrate(line);
  if (r.report.category !== 'narrate') throw new Error('not narrate');
  return r.report.effects;
}

describe('cp', () => {
  it('a file, into a directory, several files, a tree, with -t', async () => {
    file('file', 4300);
    mkdirSync(path.join(cwd, 'backup'));
    expect(await effects('cp file copy')).toEqual(['→ cp: file → copy (4.2KB)']);
    expect(await effects('cp file backup/')).toEqual(['→ cp: file → backup/ (4.2KB)']);
    file('b', 10);
    expect(await effects('cp file b backup')).toEqual(['→ cp: 2 files → backup/ (4.2KB)']);
    file('tree/sub/c', 100);
    file('tree/d', 24);
    expect(await effects('cp -r tree tree2')).toEqual(['→ cp: tree → tree2 (2 files, 2 dirs, 124B)']);
    expect(await effects('cp -r tree tree2')).toEqual(['→ cp: tree → tree2/ (2 files, 2 dirs, 124B)']);
    expect(existsSync(path.join(cwd, 'tree2/tree/sub/c'))).toBe(true);
    expect(await effects('cp -t backup b')).toEqual(['→ cp: b → backup/ (10B)']);
  });

  it('mkdir then cp in one line', async () => {
    file('file', 4300);
    const r = await narrate('mkdir -p backup && cp file backup/');
    expect(r.body).toBe('→ mkdir: created backup\n→ cp: file → backup/ (4.2KB)\n');
    expect(readFileSync(path.join(cwd, 'backup/file'), 'utf8')).toHaveLength(4300);
  });

  it('failure: a missing source, and a partial copy', async () => {
    const r = await narrate('cp nope.txt backup/');
    expect(r.exitCode).toBe(1);
    expect(r.body).toBe(
      "cp: cannot stat 'nope.txt': No such file or directory\n✗ cp: nope.txt → backup/ (nothing written)\nhint: nope.txt does not exist; nearest existing: ./ (0 entries)\n",
    );
    file('a', 3);
    mkdirSync(path.join(cwd, 'd'));
    const p = await narrate('cp a nope d');
    expect(p.exitCode).toBe(1);
    expect(p.report.category === 'narrate' && p.report.effects).toEqual(['→ cp: a → d/ (3B)', '✗ cp: not copied: nope']);
  });

  itUnless(anyOf(notRoot('drops to nobody with setpriv'), missing('setpriv')))('failure: permission denied on the destination (as another user)', async () => {
    file('a', 3);
    mkdirSync(path.join(cwd, 'locked'));
    chmodSync(path.join(cwd, 'locked'), 0o755);
    const r = await narrate('setpriv --reuid=65534 --regid=65534 --clear-groups cp a locked/');
    expect(r.exitCode).toBe(1);
    expect(r.body).toContain("cp: cannot create regular file 'locked/a': Permission denied\n✗ cp: a → locked/ (nothing written)\n");
    expect(r.body).toContain('hint: locked/a cannot be created in locked/, which is owned by root (uid 0, gid 0), mode 0755; it ran as nobody (uid 65534, gid 65534) through setpriv\n');
  });
});

describe('mv', () => {
  it('renames, moves into a directory, fails on a missing source', async () => {
    file('a', 2048);
    mkdirSync(path.join(cwd, 'dir'));
    expect(await effects('mv a b')).toEqual(['→ mv: a → b (2.0KB)']);
    expect(existsSync(path.join(cwd, 'a'))).toBe(false);
    expect(await effects('mv b dir/')).toEqual(['→ mv: b → dir/ (2.0KB)']);
    expect(existsSync(path.join(cwd, 'dir/b'))).toBe(true);
    const r = await narrate('mv nope dir');
    expect(r.body).toBe("mv: cannot stat 'nope': No such file or directory\n✗ mv: nope → dir (nothing written)\nhint: nope does not exist; nearest existing: ./ (1 entries: dir/)\n");
  });
});

describe('rm and rmdir', () => {
  it('counts files, bytes and dirs', async () => {
    for (const x of ['a', 'b', 'c']) file(`junk/sub/${x}`, 4096);
    file('one', 5);
    const r = await narrate('rm -r junk one');
    expect(r.body).toBe('→ rm: 4 files (12KB), 2 dirs\n');
    expect(existsSync(path.join(cwd, 'junk'))).toBe(false);
    mkdirSync(path.join(cwd, 'empty'));
    expect(await effects('rmdir empty')).toEqual(['→ rmdir: 1 dir']);
    expect(await effects('rm -f not-there')).toEqual(['→ rm: nothing to remove']);
  });

  it('a glob the shell expands: what vanished from the directory', async () => {
    file('logs/a.log', 10);
    file('logs/b.log', 10);
    file('logs/keep.txt', 10);
    expect(await effects('rm logs/*.log')).toEqual(['→ rm: removed from logs/: a.log, b.log']);
    expect(existsSync(path.join(cwd, 'logs/keep.txt'))).toBe(true);
  });

  it('failures: missing file, non-empty dir, directory without -r', async () => {
    const r = await narrate('rm nope');
    expect(r.body).toBe("rm: cannot remove 'nope': No such file or directory\n✗ rm: did not exist: nope\nhint: nope does not exist; nearest existing: ./ (0 entries)\n");
    file('full/x', 1);
    const d = await narrate('rmdir full');
    expect(d.body).toBe("rmdir: failed to remove 'full': Directory not empty\n✗ rmdir: nothing removed\n✗ rmdir: still there: full\n");
    const noR = await narrate('rm full');
    expect(noR.body).toBe("rm: cannot remove 'full': Is a directory\n✗ rm: nothing removed\n✗ rm: still there: full\n");
  });
});

describe('mkdir and touch', () => {
  it('create, update, already there, and fail', async () => {
    expect(await effects('mkdir -p a/b/c')).toEqual(['→ mkdir: created a/b/c']);
    expect(await effects('mkdir -p a/b/c')).toEqual(['→ mkdir: already there: a/b/c']);
    const r = await narrate('mkdir a');
    expect(r.body).toBe('mkdir: cannot create directory ‘a’: File exists\n✗ mkdir: not created: a\n');
    const deep = await narrate('mkdir x/y');
    expect(deep.body).toBe('mkdir: cannot create directory ‘x/y’: No such file or directory\n✗ mkdir: not created: x/y\nhint: x/y does not exist; nearest existing: ./ (1 entries: a/)\n');
    expect(await effects('touch new')).toEqual(['→ touch: created new']);
    execFileSync('touch', ['-d', '2001-01-01', path.join(cwd, 'new')]);
    expect(await effects('touch new')).toEqual(['→ touch: updated new']);
    const t = await narrate('touch missing/dir/f');
    expect(t.body).toBe("touch: cannot touch 'missing/dir/f': No such file or directory\n✗ touch: not touched: missing/dir/f\nhint: missing/dir/f does not exist; nearest existing: ./ (2 entries: a/, new)\n");
  });

  it('what a later command of the line moved or removed was still created (not "not touched" / "already there")', async () => {
    expect(await effects('mkdir -p d/e && touch d/e/f && mv d/e/f d/g')).toEqual(['→ mkdir: created d/e', '→ touch: created d/e/f', '→ mv: d/e/f → d/g (0B)']);
    expect(await effects('mkdir tmpdir && rmdir tmpdir')).toEqual(['→ mkdir: created tmpdir', '→ rmdir: removed tmpdir (made earlier in the line)']);
    // touch -c creates nothing: a missing path stays "not touched".
    expect(await effects('touch -c nothere && mkdir z')).toEqual(['✗ touch: not touched: nothere', '→ mkdir: created z']);
  });
});

describe('ln', () => {
  it('symlink, hard link, and an existing name', async () => {
    file('target.txt', 7);
    expect(await effects('ln -s target.txt link')).toEqual(['→ ln: link → target.txt (symlink)']);
    expect(readlinkSync(path.join(cwd, 'link'))).toBe('target.txt');
    expect(await effects('ln target.txt hard')).toEqual(['→ ln: hard → target.txt (hard link)']);
    expect(statSync(path.join(cwd, 'hard')).ino).toBe(statSync(path.join(cwd, 'target.txt')).ino);
    const r = await narrate('ln -s target.txt link');
    expect(r.body).toBe("ln: failed to create symbolic link 'link': File exists\n✗ ln: link → target.txt not created\n");
  });
});

describe('chmod and chown', () => {
  it('modes before and after, recursive, unchanged, and a missing file', async () => {
    chmodSync(file('m.sh', 'echo hi\n'), 0o644);
    expect(await effects('chmod 755 m.sh')).toEqual(['→ chmod: m.sh 644 → 755']);
    expect(await effects('chmod -x m.sh')).toEqual(['→ chmod: m.sh 755 → 644']);
    expect(await effects('chmod 644 m.sh')).toEqual(['→ chmod: unchanged: m.sh (644)']);
    file('tree/a', 1);
    file('tree/b/c', 1);
    chmodSync(path.join(cwd, 'tree'), 0o755);
    expect(await effects('chmod -R 700 tree')).toEqual(['→ chmod: tree 755 → 700 (recursive: 2 files, 2 dirs)']);
    const r = await narrate('chmod 600 nope');
    expect(r.body).toBe("chmod: cannot access 'nope': No such file or directory\n✗ chmod: did not exist: nope\nhint: nope does not exist; nearest existing: ./ (2 entries: tree/, m.sh)\n");
  });

  itUnless(notRoot('changing owners needs it'))('owner names before and after', async () => {
    file('owned', 1);
    expect(await effects('chown nobody:nogroup owned')).toEqual(['→ chown: owned root:root → nobody:nogroup']);
    expect(lstatSync(path.join(cwd, 'owned')).uid).toBe(65534);
    const r = await narrate('chown no-such-user-xyz owned');
    expect(r.exitCode).toBe(1);
    expect(r.body).toBe("chown: invalid user: ‘no-such-user-xyz’\n→ chown: unchanged: owned (nobody:nogroup)\n");
  });
});

describe('tar and unzip', () => {
  function archives() {
    file('src/a.txt', 'alpha\n');
    file('src/sub/b.txt', 'beta\n');
    execFileSync('tar', ['czf', 'pack.tgz', 'src'], { cwd });
    execFileSync('zip', ['-qr', 'pack.zip', 'src'], { cwd });
  }

  const noZip = missing('zip', 'unzip');

  itUnless(noZip)('extraction into a directory, over existing files, and creation', async () => {
    archives();
    mkdirSync(path.join(cwd, 'out'));
    expect(await effects('tar xzf pack.tgz -C out')).toEqual(['→ tar: extracted 2 files (11B), 2 dirs into out/: src/']);
    expect(readFileSync(path.join(cwd, 'out/src/sub/b.txt'), 'utf8')).toBe('beta\n');
    expect(await effects('tar -xzf pack.tgz')).toEqual(['→ tar: overwrote 2 files (11B) in ./: src/a.txt, src/sub/b.txt']);
    expect(await effects('tar --extract --file=pack.tgz --directory=out')).toEqual(['→ tar: overwrote 2 files (11B) in out/: src/a.txt, src/sub/b.txt']);
    const c = await narrate('tar czf new.tgz src');
    expect(c.report.category === 'narrate' && c.report.effects[0]).toMatch(/^→ tar: created new\.tgz \(\d+B\)$/);
  });

  itUnless(noZip)('unzip extraction, and a verbose listing kept short', async () => {
    archives();
    expect(await effects('unzip -q pack.zip -d out2')).toEqual(['→ unzip: extracted 2 files (11B), 2 dirs into out2/: src/']);
    const r = await narrate('unzip -o pack.zip');
    // unzip's own listing is short: it is kept above the effect line.
    expect(r.body).toMatch(/^Archive: {2}pack\.zip\n.*src\/sub\/b\.txt.*\n.*src\/a\.txt.*\n→ unzip: overwrote 2 files \(11B\) in \.\/: src\/a\.txt, src\/sub\/b\.txt\n$/);
  });

  itUnless(noZip)('failures: missing archive, missing target directory', async () => {
    const r = await narrate('tar xzf missing.tgz');
    expect(r.exitCode).toBe(2);
    expect(r.body).toContain('tar (child): missing.tgz: Cannot open: No such file or directory\n');
    expect(r.body).toContain('✗ tar: nothing extracted\nhint: missing.tgz does not exist; nearest existing: ./ (0 entries)\n');
    archives();
    const d = await narrate('tar xzf pack.tgz -C nodir');
    expect(d.body).toContain('tar: nodir: Cannot open: No such file or directory\n');
    expect(d.body).toContain('✗ tar: nothing extracted\n');
    expect(d.body).toMatch(/hint: nodir does not exist; nearest existing: \.\/ \(3 entries/);
    const u = await narrate('unzip missing.zip');
    expect(u.exitCode).toBe(9);
    expect(u.body).toBe('unzip:  cannot find or open missing.zip, missing.zip.zip or missing.zip.ZIP.\n✗ unzip: nothing extracted\nhint: missing.zip does not exist; nearest existing: ./ (3 entries: pack.zip, pack.tgz, src/)\n');
  });
});

describe('redirections, sed -i and long output', () => {
  it('a content command writing to a file', async () => {
    file('a.txt', 'hello\n');
    expect(await effects('cat a.txt > b.txt')).toEqual(['→ wrote b.txt (6B)']);
    expect(await effects('cat a.txt >> b.txt')).toEqual(['→ appended 6B to b.txt (now 12B)']);
    expect(await effects('cat a.txt >> new.txt')).toEqual(['→ wrote new.txt (6B)']);
    expect(await effects("sed -i 's/hello/bye/' a.txt")).toEqual(['→ sed: modified a.txt (6B → 4B)']);
    expect(readFileSync(path.join(cwd, 'a.txt'), 'utf8')).toBe('bye\n');
  });

  it('a successful operation that printed a lot keeps head and tail with an exact marker', async () => {
    for (let i = 0; i < 30; i++) file(`many/f${String(i).padStart(2, '0')}`, 1);
    const r = await narrate('cp -rv many many2');
    if (r.report.category !== 'narrate') throw new Error('not narrate');
    const lines = r.report.output.trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(NARRATE_OUTPUT_LINES);
    expect(r.report.cut).toMatchObject({ fromLine: 5, omittedLines: r.report.cut!.totalLines - 8 });
    // The host renders the marker with its own name for the raw output (here the CLI's), and the status line the line count.
    const shown = r.body.split('\n');
    const { fromLine, toLine, omittedLines, totalLines } = r.report.cut!;
    expect(shown.find((l) => l.startsWith('[mish: lines'))).toBe(`[mish: lines ${fromLine}-${toLine} omitted (${omittedLines} lines); read them: ${r.facts.spoolRef} --lines ${fromLine}-${toLine}]`);
    expect(withoutDuration(r.text)).toMatch(new RegExp(`\\n\\[exit 0 · ${totalLines} lines\\]\\n$`));
    expect(r.report.effects).toEqual(['→ cp: many → many2 (30 files, 1 dir, 30B)']);
  });
});

describe('with a symlink in the way', () => {
  it('rm removes the link, not its target', async () => {
    file('real/keep', 9);
    symlinkSync('real', path.join(cwd, 'alias'));
    expect(await effects('rm alias')).toEqual(['→ rm: 1 file']);
    expect(existsSync(path.join(cwd, 'real/keep'))).toBe(true);
  });
});

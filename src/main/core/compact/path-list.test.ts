import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactBlocks, compactPaths, expandBlocks, expandPathLine, expandPaths, PathListSyntaxError, type NameBlock } from './path-list.js';

/** Path segments that stress the notation: every character it gives a meaning to, spaces, dots, digits, unicode. */
const segment = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'b', 'Z', '0', '1', '9', ' ', '.', '-', '_', '{', '}', ',', '\\', '(', ')', '*', ':', 'é', '日', '🙂', '~', '..', '\t'), minLength: 1, maxLength: 8 }),
  fc.string({ minLength: 1, maxLength: 6 }).map((s) => s.replace(/[\n/]/g, 'x') || 'x'),
  fc.constantFrom('*', ':', '-', '--x', ' ', '.', '..', 'a b', '{a,b}', '{1..3}', 'x(y)', '(', ')', '\\', 'src', 'lib', 'index.ts', 'index.test.ts', 'a.d.ts'),
  fc.tuple(fc.constantFrom('file', 'img_', 'part-', ''), fc.integer({ min: 0, max: 120 }), fc.constantFrom('', '.txt', '.rs', '/')).map(([p, n, s]) => `${p}${String(n).padStart(3, '0')}${s}`),
);
const pathArb = fc
  .tuple(fc.constantFrom('', '/', './', '../', '//'), fc.array(segment, { minLength: 1, maxLength: 5 }), fc.boolean())
  .map(([root, segs, slash]) => root + segs.join('/') + (slash ? '/' : ''));

/** `find .`'s output for these paths (segment lists): `.`, then each directory the first time it is met, then its entries. */
function findListing(rows: string[][]): string[] {
  const out: string[] = ['.'];
  const seen = new Set<string>();
  for (const segs of rows) {
    let p = '.';
    for (const s of segs) {
      p += '/' + s;
      if (!seen.has(p)) {
        seen.add(p);
        out.push(p);
      }
    }
  }
  return out;
}
/** A listing the way `find` prints one: every directory, then what is in it (depth first). */
const findLike = fc.array(fc.array(fc.constantFrom('a', 'b', 'c d', 'e{f}', 'x(1)', '*', 'lib', 'f.ts', 'g.test.ts'), { minLength: 1, maxLength: 4 }), { maxLength: 40 }).map(findListing);

/** Is this text free of a lone surrogate half (what UTF-8 cannot carry)? (String.prototype.isWellFormed is ES2024, past the lib.) */
const wellFormed = (s: string): boolean => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

/** Exact both ways: the whole text, and its lines each read alone (issue 23: no line needs another). */
const roundTrip = (paths: string[]): void => {
  const text = compactPaths(paths);
  expect(expandPaths(text)).toEqual(paths);
  if (paths.length) expect(text.split('\n').flatMap(expandPathLine)).toEqual(paths);
  // Well-formed names give well-formed text: no brace between a surrogate pair's halves (UTF-8 has no lone half).
  if (paths.every(wellFormed)) expect(wellFormed(text)).toBe(true);
};

describe('path-list compaction', () => {
  it('expand(compact(x)) === x for random path lists (spaces, unicode, braces, commas, parentheses, colons, stars, leading dashes, trailing slashes, duplicates, any order)', () => {
    fc.assert(
      fc.property(fc.array(pathArb, { maxLength: 60 }), (paths) => roundTrip(paths)),
      { numRuns: 3000 },
    );
  });

  it('expand(compact(x)) === x for lists with many repeats and re-visited directories (order kept, duplicates kept)', () => {
    const small = fc.constantFrom('a', 'a/b', 'a/b/c', 'a/', 'a/b/', 'b', 'b/a', 'a/x.ts', 'a/y.ts', 'a/b/x.ts', '*', 'a/*', 'a/:', ':', 'a(', 'a/b(c)');
    fc.assert(
      fc.property(fc.array(small, { maxLength: 40 }), (paths) => roundTrip(paths)),
      { numRuns: 3000 },
    );
  });

  it('expand(compact(x)) === x for find-like and tar-like listings (a directory, then what is in it)', () => {
    fc.assert(
      fc.property(findLike, fc.boolean(), (paths, tar) => {
        // tar tf prints a directory with a trailing slash; which entries are directories is known from the list.
        const dirs = new Set(paths.filter((p, i) => paths.slice(i + 1).some((q) => q.startsWith(p + '/'))));
        roundTrip(tar ? paths.map((p) => (dirs.has(p) ? p + '/' : p)) : paths);
        roundTrip([...paths].reverse());
      }),
      { numRuns: 1500 },
    );
  });

  it('expand(compact(x)) === x for deep find and tar listings (chains of single directories), some paths left out (find -newer, -name), names the notation gives a meaning to', () => {
    const name = fc.constantFrom('a', 'b', 'src', 'x:', ':', 'c d', 'e,f', '{g}', 'h{1..2}', '.', '..', 'a\\b', 'x(1)', 'i.ts', 'j:/');
    const rows = fc.array(fc.array(name, { minLength: 1, maxLength: 7 }), { minLength: 1, maxLength: 25 });
    fc.assert(
      fc.property(rows, fc.boolean(), fc.array(fc.boolean(), { minLength: 200, maxLength: 200 }), fc.constantFrom('.', 'top', 'a:'), (segs, tar, keep, root) => {
        const listing = findListing(segs).map((p) => root + p.slice(1));
        const dirs = new Set(listing.filter((p, i) => listing.slice(i + 1).some((q) => q.startsWith(p + '/'))));
        const all = tar ? listing.map((p) => (dirs.has(p) ? p + '/' : p)) : listing;
        roundTrip(all);
        roundTrip(all.filter((_, i) => keep[i % keep.length]));
      }),
      { numRuns: 2000 },
    );
  });

  it('expand(compact(x)) === x for big find-like listings (directories on lines of their own, read where their name is), reversed, with repeats', () => {
    const big = fc.array(fc.array(fc.constantFrom('a', 'b', 'c d', 'x(1)', '*', 'lib', 'f.ts', 'g.test.ts', 'f1', 'f2', 'f3'), { minLength: 1, maxLength: 5 }), { minLength: 50, maxLength: 200 });
    fc.assert(
      fc.property(big, fc.boolean(), fc.nat(60), (rows, reverse, repeat) => {
        const out = findListing(rows);
        const paths = reverse ? out.reverse() : out;
        roundTrip([...paths, ...paths.slice(0, repeat)]);
      }),
      { numRuns: 300 },
    );
  });

  it('expandBlocks(compactBlocks(x)) === x for ls -R-like blocks (empty directories, names ls -p marks with /, any characters)', () => {
    const name = fc.oneof(segment, segment.map((s) => s + '/'));
    const block = fc.record({ dir: fc.oneof(pathArb, fc.constantFrom('.', '/', './a b')), names: fc.array(name, { maxLength: 12 }) });
    fc.assert(
      fc.property(fc.option(fc.array(name, { minLength: 1, maxLength: 5 }), { nil: undefined }), fc.array(block, { maxLength: 8 }), (files, dirs) => {
        const blocks: NameBlock[] = [...(files ? [{ names: files }] : []), ...dirs];
        expect(expandBlocks(compactBlocks(blocks))).toEqual(blocks);
      }),
      { numRuns: 1500 },
    );
  });

  it('expand(compact(x)) === x for sorted numbered runs, padded and not', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 1, max: 150 }), fc.integer({ min: 0, max: 5 }), fc.constantFrom('', 'dir/', 'a b/{x}/', 'p(1)/'), (start, n, pad, dir) => {
        roundTrip(Array.from({ length: n }, (_, i) => `${dir}file${String(start + i).padStart(pad, '0')}.txt`));
      }),
      { numRuns: 1000 },
    );
  });

  it('every line names its full directory; numbered runs as ranges; shared endings and beginnings factored', () => {
    const paths = [
      'README.md',
      'src/main/core/squasher/a.ts',
      'src/main/core/squasher/b.ts',
      'src/main/core/squasher/c.test.ts',
      'src/main/core/squasher/d.test.ts',
      'src/main/core/squasher/e.test.ts',
      'src/main/core/squasher/f.ts',
      'src/main/core/squasher/g.ts',
      'src/main/core/squasher/h.ts',
      'src/main/core/squasher/i.ts',
      'src/main/core/squasher/j.ts',
      'src/main/core/grammar/x.ts',
      'src/main/core/grammar/y.ts',
      ...Array.from({ length: 19 }, (_, i) => `fixtures/file${String(i + 1).padStart(3, '0')}.txt`),
      'fixtures/git-pull.json',
      'fixtures/git-pull.raw',
      'fixtures/git-push.json',
      'fixtures/git-push.raw',
    ];
    const text = compactPaths(paths);
    // Two directories' runs share a line under their common directory when that is shorter (a braced entry pays `squasher/` once).
    expect(text).toBe(['README.md', 'src/main/core/: squasher/{a,b,c.test,d.test,e.test,f,g,h,i,j}.ts grammar/{x,y}.ts', 'fixtures/: file{001..019}.txt git-{pull,push}.{json,raw}'].join('\n'));
    roundTrip(paths);
  });

  it('a run below a subdirectory keeps the subdirectory outside its braces though its first names share more (git hook samples)', () => {
    // find . in a fresh clone: .git/hooks' samples, the first two sharing `hooks/pre-`.
    const samples = ['pre-applypatch', 'pre-push', 'fsmonitor-watchman', 'commit-msg', 'post-update', 'update'];
    const paths = ['.git/description', '.git/hooks', ...samples.map((s) => `.git/hooks/${s}.sample`), '.git/packed-refs'];
    const text = compactPaths(paths);
    expect(text).toBe(`.git/: description hooks hooks/{${samples.join(',')}}.sample packed-refs`);
    roundTrip(paths);
  });

  it('find: a directory, then what is in it; a directory met again gets another line, whole', () => {
    const big = Array.from({ length: 40 }, (_, i) => `./lib/m${i}.js`);
    const paths = ['.', './src', './src/a.ts', './src/util', './src/util/b.ts', './lib', ...big, './package.json'];
    const text = compactPaths(paths);
    for (const line of text.split('\n')) expect(line).not.toMatch(/^ |\/\*( |$)|\(/);
    // The directory printed just before what is in it heads their line (`d:`), not a line of its
    // parent's; the directories below it come with their first path (find's order).
    expect(text).toBe('.: src/a.ts src/util/b.ts lib/m{0..39}.js package.json');
    roundTrip(paths);
  });

  it('`d:` lists d\'s tree in find\'s order: a path after its directories not yet named on the line (chains of single directories once)', () => {
    const mvn = ['mvn', 'mvn/src', 'mvn/src/test', 'mvn/src/test/java', 'mvn/src/test/java/demo', 'mvn/src/test/java/demo/CalcTest.java', 'mvn/src/main', 'mvn/src/main/java', 'mvn/src/main/java/demo', 'mvn/src/main/java/demo/Calc.java', 'mvn/pom.xml'];
    expect(compactPaths(mvn)).toBe('mvn: src/test/java/demo/CalcTest.java src/main/java/demo/Calc.java pom.xml');
    roundTrip(mvn);
    expect(expandPathLine('src: a.ts util/b.ts util/c.ts')).toEqual(['src', 'src/a.ts', 'src/util', 'src/util/b.ts', 'src/util/c.ts']);
    expect(expandPathLine('src: util/{b,c}.ts')).toEqual(['src', 'src/util', 'src/util/b.ts', 'src/util/c.ts']);
    // A directory named before what is in it (empty, then met again) is not named twice.
    expect(expandPathLine('d: a a/x')).toEqual(['d', 'd/a', 'd/a/x']);
    // An empty directory is written, a directory followed by its entries is not.
    expect(compactPaths(['d', 'd/empty', 'd/src', 'd/src/a.c'])).toBe('d: empty src/a.c');
    // tar's spelling: `d:/`, each directory with its `/`.
    const tar = ['mvn/', 'mvn/src/', 'mvn/src/test/', 'mvn/src/test/Calc.java', 'mvn/pom.xml'];
    expect(compactPaths(tar)).toBe('mvn:/ src/test/Calc.java pom.xml');
    expect(expandPathLine('src:/ a.ts util/b.ts')).toEqual(['src/', 'src/a.ts', 'src/util/', 'src/util/b.ts']);
    roundTrip(tar);
    // Not find's order (a directory missing: find -newer, -name): the directory itself on `d/:`, nothing implied.
    for (const paths of [['src', 'src/a.ts', 'src/x/b.ts'], ['src/', 'src/a.ts', 'src/x/b.ts'], ['src', 'src/x', 'src/y/z', 'src/x/w'], ['s', 's/a', 's/a/b', 's/c/d', 's/a/e']]) {
      const text = compactPaths(paths);
      roundTrip(paths);
      for (const line of text.split('\n')) expect(line).not.toMatch(/^\S*[^/\s\\]:\/? /);
    }
    // A path ending with `:/` on a line without a directory is escaped (it would read as a `d:/` header).
    expect(compactPaths(['a:/', 'b'])).toBe('a\\:/ b');
    for (const paths of [['a:/', 'b'], ['x:/', 'x:/y'], ['x:/', 'x:/y/', 'x:/y/z'], ['x::', 'x::/y'], ['a/:/', 'a/:/b']]) roundTrip(paths);
  });

  it('`d:` heads a line that starts with the directory itself (find prints d, then d/x); a continuation line is `d/:`', () => {
    expect(compactPaths(['src', 'src/a.ts', 'src/b.ts'])).toBe('src: a.ts b.ts');
    expect(expandPathLine('src: a.ts b.ts')).toEqual(['src', 'src/a.ts', 'src/b.ts']);
    expect(expandPathLine('src:')).toEqual(['src']);
    expect(compactPaths(['.', './a', './b'])).toBe('.: a b');
    const long = ['lib', ...Array.from({ length: 300 }, (_, i) => `lib/${'abcdefgh'[i % 8]}-${i * 7}.js`)];
    const lines = compactPaths(long).split('\n');
    expect(lines[0].startsWith('lib: ')).toBe(true);
    for (const l of lines.slice(1)) expect(l.startsWith('lib/: ')).toBe(true);
    roundTrip(long);
    // A whole path ending with `:` on a line without a directory is escaped (it would read as a `d:` header).
    expect(compactPaths(['a:', 'b'])).toBe('a\\: b');
    for (const paths of [['a:', 'b'], ['x:', 'x:/y'], ['/', '//x'], ['a:', 'a:/b', 'c:'], ['d\\', 'd\\/e']]) roundTrip(paths);
  });

  it('`.` on a dir/: line is the directory itself (find d after other entries of its line; `./` tar\'s d/); a name `.` is escaped there', () => {
    expect(compactPaths(['src/', 'src/a.ts', 'src/b.ts'])).toBe('src:/ a.ts b.ts');
    expect(expandPathLine('src/: . a.ts')).toEqual(['src', 'src/a.ts']);
    expect(expandPathLine('src/: ./ a.ts')).toEqual(['src/', 'src/a.ts']);
    // Without a directory on the line, `.` is the path `.` (find . prints it first).
    expect(expandPathLine('. a')).toEqual(['.', 'a']);
    // A directory `.` below the line's (tar's `x/./`, then what is in it) is escaped too.
    for (const paths of [['src/.', 'src/a'], ['src/./', 'src/a'], ['x', 'src/.', 'src/.', 'src/a'], ['.', './.', './a'], ['x/./', 'x/./a', 'x/b'], ['/./', '/./a', '/a']]) {
      const text = compactPaths(paths);
      expect(text).toMatch(/\\\./);
      roundTrip(paths);
    }
    // Not right after its directory (find -depth prints the directory last): no `.`.
    expect(compactPaths(['src/a.ts', 'src/b.ts', 'src'])).toBe('src/: a.ts b.ts\nsrc');
  });

  it('a long line goes on in another line with the same directory', () => {
    const paths = Array.from({ length: 150 }, (_, i) => `packages/admin/src/catalog/components/${['Alpha', 'Beta', 'Gamma', 'Delta'][i % 4]}${i}.${['ts', 'tsx', 'css'][i % 3]}`);
    const lines = compactPaths(paths).split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(l.startsWith('packages/admin/src/catalog/components/: ')).toBe(true);
    roundTrip(paths);
  });

  it('a shared beginning may end where a word begins inside every name (use|Auth, es|2022), never inside a word', () => {
    expect(compactPaths(['src/useAuth.ts', 'src/useCart.ts', 'src/useTheme.ts'])).toBe('src/: use{Auth,Cart,Theme}.ts');
    expect(compactPaths(['lib/lib.es2015.d.ts', 'lib/lib.es2017.d.ts', 'lib/lib.es2020.d.ts'])).toBe('lib/: lib.es{2015,2017,2020}.d.ts');
    // `e` begins a word of `e404` (e|404), not of `eresolve`.
    expect(compactPaths(['f/npm-install-e404.piped', 'f/npm-install-eresolve.facts.json'])).not.toMatch(/-e\{/);
    const part = fc.constantFrom('use', 'Auth', 'Cart', 'es', '2022', '2015', 'next', 'é', '-', '.', 'x', 'X', '1');
    fc.assert(
      fc.property(fc.array(fc.array(part, { minLength: 1, maxLength: 5 }), { maxLength: 30 }), fc.constantFrom('', 'd/', '.ts'), (names, affix) => {
        roundTrip(names.map((n) => (affix === '.ts' ? `${n.join('')}.ts` : `${affix}${n.join('')}`)));
      }),
      { numRuns: 2000 },
    );
  });

  it('never puts a brace inside a character (a surrogate pair: 🙂 and 🙃 share their first UTF-16 unit)', () => {
    // Ten names sharing `ab` and 🙂's first half were written `ab\ud83d{\ude42xy,…}`: two lone halves, U+FFFD in the reply's UTF-8.
    const faces = ['🙂', '🙃', '😀', '😁', '😂', '😃', '😄', '😅', '😆', '😇'].map((e, i) => `d/ab${e}x${'yz'[i % 2]}`);
    expect(wellFormed(compactPaths(faces))).toBe(true);
    roundTrip(faces);
    const part = fc.constantFrom('ab', '🙂', '🙃', '😀', '😁', '-', '.', 'x', '1');
    fc.assert(
      fc.property(fc.array(fc.array(part, { minLength: 1, maxLength: 6 }), { maxLength: 30 }), fc.constantFrom('', 'd/', '.ts'), (names, affix) => {
        roundTrip(names.map((n) => (affix === '.ts' ? `${n.join('')}.ts` : `${affix}${n.join('')}`)));
      }),
      { numRuns: 2000 },
    );
  });

  it('escapes what the notation gives a meaning to', () => {
    const paths = ['a b/{c},d.txt', 'a b/(e)', 'a b/*', 'a b/:', 'x\\y', '-rf', ' lead', 'trail/'];
    expect(expandPaths(compactPaths(paths))).toEqual(paths);
    expect(compactPaths(['*', ':'])).toBe('\\* \\:');
  });

  it('refuses an empty path or one with a newline, and reports text it did not write', () => {
    expect(() => compactPaths(['a', ''])).toThrow(RangeError);
    expect(() => compactPaths(['a\nb'])).toThrow(RangeError);
    expect(() => expandPaths('{a')).toThrow(PathListSyntaxError);
  });
});

/** The repository (the test runs in a scratch cwd). */
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/**
 * An entry as a bash word with the same meaning: its braces, commas and ranges as they are, every
 * other character quoted (a name's `$`, `*`, `~` or `'` means nothing to the notation; `\x` is x).
 */
function bashWord(entry: string): string {
  const quote = (lit: string) => (lit ? `'${lit.replace(/'/g, `'\\''`)}'` : '');
  let out = '';
  let lit = '';
  for (let i = 0; i < entry.length; i++) {
    const c = entry[i];
    if (c === '\\') {
      lit += entry[++i];
      continue;
    }
    const range = c === '{' ? /^\{\d+\.\.\d+\}/.exec(entry.slice(i)) : null;
    if (range || c === '{' || c === '}' || c === ',') {
      out += quote(lit) + (range ? range[0] : c);
      lit = '';
      if (range) i += range[0].length - 1;
      continue;
    }
    lit += c;
  }
  return out + quote(lit);
}

/** A line's entries as written (split at unescaped spaces), without its `d:`/`d/:` head. */
function entriesOfLine(line: string): string[] {
  const words: string[] = [];
  let w = '';
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '\\') w += line[i] + line[++i];
    else if (line[i] === ' ') {
      words.push(w);
      w = '';
    } else w += line[i];
  }
  words.push(w);
  return /(^|[^\\])(\\\\)*:$/.test(words[0]) ? words.slice(1) : words;
}

describe('path-list notation is bash brace expansion', () => {
  const hasBash = (() => {
    try {
      execFileSync('bash', ['-c', 'true']);
      return true;
    } catch {
      return false;
    }
  })();

  /** Each entry of each list's compact lines, expanded by bash and by expandPathLine, below the same directory. */
  function expectBashAgrees(lists: string[][]): void {
    const entries = [...new Set(lists.flatMap((paths) => compactPaths(paths).split('\n').flatMap(entriesOfLine)))].filter((e) => e !== '' && e !== '.' && e !== './' && !e.includes('\0'));
    // One bash for all: each entry's words a line each, then an empty line (no path is empty).
    const script = ['set -f', ...entries.map((e) => `printf '%s\\n' 'x/'${bashWord(e)}; echo`)].join('\n');
    const out = execFileSync('bash', ['--norc', '--noprofile', '-s'], { input: script, encoding: 'utf8', maxBuffer: 1 << 28 });
    const got = out.split('\n\n').slice(0, -1);
    expect(got.length).toBe(entries.length);
    entries.forEach((e, i) => expect({ entry: e, paths: got[i].split('\n') }).toEqual({ entry: e, paths: expandPathLine(`x/: ${e}`) }));
    // The lists used the forms bash is asked about.
    const all = entries.join(' ');
    for (const form of [/\{[^{}]*,[^{}]*\}/, /\{\d+\.\.\d+\}/]) expect(all).toMatch(form);
  }

  it.skipIf(!hasBash)('bash expands every entry of real lists (git ls-files, find fixtures/projects) as expandPathLine does', () => {
    const lines = (argv: string[]) => execFileSync(argv[0], argv.slice(1), { cwd: REPO, encoding: 'utf8', maxBuffer: 1 << 28 }).replace(/\n$/, '').split('\n');
    const numbered = Array.from({ length: 12 }, (_, i) => `logs/run-${String(i + 1).padStart(2, '0')}.txt`);
    expectBashAgrees([lines(['git', 'ls-files']), lines(['find', 'fixtures/projects']), numbered]);
  });

  it.skipIf(!hasBash)('bash expands every entry of random lists (names with braces, commas, quotes, $, ~, *, spaces, unicode) as expandPathLine does', () => {
    const name = fc.oneof(segment, fc.constantFrom("it's", '$HOME', '~x', 'a*b', '[ab]', '!x', 'a;b', '`x`', '"q"', '#x', 'useAuth.ts', 'useCart.ts', 'lib.es2022.d.ts', 'lib.es2015.d.ts'));
    const lists = fc.sample(
      fc.array(fc.tuple(fc.constantFrom('', 'src/', 'a b/', 'x/y/'), name).map(([d, n]) => d + n), { maxLength: 40 }),
      { numRuns: 400, seed: 23 },
    );
    expectBashAgrees([...lists, Array.from({ length: 9 }, (_, i) => `f${i + 8}.rs`), ['g/a.c', 'g/b.c', 'g/a.h', 'g/b.h']]);
  });
});

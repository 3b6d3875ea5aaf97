import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactPaths, expandPaths } from './path-list.js';

/** Path segments that stress the notation: braces, commas, backslashes, spaces, dots, digits, unicode. */
const segment = fc.oneof(
  fc.string({ unit: fc.constantFrom('a', 'b', 'Z', '0', '1', '9', ' ', '.', '-', '_', '{', '}', ',', '\\', 'é', '日', '🙂', '~', '*', '..'), minLength: 1, maxLength: 8 }),
  fc.string({ minLength: 1, maxLength: 6 }).map((s) => s.replace(/[\n\r/]/g, 'x') || 'x'),
  fc.tuple(fc.constantFrom('file', 'img_', 'part-', ''), fc.integer({ min: 0, max: 120 }), fc.constantFrom('', '.txt', '.rs', '/')).map(([p, n, s]) => `${p}${String(n).padStart(3, '0')}${s}`),
);
const pathArb = fc
  .tuple(fc.constantFrom('', '/', './', '../'), fc.array(segment, { minLength: 1, maxLength: 5 }), fc.boolean())
  .map(([root, segs, slash]) => root + segs.join('/') + (slash ? '/' : ''));

describe('path-list compaction', () => {
  it('expand(compact(x)) === x for random path lists (spaces, unicode, braces, commas, backslashes, trailing slashes)', () => {
    fc.assert(
      fc.property(fc.array(pathArb, { maxLength: 60 }), (paths) => {
        expect(expandPaths(compactPaths(paths))).toEqual(paths);
      }),
      { numRuns: 2000 },
    );
  });

  it('expand(compact(x)) === x for sorted numbered runs, padded and not', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 1, max: 150 }), fc.integer({ min: 0, max: 5 }), fc.constantFrom('', 'dir/', 'a b/{x}/'), (start, n, pad, dir) => {
        const paths = Array.from({ length: n }, (_, i) => `${dir}file${String(start + i).padStart(pad, '0')}.txt`);
        expect(expandPaths(compactPaths(paths))).toEqual(paths);
      }),
      { numRuns: 1000 },
    );
  });

  it('groups per directory, factors prefixes, writes numbered runs as ranges', () => {
    const paths = [
      'src/main/core/squasher/a.ts',
      'src/main/core/squasher/b.ts',
      'src/main/core/grammar/c.ts',
      ...Array.from({ length: 19 }, (_, i) => `fixtures/file${String(i + 1).padStart(3, '0')}.txt`),
      'README.md',
    ];
    const text = compactPaths(paths);
    expect(text).toBe(['src/main/core/', '  squasher/{a,b}.ts', '  grammar/c.ts', 'fixtures/file{001..019}.txt', 'README.md'].join('\n'));
    expect(expandPaths(text)).toEqual(paths);
  });
});

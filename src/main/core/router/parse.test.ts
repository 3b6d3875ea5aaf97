import { describe, expect, it } from 'vitest';
import { parseCommandLine, type ParsedLine } from './parse.js';
import { unwrap } from './wrappers.js';

function ok(line: string): ParsedLine {
  const r = parseCommandLine(line);
  if (!r.ok) throw new Error(`unexpected parse error: ${r.error.message} at ${r.error.pos}`);
  return r.line;
}

describe('parseCommandLine', () => {
  it('splits pipelines, lists and subshells into simple commands', () => {
    const l = ok('cat a | grep "b c" > out.txt && (cd x; make -j4) || echo failed');
    expect(l.commands.map((c) => c.argv)).toEqual([['cat', 'a'], ['grep', 'b c'], ['cd', 'x'], ['make', '-j4'], ['echo', 'failed']]);
    expect(l.compound).toBe(true);
    const [cat, grep] = l.commands;
    expect(cat.pipeline).toEqual({ index: 0, position: 0, length: 2 });
    expect(cat.stdoutRedirected).toBe(true);
    expect(grep.stdinRedirected).toBe(true);
    expect(grep.redirects).toEqual([{ op: '>', fd: undefined, target: 'out.txt' }]);
  });

  it('sees through wrappers and keeps assignments apart', () => {
    const l = ok('FOO=1 sudo -u root env -i A=2 nice -n 5 timeout -s KILL 10 make -j4 test');
    const [c] = l.commands;
    expect(c.assignments).toEqual(['FOO=1']);
    expect(c.wrappers).toEqual(['sudo', 'env', 'nice', 'timeout']);
    expect(c.argv).toEqual(['make', '-j4', 'test']);
    expect(l.compound).toBe(false);
  });

  it('finds commands inside $(…), backticks and process substitution', () => {
    const l = ok('echo $(rm -rf /tmp/x) `pwd` <(ls)');
    expect(l.commands.map((c) => [c.context, c.argv[0]])).toEqual([
      ['substitution', 'rm'],
      ['substitution', 'pwd'],
      ['substitution', 'ls'],
      ['top', 'echo'],
    ]);
  });

  it('reads heredocs and herestrings as stdin', () => {
    const l = ok("psql <<'SQL'\nDROP TABLE users;\nSQL\n");
    expect(l.commands[0].stdinRedirected).toBe(true);
    expect(l.commands[0].redirects[0]).toMatchObject({ op: '<<', target: 'DROP TABLE users;\n' });
    const h = ok('mysql -e x <<< "DROP DATABASE d"');
    expect(h.commands[0].redirects[0]).toMatchObject({ op: '<<<', target: 'DROP DATABASE d' });
  });

  it('marks dynamic words as not literal', () => {
    const [c] = ok('rm -rf "$HOME"/* ~ \'/\'').commands;
    expect(c.words.map((w) => [w.value, w.literal])).toEqual([
      ['rm', true],
      ['-rf', true],
      ['$HOME/*', false],
      ['~', true],
      ['/', true],
    ]);
  });

  it('records functions that spawn themselves (fork bomb)', () => {
    const l = ok(':(){ :|:& };:');
    expect(l.functions).toEqual([{ name: ':', calls: [':', ':'], selfSpawning: true }]);
  });

  it.each([
    ['echo "abc', 5, 'unterminated double quote'],
    ['a &&', 4, "expected command after '&&'"],
    ['ls (', 3, "unexpected token '('"],
    ['echo )', 5, "unexpected token ')'"],
    ['for x in', 8, "expected 'do'"],
    ['echo $(echo', 5, 'unterminated command substitution'],
    ['   ', 0, 'empty command line'],
  ])('rejects %j with a positioned error', (line, pos, message) => {
    const r = parseCommandLine(line);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.pos).toBe(pos);
    expect(r.error.message).toBe(message);
    expect(r.error.column).toBe(pos + 1);
    expect(r.error.excerpt.split('\n')[1]).toBe(' '.repeat(pos) + '^');
  });

  it('accepts comments, trailing separators and multi-line scripts', () => {
    expect(ok('make; # build\nmake test &\n').commands.map((c) => c.argv[0])).toEqual(['make', 'make']);
  });
});

describe('unwrap', () => {
  it.each([
    [['xargs', '-0', '-n', '1', 'rm', '-f'], ['xargs'], ['rm', '-f']],
    [['xargs'], ['xargs'], ['echo']],
    [['command', '-v', 'ls'], [], ['command', '-v', 'ls']],
    [['exec', '-a', 'name', 'node', 'x.js'], ['exec'], ['node', 'x.js']],
    [['nohup', 'nice', '-10', './server'], ['nohup', 'nice'], ['./server']],
    [['/usr/bin/sudo', '-uroot', '--', 'rm', '-rf', '/'], ['sudo'], ['rm', '-rf', '/']],
    [['time', '-p', 'stdbuf', '-oL', 'make'], ['time', 'stdbuf'], ['make']],
    [['env', '-u', 'HOME', 'A=1', 'B=2', 'npm', 'test'], ['env'], ['npm', 'test']],
    [['nice', '-n', '10', 'ionice', '-c3', 'make'], ['nice', 'ionice'], ['make']],
    [['timeout', '--signal=KILL', '30s', 'cargo', 'test'], ['timeout'], ['cargo', 'test']],
    [['timeout', '-k', '5', '30', 'pytest'], ['timeout'], ['pytest']],
    [['xargs', '-I{}', 'cp', '{}', 'dst/'], ['xargs'], ['cp', '{}', 'dst/']],
    [['setpriv', '--reuid=65534', '--clear-groups', 'cp', 'a', 'b'], ['setpriv'], ['cp', 'a', 'b']],
    [['runuser', '-u', 'www', '--', 'ls'], ['runuser'], ['ls']],
    [['flock', '/tmp/lock', 'make'], ['flock'], ['make']],
    [['flock', '/tmp/lock', '-c', 'make'], [], ['flock', '/tmp/lock', '-c', 'make']],
    [['taskset', '0x3', 'make'], ['taskset'], ['make']],
  ])('%j', (argv, wrappers, rest) => {
    const u = unwrap(argv);
    expect(u.wrappers).toEqual(wrappers);
    expect(u.argv).toEqual(rest);
  });
});

describe('unwrap without a wrapped command', () => {
  it('keeps a bare wrapper as the command', () => {
    expect(unwrap(['env'])).toEqual({ wrappers: [], start: 0, argv: ['env'] });
    expect(unwrap(['sudo', 'env', '-u', 'X'])).toEqual({ wrappers: ['sudo'], start: 1, argv: ['env', '-u', 'X'] });
  });
});

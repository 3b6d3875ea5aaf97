import { describe, expect, it } from 'vitest';
import { groupSublistParts } from './segment-trace.js';

describe('groupSublistParts (zsh: each part of a sublist becomes a sublist of its own)', () => {
  it.each([
    ['make && cc x.c', '{ make; } && { cc x.c; }'],
    ['a | b; c', '{ a; } | { b; }; c'],
    ['(cd x && make)', '({ cd x; } && { make; })'],
    ['! false && echo e', '! { false; } && { echo e; }'],
    // zsh times nothing run in the current shell: a timed pipeline is grouped whole.
    ['time make && cc', '{ time make; } && { cc; }'],
    ['time a | b', 'time a | b'],
    // The heredoc body stays on the lines after the command.
    ['cat <<EOF && echo after\nbody\nEOF', '{ cat <<EOF; } && { echo after; }\nbody\nEOF'],
    ['f() { a && b; }; f', 'f() { { a; } && { b; }; }; f'],
    ['if a && b; then c || d; fi', 'if { a; } && { b; }; then { c; } || { d; }; fi'],
    ['case $x in a) m && n;; esac', 'case $x in a) { m; } && { n; };; esac'],
    ['x=1 make 2>&1 | tee log &', '{ x=1 make 2>&1; } | { tee log; } &'],
    // Substitutions are left alone; simple commands alone in their sublist too.
    ['echo $(a && b) && c', '{ echo $(a && b); } && { c; }'],
    ['make; make test', 'make; make test'],
  ])('%j → %j', (line, grouped) => {
    expect(groupSublistParts(line)).toBe(grouped);
  });

  it('a line that does not parse is not rewritten', () => {
    expect(groupSublistParts('a && (')).toBeUndefined();
  });
});

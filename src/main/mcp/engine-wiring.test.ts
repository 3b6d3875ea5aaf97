import { describe, expect, it } from 'vitest';
import { loadRouterMeta } from '../core/router/meta.js';
import { checkWithRouter, condenseWithGrammar, offsetMarkers } from './engine-wiring.js';

describe('engine wiring helpers', () => {
  const meta = loadRouterMeta();
  if (!meta.ok) throw new Error(meta.error.message);
  const check = checkWithRouter(meta.meta, () => undefined);

  it('lets sh_spawn start interactive programs the router itself advises driving with sh_spawn (ssh), not vim or a bare REPL', () => {
    expect(check('ssh example.invalid', '/tmp')).toMatchObject({ kind: 'interactive', drivable: true });
    expect(check('vim x', '/tmp')).toMatchObject({ kind: 'interactive', drivable: false });
    expect(check('node', '/tmp')).toMatchObject({ kind: 'interactive', drivable: false });
    expect(check('npm run dev', '/tmp')).toMatchObject({ kind: 'ok' });
    expect(check('sudo rm -rf /', '/tmp')).toMatchObject({ kind: 'dangerous' });
    expect(check('echo "unterminated', '/tmp')).toMatchObject({ kind: 'parse-error', line: 1 });
  });

  it('names raw line numbers in the omitted-lines markers of a condensed slice', () => {
    expect(offsetMarkers('  [... 40 lines omitted (lines 11-50): 0 errors, 0 warnings ...]', 101)).toBe('  [... 40 lines omitted (lines 111-150): 0 errors, 0 warnings ...]');
    expect(offsetMarkers('x (lines 1-2)', 50)).toBe('x (lines 1-2)');
    // End to end: a slice of distinct lines long enough to be cut keeps raw numbers.
    const lines = Array.from({ length: 400 }, (_, i) => `step ${i} ${'abcdefghij'.slice(i % 10)} ${(i * 7919).toString(36)}`);
    const { text } = condenseWithGrammar(meta.meta, () => undefined)('./build.sh', '/tmp', lines, 1001);
    // lines[12] ("step 12") is raw line 1013: the first one cut.
    expect(text).toContain('376 lines omitted (lines 1013-1388)');
    expect(text).toMatch(/^step 11 /m);
  });
});

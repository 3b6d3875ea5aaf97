import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveCommandShell } from './command-shell.js';

const bin = mkdtempSync(path.join(tmpdir(), 'mish-shells-'));
symlinkSync('/usr/bin/zsh', path.join(bin, 'zsh'));
symlinkSync('/bin/bash', path.join(bin, 'bash'));
// Named bash but not executable: skipped.
writeFileSync(path.join(bin, 'notexec-bash'), '');
afterAll(() => rmSync(bin, { recursive: true, force: true }));

describe('resolveCommandShell', () => {
  it('zsh and bash users get their shell; everyone else bash', () => {
    expect(resolveCommandShell({ SHELL: '/usr/bin/zsh' })).toEqual({ kind: 'zsh', path: '/usr/bin/zsh' });
    expect(resolveCommandShell({ SHELL: path.join(bin, 'bash') })).toEqual({ kind: 'bash', path: path.join(bin, 'bash') });
    for (const SHELL of ['/usr/bin/dash', '/usr/bin/fish', '/bin/sh', 'zsh', '', undefined]) expect(resolveCommandShell({ SHELL })).toEqual({ kind: 'bash', path: '/bin/bash' });
  });

  it('a $SHELL that is not there: zsh from PATH, else bash', () => {
    expect(resolveCommandShell({ SHELL: '/opt/gone/zsh', PATH: `/nonexistent:${bin}` })).toEqual({ kind: 'zsh', path: path.join(bin, 'zsh') });
    expect(resolveCommandShell({ SHELL: '/opt/gone/zsh', PATH: '/nonexistent' })).toEqual({ kind: 'bash', path: '/bin/bash' });
    expect(resolveCommandShell({ SHELL: path.join(bin, 'notexec-bash') })).toEqual({ kind: 'bash', path: '/bin/bash' });
  });

  it('bash from PATH when /bin/bash is missing; relative PATH entries are not searched; none is an error', () => {
    expect(resolveCommandShell({ PATH: `relative:${bin}` }, '/nonexistent/bash')).toEqual({ kind: 'bash', path: path.join(bin, 'bash') });
    expect(() => resolveCommandShell({ PATH: '/nonexistent' }, '/nonexistent/bash')).toThrow('no bash to run the command line: /nonexistent/bash does not exist and there is no bash on PATH (/nonexistent)');
    expect(() => resolveCommandShell({}, '/nonexistent/bash')).toThrow('(PATH is not set)');
  });
});

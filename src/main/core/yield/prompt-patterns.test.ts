import { describe, expect, it } from 'vitest';
import { lastVisibleLine, matchPrompt } from './prompt-patterns.js';

describe('prompt patterns', () => {
  it.each([
    ['Do you want to continue? [Y/n] ', 'yes-no'],
    ['Overwrite (y/N)? ', 'yes-no'],
    ['[sudo] password for bob: ', 'password'],
    ['Enter passphrase for key /root/.ssh/id_ed25519: ', 'passphrase'],
    ['>>> ', 'python-repl'],
    ['\x1b[32m?\x1b[0m Select a framework › ', 'select'],
    ['Are you sure you want to continue connecting (yes/no/[fingerprint])? ', 'yes-no-fingerprint'],
    ['root@box:~# ', 'shell-prompt'],
  ])('%j → %s', (tail, name) => {
    expect(matchPrompt(`some output\r\n${tail}`)?.pattern).toBe(name);
  });
  it('ignores a prompt look-alike followed by more output', () => {
    expect(matchPrompt('Continue? [Y/n]\r\nInstalling...\r\n')).toBeUndefined();
    expect(matchPrompt('compiled 3 files\r\n')).toBeUndefined();
  });
  it('takes the last line as shown (\\r overwrites, colour removed)', () => {
    expect(lastVisibleLine('a\r\n10%\r50%\r\x1b[1mdone\x1b[0m\r\n\r\n')).toBe('done');
    // npm's spinner, as `npm test` printed it in a PTY (read back with read_raw): its last frame is cleared before the shell prompt.
    expect(lastVisibleLine('\x1b[34mℹ duration_ms 158.7\x1b[39m\r\n\x1b[1G\x1b[0K⠙\x1b[1G\x1b[0K')).toBe('ℹ duration_ms 158.7');
    expect(lastVisibleLine('added 1 package\r\n⠹\r\x1b[2K')).toBe('added 1 package');
  });
});

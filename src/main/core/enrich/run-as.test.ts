/**
 * Who a command ran as, from the user-switching wrappers the router parsed: names and numbers
 * resolved through the real getent (nobody is uid 65534, gid 65534 on Debian).
 */
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../router/parse.js';
import { switchedIdentity, whoRan } from './run-as.js';

function commands(line: string) {
  const p = parseCommandLine(line);
  if (!p.ok) throw new Error(p.error.message);
  return p.line.commands;
}
const one = (line: string) => switchedIdentity(commands(line)[0]);
const me = { name: 'me', uid: 1000, gid: 1000 };

describe('switchedIdentity', () => {
  it.each([
    ['setpriv --reuid=65534 --regid=65534 --clear-groups cat x', { name: 'nobody', uid: 65534, gid: 65534, via: 'setpriv' }],
    ['setpriv --reuid nobody --regid nogroup cat x', { name: 'nobody', uid: 65534, gid: 65534, via: 'setpriv' }],
    ['sudo -u nobody cat x', { name: 'nobody', uid: 65534, gid: 65534, via: 'sudo' }],
    ['sudo --user=nobody cat x', { name: 'nobody', uid: 65534, gid: 65534, via: 'sudo' }],
    ["sudo -u '#65534' cat x", { name: 'nobody', uid: 65534, gid: 65534, via: 'sudo' }],
    ['sudo cat x', { name: 'root', uid: 0, gid: 0, via: 'sudo' }],
    ['doas -u nobody cat x', { name: 'nobody', uid: 65534, gid: 65534, via: 'doas' }],
    ['runuser -u nobody -- cat x', { name: 'nobody', uid: 65534, gid: 65534, via: 'runuser' }],
    ['env A=1 sudo -u nobody nice cat x', { name: 'nobody', uid: 65534, gid: 65534, via: 'sudo' }],
    ['sudo -u no-such-user-xyz cat x', { name: 'no-such-user-xyz', via: 'sudo' }],
    ['sudo -u 4242424 cat x', { name: '4242424', uid: 4242424, via: 'sudo' }],
  ])('%s', (line, id) => {
    expect(one(line)).toEqual(id);
  });

  it('no switch: undefined (sudo -l is sudo itself, not a wrapper)', () => {
    expect(one('cat x')).toBeUndefined();
    expect(one('nice -n 5 cat x')).toBeUndefined();
    expect(one('sudo -l')).toBeUndefined();
  });
});

describe('whoRan', () => {
  it('names mish’s user, the switched user, or both', () => {
    expect(whoRan(commands('cat x'), me)).toBe('you are me (uid 1000, gid 1000)');
    expect(whoRan(commands('sudo -u nobody cat x | sudo -u nobody wc'), me)).toBe('it ran as nobody (uid 65534, gid 65534) through sudo');
    expect(whoRan(commands('cat x; sudo cat y'), me)).toBe('it ran as root (uid 0, gid 0) through sudo, and as you: me (uid 1000, gid 1000)');
    expect(whoRan(commands('sudo -u no-such-user-xyz cat x'), me)).toBe('it ran as no-such-user-xyz through sudo');
  });
});

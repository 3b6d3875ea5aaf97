import { describe, expect, it } from 'vitest';
import { checkSshArgs, checkSshDestination } from './ssh-options.js';

describe('ssh destination and options for remote sessions', () => {
  it('plain hosts pass; a leading dash, blanks, metacharacters and controls do not', () => {
    for (const ok of ['host', 'me@host', 'me@10.0.0.7', 'deploy@build-1.example.com', 'me@[fe80::1%eth0]', 'u_1@h']) expect(checkSshDestination(ok), ok).toEqual({ ok: true });
    for (const bad of ['-oProxyCommand=touch /tmp/x', '-p', 'me@-host', 'host;id', 'me@host cmd', '$(id)@h', 'h\u0000', '']) expect(checkSshDestination(bad).ok, bad).toBe(false);
  });

  it('connection options pass, in every spelling', () => {
    const fine = [
      ['-p', '2222', '-i', '/home/me/.ssh/id', '-l', 'me'],
      ['-p2222', '-tt', '-vvv', '-4qC'],
      ['-o', 'StrictHostKeyChecking=no', '-o', 'UserKnownHostsFile=/tmp/k', '-oBatchMode=yes', '-o', 'ServerAliveInterval 30'],
      ['-J', 'me@jump,other:2222', '-o', 'ProxyJump=ssh://me@jump:22'],
      ['-L', '8080:localhost:80', '-F', 'none'],
    ];
    for (const args of fine) expect(checkSshArgs(args), args.join(' ')).toEqual({ ok: true });
  });

  it('options that run or load something locally are refused, however they are spelled', () => {
    const cases: [string[], RegExp][] = [
      [['-oProxyCommand=touch /tmp/pwned'], /-o proxycommand is not allowed: it runs a local command/],
      [['-o', 'ProxyCommand touch /tmp/pwned'], /proxycommand/],
      [['-o', 'proxycommand=sh'], /proxycommand/],
      [['-qoProxyCommand=sh'], /proxycommand/],
      [['-4', '-o', 'LocalCommand=id', '-o', 'PermitLocalCommand=yes'], /localcommand/],
      [['-o', 'KnownHostsCommand=/bin/id'], /knownhostscommand/],
      [['-o', 'Match exec "id"'], /match/],
      [['-o', 'Include /tmp/evil.conf'], /include/],
      [['-o', 'PKCS11Provider=/tmp/lib.so'], /shared library/],
      [['-I', '/tmp/lib.so'], /-I is not allowed/],
      [['-E', '/home/me/.bashrc'], /-E is not allowed/],
      [['-f'], /background/],
      [['-tf'], /background/],
      [['-J', '-oProxyCommand=id'], /jump host/],
      [['-o', 'ProxyJump=-oProxyCommand=id'], /jump host/],
      [['host2'], /not an option/],
      [['--', 'host'], /--/],
      [['-Z'], /unknown ssh option -Z/],
      [['-p'], /needs a value/],
      [['-o', 'RemoteCommand=id'], /replaces the session/],
    ];
    for (const [args, re] of cases) {
      const r = checkSshArgs(args);
      expect(r.ok, args.join(' ')).toBe(false);
      if (!r.ok) expect(r.message, args.join(' ')).toMatch(re);
    }
  });

  it('-F reads the file: one that runs local commands is refused, an unreadable one too', () => {
    const files: Record<string, string> = { '/cfg/ok': 'Host *\n  Port 2222\n', '/cfg/bad': 'Host x\n  ProxyCommand nc %h %p\n', '/cfg/match': 'Match exec "id"\n' };
    const read = (p: string) => {
      if (!(p in files)) throw Object.assign(new Error('nope'), { code: 'ENOENT' });
      return files[p];
    };
    expect(checkSshArgs(['-F', '/cfg/ok'], read)).toEqual({ ok: true });
    expect(checkSshArgs(['-F', '/cfg/bad'], read)).toMatchObject({ ok: false, message: expect.stringMatching(/sets ProxyCommand/) });
    expect(checkSshArgs(['-F/cfg/match'], read)).toMatchObject({ ok: false, message: expect.stringMatching(/sets Match/) });
    expect(checkSshArgs(['-F', '/cfg/none'], read)).toMatchObject({ ok: false, message: expect.stringMatching(/cannot read it \(ENOENT\)/) });
  });
});

/**
 * Prefixes a tool repeats before its lines, learned from the output's first lines (repeated-prefixes.ts): the log tools session
 * 43's closing attack (adv253) printed through, whose prefixes no named kind had, and text that repeats words without being a
 * tool's output (a build log's command line, a table's bars, prose).
 */
import { describe, expect, it } from 'vitest';
import { Redactor } from './redactor.js';
import { repeatedPrefixes } from './repeated-prefixes.js';

/** A fixed linear congruential generator: the same fake values every run. */
let seed = 44;
const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
const s = (alpha: string, n: number) => Array.from({ length: n }, () => alpha[Math.floor(rnd() * alpha.length)]).join('');
const AN = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const pw = () => 'Q' + s(AN + '!#%^*_', 13) + '7';
const each = (prefix: (n: number) => string, lines: string[]) => lines.map((l, n) => prefix(n) + l).join('\n');

describe('prefixes the first lines repeat', () => {
  it('are learned from log tools without a named kind, digits read as one class', () => {
    const body = ['starting worker', 'listening on :8080', 'connected to db', 'ready'];
    expect(repeatedPrefixes(each(() => 'web-0 app ', body))).toEqual(['web-0 app ']);
    expect(repeatedPrefixes(each(() => '[api] ', body))).toEqual(['[api] ']);
    expect(repeatedPrefixes(each(() => '[web] | ', body))).toEqual(['[web] | ']);
    expect(repeatedPrefixes(each((n) => `2024-12-06T10:00:0${n}Z app[3d8d9e1b] iad [info]`, body))).toEqual([
      '2024-12-06T10:00:00Z app[3d8d9e1b] iad [info]',
    ]);
    expect(repeatedPrefixes(each((n) => `0|api      | 2024-12-06 10:00:1${n}: `, body))).toEqual(['0|api      | 2024-12-06 10:00:10: ']);
  });

  it('are one a group when two pods interleave, and none in text that repeats words, tables or a long command', () => {
    const lines = ['a', 'b', 'c', 'd', 'e', 'f'];
    const twoPods = each((n) => (n % 2 ? 'db-0 postgres ' : 'web-0 app '), lines);
    expect(repeatedPrefixes(twoPods).sort()).toEqual(['db-0 postgres ', 'web-0 app ']);
    // Prose, a markdown table, `export` lines (no tool's mark), a compile line repeated whole (more tokens than a prefix has).
    expect(repeatedPrefixes('The build ran.\nThe tests ran.\nIt passed.\nThen it stopped.')).toEqual([]);
    expect(repeatedPrefixes('| name | value |\n|---|---|\n| a | 1 |\n| b | 2 |')).toEqual([]);
    expect(repeatedPrefixes('export A=1\nexport B=2\nexport C=3')).toEqual([]);
    const gcc = 'gcc -Wall -Wextra -O1 -fPIC -g -pipe -fno-strict-aliasing -DF_0=1 -DF_1=1 -c ';
    expect(repeatedPrefixes(each(() => gcc, ['a.c', 'b.c', 'c.c', 'd.c']))).toEqual([]);
    // An indent is the text's own (a YAML file in a log keeps its shape under the prefix).
    expect(repeatedPrefixes(each(() => 'web-0 app ', ['config:', '  auth:', '    token: x', '  other: y']))).toEqual(['web-0 app ']);
  });

  it('let a rule anchored at a line start see the line behind the prefix: psksecret, .pgpass, a YAML block (adv253)', () => {
    const cases: [string, (n: number) => string][] = [
      ['stern -o default', () => 'web-0 app '],
      ['stern with a namespace', () => 'default web-7d4b9c8f6d-x2k8q app '],
      ['skaffold, one word', () => '[api] '],
      ['podman-compose logs', () => '[web] | '],
      ['aws logs tail', (n) => `2024-12-06T10:00:0${n}.123000+00:00 app/web/abc123 `],
      ['fly logs', (n) => `2024-12-06T10:00:0${n}Z app[3d8d9e1b] iad [info]`],
      ['journalctl -o short-full', (n) => `Sun 2024-12-06 10:00:0${n} UTC host app[812]: `],
      ['pm2 logs', () => '0|api      | '],
    ];
    for (const [what, prefix] of cases) {
      const psk = s(AN, 16);
      const pgpass = pw();
      const block = pw();
      const text = each(prefix, [
        'config vpn ipsec phase1-interface',
        `set psksecret ENC ${psk}`,
        `db.example.com:5432:app:app:${pgpass}`,
        'secrets:',
        '  admin_password: |',
        `    ${block}`,
        'done',
      ]);
      const out = new Redactor().maskCommandOutput(`${what} | cat`, text);
      for (const v of [psk, pgpass, block]) expect(out, `${what}: ${v}`).not.toContain(v);
      expect(out, what).toContain('config vpn ipsec phase1-interface');
    }
  });

  it('keep what is not a credential behind a prefix: digests, ids, public keys, an ls -l of files named by hashes', () => {
    const kept = [
      'commit 3f2a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a',
      'sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      'request_id=4b8f2c1e-9a7d-4e3b-8c6f-1a2b3c4d5e6f',
      '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGq0bF3n8Yw2mFj7d4H9J2k5L8p1Q6r3S0t9U2v4W7x1 bob@host',
    ];
    for (const prefix of ['web-0 app ', '[web] | ', '2024-12-06T10:00:01Z app[3d8d9e1b] iad [info]']) {
      const text = each(() => prefix, kept);
      expect(new Redactor().maskCommandOutput('logs', text)).toBe(text);
    }
    const ls = each(() => '-rw-r--r-- 1 root root  1234 Dec  6 10:00 ', [`${'a1'.repeat(32)}.json`, 'b.json', 'Zm9vYmFyYmF6cXV4cXV1eHF1dXg.bin']);
    expect(new Redactor().maskCommandOutput('ls -l', ls)).toBe(ls);
  });
});

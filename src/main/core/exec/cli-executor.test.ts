import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodePtyPort } from '../../platform/node-pty-port.js';
import { CliExecutor, SegmentFilter } from './cli-executor.js';

const dir = mkdtempSync(path.join(tmpdir(), 'mish-exec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(command: string, trace = true) {
  const chunks: Buffer[] = [];
  const segments: string[] = [];
  const r = await new CliExecutor(nodePtyPort).run({
    command,
    cwd: dir,
    onData: (c) => chunks.push(Buffer.from(c)),
    onSegment: trace ? (s) => segments.push(s) : undefined,
  });
  return { ...r, out: Buffer.concat(chunks).toString('utf8'), segments };
}

describe('CliExecutor', () => {
  it('reports each simple command of a compound line and strips the markers', async () => {
    const r = await run('echo one && echo "two words" | tr a-z A-Z; (cd . && echo sub)');
    expect(r.out).toBe('one\r\nTWO WORDS\r\nsub\r\n');
    expect(r.segments).toEqual(['echo one', 'echo "two words"', 'tr a-z A-Z', 'cd .', 'echo sub']);
    expect(r.exitCode).toBe(0);
  });

  it('never sends markers into pipes or files, and keeps $? and exit codes', async () => {
    const r = await run('echo x | od -c | head -1; false; echo "status=$?"; echo data > f.txt; cat f.txt; (exit 3)');
    expect(r.out).toContain('0000000   x  \\n\r\n');
    expect(r.out).toContain('status=1\r\n');
    expect(r.out).toContain('data\r\n');
    expect(r.out).not.toContain('6474');
    expect(r.exitCode).toBe(3);
  });

  it('decodes commands with quotes, newlines and control characters', async () => {
    const r = await run("printf '%s\\n' 'it''s' && echo $'tab\\there'");
    // bash reports $BASH_COMMAND in its own normalised form ($'\t' becomes a quoted tab).
    expect(r.segments).toEqual(["printf '%s\\n' 'it''s'", "echo 'tab\there'"]);
    expect(r.out).toBe('its\r\ntab\there\r\n');
  });

  it('runs a simple command without any trap', async () => {
    const r = await run('echo $-', true);
    expect(r.out).not.toMatch(/T/);
    expect(r.segments).toEqual([]);
  });

  it('reports a signal death', async () => {
    const r = await run('kill -TERM $$', false);
    expect(r.exitCode).toBe(143);
  });

  it('interrupts on abort', async () => {
    const ac = new AbortController();
    const chunks: string[] = [];
    const p = new CliExecutor(nodePtyPort).run({ command: 'echo started; sleep 30', cwd: dir, onData: (c) => {
      chunks.push(Buffer.from(c).toString());
      if (chunks.join('').includes('started')) ac.abort();
    }, signal: ac.signal });
    const r = await p;
    expect(r.exitCode).toBe(130);
  });
});

describe('SegmentFilter', () => {
  it('handles markers split across chunks and forged markers without the nonce', () => {
    const out: string[] = [];
    const segs: string[] = [];
    const f = new SegmentFilter('n0nce', (c) => out.push(Buffer.from(c).toString()), (s) => segs.push(s));
    const stream = 'a\x1b]6474;seg;n0nce;make\\ test\x07b\x1b]6474;seg;forged;rm\x07c';
    for (const ch of stream) f.push(Buffer.from(ch));
    f.end();
    expect(out.join('')).toBe('ab\x1b]6474;seg;forged;rm\x07c');
    expect(segs).toEqual(['make test']);
  });
});

describe('CliExecutor for a zsh user (SHELL=/usr/bin/zsh)', () => {
  it('still runs the line with bash, the shell the router parsed it as, segment by segment', async () => {
    const chunks: Buffer[] = [];
    const segments: string[] = [];
    const r = await new CliExecutor(nodePtyPort, { env: { ...process.env, SHELL: '/usr/bin/zsh' } }).run({
      command: 'echo ${BASH_VERSION:+bash} =ls && x="a b" && for w in $x; do echo "[$w]"; done',
      cwd: dir,
      onData: (c) => chunks.push(Buffer.from(c)),
      onSegment: (s) => segments.push(s),
    });
    expect(r.exitCode).toBe(0);
    // zsh would print its path for `=ls` and one unsplit "[a b]".
    expect(Buffer.concat(chunks).toString('utf8')).toBe('bash =ls\r\n[a]\r\n[b]\r\n');
    expect(segments).toEqual(['echo ${BASH_VERSION:+bash} =ls', 'x="a b"', 'for w in $x', 'echo "[$w]"', 'for w in $x', 'echo "[$w]"']);
  });
});

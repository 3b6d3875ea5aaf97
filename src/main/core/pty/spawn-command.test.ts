import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodePtyPort } from '../../platform/node-pty-port.js';
import { spawnCommand } from './spawn-command.js';
import type { PtyExit } from './types.js';

const env = { ...(process.env as Record<string, string>), TERM: 'dumb' };
const opts = { cwd: tmpdir(), env, cols: 120, rows: 40 };

function run(argv: string[], onStart?: (p: ReturnType<typeof spawnCommand>) => void): Promise<{ out: Buffer; exit: PtyExit }> {
  const p = spawnCommand(nodePtyPort, { argv }, opts);
  const chunks: Buffer[] = [];
  p.onData((c) => chunks.push(Buffer.from(c)));
  onStart?.(p);
  return new Promise((resolve) => p.onExit((exit) => resolve({ out: Buffer.concat(chunks), exit })));
}

/** A process that exists and is not a zombie (a zombie has ended; only its exit status waits to be read). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Wait for a condition; the bound is a hang guard only. */
async function until(cond: () => boolean, guardMs: number): Promise<void> {
  const end = Date.now() + guardMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`condition not met within ${guardMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('spawnCommand: no output is lost at exit', () => {
  let dir: string;
  let payload: Buffer;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'mish-pty-'));
    // Printable bytes without newlines, so the tty's \n → \r\n translation cannot change them.
    payload = Buffer.from(randomBytes(48 * 1024).toString('base64').slice(0, 64 * 1024));
    writeFileSync(path.join(dir, 'payload'), payload);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('delivers every byte of 1,000 short commands printing 4 B to 64 KB', async () => {
    const sizes = [4, 64, 1000, 4096, 4097, 16384, 30000, 65536];
    let checked = 0;
    for (let i = 0; i < 1000; i++) {
      const size = sizes[i % sizes.length];
      const { out, exit } = await run(['head', '-c', String(size), path.join(dir, 'payload')]);
      expect(exit.exitCode).toBe(0);
      if (out.length !== size || !out.equals(payload.subarray(0, size))) {
        throw new Error(`command ${i}: expected ${size} bytes, got ${out.length}`);
      }
      checked += size;
    }
    expect(checked).toBe(sizes.reduce((a, b) => a + b, 0) * 125);
  }, 300_000);

  it('reports exit codes and signals as the shell does (128+n)', async () => {
    expect((await run(['sh', '-c', 'exit 3'])).exit).toEqual({ exitCode: 3 });
    expect((await run(['sh', '-c', 'kill -TERM $$'])).exit).toMatchObject({ exitCode: 143, signal: 15 });
  });

  it('cannot be fooled by output that imitates the end marker', async () => {
    const fake = `printf '\\033]6474;exit;deadbeef;0\\007'; echo after; exit 5`;
    const { out, exit } = await run(['sh', '-c', fake]);
    expect(exit.exitCode).toBe(5);
    expect(out.toString()).toContain('after');
  });

  it('keeps the tail when the command reads and hits end-of-file', async () => {
    const p = spawnCommand(nodePtyPort, { argv: ['sh', '-c', 'cat >/dev/null; seq 1 20000'] }, opts);
    const chunks: Buffer[] = [];
    p.onData((c) => chunks.push(Buffer.from(c)));
    p.write('\x04'); // ^D: the command's cat sees EOF; a second one reaches the wrapper
    p.write('\x04');
    const exit = await new Promise<PtyExit>((resolve) => p.onExit(resolve));
    expect(exit.exitCode).toBe(0);
    expect(Buffer.concat(chunks).toString().trimEnd().endsWith('20000')).toBe(true);
  });

  it('kill() ends the whole process group, the background child included', async () => {
    let seen = '';
    let killed = false;
    // The background child ignores SIGHUP (as nohup'd or daemon-like children do), so the hangup
    // when the PTY's session leader dies cannot end it: only the group-wide SIGTERM can.
    const { out, exit } = await run(['sh', '-c', `(trap '' HUP; exec sleep 30) & echo "bg=$! ready"; sleep 30; echo never`], (p) =>
      p.onData((c) => {
        seen += c.toString();
        // Kill once the background child exists (its pid printed), not after a guessed delay.
        if (!killed && /bg=\d+ ready/.test(seen)) {
          killed = true;
          p.kill('SIGTERM');
        }
      }),
    );
    expect(exit).toMatchObject({ exitCode: 143, signal: 15 });
    expect(out.toString()).not.toContain('never');
    const bg = Number(/bg=(\d+)/.exec(out.toString())![1]);
    try {
      // The background sleep got the signal too: it is gone (or a zombie waiting to be reaped), well before its 30 s.
      await until(() => !running(bg), 10_000);
    } finally {
      if (running(bg)) process.kill(bg, 'SIGKILL');
    }
  });
});

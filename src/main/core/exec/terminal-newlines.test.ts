/**
 * Undoing the PTY's ONLCR gives back exactly what the program wrote: real programs in a real
 * PTY (CliExecutor), their output fed whole and split at every byte.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodePtyPort } from '../../platform/node-pty-port.js';
import { CliExecutor } from './cli-executor.js';
import { OnlcrUndoer, undoOnlcr } from './terminal-newlines.js';

const dir = mkdtempSync(path.join(tmpdir(), 'mish-onlcr-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function ptyBytes(command: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await new CliExecutor(nodePtyPort, { env: { ...process.env, SHELL: '/bin/bash' } }).run({ command, cwd: dir, onData: (c) => chunks.push(Buffer.from(c)) });
  return Buffer.concat(chunks);
}

describe('undoing ONLCR', () => {
  it("gives the program's bytes: its own \\r\\n, a bare \\r, a final \\r, binary data", async () => {
    const own = Buffer.from('a\r\nb\n\rc\r\r\n\nend\r');
    writeFileSync(path.join(dir, 'text'), own);
    writeFileSync(path.join(dir, 'blob'), randomBytes(20_000));
    for (const file of ['text', 'blob']) {
      const expected = readFileSync(path.join(dir, file));
      const pty = await ptyBytes(`cat ${file}`);
      expect(pty.equals(expected), 'the PTY did translate').toBe(false);
      expect(undoOnlcr(pty).equals(expected), file).toBe(true);
      // Streamed, split at every byte: a \r at the end of a chunk waits for the next one.
      const u = new OnlcrUndoer();
      const parts = [...pty].map((b) => u.push(Buffer.from([b])));
      parts.push(u.end());
      expect(Buffer.concat(parts).equals(expected), `${file}, byte by byte`).toBe(true);
    }
  });
});

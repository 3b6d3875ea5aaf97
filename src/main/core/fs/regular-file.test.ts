import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRegularFile } from './regular-file.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'mish-regular-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readRegularFile: never blocks, never reads without end', () => {
  it('reads a regular file whole', () => {
    const f = path.join(dir, 'ok.toml');
    writeFileSync(f, 'default = "ask"\n');
    expect(readRegularFile(f, 1024)).toEqual({ ok: true, text: 'default = "ask"\n' });
  });

  it('a FIFO with no writer is refused at once (a plain read would wait for a writer forever)', () => {
    const f = path.join(dir, 'fifo.toml');
    execFileSync('mkfifo', [f]);
    expect(readRegularFile(f, 1024)).toMatchObject({ ok: false, code: 'ENOTREG' });
  });

  it('a link to /dev/zero (git stores links: a project can commit one) is refused, not read without end', () => {
    const f = path.join(dir, 'zero.toml');
    symlinkSync('/dev/zero', f);
    expect(readRegularFile(f, 1024)).toMatchObject({ ok: false, code: 'ENOTREG' });
  });

  it('a file over the cap is refused; a missing one says ENOENT', () => {
    const f = path.join(dir, 'big.toml');
    writeFileSync(f, 'x'.repeat(2048));
    expect(readRegularFile(f, 1024)).toMatchObject({ ok: false, code: 'EFBIG' });
    expect(readRegularFile(path.join(dir, 'none.toml'), 1024)).toMatchObject({ ok: false, code: 'ENOENT' });
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MAX_SPOOLS, SpoolStore } from './spool.js';

describe('SpoolStore pruning', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('never prunes a spool its store is still writing (a long-lived background process), only closed ones', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mish-spool-'));
    const store = new SpoolStore(dir);
    const live = store.create('npm run dev', dir);
    live.write(Buffer.from('ready on :3000\n'));
    for (let i = 0; i < MAX_SPOOLS + 60; i++) {
      const s = store.create(`echo ${i}`, dir);
      s.write(Buffer.from(`${i}\n`));
      s.close({ exitCode: 0 });
    }
    live.write(Buffer.from('GET / 200\n'));
    expect(live.reader().readLines().lines.map((l) => l.text)).toEqual(['ready on :3000', 'GET / 200']);
    const metas = readdirSync(dir).filter((f) => f.endsWith('.json'));
    // Pruning ran (it runs every few dozen creates, so the count may sit a little above the cap)...
    expect(metas.length).toBeLessThan(MAX_SPOOLS + 61);
    // ...and the live spool, the oldest of all, survived it.
    expect(store.open(live.id)).toBeDefined();
    live.close({ exitCode: 0 });
  });
});

describe('Spool: a bounded ring on disk of the exact raw bytes', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('gives back every byte exactly (any byte value, split chunks, CR, escapes) while under its bound', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mish-spool-'));
    const spool = new SpoolStore(dir).create('printf …', dir);
    const bytes = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), Buffer.from('50%\r100%\r\n\x1b[31merror\x1b[0m\n\xe2\x82'), Buffer.from([0xac, 0x0a])]);
    for (let i = 0; i < bytes.length; i += 7) spool.write(bytes.subarray(i, i + 7));
    spool.close({ exitCode: 0 });
    const back = new SpoolStore(dir).open(spool.id)!;
    expect(back.readAll().equals(bytes)).toBe(true);
    expect(back.meta).toMatchObject({ bytes: bytes.length, droppedBytes: 0, exitCode: 0 });
  });

  it('past its bound keeps the head and the newest tail on disk, and counts what it dropped', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mish-spool-'));
    const limits = { headBytes: 1000, segmentBytes: 500, tailSegments: 2 };
    const spool = new SpoolStore(dir, limits).create('seq 1 5000', dir);
    const all = Buffer.from(Array.from({ length: 5000 }, (_, i) => `${i + 1}\n`).join(''));
    for (let i = 0; i < all.length; i += 333) spool.write(all.subarray(i, i + 333));
    spool.close({ exitCode: 0 });
    const onDisk = readdirSync(dir).filter((f) => f.startsWith(`${spool.id}.`) && !f.endsWith('.json'));
    const diskBytes = onDisk.reduce((n, f) => n + statSync(path.join(dir, f)).size, 0);
    expect(diskBytes).toBeLessThanOrEqual(limits.headBytes + limits.tailSegments * limits.segmentBytes);
    const back = new SpoolStore(dir).open(spool.id)!;
    expect(back.meta.bytes).toBe(all.length);
    expect(back.meta.droppedBytes).toBe(all.length - diskBytes);
    const kept = back.readAll();
    // The head exactly, a marker with the count, the newest bytes exactly.
    expect(kept.subarray(0, limits.headBytes).equals(all.subarray(0, limits.headBytes))).toBe(true);
    const marker = `\n[... ${back.meta.droppedBytes} bytes dropped from the spool ...]\n`;
    expect(kept.subarray(limits.headBytes, limits.headBytes + marker.length).toString()).toBe(marker);
    const tail = kept.subarray(limits.headBytes + marker.length);
    expect(tail.equals(all.subarray(all.length - tail.length))).toBe(true);
    expect(tail.toString().endsWith('4999\n5000\n')).toBe(true);
  });
});

describe('Spool: private to the user', () => {
  it('directory 0700 (narrowed when it was wider), data and meta files 0600', () => {
    const base = mkdtempSync(path.join(tmpdir(), 'mish-spool-'));
    try {
      const dir = path.join(base, 'spool');
      mkdirSync(dir, { mode: 0o755 });
      chmodSync(dir, 0o755);
      const spool = new SpoolStore(dir).create('cat key.pem', '/');
      spool.write(Buffer.from('-----BEGIN PRIVATE KEY-----\n'));
      spool.close({ exitCode: 0 });
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      const files = readdirSync(dir);
      expect(files.length).toBeGreaterThanOrEqual(2);
      for (const f of files) expect(statSync(path.join(dir, f)).mode & 0o777, f).toBe(0o600);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});

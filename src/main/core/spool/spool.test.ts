import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
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

import { afterEach, describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MAX_SPOOLS, PRUNE_EVERY, PRUNE_SLACK, SpoolStore, WRITE_LATENCY_MS } from './spool.js';

describe('SpoolStore pruning', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('never prunes a spool its store is still writing (a long-lived background process), only closed ones', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mish-spool-'));
    const store = new SpoolStore(dir);
    const live = store.create('npm run dev', dir);
    live.write(Buffer.from('ready on :3000\n'));
    const closed = MAX_SPOOLS + PRUNE_SLACK + 2 * PRUNE_EVERY + 10;
    const ids: string[] = [];
    for (let i = 0; i < closed; i++) {
      const s = store.create(`echo ${i}`, dir);
      s.write(Buffer.from(`${i}\n`));
      s.close({ exitCode: 0 });
      ids.push(s.id);
    }
    live.write(Buffer.from('GET / 200\n'));
    expect(live.reader().readLines().lines.map((l) => l.text)).toEqual(['ready on :3000', 'GET / 200']);
    const metas = readdirSync(dir).filter((f) => f.endsWith('.json'));
    // Pruning looks on the store's creates number 0, PRUNE_EVERY, 2·PRUNE_EVERY… (number 0 was the
    // live spool; closed spool i is create i + 1) and, once MAX_SPOOLS + PRUNE_SLACK closed spools
    // are on disk, cuts them down to MAX_SPOOLS - 1.
    let keptClosed = 0;
    let pruned = 0;
    for (let c = 1; c <= closed; c++) {
      if (c % PRUNE_EVERY === 0 && keptClosed >= MAX_SPOOLS + PRUNE_SLACK) {
        pruned++;
        keptClosed = MAX_SPOOLS - 1;
      }
      keptClosed++;
    }
    expect(pruned).toBeGreaterThan(0); // the test reaches a prune (else it proves nothing)
    expect(metas.length).toBe(keptClosed + 1);
    // The oldest closed spools went, the newest stayed...
    expect(store.open(ids[0])).toBeUndefined();
    for (const id of ids.slice(-PRUNE_EVERY)) expect(store.open(id), id).toBeDefined();
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

  it('a running command\'s few bytes reach the disk within WRITE_LATENCY_MS (another process reads them), not only at 256 KB or its end', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mish-spool-'));
    const spool = new SpoolStore(dir).create('npm run dev', dir);
    spool.write(Buffer.from('ready on :3000\n'));
    // A reader in another process opens the spool from disk (as the console does).
    expect(new SpoolStore(dir).open(spool.id)!.readAll().toString()).toBe('');
    await new Promise((r) => setTimeout(r, WRITE_LATENCY_MS + 200));
    expect(new SpoolStore(dir).open(spool.id)!.readAll().toString()).toBe('ready on :3000\n');
    spool.close({ exitCode: 0 });
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

describe('past the size cap: one numbering, tail reads, the gap stated', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const small = { headBytes: 1_000, segmentBytes: 1_000, tailSegments: 2 };

  it('lines after the dropped middle keep the numbers of the output; the gap and the cut lines are named; the total is the output\'s', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mish-spool-'));
    const s = new SpoolStore(dir, small).create('seq', dir);
    const N = 5_000;
    // Written in odd-sized chunks, so segment edges fall inside lines.
    let out = '';
    for (let i = 1; i <= N; i++) out += `line ${i}\n`;
    for (let at = 0; at < out.length; at += 777) s.write(Buffer.from(out.slice(at, at + 777)));
    s.close({ exitCode: 0 });
    const r = s.reader().readLines();
    expect(r.totalLines).toBe(N);
    expect(r.droppedBytes).toBeGreaterThan(0);
    const gap = r.gap!;
    expect(gap.from).toBeGreaterThan(100);
    expect(gap.to).toBeLessThan(N - 100);
    // Every whole line has its own number; only the lines bordering the gap are cut.
    for (const l of r.lines) if (!gap.cut.includes(l.no)) expect(l.text).toBe(`line ${l.no}`);
    expect(r.lines.map((l) => l.no)).toEqual([...Array.from({ length: gap.from - 1 }, (_, i) => i + 1), ...Array.from({ length: N - gap.to }, (_, i) => gap.to + 1 + i)]);
    for (const c of gap.cut) expect(r.lines.find((l) => l.no === c)!.text).toMatch(/… \[[\d,]+ bytes dropped from the spool\] …/);
    // Tail reads work (by negative and by absolute number), and a read inside the gap skips to after it.
    expect(s.reader().readLines({ from: -3 }).lines).toEqual([4998, 4999, 5000].map((no) => ({ no, text: `line ${no}` })));
    expect(s.reader().readLines({ from: N - 1 }).lines.map((l) => l.no)).toEqual([N - 1, N]);
    expect(s.reader().readLines({ from: gap.from + 1, to: gap.to + 2 }).lines.map((l) => l.no)).toEqual([gap.to + 1, gap.to + 2]);
    // What was dropped adds up: whole lines in the gap plus the kept ones.
    expect(gap.to - gap.from + 1 + r.lines.length).toBe(N);
  });

  it('one enormous line past the cap stays one line, its middle marked', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mish-spool-'));
    const s = new SpoolStore(dir, small).create('yes', dir);
    s.write(Buffer.from('first\n'));
    for (let i = 0; i < 10; i++) s.write(Buffer.from('x'.repeat(700)));
    s.write(Buffer.from('END\nlast\n'));
    s.close({ exitCode: 0 });
    const r = s.reader().readLines();
    expect(r.totalLines).toBe(3);
    expect(r.lines.map((l) => l.no)).toEqual([1, 2, 3]);
    expect(r.lines[1].text).toMatch(/^x+… \[[\d,]+ bytes dropped from the spool\] …x*END$/);
    expect(r.gap).toEqual({ from: 3, to: 2, cut: [2] });
  });
});

describe('range reads agree with whole reads', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('every range, with and without a gap, with and without a last newline, gives what the whole read gives', () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mish-spool-'));
    for (const [limits, n, tail] of [
      [{ headBytes: 1_000, segmentBytes: 1_000, tailSegments: 2 }, 3_000, ''],
      [{ headBytes: 1_000, segmentBytes: 1_000, tailSegments: 2 }, 3_000, 'partial'],
      [{ headBytes: 10_000, segmentBytes: 3_000, tailSegments: 9 }, 1_500, 'end'],
      [{ headBytes: 100_000, segmentBytes: 100_000, tailSegments: 2 }, 200, ''],
    ] as const) {
      const s = new SpoolStore(dir, limits).create('x', dir);
      let out = '';
      for (let i = 1; i <= n; i++) out += `row ${i} ${'.'.repeat(i % 13)}\n`;
      out += tail;
      for (let at = 0; at < out.length; at += 333) s.write(Buffer.from(out.slice(at, at + 333)));
      s.close({ exitCode: 0 });
      const whole = s.reader().readLines();
      const byNo = new Map(whole.lines.map((l) => [l.no, l.text]));
      const total = whole.totalLines;
      for (const [from, to] of [[1, 5], [total - 4, total], [-7, undefined], [1, total], [Math.floor(total / 2), Math.floor(total / 2) + 3], [total - 40, total - 30], [total + 5, undefined]] as [number, number | undefined][]) {
        const r = s.reader().readLines({ from, to });
        expect(r.totalLines, `${from}-${to}`).toBe(total);
        const lo = from < 0 ? Math.max(1, total + from + 1) : from;
        const hi = to === undefined ? total : Math.min(to, total);
        const want = [...byNo.entries()].filter(([no]) => no >= lo && no <= hi).map(([no, text]) => ({ no, text }));
        expect(r.lines, `${JSON.stringify(limits)} ${from}-${to}`).toEqual(want);
      }
    }
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

/**
 * Ids stay valid as long as their output exists (issue 9: after 64 later commands `c1` answered
 * "no process with id", though the reply that gave it said to read the output with it), and a
 * spool reference is accepted wherever an id is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startStdio, type Served } from './mcp-helpers.js';

describe('ids outlive the in-memory process table', () => {
  let s: Served;
  beforeAll(async () => (s = await startStdio()));
  afterAll(() => s.close());

  it('c1 reads back after 80 later commands; its spool id and `mish raw <id>` read the same; a spawn that ended last is kept over earlier ones', async () => {
    const first = await call(s.client, 'sh_run', { cmd: 'seq 101 105' });
    expect(first.data.id).toBe('c1');
    const spool = /^mish raw (\w+)$/.exec(first.data.spool_ref)![1];
    const spawned = await call(s.client, 'sh_spawn', { cmd: 'echo long-start; read x; echo long-end' });
    for (let i = 0; i < 80; i++) await call(s.client, 'sh_run', { cmd: `echo quick ${i}` });
    // The long process ends only now, after the 80 quick ones: it must not be the one forgotten.
    await call(s.client, 'sh_interact', { id: spawned.data.id, action: 'send', text: 'go\n' });
    for (let i = 0; i < 3; i++) await call(s.client, 'sh_run', { cmd: `echo after ${i}` });
    const want = [101, 102, 103, 104, 105].map((v, i) => ({ n: i + 1, text: String(v) }));
    for (const id of ['c1', spool, `mish raw ${spool}`]) {
      const r = await call(s.client, 'sh_interact', { id, action: 'read_raw' });
      expect(r.result.isError, `${id}: ${r.text}`).toBeFalsy();
      expect(r.data.lines).toEqual(want);
      expect(r.data.state).toBe('exited');
    }
    const tail = await call(s.client, 'sh_interact', { id: 'c1', action: 'read_tail', raw: true, lines: 2 });
    expect(tail.data.lines).toEqual(want.slice(-2));
    const status = await call(s.client, 'sh_interact', { id: 'c1', action: 'status' });
    expect(status.data).toMatchObject({ id: 'c1', state: 'exited', exit_code: 0, command: 'seq 101 105' });
    const input = await call(s.client, 'sh_interact', { id: 'c1', action: 'send', text: 'x\n' });
    expect(input.result.isError).toBe(true);
    expect(input.text).toMatch(/has ended and takes no input/);
    // The long spawn is still held whole (the table forgets what ended longest ago).
    const listed = await call(s.client, 'sh_interact', { id: spawned.data.id, action: 'read_raw' });
    expect(listed.data.lines.map((l: { text: string }) => l.text)).toEqual(['long-start', 'go', 'long-end']);
    // Unknown ids and prefixes of spool ids are not guessed.
    for (const bad of ['c999', spool.slice(0, 4), 'mish raw nope']) expect((await call(s.client, 'sh_interact', { id: bad, action: 'read_raw' })).result.isError, bad).toBe(true);
  }, 120_000);
});

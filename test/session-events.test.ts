/**
 * The typed event stream the console subscribes to (issue 4, deliverable 8), on real PTYs and
 * shells: session lifecycle, raw chunks, condensed lines (published by the MCP host's router
 * wiring), command start and end with exit code, segments, process-table changes and
 * waiting-for-input.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodePtyPort } from '../src/main/platform/node-pty-port.js';
import { createSessionManager } from '../src/main/core/session/session-manager.js';
import type { SessionEvent, SessionManager } from '../src/main/core/session/types.js';
import { MAX_ENDED_ENTRIES } from '../src/main/core/process/process-table.js';
import { loadRouterMeta } from '../src/main/core/router/meta.js';
import { routeInSession } from '../src/main/mcp/engine-wiring.js';
import type { RouteCommand } from '../src/main/mcp/tool-kit.js';

type Of<T extends SessionEvent['type']> = Extract<SessionEvent, { type: T }>;

describe('session manager event stream', () => {
  let dir: string;
  let m: SessionManager;
  let route: RouteCommand;
  let events: SessionEvent[];
  let off: () => void;
  const of = <T extends SessionEvent['type']>(type: T, pick: (e: Of<T>) => boolean = () => true): Of<T>[] =>
    events.filter((e): e is Of<T> => e.type === type).filter(pick);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mish-events-'));
    m = createSessionManager({ port: nodePtyPort, cwd: dir, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8' } });
    const meta = loadRouterMeta();
    if (!meta.ok) throw new Error(meta.error.message);
    route = routeInSession(m, meta.meta, () => undefined);
    events = [];
    off = m.subscribe((e) => events.push(e));
  });
  afterAll(async () => {
    off();
    await m.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a command through the router: session-created, command-start, raw chunks, segments, live and final condensed lines, command-end with exit code', async () => {
    writeFileSync(join(dir, 'build.sh'), 'for i in $(seq 1 40); do echo "compiling unit $i"; done\necho "src/unit7.c:3:5: error: expected \';\' before \'}\'"\nexit 2\n');
    // With a cwd: mish's own cd (and the router's env exports) are not the user's segments.
    const r = await route({ command: 'cd . && bash build.sh', session: 'ev', cwd: dir });
    expect(r.exitCode).toBe(2);
    const id = r.id!;
    const created = of('session-created', (e) => e.session.name === 'ev');
    expect(created).toHaveLength(1);
    expect(created[0].session).toMatchObject({ name: 'ev', kind: 'bash', integration: 'osc', cwd: dir });

    const start = of('command-start', (e) => e.id === id);
    expect(start).toEqual([{ type: 'command-start', id, session: 'ev', command: expect.stringContaining('bash build.sh'), cwd: dir, at: expect.any(Number) }]);
    const raw = of('raw', (e) => e.source.id === id);
    expect(raw.length).toBeGreaterThan(0);
    expect(raw.every((e) => e.source.kind === 'command' && e.source.session === 'ev')).toBe(true);
    const bytes = Buffer.concat(raw.map((e) => Buffer.from(e.chunk))).toString('utf8');
    expect(bytes.startsWith('compiling unit 1\r\n')).toBe(true);
    expect(bytes).toContain("src/unit7.c:3:5: error: expected ';' before '}'\r\n");
    expect(of('segment', (e) => e.id === id).map((e) => e.command)).toEqual(['cd .', 'bash build.sh']);

    const condensed = of('condensed', (e) => e.source.id === id);
    const live = condensed.filter((e) => !e.final);
    const final = condensed.filter((e) => e.final);
    // The error as soon as the squasher saw it, then the whole condensed reply.
    expect(live.some((e) => e.lines[0].includes('src/unit7.c:3:5: error'))).toBe(true);
    expect(final).toHaveLength(1);
    expect(final[0].source).toEqual({ kind: 'command', id, session: 'ev' });
    expect(final[0].lines.join('\n')).toBe(r.text.replace(/\n$/, ''));
    expect(final[0].lines.some((l) => l.includes('src/unit7.c:3:5: error'))).toBe(true);
    expect(final[0].lines.length).toBeLessThan(41);

    const end = of('command-end', (e) => e.id === id);
    expect(end).toEqual([{ type: 'command-end', id, session: 'ev', exitCode: 2, cwd: dir, shellExited: false, durationMs: expect.any(Number) }]);
    // Order: start before every chunk, the end after them, the final condensed view after the end.
    const at = (e: SessionEvent) => events.indexOf(e);
    expect(at(start[0])).toBeLessThan(at(raw[0]));
    expect(at(raw[raw.length - 1])).toBeLessThan(at(end[0]));
    expect(at(end[0])).toBeLessThan(at(final[0]));
  });

  it('process-table changes: added, updated (waiting for input, exited), removed when ended entries are pruned', async () => {
    let id = '';
    const run = m.run({ session: 'ev', command: 'read -p "Apply changes? [Y/n] " a; echo "got $a"', onStart: (c) => (id = c.id) });
    while (!id) await new Promise((r) => setTimeout(r, 10));
    const ctl = m.process(id)!;
    const w = await ctl.waitFor(undefined, 10_000, { stopOnInput: true });
    expect(w.status).toBe('waiting-for-input');
    const waiting = of('waiting-for-input', (e) => e.source.id === id);
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({ source: { kind: 'command', id, session: 'ev' }, waiting: { prompt: 'Apply changes? [Y/n]', secret: false } });
    ctl.send('y\n');
    expect((await run).exitCode).toBe(0);

    const changes = of('process', (e) => e.entry.id === id);
    expect(changes[0]).toMatchObject({ change: 'added', entry: { id, kind: 'command', state: 'running', session: 'ev' } });
    expect(changes.some((e) => e.change === 'updated' && e.entry.state === 'waiting-for-input' && e.entry.waiting?.prompt === 'Apply changes? [Y/n]')).toBe(true);
    expect(changes[changes.length - 1]).toMatchObject({ change: 'updated', entry: { state: 'exited', exitCode: 0 } });

    // A background process: its own chunks and table entries.
    const spawned = await m.spawn({ cmd: 'echo from-spawn', alias: 'ev-spawn' });
    if (!spawned.ok) throw new Error(spawned.error.message);
    await spawned.value.done;
    const pid = spawned.value.id;
    expect(of('process', (e) => e.entry.id === pid && e.change === 'added')[0].entry).toMatchObject({ kind: 'spawn', alias: 'ev-spawn' });
    expect(of('process', (e) => e.entry.id === pid && e.change === 'updated').pop()!.entry).toMatchObject({ state: 'exited', exitCode: 0 });
    const spawnRaw = of('raw', (e) => e.source.id === pid);
    expect(spawnRaw[0].source).toEqual({ kind: 'spawn', id: pid, session: undefined });
    expect(Buffer.concat(spawnRaw.map((e) => Buffer.from(e.chunk))).toString()).toContain('from-spawn');

    // Old ended entries are forgotten past the cap, and the console hears of it.
    const ended = m.processes.list().filter((e) => e.state === 'exited' || e.state === 'killed').length;
    // Pruning runs when an entry is added: the cap must already be exceeded by ended entries then.
    for (let i = 0; i <= MAX_ENDED_ENTRIES - ended + 1; i++) await m.run({ session: 'ev', command: 'true' });
    const removed = of('process', (e) => e.change === 'removed');
    expect(removed.length).toBeGreaterThan(0);
    expect(m.processes.get(removed[0].entry.id)).toBeUndefined();
    expect(removed[0].entry.state).toMatch(/exited|killed/);
  });

  it('session-closed for every reason: the shell exited, closed, restarted (with session-created restartOf), disposed', async () => {
    const r = await m.run({ session: 'ev', command: 'exit 3' });
    expect(r.shellExited).toBe(true);
    expect(of('session-closed', (e) => e.session === 'ev' && e.reason === 'shell-exited')).toEqual([{ type: 'session-closed', session: 'ev', reason: 'shell-exited', exitCode: 3 }]);
    // The next command starts a fresh shell: a new session-created that says it replaces "ev".
    await m.run({ session: 'ev', command: 'true' });
    expect(of('session-created', (e) => e.session.name === 'ev').length).toBe(2);
    expect(of('session-created', (e) => e.restartOf === 'ev')).toHaveLength(1);
    const restarted = await m.restart('ev');
    expect(restarted.ok).toBe(true);
    expect(of('session-closed', (e) => e.session === 'ev' && e.reason === 'restarted')).toHaveLength(1);
    expect(of('session-created', (e) => e.restartOf === 'ev')).toHaveLength(2);
    expect(await m.close('ev')).toBe(true);
    expect(of('session-closed', (e) => e.session === 'ev' && e.reason === 'closed')).toHaveLength(1);
    await m.create({ name: 'last' });
    await m.dispose();
    expect(of('session-closed', (e) => e.session === 'last' && e.reason === 'disposed')).toHaveLength(1);
  });
});

/**
 * When the yield watcher looks: not before a session command has started (the shell reading
 * the typed line is not a program waiting), and not while the host holds the output back
 * (backpressure: the silence is the host's). Fake timers drive its silence clock; the
 * pattern-only path (no /proc probe) keeps it synchronous.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WaitingForInput } from '../session/types.js';
import { PATTERN_ONLY_SILENCE_MS, YieldWatcher } from './yield-watcher.js';

const PROMPT_TAIL = 'Continue? [y/N] ';

function watcher(deferred: boolean) {
  const changes: (WaitingForInput | undefined)[] = [];
  const w = new YieldWatcher({ tail: () => PROMPT_TAIL, onChange: (x) => changes.push(x), deferred });
  return { w, changes };
}

describe('YieldWatcher', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reports a prompt after silence (the baseline the cases below hold back)', async () => {
    const { w, changes } = watcher(false);
    await vi.advanceTimersByTimeAsync(PATTERN_ONLY_SILENCE_MS * 3);
    expect(changes.at(-1)?.prompt).toBeTruthy();
    w.stop();
  });

  it('deferred: nothing before begin(), a prompt after it', async () => {
    const { w, changes } = watcher(true);
    await vi.advanceTimersByTimeAsync(PATTERN_ONLY_SILENCE_MS * 5);
    expect(changes).toEqual([]);
    w.begin();
    await vi.advanceTimersByTimeAsync(PATTERN_ONLY_SILENCE_MS * 3);
    expect(changes.at(-1)?.prompt).toBeTruthy();
    w.stop();
  });

  it('deferred: the first output starts the checks too', async () => {
    const { w, changes } = watcher(true);
    w.activity();
    await vi.advanceTimersByTimeAsync(PATTERN_ONLY_SILENCE_MS * 3);
    expect(changes.at(-1)?.prompt).toBeTruthy();
    w.stop();
  });

  it('held: no report while the host holds the output back; silence counts again from the release', async () => {
    const { w, changes } = watcher(false);
    w.hold(true);
    await vi.advanceTimersByTimeAsync(PATTERN_ONLY_SILENCE_MS * 5);
    expect(changes).toEqual([]);
    w.hold(false);
    await vi.advanceTimersByTimeAsync(PATTERN_ONLY_SILENCE_MS / 2);
    expect(changes).toEqual([]);
    await vi.advanceTimersByTimeAsync(PATTERN_ONLY_SILENCE_MS * 3);
    expect(changes.at(-1)?.prompt).toBeTruthy();
    w.stop();
  });
});

describe('YieldWatcher on a real shell that reads its terminal (the session shell itself, leaderIsShell)', () => {
  /** bash alone reading its terminal (its `read` builtin; at its prompt readline polls instead): the shell, not a program it runs. */
  async function idleShell() {
    const { nodePtyPort } = await import('../../platform/node-pty-port.js');
    const { probeForeground } = await import('../../platform/platform.js');
    const term = nodePtyPort.spawn('bash', ['--norc', '--noprofile'], { cols: 80, rows: 24, cwd: process.cwd(), env: { ...process.env, PS1: '$ ' } as Record<string, string> });
    const pts = term.ptsName!;
    term.write('read -r x\n');
    for (let end = Date.now() + 10_000; !probeForeground(term.pid, pts)?.ttyRead; ) {
      if (Date.now() > end) throw new Error('bash never blocked reading its terminal');
      await new Promise((r) => setTimeout(r, 50));
    }
    return term;
  }

  it("the first look that finds the shell alone reading reports nothing; a second one with no output between does; an end in between (stop) leaves nothing reported", async () => {
    const term = await idleShell();
    try {
      const changes: (WaitingForInput | undefined)[] = [];
      const make = (leaderIsShell: boolean) => new YieldWatcher({ leaderPid: term.pid, ptsName: term.ptsName, tail: () => '$ ', onChange: (x) => changes.push(x), deferred: true, leaderIsShell });
      // A spawned program reading its own terminal (not a shell's command): reported at the first look, as before.
      const spawned = make(false);
      expect((await spawned.check())?.reasons).toContain('read-syscall');
      spawned.stop();
      // The session shell: its command may have ended, the end marker still in transit on a loaded machine.
      const w = make(true);
      expect(await w.check()).toBeUndefined();
      expect((await w.check())?.reasons).toContain('read-syscall');
      w.stop();
      // The end marker arrives between the two looks (the session stops the watcher): nothing was ever reported.
      changes.length = 0;
      const ended = make(true);
      expect(await ended.check()).toBeUndefined();
      ended.stop();
      expect(await ended.check()).toBeUndefined();
      // Output between the looks starts a new silence, which needs its own second look.
      const w2 = make(true);
      expect(await w2.check()).toBeUndefined();
      w2.activity();
      expect(await w2.check()).toBeUndefined();
      expect((await w2.check())?.reasons).toContain('read-syscall');
      w2.stop();
      expect(changes.filter((c) => c !== undefined)).toHaveLength(1);
    } finally {
      term.kill('SIGKILL');
    }
  });
});

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

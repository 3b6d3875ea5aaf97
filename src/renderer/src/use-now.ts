import { useEffect, useState } from 'react';

/**
 * One timer per period for every clock on the page: their updates land in one render (React
 * batches the state updates of one callback), not one render per clock — each render of the
 * page is a frame the agent's machine pays for while an agent runs commands.
 */
const tickers = new Map<number, { timer: ReturnType<typeof setInterval>; listeners: Set<(now: number) => void> }>();

function subscribe(everyMs: number, listener: (now: number) => void): () => void {
  let t = tickers.get(everyMs);
  if (!t) {
    const listeners = new Set<(now: number) => void>();
    const timer = setInterval(() => {
      const now = Date.now();
      for (const l of listeners) l(now);
    }, everyMs);
    tickers.set(everyMs, (t = { timer, listeners }));
  }
  t.listeners.add(listener);
  const ticker = t;
  return () => {
    ticker.listeners.delete(listener);
    if (!ticker.listeners.size) {
      clearInterval(ticker.timer);
      tickers.delete(everyMs);
    }
  };
}

/** The current time, refreshed every `everyMs` (0: never) — for elapsed clocks only. */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    if (!everyMs) return;
    return subscribe(everyMs, setNow);
  }, [everyMs]);
  return now;
}

/**
 * Live xterm view of one session. Bytes go from the bridge straight into xterm (never through
 * the store). The view starts with the session's backlog and then appends events, using the
 * stream offsets to drop any overlap between the two.
 */
import { useEffect, useRef } from 'react';
import { Terminal } from '@xterm/xterm';
import type { ConsoleBridge } from '../../shared/contract.js';

/** Lines xterm keeps above the viewport. */
const SCROLLBACK_LINES = 10_000;
/** Default size when the session does not say (the engine's PTYs default to 120x30). */
const DEFAULT_COLS = 120;
const DEFAULT_ROWS = 30;

declare global {
  interface Window {
    /** The xterm instance on screen: for e2e tests (like xterm.js's own `window.term`) and debugging. */
    __mishTerm?: Terminal;
  }
}

export function TerminalView({ bridge, sessionId }: { bridge: ConsoleBridge; sessionId: string }) {
  const host = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const term = new Terminal({ scrollback: SCROLLBACK_LINES, cols: DEFAULT_COLS, rows: DEFAULT_ROWS, disableStdin: true, convertEol: false });
    term.open(host.current!);
    window.__mishTerm = term;

    let disposed = false;
    /** Offset up to which output is on screen; undefined until the backlog arrived. */
    let shownUpTo: number | undefined;
    const early: { data: Uint8Array; offset: number }[] = [];
    const show = (data: Uint8Array, offset: number) => {
      if (shownUpTo === undefined) return void early.push({ data, offset });
      const end = offset + data.length;
      if (end <= shownUpTo) return;
      term.write(offset < shownUpTo ? data.subarray(shownUpTo - offset) : data);
      shownUpTo = end;
    };
    const off = bridge.onSessionOutput((ev) => {
      if (ev.sessionId === sessionId) show(fromBase64(ev.data), ev.offset);
    });
    bridge.subscribeSession({ sessionId }).then(
      ({ backlog, offset }) => {
        if (disposed) return;
        const bytes = fromBase64(backlog);
        term.write(bytes);
        shownUpTo = offset;
        for (const e of early.splice(0)) show(e.data, e.offset);
      },
      (err: Error) => term.write(`\r\n\x1b[31mmish console: ${err.message}\x1b[0m\r\n`),
    );
    return () => {
      disposed = true;
      off();
      void bridge.unsubscribeSession({ sessionId }).catch(() => {});
      if (window.__mishTerm === term) window.__mishTerm = undefined;
      term.dispose();
    };
  }, [bridge, sessionId]);

  return <div className="terminal" ref={host} data-session={sessionId} />;
}

function fromBase64(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

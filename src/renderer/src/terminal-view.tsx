/**
 * Live xterm view of one session, at the PTY's own size: watching never resizes the agent's
 * terminal (the view scrolls when the window is smaller). Bytes go from the bridge straight
 * into xterm (never through the store). The view starts with the session's backlog, then
 * appends events, using the stream offsets to drop overlap; each chunk is acknowledged once
 * xterm has parsed it, which is the host's flow control (console-service.ts).
 *
 * Renderer: WebGL when a GPU draws it, else xterm's DOM renderer (the fallback when WebGL is
 * unavailable, software-rendered, or its context is lost). Software WebGL (SwiftShader, llvmpipe:
 * a VM, a server without GPU, Chromium with --disable-gpu) is the worst of both: each frame is
 * drawn on the CPU and read back for the compositor (measured: ~100 ms per frame while output
 * streams, against ~10 ms for the DOM renderer).
 */
import { useEffect, useRef, useState } from 'react';
import { Terminal, type ITheme } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import { SearchAddon } from '@xterm/addon-search';
import { WebglAddon } from '@xterm/addon-webgl';
import type { CommandInfo, ConsoleBridge } from '../../shared/contract.js';
import { CommandMarks } from './command-marks.js';
import { useConsole } from './store.js';

/** Lines xterm keeps above the viewport: bounded scrollback (≈10 MB at 120 columns). */
const SCROLLBACK_LINES = 10_000;
/** xterm's key handler for a terminal that only shows: no key is xterm's. */
const ignoreKeys = (): boolean => false;
/** Font size range: the view shrinks its font (not the PTY) to show all the agent's columns. */
const FONT_MAX = 13;
const FONT_MIN = 9;
/**
 * Row height as a multiple of the font's: at 1 (xterm's default) the DOM renderer clips the
 * underscore of common monospace fonts below ~12 px (DejaVu Sans Mono, Debian's default), and
 * `widget_01.tsx` read as `widget 01.tsx` in the live terminal while the agent's pane showed the
 * underscore. 1.15 keeps it on every size from FONT_MIN to FONT_MAX.
 */
const LINE_HEIGHT = 1.15;

declare global {
  interface Window {
    /** The xterm instance on screen: for e2e tests (like xterm.js's own `window.term`) and debugging. */
    __mishTerm?: Terminal;
  }
}

export interface TerminalHandle {
  search?: SearchAddon;
  /** The xterm on screen (takeover: the operator types into it). */
  term?: Terminal;
}

export function terminalTheme(): ITheme {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string) => css.getPropertyValue(name).trim() || undefined;
  return { background: v('--term-bg'), foreground: v('--term-fg'), cursor: v('--term-fg'), selectionBackground: v('--term-sel') };
}

export function TerminalView({
  bridge,
  sessionId,
  cols,
  rows,
  handle,
  input,
}: {
  bridge: ConsoleBridge;
  sessionId: string;
  cols: number;
  rows: number;
  handle?: TerminalHandle;
  /**
   * While the operator holds the session (a takeover): keystrokes go to `input` (the PTY, over
   * the wire) and nowhere else — not the store, not the DOM, not a log.
   */
  input?: (data: string) => void;
}) {
  const host = useRef<HTMLDivElement>(null);
  const termRef = useRef<Terminal>(undefined);
  const [renderer, setRenderer] = useState<'webgl' | 'dom'>('dom');
  const [fits, setFits] = useState(true);

  useEffect(() => {
    const term = new Terminal({ scrollback: SCROLLBACK_LINES, cols, rows, disableStdin: true, convertEol: false, allowProposedApi: true, theme: terminalTheme(), fontSize: FONT_MAX, lineHeight: LINE_HEIGHT });
    // Only showing: xterm leaves keys alone (it would cancel them, and the console's shortcuts
    // would not fire while its text area has the focus, after a click into the terminal).
    term.attachCustomKeyEventHandler(ignoreKeys);
    const fit = new FitAddon();
    const search = new SearchAddon();
    term.loadAddon(fit);
    term.loadAddon(search);
    term.open(host.current!);
    try {
      if (!hardwareWebgl()) throw new Error('WebGL is software-rendered here');
      const webgl = new WebglAddon();
      webgl.onContextLoss(() => {
        webgl.dispose();
        setRenderer('dom');
      });
      term.loadAddon(webgl);
      setRenderer('webgl');
    } catch {
      setRenderer('dom'); // no (hardware) WebGL here: xterm's DOM renderer draws the same
    }
    if (handle) {
      handle.search = search;
      handle.term = term;
    }
    window.__mishTerm = term;
    termRef.current = term;

    // The PTY's size stays: the fit addon tells how many columns the view has room for, and the
    // font shrinks (down to FONT_MIN) until the agent's columns fit; below that the view scrolls.
    const measure = () => {
      const d = fit.proposeDimensions();
      if (!d) return;
      const font = term.options.fontSize ?? FONT_MAX;
      const wanted = Math.max(FONT_MIN, Math.min(FONT_MAX, Math.floor((font * d.cols) / cols)));
      if (wanted !== font) term.options.fontSize = wanted;
      setFits(Math.floor((d.cols * font) / wanted) >= cols);
    };
    const ro = new ResizeObserver(measure);
    ro.observe(host.current!);
    const media = matchMedia('(prefers-color-scheme: dark)');
    const retheme = () => (term.options.theme = terminalTheme());
    media.addEventListener('change', retheme);

    // Where each command's output starts: a dim rule with the command (decorations; the bytes stay the session's).
    // A click on a mark's label shows that command: its timeline row selected (the timeline scrolls to it).
    const marks = new CommandMarks(term, (commandId) => useConsole.getState().selectCommand(sessionId, commandId));
    const markAll = (list: CommandInfo[] | undefined) => {
      if (!list) return;
      for (const c of list) marks.mark(c);
      // Once xterm has placed what it could (a mark at the cursor is placed in a write callback).
      term.write('', () => host.current?.setAttribute('data-marks', String(marks.count)));
    };
    markAll(useConsole.getState().timelines[sessionId]);
    const offTimeline = useConsole.subscribe((s, prev) => {
      if (s.timelines[sessionId] !== prev.timelines[sessionId]) markAll(s.timelines[sessionId]);
    });

    let disposed = false;
    /** Offset up to which output is on screen; undefined until the backlog arrived. */
    let shownUpTo: number | undefined;
    const early: { data: Uint8Array; offset: number; skipped?: number }[] = [];
    const show = (data: Uint8Array, offset: number, skipped?: number) => {
      if (shownUpTo === undefined) return void early.push({ data, offset, skipped });
      if (skipped) term.write(`\r\n\x1b[2m[mish console: ${skipped.toLocaleString('en-US')} ${skipped === 1 ? 'byte' : 'bytes'} not drawn here (fast output: the view shows the newest); the raw pane has every line]\x1b[0m\r\n`);
      const end = offset + data.length;
      if (end <= shownUpTo) return;
      const part = offset < shownUpTo ? data.subarray(shownUpTo - offset) : data;
      shownUpTo = end;
      // Acknowledge once xterm has parsed it: the host sends more only as the view keeps up.
      marks.write(part, end - part.length, () => {
        if (!disposed) void bridge.ackOutput({ sessionId, offset: end }).catch(() => {});
        host.current?.setAttribute('data-marks', String(marks.count));
      });
    };
    const off = bridge.onSessionOutput((ev) => {
      if (ev.sessionId === sessionId) show(fromBase64(ev.data), ev.offset, ev.skipped);
    });
    bridge.subscribeSession({ sessionId }).then(
      ({ backlog, offset }) => {
        if (disposed) return;
        const bytes = fromBase64(backlog);
        marks.write(bytes, offset - bytes.length, () => host.current?.setAttribute('data-marks', String(marks.count)));
        shownUpTo = offset;
        for (const e of early.splice(0)) show(e.data, e.offset, e.skipped);
      },
      (err: Error) => term.write(`\r\n\x1b[31mmish console: ${err.message}\x1b[0m\r\n`),
    );
    return () => {
      disposed = true;
      off();
      offTimeline();
      marks.dispose();
      ro.disconnect();
      media.removeEventListener('change', retheme);
      void bridge.unsubscribeSession({ sessionId }).catch(() => {});
      if (window.__mishTerm === term) window.__mishTerm = undefined;
      if (handle) handle.search = handle.term = undefined;
      term.dispose();
    };
  }, [bridge, sessionId, cols, rows]); // eslint-disable-line react-hooks/exhaustive-deps

  // Declared after the terminal's own effect: on a remount the new terminal exists when this runs.
  useEffect(() => {
    const term = termRef.current;
    if (!term || !input) return;
    term.options.disableStdin = false;
    term.focus();
    const sub = term.onData((data) => input(data));
    // Held: xterm takes every key (⌃R, `u`, … go to the PTY).
    term.attachCustomKeyEventHandler(() => true);
    return () => {
      sub.dispose();
      term.options.disableStdin = true;
      term.attachCustomKeyEventHandler(ignoreKeys);
    };
  }, [input, bridge, sessionId, cols, rows]);

  return (
    <div className="terminal-wrap">
      <div className="terminal" ref={host} data-session={sessionId} data-renderer={renderer} data-typing={input ? 'true' : undefined} />
      {!fits && <div className="note fit-note">the agent's terminal is {cols}×{rows}; scroll to see all of it (watching never resizes it)</div>}
    </div>
  );
}

/** Renderer strings of software rasterizers behind WebGL. */
const SOFTWARE_GL = /swiftshader|llvmpipe|softpipe|software|basic render/i;
let webglVerdict: boolean | undefined;

/**
 * True when WebGL here is drawn by a GPU: a context that needs no "major performance caveat"
 * (the browser's own word for software GL), and a renderer that is not a known software one.
 * Probed once per page.
 */
export function hardwareWebgl(): boolean {
  if (webglVerdict !== undefined) return webglVerdict;
  webglVerdict = false;
  try {
    const gl = document.createElement('canvas').getContext('webgl2', { failIfMajorPerformanceCaveat: true });
    if (!gl) return webglVerdict;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = String(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
    webglVerdict = !SOFTWARE_GL.test(renderer);
    gl.getExtension('WEBGL_lose_context')?.loseContext();
  } catch {
    webglVerdict = false;
  }
  return webglVerdict;
}

function fromBase64(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}


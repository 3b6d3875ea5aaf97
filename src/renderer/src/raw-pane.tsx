/**
 * The selected command's exact raw output, read from the spool (ANSI colours rendered, each
 * line numbered as `mish raw` numbers it). Lines the agent also saw are highlighted; a fold
 * marker clicked in the agent pane scrolls here to the lines it stands for.
 */
import { AnsiUp } from 'ansi_up';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { CommandInfo, ConsoleBridge } from '../../shared/contract.js';
import type { FoldJump } from './agent-pane.js';
import { int } from './format.js';

/** Escape sequences that are not colours (cursor moves, titles, modes): dropped from the line view. */
const NON_SGR = /\x1b(?:\[[0-9;?]*[A-Za-ln-z@`]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78])/g;
const ANY_ESC = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;

interface RawText {
  lines: string[];
  firstLine: number;
  totalLines: number;
  truncated: boolean;
}

/** A terminal line as it finally looked: text after the last carriage return (progress bars). */
function finalSegment(line: string): string {
  const parts = line.replace(/\r+$/, '').split('\r');
  return parts[parts.length - 1] ?? '';
}

/**
 * A line as the agent pane and the raw pane can both be matched by: without the condenser's
 * marks (a leading ⚠/✗ glyph, indentation, a trailing repeat count "(x12)").
 */
function seenKey(line: string): string {
  return line.replace(/^\s*(?:[^\w\s[(\-./'"]{1,2}\s+)?/u, '').replace(/\s+\(x\d+\)$/, '').trim();
}

export function plainText(line: string): string {
  return finalSegment(line).replace(ANY_ESC, '');
}

export function RawPane({ bridge, command, jump: fold, readAgain = 0, follow = false }: { bridge: ConsoleBridge; command: CommandInfo | undefined; jump?: FoldJump & { seq: number }; readAgain?: number; follow?: boolean }) {
  const [raw, setRaw] = useState<RawText | { error: string } | undefined>();
  const box = useRef<HTMLDivElement>(null);
  // `follow`: kept scrolled to the newest line while the operator has not scrolled up (tail -f).
  const atEnd = useRef(true);
  // `readAgain`: a caller showing a running process's output asks for a fresh read by changing it.
  const key = command ? `${command.sessionId}#${command.id}#${command.state}#${command.tokensRaw !== undefined}#${readAgain}` : '';

  useEffect(() => {
    if (!command) return setRaw(undefined);
    let live = true;
    bridge.readCommandRaw({ sessionId: command.sessionId, commandId: command.id }).then(
      (r) => live && setRaw({ lines: r.text === '' ? [] : r.text.split('\n'), firstLine: r.firstLine, totalLines: r.totalLines, truncated: r.truncated }),
      (e: Error) => live && setRaw({ error: e.message }),
    );
    return () => {
      live = false;
    };
    // Re-read when the command changes state or its spool became readable (raw tokens counted); a running one is read as it is when opened.
  }, [bridge, key]); // eslint-disable-line react-hooks/exhaustive-deps

  const seen = useMemo(() => {
    const set = new Set<string>();
    for (const l of (command?.agentSaw ?? '').split('\n')) {
      const t = seenKey(l);
      if (t) set.add(t);
    }
    return set;
  }, [command?.agentSaw]);

  const html = useMemo(() => {
    if (!raw || 'error' in raw) return [];
    const ansi = new AnsiUp();
    ansi.use_classes = true;
    return raw.lines.map((l) => ansi.ansi_to_html(finalSegment(l).replace(NON_SGR, '')));
  }, [raw]);

  // A fold without line numbers stands for the raw lines between the lines shown around it.
  const jump = useMemo(() => {
    if (!fold || !raw || 'error' in raw) return undefined;
    if ('from' in fold) return fold;
    const keys = raw.lines.map((l) => seenKey(plainText(l)));
    const after = keys.indexOf(seenKey(fold.after));
    if (after < 0) return undefined;
    let before = fold.before !== undefined ? keys.indexOf(seenKey(fold.before), after + 1) : keys.length;
    if (before < 0) before = keys.length;
    return before - after > 1 ? { from: raw.firstLine + after + 1, to: raw.firstLine + before - 1 } : undefined;
  }, [fold, raw]);

  useEffect(() => {
    if (follow && atEnd.current && box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [html, follow]);

  useEffect(() => {
    if (!jump || !box.current) return;
    const el = box.current.querySelector<HTMLElement>(`[data-line="${jump.from}"]`);
    el?.scrollIntoView({ block: 'start' });
  }, [jump, html]);

  if (!command) return <div className="raw-pane empty">no command selected</div>;
  if (!raw) return <div className="raw-pane empty">reading {command.id}…</div>;
  if ('error' in raw) return <div className="raw-pane empty">{raw.error}</div>;
  return (
    <div
      className="raw-pane"
      ref={box}
      tabIndex={0}
      aria-label={`raw output of ${command.id}`}
      data-command-id={command.id}
      onScroll={(e) => {
        const b = e.currentTarget;
        atEnd.current = b.scrollTop + b.clientHeight >= b.scrollHeight - 4;
      }}
    >
      {raw.truncated && <div className="note">lines 1–{int(raw.firstLine - 1)} not shown here; `mish raw {command.id}` has them all</div>}
      {html.length === 0 && <div className="empty">no output</div>}
      {html.map((h, i) => {
        const n = raw.firstLine + i;
        const text = seenKey(plainText(raw.lines[i]));
        const inJump = jump && n >= jump.from && n <= jump.to;
        return (
          <div key={n} className={`raw-line${text && seen.has(text) ? ' seen' : ''}${inJump ? ' jumped' : ''}`} data-line={n}>
            <span className="ln">{n}</span>
            <span className="txt" dangerouslySetInnerHTML={{ __html: h || ' ' }} />
          </div>
        );
      })}
    </div>
  );
}

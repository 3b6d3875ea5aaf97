/** The selected session's commands, newest at the bottom: exit, duration, category, tokens raw → shown, reduction. */
import { memo, useCallback, useEffect, useRef } from 'react';
import type { CommandInfo } from '../../shared/contract.js';
import { commandGlyph } from './glyphs.js';
import { absolute, clock, duration, int, reduction } from './format.js';
import { useNow } from './use-now.js';
import { useConsole } from './store.js';

const EMPTY: CommandInfo[] = [];

export function Timeline({ sessionId, shownId, onGrammar }: { sessionId: string; shownId?: string; onGrammar?: (spoolId: string) => void }) {
  const commands = useConsole((s) => s.timelines[sessionId] ?? EMPTY);
  const list = useRef<HTMLOListElement>(null);
  // One callback for every row, whatever the parent passes this render (rows are memoised).
  const grammarRef = useRef(onGrammar);
  grammarRef.current = onGrammar;
  const openGrammar = useCallback((spoolId: string) => grammarRef.current?.(spoolId), []);
  const now = useNow(commands.some((c) => c.state !== 'done') ? 1000 : 0);

  // Keep the newest row in view as commands arrive (scrolling the list never moves focus).
  useEffect(() => {
    const el = list.current;
    if (el && el.scrollHeight - el.scrollTop - el.clientHeight < 80) el.scrollTop = el.scrollHeight;
  }, [commands.length]);

  return (
    <section className="timeline" aria-label="command timeline">
      <h2 className="section-title">Timeline</h2>
      {commands.length === 0 ? (
        <p className="empty">no commands yet</p>
      ) : (
        <ol ref={list} className="rows">
          <li aria-hidden className="row head">
            <span />
            <span>command</span>
            <span className="exit">exit</span>
            <span className="dur">time</span>
            <span>category</span>
            <span className="tok">tokens raw → shown</span>
            <span className="red">saved</span>
          </li>
          {commands.map((c) => (
            // Only running rows tick with the clock; a finished row re-renders only when its command changes.
            <Row key={c.id} c={c} shown={c.id === shownId} now={c.state !== 'done' ? now : 0} sessionId={sessionId} onGrammar={onGrammar ? openGrammar : undefined} />
          ))}
        </ol>
      )}
    </section>
  );
}

/** One command; memoised: a burst of commands re-renders the rows that changed, not the whole list. */
const Row = memo(function Row({ c, shown, now, sessionId, onGrammar }: { c: CommandInfo; shown: boolean; now: number; sessionId: string; onGrammar?: (spoolId: string) => void }) {
  const g = commandGlyph(c);
  const red = c.tokensRaw !== undefined && c.tokensShown !== undefined ? reduction(c.tokensRaw, c.tokensShown) : undefined;
  return (
    <li>
      <button
        className={`row tone-${g.tone}${shown ? ' selected' : ''}`}
        data-command-id={c.id}
        aria-current={shown ? 'true' : undefined}
        onClick={() => {
          const st = useConsole.getState();
          st.selectCommand(sessionId, c.id);
          if (c.state === 'done') st.setPane('raw');
        }}
        title={`${c.id} · started ${absolute(c.startedAt)} · ${int(c.rawLines)} raw lines, ${int(c.rawBytes)} bytes${c.asked ? `\nthe agent asked: ${c.asked}\nmish ran: ${c.command}` : ''}`}
      >
        <span className="glyph" aria-label={g.word}>{g.glyph}</span>
        <code className="cmd" data-ran={c.asked ? c.command : undefined}>{c.asked ?? c.command}</code>
        <span className="exit">{c.exitCode ?? (c.state === 'done' ? '–' : '…')}</span>
        <span className="dur">{c.durationMs !== undefined ? duration(c.durationMs) : c.state !== 'done' ? clock(now - c.startedAt) : ''}</span>
        <span className="cat">{c.category ?? ''}</span>
        <span className="tok">
          {c.tokensRaw !== undefined ? `${c.tokensApprox ? '≈' : ''}${int(c.tokensRaw)} → ${int(c.tokensShown ?? 0)} tok` : c.state === 'done' || c.rawBytes === 0 ? '' : `${int(c.rawLines)} lines`}
        </span>
        <span className={red?.startsWith('+') ? 'red grew' : 'red'}>{red ?? ''}</span>
      </button>
      {c.spoolId && onGrammar && (
        <button className="row-action" title={`Tune a grammar against this output (mish raw ${c.spoolId})`} aria-label={`grammar editor with the output of ${c.command}`} onClick={() => onGrammar(c.spoolId!)}>
          ✎
        </button>
      )}
    </li>
  );
});

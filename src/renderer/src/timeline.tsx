/** The selected session's commands, newest at the bottom: exit, duration, category, tokens raw → shown, reduction. */
import { memo, useCallback, useEffect, useRef } from 'react';
import type { CommandInfo } from '../../shared/contract.js';
import { commandGlyph } from './glyphs.js';
import { absolute, clock, duration, int, plural, saving } from './format.js';
import { approvalBadge, approvalSentence, neverRan } from './approval-mark.js';
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
  const operator = useConsole((s) => s.operator);

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
          <li aria-hidden className="head-li">
            <span className="row head">
              <span />
              <span>command</span>
              <span className="exit">exit</span>
              <span className="dur">time</span>
              <span>category</span>
              <span className="tok">tokens raw → shown</span>
              <span className="red">saved</span>
            </span>
            {onGrammar && <span className="row-action-slot" />}
          </li>
          {commands.map((c) => (
            // Only running rows tick with the clock; a finished row re-renders only when its command changes.
            <Row key={c.id} c={c} shown={c.id === shownId} now={c.state !== 'done' ? now : 0} sessionId={sessionId} operator={operator} onGrammar={onGrammar ? openGrammar : undefined} />
          ))}
        </ol>
      )}
    </section>
  );
}

/** One command; memoised: a burst of commands re-renders the rows that changed, not the whole list. */
const Row = memo(function Row({ c, shown, now, sessionId, operator, onGrammar }: { c: CommandInfo; shown: boolean; now: number; sessionId: string; operator?: string; onGrammar?: (spoolId: string) => void }) {
  const g = commandGlyph(c);
  const stopped = neverRan(c);
  const save = c.tokensRaw !== undefined && c.tokensShown !== undefined ? saving(c.tokensRaw, c.tokensShown) : undefined;
  const badge = c.approval ? approvalBadge(c.approval, operator) : undefined;
  const rule = c.approval?.rule;
  return (
    <li data-approval-outcome={c.approval?.outcome}>
      <button
        className={`row tone-${g.tone}${shown ? ' selected' : ''}${stopped ? ' never-ran' : ''}`}
        data-command-id={c.id}
        aria-current={shown ? 'true' : undefined}
        onClick={() => {
          const st = useConsole.getState();
          st.selectCommand(sessionId, c.id);
          // A command that never ran has no raw output: its detail is in the agent pane.
          if (c.state === 'done' && !stopped) st.setPane('raw');
        }}
        title={[
          stopped ? `${c.id} · asked ${absolute(c.startedAt)} · never ran` : `${c.id} · started ${absolute(c.startedAt)} · ${plural(c.rawLines, 'raw line')}, ${plural(c.rawBytes, 'byte')}`,
          c.asked ? `the agent asked: ${c.asked}\nmish ran: ${c.command}` : '',
          c.approval ? `${approvalSentence(c.approval, operator)}${rule ? `\nrule ${rule}${c.approval.reason ? `: ${c.approval.reason}` : ''}` : ''}` : '',
        ]
          .filter(Boolean)
          .join('\n')}
      >
        <span className="glyph" aria-label={g.word}>{g.glyph}</span>
        <span className="cmd-cell">
          <code className="cmd" data-ran={c.asked ? c.command : undefined}>{c.asked ?? c.command}</code>
          {badge && (
            <span className={`approval-mark ${badge.tone}`} data-approval={c.approval!.id}>
              {/* On a phone only the glyph shows (the words are in the agent pane's detail). */}
              {badge.text.slice(0, 1)}
              <span className="mark-words">{badge.text.slice(1)}</span>
            </span>
          )}
        </span>
        <span className="exit">{c.exitCode ?? (c.state === 'done' ? '–' : '…')}</span>
        <span className="dur">{c.durationMs !== undefined ? duration(c.durationMs) : c.state !== 'done' ? clock(now - c.startedAt) : ''}</span>
        <span className="cat" title={stopped && rule ? `rule ${rule}` : undefined}>{stopped ? (rule ?? 'escalated') : (c.category ?? '')}</span>
        <span className="tok">
          {stopped
            ? 'never ran'
            : c.tokensRaw !== undefined
              ? `${c.tokensApprox ? '≈' : ''}${int(c.tokensRaw)} → ${int(c.tokensShown ?? 0)} tok`
              : c.state === 'done' || c.rawBytes === 0
                ? ''
                : plural(c.rawLines, 'line')}
        </span>
        <span className={`red${save ? ` ${save.tone}` : ''}`} title={save?.title}>
          {save?.text ?? ''}
        </span>
      </button>
      {onGrammar &&
        (c.spoolId ? (
          <button className="row-action" title={`Tune a grammar against this output (mish raw ${c.spoolId})`} aria-label={`grammar editor with the output of ${c.command}`} onClick={() => onGrammar(c.spoolId!)}>
            ✎
          </button>
        ) : (
          <span className="row-action-slot" />
        ))}
    </li>
  );
});

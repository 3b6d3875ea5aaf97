/** The selected session's commands, newest at the bottom: exit, duration, category, tokens raw → shown, reduction. */
import { memo, useCallback, useEffect, useRef, useState } from 'react';
import type { CommandInfo, PendingApproval } from '../../shared/contract.js';
import { commandGlyph } from './glyphs.js';
import { absolute, clock, duration, int, plural, saving } from './format.js';
import { approvalBadge, approvalSentence, neverRan, shownCommand } from './approval-mark.js';
import { useNow } from './use-now.js';
import { useConsole } from './store.js';

const EMPTY: CommandInfo[] = [];
const NO_APPROVALS: PendingApproval[] = [];
/** A row's height in the list (CSS: .timeline --row-h; 44 px on a phone: the first row's is used), for counting the rows scrolled above. */
const ROW_PX = 22;
/** Scrolled less than this (sub-pixel rounding) is at the top. */
const SCROLL_SLACK_PX = 2;

export function Timeline({ sessionId, shownId, onGrammar }: { sessionId: string; shownId?: string; onGrammar?: (spoolId: string) => void }) {
  const commands = useConsole((s) => s.timelines[sessionId] ?? EMPTY);
  const list = useRef<HTMLOListElement>(null);
  // One callback for every row, whatever the parent passes this render (rows are memoised).
  const grammarRef = useRef(onGrammar);
  grammarRef.current = onGrammar;
  const openGrammar = useCallback((spoolId: string) => grammarRef.current?.(spoolId), []);
  const now = useNow(commands.some((c) => c.state !== 'done') ? 1000 : 0);
  const operator = useConsole((s) => s.operator);
  // The command a human holds now (a secret prompt taken over): its row says so, not "running".
  const heldId = useConsole((s) => {
    const x = s.sessions.find((y) => y.id === sessionId);
    return x?.state === 'handed-off' ? x.commandId : undefined;
  });
  // A command waiting for the operator is a row too (it has no command id yet): the approval's.
  const pending = useConsole((s) => s.approvals);
  const waiting = pending.length ? pending.filter((a) => a.sessionId === sessionId && a.tool === 'sh_run') : NO_APPROVALS;
  const pendingNow = useNow(waiting.length ? 1000 : 0);
  const rows = commands.length + waiting.length;
  // Rows scrolled out above the list's top: said in words ("3 earlier ↑"), never left to guess.
  const [above, setAbove] = useState(0);
  const [below, setBelow] = useState(0);
  const onScroll = useCallback(() => {
    const el = list.current;
    const rowPx = el?.firstElementChild?.getBoundingClientRect().height || ROW_PX;
    // A row partly scrolled out counts: its top (bottom) is hidden.
    setAbove(el ? Math.max(0, Math.ceil((el.scrollTop - SCROLL_SLACK_PX) / rowPx)) : 0);
    setBelow(el ? Math.max(0, Math.ceil((el.scrollHeight - el.scrollTop - el.clientHeight - SCROLL_SLACK_PX) / rowPx)) : 0);
  }, []);

  // Keep the newest row in view as commands arrive, and show the newest when the list first
  // appears (a session opened shows its latest commands, not its first). Scrolling never moves focus.
  const shownOnce = useRef(false);
  useEffect(() => {
    const el = list.current;
    if (el && (!shownOnce.current || el.scrollHeight - el.scrollTop - el.clientHeight < 80)) {
      el.scrollTop = el.scrollHeight;
      // Rows laid out only now (content-visibility: their height was an estimate) can move the end: once more, after layout.
      const frame = requestAnimationFrame(() => {
        el.scrollTop = el.scrollHeight;
        onScroll();
      });
      shownOnce.current = true;
      onScroll();
      return () => cancelAnimationFrame(frame);
    }
    onScroll();
  }, [rows, onScroll]);

  // The shown command's row stays in view when it changes ([ and ], a mark clicked in the terminal).
  useEffect(() => {
    const el = list.current;
    const row = shownId ? el?.querySelector(`[data-command-id="${CSS.escape(shownId)}"]`) : undefined;
    if (!el || !row) return;
    const box = el.getBoundingClientRect();
    const r = row.getBoundingClientRect();
    if (r.top < box.top) el.scrollTop -= box.top - r.top;
    else if (r.bottom > box.bottom) el.scrollTop += r.bottom - box.bottom;
  }, [shownId]);

  return (
    <section className="timeline" aria-label="command timeline">
      <h2 className="section-title">Timeline</h2>
      {rows === 0 ? (
        <p className="empty">no commands yet</p>
      ) : (
        <div className="rows-box">
          {/* The header is outside the scrolling list: it never covers a row. */}
          <div className="rows-head">
            <span className="row head" aria-hidden>
              <span />
              <span>command</span>
              <span className="exit">exit</span>
              <span className="dur">time</span>
              <span>category</span>
              <span className="tok" title="o200k tokens of the raw output (colours stripped) → of the whole reply the agent received; a reply cut at mish's ~20k-token cap (counted high) states its kept output in the same count">
                tokens raw → shown
              </span>
              <span className="red">saved</span>
            </span>
            {onGrammar && <span className="row-action-slot" />}
            {(above > 0 || below > 0) && (
              <span className="scroll-hints">
                {above > 0 && (
                  <button className="earlier" data-earlier={above} onClick={() => list.current?.scrollTo({ top: 0 })} title="scroll to the first command">
                    ↑ {plural(above, 'earlier command')}
                  </button>
                )}
                {below > 0 && (
                  <button className="later" data-later={below} onClick={() => list.current?.scrollTo({ top: list.current.scrollHeight })} title="scroll to the newest command">
                    ↓ {plural(below, 'later command')}
                  </button>
                )}
              </span>
            )}
          </div>
          <ol ref={list} className={`rows${above > 0 ? ' scrolled' : ''}${below > 0 ? ' more-below' : ''}`} onScroll={onScroll}>
            {commands.map((c) => (
              // Only running rows tick with the clock; a finished row re-renders only when its command changes.
              <Row key={c.id} c={c} held={c.id === heldId && c.state !== 'done'} shown={c.id === shownId} now={c.state !== 'done' ? now : 0} sessionId={sessionId} operator={operator} onGrammar={onGrammar ? openGrammar : undefined} />
            ))}
            {waiting.map((a) => (
              <PendingRow key={a.id} a={a} now={pendingNow} grammarSlot={!!onGrammar} />
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}

/**
 * A command waiting for an operator's approval: a row of its session's timeline while it waits
 * (the rule in the category column), replaced by the approved command's row or the never-ran
 * row once decided. A click opens its approval dialog.
 */
function PendingRow({ a, now, grammarSlot }: { a: PendingApproval; now: number; grammarSlot: boolean }) {
  return (
    <li data-pending-approval={a.id}>
      <button
        className="row tone-attn pending-approval"
        onClick={() => useConsole.getState().openApproval(a.id)}
        title={`${a.id} · asked ${absolute(a.createdAt)} · waiting for approval${a.rule ? `\nrule ${a.rule}${a.reason ? `: ${a.reason}` : ''}` : ''}\nclick to decide`}
      >
        <span className="glyph" aria-label="waiting for approval">
          ⚠
        </span>
        <span className="cmd-cell">
          <code className="cmd">{a.command}</code>
          <span className="approval-mark waiting">
            ⚠<span className="mark-words"> waiting for approval</span>
          </span>
        </span>
        <span className="exit">…</span>
        <span className="dur">{clock(now - a.createdAt)}</span>
        <span className="cat" title={a.rule ? `rule ${a.rule}` : undefined}>
          {a.rule ?? 'escalated'}
        </span>
        <span className="tok" title={`denied by itself at ${absolute(a.expiresAt)} if nobody decides`}>
          {a.expiresAt > now ? `denied in ${clock(a.expiresAt - now)}` : 'expiring'}
        </span>
        <span className="red" />
      </button>
      {grammarSlot && <span className="row-action-slot" />}
    </li>
  );
}

/** One command; memoised: a burst of commands re-renders the rows that changed, not the whole list. */
const Row = memo(function Row({ c, held, shown, now, sessionId, operator, onGrammar }: { c: CommandInfo; held?: boolean; shown: boolean; now: number; sessionId: string; operator?: string; onGrammar?: (spoolId: string) => void }) {
  const g = held ? { glyph: '⇄', word: 'handed off to an operator', tone: 'attn' } : commandGlyph(c);
  const stopped = neverRan(c);
  const save = c.tokensRaw !== undefined && c.tokensShown !== undefined ? saving(c.tokensRaw, c.tokensShown) : undefined;
  const badge = c.approval ? approvalBadge(c.approval, operator) : undefined;
  const rule = c.approval?.rule;
  return (
    <li data-approval-outcome={c.approval?.outcome} data-audit-seq={c.audit?.seq}>
      <button
        className={`row tone-${g.tone}${shown ? ' selected' : ''}${stopped && c.approval?.outcome !== 'host-asked' ? ' never-ran' : ''}`}
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
          c.audit ? `from the audit log (record ${c.audit.seq}): ${c.audit.consoleOpen ? "mish's hook decided it on its own, without asking the console" : 'no console was open when it happened'}` : '',
        ]
          .filter(Boolean)
          .join('\n')}
      >
        <span className="glyph" aria-label={g.word}>{g.glyph}</span>
        <span className="cmd-cell">
          <code className="cmd" data-ran={c.asked ? c.command : undefined}>{shownCommand(c)}</code>
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
            ? c.approval?.outcome === 'host-asked'
              ? 'not via mish'
              : 'never ran'
            : c.tokensRaw !== undefined
              ? c.tokensShown === undefined && c.audit
                ? `${c.tokensApprox ? '≈' : ''}${int(c.tokensRaw)} tok raw`
                : `${c.tokensApprox ? '≈' : ''}${int(c.tokensRaw)} → ${int(c.tokensShown ?? 0)} tok`
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

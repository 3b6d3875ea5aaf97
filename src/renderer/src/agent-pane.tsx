/**
 * What the agent saw for the selected command: the exact reply text (or, while it runs, the
 * hazard lines found so far), with the figures. A fold marker `[... N lines omitted (lines A-B) …]`
 * is a button that shows those raw lines in the raw pane.
 */
import type { ReactNode } from 'react';
import type { CommandInfo } from '../../shared/contract.js';
import { bytes, int, reduction } from './format.js';

const FOLD = /\[\.\.\. [\d,]+ lines? omitted \(lines (\d+)-(\d+)\)[^\]]*\]/g;

export function AgentPane({ command, onJump }: { command: CommandInfo | undefined; onJump: (from: number, to: number) => void }) {
  if (!command) return <section className="agent-pane" aria-label="what the agent saw"><p className="empty">no command selected</p></section>;
  const red = command.tokensRaw !== undefined && command.tokensShown !== undefined ? reduction(command.tokensRaw, command.tokensShown) : undefined;
  const text = command.agentSaw;
  return (
    <section className="agent-pane" aria-label="what the agent saw" data-command-id={command.id}>
      <header className="pane-head">
        <span className="pane-title">Agent saw</span>
        <span className="figures" data-figures>
          {command.state !== 'done' && command.rawBytes === 0 ? 'running' : `${int(command.rawLines)} lines · ${bytes(command.rawBytes)} raw`} →{' '}
          {command.shownLines !== undefined ? `${int(command.shownLines)} lines shown` : '…'}
          {command.tokensRaw !== undefined && (
            <>
              {' '}· <b>{command.tokensApprox ? '≈' : ''}{int(command.tokensRaw)} → {int(command.tokensShown ?? 0)} tok</b> {red && <b className={red.startsWith('+') ? 'red grew' : 'red'}>{red}</b>}
            </>
          )}
        </span>
        {!command.exact && command.state !== 'done' && <span className="note">(so far)</span>}
      </header>
      <pre className="agent-text" data-exact={command.exact ? 'true' : 'false'}>
        {text === undefined ? <span className="empty">{command.state === 'done' ? 'no reply recorded for this command' : 'nothing sent to the agent yet'}</span> : withFoldLinks(text, onJump)}
      </pre>
    </section>
  );
}

function withFoldLinks(text: string, onJump: (from: number, to: number) => void) {
  const out: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(FOLD)) {
    out.push(text.slice(last, m.index));
    const from = Number(m[1]);
    const to = Number(m[2]);
    out.push(
      <button key={m.index} className="fold" onClick={() => onJump(from, to)} title={`show raw lines ${from}-${to}`}>
        {m[0]}
      </button>,
    );
    last = m.index! + m[0].length;
  }
  out.push(text.slice(last));
  return out;
}

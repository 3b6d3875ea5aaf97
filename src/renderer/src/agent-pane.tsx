/**
 * What the agent saw for the selected command: the exact reply text (or, while it runs, the
 * hazard lines found so far), with the figures. A fold marker `[... N lines omitted (lines A-B) …]`
 * is a button that shows those raw lines in the raw pane.
 */
import type { ReactNode } from 'react';
import type { CommandInfo } from '../../shared/contract.js';
import { bytes, int, plural, saving } from './format.js';
import { approvalBadge, approvalSentence, neverRan } from './approval-mark.js';
import { useConsole } from './store.js';

/** A fold marker of the condenser: `[... 2,998 similar lines ...]`, `[... 40 lines omitted (lines 5-44): …]`. */
const FOLD_LINE = /^\s*\[\.\.\. [\d,]+ [^\]]*\blines?\b[^\]]*\]\s*$/;
const FOLD_RANGE = /\(lines (\d+)-(\d+)\)/;

/** Where a fold marker points: its explicit line range, or the lines between its neighbours. */
export type FoldJump = { from: number; to: number } | { after: string; before?: string };

export function AgentPane({ command, onJump, pin }: { command: CommandInfo | undefined; onJump: (jump: FoldJump) => void; pin?: ReactNode }) {
  const operator = useConsole((s) => s.operator);
  if (!command) return <section className="agent-pane" aria-label="what the agent saw"><p className="empty">no command selected</p></section>;
  const save = command.tokensRaw !== undefined && command.tokensShown !== undefined ? saving(command.tokensRaw, command.tokensShown) : undefined;
  const text = command.agentSaw;
  const stopped = neverRan(command);
  return (
    <section className="agent-pane" aria-label="what the agent saw" data-command-id={command.id}>
      <header className="pane-head">
        <span className="pane-title">Agent saw</span>
        {pin}
        <span className="figures" data-figures>
          {(command.state === 'done' && !stopped) || command.rawBytes > 0 ? `${plural(command.rawLines, 'line')} · ${bytes(command.rawBytes)} raw → ` : ''}
          {command.shownLines !== undefined ? `${plural(command.shownLines, 'line')} shown` : command.state === 'done' ? '' : 'nothing shown yet'}
          {command.tokensRaw !== undefined && (
            <>
              {' '}· <b>{command.tokensApprox ? '≈' : ''}{int(command.tokensRaw)} → {int(command.tokensShown ?? 0)} tok</b>{' '}
              {save && (
                <b className={`red ${save.tone}`} title={save.title}>
                  {save.text}
                </b>
              )}
            </>
          )}
        </span>
        {!command.exact && command.state !== 'done' && <span className="note">(so far)</span>}
      </header>
      {command.approval && (
        <div className={`decision ${stopped ? 'denied' : 'ok'}`} data-decision={command.approval.outcome} role="note">
          <b>{approvalBadge(command.approval, operator).text.split(' · ')[0]}</b> — {approvalSentence(command.approval, operator)}
          {command.approval.rule && (
            <div className="decision-rule">
              rule <code>{command.approval.rule}</code>
              {command.approval.reason ? `: ${command.approval.reason}` : ''} · {command.approval.outcome === 'no-operator' || command.approval.outcome === 'forbidden' || command.approval.outcome === 'host-asked' ? 'refusal' : 'approval'} <code>{command.approval.id}</code>
            </div>
          )}
          {command.approval.original && (
            <div className="decision-rule">
              the agent asked: <code>{command.approval.original}</code>
            </div>
          )}
        </div>
      )}
      {command.audit && (
        <div className="from-audit" data-audit-seq={command.audit.seq} role="note">
          From the audit log (record {command.audit.seq}): {command.audit.consoleOpen ? 'mish’s hook decided this on its own, without asking the console.' : 'no console was open when this happened.'}
          {command.approval?.outcome === 'host-asked' ? ' What the hook told the host’s prompt is after the rule above.' : text === undefined ? ' The reply the agent got is not in the log; the raw pane has the run’s output from its spool.' : ''}
        </div>
      )}
      <pre className="agent-text" data-exact={command.exact ? 'true' : 'false'}>
        {text === undefined ? (
          <span className="empty">{command.approval?.outcome === 'host-asked' ? 'not run through mish: no output here (the agent’s host asked its user)' : stopped ? 'it never ran: no output' : command.audit ? 'not recorded (the run was read back from the audit log)' : command.state === 'done' ? 'no reply recorded for this command' : 'nothing sent to the agent yet'}</span>
        ) : (
          withFoldLinks(text, onJump)
        )}
      </pre>
    </section>
  );
}

function withFoldLinks(text: string, onJump: (jump: FoldJump) => void) {
  const lines = text.split('\n');
  const out: ReactNode[] = [];
  let plain: string[] = [];
  lines.forEach((line, i) => {
    if (!FOLD_LINE.test(line)) return void plain.push(line);
    out.push(plain.join('\n') + (plain.length ? '\n' : ''));
    plain = [];
    const m = FOLD_RANGE.exec(line);
    const jump: FoldJump = m ? { from: Number(m[1]), to: Number(m[2]) } : { after: lines[i - 1] ?? '', ...(lines[i + 1] !== undefined ? { before: lines[i + 1] } : {}) };
    const indent = /^\s*/.exec(line)![0];
    out.push(
      indent,
      <button key={i} className="fold" onClick={() => onJump(jump)} title="show the raw lines this stands for">
        {line.slice(indent.length)}
      </button>,
    );
    if (i < lines.length - 1) out.push('\n');
  });
  out.push(plain.join('\n'));
  return out;
}

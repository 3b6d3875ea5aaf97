/**
 * The audit viewer (issue 12.4): the audit log with filters (session, agent, decision, time),
 * each record's details, and `verify`'s verdict — a broken chain is shown at the record (line)
 * where it breaks. Reads the log on open and on Refresh (the log is the record; nothing cached).
 */
import { useEffect, useMemo, useState } from 'react';
import type { AuditLine, ConsoleBridge, RequestResult } from '../../shared/contract.js';
import { absolute, plural } from './format.js';
import { recordContexts, who, type RecordContext } from './audit-context.js';

type Audit = RequestResult<'audit:read'>;

const str = (r: Record<string, unknown> | undefined, k: string): string => {
  const v = r?.[k];
  return v === undefined || v === null ? '' : String(v);
};

export function AuditViewer({ bridge, onClose }: { bridge: ConsoleBridge; onClose: () => void }) {
  const [audit, setAudit] = useState<Audit>();
  const [error, setError] = useState<string>();
  const [session, setSession] = useState('');
  const [agent, setAgent] = useState('');
  const [decision, setDecision] = useState('');
  const [since, setSince] = useState('');
  const [picked, setPicked] = useState<number>();

  const load = () =>
    bridge.readAudit({}).then(
      (a) => {
        setAudit(a);
        setError(undefined);
      },
      (e: Error) => setError(e.message),
    );
  useEffect(() => void load(), []); // eslint-disable-line react-hooks/exhaustive-deps

  const problems = useMemo(() => {
    const m = new Map<number, string[]>();
    for (const p of audit?.verify.problems ?? []) m.set(p.line, [...(m.get(p.line) ?? []), p.why]);
    return m;
  }, [audit]);
  const options = useMemo(() => {
    const sessions = new Set<string>();
    const decisions = new Set<string>();
    for (const l of audit?.lines ?? []) {
      if (str(l.record, 'session')) sessions.add(str(l.record, 'session'));
      if (str(l.record, 'decision')) decisions.add(str(l.record, 'decision'));
    }
    return { sessions: [...sessions].sort(), decisions: [...decisions].sort() };
  }, [audit]);
  // A handoff's attached / returned / ended records name only its id: their session is its request's.
  const contexts = useMemo(() => recordContexts(audit?.lines ?? []), [audit]);
  const sinceMs = since ? Date.parse(since) : NaN;
  const shown = (audit?.lines ?? []).filter((l) => {
    // A line that breaks the chain is always shown: filters never hide tampering.
    if (problems.has(l.line)) return true;
    const r = l.record;
    if (!r) return true;
    if (session && contexts.get(l.line)?.session !== session) return false;
    if (decision && str(r, 'decision') !== decision) return false;
    if (agent && !str(r, 'agent').toLowerCase().includes(agent.toLowerCase())) return false;
    if (!Number.isNaN(sinceMs) && Date.parse(str(r, 'ts')) < sinceMs) return false;
    return true;
  });
  const detail = audit?.lines.find((l) => l.line === picked);
  const firstBreak = audit?.verify.problems[0];

  return (
    <div className="audit-view" role="dialog" aria-label="audit log">
      <header className="audit-head">
        <h2>Audit log</h2>
        <span className="muted file">{audit?.file}</span>
        {audit &&
          (audit.verify.ok ? (
            <span className="verify ok" data-verify="ok">
              ✔ chain intact · {plural(audit.verify.records, 'record')}
            </span>
          ) : (
            <button className="verify broken" data-verify="broken" onClick={() => firstBreak && setPicked(firstBreak.line)}>
              ✘ chain broken at line {firstBreak?.line}
              {firstBreak?.seq !== undefined ? ` (seq ${firstBreak.seq})` : ''}: {firstBreak?.why}
              {audit.verify.problems.length > 1 ? ` · ${plural(audit.verify.problems.length, 'problem')}` : ''}
            </button>
          ))}
        <button onClick={() => void load()}>Refresh</button>
        <button onClick={onClose} aria-label="close the audit log">
          ✕ <kbd>Esc</kbd>
        </button>
      </header>
      <div className="audit-filters">
        <label>
          session
          <select value={session} onChange={(e) => setSession(e.target.value)} aria-label="session filter">
            <option value="">all</option>
            {options.sessions.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          agent
          <input value={agent} onChange={(e) => setAgent(e.target.value)} placeholder="name contains…" aria-label="agent filter" />
        </label>
        <label>
          decision
          <select value={decision} onChange={(e) => setDecision(e.target.value)} aria-label="decision filter">
            <option value="">all</option>
            {options.decisions.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          since
          <input type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} aria-label="since filter" />
        </label>
        <span className="muted">
          {shown.length.toLocaleString('en-US')} of {(audit?.lines.length ?? 0).toLocaleString('en-US')} shown
          {audit && audit.firstLine > 1 ? ` (newest ${audit.lines.length.toLocaleString('en-US')} of ${plural(audit.totalLines, 'line')})` : ''}
        </span>
      </div>
      {error && <p className="error">{error}</p>}
      <div className="audit-body">
        <ol className="audit-rows" aria-label="audit records">
          {shown.map((l) => (
            <AuditRow key={l.line} l={l} context={contexts.get(l.line)} problems={problems.get(l.line)} picked={l.line === picked} onPick={() => setPicked(l.line)} />
          ))}
          {audit && shown.length === 0 && <li className="empty">no records{audit.lines.length ? ' match the filters' : ' yet'}</li>}
        </ol>
        <aside className="audit-detail" aria-label="record details">
          {detail ? (
            <>
              <h3>
                line {detail.line}
                {detail.record ? ` · seq ${str(detail.record, 'seq')}` : ''}
              </h3>
              {problems.get(detail.line)?.map((w) => (
                <p key={w} className="error">
                  ✘ {w}
                </p>
              ))}
              <pre>{detail.record ? JSON.stringify(detail.record, null, 2) : detail.text}</pre>
            </>
          ) : (
            <p className="empty">select a record</p>
          )}
        </aside>
      </div>
    </div>
  );
}

function AuditRow({ l, context, problems, picked, onPick }: { l: AuditLine; context?: RecordContext; problems?: string[]; picked: boolean; onPick: () => void }) {
  const r = l.record;
  const ts = str(r, 'ts');
  return (
    <li>
      <button className={`audit-row${problems ? ' broken' : ''}${picked ? ' picked' : ''}`} onClick={onPick} data-line={l.line} data-broken={problems ? 'true' : undefined}>
        <span className="mark" aria-label={problems ? 'breaks the chain' : 'chained'}>
          {problems ? '✘' : '·'}
        </span>
        <span className="line">{l.line}</span>
        <span className="ts" title={ts}>
          {ts ? absolute(Date.parse(ts)) : ''}
        </span>
        <span className="kind">{str(r, 'kind') || 'unreadable'}</span>
        <span className="by" title={who(r)}>
          {who(r)}
        </span>
        {/* Not `.decision`: that is the agent pane's decision box (its padding and rule cut this cell off). */}
        <span className="dec" title={str(r, 'decision')}>
          {str(r, 'decision')}
        </span>
        <span className={`sess${context?.inherited ? ' inherited' : ''}`} title={context?.inherited ? `the session of ${str(r, 'id')}` : undefined}>
          {context?.session ?? ''}
        </span>
        <code className={`cmd${context?.inherited && !str(r, 'command') ? ' inherited' : ''}`}>{str(r, 'command') || (context?.inherited ? context.command : '') || str(r, 'reason') || l.text}</code>
        {problems && <span className="why">{problems.join('; ')}</span>}
      </button>
    </li>
  );
}

/**
 * Bulk decisions (issue 24): pick several pending approvals — one by one, or all / all from an
 * agent / all under a rule — and approve or deny them together after a confirmation that names
 * how many and which rules. Each is decided on its own server as its own audit record, by this
 * console's operator (approval:decide-many).
 */
import { useState } from 'react';
import type { ConsoleBridge, PendingApproval } from '../../shared/contract.js';
import { confirmation, quickPicks } from './bulk.js';
import { approvalKey, useConsole } from './store.js';

/** The picks and the two bulk buttons, above the pending approvals. */
export function BulkBar({ bridge }: { bridge: ConsoleBridge }) {
  const approvals = useConsole((s) => s.approvals);
  const servers = useConsole((s) => s.servers);
  const picked = useConsole((s) => s.picked);
  const pick = useConsole((s) => s.pick);
  const [asking, setAsking] = useState<'approve' | 'deny'>();
  const [outcome, setOutcome] = useState<string>();
  if (approvals.length === 0 && !outcome) return null;
  const chosen = approvals.filter((a) => picked[approvalKey(a)]);
  const q = quickPicks(approvals, servers);
  const allPicked = chosen.length === approvals.length && approvals.length > 0;
  const chip = (label: string, keys: string[], what: string) => {
    const on = keys.length > 0 && keys.every((k) => picked[k]);
    return (
      <button key={`${what}:${label}`} className={`chip${on ? ' on' : ''}`} aria-pressed={on} data-pick={`${what}:${label}`} onClick={() => pick(keys, !on)} title={`${on ? 'unpick' : 'pick'} ${keys.length} ${what === 'all' ? '' : `from ${what} `}${label}`}>
        {label} <span className="n">{keys.length}</span>
      </button>
    );
  };
  return (
    <div className="bulk" aria-label="bulk decisions">
      {approvals.length > 1 && (
        <div className="picks">
          <span className="muted">pick:</span>
          {chip(allPicked ? 'none' : 'all', q.all.keys, 'all')}
          {q.agents.length > 1 && <span className="muted">agent:</span>}
          {q.agents.length > 1 && q.agents.map((p) => chip(p.label, p.keys, 'agent'))}
          <span className="muted">rule:</span>
          {q.rules.map((p) => chip(p.label, p.keys, 'rule'))}
        </div>
      )}
      {chosen.length > 0 && (
        <div className="bulk-actions">
          <button className="ok" data-bulk="approve" onClick={() => setAsking('approve')}>
            Approve {chosen.length}…
          </button>
          <button className="danger" data-bulk="deny" onClick={() => setAsking('deny')}>
            Deny {chosen.length}…
          </button>
        </div>
      )}
      {outcome && (
        <p className="bulk-outcome" role="status">
          {outcome}
        </p>
      )}
      {asking && chosen.length > 0 && (
        <BulkConfirm
          bridge={bridge}
          decision={asking}
          picked={chosen}
          onDone={(text) => {
            setAsking(undefined);
            if (text !== undefined) setOutcome(text);
          }}
        />
      )}
    </div>
  );
}

function BulkConfirm({ bridge, decision, picked, onDone }: { bridge: ConsoleBridge; decision: 'approve' | 'deny'; picked: PendingApproval[]; onDone: (outcome?: string) => void }) {
  const servers = useConsole((s) => s.servers);
  const pick = useConsole((s) => s.pick);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const c = confirmation(decision, picked, servers);
  const go = async () => {
    setBusy(true);
    try {
      const r = await bridge.decideApprovals({ decision, items: picked.map((a) => ({ serverId: a.serverId, id: a.id })) });
      pick(picked.map(approvalKey), false);
      const done = `${r.decided.length} ${decision === 'approve' ? 'approved' : 'denied'}`;
      onDone(r.failed.length ? `${done}; ${r.failed.length} not decided: ${r.failed.map((f) => `${f.id} (${f.error})`).join('; ')}` : done);
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };
  return (
    <div className="overlay bulk-overlay" role="dialog" aria-modal="true" aria-label={c.title} onClick={() => !busy && onDone()}>
      <div className="dialog bulk-confirm" onClick={(e) => e.stopPropagation()} data-bulk-confirm={decision}>
        <h2>{c.title}</h2>
        <p className="bulk-rules">{c.rules}</p>
        <p className="muted">{c.agents}</p>
        <ul className="bulk-list">
          {picked.map((a) => (
            <li key={approvalKey(a)}>
              <code>{a.command}</code> <span className="muted">{a.session}</span>
            </li>
          ))}
        </ul>
        <p className="muted">
          Each is recorded in the audit log as its own decision by you; the agents{' '}
          {decision === 'approve' ? 'see their commands run, marked approved by you' : 'are told the operator denied them; nothing runs'}.
        </p>
        <div className="bulk-actions">
          <button className={decision === 'approve' ? 'ok' : 'danger'} disabled={busy} data-bulk-go={decision} onClick={() => void go()}>
            {decision === 'approve' ? 'Approve' : 'Deny'} {picked.length}
          </button>
          <button disabled={busy} onClick={() => onDone()}>
            Cancel
          </button>
        </div>
        {error && <p className="error">{error}</p>}
      </div>
    </div>
  );
}

/** The pick box of one approval (its label is the whole row's height: a 44 px target on a phone). */
export function PickBox({ approval }: { approval: PendingApproval }) {
  const key = approvalKey(approval);
  const on = useConsole((s) => !!s.picked[key]);
  const pick = useConsole((s) => s.pick);
  return (
    <label className="pickbox" title="pick for a bulk decision">
      <input type="checkbox" checked={on} data-pick-approval={key} aria-label={`pick ${approval.command}`} onChange={(e) => pick([key], e.target.checked)} />
    </label>
  );
}

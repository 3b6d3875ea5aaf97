/**
 * The phone-sized console (issue 24): below PHONE_MAX_WIDTH the page is one column, approvals
 * first. Three views, switched by a bottom tab bar: what needs you (each approval as a card with
 * the risky part highlighted, the decisions and what the agent receives for each; secret
 * prompts and waiting sessions), the agents' sessions, and the selected session (app.tsx's
 * session view, stacked). Touch targets are at least 44 px (styles.css, the phone block).
 */
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { ConsoleBridge, PendingApproval } from '../../shared/contract.js';
import { agentSees, DECISION_ARM_MS, highlightRisk } from './approval-dialog.js';
import { BulkBar, PickBox } from './bulk-decisions.js';
import { clock, serverLabel, sessionLabel, shortPath } from './format.js';
import { needsYou, useConsole, type MobileView } from './store.js';
import { useNow } from './use-now.js';

/** Widths up to this get the phone layout (a 390 px phone, a narrow split window; tablets keep the desktop one). */
export const PHONE_MAX_WIDTH = 640;
const PHONE_QUERY = `(max-width: ${PHONE_MAX_WIDTH}px)`;

/** True while the window is phone-sized (follows rotation and resizing). */
export function useIsPhone(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const mq = window.matchMedia(PHONE_QUERY);
      mq.addEventListener('change', onChange);
      return () => mq.removeEventListener('change', onChange);
    },
    () => window.matchMedia(PHONE_QUERY).matches,
  );
}

/** The bottom tab bar: needs you (with its count), sessions, the selected session. */
export function PhoneTabs() {
  const view = useConsole((s) => s.mobileView);
  const setView = useConsole((s) => s.setMobileView);
  const count = useConsole((s) => needsYou(s).count + s.handoffs.filter((h) => h.state === 'pending').length);
  const selected = useConsole((s) => s.sessions.find((x) => x.id === s.selectedId));
  const tab = (v: MobileView, label: string) => (
    <button role="tab" aria-selected={view === v} data-phone-tab={v} onClick={() => setView(v)}>
      {label}
    </button>
  );
  return (
    <nav className="phone-tabs" role="tablist" aria-label="views">
      {tab('needs', count ? `⚠ ${count} need${count === 1 ? 's' : ''} you` : 'Needs you')}
      {tab('sessions', 'Sessions')}
      {selected && tab('session', selected.name)}
    </nav>
  );
}

/** What needs the operator, approvals first: one card each, decided where it is. */
export function NeedsYou({ bridge }: { bridge: ConsoleBridge }) {
  const approvals = useConsole((s) => s.approvals);
  const sessions = useConsole((s) => s.sessions);
  const allHandoffs = useConsole((s) => s.handoffs);
  // Derived here, not in the selectors: a selector returning a new array each time re-renders forever.
  const waiting = useMemo(() => needsYou({ sessions, approvals }).sessions, [sessions, approvals]);
  const handoffs = useMemo(() => allHandoffs.filter((h) => h.state === 'pending'), [allHandoffs]);
  const select = useConsole((s) => s.select);
  const setView = useConsole((s) => s.setMobileView);
  const open = (sessionId?: string) => {
    if (!sessionId) return;
    select(sessionId);
    setView('session');
  };
  const nothing = approvals.length + waiting.length + handoffs.length === 0;
  return (
    <section className="needs-you" aria-label="needs you">
      {nothing && <p className="empty calm">Nothing needs you. New approvals and prompts appear here.</p>}
      {approvals.length > 1 && <BulkBar bridge={bridge} />}
      {approvals.map((a) => (
        <ApprovalCard key={`${a.serverId}/${a.id}`} bridge={bridge} approval={a} many={approvals.length > 1} onOpen={() => open(a.sessionId)} />
      ))}
      {handoffs.map((h) => (
        <article key={h.id} className="card handoff-card" data-handoff={h.id}>
          <h3>⌨ {h.why === 'secret-prompt' ? 'Secret prompt' : 'Handed off'}</h3>
          <pre className="card-cmd">{h.command}</pre>
          <p className="muted">{h.prompt}</p>
          <button className="big" onClick={() => open(h.sessionId)}>
            Open the terminal
          </button>
        </article>
      ))}
      {waiting.map((s) => (
        <article key={s.id} className="card waiting-card" data-pending={s.id}>
          <h3>⌨ {s.waiting?.secret ? 'Secret prompt' : 'Waiting for input'}</h3>
          <pre className="card-cmd">{s.command ?? ''}</pre>
          <p className="muted">
            {sessionLabel(s.name)} · {s.waiting?.prompt || 'reads its input'}
          </p>
          <button className="big" onClick={() => open(s.id)}>
            Open {sessionLabel(s.name)}
          </button>
        </article>
      ))}
    </section>
  );
}

function ApprovalCard({ bridge, approval, many, onOpen }: { bridge: ConsoleBridge; approval: PendingApproval; many: boolean; onOpen: () => void }) {
  const agent = useConsole((s) => serverLabel(s.servers.find((x) => x.id === approval.serverId)));
  const hooked = useConsole((s) => !!s.servers.find((x) => x.id === approval.serverId)?.conversation);
  const you = useConsole((s) => s.operator) ?? 'console';
  const openApproval = useConsole((s) => s.openApproval);
  const now = useNow(1000);
  const secsLeft = Math.max(0, Math.round((approval.expiresAt - now) / 1000));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  // A card that just appeared under the thumb is not decided by a tap meant for what was there (approval-dialog.tsx).
  const [armed, setArmed] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setArmed(true), DECISION_ARM_MS);
    return () => clearTimeout(t);
  }, []);
  const decide = async (decision: 'approve' | 'deny') => {
    if (busy || !armed) return;
    setBusy(true);
    try {
      await bridge.decideApproval({ serverId: approval.serverId, id: approval.id, decision });
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };
  return (
    <article className="card approval-card" data-approval-card={approval.id} data-armed={armed ? 'true' : undefined}>
      <header className="card-head">
        {many && <PickBox approval={approval} />}
        <h3>⚠ Approve?</h3>
        <span className="muted">
          {agent} · {approval.session}
        </span>
      </header>
      <pre className="card-cmd" data-testid="approval-command">
        {highlightRisk(approval.command, approval.dangers)}
      </pre>
      <p className="card-why">
        <code>{approval.rule ?? approval.dangers.map((d) => d.id).join(', ')}</code> — {approval.reason ?? approval.dangers.map((d) => d.description).join('; ')}
      </p>
      <p className="muted">
        in <code>{shortPath(approval.cwd)}</code> · denied by itself in {clock(secsLeft * 1000)}
      </p>
      <div className="card-decisions">
        <div className="decision">
          <button className="big ok" disabled={busy || !armed} data-decision="approve" onClick={() => void decide('approve')}>
            Approve
          </button>
          <p className="sees">{agentSees(approval, 'approve', secsLeft, you, hooked)}</p>
        </div>
        <div className="decision">
          <button className="big danger" disabled={busy || !armed} data-decision="deny" onClick={() => void decide('deny')}>
            Deny
          </button>
          <p className="sees">{agentSees(approval, 'deny', secsLeft, you, hooked)}</p>
        </div>
      </div>
      <div className="card-more">
        <button className="big quiet" onClick={() => openApproval(approval.id)}>
          Edit / always…
        </button>
        <button className="big quiet" onClick={onOpen}>
          Session
        </button>
      </div>
      {error && <p className="error">{error}</p>}
    </article>
  );
}

/**
 * The approval dialog (CONSOLE.md, issue 12.1): an agent's dangerous command waiting for the
 * operator, with the risky part highlighted, the rule and reason, cwd, session and agent, and
 * what the agent will receive for each outcome. A approve, D deny, E edit then approve,
 * S always for this session, Esc later (the call keeps waiting until it expires).
 * The agent's call resumes the moment the server has the decision.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { ConsoleBridge, PendingApproval } from '../../shared/contract.js';
import { clock, serverLabel } from './format.js';
import { riskSpans } from './risk-spans.js';
import { useConsole } from './store.js';
import { typesIntoField } from './typing.js';
import { useNow } from './use-now.js';

/**
 * The decisions (keys and buttons) wake this long after the dialog appears: it can open by itself
 * (its session is selected) while the operator is pressing keys meant for something else, and an
 * `a` in flight must not approve a dangerous command. Browsers delay the buttons of their security
 * prompts for the same reason (Firefox: security.dialog_enable_delay). Esc (later) works at once.
 */
export const DECISION_ARM_MS = 600;

export type Decision = 'approve' | 'deny' | 'edit' | 'always';

/** The command with every matched danger's text marked (the risky part: risk-spans.ts says where). */
export function highlightRisk(command: string, dangers: PendingApproval['dangers']): ReactNode[] {
  const marks = riskSpans(command, dangers);
  const out: ReactNode[] = [];
  let at = 0;
  for (const [from, to] of marks) {
    if (to <= at) continue;
    const start = Math.max(from, at);
    if (start > at) out.push(command.slice(at, start));
    out.push(
      <mark key={start} className="risk">
        {command.slice(start, to)}
      </mark>,
    );
    at = to;
  }
  if (at < command.length) out.push(command.slice(at));
  return out;
}

/**
 * What the agent's tool call returns for each outcome (src/main/mcp/escalation.ts), or for a
 * hooked run of the agent's own shell tool what its host is told (src/main/hooks/hook-decision.ts).
 */
export function agentSees(a: PendingApproval, d: Decision | 'later', secsLeft: number, you: string, hooked = false): string {
  const blocked = `blocked by rule ${a.rule ?? a.dangers.map((x) => x.id).join(', ')}: ${a.reason ?? a.dangers.map((x) => x.description).join('; ')}`;
  if (hooked) return hookedAgentSees(a, d, secsLeft, you);
  switch (d) {
    case 'approve':
      return `the command runs; its reply starts “[approved by operator ${you} (${a.id})]” then the condensed output`;
    case 'always':
      return `the command runs; “[approved by operator ${you} (${a.id}; rule ${a.rule ?? '…'} is allowed for the rest of this session)]”, never stored beyond this session`;
    case 'edit':
      return `your command runs instead (checked again; still dangerous → asked again); “[operator ${you} edited the command (${a.id}); what ran: …]”`;
    case 'deny':
      return `${blocked} — denied by the operator (${you}, approval ${a.id}); nothing was run. Next: do not retry it; ask the user what they want instead.`;
    case 'later':
      return `the call keeps waiting (progress “waiting for an operator”); denied by itself in ${clock(secsLeft * 1000)}`;
  }
}

/** The hook's answers to the agent's host (operatorRefusal and decideHook in src/main/hooks/hook-decision.ts). */
function hookedAgentSees(a: PendingApproval, d: Decision | 'later', secsLeft: number, you: string): string {
  const rule = `rule ${a.rule ?? a.dangers.map((x) => x.id).join(', ')}: ${a.reason ?? a.dangers.map((x) => x.description).join('; ')}`;
  switch (d) {
    case 'approve':
    case 'always':
      return `the command runs (through mish where the agent's host lets mish rewrite it); the host is told “mish: approved by operator ${you} (${a.id}); ${rule}”`;
    case 'edit':
      return 'your command runs instead (checked again: forbidden → denied); where the host cannot rewrite, the agent is denied and told to run yours';
    case 'deny':
      return `“mish: denied by operator ${you} (${a.id}); ${rule}. Nothing was run. Do not retry it; ask the user what they want instead.”`;
    case 'later':
      return `the agent's shell tool keeps waiting; denied by itself in ${clock(secsLeft * 1000)}`;
  }
}

export function ApprovalDialog({ bridge, approval, agent, hooked = false }: { bridge: ConsoleBridge; approval: PendingApproval; agent: string; hooked?: boolean }) {
  const putOff = useConsole((s) => s.putOff);
  const you = useConsole((s) => s.operator) ?? 'console';
  const [editing, setEditing] = useState(false);
  const [edited, setEdited] = useState(approval.command);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const now = useNow(1000);
  const secsLeft = Math.max(0, Math.round((approval.expiresAt - now) / 1000));
  const box = useRef<HTMLDivElement>(null);
  const editBox = useRef<HTMLTextAreaElement>(null);
  const [armed, setArmed] = useState(false);
  useEffect(() => {
    setArmed(false);
    const t = setTimeout(() => setArmed(true), DECISION_ARM_MS);
    return () => clearTimeout(t);
  }, [approval.id]);

  const decide = async (decision: Decision) => {
    if (busy || !armed) return;
    if (decision === 'edit' && !editing) {
      setEditing(true);
      requestAnimationFrame(() => editBox.current?.focus());
      return;
    }
    setBusy(true);
    try {
      await bridge.decideApproval({ serverId: approval.serverId, id: approval.id, decision, ...(decision === 'edit' ? { command: edited } : {}) });
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };

  // The dialog takes the focus when it opens (the operator asked for it or selected its session),
  // unless the operator is typing (a field, a terminal they hold): focus never jumps mid-typing
  // (CONSOLE.md), and keys meant there must not land on the dialog.
  useEffect(() => {
    if (!typesIntoField(document.activeElement)) box.current?.focus();
  }, [approval.id]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (typesIntoField(e.target as Element | null)) {
        if (e.key === 'Escape' && editing) setEditing(false);
        return;
      }
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const k = e.key.toLowerCase();
      // A hooked run has no "always": each call of the agent's shell tool is a hook process of its own.
      const map: Record<string, Decision> = hooked ? { a: 'approve', d: 'deny', e: 'edit' } : { a: 'approve', d: 'deny', e: 'edit', s: 'always' };
      if (map[k]) {
        if (!armed) return; // not yet: the key was meant for something else (DECISION_ARM_MS)
        e.preventDefault();
        e.stopPropagation();
        void decide(map[k]);
      } else if (e.key === 'Escape') {
        e.stopPropagation();
        putOff(approval.id);
      }
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  });

  const row = (d: Decision | 'later', key: string, label: string, cls = '') => (
    <tr className={`outcome ${cls}`}>
      <td>
        {d === 'later' ? (
          <button onClick={() => putOff(approval.id)}>
            {label} <kbd>{key}</kbd>
          </button>
        ) : (
          <button className={cls} disabled={busy || !armed} onClick={() => void decide(d)} data-decision={d}>
            {label} <kbd>{key}</kbd>
          </button>
        )}
      </td>
      <td className="sees">{agentSees(approval, d, secsLeft, you, hooked)}</td>
    </tr>
  );

  return (
    <div className="overlay approval-overlay" role="dialog" aria-modal="true" aria-label={`approval ${approval.id}`} data-approval-id={approval.id}>
      <div className="dialog approval" ref={box} tabIndex={-1} data-armed={armed ? 'true' : undefined}>
        <h2>
          ⚠ Approve this command? <span className="muted">{approval.id}</span>
        </h2>
        {approval.editOf && (
          <p className="edit-of" data-edit-of={approval.editOf.id}>
            {approval.editOf.by === you ? 'Your' : `${approval.editOf.by}'s`} edit of {approval.editOf.id}: the policy still asks for it. Approve it to run it as written here.
          </p>
        )}
        <pre className="approval-cmd" data-testid="approval-command">
          {highlightRisk(approval.command, approval.dangers)}
        </pre>
        <dl className="facts">
          <dt>rule</dt>
          <dd>
            <code>{approval.rule ?? approval.dangers.map((d) => d.id).join(', ')}</code>
            {approval.decision ? ` (${approval.decision})` : ''}
          </dd>
          <dt>why</dt>
          <dd>{approval.reason ?? approval.dangers.map((d) => d.description).join('; ')}</dd>
          <dt>cwd</dt>
          <dd>
            <code>{approval.cwd}</code>
          </dd>
          <dt>session</dt>
          <dd>
            {approval.session} · {hooked ? "the agent's own shell tool (hooked)" : approval.tool}
          </dd>
          <dt>agent</dt>
          <dd>{agent}</dd>
          <dt>expires</dt>
          <dd>denied by itself in {clock(secsLeft * 1000)} if nobody decides</dd>
        </dl>
        {editing && (
          <div className="edit">
            <label>
              Command to run instead (Enter approves it, Esc cancels the edit)
              <textarea
                ref={editBox}
                value={edited}
                rows={2}
                onChange={(e) => setEdited(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && !e.shiftKey) {
                    e.preventDefault();
                    void decide('edit');
                  }
                }}
              />
            </label>
          </div>
        )}
        <table className="outcomes">
          <thead>
            <tr>
              <th>decision</th>
              <th>what the agent receives</th>
            </tr>
          </thead>
          <tbody>
            {row('approve', 'A', 'Approve', 'ok')}
            {row('deny', 'D', 'Deny', 'danger')}
            {row('edit', 'E', editing ? 'Approve edited' : 'Edit, then approve')}
            {!hooked && row('always', 'S', 'Always for this session')}
            {row('later', 'Esc', 'Later')}
          </tbody>
        </table>
        {error && <p className="error">{error}</p>}
      </div>
    </div>
  );
}

/** The dialog for the approval the operator opened, or the selected session's oldest not put off. */
export function ApprovalHost({ bridge, auto = true }: { bridge: ConsoleBridge; auto?: boolean }) {
  const approvals = useConsole((s) => s.approvals);
  const open = useConsole((s) => s.approvalOpen);
  const later = useConsole((s) => s.later);
  const selectedId = useConsole((s) => s.selectedId);
  const servers = useConsole((s) => s.servers);
  const a = approvals.find((x) => x.id === open) ?? (auto ? approvals.find((x) => x.sessionId === selectedId && !later[x.id]) : undefined);
  if (!a) return null;
  const server = servers.find((s) => s.id === a.serverId);
  return <ApprovalDialog key={a.id} bridge={bridge} approval={a} agent={serverLabel(server)} hooked={!!server?.conversation} />;
}

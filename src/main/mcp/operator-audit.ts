/**
 * Operator events (approvals, handoffs, operators coming and going) as audit records: who
 * decided, what, about which command — never what an operator typed (only how many bytes).
 */
import type { AuditEvent } from '../core/audit/types.js';
import type { OperatorAuditEvent } from '../operator/operator-host.js';

export function operatorAuditRecord(e: OperatorAuditEvent): AuditEvent {
  switch (e.type) {
    case 'operator-connected':
    case 'operator-disconnected':
      return { kind: 'session', by: 'operator', host: 'operator', decision: e.type === 'operator-connected' ? 'operator-connected' : 'operator-disconnected', detail: { operator: e.operator, role: e.role } };
    case 'approval-requested': {
      const a = e.approval;
      return { kind: 'approval', by: 'policy', host: 'mcp', decision: 'requested', id: a.id, session: a.session, command: a.command, cwd: a.cwd, rule: a.rule ?? a.dangers.map((d) => d.id).join(','), reason: a.reason ?? a.dangers.map((d) => d.description).join('; '), detail: { tool: a.tool, ...(a.decision ? { policy: a.decision } : {}) } };
    }
    case 'approval-resolved': {
      // A human decided, or nobody did (timeout, operator gone): then the policy's default, deny, stands.
      const human = e.outcome === 'approved' || e.outcome === 'denied' || e.outcome === 'edited' || e.outcome === 'always';
      return { kind: 'approval', by: human ? 'operator' : 'policy', host: 'operator', decision: e.outcome, id: e.id, session: e.session, command: e.command, detail: { ...(e.by ? { operator: e.by } : {}), ...(e.editedTo ? { editedTo: e.editedTo } : {}) } };
    }
    case 'handoff-requested': {
      const h = e.handoff;
      return { kind: 'handoff', by: 'agent', host: 'mcp', decision: 'requested', id: h.id, session: h.session, command: h.command, detail: { process: h.processId, why: h.why, prompt: h.prompt } };
    }
    default:
      return { kind: 'handoff', by: 'operator', host: 'operator', decision: e.type.replace('handoff-', ''), id: e.id, detail: { process: e.processId, ...(e.by ? { operator: e.by } : {}), ...(e.typedBytes !== undefined ? { typedBytes: e.typedBytes } : {}), ...(e.summary ? { summary: e.summary } : {}) } };
  }
}

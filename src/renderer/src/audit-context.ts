/**
 * What an audit record is about, when the record itself does not say: a handoff's later records
 * (attached, returned, ended) carry only its id, so the viewer takes the session and command
 * from the record that opened it (`requested`, same id), as an approval's decision takes them
 * from its own record. Pure: the log's lines in, a session and command per line out.
 */
import type { AuditLine } from '../../shared/contract.js';

const text = (r: Record<string, unknown> | undefined, k: string): string | undefined => {
  const v = r?.[k];
  return typeof v === 'string' && v !== '' ? v : undefined;
};

export interface RecordContext {
  session?: string;
  command?: string;
  /** True when taken from an earlier record of the same id (shown muted). */
  inherited?: boolean;
}

/** The session and command of each line, its own or its id's first record's. */
export function recordContexts(lines: readonly AuditLine[]): Map<number, RecordContext> {
  const byId = new Map<string, RecordContext>();
  const out = new Map<number, RecordContext>();
  for (const l of lines) {
    const r = l.record;
    const id = text(r, 'id');
    const session = text(r, 'session');
    const command = text(r, 'command');
    if (id && (session || command) && !byId.has(`${text(r, 'kind')}:${id}`)) byId.set(`${text(r, 'kind')}:${id}`, { ...(session ? { session } : {}), ...(command ? { command } : {}) });
    const known = id ? byId.get(`${text(r, 'kind')}:${id}`) : undefined;
    if (session || !known) out.set(l.line, { ...(session ? { session } : {}), ...(command ? { command } : {}) });
    else out.set(l.line, { ...known, ...(command ? { command } : {}), inherited: true });
  }
  return out;
}

/**
 * Who acted: agent / operator / user / policy, with the operator's name, or the agent's (its MCP
 * client or hooked host, `claude-code/2.1.3`) when the record has one — two agents' runs in one
 * log read alike otherwise.
 */
export function who(r: Record<string, unknown> | undefined): string {
  const by = text(r, 'by') ?? '';
  const d = r?.detail as Record<string, unknown> | undefined;
  const name = d && typeof d.operator === 'string' ? d.operator : by === 'agent' ? text(r, 'agent') : undefined;
  return name ? `${by} · ${name}` : by;
}

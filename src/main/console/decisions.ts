/**
 * The operator's actions on servers, as the hub relays them: approval decisions (one, or many
 * at once), and handoffs (take over, type, hand back). Each decision goes to its own server,
 * which records it in its audit log as its own decision by this console's operator name: a
 * bulk decision is N ordinary decisions, never a new kind of record.
 *
 * One job: turning a view's action into server calls and a typed result.
 */
import type { RequestParams, RequestResult } from '../../shared/contract.js';
import type { HubOperator } from './hub-types.js';
import { RequestError } from './request-error.js';

/** What the decisions need of the hub: a connected server's operator, a session's server and name. */
export interface DecisionsHub {
  /** Throws RequestError when the server is gone or takes no operator actions. */
  operatorOf(serverId: string, method: string): HubOperator;
  session(sessionId: string): { serverId: string; name: string } | undefined;
  /** Something an operator did changed what views show. */
  changed(): void;
}

export async function decideApproval(hub: DecisionsHub, p: RequestParams<'approval:decide'>): Promise<RequestResult<'approval:decide'>> {
  const op = hub.operatorOf(p.serverId, 'approval:decide');
  if (p.decision === 'edit' && !p.command?.trim()) throw new RequestError('approval:decide: edit needs the command to run instead');
  const r = await op.decide(p.id, p.decision, p.command);
  if (!r.ok) throw new RequestError(`approval:decide: ${r.error}`);
  hub.changed();
  return {};
}

/**
 * Decides several approvals the same way. Each is decided on its own (one audit record each, by
 * the same operator); one that fails (already decided, expired, its server gone) does not stop
 * the others and is reported with its reason. Servers are asked in parallel, each server's
 * approvals in the order given.
 */
export async function decideApprovals(hub: DecisionsHub, p: RequestParams<'approval:decide-many'>): Promise<RequestResult<'approval:decide-many'>> {
  const byServer = new Map<string, { serverId: string; id: string }[]>();
  for (const item of p.items) {
    const list = byServer.get(item.serverId) ?? [];
    if (!list.some((x) => x.id === item.id)) list.push(item);
    byServer.set(item.serverId, list);
  }
  const decided: { serverId: string; id: string }[] = [];
  const failed: { serverId: string; id: string; error: string }[] = [];
  await Promise.all(
    [...byServer].map(async ([serverId, items]) => {
      let op: HubOperator;
      try {
        op = hub.operatorOf(serverId, 'approval:decide-many');
      } catch (err) {
        for (const it of items) failed.push({ ...it, error: (err as Error).message });
        return;
      }
      for (const it of items) {
        const r = await op.decide(it.id, p.decision).catch((err: unknown) => ({ ok: false as const, error: String(err) }));
        if (r.ok) decided.push(it);
        else failed.push({ ...it, error: r.error });
      }
    }),
  );
  if (decided.length) hub.changed();
  return { decided, failed };
}

export async function takeHandoff(hub: DecisionsHub, p: RequestParams<'handoff:take'>): Promise<RequestResult<'handoff:take'>> {
  const s = hub.session(p.sessionId);
  if (!s) throw new RequestError(`handoff:take: no session ${p.sessionId}`);
  const r = await hub.operatorOf(s.serverId, 'handoff:take').take(p.handoffId ? { handoffId: p.handoffId } : { session: s.name });
  if (!r.ok) throw new RequestError(`handoff:take: ${r.error}`);
  hub.changed();
  return { handoffId: r.handoff.id, serverId: s.serverId, why: r.handoff.why, prompt: r.handoff.prompt };
}

/** Deliberately no logging or keeping of `data` here: it may be a password. */
export function handoffInput(hub: DecisionsHub, p: RequestParams<'handoff:input'>): RequestResult<'handoff:input'> {
  hub.operatorOf(p.serverId, 'handoff:input').input(p.handoffId, p.data);
  return {};
}

export async function returnHandoff(hub: DecisionsHub, p: RequestParams<'handoff:return'>): Promise<RequestResult<'handoff:return'>> {
  const r = await hub.operatorOf(p.serverId, 'handoff:return').giveBack(p.handoffId);
  if (!r.ok) throw new RequestError(`handoff:return: ${r.error}`);
  hub.changed();
  return { summary: r.summary };
}

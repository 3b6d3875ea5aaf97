/**
 * Bulk decisions, the part without React: which approvals a quick pick means ("all", "all from
 * this agent", "all under this rule"), and the confirmation that names how many and which rules.
 */
import type { PendingApproval, ServerInfo } from '../../shared/contract.js';
import { serverLabel } from './format.js';
import { approvalKey } from './store.js';

/** The rule an approval answers to (its policy rule, else the dangers that matched). */
export function ruleOf(a: PendingApproval): string {
  return a.rule ?? (a.dangers.map((d) => d.id).join(', ') || 'unnamed rule');
}

/** Counts by a key, most first then by name: `[[key, n], …]`. */
function tally(keys: string[]): [string, number][] {
  const m = new Map<string, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

export interface QuickPick {
  label: string;
  keys: string[];
}

/** The quick picks over the pending approvals: all, each agent's, each rule's (only those with several). */
export function quickPicks(approvals: PendingApproval[], servers: ServerInfo[]): { all: QuickPick; agents: QuickPick[]; rules: QuickPick[] } {
  const agentOf = (a: PendingApproval) => serverLabel(servers.find((s) => s.id === a.serverId)) || a.serverId;
  const group = (by: (a: PendingApproval) => string): QuickPick[] =>
    tally(approvals.map(by)).map(([label]) => ({ label, keys: approvals.filter((a) => by(a) === label).map(approvalKey) }));
  return { all: { label: 'all', keys: approvals.map(approvalKey) }, agents: group(agentOf), rules: group(ruleOf) };
}

/** "Deny 3 approvals? Rules: rm-recursive ×2, git-push-force ×1. Agents: claude-code 2.1 ×3." */
export function confirmation(decision: 'approve' | 'deny', picked: PendingApproval[], servers: ServerInfo[]): { title: string; rules: string; agents: string } {
  const n = picked.length;
  const verb = decision === 'approve' ? 'Approve' : 'Deny';
  const fmt = (t: [string, number][]) => t.map(([k, c]) => `${k} ×${c}`).join(', ');
  return {
    title: `${verb} ${n} ${n === 1 ? 'approval' : 'approvals'}?`,
    rules: `Rules: ${fmt(tally(picked.map(ruleOf)))}`,
    agents: `Agents: ${fmt(tally(picked.map((a) => serverLabel(servers.find((s) => s.id === a.serverId)) || a.serverId)))}`,
  };
}

/**
 * Lines the policy engine escalates (ask / operator, src/main/core/policy). CLI: the
 * human decides — [y]es / [n]o / [e]dit / [a]lways this session (seed 003's permission model;
 * session approvals live in memory only and never persist). Without a terminal to ask, the
 * line is refused. MCP: refused with a structured warning until the policy engine decides.
 */
import type { DangerMatch } from '../router/categorize.js';

export type DangerDecision = { kind: 'yes' } | { kind: 'no' } | { kind: 'always' } | { kind: 'edit'; command: string };

export interface DangerPrompt {
  command: string;
  dangers: DangerMatch[];
  /** The policy decision that escalated the line: ask (a human confirms) or operator (a human decides or takes over). */
  decision?: 'ask' | 'operator';
  /** The deciding rule's id and reason. */
  rule?: string;
  reason?: string;
}

/** Asks the human (the CLI host implements it on /dev/tty). */
export type ConfirmFn = (prompt: DangerPrompt) => Promise<DangerDecision>;

/** Pattern ids approved with "always" in this session. In memory only: never written to disk. */
export class SessionApprovals {
  private readonly ids = new Set<string>();
  approve(ids: Iterable<string>): void {
    for (const id of ids) this.ids.add(id);
  }
  covers(dangers: readonly DangerMatch[]): boolean {
    return dangers.length > 0 && dangers.every((d) => this.ids.has(d.id));
  }
}

/** The warning shown before asking, and in refusals. */
export function dangerWarning(command: string, dangers: readonly DangerMatch[]): string {
  const lines = [`⚠ dangerous: ${command}`];
  for (const d of dangers) lines.push(`  - ${d.description} [${d.id}${d.decision && d.decision !== 'ask' ? `: ${d.decision}` : ''}]: ${d.text}`);
  return lines.join('\n');
}

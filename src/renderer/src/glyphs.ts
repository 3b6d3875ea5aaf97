/** State glyph + word: state is never shown by colour alone (CONSOLE.md). */
import type { CommandInfo, SessionInfo } from '../../shared/contract.js';

export const SESSION_STATE: Record<SessionInfo['state'], { glyph: string; word: string }> = {
  starting: { glyph: '◌', word: 'starting' },
  idle: { glyph: '○', word: 'idle' },
  running: { glyph: '●', word: 'running' },
  waiting: { glyph: '⌨', word: 'waiting for input' },
  'needs-approval': { glyph: '⚠', word: 'needs approval' },
  'handed-off': { glyph: '⇄', word: 'handed off' },
  exited: { glyph: '✕', word: 'exited' },
  gone: { glyph: '⊘', word: 'gone' },
};

/** Attention first, then live work, then quiet, then ended. */
export const STATE_ORDER: Record<SessionInfo['state'], number> = { 'needs-approval': 0, waiting: 0, 'handed-off': 1, running: 2, starting: 3, idle: 4, exited: 5, gone: 6 };

/** The word for an escalated command that never ran, by how its approval ended. */
const NEVER_RAN: Partial<Record<NonNullable<CommandInfo['approval']>['outcome'], string>> = {
  denied: 'denied by operator',
  timeout: 'denied: no decision in time',
  'operator-gone': 'denied: operator gone',
  cancelled: 'cancelled while waiting for approval',
  'no-operator': 'refused: no operator attached',
  forbidden: 'refused by policy',
  'host-asked': "left to the agent's own prompt (no operator)",
};

export function commandGlyph(c: CommandInfo): { glyph: string; word: string; tone: string } {
  if (c.state === 'waiting') return { glyph: '⌨', word: 'waiting for input', tone: 'attn' };
  if (c.state === 'running') return { glyph: '▶', word: 'running', tone: 'run' };
  if (c.approval?.outcome === 'no-operator' || c.approval?.outcome === 'forbidden') return { glyph: '⊘', word: NEVER_RAN[c.approval.outcome]!, tone: 'warn' };
  if (c.approval?.outcome === 'host-asked') return { glyph: '⚠', word: NEVER_RAN['host-asked']!, tone: 'warn' };
  if (c.category === 'refused') return { glyph: '⊘', word: 'refused', tone: 'warn' };
  // Escalated and never run: the operator's decision (or nobody's) stopped it.
  if (c.approval && NEVER_RAN[c.approval.outcome]) return { glyph: '⊘', word: NEVER_RAN[c.approval.outcome]!, tone: 'warn' };
  if (c.exitCode === undefined) return { glyph: '?', word: 'ended (exit unknown)', tone: 'muted' };
  return c.exitCode === 0 ? { glyph: '✔', word: 'succeeded', tone: 'ok' } : { glyph: '✘', word: `failed (exit ${c.exitCode})`, tone: 'fail' };
}

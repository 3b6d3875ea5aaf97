/** State glyph + word: state is never shown by colour alone (CONSOLE.md). */
import type { CommandInfo, SessionInfo } from '../../shared/contract.js';

export const SESSION_STATE: Record<SessionInfo['state'], { glyph: string; word: string }> = {
  starting: { glyph: '◌', word: 'starting' },
  idle: { glyph: '○', word: 'idle' },
  running: { glyph: '●', word: 'running' },
  waiting: { glyph: '⌨', word: 'waiting for input' },
  exited: { glyph: '✕', word: 'exited' },
  gone: { glyph: '⊘', word: 'gone' },
};

/** Attention first, then live work, then quiet, then ended. */
export const STATE_ORDER: Record<SessionInfo['state'], number> = { waiting: 0, running: 1, starting: 2, idle: 3, exited: 4, gone: 5 };

export function commandGlyph(c: CommandInfo): { glyph: string; word: string; tone: string } {
  if (c.state === 'waiting') return { glyph: '⌨', word: 'waiting for input', tone: 'attn' };
  if (c.state === 'running') return { glyph: '▶', word: 'running', tone: 'run' };
  if (c.category === 'refused') return { glyph: '⊘', word: 'refused', tone: 'warn' };
  if (c.exitCode === undefined) return { glyph: '?', word: 'ended (exit unknown)', tone: 'muted' };
  return c.exitCode === 0 ? { glyph: '✔', word: 'succeeded', tone: 'ok' } : { glyph: '✘', word: `failed (exit ${c.exitCode})`, tone: 'fail' };
}

import { describe, expect, it } from 'vitest';
import { SMALL_OUTPUT_TOKENS, absolute, clockTime, conversationLabel, plural, reduction, relative, saving, sessionLabel } from './format.js';

describe('reduction (the timeline and agent pane figure)', () => {
  it('is a whole percentage, signed, and never rounds a real reply to −100%', () => {
    expect(reduction(1000, 80)).toBe('−92%');
    expect(reduction(100, 105)).toBe('+5%');
    expect(reduction(17_009, 46)).toBe('−99.7%');
    expect(reduction(1_000_000, 1)).toBe('−99.9%');
    expect(reduction(500, 0)).toBe('−100%');
    expect(reduction(54, 54)).toBe('0%');
    expect(reduction(0, 10)).toBeUndefined();
  });
});

describe('a hooked agent in the list', () => {
  it("shows a session id by its start (a UUID would fill the column) and a chosen name whole", () => {
    expect(sessionLabel('33389c0f-5b1e-4c5e-9a51-0d7a3c1e2f40')).toBe('33389c0f…');
    expect(sessionLabel('default')).toBe('default');
    expect(sessionLabel('build-and-test-1')).toBe('build-and-test-1');
  });
  it('says how many runs of the conversation were seen and how many are live', () => {
    const server = { id: 'agent-x', kind: 'serve' as const, name: 'claude-code', state: 'connected' as const };
    expect(conversationLabel({ ...server, conversation: { session: 's', runs: 1, live: 0 } })).toBe('hooked · 1 run');
    expect(conversationLabel({ ...server, conversation: { session: 's', runs: 12, live: 1 } })).toBe('hooked · 12 runs · 1 live');
    expect(conversationLabel(server)).toBe('');
    expect(conversationLabel({ ...server, conversation: { session: 's', runs: 3, live: 0, ended: true } })).toBe('hooked · 3 runs · ended');
  });
});

describe('the "saved" cell', () => {
  it('a tiny output is compared in tokens, muted, never as a +200% that reads as a failure', () => {
    // `true`-sized: 3 tokens of output, a 9-token reply (the status line).
    expect(saving(3, 9)).toMatchObject({ text: '+6 tok', tone: 'small' });
    expect(saving(40, 12)).toMatchObject({ text: '−28 tok', tone: 'small' });
    expect(saving(7, 7)).toMatchObject({ text: '±0 tok', tone: 'small' });
    // No output at all (`rm -rf ~/x`): the reply is the whole cost, shown, never a dash.
    expect(saving(0, 32)).toMatchObject({ text: '+32 tok', tone: 'small' });
    expect(saving(3, 9).title).toMatch(/status line/);
  });
  it('a real output keeps its percentage: saved, or grew (muted) when the reply is longer', () => {
    expect(saving(1497, 118)).toMatchObject({ text: '−92%', tone: 'saved' });
    expect(saving(SMALL_OUTPUT_TOKENS, SMALL_OUTPUT_TOKENS + 20)).toMatchObject({ text: '+20%', tone: 'grew' });
  });
});

describe('counts with their nouns', () => {
  it('says 1 line, 2 lines, 1,497 lines', () => {
    expect(plural(1, 'line')).toBe('1 line');
    expect(plural(0, 'line')).toBe('0 lines');
    expect(plural(1497, 'line')).toBe('1,497 lines');
    expect(plural(1, 'process', 'processes')).toBe('1 process');
    expect(plural(2, 'process', 'processes')).toBe('2 processes');
  });
});

describe('times: one format everywhere (24 h, seconds)', () => {
  // 2026-11-29 15:56:52 local: the walkthrough saw "3:56:52 PM" in notes beside "15:56:52" badges.
  const at = new Date(2026, 10, 29, 15, 56, 52).getTime();
  it('the time of day is 24 h with seconds, the date ISO, whatever the locale', () => {
    expect(clockTime(at)).toBe('15:56:52');
    expect(absolute(at)).toBe('2026-11-29 15:56:52');
    expect(absolute(new Date(2026, 0, 2, 3, 4, 5).getTime())).toBe('2026-01-02 03:04:05');
    expect(absolute(at)).not.toMatch(/AM|PM/);
  });
  it('relative times older than a day fall back to the same date format', () => {
    expect(relative(at, at + 3 * 86_400_000)).toBe('2026-11-29');
  });
});

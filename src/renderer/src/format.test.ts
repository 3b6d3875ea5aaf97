import { describe, expect, it } from 'vitest';
import { conversationLabel, reduction, sessionLabel } from './format.js';

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
  });
});

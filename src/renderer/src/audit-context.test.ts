import { describe, expect, it } from 'vitest';
import { recordContexts, who } from './audit-context.js';

// Records as the server writes them (src/main/mcp/operator-audit.ts): a handoff's request names
// its session and command; attached / returned / ended carry only its id.
const lines = [
  { line: 1, record: { kind: 'session', by: 'operator', decision: 'operator-connected' } },
  { line: 2, record: { kind: 'handoff', by: 'agent', decision: 'requested', id: 'h_1', session: 'default', command: 'read -s pw' } },
  { line: 3, record: { kind: 'handoff', by: 'operator', decision: 'attached', id: 'h_1' } },
  { line: 4, record: { kind: 'handoff', by: 'operator', decision: 'ended', id: 'h_1' } },
  { line: 5, record: { kind: 'approval', by: 'operator', decision: 'denied', id: 'a_1', session: 'build', command: 'rm -rf ~' } },
  { line: 6, record: { kind: 'handoff', by: 'operator', decision: 'attached', id: 'h_unknown' } },
];

describe('audit records\' session and command', () => {
  it('a handoff\'s later records show the session and command of its request (the walkthrough saw an empty session column)', () => {
    const c = recordContexts(lines);
    expect(c.get(3)).toEqual({ session: 'default', command: 'read -s pw', inherited: true });
    expect(c.get(4)).toMatchObject({ session: 'default', inherited: true });
  });
  it('records with their own session keep it; one with nothing to go by stays empty', () => {
    const c = recordContexts(lines);
    expect(c.get(5)).toEqual({ session: 'build', command: 'rm -rf ~' });
    expect(c.get(1)).toEqual({});
    expect(c.get(6)).toEqual({});
  });
});

describe('who acted', () => {
  it('names the agent of an agent\'s record and the operator of an operator\'s (two agents\' runs read alike in the walkthrough)', () => {
    expect(who({ by: 'agent', agent: 'test-agent/1.0', decision: 'ran' })).toBe('agent · test-agent/1.0');
    expect(who({ by: 'operator', detail: { operator: 'console (root)' } })).toBe('operator · console (root)');
    expect(who({ by: 'agent', decision: 'server-started' })).toBe('agent');
    expect(who({ by: 'policy', agent: 'test-agent/1.0' })).toBe('policy');
  });
});

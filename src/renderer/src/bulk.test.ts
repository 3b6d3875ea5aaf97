import { describe, expect, it } from 'vitest';
import type { PendingApproval, ServerInfo } from '../../shared/contract.js';
import { confirmation, quickPicks, ruleOf } from './bulk.js';

const servers: ServerInfo[] = [
  { id: 'serve-1', kind: 'serve', name: 'claude-code', version: '2.1', state: 'connected' },
  { id: 'serve-2', kind: 'serve', name: 'codex', state: 'connected' },
];
const approval = (serverId: string, id: string, rule?: string, danger = 'rm-recursive'): PendingApproval => ({
  id, serverId, sessionId: `${serverId}/s`, session: 's', tool: 'sh_run', command: 'rm -rf x', cwd: '/tmp',
  dangers: [{ id: danger, description: 'd', text: 'rm -rf' }], ...(rule ? { rule } : {}), createdAt: 1, expiresAt: 2,
});

describe('bulk decisions', () => {
  const list = [approval('serve-1', 'a_1', 'rm-recursive'), approval('serve-1', 'a_2', 'git-push-force'), approval('serve-2', 'a_1', undefined, 'rm-recursive')];

  it('names an approval by its rule, else by the dangers that matched', () => {
    expect(ruleOf(list[0])).toBe('rm-recursive');
    expect(ruleOf(list[2])).toBe('rm-recursive');
  });

  it('offers all, each agent and each rule, keyed across servers (the same id on two servers stays two)', () => {
    const q = quickPicks(list, servers);
    expect(q.all.keys).toEqual(['serve-1/a_1', 'serve-1/a_2', 'serve-2/a_1']);
    expect(q.agents).toEqual([
      { label: 'claude-code 2.1', keys: ['serve-1/a_1', 'serve-1/a_2'] },
      { label: 'codex', keys: ['serve-2/a_1'] },
    ]);
    expect(q.rules[0]).toEqual({ label: 'rm-recursive', keys: ['serve-1/a_1', 'serve-2/a_1'] });
  });

  it('confirms with how many and which rules and agents', () => {
    expect(confirmation('deny', list, servers)).toEqual({
      title: 'Deny 3 approvals?',
      rules: 'Rules: rm-recursive ×2, git-push-force ×1',
      agents: 'Agents: claude-code 2.1 ×2, codex ×1',
    });
    expect(confirmation('approve', list.slice(0, 1), servers).title).toBe('Approve 1 approval?');
  });
});

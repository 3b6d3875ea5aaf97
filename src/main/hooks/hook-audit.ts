/**
 * A hook's audit records: the policy's deny / ask at the hook and, for escalations, the same
 * operator records `mish serve` writes (approval requested / resolved, operators connecting),
 * with the agent named by its host and session id.
 */
import { AuditLog } from '../core/audit/audit-log.js';
import { lazyRedactor } from '../cli/cli-audit.js';
import { operatorAuditRecord } from '../mcp/operator-audit.js';
import type { HookAudit } from './hook-command.js';
import type { HookAnswer, HostAdapter, ShellCall } from './hosts/types.js';

export function createHookAudit(host: HostAdapter, call: ShellCall): HookAudit {
  const log = new AuditLog({ redactor: lazyRedactor(), onError: (m) => process.stderr.write(`mish: warning: ${m}\n`) });
  const agent = `${host.id}${call.hostVersion ? `/${call.hostVersion}` : ''}`;
  return {
    decided: (a: HookAnswer) => {
      if (a.kind === 'pass' || a.kind === 'rewrite') return;
      log.record({ kind: 'decision', by: 'policy', host: 'cli', agent, ...(call.sessionId ? { session: call.sessionId } : {}), command: call.command, ...(call.cwd ? { cwd: call.cwd } : {}), decision: a.kind === 'allow' ? 'approved' : a.kind, reason: a.reason, detail: { hook: host.id } });
    },
    operator: (e) => {
      const r = operatorAuditRecord(e);
      // The request came from an agent's hook (a CLI host), not from an MCP call.
      log.record({ ...r, host: r.host === 'mcp' ? 'cli' : r.host, agent, detail: { ...r.detail, hook: host.id } });
    },
    flush: () => log.flush(),
  };
}

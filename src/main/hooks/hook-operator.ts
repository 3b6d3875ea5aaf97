/**
 * An escalated hook call asks mish's operators exactly as `mish serve` does: the hook process
 * publishes an operator socket of its own (same wire, same OperatorHost, same approval request
 * and audit records), named after the agent host and its session id, and waits for the first
 * decision. Loaded only for escalations: an allowed command never pays for it.
 *
 * A hook process is new for every call, so an operator (the console, `mish approvals`) finds
 * its socket only after it appears: the hook gives attached operators OPERATOR_JOIN_MS to
 * connect before it concludes that nobody is there.
 */
import type { PolicyDecision } from '../core/policy/decide.js';
import type { ProcessTable } from '../core/session/types.js';
import { OperatorHost, approvalTimeoutMs, type OperatorAuditEvent, type OperatorSessionSource } from '../operator/operator-host.js';
import { startOperatorSocket } from '../operator/socket-server.js';
import { operatorRefusal, type OperatorOutcome } from './hook-decision.js';
import type { SessionEventListener } from '../core/session/types.js';
import type { HostAdapter, ShellCall } from './hosts/types.js';

/**
 * How long a new hook socket waits for an attached operator to connect: the console settles a
 * new socket 300 ms and rescans on directory changes; `mish approvals` looks every 1 s.
 */
export const OPERATOR_JOIN_MS = 1_500;
/** How often the hook looks whether an operator has connected yet. */
const JOIN_POLL_MS = 20;

/** Time for the last wire messages (the approval's resolution) to leave before the socket closes. */
const FLUSH_BEFORE_CLOSE_MS = 20;

/** A hook process runs no sessions: the operator host reports none. */
const NO_PROCESSES: ProcessTable = { list: () => [], get: () => undefined, digest: () => '' };
const NO_SESSIONS: OperatorSessionSource = { subscribe: () => () => {}, list: () => [], processes: NO_PROCESSES, process: () => undefined };

export interface AskOptions {
  version: string;
  /** Epoch ms by which the answer must be known (the host's timeout minus a margin). */
  deadline: number;
  signal?: AbortSignal;
  onAudit?: (e: OperatorAuditEvent) => void;
  /** Operator socket directory (default: the per-user one, operatorDir()). */
  dir?: string;
  /** How long operators get to connect (default OPERATOR_JOIN_MS; MISH_HOOK_OPERATOR_JOIN_MS, for tests; 0: do not wait, nobody is asked). */
  joinMs?: number;
}

export async function askOperator(host: HostAdapter, call: ShellCall, d: PolicyDecision, opts: AskOptions): Promise<OperatorOutcome> {
  const remaining = opts.deadline - Date.now();
  if (remaining <= 0 || opts.joinMs === 0) return { outcome: 'no-operator' };
  // The one event this host publishes: the refusal the agent gets, for the console's row of it.
  let publish: SessionEventListener | undefined;
  const sessions: OperatorSessionSource = {
    ...NO_SESSIONS,
    subscribe: (l) => {
      publish = l;
      return () => void (publish = undefined);
    },
  };
  const op = new OperatorHost({
    sessions,
    version: opts.version,
    cwd: call.cwd ?? process.cwd(),
    approvalTimeoutMs: Math.max(1, Math.min(approvalTimeoutMs(), remaining)),
    onAudit: opts.onAudit,
    // The console shows the request in the agent's conversation, beside its runs.
    ...(call.sessionId ? { conversation: { agent: host.id, session: call.sessionId, ...(call.transcriptPath ? { transcript: call.transcriptPath } : {}) } } : {}),
  });
  // The console names a server after its client: here the agent host and its version.
  op.setMcpClient({ name: host.id, ...(call.hostVersion ? { version: call.hostVersion } : {}) });
  const started = await startOperatorSocket(op, { dir: opts.dir });
  if (!started.ok) {
    op.dispose();
    return { outcome: 'no-operator' };
  }
  try {
    const joinBy = Math.min(opts.deadline, Date.now() + (opts.joinMs ?? OPERATOR_JOIN_MS));
    while (!op.hasApprover() && Date.now() < joinBy && !opts.signal?.aborted) await new Promise((r) => setTimeout(r, JOIN_POLL_MS));
    if (!op.hasApprover()) return { outcome: 'no-operator' };
    const r = await op.requestApproval(
      {
        tool: 'sh_run',
        session: call.sessionId ?? host.id,
        command: call.command,
        cwd: call.cwd ?? process.cwd(),
        dangers: d.matches.map((m) => ({ id: m.rule, description: m.reason, text: m.text })),
        decision: d.decision,
        rule: d.rule,
        reason: d.reason,
      },
      { signal: opts.signal },
    );
    // Stopped: the console's row of it (its id is the approval's) shows the exact text the agent gets.
    // Not when cancelled: that is the hook's own deadline, and its answer to the host is another.
    const said = r.outcome === 'cancelled' ? undefined : operatorRefusal(d, r as OperatorOutcome);
    if (said && 'id' in r && r.id) publish?.({ type: 'condensed', source: { kind: 'command', id: r.id, session: call.sessionId ?? host.id }, lines: said.split('\n'), reply: true, final: true });
    // The resolution reaches the operators before the socket closes (writes are corked one tick).
    await new Promise((res) => setTimeout(res, FLUSH_BEFORE_CLOSE_MS));
    return r;
  } finally {
    op.dispose();
    await started.socket.close();
  }
}

/**
 * What `mish hook <agent>` answers for one shell call: the policy's decision on the line, an
 * operator's when the policy escalates and an operator is attached, and whether the command is
 * rewritten to run through mish. Pure apart from the injected policy and operator.
 *
 * Never widens: a rewrite is offered only where the host keeps its own permission check on the
 * rewritten command, or where the payload shows the host would not have asked (the adapter's
 * `rewrite`); an escalation nobody decides ends in the host's ask (where ask means asking its
 * user) or in deny (where ask would let it run).
 */
import type { PolicyDecision } from '../core/policy/decide.js';
import type { HookAnswer, HostAdapter, ShellCall } from './hosts/types.js';

/** What an operator decided about an escalated call (a subset of the operator host's ApprovalResult). */
export type OperatorOutcome =
  | { outcome: 'no-operator' }
  | { outcome: 'approved' | 'always'; id: string; by: string }
  | { outcome: 'edited'; id: string; by: string; command: string }
  | { outcome: 'denied'; id: string; by: string }
  | { outcome: 'timeout' | 'operator-gone' | 'cancelled'; id: string; waitedMs: number };

export interface HookDecisionDeps {
  /** The policy's decision on a line (core/policy decide()). */
  decide(line: string): PolicyDecision;
  /** Asks the attached operators; undefined when none can be reached. */
  askOperator?(call: ShellCall, d: PolicyDecision): Promise<OperatorOutcome>;
  /** The rewritten command line for a call (`MISH_AGENT=… mish -- '<line>'`). */
  rewriteAs(call: ShellCall): string;
  /**
   * The rewritten command line for a call an operator approved: it carries a one-shot approval
   * token for exactly that line (approval-token.ts), so mish runs it without asking again.
   * Undefined (or throwing): approved calls run as written.
   */
  rewriteApproved?(call: ShellCall, approval: { by: string; id: string }): string;
}

/**
 * Builtins whose effect must stay in the agent's own shell (its cwd, variables, options):
 * run inside mish's child shell they would be lost, so such lines are not rewritten.
 */
const SHELL_STATE_BUILTINS = new Set(['cd', 'pushd', 'popd', 'export', 'unset', 'source', '.', 'alias', 'unalias', 'set', 'shopt', 'declare', 'typeset', 'readonly', 'local', 'trap', 'ulimit', 'umask', 'exec', 'eval', 'hash', 'enable', 'setopt', 'unsetopt', 'builtin', 'exit', 'logout', 'fg', 'bg', 'jobs', 'disown', 'wait', 'kill']);

/** Why a line that the policy allows is still not rewritten (undefined: it can be). */
export function notRewritable(call: ShellCall, d: PolicyDecision): string | undefined {
  if (d.commands.some((argv) => SHELL_STATE_BUILTINS.has(argv[0]))) return 'it changes the agent shell\'s own state';
  if (/&\s*$/.test(call.command.trim()) && !/&&\s*$/.test(call.command.trim())) return 'it runs in the background';
  if (d.commands.some((argv) => /(?:^|\/)mish(?:\.js)?$/.test(argv[0]) || (argv[0] === 'node' && /mish/.test(argv[1] ?? '')))) return 'it already runs mish';
  if (d.commands.length === 0) return 'it runs nothing';
  return undefined;
}

function canRewrite(host: HostAdapter, call: ShellCall): boolean {
  if (host.rewrite === 'always') return true;
  if (host.rewrite === 'when-host-would-not-ask') return call.hostWouldNotAsk === true;
  return false;
}

const NEXT_FORBID = 'Do not retry it or a variant of it; do the task another way, or ask the user.';
const NEXT_UNDECIDED = 'Do not retry it as is; do the task another way, or ask the user to approve it (in the mish console or `mish approvals`).';

export function denyForbidden(d: PolicyDecision): HookAnswer {
  return { kind: 'deny', reason: `mish policy: forbidden by rule ${d.rule}: ${d.reason}. ${NEXT_FORBID}` };
}

/**
 * The answer for an escalation nobody decided. A host's `ask` is its user's prompt only where the
 * host would have prompted at all: Claude Code in bypassPermissions mode (`claude -p`, Claude Code
 * 2.1.332, run in test/hooks/claude-code-e2e) runs a command its hook answered `ask` for, so where
 * the payload shows the host would not ask (`hostWouldNotAsk`), the answer is `deny`.
 */
export function unattended(host: HostAdapter, d: PolicyDecision, why: string, call?: ShellCall): HookAnswer {
  const base = `mish policy: rule ${d.rule} (${d.decision}): ${d.reason}; ${why}.`;
  return askWhereHostAsks(host, call?.hostWouldNotAsk, `${base} Approve only if you meant it.`, `${base} Nothing was run. ${NEXT_UNDECIDED}`);
}

/**
 * The host's `ask` (its user's prompt) where the host prompts at all, else `deny`: a host whose
 * `ask` runs the call (Codex; Claude Code in bypassPermissions mode, `hostWouldNotAsk`) must
 * never be answered `ask` for something mish would not let through.
 */
export function askWhereHostAsks(host: HostAdapter, hostWouldNotAsk: boolean | undefined, askReason: string, denyReason: string): HookAnswer {
  return host.unattended === 'ask' && hostWouldNotAsk !== true ? { kind: 'ask', reason: askReason } : { kind: 'deny', reason: denyReason };
}

export async function decideHook(host: HostAdapter, call: ShellCall, deps: HookDecisionDeps): Promise<HookAnswer> {
  const d = deps.decide(call.command);
  if (d.decision === 'forbid') return denyForbidden(d);
  if (d.decision === 'ask' || d.decision === 'operator') {
    const r: OperatorOutcome = deps.askOperator ? await deps.askOperator(call, d) : { outcome: 'no-operator' };
    switch (r.outcome) {
      case 'approved':
      case 'always': {
        const reason = `mish: approved by operator ${r.by} (${r.id}); rule ${d.rule}: ${d.reason}`;
        // Where the host can rewrite (an operator's approval is the host's allow), the approved line runs through mish.
        const command = host.rewrite !== 'never' && !notRewritable(call, d) ? approvedRewrite(deps, call, r) : undefined;
        return command ? { kind: 'rewrite', command, call, approve: true, reason } : { kind: 'allow', reason };
      }
      case 'edited': {
        const edited = { ...call, command: r.command };
        const again = deps.decide(r.command);
        if (again.decision === 'forbid') return denyForbidden(again);
        if (host.rewrite === 'never') return { kind: 'deny', reason: `mish: operator ${r.by} edited the command (${r.id}); run this instead: ${r.command}` };
        // The operator approved the edited line: it runs as they wrote it (through mish only when the policy allows it there too).
        const command = notRewritable(edited, again) ? r.command : again.decision === 'allow' || again.decision === 'confirm' ? deps.rewriteAs(edited) : (approvedRewrite(deps, edited, r) ?? r.command);
        return { kind: 'rewrite', command, call: edited, approve: true };
      }
      case 'denied':
      case 'timeout':
      case 'operator-gone':
      case 'cancelled':
        return { kind: 'deny', reason: operatorRefusal(d, r)! };
      case 'no-operator':
        return unattended(host, d, 'no mish operator is attached to decide', call);
    }
  }
  // allow / confirm
  if (!canRewrite(host, call)) return { kind: 'pass', note: host.rewrite === 'never' ? `${host.name} cannot rewrite without approving` : 'the host would ask its user' };
  const why = notRewritable(call, d);
  if (why) return { kind: 'pass', note: `not rewritten: ${why}` };
  return { kind: 'rewrite', command: deps.rewriteAs(call), call, approve: false };
}

/**
 * What the agent is told when an operator's decision (or nobody's) stopped the call; undefined
 * when the call goes on. The hook's operator socket shows the console this same text.
 */
export function operatorRefusal(d: PolicyDecision, r: OperatorOutcome): string | undefined {
  switch (r.outcome) {
    case 'denied':
      return `mish: denied by operator ${r.by} (${r.id}); rule ${d.rule}: ${d.reason}. Nothing was run. Do not retry it; ask the user what they want instead.`;
    case 'timeout':
      return `mish: no operator decided within ${Math.round(r.waitedMs / 1000)}s (${r.id}); rule ${d.rule}: ${d.reason}. Nothing was run. ${NEXT_UNDECIDED}`;
    case 'operator-gone':
    case 'cancelled':
      return `mish: the operator went away before deciding (${r.id}); rule ${d.rule}: ${d.reason}. Nothing was run. ${NEXT_UNDECIDED}`;
    default:
      return undefined;
  }
}

/** The approved call's rewrite with its one-shot token, or undefined when none can be issued (it then runs as written). */
function approvedRewrite(deps: HookDecisionDeps, call: ShellCall, approval: { by: string; id: string }): string | undefined {
  try {
    return deps.rewriteApproved?.(call, approval);
  } catch {
    return undefined;
  }
}

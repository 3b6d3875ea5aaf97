/**
 * The CLI's audit records: what `mish <cmd>` ran or refused and who decided. Loaded lazily and
 * early (while the command runs); the scanner only when a record could hold a secret.
 */
import { AuditLog } from '../core/audit/audit-log.js';
import type { AuditActor, AuditEvent } from '../core/audit/types.js';
import type { DangerMatch } from '../core/router/categorize.js';
import { mayHoldSecret, secretEnvValues } from '../core/redact/quick-check.js';
import type { Redactor } from '../core/redact/redactor.js';
import type { RouteResult } from '../core/router/route.js';

export interface CliAudit {
  /** A human's answer at the danger question. */
  answered(command: string, dangers: DangerMatch[], answer: string): void;
  /** An escalation an operator approved in the agent's hook, redeemed here with its one-shot token. */
  redeemed(command: string, dangers: DangerMatch[], approval: { by: string; id: string }): void;
  /** The router's result for the line. */
  routed(line: string, cwd: string, result: RouteResult, by: AuditActor): void;
  /** `--raw`: ran without the router. */
  ranRaw(line: string, cwd: string, exitCode: number, spoolRef: string, by: AuditActor): void;
  /** `--raw` refused before running (a control character in the line). */
  refusedRaw(line: string, cwd: string, reason: string, by: AuditActor): void;
  /** Resolves once the records are on disk (before the process exits). */
  flush(): Promise<void>;
}

/**
 * The Redactor, loaded only for a record that could hold a secret: its rule tables take
 * ~60 ms to load, most records (`npm test` in a project directory) cannot hold one.
 */
/** A record's category field: always a word of grammars/_meta/categories.toml, never a value from the command or its output. */
const OWN_CATEGORY = /"category":"(?:condense|narrate|passthrough|structured|interactive|dangerous)"/;

export function lazyRedactor(): { redactDeep<T>(value: T): Promise<T> } {
  let redactor: Promise<Redactor> | undefined;
  const envValues = secretEnvValues(process.env).flatMap((v) => [v.value, encodeURIComponent(v.value)]);
  return {
    async redactDeep<T>(value: T): Promise<T> {
      const text = JSON.stringify(value);
      // The category is one of mish's own words, and `passthrough` holds `pass`: every passthrough command (`mish true`) loaded
      // the scanner (~65 ms of CPU) for a word no secret can be in. The check reads the record without it.
      if (!mayHoldSecret(text.replace(OWN_CATEGORY, '')) && !envValues.some((v) => text.includes(v) || text.includes(JSON.stringify(v).slice(1, -1)))) return value;
      redactor ??= import('../core/redact/redactor.js').then((m) => new m.Redactor({ env: process.env }));
      return (await redactor).redactDeep(value);
    },
  };
}

/**
 * `run`: a run an agent's hook rewrote (agent-output.ts hookedRun): its records name the agent
 * and the host's session, and what ran carries the run's command id (the one the operator wire
 * shows), so a console started later reads it back into that conversation (core/audit/hook-history.ts).
 */
export function createCliAudit(run?: { agent: string; session: string; id: string }): CliAudit {
  const audit = new AuditLog({
    redactor: lazyRedactor(),
    onError: (m) => process.stderr.write(`mish: warning: ${m}\n`),
  });
  const host = 'cli' as const;
  const whose = run ? { agent: run.agent, session: run.session } : {};
  const record = (e: Omit<AuditEvent, 'host'>) => audit.record({ ...e, host, ...whose });
  const ranId = run ? { id: run.id } : {};
  return {
    answered: (command, dangers, answer) => record({ kind: 'approval', by: 'user', command, decision: answer, rule: dangers.map((d) => d.id).join(',') }),
    redeemed: (command, dangers, a) => record({ kind: 'approval', by: 'operator', command, decision: 'token-redeemed', rule: dangers.map((d) => d.id).join(','), reason: `approved by operator ${a.by} (${a.id}) in the agent's hook` }),
    routed: (line, cwd, r, by) => {
      if (r.kind === 'parse-error') record({ kind: 'command', by, command: line, cwd, decision: 'parse-error', reason: r.error.message, exitCode: r.exitCode });
      else if (r.kind === 'refused') {
        const who: AuditActor = r.reason.startsWith('refused by the user') ? 'user' : 'policy';
        record({ kind: 'decision', by: who, command: line, cwd, decision: 'refused', category: r.category, rule: r.dangers.map((d) => d.id).join(',') || undefined, reason: r.reason.split('\n').pop() });
      } else {
        record({
          kind: 'command',
          by,
          command: r.ran,
          cwd,
          decision: 'ran',
          ...ranId,
          category: r.category,
          exitCode: r.exitCode,
          ...(r.signal ? { signal: r.signal } : {}),
          durationMs: r.facts.durationMs,
          ...(r.facts.spoolRef ? { spoolRef: r.facts.spoolRef } : {}),
          ...(r.approved.length ? { rule: r.approved.map((d) => d.id).join(','), detail: { approved: true } } : {}),
        });
      }
    },
    ranRaw: (line, cwd, exitCode, spoolRef, by) => record({ kind: 'command', by, command: line, cwd, decision: 'ran-raw', ...ranId, exitCode, spoolRef }),
    refusedRaw: (line, cwd, reason, by) => record({ kind: 'decision', by: 'policy', command: line, cwd, decision: 'refused', reason, detail: { raw: true, caller: by } }),
    flush: () => audit.flush(),
  };
}

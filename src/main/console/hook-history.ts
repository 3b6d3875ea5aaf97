/**
 * What agents' hooks did before this console started, for the hub to show as if it had watched:
 * the newest audit records (a bounded read from the log's end, core/audit/audit-tail.ts), the
 * hooked runs and hook refusals among them per conversation (core/audit/hook-history.ts), and a
 * way to read each run's raw output from its spool. A hooked run lives a few seconds and a hook
 * refusal opens no socket at all, so once they are over the audit log is their only record.
 */
import { readAuditTail, type AuditTailOptions } from '../core/audit/audit-tail.js';
import { defaultAuditPath } from '../core/audit/audit-log.js';
import { hookHistory, type HookConversationHistory } from '../core/audit/hook-history.js';
import type { SpoolReadOptions } from '../core/session/types.js';
import type { HubProcess } from './hub-types.js';

export interface LoadedHookHistory {
  conversations: HookConversationHistory[];
  /** A run's raw output by its spool reference (`mish raw <id>`); undefined when its spool is gone (pruned). */
  process(spoolRef: string): HubProcess | undefined;
  /** Records read, and lines of the part read that were not records (skipped). */
  records: number;
  skipped: number;
  /** Older records were not read (the read is bounded). */
  partial: boolean;
}

/** The hooked history in the newest records of `log` (default: this user's audit log). */
export async function loadHookHistory(options: { log?: string; spoolDir?: string } & AuditTailOptions = {}): Promise<LoadedHookHistory> {
  const tail = await readAuditTail(options.log ?? defaultAuditPath(), options);
  const conversations = hookHistory(tail.records);
  const { SpoolStore } = await import('../core/spool/spool.js');
  const store = options.spoolDir ? new SpoolStore(options.spoolDir) : new SpoolStore();
  return {
    conversations,
    records: tail.records.length,
    skipped: tail.skipped,
    partial: tail.partial,
    process(spoolRef) {
      // Records give the reference as the command that reads it (`mish raw x3kwg7a66`).
      const id = spoolRef.trim().split(/\s+/).pop() ?? '';
      let reader: ReturnType<typeof store.open>;
      try {
        reader = store.open(id);
      } catch {
        return undefined;
      }
      if (!reader) return undefined;
      const r = reader;
      return {
        entry: () => ({ rawLines: r.meta.lines, rawBytes: r.meta.bytes, state: 'exited', spoolRef }),
        read: (o: SpoolReadOptions = {}) => {
          const x = r.readLines({ from: o.fromLine, to: o.toLine });
          return { lines: x.lines.map((l) => ({ n: l.no, text: l.text })), totalLines: x.totalLines, droppedLines: x.droppedBytes > 0 ? -1 : 0 };
        },
      };
    },
  };
}

/** One line for the console's log about what was read (said when something could not be). */
export function describeHookHistory(h: LoadedHookHistory): string | undefined {
  if (!h.skipped) return undefined;
  return `audit log: ${h.skipped} line${h.skipped === 1 ? '' : 's'} among the newest ${h.records + h.skipped} could not be read as records (skipped; \`mish audit verify\` checks the log)`;
}

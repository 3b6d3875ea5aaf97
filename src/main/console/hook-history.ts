/**
 * What agents' hooks did that the console could not see on the operator wire, for the hub to show
 * as if it had watched. A hooked run lives a few seconds (a console started afterwards has missed
 * it), and a hook refuses a forbidden command on its own without opening any socket (even a
 * console open at that moment sees nothing of it): the audit log is their record.
 *
 * - loadHookHistory: at the console's start, the newest records (a bounded read from the log's
 *   end, core/audit/audit-tail.ts), the hooked runs and hook refusals among them per conversation
 *   (core/audit/hook-history.ts), and a way to read each run's raw output from its spool;
 * - followHookHistory: afterwards, the refusals appended to the log, as they are written.
 */
import { readdirSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { readAuditFrom, readAuditTail, type AuditTailOptions } from '../core/audit/audit-tail.js';
import { defaultAuditPath } from '../core/audit/audit-log.js';
import { hookHistory, type HookConversationHistory } from '../core/audit/hook-history.js';
import type { AuditRecord } from '../core/audit/types.js';
import type { SpoolReadOptions } from '../core/session/types.js';
import { SpoolStore } from '../core/spool/spool.js';
import type { HubProcess } from './hub-types.js';

/**
 * Records kept from before each step of following the log: a hook's escalation writes its request
 * and the operator's decision before its refusal, and several hooks may write at once; a few
 * hundred records cover what one refusal's row is built from.
 */
export const FOLLOW_CONTEXT_RECORDS = 500;
/** Rows of one conversation read back at start, at most: as many as a session's timeline keeps (command-timeline.ts). */
export const HISTORY_ROWS_PER_CONVERSATION = 200;
/** A change to the log is read this long after it is noticed: a hook's records come in a burst (one group of appends). */
export const FOLLOW_SETTLE_MS = 100;
/** The log is also looked at this often (a watch can miss changes: another filesystem, the file replaced). */
export const FOLLOW_POLL_MS = 2_000;

/** A run's raw output by its spool reference (`mish raw <id>`); undefined when its spool is gone (pruned). */
export type SpoolProcesses = (spoolRef: string) => HubProcess | undefined;

export interface LoadedHookHistory {
  conversations: HookConversationHistory[];
  process: SpoolProcesses;
  /** Records read, and lines of the part read that were not records (skipped). */
  records: number;
  skipped: number;
  /** Older records were not read (the read is bounded). */
  partial: boolean;
  /** Where following the log starts, and the records a follower keeps for context. */
  follow: { log: string; end: number; context: AuditRecord[] };
}

/** The spool folder's listing is reused this long: a start with hundreds of runs reads it once, not once per run. */
const SPOOL_LISTING_MS = 1_000;

/** Reading spools of `spoolDir` (default: this user's, as `mish raw`). */
export function spoolProcesses(spoolDir?: string): SpoolProcesses {
  const store = spoolDir ? new SpoolStore(spoolDir) : new SpoolStore();
  let listing: { at: number; metas: Set<string> } | undefined;
  const exists = (id: string) => {
    if (!listing || Date.now() - listing.at > SPOOL_LISTING_MS) {
      let files: string[] = [];
      try {
        files = readdirSync(store.dir);
      } catch {
        // no spool folder: no spool
      }
      listing = { at: Date.now(), metas: new Set(files.filter((f) => f.endsWith('.json'))) };
    }
    return listing.metas.has(`${id}.json`);
  };
  return (spoolRef) => {
    // Records give the reference as the command that reads it (`mish raw x3kwg7a66`).
    const id = spoolRef.trim().split(/\s+/).pop() ?? '';
    // A run's spool pruned since (the store keeps the newest MAX_SPOOLS): nothing to read, known without opening.
    if (!/^[0-9a-z]+$/.test(id) || !exists(id)) return undefined;
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
  };
}

/** The hooked history in the newest records of `log` (default: this user's audit log). */
export async function loadHookHistory(options: { log?: string; spoolDir?: string } & AuditTailOptions = {}): Promise<LoadedHookHistory> {
  const log = options.log ?? defaultAuditPath();
  const tail = await readAuditTail(log, options);
  return {
    conversations: hookHistory(tail.records).map((c) => ({ ...c, entries: c.entries.slice(-HISTORY_ROWS_PER_CONVERSATION) })),
    process: spoolProcesses(options.spoolDir),
    records: tail.records.length,
    skipped: tail.skipped,
    partial: tail.partial,
    follow: { log, end: tail.end, context: tail.records.slice(-FOLLOW_CONTEXT_RECORDS) },
  };
}

/** One line for the console's log about what was read (said when something could not be). */
export function describeHookHistory(h: Pick<LoadedHookHistory, 'skipped' | 'records'>): string | undefined {
  if (!h.skipped) return undefined;
  return `audit log: ${h.skipped} line${h.skipped === 1 ? '' : 's'} among the newest ${h.records + h.skipped} could not be read as records (skipped; \`mish audit verify\` checks the log)`;
}

export interface HookHistoryFollower {
  /** Reads what was appended now (also done on changes and every FOLLOW_POLL_MS); resolves once delivered. */
  check(): Promise<void>;
  close(): void;
}

/**
 * Follows the log from where `from` (loadHookHistory's `follow`) ended: each hook refusal appended
 * afterwards goes to `onEntries` once, as its conversation's history (only the new entries; one
 * the hub saw live, an operator's denial, keeps its id and stays one row). Runs are not taken from
 * here: a run made while the console runs is on the wire.
 */
export function followHookHistory(
  from: LoadedHookHistory['follow'],
  onEntries: (conversations: HookConversationHistory[]) => void,
  options: { log?: (m: string) => void; pollMs?: number; settleMs?: number } = {},
): HookHistoryFollower {
  let end = from.end;
  let context = from.context.slice(-FOLLOW_CONTEXT_RECORDS);
  let lastSeq = context.length ? context[context.length - 1].seq : 0;
  let closed = false;
  let running: Promise<void> | undefined;
  let again = false;
  let settle: NodeJS.Timeout | undefined;

  const step = async () => {
    const r = await readAuditFrom(from.log, end);
    end = r.end;
    if (r.skipped) options.log?.(`audit log: ${r.skipped} appended line${r.skipped === 1 ? '' : 's'} could not be read as records (skipped)`);
    if (r.passed) options.log?.(`audit log: ${r.passed} bytes appended at once were passed over (only the newest are shown)`);
    if (!r.records.length) return;
    // A log started over (a new chain) numbers from 1 again.
    if (r.records[0].seq <= lastSeq && r.records[0].seq === 1) lastSeq = 0;
    const fresh = r.records.filter((x) => x.seq > lastSeq);
    if (!fresh.length) return;
    const all = [...context, ...fresh];
    const since = lastSeq;
    lastSeq = fresh[fresh.length - 1].seq;
    context = all.slice(-FOLLOW_CONTEXT_RECORDS);
    // Refusals only: while a console runs, every hooked run publishes itself on the wire (and its
    // record may be read before the console has connected to it: it would count twice).
    const found = hookHistory(all)
      .map((c) => ({ ...c, entries: c.entries.filter((e) => e.seq > since && e.kind === 'refusal') }))
      .filter((c) => c.entries.length > 0);
    if (found.length && !closed) onEntries(found);
  };
  // One read at a time; a change during one is read right after it.
  const check = (): Promise<void> => {
    if (closed) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = step()
      .catch((e: unknown) => options.log?.(`audit log: not followed this time: ${(e as Error).message}`))
      .finally(() => {
        running = undefined;
        if (again && !closed) {
          again = false;
          void check();
        }
      });
    return running;
  };
  const soon = () => {
    if (closed || settle) return;
    settle = setTimeout(() => {
      settle = undefined;
      void check();
    }, options.settleMs ?? FOLLOW_SETTLE_MS);
    settle.unref?.();
  };
  // The directory, not the file: the log may not exist yet, or be replaced.
  let watcher: FSWatcher | undefined;
  try {
    const name = path.basename(from.log);
    watcher = watch(path.dirname(from.log), (_event, file) => {
      if (!file || file === name) soon();
    });
    watcher.on('error', () => watcher?.close());
  } catch {
    // no watch here (no directory yet, another filesystem): the poll below finds changes
  }
  const poll = setInterval(soon, options.pollMs ?? FOLLOW_POLL_MS);
  poll.unref?.();
  return {
    check,
    close: () => {
      closed = true;
      clearInterval(poll);
      clearTimeout(settle);
      watcher?.close();
    },
  };
}

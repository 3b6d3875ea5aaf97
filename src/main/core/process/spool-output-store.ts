/**
 * OutputStore on the core spool (src/main/core/spool): exact raw bytes on disk, bounded,
 * readable back with `mish raw <id>`. The SessionManager uses it when given a SpoolStore.
 */
import type { SpoolReader, SpoolStore } from '../spool/spool.js';
import type { OutputStore, SpoolReadOptions, SpoolReadResult } from '../session/types.js';

export function spoolOutputStore(store: SpoolStore, command: string, cwd: string): OutputStore {
  const spool = store.create(command, cwd);
  return {
    ref: spool.ref,
    write: (chunk) => spool.write(chunk),
    close: (result) => spool.close(result ?? {}),
    handedOver: () => spool.createMeta(),
    read: (options: SpoolReadOptions = {}) => readSpoolLines(spool.reader(), options),
  };
}

/** A process-table read (numbered lines, grep as substring or regex) of a spool. */
export function readSpoolLines(reader: SpoolReader, options: SpoolReadOptions = {}): SpoolReadResult {
  const g = options.grep;
  const grep = g === undefined ? undefined : typeof g === 'string' ? new RegExp(g.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) : g;
  const r = reader.readLines({ from: options.fromLine, to: options.toLine, grep });
  return {
    lines: r.lines.map((l) => ({ n: l.no, text: l.text.replace(/\r$/, '') })),
    totalLines: r.totalLines,
    // Spools from before line counts were kept report "some" (-1).
    droppedLines: r.gap ? Math.max(0, r.gap.to - r.gap.from + 1) : r.droppedBytes > 0 ? -1 : 0,
    ...(r.gap ? { gap: r.gap } : {}),
  };
}

/** The process table: every background process and session command, live and recently ended. */
import type { ProcessEntry, ProcessTable } from '../session/types.js';
import type { TrackedProcess } from './tracked-process.js';

/** Ended entries kept in memory whole; past this the longest-ended are forgotten first (their output stays on disk). */
export const MAX_ENDED_ENTRIES = 64;
/**
 * Final snapshots of forgotten entries kept so their ids still resolve to their spools (a few
 * hundred bytes each; well above the spool directory's MAX_SPOOLS, so an id outlives its entry
 * for as long as its spool exists).
 */
export const MAX_FORGOTTEN_ENTRIES = 10_000;
/** Ended background processes stay in the digest this long, so the agent learns they ended. */
export const DIGEST_RECENT_END_MS = 5 * 60_000;
/** Entries shown in the digest before "+N more". */
const DIGEST_MAX_ITEMS = 8;

export class ProcessTableImpl implements ProcessTable {
  private readonly byId = new Map<string, TrackedProcess>();
  /** Final entries of ended processes no longer held, by id, oldest first. */
  private readonly forgottenById = new Map<string, ProcessEntry>();
  private next = { spawn: 1, command: 1 };
  /**
   * The last line of each running process as a digest last showed it: a digest repeats a line
   * only when it changed (a quiet dev server's "ready on :3000" cost ~40 tokens on every reply
   * while it ran). Every digest goes to the agent (MCP replies), so "shown" means the agent read it.
   */
  private readonly shownLastLine = new Map<string, string>();

  /** `onRemove`: an ended entry was forgotten (the console drops it from its table). */
  constructor(private readonly onRemove: (entry: ProcessEntry) => void = () => {}) {}

  nextId(kind: 'spawn' | 'command'): string {
    return kind === 'spawn' ? `p${this.next.spawn++}` : `c${this.next.command++}`;
  }

  add(p: TrackedProcess): void {
    this.byId.set(p.id, p);
    this.prune();
  }

  control(idOrAlias: string): TrackedProcess | undefined {
    return byIdOrAlias(this.byId, idOrAlias, (p) => p.alias);
  }

  live(): TrackedProcess[] {
    return [...this.byId.values()].filter((p) => !p.ended);
  }

  aliasTaken(alias: string): boolean {
    return this.live().some((p) => p.alias === alias);
  }

  list(): ProcessEntry[] {
    return [...this.byId.values()].map((p) => p.entry());
  }

  get(idOrAlias: string): ProcessEntry | undefined {
    return this.control(idOrAlias)?.entry();
  }

  digest(): string {
    const now = Date.now();
    const entries = this.list();
    const running = entries.filter((e) => e.state === 'running' || e.state === 'waiting-for-input');
    const ended = entries.filter((e) => e.kind === 'spawn' && e.endedAt !== undefined && now - e.endedAt < DIGEST_RECENT_END_MS);
    if (running.length === 0 && ended.length === 0) return '';
    const parts: string[] = [];
    if (running.length) {
      const items = running.slice(0, DIGEST_MAX_ITEMS).map((e) => {
        // `waiting for input: ""` and a trailing `""` read like mish lost something: say what is there.
        const repeated = !e.waiting && this.shownLastLine.get(e.id) === e.lastLine;
        this.shownLastLine.set(e.id, e.lastLine);
        const what = e.waiting
          ? `, waiting for input${e.waiting.prompt ? `: ${JSON.stringify(e.waiting.prompt)}` : ' (no prompt printed)'}${e.waiting.secret ? ' (secret)' : ''}`
          : e.lastLine && !repeated
            ? `, ${JSON.stringify(e.lastLine)}`
            : '';
        return `${e.alias ?? e.id}(pid ${e.pid}, ${formatElapsed(e.elapsedMs)}${what})`;
      });
      if (running.length > DIGEST_MAX_ITEMS) items.push(`+${running.length - DIGEST_MAX_ITEMS} more`);
      parts.push(`${running.length} running: ${items.join(', ')}`);
    }
    if (ended.length) {
      const items = ended.slice(-DIGEST_MAX_ITEMS).map((e) => `${e.alias ?? e.id}(${e.state === 'killed' ? 'killed' : `exit ${e.exitCode}`}, ${formatElapsed(e.elapsedMs)})`);
      parts.push(`${ended.length} ended: ${items.join(', ')}`);
    }
    return `[procs] ${parts.join(' · ')}`;
  }

  /** The final entry of an ended process the table no longer holds (its output is read from its spool). */
  forgotten(idOrAlias: string): ProcessEntry | undefined {
    return byIdOrAlias(this.forgottenById, idOrAlias, (e) => e.alias);
  }

  private prune(): void {
    // Forget what ended longest ago, not what started first: a long build that just ended outlives 64 quick commands before it.
    const ended = [...this.byId.values()].filter((p) => p.ended).sort((a, b) => (a.endedAtMs ?? 0) - (b.endedAtMs ?? 0));
    for (let i = 0; i < ended.length - MAX_ENDED_ENTRIES; i++) {
      const entry = ended[i].entry();
      this.byId.delete(entry.id);
      this.shownLastLine.delete(entry.id);
      if (entry.spoolRef) this.forgottenById.set(entry.id, entry);
      this.onRemove(entry);
    }
    for (const id of this.forgottenById.keys()) {
      if (this.forgottenById.size <= MAX_FORGOTTEN_ENTRIES) break;
      this.forgottenById.delete(id);
    }
  }
}

/** By id, else the latest entry with that alias (a restarted "dev" replaces the old one). */
function byIdOrAlias<T>(map: Map<string, T>, idOrAlias: string, aliasOf: (x: T) => string | undefined): T | undefined {
  const direct = map.get(idOrAlias);
  if (direct) return direct;
  let found: T | undefined;
  for (const x of map.values()) if (aliasOf(x) === idOrAlias) found = x;
  return found;
}

export function formatElapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  return `${Math.floor(s / 3600)}h${Math.floor((s % 3600) / 60)}m`;
}

/**
 * Each session's command timeline with its figures: start, output counted as it flows, end with
 * exit code and duration, what the agent saw, and the raw output's tokens (counted from the
 * spool once the command ended). Changed commands are collected for the hub's next view tick.
 *
 * One job: the CommandInfo records. Sessions, servers and views are the hub's.
 */
import type { CommandInfo } from '../../shared/contract.js';
import { stripAnsi } from '../core/squasher/vt-stripper.js';
import { countTokens } from '../core/format/tokens.js';
import type { HubProcess } from './hub-types.js';

/** Commands kept per session in the timeline. */
const TIMELINE_MAX = 200;
/**
 * A running command's growing figures (raw lines/bytes) go to views at most this often: once a
 * second, with the elapsed clocks (each update is a render of the page, on the agent's machine).
 */
export const LIVE_FIGURES_MS = 1000;
/** Raw output above this is not tokenized on the spot (≈300 ms of CPU); its token count is estimated. */
const TOKENIZE_MAX_BYTES = 4 * 1024 * 1024;
/** Reading a spool another process just closed: retries, first delay (doubling), ≈ 3 s in all. */
const SPOOL_RETRIES = 5;
const SPOOL_RETRY_MS = 100;
/** Bytes per token of typical terminal output, for the estimate above. */
const BYTES_PER_TOKEN_ESTIMATE = 4;

export class CommandTimelines {
  private readonly timelines = new Map<string, CommandInfo[]>();
  private readonly commands = new Map<string, CommandInfo>();
  private figuresTimer?: NodeJS.Timeout;
  /** Running commands whose raw figures grew since views last heard. */
  private readonly grown = new Set<CommandInfo>();

  /** `changed` is called with a command whose state views should hear (the hub batches them). */
  constructor(private readonly changed: (c: CommandInfo) => void) {}

  /** A session's timeline, oldest first. */
  timeline(sessionId: string): CommandInfo[] {
    return this.timelines.get(sessionId) ?? [];
  }

  get(sessionId: string, commandId: string | undefined): CommandInfo | undefined {
    return commandId === undefined ? undefined : this.commands.get(`${sessionId}#${commandId}`);
  }

  start(sessionId: string, id: string, command: string, at: number, extra: Pick<CommandInfo, 'outputOffset' | 'approval'> = {}): CommandInfo {
    // A server seen again (a remote link back up) replays its recent commands: known ones stay one row.
    const known = this.commands.get(`${sessionId}#${id}`);
    if (known) return known;
    return this.add({ id, sessionId, command, startedAt: at, state: 'running', rawBytes: 0, rawLines: 0, ...extra });
  }

  /**
   * A command that never ran (the operator denied it, nobody decided in time, the agent gave up
   * waiting): a finished row of its own, with the decision and no exit code. Id: the approval's.
   */
  neverRan(sessionId: string, command: string, approval: NonNullable<CommandInfo['approval']>): CommandInfo {
    const known = this.commands.get(`${sessionId}#${approval.id}`);
    if (known) return known;
    return this.add({ id: approval.id, sessionId, command, startedAt: approval.askedAt ?? approval.at, state: 'done', rawBytes: 0, rawLines: 0, approval });
  }

  private add(c: CommandInfo): CommandInfo {
    const { sessionId, id } = c;
    this.commands.set(`${sessionId}#${id}`, c);
    const list = this.timelines.get(sessionId) ?? [];
    // In time order: a row read back later (history from the audit log, a server's replay) goes before newer ones.
    let at = list.length;
    while (at > 0 && list[at - 1].startedAt > c.startedAt) at--;
    list.splice(at, 0, c);
    while (list.length > TIMELINE_MAX) this.commands.delete(`${sessionId}#${list.shift()!.id}`);
    this.timelines.set(sessionId, list);
    this.changed(c);
    return c;
  }

  update(c: CommandInfo, patch: Partial<CommandInfo>): void {
    Object.assign(c, patch);
    if (patch.agentSaw !== undefined) c.tokensShown = countTokens(patch.agentSaw);
    if (patch.agentSaw !== undefined) c.shownLines = patch.agentSaw === '' ? 0 : patch.agentSaw.split('\n').length;
    this.changed(c);
  }

  /** A running command's output grew: count it, and tell views (throttled). */
  grow(c: CommandInfo, chunk: Uint8Array): void {
    c.rawBytes += chunk.length;
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (let i = buf.indexOf(0x0a); i !== -1; i = buf.indexOf(0x0a, i + 1)) c.rawLines++;
    this.grown.add(c);
    this.figuresTimer ??= setTimeout(() => {
      this.figuresTimer = undefined;
      for (const g of this.grown) if (g.state !== 'done') this.changed(g);
      this.grown.clear();
    }, LIVE_FIGURES_MS);
  }

  /** Tokens of the raw output, ANSI stripped, from the spool; estimated above TOKENIZE_MAX_BYTES. */
  async countRawTokens(c: CommandInfo, process: () => HubProcess | undefined): Promise<void> {
    // Nothing printed (`true`, `cd`, `mkdir`): nothing to read from the spool (agents run many of these).
    if (c.rawBytes === 0) {
      this.update(c, { tokensRaw: 0 });
      return;
    }
    if (c.rawBytes > TOKENIZE_MAX_BYTES) {
      this.update(c, { tokensRaw: Math.round(c.rawBytes / BYTES_PER_TOKEN_ESTIMATE), tokensApprox: true });
      return;
    }
    // Another process's spool is complete a moment after its command ends (its index is written on close).
    for (let attempt = 0, delay = SPOOL_RETRY_MS; attempt < SPOOL_RETRIES; attempt++, delay *= 2) {
      const proc = process();
      if (!proc) return;
      try {
        const text = stripAnsi((await proc.read()).lines.map((l) => l.text).join('\n'));
        this.update(c, { tokensRaw: countTokens(text) });
        return;
      } catch {
        await new Promise((r) => setTimeout(r, delay));
      }
    }
    // spool gone (pruned) or unreadable: no figure rather than a wrong one
  }

  dispose(): void {
    clearTimeout(this.figuresTimer);
  }
}

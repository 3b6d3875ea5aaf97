/**
 * Notifications (issue 24): a webhook POST for what needs the operator — an approval waiting,
 * a session waiting for input or for a secret, a command failing after a long run. The
 * notifier is one more view of the hub (a ConsoleClient): it watches the same snapshots and
 * command updates a page does, and posts each event once.
 *
 * Only secret-masked text leaves: the command, prompt and rule go through the engine's
 * Redactor (known secret environment values, the vendor and context rules) first, and the deep link
 * carries no token (the browser that opened the console once keeps it). A burst beyond
 * `maxPerMinute` is counted and sent as one summary when the minute allows.
 */
import type { CommandInfo, EventName, EventPayload, RequestResult } from '../../shared/contract.js';
import { Redactor } from '../core/redact/redactor.js';
import type { NotifyKind, NotifySettings } from './console-config.js';
import type { ConsoleClient } from './hub-types.js';

/** The window of the rate limit. */
const RATE_WINDOW_MS = 60_000;
/** A webhook that does not answer in this long is given up on for that event (never retried: stale news). */
const POST_TIMEOUT_MS = 5_000;
/** Commands longer than this are cut in a notification (a phone shows a line or two). */
const COMMAND_MAX_CHARS = 300;

/** What the webhook receives (JSON). `text` is a one-line summary for chat webhooks (Slack, ntfy, Mattermost). */
export interface Notification {
  kind: NotifyKind | 'suppressed';
  agent?: string;
  session?: string;
  command?: string;
  rule?: string;
  prompt?: string;
  exitCode?: number;
  durationMs?: number;
  /** Into the console: the session (and approval) to open. */
  link: string;
  at: number;
  /** Events left out by the rate limit since the last notification. */
  suppressed?: number;
  text: string;
}

/** Sliding-window rate limit; what it refuses is counted. */
export class RateLimit {
  private readonly sent: number[] = [];
  constructor(
    private readonly max: number,
    private readonly windowMs = RATE_WINDOW_MS,
  ) {}
  /** True when one more may go now (and counts it). */
  take(now = Date.now()): boolean {
    while (this.sent.length && now - this.sent[0] >= this.windowMs) this.sent.shift();
    if (this.sent.length >= this.max) return false;
    this.sent.push(now);
    return true;
  }
  /** Milliseconds until one more may go. */
  waitMs(now = Date.now()): number {
    return this.sent.length < this.max ? 0 : Math.max(0, this.windowMs - (now - this.sent[0]));
  }
}

export type Post = (url: string, body: Notification) => Promise<void>;

const postJson: Post = async (url, body) => {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(POST_TIMEOUT_MS) });
  if (!r.ok) throw new Error(`HTTP ${r.status}`);
};

export class Notifier implements ConsoleClient {
  private readonly seen = new Set<string>();
  private readonly limit: RateLimit;
  private readonly redactor = new Redactor({ env: process.env });
  private suppressed = 0;
  private summaryTimer?: NodeJS.Timeout;
  private queue: Promise<void> = Promise.resolve();
  private agents = new Map<string, string>();
  private lastError?: string;

  constructor(
    private readonly settings: NotifySettings,
    /** The console's base URL for deep links (without its token). */
    private readonly consoleUrl: string,
    private readonly log: (line: string) => void = (l) => process.stderr.write(`mish console: ${l}\n`),
    private readonly post: Post = postJson,
    rateWindowMs = RATE_WINDOW_MS,
  ) {
    this.limit = new RateLimit(settings.maxPerMinute, rateWindowMs);
  }

  send<E extends EventName>(event: E, payload: EventPayload<E>): void {
    if (event === 'hub:changed') this.onHub(payload as RequestResult<'hub:snapshot'>);
    else if (event === 'command:updated') this.onCommand(payload as CommandInfo);
  }

  /** Everything queued has been posted (or given up on). */
  flushed(): Promise<void> {
    return this.queue;
  }

  dispose(): void {
    clearTimeout(this.summaryTimer);
  }

  onHub(hub: RequestResult<'hub:snapshot'>): void {
    for (const s of hub.servers) this.agents.set(s.id, `${s.name}${s.version ? ` ${s.version}` : ''}`);
    for (const a of hub.approvals) {
      this.emit(`approval:${a.serverId}/${a.id}`, 'approval', {
        agent: this.agents.get(a.serverId),
        session: a.session,
        command: a.command,
        rule: a.rule ?? a.dangers.map((d) => d.id).join(', '),
        link: this.link(a.sessionId, a.id),
      });
    }
    // A secret prompt is a handoff when the console is an operator of its server (the usual
    // case), else a session waiting with `secret`: keyed by the command, so it is posted once.
    for (const h of hub.handoffs) {
      if (h.state !== 'pending' || h.why !== 'secret-prompt') continue;
      const sessionId = h.sessionId ?? `${h.serverId}/`;
      this.emit(`secret:${sessionId}#${h.processId}`, 'secret', { agent: this.agents.get(h.serverId), session: sessionId.slice(sessionId.lastIndexOf('/') + 1), command: h.command, prompt: h.prompt, link: this.link(sessionId) });
    }
    for (const s of hub.sessions) {
      if (s.state !== 'waiting' || !s.waiting) continue;
      const kind: NotifyKind = s.waiting.secret ? 'secret' : 'input';
      this.emit(`${kind}:${s.id}#${s.commandId ?? s.waiting.since}`, kind, { agent: this.agents.get(s.serverId), session: s.name, command: s.command, prompt: s.waiting.prompt, link: this.link(s.id) });
    }
  }

  onCommand(c: CommandInfo): void {
    if (c.state !== 'done' || c.exitCode === undefined || c.exitCode === 0) return;
    if ((c.durationMs ?? 0) < this.settings.longRunSeconds * 1000) return;
    const serverId = c.sessionId.slice(0, c.sessionId.lastIndexOf('/'));
    this.emit(`failed:${c.sessionId}#${c.id}`, 'failed', {
      agent: this.agents.get(serverId),
      session: c.sessionId.slice(c.sessionId.lastIndexOf('/') + 1),
      command: c.command,
      exitCode: c.exitCode,
      durationMs: c.durationMs,
      link: this.link(c.sessionId),
    });
  }

  private link(sessionId: string, approvalId?: string): string {
    const base = (this.settings.consoleUrl ?? this.consoleUrl).replace(/[#?].*$/, '').replace(/\/?$/, '/');
    return `${base}#session=${encodeURIComponent(sessionId)}${approvalId ? `&approval=${encodeURIComponent(approvalId)}` : ''}`;
  }

  private emit(key: string, kind: NotifyKind, fields: Omit<Notification, 'kind' | 'at' | 'text'>): void {
    if (this.seen.has(key)) return;
    this.seen.add(key);
    if (!this.settings.events.includes(kind)) return;
    if (!this.limit.take()) {
      this.suppressed++;
      this.scheduleSummary();
      return;
    }
    const suppressed = this.suppressed;
    this.suppressed = 0;
    this.deliver({ kind, ...fields, at: Date.now(), ...(suppressed ? { suppressed } : {}) });
  }

  /** After a burst: one notification saying how many were left out, when the window allows. */
  private scheduleSummary(): void {
    this.summaryTimer ??= setTimeout(() => {
      this.summaryTimer = undefined;
      if (this.suppressed === 0) return;
      if (!this.limit.take()) return this.scheduleSummary();
      const n = this.suppressed;
      this.suppressed = 0;
      this.deliver({ kind: 'suppressed', suppressed: n, link: this.link('').replace(/#session=$/, ''), at: Date.now() });
    }, this.limit.waitMs() + 10);
    this.summaryTimer.unref?.();
  }

  /** Masks, then posts in order (one at a time); a failure is said once per kind of failure. */
  private deliver(n: Omit<Notification, 'text'>): void {
    this.queue = this.queue.then(async () => {
      const keys = (['command', 'prompt', 'rule'] as const).filter((k) => n[k] !== undefined);
      const masked = await this.redactor.redactStrings(keys.map((k) => n[k]!), keys.map(() => '\u0000'));
      const out: Notification = { ...n, text: '' };
      keys.forEach((k, i) => (out[k] = k === 'command' ? cut(masked[i]) : masked[i]));
      out.text = summary(out);
      try {
        await this.post(this.settings.webhook, out);
        this.lastError = undefined;
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        if (why !== this.lastError) this.log(`notify: the webhook did not take a notification (${why}); later ones are still tried`);
        this.lastError = why;
      }
    });
  }
}

function cut(s: string): string {
  return s.length > COMMAND_MAX_CHARS ? `${s.slice(0, COMMAND_MAX_CHARS - 1)}…` : s;
}

function summary(n: Notification): string {
  const who = [n.agent, n.session].filter(Boolean).join(' · ');
  switch (n.kind) {
    case 'approval':
      return `⚠ ${who}: approve? ${n.command ?? ''} (rule ${n.rule ?? '?'})`;
    case 'input':
      return `⌨ ${who} waits for input: ${n.prompt || n.command || ''}`;
    case 'secret':
      return `⌨ ${who} waits for a secret: ${n.prompt || n.command || ''}`;
    case 'failed':
      return `✘ ${who}: ${n.command ?? ''} failed (exit ${n.exitCode}) after ${Math.round((n.durationMs ?? 0) / 1000)} s`;
    case 'suppressed':
      return `${n.suppressed} more notification${n.suppressed === 1 ? '' : 's'} held back (rate limit); open the console`;
  }
}

/**
 * Each session's terminal output as the hub keeps it for views: a bounded ring of chunks with
 * their stream offsets, batched to views once a frame, with acknowledged-bytes flow control and
 * a rate per view (a flood skips to the newest, and says how much it skipped).
 *
 * One job: bytes in, bytes out to subscribed views. Which server a session belongs to and when
 * its output is acknowledged to that server is the hub's (the `onFlushed` callback).
 */
import type { ConsoleClient } from './hub-types.js';

/** Scrollback kept per session for views that open late or fall behind: ~4,000 wide lines. */
const BACKLOG_BYTES = 512 * 1024;
/** Output batching like Hyper: one message per 16 ms (a frame) instead of one per PTY read. */
const BATCH_INTERVAL_MS = 16;
/** ... and never a message larger than this, so a flood is cut into frame-sized pieces. */
const BATCH_MAX_BYTES = 128 * 1024;
/**
 * Flow control (VS Code's terminal: high/low watermarks on unacknowledged chars). A view that
 * has this many bytes sent but not yet written into its terminal gets no more …
 */
export const FLOW_HIGH_WATERMARK = 256 * 1024;
/** … until it acknowledges down to this. The agent's PTY is never paused: a slow view skips ahead in the backlog instead. */
export const FLOW_LOW_WATERMARK = 64 * 1024;
/**
 * What a view is sent of fast output (a token bucket per view): a terminal drawn in a browser
 * costs CPU on the agent's machine for every line (measured here: xterm in Chromium parsed and
 * drew ~1.5–2 MB/s with a full core; one 25 MB `sh_run` watched in full cost ~3–5 s of
 * Chromium's CPU and took 2.8–3.6× as long). 64 KB/s is still ~750 lines a second, beyond
 * anyone's reading; faster output skips to the newest (with a note; the raw pane reads every
 * line from the spool).
 */
export const VIEW_BYTES_PER_SECOND = 64 * 1024;
/** A burst up to this is drawn in full (a test run, a build step: ~1,500 lines at once). */
export const VIEW_BURST_BYTES = 128 * 1024;
/**
 * While output outruns a view, it gets one look at the newest output per this much budget (at
 * the rate above: two a second; each look is a render of the page, on the agent's machine) …
 */
const VIEW_FLOOD_PIECE_BYTES = 32 * 1024;
/**
 * … of this many newest bytes (~90 lines: the screen of a 120×30 terminal, twice). More of a
 * flood is lines scrolled past unseen, each costing the page a line's work. Measured on a 25 MB
 * `sh_run` watched: the page drew ~190 KB (the whole burst first, then 16 KB four times a
 * second) for ~120 ms of Chromium's main thread; ~25 KB in two or three looks for ~40 ms now.
 */
const VIEW_FLOOD_SHOWN_BYTES = 8 * 1024;

/** A view's budget for fast output (tests use their own). */
export interface ViewRate {
  bytesPerSecond: number;
  burst: number;
  piece: number;
  shown?: number;
}

export const DEFAULT_VIEW_RATE: ViewRate = { bytesPerSecond: VIEW_BYTES_PER_SECOND, burst: VIEW_BURST_BYTES, piece: VIEW_FLOOD_PIECE_BYTES, shown: VIEW_FLOOD_SHOWN_BYTES };

/** Output kept for one session: a ring of chunks with their stream offsets. */
export interface SessionStream {
  chunks: { offset: number; data: Buffer }[];
  /** Offset of the first byte still kept. */
  start: number;
  /** Offset of the next byte (bytes seen since the session started). */
  end: number;
  timer?: NodeJS.Timeout;
  subscribers: Map<ConsoleClient, Subscription>;
  /** On-demand servers: the output was opened (its backlog is in the ring). */
  opened?: Promise<void>;
  /**
   * On-demand servers: bytes received but not yet acknowledged to the server. The hub
   * acknowledges only while a view keeps up, so a server does not encode output nobody will
   * draw (its flow control skips it, as for any slow operator); the views skip ahead too.
   */
  owed: number;
}

interface Subscription {
  /** Offset up to which output was sent to the view. */
  sent: number;
  /** Offset up to which the view acknowledged having written it. */
  acked: number;
  /** True while sent − acked passed the high watermark (until it falls below the low one). */
  paused: boolean;
  /** Budget left of the view's rate (VIEW_BYTES_PER_SECOND), and when it was last topped up. */
  tokens: number;
  refilledAt: number;
  /** Bytes skipped and not yet reported to the view (with the next output it is sent). */
  skipped: number;
  /**
   * Output came faster than the view's rate at the last flush (it is shown the newest only). A
   * flooding view does not count as keeping up: the server's output is not acknowledged for it,
   * so the server pauses after its window and skips what nobody will draw, instead of encoding
   * and sending a whole flood to be dropped here (+100–170 ms of the server's CPU per 25 MB).
   */
  flooding?: boolean;
}

/** Every session's output ring and its views. */
export class OutputStreams {
  private readonly streams = new Map<string, SessionStream>();

  constructor(
    private readonly rate: ViewRate,
    /** After each flush (a view may now keep up: the hub acknowledges the server's output). */
    private readonly onFlushed: (sessionId: string, s: SessionStream) => void,
  ) {}

  get(sessionId: string): SessionStream | undefined {
    return this.streams.get(sessionId);
  }

  /** The session's ring, created empty on first use. */
  stream(sessionId: string): SessionStream {
    let s = this.streams.get(sessionId);
    if (!s) this.streams.set(sessionId, (s = { chunks: [], start: 0, end: 0, subscribers: new Map(), owed: 0 }));
    return s;
  }

  /** A session's shell ended: its output is sent, and its ring forgotten (a restart counts from zero). */
  close(sessionId: string): void {
    const s = this.streams.get(sessionId);
    if (!s) return;
    this.flush(sessionId, s);
    clearTimeout(s.timer);
    this.streams.delete(sessionId);
  }

  output(sessionId: string, chunk: Uint8Array): void {
    const s = this.stream(sessionId);
    const data = Buffer.from(chunk); // copy: the producer may reuse its buffer
    s.chunks.push({ offset: s.end, data });
    s.end += data.length;
    while (s.chunks.length > 1 && s.end - s.chunks[1].offset >= BACKLOG_BYTES) s.chunks.shift();
    s.start = s.chunks[0].offset;
    if (s.subscribers.size) this.schedule(sessionId, s);
  }

  /** A view starts watching at the ring's end; returns what the ring holds (its backlog). */
  subscribe(sessionId: string, client: ConsoleClient): { backlog: Buffer; offset: number } {
    const s = this.stream(sessionId);
    s.subscribers.set(client, { sent: s.end, acked: s.end, paused: false, tokens: this.rate.burst, refilledAt: Date.now(), skipped: 0 });
    return { backlog: Buffer.concat(s.chunks.map((c) => c.data)), offset: s.end };
  }

  unsubscribe(sessionId: string, client: ConsoleClient): void {
    this.streams.get(sessionId)?.subscribers.delete(client);
  }

  /** The view wrote output up to `offset`: below the low watermark, it gets more. */
  ack(sessionId: string, client: ConsoleClient, offset: number): void {
    const s = this.streams.get(sessionId);
    const sub = s?.subscribers.get(client);
    if (!s || !sub) return;
    sub.acked = Math.min(Math.max(sub.acked, offset), sub.sent);
    if (sub.paused && sub.sent - sub.acked <= FLOW_LOW_WATERMARK) {
      sub.paused = false;
      this.schedule(sessionId, s);
    }
  }

  /** Sends what is pending now (before a command's end, so a view never sees the end first). */
  flushIfAny(sessionId: string): void {
    const s = this.streams.get(sessionId);
    if (s) this.flush(sessionId, s);
  }

  /** Some view keeps up with everything the ring has (the server's output can be acknowledged). */
  keepsUp(s: SessionStream): boolean {
    for (const sub of s.subscribers.values()) if (!sub.paused && !sub.flooding && sub.sent >= s.end) return true;
    return false;
  }

  dispose(): void {
    for (const s of this.streams.values()) clearTimeout(s.timer);
    this.streams.clear();
  }

  private schedule(sessionId: string, s: SessionStream): void {
    s.timer ??= setTimeout(() => this.flush(sessionId, s), BATCH_INTERVAL_MS);
  }

  /**
   * Sends each subscriber what it has not had yet, within its flow-control window and its rate:
   * output faster than a view is drawn skips to the newest (the skip is reported to the view).
   */
  private flush(sessionId: string, s: SessionStream): void {
    clearTimeout(s.timer);
    s.timer = undefined;
    const now = Date.now();
    let more = false;
    let wakeIn: number | undefined;
    for (const [client, sub] of s.subscribers) {
      if (sub.paused) continue;
      sub.tokens = Math.min(this.rate.burst, sub.tokens + ((now - sub.refilledAt) * this.rate.bytesPerSecond) / 1000);
      sub.refilledAt = now;
      if (sub.sent < s.start) {
        // The view fell further behind than the backlog reaches: skip ahead, and say how much.
        sub.skipped += s.start - sub.sent;
        // Whatever was in flight counts as written: the view's later acks for it fall below this.
        sub.sent = sub.acked = s.start;
      }
      const budget = Math.floor(sub.tokens);
      sub.flooding = s.end - sub.sent > budget;
      if (sub.flooding) {
        // Faster than a view is drawn: wait for a piece's worth of budget, then send the newest.
        if (budget < this.rate.piece) {
          const ms = Math.ceil(((this.rate.piece - sub.tokens) * 1000) / this.rate.bytesPerSecond);
          wakeIn = Math.min(wakeIn ?? ms, ms);
          continue;
        }
        // Only the newest bytes are drawn (the rest of the budget would be lines scrolled past
        // in the same frame), and the whole budget is spent: a flood is one look per piece of rate.
        const shown = Math.min(this.rate.shown ?? this.rate.piece, this.rate.piece);
        sub.skipped += s.end - shown - sub.sent;
        sub.sent = sub.acked = s.end - shown;
        sub.tokens -= budget - shown;
        // Come back when the next look is due even if nothing new arrives: then the view is
        // level with the stream and the server's output is acknowledged again (see `flooding`).
        const again = Math.ceil((this.rate.piece * 1000) / this.rate.bytesPerSecond);
        wakeIn = Math.min(wakeIn ?? again, again);
      }
      while (sub.sent < s.end) {
        const window = FLOW_HIGH_WATERMARK - (sub.sent - sub.acked);
        if (window <= 0) {
          sub.paused = true;
          break;
        }
        const n = Math.min(s.end - sub.sent, window, BATCH_MAX_BYTES);
        const data = slice(s, sub.sent, sub.sent + n);
        client.send('session:output', { sessionId, data: data.toString('base64'), offset: sub.sent, ...(sub.skipped ? { skipped: sub.skipped } : {}) });
        sub.skipped = 0;
        sub.sent += n;
        sub.tokens -= n;
      }
      if (!sub.paused && sub.sent < s.end) more = true;
    }
    if (more) this.schedule(sessionId, s);
    else if (wakeIn !== undefined) s.timer = setTimeout(() => this.flush(sessionId, s), wakeIn);
    this.onFlushed(sessionId, s);
  }
}

/** Bytes [from, to) of the ring (both within it). */
function slice(s: SessionStream, from: number, to: number): Buffer {
  const parts: Buffer[] = [];
  for (const c of s.chunks) {
    const cEnd = c.offset + c.data.length;
    if (cEnd <= from) continue;
    if (c.offset >= to) break;
    parts.push(c.data.subarray(Math.max(0, from - c.offset), Math.min(c.data.length, to - c.offset)));
  }
  return parts.length === 1 ? parts[0] : Buffer.concat(parts);
}

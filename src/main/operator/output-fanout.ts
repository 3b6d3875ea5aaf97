/**
 * The operator wire's output streams on a server (one per session and per background process):
 * a bounded backlog for operators that subscribe late, batching (one message a frame), and flow
 * control per operator — an operator that falls behind misses bytes (the next chunk's offset
 * shows the gap) and, once it acknowledges, gets the newest it missed; the PTY never waits.
 *
 * One job: bytes to subscribed operators. Who they are and what they may do is operator-host.ts's.
 */
import { OUTPUT_HIGH_WATERMARK, OUTPUT_LOW_WATERMARK, type StreamRef } from '../../shared/operator-wire.js';
import type { OperatorPeer } from './operator-host-types.js';

/** Recent output a newly subscribed operator gets first (as the console: ~2,000 wide lines). */
const BACKLOG_BYTES = 256 * 1024;
/** Output batching like Hyper: one message per frame (16 ms) instead of one per PTY read. */
const BATCH_INTERVAL_MS = 16;
/** ... or sooner when a batch grows this large. */
const BATCH_MAX_BYTES = 200 * 1024;
/**
 * When acknowledgements resume a paused operator, the newest output it missed (up to this much)
 * goes to it at once: a flood that ended while it was paused would otherwise leave the operator's
 * terminal on a screen from the middle of the run, without the last lines (where a build says
 * why it failed), until the session printed again. ~700 lines of a wide terminal: the console
 * draws the newest screens of it.
 */
const CATCH_UP_BYTES = 64 * 1024;

/** One client's flow control on one stream. */
export interface Subscription {
  unacked: number;
  paused: boolean;
  /** The stream offset this client has been sent (or told about) up to. */
  next: number;
}

/** What the fan-out needs of a connected operator. */
export interface FanoutClient {
  peer: OperatorPeer;
  subs: Map<string, Subscription>;
}

export interface Stream<C extends FanoutClient> {
  ref: StreamRef;
  backlog: Buffer[];
  backlogBytes: number;
  offset: number;
  pending: Buffer[];
  pendingBytes: number;
  pendingOffset: number;
  timer?: NodeJS.Timeout;
  subscribers: Set<C>;
}

export const streamKey = (s: StreamRef) => `${s.kind}:${s.id}`;

export class OutputFanout<C extends FanoutClient> {
  private readonly streams = new Map<string, Stream<C>>();

  stream(ref: StreamRef): Stream<C> {
    const key = streamKey(ref);
    let s = this.streams.get(key);
    if (!s) {
      s = { ref, backlog: [], backlogBytes: 0, offset: 0, pending: [], pendingBytes: 0, pendingOffset: 0, subscribers: new Set() };
      this.streams.set(key, s);
    }
    return s;
  }

  /** Starts sending a stream to `client` (after what is pending); returns its backlog and where it ends. */
  subscribe(client: C, ref: StreamRef): { backlog: string; offset: number; wasWatching: boolean } {
    const stream = this.stream(ref);
    this.flush(stream);
    const wasWatching = stream.subscribers.has(client);
    stream.subscribers.add(client);
    client.subs.set(streamKey(ref), { unacked: 0, paused: false, next: stream.offset });
    return { backlog: Buffer.concat(stream.backlog).toString('base64'), offset: stream.offset, wasWatching };
  }

  /** Offset of the stream's next byte (where output written from now on starts). */
  offsetOf(ref: StreamRef): number {
    return this.streams.get(streamKey(ref))?.offset ?? 0;
  }

  /** Some client receives this stream's output. */
  watched(ref: StreamRef): boolean {
    return (this.streams.get(streamKey(ref))?.subscribers.size ?? 0) > 0;
  }

  unsubscribe(client: C, key: string): void {
    this.streams.get(key)?.subscribers.delete(client);
    client.subs.delete(key);
  }

  /** The client wrote `bytes` more: below the low watermark it resumes with the newest it missed. */
  ack(client: C, ref: StreamRef, bytes: number): void {
    const sub = client.subs.get(streamKey(ref));
    if (!sub) return;
    sub.unacked = Math.max(0, sub.unacked - bytes);
    if (sub.paused && sub.unacked < OUTPUT_LOW_WATERMARK) {
      sub.paused = false;
      this.catchUp(client, ref, sub);
    }
  }

  /** The client went away: it is no stream's subscriber any more. */
  drop(client: C): void {
    for (const key of client.subs.keys()) this.streams.get(key)?.subscribers.delete(client);
  }

  output(ref: StreamRef, chunk: Uint8Array): void {
    const s = this.stream(ref);
    const buf = Buffer.from(chunk);
    s.backlog.push(buf);
    s.backlogBytes += buf.length;
    while (s.backlog.length > 1 && s.backlogBytes - s.backlog[0].length >= BACKLOG_BYTES) s.backlogBytes -= s.backlog.shift()!.length;
    if (s.pendingBytes === 0) s.pendingOffset = s.offset;
    s.offset += buf.length;
    if (s.subscribers.size === 0) return;
    s.pending.push(buf);
    s.pendingBytes += buf.length;
    if (s.pendingBytes >= BATCH_MAX_BYTES) this.flush(s);
    else if (!s.timer) {
      s.timer = setTimeout(() => this.flush(s), BATCH_INTERVAL_MS);
      s.timer.unref?.();
    }
  }

  /** Sends what is pending on a stream now (before an end or a state change that must follow it). */
  flushKey(key: string): void {
    const s = this.streams.get(key);
    if (s) this.flush(s);
  }

  /** The stream ended (its session closed, its process forgotten): pending output is sent (`flush`), its backlog dropped. */
  remove(key: string, flush: boolean): void {
    const s = this.streams.get(key);
    if (!s) return;
    if (flush) this.flush(s);
    clearTimeout(s.timer);
    this.streams.delete(key);
  }

  dispose(): void {
    for (const s of this.streams.values()) clearTimeout(s.timer);
    this.streams.clear();
  }

  private flush(s: Stream<C>): void {
    clearTimeout(s.timer);
    s.timer = undefined;
    if (s.pendingBytes === 0) return;
    const offset = s.pendingOffset;
    const length = s.pendingBytes;
    const pending = s.pending;
    s.pending = [];
    s.pendingBytes = 0;
    const key = streamKey(s.ref);
    // Encoded only for an operator that takes it: output all operators are behind on costs nothing.
    let data: string | undefined;
    for (const c of s.subscribers) {
      const sub = c.subs.get(key);
      if (!sub || sub.paused) continue; // skipped: the next chunk's offset shows the gap
      // A batch that would overflow the window of an operator already behind is not sent either:
      // acknowledgements resume it with the newest output (catchUp), not with this older batch.
      if (sub.unacked > 0 && sub.unacked + length > OUTPUT_HIGH_WATERMARK) {
        sub.paused = true;
        continue;
      }
      data ??= Buffer.concat(pending).toString('base64');
      sub.unacked += length;
      sub.next = offset + length;
      if (sub.unacked > OUTPUT_HIGH_WATERMARK) sub.paused = true;
      c.peer.send({ type: 'output', stream: s.ref, data, offset });
    }
  }

  /**
   * An operator resumed after a pause gets the newest output it missed (at most CATCH_UP_BYTES,
   * from the backlog; the offset shows the gap). Output still waiting for its batch goes out with
   * that batch.
   */
  private catchUp(client: C, ref: StreamRef, sub: Subscription): void {
    const s = this.streams.get(streamKey(ref));
    if (!s) return;
    const end = s.pendingBytes ? s.pendingOffset : s.offset;
    const backlogStart = s.offset - s.backlogBytes;
    const from = Math.max(sub.next, end - CATCH_UP_BYTES, backlogStart);
    if (from >= end) return;
    const data = Buffer.concat(s.backlog).subarray(from - backlogStart, end - backlogStart);
    sub.unacked += data.length;
    sub.next = end;
    client.peer.send({ type: 'output', stream: s.ref, data: data.toString('base64'), offset: from });
  }
}

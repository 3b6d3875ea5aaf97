/**
 * MCP over stdio: newline-delimited JSON-RPC on stdin/stdout.
 *
 * Why not the SDK's StdioServerTransport as is: it drops a malformed line silently (onerror
 * only) and closes the whole transport when one line exceeds its buffer. JSON-RPC 2.0 §5 wants
 * a Parse error / Invalid Request response, and a shell server must survive any garbage a
 * client sends. This transport answers every bad line with a JSON-RPC error and keeps going;
 * valid messages are parsed with the SDK's own schema.
 */
import type { Readable, Writable } from 'node:stream';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { FrameReader } from '../operator/framing.js';

/** Largest accepted message; a longer line is discarded (and answered with an error) instead of buffered forever. */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
/** "Server not initialized" (the code LSP and many MCP servers use for requests before initialize). */
export const NOT_INITIALIZED = -32002;
/** The only requests MCP's lifecycle allows before initialize has been answered. */
const ALLOWED_BEFORE_INITIALIZE = new Set(['initialize', 'ping']);

export class RobustStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private closed = false;
  /** Set once a successful response to `initialize` went out: the MCP lifecycle has begun. */
  private initialized = false;
  /** Ids of initialize requests seen, so their successful response opens the lifecycle. */
  private readonly initializeIds = new Set<string | number>();
  /** Outgoing lines waiting for stdout to drain: one queue and one 'drain' listener, whatever the backlog. */
  private readonly queue: { text: string; done: () => void }[] = [];
  private awaitingDrain = false;

  constructor(
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
  ) {}

  /** Lines of stdin; a line longer than MAX_MESSAGE_BYTES is discarded (and answered with an error) instead of buffered forever. */
  private readonly reader = new FrameReader(
    (line) => this.handleLine(line.replace(/\r$/, '')),
    () => this.sendError(null, INVALID_REQUEST, `message larger than ${MAX_MESSAGE_BYTES} bytes discarded`),
    MAX_MESSAGE_BYTES,
  );

  private readonly onData = (chunk: Buffer) => this.reader.push(chunk);

  private readonly onEnd = () => void this.close();
  private readonly onStreamError = (error: Error) => {
    this.onerror?.(error);
    void this.close();
  };

  private handleLine(line: string): void {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      this.onerror?.(new Error(`parse error: ${(e as Error).message}`));
      this.sendError(null, PARSE_ERROR, `Parse error: ${(e as Error).message}`);
      return;
    }
    if (Array.isArray(value)) {
      this.sendError(null, INVALID_REQUEST, 'Invalid Request: JSON-RPC batches are not supported by MCP');
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = value && typeof value === 'object' && 'id' in value && (typeof value.id === 'string' || typeof value.id === 'number') ? value.id : null;
      this.onerror?.(new Error(`invalid JSON-RPC message: ${line.slice(0, 200)}`));
      // A malformed notification (no id) gets no response would be the letter of the spec, but
      // a client that sent garbage learns more from an error with id null.
      this.sendError(id, INVALID_REQUEST, 'Invalid Request: not a JSON-RPC 2.0 request, notification or response');
      return;
    }
    const msg = parsed.data as { id?: string | number; method?: string };
    if (!this.initialized && msg.method !== undefined) {
      if (msg.id === undefined) {
        // A notification before initialize: nothing to answer, and nothing of it is acted on.
        this.onerror?.(new Error(`notification ${msg.method} before initialize ignored`));
        return;
      }
      if (!ALLOWED_BEFORE_INITIALIZE.has(msg.method)) {
        this.sendError(msg.id, NOT_INITIALIZED, `Server not initialized: send initialize first (only ping is allowed before it); ${msg.method} was not run`);
        return;
      }
      if (msg.method === 'initialize') this.initializeIds.add(msg.id);
    }
    try {
      this.onmessage?.(parsed.data);
    } catch (e) {
      this.onerror?.(e as Error);
    }
  }

  private sendError(id: string | number | null, code: number, message: string): void {
    this.write(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }) + '\n').catch(() => {});
  }

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('error', this.onStreamError);
    this.stdout.on('error', this.onStreamError);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('end', this.onEnd);
    this.stdin.off('error', this.onStreamError);
    this.stdin.pause();
    // Nothing more will drain: whoever waits on a queued line is released.
    for (const q of this.queue.splice(0)) q.done();
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    const m = message as { id?: string | number; result?: unknown };
    if (!this.initialized && m.id !== undefined && m.result !== undefined && this.initializeIds.has(m.id)) {
      this.initialized = true;
      this.initializeIds.clear();
    }
    return this.write(JSON.stringify(message) + '\n');
  }

  /** Queues a line; resolves once stdout has taken it (after a drain when its buffer was full). */
  private write(text: string): Promise<void> {
    if (this.closed || this.stdout.destroyed) return Promise.resolve();
    return new Promise((done) => {
      this.queue.push({ text, done });
      this.flush();
    });
  }

  private flush(): void {
    while (!this.awaitingDrain && this.queue.length) {
      const { text, done } = this.queue.shift()!;
      if (this.stdout.destroyed) {
        done();
        continue;
      }
      if (this.stdout.write(text)) {
        done();
        continue;
      }
      // The line is buffered; later lines wait behind it until stdout drains.
      this.awaitingDrain = true;
      this.stdout.once('drain', () => {
        this.awaitingDrain = false;
        done();
        this.flush();
      });
    }
  }
}

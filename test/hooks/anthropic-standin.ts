/**
 * A scripted stand-in for the Anthropic Messages API on 127.0.0.1, enough for a real Claude
 * Code to run headless: every streaming `POST /v1/messages` that offers the Bash tool gets the
 * next scripted step — a `tool_use` of Bash with a chosen command, then (once the tool_result
 * comes back) a short text answer; a step of several commands makes one conversation call Bash
 * once per command, each after the previous one's tool_result. Requests without tools (titles, summaries) get plain text.
 * It records every tool_result Claude Code sent, so a test sees exactly what the model received.
 */
import http from 'node:http';
import { listenOnLoopback } from './standin-server.js';

export interface ToolResult {
  toolUseId: string;
  content: string;
  isError: boolean;
}

/** A scripted call of another of Claude Code's tools (Write, Edit, …) with this input. */
export interface ToolStep {
  tool: string;
  input: Record<string, unknown>;
}

export interface StandIn {
  url: string;
  /** The commands to make Claude Code run, in order: one conversation each (several commands: one conversation running them in turn). */
  script: (string | string[] | ToolStep)[];
  results: ToolResult[];
  requests: number;
  close(): Promise<void>;
}

type Block = { type: string; text?: string; tool_use_id?: string; content?: unknown; is_error?: boolean };
interface Body {
  stream?: boolean;
  tools?: { name: string }[];
  messages?: { role: string; content: string | Block[] }[];
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((c: Block) => (c.type === 'text' ? (c.text ?? '') : '')).join('');
  return '';
}

function sse(res: http.ServerResponse, events: Record<string, unknown>[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'request-id': 'req_standin' });
  for (const e of events) res.write(`event: ${e.type as string}\ndata: ${JSON.stringify(e)}\n\n`);
  res.end();
}

let ids = 0;
function message(blocks: ({ type: 'text'; text: string } | { type: 'tool_use'; name: string; input: Record<string, unknown> })[], stop: string): Record<string, unknown>[] {
  const id = `msg_standin_${++ids}`;
  const out: Record<string, unknown>[] = [
    { type: 'message_start', message: { id, type: 'message', role: 'assistant', model: 'claude-standin', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 12, output_tokens: 1 } } },
  ];
  blocks.forEach((b, index) => {
    if (b.type === 'text') {
      out.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      out.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: b.text } });
    } else {
      out.push({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: `toolu_standin_${++ids}`, name: b.name, input: {} } });
      out.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) } });
    }
    out.push({ type: 'content_block_stop', index });
  });
  out.push({ type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 20 } });
  out.push({ type: 'message_stop' });
  return out;
}

export async function startStandIn(script: (string | string[])[] = []): Promise<StandIn> {
  const state: StandIn = { url: '', script, results: [], requests: 0, close: async () => {} };
  /** The rest of the current conversation's commands. */
  let followUps: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.requests++;
      if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `stand-in serves POST /v1/messages only (${req.method} ${req.url})` } }));
        return;
      }
      let body: Body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Body;
      } catch {
        res.writeHead(400).end();
        return;
      }
      if (req.url.startsWith('/v1/messages/count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ input_tokens: 12 }));
        return;
      }
      const last = body.messages?.[body.messages.length - 1];
      const toolResults = Array.isArray(last?.content) ? last.content.filter((b) => b.type === 'tool_result') : [];
      for (const r of toolResults) state.results.push({ toolUseId: r.tool_use_id ?? '', content: textOf(r.content), isError: r.is_error === true });
      const offersBash = body.tools?.some((t) => t.name === 'Bash') ?? false;
      let events: Record<string, unknown>[];
      let command: string | undefined;
      let other: ToolStep | undefined;
      if (offersBash && toolResults.length === 0 && state.script.length > 0) {
        const step = state.script.shift()!;
        if (typeof step === 'object' && !Array.isArray(step)) other = step;
        else [command, ...followUps] = Array.isArray(step) ? step : [step];
      } else if (offersBash && toolResults.length > 0) command = followUps.shift();
      if (other) events = message([{ type: 'tool_use', name: other.tool, input: other.input }], 'tool_use');
      else if (command !== undefined) {
        events = message([{ type: 'tool_use', name: 'Bash', input: { command, description: 'scripted by the test' } }], 'tool_use');
      } else events = message([{ type: 'text', text: toolResults.length ? 'done' : 'ok' }], 'end_turn');
      if (body.stream === false) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: 'msg_standin', type: 'message', role: 'assistant', model: 'claude-standin', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } }));
        return;
      }
      sse(res, events);
    });
  });
  Object.assign(state, await listenOnLoopback(server));
  return state;
}

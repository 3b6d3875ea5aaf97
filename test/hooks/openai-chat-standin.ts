/**
 * A scripted stand-in for the OpenAI Chat Completions API on 127.0.0.1, enough for a real GitHub
 * Copilot CLI to run `copilot -p` with a custom provider (COPILOT_PROVIDER_BASE_URL, its default
 * "completions" wire API): each streaming `POST /v1/chat/completions` that offers the `bash` tool
 * gets the next scripted call of it, then, once Copilot sends the tool's result back, a short
 * answer. It records those results (what the model read). A scripted `{ name, args }` is a call
 * of that tool instead (Copilot CLI's create, edit: offered to Claude models, COPILOT_MODEL).
 */
import http from 'node:http';
import { listenOnLoopback } from './standin-server.js';

/** A shell command line, or a call of another of Copilot CLI's tools. */
export type ScriptedCall = string | { name: string; args: Record<string, unknown> };

export interface ChatStandIn {
  url: string;
  script: ScriptedCall[];
  outputs: string[];
  requests: string[];
  close(): Promise<void>;
}

type Message = { role?: string; content?: unknown };

export async function startChatStandIn(script: ScriptedCall[] = []): Promise<ChatStandIn> {
  const state: ChatStandIn = { url: '', script, outputs: [], requests: [], close: async () => {} };
  let n = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.requests.push(`${req.method} ${req.url}`);
      let body: { model?: string; messages?: Message[]; tools?: { function?: { name?: string } }[] } = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as typeof body;
      } catch {
        // not JSON
      }
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `stand-in serves POST /v1/chat/completions only (${req.method} ${req.url})` } }));
        return;
      }
      const id = `chatcmpl-standin-${++n}`;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const send = (o: Record<string, unknown>) => res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 1, model: body.model, ...o })}\n\n`);
      const usage = { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 };
      const messages = body.messages ?? [];
      const last = messages[messages.length - 1];
      const offersBash = (body.tools ?? []).some((t) => t.function?.name === 'bash');
      const command = last?.role !== 'tool' && offersBash ? state.script.shift() : undefined;
      if (last?.role === 'tool') state.outputs.push(typeof last.content === 'string' ? last.content : JSON.stringify(last.content));
      if (command === undefined) {
        send({ choices: [{ index: 0, delta: { role: 'assistant', content: 'done' }, finish_reason: null }] });
        send({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage });
      } else {
        const fn = typeof command === 'string' ? { name: 'bash', arguments: JSON.stringify({ command, description: 'scripted by the test' }) } : { name: command.name, arguments: JSON.stringify(command.args) };
        const call = { index: 0, id: `call_${n}`, type: 'function', function: fn };
        send({ choices: [{ index: 0, delta: { role: 'assistant', content: null, tool_calls: [call] }, finish_reason: null }] });
        send({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }], usage });
      }
      res.end('data: [DONE]\n\n');
    });
  });
  Object.assign(state, await listenOnLoopback(server));
  return state;
}

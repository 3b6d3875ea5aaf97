/**
 * A scripted stand-in for the OpenAI Responses API on 127.0.0.1, enough for a real Codex to run
 * `codex exec` headless against a custom provider: each streaming `POST /v1/responses` gets the
 * next scripted shell call (a `function_call` of the tool Codex offers for commands), then, once
 * Codex sends the call's output back, a short assistant message. It records the outputs.
 * A scripted `{ patch }` is a call of Codex's file-editing tool instead, `apply_patch` (a custom
 * tool whose input is the patch text: Codex offers it to the models its catalogue gives it to,
 * such as `gpt-5.5`, not to an unknown model name).
 */
import http from 'node:http';
import { listenOnLoopback } from './standin-server.js';

export interface CallOutput {
  callId: string;
  output: string;
}

/** A shell command line, or a patch for apply_patch. */
export type ScriptedCall = string | { patch: string };

export interface OpenAiStandIn {
  url: string;
  script: ScriptedCall[];
  outputs: CallOutput[];
  /** Tool names Codex offered in its last request. */
  tools: string[];
  requests: { path: string; body: unknown }[];
  close(): Promise<void>;
}

type Item = { type?: string; call_id?: string; output?: unknown };

let n = 0;
function sse(res: http.ServerResponse, items: Record<string, unknown>[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const id = `resp_standin_${++n}`;
  const send = (e: Record<string, unknown>) => res.write(`event: ${e.type as string}\ndata: ${JSON.stringify(e)}\n\n`);
  send({ type: 'response.created', response: { id, object: 'response', status: 'in_progress', output: [] } });
  items.forEach((item, i) => {
    send({ type: 'response.output_item.added', output_index: i, item });
    send({ type: 'response.output_item.done', output_index: i, item });
  });
  send({ type: 'response.completed', response: { id, object: 'response', status: 'completed', output: items, usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 } } });
  res.end();
}

function outputText(o: unknown): string {
  if (typeof o === 'string') return o;
  if (Array.isArray(o)) return o.map((p: { text?: string }) => p.text ?? '').join('');
  if (o && typeof o === 'object' && 'content' in o) return String((o as { content: unknown }).content);
  return JSON.stringify(o);
}

export async function startOpenAiStandIn(script: ScriptedCall[] = []): Promise<OpenAiStandIn> {
  const state: OpenAiStandIn = { url: '', script, outputs: [], tools: [], requests: [], close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: { input?: Item[]; tools?: { name?: string; type?: string }[] } = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      } catch {
        // not JSON
      }
      state.requests.push({ path: req.url ?? '', body });
      if (req.method !== 'POST' || !req.url?.endsWith('/responses')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `stand-in serves POST /v1/responses only (${req.method} ${req.url})` } }));
        return;
      }
      state.tools = (body.tools ?? []).map((t) => t.name ?? t.type ?? '');
      const input = body.input ?? [];
      const last = input[input.length - 1];
      if (last?.type === 'function_call_output' || last?.type === 'custom_tool_call_output') {
        state.outputs.push({ callId: last.call_id ?? '', output: outputText(last.output) });
        sse(res, [{ type: 'message', role: 'assistant', id: `msg_${++n}`, status: 'completed', content: [{ type: 'output_text', text: 'done', annotations: [] }] }]);
        return;
      }
      const command = state.script.shift();
      if (command === undefined) {
        sse(res, [{ type: 'message', role: 'assistant', id: `msg_${++n}`, status: 'completed', content: [{ type: 'output_text', text: 'ok', annotations: [] }] }]);
        return;
      }
      if (typeof command !== 'string') {
        if (!state.tools.includes('apply_patch')) {
          res.writeHead(400, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: `stand-in: a patch is scripted but Codex offered no apply_patch (${state.tools.join(', ')})` } }));
          return;
        }
        sse(res, [{ type: 'custom_tool_call', id: `ctc_${++n}`, call_id: `call_${n}`, name: 'apply_patch', input: command.patch, status: 'completed' }]);
        return;
      }
      const tool = state.tools.includes('exec_command') ? 'exec_command' : state.tools.includes('shell') ? 'shell' : 'exec_command';
      const args = tool === 'shell' ? { command: ['bash', '-lc', command] } : { cmd: command };
      sse(res, [{ type: 'function_call', id: `fc_${++n}`, call_id: `call_${n}`, name: tool, arguments: JSON.stringify(args), status: 'completed' }]);
    });
  });
  Object.assign(state, await listenOnLoopback(server));
  return state;
}

/**
 * A scripted stand-in for the Gemini API on 127.0.0.1, enough for a real Gemini CLI to run
 * headless (`gemini -p`) with GOOGLE_GEMINI_BASE_URL pointing here: each streaming
 * `POST /v1beta/models/<model>:streamGenerateContent` that offers tools gets the next scripted
 * `run_shell_command` call, then, once Gemini CLI sends the call's functionResponse back, a short
 * answer. Its model router's `generateContent` (no tools) gets a plain answer. It records what
 * the model was told each call returned. A scripted `{ name, args }` is a call of that tool
 * instead (Gemini CLI's write_file, replace, …).
 */
import http from 'node:http';
import { listenOnLoopback } from './standin-server.js';

/** A shell command line, or a call of another of Gemini CLI's tools. */
export type ScriptedCall = string | { name: string; args: Record<string, unknown> };

export interface GeminiStandIn {
  url: string;
  script: ScriptedCall[];
  /** The functionResponse of each scripted call, as Gemini CLI sent it (what the model read). */
  outputs: string[];
  requests: string[];
  close(): Promise<void>;
}

type Part = { text?: string; functionCall?: unknown; functionResponse?: { name?: string; response?: unknown } };
type Body = { contents?: { role?: string; parts?: Part[] }[]; tools?: { functionDeclarations?: { name?: string }[] }[] };

function reply(res: http.ServerResponse, stream: boolean, parts: Part[]): void {
  const chunk = { candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 }, modelVersion: 'gemini-standin' };
  if (stream) {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
  } else {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(chunk));
  }
}

export async function startGeminiStandIn(script: ScriptedCall[] = []): Promise<GeminiStandIn> {
  const state: GeminiStandIn = { url: '', script, outputs: [], requests: [], close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.requests.push(`${req.method} ${req.url}`);
      let body: Body = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Body;
      } catch {
        // not JSON
      }
      const m = /:(streamGenerateContent|generateContent)\b/.exec(req.url ?? '');
      if (req.method !== 'POST' || !m) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { code: 404, message: `stand-in serves generateContent only (${req.method} ${req.url})` } }));
        return;
      }
      const stream = m[1] === 'streamGenerateContent';
      const contents = body.contents ?? [];
      const response = contents[contents.length - 1]?.parts?.find((p) => p.functionResponse)?.functionResponse;
      const offersShell = (body.tools ?? []).some((t) => (t.functionDeclarations ?? []).some((f) => f.name === 'run_shell_command'));
      if (response) {
        const r = response.response as { output?: unknown; error?: unknown } | undefined;
        state.outputs.push(typeof r?.output === 'string' ? r.output : typeof r?.error === 'string' ? r.error : JSON.stringify(r));
        reply(res, stream, [{ text: 'done' }]);
        return;
      }
      const command = offersShell ? state.script.shift() : undefined;
      // The model router (no tools) is answered with its JSON; a turn with nothing scripted ends.
      if (command === undefined) reply(res, stream, [{ text: offersShell ? 'ok' : '{"reasoning":"stand-in","model_choice":"flash"}' }]);
      else if (typeof command !== 'string') reply(res, stream, [{ functionCall: command }]);
      else reply(res, stream, [{ functionCall: { name: 'run_shell_command', args: { command, description: 'scripted by the test' } } }]);
    });
  });
  Object.assign(state, await listenOnLoopback(server));
  return state;
}

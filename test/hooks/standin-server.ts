/**
 * What every scripted model-API stand-in (anthropic, openai, openai-chat, gemini) does with its
 * HTTP server: listen on 127.0.0.1 only (a real agent points its base URL there; nothing leaves
 * the machine), on a free port, and close with its open connections (an agent's keep-alive would
 * otherwise hold the test's end).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function listenOnLoopback(server: Server): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

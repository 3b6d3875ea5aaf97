/**
 * The per-server operator socket of `mish serve`: `<dir>/<pid>.sock`, mode 0600 in a 0700
 * directory (paths.ts). Frames are newline-delimited JSON validated with the wire's schemas;
 * a peer that sends an invalid frame gets it ignored (logged), one that stops reading is
 * dropped once its unsent backlog passes MAX_PEER_BACKLOG_BYTES — never waited for.
 * Starting is best effort: a server whose socket cannot be made keeps serving its agent.
 */
import { chmodSync } from 'node:fs';
import net from 'node:net';
import { encodeFrame, parseClientMessage, type ServerMessage } from '../../shared/operator-wire.js';
import { FrameReader } from './framing.js';
import type { OperatorHost } from './operator-host.js';
import { ensurePrivateDir, listServerSockets, OPERATOR_SOCKET_MODE, operatorDir, removeQuietly, socketPathFor } from './paths.js';

/** An operator that reads slower than this much unsent output is disconnected (flow control should prevent it; this is the hard bound). */
const MAX_PEER_BACKLOG_BYTES = 16 * 1024 * 1024;

export interface OperatorSocket {
  readonly path: string;
  close(): Promise<void>;
}

export type StartResult = { ok: true; socket: OperatorSocket } | { ok: false; error: string };

export async function startOperatorSocket(host: OperatorHost, options: { dir?: string; log?: (m: string) => void } = {}): Promise<StartResult> {
  const log = options.log ?? (() => {});
  const dir = options.dir ?? operatorDir();
  const prepared = ensurePrivateDir(dir);
  if (!prepared.ok) return { ok: false, error: prepared.error };
  // Sockets of servers that died without cleaning up (SIGKILL, crash) are removed here too.
  listServerSockets(dir);
  const path = socketPathFor(process.pid, dir);
  removeQuietly(path);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    let open = true;
    let corked = false;
    const connection = host.connect({
      send: (m: ServerMessage) => {
        if (!open || socket.destroyed) return;
        if (socket.writableLength > MAX_PEER_BACKLOG_BYTES) {
          log('operator: a client stopped reading; disconnected');
          socket.destroy();
          return;
        }
        // The messages of one engine event (a command's end: its report, process, figures…) go
        // out in one write, not one system call each.
        if (!corked) {
          corked = true;
          socket.cork();
          process.nextTick(() => {
            corked = false;
            socket.uncork();
          });
        }
        socket.write(encodeFrame(m));
      },
      close: () => socket.destroy(),
    });
    const reader = new FrameReader(
      (line) => {
        const parsed = parseClientMessage(line);
        if (!parsed.ok) {
          log(`operator: invalid frame ignored (${parsed.error.slice(0, 200)})`);
          return;
        }
        connection.receive(parsed.value);
      },
      () => log('operator: oversize frame dropped'),
    );
    socket.on('data', (chunk: Buffer) => reader.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => {
      open = false;
      sockets.delete(socket);
      connection.closed();
    });
  });
  const listening = await new Promise<string | undefined>((resolve) => {
    server.once('error', (e) => resolve(e.message));
    server.listen(path, () => resolve(undefined));
  });
  if (listening) return { ok: false, error: `cannot listen on ${path}: ${listening}` };
  try {
    chmodSync(path, OPERATOR_SOCKET_MODE);
  } catch (e) {
    server.close();
    return { ok: false, error: `cannot restrict ${path}: ${(e as Error).message}` };
  }
  server.on('error', (e) => log(`operator socket: ${e.message}`));
  server.unref();
  let closed = false;
  return {
    ok: true,
    socket: {
      path,
      close: async () => {
        if (closed) return;
        closed = true;
        for (const s of sockets) s.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        removeQuietly(path);
      },
    },
  };
}

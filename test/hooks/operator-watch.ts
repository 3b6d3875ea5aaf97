/**
 * A test operator as the console and `mish approvals` are one: it watches the operator socket
 * directory (looking for servers marks this process as a running operator), connects once to each
 * server that appears and hands the client to the test. `stop` ends the watch and closes every client.
 */
import { OperatorClient, discoverServers, type ConnectOptions } from '../../src/main/operator/client.js';

export interface OperatorWatch {
  stop(): Promise<void>;
}

export function watchServers(
  dir: string,
  hello: ConnectOptions,
  onClient: (client: OperatorClient) => void,
  opts: { intervalMs?: number; /** default true; false only to prove a single attempt */ retryRefused?: boolean } = {},
): OperatorWatch {
  const { intervalMs = 25, retryRefused = true } = opts;
  const known = new Set<string>();
  const clients: OperatorClient[] = [];
  let stop = false;
  const loop = (async () => {
    while (!stop) {
      for (const s of discoverServers(dir)) {
        if (known.has(s.path)) continue;
        known.add(s.path);
        void OperatorClient.connect(s.path, hello).then((r) => {
          // A socket between bind and listen refuses, and a connect on a loaded machine can outlast
          // CONNECT_TIMEOUT_MS: looked at again next round, as the console does (its rescan forgets
          // a failed socket). Not retrying cost a CI run: the approver missed the Codex hook's socket.
          if (!r.ok) return void (retryRefused && known.delete(s.path));
          clients.push(r.client);
          onClient(r.client);
        });
      }
      await new Promise((res) => setTimeout(res, intervalMs));
    }
  })();
  return {
    stop: async () => {
      stop = true;
      await loop;
      for (const c of clients) c.close();
    },
  };
}

/** One approval an auto-approver saw: the line, its session and the agent (the server's client name). */
export interface SeenApproval {
  command: string;
  session: string;
  agent?: string;
}

/** A minimal approver, as `mish approvals` is: approves every request that arrives (and any already pending), recording each. */
export function autoApprove(dir: string, name: string, intervalMs?: number): OperatorWatch & { seen: SeenApproval[] } {
  const seen: SeenApproval[] = [];
  const watch = watchServers(
    dir,
    { name, role: 'approvals', approvals: true },
    (client) => {
      const decide = (a: { id: string; command: string; session: string }) => {
        seen.push({ command: a.command, session: a.session, agent: client.hello.client?.name });
        void client.request({ type: 'approval-decide', id: a.id, decision: 'approve' });
      };
      for (const a of client.hello.approvals) decide(a);
      client.on('approval-request', (m) => decide(m.approval));
    },
    { intervalMs },
  );
  return { seen, stop: watch.stop };
}

/**
 * The hook's environment for a run an operator is watching: the hook waits up to 1.5 s
 * (OPERATOR_JOIN_MS) for an attached operator to connect to its new socket, which a loaded CI
 * machine (three host e2e files at once beside busy loops) has missed; 15 s stays inside every
 * host's hook timeout that mish init writes, and only tests with an approver pay for it.
 */
export const OPERATOR_WATCHING_ENV = { MISH_HOOK_OPERATOR_JOIN_MS: '15000' } as const;

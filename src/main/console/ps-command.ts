/**
 * `mish ps [--json]`: every running `mish serve` of this user and its sessions, as the operator
 * wire reports them (each server's hello: its MCP client, cwd, sessions and processes).
 */
import type { ServerMessageOf } from '../../shared/operator-wire.js';
import { OperatorClient, discoverServers } from '../operator/client.js';

export const PS_HELP = `usage: mish ps [--json]

Lists the running mish MCP servers (\`mish serve\`, one per agent) with their sessions.
  --json      one JSON document: [{ pid, client, cwd, transport, sessions, processes, … }]
  -h, --help  this help
`;

type Hello = ServerMessageOf<'hello'>;

export async function runPs(argv: string[], out: NodeJS.WritableStream = process.stdout, err: NodeJS.WritableStream = process.stderr): Promise<number> {
  let json = false;
  for (const a of argv) {
    if (a === '--json') json = true;
    else if (a === '-h' || a === '--help') {
      out.write(PS_HELP);
      return 0;
    } else {
      err.write(`mish ps: unknown argument ${JSON.stringify(a)} (see mish ps --help)\n`);
      return 2;
    }
  }
  const found = discoverServers();
  const hellos: Hello[] = [];
  await Promise.all(
    found.map(async (s) => {
      const r = await OperatorClient.connect(s.path, { name: 'mish ps', role: 'console' });
      if (!r.ok) return void err.write(`mish ps: ${r.error}\n`);
      hellos.push(r.client.hello);
      r.client.close();
    }),
  );
  hellos.sort((a, b) => a.pid - b.pid);
  if (json) {
    out.write(
      JSON.stringify(
        hellos.map((h) => ({ pid: h.pid, client: h.client ?? null, cwd: h.cwd, transport: h.transport, mishVersion: h.mishVersion, startedAt: h.startedAt, sessions: h.sessions, processes: h.processes, approvals: h.approvals.length, handoffs: h.handoffs.length })),
        null,
        2,
      ) + '\n',
    );
    return 0;
  }
  if (hellos.length === 0) {
    out.write('no mish server is running (agents start one with `mish serve`)\n');
    return 0;
  }
  const rows: string[][] = [['PID', 'AGENT', 'CWD', 'SESSION', 'STATE', 'COMMAND']];
  for (const h of hellos) {
    const agent = h.client ? `${h.client.name}${h.client.version ? ` ${h.client.version}` : ''}` : '(no client yet)';
    if (h.sessions.length === 0) rows.push([String(h.pid), agent, h.cwd, '-', '-', '']);
    for (const s of h.sessions) {
      const cmd = s.command ? `${s.command}${s.elapsedMs !== undefined ? ` (${Math.round(s.elapsedMs / 1000)}s)` : ''}` : s.lastExitCode !== undefined ? `last exit ${s.lastExitCode}` : '';
      rows.push([String(h.pid), agent, h.cwd, s.name, s.state, cmd]);
    }
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const r of rows) out.write(r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ').trimEnd() + '\n');
  return 0;
}

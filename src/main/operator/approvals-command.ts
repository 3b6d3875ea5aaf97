/**
 * `mish approvals [--json] [--name NAME]`: the terminal operator. Connects to every running
 * `mish serve` of this user (and to servers that start later), lists pending escalations live,
 * and decides them with keys. `--json` prints the pending requests once, for scripts, and
 * decides nothing (it does not count as an attached operator).
 */
import { userInfo } from 'node:os';
import type { ApprovalRequest, ServerMessageOf } from '../../shared/operator-wire.js';
import { discoverServers, OperatorClient } from './client.js';

export const APPROVALS_HELP = `usage: mish approvals [--json] [--name NAME]

Decide agents' dangerous commands. Connects to every running \`mish serve\` of yours (and to
servers started later) and shows each pending escalation live: the command, the rule that
stopped it and why, the session, cwd and agent. While it runs, agents' escalated calls wait
for your decision (up to 5 minutes, then they are denied); without it they are refused at once.

keys:   ↑/↓ or j/k  select        a  approve          d  deny
        e           edit, then approve (the edited line is checked again)
        A           always: approve this rule for the rest of that session (memory only)
        q / Ctrl-C  quit (pending requests are denied unless another operator is attached)

  --json        print the pending requests as JSON and exit (decides nothing)
  --name NAME   who you are in agents' replies and the audit log (default: your user name)
  -h, --help    this help
`;

/** How often the directory of server sockets is looked at again for servers started later. */
const DISCOVER_INTERVAL_MS = 1_000;

interface Args {
  json: boolean;
  name: string;
  help: boolean;
}

function parseArgs(argv: string[]): Args | { error: string } {
  const out: Args = { json: false, name: defaultName(), help: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h' || a === '--help') out.help = true;
    else if (a === '--json') out.json = true;
    else if (a === '--name' || a.startsWith('--name=')) {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      if (!v) return { error: 'mish approvals: --name needs a value' };
      out.name = v;
    } else return { error: `mish approvals: unknown argument "${a}" (see mish approvals --help)` };
  }
  return out;
}

function defaultName(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? 'operator';
  }
}

interface Pending {
  request: ApprovalRequest;
  server: OperatorClient;
}

function agentOf(c: OperatorClient, clientInfo?: ServerMessageOf<'hello'>['client']): string {
  const info = clientInfo ?? c.hello.client;
  return `${info ? `${info.name}${info.version ? ` ${info.version}` : ''}` : 'agent'} (mish serve pid ${c.hello.pid})`;
}

export async function runApprovals(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  if ('error' in args) {
    process.stderr.write(`${args.error}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(APPROVALS_HELP);
    return 0;
  }
  if (args.json) return listJson();
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    process.stderr.write('mish approvals: needs a terminal to ask you (use --json to list pending requests from a script)\n');
    return 2;
  }
  return interactive(args.name);
}

async function listJson(): Promise<number> {
  const out: (ApprovalRequest & { server: { pid: number; client?: { name: string; version?: string }; cwd: string } })[] = [];
  for (const s of discoverServers()) {
    const r = await OperatorClient.connect(s.path, { name: 'mish approvals --json', role: 'approvals' });
    if (!r.ok) continue;
    for (const a of r.client.hello.approvals) out.push({ ...a, server: { pid: r.client.hello.pid, ...(r.client.hello.client ? { client: r.client.hello.client } : {}), cwd: r.client.hello.cwd } });
    r.client.close();
  }
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  return 0;
}

function interactive(name: string): Promise<number> {
  const servers = new Map<string, OperatorClient>();
  const clients = new Map<OperatorClient, ServerMessageOf<'hello'>['client']>();
  const pending: Pending[] = [];
  const log: string[] = [];
  let selected = 0;
  let editing: { item: Pending; text: string } | undefined;
  const out = process.stdout;

  const render = () => {
    const lines: string[] = [];
    lines.push(`\x1b[1mmish approvals\x1b[0m — ${name} · ${servers.size} server(s) connected · ${pending.length} pending`);
    lines.push('');
    if (pending.length === 0) lines.push('  nothing pending; agents\' dangerous commands will appear here');
    pending.forEach((p, i) => {
      const r = p.request;
      const secs = Math.max(0, Math.round((r.expiresAt - Date.now()) / 1000));
      const mark = i === selected ? '\x1b[7m>\x1b[0m' : ' ';
      lines.push(`${mark} ${r.id}  ${agentOf(p.server, clients.get(p.server))} · session ${r.session} · ${r.tool} · denied in ${secs}s`);
      lines.push(`    $ ${r.command}`);
      lines.push(`    cwd ${r.cwd}`);
      lines.push(`    rule ${r.rule ?? r.dangers.map((d) => d.id).join(', ')}: ${r.reason ?? r.dangers.map((d) => d.description).join('; ')}`);
      for (const d of r.dangers) lines.push(`      - ${d.description} [${d.id}]: ${d.text}`);
    });
    lines.push('');
    if (editing) lines.push(`edit ${editing.item.request.id} (Return approves the edited line, Esc cancels): ${editing.text}`);
    else lines.push('keys: a approve · d deny · e edit · A always (this session) · ↑/↓ select · q quit');
    for (const l of log.slice(-5)) lines.push(`\x1b[2m${l}\x1b[0m`);
    out.write(`\x1b[H\x1b[2J${lines.join('\r\n')}\r\n`);
  };

  const note = (m: string) => {
    log.push(`${new Date().toISOString().slice(11, 19)} ${m}`);
    render();
  };

  const add = (client: OperatorClient, r: ApprovalRequest) => {
    if (!pending.some((p) => p.request.id === r.id)) pending.push({ request: r, server: client });
    render();
  };

  const connect = async (path: string) => {
    if (servers.has(path)) return;
    servers.set(path, undefined as unknown as OperatorClient); // reserve while connecting
    const r = await OperatorClient.connect(path, { name, role: 'approvals', approvals: true });
    if (!r.ok) {
      servers.delete(path);
      return;
    }
    const c = r.client;
    servers.set(path, c);
    clients.set(c, c.hello.client);
    for (const a of c.hello.approvals) add(c, a);
    c.on('server', (m) => {
      clients.set(c, m.client);
      render();
    });
    c.on('approval-request', (m) => {
      add(c, m.approval);
      out.write('\x07'); // bell: a human is needed
    });
    c.on('approval-resolved', (m) => {
      const i = pending.findIndex((p) => p.request.id === m.id && p.server === c);
      if (i >= 0) {
        pending.splice(i, 1);
        if (selected >= pending.length) selected = Math.max(0, pending.length - 1);
        note(`${m.id}: ${m.outcome}${m.by ? ` by ${m.by}` : ''}`);
      }
    });
    c.onClose(() => {
      servers.delete(path);
      for (let i = pending.length - 1; i >= 0; i--) if (pending[i].server === c) pending.splice(i, 1);
      if (selected >= pending.length) selected = Math.max(0, pending.length - 1);
      note(`server pid ${c.hello.pid} went away`);
    });
    note(`connected to ${agentOf(c)} in ${c.hello.cwd}`);
  };

  const discover = () => {
    for (const s of discoverServers()) void connect(s.path);
  };

  const decide = async (p: Pending, decision: 'approve' | 'deny' | 'always' | 'edit', command?: string) => {
    const r = await p.server.request({ type: 'approval-decide', id: p.request.id, decision, ...(command ? { command } : {}) });
    if (!r.ok) note(`${p.request.id}: ${r.error}`);
  };

  return new Promise<number>((resolve) => {
    const stdin = process.stdin;
    stdin.setRawMode(true);
    stdin.resume();
    out.write('\x1b[?1049h'); // alternate screen: the shell's screen comes back on quit
    const tick = setInterval(() => {
      discover();
      render();
    }, DISCOVER_INTERVAL_MS);
    const quit = () => {
      clearInterval(tick);
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onKey);
      out.write('\x1b[?1049l');
      for (const c of servers.values()) c?.close();
      resolve(0);
    };
    const onKey = (buf: Buffer) => {
      const k = buf.toString('utf8');
      if (editing) {
        const e = editing;
        if (k === '\r' || k === '\n') {
          editing = undefined;
          void decide(e.item, 'edit', e.text);
        } else if (k === '\x1b' || k === '\x03') editing = undefined;
        else if (k === '\x7f' || k === '\b') e.text = e.text.slice(0, -1);
        else if (k >= ' ' && !k.startsWith('\x1b')) e.text += k.replace(/[\r\n]/g, '');
        render();
        return;
      }
      const cur = pending[selected];
      if (k === 'q' || k === '\x03' || k === '\x04') return quit();
      if (k === '\x1b[A' || k === 'k') selected = Math.max(0, selected - 1);
      else if (k === '\x1b[B' || k === 'j') selected = Math.min(Math.max(0, pending.length - 1), selected + 1);
      else if (cur && k === 'a') void decide(cur, 'approve');
      else if (cur && k === 'd') void decide(cur, 'deny');
      else if (cur && k === 'A') void decide(cur, 'always');
      else if (cur && k === 'e') editing = { item: cur, text: cur.request.command };
      render();
    };
    stdin.on('data', onKey);
    discover();
    render();
  });
}

/**
 * `mish attach <handoff-id>`: a human takes over a process an agent's server handed off (a
 * password prompt): this terminal is attached to the process's PTY over the server's operator
 * socket, in raw mode. What you type goes to the process only — never recorded, never shown to
 * the agent. For a secret prompt, Return sends the line and hands the process back; Ctrl-]
 * hands it back without sending anything more. The agent then gets a summary, never the text.
 */
import type { Handoff } from '../../shared/operator-wire.js';
import { AttachResultSchema } from '../../shared/operator-wire.js';
import { discoverServers, OperatorClient } from './client.js';

export const ATTACH_HELP = `usage: mish attach <handoff-id> [--name NAME]

Take over a process an agent handed to a human (a password or passphrase prompt: sudo, ssh,
gpg, read -s, getpass), by the id the agent was given ("h_…"). Your terminal is connected to
the process; what you type goes to it only — the agent never sees it, and it is masked in
everything the agent reads afterwards.

  Return       (secret prompts) send the line and hand the process back to the agent; if
               it asks again within a few seconds (a wrong password), you are attached to
               the new prompt (any key leaves instead)
  Ctrl-]       hand back now (for a takeover: when you are done)
  --name NAME  who you are in the agent's summary and the audit log (default: your user name)
  -h, --help   this help

A handoff id is single-use: once attached (or handed back) it cannot be attached again.
`;

/** The detach key: Ctrl-] as in telnet and docker attach. */
const DETACH_KEY = 0x1d;
/** Bytes of the recent output shown on attach, so the prompt is on screen. */
const BACKLOG_SHOWN_BYTES = 2_048;

export async function runAttach(argv: string[]): Promise<number> {
  let id: string | undefined;
  let name = process.env.USER ?? 'operator';
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h' || a === '--help') {
      process.stdout.write(ATTACH_HELP);
      return 0;
    }
    if (a === '--name' || a.startsWith('--name=')) {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      if (!v) return usage('mish attach: --name needs a value');
      name = v;
    } else if (a.startsWith('-')) return usage(`mish attach: unknown option "${a}" (see mish attach --help)`);
    else if (id) return usage('mish attach: one handoff id only');
    else id = a;
  }
  if (!id) return usage('mish attach: which handoff? give the id the agent was given, e.g. mish attach h_Ab3dE9 (see mish attach --help)');
  if (!/^h_[A-Za-z0-9_-]+$/.test(id)) return usage(`mish attach: "${id}" is not a handoff id (they look like h_Ab3dE9)`);

  // Find the server that holds the handoff.
  let client: OperatorClient | undefined;
  for (const s of discoverServers()) {
    const r = await OperatorClient.connect(s.path, { name, role: 'attach' });
    if (!r.ok) continue;
    if (r.client.hello.handoffs.some((h) => h.id === id)) {
      client = r.client;
      break;
    }
    r.client.close();
  }
  if (!client) {
    process.stderr.write(`mish attach: no pending handoff ${id} on any running mish serve (it was already taken, handed back, or its process ended)\n`);
    return 1;
  }
  const c = client;
  const tty = process.stdin.isTTY === true;
  // Raw mode before anything is shown: a human typing as soon as the prompt appears must not
  // have the line echoed by this terminal's own line discipline.
  if (tty) process.stdin.setRawMode(true);
  let code = 0;
  try {
    for (let next: string | undefined = id; next; ) {
      const r = await holdHandoff(c, next);
      process.stderr.write(`\r\n${r.summary}\r\n`);
      if (r.kind !== 'returned') {
        code = r.kind === 'error' || r.kind === 'gone' ? 1 : 0;
        break;
      }
      // A wrong password is asked again (sudo: "Sorry, try again"): follow the process to its next
      // secret prompt for a moment instead of making the human find the new handoff id.
      next = r.answered && r.processId ? await nextPrompt(c, r.processId) : undefined;
      if (next) process.stderr.write('\r\nmish attach: it asks again\r\n');
    }
  } finally {
    if (tty) process.stdin.setRawMode(false);
    process.stdin.pause();
    c.close();
  }
  return code;
}

/** After an answer, how long `mish attach` waits for the same process to ask again (sudo's retry comes after PAM's ~2 s delay). */
const FOLLOW_PROMPT_MS = 4_000;

type HoldResult = { kind: 'returned' | 'ended' | 'gone' | 'error'; summary: string; answered?: boolean; processId?: string };

/** Attaches this terminal to one handoff until it is handed back or its process ends. */
async function holdHandoff(c: OperatorClient, id: string): Promise<HoldResult> {
  const out = process.stdout;
  const reply = await c.request({ type: 'handoff-attach', id, ...(out.isTTY ? { cols: out.columns, rows: out.rows } : {}) });
  if (!reply.ok) return { kind: 'error', summary: `mish attach: ${reply.error}` };
  const attached = AttachResultSchema.safeParse(reply.result);
  if (!attached.success) return { kind: 'error', summary: 'mish attach: the server answered something unexpected' };
  const handoff: Handoff = attached.data.handoff;
  const secret = handoff.why === 'secret-prompt';
  process.stderr.write(
    `\r\nmish attach: ${handoff.id} — \`${handoff.command}\`${handoff.session ? ` in session ${handoff.session}` : ''}\r\n` +
      (secret ? 'Type the answer and press Return: it goes to the process only, the agent never sees it. Ctrl-] hands back without answering.\r\n' : 'You hold this process; the agent waits. Ctrl-] hands it back.\r\n'),
  );
  const backlog = Buffer.from(attached.data.backlog, 'base64');
  out.write(backlog.subarray(Math.max(0, backlog.length - BACKLOG_SHOWN_BYTES)));

  return new Promise<HoldResult>((resolve) => {
    let done = false;
    let answered = false;
    const stdin = process.stdin;
    const disposers: (() => void)[] = [];
    const finish = (r: HoldResult) => {
      if (done) return;
      done = true;
      stdin.off('data', onInput);
      process.off('SIGWINCH', onResize);
      for (const d of disposers) d();
      resolve({ ...r, answered, processId: handoff.processId });
    };
    const handBack = async () => {
      const r = await c.request({ type: 'handoff-return', id: handoff.id });
      finish(r.ok ? { kind: 'returned', summary: (r.result as { summary?: string } | undefined)?.summary ?? 'mish attach: handed back' } : { kind: 'error', summary: `mish attach: ${r.error}` });
    };
    const send = (bytes: Buffer) => c.send({ type: 'input', handoffId: handoff.id, data: bytes.toString('base64') });
    const onInput = (buf: Buffer) => {
      if (done) return;
      const detach = buf.indexOf(DETACH_KEY);
      const cut = detach >= 0 ? buf.subarray(0, detach) : buf;
      if (secret) {
        // Return ends the answer: the line (with its Return) goes to the process, then it is handed back.
        const ret = cut.findIndex((b) => b === 0x0d || b === 0x0a);
        if (ret >= 0) {
          send(Buffer.concat([cut.subarray(0, ret), Buffer.from('\r')]));
          answered = true;
          void handBack();
          return;
        }
      }
      if (cut.length) send(cut);
      if (detach >= 0) void handBack();
    };
    const onResize = () => {
      if (out.isTTY) c.send({ type: 'resize', handoffId: handoff.id, cols: out.columns, rows: out.rows });
    };
    disposers.push(
      c.on('output', (m) => {
        if (m.stream.kind !== handoff.stream.kind || m.stream.id !== handoff.stream.id) return;
        const bytes = Buffer.from(m.data, 'base64');
        out.write(bytes);
        c.consumed(m.stream, bytes.length);
      }),
      c.on('handoff-state', (m) => {
        if (m.id === handoff.id && (m.state === 'ended' || m.state === 'returned')) finish({ kind: m.state, summary: m.summary ?? `mish attach: ${m.state}` });
      }),
      c.onClose(() => finish({ kind: 'gone', summary: 'mish attach: the server went away' })),
    );
    stdin.resume();
    stdin.on('data', onInput);
    process.on('SIGWINCH', onResize);
  });
}

/** The next handoff of the same process within FOLLOW_PROMPT_MS, unless it ends first or the human presses a key. */
function nextPrompt(c: OperatorClient, processId: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const disposers: (() => void)[] = [];
    const stdin = process.stdin;
    const done = (v: string | undefined) => {
      clearTimeout(timer);
      stdin.off('data', onKey);
      for (const d of disposers) d();
      resolve(v);
    };
    const onKey = () => done(undefined);
    const timer = setTimeout(() => done(undefined), FOLLOW_PROMPT_MS);
    disposers.push(
      c.on('handoff-request', (m) => m.handoff.processId === processId && done(m.handoff.id)),
      c.on('process', (m) => m.process.id === processId && (m.process.state === 'exited' || m.process.state === 'killed') && done(undefined)),
      c.onClose(() => done(undefined)),
    );
    stdin.resume();
    stdin.on('data', onKey);
  });
}

function usage(message: string): number {
  process.stderr.write(`${message}\n`);
  return 2;
}

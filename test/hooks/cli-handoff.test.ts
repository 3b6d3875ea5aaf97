/**
 * A password prompt in a hooked run (a `mish <cmd>` CLI run published on the operator wire) is
 * handed to the operator as in `mish serve`: a real `read -s` and a real Python getpass (both
 * read the run's terminal, as sudo and ssh do) in a real mish CLI process; the operator is the
 * real OperatorClient over the wire. The operator types the secret; the run completes with the
 * program's exit code; the text the agent reads has the credential-blind summary and no secret,
 * and no file under the run's HOME (spool, state, audit) holds it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Handoff } from '../../src/shared/operator-wire.js';
import { filesContaining } from '../helpers/files-containing.js';
import { safeHome, type SafeHome } from '../helpers/safe-home.js';
import { watchServers } from './operator-watch.js';

const MISH = path.resolve(__dirname, '../../bin/mish.js');
/** The real interpreter (a pyenv shim would not run with the temp HOME). */
const PYTHON = (() => {
  const r = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
})();

let home: SafeHome;
let dir: string;
beforeEach(() => {
  home = safeHome('cli-handoff');
  dir = path.join(home.home, '.run', 'ops');
});
afterEach(() => home.dispose());

/** Runs `mish -- line` as an agent's shell tool would (no terminal, stdin /dev/null) while an operator answers its secret prompt. */
async function handedOff(line: string, secret: string): Promise<{ code: number | null; out: string; handoffs: Handoff[]; backlog: string }> {
  const handoffs: Handoff[] = [];
  let backlog = '';
  // Looking for servers marks this process as a running operator, as the console does.
  const operator = watchServers(
    dir,
    { name: 'test-operator', role: 'console', approvals: true },
    (client) => {
      const answer = (h: Handoff) => {
        if (handoffs.some((x) => x.id === h.id)) return;
        handoffs.push(h);
        void (async () => {
          const a = await client.request({ type: 'handoff-attach', id: h.id });
          if (!a.ok) return;
          backlog = Buffer.from((a.result as { backlog: string }).backlog, 'base64').toString();
          client.send({ type: 'input', handoffId: h.id, data: Buffer.from(`${secret}\r`).toString('base64') });
          await client.request({ type: 'handoff-return', id: h.id });
        })();
      };
      // A prompt met while our hello was in flight is in the hello (its request came before we listened).
      for (const h of client.hello.handoffs) if (h.state === 'pending') answer(h);
      client.on('handoff-request', (m) => answer(m.handoff));
    },
    { retryRefused: true },
  );
  try {
    await new Promise((res) => setTimeout(res, 100));
    const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const c = spawn(process.execPath, [MISH, '--', line], { cwd: home.cwd, env: home.env({ MISH_OPERATOR_DIR: dir, MISH_AGENT: 'claude-code', MISH_AGENT_SESSION: 'sess-pw' }), stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      c.stdout.on('data', (d: Buffer) => (out += d.toString()));
      c.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const timer = setTimeout(() => c.kill('SIGKILL'), 40_000);
      c.on('close', (code) => (clearTimeout(timer), resolve({ code, out })));
    });
    return { ...r, handoffs, backlog };
  } finally {
    await operator.stop();
  }
}

describe('a password prompt in a hooked run goes to the operator', () => {
  it('read -s at the terminal: the operator types over the wire, the run completes, the agent reads the summary and no secret', async () => {
    const secret = 'Tr0ub4dor-cli-read-s';
    writeFileSync(path.join(home.cwd, 'ask.sh'), 'read -r -s -p "Password: " pw </dev/tty\necho\necho "len=${#pw}"\nprintf %s "$pw" | sha256sum | cut -c1-16\nexit 3\n');
    const r = await handedOff('bash ask.sh', secret);
    expect(r.handoffs, r.out).toHaveLength(1);
    expect(r.handoffs[0]).toMatchObject({ why: 'secret-prompt', session: 'sess-pw', command: 'bash ask.sh' });
    expect(r.backlog).toContain('Password:');
    expect(r.code).toBe(3);
    // The program read exactly what the operator typed.
    const digest = spawnSync('sh', ['-c', `printf %s '${secret}' | sha256sum | cut -c1-16`], { encoding: 'utf8' }).stdout.trim();
    expect(r.out).toContain(`len=${secret.length}`);
    expect(r.out).toContain(digest);
    expect(r.out).toContain(`[operator handoff ${r.handoffs[0].id}: secret prompt "Password:`);
    expect(r.out).toContain('held by test-operator');
    expect(r.out).toContain('the operator typed an answer (not shown to you)');
    expect(r.out).not.toContain(secret);
    expect(filesContaining(home.home, secret)).toEqual([]);
  }, 60_000);

  it.skipIf(!PYTHON)("Python's getpass: a secret the program prints afterwards is masked in what the agent reads", async () => {
    const secret = 'pa ss/w@rd+cli-42!';
    writeFileSync(path.join(home.cwd, 'ask.py'), 'import getpass\ns = getpass.getpass("Passphrase: ")\nprint("raw", s)\nprint("done", len(s))\n');
    const r = await handedOff(`${PYTHON} ask.py`, secret);
    expect(r.handoffs, r.out).toHaveLength(1);
    expect(r.code).toBe(0);
    expect(r.out).toContain(`done ${secret.length}`);
    expect(r.out).toContain('raw [masked: typed secret]');
    expect(r.out).toContain(`[operator handoff ${r.handoffs[0].id}: secret prompt "Passphrase:`);
    expect(r.out).not.toContain(secret);
  }, 60_000);
});

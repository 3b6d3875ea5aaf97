/**
 * A secret prompt answered at a handoff is not handed off again while the answer is on its way: a PTY's input reaches the
 * program through a kernel worker, and on a loaded machine the yield watcher saw the prompt still waiting (no output, the
 * reader still asleep) and a second handoff opened for the answered prompt (stress run 192, cli-handoff.test.ts). Driven
 * through a session source of its own, as the CLI's hooked run feeds OperatorHost (cli/wire-publish.ts).
 */
import { describe, expect, it } from 'vitest';
import type { ProcessEntry, SessionEvent, SessionEventListener } from '../src/main/core/session/types.js';
import { OperatorHost, type OperatorSessionSource } from '../src/main/operator/operator-host.js';
import type { ServerMessage } from '../src/shared/operator-wire.js';

describe('a secret prompt answered at a handoff', () => {
  it('opens no second handoff until the program prints again; a prompt after output opens one', () => {
    const listeners = new Set<SessionEventListener>();
    const emit = (e: SessionEvent) => listeners.forEach((l) => l(e));
    const entry: ProcessEntry = { id: 'c1', kind: 'command', session: 's', command: 'python3 ask.py', cwd: '/', pid: 1, pgid: 1, state: 'running', startedAt: Date.now(), elapsedMs: 0, lastLine: '', rawBytes: 12, rawLines: 0 };
    const typed: string[] = [];
    const source = {
      subscribe: (l: SessionEventListener) => (listeners.add(l), () => listeners.delete(l)),
      list: () => [],
      processes: { list: () => [{ ...entry }], get: (id: string) => (id === entry.id ? { ...entry } : undefined), digest: () => '' },
      process: (id: string) => (id === entry.id ? { id, entry: () => ({ ...entry }), send: (t: string) => typed.push(t) } : undefined),
    } as unknown as OperatorSessionSource;
    const host = new OperatorHost({ sessions: source, version: 'test', cwd: '/' });
    try {
      const got: ServerMessage[] = [];
      const conn = host.connect({ send: (m) => got.push(m), close: () => {} });
      conn.receive({ type: 'hello', wire: 1, name: 'op', role: 'console' });
      const requests = () => got.filter((m): m is Extract<ServerMessage, { type: 'handoff-request' }> => m.type === 'handoff-request');
      const waiting = () => emit({ type: 'waiting-for-input', source: { kind: 'command', id: entry.id, session: 's' }, waiting: { prompt: 'Passphrase:', secret: true, reasons: ['secret-terminal-mode'], since: Date.now() } });

      emit({ type: 'process', change: 'added', entry: { ...entry } });
      waiting();
      expect(requests()).toHaveLength(1);
      const id = requests()[0].handoff.id;
      conn.receive({ type: 'handoff-attach', rid: 1, id });
      conn.receive({ type: 'input', handoffId: id, data: Buffer.from('pa ss\r').toString('base64') });
      conn.receive({ type: 'handoff-return', rid: 2, id });
      expect(typed.join('')).toBe('pa ss\r');

      // The watcher sees the prompt waiting again before the program read the answer: no output since the Return.
      waiting();
      expect(requests()).toHaveLength(1);
      // The program read it and printed (getpass' newline), then asked again (a wrong passphrase): a new handoff.
      entry.rawBytes += 1;
      waiting();
      expect(requests()).toHaveLength(2);
      expect(requests()[1].handoff).toMatchObject({ why: 'secret-prompt', prompt: 'Passphrase:', processId: 'c1' });
    } finally {
      host.dispose();
    }
  });
});

/**
 * A background process's output (sh_spawn: a dev server, a watcher), opened from the list under
 * its agent: its spool's last lines with colours, read again every READ_AGAIN_MS while it runs
 * and kept at the newest line unless the operator scrolls up. Esc closes it.
 */
import { useEffect, useState } from 'react';
import type { BackgroundProcess, CommandInfo, ConsoleBridge } from '../../shared/contract.js';
import { clock } from './format.js';
import { RawPane } from './raw-pane.js';
import { useNow } from './use-now.js';

/** How often a running process's output is read again (each read is the spool's last 5,000 lines). */
const READ_AGAIN_MS = 2000;

export function BackgroundOutput({ bridge, process: p, onClose }: { bridge: ConsoleBridge; process: BackgroundProcess; onClose: () => void }) {
  const running = p.state === 'running' || p.state === 'waiting-for-input';
  const [reads, setReads] = useState(0);
  const now = useNow(1000);
  useEffect(() => {
    if (!running) return;
    const t = setInterval(() => setReads((n) => n + 1), READ_AGAIN_MS);
    return () => clearInterval(t);
  }, [running]);
  // The raw pane reads a command's spool by id; a process started outside a session is named by its server alone.
  const command: CommandInfo = {
    id: p.id,
    sessionId: p.sessionId ?? `${p.serverId}/`,
    command: p.command,
    startedAt: p.startedAt,
    state: running ? 'running' : 'done',
    rawBytes: 0,
    rawLines: 0,
    ...(p.exitCode !== undefined ? { exitCode: p.exitCode } : {}),
  };
  const state = running ? `${p.state === 'running' ? 'running' : 'waiting for input'} ${clock(now - p.startedAt)}` : `${p.state}${p.exitCode !== undefined ? ` (exit ${p.exitCode})` : ''}`;
  return (
    <div className="overlay process-overlay" role="dialog" aria-label={`output of background process ${p.id}`} data-process-id={`${p.serverId}/${p.id}`} onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div className="dialog process-output">
        <header className="pane-head">
          <span className="pane-title">
            {p.alias ? `${p.alias} · ` : ''}
            {p.id} · <code>{p.command}</code>
          </span>
          <span className="muted">
            {state} · pid {p.pid} · {p.cwd}
          </span>
          <button onClick={onClose}>
            Close <kbd>Esc</kbd>
          </button>
        </header>
        <RawPane bridge={bridge} command={command} readAgain={reads} follow />
      </div>
    </div>
  );
}

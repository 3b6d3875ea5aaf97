/** Left column: agents (servers) as groups with their sessions, then the queue of what needs the operator. */
import { useMemo, useState, type KeyboardEvent } from 'react';
import type { ServerInfo, SessionInfo } from '../../shared/contract.js';
import { SESSION_STATE, STATE_ORDER } from './glyphs.js';
import { shortPath } from './format.js';
import { attention, useConsole } from './store.js';

export function serverLabel(s: ServerInfo | undefined): string {
  if (!s) return '';
  return `${s.name}${s.version ? ` ${s.version}` : ''}`;
}

export function Sidebar() {
  const servers = useConsole((s) => s.servers);
  const sessions = useConsole((s) => s.sessions);
  const selectedId = useConsole((s) => s.selectedId);
  const select = useConsole((s) => s.select);
  const [collapsed, setCollapsed] = useState<Record<string, boolean>>({});

  const groups = useMemo(() => {
    const order = [...servers].sort((a, b) => Number(a.state === 'gone') - Number(b.state === 'gone'));
    return order
      .map((server) => ({
        server,
        sessions: sessions.filter((x) => x.serverId === server.id).sort((a, b) => STATE_ORDER[a.state] - STATE_ORDER[b.state] || a.name.localeCompare(b.name)),
      }))
      // The console's own engine is listed once an agent uses it (its URL is on the welcome page).
      .filter((g) => g.server.kind !== 'console' || g.sessions.length > 0 || (g.server.clients?.length ?? 0) > 0);
  }, [servers, sessions]);
  const flat = groups.flatMap((g) => (collapsed[g.server.id] ? [] : g.sessions));
  const pending = attention(sessions).sort((a, b) => (a.waiting?.since ?? 0) - (b.waiting?.since ?? 0));

  // Arrow keys move the selection within the list (roving focus: only on the operator's own keys).
  const onKey = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    const i = flat.findIndex((x) => x.id === selectedId);
    const next = flat[Math.min(flat.length - 1, Math.max(0, i + (e.key === 'ArrowDown' ? 1 : -1)))];
    if (!next) return;
    e.preventDefault();
    select(next.id);
    document.querySelector<HTMLElement>(`[data-session-id="${CSS.escape(next.id)}"]`)?.focus();
  };

  return (
    <nav className="sidebar" aria-label="agents and sessions">
      <h2 className="section-title">Agents &amp; sessions</h2>
      {groups.length === 0 && <p className="empty">No agent yet. Connect one (see the right pane).</p>}
      <ul className="groups" onKeyDown={onKey}>
        {groups.map(({ server, sessions: list }) => {
          const closed = !!collapsed[server.id];
          return (
            <li key={server.id} className={`group server-${server.state}`} data-server-id={server.id}>
              <button
                className="group-head"
                aria-expanded={!closed}
                onClick={() => setCollapsed((c) => ({ ...c, [server.id]: !closed }))}
                title={`${serverLabel(server)} · ${server.cwd ?? ''}${server.pid ? ` · pid ${server.pid}` : ''}${server.clients?.length ? ` · clients: ${server.clients.join(', ')}` : ''}`}
              >
                <span className="caret" aria-hidden>{closed ? '▸' : '▾'}</span>
                <span className="server-name">{serverLabel(server)}</span>
                <span className="server-cwd">{shortPath(server.cwd)}</span>
                {server.state === 'gone' && <span className="badge gone">⊘ gone</span>}
                {closed && <span className="count">({list.length})</span>}
              </button>
              {server.kind === 'console' && server.clients && server.clients.length > 0 && !closed && (
                <div className="clients">via URL: {server.clients.join(', ')}</div>
              )}
              {!closed && (
                <ul className="sessions" aria-label={`sessions of ${serverLabel(server)}`}>
                  {list.map((s) => (
                    <SessionItem key={s.id} session={s} selected={s.id === selectedId} onSelect={() => select(s.id)} />
                  ))}
                  {list.length === 0 && <li className="empty">no sessions yet</li>}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
      <h2 className="section-title">Pending ({pending.length})</h2>
      <ul className="pending" aria-label="pending">
        {pending.length === 0 && <li className="empty">nothing needs you</li>}
        {pending.map((s) => (
          <li key={s.id}>
            <button className="pending-item" onClick={() => select(s.id)} data-pending={s.id}>
              <span className="glyph" aria-hidden>⌨</span> <span className="prompt">{s.waiting?.secret ? 'secret prompt' : (s.waiting?.prompt || 'reads input')}</span>
              <span className="where">{s.name}</span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function SessionItem({ session, selected, onSelect }: { session: SessionInfo; selected: boolean; onSelect: () => void }) {
  const st = SESSION_STATE[session.state];
  return (
    <li>
      <button
        className={`session state-${session.state}${selected ? ' selected' : ''}`}
        aria-current={selected ? 'true' : undefined}
        data-session-id={session.id}
        data-state={session.state}
        tabIndex={selected ? 0 : -1}
        onClick={onSelect}
        title={session.command ?? session.cwd}
      >
        <span className="glyph" aria-hidden>{st.glyph}</span>
        <span className="name">{session.name}</span>
        <span className="state-word">{st.word}</span>
      </button>
    </li>
  );
}

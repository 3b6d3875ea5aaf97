/** Left column: agents (servers) as groups with their sessions, then the queue of what needs the operator. */
import { Fragment, useMemo, useState, type KeyboardEvent } from 'react';
import type { BackgroundProcess, ConsoleBridge, HostLink, ServerInfo, SessionInfo } from '../../shared/contract.js';
import { BulkBar, PickBox } from './bulk-decisions.js';
import { SESSION_STATE, STATE_ORDER } from './glyphs.js';
import { clock, conversationLabel, relative, absolute, serverLabel, sessionLabel, shortPath } from './format.js';
import { TranscriptPath } from './transcript-path.js';
import { useNow } from './use-now.js';
import { attention, useConsole } from './store.js';

export function Sidebar({ bridge }: { bridge: ConsoleBridge }) {
  const servers = useConsole((s) => s.servers);
  const sessions = useConsole((s) => s.sessions);
  const selectedId = useConsole((s) => s.selectedId);
  const select = useConsole((s) => s.select);
  const [collapsed, setCollapsed] = useState<Record<string, boolean>>({});

  const hosts = useConsole((s) => s.hosts);
  const groups = useMemo(() => {
    // Grouped by host (this machine first), then agent; gone servers last within their host.
    const order = [...servers].sort((a, b) => (a.host ?? '').localeCompare(b.host ?? '') || Number(a.state === 'gone') - Number(b.state === 'gone'));
    return order
      .map((server) => ({
        server,
        sessions: sessions.filter((x) => x.serverId === server.id).sort((a, b) => STATE_ORDER[a.state] - STATE_ORDER[b.state] || a.name.localeCompare(b.name)),
      }))
      // The console's own engine is listed once an agent uses it (its URL is on the welcome page).
      .filter((g) => g.server.kind !== 'console' || g.sessions.length > 0 || (g.server.clients?.length ?? 0) > 0);
  }, [servers, sessions]);
  const flat = groups.flatMap((g) => (collapsed[g.server.id] ? [] : g.sessions));
  const approvals = useConsole((s) => s.approvals);
  const handoffs = useConsole((s) => s.handoffs).filter((h) => h.state === 'pending' || h.state === 'attached');
  const openApproval = useConsole((s) => s.openApproval);
  const setMobileView = useConsole((s) => s.setMobileView);
  /** Selects a session (on a phone, also shows it: the list and the session are separate views there). */
  const open = (id: string) => {
    select(id);
    setMobileView('session');
  };
  // Sessions waiting on an approval or a handoff are listed by those, not again as "waiting".
  const covered = new Set([...approvals.map((a) => a.sessionId), ...handoffs.map((h) => h.sessionId ?? '')]);
  const pending = attention(sessions)
    .filter((s) => !covered.has(s.id))
    .sort((a, b) => (a.waiting?.since ?? 0) - (b.waiting?.since ?? 0));
  const count = pending.length + approvals.length + handoffs.length;
  const nameOf = (sessionId?: string) => sessions.find((x) => x.id === sessionId)?.name ?? sessionId?.split('/').pop() ?? '';
  /** Whose an entry is: the agent (with its host machine), the session, a hooked run's conversation. Three agents must be told apart at a glance. */
  const whose = (serverId: string | undefined, sessionName: string) => {
    const server = servers.find((x) => x.id === serverId);
    return <Whose server={server} session={sessionName} />;
  };

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
        {groups.map(({ server, sessions: list }, i) => {
          const closed = !!collapsed[server.id];
          const hostHead = hosts.length > 0 && (i === 0 || groups[i - 1].server.host !== server.host);
          return (
            <Fragment key={server.id}>
            {hostHead && <HostHead host={server.host} link={hosts.find((h) => h.host === server.host)} />}
            <li className={`group server-${server.state}${server.conversation?.ended ? ' conversation-ended' : ''}`} data-server-id={server.id} data-ended={server.conversation?.ended ? 'true' : undefined}>
              <button
                className="group-head"
                aria-expanded={!closed}
                onClick={() => setCollapsed((c) => ({ ...c, [server.id]: !closed }))}
                title={`${serverLabel(server)} · ${server.cwd ?? ''}${server.pid ? ` · pid ${server.pid}` : ''}${server.clients?.length ? ` · clients: ${server.clients.join(', ')}` : ''}${server.conversation ? `\nits own shell tool, hooked (mish init): session ${server.conversation.session}, ${conversationLabel(server)}` : ''}`}
              >
                <span className="caret" aria-hidden>{closed ? '▸' : '▾'}</span>
                <span className="server-name">{serverLabel(server)}</span>
                <span className="server-cwd">{shortPath(server.cwd)}</span>
                {server.state === 'gone' && <span className="badge gone">⊘ gone</span>}
                {server.conversation?.ended && <span className="badge ended">ended</span>}
                {closed && <span className="count">({list.length})</span>}
              </button>
              {/* An agent whose own shell tool is hooked: its conversation's runs, gathered here. */}
              {server.conversation && !closed && <ConversationDetail bridge={bridge} server={server} />}
              {server.kind === 'console' && server.clients && server.clients.length > 0 && !closed && (
                <div className="clients">via URL: {server.clients.join(', ')}</div>
              )}
              {!closed && (
                <ul className="sessions" aria-label={`sessions of ${serverLabel(server)}`}>
                  {list.map((s) => (
                    <SessionItem key={s.id} session={s} selected={s.id === selectedId} onSelect={() => open(s.id)} />
                  ))}
                  {list.length === 0 && <li className="empty">no sessions yet</li>}
                </ul>
              )}
              {!closed && <BackgroundList server={server} />}
            </li>
            </Fragment>
          );
        })}
        {/* A remote machine with no server listed (yet, or its link is down) still shows its link. */}
        {hosts
          .filter((h) => !groups.some((g) => g.server.host === h.host))
          .map((h) => (
            <HostHead key={h.host} host={h.host} link={h} empty />
          ))}
      </ul>
      <h2 className="section-title">Pending ({count})</h2>
      <ul className="pending" aria-label="pending">
        {count === 0 && <li className="empty">nothing needs you</li>}
        {approvals.length > 0 && (
          <li>
            <BulkBar bridge={bridge} />
          </li>
        )}
        {approvals.map((a) => (
          <li key={`${a.serverId}/${a.id}`} className="approval-row">
            <PickBox approval={a} />
            <button
              className="pending-item approval-item"
              data-approval={a.id}
              title={`${a.command}\n${a.reason ?? ''}\n${serverLabel(servers.find((x) => x.id === a.serverId))} · session ${a.session}`}
              onClick={() => {
                select(a.sessionId);
                openApproval(a.id);
              }}
            >
              <span className="glyph" aria-hidden>⚠</span> <code className="prompt">{a.command}</code>
              {whose(a.serverId, a.session)}
            </button>
          </li>
        ))}
        {handoffs.map((h) => (
          <li key={h.id}>
            <button className="pending-item handoff-item" data-handoff={h.id} onClick={() => h.sessionId && open(h.sessionId)}>
              <span className="glyph" aria-hidden>{h.why === 'secret-prompt' ? '⌨' : '⇄'}</span>{' '}
              <span className="prompt">{h.state === 'attached' ? (h.mine ? 'you hold it' : 'held by an operator') : h.why === 'secret-prompt' ? 'secret prompt' : 'handed off'}</span>
              {whose(h.serverId, nameOf(h.sessionId))}
            </button>
          </li>
        ))}
        {pending.map((s) => (
          <li key={s.id}>
            <button className="pending-item" onClick={() => open(s.id)} data-pending={s.id}>
              <span className="glyph" aria-hidden>{s.state === 'needs-approval' ? '⚠' : '⌨'}</span>{' '}
              <span className="prompt" title={s.state === 'needs-approval' ? 'decide it in the approval dialog (or with `mish approvals`)' : undefined}>
                {s.state === 'needs-approval' ? `approve? ${s.command ?? ''}` : s.waiting?.secret ? 'secret prompt' : s.waiting?.prompt || 'reads input'}
              </span>
              {whose(s.serverId, s.name)}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Whose a pending entry is: `claude-code 2.1 · build` (a hooked run: `claude-code 2.1 · hooked · 33389c0f…`; another machine: `@devbox`). */
function Whose({ server, session }: { server?: ServerInfo; session: string }) {
  const hooked = !!server?.conversation;
  return (
    <span className="whose" title={`${serverLabel(server) || 'unknown agent'}${server?.host ? ` on ${server.host}` : ''} · ${hooked ? 'conversation' : 'session'} ${session}${server?.cwd ? ` · ${server.cwd}` : ''}`}>
      <span className="agent">{serverLabel(server) || '?'}</span>
      {server?.host ? <span className="host"> @{server.host}</span> : null}
      {' · '}
      {hooked ? 'hooked · ' : ''}
      <span className="where">{sessionLabel(session)}</span>
    </span>
  );
}

/** A hooked conversation's entry detail: its runs, its transcript (copyable), when its last run was; ended ones can be dismissed. */
function ConversationDetail({ bridge, server }: { bridge: ConsoleBridge; server: ServerInfo }) {
  const c = server.conversation!;
  const now = useNow(c.ended || c.live ? 0 : 60_000);
  const [error, setError] = useState<string>();
  return (
    <div className="conv-detail">
      <span className="row-line">
        <span className="clients badge hooked" data-conversation={c.session}>
          {conversationLabel(server)}
        </span>
        {c.lastRunAt !== undefined && !c.live && (
          // A conversation seen only through its hook's approvals ran nothing: "last run" would say otherwise.
          <span title={absolute(c.lastRunAt)}>
            {c.runs ? 'last run' : 'last seen'} {relative(c.lastRunAt, now || Date.now())}
          </span>
        )}
        {c.ended && (
          <button
            className="dismiss-btn"
            data-dismiss={server.id}
            title="Hide this ended conversation (its rows stay in the console; a new run shows it again)"
            onClick={() => void bridge.dismissConversation({ serverId: server.id }).catch((e: Error) => setError(e.message))}
          >
            Dismiss
          </button>
        )}
      </span>
      {c.transcript && (
        <span className="row-line">
          transcript <TranscriptPath path={c.transcript} />
        </span>
      )}
      {error && <span className="error">{error}</span>}
    </div>
  );
}

/** A machine's heading: this one, or a remote host with its ssh link's state (said, not only coloured). */
function HostHead({ host, link, empty }: { host?: string; link?: HostLink; empty?: boolean }) {
  const state = !host ? undefined : link?.state === 'up' ? '● linked' : link?.state === 'reconnecting' ? '⟳ reconnecting…' : '◌ connecting…';
  return (
    <li className={`host-head${link ? ` link-${link.state}` : ''}`} data-host={host ?? 'local'} title={link?.reason ?? ''}>
      <span className="host-name">⌂ {host ?? 'this machine'}</span>
      {state && <span className="link-state">{state}</span>}
      {link?.state === 'reconnecting' && link.reason && <span className="link-reason">{link.reason}</span>}
      {empty && link?.state === 'up' && <span className="link-reason">no mish serve running there</span>}
    </li>
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
        title={`${session.name}${session.command ? `\n${session.command}` : session.cwd ? `\n${session.cwd}` : ''}`}
      >
        <span className="glyph" aria-hidden>{st.glyph}</span>
        <span className="name">{sessionLabel(session.name)}</span>
        <span className="state-word">{st.word}</span>
      </button>
    </li>
  );
}

const PROCESS_STATE: Record<BackgroundProcess['state'], { glyph: string; word: string }> = {
  running: { glyph: '●', word: 'running' },
  'waiting-for-input': { glyph: '⌨', word: 'waiting for input' },
  exited: { glyph: '✕', word: 'exited' },
  killed: { glyph: '✕', word: 'killed' },
};

/** An agent's background processes (sh_spawn: dev servers, watchers), under its sessions. */
function BackgroundList({ server }: { server: ServerInfo }) {
  const all = useConsole((s) => s.processes);
  const list = useMemo(() => all.filter((p) => p.serverId === server.id), [all, server.id]);
  const now = useNow(1000);
  const open = useConsole((s) => s.openProcess);
  if (list.length === 0) return null;
  return (
    <ul className="background" aria-label={`background processes of ${serverLabel(server)}`}>
      {list.map((p) => {
        const st = PROCESS_STATE[p.state];
        const ended = p.state === 'exited' || p.state === 'killed';
        return (
          <li key={p.id}>
            <button
              className={`bg-process state-${p.state}`}
              data-process-id={`${p.serverId}/${p.id}`}
              data-state={p.state}
              onClick={() => open(`${p.serverId}/${p.id}`)}
              title={`${p.command}\npid ${p.pid} · ${p.cwd}${p.sessionId ? ` · started in session ${p.sessionId.split('/').pop()}` : ''}\nlast line: ${p.lastLine}\n(click: its output)`}
            >
              <span className="glyph" aria-hidden>{st.glyph}</span>
              <code className="bg-command">{p.alias ? `${p.alias}: ` : ''}{p.command}</code>
              <span className="state-word">
                {ended ? `${st.word}${p.exitCode !== undefined ? ` ${p.exitCode}` : ''}` : `${p.id} · ${clock(now - p.startedAt)}`}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The console window (CONSOLE.md): a top bar with the counts and the connection; left, the
 * agents with their sessions and the pending queue; right, the selected session's header,
 * command timeline, live terminal (or the selected command's raw output) and what the agent saw.
 */
import { useEffect, useRef, useState } from 'react';
import type { ConsoleBridge, SessionInfo } from '../../shared/contract.js';
import { AgentPane, type FoldJump } from './agent-pane.js';
import { clock, shortPath } from './format.js';
import { SESSION_STATE } from './glyphs.js';
import { RawPane } from './raw-pane.js';
import { Sidebar } from './sidebar.js';
import { conversationLabel, serverLabel, sessionLabel } from './format.js';
import { attention, shownCommand, useConsole } from './store.js';
import { TerminalView, type TerminalHandle } from './terminal-view.js';
import { Timeline } from './timeline.js';
import { useNow } from './use-now.js';
import { ApprovalHost } from './approval-dialog.js';
import { AuditViewer } from './audit-viewer.js';
import { BackgroundOutput } from './background-output.js';
import { OperatorSessionPane, TakeoverBar, useTakeover } from './takeover.js';
import { typesIntoField } from './typing.js';
import { NeedsYou, PhoneTabs, useIsPhone } from './phone.js';
import { GrammarEditorButton, GrammarEditorOverlay, useGrammarEditor } from './grammar-editor/open-grammar-editor.js';
import { neverRan } from './approval-mark.js';
import { TranscriptPath } from './transcript-path.js';

const SHORTCUTS: [string, string][] = [
  ['↑ / ↓', 'previous / next session (in the list)'],
  ['Alt+↑ / Alt+↓', 'previous / next session (anywhere)'],
  ['Ctrl+L', 'live terminal'],
  ['Ctrl+R', 'raw output of the selected command'],
  ['Ctrl+F', 'search the terminal'],
  ['[ / ]', 'previous / next command'],
  ['p', 'pin the shown command (it stays through takeovers and new commands) / unpin'],
  ['g', 'grammar editor (live preview against a command)'],
  ['u', 'audit log'],
  ['A / D / E / S', 'approval: approve / deny / edit then approve / always for this session'],
  ['Esc', 'approval: decide later'],
  ['Ctrl+T', 'take over the terminal / return it to the agent'],
  ['?', 'this help'],
  ['Esc', 'close'],
];

export function App({ bridge }: { bridge: ConsoleBridge }) {
  const sessions = useConsole((s) => s.sessions);
  const servers = useConsole((s) => s.servers);
  const selectedId = useConsole((s) => s.selectedId);
  const connection = useConsole((s) => s.connection);
  const reason = useConsole((s) => s.connectionReason);
  const helpOpen = useConsole((s) => s.helpOpen);
  const auditOpen = useConsole((s) => s.auditOpen);
  const processOpen = useConsole((s) => s.processOpen);
  const openProcess = useConsole((s) => s.processes.find((p) => `${p.serverId}/${p.id}` === s.processOpen));
  const selected = sessions.find((s) => s.id === selectedId);
  const approvals = useConsole((s) => s.approvals);
  const handoffs = useConsole((s) => s.handoffs);
  // Sessions that need the operator, counting approvals of sessions not listed yet (a first command escalated).
  const need = new Set([...attention(sessions).map((s) => s.id), ...approvals.map((a) => a.sessionId), ...handoffs.filter((h) => h.state === 'pending').map((h) => h.sessionId ?? h.id)]).size;
  const agents = servers.filter((s) => s.state === 'connected' && (s.kind === 'serve' || (s.clients?.length ?? 0) > 0)).length;
  const live = sessions.filter((s) => s.state !== 'gone').length;
  useShortcuts();
  const grammar = useGrammarEditor();
  const phone = useIsPhone();
  const mobileView = useConsole((s) => s.mobileView);

  return (
    <div className={phone ? 'app phone' : 'app'} data-layout={phone ? 'phone' : 'desktop'}>
      <header className="topbar">
        <span className="brand">mish</span>
        <span className="counts">
          {agents} {agents === 1 ? 'agent' : 'agents'} · {live} {live === 1 ? 'session' : 'sessions'}
          {need > 0 && <span className="need"> · ⚠ {need} need{need === 1 ? 's' : ''} you</span>}
        </span>
        <span className={`conn conn-${connection}`} title={reason} role="status">
          {connection === 'open' ? '● connected' : connection === 'connecting' ? (reason ? '◌ reconnecting…' : '◌ connecting…') : `✕ disconnected${reason ? `: ${reason}` : ''}`}
        </span>
        <button className="audit-btn" onClick={() => useConsole.getState().setAudit(true)} title="Audit log (u)">
          Audit <kbd>u</kbd>
        </button>
        <GrammarEditorButton onClick={() => grammar.show()} />
        <button className="help-btn" onClick={() => useConsole.getState().setHelp(true)} aria-label="keyboard shortcuts">?</button>
      </header>
      {phone ? (
        <>
          <main className="main phone-main" data-phone-view={mobileView}>
            {mobileView === 'needs' && <NeedsYou bridge={bridge} />}
            {mobileView === 'sessions' && <Sidebar bridge={bridge} />}
            {mobileView === 'session' && (selected ? <SessionView bridge={bridge} session={selected} onGrammar={grammar.show} /> : <Welcome />)}
          </main>
          <PhoneTabs />
        </>
      ) : (
        <>
          <Sidebar bridge={bridge} />
          <main className="main">{selected ? <SessionView bridge={bridge} session={selected} onGrammar={grammar.show} /> : <Welcome />}</main>
        </>
      )}
      {helpOpen && <Help />}
      {/* On a phone the dialog opens when asked (a card's "Edit / always…") or over the session view, never over the cards. */}
      <ApprovalHost bridge={bridge} auto={!phone || mobileView === 'session'} />
      {auditOpen && <AuditViewer bridge={bridge} onClose={() => useConsole.getState().setAudit(false)} />}
      {processOpen && openProcess && <BackgroundOutput bridge={bridge} process={openProcess} onClose={() => useConsole.getState().openProcess(undefined)} />}
      <GrammarEditorOverlay bridge={bridge} state={grammar} />
    </div>
  );
}

function SessionView({ bridge, session, onGrammar }: { bridge: ConsoleBridge; session: SessionInfo; onGrammar: (spoolId?: string) => void }) {
  const server = useConsole((s) => s.servers.find((x) => x.id === session.serverId));
  const command = useConsole((s) => shownCommand(s, session.id));
  const pinned = useConsole((s) => !!s.pinned[session.id]);
  /** A command that never ran (denied) has no raw output to read. */
  const rawCommand = command && !neverRan(command) ? command : undefined;
  const pane = useConsole((s) => s.pane);
  const setPane = useConsole((s) => s.setPane);
  const setTimeline = useConsole((s) => s.setTimeline);
  const [jump, setJump] = useState<FoldJump & { seq: number }>();
  const handle = useRef<TerminalHandle>({}).current;
  const epoch = useConsole((s) => s.epoch);
  const now = useNow(session.commandStartedAt ? 1000 : 0);
  const st = SESSION_STATE[session.state];
  const takeover = useTakeover(bridge, session);
  // A first command that escalated has not started: the session has no current command, its approval has.
  const escalated = useConsole((s) => s.approvals.find((a) => a.sessionId === session.id)?.command);

  useEffect(() => {
    let live = true;
    bridge.listCommands({ sessionId: session.id }).then((r) => live && setTimeline(session.id, r.commands), () => {});
    return () => {
      live = false;
    };
  }, [bridge, session.id, setTimeline, epoch]);

  return (
    <div className="session-view" data-session-id={session.id}>
      <header className="session-head">
        <span className="title">
          <b title={session.name}>{sessionLabel(session.name)}</b> · {serverLabel(server)}{server?.conversation ? ` · ${conversationLabel(server)}` : ''} · {shortPath(session.cwd)} · {session.shell.split('/').pop()}
        </span>
        <span className={`state state-${session.state}`} data-state={session.state}>
          {st.glyph} {st.word}
          {session.commandStartedAt && session.state !== 'gone' ? ` ${clock(now - session.commandStartedAt)}` : ''}
        </span>
      </header>
      {server?.conversation?.transcript && (
        <div className="conversation-facts">
          transcript <TranscriptPath path={server.conversation.transcript} />
        </div>
      )}
      <TakeoverBar t={takeover} />
      {session.state === 'waiting' && session.waiting && !takeover.handoff && (
        <div className="banner attn" role="status">
          ⌨ waiting for input: <code>{session.waiting.secret ? '(secret prompt, echo off)' : session.waiting.prompt || '(reads its input)'}</code> —{' '}
          {server?.conversation ? 'its agent cannot type into a hooked run: take over to answer it.' : 'the agent was told; it answers with sh_interact.'}
        </div>
      )}
      {session.state === 'needs-approval' && (
        <div className="banner attn" role="status">
          ⚠ needs approval: <code>{escalated ?? session.command ?? ''}</code> — decide it in the approval dialog (or with <code>mish approvals</code> in a terminal); the agent's call waits.
        </div>
      )}
      {/* Held by this console, or still waiting to be taken: the takeover bar above says it; this banner is for a terminal someone else holds. */}
      {session.state === 'handed-off' && !takeover.held && takeover.handoff?.state !== 'pending' && <div className="banner attn" role="status">⇄ handed off: an operator has this terminal; the agent sees nothing typed.</div>}
      {session.state === 'gone' && <div className="banner gone">⊘ this agent's server is gone; what it did stays here to read.</div>}
      <Timeline sessionId={session.id} shownId={command?.id} onGrammar={onGrammar} />
      <div className="panes">
        <section className="left-pane">
          <div className="tabs" role="tablist">
            <button role="tab" aria-selected={pane === 'live'} onClick={() => setPane('live')}>
              Live terminal <kbd>Ctrl+L</kbd>
            </button>
            <button role="tab" aria-selected={pane === 'raw'} onClick={() => setPane('raw')} disabled={!rawCommand}>
              Raw {rawCommand ? rawCommand.id : ''} <kbd>Ctrl+R</kbd>
            </button>
            <span className="size">
              {session.cols}×{session.rows}
            </span>
            {pane === 'live' && <TerminalSearch handle={handle} />}
            {takeover.canTake && takeover.handoff?.state !== 'pending' && (
              <button className="take-btn quiet" onClick={() => void takeover.take()}>
                Take over <kbd>Ctrl+T</kbd>
              </button>
            )}
          </div>
          {/* Kept mounted while the raw tab shows, so no output is missed. */}
          <div className={`pane-body${takeover.held ? ' held' : ''}`} hidden={pane !== 'live'}>
            {session.state === 'gone' ? (
              <GoneTerminal bridge={bridge} session={session} handle={handle} />
            ) : (
              <TerminalView key={`${session.id}:${session.pid ?? ''}:${epoch}`} bridge={bridge} sessionId={session.id} cols={session.cols} rows={session.rows} handle={handle} input={takeover.input} />
            )}
          </div>
          {pane === 'raw' && (
            <div className="pane-body">
              {rawCommand ? <RawPane bridge={bridge} command={rawCommand} jump={jump} /> : <p className="empty">{command ? 'this command never ran: no raw output' : 'no command selected'}</p>}
            </div>
          )}
        </section>
        {takeover.held ? (
          <OperatorSessionPane handoff={takeover.held} />
        ) : (
        <AgentPane
          command={command}
          pin={
            command && (
              <button
                className={`pin-btn${pinned ? ' on' : ''}`}
                aria-pressed={pinned}
                onClick={() => useConsole.getState().pin(session.id, !pinned)}
                title={pinned ? 'Pinned: this command stays shown through takeovers and new commands. Unpin to follow the session (p)' : 'Pin this command: keep it shown through takeovers and new commands (p)'}
              >
                {pinned ? '📌 pinned' : 'pin'} <kbd>p</kbd>
              </button>
            )
          }
          onJump={(j) => {
            setPane('raw');
            setJump({ ...j, seq: Date.now() });
          }}
        />
        )}
      </div>
    </div>
  );
}

/** A gone session still shows the output the hub kept. */
function GoneTerminal({ bridge, session, handle }: { bridge: ConsoleBridge; session: SessionInfo; handle: TerminalHandle }) {
  return <TerminalView key={`${session.id}:gone`} bridge={bridge} sessionId={session.id} cols={session.cols} rows={session.rows} handle={handle} />;
}

function TerminalSearch({ handle }: { handle: TerminalHandle }) {
  const [open, setOpen] = useState(false);
  const [q, setQ] = useState('');
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey && e.key.toLowerCase() === 'f') {
        e.preventDefault();
        setOpen(true);
        // Focus moves only because the operator asked for the search box.
        requestAnimationFrame(() => input.current?.focus());
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  if (!open)
    return (
      <button className="search-open" onClick={() => setOpen(true)}>
        Search <kbd>Ctrl+F</kbd>
      </button>
    );
  return (
    <span className="search">
      <input
        ref={input}
        aria-label="search the terminal"
        value={q}
        placeholder="search…"
        onChange={(e) => {
          setQ(e.target.value);
          handle.search?.findNext(e.target.value, { incremental: true });
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') (e.shiftKey ? handle.search?.findPrevious(q) : handle.search?.findNext(q));
          if (e.key === 'Escape') {
            handle.search?.clearDecorations();
            setOpen(false);
          }
        }}
      />
    </span>
  );
}

function Welcome() {
  const console = useConsole((s) => s.servers.find((x) => x.kind === 'console'));
  return (
    <div className="welcome">
      <h1>No session to show yet</h1>
      <p>Sessions appear here the moment an agent runs its first command.</p>
      <h2>Claude Code</h2>
      <pre>claude mcp add mish -- mish serve</pre>
      <h2>Codex (~/.codex/config.toml)</h2>
      <pre>{'[mcp_servers.mish]\ncommand = "mish"\nargs = ["serve"]'}</pre>
      {console?.endpoint && (
        <>
          <h2>By URL (this console's own MCP endpoint)</h2>
          <pre>{console.endpoint}</pre>
          <p>with the bearer token printed by <code>mish console</code>.</p>
        </>
      )}
    </div>
  );
}

function Help() {
  const close = () => useConsole.getState().setHelp(false);
  return (
    <div className="overlay" role="dialog" aria-modal="true" aria-label="keyboard shortcuts" onClick={close}>
      <div className="dialog" onClick={(e) => e.stopPropagation()}>
        <h2>Keyboard</h2>
        <table>
          <tbody>
            {SHORTCUTS.map(([k, what]) => (
              <tr key={k}>
                <td>
                  <kbd>{k}</kbd>
                </td>
                <td>{what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <button onClick={close}>Close</button>
      </div>
    </div>
  );
}

/** Global keys; none fires while the operator types in a field. */
function useShortcuts() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (typesIntoField(e.target as Element | null)) return;
      const st = useConsole.getState();
      if (e.key === 'Escape' && st.helpOpen) return st.setHelp(false);
      if (e.key === '?' && !e.ctrlKey && !e.metaKey) return st.setHelp(!st.helpOpen);
      if (e.key === 'Escape' && st.auditOpen) return st.setAudit(false);
      if (e.key === 'Escape' && st.processOpen) return st.openProcess(undefined);
      if (e.key === 'u' && !e.ctrlKey && !e.metaKey && !e.altKey) return st.setAudit(!st.auditOpen);
      if (e.ctrlKey && e.key.toLowerCase() === 'r') {
        e.preventDefault();
        return st.setPane('raw');
      }
      if (e.ctrlKey && e.key.toLowerCase() === 'l') {
        e.preventDefault();
        return st.setPane('live');
      }
      if (e.altKey && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
        e.preventDefault();
        const list = st.sessions;
        const i = list.findIndex((s) => s.id === st.selectedId);
        const next = list[Math.min(list.length - 1, Math.max(0, i + (e.key === 'ArrowDown' ? 1 : -1)))];
        if (next) st.select(next.id);
        return;
      }
      if (e.key === 'p' && !e.ctrlKey && !e.metaKey && !e.altKey && st.selectedId) return st.pin(st.selectedId, !st.pinned[st.selectedId]);
      if ((e.key === '[' || e.key === ']') && st.selectedId) {
        const list = st.timelines[st.selectedId] ?? [];
        const cur = shownCommand(st, st.selectedId);
        const i = list.findIndex((c) => c.id === cur?.id);
        const next = list[Math.min(list.length - 1, Math.max(0, i + (e.key === ']' ? 1 : -1)))];
        if (next) st.selectCommand(st.selectedId, next.id);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

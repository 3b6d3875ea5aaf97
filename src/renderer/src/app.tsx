/** The console window: session list on the left, the selected session's terminal on the right. */
import type { ConsoleBridge, SessionInfo } from '../../shared/contract.js';
import { useConsole, type CommandRecord } from './store.js';
import { TerminalView } from './terminal-view.js';
import { GrammarEditorButton, GrammarEditorOverlay, useGrammarEditor } from './grammar-editor/open-grammar-editor.js';

export function App({ bridge }: { bridge: ConsoleBridge }) {
  const sessions = useConsole((s) => s.sessions);
  const selectedId = useConsole((s) => s.selectedId);
  const connection = useConsole((s) => s.connection);
  const reason = useConsole((s) => s.connectionReason);
  const selected = sessions.find((s) => s.id === selectedId);
  const grammar = useGrammarEditor();

  return (
    <div className="app">
      <aside className="sidebar">
        <header>
          mish console <GrammarEditorButton onClick={() => grammar.show()} /> <span className={`conn conn-${connection}`} title={reason}>{connection}</span>
        </header>
        <ul className="sessions" aria-label="sessions">
          {sessions.map((s) => (
            <SessionItem key={s.id} session={s} selected={s.id === selectedId} />
          ))}
          {sessions.length === 0 && <li className="empty">no sessions</li>}
        </ul>
      </aside>
      <main className="main">
        {selected ? (
          <>
            <CommandBar sessionId={selected.id} />
            {/* A restarted shell (new pid) is a new terminal: remount the view. */}
            <TerminalView key={`${selected.id}:${selected.pid ?? ''}`} bridge={bridge} sessionId={selected.id} />
          </>
        ) : (
          <div className="placeholder">no session selected</div>
        )}
      </main>
      <GrammarEditorOverlay bridge={bridge} state={grammar} />
    </div>
  );
}

function SessionItem({ session, selected }: { session: SessionInfo; selected: boolean }) {
  const select = useConsole((s) => s.select);
  return (
    <li className={selected ? 'session selected' : 'session'} data-session={session.id} onClick={() => select(session.id)}>
      <span className="name">{session.name}</span>
      <span className={`state state-${session.state}`}>{session.state}</span>
      <div className="detail">
        {session.shell} {session.cwd ? `· ${session.cwd}` : ''}
      </div>
    </li>
  );
}

const EMPTY: CommandRecord[] = [];

function CommandBar({ sessionId }: { sessionId: string }) {
  const commands = useConsole((s) => s.commands[sessionId] ?? EMPTY);
  const last = commands[commands.length - 1];
  if (!last) return <div className="command-bar">no commands yet</div>;
  return (
    <div className="command-bar" data-command-id={last.commandId}>
      <code>{last.command}</code>{' '}
      {last.exitCode === undefined ? (
        <span className="running">running…</span>
      ) : (
        <span className={last.exitCode === 0 ? 'exit ok' : 'exit fail'}>
          exit {last.exitCode} ({Math.round(last.durationMs ?? 0)} ms)
        </span>
      )}
    </div>
  );
}

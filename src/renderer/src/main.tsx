/** Renderer entry: connect the bridge, feed the store from its events, render the app. */
import { createRoot } from 'react-dom/client';
import '@xterm/xterm/css/xterm.css';
import './styles.css';
import { App } from './app.js';
import { connectBridge } from './bridge/index.js';
import { useConsole } from './store.js';

const store = useConsole.getState();
const bridge = connectBridge((state, reason) => useConsole.getState().setConnection(state, reason));

bridge.onSessionsChanged(({ sessions }) => store.setSessions(sessions));
bridge.onCommandStart(({ sessionId, commandId, command, startedAt }) => store.commandStarted(sessionId, { commandId, command, startedAt }));
bridge.onCommandEnd(({ sessionId, commandId, exitCode, durationMs }) => store.commandEnded(sessionId, commandId, exitCode, durationMs));
bridge.listSessions({}).then(
  ({ sessions }) => store.setSessions(sessions),
  (err: Error) => store.setConnection('closed', err.message),
);

createRoot(document.getElementById('root')!).render(<App bridge={bridge} />);

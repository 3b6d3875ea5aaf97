/** Renderer entry: connect the bridge, feed the store from its events, render the app. */
import { createRoot } from 'react-dom/client';
import '@xterm/xterm/css/xterm.css';
import './styles.css';
import { App } from './app.js';
import { startAttention } from './attention.js';
import { connectBridge } from './bridge/index.js';
import { useConsole } from './store.js';

const store = useConsole.getState();
const bridge = connectBridge((state, reason) => useConsole.getState().setConnection(state, reason));

bridge.onHubChanged((hub) => store.setHub(hub));
bridge.onCommandUpdated((c) => store.upsertCommand(c));
bridge.snapshot({}).then(
  (hub) => store.setHub(hub),
  (err: Error) => store.setConnection('closed', err.message),
);
startAttention();

createRoot(document.getElementById('root')!).render(<App bridge={bridge} />);

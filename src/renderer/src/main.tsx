/** Renderer entry: connect the bridge, feed the store from its events, render the app. */
import { createRoot } from 'react-dom/client';
import '@xterm/xterm/css/xterm.css';
import './styles.css';
import { App } from './app.js';
import { startAttention } from './attention.js';
import { connectBridge, takeDeepLink } from './bridge/index.js';
import { useConsole } from './store.js';

const store = useConsole.getState();
// A notification's link names a session (and an approval): shown once the first snapshot has them.
let deepLink: ReturnType<typeof takeDeepLink> | undefined = takeDeepLink();
const bridge = connectBridge((state, reason) => useConsole.getState().setConnection(state, reason));

// Hub and timeline updates are applied together at most once per frame: a burst of messages
// (the hub sends its changes once per tick, see VIEW_TICK_MS in console-service.ts) becomes one
// render. A timer, not rAF: a hidden window must still update its title and raise notifications.
const APPLY_EVERY_MS = 16;
let nextHub: Parameters<typeof store.setHub>[0] | undefined;
const nextCommands = new Map<string, Parameters<typeof store.upsertCommand>[0]>();
let applyTimer: ReturnType<typeof setTimeout> | undefined;
const scheduleApply = () => {
  applyTimer ??= setTimeout(() => {
    applyTimer = undefined;
    if (nextHub) store.setHub(nextHub);
    nextHub = undefined;
    if (nextCommands.size) store.upsertCommands([...nextCommands.values()]);
    nextCommands.clear();
  }, APPLY_EVERY_MS);
};
bridge.onHubChanged((hub) => {
  nextHub = hub;
  scheduleApply();
});
bridge.onCommandUpdated((c) => {
  nextCommands.set(`${c.sessionId}#${c.id}`, c);
  scheduleApply();
});
const refresh = () =>
  bridge.snapshot({}).then(
    (hub) => {
      store.setHub(hub);
      const link = deepLink;
      deepLink = undefined;
      if (link?.session && hub.sessions.some((s) => s.id === link.session)) {
        store.select(link.session);
        store.setMobileView('session');
      }
      if (link?.approval && hub.approvals.some((a) => a.id === link.approval)) store.openApproval(link.approval);
    },
    () => {}, // the connection state says why
  );
void refresh();
// After a reconnect: a fresh snapshot (views re-subscribe on the epoch change, see app.tsx).
useConsole.subscribe((s, prev) => {
  if (s.epoch !== prev.epoch) void refresh();
});
startAttention();

createRoot(document.getElementById('root')!).render(<App bridge={bridge} />);

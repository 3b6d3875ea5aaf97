/**
 * Sessions waiting for input raise a desktop notification once per wait (the browser
 * Notification API; in Electron the same API is the native notification) and a count in the
 * window title. Never focus: a notification must not steal the operator's keyboard.
 */
import type { SessionInfo, ServerInfo } from '../../shared/contract.js';
import { attention, useConsole } from './store.js';

const BASE_TITLE = 'mish console';

export function startAttention(): () => void {
  const notified = new Set<string>();
  const update = (sessions: SessionInfo[], servers: ServerInfo[]) => {
    const waiting = attention(sessions);
    document.title = waiting.length ? `(${waiting.length}) ⚠ ${BASE_TITLE}` : BASE_TITLE;
    const current = new Set<string>();
    for (const s of waiting) {
      const key = `${s.id}@${s.waiting?.since ?? 0}`;
      current.add(key);
      if (notified.has(key)) continue;
      notified.add(key);
      notify(s, servers.find((x) => x.id === s.serverId));
    }
    // Forget waits that ended, so the next one notifies again.
    for (const k of notified) if (!current.has(k)) notified.delete(k);
  };
  const s = useConsole.getState();
  update(s.sessions, s.servers);
  return useConsole.subscribe((state, prev) => {
    if (state.sessions !== prev.sessions) update(state.sessions, state.servers);
  });
}

function notify(s: SessionInfo, server: ServerInfo | undefined): void {
  if (typeof Notification === 'undefined') return;
  const show = () => {
    const who = server ? `${server.name}${server.version ? ` ${server.version}` : ''}` : s.serverId;
    const n = new Notification(`${who} · ${s.name} waits for input`, { body: s.waiting?.secret ? 'a secret prompt (password)' : s.waiting?.prompt || 'the command reads its input', tag: s.id, silent: false });
    // Clicking it selects the session (the window comes up through the OS; we never focus an element).
    n.onclick = () => useConsole.getState().select(s.id);
  };
  if (Notification.permission === 'granted') show();
  else if (Notification.permission === 'default') void Notification.requestPermission().then((p) => p === 'granted' && show());
}

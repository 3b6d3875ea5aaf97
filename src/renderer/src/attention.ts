/**
 * Sessions waiting for input raise a desktop notification once per wait (the browser
 * Notification API; in Electron the same API is the native notification) and a count in the
 * window title. Never focus: a notification must not steal the operator's keyboard.
 */
import type { ServerInfo } from '../../shared/contract.js';
import { needsYou, useConsole, type ConsoleState } from './store.js';

const BASE_TITLE = 'mish console';

export function startAttention(): () => void {
  const notified = new Set<string>();
  const update = (state: ConsoleState) => {
    const need = needsYou(state);
    document.title = need.count ? `(${need.count}) ⚠ ${BASE_TITLE}` : BASE_TITLE;
    const current = new Set<string>();
    const once = (key: string, show: () => void) => {
      current.add(key);
      if (notified.has(key)) return;
      notified.add(key);
      show();
    };
    for (const s of need.sessions) {
      const who = agentName(state.servers.find((x) => x.id === s.serverId), s.serverId);
      const body = s.waiting?.secret ? 'a secret prompt (password)' : s.waiting?.prompt || 'the command reads its input';
      once(`${s.id}@${s.waiting?.since ?? 0}`, () => notify(`${who} · ${s.name} waits for input`, body, s.id));
    }
    for (const a of need.approvals) {
      const who = agentName(state.servers.find((x) => x.id === a.serverId), a.serverId);
      once(`approval:${a.serverId}/${a.id}`, () => notify(`${who} asks to run: ${a.command}`, a.reason ?? 'a dangerous command waits for an operator (mish approvals)', a.sessionId));
    }
    // Forget what ended, so the next wait notifies again.
    for (const k of notified) if (!current.has(k)) notified.delete(k);
  };
  update(useConsole.getState());
  return useConsole.subscribe((state, prev) => {
    if (state.sessions !== prev.sessions || state.approvals !== prev.approvals) update(state);
  });
}

function agentName(server: ServerInfo | undefined, fallback: string): string {
  return server ? `${server.name}${server.version ? ` ${server.version}` : ''}` : fallback;
}

function notify(title: string, body: string, sessionId: string): void {
  if (typeof Notification === 'undefined') return;
  const show = () => {
    const n = new Notification(title, { body, tag: sessionId, silent: false });
    // Clicking it selects the session (the window comes up through the OS; we never focus an element).
    n.onclick = () => useConsole.getState().select(sessionId);
  };
  if (Notification.permission === 'granted') show();
  else if (Notification.permission === 'default') void Notification.requestPermission().then((p) => p === 'granted' && show());
}

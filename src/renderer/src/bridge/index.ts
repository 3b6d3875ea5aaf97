/**
 * Picks the bridge: the preload's (Electron window) when present, else a WebSocket back to
 * the web host that served this page, authenticated with the token of the page's URL fragment
 * (`#token=…`: never sent to a server, never in a Referer). The token is then kept by the browser
 * (a reload, a deep link still work) and taken off the address bar, so a screenshot or a shared
 * address does not carry it; it reaches the server only on the WebSocket upgrade.
 */
import { BRIDGE_GLOBAL, type ConsoleBridge } from '../../../shared/contract.js';
import { createWebSocketBridge, type ConnectionState } from './ws-bridge.js';

export type { ConnectionState };

/**
 * Where the browser keeps the token (localStorage of the console's origin): a notification's
 * deep link (no token in it) opens in a new tab and still connects. A new console run prints a
 * new token, which replaces it.
 */
const TOKEN_KEY = 'mish.console.token';

/** A deep link's target (`#session=…&approval=…`, from a notification), read once before the fragment is cleared. */
export function takeDeepLink(): { session?: string; approval?: string } {
  const p = new URLSearchParams(location.hash.slice(1));
  return { ...(p.get('session') ? { session: p.get('session')! } : {}), ...(p.get('approval') ? { approval: p.get('approval')! } : {}) };
}

export function connectBridge(onState: (s: ConnectionState, reason?: string) => void): ConsoleBridge {
  const fromPreload = (window as unknown as Record<string, ConsoleBridge | undefined>)[BRIDGE_GLOBAL];
  if (fromPreload) {
    onState('open');
    return fromPreload;
  }
  const fromFragment = new URLSearchParams(location.hash.slice(1)).get('token');
  if (fromFragment) localStorage.setItem(TOKEN_KEY, fromFragment);
  if (location.hash) history.replaceState(null, '', location.pathname);
  const token = fromFragment ?? localStorage.getItem(TOKEN_KEY) ?? '';
  return createWebSocketBridge(`ws://${location.host}/ws`, onState, ['mish.v1', `mish-token.${token}`]);
}

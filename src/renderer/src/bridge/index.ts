/**
 * Picks the bridge: the preload's (Electron window) when present, else a WebSocket back to
 * the web host that served this page, authenticated with the token of the page's URL fragment
 * (`#token=…`: never sent to a server, never in a Referer). The token is then kept for this tab
 * only (a reload still works) and taken off the address bar, so a screenshot or a shared
 * address does not carry it; it reaches the server only on the WebSocket upgrade.
 */
import { BRIDGE_GLOBAL, type ConsoleBridge } from '../../../shared/contract.js';
import { createWebSocketBridge, type ConnectionState } from './ws-bridge.js';

export type { ConnectionState };

/** Where this tab keeps the token (sessionStorage: this tab only, gone when it closes). */
const TOKEN_KEY = 'mish.console.token';

export function connectBridge(onState: (s: ConnectionState, reason?: string) => void): ConsoleBridge {
  const fromPreload = (window as unknown as Record<string, ConsoleBridge | undefined>)[BRIDGE_GLOBAL];
  if (fromPreload) {
    onState('open');
    return fromPreload;
  }
  const fromFragment = new URLSearchParams(location.hash.slice(1)).get('token');
  if (fromFragment) {
    sessionStorage.setItem(TOKEN_KEY, fromFragment);
    history.replaceState(null, '', location.pathname);
  }
  const token = fromFragment ?? sessionStorage.getItem(TOKEN_KEY) ?? '';
  return createWebSocketBridge(`ws://${location.host}/ws`, onState, ['mish.v1', `mish-token.${token}`]);
}

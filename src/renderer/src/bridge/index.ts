/**
 * Picks the bridge: the preload's (Electron window) when present, else a WebSocket back to
 * the web host that served this page, authenticated with the token of the page's URL.
 */
import { BRIDGE_GLOBAL, type ConsoleBridge } from '../../../shared/contract.js';
import { createWebSocketBridge, type ConnectionState } from './ws-bridge.js';

export type { ConnectionState };

export function connectBridge(onState: (s: ConnectionState, reason?: string) => void): ConsoleBridge {
  const fromPreload = (window as unknown as Record<string, ConsoleBridge | undefined>)[BRIDGE_GLOBAL];
  if (fromPreload) {
    onState('open');
    return fromPreload;
  }
  const token = new URLSearchParams(location.search).get('token') ?? '';
  const url = `ws://${location.host}/ws?token=${encodeURIComponent(token)}`;
  return createWebSocketBridge(url, onState);
}

/**
 * Preload of the console window (sandboxed, context-isolated): exposes exactly one method per
 * message of the contract on `window.mish`, never ipcRenderer itself. Payloads are validated
 * in the main process (requests) and the renderer (events); this file only forwards.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { BRIDGE_GLOBAL, EVENT_METHODS, REQUEST_METHODS } from '../shared/channels.js';
import type { ConsoleBridge } from '../shared/contract.js';

const api: Record<string, unknown> = {};
for (const [method, channel] of Object.entries(REQUEST_METHODS)) {
  api[method] = (params: unknown) => ipcRenderer.invoke(channel, params);
}
for (const [method, channel] of Object.entries(EVENT_METHODS)) {
  api[method] = (listener: (payload: unknown) => void) => {
    const handler = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(channel, handler);
    return () => void ipcRenderer.removeListener(channel, handler);
  };
}

contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, api as ConsoleBridge);

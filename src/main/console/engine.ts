/**
 * Builds the engine a standalone console supervises: a session manager on real PTYs.
 * Errors as values: inside Electron, node-pty must be rebuilt for Electron's ABI, and a
 * mismatch surfaces here as a clear message instead of a crash at start-up.
 */
import type { SessionManager } from '../core/session/types.js';

export async function createConsoleManager(options: { cwd?: string } = {}): Promise<{ ok: true; value: SessionManager } | { ok: false; error: string }> {
  try {
    const { createSessionManager } = await import('../core/session/session-manager.js');
    const { nodePtyPort } = await import('../platform/node-pty-port.js');
    return { ok: true, value: createSessionManager({ port: nodePtyPort, cwd: options.cwd ?? process.cwd() }) };
  } catch (e) {
    return { ok: false, error: `cannot start the session engine: ${(e as Error).message.split('\n')[0]}` };
  }
}

/**
 * Builds the engine a standalone console supervises: a session manager on real PTYs.
 * Errors as values (the engine may be unavailable, e.g. node-pty not built for this runtime).
 */
import type { SessionManager } from '../core/session/types.js';

export async function createConsoleManager(): Promise<{ ok: true; value: SessionManager } | { ok: false; error: string }> {
  return { ok: false, error: 'the session engine (src/main/core/session) is not available in this build yet' };
}

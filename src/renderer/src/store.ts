/**
 * The console's state: one zustand store built from typed slices. Terminal bytes never pass
 * through it (they go straight from the bridge to xterm, see terminal-view.tsx).
 */
import { create, type StateCreator } from 'zustand';
import type { SessionInfo } from '../../shared/contract.js';
import type { ConnectionState } from './bridge/index.js';

/** Commands kept per session in the side list (the terminal has the full history). */
const RECENT_COMMANDS = 20;

export interface CommandRecord {
  commandId: string;
  command: string;
  startedAt: number;
  exitCode?: number;
  durationMs?: number;
}

export interface SessionsSlice {
  sessions: SessionInfo[];
  /** Recent commands per session id, newest last. */
  commands: Record<string, CommandRecord[]>;
  setSessions(sessions: SessionInfo[]): void;
  commandStarted(sessionId: string, c: CommandRecord): void;
  commandEnded(sessionId: string, commandId: string, exitCode: number, durationMs: number): void;
}

export interface UiSlice {
  selectedId?: string;
  connection: ConnectionState;
  connectionReason?: string;
  select(id: string | undefined): void;
  setConnection(state: ConnectionState, reason?: string): void;
}

export type ConsoleState = SessionsSlice & UiSlice;

const sessionsSlice: StateCreator<ConsoleState, [], [], SessionsSlice> = (set) => ({
  sessions: [],
  commands: {},
  setSessions: (sessions) =>
    set((s) => ({
      sessions,
      // Keep the selection while its session exists; otherwise fall back to the first one.
      selectedId: s.selectedId && sessions.some((x) => x.id === s.selectedId) ? s.selectedId : sessions[0]?.id,
    })),
  commandStarted: (sessionId, c) =>
    set((s) => ({ commands: { ...s.commands, [sessionId]: [...(s.commands[sessionId] ?? []), c].slice(-RECENT_COMMANDS) } })),
  commandEnded: (sessionId, commandId, exitCode, durationMs) =>
    set((s) => ({
      commands: {
        ...s.commands,
        [sessionId]: (s.commands[sessionId] ?? []).map((c) => (c.commandId === commandId ? { ...c, exitCode, durationMs } : c)),
      },
    })),
});

const uiSlice: StateCreator<ConsoleState, [], [], UiSlice> = (set) => ({
  selectedId: undefined,
  connection: 'connecting',
  select: (id) => set({ selectedId: id }),
  setConnection: (connection, connectionReason) => set({ connection, connectionReason }),
});

export const useConsole = create<ConsoleState>()((...a) => ({ ...sessionsSlice(...a), ...uiSlice(...a) }));

/**
 * The console's state: one zustand store built from typed slices, one per concern (hub:
 * servers and sessions; timeline: commands per session; ui: selection, panes, connection).
 * Terminal bytes never pass through it (they go straight from the bridge to xterm, see
 * terminal-view.tsx).
 */
import { create, type StateCreator } from 'zustand';
import type { BackgroundProcess, CommandInfo, HandoffInfo, HostLink, PendingApproval, ServerInfo, SessionInfo } from '../../shared/contract.js';
import type { ConnectionState } from './bridge/index.js';

/** Commands kept per session in the view (the host keeps the same bound). */
const TIMELINE_MAX = 200;

export interface HubSlice {
  servers: ServerInfo[];
  sessions: SessionInfo[];
  /** Pending approvals of every server, oldest first. */
  approvals: PendingApproval[];
  /** Live handoffs (secret prompts, takeovers) of every server. */
  handoffs: HandoffInfo[];
  /** Background processes (sh_spawn) of every server, oldest first. */
  processes: BackgroundProcess[];
  /** This console's operator name, as servers record it. */
  operator?: string;
  /** Remote machines (`mish console --ssh`) with their links' state. */
  hosts: HostLink[];
  setHub(hub: { servers: ServerInfo[]; sessions: SessionInfo[]; approvals?: PendingApproval[]; handoffs?: HandoffInfo[]; processes?: BackgroundProcess[]; operator?: string; hosts?: HostLink[] }): void;
}

export interface TimelineSlice {
  /** Commands per session id, oldest first. */
  timelines: Record<string, CommandInfo[]>;
  upsertCommand(c: CommandInfo): void;
  /** Several at once: one store update (every selector on the page runs once, not once per command). */
  upsertCommands(cs: Iterable<CommandInfo>): void;
  setTimeline(sessionId: string, commands: CommandInfo[]): void;
}

export type Pane = 'live' | 'raw';
export type MobileView = 'needs' | 'sessions' | 'session';

/** An approval's key across servers (ids are unique per server). */
export const approvalKey = (a: Pick<PendingApproval, 'serverId' | 'id'>) => `${a.serverId}/${a.id}`;

export interface UiSlice {
  selectedId?: string;
  /** Selected command per session; absent: follow the latest. */
  selectedCommand: Record<string, string>;
  /** Sessions whose selected command the operator pinned: it stays shown through takeovers and new commands. */
  pinned: Record<string, true>;
  /** Pins (or unpins) the command a session shows now. */
  pin(sessionId: string, on: boolean): void;
  /**
   * The session moved on under the operator (a takeover taken or handed back): its panes follow
   * its current / newest command again, unless the operator pinned one.
   */
  follow(sessionId: string): void;
  pane: Pane;
  connection: ConnectionState;
  connectionReason?: string;
  /** Incremented each time the connection opens again after a drop: views re-subscribe. */
  epoch: number;
  everOpen: boolean;
  helpOpen: boolean;
  /** The approval whose dialog is open (from the queue, or the selected session's). */
  approvalOpen?: string;
  /** Approvals the operator put off with Esc (their dialog does not pop up again by itself). */
  later: Record<string, true>;
  auditOpen: boolean;
  /** Approvals picked for a bulk decision (`<serverId>/<id>`); pruned as they resolve. */
  picked: Record<string, true>;
  /** Picks (on) or unpicks these approvals. */
  pick(keys: string[], on: boolean): void;
  /** The phone layout's view: what needs the operator, the session list, or the selected session. */
  mobileView: MobileView;
  setMobileView(view: MobileView): void;
  /** The background process whose output is open (`<serverId>/<processId>`). */
  processOpen?: string;
  openProcess(key: string | undefined): void;
  openApproval(id: string | undefined): void;
  putOff(id: string): void;
  setAudit(open: boolean): void;
  select(id: string | undefined): void;
  selectCommand(sessionId: string, commandId: string | undefined): void;
  setPane(pane: Pane): void;
  setConnection(state: ConnectionState, reason?: string): void;
  setHelp(open: boolean): void;
}

export type ConsoleState = HubSlice & TimelineSlice & UiSlice;

const hubSlice: StateCreator<ConsoleState, [], [], HubSlice> = (set) => ({
  servers: [],
  sessions: [],
  approvals: [],
  handoffs: [],
  processes: [],
  hosts: [],
  setHub: ({ servers, sessions, approvals = [], handoffs = [], processes = [], operator, hosts = [] }) =>
    set((s) => ({
      operator,
      hosts,
      processes,
      servers,
      sessions,
      approvals,
      handoffs,
      approvalOpen: s.approvalOpen && approvals.some((a) => a.id === s.approvalOpen) ? s.approvalOpen : undefined,
      picked: pruned(s.picked, approvals),
      // Keep the selection while its session is listed; otherwise the first that needs the operator, or the first.
      selectedId:
        s.selectedId && sessions.some((x) => x.id === s.selectedId)
          ? s.selectedId
          : (sessions.find((x) => x.state === 'waiting') ?? sessions.find((x) => x.state !== 'gone') ?? sessions[0])?.id,
    })),
});

const timelineSlice: StateCreator<ConsoleState, [], [], TimelineSlice> = (set) => ({
  timelines: {},
  upsertCommand: (c) => set((s) => ({ timelines: upserted(s.timelines, [c]) })),
  upsertCommands: (cs) => set((s) => ({ timelines: upserted(s.timelines, cs) })),
  setTimeline: (sessionId, commands) =>
    set((s) => {
      // Updates that arrived while the list was in flight are newer than it: keep them.
      const known = new Map((s.timelines[sessionId] ?? []).map((c) => [c.id, c]));
      const merged = commands.map((c) => known.get(c.id) ?? c);
      for (const c of known.values()) if (!merged.some((m) => m.id === c.id)) merged.push(c);
      return { timelines: { ...s.timelines, [sessionId]: merged.slice(-TIMELINE_MAX) } };
    }),
});

const uiSlice: StateCreator<ConsoleState, [], [], UiSlice> = (set) => ({
  selectedId: undefined,
  selectedCommand: {},
  pane: 'live',
  connection: 'connecting',
  epoch: 0,
  everOpen: false,
  helpOpen: false,
  approvalOpen: undefined,
  later: {},
  auditOpen: false,
  picked: {},
  pick: (keys, on) =>
    set((s) => {
      const next = { ...s.picked };
      for (const k of keys) {
        if (on) next[k] = true;
        else delete next[k];
      }
      return { picked: next };
    }),
  mobileView: 'needs',
  setMobileView: (mobileView) => set({ mobileView }),
  openApproval: (approvalOpen) => set({ approvalOpen }),
  putOff: (id) => set((s) => ({ later: { ...s.later, [id]: true }, approvalOpen: s.approvalOpen === id ? undefined : s.approvalOpen })),
  setAudit: (auditOpen) => set({ auditOpen }),
  openProcess: (processOpen) => set({ processOpen }),
  select: (id) => set({ selectedId: id }),
  selectCommand: (sessionId, commandId) =>
    set((s) => {
      const next = { ...s.selectedCommand };
      if (commandId === undefined) delete next[sessionId];
      else next[sessionId] = commandId;
      // Choosing another command ends a pin (the pin was on the one shown before).
      const pinned = s.pinned[sessionId] && next[sessionId] !== s.selectedCommand[sessionId] ? without(s.pinned, sessionId) : s.pinned;
      return { selectedCommand: next, pinned };
    }),
  pinned: {},
  pin: (sessionId, on) =>
    set((s) => {
      if (!on) return { pinned: without(s.pinned, sessionId) };
      const shown = shownCommand(s as ConsoleState, sessionId);
      if (!shown) return {};
      return { pinned: { ...s.pinned, [sessionId]: true }, selectedCommand: { ...s.selectedCommand, [sessionId]: shown.id } };
    }),
  follow: (sessionId) =>
    set((s) => (s.pinned[sessionId] || !(sessionId in s.selectedCommand) ? {} : { selectedCommand: without(s.selectedCommand, sessionId) })),
  setPane: (pane) => set({ pane }),
  setConnection: (connection, connectionReason) =>
    set((s) => ({ connection, connectionReason, epoch: connection === 'open' && s.connection !== 'open' && s.everOpen ? s.epoch + 1 : s.epoch, everOpen: s.everOpen || connection === 'open' })),
  setHelp: (helpOpen) => set({ helpOpen }),
});

export const useConsole = create<ConsoleState>()((...a) => ({ ...hubSlice(...a), ...timelineSlice(...a), ...uiSlice(...a) }));

/** Sessions that need the operator. */
export function attention(sessions: SessionInfo[]): SessionInfo[] {
  return sessions.filter((s) => s.state === 'waiting' || s.state === 'needs-approval');
}

/**
 * Everything that needs the operator, each once: pending approvals (oldest first), and sessions
 * waiting for input or approval that no listed approval stands for.
 */
export function needsYou(state: Pick<ConsoleState, 'sessions' | 'approvals'>): { approvals: PendingApproval[]; sessions: SessionInfo[]; count: number } {
  const sessions = attention(state.sessions)
    .filter((s) => s.state !== 'needs-approval' || !state.approvals.some((a) => a.sessionId === s.id))
    .sort((a, b) => (a.waiting?.since ?? 0) - (b.waiting?.since ?? 0));
  return { approvals: state.approvals, sessions, count: state.approvals.length + sessions.length };
}

/** The command a session's panes show: the selected one, else the latest. */
export function shownCommand(state: ConsoleState, sessionId: string): CommandInfo | undefined {
  const list = state.timelines[sessionId];
  if (!list?.length) return undefined;
  const id = state.selectedCommand[sessionId];
  return (id && list.find((c) => c.id === id)) || list[list.length - 1];
}

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  const next = { ...record };
  delete next[key];
  return next;
}

/** Picks of approvals still pending (the same object when nothing went). */
function pruned(picked: Record<string, true>, approvals: PendingApproval[]): Record<string, true> {
  const live = new Set(approvals.map(approvalKey));
  const keys = Object.keys(picked);
  if (keys.every((k) => live.has(k))) return picked;
  return Object.fromEntries(keys.filter((k) => live.has(k)).map((k) => [k, true as const]));
}

/** Timelines with these commands replaced or inserted in time order (each session's list bounded); unchanged sessions keep their arrays. */
function upserted(timelines: Record<string, CommandInfo[]>, cs: Iterable<CommandInfo>): Record<string, CommandInfo[]> {
  const out = { ...timelines };
  const copied = new Set<string>();
  for (const c of cs) {
    let list = out[c.sessionId] ?? [];
    if (!copied.has(c.sessionId)) {
      list = [...list];
      copied.add(c.sessionId);
    }
    const i = list.findIndex((x) => x.id === c.id);
    if (i >= 0) list[i] = c;
    else {
      // In time order, as the hub keeps it: a row read back later (from the audit log) goes before newer ones.
      let at = list.length;
      while (at > 0 && list[at - 1].startedAt > c.startedAt) at--;
      list.splice(at, 0, c);
      if (list.length > TIMELINE_MAX) list.splice(0, list.length - TIMELINE_MAX);
    }
    out[c.sessionId] = list;
  }
  return out;
}

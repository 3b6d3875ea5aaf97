/**
 * Message names of the main ↔ renderer contract, without zod, so the sandboxed preload stays
 * a few hundred bytes. The schemas for each name are in ./contract.ts.
 *
 * The method-name maps decide the bridge API: one method per message (ARCHITECTURE.md §3.3).
 */

/*
 * Issue 12 slots in here: requests `approval:decide` {serverId, id, decision, command?},
 * `handoff:attach` / `session:takeover` / `handoff:input` / `handoff:return` (relayed by the hub
 * to the server's operator wire: approval-decide, handoff-attach, takeover, input, handoff-return),
 * and `grammar:*` for the editor; events `handoff:updated`. Pending approvals already reach the
 * view in `hub:changed` (PendingApproval); the console must connect with `approvals: true` only
 * once it can decide them (an approver makes escalations wait for a decision).
 */

/** Renderer → main requests: bridge method name → message name. */
export const REQUEST_METHODS = {
  snapshot: 'hub:snapshot',
  subscribeSession: 'session:subscribe',
  unsubscribeSession: 'session:unsubscribe',
  ackOutput: 'session:ack',
  listCommands: 'session:commands',
  readCommandRaw: 'command:raw',
  // Grammar editor (issue 12.3; src/main/console/grammar-service.ts).
  listGrammars: 'grammar:list',
  openGrammar: 'grammar:open',
  readGrammarFixture: 'grammar:fixture',
  readGrammarRaw: 'grammar:raw',
  saveGrammar: 'grammar:save',
  grammarTemplate: 'grammar:template',
  // Console actions (issue 12): approvals, takeover, audit.
  decideApproval: 'approval:decide',
  decideApprovals: 'approval:decide-many',
  takeHandoff: 'handoff:take',
  handoffInput: 'handoff:input',
  returnHandoff: 'handoff:return',
  readAudit: 'audit:read',
  dismissConversation: 'conversation:dismiss',
} as const;

/** Main → renderer events: bridge listener method name → message name. */
export const EVENT_METHODS = {
  onHubChanged: 'hub:changed',
  onSessionOutput: 'session:output',
  onCommandUpdated: 'command:updated',
} as const;

export type RequestMethod = keyof typeof REQUEST_METHODS;
export type RequestName = (typeof REQUEST_METHODS)[RequestMethod];
export type EventMethod = keyof typeof EVENT_METHODS;
export type EventName = (typeof EVENT_METHODS)[EventMethod];

/** Name under which the preload exposes the bridge on `window`. */
export const BRIDGE_GLOBAL = 'mish';

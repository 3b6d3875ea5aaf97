/**
 * An operator's decision as a row and the agent pane show it: a short mark for the row
 * (`✓ approved by you · 14:02:03`, `⊘ denied by console (bob) · 14:02:03`) and its full sentence
 * for the detail. Pure: the operator's own name is passed in (a decision by this console is "you").
 */
import type { CommandApproval, CommandInfo } from '../../shared/contract.js';
import { ranAfterApproval } from '../../shared/operator-wire.js';
import { absolute, clockTime, duration } from './format.js';

/** The command never ran: the operator denied it, nobody decided in time, or the agent stopped waiting. */
export function neverRan(c: Pick<CommandInfo, 'approval'>): boolean {
  const o = c.approval?.outcome;
  return o !== undefined && !ranAfterApproval(o);
}

/**
 * The command line a row (and its terminal mark) shows: the one the agent sent (a structured view
 * runs another form of it, with an output format added), except after an operator's edit, where
 * what ran is the point (the agent's line is in the detail: "the agent asked").
 */
export function shownCommand(c: Pick<CommandInfo, 'command' | 'asked' | 'approval'>): string {
  return c.approval?.outcome === 'edited' ? c.command : (c.asked ?? c.command);
}

const who = (a: CommandApproval, operator: string | undefined) => (a.by && a.by === operator ? 'you' : (a.by ?? 'nobody'));

/** The row's mark: glyph, words, when. */
export function approvalBadge(a: CommandApproval, operator?: string): { text: string; tone: 'ok' | 'denied' } {
  const at = clockTime(a.at);
  switch (a.outcome) {
    case 'approved':
      return { text: `✓ approved by ${who(a, operator)} · ${at}`, tone: 'ok' };
    case 'always':
      return { text: `✓ always (this session) by ${who(a, operator)} · ${at}`, tone: 'ok' };
    case 'edited':
      return { text: `✎ edited by ${who(a, operator)} · ${at}`, tone: 'ok' };
    case 'denied':
      return { text: `⊘ denied by ${who(a, operator)} · ${at}`, tone: 'denied' };
    case 'timeout':
      return { text: `⊘ denied: nobody decided in time · ${at}`, tone: 'denied' };
    case 'operator-gone':
      return { text: `⊘ denied: the operator left · ${at}`, tone: 'denied' };
    case 'cancelled':
      return { text: `⊘ the agent stopped waiting · ${at}`, tone: 'denied' };
    case 'no-operator':
      return { text: `⊘ refused: no operator attached · ${at}`, tone: 'denied' };
    case 'forbidden':
      return { text: `⊘ refused by policy · ${at}`, tone: 'denied' };
    case 'host-asked':
      return { text: `⚠ no operator: left to the agent's own prompt · ${at}`, tone: 'denied' };
  }
}

/** The detail: who decided, when (absolute), how long the agent waited, under which rule, and what that meant. */
export function approvalSentence(a: CommandApproval, operator?: string): string {
  const by = a.by ? `${a.by}${a.by === operator ? ' (you)' : ''}` : undefined;
  const waited = a.askedAt !== undefined ? ` after ${duration(Math.max(0, a.at - a.askedAt))} of waiting` : '';
  const when = `at ${absolute(a.at)}${waited}`;
  const what: Record<CommandApproval['outcome'], string> = {
    approved: `Approved by ${by} ${when}; it ran.`,
    always: `Approved by ${by} ${when}, and its rule allowed for the rest of this session; it ran.`,
    edited: `Edited by ${by} ${when}; the edited command ran instead of the agent's.`,
    denied: `Denied by ${by ?? 'the operator'} ${when}. Nothing ran; the agent was told the operator denied it.`,
    timeout: `Denied ${when}: nobody decided in time. Nothing ran; the agent was told so.`,
    'operator-gone': `Denied ${when}: the operator disconnected before deciding. Nothing ran.`,
    cancelled: `The agent stopped waiting ${when} (its call was cancelled). Nothing ran.`,
    'no-operator': `Refused at ${absolute(a.at)}: no operator was attached to ask. Nothing was asked and nothing ran; the agent was told so.`,
    forbidden: `Refused by mish's policy in the agent's hook at ${absolute(a.at)}, before it ran. Nobody was asked and nothing ran; the agent was told why.`,
    'host-asked': `Escalated at ${absolute(a.at)} with no operator attached: the hook answered "ask", so the agent's host asked its own user. It did not run through mish; whether the user let it run is not recorded here.`,
  };
  // A background process (sh_spawn) asked for: its row stands for the process that was (not) started.
  return a.tool === 'sh_spawn' ? `${what[a.outcome]} (a background process, sh_spawn)` : what[a.outcome];
}

/**
 * Takeover (CONSOLE.md, issue 12.2): a process waiting for a secret (a handoff on the wire)
 * shows Take over; any running session can be taken at will. While the operator holds it, what
 * they type in the embedded xterm goes to the PTY over the wire, never stored, never shown to
 * the agent; Return to agent (⌃T) hands it back and the agent gets the credential-blind summary.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ConsoleBridge, HandoffInfo, SessionInfo } from '../../shared/contract.js';
import { useConsole } from './store.js';

/**
 * The "Returned to the agent" note stays this long once the handed-back command has finished:
 * long enough to read, and then it goes (what the agent got stays in the agent pane's reply).
 */
export const RETURNED_NOTE_AFTER_DONE_MS = 4000;
/** … and this long at most while the command still runs (a long build after a sudo prompt). */
export const RETURNED_NOTE_MAX_MS = 20_000;
/** Hand-back notes already gone (by handoff id or summary), for this page's life. */
const DISMISSED_NOTES = new Set<string>();

export function useTakeover(bridge: ConsoleBridge, session: SessionInfo) {
  const handoff = useConsole((s) => s.handoffs.find((h) => h.sessionId === session.id && (h.state === 'pending' || h.state === 'attached')));
  // The last one this console held, once it was returned or its process ended: what the agent was told.
  const finished = useConsole((s) => s.handoffs.find((h) => h.sessionId === session.id && h.mine && (h.state === 'returned' || h.state === 'ended')));
  const [returnedNow, setSummary] = useState<string>();
  // The note of one hand-back (by its handoff, or its summary) is dismissed once, by time or by ✕.
  const noteKey = handoff ? undefined : (finished?.id ?? returnedNow);
  const [dismissedNow, setDismissed] = useState<string>();
  // Remembered beyond this view: switching sessions and back does not bring a note back.
  const dismissed = noteKey && (dismissedNow === noteKey || DISMISSED_NOTES.has(noteKey)) ? noteKey : dismissedNow;
  const busy = session.state === 'running' || session.state === 'waiting' || session.state === 'handed-off';
  useEffect(() => {
    if (!noteKey || dismissed === noteKey) return;
    const t = setTimeout(() => {
      DISMISSED_NOTES.add(noteKey);
      setDismissed(noteKey);
    }, busy ? RETURNED_NOTE_MAX_MS : RETURNED_NOTE_AFTER_DONE_MS);
    return () => clearTimeout(t);
  }, [noteKey, busy, dismissed]);
  const dismiss = useCallback(() => {
    if (noteKey) DISMISSED_NOTES.add(noteKey);
    setDismissed(noteKey);
  }, [noteKey]);
  const summary = handoff || (noteKey && dismissed === noteKey) ? undefined : (finished?.summary ?? returnedNow);
  const [error, setError] = useState<string>();
  const held = handoff?.mine && handoff.state === 'attached' ? handoff : undefined;

  const send = useCallback(
    (data: string) => {
      if (held) void bridge.handoffInput({ serverId: held.serverId, handoffId: held.id, data }).catch((e: Error) => setError(e.message));
    },
    [bridge, held?.id, held?.serverId], // eslint-disable-line react-hooks/exhaustive-deps
  );
  /** For the terminal while the operator holds it. */
  const input = held ? send : undefined;

  const take = useCallback(async () => {
    setError(undefined);
    setSummary(undefined);
    try {
      await bridge.takeHandoff({ sessionId: session.id, ...(handoff && handoff.state === 'pending' ? { handoffId: handoff.id } : {}) });
      // The operator types into the live terminal: show it, even if the raw tab was open.
      useConsole.getState().setPane('live');
    } catch (e) {
      setError((e as Error).message);
    }
  }, [bridge, session.id, handoff]);

  const giveBack = useCallback(async () => {
    if (!held) return;
    try {
      const r = await bridge.returnHandoff({ serverId: held.serverId, handoffId: held.id });
      setSummary(r.summary);
    } catch (e) {
      setError((e as Error).message);
    }
  }, [bridge, held]);

  // Taken or handed back (or its process ended while held): the panes follow the session's current command, unless pinned.
  const holding = `${session.id}\0${held?.id ?? ''}`;
  const holdingBefore = useRef(holding);
  useEffect(() => {
    const before = holdingBefore.current;
    holdingBefore.current = holding;
    // Another session shown (or this one again) keeps what the operator chose there.
    if (before === holding || !before.startsWith(`${session.id}\0`)) return;
    useConsole.getState().follow(session.id);
  }, [holding, session.id]);

  const canTake = !held && session.state !== 'gone' && (handoff?.state === 'pending' || session.state === 'running' || session.state === 'waiting');

  // ⌃T: take over / return to agent. Captured before xterm sees it (it would send ^T to the PTY).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey && !e.altKey && !e.metaKey && e.key.toLowerCase() === 't')) return;
      if (!held && !canTake) return;
      e.preventDefault();
      e.stopPropagation();
      void (held ? giveBack() : take());
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [held, canTake, giveBack, take]);

  return { handoff, held, canTake, take, giveBack, summary, dismiss, error, input };
}

export function TakeoverBar({ t }: { t: ReturnType<typeof useTakeover> }) {
  if (t.held)
    return (
      <div className="banner takeover-banner" role="status" data-takeover="held">
        <span>⇄ You have this terminal — the agent sees nothing you type.</span>
        <button className="return-btn" onClick={() => void t.giveBack()}>
          Return to agent <kbd>⌃T</kbd>
        </button>
      </div>
    );
  return (
    <>
      {t.handoff?.state === 'pending' && (
        <div className="banner attn handoff-banner" role="status" data-handoff={t.handoff.id}>
          <span>
            {t.handoff.why === 'secret-prompt' ? '⌨ waiting for a secret' : '⇄ handed to an operator'}: <code>{t.handoff.prompt || t.handoff.command}</code> — the agent cannot answer it.
          </span>
          <button className="take-btn" onClick={() => void t.take()}>
            Take over <kbd>⌃T</kbd>
          </button>
        </div>
      )}
      {t.summary && (
        <div className="banner returned" role="status" data-returned>
          <span>
            ↩ Returned to the agent. It receives: <code>{t.summary}</code>
          </span>
          <button className="dismiss" onClick={t.dismiss} aria-label="dismiss this note" title="dismiss (it goes by itself a few seconds after the command finishes)">
            ✕
          </button>
        </div>
      )}
      {t.error && <div className="banner error">{t.error}</div>}
    </>
  );
}

/** Shown instead of the agent pane while the operator holds the terminal. */
export function OperatorSessionPane({ handoff }: { handoff: HandoffInfo }) {
  return (
    <section className="agent-pane operator-session" aria-label="what the agent saw">
      <header className="pane-head">
        <span className="pane-title">Agent saw</span>
      </header>
      <p className="operator-note">
        operator session in progress ({handoff.id}). The agent's call waits; afterwards it gets a summary of what happened, never what you typed, and the output shown meanwhile is withheld from it.
      </p>
    </section>
  );
}

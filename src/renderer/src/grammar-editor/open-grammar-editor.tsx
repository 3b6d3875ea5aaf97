/**
 * The grammar editor's hook into the console: `g` (outside text fields) or the button opens it
 * full-window, Esc or ✕ closes it. `grammar` in the URL's fragment opens it at load
 * (`#grammar`, `#token=…&grammar`, `#grammar=<spool id>` with that command's raw output).
 */
import { useEffect, useState } from 'react';
import type { ConsoleBridge } from '../../../shared/contract.js';
import { GrammarEditor } from './grammar-editor.js';
import { typesIntoField } from '../typing.js';

function fromHash(): { open: boolean; spoolId?: string } {
  const p = new URLSearchParams(location.hash.slice(1));
  if (!p.has('grammar')) return { open: false };
  const id = p.get('grammar') ?? '';
  return /^[0-9a-z]+$/.test(id) ? { open: true, spoolId: id } : { open: true };
}

/**
 * Read when this module loads: the bridge takes the fragment off the address bar (the token is
 * in it) before the console renders, so the hook could not read it later.
 */
const AT_LOAD = fromHash();

/** Keys typed into a field, or chosen in a list box, are not the editor's shortcuts. */
function typing(target: EventTarget | null): boolean {
  const el = target as Element | null;
  return typesIntoField(el) || el?.tagName === 'SELECT';
}

export function useGrammarEditor(): { open: boolean; spoolId?: string; show: (spoolId?: string) => void; hide: () => void } {
  const [state, setState] = useState(AT_LOAD);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'g' && !e.ctrlKey && !e.metaKey && !e.altKey && !typing(e.target)) setState((s) => (s.open ? s : { open: true }));
      else if (e.key === 'Escape' && !typing(e.target)) setState({ open: false });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return { ...state, show: (spoolId) => setState({ open: true, spoolId }), hide: () => setState({ open: false }) };
}

/** The button for a toolbar. */
export function GrammarEditorButton({ onClick }: { onClick: () => void }) {
  return (
    <button className="gx-open" onClick={onClick} title="Grammar editor (g)">
      Grammars <kbd>g</kbd>
    </button>
  );
}

export function GrammarEditorOverlay({ bridge, state }: { bridge: ConsoleBridge; state: ReturnType<typeof useGrammarEditor> }) {
  return state.open ? <GrammarEditor bridge={bridge} spoolId={state.spoolId} onClose={state.hide} /> : null;
}

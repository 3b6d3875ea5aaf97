/**
 * A hooked conversation's transcript file (the host's `transcript_path`): the path, selectable,
 * and a Copy button. The clipboard API needs a secure context (the console's loopback page and
 * the Electron window are); where it is refused, the path is selected for Ctrl+C instead.
 */
import { useRef, useState } from 'react';
import { shortPath } from './format.js';

export function TranscriptPath({ path }: { path: string }) {
  const code = useRef<HTMLElement>(null);
  const [said, setSaid] = useState<string>();
  const selectIt = () => {
    const el = code.current;
    const sel = window.getSelection();
    if (!el || !sel) return;
    const range = document.createRange();
    range.selectNodeContents(el);
    sel.removeAllRanges();
    sel.addRange(range);
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(path);
      setSaid('copied');
    } catch {
      selectIt();
      setSaid('selected: Ctrl+C copies it');
    }
  };
  return (
    <span className="transcript" data-transcript={path}>
      <code ref={code} title={path}>
        {shortPath(path)}
      </code>
      <button className="copy-btn" onClick={() => void copy()} aria-label={`copy the transcript path ${path}`}>
        Copy
      </button>
      {said && (
        <span className="muted" role="status">
          {said}
        </span>
      )}
    </span>
  );
}

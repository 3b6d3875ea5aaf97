import type { SecretFinding } from './finding.js';

/** Index of the piece (by ascending start offsets) that holds offset `pos`: the last start at or before it. */
export function indexAt(starts: readonly number[], pos: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A stretch of a text copied into a view of it (a view of its lines' bodies, a call joined into one line): where, and how long. */
export interface ViewPiece {
  /** Where the piece starts in the view. */
  viewAt: number;
  /** Where it starts in the text. */
  textAt: number;
  length: number;
}

/**
 * The findings of a scan of a view, at their places in the text: a finding over several pieces is given back a piece a line
 * (what lies between the pieces in the text — a line's prefix, a call's indent — stays). `pieces` in the view's order.
 */
export function findingsInPieces(pieces: readonly ViewPiece[], found: readonly SecretFinding[], out: SecretFinding[]): void {
  if (pieces.length === 0) return;
  const starts = pieces.map((p) => p.viewAt);
  for (const f of found) {
    for (let n = indexAt(starts, f.start); n < pieces.length && pieces[n].viewAt < f.end; n++) {
      const p = pieces[n];
      const s = Math.max(f.start, p.viewAt);
      const e = Math.min(f.end, p.viewAt + p.length);
      if (e > s) out.push({ ...f, start: p.textAt + (s - p.viewAt), end: p.textAt + (e - p.viewAt) });
    }
  }
}

/**
 * How a long line is shown: its first SHOWN_HEAD_CHARS and last SHOWN_TAIL_CHARS characters with
 * one exact marker for what lies between (`… [+499,600 chars] …`). The tail is kept because what
 * ends a long line is often what it is about: the error after a long command line, the status
 * at the end of a JSON record. The raw output keeps the line whole.
 */
import { thousands } from '../format/thousands.js';

/** Characters of a long line that are shown: head and tail together. */
export const MAX_SHOWN_LINE_CHARS = 400;
/** Shown from the start of a long line (where it says what it is: a command, a location). */
export const SHOWN_HEAD_CHARS = 240;
/** Shown from the end of a long line (how it ends: an error message, a status). */
export const SHOWN_TAIL_CHARS = MAX_SHOWN_LINE_CHARS - SHOWN_HEAD_CHARS;
/**
 * The longest marker (`… [+N chars] …` for N below 10^15, with its separators). A line at
 * most this much over MAX_SHOWN_LINE_CHARS is shown whole: cutting it would save less than the
 * marker adds, and a line the line buffer already cut to head, marker and tail
 * (over-long-line.ts) is never cut twice.
 */
export const CUT_MARKER_MAX_CHARS = 32;

/** The marker standing for `omitted` characters left out of the middle of a line. */
export function cutMarker(omitted: number): string {
  return `… [+${thousands(omitted)} chars] …`;
}

/**
 * The spans of a line a cut must not split: the host passes its secrets' (the masking scanner's findings on the whole line), so
 * a secret is shown whole, to be masked whole, or left out whole — never cut into pieces too short for any rule to know (adv142:
 * a GitHub token cut at the head showed 39 of its 40 characters, an AWS secret key after its cut key id showed whole). The
 * engine's preview in the renderer passes none (the scanner needs node).
 */
export type KeepWhole = (line: string) => readonly { start: number; end: number }[];

/** A line as shown: whole, or head + marker + tail when it is long; no span of `keepWhole` split by the cut. */
export function shownLine(text: string, keepWhole?: KeepWhole): string {
  if (text.length <= MAX_SHOWN_LINE_CHARS + CUT_MARKER_MAX_CHARS) return text;
  let head = codeUnitBoundary(text, SHOWN_HEAD_CHARS);
  let tail = codeUnitBoundary(text, text.length - SHOWN_TAIL_CHARS);
  if (keepWhole) {
    const spans = keepWhole(text);
    // The head ends before, the tail starts after, any span a cut would split or touch (moving one may meet another span). One
    // that ends right at the head's end is left out too: a value running into the mark reads as cut (the redactor masks the
    // word after the mark as its rest: redactor.ts piecesAtCuts).
    for (let moved = true; moved; ) {
      moved = false;
      for (const s of spans) {
        if (s.start < head && head <= s.end && s.end > s.start) (head = s.start), (moved = true);
        if (s.start <= tail && tail < s.end) (tail = s.end), (moved = true);
      }
    }
  }
  return text.slice(0, head) + cutMarker(tail - head) + text.slice(tail);
}

/**
 * `at`, moved back by one if it would split a UTF-16 surrogate pair (an emoji, a CJK extension
 * character): a cut never leaves half a character on either side.
 */
export function codeUnitBoundary(text: string, at: number): number {
  const c = text.charCodeAt(at);
  return c >= 0xdc00 && c <= 0xdfff && at > 0 ? at - 1 : at;
}

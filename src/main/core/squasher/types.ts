/**
 * Data types of the squasher pipeline (seeds 000/001 "Shared Core: Squasher Pipeline"):
 * bytes → UTF-8 → VT strip → line buffer → classifier → dedup → emit buffer → summary.
 */
import type { Severity } from '../grammar/types.js';

/** SGR colour seen on a line, kept as a classification hint (bit flags). */
export const enum ColorHint {
  None = 0,
  Red = 1,
  Yellow = 2,
}

/**
 * complete: a line as printed. overwrite: the final frame of a line rewritten in place with CR
 * (a progress bar). redrawn: a drawing of a row of a multi-line display that a later redraw
 * drew over (not on the final screen). repeat: a row drawn again unchanged, or a line that only
 * moved the cursor over drawn rows (a copy: the row's first drawing stands for it).
 */
export type LineKind = 'complete' | 'overwrite' | 'redrawn' | 'repeat' | 'partial';

/** One logical line after VT stripping. */
export interface Line {
  kind: LineKind;
  /** Printable text, ANSI removed, no trailing CR/LF. */
  text: string;
  /** ColorHint bit flags. */
  color: number;
  /** 1-based number among complete lines (what `mish raw --lines` counts); 0 for overwrite/partial. */
  no: number;
}

export type Classification =
  | {
      kind: 'hazard';
      severity: Severity;
      rule: string;
      captures?: Record<string, string>;
      /**
       * Characters at the line's start its rule's `lead_noise` took (a progress bar drawn before
       * the hazard on its row): the hazard is the rest of the line, which the rule's pattern
       * matched. Absent when the line is the hazard whole.
       */
      lead?: number;
    }
  | { kind: 'outcome'; rule: string; text: string }
  | {
      kind: 'noise';
      action: 'strip' | 'dedup';
      rule: string;
      /** A grammar strip rule with continue_pattern / end_pattern: the lines after this one may be its paragraph. */
      paragraph?: { continueRe?: RegExp; endRe?: RegExp };
    }
  | { kind: 'prompt'; rule: string }
  | { kind: 'unknown' };

/** A hazard as reported: the line, its context lines, and where it stood in the raw output. */
export interface HazardReport {
  severity: Severity;
  text: string;
  /** Lines kept with it (rustc's ` --> file:line`, traceback frames). */
  context: string[];
  lineNo: number;
  rule: string;
  /** Later reports of the same hazard (same lines, indentation aside), counted here instead of shown again. */
  repeats?: number;
}

/** A group of lines collapsed by the dedup engine. */
export interface DedupGroup {
  /** Normalised template, e.g. `Compiling {id} v{n}`. */
  template: string;
  count: number;
  first: string;
  last: string;
  firstNo: number;
  lastNo: number;
  /** Distinct values of the varying parts when few, or a numeric range `1..5000`. */
  variation?: string;
}

/** Live events while the command runs (the CLI prints them; MCP streams progress). */
export type SquashEvent =
  | { type: 'hazard'; hazard: HazardReport }
  | { type: 'prompt'; text: string }
  | { type: 'progress'; lines: number; elapsedMs: number; lastLine?: string };

export interface SquashResult {
  /** Complete lines seen. */
  totalLines: number;
  bytes: number;
  exitCode: number;
  signal?: number;
  durationMs: number;
  /** Outcome lines (after format), in order, deduplicated. */
  outcomes: string[];
  /** Distinct outcome lines left out of the middle of `outcomes` (over the cap). */
  outcomesOmitted: number;
  hazards: HazardReport[];
  /** Hazards beyond the kept cap (still in the spool). */
  hazardsOmitted: { errors: number; warnings: number };
  /**
   * Where in `hazards` the omitted ones were (the newest errors, kept after the cap, follow);
   * absent: after the last.
   */
  hazardsOmittedAt?: number;
  groups: DedupGroup[];
  /** Dedup noise lines whose template came after the group cap: counted, with their line range. */
  groupsOverflow?: { count: number; fromNo: number; toNo: number };
  /** Unclassified lines shown as head + tail, with an exact marker for the omitted middle. */
  body: BodyLine[];
  /** Lines of each kind, for counts in the summary. */
  counts: { hazard: number; outcome: number; noise: number; prompt: number; unknown: number };
  /**
   * True when the output was small and `body` holds its lines in order, as the final screen shows
   * them (nothing cut), except what `folded` and `restated` count.
   */
  verbatim: boolean;
  /**
   * Lines of a small (verbatim) output left out of `body`: lines a grammar strips as noise, code
   * frames of later hazards in a file already framed, and repeats of a noise line (counted on its
   * first line's `repeats`). Absent when none.
   */
  folded?: number;
  /**
   * Lines of a small output left out because the hazard line right after each repeats it whole
   * (a file name on its own line, then the diagnostic that names it): not in `folded`, as the
   * text still says everything the output did. Absent when none.
   */
  restated?: number;
  /**
   * Hazard lines kept without the decoration drawn before them on their terminal row (their
   * rule's `lead_noise`: a progress bar the error was printed after): the text is then not the
   * output whole, and the raw output keeps the row. Absent when none.
   */
  trimmed?: number;
  /** Prompt text if the output ended on one. */
  finalPrompt?: string;
}

/**
 * The unclassified body: lines, and exact markers for what is not shown — either a head/tail
 * cut (`similar` absent) or the middle of a run of lines sharing one template (`similar`).
 */
export type BodyLine =
  | {
      type: 'line';
      text: string;
      no: number;
      /**
       * A small output's noise line printed again later, the same or differing only in numbers
       * and ids (dedup's template): the later ones, counted here and left out.
       */
      repeats?: number;
    }
  | {
      type: 'omitted';
      count: number;
      /** Hazards the classifier found in the region (they are shown above, with the hazards). */
      errors: number;
      warnings: number;
      fromNo: number;
      toNo: number;
      similar?: boolean;
      identical?: boolean;
      /**
       * Unclassified lines in the region that mention an error word (`failed`, `refused`, …):
       * their numbers (the first MAX_NAMED_MENTIONS) and how many there are. The marker names
       * them, so it never says "0 errors" over an error nothing classified.
       */
      mentions?: number[];
      mentionCount?: number;
    };

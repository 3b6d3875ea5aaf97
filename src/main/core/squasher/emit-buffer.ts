/**
 * Emit buffer (seed: "Stage 4"): accumulates classified lines and builds the final result.
 * Hazards are reported as soon as their context is complete and are never collapsed;
 * outcomes are kept for the summary; noise is stripped or grouped; unclassified lines go to
 * the head/tail body. Every collection is capped, so memory stays flat on 1 GB of output,
 * and every cap is reported with an exact count (the raw output stays in the spool).
 */
import type { CompiledHazardRule } from '../grammar/types.js';
import { DedupGroups, RunCollector, templateOf } from './dedup.js';
import type { Classification, HazardReport, Line, SquashEvent, SquashResult } from './types.js';
import { STACK_FRAME } from './universal-patterns.js';

/** Hazards kept in full; more are counted (the 1 GB-of-errors case must stay under 64 KB). */
export const MAX_HAZARDS = 120;
/** Total characters of hazard text kept, context included. */
export const MAX_HAZARD_CHARS = 24 * 1024;
/**
 * Warnings may fill only this much of the hazard budget, so that a build with hundreds of
 * warnings (cargo -vv on 300 crates) still has room for the error that ends it.
 */
export const MAX_WARNING_CHARS = 12 * 1024;
export const MAX_WARNINGS = 60;
/**
 * Once the budget is spent, the newest errors are still kept (a ring of this many): the last
 * error of a failing run (`error: could not compile`, the failing test summary) is the one an
 * agent needs most. Errors pushed out of the ring are counted.
 */
export const LAST_ERRORS_KEPT = 5;
/** Context characters kept under each of those last errors (5 × 2 KB keeps 1 GB of errors under 64 KB). */
export const LAST_ERROR_CONTEXT_CHARS = 2 * 1024;
/** Context lines kept under one hazard (a traceback, rustc's source excerpt). */
export const MAX_CONTEXT_LINES = 40;
/** Outcome lines kept (distinct). */
export const MAX_OUTCOMES = 60;
/** Outputs up to this many lines are shown whole: condensing five lines helps nobody. */
export const SMALL_OUTPUT_LINES = 20;

/** Blank lines a hazard's context may span before the diagnostic is taken as finished. */
const MAX_BLANKS_IN_CONTEXT = 2;
/**
 * A small output whose left-out lines come to at most this many characters is shown whole after
 * all: leaving them out makes the status line name the raw reference (`· 7 lines · mish raw <id>`,
 * ~30 characters, ~10 tokens), which costs more than the lines it saves (apt-get's one `Reading
 * package lists... Done`, 29 characters).
 */
export const UNFOLD_MAX_CHARS = 40;
/** Files whose first code frame was shown, remembered (past this, every frame is shown: no unbounded set). */
const MAX_FRAMED_FILES = 1024;

/**
 * A source location in a hazard's line or context: `src/a.c:3:5`, `src/a.ts(3,5)`, ` --> src/main.rs:3:5`,
 * `(cart.test.js:9:36)`. Its file names the hazard's file for the one-frame-per-file rule.
 */
const LOCATION = /((?:[A-Za-z]:)?[\w.@+/\\-]*\.[A-Za-z]\w*)(?::\d+|\(\d+,\d+\))/;
/** Where a location is looked for: the start of a line (a minified line in a frame can be 64 K long, and the search is quadratic on it). */
const LOCATION_SCAN_CHARS = 400;

function locationFile(text: string): string | undefined {
  return LOCATION.exec(text.length > LOCATION_SCAN_CHARS ? text.slice(0, LOCATION_SCAN_CHARS) : text)?.[1];
}

/** A line of a small output, kept while the output may still be shown whole. */
interface SmallLine {
  text: string;
  no: number;
  /** Left out of the shown output (grammar noise, a later frame, a counted repeat). */
  fold?: boolean;
  /** Left out because the hazard line right after it repeats it whole (restatedBy): the text still says everything. */
  restated?: boolean;
  repeats?: number;
  /** dedup's template of the text, once asked for. */
  template?: string;
}

interface OpenHazard {
  report: HazardReport;
  /**
   * Where keep() put it: in the budget, among the last errors, or nowhere ('no': over the cap,
   * only counted; its context lines are swallowed with it, not shown as body).
   */
  kept: Kept;
  /** Characters charged to the budget for it (text and context), refunded if it turns out to be a repeat. */
  charged: number;
  /** Context characters this hazard may still take (bounded for the last errors kept past the cap). */
  charsLeft: number;
  blankRun: number;
  contextLeft: number;
  /**
   * continue_pattern / end_pattern of this hazard's rule, then those of the blocks it was found
   * inside (a hazard line that continues an open block inherits that block's patterns: jest's
   * `TypeError:` inside a `●` block, vitest's `AssertionError:` inside a `FAIL` block), so the
   * rest of the block — diff, code frame, stack — stays with it.
   */
  continueRes: readonly RegExp[];
  endRes: readonly RegExp[];
  /** frame_pattern of the rule (or of the block it was found inside). */
  frameRe: RegExp | undefined;
  /** frame_focus of the rule (or of the block it was found inside). */
  focusRe: RegExp | undefined;
  /** While the output is small: its small-output line per context line (so a left-out frame is left out there too). */
  contextSmall: (SmallLine | undefined)[] | undefined;
  /** While the output is small: the small-output lines of the pending blank lines. */
  blankSmall: (SmallLine | undefined)[] | undefined;
}

type Kept = 'budget' | 'last-errors' | 'no';

/**
 * A hazard's line, for spotting a repeat: severity and text, indentation aside (node --test's
 * `✖ failing tests:` recap prints every failure again, indented less). Reports with the same
 * key are then compared by context (sameContext): most hazards differ in their line already,
 * so their context is never looked at.
 */
function hazardKey(h: HazardReport): string {
  return `${h.severity}\n${h.text.trim()}`;
}

function sameContext(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && a[i].trim() !== b[i].trim()) return false;
  return true;
}

/** Characters a path named inside a line may follow, and may be followed by (`[error] a/b.js: …`, `  /w/x.py:3:8 - error`). */
const BEFORE_NAME = /[\s[("'`]/;
const AFTER_NAME = /[\s:(,)"'`]/;

/**
 * Whether `line` says nothing that `next` does not: it is one path-like word (a `/`, `.` or `\`
 * in it, no space) and `next` names it as a whole word. A file name a tool prints on its own
 * line right before the diagnostic that names it again — prettier's file being checked, which a
 * terminal run leaves on the screen when that file fails (`broken/bad.js`, then `[error]
 * broken/bad.js: SyntaxError: …`), pyright's file header over a problem that names the file.
 */
export function restatedBy(next: string, line: string): boolean {
  const word = line.trim();
  if (!isPathWord(word)) return false;
  for (let at = next.indexOf(word); at >= 0; at = next.indexOf(word, at + 1)) {
    const end = at + word.length;
    if ((at === 0 || BEFORE_NAME.test(next[at - 1])) && (end === next.length || AFTER_NAME.test(next[end]))) return true;
  }
  return false;
}

/** One path-like word (trimmed): a `/`, `.` or `\` in it, no space. */
function isPathWord(word: string): boolean {
  return word.length >= 3 && word.length <= 1024 && !/\s/.test(word) && /[./\\]/.test(word);
}

/** The line before the current one, while it may still turn out to be restated by a hazard line (restatedBy). */
interface PrevLine {
  no: number;
  text: string;
  /**
   * The line before it, when that one was unclassified or stripped too: a name right after
   * another bare name is an item of a list (`prettier -l`), and stays even when the next line
   * names it again — the list would lose it.
   */
  before: string | undefined;
  /** It went to the unclassified body (else: a grammar-stripped noise line). */
  unknown: boolean;
  small: SmallLine | undefined;
}

function emptyPrev(): PrevLine {
  return { no: 0, text: '', before: undefined, unknown: false, small: undefined };
}

/** A line with a letter or digit (not only a spinner glyph or nothing). */
const HAS_LETTER = /[\p{L}\p{N}]/u;

const NO_PATTERNS: readonly RegExp[] = [];

function anyMatch(res: readonly RegExp[], text: string): boolean {
  for (let i = 0; i < res.length; i++) if (res[i].test(text)) return true;
  return false;
}

/** The rule's own pattern first, then the inherited ones (each once). */
function withInherited(own: RegExp | undefined, inherited: readonly RegExp[]): readonly RegExp[] {
  if (!own) return inherited;
  if (inherited.length === 0) return [own];
  return inherited.includes(own) ? inherited : [own, ...inherited];
}

export class EmitBuffer {
  private readonly hazards: HazardReport[] = [];
  private hazardChars = 0;
  private warningChars = 0;
  private warningsKept = 0;
  /** Newest errors after the budget was spent (at most LAST_ERRORS_KEPT). */
  private readonly lastErrors: HazardReport[] = [];
  private readonly omittedHazards = { errors: 0, warnings: 0 };
  /**
   * Shown hazards by hazardKey, so a repeat is counted on the first instead of shown again
   * (bounded: only shown hazards are here, at most MAX_HAZARDS + LAST_ERRORS_KEPT).
   */
  private readonly shownByKey = new Map<string, HazardReport[]>();
  private readonly outcomes: string[] = [];
  private readonly outcomeSet = new Set<string>();
  private outcomesDropped = 0;
  private readonly groups = new DedupGroups();
  private readonly runs = new RunCollector();
  private readonly counts = { hazard: 0, outcome: 0, noise: 0, prompt: 0, unknown: 0 };
  private open: OpenHazard | undefined;
  /** Lines kept verbatim while the output is still small. */
  private small: SmallLine[] | undefined = [];
  /** Files (or rules, for a hazard without a location) whose first code frame was shown. */
  private readonly framed = new Set<string>();
  /** The whole context of shown hazards whose frame was left out (a later repeat is compared with it). */
  private readonly untrimmed = new Map<HazardReport, string[]>();
  /** Drawings of redrawn rows seen while small (counted, not shown). */
  private smallHidden = 0;
  /** Hazard lines that came without the lead their rule's lead_noise took (SquashResult.trimmed). */
  private trimmed = 0;
  private lastText = '';
  /**
   * The previous line, when it was unclassified or stripped noise (`hasPrev`; cleared by every
   * other line). Two records used in turn, so no line allocates one (the squasher's hot path).
   */
  private prev: PrevLine = emptyPrev();
  private spare: PrevLine = emptyPrev();
  private hasPrev = false;

  constructor(private readonly onEvent?: (e: SquashEvent) => void) {}

  get lastLine(): string {
    return this.lastText;
  }

  accept(line: Line, cls: Classification, rule?: CompiledHazardRule): void {
    if (line.text.length) this.lastText = line.text;
    if (cls.kind === 'hazard' && cls.lead) this.trimmed++;
    const small = this.small ? this.keepWhileSmall(line) : undefined;
    const prev = this.hasPrev ? this.prev : undefined;
    this.hasPrev = false;
    let inherited: OpenHazard | undefined;
    if (this.open) {
      const o = this.open;
      // Grammar order (grammars/README.md): context_after lines whatever they are, then the
      // end_pattern line closes the block (kept), then continue_pattern lines.
      if (o.endRes.length && o.contextLeft === 0 && anyMatch(o.endRes, line.text)) {
        this.pushBlanks(o);
        if (o.report.context.length < MAX_CONTEXT_LINES) this.pushContext(o, line.text, small);
        this.charge(o, line.text.length);
        this.closeHazard();
        return;
      }
      if (line.text.trim().length === 0 && o.blankRun < MAX_BLANKS_IN_CONTEXT) {
        // A blank line inside a diagnostic (jest's ● blocks, tsc --pretty frames) does not end
        // it; it is kept only if more context follows.
        o.blankRun++;
        if (o.blankSmall) o.blankSmall.push(small);
        this.counts.noise++;
        return;
      }
      if (cls.kind === 'hazard') {
        // A hazard line inside the block (the block's continue_pattern takes it) opens its own
        // report that keeps the block's patterns.
        if (anyMatch(o.continueRes, line.text)) inherited = o;
      } else if (
        (o.contextLeft > 0 || anyMatch(o.continueRes, line.text) || STACK_FRAME.test(line.text)) &&
        o.report.context.length < MAX_CONTEXT_LINES &&
        o.charsLeft > 0 &&
        line.text.trim().length
      ) {
        if (o.contextLeft > 0) o.contextLeft--;
        if (cls.kind === 'noise' && cls.action === 'strip' && cls.rule === 'grammar') {
          // Inside the block, yet a line its grammar strips (node's own `at … (node:internal/…)`
          // frames, a passing TAP test's timing): part of the block, so it does not end it, but
          // nothing a reader would miss in it either.
          this.counts.noise++;
          if (small) small.fold = true;
          return;
        }
        this.pushBlanks(o);
        this.pushContext(o, line.text, small);
        this.charge(o, line.text.length);
        return;
      }
      this.closeHazard();
    }
    switch (cls.kind) {
      case 'hazard': {
        this.counts.hazard++;
        this.runs.noteHazard(cls.severity);
        if (prev && line.no > 0 && prev.no === line.no - 1 && restatedBy(line.text, prev.text) && !(prev.before !== undefined && isPathWord(prev.before.trim()))) this.foldRestated(prev);
        const report: HazardReport = { severity: cls.severity, text: line.text, context: [], lineNo: line.no, rule: cls.rule };
        const kept = this.keep(report);
        const frameRe = rule?.frameRe ?? inherited?.frameRe;
        this.open = {
          frameRe,
          focusRe: rule?.focusRe ?? inherited?.focusRe,
          contextSmall: this.small && frameRe ? [] : undefined,
          blankSmall: this.small && frameRe ? [] : undefined,
          report,
          kept,
          charged: kept === 'no' ? 0 : report.text.length,
          charsLeft: kept === 'last-errors' ? LAST_ERROR_CONTEXT_CHARS : Infinity,
          contextLeft: rule?.contextAfter ?? 0,
          continueRes: withInherited(rule?.continueRe, inherited?.continueRes ?? NO_PATTERNS),
          endRes: withInherited(rule?.endRe, inherited?.endRes ?? NO_PATTERNS),
          blankRun: 0,
        };
        return;
      }
      case 'outcome':
        this.counts.outcome++;
        if (this.outcomeSet.has(cls.text)) return;
        if (this.outcomeSet.size < MAX_OUTCOMES * 4) this.outcomeSet.add(cls.text);
        this.outcomes.push(cls.text);
        // Over the cap, keep the first half and the newest half: a tool's final summary
        // (printed last) must never be pushed out by per-unit outcome lines.
        if (this.outcomes.length > MAX_OUTCOMES) {
          this.outcomes.splice(MAX_OUTCOMES / 2, 1);
          this.outcomesDropped++;
        }
        return;
      case 'noise':
        this.counts.noise++;
        if (small && cls.rule === 'grammar') this.foldWhileSmall(small, cls.action);
        if (cls.action === 'dedup') this.groups.add(line.text, line.no);
        else if (cls.rule === 'grammar' && line.no > 0) this.notePrev(line, false, small, prev);
        return;
      case 'prompt':
        this.counts.prompt++;
        return;
      case 'unknown':
        this.counts.unknown++;
        this.runs.add(line.text, line.no);
        if (line.no > 0) this.notePrev(line, true, small, prev);
        return;
    }
  }

  /**
   * The line right before a hazard line that repeats it whole (restatedBy): left out of the body,
   * and, in a small output, not counted as folded — the text still says everything the output
   * did, so it stays "the output whole" (no line count, no raw reference in the status line).
   */
  /** Remembers this line as the previous one (in the record `before` is not in). */
  private notePrev(line: Line, unknown: boolean, small: SmallLine | undefined, before: PrevLine | undefined): void {
    const p = this.spare;
    this.spare = this.prev;
    this.prev = p;
    p.no = line.no;
    p.text = line.text;
    p.before = before?.text;
    p.unknown = unknown;
    p.small = small;
    this.hasPrev = true;
  }

  private foldRestated(prev: PrevLine): void {
    if (prev.small) {
      prev.small.fold = true;
      prev.small.restated = true;
    }
    if (prev.unknown && this.runs.retract(prev.no)) {
      this.counts.unknown--;
      this.counts.noise++;
    }
  }

  /**
   * Small outputs are shown whole, as the final screen shows them: overwrite lines keep their
   * final frame, unless it is only a spinner glyph or was cleared; rows a redraw drew over are
   * not on it, but they count towards "small" (a display redrawn many times is not small).
   */
  private keepWhileSmall(line: Line): SmallLine | undefined {
    const small = this.small!;
    if (small.length + this.smallHidden >= SMALL_OUTPUT_LINES) {
      this.small = undefined;
      return undefined;
    }
    const kind = line.kind;
    if (kind === 'complete' || (kind === 'overwrite' && HAS_LETTER.test(line.text))) {
      const entry: SmallLine = { text: line.text, no: line.no };
      small.push(entry);
      return entry;
    }
    if (kind !== 'overwrite' && HAS_LETTER.test(line.text)) this.smallHidden++;
    return undefined;
  }

  /**
   * A line of a small output that the tool's grammar calls noise: left out when the grammar
   * strips it; a dedup line like one shown before (the same, or differing only where dedup's
   * template varies: numbers, ids) is counted on that one (`repeats`).
   */
  private foldWhileSmall(entry: SmallLine, action: 'strip' | 'dedup'): void {
    if (action === 'strip') {
      entry.fold = true;
      return;
    }
    const small = this.small!;
    const template = templateOf(entry.text);
    for (let i = 0; i < small.length - 1; i++) {
      const e = small[i];
      if (!e.fold && (e.text === entry.text || (e.template ??= templateOf(e.text)) === template)) {
        e.repeats = (e.repeats ?? 0) + 1;
        entry.fold = true;
        return;
      }
    }
  }

  /**
   * The blank lines seen inside the open hazard, now that more context follows them: one blank
   * line stands for a run (two say nothing more), and none leads the context (the hazard's line
   * is right above it).
   */
  private pushBlanks(o: OpenHazard): void {
    if (o.blankRun === 0) return;
    o.blankRun = 0;
    const lead = o.report.context.length === 0;
    if (!lead) o.report.context.push('');
    if (o.blankSmall?.length) {
      if (!lead) o.contextSmall!.push(o.blankSmall[0]);
      o.blankSmall.length = 0;
    }
  }

  private pushContext(o: OpenHazard, text: string, small: SmallLine | undefined): void {
    o.report.context.push(text);
    o.contextSmall?.push(small);
  }

  /**
   * A hazard's code frame (its rule's frame_pattern lines: source excerpt, gutter, carets) is
   * shown for the first hazard in a file; a later hazard in the same file keeps its location,
   * message and the other lines (notes, labels the pattern leaves out), not the frame again.
   * The file is the first location in the hazard's line or context; without one, the rule.
   */
  private trimFrame(o: OpenHazard): void {
    const re = o.frameRe!;
    const ctx = o.report.context;
    let frames = 0;
    let file = locationFile(o.report.text);
    for (let i = 0; i < ctx.length; i++) {
      if (re.test(ctx[i])) frames++;
      else if (file === undefined) file = locationFile(ctx[i]);
    }
    if (frames === 0) return;
    const key = file ?? `rule:${o.report.rule}`;
    if (o.report.severity === 'error' && !this.framed.has(key)) {
      if (this.framed.size < MAX_FRAMED_FILES) this.framed.add(key);
      return;
    }
    const kept: string[] = [];
    let dropped = 0;
    for (let i = 0; i < ctx.length; i++) {
      const text = ctx[i];
      const blank = text.trim().length === 0;
      // Frame lines go, and so do blank lines that would then lead, trail or double up.
      const drop = blank ? kept.length === 0 || kept[kept.length - 1].trim().length === 0 || !this.moreAfter(ctx, i, re) : re.test(text);
      if (drop) {
        dropped += text.length;
        const small = o.contextSmall?.[i];
        if (small) small.fold = true;
      } else kept.push(text);
    }
    if (this.untrimmed.size < MAX_HAZARDS + LAST_ERRORS_KEPT) this.untrimmed.set(o.report, ctx);
    o.report.context = kept;
    if (o.kept === 'budget') {
      this.hazardChars -= dropped;
      if (o.report.severity === 'warning') this.warningChars -= dropped;
    }
  }

  /**
   * A code frame that marks the line it points at (the rule's frame_focus: pytest's `>` line)
   * keeps it and what follows it (the rest of its statement, carets); the frame lines right above
   * it (and blank lines among them) are the source before the failing line — the function's body
   * from its `def` on, in pytest's long traceback —, left out for every hazard, the first in a
   * file too: the location names the line, the file has the rest. Nothing else of the block is
   * taken for a frame (trimFrame is not applied): what a frame points at stays whole every time.
   */
  private focusFrame(o: OpenHazard): void {
    const frame = o.frameRe!;
    const focus = o.focusRe!;
    const ctx = o.report.context;
    let drop: boolean[] | undefined;
    for (let i = 0; i < ctx.length; i++) {
      if (!focus.test(ctx[i])) continue;
      for (let k = i - 1; k >= 0; k--) {
        const t = ctx[k];
        if (t.trim().length && (!frame.test(t) || focus.test(t))) break;
        (drop ??= new Array<boolean>(ctx.length).fill(false))[k] = true;
      }
    }
    if (!drop) return;
    const kept: string[] = [];
    let dropped = 0;
    for (let i = 0; i < ctx.length; i++) {
      if (!drop[i]) {
        kept.push(ctx[i]);
        continue;
      }
      dropped += ctx[i].length;
      const small = o.contextSmall?.[i];
      if (small) small.fold = true;
    }
    if (this.untrimmed.size < MAX_HAZARDS + LAST_ERRORS_KEPT) this.untrimmed.set(o.report, ctx);
    o.report.context = kept;
    if (o.contextSmall) o.contextSmall = o.contextSmall.filter((_, i) => !drop![i]);
    if (o.kept === 'budget') {
      this.hazardChars -= dropped;
      if (o.report.severity === 'warning') this.warningChars -= dropped;
    }
  }

  /** Whether a line that is neither blank nor a frame line follows position i. */
  private moreAfter(ctx: readonly string[], i: number, re: RegExp): boolean {
    for (let k = i + 1; k < ctx.length; k++) if (ctx[k].trim().length && !re.test(ctx[k])) return true;
    return false;
  }

  /** Report a hazard whose context may still grow (called on silence, so the CLI shows it now). */
  flushOpenHazard(): void {
    if (this.open) this.closeHazard();
  }

  /**
   * Keeps a new hazard within the budget (warnings within their share), or as one of the newest
   * errors once the budget is spent; 'no' when it is only counted. The ring of newest errors may
   * hold one more than LAST_ERRORS_KEPT while the newest is open: it is trimmed when that one
   * closes, as it may turn out to be a repeat (closeHazard).
   */
  private keep(report: HazardReport): Kept {
    const isError = report.severity === 'error';
    const full = this.hazards.length >= MAX_HAZARDS || this.hazardChars >= MAX_HAZARD_CHARS;
    if (!full && (isError || (this.warningsKept < MAX_WARNINGS && this.warningChars < MAX_WARNING_CHARS))) {
      this.hazards.push(report);
      this.hazardChars += report.text.length;
      if (!isError) {
        this.warningsKept++;
        this.warningChars += report.text.length;
      }
      return 'budget';
    }
    if (!isError) {
      this.omittedHazards.warnings++;
      return 'no';
    }
    this.lastErrors.push(report);
    return 'last-errors';
  }

  /** Takes back what keep() and charge() did for a hazard that turned out to be a repeat. */
  private unkeep(o: OpenHazard): void {
    if (o.kept === 'budget') {
      this.hazards.pop();
      this.hazardChars -= o.charged;
      if (o.report.severity === 'warning') {
        this.warningsKept--;
        this.warningChars -= o.charged;
      }
    } else if (o.kept === 'last-errors') this.lastErrors.pop();
    else if (o.report.severity === 'warning') this.omittedHazards.warnings--;
  }

  /** Counts a kept context line against the budget it belongs to. */
  private charge(o: OpenHazard, chars: number): void {
    if (o.kept === 'no') return;
    o.charged += chars;
    if (o.charsLeft !== Infinity) {
      o.charsLeft -= chars;
      return;
    }
    this.hazardChars += chars;
    if (o.report.severity === 'warning') this.warningChars += chars;
  }

  /**
   * A hazard is complete: a repeat of one shown (same lines, indentation aside: a runner's recap
   * of its failures, the same warning for two targets) is counted on that one (`repeats`) and
   * not shown again; otherwise it is reported live, and the ring of newest errors is trimmed.
   */
  private closeHazard(): void {
    const o = this.open;
    this.open = undefined;
    if (!o) return;
    const key = hazardKey(o.report);
    const sameLine = this.shownByKey.get(key);
    const first = sameLine?.find((h) => sameContext(this.untrimmed.get(h) ?? h.context, o.report.context));
    if (first) {
      this.unkeep(o);
      first.repeats = (first.repeats ?? 0) + 1;
      return;
    }
    if (o.kept === 'last-errors' && this.lastErrors.length > LAST_ERRORS_KEPT) {
      const out = this.lastErrors.shift()!;
      const list = this.shownByKey.get(hazardKey(out))!;
      if (list.length > 1) list.splice(list.indexOf(out), 1);
      else this.shownByKey.delete(hazardKey(out));
      this.untrimmed.delete(out);
      this.omittedHazards.errors++;
    }
    if (o.kept === 'no') return;
    if (o.frameRe && o.report.context.length) {
      if (o.focusRe) this.focusFrame(o);
      else this.trimFrame(o);
    }
    if (sameLine) sameLine.push(o.report);
    else this.shownByKey.set(key, [o.report]);
    this.onEvent?.({ type: 'hazard', hazard: o.report });
  }

  finish(base: Pick<SquashResult, 'totalLines' | 'bytes' | 'exitCode' | 'signal' | 'durationMs' | 'finalPrompt'>): SquashResult {
    this.closeHazard();
    const small = this.small;
    let folded = 0;
    let restated = 0;
    if (small) {
      let foldedChars = 0;
      for (const e of small) {
        if (e.restated) restated++;
        else if (e.fold) {
          folded++;
          foldedChars += e.text.length + 1;
        }
      }
      if (folded && foldedChars <= UNFOLD_MAX_CHARS) {
        // Cheaper whole: every line back in order, no repeats counted.
        for (const e of small) if (!e.restated) {
          e.fold = false;
          e.repeats = undefined;
        }
        folded = 0;
      }
    }
    return {
      ...base,
      outcomes: this.outcomes,
      outcomesOmitted: this.outcomesDropped,
      hazards: this.lastErrors.length ? [...this.hazards, ...this.lastErrors] : this.hazards,
      hazardsOmitted: { ...this.omittedHazards },
      ...(this.lastErrors.length ? { hazardsOmittedAt: this.hazards.length } : {}),
      groups: this.groups.list().filter((g) => g.count > 0),
      ...(this.groups.overflowLines ? { groupsOverflow: { count: this.groups.overflowLines, fromNo: this.groups.overflowFirstNo, toNo: this.groups.overflowLastNo } } : {}),
      body: small ? small.filter((e) => !e.fold).map((e) => ({ type: 'line' as const, text: e.text, no: e.no, ...(e.repeats ? { repeats: e.repeats } : {}) })) : this.runs.body(),
      counts: { ...this.counts },
      verbatim: small !== undefined,
      ...(small && folded ? { folded } : {}),
      ...(small && restated ? { restated } : {}),
      ...(this.trimmed ? { trimmed: this.trimmed } : {}),
    };
  }
}

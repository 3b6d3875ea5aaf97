/**
 * Which raw lines a condensed summary kept, folded into a marker, or dropped — the grammar
 * editor's marks against the raw output. Built beside the squasher, never inside it: from the
 * lines it classified (Squasher's `onClassified` observer) and the SquashResult, laid out in the
 * exact order renderSummary prints (the test checks the line counts agree).
 *
 * Pure and node-free (it runs in the editor's Web Worker).
 */
import { templateOf } from '../squasher/dedup.js';
import { restatedBy } from '../squasher/emit-buffer.js';
import type { Classification, Line, SquashResult } from '../squasher/types.js';

/** A raw line's fate in the summary. */
export const LineStatus = {
  /** Not represented: stripped noise, a progress frame, a line dropped by a cap. */
  dropped: 0,
  /** Shown as itself (a hazard or its context, an outcome, a body line). */
  kept: 1,
  /** Counted in a marker or group line that stands for it (`[... 40 lines omitted ...]`, `~ x (x12)`). */
  folded: 2,
} as const;
export type LineStatusCode = (typeof LineStatus)[keyof typeof LineStatus];

/** One classified line as the squasher saw it. */
export interface TracedLine {
  no: number;
  text: string;
  cls: Classification;
}

export interface LineMap {
  /** Per raw line (index = line number − 1): LineStatus. */
  status: Uint8Array;
  /** Per raw line: index of the summary line showing it or standing for it, −1 when dropped. */
  target: Int32Array;
  /** Per raw line: index into `rules` of the rule that classified it (0 = none). */
  ruleOf: Uint16Array;
  /** Rule labels (`hazard:cargo-error`, `noise:dedup:compiling`); index 0 is ''. */
  rules: string[];
  /** Lines of the rendered summary, for the check against renderSummary. */
  outputLines: number;
}

/** Collects the squasher's classified lines (pass `trace.push` bound as `onClassified`). */
export class LineTrace {
  readonly lines: TracedLine[] = [];
  readonly observe = (line: Line, cls: Classification): void => {
    // Progress frames and redrawn rows have no raw line number of their own.
    if (line.no > 0) this.lines.push({ no: line.no, text: line.text, cls });
  };
}

/** Label of a classification for the raw pane's tooltip. */
function ruleLabel(cls: Classification): string {
  switch (cls.kind) {
    case 'hazard':
      return `${cls.severity}:${cls.rule}`;
    case 'outcome':
      return `outcome:${cls.rule}`;
    case 'noise':
      return `noise ${cls.action}:${cls.rule}`;
    case 'prompt':
      return `prompt:${cls.rule}`;
    default:
      return '';
  }
}

/**
 * Maps every raw line (1..rawLines) to what the rendered summary (renderSummary: no header, the
 * status line is the host's) shows for it.
 */
export function mapLines(result: SquashResult, trace: readonly TracedLine[], rawLines: number): LineMap {
  const status = new Uint8Array(rawLines);
  const target = new Int32Array(rawLines).fill(-1);
  const ruleOf = new Uint16Array(rawLines);
  const rules = [''];
  const ruleIndex = new Map<string, number>([['', 0]]);
  const set = (no: number, s: LineStatusCode, t: number) => {
    if (no < 1 || no > rawLines) return;
    // A line already kept stays kept (a hazard's context line that is also an outcome).
    if (status[no - 1] === LineStatus.kept && s !== LineStatus.kept) return;
    status[no - 1] = s;
    target[no - 1] = t;
  };
  for (const t of trace) {
    if (t.no < 1 || t.no > rawLines) continue;
    const label = ruleLabel(t.cls);
    let i = ruleIndex.get(label);
    if (i === undefined) {
      i = rules.length;
      if (i > 0xffff) i = 0;
      else {
        rules.push(label);
        ruleIndex.set(label, i);
      }
    }
    ruleOf[t.no - 1] = i;
  }

  let out = 0;
  if (result.verbatim) {
    // Small output: its lines in order, less what the squasher folded (grammar noise: dropped;
    // a repeated noise line: counted on its first copy).
    const shownAt = new Map<number, number>();
    const repeatedAt = new Map<string, number>();
    for (const b of result.body) {
      if (b.type !== 'line') continue;
      if (b.no > 0) shownAt.set(b.no, out);
      if (b.repeats) repeatedAt.set(b.text, out);
      out++;
    }
    for (const t of trace) {
      const at = shownAt.get(t.no);
      if (at !== undefined) set(t.no, LineStatus.kept, at);
      else {
        const first = repeatedAt.get(t.text);
        if (first !== undefined) set(t.no, LineStatus.folded, first);
      }
    }
    if (result.finalPrompt) out++;
    markRestated(trace, status, target);
    return { status, target, ruleOf, rules, outputLines: out };
  }

  // Layout, in renderSummary's order.
  const hazardAt = new Map<number, { index: number; report: SquashResult['hazards'][number] }>();
  const hazardByKey = new Map<string, number>();
  const { errors, warnings } = result.hazardsOmitted;
  const omittedAt = result.hazardsOmittedAt ?? result.hazards.length;
  let omittedHazardsLine = -1;
  result.hazards.forEach((h, i) => {
    if (i === omittedAt && errors + warnings > 0) omittedHazardsLine = out++;
    hazardAt.set(h.lineNo, { index: out, report: h });
    const key = `${h.severity}\n${h.text.trim()}`;
    if (!hazardByKey.has(key)) hazardByKey.set(key, out);
    out += 1 + h.context.length;
  });
  if (omittedAt >= result.hazards.length && errors + warnings > 0) omittedHazardsLine = out++;
  const outcomeAt = new Map<string, number>();
  let omittedOutcomesLine = -1;
  result.outcomes.forEach((o, i) => {
    if (result.outcomesOmitted && i === result.outcomes.length / 2) omittedOutcomesLine = out++;
    outcomeAt.set(o, out++);
  });
  const groupLines = result.groups.map((g) => ({ g, index: out++ }));
  const groupByTemplate = new Map(groupLines.map((x) => [x.g.template, x] as const));
  const bodyAt = new Map<number, number>();
  const markers: { from: number; to: number; index: number }[] = [];
  for (const b of result.body) {
    if (b.type === 'line') bodyAt.set(b.no, out);
    else markers.push({ from: b.fromNo, to: b.toNo, index: out });
    out++;
  }
  if (result.finalPrompt) out++;

  // Hazards and their context: the context lines follow the hazard line in the raw output
  // (blank and grammar-stripped lines in between were skipped by the squasher).
  const byNo = new Map<number, TracedLine>();
  for (const t of trace) byNo.set(t.no, t);
  const contextLines = new Set<number>();
  for (const [no, { index, report }] of hazardAt) {
    set(no, LineStatus.kept, index);
    let at = no + 1;
    report.context.forEach((ctx, ci) => {
      if (ctx === '') return;
      for (let look = at; look <= rawLines && look < at + 64; look++) {
        if (byNo.get(look)?.text === ctx) {
          set(look, LineStatus.kept, index + 1 + ci);
          contextLines.add(look);
          at = look + 1;
          return;
        }
      }
    });
  }

  for (const t of trace) {
    if (hazardAt.has(t.no) || contextLines.has(t.no)) continue;
    const cls = t.cls;
    switch (cls.kind) {
      case 'hazard': {
        // Not shown itself: a repeat of one shown (counted on it), or over the cap (counted in the marker).
        const first = hazardByKey.get(`${cls.severity}\n${t.text.trim()}`);
        if (first !== undefined) set(t.no, LineStatus.folded, first);
        else if (omittedHazardsLine >= 0) set(t.no, LineStatus.folded, omittedHazardsLine);
        break;
      }
      case 'outcome': {
        const at = outcomeAt.get(cls.text);
        if (at !== undefined) set(t.no, LineStatus.kept, at);
        else if (omittedOutcomesLine >= 0) set(t.no, LineStatus.folded, omittedOutcomesLine);
        break;
      }
      case 'noise': {
        if (cls.action !== 'dedup') break;
        const g = groupByTemplate.get(templateOf(t.text)) ?? groupLines.find(({ g }) => g.firstNo <= t.no && t.no <= g.lastNo);
        if (g) set(t.no, g.g.count === 1 ? LineStatus.kept : LineStatus.folded, g.index);
        break;
      }
      case 'unknown': {
        const at = bodyAt.get(t.no);
        if (at !== undefined) {
          set(t.no, LineStatus.kept, at);
          break;
        }
        const m = markerAt(markers, t.no);
        if (m) set(t.no, LineStatus.folded, m.index);
        break;
      }
      default:
        break;
    }
  }
  markRestated(trace, status, target);
  return { status, target, ruleOf, rules, outputLines: out };
}

/**
 * A line left out because the hazard line right after it repeats it whole (a file name on its
 * own line, then the diagnostic naming it: emit-buffer's restatedBy) is folded into that line.
 */
function markRestated(trace: readonly TracedLine[], status: Uint8Array, target: Int32Array): void {
  for (let i = 0; i + 1 < trace.length; i++) {
    const t = trace[i];
    const next = trace[i + 1];
    if (next.no > status.length || status[t.no - 1] !== LineStatus.dropped || next.no !== t.no + 1 || next.cls.kind !== 'hazard') continue;
    if (t.cls.kind !== 'unknown' && !(t.cls.kind === 'noise' && t.cls.action === 'strip')) continue;
    if (status[next.no - 1] !== LineStatus.kept || !restatedBy(next.text, t.text)) continue;
    status[t.no - 1] = LineStatus.folded;
    target[t.no - 1] = target[next.no - 1];
  }
}

/** The marker whose range holds line `no` (markers are in line order, body order): binary search. */
function markerAt<M extends { from: number; to: number }>(markers: readonly M[], no: number): M | undefined {
  let lo = 0;
  let hi = markers.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const m = markers[mid];
    if (no < m.from) hi = mid - 1;
    else if (no > m.to) lo = mid + 1;
    else return m;
  }
  return undefined;
}

/** Raw line numbers marked must-keep that the summary does not show as themselves. */
export function mustKeepMisses(map: Pick<LineMap, 'status'>, mustKeep: Iterable<number>): { no: number; status: LineStatusCode }[] {
  const misses: { no: number; status: LineStatusCode }[] = [];
  for (const no of mustKeep) {
    const s = (map.status[no - 1] ?? LineStatus.dropped) as LineStatusCode;
    if (s !== LineStatus.kept) misses.push({ no, status: s });
  }
  return misses.sort((a, b) => a.no - b.no);
}

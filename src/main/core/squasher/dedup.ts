/**
 * Dedup engine: line templates and the two ways lines collapse.
 *  - `templateOf` normalises the volatile parts of a line (hashes, UUIDs, timestamps, paths,
 *    numbers) so `Compiling foo v1.2.3` lines share one template;
 *  - `DedupGroups`: grammar noise marked `dedup`, one group per template with a count, and
 *    the first and last line kept (so `npm warn deprecated a … z (x4)` still names both ends);
 *  - `RunCollector`: unclassified lines in order, consecutive lines of one template folded
 *    into a run (first line, count, last line), head and tail kept, the middle counted with
 *    an exact marker. `seq 1 5000` becomes `1`, `[... 4998 similar lines ...]`, `5000` —
 *    the range survives; distinct names without a shared template are never merged.
 * Everything here is a pure function of the line sequence: the same output always gives the
 * same counts, however it was chunked or timed.
 */
import type { BodyLine, DedupGroup } from './types.js';

/**
 * The line with its volatile parts replaced: a whitespace-separated token containing `/` is
 * a path (`{p}`); inside other tokens every run that starts with a digit and continues
 * with hex digits or `.,:_-` is a number, version, hash or time (`#`). Hand-written scanning
 * rather than a RegExp replace: it runs on every unclassified line and is ~5x faster.
 */
export function templateOf(text: string): string {
  const n = text.length;
  let out = '';
  let copied = 0;
  let tokenStart = 0;
  let tokenHasSlash = false;
  let changed = false;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 32;
    if (c === 32 || c === 9) {
      if (tokenHasSlash) {
        out += text.slice(copied, tokenStart) + '{p}';
        copied = i;
        changed = true;
      }
      tokenStart = i + 1;
      tokenHasSlash = false;
      continue;
    }
    if (c === 47 /* / */) {
      tokenHasSlash = true;
      continue;
    }
    if (c >= 48 && c <= 57 && !tokenHasSlash) {
      // A numeric run: digits, hex letters and separators.
      let j = i + 1;
      while (j < n && isRunChar(text.charCodeAt(j))) j++;
      if (text.indexOf('/', j) >= 0 && nextSpace(text, j) > text.indexOf('/', j)) {
        // The token turns out to be a path: leave it to the token rule.
        i = j - 1;
        continue;
      }
      out += text.slice(copied, i) + '#';
      copied = j;
      changed = true;
      i = j - 1;
    }
  }
  return changed ? out + text.slice(copied) : text;
}

/**
 * `templateOf(a) === templateOf(b)` without building either string: consecutive unclassified
 * lines are compared on every line, so this must not allocate.
 */
export function sameTemplate(a: string, b: string): boolean {
  if (a === b) return true;
  // Numeric runs compare equal whatever their digits; a token with a slash at the same place
  // in both lines is a path in both, compared no further (like `{p}` in templateOf).
  const na = a.length;
  const nb = b.length;
  let i = 0;
  let j = 0;
  while (i < na && j < nb) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(j);
    if (ca === 47 && cb === 47) {
      i = nextSpace(a, i);
      j = nextSpace(b, j);
      continue;
    }
    const da = ca >= 48 && ca <= 57;
    const db = cb >= 48 && cb <= 57;
    if (da !== db) return false;
    if (da) {
      i++;
      j++;
      while (i < na && isRunChar(a.charCodeAt(i))) i++;
      while (j < nb && isRunChar(b.charCodeAt(j))) j++;
      continue;
    }
    if (ca !== cb) return false;
    i++;
    j++;
  }
  if (i < na || j < nb) {
    // Trailing parts must both be empty (a slash in a remaining path is handled above).
    return false;
  }
  return true;
}

function isRunChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70) || c === 46 || c === 44 || c === 58 || c === 95 || c === 45;
}

function nextSpace(text: string, from: number): number {
  const a = text.indexOf(' ', from);
  return a < 0 ? text.length : a;
}

/** Most distinct noise templates we track; further ones are only counted. */
export const MAX_DEDUP_GROUPS = 64;

export class DedupGroups {
  private readonly groups = new Map<string, DedupGroup>();
  /** Lines whose template arrived after the group cap. */
  overflowLines = 0;

  add(text: string, no: number): void {
    const template = templateOf(text);
    const g = this.groups.get(template);
    if (g) {
      g.count++;
      g.last = text;
      g.lastNo = no;
      return;
    }
    if (this.groups.size >= MAX_DEDUP_GROUPS) {
      this.overflowLines++;
      return;
    }
    this.groups.set(template, { template, count: 1, first: text, last: text, firstNo: no, lastNo: no });
  }

  list(): DedupGroup[] {
    return [...this.groups.values()];
  }
}

interface Run {
  first: string;
  firstNo: number;
  last: string;
  lastNo: number;
  count: number;
  /** Hazards seen before this run started (to count hazards inside an omitted region). */
  errorsBefore: number;
  warningsBefore: number;
}

/** Runs kept at the start and at the end of the unclassified body. */
export const HEAD_RUNS = 12;
export const TAIL_RUNS = 12;

export class RunCollector {
  private readonly head: Run[] = [];
  private tail: Run[] = [];
  private current: Run | undefined;
  private omitted: { count: number; fromNo: number; toNo: number; errorsBefore: number; warningsBefore: number } | undefined;
  private errors = 0;
  private warnings = 0;

  /** Called for every hazard line, to count hazards in omitted regions. */
  noteHazard(severity: 'error' | 'warning'): void {
    if (severity === 'error') this.errors++;
    else this.warnings++;
  }

  add(text: string, no: number): void {
    const cur = this.current;
    if (cur && sameTemplate(cur.last, text)) {
      cur.count++;
      cur.last = text;
      cur.lastNo = no;
      return;
    }
    if (cur) this.retire(cur);
    this.current = { first: text, firstNo: no, last: text, lastNo: no, count: 1, errorsBefore: this.errors, warningsBefore: this.warnings };
  }

  private retire(run: Run): void {
    if (this.head.length < HEAD_RUNS) {
      this.head.push(run);
      return;
    }
    this.tail.push(run);
    if (this.tail.length > TAIL_RUNS * 2) {
      // Amortised ring: drop the oldest half into the omitted region in one go.
      const drop = this.tail.length - TAIL_RUNS;
      for (let i = 0; i < drop; i++) this.omit(this.tail[i]);
      this.tail = this.tail.slice(drop);
    }
  }

  private omit(run: Run): void {
    if (!this.omitted) this.omitted = { count: 0, fromNo: run.firstNo, toNo: run.lastNo, errorsBefore: run.errorsBefore, warningsBefore: run.warningsBefore };
    this.omitted.count += run.count;
    this.omitted.toNo = run.lastNo;
  }

  /** The body: head runs, one exact marker for what was left out, tail runs. */
  body(): BodyLine[] {
    const runs = [...this.head, ...this.tail];
    if (this.current) runs.push(this.current);
    // Fold the oldest tail runs beyond TAIL_RUNS into the omitted region.
    const headCount = this.head.length;
    let tailStart = headCount;
    const tailRuns = runs.length - headCount;
    let omitted = this.omitted ? { ...this.omitted } : undefined;
    if (tailRuns > TAIL_RUNS) {
      const drop = tailRuns - TAIL_RUNS;
      for (let i = headCount; i < headCount + drop; i++) {
        const r = runs[i];
        if (!omitted) omitted = { count: 0, fromNo: r.firstNo, toNo: r.lastNo, errorsBefore: r.errorsBefore, warningsBefore: r.warningsBefore };
        omitted.count += r.count;
        omitted.toNo = r.lastNo;
      }
      tailStart = headCount + drop;
    }
    const out: BodyLine[] = [];
    for (let i = 0; i < headCount; i++) pushRun(out, runs[i]);
    if (omitted) {
      const next = runs[tailStart];
      const errorsAfter = next ? next.errorsBefore : this.errors;
      const warningsAfter = next ? next.warningsBefore : this.warnings;
      out.push({ type: 'omitted', count: omitted.count, errors: errorsAfter - omitted.errorsBefore, warnings: warningsAfter - omitted.warningsBefore, fromNo: omitted.fromNo, toNo: omitted.toNo });
    }
    for (let i = tailStart; i < runs.length; i++) pushRun(out, runs[i]);
    return out;
  }
}

/** Consecutive lines sharing a template fold to first, a counted marker, last. */
const MIN_RUN_TO_FOLD = 4;

function pushRun(out: BodyLine[], run: Run): void {
  out.push({ type: 'line', text: run.first, no: run.firstNo });
  if (run.count === 1) return;
  if (run.count < MIN_RUN_TO_FOLD) {
    // Short runs: the middle lines are not kept, so show what we have exactly.
    if (run.count === 3) out.push({ type: 'omitted', count: 1, errors: 0, warnings: 0, fromNo: run.firstNo + 1, toNo: run.lastNo - 1, similar: true });
    out.push({ type: 'line', text: run.last, no: run.lastNo });
    return;
  }
  out.push({ type: 'omitted', count: run.count - 2, errors: 0, warnings: 0, fromNo: run.firstNo + 1, toNo: run.lastNo - 1, similar: true });
  out.push({ type: 'line', text: run.last, no: run.lastNo });
}

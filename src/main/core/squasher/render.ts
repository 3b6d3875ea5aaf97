/**
 * Renders a SquashResult as text (seed: "+ 147 packages installed ~ npm warn deprecated … (x4)").
 * Order: hazards (errors and warnings with their context, in order), outcomes, deduplicated
 * groups, then the unclassified body cut head+tail with exact markers. Small outputs are shown
 * whole. The run's facts (exit code, line count, duration, the raw output's reference) are not
 * here: each host renders them in one status line (core/format/render.ts).
 */
import { constants } from 'node:os';
import { shownLine, type KeepWhole } from './line-cut.js';
import type { BodyLine, HazardReport, SquashResult } from './types.js';
import { thousands } from '../format/thousands.js';

export interface RenderOptions {
  /** ANSI colour (for a terminal). */
  color?: boolean;
  /**
   * The command's working directory: paths under it are shown relative (`/home/me/proj/src/a.js`
   * → `src/a.js`). Only whole path starts are rewritten (after a space, quote, bracket, `:` or
   * `=`, or at the line start), so text that merely contains it stays.
   */
  cwd?: string;
  /** Hazards the host has already shown (the CLI prints them as they happen): left out here, counted in `skipped`. */
  skipHazard?: (h: HazardReport) => boolean;
  /** Spans of a long line its cut must not split (line-cut.ts KeepWhole: the host's secrets). */
  keepWhole?: KeepWhole;
}

/** A summary as text, and what a reader of it should know about what it leaves out. */
export interface RenderedSummary {
  text: string;
  /**
   * The text is not the output shown whole: something was folded, cut, reordered or dropped
   * (the status line then names the line count and how to read the raw output).
   */
  hidden: boolean;
  /** Hazards left out because the host had shown them (`skipHazard`). */
  skipped: number;
  /** The text is the output's lines in order with nothing cut (a small output; noise and leads may be left out). */
  inOrder: boolean;
}

/**
 * The indentation of a hazard's context lines and of the unclassified lines of a condensed
 * summary. None: the tool's own indentation stays as it was, and two spaces more cost a token on
 * most lines (measured over the failing fixtures, o200k, see bench/tokens.bench.ts); the `✗`/`⚠`
 * marker at the head of each hazard block and the `+`/`~` prefixes already set the sections apart.
 */
const BODY_INDENT = '';
const CONTEXT_INDENT = '';

/**
 * A horizontal rule drawn with a repeated character (`⎯⎯⎯⎯…⎯ Failed Tests 1 ⎯⎯…`, `═════`) is
 * decoration, and each box-drawing character is a token of its own (vitest's 120-column rules
 * cost ~230 tokens a line): runs of eight or more are shown as three. Not `~`, `^` or `-`:
 * squiggles and carets mark a span, dashes may be an argument. Not a run glued to a word or inside quotes: a tool's own mask
 * of a value (`gh auth status`' `gho_****…`, pydantic's `SecretStr('**********')`: blind pass 212 L12, 208 L25) is what it printed.
 */
// The run is read whole (`\1` after it is no end): `aws configure list`'s `****************QIL2` lost 12 of its stars (blind pass 233 L2).
const RULE_RUN = /(?<![\w'"(⎯─━═▬—–=_*])([⎯─━═▬—–=_*])\1{7,}(?![\w'")]|\1)/g;
function squeezeRules(text: string): string {
  return text.length < 8 ? text : text.replace(RULE_RUN, '$1$1$1');
}

/** The marker line-cut.ts puts in a long line (`… [+499,600 chars] …`): such a line is not shown whole. */
const CUT_MARK = /… \[\+[\d,]+ chars\] …/;

/** Characters after which a path may start. */
const PATH_START = new Set([' ', '\t', "'", '"', '(', '<', '[', ':', '=', ',', '`']);

/** A file URL's scheme (Node's ESM stack frames: `at f (file:///home/me/proj/test/a.js:17:12)`). */
const FILE_URL = 'file://';
/** A path followed by `:line` or `:line:col` (within the first LOCATION_SCAN_CHARS characters). */
const LOCATION_AFTER = /^[^\s():]+:\d+(?::\d+)?(?:\)|\s|$)/;
const LOCATION_SCAN_CHARS = 400;

/**
 * A rewriter of absolute paths under `cwd` to relative ones; a `file://` URL of such a path
 * becomes the relative path too (`file:///home/me/proj/test/a.js:17:12` → `test/a.js:17:12`).
 */
function relativizer(cwd: string | undefined): (text: string) => string {
  if (!cwd || cwd === '/') return (t) => t;
  const prefix = cwd.replace(/\/+$/, '') + '/';
  return (text: string) => {
    if (text.indexOf(prefix) < 0) return text;
    let out = '';
    let from = 0;
    for (let at = text.indexOf(prefix); at >= 0; at = text.indexOf(prefix, at + 1)) {
      // The path starts at `at`, or its file URL does: a URL naming a location (`:line:col`, a
      // stack frame's) becomes the relative path; a plain URL is left as written (a link).
      const url = at >= FILE_URL.length && text.startsWith(FILE_URL, at - FILE_URL.length);
      if (url && !LOCATION_AFTER.test(text.slice(at + prefix.length, at + prefix.length + LOCATION_SCAN_CHARS))) continue;
      const start = url ? at - FILE_URL.length : at;
      if (start > 0 && !PATH_START.has(text[start - 1])) continue;
      if (start < from) continue;
      if (at + prefix.length >= text.length || /\s/.test(text[at + prefix.length])) continue;
      out += text.slice(from, start);
      from = at + prefix.length;
    }
    return from ? out + text.slice(from) : text;
  };
}

const SGR = { red: '\x1b[31m', yellow: '\x1b[33m', green: '\x1b[32m', dim: '\x1b[2m', bold: '\x1b[1m', reset: '\x1b[0m' };

/** The summary's text (see renderSquash). */
export function renderSummary(r: SquashResult, options: RenderOptions = {}): string {
  return renderSquash(r, options).text;
}

/**
 * The summary's lines: hazards (one `✗`/`⚠` per block of adjacent hazard lines, context under
 * them), outcomes (`+`), folded noise (`~`), the unclassified body with exact markers. A small
 * output (verbatim) is its lines as printed, no prefix. No header and no footer: the exit code,
 * counts and how to read the raw output are facts the host renders (core/format/render.ts).
 */
export function renderSquash(r: SquashResult, options: RenderOptions = {}): RenderedSummary {
  const c = options.color ? SGR : { red: '', yellow: '', green: '', dim: '', bold: '', reset: '' };
  const out: string[] = [];
  const rel = relativizer(options.cwd);
  let cut = false;
  const shown = (t: string) => {
    const whole = squeezeRules(rel(t));
    const s = shownLine(whole, options.keepWhole);
    // Cut here, or already by the line buffer (a line past its limit arrives as head, marker, tail).
    if (s !== whole || CUT_MARK.test(s)) cut = true;
    return s;
  };
  let skipped = 0;
  // F's fields (optional): noise lines of a small output left out, and repeats counted on a line.
  const folded = (r as { folded?: number }).folded ?? 0;
  if (r.verbatim) {
    for (const b of r.body) if (b.type === 'line') out.push(bodyText(b.text, shown, '') + repeatsNote((b as { repeats?: number }).repeats));
  } else {
    const { errors, warnings } = r.hazardsOmitted;
    const omittedAt = r.hazardsOmittedAt ?? r.hazards.length;
    let prev: HazardReport | undefined;
    r.hazards.forEach((h, i) => {
      if (i === omittedAt && pushOmittedHazards(out, errors, warnings, c)) prev = undefined;
      if (options.skipHazard?.(h)) {
        skipped++;
        prev = undefined;
        return;
      }
      pushHazard(out, h, c, shown, !continuesBlock(prev, h));
      prev = h;
    });
    if (omittedAt >= r.hazards.length) pushOmittedHazards(out, errors, warnings, c);
    r.outcomes.forEach((o, i) => {
      if (r.outcomesOmitted && i === r.outcomes.length / 2) out.push(`${c.dim}[... ${plural(r.outcomesOmitted, 'more outcome line')} ...]${c.reset}`);
      out.push(`${c.green}+ ${shown(o)}${c.reset}`);
    });
    for (const g of r.groups) {
      const ends = g.count > 1 && g.last !== g.first ? `${shown(g.first)} … ${shown(g.last)}` : shown(g.first);
      out.push(`${c.dim}~ ${ends}${g.count > 1 ? ` (x${g.count})` : ''}${c.reset}`);
    }
    if (r.groupsOverflow) {
      const o = r.groupsOverflow;
      out.push(`${c.dim}~ [... ${plural(o.count, 'more noise line')} of other shapes (lines ${o.fromNo}-${o.toNo}) ...]${c.reset}`);
    }
    for (const b of r.body) out.push(bodyLine(b, c, shown));
  }
  if (r.finalPrompt) out.push(`${c.yellow}? waiting at prompt: ${shown(r.finalPrompt)}${c.reset}`);
  // A hazard line shown without the progress bar drawn before it on its row: not the output whole either.
  const trimmed = r.trimmed ?? 0;
  return { text: out.length ? out.join('\n') + '\n' : '', hidden: !r.verbatim || folded > 0 || trimmed > 0 || cut, skipped, inOrder: r.verbatim && !cut && !skipped };
}

/** Whether hazard `h` goes on the block `prev` began: same severity, the next raw line after it and its context. */
export function continuesBlock(prev: HazardReport | undefined, h: HazardReport): boolean {
  if (!prev || prev.severity !== h.severity || prev.repeats || h.repeats) return false;
  return h.lineNo > prev.lineNo && h.lineNo <= prev.lineNo + prev.context.length + 1;
}

function pushOmittedHazards(out: string[], errors: number, warnings: number, c: typeof SGR): boolean {
  if (errors + warnings === 0) return false;
  out.push(`${c.dim}[... ${plural(errors, 'more error')}, ${plural(warnings, 'more warning')} not shown: see the raw output ...]${c.reset}`);
  return true;
}

export function formatDuration(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(ms < 100 ? 2 : 1)}s`;
  if (ms < 120_000) return `${Math.round(ms / 1000)}s`;
  return `${Math.floor(ms / 60_000)}m${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}s`;
}

/** `SIGKILL` for 9; `signal N` when the platform has no name for it. */
export function signalName(n: number): string {
  for (const [name, num] of Object.entries(constants.signals)) if (num === n) return name;
  return `signal ${n}`;
}

function pushHazard(out: string[], h: HazardReport, c: typeof SGR, shown: (t: string) => string, marked: boolean): void {
  const color = h.severity === 'error' ? c.red : c.yellow;
  const repeats = h.repeats ? ` (x${h.repeats + 1})` : '';
  const mark = marked ? hazardMark(h) : '';
  out.push(`${color}${mark}${shown(h.text)}${repeats}${c.reset}`);
  for (const ctx of h.context) out.push(contextLine(shown(ctx)));
}

/**
 * A hazard line that says what it is needs no marker: `✗`/`⚠` would repeat it, at 2 tokens a
 * line (o200k). It says so by a severity word (`error[E0308]: …`, `npm warn …`, `FAIL x`, `3
 * errors`, `panicked`), by naming an error or warning class (`TypeError: …`, `KeyError`,
 * `InvalidArgumentException`, `DeprecationWarning`), or by starting with its tool's own failure
 * mark (jest's `●`, node:test's `✖`, bun's `✗`, pip's `×`, TAP's `not ok`, pytest's `E   `
 * and its `___ test_x ___` failure header, the `1) ` of the failure lists of mocha, PHPUnit,
 * RSpec and Playwright, which number failures only) — a second mark in front of those (`✗   ✖ applies a discount`) said nothing the line did not
 * (measured over the failing fixtures: see BENCHMARKS.md, "Failing runs, round four").
 */
const SAYS_SEVERITY = {
  error: [/\b(?:errors?|fail(?:s|ed|ure|ures)?|fatal|panic(?:ked)?)\b/i, /[a-z0-9](?:Error|Exception)\b/, /^\s*(?:[✗✖✘×✕●]|not ok\b|E {3}|\d+\) )/, /^_{3,} .* _{3,}$/],
  warning: [/\b(?:warn|warning|warnings)\b/i, /[a-z0-9]Warning\b/, /^\s*[⚠▲]/],
};

/** `✗ ` or `⚠ ` before a hazard line, or nothing when the line itself says what it is. */
export function hazardMark(h: Pick<HazardReport, 'severity' | 'text'>): string {
  const error = h.severity === 'error';
  return (error ? SAYS_SEVERITY.error : SAYS_SEVERITY.warning).some((r) => r.test(h.text)) ? '' : error ? '✗ ' : '⚠ ';
}

/** ` (x3)`: a line printed this many times in all (`repeats` later copies). */
function repeatsNote(repeats: number | undefined): string {
  return repeats ? ` (x${repeats + 1})` : '';
}

/** An unclassified line as printed; a blank line stays empty. */
function bodyText(text: string, shown: (t: string) => string, indent = BODY_INDENT): string {
  return text.trim().length ? `${indent}${shown(text)}` : '';
}

/** A hazard's context line as printed under it; a blank line stays empty (no line of trailing spaces). */
export function contextLine(text: string): string {
  return text.trim().length ? `${CONTEXT_INDENT}${text}` : '';
}

function bodyLine(b: BodyLine, c: typeof SGR, shown: (t: string) => string): string {
  if (b.type === 'line') return bodyText(b.text, shown) + repeatsNote((b as { repeats?: number }).repeats);
  if (b.similar) return `${c.dim}[... ${plural(b.count, b.identical ? 'identical line' : 'similar line')} ...]${c.reset}`;
  return `${c.dim}[... ${plural(b.count, 'line')} omitted (lines ${b.fromNo}-${b.toNo}): ${plural(b.errors, 'error')}, ${plural(b.warnings, 'warning')}${mentionNote(b)} ...]${c.reset}`;
}

/** `; "error" words unclassified on lines 40, 77 (+3 more)`: what the classifier did not call a hazard, named. */
function mentionNote(b: Extract<BodyLine, { type: 'omitted' }>): string {
  if (!b.mentionCount || !b.mentions) return '';
  const more = b.mentionCount - b.mentions.length;
  const where = b.mentions.length === 1 ? `line ${b.mentions[0]}` : `lines ${b.mentions.join(', ')}`;
  return `; ${plural(b.mentionCount, 'other line')} with an error word, unclassified: ${where}${more > 0 ? ` (+${thousands(more)} more)` : ''}`;
}

export function plural(n: number, word: string): string {
  return `${thousands(n)} ${word}${n === 1 ? '' : 's'}`;
}

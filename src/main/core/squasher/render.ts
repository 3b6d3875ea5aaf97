/**
 * Renders a SquashResult as text (seed: "1400 lines → exit 0 (12.3s)  + 147 packages installed
 * ~ npm warn deprecated … (x4)"). Order: the header, hazards (errors and warnings with their
 * context, in order), outcomes, deduplicated groups, then the unclassified body cut head+tail
 * with exact markers. Small outputs are shown whole.
 */
import { constants } from 'node:os';
import { shownLine } from './line-cut.js';
import type { BodyLine, HazardReport, SquashResult } from './types.js';

export interface RenderOptions {
  /** ANSI colour (for a terminal). */
  color?: boolean;
  /** How to get the raw output back, e.g. `mish raw 3f2a` — printed last. */
  spoolRef?: string;
  /** Leave out the header line (when the caller prints its own). */
  noHeader?: boolean;
  /**
   * The command's working directory: paths under it are shown relative (`/home/me/proj/src/a.js`
   * → `src/a.js`) and the header names it once. Only whole path starts are rewritten (after a
   * space, quote, bracket, `:` or `=`, or at the line start), so text that merely contains it stays.
   */
  cwd?: string;
}

/**
 * A horizontal rule drawn with a repeated character (`⎯⎯⎯⎯…⎯ Failed Tests 1 ⎯⎯…`, `═════`) is
 * decoration, and each box-drawing character is a token of its own (vitest's 120-column rules
 * cost ~230 tokens a line): runs of eight or more are shown as three. Not `~`, `^` or `-`:
 * squiggles and carets mark a span, dashes may be an argument.
 */
const RULE_RUN = /([⎯─━═▬—–=_*])\1{7,}/g;
function squeezeRules(text: string): string {
  return text.length < 8 ? text : text.replace(RULE_RUN, '$1$1$1');
}

/** Characters after which a path may start. */
const PATH_START = new Set([' ', '\t', "'", '"', '(', '<', '[', ':', '=', ',', '`']);

/** A rewriter of absolute paths under `cwd` to relative ones, and whether it rewrote any. */
function relativizer(cwd: string | undefined): { rel: (text: string) => string; used: () => boolean } {
  if (!cwd || cwd === '/') return { rel: (t) => t, used: () => false };
  const prefix = cwd.replace(/\/+$/, '') + '/';
  let any = false;
  const rel = (text: string) => {
    if (text.indexOf(prefix) < 0) return text;
    let out = '';
    let from = 0;
    for (let at = text.indexOf(prefix); at >= 0; at = text.indexOf(prefix, at + 1)) {
      if (at > 0 && !PATH_START.has(text[at - 1])) continue;
      if (at + prefix.length >= text.length || /\s/.test(text[at + prefix.length])) continue;
      out += text.slice(from, at);
      from = at + prefix.length;
      any = true;
    }
    return from ? out + text.slice(from) : text;
  };
  return { rel, used: () => any };
}

const SGR = { red: '\x1b[31m', yellow: '\x1b[33m', green: '\x1b[32m', dim: '\x1b[2m', bold: '\x1b[1m', reset: '\x1b[0m' };

export function renderSummary(r: SquashResult, options: RenderOptions = {}): string {
  const c = options.color ? SGR : { red: '', yellow: '', green: '', dim: '', bold: '', reset: '' };
  const out: string[] = [];
  const { rel, used } = relativizer(options.cwd);
  const shown = (t: string) => shownLine(squeezeRules(rel(t)));
  if (!options.noHeader) out.push('');
  if (r.verbatim) {
    for (const b of r.body) if (b.type === 'line') out.push(bodyText(b.text, shown));
  } else {
    const { errors, warnings } = r.hazardsOmitted;
    const omittedAt = r.hazardsOmittedAt ?? r.hazards.length;
    r.hazards.forEach((h, i) => {
      if (i === omittedAt) pushOmittedHazards(out, errors, warnings, c);
      pushHazard(out, h, c, shown);
    });
    if (omittedAt >= r.hazards.length) pushOmittedHazards(out, errors, warnings, c);
    r.outcomes.forEach((o, i) => {
      if (r.outcomesOmitted && i === r.outcomes.length / 2) out.push(`${c.dim}  [... ${plural(r.outcomesOmitted, 'more outcome line')} ...]${c.reset}`);
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
  if (options.spoolRef) out.push(`${c.dim}raw: ${options.spoolRef}${c.reset}`);
  if (!options.noHeader) out[0] = `${c.bold}${headerLine(r)}${used() ? ` in ${options.cwd!.replace(/\/+$/, '')}` : ''}${c.reset}`;
  return out.join('\n') + '\n';
}

function pushOmittedHazards(out: string[], errors: number, warnings: number, c: typeof SGR): void {
  if (errors + warnings > 0) out.push(`${c.dim}  [... ${plural(errors, 'more error')}, ${plural(warnings, 'more warning')} not shown: see the raw output ...]${c.reset}`);
}

/** `1400 lines → exit 0 (12.3s)`, with the signal name when there was one. */
export function headerLine(r: Pick<SquashResult, 'totalLines' | 'exitCode' | 'signal' | 'durationMs'>): string {
  const sig = r.signal ? ` ${signalName(r.signal)}` : '';
  return `${plural(r.totalLines, 'line')} → exit ${r.exitCode}${sig} (${formatDuration(r.durationMs)})`;
}

export function formatDuration(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(ms < 100 ? 2 : 1)}s`;
  if (ms < 120_000) return `${Math.round(ms / 1000)}s`;
  return `${Math.floor(ms / 60_000)}m${String(Math.round((ms % 60_000) / 1000)).padStart(2, '0')}s`;
}

function signalName(n: number): string {
  for (const [name, num] of Object.entries(constants.signals)) if (num === n) return name;
  return `signal ${n}`;
}

function pushHazard(out: string[], h: HazardReport, c: typeof SGR, shown: (t: string) => string): void {
  const color = h.severity === 'error' ? c.red : c.yellow;
  const repeats = h.repeats ? ` (x${h.repeats + 1})` : '';
  out.push(`${color}${h.severity === 'error' ? '✗' : '⚠'} ${shown(h.text)}${repeats}${c.reset}`);
  for (const ctx of h.context) out.push(contextLine(shown(ctx)));
}

/** An unclassified line as printed: indented; a blank line stays empty. */
function bodyText(text: string, shown: (t: string) => string): string {
  return text.trim().length ? `  ${shown(text)}` : '';
}

/** A hazard's context line as printed: indented under it; a blank line stays empty (no line of trailing spaces). */
export function contextLine(text: string): string {
  return text.trim().length ? `    ${text}` : '';
}

function bodyLine(b: BodyLine, c: typeof SGR, shown: (t: string) => string): string {
  if (b.type === 'line') return bodyText(b.text, shown);
  if (b.similar) return `${c.dim}  [... ${plural(b.count, b.identical ? 'identical line' : 'similar line')} ...]${c.reset}`;
  return `${c.dim}  [... ${plural(b.count, 'line')} omitted (lines ${b.fromNo}-${b.toNo}): ${plural(b.errors, 'error')}, ${plural(b.warnings, 'warning')}${mentionNote(b)} ...]${c.reset}`;
}

/** `; "error" words unclassified on lines 40, 77 (+3 more)`: what the classifier did not call a hazard, named. */
function mentionNote(b: Extract<BodyLine, { type: 'omitted' }>): string {
  if (!b.mentionCount || !b.mentions) return '';
  const more = b.mentionCount - b.mentions.length;
  const where = b.mentions.length === 1 ? `line ${b.mentions[0]}` : `lines ${b.mentions.join(', ')}`;
  return `; ${plural(b.mentionCount, 'other line')} with an error word, unclassified: ${where}${more > 0 ? ` (+${more.toLocaleString('en-US')} more)` : ''}`;
}

export function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}

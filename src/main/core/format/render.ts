/**
 * How a run is shown, for every host: the body (what the handler kept of the output, then the
 * enrichment hints) and one short status line of facts — `[exit 1 · 3,013 lines · mish raw ab12]`.
 * Handlers return facts (Report, RunFacts); the router, the CLI and the MCP tools render them
 * here, each naming the raw output its own way (RawRef). No host strips another's rendering.
 *
 * Output modes:
 *   human    for a person at a terminal (optional colour)
 *   json     one object: command, category, exit code, report, spool reference
 *   context  the same text without colour (for an LLM's context window)
 *
 * The status line says only what the text does not: `exit N` always (with the signal's name when
 * one ended it); the duration from LONG_RUN_MS on; the line count and how to read the raw output
 * only when the text is not the output whole (something folded, cut, reordered), and the raw
 * output's reference once (not when a cut marker already names it).
 */
import { renderSquash, signalName } from '../squasher/render.js';
import type { KeepWhole } from '../squasher/line-cut.js';
import type { HazardReport } from '../squasher/types.js';
import { CUT_PLACEHOLDER, textLinesOf } from '../handlers/passthrough.js';
import { humanSize } from '../handlers/narrate.js';
import { pathListLegend } from '../handlers/list-view.js';
import type { Report, RunFacts } from '../handlers/types.js';
import { thousands } from './thousands.js';

export type OutputMode = 'human' | 'json' | 'context';

/**
 * From this run time on the status line states the duration: a quicker run's time tells the
 * reader nothing to act on, and it would cost every reply ~5 tokens.
 */
export const LONG_RUN_MS = 1_000;

export interface RenderInput {
  command: string;
  report: Report;
  facts: RunFacts;
  /** What actually ran when preflight/structured changed it. */
  ran?: string;
  injected?: string[];
  grammars?: string[];
  /** The command's working directory: condensed output shows paths under it relative. */
  cwd?: string;
}

/** How a host names the raw output (the spool) in what it shows. */
export interface RawRef {
  /** The whole output: `mish raw x4moz7240` (CLI), `read_raw c3` (MCP). */
  all: string;
  /** Lines `from`-`to` of it, as a cut marker names them. */
  lines: (from: number, to: number) => string;
}

/** What the text shows of the output: what the status line must add. */
export interface Shown {
  /** The text is not the output whole: something was folded, cut, reordered or left out. */
  hidden: boolean;
  /** Lines the command printed (stated when `hidden`). */
  totalLines?: number;
  /** The text itself names how to read what it cut (a passthrough cut marker does), so the status line does not. */
  rawNamed?: boolean;
  /** Hazards the host had already shown (left out of the text). */
  skipped?: number;
  /**
   * The text is the output's own lines in order, nothing cut (a small output: at most noise lines
   * and the decoration before a hazard left out). A failed run shown so states neither its
   * duration nor its line count: only the raw output's reference, for what was left out.
   */
  inOrder?: boolean;
}

export interface BodyOptions {
  color?: boolean;
  /** How this host names the raw output; default: the spool's `mish raw <id>` (facts.spoolRef). */
  raw?: RawRef;
  /** Hazards the host has already shown (the CLI prints them as they happen). */
  skipHazard?: (h: HazardReport) => boolean;
  /** Say ` ⏎ (no newline at end)` after passthrough output that lacks one (for a person at a terminal, whose prompt would follow on that line). */
  eolNote?: boolean;
  /** Spans of a long line its cut must not split (an agent's host passes its secrets': squasher/line-cut.ts KeepWhole). */
  keepWhole?: KeepWhole;
}

const SGR = { dim: '\x1b[2m', red: '\x1b[31m', reset: '\x1b[0m' };

/** The CLI's name for the raw output: the spool's `mish raw <id>` (`--lines A-B` for a part). */
export function cliRawRef(spoolRef: string | undefined): RawRef | undefined {
  return spoolRef ? { all: spoolRef, lines: (from, to) => `${spoolRef} --lines ${from}-${to}` } : undefined;
}

/** The facts the status line states of every run (`exitCode` null: unknown). */
export interface ExitFacts {
  exitCode: number | null;
  signal?: number;
  durationMs: number;
}

/** `exit 0`, `exit 130 SIGINT`, `exit ?` (unknown). */
export function exitText(f: Omit<ExitFacts, 'durationMs'>): string {
  const code = `exit ${f.exitCode ?? '?'}`;
  return f.signal ? `${code} ${signalName(f.signal)}` : code;
}

/**
 * The facts of the status line, in order: exit, duration (long runs, unless a failure shown in order), line count and raw
 * reference (when the text is not the output whole; the count not for a failure shown in order), then the host's own
 * (`extra`, e.g. the cwd).
 */
export function statusParts(f: ExitFacts, shown: Shown, raw?: string, extra: string[] = []): string[] {
  const parts = [exitText(f)];
  // A failed run shown whole states its exit alone: the reply is then the output plus ~5 tokens
  // (issue 23 pt 4); how long a compile took to fail is not what the reader acts on. A failed
  // small output shown in order less its noise (shown.inOrder) states its exit and the raw
  // output's reference (where the left-out lines are): its line count, 20 at most, is nothing to
  // act on either, and with it the reply stays within the output plus ~5 tokens where what was
  // left out was short (a `Loaded … config` line).
  const failedInOrder = f.exitCode !== 0 && (!shown.hidden || shown.inOrder === true);
  if (f.durationMs >= LONG_RUN_MS && !failedInOrder) parts.push(statusDuration(f.durationMs));
  if (shown.hidden && shown.totalLines !== undefined && !failedInOrder) parts.push(`${thousands(shown.totalLines)} line${shown.totalLines === 1 ? '' : 's'}`);
  if (shown.skipped) parts.push(`${shown.skipped} shown above`);
  if (shown.hidden && !shown.rawNamed && raw) parts.push(raw);
  return [...parts, ...extra];
}

/**
 * A run time as the status line states it: whole seconds (`4s`, `13s`), minutes from
 * MINUTES_FROM_S on (`2m05s`). Tenths would cost two tokens more and tell the reader of a
 * run that long nothing.
 */
export function statusDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < MINUTES_FROM_S ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}

/** From this many seconds on a duration reads better in minutes. */
const MINUTES_FROM_S = 120;

/** `[exit 1 · 3,013 lines · mish raw ab12]`; dimmed on a colour terminal, the exit in red when it failed. */
export function statusLine(parts: string[], failed = false, color = false): string {
  if (!color) return `[${parts.join(' · ')}]`;
  const [exit, ...rest] = parts;
  return `${SGR.dim}[${SGR.reset}${failed ? SGR.red : SGR.dim}${exit}${SGR.reset}${SGR.dim}${rest.map((p) => ` · ${p}`).join('')}]${SGR.reset}`;
}

/** The body of a run as a host shows it: what the handler kept, then the enrichment hints; and what it leaves out. */
export function renderBody(input: RenderInput, options: BodyOptions = {}): { text: string; shown: Shown } {
  const { report: r, facts: f } = input;
  const color = options.color ?? false;
  const raw = options.raw ?? cliRawRef(f.spoolRef);
  const dim = (s: string) => (color ? `${SGR.dim}${s}${SGR.reset}` : s);
  const out: string[] = [];
  let shown: Shown = { hidden: false };
  switch (r.category) {
    case 'condense': {
      const s = renderSquash(r.squash, { color, ...(input.cwd ? { cwd: input.cwd } : {}), ...(options.skipHazard ? { skipHazard: options.skipHazard } : {}), ...(options.keepWhole ? { keepWhole: options.keepWhole } : {}) });
      if (s.text) out.push(s.text.replace(/\n$/, ''));
      shown = { hidden: s.hidden, totalLines: r.squash.totalLines, ...(s.skipped ? { skipped: s.skipped } : {}), ...(s.inOrder ? { inOrder: true } : {}) };
      break;
    }
    case 'passthrough': {
      let body = r.output;
      if (r.cut) {
        const marker = `[mish: lines ${r.cut.fromLine}-${r.cut.toLine} omitted (${r.cut.omittedLines} lines, ${humanSize(r.cut.omittedBytes)})${cutMentions(r.cut)}${raw ? `; read them: ${raw.lines(r.cut.fromLine, r.cut.toLine)}` : ''}]`;
        body = body.replace(CUT_PLACEHOLDER, marker);
      }
      if (r.binary) {
        out.push(`[mish: binary output not shown (${humanSize(r.bytes)}, not text); to look inside use \`file <path>\`, \`xxd <path> | head -20\` or \`strings <path> | head -50\`]`);
        // A failed command's error message is text among the bytes.
        if (f.exitCode !== 0) out.push(...textLinesOf(r.output));
      } else if (body !== '') {
        if (r.list?.kind === 'paths') out.push(pathListLegend(r.list.entries, body));
        else if (r.list) out.push(`[mish: all ${thousands(r.list.entries)} matching lines, grouped by file as rg --heading prints them]`);
        out.push(body.endsWith('\n') ? body.slice(0, -1) : body + (options.eolNote ? dim(' ⏎ (no newline at end)') : ''));
      }
      shown = { hidden: !!r.cut || !!r.binary, ...(r.binary ? {} : { totalLines: r.lines }), ...(r.cut && raw ? { rawNamed: true } : {}) };
      break;
    }
    case 'narrate': {
      // On success the handler kept only what is worth reading (warnings, a short -v listing).
      const c = r.cut;
      const output = c ? r.output.replace(CUT_PLACEHOLDER, `[mish: lines ${c.fromLine}-${c.toLine} omitted (${c.omittedLines} lines)${raw ? `; read them: ${raw.lines(c.fromLine, c.toLine)}` : ''}]`) : r.output;
      if (output.trim()) out.push(output.replace(/\n$/, ''));
      out.push(...r.effects);
      if (c) shown = { hidden: true, totalLines: c.totalLines, ...(raw ? { rawNamed: true } : {}) };
      break;
    }
    case 'structured':
      if (r.output !== undefined) {
        if (r.output !== '') out.push(r.output.replace(/\n$/, ''));
      } else {
        out.push(...r.lines);
        // A parsed view states every fact of the output; one that had to cut a long list says so in its own marker.
        shown = { hidden: r.lines.some((l) => STRUCTURED_CUT.test(l)) };
      }
      break;
    case 'interactive':
      out.push(r.summary);
      break;
  }
  for (const h of f.enrichment) out.push(h);
  return { text: out.length ? out.join('\n') + '\n' : '', shown };
}

/** The marker a structured view puts where it cut a long list (structured.ts). */
const STRUCTURED_CUT = /\[\.\.\. [\d,]+ more .* not shown/;

/**
 * A run as the CLI (and the router's text) shows it: the body, then the status line. An
 * interactive run's summary line (`→ vim: interactive session 4.2s, exit 0`) is its status.
 */
export function render(input: RenderInput, mode: OutputMode, color = false, options: Omit<BodyOptions, 'color'> = {}): string {
  if (mode === 'json') return JSON.stringify(toJson(input)) + '\n';
  const paint = color && mode === 'human';
  const { text, shown } = renderBody(input, { eolNote: mode === 'human', ...options, color: paint });
  if (input.report.category === 'interactive') return text;
  const raw = options.raw ?? cliRawRef(input.facts.spoolRef);
  return text + statusLine(statusParts(input.facts, shown, raw?.all), input.facts.exitCode !== 0, paint) + '\n';
}

export function toJson(input: RenderInput): Record<string, unknown> {
  const { report: r, facts: f } = input;
  const base: Record<string, unknown> = {
    command: input.command,
    ...(input.ran && input.ran !== input.command ? { ran: input.ran } : {}),
    category: r.category,
    exitCode: f.exitCode,
    ...(f.signal ? { signal: f.signal } : {}),
    durationMs: Math.round(f.durationMs),
    ...(f.spoolRef ? { spool: f.spoolRef } : {}),
    ...(f.enrichment.length ? { hints: f.enrichment } : {}),
    ...(input.injected?.length ? { injected: input.injected } : {}),
    ...(input.grammars?.length ? { grammars: input.grammars } : {}),
  };
  switch (r.category) {
    case 'condense':
      return { ...base, summary: r.squash };
    case 'passthrough':
      if (r.binary) return { ...base, output: '', binary: true, lines: r.lines, bytes: r.bytes };
      return { ...base, output: r.output.replace(CUT_PLACEHOLDER, `[mish: lines ${r.cut?.fromLine}-${r.cut?.toLine} omitted]`), lines: r.lines, bytes: r.bytes, ...(r.cut ? { cut: r.cut } : {}), ...(r.list ? { list: { ...r.list, notation: 'compact-paths' } } : {}) };
    case 'narrate':
      return { ...base, effects: r.effects, output: r.cut ? r.output.replace(CUT_PLACEHOLDER, `[mish: lines ${r.cut.fromLine}-${r.cut.toLine} omitted]`) : r.output, ...(r.cut ? { cut: r.cut } : {}) };
    case 'structured':
      return { ...base, kind: r.kind, ...(r.output !== undefined ? { output: r.output } : { lines: r.lines }) };
    case 'interactive':
      return { ...base, summary: r.summary };
  }
}

/** `; error words on lines 1806, 2407 (+3 more)` for a passthrough cut (what it hides that a reader would look for). */
function cutMentions(cut: { mentions?: number[]; mentionCount?: number }): string {
  if (!cut.mentionCount || !cut.mentions) return '';
  const more = cut.mentionCount - cut.mentions.length;
  return `; error words on ${cut.mentions.length === 1 ? 'line' : 'lines'} ${cut.mentions.join(', ')}${more > 0 ? ` (+${more} more)` : ''}`;
}

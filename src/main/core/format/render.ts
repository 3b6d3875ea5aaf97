/**
 * Output modes shared by all handlers:
 *   human    for a person at a terminal (optional colour), footer `── 12 lines · 340B · exit 0`
 *   json     one object: command, category, exit code, report, spool reference
 *   context  for an LLM's context window: no colour, no decoration, bracketed metadata
 */
import { renderSummary } from '../squasher/render.js';
import { CUT_PLACEHOLDER, textLinesOf } from '../handlers/passthrough.js';
import { humanSize } from '../handlers/narrate.js';
import type { Report, RunFacts } from '../handlers/types.js';

export type OutputMode = 'human' | 'json' | 'context';

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

const SGR = { dim: '\x1b[2m', red: '\x1b[31m', reset: '\x1b[0m' };

function exitText(f: RunFacts): string {
  return f.signal ? `exit ${f.exitCode} (signal ${f.signal})` : `exit ${f.exitCode}`;
}

export function render(input: RenderInput, mode: OutputMode, color = false): string {
  if (mode === 'json') return JSON.stringify(toJson(input)) + '\n';
  const { report: r, facts: f } = input;
  const ctx = mode === 'context';
  const dim = (s: string) => (color && !ctx ? `${SGR.dim}${s}${SGR.reset}` : s);
  const out: string[] = [];
  switch (r.category) {
    case 'condense':
      out.push(renderSummary(r.squash, { color: color && !ctx, spoolRef: f.spoolRef, ...(input.cwd ? { cwd: input.cwd } : {}) }).replace(/\n$/, ''));
      break;
    case 'passthrough': {
      let body = r.output;
      if (r.cut) {
        const marker = `[mish: lines ${r.cut.fromLine}-${r.cut.toLine} omitted (${r.cut.omittedLines} lines, ${humanSize(r.cut.omittedBytes)})${cutMentions(r.cut)}${f.spoolRef ? `; full output: ${f.spoolRef}` : ''}]`;
        body = body.replace(CUT_PLACEHOLDER, marker);
      }
      if (r.binary) {
        out.push(`[mish: binary output not shown (${humanSize(r.bytes)}, not text); to look inside use \`file <path>\`, \`xxd <path> | head -20\` or \`strings <path> | head -50\`]`);
        // A failed command's error message is text among the bytes.
        if (f.exitCode !== 0) out.push(...textLinesOf(r.output));
      }
      else if (body !== '') {
        if (r.list?.kind === 'paths') out.push(`[mish: all ${r.list.entries.toLocaleString('en-US')} paths, compacted: a line ending in / heads the lines indented under it; {a,b} lists; {01..19} ranges; \\ escapes]`);
        else if (r.list) out.push(`[mish: all ${r.list.entries.toLocaleString('en-US')} matching lines, grouped by file: the file, then its line:text indented]`);
        out.push(body.endsWith('\n') ? body.slice(0, -1) : body + (ctx ? '' : dim(' ⏎ (no newline at end)')));
      }
      const meta = `${r.lines} ${r.lines === 1 ? "line" : "lines"}, ${humanSize(r.bytes)}, ${exitText(f)}${r.cut && !ctx ? '' : ''}`;
      out.push(ctx ? `[${meta}]` : dim(`── ${meta}`));
      break;
    }
    case 'narrate':
      // On success the handler kept only what is worth reading (warnings, a short -v listing).
      if (r.output.trim()) out.push(r.output.replace(/\n$/, ''));
      out.push(...r.effects);
      if (f.exitCode !== 0) out.push(ctx ? `[${exitText(f)}]` : `✗ ${exitText(f)}`);
      break;
    case 'structured':
      if (r.output !== undefined) {
        if (r.output !== '') out.push(r.output.replace(/\n$/, ''));
        out.push(ctx ? `[${exitText(f)}]` : dim(`── ${exitText(f)}`));
      } else {
        out.push(...r.lines);
        if (f.exitCode !== 0) out.push(`[${exitText(f)}]`);
      }
      break;
    case 'interactive':
      out.push(r.summary);
      break;
  }
  for (const h of f.enrichment) out.push(h);
  if (r.category !== 'condense' && r.category !== 'interactive' && f.spoolRef && mode === 'context' && f.exitCode !== 0) out.push(`[raw: ${f.spoolRef}]`);
  return out.join('\n') + '\n';
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
      return { ...base, effects: r.effects, output: r.output };
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

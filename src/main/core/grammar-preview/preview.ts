/**
 * The grammar editor's live preview: grammar text + recorded raw output → the condensed summary
 * exactly as `mish` prints it, the loader's errors, and the raw-line marks (line-map.ts).
 *
 * File-system free, so the console runs it in a Web Worker on every (debounced) keystroke; the
 * caller hands in the texts of `_shared/*` includes. The squasher is fed text (decoded once by
 * the caller) rather than bytes: its decoder's byte path uses node's Buffer, and the pipeline
 * gives the same lines however its input arrives (utf8-decoder.ts).
 */
import { compileGrammarSource, linkGrammar, type GrammarDraft, type LoadResult } from '../grammar/compile.js';
import { buildCommandIndex, detectTool } from '../grammar/detect.js';
import type { Detection, Grammar, GrammarError } from '../grammar/types.js';
import { renderSummary } from '../squasher/render.js';
import { Squasher } from '../squasher/squasher.js';
import { stripAnsi } from '../squasher/vt-stripper.js';
import { LineTrace, mapLines, type LineMap } from './line-map.js';

export interface PreviewInput {
  /** The grammar being edited (TOML). */
  text: string;
  /** Its path (errors name it; the grammar's default name comes from it). */
  file: string;
  origin?: Grammar['origin'];
  /** Include name (`_shared/ansi-progress`) → TOML text, for `include = [...]`. */
  shared?: Readonly<Record<string, string>>;
  /** The recorded output, decoded as text (ANSI kept). */
  raw: string;
  /** The recorded command's argv, for detection (action, dialect). */
  argv: readonly string[];
  exitCode: number;
  durationMs: number;
}

export interface PreviewOk {
  ok: true;
  grammar: string;
  /** How the grammar applies to the argv: `matched` when its [detect] claims the command. */
  detection: { matched: boolean; action?: string; dialect?: string };
  /** The summary as `mish` prints it (no colour). */
  summary: string;
  map: LineMap;
  /** Lines of the raw output (as `mish raw --lines` counts them). */
  rawLines: number;
}

export type PreviewResult = PreviewOk | { ok: false; errors: GrammarError[] };

/** Raw lines as `mish raw --lines` counts them: one per `\n`, plus an unterminated last line. */
export function countRawLines(raw: string): number {
  let n = 0;
  for (let i = raw.indexOf('\n'); i >= 0; i = raw.indexOf('\n', i + 1)) n++;
  return raw.length && !raw.endsWith('\n') ? n + 1 : n;
}

/**
 * The raw output as the raw pane shows it: one entry per raw line, ANSI removed, and of a line
 * redrawn with CR (a progress bar) only its last frame, as a terminal leaves it.
 */
export function rawDisplayLines(raw: string): string[] {
  const lines = raw.split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => {
    let t = stripAnsi(l);
    while (t.endsWith('\r')) t = t.slice(0, -1);
    const cr = t.lastIndexOf('\r');
    return cr >= 0 ? t.slice(cr + 1) : t;
  });
}

/** Compiles and links the edited grammar; errors as values with line and rule. */
export function compileEdited(input: Pick<PreviewInput, 'text' | 'file' | 'origin' | 'shared'>): LoadResult<Grammar> {
  const draft = compileGrammarSource(input.text, input.file, input.origin ?? 'project');
  if (!draft.ok) return draft;
  const cache = new Map<string, LoadResult<GrammarDraft>>();
  return linkGrammar(draft.value, (name) => {
    const text = input.shared?.[name];
    if (text === undefined) return undefined;
    let hit = cache.get(name);
    if (!hit) cache.set(name, (hit = compileGrammarSource(text, `${name}.toml`, 'builtin')));
    return hit;
  });
}

/** The detection `mish` would make for argv if this were the only grammar; forced when argv is not its tool. */
export function detectWith(grammar: Grammar, argv: readonly string[]): { detection: Detection; matched: boolean } {
  const index = buildCommandIndex([grammar]);
  const d = detectTool(argv, { lookupCommand: (b) => index.get(b) });
  if (d && d.grammar === grammar) return { detection: d, matched: true };
  return { detection: { grammar, argv: [...argv], via: [] }, matched: false };
}

export function runPreview(input: PreviewInput, rawLines: number = countRawLines(input.raw)): PreviewResult {
  const compiled = compileEdited(input);
  if (!compiled.ok) return { ok: false, errors: compiled.errors };
  const { detection, matched } = detectWith(compiled.value, input.argv);
  const trace = new LineTrace();
  let t = 0;
  const sq = new Squasher({ detection, now: () => t, onClassified: trace.observe });
  sq.write(input.raw);
  t = input.durationMs;
  const result = sq.finish({ exitCode: input.exitCode });
  return {
    ok: true,
    grammar: compiled.value.name,
    detection: { matched, action: detection.action, dialect: detection.dialect },
    summary: renderSummary(result, { color: false }),
    map: mapLines(result, trace.lines, rawLines),
    rawLines,
  };
}

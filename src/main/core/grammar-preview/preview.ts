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
  /** The recorded output, decoded as text (ANSI kept): one string, or the pieces of decodePieces. */
  raw: string | readonly string[];
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
export function countRawLines(raw: string | readonly string[]): number {
  const pieces = typeof raw === 'string' ? [raw] : raw;
  let n = 0;
  for (const p of pieces) for (let i = p.indexOf('\n'); i >= 0; i = p.indexOf('\n', i + 1)) n++;
  const last = pieces.findLast((p) => p.length > 0);
  return last !== undefined && !last.endsWith('\n') ? n + 1 : n;
}

/** ASCII bytes turned into a string per call (String.fromCharCode's argument count is bounded). */
const FROM_CHAR_CODE_CHUNK = 8192;

/**
 * Decodes recorded bytes once into pieces cut at line ends: runs of ASCII lines as one-byte
 * (Latin-1) strings, lines with other bytes through TextDecoder. The pieces join to exactly
 * TextDecoder's text; the squasher runs faster on one-byte strings (utf8-decoder.ts says why),
 * and a whole output decoded at once is a two-byte string as soon as one byte is not ASCII.
 */
export function decodePieces(bytes: Uint8Array): string[] {
  const out: string[] = [];
  const decoder = new TextDecoder();
  let start = 0;
  // A BOM at the very start is dropped by TextDecoder: let it decode the first line.
  if (bytes[0] === 0xef) {
    const nl = bytes.indexOf(10);
    start = nl < 0 ? bytes.length : nl + 1;
    out.push(decoder.decode(bytes.subarray(0, start)));
  }
  let asciiFrom = start;
  let i = start;
  const flushAscii = (to: number) => {
    const parts: string[] = [];
    for (let k = asciiFrom; k < to; k += FROM_CHAR_CODE_CHUNK) parts.push(String.fromCharCode.apply(null, bytes.subarray(k, Math.min(to, k + FROM_CHAR_CODE_CHUNK)) as unknown as number[]));
    if (parts.length) out.push(parts.join(''));
  };
  while (i < bytes.length) {
    let nl = bytes.indexOf(10, i);
    if (nl < 0) nl = bytes.length - 1;
    let ascii = true;
    for (let k = i; k <= nl; k++) {
      if (bytes[k] > 0x7f) {
        ascii = false;
        break;
      }
    }
    if (!ascii) {
      flushAscii(i);
      // Neighbouring non-ASCII lines decode together.
      let end = nl + 1;
      for (;;) {
        const next = bytes.indexOf(10, end);
        const stop = next < 0 ? bytes.length : next + 1;
        let other = false;
        for (let k = end; k < stop; k++) if (bytes[k] > 0x7f) other = true;
        if (!other || end >= bytes.length) break;
        end = stop;
      }
      out.push(decoder.decode(bytes.subarray(i, end)));
      asciiFrom = end;
      i = end;
      continue;
    }
    i = nl + 1;
  }
  flushAscii(bytes.length);
  return out;
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
export function compileEdited(input: Pick<PreviewInput, 'text' | 'file' | 'origin' | 'shared'>, includes: IncludeCache = new Map()): LoadResult<Grammar> {
  const draft = compileGrammarSource(input.text, input.file, input.origin ?? 'project');
  if (!draft.ok) return draft;
  return linkGrammar(draft.value, (name) => {
    const text = input.shared?.[name];
    if (text === undefined) return undefined;
    const hit = includes.get(name);
    if (hit && hit.text === text) return hit.result;
    const result = compileGrammarSource(text, `${name}.toml`, 'builtin');
    includes.set(name, { text, result });
    return result;
  });
}

/** Compiled includes kept between previews (they do not change while a grammar is edited). */
export type IncludeCache = Map<string, { text: string; result: LoadResult<GrammarDraft> }>;

/** The detection `mish` would make for argv if this were the only grammar; forced when argv is not its tool. */
export function detectWith(grammar: Grammar, argv: readonly string[]): { detection: Detection; matched: boolean } {
  const index = buildCommandIndex([grammar]);
  const d = detectTool(argv, { lookupCommand: (b) => index.get(b) });
  if (d && d.grammar === grammar) return { detection: d, matched: true };
  return { detection: { grammar, argv: [...argv], via: [] }, matched: false };
}

/**
 * The rules `mish` applies to every command after the tool's (squasher/always-rules.ts:
 * `_shared/log-levels`), compiled from the shared texts the caller handed in — never read from
 * disk here (the preview runs in a Web Worker). Without its text the preview uses none.
 */
const ALWAYS_INCLUDE = '_shared/log-levels';

function alwaysGrammar(input: PreviewInput, includes?: IncludeCache): Grammar | null {
  const text = input.shared?.[ALWAYS_INCLUDE];
  if (text === undefined) return null;
  const r = compileEdited({ text, file: `${ALWAYS_INCLUDE}.toml`, origin: 'builtin', shared: input.shared }, includes);
  return r.ok ? r.value : null;
}

export function runPreview(input: PreviewInput, rawLines: number = countRawLines(input.raw), includes?: IncludeCache): PreviewResult {
  const compiled = compileEdited(input, includes);
  if (!compiled.ok) return { ok: false, errors: compiled.errors };
  const { detection, matched } = detectWith(compiled.value, input.argv);
  const trace = new LineTrace();
  let t = 0;
  const sq = new Squasher({ detection, always: alwaysGrammar(input, includes), now: () => t, onClassified: trace.observe });
  if (typeof input.raw === 'string') sq.write(input.raw);
  else for (const piece of input.raw) sq.write(piece);
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

/**
 * The grammar editor's preview worker: runs the real grammar compiler and squasher
 * (core/grammar-preview, node-free) off the UI thread. Holds the chosen raw output; each `run`
 * answers with the summary and the raw-line marks, or the loader's problems.
 *
 * Stale runs are the view's concern (it keeps one run in flight and drops answers for older
 * generations); a run here is synchronous and bounded by the squasher's speed (~100 MB/s).
 */
import { countRawLines, decodePieces, rawDisplayLines, runPreview, type IncludeCache } from '../../../main/core/grammar-preview/preview.js';
import type { FromWorker, ToWorker } from './protocol.js';

/** The worker global, typed without the WebWorker lib (this file is checked with tsconfig.json). */
const ctx = globalThis as unknown as {
  onmessage: ((e: { data: ToWorker }) => void) | null;
  postMessage(message: FromWorker, transfer?: ArrayBuffer[]): void;
};

let raw: { id: number; pieces: string[]; lines: number; argv: string[]; exitCode: number; durationMs: number } | undefined;
const includes: IncludeCache = new Map();

ctx.onmessage = (e) => {
  const m = e.data;
  if (m.type === 'raw') {
    // Decoded once per raw output, in pieces the squasher runs fastest on.
    const pieces = decodePieces(new Uint8Array(m.bytes));
    raw = { id: m.rawId, pieces, lines: countRawLines(pieces), argv: m.argv, exitCode: m.exitCode, durationMs: m.durationMs };
    ctx.postMessage({ type: 'raw-ready', rawId: m.rawId, display: rawDisplayLines(pieces.join('')).join('\n'), rawLines: raw.lines });
    return;
  }
  if (!raw || raw.id !== m.rawId) return; // a run for a raw output no longer chosen
  const t0 = performance.now();
  try {
    const r = runPreview({ text: m.text, file: m.file, origin: m.origin, shared: m.shared, raw: raw.pieces, argv: raw.argv, exitCode: raw.exitCode, durationMs: raw.durationMs }, raw.lines, includes);
    const computeMs = performance.now() - t0;
    if (!r.ok) {
      ctx.postMessage({ type: 'result', gen: m.gen, rawId: m.rawId, computeMs, ok: false, problems: r.errors.map((x) => ({ line: x.line, rule: x.rule, message: x.message })) });
      return;
    }
    const { status, target, ruleOf, rules } = r.map;
    ctx.postMessage(
      { type: 'result', gen: m.gen, rawId: m.rawId, computeMs, ok: true, grammar: r.grammar, detection: r.detection, summary: r.summary, status, target, ruleOf, rules },
      [status.buffer as ArrayBuffer, target.buffer as ArrayBuffer, ruleOf.buffer as ArrayBuffer],
    );
  } catch (err) {
    ctx.postMessage({ type: 'failed', gen: m.gen, message: (err as Error).message ?? String(err) });
  }
};

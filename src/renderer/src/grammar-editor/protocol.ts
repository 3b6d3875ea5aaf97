/**
 * Messages between the grammar editor view and its preview worker (preview.worker.ts). Plain
 * data only; typed arrays travel as transferables.
 */

export type GrammarOriginName = 'builtin' | 'user' | 'project';

/** View → worker. */
export type ToWorker =
  | {
      type: 'raw';
      rawId: number;
      /** The recorded bytes (transferred). */
      bytes: ArrayBuffer;
      argv: string[];
      exitCode: number;
      durationMs: number;
    }
  | {
      type: 'run';
      gen: number;
      rawId: number;
      text: string;
      file: string;
      origin: GrammarOriginName;
      shared: Record<string, string>;
    };

export interface PreviewProblem {
  line?: number;
  rule?: string;
  message: string;
}

/** Worker → view. */
export type FromWorker =
  | { type: 'raw-ready'; rawId: number; display: string; rawLines: number }
  | {
      type: 'result';
      gen: number;
      rawId: number;
      /** Time the worker spent on this run (compile + squash + map), ms. */
      computeMs: number;
      ok: true;
      grammar: string;
      detection: { matched: boolean; action?: string; dialect?: string };
      summary: string;
      status: Uint8Array;
      target: Int32Array;
      ruleOf: Uint16Array;
      rules: string[];
    }
  | { type: 'result'; gen: number; rawId: number; computeMs: number; ok: false; problems: PreviewProblem[] }
  | { type: 'failed'; gen: number; message: string };

/** LineStatus codes of core/grammar-preview/line-map.ts (kept in sync by the worker test). */
export const FATE = { dropped: 0, kept: 1, folded: 2 } as const;

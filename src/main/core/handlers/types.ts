/**
 * What every handler gets and gives back. Handlers run the command through the Executor
 * (CLI: fresh PTY; MCP: a persistent session) and return a Report; format/ turns a Report
 * into human, json or context text.
 */
import type { ExecControl, Executor } from '../exec/types.js';
import type { SpoolStore } from '../spool/spool.js';
import type { SquashEvent, SquashResult } from '../squasher/types.js';
import type { DetectFn } from '../router/categorize.js';

export type Mode = 'cli' | 'mcp';

/** A host-owned terminal (CLI): interactive commands get it whole. */
export interface TerminalPort {
  /** Forward stdin (raw), size changes and signals to the running command; returns a disposer. */
  attach(control: ExecControl): () => void;
  /** Write the command's bytes straight to the screen. */
  write(bytes: Uint8Array): void;
  size(): { cols: number; rows: number };
}

export interface HandlerContext {
  mode: Mode;
  executor: Executor;
  cwd: string;
  env: Record<string, string>;
  /** Grammar detection: `argv => detectTool(argv, registry)`. */
  detect?: DetectFn;
  spool?: SpoolStore;
  signal?: AbortSignal;
  terminal?: TerminalPort;
  /** Forward the host's stdin to non-interactive commands too (answering a prompt). */
  onStart?: (control: ExecControl) => void;
  /** Live squasher events (hazards as they happen). */
  onEvent?: (event: SquashEvent) => void;
  cols?: number;
  rows?: number;
}

export interface PassthroughCut {
  /** 1-based line numbers of the first and last omitted line. */
  fromLine: number;
  toLine: number;
  omittedLines: number;
  omittedBytes: number;
  /** Omitted lines that mention an error word: the first numbers (1-based) and how many. */
  mentions?: number[];
  mentionCount?: number;
}

/** The middle of a successful file operation's long output, left out (narrate.ts). */
export interface NarrateCut {
  /** 1-based line numbers of the first and last omitted line. */
  fromLine: number;
  toLine: number;
  omittedLines: number;
  /** Lines of the whole output. */
  totalLines: number;
}

export type Report =
  | { category: 'condense'; squash: SquashResult }
  | {
      category: 'passthrough';
      output: string;
      lines: number;
      bytes: number;
      cut?: PassthroughCut;
      /** Not text (an executable, an archive): `output` is shown as a note, not pasted. */
      binary?: true;
      /**
       * `output` is the whole listing, compacted losslessly: `paths` in the compact path notation
       * (compact/path-list.ts), or `matches` (`grep -rn`) grouped by file (list-view.ts); `entries` lines.
       */
      list?: { entries: number; kind: 'paths' | 'matches' };
    }
  | {
      category: 'narrate';
      effects: string[];
      /** The operation's own output; when cut, CUT_PLACEHOLDER stands where `cut` says. */
      output: string;
      cut?: NarrateCut;
    }
  | { category: 'structured'; kind: string; lines: string[]; output?: string }
  | { category: 'interactive'; summary: string };

/** Common facts of a finished run. */
export interface RunFacts {
  exitCode: number;
  signal?: number;
  durationMs: number;
  spoolRef?: string;
  /** Hints added on failure (nearest path, permissions, similar commands). */
  enrichment: string[];
}

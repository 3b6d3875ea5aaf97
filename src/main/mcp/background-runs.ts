/**
 * sh_run calls whose reply went out before the command finished (timeout passed, or the command
 * is waiting for input). The command keeps running in its session; when it ends, its condensed
 * router reply is kept here so `sh_interact {id, action: status}` can hand it over — nothing
 * the agent asked for is lost.
 */
import type { RouteCommandResult } from './tool-kit.js';

/** Finished results kept for late pick-up; older ones are dropped (their raw output stays in the spool). */
const MAX_FINISHED_RUNS = 64;

export interface BackgroundRun {
  id: string;
  command: string;
  session: string;
  /** Resolves when the command ends. */
  done: Promise<void>;
  result?: RouteCommandResult;
  error?: string;
  /** True once an agent has been given the final result. */
  delivered: boolean;
}

export class BackgroundRuns {
  private readonly runs = new Map<string, BackgroundRun>();

  /** `onFinished`: told when a run ends, with its result or error (the audit log records it). */
  constructor(private readonly onFinished?: (run: BackgroundRun) => void) {}

  /** Registers a run still in flight. */
  add(id: string, command: string, session: string, pending: Promise<RouteCommandResult>): BackgroundRun {
    const run: BackgroundRun = { id, command, session, delivered: false, done: Promise.resolve() };
    run.done = pending.then(
      (r) => {
        run.result = r;
        this.trim();
        this.onFinished?.(run);
      },
      (e: unknown) => {
        run.error = e instanceof Error ? e.message : String(e);
        this.trim();
        this.onFinished?.(run);
      },
    );
    this.runs.set(id, run);
    return run;
  }

  get(id: string): BackgroundRun | undefined {
    return this.runs.get(id);
  }

  private trim(): void {
    const finished = [...this.runs.values()].filter((r) => r.result || r.error);
    for (const r of finished.slice(0, Math.max(0, finished.length - MAX_FINISHED_RUNS))) this.runs.delete(r.id);
  }
}

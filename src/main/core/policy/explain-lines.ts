/**
 * Many command lines judged in one process (`mish policy explain --stdin`): auditing a whole
 * shell history at once. One JSON object per line, in order; a line's decision is the same as
 * `decide()` gives it alone (no state carries from one line to the next).
 */
import { decide, type DecideContext, type Policy } from './decide.js';

export interface ExplainedLine {
  /** 1-based line number in the input. */
  n: number;
  line: string;
  decision: string;
  rule: string;
  reason: string;
  commands: string[][];
}

/** Input lines worth judging: blank lines and `#` comments are skipped (their numbers still count). */
export function* explainLines(text: string, policy: Policy, ctx: DecideContext): Generator<ExplainedLine & { ms: number }> {
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    const t = performance.now();
    const d = decide(line, policy, ctx);
    const ms = performance.now() - t;
    yield { n: i + 1, line, decision: d.decision, rule: d.rule, reason: d.reason, commands: d.commands, ms };
  }
}

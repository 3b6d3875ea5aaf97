/**
 * A whole command line → one treatment. The policy for compound lines (documented in
 * src/main/core/router/README.md):
 *
 *  1. The policy engine (src/main/core/policy) decides on every command anywhere in the line;
 *     ask / operator / forbid → dangerous; the treatment after approval is computed by the
 *     rules below.
 *  2. Any top-level interactive segment → interactive (the terminal is handed over).
 *  3. Any top-level condense segment → condense, with each segment's grammar switched in as
 *     it starts (`make && make test`, `cd x && npm ci`).
 *  4. Every top-level segment narrates → narrate (one effect line per segment).
 *  5. A single structured command whose output reaches the terminal → structured; a structured
 *     command in a pipeline or redirected (`git status | grep M`) is plain content → passthrough.
 *  6. Otherwise (content commands, pipelines such as `cat a | grep b`, mixes with file
 *     operations) → passthrough. A content command whose output goes to a file (`cat a > b`)
 *     is a file operation → narrate.
 *
 * Commands inside `$(…)` only count for danger: their output feeds the outer command.
 */
import type { Category } from '../grammar/types.js';
import { decide, type PolicyDecision } from '../policy/index.js';
import { categorize, type DangerMatch, type DetectFn, type RoutedCategory, type Segment } from './categorize.js';
import type { RouterMeta } from './meta.js';
import { writesStdoutToFile, type ParsedLine } from './parse.js';

export interface Plan {
  category: Category;
  /** The treatment once a dangerous line is approved (equal to `category` otherwise). */
  treatment: RoutedCategory;
  /** Top-level segments in execution order (what per-segment grammar switching follows). */
  segments: Segment[];
  dangers: DangerMatch[];
  /** The policy decision on the whole line (rule and reason included). */
  policy: PolicyDecision;
  /** One line on why, for `--explain` and tests. */
  reason: string;
}

export interface PlanOptions {
  /**
   * The host's own stdin is input for the line (CLI: `echo 'print(1)' | mish python3`, `mish
   * psql < q.sql`): a command that reads it (the first of its pipeline, no `<` of its own)
   * counts as having its stdin redirected, so a REPL rule with `unless_stdin` does not apply.
   */
  stdinFed?: boolean;
  /** Where the line runs (relative path targets are judged there) and in which session. */
  cwd?: string;
  session?: string;
  /** The CDPATH of the shell the line runs in (DecideContext.cdpath). */
  cdpath?: string;
}

export function planLine(line: ParsedLine, meta: RouterMeta, detect?: DetectFn, options: PlanOptions = {}): Plan {
  const top = line.commands.filter((c) => c.context === 'top');
  const segments = top.map((c) => categorize(options.stdinFed && c.pipeline.position === 0 ? { ...c, stdinRedirected: true } : c, meta, detect));
  // `line` is parseCommandLine's: the policy need not parse it again for its second opinion.
  const policy = decide(line.source, meta.policy, { cwd: options.cwd, session: options.session, ...(options.cdpath ? { cdpath: options.cdpath } : {}), routerParsed: true });
  const { treatment, reason } = treatmentOf(segments, line);
  if (policy.decision === 'allow' || policy.decision === 'confirm') return { category: treatment, treatment, segments, dangers: [], policy, reason };
  const dangers: DangerMatch[] = policy.matches.map((m) => ({ id: m.rule, description: m.reason, text: m.text, pos: Math.max(0, line.source.indexOf(m.text)), decision: m.decision === 'allow' ? undefined : m.decision }));
  return { category: 'dangerous', treatment, segments, dangers, policy, reason: `${policy.decision}: ${dangers.map((d) => d.id).join(', ')}` };
}

function fileRedirected(s: Segment): boolean {
  return s.command.redirects.some(writesStdoutToFile);
}

function treatmentOf(segments: Segment[], line: ParsedLine): { treatment: RoutedCategory; reason: string } {
  const real = segments.filter((s) => s.name !== '');
  if (real.length === 0) return { treatment: 'passthrough', reason: 'only assignments' };
  const interactive = real.find((s) => s.category === 'interactive');
  if (interactive) return { treatment: 'interactive', reason: `${interactive.name} is interactive` };
  const condense = real.find((s) => s.category === 'condense');
  if (condense) return { treatment: 'condense', reason: real.length > 1 ? `${condense.name} condenses; grammars switch per segment` : `${condense.name}: ${condense.categorySource}` };
  if (real.every((s) => s.category === 'narrate' || (s.command.pipeline.length === 1 && fileRedirected(s))))
    return { treatment: 'narrate', reason: real.length > 1 ? 'every segment is a file operation' : `${real[0].name}: file operation` };
  if (!line.compound && real.length === 1 && real[0].category === 'structured' && !real[0].command.stdoutRedirected) return { treatment: 'structured', reason: `${real[0].name} ${real[0].subcommand ?? ''}`.trim() };
  return { treatment: 'passthrough', reason: real.length > 1 ? 'content commands' : `${real[0].name}: ${real[0].categorySource}` };
}

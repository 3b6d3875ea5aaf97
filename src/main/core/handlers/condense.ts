/**
 * Condense: the squasher. For a compound line the grammar follows the running segment: the
 * executor reports each simple command as it starts and we switch to its grammar
 * (`make && make test`, `cd web && npm ci`). A segment with no grammar of its own (cd, echo)
 * keeps the current one.
 */
import type { Detection } from '../grammar/types.js';
import { parseCommandLine } from '../router/parse.js';
import type { Segment } from '../router/categorize.js';
import { Squasher } from '../squasher/squasher.js';
import { capture } from './run.js';
import type { HandlerContext, Report, RunFacts } from './types.js';

/** How often the squasher's timers run (partial-line prompts, silence flush, progress). */
const TICK_MS = 100;

export async function runCondense(ctx: HandlerContext, command: string, segments: Segment[]): Promise<{ report: Report; facts: Omit<RunFacts, 'enrichment'>; grammars: string[] }> {
  const first = segments.find((s) => s.detection)?.detection;
  const used: string[] = first ? [first.grammar.name] : [];
  const squasher = new Squasher({ detection: first, onEvent: ctx.onEvent });
  let current: Detection | undefined = first;
  const onSegment = (text: string) => {
    const p = parseCommandLine(text);
    if (!p.ok || !ctx.detect) return;
    const argv = p.line.commands.find((c) => c.context === 'top')?.argv;
    const d = argv && argv.length ? ctx.detect(argv) : undefined;
    if (!d || (current && d.grammar.name === current.grammar.name && d.action === current.action)) return;
    current = d;
    squasher.setDetection(d);
    if (used[used.length - 1] !== d.grammar.name) used.push(d.grammar.name);
  };
  const timer = setInterval(() => squasher.tick(), TICK_MS);
  try {
    const c = await capture(ctx, command, { keep: false, onData: (b) => squasher.write(b), onSegment: segments.length > 1 ? onSegment : undefined });
    const squash = squasher.finish({ exitCode: c.exitCode, signal: c.signal });
    return { report: { category: 'condense', squash }, facts: c, grammars: used };
  } finally {
    clearInterval(timer);
  }
}

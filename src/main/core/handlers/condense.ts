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
/**
 * Switching to the alternate screen (`ESC[?1049h`, `?1047h`, `?47h`) is what full-screen
 * programs do first (editors, pagers, TUIs such as k9s or ncdu): on a terminal the CLI hands
 * the screen over, as for the known interactive commands, instead of condensing a screen
 * painting nobody could read.
 */
const ALT_SCREEN = /\x1b\[\?(?:1049|1047|47)h/;
/** Bytes kept from before the switch so the program's first paint reaches the screen whole. */
const HANDOVER_REPLAY_BYTES = 256 * 1024;
/** An escape sequence split across two chunks is found by looking this far back. */
const SPLIT_SEQUENCE_BYTES = 8;

export async function runCondense(ctx: HandlerContext, command: string, segments: Segment[]): Promise<{ report: Report; facts: Omit<RunFacts, 'enrichment'>; grammars: string[] }> {
  const first = segments.find((s) => s.detection)?.detection;
  const used: string[] = first ? [first.grammar.name] : [];
  const squasher = new Squasher({ detection: first, onEvent: ctx.onEvent });
  let current: Detection | undefined = first;
  let running = segments.find((s) => s.name !== '')?.name ?? 'command';
  const onSegment = (text: string) => {
    const p = parseCommandLine(text);
    if (!p.ok) return;
    const argv = p.line.commands.find((c) => c.context === 'top')?.argv;
    if (argv?.length) running = argv[0].slice(argv[0].lastIndexOf('/') + 1);
    const d = argv && argv.length && ctx.detect ? ctx.detect(argv) : undefined;
    if (!d || (current && d.grammar.name === current.grammar.name && d.action === current.action)) return;
    current = d;
    squasher.setDetection(d);
    if (used[used.length - 1] !== d.grammar.name) used.push(d.grammar.name);
  };
  const term = ctx.terminal;
  let handedOver = false;
  let before: Buffer[] = [];
  let beforeBytes = 0;
  let tail = Buffer.alloc(0);
  const onData = (b: Uint8Array) => {
    if (handedOver) return term!.write(b);
    if (term) {
      const chunk = Buffer.from(b);
      const probe = Buffer.concat([tail, chunk]);
      if (ALT_SCREEN.test(probe.toString('latin1'))) {
        handedOver = true;
        for (const x of before) term.write(x);
        term.write(chunk);
        before = [];
        return;
      }
      tail = probe.subarray(Math.max(0, probe.length - SPLIT_SEQUENCE_BYTES));
      if (beforeBytes < HANDOVER_REPLAY_BYTES) {
        before.push(chunk);
        beforeBytes += chunk.length;
      }
    }
    squasher.write(b);
  };
  const timer = setInterval(() => squasher.tick(), TICK_MS);
  try {
    const c = await capture(ctx, command, { keep: false, onData, onSegment: segments.length > 1 || term ? onSegment : undefined });
    const squash = squasher.finish({ exitCode: c.exitCode, signal: c.signal });
    if (handedOver) return { report: { category: 'interactive', summary: `→ ${running}: full-screen session ${(c.durationMs / 1000).toFixed(1)}s, exit ${c.exitCode}` }, facts: c, grammars: used };
    return { report: { category: 'condense', squash }, facts: c, grammars: used };
  } finally {
    clearInterval(timer);
  }
}

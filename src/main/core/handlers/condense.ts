/**
 * Condense: the squasher. For a compound line the grammar follows the running segment: the
 * executor reports each simple command as it starts and we switch to its grammar
 * (`make && make test`, `cd web && npm ci`). A segment with no grammar of its own (cd, echo)
 * keeps the current one.
 */
import type { Detection } from '../grammar/types.js';
import { parseCommandLine } from '../router/parse.js';
import type { Segment } from '../router/categorize.js';
import { OffloadedSquasher } from '../squash-worker/offloaded-squasher.js';
import { squashWorkers } from '../squash-worker/pool.js';
import type { ExecControl } from '../exec/types.js';
import type { SquashEvent } from '../squasher/types.js';
import { InputPromptWatch } from './input-prompt-watch.js';
import { RawModeWatch } from './raw-mode-watch.js';
import { capture } from './run.js';
import type { HandlerContext, Report, RunFacts } from './types.js';

/** How often the squasher's timers run (partial-line prompts, silence flush, progress). */
const TICK_MS = 100;
/**
 * Switching to the alternate screen (`ESC[?1049h`, `?1047h`, `?47h`) is what full-screen
 * programs do first (editors, pagers, TUIs such as k9s or ncdu): on a terminal the CLI hands
 * the screen over, as for the known interactive commands, instead of condensing a screen
 * painting nobody could read. Programs that take the keyboard but not the screen (menus,
 * `read -n1`, a REPL started by a script) are found by their terminal mode: raw-mode-watch.ts.
 */
const ALT_SCREEN = /\x1b\[\?(?:1049|1047|47)h/;
/**
 * The newest output replayed at a handover, so the screen is what the program drew: a menu or
 * prompt and the lines above it, and the mode switches a TUI sends just before its alternate
 * screen. Several screens even with colour codes; older output was for the condensed summary
 * and would only flood the scrollback.
 */
const HANDOVER_REPLAY_BYTES = 64 * 1024;
/** An escape sequence split across two chunks is found by looking this far back. */
const SPLIT_SEQUENCE_BYTES = 8;

type Handover = 'full-screen' | 'interactive';

export async function runCondense(ctx: HandlerContext, command: string, segments: Segment[]): Promise<{ report: Report; facts: Omit<RunFacts, 'enrichment'>; grammars: string[] }> {
  const first = segments.find((s) => s.detection)?.detection;
  const used: string[] = first ? [first.grammar.name] : [];
  // On a terminal, a question the squasher does not recognise is still shown (input-prompt-watch.ts).
  const prompts = ctx.terminal && ctx.onEvent ? new InputPromptWatch(() => started) : undefined;
  const onEvent = prompts
    ? (e: SquashEvent) => {
        if (e.type === 'prompt') prompts.reportedElsewhere(e.text);
        ctx.onEvent!(e);
      }
    : ctx.onEvent;
  // Big outputs are squashed in a worker thread, so a busy command never holds up the event loop (other sessions, the protocol).
  const squasher = new OffloadedSquasher({
    detection: first,
    onEvent,
    pool: squashWorkers(),
    // The worker is behind: stop reading the command's terminal until it catches up (the kernel then holds the writer).
    onPressure: (paused) => (paused ? started?.pause?.() : started?.resume?.()),
  });
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
  let handedOver: Handover | undefined;
  let handedOverName = running;
  const replay = new ReplayTail(HANDOVER_REPLAY_BYTES);
  let tail = Buffer.alloc(0);
  let started: ExecControl | undefined;
  const handOver = (kind: Handover) => {
    handedOver = kind;
    handedOverName = running;
    rawMode?.stop();
    for (const x of replay.take()) term!.write(x);
  };
  const rawMode = term ? new RawModeWatch(() => started, () => handOver('interactive')) : undefined;
  const onData = (b: Uint8Array) => {
    if (handedOver) return term!.write(b);
    if (term) {
      rawMode!.data();
      prompts?.data(b);
      const chunk = Buffer.from(b);
      replay.push(chunk);
      const probe = Buffer.concat([tail, chunk]);
      if (ALT_SCREEN.test(probe.toString('latin1'))) return handOver('full-screen');
      tail = probe.subarray(Math.max(0, probe.length - SPLIT_SEQUENCE_BYTES));
    }
    squasher.write(b);
  };
  const onStart = (control: ExecControl) => {
    started = control;
    ctx.onStart?.(control);
  };
  const timer = setInterval(() => {
    if (handedOver) return; // the squasher no longer speaks: no prompt or progress lines on the handed-over screen
    rawMode?.tick();
    // While the probe runs, a quiet partial line is not yet reported as a condensed `? prompt`.
    if (rawMode?.probing) return;
    squasher.tick();
    const question = prompts?.tick();
    if (question) ctx.onEvent!({ type: 'prompt', text: question });
  }, TICK_MS);
  try {
    const c = await capture({ ...ctx, onStart }, command, { keep: false, onData, onSegment: segments.length > 1 || term ? onSegment : undefined });
    const squash = await squasher.finish({ exitCode: c.exitCode, signal: c.signal });
    if (handedOver) return { report: { category: 'interactive', summary: `→ ${handedOverName}: ${handedOver} session ${(c.durationMs / 1000).toFixed(1)}s, exit ${c.exitCode}` }, facts: c, grammars: used };
    return { report: { category: 'condense', squash }, facts: c, grammars: used };
  } finally {
    clearInterval(timer);
    squasher.dispose();
    rawMode?.stop();
  }
}

/** The newest `limit` bytes of a stream, from a line start where one is near (a replay begins with a whole line). */
class ReplayTail {
  private chunks: Buffer[] = [];
  private bytes = 0;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    while (this.chunks.length > 1 && this.bytes - this.chunks[0].length >= this.limit) this.bytes -= this.chunks.shift()!.length;
  }

  take(): Buffer[] {
    const all = Buffer.concat(this.chunks);
    this.chunks = [];
    this.bytes = 0;
    if (all.length <= this.limit) return [all];
    const cut = all.subarray(all.length - this.limit);
    const nl = cut.indexOf(0x0a);
    return [nl >= 0 ? cut.subarray(nl + 1) : cut];
  }
}

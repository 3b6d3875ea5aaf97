/**
 * The squasher pipeline: bytes → streaming UTF-8 → VT strip → line buffer → classifier →
 * emit buffer. Synchronous and clock-injected, so it runs the same on recorded bytes (tests,
 * benchmarks) and on a live PTY (the caller feeds chunks and calls `tick()` on a timer).
 */
import type { Detection, Grammar } from '../grammar/types.js';
import { builtinAlwaysGrammar } from './always-rules.js';
import type { PtyExit } from '../pty/types.js';
import { classifyLine, hazardRule, inParagraph, ruleSetFor, type RuleSet } from './classifier.js';
import { EmitBuffer } from './emit-buffer.js';
import { PrettyJson } from './pretty-json.js';
import { LineBuffer } from './line-buffer.js';
import type { Classification, Line, SquashEvent, SquashResult } from './types.js';
import { PROMPT_SHAPE } from './universal-patterns.js';
import { Utf8Decoder, utf8FromLatin1 } from './utf8-decoder.js';
import { VtStripper } from './vt-stripper.js';

/** Seed: an unterminated line after this much silence is probably a prompt. */
export const PARTIAL_LINE_MS = 500;
/** Seed: flush pending state after this much silence (the hazard context is complete enough). */
export const SILENCE_FLUSH_MS = 2000;
/** Seed: keep a consumer updated on long runs. */
export const PROGRESS_INTERVAL_MS = 5000;

export interface SquasherOptions {
  detection?: Detection;
  /** Clock in ms (injected for tests and recorded replays). */
  now?: () => number;
  onEvent?: (event: SquashEvent) => void;
  /**
   * Rules applied to every command after the detected tool's (default: the built-in
   * `_shared/log-levels` grammar); null for none.
   */
  always?: Grammar | null;
  /**
   * Observer of every classified line, in order (the grammar editor maps raw lines to what the
   * summary shows from it). It sees, never changes, what the squasher does: a hazard line whose
   * lead a rule's `lead_noise` took is seen without it (the classification's `lead` says how
   * many characters went).
   */
  onClassified?: (line: Line, classification: Classification) => void;
}

/** A line of a pretty-printed JSON document: data, shown in place (pretty-json.ts). */
const DATA: Classification = { kind: 'unknown' };

export class Squasher {
  private readonly decoder = new Utf8Decoder();
  private readonly vt = new VtStripper();
  private readonly lines: LineBuffer;
  private readonly emit: EmitBuffer;
  private readonly now: () => number;
  private rules: RuleSet;
  private readonly always: Grammar | undefined;
  private readonly startedAt: number;
  private lastDataAt: number;
  private lastProgressAt: number;
  private lastProgressLines = 0;
  private silenceFlushed = false;
  private reportedPrompt = '';
  private bytes = 0;
  /** An open paragraph of boilerplate (a grammar strip rule with continue_pattern / end_pattern matched). */
  private paragraph: Extract<Classification, { kind: 'noise' }>['paragraph'];
  /** The pretty-printed JSON document the output is in, if any: its lines are never hoisted, grouped or stripped. */
  private readonly json = new PrettyJson();

  constructor(private readonly options: SquasherOptions = {}) {
    this.now = options.now ?? (() => performance.now());
    this.startedAt = this.lastDataAt = this.lastProgressAt = this.now();
    this.always = options.always === null ? undefined : (options.always ?? builtinAlwaysGrammar());
    this.rules = ruleSetFor(options.detection, this.always);
    this.emit = new EmitBuffer(options.onEvent);
    this.lines = new LineBuffer((line) => this.onLine(line));
  }

  /** Switch grammar at a segment boundary of a compound command (`make && make test`). */
  setDetection(detection: Detection | undefined): void {
    this.rules = ruleSetFor(detection, this.always);
    this.paragraph = undefined;
    this.json.reset();
  }

  write(chunk: Uint8Array | string): void {
    this.bytes += typeof chunk === 'string' ? utf8ByteLength(chunk) : chunk.byteLength;
    this.lastDataAt = this.now();
    this.silenceFlushed = false;
    if (typeof chunk === 'string') this.strip(chunk);
    else this.feed(this.decoder.write(chunk));
  }

  /** Strip and split the decoder's latest pieces of text. */
  private feed(pieces: number): void {
    const decoder = this.decoder;
    for (let i = 0; i < pieces; i++) {
      this.strip(decoder.pieces[i], decoder.utf8[i], decoder.bytes[i]);
      decoder.bytes[i] = undefined; // the caller's buffer, not to be held on to
    }
  }

  /** `utf8`: `text` is UTF-8 bytes read as Latin-1 (a decoder piece with `utf8` set); `bytes`: the bytes `text` reads, if given. */
  private strip(text: string, utf8 = false, bytes?: Uint8Array): void {
    const vt = this.vt;
    let out = vt.process(text, utf8, bytes);
    // A character inside an escape sequence: the stripper counts it as one, so it wants text.
    if (out === null) out = vt.process(utf8FromLatin1(text));
    this.lines.ingest(out, vt);
  }

  /** Run the timers: prompt detection on a quiet partial line, silence flush, progress. */
  tick(): void {
    const now = this.now();
    const quiet = now - this.lastDataAt;
    if (quiet >= PARTIAL_LINE_MS) {
      const partial = this.lines.peekPartial().trim();
      if (partial && partial !== this.reportedPrompt && this.isPrompt(partial)) {
        this.reportedPrompt = partial;
        this.emit.flushOpenHazard();
        this.options.onEvent?.({ type: 'prompt', text: partial });
      }
    }
    if (quiet >= SILENCE_FLUSH_MS && !this.silenceFlushed) {
      this.silenceFlushed = true;
      this.lines.settle();
      this.emit.flushOpenHazard();
    }
    if (now - this.lastProgressAt >= PROGRESS_INTERVAL_MS) {
      this.lastProgressAt = now;
      if (this.lines.lines !== this.lastProgressLines) {
        this.lastProgressLines = this.lines.lines;
        this.options.onEvent?.({ type: 'progress', lines: this.lines.lines, elapsedMs: now - this.startedAt, lastLine: this.emit.lastLine });
      }
    }
  }

  /** Elapsed time since the squasher started. */
  elapsedMs(): number {
    return this.now() - this.startedAt;
  }

  finish(exit: PtyExit): SquashResult {
    this.feed(this.decoder.end());
    const partial = this.lines.peekPartial().trim();
    const finalPrompt = partial && this.isPrompt(partial) ? partial : undefined;
    this.lines.end();
    return this.emit.finish({
      totalLines: this.lines.lines,
      bytes: this.bytes,
      exitCode: exit.exitCode,
      signal: exit.signal,
      durationMs: this.now() - this.startedAt,
      finalPrompt,
    });
  }

  private isPrompt(text: string): boolean {
    if (PROMPT_SHAPE.test(text)) return true;
    return this.rules.prompt.some((r) => r.re.test(text));
  }

  private onLine(line: Line): void {
    // A line of a JSON document (`"level": "error",` in an event) is data: a hazard rule's match
    // would lift it out of the document to the top of the summary (adversary pass 61, F48), a
    // noise rule's would group or drop a value. Shown in place instead, as the body's lines are
    // (and, with an error word, never folded away unnamed); its rules are not tried.
    const inDocument = this.json.step(line.text, line.kind === 'complete');
    let cls = inDocument ? DATA : classifyLine(line, this.rules);
    if (inDocument) this.paragraph = undefined;
    else if (this.paragraph) {
      const p = inParagraph(line.text, cls, this.paragraph);
      cls = p.cls;
      if (!p.open) this.paragraph = undefined;
    }
    if (cls.kind === 'noise' && cls.paragraph) this.paragraph = cls.paragraph;
    // A hazard drawn after a progress bar on its row (its rule's lead_noise): the hazard is the
    // rest of the line, from here on (the raw output keeps the row).
    if (cls.kind === 'hazard' && cls.lead) line = { kind: line.kind, text: line.text.slice(cls.lead), color: line.color, no: line.no };
    this.options.onClassified?.(line, cls);
    this.emit.accept(line, cls, cls.kind === 'hazard' && cls.rule !== 'universal' ? hazardRule(this.rules, cls.rule) : undefined);
  }
}

/** UTF-8 length of a string without node's Buffer (the squasher also runs in a browser worker). */
export function utf8ByteLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2; // a surrogate pair: 2 code units, 4 bytes
      i++;
    } else n += 2;
  }
  return n;
}

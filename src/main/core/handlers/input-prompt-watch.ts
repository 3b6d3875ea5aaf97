/**
 * On a terminal, a question of any shape is shown while the command waits for its answer.
 * The squasher reports prompts it recognises (`[Y/n]`, `Password:`, `Enter a value:`); others
 * (`Your name: `, npm init's `package name: (web) `, Django's `Username (leave blank to use
 * 'root'): `) would stay inside the condensed output, and the human would type blind into a
 * command that seems to hang. So when the output has been quiet for a while after a partial
 * line and a process of the command's foreground group is blocked reading the terminal
 * (the platform port: /proc/<pid>/syscall on Linux, the wait channel elsewhere), that line is reported as a prompt.
 *
 * Only in canonical mode: a raw-mode program is handed the terminal first (raw-mode-watch.ts,
 * at 200 ms). Once per quiet spell, looked at again with a doubling delay (a program may print
 * its question, then finish some work before it reads). The echo of what the human types
 * extends the reported line: that is not a new question.
 */
import { StringDecoder } from 'node:string_decoder';
import { probeForeground } from '../../platform/platform.js';
import type { RawModeTarget } from './raw-mode-watch.js';
import { stripEscapes } from './run.js';

/** Quiet before the first look: the squasher's own prompt timer (PARTIAL_LINE_MS), so a prompt it recognises is reported once, by it. */
const INPUT_PROMPT_QUIET_MS = 500;
/** Later looks in the same quiet spell, doubling up to this: a few /proc scans, not one per tick. */
const RECHECK_MAX_MS = 4000;
/** The partial line kept (a prompt is short; a progress bar without newlines is not kept whole). */
const PARTIAL_KEEP_CHARS = 1024;
/** Longest line reported as a question. */
const PROMPT_MAX_CHARS = 200;

export class InputPromptWatch {
  private readonly decoder = new StringDecoder('utf8');
  /** Output after the last newline (escapes not yet removed). */
  private partial = '';
  private lastDataAt = performance.now();
  private quietNeeded = INPUT_PROMPT_QUIET_MS;
  private reported: string | undefined;

  constructor(private readonly target: () => RawModeTarget | undefined) {}

  data(chunk: Uint8Array): void {
    const text = this.decoder.write(Buffer.from(chunk));
    const nl = text.lastIndexOf('\n');
    if (nl >= 0) {
      this.partial = text.slice(nl + 1);
      this.reported = undefined;
    } else this.partial += text;
    if (this.partial.length > PARTIAL_KEEP_CHARS) this.partial = this.partial.slice(-PARTIAL_KEEP_CHARS);
    this.lastDataAt = performance.now();
    this.quietNeeded = INPUT_PROMPT_QUIET_MS;
  }

  /** A prompt the squasher reported itself (its shape is known): not reported again. */
  reportedElsewhere(text: string): void {
    this.reported = text;
  }

  /** On the handler's timer: the question to show, if the command now waits for a line of input. */
  tick(): string | undefined {
    const quiet = performance.now() - this.lastDataAt;
    if (quiet < this.quietNeeded) return undefined;
    this.quietNeeded = Math.min(2 * quiet, quiet + RECHECK_MAX_MS);
    const line = this.line();
    if (!line || line.length > PROMPT_MAX_CHARS) return undefined;
    // What the human typed so far is echoed after the question.
    if (this.reported !== undefined && line.startsWith(this.reported)) return undefined;
    const t = this.target();
    if (!t || !probeForeground(t.pid, t.ptsName)?.ttyRead) return undefined;
    this.reported = line;
    return line;
  }

  /** The partial line as the terminal shows it: escapes removed, the last carriage-return overwrite. */
  private line(): string {
    const shown = stripEscapes(this.partial).split('\r').filter((s) => s.trim() !== '');
    return (shown[shown.length - 1] ?? '').trim();
  }
}

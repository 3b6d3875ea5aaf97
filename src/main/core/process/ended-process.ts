/**
 * A process the table no longer holds in memory, read back from its spool: an id an agent was
 * given (`c1`, `p3`) or a spool id (`mish raw ab12cd34`) stays readable for as long as the spool
 * exists on disk (issue 9: ids expired after 64 later commands, though the reply that gave them
 * said to read the output with them). It has ended: input, signals and kill do nothing.
 */
import { cutAtWord } from '../format/cut-at-word.js';
import type { SpoolReader } from '../spool/spool.js';
import type { ProcessControl, ProcessEntry, SpoolReadOptions, SpoolReadResult, WaitForResult } from '../session/types.js';
import { readSpoolLines } from './spool-output-store.js';

export class EndedProcess implements ProcessControl {
  readonly done: Promise<ProcessEntry>;

  constructor(
    private readonly last: ProcessEntry,
    private readonly reader: SpoolReader,
  ) {
    this.done = Promise.resolve(last);
  }

  get id(): string {
    return this.last.id;
  }

  entry(): ProcessEntry {
    return this.last;
  }

  send(): void {}
  sendKeys(): void {}
  signal(): void {}

  kill(): Promise<ProcessEntry> {
    return this.done;
  }

  waitFor(): Promise<WaitForResult> {
    return Promise.resolve({ status: 'exited', exitCode: this.last.exitCode ?? -1, ...(this.last.signal ? { signal: this.last.signal } : {}), elapsedMs: 0 });
  }

  read(options?: SpoolReadOptions): SpoolReadResult {
    return readSpoolLines(this.reader, options);
  }
}

/** Characters of an ended process's last line shown in its entry (cut between words: core/format/cut-at-word.ts). */
const ENDED_LAST_LINE_CHARS = 200;

/** The entry of a spool that no table entry describes (looked up by spool id): what its metadata knows. */
export function entryFromSpool(reader: SpoolReader): ProcessEntry {
  const m = reader.meta;
  const startedAt = Date.parse(m.startedAt);
  const endedAt = m.endedAt ? Date.parse(m.endedAt) : undefined;
  const lines = reader.readLines({ from: -1 });
  return {
    id: m.id,
    kind: 'command',
    command: m.command,
    cwd: m.cwd,
    pid: 0,
    pgid: 0,
    state: 'exited',
    ...(m.exitCode !== undefined ? { exitCode: m.exitCode } : {}),
    startedAt,
    ...(endedAt !== undefined ? { endedAt } : {}),
    elapsedMs: endedAt !== undefined ? endedAt - startedAt : 0,
    lastLine: cutAtWord(lines.lines[0]?.text ?? '', ENDED_LAST_LINE_CHARS),
    rawBytes: m.bytes,
    rawLines: lines.totalLines,
    spoolRef: `mish raw ${m.id}`,
  };
}

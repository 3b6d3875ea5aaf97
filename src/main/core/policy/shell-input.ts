/**
 * Text typed into a process that is a shell (sh_interact send/keys to `bash`, `ssh host`,
 * `docker exec -it c sh`, …) reaches a shell as surely as sh_run does, so each line it
 * completes gets the same policy decision before a byte is written. The guard keeps what was
 * typed since the last Enter per process (a line split over several sends is judged whole);
 * editing it cannot see (history, completion, cursor moves) makes the line unknown → ask.
 */
import { decide, type DecideContext, type Policy, type PolicyDecision } from './decide.js';
import { RANK } from './rules.js';
import { resolveLine } from './resolve.js';

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'ash', 'mksh', 'yash', 'fish', 'tcsh', 'csh', 'rbash']);
/** Keys that submit the line. */
const ENTER_KEYS = new Set(['Enter', 'C-m', 'C-j', 'KPEnter']);
/** Keys that discard the line being typed. */
const CLEAR_KEYS = new Set(['C-c', 'C-u', 'Ctrl+C', 'C-g']);

/** Whether a process started with this command line reads commands from its terminal. */
export function isShellCommand(command: string): boolean {
  let r;
  try {
    r = resolveLine(command);
  } catch {
    return false;
  }
  for (const c of r.commands) {
    const args = c.argv.slice(1);
    if (SHELLS.has(c.name) && c.readsProgramFromStdin && c.stdinText === undefined && c.pipedFrom.length === 0) return true;
    if (c.name === 'ssh' && !r.commands.some((o) => o.via.includes('ssh'))) return true;
    if ((c.name === 'su' || c.name === 'runuser') && !args.some((a) => a === '-c' || a === '--command' || /^-[a-z]*c$/.test(a))) return true;
    if ((c.name === 'sudo' || c.name === 'doas') && args.some((a) => a === '-s' || a === '-i' || a === '--shell' || a === '--login')) return true;
  }
  return false;
}

export interface TypedInput {
  text?: string;
  keys?: string[];
}

interface Scan {
  /** Lines the input submits, in order. */
  lines: Array<{ text: string; unknown: boolean }>;
  /** What stays typed after it. */
  rest: string;
  restUnknown: boolean;
}

function scan(buffer: string, bufferUnknown: boolean, input: TypedInput): Scan {
  const lines: Scan['lines'] = [];
  let cur = buffer;
  let unknown = bufferUnknown;
  const submit = () => {
    lines.push({ text: cur, unknown });
    cur = '';
    unknown = false;
  };
  const char = (ch: string) => {
    if (ch === '\n' || ch === '\r') submit();
    else if (ch === '\u0003' || ch === '\u0015' || ch === '\u0007') {
      cur = '';
      unknown = false;
    } else if (ch === '\u007f' || ch === '\b') cur = cur.slice(0, -1);
    else if (ch === '\t' || ch === '\u001b' || (ch < ' ' && ch !== '\t')) unknown = true;
    else cur += ch;
  };
  if (input.text !== undefined) for (const ch of input.text) char(ch);
  for (const k of input.keys ?? []) {
    if (ENTER_KEYS.has(k)) submit();
    else if (CLEAR_KEYS.has(k)) {
      cur = '';
      unknown = false;
    } else if (k === 'Backspace') cur = cur.slice(0, -1);
    else if (k === 'Space') cur += ' ';
    else if ([...k].length === 1) cur += k;
    else unknown = true; // Up, Tab, C-r, Left, …: the line is no longer what we saw typed
  }
  return { lines, rest: cur, restUnknown: unknown };
}

/** One process's typed-but-not-submitted text, and the decision on what the next input submits. */
export class ShellInputGuard {
  private buffer = '';
  private unknown = false;

  constructor(
    private readonly policy: () => Policy,
    private readonly ctx: () => DecideContext,
  ) {}

  /**
   * The strictest decision over the lines this input submits (allow when it submits none).
   * Call commit() once the input is actually sent.
   */
  check(input: TypedInput): PolicyDecision {
    const s = scan(this.buffer, this.unknown, input);
    let worst: PolicyDecision = { decision: 'allow', rule: 'default', reason: 'no line submitted', commands: [], matches: [] };
    for (const l of s.lines) {
      if (l.text.trim() === '' && !l.unknown) continue;
      const d = l.unknown
        ? { decision: 'ask' as const, rule: 'shell-input-unknown', reason: 'the line was edited with keys (history, completion, cursor moves) whose result cannot be checked', commands: [], matches: [{ rule: 'shell-input-unknown', decision: 'ask' as const, reason: 'edited with keys', text: l.text }] }
        : decide(l.text, this.policy(), this.ctx());
      if (RANK[d.decision] > RANK[worst.decision]) worst = d;
    }
    return worst;
  }

  commit(input: TypedInput): void {
    const s = scan(this.buffer, this.unknown, input);
    this.buffer = s.rest;
    this.unknown = s.restUnknown;
  }
}

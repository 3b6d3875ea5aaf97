/**
 * Prompt patterns on the tail of a process's output: the cheap, portable half of the yield
 * engine (the other half reads the process state through the platform port, see platform/port.ts).
 */

/** Patterns that, on the last line of output followed by silence, mean "waiting for input". */
export const PROMPT_PATTERNS: { name: string; re: RegExp; secret?: boolean }[] = [
  { name: 'yes-no', re: /[[(]\s*[yY](?:es)?\s*\/\s*[nN](?:o)?\s*[\])]\s*[:?]?\s*$/ },
  { name: 'yes-no-fingerprint', re: /\(yes\/no(?:\/\[fingerprint\])?\)\??\s*$/i },
  { name: 'password', re: /(?:password|passwort|mot de passe)[^:\n]{0,40}:\s*$/i, secret: true },
  { name: 'passphrase', re: /passphrase[^\n]{0,80}:?\s*$/i, secret: true },
  { name: 'python-repl', re: /^(?:>>>|\.\.\.)\s?$/ },
  { name: 'node-repl', re: /^>\s?$/ },
  { name: 'select', re: /^\?\s+\S.*$/ },
  { name: 'continue', re: /(?:continue|proceed|are you sure)[^\n]{0,40}\?\s*(?:\[[^\]]*\]\s*)?$/i },
  { name: 'press-key', re: /press (?:any key|enter|return)[^\n]*$/i },
  // A shell prompt where none is expected: a nested shell, `su`, ssh to another host.
  { name: 'shell-prompt', re: /^(?:\S+@\S+[: ][^\n]{0,80}|[\w.-]{1,40}(?:-\d[\d.]*)?)\s?[$#%]\s?$/ },
  { name: 'repl', re: /^(?:mysql|psql|sqlite|irb\([^)]*\)|\w+)[>#]\s?$/ },
];

/** Is this prompt a yes/no question (`[Y/n]`, `(yes/no)`)? What a policy `confirm` rule may answer. */
export function isYesNoPrompt(prompt: string): boolean {
  const p = stripAnsi(prompt).trimEnd();
  return PROMPT_PATTERNS.some((x) => (x.name === 'yes-no' || x.name === 'yes-no-fingerprint') && x.re.test(p));
}

/** CSI / OSC / other escape sequences, removed before matching (colour must not hide a prompt). */
const ANSI_RE = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI_RE, '');
}

/**
 * A spinner frame cleared in place (npm, ora): back to column 1 (CR, `ESC[G`, `ESC[1G`), then
 * erase the line (`ESC[K`, `ESC[0K`, `ESC[2K`). The terminal shows nothing there.
 */
const CLEARED_FRAME_RE = /(?:\r|\x1b\[1?G)\x1b\[[02]?K/g;

/** The last non-empty line of the text as a terminal would show it (handles \r overwrites and cleared spinner frames). */
export function lastVisibleLine(text: string): string {
  // A cleared frame becomes a CR (drops what was drawn) and a DEL, which the control-character
  // removal below drops, so that the CR is not taken for the end of a CRLF.
  const clean = stripAnsi(text.replace(CLEARED_FRAME_RE, '\r\x7f'));
  const lines = clean.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    let line = lines[i];
    if (line.endsWith('\r')) line = line.slice(0, -1);
    const cr = line.lastIndexOf('\r');
    if (cr >= 0) line = line.slice(cr + 1);
    // eslint-disable-next-line no-control-regex
    line = line.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '');
    if (line.trim().length > 0) return line;
  }
  return '';
}

export interface PromptMatch {
  prompt: string;
  pattern: string;
  secretHint: boolean;
}

/** Does the tail end in something that asks for input? */
export function matchPrompt(tail: string): PromptMatch | undefined {
  const line = lastVisibleLine(tail);
  if (!line) return undefined;
  // A prompt is the last thing printed: output that ends with a newline is not asking.
  const trimmedTail = stripAnsi(tail).replace(/[ \t]+$/, '');
  const endsWithNewline = /\n\s*$/.test(trimmedTail) && !/^(?:>>>|\.\.\.)/.test(line);
  for (const p of PROMPT_PATTERNS) {
    if (p.re.test(line)) {
      if (endsWithNewline && p.name !== 'select') return undefined;
      return { prompt: line.trim().slice(0, 200), pattern: p.name, secretHint: !!p.secret };
    }
  }
  return undefined;
}

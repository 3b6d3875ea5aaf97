/**
 * A terminal transcript inside output: a prompt line (`$ printenv DB_PASSWORD | xxd`, `bob@box:~/app$ op read …`, bash's xtrace
 * `+ vault kv get -field=password …`), then what that command printed, up to the next prompt line. A log of a session, a
 * `script` typescript, a tmux capture or a README's example shows the command beside its output; the output of a credential
 * printer (secret-printers.ts) has no name beside its value (`00000000: 4871 3824 …  Hq8$wN2vLr.` under `printenv DB_PASSWORD |
 * xxd`: adv71 F27), so it is read the way the command's own output would be: its values, to be remembered and masked.
 */
import { NON_ASCII_PROMPT_MARK, PROMPT_MARKS, isSecretName } from './scanner.js';
import { printedKind, printerValues, secretPrinterOf } from './secret-printers.js';

/**
 * A CI runner's prefix on every line of a step (nektos/act's `| `, `[job]   | `; GitHub Actions' raw log's timestamp), before
 * an xtrace prompt and before each output line under it (adversary pass 103 F46): the output is read without it.
 */
// fastlane's `[09:14:00]: ` (its action's output after `▸ `), under grep -n's `4:` / `5-` or a GitHub Actions log's timestamp or
// not (pass 176 F33; the own attack adv180).
const LOG_PREFIX_BODY = String.raw`(?:\d{1,7}[:-]|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?Z[ \t])?\[\d\d:\d\d:\d\d(?:\.\d{1,6})?\]:[ \t]+(?:▸[ \t]+)?|(?:\[[^\]\n]{1,64}\][ \t]+)?\|[ \t]|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?Z[ \t]`;
const LOG_PREFIX = new RegExp(`^(?:${LOG_PREFIX_BODY})`);
/**
 * What stands before a prompt's mark on its line (the mark, `$ ` `% ` `❯ ` `+ `, is where the search finds it): nothing, `user@host:path`
 * / `user@host path`, or more `+`s (bash's xtrace nests `++ `), after a CI runner's prefix or not. Not `# ` (a comment in a script
 * or a config file, whose next lines are no command's output) nor `> ` (a quote, a diff's side, a REPL).
 */
const PROMPT_HEAD = new RegExp(String.raw`^(?:[\w.-]{1,64}@[\w.-]{1,64}[: ][^\n$%#]{0,256}|(?:${LOG_PREFIX_BODY})?\+{0,2})$`);
/**
 * Where a `user@host:path` prompt glued to the end of the output before it starts in `head` (a `script` typescript of a command
 * whose output ends with no line break: `UVFvT3Vr…dev@box:~$ exit`, adv84 F41), or -1: the output before it on the line is the
 * last command's. Where the output ends and the user's name begins is read by the names of the transcript's other prompts
 * (`users`), else as a login name is written (lower case, digits, `_`, `-`; base64 before it may end alike: a piece is left).
 */
function gluedPromptStart(head: string, users: ReadonlySet<string>): number {
  const at = head.lastIndexOf('@');
  if (at < 1) return -1;
  let h = at + 1;
  while (h < head.length && h - at <= 64 && PROMPT_NAME_CHAR.test(head[h])) h++;
  if (h === at + 1 || head[h] !== ':' || !PROMPT_PATH.test(head.slice(h + 1))) return -1;
  const before = head.slice(0, at);
  let known = '';
  for (const u of users) if (u.length > known.length && before.endsWith(u)) known = u;
  if (known) return at - known.length;
  let u = at;
  while (u > 0 && at - u < 32 && LOGIN_NAME_CHAR.test(head[u - 1])) u--;
  return u < at ? u : -1;
}
const PROMPT_NAME_CHAR = /[\w.-]/;
const LOGIN_NAME_CHAR = /[a-z0-9_-]/;
/** The user's name of a prompt at a line's start (`dev@box:~`). */
const PROMPT_USER = /^([\w.-]{1,64})@/;
/** A prompt's path after `user@host:` (`~/app`, `/srv/x`): no blank and no prompt mark. */
const PROMPT_PATH = /^[^\s$%#]{0,256}$/;
/** The marks searched for (scanner.ts: its keyword pass reports them, ScanReport.promptMarks). */
const MARKS = [...PROMPT_MARKS, NON_ASCII_PROMPT_MARK];
/**
 * A PowerShell prompt at a line's start (`PS C:\Users\dev> `, `PS /home/dev> `): its mark `> ` is searched for only in a text
 * that has one (`> ` alone is a quote's, a diff's, a REPL's mark), and its head must be `PS ` and a path.
 */
const POWERSHELL_PROMPT_IN_TEXT = /(?:^|\n)PS (?:[A-Za-z]:\\|[/~])/;
const POWERSHELL_PROMPT_HEAD = /^PS (?:[A-Za-z]:\\|[/~])[^\n<>|]{0,256}$/;
const POWERSHELL_MARK = '> ';
/**
 * A PowerShell line that prints a variable (`$secret`, `Write-Output $token`, `$cred.GetNetworkCredential().Password`): its value
 * is printed below it (a transcript of `$secret = Get-AzKeyVaultSecret … -AsPlainText` then `$secret`: adv145), group n its name.
 */
const POWERSHELL_ECHO = /^(?:(?:Write-(?:Output|Host)|echo)[ \t]+)?\$(?<n>[A-Za-z_]\w{0,63})(?<member>(?:\.GetNetworkCredential\(\))?\.Password)?[ \t]*$/i;
/** Characters before a mark read back for its line's start (a prompt's head is shorter: user, host and a path of 256). */
const MAX_HEAD = 400;
/** Each mark's places looked at in one text at most (`45% ` of a progress bar, `a + b` of code: most are no prompt). */
const MAX_MARKS = 4096;
/** Prompt lines read in one text at most: a megabyte of `$ echo x` lines is no transcript worth a parse each. */
const MAX_PROMPT_LINES = 256;
/** A command's output read under its prompt line at most (characters). */
const MAX_OUTPUT_CHARS = 64 * 1024;
/** `echo` or `printf` of literal words only: no variable, substitution, pipe, redirection or list. */
const LITERAL_ECHO = /^(?:echo|printf)[ \t][^$`|<>;&\\]*$/;
/** A prompt line's command: a word, then up to 4 KB. */
const COMMAND = /^\S[^\n]{0,4095}/;

interface Prompt {
  /** Where the prompt starts: its line's start, or where it is glued to the output before it. */
  lineStart: number;
  command: string;
  outputStart: number;
  /** The prompt line starts with a CI runner's prefix (LOG_PREFIX): its output lines are read without theirs. */
  prefixed: boolean;
  /** A PowerShell prompt (`PS C:\> `): its command is PowerShell's. */
  powershell?: boolean;
}

/** The prompt lines of `text`, in order (each mark found by a plain search, its line's head checked a bounded way back). */
function promptLines(text: string): Prompt[] {
  const byStart = new Map<number, Prompt>();
  const users = new Set<string>();
  // (A plain search first: the pattern's `(?:^|\n)` tried at every offset cost a megabyte of build log a millisecond.)
  const marks = (text.startsWith('PS ') || text.includes('\nPS ')) && POWERSHELL_PROMPT_IN_TEXT.test(text) ? [...MARKS, POWERSHELL_MARK] : MARKS;
  for (const mark of marks) {
    let tried = 0;
    for (let i = text.indexOf(mark); i >= 0 && byStart.size < MAX_PROMPT_LINES && tried++ < MAX_MARKS; i = text.indexOf(mark, i + mark.length)) {
      // The line's start within MAX_HEAD characters back (a search of the window: a megabyte line is not walked back for each mark).
      const from = Math.max(0, i - MAX_HEAD);
      let lineStart = i;
      while (lineStart > from && text.charCodeAt(lineStart - 1) !== 0x0a) lineStart--;
      if (lineStart === from && from > 0) continue;
      const head = text.slice(lineStart, i);
      let atLineStart = mark === POWERSHELL_MARK ? POWERSHELL_PROMPT_HEAD.test(head) : PROMPT_HEAD.test(head);
      if (mark === POWERSHELL_MARK && !atLineStart) continue;
      const user = atLineStart ? PROMPT_USER.exec(head)?.[1] : undefined;
      // A user's name that another prompt's name ends (`cngr…Klkydev@box` after `dev@box`): output glued to the prompt.
      if (user !== undefined && !users.has(user) && [...users].some((u) => user.endsWith(u))) atLineStart = false;
      else if (user !== undefined && users.size < MAX_PROMPT_LINES) users.add(user);
      const glued = atLineStart ? 0 : mark === '$ ' || mark === '% ' ? gluedPromptStart(head, users) : -1;
      if (glued < 0) continue;
      const promptStart = lineStart + glued;
      if (byStart.has(promptStart)) continue;
      const m = COMMAND.exec(text.slice(i + mark.length, i + mark.length + 4097));
      if (!m) continue;
      const end = i + mark.length + m[0].length;
      const prefixed = atLineStart && LOG_PREFIX.test(head);
      byStart.set(promptStart, { lineStart: promptStart, command: m[0].replace(/\r$/, ''), outputStart: end + 1, prefixed, powershell: mark === POWERSHELL_MARK });
    }
  }
  // script(1)'s typescript of one command (`script -c CMD file`): its header names the command, its output follows (pass 231 F7).
  for (let i = text.indexOf(SCRIPT_STARTED), n = 0; i >= 0 && n < MAX_PROMPT_LINES; i = text.indexOf(SCRIPT_STARTED, i + SCRIPT_STARTED.length), n++) {
    if (i > 0 && text.charCodeAt(i - 1) !== 0x0a) continue;
    const nl = text.indexOf('\n', i);
    const header = SCRIPT_HEADER.exec(text.slice(i, nl < 0 ? text.length : Math.min(nl, i + 4200)));
    if (header && nl >= 0 && !byStart.has(i)) byStart.set(i, { lineStart: i, command: header.groups!.c, outputStart: nl + 1, prefixed: false });
  }
  return [...byStart.values()].sort((a, b) => a.lineStart - b.lineStart);
}
const SCRIPT_STARTED = 'Script started on ';
/** Its header line: a date, then `[COMMAND="…"` and the terminal's fields (`TERM=…`, `<not executed on terminal>`). */
const SCRIPT_HEADER = /^Script started on [^\n\[]{0,64}\[COMMAND="(?<c>[^\n]{1,4096}?)"(?: [^\n]{0,256})?\]\r?$/;

/** Each value a credential printer's output holds under its prompt line in `text`, with the kind to remember it as. */
export function transcriptPrintedValues(text: string): { value: string; kind: string }[] {
  const out: { value: string; kind: string }[] = [];
  const prompts = promptLines(text);
  prompts.forEach((p, i) => {
    // An echo of a literal prints what the line shows (the scanner reads it there): no command line to parse.
    if (LITERAL_ECHO.test(p.command)) return;
    const echo = p.powershell ? POWERSHELL_ECHO.exec(p.command) : null;
    const printer = echo ? (echo.groups!.member || isSecretName(echo.groups!.n) ? { kind: 'secret', tool: 'PowerShell' } : undefined) : secretPrinterOf(p.command);
    if (!printer) return;
    const end = Math.min(i + 1 < prompts.length ? prompts[i + 1].lineStart : text.length, p.outputStart + MAX_OUTPUT_CHARS);
    if (end <= p.outputStart) return;
    const kind = printedKind(printer);
    const output = text.slice(p.outputStart, end);
    const read = p.prefixed ? output.split('\n').map((l) => l.replace(LOG_PREFIX, '')).join('\n') : output;
    for (const value of printerValues(printer, read)) out.push({ value, kind });
  });
  return out;
}

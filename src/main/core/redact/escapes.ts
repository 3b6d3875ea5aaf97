/**
 * Terminal escape sequences inside a text the scanner reads: `jq` colours every key and value under a PTY
 * (`\e[34;1m"api_key"\e[0m\e[1;39m:\e[0m \e[0;32m"…"`), `grep --color=always` splits a name from its `=`
 * (`CI_JOB_\e[01;31m\e[KTOKEN\e[m\e[K=…`). A read_raw page and a command's raw stream keep them (a reply's text has none:
 * the squasher strips them): the scanner reads the text without them, and what it finds is mapped back to the text.
 */

/**
 * CSI (colour, erase), OSC (title, hyperlink) and the two-byte charset and keypad sequences; a character a program erased
 * as it echoed a typed line (`x\b \b`: a password corrected with backspace, adv25 F49), which a terminal does not show. And
 * (ESCAPE_OR_NUL, for a raw page) NUL, which a terminal ignores: UTF-16 text printed raw (`iconv -t utf-16le`, a PowerShell-written `.npmrc`) has one after
 * every ASCII character — the reply's text never had them (the squasher drops them), a read_raw page did (adv95 F23, F24).
 * Only a NUL in that layout (every other character): `/proc/<pid>/environ`'s NULs end its variables, and stay ends.
 */
const ESCAPE = /\x1b\[[0-9;?:]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Za-z0-9]|\x1b[=>78]|[^\n\x08]\x08 \x08/g;
/** ESCAPE and UTF-16's NULs: what a raw page is read without (a reply's text has no NUL: the squasher drops them). */
const ESCAPE_OR_NUL = new RegExp(`${ESCAPE.source}|\\x00(?=[^\\x00]\\x00)`, 'g');
/**
 * Does a text hold what ESCAPE removes (an escape, an erase by backspace)? And a NUL, for a raw page (`nuls`): a search of the
 * whole text for it cost every reply 3–5% of its masking time (bench/redact-ab.ts), and only raw pages hold one.
 */
const mayHoldEscapes = (text: string, nuls = false): boolean => text.includes('\x1b') || text.includes('\x08') || (nuls && text.includes('\x00'));

export interface Unescaped {
  /** The text without its escape sequences. */
  plain: string;
  /** For each offset of `plain` (and its end), the offset in the text. */
  at: Int32Array;
}

/** `text` without its escape sequences (and UTF-16's NULs, for a raw page: `nuls`), with the way back; undefined when it has none. */
export function withoutEscapes(text: string, nuls = false): Unescaped | undefined {
  if (!mayHoldEscapes(text, nuls)) return undefined;
  const parts: string[] = [];
  const at = new Int32Array(text.length + 1);
  let n = 0;
  let from = 0;
  const re = nuls ? ESCAPE_OR_NUL : ESCAPE;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    for (let i = from; i < m.index; i++) at[n++] = i;
    parts.push(text.slice(from, m.index));
    from = m.index + m[0].length;
    const gap = cursorGap(m[0]);
    if (gap !== '') {
      at[n++] = m.index;
      parts.push(gap);
    }
  }
  for (let i = from; i < text.length; i++) at[n++] = i;
  parts.push(text.slice(from));
  at[n] = text.length;
  return { plain: parts.join(''), at: at.subarray(0, n + 1) };
}

/** `text` without its escape sequences, no way back (what a scan that only learns values needs): itself when it has none. */
export function plainText(text: string): string {
  if (!mayHoldEscapes(text)) return text;
  ESCAPE.lastIndex = 0;
  return text.replace(ESCAPE, cursorGap);
}

/**
 * What a cursor movement leaves between the characters on either side of it: they are not next to each other on the screen.
 * A line break for a move to another row (CSI A, B, E, F, H, f, d: a TUI drawing its cells, a progress bar going up) and for a
 * move back along it (CSI D, G: what follows is written over what was there — a prompt echoing a password, going back over it
 * and writing `*`s over it: adv97 F33; read as one word, the password and the stars were remembered as one value, and the stars
 * found in other placeholders; as a line of its own, the password ends its prompt's line, as a reply shows it); a blank for a
 * move forward (CSI C: a gap drawn by moving). Nothing for anything else (colours, erasing: `grep --color` puts `\e[K` inside a name).
 */
function cursorGap(escape: string): string {
  if (escape.charCodeAt(1) !== 0x5b) return '';
  return GAP_AFTER_FINAL[escape.charCodeAt(escape.length - 1)] ?? '';
}
/**
 * By a CSI sequence's final character's code: a line break for the moves that break a line (cursor up, down, back, next and
 * previous line, to a column, to a place, to a row), a blank for the move forward; nothing for the rest (colours first of all).
 */
const GAP_AFTER_FINAL: string[] = [];
for (const c of 'ABDEFGHfd') GAP_AFTER_FINAL[c.charCodeAt(0)] = '\n';
GAP_AFTER_FINAL['C'.charCodeAt(0)] = ' ';

/** A range [start, end) of `plain` as a range of the text: from its first character's offset to just after its last one. */
export function rangeInText(u: Unescaped, start: number, end: number): { start: number; end: number } {
  return { start: u.at[start], end: end > start ? u.at[end - 1] + 1 : u.at[start] };
}

/**
 * A JSON string's escapes of a line break, a tab, a quote and a backslash (`\n`, `\r`, `\t`, `\"`, `\\`, `\/`): a tool's output
 * held in a JSON string (an agent's transcript, `aws logs` events, journald's JSON, a Gemini checkpoint: adv18 F06, F31) has its
 * lines joined by `\n`, so a rule anchored at a line's start, or reading a block of lines, never sees them.
 */
const STRING_ESCAPE = /\\(?:\\|n|r|t|"|\/)/g;
const STRING_ESCAPED_AS: Record<string, string> = { '\\\\': '\\', '\\n': '\n', '\\r': '\r', '\\t': '\t', '\\"': '"', '\\/': '/' };
/** Fewer escaped line breaks than this in a text: no output held in a string (`printf "a\n"` in a command line). */
const MIN_ESCAPED_BREAKS = 2;
/**
 * What marks a line to decode: an escaped line break, a doubly escaped quote, a URL with its slashes escaped (PHP's
 * `json_encode` writes `"https:\/\/hooks.slack.com\/services\/…"` and `"postgres:\/\/app:<pw>@db…"`: adv107 F40; looked for
 * only when the scanner's one pass met one: a search of every text for it cost ~3%).
 */
const ESCAPED_BREAK = '\\n';
const DOUBLY_ESCAPED_QUOTE = '\\\\\\"';
const ESCAPED_URL = ':\\/\\/';

/** Does a line hold output in a JSON string, or an escaped URL? */
function heldInString(line: string): boolean {
  if (line.includes(DOUBLY_ESCAPED_QUOTE) || line.includes(ESCAPED_URL)) return true;
  let breaks = 0;
  for (let i = line.indexOf(ESCAPED_BREAK); i >= 0 && breaks < MIN_ESCAPED_BREAKS; i = line.indexOf(ESCAPED_BREAK, i + 2)) breaks++;
  return breaks >= MIN_ESCAPED_BREAKS;
}

/**
 * The marks' next places in a text, each searched for again only when passed (a search from every line's end for a mark the
 * text lacks read the rest of the text once a line: quadratic on a megabyte of escaped lines).
 */
class NextMarks {
  private readonly at: number[];
  constructor(private readonly text: string, private readonly marks: string[]) {
    this.at = marks.map((m) => text.indexOf(m));
  }
  /** The first mark at or after `from`, -1 when none. */
  from(from: number): number {
    let first = -1;
    for (let k = 0; k < this.marks.length; k++) {
      if (this.at[k] >= 0 && this.at[k] < from) this.at[k] = this.text.indexOf(this.marks[k], from);
      if (this.at[k] >= 0 && (first < 0 || this.at[k] < first)) first = this.at[k];
    }
    return first;
  }
}

/**
 * The lines of `text` that hold output in a JSON string (MIN_ESCAPED_BREAKS escaped line breaks, or a doubly escaped quote)
 * or an escaped URL, joined and decoded (STRING_ESCAPE), no way back: scanned to learn the values found, which are then found
 * in the text as they are (a value holds no escape) or with its slashes escaped (learned-secrets.ts learns that form too).
 * Only those lines: decoding and scanning the whole text again cost a mixed log (a JSON line among thousands) twice its
 * masking time. Undefined when no line holds one.
 */
export function withoutStringEscapes(text: string, escapedUrls: boolean): string | undefined {
  const marks = new NextMarks(text, escapedUrls ? [ESCAPED_BREAK, DOUBLY_ESCAPED_QUOTE, ESCAPED_URL] : [ESCAPED_BREAK, DOUBLY_ESCAPED_QUOTE]);
  const picked: string[] = [];
  for (let at = marks.from(0); at >= 0; ) {
    const start = text.lastIndexOf('\n', at) + 1;
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    const line = text.slice(start, end);
    if (heldInString(line)) picked.push(line);
    if (nl < 0) break;
    at = marks.from(end + 1);
  }
  if (picked.length === 0) return undefined;
  STRING_ESCAPE.lastIndex = 0;
  return picked.join('\n').replace(STRING_ESCAPE, (m) => STRING_ESCAPED_AS[m]);
}

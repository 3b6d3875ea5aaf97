/**
 * asciinema's recordings (`.cast`, v2: a header line, then one JSON array per output event, `[1.021, "o", "hf_TFcY…"]`): a
 * program's output cut into events wherever its writes fell, each event a JSON string with its escapes (`\u001b[32m`, `\r\n`).
 * A token written by two writes is in two events (adv97 F49), no rule sees it whole. The output events of a block of lines are
 * decoded and joined back into the stream the terminal got, read without its escape sequences as a raw page is, scanned, and
 * each finding masked in the events' strings it came from. Hand-written: a JSON parser gives the strings, not where each of
 * their characters was written.
 */
import type { SecretFinding } from './finding.js';
import { withoutEscapes } from './escapes.js';

/** An output event's line: `[<seconds>, "o", "<data>"]`; the data's JSON string in `data` (with its quotes). */
// (Or an input event, `"i"` (`asciinema rec --stdin`): masked whole after a password's prompt, which the terminal does not echo:
// pass 258 F6, `[3.71, "i", "Maple!winter33\r"]`. Other input is echoed in the output events already.)
const OUTPUT_EVENT = /^\[[ \t]*\d+(?:\.\d+)?,[ \t]*"(?<type>[oi])",[ \t]*(?<data>"(?:[^"\\\n]|\\.){0,65536}")[ \t]*\]\r?$/dgm;
/** The stream's end before an input event that is typed at a password's prompt (its last characters). */
// (Its word, then its mark (`:`, `>`, `?`) and what a prompt shows after it: bw's `[input is hidden]`, a cursor's escape; openssl's
// `pass phrase`, Cloud Foundry's `Password> `: adv263 R1–R4.)
const PASSWORD_PROMPT_END = /(?:password|passphrase|pass phrase|passcode|PIN|secret)\b[^\n]{0,64}[:>?][^\n:>?]{0,40}$/i;
/** An input event's typed text, less the Enter that ends it (`\r`, `\n` as the JSON string writes them). */
const TYPED = /^((?:[^\\]|\\(?![rn]))*)(?:\\[rn])*$/;
/** A terminal's control sequence (a cursor shown again after a prompt). */
const CONTROL_SEQUENCE = /\x1b\[[0-9;?]*[A-Za-z]/g;
/** The stream's last characters read for that prompt. */
const PROMPT_TAIL_CHARS = 96;
/** Events joined into one stream at most: a session's few screens (a big recording is read a block at a time). */
const MAX_EVENTS = 4096;
/** A JSON string's escapes of one character. */
const SIMPLE_ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** The findings of `scan` in the output the recording's events in `text` hold, as ranges of `text` (the scanner calls it when its keyword pass saw `, "o", "`). */
export function recordingFindings(text: string, out: SecretFinding[], scan: (t: string) => SecretFinding[]): void {
  let stream = '';
  // For each character of the stream: where its escape or character starts in the text, and where it ends.
  const from: number[] = [];
  const to: number[] = [];
  let lastLineEnd = -2;
  const flush = (): void => {
    if (stream.length > 0) read(stream, from, to, out, scan);
    stream = '';
    from.length = 0;
    to.length = 0;
  };
  OUTPUT_EVENT.lastIndex = 0;
  let events = 0;
  for (let m = OUTPUT_EVENT.exec(text); m; m = OUTPUT_EVENT.exec(text)) {
    // Events on consecutive lines make one stream.
    if (m.index !== lastLineEnd + 1 || events >= MAX_EVENTS) {
      flush();
      events = 0;
    }
    lastLineEnd = m.index + m[0].length;
    events++;
    const [start, end] = m.indices!.groups!.data!;
    if (m.groups!.type === 'i') {
      // What was typed at the prompt is the password, whatever its shape (a prompt's own words after its colon, bw's `[input is
      // hidden]`, would be read by the scanner as the value instead: adv263 R1); each event of it, to the next output.
      if (PASSWORD_PROMPT_END.test(stream.slice(-PROMPT_TAIL_CHARS).replace(CONTROL_SEQUENCE, ''))) {
        const typed = TYPED.exec(text.slice(start + 1, end - 1));
        if (typed && typed[1].length > 0) out.push({ start: start + 1, end: start + 1 + typed[1].length, kind: 'password', byContext: true });
      }
      continue;
    }
    for (let i = start + 1; i < end - 1; ) {
      const c = text[i];
      if (c !== '\\') {
        stream += c;
        from.push(i);
        to.push(++i);
        continue;
      }
      const e = text[i + 1];
      if (e === 'u') {
        stream += String.fromCharCode(Number.parseInt(text.slice(i + 2, i + 6), 16) || 0);
        from.push(i);
        to.push((i += 6));
      } else {
        stream += SIMPLE_ESCAPES[e] ?? e;
        from.push(i);
        to.push((i += 2));
      }
    }
  }
  flush();
}

/** Scan one stream (without its escape sequences) and map each finding back to the text, one range per event's piece. */
function read(stream: string, from: number[], to: number[], out: SecretFinding[], scan: (t: string) => SecretFinding[]): void {
  const u = withoutEscapes(stream);
  const plain = u?.plain ?? stream;
  for (const f of scan(plain)) {
    if (f.end <= f.start) continue;
    const first = u ? u.at[f.start] : f.start;
    const last = u ? u.at[f.end - 1] : f.end - 1;
    // A piece ends where the next character of the stream is not written right after it (another event's string).
    for (let s = first; s <= last; ) {
      let e = s;
      while (e < last && from[e + 1] === to[e]) e++;
      out.push({ start: from[s], end: to[e], kind: f.kind, byContext: true });
      s = e + 1;
    }
  }
}

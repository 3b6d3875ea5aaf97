/**
 * Text written as a JSON array of its bytes. journald's JSON output (`journalctl -o json`) writes a field that is not valid
 * UTF-8 or holds control characters — a coloured log line, `\e[36mINFO\e[0m connecting to postgres://shop:…@db` — as
 * `"MESSAGE":[27,91,51,54,109,73,78,70,79,…]` (adv18 F19); Node's `Buffer.toJSON()` prints `{"type":"Buffer","data":[…]}`.
 * No rule reads a secret there: the bytes are decoded (one character a byte), read without their escape sequences, and
 * what is found is mapped back to the numbers that spell it.
 */
import type { SecretFinding } from './finding.js';
import { rangeInText, withoutEscapes } from './escapes.js';

/** A JSON field whose value is an array of 16 or more numbers of one to three digits (a byte each, checked below). */
const BYTE_ARRAY = /"[A-Za-z_][\w]*"[ \t]*:[ \t]*\[(?<bytes>\d{1,3}(?:,[ \t]?\d{1,3}){15,262143})\]/g;
/** Where such a field may start: the array's opening after a key, looked for before the regex runs. */
const BYTE_ARRAY_MARK = /":[ \t]*\[\d/;

/** The secrets in `text`'s byte arrays, each as the range of the numbers that spell it; `scan` reads the decoded text. */
export function byteArrayFindings(text: string, out: SecretFinding[], scan: (t: string) => SecretFinding[]): void {
  if (!BYTE_ARRAY_MARK.test(text)) return;
  BYTE_ARRAY.lastIndex = 0;
  for (const m of text.matchAll(BYTE_ARRAY)) {
    const list = m.groups!.bytes;
    const listStart = m.index + m[0].length - 1 - list.length;
    const starts: number[] = [];
    const ends: number[] = [];
    const bytes: number[] = [];
    let ok = true;
    for (const n of list.matchAll(/\d+/g)) {
      const b = Number(n[0]);
      if (b > 255) {
        ok = false;
        break;
      }
      starts.push(listStart + n.index);
      ends.push(listStart + n.index + n[0].length);
      bytes.push(b);
    }
    if (!ok) continue;
    const decoded = Buffer.from(bytes).toString('latin1');
    const u = withoutEscapes(decoded);
    for (const f of scan(u?.plain ?? decoded)) {
      const { start, end } = u ? rangeInText(u, f.start, f.end) : f;
      if (end > start) out.push({ start: starts[start], end: ends[end - 1], kind: f.kind });
    }
  }
}

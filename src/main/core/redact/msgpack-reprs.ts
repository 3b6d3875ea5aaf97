/**
 * A MessagePack map printed as Python's bytes repr (`b'\x82\xa5token\xd9(ghp_…\xa8password\xb0<value>'`: a queue's, a cache's or a
 * socket's payload printed by a debugging script, adv119 F16). Each string is glued to the one before by its length header — a
 * fixstr's `\xa0`–`\xbf` (its low five bits), a str8's `\xd9` then one length byte — so no separator a rule reads stands between a
 * name and its value. Read: a key whose header states its length exactly and that names a secret, then the string after it of the
 * length its own header states, all printable: the value.
 */
import type { SecretFinding } from './finding.js';

/** A fixstr key (its header, its characters: a name's) before the next string's header. */
const KEY = /\\x([abAB][0-9a-fA-F])([A-Za-z_][A-Za-z0-9_.-]{0,30})(?=\\x(?:[abAB][0-9a-fA-F]|[dD]9))/g;
/** One byte as Python's repr shows it: a hex escape, a letter escape, or the character itself. */
const REPR_BYTE = /\\x[0-9a-fA-F]{2}|\\[nrt\\'"]|[^\\\n]/y;
/** Shorter values are no secret (the masker's floor for a value by its name elsewhere). */
const MIN_VALUE = 6;

/** The byte a repr's piece `p` shows. */
function byteOf(p: string): number {
  if (p.length === 1) return p.charCodeAt(0);
  if (p.charCodeAt(1) === 0x78) return Number.parseInt(p.slice(2), 16);
  return { n: 0x0a, r: 0x0d, t: 0x09 }[p[1] as 'n' | 'r' | 't'] ?? p.charCodeAt(1);
}

/** Reads one repr byte at `at`: its value and where the next starts, or undefined at a line's end. */
function readByte(text: string, at: number): { byte: number; next: number } | undefined {
  REPR_BYTE.lastIndex = at;
  const m = REPR_BYTE.exec(text);
  return m ? { byte: byteOf(m[0]), next: at + m[0].length } : undefined;
}

/** MessagePack pairs whose key `kindOf` names a secret, in `text` (gated by the caller on `\xa`/`\xb`). */
export function msgpackPairFindings(text: string, kindOf: (name: string) => string | undefined, out: SecretFinding[]): void {
  KEY.lastIndex = 0;
  for (let m = KEY.exec(text); m; m = KEY.exec(text)) {
    const name = m[2];
    if ((Number.parseInt(m[1], 16) & 0x1f) !== name.length) continue;
    const kind = kindOf(name);
    if (kind === undefined) continue;
    // The value's header: a fixstr's byte, or str8's `\xd9` and its length byte.
    let at = m.index + m[0].length;
    const head = readByte(text, at);
    if (head === undefined) continue;
    let length = head.byte & 0x1f;
    at = head.next;
    if (head.byte === 0xd9) {
      const n = readByte(text, at);
      if (n === undefined) continue;
      length = n.byte;
      at = n.next;
    }
    if (length < MIN_VALUE) continue;
    const start = at;
    let printable = true;
    for (let k = 0; k < length && printable; k++) {
      const b = readByte(text, at);
      if (b === undefined || b.byte < 0x20 || b.byte > 0x7e) printable = false;
      else at = b.next;
    }
    if (printable) out.push({ start, end: at, kind, byContext: true });
  }
}

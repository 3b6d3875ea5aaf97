/**
 * macOS `security dump-keychain -d`: each item's `class:` and `attributes:`, then `data:` alone on its line and the item's
 * secret on the next, quoted (`"…"`) or as hex and its text (`0x70617373…  "pass…"`). A password item's (`class: "genp"`, an
 * internet password's `"inet"`) data is the password: nothing on its own line says so (pass 254 F20, a fastlane match
 * keychain's `match_password`). Certificates' and keys' items (`"cert"`, `"keys"`, `0x0000000F`) print public data or none.
 */
import type { SecretFinding } from './finding.js';

/** A password item's class line, read back from its `data:` line. */
const PASSWORD_CLASS = /^class: (?:"genp"|"inet")\r?$/;
/** The data line: quoted text, or hex then the text it shows. */
const DATA_LINE = /^(?:"(?<text>[^\n]*)"|(?<hex>0x[0-9A-Fa-f]{2,16384})(?:[ \t]+"(?<shown>[^\n]*)")?)\r?$/;
/** Lines an item's attributes span at most between its `class:` and its `data:` (a keychain item has some twenty). */
const MAX_ITEM_LINES = 64;
/** No more `data:` lines. */
const NONE = -2;
/** Items read at most (a login keychain holds hundreds; a dump of a megabyte of them is read in its first part only). */
const MAX_ITEMS = 4096;

export function keychainDumpItems(text: string, out: SecretFinding[]): void {
  let items = 0;
  // (`at`: the newline before a `data:` line; -1 for the text's first line.)
  const next = (from: number): number => {
    const i = text.indexOf('\ndata:', from);
    return i < 0 ? NONE : i;
  };
  for (let at = text.startsWith('data:') ? -1 : next(0); at !== NONE && items < MAX_ITEMS; at = next(at + 1)) {
    const lineStart = at + 1;
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) break;
    if (text.slice(lineStart, lineEnd).replace(/\r$/, '') !== 'data:') continue;
    items++;
    const item = itemClass(text, at);
    if (item === 'other') continue;
    const dataStart = lineEnd + 1;
    lineEnd = text.indexOf('\n', dataStart);
    if (lineEnd < 0) lineEnd = text.length;
    const m = DATA_LINE.exec(text.slice(dataStart, lineEnd));
    if (!m) continue;
    const g = m.groups!;
    // An item whose class is out of view (`grep -A1 '^data:'` of a dump: adv263 K1): its data when it is text, as a password's
    // is (a certificate's or a key's is hex alone).
    if (item === 'unknown' && g.text === undefined && g.shown === undefined) continue;
    const line = m[0];
    const pieces: [string | undefined, number][] = [
      [g.text, 1],
      [g.hex, 0],
      [g.shown, line.lastIndexOf(`"${g.shown}"`) + 1],
    ];
    for (const [value, offset] of pieces) {
      if (value === undefined || value.length === 0) continue;
      out.push({ start: dataStart + offset, end: dataStart + offset + value.length, kind: 'password', byContext: true });
    }
  }
}

/**
 * The class of the item whose `data:` line starts after `at` (its newline): a password's (`class: "genp"`, `"inet"`), another's,
 * or unknown (no `class:` line within reach: cut out by grep or awk).
 */
function itemClass(text: string, at: number): 'password' | 'other' | 'unknown' {
  let end = at;
  for (let n = 0; n < MAX_ITEM_LINES && end > 0; n++) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(start, end);
    if (line.startsWith('class: ')) return PASSWORD_CLASS.test(line) ? 'password' : 'other';
    // Another item's data or its start: this one's class is not in view.
    if (line.startsWith('data:') || line.startsWith('keychain: ')) return 'unknown';
    end = start - 1;
  }
  return 'unknown';
}

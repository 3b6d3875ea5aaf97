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
/** Items read at most (a login keychain holds hundreds; a dump of a megabyte of them is read in its first part only). */
const MAX_ITEMS = 4096;

export function keychainDumpItems(text: string, out: SecretFinding[]): void {
  let items = 0;
  for (let at = text.indexOf('\ndata:'); at >= 0 && items < MAX_ITEMS; at = text.indexOf('\ndata:', at + 1)) {
    const lineStart = at + 1;
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) break;
    if (text.slice(lineStart, lineEnd).replace(/\r$/, '') !== 'data:') continue;
    items++;
    if (!passwordItem(text, at)) continue;
    const dataStart = lineEnd + 1;
    lineEnd = text.indexOf('\n', dataStart);
    if (lineEnd < 0) lineEnd = text.length;
    const m = DATA_LINE.exec(text.slice(dataStart, lineEnd));
    if (!m) continue;
    const g = m.groups!;
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

/** Whether the item whose `data:` line ends at `at` (its newline before) is a password's: its `class:` line a few lines above. */
function passwordItem(text: string, at: number): boolean {
  let end = at;
  for (let n = 0; n < MAX_ITEM_LINES && end > 0; n++) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(start, end);
    if (line.startsWith('class: ')) return PASSWORD_CLASS.test(line);
    // Another item's data: this one's class is not within reach.
    if (line.startsWith('data:') || line.startsWith('keychain: ')) return false;
    end = start - 1;
  }
  return false;
}

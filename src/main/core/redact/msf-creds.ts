/**
 * Metasploit's `creds` table (`host  origin  service  public  private  realm  private_type  JtR Format  cracked_password`): the
 * `private` cell is a password in clear on a row whose `private_type` is `Password` (adv247 F27: `root  R00tme-Web01!  …
 * Password`). Its hashes are the hash rules' (an NT hash after the empty LM hash); a hash's type (`NTLM hash`, `Postgres md5`)
 * keeps its cell to them. The table pads each column to its widest cell, so a cell is read at its title's column.
 */
import type { SecretFinding } from './finding.js';

/** The table's header, its first seven titles as msfconsole prints them. */
const HEADER = /^host[ \t]+origin[ \t]+service[ \t]+public[ \t]+private[ \t]+realm[ \t]+private_type\b/;
/** Rows read under one header at most (a workspace's creds are tens). */
const MAX_ROWS = 4096;

export function msfCredsRows(text: string, out: SecretFinding[]): void {
  for (let at = text.indexOf('private_type'); at >= 0; at = text.indexOf('private_type', at + 1)) {
    const headerStart = text.lastIndexOf('\n', at) + 1;
    let headerEnd = text.indexOf('\n', at);
    if (headerEnd < 0) headerEnd = text.length;
    const header = text.slice(headerStart, headerEnd).replace(/\r$/, '');
    if (!HEADER.test(header)) continue;
    const privateAt = header.search(/[ \t]private[ \t]/) + 1;
    const realmAt = header.search(/[ \t]realm[ \t]/) + 1;
    const typeAt = header.indexOf('private_type');
    const afterType = header.slice(typeAt + 'private_type'.length).search(/\S/);
    const typeEnd = afterType < 0 ? Infinity : typeAt + 'private_type'.length + afterType;
    // The rows: after the header's rule of dashes, to a blank line.
    let rowStart = headerEnd + 1;
    for (let n = 0; n < MAX_ROWS && rowStart < text.length; n++) {
      let rowEnd = text.indexOf('\n', rowStart);
      if (rowEnd < 0) rowEnd = text.length;
      const row = text.slice(rowStart, rowEnd).replace(/\r$/, '');
      if (row.trim() === '') break;
      if (!/^-+[ \t]/.test(row) && row.slice(typeAt, typeEnd).trim() === 'Password') {
        const cell = row.slice(privateAt, realmAt);
        const value = cell.trim();
        if (value !== '') {
          const start = rowStart + privateAt + cell.indexOf(value);
          out.push({ start, end: start + value.length, kind: 'password', byContext: true });
        }
      }
      rowStart = rowEnd + 1;
    }
    at = rowStart;
  }
}

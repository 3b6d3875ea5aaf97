/**
 * A secret's digest in a table of secrets (`fly secrets list`'s `NAME  DIGEST  CREATED AT`, `supabase secrets list`'s `NAME |
 * DIGEST`: pass 232 L19, L23): the row's name says key, and the name rules took the digest beside it for the key. A hex cell under
 * a digest's column title is the secret's fingerprint, shown by design so a user can tell two values apart; it signs in nowhere.
 */

/** A column title that says digest. */
const DIGEST_TITLE = /^(?:DIGEST|CHECKSUM|SHA-?256|SHA-?1|HASH|FINGERPRINT)$/i;
/**
 * Kinds a rule found by the tool's own words, hex by nature: a `hash` above one is its own title, or a word of a line that lines up
 * by chance (certipy's `[*] Trying to retrieve NT hash for 'svc_ca'` over `[*] NT hash for 'svc_ca': <hex>`: adv247 F33).
 */
const HEX_BY_NATURE = /^(?:nt hash|kerberos key|dpapi key)$/;
/** A digest's shape: hex. */
const HEX_DIGEST = /^[0-9a-fA-F]{8,128}$/;
/** Hex findings whose column is looked for per text (a project's secrets are tens). */
const MAX_CHECKS = 256;
/** Lines read up from a row for its header (a table of secrets is short). */
const MAX_LINES_UP = 64;
/** A header or a row longer than this is no table's (a megabyte line is not read back for each finding). */
const MAX_HEADER_CHARS = 4096;

/**
 * Drops from `out` the findings by context that are hex cells under a digest's column title; `remembered` too: a value the
 * session's stream learned from a window of the row without its title (the Redactor's find, which reads the whole text).
 */
export function dropDigestCells(text: string, out: { start: number; end: number; byContext?: boolean; kind?: string }[], remembered = false): void {
  let checks = 0;
  for (let i = out.length - 1; i >= 0; i--) {
    const f = out[i];
    if ((!remembered && !f.byContext) || (f.kind !== undefined && HEX_BY_NATURE.test(f.kind)) || !HEX_DIGEST.test(text.slice(f.start, f.end))) continue;
    // Past the checks a table of secrets needs, the rest stay masked (the safe side: 40,000 rows took 7 s).
    if (checks++ >= MAX_CHECKS || !underDigestTitle(text, f.start)) continue;
    out.splice(i, 1);
  }
}

/** Is the column at `at` headed, up its table's lines, by a digest's title starting at the same column? */
function underDigestTitle(text: string, at: number): boolean {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const col = at - lineStart;
  // A tab-separated row's cell is its field's (`jq -r … | @tsv` under `NAME\tDIGEST\tCREATED AT`: the columns do not line up,
  // adv236 L3); a row of single tabs between its fields.
  const row = col <= MAX_HEADER_CHARS ? text.slice(lineStart, at) : '';
  const field = row.includes('\t') && !row.includes('\t\t') ? row.split('\t').length - 1 : -1;
  for (let end = lineStart - 1, n = 0; end > 0 && n < MAX_LINES_UP; n++) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    if (end - start > MAX_HEADER_CHARS) return false;
    const line = text.slice(start, end).replace(/\r$/, '');
    end = start - 1;
    if (line.trim() === '') return false;
    if (field >= 0 && line.includes('\t')) {
      if (DIGEST_TITLE.test(line.split('\t')[field]?.trim() ?? '')) return true;
      continue;
    }
    if (col >= line.length || (col > 0 && !/[\s|│]/.test(line[col - 1]))) continue;
    const title = /^[A-Za-z][A-Za-z0-9-]*/.exec(line.slice(col))?.[0];
    if (title !== undefined && DIGEST_TITLE.test(title)) return true;
  }
  return false;
}

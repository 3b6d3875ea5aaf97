/**
 * What a terminal finally shows of each line whose bytes draw over themselves: a spinner
 * (`⠙ESC[1GESC[0K⠹ESC[1GESC[0K…`, npm), a `\r` progress counter, a line erased at the end. Passthrough output is the program's text for the agent to act on,
 * and those frames are not part of it: a terminal never shows them together.
 *
 * Only horizontal movement within one line is interpreted: carriage return, CHA
 * (`ESC[nG`), cursor forward/back (`ESC[nC` / `ESC[nD`) and erase in line (`ESC[K`, `ESC[1K`,
 * `ESC[2K`). A line without any of them is returned byte for byte, and so is a `\r` that ends a
 * line (a CRLF file read by `cat`: nothing is drawn over). Other escapes are left in place for
 * the caller's stripEscapes. Hand-written rather than @xterm/headless: passthrough output can be
 * megabytes, nearly all of it lines without a control, and those must cost one scan; a full
 * emulator would also wrap long lines at the terminal width, which is not the program's text.
 * Columns count code points (a wide character counts one): spinners and progress counters are
 * narrow; a wide character drawn over only misplaces the overwrite, never loses a line.
 */

/**
 * A line needs rendering: a `\r` followed by more, or a horizontal CSI (G C D K). A backspace is
 * not interpreted: it is also a byte of files `cat` shows, and spinners that draw with it are rare.
 */
const OVERWRITE = /\r(?!$)|\x1b\[[0-9;]*[GCDK]/;
/** One token of a line being rendered: a CSI sequence, another escape, or one code point. */
const TOKEN = /\x1b\[([0-9;?]*)([ -/]*[@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[^[\]]|[\s\S]/gu;

/** `text` (newlines already `\n`) with every line that draws over itself replaced by what a terminal shows. */
export function renderLineOverwrites(text: string): string {
  if (!OVERWRITE.test(text)) return text;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) if (OVERWRITE.test(lines[i])) lines[i] = renderLine(lines[i]);
  return lines.join('\n');
}

/**
 * One line as a terminal leaves it. Cells hold what was drawn (a code point, with any SGR
 * escapes that came right before it kept in front, so colour survives for stripEscapes to remove
 * or a caller to keep); erased cells are empty, and empty cells at the end are not output.
 */
export function renderLine(line: string): string {
  const cells: (string | undefined)[] = [];
  let col = 0;
  let pendingEscapes = '';
  let trailingCr = false;
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(line); m; m = TOKEN.exec(line)) {
    const t = m[0];
    trailingCr = false;
    if (m[2] !== undefined) {
      const n = Math.max(1, Number(m[1]?.split(';')[0] || '1') || 1);
      switch (m[2]) {
        case 'G':
          col = n - 1;
          continue;
        case 'C':
          col += n;
          continue;
        case 'D':
          col = Math.max(0, col - n);
          continue;
        case 'K': {
          const mode = Number(m[1] || '0');
          if (mode === 0) cells.length = Math.min(cells.length, col);
          else if (mode === 1) for (let c = 0; c <= col && c < cells.length; c++) cells[c] = undefined;
          else cells.length = 0;
          continue;
        }
        default:
          pendingEscapes += t; // SGR and the rest: kept for the caller (stripEscapes removes them)
          continue;
      }
    }
    if (t[0] === '\x1b') {
      pendingEscapes += t;
      continue;
    }
    if (t === '\r') {
      col = 0;
      trailingCr = true;
      continue;
    }
    cells[col] = pendingEscapes + t;
    pendingEscapes = '';
    col++;
  }
  let end = cells.length;
  while (end > 0 && cells[end - 1] === undefined) end--;
  let out = '';
  for (let c = 0; c < end; c++) out += cells[c] ?? ' ';
  // A `\r` that ends the line overwrote nothing: it is the program's (a CRLF line), kept.
  return out + pendingEscapes + (trailingCr ? '\r' : '');
}

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
/**
 * Cursor up or down (`ESC[nA`, `ESC[nB`): a display that draws rows again from below them (docker pull's layer rows, each
 * redrawn in place with no newline between: adversary pass 97 L06). Such text is read as rows of a screen.
 */
const VERTICAL = /\x1b\[[0-9]*[AB]/;
/** Rows above its own a line may move up to and draw on (the squasher's redraw region reaches as far: MAX_REACHABLE_ROWS). */
const MAX_ROWS_UP = 64;
/** One token of a line being rendered: a CSI sequence, another escape, or one code point. */
const TOKEN = /\x1b\[([0-9;?]*)([ -/]*[@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[^[\]]|[\s\S]/gu;
/** TOKEN's own copy for reading a row into cells while a line's tokens are being drawn (a shared lastIndex would restart the line). */
const ROW_TOKEN = new RegExp(TOKEN.source, 'gu');

/** `text` (newlines already `\n`) with every line that draws over itself replaced by what a terminal shows. */
export function renderLineOverwrites(text: string): string {
  if (VERTICAL.test(text)) return renderRows(text.split('\n')).join('\n');
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
  const screen = new Screen([[]], 0);
  screen.draw(line, false);
  return screen.rowText(0, true);
}

/**
 * Lines whose cursor moves up and down: each line starts one row below where the last one ended (its newline), and draws on
 * whatever row the cursor is on. Rows no line moved over stay as they were, byte for byte.
 */
function renderRows(lines: readonly string[]): string[] {
  const rows: (string | Cells)[] = [];
  let row = -1;
  for (const line of lines) {
    row++;
    if (row === rows.length && !VERTICAL.test(line)) {
      rows.push(OVERWRITE.test(line) ? renderLine(line) : line);
      continue;
    }
    if (row === rows.length) rows.push([]);
    const screen = new Screen(rows, row, Math.max(0, row - MAX_ROWS_UP));
    screen.draw(line, true);
    row = screen.row;
  }
  const out = rows.map((r) => (typeof r === 'string' ? r : cellsText(r)));
  // Text that ended with a line break still does when its last line went back up over rows drawn before.
  if (lines[lines.length - 1] === '' && out[out.length - 1] !== '') out.push('');
  return out;
}

/** A row's cells: what was drawn in each column (with the escapes before it), undefined where nothing is. */
type Cells = (string | undefined)[];

/** Rows being drawn on by one line's tokens: the cursor's row and column, escapes waiting for the next cell. */
class Screen {
  col = 0;
  private pendingEscapes = '';
  private trailingCr = false;

  /** `top`: the highest row the cursor may move up to. */
  constructor(
    private readonly rows: (string | Cells)[],
    public row: number,
    private readonly top = row,
  ) {}

  /** The cells of `row` (a row kept as text becomes cells when it is drawn on). */
  private cells(row: number): Cells {
    const r = this.rows[row];
    if (typeof r !== 'string') return r;
    const cells: Cells = [];
    let escapes = '';
    ROW_TOKEN.lastIndex = 0;
    for (let m = ROW_TOKEN.exec(r); m; m = ROW_TOKEN.exec(r)) {
      if (m[0][0] === '\x1b') escapes += m[0];
      else {
        cells.push(escapes + m[0]);
        escapes = '';
      }
    }
    if (escapes) cells.push(escapes);
    this.rows[row] = cells;
    return cells;
  }

  /** Draws `line`'s tokens; `vertical`: up and down move between rows (else they are kept as escapes, as before). */
  draw(line: string, vertical: boolean): void {
    let cells = this.cells(this.row);
    TOKEN.lastIndex = 0;
    for (let m = TOKEN.exec(line); m; m = TOKEN.exec(line)) {
      const t = m[0];
      this.trailingCr = false;
      if (m[2] !== undefined) {
        const n = Math.max(1, Number(m[1]?.split(';')[0] || '1') || 1);
        switch (m[2]) {
          case 'G':
            this.col = n - 1;
            continue;
          case 'C':
            this.col += n;
            continue;
          case 'D':
            this.col = Math.max(0, this.col - n);
            continue;
          case 'K': {
            const mode = Number(m[1] || '0');
            if (mode === 0) cells.length = Math.min(cells.length, this.col);
            else if (mode === 1) for (let c = 0; c <= this.col && c < cells.length; c++) cells[c] = undefined;
            else cells.length = 0;
            continue;
          }
          case 'A':
          case 'B':
            if (vertical) {
              // Down no further than the rows drawn so far (a program's cursor-down returns to the row it left).
              this.row = m[2] === 'A' ? Math.max(this.top, this.row - n) : Math.min(this.rows.length - 1, this.row + n);
              cells = this.cells(this.row);
              continue;
            }
            this.pendingEscapes += t;
            continue;
          default:
            this.pendingEscapes += t; // SGR and the rest: kept for the caller (stripEscapes removes them)
            continue;
        }
      }
      if (t[0] === '\x1b') {
        this.pendingEscapes += t;
        continue;
      }
      if (t === '\r') {
        this.col = 0;
        this.trailingCr = true;
        continue;
      }
      cells[this.col] = this.pendingEscapes + t;
      this.pendingEscapes = '';
      this.col++;
    }
    // Escapes after the last cell drawn stay at the end of the row the cursor is on.
    if (this.pendingEscapes) {
      cells.push(this.pendingEscapes);
      this.pendingEscapes = '';
    }
  }

  /** Row `row` as text (cellsText); `keepCr`: a `\r` that ended the line is kept. */
  rowText(row: number, keepCr: boolean): string {
    // A `\r` that ends the line overwrote nothing: it is the program's (a CRLF line), kept.
    return cellsText(this.cells(row)) + (keepCr && this.trailingCr ? '\r' : '');
  }
}

/** A row's cells as text: up to the last drawn one, a blank for an empty cell. */
function cellsText(cells: Cells): string {
  let end = cells.length;
  while (end > 0 && cells[end - 1] === undefined) end--;
  let out = '';
  for (let c = 0; c < end; c++) out += cells[c] ?? ' ';
  return out;
}

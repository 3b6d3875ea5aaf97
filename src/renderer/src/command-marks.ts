/**
 * Command boundaries in the live terminal, as VS Code's shell-integration decorations draw them:
 * a mark in a gutter left of the first column, on the line where each command's output starts,
 * with the command as its label (tooltip). Never over the text: a line that fills the width or
 * wraps keeps every character visible (an earlier mark, a rule across the line with the label at
 * its right end, hid the end of such lines). The bytes written into xterm
 * stay exactly the session's (nothing is inserted into the stream: a TUI's cursor moves and the
 * raw pane are untouched); the mark is an xterm decoration on the line where its output began.
 *
 * Where that is: the hub gives each command the stream offset where its output starts
 * (CommandInfo.outputOffset). A start known before its bytes arrive cuts the write there and is
 * marked at the cursor once xterm has parsed up to it; one learnt after its bytes were drawn (the
 * usual case: timeline updates come on the hub's 200 ms tick, output every frame) is placed by the
 * recently written chunks: a marker where each ended, less the newlines after the offset.
 */
import type { IDecoration, IMarker, Terminal } from '@xterm/xterm';
import type { CommandInfo } from '../../shared/contract.js';
import { shownCommand } from './approval-mark.js';

/** Written chunks remembered for placing late marks: a command's start comes within a second of its bytes. */
const WRITTEN_KEEP_CHUNKS = 256;
/** … and at most this many of their bytes (the backlog is one chunk of up to 512 KB). */
const WRITTEN_KEEP_BYTES = 1024 * 1024;
/** A mark's label shows the command's first characters (the whole line is in the timeline). */
const LABEL_MAX_CHARS = 80;

interface Written {
  start: number;
  data: Uint8Array;
  /** Where the cursor was once xterm parsed the chunk. */
  endMarker: IMarker;
}

export class CommandMarks {
  /** Output handed to xterm up to this offset / parsed by it up to this offset. */
  private queuedUpTo?: number;
  private parsedUpTo?: number;
  private readonly written: Written[] = [];
  private writtenBytes = 0;
  private readonly placed = new Map<string, IDecoration>();
  /** The order marks were placed in (the newest of a line shows its label). */
  private readonly seq = new Map<string, number>();
  /** Starts ahead of what was handed to xterm: cut there when their bytes come. */
  private readonly ahead = new Map<string, CommandInfo>();
  /** Starts in output handed to xterm but not yet parsed: placed when it is. */
  private readonly late = new Map<string, CommandInfo>();

  /** `pick` is called with a command's id when its mark's label is clicked (the view selects its row). */
  constructor(
    private readonly term: Terminal,
    private readonly pick?: (commandId: string) => void,
  ) {}

  /** How many commands are marked (tests and the pane's data attribute). */
  get count(): number {
    return this.placed.size;
  }

  /** A command of this session: marked where its output starts, once that is known and drawn. */
  mark(c: CommandInfo): void {
    const off = c.outputOffset;
    // No (longer a) start in this terminal: its shell was restarted, the offset was the old one's.
    if (off === undefined) return this.forget(c.id);
    if (this.placed.has(c.id) || this.ahead.has(c.id) || this.late.has(c.id)) return;
    // Starting exactly where the drawn output ends (all of it parsed): the cursor is its start. Marked
    // now, not at its first byte: a command that prints nothing (`rm`, `cd`) would otherwise wait
    // for the next command's output to be marked at all.
    if (off === this.queuedUpTo && this.parsedUpTo === this.queuedUpTo) {
      this.late.set(c.id, c);
      this.term.write('', () => {
        if (!this.late.delete(c.id)) return;
        this.placeAtCursor(c);
      });
    } else if (this.queuedUpTo === undefined || off >= this.queuedUpTo) this.ahead.set(c.id, c);
    else if (this.parsedUpTo === undefined || off >= this.parsedUpTo) this.late.set(c.id, c);
    else this.placeFromHistory(c);
  }

  /** Writes the session's output at `offset` into xterm, cut where known commands start; `done` once parsed. */
  write(data: Uint8Array, offset: number, done?: () => void): void {
    const end = offset + data.length;
    const first = this.queuedUpTo === undefined;
    const cuts: CommandInfo[] = [];
    for (const c of this.ahead.values()) {
      const off = c.outputOffset!;
      if (off < offset) {
        // Before the view's first bytes: older than its backlog, not drawn here. Later: it started
        // in output this view skipped (flow control), marked where drawing resumes.
        this.ahead.delete(c.id);
        if (!first) this.term.write('', () => this.placeAtCursor(c));
        // At the very end too: a command that printed nothing (yet) starts where this output ends.
      } else if (off <= end) cuts.push(c);
    }
    cuts.sort((a, b) => a.outputOffset! - b.outputOffset!);
    this.queuedUpTo = end;
    let at = offset;
    for (const c of cuts) {
      const off = c.outputOffset!;
      if (off > at) this.writePiece(data.subarray(at - offset, off - offset), at);
      at = off;
      this.ahead.delete(c.id);
      this.term.write('', () => this.placeAtCursor(c));
    }
    this.writePiece(data.subarray(at - offset), at, done);
  }

  private forget(id: string): void {
    this.ahead.delete(id);
    this.late.delete(id);
    this.placed.get(id)?.dispose();
    this.placed.delete(id);
    this.seq.delete(id);
  }

  dispose(): void {
    for (const d of this.placed.values()) d.dispose();
    for (const w of this.written) w.endMarker.dispose();
    this.placed.clear();
    this.seq.clear();
    this.written.length = 0;
  }

  private writePiece(data: Uint8Array, start: number, done?: () => void): void {
    this.term.write(data, () => {
      this.parsedUpTo = start + data.length;
      const endMarker = data.length ? this.term.registerMarker(0) : undefined;
      if (endMarker) this.remember({ start, data, endMarker });
      for (const c of this.late.values()) {
        if (c.outputOffset! >= this.parsedUpTo) continue;
        this.late.delete(c.id);
        this.placeFromHistory(c);
      }
      done?.();
    });
  }

  private remember(w: Written): void {
    this.written.push(w);
    this.writtenBytes += w.data.length;
    while (this.written.length > WRITTEN_KEEP_CHUNKS || (this.writtenBytes > WRITTEN_KEEP_BYTES && this.written.length > 1)) {
      const old = this.written.shift()!;
      this.writtenBytes -= old.data.length;
      old.endMarker.dispose();
    }
  }

  /** A start already drawn: the line where the cursor was at that offset (newlines counted back from its chunk's end). */
  private placeFromHistory(c: CommandInfo): void {
    const off = c.outputOffset!;
    const w = this.written.find((x) => off >= x.start && off < x.start + x.data.length);
    if (!w || w.endMarker.isDisposed || w.endMarker.line < 0) return; // older than what this view drew
    let newlines = 0;
    for (let i = off - w.start; i < w.data.length; i++) if (w.data[i] === 0x0a) newlines++;
    const buf = this.term.buffer.normal;
    // Counted back by newlines: a line that wrapped is several rows, and the count lands on its
    // last row; its output starts on the first (the rows continuing it say isWrapped).
    let line = w.endMarker.line - newlines;
    while (line > 0 && buf.getLine(line)?.isWrapped) line--;
    const marker = this.term.registerMarker(line - (buf.baseY + buf.cursorY));
    if (marker) this.decorate(c, marker);
  }

  private placeAtCursor(c: CommandInfo): void {
    const marker = this.term.registerMarker(0);
    if (marker) this.decorate(c, marker);
  }

  private decorate(c: CommandInfo, marker: IMarker): void {
    // Placed already: a start cut out of a write is placed once xterm parsed up to it, and the
    // timeline may name the command again meanwhile (it then took the late path as well).
    if (this.placed.has(c.id)) return marker.dispose();
    // One cell at column 0, moved by the stylesheet into the gutter left of it (.cmd-mark): no cell of text is under it.
    const d = this.term.registerDecoration({ marker, x: 0, width: 1, layer: 'top' });
    if (!d) return marker.dispose();
    const line = shownCommand(c);
    const label = `▸ ${line.length > LABEL_MAX_CHARS ? `${line.slice(0, LABEL_MAX_CHARS - 1)}…` : line} · ${c.id}`;
    d.onRender((el) => {
      el.classList.add('cmd-mark');
      el.dataset.commandId = c.id;
      el.dataset.label = label;
      // The label is an element of its own: it can be clicked, and it is exactly one terminal row
      // tall, so marks of commands on neighbouring lines never overlap. It shows a glyph; the
      // command and id are its accessible name and tooltip, and the command is shown as text after
      // the line's last character (showCommand: the gutter has no room for it).
      let btn = el.querySelector<HTMLButtonElement>(':scope > .cmd-mark-label');
      if (!btn) {
        btn = document.createElement('button');
        btn.className = 'cmd-mark-label';
        btn.type = 'button';
        btn.tabIndex = -1; // the timeline rows are the keyboard's way to a command; this is the mouse's
        // xterm must not start a selection or take the focus for a click on the label.
        btn.addEventListener('mousedown', (e) => {
          e.stopPropagation();
          e.preventDefault(); // nor does the label: the focus stays where the operator had it
        });
        btn.addEventListener('click', (e) => {
          e.stopPropagation();
          this.pick?.(c.id);
        });
        el.append(btn);
      }
      const rowPx = el.style.height;
      if (rowPx) btn.style.lineHeight = btn.style.height = rowPx;
      btn.style.fontSize = `${Math.max(LABEL_FONT_MIN_PX, Math.round((this.term.options.fontSize ?? LABEL_FONT_MAX_PX) * LABEL_FONT_RATIO))}px`;
      if (!btn.firstChild) btn.textContent = '▸';
      // Several commands whose output starts on one line (`cd`, `true`: no output): the newest's label
      // stands for them all, the others are hidden under it (their rows are all in the timeline).
      const others = this.onLine(d.marker.line).filter((x) => x !== c.id);
      const newest = others.every((x) => this.order(x) < this.order(c.id));
      el.classList.toggle('covered', !newest);
      // The command is cut to fit, never the id (the label's handle on the timeline row).
      const tail = ` · ${c.id}${newest && others.length ? ` (+${others.length})` : ''}`;
      if (btn.dataset.tail !== tail) {
        btn.dataset.tail = tail;
        btn.setAttribute('aria-label', `${label.replace(/ · \S+$/, '')}${tail}`);
        btn.title = `${line}${tail.replace(/^ · /, '\n')}: show this command (timeline row, agent pane)`;
      }
      this.showCommand(el, btn, d.marker.line, `${label.replace(/^▸ /, '').replace(/ · \S+$/, '')}${newest && others.length ? ` (+${others.length})` : ''}`);
    });
    this.placed.set(c.id, d);
    this.seq.set(c.id, this.seq.size);
  }

  /**
   * The command as text after the mark (`▸ npm test`), where it covers no character: in the blank
   * cells after the line's last character, running on into the pane's room right of the last
   * column, cut to what fits. A line full to its last column (or wrapped) leaves it only that
   * room; none at all (the font shrunk to fit the agent's columns), and the gutter's ▸ with its
   * tooltip stays alone. Placed again on every render of the mark: the line may have grown.
   */
  private showCommand(el: HTMLElement, btn: HTMLButtonElement, line: number, command: string): void {
    let span = el.querySelector<HTMLSpanElement>(':scope > .cmd-mark-text');
    if (!span) {
      span = document.createElement('span');
      span.className = 'cmd-mark-text';
      span.setAttribute('aria-hidden', 'true'); // the label button is its accessible name
      // A click on it is a click on the label (xterm starts no selection, the focus stays).
      span.addEventListener('mousedown', (e) => {
        e.stopPropagation();
        e.preventDefault();
      });
      span.addEventListener('click', (e) => {
        e.stopPropagation();
        btn.click();
      });
      el.append(span);
    }
    span.style.fontSize = btn.style.fontSize;
    span.style.lineHeight = span.style.height = el.style.height;
    const screen = el.closest<HTMLElement>('.xterm-screen');
    const pane = el.closest<HTMLElement>('.terminal');
    const row = this.term.buffer.normal.getLine(line);
    if (!screen || !pane || !row) return void (span.hidden = true);
    let used = 0;
    for (let x = this.term.cols - 1; x >= 0; x--) {
      const ch = row.getCell(x)?.getChars();
      if (ch && ch !== ' ') {
        used = x + 1;
        break;
      }
    }
    const s = screen.getBoundingClientRect();
    const cell = s.width / this.term.cols;
    // One blank cell between the line's text and the command, which repeats the ▸ there; a blank line has it right after the gutter's.
    const at = used === 0 ? 0 : (used + 1) * cell;
    const shown = used === 0 ? command : `▸ ${command}`;
    if (span.textContent !== shown) span.textContent = shown;
    const room = pane.getBoundingClientRect().right - COMMAND_TEXT_END_PAD_PX - (s.left + at);
    span.hidden = room < COMMAND_TEXT_MIN_PX;
    // From the mark's own left edge (the gutter's), which sits one gutter left of the first column.
    span.style.left = `${s.left - el.getBoundingClientRect().left + at}px`;
    span.style.maxWidth = `${Math.max(0, room)}px`;
  }

  /** Marked commands whose mark is on this buffer line. */
  private onLine(line: number): string[] {
    const ids: string[] = [];
    for (const [id, d] of this.placed) if (!d.marker.isDisposed && d.marker.line === line) ids.push(id);
    return ids;
  }

  private order(id: string): number {
    return this.seq.get(id) ?? -1;
  }
}

/** Less room than this (px) after a line's text and the pane's edge: the command is left to the tooltip. */
const COMMAND_TEXT_MIN_PX = 28;
/** Kept free at the pane's right edge (the terminal's scroll bar, its padding). */
const COMMAND_TEXT_END_PAD_PX = 6;
/** The label's font against the terminal's: a little smaller, so it reads as a note on the output. */
const LABEL_FONT_RATIO = 0.85;
const LABEL_FONT_MIN_PX = 7;
const LABEL_FONT_MAX_PX = 13;

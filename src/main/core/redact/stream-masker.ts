/**
 * Masking state of one command's output, fed with its chunks as they arrive. Chunk borders fall
 * anywhere (inside a token, inside a UTF-8 sequence); lines are reassembled before they are
 * scanned, so a secret split across chunks is found whole and remembered for the session (the
 * Redactor's learned values). It also records which output lines belong to private key blocks,
 * so a later read of lines 20-30 of a 40-line key — no BEGIN, no END in the window — is masked.
 */
import { BASE64_LINE, KEY_LABEL, SHOWN_LINE_END, shapePrefixLength, toolLinePrefix, unquotedKeyLine } from './private-keys.js';
import type { SecretFinding } from './finding.js';
import { MIN_PRINTED_CHARS, mintedWord } from './look-alikes.js';
import { printedKind, printerValues, takenAmongOthers, type SecretPrinter } from './secret-printers.js';
import { LearnedSecrets } from './learned-secrets.js';

/** What the stream masker needs of the Redactor: texts scanned together, each masked (Redactor.maskStrings). */
export interface LineMasker {
  maskStrings(texts: readonly string[], joins?: readonly string[]): string[];
  /** Learn-only mode: remember the context-found secrets of a text. */
  learnFrom?(text: string): void;
  /** The same on raw UTF-8 bytes, whole lines (`buf[n - 1]` is a newline): the stream need not decode its output. */
  learnFromBytes?(buf: Buffer, n: number): void;
  /** Remember a value a command printed alone (secret-printers.ts). */
  learnValue?(value: string, kind: string): void;
}

/**
 * Of one command's output, how much the learn-only stream state scans for values to remember:
 * a flood (`yes`, a 100 MB log) must not make the server's event loop scan every byte. Past it,
 * lines are still counted and key blocks tracked; replies and reads are masked when made, whole.
 */
export const MAX_LEARN_CHARS_PER_COMMAND = 8 * 1024 * 1024;

/** A query printer's first lines kept to read its later chunks by (its titles, a table's title rows and rules above them). */
const QUERY_HEAD_LINES = 8;
/**
 * A printer's values past this many get a store of their own for the command (StreamMasker.keepPrinted): fewer are safe in the
 * session's MAX_LEARNED (each value takes up to four places there with its derived forms), and most printers print one.
 */
const PRINTED_MANY = 16;

/** Lines before a batch scanned with it (not emitted again): multi-line contexts (`data:` blocks, `.netrc` entries) span a chunk border. */
export const CONTEXT_LINES = 20;

/** A line longer than this without a newline is scanned in pieces (a progress line that never ends must not grow memory). */
export const MAX_PENDING_CHARS = 256 * 1024;
/** Of a long line scanned in pieces: the tail kept for the next piece, longer than any single-line secret. */
export const PENDING_OVERLAP_CHARS = 8 * 1024;

/** The byte path's check for a key block's armour (BEGIN's literal part). */
const BEGIN_MARK = Buffer.from('-----BEGIN');
/** Is a BEGIN or END mark in the pending tail (a line begun in an earlier chunk), or across it and the chunk after it? */
function markAcross(tail: Buffer, bytes: Buffer): boolean {
  if (tail.indexOf(BEGIN_MARK) >= 0 || tail.indexOf(END_MARK) >= 0) return true;
  const joined = Buffer.concat([tail.subarray(Math.max(0, tail.length - BEGIN_MARK.length)), bytes.subarray(0, BEGIN_MARK.length)]);
  return joined.indexOf(BEGIN_MARK) >= 0 || joined.indexOf(END_MARK) >= 0;
}
/** A key's END line with no BEGIN in the chunk (`tail -n 2 key.pem`): the text path remembers the body lines above it. */
const END_MARK = Buffer.from('-----END');
const EMPTY = Buffer.alloc(0);
/** The byte path's buffer grows up to this (a bigger batch gets its own buffer: one command must not pin more). */
const MAX_SCRATCH_BYTES = 1024 * 1024;

/** Key body lines remembered per command (keyLines): a few keys' worth. */
const MAX_KEY_LINES = 512;
/** A body line this long and up is remembered (a block's short last line is no secret alone: `=` padding, a few characters). */
const MIN_KEY_LINE_SHOWN = 16;
/**
 * A block's last body line (right above its END) this long and up is remembered too: its characters are the key's last bytes, not
 * padding (`CJgLOtwPBvu=` of a PKCS#8 key, read alone in a one-line page: adv115 F47). Shorter is a few bytes and `=`.
 */
const MIN_KEY_TAIL_SHOWN = 8;
/** Body lines of an open key block kept for openKeyPieces (a 16K-bit RSA key is ~200 lines of 64). */
const MAX_OPEN_KEY_LINES = 256;

const BEGIN = new RegExp(`-----BEGIN ?${KEY_LABEL}-----`);
const END = new RegExp(`-----END ?${KEY_LABEL}-----`);
/** Escape sequences (colour) and carriage returns around a body line as a PTY prints it. */
const DECORATION = /\x1b\[[0-9;?]*[A-Za-z]|\r/g;

export class StreamMasker {
  /** This command's printed values once they are more than PRINTED_MANY (keepPrinted): searched in every text the Redactor masks. */
  printedStore: LearnedSecrets | undefined;
  /** Its printed values before they are many (the session's remembered values hold them meanwhile). */
  private printedSoFar: [string, string][] = [];
  /**
   * A query printer's first lines (its header, query-rows.ts), read again before each later chunk: its rows are read by the
   * header's columns, which a chunk of rows alone does not show (aws' `--output table` through the PTY: pass 257 F26's rows
   * came in a chunk after their header's, and read whole an ARN made the row a reference).
   */
  private queryHead = '';
  private queryHeadLines = 0;
  private pending = '';
  private readonly decoder = new TextDecoder();
  /** Lines completed so far (1-based numbering of the spool's lines). */
  private lines = 0;
  /**
   * Line ranges of private key blocks, both ends inclusive; the last may still be open (to = Infinity). Each with what the tool
   * wrote before the block's lines, when it did (keyPrefix): a read keeps it before the mask.
   */
  readonly keyRanges: { from: number; to: number; prefix?: string }[] = [];
  private inKey = false;
  /**
   * The body lines of the block still open (BEGIN seen, no END yet): a running command paused inside a key shows one as its
   * `last_line`, in the read's status line and in every reply's process table, strings masked apart from the page (adv25 F05).
   */
  private openKey: string[] = [];
  /** The open block's last line was a header (`DEK-Info: …`): a blank line may follow before the body. */
  private afterKeyHeader = false;
  /** What the tool wrote before the open block's BEGIN on its line (grep's `file:`, journalctl's `date host unit[pid]: `), if anything. */
  private keyPrefix: string | undefined;
  /** Characters scanned for values to remember so far (learn-only mode). */
  private learned = 0;
  /** The last lines emitted (not key lines): context for the next batch. */
  private context: string[] = [];
  /** The byte path's incomplete last line. */
  private tail: Buffer = EMPTY;
  /** The byte path's reused buffer (context + complete lines). */
  private scratch: Buffer = EMPTY;
  /** Text was pushed (push, or bytes through the decoder): the byte path is off for this stream. */
  private textMode = false;
  /** The command prints a credential alone (`gh auth token`): each of its value lines is remembered (Redactor.noteCommand). */
  printer: SecretPrinter | undefined;

  /**
   * `learnOnly`: the engine's mode — lines are scanned for the values to remember and key blocks
   * are tracked, nothing is masked and push returns "" (the replies are masked when made).
   */
  constructor(
    private readonly masker: LineMasker,
    private readonly options: { learnOnly?: boolean } = {},
  ) {}

  /** Raw bytes as the PTY delivers them. Returns the masked text of the lines completed by them. */
  pushBytes(chunk: Uint8Array): string {
    if (this.options.learnOnly && this.masker.learnFromBytes && !this.textMode && !this.printer) return this.learnBytes(chunk);
    this.textMode = true;
    if (this.tail.length) {
      // The byte path's pending line (a printer noted after output began): the text path goes on from it.
      const tail = this.tail;
      this.tail = EMPTY;
      this.pending += this.decoder.decode(tail, { stream: true });
    }
    return this.push(this.decoder.decode(chunk, { stream: true }));
  }

  /**
   * The engine's path (learn-only, raw bytes): the output is not decoded, joined or copied into
   * a Latin-1 buffer as a whole (a third of the stream's time when it was): the complete lines
   * are copied once, after the context lines, into a reused buffer; lines are counted with the
   * buffer's own newline search; the keyword pass runs on the bytes and only the lines with a
   * context keyword are decoded and scanned (Redactor.learnFromBytes). A chunk with a key block
   * in it (or inside one) goes through the text path, which tracks the block's lines.
   */
  private learnBytes(chunk: Uint8Array): string {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const nl = bytes.lastIndexOf(0x0a);
    if (nl < 0) {
      this.tail = this.tail.length ? Buffer.concat([this.tail, bytes]) : Buffer.from(bytes);
      if (this.tail.length > MAX_PENDING_CHARS) {
        // A line that never ends: learn from all but its tail (cut at a space when there is one, so no token is cut).
        let cut = this.tail.length - PENDING_OVERLAP_CHARS;
        const space = this.tail.lastIndexOf(0x20, cut);
        if (space > cut - PENDING_OVERLAP_CHARS) cut = space + 1;
        const head = this.tail.subarray(0, cut);
        this.tail = Buffer.from(this.tail.subarray(cut));
        if (this.learned < MAX_LEARN_CHARS_PER_COMMAND) this.learnFromLines(head, head.length, false);
        this.learned += head.length;
      }
      return '';
    }
    const tail = this.tail;
    this.tail = nl + 1 < bytes.length ? Buffer.from(bytes.subarray(nl + 1)) : EMPTY;
    const completeLength = tail.length + nl + 1;
    // A key block here or open: the text path follows it line by line.
    if (this.inKey || bytes.indexOf(BEGIN_MARK) >= 0 || bytes.indexOf(END_MARK) >= 0 || (tail.length > 0 && markAcross(tail, bytes))) {
      const complete = tail.length ? Buffer.concat([tail, bytes.subarray(0, nl + 1)]) : bytes.subarray(0, nl + 1);
      return this.maskLines(complete.toString('utf8'));
    }
    let n = 0;
    for (let i = bytes.indexOf(0x0a); i >= 0 && i <= nl; i = bytes.indexOf(0x0a, i + 1)) n++;
    this.lines += n;
    if (this.learned >= MAX_LEARN_CHARS_PER_COMMAND) {
      this.keepContext(tail, bytes, nl);
      return '';
    }
    this.learned += completeLength;
    // Context lines, then the complete lines: one contiguous buffer for the keyword pass.
    const context = this.context.length ? `${this.context.join('\n')}\n` : '';
    const contextBytes = Buffer.byteLength(context);
    const total = contextBytes + completeLength;
    if (this.scratch.length < total && total <= MAX_SCRATCH_BYTES) this.scratch = Buffer.allocUnsafe(Math.min(Math.max(total, this.scratch.length * 2), MAX_SCRATCH_BYTES));
    const buf = this.scratch.length >= total ? this.scratch : Buffer.allocUnsafe(total);
    buf.write(context, 0, contextBytes, 'utf8');
    tail.copy(buf, contextBytes);
    bytes.copy(buf, contextBytes + tail.length, 0, nl + 1);
    this.learnFromLines(buf, total, true);
    this.keepContext(tail, bytes, nl);
    return '';
  }

  /** Learns from `buf[0, n)`; `whole`: it ends in a newline (else one is appended for the pass). */
  private learnFromLines(buf: Buffer, n: number, whole: boolean): void {
    if (whole) {
      this.masker.learnFromBytes!(buf, n);
      return;
    }
    const copy = Buffer.allocUnsafe(n + 1);
    buf.copy(copy, 0, 0, n);
    copy[n] = 0x0a;
    this.masker.learnFromBytes!(copy, n + 1);
  }

  /** The last CONTEXT_LINES lines of the complete lines (tail + bytes[0, nl]) become the next batch's context. */
  private keepContext(tail: Buffer, bytes: Buffer, nl: number): void {
    let at = nl;
    for (let k = 0; k < CONTEXT_LINES && at > 0; k++) at = bytes.lastIndexOf(0x0a, at - 1);
    // Decoded whole: a character cut between the pending tail and the chunk (`│` of a box table in 3-byte reads) was two U+FFFD.
    const text = at > 0 ? bytes.toString('utf8', at + 1, nl) : tail.length ? Buffer.concat([tail, bytes.subarray(0, nl)]).toString('utf8') : bytes.toString('utf8', 0, nl);
    this.context = [...this.context, ...text.split('\n')].slice(-CONTEXT_LINES);
  }

  /** Text as it arrives. Returns the masked text of the lines completed by it (with their newlines). */
  push(chunk: string): string {
    this.textMode = true;
    this.pending += chunk;
    const nl = this.pending.lastIndexOf('\n');
    if (nl < 0) {
      if (this.pending.length <= MAX_PENDING_CHARS) return '';
      // A line that never ends: scan all but its tail (cut at a space when there is one, so no token is cut).
      let cut = this.pending.length - PENDING_OVERLAP_CHARS;
      const space = this.pending.lastIndexOf(' ', cut);
      if (space > cut - PENDING_OVERLAP_CHARS) cut = space + 1;
      const head = this.pending.slice(0, cut);
      this.pending = this.pending.slice(cut);
      if (this.options.learnOnly) {
        if (this.learned < MAX_LEARN_CHARS_PER_COMMAND) this.masker.learnFrom?.(head);
        this.learned += head.length;
        return '';
      }
      return this.masker.maskStrings([head])[0];
    }
    const complete = this.pending.slice(0, nl + 1);
    this.pending = this.pending.slice(nl + 1);
    return this.maskLines(complete);
  }

  /** The end of the output: the last line, if it had no newline. */
  flush(): string {
    if (this.tail.length) {
      // The byte path's last line without a newline: through the text path (it counts and tracks it).
      this.pending += this.tail.toString('utf8');
      this.tail = EMPTY;
    }
    const rest = this.pending + this.decoder.decode();
    this.pending = '';
    if (!rest) return '';
    return this.maskLines(rest);
  }

  /**
   * Body lines of the key blocks the command printed (the last MAX_KEY_LINES): a reply that shows one apart from its armour
   * (the squasher's `[... 24 lines omitted ...]` took the BEGIN line: adv28 F32) is masked line by line (Redactor.find).
   */
  readonly keyLines = new Set<string>();

  /** Pieces of the open key block (its body lines so far and the incomplete line after them), or none when no block is open. */
  openKeyPieces(): string[] {
    if (!this.inKey) return [];
    const partial = (this.pending || this.tail.toString('utf8')).replace(DECORATION, '').trim();
    return partial.length > 0 ? [...this.openKey, partial] : this.openKey;
  }

  /**
   * A credential printer's line still being printed (no line break yet), when it is long enough to be a value: a read taken
   * while the command runs shows it half written (`echo -n "$API_TOKEN" | base64` cut mid-line: adv50 F32), before the line
   * ends and its value is remembered (learnPrinted). Printers of documents and tables (their lines are not all values) have none.
   */
  openPrinted(): string | undefined {
    const p = this.printer;
    if (!p || p.fields || p.pairs || p.cells || p.keep || p.scriptEchoes || p.decodedPairs || p.namesAbove) return undefined;
    const partial = this.pending.replace(DECORATION, '').trim();
    return partial.length >= MIN_PRINTED_CHARS && (!p.amongOthers || takenAmongOthers({ ...p, transformed: false }, partial)) ? partial : undefined;
  }

  /**
   * The last word of the line the command is still printing (no line break yet), when it may be a value cut mid-way: a read
   * taken while the command runs shows `url = "postgres://shop:ypUT.Xbd` or `'SecretAccessKey': 'ojGBTd3Fe9G8o0`, which no rule
   * reads (the URL has no `@` yet, the quote no end, the token not its length: adv54's running reads). The word is masked in
   * such a read — a URL's authority with a password or a made word begun, a made word where a value stands (after `=`, `: `, a
   * tab, a quote) or alone on its line (a value's next line), a word of 8 characters and up right after a secret's name and its
   * separator (`api key: `, `secret is `), or alone under a line that names one — and the line, once ended, is read whole.
   */
  openTail(): string | undefined {
    // Asked once a string of every reply (maskDeep): the answer is kept until the stream moves.
    const at = this.openTailAt;
    if (at[0] !== this.lines || at[1] !== this.pending.length || at[2] !== this.tail.length) {
      this.openTailAt = [this.lines, this.pending.length, this.tail.length];
      this.openTailWord = this.readOpenTail();
    }
    return this.openTailWord;
  }
  private openTailAt: [number, number, number] = [-1, -1, -1];
  private openTailWord: string | undefined;

  private readOpenTail(): string | undefined {
    const raw = this.pending || (this.tail.length ? this.tail.toString('utf8') : '');
    if (raw.length < MIN_OPEN_TAIL) return undefined;
    const line = raw.slice(-MAX_OPEN_TAIL_LINE).replace(DECORATION, '').trimEnd();
    // The last word, found back from the end (a regex anchored at the end tries every start: quadratic on a long word).
    let start = line.length;
    while (start > 0 && !TAIL_STOP.has(line.charCodeAt(start - 1))) start--;
    // A `name=value` word (`key=lin_api_…` in a journal line: adv64 F48): the value after its `=` is the word, the name before it.
    const eq = line.indexOf('=', start);
    if (eq >= 0 && eq < line.length - 1 && !line.includes('://', start)) start = line.lastIndexOf('=') + 1;
    const w = line.slice(start);
    if (w.length < MIN_OPEN_TAIL || (start === 0 && raw.length > line.length)) return undefined;
    const before = line.slice(Math.max(0, start - NAME_BEFORE_LOOKBACK), start);
    const scheme = w.indexOf('://');
    if (scheme > 0) {
      const authority = w.slice(scheme + 3).split('/')[0];
      return /:[^:@]+$/.test(authority) || mintedWord(authority) ? w : undefined;
    }
    // Where a value stands, or a line that is the word alone (a value's next line: a key's body, a multi-line string, a fold).
    const alone = /^[ \t"'(<[{`]*$/.test(line.slice(0, start));
    if ((VALUE_PLACE.test(before) || alone) && mintedWord(w)) return w;
    // A secret's name just before it (`new api key: 1urKY2…`, `'SecretAccessKey': 'ojGB…`, `Bearer eyJ…`).
    if (SECRET_NAME_BEFORE.test(before)) return w;
    // Alone on its line, the line above names a secret (`password = """`, openssl's `priv:`), or lines of one word each (the
    // value's lines so far) follow one that does: the value's next line.
    const above = alone ? this.context.findLast((l) => l.trim() !== '' && !VALUE_LINE.test(l)) : undefined;
    return above !== undefined && SECRET_NAME_ABOVE.test(above) ? w : undefined;
  }

  /** Is output line `n` (1-based) part of a private key block? */
  isKeyLine(n: number): boolean {
    return this.keyRanges.some((r) => n >= r.from && n <= r.to);
  }

  /** What the tool wrote before key line `n`'s text (journalctl's `Mar 12 03:29:12 host unit[7720]: `), if anything. */
  keyLinePrefix(n: number): string | undefined {
    return this.keyRanges.find((r) => n >= r.from && n <= r.to)?.prefix;
  }

  /** Complete lines (each ending in "\n", the last maybe not): key lines replaced, the rest masked as one text. */
  private maskLines(text: string): string {
    if (this.printer) this.learnPrinted(text);
    if (this.options.learnOnly && !this.inKey && !text.includes('-----BEGIN') && !text.includes('-----END')) return this.learnLines(text);
    const lines = text.split('\n');
    const last = lines.pop()!; // "" after a final newline
    if (last !== '') lines.push(last);
    let out = '';
    let plain: string[] = [];
    const flushPlain = () => {
      if (!plain.length) return;
      const text = plain.join('\n') + '\n';
      if (this.options.learnOnly) this.masker.learnFrom?.(this.context.length ? `${this.context.join('\n')}\n${text}` : text);
      else out += this.context.length ? this.masker.maskStrings([this.context.join('\n'), text])[1] : this.masker.maskStrings([text])[0];
      this.context = [...this.context, ...plain].slice(-CONTEXT_LINES);
      plain = [];
    };
    for (const line of lines) {
      this.lines++;
      if (this.trackKey(line)) {
        flushPlain();
        out += `${KEY_LINE_MASK}\n`;
      } else {
        if (END.test(line)) this.rememberTail(plain);
        plain.push(line);
      }
    }
    flushPlain();
    // The text had no final newline: neither does its masked form.
    return last !== '' && out.endsWith('\n') ? out.slice(0, -1) : out;
  }

  /** A credential printer's output (a few lines): each value line is remembered before the lines are masked or learned from. */
  private learnPrinted(text: string): void {
    // A decoded key (`… | base64 -d` of a PEM) is a key block: its lines are tracked, not remembered one by one. What the printer
    // prints outside the block is read as its values (`cat key.enc.pem .passphrase`: the passphrase after the key, adv64 F11).
    if (this.inKey) {
      const end = text.indexOf('-----END');
      if (end < 0) return;
      text = text.slice(text.indexOf('\n', end) + 1 || text.length);
    }
    if (text.includes('-----BEGIN')) text = text.replace(KEY_BLOCK_SPAN, '');
    const kind = printedKind(this.printer!);
    if (this.printer!.queryColumns) {
      const head = this.queryHead;
      if (this.queryHeadLines < QUERY_HEAD_LINES) {
        for (const line of text.split('\n').slice(0, QUERY_HEAD_LINES - this.queryHeadLines)) {
          this.queryHead += `${line}\n`;
          this.queryHeadLines++;
        }
      }
      text = head + text;
    }
    for (const v of printerValues(this.printer!, text)) {
      this.masker.learnValue?.(v, kind);
      this.keepPrinted(v, kind);
    }
  }

  /**
   * This command's printed values, all of them once they are many (PRINTED_MANY): the session's remembered values hold the last
   * MAX_LEARNED, and a credentials file of 200 rows printed by `cat` had 136 of its passwords forgotten before the reply that showed
   * them was masked (session 34's own attack). The Redactor searches each stream's (Redactor.find).
   */
  private keepPrinted(value: string, kind: string): void {
    if (this.printedStore) {
      this.printedStore.learn(value, kind, MIN_PRINTED_CHARS);
      return;
    }
    this.printedSoFar.push([value, kind]);
    if (this.printedSoFar.length <= PRINTED_MANY) return;
    this.printedStore = new LearnedSecrets(Infinity);
    for (const [v, k] of this.printedSoFar) this.printedStore.learn(v, k, MIN_PRINTED_CHARS);
    this.printedSoFar = [];
  }

  /** Learn-only fast path for text with no key block in it: count its lines, learn from it with the lines before as context. */
  private learnLines(text: string): string {
    let n = 0;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
    if (!text.endsWith('\n')) n++;
    this.lines += n;
    if (this.learned >= MAX_LEARN_CHARS_PER_COMMAND) return '';
    this.learned += text.length;
    this.masker.learnFrom?.(this.context.length ? `${this.context.join('\n')}\n${text}` : text);
    // The last CONTEXT_LINES lines become the next batch's context.
    let at = text.length - (text.endsWith('\n') ? 1 : 0);
    for (let k = 0; k < CONTEXT_LINES && at > 0; k++) at = text.lastIndexOf('\n', at - 1);
    const tail = text.slice(Math.max(at + 1, 0)).replace(/\n$/, '').split('\n');
    this.context = [...this.context, ...tail].slice(-CONTEXT_LINES);
    return '';
  }

  /**
   * A key's END line with no BEGIN before it in this output (`tail -n 2 key.pem`, `head …; echo '[...]'; tail …`: adv83 F50): the
   * base64 lines right above it are the block's last body lines, remembered so a read of one of them alone is masked.
   */
  private rememberTail(plain: readonly string[]): void {
    // The lines above: this batch's not yet masked (`plain`), then the context kept from before it; CONTEXT_LINES at most.
    for (let k = 1; k <= CONTEXT_LINES; k++) {
      const line = k <= plain.length ? plain[plain.length - k] : this.context[this.context.length - (k - plain.length)];
      if (line === undefined) return;
      const body = line.replace(DECORATION, '').trim().replace(SHOWN_LINE_END, '');
      if (!BASE64_LINE.test(body)) return;
      if (body.length >= (k === 1 ? MIN_KEY_TAIL_SHOWN : MIN_KEY_LINE_SHOWN)) this.keyLines.add(body);
      if (this.keyLines.size > MAX_KEY_LINES) this.keyLines.delete(this.keyLines.values().next().value!);
    }
  }

  /** Follows key blocks line by line; true when `line` is part of one (armour or body). */
  private trackKey(line: string): boolean {
    const n = this.lines;
    if (!this.inKey) {
      const begin = BEGIN.exec(line);
      if (!begin) return false;
      // A one-line block (escaped newlines) is the scanner's; only a block over several lines is tracked.
      if (END.test(line)) return true;
      this.keyPrefix = toolLinePrefix(line.slice(0, begin.index).replace(DECORATION, ''));
      this.inKey = true;
      this.openKey = [];
      // OpenPGP's armour: a blank line right after BEGIN when it has no headers (RFC 4880 §6.2: adv57 F50).
      this.afterKeyHeader = true;
      this.keyRanges.push({ from: n, to: Infinity, prefix: this.keyPrefix });
      return true;
    }
    let range = this.keyRanges[this.keyRanges.length - 1];
    let shown = line.replace(DECORATION, '');
    const shaped = this.keyPrefix ? shapePrefixLength(shown, this.keyPrefix) : 0;
    if (shaped > 0) shown = shown.slice(shaped);
    else if (this.keyPrefix && otherServiceLine(shown, this.keyPrefix)) {
      // Another service's line among the key's (compose's interleaved logs: adv108 F50): not the key's, and not its end.
      if (range.to === Infinity) range.to = n - 1;
      return false;
    }
    // The key's next line after another service's: a range of its own (the lines between are not the key's).
    if (range.to !== Infinity) this.keyRanges.push((range = { from: n, to: Infinity, prefix: this.keyPrefix }));
    // A quoted piece of a string split at its line breaks (pprint's `'MIIE…\n'`) is read as the line it holds.
    const body = unquotedKeyLine(shown.trim().replace(SHOWN_LINE_END, ''));
    if (END.test(body)) {
      range.to = n;
      // The block's last body line, shorter than the others (MIN_KEY_TAIL_SHOWN).
      const last = this.openKey[this.openKey.length - 1];
      if (last !== undefined && last.length >= MIN_KEY_TAIL_SHOWN && last.length < MIN_KEY_LINE_SHOWN && BASE64_LINE.test(last)) this.keyLines.add(last);
      this.inKey = false;
      this.openKey = [];
      return true;
    }
    // A header, or a base64 line of any length (the block's short last line too); the blank line after the headers of RFC
    // 1421's encrypted form (`Proc-Type:`, `DEK-Info:`, a blank line, the body: adv26 F50).
    const header = /^[A-Za-z-]+: \S/.test(body);
    if (header || BASE64_LINE.test(body) || (body === '' && this.afterKeyHeader)) {
      this.afterKeyHeader = header;
      if (body !== '' && this.openKey.length < MAX_OPEN_KEY_LINES) this.openKey.push(body);
      if (!header && body.length >= MIN_KEY_LINE_SHOWN) {
        this.keyLines.add(body);
        if (this.keyLines.size > MAX_KEY_LINES) this.keyLines.delete(this.keyLines.values().next().value!);
      }
      return true;
    }
    // Anything else ends the block (a cut key: the command printed something else next).
    range.to = n - 1;
    this.inKey = false;
    this.openKey = [];
    return false;
  }
}

/** A compose service's prefix (`api-1    | `: docker compose pads every service's name to one width). */
const SERVICE_PREFIX = /^[\w.-]+[ \t]*\| $/;

/** Is `line` another service's, beside a key printed under the compose prefix `keyPrefix` (its `|` in the same column)? */
function otherServiceLine(line: string, keyPrefix: string): boolean {
  if (!SERVICE_PREFIX.test(keyPrefix)) return false;
  const bar = keyPrefix.length - 2;
  return line.charCodeAt(bar) === 0x7c && /^[\w.-]+[ \t]*$/.test(line.slice(0, bar));
}

/** What a line of a private key block becomes in a read of the output. */
export const KEY_LINE_MASK = '[masked: private key]';

/** `SecretFinding` ranges are the scanner's; re-exported for the stream's users. */
export type { SecretFinding };

/** An open line's last word this long may be a value cut mid-way (openTail); a shorter one is too little of any to matter. */
const MIN_OPEN_TAIL = 8;
/**
 * The open line is read back this far for its last word and what names it (an ECR token in a docker config is ~1,200
 * characters; a line that never ends is cut by the stream at MAX_PENDING_CHARS).
 */
const MAX_OPEN_TAIL_LINE = 16_384;
/** What ends the open line's last word, going back: blanks, quotes, brackets. */
const TAIL_STOP = new Set([...' \t\r\n"\'(<[{`'].map((c) => c.charCodeAt(0)));
/** Before the last word (its quotes and brackets between): a value's place, after `=`, `:` or a tab. */
const VALUE_PLACE = /(?:[=:\t]|: )[ \t]*["'(<[{`]*$/;
/** What is read before the last word for its name (a name of a few words and its quotes). */
const NAME_BEFORE_LOOKBACK = 64;
/** Words that name a secret, as the last word's name or the line's above. */
const SECRET_WORD = '(?:pass(?:word|wd|phrase)?|pwd|secret|token|key|auth(?:orization)?|credentials?|cookie|signature|salt|dsn|priv(?:ate)?)';
/**
 * A secret's name then its separator just before the last word: `api key: `, `'SecretAccessKey': '`, `password=`, `Bearer `,
 * `Your webhook signing secret is ` (stripe listen: adv64 F28).
 */
const SECRET_NAME_BEFORE = new RegExp(`${SECRET_WORD}[\\w-]{0,16}["']?(?:[ \\t]*(?::|=>?)|[ \\t]+(?:is|was|now))[ \\t]*["'(<[{\`]*$|bearer[ \\t]+$`, 'i');
/**
 * A line that names a secret whose value starts on the next, or goes on in it (a fold): `priv:`, `password = """`, `client_secret: |`,
 * `"token":`, `client-key-data: LS0tLS1CRUdJTi…`, PuTTY's `Private-Lines: 14`.
 */
const SECRET_NAME_ABOVE = new RegExp(`${SECRET_WORD}[\\w-]{0,16}["']?[ \\t]*(?::|=>?)?[ \\t]*(?:"""|'''|[|>][+-]?|\\\\|["']?[A-Za-z0-9+/=_.-]{16,}|\\d{1,4})?[ \\t]*\\r?$`, 'i');
/** A line that is a value's piece alone (a key's hex or base64 line, a fold's piece): looked past for the line that names it. */
const VALUE_LINE = /^[ \t]*[A-Za-z0-9+/=:._~-]{12,}[ \t]*\r?$/;
/** A key block in a printer's text, from its BEGIN line to its END line (or the text's end: still open). */
const KEY_BLOCK_SPAN = /-----BEGIN[^\n]*-----[\s\S]*?(?:-----END[^\n]*-----[^\n]*(?:\n|$)|$)/g;

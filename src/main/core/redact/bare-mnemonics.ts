/**
 * A wallet's recovery words printed with no name near them (`cat wallet.secret` beside `wc -w`: adv161 F28): 12, 15, 18, 21 or
 * 24 words of BIP-39's English list, on one line, one a line, or numbered as wallets print them (`1. word  2. word`, ` 1  word`).
 * The word list is @scure/bip39's (MIT, audited, the one wallets' JavaScript tooling uses), not a copy kept here.
 *
 * No checksum is asked for: a real phrase always passes it, but a fake one made by hand (a test's, a demo's) seldom does and is
 * still what it looks like. Prose does not pass for one: the list has no `the`, `a`, `of`, `and`, `is`, `to`, and a run of 12+
 * listed words with nothing else on the lines is a phrase. Kept: the test phrases every tool documents (`test … junk`,
 * `abandon … about` / `… art`, as the named rule in context-rules.ts keeps them, and any phrase of a repeated byte's entropy:
 * BIP-39's own test vectors, `legal winner …`, `zoo … wrong`), a few dev chains' published phrases (DOCUMENTED_PHRASES), words in
 * the list's own order (a dump of the list, `ls` of directories named like words: sorted across or, in `ls -C`'s grid, down).
 */
import { validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import type { SecretFinding } from './finding.js';
import { DOCUMENTED_PHRASES } from './look-alikes.js';

const WORD_INDEX = new Map<string, number>(wordlist.map((w, i) => [w, i]));
/** BIP-39's phrase lengths. */
const PHRASE_LENGTHS = new Set([12, 15, 18, 21, 24]);
/** Longest line read as a phrase's: 24 words of 8 letters, their numbers and blanks, with room for a wide layout's padding. */
const MAX_PHRASE_LINE = 480;
/** Lines a phrase is printed over at most (one word a line). */
const MAX_PHRASE_LINES = 24;
/** Words on one line of a phrase printed over several (a wallet's grid: 3 or 4 a row; 6 in some). */
const MAX_WORDS_PER_ROW = 6;
/** Blanks a phrase's line may end in (a grid's rows padded to their columns). */
const MAX_TRAILING_BLANKS = 16;

interface WordLine {
  start: number;
  end: number;
  /** Where its words are: [start, end) pairs (list numbers left out). */
  spans: number[];
}

const isBlank = (c: number) => c === 0x20 || c === 0x09 || c === 0x0d;
/** Between a phrase's words: blanks, or a list's marks as a program prints its words (`word, word`, `['word', 'word']`, JSON). */
const isSeparator = (c: number) => isBlank(c) || c === 0x2c || c === 0x27 || c === 0x22 || c === 0x5b || c === 0x5d;
const isLower = (c: number) => c >= 0x61 && c <= 0x7a;
const isUpper = (c: number) => c >= 0x41 && c <= 0x5a;
const isLetter = (c: number) => isLower(c) || isUpper(c);
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
/** A timestamp's characters (`2024-05-02T10:00:00.120Z`, `10:00:00,120`, `+02:00`, `05/02`). */
const isStampChar = (c: number) => isDigit(c) || c === 0x3a || c === 0x2d || c === 0x2e || c === 0x2c || c === 0x2b || c === 0x2f || c === 0x54 || c === 0x5a;
/** Shortest timestamp before a phrase on its line (`10:00:00`). */
const MIN_STAMP = 8;
/** Longest word of a label before a word's number (`Word #1:`, `Mnemonic 3.`, `Palabra 12:`), and its words at most. */
const MAX_LABEL = 12;
const MAX_LABEL_WORDS = 3;
/** A word's index in the list, upper-case words too (`INCREASE DAWN …`: a phrase shouted, as some wallets' backups print it). */
const indexOfWord = (w: string) => WORD_INDEX.get(w) ?? WORD_INDEX.get(w.toLowerCase());

/** Where a line's timestamps end (a log's prefix before a phrase: `2024-05-02T10:00:00Z word …`), or `at` when none. */
function afterStamps(text: string, at: number, end: number): number {
  let i = at;
  for (let n = 0; n < 2; n++) {
    let k = i;
    while (k < end && isSeparator(text.charCodeAt(k))) k++;
    if (!isDigit(text.charCodeAt(k))) break;
    let j = k;
    let marks = 0;
    while (j < end && j - k <= 40 && isStampChar(text.charCodeAt(j))) {
      const c = text.charCodeAt(j);
      if (c === 0x3a || c === 0x2d) marks++;
      j++;
    }
    if (j - k < MIN_STAMP || marks < 2 || (j < end && !isSeparator(text.charCodeAt(j)))) break;
    i = j;
  }
  return i;
}

/** Where a word's label ends (`Word #1: armed`, `Mnemonic word 2: render`: a label, blanks, then the number), or `at` when none. */
function afterLabel(text: string, at: number, end: number): number {
  let k = at;
  while (k < end && isSeparator(text.charCodeAt(k))) k++;
  // One to three words (`Word`, `Mnemonic word`, `Recovery phrase word`), each followed by blanks.
  for (let words = 0; words < MAX_LABEL_WORDS; words++) {
    const from = k;
    while (k < end && k - from <= MAX_LABEL && isLetter(text.charCodeAt(k))) k++;
    if (k === from || k - from > MAX_LABEL || !isBlank(text.charCodeAt(k))) return at;
    while (k < end && isBlank(text.charCodeAt(k))) k++;
    if (text.charCodeAt(k) === 0x23) k++;
    if (isDigit(text.charCodeAt(k))) return k;
  }
  return at;
}

/** wordLine's spans while it reads a line: copied out only for a line that holds words and nothing else. */
const SPANS: number[] = [];

/**
 * A line's word spans when it holds nothing but list words (3-8 letters, lower- or upper-case), list numbers (`1.`, `12)`, `3:`,
 * `#4`) and blanks, after a timestamp or a word's label at most (`Word #1:`, left out of the span); undefined as soon as anything
 * else shows (most lines fail at their first characters, with nothing made).
 */
function wordLine(text: string, at: number, end: number): WordLine | undefined {
  if (end - at > MAX_PHRASE_LINE) return undefined;
  const spans = SPANS;
  spans.length = 0;
  let first = -1;
  let last = -1;
  let i = afterStamps(text, at, end);
  i = afterLabel(text, i, end);
  while (i < end) {
    const c = text.charCodeAt(i);
    if (isSeparator(c)) {
      i++;
      continue;
    }
    const from = i;
    if (isLetter(c)) {
      const upper = isUpper(c);
      while (i < end && (upper ? isUpper(text.charCodeAt(i)) : isLower(text.charCodeAt(i)))) i++;
      if (i - from < 3 || i - from > 8) return undefined;
      spans.push(from, i);
    } else if (isDigit(c) || (c === 0x23 && isDigit(text.charCodeAt(i + 1)))) {
      if (c === 0x23) i++;
      const digits = i;
      while (i < end && isDigit(text.charCodeAt(i))) i++;
      if (i - digits > 2) return undefined;
      const p = text.charCodeAt(i);
      if (p === 0x2e || p === 0x29 || p === 0x3a) i++;
    } else return undefined;
    if (i < end && !isSeparator(text.charCodeAt(i))) return undefined;
    if (first < 0) first = from;
    last = i;
  }
  return spans.length ? { start: first, end: last, spans: spans.slice() } : undefined;
}

const wordsOf = (text: string, lines: readonly WordLine[]): string[] => {
  const words: string[] = [];
  for (const l of lines) {
    for (let k = 0; k < l.spans.length; k += 2) {
      const w = text.slice(l.spans[k], l.spans[k + 1]);
      words.push(isUpper(w.charCodeAt(0)) ? w.toLowerCase() : w);
    }
  }
  return words;
};
const countOf = (l: WordLine) => l.spans.length / 2;

/**
 * Are these words a phrase: each in the list, not a documented test phrase, not the list's own order? A phrase whose words repeat
 * every 8 but for the last (11 bits a word, so a repeated byte's entropy repeats every 88 bits: `abandon … about`, `zoo … wrong`,
 * `legal winner thank year wave sausage worth useful legal winner thank yellow`; `test … junk` too) is a test vector, not a
 * wallet's (a random phrase does so once in 2048^3).
 */
function isPhrase(words: readonly string[]): boolean {
  if (!PHRASE_LENGTHS.has(words.length)) return false;
  let ascending = true;
  let previous = -1;
  for (const w of words) {
    const i = WORD_INDEX.get(w);
    if (i === undefined) return false;
    // Not descending: a sorted listing may hold a word twice (`sort`; a phrase does, 1 in 8 of 24 words).
    if (i < previous) ascending = false;
    previous = i;
  }
  if (ascending) return false;
  let periodic = true;
  for (let k = 0; k + 8 < words.length - 1 && periodic; k++) periodic = words[k] === words[k + 8];
  if (periodic) return false;
  return !DOCUMENTED_PHRASES.has(words.join(' '));
}

/**
 * Are a grid's words in the list's order read down its columns, as `ls -C` prints a sorted listing (a PTY's `ls` of directories
 * named like words): with R rows, row r's k-th word is the (k·R + r)-th.
 */
function sortedDownColumns(text: string, run: readonly WordLine[], n: number): boolean {
  const rowCount = run.length;
  const order: number[] = new Array(n);
  for (let r = 0; r < rowCount; r++) {
    const spans = run[r].spans;
    for (let k = 0; k < spans.length / 2; k++) {
      const at = k * rowCount + r;
      if (at >= n) return false;
      order[at] = indexOfWord(text.slice(spans[2 * k], spans[2 * k + 1]))!;
    }
  }
  for (let i = 1; i < n; i++) if (!(order[i - 1] <= order[i])) return false;
  return true;
}

/**
 * Every bare phrase of a text, read line by line as the scanner's one line walk (folded-lines.ts) gives its lines: no walk of
 * its own (a walk of a reply's lines alone cost ~1.5% of its masking). Lines must come in order; a line not next to the one
 * before ends a run.
 */
export class BarePhrases {
  private block: WordLine[] = [];
  private lastEnd = -2;
  /** The block's first lines continue a stretch of short lines cut off (over MAX_PHRASE_LINES): not a phrase's first line. */
  private headCut = false;

  constructor(
    private readonly text: string,
    private readonly out: SecretFinding[],
  ) {}

  /**
   * The line at [at, end) (end: its `\n` or the text's end). A method, not a closure, and small enough to be inlined into the
   * walk: the scanner makes one reader a text and calls it on every line. A cheap first look: a phrase's line ends in a word's
   * letter (a few blanks or a CR after it at most); nearly every line fails it, with no run open: nothing else is done then.
   */
  line(at: number, end: number): void {
    const text = this.text;
    let e = end - 1;
    while (e > at && end - e <= MAX_TRAILING_BLANKS && isSeparator(text.charCodeAt(e))) e--;
    if (isLetter(text.charCodeAt(e))) this.read(at, end, e);
    else if (this.block.length) this.finish();
  }

  /** A line whose last character (at e, before blanks) is a letter. */
  private read(at: number, end: number, e: number): void {
    const text = this.text;
    let line: WordLine | undefined;
    let w = e;
    const sameCase = isUpper(text.charCodeAt(e)) ? isUpper : isLower;
    while (w >= at && e - w < 9 && sameCase(text.charCodeAt(w))) w--;
    // Its last word: 3 to 8 letters, after a blank (or none: the line's start); its first, after a few blanks, a letter, a list
    // number or a timestamp.
    if (e - w >= 3 && e - w <= 8 && (w < at || isSeparator(text.charCodeAt(w)))) {
      let k = at;
      while (k < end && k - at < 8 && isSeparator(text.charCodeAt(k))) k++;
      const c = text.charCodeAt(k);
      if (k < end && (isLetter(c) || isDigit(c) || c === 0x23)) line = wordLine(text, at, end);
    }
    if (!line) {
      if (this.block.length) this.finish();
      return;
    }
    // A line not next to the run's last (the walk skipped a fold's lines) starts a run of its own.
    if (this.block.length && at !== this.lastEnd + 1) this.finish();
    this.lastEnd = end;
    const block = this.block;
    block.push(line);
    if (block.length > MAX_PHRASE_LINES) {
      // Longer than any phrase over lines: only its lines alone can be phrases, and the stretch of short lines it cuts (if any)
      // is no phrase either, whatever of it is still to come (30 words a line each: not their last 24).
      const cut = block.splice(0, block.length - MAX_PHRASE_LINES);
      for (const l of cut) if (PHRASE_LENGTHS.has(countOf(l)) && isPhrase(wordsOf(text, [l]))) this.out.push({ start: l.start, end: l.end, kind: 'seed phrase', byContext: true });
      this.headCut = countOf(cut[cut.length - 1]) <= MAX_WORDS_PER_ROW && countOf(block[0]) <= MAX_WORDS_PER_ROW;
    }
  }

  /** The run read so far is over (call once the text's lines are all given). */
  finish(): void {
    if (this.block.length) flush(this.text, this.block, this.out, this.headCut);
    this.block = [];
    this.headCut = false;
  }
}

/**
 * A run of word lines: each line alone (a phrase on one line), and each stretch of short lines together (a phrase over lines: one
 * word a line, or a wallet's grid of a few a row).
 */
function flush(text: string, block: readonly WordLine[], out: SecretFinding[], headCut: boolean): void {
  let from = 0;
  for (let i = 0; i <= block.length; i++) {
    const l = block[i];
    if (l && countOf(l) <= MAX_WORDS_PER_ROW) continue;
    if (i - from > 1 && !(headCut && from === 0)) rows(text, block.slice(from, i), out);
    from = i + 1;
    if (l && PHRASE_LENGTHS.has(countOf(l)) && isPhrase(wordsOf(text, [l]))) out.push({ start: l.start, end: l.end, kind: 'seed phrase', byContext: true });
  }
}

function rows(text: string, run: readonly WordLine[], out: SecretFinding[]): void {
  let n = 0;
  for (const l of run) n += countOf(l);
  if (!PHRASE_LENGTHS.has(n) || !isPhrase(wordsOf(text, run)) || sortedDownColumns(text, run, n)) return;
  // Not remembered (byContext false): one line's word alone (`garment`) would be masked wherever it showed later.
  for (const l of run) out.push({ start: l.start, end: l.end, kind: 'seed phrase' });
}

/**
 * A phrase quoted on a line with other text (a command's argument in shell history: `cast wallet private-key "w1 … w12" 0`;
 * node's inspect of a wallet: `phrase: 'w1 … w12',`: adv192 F4, F34), or after a label's colon to its line's end (`Secret phrase:
 *   w1 … w12` of Substrate's `subkey generate`: F19): 12-24 words of the list, one blank between each, lower-case. The line walker
 * reads lines of words alone; these have more on them. Or a list of the words quoted one by one (Python's repr: `['point',
 * 'ticket', …]`: adv194 F16). Each try reads 24 words at most from its quote, colon or bracket: linear. With more text around
 * them than a line of words alone (or a diff's `+` line: adv201 F08), the phrase's checksum must hold too (a commit's subject of 12 listed words, `report any issue
 * inside local network before you leave office today please`, is prose: adv194 L5).
 */
const QUOTED_PHRASE = /(?<q>["'`])(?<w>(?:[a-z]{3,8} ){11,23}[a-z]{3,8})\k<q>|(?::[ \t]+|^[+-])(?<l>(?:[a-z]{3,8} ){11,23}[a-z]{3,8})[ \t]*\r?$|\[(?<list>(?:(?<lq>["'])[a-z]{3,8}\k<lq>,[ \t]?){11,23}["'][a-z]{3,8}["'])\]/dgm;

export function quotedPhrases(text: string, out: SecretFinding[], bytes?: Uint8Array): void {
  if (bytes === undefined) return phrasesIn(text, 0, out);
  // Each match holds MIN_PHRASE_SPAN phrase characters in a row (its 12+ words and their blanks, or its list's quoted words):
  // one byte in every MIN_PHRASE_SPAN is read, and only a line with such a stretch around a phrase character is searched.
  // (The pattern tried at every quote, colon and line start of the text was a twelfth of a reply's masking time.)
  const n = text.length;
  for (let p = MIN_PHRASE_SPAN - 1; p < n; p += MIN_PHRASE_SPAN) {
    if (PHRASE_CHAR[bytes[p]] === 0) continue;
    let s = p;
    while (s > 0 && PHRASE_CHAR[bytes[s - 1]] === 1) s--;
    let e = p + 1;
    while (e < n && PHRASE_CHAR[bytes[e]] === 1) e++;
    if (e - s >= MIN_PHRASE_SPAN) {
      const lineStart = text.lastIndexOf('\n', s) + 1;
      const nl = text.indexOf('\n', e);
      e = nl < 0 ? n : nl;
      phrasesIn(text.slice(lineStart, e), lineStart, out);
    }
    // The next stretch starts past this one's end: the byte MIN_PHRASE_SPAN - 1 past it is in any that is long enough.
    p = e;
  }
}

/** QUOTED_PHRASE's phrases in `text` (at offset `at` of the scanned text). */
function phrasesIn(text: string, at: number, out: SecretFinding[]): void {
  QUOTED_PHRASE.lastIndex = 0;
  for (let m = QUOTED_PHRASE.exec(text); m; m = QUOTED_PHRASE.exec(text)) {
    const g = m.groups!.w !== undefined ? 'w' : m.groups!.l !== undefined ? 'l' : 'list';
    const words = g === 'list' ? m.groups!.list.replace(/["',]/g, '').split(/[ \t]+/) : m.groups![g].split(' ');
    if (!isPhrase(words) || !validateMnemonic(words.join(' '), wordlist)) continue;
    const [start, end] = m.indices!.groups![g]!;
    out.push({ start: at + start, end: at + end, kind: 'seed phrase', byContext: true });
  }
}
/** The fewest characters in a row a QUOTED_PHRASE match holds of PHRASE_CHAR: 12 words of 3 letters and 11 blanks. */
const MIN_PHRASE_SPAN = 12 * 3 + 11;
/** By byte: 1 for a character of a phrase's stretch (its words' letters, blanks, a list's quotes and commas). */
const PHRASE_CHAR = new Uint8Array(256);
for (const c of 'abcdefghijklmnopqrstuvwxyz \t"\'`,') PHRASE_CHAR[c.charCodeAt(0)] = 1;

/** Is `text` (a decoded value: base64url of a backup file, adv201 F04) a phrase alone, its checksum holding? */
export function isPhraseText(text: string): boolean {
  const words = text.trim().split(/\s+/);
  return PHRASE_LENGTHS.has(words.length) && isPhrase(words) && validateMnemonic(words.join(' '), wordlist);
}

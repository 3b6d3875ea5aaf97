/**
 * A wallet's recovery words printed with no name near them (`cat wallet.secret` beside `wc -w`: adv161 F28): 12, 15, 18, 21 or
 * 24 words of BIP-39's English list, on one line, one a line, or numbered as wallets print them (`1. word  2. word`, ` 1  word`).
 * The word list is @scure/bip39's (MIT, audited, the one wallets' JavaScript tooling uses), not a copy kept here.
 *
 * No checksum is asked for: a real phrase always passes it, but a fake one made by hand (a test's, a demo's) seldom does and is
 * still what it looks like. Prose does not pass for one: the list has no `the`, `a`, `of`, `and`, `is`, `to`, and a run of 12+
 * listed words with nothing else on the lines is a phrase. Kept: the test phrases every tool documents (`test … junk`,
 * `abandon … about` / `… art`), words in the list's own order (a dump of the list, `ls` of directories named like words: sorted),
 * and one word repeated.
 */
import { wordlist } from '@scure/bip39/wordlists/english.js';
import type { SecretFinding } from './finding.js';

const WORD_INDEX = new Map<string, number>(wordlist.map((w, i) => [w, i]));
/** BIP-39's phrase lengths. */
const PHRASE_LENGTHS = new Set([12, 15, 18, 21, 24]);
/** Longest line read as a phrase's: 24 words of 8 letters, their numbers and blanks, with room for a wide layout's padding. */
const MAX_PHRASE_LINE = 480;
/** Lines a phrase is printed over at most (one word a line). */
const MAX_PHRASE_LINES = 24;
/** Words on one line of a phrase printed over several (a wallet's grid: 3 or 4 a row; 6 in some). */
const MAX_WORDS_PER_ROW = 6;

interface WordLine {
  start: number;
  end: number;
  /** Where its words are: [start, end) pairs (list numbers left out). */
  spans: number[];
}

const isBlank = (c: number) => c === 0x20 || c === 0x09 || c === 0x0d;
const isLower = (c: number) => c >= 0x61 && c <= 0x7a;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

/**
 * A line's word spans when it holds nothing but list words (3-8 lower-case letters), list numbers (`1.`, `12)`, `3:`) and blanks;
 * undefined as soon as anything else shows (most lines fail at their first characters, with nothing made).
 */
function wordLine(text: string, at: number, end: number): WordLine | undefined {
  if (end - at > MAX_PHRASE_LINE) return undefined;
  let spans: number[] | undefined;
  let first = -1;
  let last = -1;
  let i = at;
  while (i < end) {
    const c = text.charCodeAt(i);
    if (isBlank(c)) {
      i++;
      continue;
    }
    const from = i;
    if (isLower(c)) {
      while (i < end && isLower(text.charCodeAt(i))) i++;
      if (i - from < 3 || i - from > 8) return undefined;
      (spans ??= []).push(from, i);
    } else if (isDigit(c)) {
      while (i < end && isDigit(text.charCodeAt(i))) i++;
      if (i - from > 2) return undefined;
      const p = text.charCodeAt(i);
      if (p === 0x2e || p === 0x29 || p === 0x3a) i++;
    } else return undefined;
    if (i < end && !isBlank(text.charCodeAt(i))) return undefined;
    if (first < 0) first = from;
    last = i;
  }
  return spans ? { start: first, end: last, spans } : undefined;
}

const wordsOf = (text: string, lines: readonly WordLine[]): string[] => {
  const words: string[] = [];
  for (const l of lines) for (let k = 0; k < l.spans.length; k += 2) words.push(text.slice(l.spans[k], l.spans[k + 1]));
  return words;
};
const countOf = (l: WordLine) => l.spans.length / 2;

/** Are these words a phrase: each in the list, not a documented test phrase, not the list's own order, not one word repeated? */
function isPhrase(words: readonly string[]): boolean {
  if (!PHRASE_LENGTHS.has(words.length)) return false;
  let ascending = true;
  let previous = -1;
  for (const w of words) {
    const i = WORD_INDEX.get(w);
    if (i === undefined) return false;
    if (i <= previous) ascending = false;
    previous = i;
  }
  if (ascending) return false;
  const rest = words.slice(0, -1);
  if (rest.every((w) => w === rest[0])) return false;
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

  constructor(
    private readonly text: string,
    private readonly out: SecretFinding[],
  ) {}

  /** The line at [at, end) (end: its `\n` or the text's end). */
  readonly line = (at: number, end: number): void => {
    const text = this.text;
    if (at !== this.lastEnd + 1) this.finish();
    this.lastEnd = end;
    // A cheap first look: a phrase's line ends in a word's letter (a blank or a CR after it at most) and starts, after a few
    // blanks, with a letter or a list number.
    let e = end - 1;
    while (e > at && end - e < 4 && isBlank(text.charCodeAt(e))) e--;
    if (!isLower(text.charCodeAt(e))) return this.finish();
    let k = at;
    while (k < end && k - at < 8 && (text.charCodeAt(k) === 0x20 || text.charCodeAt(k) === 0x09)) k++;
    const c = text.charCodeAt(k);
    const line = k < end && (isLower(c) || (c >= 0x31 && c <= 0x39)) ? wordLine(text, at, end) : undefined;
    if (!line) return this.finish();
    const block = this.block;
    block.push(line);
    if (block.length > MAX_PHRASE_LINES) {
      // Longer than any phrase over lines: only its lines alone can be phrases.
      for (const l of block.splice(0, block.length - MAX_PHRASE_LINES)) if (PHRASE_LENGTHS.has(countOf(l)) && isPhrase(wordsOf(text, [l]))) this.out.push({ start: l.start, end: l.end, kind: 'seed phrase', byContext: true });
    }
  };

  /** The run read so far is over (call once the text's lines are all given). */
  finish(): void {
    if (this.block.length) flush(this.text, this.block, this.out);
    this.block = [];
  }
}

/**
 * A run of word lines: each line alone (a phrase on one line), and each stretch of short lines together (a phrase over lines: one
 * word a line, or a wallet's grid of a few a row).
 */
function flush(text: string, block: readonly WordLine[], out: SecretFinding[]): void {
  let from = 0;
  for (let i = 0; i <= block.length; i++) {
    const l = block[i];
    if (l && countOf(l) <= MAX_WORDS_PER_ROW) continue;
    if (i - from > 1) rows(text, block.slice(from, i), out);
    from = i + 1;
    if (l && PHRASE_LENGTHS.has(countOf(l)) && isPhrase(wordsOf(text, [l]))) out.push({ start: l.start, end: l.end, kind: 'seed phrase', byContext: true });
  }
}

function rows(text: string, run: readonly WordLine[], out: SecretFinding[]): void {
  let n = 0;
  for (const l of run) n += countOf(l);
  if (!PHRASE_LENGTHS.has(n) || !isPhrase(wordsOf(text, run))) return;
  // Not remembered (byContext false): one line's word alone (`garment`) would be masked wherever it showed later.
  for (const l of run) out.push({ start: l.start, end: l.end, kind: 'seed phrase' });
}

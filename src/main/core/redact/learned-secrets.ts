/**
 * Values masked once, masked everywhere later in the session: a token found in `TOKEN=ghp_…`
 * or a password found on a `mysql -p…` line is remembered (in memory only) with its kind, so
 * `echo` of the same value later, or the value in a context no rule knows, is masked too.
 *
 * Every reply is searched for every remembered value, so the search skips: a Wu-Manber scan
 * (shift table over 2-character blocks of the values' first MIN_LEARNED_CHARS characters)
 * looks at about one position in six of a text that holds none of them. The alternation
 * regexes it replaced read every character once per 64 values (on the bench: ~40% of a reply's
 * masking time with 128 values remembered). The scan reads the text's low bytes (low-bytes.ts:
 * ~1.7x faster than charCodeAt on a slice of a two-byte string, as most of the bench's replies
 * are); a candidate is checked on the text itself. A value learned is added to the index; one
 * forgotten stays in it, unused, until as many are forgotten as are remembered (rebuilding the
 * 64K table at every value learned cost ~3% of a reply's masking: the bench learns hundreds).
 */

import { LowBytes, SCRATCH_BYTES } from './low-bytes.js';
import { base64Kind } from './finding.js';

/** The kinds of a Basic credential's base64 (`basic auth`, `base64 basic auth credential`). */
const BASIC_KIND = /\bbasic auth\b/i;
export const isBasicKind = (kind: string): boolean => BASIC_KIND.test(kind);
/** Shorter values are not remembered: masking every later `admin1` or `8080` would shred output. */
export const MIN_LEARNED_CHARS = 8;
/** A multi-line value's line, without its indentation, its `\r`, a written-out `\n` and a string's quotes and joining `+` / `,`. */
const LINE_EDGES = /^[ \t"']+|(?:\\n)?["']?[ \t]*(?:[+,][ \t]*)?\r?$/g;
/**
 * A word in one case (`postgres`, `PASSWORD`, `rootroot`): masked where its context says it is a secret, never remembered. A
 * default password is also a scheme, a user, a container's name (`postgres://postgres:postgres@…` masked `docker ps`' image
 * and a placeholder `USER:PASSWORD@` the names `DB_PASSWORD`: adv12 S01, L04).
 */
const WORD = /^(?:[a-z]{1,16}|[A-Z]{1,16})$/;
/**
 * A piece of a remembered value at a cut or a line break that is no value's piece: a word of one case, a name's (`KLAVIYO_PRIVATE_`,
 * the ASCII column of a remembered `xxd` row), one character repeated (`000000000000` ending a placeholder UUID, the head of a
 * remembered row's offset `00000000:`: adv158 F47, masked in another command's `.env.example`).
 */
const NO_PIECE = /^(?:[a-z_]{1,64}|[A-Z_]{1,64}|(.)\1*)$/;
/** Is `v` from `p` on its last word alone, `v` having several (a piece without a blank of a value with blanks)? */
function lastWordOnly(v: string, p: number): boolean {
  return /\s/.test(v) && !/\s/.test(v.slice(p));
}

/**
 * Is `piece` a remembered `user:password`'s user (`octo-dev` of a decoded docker `auth`, ending a later file's `user: octo-dev`
 * line: pass 231 L10), with its colon or not? A login's name, shown everywhere its owner is; the password after it is the secret.
 */
// (Its URL form's too: `octo-dev%3A…`.)
function isUserPart(v: string, piece: string): boolean {
  const colon = v.search(/:|%3A/i);
  return colon > 0 && piece.length >= colon && piece.length <= colon + 3 && v.startsWith(piece.slice(colon), colon) && USER_PART.test(piece);
}
const USER_PART = /^[\w.@+-]{1,64}(?::|%3A)?$/i;
/**
 * A value with no letter and no digit is a placeholder or a drawing (`****************` a tool printed for a hidden password,
 * a rule of dashes): found once under a secret's name, it is not searched for later — it showed inside another placeholder
 * (`sk_live_****************4242`, a look-alike of adv97 L03, was cut by it).
 */
const HAS_LETTER_OR_DIGIT = /[A-Za-z0-9]/;
/** Values this long and up are also found by their end (addWithSuffix); shorter ones have too little left to tell. */
const MIN_SUFFIXED_CHARS = 24;
/** How much of a value's end finds it: 16 characters of a random secret are its own. */
const SUFFIX_CHARS = 16;
/** Values up to this long are cut into pieces for findAtCuts' lookup (128 of them: at most ~260,000 pieces). */
const MAX_GRAMMED_CHARS = 2048;
/** At most this many values (the oldest are forgotten first): bounds memory and the verification work per candidate. */
export const MAX_LEARNED = 128;

/** Characters per block of the shift table (2: a 64K table indexed by two UTF-16 units' hash). */
const BLOCK = 2;
const TABLE_BITS = 16;
const TABLE_MASK = (1 << TABLE_BITS) - 1;
/**
 * A hash whose values are more than this many is looked up by length (one Set lookup per length) rather than compared value by
 * value: values sharing a head (`Qm7xT2vK0…`, `Qm7xT2vK1…` of a credentials file's 40,000 rows, or every `sk_live_` key) are all
 * candidates wherever that head shows, and compared one by one they made a file of n such rows cost n² (32 s for 40,000).
 */
const MANY_CANDIDATES = 8;
/** Hash of the block ending at `i` of low bytes (a value's are taken by valueHash). */
const blockHash = (bytes: Uint8Array, i: number): number => ((bytes[i - 1] * 0x9e37) ^ bytes[i]) & TABLE_MASK;
const valueHash = (v: string, i: number): number => (((v.charCodeAt(i - 1) & 0xff) * 0x9e37) ^ (v.charCodeAt(i) & 0xff)) & TABLE_MASK;

interface Index {
  /** Window length: the shortest value's length, at most MIN_LEARNED_CHARS (values are at least that long). */
  m: number;
  /** Block hash → how far the window may move (0: a value's prefix may end here). */
  shift: Uint8Array;
  /** Block hash of a prefix's last block → the values with that prefix end. */
  candidates: Map<number, string[]>;
  /** The same values by length, for a hash with more than MANY_CANDIDATES of them (see MANY_CANDIDATES). */
  byLength: Map<number, Map<number, Set<string>>>;
  /** Values in the index (forgotten ones included, until the next build). */
  values: Set<string>;
  /** A long value's last SUFFIX_CHARS characters (an entry of the index too) → the value. */
  suffixes: Map<string, string>;
}

/** A percent escape (`%3D`), and a character a URL's userinfo or query must escape. */
const PERCENT_ESCAPE = /%[0-9A-Fa-f]{2}/;
const URL_RESERVED = /[@/:?#&=+ %]/;

/** The value percent-decoded when it holds escapes, or encoded when it holds a character a URL escapes; undefined if neither. */
function otherUrlForm(value: string): string | undefined {
  try {
    if (PERCENT_ESCAPE.test(value)) return decodeURIComponent(value);
    if (URL_RESERVED.test(value)) {
      const encoded = encodeURIComponent(value);
      return encoded === value ? undefined : encoded;
    }
  } catch {
    // A lone `%` or a broken escape: no other form.
  }
  return undefined;
}

/** Longer values whose head repeats in them are not remembered (see repeatsItsHead). */
const MAX_REPEATING_CHARS = 64;

/**
 * Does a long value repeat its first characters (`a3,a3,a3,…`, `xxxxxxxx…`)? The search compares a value wherever its head
 * shows: such a value's head shows every few characters of a text made of it, and each compare reads the whole value (51 s
 * for 1 MB of a .reg file's bytes). A random secret's head does not recur in it — or once, by chance, in a row of a key's
 * bytes (`0x09, 0xd2, … 0x30, 0x09, 0xfe, …` of `xxd -i`: adv59 F33), where a compare ends at the next byte: a head shown
 * twice or more after the first is a repeating value.
 */
function repeatsItsHead(value: string): boolean {
  if (value.length <= MAX_REPEATING_CHARS) return false;
  const head = value.slice(0, MIN_LEARNED_CHARS);
  const again = value.indexOf(head, 1);
  return again >= 0 && value.indexOf(head, again + 1) >= 0;
}

/** How every mask starts (redactor.ts `maskOf`). */
const MASK_OPEN = '[masked:';

/** A hex dump row's offset column and its blanks, before the row's first byte (LearnedSecrets.learn). */
const HEX_DUMP_OFFSET = /^[0-9a-f]{7,8}:? {1,2}(?=[0-9a-f]{2})/;

export class LearnedSecrets {
  /** Value → kind, oldest first. */
  private readonly kinds = new Map<string, string>();
  private index: Index | null = null;
  /** findAtCuts' pieces of the values (buildGrams), dropped at every value learned. */
  private grams: { set: Set<string>; long: boolean; hashes: Uint8Array } | null = null;
  /** Values forgotten since the index was built (they are still in it). */
  private stale = 0;
  private readonly lowBytes = new LowBytes();
  /** The text `lowBytes` holds now (find's, which findAtLineBreaks reads next) and its bytes: not made again. */
  private bytesOf: string | undefined;
  private lastBytes: Buffer | undefined;

  /** How many values are remembered (the oldest forgotten past it): MAX_LEARNED for a session's; one command's printed values, all. */
  constructor(private readonly capacity = MAX_LEARNED) {}

  /** `text`'s low bytes (low-bytes.ts), made once for find and findAtLineBreaks of the same text. */
  private bytes(text: string): Buffer {
    if (this.bytesOf === text && this.lastBytes !== undefined) return this.lastBytes;
    const bytes = this.lowBytes.of(text);
    // A text past the reused buffer's size gets bytes of its own: not kept (a 100 MB read's must not stay pinned).
    this.bytesOf = text.length < SCRATCH_BYTES ? text : undefined;
    this.lastBytes = this.bytesOf === undefined ? undefined : bytes;
    return bytes;
  }

  get size(): number {
    return this.kinds.size;
  }

  /**
   * Remembers `value` (a secret the scanner found) under `kind`, and its URL and JSON forms; `minLength`: lower for a value a
   * command printed alone (secret-printers.ts); `derived`: one of those forms.
   */
  learn(value: string, kind: string, minLength = MIN_LEARNED_CHARS, derived = false): void {
    // `'pw'` on a command line: the value is what is between the quotes.
    if (value.length > 2 && (value[0] === "'" || value[0] === '"') && value[value.length - 1] === value[0]) value = value.slice(1, -1);
    // A hex dump's row masked whole (`00000000: 6870 …  hp…`, hexdump -C's `00000000  68 70 …`): its offset is every dump's first
    // column, no part of the value — learned with it, the row's base64 began `MDAwMDAw` (`000000`) and that head masked the end
    // of an unrelated base64 line later in the session (pass 273 L28).
    value = value.replace(HEX_DUMP_OFFSET, '');
    // A value over several lines (a PuTTY key's private lines, a TOML string's, a wrapped base64 blob): each line's piece, as a
    // read's page that starts below the value's name shows it (adv50 F07, F19, F23).
    if (value.includes('\n')) {
      for (const line of value.split('\n')) this.learn(line.replace(LINE_EDGES, ''), kind, minLength);
      return;
    }
    // A piece of a mask (`[masked:` read as a cookie's value in a reply masked once already: closing measure 128 F08) is no value:
    // remembered, it garbled every mask after it.
    if (value.includes(MASK_OPEN)) return;
    if (value.length < minLength || this.kinds.has(value) || WORD.test(value) || !HAS_LETTER_OR_DIGIT.test(value) || repeatsItsHead(value)) return;
    this.kinds.set(value, kind);
    this.grams = null;
    if (this.kinds.size > this.capacity) {
      this.kinds.delete(this.kinds.keys().next().value!);
      this.stale++;
    }
    const index = this.index;
    if (!index || value.length < index.m || this.stale > MAX_LEARNED) this.index = null;
    else addWithSuffix(index, value, kind);
    // A form derived below is not derived from again (a JSON form's JSON form would escape its escapes, without end).
    if (derived) return;
    // Its other URL form: a value found in a URL is percent-encoded there and shown decoded elsewhere (a SAS `sig=…%3D`, then
    // Python's `parse_qs` dict `'sig': ['…=']`: adv27 F34); a password with `@` or `/` is shown encoded in a URL built from it.
    const other = otherUrlForm(value);
    if (other !== undefined) this.learn(other, kind, minLength, true);
    // Its forms in a JSON string: `"` and `\` escaped (a JSON log quoting it: adv54 F42), and `/` written `\/` too (PHP's
    // json_encode: adv50 F35).
    const json = JSON.stringify(value).slice(1, -1);
    if (json !== value) this.learn(json, kind, minLength, true);
    if (value.includes('/')) this.learn(json.replaceAll('/', '\\/'), kind, minLength, true);
    // A value a command printed alone (a printer's: learned with a lower minLength) in base64 too (`printf %s "$(aws configure get
    // …)" | base64 -w0`: adv64 F32), its padding left out (a substring either way); and a printed base64 value's decoded text (a
    // docker `auth` picked by jq, then decoded: `user:password`, and the password alone: adv64 F37). Only a printer's: forms for
    // every value would halve how many MAX_LEARNED holds, and slowed every reply's search (25 values remembered for 11).
    // A Basic credential's base64 (`Authorization: Basic …` in an access log), decoded later (`… | base64 -d`: adv172 F39): its
    // `user:password`, and the password alone.
    if (minLength >= MIN_LEARNED_CHARS) {
      if (isBasicKind(kind)) this.learnDecoded(value, kind, minLength);
      return;
    }
    if (value.length >= MIN_ENCODED_CHARS) this.learn(Buffer.from(value).toString('base64').replace(/=+$/, ''), base64Kind(kind), minLength, true);
    this.learnDecoded(value, kind, minLength);
  }

  /** A base64 value's decoded text (`user:password`), and what follows its first colon (the password). */
  learnDecoded(value: string, kind: string, minLength: number): void {
    const plain = decodedText(value);
    if (plain === undefined) return;
    this.learn(plain, kind, minLength, true);
    const colon = plain.indexOf(':');
    if (colon > 0 && plain.length - colon - 1 >= MIN_LEARNED_CHARS) this.learn(plain.slice(colon + 1), kind, minLength, true);
  }

  /** Ranges of the remembered values in `text` (overlaps included: the masker merges). */
  find(text: string, out: { start: number; end: number; kind: string }[]): void {
    if (this.kinds.size === 0) return;
    const index = (this.index ??= this.build());
    const { m, shift, candidates } = index;
    // (Made again for each call: a text equal to the last but another string is compared whole; the search is longer anyway.)
    this.bytesOf = undefined;
    const bytes = this.bytes(text);
    // The end of the text found so far: a value that would end inside it adds nothing, and is not compared (a long remembered
    // value of one repeated character, `DB_PASSWORD=[-aaaa…`, matched at every position, each compare as long as the value:
    // 162 s for 300 KB).
    let covered = -1;
    for (let i = m - 1; i < text.length; ) {
      const h = blockHash(bytes, i);
      const s = shift[h];
      if (s > 0) {
        i += s;
        continue;
      }
      const start = i - m + 1;
      const lengths = index.byLength.get(h);
      for (const v of lengths ? matchesByLength(text, start, covered, lengths) : (candidates.get(h) ?? [])) {
        if (start + v.length <= covered || !text.startsWith(v, start)) continue;
        covered = start + v.length;
        const kind = this.kinds.get(v);
        if (kind !== undefined) out.push({ start, end: start + v.length, kind });
        const whole = index.suffixes.get(v);
        const wholeKind = whole === undefined ? undefined : this.kinds.get(whole);
        if (whole !== undefined && wholeKind !== undefined) {
          // The value's end: as much of the value before it as the text shows too (the rest was drawn over), to a blank (a
          // remembered line's words before its value are no part of the value's end: `SERVICE_TOKEN x = <token>`).
          let b = start;
          for (let j = whole.length - v.length; j > 0 && b > 0 && text.charCodeAt(b - 1) === whole.charCodeAt(j - 1) && text.charCodeAt(b - 1) > 0x20; j--) b--;
          out.push({ start: b, end: start + v.length, kind: wholeKind });
        }
      }
      i++;
    }
  }

  /**
   * The pieces of remembered values on each side of a cut (the squasher's `… [+125 chars] …` in a long line: adv20 F08, an Azure
   * key whose name and head were cut away and whose tail showed): after a cut, text that is a value's end (its last
   * MIN_LEARNED_CHARS characters and up); before one, text that is a value's start. Cuts are few (one per long line), values
   * at most MAX_LEARNED: one indexOf per value and side.
   */
  findAtCuts(text: string, cuts: readonly { start: number; end: number }[], out: { start: number; end: number; kind: string }[]): void {
    if (this.kinds.size === 0) return;
    const n = MIN_LEARNED_CHARS;
    const grams = (this.grams ??= this.buildGrams());
    for (const cut of cuts) {
      const after = text.slice(cut.end, cut.end + n);
      const before = cut.start >= n ? text.slice(cut.start - n, cut.start) : '';
      if (!grams.long && !grams.set.has(after) && !grams.set.has(before)) continue;
      // The longest piece on each side (one finding a side, however many values share the piece).
      let tail: { end: number; kind: string } | undefined;
      let head: { start: number; kind: string } | undefined;
      for (const [v, kind] of this.kinds) {
        if (after.length === n) {
          for (let p = v.indexOf(after, 1); p >= 0; p = v.indexOf(after, p + 1)) {
            // (A value of several words ends in its last word alone, which is no value's piece: a remembered `xxd` row's ASCII
            // column, `[smtp.relay.exam`, began a later file's line `[smtp.relay.example.com]:587`: pass 255 L23.)
            if (text.startsWith(v.slice(p), cut.end) && !lastWordOnly(v, p)) {
              if (!tail || cut.end + v.length - p > tail.end) tail = { end: cut.end + v.length - p, kind };
              break;
            }
          }
        }
        if (before.length === n) {
          for (let p = v.indexOf(before); p >= 0 && p + n < v.length; p = v.indexOf(before, p + 1)) {
            const piece = v.slice(0, p + n);
            if (text.startsWith(piece, cut.start - piece.length) && !isUserPart(v, piece) && !(/\s/.test(v) && !/\s/.test(piece))) {
              if (!head || cut.start - piece.length < head.start) head = { start: cut.start - piece.length, kind };
              break;
            }
          }
        }
      }
      // A piece that is a word of one case (`password`, the head of a remembered `password123`, as a manifest's `key: password`
      // ends its line: adv72 L29) is that word, not a value's piece.
      if (tail && !NO_PIECE.test(text.slice(cut.end, tail.end))) out.push({ start: cut.end, end: tail.end, kind: tail.kind });
      if (head && !NO_PIECE.test(text.slice(head.start, cut.start))) out.push({ start: head.start, end: cut.start, kind: head.kind });
    }
  }

  /**
   * findAtCuts at each line break of `text` and at its end (a closing quote before either is the line's: a status line's
   * `last: "…"`): a value's head ending a line, its end starting one (a window of one of the lines a wrap cut it over; a command
   * still printing the value: adv50 F31, F33, F38). Only the breaks with a remembered piece on a side are asked about.
   */
  findAtLineBreaks(text: string, out: { start: number; end: number; kind: string }[]): void {
    if (this.kinds.size === 0) return;
    const grams = (this.grams ??= this.buildGrams());
    const cuts: { start: number; end: number }[] = [];
    // On the text's low bytes: a byte search for each line break, a hash of bytes at each side (a two-byte text's `indexOf('\n')`
    // and charCodeAt reads took ~4% of a reply's masking once the session remembered values).
    const bytes = this.bytes(text);
    for (let nl = bytes.indexOf(0x0a); ; nl = bytes.indexOf(0x0a, nl + 1)) {
      // (The buffer ends with a newline of its own at text.length, and a character past 0xFF may read as one: the text says.)
      if (nl >= text.length) nl = -1;
      else if (nl >= 0 && text.charCodeAt(nl) !== 0x0a) continue;
      const last = nl < 0;
      let start = last ? text.length : nl > 0 && text.charCodeAt(nl - 1) === 0x0d ? nl - 1 : nl;
      const end = last ? text.length : nl + 1;
      // A closing quote, or a cut's `…` (a `last_line` cut at 120 characters: adv54 F46), before the break is the line's.
      if (text.charCodeAt(start - 1) === 0x22) start--;
      if (text.charCodeAt(start - 1) === 0x2026) start--;
      if (grams.long || hasGram(text, bytes, start - MIN_LEARNED_CHARS, grams) || hasGram(text, bytes, end, grams)) cuts.push({ start, end });
      if (last) break;
    }
    if (cuts.length > 0) this.findAtCuts(text, cuts, out);
  }

  /** Every MIN_LEARNED_CHARS-long piece of the remembered values (a cut's sides are looked up here first); `long`: a value too long to be cut into pieces, so every cut asks every value. */
  private buildGrams(): { set: Set<string>; long: boolean; hashes: Uint8Array } {
    const set = new Set<string>();
    const hashes = new Uint8Array(1 << GRAM_HASH_BITS);
    let long = false;
    for (const v of this.kinds.keys()) {
      if (v.length > MAX_GRAMMED_CHARS) long = true;
      else
        for (let i = 0; i + MIN_LEARNED_CHARS <= v.length; i++) {
          set.add(v.slice(i, i + MIN_LEARNED_CHARS));
          hashes[gramHash(Buffer.from(v, 'latin1'), i)] = 1;
        }
    }
    return { set, long, hashes };
  }

  private build(): Index {
    let m = MIN_LEARNED_CHARS;
    for (const v of this.kinds.keys()) m = Math.min(m, v.length);
    const index: Index = { m, shift: new Uint8Array(1 << TABLE_BITS).fill(m - BLOCK + 1), candidates: new Map(), byLength: new Map(), values: new Set(), suffixes: new Map() };
    for (const [v, kind] of this.kinds) addWithSuffix(index, v, kind);
    this.stale = 0;
    return index;
  }
}

/** Is text[at, at + MIN_LEARNED_CHARS) a remembered piece? Its hash first (no copy of the text), the set only where that matches. */
function hasGram(text: string, bytes: Uint8Array, at: number, grams: { set: Set<string>; hashes: Uint8Array }): boolean {
  return at >= 0 && at + MIN_LEARNED_CHARS <= text.length && grams.hashes[gramHash(bytes, at)] === 1 && grams.set.has(text.slice(at, at + MIN_LEARNED_CHARS));
}

/** Bits of gramHash: a table of 64 K entries, one byte each. */
const GRAM_HASH_BITS = 16;
/** A hash of the low bytes [at, at + MIN_LEARNED_CHARS) (a text's and a value's alike: equal texts, equal hashes). */
function gramHash(bytes: Uint8Array, at: number): number {
  let h = 0;
  for (let i = 0; i < MIN_LEARNED_CHARS; i++) h = (Math.imul(h, 31) + bytes[at + i]) | 0;
  return (h ^ (h >>> GRAM_HASH_BITS)) & ((1 << GRAM_HASH_BITS) - 1);
}

/** Puts `v` (at least `index.m` long) in the index. */
/**
 * `v` and, for a long value, its last SUFFIX_CHARS characters: a value whose start a terminal drew over (`API_SECRET=…` then `\r`
 * and a progress bar shorter than the line: the line shows the bar and the value's end, adv25 F25) is found by its end.
 */
function addWithSuffix(index: Index, v: string, kind: string): void {
  add(index, v);
  // A token's end only: a value with blanks (a remembered line, a value cut by the squasher's mark) is found whole. Not a private
  // key's line: an OpenSSH key holds its public key, and a line's end is the public key's middle in the `.pub` printed next
  // (adv70 L10: `ssh-ed25519 AAAAC3…IA[masked: private key]kcFf…`); a key's lines are found whole, and its block by its shape.
  if (v.length < MIN_SUFFIXED_CHARS || /\s/.test(v) || kind.endsWith('private key')) return;
  const suffix = v.slice(-SUFFIX_CHARS);
  // (Nor an end that is a name or a word: a remembered `xxd` row's URL form ends in its ASCII column, `KLAVIYO_PRIVATE_`: adv158 F47.)
  if (index.suffixes.has(suffix) || index.values.has(suffix) || NO_PIECE.test(suffix)) return;
  index.suffixes.set(suffix, v);
  add(index, suffix);
}

function add(index: Index, v: string): void {
  if (index.values.has(v)) return;
  index.values.add(v);
  const { m, shift, candidates } = index;
  for (let j = BLOCK - 1; j < m; j++) {
    const h = valueHash(v, j);
    shift[h] = Math.min(shift[h], m - 1 - j);
  }
  const h = valueHash(v, m - 1);
  const list = candidates.get(h);
  if (list) list.push(v);
  else candidates.set(h, [v]);
  if ((list?.length ?? 1) <= MANY_CANDIDATES) return;
  let lengths = index.byLength.get(h);
  if (!lengths) {
    lengths = new Map();
    index.byLength.set(h, lengths);
    for (const w of list!) addByLength(lengths, w);
  } else addByLength(lengths, v);
}

function addByLength(lengths: Map<number, Set<string>>, v: string): void {
  const set = lengths.get(v.length);
  if (set) set.add(v);
  else lengths.set(v.length, new Set([v]));
}

/** The values of `lengths` that `text` holds at `start` (none ending inside `covered`): one lookup per length, not a compare per value. */
function matchesByLength(text: string, start: number, covered: number, lengths: Map<number, Set<string>>): string[] {
  const found: string[] = [];
  for (const [n, set] of lengths) {
    if (start + n <= covered || start + n > text.length) continue;
    const piece = text.slice(start, start + n);
    if (set.has(piece)) found.push(piece);
  }
  // The longest first: a shorter value inside it adds nothing (find's `covered`).
  return found.length > 1 ? found.sort((a, b) => b.length - a.length) : found;
}

/** A value this long and up is remembered in base64 too (a shorter one's base64 is a common word's). */
const MIN_ENCODED_CHARS = 12;

/** A base64 value's text, when it is one (printable ASCII, 8 characters and up): `dXNlcjpwYXNz…` → `user:pass…`. */
function decodedText(value: string): string | undefined {
  if (value.length < 12 || value.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return undefined;
  const text = Buffer.from(value, 'base64').toString('latin1');
  return text.length >= 8 && /^[\x20-\x7e]+$/.test(text) ? text : undefined;
}

/**
 * Dedup engine: line templates and the two ways lines collapse.
 *  - `templateOf` normalises the volatile parts of a line (hashes, UUIDs, timestamps, paths,
 *    numbers) so `Compiling foo v1.2.3` lines share one template;
 *  - `DedupGroups`: grammar noise marked `dedup`, one group per template with a count, and
 *    the first and last line kept (so `npm warn deprecated a … z (x4)` still names both ends);
 *  - `RunCollector`: unclassified lines in order, consecutive lines of one template folded
 *    into a run (first line, count, last line), head and tail kept, the middle counted with
 *    an exact marker. `seq 1 5000` becomes `1`, `[... 4998 similar lines ...]`, `5000` —
 *    the range survives; distinct names without a shared template are never merged.
 * Everything here is a pure function of the line sequence: the same output always gives the
 * same counts, however it was chunked or timed.
 */
import type { BodyLine, DedupGroup } from './types.js';

/**
 * The line with its volatile parts replaced: a whitespace-separated token containing `/` is
 * a path (`{p}`); inside other tokens every run that starts with a digit and continues
 * with hex digits or `.,:_-` is a number, version, hash or time (`#`). Hand-written scanning
 * rather than a RegExp replace: it runs on every unclassified line and is ~5x faster.
 */
export function templateOf(text: string): string {
  const n = text.length;
  let out = '';
  let copied = 0;
  let tokenStart = 0;
  let changed = false;
  // Next '/', ' ' and '\t' at or after a position, found with indexOf and reused while still
  // ahead (a line with many numbers would otherwise rescan to the next slash for each one).
  let slashAt = -2;
  let spaceAt = -2;
  let tabAt = -2;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 32;
    // Letters and most punctuation sort above '9': nothing to do (the common case).
    if (c > 57) continue;
    if (c === 32 || c === 9) {
      tokenStart = i + 1;
      continue;
    }
    if (c === 47 /* / */) {
      // A path: the whole token becomes {p}; skip to its end.
      if (spaceAt < i) spaceAt = nextSpace(text, i);
      if (tabAt !== -1 && tabAt < i) tabAt = text.indexOf('\t', i);
      const end = tabAt >= 0 && tabAt < spaceAt ? tabAt : spaceAt;
      out += text.slice(copied, tokenStart) + '{p}';
      copied = end;
      changed = true;
      tokenStart = end + 1;
      i = end;
      continue;
    }
    if (c >= 48) {
      // A numeric run: digits, hex letters and separators.
      const j = runEnd(text, i + 1);
      if (slashAt !== -1 && slashAt < j) slashAt = text.indexOf('/', j);
      if (spaceAt < j) spaceAt = nextSpace(text, j);
      if (slashAt >= 0 && spaceAt > slashAt) {
        // The token turns out to be a path: leave it to the token rule.
        i = j - 1;
        continue;
      }
      out += text.slice(copied, i) + '#';
      copied = j;
      changed = true;
      i = j - 1;
    }
  }
  return changed ? out + text.slice(copied) : text;
}

/** Longest line and most variable parts a group matcher is built for (bigger ones strain the RegExp compiler; they use templateOf). */
const MAX_MATCHER_CHARS = 8192;
const MAX_MATCHER_PIECES = 256;

/**
 * A numeric run as templateOf reads it: starts with a digit, maximal. Maximal without a
 * lookahead: in a matcher a run is always followed by the end or by literal text that starts
 * with a character no run contains (the character that ended the run in the line the matcher
 * was built from; a `/` in sameRunRegExp), so a shorter run could never be followed by it.
 * Lookarounds made each matcher 1.5–3x slower (make-build-large's gcc lines).
 */
const RUN_SOURCE = String.raw`\d[\da-fA-F.,:_-]*`;
/**
 * A whole space-delimited token containing a slash. Whole without lookarounds: in a matcher
 * it follows the start or literal text ending in a space, and is followed by the end or
 * literal text starting with one.
 */
const PATH_SOURCE = String.raw`[^ /]*\/[^ ]*`;

/**
 * A RegExp that matches exactly the lines whose `templateOf` equals `templateOf(text)`, so a
 * line can be recognised as belonging to a known group by one native match instead of a
 * character walk. Built from the walk over `text` (not from the template string, whose `#`
 * and `{p}` could also be literal text). Only for lines without tabs, where the template's
 * literal pieces contain no digit and no slash, which is what makes the match exact: every
 * digit of a matching line falls in a run and every slash in a path token, as in templateOf.
 * Undefined for a line with a tab (those take the templateOf path).
 */
export function templateRegExp(text: string): RegExp | undefined {
  if (text.indexOf('\t') >= 0 || text.length > MAX_MATCHER_CHARS) return undefined;
  const n = text.length;
  const m = new MatcherSource(text);
  let tokenStart = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c > 57) continue;
    if (c === 32) {
      tokenStart = i + 1;
      continue;
    }
    if (c === 47 /* / */) {
      const end = nextSpace(text, i);
      if (!m.part(tokenStart, end, PATH_SOURCE)) return undefined;
      tokenStart = end + 1;
      i = end;
      continue;
    }
    if (c >= 48) {
      const j = runEnd(text, i + 1);
      const slash = text.indexOf('/', j);
      if (slash >= 0 && nextSpace(text, j) > slash) {
        i = j - 1; // the token is a path: the slash branch takes it
        continue;
      }
      if (!m.part(i, j, RUN_SOURCE)) return undefined;
      i = j - 1;
    }
  }
  return m.finish();
}

/**
 * The source of an anchored matcher for one line, built left to right: the line's literal
 * stretches (escaped) with a pattern standing for each variable part between them.
 */
class MatcherSource {
  private src = '^';
  private copied = 0;
  private pieces = 0;

  constructor(private readonly text: string) {}

  /** The literal text up to `from`, then `pattern` for text[from, to). False past MAX_MATCHER_PIECES parts. */
  part(from: number, to: number, pattern: string): boolean {
    if (++this.pieces > MAX_MATCHER_PIECES) return false;
    this.src += escapeRegExp(this.text.slice(this.copied, from)) + pattern;
    this.copied = to;
    return true;
  }

  /** The matcher (the rest of the line literal), or undefined if the RegExp compiler refuses it. */
  finish(): RegExp | undefined {
    try {
      return new RegExp(this.src + escapeRegExp(this.text.slice(this.copied)) + '$');
    } catch {
      return undefined;
    }
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

/**
 * `templateOf(a) === templateOf(b)` without building either string: consecutive unclassified
 * lines are compared on every line, so this must not allocate.
 */
export function sameTemplate(a: string, b: string): boolean {
  if (a === b) return true;
  // Numeric runs compare equal whatever their digits; a token with a slash at the same place
  // in both lines is a path in both, compared no further (like `{p}` in templateOf).
  const na = a.length;
  const nb = b.length;
  let i = 0;
  let j = 0;
  while (i < na && j < nb) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(j);
    if (ca === 47 && cb === 47) {
      i = nextSpace(a, i);
      j = nextSpace(b, j);
      continue;
    }
    const da = ca >= 48 && ca <= 57;
    const db = cb >= 48 && cb <= 57;
    if (da !== db) return false;
    if (da) {
      i = runEnd(a, i + 1);
      j = runEnd(b, j + 1);
      continue;
    }
    if (ca !== cb) return false;
    i++;
    j++;
  }
  if (i < na || j < nb) {
    // Trailing parts must both be empty (a slash in a remaining path is handled above).
    return false;
  }
  return true;
}

/** Where the numeric run going on at `from` ends (`from` itself if none). */
function runEnd(text: string, from: number): number {
  let j = from;
  while (j < text.length && isRunChar(text.charCodeAt(j))) j++;
  return j;
}

function isRunChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70) || c === 46 || c === 44 || c === 58 || c === 95 || c === 45;
}

function nextSpace(text: string, from: number): number {
  const a = text.indexOf(' ', from);
  return a < 0 ? text.length : a;
}

/**
 * A word of hex digits and letters mixing both, six or more long: a request id, a hash, a
 * UUID part (`req-ed9cf6`, `7f3a9c1e`). templateOf only sees the part from the first digit on
 * (`ed#`), so ids that start with a letter would each make their own group; for grouping they
 * are all one id. (A group's matcher still accepts exactly its first line's templateOf.)
 */
const HEX_ID = /(?<![\w.])(?:(?=[0-9a-fA-F]*[a-fA-F])(?=[0-9a-fA-F]*\d)[0-9a-fA-F]{6,}|(?<=[-_=:#])[a-fA-F]{6,})(?![\w])/g;

/** HEX_ID as a RegExp: the specification maskHexIds implements (its test compares the two). */
export const HEX_ID_RE = HEX_ID;

/**
 * The line with each HEX_ID word replaced by `0` (a group key's input). A hand-written scan of
 * HEX_ID rather than `text.replace(HEX_ID, '0')`: it runs on every noise line whose group has no
 * matcher yet, and the RegExp's lookarounds made it ~8% of a large cargo build's squashing (the
 * scan skips each word in one step and allocates nothing when nothing is masked).
 */
export function maskHexIds(text: string): string {
  const n = text.length;
  let out = '';
  let copied = 0;
  // A masked word is a whole word of hex characters: a maximal run of six or more of them with
  // no word character on either side. One pass counts hex runs without a branch on each
  // character's kind (hex and other letters alternate unpredictably in words: a branch per
  // character was mispredicted often enough to cost twice the loop); a native search for the
  // runs was slower still on this text, rich in the letters a–f.
  let run = 0;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 32;
    const k = c < 128 ? CHAR_CLASS[c] : 0;
    const hex = (k >> 1) | (k >> 2);
    if (run >= 6 && hex === 0 && (k & WORD) === 0) {
      const start = i - run;
      const before = start > 0 ? text.charCodeAt(start - 1) : -1;
      // Not after a dot or inside a word; mixed hex anywhere, or letters only right after
      // - = : # (HEX_ID's two alternatives).
      if (before !== 46 /* . */ && (before < 0 || before >= 128 || (CHAR_CLASS[before] & WORD) === 0)) {
        let seen = 0;
        for (let j = start; j < i; j++) seen |= CHAR_CLASS[text.charCodeAt(j)];
        const digits = (seen & DIGIT) !== 0;
        if ((digits && (seen & HEX_LETTER) !== 0) || (!digits && (before === 45 || before === 61 || before === 58 || before === 35))) {
          out += text.slice(copied, start) + '0';
          copied = i;
        }
      }
    }
    run = (run + 1) * (hex & 1);
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Classes of ASCII characters for maskHexIds (a table read beats range tests per character). */
const WORD = 1;
const DIGIT = 2;
const HEX_LETTER = 4;
const CHAR_CLASS = (() => {
  const t = new Uint8Array(128);
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    if (/\w/.test(ch)) t[c] |= WORD;
    if (/\d/.test(ch)) t[c] |= DIGIT;
    if (/[a-fA-F]/.test(ch)) t[c] |= HEX_LETTER;
  }
  return t;
})();

/** Recent groups a line is matched against before its template is built (interleaved kinds of noise). */
const RECENT_GROUPS = 4;
/**
 * A group gets its matcher at its 16th line. Building one costs about five templateOf calls
 * (15 µs for a 2 KB cargo `Running` line), and most templates of a long build come a few times
 * only (cargo: 96 `Running` templates, ~3 lines each): built at the second line, matchers were
 * mostly built for nothing, and each stale one in the recent list cost a failed match.
 */
const GROUP_MATCHER_AFTER = 16;

/** A run this long gets a native matcher (shorter ones are compared with sameTemplate). */
const RUN_MATCHER_AFTER = 8;
/**
 * A run gets its quietRunRegExp at this many lines: a run this long is a loop's output and goes
 * on, so the RegExp's compilation (microseconds) is repaid at ~75 ns a line; npm's many short
 * runs of eight to a few dozen lines would only pay for it (0.97x on npm-install-large at 8).
 */
const QUIET_MATCHER_AFTER = 64;
/** A slash and the rest of its space-delimited word, as sameTemplate skips it (followed by the end or a space, as PATH_SOURCE). */
const SLASH_SKIP_SOURCE = String.raw`\/[^ ]*`;

/**
 * A RegExp that accepts exactly the lines `b` with `sameTemplate(text, b)`. sameTemplate is
 * equality after a canonical form (each numeric run → one mark, each `/` plus the rest of its
 * space-delimited word → one mark, other characters as they are), so every line of a run has
 * the same form and one matcher built from the run's first line serves the whole run. Its
 * literal pieces hold no digit and no slash, so a match can only split a line the same way.
 * Undefined for very long or very varied lines (sameTemplate is used for those).
 */
export function sameRunRegExp(text: string): RegExp | undefined {
  if (text.length > MAX_MATCHER_CHARS) return undefined;
  const n = text.length;
  const m = new MatcherSource(text);
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 47 /* / */) {
      const end = nextSpace(text, i);
      if (!m.part(i, end, SLASH_SKIP_SOURCE)) return undefined;
      i = end - 1;
    } else if (c >= 48 && c <= 57) {
      const j = runEnd(text, i + 1);
      if (!m.part(i, j, RUN_SOURCE)) return undefined;
      i = j - 1;
    }
  }
  return m.finish();
}

/**
 * A RegExp for the lines of a run that cannot mention an error word, or undefined: those
 * sameRunRegExp(text) accepts whose path words (from a slash to the next space) are text's own,
 * when text holds no MAYBE_ERROR_WORD piece and no numeric run in it is followed by a letter.
 * Why such a line cannot hold one: every piece is letters only and holds a letter that is no hex
 * digit (error-word tests), so none lies inside a numeric run (`\d[\da-fA-F.,:_-]*`), none starts
 * in one (a letter must follow it) and none ends in one (it starts with a digit): each lies in
 * text between runs, the same in text, which holds none. A long run of a build's step lines
 * (`Compiling module 000123 of … (target/debug/build)`) is then matched once a line, where the
 * error-word test scanned it as well (~75 ns).
 */
export function quietRunRegExp(text: string): RegExp | undefined {
  if (text.length > MAX_MATCHER_CHARS || MAYBE_ERROR_WORD.test(text)) return undefined;
  const n = text.length;
  const m = new MatcherSource(text);
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 47 /* / */) i = nextSpace(text, i) - 1; // the path word as it is (literal)
    else if (c >= 48 && c <= 57) {
      const j = runEnd(text, i + 1);
      if (j < n && isAsciiLetter(text.charCodeAt(j))) return undefined;
      if (!m.part(i, j, RUN_SOURCE)) return undefined;
      i = j - 1;
    }
  }
  return m.finish();
}

function isAsciiLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** A group's matchers: templateRegExp of one of its lines, and keyMatcher of the same line. */
interface GroupMatcher {
  group: DedupGroup;
  re: RegExp;
  key: KeyMatcher | undefined;
}

/**
 * A group's key, as `groups` holds it: the template of the line with its hex ids masked.
 * Per space-delimited token, for a line without tabs (see keyMatcher).
 */
export function groupKey(text: string): string {
  return templateOf(maskHexIds(text));
}

/** A whole space-delimited token with a slash: its key is `{p}` whatever else it holds. */
const PATH_TOKEN_SOURCE = String.raw`[^ /]*\/[^ ]*`;
/**
 * Characters that split a token into pieces with keys of their own: ASCII punctuation that is
 * neither a word character, a hex digit, a character of a numeric run (`.,:_-`), a slash, nor
 * one of the characters maskHexIds looks at before a word (`.-=:#`). Next to one of them a hex
 * word or a numeric run begins and ends as at the end of the text. JSON's quotes and braces are
 * among them, so a pino line's one long token is checked piece by piece.
 */
const PIECE_BREAKS = '!"$%&\'()*+;<>?@\\[\\\\\\]^`{|}~';
const PIECE_SPLIT = new RegExp(`([${PIECE_BREAKS}])`);
/** A piece of a token without a slash, captured: its key is checked in JS. */
const PIECE_SOURCE = `([^ /${PIECE_BREAKS}]*)`;

/**
 * A matcher for the lines whose groupKey equals the group's key, where templateRegExp misses
 * them: cargo's 1.4 KB `Running` lines carry two 16-digit hashes, and a hash that starts with
 * a letter (`metadata=c02…`) gives another templateOf than one that starts with a digit
 * (`metadata=921…`), while both mask to the same key. Without it those lines (a quarter of a
 * large cargo build's noise) paid maskHexIds and templateOf over the whole line, ~15 µs each.
 *
 * Exact by construction. For a line without tabs, groupKey works token by token: templateOf
 * turns a space-delimited token with a slash into `{p}` and otherwise rewrites numeric runs,
 * which never contain a space; maskHexIds masks whole hex words, which never contain a space,
 * and a space before or after a word counts as the line's start or end does (neither a dot,
 * a word character nor one of `-=:#`). So groupKey(line) is the keys of its tokens joined with
 * single spaces; the same holds for the pieces of a token without a slash, split at
 * PIECE_BREAKS. Two lines share a key when they have as many tokens and pieces, the same
 * breaks, and each pair of pieces shares a key. The matcher has one part per token or piece of
 * the group's line, and no part can match a space, a break or (but for a path token) a slash,
 * so a line it accepts is split the same way: a piece whose key is itself (no digit, nothing
 * masked, no `#`) must be there literally, a token with a slash accepts any token with a
 * slash, and any other piece is captured and its key computed and compared in `keyMatches`
 * (pieces are short: `metadata=c026885e618c42c6`, `unit17`, `:1795718545170,`).
 * Undefined for a line with a tab or past the matcher limits.
 */
export interface KeyMatcher {
  re: RegExp;
  /** The keys the captured pieces must have, in order. */
  keys: string[];
  /** The captured pieces of the line it was built from: a piece equal to its own has its key (most do: `--edition=2021`). */
  pieces: string[];
}

export function keyMatcher(text: string): KeyMatcher | undefined {
  if (text.indexOf('\t') >= 0 || text.length > MAX_MATCHER_CHARS) return undefined;
  const tokens = text.split(' ');
  const keys: string[] = [];
  const captured: string[] = [];
  let src = '^';
  for (let i = 0; i < tokens.length; i++) {
    if (i > 0) src += ' ';
    const t = tokens[i];
    if (t.indexOf('/') >= 0) {
      src += PATH_TOKEN_SOURCE;
      continue;
    }
    // Pieces at even indexes, the breaks between them at odd ones.
    const parts = t.split(PIECE_SPLIT);
    for (let j = 0; j < parts.length; j++) {
      const piece = parts[j];
      const k = j % 2 === 1 ? piece : groupKey(piece);
      if (k === piece && piece.indexOf('#') < 0) {
        src += escapeRegExp(piece);
        continue;
      }
      if (keys.push(k) > MAX_MATCHER_PIECES) return undefined;
      captured.push(piece);
      src += PIECE_SOURCE;
    }
  }
  try {
    return { re: new RegExp(src + '$'), keys, pieces: captured };
  } catch {
    return undefined;
  }
}

/** Does a line without tabs have the key keyMatcher `m` was built for? */
export function keyMatches(m: KeyMatcher, text: string): boolean {
  const r = m.re.exec(text);
  if (r === null) return false;
  const keys = m.keys;
  const pieces = m.pieces;
  for (let j = 0; j < keys.length; j++) {
    const piece = r[j + 1];
    if (piece !== pieces[j] && groupKey(piece) !== keys[j]) return false;
  }
  return true;
}

/** Most distinct noise templates we track; further ones are only counted. */
export const MAX_DEDUP_GROUPS = 64;

export class DedupGroups {
  /** keyMatchers: false leaves key matchers out (the test that shows they change no count). */
  constructor(private readonly keyMatchers = true) {}

  private readonly groups = new Map<string, DedupGroup>();
  /** Lines whose template arrived after the group cap (counted, with where they were, for the marker). */
  overflowLines = 0;
  overflowFirstNo = 0;
  overflowLastNo = 0;

  /** Groups of the latest lines, newest first, with their exact matchers (templateRegExp). */
  private readonly recent: GroupMatcher[] = [];

  add(text: string, no: number): void {
    const recent = this.recent;
    let g: DedupGroup | undefined;
    if (recent.length && text.indexOf('\t') < 0) {
      for (let k = 0; k < recent.length; k++) {
        const r = recent[k];
        if (r.re.test(text)) {
          if (k > 0) {
            recent[k] = recent[0];
            recent[0] = r;
          }
          this.count(r.group, text, no);
          return;
        }
      }
      // No template matched: the group is the one the line's key names, which a key matcher
      // can tell without building the key (at most one accepts it: keys are distinct).
      if (this.keyMatchers) {
        for (let k = 0; k < recent.length; k++) {
          const m = recent[k].key;
          if (m !== undefined && keyMatches(m, text)) {
            g = recent[k].group;
            break;
          }
        }
      }
    }
    if (g === undefined) {
      const template = groupKey(text);
      g = this.groups.get(template);
      if (!g) {
        if (this.groups.size >= MAX_DEDUP_GROUPS) {
          this.overflowLines++;
          if (this.overflowFirstNo === 0) this.overflowFirstNo = no;
          this.overflowLastNo = no;
          return;
        }
        g = { template, count: 0, first: text, last: text, firstNo: no, lastNo: no };
        this.groups.set(template, g);
      } else if (g.count + 1 >= GROUP_MATCHER_AFTER && !this.matchers.has(g)) {
        const re = templateRegExp(text);
        this.matchers.set(g, re && { group: g, re, key: this.keyMatchers ? keyMatcher(text) : undefined });
      }
    }
    const m = this.matchers.get(g);
    if (m && recent[0]?.group !== g) {
      // A group whose matcher missed this line (its id or hash started with another letter) is
      // moved to the front, not listed twice: a copy would push another group's matcher out.
      let k = 1;
      while (k < recent.length && recent[k].group !== g) k++;
      if (k < recent.length) recent.splice(k, 1);
      else if (recent.length >= RECENT_GROUPS) recent.pop();
      recent.unshift(m);
    }
    this.count(g, text, no);
  }

  /** Matchers of the groups that have one (undefined: the group's line gave none). */
  private readonly matchers = new Map<DedupGroup, GroupMatcher | undefined>();

  private count(g: DedupGroup, text: string, no: number): void {
    g.count++;
    g.last = text;
    g.lastNo = no;
  }

  list(): DedupGroup[] {
    return [...this.groups.values()];
  }
}

interface Run {
  first: string;
  firstNo: number;
  last: string;
  lastNo: number;
  count: number;
  /** Every line equals the first: the marker can say "identical", so the agent knows nothing differed. */
  identical: boolean;
  /** Hazards seen before this run started (to count hazards inside an omitted region). */
  errorsBefore: number;
  warningsBefore: number;
  /** Line numbers of the run's lines that mention an error word (at most MAX_NAMED_MENTIONS kept). */
  mentions?: number[];
  /** How many of its lines mention one (may exceed mentions.length). */
  mentionCount?: number;
}

/** Runs kept at the start and at the end of the unclassified body. */
export const HEAD_RUNS = 12;
export const TAIL_RUNS = 12;
/**
 * Runs with a line that mentions an error word, kept whole from the omitted middle (issue 13
 * pt 3: a line nothing classified, `request 42 failed, retrying`, must not vanish behind a
 * marker that says "0 errors"). Past this many, such lines are named by number in the marker.
 */
export const MAX_PINNED_RUNS = 12;
/** Line numbers named in one marker; more are counted. */
export const MAX_NAMED_MENTIONS = 20;

/**
 * An error word, as a word, in any case: what a reader scanning for trouble looks for. Lines
 * a grammar claimed never get here (a hazard is shown; noise rules refuse these words).
 */
const ERROR_WORD = /\b(?:errors?|fail(?:s|ed|ure|ures|ing)?|fatal|panic(?:ked)?|exceptions?|traceback|denied|refused|time[ds]? ?out|mismatch(?:ed)?|corrupt(?:ed|ion)?|abort(?:ed)?|segfault|unreachable|crash(?:ed)?)\b/i;
/** `0 errors`, `no failures`: a count of nothing is not a mention (it is stripped before the test). */
const NOTHING_COUNT_G = /\b(?:0|no|zero|without)\s+(?:errors?|warnings?|failures?|failed|fail)\b/gi;
/** Cheap first test: every ERROR_WORD hit contains one of these letters pairs (letters only, each with one that is no hex digit: quietRunRegExp). */
export const MAYBE_ERROR_WORD = /[eE][rR][rR]|[fF][aA][iI][lL]|[fF][aA][tT]|[pP][aA][nN]|[xX][cC][eE][pP]|[tT][rR][aA][cC][eE][bB]|[dD][eE][nN][iI]|[rR][eE][fF][uU]|[tT][iI][mM][eE]|[mM][iI][sS][mM]|[cC][oO][rR][rR]|[aA][bB][oO][rR]|[sS][eE][gG][fF]|[uU][nN][rR][eE][aA]|[cC][rR][aA][sS]/;

/** Does an unclassified line mention an error word (not only in a count of nothing)? */
export function mentionsErrorWord(text: string): boolean {
  if (!MAYBE_ERROR_WORD.test(text) || !ERROR_WORD.test(text)) return false;
  return ERROR_WORD.test(text.replace(NOTHING_COUNT_G, ''));
}

interface Omitted {
  count: number;
  fromNo: number;
  toNo: number;
  errorsBefore: number;
  warningsBefore: number;
  /** Line numbers of error-word lines in it (at most MAX_NAMED_MENTIONS) and their count. */
  mentions: number[];
  mentionCount: number;
}

/** One piece of the middle of the body: an omitted region, or a run kept from it. */
type MiddlePiece = { omitted: Omitted } | { run: Run };

export class RunCollector {
  private readonly head: Run[] = [];
  private tail: Run[] = [];
  private current: Run | undefined;
  /** The middle: omitted regions and the runs pinned in them, in order. */
  private readonly middle: MiddlePiece[] = [];
  private pinned = 0;
  private errors = 0;
  private warnings = 0;

  /** Called for every hazard line, to count hazards in omitted regions. */
  noteHazard(severity: 'error' | 'warning'): void {
    if (severity === 'error') this.errors++;
    else this.warnings++;
  }

  /** Exact matcher of the current run's lines (sameRunRegExp), built once the run is long. */
  private currentRe: RegExp | undefined;
  /** Matcher of the current run's lines that mention no error word (quietRunRegExp), built once the run is longer still. */
  private quietRe: RegExp | undefined;

  add(text: string, no: number): void {
    const cur = this.current;
    // One match instead of two (the run's matcher, the error-word test) on most lines of a long run.
    if (cur && this.quietRe !== undefined) {
      if (this.quietRe.test(text)) {
        cur.count++;
        if (cur.identical && text !== cur.first) cur.identical = false;
        cur.last = text;
        cur.lastNo = no;
        return;
      }
      // A path word that varies (make's `CC src/x.o` lines), or the run's end: a third test from
      // here on would only cost.
      this.quietRe = undefined;
    }
    const mention = mentionsErrorWord(text);
    if (cur && (this.currentRe ? this.currentRe.test(text) : sameTemplate(cur.last, text))) {
      cur.count++;
      if (cur.identical && text !== cur.first) cur.identical = false;
      cur.last = text;
      cur.lastNo = no;
      if (mention) noteMention(cur, no);
      if (cur.count === RUN_MATCHER_AFTER) this.currentRe = sameRunRegExp(cur.first);
      else if (cur.count === QUIET_MATCHER_AFTER && this.currentRe) this.quietRe = quietRunRegExp(cur.first);
      return;
    }
    if (cur) this.retire(cur);
    this.currentRe = undefined;
    this.quietRe = undefined;
    this.current = { first: text, firstNo: no, last: text, lastNo: no, count: 1, identical: true, errorsBefore: this.errors, warningsBefore: this.warnings };
    if (mention) noteMention(this.current, no);
  }

  /**
   * Takes back the line just added (line `no`), when it is a run of its own: a line the hazard
   * after it repeats whole (emit-buffer's restatedBy). False, and nothing changes, otherwise.
   */
  retract(no: number): boolean {
    const cur = this.current;
    if (!cur || cur.count !== 1 || cur.firstNo !== no) return false;
    this.current = undefined;
    this.currentRe = undefined;
    this.quietRe = undefined;
    return true;
  }

  private retire(run: Run): void {
    if (this.head.length < HEAD_RUNS) {
      this.head.push(run);
      return;
    }
    this.tail.push(run);
    if (this.tail.length > TAIL_RUNS * 2) {
      // Amortised ring: drop the oldest half into the omitted region in one go.
      const drop = this.tail.length - TAIL_RUNS;
      for (let i = 0; i < drop; i++) omitRun(this.middle, this.tail[i], this);
      this.tail = this.tail.slice(drop);
    }
  }

  /** For omitRun: may one more run be pinned? (counts it if so) */
  takePin(): boolean {
    if (this.pinned >= MAX_PINNED_RUNS) return false;
    this.pinned++;
    return true;
  }

  /** The body: head runs, the middle (exact markers for what was left out, and the runs kept from it), tail runs. */
  body(): BodyLine[] {
    const runs = [...this.head, ...this.tail];
    if (this.current) runs.push(this.current);
    // Fold the oldest tail runs beyond TAIL_RUNS into the middle (on a copy: body() may be called again).
    const headCount = this.head.length;
    let tailStart = headCount;
    const tailRuns = runs.length - headCount;
    const middle: MiddlePiece[] = this.middle.map((p) => ('omitted' in p ? { omitted: { ...p.omitted, mentions: [...p.omitted.mentions] } } : p));
    const pinnedBefore = this.pinned;
    if (tailRuns > TAIL_RUNS) {
      const drop = tailRuns - TAIL_RUNS;
      for (let i = headCount; i < headCount + drop; i++) omitRun(middle, runs[i], this);
      tailStart = headCount + drop;
    }
    this.pinned = pinnedBefore;
    const out: BodyLine[] = [];
    for (let i = 0; i < headCount; i++) pushRun(out, runs[i]);
    for (let k = 0; k < middle.length; k++) {
      const p = middle[k];
      if ('run' in p) {
        pushRun(out, p.run);
        continue;
      }
      const o = p.omitted;
      // Hazards in the region: those seen before whatever follows it, minus those before it.
      const next = k + 1 < middle.length ? (middle[k + 1] as { run: Run }).run : runs[tailStart];
      const errorsAfter = next ? next.errorsBefore : this.errors;
      const warningsAfter = next ? next.warningsBefore : this.warnings;
      out.push({
        type: 'omitted',
        count: o.count,
        errors: errorsAfter - o.errorsBefore,
        warnings: warningsAfter - o.warningsBefore,
        fromNo: o.fromNo,
        toNo: o.toNo,
        ...(o.mentionCount ? { mentions: o.mentions, mentionCount: o.mentionCount } : {}),
      });
    }
    for (let i = tailStart; i < runs.length; i++) pushRun(out, runs[i]);
    return out;
  }
}

function noteMention(run: Run, no: number): void {
  run.mentionCount = (run.mentionCount ?? 0) + 1;
  const m = (run.mentions ??= []);
  if (m.length < MAX_NAMED_MENTIONS) m.push(no);
}

/**
 * Moves a run into the middle: kept whole (pinned) when it mentions an error word and the pin
 * budget allows, else into the current omitted region (whose marker then names its error-word
 * lines by number).
 */
function omitRun(middle: MiddlePiece[], run: Run, owner: RunCollector): void {
  if (run.mentionCount && owner.takePin()) {
    middle.push({ run });
    return;
  }
  const lastPiece = middle[middle.length - 1];
  let o = lastPiece && 'omitted' in lastPiece ? lastPiece.omitted : undefined;
  if (!o) {
    o = { count: 0, fromNo: run.firstNo, toNo: run.lastNo, errorsBefore: run.errorsBefore, warningsBefore: run.warningsBefore, mentions: [], mentionCount: 0 };
    middle.push({ omitted: o });
  }
  o.count += run.count;
  o.toNo = run.lastNo;
  if (run.mentionCount) {
    o.mentionCount += run.mentionCount;
    for (const n of run.mentions ?? []) if (o.mentions.length < MAX_NAMED_MENTIONS) o.mentions.push(n);
  }
}

/** Consecutive lines sharing a template fold to first, a counted marker, last. */
const MIN_RUN_TO_FOLD = 4;

function pushRun(out: BodyLine[], run: Run): void {
  out.push({ type: 'line', text: run.first, no: run.firstNo });
  if (run.count === 1) return;
  if (run.count < MIN_RUN_TO_FOLD) {
    // Short runs: the middle lines are not kept, so show what we have exactly.
    if (run.count === 3) out.push({ type: 'omitted', count: 1, errors: 0, warnings: 0, fromNo: run.firstNo + 1, toNo: run.lastNo - 1, similar: true, ...(run.identical ? { identical: true } : {}) });
    out.push({ type: 'line', text: run.last, no: run.lastNo });
    return;
  }
  out.push({ type: 'omitted', count: run.count - 2, errors: 0, warnings: 0, fromNo: run.firstNo + 1, toNo: run.lastNo - 1, similar: true, ...(run.identical ? { identical: true } : {}) });
  out.push({ type: 'line', text: run.last, no: run.lastNo });
}

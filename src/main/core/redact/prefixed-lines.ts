/**
 * Lines a tool wrote its own prefix before, read again without it: journald's and syslog's (`Dec 06 10:00:01 host unit[812]: `,
 * rsyslog's ISO time), `kubectl logs --prefix`'s `[pod/web-7d4b/app] `, `docker compose logs`' `web-1  | `, `cat -n`'s `     3\t`,
 * grep's `src/main.ino:3:`, `git blame`'s, lines numbered with blanks. A rule anchored at a line's start (a FortiGate's `set
 * psksecret …`, clogin's `add password …`, IOS's `key 7 …`, a C array's bytes under its name) then sees the line as the tool's
 * own file had it (session 41's stop checks; passes 238–243; the closing attack adv245).
 *
 * Cost: the kinds with a rare mark (`]: `, `[pod/`, `| `, a tab) are looked for where a search finds the mark, once a line; the
 * kinds a colon or a blank marks, where the output's first lines have them. Only the prefixed lines are scanned again (a grep's
 * or `cat -n`'s output costs two scans; the bench's mixed output ~2%).
 */
import type { SecretFinding } from './finding.js';
import { indexOfAscii } from './low-bytes.js';
import { repeatedPrefixes, startsWithShape } from './repeated-prefixes.js';
import { findingsInPieces, type ViewPiece } from './offsets.js';

interface PrefixKind {
  /** A string every line of the kind holds (a fast search finds the candidate lines). */
  mark: string;
  /** The prefix at a line's start (sticky), an optional ISO timestamp after it (`--timestamps`). */
  re: RegExp;
}

/** An ISO timestamp a log tool writes after its prefix (`docker compose logs -t`, `kubectl logs --timestamps`). */
const TIMESTAMP = String.raw`(?:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:Z|[+-]\d\d:?\d\d) )?`;
const KINDS: PrefixKind[] = [
  // (Or Heroku's `2024-12-06T10:00:01.123456+00:00 app[web.1]: `: one word before the brackets, an ISO time first: session 42's
  // final attack.)
  { mark: ']: ', re: new RegExp(String.raw`(?:[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d [\w.-]{1,128} [\w.@/-]{1,128}\[\d{1,10}\]|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:Z|[+-]\d\d:?\d\d) [\w.-]{1,64}\[[\w.-]{1,64}\]): ${TIMESTAMP}`, 'y') },
  { mark: '[pod/', re: new RegExp(String.raw`\[pod\/[^\s\]]{1,253}\] ${TIMESTAMP}`, 'y') },
  // (`| `, not ` | `: V8 finds a needle led by a rare character five times faster than one led by a blank.)
  // (A time before the name: honcho's and foreman's `10:02:12 web.1 | `; a swarm task's `name.1.id@node    | `: adv246 F2, F7.)
  { mark: '| ', re: new RegExp(String.raw`(?:\d\d:\d\d:\d\d )?[A-Za-z0-9][\w.@-]{0,127}[ \t]{1,32}\| ${TIMESTAMP}`, 'y') },
  { mark: '\t', re: / {0,8}\d{1,9}\t/y },
  // `diff -y`'s right column, after its gutter's `|` (changed) or `>` (added) and a tab (adv246 F3: a FortiGate's new `set
  // psksecret` beside the old one); an unchanged line's right column is its left one, read at the line's start.
  { mark: '|\t', re: /[^\n]{0,1024}?[ \t]\|\t/y },
  { mark: '>\t', re: /[^\n]{0,1024}?[ \t]>\t/y },
  // Tilt's `api │ ` (a box-drawing bar, not `|`: the final attack of session 42).
  { mark: '│ ', re: /[A-Za-z0-9][\w.@:-]{0,127}[ \t]{0,32}│ /y },
];
/**
 * Prefixes a colon or a blank marks, which every text holds: read on every line when the output's first lines have them (they
 * say whose output it is). grep's `file:12:` / `file-12-` / `12:` (`-n`, its context lines; a file's name may hold blanks, `FW
 * Backups/a.conf:16:`), not a time or a date (`12:30:45`, `2024-06-02 …`); syslog's and journald's other formats (`-o
 * short-precise`'s microseconds, rsyslog's ISO time, `logger -t`'s tag with no pid: adv245 F1–F3); `git blame`'s `^bdf9bd4 (Dana
 * 2024-03-14 09:12:44 +0000 3) ` (F6); lines numbered with blanks (`less -N`, `awk '{printf "%5d  %s\n", NR, $0}'`: F5), all of
 * the first lines so (a count before a word, `uniq -c`'s, is one line's).
 */
const FIRST_LINE_KINDS: { re: RegExp; all: boolean }[] = [
  // (A line's first kind wins: the logs' own formats before grep's, whose `file:N:` a log's time also has, `…T10:00:01+0000`.)
  // (journald's `-o short-monotonic`, `[ 81234.553417] host unit[pid]: `: adv246 F5.)
  { re: new RegExp(String.raw`(?:[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d{1,9})?|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:Z|[+-]\d\d:?\d\d)|\[ {0,8}\d{1,9}\.\d{6}\]) [\w.-]{1,128} [\w.@/()-]{1,128}(?:\[\d{1,10}\])?: ${TIMESTAMP}`, 'y'), all: false },
  // RFC 5424's header (`<189>1 2024-12-06T10:00:01Z host app procid msgid - `: adv246 F6).
  { re: /<\d{1,3}>1 \S{1,64} \S{1,255} \S{1,48} \S{1,128} \S{1,32} (?:-|(?:\[[^\]\n]{0,512}\])+) ?/y, all: false },
  { re: /\^?[0-9a-f]{7,40} (?:[^\s()]{1,256} )?\([^()\n]{1,256}? \d{1,9}\) /y, all: false },
  // (`grep -T` aligns the number and ends the prefix with a tab: `file:  9:\t`: adv246 F1. Not a time's `10:00:01+0000`, `…01Z`.)
  { re: /(?:[^:\n]{1,256}[:-])? {0,8}\d{1,9}[:-](?!\d\d[-/ T:.,+Z])\t?/y, all: false },
  // grep -r without -n: a path's `file:` on every first line (`backups/fgt.conf:`: adv246 F8).
  { re: /[^\s:]{0,256}[/.][^\s:]{0,256}:(?=[ \t])/y, all: true },
  // Skaffold's `[api-7d9f app] ` (a pod's and its container's names in brackets) on every first line (`[INFO] ` has one word).
  { re: /\[[a-z0-9][a-z0-9.-]{0,252} [a-z0-9][a-z0-9-]{0,62}\] /y, all: true },
  // stern's `web-7d4b9c8f6d-x2k8q app ` (a pod's generated name, a ReplicaSet's hash and its own suffix, then the container's):
  // every first line (two words alone would be any text's; adv245).
  { re: /[a-z0-9][a-z0-9-]{0,200}-(?:[a-z0-9]{8,10}-)?[a-z0-9]{5} [a-z0-9][a-z0-9-]{0,62} /y, all: true },
  // (The number's own separator only, one or two blanks: the line's indent stays its own.)
  { re: / {0,8}\d{1,9} {1,2}(?=\S| )/y, all: true },
];
/** The output's first lines read for those prefixes. */
const FIRST_LINES = 3;
/** Prefixed lines read again, at most (a log of a million lines is read this way in its first part only: a bound on the cost). */
const MAX_LINES = 20_000;

/**
 * The findings of `scan` on the text of `text`'s prefixed lines without their prefixes, at their places in `text`. `bytes`: the
 * text's low bytes (low-bytes.ts), when the caller has them: the marks are searched there (a two-byte text's own search for a
 * mark read every character slowly: the kinds' marks had cost 3% of a reply's masking).
 */
export function prefixedLineFindings(text: string, out: SecretFinding[], scan: (t: string) => SecretFinding[], bytes?: Buffer): void {
  // By line start: where its text begins after the prefix (one kind a line: the first that matches).
  const bodies = new Map<number, number>();
  // (indexOfAscii's latin1 search keeps a mark's low bytes, so Tilt's `│ ` is found as its low byte 0x02 and checked on the text.)
  const find = (mark: string, from: number): number => indexOfAscii(text, bytes, mark, from);
  for (const kind of KINDS) {
    let i = find(kind.mark, 0);
    while (i >= 0 && bodies.size < MAX_LINES) {
      const lineStart = text.lastIndexOf('\n', i) + 1;
      if (!bodies.has(lineStart)) {
        kind.re.lastIndex = lineStart;
        if (kind.re.test(text)) bodies.set(lineStart, kind.re.lastIndex);
      }
      const nl = text.indexOf('\n', i);
      if (nl < 0) break;
      i = find(kind.mark, nl + 1);
    }
  }
  firstLineKindLines(text, bodies);
  // A prefix the first lines repeat, where no kind has read the line, or where one read it otherwise: both views are scanned (a
  // `.pgpass` line in stern's log, `web-0 app db:5432:app:app:pw`, is grep's `file:5432:` to the kinds; `grep -r username` of
  // router configs repeats `r1.cfg: username ` on every line, which the kinds read right).
  const others = repeatedPrefixLines(text, bodies);
  viewFindings(text, bodies, out, scan);
  viewFindings(text, others, out, scan);
}

/** The findings of `scan` on the bodies of the lines in `bodies` (line start → body start), at their places in `text`. */
function viewFindings(text: string, bodies: Map<number, number>, out: SecretFinding[], scan: (t: string) => SecretFinding[]): void {
  if (bodies.size === 0) return;
  const starts = [...bodies.keys()].sort((a, b) => a - b);
  // The view: each prefixed line's body on its own line, in order.
  const pieces: ViewPiece[] = [];
  let view = '';
  for (const s of starts) {
    const from = bodies.get(s)!;
    let end = text.indexOf('\n', from);
    if (end < 0) end = text.length;
    pieces.push({ viewAt: view.length, textAt: from, length: end - from });
    view += text.slice(from, end) + '\n';
  }
  findingsInPieces(pieces, scan(view), out);
}

/**
 * The lines of `text` that start with a prefix the output's first lines repeat (repeated-prefixes.ts): into `bodies` where no kind
 * has read the line; returned where a kind read it otherwise (a second view).
 */
function repeatedPrefixLines(text: string, bodies: Map<number, number>): Map<number, number> {
  const others = new Map<number, number>();
  const prefixes = repeatedPrefixes(text);
  if (prefixes.length === 0) return others;
  for (let lineStart = 0; lineStart < text.length && bodies.size + others.size < MAX_LINES; ) {
    const prefix = prefixes.find((p) => startsWithShape(text, lineStart, p));
    if (prefix !== undefined) {
      const known = bodies.get(lineStart);
      if (known === undefined) bodies.set(lineStart, lineStart + prefix.length);
      else if (known !== lineStart + prefix.length) others.set(lineStart, lineStart + prefix.length);
    }
    const nl = text.indexOf('\n', lineStart);
    if (nl < 0) break;
    lineStart = nl + 1;
  }
  return others;
}

/** The lines of `text` with a prefix of FIRST_LINE_KINDS into `bodies`, each kind when the output's first lines have it. */
function firstLineKindLines(text: string, bodies: Map<number, number>): void {
  for (const { re, all } of FIRST_LINE_KINDS) {
    let lineStart = 0;
    let seen = 0;
    let found = 0;
    for (; seen < FIRST_LINES && lineStart < text.length; seen++) {
      re.lastIndex = lineStart;
      if (re.test(text)) found++;
      const nl = text.indexOf('\n', lineStart);
      lineStart = nl < 0 ? text.length : nl + 1;
    }
    if (found === 0 || (all && found < seen)) continue;
    for (lineStart = 0; lineStart < text.length && bodies.size < MAX_LINES; ) {
      re.lastIndex = lineStart;
      if (!bodies.has(lineStart) && re.test(text)) bodies.set(lineStart, re.lastIndex);
      const nl = text.indexOf('\n', lineStart);
      if (nl < 0) break;
      lineStart = nl + 1;
    }
  }
}

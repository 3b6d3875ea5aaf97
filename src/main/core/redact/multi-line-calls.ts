/**
 * A client's call laid over several lines, read again as one line: the layout black, prettier and google-java-format give a
 * call too long for one line,
 *
 *     gis = GIS(                                  gis = GIS("https://www.arcgis.com",
 *         "https://www.arcgis.com",                         "analyst",
 *         "analyst",                                        "<password>")
 *         "<password>",
 *     )
 *
 * The rules that read a client's credentials by position (ArcGIS' `GIS(url, user, password)`, pyzotero's `Zotero(id, type,
 * key)`, `cohere.Client('<key>')`, JDBC's `getConnection(url, user, password)`, a setter's argument) read one line: they see
 * the call joined (session 47's leads: passes 292, 294, 304; the closing attack adv308 M1–M12). A named argument on its own
 * line (`api_key="…",`) is read where it stands already; what the view adds is position.
 *
 * Only those clients' calls are joined, found by the scanner's hits of their words (CALL_WORDS): any call joined had made a
 * `@click.option(\n "--token",\n "auth_token_path", …)` a flag and its value (adv308 L1).
 *
 * Cost: nothing on a text without those words; a call's lines read once each (bounded: MAX_CALL_LINES, MAX_CALL_CHARS,
 * MAX_CALLS).
 */
import type { SecretFinding } from './finding.js';
import { findingsInPieces, type ViewPiece } from './offsets.js';

/**
 * The call words (keywords of the scanner's rules that read arguments by position, lowercase, as the pass finds them): a hit
 * of one whose `(` its line leaves open starts a call to join.
 */
export const CALL_WORDS: readonly string[] = [
  'gis(',
  'zotero.zotero',
  'cohere.client',
  'cohere.asyncclient',
  'wandb.login(',
  'comet_ml.experiment(',
  'mistralclient(',
  'phrase.setup(',
  'getconnection(',
  'login(',
  'auth(',
  'authenticate(',
  '.setpassword(',
  '.setpasswd(',
  '.setsecret(',
  '.setapikey(',
  '.setclientsecret(',
  'setauthenticationcredentials(',
  'serverclient(',
  'accountclient(',
  'mysql_connect(',
  'pdo(',
  'sequelize(',
];

/** A call's lines read at most, its opening and closing lines with them (a client's arguments: a few lines). */
const MAX_CALL_LINES = 24;
/** A call's joined text at most (a longer one is data, not a call a rule reads by position). */
const MAX_CALL_CHARS = 4096;
/** Calls joined per text at most (a formatted source file of thousands: its first ones; a bound on the cost). */
const MAX_CALLS = 500;

/** One piece of the view: `length` characters at `viewAt` in the view are those at `textAt` in the text. */
/** The end of the line at `lineStart` (its `\n`, or the text's end), without a `\r` before it. */
function lineEndOf(text: string, lineStart: number): number {
  let nl = text.indexOf('\n', lineStart);
  if (nl < 0) nl = text.length;
  return nl > lineStart && text.charCodeAt(nl - 1) === 0x0d ? nl - 1 : nl;
}

/**
 * The code of `text[from, end)` read for its brackets: the depth it leaves (from `depth`), and where its code ends (a comment,
 * `#` or `//` outside quotes, cut off). Quotes are read as a line's: an escape skips a character.
 */
function readCode(text: string, from: number, end: number, depth: number): { depth: number; codeEnd: number } {
  let quote = 0;
  for (let i = from; i < end; i++) {
    const c = text.charCodeAt(i);
    if (quote !== 0) {
      if (c === 0x5c) i++;
      else if (c === quote) quote = 0;
      continue;
    }
    if (c === 0x22 || c === 0x27) quote = c;
    else if (c === 0x28) depth++;
    else if (c === 0x29) depth--;
    else if (c === 0x23 || (c === 0x2f && text.charCodeAt(i + 1) === 0x2f)) {
      let e = i;
      while (e > from && (text.charCodeAt(e - 1) === 0x20 || text.charCodeAt(e - 1) === 0x09)) e--;
      return { depth, codeEnd: e };
    }
  }
  return { depth, codeEnd: end };
}

/**
 * The findings of `scan` on the clients' calls `text` lays over lines, each joined to one line (its lines' indents and comments
 * dropped, one blank between them), at their places in `text`. `callEnds`: the ends of the pass's hits of CALL_WORDS, in order.
 */
export function multiLineCallFindings(text: string, callEnds: readonly number[], out: SecretFinding[], scan: (t: string) => SecretFinding[]): void {
  if (callEnds.length === 0) return;
  const pieces: ViewPiece[] = [];
  let view = '';
  let calls = 0;
  let doneTo = -1;
  for (let i = 0; i < callEnds.length && calls < MAX_CALLS; i++) {
    // One call a line, its last word's (the call left open is the line's last): a line of ten thousand call words is read once,
    // not once a word (`db.auth("a", ` repeated over a megabyte line took 143 s: session 48's hostile texts).
    const nl = text.indexOf('\n', callEnds[i]);
    const lineEnd = nl < 0 ? text.length : nl;
    while (i + 1 < callEnds.length && callEnds[i + 1] <= lineEnd) i++;
    const hitEnd = callEnds[i];
    if (hitEnd < doneTo) continue;
    const start = text.lastIndexOf('\n', hitEnd - 1) + 1;
    const openEnd = lineEnd > start && text.charCodeAt(lineEnd - 1) === 0x0d ? lineEnd - 1 : lineEnd;
    // The call's own `(` is the hit's last character, or the first after its name (`cohere.Client(`).
    const paren = text.indexOf('(', hitEnd - 1);
    if (paren < 0 || paren >= openEnd || openEnd - paren > MAX_CALL_CHARS) continue;
    const first = readCode(text, paren, openEnd, 0);
    if (first.depth <= 0) continue; // closed on its own line: the rules read it there
    // A diff's or a listing's mark before each of the call's lines (`+    "…",` of `diff -u`: adv308 M7): the opener's, kept off
    // the lines below.
    const mark = text.charCodeAt(start) === 0x2b || text.charCodeAt(start) === 0x2d ? text.charCodeAt(start) : 0;
    const call: ViewPiece[] = [{ viewAt: 0, textAt: start, length: first.codeEnd - start }];
    let chars = first.codeEnd - start;
    let depth = first.depth;
    let at = openEnd + 1;
    if (text.charCodeAt(at - 1) !== 0x0a) at = text.indexOf('\n', at) + 1;
    for (let n = 0; depth > 0 && at > 0 && at < text.length && n < MAX_CALL_LINES && chars <= MAX_CALL_CHARS; n++) {
      const end = lineEndOf(text, at);
      let body = at;
      if (mark !== 0) {
        if (text.charCodeAt(body) !== mark) break;
        body++;
      }
      while (body < end && (text.charCodeAt(body) === 0x20 || text.charCodeAt(body) === 0x09)) body++;
      if (body === end) break; // a blank line: no formatter's call holds one
      const line = readCode(text, body, end, depth);
      depth = line.depth;
      if (line.codeEnd > body) {
        call.push({ viewAt: 0, textAt: body, length: line.codeEnd - body });
        chars += line.codeEnd - body + 1;
      }
      at = end + 1;
      if (text.charCodeAt(at - 1) !== 0x0a) at = text.indexOf('\n', at) + 1;
    }
    if (depth > 0 || chars > MAX_CALL_CHARS || call.length < 2) continue;
    // One line of the view: the pieces one blank apart.
    call.forEach((p, k) => {
      if (k > 0) view += ' ';
      p.viewAt = view.length;
      view += text.slice(p.textAt, p.textAt + p.length);
      pieces.push(p);
    });
    view += '\n';
    calls++;
    doneTo = at;
  }
  if (calls > 0) findingsInPieces(pieces, scan(view), out);
}

/**
 * gzip's output in base64 (`gzip -c .env | base64 -w0`, a Helm release's `release` field, a CI variable pasted as an opaque blob:
 * adv76 F24): every such blob starts `H4sI` (gzip's magic `1f 8b 08` and a flags byte, in base64). It is decoded, inflated (a
 * bounded amount: a cut blob gives what it holds so far), and when the text inside holds a secret the whole blob is masked.
 */
import { constants, gunzipSync } from 'node:zlib';
import type { SecretFinding } from './finding.js';

/** gzip's magic in base64, as the keyword pass finds it (lowercase: the pass is case-insensitive; the case is checked here). */
export const GZIP_BASE64_WORD = 'h4si';
/**
 * The same magic in base64 twice (`SDRzS` is `H4sI`'s first bytes encoded again): a Helm release as `kubectl get secret` and
 * `yq '.data.release'` print it, Kubernetes' base64 of Helm's own (adv157 F28).
 */
export const GZIP_BASE64_TWICE_WORD = 'sdrzs';
/** A blob's base64 from its `H4sI` (sticky): standard or URL-safe alphabet, its padding. */
const BLOB_AT = /H4sI[A-Za-z0-9+/_-]{16,1400000}={0,2}/y;
/** A blob encoded twice, from its `SDRzS` (sticky). */
const TWICE_BLOB_AT = /SDRzS[A-Za-z0-9+/]{16,1900000}={0,2}/y;
/** Text inflated from one blob at most: a secret sits in a config's first lines; a bomb is cut here. */
const MAX_INFLATED = 1 << 20;
/** A blob that inflates past MAX_INFLATED (a bomb, a big archive) is read from this many of its first bytes (deflate's ratio is ~1000:1 at most). */
const BOMB_HEAD = 1024;

/** The text gzip `bytes` hold (a cut blob: what it holds so far, Z_SYNC_FLUSH raising no error at its end), or undefined. */
function inflate(bytes: Buffer): string | undefined {
  try {
    return gunzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: MAX_INFLATED }).toString('utf8');
  } catch {
    return undefined;
  }
}

/** Characters that may stand before a blob (it starts a token: not `xH4sI…` inside other base64). */
const TOKEN_CHAR = /[A-Za-z0-9+/_-]/;
/** Mostly text: a line break, a tab or printable ASCII, or UTF-8's bytes past it. */
const TEXT = /^[\t\n\r\x20-\x7e\u0080-\uffff]*$/;

/** The widths `base64 -w`, openssl and PEM-style wrapping cut a line at (a blob printed wrapped: `base64 -w76`, session 30's attack A15). */
const WRAP_WIDTHS = new Set([60, 64, 76]);
/** The longest wrapped blob read across its lines (as the one-line blob's bound). */
const MAX_WRAPPED = 1900000;

/**
 * The end of a blob whose one-line match text[start, end) fills its line at a wrapping width: the next lines of that width and
 * a last shorter one (its padding), read while each is base64 alone. `end` itself when the blob is not so wrapped.
 */
function wrappedEnd(text: string, start: number, end: number): number {
  const width = end - start;
  if (!WRAP_WIDTHS.has(width) || (start > 0 && text.charCodeAt(start - 1) !== 0x0a)) return end;
  let at = end;
  while (at - start < MAX_WRAPPED) {
    const nl = text.charCodeAt(at) === 0x0d && text.charCodeAt(at + 1) === 0x0a ? at + 2 : text.charCodeAt(at) === 0x0a ? at + 1 : -1;
    if (nl < 0) return at;
    let j = nl;
    while (j - nl <= width && B64_LINE_CHAR.test(text[j] ?? '')) j++;
    const line = j - nl;
    if (line === 0 || line > width || (j < text.length && text.charCodeAt(j) !== 0x0a && text.charCodeAt(j) !== 0x0d)) return at;
    at = j;
    if (line < width || text.charCodeAt(j - 1) === 0x3d) return at;
  }
  return at;
}
/** A character of a wrapped blob's line (standard alphabet and padding). */
const B64_LINE_CHAR = /[A-Za-z0-9+/=]/;

/** Each gzip blob in base64 in `text` whose inflated text `scan` finds a secret in: the blob, masked whole. */
export function gzipBase64Findings(text: string, out: SecretFinding[], scan: (t: string) => SecretFinding[]): void {
  for (let i = text.indexOf('H4sI'); i >= 0; i = text.indexOf('H4sI', i + 4)) {
    if (i > 0 && TOKEN_CHAR.test(text[i - 1])) continue;
    BLOB_AT.lastIndex = i;
    const m = BLOB_AT.exec(text);
    if (!m) continue;
    const end = wrappedEnd(text, i, i + m[0].length);
    const blob = end === i + m[0].length ? m[0] : text.slice(i, end).replace(/\r?\n/g, '');
    const bytes = Buffer.from(blob.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    // Past MAX_INFLATED, its head only (zlib gives all or nothing: the head of the input, which a deflate ratio bounds).
    const inflated = inflate(bytes) ?? inflate(bytes.subarray(0, BOMB_HEAD));
    if (inflated === undefined) {
      i += m[0].length - 4;
      continue;
    }
    const found = TEXT.test(inflated) ? scan(inflated) : [];
    if (found.length > 0) out.push({ start: i, end, kind: `gzip base64 ${found[0].kind}`, byContext: true });
    i = end - 4;
  }
  for (let i = text.indexOf('SDRzS'); i >= 0; i = text.indexOf('SDRzS', i + 5)) {
    if (i > 0 && TOKEN_CHAR.test(text[i - 1])) continue;
    TWICE_BLOB_AT.lastIndex = i;
    const m = TWICE_BLOB_AT.exec(text);
    if (!m) continue;
    const end = wrappedEnd(text, i, i + m[0].length);
    const once = Buffer.from(end === i + m[0].length ? m[0] : text.slice(i, end).replace(/\r?\n/g, ''), 'base64').toString('latin1');
    BLOB_AT.lastIndex = 0;
    const inner = BLOB_AT.exec(once);
    const inflated = inner && (inflate(Buffer.from(inner[0], 'base64')) ?? inflate(Buffer.from(inner[0], 'base64').subarray(0, BOMB_HEAD)));
    const found = inflated && TEXT.test(inflated) ? scan(inflated) : [];
    if (found.length > 0) out.push({ start: i, end, kind: `gzip base64 ${found[0].kind}`, byContext: true });
    i = end - 5;
  }
}

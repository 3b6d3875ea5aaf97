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

/**
 * The widths a wrapped blob's lines may have (`base64 -w76`'s default, openssl's 64, any `-w N`: session 30's attack A15, session
 * 31's): whole groups of four characters, from a short wrap to a long one.
 */
const MIN_WRAP = 40;
const MAX_WRAP = 1024;
/** The longest wrapped blob read across its lines (as the one-line blob's bound). */
const MAX_WRAPPED = 1900000;

/**
 * The end of a blob whose one-line match text[start, end) fills its line at a wrapping width: the next lines of that width and
 * a last shorter one (its padding), read while each is base64 alone. `end` itself when the blob is not so wrapped.
 */
function wrappedEnd(text: string, start: number, end: number): number {
  const width = end - start;
  if (width < MIN_WRAP || width > MAX_WRAP || width % 4 !== 0 || (start > 0 && text.charCodeAt(start - 1) !== 0x0a)) return end;
  let at = end;
  while (at - start < MAX_WRAPPED) {
    const nl = text.charCodeAt(at) === 0x0d && text.charCodeAt(at + 1) === 0x0a ? at + 2 : text.charCodeAt(at) === 0x0a ? at + 1 : -1;
    if (nl < 0) return at;
    // A line that starts another blob is no continuation (two blobs a line each: `kubectl get secret … -o jsonpath` of several).
    if (text.startsWith(BLOB_HEAD, nl) || text.startsWith(TWICE_BLOB_HEAD, nl)) return at;
    let j = nl;
    while (j - nl <= width && B64_LINE_CHAR.test(text[j] ?? '')) j++;
    const line = j - nl;
    if (line === 0 || line > width || (j < text.length && text.charCodeAt(j) !== 0x0a && text.charCodeAt(j) !== 0x0d)) return at;
    at = j;
    if (line < width || text.charCodeAt(j - 1) === 0x3d) return at;
  }
  return at;
}
/** The heads of a blob's base64, once and twice. */
const BLOB_HEAD = 'H4sI';
const TWICE_BLOB_HEAD = 'SDRzS';
/** A character of a wrapped blob's line (standard alphabet and padding). */
const B64_LINE_CHAR = /[A-Za-z0-9+/=]/;

/** The kind of the first secret `scan` finds in the gzip `bytes` inflate to, or undefined. */
function secretInside(bytes: Buffer, scan: (t: string) => SecretFinding[]): string | undefined {
  // Past MAX_INFLATED, its head only (zlib gives all or nothing: the head of the input, which a deflate ratio bounds).
  const inflated = inflate(bytes) ?? inflate(bytes.subarray(0, BOMB_HEAD));
  const found = inflated !== undefined && TEXT.test(inflated) ? scan(inflated) : [];
  return found.length > 0 ? found[0].kind : undefined;
}

/** gzip's bytes from a blob's base64 (once: standard or URL-safe; twice: the inner base64 decoded first). */
function onceBytes(b64: string): Buffer {
  return Buffer.from(b64.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}
function twiceBytes(b64: string): Buffer | undefined {
  BLOB_AT.lastIndex = 0;
  const inner = BLOB_AT.exec(Buffer.from(b64, 'base64').toString('latin1'));
  return inner ? Buffer.from(inner[0], 'base64') : undefined;
}

/**
 * The blob from `start` (its one-line match ends at `end`): read across its wrapped lines (wrappedEnd) when that holds a secret,
 * else on its line alone (lines taken for its wrap may be another value's: the joined base64 then inflates to nothing).
 */
function blobFinding(text: string, start: number, end: number, bytesOf: (b64: string) => Buffer | undefined, scan: (t: string) => SecretFinding[]): SecretFinding | undefined {
  const wrapped = wrappedEnd(text, start, end);
  for (const to of wrapped === end ? [end] : [wrapped, end]) {
    const bytes = bytesOf(text.slice(start, to).replace(/\r?\n/g, ''));
    const kind = bytes && secretInside(bytes, scan);
    if (kind !== undefined) return { start, end: to, kind: `gzip base64 ${kind}`, byContext: true };
  }
  return undefined;
}

/** Each gzip blob in base64 in `text` whose inflated text `scan` finds a secret in: the blob, masked whole. */
export function gzipBase64Findings(text: string, out: SecretFinding[], scan: (t: string) => SecretFinding[]): void {
  for (let i = text.indexOf('H4sI'); i >= 0; i = text.indexOf('H4sI', i + 4)) {
    if (i > 0 && TOKEN_CHAR.test(text[i - 1])) continue;
    BLOB_AT.lastIndex = i;
    const m = BLOB_AT.exec(text);
    if (!m) continue;
    const f = blobFinding(text, i, i + m[0].length, onceBytes, scan);
    if (f) out.push(f);
    i = (f?.end ?? i + m[0].length) - 4;
  }
  for (let i = text.indexOf('SDRzS'); i >= 0; i = text.indexOf('SDRzS', i + 5)) {
    if (i > 0 && TOKEN_CHAR.test(text[i - 1])) continue;
    TWICE_BLOB_AT.lastIndex = i;
    const m = TWICE_BLOB_AT.exec(text);
    if (!m) continue;
    const f = blobFinding(text, i, i + m[0].length, twiceBytes, scan);
    if (f) out.push(f);
    i = (f?.end ?? i + m[0].length) - 5;
  }
}

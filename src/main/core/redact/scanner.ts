/**
 * The synchronous secret scanner: where the secrets are in a text, and what kind each is.
 *
 * Two cheap gates keep the costly patterns off most of the text (gitleaks' keyword idea):
 * - token runs of 20+ characters: only those are matched against the vendor rules (whose
 *   keywords are looked up in the run), JWTs, and base64 that decodes to a secret;
 * - context words (`pass`, `token`, `key`, `Authorization`, `--password`, `mysql`, `://`, …):
 *   only the lines they are on get the context rules.
 * Private key blocks are walked line by line (private-keys.ts).
 */
import { VENDOR_RULES, type VendorRule } from './vendor-rules.js';
import { COMMAND_LINE, COOKIE_ATTRIBUTES, COOKIE_LINE, FILES, HEADERS, KEY_VALUE_VALUE, NOT_SECRET_KEY_NAME, NOT_SECRET_NAME, NPMRC, SECRET_NAME, URL_BOT, URL_CREDENTIALS, URL_PARAM, type ContextRule } from './context-rules.js';
import { isExampleToken, isLookAlike, isReference } from './look-alikes.js';
import { privateKeyBlocks } from './private-keys.js';
import type { SecretFinding } from './finding.js';

export type { SecretFinding } from './finding.js';

/** Shortest run the vendor gate looks at: the shortest vendor token (`LTAI…`, `AKIA…`) is 20+ characters. */
const MIN_RUN = 20;
/** A whitespace-delimited word of 20+ characters: the cheap first gate (V8 scans `\S` runs fast); token runs are looked for inside. */
const WORD = /(?:^|[ \t\n\r])[^ \t\n\r]{20,}/g;
/** A token run: word characters and the separators tokens, base64 and URLs are made of. */
const RUN = /(?<![A-Za-z0-9_.+/=:~-])[A-Za-z0-9_.+/=:~-]{20,}/g;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** keyword → rules; one case-insensitive alternation finds them in a run. */
const BY_KEYWORD = new Map<string, VendorRule[]>();
const NO_KEYWORD: VendorRule[] = [];
for (const r of VENDOR_RULES) {
  if (r.keywords.length === 0) NO_KEYWORD.push(r);
  for (const k of r.keywords) BY_KEYWORD.set(k, [...(BY_KEYWORD.get(k) ?? []), r]);
}
const KEYWORDS = new RegExp([...BY_KEYWORD.keys()].sort((a, b) => b.length - a.length).map(escape).join('|'), 'gi');

/**
 * Words that put a line under the context rules: secret-like key names, header names, the
 * commands whose flags carry passwords, `://`, query parameters, `:port:` (.pgpass) and PEM
 * armour. Case-insensitive, one pass.
 */
const CONTEXT = /:\/\/|pass(?!ed\b|es\b|ing\b)|secret|token|auth(?!ors?\b)|cred|cookie|key(?![a-z])|pwd|sig\b|signature|salt|dsn|pat\b|bearer|mysql|maria|curl|wget|login|redis-cli|mongo|openssl|lftp|sqlcmd|ldap|smbclient|htpasswd|:(?:\d{2,5}|\*):[^:\s]+:[^:\s]+:|[?&;](?:code|session|jwt)=|-----(?:BEGIN|END)/gi;

/** Every secret of `text` (unsorted; may overlap: the masker merges). */
export function scanSecrets(text: string): SecretFinding[] {
  const out: SecretFinding[] = [];
  if (text.length < 3) return out;
  vendorFindings(text, out);
  contextFindings(text, out);
  if (text.includes('-----')) out.push(...privateKeyBlocks(text));
  if (text.includes('data:')) secretDataBlocks(text, out);
  return out;
}

/**
 * Only the secrets found by their context (passwords after `-p`, keys named like secrets, …):
 * what a command's stream state learns for the session. Shapes (vendor tokens, keys) are found
 * again wherever they show, so the stream does not look for them (a third of the scan's cost).
 */
export function scanContextSecrets(text: string): SecretFinding[] {
  const out: SecretFinding[] = [];
  if (text.length < 3) return out;
  contextFindings(text, out);
  if (text.includes('data:')) secretDataBlocks(text, out);
  return out;
}

function vendorFindings(text: string, out: SecretFinding[]): void {
  // Its own regex state: base64Secret scans decoded text with this function while the outer loop runs.
  const words = new RegExp(WORD.source, 'g');
  const runs = new RegExp(RUN.source, 'g');
  const keywords = new RegExp(KEYWORDS.source, 'gi');
  for (let w = words.exec(text); w; w = words.exec(text)) {
    runs.lastIndex = 0;
    // The match starts with the whitespace before the word (faster than a lookbehind): runs inside it are unaffected.
    for (let m = runs.exec(w[0]); m; m = runs.exec(w[0])) vendorRun(m[0], w.index + m.index, keywords, out);
  }
}

/** The vendor rules on one token run at offset `at`. */
function vendorRun(run: string, at: number, keywords: RegExp, out: SecretFinding[]): void {
  {
    let rules: Set<VendorRule> | undefined;
    keywords.lastIndex = 0;
    for (let k = keywords.exec(run); k; k = keywords.exec(run)) for (const r of BY_KEYWORD.get(k[0].toLowerCase()) ?? []) (rules ??= new Set()).add(r);
    // Rules without a literal (Discord bot tokens) only on runs long enough to hold one.
    if (run.length >= MIN_NO_KEYWORD_RUN) for (const r of NO_KEYWORD) (rules ??= new Set()).add(r);
    let found = false;
    if (rules) {
      for (const r of rules) {
        r.re.lastIndex = 0;
        for (let v = r.re.exec(run); v; v = r.re.exec(run)) {
          const secret = v.groups?.secret;
          const s = at + v.index + (secret !== undefined ? v[0].lastIndexOf(secret) : 0);
          const len = secret !== undefined ? secret.length : v[0].length;
          if (!isExampleToken(v[0])) {
            out.push({ start: s, end: s + len, kind: r.kind });
            found = true;
          }
          if (v[0].length === 0) r.re.lastIndex++;
        }
      }
    }
    if (!found && run.length >= 24) base64Secret(run, at, out);
  }
}

/** The shortest Discord bot token (24 + 1 + 6 + 1 + 27 characters): the only rule with no literal to look for. */
const MIN_NO_KEYWORD_RUN = 59;

/** Standard base64 of 24+ characters (the value of a run, after a `key:` or `key=` glued to it). */
const BASE64_VALUE = /^[A-Za-z0-9+/]{22,}={0,2}$/;

/**
 * Base64 that decodes to a secret (a Kubernetes Secret's `tls.key: LS0tLS1CRUdJTi…`, a docker
 * `auth` blob, an encoded token): decoded and scanned; if the decoded text holds a secret the
 * whole encoded value is masked.
 */
function base64Secret(run: string, at: number, out: SecretFinding[]): void {
  // The value: what follows the last `:` or the last `=` that is not padding.
  let from = run.lastIndexOf(':') + 1;
  const trimmed = run.replace(/=+$/, '');
  from = Math.max(from, trimmed.lastIndexOf('=') + 1);
  const b64 = run.slice(from);
  if (b64.length < 24 || b64.length % 4 !== 0 || !BASE64_VALUE.test(b64) || !/[a-z]/.test(b64) || !/[A-Z]/.test(b64)) return;
  const decoded = Buffer.from(b64, 'base64').toString('utf8');
  // Binary (a hash, compressed data) is no credential text.
  if (!/^[\t\n\r\x20-\x7e]+$/.test(decoded)) return;
  const inner = /-----BEGIN[ A-Z0-9]*PRIVATE KEY/.test(decoded) ? 'private key' : innerKind(decoded);
  if (!inner) return;
  const s = at + from;
  out.push({ start: s, end: s + b64.length, kind: `base64 ${inner}` });
}

/** What secret a decoded text holds, if any (vendor token or `user:password`-free: only shapes). */
function innerKind(decoded: string): string | undefined {
  if (decoded.length < MIN_RUN) return undefined;
  const found: SecretFinding[] = [];
  vendorFindings(decoded, found);
  return found[0]?.kind;
}

function contextFindings(text: string, out: SecretFinding[]): void {
  CONTEXT.lastIndex = 0;
  let doneTo = -1;
  for (let g = CONTEXT.exec(text); g; g = CONTEXT.exec(text)) {
    if (g.index < doneTo) continue;
    const from = text.lastIndexOf('\n', g.index) + 1;
    const nl = text.indexOf('\n', g.index);
    const to = nl < 0 ? text.length : nl;
    contextLine(text.slice(from, to), from, out);
    doneTo = to;
    CONTEXT.lastIndex = to;
  }
}

const PASSWORD_NAME = /pass|pwd/i;
/** Between a key and its value: `=`, `:`, `=>`, `:=`, after an optional closing quote. */
const SEPARATOR = /["']?[ \t]*(?:=>|:=|[:=])[ \t]*/g;
const NAME_CHAR = /[A-Za-z0-9_.-]/;
/** The value right after a separator: quoted, or up to whitespace, a quote, `,` `;` `}` `]`. */
const VALUE_AT = new RegExp(`["'](?<quoted>[^"'\\n]{1,2048})["']|${KEY_VALUE_VALUE}`, 'y');
const LINE_RULES = [NPMRC, URL_CREDENTIALS, URL_PARAM, URL_BOT, ...HEADERS, ...COMMAND_LINE, ...FILES];

function contextLine(line: string, offset: number, out: SecretFinding[]): void {
  // Keys named like secrets: found from their separator back (linear; a pattern starting at every letter was not).
  SEPARATOR.lastIndex = 0;
  for (let m = SEPARATOR.exec(line); m; m = SEPARATOR.exec(line)) {
    let k = m.index;
    while (k > 0 && NAME_CHAR.test(line[k - 1])) k--;
    const name = line.slice(k, m.index);
    if (name.length === 0 || name.length > 81 || !/^[A-Za-z_]/.test(name) || !SECRET_NAME.test(name)) continue;
    if (NOT_SECRET_NAME.test(name) || NOT_SECRET_KEY_NAME.test(name.replace(/[.-]/g, '_').replace(/([a-z])([A-Z])/g, '$1_$2'))) continue;
    VALUE_AT.lastIndex = m.index + m[0].length;
    const v = VALUE_AT.exec(line);
    if (!v) continue;
    const value = v.groups!.quoted ?? v.groups!.secret;
    if (value === undefined || isLookAlike(value, PASSWORD_NAME.test(name))) continue;
    const s = v.index + (v.groups!.quoted !== undefined ? 1 : 0);
    out.push({ start: offset + s, end: offset + s + value.length, kind: kindOfName(name), byContext: true });
  }
  for (const r of LINE_RULES) if (!r.needs || r.needs.test(line)) apply(r, line, offset, out);
  cookies(line, offset, out);
}

function apply(rule: ContextRule, line: string, offset: number, out: SecretFinding[]): void {
  rule.re.lastIndex = 0;
  for (let m = rule.re.exec(line); m; m = rule.re.exec(line)) {
    const secret = m.groups?.secret ?? m.groups?.secret2;
    if (secret === undefined || secret.length === 0) continue;
    if (isReference(secret) || (rule.guard === true && isLookAlike(secret, true))) continue;
    const s = offset + m.index + m[0].length - secret.length;
    out.push({ start: s, end: s + secret.length, kind: typeof rule.kind === 'string' ? rule.kind : rule.kind(m), byContext: true });
    if (m[0].length === 0) rule.re.lastIndex++;
  }
}

/** `Cookie: a=1; sid=…` / `set-cookie: sid=…; Path=/; HttpOnly`: every value but the attributes'. */
function cookies(line: string, offset: number, out: SecretFinding[]): void {
  COOKIE_LINE.lastIndex = 0;
  const m = COOKIE_LINE.exec(line);
  if (!m) return;
  let pos = m.index + m[0].length;
  const end = line.length;
  for (const part of line.slice(pos, end).split(';')) {
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).trim();
    const value = eq < 0 ? '' : part.slice(eq + 1).replace(/\s+$/, '');
    if (eq >= 0 && value.length >= 4 && !COOKIE_ATTRIBUTES.test(name) && !value.startsWith('[masked:')) {
      const s = offset + pos + eq + 1;
      out.push({ start: s, end: s + value.length, kind: 'cookie', byContext: true });
    }
    pos += part.length + 1;
  }
}

/** What the mask of a key-named value says: `password`, `token`, `api key`, `secret`. */
function kindOfName(name: string): string {
  const n = name.toLowerCase();
  if (/pass|pwd/.test(n)) return 'password';
  if (/private[_.-]?key/.test(n)) return 'private key';
  if (/api[_.-]?key|apikey/.test(n)) return 'api key';
  if (/access[_.-]?key/.test(n)) return 'access key';
  if (/token|pat$/.test(n)) return 'token';
  if (/cookie/.test(n)) return 'cookie';
  if (/auth/.test(n)) return 'auth credential';
  if (/credential/.test(n)) return 'credential';
  if (/dsn/.test(n)) return 'dsn';
  if (/sig/.test(n)) return 'signature';
  if (/key/.test(n)) return 'key';
  return 'secret';
}

/**
 * `data:` blocks of Kubernetes Secrets as `kubectl get secret -o yaml` prints them: every value
 * indented under `data:` that is base64 of printable text is secret data (a ConfigMap's `data:`
 * holds plain text, which does not decode to printable text, and its `binaryData:` is binary).
 */
function secretDataBlocks(text: string, out: SecretFinding[]): void {
  const re = /^([ \t]*)data:[ \t]*\r?$/gm;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const indent = m[1].length;
    let at = m.index + m[0].length + 1;
    while (at < text.length) {
      const nl = text.indexOf('\n', at);
      const line = text.slice(at, nl < 0 ? text.length : nl).replace(/\r$/, '');
      const item = /^([ \t]+)([A-Za-z0-9._-]+):[ \t]+(?<v>[A-Za-z0-9+/]+={0,2})[ \t]*$/.exec(line);
      if (!item || item[1].length <= indent) break;
      const v = item.groups!.v;
      if (v.length >= 4 && v.length % 4 === 0 && /^[\t\n\r\x20-\x7e]+$/.test(Buffer.from(v, 'base64').toString('utf8'))) {
        const s = at + line.trimEnd().length - v.length;
        out.push({ start: s, end: s + v.length, kind: 'kubernetes secret data', byContext: true });
      }
      if (nl < 0) break;
      at = nl + 1;
    }
  }
}

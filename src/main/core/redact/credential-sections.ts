/**
 * Sections whose every entry is a credential, whatever the entry is called, so no key-named rule
 * sees them:
 * - a cookie list (`"cookies": [` in HTTPie's session files, Playwright's storageState, a
 *   Puppeteer `page.cookies()` print, `cookies: [` as Node's inspect prints it): each cookie's
 *   `value` is masked, as the Cookie header rule masks each value (adv14 C30);
 * - the `api keys:` block `serverless deploy` and `serverless info` print (`  name: value -
 *   description`: API Gateway keys, adv14 C48).
 * - an INI or TOML section named for secrets (`[hmac]` then `current = "…"`, `previous = "…"`: 140 F06): each entry whose value
 *   is a made word (mintedWord: a name says nothing, the section does).
 * The scanner calls these at its keyword's hit (`cookie`, `api keys:`, `[hmac]`); the byte path reads the
 * lines after the hit given here.
 */
import type { SecretFinding } from './finding.js';
import { isLookAlike, isPlaceholder, mintedWord } from './look-alikes.js';

/** After `cookie`: the rest of a list's name and its `[` (`s": [`, `s: [`). */
const COOKIE_LIST_AT = /s["']?[ \t]*:[ \t]*\[/y;
/** Longest cookie list read (characters): a browser profile's storageState holds a few dozen cookies of ~300 characters. */
const MAX_COOKIE_LIST = 64 * 1024;
/** Lines after the list's name the byte path reads (a cookie pretty-printed takes ~10). */
export const COOKIE_LIST_LINES = 512;
/** A cookie's value field: `"value": "…"` (JSON), `value: '…'` (Node's inspect). Shorter than 4: a flag (`1`, `yes`), as in Cookie headers. */
const COOKIE_VALUE = /(?:"value"|\bvalue)[ \t]*:[ \t]*(?:"(?<dq>(?:[^"\\\n]|\\.){4,8192})"|'(?<sq>(?:[^'\\\n]|\\.){4,8192})')/dg;

/** After `cookie`: a header's list of values (`'set-cookie': [` as Node's inspect prints a response's headers, `"Set-Cookie": [`). */
const HEADER_LIST_AT = /["']?[ \t]*:[ \t]*\[/y;
/** A header list's item: a quoted `name=value` (group v: the value, to `;` or the quote) and its attributes. */
const HEADER_LIST_ITEM = /(?<q>["'])[ \t]*[^\s=;'"]{1,256}=(?<v>[^;'"\n]{1,8192})/dg;

/** Does the rest of a line after `cookie` name a cookie list (`s": [`, `': [`)? The byte path's test before it reads COOKIE_LIST_LINES. */
export function startsCookieList(rest: string): boolean {
  COOKIE_LIST_AT.lastIndex = 0;
  HEADER_LIST_AT.lastIndex = 0;
  return COOKIE_LIST_AT.test(rest) || HEADER_LIST_AT.test(rest);
}

/**
 * Where the list opened by `[` at `open` ends (its `]`), strings and nesting skipped; past MAX_COOKIE_LIST characters, there (a
 * list cut short, by `head` or a terminal's scrollback: its cookies so far are read, and the hits inside it are not read again).
 */
function listEnd(text: string, open: number): number {
  const limit = Math.min(text.length, open + MAX_COOKIE_LIST);
  let depth = 0;
  let quote = 0;
  for (let i = open; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (quote) {
      if (c === 0x5c) i++;
      else if (c === quote) quote = 0;
      continue;
    }
    if (c === 0x22 || c === 0x27) quote = c;
    else if (c === 0x5b || c === 0x7b) depth++;
    else if ((c === 0x5d || c === 0x7d) && --depth === 0) return i;
  }
  return limit;
}

/**
 * A cookie list after the hit of `cookie` ending at `at`: each cookie's value, unless `isSetting` says it is a setting (a
 * storageState's `theme: dark`, `_ga`'s visitor number: as the Cookie header's rule keeps them). Returns where the list ends
 * (a hit of `cookie` before it is read with it: a megabyte of `"cookies": [` not closed read each 64 KB from each, 5 s).
 */
export function cookieListValues(text: string, at: number, out: SecretFinding[], isSetting: (value: string) => boolean = () => false): number | undefined {
  COOKIE_LIST_AT.lastIndex = at;
  if (!COOKIE_LIST_AT.test(text)) return headerListValues(text, at, out, isSetting);
  const open = COOKIE_LIST_AT.lastIndex - 1;
  const end = listEnd(text, open);
  const list = text.slice(open, end);
  COOKIE_VALUE.lastIndex = 0;
  for (let m = COOKIE_VALUE.exec(list); m; m = COOKIE_VALUE.exec(list)) {
    const group = m.groups!.dq !== undefined ? 'dq' : 'sq';
    if (isPlaceholder(m.groups![group]) || isSetting(m.groups![group])) continue;
    const [start, end] = m.indices!.groups![group]!;
    out.push({ start: open + start, end: open + end, kind: 'cookie', byContext: true });
  }
  return end;
}

/** A preference's value of words (`Europe%2FAmsterdam`, `checkout-v2`, `necessary.analytics`: adv219 L11), no session's. */
const PREFERENCE_WORDS = /^[A-Za-z]+(?:[._/ -][A-Za-z0-9]+){0,8}$/;
function preferenceValue(v: string): boolean {
  try {
    return PREFERENCE_WORDS.test(decodeURIComponent(v));
  } catch {
    return false;
  }
}

/**
 * A `Set-Cookie` header's values as a list (Node's inspect of a fetch or axios response: `'set-cookie': [` then one
 * `'name=value; Path=/; HttpOnly'` a line: adv213 F46), the hit at `cookie` ending at `at`: each item's value, but a setting's.
 */
function headerListValues(text: string, at: number, out: SecretFinding[], isSetting: (value: string) => boolean): number | undefined {
  if (!/set-$/i.test(text.slice(Math.max(0, at - 10), at - 6))) return undefined;
  HEADER_LIST_AT.lastIndex = at;
  if (!HEADER_LIST_AT.test(text)) return undefined;
  const open = HEADER_LIST_AT.lastIndex - 1;
  const end = listEnd(text, open);
  const list = text.slice(open, end);
  HEADER_LIST_ITEM.lastIndex = 0;
  for (let m = HEADER_LIST_ITEM.exec(list); m; m = HEADER_LIST_ITEM.exec(list)) {
    const v = m.groups!.v.trimEnd();
    // The item's other quote ends it (its attributes before it); the next item starts after it.
    const close = list.indexOf(m.groups!.q, m.index + m[0].length);
    HEADER_LIST_ITEM.lastIndex = close < 0 ? list.length : close + 1;
    if (v.length < 4 || isPlaceholder(v) || isSetting(v) || preferenceValue(v)) continue;
    const [start] = m.indices!.groups!.v!;
    out.push({ start: open + start, end: open + start + v.length, kind: 'cookie', byContext: true });
  }
  return end;
}

/** A header's values as a YAML list (a VCR cassette: `Set-Cookie:` then `- name=value; path=/…` items), the hit at `cookie`. */
const YAML_COOKIE_LIST_AT = /:[ \t]*\r?\n/y;
/** One item: indented, `- `, the cookie's name, `=`, its value up to `;` or the line's end (group v). */
const YAML_COOKIE_ITEM = /[ \t]*-[ \t]+['"]?[^\s=;'"]{1,256}=(?<v>[^\s;'"]{1,8192})[^\n]{0,4096}\n/dy;
/** Items read under the header (a response sets a few cookies; the byte path's window after a name ending its line holds them). */
const YAML_COOKIE_ITEMS = 16;

/**
 * The cookies of a `Set-Cookie:` (or `Cookie:`) header recorded as a YAML list (Ruby's VCR, Python's vcrpy: 140 F10): each item's
 * value, unless `isSetting` says it is a setting (`theme=dark`), no credential.
 */
export function yamlCookieItems(text: string, at: number, isSetting: (value: string) => boolean, out: SecretFinding[]): void {
  YAML_COOKIE_LIST_AT.lastIndex = at;
  if (!YAML_COOKIE_LIST_AT.test(text)) return;
  let pos = YAML_COOKIE_LIST_AT.lastIndex;
  for (let n = 0; n < YAML_COOKIE_ITEMS; n++) {
    YAML_COOKIE_ITEM.lastIndex = pos;
    const m = YAML_COOKIE_ITEM.exec(text);
    if (!m) return;
    const v = m.groups!.v.replace(/\r$/, '');
    if (v.length >= 4 && !isSetting(v) && !isPlaceholder(v)) {
      const [start] = m.indices!.groups!.v!;
      out.push({ start, end: start + v.length, kind: 'cookie', byContext: true });
    }
    pos = YAML_COOKIE_ITEM.lastIndex;
  }
}

/** The keyword of serverless' block. */
export const API_KEYS_WORD = 'api keys:';
/** The `api keys:` header alone on its line (serverless), the hit at its end. */
const API_KEYS_HEADER_BEFORE = /(?:^|\n)[ \t]*api keys:$/;
/** One entry of the block: indented, `name: value`, an optional ` - description`. */
const API_KEY_ENTRY = /\n[ \t]+[\w.-]{1,128}:[ \t]+(?<secret>[A-Za-z0-9_-]{16,128})(?:[ \t]+-[ \t][^\n]*)?(?=\r?\n|\r?$)/dy;
/** Entries read under `api keys:` (a service has a few). */
export const API_KEY_LINES = 16;

/** serverless' `api keys:` block after the hit ending at `at`: each entry's value. */
export function apiKeysBlock(text: string, at: number, out: SecretFinding[]): void {
  if (!API_KEYS_HEADER_BEFORE.test(text.slice(Math.max(0, at - 64), at))) return;
  let pos = at;
  if (text.charCodeAt(pos) === 0x0d) pos++;
  for (let n = 0; n < API_KEY_LINES; n++) {
    API_KEY_ENTRY.lastIndex = pos;
    const m = API_KEY_ENTRY.exec(text);
    if (!m) return;
    const [start, end] = m.indices!.groups!.secret!;
    out.push({ start, end, kind: 'api key', byContext: true });
    pos = API_KEY_ENTRY.lastIndex;
    if (text.charCodeAt(pos) === 0x0d) pos++;
  }
}

/** The headers of sections whose entries are secrets, as the keyword pass finds them (lower case). */
// `[api]`: Zulip's zuliprc (`email=`, `key=<32 letters and digits>`, `site=`: adv165 F34); an email and a URL are no made words.
// `[passwords]`: MobaXterm.ini's stored passwords (`ssh22:root@10.0.0.4=<obfuscated>`: pass 210 F39); not `[credentials]`, whose
// entries are as often ids (`app_id=<uuid>` beside a key file).
// `[admins]`: CouchDB's `local.ini` (`admin = <password>`, or its PBKDF2 hash once the server has read it: pass 284 F42).
// `tokens {` / `"tokens": {`: Consul's ACL tokens in the agent's configuration (`acl { tokens { agent = "<uuid>" } }`, its JSON:
// session 45's leftover), a block to its `}` (secretBlockEntries).
export const SECRET_SECTION_WORDS = ['[hmac]', '[secrets]', '[signing]', '[signing_keys]', '[jwt]', '[tokens]', '[api_keys]', '[api]', '[passwords]', '[ssh_passwords]', 'tokens {', 'tokens": {', 'tokens":  {', 'tokens = {', 'peppers = {', '[admins]', 'passwordpeppers = [', 'passwordpeppers = array(', 'access_code": {', '.signing_keys]', '.signature_keys]', ...['signaturekeys', 'signingkeys', 'signature_keys', 'signing_keys'].flatMap((w) => [`${w}: {`, `${w}": {`, `${w}': {`])];
/** Entries read under such a header (a key's rotation keeps a few). */
export const SECRET_SECTION_LINES = 16;
/** An entry: `name = value`, the value quoted or not (group v), to the line's end or a comment. */
// (A name may be a connection's: `rdp3389:CORP\jdoe@rdp01.corp.example`.)
const SECTION_ENTRY = /[ \t]*(?:[^\s=#;[]{1,256}[ \t]*=|[\w.-]{1,64}[ \t]*:)[ \t]*(?:"(?<q>[^"\n]{1,1024})"|'(?<s>[^'\n]{1,1024})'|(?<v>[^\s#;"']{1,1024}))[ \t]*(?:[#;][^\n]*)?\r?$/dmy;
/** An `[admins]` entry: `user = password`, to the line's end or a `;` comment. */
// (A generated password may hold a `'`: adv301 F7.)
const ADMINS_ENTRY = /[ \t]*[^\s=#;[]{1,256}[ \t]*=[ \t]*(?<v>[^\s;"]{1,1024})[ \t]*(?:;[^\n]*)?\r?$/dmy;
/** A section's or block's header line is this short at most (`[ssh_passwords]`, `API_TOKEN_PEPPERS = {`). */
const MAX_SECTION_HEADER = 128;
/** A comment or a blank line among the entries. */
const SECTION_SKIP = /[ \t]*(?:[#;][^\n]*)?\r?$/my;

/** The entries under a secrets section's header, the hit at the header's end: each made word's value, to the next section. */
export function secretSectionEntries(text: string, at: number, out: SecretFinding[]): void {
  // The header alone on its line, read back a bounded way (a line of a megabyte of `[secrets]` or `a_tokens {` hit the keyword at
  // every one and was read back to its start at each: `[secrets]` × 20,000 on one line took 2.1 s, a megabyte about a minute).
  let lineStart = at;
  while (lineStart > 0 && text.charCodeAt(lineStart - 1) !== 0x0a) if (at - --lineStart > MAX_SECTION_HEADER) return;
  const header = text.slice(lineStart, Math.min(text.length, at + 2)).replace(/\n[^]*$/, '');
  if (BLOCK_HEADER.test(header)) return secretBlockEntries(text, at, out);
  if (!/^[ \t]*\[[\w.-]+\][ \t]*\r?$/.test(header)) return;
  // CouchDB's `[admins]`: a password may hold a `#` (its comments start with `;`: the stop-time check's `root = p7WT9#qy…`).
  const entry = /\[admins\]/i.test(header) ? ADMINS_ENTRY : SECTION_ENTRY;
  // (An SSH CA's `[admins]` of key fingerprints, `alice = SHA256:…`: adv301 L15.)
  pushEntries(text, at, entry, true, (value) => mintedWord(value) && !isLookAlike(value, false) && !isPlaceholder(value) && !/^(?:SHA256|MD5):/.test(value), out);
}

/** The entries below a header, the hit at its end: each value `accept` takes (group q, s or v of `entry`) is a secret; a comment or
 *  a blank line is passed over; anything else ends them, and a line opening with `[` too when `toSection` (the next INI section). */
function pushEntries(text: string, at: number, entry: RegExp, toSection: boolean, accept: (value: string, name?: string) => boolean, out: SecretFinding[]): void {
  let pos = text.indexOf('\n', at);
  for (let n = 0; pos >= 0 && n < SECRET_SECTION_LINES; n++) {
    pos++;
    if (toSection && text.charCodeAt(pos) === 0x5b) return;
    entry.lastIndex = pos;
    const m = entry.exec(text);
    if (m) {
      const g = m.groups!.q !== undefined ? 'q' : m.groups!.s !== undefined ? 's' : 'v';
      if (accept(m.groups![g]!, m.groups!.n)) {
        const [start, end] = m.indices!.groups![g]!;
        out.push({ start, end, kind: 'secret', byContext: true });
      }
    } else {
      SECTION_SKIP.lastIndex = pos;
      if (!SECTION_SKIP.test(text)) return;
    }
    pos = text.indexOf('\n', pos);
  }
}

/** A block named for secrets opening alone on its line: HCL's `tokens {`, JSON's `"tokens": {`. */
// (NetBox's `API_TOKEN_PEPPERS = {`, its entries numbered `1: '…'`: pass 280 F29; after grep's `26:` / `27-` too.)
// (And Moodle's `$CFG->passwordpeppers = [` with `1 => '…',` entries: pass 291 F44.)
// (And Bambu Studio's `"access_code": {` of printers' LAN access codes by serial, `"01P00A…": "<8 digits>"`: pass 293 F20.)
// (And a webhook's signing keys by their rotation's names, `webhookSignatureKeys: {` then `primary: '…',` / `secondary: '…'` as
// node prints Box's SDK config: pass 314 F27.)
// (Under grep -r's prefixes, `file:12:` or `file:` / `file-`: adv301 F1, F30.)
const BLOCK_HEADER = /^(?:[\w-]{0,128}[./][\w./-]{0,128}[:-](?:\d{1,9}[:-])?|\d{1,9}[:-])?[ \t]*(?:(?:"?tokens"?[ \t]*[:=]?|"(?:user_)?access_code"[ \t]*:|(?:API_TOKEN_)?PEPPERS[ \t]*=|["']?\w{0,64}(?:[Ss]ignature|[Ss]igning)_?[Kk]eys["']?[ \t]*:)[ \t]*\{|\$CFG->passwordpeppers[ \t]*=[ \t]*(?:\[|array\())[ \t]*\r?$/;
/** A block's entry: `name = "value"` (HCL), `"name": "value",` (JSON) or `1: '…',` (Python), group v or s. */
const BLOCK_ENTRY = /(?:[\w-]{0,128}[./][\w./-]{0,128}[:-](?:\d{1,9}[:-])?|\d{1,9}[:-])?[ \t]*(?:"?[\w.-]{1,64}"?|'[\w.-]{1,64}')[ \t]*(?:=>|[=:])[ \t]*(?:"(?<v>[^"\n]{1,1024})"|'(?<s>[^'\n]{1,1024})')[ \t]*,?[ \t]*(?:(?:#|\/\/)[^\n]*)?\r?$/dmy;
/** BLOCK_ENTRY with its name (group n). */
const NAMED_BLOCK_ENTRY = new RegExp(BLOCK_ENTRY.source.replace('(?:"?[\\w.-]{1,64}"?|\'[\\w.-]{1,64}\')', '["\']?(?<n>[\\w.-]{1,64})["\']?'), BLOCK_ENTRY.flags);
if (!NAMED_BLOCK_ENTRY.source.includes('(?<n>')) throw new Error('credential-sections: BLOCK_ENTRY changed; NAMED_BLOCK_ENTRY names no entry');
/** A signing key block's entries that are no key: its id, algorithm, public half, addresses, dates. */
const NOT_SIGNING_KEY_NAME = /^(?:kid|\w*_kid|\w*[a-z]Kid|key_?id|alg|algorithm|use|kty|crv|x|y|n|e|iss|issuer|\w*public\w*|\w*(?:uri|url)|\w*(?:created|expires?|rotated?)\w*|active\w*)$/i;
/** A Consul token's entry: HCL's `name = "…"` or JSON's `"name": "…",`, under grep's prefixes too. */
const CONSUL_ENTRY = /(?:[\w-]{0,128}[./][\w./-]{0,128}[:-](?:\d{1,9}[:-])?|\d{1,9}[:-])?[ \t]*(?:[\w-]{1,64}[ \t]*=|"[\w-]{1,64}"[ \t]*:)[ \t]*"(?<v>[^"\n]{1,1024})"[ \t]*,?[ \t]*(?:(?:#|\/\/)[^\n]*)?\r?$/dmy;
/** A value this long with no blank in such a block is its secret, whatever its characters. */
const MIN_BLOCK_SECRET = 16;
/** A token's UUID (Consul's accessor-less secret ids), which the look-alike guard would keep as an id anywhere else. */
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** A Bambu Lab printer's LAN access code. */
const ACCESS_CODE = /^\d{8}$/;

/** A block's value that is its secret whatever its characters: long and unbroken, or minted (no placeholder, no look-alike). */
const madeBlockSecret = (value: string) => !isPlaceholder(value) && ((value.length >= MIN_BLOCK_SECRET && !/\s/.test(value)) || (mintedWord(value) && !isLookAlike(value, false)));

/** The entries of a secrets block, the hit at its header's end: each UUID's or made word's value, to the block's `}`. */
function secretBlockEntries(text: string, at: number, out: SecretFinding[]): void {
  const header = text.slice(Math.max(0, at - MAX_SECTION_HEADER), at);
  const peppers = /PEPPERS/i.test(header);
  if (header.endsWith('access_code": {')) return pushEntries(text, at, BLOCK_ENTRY, false, (value) => ACCESS_CODE.test(value), out);
  // (A pepper may be any characters, a Django-style key's parentheses and `@` included: pass 280 F29 on its re-run.)
  // (Consul's tokens are UUIDs: a design system's `"tokens": {` holds `"font-stack": "Inter,system-ui,…"`: adv289 L13.)
  // A signing key's block names its keys by their rotation (`primary`, `current`, `v2`); its key id, algorithm and public half stay
  // (`kid`, `alg`, `publicKeyX`: adv320 L7, L8).
  if (/Sign(?:ature|ing)_?Keys/i.test(header)) return pushEntries(text, at, NAMED_BLOCK_ENTRY, false, (value, name) => !NOT_SIGNING_KEY_NAME.test(name ?? '') && madeBlockSecret(value), out);
  const accept = peppers
    ? madeBlockSecret
    : (value: string) => UUID.test(value);
  // (Consul's HCL names its tokens bare, `agent = "…"`, its JSON quoted with `:`; a quoted name with `=` is Terraform's output of
  // a map, `"agent" = "<accessor id>"`, ids that are no secret: adv301 L1.)
  pushEntries(text, at, peppers ? BLOCK_ENTRY : CONSUL_ENTRY, false, accept, out);
}

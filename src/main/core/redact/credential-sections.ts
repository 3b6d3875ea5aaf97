/**
 * Sections whose every entry is a credential, whatever the entry is called, so no key-named rule
 * sees them:
 * - a cookie list (`"cookies": [` in HTTPie's session files, Playwright's storageState, a
 *   Puppeteer `page.cookies()` print, `cookies: [` as Node's inspect prints it): each cookie's
 *   `value` is masked, as the Cookie header rule masks each value (adv14 C30);
 * - the `api keys:` block `serverless deploy` and `serverless info` print (`  name: value -
 *   description`: API Gateway keys, adv14 C48).
 * The scanner calls these at its keyword's hit (`cookie`, `api keys:`); the byte path reads the
 * lines after the hit given here.
 */
import type { SecretFinding } from './finding.js';
import { isPlaceholder } from './look-alikes.js';

/** After `cookie`: the rest of a list's name and its `[` (`s": [`, `s: [`). */
const COOKIE_LIST_AT = /s["']?[ \t]*:[ \t]*\[/y;
/** Longest cookie list read (characters): a browser profile's storageState holds a few dozen cookies of ~300 characters. */
const MAX_COOKIE_LIST = 64 * 1024;
/** Lines after the list's name the byte path reads (a cookie pretty-printed takes ~10). */
export const COOKIE_LIST_LINES = 512;
/** A cookie's value field: `"value": "…"` (JSON), `value: '…'` (Node's inspect). Shorter than 4: a flag (`1`, `yes`), as in Cookie headers. */
const COOKIE_VALUE = /(?:"value"|\bvalue)[ \t]*:[ \t]*(?:"(?<dq>(?:[^"\\\n]|\\.){4,8192})"|'(?<sq>(?:[^'\\\n]|\\.){4,8192})')/dg;

/** Does the rest of a line after `cookie` name a cookie list (`s": [`)? The byte path's test before it reads COOKIE_LIST_LINES. */
export function startsCookieList(rest: string): boolean {
  COOKIE_LIST_AT.lastIndex = 0;
  return COOKIE_LIST_AT.test(rest);
}

/** Where the list opened by `[` at `open` ends (its `]`), strings and nesting skipped; -1 past MAX_COOKIE_LIST or the text. */
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
  return limit === text.length ? text.length : -1;
}

/** A cookie list after the hit of `cookie` ending at `at`: each cookie's value. */
export function cookieListValues(text: string, at: number, out: SecretFinding[]): void {
  COOKIE_LIST_AT.lastIndex = at;
  if (!COOKIE_LIST_AT.test(text)) return;
  const open = COOKIE_LIST_AT.lastIndex - 1;
  const end = listEnd(text, open);
  if (end < 0) return;
  const list = text.slice(open, end);
  COOKIE_VALUE.lastIndex = 0;
  for (let m = COOKIE_VALUE.exec(list); m; m = COOKIE_VALUE.exec(list)) {
    const group = m.groups!.dq !== undefined ? 'dq' : 'sq';
    if (isPlaceholder(m.groups![group])) continue;
    const [start, end] = m.indices!.groups![group]!;
    out.push({ start: open + start, end: open + end, kind: 'cookie', byContext: true });
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

/**
 * Values an ORM's debug log binds to a statement's parameters, listed apart from the statement:
 * - knex (`DEBUG=knex:*`): `knex:query insert into "t" ("email", "token") values ($1, $2)` then
 *   `knex:bindings [ 'a@b.c', '…' ]` on a later line (adv24 F37); Laravel's query log's
 *   `"query": "… values (?, ?)", "bindings": ["…", "…"]` on one line;
 * - Prisma's query event: `Query: INSERT … VALUES ($1,$2)` then `Params: ["…","…"]` (adv24 F40);
 *   Drizzle's `… -- params: ["…"]`, TypeORM's `… -- PARAMETERS: ["…"]` on the statement's line;
 * - Sequelize with `logQueryParameters`: `Executing (default): INSERT … VALUES ($1,$2); "…", "…"`
 *   (adv24 F38);
 * - SQLAlchemy's echo: the statement, then `[generated in 0.0002s] ('…', '…')` (or `[cached since …]`);
 * - Hibernate's `org.hibernate.SQL` statement, then one TRACE line a parameter: `binding parameter [3] as [VARCHAR] - […]`
 *   (Hibernate 5), `binding parameter (3:VARCHAR) <- […]` (6) (adv58 F08).
 * - EF Core's sensitive data logging: `Executed DbCommand (4ms) [Parameters=[@p0='…' (Size = 450), @p1='False', …], …]` with
 *   the statement on the lines below it (adv91 F23): each item by its name.
 * The statement is parsed once per list: an INSERT's column list against its VALUES tuples, and
 * each `col = <placeholder>` (an UPDATE's SET, a WHERE), placeholders `$n`, `:n`, `?`, `:name`,
 * `@p0`; the list's item at a placeholder whose column is a secret's name is the value.
 * Bounded work: a list's statement is read back at most MAX_STATEMENT_CHARS, never before the
 * previous list's end, and a list is read forward at most MAX_LIST_CHARS.
 */
import type { SecretFinding } from './finding.js';
import { isLookAlike } from './look-alikes.js';

/** The keywords of a parameter list (the scanner's pass finds them, in any case). */
export const BOUND_PARAMS_WORDS = ['bindings', 'params:', 'parameters:', 'executing (', '[generated in', '[cached since', 'binding parameter'];
/** Lines above a list its statement may start on (knex logs `knex:tx` lines between; a statement wraps onto a few). */
export const BOUND_PARAMS_LINES_ABOVE = 4;
/** Characters of a statement read back from its list. */
const MAX_STATEMENT_CHARS = 16 * 1024;
/** Characters of a list read. */
const MAX_LIST_CHARS = 16 * 1024;
/** Items of a list read. */
const MAX_ITEMS = 512;

/** A column's kind of secret, or undefined when its name is no secret's (scanner.ts isSecretName, kindOfName). */
export type ColumnKind = (name: string) => string | undefined;

/** A statement's first word (the log's prefix before it is not read). */
const STATEMENT_WORD = /\b(?:INSERT|UPDATE|SELECT|DELETE|REPLACE|MERGE|WITH|insert|update|select|delete|replace|merge|with)\b/;
/** A placeholder, or a quoted literal skipped over: `$1`, `:1`, `?`, `:name`, `@p0`, `@name`. */
const PLACEHOLDER = /'(?:[^'\\\n]|''|\\.){0,256}'|(?<![\w:$@?])(?:\$(?<d>\d{1,4})|:(?<c>\d{1,4})|(?<q>\?)(?![|&?])|(?<named>[:@][A-Za-z_]\w{0,63}))(?![\w$])/g;
/** `VALUES` (or `VALUE`) then the first tuple's `(`. */
const VALUES_WORD = /\b(?:VALUES?|values?)[ \t]*(?:\r?\n[ \t]*)?\(/g;

/** The text being scanned, its last hit and the last list's end: a later list's statement is not read back before it. */
let state: { text: string; hit: number; done: number } | undefined;

/** The list whose keyword's hit ends at `at`: its items bound to a secret's column. */
export function boundParams(text: string, at: number, kindOf: ColumnKind, out: SecretFinding[]): void {
  // Hits come in order in one pass over a text: an earlier one starts another pass.
  if (state === undefined || state.text !== text || at <= state.hit) state = { text, hit: at, done: 0 };
  state.hit = at;
  if (at < state.done) return;
  const word = text.slice(Math.max(0, at - 14), at).toLowerCase();
  const back = Math.max(state.done, at - MAX_STATEMENT_CHARS, 0);
  // Searches for the line's ends bounded both ways (a megabyte line of keywords searched whole per hit was quadratic).
  const lineStart = lineStartAfter(text, at, back);
  state.done = at;
  if (text.slice(Math.max(0, at - 17), at).toLowerCase() === 'binding parameter') {
    // One parameter a line: later hits on it are not read (a megabyte line of them stays linear).
    state.done = hibernateBinding(text, at, lineStart, back, kindOf, out);
    return;
  }
  if (word.endsWith('executing (')) {
    const lineEnd = lineEndBefore(text, at, at + MAX_LIST_CHARS);
    // Sequelize: the statement and its list on the line, the list after the `;` that follows the last placeholder.
    const line = text.slice(at, lineEnd);
    // Read once: a later hit on the line (a megabyte line of them) is not read again.
    state.done = lineEnd;
    const st = statementOf(line, kindOf);
    if (!st || st.last < 0) return;
    const semi = line.indexOf(';', st.last);
    if (semi < 0) return;
    const listAt = at + semi + 1;
    state.done = readList(text, listAt, lineEnd, '', st, kindOf, out);
    return;
  }
  // The list's opening bracket after the keyword.
  let i = at;
  if (word.endsWith('[generated in') || word.endsWith('[cached since')) {
    const close = text.slice(at, at + 64).indexOf(']');
    if (close < 0 || text.slice(at, at + close).includes('\n')) return;
    i = at + close + 1;
  } else {
    // `"bindings": [`, `bindings => [`, `knex:bindings [`, `Params: [`.
    while (i < text.length && i - at < 8 && ' \t"\'=>:'.includes(text[i])) i++;
  }
  while (i < text.length && i - at < 72 && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i++;
  const open = text[i];
  if (open !== '[' && open !== '(') return;
  // The statement: on the keyword's line before it (Drizzle, TypeORM, Laravel), else on the lines above (knex, Prisma, SQLAlchemy).
  let st = statementOf(text.slice(Math.max(lineStart, back), at), kindOf);
  if (!st || st.last < 0) {
    let from = lineStart;
    for (let n = 0; n < BOUND_PARAMS_LINES_ABOVE && from > back; n++) {
      const below = from;
      from = lineStartAfter(text, from - 1, back);
      if (STATEMENT_WORD.test(text.slice(from, below))) break;
    }
    if (from >= lineStart) return;
    st = statementOf(text.slice(from, lineStart), kindOf);
  }
  if (!st || st.secret.size === 0) return;
  state.done = readList(text, i + 1, lineEndBefore(text, i, i + MAX_LIST_CHARS), open === '[' ? ']' : ')', st, kindOf, out);
}

/** EF Core's list's keyword (`[Parameters=[`), and the lines below it its statement may take (a long INSERT, a query's joins). */
export const EF_PARAMS_WORD = 'parameters=[';
export const EF_STATEMENT_LINES = 24;
/** One item of EF Core's list: its name, its value (quoted, NULL or bare), its facets (`(Size = 450)`, `(DbType = …)`), then `,` or `]`. */
const EF_ITEM = /[ \t]*(?<name>@\w{1,64})=(?:'(?<v>(?:[^'\n]|''){0,4096})'|NULL|[^\s,()\]]{0,256})(?:[ \t]*\([^()\n]{0,64}\))*[ \t]*(?<sep>[,\]])/dy;

/**
 * EF Core's `[Parameters=[…]` whose keyword's hit ends at `at`: its items, then its statement on the indented lines below
 * (EF_STATEMENT_LINES at most, to the next log record's unindented line); each item whose placeholder the statement binds to a
 * secret's column (`INSERT INTO [RefreshTokens] (…, [Token]) VALUES (…, @p2)`, `[u].[ApiKey] = @__apiKey_1`) is masked.
 */
export function efCoreParams(text: string, at: number, kindOf: ColumnKind, out: SecretFinding[]): void {
  const items: { name: string; value: string; start: number }[] = [];
  let i = at;
  for (let n = 0; n < MAX_ITEMS && i - at < MAX_LIST_CHARS; n++) {
    EF_ITEM.lastIndex = i;
    const m = EF_ITEM.exec(text);
    if (!m) break;
    if (m.groups!.v !== undefined) items.push({ name: m.groups!.name, value: m.groups!.v, start: m.indices!.groups!.v![0] });
    i = EF_ITEM.lastIndex;
    if (m.groups!.sep === ']') break;
  }
  if (items.length === 0) return;
  const lineEnd = text.indexOf('\n', i);
  if (lineEnd < 0 || lineEnd - i > MAX_LIST_CHARS) return;
  let end = lineEnd;
  for (let n = 0; n < EF_STATEMENT_LINES && end < text.length && end - lineEnd < MAX_STATEMENT_CHARS; n++) {
    const c = text.charCodeAt(end + 1);
    if (c !== 0x20 && c !== 0x09) break;
    const next = text.indexOf('\n', end + 1);
    end = next < 0 ? text.length : next;
  }
  if (end === lineEnd) return;
  const st = statementOf(text.slice(lineEnd + 1, end), kindOf);
  if (!st || st.secret.size === 0) return;
  for (const item of items) {
    const position = st.named.get(item.name);
    const column = position === undefined ? undefined : st.secret.get(position);
    if (column === undefined || item.value.length === 0 || isLookAlike(item.value, /pass|pwd/i.test(column))) continue;
    out.push({ start: item.start, end: item.start + item.value.length, kind: kindOf(column)!, byContext: true });
  }
}

/** A Hibernate parameter's line after its keyword: its position, then its value's opening bracket. */
const BINDING = /[ \t]*(?:\[(?<n>\d{1,4})\] as \[[\w ]{1,40}\] - \[|\((?<m>\d{1,4}):[\w ]{1,40}\) <- \[)/y;
/** Lines above a parameter's its statement is looked for on (one line a parameter, a statement's lines above them). */
const MAX_BINDING_LINES_ABOVE = 1024;
/** The last parameter line read and its statement: the next parameter's line below it reads the same one (no walk back per line). */
let binding: { text: string; lineEnd: number; st: Statement | undefined } | undefined;

/** Hibernate's parameter line whose keyword ends at `at`: its value, when its statement binds it to a secret's column. Returns the line's end. */
function hibernateBinding(text: string, at: number, lineStart: number, back: number, kindOf: ColumnKind, out: SecretFinding[]): number {
  const lineEnd = lineEndBefore(text, at, at + MAX_LIST_CHARS);
  BINDING.lastIndex = at;
  const m = BINDING.exec(text);
  if (!m) return lineEnd;
  const n = Number(m.groups!.n ?? m.groups!.m);
  let st: Statement | undefined;
  if (binding && binding.text === text && binding.lineEnd + 1 === lineStart) st = binding.st;
  else {
    // The nearest line above that is no parameter's (the squasher's marks between them aside) and holds a statement.
    for (let from = lineStart, k = 0; from > back && k < MAX_BINDING_LINES_ABOVE; k++) {
      const below = from - 1;
      from = lineStartAfter(text, below, back);
      const line = text.slice(from, below);
      if (/binding parameter|^\[\.\.\. /i.test(line)) continue;
      st = STATEMENT_WORD.test(line) ? statementOf(line, kindOf) : undefined;
      break;
    }
  }
  binding = { text, lineEnd, st };
  const column = st?.secret.get(n);
  if (column === undefined) return lineEnd;
  // The value: to the line's last `]` (a value may hold one).
  let close = lineEnd;
  while (close > BINDING.lastIndex && text.charCodeAt(close - 1) !== 0x5d) close--;
  const v = text.slice(BINDING.lastIndex, close - 1);
  if (close - 1 > BINDING.lastIndex && !isLookAlike(v, /pass|pwd/i.test(column))) out.push({ start: BINDING.lastIndex, end: close - 1, kind: kindOf(column)!, byContext: true });
  return lineEnd;
}

/** Where the line holding text[i - 1] starts, not before `limit`. */
function lineStartAfter(text: string, i: number, limit: number): number {
  let j = i - 1;
  while (j >= limit && text.charCodeAt(j) !== 0x0a) j--;
  return Math.max(j + 1, limit);
}

/** Where the line holding text[i] ends (its `\n`), not after `limit`. */
function lineEndBefore(text: string, i: number, limit: number): number {
  const end = Math.min(limit, text.length);
  let j = i;
  while (j < end && text.charCodeAt(j) !== 0x0a) j++;
  return j;
}

/** A statement's parameters: per list position (1-based), the secret column bound there; `last`, the last placeholder's end. */
interface Statement {
  secret: Map<number, string>;
  last: number;
  /** A named placeholder's position (`@p2`, `:token`): EF Core lists its values by name. */
  named: Map<string, number>;
}

/** The statement in `s` (from its first word): its placeholders' positions and the secret columns they are bound to. */
function statementOf(s: string, kindOf: ColumnKind): Statement | undefined {
  const w = STATEMENT_WORD.exec(s);
  if (!w) return undefined;
  const from = w.index;
  // Placeholders in order: their position in the list, where they stand.
  const at: number[] = [];
  const end: number[] = [];
  const pos: number[] = [];
  const named = new Map<string, number>();
  let ordinal = 0;
  PLACEHOLDER.lastIndex = from;
  for (let m = PLACEHOLDER.exec(s); m; m = PLACEHOLDER.exec(s)) {
    const g = m.groups!;
    let n: number;
    if (g.d !== undefined) n = Number(g.d);
    else if (g.c !== undefined) n = Number(g.c);
    else if (g.q !== undefined) n = ++ordinal;
    else if (g.named !== undefined) {
      let k = named.get(g.named);
      if (k === undefined) named.set(g.named, (k = ++ordinal));
      n = k;
    } else continue;
    at.push(m.index);
    end.push(m.index + m[0].length);
    pos.push(n);
  }
  const secret = new Map<number, string>();
  const last = end.length ? end[end.length - 1] : -1;
  if (at.length === 0) return { secret, last, named };
  const columnOf = new Map<number, string>();
  // `col = <placeholder>`: the characters before it.
  for (let k = 0; k < at.length; k++) {
    const c = columnBefore(s, at[k], from);
    if (c !== undefined) columnOf.set(k, c);
  }
  // An INSERT's columns against each VALUES tuple.
  VALUES_WORD.lastIndex = from;
  let k = 0;
  for (let v = VALUES_WORD.exec(s); v; v = VALUES_WORD.exec(s)) {
    const columns = columnList(s, v.index, from);
    if (!columns) continue;
    while (k < at.length && at[k] < v.index) k++;
    let i = v.index + v[0].length;
    // Each tuple: values split at commas outside parentheses; a tuple ends at its `)`, `,` and `(` start the next.
    for (let tuples = 0; tuples < 1024 && i < s.length; tuples++) {
      let depth = 0;
      let index = 0;
      for (; i < s.length; i++) {
        while (k < at.length && at[k] < i) k++;
        if (k < at.length && at[k] === i) {
          if (depth === 0 && index < columns.length) columnOf.set(k, columns[index]);
          i = end[k] - 1;
          continue;
        }
        const c = s.charCodeAt(i);
        if (c === 0x27) {
          // A literal: to its closing quote (PLACEHOLDER matched it whole, so no placeholder is inside).
          const q = s.indexOf("'", i + 1);
          i = q < 0 ? s.length : q;
        } else if (c === 0x28) depth++;
        else if (c === 0x29) {
          if (depth === 0) break;
          depth--;
        } else if (c === 0x2c && depth === 0) index++;
      }
      i++;
      while (i < s.length && /\s/.test(s[i])) i++;
      if (s[i] !== ',') break;
      i++;
      while (i < s.length && /\s/.test(s[i])) i++;
      if (s[i] !== '(') break;
      i++;
    }
    VALUES_WORD.lastIndex = Math.max(VALUES_WORD.lastIndex, i);
  }
  for (const [k, column] of columnOf) if (!secret.has(pos[k]) && kindOf(column) !== undefined) secret.set(pos[k], column);
  return { secret, last, named };
}

/** The column compared with or set to the placeholder at `p` (`"token" = $1`, `a0."token" = ?`, `` `api_key`=? ``, `[Token] = @p0`): read back a few characters. */
function columnBefore(s: string, p: number, from: number): string | undefined {
  let i = p - 1;
  const blanks = () => {
    while (i > from && (s[i] === ' ' || s[i] === '\t')) i--;
  };
  blanks();
  if (s[i] === '(') i--;
  blanks();
  if (s[i] !== '=') return undefined;
  i--;
  if (s[i] === '!' || s[i] === '<' || s[i] === '>') i--;
  blanks();
  const q = s[i] === '"' || s[i] === '`' ? s[i] : s[i] === ']' ? '[' : undefined;
  if (q !== undefined) {
    const e = i;
    const o = s.lastIndexOf(q, e - 1);
    if (o < from || e - o > 129) return undefined;
    // An escaped quote (the statement in a JSON string: `\"token\" = ?`).
    const column = s.slice(o + 1, e).replace(/\\$/, '');
    // A column named `key` or `value` says what it holds by its table's name (Prisma's `"public"."ApiKey"."key" = $1`: adv81 F50).
    if (VAGUE_COLUMN.test(column) && s[o - 1] === '.' && s[o - 2] === q) {
      const t = s.lastIndexOf(q === '[' ? '[' : q, o - 3);
      if (t >= from && o - t <= 130) return s.slice(t + 1, o - 2);
    }
    return column;
  }
  const e = i + 1;
  while (i >= from && e - i <= 128 && /\w/.test(s[i])) i--;
  return e - i > 1 && /^[A-Za-z_]/.test(s[i + 1]) ? s.slice(i + 1, e) : undefined;
}

/** A column whose name says only that it holds a value: its table's name says which (`ApiKey`, `Token`, `Secret`; not `Translation`). */
const VAGUE_COLUMN = /^(?:key|value|plaintext)$/i;

/** The column list before `VALUES` at `v` (`("email", "token")`, `(email,token)`): the names, unquoted. */
/** An OUTPUT clause before VALUES, from the column list's `)` (its columns have no parentheses). */
const OUTPUT_CLAUSE = /\)\s*OUTPUT\s+[^()]*$/i;
const MAX_OUTPUT_CLAUSE = 512;
function columnList(s: string, v: number, from: number): string[] | undefined {
  let e = v - 1;
  while (e > from && /\s/.test(s[e])) e--;
  // SQL Server's OUTPUT clause between the list and VALUES (`… ([Token]) OUTPUT INSERTED.[Id] VALUES (…)`, EF Core's INSERT).
  if (s[e] !== ')') {
    const before = Math.max(from, v - MAX_OUTPUT_CLAUSE);
    const output = OUTPUT_CLAUSE.exec(s.slice(before, v));
    if (output) e = before + output.index;
  }
  if (s[e] !== ')') return undefined;
  const o = s.lastIndexOf('(', e);
  if (o < from || e - o > 8192) return undefined;
  const inner = s.slice(o + 1, e);
  if (inner.includes(')')) return undefined;
  return inner.split(',').map((c) => {
    const t = c.trim().replace(/\\"/g, '"');
    const last = t.slice(t.lastIndexOf('.') + 1);
    return last.replace(/^["`[](.*)["`\]]$/, '$1');
  });
}

/** One item of a list: a quoted string (`'…'`, `"…"`), or a bare word; nested brackets are skipped whole. */
const ITEM = /[ \t]*(?:"(?<dq>(?:[^"\\\n]|\\.){0,4096})"|'(?<sq>(?:[^'\\\n]|\\.|''){0,4096})'|(?<bare>[^\s,()[\]{}'"]{1,4096}))?/dy;

/**
 * The list from `from` (after its opening bracket; `close` its closing one, '' for one to the line's end): the items at the
 * statement's secret positions. Returns where the list ends.
 */
function readList(text: string, from: number, lineEnd: number, close: string, st: Statement, kindOf: ColumnKind, out: SecretFinding[]): number {
  const secret = st.secret;
  let i = from;
  for (let n = 1; n <= MAX_ITEMS && i < lineEnd; n++) {
    ITEM.lastIndex = i;
    const m = ITEM.exec(text);
    const column = secret.get(n);
    if (m && column !== undefined) {
      const g = m.groups!.dq !== undefined ? 'dq' : m.groups!.sq !== undefined ? 'sq' : m.groups!.bare !== undefined ? 'bare' : undefined;
      if (g) {
        const v = m.groups![g]!;
        const [s, e] = m.indices!.groups![g]!;
        if (v.length > 0 && !isLookAlike(v, /pass|pwd/i.test(column))) out.push({ start: s, end: e, kind: kindOf(column)!, byContext: true });
      }
    }
    i = m ? ITEM.lastIndex : i;
    // To the next comma at this depth (a nested array, an object, a call, `<Buffer 01 02>` is one item).
    let depth = 0;
    for (; i < lineEnd; i++) {
      const c = text[i];
      if (c === '"' || c === "'") {
        const q = text.indexOf(c, i + 1);
        i = q < 0 || q > lineEnd ? lineEnd : q;
      } else if (c === '[' || c === '(' || c === '{') depth++;
      else if (c === ']' || c === ')' || c === '}') {
        if (depth === 0) return c === close ? i + 1 : i;
        depth--;
      } else if (c === ',' && depth === 0) break;
    }
    if (i >= lineEnd) return lineEnd;
    i++;
  }
  return i;
}

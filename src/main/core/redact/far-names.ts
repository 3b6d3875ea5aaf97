/**
 * Values named from afar: the name is not next to its value, so the key=value search (scanner.ts
 * namedValue) does not see them.
 * - a table's column under its header (psql `name | token` over `-----+-----`, mysql's boxes,
 *   sqlite3's `-column` and `-box` modes, psql's unicode line style, markdown tables);
 * - a SQL column list (`INSERT INTO t (name, secret) VALUES ('ci', '…')`, pg_dump's
 *   `COPY t (id, token) FROM stdin;` with its tab-separated rows), on one line or over lines;
 * - a dump's INSERTs that name no columns, under the CREATE TABLE above them (sqlite3 `.dump`,
 *   mysqldump's extended INSERT, `pg_dump --inserts`);
 * - an HCL block's label (`variable "db_password" {` … `default = "…"` or a heredoc … `}`);
 * - a CSV or TSV file's header (`name,email,password` over its rows).
 * The scanner asks at every secret's word that has no separator after it; one FarNames per text
 * keeps what it learnt about the current line and statement, and a work budget proportional to
 * the text keeps a hostile text (a megabyte-long header or column list, thousands of names on a
 * line) linear.
 */
import { isLookAlike, madeWord, mintedWord } from './look-alikes.js';
import type { SecretFinding } from './finding.js';

/** What the scanner knows about names (scanner.ts): passed in, so this module does not import it back. */
export interface NameTests {
  isSecretName(name: string): boolean;
  kindOfName(name: string): string;
}

/**
 * A table's rule under its header: psql's `------+-------`, mysql's `+------+-------+`, a markdown table's `|---|:--|`,
 * sqlite3's `-column` mode `-----  -------` (dashes, `+`, `|`, `:`, `=` and blanks, three dashes at least; sqlite's rule under a
 * title of one or two characters first, `--  ----------  ---------`: pass 305 F16).
 */
const TABLE_RULE = /^[ \t]*(?:-{1,2}[ \t]+)*[-+|:=]*-{3}[-+|:= \t]*\r?$/;
/** A header line (and a rule) longer than this is not a table's: a name in minified JSON or a dump's extended INSERT is not looked at. */
export const MAX_HEADER_LINE = 4096;
/** Most rows of a table (or tuples of an INSERT, rows of a COPY) read under a secret's column; the byte path reads this many lines after the name. */
export const MAX_TABLE_ROWS = 256;
/** A row longer than this ends a table (no client prints a cell of a credential that long). */
const MAX_ROW = 4 * MAX_HEADER_LINE;
/** Secret columns read per table header or statement (a real one has one to three; a hostile one thousands). */
const MAX_SECRET_COLUMNS = 16;
/** Characters the rules may look at per character of the text (rows re-read per secret column, values per tuple): beyond it they stop. */
const WORK_PER_CHAR = 8;
/** A cell that holds a variable's name in capitals, in backticks or not (`NPM_TOKEN`, `` `GH_PAT` ``). */
const SECRET_NAME_CELL = /^(`?)[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\1$/;
/**
 * A title's first word before its name, one blank between, both capitalised as a CLI's titles are (`Deployment Key`, `Access
 * Token`, `API Key`; `the token` is prose), this long at most.
 */
const TITLE_WORD_BEFORE = /(?<![\w-])([A-Z][A-Za-z]{1,23}) $/;
const MAX_TITLE_WORD = 24;
const isUpper = (c: number): boolean => c >= 0x41 && c <= 0x5a;
/** A row that ends a table: psql's `(3 rows)`, mysql's `3 rows in set`. */
const TABLE_FOOTER = /^[ \t]*\(?\d+ rows?\b/;

/** An HCL block labelled by a name: what is before the label on its line. */
const HCL_BLOCK_BEFORE = /^[ \t]*variable[ \t]+"$/;
/** How far into its line a variable's label starts (`variable "`, indented). */
const MAX_HCL_LABEL_COLUMN = 64;
/** After the label: the block opens. */
const HCL_BLOCK_AFTER = /"[ \t]*\{/y;
/** Lines of a variable block read for its `default` (type, description, validation and sensitive come before it at most). */
const MAX_HCL_BLOCK_LINES = 32;
/** The block's `default = "…"` (a string; a heredoc: HCL_HEREDOC_DEFAULT; a map's `password = "…"`: the key rules), on one of its lines. */
const HCL_DEFAULT = /(?:^|[{;])[ \t]*default[ \t]*=[ \t]*"(?<value>(?:[^"\\\n]|\\.){1,2048})"/;
/** The block's `default = <<EOT` (or `<<-EOT`): a heredoc, its lines to the marker's (adv8 A06: a password or a key as a heredoc). */
const HCL_HEREDOC_DEFAULT = /(?:^|[{;])[ \t]*default[ \t]*=[ \t]*<<-?(?<marker>[A-Za-z_]\w{0,63})[ \t]*\r?$/;
/** Lines of a heredoc default read (a PEM key is ~30). */
const MAX_HEREDOC_LINES = 64;

/** Where a statement with a column list may start on a line: its word in upper or lower case (the byte path looks for these four). */
const SQL_START = /\b(?:INSERT|insert|COPY|copy)\b/g;
/** A statement's start up to its column list's `(`: `INSERT [IGNORE] INTO t (`, pg_dump's `COPY public.t (`. */
const SQL_HEAD = /(?:INSERT[ \t]+(?:IGNORE[ \t]+)?INTO|COPY)[ \t]+[\w."`[\]]{1,128}\s*\(/iy;
/** One column of the list: its name (quoted or not), then `,` or `)`; a list may be spread over lines, a column a line (adv8 A02). */
const SQL_COLUMN = /\s*["`[]?(?<name>\w{1,128})["`\]]?\s*(?<sep>[,)])/y;
/** Columns read per list. */
export const MAX_SQL_COLUMNS = 64;
/** After the list: `VALUES` (tuples follow) or `FROM stdin;` (COPY: rows follow, one a line, tab-separated, to `\.`). */
const SQL_AFTER = /[ \t]*(?:\r?\n[ \t]*)?(?:(?<values>VALUES)[ \t]*(?:\r?\n[ \t]*)?(?=\()|(?<copy>FROM[ \t]+stdin;[ \t]*\r?\n))/iy;
/** One value of a VALUES tuple: a quoted string (`''` and `\'` inside) or anything up to `,` or `)` (a call's parentheses inside: `now()`). */
const SQL_VALUE = /\s*(?:'(?<quoted>(?:[^'\\\n]|''|\\.){0,2048})'|(?<bare>(?:[^,()'\n]|\((?:[^()'\n]|'[^'\n]*')*\))*))\s*/y;
/**
 * A column list spread over lines (adv8 A02: `INSERT INTO users (` then `  id,` `  email,` `  password` `) VALUES (`): what
 * may come before a name on its line (blanks, names and commas, an opening quote), and a line of the list above it (names
 * and commas alone). The statement's line is found by walking up such lines, MAX_SQL_COLUMNS at most.
 */
export const COLUMN_LIST_BEFORE = /^[ \t]*(?:["`[]?\w{1,128}["`\]]?[ \t]*,[ \t]*)*["`[]?$/;
export const COLUMN_LIST_LINE = /^[ \t]*(?:["`[]?\w{1,128}["`\]]?[ \t]*,[ \t]*)+\r?$/;
/** A line with a statement that may have a column list: the byte path's test (ByteLine.sqlBefore) on text. */
export const SQL_WORD = /\b(?:INSERT|insert|COPY|copy)\b/;

/**
 * A CREATE TABLE up to its column list's `(` (mysqldump's, pg_dump's and sqlite3 `.dump`'s schema): the table's name, quoted
 * or not, schema-qualified or not. The dumps' INSERTs that follow name no columns (`INSERT INTO \`users\` VALUES (…),(…);`,
 * sqlite's `INSERT INTO users VALUES(…);`, `pg_dump --inserts`): the schema above says which value is which (adv8 A03).
 */
export const CREATE_TABLE = /\b(?:CREATE|create)[ \t]+(?:(?:TEMPORARY|TEMP|UNLOGGED|temporary|temp|unlogged)[ \t]+)?(?:TABLE|table)[ \t]+(?:(?:IF|if)[ \t]+(?:NOT|not)[ \t]+(?:EXISTS|exists)[ \t]+)?(?<table>[\w."`[\]]{1,128})[ \t]*\(/g;
/** Does t[from, to) start with CREATE or create after blanks? (No copy of the line: asked for every line with a name and a blank.) */
function createLeads(t: string, from: number, to: number): boolean {
  let i = from;
  while (i < to && (t.charCodeAt(i) === 0x20 || t.charCodeAt(i) === 0x09)) i++;
  return t.startsWith('CREATE', i) || t.startsWith('create', i);
}
/** A column's definition alone on its line (`  \`api_token\` varchar(64) DEFAULT NULL,`, `    id integer NOT NULL,`): walked up to the CREATE TABLE. */
export const COLUMN_DEFINITION_LINE = /^[ \t]*["`[]?\w{1,128}["`\]]?[ \t]+[A-Za-z][^\n]{0,1024},[ \t]*\r?$/;
/** A definition in the list that is no column: a key, an index, a constraint. */
const TABLE_CONSTRAINT = /^(?:PRIMARY|UNIQUE|KEY|INDEX|CONSTRAINT|FOREIGN|CHECK|FULLTEXT|SPATIAL|EXCLUDE|PERIOD|LIKE)\b/i;
/** A dump's INSERT without a column list: the table, then `VALUES` and its first `(`. */
const INSERT_NO_COLUMNS = /\b(?:INSERT|insert)[ \t]+(?:(?:IGNORE|ignore)[ \t]+)?(?:INTO|into)[ \t]+(?<table>[\w."`[\]]{1,128})[ \t]*(?:VALUES|values)[ \t]*(?=\()/g;
/** How far past the schema (or the last INSERT of its table) a dump's next INSERT of the table is looked for: mysqldump puts ~10 lines between. */
const MAX_DUMP_GAP = 16_384;
/** Longest column list of a CREATE TABLE read (characters). */
const MAX_CREATE_TABLE = 65_536;

/** A table's name as two spellings compare: without quotes, lower case; `public.users` and `users` are the same table. */
function tableKey(name: string): string {
  return name.replace(/["`[\]]/g, '').toLowerCase();
}
const sameTable = (a: string, b: string) => a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);

const PASSWORD_NAME = /pass|pwd|(?:^|[_.-])pw$/i;
/** A word of prose starting a sentence (`Using`), not a token's shape: kept in a blank-aligned column but a password's. */
const CAPITALISED_WORD = /^[A-Z][a-z]{1,15}$/;
const SIGNATURE_TITLE = /signature/i;
const UUID_CELL = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;

/** A rule of box-drawing characters (`├──────┼──────┤`, `╠════╬════╣`, `+====+`) or ASCII dashes (TABLE_RULE). */
const BOX_RULE = /^[ \t]*[\u2500-\u257f+=-]{3}[\u2500-\u257f+=:| \t-]*\r?$/;
/** A box's rule between two rows: it starts with a left tee and crosses the columns (`├───┼───┤`), not the bottom (`└`). */
const BETWEEN_ROWS_RULE = /^[ \t]*[├╟╞┣][─═━┼╪╫╋ \t]*[┤╢╡┫][ \t]*\r?$/;
/** A box's top border holding the column names (ClickHouse's PrettyCompact: `┌─name────┬─api_key───┐`). */
const BORDER_HEADER = /^[ \t]*┌─[^┬┐\n]*(?:┬─[^┬┐\n]*)*┐[ \t]*\r?$/;
/** A row of SQL column types under a header (DuckDB's box): every cell a type name. */
export const TYPES_ROW = /^[ \t]*[│|](?:[ \t]*(?:varchar|text|integer|int\d*|bigint|smallint|tinyint|hugeint|u?bigint|double|float|real|decimal(?:\(\d+,\d+\))?|boolean|bool|date|time|timestamp(?: with time zone)?|interval|uuid|blob|json|struct\([^│|]*\)|[a-z]+\[\])[ \t]*[│|])+[ \t]*\r?$/i;
/** A cell separator of ASCII and box-drawing tables (psql's unicode line style, `sqlite3 -box`): a line with one is a table's row or header. */
const CELL_SEPARATOR = /[│║┃|]/;

/** The cell of a row after its `index`-th cell separator (`│`, `|`), up to the next one: [from, to), or undefined. */
export function nthCell(index: number): (row: string) => [number, number] | undefined {
  return (row) => {
    let from = 0;
    for (let i = 0; i < index; i++) {
      from = separatorAt(row, from) + 1;
      if (from === 0) return undefined;
    }
    const to = separatorAt(row, from);
    return [from, to < 0 ? row.length : to];
  };
}

/** Where the next cell separator of `row` at or after `from` is; -1 if none. */
function separatorAt(row: string, from: number): number {
  for (let i = from; i < row.length; i++) {
    const c = row.charCodeAt(i);
    if (c === 0x7c || c === 0x2502 || c === 0x2551 || c === 0x2503) return i;
  }
  return -1;
}

/**
 * Is the line [lineStart, lineEnd) of `text` a table's header: a rule under it and no row above it (psql's and
 * markdown's first line, mysql's boxed header between two rules)? Its cells are the columns' titles.
 */
export function isTableHeader(text: string, lineStart: number, lineEnd: number): boolean {
  if (lineEnd >= text.length) return false;
  const nl = text.indexOf('\n', lineEnd + 1);
  const next = text.slice(lineEnd + 1, nl < 0 ? text.length : nl);
  if (next.length > MAX_HEADER_LINE || !(TABLE_RULE.test(next) || BOX_RULE.test(next))) return false;
  if (lineStart === 0) return true;
  const prev = text.slice(text.lastIndexOf('\n', lineStart - 2) + 1, lineStart - 1);
  return !CELL_SEPARATOR.test(prev) || TABLE_RULE.test(prev) || BOX_RULE.test(prev);
}

interface Statement {
  /** Each column's name start → its index. */
  columns: Map<number, number>;
  /** Where the tuples (`(`) or the COPY rows start, and which. */
  body: number;
  copy: boolean;
  /** Secret columns read so far. */
  read: number;
}

/** A CREATE TABLE read (FarNames.createTable). */
interface Table {
  /** Each column's name start → its index. */
  columns: Map<number, number>;
  /** The table's name (tableKey). */
  key: string;
  /** Where the statement ends (after its list's `)`), and where the next CREATE TABLE starts (unknown: -1). */
  end: number;
  next: number;
  /** Secret columns read so far. */
  read: number;
}

/** A walk's answer (walkUp): where the statement starts (-1: none), and how many lines up it looked. */
export interface WalkAnswer {
  found: number;
  depth: number;
}

/** sqlAbove's answer for a line no column list runs down to. */
const NO_STATEMENT: WalkAnswer = { found: -1, depth: 0 };

/**
 * The walk both scanner paths make up a statement's lines, from the line that ends at `end` (the asking line's start - 1):
 * a line `head` answers for (a position, or -1 to stop with none) ends it; else the line must be one `body` accepts, and a
 * line `known` has an answer for ends it with that answer one line farther up; MAX_SQL_COLUMNS lines at most.
 * `lineBefore` gives the line ending at a position ([start, text]) or undefined to stop (too long, no budget).
 */
export function walkUp(end: number, lineBefore: (end: number) => [number, string] | undefined, head: (line: string, start: number) => number | undefined, body: RegExp, known: (start: number) => WalkAnswer | undefined): WalkAnswer {
  for (let depth = 0; depth <= MAX_SQL_COLUMNS && end > 0; depth++) {
    const l = lineBefore(end);
    if (!l) return { found: -1, depth };
    const [start, line] = l;
    const found = head(line, start);
    if (found !== undefined) return { found, depth };
    if (!body.test(line)) return { found: -1, depth };
    const k = known(start);
    if (k) return { found: k.depth + depth + 1 <= MAX_SQL_COLUMNS ? k.found : -1, depth: depth + k.depth + 1 };
    end = start - 1;
  }
  return { found: -1, depth: MAX_SQL_COLUMNS + 1 };
}

/** walkUp's head for a column list: a line with INSERT or COPY (its last one: the statement nearest the list). */
export function sqlHead(line: string, start: number): number | undefined {
  if (!SQL_WORD.test(line)) return undefined;
  let found = -1;
  SQL_START.lastIndex = 0;
  for (let m = SQL_START.exec(line); m; m = SQL_START.exec(line)) found = start + m.index;
  return found;
}

/** walkUp's head for a schema's definitions: a CREATE TABLE whose list opens at its line's end (else no statement of these). */
export function createHead(line: string, start: number): number | undefined {
  CREATE_TABLE.lastIndex = 0;
  const m = CREATE_TABLE.exec(line);
  if (!m) return undefined;
  return /^[ \t]*\r?$/.test(line.slice(CREATE_TABLE.lastIndex)) ? start + m.index : -1;
}

export class FarNames {
  /** The line around the last position asked about: [lineStart, lineEnd) (lineEnd the `\n`, or the text's end). */
  private lineStart = -1;
  private lineEnd = -1;
  /** Where INSERT / COPY words start on that line (computed when first needed). */
  private sqlWords: number[] | undefined;
  private statements: Map<number, Statement | null> | undefined;
  /** Per header line start (a table's or a CSV file's): its secret columns read so far. */
  private headers: Map<number, number> | undefined;
  /** Lines with a name that are no CSV header (fields that are not names). */
  private notCsvHeaders: Set<number> | undefined;
  /** Lines known to be (true) or not to be (false) rows of a two-column name / value table (underNameValueHeader). */
  private nameValueRows: Map<number, boolean> | undefined;
  /** Per row's line start: the header of the wide name / value table it is a row of, or null (wideHeaderAbove). */
  private wideHeaders: Map<number, string[] | null> | undefined;
  /** The last CSV header read: its line start, separator, field names and where each field starts. */
  private csvHeader: { start: number; sep: string; aligned: boolean; names: string[]; starts: number[] } | undefined;
  /** Where CREATE TABLEs start on the current line (computed when first needed); per line start, the one above its definition (createAbove). */
  private createWords: number[] | undefined;
  private createUp: Map<number, WalkAnswer> | undefined;
  /** Per CREATE TABLE start: its columns, or null if it does not parse. */
  private tables: Map<number, Table | null> | undefined;
  /** Per line start: the statement above whose column list runs down to it (sqlAbove), or -1. */
  private above: Map<number, WalkAnswer> | undefined;
  private budget: number;

  constructor(
    private readonly text: string,
    private readonly names: NameTests,
  ) {
    this.budget = WORK_PER_CHAR * text.length + 65_536;
  }

  /** The four forms at a secret's word whose name is text[k, e) and has no separator after it. */
  at(k: number, e: number, out: SecretFinding[]): void {
    if (this.budget <= 0) return;
    this.line(k);
    this.tableColumn(k, e, out);
    this.sqlColumn(k, e, out);
    this.schemaColumn(k, e, out);
    this.hclDefault(k, e, out);
    this.csvColumn(k, e, out);
  }

  /** Makes [lineStart, lineEnd) the line holding `pos`: computed once per line (positions come in order). */
  private line(pos: number): void {
    if (pos >= this.lineStart && pos < this.lineEnd) return;
    const t = this.text;
    this.lineStart = t.lastIndexOf('\n', pos - 1) + 1;
    const nl = t.indexOf('\n', pos);
    this.lineEnd = nl < 0 ? t.length : nl;
    this.sqlWords = undefined;
    this.createWords = undefined;
  }

  private spend(n: number): boolean {
    this.budget -= n;
    return this.budget > 0;
  }

  private take(start: number, value: string, name: string, out: SecretFinding[]): void {
    if (value.length > 0 && !isLookAlike(value, PASSWORD_NAME.test(name))) out.push({ start, end: start + value.length, kind: this.names.kindOfName(name), byContext: true });
  }

  /**
   * The cells under a column named like a secret in a table a database client prints. The header's cell must be the name
   * alone, and the line under it a rule; the rows run to a blank line, a rule or a row count. Columns are the header's
   * `|`-separated cells, or (no `|`) the rule's runs of dashes.
   */
  private tableColumn(k: number, e: number, out: SecretFinding[]): void {
    const t = this.text;
    const lineStart = this.lineStart;
    let lineEnd = this.lineEnd;
    if (lineEnd >= t.length || lineEnd - lineStart > MAX_HEADER_LINE) return;
    // Most names are in prose or code: the next line's first character turns them away.
    const first = t.charCodeAt(lineEnd + 1);
    if (first !== 0x2d && first !== 0x2b && first !== 0x7c && first !== 0x20 && first !== 0x09 && first !== 0x3a && first !== 0x3d && !(first >= 0x2500 && first <= 0x257f)) return;
    const read = this.headers?.get(lineStart) ?? 0;
    if (read >= MAX_SECRET_COLUMNS) return;
    const nl = t.indexOf('\n', lineEnd + 1);
    let ruleEnd = nl < 0 ? t.length : nl;
    if (ruleEnd - lineEnd > MAX_HEADER_LINE) return;
    const headerLine = t.slice(lineStart, lineEnd);
    // ClickHouse's pretty formats write the header in the top border (`┌─name──┬─api_key──┐`): its rows follow it (adv19 F18).
    const inBorder = BORDER_HEADER.test(headerLine);
    let rule = '';
    if (!inBorder) {
      rule = t.slice(lineEnd + 1, ruleEnd);
      // DuckDB's box puts a row of column types between the header and its rule (`│ varchar │ date │`: adv19 F19).
      if (!TABLE_RULE.test(rule) && !BOX_RULE.test(rule) && TYPES_ROW.test(rule)) {
        const next = t.indexOf('\n', ruleEnd + 1);
        const typesEnd = ruleEnd;
        ruleEnd = next < 0 ? t.length : next;
        if (ruleEnd - typesEnd > MAX_HEADER_LINE) return;
        rule = t.slice(typesEnd + 1, ruleEnd);
      }
      if (!TABLE_RULE.test(rule) && !BOX_RULE.test(rule)) return;
    }
    // The cell's title: the name, or two words (`Deployment Key` of App Center's `codepush deployment list -k`: adv106 F19;
    // `Access Token`), read as one name joined by `_`.
    const word = t.slice(k, e);
    const before = TITLE_WORD_BEFORE.exec(t.slice(Math.max(lineStart, k - MAX_TITLE_WORD - 1), k));
    // (Or lower-case after an acronym: `API token`.)
    const pair = before && (isUpper(word.charCodeAt(0)) || /^[A-Z]{2,}$/.test(before[1])) && this.names.isSecretName(`${before[1]}_${word}`) ? `${before[1]} ${word}` : undefined;
    if (pair === undefined && !this.names.isSecretName(word)) return;
    let name = word;
    // A third word before the pair too (`Delivery API token`, `Preview API token` of `contentful space accesstoken list`: pass 227 F22).
    const titled = (cell: string): boolean => {
      const title = cell.trim();
      const longer = pair !== undefined && title.endsWith(` ${pair}`) && THIRD_TITLE_WORD.test(title.slice(0, -pair.length - 1));
      if (title === pair || longer) name = title.replaceAll(' ', '_');
      return title === pair || longer || (title === word && this.names.isSecretName(word));
    };
    if (t.charCodeAt(lineEnd - 1) === 0x0d) lineEnd--;
    const header = t.slice(lineStart, lineEnd);
    const at = k - lineStart;
    let cellOf: (row: string) => [number, number] | undefined;
    if (inBorder) {
      // The column is the name's place among the border's `┬`; a row's cells are between `│`, the first before its first cell.
      const index = header.slice(0, at).split('┬').length;
      if (!titled(header.split(/[┌┬┐]/)[index].replace(/─/g, ''))) return;
      cellOf = nthCell(index);
      ruleEnd = this.lineEnd;
    } else if (CELL_SEPARATOR.test(header)) {
      const index = header.slice(0, at).split(CELL_SEPARATOR).length - 1;
      if (!titled(header.split(CELL_SEPARATOR)[index])) return;
      cellOf = nthCell(index);
    } else {
      const runs = [...rule.matchAll(/-+/g)].map((r) => [r.index!, r.index! + r[0].length] as const);
      const i = runs.findIndex(([a, b]) => a <= at && at < b);
      if (i < 0 || !titled(header.slice(runs[i][0], runs[i][1]))) return;
      const from = runs[i][0];
      const to = i + 1 < runs.length ? runs[i + 1][0] : Infinity;
      // A value wider than its column pushes the row's next cells right (PowerShell's Format-Table sizes columns by its titles: a
      // 19-character password under `--------`, adv79 F36): where the next column's start falls inside a word, the cell is its
      // first word, to that word's end; a cell whose start falls inside a word (the row shifted under it) is none.
      cellOf = (row) => {
        if (from > 0 && from < row.length && row.charCodeAt(from - 1) > 0x20 && row.charCodeAt(from) > 0x20) return undefined;
        let end = Math.min(to, row.length);
        if (end === row.length || row.charCodeAt(end - 1) <= 0x20 || row.charCodeAt(end) <= 0x20) return [from, end];
        let start = from;
        while (start < end && row.charCodeAt(start) <= 0x20) start++;
        for (end = start; end < row.length && row.charCodeAt(end) > 0x20; ) end++;
        return [start, end];
      };
    }
    (this.headers ??= new Map()).set(lineStart, read + 1);
    let rowStart = ruleEnd + 1;
    for (let n = 0; n < MAX_TABLE_ROWS && rowStart > 0 && rowStart < t.length; n++) {
      const rowNl = t.indexOf('\n', rowStart);
      const rowEnd = rowNl < 0 ? t.length : rowNl;
      if (rowEnd - rowStart > MAX_ROW || !this.spend(rowEnd - rowStart + 1)) return;
      const row = t.slice(rowStart, rowEnd);
      // A box's rule between its rows (cli-table's `├───┼───┤` under each row: App Center's `codepush deployment list`, adv106 F19).
      if (BETWEEN_ROWS_RULE.test(row)) {
        rowStart = rowEnd + 1;
        continue;
      }
      if (/^[ \t\r]*$/.test(row) || TABLE_RULE.test(row) || BOX_RULE.test(row) || TABLE_FOOTER.test(row)) return;
      const c = cellOf(row);
      if (c) {
        const cell = row.slice(c[0], c[1]);
        const value = cell.trim();
        // A secret's name in the cell (`DEPLOY_KEY`, `` `NPM_TOKEN` ``: a docs table of which secrets a workflow needs) is no value.
        if (!/\s/.test(value) && !SECRET_NAME_CELL.test(value)) this.take(rowStart + c[0] + cell.indexOf(value), value, name, out);
        else {
          // sqlmap's boxed dump of a hash it cracked (`$P$… (Zephyr-Pylon41)`: adv213 F36): the password in parentheses.
          const cracked = CRACKED_CELL.exec(value);
          if (cracked) this.take(rowStart + c[0] + cell.indexOf(value) + value.length - 1 - cracked[1].length, cracked[1], name, out);
        }
      }
      rowStart = rowEnd + 1;
    }
  }

  /**
   * A CSV or TSV file's column under a secret's name in its header (`name,email,password` then `bob,b@x.io,…`): the
   * header is names only (two or more, quoted or not), and the rows run while they have as many fields, to a blank line.
   */
  private csvColumn(k: number, e: number, out: SecretFinding[]): void {
    const t = this.text;
    const lineStart = this.lineStart;
    let lineEnd = this.lineEnd;
    if (this.wideNameValueRow(k, e, out)) return;
    if (lineEnd >= t.length || lineEnd - lineStart > MAX_HEADER_LINE || this.notCsvHeaders?.has(lineStart)) return;
    const read = this.headers?.get(lineStart) ?? 0;
    if (read >= MAX_SECRET_COLUMNS) return;
    // The header's fields, worked out once per line (a line of many names is split once).
    if (this.csvHeader?.start !== lineStart) {
      if (t.charCodeAt(lineEnd - 1) === 0x0d) lineEnd--;
      const header = t.slice(lineStart, lineEnd);
      // A tab, a comma, or the semicolon of a spreadsheet's CSV in a locale whose decimal mark is a comma.
      // Or a bar between names with no blank (sqlite3's `-header` list mode: `id|user_id|token|expires_at`, adv13 B20).
      // Or blanks (`column -t`, a CLI's table: `SERVICE  USER  PASSWORD  HOST`: adv71 F46), two or more between titles.
      // Or a bar with blanks around it and no border (headscale's and go-pretty's light tables: `ID | Key | Reusable | …`).
      const sep = header.includes('\t') ? '\t' : header.includes(',') ? ',' : header.includes(';') ? ';' : /^[\w.-]+(?:\|[\w.-]+)+$/.test(header) ? '|' : BARRED_HEADER.test(header) ? BARRED : SPACED_HEADER.test(header) ? SPACED : undefined;
      // Go's tabwriter with tabs (`influx auth list`: `ID\t\t\tDescription\t\tToken\t…\tUser Name`: adv12 A13): a run of tabs
      // is one separator, and a title may hold a blank.
      const aligned = (sep === '\t' && header.includes('\t\t')) || sep === SPACED;
      const fields = sep === undefined ? [] : aligned ? splitAligned(header, sep) : header.split(sep === BARRED ? BAR : sep);
      // A header written as a comment (xCAT's `tabdump passwd`: `#key,username,password,…`: pass 307 F35): its first name after `#`.
      const hashed = (sep === ',' || sep === '\t') && !aligned && fields.length > 1 ? (/^#[ \t]?(?=[A-Za-z_"])/.exec(fields[0])?.[0].length ?? 0) : 0;
      if (hashed > 0) fields[0] = fields[0].slice(hashed);
      // A two-column name / value table's row (`select name, value from settings` in mysql -B: adv18 F23): the rest of the line
      // after the name and its separator is the value.
      const nameSep = t[e];
      if (k === lineStart && NAME_VALUE_SEPARATORS.includes(nameSep) && this.names.isSecretName(t.slice(k, e)) && this.underNameValueHeader(lineStart, nameSep)) {
        const rest = t.slice(e + 1, lineEnd);
        const value = rest.trim();
        this.take(e + 1 + rest.indexOf(value), value, t.slice(k, e), out);
        (this.notCsvHeaders ??= new Set()).add(lineStart);
        return;
      }
      // A blank-aligned header with a rule of dashes below it is sqlite's or a client's column mode, read as such (columnTitleAt).
      const below = t.indexOf('\n', lineEnd + 1);
      const under = t.slice(lineEnd + 1, below < 0 ? t.length : below);
      // (A barred header over a rule, psql's `----+----`, is a client's table: tableColumn reads it.)
      const bordered = sep === BARRED && BORDERED_HEADER.test(header);
      const ruled = (sep === SPACED && DASHED_RULE.test(under)) || (sep === BARRED && (bordered ? BORDERED_RULE : BARRED_RULE).test(under));
      const border = (f: string, i: number) => bordered && (i === 0 || i === fields.length - 1) && f.trim() === '';
      // A CLI's label in capitals padded to its value in lower case is a row, not a header (`TOKEN ENDPOINT AUTH  client_secret_post`
      // of an auth0 or sf listing: the next line's first word was taken for the auth credential, mish's `[exit 0]` too: adv196).
      const labelRow = sep === SPACED && fields.some((f) => /^[A-Z][A-Z0-9 _-]*$/.test(f.trim())) && fields.some((f) => /[a-z]/.test(f));
      if (sep === undefined || ruled || labelRow || fields.length < 2 || !fields.every((f, i) => border(f, i) || ((CSV_NAME.test(f) || (aligned && ALIGNED_TITLE.test(f)) || CSV_TITLE.test(f.trim())) && !RANDOM_WORD.test(f)))) {
        (this.notCsvHeaders ??= new Set()).add(lineStart); // its other names need no look
        return;
      }
      // Headers do not stack: under a header of as many names, this line is that table's row (`mailgun_api_key<TAB>key-…` was
      // taken for a header, and the next row's name masked as an api key's value: adv18 F23). A row of as many fields whatever they
      // hold: a row's long key (`stripe|secret_key|sk_live_…`) is no name, and the row below it was read as a header (adv147 F33).
      const above = lineStart > 1 ? t.slice(t.lastIndexOf('\n', lineStart - 2) + 1, lineStart - 1).replace(/\r$/, '') : '';
      const aboveFields = aligned ? splitAligned(above, sep) : above.split(sep === BARRED ? BAR : sep);
      if (aboveFields.length === fields.length && fields.length > 1) {
        (this.notCsvHeaders ??= new Set()).add(lineStart);
        return;
      }
      const starts: number[] = [];
      if (aligned) for (const m of header.matchAll(sep === SPACED ? SPACED_TITLES : /[^\t]+/g)) starts.push(lineStart + m.index);
      else for (let i = 0, at = lineStart + hashed; i < fields.length; at += fields[i].length + 1, i++) starts.push(at);
      this.csvHeader = { start: lineStart, sep, aligned, names: fields.map((f) => f.trim().replace(/^"(.*)"$/, '$1')), starts };
    }
    const { sep, aligned, names, starts } = this.csvHeader;
    let index = starts.length - 1;
    while (index > 0 && starts[index] > k) index--;
    // The title is the name, or ends in it (`Smtp password`: read joined, `Smtp_password`).
    const word = t.slice(k, e);
    const title = names[index];
    const joined = title === word ? word : title.endsWith(` ${word}`) && (CSV_TITLE.test(title) || (aligned && ALIGNED_TITLE.test(title))) ? title.replaceAll(' ', '_') : '';
    // R prints a data.frame's titles right-aligned over their cells and one blank apart where a column is no wider than its cells
    // (`    user           password admin      start expire`: pass 294 F37): a word of such a title at the keyword is its own
    // column's, each row's cell the word ending where the title's word ends (made or minted only: `<NA>`, `TRUE` are R's).
    const oneBlankEnd = joined === '' && sep === SPACED && (k === starts[index] || t.charCodeAt(k - 1) === 0x20) && (t.charCodeAt(e) === 0x20 || e === this.lineEnd) ? e - lineStart : undefined;
    const name = oneBlankEnd !== undefined ? word : joined;
    // A CLI's `KEY` column in capitals without a `VALUE` beside it (`… | column -t`: `NAME  KEY  SITE`, adv201 F35): a key's
    // column, read for minted values only (MINTED_KEY_CELL) since a key may be a name. (In lower case too: `column -t` of a CSV of
    // integrations, `service  owner  key  rotated`: pass 296 F39.)
    const keyColumn = (name === 'KEY' || name === 'key' || name === 'Key') && (sep === SPACED || sep === '\t' || sep === BARRED) && !names.some((n) => WIDE_VALUE_COLUMN.test(n));
    if (name === '' || !(this.names.isSecretName(name) || keyColumn || (name === 'Key' && sep === BARRED && KEY_TABLE_HEADER.test(t.slice(lineStart, this.lineEnd))))) return;
    (this.headers ??= new Map()).set(lineStart, read + 1);
    const fields = names;
    let rowStart = this.lineEnd + 1;
    for (let n = 0; n < MAX_TABLE_ROWS && rowStart < t.length; n++) {
      const nl = t.indexOf('\n', rowStart);
      let rowEnd = nl < 0 ? t.length : nl;
      if (rowEnd - rowStart > MAX_ROW || !this.spend(rowEnd - rowStart + 1)) return;
      if (t.charCodeAt(rowEnd - 1) === 0x0d) rowEnd--;
      if (oneBlankEnd !== undefined) {
        const y = rowStart + oneBlankEnd;
        if (y > rowEnd || (y < rowEnd && t.charCodeAt(y) !== 0x20) || y === rowStart || t.charCodeAt(y - 1) === 0x20) return;
        let x = y;
        while (x > rowStart && t.charCodeAt(x - 1) !== 0x20) x--;
        const value = t.slice(x, y);
        // (Eight characters at least but under a password's title: a tidytext frame's `token` column holds `h1n1`, `mp3`: adv301 L14.)
        if ((value.length >= MIN_R_CELL || PASSWORD_NAME.test(name)) && !SECRET_NAME_CELL.test(value) && (madeWord(value) || mintedWord(value))) this.take(x, value, name, out);
        rowStart = (nl < 0 ? t.length : nl) + 1;
        continue;
      }
      const cells = sep === SPACED ? spacedCells(t, rowStart, rowEnd) : aligned ? alignedCells(t, rowStart, rowEnd) : sep === BARRED ? barredCells(t, rowStart, rowEnd) : csvCells(t, rowStart, rowEnd, sep);
      if (cells === undefined) return;
      // A row whose cells stand one blank apart where a value fills its column (Python's `f'{type:<32} {user:<12} {pw}'`: a type
      // as wide as its column, adv172 F3): its cell under the title, by the title's place.
      let cell = cells.length === fields.length ? cells[index] : sep === SPACED ? wordUnder(t, rowStart, rowEnd, starts[index] - lineStart) : undefined;
      // pandas right-aligns a DataFrame's columns under titles that end where its cells end (an index column first, with no
      // title; a cell may hold one blank: pass 283 F38's `0  Bacs Bureau  sftp.bureau.example  bx_ldgr01  <password>`).
      const titleEnd = starts[index] - lineStart + title.length;
      // (Eight characters at least there but under a password's title: a tidytext frame's `token` column holds `h1n1`: adv301 L14.)
      if (sep === SPACED && (cell === undefined || cell[0] - rowStart !== starts[index] - lineStart)) cell = cells.find(([x, y]) => y - rowStart === titleEnd && (y - x >= MIN_R_CELL || PASSWORD_NAME.test(title))) ?? cell;
      if (cell === undefined) return;
      const [a, b] = cell;
      // A blank-aligned row's cell starts under its title (`column -t` pads each column to its widest), or ends under its end
      // (pandas): a line of prose with two blanks in it is no row.
      if (sep === SPACED && a - rowStart !== starts[index] - lineStart && b - rowStart !== titleEnd) return;
      // (A quoted cell under a quoted title: its text, blanks and all.)
      const quotedCell = b - a >= 2 && t.charCodeAt(a) === 0x22 && t.charCodeAt(b - 1) === 0x22 && t.charCodeAt(starts[index]) === 0x22;
      if (quotedCell) {
        // (Made or minted only: a quoted table's words under a `Token` title are an NLP table's, `"run"`, `"Acme"`: adv263 LA4. A
        // CSV's doubled quote inside is the password's own: adv263 C2.)
        const inner = t.slice(a + 1, b - 1);
        if (inner !== '' && !/(?<!")"(?!")/.test(inner) && !SECRET_NAME_CELL.test(inner) && (madeWord(inner) || mintedWord(inner) || GENERATED_CELL.test(inner))) this.take(a + 1, inner, name, out);
        rowStart = (nl < 0 ? t.length : nl) + 1;
        continue;
      }
      const value = t.slice(a, b);
      // A report's column of prose under a signature's title (DocuSign's certificate of completion: `Signature` over `Signature
      // ID:`, the envelope's signature id, and `Using IP Address: …`: pass 314 L30): a capitalised word is prose's, not a token,
      // under any title but a password's; an id (a UUID) is no signature.
      const prose = sep === SPACED && !PASSWORD_NAME.test(name) && (CAPITALISED_WORD.test(value) || (SIGNATURE_TITLE.test(name) && UUID_CELL.test(value)));
      if (!prose && !/\s/.test(value) && !SECRET_NAME_CELL.test(value) && (!keyColumn || MINTED_KEY_CELL.test(value))) this.take(a, value, keyColumn ? 'api_key' : name, out);
      else if (!keyColumn) {
        // sqlmap's dump of a hash it cracked (`<md5> (Welcome1!)`: pass 206 F19): the password in parentheses.
        const cracked = CRACKED_CELL.exec(value);
        if (cracked) this.take(a + value.length - 1 - cracked[1].length, cracked[1], name, out);
      }
      rowStart = (nl < 0 ? t.length : nl) + 1;
    }
  }

  /**
   * A row of a table with a name column and a value column among others (`provider|name|value` of `sqlite3 -header`, a
   * settings table's `id<TAB>scope<TAB>key<TAB>value`: adv147 F33): the name text[k, e) a cell of its own under the name
   * column, naming a secret; the row's cell under the value column is its value. The header is the top of the rows of as many
   * cells above (each row's header kept, so a table of many rows walks each line once). True when the name was such a cell.
   */
  private wideNameValueRow(k: number, e: number, out: SecretFinding[]): boolean {
    const t = this.text;
    const sep = t[e];
    if (sep !== '|' && sep !== '\t' && sep !== ',') return false;
    const lineStart = this.lineStart;
    if (k !== lineStart && t[k - 1] !== sep) return false;
    let lineEnd = this.lineEnd;
    if (t.charCodeAt(lineEnd - 1) === 0x0d) lineEnd--;
    if (lineEnd - lineStart > MAX_ROW) return false;
    const cells = t.slice(lineStart, lineEnd).split(sep);
    const index = t.slice(lineStart, k).split(sep).length - 1;
    const header = this.wideHeaderAbove(lineStart, sep, cells.length);
    if (header === undefined || !WIDE_NAME_COLUMN.test(header[index])) return false;
    const valueIndex = header.findIndex((h) => WIDE_VALUE_COLUMN.test(h));
    if (valueIndex < 0 || valueIndex === index) return false;
    const name = t.slice(k, e);
    if (!this.names.isSecretName(name)) return false;
    let at = lineStart;
    for (let i = 0; i < valueIndex; i++) at += cells[i].length + 1;
    const value = cells[valueIndex].trim();
    this.take(at + cells[valueIndex].indexOf(value), value, name, out);
    return true;
  }

  /** The header of the table whose row of `count` cells starts at `lineStart`: up through rows of as many cells to one naming a name and a value column. */
  private wideHeaderAbove(lineStart: number, sep: string, count: number): string[] | undefined {
    const t = this.text;
    const walked: number[] = [];
    let answer: string[] | null = null;
    for (let start = lineStart, n = 0; start > 1 && n < MAX_TABLE_ROWS; n++) {
      const known = this.wideHeaders?.get(start);
      if (known !== undefined) {
        answer = known;
        break;
      }
      walked.push(start);
      const above = t.lastIndexOf('\n', start - 2) + 1;
      const line = t.slice(above, start - 1).replace(/\r$/, '');
      if (line.length > MAX_HEADER_LINE || !this.spend(line.length)) break;
      const fields = line.split(sep);
      if (fields.length !== count) break;
      if (fields.some((f) => WIDE_NAME_COLUMN.test(f)) && fields.some((f) => WIDE_VALUE_COLUMN.test(f))) {
        answer = fields.map((f) => f.trim().replace(/^"(.*)"$/, '$1'));
        break;
      }
      start = above;
    }
    for (const w of walked) (this.wideHeaders ??= new Map()).set(w, answer);
    return answer ?? undefined;
  }

  /**
   * Is the line starting at `lineStart` a row of a two-column name / value table (NAME_VALUE_COLUMNS)? Walked up through the
   * rows above (two cells each) to the header; each row's answer is kept, so a table of many rows walks each line once.
   */
  private underNameValueHeader(lineStart: number, sep: string): boolean {
    const t = this.text;
    const walked: number[] = [];
    let answer = false;
    for (let start = lineStart, n = 0; start > 1 && n < MAX_TABLE_ROWS; n++) {
      const known = this.nameValueRows?.get(start);
      if (known !== undefined) {
        answer = known;
        break;
      }
      walked.push(start);
      const above = t.lastIndexOf('\n', start - 2) + 1;
      const line = t.slice(above, start - 1).replace(/\r$/, '');
      if (!this.spend(line.length) || !line.includes(sep)) break;
      if (NAME_VALUE_COLUMNS.test(line.trim())) {
        answer = true;
        break;
      }
      start = above;
    }
    for (const w of walked) (this.nameValueRows ??= new Map()).set(w, answer);
    return answer;
  }

  /**
   * The value under a secret's column in SQL that names its columns apart from its values: `INSERT INTO api_keys (name,
   * secret) VALUES ('ci', '…'), ('cd', '…');` (a seed file, a query log, mysqldump --complete-insert) and pg_dump's
   * `COPY public.api_keys (id, name, token) FROM stdin;` with its rows up to `\.`. Each statement is parsed once.
   */
  private sqlColumn(k: number, e: number, out: SecretFinding[]): void {
    const t = this.text;
    if (this.sqlWords === undefined) {
      this.sqlWords = [];
      if (this.lineEnd - this.lineStart > 3) {
        // On the line alone: a search of the text from here would run to its end on every line without one.
        const line = t.slice(this.lineStart, this.lineEnd);
        SQL_START.lastIndex = 0;
        for (let m = SQL_START.exec(line); m; m = SQL_START.exec(line)) this.sqlWords.push(this.lineStart + m.index);
        this.spend(line.length);
      }
    }
    let start = -1;
    for (const w of this.sqlWords) if (w < k) start = w;
    if (start < 0) start = this.sqlAbove(k);
    if (start < 0) return;
    const col = this.secretColumn((this.statements ??= new Map()), start, (at) => this.statement(at), k, e);
    if (!col) return;
    const { of: st, index, name } = col;
    let at = st.body;
    if (st.copy) {
      for (let n = 0; n < MAX_TABLE_ROWS && at < t.length; n++) {
        const nl = t.indexOf('\n', at);
        let end = nl < 0 ? t.length : nl;
        if (end - at > MAX_ROW || !this.spend(end - at + 1)) return;
        if (t.charCodeAt(end - 1) === 0x0d) end--;
        const row = t.slice(at, end);
        if (row === '\\.' || row === '') return;
        let from = 0;
        for (let i = 0; i < index && from >= 0; i++) {
          const tab = row.indexOf('\t', from);
          from = tab < 0 ? -1 : tab + 1;
        }
        if (from >= 0) {
          const to = row.indexOf('\t', from);
          const cell = row.slice(from, to < 0 ? row.length : to);
          if (cell !== '\\N') this.take(at + from, cell, name, out);
        }
        at = nl < 0 ? t.length : nl + 1;
      }
      return;
    }
    this.tuples(at, index, name, MAX_TABLE_ROWS, out);
  }

  /**
   * The column at `k` (the name t[k, e)) of the statement or schema at `start`, parsed once (`cache`), when it names a
   * secret and the statement has had fewer than MAX_SECRET_COLUMNS read: counted as read. Else undefined.
   */
  private secretColumn<T extends { columns: Map<number, number>; read: number }>(cache: Map<number, T | null>, start: number, parse: (start: number) => T | null, k: number, e: number): { of: T; index: number; name: string } | undefined {
    let of = cache.get(start);
    if (of === undefined) {
      of = parse(start);
      cache.set(start, of);
    }
    if (of === null || of.read >= MAX_SECRET_COLUMNS) return undefined;
    const index = of.columns.get(k);
    if (index === undefined) return undefined;
    const name = this.text.slice(k, e);
    if (!this.names.isSecretName(name)) return undefined;
    of.read++;
    return { of, index, name };
  }

  /** VALUES (…), (…) … from `at` (its first `(`): each tuple's index-th value, `max` tuples at most. Returns where the tuples end. */
  private tuples(at: number, index: number, name: string, max: number, out: SecretFinding[]): number {
    const t = this.text;
    for (let n = 0; n < max && t.charCodeAt(at) === 0x28; n++) {
      const tupleStart = at;
      at++;
      for (let i = 0; ; i++) {
        SQL_VALUE.lastIndex = at;
        const v = SQL_VALUE.exec(t);
        if (!v) return at;
        if (i === index && v.groups!.quoted !== undefined) this.take(v.index + v[0].indexOf("'") + 1, v.groups!.quoted, name, out);
        at = SQL_VALUE.lastIndex;
        const c = t.charCodeAt(at);
        if (c === 0x29) break;
        if (c !== 0x2c || i >= MAX_SQL_COLUMNS) return at;
        at++;
      }
      at++;
      if (!this.spend(at - tupleStart)) return at;
      // `, (` or `,\n  (` before the next tuple; `;` or anything else ends the statement.
      const next = skipBlanks(t, at);
      if (t.charCodeAt(next) !== 0x2c) return at;
      at = skipBlanks(t, next + 1);
    }
    return at;
  }

  /**
   * A dump's values under a secret's column named in the schema above them (adv8 A03): the name is a column's in a CREATE
   * TABLE (on the statement's line, sqlite's `CREATE TABLE users(id INTEGER, api_token TEXT);`, or a definition a line as
   * mysqldump and pg_dump write it), and the INSERTs of that table after it name no columns (`INSERT INTO \`users\` VALUES
   * (1,'…'),(2,'…');`). Each INSERT's tuples are read, to the next CREATE TABLE, MAX_DUMP_GAP past the last one, or the budget.
   */
  private schemaColumn(k: number, e: number, out: SecretFinding[]): void {
    const t = this.text;
    const c = t.charCodeAt(e) === 0x22 || t.charCodeAt(e) === 0x60 || t.charCodeAt(e) === 0x5d ? e + 1 : e;
    // A column's name is followed by its type.
    if (t.charCodeAt(c) !== 0x20 && t.charCodeAt(c) !== 0x09) return;
    const head = this.createAbove(k);
    if (head < 0) return;
    const col = this.secretColumn((this.tables ??= new Map()), head, (at) => this.createTable(at), k, e);
    if (!col) return;
    const { of: table, index, name } = col;
    if (table.next < 0) {
      // The next table's schema ends this one's data (asked once per table: a search to the text's end at most once).
      CREATE_TABLE.lastIndex = table.end;
      const m = CREATE_TABLE.exec(t);
      table.next = m ? m.index : t.length;
      this.spend(table.next - table.end);
    }
    let from = table.end;
    while (from < table.next) {
      // Each search in a piece of the text (a regex run on the whole rest per INSERT would be quadratic on a hostile text).
      const to = Math.min(table.next, from + MAX_DUMP_GAP);
      const piece = t.slice(from, to);
      INSERT_NO_COLUMNS.lastIndex = 0;
      const m = INSERT_NO_COLUMNS.exec(piece);
      // The budget pays for what the search read (to the INSERT found, or the whole piece): a sqlite dump's thousands of one-row INSERTs are 40 bytes apart.
      if (!this.spend(m ? INSERT_NO_COLUMNS.lastIndex : to - from) || !m) return;
      const at = from + INSERT_NO_COLUMNS.lastIndex;
      from = sameTable(tableKey(m.groups!.table), table.key) ? this.tuples(at, index, name, Infinity, out) : at;
    }
  }

  /**
   * Where the CREATE TABLE starts whose column list holds the name at `k`: on its line before `k`, or (the name first on
   * its line) up the definitions' lines, MAX_SQL_COLUMNS at most. -1 if none.
   */
  private createAbove(k: number): number {
    const t = this.text;
    // The line's CREATE TABLEs, found once per line (a line of a megabyte with thousands of names is read once), when the line
    // starts with CREATE (a dump's schema statement starts its line; the byte path looks only there, createLeads).
    if (this.createWords === undefined) {
      this.createWords = [];
      if (createLeads(t, this.lineStart, this.lineEnd)) {
        const line = t.slice(this.lineStart, this.lineEnd);
        this.spend(line.length);
        CREATE_TABLE.lastIndex = 0;
        for (let m = CREATE_TABLE.exec(line); m; m = CREATE_TABLE.exec(line)) this.createWords.push(this.lineStart + m.index);
      }
    }
    let found = -1;
    for (const w of this.createWords) if (w < k) found = w;
    if (found >= 0) return found;
    // Else the name must start its line (blanks and an opening quote before it), and the lines above be definitions.
    let i = k - 1;
    if (i >= this.lineStart && (t[i] === '"' || t[i] === '`' || t[i] === '[')) i--;
    while (i >= this.lineStart && (t[i] === ' ' || t[i] === '\t')) i--;
    if (i >= this.lineStart) return -1;
    const cached = this.createUp?.get(this.lineStart);
    if (cached !== undefined) return cached.found;
    // The definitions come in order: the line above was asked already, and its answer holds one line farther up.
    const answer = walkUp(this.lineStart - 1, (end) => this.lineBefore(end), createHead, COLUMN_DEFINITION_LINE, (start) => this.createUp?.get(start));
    (this.createUp ??= new Map()).set(this.lineStart, answer);
    return answer.found;
  }


  /** The CREATE TABLE at `start`: each column's name start → its index, the table's name, where the statement ends; null if it does not parse. */
  private createTable(start: number): Table | null {
    const t = this.text;
    CREATE_TABLE.lastIndex = start;
    const m = CREATE_TABLE.exec(t);
    if (!m || m.index !== start) return null;
    const columns = new Map<number, number>();
    const stop = Math.min(t.length, CREATE_TABLE.lastIndex + MAX_CREATE_TABLE);
    let depth = 0;
    let def = CREATE_TABLE.lastIndex;
    let index = 0;
    const definition = (from: number) => {
      const at = skipBlanks(t, from);
      const word = /^["`[]?(\w{1,128})/.exec(t.slice(at, at + 130));
      if (!word || TABLE_CONSTRAINT.test(t.slice(at, at + 12))) return;
      columns.set(at + word[0].length - word[1].length, index++);
    };
    for (let i = def; i < stop; i++) {
      const ch = t.charCodeAt(i);
      if (ch === 0x27 || ch === 0x22 || ch === 0x60) {
        const close = t.indexOf(t[i], i + 1);
        if (close < 0) return null;
        i = close;
      } else if (ch === 0x28) depth++;
      else if (ch === 0x29) {
        if (depth === 0) {
          definition(def);
          this.spend(i - start);
          return { columns, key: tableKey(m.groups!.table), end: i + 1, next: -1, read: 0 };
        }
        depth--;
      } else if (ch === 0x2c && depth === 0) {
        definition(def);
        def = i + 1;
        if (index > MAX_SQL_COLUMNS) return null;
      }
    }
    return null;
  }

  /**
   * Where the INSERT or COPY starts whose column list runs over lines down to the name at `k` (its line holds names and
   * commas before it; the lines between hold names and commas alone), or -1. Worked out once per line.
   */
  private sqlAbove(k: number): number {
    const t = this.text;
    const cached = this.above?.get(this.lineStart);
    if (cached !== undefined) return cached.found;
    // Most lines with a name hold other words before it: turned away by their characters, before a copy for the regex
    // (and for good: a later name's prefix holds the same character).
    for (let i = this.lineStart; i < k; i++) {
      const c = t.charCodeAt(i);
      if (!(c === 0x20 || c === 0x09 || c === 0x2c || c === 0x22 || c === 0x60 || c === 0x5b || c === 0x5d || c === 0x5f || (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a))) {
        (this.above ??= new Map()).set(this.lineStart, NO_STATEMENT);
        return -1;
      }
    }
    let answer = NO_STATEMENT;
    if (k - this.lineStart <= MAX_HEADER_LINE && COLUMN_LIST_BEFORE.test(t.slice(this.lineStart, k))) {
      // A list's names come in order: the line above was asked already, and its answer holds one line farther up.
      answer = walkUp(this.lineStart - 1, (end) => this.lineBefore(end), sqlHead, COLUMN_LIST_LINE, (start) => this.above?.get(start));
    }
    (this.above ??= new Map()).set(this.lineStart, answer);
    return answer.found;
  }

  /** The line of the text ending at `end` ([start, text]), or undefined when it is too long or the budget is spent. */
  private lineBefore(end: number): [number, string] | undefined {
    const start = this.text.lastIndexOf('\n', end - 1) + 1;
    return end - start > MAX_HEADER_LINE || !this.spend(end - start + 1) ? undefined : [start, this.text.slice(start, end)];
  }

  /** The statement whose INSERT or COPY starts at `start`: its column list and where its values start, or null if it has none. */
  private statement(start: number): Statement | null {
    const t = this.text;
    SQL_HEAD.lastIndex = start;
    if (!SQL_HEAD.exec(t)) return null;
    const columns = new Map<number, number>();
    let at = SQL_HEAD.lastIndex;
    for (let i = 0; ; i++) {
      if (i >= MAX_SQL_COLUMNS) return null;
      SQL_COLUMN.lastIndex = at;
      const c = SQL_COLUMN.exec(t);
      if (!c) return null;
      columns.set(c.index + c[0].indexOf(c.groups!.name), i);
      at = SQL_COLUMN.lastIndex;
      if (c.groups!.sep === ')') break;
    }
    SQL_AFTER.lastIndex = at;
    const after = SQL_AFTER.exec(t);
    if (!after) return null;
    return { columns, body: SQL_AFTER.lastIndex, copy: after.groups!.copy !== undefined, read: 0 };
  }

  /** A heredoc's lines from `at` to its marker's line: each one's text (trimmed) a value; nothing if the marker never comes. */
  private heredoc(at: number, marker: string, name: string, out: SecretFinding[]): void {
    const t = this.text;
    const lines: [number, string][] = [];
    for (let n = 0; n < MAX_HEREDOC_LINES && at < t.length; n++) {
      const nl = t.indexOf('\n', at);
      const end = nl < 0 ? t.length : nl;
      if (end - at > MAX_ROW || !this.spend(end - at + 1)) return;
      const line = t.slice(at, end).replace(/\r$/, '');
      if (line.trim() === marker) {
        for (const [start, text] of lines) {
          const value = text.trim();
          if (value) this.take(start + text.indexOf(value), value, name, out);
        }
        return;
      }
      lines.push([at, line]);
      at = end + 1;
    }
  }

  /**
   * A Terraform variable's default under a secret's name (`variable "db_password" {` … `default = "…"` … `}`): the
   * block's lines are read to its closing brace (a nested `validation { … }` skipped), MAX_HCL_BLOCK_LINES at most.
   */
  private hclDefault(k: number, e: number, out: SecretFinding[]): void {
    const t = this.text;
    if (t.charCodeAt(k - 1) !== 0x22 || k - this.lineStart > MAX_HCL_LABEL_COLUMN) return;
    if (!HCL_BLOCK_BEFORE.test(t.slice(this.lineStart, k))) return;
    HCL_BLOCK_AFTER.lastIndex = e;
    if (!HCL_BLOCK_AFTER.test(t)) return;
    const name = t.slice(k, e);
    if (!this.names.isSecretName(name)) return;
    let at = HCL_BLOCK_AFTER.lastIndex;
    // Braces open inside the block (`validation {`): its own `default` is at depth 1 only.
    let depth = 1;
    for (let n = 0; n < MAX_HCL_BLOCK_LINES && at < t.length && depth > 0; n++) {
      const nl = t.indexOf('\n', at);
      const end = nl < 0 ? t.length : nl;
      if (!this.spend(end - at + 1)) return;
      const line = t.slice(at, end);
      const h = depth === 1 ? HCL_HEREDOC_DEFAULT.exec(line) : null;
      if (h) {
        this.heredoc(end + 1, h.groups!.marker, name, out);
        return;
      }
      const d = depth === 1 ? HCL_DEFAULT.exec(line) : null;
      if (d) {
        const value = d.groups!.value;
        this.take(at + d.index + d[0].length - 1 - value.length, value, name, out);
        return;
      }
      // Braces outside strings and comments.
      for (const c of line.replace(/"(?:[^"\\]|\\.)*"|#.*|\/\/.*/g, '')) depth += c === '{' ? 1 : c === '}' ? -1 : 0;
      at = end + 1;
    }
  }
}

/** A CSV header's field: a column's name, quoted or not (no blank inside: a line of prose with commas is no header). */
const CSV_NAME = /^[ \t]*"?[A-Za-z_][\w.-]{0,63}"?[ \t]*$/;
/** A word of mixed case and digits, 20 or more, no separator: a generated value, never a column's name (so its line is no header). */
const RANDOM_WORD = /^[ \t]*(?=[^\t]*\d)(?=[^\t]*[a-z])(?=[^\t]*[A-Z])[A-Za-z0-9]{20,}[ \t]*$/;
/** The separators of a client's two-column rows: mysql -B's tab, psql -A's and sqlite3's bar, a CSV's comma. */
const NAME_VALUE_SEPARATORS = '\t|,;';
/**
 * A CSV header's title of two or three words, the first capitalised, one blank between, none at its edges: AWS's
 * `credentials.csv` (`User name,Password,Access key ID,Secret access key`), SES's SMTP credentials (`IAM user name,Smtp
 * username,Smtp password`: adv116 F43). Read as one name joined by `_`; a prose line's `, then press enter` has a blank at its edge.
 */
const CSV_TITLE = /^"?[A-Z][\w.-]{0,31}(?: [A-Za-z0-9_][\w.-]{0,31}){1,2}"?$/;
/** A title of a tab-aligned table: a name, or two words (`User Name`, `User ID`), or a row number's `#` (RouterOS' `print`: pass 224 F12). */
const ALIGNED_TITLE = /^(?:#|[A-Za-z_][\w.-]{0,31}(?: [A-Za-z_][\w.-]{0,31})?)$/;
/** A wide table's name column and value column (wideNameValueRow): titles alone in their cells. */
const WIDE_NAME_COLUMN = /^[ \t]*"?(?:name|key|setting|parameter|variable(?:_name)?|option_name|config_key|setting_key)"?[ \t]*$/i;
const WIDE_VALUE_COLUMN = /^[ \t]*"?(?:value|option_value|config_value|setting_value)"?[ \t]*$/i;
/** A two-column table's header naming a name and a value (`name<TAB>value`, `key|value`, `variable_name,value` of SHOW VARIABLES). */
const NAME_VALUE_COLUMNS = /^"?(?:name|key|variable(?:_name)?|setting|parameter|option_name|config_key)"?[\t,;|]"?(?:value|option_value|config_value)"?$/i;

/** The fields of a CSV or TSV row t[from, to): each one's value range (a quoted field's inside, `""` kept); undefined for a blank line or an open quote. */
/** A line of dashes under a header (sqlite's `------  ------`, PowerShell's `----     -----`). */
const DASHED_RULE = /^[ \t]*-{2,}[- \t]*\r?$/;
/** A blank-aligned table's separator (SPACED_HEADER): two blanks or more. */
const SPACED = '  ';
/**
 * A header of titles two blanks or more apart, no tab (`column -t`'s, kubectl's, a CLI's table); a title has no digit (a CLI's
 * padded name / value rows, `AccessKey   SCWOXVWP3IBBH1ULVZC5`, are no header: its value is no title).
 */
// (Or each title quoted: a CSV export through `column -s, -t`, `"Title"  "Username"  "Password"`: pass 257 F10.)
const SPACED_HEADER = /^[ ]*(?:# {2,})?(?:[A-Za-z_][A-Za-z_.-]{0,63}(?: [A-Za-z_][A-Za-z_.-]{0,31}){0,2}(?: {2,}[A-Za-z_][A-Za-z_.-]{0,63}(?: [A-Za-z_][A-Za-z_.-]{0,31}){0,2})+|"[A-Za-z_][A-Za-z_. -]{0,63}"(?: {2,}"[A-Za-z_][A-Za-z_. -]{0,63}")+)[ ]*\r?$/;
/** A generated password of letters in one case and digits (`9H779X4NSY`): a quoted cell's value though neither made nor minted. */
const GENERATED_CELL = /^(?=[^\s]{0,63}\d)(?=[^\s]{0,63}[A-Za-z])[^\s"]{8,64}$/;
/** A light table's separator (BARRED_HEADER): a bar with a blank or more around it (not a bare `|`, sqlite3's list mode). */
const BARRED = ' | ';
/**
 * A header of titles between bars with blanks, no border (`ID | Key | Reusable | Ephemeral`: headscale's tables, go-pretty's
 * light style, adv144's `cat` of one); a title is a name or two words, no digit-led word.
 */
// Or with a bar at each end and no rule under it (a box table's rows without its rules: session 30's attack A23, `| id | username
// | ha1 |`): its first and last fields are empty.
const BARRED_HEADER = /^[ ]*(?:[|│][ ]*)?[A-Za-z_][\w.-]{0,63}(?: [A-Za-z_][\w.-]{0,31}){0,2}[ ]*(?:[|│][ ]*[A-Za-z_][\w.-]{0,63}(?: [A-Za-z_][\w.-]{0,31}){0,2}[ ]*)+(?:[|│][ ]*)?\r?$/;
/** A bordered barred header (BARRED_HEADER's `| a | b |`). */
const BORDERED_HEADER = /^[ ]*[|│].*[|│][ ]*\r?$/;
/** The rule under a bordered header (markdown's `|---|:--|`, a box's `+----+----+`): a client's table, read as such (tableColumn). */
const BORDERED_RULE = /^[ \t]*[|+├┼┤┌┬┐└┴┘╞╪╡][-:+|─═┼├┤┬┴┌┐└┘╞╪╡ \t]*[-─═][-:+|─═┼├┤┬┴┌┐└┘╞╪╡ \t]*\r?$/;
/**
 * A barred header whose `Key` column is a credential's (`Key` alone names no secret: a settings table's keys are names):
 * headscale's pre-auth keys, `Reusable | Ephemeral` beside it (adv144 F20, printed by `cat`).
 */
/** A cell of a hash and the password a cracker found for it in parentheses (sqlmap's dumps). */
const CRACKED_CELL = /^(?:[0-9a-fA-F]{32,128}|\$[PH]\$[./0-9A-Za-z]{31}|\$2[abxy]\$\d\d\$[./0-9A-Za-z]{53}) \(([^()\s][^()]{0,255})\)$/;
/**
 * A `KEY` column's cell taken for a key: 24 characters and up (Mattermost's tokens are 26: adv213 F9) of letters and digits only, a digit and a letter among them; not
 * a name of words and dashes (a cache's key, `user_sessions_2024_archive_00001`, `gh cache list`'s `node-cache-Linux-x64-npm-…`:
 * adv211 L5) nor a UUID (a KMS key's id), nor a SHA-256 digest (a content-addressed store's keys: adv213 L1).
 */
/** A frame's cell read by its end under a token's title this long at least (a tidytext `token` column holds `h1n1`); a password's any length. */
const MIN_R_CELL = 8;
const MINTED_KEY_CELL = /^(?![0-9a-fA-F]{64}$)(?=[^\n]{0,200}\d)(?=[^\n]{0,200}[A-Za-z])[A-Za-z0-9]{24,200}$/;
const KEY_TABLE_HEADER = /\|[ ]*(?:Reusable|Ephemeral)[ ]*(?:\||\r?$)/;
/** A rule under a barred header (psql's `----+----`, a markdown table's `---|---`). */
const BARRED_RULE = /^[ \t]*[-:]{2,}[-+|: \t]*\r?$/;
/** A barred row's cells, split at bars, each without its padding (an empty cell is empty), or undefined for an empty row. */
function barredCells(t: string, from: number, to: number): [number, number][] | undefined {
  if (from === to) return undefined;
  const cells: [number, number][] = [];
  // A box-drawing table's bar (`│`, a CLI's table drawn with box characters: pass 227 F22) or an ASCII one.
  const boxed = t.slice(from, to).includes('│');
  for (let i = from; ; ) {
    let j = boxed ? nextBar(t, i, to) : t.indexOf('|', i);
    if (j < 0 || j > to) j = to;
    let a = i;
    let b = j;
    while (a < b && t.charCodeAt(a) === 0x20) a++;
    while (b > a && (t.charCodeAt(b - 1) === 0x20 || t.charCodeAt(b - 1) === 0x0d)) b--;
    cells.push([a, b]);
    if (j >= to) return cells;
    i = j + 1;
  }
}
/** A word or two before a title's pair of words (`Delivery` of `Delivery API token`, `Content Preview` of `Content Preview API token`). */
const THIRD_TITLE_WORD = /^[A-Za-z][\w.-]{0,31}(?: [A-Za-z][\w.-]{0,31})?$/;
/** A barred table's bar: ASCII's or a box's. */
const BAR = /[|│]/;
/** The next bar of either kind in t[from, to), or -1. */
function nextBar(t: string, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    const c = t.charCodeAt(i);
    if (c === 0x7c || c === 0x2502) return i;
  }
  return -1;
}
/** The titles of such a header (a title may hold one blank: `CREATED AT`). */
const SPACED_TITLES = /[^ \r]+(?: [^ \r]+)*/g;
/** A header's or a row's fields: a run of tabs, or of two blanks and more, between them. */
function splitAligned(line: string, sep: string): string[] {
  return sep === SPACED ? (line.match(SPACED_TITLES) ?? []) : line.split(/\t+/);
}
/** The word of the row t[from, to) that starts at its column `column` after a blank (a cell under its title), or undefined. */
function wordUnder(t: string, from: number, to: number, column: number): [number, number] | undefined {
  const at = from + column;
  if (at >= to || t.charCodeAt(at) <= 0x20 || (column > 0 && t.charCodeAt(at - 1) !== 0x20)) return undefined;
  let end = at;
  while (end < to && t.charCodeAt(end) > 0x20) end++;
  return [at, end];
}

/** A blank-aligned row's cells (runs of two blanks or more between them), or undefined for an empty row. */
function spacedCells(t: string, from: number, to: number): [number, number][] | undefined {
  if (from === to) return undefined;
  const cells: [number, number][] = [];
  for (let i = from; i < to; ) {
    while (i < to && t.charCodeAt(i) === 0x20) i++;
    if (i >= to) break;
    let j = i;
    while (j < to && !(t.charCodeAt(j) === 0x20 && (t.charCodeAt(j + 1) === 0x20 || j + 1 === to))) j++;
    cells.push([i, j]);
    i = j;
  }
  return cells.length > 0 ? cells : undefined;
}

/** A tab-aligned row's cells (runs of tabs between them), or undefined for an empty row. */
function alignedCells(t: string, from: number, to: number): [number, number][] | undefined {
  if (from === to) return undefined;
  const cells: [number, number][] = [];
  for (let i = from; i < to; ) {
    let j = i;
    while (j < to && t.charCodeAt(j) !== 0x09) j++;
    if (j > i) cells.push([i, j]);
    while (j < to && t.charCodeAt(j) === 0x09) j++;
    i = j;
  }
  return cells;
}

function csvCells(t: string, from: number, to: number, sep: string): [number, number][] | undefined {
  if (from === to) return undefined;
  const sepCode = sep.charCodeAt(0);
  const cells: [number, number][] = [];
  let i = from;
  for (;;) {
    if (t.charCodeAt(i) === 0x22) {
      let j = i + 1;
      for (; j < to; j++) if (t.charCodeAt(j) === 0x22) {
        if (t.charCodeAt(j + 1) === 0x22) j++;
        else break;
      }
      if (j >= to) return undefined;
      cells.push([i + 1, j]);
      i = j + 1;
    } else {
      let j = i;
      while (j < to && t.charCodeAt(j) !== sepCode) j++;
      cells.push([i, j]);
      i = j;
    }
    if (i >= to) return cells;
    if (t.charCodeAt(i) !== sepCode) return undefined;
    i++;
  }
}

function skipBlanks(t: string, at: number): number {
  while (at < t.length) {
    const c = t.charCodeAt(at);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
    at++;
  }
  return at;
}

/**
 * A database client's rows read by column: `sqlite3 app.db 'select id, email, api_key from users'` prints `1|a@example.com|k_…`,
 * and only the `api_key` cell is the credential. The rows were masked whole (secret-printers.ts queryPrinted): an agent that asked
 * for a token table lost its ids, e-mails and dates with it (pass 254 F36: `sqlite3 -header … 'select * from auth_tokens'`, the
 * header too). Read here: the query's select list, item by item (which is a secret, and the title each prints under), then the
 * output's rows split into as many cells: `|` (sqlite3's list mode, psql's `-A` and aligned output, mysql's and sqlite3's
 * `-table`, `-markdown`), `│` (`-box`), a tab (mysql's batch mode), a comma (`-csv`), the dash rule's columns (sqlite3's
 * `-column`), and sqlite3's `-line` / mysql's `\G` (`title = value`, `title: value`). A row of another count of cells (a value
 * holding the separator or wider than its column, JSON) is masked whole, as before: only the cells the query's own list says
 * are no secrets are shown.
 * A settings table (a name column and a value column, no column a secret's) is read by row instead: pairedCellValues.
 */

/** One item of a select list: the title it prints under (its alias or its column; none for an expression) and whether it is a secret. */
export interface SelectedColumn {
  title: string | undefined;
  secret: boolean;
}

/** Items a select list is read for at most (a hand-written query names a few; a generated one may name hundreds). */
const MAX_ITEMS = 256;

/**
 * The items of the select list of `query`'s first `select … from` that prints a secret, or `'*'` for `select *`; undefined when the
 * query is not read so (no such select; a list over MAX_ITEMS). `isSecret(item, table)`: does this item print a secret.
 */
export function selectedColumns(query: string, isSecret: (item: string, table: string | undefined) => boolean): SelectedColumn[] | '*' | undefined {
  const q = query.replace(/'(?:[^']|'')*'/g, "''").replace(/--[^\n]*/g, '');
  for (const m of q.matchAll(/\bselect\s+(?:distinct\s+)?([\s\S]*?)\s+from\s+([\w."]+)/gi)) {
    const table = m[2].replace(/"/g, '').split('.').pop();
    const items = topLevelItems(m[1]);
    if (items === undefined) return undefined;
    if (items.length === 1 && /^(?:[\w"]+\.)?\*$/.test(items[0])) return isSecret(items[0], table) ? '*' : undefined;
    if (items.some((i) => i.includes('*'))) return undefined;
    const columns = items.map((item) => ({ title: titleOf(item), secret: isSecret(item, table) }));
    if (columns.some((c) => c.secret)) return columns;
  }
  return undefined;
}

/** The select list's items, split at its commas outside parentheses. */
function topLevelItems(list: string): string[] | undefined {
  const items: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i <= list.length; i++) {
    const c = list[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if ((c === ',' && depth === 0) || i === list.length) {
      items.push(list.slice(from, i).trim());
      from = i + 1;
      if (items.length > MAX_ITEMS) return undefined;
    }
  }
  return items;
}

/** The title an item prints under: its alias (`x AS tok`, `x tok`), or its column's name (`t.token`); none for an expression. */
function titleOf(item: string): string | undefined {
  const alias = /\)?\s+(?:as\s+)?"?([A-Za-z_]\w*)"?$/i.exec(item);
  if (alias && /\s/.test(item)) return alias[1];
  const column = /^(?:"?[A-Za-z_]\w*"?\.)*"?([A-Za-z_]\w*)"?$/.exec(item);
  return column?.[1];
}

/** The first lines of a `select *`'s output its header is looked for in. */
const HEADER_LINES = 4;
/** A table's rule line (`----+----`, `+----+`, `|---|---|`, `├──┼──┤`, `--  -----`). */
const RULE_LINE = /^[\s|+\-=:─━┼┬┴├┤┌┐└┘│╭╮╰╯]*$/;
/** `title = value` (sqlite3's `-line`) or `title: value` (mysql's `\G`), the title right-aligned. */
const TITLED_LINE = /^[ \t]*([A-Za-z_]\w*)(?: = |: )(.*)$/;
/** psql's expanded display (`-x`, `\x`): `-[ RECORD 1 ]--+----` over each row, then `title | value` lines, the titles left-aligned. */
const EXPANDED_RECORD = /^-\[ RECORD \d+ \]-*(?:\+-*)?$/;
const EXPANDED_LINE = /^([A-Za-z_]\w*) *\| ?(.*)$/;

/**
 * The secret cells of a query's output `text`, by `columns` (selectedColumns'); `'*'`: by the titles of the header, its first
 * line, each a secret when `isSecretTitle` says. `valueOf` reads a cell (printedLine: a value or none). Undefined when the
 * output is not read by column here (no header for `*`; no row splits into the list's cells).
 */
export function queryCellValues(
  text: string,
  columns: SelectedColumn[] | '*',
  isSecretTitle: (title: string) => boolean,
  valueOf: (cell: string) => { start: number; end: number } | undefined,
): string[] | undefined {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  // psql's expanded rows are one title and its value a line (a row of two columns would split like a table's: the stop-time
  // check's `psql -x` was masked whole, or with two columns its names would have been read as values).
  if (lines.some((l) => EXPANDED_RECORD.test(l))) return expandedCellValues(lines, columns, isSecretTitle, valueOf);
  const cellsOf = rowSplitter(lines);
  let cols = columns;
  if (cols === '*') {
    // (aws' `--output table` has its call's and its list's names above the header, one cell each.)
    const titles = headerOf(lines, cellsOf, (cells) => cells.some(isSecretTitle));
    if (!titles) return undefined;
    cols = titles.map((t) => ({ title: t, secret: isSecretTitle(t) }));
  }
  const byTitle = new Map(cols.filter((c) => c.title !== undefined).map((c) => [c.title!.toLowerCase(), c.secret]));
  const values: string[] = [];
  let read = 0;
  for (const line of lines) {
    if (line.trim() === '' || RULE_LINE.test(line)) continue;
    const cells = cellsOf(line, cols.length);
    if (cells && cells.length === cols.length) {
      // The header: every titled item's cell is its title.
      if (cols.every((c, i) => c.title === undefined || cells[i].toLowerCase() === c.title.toLowerCase()) && cols.some((c) => c.title !== undefined)) continue;
      read++;
      cols.forEach((c, i) => {
        const v = c.secret ? valueOf(cells[i]) : undefined;
        if (v) values.push(cells[i].slice(v.start, v.end));
      });
      continue;
    }
    const titled = TITLED_LINE.exec(line);
    const secret = titled ? byTitle.get(titled[1].toLowerCase()) : undefined;
    if (secret !== undefined) {
      read++;
      const v = secret ? valueOf(titled![2]) : undefined;
      if (v) values.push(titled![2].slice(v.start, v.end));
      continue;
    }
    // Any other line: whole, as the rows were read before (a value with the separator in it, a message, a footer).
    const v = valueOf(line);
    if (v) values.push(line.slice(v.start, v.end));
  }
  return read > 0 ? values : undefined;
}

/** queryCellValues for psql's expanded display: each `title | value` line's value when its title is a secret column's. */
function expandedCellValues(
  lines: string[],
  columns: SelectedColumn[] | '*',
  isSecretTitle: (title: string) => boolean,
  valueOf: (cell: string) => { start: number; end: number } | undefined,
): string[] | undefined {
  const byTitle = columns === '*' ? undefined : new Map(columns.filter((c) => c.title !== undefined).map((c) => [c.title!.toLowerCase(), c.secret]));
  const values: string[] = [];
  let read = 0;
  for (const line of lines) {
    if (line.trim() === '' || EXPANDED_RECORD.test(line)) continue;
    const titled = EXPANDED_LINE.exec(line);
    const secret = titled ? (byTitle ? byTitle.get(titled[1].toLowerCase()) : isSecretTitle(titled[1])) : undefined;
    if (secret !== undefined) {
      read++;
      const v = secret ? valueOf(titled![2]) : undefined;
      if (v) values.push(titled![2].slice(v.start, v.end));
      continue;
    }
    // A value's continuation line, a footer (`(3 rows)`), a message: whole, as before.
    const v = valueOf(line);
    if (v) values.push(line.slice(v.start, v.end));
  }
  return read > 0 ? values : undefined;
}

/** How a row splits into cells: by the dash rule's columns (sqlite3's `-column`: the rule under the titles gives each column's span), else at its separators. */
function rowSplitter(lines: readonly string[]): (line: string, expected?: number) => string[] | undefined {
  const ruleAt = lines.findIndex((l) => DASH_RULE.test(l));
  const spans = ruleAt > 0 ? [...lines[ruleAt].matchAll(/-+/g)].map((m) => m.index!) : undefined;
  return spans ? (line: string) => spanCells(line, spans) : (line: string, expected?: number) => barCells(line, expected);
}

/** The header: among the first lines (rules and blanks skipped), the first of two or more titles only that `accept` takes. */
function headerOf(lines: readonly string[], cellsOf: (line: string) => string[] | undefined, accept: (titles: string[]) => boolean): string[] | undefined {
  for (const l of lines.filter((l) => l.trim() !== '' && !RULE_LINE.test(l)).slice(0, HEADER_LINES)) {
    const cells = cellsOf(l);
    if (cells && cells.length >= 2 && cells.every((t) => /^[A-Za-z_]\w*$/.test(t)) && accept(cells)) return cells;
  }
  return undefined;
}

/** `-column`'s rule under its titles: dash runs, two or more, blanks between. */
const DASH_RULE = /^-+(?: +-+)+ *$/;

/** A row's cells by the rule's columns (each from its dash run's start to the next's), each trimmed. */
function spanCells(line: string, starts: number[]): string[] | undefined {
  // (A cell wider than its column pushes the next ones right: the row is not read by column.)
  for (const at of starts.slice(1)) if (line.length > at && line[at - 1] !== ' ') return undefined;
  return starts.map((at, i) => line.slice(at, i + 1 < starts.length ? starts[i + 1] : undefined).trim());
}

/** The separators a row's cells may stand between, in the order a header is read by. */
const SEPARATORS = ['\t', '│', '|', ','];

/**
 * A row's cells: split at `|`, `│`, tabs or commas (a table's outer bars dropped), each trimmed; undefined for a line of one cell.
 * `expected`: the list's count of cells, when known: the one separator that splits the row into as many (a `-csv` row whose
 * password holds a `|` splits into two cells at either: read whole, adv263 Q1).
 */
function barCells(line: string, expected?: number): string[] | undefined {
  const present = SEPARATORS.filter((sep) => line.includes(sep));
  if (present.length === 0) return undefined;
  if (expected === undefined || present.length === 1) return splitAt(line, present[0]);
  const fits = present.map((sep) => splitAt(line, sep)).filter((cells) => cells.length === expected);
  return fits.length === 1 ? fits[0] : undefined;
}

function splitAt(line: string, sep: string): string[] {
  let body = line.trim();
  // (A table's border, one bar or aws' nested `||`.)
  if (sep !== '\t' && sep !== ',' && body.startsWith(sep) && body.endsWith(sep) && body.length > 1) body = body.replace(/^[|│]+|[|│]+$/g, '');
  return body.split(sep).map((c) => c.trim());
}

/**
 * A settings table read by row (pass 276 F6: `select user_id, setting_name, setting_value from user_settings where setting_name
 * like 'apiKey%'`): no column is a secret's, each row names its own. The value column's cell is a secret when the name column's
 * says so (`apiKey`, `smtp_password`; not `apiKeyEnabled`, `siteurl`). The pair: `name`/`value`, `key`/`value`, or one prefix
 * before both (`setting_name`/`setting_value`, WordPress' `option_name`/`option_value` and `meta_key`/`meta_value`, `configKey`/
 * `configValue`).
 */
export interface PairColumns {
  /** The titles, in the order the output prints them. */
  titles: string[];
  name: number;
  value: number;
}

/** A title's stem before a name's or a value's word: `setting_name` → `setting`, `configValue` → `config`, `name` → ``. */
function stemBefore(title: string, words: RegExp): string | undefined {
  const m = words.exec(title);
  return m ? title.slice(0, m.index).replace(/_$/, '').toLowerCase() : undefined;
}
/** The first lines of a `-line` or `\G` output its titles are looked for in (a record's columns, a few records). */
const TITLED_HEAD_LINES = 64;
const NAME_WORD = /(?:^|_|(?<=[a-z]))(?:name|key|Name|Key|NAME|KEY)$/;
const VALUE_WORD = /(?:^|_|(?<=[a-z]))(?:value|Value|VALUE)$/;

/** The name and value columns among `titles` (a select list's titles, or a header's), or undefined when they hold no such pair. */
export function pairColumns(titles: readonly (string | undefined)[]): PairColumns | undefined {
  for (let v = 0; v < titles.length; v++) {
    const valueStem = titles[v] === undefined ? undefined : stemBefore(titles[v]!, VALUE_WORD);
    if (valueStem === undefined) continue;
    const n = titles.findIndex((t) => t !== undefined && stemBefore(t, NAME_WORD) === valueStem);
    if (n >= 0) return { titles: titles.map((t) => t ?? ''), name: n, value: v };
  }
  return undefined;
}

/** The select list's titles of `query`'s first `select … from` (undefined for `select *` or none). */
export function selectedTitles(query: string): (string | undefined)[] | undefined {
  const q = query.replace(/'(?:[^']|'')*'/g, "''").replace(/--[^\n]*/g, '');
  const m = /\bselect\s+(?:distinct\s+)?([\s\S]*?)\s+from\b/i.exec(q);
  const items = m ? topLevelItems(m[1]) : undefined;
  if (!items || items.some((i) => i.includes('*'))) return undefined;
  return items.map(titleOf);
}

/**
 * The secret values of a settings table's output `text`: the value cell of each row whose name cell `isSecretName` says is a
 * secret's. `pair`: the select list's (its titles known), or undefined for `select *`: the header's, among the first lines.
 * Rows split as queryCellValues' do; sqlite3's `-line` and mysql's `\G` print the name's line, then the value's. Undefined when
 * the output is not read so (no header for `*`, no row of the pair's cells).
 */
export function pairedCellValues(
  text: string,
  pair: PairColumns | undefined,
  isSecretName: (name: string) => boolean,
  valueOf: (cell: string) => { start: number; end: number } | undefined,
): string[] | undefined {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  const cellsOf = rowSplitter(lines);
  let cols = pair;
  if (!cols) {
    const titles = headerOf(lines, cellsOf, (cells) => pairColumns(cells) !== undefined);
    cols = titles && pairColumns(titles);
    // sqlite3's `-line` and mysql's `\G` have no header: the titles of their lines.
    cols ??= pairColumns([...new Set(lines.slice(0, TITLED_HEAD_LINES).flatMap((l) => TITLED_LINE.exec(l)?.[1] ?? []))]);
    if (!cols) return undefined;
  }
  const { titles, name, value } = cols;
  const values: string[] = [];
  let read = 0;
  let named: string | undefined;
  // (A `-line` record may print the value's line first, `select setting_value, setting_name …`: adv289 F02.)
  let valued: string | undefined;
  for (const line of lines) {
    if (line.trim() === '' || RULE_LINE.test(line)) {
      named = valued = undefined;
      continue;
    }
    const cells = cellsOf(line, titles.length);
    if (cells && cells.length === titles.length) {
      if (cells[name].toLowerCase() === titles[name].toLowerCase() && cells[value].toLowerCase() === titles[value].toLowerCase()) continue;
      read++;
      const v = isSecretName(cells[name]) ? valueOf(cells[value]) : undefined;
      if (v) values.push(cells[value].slice(v.start, v.end));
      continue;
    }
    const titled = TITLED_LINE.exec(line);
    const title = titled?.[1].toLowerCase();
    const take = (cell: string) => {
      const v = valueOf(cell);
      if (v) values.push(cell.slice(v.start, v.end));
    };
    if (title === titles[name].toLowerCase()) {
      named = titled![2].trim();
      if (valued !== undefined) {
        read++;
        if (isSecretName(named)) take(valued);
        named = valued = undefined;
      }
    } else if (title === titles[value].toLowerCase()) {
      if (named === undefined) {
        valued = titled![2];
        continue;
      }
      read++;
      if (isSecretName(named)) take(titled![2]);
      named = undefined;
    }
  }
  return read > 0 ? values : undefined;
}

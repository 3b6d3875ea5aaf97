/**
 * Values named from afar (far-names.ts) through the scanner's two paths: the text (replies, audit) and the bytes (the
 * command's stream). The corpus (corpus.test.ts) holds them in every context; here the edges and hostile text.
 */
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { Redactor } from './redactor.js';
import { scanContextSecretsInBytes, scanSecrets } from './scanner.js';
import { COMMAND_LINE, FILES, HEADERS } from './context-rules.js';
import { mayHoldSecret } from './quick-check.js';
import { HANG_CPU_MS } from './test-cpu-budget.js';

const V = 'k7Hq2mZp9xVw4Rt8Ls3N';
const viaText = (t: string) => scanSecrets(t).map((f) => t.slice(f.start, f.end));
const viaBytes = (t: string) => {
  const b = Buffer.from(t.endsWith('\n') ? t : `${t}\n`);
  return scanContextSecretsInBytes(b, b.length).map((f) => f.value);
};
const both = (t: string) => ({ text: viaText(t), bytes: viaBytes(t) });
/** Blanks after each keyword in the blank-run guard, and the CPU a case may take: linear ~5 ms here, quadratic ~1 s and up. */
const BLANK_RUN = 30_000;
const BLANK_RUN_CPU_MS = 400;

describe('values named from afar', () => {
  it("a table's column under its header: each row's cell, on both paths; the rows end at a blank line, a rule or a row count", () => {
    const psql = ` name   |         token\n--------+------------------------\n ci     | ${V}\n cd     | ${V}b\n(2 rows)\n ci     | ${V}c\n`;
    expect(both(psql)).toEqual({ text: [V, `${V}b`], bytes: [V, `${V}b`] });
    const sqlite = `name    secret\n------  ------------------------\nstripe  ${V}\n\nother   ${V}d\n`;
    expect(both(sqlite)).toEqual({ text: [V], bytes: [V] });
  });

  it('a header cell that is more than the name, a column not named like a secret, a schema: nothing', () => {
    for (const t of [
      ` name | the token\n------+----------\n ci   | ${V}\n`,
      ` name | token_type\n------+-----------\n ci   | ${V}\n`,
      `  Column  |  Type   | Nullable\n----------+---------+---------\n password | text    | not null\n`,
      ` name | token\n------+-------\n ci   |\n cd   | NULL\n`,
    ])
      expect(both(t), t).toEqual({ text: [], bytes: [] });
  });

  it("a SQL column list: the value under the secret's column in every tuple, pg_dump's COPY rows (\\N is NULL)", () => {
    expect(both(`INSERT INTO api_keys (id, name, token, created_at) VALUES\n  (1, 'ci', '${V}', now()),\n  (2, 'cd', '${V}e', now());\n`)).toEqual({ text: [V, `${V}e`], bytes: [V, `${V}e`] });
    expect(both(`COPY public.api_keys (id, name, token) FROM stdin;\n1\tci\t${V}\n2\tcd\t\\N\n\\.\n3\tx\t${V}f\n`)).toEqual({ text: [V], bytes: [V] });
    // The column's index counts: the secret is not in the second place here.
    expect(both(`INSERT INTO t (secret, name) VALUES (NULL, '${V}');\n`)).toEqual({ text: [], bytes: [] });
  });

  it('a SQL column list over lines (a column a line, or several): the statement found by walking up the list, on both paths', () => {
    expect(both(`INSERT INTO users (\n  id,\n  email,\n  password\n) VALUES (\n  1,\n  'a@b.c',\n  '${V}'\n);\n`)).toEqual({ text: [V], bytes: [V] });
    expect(both(`insert into users (id, email,\n                   password) values\n  (1, 'a', '${V}'),\n  (2, 'b', '${V}x');\n`)).toEqual({ text: [V, `${V}x`], bytes: [V, `${V}x`] });
    // Quoted names (a line of them also reads as a CSV header: the window still starts at the statement).
    expect(both(`INSERT INTO "users" (\n  "id", "name",\n  "api_token", "created_at"\n)\nVALUES\n  (1, 'ci', '${V}', now());\n`)).toEqual({ text: [V], bytes: [V] });
    expect(both(`COPY public.keys (\n  id,\n  token\n) FROM stdin;\n1\t${V}\n\\.\n`)).toEqual({ text: [V], bytes: [V] });
    // No statement above the list (prose, a fragment), or a list longer than MAX_SQL_COLUMNS: nothing.
    expect(both(`some prose about the\n  password\n) VALUES ('${V}')\n`)).toEqual({ text: [], bytes: [] });
    expect(both(`  id,\n  password\n) VALUES (1, '${V}');\n`)).toEqual({ text: [], bytes: [] });
    expect(both(`INSERT INTO t (\n${'  a,\n'.repeat(64)}  token\n) VALUES (${'1,'.repeat(64)}'${V}');\n`)).toEqual({ text: [], bytes: [] });
  });

  it("a dump's INSERTs without a column list: the value under the schema's secret column (sqlite3 .dump, mysqldump, pg_dump --inserts)", () => {
    // As sqlite3 3.40 printed it (`.dump` of a table created in one line and one in several).
    const lite = `CREATE TABLE users(id INTEGER PRIMARY KEY, email TEXT NOT NULL, api_token TEXT);\nINSERT INTO users VALUES(1,'a@b.c','${V}');\nINSERT INTO users VALUES(2,'d@e.f',NULL);\nCREATE TABLE IF NOT EXISTS "keys" (\n  id INTEGER,\n  secret TEXT\n);\nINSERT INTO keys VALUES(1,'${V}k');\nCOMMIT;\n`;
    expect(both(lite)).toEqual({ text: [V, `${V}k`], bytes: [V, `${V}k`] });
    // mysqldump's extended INSERT: a column's parentheses and quotes (`decimal(10,2)`, `DEFAULT '0.00'`) and the keys are no columns.
    const my = `CREATE TABLE \`users\` (\n  \`id\` int NOT NULL AUTO_INCREMENT,\n  \`price\` decimal(10,2) DEFAULT '0.00',\n  \`api_token\` varchar(64) DEFAULT NULL,\n  PRIMARY KEY (\`id\`)\n) ENGINE=InnoDB;\nLOCK TABLES \`users\` WRITE;\nINSERT INTO \`users\` VALUES (1,1.00,'${V}'),(2,2.50,NULL),(3,0.00,'${V}b');\nUNLOCK TABLES;\n`;
    expect(both(my)).toEqual({ text: [V, `${V}b`], bytes: [V, `${V}b`] });
    expect(both(`CREATE TABLE public.users (\n    id integer NOT NULL,\n    api_token text\n);\n\nINSERT INTO public.users VALUES (1, '${V}');\n`)).toEqual({ text: [V], bytes: [V] });
    // Another table's INSERTs, a later table's schema, and a column list of the INSERT's own (sqlColumn reads those): not this column.
    const other = `CREATE TABLE a (id INTEGER, token TEXT);\nINSERT INTO b VALUES (1, '${V}');\nCREATE TABLE c (token TEXT, x TEXT);\nINSERT INTO a VALUES (1, NULL);\n`;
    expect(both(other)).toEqual({ text: [], bytes: [] });
    // A sqlite dump's 300 one-row INSERTs before the secret's: each search pays for what it read, not 16 KB (adv11 S07).
    const many = `CREATE TABLE k(token TEXT);\n${Array.from({ length: 300 }, (_, i) => `INSERT INTO k VALUES('x${i}');`).join('\n')}\nINSERT INTO k VALUES('${V}');\n`;
    expect(viaText(many)).toContain(V);
  });

  it('a CSV or TSV column under a secret\'s name in the header, quoted or not; a prose line with commas is no header', () => {
    expect(both(`name,email,password\nbob,bob@corp.lan,${V}\neve,eve@corp.lan,\n`)).toEqual({ text: [V], bytes: [V] });
    expect(both(`"id","api_key","owner"\n1,"${V}","bob"\n`)).toEqual({ text: [V], bytes: [V] });
    expect(both(`id\ttoken\towner\n7\t${V}\tbob\n`)).toEqual({ text: [V], bytes: [V] });
    expect(both(`Use the token, the key and the password.\nbob,${V},y\n`)).toEqual({ text: [], bytes: [] });
    // A row with another number of fields ends the file's table.
    expect(both(`name,password\nbob,${V}\nsummary: 1 row, ${V}h, done\n`)).toEqual({ text: [V], bytes: [V] });
  });

  it("a Terraform variable's default under a secret's label, past a nested block; not another block's", () => {
    const tf = `variable "admin_token" {\n  validation {\n    condition = length(var.admin_token) > 8\n  }\n  default = "${V}"\n}\nvariable "region" {\n  default = "${V}g"\n}\n`;
    expect(both(tf)).toEqual({ text: [V], bytes: [V] });
    // A heredoc default (adv8 A06), indented (`<<-`) or not; not another variable's, not one whose marker never comes.
    expect(both(`variable "db_password" {\n  type = string\n  default = <<EOT\n${V}\nEOT\n}\n`)).toEqual({ text: [V], bytes: [V] });
    expect(both(`variable "signing_key" {\n  default = <<-EOT\n    ${V}\n    ${V}x\n  EOT\n}\n`)).toEqual({ text: [V, `${V}x`], bytes: [V, `${V}x`] });
    expect(both(`variable "motd" {\n  default = <<EOT\n${V}\nEOT\n}\nvariable "db_password" {\n  default = <<EOT\n${V}y\n`)).toEqual({ text: [], bytes: [] });
  });

  // Megabyte lines of names, column lists, headers and blocks: one test each (over 200 of them take minutes on a slow machine,
  // longer than one test may run; each alone takes a CPU second or two).
  const hostile = [
    'token '.repeat(170_000),
    `INSERT INTO t (${'token, '.repeat(140_000)}x) VALUES (1);`,
    // A column list over lines with no end, and lines shaped like one with no statement above (each walks up the list).
    `INSERT INTO t (\n${'  token,\n'.repeat(120_000)}`,
    '  token,\n'.repeat(120_000),
    // Schemas with a secret column and no INSERT, column definitions with no CREATE above, one INSERT of a megabyte of tuples.
    'CREATE TABLE t (id int, token text);\n'.repeat(30_000),
    '  token text,\n'.repeat(80_000),
    `CREATE TABLE t (token text);\nINSERT INTO t VALUES ${"('x'),".repeat(150_000)}('y');\n`,
    '{"a":"token",'.repeat(75_000),
    'token\n---\n'.repeat(100_000),
    'variable "db_password" {\n'.repeat(40_000),
    `${'token | '.repeat(500)}\n${'-'.repeat(4000)}\n${` x | ${V}\n`.repeat(20_000)}`,
    `${'token,'.repeat(600)}x\n${'1,'.repeat(600)}2\n`.repeat(200),
    // A YAML list item with a long run of blanks (a regex trimming it took 244 s).
    `tokens:\n  - a${' '.repeat(200_000)}b\n`,
    // Session 8's forms that read lines above or below a name: a Name  Value table's rows (each walks up to its header), options
    // alone on their lines, redis-cli field rows, a secret's object, a flag `"secret": true` with braces far away.
    `${'API_TOKEN     v4lue-xyz\n'.repeat(100_000)}`,
    `Name     Value\n----     -----\n${'API_TOKEN     v4lue-xyz\n'.repeat(100_000)}`,
    '--db-password\n'.repeat(100_000),
    '1) "access_token"\n'.repeat(100_000),
    '"DB_PASSWORD": {'.repeat(100_000),
    `{${' "secret": true,'.repeat(80_000)}`,
    // Session 10's forms: findings by the hundred thousand on one line with no tab (each walked the line back: 39 s for 3 MB),
    // look-backs bounded at 1 KB (nix's access-tokens, declare -A), a tab-aligned table, REPL answers, word diffs, byte arrays.
    `[${'{"authorization", "Bearer x"}, '.repeat(100_000)}]\n`,
    `access-tokens = ${'h=t '.repeat(200_000)}\n`,
    `declare -A CREDS=(${'[k]="v" '.repeat(100_000)})\n`,
    `ID\t\tToken\t\tUser Name\n${'a\t\tb\t\tc\n'.repeat(100_000)}`,
    ">>> settings.SECRET_KEY\n'abcdabcdabcd'\n".repeat(50_000),
    `DB_PASSWORD=[-${'a'.repeat(300_000)}\n`,
    `"MESSAGE":[${'65,'.repeat(300_000)}65]\n`,
    // Session 11's forms: one-item arrays under a secret's name (a 40-hex value searched the whole text back for a Podfile
    // section each: 8 s for 1 MB), a scheme word before each value, sentences, Bearer anywhere, an Azure account key's name.
    `"secret": [\n  "${'a1'.repeat(20)}"\n],\n`.repeat(25_000),
    `API_TOKEN=Bearer ${'x'.repeat(30)}\n`.repeat(30_000),
    'password is '.repeat(100_000),
    'Bearer '.repeat(150_000),
    `fs.azure.account.key.${'a.'.repeat(500_000)}`,
    `db_password\t${'x1'.repeat(10)}\n`.repeat(50_000),
    // Wrapped quoted values (each walks the lines below), a tuple's row of strings, RESP3 handshakes, dump rows after a tab.
    `"token":"${'a1'.repeat(10)}\n`.repeat(50_000),
    `"token":"${'a1'.repeat(10)}\n${'b2'.repeat(30)}\n`.repeat(20_000),
    `VALUES(${"'token','x1x1x1x1',".repeat(50_000)})`,
    '"HELLO" "3" "AUTH" '.repeat(50_000),
    '\t0x0000:  4500 00d4 561e 4000 4006 0f83 7f00 0001  E...V.@.@.......\n'.repeat(15_000),
    '<td>password</td><td>x'.repeat(50_000),
    `<td>password</td><td>${'a'.repeat(100_000)}`,
    'h\tFALSE\t/\tTRUE\t1\tn\t'.repeat(60_000),
    `a\tFALSE\t/\tTRUE\t1\tn\t${'v'.repeat(500_000)}\n`,
    '{"value":"x","type":1,'.repeat(50_000),
    `grant_type=authorization_code ${'x'.repeat(500_000)}`,
    'grant_type=authorization_code,code=abcdefghij '.repeat(20_000),
    `user = x\n${'auth = "abcdefghijk"\n'.repeat(50_000)}`,
    '"text/plain": ["\'abcdefgh\'"], "source": ["x.api_key"]\n'.repeat(20_000),
    `"text/plain": ["'abcd'"], "source": [${'"a"      ,      '.repeat(50_000)}`,
    '\x1b]8;;https://u:p@h\x07x'.repeat(60_000),
    `\x1b]0;${'mysql -pabcdefgh '.repeat(60_000)}\x07`,
    'x\b \b'.repeat(200_000),
    `${'dbPassword        abcdefgh1  '.repeat(60_000)}`,
    'dbPassword        abcdefgh1\n'.repeat(60_000),
    "Command arguments: ['--password', ".repeat(60_000),
    `['-u', ${"'-p', ".repeat(100_000)}]`,
    '<Cookie a=bbbbbbbbbbbbb for x/> '.repeat(40_000),
    `  await page.getByLabel('password').fill('${'x'.repeat(600)}`.repeat(1_000),
    'ssh-keygen '.repeat(100_000) + ' -N x',
    ' -N x'.repeat(200_000),
    `MIIEowIBAAKC${'A'.repeat(60)}\n`.repeat(20_000),
    'x:\n  value: y\n'.repeat(60_000),
    'encrypt = "'.repeat(100_000),
    'password.set("'.repeat(100_000),
    '"value":"x","id":"https://a.vault.azure.net/x'.repeat(30_000),
    `app.key=${'\\n\\\n'.repeat(100_000)}`,
    `sqs://a:${'b'.repeat(200)}@ `.repeat(5_000),
    "{'token': [".repeat(100_000),
    "echo 'abcd' | ".repeat(100_000) + 'kinit',
    '  shared_key abcdefgh1\n'.repeat(80_000),
    'user_a="'.repeat(100_000),
    '"dp":"'.repeat(100_000),
    `"DB_PASSWORD=${'a '.repeat(300_000)}`,
    'key = "x-api-key"\n'.repeat(60_000),
    // Session 12: continued .properties values, IMAP LOGINs, auditd's hex records.
    `password=a\\\n${' '.repeat(500_000)}x\\`,
    `password=a${'\\\n b'.repeat(100_000)}`,
    '> A1 LOGIN u '.repeat(100_000),
    `type=EXECVE msg=audit(1.1:1): argc=1${' a1=2D2D'.repeat(100_000)}`,
    `type=PROCTITLE msg=audit(1.1:1): proctitle=${'2D70'.repeat(300_000)}`,
    `type=EXECVE msg=audit(1.1:1): argc=2 a0="mysql" a1=${'2D70'.repeat(200_000)}0`,
    // Passes 30 and 31: scanners' reports, replace-text lines, calls' arguments, word-diff porcelain, quoted key pieces, %whos.
    'has detected secret for file x\n'.repeat(60_000),
    `has detected secret for file x\n${'  "a": 1,\n'.repeat(200_000)}`,
    '"occurrences": [ { '.repeat(80_000),
    `literal:${'a'.repeat(600_000)}`,
    'a==>'.repeat(200_000),
    `new PDO(${"'a', ".repeat(200_000)}`,
    `.login(${'a'.repeat(200)}, `.repeat(5_000),
    `AKIA${'A'.repeat(16)}, `.repeat(50_000),
    `set :token, "${'x'.repeat(600_000)}`,
    `password: \n-"${'a'.repeat(500_000)}`,
    `'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC${'A'.repeat(40)}\\n' +\n`.repeat(20_000),
    `Variable   Type      Data/Info\n------------------------------\n${'api_key    str       x  \n'.repeat(50_000)}`,
    ' User:a:b'.repeat(100_000) + ' Host:',
    `https://aws:${'a'.repeat(600_000)}`,
    `x [+5 chars] ${'\\n'.repeat(300_000)}`,
    // Passes 32 and 33: grep prefixes before a Gradle setting (each read its line back: 42 s for 1 MB of names), padded labels,
    // Rust's Some(, kernel files, DuckDB secrets, keys cut in a form-encoded URL.
    `${'1-  token "x" '.repeat(80_000)}`,
    `${'x'.repeat(400_000)}:  storePassword "abcdefgh"`,
    'Name          API_KEY\n'.repeat(60_000),
    'api_key: Some(\n'.repeat(100_000),
    '"signature_scheme": "hmac-sha256", "key": "abcdefghij",\n'.repeat(20_000),
    `CREATE SECRET s (${'SECRET '.repeat(150_000)}`,
    `CREATE SECRET s (TYPE s3${", SECRET 'abcdefghij'".repeat(40_000)})`,
    `x=-----BEGIN+RSA+PRIVATE+KEY-----%0A${'A%2B'.repeat(2_000)} … [+10 chars] … ${'%0A'.repeat(200_000)}`,
    'wandb login '.repeat(100_000),
    // A command's name repeated on one line with no option after it: each read the line to its end (37 s for 1 MB, since
    // session 4's command-line rules; bounded to 1 KB between the name and its option now).
    'docker login -u x '.repeat(60_000),
    'mysql -h x '.repeat(100_000),
    'openssl x '.repeat(100_000),
    'htpasswd x '.repeat(100_000),
    // Pass 35: YAML list options, `# key` comments, kubeadm's key, base64 after a cut mark.
    '- --requirepass\n'.repeat(100_000),
    '# password\n'.repeat(150_000),
    'Using certificate key:\n'.repeat(60_000),
    `x … [+5 chars] … ${'LS0tLS1FTkQg'.repeat(100_000)}`,
    // Pass 34: Windows' commands, .reg hex values, nested <Value>, CLIXML entries, SQLCMD lines.
    'net use x /user:a '.repeat(60_000),
    `"Password"=hex:${'a3,'.repeat(300_000)}`,
    '<Password>\n'.repeat(100_000),
    '<S N="Key">ApiToken</S>\n'.repeat(60_000),
    ':connect x '.repeat(100_000),
    'choco x '.repeat(100_000),
    '##vso[task.setvariable variable=aKey;'.repeat(30_000),
    // Bound parameters' lists (bound-params.ts): markers by the hundred thousand, statements of placeholders, unclosed lists and quotes.
    'knex:bindings [ '.repeat(100_000),
    `insert into t (token) values (${'$1, '.repeat(100_000)})\nParams: [${'"a", '.repeat(100_000)}]\n`,
    `Query: UPDATE t SET ${'"token" = ?, '.repeat(60_000)}\n${'Params: ["x", '.repeat(50_000)}\n`,
    `Executing (default): ${'INSERT INTO t (token) VALUES (?); '.repeat(30_000)}\n`,
    `Executing (default): UPDATE t SET token = ? ${"'".repeat(500_000)}; "x"\n`,
    'Params: ["\n'.repeat(100_000),
    `SELECT ${') VALUES ('.repeat(100_000)}\nbindings [a]\n`,
    `[generated in ${'('.repeat(500_000)}`,
    // Session 13: a prompt's word inside a flow map (its look back), options named like keys, ltrace's getenv, parsed URLs,
    // curl's run-together options, YAML anchors, key blocks behind line prefixes, a value's tail after many cuts.
    `{${'password: x '.repeat(100_000)}`,
    `DB_PASSWORD=[-${'a'.repeat(300_000)}\n`,
    '--b2-key --a-key '.repeat(100_000),
    'getenv("API_KEY") = "'.repeat(60_000),
    "netloc='a:".repeat(100_000),
    `curl ${'-fsSu '.repeat(150_000)}`,
    `DD_API_KEY: ${'&a '.repeat(200_000)}`,
    `x: -----BEGIN RSA PRIVATE KEY-----\n${'x: MIIEowIBAAKC\n'.repeat(100_000)}`,
    `SECRET_KEY=${'a… [+5 chars] …'.repeat(50_000)}`,
    // Passes 40 and 41: arrays under a plural name, TOML strings below their key, .properties with blanks, hosts' keys, `token:@`.
    `api_keys = [${'"a1b2c3d4", '.repeat(100_000)}`,
    'password = """\n'.repeat(60_000),
    'a.b.password x1\n'.repeat(100_000),
    'https://a.io: a1b2c3d4e5f6a7b8c9d0e1\n'.repeat(60_000),
    `${'://abcdefgh12345678:'.repeat(50_000)}@`,
    `${'00Dabcdefghijkl!'.repeat(60_000)}`,
    `${'access_token$production$'.repeat(60_000)}`,
    // Pass 42: a run of A's (X's bearer tokens), API key ids at a line's start.
    `${'A'.repeat(600_000)}`,
    '  APIabcdefghijkl: x\n'.repeat(60_000),
    // Passes 44-46: string pieces in parentheses, a debug view's sections, Unleash's `*:` tokens, camelCase keys, call heads.
    `'token': (${"'a' ".repeat(200_000)}`,
    `Jwt:\n${'  Key=abc (x)\n'.repeat(80_000)}`,
    `${'*:*.'.repeat(150_000)}`,
    `${'"CosmosDbKey": "x", '.repeat(60_000)}`,
    `${'apiKey: a.b.c.d.e.f.g('.repeat(60_000)}`,
    // Session 14: Redis keys named for tokens, header pairs, quoted-printable separators, RSA exponents in key bodies, three quotes.
    `${'"SET" "api_token:'.repeat(60_000)}`,
    `127.0.0.1:6379> SET ${'a_token:'.repeat(120_000)}`,
    `[${'["X-Api-Token", '.repeat(60_000)}`,
    `${'password=3D '.repeat(80_000)}`,
    `${'-AgMBAAECggEAJn4RkkFR2322pyBDqfMNmjnn0XRVixCImLIjAWChcp97Rd8mq6sD\n'.repeat(15_000)}`,
    `${'IDAQABAo'.repeat(120_000)}\n`,
    "secret = '''\n".repeat(60_000),
    `${'pin_hex=3D '.repeat(80_000)}`,
    // Two quadratic forms of shipped code found on the way: a quote counted from the line's start for every name on it (40 s a
    // megabyte), and every name inside a long unquoted value reading that value again to the line's end.
    `${'"GET" "api_token:'.repeat(60_000)}`,
    `token:${'${a_token:'.repeat(100_000)}`,
    // Folds joined back (equal lines of base64 under a name, a megabyte), tool prefixes before a DER start, expect's answers.
    `client-key-data: ${'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0NTY3\n'.repeat(12_000)}`,
    `${'+ echo MIIEowIBAAKCAQEARkJiGJ+8BQxCTBaN3mC4MuTBXeiT+Qm8JeMa2owlm0MrJBpx\n'.repeat(14_000)}`,
    `${'expect "assword:"; send "'.repeat(40_000)}`,
    // Pass 55's hang (shipped since session 13): a quoted value of letters then a digit, read as a setting's name by a regex that
    // split the letters every way (a docker "auth" never returned).
    '"auth": "YWNtZTpEelNZJTdGUVFmODJFdHVTWlBucg==",\n'.repeat(20_000),
    `"password": "${'a'.repeat(47)}1",\n`.repeat(20_000),
    // Pass 56's encodings: byte lists unclosed or under 16, a C array's gaps of blanks (two blank runs that could share them
    // split every way: exponential before it was written with one way), escaped lines, ASCII85 openings, base32 and base64url runs.
    `[${'1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, '.repeat(20_000)}`,
    `${'[1,2,3,4,5,6,7,8,9,10,11,12,13,14 '.repeat(30_000)}`,
    `${'0x41,          '.repeat(14)}0x4\n`.repeat(6_000),
    `${'0x41,\n  '.repeat(120_000)}`,
    `"${'\\x41\\u0062\\101'.repeat(60_000)}"`,
    `${'\\x41'.repeat(15)} `.repeat(16_000),
    `${'<~'.repeat(300_000)}~>`,
    `${'<~9jqo^BlbD-BleB1DJ+*+F(f,q/0JhKF<GL>Cj@.4Gp$d7F!,L7@<6@)/0JDEF<G%<+EV:2F!,O<~>'.repeat(12_000)}`,
    `${'ORXWWZLOHVTWQ4C7JJ4TINZWNJ3HIYSHKZCDGYKXO5BXURJWPFSEW6SSIRYE4N2KJZ2GGNLINY====== '.repeat(12_000)}`,
    `${'eyJ1c2VyIjoic3ZjLWV0bCIsInBhc3N3b3JkIjoiY3dQQl5VaksyVXMzN2NwaFRySFUiLCJob3N0Ijoid2FyZWhvdXNlLmFjbWUuaW8ifQ '.repeat(9_000)}`,
    `${'0000000 160 141 163 163 075 162 122 141 102 136 062 161 101 120 161 170\n'.repeat(14_000)}`,
    // Pass 57's: openssl's private numbers with the squasher's marks between their lines, labels with nothing under them.
    `privateExponent:\n${'    1a:2b:3c:4d:5e:6f:70:81:92:a3:b4:c5:d6:e7:f8:\n[... 1 similar line ...]\n'.repeat(12_000)}`,
    `${'prime1:\n\npriv:\n[... 9 lines omitted ...] '.repeat(30_000)}`,
    // Pass 58's: Hibernate's parameter lines on one line, under a statement, with no statement; session cookies' names.
    `${'binding parameter [1] as [VARCHAR] - [abc] '.repeat(25_000)}`,
    `update users set reset_token=? where id=?\n${'binding parameter [1] as [VARCHAR] - [abcdefghijkl]\n'.repeat(20_000)}`,
    `${'sessionid = sessionid = '.repeat(40_000)}`,
    // Pass 59's: keytab lines, R's str(), EDN keywords, Node's Buffer.
    `${'(aes256-cts-hmac-sha1-96)  (0x'.repeat(30_000)}`,
    `${'..$ dbpass  : chr "'.repeat(50_000)}`,
    `${':secret-key :secret-key "'.repeat(40_000)}`,
    `${'<Buffer 67 68 70 5f '.repeat(50_000)}`,
    // A megabyte line of byte lists, each under a name (its name read back a bounded way).
    `${'key: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16] '.repeat(16_000)}`,
    // Pass 60's: Postman's apikey lists, unclosed.
    `${'"apikey": [{"key": "value", "apikey": ['.repeat(25_000)}`,
    // Passes 61 and 62's: credentials in prose and code spans, header pairs, the secrets context, soft breaks, app passwords, hooks.
    `${'the api token for staging (x): '.repeat(35_000)}`,
    `${'pass `'.repeat(170_000)}`,
    `${'["X-Api-Key", '.repeat(70_000)}`,
    `${'[\n  "X-Api-Key",\n'.repeat(50_000)}`,
    `${'"github_token": "x",\n'.repeat(50_000)}`,
    `${'x "github_token": '.repeat(50_000)}`,
    `Content-Transfer-Encoding: quoted-printable\n${'api_token=Ab1cD2eF3gH4iJ5kL6mN=\n'.repeat(30_000)}`,
    `${'/hooks/a/b/'.repeat(90_000)}`,
    `${'/webhooks/Ab1'.repeat(75_000)}`,
    `${'password=abcd abcd abcd abcd '.repeat(35_000)}`,
    // Seed phrases' lines: many that say so, words under each short of a phrase.
    `${'seed phrase:\nabout advance artist add asset arch\n'.repeat(25_000)}`,
    `${'mnemonic '.repeat(110_000)}`,
    // Pass 64 and 65's: AWS ids with nothing after, plans' sensitive flags unclosed, hex runs of text, made words after a secret's
    // word, auth tuples, live keys' prefixes, Go byte slices under a name.
    `${'AKIAABCDEFGHIJKLMNOP '.repeat(50_000)}`,
    `${'id: "AKIAABCDEFGHIJKLMNOP"\n'.repeat(40_000)}`,
    `${'"after_sensitive": {'.repeat(50_000)}`,
    `${'4142434445464748494a4b4c4d4e4f50'.repeat(30_000)}`,
    `${'password Ab1'.repeat(80_000)}`,
    `${"auth=('u', 'x') ".repeat(60_000)}`,
    `${'sk_live_'.repeat(120_000)}`,
    `${'HMACKey:[]uint8{0x41, '.repeat(40_000)}`,
    // Pass 66 and 67's: labels in other languages with nothing after, keystore options, mkpasswd's options.
    `${'API-Schlüssel: Токен доступа：'.repeat(40_000)}`,
    `${' -storepass -keypass'.repeat(60_000)}`,
    `${'mkpasswd -m x '.repeat(80_000)}`,
    `${'password from x from y: '.repeat(45_000)}`,
    // Values below a name: INI names with nothing under them, heredocs never closed.
    'api_key =\n'.repeat(110_000),
    `secret = <<-EOT\n${'  Qm7xT2vK9pL4wZ8n\n'.repeat(60_000)}`,
    `${'access_keys =\n    x\n'.repeat(70_000)}`,
    // Overstruck lines (man's bold): each line with a backspace read once.
    'a\bb\n'.repeat(250_000),
    `${'p\bpa\bas\bss\bsw\bwo\bor\brd\bd: x '.repeat(30_000)}`,
    // Pass 69's: short byte lists in braces and short escape runs under a name (each read back a bounded way), lists in braces
    // never closed, a secret's variable after `using` with a word that is no value, pairs under a credentials' name unclosed.
    `${'api_key = [_]u8{ 68, 107, 81, 122, 55, 120, 80, 113 }; '.repeat(18_000)}`,
    `${'x_key = { 1, 2, 3, 4, 5, 6, 7, 8, 9, '.repeat(28_000)}`,
    `${"DB_PASSWORD=$(printf '\\172\\122\\161\\130\\067\\155\\114\\160') ".repeat(15_000)}`,
    `${'"token": "\\u0052\\u0063\\u0078\\u0039\\u004b\\u0070\\u0032\\u004c" '.repeat(12_000)}`,
    `${'using API_TOKEN with API_TOKEN via '.repeat(30_000)}`,
    `${'creds: ["a", "b", creds: ("'.repeat(35_000)}`,
    // Passes 70 and 71's: commas in values, char lists, a blank-aligned table's header and rows, concatenated and wrapped values,
    // reversed literals, prose, positional JDBC fields, REPL pairs.
    `${'PASSWORD=a,b,c,d,e,f,g,h,'.repeat(40_000)}`,
    `${"pw = { 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', ".repeat(20_000)}`,
    `SERVICE  USER  PASSWORD  HOST\n${'svc  u  Qm7xT2vK9pL4  h\n'.repeat(40_000)}`,
    'SERVICE  PASSWORD\n'.repeat(60_000),
    `${'TOKEN  TOKEN  '.repeat(70_000)}`,
    `token = "ghp_${'a'.repeat(36)}"${' + "x"'.repeat(150_000)}`,
    `${'x="Bearer ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n'.repeat(25_000)}`,
    `${'"abcdefghij".split("").reverse().join("") '.repeat(25_000)}`,
    `${'the pw is Ab1cd the pass is '.repeat(35_000)}`,
    `${'Passwort auf Passwort auf senha é senha é '.repeat(25_000)}`,
    `${'jdbc:x:y,u,'.repeat(90_000)}`,
    `${">>> creds\nCreds('a', 'bbbbbbbb'\n".repeat(30_000)}`,
    `${'using DB_PASSWORD with DB_PASSWORD '.repeat(30_000)}`,
  `${'bob: password? '.repeat(65_000)}`,
  'bob: the password?\n'.repeat(50_000),
  '?'.repeat(1_000_000),
  // Pass 74's: quote joins, ClickHouse engines unclosed, tab rows, head headers, PowerShell prompts.
  `PGPASSWORD='abcdefgh'${"\\''x".repeat(200_000)}`,
  `${"MySQL('h', 'd', 't', 'u', ".repeat(40_000)}`,
  `${'a\tDbPassword\tb\t'.repeat(60_000)}`,
  '==> /run/secrets/x <==\n'.repeat(40_000),
  `==> /run/secrets/db_password <==\n${'Qm7xT2vK9pL4\n'.repeat(80_000)}`,
  `${'PS C:\\> x | ConvertFrom-SecureString -AsPlainText\n'.repeat(20_000)}`,
  // Pass 78's: byte-string header pairs unclosed, WebSocket subprotocols with no token, cookie headers of names only.
  `${"[(b'x-api-key', b'".repeat(60_000)}`,
  `Sec-WebSocket-Protocol: ${'auth., '.repeat(150_000)}`,
  `${'Set-Cookie: a=; '.repeat(60_000)}`,
  `${'HTTP_AUTHORIZATION = Token '.repeat(35_000)}`,
  // Session 18's: a redirect parameter encoded twice, binary frames in hex, Twilio SIDs with no token, Redis ACL words,
  // strace's Postgres password messages unclosed.
  `${'%253D%2522'.repeat(100_000)}`,
  `${'81a5746f6b656e'.repeat(70_000)}`,
  `${'00414243444546474849505152535455565758'.repeat(26_000)}`,
  `${"('AC0123456789abcdef0123456789abcdef', ".repeat(25_000)}`,
  `${'AC'.repeat(500_000)}`,
  `user default on ${'>a >'.repeat(250_000)}`,
  `${'ACL SETUSER x >'.repeat(65_000)}`,
  `${'"p\\0\\0\\0\\25'.repeat(60_000)}`,
  // Gzip blobs in base64 (H4sI…) that are no gzip, one that inflates to 10 MB of names; transcripts' prompt marks.
  `${'H4sI '.repeat(200_000)}`,
  `H4sI${'A'.repeat(1_000_000)}`,
  gzipSync('password=x '.repeat(1_000_000)).toString('base64'),
  `${'$ printenv DB_PASSWORD\n'.repeat(45_000)}`,
  `${'45% '.repeat(250_000)}`,
  `$ printenv DB_PASSWORD\n${'Qm7xT2vK9pL4wZ8n\n'.repeat(60_000)}`,
  `${'bob@box:~/app$ op read x\n'.repeat(40_000)}`,
  // Pass 81's: Java's hex dump rows, indented and not; AUTH in a repr with no end; Prisma's qualified key columns.
  `${'  0000: 41 42 43 44 45 46 47 48   49 4A 4B 4C 4D 4E 4F 50  ABCDEFGHIJKLMNOP\n'.repeat(13_000)}`,
  `0000: ${'41 '.repeat(330_000)}`,
  `${"send: 'AUTH PLAIN ".repeat(55_000)}`,
  `${'"t"."key" = $1 '.repeat(60_000)}Params: ["a"]`,
  // Pass 84's: literals echoed into base64 -d, a wrapped table value's lines, prompts glued to output.
  `${`echo ${'A'.repeat(4000)} `.repeat(240)}| base64 -d`,
  `${"echo 'QUJD' | base64 -d ".repeat(40_000)}`,
  `API_TOKEN      Qm7xT2vK9pL4wZ8n\n${'               x\n'.repeat(60_000)}`,
  `${'API_TOKEN      Qm7xT2vK9pL4wZ8n\n'.repeat(30_000)}`,
  `${'a@b:'.repeat(100)}$ ${'xa@b:~$ ls '.repeat(90_000)}`,
  `${'dev@b:~$ ls\n'.repeat(20)}${'xdev@b:~$ ls '.repeat(80_000)}`,
  // Closing measure 83's: END lines with no BEGIN under base64 lines, az's key rows.
  `${'QUJDREVGR0hJSktMTU5PUA==\n-----END PRIVATE KEY-----\n'.repeat(20_000)}`,
  `${'key1 FULL '.repeat(100_000)}`,
  // PEM-wide lines with no armour: random base64 a megabyte long, and lines of one letter.
  `${randomBytes(760_000).toString('base64').match(/.{1,64}/g)!.join('\n')}\n`,
  `${'Ab'.repeat(32).concat('\n').repeat(15_000)}`,
  // Passes 88-90's: print_r's value on a megabyte line, inline objects of `key` fields, values escaped three deep, R's and EDN's
  // names with nothing below, a signing tool's options with no /p, espota's --auth, C macros, manifest entries.
  `${'[password] => x '.repeat(65_000)}`,
  `${'{ key = 1, password = 2 } '.repeat(40_000)}`,
  `{ ${'key = 1, '.repeat(110_000)}`,
  `${'\\\\\\"password\\\\\\":\\\\\\"abc '.repeat(30_000)}`,
  `${'$api_key\n'.repeat(110_000)}`,
  `${':secret-key\n'.repeat(90_000)}`,
  `${'signtool sign /f a '.repeat(55_000)}`,
  `${'--auth=abc1-x '.repeat(70_000)}`,
  `${'#define SECRET_PASS\n'.repeat(50_000)}`,
  `${'<meta-data android:name="a.b.c.API_KEY" android:value="x'.repeat(18_000)}`,
  // Pass 91's: EF Core's lists over their statements, SQL keys of a keys table, Authorization pairs over lines, `key` fields
  // under an `api:` section and a list of tokens, pairs with fields between.
  `${"[Parameters=[@p0='x']\n  INSERT INTO t (token) VALUES (@p0)\n".repeat(20_000)}`,
  `FROM api_keys ${"key = 'a' ".repeat(100_000)}`,
  `${'[\n"Authorization",\n"Token x",\n'.repeat(35_000)}`,
  `api:\n${'  key: 1\n'.repeat(110_000)}`,
  `tokens:\n${'- key: 1\n'.repeat(110_000)}`,
  `${'{"key":"api_key","a":"b","c":"d",'.repeat(30_000)}`,
  // Pass 93's: net-snmp's and FreeIPA's options read back from each (bounded), WireGuard's dump, type 7 words, sasl_passwd lines.
  `snmpwalk ${'-c x '.repeat(200_000)}`,
  `ipa-server-install ${'-p x '.repeat(200_000)}`,
  `${`wg0\t${'A'.repeat(43)}=\t${'A'.repeat(43)}=\t51820\toff\n`.repeat(10_000)}`,
  `${'password 7 0A1B '.repeat(60_000)}`,
  `${'[h]:25 u:pass\n'.repeat(70_000)}`,
  // Pass 95's (session 20): UTF-16's NULs read as escapes, quoted-printable decoded once (`=3D3D…` shrinks by one `=` a decoding),
  // soft breaks chained, xxd -p's blocks of hex lines, uuencode's bodies and headers, a size note, namespaced tags left open.
  `${'p\0a\0s\0s\0w\0o\0r\0d\0=\0'.repeat(55_000)}`,
  `key=${'3D'.repeat(450_000)}`,
  `${'=3D'.repeat(300_000)}`,
  `${'token=3Dabc=\n'.repeat(75_000)}`,
  `${`${'41'.repeat(30)}\n`.repeat(16_000)}`,
  `${`${'74'.repeat(30)}\n${'3d'.repeat(29)}\n`.repeat(8_000)}`,
  `begin 644 x\n${`M${'1'.repeat(60)}\n`.repeat(16_000)}`,
  `${'begin 644 x\n!\n'.repeat(60_000)}`,
  `${'password (32 bytes): '.repeat(50_000)}`,
  `${'<a:password x="y" '.repeat(55_000)}`,
  `${'CREDENTIALS\tASIAAAAAAAAAAAAAAAAA\t'.repeat(30_000)}`,
  // Session 27's: borg's repokey lines (a megabyte line after its header, headers on every line), PowerShell's ConvertTo-SecureString
  // switches, an option ending in `auth`, a setting's `name value` line, az's device keys, Proxmox tickets, Uptime Kuma's push path.
  `BORG_KEY ${'ab'.repeat(32)}\n${'A'.repeat(1_000_000)}`,
  `${`BORG_KEY ${'ab'.repeat(32)}\nQUJD\n`.repeat(12_000)}`,
  `${'ConvertTo-SecureString -AsPlainText -Force '.repeat(25_000)}`,
  `${'"x" | ConvertTo-SecureString '.repeat(35_000)}`,
  `--a-auth ${'1'.repeat(1_000_000)}`,
  `${'--x-auth --y-auth '.repeat(60_000)}`,
  `${'a_'.repeat(400_000)}password x`,
  `${'remote_password '.repeat(60_000)}`,
  `${' --pk AAAA'.repeat(100_000)}`,
  `${'PVE:root@pam:ABCDEF01::'.repeat(45_000)}`,
  `${'/api/push/'.repeat(100_000)}`,
  `${'["redis-cli", "-x", '.repeat(50_000)}`,
  `["redis-cli", ${'"-h", '.repeat(150_000)}`,
  `beeline ${';a'.repeat(400_000)}`,
  `${'--account-key --storage-key '.repeat(35_000)}`,
  // Session 20's: every line a continued command (each read over the lines below it, eight at most), a mail-address URL user.
  `${'ipa-server-install -U \\\n'.repeat(45_000)}`,
  `${'--db_pwd \\\n'.repeat(90_000)}`,
  `${'smtp://a@b'.repeat(100_000)}`,
  `${'0000020   a  \\n\n'.repeat(60_000)}`,
  // Pass 97's: asciinema events (one stream per block, an unclosed string), cursor moves read as breaks, expect's sends.
  `${'[1.0, "o", "a\\u001b[5D"]\n'.repeat(40_000)}`,
  `[1.0, "o", "${'\\u0041'.repeat(170_000)}`,
  `${'x\x1b[3Dpassword: \x1b[2;5H'.repeat(40_000)}`,
  `${'send: sending "Aa1Aa1Aa1'.repeat(50_000)}`,
  // Pass 100's: loguru's value lines, each read up over a bounded number of mark lines.
  `x = f(secret)\n${"│ └ 'Aa1Aa1Aa1Aa1'\n".repeat(60_000)}`,
  `${"└ 'Aa1Aa1Aa1Aa1'\n".repeat(60_000)}`,
  // Pass 101's: HCL random_password blocks never closed, each read up to 4 KB for its result.
  `${'resource "random_password" '.repeat(40_000)}`,
  `${'resource "random_password" "x" {\n  id = "none"\n'.repeat(25_000)}`,
  // Session 21's: Fly's scheme with tokens joined by commas, codecov's and snyk's options, CI runners' prefixed xtrace lines.
  `FlyV1 ${'fm2_Aa1Aa1Aa1Aa1Aa1Aa1,'.repeat(40_000)}`,
  `${'FlyV1 fm2_'.repeat(100_000)}`,
  `codecov${' -f x'.repeat(200_000)}`,
  `snyk auth${' --org=a'.repeat(120_000)}`,
  `${'| + vault kv get -field=password secret/db\n| Qm7xT2vK9pL4wZ8n\n'.repeat(16_000)}`,
  // A name cell then a value cell (`column -t` of a CSV of keys): names without values, and underscores without an end.
  `${'X_TOKEN  '.repeat(110_000)}`,
  `  ${'A_B_C_D_E_F_G_H_'.repeat(60_000)}`,
  `${'  A_TOKEN  Aa1'.repeat(70_000)}`,
  // Failed assertions: code lines with no left line, where lines with no end.
  `${'     code:  assert a == b\n'.repeat(40_000)}`,
  `     code:  assert ${'x['.repeat(200_000)} == b\n     left:  "abc"`,
  `${"E   +  where 'Aa1' = ".repeat(50_000)}`,
  // Pass 104's: PDO's trace arguments unclosed, calls to jwt with no key, clear-text attributes, SmallRye's lines with no value.
  `${'"class":"PDO","args":["'.repeat(50_000)}`,
  `${"PDO->__construct('a', 'b', '".repeat(35_000)}`,
  `jwt.encode(${'a, '.repeat(300_000)}`,
  `${'jwt.sign(x, '.repeat(80_000)}`,
  `${'clear-text="'.repeat(80_000)}`,
  `${'The config a.password was loaded from x '.repeat(25_000)}`,
  `${'eyJhbGciOiJIUzI1.abcdef.'.repeat(40_000)}`,
  // Pass 106's: network gear's lines, each a word short of its value.
  `${' v3 auth sha x priv'.repeat(60_000)}`,
  `${'set password ENC '.repeat(60_000)}`,
  `${'; Password1 '.repeat(80_000)}`,
  `${'\n key\n key  '.repeat(80_000)}`,
  // Pass 107's: escaped URLs on every line (each line's search for the marks once), spaced-out lines under a spaced name, od's
  // rows without offsets, indented lines that start like one, octal escapes under a comment, lists of characters with no name.
  `${'{"u":"https:\\/\\/a.example\\/x"}\\n\n'.repeat(35_000)}`,
  `${'a\\nb\\nc\n'.repeat(100_000)}`,
  `${'T O K E N = a b c d e f g h i j k l m n o p q r s t u v w x y z\n'.repeat(16_000)}`,
  `API_SECRET bytes:\n${' 73 46 73 74 65 32 4a 7a 61 36 65 75 50 59 73 47\n'.repeat(20_000)}`,
  `${'\n 73 46 73 74 x'.repeat(80_000)}`,
  `${"printf '\\146\\107\\067\\115\\157\\104\\107\\170\\152\\113\\132\\103\\141\\125\\106\\063' # DB password\n".repeat(10_000)}`,
  `>>> list(os.environ["NPM_TOKEN"])\n[${"'a', ".repeat(170_000)}'b']`,
  `token\n[${'104,104,80,49,'.repeat(70_000)}1]`,
  // Pass 106's left: racadm's sets with no value, XML string elements of many attributes with no name, two-word titles.
  `${'racadm set iDRAC.Users.3.Password '.repeat(30_000)}`,
  `${'<string a="b" c="d" e="f" g="h" '.repeat(30_000)}`,
  `${'| Name | Deployment Key '.repeat(2_000)}|\n|---|---|\n${'| a | b |\n'.repeat(50_000)}`,
  `${'| Deployment Key |\n|---|\n'.repeat(50_000)}`,
  `${'UNITY_SERIAL '.repeat(80_000)}`,
  `${'full-tokenid │ value │ '.repeat(50_000)}`,
  `${'full-tokenid\n'.repeat(80_000)}`,
  // Pass 108's: rows shaped like a .pgpass made columns, SAS signatures cut short, format comments over rows of comments, a key's
  // lines joined by blanks before an END each, compose lines around a key.
  `${'db  5432  app  user  \n*  *  *  u  \n'.repeat(40_000)}`,
  `${'sig=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA%2\n'.repeat(20_000)}`,
  `${'# user:password\na:b\n# user:password\n'.repeat(40_000)}`,
  `${'Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1A '.repeat(8_000)}-----END PRIVATE KEY----- x -----END PRIVATE KEY-----`,
  `api-1    | -----BEGIN PRIVATE KEY-----\n${'worker-1 | x\napi-1    | Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1A\n'.repeat(10_000)}`,
  // Pass 110's: short hex lines under a name, od -c rows with no offset and no line break, JSON's lists of characters under a
  // name and with none, Azure host keys' names with no value, upper-cased netrc words, sonar.login with no token.
  `${'client_secret:\n4b713758702b4c6d5a61217254357637610a\n'.repeat(25_000)}`,
  `Secret:\n${'   K   q   7   X   p   #   L   m   Z   a   !   r   T   5   v   7\n'.repeat(15_000)}   a`,
  `${'\n   a   b   c   d x'.repeat(60_000)}`,
  `api_key chars: [${'"a", '.repeat(200_000)}"b"]`,
  `${'["a", ["a", '.repeat(80_000)}`,
  `${'"name": "default", "value": "'.repeat(30_000)}`,
  `${'MACHINE a PASSWORD '.repeat(50_000)}`,
  `${'-Dsonar.login= '.repeat(60_000)}`,
  // Passes 112 and 113's: two-word labels with no value, compact typed credentials cut short, CONCEALED rows, list names of an
  // encoding with open arrays, device codes with no value.
  `${'API Key  Secret ID  one-time password seed:  '.repeat(25_000)}`,
  `${'"type":"password","a":"b","value":"'.repeat(30_000)}`,
  `${'\tCONCEALED\t'.repeat(100_000)}`,
  `${'{"type": "password",\n'.repeat(50_000)}`,
  `${'"unseal_keys_b64": ["a", '.repeat(40_000)}`,
  `${'"device_code": '.repeat(60_000)}`,
  // Pass 114's: quoted pairs cut short, db.auth and etcdctl with no value.
  `${'"a" "b1'.repeat(120_000)}`,
  `${'"a" "b1bbbbbbbbbb\n'.repeat(60_000)}`,
  `${'db.auth("a", '.repeat(70_000)}`,
  `${'etcdctl --user '.repeat(60_000)}`,
  // Pass 116's: SMTP prompts with no answer, grep's context numbers, padded directives with no value, heartbeat URLs cut short.
  `${'334 UGFzc3dvcmQ6\n'.repeat(60_000)}`,
  `${'12-token 12-token = \n'.repeat(50_000)}`,
  `    apikey  ${'    apikey  '.repeat(80_000)}`,
  `${'betterstack.com/api/v1/heartbeat/'.repeat(30_000)}`,
  `${'check_mysql -p '.repeat(60_000)}`,
  // Pass 118's: lines of braces around base64 cut short, composer entries with no object.
  `${'{AAAAAAAAAAAAAAAAAAAAAAAAAAAA=}x\n'.repeat(30_000)}`,
  `${'"bearer","value":'.repeat(60_000)}`,
  // Pass 119's: names and quotes as HTML references, `\\x22` and `\\u0070` (each line decoded and read once), MessagePack headers.
  `${'&#34;password&#34;:&#34;'.repeat(45_000)}`,
  `${'a\\x22b\n'.repeat(150_000)}`,
  `${'{\\u0070assword:\\x22'.repeat(50_000)}`,
  `${'\\xa8password\\xd9'.repeat(60_000)}`,
  `${'\\xa8password\\xb0abc'.repeat(50_000)}`,
  // Pass 120's and the CSV titles of words: eyaml openings with no close, agent.jar's option, titles over rows, memcached headers.
  `${'DEC(1)::PKCS7['.repeat(70_000)}`,
  `${'a -secret '.repeat(100_000)}`,
  `${'User name,Smtp password,Secret access key\n'.repeat(25_000)}`,
  `${'IAM user name  Smtp password\nses-smtp-user  Xk29!pqLmZ7rTq\n'.repeat(15_000)}`,
  `${'VALUE api_token 0 40\r\n'.repeat(45_000)}`,
  `${'add api_token 0 0 4000\n'.repeat(40_000)}`,
  // Runs of key:secret pairs chained by `:`, and identifiers joined so (the class-change check on each match).
  `${'GI6KYqkkIHC0hRbUjY5H:'.repeat(50_000)}`,
  `${'a: HTTPServerConfigLoader2:ApplicationContextInitializer3Bean\n'.repeat(15_000)}`,
  // One megabyte line of a name's word joined by `_` (each hit's byte test read the run of name characters to its end: session 24's
  // `_sk` made `sk_live_…` such a line, 438 s; `token_…` was one before it).
  `${'token_'.repeat(170_000)}`,
  `${'jwt_'.repeat(250_000)}`,
  `${'access_token_'.repeat(80_000)}`,
  // Pass 122's: pydantic's input values (one look a line), Buffers under names, REPL lists.
  `${'x\n  a [type=t, input_value='.repeat(40_000)}`,
  `hmac_secret\n  ${'[type=t, input_value='.repeat(50_000)}`,
  `${'secret: <Buffer '.repeat(60_000)}`,
  `${">>> api_tokens\n['abcd', ".repeat(40_000)}`,
  `${'update sessions set '.repeat(50_000)}`,
  // Pass 124's: device configuration keywords with no value, secretsdump's fields, mimikatz' labels, NX-OS keys.
  `${'enable password '.repeat(65_000)}`,
  `${'username a privilege 1 password 7 '.repeat(30_000)}`,
  `${'key-string 7 '.repeat(80_000)}`,
  `${'a:1:aad3b435b51404eeaad3b435b51404ee:'.repeat(28_000)}:::`,
  `${'auth md5 0xaf7018f4b0cc879453327056cdf0ade9 '.repeat(22_000)}localizedkey`,
  `${'pre-shared-key address 1.2.3.4 key '.repeat(30_000)}`,
  `${'"user.login"'.repeat(80_000)}`,
  `${'"user.login"\n'.repeat(70_000)}`,
  `${'additional_endpoints'.repeat(50_000)}`,
  `${'additional_endpoints 6e0ae7b70c4fce5bd776e5e5cd9c5098 '.repeat(18_000)}`,
  // Closing measure 126's: session headers with no value, key lines numbered by awk, a key folded with blank lines.
  `${'X-Metabase-Session: '.repeat(50_000)}`,
  `-----BEGIN PRIVATE KEY-----\n${'  12  Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1A\n'.repeat(14_000)}`,
  `key: '-----BEGIN PRIVATE KEY-----\n${'\n  Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1A\n'.repeat(14_000)}`,
  // Users files under head's headers, each line read once.
  `${'==> /etc/app/users <==\na:Zq8rT2vLp4Wm6x\n'.repeat(25_000)}`,
  `==> /etc/app/users <==\n${'admin:Zq8rT2vLp4Wm6x\n'.repeat(50_000)}`,
  // A URL's password then runs of `@` (the password may end in up to three).
  `${'x://a:b@@@@@@@@'.repeat(70_000)}`,
  // A private key's lone body lines read in a text where one was found: a megabyte of such lines, certificates' armour between.
  `-----BEGIN PRIVATE KEY-----\n${'Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1A\n'.repeat(15_000)}`,
  `-----BEGIN PRIVATE KEY-----\n${'-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\nAa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1A\n'.repeat(8_000)}`,
  // Session 25's: pipelines into --password-stdin traced by `set -x` (a megabyte line of consumers; consumers and echoes in turn),
  // echoes into secret paths, key lines quoted by jq, masks read again, pairs of random runs around colons.
  `+ ${'docker login --password-stdin '.repeat(35_000)}`,
  `${'+ docker login --password-stdin\n+ echo Aa1Aa1Aa1Aa1\n'.repeat(20_000)}`,
  `${'+ echo x --password-stdin\n'.repeat(40_000)}${'a'.repeat(1_000_000)}`,
  `${'echo Aa1Aa1 > /run/secrets/'.repeat(40_000)}`,
  `${"echo 'a > /run/secrets/token ".repeat(35_000)}`,
  `  "-----BEGIN PRIVATE KEY-----",\n${'  "Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1Aa1A",\n'.repeat(14_000)}`,
  `${'password=[masked: password] '.repeat(35_000)}`,
  `${'Cookie: a=[masked: cookie]; '.repeat(35_000)}`,
  `${'Aa1Aa1Aa1Aa1Aa1Aa1Aa1:'.repeat(45_000)}`,
  `${'Aa1Aa1Aa1Aa1Aa1A:Bb2Bb2Bb2Bb2Bb2Bb2Bb2Bb2B:'.repeat(22_000)}`,
  `${'[*] DefaultPassword \n'.repeat(50_000)}`,
  `[*] DefaultPassword \n${'a:'.repeat(500_000)}`,
  // Pass 131's: rows under a format comment (their field counted in each), a property's value on a line of its own.
  `${'# hostname:port:database:username:password\nh:1:d:u:p\n'.repeat(25_000)}`,
  `# user:password\n${'a:'.repeat(500_000)}`,
  `${'<name>fs.azure.account.key.a</name>\n<value>\n'.repeat(25_000)}`,
  // Closing measure 130's: a command line one argument a line (the tool's name alone, then up to 16 lines each).
  `${'sshpass\n'.repeat(120_000)}`,
  `${'mysql\n-h\n'.repeat(80_000)}`,
  `sshpass\n${'-'.repeat(1_000_000)}`,
  // Session 26's: an object in a JSON string, its first field a secret's name, nested a megabyte deep.
  `${'\\"token\\":{'.repeat(90_000)}`,
  // Session 26's: a Secret Manager payload under its version's name, an SSM path before a TAB, a quoted Cookie header.
  `name: projects/1/secrets/a/versions/1\n${'payload: data: Aa1'.repeat(55_000)}`,
  `${'/secrets/a/versions/1 "payload": {"data": "'.repeat(25_000)}`,
  `${'/a'.repeat(500_000)}/db_password\tQm7x`,
  `${'/db_password\t'.repeat(80_000)}`,
  `Cookie: '${'a=https%3A%2F%2Fb; '.repeat(50_000)}'`,
  `${'"SK0123456789abcdef0123456789abcdef", '.repeat(25_000)}`,
  `${'<master>{'.repeat(100_000)}`,
  `OTEL_EXPORTER_OTLP_HEADERS=${'a=b,'.repeat(250_000)}`,
  `OTEL_EXPORTER_OTLP_HEADERS=${'x-team=a'.repeat(120_000)}`,
  `${'(token=abc) '.repeat(80_000)}`,
  `${'(a token=abc) token=Qm7x) '.repeat(40_000)}`,
  `-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----\n${'-----BEGIN CERTIFICATE-----\n'.repeat(35_000)}`,
  `Stripe-Signature: ${'t=1,'.repeat(250_000)}`,
  // Session 26's later ones: a grown line number, REPL maps of JWK members, a cassette's cookies, prose naming a secret.
  `${'9-  MIIEpAIBAAKCAQEAqNRddV2Ui/TZx+v/81rBs2Fe1lvIS2ge7zv00YGN+uI++IF7\n10-  '.repeat(12_000)}`,
  `'kty' ${'{'.repeat(1_000_000)}`,
  `${"{'kty': 'd': 'a', ".repeat(60_000)}`,
  `Set-Cookie:\n${'- a=Qm7xT2vK9pL4wZ8n; path=/\n'.repeat(35_000)}`,
  `${'Set-Cookie:\n- '.repeat(80_000)}`,
  `${'with secret '.repeat(90_000)}`,
  `${'hc-ping.com/'.repeat(90_000)}`,
  `${'ServerClient("'.repeat(80_000)}`,
  `${'urn:oauth:'.repeat(100_000)}`,
  `${'[hmac]\n'.repeat(140_000)}`,
  `[hmac]\n${'a = Qm7xT2vK9pL4wZ8n\n'.repeat(50_000)}`,
  `[hmac]\n${'a'.repeat(1_000_000)}`,
  `${'passtype\n'.repeat(110_000)}`,
  `passtype\n${'K 8\npassword\nV 1\n'.repeat(60_000)}`,
  `${".auth('a', 'b', ".repeat(60_000)}`,
  `${'/sess_'.repeat(160_000)}`,
  `${'ncftpput -p '.repeat(80_000)}`,
  `>> "X-Api-Key: ${'a['.repeat(400_000)}`,
  `Authorization: Bearer ${'a[\\r]'.repeat(150_000)}`,
  // Session 28's: a key below its label (labels on every line, blank lines between), a label's words a megabyte long, `sid`s and
  // `_encryption` names shaped-value tests on every line.
  `${'Your API key:\n\n'.repeat(70_000)}`,
  `${'a '.repeat(500_000)}API key:\n\nQm7xT2vK9pL4wZ8nQm7xT2vK9pL4wZ8n\n`,
  `${'sid: S-1-5-21 csrf: '.repeat(50_000)}`,
  `${'x_encryption: "Qm7xT2vK9pL4wZ8nQm7x" '.repeat(30_000)}`,
  `token:\n${'Qm7x'.repeat(250_000)}`,
  `${'slack://'.repeat(120_000)}`,
  `slack://${'aaaaaaaaaaaaaaa1/'.repeat(60_000)}`,
  `discord://${'a/'.repeat(500_000)}`,
  `${'PS /home> $secret\nQm7xT2vK9pL4\n'.repeat(40_000)}`,
  `PS /home> ${'> '.repeat(500_000)}`,
  `PS C:\\${'a> '.repeat(300_000)}`,
  // Session 30's: module parameters, coturn users, signing key lines, SDES keys, Twilio SIDs over lines, double-base64 gzip heads.
  `${'modparam("a", "secret", "'.repeat(45_000)}`,
  `modparam("a", "secret", "${'a'.repeat(1_000_000)}`,
  `${'user=a:'.repeat(150_000)}`,
  `user=a:${'b'.repeat(1_000_000)}`,
  `${'ed25519 a '.repeat(100_000)}`,
  `${'a=crypto:1 X inline:'.repeat(50_000)}`,
  `${'SK0123456789abcdef0123456789abcdef\n'.repeat(28_000)}`,
  `${'AC0123456789abcdef0123456789abcdef\n0123456789abcdef0123456789abcdef\n'.repeat(15_000)}`,
  `${'SDRzS '.repeat(170_000)}`,
  `SDRzS${'A'.repeat(1_000_000)}`,
  `${'ha1 '.repeat(250_000)}`,
  // Session 31's: wrapped blobs (76-column lines of base64 after each head), grep prefixes before coturn and signing key lines,
  // bordered bar headers on every line and over a megabyte of rows.
  `H4sI${'A'.repeat(72)}\n${`${'A'.repeat(76)}\n`.repeat(13_000)}`,
  `${`SDRzS${'A'.repeat(71)}\n`.repeat(13_000)}`,
  `${`${'a'.repeat(250)}:user=a:`.repeat(3_800)}`,
  `${`${'a'.repeat(250)}:7:ed25519 a `.repeat(3_800)}`,
  `${'| id | token |\n'.repeat(70_000)}`,
  `| id | token |\n${'| 1 | Qm7xT2vK9pL4wZ8n |\n'.repeat(45_000)}`,
  // Pass 162's: content keys' options, RTMP URLs with paths never ending, IVS heads, XML names over grep's prefixes, hex keys
  // beside algorithms on every line.
  `${'--key 1:'.repeat(120_000)}`,
  `${'key_id=0123456789abcdef0123456789abcdef:key='.repeat(22_000)}`,
  `${'rtmp://a/'.repeat(110_000)}`,
  `rtmp://a/${'b/'.repeat(500_000)}`,
  `rtmp://a/b/${'c'.repeat(1_000_000)}`,
  `${'sk_us-west-2_'.repeat(75_000)}`,
  `${'<Name>secret</Name>\n1-'.repeat(45_000)}`,
  `x {\n${"  key: '0123456789abcdef0123456789abcdef',\n  algorithm: 'sha256',\n".repeat(12_000)}`,
  // Pass 161's: RPC endpoints, inline etherscan keys, graph auth, signer keys, mnemonics never ending, enode URLs.
  `${'a.quiknode.pro/'.repeat(65_000)}`,
  `${'rpc.ankr.com/eth/'.repeat(60_000)}`,
  `${'{ key = "'.repeat(110_000)}`,
  `${'graph auth --studio '.repeat(50_000)}`,
  `${'signer key 0x'.repeat(75_000)}`,
  `mnemonic=${'abcd '.repeat(200_000)}`,
  `${'mnemonic: test '.repeat(65_000)}`,
  `${'enode://a:b@'.repeat(80_000)}`,
  `{\n  "kdfparams": {\n${'    "salt": "0123456789abcdef0123456789abcdef",\n'.repeat(20_000)}`,
  `${'Signature: '.repeat(90_000)}`,
  // Session 32's (passes 165, 166): traced AUTH LOGIN writes on one megabyte line and on every line, mismatch logs' schemes never
  // closing, static: maps, set-header lines, private numbers' labels alone on every line, Mailgun's names on every line.
  `${'sendto(3, "AUTH LOGIN\\r\\n", 12) = 12 '.repeat(25_000)}`,
  `${'write(4, "AUTH LOGIN dXNlcg==\\r\\n", 20) = 20\nwrite(4, "a\\r\\n"\n'.repeat(12_000)}`,
  `${'SHA512-CRYPT('.repeat(75_000)}) != '`,
  `${'AB(CD'.repeat(200_000)}) != '`,
  `${'a_maps = static:'.repeat(60_000)}`,
  `a_maps = static:b:${'c'.repeat(1_000_000)}`,
  `${'http-request set-header X-Api-Key '.repeat(30_000)}`,
  `${'request_header X-Api-Key {'.repeat(40_000)}`,
  `${"* Server auth using Basic with user '".repeat(25_000)}`,
  // The own attack's: lists of words on one line and quoted, private numbers' labels alone, CONT lines, sendmsg headers.
  `[${"'abandon', 'ability', ".repeat(50_000)}]`,
  `${'"zoo", '.repeat(150_000)}`,
  `${'coefficient:\nexponent1:\n'.repeat(40_000)}`,
  `${'client in: CONT\t3\tUGFzc3dvcmQ6\n'.repeat(30_000)}`,
  `${'sendmsg(3, {msg_name=NULL, msg_iov=[{iov_base="AUTH LOGIN\\r\\n"\n'.repeat(15_000)}`,
  // Session 33's: phrases' labels and timestamps on every line and on one megabyte line, shouted words, tunnel tokens' fields
  // never closing, device ids, sections above a key under grep's numbers.
  `${'Word #1: abandon\n'.repeat(60_000)}`,
  `${'Word #1 '.repeat(130_000)}`,
  `${'2024-05-02T10:00:00Z '.repeat(50_000)}abandon`,
  `${'2024-05-02T10:00:00Z abandon ability\n'.repeat(30_000)}`,
  `${'ABANDON ABILITY '.repeat(65_000)}`,
  `${'#1 #2 '.repeat(170_000)}`,
  `${'{"a":"0123456789abcdef0123456789abcdef","t":"8df7a1fa-692b-4634-9074-9d485804f7e9","s":'.repeat(11_000)}`,
  `${'"s":'.repeat(250_000)}`,
  `${'"device_id": "'.repeat(70_000)}`,
  `"device_id": "${'aB3'.repeat(330_000)}"`,
  `${'12:api:\n13-  encryption:\n14-    key: x\n'.repeat(25_000)}`,
  `${'"card": {'.repeat(110_000)}`,
  `"card": {${'"a": "b", '.repeat(100_000)}`,
  `${'card_number: 4539 '.repeat(55_000)}`,
  `${'card[number]=4539778481545633&'.repeat(30_000)}`,
  `${'card card card '.repeat(70_000)}`,
  `${'DE002 (PAN): 4539 '.repeat(55_000)}`,
  `${'ccnum=cc_number='.repeat(65_000)}`,
  `${"{'a': '0123456789abcdef0123456789abcdef', 't': '8df7a1fa-692b-4634-9074-9d485804f7e9', 's':".repeat(11_000)}`,
  `${'"did": "'.repeat(120_000)}`,
  `${'Recovery phrase word 1 '.repeat(45_000)}`,
  `${'a.yaml-1-api:\na.yaml-2-  x:\na.yaml-3-    key: y\n'.repeat(20_000)}`,
  `* Server auth using Basic with user '${'a1B'.repeat(330_000)}`,
  `${'secret_a_'.repeat(110_000)}`,
  `${'privateExponent:\n'.repeat(60_000)}`,
  `privateExponent:\n${'    00:11:22:33:44:55:66:77:88:99:aa:bb:cc:dd:ee:\n'.repeat(20_000)}`,
  `${'{"token": "0123456789abcdef0123456789abcdef0123456789", "timestamp": "1714641224", "signature": "x"}\n'.repeat(10_000)}`,
  `${'AUTH\t1\tPLAIN\tresp='.repeat(50_000)}`,
  `[api]\n${'key=Qm7xT2vK9pL4wZ8n\n'.repeat(50_000)}`,
  // Bare BIP-39 phrases: a megabyte of list words on one line, list words a line each (runs far past a phrase's 24 lines),
  // rows of a grid never ending, numbers alone.
  `${'abandon ability '.repeat(65_000)}`,
  `${'zoo\nwhale\n'.repeat(100_000)}`,
  `${' 1. tattoo   2. tag   3. whale\n'.repeat(35_000)}`,
  `${'1. 2. 3. 4. 5. 6. 7. 8. 9. 10. 11. 12.\n'.repeat(25_000)}`,
  // Lines of 24 list words each (every one a phrase: 6,000 findings), of 24 lower-case words not in the list, grid rows padded.
  `${'ridge orbit canal velvet outside garment tattoo whale zoo abandon ability able about above absent absorb abstract absurd abuse access accident account accuse achieve\n'.repeat(6_000)}`,
  `${'abcd efgh ijkl mnop qrst uvwx abcd efgh ijkl mnop qrst uvwx abcd efgh ijkl mnop qrst uvwx abcd efgh ijkl mnop qrst uvwx\n'.repeat(8_500)}`,
  `${' 1) tattoo          2) tag           3) whale           \n'.repeat(18_000)}`,
  // Session 29's: light tables (headers on every line, a megabyte header, rows of bars), particle's label with nothing below.
  `${'ID | Token | Expiration\n'.repeat(40_000)}`,
  `ID | Token | Reusable\n${'1 | Qm7xT2vK9pL4wZ8n | x\n'.repeat(45_000)}`,
  `ID | Key | Reusable\n1 | ${'| '.repeat(500_000)}`,
  `${'Id | '.repeat(200_000)}Token\n1 | Qm7xT2vK9pL4wZ8n\n`,
  `${'New access token expires on x\n'.repeat(35_000)}`,
  `New access token expires on ${'x'.repeat(1_000_000)}\n    Qm7xT2vK9pL4wZ8nQm7x\n`,
  // Wide name / value tables (rows with no header above, each walking up; a header over a megabyte of rows), Ruby's cookies.
  `${'a|client_secret|b\n'.repeat(55_000)}`,
  `provider|name|value\n${'a|client_secret|Qm7xT2vK9pL4wZ8n\n'.repeat(30_000)}`,
  `${'name|value|x|'.repeat(80_000)}\na|password|b\n`,
  `${'- !ruby/object:HTTP::Cookie\n'.repeat(35_000)}`,
  `- !ruby/object:HTTP::Cookie\n  value: "${'a'.repeat(1_000_000)}`,
  `- !ruby/object:HTTP::Cookie\n${'  name: x\n'.repeat(100_000)}`,
  // Passes 148's and 149's: command-line and file readers with their words on every line, values never ending, siblings' walks.
  `${' -serial E3-'.repeat(90_000)}`,
  `${'--database.address a:'.repeat(50_000)}`,
  `--database.address a:${'b'.repeat(1_000_000)}`,
  `${'backtrace.io/post/a/'.repeat(50_000)}`,
  `${'<SecurityConfig>a:'.repeat(60_000)}`,
  `<SecurityConfig>${'a:'.repeat(500_000)}`,
  `${'+SecondaryEncryptionKeys=(Key="'.repeat(35_000)}`,
  `${'SigningPrivateExponent='.repeat(45_000)}`,
  `SigningPrivateExponent=${'A'.repeat(1_000_000)}`,
  `${'NS_TOKEN_ID='.repeat(80_000)}`,
  `${'--a.b_key --c_secret '.repeat(50_000)}`,
  `${'p4 login -p\n'.repeat(80_000)}`,
  `p4 login -p\n${'A'.repeat(1_000_000)}`,
  `${'"ConnectCache"\n{\n'.repeat(60_000)}`,
  `"ConnectCache"\n{\n${'\t"2a7c41d9"\t"'.repeat(60_000)}`,
  `{\n${'  key: 1,\n'.repeat(100_000)}}`,
  `${'  key: 1\n    key: 2\n'.repeat(50_000)}`,
  // Passes 150's and 151's: key ids, mc's aliases, decoders never closed, R's names over values, Fluent Bit's keys.
  `${'aws_access_key_id='.repeat(55_000)}`,
  `${'mc alias set a b '.repeat(60_000)}`,
  `${"secret = bytes.fromhex('".repeat(40_000)}`,
  `secret = bytes.fromhex('${'a'.repeat(1_000_000)}`,
  `${'OSF_PAT '.repeat(120_000)}\n"x"\n`,
  `${'OSF_PAT\n"Qm7xT2vK9pL4wZ8n"\n'.repeat(40_000)}`,
  `${' OSF_PAT'.repeat(120_000)}`,
  `${'    Splunk_Token Qm7xT2vK9pL4wZ8n\n'.repeat(30_000)}`,
  `    HTTP_Passwd ${'Ab%'.repeat(330_000)}`,
  // Passes 152's and 153's: Orthanc's users (an object never closed, the word on every line), od's rows, AWS ids a line each,
  // JWT heads ending lines and runs of them.
  `${'"RegisteredUsers": {'.repeat(50_000)}`,
  `"RegisteredUsers": {${'"a": "b", '.repeat(100_000)}`,
  `${'000010 35 46 66 48 43 62 31 54 4f 58 4e 48 6a 48 63 37  >5FfHCb1TOXNHjHc7<\n'.repeat(12_000)}`,
  `${'AKIA2OGYBAH6STMJ2RWX\n'.repeat(45_000)}`,
  `${'eyJ'.repeat(330_000)}`,
  `${'eyJhbGciOiJIUzI1NiJ9\n'.repeat(45_000)}`,
  `eyJhbGciOiJIUzI1NiJ9\n${'a'.repeat(1_000_000)}.`,
  // Pass 154's: NocoDB's `u=…&p=` on every word, a password never ending.
  `${'?u=a&p='.repeat(140_000)}`,
  `?u=a&p=${'b'.repeat(1_000_000)}`,
  // Pass 155's: AUTH PLAIN and setopt's option on every word, values never closed.
  `${'AUTH PLAIN '.repeat(90_000)}`,
  `AUTH PLAIN ${'A'.repeat(1_000_000)}`,
  `${'setopt(h, 10005, "a:'.repeat(50_000)}`,
  // Pass 172's: WLST's connect() by position and nmConnect() on every word, rootpw and olcRootPW:: under grep's prefixes, encrypted
  // values never closed, GSKit's -pw, a JWT's settings object of issuers, a table whose rows stand one blank apart.
  `${"connect('a', 'b', ".repeat(60_000)}`,
  `${"nmConnect('a', '".repeat(60_000)}`,
  `connect('a', '${'b'.repeat(1_000_000)}`,
  `${'a:1:rootpw x y\n'.repeat(70_000)}`,
  `${'a'.repeat(1_000_000)}:1:olcRootPW:: x`,
  `${'x:1:olcRootPW::\n'.repeat(60_000)}`,
  `${'{AES256}'.repeat(120_000)}`,
  `{AES}${'A'.repeat(1_000_000)}`,
  `${'[enc:IISCngProvider:AAAAAAAAAAAAAAAAAAAAAAAA'.repeat(25_000)}`,
  `[enc:a:${'A'.repeat(1_000_000)}`,
  `${'<secret value="'.repeat(70_000)}`,
  `${'runmqakm -pw '.repeat(80_000)}`,
  `runmqakm ${'-x '.repeat(330_000)}`,
  `${'{"Issuer": "a", "Key": "Qm7xT2vK9pL4wZ8n", '.repeat(25_000)}`,
  `{${'"Issuer": "a", '.repeat(70_000)}"Key": "Qm7xT2vK9pL4wZ8n"}`,
  `NAME               TYPE   PASSWORD\n${'a b c d e f g h i j\n'.repeat(50_000)}`,
  `NAME  PASSWORD\n${'a     Qm7xT2vK9pL4wZ8n x y\n'.repeat(40_000)}`,
  `${'deployer:Spring36!\n'.repeat(50_000)}`,
  `${'"Basic ZGVwbG95ZXI6U3ByaW5nMzYh"\n'.repeat(30_000)}`,
  // Pass 173's: unattend's <Value> under prefixes, base64 of UTF-16LE, a glued `Password` line, DPAPI's header, impacket's targets.
  `${'6:<Password>\n7-<Value>'.repeat(50_000)}`,
  `<Password>\n7-<Value>${'A'.repeat(1_000_000)}`,
  `${'cABhAHMAcwB3AG8AcgBkAA== '.repeat(40_000)}`,
  `${'cABhAHMAcwB3AG8AcgBkAA'.repeat(45_000)}==`,
  `${'a1!'.repeat(330_000)}Password`,
  `${'a1!Password\n'.repeat(80_000)}`,
  `${'01000000d08c9ddf0115d1118c7a00c04fc297eb'.repeat(25_000)}`,
  `${"impacket-psexec 'a/b:".repeat(50_000)}`,
  `impacket-psexec 'a/b:${'c'.repeat(1_000_000)}`,
  `${' -hashes '.repeat(110_000)}`,
  `${'evil-winrm -H '.repeat(70_000)}`,
  `${'pth-winexe -U a%'.repeat(60_000)}`,
  `${'signature:s:AQABAAEAAAA'.repeat(40_000)}`,
  // The own attack's (adv174): WLST with variables, YAML Jwt settings, keyed SecureStrings and DPAPI in base64, tools on every word.
  // Session 35's: an environment read's fallback after a secret's variable, a Rails cookie's shape.
  `${"key: process.env.API_TOKEN || '".repeat(40_000)}`,
  `${'process.env.API_TOKEN'.repeat(50_000)}`,
  `${'a'.repeat(1_000_000)}--`,
  `${'aaaaaaaaaaaaaaaaaaaaaaaaa--bbbbbbbbbbbbbbbb-'.repeat(30_000)}`,
  `${'%2F'.repeat(300_000)}--`,
  `${'connect(a, '.repeat(90_000)}`,
  `${"connect(a, 'b', c".repeat(50_000)}`,
  `${'Issuer: a\nKey: Qm7xT2vK9pL4wZ8n\n'.repeat(40_000)}`,
  `Issuer: a\n${'  b: c\n'.repeat(150_000)}Key: Qm7xT2vK9pL4wZ8n\n`,
  `${'76492d1116743f0423413b16050a5345'.repeat(30_000)}`,
  `${'AQAAANCMnd8BFdERjHoAwE/Cl+s'.repeat(35_000)}`,
  `${'rdesktop -p '.repeat(80_000)}`,
  `${'sqlpackage /tp:'.repeat(60_000)}`,
  `gsk8capicmd ${'-pw x '.repeat(160_000)}`,
  `${'getTGT.py a:b '.repeat(70_000)}`,
  `${'{"user":"a",'.repeat(80_000)}`,
  `${"  user: x\n  key: '".repeat(60_000)}`,
  `${'hook.make.com/'.repeat(70_000)}`,
  `${'eoabcdefghijk.m.pipedream.net/'.repeat(35_000)}`,
  `${'IncomingWebhook/'.repeat(60_000)}`,
  `${'hooks.airtable.com/workflows/v1/genericWebhook/'.repeat(20_000)}`,
  `${'api.netlify.com/build_hooks/'.repeat(35_000)}`,
  `│ Key │ Install Metrics │${' Install Metrics │'.repeat(60_000)}`,
  `${'│ Key │ Update Metadata │\n│ x │ AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA │\n'.repeat(25_000)}`,
  `${'[09:14:00]: $ security find-generic-password -w\n'.repeat(20_000)}`,
  `${'</key>\na-1-<string>'.repeat(60_000)}`,
  `${'--deploymentKey '.repeat(60_000)}`,
  `${'--aKey=a1'.repeat(100_000)}`,
  `${'eas env:create '.repeat(60_000)}`,
  `${'expo login -p'.repeat(70_000)}`,
  `${'"server": "rtmp", '.repeat(50_000)}`,
  `${'rtmp\n"key": "abcdefgh"\n'.repeat(40_000)}`,
  `${'Server = a +1 '.repeat(70_000)}`,
  `${'register_new_matrix_user -p '.repeat(35_000)}`,
  `a:\n${'Settings.asset-9-  - x\n'.repeat(40_000)}`,
  `00000000: ${'0000 '.repeat(200_000)} x`,
  `${'temporary password is provided for '.repeat(25_000)}`,
  // Session 37's readers: a bare `key` beside a service's url (read up and down), a dict of tokens, R's arrow, dvc's options,
  // `printed below`, a tracker's announce path.
  `${'key: 0123456789abcdef0123456789abcdef\n'.repeat(28_000)}`,
  `${'url: x\n'.repeat(100_000)}key: 0123456789abcdef0123456789abcdef\n${'url: x\n'.repeat(100_000)}`,
  `${'a'.repeat(1_000_000)}\nkey: 0123456789abcdef0123456789abcdef\n`,
  `${'{ url: 1, key: 0123456789abcdef0123456789abcdef, '.repeat(20_000)}`,
  `api_tokens = {${"'0123456789abcdef0': 'x',\n".repeat(40_000)}`,
  `${'api_tokens = {'.repeat(70_000)}`,
  `${'token <- '.repeat(110_000)}`,
  `${'dvc remote modify -a '.repeat(50_000)}`,
  `${'password is printed below:'.repeat(40_000)}`,
  `${'/announce/'.repeat(100_000)}`,
  `${'/0123456789abcdef01234567/announc'.repeat(30_000)}`,
  `${'snmp-server host a version 2c '.repeat(35_000)}`,
  `${'12:snmp-server community x RO\n'.repeat(35_000)}`,
  `${'community x {\n'.repeat(70_000)}`,
  `set ${'a '.repeat(500_000)}secret 'x'`,
  `${"set a b secret '".repeat(60_000)}`,
  `${'auth_pass '.repeat(100_000)}`,
  `${'LUFRPT'.repeat(160_000)}`,
  `${'hdbsql -p '.repeat(100_000)}`,
  `${'hdbuserstore SET a b c '.repeat(45_000)}`,
  `${"'key' => 'abcdefghij\n".repeat(50_000)}`,
  `'key' => '${'a'.repeat(1_000_000)}`,
  `${'{token_id: 0123456789abcdef, '.repeat(35_000)}`,
  `${'| A_KEY | '.repeat(100_000)}`,
  `| A_KEY | ${'a '.repeat(500_000)}|`,
  `Recovery codes: ${'abcd1234 '.repeat(110_000)}`,
  `${'recovery codes\\n'.repeat(60_000)}`,
  `${'pre-shared-key local '.repeat(50_000)}`,
  `${'ntp authentication-key 1 md5 '.repeat(35_000)}`,
  `${'key=aGVsbG8gd29ybGQgaGVsbG8gd29ybGQgaGVsbG8gd29ybGQ1\nsecret=x\n'.repeat(15_000)}`,
  `${"f(url='x', key='0123456789abcdef0123456789abcdef', ".repeat(20_000)}`,
  `${'-fileInstallationKey 12345-12345-12345-'.repeat(25_000)}`,
  `${'"recovery_codes": ['.repeat(50_000)}`,
  `"network_key": {${'\n"key": x,'.repeat(80_000)}`,
  `${'"app_key": {"key": "x", '.repeat(40_000)}`,
  `${'"sta_pwd": ['.repeat(80_000)}`,
  `"sta_pwd": [${'"x",\n'.repeat(150_000)}`,
  `${'NNSXS.'.repeat(150_000)}`,
  `${'mosquitto_sub --pw '.repeat(50_000)}`,
  `${'t1.9euelZ'.repeat(110_000)}`,
  `${'crn:v1:a:resource-key:x '.repeat(40_000)}`,
  `${'network_key:\n  key: x\n'.repeat(45_000)}`,
  `${'a'.repeat(1_000_000)}\n${'  key: x\n'.repeat(20_000)}`,
  `${'1:rocommunity x\n'.repeat(60_000)}`,
  `{ api_tokens: {${' abcdefghij0123456789: 1,'.repeat(40_000)}`,
  `${'{ api_tokens: { abcdefghij0123456789'.repeat(30_000)}`,
  `${'"snmp-server community '.repeat(45_000)}`,
  `${'authentication-key 1 type md5 value '.repeat(28_000)}`,
  `${'authentication md5 1 key '.repeat(40_000)}`,
  `${'    private-key abcdefgh1\n'.repeat(40_000)}`,
  `    private-key ${'a'.repeat(1_000_000)}`,
  `${'"set a b c secret '.repeat(55_000)}`,
  `set ${'a '.repeat(500_000)}`,
  `${"'set a secret x1y2z3 ".repeat(50_000)}`,
  `${'settings set a/b/psk '.repeat(50_000)}`,
  `settings set ${'a/'.repeat(500_000)}`,
  `${'+url: x\n+key: 0123456789abcdef0123456789abcdef\n'.repeat(20_000)}`,
  `${'3-    key: 0123456789abcdef0123456789abcdef\n'.repeat(25_000)}`,
  `${'+'.repeat(1_000_000)}key: 0123456789abcdef0123456789abcdef`,
  `${'a:1:'.repeat(250_000)}key: 0123456789abcdef0123456789abcdef`,
  `${(' encryption:\n+    key: "' + 'A'.repeat(43) + '="\n').repeat(12_000)}`,
  `encryption:\n${'-    key: x\n'.repeat(90_000)}+    key: "${'A'.repeat(43)}="`,
  `${'Backup codes:\n'.repeat(70_000)}`,
  `Recovery codes:\n${'- abcd1-ef012\n'.repeat(70_000)}`,
  `${'Backup codes:</p><pre>abcd1234ab</pre>'.repeat(25_000)}`,
  `ID  NAME  VALUE\n${'2184410 DB_PASSWORD x1\n'.repeat(40_000)}`,
  `ID  NAME  VALUE\n${'1 '.repeat(500_000)}DB_PASSWORD x`,
  `key  type  value\n${'password  data  string  abc123\n'.repeat(30_000)}`,
  `key  type  value\npassword${'  a'.repeat(300_000)}`,
  `${"'-DWIFI_PASS=\\'\"".repeat(60_000)}`,
  `-DWIFI_PASS=\\'"${'a'.repeat(1_000_000)}`,
  `${'xprv'.repeat(250_000)}`,
  `${('xprv' + '1'.repeat(107) + ' ').repeat(8_000)}`,
  `${('K' + 'z'.repeat(51) + ' ').repeat(19_000)}`,
  `${'K'.repeat(1_000_000)}`,
  `${'0201036c6e64'.repeat(80_000)}`,
  `${'Private Keys\n'.repeat(80_000)}`,
  `Private Keys\n=====\n${('(1) 0x' + 'a'.repeat(64) + '\n').repeat(14_000)}`,
  `${'accounts: ['.repeat(90_000)}`,
  `accounts: [${('"0x' + 'a'.repeat(64) + '", ').repeat(14_000)}`,
  `${'"spider spoil choice '.repeat(50_000)}`,
  `"${'abc '.repeat(250_000)}"`,
  `${': abc abc abc abc abc abc abc abc abc abc abc\n'.repeat(22_000)}`,
  `${'Secret seed: 0x'.repeat(65_000)}`,
  `${'unlockAccount(a, "'.repeat(55_000)}`,
  `${'fromSecretKey(bs58.decode("'.repeat(35_000)}`,
  `${'//0123456789abcdef0123456789abcdef:x@'.repeat(27_000)}infura.io`,
  `${'random_password.a.result = '.repeat(36_000)}`,
  `${'a@pam!b '.repeat(125_000)}`,
  `${'mongodb\\://u\\:'.repeat(70_000)}`,
  `${' -auth a:'.repeat(110_000)}`,
  `${' : XCredentialsImpl : a : '.repeat(38_000)}`,
  `${'----OUTPUT----'.repeat(70_000)}`,
  `${'----OUTPUT----\n'.repeat(65_000)}`,
  `${'"clear-text" => "'.repeat(55_000)}`,
  `${'a::b::c_secret: |\n'.repeat(50_000)}`,
  `x_secret: |\n${'f:1-  abcdefgh\n'.repeat(60_000)}`,
  `${'main password a1bcdefgh\n'.repeat(42_000)}`,
  `main password ${'a'.repeat(1_000_000)}`,
  `${'a password '.repeat(100_000)}`,
  `${('L'.repeat(52) + ' ').repeat(19_000)}`,
  `${('x'.repeat(111) + ' ').repeat(9_000)}`,
  `${'AgEDbG5k'.repeat(125_000)}`,
  `${'0201046c6f6f70'.repeat(70_000)}`,
  `Private Keys\n${'a.b-1  | \n'.repeat(90_000)}`,
  `Private Keys\n=====\n${('anvil-1  | (1) 0x' + 'a'.repeat(64) + '\n').repeat(12_000)}`,
  `${"restoring from ['abc', ".repeat(40_000)}`,
  `[${"'abandon', ".repeat(90_000)}]`,
  `Recovery codes:\n\n${'notes/a.md-abcd-1234\n'.repeat(45_000)}`,
  `${'a.b/c.d/e.f-'.repeat(80_000)}    key: 0123456789abcdef0123456789abcdef`,
  `${'< url: x\n< key: 0123456789abcdef0123456789abcdef\n'.repeat(18_000)}`,
  `${'data/x.yaml:a::b_secret: |\n'.repeat(38_000)}`,
  `+x_secret: |\n${'+  abcdefgh\n'.repeat(80_000)}`,
  `${'\t0 : XCredentialsImpl\t'.repeat(45_000)}`,
  `a\t${'a.'.repeat(500_000)}CredentialsImpl\tb\tc`,
  `${'"personal_unlockAccount","params":["'.repeat(25_000)}`,
  `${'dsadd user x -pwd '.repeat(55_000)}`,
  `dsadd ${'a '.repeat(500_000)}-pwd x`,
  `${'hmac key=key='.repeat(75_000)}`,
  `${'HmacValidator using key='.repeat(40_000)}`,
  `${'$USER1$='.repeat(120_000)}`,
  `${'redis\\\\://\\\\:'.repeat(60_000)}`,
  `${'"routing_key":"0123456789abcdef0123456789abcdef",'.repeat(20_000)}`,
  `${'token:a@b!c:0:0::\n'.repeat(55_000)}`,
  `${'- name: DD_API_KEY\n-  value: abcdefgh12\n+  value: abcdefgh12\n'.repeat(15_000)}`,
  `- name: DD_API_KEY\n-  value: x\n${'+'.repeat(1_000_000)}`,
  `${'Prime1: abcdefghijklmnopqrst\n'.repeat(45_000)}`,
  `Coefficient: ${'A'.repeat(1_000_000)} x`,
  `${'+abc abc abc abc abc abc abc abc abc abc abc\n'.repeat(22_000)}`,
  `${'+abandon '.repeat(110_000)}`,
  `${'\\"routing_key\\":\\"'.repeat(45_000)}`,
  `${Buffer.from('abandon ability able about above absent absorb abstract absurd abuse access accident\n').toString('base64url').repeat(8_000)}`,
  `${'[["svc","api_key"],"'.repeat(50_000)}`,
  `${'[["api_key"],"abcdefgh"]'.repeat(40_000)}`,
  `${'<macro>{$DB.PASSWORD}</macro>\n'.repeat(35_000)}`,
  `${"- macro: '{$DB.PASSWORD}'\n".repeat(35_000)}`,
  `${'"auth_keys": {'.repeat(70_000)}`,
  `${'"auth_keys": {"a": {"key": "abcdefgh12345678"}}, '.repeat(20_000)}`,
  `NAME  KEY  SITE\n${'api  0123456789abcdef0123456789abcdef  x\n'.repeat(25_000)}`,
  `${'NAME  KEY  SITE\n'.repeat(60_000)}`,
  `==> .password <==\n${'a=b\n==> x <==\n'.repeat(70_000)}`,
  `${'"profile":"rtmp","host":"x","streamName":"abcdefgh12345678", '.repeat(16_000)}`,
  `${'FB-1234567890123-0-Ab'.repeat(50_000)}`,
  `${"{ _id: 'SMTP_Password', ".repeat(40_000)}`,
  `${'-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAwJ2JSb1lbGxm0LtT3Ctbn3NzjcEGqvS2e3bkCQEMdTaZjTXy\n'.repeat(10_000)}`,
  `${' -> QUJDREVGR0g=\n<-  334 UGFzc3dvcmQ6\n'.repeat(25_000)}`,
  `${'[["tokens",0],"'.repeat(60_000)}`,
  `auth_keys:\n${'  a:\n    key: abcdefgh12\n'.repeat(40_000)}`,
  `${'auth_keys:\n  a:\n'.repeat(50_000)}`,
  `${'u:aes256-cts-hmac-sha1-96:'.repeat(40_000)}`,
  `${'doIF'.repeat(250_000)}`,
  `${'|     a:b - Valid credentials\n'.repeat(35_000)}`,
  `${'[+] a\\b:'.repeat(100_000)}`,
  `${'[*] _SC_'.repeat(120_000)}`,
  `${'aad3b435b51404eeaad3b435b51404ee:'.repeat(30_000)}`,
  `${'a.token  '.repeat(110_000)}`,
  `${'x.token  value1\n'.repeat(60_000)}`,
  `${'config/x.password:u: p,a\n'.repeat(40_000)}`,
  `${'f:1:  secret_key_base:\nf-2-    "abc"\n'.repeat(25_000)}`,
  `${'"cookie": "a=bbbbbb; '.repeat(45_000)}`,
  `${"[env: X_PASSWORD] current value: '".repeat(25_000)}`,
  `${'"NThash": "'.repeat(80_000)}`,
  `id,password\n${'1,0123456789abcdef0123456789abcdef (p)\n'.repeat(25_000)}`,
  `${'<param name="password">'.repeat(45_000)}`,
  `${'<p name="password">x</q>'.repeat(40_000)}`,
  `${'enc cbc(aes) 0x0123456789abcdef '.repeat(30_000)}`,
  `${'Password\\0123456789abcdef'.repeat(40_000)}`,
  `${'[bin  ] PermanentPassword = 32 c3 '.repeat(30_000)}`,
  `[Passwords]\n${'a:b@c=QUJDREVGR0hJSktMTU5PUFFSU1RVVldY\n'.repeat(25_000)}`,
  `${'bw unlock '.repeat(100_000)}`,
  `${'"https://a","b","c",'.repeat(50_000)}"{00000000-0000-0000-0000-000000000000}","1699012345123"`,
  `${'servlist.conf:1:P='.repeat(60_000)}`,
  `${'A3-ABCDEF-ABCDEF-'.repeat(60_000)}`,
  `${'Success: \'a:'.repeat(80_000)}`,
  `${"22/tcp ssh: 'a' '".repeat(50_000)}`,
  `SSH ${'[+] a:b '.repeat(100_000)}`,
  `${'aes256_hmac (4096) : '.repeat(40_000)}`,
  `${'cur/text: '.repeat(90_000)}`,
  `${'{00000000-0000-0000-0000-000000000000}:'.repeat(25_000)}`,
  `${'{$A.PASSWORD}\t'.repeat(70_000)}`,
  `${"- macro: '{$A.PASSWORD:\"x\"}'\n".repeat(30_000)}`,
  `${'f:  password:\nf-    x\n'.repeat(40_000)}`,
  `${'MIIBIjANBgkqhkiG9w0BAQEFAAOC'.repeat(35_000)}`,
  `${'\tNT: '.repeat(150_000)}`,
  `${'AES-256 HASH : '.repeat(60_000)}`,
  `${'VALID LOGIN:\t a:'.repeat(60_000)}`,
  `${'RDP-SUCCESS : a - b:'.repeat(50_000)}`,
  `${'"{$A.PASSWORD}","'.repeat(55_000)}`,
  `${'m-1  | <-  334 UGFzc3dvcmQ6\nm-1  |  -> '.repeat(25_000)}`,
  `${'a/'.repeat(500_000)}password\tx`,
  `${'a/b/c/SMTPPassword\tv1x\n'.repeat(45_000)}`,
  `${'x\ta@b\t1 seconds\n'.repeat(60_000)}`,
  `${"'etype': 'aes', ".repeat(60_000)}`,
  `${'  key : \n'.repeat(100_000)}`,
  `${'cur/hex : 0a 0b '.repeat(60_000)}`,
  `${'@A (0x'.repeat(150_000)}`,
  `${'aes256-cts-hmac-sha1-96 x '.repeat(40_000)}`,
  `${'BQQADAABAAj'.repeat(90_000)}`,
  `${'334 UGFzc3dvcmQ6\nx C: '.repeat(40_000)}`,
  `${'<macro>{$A.PASSWORD}</macro>\n<type>1</type>\n'.repeat(25_000)}`,
  // Session 40: a cookie list and a set-cookie list never closed, a multiplexed log's prefixed block scalars, cracked rows, NT
  // lines and master keys' SHA-1s.
  `${"'set-cookie': [ 'a=b".repeat(60_000)}`,
  `${'"cookies": [ {"value": "x'.repeat(40_000)}`,
  `'set-cookie': [\n${"  'sid=abcdefghijklmnop; Path=/',\n".repeat(30_000)}`,
  `${'web-1  |   password: >-\n'.repeat(40_000)}`,
  `${'web-1  |   password:\nweb-1  |     x\n'.repeat(20_000)}`,
  `${'5a1013eee7d02b43f99e6d817b53e688:Willow@Zephyr1916\n'.repeat(20_000)}`,
  `${'  NT: 64f12cddaa88057e06a81b54e73b949b\n  SHA1: '.repeat(20_000)}`,
  `${' '.repeat(1_000_000)}NT: `,
  `${'[[\\"password\\"],\\"'.repeat(50_000)}`,
  `[[\\"password\\"],\\"${'\\\\'.repeat(500_000)}`,
  `${'mcrcon -p x fs_cli -ap '.repeat(40_000)}`,
  `${'sapcontrol -user a '.repeat(50_000)}`,
  `${'quote PASS literal PASS ---> PASS '.repeat(30_000)}`,
  `${'Encrypted string -->'.repeat(50_000)}`,
  `${'zpk=zmk:tmk_bdk.ipek '.repeat(50_000)}`,
  `${'/t/ab-'.repeat(160_000)}`,
  `${'token: <Not set> '.repeat(60_000)}`,
  `${'?password=a?b='.repeat(70_000)}`,
  `${'RConPassword x\nAdminPassword \n'.repeat(30_000)}`,
  `${'<wsse:Password Type="#PasswordDigest">'.repeat(25_000)}`,
  `${'Component : 1E27 '.repeat(60_000)}`,
  `${'a/b/c_password - '.repeat(60_000)}`,
  `${'a/b/key - x\n'.repeat(80_000)}`,
  `${'PRD-'.repeat(250_000)}`,
  `${'web-1  | 2024-12-06T06:01:02.1Z   password: |\n'.repeat(20_000)}`,
  `${'Dec 06 06:01:02 h u[1]:   password: |\n'.repeat(25_000)}`,
  `${'pmrep -x \\"a pmcmd -p kamctl add a pmpasswd '.repeat(20_000)}`,
  `${'"SHAHash":"'.repeat(80_000)}`,
  `${'?pin-value=;pin-value='.repeat(50_000)}`,
  `${'softhsm2-util --pin --so-pin '.repeat(35_000)}`,
  `${'password: <a b c d e f g h i j'.repeat(30_000)}`,
  `${'radtest -t a '.repeat(80_000)}`,
  `${'radtest -x '.repeat(100_000)}`,
  `${'signing key '.repeat(80_000)}`,
  `${'JOINCODE=fc94:b01d:'.repeat(50_000)}`,
  `${"'a=bbbbbbbbbb; Path=/".repeat(50_000)}`,
  `'a=${'b'.repeat(1_000_000)}`,
  `${"'a=b; HttpOnly '".repeat(60_000)}`,
  `${'--> PASS -> PASS '.repeat(60_000)}`,
  `${'add password a.b {x} add password '.repeat(30_000)}`,
  `add password a.* ${'{'.repeat(1_000_000)}`,
  `${'ciphertext AQ ciphertext '.repeat(40_000)}`,
  `${'mgmt-user a b mgmt-user '.repeat(40_000)}`,
  `${'radius-server host a x x x x x x x x key '.repeat(20_000)}`,
  `${'tacacs-server host '.repeat(60_000)}`,
  `SAMLResponse=${'A'.repeat(1_000_000)}`,
  `${'SAMLResponse=SAMLResponse:'.repeat(40_000)}`,
  `${'&code_verifier=&code_verifier'.repeat(35_000)}`,
  `${'12- key 0 x\n'.repeat(80_000)}`,
  `${'12:  set psksecret ENC \n'.repeat(45_000)}`,
  `${'#   NAME  PASSWORD\n0   a     b\n'.repeat(30_000)}`,
  `${'key = "a'.repeat(120_000)}`,
  `${'BQIAAAB'.repeat(150_000)}`,
  `${"'s=${b}'; echo \"$(cat s)\" ".repeat(30_000)}`,
  `${'aCL/8TfjuAx/Fa/u7xf6DVvKWFGQnt2+h82GOKpB53I= '.repeat(22_000)}`,
  `${'aCL/8TfjuAx/Fa/u7xf6DVvKWFGQnt2+h82GOKpB53I= 67M425lsW0ALjQ9K7PoJ0NkHziaQqIR+8VPKlKopMjE=\n'.repeat(11_000)}`,
  `${"Cookie(version=0, name='a', value='".repeat(30_000)}`,
  `${'user a b1 user '.repeat(60_000)}`,
  `${'PKCS11_PIN=1234 HSM_PIN='.repeat(40_000)}`,
  `| AUTH_KEY | ${'a|'.repeat(500_000)}`,
  `${'| AUTH_KEY | a | constant | '.repeat(35_000)}`,
  `${'xoxd-'.repeat(200_000)}`,
  `d=xoxd-${'%2B'.repeat(330_000)}`,
  `${'recovery key = recovery key: '.repeat(35_000)}`,
  `${'Challenge: Challenge '.repeat(50_000)}`,
  `${'123456-'.repeat(150_000)}`,
  `${'│ Name │ Delivery API token │\n├─┼─┤\n│ a │ b │\n'.repeat(15_000)}`,
  `${'npg_npg_'.repeat(125_000)}`,
  `${'auth_key => <<"a'.repeat(60_000)}`,
  `${'68:cd:10:77:af:26 '.repeat(55_000)}`,
  `${'Script started on x [COMMAND="'.repeat(30_000)}`,
  `${'Script started on 2026 [COMMAND="cat a.key" x]\n'.repeat(20_000)}`,
  `NAME  DIGEST\n${'API_KEY  0123456789abcdef\n'.repeat(40_000)}`,
  `${'DIGEST '.repeat(1000)}\n${'API_KEY  0123456789abcdef '.repeat(40_000)}`,
  `${'Private Key:\n'.repeat(80_000)}`,
  `${'Private Key:Private Key:'.repeat(40_000)}`,
  `${'sk_test_-'.repeat(110_000)}`,
  `${'x  | set psksecret '.repeat(50_000)}`,
  `${'> key 0 a\n< key 0 b\n'.repeat(40_000)}`,
  `${'key authentication cipher '.repeat(40_000)}`,
  `${'key = a1! '.repeat(90_000)}`,
  `${'<<"a">> => <<"'.repeat(70_000)}`,
  `${'"grant_type":"authorization_code" "code":"'.repeat(25_000)}`,
  `${'"code":"aaaaaaaaaa" '.repeat(50_000)}"grant_type":"authorization_code"`,
  `${'VAPID Private Key:'.repeat(55_000)}`,
  `${'husarnet join fc94:b01d:'.repeat(40_000)}`,
  `NAME\tDIGEST\n${'API_KEY\t0123456789abcdef\n'.repeat(40_000)}`,
  `${'Password: abcd abcd abcd abcd abcd '.repeat(30_000)}`,
  `${'name="SAMLResponse" value="'.repeat(35_000)}`,
  // Session 42's readers: prefixed lines read again (journald, kubectl, compose, cat -n, grep; stacked prefixes), sed -n l's wraps,
  // an INI value's indented base64 lines, JSON escapes before runs, a dict of named keys, setters, a card's object, stream keys.
  `${'Dec 06 10:00:01 h u[1]: set psksecret a1b2c3d4\n'.repeat(20_000)}`,
  `${'[pod/a/b] [pod/a/b] add password x y\n'.repeat(25_000)}`,
  `${'web-1  | web-1  | key 7 "abcdefgh"\n'.repeat(25_000)}`,
  `${'     1\t     2\tadd password x y\n'.repeat(25_000)}`,
  `${'1:'.repeat(500_000)}`,
  `${'a:1:b:2:c:3:\n'.repeat(80_000)}`,
  `set psksecret ENC ${'abcdefgh'.repeat(8)}\\\n${'abcdefgh\\\n'.repeat(100_000)}`,
  `key = ${'A'.repeat(40)}1\n${'\tAbCdEf12\n'.repeat(100_000)}`,
  `${'\\nghp_\\t'.repeat(120_000)}`,
  `"tokens": {${'"S2_a": "0123456789ABCDEF0123456789ABCDEF", '.repeat(25_000)}}`,
  `${'set_password("'.repeat(70_000)}`,
  `${'card={"number":"'.repeat(60_000)}`,
  `${'"key": "abcd-'.repeat(80_000)}`,
  // The closing attack's: syslog's other formats, git blame, blank-numbered lines, SGR codes as text, calls of several arguments.
  `${'2024-12-06T10:00:01.485568+00:00 h p[1]: key a1!\n'.repeat(20_000)}`,
  `${'^bdf9bd4 (Dana W 2024-03-14 09:12:44 +0000 3) add password x y\n'.repeat(15_000)}`,
  `${'   21  key a1!b\n'.repeat(60_000)}`,
  `${'\\u001b[1'.repeat(120_000)}`,
  `${'[1;2;3;4;5m'.repeat(90_000)}`,
  `${'set_password("a", '.repeat(50_000)}`,
  `${'"a".toCharArray() '.repeat(50_000)}`,
  `${'SetBasicAuth("a", '.repeat(50_000)}`,
  `${'addAP("a", '.repeat(80_000)}`,
  // The stop check's: RFC 5424 headers, honcho's time before a name, paths without numbers, fetchmail, NickServ, chrony.
  `${'<189>1 a b c d e [x] <189>1 a b '.repeat(35_000)}`,
  `${'10:02:12 a.1 | 10:02:12 a.1 | key a1!b\n'.repeat(25_000)}`,
  `${'a/b.c: a/b.c: set psksecret x\n'.repeat(35_000)}`,
  `${'user "a" pass "'.repeat(70_000)}`,
  `${'NickServ IDENTIFY a '.repeat(50_000)}`,
  `${'1 SHA1 HEX:'.repeat(90_000)}`,
  // Session 43's: word diffs, diff -y's gutter, Tilt's and Skaffold's prefixes, NULs, numeric passwords, an HTML password field
  // without its `>` (its test ran 29 s a megabyte before), Heroku's prefix, `%5F`, YAML tags, KeePass pairs, minisign keys.
  `--- a/x\n+++ b/x\n${'[-a {+b '.repeat(120_000)}`,
  `--- a/x\n+++ b/x\n${'add password x [-{a}-]{+{b}+}\n'.repeat(30_000)}`,
  `${'a |\tb\n'.repeat(150_000)}`,
  `${'x >\t'.repeat(200_000)}`,
  `${'api │ key a1!b\n'.repeat(60_000)}`,
  `${'[a b] key a1!b\n'.repeat(60_000)}`,
  `${'a\0-p\0'.repeat(150_000)}`,
  `${'password=1234 '.repeat(70_000)}`,
  `${'<param name="vm-password" value="'.repeat(30_000)}`,
  `${'<input type=password value="'.repeat(35_000)}`,
  `${'2024-12-06T10:00:01.123456+00:00 app[web.1]: key a1!b\n'.repeat(20_000)}`,
  `${'a%5Fkey=%5F'.repeat(90_000)}`,
  `${'  s: !!binary |\n'.repeat(60_000)}`,
  `${'<Key>Password</Key>\n<Value '.repeat(35_000)}`,
  `${'RWRTY0Iy'.repeat(120_000)}`,
  // Passes 247-249's: Metasploit's creds table, spaced hex rows, DPAPI credential lines, Rubeus' wrapped lines, YAML lists in
  // secrets' entries.
  `${'host origin service public private realm private_type\n'.repeat(20_000)}`,
  `host  origin  service  public  private  realm  private_type\n${'1  1  s  root  pw1234567  r  Password\n'.repeat(25_000)}`,
  `      Master Key     : ${'8C 41 09 04 30 A9 89 3E CD 82 9C A9 58 46 16 F5 \n                       '.repeat(12_000)}`,
  `${'* Password : 7e 85 '.repeat(60_000)}`,
  `${'[CREDENTIAL] - a:[CREDENTIAL] - '.repeat(30_000)}`,
  `${'      doIFmjCCBZagAwIBBaEDAgEWooIEnzCCBJthggSXMIIEk6ADAgEFoQwbCkNPUlAuTE9DQUyiHzAdoAMCAQKhFjAUGwZrcmJ0Z3Qb\n'.repeat(9_000)}`,
  `secrets:\n${'  a:\n    - abcdefghijklmnopqrstuvwxyz\n'.repeat(30_000)}`,
  `${'NT hash for \''.repeat(80_000)}`,
  // Passes 251-252's: a note's `pw`, ktpass, LAPS' JSON, gMSA rows, an ODBC DSN's PWD, Elixir's env reads.
  `${'pw '.repeat(300_000)}`,
  `ktpass ${'/pass '.repeat(180_000)}`,
  `${'"n":"a","t":"1da88354aecb510","p":"'.repeat(28_000)}`,
  `${'a:::'.repeat(250_000)}`,
  `${'    PWD    REG_SZ    x\n'.repeat(45_000)}`,
  `${'System.get_env("SECRET_KEY_BASE") ||\n'.repeat(25_000)}`,
  // The closing attack's: shown NULs, word diffs without headers, ekeys rows, anchored block scalars.
  `${'a^@-p^@'.repeat(140_000)}`,
  `${'a\\x00-p\\x00'.repeat(80_000)}`,
  `${'[-a-]{+b+} [-'.repeat(80_000)}`,
  `${'rc4_hmac_nt '.repeat(80_000)}`,
  `${'  p: &a |\n'.repeat(90_000)}`,
  // A shown-NUL view of 150,000 findings (its findings were spread into push(): the call stack overflowed).
  `${'mysql^@-pPw1234567^@\n'.repeat(150_000)}`,
  // Session 44's prefixes the first lines repeat: a prefix on every line, tokens up to the bound, past it, bracket runs.
  `${'web-0 app [a] | db:5432:app:app:pw\n'.repeat(30_000)}`,
  `${'0 [a] 0 [a] 0 [a] x\n'.repeat(50_000)}`,
  `${'a '.repeat(127)}x\n`.repeat(4_000),
  `${'2024-12-06T10:00:01Z app[3d8d9e1b] iad [info]password: x\n'.repeat(18_000)}`,
  // Passes 254-256's: keychain items, fs_cli prompts, BIND's HMAC key files, dig -y, TSIG lists, Digest headers.
  `${'class: "genp"\ndata:\n'.repeat(50_000)}`,
  `${'freeswitch@a> global_getvar password\n'.repeat(25_000)}`,
  `${'(hmac_'.repeat(170_000)}`,
  `${'dig -y a:'.repeat(110_000)}`,
  `${'a. IN KEY 1 3 157 '.repeat(55_000)}`,
  `${'a. hmac-md5. '.repeat(80_000)}`,
  `${'Authorization: Digest '.repeat(45_000)}`,
  // Pass 258's: expect's send after a password prompt, sshd's invalid users, asciinema's input events, GPG key ids.
  `${'expect "password:"\nsend "'.repeat(40_000)}`,
  `${'expect password\nsend "x\\"'.repeat(40_000)}`,
  `${'Invalid user a! '.repeat(60_000)}`,
  `${'[1,"o","password: "]\n[1,"i","'.repeat(40_000)}`,
  `${'GPG_KEY=7DA8A446460F6B93\n'.repeat(40_000)}`,
  `${'Recovered NT Hash\n'.repeat(55_000)}`,
  `${'[MASTERKEY] '.repeat(85_000)}`,
  `${'[+] 1.1.1.1 a\\b  x\n'.repeat(50_000)}`,
  // Passes 257 and 259's: quoted titles over quoted cells, IMAP LOGIN behind a prefix, diff-marked msmtp lines, himalaya names.
  `"Title"  "Password"\n${'"a"      "b c"\n'.repeat(60_000)}`,
  `${'"a" "Password"  "x"\n'.repeat(50_000)}`,
  `${' > 1 LOGIN a '.repeat(70_000)}`,
  `${'-password x\n+password y\n'.repeat(40_000)}`,
  `${'a.auth.raw = "x"\n'.repeat(55_000)}`,
  // Pass 251's leftover: LAPS' pretty JSON.
  `${'"n": "a",\n"t": "1da88354aecb510",\n"p": "'.repeat(25_000)}`,
  `${'"p": "'.repeat(160_000)}`,
  // The closing attack adv263's and pass 262's: keychain data cut out, names alone over values, Authorization lists, DRF tokens,
  // expect's braces and pexpect, sshd's other lines, cast input after prompts, lsassy tags, grep of HMAC key files.
  `${'data:\n"x"\n'.repeat(100_000)}`,
  `${'  X-Api-Key\n'.repeat(80_000)}`,
  `${'  X-Api-Key\n  Abc123!xyz99\n'.repeat(40_000)}`,
  `${'"authorization": [\n'.repeat(50_000)}`,
  `${"'Token " + 'a'.repeat(40) + "' "}`.repeat(20_000),
  `${'expect "password:"\nsend -- {'.repeat(35_000)}`,
  `expect "password:"\nsend -- {${'{'.repeat(1_000_000)}`,
  `${"child.expect('Password:')\nchild.sendline('".repeat(25_000)}`,
  `${'sshd: Connection closed by invalid user a!1bcdef '.repeat(20_000)}`,
  `${'[0.5, "o", "Password> "]\n[0.6, "i", "x"]\n'.repeat(22_000)}`,
  `${'[+] a.b c\\d  [NT] x | '.repeat(45_000)}`,
  `${'a.+163+1.private:Key: '.repeat(45_000)}`,
  // Pass 260's: a table row ending in a name's cell and its value's.
  `|${' aaa |'.repeat(160_000)}\n`,
  `${'| a | api_key | aaaaaaaaaa |\n'.repeat(35_000)}`,
  `|${' x'.repeat(300_000)} api_key | ${'a'.repeat(4000)}\n`,
  `${'OUTPUTS\ta\tApiKeyValue\t'.repeat(40_000)}`,
  `${'OUTPUTS\tApiKey\tx1234567\n'.repeat(40_000)}`,
  `${'"n":  "a",\n"t":  "1da88354aecb510",\n"p":  "'.repeat(25_000)}`,
  `${'sv_setsteamaccount '.repeat(55_000)}`,
  // Session 45's: expect prompts as regular expressions or with a quote inside, pypykatz' masterkey lines, XML-RPC logins, glued
  // secret flags, netrc in diff -y's left column, an attribute between a name and its value.
  `${'expect -re "(P|p)assword: $"\nsend -- "'.repeat(25_000)}`,
  `${`p.expect("root@h's password:")\np.sendline("`.repeat(25_000)}`,
  `expect "${"'".repeat(1_000_000)}password"`,
  `${'\t\tmasterkey '.repeat(90_000)}`,
  `${'\t\tsha1_masterkey a\n'.repeat(60_000)}`,
  `${'<methodName>authenticate</methodName>\n<params>\n'.repeat(20_000)}`,
  `<methodName>login</methodName><params>${'<param><value>a</value></param>'.repeat(30_000)}`,
  `${'send: b"<methodName>execute_kw</methodName>\\n<params>\\n<param>\\n<value><string>'.repeat(12_000)}`,
  `${'--tokensecret '.repeat(70_000)}`,
  `${'password x\t\t|\tpassword y\n'.repeat(40_000)}`,
  `password x${'\t'.repeat(1_000_000)}y`,
  `${'<parameter name="a.password" x="y" '.repeat(30_000)}`,
  `<parameter name="a.password" ${'x="y" '.repeat(170_000)}value="z"`,
  // Passes 266 to 268's: Playwright's call log below a password input, Selenium IDE rows, signed cookies, hCaptcha and LiveKit
  // secrets, Agora certificates.
  `${'  - locator resolved to <input type="password"/>\n'.repeat(22_000)}`,
  `  - ${'type="password" '.repeat(65_000)}\n- fill("x")`,
  `${'  - <input type="password">\n  - a\n  - b\n  - fill("'.repeat(15_000)}`,
  `${'type\tid=password\t'.repeat(60_000)}`,
  `${'type\tid=password\tx\n'.repeat(50_000)}`,
  `${'s%3A' + 'a'.repeat(30) + '.'}`.repeat(30_000),
  `${'hcaptcha_secret '.repeat(60_000)}`,
  `${'HCAPTCHA_SECRET  0x'.repeat(50_000)}`,
  `${'APIaaaaaaaaaaaa: '.repeat(55_000)}`,
  `${'APIaaaaaaaaaaaa:'.repeat(60_000)}`,
  `${'app certificate: '.repeat(55_000)}`,
  // Passes 269 to 271's: Hasura's JWT secret JSON, Convex admin keys, mosh keys, JetBrains join links, ttyd's credentials, Dropbox
  // tokens' run of A's.
  `JWT_SECRET={${'"a":"b",'.repeat(120_000)}`,
  `${'JWT_SECRET={"key":"'.repeat(50_000)}`,
  `${'a|01'.repeat(250_000)}`,
  `a|01${'0'.repeat(1_000_000)}`,
  `${'MOSH CONNECT 1 '.repeat(65_000)}`,
  `${'#jt='.repeat(250_000)}`,
  `ttyd${' -c'.repeat(330_000)}`,
  `${'ttyd --credential a:b '.repeat(45_000)}`,
  `${'A'.repeat(1_000_000)}`,
  `${'abcdefghijkAAAAAAAAAA'.repeat(48_000)}`,
  // Session 45's older quadratic rules found by the blank-run guard below: a megabyte of blanks after their keywords.
  `password${' '.repeat(1_000_000)}x`,
  `recovery code:${' '.repeat(1_000_000)}x`,
  `api key${'\t'.repeat(1_000_000)}x`,
  `Key Content: "${' '.repeat(1_000_000)}x`,
  `bw unlock --session${' '.repeat(1_000_000)}x`,
  `register_new_matrix_user${' '.repeat(1_000_000)}x`,
  `SETUSER ${' >'.repeat(400_000)}`,
  // Pass 273's: master.info's binlog names, alone or a count above each.
  `${'mysql-bin.000001\n'.repeat(60_000)}`,
  `${'3\nmysql-bin.000001\n1\nh\nu\np\n3306\n'.repeat(25_000)}`,
  `${'a-bin.0'.repeat(150_000)}`,
  // The closing attack adv272's: JSON-RPC args, pypykatz' grep rows, code frames typing into a password input, Selenium's JSON,
  // node's signed cookies, pexpect's lists.
  `"service":"common" ${'"args":["a","b",'.repeat(60_000)}`,
  `${'msv:a:b:'.repeat(120_000)}`,
  `${'kerberos:'.repeat(110_000)}`,
  `dpapi:${':'.repeat(1_000_000)}`,
  `${'type="password"]'.repeat(60_000)}`,
  `type="password"]${')'.repeat(1_000_000)}`,
  `${'"command":"type","target":"id=password",'.repeat(25_000)}`,
  `${"'s:".repeat(300_000)}`,
  `${"child.expect(['password:', ".repeat(40_000)}`,
  `child.expect(['password:'${','.repeat(1_000_000)}`,
  // Pass 275's: PKCS#8 EC keys' DER start, alone a line or many to a line.
  `${'MIGHAgEAMBMGByqGSM49AgEG'.repeat(40_000)}`,
  `${'"MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg",\n'.repeat(20_000)}`,
  `${'inline_string: '.repeat(65_000)}`,
  `inline_string: "${'a'.repeat(1_000_000)}`,
  // Session 46's: expect prompts naming a key's file, pyzotero's positional key.
  `${`expect "Enter passphrase for key '/k': "\nsend "`.repeat(20_000)}`,
  `expect "passphrase for key ${"'".repeat(1_000_000)}`,
  `${"zotero.Zotero(a, 'group', ".repeat(40_000)}`,
  `zotero.Zotero(${' '.repeat(1_000_000)}`,
  // Consul's tokens block (a megabyte of entries, of openings), Shopify's HMAC header.
  `tokens {\n${'  agent = "6f4c9d2e-3b1a-4c8d-9e7f-2a1b3c4d5e6f"\n'.repeat(20_000)}`,
  `${'tokens {\n'.repeat(100_000)}`,
  `${'"tokens": {\n "a": "'.repeat(50_000)}`,
  `${'X-Shopify-Hmac-Sha256: '.repeat(40_000)}`,
  // Passes 278 to 280's: Junos secrets, usmUser OIDs, Netmiko's writes, Hue paths, SDK calls, Thread TLVs, setter byte lists,
  // device key labels.
  `${'plain-text-password-value "'.repeat(40_000)}`,
  `${'set system tacplus-server 10.0.0.1 secret "'.repeat(25_000)}`,
  `usmUser ${'.1.3.6.1.6.3.10.1.1.3 '.repeat(45_000)}`,
  `${"write_channel: b'".repeat(60_000)}`,
  `write_channel: b'${'a1'.repeat(500_000)}`,
  `${'/api/'.repeat(200_000)}`,
  `/api/${'a'.repeat(1_000_000)}/lights`,
  `${"cohere.Client('".repeat(60_000)}`,
  `0e08${'0'.repeat(1_000_000)}`,
  `${'0e080000000000010000'.repeat(50_000)}`,
  `${'set_noise_psk({1, 2, 3, 4, 5, 6, 7, 8}); '.repeat(25_000)}`,
  `${'device key: '.repeat(80_000)}`,
  `PEPPERS = {\n${"    1: 'abcdefghijklmnop',\n".repeat(30_000)}`,
  // Pass 281's: XStream entries, Orthanc's server lists.
  `${'<string>SFTP_PASSWORD</string>\n'.repeat(35_000)}`,
  `<string>SFTP_PASSWORD</string>${'\n<list>'.repeat(150_000)}`,
  `${'[ "https://a", "b", "'.repeat(45_000)}`,
  `[ "https://${'a'.repeat(1_000_000)}`,
  // Pass 282's: Tanium tokens' prefix; a parenthesised value.
  `${'token-'.repeat(170_000)}`,
  `SECRET_KEY = '(${'('.repeat(1_000_000)}'`,
  // Passes 283 to 285's: removed requirepass lines, CouchDB's admins, an ES key pair, Zapier's MCP path.
  `${'-requirepass '.repeat(80_000)}`,
  `[admins]\n${'admin = Qm7xT2vK9pL4wZ8n\n'.repeat(40_000)}`,
  `${'"key": "'.repeat(120_000)}`,
  `"key": "${'a'.repeat(20)}:${'b'.repeat(1_000_000)}"`,
  `${'mcp.zapier.com/api/mcp/s/'.repeat(40_000)}`,
  // A pandas frame's right-aligned rows under a secret's title (a megabyte of rows; a row of a megabyte of cells).
  `     user  password\n${'0  alice  Qm7xT2vK9pL4\n'.repeat(45_000)}`,
  `     user  password\n${'  a'.repeat(330_000)}`,
  `passphrase  ${'a '.repeat(500_000)}`,
  `${'passphrase  a b c d e f g h\n'.repeat(35_000)}`,
  // Passes 286 and 287's: single-dash password options, setters, mkstore, EBS scripts, MQSC, parfiles.
  `${' -password '.repeat(90_000)}`,
  ` -password ${'a1'.repeat(500_000)}`,
  `${".setPassword('".repeat(70_000)}`,
  `mkstore -createCredential${' a'.repeat(500_000)}`,
  `${'FNDCPASS a/b 0 Y '.repeat(55_000)}`,
  `FNDCPASS a/b 0 Y${' c'.repeat(500_000)}`,
  `${"LDAPPWD('".repeat(110_000)}`,
  `USERID="a/${'@'.repeat(1_000_000)}`,
  `${'USERID="a/b'.repeat(90_000)}`,
  // Pass 288's: Splunk's $7$ settings.
  `${'$7$'.repeat(330_000)}`,
  // A section's or block's word repeated on one line (its header was read back to the line's start at each).
  `${'[secrets]'.repeat(110_000)}`,
  `${'a_tokens {'.repeat(100_000)}`,
  `${'"tokens": {'.repeat(90_000)}`,
  `$7$${'A'.repeat(1_000_000)}`,
  // The closing attack's and passes 290-291's edges: one-line Consul tokens, Go-quoted argv, --name/--set, escaped JWKs, Kaltura
  // sessions, Storj grants, Thread TLVs of any first TLV, PHP peppers.
  `"tokens":{${'"agent":"a",'.repeat(80_000)}`,
  `${'"--password" '.repeat(80_000)}`,
  `${' --name=bind_pw --set'.repeat(45_000)}`,
  `${'\\"kty\\":\\"RSA\\",\\"d\\":\\"'.repeat(35_000)}`,
  `${'&ks=djJ8'.repeat(120_000)}`,
  `1${'A'.repeat(1_000_000)}`,
  `${'0510'.repeat(250_000)}`,
  `$CFG->passwordpeppers = [\n${"    1 => 'abcdefghijklmnopq',\n".repeat(30_000)}`,
  `${'write_channel: b"'.repeat(55_000)}`,
  `${'-sysPassword '.repeat(70_000)}`,
  // The stop-time check's: HCL's `tokens = {`, `[admins]` entries with `#`, `userid =` with blanks, escaped prompt quotes.
  `${'tokens = {\n'.repeat(90_000)}`,
  `[admins]\n${'root = a#b#c#d#e\n'.repeat(55_000)}`,
  `${'userid = '.repeat(110_000)}`,
  `${'expect "passphrase for key \\"'.repeat(30_000)}`,
  // Session 47's: Bambu access codes (a name, a block by serial), ArcGIS' GIS(…) and arcpy's DATABASE_AUTH, EMQX's key lines, R's
  // one-blank titles, Moonraker's key API, PHP dots around a made word.
  `${'"access_code": "'.repeat(70_000)}`,
  `"access_code": {\n${'"01P00A033574380": "1234567",\n'.repeat(30_000)}`,
  `${'"access_code": {'.repeat(70_000)}`,
  `${'accessCode: 1234567 '.repeat(50_000)}`,
  `${'GIS(a, "b", '.repeat(90_000)}`,
  `${'"DATABASE_AUTH", "sde", '.repeat(40_000)}`,
  `${'a:abcdefghijklmnopq:administrator'.repeat(30_000)}`,
  `${'x:abcdefghijklmnopq:viewer\n'.repeat(40_000)}`,
  `    user           password admin\n${'1  admin   Rstats4Life_Oslo  TRUE\n'.repeat(30_000)}`,
  `${' password admin password admin'.repeat(35_000)}`,
  `${"password='.abc.'".repeat(60_000)}`,
  // Pass 296's: a Zendesk user's `/token`, curl's `-u KEY:X`, Phrase.setup(…), Mintlify's prefix, a locale's labels, `{name}`.
  `${'a@b.io/token", "'.repeat(60_000)}`,
  `${'x@y.z/token:'.repeat(80_000)}`,
  `${'-u "abcdefghijklmnop1:X" '.repeat(40_000)}`,
  `${'-u abc:X '.repeat(100_000)}`,
  `${'Phrase.setup(this, "'.repeat(50_000)}`,
  `${'mint_'.repeat(200_000)}`,
  `${'mint_dsc_aA1'.repeat(80_000)}`,
  `${'"password": "Neues Passwort Neues Passwort Neues Passwort",\n'.repeat(15_000)}`,
  `${'token:{api_token'.repeat(60_000)}`,
  `service  owner  key  rotated\n${'s  o  abcdefghijklmnopqrstuvwx1  2024\n'.repeat(30_000)}`,
  // Passes 297-300's: Authorization=[, a cut <Password>, Sabre's session, OCPP variables, <Username>, dev-certs, unseal keys, CiviCRM.
  `${'Authorization=[Basic '.repeat(50_000)}`,
  `${'<wsse:Password>'.repeat(70_000)}`,
  `${'<Password Type="x">a '.repeat(50_000)}`,
  `${'Shared/IDL:IceSess'.repeat(60_000)}`,
  `${'"attributeValue":"a",'.repeat(50_000)}`,
  `${'{"attributeValue":"a","component":{"name":"x"},'.repeat(22_000)}`,
  `${'"variable":{"name":"BasicAuthPassword"},'.repeat(25_000)}`,
  `${'<Username>'.repeat(100_000)}`,
  `${'dev-certs https -p '.repeat(55_000)}`,
  `${'Unseal Key 1: '.repeat(70_000)}`,
  `${"define( 'CIVICRM_SITE_KEY', ".repeat(35_000)}`,
  `${'?api_key=DEMO_KEY&'.repeat(55_000)}`,
  // The closing attack adv301's: `:x` anywhere, two-blank JSON blocks, grep -r prefixes, arcpy's anchors, rekey's `Key n:`, OCPP 1.6,
  // escaped Sabre, Mintlify as a context rule, CiviCRM's rotation, labels.
  `${':x'.repeat(500_000)}`,
  `${'-u abcdefghijklmnopqrs1:x'.repeat(40_000)}`,
  `${'auth=("abcdefghijklmnop1", '.repeat(35_000)}`,
  `${'"tokens":  {\n'.repeat(40_000)}`, // (dictKeyItems reads each such line at ~50 µs: linear, measured)
  `a/b.hcl:6:  tokens {\n${'a/b.hcl-7-    agent = "x",\n'.repeat(35_000)}`,
  `${'a/b.conf-'.repeat(110_000)}`,
  `${'"SDE_SCHEMA", "sde", '.repeat(40_000)}`,
  `${'Key 1: '.repeat(140_000)}`,
  `${'{"key":"AuthorizationKey","readonly":false,'.repeat(22_000)}`,
  `${'Shared\\/IDL:IceSess'.repeat(50_000)}`,
  `${'mint_aB1'.repeat(120_000)}`,
  `${"define('CIVICRM_CRED_KEYS', 'aes-cbc:hkdf-sha256:abcdefghijklm ".repeat(15_000)}`,
  `${'"password": "Mot de passe (facultatif) :",\n'.repeat(25_000)}`,
  `[admins]\n${"a = b'c'd'e\n".repeat(80_000)}`,
  // Passes 302-304's: UPS' licence, USPS' USERID, X12 ISA headers, SRA's download ticket.
  `${'<AccessLicenseNumber>'.repeat(50_000)}`,
  `ShippingAPI.dll ${'%20USERID%3D%22'.repeat(60_000)}`,
  `${'ISA*03*abcdefghij*01*'.repeat(45_000)}`,
  `${'~ISA|00|          |01|'.repeat(40_000)}`,
  `${'/download-ticket = "'.repeat(50_000)}`,
  `${'<add key="AuthNetTransactionKey" value="'.repeat(25_000)}`,
  // Session 48's: calls laid over lines, sqlite's short rules, a commented CSV header, MUNGE, sessionId, a quoted query string,
  // YouTube's streamName, a WHIP URL, awk's field picks (a printer: the command line is bounded), Authorization=OAuth.
  `${'f(\n  a,\n)\n'.repeat(80_000)}`,
  `${'GIS(\n'.repeat(150_000)}`,
  `g(\n${'    "a",\n'.repeat(150_000)})\n`,
  `${'x = GIS(\n    "u",\n    "v",\n    "w",\n)\n'.repeat(25_000)}`,
  `id  password\n${'-- '.repeat(300_000)}\n`,
  `${'-- -- ---\n'.repeat(90_000)}`,
  `${'#key,password\n'.repeat(60_000)}`,
  `#key,username,password\n${'"a","b","c1d2e3f4g5",\n'.repeat(40_000)}`,
  `${'MUNGE:'.repeat(150_000)}`,
  `MUNGE:${'A'.repeat(900_000)}`,
  `${'"sessionId":"'.repeat(70_000)}`,
  `${'&sessionId=!AR'.repeat(60_000)}`,
  `${'"key=aB1'.repeat(100_000)}`,
  `${'"streamName": "'.repeat(60_000)}`,
  `${'cloudflarestream.com/'.repeat(45_000)}`,
  `${'Authorization=OAuth '.repeat(50_000)}`,
  // The second round's: call words whose `(` stays open, testing clouds' tunnels, Testmo, Plastic's `|SoC|`, sessionId in quotes,
  // XML and brackets, quoted `'key=`, bare `streamName:`, Authorization `=>`, X-…-Authorization=, setters by position.
  `${'GIS(\n    "a",\n'.repeat(60_000)}`,
  `${'x = GIS("u",\n'.repeat(80_000)}`,
  `${'cohere.Client(  # c\n'.repeat(60_000)}`,
  `+gis = GIS(\n${'+    "a", # (\n'.repeat(60_000)}`,
  `${'getConnection(("("'.repeat(60_000)}`,
  `${'BrowserStackLocal --key '.repeat(40_000)}`,
  `${'sc -u a -k '.repeat(80_000)}`,
  `${'LT --user a '.repeat(70_000)}`,
  `${'testmo_api_'.repeat(90_000)}`,
  `${'|SoC|'.repeat(200_000)}`,
  `${"'sessionId': '!AR".repeat(55_000)}`,
  `${'<sessionId>'.repeat(90_000)}`,
  `${'[sessionId='.repeat(90_000)}`,
  `${"'key=aB1".repeat(100_000)}`,
  `${'streamName: '.repeat(80_000)}`,
  `${'"Authorization"=>"OAuth '.repeat(40_000)}`,
  `${'X-Forwarded-Authorization=OAuth '.repeat(30_000)}`,
  `${'.SetAuthenticationCredentials("a", "'.repeat(25_000)}`,
  `${'JSignPdf -ksp '.repeat(70_000)}`,
  // An element's name then a megabyte of blanks (NESTED_XML_VALUE split the run n ways: n², 3.6 s for 60,000 blanks).
  `<password>${' '.repeat(1_000_000)}x`,
  `<sessionId>${'\t'.repeat(1_000_000)}x`,
  // Session 49's: an OAuth code beside its grant, Gemfury's URL user, EFM's PasswordHash, key material, signing keys' blocks,
  // itsdangerous' tokens (a rule with no literal: long runs of its shape's pieces), quoted phrases' stretches.
  `${"'grant_type': 'authorization_code', 'code': '".repeat(25_000)}`,
  `authorization_code ${'code=aB1'.repeat(100_000)}`,
  `${'https://aBcDeFgHiJkLmNoPqRsT@'.repeat(30_000)}fury.io`,
  `https://${'a'.repeat(1_000_000)}@git.fury.io/`,
  `${'<PasswordHash>'.repeat(70_000)}`,
  `${'<keyMaterial>'.repeat(70_000)}`,
  `keyMaterial: ${' '.repeat(1_000_000)}x`,
  `${'webhookSignatureKeys: {\n'.repeat(40_000)}`,
  `"signing_keys": {\n${'  "a": "Qm7xT2vK9pL4wZ8n",\n'.repeat(40_000)}`,
  `${'WyJjaSIsW10sIjYuMTAuMCJd.Dyl-3A.'.repeat(30_000)}`,
  `ey${'A'.repeat(1_000_000)}.abcdef.${'B'.repeat(27)}`,
  `${'abandon ability able about above absent '.repeat(25_000)}`,
  `"${'abc '.repeat(250_000)}"`,
  `${'.token("a1'.repeat(100_000)}`,
  `${'.basic_auth("a", Some("'.repeat(40_000)}`,
  `cut -d= -f2 ${'<(grep TOKEN .env) '.repeat(50_000)}`,
  `${'"d": "'.repeat(150_000)}`,
  `"p": "${'A'.repeat(1_000_000)}`,
  `${'<application-desc><argument>'.repeat(35_000)}`,
  `${'&lt;a:PasswordHash&gt;'.repeat(40_000)}`,
  `${"'PasswordHash': '".repeat(50_000)}`,
  `grant_type=authorization_code ${'map[code:['.repeat(90_000)}`,
  `${'[x.signing_keys]\ncurrent = "'.repeat(30_000)}`,
  `${'NDI.axa58A.'.repeat(80_000)}`,
  `${'&otp='.repeat(150_000)}`,
  // Session 50's: `code`, `master` and `bearer` as names before a separator (their siblings read above and below), print_r's rows,
  // .NET's RSA XML, OnCall's URL, Ruby's `@routing_key=`, an untimed itsdangerous token of a number, Go's `%+v` after a key header.
  `${'  "code": "'.repeat(100_000)}`,
  `${'    [code] => aB1'.repeat(60_000)}`,
  `(\n${'    [code] => aB1cD2eF3gH4iJ5kL6\n'.repeat(40_000)}`,
  `{\n${'  "code": "aB1cD2eF3gH4iJ5kL6",\n'.repeat(40_000)}`,
  `${"{'code': 'aB1cD2eF3gH4iJ5kL6', ".repeat(30_000)}`,
  `code: ${'a1'.repeat(500_000)}`,
  `${'X_MASTER='.repeat(100_000)}`,
  `${'json.auth.bearer = "'.repeat(50_000)}`,
  `${'<P>'.repeat(300_000)}`,
  `<D>${'A'.repeat(1_000_000)}`,
  `${'/integrations/v1/a/'.repeat(50_000)}`,
  `${'@routing_key="'.repeat(60_000)}`,
  `${'MTIzNDU.'.repeat(120_000)}`,
  `APIKey:${' aB:'.repeat(250_000)}`,
  `${'"op": "auth", "args": ["'.repeat(50_000)}`,
  `${'pdl_ntfset_'.repeat(90_000)}`,
  `password: ${'string(1) '.repeat(100_000)}`,
  `${'<p id="hmac">'.repeat(70_000)}`,
  `<p key="api_key">${'a'.repeat(1_000_000)}`,
  `{'a': {${"'account': 'x',\n".repeat(50_000)}`,
  `${'1 hmac(sha256) '.repeat(70_000)}`,
  `1 ${'cbc(aes) 0a1b2c3d4e5f60718293a4b5c6d7e8f9 '.repeat(25_000)}`,
  `user a ${'payload >x '.repeat(90_000)}`,
  `${'* >'.repeat(300_000)}`,
  `${'X_PRIMARY_KEY='.repeat(70_000)}`,
  // The closing attack's mends: namespaced, escaped and DSA key XML, attribute-named keys with more attributes, exchange logins in
  // any quotes and order, Lombok's `passwordHash=`, a master key's shape, camelCase `Master`, bare `bearer`.
  `${'<xkms:D>'.repeat(120_000)}`,
  `&lt;D&gt;${'A\\/'.repeat(300_000)}`,
  `<Y>a ${'<X>'.repeat(200_000)}`,
  `${'<p preference-id="a_hmac" x="y"'.repeat(30_000)}`,
  `${'"args": ["aB1cD2eF3gH4iJ5kL6", '.repeat(30_000)}`,
  `${"{'op': 'auth', 'args': ['".repeat(40_000)}`,
  `${'"method": "user.auth", "params": ["API", "'.repeat(25_000)}`,
  `${'passwordHash='.repeat(80_000)}`,
  `${'meiliMaster: '.repeat(80_000)}`,
  `${'"bearer": "'.repeat(90_000)}`,
  `${'routing_key=\'0a1b2c3d4e5f60718293a4b5c6d7e8f9\' '.repeat(20_000)}`,
  `${'WzkxNTEsInJlc2V0Il0.'.repeat(50_000)}`,
  `"min_numeric": 0 ${'"result": "a'.repeat(80_000)}`,
  `"override_special": "x", ${'"result": "ab", '.repeat(60_000)}`,
  ];
  hostile.forEach((t, i) => {
    it(`hostile text ${i + 1} stays linear: ${JSON.stringify(t.slice(0, 32))} (hang guard)`, () => {
      // CPU time, not wall time: under a loaded CI machine a case's wall time grew 5-fold (run 302's neighbours), its CPU time does not.
      const started = process.cpuUsage();
      viaText(t);
      viaBytes(t);
      const cpu = process.cpuUsage(started);
      // hang guard only (each takes one or two CPU seconds on a fast machine): the quadratic forms took 8-50 s per megabyte;
      // the budget grows on a slower machine (test-cpu-budget.ts)
      expect((cpu.user + cpu.system) / 1000, t.slice(0, 40)).toBeLessThan(HANG_CPU_MS);
    });
  });

  it("hostile curl traces stay linear: a megabyte of --trace-ascii and --trace rows, empty, full, joined into one value or a header a row (hang guard)", () => {
    const off = (n: number) => n.toString(16).padStart(4, '0');
    /** `--trace-ascii`'s rows of `data`: 64 characters a row at offsets that join them into one line. */
    const asciiRows = (data: string) => Array.from({ length: Math.ceil(data.length / 64) }, (_, i) => `${off(i * 64)}: ${data.slice(i * 64, i * 64 + 64)}\n`).join('');
    /** `--trace`'s rows of `data`: 16 bytes a row, in hex and as characters. */
    const hexRows = (data: string) =>
      Array.from({ length: Math.ceil(data.length / 16) }, (_, i) => {
        const row = data.slice(i * 16, i * 16 + 16);
        return `${off(i * 16)}: ${[...row].map((c) => `${c.charCodeAt(0).toString(16)} `).join('').padEnd(48)}${row}\n`;
      }).join('');
    const B64 = 'Qm7xT2vK9pL4wZ8nA1sD3fG5hJ7kL9zX2cV4bN6m';
    const hostile = [
      // Rows with nothing, full rows at one offset (a line break between each), a token a megabyte long over joined rows.
      '0000: \n'.repeat(160_000),
      `0000: ${'A'.repeat(64)}\n`.repeat(14_000),
      asciiRows(`Authorization: Bearer ${B64.repeat(23_000)}`),
      // Rows cut at a CRLF each (one character a header; a bearer header a row), secrets' names over joined rows, no row at all.
      Array.from({ length: 110_000 }, (_, i) => `${off(i * 3)}: a\n`).join(''),
      Array.from({ length: 20_000 }, (_, i) => `${off(i * 48)}: Authorization: Bearer ${B64.slice(0, 24)}\n`).join(''),
      asciiRows('"secret":"'.repeat(100_000)),
      `0000: ${'a'.repeat(1_000_000)}`,
      // --trace: a token a megabyte long, rows whose characters are not their bytes, short last rows on every line, names.
      hexRows(`Authorization: Bearer ${B64.repeat(4_500)}`),
      `0000: ${'41 '.repeat(16)}BBBBBBBBBBBBBBBB\n`.repeat(13_000),
      `0000: 41 ${' '.repeat(45)}A\n`.repeat(20_000),
      hexRows('"secret":"'.repeat(20_000)),
    ];
    for (const t of hostile) {
      const started = process.cpuUsage();
      viaText(t);
      viaBytes(t);
      new Redactor().maskCommandOutput('curl --trace-ascii - https://api.example.com', t);
      const cpu = process.cpuUsage(started);
      expect((cpu.user + cpu.system) / 1000, t.slice(0, 40)).toBeLessThan(HANG_CPU_MS);
    }
  });

  // Session 45: a rule's keyword then a long run of blanks. Two runs of blanks side by side (`[ \t]*=?[ \t]*`, `[ \t]*,?[ \t]*`), a
  // lazy value ended by a look ahead over blanks, a look behind tried at every blank: each split a run of n blanks n ways, n² in
  // all — `password` then a megabyte of blanks (a psql `-x` title's padding) had hung the scanner, `recovery code:` then 20,000
  // blanks took 7 s. Every rule's keyword is tried here with 30,000 blanks after it: linear, a few milliseconds; quadratic, a
  // second and up.
  it('every context rule keyword followed by a long run of blanks stays linear, in both scan paths and the quick check (hang guard)', () => {
    const keywords = new Set([...HEADERS, ...COMMAND_LINE, ...FILES].flatMap((r) => r.keywords ?? []));
    expect(keywords.size).toBeGreaterThan(500);
    const slow: string[] = [];
    for (const k of keywords)
      for (const t of [`${k}${' '.repeat(BLANK_RUN)}x\n`, `${k}:${'\t'.repeat(BLANK_RUN)}x\n`, `${k}=${' '.repeat(BLANK_RUN)}x\n`]) {
        const started = process.cpuUsage();
        scanSecrets(t);
        viaBytes(t);
        mayHoldSecret(t);
        const cpu = process.cpuUsage(started);
        if ((cpu.user + cpu.system) / 1000 > BLANK_RUN_CPU_MS) slow.push(JSON.stringify(t.slice(0, k.length + 2)));
      }
    expect(slow).toEqual([]);
  });

  it("hostile output of a credential printer stays linear: a box table's titles with no bottom, an echo among others' lines (hang guard)", () => {
    const hostile: [string, string][] = [
      ['infisical secrets', '│ SECRET VALUE │\n'.repeat(60_000)],
      // Session 44's query rows by column: a megabyte of rows, of bars, of `-column` rows, of `-line` pairs.
      ["sqlite3 a.db 'select id, token from t'", '1|tok_abcdefghijklmnop\n'.repeat(45_000)],
      ["sqlite3 -header a.db 'select * from tokens'", `id|token\n${'|'.repeat(1_000_000)}\n`],
      ["sqlite3 -column a.db 'select id, token from t'", `id  token\n--  -----\n${'1   abcdefghijklmnopq\n'.repeat(45_000)}`],
      ["sqlite3 -line a.db 'select id, token from t'", ' id = 1\ntoken = tok_abcdefghijklmnop\n'.repeat(30_000)],
      // Session 45's: psql's expanded rows, a megabyte of records, of pairs, of one title's padding; sed's picked lines of a key file;
      // jq of Signal's config.
      ["psql -x -c 'select id, password from t'", '-[ RECORD 1 ]--\n'.repeat(60_000)],
      ["psql -x -c 'select * from t'", 'id       | 1\npassword | Qm7xT2vK9pL4wZ8n\n'.repeat(30_000)],
      ["psql -x -c 'select * from t'", `-[ RECORD 1 ]--\npassword${' '.repeat(1_000_000)}| x\n`],
      ["sed -n '1,$p' Kddns.+163+1.private", 'Key: QW1hYmNkZWZnaGlqa2xtbm9w\n'.repeat(35_000)],
      ['jq . Signal/config.json', `  "key": "${'a'.repeat(1_000_000)}"\n`],
      // Session 46's: a settings table's rows (a megabyte of them, of `\G` pairs, a megabyte name cell), EZproxy's user.txt rows.
      ["sqlite3 a.db 'select setting_name, setting_value from s'", 'apiKey|Qm7xT2vK9pL4wZ8n\n'.repeat(45_000)],
      ["mysql -e 'select * from s\\G'", ' setting_name: smtpPassword\nsetting_value: Qm7xT2vK9pL4wZ8n\n'.repeat(20_000)],
      ["sqlite3 -header a.db 'select * from s'", `name|value\n${'a'.repeat(1_000_000)}|b\n`],
      ["grep -v '^#' user.txt", 'u:Qm7xT2vK9pL4wZ8n:admin\nSHA512 Qm7xT2vK9pL4wZ8n\n'.repeat(25_000)],
      ["grep -v '^#' user.txt", `SHA512${' '.repeat(1_000_000)}x`],
      ["sed -n 's/^Key: //p' Kddns.+163+1.private", 'QW1hYmNkZWZnaGlqa2xtbm9w\n'.repeat(35_000)],
      // jq's to_entries rows, secrets.yaml as a dict, a glob's sections.
      [`jq -r 'to_entries[] | "\\(.key)\\t\\(.value)"' s.json`, 'password\tQm7xT2vK9pL4wZ8n\tQm7xT2vK9pL4\n'.repeat(35_000)],
      [`jq -r 'to_entries[] | "\\(.key)\\t\\(.value)"' s.json`, `${'a'.repeat(1_000_000)}\tb`],
      [`jq -r 'to_entries[] | "\\(.key)\\t\\(.value)"' s.json`, `password${'\t'.repeat(1_000_000)}`],
      [`python3 -c "print(open('secrets.yaml'))"`, " 'api_key': 'Qm7xT2vK9pL4wZ8n',\n".repeat(35_000)],
      [`python3 -c "print(open('secrets.yaml'))"`, ` '${'a'.repeat(1_000_000)}`],
      ['head openvpn/client/*', '==> openvpn/client/auth.txt <==\nQm7xT2vK9pL4wZ8n\n'.repeat(25_000)],
      ['cat oxidized/router.db', 'h:ios:u:Qm7xT2vK9pL4:Zn8x\n'.repeat(45_000)],
      ['cat oxidized/router.db', `h:ios:u:${':'.repeat(1_000_000)}`],
      // jq's cookie lines, a key API's fields.
      [`jq -r '.cookies[] | "\\(.name)=\\(.value)"' s.json`, 'sid=Qm7xT2vK9pL4wZ8n\n'.repeat(55_000)],
      [`jq -c '.cookies[] | {name, value}' s.json`, `${'{"name":"a","value":"Qm7xT2vK9pL4wZ8n"}'.repeat(25_000)}\n`],
      [`jq -c '.cookies[] | {name, value}' s.json`, `{"name":"${'a'.repeat(1_000_000)}`],
      ['curl -s http://127.0.0.1:7700/keys', '  "key": "Qm7xT2vK9pL4wZ8n",\n'.repeat(35_000)],
      [`sed -n 's/${'\\/'.repeat(100_000)}//p' Kddns.+163+1.private`, 'x\n'],
      // Passes 266's: cookies picked by jq, as tab-separated rows or built lines.
      [`jq -r '.cookies[] | [.name, .value, .domain] | @tsv' s.json`, 'sid\tQm7xT2vK9pL4wZ8n\texample.com\n'.repeat(40_000)],
      [`jq -r '.cookies[] | [.name, .value] | @tsv' s.json`, `${'\t'.repeat(1_000_000)}\n`],
      ['infisical secrets', `│ SECRET VALUE │\n${'│ x │ Qm7xT2vK9pL4wZ8n │\n'.repeat(50_000)}`],
      ['cat notes.txt; echo "$TOKEN"', 'Qm7xT2vK9pL4wZ8n-eRHGOrdFLY\n'.repeat(40_000)],
      ['cut -c1-9 .env; printf %s "$TOKEN" | fold -w 10', 'h f _ y F B k I N Q R r Q U k p\n'.repeat(30_000)],
      // Session 18's: text written backwards (each line read forwards by the scanner), any settings cut at `=`.
      ['rev notes.txt', 'abcdef=GHIJKL\n'.repeat(75_000)],
      ['cut -d= -f2- settings.txt', 'Qm7xT2vK9pL4wZ8n\n'.repeat(60_000)],
      // Session 21's: tr's substitution read back line by line (rot13).
      ["tr 'A-Za-z' 'N-ZA-Mn-za-m' < notes.txt", 'NCV_GBXRA=fx_yvir_Nn1Nn1Nn1Nn1Nn1Nn1Nn1Nn1\n'.repeat(25_000)],
      // Session 27's: credentials files' rows, each a megabyte line of blanks inside or no closing quote.
      ['cat /etc/postfix/sasl_passwd', `h u:p${' '.repeat(1_000_000)}x${' '.repeat(1_000)}`],
      ['cat /etc/postfix/sasl_passwd', `h ${'u'.repeat(1_000_000)}`],
      ['cat /etc/davfs2/secrets', `/m u "p${' '.repeat(1_000_000)}"x `],
      ['cat /etc/pgbouncer/userlist.txt', `"u" "${'x'.repeat(1_000_000)}`],
      ['cat .htpasswd', `u:${'$a '.repeat(350_000)}`],
      ['cat .htpasswd', 'u:$apr1$abc$def\n'.repeat(70_000)],
      // Session 29's: a secrets.yaml's rows (a megabyte name, an unclosed quote before a megabyte of blanks, a row per line).
      ['cat secrets.yaml', `${'a_'.repeat(500_000)}x: y`],
      ['cat secrets.yaml', `a: "${'b '.repeat(500_000)}`],
      ['cat secrets.yaml', 'wifi_password: "Qm7xT2vK9pL4"\n'.repeat(35_000)],
      // Session 33's: jq's object of renamed secrets, thousands of entries over a megabyte of output.
      [`jq '{${'a: .b.password, '.repeat(20_000)}}' c.json`, '"a": "Qm7xT2vK9pL4wZ8n",\n'.repeat(40_000)],
      ['./occ config:system:get dbpassword', 'Qm7xT2vK9pL4wZ8n\n'.repeat(60_000)],
      [`jq -r '.[] | [${'.a, '.repeat(30_000)}.password] | @tsv' u.json`, 'a\tQm7xT2vK9pL4wZ8n\n'.repeat(60_000)],
      [`jq '{${'(.a): .b, '.repeat(20_000)}(.n): .password}' u.json`, '  "a": "Qm7xT2vK9pL4wZ8n",\n'.repeat(40_000)],
      [`jq -r '${'[.a, .b] | '.repeat(20_000)}@csv' u.json`, '"a","b"\n'.repeat(60_000)],
      // Session 34's: Java servers' credentials files picked by grep (a megabyte row, rows of blanks, grep's prefixes on every line).
      ["grep -v '^#' conf/jmxremote.password", `a ${'b '.repeat(500_000)}`],
      ["grep -v '^#' conf/jmxremote.password", 'monitorRole  Qm7xT2vK9pL4wZ8n\n'.repeat(35_000)],
      ['grep -H -v ^# users.properties', `users.properties:${'a'.repeat(1_000_000)}`],
      ['grep -H -v ^# users.properties', 'users.properties:1:admin=Qm7xT2vK9pL4wZ8n, admin\n'.repeat(20_000)],
      ['grep -n . jetty-realm.properties', `1:admin: ${' ,'.repeat(500_000)}`],
      ['python3 unstash.py key.sth', 'Qm7xT2vK9pL4wZ8n\n'.repeat(60_000)],
      // A megabyte word as a credentials file's row (its documentation-domain test read the word from each character: 2 s for 50 KB).
      ['cat /etc/rsyncd.secrets', 'a'.repeat(1_000_000)],
      // A printer's values by the tens of thousands, all masking its output (its own store, past the session's 128).
      ['cat /etc/rsyncd.secrets', Array.from({ length: 40_000 }, (_, i) => `u${i}:Qm7xT2vK${i}pL4wZ8n`).join('\n')],
      // The own attack's leftovers: a base64 decoder's user:password lines, strings' names above values, jmx rows under grep -r's prefix.
      ['base64 '.repeat(100_000), 'x\n'],
      ['echo x | base64 -d', 'u:Qm7xT2vK9pL4wZ8n\n'.repeat(60_000)],
      ['echo x | base64 -d', `u:${'a'.repeat(1_000_000)}`],
      ['strings -el NTUSER.DAT', 'DefaultPassword\nQm7xT2vK9pL4wZ8n\n'.repeat(40_000)],
      ['grep -r Role conf/', 'conf/jmxremote.password:monitorRole  Qm7xT2vK9pL4wZ8n\n'.repeat(30_000)],
      ['grep -r Role conf/', `${'a/'.repeat(500_000)}jmxremote.password:x y`],
      ['grep -r Role conf/', `conf/jmxremote.password:${'a'.repeat(300)} ${' '.repeat(1_000_000)}x`],
      ['openssl enc '.repeat(50_000), 'x\n'],
      ['python3 vncpwd.py x.ini', 'passwd   3F9474273D29492F00 -> Qm7xT2vK9pL4\n'.repeat(25_000)],
      [`python3 -c "print(base64.b64decode(${'a'.repeat(100_000)}.findtext('Pass')))"`, 'h u Qm7xT2vK9pL4wZ8n\n'.repeat(50_000)],
      [`python3 -c "${'b64decode('.repeat(50_000)}"`, 'x\n'],
    ];
    // A line still being printed (openTail), a megabyte long without a break, under a megabyte line of names; read ten times.
    for (const [above, open] of [['key: '.repeat(200_000), 'a'.repeat(1_000_000)], ['x\n', `${'password: '.repeat(100_000)}Qm7x`], [`${'token: aaaaaaaaaaaaaaaaaaaa'.repeat(40_000)}\n`, 'Qm7xT2vK9pL4']]) {
      const started = process.cpuUsage();
      const r = new Redactor();
      r.noteCommand('c1', 'cat config.yml');
      r.stream('c1').pushBytes(Buffer.from(`${above}\n${open}`));
      for (let i = 0; i < 10; i++) r.maskLines('c1', [{ n: 2, text: open.slice(-200) }]);
      const cpu = process.cpuUsage(started);
      expect((cpu.user + cpu.system) / 1000, `${above.slice(0, 20)} / ${open.slice(0, 20)}`).toBeLessThan(HANG_CPU_MS);
    }
    for (const [command, t] of hostile) {
      const started = process.cpuUsage();
      new Redactor().maskCommandOutput(command, t);
      const cpu = process.cpuUsage(started);
      expect((cpu.user + cpu.system) / 1000, `${command}: ${t.slice(0, 40)}`).toBeLessThan(HANG_CPU_MS);
    }
  });
});

/**
 * A database client's rows read by column (query-rows.ts): the cells of the query's secret columns masked, its other columns and
 * its titles kept, in each output mode the clients print; rows that do not split into the list's cells masked whole, as before.
 */
import { describe, expect, it } from 'vitest';
import { Redactor } from './redactor.js';

/** A fixed linear congruential generator: the same fake values every run. */
let seed = 91;
const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
const s = (alpha: string, n: number) => Array.from({ length: n }, () => alpha[Math.floor(rnd() * alpha.length)]).join('');
const AN = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const tok = () => `tok_${s(AN, 28)}`;

describe("a query's rows by column", () => {
  it('mask the secret columns and keep the others, in sqlite3, psql and mysql output modes', () => {
    const [a, b] = [tok(), tok()];
    const cases: [string, string, string[]][] = [
      ["sqlite3 -header app.db 'select * from auth_tokens'", `id|account_id|token|expires_at\n1|42|${a}|2025-01-01\n2|43|${b}|2025-02-01\n`, ['id|account_id|token|expires_at', '1|42|', '|2025-01-01', '2|43|']],
      ["sqlite3 app.db 'select id, email, api_key from users'", `1|a@example.com|${a}\n2|b@example.com|${b}\n`, ['1|a@example.com|', '2|b@example.com|']],
      ["sqlite3 -csv app.db 'select id, token from sessions'", `1,${a}\n`, ['1,']],
      ["sqlite3 -line app.db 'select id, api_key from users'", `     id = 7\napi_key = ${a}\n`, ['     id = 7\napi_key = ']],
      ["sqlite3 -header -column app.db 'select id, api_key from users'", `id  api_key\n--  --------------------------------\n1   ${a}\n`, ['id  api_key', '\n1   ']],
      ["sqlite3 -box app.db 'select id, api_key from users'", `┌────┬──────────────────────────────────┐\n│ id │             api_key              │\n├────┼──────────────────────────────────┤\n│ 1  │ ${a} │\n└────┴──────────────────────────────────┘\n`, ['│ id │             api_key              │', '│ 1  │ ']],
      ["psql -c 'select id, name, token from api_tokens'", ` id | name |            token\n----+------+----------------------------------\n  1 | ci   | ${a}\n  2 | bot  | ${b}\n(2 rows)\n`, ['  1 | ci   | ', '  2 | bot  | ', '(2 rows)']],
      ["mysql -e 'select id, api_key from users'", `+----+----------------------------------+\n| id | api_key                          |\n+----+----------------------------------+\n|  1 | ${a} |\n+----+----------------------------------+\n`, ['| id | api_key                          |', '|  1 | ']],
      ["mysql -B -e 'select id, api_key from users'", `id\tapi_key\n1\t${a}\n`, ['id\tapi_key\n1\t']],
    ];
    for (const [cmd, text, kept] of cases) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of [a, b]) expect(shown, cmd).not.toContain(v);
      for (const k of kept) expect(shown, cmd).toContain(k);
    }
  });

  it('mask a row whole when it does not split into the list, and keep a credential-like column beside a secret masked', () => {
    const [a, b] = [tok(), tok()];
    // A value holding the separator: the row's cells are more than the list's.
    const split = new Redactor().maskCommandOutput("sqlite3 app.db 'select id, api_key from users'", `1|${a}|x\n`);
    expect(split).not.toContain(a);
    expect(split).not.toContain('1|');
    // A column the list shows beside the secret, whose name is a credential's word: masked too.
    const enc = new Redactor().maskCommandOutput("sqlite3 app.db 'select id, api_key, api_key_enc from users'", `1|${a}|${b}\n`);
    expect(enc).toContain('1|');
    for (const v of [a, b]) expect(enc).not.toContain(v);
    // `select *` without a header line: no titles to read by, masked whole.
    const star = new Redactor().maskCommandOutput("sqlite3 app.db 'select * from api_tokens'", `1|42|${a}\n`);
    expect(star).not.toContain(a);
    expect(star).not.toContain('42');
  });

  it('read a stream of rows by the header its first chunk held: aws ssm get-parameters-by-path --output table through the PTY (pass 257 F26)', () => {
    const value = `Thunder${s(AN, 8)}20!`;
    const cmd = 'aws --endpoint-url http://127.0.0.1:18259 ssm get-parameters-by-path --path /prod --with-decryption --output table';
    const head = '----------------------------\n|   GetParametersByPath    |\n||  ARN  |  DataType  |  LastModifiedDate  |  Name  |  Type  |  Value  |  Version  ||\n|+-------+------------+\n';
    const row = `||  arn:aws:ssm:us-east-1:418273645091:parameter/prod/admin_password  |  text  |  1714000000.5  |  /prod/admin_password  |  SecureString |  ${value}  |  9  ||\n`;
    const r = new Redactor();
    r.noteCommand('c1', cmd);
    const stream = r.stream('c1');
    // (The session's stream learns what its chunks print; the reply is masked with what it learned.)
    stream.push(head);
    stream.push(row);
    stream.flush();
    const shown = r.mask(head + row);
    expect(shown).not.toContain(value);
    expect(shown).toContain('/prod/admin_password');
    // Kamailio's `ha1` beside the password is a credential too (digest auth signs in with it: pass 255 F10).
    const ha1 = s('0123456789abcdef', 32);
    const kam = new Redactor().maskCommandOutput("sqlite3 -header -column kamailio.db 'SELECT id, username, password, ha1 FROM subscriber'", `id  username  ${'password'.padEnd(value.length)}  ha1\n--  --------  ${'-'.repeat(value.length)}  ${'-'.repeat(32)}\n1   1001      ${value}  ${ha1}\n`);
    expect(kam).not.toContain(ha1);
    expect(kam).toContain('1   1001');
  });
});

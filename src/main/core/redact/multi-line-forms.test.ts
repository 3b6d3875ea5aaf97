/**
 * The adversary pass's forms whose value is not on its key's line or not in plain text (issue 21,
 * M14-M23): YAML block scalars, pretty JSON with the value on the next line, URL-encoded bodies,
 * base64 of a credentials-file line, prompts that name their target or speak another language.
 * Each is masked in a reply; the engine's byte path (raw chunks cut anywhere) remembers what the
 * text path remembers; a read window that starts below the key still hides the value; the CLI's
 * quick check says "look"; and their look-alikes stay as printed.
 */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Redactor } from './redactor.js';
import { StreamMasker } from './stream-masker.js';
import { mayHoldSecret } from './quick-check.js';

const V = 'Ux3Vy7Wz1Xa5Yb9C';
const W = 'Ft6Gu0Hv4Iw8Jx2Kq';
/** [form, text, the values that must not show]. */
const secrets: [string, string, string[]][] = [
  ['yaml block scalar |', `db:\n  password: |\n    ${V}\n  host: db\n`, [V]],
  ['yaml block scalar >- over two lines', `stringData:\n  api_token: >-\n    ${V}\n    ${W}\n\n  region: eu\n`, [V, W]],
  ['yaml block scalar in a list item', `users:\n  - name: ci\n    password: |-\n      ${V}\n  - name: bob\n`, [V]],
  // Adversary pass 19: salt's nested outputter, ClickHouse's header in the border, DuckDB's row of types under the header.
  ['salt pillar.items, the value alone under its key', `db1.acme.io:\n    mysql:\n        replication:\n            password:\n                ${V}\n            user:\n                repl\n`, [V]],
  ['clickhouse PrettyCompact, the column named in the top border', `┌─name────┬─api_key──────────┬─created_at─┐\n│ hubspot │ ${V} │ 2024-03-01 │\n│ partner │ ${W}│ 2024-03-05 │\n└─────────┴──────────────────┴────────────┘\n`, [V, W]],
  ['duckdb box, a row of types under the header', `┌─────────┬──────────────────┐\n│  name   │      token       │\n│ varchar │     varchar      │\n├─────────┼──────────────────┤\n│ hubspot │ ${V} │\n└─────────┴──────────────────┘\n`, [V]],
  ['influx auth list, a tab-aligned table with a Token column', `ID\t\t\tDescription\t\tToken\t\t\t\tUser Name\tUser ID\n0c1e9a7f3b2d4000\tadmin's Token\t\t${V}\tadmin\t\t0c1e9a7f3a8d4000\n`, [V]],
  ['pretty json, value on the next line', `{\n  "client_secret":\n    "${V}",\n  "client_id": "app"\n}\n`, [V]],
  ['url-encoded json body', `body=%7B%22password%22%3A%22${V}%22%7D\n`, [V]],
  ['url-encoded form body', `data=username%3Dbob%26password%3D${V} sent\n`, [V]],
  ['base64 of an aws credentials line', `${Buffer.from(`aws_secret_access_key = ${V}${W}\n`).toString('base64')}\n`, [V]],
  ['ssh key passphrase echoed', `Enter passphrase for key '/root/.ssh/id_ed25519': ${V}\n`, [V]],
  ['ssh password echoed', `bob@10.0.0.5's password: ${V}\n`, [V]],
  ['sudo password echoed', `[sudo] password for bob: ${V}\n`, [V]],
  ['git https password echoed', `Password for 'https://bob@github.com': ${V}\n`, [V]],
  ['german prompt', `Passwort: ${V}\n`, [V]],
  ['russian prompt', `Пароль: ${V}\n`, [V]],
  ['chinese prompt, full-width colon', `密码：${V}\n`, [V]],
  ['japanese prompt', `パスワード: ${V}\n`, [V]],
  ['spanish prompt', `Contraseña: ${V}\n`, [V]],
  ['french prompt', `Mot de passe : ${V}\n`, [V]],
  ['polish prompt', `Hasło: ${V}\n`, [V]],
  ['turkish prompt', `Şifre: ${V}\n`, [V]],
  // A section whose every entry is a credential (credential-sections.ts): a long cookie list, serverless' api keys.
  ['a cookie list, its value 14 lines down', `{\n  "cookies": [\n${Array.from({ length: 2 }, (_, i) => `    {\n      "name": "c${i}",\n      "value": "${i === 1 ? V : 'v' + i + 'xxxx'}",\n      "domain": "localhost",\n      "path": "/",\n      "expires": -1,\n      "httpOnly": false,\n      "secure": false,\n      "sameSite": "Lax"\n    }`).join(',\n')}\n  ],\n  "origins": []\n}\n`, [V]],
  // Adversary pass 15: a value under a rule below its name, a DynamoDB typed attribute, an etcd key's value line.
  ['kubectl describe configmap data', `Data\n====\nDB_HOST:\n----\ndb.internal\n\nDB_PASSWORD:\n----\n${V}\n\nBinaryData\n====\n`, [V]],
  ['a DynamoDB item', `{\n    "Item": {\n        "refresh_token": {\n            "S": "${V}"\n        },\n        "pk": {\n            "S": "TENANT#42"\n        }\n    }\n}\n`, [V]],
  ['etcdctl get --prefix', `/config/shop/db_host\ndb.internal\n/config/shop/db_password\n${V}\n/config/shop/port\n5432\n`, [V]],
  ['PostgreSQL logs a statement, then its parameters', `2024-03-11 10:22:33.901 UTC [48213] app@shop LOG:  duration: 1.093 ms  execute <unnamed>: UPDATE "users" SET "password_reset_token" = $1, "updated_at" = $2 WHERE "id" = $3\n2024-03-11 10:22:33.901 UTC [48213] app@shop DETAIL:  parameters: $1 = '${V}', $2 = '2024-03-11 10:22:33.9', $3 = '42'\n`, [V]],
  ['PostgreSQL logs an INSERT, then its parameters', `LOG:  execute <unnamed>: INSERT INTO "api_tokens" ("name", "token") VALUES ($1, $2)\nDETAIL:  parameters: $1 = 'ci', $2 = '${W}'\n`, [W]],
  ['a Terraform state of a random password', `{\n  "mode": "managed",\n  "type": "random_password",\n  "name": "db",\n  "instances": [\n    {\n      "attributes": {\n        "id": "none",\n        "length": 24,\n        "result": "${V}",\n        "special": true\n      }\n    }\n  ]\n}\n`, [V]],
  ["sqlite3's -header list mode", `id|user_id|token|expires_at\n118|42|${V}|2024-04-10 10:22:31\n117|43|${W}|2024-04-10 09:58:02\n`, [V, W]],
  ["aws apigateway get-api-keys --include-values (the value before the name)", `{\n    "items": [\n        {\n            "id": "nyt2x0sujy",\n            "value": "${V}${W}",\n            "name": "partner-acme",\n            "enabled": true,\n            "stageKeys": []\n        }\n    ]\n}\n`, [V + W]],
  ["R's Sys.getenv() (padded names)", `CENSUS_API_KEY                  ${V}\nR_LIBS_USER                     /home/dana/R/library/4.3\nSHINYAPPS_TOKEN                 ${W}\n`, [V, W]],
  // Adversary pass 50: a Python / TOML string in three quotes, its value on the lines below (a window from its second line on).
  ['a python string in three quotes, the value on the next lines', `import os\nSECRET_KEY = \"\"\"\n${V}${W}\n${W}${V}\n\"\"\"\nALLOWED_HOSTS = []\n`, [V + W, W + V]],
  ["a TOML password in three quotes on the next line", `[db]\npassword = '''\n${V}${W}\n'''\nhost = "db"\n`, [V + W]],
  ["serverless' api keys block", `api keys:\n  partner: ${V}${W} - Partner integration key\n  internal: ${W}${V}\nendpoints:\n  GET - https://x.execute-api.eu-west-1.amazonaws.com/prod/orders\n`, [V + W, W + V]],
  // Pass 171 S27: a test grid's access key beside its user in a runner's config (WebdriverIO's BrowserStack and Sauce Labs).
  ['wdio config: a bare key under its user (Sauce Labs UUID)', `exports.config = {\n    user: 'oauth-dev-1a2b3',\n    key: '6f1d9a2c-3b4e-4f5a-9c8d-7e6f5a4b3c2d',\n    region: 'us',\n`, ['6f1d9a2c-3b4e-4f5a-9c8d-7e6f5a4b3c2d']],
  ['wdio config: user and key on one line, and grep -n -A1 of them (BrowserStack)', `const grid = { user: 'dev_Xk3B9s', key: '${V}x1Q7' };\nwdio.conf.js:12:  user: 'dev_Xk3B9s',\nwdio.conf.js-13-  key: '${W}',\n`, [`${V}x1Q7`, W]],
];
const lookAlikes: [string, string][] = [
  ['block scalar holding a reference', 'db:\n  password: |\n    ${DB_PASSWORD}\n  host: db\n'],
  ['block scalar under a key that is no secret', 'app:\n  description: |\n    Rotates the token every hour\n  password_min_length: 12\n'],
  ['next-line json under a key that is no secret', '{\n  "client_id":\n    "app-frontend"\n}\n'],
  ['url-encoded json without a secret', 'q=%7B%22name%22%3A%22bob%22%2C%22page%22%3A2%7D\n'],
  ['a prompt with nothing after it', 'Passwort: \r\nAnmeldung erfolgreich\r\n'],
  ['a prompt followed by the next output', 'Passwort: erhalten 12 Zeichen\n'],
  ['sudo prompt then its next line', '[sudo] password for bob: \r\nSorry, try again.\r\n'],
  ['a prompt with a status word', 'Password for bob: done\n'],
  ['a cookie list of flags (values shorter than 4)', '{"cookies": [{"name": "consent", "value": "1"}, {"name": "lang", "value": "de"}]}\n'],
  ['a list of cookies that is no cookie list (a count)', '"cookies": 3,\n"value": "Ux3Vy7Wz1Xa5Yb9C"\n'],
  ['a find of files named for secrets (each line a path)', '/etc/ssl/private/db_password\n/etc/ssl/private/api_token\n/usr/share/doc/secret\n'],
  ['an etcd key that names no secret', '/config/shop/db_host\ndb-primary-01.internal\n'],
  ["gh secret list without a terminal (when each was set)", 'DB_PASSWORD\t2024-03-11T10:22:31Z\nNPM_TOKEN\t2024-02-02T08:00:00Z\n'],
  ['padded names whose values are words or paths', 'GITHUB_TOKEN                    (set)\nSSH_AUTH_SOCK                   /tmp/ssh-XXXX/agent.123\nAPI_KEY_FILE                    /run/secrets/api_key\n'],
  ['PostgreSQL parameters bound to columns that name no secret', `LOG:  execute <unnamed>: SELECT * FROM "users" WHERE "email" = $1 AND "tenant_id" = $2\nDETAIL:  parameters: $1 = 'dana@acme.io', $2 = 'Ux3Vy7Wz1Xa5Yb9C'\n`],
  ["a Terraform state's random_string (not sensitive)", '{\n  "type": "random_string",\n  "instances": [{"attributes": {"result": "Ux3Vy7Wz1Xa5"}}]\n}\n'],
  ["sqlite3's -header list of columns that name no secret", 'id|user_id|email|created_at\n118|42|dana@acme.io|2024-04-10 10:22:31\n'],
  ["artisan config:show's rows that name no secret", '  connections ⇁ mysql ⇁ host ..................... 127.0.0.1  \n  connections ⇁ mysql ⇁ username ................. forge  \n'],
  ["serverless' api keys when there are none", 'api keys:\n  None\nendpoints:\n  None\n'],
  ["a bare key beside a user that is a word, a translation's id or a name's (not a token)", `  user: 'bob',\n  key: 'settings.title',\n{"db_user": "app", "key": "${V}"}\n  user: bob\n  key: abcdefghijklmnopqrstu\n`],
  ['a list of keys whose key is an id (no api keys)', 'indexes: [\n  {\n    key: \'email_1\',\n    unique: true\n  }\n]\n'],
];

describe('multi-line and encoded forms', () => {
  for (const [form, text, values] of secrets) {
    it(`masks ${form} in a reply, and the quick check says look`, () => {
      const out = new Redactor().mask(text);
      for (const v of values) expect(out, out).not.toContain(v);
      expect(out).toContain('[masked: ');
      expect(mayHoldSecret(text)).toBe(true);
    });
  }
  for (const [form, text] of lookAlikes) it(`keeps ${form}`, () => expect(new Redactor().mask(text)).toBe(text));

  it('the byte path (chunks cut anywhere, CRLF, colour before) remembers what the text path remembers', () => {
    for (const [form, text] of secrets) {
      const pty = `\x1b[32m✓ ok\x1b[0m\n${text}after\n`.replace(/\n/g, '\r\n');
      const viaText = new Redactor();
      viaText.learnFrom(pty);
      for (const cut of [1, 3, 7, 64, 4096]) {
        const viaBytes = new Redactor();
        const stream = new StreamMasker(viaBytes, { learnOnly: true });
        const bytes = Buffer.from(pty);
        for (let at = 0; at < bytes.length; at += cut) stream.pushBytes(bytes.subarray(at, at + cut));
        stream.flush();
        expect(viaBytes.learned.size, `${form}, chunks of ${cut}`).toBe(viaText.learned.size);
      }
    }
  });

  it('a read window that starts below the key (block scalar, next-line json) hides the value', () => {
    for (const [form, text, values] of secrets.filter(([f]) => /block scalar|next line|cookie list|api keys|configmap|DynamoDB|etcdctl|three quotes/.test(f))) {
      const r = new Redactor();
      const stream = r.stream('c1');
      stream.pushBytes(Buffer.from(text.replace(/\n/g, '\r\n')));
      stream.flush();
      const lines = text.split('\n');
      const from = lines.findIndex((l) => values.some((v) => l.includes(v)));
      const shown = r.maskLines('c1', lines.slice(from).map((t, i) => ({ n: from + i + 1, text: t })));
      for (const v of values) expect(shown.map((l) => l.text).join('\n'), form).not.toContain(v);
    }
  });
});

describe("a key block behind a tool's line prefix or end-of-line marks (adversary passes 38, 39)", () => {
  const body = ['MIIEowIBAAKCAQEARkJiGJ+8BQxCTBaN3mC4MuTBXeiT+Qm8JeMa2owlm0MrJBpx', 'pjvaYcRGFtUbNOUczfuNhOm7znUUA+VbR3rnNsQtNR9dkVny3M6PASmhiXC2uElU', '3c7VYyK0Rps2JfTQp0e7z/hwQbGM8ps8I+rxOrDofV1MWGHVx'];
  const block = ['-----BEGIN RSA PRIVATE KEY-----', ...body, '-----END RSA PRIVATE KEY-----'];
  const cases: [string, string][] = [
    // grep -A: `file:` on the match, `file-` on the context lines; the certificate before it keeps its armour.
    ['grep -r -A3 BEGIN', `deploy/certs/tls.crt:-----BEGIN CERTIFICATE-----\ndeploy/certs/tls.crt-MIIEsDCCPQxcsr0beQuZNZb830u6iZcq/FTjsegrWfiLA20Ei+A30ujXByZAYa0n\n--\n${block.slice(0, 4).map((l, i) => `deploy/certs/tls.key${i ? '-' : ':'}${l}`).join('\n')}\n`],
    // journalctl's prefix, its seconds ticking over inside the block.
    ['journalctl -o short', `Mar 11 09:12:31 sso-1 start[812]: + cat signing.pem\n${block.map((l, i) => `Mar 11 09:12:3${i < 2 ? 1 : 2} sso-1 start[812]: ${l}`).join('\n')}\nMar 11 09:12:32 sso-1 start[812]: + exec bridge\n`],
    ['cat -A of a CRLF key', `${block.map((l) => `${l}^M$`).join('\n')}\n`],
    ['cat -e', `${block.map((l) => `${l}$`).join('\n')}\n`],
    // `git show` of a deleted key's tail: a diff's `-` before each line, no BEGIN in view (adv44 F50).
    ['git show | tail of a deleted key', `${block.slice(1).map((l) => `-${l}`).join('\n')}\n`],
    // `cat -n` numbering across 9 → 10 (the padded number's shape: adv54 F23).
    ['cat -n, its numbers growing a digit', `${block.map((l, i) => `${String(i + 8).padStart(6)}\t${l}`).join('\n')}\n`],
    // A normal diff's `<` / `>` (adv49 F50), bash -x's `+ echo` of each line, docker's json-file log (adv49 F44, F49).
    ['diff of two keys', `2,4c2,4\n${body.map((l) => `< ${l}`).join('\n')}\n---\n${body.map((l) => `> ${l}`).join('\n')}\n`],
    ['bash -x echoing each line into a file (its armour lines not in view)', `+ umask 077\n${body.map((l) => `+ echo ${l}`).join('\n')}\n+ chmod 600 id_rsa\n`],
    ["docker's json-file log", `${body.map((l, i) => `{"log":"${l}\\n","stream":"stdout","time":"2026-03-11T10:01:02.00011${i}557Z"}`).join('\n')}\n`],
  ];
  for (const [form, text] of cases)
    it(`masks the body of ${form}, in a reply and in a read window inside the block`, () => {
      const out = new Redactor().mask(text);
      for (const b of body) expect(out, form).not.toContain(b);
      expect(out).not.toContain('[masked: key] CERTIFICATE');
      if (text.includes('CERTIFICATE')) expect(out).toContain('tls.crt:-----BEGIN CERTIFICATE-----');
      // A window inside the block is masked by the stream's key lines, which start at a BEGIN it saw.
      if (!text.includes('-----BEGIN')) return;
      const r = new Redactor();
      const stream = r.stream('c1');
      stream.pushBytes(Buffer.from(text));
      stream.flush();
      const lines = text.split('\n');
      const from = lines.findIndex((l) => l.includes(body[1]));
      const shown = r.maskLines('c1', lines.slice(from, from + 2).map((t, i) => ({ n: from + i + 1, text: t })));
      for (const b of body) expect(shown.map((l) => l.text).join('\n'), form).not.toContain(b);
    });

  it("remembers a key's last body lines printed above an END with no BEGIN (tail of the file, in a chunk of its own: closing measure 83)", () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const lines = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString().trimEnd().split('\n');
    const r = new Redactor();
    const stream = r.stream('c1');
    // `head -n 4 key; echo '[...]'; tail -n 2 key`: three processes, three chunks; the tail's has no BEGIN.
    stream.pushBytes(Buffer.from(`${lines.slice(0, 4).join('\n')}\n`));
    stream.pushBytes(Buffer.from('[...]\n'));
    stream.pushBytes(Buffer.from(`${lines.slice(-2).join('\n')}\n`));
    stream.flush();
    const last = lines[lines.length - 2];
    expect(r.maskLines('c1', [{ n: 6, text: last }])[0].text).not.toContain(last);
    // A line above an END that is no base64 stays.
    expect(r.maskLines('c1', [{ n: 5, text: '[...]' }])[0].text).toBe('[...]');
  });

  it("remembers a key's short last body line (8 to 15 characters), read alone in a one-line page (closing measure 115 F47)", () => {
    // An RSA-1024 key whose base64 ends in a line of 8-15 characters (its DER's length varies by a byte or two from key to key).
    let lines: string[] = [];
    for (let i = 0; i < 400 && !(lines.length > 2 && lines[lines.length - 2].length >= 8 && lines[lines.length - 2].length < 16); i++)
      lines = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString().trimEnd().split('\n');
    const last = lines[lines.length - 2];
    expect(last.length).toBeGreaterThanOrEqual(8);
    expect(last.length).toBeLessThan(16);
    // The whole block streamed, and its tail alone (`tail -n 2`: no BEGIN in the chunk).
    for (const shown of [lines, lines.slice(-2)]) {
      const r = new Redactor();
      const stream = r.stream('c1');
      stream.pushBytes(Buffer.from(`${shown.join('\n')}\n`));
      stream.flush();
      expect(r.maskLines('c1', [{ n: shown.length - 1, text: last }])[0].text).not.toContain(last);
    }
    // A short line that is no key's stays, in the same session.
    const r = new Redactor();
    r.stream('c1').pushBytes(Buffer.from(`${lines.join('\n')}\nbuild ok: abcdEFGH12\n`));
    expect(r.maskLines('c1', [{ n: lines.length + 1, text: 'build ok: abcdEFGH12' }])[0].text).toBe('build ok: abcdEFGH12');
  });

  it("masks a diff hunk inside an RSA key's body, no armour and no DER start in view, from the line that holds its private exponent (adversary pass 48)", () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const keyBody = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString().trim().split('\n').slice(1, -1);
    // The line where the public exponent (65537) meets the private one: four lines into the modulus of a 2048-bit key.
    const at = keyBody.findIndex((l) => /AgMBAAECg|IDAQABAo|CAwEAAQK[BC]/.test(l));
    expect(at).toBeGreaterThan(2);
    const hunk = keyBody.slice(at - 2, at + 5);
    const text = `@@ -4,9 +4,9 @@\n${hunk.slice(0, 5).map((l) => `-${l}`).join('\n')}\n${hunk.slice(5).map((l) => ` ${l}`).join('\n')}\n`;
    const out = new Redactor().mask(text);
    for (const l of hunk) expect(out).not.toContain(l);
    expect(out.startsWith('@@ -4,9 +4,9 @@\n-[masked: private key]\n')).toBe(true);
    // A public key's body ends at its exponent: kept.
    const pub = publicKey.export({ type: 'pkcs1', format: 'pem' }).toString().trim().split('\n').slice(1, -1).map((l) => `-${l}`).join('\n');
    expect(new Redactor().mask(`${pub}\n`)).toBe(`${pub}\n`);
  });

  it("masks a diff of a private key's file from any line of the body; a certificate's and a public key's diffs stay (adversary pass 52)", () => {
    const head = 'commit 3f9a0c1e2b4d5f60718293a4b5c6d7e8f9012345\nAuthor: Dana <dana@acme.io>\n\n    remove the old signing key\n\n';
    const hunk = (file: string) => `diff --git a/${file} b/${file}\ndeleted file mode 100644\n--- a/${file}\n+++ /dev/null\n@@ -12,4 +0,0 @@\n${body.slice(1).map((l) => `-${l}`).join('\n')}\n`;
    const out = new Redactor().mask(head + hunk('config/jwt/private.pem'));
    for (const b of body.slice(1)) expect(out).not.toContain(b);
    expect(out).toContain('remove the old signing key');
    for (const file of ['config/tls/server.crt', 'config/jwt/public-key.pem']) expect(new Redactor().mask(head + hunk(file))).toBe(head + hunk(file));
  });

  it('keeps lines after the block whose prefix has another shape', () => {
    const text = `app: -----BEGIN RSA PRIVATE KEY-----\napp: ${body[0]}\nworker-2: ${body[1]}\n`;
    expect(new Redactor().mask(text)).toContain(`worker-2: ${body[1]}`);
  });
});

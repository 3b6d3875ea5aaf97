/**
 * Credentials as 61 commands and files print them (issue 21's second adversary pass: env dumps,
 * `docker inspect`, `gh auth status -t`, `git remote -v`, terraform state and outputs, Rails
 * credentials, JDBC / Redis / Mongo / AMQP / SMTP URLs, OpenSSH / PuTTY / PGP keys, Vault,
 * Consul, Slack, Twilio, SendGrid, Mailgun, Shopify, npm, PyPI, Maven, NuGet, wp-config,
 * redis.conf, WireGuard, Kafka JAAS, …): every value is masked in a reply, and the CLI's quick
 * check says "look" for each (else its audit record would skip the scanner). 14 of them leaked
 * before this pass; the generated corpus (test-corpus.ts) carries those with look-alikes.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { Redactor, MASK_PATTERN } from './redactor.js';
import { mayHoldSecret } from './quick-check.js';
import { secretPrinterOf } from './secret-printers.js';
import { anyOf, itUnless, missing } from '../../../../test/helpers/skip.js';

/** A fixed linear congruential generator: the same fake values every run. */
let seed = 7;
const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
const s = (alpha: string, n: number) => Array.from({ length: n }, () => alpha[Math.floor(rnd() * alpha.length)]).join('');
const AN = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', HEX = '0123456789abcdef', B64 = AN + '+/';
const LOWER_AN = 'abcdefghijklmnopqrstuvwxyz0123456789';
const pw = () => 'k' + s(AN + '!#%^*_', 14);
const b64 = (t: string) => Buffer.from(t).toString('base64');
/** POSIX uuencode's body lines (45 bytes a line, `` ` `` for a zero), as `uuencode` and Python's `binascii.b2a_uu` write them. */
const uuencode = (data: Buffer): string =>
  [...Array(Math.ceil(data.length / 45)).keys()].map((l) => {
    const b = data.subarray(45 * l, 45 * l + 45);
    return String.fromCharCode(32 + b.length) + [...Array(Math.ceil(b.length / 3)).keys()].map((g) => {
      const [x, y, z] = [b[3 * g] ?? 0, b[3 * g + 1] ?? 0, b[3 * g + 2] ?? 0];
      return [x >> 2, ((x & 3) << 4) | (y >> 4), ((y & 15) << 2) | (z >> 6), z & 63].map((c) => String.fromCharCode(c === 0 ? 96 : 32 + c)).join('');
    }).join('');
  }).join('\n');
const uuid = () => `${s(HEX, 8)}-${s(HEX, 4)}-4${s(HEX, 3)}-a${s(HEX, 3)}-${s(HEX, 12)}`;
/** [form, secret value, text as printed]. */
const forms: [string, string, string][] = [];
const f = (name: string, value: string, text: string) => forms.push([name, value, text]);
let v: string;
v = b64(`ci:${pw()}`); f('yaml docker auth', v, `auths:\n  registry.example.com:\n    auth: ${v}\n    email: ci@example.com`);
v = b64(`ci:${pw()}`); f('json docker auth', v, `{"auths": {"ghcr.io": {"auth": "${v}"}}}`);
v = pw(); f('docker inspect Env', v, `        "Env": [\n            "POSTGRES_PASSWORD=${v}",\n            "PATH=/usr/local/bin"\n        ],`);
v = pw(); f('docker inspect redis url', v, `            "REDIS_URL=redis://:${v}@redis:6379/0",`);
v = s(B64, 40); f('aws credentials file', v, `[default]\naws_access_key_id = AKIA${s('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}\naws_secret_access_key = ${v}`);
v = 'gho_' + s(AN, 36); f('gh auth status -t', v, `github.com\n  ✓ Logged in to github.com account octocat (keyring)\n  - Active account: true\n  - Git operations protocol: https\n  - Token: ${v}\n  - Token scopes: 'gist', 'read:org', 'repo'`);
v = s(AN, 40); f('gh auth status -t (ghp_ like other)', v, `  - Token: ${v}`);
v = 'npm_' + s(AN, 36); f('npmrc', v, `//registry.npmjs.org/:_authToken=${v}`);
v = pw(); f('git remote -v', v, `origin\thttps://deploy:${v}@git.example.com/org/repo.git (fetch)\norigin\thttps://deploy:${v}@git.example.com/org/repo.git (push)`);
v = pw(); f('terraform state attr', v, `          "attributes": {\n            "password": "${v}",\n            "username": "admin"`);
v = pw(); f('terraform output -json sensitive', v, `{\n  "db_password": {\n    "sensitive": true,\n    "type": "string",\n    "value": "${v}"\n  }\n}`);
v = s(HEX, 128); f('.env.production secret_key_base', v, `SECRET_KEY_BASE=${v}`);
v = s(HEX, 128); f('rails credentials:show', v, `# aws:\n#   access_key_id: 123\nsecret_key_base: ${v}`);
v = s(B64, 40); f('rails credentials nested', v, `aws:\n  access_key_id: AKIA${s('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}\n  secret_access_key: ${v}`);
v = pw(); f('jdbc postgres param', v, `spring.datasource.url=jdbc:postgresql://db:5432/app?user=app&password=${v}`);
v = pw(); f('jdbc sqlserver', v, `jdbc:sqlserver://db:1433;databaseName=app;user=sa;password=${v};encrypt=true`);
v = 'tiger' + s(AN, 6); f('jdbc oracle thin', v, `jdbc:oracle:thin:scott/${v}@//db.example.com:1521/ORCL`);
v = pw(); f('redis url', v, `REDIS_URL=rediss://default:${v}@cache.example.com:6380`);
v = pw(); f('mongo srv', v, `mongodb+srv://app:${v}@cluster0.abcde.mongodb.net/?retryWrites=true&w=majority`);
v = pw(); f('amqp', v, `amqp://app:${v}@rabbit:5672/vhost`);
v = s(B64, 70); f('openssh key', v, `-----BEGIN OPENSSH PRIVATE KEY-----\n${s(B64, 70)}\n${v}\n-----END OPENSSH PRIVATE KEY-----`);
v = s(B64, 44); f('putty key', v, `PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: eddsa-key-20240101\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAIG${s(B64, 20)}\n${s(B64, 20)}\nPrivate-Lines: 1\n${v}\nPrivate-MAC: ${s(HEX, 64)}`);
v = s(B64, 64); f('gpg private block', v, `-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQVYBGV${s(B64, 57)}\n${v}\n=${s(B64, 4)}\n-----END PGP PRIVATE KEY BLOCK-----`);
v = 'hvs.' + s(AN + '_-', 90); f('vault login table', v, `Key                  Value\n---                  -----\ntoken                ${v}\ntoken_accessor       ${s(AN, 24)}\ntoken_duration       768h`);
v = 's.' + s(AN, 24); f('vault legacy token table', v, `Key                  Value\n---                  -----\ntoken                ${v}\ntoken_accessor       ${s(AN, 24)}`);
v = `${s(HEX, 8)}-${s(HEX, 4)}-${s(HEX, 4)}-${s(HEX, 4)}-${s(HEX, 12)}`; f('vault approle secret_id table', v, `Key                   Value\n---                   -----\nsecret_id             ${v}\nsecret_id_accessor    ${s(HEX, 8)}-${s(HEX, 4)}-${s(HEX, 4)}-${s(HEX, 4)}-${s(HEX, 12)}\nsecret_id_ttl         0s`);
v = `${s(HEX, 8)}-${s(HEX, 4)}-${s(HEX, 4)}-${s(HEX, 4)}-${s(HEX, 12)}`; f('consul acl token read', v, `AccessorID:       ${s(HEX, 8)}-${s(HEX, 4)}-${s(HEX, 4)}-${s(HEX, 4)}-${s(HEX, 12)}\nSecretID:         ${v}\nDescription:      Bootstrap Token`);
v = 'xoxe.xoxp-1-' + s('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 150); f('slack xoxe', v, `refresh: ${v}`);
v = 'xapp-1-A' + s('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 10) + '-' + s('0123456789', 13) + '-' + s(HEX, 64); f('slack xapp', v, `SLACK_APP_TOKEN=${v}`);
v = s(HEX, 32); f('twilio auth token env', v, `TWILIO_AUTH_TOKEN=${v}`);
v = s(HEX, 32); f('twilio curl -u', v, `curl -X POST https://api.twilio.com/2010-04-01/Accounts/AC${s(HEX, 32)}/Messages.json -u AC${s(HEX, 32)}:${v}`);
v = 'SG.' + s(AN + '_-', 22) + '.' + s(AN + '_-', 43); f('sendgrid', v, `Authorization: Bearer ${v}`);
v = `${s(HEX, 32)}-${s(HEX, 8)}-${s(HEX, 8)}`; f('mailgun new key env', v, `MAILGUN_API_KEY=${v}`);
v = 'shpat_' + s(HEX, 32); f('shopify', v, `X-Shopify-Access-Token: ${v}`);
v = 'pypi-AgEIcHlwaS5vcmc' + s(AN + '_-', 70); f('pypirc', v, `[pypi]\nusername = __token__\npassword = ${v}`);
v = pw(); f('xml maven settings', v, `<server>\n  <id>nexus</id>\n  <username>deploy</username>\n  <password>${v}</password>\n</server>`);
v = pw(); f('nuget ClearTextPassword', v, `<add key="ClearTextPassword" value="${v}" />`);
v = pw(); f('php define', v, `define( 'DB_PASSWORD', '${v}' );`);
v = s(AN + '!@#$%^&*()', 64); f('wp salts', v, `define('AUTH_KEY',         '${v}');`);
v = pw(); f('python dict headers', v, `{'Content-Type': 'application/json', 'Authorization': 'Bearer ${v}'}`);
v = pw(); f('redis.conf requirepass', v, `requirepass ${v}`);
v = pw(); f('redis.conf masterauth', v, `masterauth ${v}`);
v = pw(); f('kafka jaas', v, `sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="app" password="${v}";`);
v = s(B64, 43) + '='; f('wireguard', v, `[Interface]\nPrivateKey = ${v}\nAddress = 10.0.0.2/32`);
v = s(B64, 43) + '='; f('wireguard psk', v, `[Peer]\nPresharedKey = ${v}`);
v = s(HEX, 48); f('jupyter url', v, `    http://127.0.0.1:8888/lab?token=${v}`);
v = pw(); f('heroku config', v, `=== my-app Config Vars\nDATABASE_URL:    postgres://u${s(HEX, 6)}:${v}@ec2-1-2-3-4.compute-1.amazonaws.com:5432/d1`);
v = pw(); f('psql conninfo', v, `psql "host=db port=5432 user=app password=${v} dbname=app sslmode=require"`);
v = pw(); f('git credential fill', v, `protocol=https\nhost=github.com\nusername=x-access-token\npassword=${v}`);
v = pw(); f('ansible become', v, `ansible_become_pass: ${v}`);
v = pw(); f('spring properties', v, `spring.datasource.password=${v}`);
v = pw(); f('smtp url', v, `MAIL_URL=smtp://apikey:${v}@smtp.sendgrid.net:587`);
v = pw(); f('ldap bind', v, `ldapsearch -x -H ldap://ldap.example.com -D "cn=admin,dc=example,dc=com" -w ${v} -b "dc=example,dc=com"`);
v = s(AN, 40); f('cloudflare token env', v, `CLOUDFLARE_API_TOKEN=${v}`);
v = 'glrt-' + s(AN + '_-', 20); f('gitlab runner toml', v, `[[runners]]\n  url = "https://gitlab.com"\n  token = "${v}"`);
v = s(AN, 32); f('docker history build-arg', v, `<missing>      2 days ago   RUN |1 NPM_TOKEN=${v} /bin/sh -c npm ci   120MB`);
v = pw(); f('az sql connection string', v, `Server=tcp:db.database.windows.net,1433;Initial Catalog=app;User ID=app;Password=${v};Encrypt=True;`);
v = pw(); f('yaml password quoted', v, `    password: "${v}"`);
v = pw(); f('toml password', v, `password = '${v}'`);
v = pw(); f('ini', v, `[database]\npass = ${v}`);
v = 'dop_v1_' + s(HEX, 64); f('doctl', v, `access-token: ${v}`);
// `pulumi config --show-secrets` (adv10 C10): a `KEY  VALUE` table with no rule, keys namespaced by the project.
v = pw(); f('pulumi config --show-secrets', v, `KEY                 VALUE\naws:region          us-east-1\nshop:dbPassword     ${v}\nshop:apiToken       [secret]`);
// `pulumi config --show-secrets --json` (adv11): `{"value": …, "secret": true}` under a key that need not name a secret.
v = pw(); f('pulumi config --show-secrets --json', v, `{\n  "aws:region": {\n    "value": "us-east-1",\n    "secret": false\n  },\n  "shop:stripe": {\n    "value": "${v}",\n    "secret": true\n  }\n}`);
// A token as a URL's user, no password (adv12 A01, A02: `git remote -v` of an Azure DevOps remote, a pip index).
v = s('abcdefghijklmnopqrstuvwxyz0123456789', 52); f('git remote -v (token as the URL user)', v, `origin\thttps://${v}@dev.azure.com/contoso/Platform/_git/api (fetch)`);
v = s(AN, 20); f('pip config list (token as the index URL user)', v, `global.extra-index-url='https://${v}@pypi.fury.io/acme-corp/'`);
// Adversary pass 12: an argument list one argument a line (kubectl describe's Args:, docker inspect's "Args"), Elasticsearch's
// first start, an SSM parameter's JSON (fields between its name and value), CloudFormation's ParameterKey / ParameterValue.
v = pw(); f('kubectl describe pod Args', v, `    Args:\n      --listen=:8080\n      --db-password\n      ${v}\n      --verbose\n    State:          Running`);
v = s(HEX, 40); f('docker inspect Args', v, `        "Args": [\n            "--listen=:8080",\n            "--admin-token",\n            "${v}"\n        ],`);
v = s(AN, 20); f('elasticsearch first start', v, `ℹ️  Password for the elastic user (reset with \`bin/elasticsearch-reset-password -u elastic\`):\n  ${v}\n\nℹ️  HTTP CA certificate SHA-256 fingerprint:\n  ${s(HEX, 64)}`);
v = 'eyJ2ZXIiOiI4LjE0LjAiLCJhZHIiOlsiMTcyLjE4LjAuMjo5MjAwIl0sImtleSI6Ik' + s(AN, 40); f('elasticsearch enrollment token', v, `• Copy the following enrollment token and paste it into Kibana in your browser (valid for the next 30 minutes):\n  ${v}\n`);
v = pw(); f('aws ssm get-parameter (JSON)', v, `{\n    "Parameter": {\n        "Name": "/prod/app/db_password",\n        "Type": "SecureString",\n        "Value": "${v}",\n        "Version": 3\n    }\n}`);
v = pw(); f('aws cloudformation describe-stacks parameters', v, `            "Parameters": [\n                {\n                    "ParameterKey": "DbMasterPassword",\n                    "ParameterValue": "${v}"\n                }\n            ],`);
v = pw(); f('gradle signingConfigs (Groovy, no separator)', v, `        release {\n            storeFile file("../keystore/release.jks")\n            storePassword '${v}'\n            keyAlias 'shop-release'\n        }`);
v = s(AN, 52); f('az acr credential show -o table (PASSWORD2)', v, `USERNAME      PASSWORD                                              PASSWORD2\n------------  ----------------------------------------------------  ----------------------------------------------------\nacmeregistry  ${s(AN, 52)}  ${v}`);
v = s(B64, 44); f('dotnet user-secrets list (Jwt:Key)', v, `Jwt:Key = ${v}\nJwt:Issuer = https://api.acme.io`);
v = s(AN, 20); f('jq . under a PTY (colours between name and value)', v, `\x1b[1;39m{\n  \x1b[34;1m"api_key"\x1b[0m\x1b[1;39m:\x1b[0m \x1b[0;32m"${v}"\x1b[0m\x1b[1;39m\n\x1b[1;39m}\x1b[0m`);
v = pw(); f('sssd ldap_default_authtok', v, `ldap_default_authtok_type = password\nldap_default_authtok = ${v}`);
v = s(B64, 60) + '=='; f('elasticsearch API key, its encoded form', v, `{"id":"${s(AN, 20)}","name":"ci-ingest","api_key":"${s(AN, 22)}","encoded":"${v}"}`);
v = pw(); f('az pipelines variable list (a secret object, its value field)', v, `{\n  "DB_PASSWORD": {\n    "allowOverride": null,\n    "isSecret": null,\n    "value": "${v}"\n  }\n}`);
v = s(B64, 44); f('appsettings.json Jwt section', v, `{\n  "Jwt": {\n    "Issuer": "https://api.acme.io",\n    "Key": "${v}"\n  }\n}`);
v = pw(); f('curl -v ftp:// transcript', v, `< 331 Please specify the password.\n> PASS ${v}\n< 230 Login successful.`);
v = s(HEX, 40); f('a Java map of headers', v, `request headers: {Accept=application/json, Authorization=Bearer ${v}, X-Request-Id=abc}`);
v = pw(); f('ps of plink -pw', v, `root  2211  0.0  plink -ssh -batch -pw ${v} admin@10.0.0.7 uptime`);
v = s(AN, 40); f('redis-cli HGETALL', v, `1) "provider"\n2) "hubspot"\n3) "access_token"\n4) "${v}"\n5) "expires_at"\n6) "1710152551"`);
v = s(HEX, 40); f('nginx -T proxy_set_header Authorization', v, `    location /billing/ {\n        proxy_set_header Authorization "Bearer ${v}";\n    }`);
v = s(HEX, 32).toUpperCase(); f('nginx -T proxy_set_header api-key', v, `        proxy_set_header api-key ${v};`);
v = pw(); f('haproxy userlist insecure-password', v, `userlist admins\n    user admin insecure-password ${v}`);
v = pw(); f('haproxy stats auth', v, `listen stats\n    stats auth admin:${v}`);
v = pw(); f('reg query Winlogon', v, `HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon\r\n    DefaultUserName    REG_SZ    kiosk\r\n    DefaultPassword    REG_SZ    ${v}\r`);
v = pw(); f('netsh wlan show profile key=clear', v, `Security settings\n-----------------\n    Authentication         : WPA2-Personal\n    Key Content            : ${v}`);
v = s(B64, 64); f('confluent api-key create (a box table)', v, `+------------+------------------------------------------------------------------+\n| API Key    | K4SL6EO7Z6TJ367Z                                                 |\n| API Secret | ${v} |\n+------------+------------------------------------------------------------------+`);
v = s(AN, 24); f("PowerShell's Get-ChildItem Env: (a Name  Value table)", v, `\r\nName                           Value\r\n----                           -----\r\nCI_DEPLOY_TOKEN                ${v}\r\nPATH                           C:\\Windows\\system32\r\n`);
v = s(HEX, 32); f("Symfony's debug:dotenv", v, ` ------------ ---------------------------------- ---------- ----------------------------------\n  Variable     Value                              .env.dev   .env\n ------------ ---------------------------------- ---------- ----------------------------------\n  APP_ENV      dev                                dev        dev\n  APP_SECRET   ${v}   n/a        ${v}`);
// Adversary pass 13 (session 8).
v = s(B64, 43) + '='; f('az redis list-keys (primaryKey)', v, `{\n  "primaryKey": "${v}",\n  "secondaryKey": "${s(B64, 43)}="\n}`);
v = s(HEX, 32); f('az cognitiveservices account keys list (key1)', v, `{\n  "key1": "${v}",\n  "key2": "${s(HEX, 32)}"\n}`);
v = s(B64, 86) + '=='; f('az storage account keys list (keyName / value)', v, `[\n  {\n    "creationTime": "2024-03-11T10:22:31.512345+00:00",\n    "keyName": "key1",\n    "permissions": "FULL",\n    "value": "${v}"\n  }\n]`);
v = pw(); f('aws ssm put-parameter --value in shell history', v, `aws ssm put-parameter --name /shop/prod/DB_PASSWORD --type SecureString --value '${v}' --overwrite`);
v = pw(); f('az keyvault secret set --value in a set -x trace', v, `+ az keyvault secret set --vault-name kv-shop --name sql-admin-password --value '${v}'`);
v = s(HEX, 64); f('wrangler secret put from a pipe', v, `printf '%s' ${v} | npx wrangler secret put SESSION_SECRET`);
v = pw(); f('dotnet user-secrets set', v, `dotnet user-secrets set "Smtp:Password" "${v}" --project src/Shop.Api`);
v = pw(); f('skopeo --dest-creds', v, `+ skopeo copy docker://a/b:1 docker://c/d:1 --dest-creds robot:${v}`);
v = pw(); f('htpasswd -nbB (no file)', v, `+ htpasswd -nbB admin '${v}'`);
v = pw(); f('PowerShell -Password parameter', v, `nuget sources add -Name acme -Source https://nuget.acme.io/v3/index.json -Username ci -Password ${v}`);
v = s(HEX, 40); f('PowerShell header hashtable', v, `Invoke-RestMethod -Uri https://x/api -Headers @{ Authorization = "Bearer ${v}" }`);
v = pw(); f('Dockerfile ENV with a blank', v, `FROM node:20\nENV DATABASE_PASSWORD ${v}\nENV NODE_ENV production`);
v = 'hK;s' + s(AN, 8); f('mysqld temporary password', v, `2024-03-11T10:22:31.512345Z 6 [Note] [MY-010454] [Server] A temporary password is generated for root@localhost: ${v}`);
v = 'otter-violin-' + s('abcdefghijklmnopqrstuvwxyz', 8) + '-quartz'; f('age -p autogenerated passphrase', v, `age: using autogenerated passphrase "${v}"`);
v = s(AN, 40); f('.yarnrc auth token (blank separator)', v, `"//acme.jfrog.io/artifactory/api/npm/npm/:_authToken" ${v}`);
v = pw(); f('~/.oci/config pass_phrase', v, `[DEFAULT]\nuser=ocid1.user.oc1..aaaa\npass_phrase=${v}`);
v = s(B64, 60); f('gradle.properties signingInMemoryKey', v, `signingInMemoryKeyId=24875D73\nsigningInMemoryKey=${v}`);
v = pw(); f('launchd plist environment', v, `<key>EnvironmentVariables</key>\n<dict>\n  <key>DB_PASSWORD</key>\n  <string>${v}</string>\n</dict>`);
v = pw(); f('terraform plan of a helm_release set', v, `      + set {\n          + name  = "auth.postgresPassword"\n          + value = "${v}"\n        }`);
v = pw(); f('doctl apps spec (key, scope, value)', v, `  envs:\n  - key: ADMIN_PASSWORD\n    scope: RUN_TIME\n    value: ${v}`);
v = s(HEX, 32); f('alertmanager PagerDuty routing_key', v, `  pagerduty_configs:\n  - routing_key: ${v}\n    severity: critical`);
// Forms whose only anchor was a new keyword (the table had no room before session 8's index-based table).
v = 'ridge orbit canal ' + s('abcdefghijklmnopqrstuvwxyz', 6) + ' velvet outside'; f('a wallet mnemonic in .env', v, `MNEMONIC="${v}"\nCHAIN_ID=1`);
v = s(AN, 32); f('an Alchemy key in an RPC URL', v, `RPC_URL=https://eth-mainnet.g.alchemy.com/v2/${v}`);
v = s(HEX, 32); f('an Infura key in an RPC URL', v, `https://mainnet.infura.io/v3/${v}`);
v = 'ac-' + s(AN, 30); f('a conda channel token', v, `channels:\n  - https://conda.anaconda.org/t/${v}/acme-internal\n  - defaults`);
v = s(AN + '_-', 43); f('a private JWK', v, `{"kty":"EC","crv":"P-256","x":"${s(AN, 43)}","y":"${s(AN, 43)}","d":"${v}","kid":"sig-2024"}`);
v = pw(); f('nslcd.conf bindpw (grep -r)', v, `/etc/nslcd.conf:binddn cn=svc,dc=acme,dc=io\n/etc/nslcd.conf:bindpw ${v}`);
v = pw(); f('DB_PW in docker inspect Env', v, `            "Env": [\n                "DB_USER=api",\n                "DB_PW=${v}",`);
v = s('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 32); f('a Bitwarden item totp seed', v, `{\n  "username": "ci-bot",\n  "totp": "${v}"\n}`);
v = s(HEX, 32); f('a Teams webhook URL', v, `TEAMS_WEBHOOK_URL=https://acme.webhook.office.com/webhookb2/477598cb-3617-4f69-b6d0-26a45a3a11a0@7b26d2b0-3f60-4606-b470-b90b708e3c92/IncomingWebhook/${v}/69140fdb-f08b-4a77-a727-a14df799e798/V2oH_No2cgH3HUt85wJyo`);
v = 'x' + s('abcdefghijklmnopqrstuvwxyz0123456789', 24) + '7'; f('a Mattermost webhook URL', v, `MATTERMOST_WEBHOOK_URL=https://chat.acme.io/hooks/${v}`);
v = pw(); f('ConvertTo-SecureString -AsPlainText', v, `$pw = ConvertTo-SecureString "${v}" -AsPlainText -Force`);
v = pw(); f('caddy hash-password --plaintext', v, `+ caddy hash-password --plaintext ${v}`);
v = pw(); f('valkey-cli -a', v, `valkey-cli -h cache.internal -p 6379 -a ${v} --no-auth-warning MONITOR`);
v = pw(); f('mosquitto_sub -P', v, `mosquitto_sub -h mqtt.acme.io -p 8883 -u sensor-gw -P ${v} -t sensors/#`);
v = pw(); f('net use with a password', v, `net use Z: \\\\nas01\\builds ${v} /user:ACME\\dana /persistent:no`);
v = pw(); f('schtasks /rp', v, `schtasks /create /tn "Nightly" /tr "C:\\deploy\\export.cmd" /sc daily /ru ACME\\svc /rp ${v}`);
// Adversary pass 14 (written against this session's code, fitted to nothing): its high-plausibility leaks.
v = `re_${s(AN, 8)}_${s(AN, 24)}`; f("Laravel's services config (a Resend key)", v, `  "resend" => array:1 [\n    "key" => "${v}"\n  ]`);
v = s(HEX, 32); f('urllib3 debug of an OpenWeather call (appid=)', v, `DEBUG:urllib3.connectionpool:https://api.openweathermap.org:443 "GET /data/2.5/weather?q=Berlin&units=metric&appid=${v} HTTP/1.1" 200 511`);
v = pw(); f('a Compose healthcheck exec array (mysqladmin -p)', v, `    healthcheck:\n      test: ["CMD", "mysqladmin", "ping", "-h", "localhost", "-uroot", "-p${v}"]`);
v = s(AN, 24); f("a Compose command's --requirepass", v, `    command: redis-server --appendonly yes --requirepass ${v}`);
v = s(AN, 24); f("ioredis' debug of AUTH", v, `  ioredis:redis write command[127.0.0.1:6379]: 0 -> auth([ 'worker', '${v}' ]) +2ms`);
v = s(HEX, 32); f('kaggle.json', v, `{"username":"danakim","key":"${v}"}`);
v = s(B64, 44); f("Spring Boot's bind failure (Property, then Value)", v, `Description:\n\nFailed to bind properties under 'app.security.jwt' to com.acme.JwtProps:\n\n    Property: app.security.jwt.secret\n    Value: "${v}"\n    Origin: class path resource [application.yml] - 12:15`);
v = pw(); f('ansible -m debug of a hostvars expression', v, `db1 | SUCCESS => {\n    "hostvars[inventory_hostname].vault_db_password": "${v}"\n}`);
// Pass 14's last leaks (this stop): a password with an unencoded `@` in a Debug print's URL, a Go http.Header, a cookie list, serverless' api keys, a key list.
v = 'c3pa@Pa6' + s(AN, 10); f("a URL's password with an unencoded @ (Rust Debug)", v, `  left: Settings { database_url: "postgres://shop:${v}@localhost:5432/shop", listen: 127.0.0.1:8080 }`);
v = s(AN + '_-', 40); f("Go's http.Header print (%#v)", v, `cloudflare-go [DEBUG] REQUEST Method:GET Headers:http.Header{"Authorization":[]string{"Bearer ${v}"}, "Content-Type":[]string{"application/json"}}`);
v = s(AN + '_-', 40); f("requests' headers dict of lists", v, `{'Authorization': ['Bearer ${v}'], 'Accept': ['*/*']}`);
v = s('abcdefghijklmnopqrstuvwxyz0123456789', 32); f('an HTTPie session file (cookie list)', v, `    "cookies": [\n        {\n            "domain": "",\n            "expires": null,\n            "name": "sessionid",\n            "path": "/",\n            "secure": false,\n            "value": "${v}"\n        }\n    ],`);
v = s(AN, 48); f("Playwright's storageState", v, `{\n  "cookies": [\n    {\n      "name": "__Host-next-auth.csrf-token",\n      "value": "${s(HEX, 64)}",\n      "domain": "localhost"\n    },\n    {\n      "name": "sid",\n      "value": "${v}",\n      "domain": "localhost",\n      "path": "/",\n      "expires": 1767225600,\n      "httpOnly": true,\n      "secure": false,\n      "sameSite": "Lax"\n    }\n  ],\n  "origins": []\n}`);
v = s(AN, 40); f("Puppeteer's page.cookies() printed by Node", v, `[\n  {\n    name: 'connect.sid',\n    value: 's%3A${v}',\n    domain: 'localhost',\n    path: '/'\n  }\n]`.replace('[\n', 'cookies: [\n'));
v = s(AN, 40); f("serverless deploy's api keys", v, `\u001b[90mapi keys:\u001b[39m\n  partnerKey: ${v} - Partner integration key\n\u001b[90mendpoints:\u001b[39m\n  GET - https://abc.execute-api.eu-west-1.amazonaws.com/prod/orders`);
v = `zk_${s(AN, 32)}`; f("mongosh's findOne of a user's key list", v, `  apiKeys: [\n    {\n      label: 'zapier',\n      key: '${v}',\n      createdAt: ISODate('2024-02-02T08:00:00.000Z')\n    }\n  ],`);
// Adversary pass 15 (fresh, fitted to nothing: 25 of 48 forms leaked, 3 of 30 look-alikes damaged before this stop's fixes).
v = b64(s(AN, 16)); f("Strapi's APP_KEYS (a plural name's comma list)", v, `APP_KEYS=${b64(s(AN, 16))},${v},${b64(s(AN, 16))}\nAPI_TOKEN_SALT=${b64(s(AN, 16))}`);
v = pw(); f("Bitnami Kafka's KAFKA_CLIENT_PASSWORDS in docker inspect | jq", v, `  "KAFKA_CLIENT_USERS=user1,user2",\n  "KAFKA_CLIENT_PASSWORDS=${pw()},${v}",`);
v = s(HEX, 64); f("dotenvx's .env.keys (a key per environment)", v, `#/ private decryption keys. DO NOT commit to source control /\nDOTENV_PRIVATE_KEY_PRODUCTION=${v}\nDOTENV_PRIVATE_KEY_CI=${s(HEX, 64)}`);
v = s(HEX, 64).toUpperCase(); f("a Lombok toString's hmacKey", v, `AdyenProperties(merchantAccount=AcmeECOM, apiKey=AQE${s(AN, 40)}, hmacKey=${v}, environment=TEST)`);
v = pw(); f("podman secret inspect --showsecret", v, `[\n    {\n        "ID": "${s(HEX, 25)}",\n        "Spec": {\n            "Name": "shop_db_password"\n        },\n        "SecretData": "${v}"\n    }\n]`);
v = s(AN, 32); f("rails db:encryption:init's primary_key", v, `Add this entry to the credentials of the target environment:\n\nactive_record_encryption:\n  primary_key: ${v}\n  deterministic_key: ${s(AN, 32)}\n  key_derivation_salt: ${s(AN, 32)}`);
v = 'base64' + b64(s(AN, 32)); f("Magento's env.php crypt key", v, `    'crypt' => [\n        'key' => '${v}'\n    ],`);
v = pw(); f("T-SQL's N'…' password", v, `CREATE LOGIN shop_app WITH PASSWORD = N'${v}', CHECK_POLICY = OFF;`);
v = pw(); f("a Go MySQL DSN in a log line", v, `2024/03/11 10:22:31 db: opening mysql shop:${v}@tcp(127.0.0.1:3306)/shop?parseTime=true&loc=UTC`);
v = pw(); f("grafana cli's reset-admin-password in history", v, `  340  docker compose exec grafana grafana cli admin reset-admin-password ${v}`);
v = pw(); f("security add-generic-password -w in history", v, `  415  security add-generic-password -a ci -s shop-deploy -w '${v}' -U`);
v = 'tnvp-lsgm-ubed-aogz'; f("xcrun altool's app-specific password", v, `  402  xcrun altool --upload-app -f build/Shop.ipa -t ios -u dana@acme.io -p ${v}`);
v = s(AN, 44); f("ibmcloud iam api-key-create's table", v, `Please preserve the API key! It cannot be retrieved after it's created.\n\nID            ApiKey-${uuid()}\nName          ci-deployer\nDescription   GitHub Actions deploys\nCreated At    2024-03-11T10:22+0000\nAPI Key       ${v}\nLocked        false`);
v = s(AN, 32); f("az functionapp appsettings list -o table (Name SlotSetting Value)", v, `Name                   SlotSetting    Value\n---------------------  -------------  ---------------------------------\nFUNCTIONS_WORKER_RUNTIME  False       node\nJWT_SIGNING_SECRET     False          ${v}`);
v = s(HEX, 32); f("Symfony's debug:container --env-vars", v, ` ---------------------- --------------- ------------------------------------ \n  Name                   Default value   Real value                          \n ---------------------- --------------- ------------------------------------ \n  APP_SECRET             n/a             "${v}"  \n ---------------------- --------------- ------------------------------------ `);
v = s(HEX, 128); f("IRB's pp breaking after =>", v, `{:secret_key_base=>\n  "${v}",\n :aws=>{:region=>"eu-west-1"}}`);
v = b64(s(AN, 24)); f("aws kms decrypt's Plaintext", v, `{\n    "KeyId": "arn:aws:kms:eu-west-1:123456789012:key/${uuid()}",\n    "Plaintext": "${v}",\n    "EncryptionAlgorithm": "SYMMETRIC_DEFAULT"\n}`);
v = 'K002' + s(AN, 27); f("rclone.conf's B2 key beside its account", v, `[b2]\ntype = b2\naccount = 002${s(HEX, 22)}\nkey = ${v}`);
v = pw(); f("gdb's print of a struct of char *", v, `$1 = {host = 0x5555555596b0 "127.0.0.1", port = 0x5555555596d0 "5432", password = 0x555555559730 "${v}", api_key = 0x555555559760 "${s(HEX, 40)}"}`);
v = pw(); f("fish's set --show", v, `$DB_PASSWORD: set in global scope, exported, with 1 elements\n$DB_PASSWORD[1]: |${v}|\n$DB_PASSWORD: originally inherited as |${v}|`);
v = s(AN + '-_', 28); f("a secret the OpenStack client wrapped onto a second row", v, `| roles        | member                                                     |\n| secret       | ${s(AN + '-_', 58)} |\n|              | ${v.padEnd(58)} |\n| system       | None                                                       |`);
// Adversary pass 13's logs (session 9): Rails' SQL binds, PHP's PDO in a stack trace, password-reset tokens in an access log.
v = s(AN, 32); f("Rails' SQL log binds", v, `  ApiToken Load (0.4ms)  SELECT "api_tokens".* FROM "api_tokens" WHERE "api_tokens"."token" = $1 LIMIT $2  [["token", "${v}"], ["LIMIT", 1]]`);
v = pw(); f("PDO's constructor in Laravel's stack trace", v, `#0 /var/www/html/vendor/laravel/framework/src/Illuminate/Database/Connectors/Connector.php(65): PDO->__construct('mysql:host=127....', 'shop', '${v}', Array)`);
v = s(HEX, 64); f("Laravel's password-reset link in an access log", v, `203.0.113.7 - - [11/Mar/2024:10:22:31 +0000] "GET /reset-password/${v}?email=dana%40acme.io HTTP/1.1" 200 5123 "-" "Mozilla/5.0"`);
v = s(AN + '-_', 20); f("Devise's reset_password_token in a URL", v, `192.0.2.44 - - [11/Mar/2024:10:23:40 +0000] "GET /users/password/edit?reset_password_token=${v} HTTP/1.1" 200 3312`);
v = s(AN, 16); f("Laravel's artisan config:show (dot leaders)", v, `  connections ⇁ mysql ⇁ username ....................................... forge  \n  connections ⇁ mysql ⇁ password ...................................... ${v}  `);
// Adversary pass 16 (fresh, fitted to nothing: 13 of 50 forms leaked, 2 of 30 look-alikes damaged before this stop's fixes).
v = pw(); f("Rails' database.yml with an ERB fallback", v, `  password: <%= ENV.fetch("DB_PASSWORD") { "${v}" } %>`);
v = s(AN, 64); f(".NET's Jwt__Key in a Compose environment", v, `    environment:\n      - Smtp__Password=${pw()}\n      - Jwt__Key=${v}`);
v = s(HEX, 128).toUpperCase(); f("ASP.NET's machineKey", v, `    <machineKey validationKey="${v}" decryptionKey="${s(HEX, 64).toUpperCase()}" validation="HMACSHA256" decryption="AES" />`);
v = s(AN, 40); f("Grafana's secureJsonData header value", v, `    jsonData:\n      httpHeaderName1: X-API-Key\n    secureJsonData:\n      httpHeaderValue1: ${v}`);
v = pw(); f("Apache's SetEnv", v, `    SetEnv DB_PASSWORD "${v}"\n    SetEnv APP_ENV production`);
v = s(HEX, 32); f("nginx's fastcgi_param", v, `        fastcgi_param APP_SECRET ${v};\n        fastcgi_param APP_ENV prod;`);
v = pw(); f("fish's set -gx", v, `set -gx EDITOR nvim\nset -gx DB_PASSWORD ${v}`);
v = pw(); f("ngrok's basic_auth list", v, `        basic_auth:\n            - "dana:${v}"`);
v = pw(); f("mongo-express' start-up warning", v, `mongo-express-1  | basicAuth credentials are "admin:${v}", it is recommended you change this in your config.js!`);
v = `pat-na1-${uuid()}`; f("a HubSpot private app token", v, `  830  kubectl create secret generic crm -n prod --from-literal=hubspot=${v} --dry-run=client -o yaml`);
v = s(HEX, 40); f("Django REST framework's drf_create_token", v, `Generated token ${v} for user dana`);
v = s(AN, 12); f("gitea's generated password", v, `generated random password is '${v}'`);
// Adversary pass 17 (fresh, fitted to nothing: 13 of 49 forms, 20 of 124 values leaked, 5 of 30 look-alikes damaged before).
v = 'h4(r0!vhu#q@n=&&38i3pf0x1t7(ux_ta3i=254n-w=r)pclze'; f("a Django SECRET_KEY with two parentheses", v, `Environment="DJANGO_SECRET_KEY=${v}" "SENTRY_ENVIRONMENT=production"`);
v = pw(); f("Laravel's env() with a literal fallback", v, `            'password' => env('DB_PASSWORD', '${v}'),`);
v = pw(); f("a fallback after process.env", v, `  smtpPass: process.env.SMTP_PASS || '${v}',`);
v = pw(); f("console.table's quoted cells", v, `│ dbPassword    │ \u001b[32m'${v}'\u001b[39m │`);
v = b64(s(AN, 32)); f("terraform show -json's ses_smtp_password_v4", v, `  "ses_smtp_password_v4": "${v}",`);
v = 'squ_' + s(HEX, 40); f("a SonarQube token in a Jenkins log", v, `+ ./mvnw -B -ntp sonar:sonar -Dsonar.host.url=https://sonar.acme.io -Dsonar.login=${v}`);
v = `eyJlbmMiOiJBMTI4Q0JDLUhTMjU2IiwiYWxnIjoiZGlyIn0..${s(AN, 22)}.${s(AN, 120)}.${s(AN, 22)}`; f("a JWE bound by Hibernate", v, `binding parameter (1:VARCHAR) <- [${v}]`);
v = pw(); f("requests' auth tuple in a traceback", v, `    r = requests.post(TOKEN_URL, auth=("shop-sync", "${v}"), data={"grant_type": "client_credentials"})`);
v = 'QVdTOmV5' + s(AN, 2700); f("an ECR authorization token over 2 KB", v, `{\n    "authorizationData": [\n        {\n            "authorizationToken": "${v}",\n            "proxyEndpoint": "https://123456789012.dkr.ecr.eu-west-1.amazonaws.com"\n        }\n    ]\n}`);
v = `39|${s(AN, 40)}`; f("VarDumper's header arrays", v, `  "authorization" => array:1 [\n    0 => "Bearer ${v}"\n  ]`);
v = s(AN, 40); f("passport:client's dot-leader secret", v, `  Client ID ............................. ${uuid()}  \n  Client secret ..................... ${v}  `);
v = s(HEX, 40); f("TypeORM's logged PARAMETERS", v, `query: UPDATE "user" SET "resetPasswordToken" = $1, "updatedAt" = CURRENT_TIMESTAMP WHERE "id" IN ($2) -- PARAMETERS: ["${v}",42]`);
v = s(AN, 32); f("Ecto's bound values at the line's end", v, `SELECT a0."id", a0."user_id" FROM "api_tokens" AS a0 WHERE (a0."token" = $1) ["${v}"]`);

// Adversary pass 18's forms (session 10).
v = s(AN, 22); f('declare -p of a secret-named associative array', v, `declare -A CREDS=([smtp]="${v}" [db]="${pw()}" )\ndeclare -a HOSTS=([0]="db1.internal")`);
v = s(AN, 22); f('a placeholder replaced in a sed script (bash -x)', v, `+ sed -i -e 's|__DB_PASSWORD__|${v}|g' -e 's|__VERSION__|1.2.3|g' /srv/app/config/app.php`);
v = s(HEX, 40); f("nix.conf's access-tokens", v, `access-tokens = github.com=ghp_${s(AN, 36)} gitea.acme.io=${v}`);
v = 'fc-' + s(HEX, 32); f('an --api-key in a JSON args list (.mcp.json)', v, `      "args": ["-y", "firecrawl-mcp", "--api-key", "${v}"]`);
v = s(B64, 86) + '=='; f("bw unlock's session key", v, `$ export BW_SESSION="${v}"\n$ bw list items --session ${v}`);
v = s(AN, 43); f("op signin's session export", v, `export OP_SESSION_acme="${v}"`);

v = s(AN, 30); f('a full-width colon and comma (a Chinese log line)', v, `OSS 配置加载完成：endpoint：oss-cn-hangzhou.aliyuncs.com，AccessKeySecret：${v}，bucket：acme-shop`);
v = 'ghp_' + s(AN, 36); f("earthly's --secret NAME=value", v, `+ earthly --ci --push --secret GITHUB_TOKEN=${v} +all`);

v = s(AN, 32); f("Redis' AUTH in strace's escaped buffer", v, `[pid 48217] sendto(3, "*3\\r\\n$4\\r\\nAUTH\\r\\n$7\\r\\ndefault\\r\\n$32\\r\\n${v}\\r\\n", 66, 0, NULL, 0) = 66`);
v = s(AN, 32); f("Redis' AUTH in ngrep's single-line form", v, `T 127.0.0.1:51234 -> 127.0.0.1:6379 [AP] #4\n  *2..$4..AUTH..$32..${v}..`);

v = s(AN, 22); f("bws secret list's value (its key named anything)", v, `[\n  {\n    "object": "secret",\n    "id": "${uuid()}",\n    "organizationId": "${uuid()}",\n    "projectId": "${uuid()}",\n    "key": "orders-db",\n    "value": "${v}",\n    "note": ""\n  }\n]`);
v = s(HEX, 40); f('an api key named in a log line', v, `[smoke] using api key ${v} for https://staging.acme.io`);
v = s(AN, 12) + "\\'" + s(AN, 8); f("direnv's ANSI-C quoted export", v, `export DB_PASSWORD=$'${v}';export NODE_ENV=development;`);

// Adversary pass 19's forms (session 10).
v = pw(); f("pulumi preview's changed password (the new value)", v, `      ~ password: "${pw()}" => "${v}"`);
v = s(AN, 24); f("terraform plan's changed secret variable (the new value)", v, `              ~ "PARTNER_HMAC_SECRET" = "${s(AN, 24)}" -> "${v}"`);
v = s(AN, 20); f("SSM's SecureString parameter", v, `{"Parameters": [{"Name": "/partner/hmac", "Type": "SecureString", "Value": "${v}", "Version": 3}]}`);
v = s(AN, 20); f("a Postman environment's secret-typed value", v, `{"values": [\n {"key": "partnerHmac", "value": "${v}", "type": "secret", "enabled": true}\n]}`);
v = s(AN, 14); f('expdp in shell history', v, `  512  expdp system/${v}@ORCLPDB1 schemas=SHOP`);
v = s(AN, 14); f("rman's catalog connect string", v, `rman target sys/${s(AN, 12)}@PROD catalog rman/${v}@RCAT`);
v = s(AN, 20); f("Azure Pipelines' secret variable", v, `##vso[task.setvariable variable=DEPLOY_KEY;issecret=true]${v}`);
v = s(AN, 20); f("Gradle's buildConfigField", v, `        buildConfigField("String", "PARTNER_SECRET", "\\"${v}\\"")`);
v = s(AN, 16); f("snmpd.conf's community", v, `rocommunity  ${v} 10.0.0.0/8`);
v = s(AN, 16); f("snmpd.conf's USM privacy key", v, `createUser ops SHA "${s(AN, 16)}" AES "${v}"`);
v = s(AN, 17); f("Rust's Debug of Some(password)", v, `Url { scheme: "https", password: Some("${v}"), host: Some(Domain("api.acme.io")) }`);
v = 'da2-' + s('abcdefghijklmnopqrstuvwxyz0123456789', 26); f('an AppSync API key', v, `{"apiKeys": [{"id": "${v}", "expires": 1735689600}]}`);

v = s(AN, 24) + '%2B' + s(AN, 8); f("a HAR's queryString item named sig", v, `  "queryString": [\n    {\n      "name": "sv",\n      "value": "2022-11-02"\n    },\n    {\n      "name": "sig",\n      "value": "${v}"\n    }\n  ],`);
v = s(AN, 24); f("Elixir's request headers (tuples)", v, `[{"host", "localhost:4000"}, {"authorization", "Bearer ${v}"}, {"accept", "*/*"}]`);
v = s(AN, 20); f("Python's header tuples", v, `headers=[('Accept', '*/*'), ('x-api-key', '${v}')]`);
v = pw(); f('vault kv get -format=json (a KV v2 secret)', v, `{\n  "request_id": "${uuid()}",\n  "data": {\n    "data": {\n      "admin": "${v}",\n      "readonly": "${pw()}"\n    },\n    "metadata": {\n      "version": 4\n    }\n  }\n}`);

// Older passes' forms closed in session 10.
v = pw(); f("git diff --word-diff's new value", v, `DB_PASSWORD=[-${pw()}-]{+${v}+}`);
v = s(AN, 16); f("rabbitmqctl environment's Erlang binary", v, ` {rabbit,[{default_pass,<<"${v}">>},\n          {default_user,<<"admin">>}]}`);
v = `${s(HEX, 8)}:${s(HEX, 8)}`; f("bundle config's gem source credentials", v, `gems.contribsys.com\nSet for the current user (/home/dev/.bundle/config): "${v}"`);
v = pw(); f("DENO_AUTH_TOKENS' second entry", v, `DENO_AUTH_TOKENS=${s(AN, 20)}@deno.land;ci:${v}@git.acme.io`);

v = `${s(HEX, 8)}-${s(HEX, 4)}-4${s(HEX, 3)}-a${s(HEX, 3)}-${s(HEX, 12)}`; f("scw iam api-key create's SecretKey row (a UUID)", v, `AccessKey                SCW${s('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 17)}\nSecretKey                ${v}\nApplicationID            ${uuid()}`);

// Adversary pass 20's forms (session 10).
v = s(AN, 52); f('dotnet nuget add source -p in shell history', v, `  512  dotnet nuget add source https://pkgs.dev.azure.com/acme/_packaging/shop/nuget/v3/index.json -n acme-shop -u dana -p ${v} --store-password-in-clear-text`);
v = pw(); f('conan remote login -p', v, `  531  conan remote login acme-conan dana -p '${v}'`);
v = pw(); f("drone secret add's --data", v, ` 1201  drone secret add --repository acme/shop --name docker_password --data '${v}'`);
v = s(B64, 40); f("woodpecker-cli secret add's --value", v, ` 1203  woodpecker-cli secret add --repository acme/shop --name s3_secret_key --value ${v}`);
v = pw(); f("mongosh's changeUserPassword", v, `  602  mongosh admin --eval 'db.changeUserPassword("reporting", "${v}")'`);
v = pw(); f('openssl enc -k', v, `  801  openssl enc -aes-256-cbc -salt -pbkdf2 -in db.sql -out db.sql.enc -k '${v}'`);
v = s(HEX, 64); f('openssl enc -K (a raw key)', v, `  802  openssl enc -d -aes-256-cbc -K ${v} -iv ${s(HEX, 32)} -in blob.bin -out blob.tar`);
v = s(AN, 16); f('rar -hp', v, `  803  rar a -hp${v} backups/invoices.rar invoices/`);
v = pw(); f("qpdf --encrypt's owner password", v, `  804  qpdf --encrypt '${pw()}' '${v}' 256 -- reports/q1.pdf reports/q1-locked.pdf`);
v = s(AN, 16); f("curl --cert's certificate password", v, `dana  481201  00:03 curl --cert ./certs/partner-client.p12:${v} --cert-type P12 https://mtls.partner.example/v2/orders`);
v = s(AN, 18); f("mysqlsh --uri's password", v, `dana  481301  00:02 mysqlsh --uri shop_admin:${v}@db1.acme.internal:3306 --sql`);
v = s(AN, 30); f("the OpenTelemetry collector's debug exporter (a header in Slice([...]))", v, `     -> http.request.header.authorization: Slice(["Bearer ${v}"])`);

v = 'K10' + s(HEX, 64) + '::' + s('abcdefghijklmnopqrstuvwxyz0123456789', 6) + '.' + s('abcdefghijklmnopqrstuvwxyz0123456789', 16); f('a k3s join token', v, v);
v = 'SU' + s('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 56); f('a NATS nkey seed in a .creds file', v, `-----BEGIN USER NKEY SEED-----\n${v}\n------END USER NKEY SEED------`);

v = s(B64, 40); f("a Rails console's answer to a credential's read", v, `shop(dev)> Rails.application.credentials.dig(:aws, :secret_access_key)\n=> "${v}"\nshop(dev)> Rails.application.credentials.dig(:aws, :region)\n=> "eu-central-1"`);
v = s(HEX, 32); f("IPython's Out[n] of a settings password", v, `In [2]: settings.EMAIL_HOST_PASSWORD\nOut[2]: '${v}'`);
v = s(AN, 32); f("jshell's $1 of System.getenv", v, `jshell> System.getenv("KEYCLOAK_CLIENT_SECRET")\n$1 ==> "${v}"`);
v = s(B64, 64); f("iex's answer, the value alone", v, `iex(1)> Application.fetch_env!(:shop, ShopWeb.Endpoint)[:secret_key_base]\n"${v}"`);
v = uuid(); f("PsySH's = of a token's config", v, `> config('services.postmark.token')\n= "${v}"`);

v = s(AN, 40); f("Android's SharedPreferences XML", v, `<map>\n    <string name="refresh_token">${v}</string>\n    <string name="saved_email">dana@acme.io</string>\n</map>`);
v = pw(); f("Fluent Bit's indented HTTP_Passwd", v, `[OUTPUT]\n    Name            http\n    HTTP_User       shop\n    HTTP_Passwd     ${v}`);

v = s(HEX, 40); f("gitea's generated access token (a git-SHA shape)", v, `Access token was successfully created: ${v}`);
v = pw(); f("netsh's key on a German Windows", v, `    Schlüsselinhalt        : ${v}`);
v = pw(); f("sbt's Credentials(realm, host, user, password)", v, `credentials += Credentials("Artifactory Realm", "acme.jfrog.io", "ci", "${v}")`);
v = s(AN, 43); f("drush uli's one-time login link", v, `https://shop.ddev.site/user/reset/1/1710148951/${v}/login`);

v = s(B64, 40); f("pyspark's getAll() pairs", v, `[('spark.app.name', 'sync'), ('spark.hadoop.fs.s3a.secret.key', '${v}'), ('spark.master', 'local[2]')]`);

v = s(AN, 64); f("auth0 apps show's CLIENT SECRET row", v, `  CLIENT ID            ${s(AN, 32)}\n  NAME                 Shop Sync (M2M)\n  CLIENT SECRET        ${v}\n  TOKEN ENDPOINT AUTH  client_secret_post`);

// Adversary pass 21 (session 11).
v = 'fm2_' + s(B64, 90); f('a Fly.io token after its scheme word in a variable (a bug: the scheme was masked, the token shown)', v, `FLY_API_TOKEN=FlyV1 ${v}`);
v = s(AN, 32); f('a bearer token after its scheme word in a variable', v, `API_TOKEN=Bearer ${v}`);
v = s(AN, 64); f("terraform outputs as name TAB value rows", v, `cluster_endpoint\thttps://4F2A.gr7.eu-west-1.eks.amazonaws.com\nrds_master_password\t${v}`);
v = pw() + '=3D' + s(AN, 6); f('a password told in a quoted-printable mail body', v, `Content-Transfer-Encoding: quoted-printable\n\nYour new VPN password is: ${v}`);
v = 'sk-proj-' + s(AN, 48); f("an OpenAPI document's bearer example", v, `- name: Authorization\n  in: header\n  example: Bearer ${v}`);
v = `T${s('ABCDEFGHJKLMNPQRSTUVWXYZ0123456789', 8)}/B${s('ABCDEFGHJKLMNPQRSTUVWXYZ0123456789', 10)}/${s(AN, 24)}`; f("a Slack webhook's path in curl -v's request line (the host on the next line)", v, `* Connected to hooks.slack.com (3.5.1.2) port 443\n> POST /services/${v} HTTP/2\n> Host: hooks.slack.com`);
v = s(B64, 86) + '=='; f("an Azure storage key in Spark's conf (its name ends in the account's host)", v, `[('spark.app.id', 'local-1710148951512'), ('spark.hadoop.fs.azure.account.key.acmelake.dfs.core.windows.net', '${v}'), ('spark.master', 'local[2]')]`);
v = s(AN, 86); f("a Keycloak realm export's one-item arrays", v, `    "config": {\n      "secret": [\n        "${v}"\n      ],\n      "priority": [\n        "100"\n      ]`);
v = s(B64, 43) + '='; f("an HMAC secret named hmac alone", v, `        "shop.partner.hmac": "${v}",`);
v = s(HEX, 32); f("Grafana's PagerDuty integrationKey", v, `          type: pagerduty\n          settings:\n            integrationKey: ${v}\n            severity: critical`);
// Adversary pass 22 (session 11).
v = pw(); f("a key/value table's row in sqlite3 .dump", v, `INSERT INTO settings VALUES('smtp_host','smtp.acme.io','2024-03-01 10:12:00');\nINSERT INTO settings VALUES('smtp_password','${v}','2024-03-01 10:12:00');`);
v = s(B64, 43) + '='; f("mongoexport's Extended JSON binary under a secret's name", v, `{"_id":{"$oid":"65eecd0f9a1b2c3d4e5f6a7b"},"signingSecret":{"$binary":{"base64":"${v}","subType":"00"}},"active":true}`);
v = pw(); f("RESP3's HELLO with AUTH in redis-cli MONITOR", v, `1710148951.512345 [0 10.0.3.17:51234] "HELLO" "3" "AUTH" "orders-svc" "${v}" "SETNAME" "orders-7c9d"`);
v = pw(); f("MySQL 5's SET PASSWORD = PASSWORD('…') in a general query log", v, `\t\t    18 Query\tSET PASSWORD FOR 'shop'@'%' = PASSWORD('${v}')`);
v = s(B64, 43) + '='; f("php artisan env:encrypt's key on a dot leader", v, `  Key ...................... base64:${v}  \n  Cipher ........................................................... AES-256-CBC  `);
v = s(AN, 37); f("Java's Properties.list() cutting a value at 37 characters", v, `-- listing properties --\npayments.api.secret=${v}...\nmail.smtp.port=587`);
v = s(AN, 60); f('a JSON token wrapped by fold -w 64', v, `{"user":"dana","access_token":"${v.slice(0, 30)}\n${v.slice(30)}","expires_in":3600}`);
v = pw(); f("an HTML table's password cell (a wiki page fetched with curl)", v, `<tr>\n  <td>Password</td>\n  <td>${v}</td>\n</tr>`);
v = s(AN, 40); f("an HTML definition list's API token", v, `<dl><dt>API token</dt><dd>${v}</dd></dl>`);
// Adversary pass 23 (session 11).
v = s(B64, 64); f("Elixir's runtime.exs fallback on the line below the env read", v, `  secret_key_base =\n    System.get_env("SECRET_KEY_BASE") ||\n      "${v}"\n\n  config :shop, ShopWeb.Endpoint,\n    secret_key_base: secret_key_base`);
v = b64(`shop-gw:${pw()}`); f("Envoy's request_headers_to_add (key, then value on the next line)", v, `                  request_headers_to_add:\n                  - header:\n                      key: "authorization"\n                      value: "Basic ${v}"`);
v = pw() + '#' + s(AN, 20); f("dynaconf list's typed values", v, `DEBUG<bool> False\nSECRET_KEY<str> '${v}'\nTIME_ZONE<str> 'Europe/Amsterdam'`);
v = s(AN + '-', 40); f("Caddy's DNS provider token", v, `{\n\temail ops@acme.io\n\tacme_dns cloudflare ${v}\n}`);
v = s(HEX, 40); f("Caddy's header_up of an API key header", v, `\treverse_proxy https://partner.example {\n\t\theader_up X-Partner-Key "${v}"\n\t}`);
v = s(HEX, 36) + 'NRAL'; f("New Relic's license key", v, `Name      Region   License key                                Account ID\ndefault   EU       ${v}   8659187`);
v = `${s('ABCDEFGHJKLMNPQRSTUVWXYZ0123456789', 8)}-${s('ABCDEFGHJKLMNPQRSTUVWXYZ0123456789', 8)}`; f("Bitwarden's hidden custom field", v, `{"name":"AWS root","fields":[{"name":"MFA recovery code","value":"${v}","type":1,"linkedId":null}]}`);
v = s(AN + '_-', 43); f("an OAuth authorization code in Spring's RestTemplate debug log", v, `DEBUG o.s.web.client.RestTemplate : Writing [{grant_type=[authorization_code], code=[${v}], redirect_uri=[https://shop.acme.io/login/oauth2/code/keycloak]}]`);
v = 'eyJpdiI6' + s(B64, 120); f("curl's cookie jar (cookies.txt)", v, `# Netscape HTTP Cookie File\n#HttpOnly_admin.acme.io\tFALSE\t/\tTRUE\t1710156151\tlaravel_session\t${v}`);
v = s(AN + '.', 24); f("Hatch's publish auth beside its user", v, `[publish.index]\nrepo = "private"\nuser = "ci-publisher"\nauth = "${v}"`);
v = s(HEX, 40); f("a notebook cell's execute_result of an expression reading a secret (jq '.cells[2]' of an .ipynb)", v, `{\n  "cell_type": "code",\n  "execution_count": 3,\n  "outputs": [\n    {\n      "data": {\n        "text/plain": [\n          "'${v}'"\n        ]\n      },\n      "output_type": "execute_result"\n    }\n  ],\n  "source": [\n    "import os\\n",\n    "os.environ[\\"WANDB_API_KEY\\"]"\n  ]\n}`);
v = s(HEX, 96); f("a TLS key log (SSLKEYLOGFILE)", v, `# SSL/TLS secrets log file, generated by NSS\nCLIENT_RANDOM ${s(HEX, 64)} ${v}\nCLIENT_HANDSHAKE_TRAFFIC_SECRET ${s(HEX, 64)} ${s(HEX, 64)}`);
// Adversary pass 24 (session 11).
v = s(AN, 43); f("Meilisearch's generated master key in a compose log", v, `meilisearch-1  | >> --master-key ${v} <<`);
v = s('abcdefghijklmnopqrstuvwxyz0123456789', 46); f('dotnet nuget push -k in a set -x trace', v, `+ dotnet nuget push bin/Release/Acme.Sdk.1.4.0.nupkg -k ${v} -s https://api.nuget.org/v3/index.json`);
v = s(AN, 24); f("pulumi stack output --show-secrets' table", v, `Current stack outputs (2):\n    OUTPUT            VALUE\n    dbEndpoint        shop.cluster-c9x2.eu-west-1.rds.amazonaws.com\n    dbPassword        ${v}`);
v = pw(); f('wget -d echoing its options', v, `Setting --user (user) to ci\nSetting --password (password) to ${v}\nDEBUG output created by Wget 1.21.3 on linux-gnu.`);
v = s('abcdefghijklmnopqrstuvwxyz0123456789', 32); f("a Python cookie jar's repr", v, `<RequestsCookieJar[<Cookie sessionid=${v} for localhost.local/>]>`);
v = s(AN, 36); f("mise set's KEY VALUE SOURCE table", v, `KEY                     VALUE                                   SOURCE\nPOSTMARK_SERVER_TOKEN   ${v}    ~/.config/mise/config.toml`);
v = s(HEX, 8) + ':' + s(HEX, 16); f("Bundler's gem source credentials in a build arg", v, `docker build --build-arg BUNDLE_GEMS__CONTRIBSYS__COM=${v} -t app .`);
v = s(HEX, 48); f("a GraphQL mutation's rotated key", v, `< {"type":"data","id":"2","payload":{"data":{"rotate_partner_key":{"key":"${v}"}}}}`);
v = pw(); f("Playwright's code frame filling a password field", v, `  11 |   await page.getByLabel('Password').fill('${v}');\n     |                                      ^`);
v = s(AN, 22); f("argocd app get --show-params' dotted camelCase names", v, `NAME                            VALUE\nauth.database                   shop\nauth.postgresPassword           ${v}`);
v = s('abcdefghijklmnopqrstuvwxyz0123456789', 46); f('vsce publish -p in a release script trace', v, `+ npx @vscode/vsce publish -p ${v}`);
v = s(AN, 32); f('cargo login with a bare token', v, `+ cargo login --registry acme ${v}`);
v = 'eu-' + uuid(); f('anaconda -t in a trace', v, `+ anaconda -t ${v} upload --user acme dist/acme-1.0.tar.bz2`);
v = s(AN, 40); f('a Copy-as-cURL cookie option on its own line', v, `curl 'https://admin.acme.io/api/orders' \\\n  -H 'accept: application/json' \\\n  -b '_ga=GA1.1.123.456; admin_session=${v}' \\\n  --compressed`);
v = pw(); f("az --debug's argv as a Python list", v, `cli.knack.cli: Command arguments: ['login', '-u', 'ci@acme.io', '-p', '${v}', '--tenant', 'acme.onmicrosoft.com']`);

// Adversary pass 24's ORM debug logs: a statement names the columns, its parameters are listed apart (bound-params.ts).
v = s(HEX, 64); f("knex's bindings under its query (DEBUG=knex:*)", v, `  knex:query insert into "password_resets" ("created_at", "email", "token") values ($1, $2, $3) undefined +0ms\n  knex:bindings [ 2024-03-11T09:22:31.512Z, 'dana@acme.io', '${v}' ] undefined +0ms`);
v = s(AN, 8) + '.' + s(AN, 32); f("knex's bindings with ? placeholders and a knex line between", v, `  knex:query insert into \`api_keys\` (\`name\`, \`secret\`, \`user_id\`) values (?, ?, ?) undefined +4ms\n  knex:client releasing connection to pool: __knexUid1 +1ms\n  knex:bindings [ 'ci', '${v}', 42 ] undefined +4ms`);
v = uuid(); f("Sequelize's logged parameters after the statement", v, `Executing (default): INSERT INTO "Integrations" ("id","provider","accessToken","refreshToken","createdAt","updatedAt") VALUES (DEFAULT,$1,$2,$3,$4,$5) RETURNING "id"; "hubspot", "${s(AN, 30)}", "${v}", "2024-03-11 09:22:31.512 +00:00", "2024-03-11 09:22:31.512 +00:00"`);
v = uuid(); f("Prisma's query event: Params under the INSERT", v, `Query: INSERT INTO "public"."Session" ("id","sessionToken","userId","expires") VALUES ($1,$2,$3,$4) RETURNING "public"."Session"."id"\nParams: ["clu1x2k4p0002abcd1234efgh","${v}","clu0a9b8c0000wxyz5678ijkl","2024-04-10 09:22:31.512 UTC"]`);
v = s(AN, 30); f("Prisma's query event: an UPDATE's SET", v, `Query: UPDATE "public"."Account" SET "access_token" = $1, "expires_at" = $2 WHERE ("public"."Account"."id" = $3 AND 1=1)\nParams: ["${v}",1710757351,"clu1x2k4p0001abcd1234efgh"]`);
v = s(AN, 24); f("Drizzle's -- params: on the statement's line", v, `Query: insert into "users" ("id", "email", "password") values (default, $1, $2) -- params: ["dana@acme.io", "${v}"]`);
v = s(AN, 24); f("SQLAlchemy's echo: the tuple under the statement", v, `INFO sqlalchemy.engine.Engine INSERT INTO users (email, api_token) VALUES (?, ?)\nINFO sqlalchemy.engine.Engine [generated in 0.00020s] ('dana@acme.io', '${v}')`);
v = s(AN, 40); f("Laravel's query log: bindings beside the query", v, `[{"query":"update \`users\` set \`remember_token\` = ?, \`updated_at\` = ? where \`id\` = ?","bindings":["${v}","2024-03-11 09:22:31",7],"time":1.2}]`);
v = s(HEX, 40); f("TypeORM's INSERT with PARAMETERS", v, `query: INSERT INTO "user"("email", "apiToken") VALUES ($1, $2) RETURNING "id" -- PARAMETERS: ["dana@acme.io","${v}"]`);
// Adversary pass 26 (session 11).
v = s(B64, 43) + '='; f("Nomad's gossip encryption key", v, `server {\n  enabled          = true\n  bootstrap_expect = 3\n  encrypt          = "${v}"\n}`);
v = uuid(); f("GitLab CI's expanded variable (value: under the name)", v, `variables:\n  CYPRESS_RECORD_KEY:\n    value: "${v}"\n    description: "Cypress Cloud record key"`);
v = pw(); f("winrs' -p: in PowerShell's history", v, `   2    3.118 winrs -r:http://app01.acme.local:5985 -u:ACME\\svc-deploy -p:${v} ipconfig`);
v = pw(); f("PsExec's -p", v, `PsExec64.exe \\\\app02 -u ACME\\svc-deploy -p ${v} cmd /c hostname`);
v = 'AKCp8' + s(AN, 68); f("JFrog's X-JFrog-Art-Api header and key", v, `+ curl -sf -H 'X-JFrog-Art-Api: ${v}' -T build/dist/shop-2.3.2.tgz https://acme.jfrog.io/artifactory/npm-local/`);
v = pw(); f("ssh-keygen's new passphrase (-N)", v, `ssh-keygen -p -P 'old-${pw()}' -N '${v}' -f ~/.ssh/id_ed25519`);
v = pw().replace(/[^A-Za-z0-9]/g, 'x'); f("unrar's attached -p", v, `unrar x -p${v} backup-2024-03.rar`);
v = 'dp.st.prd.' + s(AN, 43); f("a Doppler service token naming its config", v, v);
v = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC' + s(B64, 32); f('a PKCS#8 key body without its armour', v, `${v}\n${s(B64, 64)}\n${s(B64, 64)}`);
v = s(B64, 64); f("an encrypted legacy PEM's body after its headers' blank line", v, `-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,${s(HEX, 32).toUpperCase()}\n\n${v}\n${s(B64, 64)}`);
// Adversary pass 27 (session 11).
v = pw(); f("a flag ending -password (--conn-password) before its value", v, `airflow-init-1  | + airflow connections add etl_db --conn-type postgres --conn-login etl --conn-password ${v}`);
v = 'pypi-AgENdGVzdC5weXBpLm9yZw' + s(AN + '_-', 80); f("TestPyPI's token", v, `[pypi-token]\ntestpypi = "${v}"`);
v = s(AN, 20) + '%2B' + s(AN, 12); f("kombu's SQS broker URL (no host after the @)", v, `celery -A shop worker -b sqs://AKIA${s('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}:${v}@ -l info`);
v = s(HEX, 32); f("a list's first string under a secret's name", v, `{"api_token": ["${v}"], "scopes": ["read"]}`);
v = s(B64, 43) + '='; f("Kotlin DSL's password.set(…)", v, `publishing {\n  repositories {\n    maven {\n      credentials {\n        username.set("ci")\n        password.set("${v}")`);
v = s(HEX, 32); f('mix hex.organization auth --key', v, `  612  mix hex.organization auth acme --key ${v}`);
v = pw(); f("Elixir Req's basic auth tuple", v, `  auth: {:basic, "digest:${v}"},`);
v = s(B64, 43) + '='; f("dotnet user-jwts key's signing key", v, `Signing Key for issuer 'dotnet-user-jwts': ${v}`);
v = s(B64, 43) + '='; f('an Azure Key Vault response body in an SDK trace', v, `Response content: {"value":"${v}","id":"https://acme-kv.vault.azure.net/secrets/partner-hmac-key/4f1e","attributes":{"enabled":true}}`);
v = s(AN, 16); f("a Cloudsmith entitlement token in an index URL", v, `[registries.acme]\nindex = "sparse+https://dl.cloudsmith.io/${v}/acme/crates/cargo/"`);
v = s(B64, 60); f("a PEM key continued over a Java .properties value's lines", v, `app.jwt.private-key=-----BEGIN PRIVATE KEY-----\\n\\\n    MIIEvQIBADANBgkqhkiG9w0BAQEFAASC${s(B64, 32)}\\n\\\n    ${v}\\n\\\n    -----END PRIVATE KEY-----`);
// Adversary pass 28 (session 11).
v = s(AN, 32); f("Kafka's JAAS PlainLoginModule users", v, `KafkaServer {\n   org.apache.kafka.common.security.plain.PlainLoginModule required\n   username="admin"\n   user_svc-orders="${v}";\n};`);
v = s(AN, 32); f("Redis Sentinel's auth-pass", v, `sentinel monitor mymaster 10.0.3.21 6379 2\nsentinel auth-pass mymaster ${v}`);
v = pw(); f("kadmin -w in shell history", v, `  812  kadmin -p admin/admin -w '${v}' -q "listprincs"`);
v = pw(); f('a literal piped into kinit', v, `  813  echo '${v}' | kinit svc-etl@ACME.LOCAL`);
v = pw(); f("Squid's cache_peer login", v, `cache_peer proxy.acme.io parent 3128 0 no-query default login=acme-egress:${v}`);
v = pw().replace(/:/g, 'x'); f("Dovecot's {PLAIN} passwd-file entry", v, `alerts@acme.io:{PLAIN}${v}::::::`);
v = s(B64, 43) + '='; f("Pulsar's tokenSecretKey data URL", v, `tokenSecretKey=data:;base64,${v}`);
v = s(B64, 43); f("a runner's RSA private parameters (one-line JSON)", v, `{"d":"${v}","dp":"${s(B64, 22)}","dq":"${s(B64, 22)}","exponent":"AQAB","inverseQ":"${s(B64, 22)}","modulus":"${s(B64, 43)}"}`);
v = s(AN, 32); f('Fluentd directives with one blank', v, `<match azure.**>\n  @type azure-loganalytics\n  customer_id 2b8e6f0e-aaaa-bbbb-cccc-123456789012\n  shared_key ${v}\n</match>`);
v = 'zaq1 ' + ['zhiww', 'fjxl', 'aahvuwl', 'jnag'].join(' '); f("a passphrase of words in systemd's quoted Environment=", v, `[Service]\nEnvironment="BORG_PASSPHRASE=${v}"`);
v = s(AN, 22); f("Alloy's header block (HCL key = / value =)", v, `otelcol.auth.headers "honeycomb" {\n  header {\n    key   = "x-honeycomb-team"\n    value = "${v}"\n  }\n}`);
// Adversary pass 58 (session 15's second closing measure).
v = s(AN + '-_', 43); f("Hibernate's TRACE line binding a reset token by its position in the statement above", v, `2024-05-02 09:14:07.301 DEBUG 4121 --- [nio-8080-exec-3] org.hibernate.SQL                        : update users set email=?, password_hash=?, reset_token=?, reset_token_expires_at=? where id=?\n2024-05-02 09:14:07.302 TRACE 4121 --- [nio-8080-exec-3] o.h.type.descriptor.sql.BasicBinder      : binding parameter [1] as [VARCHAR] - [dana@acme.dev]\n2024-05-02 09:14:07.302 TRACE 4121 --- [nio-8080-exec-3] o.h.type.descriptor.sql.BasicBinder      : binding parameter [2] as [VARCHAR] - [$2a$10$dUvuuoqGwLXPPiYBK5.sNcf6JuldISJQpatmrfPlTWA.da2Q6drPF]\n2024-05-02 09:14:07.302 TRACE 4121 --- [nio-8080-exec-3] o.h.type.descriptor.sql.BasicBinder      : binding parameter [3] as [VARCHAR] - [${v}]\n2024-05-02 09:14:07.302 TRACE 4121 --- [nio-8080-exec-3] o.h.type.descriptor.sql.BasicBinder      : binding parameter [4] as [BIGINT] - [1042]`);
v = s(AN, 40); f("Hibernate 6's `binding parameter (n:TYPE) <- [value]` under an INSERT", v, `org.hibernate.SQL : insert into api_keys (owner_id,secret,created_at) values (?,?,?)\norg.hibernate.orm.jdbc.bind : binding parameter (1:BIGINT) <- [42]\norg.hibernate.orm.jdbc.bind : binding parameter (2:VARCHAR) <- [${v}]\norg.hibernate.orm.jdbc.bind : binding parameter (3:TIMESTAMP) <- [2024-05-02T10:14:07Z]`);
v = s(LOWER_AN, 32); f("Django's DEBUG page's COOKIES section: the session cookie by its name", v, `COOKIES:\ncsrftoken = '${s(AN, 32)}'\nsessionid = '${v}'\n\nMETA:`);
v = s(HEX, 32).toUpperCase(); f('a JSESSIONID outside a Cookie header', v, `JSESSIONID: ${v}`);
// Adversary pass 59 (session 15's closing attack).
v = s(HEX, 64); f("klist -k -K's keytab keys (the enctype, then the key in hex)", v, `Keytab name: FILE:/etc/krb5.keytab\nKVNO Timestamp           Principal\n---- ------------------- ------------------------------------------------------\n   3 12/01/2026 06:02:11 host/web01.acme.internal@ACME.INTERNAL (aes256-cts-hmac-sha1-96)  (0x${v})`);
v = 'nYeX^' + s(AN, 15); f("R's str() of a config list (the type word before the value)", v, `List of 3\n $ warehouse:List of 4\n  ..$ account : chr "acme-eu1"\n  ..$ dbpass  : chr "${v}"\n  ..$ role    : chr "REPORTER"`);
v = s(AN, 40); f("Clojure's pprint of an EDN map (a keyword, no separator, its string)", v, `{:s3\n  {:bucket "acme-ledger-exports",\n   :region "eu-central-1",\n   :secret-key "${v}"},\n :features #{:exports :audit}}`);
v = 'ghp_' + s(AN, 36); f("Node's inspect of a Buffer holding a token", Buffer.from(v).toString('hex').replace(/(..)(?!$)/g, '$1 ').slice(12, 60), `<Buffer ${Buffer.from(v).toString('hex').replace(/(..)(?!$)/g, '$1 ')}>`);
{
  const bytes = Array.from({ length: 16 }, () => Math.floor(rnd() * 256));
  f("zigbee2mqtt's network_key, a list of byte values under its name", bytes.slice(2, 8).join(', '), `advanced:\n  network_key: [${bytes.join(', ')}]\n  pan_id: 6754`);
}
// Adversary pass 60 (session 15's third closing measure).
v = s(AN, 32); f("redis-server's --requirepass as a Compose command list's items", v, `services:\n  redis:\n    image: redis:7-alpine\n    command: ["redis-server", "--requirepass", "${v}"]`);
v = s(AN, 12) + '#' + s(AN, 5); f("curl -u with the password alone in single quotes (a shell history line)", v, `  512  curl -u admin:'${v}' https://jenkins.acme.io/api/json`);
v = s(AN, 32); f("a Postman collection's API key auth (the key under `\"key\": \"value\"`)", v, `{\n  "type": "apikey",\n  "apikey": [\n    {\n      "key": "value",\n      "value": "${v}",\n      "type": "string"\n    },\n    {\n      "key": "key",\n      "value": "X-API-Key",\n      "type": "string"\n    }\n  ]\n}`);
v = s(AN, 32); f("a Postman collection's API key auth, the header's name first", v, `{"auth":{"type":"apikey","apikey":[{"key":"key","value":"X-API-Key","type":"string"},{"key":"value","value":"${v}","type":"string"}]}}`);
// Adversary pass 29 (session 11's last, fixed in session 12).
const hexUpper = (t: string) => Buffer.from(t).toString('hex').toUpperCase();
v = s(AN, 6) + ' ' + s(AN, 5) + '"' + s(AN, 6); f("auditd's raw EXECVE with an argument in hex (a blank and a quote in it)", hexUpper(v), `type=EXECVE msg=audit(1710148351.512:48211): argc=4 a0="pg_basebackup" a1="-h" a2="db-1" a3=${hexUpper(`--password=${v}`)} a4="-D/var/backups/pg"`);
v = s(AN, 10) + ' ' + s(AN, 8); f("auditd's PROCTITLE (argv in hex, NUL between)", hexUpper(v), `type=PROCTITLE msg=audit(1710148351.512:48216): proctitle=${hexUpper(`sshpass\0-p\0${v}\0ssh\0deploy@web-1`)}`);
v = pw(); f("lftp -d's FTP transcript", v, `---> USER deploy\n<--- 331 Password required for deploy\n---> PASS ${v}\n<--- 230 User deploy logged in`);
v = pw().replace(/"/g, ''); f("curl -v's IMAP LOGIN", v, `> A002 LOGIN alerts@acme.io ${v}\n< A002 OK Logged in`);
v = s(AN, 32); f("redis MONITOR's CONFIG SET masterauth", v, `1710148351.918220 [0 10.0.5.30:40112] "CONFIG" "SET" "masterauth" "${v}"`);
v = s(AN, 30); f('a URL password in a quoted-printable mail body', v, `Content-Transfer-Encoding: quoted-printable\n\nstarting report with\ndb_url=3Dpostgresql://report:${v}@db-1/repor=\nt`);
v = s(AN, 20); f("a .properties value continued with a backslash", v, `ldap.bind.dn=cn=svc-jira,ou=svc,dc=acme\nldap.bind.password=${s(AN, 20)}\\\n    ${v}\nldap.user.base=ou=people,dc=acme`);
v = s(AN, 40) + '='; f("a SAS sig decoded by parse_qs after its URL", v, `https://acme.blob.core.windows.net/private/x.csv?se=2024-03-11T10%3A12%3A44Z&sp=r&sv=2023-11-03&sr=b&sig=${encodeURIComponent(v)}\n{'se': ['2024-03-11T10:12:44Z'], 'sp': ['r'], 'sig': ['${v}']}`);
v = s(AN, 20); f("Maven's effective settings: an HTTP header's name and value elements", v, `          <property>\n            <name>Deploy-Token</name>\n            <value>${v}</value>\n          </property>`);
v = s(B64, 40); f("Hadoop's core-site.xml property", v, `  <property>\n    <name>fs.s3a.secret.key</name>\n    <value>${v}</value>\n  </property>`);
// Adversary passes 30 and 31 (session 12): objects dumped by runtimes and test tools; version control and secret scanners.
v = `${s(HEX, 32)}-${s(HEX, 8)}-${s(HEX, 8)}`; f("Mailgun's key as a call's argument in a patch", v, `-	mg := mailgun.NewMailgun("mg.acme.io", "${v}")`);
v = s(AN, 20); f("trufflehog's raw result of an LDAP finding", v, `Raw result: ldap://ldap.acme.internal:389\tcn=jenkins,ou=svc,dc=acme\t${v}`);
v = s(AN, 40); f("GitLab secret detection's raw_source_code_extract", v, `  "raw_source_code_extract": "${v}",`);
v = s(B64, 64); f("ggshield's occurrence match", v, `          "occurrences": [\n            {\n              "match": "${v}",\n              "type": "apikey",`);
v = s(AN, 48); f("gitleaks' SARIF snippet", v, `      "text": "generic-api-key has detected secret for file src/config/partners.ts."\n    },\n    "ruleId": "generic-api-key",\n    "locations": [\n      {\n        "physicalLocation": {\n          "region": {\n            "startLine": 18,\n            "snippet": {\n              "text": "${v}"\n            }`);
v = pw().replace(/"/g, ''); f("detect-secrets audit --report's secrets", v, `        "secrets": "${v}",\n        "types": [\n            "Basic Auth Credentials"`);
v = pw().replace(/[=#]/g, 'x'); f("git filter-repo's replace-text line", v, `literal:${v}==>***REMOVED***`);
v = s(B64, 40); f('an AWS secret key beside its key id', v, `  creds = Aws::Credentials.new('AKIA${s('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}', '${v}')`);
v = s(AN, 40); f("Capistrano's set of a secret symbol", v, `config/deploy/production.rb:14:set :s3_secret, "${v}"`);
v = s(AN, 20); f('a *_CREDS literal in a kustomize secretGenerator hunk', v, `+      - OPENSEARCH_CREDS=shop-api:${v}`);
v = s(AN, 800); f('a long token as a pip index URL password', v, `+--extra-index-url https://aws:${v}@acme-123456789012.d.codeartifact.eu-west-1.amazonaws.com/pypi/shop/simple/`);
v = pw().replace(/['"\s]/g, 'x'); f("git diff --word-diff=porcelain's old and new words", v, `   password: \n-"${v}"\n+"${pw().replace(/['"\s]/g, 'x')}"\n~`);
v = s(B64, 40); f("git diff -U0 of a rotated EC key (no armour lines)", v, `@@ -2,3 +2,3 @@\n-MHcCAQEEI${s(B64, 55)}\n-${v}${s(B64, 24)}\n-${s(B64, 20)}==`);
v = pw().replace(/'/g, 'x'); f("PDO's password argument", v, `abc123:legacy/db.php:5:$pdo = new PDO('mysql:host=db;dbname=shop', 'shop_rw', '${v}');`);
v = s(HEX, 32); f("algoliasearch's admin key argument", v, `-export const client = algoliasearch('K7QW2ZP9XM', '${v}');`);
v = pw().replace(/"/g, 'x'); f("jsforce's conn.login with the password and token", v, `scripts/sf_sync.js:11:  await conn.login("integration@acme.io", "${v}");`);
v = s(AN, 24); f("a Python bytes repr under a secret's name", v, `SessionConfig(cookie_name='__Host-sid', secret_key=b"${v}")`);
v = pw().replace(/"/g, 'x'); f("an Elixir charlist under a secret's name", v, `  bind_password: ~c"${v}",`);
v = s(AN, 40); f("Go's http.Header in a testify diff", v, `actual  : http.Header{"Accept":[]string{"application/json"}, "X-Api-Key":[]string{"${v}"}}`);
v = s(B64, 40); f("a key's lines as pprint's string pieces", v, `{'client_email': 'x@y.iam.gserviceaccount.com',\n 'private_key': '-----BEGIN PRIVATE KEY-----\\n'\n                'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7nRCBxmMpgoOD\\n'\n                '${v}${s(B64, 24)}\\n'\n                '-----END PRIVATE KEY-----\\n',`);
v = s(AN, 40); f("node inspect's exec of a secret variable", v, `debug> exec process.env.SESSION_SECRET\n'${v}'\ndebug> `);
v = pw().replace(/[\s%]/g, 'x'); f("Go's %+v of a url.URL's Userinfo", v, `Upstream:{Scheme:https Opaque: User:mirror:${v} Host:registry.acme.io Path:/v2}`);
v = s(HEX, 40); f("IPython's %whos row", v, `In [1]: %whos\nVariable   Type      Data/Info\n------------------------------\napi_key    str       ${v}\nrows       list      n=1204`);
// Adversary passes 32 and 33 (session 12): mobile and frontend builds; data and AI tooling.
v = pw().replace(/"/g, 'x'); f("Gradle's signingConfigs under grep -n -A", v, `104-        release {\n105-            storePassword "${v}"\n106-            keyAlias "upload"`);
v = pw().replace(/"/g, 'x'); f("a Kotlin fallback after System.getenv", v, `        storePassword = System.getenv("UPLOAD_STORE_PASSWORD") ?: "${v}"`);
v = pw().replace(/"/g, 'x'); f("Gradle's providers.gradleProperty(…).getOrElse", v, `        keyPassword = providers.gradleProperty("uploadKeyPassword").getOrElse("${v}")`);
v = s(AN, 22); f("Xcode's build log export with an escaped =", v, `    export PARTNER_API_SECRET\\=${v}`);
v = s(AN, 20); f("an .xcconfig URL written https:/$()/", v, `PARTNER_FEED_URL = https:/$()/shop-ios:${v}@feeds.acme.io/v1/catalog`);
v = pw().replace(/"/g, 'x'); f("a Fastfile's ENV[…] ||=", v, `    ENV["MATCH_PASSWORD"] ||= "${v}"`);
v = s(HEX, 32); f("EAS CLI's padded Name / Value labels", v, `ID            3a378d67-cf3b-47f2-9d2d-d0837da37bdf\nName          ALGOLIA_ADMIN_KEY\nValue         ${v}\nScope         Project`);
v = s(B64, 43) + '='; f("react-native-config's Objective-C dictionary", v, `  #define DOT_ENV @{ @"API_URL":@"https://api.acme.io",@"PARTNER_CLIENT_SECRET":@"${v}" };`);
v = s(AN, 32); f("Vercel's protection bypass header", v, `      headers: { 'x-vercel-protection-bypass': '${v}' },`);
v = s(LOWER_AN, 32); f('a cookie in DevTools\' Copy as PowerShell', v, `$session.Cookies.Add((New-Object System.Net.Cookie("sessionid", "${v}", "/", "admin.acme.io")))`);
v = `${s(HEX, 8)}-${s(HEX, 4)}-4${s(HEX, 3)}-9${s(HEX, 3)}-${s(HEX, 12)}`; f("cypress run's record key in a bash -x trace", v, `+ npx cypress run --record --key ${v} --parallel`);
v = s(HEX, 40); f('wandb login in shell history', v, `  502  wandb login ${v}`);
v = s(AN, 40); f("a Rust pretty Debug Some( with the value below", v, `Args {\n    api_key: Some(\n        "${v}",\n    ),\n    port: 80,`);
v = `sk-ant-api03-${s(AN, 51)}`; f("LiteLLM's verbose curl with the key's tail starred", v, `-H 'x-api-key: ${v}${'*'.repeat(44)}' \\`);
v = `${s(HEX, 8)}-${s(HEX, 24)}`; f("a Jupyter kernel connection file's key", v, `{\n  "shell_port": 59871,\n  "ip": "127.0.0.1",\n  "key": "${v}",\n  "transport": "tcp",\n  "signature_scheme": "hmac-sha256",\n  "kernel_name": "python3"\n}`);
v = s(B64, 40); f("DuckDB's CREATE SECRET echoed", v, `CREATE SECRET gcs_lake (TYPE gcs, KEY_ID 'GOOG1E${s('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 30)}', SECRET '${v}');`);
// Adversary pass 35 (session 12): containers and orchestration.
v = s(AN, 24); f("docker compose config's command list (- --requirepass, - value)", v, `    command:\n      - redis-server\n      - --requirepass\n      - ${v}\n      - --appendonly`);
v = pw().replace(/#/g, 'x'); f("oc extract --to=-'s # key then value", v, `# database-name\nshop\n# database-password\n${v}\n# database-user\nshop`);
v = s(AN, 32); f("Rails' Active Record encryption primary key in env", v, `ACTIVE_RECORD_ENCRYPTION_PRIMARY_KEY=${v}`);
v = s(AN, 32); f("a chart's activeRecordEncryption.deterministicKey", v, `    activeRecordEncryption:\n      deterministicKey: ${v}`);
v = s(AN, 32); f("Harbor's core.xsrfKey", v, `core:\n  xsrfKey: ${v}`);
v = s(HEX, 64); f("kubeadm's certificate key, alone and in the join command", v, `[upload-certs] Using certificate key:\n${v}\n\tkubeadm join 10.0.0.1:6443 --token x.y --control-plane --certificate-key ${v}`);
v = 'K006' + s(B64, 27); f("Backblaze B2's application key in rclone.conf", v, `    [b2]\n    type = b2\n    account = 0061a2b3c4d5\n    key = ${v}`);
// Adversary pass 34 (session 12): Windows, .NET and enterprise administration.
v = pw().replace(/[/*"]/g, 'x'); f('net user NAME PASSWORD /add in PSReadLine history', v, `net user svc-backup ${v} /add /y`);
v = pw().replace(/[/*"]/g, 'x'); f("rasdial's password argument", v, `rasdial "ACME VPN" dana ${v}`);
v = pw().replace(/[/*"]/g, 'x'); f("net use's password before /user in an echo-on batch file", v, `C:\\deploy>net use \\\\fs01\\releases$ /user:ACME\\svc-release ${v} /persistent:no`);
v = pw().replace(/"/g, 'x'); f("SQLCMD mode's :connect -P and :setvar", v, `:setvar ReportReaderPassword "${v}"\n:connect sql01.acme.local -U deploy_admin -P ${pw().replace(/"/g, 'x')}`);
v = s(AN, 24); f("Export-Clixml's hashtable entry", v, `      <En>\n        <S N="Key">ApiToken</S>\n        <S N="Value">${v}</S>\n      </En>`);
v = 'a3,d2,79,3b,85,c9,43,7f'; f("a .reg file's hex password bytes (TightVNC)", v, `[HKEY_LOCAL_MACHINE\\SOFTWARE\\TightVNC\\Server]\n"Password"=hex:${v}`);
v = pw().replace(/[<>]/g, 'x'); f("unattend.xml's AdministratorPassword <Value>", v, `        <UserAccounts>\n          <AdministratorPassword>\n            <Value>${v}</Value>\n            <PlainText>true</PlainText>\n          </AdministratorPassword>`);
v = pw().replace(/'/g, 'x'); f("T-SQL's N'…' password", v, `EXEC sp_addlinkedsrvlogin @rmtsrvname = N'PARTNER', @useself = N'False', @rmtuser = N'acme_reader', @rmtpassword = N'${v}';`);
v = pw().replace(/['"]/g, 'x'); f("a script's -SqlPwd parameter in an Azure Pipelines debug log", v, `##[debug]ScriptArguments=-SqlServer sql01 -SqlUser shopadmin -SqlPwd ${v} -Environment prod`);
v = s(B64, 54) + '=='; f("Azure Pipelines' setvariable of a camelCase key", v, `##[debug]Processed: ##vso[task.setvariable variable=funcHostKey;isOutput=true]${v}`);
v = pw().replace(/"/g, 'x'); f("choco source add's -p", v, `##[group]Run choco source add -n=acme -s="https://nexus.acme.io/repository/choco/" -u="svc-choco" -p="${v}" --priority=1`);
// Adversary pass 36 (session 12's final check).
v = 'D9FMb#' + s(AN, 6) + ';' + s(AN, 6); f("grafana.ini's triple-quoted password", v, `[database]\ntype = postgres\npassword = '''${v}'''`.replace(/'''/g, '"""'));
// Adversary passes 37-39 (session 13).
v = s(HEX, 32); f('a YAML anchor between a key and its value (compose.yaml)', v, `x-dd: &dd\n  DD_SITE: datadoghq.eu\n  DD_API_KEY: &ddkey ${v}\n`);
v = s(HEX, 32); f("a password in a YAML flow map, the map's } after it", v, `x-smtp: &smtp {host: in-v3.mailjet.com, port: 587, password: ${v}}`);
v = s(AN, 20); f("curl's short options run together, -u last (an Actions log)", v, `deploy\tSnapshot indices\t2024-03-11T09:12:31.5123456Z + curl -fsSu elastic:${v} -XPUT https://es.acme.internal:9200/_snapshot/nightly`);
v = 'sbp_' + s(HEX, 40); f('a Supabase token file without a final newline, run into the next file', v, `output: text\n${v}scoped:\n    /:\n`);
v = s(AN, 24); f("urlparse's ParseResult netloc", v, `ParseResult(scheme='postgres', netloc='shop:${v}@db-1.acme.internal:5432', path='/shop', params='', query='sslmode=require', fragment='')`);
v = s(B64, 43) + '='; f("a Go struct's %+v field after an acronym (CSRFKey)", v, `2024/03/11 09:12:31 main.go:58: config: &{Addr::8080 CSRFKey:${v} SMTP:{Host:smtp.postmarkapp.com Port:587}}`);
v = s(HEX, 64).toUpperCase(); f("openssl enc -P's derived key", v, `salt=${s(HEX, 16).toUpperCase()}\nkey=${v}\niv =${s(HEX, 32).toUpperCase()}`);
v = `${s(HEX, 8)}-${s(HEX, 8)}`.toUpperCase(); f("ltrace's getenv of a secret variable and its return value", v, `licensed->getenv("LICENSED_SERVER") = "https://lic.acme.io"\nlicensed->getenv("LICENSED_KEY") = "${v}"`);
v = `${s(AN, 16).toUpperCase()}:${s(B64, 64)}`; f("a connector's basic.auth.user.info (Schema Registry key:secret)", v, `{"connection.user":"kafka_sink","value.converter.basic.auth.user.info":"${v}","name":"jdbc-sink"}`);
v = 'K001' + s(AN, 20); f("rclone's --b2-key in pstree -a", v, `  ├─sh,4810 -c rclone sync /data b2:acme-backup --b2-account 0012a3b4c5d6e7f0000000001 --b2-key ${v}`);
// Adversary passes 40 and 41 (session 13): tokens whose punctuation splits a token run, credential files through diff and line tools.
v = `access_token$production$${s(LOWER_AN, 16)}$${s(HEX, 32)}`; f("Braintree's access token", v, `BT_ENV=production\nBT=${v}`);
v = `00D${s(AN, 12)}!AR8AQ${s(AN + '._', 90)}`; f('a Salesforce session id in a log line', v, `sf-export: connected to https://acme.my.salesforce.com as dana@acme.io (${v})`);
v = pw(); f("a .pgpass line after a diff's +", v, ` localhost:5432:*:dana:dana\n+db-1.acme.internal:5432:shop:shop_app:${v}`);
v = 'Zq' + s(AN, 16); f("a .properties password with a blank for its separator", v, `spring.datasource.url=jdbc:postgresql://db/shop\nspring.datasource.password ${v}`);
v = s(HEX, 32); f("a RubyGems credentials file's key under its host's URL", v, `---\n:rubygems_api_key: rubygems_${s(HEX, 48)}\nhttps://gems.acme.io: ${v}`);
v = s(AN, 10) + '7' + s(AN, 9); f("a token as a URL's user with an empty password (Gemfury)", v, `[global]\nextra-index-url = https://${v}:@pypi.fury.io/acme/`);
v = s(B64, 43) + '='; f("a TOML array of keys under a plural name", v, `webhook_keys = [ "${v}", "${s(B64, 43)}=" ]`);
v = s(B64, 43) + '='; f("a JSON array of keys over lines (sops -d)", v, `    "session_keys": [\n        "${v}",\n        "${s(B64, 43)}="\n    ],`);
v = s(HEX, 40); f("a TOML multi-line string below its key", v, `client_secret = """\n${v}"""\nregion = "eu"`);
v = s(B64, 43) + '='; f('a cookie signing secret named without _KEY', v, `COOKIE_SIGNING=${v}`);
v = s(AN, 20); f("a name/value pair in a JSON document held in a JSON string (kubectl's last-applied-configuration)", v, `  "kubectl.kubernetes.io/last-applied-configuration": "{\\"spec\\":{\\"env\\":[{\\"name\\":\\"DB_PASSWORD\\",\\"value\\":\\"${v}\\"}]}}\\n",`);
v = 'Fd' + s(AN, 28) + '7Q'; f("an LLM tool's keys file keyed by provider", v, `{\n  "openai": "sk-proj-${s(AN, 40)}",\n  "mistral": "${v}"\n}`);
// Adversary pass 42 (session 13): tokens a token run does not hold whole, a map keyed by API key ids.
v = `${'A'.repeat(21)}${s(AN, 4)}AAAAAAA${s(AN, 2)}%2B${s(AN, 20)}%3D${s(AN, 50)}`; f('an X app-only bearer token as a YAML list item', v, `    twitter:\n        - ${v}`);
v = s(AN, 43); f("livekit.yaml's keys map", v, `port: 7880\nkeys:\n  API${s(AN, 12)}: ${v}\n`);
v = `${s(AN, 6)}.${s(AN, 6)}:${s(AN, 43)}`; f('an Ably key', v.split(':')[1], `REALTIME=${v}`);
// Adversary pass 44 (session 13's third final check).
v = s(B64, 86) + '=='; f("a PascalCase …Key in Azure Functions' local.settings.json", v, `{\n  "Values": {\n    "CosmosDbKey": "${v}",\n    "FUNCTIONS_WORKER_RUNTIME": "node"\n  }\n}`);
// Adversary passes 45 and 46 (session 13).
v = `*:*.${s(HEX, 64)}`; f("an Unleash admin token in a box table's cell", v.slice(4), `│ prod    │ ${v}  │`);
v = 'kzqv gacra brhenv kvkf ujdehpp '; f("pprint's pieces of a long value under a secret's name", v, ` 'GPG_PASSPHRASE': ('${v}'\n                    'mzpv shkfhwd xoqpmm yqit rirkd sequk'),`);
v = s(AN, 64); f(".NET's GetDebugView: a Key under Jwt: and its siblings", v, `Jwt:\n  Issuer=https://api.acme.io (JsonConfigurationProvider for 'appsettings.json' (Optional))\n  Key=${v} (JsonConfigurationProvider for 'secrets.json' (Optional))`);
v = s(AN, 40); f("launchctl print's SYNC_TOKEN", v, `\tenvironment = {\n\t\tSYNC_TOKEN => ${v}\n\t}`);
v = s(AN, 20).toUpperCase(); f("an Erlang release's -setcookie in ps", v, `  812 /opt/shop/erts-14.2/bin/beam.smp -- -root /opt/shop -noshell -s elixir start_cli -mode embedded -setcookie ${v} -sname shop`);
v = 'ukHJ-2GkrkXE\\303\\251'; f("macOS security's escaped echo of a password beside its hex", v, `password: 0x756B484A2D32476B726B5845C3A9  "${v}"`);

// Adversary pass 48: a Redis key named like a credential in MONITOR's log and at a prompt, a quoted-printable mail, an encoding
// in the name, a Sentry event's header pairs.
v = s(AN, 43); f('redis-cli MONITOR: SET under a key named for a token', v, `1710148951.513002 [0 10.0.3.14:52110] "SET" "api_token:dana" "${v}" "EX" "3600"`);
v = s(AN, 24); f("redis-cli MONITOR: SETEX's seconds between", v, `1710148951.6 [0 10.0.3.14:52110] "SETEX" "oauth:refresh_token:77" "600" "${v}"`);
v = s(AN, 24); f('a redis-cli prompt: SET under a key named for a secret', v, `127.0.0.1:6379> SET app:webhook_secret:9 ${v}\nOK`);
v = pw(); f("a quoted-printable mail's password=3D", v, `Content-Transfer-Encoding: quoted-printable\n\nusername=3D dana\npassword=3D ${v}\nPlease change it.=20`);
v = s(HEX, 36); f('a PIN in hex under its name', v, `09:12:31 hsm login slot=0 user=CU pin_hex=${v}`);
v = Buffer.from(pw()).toString('base64'); f('a token in base64 under its name', v, `API_TOKEN_B64=${v}`);
v = s(AN, 32); f("a Sentry event's headers as [name, value] pairs", v, `[\n  ["Host", "api.acme.io"],\n  ["X-Api-Token", "${v}"],\n  ["User-Agent", "okhttp/4.12.0"]\n]`);

// Adversary passes 49 and 51: command lines of VPN, Wi-Fi and database clients, expect's answer, a websocket's bearer, a
// random_password's attributes, a JWT and a kubeconfig's key folded over lines.
v = pw(); f("vsql -w in ps", v, `4990   00:07 /opt/vertica/bin/vsql -h vt01.internal -U dbadmin -w ${v} -f /tmp/nightly.sql`);
v = pw(); f("openfortivpn -p in history", v, ` 1042  sudo openfortivpn vpn2.acme.com:443 -u bob -p '${v}' --trusted-cert 3e9f1c0a7b`);
v = pw(); f("echo into openconnect --passwd-on-stdin", v, ` 1041  echo '${v}' | sudo openconnect --protocol=anyconnect --user=bob --passwd-on-stdin vpn.acme.com`);
v = pw(); f("wpa_passphrase's passphrase", v, `  302  wpa_passphrase Acme-Office '${v}' | sudo tee /etc/wpa_supplicant/wpa_supplicant-wlan0.conf`);
v = pw(); f("expect's send after a password prompt", v, ` 211  expect -c 'spawn ssh admin@10.0.8.21; expect "assword:"; send "${v}\\r"; interact'`);
v = Buffer.from(`eyJhbGciOiJSUzI1NiJ9.${s(AN, 40)}.${s(AN, 40)}`).toString('base64url'); f("a Kubernetes exec websocket's bearer subprotocol", v, `> Sec-WebSocket-Protocol: base64url.bearer.authorization.k8s.io.${v}, v4.channel.k8s.io`);
v = Buffer.from(s(AN, 30)).toString('base64'); f("a script's progress: new api key: <base64>", v, `rotating prod\n  new db password: [hidden]\n  new api key: ${v}\ndone`);
v = pw(); f("a random_password's attributes without its type", v, `{\n  "bcrypt_hash": "$2a$10$${s(AN, 53)}",\n  "id": "none",\n  "keepers": null,\n  "length": 24,\n  "override_special": "!#%&*",\n  "result": "${v}",\n  "special": true\n}`);

// Adversary passes 61 and 62 (session 16): chat messages, a header pair, quoted-printable, the secrets context, app passwords, webhook paths.
v = s(AN, 40) + '7'; f('a Discord message: "the api token for staging: …"', v, `[{"id":"1312345678901234567","type":0,"content":"here's the api token for staging: ${v} (rotate after friday)","channel_id":"1180"}]`);
v = 'ypMp@fWU' + s(AN, 12); f('a Slack message: pass in a code span', v, `  "text": "prod db creds for the migration: user \`app\` / pass \`${v}\`",`);
v = s(AN, 39) + '9'; f('a mail: "API access token (do not share): …"', v, `Content-Transfer-Encoding: quoted-printable\n\nYour API access token (do not share): ${v}\n\nThanks`);
v = s(AN, 32); f("Sentry's header pair over lines", v, `    "headers": [\n      [\n        "X-Api-Key",\n        "${v}"\n      ],\n      [\n        "Content-Type",\n        "application/json"\n      ]\n    ],`);
v = s(AN, 32); f("a header pair in a Python tuple", v, `headers = [('Accept', 'application/json'), ('X-Api-Key', '${v}')]`);
v = s(AN, 50); f("a quoted-printable token's tail after its soft break", v.slice(40), `Content-Transfer-Encoding: quoted-printable\n\nYour API access token (do not share): ${v.slice(0, 40)}=\n${v.slice(40)}\n`);
v = s(AN, 40); f("GitHub Actions' secrets context dumped (a name that says nothing)", v, `build\tDump secrets\t2026-12-01T07:10:01.1101176Z {\nbuild\tDump secrets\t2026-12-01T07:10:01.0095422Z   "github_token": "***",\nbuild\tDump secrets\t2026-12-01T07:10:01.3119072Z   "SLACK_BOT": "${v}",\nbuild\tDump secrets\t2026-12-01T07:10:02.0481921Z }`);
v = 'qgvv tlnb dgxr xzha'; f("a Google app password in a properties file (four groups)", v.slice(5), `spring.mail.host=smtp.gmail.com\nspring.mail.password=${v}\nspring.mail.port=587`);
v = '5L59Qh1NebgVaDuP5qgAYX5hByR4MbxTqdfzB08M'; f("a webhook's token in an access log's path", v, `172.18.0.1 - - [01/Dec/2026:07:41:20 +0000] "POST /hooks/${v} HTTP/1.1" 204 0 "-" "GitHub-Hookshot/7a3c9e1"`);

v = 'about advance artist add asset arch awkward amount amazing anchor angle apple'; f("solana-keygen's seed phrase under its line", v, `Wrote new keypair to stdout\n${'='.repeat(75)}\npubkey: 7Np41oeYqPefeNQEHSv1UDhYrehxin3NStELsSKCT4K2\n${'='.repeat(75)}\nSave this seed phrase to recover your new keypair:\n${v}\n${'='.repeat(75)}`);
// Adversary passes 64 and 65 (session 16): hex text, a plan's sensitive attributes, an AWS secret beside its id, live keys, auth tuples, Go byte slices, a made word after a secret's word.
v = 'ghp_' + s(AN, 36); f("a .env written in hex on one line (python's .hex())", v, Buffer.from(`APP_ENV=prod\nGITHUB_TOKEN=${v}\n`).toString('hex'));
v = s(AN, 64); f("terraform show -json: an attribute its plan flags sensitive, whatever its name", v, `        "before": {\n          "key": "${v}",\n          "name": "ci"\n        },\n        "after_unknown": {},\n        "before_sensitive": {\n          "key": true\n        },`);
v = s(AN, 38) + 'a1'; f("Rust's {:#?} of an AWS key pair under names that say nothing", v, `AwsCreds {\n    id: "AKIAQ3EGUAQ7XRS6Y2LM",\n    key: "${v}",\n}`);
v = s(AN, 32); f("an OpenAPI example's live key", v, `      schema:\n        type: string\n      example: ak_live_${v}`);
v = '4vuF^kYxfZVqN8c7'; f("a pprint of requests' auth tuple", v, `{'auth': ('svc-etl', '${v}'),\n 'timeout': 30}`);
v = s(AN, 40) + 'Q9'; f("a notebook's stream output: the word secret, then the value", v, `      "text": [\n        "secret ${v}\\n"\n      ]`);
// Adversary passes 66 and 67 (session 16): tokens' labels in other languages, a second keystore password, mkpasswd's operand, a value said to come from a file.
v = s(AN, 38) + '7q'; f('a German installer: API-Schlüssel:', v, `  Administrator-Passwort:  [verborgen]\n  API-Schlüssel:          ${v}`);
v = s(AN, 30) + '4k'; f('a Portuguese note: Chave de API:', v, `  Senha: (ver cofre)\n  Chave de API: ${v}`);
v = s(AN, 42) + '9z'; f('a Russian installer: Токен доступа:', v, `Пароль:           (скрыт)\nТокен доступа:    ${v}`);
v = s(AN, 46) + '3d'; f('a Japanese setup: アクセストークン：', v, `初期パスワード　：(非表示)\nアクセストークン：${v}`);
v = 'vS9v%5gWUrWqTLGac3xc'; f("a French installer: Mot de passe administrateur :", v, `Installation terminée.\nMot de passe administrateur : ${v}`);
v = 'REQQ!gWP7UU39va3'; f("jarsigner's -keypass after its -storepass", v, `31877       00:04 /usr/lib/jvm/java-17/bin/jarsigner -keystore /ci/release.jks -storepass Abc123xyz456 -keypass ${v} -tsa http://timestamp.digicert.com app.apk upload`);
v = '7XRc!tiHmhXZHLYi'; f("mkpasswd's password operand in a history", v, `  981  htpasswd -c /etc/nginx/.htpasswd admin\n  982  mkpasswd -m sha-512 ${v}`);
v = 'chG9_rvqsrRzUqXCcx3x'; f("a CI log: DB_PASS from staging.env: …", v, `build\tPublish\t2026-11-30T10:12:16.0730018Z DB_PASS from staging.env: ${v}`);
v = s(AN, 28) + 'x7'; f("aliyun's table with a Chinese label: | 访问密钥 | … |", v, `| 访问密钥ID   | LTAI5tQ9xYzAbCdEfGhIjKlM |\n| 访问密钥     | ${v} |`);
v = s(AN, 18) + '4q'; f("a French label: clé API :", v, `Configuration :\n  clé API : ${v}`);
v = s(AN, 40); f("an INI name's continuation lines (access_keys =, then one key a line)", v, `[remote "backup"]\nurl = https://sync.example.net/api\naccess_keys =\n    ${s(AN, 40)}\n    ${v}\nverify = true`);
v = s(AN, 40); f("an HCL heredoc under a secret's name", v, `    content_type = "json"\n    secret       = trimspace(<<-EOT\n      ${v}\n    EOT\n    )`);
// Adversary pass 69 (session 16's final attack): a short value written a character at a time under a clear name, a secret's
// variable then its value with no `=`, a user and password pair under a credentials' name.
v = 'DkQz7xPq2mWv8L'; f("Zig's decimal bytes under a key's name (14 bytes)", [...v].map((c) => c.charCodeAt(0)).join(', ').slice(0, 20), `const api_key = [_]u8{ ${[...v].map((c) => c.charCodeAt(0)).join(', ')} };`);
v = 'DkQz7xPq2mWv'; f("Zig's typed hex bytes under a token's name (.{ … })", '0x44, 0x6b, 0x51', `pub const token: [12]u8 = .{ ${[...v].map((c) => '0x' + c.charCodeAt(0).toString(16)).join(', ')} };`);
v = 'Hunter2!qZ7x'; f("a C array of a Wi-Fi key's bytes", '72, 117, 110, 116', `static const uint8_t wifi_psk[] = {${[...v].map((c) => c.charCodeAt(0)).join(', ')}};`);
v = 'zRqX7mLp2KwN'; f("bash's octal escapes of a password (printf in a trace)", [...v].map((c) => '\\' + c.charCodeAt(0).toString(8).padStart(3, '0')).join('').slice(0, 24), `+ export DB_PASSWORD=$(printf '${[...v].map((c) => '\\' + c.charCodeAt(0).toString(8).padStart(3, '0')).join('')}')`);
v = 'Rcx9Kp2LmQ'; f("bash's $'\\x..' of a secret key", '\\x52\\x63\\x78\\x39', `SECRET_KEY=$'${[...v].map((c) => '\\x' + c.charCodeAt(0).toString(16)).join('')}'`);
v = 'Rcx9Kp2LmQ7v'; f("a JSON encoder's \\u escapes of a short token", '\\u0052\\u0063\\u0078', `{"api_token": "${[...v].map((c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0')).join('')}"}`);
v = 'Xq7pL2mN9vR4tK8wZ3bY6cH1'; f('a deploy log: using VERCEL_TOKEN <value>', v, `Deploying with vercel --prod using VERCEL_TOKEN ${v}`);
v = 'nfp_Q2w9xVb7TzLk4RmP8sYd3NcH6jFa1GeU5e0'; f('authenticating with NETLIFY_AUTH_TOKEN <value>', v, `[deploy] authenticating with NETLIFY_AUTH_TOKEN ${v}`);
v = 'nP4#vQ9xLm2@tR'; f('a user and password pair under "creds" (a list)', v, `upstream creds: ["svc_sync", "${v}"]`);
v = 'hB7!kR2mQx9wZp'; f('a user and password pair under CREDS (a tuple)', v, `UPSTREAM_CREDS = ('svc_sync', '${v}')`);
// Adversary passes 70 and 71 (session 17): a value with a comma in `ps`, vague names, byte and character lists under a name,
// REPL results, prose in other languages, a blank-aligned table, a concatenated key, a wrapped quoted value, a reversed token.
v = 'Cq,6%u3x34R0=q4ZABq3'; f('docker run -e NAME=value with a comma in ps', v, `root  2281  0.0  0.1 713944 41220 ?  Sl  09:12  0:00 docker run --rm -e POSTGRES_PASSWORD=${v} -e POSTGRES_DB=ledger -p 5432:5432 postgres:16`);
v = 'vmQ@V1?ur0lsay'; f("pry's hash under :cred", v, `=> {:host=>"ldap.corp.internal", :port=>636, :cred=>"${v}", :encryption=>:simple_tls}`);
v = 'W!V&fS*?ztXF+q.n'; f("node inspect's object under pw:", v, `debug> exec cfg.db\n{ host: 'db.internal', user: 'api', pw: '${v}' }`);
v = 'dx%0VHIeYs'; f('JavaScript \\x escapes of a short password under pw', [...v].map((c) => '\\x' + c.charCodeAt(0).toString(16)).join(''), `const pw = "${[...v].map((c) => '\\x' + c.charCodeAt(0).toString(16)).join('')}";`);
f("a C header's hex key bytes on the line below its name", '0x51, 0xfd, 0xce, 0xe8', 'static const unsigned char hmac_key[16] = {\n    0x51, 0xfd, 0xce, 0xe8, 0xbf, 0xd1, 0xdb, 0x1b, 0x0f, 0x11, 0xa7, 0x0c, 0x21, 0xf9, 0xc1, 0x04\n};');
f("Go's %v of a []byte after secret= (a file:line: before it)", '42 85 65 48 61 78', 'DEBUG signer.go:58: signing secret=[42 42 85 65 48 61 78 107 54 53 119 43 122 84 120] alg=HS256');
v = 'MZaIIIqCHW@-FweY1'; f("Java's char[] password literal", "'M', 'Z', 'a', 'I'", `    private static final char[] KEYSTORE_PASS = { ${[...v].map((c) => `'${c}'`).join(', ')} };`);
f("Python's bytes repr of a REPL's SECRET_KEY", '\\x83\\xebrU-\\xd4', ">>> app.config['SECRET_KEY']\nb'\\x83\\xebrU-\\xd4\\rj\\xf5\\xf0hQI\\xc3[\\xca'\n>>> ");
v = '^AbT6oHou'; f("pdb's p session.auth (a user and password tuple)", v, `(Pdb) p self.session.auth\n('integration-bot', '${v}')\n(Pdb) p self.session.headers`);
v = 'XaTchpZyBH%ofgoC'; f("a namedtuple's positional repr under creds", v, `>>> creds\nCreds('svc-backup', '${v}')\n>>> `);
v = 'oXnbCeBRP'; f('a chat message: the db pw is …', v, `{"type":"message","text":"the staging db pw is ${v} btw, rotate it after the demo"}`);
v = 's#a7IZkgX'; f('a TODO: temp admin pass is …', v, `src/admin/seed.ts:14:  // TODO(anna): remove before merge -- temp admin pass is ${v} (same as on staging)`);
v = 'E=DAAQ0ERhPA?RBh'; f('a German commit: Passwort … auf … gesetzt', v, `    Testumgebung: Admin-Passwort vorübergehend auf ${v} gesetzt`);
v = 'rkXD9tfqIxLct+@u'; f('a Portuguese note: a senha … é …', v, `Nota interna (pt-BR): a senha do roteador do escritório é ${v}`);
v = 'J-@?YDBAVtu@3&xb'; f('column -t of a table with a PASSWORD column', v, `SERVICE   USER      PASSWORD          HOST\nrabbitmq  orders    V##PS!9dy         rabbit-01\nredis     default   ${v}  cache-01`);
v = '4pXVWELPKC91ZTzd'; f("a key split in two by +", v, `STRIPE_API_KEY = "sk_live_CMaKZATV" + "${v}"`);
v = 'dJd5PGJc0kcHk1pbptIf'; f("a quoted bearer token a log's wrap carried to the next line", v, `level=info msg="starting sync" auth_header="Bearer npm_nqdvmCLfCiM6fIlD\n${v}" retries=3`);
v = 'OvQlJ6bojM7Y3jaPqd63xGom8xt42IM5tQDC_phg'; f('a GitHub token written backwards in JavaScript', v, `const t = "${v}".split("").reverse().join("");`);
v = 'dEL3ZAX*@SRfN?JH'; f("a Scala case class's positional JDBC URL, user and password", v, `[info] JdbcConfig(jdbc:postgresql://warehouse:5432/dw,dw_loader,${v},30)`);
v = 'Gh3S$VnAT'; f('a Russian chat: a password asked for, answered alone on the next line', v, `[10:15] Ольга: нет, какой пароль?\n[10:15] Дмитрий: ${v}\n[10:16] Ольга: спасибо, работает`);
v = 'hB7!kR2mQx9wZp'; f('an IRC log: the pw asked for, answered by another', v, `<alice> whats the staging pw?\n<bob> ${v}`);
// Adversary pass 74 (session 17): bash's quote join in a trace, a MONITOR key ending _pw, ClickHouse's MySQL engine, a tab row of
// CloudFormation outputs, PowerShell's plain-text read, head of mounted secrets.
v = "u%36r'+ebL-=8b1uN_"; f("set -x's quoting of a password holding a quote ('\\'')", '+ebL-=8b1uN_', `+ set -x\n+ PGPASSWORD='u%36r'\\''+ebL-=8b1uN_'\n+ psql -h billing-db.prod.internal -U billing`);
v = '%w!D_OYQ_=4V0)w8CZ'; f('redis-cli MONITOR: SET of a key ending _pw', v, `1764589413.120556 [0 10.0.3.9:40112] "SET" "cfg:ldap:bind_pw" "${v}"`);
v = '=t_Yh@TtS~2#f7xFj'; f("ClickHouse's MySQL table engine (the fifth argument)", v, `ENGINE = MySQL('mysql-primary.internal:3306', 'shop', 'orders', 'ch_reader', '${v}')`);
v = 'j2FttqejKlqA)~*4'; f('aws cloudformation describe-stacks --output text: a tab row of an output named like a password', v, `Admin password for the reporting DB\tReportingDbPassword\t${v}\nReporting DB endpoint\tReportingDbEndpoint\tbilling.rds.amazonaws.com`);
v = 'Z82r.O77rgAu*'; f("PowerShell's ConvertFrom-SecureString -AsPlainText at its prompt", v, `PS C:\\Users\\dana> $k = Read-Host -AsSecureString 'NuGet key'; $k | ConvertFrom-SecureString -AsPlainText\n${v}\nPS C:\\Users\\dana> `);
v = '.8+yC)x4!DJ7zvo#,!1t'; f('head /run/secrets/*: a value under its file header', v, `==> /run/secrets/db_password <==\n${v}\n==> /run/secrets/smtp_relay <==\n8(Bk(,8yIispDX1cib_l@w#!`);
v = 'AKfycqe53LS8nLYrWwpxOs6XSxNY1kPm4ExTRABzTJgR4'; f("an Apps Script web app's deployment id in its URL", v, `2026-12-01 11:57:06.728 DEBUG gateway.push: forwarding to {'endpoint': 'https://script.google.com/macros/s/${v}/exec', 'retries': 3}`);
v = Buffer.from('deploy-bot:qIqM%uMx4dO2P?mMYz').toString('base64'); f("a Basic credential's user:password in base64 alone (openssl enc -base64)", v, v);
// Adversary pass 78 (session 17's last attack): Django's META dump with DRF's Token scheme, an ASGI scope's byte-string header
// pairs, a token sent as a WebSocket subprotocol.
v = 'f4753d4f83a1a2f8fe0922a7f8e2c7fb78826a97'; f("Django's 500 page: HTTP_AUTHORIZATION = 'Token …'", v, `META:\nHTTP_ACCEPT = '*/*'\nHTTP_AUTHORIZATION = 'Token ${v}'\nHTTP_HOST = 'localhost:8000'`);
v = 'jMcqLtqszDMZiMLhPf03NL6xObnSShkk'; f("uvicorn's ASGI scope: (b'x-api-key', b'…')", v, `'headers': [(b'host', b'localhost:8000'), (b'x-api-key', b'${v}'), (b'content-type', b'application/json')]`);
v = 'N2upYDWIx8K3gyCBgrjpm87oDXlbXP'; f('a WebSocket handshake: Sec-WebSocket-Protocol: …, auth.<token>', v, `Upgrade: websocket\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\nSec-WebSocket-Protocol: actioncable-v1-json, auth.${v}`);
v = 'Hq8wN2vLr4Tz'; f('a wi-fi key under psk (wpa_supplicant)', v, `network={\n\tssid="home"\n\tpsk="${v}"\n}`);
// Adversary pass 79 (session 17's final attack): a redirect parameter URL-encoded twice, a token in a MessagePack frame's hex.
v = s(AN, 32); f("an access log: a client_secret in a redirect parameter encoded twice (%253D)", v, `10.0.0.5 - - [11/Jun/2024:10:01:02 +0000] "GET /login?next=%2Fcb%3F${encodeURIComponent(encodeURIComponent(`client_secret=${v}`))} HTTP/1.1" 302 0 "-" "curl/8.5"`);
v = 'ghp_' + s(AN, 36); f('a MessagePack payload printed as one hex string', Buffer.from(v).toString('hex').slice(8), `payload (msgpack, 49 bytes): ${Buffer.concat([Buffer.from([0x81, 0xa5]), Buffer.from('token'), Buffer.from([0xd9, v.length]), Buffer.from(v)]).toString('hex')}`);
// Session 18 (adversary passes 71, 76, 78, 80): a Twilio token beside its SID as a separate argument, Redis ACL passwords, a Postgres
// password message in strace, an OpenAI key cut short, a REPL's conversion of a key, gzip in base64, a key folded at 20 columns.
v = s(HEX, 32); f("Celery's task args: a Twilio auth token beside its account SID", v, `[2026-12-01 12:31:44,412: INFO/ForkPoolWorker-3] Task notify.tasks.send_sms[9a8b7c6d] args=('AC${s(HEX, 32)}', '${v}', '+15551234567') kwargs={}`);
v = 'V4=!8fpXlDlZ0!KB'; f("redis.conf: an ACL user's >password", v, `user default on >${v} ~* &* +@all`);
v = 'JoWCYy%rY-R?IngQ'; f("strace of a Postgres client writing its password message", v, `write(3, "p\\0\\0\\0\\25${v}\\0", 21) = 21`);
v = 'sk-proj-' + s(AN, 52) + 'Qz'; f("node's inspect of an OpenAI key cut short", v, `Map(1) { 'openai' => { key: '${v}' } }`);
v = s(HEX, 32); f("node's REPL: an encryption key's hex", v, `> Buffer.from(encKey).toString('hex')\n'${v}'`);
v = gzipSync(`SENDGRID_API_KEY=SG.${s(AN, 22)}.${s(AN, 43)}\n`).toString('base64'); f('gzip | base64 of an .env line', v, `${v}\n`);
v = 'sk-proj-' + s(AN, 92); f('fold -w 20 of an OpenAI key', v.slice(20, 40), v.match(/.{1,20}/g)!.join('\n'));
// Adversary pass 81 (session 18: verbose and debug logging): smtplib's AUTH PLAIN, Java's HexDumpEncoder, Prisma's key column.
v = Buffer.from(`\0apikey\0SG.${s(AN, 22)}.${s(AN, 43)}`).toString('base64'); f("smtplib's debug: send: 'AUTH PLAIN …\\r\\n'", v, `reply: b'250-AUTH PLAIN LOGIN\\r\\n'\nsend: 'AUTH PLAIN ${v}\\r\\n'\nreply: b'235 Authentication successful\\r\\n'`);
v = `xoxb-${s('0123456789', 12)}-${s('0123456789', 13)}-${s(AN, 24)}`;
f('javax.net.debug: a Bearer token in the HexDumpEncoder rows', v.slice(26, 42), `Plaintext before ENCRYPTION (\n${Buffer.from(`GET / HTTP/1.1\r\nAuthorization: Bearer ${v}\r\n\r\n`).toString('latin1').match(/[\s\S]{1,16}/g)!.map((row, i) => `  ${(i * 16).toString(16).toUpperCase().padStart(4, '0')}: ${[...row].map((c) => c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')).map((h, j) => (j === 8 ? `  ${h}` : h)).join(' ').padEnd(49)}  ${[...row].map((c) => (c >= ' ' && c <= '~' ? c : '.')).join('')}`).join('\n')}\n)`);
v = 'qzNS^9K9?CycoJ'; f('a URL password that starts with an unencoded @', v, `      DATABASE_URL: postgres://shop:@${v}@db:5432/shop`);
v = s(HEX, 48); f("Prisma's query log: a key column of an ApiKey table", v, `prisma:query SELECT "public"."ApiKey"."id" FROM "public"."ApiKey" WHERE "public"."ApiKey"."key" = $1 LIMIT $2 OFFSET $3\nParams: ["${v}",1,0]`);
// Adversary pass 84 (session 18: terminals, shells and editors): PowerShell's wrapped table value, a base64 literal decoded in a
// shell's history, a typescript whose output runs into the next prompt.
v = `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJpc3MiOiJzdXBhYmFzZSIsInJvbGUiOiJzZXJ2aWNlX3JvbGUifQ.${s(AN, 43)}`;
f("PowerShell's Format-Table -Wrap: a JWT wrapped under its Value column", v.slice(90), `Name                           Value\r\n----                           -----\r\nAPPDATA                        C:\\Users\\dev\\AppData\\Roaming\r\nSUPABASE_SERVICE_ROLE_KEY      ${v.slice(0, 60)}\r\n                               ${v.slice(60, 90)}\r\n                               ${v.slice(90)}\r\nUSERNAME                       dev\r\n`);
v = Buffer.from('2Vuw@@RlW?9h12mf').toString('base64'); f("zsh's extended history: a password's base64 echoed into base64 -d", v, `: 1764500140:0;echo '${v}' | base64 -d\n: 1764500151:0;git status`);
v = Buffer.from('rx+z#TIaui7TkfP*Y2').toString('base64'); f("a typescript: a secret's output runs into the next prompt", v, `dev@box:~$ kubectl -n payments get secret db-creds -o jsonpath='{.data.password}'\n${v}dev@box:~$ exit\n`);
// Closing measure 83 (session 18): az's table of storage account keys.
v = s(AN, 86) + '=='; f("az storage account keys list -o table", v, `CreationTime                      KeyName    Permissions    Value\n--------------------------------  ---------  -------------  ----------\n2024-01-15T10:22:31.512345+00:00  key1       FULL           ${v}`);
// Closing measures 83 and 85 (session 18): five lines from the middle of a key, no armour in view (a file whose name says nothing).
{
  // A key's random bytes hold a printable run of 12 (a certificate's name or date, scanner.ts MAX_PRINTABLE_IN_KEY: kept) about
  // once in 500 such windows: the test takes a key whose window holds none, as nearly every key's does.
  const printableRun = (lines: string[]) => /[\x20-\x7e]{12}/.test(Buffer.from(lines.join(''), 'base64').toString('latin1'));
  let key: string[] = [];
  for (let tries = 0; tries < 20 && (key.length === 0 || printableRun(key.slice(9, 14))); tries++) key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString().split('\n');
  f("sed -n 10,14p of a key in a file whose name says nothing", key[11], key.slice(9, 14).join('\n'));
}
// Final attack 86 (session 18): a Hugging Face token with digits alone on its line, an ABFS OAuth client secret in spark.conf.set.
v = `hf_${s(AN, 30)}Ab1z`; f('a Hugging Face token file printed alone (digits among its letters)', v, v);
v = s(AN, 36) + '~_.-'; f("Databricks' spark.conf.set of an ABFS OAuth client secret", v, `spark.conf.set("fs.azure.account.oauth2.client.secret.curated.dfs.core.windows.net", "${v}")`);
// Final attack 88 (session 18): a password in an SQS body JSON-encoded twice, Firestore's typed field, nginx's header of any
// credential's name, a key beside a password in a TOML inline table, unpadded base64url of an .env file.
v = pw(); f('an SQS body JSON-encoded twice', v, JSON.stringify({ Messages: [{ MessageId: s(HEX, 8), Body: JSON.stringify(JSON.stringify(JSON.stringify({ user: 'svc', password: v }))) }] }, null, 2));
v = pw(); f("Firestore's export: a password's stringValue", v, JSON.stringify({ fields: { adminPassword: { stringValue: v } } }, null, 2));
v = pw(); f("nginx -T: proxy_set_header of a token's header", v, `  location /api/ {\n    proxy_set_header X-Upstream-Token ${v};\n    proxy_pass http://backend;\n  }`);
v = s(HEX, 64); f('a TOML inline table: a key beside a password', v, `[servers]\nalpha = { host = "10.0.0.1", password = "${pw()}", key = "${v}" }`);
v = Buffer.from(`STRIPE_KEY=sk_live_${s(AN, 24)}\nSECRET=${pw()}\n`).toString('base64url').replace(/=+$/, '');
f('unpadded base64url of an .env file', v, `ENV_B64=${v.length % 4 === 1 ? v.slice(0, -1) : v}`);
// Attack 89 (session 19: configuration languages and literal syntaxes): EDN's pprint, an Erlang cookie term, print_r's unquoted
// value, R's printed list, Scala's map arrow.
v = s(HEX, 128); f("Clojure's pprint: a keyword's value on the next line", v, `{:db-user "app",\n :secret-key-base\n "${v}",\n :port 3000}`);
v = s('ABCDEFGHIJKLMNOPQRSTUVWXYZ', 20); f("rabbitmqctl environment: the kernel's cookie atom", v, ` {kernel,[{inet_dist_listen_min,25672},{cookie,'${v}'}]}]`);
v = '}}85k^B00JIpcgl(Xa|h__r6!J12j?7h3REfUL*`o8m#pe2!+T0&Puf)y3;AwN^X'; f("PHP's print_r: a WordPress salt's unquoted value", v, `Array\n(\n    [AUTH_KEY] => ${v}\n    [WP_DEBUG] => \n)`);
v = s(HEX, 32); f("R's print of a named list", v, `> print(keys)\n$api_key\n[1] "${v}"\n`);
v = pw(); f("Scala's Map toString (SparkConf.getAll)", v, `Map(spark.app.name -> etl, spark.jdbc.password -> ${v}, spark.master -> yarn)`);
// Attack 90 (session 19: mobile, desktop, embedded and release tooling): fastlane's session cookies, signtool's and steamcmd's
// passwords, espota's --auth, an Arduino secrets.h, Segment's and Bugsnag's keys in a plist and a manifest, keychain passwords.
v = `DAWTKNV3${s(HEX, 64)}${s(AN, 60)}`; f("fastlane spaceauth's FASTLANE_SESSION (HTTP::Cookie YAML, literal \\n)", v, `export FASTLANE_SESSION='---\\n- !ruby/object:HTTP::Cookie\\n  name: myacinfo\\n  value: ${v}\\n  domain: apple.com\\n'`);
v = pw(); f("signtool's /p in electron-builder's failed command", v, `  ⨯ Command failed: C:\\ci\\signtool.exe sign /tr http://timestamp.digicert.com /f C:\\ci\\certs\\acme.pfx /p "${v}" /d Field`);
v = pw(); f("steamcmd +login in a CI trace", v, `+ steamcmd +login acmebuild '${v}' +run_app_build /build/app_build_1234560.vdf +quit`);
v = `${s(AN, 8)}-_${s(AN, 2)}`; f("platformio.ini's espota --auth", v, `upload_protocol = espota\nupload_flags =\n    --auth=${v}`);
v = pw(); f("an Arduino secrets.h #define", v, `#define SECRET_SSID "Greenhouse-IoT"\n#define SECRET_PASS "${v}"`);
v = s(AN, 32); f("Info.plist's SegmentWriteKey", v, `\t<key>SegmentWriteKey</key>\n\t<string>${v}</string>`);
v = pw(); f("security import -P in a CI trace", v, `+ security import /tmp/cert.p12 -k build.keychain -P ${v} -T /usr/bin/codesign`);
v = pw(); f("security set-key-partition-list -k", v, `+ security set-key-partition-list -S apple-tool:,apple: -s -k '${v}' build.keychain`);
v = s(HEX, 32); f("an Android manifest's meta-data API_KEY", v, `        <meta-data android:name="com.bugsnag.android.API_KEY" android:value="${v}"/>`);
v = s(AN, 32); f("strings.xml's key with translatable=false", v, `    <string name="segment_write_key" translatable="false">${v}</string>`);
v = b64(`\x01\0\0\0E4-${s('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 4)}-${s('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 4)}`); f("a Unity license's DeveloperData", v, `    <DeveloperData Value="${v}"/>`);
// Attack 91 (session 19: web frameworks' debug output and observability data): express-session's ids, EF Core's parameters,
// Phoenix's session, a Jaeger tag, Sentry's header pairs and a SQL breadcrumb, YAML key sections, connect-redis keys.
v = s(AN + '_-', 32); f("express-session's debug log: the session id it saves", v, `  express-session saving ${v} +6ms\n  express-session fetching ${v} +212ms`);
v = `s%3A${s(AN, 32)}.${s(AN, 43)}`; f("express-session's signed cookie (connect.sid)", v, `  express-session set-cookie connect.sid=${v}; Path=/; HttpOnly +0ms`);
v = b64(s(AN, 60)); f("EF Core's sensitive data logging: a token bound to INSERT … OUTPUT … VALUES", v, `info: Microsoft.EntityFrameworkCore.Database.Command[20101]\n      Executed DbCommand (4ms) [Parameters=[@p0='2024-05-08T10:22:33.1234567+00:00', @p1='${v}' (Nullable = false) (Size = 450), @p2='${uuid()}' (Size = 450)], CommandType='Text', CommandTimeout='30']\n      SET NOCOUNT ON;\n      INSERT INTO [RefreshTokens] ([ExpiresAt], [Token], [UserId])\n      OUTPUT INSERTED.[Id]\n      VALUES (@p0, @p1, @p2);`);
v = s(AN + '_-', 43); f("Plug.Debugger's session: phx.gen.auth's live_socket_id", v, `    %{"live_socket_id" => "users_sessions:${v}", "user_token" => <<199, 173, 21, 228, 212, 4, 171, 134>>}`);
v = '173, 21, 228, 212, 4, 171, 134, 180'; f("Plug.Debugger's session: a token's bytes in an Elixir binary", v, `    %{"user_token" => <<199, ${v}, 80, 12>>}`);
v = s(AN, 48); f("a Jaeger span's header tag (a JSON-encoded list as its value)", v, `{"key":"http.request.header.x_api_key","type":"string","value":"[\\"${v}\\"]"}`);
v = s(HEX, 40); f("Sentry's event JSON: the Authorization pair pretty-printed", v, `        "headers": [\n          [\n            "Authorization",\n            "Token ${v}"\n          ],`);
v = s(AN, 40); f("a SQL breadcrumb: a key column of an API keys table", v, `"message": "UPDATE \\"accounts_apikey\\" SET \\"key\\" = '${v}', \\"revoked\\" = false WHERE \\"accounts_apikey\\".\\"id\\" = 12",`);
v = `ak_${s(HEX, 40)}`; f("PostgreSQL's log_statement=all: WHERE key = '…' on api_keys", v, `LOG:  statement: SELECT id, owner_id FROM api_keys WHERE key = '${v}' AND revoked_at IS NULL LIMIT 1`);
v = s(HEX, 32); f("the OpenTelemetry collector's Datadog exporter (api: then key:)", v, `      datadog:\n        api:\n          key: ${v}\n          site: datadoghq.com`);
v = s(AN, 32); f("Kong's keyauth_credentials list", v, `consumers:\n- username: billing-svc\n  keyauth_credentials:\n  - key: ${v}`);
v = s(AN, 32); f("redis-cli MONITOR: a connect-redis session key", v, `1714558953.120044 [0 10.0.2.15:51234] "GET" "sess:${v}"`);
// Attack 93 (session 19: networking, infrastructure and identity tooling): WireGuard's dump, ipsec.secrets' EAP, cloudflared's
// token, chisel, nsupdate's TSIG key, SNMP communities and passphrases, Cisco's type 7 and IKE key, Junos' $9$, a Go exporter's
// flag, Postfix's sasl_passwd, Dovecot's {CLEAR}, MinIO's user secret, a Ceph keyring, iDRAC's racadm, Nagios' $USERn$.
v = b64(s(AN, 32)).slice(0, 43) + '='; f("wg show all dump: an interface's private key", v, `wg0\t${v}\t${b64(s(AN, 32)).slice(0, 43)}=\t51820\toff`);
v = b64(s(AN, 32)).slice(0, 43) + '='; f("wg show all dump: a peer's preshared key", v, `wg0\t${b64(s(AN, 32)).slice(0, 43)}=\t${v}\t198.51.100.23:41822\t10.8.0.2/32\t1796153289\t15022832\t92374112\t25`);
v = pw(); f("ipsec.secrets: an EAP secret", v, `carol : EAP "${v}"`);
v = b64(JSON.stringify({ a: s(HEX, 32), t: uuid(), s: b64(s(AN, 32)) })); f("cloudflared tunnel token: the bare token", v, v);
v = pw(); f("ps: chisel's --auth user:password", v, `root  812  /usr/local/bin/chisel server --port 8443 --reverse --auth tunnel:${v}`);
v = b64(s(AN, 32)); f("nsupdate -y in a shell history", v, `  488  nsupdate -y hmac-sha256:acme-update:${v} -v /tmp/upd.txt`);
v = pw(); f("snmpwalk -v3's -A passphrase", v, `snmpwalk -v3 -l authPriv -u nmsuser -a SHA-512 -A '${v}' -x AES -X 'tip.W0@2BF+gg-' 10.0.0.1 ifDescr`);
v = s(AN, 14); f("snmpd.conf's trap2sink community", v, `trap2sink 10.0.0.5 ${v}`);
v = s('0123456789ABCDEF', 26); f("Cisco's show running-config: a type 7 password", v, `username netadmin privilege 15 password 7 ${v}`);
v = pw().replace(/[ #]/g, 'x'); f("Cisco's crypto isakmp key", v, `crypto isakmp key ${v} address 203.0.113.10`);
v = `$9$${s(AN + './', 30)}`; f("Junos' $9$ secret", v, `set system radius-server 10.1.1.30 secret "${v}"`);
v = pw(); f("a Go exporter's -redis.password flag in a unit", v, `ExecStart=/usr/local/bin/redis_exporter -redis.addr redis://10.0.3.7:6379 -redis.password ${v}`);
v = pw(); f("Postfix's sasl_passwd", v, `[smtp.office365.com]:587 relay@corp.example.com:${v}`);
v = pw().replace(/:/g, 'x'); f("Dovecot's passwd-file {CLEAR}", v, `noreply@corp.example.com:{CLEAR}${v}:5000:5000::/var/vmail/corp`);
v = pw(); f("mc admin user add in a history", v, `  202  mc admin user add corp svc-loki ${v}`);
v = `AQ${s(B64, 36)}==`; f("a Ceph keyring's key", v, `[client.rbd]\n\tkey = ${v}\n\tcaps mon = "profile rbd"`);
v = pw(); f("racadm -p", v, `racadm -r 10.20.0.21 -u root -p '${v}' serveraction powercycle`);
v = pw(); f("Nagios' resource.cfg macro", v, `/usr/local/nagios/etc/resource.cfg:33:$USER4$=${v}`);
// Attack 95 (session 19, fixed in session 20): `xxd -p` of an .env wrapped at 60, a key as colon hex after a size note,
// quoted-printable, uuencode, WS-Security's namespaced password element, `aws sts … --output text`'s CREDENTIALS row.
{
  const env = `GITHUB_TOKEN=ghp_${s(AN, 36)}\n`;
  const hex = Buffer.from(env).toString('hex').match(/.{1,60}/g)!;
  f('xxd -p of an .env: the value over wrapped lines of hex', hex[1], hex.join('\n'));
}
v = s(HEX, 64).match(/../g)!.join(':'); f("a signing key as colon hex after a note of its size", v, `signing_key (32 bytes): ${v}`);
v = 'sk-proj-' + s(AN, 48); f('quoted-printable: a key after an encoded `=`, cut by a soft break', v, `Content-Transfer-Encoding: quoted-printable\n\nkey=3D${v.slice(0, 40)}=\n${v.slice(40)}\nIt was generated today.`);
{
  const creds = Buffer.from(`[default]\naws_access_key_id = AKIA${s('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}\naws_secret_access_key = ${s(B64, 40)}\n`);
  f('uuencode of ~/.aws/credentials: the secret key\'s line', uuencode(creds).split('\n')[2], `begin 600 credentials\n${uuencode(creds)}\n\`\nend`);
}
v = pw(); f("WS-Security's UsernameToken: a namespaced element with a Type attribute", v, `<wsse:UsernameToken><wsse:Username>svc_erp</wsse:Username><wsse:Password Type="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordText">${v}</wsse:Password></wsse:UsernameToken>`);
v = s(B64, 40); f("aws sts assume-role --output text: the secret key", v, `CREDENTIALS\tASIA${s('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}\t2025-01-01T11:00:00Z\t${v}\t${s(B64, 240)}`);
v = s(B64, 240); f("aws sts assume-role --output text: the session token", v, `CREDENTIALS\tASIA${s('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}\t2025-01-01T11:00:00Z\t${s(B64, 40)}\t${v}\nASSUMEDROLEUSER\tarn:aws:sts::123456789012:assumed-role/deploy/ci\tAROA${s('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 17)}:ci`);
// Left from attack 93, fixed in session 20: a command continued with `\` (its options on the lines below), msmtp's app password
// as Google shows it, an SMTP URL whose user is a mail address, an underscore option's value holding `#`, `--pwd`.
v = pw(); f('ipa-server-install over continued lines: -p below the command', v, `ipa-server-install --realm EXAMPLE.COM \\\n  --domain example.com \\\n  -p '${v}' \\\n  --unattended`);
v = pw(); f('ipa-server-install over continued lines: -a below the command', v, `ipa-server-install --realm EXAMPLE.COM \\\n  -a ${v} --unattended`);
v = `${s('abcdefghijklmnopqrstuvwxyz', 4)} ${s('abcdefghijklmnopqrstuvwxyz', 4)} ${s('abcdefghijklmnopqrstuvwxyz', 4)} ${s('abcdefghijklmnopqrstuvwxyz', 4)}`;
f("msmtprc: a Google app password in its four groups", v, `account gmail\nhost smtp.gmail.com\nport 587\nuser ops@gmail.com\npassword ${v}\n`);
v = pw().replace(/[#@/:]/g, 'x'); f('an SMTP URL whose user is a mail address', v, `SMTP_URL=smtp://alerts@acme.io:${v}@smtp.acme.io:587`);
v = '5E.#' + pw(); f("an underscore option's value holding `#`", v, `ExecStart=/usr/bin/app --dashboard_pwd ${v} --port 8080`);
v = pw(); f('--pwd on a command line', v, `backup-agent --user svc --pwd ${v}`);
// Attack 96 (session 20: data, analytics and ML tooling): a numbered .netrc, a numbered users.acl line, core-site.xml's ABFS key.
v = s(HEX, 40); f('nl -ba of ~/.netrc (wandb login)', v, `     1\tmachine api.wandb.ai\n     2\t  login user\n     3\t  password ${v}`);
v = pw().replace(/[>\s]/g, 'x'); f('grep -n of users.acl: a user\'s >password', v, `2:user app on >${v} ~app:* &* +@read +@write -@dangerous`);
v = s(B64, 86) + '=='; f("core-site.xml: the ABFS account key's value on the line below its name", v, `  <property>\n    <name>fs.azure.account.key.acmelake.blob.core.windows.net</name>\n    <value>${v}</value>\n  </property>`);
// Attack 97 (session 20: terminal-heavy output): expect's debug log, an asciinema recording's events, a password echoed then
// written over with `*`s by moving the cursor back.
v = 'OHZ' + pw() + 'y9'; f("expect -d's send: sending after a password prompt", v, `expect: does "deploy@10.20.0.5's password: " (spawn_id exp4) match glob pattern "*assword:"? yes\r\nexpect: set expect_out(0,string) "deploy@10.20.0.5's password:"\r\nsend: sending "${v}\\r" to { exp4 }\r\n`);
v = 'hf_' + s(AN, 34); f("an asciinema .cast: a token written by two events", v.slice(12), `{"version": 2, "width": 120, "height": 30}\n[1.020, "o", "\\u001b[32mHF_TOKEN\\u001b[0m="]\n[1.021, "o", "${v.slice(0, 12)}"]\n[1.022, "o", "${v.slice(12)}\\r\\n"]\n`);
v = pw(); f('a password echoed, then the cursor moved back over it and `*`s written', v, `Vault password: ${v}\x1b[${v.length}D\x1b[K${'*'.repeat(v.length)}\nDecryption successful`);
// Attack 100 (session 20: error output): loguru's diagnose (a value under the code, its name at the `└`'s column).
v = pw(); f("loguru's diagnose: a value under settings.SMTP_PASSWORD", v, `    client = connect(settings.SMTP_HOST, settings.SMTP_PASSWORD)\n             │       │        │          │        └ '${v}'\n             │       │        │          └ <Settings env='prod'>\n             │       │        └ 'smtp.mailgun.org'\n             │       └ <Settings env='prod'>\n             └ <function connect at 0x7f9c1a2b3c40>`);
v = pw(); f("better_exceptions: a value under a local named secret", v, `    server.login(user, secret)\n    │      │     │     └ '${v}'\n    │      │     └ 'billing@acme.io'\n    │      └ <function SMTP.login at 0x7f9c19f0e8e0>\n    └ <smtplib.SMTP object at 0x7f9c1a2d5f90>`);
v = pw().replace(/["']/g, 'x'); f("Perl's Carp::confess: DBI's connect arguments in a call frame", v, `\tmain::db_connect("dbi:Pg:dbname=app;host=db.acme.internal", "app", "${v}") called at ./app.pl line 10`);
// Attack 99 (session 20: AI tooling): LiteLLM's virtual key, a setting named `…_OVERWRITE`.
v = `sk-${s(AN, 8)}-${s(AN, 6)}A1${s(AN, 5)}`; f("LiteLLM's /key/generate: a virtual key under `key`", v, `{\n  "spend": 0,\n  "key": "${v}",\n  "key_name": "sk-...${v.slice(-4)}"\n}`);
v = s(AN, 32); f("Flowise's FLOWISE_SECRETKEY_OVERWRITE", v, `FLOWISE_USERNAME=admin\nFLOWISE_SECRETKEY_OVERWRITE=${v}\nDATABASE_TYPE=postgres`);
// Attack 101 (session 20: everyday commands): 1Password's label/value fields, terraform show's HCL of a random_password.
v = pw(); f("op item get --format json: a field's value under its label", v, `  {\n    "id": "password",\n    "type": "CONCEALED",\n    "purpose": "PASSWORD",\n    "label": "password",\n    "value": "${v}",\n    "reference": "op://Private/db/password"\n  }`);
v = '-!g!' + pw(); f("ps: mysql -p with a password that starts with a dash", v, `deploy     24117  0.0  0.1  28312  7412 pts/1    S+   09:02   0:00 mysql -h 10.0.4.21 -u shopfront_admin -p${v} shopfront`);
v = s(AN, 40); f("op item get --format json: a concealed field whatever its label", v, `{"id":"3kct2b1bv3ihh24t5kaq5grr4e","type":"CONCEALED","label":"CI deploy key","value":"${v}"}`);
v = pw().replace(/["\\]/g, 'x'); f("terraform show: a random_password's result in its HCL block", v, `# random_password.db:\nresource "random_password" "db" {\n    id          = "none"\n    length      = 32\n    result      = "${v}"\n    special     = true\n}`);
// Closing measure 92 (session 19): a response's set-cookie as Node's inspect prints it, a one-item array over lines.
v = s(AN + '_-', 48); f("Node's inspect of a response: 'set-cookie': [ 'refresh=…; Path=/' ]", v, `  responseHeaders: {\n    'content-type': 'application/json',\n    'set-cookie': [\n      'refresh=${v}; Path=/; HttpOnly; Secure'\n    ]\n  }`);
describe('credentials as commands print them', () => {
  it("keeps pulumi's other config values and a hidden secret's [secret]", () => {
    const out = new Redactor().mask('KEY                 VALUE\naws:region          us-east-1\nshop:tokenCount     12\nshop:apiToken       [secret]\n');
    expect(out).toBe('KEY                 VALUE\naws:region          us-east-1\nshop:tokenCount     12\nshop:apiToken       [secret]\n');
  });

  it('masks exactly the value in rows that end in blanks, a CR or a cell border', () => {
    const text = '    DefaultPassword    REG_SZ    Hk3mP9qR2sT7  \r\n    Key Content            : Wq8xZ2mN4pR7\r\n| API Secret | xRRUmE8YUMNo+jEMsQsj |\n';
    expect(new Redactor().mask(text)).toBe('    DefaultPassword    REG_SZ    [masked: password]  \r\n    Key Content            : [masked: password]\r\n| API Secret | [masked: secret] |\n');
  });

  it("keeps an option's next argument when the option names no secret, or when the value is another option; and the CA fingerprint", () => {
    const text = `mosquitto_sub -h mqtt.acme.io -p 8883 -t x\nhttps://github.com/acme/api/settings/hooks/123456789\nThe phrase: "ship it"\n{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}\n  - routing_key: orders.created\n  primary_key: user_id\n+ gcloud run deploy api --set-secrets=DB_PASSWORD=db-password:latest\n    value: EV[1:Zq8xK2mN4pR7:tV9wY3bD6fG8hJ0kL2]\n| API Key    | K4SL6EO7Z6TJ367Z |\n| Secret Name | prod/db |\nName                           Value\n----                           -----\nTOKEN_FILE                     /var/run/token\nPATH                           /usr/bin\n    proxy_set_header Authorization $http_authorization;\n    proxy_set_header Host $host;\n    Security key           : Present\n    DefaultUserName    REG_SZ    kiosk\nPASS src/app.test.js\nPASS  ./sum.test.js (5 ms)\n1) "provider"\n2) "hubspot"\n{Authorization=null, Accept=*/*}\n  "Jwt": {\n    "Issuer": "https://api.acme.io"\n  },\n  "Cache": {\n    "Key": "products-v2"\n  }\n    keyAlias 'shop-release'\n    namespace 'com.acme.shop'\nJwt:Issuer = https://api.acme.io\nThe following NEW packages will be installed:\n  libcurl4-openssl-dev\nThe following user was added:\n  deploy-automation\n    Args:\n      --token-file\n      /var/run/secrets/token\n      --password-stdin\n      --verbose\n      --log-level\n      debug\nℹ️  HTTP CA certificate SHA-256 fingerprint:\n  ${s(HEX, 64)}\n`;
    expect(new Redactor().mask(text)).toBe(text);
  });

  it("keeps bash's unset-variable message, PowerShell's reads of a secret, other headers' pairs and Redis keys that name none (adversary pass 48)", () => {
    const text = ': "${DB_PASSWORD:?DB_PASSWORD must be set}"\n$password = Read-Host -AsSecureString "SQL password"\n$token = $env:API_TOKEN\n["X-Cache-Key", "/v1/items?page=2"], ["X-Request-Id", "4f1c9a"]\n"SET" "cache:page:home" "<html>"\n"SET" "tokens_count" "1234"\nspin=3 pin_memory=True PIN=1234\n';
    expect(new Redactor().mask(text)).toBe(text);
    // A default is a value: `${X:-…}` is read as one.
    const v = pw();
    expect(new Redactor().mask(`DB="\${DB_PASSWORD:-${v}}"`)).not.toContain(v);
  });

  it('masks base64 the squasher cut in the middle, from what its head decodes to (adversary pass 48)', () => {
    const key = `sk-proj-${s(AN, 48)}`;
    const b = Buffer.from(`OPENAI_API_KEY=${key}\nDATABASE_URL=postgres://db/shop\n`).toString('base64');
    const [head, tail] = [b.slice(0, 60), b.slice(-40)];
    const out = new Redactor().mask(`{"Type":"Notification","Message":"${head}… [+${b.length - 100} chars] …${tail}","Timestamp":"2024-03-11T09:12:31.512Z"}`);
    expect(out).not.toContain(head.slice(-20));
    expect(out).not.toContain(tail.slice(0, 20));
    expect(out).toContain('"Timestamp":"2024-03-11T09:12:31.512Z"');
    // Base64 of no secret, cut the same way, is kept.
    const plain = Buffer.from('a long notification about an order that shipped to the warehouse in Leeds today\n'.repeat(3)).toString('base64');
    const kept = `"Message":"${plain.slice(0, 60)}… [+${plain.length - 100} chars] …${plain.slice(-40)}"`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("keeps a .env.example's placeholder in angle brackets, the Hibernate values no secret column binds, a generic session_id (adversary pass 58), Home Assistant's `!secret name` and a byte list under a name that says nothing (59)", () => {
    const text = 'STRIPE_SECRET_KEY=<your stripe secret key>\nDB_PASSWORD=<insert password here>\nmqtt:\n  password: \'!secret mqtt_pass\'\nmqtt_user: addons\next_pan_id: [221, 221, 221, 221, 221, 221, 221, 221, 221, 221, 221, 221, 221, 221, 221, 221]\norg.hibernate.SQL : select u.id from users u where u.email=?\nbinding parameter [1] as [VARCHAR] - [dana@acme.dev]\n{"session_id": "6f1c2a9e-0b7d-4f3a-9c5e-1b2d9a8f7e6d", "hook_event_name": "PreToolUse"}\n';
    expect(new Redactor().mask(text)).toBe(text);
  });

  it("keeps code and docs that name a secret without one: format placeholders, types, test values, a doc's x's (adversary passes 49, 51)", () => {
    const text = [
      '    let url = format!("postgres://{}:{}@{}/{}", user, password, host, name);',
      '    pub refresh_token: Option<String>,',
      'Run `npm config set //registry.npmjs.org/:_authToken=<your-token>` in your own shell.',
      'fun authenticate(username: String, password: CharArray): AccessToken =',
      'export function verify(body: string, signature: string) {',
      '    ENV.fetch("TELEGRAM_BOT_TOKEN", "test-token")',
      '  stub_const("ENV", ENV.to_h.merge("STRIPE_SECRET_KEY" => "sk_test_placeholder"))',
      'export DOPPLER_TOKEN=dp.st.xxxx',
      '> Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
      '41:	req.Header.Set("Authorization", "Bearer "+c.token)',
      "    REGISTRY_CREDS = credentials('harbor-robot')",
      '',
    ].join('\n');
    expect(new Redactor().mask(text)).toBe(text);
  });

  it('masks a JWT and a kubeconfig key that a fold cut over lines, and nothing after the fold (adversary passes 49, 50)', () => {
    const jwt = `eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.${Buffer.from(JSON.stringify({ sub: s(AN, 20), exp: 1773227162 })).toString('base64url')}.${s(AN, 86)}`;
    const folded = jwt.match(/.{1,64}/g)!;
    const out = new Redactor().mask(`${folded.join('\n')}\ndone in 2s\n`);
    for (const piece of folded) expect(out).not.toContain(piece.slice(-12));
    expect(out.endsWith('\ndone in 2s\n')).toBe(true);
    const key = Buffer.from(`-----BEGIN EC PRIVATE KEY-----\n${s(B64, 64)}\n${s(B64, 64)}\n-----END EC PRIVATE KEY-----\n`).toString('base64');
    const kube = `    client-key-data: ${key}`.match(/.{1,76}/g)!;
    const shown = new Redactor().mask(`users:\n- name: admin\n  user:\n${kube.join('\n')}\n`);
    for (const piece of kube.slice(1)) expect(shown).not.toContain(piece.slice(-12));
    // Two lines that are only as long as each other, the second with words: no fold.
    const kept = `${'a'.repeat(30)}_token=${'b'.repeat(20)}\n${'c'.repeat(57)} done\n`;
    expect(new Redactor().mask(kept)).toContain(`${'c'.repeat(57)} done`);
  });

  it("masks a secret environment value in its JSON form, `/` written `\\/` (adversary pass 50)", () => {
    const v = `${s(AN, 14)}/${s(AN, 12)}/${s(AN, 13)}`;
    const out = new Redactor({ env: { AWS_SECRET_ACCESS_KEY: v } }).mask(`{"key":"AKIA0000","secret":"${v.replaceAll('/', '\\/')}"}`);
    expect(out).not.toContain(v.slice(0, 14));
    expect(out).not.toContain(v.slice(-13));
  });

  it("masks a remembered value in a JSON string (quotes and backslashes escaped) and before a cut line's `…` (adversary pass 54)", () => {
    const v = `Wk7"qd${s(AN, 8)}\\gSV${s(AN, 8)}`;
    const r = new Redactor();
    r.mask(`SMTP_PASSWORD='${v}'\n`);
    expect(r.mask(`{"level":"warn","tried":${JSON.stringify(v)}}`)).not.toContain(JSON.stringify(v).slice(1, 12));
    const t = s(AN, 40);
    r.mask(`aws_secret_access_key = ${t}\n`);
    expect(r.mask(`last_line: CREDENTIALS\tASIA0000\t2026-03-11T10:12:31+00:00\t${t.slice(0, 24)}…`)).not.toContain(t.slice(0, 12));
  });

  it("masks a remembered value's head at a line's end and its end at the next line's start (a terminal's wrap; a command still printing it: adversary pass 50)", () => {
    const v = s(AN, 40);
    const r = new Redactor();
    r.mask(`WEBHOOK_SECRET=${v}\n`);
    const wrapped = r.mask(`# using credential ${v.slice(0, 20)}\n${v.slice(20)} for the run\n`);
    expect(wrapped).not.toContain(v.slice(0, 12));
    expect(wrapped).not.toContain(v.slice(-12));
    expect(wrapped).toContain('for the run');
    // A status line's last line, the value half printed, in quotes.
    expect(r.mask(`c2 running 1s, 2 lines, last: "worker: auth retry with secret ${v.slice(0, 14)}"`)).not.toContain(v.slice(0, 10));
  });

  it('keeps a URL user that is a name, not a token', () => {
    const text = 'ssh://git@github.com/acme/api.git\nhttps://x-access-token@github.com/acme/api\nhttps://deploy-bot@gitlab.acme.io/x\nhttps://builds.example@ci.acme.io\n';
    expect(new Redactor().mask(text)).toBe(text);
  });

  it("keeps pulumi's JSON values not flagged secret; a structured secret's JSON-encoded value is masked", () => {
    const text = '{\n  "aws:region": {\n    "value": "eu-west-1-Kq8xZ2",\n    "secret": false\n  },\n  "shop:tags": {\n    "objectValue": {"team": "Kq8xZ2mN4pR7"},\n    "value": "{\\"team\\":\\"Kq8xZ2mN4pR7\\"}",\n    "secret": false\n  }\n}\n';
    expect(new Redactor().mask(text)).toBe(text);
    const secret = text.replace('"secret": false\n  }\n}', '"secret": true\n  }\n}');
    expect(new Redactor().mask(secret)).toBe(secret.replace('"{\\"team\\":\\"Kq8xZ2mN4pR7\\"}"', '"[masked: secret]"').replace('"team": "Kq8xZ2mN4pR7"', '"team": "[masked: secret]"'));
  });

  it('masks a quoted value inside its quotes: XML attributes and JSON strings stay well-formed (adversary pass 16)', () => {
    const xml = '<user username="admin" password="Xk3#aaaa9bbbb" roles="manager-gui"/>\n<add key="SmtpPassword" value="Yk3#aaaa9bbbb" />';
    expect(new Redactor().mask(xml)).toBe('<user username="admin" password="[masked: password]" roles="manager-gui"/>\n<add key="SmtpPassword" value="[masked: password]" />');
    const json = '{"ServerURL":"https://index.docker.io/v1/","Username":"dana","Secret":"Xk3aaaa9bbbbccc"}';
    const masked = new Redactor().mask(json);
    expect(JSON.parse(masked).Secret).toBe('[masked: secret]');
  });

  it('reads a two-column name / value table (mysql -B, psql -A) and no longer takes its first row for a header (adversary pass 18)', () => {
    const [a, b, c] = [s(AN, 40), s(AN, 38), pw()];
    const text = `name\tvalue\nmailgun_api_key\tkey-${s(HEX, 32)}\nrecaptcha_secret\t6L${a}\ns3_secret\t${b}\nsite_name\tAcme Shop\n`;
    const out = new Redactor().mask(text);
    for (const v of [a, b]) expect(out).not.toContain(v);
    expect(out).toContain('\nrecaptcha_secret\t[masked: secret]\ns3_secret\t[masked: secret]\nsite_name\tAcme Shop\n');
    const bars = `option_name|option_value\nsmtp_password|${c}\nsiteurl|https://shop.example.com\n`;
    expect(new Redactor().mask(bars)).toBe(bars.replace(c, '[masked: password]'));
  });

  it("masks chamber's Value column, not its Version, LastModified or User (adversary pass 18)", () => {
    const p = pw();
    const text = `Key\t\tValue\t\t\t\tVersion\t\tLastModified\tUser\ndb_password\t${p}\t3\t\t03-11 09:22:31\tarn:aws:iam::123456789012:user/dana\n`;
    expect(new Redactor().mask(text)).toBe(text.replace(p, '[masked: password]'));
  });

  it("learns a CI-masked value without the echo's closing quote, so the trace's earlier lines are masked too (adversary pass 18)", () => {
    const v = s(B64, 64);
    const out = new Redactor().mask(`+ REF=${v}\n+ echo '::add-mask::${v}'\n`);
    expect(out).toBe("+ REF=[masked: masked ci value]\n+ echo '::add-mask::[masked: masked ci value]'\n");
  });

  it('reads output held in a JSON string: values found in its decoded lines are masked where they stand (adversary pass 18)', () => {
    const [a, b, c] = [pw(), s(AN, 40), s(AN, 32)];
    // A hook's log of a tool's output: the mask stops at the escaped line break.
    const hook = JSON.stringify({ tool_response: { stdout: `NEXTAUTH_SECRET=${a}\nRESEND_API_KEY=re_${s(AN, 30)}\nSITE=http://localhost:3000` } });
    const out = new Redactor().mask(hook);
    expect(out).not.toContain(a);
    expect(out).toContain('\\nRESEND_API_KEY=');
    expect(out).toContain('\\nSITE=http://localhost:3000');
    // A Gemini CLI checkpoint: .pgpass lines after `Stdout: `, joined by `\n`.
    const gemini = JSON.stringify({ output: `Command: cat ~/.pgpass\nStdout: db.internal:5432:shop:export:${b}\nreplica.internal:5432:*:export:${c}\n\nExit Code: 0` });
    const g = new Redactor().mask(gemini);
    for (const v of [b, c]) expect(g).not.toContain(v);
    // GitHub's contents API: a .env file as base64 in lines of 60, `\n` between them.
    const env = `APP_ENV=production\nDB_PASSWORD=${a}\nAWS_SECRET_ACCESS_KEY=${s(B64, 40)}\n`;
    const lines = Buffer.from(env).toString('base64').match(/.{1,60}/g)!;
    const contents = JSON.stringify({ name: '.env.production', content: lines.join('\n') + '\n', encoding: 'base64' }, null, 2);
    const m = new Redactor().mask(contents);
    for (const l of lines.slice(0, -1)) expect(m).not.toContain(l);
  });

  it("reads a JSON document in a JSON string in a log event's message (adversary pass 18)", () => {
    const v = s(AN, 40);
    const body = JSON.stringify({ merchant_id: 'm_8812', api_secret: v, amount: 4200 });
    const event = JSON.stringify({ events: [{ message: JSON.stringify({ level: 'debug', req: { body } }) + '\n' }] }, null, 2);
    expect(new Redactor().mask(event)).not.toContain(v);
  });

  it("reads journald's byte arrays: only the numbers that spell the secret are masked (adversary pass 18)", () => {
    const v = pw().replace(/[^A-Za-z0-9]/g, 'x');
    const bytes = [...Buffer.from(`\x1b[36mINFO\x1b[0m connecting to postgres://shop:${v}@db.internal:5432/shop`)];
    const text = `{"_PID":"4812","MESSAGE":[${bytes.join(',')}],"_HOSTNAME":"web-1"}\n`;
    const out = new Redactor().mask(text);
    const numbers = [...Buffer.from(v)].join(',');
    expect(out).not.toContain(numbers);
    expect(out).toContain('[masked: url password]');
    expect(out.startsWith('{"_PID":"4812","MESSAGE":[27,91,51,54,109,73,78,70,79,')).toBe(true);
    const plain = `{"MESSAGE":[${[...Buffer.from('\x1b[32mGET /health 200 (41 ms)\x1b[0m')].join(',')}]}\n`;
    expect(new Redactor().mask(plain)).toBe(plain);
  });

  it("keeps the vendors' published test keys and a YAML alias; masks a URL user's token up to the host, not over it (adversary pass 39)", () => {
    const example = 'STRIPE_SECRET_KEY=sk_test_4eC39HqLyjWDarjtT1zdp7dc\nTURNSTILE_SECRET_KEY=1x0000000000000000000000000000000AA\nRECAPTCHA_SECRET_KEY=6LeIxAcTAAAAAGG-vFI1TnRWxMZNFuojJ4WifJWe\nOPENAI_API_KEY=your-openai-api-key\n';
    expect(new Redactor().mask(example)).toBe(example);
    const compose = `x-dd: &dd\n  DD_API_KEY: &ddkey ${s(HEX, 32)}\nservices:\n  datadog:\n    environment:\n      DD_API_KEY: *ddkey\n`;
    expect(new Redactor().mask(compose)).toContain('DD_API_KEY: *ddkey');
    const url = `https://x-token-auth:ATCTT3xFfGN0${s(AN, 180)}=${s(HEX, 8).toUpperCase()}@bitbucket.org\n`;
    expect(new Redactor().mask(url)).toMatch(/^https:\/\/x-token-auth:\[masked: [a-z ]+\]@bitbucket\.org\n$/);
  });

  it("keeps a Mapbox public token and placeholders in a vendor's shape; reads no lowercase word as a .properties password (adversary passes 40, 41)", () => {
    const text = `  token: "pk.eyJ1IjoiYWNtZS1tYXBzIiwiYSI6ImNscXh5ejEyMzQ1Njc4OTBhYmNkZWYifQ.${s(AN + '-_', 22)}",\nHF_TOKEN=hf_${'x'.repeat(34)}\nDOPPLER_TOKEN=dp.st.dev.${'X'.repeat(43)}\nSTRIPE_SECRET_KEY=sk_test_${'x'.repeat(24)}\napp.password changed\n`;
    expect(new Redactor().mask(text)).toBe(text);
  });

  it('keeps code: a member chain, a call, a setting read by its name (adversary pass 43 K01); a literal in code is masked', () => {
    const code = [
      '  const password = req.body.password;',
      '  const token = signSession(user.id);',
      'const token = await getToken();',
      "const password = form.get('password');",
      'password = getpass.getpass()',
      'this.token = response.data.accessToken;',
      'let apiKey = config.get("apiKey");',
      '    private final String apiToken = props.getProperty("api.token");',
      // Adversary pass 44: an object's member, pydantic's annotations, a settings constant, a header lookup, a …Key that names a key.
      'export const accessToken = await getAccessToken({ clientSecret: config.stripe.apiKey });',
      'from pydantic import Field, SecretStr',
      '    client_secret: SecretStr = Field(..., env="OIDC_CLIENT_SECRET")',
      '    db_password: SecretStr',
      'password = settings.DB_PASSWORD',
      'token = request.headers.get("Authorization", "").removeprefix("Bearer ")',
      '    "PartitionKey": "tenant-000000000000000000001",',
      '  i18nKey: "nav.home",',
      // Adversary pass 46: Go, C#, PHP, Terraform, a read's quoted status line.
      '\t\tAPIKey:     viper.GetString("api.key"),',
      'var jwtKey = builder.Configuration["Jwt:Key"] ?? throw new InvalidOperationException();',
      'options.Password = builder.Configuration.GetValue<string>("Redis:Password");',
      "        'secret' => $_ENV['STRIPE_SECRET'] ?? getenv('STRIPE_SECRET'),",
      '  administrator_login_password = var.db_password',
      'const nvidia = new OpenAI({ baseURL: "https://integrate.api.nvidia.com/v1", apiKey: process.env.NVIDIA_API_KEY });',
      'c1 exited, last: "web/src/db.ts:3:  password: process.env.PGPASSWORD!,"',
      '',
    ].join('\n');
    expect(new Redactor().mask(code)).toBe(code);
    const v = s(AN, 24);
    expect(new Redactor().mask(`const token = "${v}";\nServer=db;User ID=app;Password=${v}x;\n`)).not.toContain(v);
  });

  it("keeps a model's name under a provider's key (adversary pass 39's rule)", () => {
    const text = '{"mistral": "mistral-small-2409", "openai": "gpt-4o-mini-2024-07-18", "model": "anthropic/claude-sonnet-4"}\n';
    expect(new Redactor().mask(text)).toBe(text);
  });

  it("reads /proc/<pid>/environ's NUL-separated variables one by one (adversary pass 38)", () => {
    const [a, b] = [s(AN, 50), pw()];
    const text = `PATH=/usr/bin\0SECRET_KEY=${a}\0EMAIL_HOST=smtp.gmail.com\0EMAIL_HOST_PASSWORD=${b}\0LANG=C.UTF-8\0`;
    expect(new Redactor().mask(text)).toBe('PATH=/usr/bin\0SECRET_KEY=[masked: key]\0EMAIL_HOST=smtp.gmail.com\0EMAIL_HOST_PASSWORD=[masked: password]\0LANG=C.UTF-8\0');
  });

  it("masks a value's tail after the squasher's cut when the value ran into the cut (adversary pass 38)", () => {
    const tail = s(B64, 90);
    const out = new Redactor().mask(`DJANGO_SETTINGS_MODULE=shop.settings.prodSECRET_KEY=${s(AN, 40)}… [+1,009 chars] …${tail} 4 --bind 0.0.0.0:8000HOME=/app\n`);
    expect(out).not.toContain(tail);
    expect(out).toContain(' 4 --bind 0.0.0.0:8000HOME=/app');
  });

  it('keeps what passes 61 and 62 rules stand beside: two constants in a list, a checksum under `secret:`, prose with no made value, a slug or a uuid after /hooks/', () => {
    const kept = [
      '  "ExplicitAuthFlows": ["ALLOW_REFRESH_TOKEN_AUTH", "ALLOW_USER_SRP_AUTH"],',
      '    checksum/secret: 4f1d0c2f5f7a4a0d8e7b1c3e5d9a0b2c4e6f8a1b3c5d7e9f0a2b4c6d8e0f1a2b',
      "the api token for staging: ask dana (rotate after friday)",
      'password (required): see the wiki',
      'POST /hooks/github-deploy-production-eu HTTP/1.1',
      'POST /api/webhooks/3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b HTTP/1.1',
      'use `GITHUB_TOKEN` as the token `${{ secrets.GITHUB_TOKEN }}`',
      'Set the mnemonic with --mnemonic:\n  cast wallet import deployer --interactive',
      // Hex of a digest (bytes, not text), a publishable key, a plan's flags with no values, an example key id and its docs secret.
      'sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      'pk_live_51HqLyjWDarjtT1zdp7dcXzK9dT2kE4lL8aBcDeFgHiJkLmNoPqRsTuVwXyZ',
      '"after_sensitive": {"key": true}, "after_unknown": {}',
      'aws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      'the token expired at 2026-12-01T09:00:00Z',
      // Labels in other languages with words after them, not a made value; mkpasswd asking.
      'Chave de API: consulte o cofre da equipe',
      'API-Schlüssel: siehe Passwortmanager',
      'Токен доступа: см. хранилище',
      '  982  mkpasswd -m sha-512',
      // A heredoc under a name that is no secret's, an INI name with nothing under it.
      'user_data = <<-EOF\n  #!/bin/bash\n  systemctl restart worker\nEOF',
      '[auth]\napi_key =\n[server]\nport = 8080',
      // PHP's var_dump: a name's `=>` then its value below is var_dump's own reading, the names' lines stay.
      'array(2) {\n  ["API_KEY"]=>\n  string(4) "none"\n  ["DB_HOST"]=>\n  string(14) "mysql.internal"\n}',
      // Short byte lists and escapes under names that say nothing, text escaped under a count's name, a variable's name then a
      // word, a list of users or hosts (pass 69's fixes stand beside these).
      'const version = [_]u8{ 1, 4, 2, 0 };\nconst rgb = [_]u8{ 255, 128, 0, 255, 128, 0, 12, 34, 56, 78 };',
      'let header: [u8; 8] = [137, 80, 78, 71, 13, 10, 26, 10];',
      '{"title": "\\u00c9t\\u00e9 \\u00e0 Paris", "token_count": 1234}',
      "printf '\\033[1;32m\\033[0m' # password prompt colours",
      'using NODE_ENV production\nbuilding with TOKEN_LIMIT 4096\nsigning with GPG_KEY_ID 3AA5C34371567BD2',
      'admins: ["alice", "bob"]\nupstream hosts: ["db1.internal", "db2.internal"]',
      // Passes 70 and 71's look-alikes beside their fixes: a lexer's token type, pairs that are two (`a=1,b=2`), code building a
      // query string, a blank-aligned table with no secret's column, a CLI's padded name and id rows, prose about a password.
      'lexer: token=IDENT value=refreshTokenExpiry line=42',
      'tags=a,b,c password_policy=min12,upper',
      'x = "password=" + "abc"\nString url = "jdbc:sqlserver://db;user=sa;password=" + pw + ";";\n$q = "token=" . $t;',
      'NAME      READY   STATUS    RESTARTS   AGE\napi-7d9   1/1     Running   0          5d',
      'AccessKey                SCWOXVWP3IBBH1ULVZC5\nApplicationID            75af9e2e-42e2-4a7e-9862-49c314e82afb',
      'the password is required\nyour pass is valid until Friday\nthe password is Required for login',
      'vowels = [\'a\', \'e\', \'i\', \'o\', \'u\', \'y\', \'w\', \'x\']',
      'const greeting = "olleh dlrow"[::-1]',
      'api_key = os.environ["API_KEY"]\ndsn = "host=db user=app password=" + pw',
      'Forgot password?\nRequest id: 7f3a9b2c1d\nalice: what is the wifi password?\nbob: it is on the fridge\nalice: ok v2.4.1-rc3',
      'SecurePassword : System.Security.SecureString',
      'Set-Cookie: sessionid=; expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/\nSet-Cookie: csrftoken=; Max-Age=0; Path=/',
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\nSec-WebSocket-Protocol: actioncable-v1-json',
      "[(b'host', b'localhost:8000'), (b'content-type', b'application/json')]",
      `${Buffer.from('key:value').toString('base64')}\n${Buffer.from('user:password').toString('base64')}`,
      "2026-12-01 11:57:06.728 DEBUG gateway.auth: headers={'host': 'ws.fieldwork.io', 'x-device': 'device-77'}",
      "+ x='ab'\\''cd'",
      '==> /var/log/app.log <==\nstarted ok in 2.3s\n==> /etc/hostname <==\nbuild-runner-04',
      'Reporting DB endpoint\tReportingDbEndpoint\tbilling.rds.amazonaws.com\nKey name\tKeyName\tdeploy-2026',
      'PS C:\\Users\\dana> Get-Date\nTuesday, December 1, 2026 11:02:03 AM',
      // Passes 88 and 89: HOCON's optional substitution, nginx variables as header values, print_r's nested array, a plain
      // TOML inline table, ids with dashes that decode to binary.
      'db.password = ${?DB_PASSWORD}\napi-key = "<your-token>"',
      '    proxy_set_header X-Request-Key $request_id;\n    proxy_set_header X-Upstream-Token $upstream_token;',
      'Array\n(\n    [password] => Array\n        (\n        )\n)',
      'alpha = { host = "10.0.0.1", key = "primary", port = 5432 }',
      'trace-Id: Xq7-Rb2_Kd9-Wm4_Tn6-Yp1_Ls3-Vh8',
      // Pass 90's: an anonymous steam login, a keychain's name, espota with no password, a version macro, a manifest's version.
      '+ steamcmd +login anonymous +app_update 740 +quit',
      '+ security import /tmp/cert.p12 -k build.keychain -T /usr/bin/codesign\n+ security unlock-keychain build.keychain',
      'upload_flags =\n    --auth=none\n    --port=3232',
      '#define FIRMWARE_VERSION "2.4.1"\n#define SECRET_SSID "Greenhouse-IoT"',
      '<meta-data android:name="com.google.android.gms.version" android:value="@integer/google_play_services_version"/>',
      // Pass 91's: a jwt_secrets list's key (an issuer's name), an API section with no key, a SQL key of a table of settings,
      // a span's non-secret tag, a session line with no id.
      'consumers:\n- username: billing-svc\n  jwt_secrets:\n  - key: billing-svc-issuer',
      'api:\n  url: https://api.acme.io\n  timeout: 30s',
      "SELECT value FROM settings WHERE key = 'feature.checkout.enabled'",
      '{"key":"span.kind","type":"string","value":"server"}',
      '  express-session no SID sent, generating session +0ms\n  express-session session found +2ms',
      // Pass 93's: a plugin path macro, a host key line, a Cisco type 5 hash, snmpwalk with no community in view.
      '$USER1$=/usr/local/nagios/libexec',
      'wg0\tpeer\t(none)\t(none)',
      'enable secret 5 $1$mERr$hx5rVt7rPNoS4wqbXKX7m0',
      'snmpwalk -v3 -l noAuthNoPriv -u guest 10.0.0.1 sysDescr',
      // Pass 95's: xxd -p of plain settings, a certificate's fingerprint as colon hex, a quoted-printable HTML attribute,
      // uuencode of a README, a username element with attributes, the assumed role's row.
      `${Buffer.from('NODE_ENV=production\nLOG_LEVEL=info\nPORT=8080\nREGION=eu-west-1\n').toString('hex').match(/.{1,60}/g)!.join('\n')}`,
      'SHA256 Fingerprint (hex): 48:52:4F:E3:77:E7:0E:10:21:D9:07:87:AC:1B:48:52:4F:E3:77:E7:0E:10:21:D9:07:87:AC:1B:AA:BB:CC:DD',
      '<a href=3D"https://x.example.com/?a=3D1">login</a>',
      `begin 644 README\n${uuencode(Buffer.from('This is a README for the demo project. It has no secrets, only words and numbers 12345.\n'))}\n\`\nend`,
      '<wsse:Username wsu:Id="UsernameToken-1">svc_erp</wsse:Username>',
      // Session 20's: a URL with a user and a port, an underscore option that pages or turns one off, a continued docker run.
      'git clone ssh://git@github.com:22/acme/app.git',
      'aws logs tail --page_token f/3759483.abc --no_password',
      'docker run --rm \\\n  -e LOG_LEVEL=debug \\\n  -p 8080:8080 acme/app:1.2',
      'password required for user',
      // Pass 96's: a numbered line of prose, an ACL with only a hashed password, the ABFS account's other property.
      '     3\tpassword reset sent',
      // Pass 100's: loguru's values under names that are none.
      "    server.login(user, host)\n    │      │     │     └ 'smtp.mailgun.org'\n    │      │     └ 'billing@acme.io'",
      'DBI->connect("dbi:SQLite:dbname=test.db", "", "")',
      'LOG_LEVEL_OVERRIDE=debug',
      // Pass 101's: cat -A's line ends after placeholders, a username's field, a random_string's result.
      'API_KEY=<your-api-key>$\nDB_PASSWORD=${POSTGRES_PASSWORD}$',
      '  {\n    "id": "username",\n    "label": "username",\n    "value": "svc-deploy"\n  }',
      'resource "random_string" "suffix" {\n    result = "k3j9x2"\n}',
      'class="sk-navbar-item-active-mobile"',
      // Pass 97's: commands expect sends, a recording with no secret.
      'send: sending "./Deploy.sh --target=prod\\r" to { exp4 }',
      '[0.5, "o", "$ ls\\r\\nREADME.md  src\\r\\n"]\n[0.6, "o", "\\u001b[1;34mnode_modules\\u001b[0m\\r\\n"]',
      '2:user app on #9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 ~app:*',
      '    <name>fs.azure.account.key.acmelake.blob.core.windows.net</name>\n    <value>${env.ABFS_KEY}</value>',
      'ASSUMEDROLEUSER\tarn:aws:sts::123456789012:assumed-role/deploy/ci\tAROAQWERTYUIOPASDFGHJK:ci',
    ];
    for (const t of kept) expect(new Redactor().mask(t), t).toBe(t);
  });

  it("remembers an echoed password the cursor went back over, not it and its `*`s as one value: other placeholders stay (adversary pass 97 F33, L03)", () => {
    const r = new Redactor();
    r.noteCommand('c1', 'ansible-vault view secrets.yml');
    const typed = 'Xq7-Rb2_Kd9!Wm4Z';
    r.stream('c1').pushBytes(Buffer.from(`Vault password: ${typed}\x1b[16D\x1b[K${'*'.repeat(16)}\r\nDecryption successful\r\n`));
    expect(r.maskLines('c1', [{ n: 1, text: `Vault password: ${typed}\x1b[16D\x1b[K${'*'.repeat(16)}\r` }])[0].text).not.toContain(typed);
    expect(r.mask(`later: ${typed}`)).toBe('later: [masked: password]');
    const placeholder = '{\n  "password": "********",\n  "api_key": "sk_live_****************4242"\n}';
    expect(r.mask(placeholder)).toBe(placeholder);
  });

  it("keeps a quoted Cookie header's closing quote and the set-cookie attributes (closing measure 92)", () => {
    const out = new Redactor().mask("    Cookie: 'auth_token=de3bad3937e22507d783e8e85c8efafa94da',\n    'set-cookie': [\n      'refresh=qujohhmDqUzpSQ0Xf_H6xDE9RRt12NMB; Path=/; HttpOnly'\n    ]");
    expect(out).toBe("    Cookie: 'auth_token=[masked: cookie]',\n    'set-cookie': [\n      'refresh=[masked: cookie]; Path=/; HttpOnly'\n    ]");
  });

  it("keeps a cookie's name in a Set-Cookie header and masks its value (adversary pass 78)", () => {
    const out = new Redactor().mask('Set-Cookie: sessionid=abcdef0123456789xyz; Path=/; HttpOnly');
    expect(out).toContain('sessionid=');
    expect(out).not.toContain('abcdef0123456789xyz');
  });

  it("ends a URL query's token at the next parameter (adversary pass 75: `?token=eyJ…&v=3`)", () => {
    const jwt = 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJkZXZpY2UtNzciLCJpYXQiOjE3MDAwMDAwMDB9.c2lnbmF0dXJlX2hlcmVfbG9uZ19lbm91Z2g';
    const out = new Redactor().mask(`connection open path=/ws?token=${jwt}&v=3 x=1\nGET /cb?state=xyz&token=abcdef0123456789abcdef&page=2`);
    expect(out).not.toContain(jwt);
    expect(out).toContain('&v=3 x=1');
    expect(out).toContain('&page=2');
    expect(out).not.toContain('abcdef0123456789abcdef');
  });

  it("keeps a word at a line's end that heads a value masked earlier (adversary pass 72: `key: password` after `password123`)", () => {
    const r = new Redactor();
    expect(r.mask('fixtures:\n  users:\n    - email: admin@example.com\n      password: "password123"\n')).toContain('[masked: password]');
    const manifest = '            secretKeyRef:\n              name: prod-db-creds\n              key: password\n        - name: TOKEN_AUDIENCE\n';
    expect(r.mask(manifest)).toBe(manifest);
  });

  it("masks Fly.io's tokens after FlyV1 whatever their alphabet, several joined by commas, and a name that says its value's base (adversary pass 102 F50, F09)", () => {
    const a = 'fm2_LrOzV0bdDPjchlhDsCfaT5IPY3NTd9J7fJrcztkTewTX6G59cCQCiHace_Bm822tQ28lBS_Br8eqO-4jZJKtzp5MrcfrE3NxjlJlN9a2apoorCULdZmg';
    const b = 'fm2_lJPECAAAAAAAAMGoxBDz8o1f6QvkZNLtoRMuNLhFwrVodHRwczovL2FwaS5mbHkuaW8vdjGWAJLOAAQdVR8Lk7xBBq9ZpD3kWmYtR8aLq2';
    expect(new Redactor().mask(`FlyV1 ${a},${b}\n`)).toBe('FlyV1 [masked: fly.io token]\n');
    expect(new Redactor().mask('token FlyV1 fm2_lJPECAAAAAAAAMGoxBDz8o1f6QvkZNLtoRMuNLhFwrVodHRwczov')).toBe('token FlyV1 [masked: fly.io token]');
    expect(new Redactor().mask(`Authorization: FlyV1 ${b}`)).not.toContain(b.slice(4, 30));
    expect(new Redactor().mask('SESSION_SECRET_B36=heu9m7b6ak6nigja5k590okbwadk718i83q1wgf9tmwh3f3pc7')).toBe('SESSION_SECRET_B36=[masked: secret]');
    expect(new Redactor().mask('LOG_LEVEL_B36=heu9m7b6ak6nigja5k590okbwadk718i83q1wgf9tmwh3f3pc7')).toContain('heu9m7b6');
  });

  it("masks a coverage or scanning CLI's UUID token on its command line (codecov -t, snyk auth) and keeps a reference and the documented SigV4 signature (adversary pass 103 F50, L07)", () => {
    const uuid = '0d6e3b52-8f6a-4c1e-9b7a-2f1c3d4e5a6b';
    expect(new Redactor().mask(`+ ./codecov upload-process -t ${uuid} -f coverage/lcov.info`)).toBe('+ ./codecov upload-process -t [masked: codecov token] -f coverage/lcov.info');
    expect(new Redactor().mask(`+ snyk auth ${uuid}\nYour account has been authenticated.`)).toBe('+ snyk auth [masked: snyk token]\nYour account has been authenticated.');
    expect(new Redactor().mask(`snyk config set api=${uuid}`)).toBe('snyk config set api=[masked: snyk token]');
    // A table's name cell then its value cell (`column -t -s,` of a CSV of keys: adversary pass 99 F33); a cache key stays.
    expect(new Redactor().mask('mistral   MISTRAL_API_KEY   fkUSpxo3m7QTfYniiWauZ6xQv9ZOuB9b    2024-09-12')).toBe('mistral   MISTRAL_API_KEY   [masked: api key]    2024-09-12');
    for (const kept of ['CACHE_KEY  Linux-node-3f9a8c1d2e3f4a5b6c7d', 'MAX_TOKENS  4096', 'codecov -t $CODECOV_TOKEN', 'snyk auth "$SNYK_TOKEN"', 'snyk auth --help', `  "expected_signature": "5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7",`]) expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("masks a private key's body lines scattered among other lines (env | sort), and keeps a certificate's beside it (adversary pass 101 F21)", async () => {
    const { generateKeyPairSync } = await import('node:crypto');
    const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const body = pem.split('\n').filter((l) => l && !l.startsWith('-----'));
    const env = `HOME=/root\nSSH_PRIVATE_KEY=${pem.trimEnd()}\nPATH=/usr/bin\nDEPLOY_HOST=deploy.example.com\nTERM=xterm\nUSER=root\n`;
    const sorted = env.split('\n').filter(Boolean).sort().join('\n');
    const r = new Redactor();
    const out = r.mask(sorted);
    for (const line of body.slice(0, -1)) expect(out).not.toContain(line);
    expect(out).toContain('DEPLOY_HOST=deploy.example.com');
    // Remembered: a read of one line alone shows it masked.
    expect(r.mask(body[5])).toBe('[masked: private key]');
    const cert = 'MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ';
    const both = `${pem}-----BEGIN CERTIFICATE-----\n${cert}\n-----END CERTIFICATE-----\n`;
    expect(new Redactor().mask(both)).toContain(cert);
  });

  it("masks a failed assertion's value under the code that names a secret (ExUnit's code/left, pytest's where) and keeps another's (adversary pass 100 F38)", () => {
    const v = 'q8Zk3pQ9xL2mVb7TnR4sWy8HcJ6dFg1aq8Zk3pQ9xL2mVb7TnR4sWy8HcJ6dFg1a';
    const exunit = `     Assertion with == failed\n     code:  assert Application.get_env(:acme, AcmeWeb.Endpoint)[:secret_key_base] == @expected\n     left:  "${v}"\n     right: "test-secret"`;
    expect(new Redactor().mask(exunit)).toBe(exunit.replace(v, '[masked: key]'));
    const pytest = `E       AssertionError: assert '${v}' == 'expected'\nE        +  where '${v}' = settings.SECRET_KEY`;
    expect(new Redactor().mask(pytest)).not.toContain(v);
    const kept = `E       AssertionError: assert '${v}' == 'x'\nE        +  where '${v}' = user.display_name`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("masks web frameworks' debugging forms (adversary pass 104): PDO's arguments in a trace, a JWT's key in a call, Elytron's clear-text, SmallRye's config log, Flask's session cookie", () => {
    const pw = 'gkR05Sh7Im^NvokMCd';
    const laravel = `{"trace":[{"file":"/var/www/Connector.php","line":65,"function":"__construct","class":"PDO","type":"->","args":["mysql:host=mysql;port=3306;dbname=forge","forge","${pw}",{"3":2}]}]}`;
    expect(new Redactor().mask(laravel)).toBe(laravel.replace(pw, '[masked: password]'));
    expect(new Redactor().mask(`#0 Connector.php(65): PDO->__construct('mysql:host=db;dbname=app', 'forge', '${pw}', Array)`)).not.toContain(pw);
    const key = '42bb977b3a9d1e9cc55f02ebb98b3924f0a3eaafc138160637c15219055f72a1';
    expect(new Redactor().mask(`    token = jwt.encode({"sub": user.id, "exp": exp}, "${key}", algorithm="HS256")`)).toBe('    token = jwt.encode({"sub": user.id, "exp": exp}, "[masked: jwt signing key]", algorithm="HS256")');
    expect(new Redactor().mask('<credential-reference clear-text="Z6e-Udoqppdqf_D3cBeV"/>')).toBe('<credential-reference clear-text="[masked: password]"/>');
    const smallrye = 'DEBUG [io.sma.config] SRCFG01001: The config quarkus.datasource.password was loaded from application.properties:10 with the value w^bm~y#x6CkAdnj4-Pyl';
    expect(new Redactor().mask(smallrye)).not.toContain('w^bm~y#x6CkAdnj4-Pyl');
    const port = 'DEBUG [io.sma.config] SRCFG01001: The config quarkus.http.port was loaded from application.properties:3 with the value 8080';
    expect(new Redactor().mask(port)).toBe(port);
    // A URL's password that ends in `@` (a random value of adv84 F11): masked to the last `@` before the host.
    expect(new Redactor().mask('psql "postgresql://app:GV_vMU8PcDuOW_@@10.0.3.14:5432/app"')).toBe('psql "postgresql://app:[masked: url password]@10.0.3.14:5432/app"');
    // A placeholder's default with a dot in it (Micronaut's YAML: adv104 F14) is a value; a member chain of code is not.
    expect(new Redactor().mask('    password: ${DATASOURCES_DEFAULT_PASSWORD:vhhBE.uZI1sRk_PBQLMZ}')).toBe('    password: ${DATASOURCES_DEFAULT_PASSWORD:[masked: password]}');
    for (const code of ['const password = req.body.password;', 'this.token = response.data.accessToken;', 'token = user.getToken2();']) expect(new Redactor().mask(code)).toBe(code);
    const cookie = 'eyJfZnJlc2giOmZhbHNlLCJfdXNlcl9pZCI6IjQyIn0.1-G-8A._P2BdqtdoS2Bvkc-kWLBnhDXJps';
    expect(new Redactor().mask(`ImmutableMultiDict([('session', '${cookie}')])`)).toBe("ImmutableMultiDict([('session', '[masked: flask session cookie]')])");
  });

  it("masks network gear's secrets (adversary pass 106): a RADIUS server's key, the ASA's PSK, SNMPv3's passphrases, FortiOS' ENC values, Tasmota's console", () => {
    const cases: [string, string][] = [
      ['radius server ISE1\n address ipv4 10.20.0.11 auth-port 1812 acct-port 1813\n key !Z54Yts5O6umSRNC*v\n', '!Z54Yts5O6umSRNC*v'],
      ['tunnel-group 203.0.113.9 ipsec-attributes\n ikev1 pre-shared-key cDu5C^vc0Nz0Crz276Fh\n ldap-login-password 1ryNRemJ_raF-l', 'cDu5C^vc0Nz0Crz276Fh'],
      ['snmp-server user monitor V3GRP v3 auth sha V%^ipAEF5txr.rFr priv aes 128 rd^i.V*%T@K0Wc-h', 'rd^i.V*%T@K0Wc-h'],
      ['snmp-server user monitor V3GRP v3 auth sha V%^ipAEF5txr.rFr priv aes 128 rd^i.V*%T@K0Wc-h', 'V%^ipAEF5txr.rFr'],
      ['    edit "vpn1"\n        set psksecret ENC 8GNyY2F53IajTlnY1Gh31FO8Pdbu8yHt+iPdFkT1RsJFQ5DNlrnfBxguMTZqzecF4v5hz\n', '8GNyY2F53IajTlnY1Gh31'],
      ['10:01:12.301 CMD: Backlog SSID1 IoT-Net; Password1 kh=Vf12E.gi0+S; MqttPassword SN9XelA6N^57lFUb', 'SN9XelA6N^57lFUb'],
      ['10:01:12.301 CMD: Backlog SSID1 IoT-Net; Password1 kh=Vf12E.gi0+S; MqttPassword SN9XelA6N^57lFUb', 'kh=Vf12E.gi0+S'],
    ];
    for (const [text, value] of cases) expect(new Redactor().mask(text), text).not.toContain(value);
    // Kept: FortiOS' placeholder, a bind key's name, a numbered type 7 line's shape, YAML's `key:`.
    for (const kept of ['        set password ENC ********', 'key "rndc-key" {', '  key: value-of-a-setting']) expect(new Redactor().mask(kept)).toBe(kept);
    // …and a gpg listing's subkey line (pass 82 L42): an indented `key` with a 16-hex id or a 40-hex fingerprint is public.
    const gpg = 'sub   cv25519 2024-03-02 [E] [expires: 2027-03-02]\n      key 3F61F8EBDDE9F39F\n      key 9C1D2E3F4A5B6C7D8E9F0A1B2C3D4E5F60718293\n';
    expect(new Redactor().mask(gpg)).toBe(gpg);
  });

  it("masks app-store and appliance secrets left by pass 106: CodePush deployment keys, a licence's serial, racadm's set of a user's password, Proxmox's API token", () => {
    const key = 'cLJoy53PZIIljgWmJJfxp4NdCgPhaqjyEGbta';
    const cases: [string, string][] = [
      // A rule between the rows (cli-table's): the second row's key too.
      [`┌────────────┬───────────────────────────────────────┐\n│ Name       │ Deployment Key                        │\n├────────────┼───────────────────────────────────────┤\n│ Production │ ${key.slice(1)}x │\n├────────────┼───────────────────────────────────────┤\n│ Staging    │ ${key} │\n└────────────┴───────────────────────────────────────┘`, key],
      [`<key>CodePushDeploymentKey</key>\n<string>${key}</string>`, key],
      [`<string moduleConfig="true" name="CodePushDeploymentKey">${key}</string>`, key],
      ['UNITY_EMAIL=build@shoply.io\nUNITY_SERIAL=AN-UDP0-0VIX-9JL0-NNJR-RL3A', 'AN-UDP0-0VIX-9JL0-NNJR-RL3A'],
      ['$ racadm -r 10.9.0.21 -u root -p calvin set iDRAC.Users.3.Password c^%N7Ap@PYtt!%wZ', 'c^%N7Ap@PYtt!%wZ'],
      [`| Name | Access Token |\n|------|--------------|\n| ci   | ${key} |`, key],
      // Proxmox VE's `pveum user token add` (its table, and as JSON): the `value` under `full-tokenid`.
      ['┌──────────────┬──────────────────────────────────────┐\n│ key          │ value                                │\n╞══════════════╪══════════════════════════════════════╡\n│ full-tokenid │ root@pam!backup                      │\n├──────────────┼──────────────────────────────────────┤\n│ info         │ {"privsep":"0"}                      │\n├──────────────┼──────────────────────────────────────┤\n│ value        │ 218fb359-bdc5-4e50-ba0a-0d99ec94590d │\n└──────────────┴──────────────────────────────────────┘', '218fb359-bdc5-4e50-ba0a-0d99ec94590d'],
      ['{"full-tokenid":"root@pam!backup","info":{"privsep":"0"},"value":"218fb359-bdc5-4e50-ba0a-0d99ec94590d"}', '218fb359-bdc5-4e50-ba0a-0d99ec94590d'],
    ];
    for (const [text, value] of cases) expect(new Redactor().mask(text), text).not.toContain(value);
    // Kept: a table's public key and sort key columns, a device's serial number, racadm's other settings.
    for (const kept of [
      `| Name | Public Key |\n|------|------------|\n| ci   | ${key} |`,
      `| Name | Sort Key |\n|------|----------|\n| ci   | ${key} |`,
      'SERIAL=C02XK1ZZJG5H\nSERIAL_NUMBER=5CG1234XYZ',
      '$ racadm -r 10.9.0.21 -u root -p [masked: password] set iDRAC.NIC.DNSRacName idrac-web01',
      // A Proxmox table's other rows, and a `value` row with no token id above it.
      '│ full-tokenid │ root@pam!backup │\n│ info │ {"privsep":"0"} │',
      '│ key   │ value                                │\n│ value │ 218fb359-bdc5-4e50-ba0a-0d99ec94590d │',
    ]) expect(new Redactor().mask(kept)).toBe(kept);
  });

  it('masks the closing measure 108\'s leaks: a .pgpass made columns, a SAS signature on its own line, a users file under its format comment, a key echoed onto one line, a key among another service\'s log lines', () => {
    const pgpass = 'db-primary.internal  5432  app  app_rw    WVhNL45wp;q5_H@+_.dc\n*                    *     *    replicator  k9PoiYp!dp8TYg-W4uAR%NOC\n';
    expect(new Redactor().mask(pgpass)).toBe('db-primary.internal  5432  app  app_rw    [masked: password]\n*                    *     *    replicator  [masked: password]\n');
    const sas = 'se=2025-03-15T09:00:00Z\nspr=https\nsig=VyLNFOaV2D8UywCK1ugUnwkA1tNDpTjJ7B%2BoVT3r5BQ%3D\n';
    expect(new Redactor().mask(sas)).toBe('se=2025-03-15T09:00:00Z\nspr=https\nsig=[masked: sas signature]\n');
    expect(new Redactor().mask('# user:password (plain, converted to htpasswd at build)\nadmin:nbw%A2N.TQPv-s\nops:Zq9!xx-LL2mm\n')).toBe('# user:password (plain, converted to htpasswd at build)\nadmin:[masked: password]\nops:[masked: password]\n');
    // `echo $KEY` unquoted: the block's lines joined by blanks; and the same line's tail after the squasher's cut (its BEGIN gone).
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    const echoed = privateKey.trim().split('\n').join(' ');
    const body = privateKey.trim().split('\n').slice(1, -1);
    for (const text of [echoed, `…${echoed.slice(echoed.length - 200)}`]) {
      const out = new Redactor().mask(text);
      for (const line of body.slice(-2)) expect(out, out).not.toContain(line);
    }
    // docker compose's logs: the key's lines under `api-1    | `, another service's between them.
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-384', privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } }).privateKey.trim().split('\n');
    const logs = [`api-1    | ${ec[0]}`, `api-1    | ${ec[1]}`, 'worker-1 | 09:40:01 connected to redis://cache:6379', `api-1    | ${ec[2]}`, 'worker-1 | 09:40:01 queue orders: 0 pending', ...ec.slice(3).map((l) => `api-1    | ${l}`), 'worker-1 | 09:40:02 heartbeat ok', ''].join('\n');
    const r = new Redactor();
    r.noteCommand('c1', 'docker compose logs');
    r.stream('c1').pushBytes(Buffer.from(logs));
    const reply = r.mask(logs);
    for (const line of ec.slice(1, -1)) expect(reply).not.toContain(line);
    expect(reply).toContain('worker-1 | 09:40:01 queue orders: 0 pending');
    // A read of the key's last line alone, and of another service's line between its lines: masked, and kept.
    const lines = logs.split('\n');
    const last = lines.findIndex((l) => l.includes(ec[ec.length - 2]));
    expect(r.maskLines('c1', [{ n: last + 1, text: lines[last] }])[0].text).not.toContain(ec[ec.length - 2]);
    expect(r.maskLines('c1', [{ n: 5, text: lines[4] }])[0].text).toBe(lines[4]);
    // Kept: prose before an armour, a table's status column, a cron line, a short `sig=`, a comment that names a format in prose.
    for (const kept of [
      'The file ends with -----END PRIVATE KEY-----',
      'NAME   PORT  DB   USER   STATUS\napi    5432  app  admin  running',
      '0  *  *  *  *  /usr/bin/backup.sh',
      'sig=deadbeef',
      '# see user:password docs\nlocalhost:8080\n',
    ]) expect(new Redactor().mask(kept)).toBe(kept);
    // Pass 109 F22: `grep -n -A2 machine ~/.netrc`, the password under grep's context prefix `6-`.
    const netrc = '4:machine api.wandb.ai\n5-  login user\n6-  password bd3fc0374d9959fb530e38087ee3d9aba1f2007a\n';
    expect(new Redactor().mask(netrc)).toBe('4:machine api.wandb.ai\n5-  login user\n6-  password [masked: netrc password]\n');
  });

  it("masks pass 110's named forms: an upper-cased .netrc, an Azure Functions host key as ARM lists it, PowerShell's plain text under the docs' `PS> `", () => {
    const key = 'b3JpZ2luYWxseS1yYW5kb20tZnVuY3Rpb24ta2V5LWJ5dGVzLTAx4Kq9Zw==';
    const cases: [string, string][] = [
      ['MACHINE CI.EXAMPLE.COM LOGIN BOT PASSWORD K7QX#PLMZA!RT5V7A\n', 'K7QX#PLMZA!RT5V7A'],
      [`{"name":"default","value":"${key}"}\n`, key],
      [`{\n  "keys": [\n    {\n      "name": "default",\n      "value": "${key}"\n    }\n  ]\n}\n`, key],
      ['PS> $cred.GetNetworkCredential().Password\nK7qx#PlmZa!rT5v7a\n', 'K7qx#PlmZa!rT5v7a'],
    ];
    for (const [text, value] of cases) expect(new Redactor().mask(text), text).not.toContain(value);
    // Kept: a key's name with a short value, a machine's upper-cased line with no password, PowerShell's other reads.
    for (const kept of ['{"name": "default", "value": "eastus"}', 'MACHINE CI.EXAMPLE.COM LOGIN BOT', 'PS> $env:COMPUTERNAME\nWEB-01-PRODUCTION\n']) expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("masks passes 112 and 113's deployment and identity tools: labels of two words, a JWT by its name in a wrapped cell, Vault's unseal keys, typed and concealed fields, a device code", () => {
    const jwt = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJzdmNfYWNtZSIsInJvbGUiOiJzZXJ2aWNlIn0.FkE3Q5Yzyh7DMvDSSiIdL-vxYJG4xHTATWPPu6VBqY5';
    const cell = (name: string, piece: string) => `║ ${name.padEnd(22)} │ ${piece.padEnd(52)} ║`;
    const wrapped = [cell('INTERNAL_API_JWT', jwt.slice(0, 52)), cell('', jwt.slice(52, 104)), cell('', jwt.slice(104))].join('\n') + '\n';
    const out = new Redactor().mask(wrapped);
    for (const piece of [jwt.slice(0, 52), jwt.slice(52, 104), jwt.slice(104)]) expect(out).not.toContain(piece);
    const unseal = ['q0GCWBZKUe2tmO3dnxShVh3Umjx0Xgs6Zl7NaVCf7eA=', 'kOw2jNq0Y2o+7Hn8mOQeP8ufW2bM9UTUWaQ8yL9BZ1E='];
    const cases: [string, string][] = [
      ['API Key: 9fK2mQ7xLp4RtZ8vWn3B\n', '9fK2mQ7xLp4RtZ8vWn3B'],
      ['Account Key: Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA==\n', 'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA=='],
      ['Accessor ID  6a1b2c3d-0000-4000-8000-000000000001\nSecret ID    7f3e9d2c-1b4a-4c5d-9e8f-0a1b2c3d4e5f\n', '7f3e9d2c-1b4a-4c5d-9e8f-0a1b2c3d4e5f'],
      ['  password:    Xk29!pLm_qr77\n  one-time password seed:    ZJPYSFP2QVCDSO2TRKLPDIQNXBIH3BLW\n', 'ZJPYSFP2QVCDSO2TRKLPDIQNXBIH3BLW'],
      ['    localprivate: dsDdVMhnnfDDb/omdmMiAOXHRABG0J91Fb2SenW2y8A=\n', 'dsDdVMhnnfDDb/omdmMiAOXHRABG0J91Fb2SenW2y8A='],
      [`{\n  "unseal_keys_b64": [\n    "${unseal[0]}",\n    "${unseal[1]}"\n  ],\n  "unseal_threshold": 2\n}\n`, unseal[1]],
      ['{\n  "device_code": "3584d83530557fdd1f46af8289938c8ef79f9dc5",\n  "user_code": "WDJB-MJHT"\n}\n', '3584d83530557fdd1f46af8289938c8ef79f9dc5'],
      ['{\n  "credentials": [\n    {\n      "type": "password",\n      "value": "Init-Xn9SHcsDTh1X!",\n      "temporary": true\n    }\n  ]\n}\n', 'Init-Xn9SHcsDTh1X!'],
      ['{"credentials":[{"type":"password","value":"Init-Xn9SHcsDTh1X!","temporary":true}]}\n', 'Init-Xn9SHcsDTh1X!'],
      ['console password\tCONCEALED\tVfTbMoyjoRq09Im6RlRukmLD\nhostname\tSTRING\tapi.anthropic.com\n', 'VfTbMoyjoRq09Im6RlRukmLD'],
    ];
    for (const [text, value] of cases) expect(new Redactor().mask(text), text).not.toContain(value);
    // Kept: an access key's id under its label, a user code, a text field beside a password field, names that only start like one.
    for (const kept of ['Access Key: AKIAIOSFODNN7EXAMPLE', 'API Key: see the dashboard', '{"user_code": "WDJB-MJHT"}', 'hostname\tSTRING\tapi.anthropic.com', 'JWT_ALGORITHM=HS256', 'random seed: 42', 'sha256_hex: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08'])
      expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("masks pass 114's database tools: pgbouncer's userlist, MySQL's SET PASSWORD FOR, mongosh's db.auth, redis' TLS key passphrase, etcdctl's --user", () => {
    const cases: [string, string][] = [
      ['"pgbouncer_auth" "!vzOHMJDZSBDml%Nh%KW5P@+2WYD"\n"legacy_etl" "7ltqvXmdHCDTwLtwop"\n', '!vzOHMJDZSBDml%Nh%KW5P@+2WYD'],
      ['"pgbouncer_auth" "!vzOHMJDZSBDml%Nh%KW5P@+2WYD"\n"legacy_etl" "7ltqvXmdHCDTwLtwop"\n', '7ltqvXmdHCDTwLtwop'],
      ["2024-05-14T08:03:00.000120Z\t   41 Query\tSET PASSWORD FOR 'report'@'%' = 'nfCGVbuxh50D7RAJ'\n", 'nfCGVbuxh50D7RAJ'],
      ['db.auth("admin", "Adm1n-Mongo-2024!")\n', 'Adm1n-Mongo-2024!'],
      ['tls-key-file /etc/redis/tls/redis.key\ntls-key-file-pass Z8zgP1MZtrrtWGqD\n', 'Z8zgP1MZtrrtWGqD'],
      ['$ etcdctl --endpoints=https://etcd-0.internal:2379 --user root:67IsjEIXXGOP4umU get --prefix /config/\n', '67IsjEIXXGOP4umU'],
    ];
    for (const [text, value] of cases) expect(new Redactor().mask(text), text).not.toContain(value);
    // Kept: userlist's hashes, Valve's indented key-value pairs, a prompt for the password, etcdctl's user alone.
    for (const kept of ['"stats" "md5b81db7fe3886d92e3f5877e6ba5663c0"', '\t"installdir"\t\t"HalfLife2v2024"', 'db.auth("admin", passwordPrompt())', 'etcdctl --user root get /config'])
      expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("masks pass 116's observability and mail tools and closing measure 115's leaks: SMTP's AUTH LOGIN answer, grep's context lines, a padded directive, vendor shapes, a presigned URL's table", () => {
    const cases: [string, string][] = [
      [' ~> AUTH LOGIN\n<~  334 VXNlcm5hbWU6\n ~> YWxlcnRzQGFjbWUuaW8=\n<~  334 UGFzc3dvcmQ6\n ~> Z2t6SGc0ZmtQcVdtLTIwMjQh\n<~  235 2.7.0 Authentication successful\n', 'Z2t6SGc0ZmtQcVdtLTIwMjQh'],
      ["reply: b'334 UGFzc3dvcmQ6\\r\\n'\nreply: retcode (334); Msg: b'UGFzc3dvcmQ6'\nsend: 'Z2t6SGc0ZmtQcVdtLTIwMjQh\\r\\n'\n", 'Z2t6SGc0ZmtQcVdtLTIwMjQh'],
      ['2:[http://k8s-logs]\n3-disabled = 0\n4-token = 0110FABB-2CB5-4AFD-8CD8-643D579314BE\n', '0110FABB-2CB5-4AFD-8CD8-643D579314BE'],
      ['19-pass4SymmKey = y36XlHA31%5v==iARPLoP4\n', 'y36XlHA31%5v==iARPLoP4'],
      ['[OUTPUT]\n    Name            datadog\n    apikey          3f9c2e1a8b7d6c5e4f3a2b1c0d9e8f7a\n', '3f9c2e1a8b7d6c5e4f3a2b1c0d9e8f7a'],
      ["$ /usr/lib/nagios/plugins/check_mysql -H db01 -u nagios -p 'Xk2#pL9!qr7w' -d app\n", 'Xk2#pL9!qr7w'],
      ['*/5 * * * * curl -fsS https://uptime.betterstack.com/api/v1/heartbeat/Ab3dE5fG7hJ9kL1mN3pQ5rS7 > /dev/null\n', 'Ab3dE5fG7hJ9kL1mN3pQ5rS7'],
      ['-d \'{"routing_key":"R0q7DIoF5YNYXyiGP2deLAWZLU3ekptu","event_action":"trigger"}\'\n', 'R0q7DIoF5YNYXyiGP2deLAWZLU3ekptu'],
      ['{"x-honeycomb-team": "hcaik_01j9xk3m5n7p9q1r3s5t7v9w1x3y5z7a9b1c3d5e7f9g1h3j5k7m9n1p3q5r7s"}\n', 'hcaik_01j9xk3m5n7p9q1r3s5t7v9w1x3y5z7a9b1c3d5e7f9g1h3j5k7m9n1p3q5r7s'],
      ['{"key":"eyJrIjoiT0tTcG1pUlY2RnVKZTFVaDFsNExWUk9MN0xLZ1ROTzQiLCJuIjoiY2kiLCJpZCI6N30="}\n', 'eyJrIjoiT0tTcG1pUlY2RnVKZTFVaDFsNExWUk9MN0xLZ1ROTzQiLCJuIjoiY2kiLCJpZCI6N30='],
      ['    X-Amz-SignedHeaders      host\n    X-Amz-Signature          a8ae67439e777d0cfdcfdf9278a95531413a3cb0830b51c0973b8d7bd68df6d8\n', 'a8ae67439e777d0cfdcfdf9278a95531413a3cb0830b51c0973b8d7bd68df6d8'],
      [`AWS:eyJwYXlsb2FkIjoi${'VjNVOHNpaUZRUkd5d05Bam9vZU00cGlGcHR6VGJjVnd6Sk82YWZ'.repeat(6)}\n`, 'VjNVOHNpaUZRUkd5d05Bam9vZU00cGlGcHR6VGJjVnd6Sk82YWZ'],
    ];
    for (const [text, value] of cases) expect(new Redactor().mask(text), text).not.toContain(value);
    // Kept: the username's prompt and answer's line shape elsewhere, an incident's key, grep's number on a line that names nothing,
    // a broker's routing key, a directive that is no secret's.
    for (const kept of ['{"incident_key": "srv01/disk_full/var"}', '4-index = k8s', '{"routing_key": "orders.created"}', '    Name            datadog', '<~  334 VXNlcm5hbWU6'])
      expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("masks closing measure 117's and pass 118's leaks: a .pgpass of a second cluster's port, Maven's encrypted password alone, Gradle's plugin portal key, Composer's bearer section as jq's entries", () => {
    const cases: [string, string][] = [
      ['localhost         5433  orders_test  postgres    oKS9gSRHn4!BlLZ4\n', 'oKS9gSRHn4!BlLZ4'],
      ['$ mvn --encrypt-master-password\nMaster password:\n{RVV73E9WzsXQfwDe0Z6w0MuVZ2JZNvVdm/wqHbfuhQU=}\n', 'RVV73E9WzsXQfwDe0Z6w0MuVZ2JZNvVdm/wqHbfuhQU='],
      ['gradle.publish.key=SgeN9IFw6igNLo1h5rfHzPw0Iadp6edu\ngradle.publish.secret=Xq2mR7tW9pLk4NbV8cZs1YdF6hJg3KaE\n', 'SgeN9IFw6igNLo1h5rfHzPw0Iadp6edu'],
      ['{"key":"bearer","value":{"repo.acme.example":"aUnfOvG5u0CO55VwArfHWwJv5lGG0rOfH4RpmMw5q619QFJn"}}\n', 'aUnfOvG5u0CO55VwArfHWwJv5lGG0rOfH4RpmMw5q619QFJn'],
      // A camelCase key's value of letters alone, random in its case (bitnami's `replicaSetKey`: pass 103 F16 without a digit).
      ['auth:\n  replicaSetKey: emPYhHgrjTLcCruMpZivsNpUkRZsaKxQ\n', 'emPYhHgrjTLcCruMpZivsNpUkRZsaKxQ'],
    ];
    for (const [text, value] of cases) expect(new Redactor().mask(text), text).not.toContain(value);
    // Kept: a JSON object's braces, PubNub's publish key, a second cluster's table with a status column.
    for (const kept of ['{}', 'PUBNUB_PUBLISH_KEY=pub-c-1234abcd-5678-90ef-ab12-34567890abcd', 'api  5433  app  admin  running', '  i18nKey: NavigationHomePageTitleLabel'])
      expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("remembers a private JWK's members: a later read of one member's line alone is masked (adv113 F19)", () => {
    const p = 'PFdtUrZwfkDjZ2vbP0k5V3Hb3dh7crQFOmKcwrHnKfG55rEZHp1x4zFv';
    const r = new Redactor();
    expect(r.mask(`{\n  "kty": "RSA",\n  "e": "AQAB",\n  "d": "cHpSMoQ9dIPFtR7dWDtPWNYTLHmbgbpH",\n  "p": "${p}"\n}\n`)).not.toContain(p);
    expect(r.mask(`  "p": "${p}",\n`)).toBe('  "p": "[masked: private key]",\n');
  });

  it("masks SonarQube's `sonar.login` token (closing measure 111 F24: a CI log's scanner line); a user's name there stays", () => {
    const token = 'BrW8t-61tEiJwG4rdHi0aO-3n6I6EBA9SlC4WT9j';
    expect(new Redactor().mask(`sonar-scanner -Dsonar.login=${token} -Dsonar.host.url=https://sonar.acme.dev`)).toBe('sonar-scanner -Dsonar.login=[masked: sonarqube token] -Dsonar.host.url=https://sonar.acme.dev');
    expect(new Redactor().mask(`export SONAR_LOGIN=${token}`)).not.toContain(token);
    for (const kept of ['sonar.login=admin', '-Dsonar.login=ci-analysis-user -Dsonar.host.url=https://sonar.acme.dev']) expect(new Redactor().mask(kept)).toBe(kept);
  });

  for (const [name, value, text] of forms) {
    it(`masks ${name}`, () => {
      const out = new Redactor().mask(text);
      expect(out.includes(value), out).toBe(false);
      expect(out).toMatch(MASK_PATTERN);
      expect(mayHoldSecret(text)).toBe(true);
    });
  }
});

describe("a cache's item under its key: memcached's `get` answer and memcached-tool's dump (adversary pass 114 F23)", () => {
  const TOKEN = 'a7Qm2xT9vK4pL8wZ3nR6sJ1yH5dF0gBcEeWuIiOo';
  const FLAGS = '{"beta":true,"newCheckout":false}';
  /** A real memcached on a free port, the items set, `get` answered over a socket (python3) and the dump by memcached-tool. */
  async function transcripts(): Promise<{ get: string; dump: string }> {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const server = spawn('memcached', ['-l', '127.0.0.1', '-p', String(port), '-U', '0', '-u', 'root', '-m', '16'], { stdio: 'ignore' });
    try {
      const client = `import socket, sys, time
for _ in range(50):
    try:
        s = socket.create_connection(("127.0.0.1", ${port})); break
    except OSError: time.sleep(0.1)
def ask(cmd, end):
    s.sendall(cmd); b = b""
    while not b.endswith(end): b += s.recv(4096)
    return b
for k, v in (("api_token:svc-billing", sys.argv[1]), ("feature:flags", sys.argv[2])):
    ask(b"set %s 0 0 %d\\r\\n%s\\r\\n" % (k.encode(), len(v), v.encode()), b"STORED\\r\\n")
sys.stdout.write(ask(b"get api_token:svc-billing feature:flags\\r\\n", b"END\\r\\n").decode())`;
      const get = execFileSync('python3', ['-c', client, TOKEN, FLAGS], { encoding: 'utf8', timeout: 10_000 });
      const dump = execFileSync('perl', ['/usr/share/memcached/scripts/memcached-tool', `127.0.0.1:${port}`, 'dump'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe'] });
      return { get, dump };
    } finally {
      server.kill();
    }
  }

  itUnless(anyOf(missing('memcached', 'python3', 'perl'), existsSync('/usr/share/memcached/scripts/memcached-tool') ? '' : 'needs memcached-tool (the memcached package)'))(
    'the data under a key that names a secret is masked, whatever its shape; the data under another key stays',
    async () => {
      const { get, dump } = await transcripts();
      expect(get).toContain(`VALUE api_token:svc-billing 0 40\r\n${TOKEN}\r\n`);
      expect(dump).toContain(`add api_token:svc-billing 0 `);
      for (const text of [get, dump]) {
        const out = new Redactor().mask(text);
        expect(out, text).not.toContain(TOKEN);
        expect(out).toContain('[masked: ');
        expect(out).toContain(FLAGS);
      }
    },
  );
});

describe('a CSV or a column table whose titles are words (adversary pass 116 F43: SES SMTP credentials; AWS credentials.csv)', () => {
  const SES = 'BF3nJ0r9uJr+dkXqzH1M4xqv1Oq2uQ0mO5yIHHxq9u8T';
  const SES_CSV = `IAM user name,Smtp username,Smtp password\nses-smtp-user.20240611-094512,AKIAQ3EGSXMPLEK4TQ7N,${SES}\n`;
  itUnless(missing('column'))("titles of two or three words, capitalised: the column's cells are masked, as CSV and realigned by column -t", () => {
    const aws = 'User name,Password,Access key ID,Secret access key,Console login link\nci-deployer,Xk29!pqLmZ7rTq,AKIAQ3EGSXMPLEK4TQ7N,nOKlFW83ChUFkMfim61M5yo1KGaqu/4hLJHv2ZiU,https://123456789012.signin.aws.amazon.com/console\n';
    const aligned = execFileSync('column', ['-t', '-s,'], { input: SES_CSV, encoding: 'utf8' });
    for (const [text, value, user] of [[SES_CSV, SES, 'ses-smtp-user'], [aligned, SES, 'ses-smtp-user'], [aws, 'Xk29!pqLmZ7rTq', 'ci-deployer'], [aws, 'nOKlFW83ChUFkMfim61M5yo1KGaqu/4hLJHv2ZiU', 'ci-deployer']]) {
      const out = new Redactor().mask(text);
      expect(out, text).not.toContain(value);
      expect(out).toContain(user);
    }
    expect(new Redactor().mask(aws)).toContain('ci-deployer,[masked: password],');
  });
  it('kept: a prose line with commas over another, titles that name no secret, a title whose cells hold words', () => {
    const kept = [
      'Enter your password, then press enter\nbob, alice\n',
      'Please type the password,Then confirm\nfirst,second\n',
      'Build name,Build number,Token count\nweb-app,1284,40960\n',
      'Setting name,Password policy\nminimum,twelve characters\n',
      'Deploy target  Commit sha\nprod-eu-1      9f86d081884c7d659a2feaa0c55ad015a3bf4f1b\n',
    ];
    for (const text of kept) expect(new Redactor().mask(text)).toBe(text);
  });
});

describe('CI and infrastructure tools (adversary pass 120)', () => {
  it("masks a Secret's values listed by one template, an Ansible result's stdout, a replica set's key, eyaml's decrypted blocks, a Jenkins agent's secret", () => {
    const KEYS = ['V1ZPWjFVV1RUTDVFRkdESTBCS1o=', 'SyV3di1AP15EemgqP35YZkMxY0Q=', 'N3NZZTUwSllLTjcyUmlEWGZ5VHlNdWVhUlNEckl3bmZaMDY3THl0Ng=='];
    const listed = new Redactor().maskCommandOutput("kubectl get secret minio-creds -o jsonpath='{.data.*}'", KEYS.join(' '));
    for (const k of KEYS) expect(listed).not.toContain(k);
    const cases: [string, string][] = [
      ['ok: [db1.prod.acme.internal] => {\n    "db_secret.stdout": "L7#.XSJ*Xv~dkP!D9EN"\n}\n', 'L7#.XSJ*Xv~dkP!D9EN'],
      ['ok: [db1] => {\n    "db_secret.stdout_lines": [\n        "L7#.XSJ*Xv~dkP!D9EN"\n    ]\n}\n', 'L7#.XSJ*Xv~dkP!D9EN'],
      ['auth:\n  replicaSetKey: kVIl3MBbAg\n  rootPassword: Zq8!rT2vLp4#Wm6x\n', 'kVIl3MBbAg'],
      ['profile::rails::secret_key_base: DEC(3)::PKCS7[d56d5e34364c7dc260ed06c3692313e7a0f41e55d003cdfd]!\n', 'd56d5e34364c7dc260ed06c3692313e7a0f41e55d003cdfd'],
      ['profile::backup::restic_password: >\n    DEC(5)::PKCS7[C#qb@NC~0sEXVhbxQ=#9]!\n', 'C#qb@NC~0sEXVhbxQ=#9'],
      ['      7 java -jar /usr/share/jenkins/agent.jar -url http://jenkins.ci.svc:8080/ -secret bc9e2ab1bd59863e08a80fab67a8dc58a93bc92f5ce23d49d0b78944391b8e72 -name k8s-agent-4xq2p\n', 'bc9e2ab1bd59863e08a80fab67a8dc58a93bc92f5ce23d49d0b78944391b8e72'],
    ];
    for (const [text, value] of cases) expect(new Redactor().mask(text), text).not.toContain(value);
    // An AWS key id and its secret as `id:secret` are AWS's, not Alpaca's (the mask names the kind).
    expect(new Redactor().mask('aws-prod: AKIAQ3EGSXMPLEK4TQ7N:nOKlFW83ChUFkMfim61M5yo1KGaqu4hLJHv2ZiUa\n')).toBe('aws-prod: [masked: aws access key id]:[masked: aws secret access key]\n');
    const kept = ['#|  - To edit encrypted values, change the content of the DEC(<num>)::PKCS7[]!\n', '    "uptime.stdout": "up 3 days, 4:12"\n', 'java -jar agent.jar -secret @secret-file -name k8s-agent\n', '  replicaSetName: rs0\n'];
    for (const text of kept) expect(new Redactor().mask(text)).toBe(text);
  });
});

describe("an OAuth 1 consumer's key and secret as one value (adversary pass 112 F39)", () => {
  it('two random runs joined by `:` are masked under any name; identifiers and digests joined so stay', () => {
    const text = "4: TWITTER_CONSUMER='GI6KYqkkIHC0hRbUjY5H:rGsv1WvNjLeEodU1Z8oTqSiiu8vTW2noBK4'\n";
    expect(new Redactor().mask(text)).toBe("4: TWITTER_CONSUMER='[masked: key and secret]'\n");
    const kept = ['bean: HTTPServerConfigLoader2:ApplicationContextInitializer3Bean\n', 'image: ghcr.io/acme/web@sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\n', 'Migration20240611Users:AddIndexOnEmailAddress2024\n'];
    for (const k of kept) expect(new Redactor().mask(k)).toBe(k);
  });
});

describe("PowerShell's Format-Table of a credential, a value wider than its title's column (closing measure 79 F36)", () => {
  const table = (pw: string) => `\nUserName       Password          SecurePassword         Domain\n--------       --------          --------------         ------\nsvc_sql        ${pw}  System.Security.SecureString CORP\n\n`;
  it('the password is masked whole whatever its length; the columns it pushed right are not read as cells', () => {
    for (const pw of ['Kq7Xp#LmZa!rT5', 'Kq7Xp#LmZa!rT5v7a', 'Kq7Xp#LmZa!rT5v7aWq9Z', 'Kq7Xp#LmZa!rT5v7aWq9Z2bN8']) {
      const out = new Redactor().mask(table(pw));
      expect(out, pw).toBe(table('[masked: password]'));
    }
    const kept = '\nName      Password       Expires\n----      --------       -------\nsvc_sql   (not set)      never\n';
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe("closing measure 121's leaks", () => {
  it("masks a .netrc's catch-all `default` entry (under cat -n's numbers) and a vendor's secret key by its short name `_sk`", () => {
    const cases: [string, string][] = [
      ['     8\tmachine api.acme.io login bob password Xk29!pqLmZ7rTq\n     9\tdefault login anonymous password Ha4YaFtiiT~yvp4B\n', 'Ha4YaFtiiT~yvp4B'],
      ['default login anonymous password Ha4YaFtiiT~yvp4B\n', 'Ha4YaFtiiT~yvp4B'],
      ["│  twilio_sk = 'gClYsXhDyZo2RzodV0L445eoCywvqi7X' │\n", 'gClYsXhDyZo2RzodV0L445eoCywvqi7X'],
      ['STRIPE_SK=qK3vR8mZ2xL5nT9wP4sY7bH1cJ6dF0gA\n', 'qK3vR8mZ2xL5nT9wP4sY7bH1cJ6dF0gA'],
    ];
    for (const [text, value] of cases) expect(new Redactor().mask(text), text).not.toContain(value);
    // DynamoDB's keys (`pk`, `sk`, an index's `gsi1_sk`) hold items' keys, not secrets.
    for (const kept of ['{"pk": "USER#42", "gsi1_sk": "ORDER#2024-06-11#8812", "sk": "PROFILE#main"}\n', 'default via 10.0.0.1 dev eth0 proto dhcp\n'])
      expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe("files under head's `==> path <==` headers: a users file's passwords; /etc/passwd's accounts and htpasswd's hashes", () => {
  it("masks each made password of a users file whose format comment was dropped (closing measure 108 F36); keeps passwd's and group's lines and an htpasswd's hashes", () => {
    const users = '==> /etc/nginx/users.plain <==\nadmin:nE1-rSRcV_%Vab\nops:Zq8rT2vLp4Wm6x\n';
    expect(new Redactor().mask(users)).toBe('==> /etc/nginx/users.plain <==\nadmin:[masked: password]\nops:[masked: password]\n');
    // Damage found in session 24: `head /etc/passwd /etc/group` was masked whole, its name `passwd` taken for a secret file's.
    const accounts = '==> /etc/passwd <==\nroot:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n\n==> /etc/group <==\nroot:x:0:\n\n==> /etc/nginx/users.htpasswd <==\nadmin:$apr1$x8Fq2$Y0Nqz7r1aB3cD5eF7gH9i/\nops:{SHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=\n';
    expect(new Redactor().mask(accounts)).toBe(accounts);
  });
});

describe('application runtimes (adversary pass 122), each printed by the real runtime', () => {
  const run = (program: string, args: string[]) => execFileSync(program, args, { encoding: 'utf8' });
  const pydantic = spawnSync('python3', ['-c', 'import pydantic']).status === 0 ? '' : 'needs python3 and its pydantic (not installed)';

  itUnless(missing('python3'))("pprint of a service account: the PEM split into quoted lines (`'…\\n'`) is masked whole, in a reply and a one-line read", () => {
    const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const text = run('python3', ['-c', 'import sys, pprint; pprint.pprint({"type": "service_account", "private_key": sys.argv[1], "client_email": "etl@acme.iam.gserviceaccount.com"})', pem]);
    const body = pem.trim().split('\n').slice(1, -1);
    expect(text).toContain(`'${body[3]}\\n'`);
    const out = new Redactor().mask(text);
    for (const line of body) expect(out).not.toContain(line);
    expect(out).toContain("'client_email': 'etl@acme.iam.gserviceaccount.com'");
    const r = new Redactor();
    r.stream('c1').pushBytes(Buffer.from(text));
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.includes(body[5]));
    expect(r.maskLines('c1', [{ n: at + 1, text: lines[at] }])[0].text).not.toContain(body[5]);
  });

  itUnless(missing('node'))("node's inspect of a Buffer under a secret's name: its bytes masked; a digest's kept", () => {
    const text = run('node', ['-e', 'const k = Buffer.from("a3b5b47b9f2eaf471f7898d09649df371abc97015032c681cb78bd3b770afb15", "hex"); console.log({ endpoint: "/hooks/shopify", secret: k }); console.log({ digest: require("crypto").createHash("sha256").update("x").digest() })']);
    const out = new Redactor().mask(text);
    expect(out).not.toContain('a3 b5 b4 7b 9f 2e');
    expect(out).toContain("digest: <Buffer 2d 71 16 42 b7 26 b0 44");
  });

  itUnless(missing('python3'))("a REPL's list under a plural secret's name (`fernet_keys()`, `settings.API_TOKENS`): each item masked", () => {
    const keys = ['Pm3bbCCXUEQXIkt9ML4lHLb4stDn54kJREG5qReauG4=', '24vRMTvr0PVId4LuuRoVLgUzO3VpuhLcGQBQ4RizuL4='];
    const repr = run('python3', ['-c', 'import sys; print(repr([k.encode() for k in sys.argv[1:]]))', ...keys]).trim();
    for (const text of [`>>> fernet_keys()\n${repr}\n`, `>>> settings.API_TOKENS\n${repr.replaceAll("b'", "'")}\n`]) {
      const out = new Redactor().mask(text);
      for (const k of keys) expect(out, text).not.toContain(k);
    }
    const kept = ">>> settings.ALLOWED_HOSTS\n['api.acme.io', 'admin.acme.io']\n>>> tokens_per_minute()\n['12000', '40000']\n";
    expect(new Redactor().mask(kept)).toBe(kept);
  });

  itUnless(pydantic)("pydantic's validation error: the rejected value of a field that names a secret is masked; another field's is kept", () => {
    const script = 'from pydantic import BaseModel, Field, ValidationError\nclass S(BaseModel):\n    hmac_secret: str = Field(min_length=32)\n    port: int\ntry:\n    S(hmac_secret="zR+2afgNCL1zmuyTzUzBgFzdkHOf", port="80a80")\nexcept ValidationError as e:\n    print(e)\n';
    const text = run('python3', ['-c', script]);
    expect(text).toContain("input_value='zR+2afgNCL1zmuyTzUzBgFzdkHOf'");
    const out = new Redactor().mask(text);
    expect(out).not.toContain('zR+2afgNCL1zmuyTzUzBgFzdkHOf');
    expect(out).toContain("input_value='80a80'");
  });
});

describe("a session's id looked up in the sessions table (adversary pass 122 F46: Laravel's QueryException)", () => {
  it('masks the id in the SQL a framework logs; a numeric id and another table stay', () => {
    const text = "[2024-05-02 11:02:44] production.ERROR: SQLSTATE[HY000] [1045] Access denied for user 'forge'@'10.0.3.12' (using password: YES) (Connection: mysql, SQL: select * from `sessions` where `id` = teH5RxE7k1RvodrMTNYbsR6QG5OITHiJESScOrLJ limit 1)\n";
    expect(new Redactor().mask(text)).toContain('where `id` = [masked: session id] limit 1');
    for (const kept of ['select count(*) from sessions where id = 42\n', 'select * from `orders` where `id` = teH5RxE7k1RvodrMTNYbsR6QG5OITHiJESScOrLJ limit 1\n'])
      expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe("closing measure 123's leak: a .pgpass laid out by awk's printf, a user that fills its column", () => {
  itUnless(missing('awk'))('the password after a single blank is masked; a table of words stays', () => {
    const pgpass = 'db.internal:5432:billing:app:Xk29!pqLmZ7rTq\n*:*:*:replicator:70i#h#NC~YDQ_mUAZc8u\n';
    const text = execFileSync('awk', ['-F:', '{printf "%-28s %-5s %-8s %-10s %s\\n", $1, $2, $3, $4, $5}'], { input: pgpass, encoding: 'utf8' });
    expect(text).toContain('replicator 70i#h#NC~YDQ_mUAZc8u');
    const out = new Redactor().mask(text);
    for (const pw of ['Xk29!pqLmZ7rTq', '70i#h#NC~YDQ_mUAZc8u']) expect(out).not.toContain(pw);
    expect(new Redactor().mask('api  5432  app admin running\n')).toBe('api  5432  app admin running\n');
  });
});

describe('network devices and Windows administration (adversary pass 124)', () => {
  it("masks IOS and NX-OS passwords and keys in the clear or in type 7, tac_plus' cleartext, bind_pw, net ads -U, a REG_BINARY password, NT hashes, DPAPI keys", () => {
    const cases: [string, string][] = [
      ['enable password !PTrdjrfKPA0a\n', '!PTrdjrfKPA0a'],
      ['username netops privilege 15 password 0 OX.8t1f!63h!217\n', 'OX.8t1f!63h!217'],
      [' standby 10 authentication md5 key-string 7 08187C1802232D0E4A0D01\n', '08187C1802232D0E4A0D01'],
      ['  pre-shared-key address 198.51.100.7 key Bd96HYzvJSKYJ0F1pm#Q\n', 'Bd96HYzvJSKYJ0F1pm#Q'],
      ['  key-string 1HB9eef9oTm3B.TB\n', '1HB9eef9oTm3B.TB'],
      [' neighbor 10.255.0.2 password RE0r9e@R1_aenw\n', 'RE0r9e@R1_aenw'],
      ['snmp-server user admin network-admin auth md5 0xaf7018f4b0cc879453327056cdf0ade9 priv 0xdb21f3aeeed41fa2752daabfd11e0951 localizedkey\n', '0xdb21f3aeeed41fa2752daabfd11e0951'],
      ['tacacs-server key 7 "hemgkhf203dg"\n', 'hemgkhf203dg'],
      ['user = jdoe {\n\tlogin = cleartext "tZIQany5-25Oqc"\n}\n', 'tZIQany5-25Oqc'],
      ['/etc/pam_ldap.conf:bind_pw 1eA0AO#hv502w4\n', '1eA0AO#hv502w4'],
      ['  202  sudo net ads join -U administrator%zQ!ObMuNvOTA06 createcomputer="Servers/Linux"\n', 'zQ!ObMuNvOTA06'],
      ["  203  echo -n 'otCrBlb_cwTccQ7' | sudo adcli join --domain corp.example --login-user svc-join --stdin-password\n", 'otCrBlb_cwTccQ7'],
      ['HKEY_CURRENT_USER\\Software\\TightVNC\\Server\n    Password    REG_BINARY    84BE79D56525769C\n', '84BE79D56525769C'],
      ['Administrator:500:aad3b435b51404eeaad3b435b51404ee:9601e346a431f41d14c8a975ff104fc5:::\n', '9601e346a431f41d14c8a975ff104fc5'],
      ['\t * Username : Administrator\n\t * NTLM     : 0987cc2a26375efbbf469595162efadf\n', '0987cc2a26375efbbf469595162efadf'],
      ['dpapi_machinekey:0x5fd42c48f09b14cf62533615c0cf4351bf1b0157\n', '0x5fd42c48f09b14cf62533615c0cf4351bf1b0157'],
    ];
    for (const [text, value] of cases) expect(new Redactor().mask(text), text).not.toContain(value);
    // secretsdump's line keeps its shape (the `:::` is no .pgpass password); hashes of types 5, 8 and 9 and BGP's other lines stay.
    expect(new Redactor().mask(cases.find(([t]) => t.startsWith('Administrator:500:'))![0])).toBe('Administrator:500:aad3b435b51404eeaad3b435b51404ee:[masked: nt hash]:::\n');
    for (const kept of ['username admin privilege 15 secret 8 $8$dsYGNam3K1SIJO$7nv/35M/qr6t.dVc7UY9zrJDWRVqncHub1PE9UlMQFs\n', ' neighbor 10.255.0.2 remote-as 65001\n', ' neighbor 10.255.0.2 description uplink-to-core\n'])
      expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("masks an OpenVPN static key stored as base64 (pfSense's `<tls>`) and `cat` of a WireGuard private key file; its public key file stays", () => {
    const key = `#\n# 2048 bit OpenVPN static key\n#\n-----BEGIN OpenVPN Static key V1-----\n${'e3f1a2b4c5d6e7f8091a2b3c4d5e6f70\n'.repeat(16)}-----END OpenVPN Static key V1-----\n`;
    const b64 = Buffer.from(key).toString('base64');
    expect(new Redactor().mask(`<tls>${b64}</tls>\n`)).toBe('<tls>[masked: openvpn static key]</tls>\n');
    const r = new Redactor();
    expect(r.maskCommandOutput('cat /etc/wireguard/privatekey', '4BmmbqwcyAP75rOcSE2Vuk4ZHz0nI65rPPXJ95RfRFc=\n')).not.toContain('4BmmbqwcyAP75rOcSE2Vuk4ZHz0nI65rPPXJ95RfRFc=');
    expect(r.maskCommandOutput('cat /etc/wireguard/publickey', 'xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=\n')).toBe('xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=\n');
  });
});

describe("Zabbix's API session: the result of a user.login call (adversary pass 116 F48)", () => {
  itUnless(missing('jq'))("the `user.login` response's result is masked, pretty or compact; another method's result of the same shape stays", () => {
    const raw = '{"jsonrpc":"2.0","method":"user.login","params":{"username":"Admin","password":"Zq8!rT2vLp4#Wm6x"},"id":1}\n{"jsonrpc":"2.0","result":"0424bd59b807674191e7d77572075f33","id":1}\n{"jsonrpc":"2.0","method":"host.get","params":{},"id":2}\n{"jsonrpc":"2.0","result":"9f86d081884c7d659a2feaa0c55ad015","id":2}\n';
    for (const text of [raw, execFileSync('jq', ['.'], { input: raw, encoding: 'utf8' })]) {
      const out = new Redactor().mask(text);
      expect(out).not.toContain('0424bd59b807674191e7d77572075f33');
      expect(out).toContain('9f86d081884c7d659a2feaa0c55ad015');
    }
  });
});

describe("Honeycomb Refinery's ReceiveKeys (adversary pass 116 F17: the list in a raw read of YAML made JSON)", () => {
  it('each key of the list is masked, as YAML and as JSON; its AcceptOnlyListedKeys switch stays', () => {
    for (const text of ['refinery:\n  AccessKeys:\n    ReceiveKeys:\n      - f06bafba6f4aef66d097bc4c4f0a24e9\n    AcceptOnlyListedKeys: true\n', '    "AccessKeys": {\n      "ReceiveKeys": [\n        "f06bafba6f4aef66d097bc4c4f0a24e9"\n      ],\n      "AcceptOnlyListedKeys": true\n']) {
      const out = new Redactor().mask(text);
      expect(out).not.toContain('f06bafba6f4aef66d097bc4c4f0a24e9');
      expect(out).toContain('AcceptOnlyListedKeys');
    }
  });
});

describe("Datadog's additional endpoints' API keys (adversary pass 116 F09)", () => {
  it('the keys under each URL are masked, in datadog.yaml and in DD_ADDITIONAL_ENDPOINTS; a digest elsewhere stays', () => {
    const yaml = 'apm_config:\n  enabled: true\n  additional_endpoints:\n    "https://trace.agent.datadoghq.com":\n      - 6e0ae7b70c4fce5bd776e5e5cd9c5098\n';
    const env = `DD_ADDITIONAL_ENDPOINTS='{"https://app.datadoghq.com": ["6e0ae7b70c4fce5bd776e5e5cd9c5098", "7f1bf8c81d5fdf6ce887f6f6de0d6109"]}'\n`;
    for (const text of [yaml, env]) expect(new Redactor().mask(text)).not.toMatch(/6e0ae7b70c4f|7f1bf8c81d5f/);
    const kept = 'logs_config:\n  use_http: true\nchecksum: 9f86d081884c7d659a2feaa0c55ad015\n';
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe("closing measure 126's leaks", () => {
  const pyyaml = spawnSync('python3', ['-c', 'import yaml']).status === 0 ? '' : 'needs python3 and its yaml (PyYAML, not installed)';
  const pem = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

  it("masks a session header (Metabase's, in http.client's one-line dump), rabbitmqadmin's -p, a Secret's field picked by yq's brackets", () => {
    const send = "send: b'GET /api/card HTTP/1.1\\r\\nHost: bi\\r\\nX-Metabase-Session: c845ad50-a970-48f8-9385-6f715ae08fb8\\r\\nAccept: */*\\r\\n\\r\\n'\n";
    expect(new Redactor().mask(send)).not.toContain('c845ad50-a970');
    expect(new Redactor().mask('+ rabbitmqadmin -H mq.internal -u admin -p 6^NIiCV8qEYsapi list queues\n')).not.toContain('6^NIiCV8qEYsapi');
    expect(new Redactor().maskCommandOutput(`yq -r '.data["db-password"]' secret.yaml | base64 -d`, 'K=RAda5qTusL8XG*3\n')).not.toContain('K=RAda5qTusL8XG*3');
    for (const kept of ['X-Session-Count: 3\n', 'rabbitmqadmin -H mq -P 15672 list queues\n']) expect(new Redactor().mask(kept)).toBe(kept);
  });

  itUnless(missing('awk'))("a key's excerpt numbered by awk, no BEGIN in it: masked in the reply, and a later one-line read of a body line too", () => {
    const key = pem();
    const text = execFileSync('awk', ['NR>=6 && NR<=20 {printf "%4d  %s\\n", NR, $0}'], { input: key, encoding: 'utf8' });
    const r = new Redactor();
    const body = key.split('\n')[9];
    expect(r.mask(text)).not.toContain(body);
    r.stream('c1').pushBytes(Buffer.from(text));
    expect(r.maskLines('c1', [{ n: 5, text: `  10  ${body}` }])[0].text).not.toContain(body);
  });

  itUnless(pyyaml)("a key in a YAML scalar PyYAML folded in quotes (a blank line after each line: `yq -y`'s output) is masked whole", () => {
    const key = pem();
    const text = execFileSync('python3', ['-c', 'import sys, yaml; print(yaml.dump({"crt": "bm90LWEtcmVhbC1jZXJ0", "key": sys.argv[1]}), end="")', key], { encoding: 'utf8' });
    expect(text).toContain("key: '-----BEGIN PRIVATE KEY-----\n\n  ");
    const out = new Redactor().mask(text);
    for (const line of key.trim().split('\n').slice(1, -1)) expect(out).not.toContain(line);
    expect(out).toContain('crt: bm90LWEtcmVhbC1jZXJ0');
  });
});

describe("pass 127's leaks (the lead's own, after session 24's stop)", () => {
  it("masks a literal piped into `tee` or redirected into a file whose path names a secret, and the bare value set -x printed; other writes stay", () => {
    const pw = 'Rq7vLm2xPz9Kd4Wn';
    const trace = `+ echo '${pw}'\n+ tee /run/secrets/db_password\n${pw}\n+ echo '${pw}' | tee /run/secrets/db_password >/dev/null\n`;
    expect(new Redactor().mask(trace)).not.toContain(pw);
    expect(new Redactor().mask(`$ echo "${pw}" > ~/.config/app/api_token\n`)).not.toContain(pw);
    expect(new Redactor().mask(`$ sudo echo -n ${pw} >> /etc/ci/registry-password\n`)).not.toContain(pw);
    for (const kept of ['+ echo "build 1421 done" | tee -a build.log\n', '+ echo ok > /tmp/status\n', '+ echo "$DB_PASSWORD" > /run/secrets/db_password\n']) expect(new Redactor().mask(kept)).toBe(kept);
  });

  itUnless(missing('jq'))("masks a PEM key as jq's JSON array of its lines (each line quoted, a comma after it)", () => {
    const key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const text = execFileSync('jq', ['.key'], { input: JSON.stringify({ name: 'signer', key: key.trimEnd().split('\n') }), encoding: 'utf8' });
    expect(text).toContain('  "-----BEGIN PRIVATE KEY-----",\n');
    const out = new Redactor().mask(text);
    for (const line of key.trim().split('\n').slice(1, -1)) expect(out).not.toContain(line);
    expect(out).toBe('[\n  "[masked: private key]"\n]\n');
  });
});

describe("closing measure 128's leaks and damage", () => {
  itUnless(missing('bash'))("masks the value `set -x` traces on its own line for a pipeline into --password-stdin / --with-token; a script's words beside them stay", () => {
    const token = 'Oswjh7He8nsJGVt3znjwdPEQPam0KZYLji6lc1O8';
    // The consumers are functions (no registry here): bash traces each side of the pipeline, then the function's body.
    const script = `docker() { :; }; gh() { :; }\nset -x\necho "$1" | docker login ghcr.io -u acme-bot --password-stdin\nprintf '%s' "$1" | gh auth login --with-token\necho "build done" | tee /dev/null\n`;
    const trace = execFileSync('bash', ['-c', `exec 2>&1\n${script}`, 'bash', token], { encoding: 'utf8' });
    expect(trace).toContain(`+ echo ${token}\n`);
    // The other order, as closing measure 128 saw it (the consumer traced first, its body between: the pipeline's sides race).
    const after = `+ curl -fsS -u 'jenkins:[masked: password]' https://ci\n+ :\n+ docker login ghcr.io -u acme-bot --password-stdin\n+ :\n+ echo ${token}\n+ echo 'build done'\n+ tee /dev/null\nbuild done\n`;
    for (const text of [trace, after]) {
      const out = new Redactor().mask(text);
      expect(out).not.toContain(token);
      // (bash traces a pipeline's sides in the order they start: either may come first.)
      for (const line of ["+ echo 'build done'\n", '+ tee /dev/null\n', '\nbuild done\n']) expect(out).toContain(line);
    }
    expect(new Redactor().mask(trace)).not.toContain(token);
  });

  itUnless(missing('awk'))("masks .pgpass lines under awk's `FILENAME\": \"$0` (a path, a colon and a blank before each line)", () => {
    const rows = '# hostname:port:database:username:password\npg-primary.internal:5432:orders:orders_rw:XCtCY08A1vr*FWwdMH7@\nlocalhost:*:*:postgres:lA5YVnTDXvnA5573Iqj3xjOMJrJmYZvW\n';
    const text = execFileSync('awk', ['{print "/tmp/ci/F29.txt: " $0}'], { input: rows, encoding: 'utf8' });
    const out = new Redactor().mask(text);
    expect(out).not.toMatch(/XCtCY08A1vr|lA5YVnTDXvnA5573/);
    expect(out).toContain('/tmp/ci/F29.txt: pg-primary.internal:5432:orders:orders_rw:[masked: pgpass password]');
  });

  itUnless(missing('head'))("head of ~/.aws/credentials among other files: its secrets masked, its comment, section and region kept (128 F35)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mish-creds-'));
    writeFileSync(path.join(dir, 'credentials'), '# example from docs: aws_access_key_id = AKIAIOSFODNN7EXAMPLE\n[default]\naws_access_key_id = AKIAQ3EGTZLX7MWPR4KD\naws_secret_access_key = 9drTJvcXLB89Ekq2KEYwJalrXUtnFEMI/K7MDENG\nregion = eu-west-1\n');
    writeFileSync(path.join(dir, 'token'), 'Xk29pqLmZ7rTq44\n');
    const text = execFileSync('head', ['-n', '20', path.join(dir, 'credentials'), path.join(dir, 'token')], { encoding: 'utf8' });
    const out = new Redactor().maskCommandOutput(`head -n 20 ${dir}/*`, text);
    expect(out).not.toMatch(/AKIAQ3EGTZLX7MWPR4KD|9drTJvcXLB89Ekq2|Xk29pqLmZ7rTq44/);
    for (const kept of ['# example from docs: aws_access_key_id = AKIAIOSFODNN7EXAMPLE\n[default]\n', 'region = eu-west-1\n']) expect(out).toContain(kept);
    rmSync(dir, { recursive: true, force: true });
  });

  it("keeps grep's lines of /etc/passwd after its file name (`/etc/passwd:root:x:0:0:…` was masked as a password) and cookies that are settings", () => {
    for (const kept of ['/etc/passwd:root:x:0:0:root:/root:/bin/bash\n/etc/group:sudo:x:27:alice\n', '> Cookie: theme=dark; lang=en-US; seen=1732886400\n']) expect(new Redactor().mask(kept)).toBe(kept);
    expect(new Redactor().mask('> Cookie: theme=dark; session_id=Pw3Ln8Qz5Rt2Xv7Km4Jd9Hc6Bf1Gs0Ay\n')).toBe('> Cookie: theme=dark; session_id=[masked: cookie]\n');
  });
});

describe("closing measure 129's leaks and damage", () => {
  it("masks a custom header named …-Authorization, twine's -p; keeps a URL's host after its masked password and an implicit flow's other parameters", () => {
    const out = new Redactor().mask(
      [
        'X-Upstream-Authorization: Token 03ee73d57ca53440eba7dda1a56877cd0d7a1dd3',
        '2024-11-02T14:27:17.5241072Z ##[group]Run twine upload --repository-url https://pypi.acme.io -u __token__ -p XZPyEqU9hI0sXrdgyVu3nVYo2XqAIwFV dist/*',
        '  512  git clone https://x-access-token:ghp_Zq8rT2vLp4Wm6xQm7xT2vK9pL4wZ8nAbCdEf@github.com/acme/infra.git',
        '"redirect":"https://app/callback#id_token=eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.c2lnbmF0dXJlMTIzNDU2Nzg5MDEy&token_type=Bearer&expires_in=3600"',
        'slack: invalid_auth (token=xoxb-2048163512-4012831251-Zq8rT2vLp4Wm6xQm7xT2vK9p)',
      ].join('\n'),
    );
    expect(out).not.toMatch(/03ee73d57ca5|XZPyEqU9hI0s|ghp_Zq8rT2v|c2lnbmF0dXJl|xoxb-2048/);
    for (const kept of ['@github.com/acme/infra.git', '&token_type=Bearer&expires_in=3600"', 'x-access-token:[masked: github token]@', '[masked: slack token])']) expect(out).toContain(kept);
  });

  itUnless(missing('env'))("keeps the working directory env and sudo's log print (`PWD=/home/alice`, `OLDPWD=/tmp`) and jest's `Any<String>`", () => {
    const env = execFileSync('env', [], { cwd: tmpdir(), env: { PWD: tmpdir(), OLDPWD: '/tmp', HOME: '/root' }, encoding: 'utf8' });
    expect(new Redactor().maskCommandOutput('env | sort', env)).toBe(env);
    const sudo = 'Nov 04 09:12:01 web1 sudo[2211]:    alice : TTY=pts/0 ; PWD=/home/alice ; USER=root ; COMMAND=/usr/bin/systemctl restart nginx\n';
    const jest = '    -   "refreshToken": Any<String>,\n';
    for (const kept of [sudo, jest]) expect(new Redactor().mask(kept)).toBe(kept);
    expect(new Redactor().mask('Server=db;Database=app;Uid=sa;Pwd=Kx9vR2mQ7zL4;\n')).not.toContain('Kx9vR2mQ7zL4');
  });
});

describe("session 24's leftovers", () => {
  it("masks secretsdump's LSA secrets: the auto-logon password under `[*] DefaultPassword`, a machine account's NT hash without its rid", () => {
    const dump = '[*] Dumping LSA Secrets\n[*] $MACHINE.ACC \nCORP\\WS01$:aad3b435b51404eeaad3b435b51404ee:6f3c1a2b4d5e6f708192a3b4c5d6e7f8:::\n[*] DefaultPassword \n(Unknown User):Summer2024!Qx\n[*] Cleaning up...\n';
    const out = new Redactor().mask(dump);
    expect(out).not.toMatch(/Summer2024!Qx|6f3c1a2b4d5e6f70/);
    expect(out).toContain('(Unknown User):[masked: password]\n[*] Cleaning up...');
    const registry = 'HKEY_LOCAL_MACHINE\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon\n    DefaultUserName    REG_SZ    kiosk\n';
    expect(new Redactor().mask(registry)).toBe(registry);
  });
});

describe("attack pass 131's leaks and damage (databases and data tools)", () => {
  it("masks a MongoDB keyfile under head's header, mongosh's auth on a sibling database, an ABFS key on its own line in <value>", () => {
    const key = 't6inVMl4ObCVYDJ6qiBVVcXpw5zeNkZXdIOeXOGjjxbCiU6HV53/O6Mfh36bDfiaQ0x7M9WK7Pxm';
    const text = [
      `==> /etc/mongodb/rs0.key <==\n${key}\nM+zKWrQpT7viYh5U2HBd\n`,
      '==> /root/.mongorc-creds <==\ndb.getSiblingDB("admin").auth("clusterAdmin", "A46YcemsfVRaTVhWXvZHBcHc")\n',
      '  <property>\n    <name>fs.azure.account.key.acmelake.dfs.core.windows.net</name>\n    <value>\n      6EuHEpYAsYmutbnuucmmNxSV7hbEdTxrMHQ/UWRpZMHIJaURZe80mHaoCRcQ+2NiB7+3uFXKgwNjKZawAb8MBA==\n    </value>\n  </property>\n',
    ].join('\n');
    expect(new Redactor().mask(text)).not.toMatch(/t6inVMl4ObCV|M\+zKWrQpT7vi|A46YcemsfVRa|6EuHEpYAsYmu/);
  });

  it("masks only the password of a .pgpass under its format comment, of an Oracle JDBC URL, of a connection string's `;password=…;`", () => {
    const pgpass = '# hostname:port:database:username:password\ndb-prod-3.internal:5432:orders:orders_rw:Kq7m#Z2x.W9pLr\n';
    expect(new Redactor().mask(pgpass)).toMatch(/^# hostname:port:database:username:password\ndb-prod-3\.internal:5432:orders:orders_rw:\[masked: [a-z ]+\]\n$/);
    const oracle = new Redactor().mask('Could not connect to jdbc:oracle:thin:scott/Kq7mZ2xW9pLr@ora-db01.corp.local:1521:ORCL\n');
    expect(oracle).toBe('Could not connect to jdbc:oracle:thin:scott/[masked: url password]@ora-db01.corp.local:1521:ORCL\n');
    for (const cs of ['"Server=tcp:sql1,1433;User ID=app;Password=Kq7mZ2xW9pLrTt;MultipleActiveResultSets=False;Connection Timeout=30;"\n', 'jdbc:sqlserver://sql1:1433;user=app;password=Kq7m=Z2x+W9p;encrypt=true;trustServerCertificate=false\n']) {
      const out = new Redactor().mask(cs);
      expect(out).not.toMatch(/Kq7m/);
      expect(out).toMatch(/assword=\[masked: [^\]]+\];(?:MultipleActiveResultSets=False;Connection Timeout=30;"|encrypt=true;trustServerCertificate=false)\n$/);
    }
  });

  it("keeps mongod.conf's `authorization: enabled` (no header's value)", () => {
    const conf = 'security:\n  keyFile: /etc/mongodb/rs0.key\n  authorization: enabled\n';
    expect(new Redactor().mask(conf)).toBe(conf);
    expect(new Redactor().mask('> Authorization: Bearer Kx9vR2mQ7zL4pW8nTq4zR8wL2vN6aB3c\n')).not.toContain('Kx9vR2mQ7zL4');
  });
});

describe("closing measure 130's leaks and damage", () => {
  itUnless(missing('tr'))("masks sshpass's and mysql's passwords in a command line read one argument a line (`tr '\\0' '\\n' < /proc/<pid>/cmdline`)", () => {
    const argv = ['node', '--port', '8080', 'sshpass', '-p', 'WKyGvczX08UuKrRf', 'rsync', '-az', 'dist/', 'mysql', '-h', 'db', '-uroot', '-p5Nr0GLmUH@4nZr', 'orders'];
    const text = execFileSync('tr', ['\\0', '\\n'], { input: `${argv.join('\0')}\n`, encoding: 'utf8' });
    expect(text).toContain('sshpass\n-p\nWKyGvczX08UuKrRf\n');
    const out = new Redactor().mask(text);
    expect(out).not.toMatch(/WKyGvczX08Uu|5Nr0GLmUH@4nZr/);
    expect(out).toContain('-uroot\n-p[masked: password on command line]\norders\n');
    // `-p` alone asks for the password: the next argument is the database.
    const prompting = 'mysql\n-h\ndb\n-uroot\n-p\norders\n';
    expect(new Redactor().mask(prompting)).toBe(prompting);
  });

  it("masks the GitHub provider's `plaintext_value` in a Terraform state; keeps a scope's `JWT::decode(` and Google Analytics' `_ga` cookie", () => {
    expect(new Redactor().mask('    "secret_name": "DEPLOY_TOKEN",\n    "plaintext_value": "r8yOOINMw9YE7PeR7gwG3LHFGUyy90TGWaKUyM2h"\n')).not.toContain('r8yOOINMw9YE');
    for (const kept of ["#0 VerifyJwt.php(31): Firebase\\\\JWT\\\\JWT::decode('eyJ0eXAiOiJKV1Q...', Object(Firebase\\\\JWT\\\\Key))\n", 'Cookie: _ga=GA1.2.1183728195.1717171717\n']) expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe("session 25's leftovers", () => {
  it('masks only the token of an object inside a JSON string whose first field is a secret (Okta token storage); the expiry and scopes stay', () => {
    const jwt = 'eyJhbGciOiJSUzI1NiIsImtpZCI6IjEyMyJ9.eyJzdWIiOiIwMHUxYWJjZGVmZ2hpaiIsImV4cCI6MTczMjg4NjQwMH0.Q2hhbmdlTWVQbGVhc2VJdElzQVNpZ25hdHVyZVRoYXRJc0xvbmdFbm91Z2g';
    const okta = `okta-token-storage: "{\\"accessToken\\":{\\"accessToken\\":\\"${jwt}\\",\\"expiresAt\\":1732886400,\\"scopes\\":[\\"openid\\",\\"profile\\"]}}"\n`;
    expect(new Redactor().mask(okta)).toBe('okta-token-storage: "{\\"accessToken\\":{\\"accessToken\\":\\"[masked: jwt]\\",\\"expiresAt\\":1732886400,\\"scopes\\":[\\"openid\\",\\"profile\\"]}}"\n');
    const deep = 'body: "{\\\\\\"auth\\\\\\":{\\\\\\"token\\\\\\":\\\\\\"Xk29fLqP7vRt3ZmW8yNc4HbJ\\\\\\",\\\\\\"ttl\\\\\\":3600}}"\n';
    expect(new Redactor().mask(deep)).toBe(deep.replace('Xk29fLqP7vRt3ZmW8yNc4HbJ', '[masked: token]'));
    // The object's first field no secret's name: the object is the secret's value, masked whole as before.
    expect(new Redactor().mask('cfg: "{\\"password\\":{\\"value\\":\\"Orchid44!Maple\\",\\"hidden\\":true}}"\n')).not.toContain('Orchid44');
  });
});

describe("attack pass 134's leaks and damage (mobile and build tooling)", () => {
  it("masks an OpenPGP key's short last body line, between the body and the armour's checksum line (Gradle's in-memory signing key in env)", () => {
    const body = Array.from({ length: 6 }, (_, i) => `${'lQdGBGYNeOSSUydJMX/S/fwSabE6kL7gXChdn+/okDZf0k6XYTr5H+XQpFDilX4'}${i}`);
    const text = `ORG_GRADLE_PROJECT_signingInMemoryKeyId=EC6AD0CB\nORG_GRADLE_PROJECT_signingInMemoryKey=-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n${body.join('\n')}\nlM\n=7FlU\n-----END PGP PRIVATE KEY BLOCK-----\n`;
    const out = new Redactor().mask(text);
    expect(out).toBe('ORG_GRADLE_PROJECT_signingInMemoryKeyId=EC6AD0CB\nORG_GRADLE_PROJECT_signingInMemoryKey=[masked: private key]\n');
    // Read from its END back (no BEGIN in the text: `tail` of the key).
    const tail = new Redactor().mask(`${body.slice(3).join('\n')}\nJCA9Is9yRYMo\n=7FlU\n-----END PGP PRIVATE KEY BLOCK-----\n`);
    expect(tail).not.toMatch(/JCA9Is9yRYMo|XQpFDilX4/);
  });

  it("masks CodePush deployment keys in `appcenter codepush deployment list -k`'s table, run or in a transcript; the deployments' names stay", () => {
    const table = '┌────────────┬──────────────────────────────────────┐\n│ Name       │ Key                                  │\n├────────────┼──────────────────────────────────────┤\n│ Staging    │ 1eaMSGcQatY8S6Uvz549zyFL0yr8rsvV0kSu │\n├────────────┼──────────────────────────────────────┤\n│ Production │ XrHs-200BjCc9rag3kYr9MaGpGaQDCPrkAXU │\n└────────────┴──────────────────────────────────────┘\n';
    const cmd = 'appcenter codepush deployment list -a acme/shop-ios -k';
    for (const out of [new Redactor().maskCommandOutput(cmd, table), new Redactor().mask(`$ ${cmd}\n${table}`)]) {
      expect(out).not.toMatch(/1eaMSGcQatY8|XrHs-200BjCc/);
      expect(out).toContain('│ Staging    │ [masked: deployment key printed by appcenter codepush deployment list]');
    }
    // Without -k the table has no keys: nothing is taken for one.
    const plain = '│ Name       │ Update Metadata │\n│ Staging    │ No updates released │\n';
    expect(new Redactor().maskCommandOutput('appcenter codepush deployment list -a acme/shop-ios', plain)).toBe(plain);
  });

  it("masks Maven's master password, a Java keystore in base64, fastlane's git credential without its call; keeps the call's head", () => {
    expect(new Redactor().mask('<settingsSecurity>\n  <master>{QwkZEqttHMhBm0VFSHQ+ysIEsIzbLMF43bI9zoTbwJg=}</master>\n</settingsSecurity>\n')).toBe('<settingsSecurity>\n  <master>[masked: maven master password]</master>\n</settingsSecurity>\n');
    const jks = `/u3+7QAAAAIAAAAB${Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 37) % 256)).toString('base64')}`;
    expect(new Redactor().mask(`    ANDROID_KEYSTORE_BASE64: ${jks}\n`)).toBe('    ANDROID_KEYSTORE_BASE64: [masked: java keystore]\n');
    const fastfile = '          git_basic_authorization: Base64.strict_encode64("acme-ci:ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"))\n';
    expect(new Redactor().mask(fastfile)).toBe('          git_basic_authorization: Base64.strict_encode64("acme-ci:[masked: github token]"))\n');
  });

  it("keeps .npmrc's registry on a line as long as the one above it (no fold) and sbt's `password=` under head's header of a credentials file", () => {
    const npmrc = '//npm.pkg.github.com/:_authToken=ghp_VE28TZSD5o2avEEM8cbZgs8hmgmelWcBwMB3\n//registry.npmjs.org/:_authToken=npm_5nu4edv2GD44hSjIvq83m7zKSrQrMoHYQCJr\n';
    expect(new Redactor().mask(npmrc)).toMatch(/^\/\/npm\.pkg\.github\.com\/:_authToken=\[masked: [a-z ]+\]\n\/\/registry\.npmjs\.org\/:_authToken=\[masked: [a-z ]+\]\n$/);
    const sbt = '==> ~/.sbt/sonatype_credentials <==\nrealm=Sonatype Nexus Repository Manager\nhost=s01.oss.sonatype.org\nuser=MhMrc9UG\npassword=z7QlFxQ1bPzikbANpSP-3NJTicpmbKOrlQUc8Iuus4-q\n';
    expect(new Redactor().mask(sbt)).toBe(sbt.replace('z7QlFxQ1bPzikbANpSP-3NJTicpmbKOrlQUc8Iuus4-q', '[masked: password]'));
  });
});

describe("a key's lines in a read (134 F04, 135 F43)", () => {
  it("keep what stands before BEGIN on its line (the variable's name) and each line's indentation (YAML's `key: |`)", () => {
    const body = 'MHcCAQEEIBLz3pE8mQx7vXf0yJk2Nq9rT4uW6zA1bC3dE5fG7hI9oAoGCCqGSM49';
    const text = `SIGNING_KEY=-----BEGIN EC PRIVATE KEY-----\n${body}\n-----END EC PRIVATE KEY-----\nsecrets:\n  key: |\n    -----BEGIN EC PRIVATE KEY-----\n    ${body}\n    -----END EC PRIVATE KEY-----\n`;
    const lines = text.split('\n');
    const r = new Redactor();
    const stream = r.stream('c1');
    stream.push(text);
    stream.flush();
    const shown = r.maskLines('c1', lines.map((t, i) => ({ n: i + 1, text: t }))).map((l) => l.text);
    expect(shown.slice(0, 8)).toEqual(['SIGNING_KEY=[masked: private key]', '[masked: private key]', '[masked: private key]', 'secrets:', '  key: |', '    [masked: private key]', '    [masked: private key]', '    [masked: private key]']);
  });

  it("keep the prefix a tool wrote before each of the key's lines (journalctl's date, host and unit: 138 F46)", () => {
    const body = 'MHcCAQEEIBLz3pE8mQx7vXf0yJk2Nq9rT4uW6zA1bC3dE5fG7hI9oAoGCCqGSM49';
    const at = (s: number) => `Mar 12 03:29:${s} bastion-1 provision.sh[7720]: `;
    const text = `${at(11)}writing key\n${at(12)}-----BEGIN EC PRIVATE KEY-----\n${at(12)}${body}\n${at(13)}${body.slice(0, 20)}\n${at(13)}-----END EC PRIVATE KEY-----\n`;
    const r = new Redactor();
    const stream = r.stream('c1');
    stream.push(text);
    stream.flush();
    const shown = r.maskLines('c1', text.split('\n').map((t, i) => ({ n: i + 1, text: t }))).map((l) => l.text);
    expect(shown.slice(0, 5)).toEqual([`${at(11)}writing key`, `${at(12)}[masked: private key]`, `${at(12)}[masked: private key]`, `${at(13)}[masked: private key]`, `${at(13)}[masked: private key]`]);
  });
});

describe("attack pass 135's leaks (secrets managers' CLIs, their output read without the command)", () => {
  it("masks SSM parameters' values in text rows after their paths, a Key Vault secret's value under its name, a Secret Manager version's payload", () => {
    const ssm = '/prod/api/db_password\tCanyon^Ember4454\n/prod/api/hmac_key\tP7zkW8voekGa7RXOofeeQPPe8+blryTitMNAMcFkqZU=\n/prod/api/log_level\tinfo\n';
    expect(new Redactor().mask(ssm)).toBe('/prod/api/db_password\t[masked: password]\n/prod/api/hmac_key\t[masked: key]\n/prod/api/log_level\tinfo\n');
    const kv = '{\n  "id": "https://kv-prod.vault.azure.net/secrets/sql-admin-password/ff0a30ca515fa469465aa9a208508fa2",\n  "managed": null,\n  "name": "sql-admin-password",\n  "tags": {},\n  "value": "Lantern3411#canyon"\n}\n';
    expect(new Redactor().mask(kv)).toBe(kv.replace('Lantern3411#canyon', '[masked: password]'));
    const gcp = '{\n  "name": "projects/433587965571/secrets/db-password/versions/3",\n  "payload": {\n    "data": "Y29iYWx0NTU2MV5NYXBsZSo=",\n    "dataCrc32c": "2501981496"\n  }\n}\n';
    expect(new Redactor().mask(gcp)).toBe(gcp.replace('Y29iYWx0NTU2MV5NYXBsZSo=', '[masked: secret manager payload]'));
    const yaml = 'name: projects/12/secrets/db-password/versions/3\npayload:\n  data: Y29iYWx0NTU2MV5NYXBsZSo=\n';
    expect(new Redactor().mask(yaml)).not.toContain('Y29iYWx0NTU2MV5NYXBsZSo');
    // Another API's payload (no secret version above it) is data, kept.
    const hook = '{"payload": {"data": "aGVsbG8gd29ybGQ="}}\n';
    expect(new Redactor().mask(hook)).toBe(hook);
  });
});

describe("closing measure 133's leak and damage", () => {
  it("masks a Twilio API key's secret beside its SID in a call; keeps the next header after a masked Token in a one-line request dump", () => {
    expect(new Redactor().mask('client = Client("SK0123456789abcdef0123456789abcdef", "Hfts1ONFYZWxAXqRKofMxrjsxWsib8VZ", "AC0123456789abcdef0123456789abcdef")\n')).not.toContain('Hfts1ONFYZWx');
    const send = "send: b'GET /x HTTP/1.1\\r\\nAccept: application/vnd.pagerduty+json;version=2\\r\\nAuthorization: Token token=ehSnwywlFKQY2KVlHo0b\\r\\nX-Auth-Token: 49f6b1b3002c1dddb36120a7e2045880279a9505\\r\\n\\r\\n'\n";
    const out = new Redactor().mask(send);
    expect(out).not.toMatch(/ehSnwywlFKQY|49f6b1b3002c/);
    expect(out).toContain('\\r\\nX-Auth-Token: [masked: ');
  });

  it("keeps a quoted Cookie header's closing quote and a setting after a session, and a callback URL cookie (and the Location that repeats it)", () => {
    const inspect = "      Cookie: 'connect.sid=s%3A_VVNEse8PdkYhwnAMTYOEjMqCG5tthtN.GTmcL%2FHXIAAP%2BTx8; theme=dark',\n";
    expect(new Redactor().mask(inspect)).toBe("      Cookie: 'connect.sid=[masked: cookie]; theme=dark',\n");
    const next = 'location: https://portal-staging.example.com/dashboard\nset-cookie: __Secure-next-auth.callback-url=https%3A%2F%2Fportal-staging.example.com%2Fdashboard; Path=/; HttpOnly\n';
    expect(new Redactor().mask(next)).toBe(next);
    // A URL that carries a query is no setting.
    expect(new Redactor().mask('Set-Cookie: next=https%3A%2F%2Fa.example%2Fcb%3Fcode%3DQm7xT2vK9pL4wZ8n; Path=/\n')).not.toContain('Qm7xT2vK9pL4');
  });
});

describe("attack pass 136's leaks and damage (machine learning tooling)", () => {
  it("masks Kaggle's key pretty-printed under its username, an API key sent as curl's user with no password and curl's echo of it", () => {
    const kaggle = '{\n  "username": "jdoekaggle",\n  "key": "db54f9254ac2553818df7f64ea56cf45"\n}\n';
    expect(new Redactor().mask(kaggle)).toBe(kaggle.replace('db54f9254ac2553818df7f64ea56cf45', '[masked: api key]'));
    const curl = "$ curl -v -u live_b1c9b294c50a50ba81721ba1118c6379: https://api.scale.com/v1/tasks\n* Server auth using Basic with user 'live_b1c9b294c50a50ba81721ba1118c6379'\n";
    expect(new Redactor().mask(curl)).not.toContain('b1c9b294c50a');
    // A user's name is kept (shorter, or words), with or without a password.
    const users = "* Server auth using Basic with user 'svc-account-ci-deployer'\n$ curl -u elastic: https://x\n";
    expect(new Redactor().mask(users)).toBe(users);
  });

  itUnless(missing('ssh-keygen'))("keeps an SSH public key printed beside its private key (the private key holds it: its remembered pieces masked the .pub line's tail)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mish-pub-'));
    try {
      // No comment after the public key (its blob ends the line, where a remembered piece's head is looked for: a wrap's cut).
      execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', '', '-f', path.join(dir, 'id')]);
      const priv = readFileSync(path.join(dir, 'id'), 'utf8');
      // Its type and blob (`cut -d' ' -f1,2`: an authorized_keys line with no comment).
      const pub = `${readFileSync(path.join(dir, 'id.pub'), 'utf8').split(' ').slice(0, 2).join(' ')}\n`;
      for (const text of [`$ cat id\n${priv}$ cat id.pub\n${pub}`, priv + pub, pub + priv]) {
        const r = new Redactor();
        const out = r.mask(text);
        expect(out).toContain(pub.trim());
        expect(out).not.toContain(priv.split('\n')[1]);
        expect(r.mask(pub)).toBe(pub);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("closing measure 138's leak and damage (a production incident)", () => {
  it("masks a webhook's signature headers (GitHub's sha256=, Stripe's t=…,v1=…); keeps a Copy-as-cURL command's headers after its quoted cookie", () => {
    const hex = 'ad6663d5'.repeat(8);
    for (const t of [`    X-Hub-Signature-256: sha256=${hex}\n`, `    X-Hub-Signature: sha1=${hex.slice(0, 40)}\n`, `X-Signature: sha256=${hex}\n`, `Stripe-Signature: t=1492774577,v1=${hex},v0=${hex.replace(/a/g, 'b')}\n`]) {
      const out = new Redactor().mask(t);
      expect(out, t).not.toContain('ad6663d5ad');
      expect(out, t).not.toContain('bd6663d5bd');
    }
    const curl = "curl 'https://app.example.com/api/me' \\\n  -H 'cookie: _ga=GA1.1.1981234567.1709876543; refresh_token=Qm7xT2vK9pL4wZ8nQm7xT2vK9pL4wZ8n; theme=dark' \\\n  -H 'x-csrf-token: abc' \\\n  -H 'user-agent: Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36' \\\n  --compressed\n";
    expect(new Redactor().mask(curl)).toBe(curl.replace('Qm7xT2vK9pL4wZ8nQm7xT2vK9pL4wZ8n', '[masked: token]'));
  });

  it('names a signing key a key, not a signature', () => {
    expect(new Redactor().mask('LEDGER_JWT_SIGNING_KEY=9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a3928\n')).toBe('LEDGER_JWT_SIGNING_KEY=[masked: signing key]\n');
  });
});

describe("closing measure 137's leaks and damage (a new developer's first week)", () => {
  it("masks django-environ's default=, a key among OpenTelemetry's exporter headers; keeps a `)` or `]` closing around a value and a header's written line break", () => {
    expect(new Redactor().mask('24:EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD", default="GlacierPepper287+")\n')).not.toContain('GlacierPepper287');
    for (const t of ['OTEL_EXPORTER_OTLP_HEADERS=x-honeycomb-team=LR1I7j5Lz7ykbrOfqlkZCg\n', 'OTEL_EXPORTER_OTLP_HEADERS=x-honeycomb-dataset=prod,x-honeycomb-team=LR1I7j5Lz7ykbrOfqlkZCg\n']) expect(new Redactor().mask(t)).not.toContain('LR1I7j5Lz7yk');
    expect(new Redactor().mask('* h2h3 [authorization: Bearer Kx9vR2mQ7zL4pW8nTq4zR8wL2vN6aB3c]\n')).toBe('* h2h3 [authorization: Bearer [masked: authorization header]]\n');
    expect(new Redactor().mask('INFO -- : slack-bot booting (env=staging, app_token=Qm7xT2vK9pL4wZ8nQm7xT2vK9pL4)\n')).toBe('INFO -- : slack-bot booting (env=staging, app_token=[masked: token])\n');
    const inspect = "      'Cookie: _secure_session_id=0123456789abcdef0123456789abcdef; lang=en\\r\\n' +\n";
    expect(new Redactor().mask(inspect)).toBe(inspect.replace('0123456789abcdef0123456789abcdef', '[masked: cookie]'));
  });

  itUnless(missing('openssl'))("keeps a certificate and a public key printed beside their private key (both hold its public part: remembered pieces masked them)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mish-pem-'));
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', path.join(dir, 'k'), '-out', path.join(dir, 'c'), '-days', '1', '-subj', '/CN=x'], { stdio: 'ignore' });
      execFileSync('openssl', ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', path.join(dir, 'ec')], { stdio: 'ignore' });
      execFileSync('openssl', ['ec', '-in', path.join(dir, 'ec'), '-pubout', '-out', path.join(dir, 'pub')], { stdio: 'ignore' });
      const [key, crt, ec, pub] = ['k', 'c', 'ec', 'pub'].map((f) => readFileSync(path.join(dir, f), 'utf8'));
      const indent = (s: string) => s.trim().split('\n').map((l) => `    ${l}`).join('\n');
      for (const [text, kept, hidden] of [[crt + key, crt, key], [ec + pub, pub, ec], [`tls:\n  crt: |\n${indent(crt)}\n  key: |\n${indent(key)}\n`, indent(crt), key]]) {
        const out = new Redactor().mask(text);
        expect(out).toContain(kept.trim());
        expect(out).not.toContain(hidden.split('\n')[2]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps ~/.gem/credentials' document start and names under head's header; its keys masked", () => {
    const gem = '==> /home/dev/.gem/credentials <==\n---\n:rubygems_api_key: rubygems_0123456789abcdef0123456789abcdef0123456789abcdef\n';
    expect(new Redactor().mask(gem)).toBe('==> /home/dev/.gem/credentials <==\n---\n:rubygems_api_key: [masked: rubygems token]\n');
  });
});

describe("look-alike pass 139's damage (harmless token-like text)", () => {
  it("keeps openssl's upper-case key identifiers and fingerprints (read as .pgpass rows) and an OAuth grant type's URN (read as a name and its value)", () => {
    // Recorded from `openssl x509 -text -fingerprint -sha256` of fresh certificates.
    const x509 = '            X509v3 Subject Key Identifier: \n                2A:38:16:56:73:79:D4:3D:5E:FC:00:18:40:0E:D7:12:D1:DE:A4:4C\n            X509v3 Authority Key Identifier: \n                16:00:5F:4F:08:D3:B6:75:E1:11:DA:1D:52:1E:BA:06:1D:E2:B4:70\nsha256 Fingerprint=8F:BC:C6:4C:28:1F:DD:79:C1:31:2E:6C:81:8C:3F:36:84:12:CC:26:6D:A5:FE:72:18:35:4E:A3:9E:31:56:B9\n';
    expect(new Redactor().mask(x509)).toBe(x509);
    const grant = '$ curl -s -X POST https://oauth2.googleapis.com/token -d grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer -d assertion=@assertion.txt\n';
    expect(new Redactor().mask(grant)).toBe(grant);
    // A .pgpass row stays masked.
    expect(new Redactor().mask('db.internal:5432:orders:app:Kq7mZ2xW9pLr\n')).not.toContain('Kq7mZ2xW9pLr');
  });

  it("keeps mish's own lines after head's header of a credentials file that ends the output (the status line, the background processes' line)", () => {
    const reply = '==> /home/dana/.aws/credentials <==\n[exit 0]\n[procs] 1 ended: p1(killed, 0s)\n';
    const r = new Redactor();
    expect(r.mask(reply)).toBe(reply);
    expect(r.mask('[procs] 1 ended: p1(killed, 0s)\n')).toBe('[procs] 1 ended: p1(killed, 0s)\n');
    // The file's own lines under it are still read.
    expect(new Redactor().mask('==> /run/secrets/db_password <==\nKq7m#Z2x.W9pLr\n[exit 0]\n')).toBe('==> /run/secrets/db_password <==\n[masked: password]\n[exit 0]\n');
  });
});

describe("closing measure 140's leaks (a day of third-party API integrations)", () => {
  itUnless(anyOf(missing('openssl'), missing('grep')))("masks a key's lines under grep's context prefix when the line number grows a digit (`9-` then `10-`: grep -n -A8 of a YAML block)", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mish-grepkey-'));
    try {
      execFileSync('openssl', ['genrsa', '-out', path.join(dir, 'k.pem'), '2048'], { stdio: 'ignore' });
      const key = readFileSync(path.join(dir, 'k.pem'), 'utf8');
      writeFileSync(path.join(dir, 'app.yml'), `app_id: 12345\nkey_name: main\nowner: acme\nprivate_key: |\n${key.trim().split('\n').map((l) => `  ${l}`).join('\n')}\n`);
      const text = execFileSync('grep', ['-n', '-A8', 'private_key', path.join(dir, 'app.yml')], { encoding: 'utf8' });
      expect(text).toContain('\n10-  ');
      const body = key.split('\n').slice(1, 8);
      const out = new Redactor().mask(text);
      for (const b of body) expect(out).not.toContain(b);
      // A read of the lines keeps grep's prefixes before the masks.
      const r = new Redactor();
      const stream = r.stream('c1');
      stream.push(text);
      stream.flush();
      const shown = r.maskLines('c1', text.split('\n').map((t, i) => ({ n: i + 1, text: t }))).map((l) => l.text);
      for (const b of body) expect(shown.join('\n')).not.toContain(b);
      expect(shown[7]).toBe('11-  [masked: private key]');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("closing measure 140's other leaks", () => {
  it("masks a private JWK's members in a REPL's map (Elixir's =>, Python's repr), a Postmark token in its client, a Healthchecks ping key, a secret a log names in prose", () => {
    const iex = '%{\n    "crv" => "P-256",\n    "d" => "dRGi2inlYgzhEm5jMyMqAVSa-evA31RHRKG5or1Rht4",\n    "kty" => "EC",\n    "x" => "TFepDjpkaqBySgcyfRtVtRFraQQh1WyGPDqAJpb6Er8"\n  }\n';
    expect(new Redactor().mask(iex)).toBe(iex.replace('dRGi2inlYgzhEm5jMyMqAVSa-evA31RHRKG5or1Rht4', '[masked: private key]'));
    const repr = "{'crv': 'P-256', 'd': 'dRGi2inlYgzhEm5jMyMqAVSa-evA31RHRKG5or1Rht4', 'kty': 'EC', 'x': 'TFepDjpkaqBySgcyfRtVtRFraQQh1WyGPDqAJpb6Er8'}\n";
    expect(new Redactor().mask(repr)).toBe(repr.replace('dRGi2inlYgzhEm5jMyMqAVSa-evA31RHRKG5or1Rht4', '[masked: private key]'));
    expect(new Redactor().mask("export const postmark = new ServerClient('24a5be6c-9c2b-4548-851c-d0f68ed27599');\n")).not.toContain('24a5be6c');
    expect(new Redactor().mask('+ curl -fsS https://hc-ping.com/kGM9qUx3nbO_mJR8Q9srm5YQMucNzCqU/fail\n')).toBe('+ curl -fsS https://hc-ping.com/[masked: healthchecks ping key]/fail\n');
    expect(new Redactor().mask('[DEBUG]  verifying request signature with secret d92b52921fd928e87cdd01ba8acd909e\n')).not.toContain('d92b52921fd9');
    const prose = 'connected with token expired; retrying with key rotation enabled\n';
    expect(new Redactor().mask(prose)).toBe(prose);
  });

  it("masks the made values under a section named for secrets (`[hmac]`'s `current` and `previous`); its settings and other sections stay", () => {
    const toml = '[segment]\nregion = "eu"\n\n[hmac]\n# rotate quarterly\ncurrent = "q_uQX8-oAcEsQweZfIcRDF5osHoU6yK0"\nprevious = "762334ff0278e2492db9f55a804f21e3ed6168dc"\nalgorithm = "sha256"\n\n[server]\nbuild = "a1b2c3d4e5f6a7b8c9d0"\n';
    expect(new Redactor().mask(toml)).toBe(toml.replace('q_uQX8-oAcEsQweZfIcRDF5osHoU6yK0', '[masked: secret]').replace('762334ff0278e2492db9f55a804f21e3ed6168dc', '[masked: secret]'));
  });

  it("masks a session cookie among a VCR cassette's Set-Cookie items (attributes after it); keeps their names, attributes and settings", () => {
    const vcr = '    headers:\n      Set-Cookie:\n      - _x_w=5_1; path=/; secure; HttpOnly\n      - _helpkit_session=Yfln7Ujnz-WHteTagYWzS9NLWL9DOWYPNeI1KEbG9Ux; path=/; secure; HttpOnly; SameSite=Lax\n      - theme=dark; path=/\n    body:\n      encoding: UTF-8\n';
    expect(new Redactor().mask(vcr)).toBe(vcr.replace('Yfln7Ujnz-WHteTagYWzS9NLWL9DOWYPNeI1KEbG9Ux', '[masked: cookie]'));
  });
});

describe("closing measure 141's leaks and damage (a legacy monolith and its server)", () => {
  it("masks a login call's password argument, ncftpput's -p, a PHP session file's id, New Relic's PHP licence, Subversion's cached password", () => {
    for (const [text, secret] of [
      ["12:$smtp->auth('billing-noreply', 'dzXOqS9P8e3D');\n", 'dzXOqS9P8e3D'],
      ['server.login("me@example.com", "Kq7m#Z2x.W9pLr")\n', 'Kq7m#Z2x.W9pLr'],
      ["ncftpput -u webupload -p '6761*cowboy*Orange' ftp.hoster-example.de /htdocs/shop index.php\n", '6761*cowboy*Orange'],
      ['==> /var/lib/php5/sess_z3sq46c92yhqt1j3j5tztrekpt <==\n', 'z3sq46c92yhqt1j3j5tztrekpt'],
      ['newrelic.license = "cbfb97f39717cedd2c379bf9d3045b182ee6e2f6"\n', 'cbfb97f39717cedd2c379bf9d3045b182ee6e2f6'],
      ['K 8\npasstype\nV 6\nsimple\nK 8\npassword\nV 19\nYankees&2765&buster\nK 15\nsvn:realmstring\nV 40\n<https://svn.corp.local:443> Subversion\nK 8\nusername\nV 7\ndeploy1\nEND\n', 'Yankees&2765&buster'],
    ]) expect(new Redactor().mask(text), text).not.toContain(secret);
    // A login call with variables, or a flag's word, is no password.
    for (const kept of ['client.login(username, password)\n', "user.login('admin', 'true')\n"]) expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("keeps a URL's parameter after an id_token when the log line's user agent holds `;`, and a wire log's `[\\r][\\n]` after a header's value", () => {
    const jwt = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';
    const log = `10.0.0.5 - - [12/Mar/2024:10:22:31 +0100] "GET /sso/login?id_token=${jwt}&state=f3a9 HTTP/1.1" 302 0 "-" "Mozilla/5.0 (Windows NT 6.1; Trident/7.0; rv:11.0) like Gecko"\n`;
    expect(new Redactor().mask(log)).toBe(log.replace(jwt, '[masked: jwt]'));
    for (const [line, kind] of [['>> "Authorization: Bearer Kx9vR2mQ7zL4pW8nTq4zR8wL2vN6aB3c[\\r][\\n]"\n', 'authorization header'], ['>> "X-Api-Key: Kx9vR2mQ7zL4pW8nTq4zR8wL2vN6aB3c[\\r][\\n]"\n', 'api key']]) {
      expect(new Redactor().mask(line)).toBe(line.replace('Kx9vR2mQ7zL4pW8nTq4zR8wL2vN6aB3c', `[masked: ${kind}]`));
    }
  });
});

describe("the lead's checks after session 26: credentials files in rows, vault's Data table", () => {
  it("masks each row's password of sasl_passwd, rsyncd.secrets, exim's passwd.client, davfs2's secrets and pgbouncer's userlist; keeps their hosts and users", () => {
    for (const [command, text, secrets, kept] of [
      ['cat /etc/postfix/sasl_passwd', '# relay\n[smtp.gmail.com]:587 alerts@example.org:qwhzkdpbnxvtlmsa\nsmtp.sendgrid.net:587 apikey: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\n', ['qwhzkdpbnxvtlmsa', 'SG.aB3dE5fG7hJ9kL1mN3pQ5r'], ['[smtp.gmail.com]:587 alerts@example.org:', 'smtp.sendgrid.net:587 apikey:', '# relay']],
      ['cat /etc/rsyncd.secrets', 'backup:Wq8#plmT2zv\n@ops:hunter-Zx81\n', ['Wq8#plmT2zv', 'hunter-Zx81'], ['backup:', '@ops:']],
      ['cat /etc/exim4/passwd.client', '*.mail.corp.lan:relayuser:Kp3v9XqL2m\n', ['Kp3v9XqL2m'], ['*.mail.corp.lan:relayuser:']],
      ['cat /etc/davfs2/secrets', 'https://dav.corp.lan/remote.php/webdav alice "Fz7 pq2Lm9"\n', ['Fz7 pq2Lm9'], ['https://dav.corp.lan/remote.php/webdav alice']],
      ['cat /etc/pgbouncer/userlist.txt', '"app_rw" "Tr0ub4dor&3xyz"\n"stats" "md5a3f1c2e4b5d6978812ab34cd56ef7890"\n', ['Tr0ub4dor&3xyz', 'md5a3f1c2e4b5d6978812ab34cd56ef7890'], ['"app_rw" "', '"stats" "']],
    ] as const) {
      const shown = new Redactor().maskCommandOutput(command, text);
      for (const v of secrets) expect(shown, command).not.toContain(v);
      for (const k of kept) expect(shown, command).toContain(k);
    }
    // A row of another shape is masked whole; a transform after the file masks every line, as before.
    expect(new Redactor().maskCommandOutput('cat /etc/postfix/sasl_passwd', 'Zk29pQxLm7vB\n')).not.toContain('Zk29pQxLm7vB');
    expect(new Redactor().maskCommandOutput('cat /etc/postfix/sasl_passwd | rev', 'vsmltvxnbpdkzhwq:gro.elpmaxe@strela 785:]moc.liamg.ptms[\n')).not.toContain('gro.elpmaxe');
  });

  it("masks a password in clear among an htpasswd file's hashes; its hashes stay", () => {
    const file = 'admin:$apr1$Qx7Lk2Pa$0c3kz1lZJcM8d2u0aVb7Z/\nops:$2y$05$Hn2b3c4d5e6f7g8h9i0j1uXkq9Sx0yTz1aB2cD3eF4gH5iJ6kL7mO\nold:{SHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=\nlegacy:rGhT8QzP0k2Lw\nguest:Dragon2098-\n';
    for (const command of ['cat .htpasswd', 'cat /etc/nginx/.htpasswd', 'head -n 20 /etc/apache2/htpasswd.users']) {
      expect(new Redactor().maskCommandOutput(command, file), command).toBe(file.replace('Dragon2098-', '[masked: password printed by ' + command.split(' ')[0] + ' credentials file]'));
    }
  });

  it("keeps a vault KV secret's user, host and port under its Data title; masks its password and any other key's value", () => {
    const kv = '====== Data ======\nKey         Value\n---         -----\napi         Zq8v2LmX9pTr4wKc\nhost        db.internal.example.com\npassword    xK9#mQ2$vL7pR4wZ\nport        5432\nusername    app_rw\nuser        v-approle-app-Xk3j9QzLp2\n';
    const shown = new Redactor().mask(kv);
    for (const v of ['Zq8v2LmX9pTr4wKc', 'xK9#mQ2$vL7pR4wZ', 'v-approle-app-Xk3j9QzLp2']) expect(shown).not.toContain(v);
    for (const k of ['host        db.internal.example.com', 'port        5432', 'username    app_rw']) expect(shown).toContain(k);
  });
});

describe("session 27's passes 142-145: leaks", () => {
  it('masks PowerShell secure strings in every order, an empty curl user, Chocolatey keys, certutil -p, Azure identifiable keys', () => {
    for (const [text, secret] of [
      ['PS C:\\ops> Set-ADAccountPassword -Identity svc -Reset -NewPassword (ConvertTo-SecureString -AsPlainText "BlN~SN1JKHUevqVc" -Force)\n', 'BlN~SN1JKHUevqVc'],
      ["$p = ConvertTo-SecureString -AsPlainText -Force -String 'Qz7#kLp2Wm9x'\n", 'Qz7#kLp2Wm9x'],
      ['$p = "Hv4!nRt8Ys2q" | ConvertTo-SecureString -AsPlainText -Force\n', 'Hv4!nRt8Ys2q'],
      ['$ curl -v -u :q3JkW9xLm2Pv7Rt4Zs8Nb1Hd6Fg0Jy5Qc3Vx9Lm2Kp7Wr4Ts8 https://dev.azure.com/contoso/_apis/projects\n', 'q3JkW9xLm2Pv7Rt4Zs8Nb1Hd6Fg0Jy5Qc3Vx9Lm2Kp7Wr4Ts8'],
      ['##[command]choco apikey --key 2dbccec0-393b-4d06-8b94-8bd800717181 --source https://push.chocolatey.org/\n', '2dbccec0-393b-4d06-8b94-8bd800717181'],
      ['$ cmd.exe /c "certutil -f -p Copper8264*ZSj -importpfx My C:\\certs\\orders-web.pfx"\n', 'Copper8264*ZSj'],
      // Azure DevOps' PAT writes 13 `A`s of its own (a documentation example's repeat test kept it), Cognitive Services' key, Storage's.
      ['export AZURE_DEVOPS_PAT=BVmWuKRs0Jv3My6ni1i2ye7jqC2vH7QEE9vruXuEsbjN3DZ5oKFBJQQJ99BGACAAAAAAAAAAAAASAZDOkLhv\n', 'BVmWuKRs0Jv3My6ni1i2ye7jqC2vH7QEE9vruXuEsbjN3DZ5oKFB'],
      ['key = "4UZgHRJTSOsNZBtqp8gquNQcwWoCWhlQkuj0kLlPK3P2auvrD5sjJQQJ99BEAC77bzfXJ3w3AAABACOGFl9n"\n', '4UZgHRJTSOsNZBtqp8gquNQcwWoCWhlQkuj0kLlPK3P2auvrD5sj'],
      ['key1    gnw0YFbyfwY42frfNmoOvoLBR3kMpWdcPeGpq4GfSmTNxxAlbD8C0zAaFOCRiU8OKQeV/uw3qyH9+AStt9Sdkg==     Full 3/2/2024 8:11:47 AM\n', 'gnw0YFbyfwY42frfNmoOvoLBR3kMpWdcPeGpq4GfSmTNxxAlbD8C0zAaFOCRiU8OKQeV'],
    ]) expect(new Redactor().mask(text), text).not.toContain(secret);
    // A documentation example of the DevOps layout (its random head a run of one letter) stays.
    const doc = `pat: ${'x'.repeat(52)}JQQJ99BGACAAAAAAAAAAAAASAZDOkLhv\n`;
    expect(new Redactor().mask(doc)).toBe(doc);
  });

  it("masks a `name value` setting's password, an option ending in auth, az's device keys, a Proxmox ticket, Uptime Kuma's push token, URL signatures and session ids, a diff's #define, borg's repokey", () => {
    for (const [text, secret] of [
      ['8:remote_password CopperpepperUmber8940!\n', 'CopperpepperUmber8940!'],
      ['remote_username gw-01\nremote_password HW%Uv_lkc-_1n53MKwdf\n', 'HW%Uv_lkc-_1n53MKwdf'],
      ['  CGroup: /system.slice/gw.service\n          └─812 /usr/bin/node /opt/gw/index.js --twilio-auth d9f39ae5a4c5a23144594b4b5da82875 --port 8080\n', 'd9f39ae5a4c5a23144594b4b5da82875'],
      ['az iot hub device-identity create -n hub -d dev1 --am shared_private_key --pk GzcYpLcWVKwhXfA2EnG7ArCAokgN/H5CCaCSLWCRA5c= --sk OEhNTua011EyeyMV9L4Olam69Aqd2qlQoYmuoKgQ+9w= -o table\n', 'OEhNTua011EyeyMV9L4Olam69Aqd2qlQoYmuoKgQ+9w='],
      [`{"data":{"ticket":"PVE:root@pam:987C190E::${'71LtIvIhZdQx7Lk2Pa0c3kz1lZJcM8d2u0aVb7Z'.repeat(8)}==","username":"root@pam"}}\n`, '71LtIvIhZdQx7Lk2Pa0c3kz1lZJcM8d2u0aVb7Z'],
      ["send: b'GET /api/push/sZF4wye75p?status=up&msg=OK&ping= HTTP/1.1\\r\\n'\n", 'sZF4wye75p'],
      ["WebSocket connection to 'wss://a3k7-ats.iot.eu-west-1.amazonaws.com/mqtt?x-amz-customauthorizer-name=Dash&x-amz-customauthorizer-signature=YDGYlODyolqBaQCCkn%2B9J3zbwEOWYCAzkSLRX9I3jDIKiab' failed\n", 'YDGYlODyolqBaQCCkn'],
      ['"GET /webapi/entry.cgi?api=SYNO.FileStation.List&version=2&method=list&_sid=UPLw3QqaiVVhF365LqfnqCVGmmV4WNXkJdd0RvIADL-0cc HTTP/1.1" 200\n', 'UPLw3QqaiVVhF365LqfnqCVGmmV4WNXkJdd0RvIADL'],
      [' #pragma once\n-#define SECRET_PASS        "YOUR_WIFI_PASSWORD"\n+#define SECRET_PASS        "Dune-Harbor-5140#"\n', 'Dune-Harbor-5140#'],
      [`BORG_KEY ${'3f'.repeat(32)}\nhqlhbGdvcml0aG2mc2hhMjU2pGRhdGHaAZ6Zq8v2LmX9pTr4wKcQx7Lk2Pa0c3kz1lZJcM8d2u0aVb7\nZ8FzvCeMuDI0aWNf==\n`, 'hqlhbGdvcml0aG2mc2hhMjU2'],
    ]) expect(new Redactor().mask(text), text).not.toContain(secret);
    for (const [text, secret] of [
      ["$ az storage blob upload --account-name acmelakeprod --account-key 'AZf9pbbG3LL6m9pmSfN5Eme77A7XI2bU419t3DJMh76rbBvkZ/ABokvDB0aQx7Lk2Pa0c3kz1lZJcM8d2u0aVb7ZQm7x==' --container-name raw\n", 'AZf9pbbG3LL6m9pmSfN5Eme77A7XI2bU419t3DJMh76rbBvkZ'],
      ['PREFECT_SERVER_API_AUTH_STRING = "admin:rlyQzM12sKUD*L"\n', 'rlyQzM12sKUD*L'],
      ['4629: java -Xmx2g org.apache.hive.beeline.BeeLine -u jdbc:hive2://hs2.acme.internal:10000/default;ssl=true -n etl -p kBJ54vmEZUGAtfad -f nightly.hql\n', 'kBJ54vmEZUGAtfad'],
      ['subprocess.CalledProcessError: Command \'["redis-cli", "-h", "redis", "-a", "r1cPLvlbSCOdAeRnRmUgLm4ev9w3l8q6", "BGSAVE"]\' returned non-zero exit status 1.\n', 'r1cPLvlbSCOdAeRnRmUgLm4ev9w3l8q6'],
    ]) expect(new Redactor().mask(text), text).not.toContain(secret);
    // A port after -p in such a list, an SSH host key's public blob under a key's name stay.
    for (const kept of ['["mysql", "-h", "db", "-P", "3306", "-e", "select 1"]\n', '    "host_key": "AAAAC3NzaC1lZDI1NTE5AAAAIOdVbTriplCoXn9BlgMi0xwFatSnvpqMyI5aB3dE5fG7"\n']) expect(new Redactor().mask(kept)).toBe(kept);
    // Settings and words where such names stand stay: a path after a name ending in `_file`, a scheme after `--http-auth`, Synology's `session=FileStation`.
    for (const kept of ['password_file /etc/mosquitto/passwd\n', 'use_identity_as_username true\n', 'curl --http-auth basic https://x\n', 'GET /webapi/auth.cgi?api=SYNO.API.Auth&session=FileStation&format=sid HTTP/1.1\n']) expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("masks wg show dump's private and preshared keys alone (its public keys, endpoints and counters stay)", () => {
    const priv = 'yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=', pub = 'xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=', peer = 'HIgo9xNzJMWLKASShiTqIybxZ0U3wGLiUeJ1PKf8ykw=', psk = 'FpCyhws9cxwWoV4xELtfJvjJN+zQVRPISllRWgeopVE=';
    const dump = `${priv}\t${pub}\t51820\toff\n${peer}\t${psk}\t84.112.55.10:40912\t10.13.13.2/32\t1741462801\t19105792\t421636096\t0\n${pub}\t(none)\t(none)\t10.13.13.3/32\t0\t0\t0\t25\n`;
    for (const [command, out] of [['sudo wg show wg0 dump', dump], ['wg show all dump', dump.split('\n').filter(Boolean).map((l) => `wg0\t${l}\n`).join('')]]) {
      const shown = new Redactor().maskCommandOutput(command, out);
      for (const v of [priv, psk]) expect(shown, command).not.toContain(v);
      for (const k of [pub, peer, '84.112.55.10:40912', '10.13.13.3/32', '421636096']) expect(shown, command).toContain(k);
    }
  });
});

describe("session 27's passes 142-145: damage", () => {
  it(".NET's public key tokens, machineKey's AutoGenerate, unattend's passes, PowerShell's cmdlets and static calls, EF Core's parameter names, an object's head stay", () => {
    for (const kept of [
      '<add assembly="System.Web.Extensions, Version=4.0.0.0, Culture=neutral, PublicKeyToken=31bf3856ad364e35" />\n',
      '<machineKey validationKey="AutoGenerate,IsolateApps" decryptionKey="AutoGenerate,IsolateApps" validation="HMACSHA256" />\n',
      '<settings pass="specialize">\n',
      '$cred = New-Object System.Management.Automation.PSCredential ($u, $p)\n',
      '$token = New-Object System.Net.WebClient\n',
      '$secret = Get-Content .\\token.txt\n',
      "PS C:\\> $c = [pscredential]::new('CORP\\svc_sql', $pass)\n",
    ]) expect(new Redactor().mask(kept)).toBe(kept);
    const ef = "Executed DbCommand (3ms) [Parameters=[@__apiKey_0='Zq8v2LmX9pTr4wKcQ' (Size = 64)], CommandType='Text']\nWHERE [a].[ApiKey] = @__apiKey_0\n";
    expect(new Redactor().mask(ef)).toBe(ef.replace('Zq8v2LmX9pTr4wKcQ', '[masked: api key]'));
    const node = '12:    httpNodeAuth: {user:"dash",pass:"$2b$08$Hn2b3c4d5e6f7g8h9i0j1uXkq9Sx0yTz1aB2cD3eF4gH5iJ6kL7m"},\n';
    expect(new Redactor().mask(node)).toContain('httpNodeAuth: {user:"dash",pass:"[masked: ');
  });

  it("keeps a service account token Secret's ca.crt and namespace (YAML and JSON); its token masked; no piece of the certificate learned", () => {
    const cert = '-----BEGIN CERTIFICATE-----\nMIIBdzCCAR2gAwIBAgIBADAKBggqhkjOPQQDAjAjMSEwHwYDVQQDDBhrM3Mtc2Vy\ndmVyLWNhQDE3MTgxODU4MzAwHhcNMjQwNjEyMDk1MDMwWhcNMzQwNjEwMDk1MDMw\n-----END CERTIFICATE-----\n';
    const ca = Buffer.from(cert).toString('base64'), ns = Buffer.from('kube-system').toString('base64');
    const token = Buffer.from('eyJhbGciOiJSUzI1NiIsImtpZCI6IjEifQ.eyJzdWIiOiJzeXN0ZW06c2EifQ.c2lnbmF0dXJlc2lnbmF0dXJlc2ln').toString('base64');
    const r = new Redactor();
    const yaml = `apiVersion: v1\ndata:\n  ca.crt: ${ca}\n  namespace: ${ns}\n  token: ${token}\nkind: Secret\n`;
    const shown = r.mask(yaml);
    expect(shown).toContain(`ca.crt: ${ca}`);
    expect(shown).toContain(`namespace: ${ns}`);
    expect(shown).not.toContain(token.slice(0, 40));
    const json = `{"apiVersion": "v1", "data": {"ca.crt": "${ca}", "namespace": "${ns}", "token": "${token}"}, "kind": "Secret"}\n`;
    const j = r.mask(json);
    expect(j).toContain(ca);
    expect(j).not.toContain(token.slice(0, 40));
    // Another certificate later in the session: nothing of it masked.
    const other = `certificate-authority-data: ${Buffer.from(cert.replace('MIIBdzCC', 'MIIBeDCC')).toString('base64')}\n`;
    expect(r.mask(other)).toBe(other);
  });
});

describe("session 28: session 27's leftovers", () => {
  it("a key printed alone below its label (after a blank line or none, at any indent), particle's and balena's new credentials, Pi-hole's sid and csrf, ESPHome's api encryption key", () => {
    const key = s(AN, 32), hex = s(HEX, 40), b64key = Buffer.from(s(AN, 32)).toString('base64').slice(0, 44);
    for (const text of [`Your new API key:\n\n${key}\n`, `API key:\n  ${key}\n`, `Here is your token:\n\n  ${key}\n`, `token:\n${key}\n`]) {
      const shown = new Redactor().mask(text);
      expect(shown, text).not.toContain(key);
      expect(shown).toContain('[masked: ');
    }
    expect(new Redactor().maskCommandOutput('particle token create', `? Please enter your password: [hidden]\nNew access token expires on Wed Mar 03 2027 10:00:00 GMT+0000\n    ${hex}\n`)).toBe('? Please enter your password: [hidden]\nNew access token expires on Wed Mar 03 2027 10:00:00 GMT+0000\n    [masked: token]\n');
    const balena = new Redactor().maskCommandOutput('balena api-key generate ci-deploy', `Registered api key 'ci-deploy':\n\n${key}\n\nThis key will not be shown again, so please save it now.\n`);
    expect(balena).not.toContain(key);
    expect(balena).toContain('This key will not be shown again');
    const sid = b64key.slice(0, 24), csrf = Buffer.from(s(AN, 16)).toString('base64');
    const pihole = new Redactor().mask(`{"session":{"valid":true,"totp":false,"sid":"${sid}","csrf":"${csrf}","validity":300}}\n`);
    expect(pihole).not.toContain(sid);
    expect(pihole).not.toContain(csrf);
    const esphome = new Redactor().mask(`wifi_ssid: "HomeNet"\nesphome_api_encryption: "${b64key}"\n`);
    expect(esphome).toBe('wifi_ssid: "HomeNet"\nesphome_api_encryption: "[masked: secret]"\n');
  });

  it("Apprise's notification URLs: each key in the URL's parts masked, ids of digits and hosts kept", () => {
    const user = s(AN, 30), token = s(AN, 30), hook = s(AN, 68), slack = s(AN, 24), gotify = s(AN, 15), pbul = `o.${s(AN, 32)}`;
    const text = `urls:\n  - pover://${user}@${token}\n  - discord://987654321098765432/${hook}\n  - slack://T1JJ3T3L2/B7JJ3T3L2/${slack}/#general\n  - gotify://gotify.lan/${gotify}\n  - pbul://${pbul}\n`;
    const shown = new Redactor().mask(text);
    for (const v of [user, token, hook, slack, gotify, pbul]) expect(shown, v).not.toContain(v);
    for (const v of ['987654321098765432', 'T1JJ3T3L2/B7JJ3T3L2/', 'gotify://gotify.lan/', '#general']) expect(shown).toContain(v);
    const kept = 'see https://pushover.net/api and discord://channels or slack://general for details; gotify://push-server2024host.example/\n';
    expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("headscale's pre-auth keys: the list's Key column (docker exec too) and create's key; the rest of the table kept", () => {
    const a = s(HEX, 48), b = s(HEX, 48);
    const table = `ID | Key${' '.repeat(46)}| Reusable | Used  | Expiration          | Tags\n1  | ${a} | false    | false | 2026-12-04 10:00:00 | \n2  | ${b} | true     | true  | 2026-12-10 10:00:00 | tag:server\n`;
    for (const command of ['headscale preauthkeys list --user home', 'docker exec headscale headscale preauthkeys list --user home']) {
      const shown = new Redactor().maskCommandOutput(command, table);
      expect(shown, command).not.toContain(a);
      expect(shown).not.toContain(b);
      for (const kept of ['2026-12-10 10:00:00', 'tag:server', '| Reusable |']) expect(shown).toContain(kept);
    }
    expect(new Redactor().maskCommandOutput('headscale preauthkeys create --user home --reusable', `${a}\n`)).not.toContain(a);
  });

  it("a PowerShell transcript: a secret variable echoed bare, by Write-Output, a credential's password; other variables and cmdlets' output kept", () => {
    const a = pw(), b = s(AN, 20);
    const text = `PS /home/dev> $secret = Get-AzKeyVaultSecret -VaultName kv-prod -Name DbPassword -AsPlainText\nPS /home/dev> $secret\n${a}\nPS /home/dev> $vaultName\nkv-prod\nPS C:\\Users\\dev> Write-Output $apiToken\n${b}\nPS C:\\Users\\dev> Get-Date\n\nThursday, December 3, 2026 10:00:00 AM\n`;
    const shown = new Redactor().mask(text);
    expect(shown).not.toContain(a);
    expect(shown).not.toContain(b);
    for (const kept of ['kv-prod\n', 'Thursday, December 3, 2026 10:00:00 AM', '$secret = Get-AzKeyVaultSecret']) expect(shown).toContain(kept);
    // `> ` is no prompt's mark without a PowerShell prompt in the text: a quote's line stays.
    const quote = `> $secret\n> ${s(AN, 20)}\n`;
    expect(new Redactor().mask(quote)).toBe(quote);
  });

  it('keeps the settings, ids and hex lines those readers meet', () => {
    for (const kept of [
      'server_side_encryption: AES256\nsse_encryption: aws:kms\nstorage_encryption: true\nbucket_encryption: "aws:kms"\nencryption: tls\n',
      '{"sid": "AC0123456789abcdef0123456789abcdef", "Sid": "AllowReadAccessToBucket2024"}\nORACLE_SID=ORCL\nsid: S-1-5-21-3623811015-3361044348-30300820-1013\n',
      'csrf: true\nCSRF=enabled\n',
      `Commit:\n\n${s(HEX, 40)}\n`,
      'Summary:\n\nAll2024checks passed\n',
      'Access key:\n  AKIAIOSFODNN7EXAMPLE\n',
    ]) expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe("session 29: session 28's leftovers", () => {
  it("Home Assistant's and ESPHome's secrets.yaml printed alone: every top-level value a secret whatever its name; ssids, users, places, hosts, ports and ids kept", () => {
    const ota = s(HEX, 32), pin = '48213377', pw = s(AN, 14);
    const text = `# secrets\nwifi_ssid: "HomeNet"\nwifi_password: "${pw}"\nesphome_ota: "${ota}"\nrouter_pin: ${pin}\nmqtt_user: homeassistant\nmqtt_broker: 192.168.1.10\nhome_latitude: 52.3731\nhttp_port: 8123\n`;
    for (const command of ['cat secrets.yaml', 'head -n 20 config/secrets.yaml', 'cat esphome/secrets.yml']) {
      const shown = new Redactor().maskCommandOutput(command, text);
      for (const v of [ota, pin, pw]) expect(shown, `${command}: ${v}`).not.toContain(v);
      for (const kept of ['wifi_ssid: "HomeNet"', 'mqtt_user: homeassistant', 'mqtt_broker: 192.168.1.10', 'home_latitude: 52.3731', 'http_port: 8123', '# secrets']) expect(shown).toContain(kept);
    }
    // Another file's `*_ota` is no secret by its name; a Kubernetes manifest named secrets.yaml keeps its kind and camelCase keys.
    expect(new Redactor().maskCommandOutput('cat ota.yaml', `esphome_ota: "${ota}"\n`)).toContain(ota);
    const manifest = 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ntype: Opaque\n';
    expect(new Redactor().maskCommandOutput('cat secrets.yaml', manifest)).toBe(manifest);
  });

  it("a light table's credential column printed by any command (headscale's Key beside Reusable, a Token column); a Key column elsewhere kept", () => {
    const a = s(HEX, 48), t = s(AN, 32);
    const table = `ID | Key${' '.repeat(46)}| Reusable | Ephemeral | Used  | Expiration          | Created             | Tags\n1  | ${a} | false    | false     | false | 2026-12-05 10:00:00 | 2026-12-04 10:00:00 | \n`;
    const shown = new Redactor().maskCommandOutput('cat keys.txt', table);
    expect(shown).not.toContain(a);
    for (const kept of ['| Reusable |', '2026-12-05 10:00:00', '| false    |']) expect(shown).toContain(kept);
    expect(new Redactor().mask(`ID | Token${' '.repeat(28)}| Expiration\n1  | ${t} | 2026-12-05\n`)).not.toContain(t);
    for (const kept of [
      `ID | Key                    | Fingerprint\n1  | deploy-${s(HEX, 12)} | SHA256:${s(AN, 43)}\n`,
      `Key | Value\ndatabase.host | ${s(AN, 24)}\n`,
      // psql's table (a rule under the header) is read by the client's reader, as before: a title column of names stays.
      ` id | key\n----+-----\n  1 | database_url\n`,
    ]) expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("a settings table's value column beside its name column (sqlite3 -header's provider|name|value), its names and other rows kept", () => {
    const paypal = s(AN, 80), woo = `cs_${s(HEX, 40)}`;
    const text = `provider|name|value\nstripe|secret_key|sk_live_${s(AN, 99)}\nwoocommerce|consumer_key|ck_${s(HEX, 40)}\nwoocommerce|consumer_secret|${woo}\npaypal|client_secret|${paypal}\ngeneral|currency|EUR\n`;
    for (const command of ['sqlite3 -header shop.db "SELECT provider, name, value FROM integration_settings"', 'cat settings.psv']) {
      const shown = new Redactor().maskCommandOutput(command, text);
      for (const v of [paypal, woo]) expect(shown, command).not.toContain(v);
      for (const kept of ['|consumer_secret|', 'paypal|client_secret|', 'general|currency|EUR', 'provider|name|value']) expect(shown, command).toContain(kept);
    }
    const tabbed = `id\tscope\tkey\tvalue\n1\tapp\tsmtp_password\t${paypal.slice(0, 24)}\n2\tapp\ttimezone\tEurope/Berlin\n`;
    const shown = new Redactor().mask(tabbed);
    expect(shown).not.toContain(paypal.slice(0, 24));
    expect(shown).toContain('2\tapp\ttimezone\tEurope/Berlin');
  });

  it("fastlane's spaceship cookie jar (a Ruby HTTP::Cookie as YAML): each cookie's value, whatever it is called; its domain and flags kept", () => {
    const v = `DAWTKNV3${s(HEX, 240)}MVRYV2`;
    const text = `---\n- !ruby/object:HTTP::Cookie\n  name: myacinfo\n  value: ${v}\n  domain: apple.com\n  for_domain: true\n  path: "/"\n  secure: true\n`;
    const shown = new Redactor().maskCommandOutput('cat .fastlane/spaceship/ci@acme.io/cookie', text);
    expect(shown).toBe(text.replace(v, '[masked: cookie]'));
    // A YAML list of other objects' name / value pairs stays.
    const kept = `- name: build_number\n  value: 20261204.3\n- name: commit\n  value: ${s(HEX, 40)}\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("keeps RevenueCat's public SDK keys under *_KEY names and GraphQL Relay global ids in base64; masks RevenueCat's secret key and a base64 user:password", () => {
    const ios = `appl_${s(AN, 27)}`, android = `goog_${s(AN, 27)}`, secret = `sk_${s(AN, 32)}`;
    const text = `export const REVENUECAT_IOS_KEY = '${ios}';\nexport const REVENUECAT_ANDROID_KEY = '${android}';\nconst REVENUECAT_SECRET_KEY = '${secret}';\n`;
    const shown = new Redactor().mask(text);
    expect(shown).toContain(ios);
    expect(shown).toContain(android);
    expect(shown).not.toContain(secret);
    const order = Buffer.from('Order:1adaa858-ff08-4d0e-bc6c-907c90649d75').toString('base64');
    const checkout = Buffer.from('Checkout:62fe174a-2c6a-4a9b-bbb5-dd1231af6a66').toString('base64');
    const ids = `{\n  "order": {\n    "id": "${order}"\n  },\n  "checkout": {\n    "id": "${checkout}"\n  }\n}\n`;
    expect(new Redactor().mask(ids)).toBe(ids);
    const basic = Buffer.from(`deploy-bot:${pw()}`).toString('base64');
    expect(new Redactor().mask(`${basic}\n`)).not.toContain(basic);
  });

  it("particle's new token saved and printed by cat (no command names it); a hex line under other prose kept", () => {
    const hex = s(HEX, 40);
    const shown = new Redactor().maskCommandOutput('cat particle-token.txt', `New access token expires on Sat Jan 02 2027 12:00:00 GMT+0000 (Coordinated Universal Time)\n    ${hex}\n`);
    expect(shown).toBe('New access token expires on Sat Jan 02 2027 12:00:00 GMT+0000 (Coordinated Universal Time)\n    [masked: token]\n');
    const kept = `Commit for the new access token feature:\n    ${hex}\nThe token expires on Friday\n    ${hex}\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe('session 29: blind passes 148 (game studio) and 149 (fintech back office)', () => {
  it("a game studio's build credentials: Unity's serial, Nakama's flags, Backtrace's URL, Plastic's SecurityConfig, Unreal's pak keys", () => {
    const serial = 'E3-8HJV-5YC0-ZTFE-3BCY-NIJL', dbpw = s(AN, 20), serverKey = `${s(AN, 20)}7u${s(AN, 2)}`, bt = s(HEX, 64), soc = `|SoC|${s(AN, 30)}/`, sso = `5-q-${s(AN, 60)}`;
    const secondary = `${Buffer.from(s(AN, 32)).toString('base64').slice(0, 43)}=`, exponent = Buffer.from(s(AN, 96)).toString('base64');
    const text = [
      `Unity.exe -batchmode -quit -serial ${serial} -username "ci@studio.gg" -logFile -`,
      `/nakama/nakama --name n1 --database.address nakama:${dbpw}@postgres:5432/nakama --socket.server_key ${serverKey} --logger.level DEBUG`,
      `DataRouterUrl="https://unreal.backtrace.io/post/emberforge/${bt}"`,
      `  <SecurityConfig>::0:build@studio.gg:${soc}</SecurityConfig>`,
      `<ServerProfile><SecurityConfig>Unity::build@studio.gg:${sso}</SecurityConfig></ServerProfile>`,
      `+SecondaryEncryptionKeys=(Guid="BDF833D3F45C60C64E961A9F8278BBB6",Name="DLC_Ashlands",Key="${secondary}")`,
      'SigningPublicExponent=AQAB',
      `SigningPrivateExponent=${exponent}`,
    ].join('\n');
    const shown = new Redactor().mask(`${text}\n`);
    for (const v of [serial, dbpw, serverKey, bt, soc, sso, secondary, exponent]) expect(shown, v).not.toContain(v);
    for (const kept of ['-username "ci@studio.gg"', '@postgres:5432/nakama', '--logger.level DEBUG', 'unreal.backtrace.io/post/emberforge/', 'build@studio.gg:', 'Guid="BDF833D3F45C60C64E961A9F8278BBB6"', 'SigningPublicExponent=AQAB']) expect(shown).toContain(kept);
  });

  it("Perforce's tickets (the tickets file, `p4 tickets`, `p4 login -p` run or logged) and Steam's cached logins; digests and SteamIDs kept", () => {
    const a = s(HEX, 32).toUpperCase(), b = s(HEX, 32).toUpperCase(), cache = s(HEX, 320);
    const tickets = new Redactor().maskCommandOutput('cat ~/.p4tickets', `ssl:perforce.studio.internal:1666=build.svc:${a}\n10.20.4.11:1666=swarm:${b}\n`);
    expect(tickets).toBe('ssl:perforce.studio.internal:1666=build.svc:[masked: password printed by cat credentials file]\n10.20.4.11:1666=swarm:[masked: password printed by cat credentials file]\n');
    const listed = new Redactor().maskCommandOutput('p4 tickets', `ssl:perforce:1666 (build.svc) ${a}\n`);
    expect(listed).toBe('ssl:perforce:1666 (build.svc) [masked: perforce ticket printed by p4 tickets]\n');
    expect(new Redactor().maskCommandOutput('p4 -u build.svc login -p -a', `Enter password: \n${a}\n`)).not.toContain(a);
    const log = `[2026-12-03T21:02:12Z] + p4 -u build.svc login -p -a\n[2026-12-03T21:02:12Z] Enter password:\n[2026-12-03T21:02:12Z] ${a}\n[2026-12-03T21:02:12Z] + p4 sync -q //Game/Main/...@48213\n`;
    const shownLog = new Redactor().mask(log);
    expect(shownLog).not.toContain(a);
    expect(shownLog).toContain('p4 sync -q //Game/Main/...@48213');
    const vdf = `"InstallConfigStore"\n{\n\t\t\t\t"CellIDServerOverride"\t\t"38"\n\t\t\t\t"ConnectCache"\n\t\t\t\t{\n\t\t\t\t\t"2a7c41d9"\t\t"${cache}"\n\t\t\t\t}\n\t\t\t\t"Accounts"\n\t\t\t\t{\n\t\t\t\t\t"studio_build"\n\t\t\t\t\t{\n\t\t\t\t\t\t"SteamID"\t\t"76561199184422931"\n\t\t\t\t\t}\n`;
    const shownVdf = new Redactor().mask(vdf);
    expect(shownVdf).not.toContain(cache.slice(0, 16));
    for (const kept of ['"2a7c41d9"', '"SteamID"\t\t"76561199184422931"', '"CellIDServerOverride"\t\t"38"']) expect(shownVdf).toContain(kept);
    // p4 fstat's digests (the same shape as a ticket) stay.
    const fstat = `... depotFile //Game/Main/Content/Hero.uasset\n... headChange 48213\n... digest ${b}\n`;
    expect(new Redactor().mask(fstat)).toBe(fstat);
  });

  it("a client's config printed by node's inspect over lines (`key:` beside `secret:`), NetSuite's token id; other *_TOKEN_IDs and keys among ids kept", () => {
    const key = s(AN, 50), secret = s(AN, 50), tokenId = s(HEX, 64);
    const shown = new Redactor().maskCommandOutput('node scripts/dwolla-check.js', `[dwolla] init client {\n  environment: 'production',\n  key: '${key}',\n  secret: '${secret}',\n  webhookUrl: 'https://ops.example/hooks'\n}\n`);
    expect(shown).not.toContain(key);
    expect(shown).not.toContain(secret);
    expect(shown).toContain("webhookUrl: 'https://ops.example/hooks'");
    expect(new Redactor().mask(`NS_ACCOUNT=1234567_SB1\nNS_TOKEN_ID=${tokenId}\n`)).toBe('NS_ACCOUNT=1234567_SB1\nNS_TOKEN_ID=[masked: token]\n');
    for (const kept of [
      `VAULT_TOKEN_ID=${s(HEX, 8)}-${s(HEX, 4)}-${s(HEX, 4)}-${s(HEX, 4)}-${s(HEX, 12)}\n`,
      `resources:\n  - key: tls.key\n    path: server.key\n  - name: app\n    key: prod/terraform.tfstate\n`,
      `{\n  key: 'order-${s(HEX, 12)}',\n  status: 'paid',\n  amount: 1200\n}\n`,
    ]) expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe('session 29: blind passes 150 (observability) and 151 (research computing)', () => {
  it("Fluent Bit's classic keys one blank from their value, a password without a digit; its other settings kept", () => {
    const token = '70CF1131-1C80-470F-9CF7-D43DB590F17F', pass = 'EWpseq%bIzhTlvREfx';
    const conf = `[OUTPUT]\n    Name         splunk\n    Port         8088\n    Splunk_Token ${token}\n    Splunk_Send_Raw Off\n\n[OUTPUT]\n    HTTP_User    fluentbit\n    HTTP_Passwd  ${pass}\n    Logstash_Format On\n`;
    const shown = new Redactor().maskCommandOutput('cat fluent-bit.conf', conf);
    expect(shown).not.toContain(token);
    expect(shown).not.toContain(pass);
    for (const kept of ['Port         8088', 'Splunk_Send_Raw Off', 'HTTP_User    fluentbit', 'Logstash_Format On']) expect(shown).toContain(kept);
    // A setting whose value is a word (no digit, no made word) stays, a password's name or not.
    const words = '    Log_Level    info\n    HTTP_Passwd  changeme\n    Shared_Key Secret\n';
    expect(new Redactor().mask(words)).toBe(words);
  });

  it("research computing's credentials: S3-compatible key ids by name and in `mc alias set`, a decoder's literal, R's named vector, .irodsA and *.secret files", () => {
    const id1 = 'ZHFBCZPCIQUQFF0PZ3F2', id2 = 'PP8FRHWHCK2HB8KP8CXW', secret = s(AN, 40), cookie = s(HEX, 64), pat = s(AN, 70), redcap = s(HEX, 32).toUpperCase();
    const text = [
      `config = {'s3': {'endpoint_url': 'https://minio.lab.example.edu:9000', 'aws_access_key_id': '${id1}', 'bucket': 'cryo-tiles'}}`,
      'AWS_ACCESS_KEY_ID=UVBMYK5D17C8VGWK6VJA',
      `mc alias set labceph https://rgw.hpc.example.edu ${id2} ${secret} --api S3v4`,
      `c.JupyterHub.cookie_secret = bytes.fromhex('${cookie}')`,
    ].join('\n');
    const shown = new Redactor().mask(`${text}\n`);
    for (const v of [id1, 'UVBMYK5D17C8VGWK6VJA', id2, secret, cookie]) expect(shown, v).not.toContain(v);
    for (const kept of ["'bucket': 'cryo-tiles'", 'mc alias set labceph https://rgw.hpc.example.edu ', '--api S3v4', 'c.JupyterHub.cookie_secret = bytes.fromhex(']) expect(shown).toContain(kept);
    const rout = `> Sys.getenv(c("OSF_PAT", "REDCAP_API_TOKEN", "R_LIBS_USER"))\n${' '.repeat(65)}OSF_PAT \n"${pat}" \n${' '.repeat(56)}REDCAP_API_TOKEN \n${' '.repeat(38)}"${redcap}" \n${' '.repeat(61)}R_LIBS_USER \n${' '.repeat(38)}"/home/alice/R/x86_64-pc-linux-gnu-library/4.4" \n`;
    const shownR = new Redactor().maskCommandOutput('cat pull_data.Rout', rout);
    expect(shownR).not.toContain(pat);
    expect(shownR).not.toContain(redcap);
    expect(shownR).toContain('"/home/alice/R/x86_64-pc-linux-gnu-library/4.4"');
    // R's table of numbers under names (proc.time()) stays.
    const times = '   user  system elapsed \n  2.113   0.241   3.870 \n';
    expect(new Redactor().mask(times)).toBe(times);
    for (const [command, pw] of [['cat irods/.irodsA', 'wr#%wH;;3yM-kkA7A.UBSP'], ["cat nslcd.conf; echo '== ldap.secret:'; cat ldap.secret", 'SZI4KqdVu-K5Go%d%RHd']]) {
      expect(new Redactor().maskCommandOutput(command, `uid nslcd\n== x:\n${pw}\n`), command).not.toContain(pw);
    }
    // A key id that is no S3 key's (a GUID, a lower-case id) and a decoder of no literal stay.
    const kept = `aws_access_key_id = \${AWS_ACCESS_KEY_ID}\nsecret = bytes.fromhex(os.environ["SECRET_HEX"])\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe('session 29: blind passes 152 (healthcare SaaS) and 153 (output shapes)', () => {
  it("Orthanc's RegisteredUsers: each user's password, the users and other settings kept", () => {
    const a = s(AN, 20), b = `${s(AN, 4)}.${s(AN, 19)}`;
    const text = `{\n  "RegisteredUsers": {\n    "admin": "${a}",\n    "viewer-svc": "${b}"\n  },\n  "HttpPort": 8042,\n  "Name": "orthanc-prod"\n}\n`;
    const shown = new Redactor().mask(text);
    expect(shown).toBe(text.replace(a, '[masked: password]').replace(b, '[masked: password]'));
  });

  it("od -t x1z's rows: a password in its own row's hex and >…< columns", () => {
    const pw = `5FfH${s(AN, 12)}`;
    const bytes = Buffer.from(`REDIS_AUTH_PASS=${pw}\nREDIS_HOST=cache.internal\n`);
    const rows: string[] = [];
    for (let i = 0; i < bytes.length; i += 16) {
      const row = [...bytes.subarray(i, i + 16)];
      rows.push(`${i.toString(16).padStart(6, '0')} ${row.map((c) => c.toString(16).padStart(2, '0')).join(' ').padEnd(47)}  >${row.map((c) => (c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : '.')).join('')}<`);
    }
    const dump = `${rows.join('\n')}\n${bytes.length.toString(16).padStart(6, '0')}\n`;
    const shown = new Redactor().maskCommandOutput('od -A x -t x1z redis.env', dump);
    expect(shown).not.toContain(pw);
    expect(shown).not.toContain([...Buffer.from(pw)].map((c) => c.toString(16).padStart(2, '0')).join(' '));
    expect(shown).toContain('>REDIS_AUTH_PASS=<');
    expect(shown).toContain('>.REDIS_HOST=cach<');
  });

  it("an AWS key pair a line each (strings of a binary) and a JWT's rest on the line below its wrap; a SHA below a key id and other wrapped lines kept", () => {
    const secret = `GGxN${s(AN, 31)}+w9j/`;
    const strings = `aws_access_key_id\nAKIA2OGYBAH6STMJ2RWX\n${secret}\neu-north-1\nGCC: (Debian 12.2.0-14) 12.2.0\n`;
    const shown = new Redactor().mask(strings);
    expect(shown).not.toContain(secret);
    expect(shown).toContain('eu-north-1\nGCC: (Debian 12.2.0-14) 12.2.0');
    const sha = s(HEX, 40);
    expect(new Redactor().mask(`AKIAIOSFODNN7EXAMPLE\n${sha}\n`)).toContain(sha);
    const header = Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url');
    const payload = Buffer.from(`{"sub":"deploy-bot","iat":1733300000,"exp":1764836000,"n":"${s(AN, 12)}"}`).toString('base64url');
    const signature = s(AN + '_-', 43);
    const cut = 30;
    const log = `2024-12-04T06:10:44Z [deploy] + curl -sf -X POST https://deploy.example.com/api -H 'Authorization: Bearer ${header}.${payload.slice(0, cut)}\n${payload.slice(cut)}.${signature}' -d @release.json\n2024-12-04T06:10:45Z [deploy] release created\n`;
    const shownLog = new Redactor().mask(log);
    expect(shownLog).not.toContain(signature);
    expect(shownLog).not.toContain(payload.slice(cut));
    expect(shownLog).toContain("' -d @release.json\n2024-12-04T06:10:45Z [deploy] release created");
    const kept = `see eyJhbGciOiJIUzI1NiJ9 in the header\nnode.js and example.com/docs\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe("session 29: a cookie list's settings", () => {
  it("keeps a storageState cookie list's settings (theme, _ga) as the Cookie header does; its session cookies masked", () => {
    const sid = s(AN, 34);
    const state = JSON.stringify({ cookies: [{ name: 'connect.sid', value: sid, domain: 'localhost', path: '/' }, { name: 'theme', value: 'dark', domain: 'localhost', path: '/' }, { name: '_ga', value: 'GA1.1.1234567890.1700000000', domain: 'localhost', path: '/' }] }, null, 2);
    const shown = new Redactor().maskCommandOutput('cat storage-state.json', `${state}\n`);
    expect(shown).not.toContain(sid);
    expect(shown).toContain('"value": "dark"');
    expect(shown).toContain('"value": "GA1.1.1234567890.1700000000"');
  });
});

describe('session 29: blind pass 154 (backend-as-a-service)', () => {
  const jwt = (payload: object) => `${Buffer.from('{"alg":"HS256","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s(AN + '_-', 43)}`;
  it("keeps Supabase's anon key (public by design) and masks its service_role key, by the JWT's own claims", () => {
    const anon = jwt({ iss: 'supabase', ref: 'vwmgxmnaxfqbgnwieirj', role: 'anon', iat: 1761811200, exp: 2077387200 });
    const service = jwt({ iss: 'supabase', ref: 'vwmgxmnaxfqbgnwieirj', role: 'service_role', iat: 1761811200, exp: 2077387200 });
    const other = jwt({ sub: 'u1', role: 'anon', iat: 1761811200 });
    const text = `NEXT_PUBLIC_SUPABASE_ANON_KEY=${anon}\nSUPABASE_SERVICE_ROLE_KEY=${service}\nconst supabaseAnonKey = '${anon}';\nAUTH=${other}\n`;
    const shown = new Redactor().mask(text);
    expect(shown.split(anon).length - 1).toBe(2);
    expect(shown).not.toContain(service);
    // A JWT whose role is anon but which no Supabase issued is a session's token.
    expect(shown).not.toContain(other);
  });

  it("NocoDB's connection string: the p= password of a URL whose query names its user u=; other queries' p= (a page) kept", () => {
    const pw = s(AN, 20);
    const shown = new Redactor().mask(`NC_DB: pg://root_db:5432?u=postgres&p=${pw}&d=root_db\n`);
    expect(shown).toBe('NC_DB: pg://root_db:5432?u=postgres&p=[masked: database password]&d=root_db\n');
    const kept = 'GET /search?q=shoes&p=2&sort=price\n';
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe('session 29: blind pass 155 (process introspection)', () => {
  it("SMTP's AUTH PLAIN inside strace's write() string and libcurl's USERPWD in ltrace; the capability line and other numbers kept", () => {
    const plain = Buffer.from(`\0notify@acme.io\0${s(AN, 18)}`).toString('base64'), pw = s(AN, 20);
    const text = `9944  write(5, "AUTH PLAIN ${plain}\\r\\n", 58) = 58\ncurl_easy_setopt(0x55d4c1e2a2a0, 10005, "reporter:${pw}") = 0\n`;
    const shown = new Redactor().mask(text);
    expect(shown).not.toContain(plain);
    expect(shown).not.toContain(pw);
    expect(shown).toContain('curl_easy_setopt(0x55d4c1e2a2a0, 10005, "reporter:');
    const kept = '250-AUTH PLAIN LOGIN\nsleep 10005, "a:b" then\n';
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe('session 30: blind pass 156 (telecom and VoIP)', () => {
  it("Kamailio's modparam secret and its subscriber table's ha1/ha1b digests; sha1 and other parameters kept", () => {
    const nonce = s(AN, 32), ha1 = s(HEX, 32), ha1b = s(HEX, 32), pw = s(AN, 12);
    const shown = new Redactor().mask(`modparam("auth", "secret", "${nonce}")\nmodparam("auth_db", "password_column", "ha1")\nid|username|password|ha1|ha1b\n1|2001|${pw}|${ha1}|${ha1b}\n`);
    for (const v of [nonce, ha1, ha1b, pw]) expect(shown).not.toContain(v);
    expect(shown).toContain('modparam("auth_db", "password_column", "ha1")');
    const kept = `sha1 = ${s(HEX, 40)}\nmodparam("auth", "nonce_expire", 300)\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("coturn's user=name:password and :0x keys, a Matrix signing key file, SDES inline keys; the SDP's other lines kept", () => {
    const pw = s(AN, 18), key = s(HEX, 32), seed = s(AN + '+/', 43), srtp = s(AN + '+/', 40);
    const text = `lt-cred-mech\nuser=webrtc-legacy:${pw}\nuser=ops-probe:0x${key}\ned25519 a_Qm7x ${seed}\na=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:${srtp}|2^31\na=rtpmap:8 PCMA/8000\n`;
    const shown = new Redactor().mask(text);
    for (const v of [pw, key, seed, srtp]) expect(shown).not.toContain(v);
    expect(shown).toContain('a=rtpmap:8 PCMA/8000');
    expect(shown).toContain('inline:[masked: srtp master key]|2^31');
  });

  it("a Twilio account SID as curl's Basic user stays; cat of a settings file beside a key file keeps the settings", () => {
    const sid = `AC${s(HEX, 32)}`;
    const line = `* Server auth using Basic with user '${sid}'\n`;
    expect(new Redactor().mask(line)).toBe(line);
    const secret = s(AN, 16), body = s(AN + '+/', 64);
    const shown = new Redactor().maskCommandOutput('cat .nexmorc private.key', `[credentials]\napi_secret=${secret}\napp_id=7b34b604-c08e-4e83-b488-ead2f3c78775\nprivate_key=./private.key\n-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----\n`);
    expect(shown).not.toContain(secret);
    expect(shown).not.toContain(body);
    for (const kept of ['[credentials]', 'app_id=7b34b604-c08e-4e83-b488-ead2f3c78775', 'private_key=./private.key']) expect(shown).toContain(kept);
  });
});

describe('session 30: blind pass 157 (encodings)', () => {
  it("a Twilio token alone on the line under its key's SID (strings of a binary); an id above a hash is no such pair", () => {
    const token = s(HEX, 32);
    const shown = new Redactor().mask(`SK${s(HEX, 32)}\n${token}\narn:aws:sns:eu-west-1:381492650117:ops-alerts\n`);
    expect(shown).not.toContain(token);
    const kept = `Account: AC${s(HEX, 32)} created\n${s(HEX, 32)}\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("a Helm release's base64 of base64 of gzip, masked whole when the release inside holds a secret; one without, kept", async () => {
    const { gzipSync } = await import('node:zlib');
    const twice = (o: object) => Buffer.from(gzipSync(JSON.stringify(o)).toString('base64')).toString('base64');
    const secret = twice({ name: 'billing', config: { postgresql: { auth: { password: s(AN, 24) } } } });
    const plain = twice({ name: 'billing', config: { replicas: 3, image: 'nginx:1.27' } });
    const shown = new Redactor().mask(`${secret}\n${plain}\n`);
    expect(shown).not.toContain(secret);
    expect(shown).toContain(plain);
  });
});

describe('session 30: blind pass 159 (commands combined)', () => {
  it("an alternation's secret names cut to their values and joined by xargs echo; another alternation's values kept", () => {
    const hex = s(HEX, 64), b64u = s(AN + '-_', 64);
    const shown = new Redactor().maskCommandOutput("grep -E '_(SECRET|KEY)=' secrets.env | cut -d= -f2- | xargs echo", `${hex} ${b64u}\n`);
    expect(shown).not.toContain(hex);
    expect(shown).not.toContain(b64u);
    const kept = 'debug 8080\n';
    expect(new Redactor().maskCommandOutput("grep -E '^(LOG_LEVEL|PORT)=' app.env | cut -d= -f2- | xargs echo", kept)).toBe(kept);
  });

  it("tail -c of an env file: the cut line's piece of a token; the whole lines read as assignments", () => {
    const piece = `tS_${s(AN, 50)}`;
    const shown = new Redactor().maskCommandOutput('tail -c 120 .env', `${piece}\nLOG_LEVEL=debug\nPORT=8080\n`);
    expect(shown).not.toContain(piece);
    expect(shown).toContain('LOG_LEVEL=debug\nPORT=8080\n');
  });

  it('column -t -s= of an env file keeps its names and plain values; its secrets stay masked, a pgpass split still whole', () => {
    // (A digit in it: a draw of letters alone may be camel-shaped, `QmxTvKpLwZnRtYsa`, read as a name: the case below has none.)
    const pw = `${s(AN, 15)}${s('0123456789', 1)}`, sha = s(HEX, 40);
    const shown = new Redactor().maskCommandOutput('column -t -s= .env', `DB_PASSWORD  ${pw}\nDEPLOY_SHA   ${sha}\nLOG_LEVEL    debug\n`);
    expect(shown).not.toContain(pw);
    expect(shown).toContain(`DEPLOY_SHA   ${sha}`);
    expect(shown).toContain('LOG_LEVEL    debug');
    // A password of random letters with no digit (about one in 16 of 16-character draws of letters and digits: a draw above was one).
    const letters = 'KgXLuoSVYnNJltns';
    expect(new Redactor().maskCommandOutput('column -t -s= .env', `DB_PASSWORD  ${letters}\nLOG_LEVEL    debug\n`)).not.toContain(letters);
    const pg = `db.example.com  5432  app  alice  ${pw}\n`;
    expect(new Redactor().maskCommandOutput('column -t -s: ~/.pgpass', pg)).not.toContain(pw);
  });
});

describe('session 30: blind pass 158 (marketing technology)', () => {
  it("an API key as Basic's user with no password, in base64 (xtrace of printf '%s:' | base64); base64 of a plain word and colon kept", () => {
    const key = s(AN, 32);
    const basic = Buffer.from(`${key}:`).toString('base64');
    expect(new Redactor().mask(`+ AUTH=${basic}\n`)).not.toContain(basic);
    const kept = `+ LABEL=${Buffer.from('release-notes-for-the-team:').toString('base64')}\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("Ghost's Admin API key (<24 hex>:<64 hex>) in node's inspect: its secret; a public api key's name is no secret's", () => {
    const id = s(HEX, 24), secret = s(HEX, 64);
    const shown = new Redactor().mask(`ghost admin client {\n  key: '${id}:${secret}',\n  version: 'v5.0'\n}\n`);
    expect(shown).not.toContain(secret);
    expect(shown).toContain(id);
    const kept = '"klaviyo_public_api_key": "AbC123",\nklaviyoPublicApiKey: XyZ9Qa\n';
    expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("rows of a credential file's xxd, remembered, mask no other output's names or runs of zeros (a placeholder UUID, a key's name)", () => {
    const r = new Redactor();
    const key = `pk_${s(HEX, 34)}`;
    const xxd = Buffer.from(`KLAVIYO_PRIVATE_KEY=${key}\r\nNODE_ENV=production\r\n`);
    const rows = [];
    for (let at = 0; at < xxd.length; at += 16) {
      const b = xxd.subarray(at, at + 16);
      const hex = (b.toString('hex').match(/.{1,4}/g) ?? []).join(' ');
      rows.push(`${at.toString(16).padStart(8, '0')}: ${hex.padEnd(39)}  ${[...b].map((c) => (c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : '.')).join('')}`);
    }
    expect(r.maskCommandOutput('xxd .env.production', `${rows.join('\n')}\n`)).not.toContain(key.slice(0, 16));
    const example = 'HUBSPOT_ACCESS_TOKEN=pat-na1-00000000-0000-0000-0000-000000000000\nKLAVIYO_PRIVATE_KEY=pk_your_private_key_here\n';
    expect(r.maskCommandOutput('cat .env.example', example)).toBe(example);
  });
});

describe("session 31: session 30's own attack (prefixes, wrapping, short names)", () => {
  it("a Helm release's base64 of gzip, encoded again and wrapped by base64 -w76: masked whole; a wrapped blob of a plain config kept", () => {
    const wrap = (text: string, width = 76) => execFileSync('base64', [`-w${width}`], { input: text }).toString();
    const pw = s(AN, 20);
    for (const width of [64, 76, 80]) {
      const secretBlob = wrap(gzipSync(JSON.stringify({ config: { redis: { password: pw } } })).toString('base64'), width);
      expect(secretBlob.split('\n').length).toBeGreaterThan(2);
      const shown = new Redactor().maskCommandOutput(`base64 -w${width}`, secretBlob);
      for (const line of secretBlob.split('\n').filter((l) => l.length >= 16)) expect(shown).not.toContain(line);
    }
    const plain = wrap(gzipSync(JSON.stringify({ config: { redis: { host: 'cache.internal', port: 6379, db: 2 } } })).toString('base64'));
    expect(new Redactor().maskCommandOutput('base64 -w76', plain)).toBe(plain);
  });

  it("grep's file name and line number before a Matrix signing key line and a coturn user line; a public key line kept", () => {
    const seed = s(B64, 43), pw = s(AN, 16);
    const shown = new Redactor().maskCommandOutput('grep -r signing /data', `/data/acme.signing.key:ed25519 a_Xy9 ${seed}\n`);
    expect(shown).not.toContain(seed);
    expect(shown).toContain('/data/acme.signing.key:ed25519 a_Xy9 ');
    expect(new Redactor().maskCommandOutput('grep -n user= /etc/turnserver.conf', `42:user=probe:${pw}\n`)).not.toContain(pw);
    const kept = `/etc/ssh/ssh_host_ed25519_key.pub:ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI${s(B64, 43)} root@host\n42:user=www-data\n`;
    expect(new Redactor().maskCommandOutput('grep -rn ed25519 /etc/ssh', kept)).toBe(kept);
  });

  it('a bordered table without its rules: the column under a secret name masked, its ids and names kept', () => {
    const ha1 = s(HEX, 32);
    const shown = new Redactor().maskCommandOutput('mysql -e "select * from subscriber"', `| id | username | ha1 |\n|  1 | 2001     | ${ha1} |\n`);
    expect(shown).not.toContain(ha1);
    expect(shown).toContain('|  1 | 2001     |');
    const sha = s(HEX, 40);
    const kept = `| id | commit | status |\n|  1 | ${sha} | ok |\n`;
    expect(new Redactor().maskCommandOutput('cat deploys.txt', kept)).toBe(kept);
  });

  it("sed -n of a write key's file; printf %q of $PW (a backslash in the value's middle); $PWD kept", () => {
    const t = s(AN, 36);
    expect(new Redactor().maskCommandOutput('sed -n 3p ~/.config/segment/write_key', `${t}\n`)).not.toContain(t);
    const p = `${s(AN, 10)}$${s(AN, 14)}`;
    const quoted = execFileSync('bash', ['-c', 'printf %q "$PW"'], { env: { PATH: process.env.PATH, PW: p } }).toString();
    expect(quoted).toContain('\\$');
    const shown = new Redactor().maskCommandOutput('printf %q "$PW"', `${quoted}\n`);
    expect(shown).not.toContain(p.slice(11));
    expect(shown).not.toContain(p.slice(0, 10));
    expect(new Redactor().maskCommandOutput('echo "$DB_PASS"', `${s(AN, 18)}\n`)).toMatch(/^\[masked: /);
    const dir = '/home/dev/projects/checkout-service\n';
    expect(new Redactor().maskCommandOutput('echo "$PWD"', dir)).toBe(dir);
    expect(new Redactor().maskCommandOutput('echo $OLDPWD', dir)).toBe(dir);
    expect(new Redactor().maskCommandOutput('echo "$ORIG_PWD"', dir)).toBe(dir);
    expect(new Redactor().maskCommandOutput('echo "$MYSQL_PWD"', `${s(AN, 18)}\n`)).toMatch(/^\[masked: /);
  });
});

describe('session 31: blind pass 162 (video streaming and media delivery)', () => {
  it("Wowza's <Name>/<Value> property, under grep's -A1 prefix too; a property that names no secret kept", () => {
    const hex = s(HEX, 24);
    for (const out of [`      <Property>\n        <Name>secureTokenSharedSecret</Name>\n        <Value>${hex}</Value>\n      </Property>\n`, `13:        <Name>secureTokenSharedSecret</Name>\n14-        <Value>${hex}</Value>\n--\n`]) expect(new Redactor().maskCommandOutput('grep -n -A1 "<Name>secureToken" Application.xml', out)).not.toContain(hex);
    const kept = '8:        <Name>secureTokenHashAlgorithm</Name>\n9-        <Value>SHA-256</Value>\n';
    expect(new Redactor().maskCommandOutput('grep -n -A1 "<Name>" Application.xml', kept)).toBe(kept);
  });

  it('an IVS stream key; a hex key beside its HMAC algorithm (EdgeAuth config); a key seed; a cache key beside no algorithm kept', () => {
    const ivs = `sk_us-west-2_${s(AN, 36)}`;
    expect(new Redactor().mask(`[ivs] stream key : ${ivs}\n`)).not.toContain(ivs);
    const key = s(HEX, 64);
    const shown = new Redactor().mask(`[edgeauth] config {\n  key: '${key}',\n  algorithm: 'sha256',\n  windowSeconds: 3600\n}\n`);
    expect(shown).not.toContain(key);
    expect(shown).toContain("algorithm: 'sha256'");
    const seed = s(B64, 40);
    expect(new Redactor().mask(`  "playready": {\n    "key_seed": "${seed}",\n    "la_url": "https://x"\n  }\n`)).not.toContain(seed);
    const sha = s(HEX, 40);
    const kept = `cache entry {\n  key: '${sha}',\n  path: '/var/cache/a',\n  size: 1024\n}\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("content keys: mp4decrypt's --key KID:KEY (and the trace's KEY= before it), shaka-packager's raw keys; the KIDs kept", () => {
    const kid = s(HEX, 32), key = s(HEX, 32), kid2 = s(HEX, 32), key2 = s(HEX, 32);
    const trace = `+ KID=${kid}\n+ KEY=${key}\n+ mp4decrypt --key ${kid}:${key} enc/seg.mp4 dec/seg.mp4\n`;
    const shown = new Redactor().maskCommandOutput('bash decrypt.sh', trace);
    expect(shown).not.toContain(key);
    expect(shown).toContain(kid);
    const shaka = `packager in=a.mp4,stream=video,output=v.mp4 --enable_raw_key_encryption --keys label=SD:key_id=${kid}:key=${key},label=HD:key_id=${kid2}:key=${key2} --protection_scheme cbcs\n`;
    const masked = new Redactor().maskCommandOutput('make -n package', shaka);
    for (const v of [key, key2]) expect(masked).not.toContain(v);
    for (const v of [kid, kid2]) expect(masked).toContain(v);
  });

  it("an RTMP ingest URL's stream key (YouTube's, its backup form, a random key); a stream's name kept", () => {
    const yt = `${s('abcdefghijklmnopqrstuvwxyz0123456789', 4)}-${s(HEX, 4)}-${s(HEX, 4)}-${s(HEX, 4)}-${s(HEX, 4)}`;
    const rnd = `live_${s(AN, 30)}1`;
    for (const url of [`rtmp://a.rtmp.youtube.com/live2/${yt}`, `rtmp://b.rtmp.youtube.com/live2?backup=1/${yt}`, `rtmps://ingest.example.net:443/app/${rnd}`]) {
      const secret = url.slice(url.lastIndexOf('/') + 1);
      expect(new Redactor().mask(`+ ffmpeg -re -i in.mp4 -c copy -f flv '${url}'\n`), url).not.toContain(secret);
    }
    const kept = "ffmpeg -f flv rtmp://localhost:1935/live/test\nffmpeg -f flv rtmp://origin.example.com/live/ch1_1080p\nffmpeg -f flv rtmp://10.0.0.5/live/camera_front_door_1080\n";
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe('session 31: blind pass 161 (web3 developer team)', () => {
  it("RPC providers' keys in their endpoints' paths and foundry's etherscan keys; an anvil URL, an address and a tx hash kept", () => {
    const qn = s(HEX, 40), ankr = s(HEX, 64), cs = s(HEX, 32), es = s('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 34);
    const toml = `[rpc_endpoints]\nbase = "https://frosty-dawn.base-mainnet.quiknode.pro/${qn}/"\neth = "https://rpc.ankr.com/eth/${ankr}"\npoly = "https://nd-422-757-666.p2pify.com/${cs}"\nanvil = "http://127.0.0.1:8545"\n\n[etherscan]\nmainnet = { key = "${es}" }\n`;
    const shown = new Redactor().maskCommandOutput("sed -n '1,40p' foundry.toml", toml);
    for (const v of [qn, ankr, cs, es]) expect(shown).not.toContain(v);
    expect(shown).toContain('anvil = "http://127.0.0.1:8545"');
    const addr = `0x${s(HEX, 40)}`, tx = `0x${s(HEX, 64)}`;
    const kept = `contract deployed at ${addr}\ntx=${tx} block=58123994\nhttps://rpc.ankr.com/eth\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("a geth nodekey file; its enode's public key kept; The Graph's deploy key; a signer's key in a log line beside tx hashes", () => {
    const nodekey = s(HEX, 64), pub = s(HEX, 128);
    const shown = new Redactor().maskCommandOutput('cat data/geth/nodekey; echo; grep -h enode logs/geth.log', `${nodekey}\nINFO [06-11|09:12:01.903] Started P2P networking   self=enode://${pub}@10.0.4.17:30303\n`);
    expect(shown).not.toContain(nodekey);
    expect(shown).toContain(`enode://${pub}@10.0.4.17:30303`);
    const graph = s(HEX, 32);
    expect(new Redactor().mask(`2024-06-11T09:12:03Z ##[group]Run graph auth --studio ${graph}\n`)).not.toContain(graph);
    const pk = `0x${s(HEX, 64)}`, tx = `0x${s(HEX, 64)}`;
    const log = new Redactor().mask(`debug loaded signer key ${pk} from env KEEPER_PK\ninfo performUpkeep sent tx=${tx}\n`);
    expect(log).not.toContain(pk.slice(2));
    expect(log).toContain(tx);
  });

  it("infura's project id by its name; a mnemonic unquoted after its name; the documented test mnemonic kept", () => {
    const id = s(HEX, 32);
    expect(new Redactor().mask(`const infuraProjectId = "${id}";\n`)).not.toContain(id);
    const words = 'away cause benefit verify impact brown together auction tomorrow pipe fiction voice symbol lecture dutch fall beauty soda clip hat denial toilet humble pear';
    expect(new Redactor().mask(`DEBUG wallets: using mnemonic=${words}\n`)).not.toContain('benefit verify impact');
    const kept = 'mnemonic: test test test test test test test test test test test junk\n';
    expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("public values with a secret's name: a CREATE2 salt, a keystore's KDF salt, a Solana signature; a salt alone still masked", () => {
    const create2 = `0x${s(HEX, 64)}`, kdf = s(HEX, 64), sig = s('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 88);
    const kept = `{\n  "create2": {\n    "salt": "${create2}",\n    "initCodeHash": "0x${s(HEX, 64)}"\n  },\n  "crypto": {\n    "kdfparams": {\n      "dklen": 32,\n      "salt": "${kdf}",\n      "n": 262144,\n      "r": 8,\n      "p": 1\n    }\n  }\n}\nSignature: ${sig}\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
    const salt = s(HEX, 64);
    expect(new Redactor().mask(`WP_SALT: ${salt}\nsalt = "${s(AN, 40)}"\n`)).not.toContain(salt);
  });

  itUnless(missing('jq'))("a keystore's KDF salt in jq's colours through a command's stream (its window holds the parameters above the salt)", () => {
    const salt = s(HEX, 64);
    const keystore = JSON.stringify({ address: s(HEX, 40), crypto: { cipher: 'aes-128-ctr', ciphertext: s(HEX, 64), cipherparams: { iv: s(HEX, 32) }, kdf: 'scrypt', kdfparams: { dklen: 32, n: 262144, p: 1, r: 8, salt }, mac: s(HEX, 64) }, id: '5e62b77a-8e14-4595-97bd-c563dfebf4b7', version: 3 });
    const coloured = execFileSync('jq', ['-C', '.'], { input: keystore });
    const r = new Redactor();
    r.stream('c1').pushBytes(coloured);
    expect(r.maskCommandOutput('jq . keystore/deployer.json', coloured.toString())).toContain(salt);
  });
});

describe('session 32: blind passes 165 (mail and messaging) and 166 (an on-call incident)', () => {
  it("HAProxy's set-header with a key; its sample expression kept (166 F17)", () => {
    const key = s(HEX, 48);
    const cfg = `19:    http-request set-header X-Api-Key ${key}\n20:    http-request set-header X-Forwarded-Proto https if { ssl_fc }\n21:    http-request set-header X-Request-Key %[req.hdr(host)]\n`;
    const shown = new Redactor().maskCommandOutput("grep -nE 'set-header' haproxy.cfg", cfg);
    expect(shown).not.toContain(key);
    expect(shown).toContain('X-Forwarded-Proto https if { ssl_fc }');
    expect(shown).toContain('X-Request-Key %[req.hdr(host)]');
    // Caddy's request_header / header_up (its placeholders kept).
    const caddyKey = s(HEX, 32);
    const caddy = new Redactor().maskCommandOutput('cat Caddyfile', `    request_header X-Upstream-Token ${caddyKey}\n    request_header X-Api-Key {env.API_KEY}\n    header_up X-Upstream-Token {http.request.header.X-Token}\n`);
    expect(caddy).not.toContain(caddyKey);
    expect(caddy).toContain('X-Api-Key {env.API_KEY}');
    expect(caddy).toContain('{http.request.header.X-Token}');
  });

  it("Postfix's static: map, Dovecot's CRAM-MD5 entry, its auth debug log's PLAIN answer and typed password (165 F3, F4, F5)", () => {
    const relay = `willow!${s(AN, 10)}`, cram = s(HEX, 64), typed = `Harbor-${s(AN, 8)}%`;
    const resp = b64(`\0hsato@corvid.example\0${typed}`);
    const shown = new Redactor().maskCommandOutput('cat out.txt', [
      `smtp_sasl_password_maps = static:relay@corvid.example:${relay}`,
      `carmen@corvid.example:{CRAM-MD5}${cram}`,
      `bruno@corvid.example:{SHA512-CRYPT}$6$akzKViJ291kRJExa$pE12e9BPr5xCbpg9nlYK2FEjkP9pxn6fDlVx3UzBgKuWhIe5VgAzCpL2oS1Clg1ImAf3FksrsETuwcSlPItTT/`,
      `May 02 09:13:44 auth: Debug: client in: AUTH\t1\tPLAIN\tservice=imap\tsecured=tls\tsession=XG/uHwEf+FgF5Lkr\trport=51422\tresp=${resp}`,
      `May 02 09:13:44 auth: Debug: passwd-file(hsato@corvid.example,10.20.4.31,<XG/uHwEf+FgF5Lkr>): SHA512-CRYPT(${typed}) != '$6$0egyXAotfUlragO0$6N3LGHWRfEf'`,
      '',
    ].join('\n'));
    for (const v of [relay, cram, resp, typed]) expect(shown).not.toContain(v);
    // A hash scheme's stored hash stays (as /etc/shadow's), and the log's other fields.
    expect(shown).toContain('{SHA512-CRYPT}$6$akzKViJ291kRJExa$');
    expect(shown).toContain('session=XG/uHwEf+FgF5Lkr');
    expect(shown).toContain(") != '$6$0egyXAotfUlragO0$6N3LGHWRfEf'");
  });

  it("SMTP AUTH LOGIN as strace shows only the client's writes (165 F15), with the user on the command or after it", () => {
    const pwA = b64(s(AN, 14)), pwB = b64(s(AN, 12)), user = b64('bob');
    const trace = [
      'sendto(3, "ehlo billing-cron\\r\\n", 19, 0, NULL, 0) = 19',
      `sendto(3, "AUTH LOGIN ${b64('billing@corvid.example')}\\r\\n", 53, 0, NULL, 0) = 53`,
      `sendto(3, "${pwA}\\r\\n", 26, 0, NULL, 0) = 26`,
      'sendto(3, "quit\\r\\n", 6, 0, NULL, 0)    = 6',
      'write(4, "AUTH LOGIN\\r\\n", 12) = 12',
      `write(4, "${user}\\r\\n", 6) = 6`,
      `write(4, "${pwB}\\r\\n", 18) = 18`,
      '',
    ].join('\n');
    const shown = new Redactor().maskCommandOutput("strace -f -e trace=sendto,write -s 256 python3 notify.py 2>&1 | grep -E 'sendto|write'", trace);
    expect(shown).not.toContain(pwA);
    expect(shown).not.toContain(pwB);
    expect(shown).toContain(`"${user}\\r\\n"`);
    expect(shown).toContain('"quit\\r\\n"');
  });

  it("an RSA key's private numbers cut out of openssl's text by sed, no Private-Key header (165 F7: the hooked CLI showed them)", () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    const text = execFileSync('openssl', ['pkey', '-noout', '-text'], { input: privateKey }).toString();
    const piece = text.slice(text.indexOf('privateExponent:'), text.indexOf('prime2:'));
    const hexLines = piece.split('\n').filter((l) => /^\s+[0-9a-f]{2}:/.test(l)).map((l) => l.trim());
    expect(hexLines.length).toBeGreaterThan(8);
    const shown = new Redactor().maskCommandOutput("openssl pkey -in mail.private -noout -text | sed -n '/^privateExponent/,/^prime2/p'", piece);
    for (const l of hexLines) expect(shown).not.toContain(l);
    expect(shown).toContain('prime1:');
  });

  it("zuliprc's [api] key (165 F34); its email and site kept; Mailgun's webhook signature object kept (165 L26)", () => {
    const key = s(AN, 32);
    const shown = new Redactor().maskCommandOutput('cat zuliprc', `[api]\nemail=deploy-bot@chat.corvid.example\nkey=${key}\nsite=https://chat.corvid.example\n`);
    expect(shown).not.toContain(key);
    expect(shown).toContain('email=deploy-bot@chat.corvid.example');
    expect(shown).toContain('site=https://chat.corvid.example');
    const webhook = `{\n  "token": "${s(HEX, 50)}",\n  "timestamp": "1714641224",\n  "signature": "${s(HEX, 64)}"\n}\n`;
    expect(new Redactor().maskCommandOutput('jq .signature webhook.json', webhook)).toBe(webhook);
    const oneLine = `{"signature":{"token":"${s(HEX, 50)}","timestamp":"1714641224","signature":"${s(HEX, 64)}"},"event-data":{"event":"delivered"}}\n`;
    expect(new Redactor().maskCommandOutput('jq -c . webhook.json', oneLine)).toBe(oneLine);
    // A token of another shape under the same names is no Mailgun nonce.
    const token = s(AN, 40);
    expect(new Redactor().mask(`{\n  "token": "${token}",\n  "timestamp": "1714641224",\n  "signature": "x"\n}\n`)).not.toContain(token);
  });
});

describe('session 32: blind pass 164 (ML / AI engineering)', () => {
  it("curl -v naming an API key as Basic auth's user (Lambda Cloud's key, F25); a person's and a service's user kept", () => {
    const lambda = `secret_ml-infra_${s(HEX, 32)}.${s(AN, 32)}`, other = `ak${s(AN, 22)}7Qz`;
    const out = [`* Server auth using Basic with user '${lambda}'`, '> GET /api/v1/instances HTTP/1.1', `* Server auth using Basic with user '${other}'`, "* Server auth using Basic with user 'alice'", "* Server auth using Basic with user 'svc-backup-operator-01'", ''].join('\n');
    const shown = new Redactor().maskCommandOutput('curl -sv -K lambda.curlrc http://127.0.0.1:18425/api/v1/instances', out);
    expect(shown).not.toContain(lambda);
    expect(shown).not.toContain(other);
    expect(shown).toContain("user 'alice'");
    expect(shown).toContain("user 'svc-backup-operator-01'");
    expect(new Redactor().mask(`LAMBDA=${lambda}\nkey in a log: ${lambda} ok\n`)).not.toContain(lambda.slice(7));
  });
});

describe('session 32: bare BIP-39 phrases (no name near them: adv161 F28)', () => {
  // A real phrase made at test time by the same maintained library the rule reads its word list from.
  const phrase = async (strength: 128 | 256) => {
    const { generateMnemonic } = await import('@scure/bip39');
    const { wordlist } = await import('@scure/bip39/wordlists/english.js');
    return generateMnemonic(wordlist, strength);
  };

  it('a phrase on one line beside wc -w, one word a line, numbered on one line and in a grid', async () => {
    const p24 = await phrase(256), p12 = await phrase(128);
    const one = new Redactor().maskCommandOutput('cat wallet.secret; wc -w wallet.secret', `${p24}\n24 wallet.secret\n`);
    expect(one).not.toContain(p24);
    expect(one).toContain('24 wallet.secret');
    const words = p12.split(' ');
    const perLine = new Redactor().maskCommandOutput('cat seed.txt', `${words.join('\n')}\n`);
    for (const w of words) expect(perLine.split('\n')).not.toContain(w);
    const numbered = new Redactor().maskCommandOutput('python3 show_wallet.py', `${words.map((w, i) => `${i + 1}. ${w}`).join(' ')}\n`);
    // (The mask's own words are BIP-39 words too: a phrase holding `seed` or `phrase` is not found in `[masked: seed phrase]`.)
    for (const w of words) expect(numbered.replace(MASK_PATTERN, ''), w).not.toContain(` ${w}`);
    const grid = words.map((w, i) => `${String(i + 1).padStart(2)}) ${w.padEnd(10)}`).reduce((rows, cell, i) => (i % 3 ? (rows[rows.length - 1] += cell) : rows.push(cell), rows), [] as string[]).map((r) => r.trimEnd()).join('\n');
    const shownGrid = new Redactor().maskCommandOutput('wallet-cli show-seed', `${grid}\n`);
    for (const w of words) expect(shownGrid).not.toContain(`) ${w}`);
  });

  it("kept: the documented test phrases, the word list's own order, a sorted ls, prose, 11 or 13 words", async () => {
    const { wordlist } = await import('@scure/bip39/wordlists/english.js');
    const p = (await phrase(256)).split(' ');
    const kept = [
      'test test test test test test test test test test test junk',
      'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
      wordlist.slice(0, 12).join(' '),
      wordlist.slice(100, 124).join('\n'),
      'the quick brown fox jumps over the lazy dog and then some more words here',
      p.slice(0, 11).join(' '),
      p.slice(0, 13).join(' '),
      'npm warn deprecated inflight please use lru cache instead',
    ].join('\n\n');
    expect(new Redactor().maskCommandOutput('cat notes.txt', `${kept}\n`)).toBe(`${kept}\n`);
  });

  it("a grid's rows padded to their columns and lnd's tabbed grid masked; test vectors, dev chains' phrases, ls -C's sorted grid and a list's last 24 of 30 lines kept", async () => {
    const { wordlist } = await import('@scure/bip39/wordlists/english.js');
    const w24 = (await phrase(256)).split(' '), w12 = (await phrase(128)).split(' ');
    const padded = [0, 3, 6, 9].map((r) => w12.slice(r, r + 3).map((w, k) => `${r + k + 1}) ${w.padEnd(12)}`).join('')).join('\n');
    const lnd = [0, 4, 8, 12, 16, 20].map((r) => w24.slice(r, r + 4).map((w, k) => `${String(r + k + 1).padStart(2)}. ${w}`).join('\t')).join('\n');
    for (const shown of [padded, lnd]) {
      const out = new Redactor().maskCommandOutput('lncli create', `${shown}\n`);
      for (const w of shown === lnd ? w24 : w12) expect(out).not.toMatch(new RegExp(`\\d[.)] ${w}\\b`));
    }
    const sorted = [...w24].sort();
    const lsGrid = [0, 1, 2, 3, 4, 5, 6, 7].map((r) => [sorted[r], sorted[r + 8], sorted[r + 16]].map((w) => w.padEnd(10)).join('').trimEnd()).join('\n');
    const kept = [
      'legal winner thank year wave sausage worth useful legal winner thank yellow',
      'zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo wrong',
      'candy maple cake sugar pudding cream honey rich smooth crumble sweet treat',
      'bottom drive obey lake curtain smoke basket hold race lonely fit walk',
      lsGrid,
      [...w24, ...w12.slice(0, 6)].join('\n'),
    ].join('\n\n');
    expect(new Redactor().maskCommandOutput('ls', `${kept}\n`)).toBe(`${kept}\n`);
    // After such a list, a phrase of its own still is one.
    const after = new Redactor().maskCommandOutput('cat words.txt seed.txt', `${wordlist.slice(0, 30).join('\n')}\n\n${w12.join('\n')}\n`);
    expect(after.split('\n').filter((l) => l === '[masked: seed phrase]')).toHaveLength(12);
  });
});

describe("session 32: the own attack on this session's guards (adv167)", () => {
  it("openssl's other private numbers cut out alone; Dovecot's LOGIN answer; strace's sendmsg; socat -v's literal \\r", () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
    const text = execFileSync('openssl', ['pkey', '-noout', '-text'], { input: privateKey }).toString();
    for (const [from, to] of [['prime2:', 'exponent1:'], ['exponent1:', 'exponent2:'], ['coefficient:', undefined]] as const) {
      const piece = text.slice(text.indexOf(from), to ? text.indexOf(to) : undefined);
      const shown = new Redactor().maskCommandOutput(`openssl pkey -in k.pem -noout -text | sed -n '/^${from}/,$p'`, piece);
      for (const l of piece.split('\n').filter((x) => /^\s+[0-9a-f]{2}:/.test(x) && x.trim().length > 20)) expect(shown).not.toContain(l.trim());
    }
    const pwA = b64(s(AN, 14)), pwB = b64(s(AN, 14)), pwC = b64(s(AN, 14));
    const dovecot = `May 02 auth: Debug: client out: CONT\t3\tUGFzc3dvcmQ6\nMay 02 auth: Debug: client in: CONT\t3\t${pwA}\n`;
    expect(new Redactor().mask(dovecot)).not.toContain(pwA);
    const sendmsg = `sendmsg(3, {msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base="AUTH LOGIN ${b64('bob')}\\r\\n", iov_len=20}], msg_iovlen=1}, 0) = 20\nsendmsg(3, {msg_name=NULL, msg_namelen=0, msg_iov=[{iov_base="${pwB}\\r\\n", iov_len=22}], msg_iovlen=1}, 0) = 22\n`;
    expect(new Redactor().mask(sendmsg)).not.toContain(pwB);
    const socat = `> 2024/05/02 10:00:00.200000  length=18 from=0 to=17\n334 UGFzc3dvcmQ6\\r\n> 2024/05/02 10:00:00.300000  length=22 from=30 to=51\n${pwC}\\r\n`;
    expect(new Redactor().mask(socat)).not.toContain(pwC);
  });

  it("a phrase printed as a list (commas, a Python or JSON list) masked, on the hooked CLI's quick check too; a test's assertion on a hash kept", async () => {
    const { generateMnemonic } = await import('@scure/bip39');
    const { wordlist } = await import('@scure/bip39/wordlists/english.js');
    const words = generateMnemonic(wordlist, 128).split(' ');
    for (const printed of [words.join(', '), `['${words.join("', '")}']`, JSON.stringify(words)]) {
      expect(mayHoldSecret(`${printed}\n`)).toBe(true);
      const shown = new Redactor().maskCommandOutput('python3 show.py', `${printed}\n`);
      expect(shown).toContain('[masked: seed phrase]');
      // The mask's own words ('seed', 'phrase', 'masked') are on the list too: look only outside the masks.
      const outside = shown.replace(/\[masked: [^\]]+\]/g, '');
      for (const w of words) expect(outside).not.toMatch(new RegExp(`\\b${w}\\b`));
    }
    const kept = "E       AssertionError: assert SHA256(payload) != 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'\n";
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe('session 33: the leftovers of blind pass 164 and of the own attack adv167', () => {
  itUnless(missing('sqlite3'))("a token table's `key` column (Django REST framework's authtoken_token) and `select *` of it, by real sqlite3", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mish-s33-'));
    try {
      const db = path.join(dir, 'label_studio.sqlite3');
      const keys = [s(HEX, 40), s(HEX, 40)];
      execFileSync('sqlite3', [db, `create table authtoken_token(key varchar(40) primary key, created datetime, user_id integer); insert into authtoken_token values ('${keys[0]}','2024-05-02 09:14:55.120931',1),('${keys[1]}','2024-06-10 17:03:12.884210',7);`]);
      for (const query of ['select key, user_id, created from authtoken_token;', 'select * from authtoken_token;']) {
        const out = execFileSync('sqlite3', ['-header', '-column', db, query]).toString();
        expect(out).toContain(keys[0]);
        const r = new Redactor();
        const shown = r.maskCommandOutput(`sqlite3 -header -column label_studio.sqlite3 '${query}'`, out);
        for (const k of keys) expect(shown).not.toContain(k);
        expect(shown).toContain('[masked: secret printed by sqlite3 query of a secret column]');
        expect(shown.split('\n')[0]).toMatch(/^key\s+/);
        // Remembered for the session: a later read of the same rows (read_raw, a grep of a dump) is masked without its query.
        expect(r.mask(`row: ${keys[1]}\n`)).not.toContain(keys[1]);
      }
      // A count of the table prints no credential; a user table's rows are not a token table's.
      const count = execFileSync('sqlite3', [db, 'select count(*) from authtoken_token;']).toString();
      expect(new Redactor().maskCommandOutput(`sqlite3 ${db} 'select count(*) from authtoken_token;'`, count)).toBe(count);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a phrase shouted, under `Word #n:` labels, after a log timestamp, numbered `#n`: masked, on the hooked CLI\'s quick check too; the labels and the timestamp kept', async () => {
    const { generateMnemonic } = await import('@scure/bip39');
    const { wordlist } = await import('@scure/bip39/wordlists/english.js');
    const words = () => generateMnemonic(wordlist, 128).split(' ');
    const forms: [string, string[]][] = [];
    const up = words();
    forms.push([`${up.join(' ').toUpperCase()}\n`, up.map((w) => w.toUpperCase())]);
    const labelled = words();
    forms.push([labelled.map((w, i) => `Word #${i + 1}: ${w}`).join('\n') + '\n', labelled]);
    const stamped = words();
    forms.push([`2024-05-02T10:00:00Z ${stamped.join(' ')}\n`, stamped]);
    const hashed = words();
    forms.push([hashed.map((w, i) => `#${i + 1} ${w}`).join('\n') + '\n', hashed]);
    const upNumbered = words();
    forms.push([upNumbered.map((w, i) => `${i + 1}. ${w.toUpperCase()}`).join('\n') + '\n', upNumbered.map((w) => w.toUpperCase())]);
    for (const [printed, ws] of forms) {
      expect(mayHoldSecret(printed), printed).toBe(true);
      expect(mayHoldSecret(JSON.stringify(printed)), printed).toBe(true);
      const shown = new Redactor().maskCommandOutput('cat backup.txt', printed);
      expect(shown, printed).toContain('[masked: seed phrase]');
      const outside = shown.replace(/\[masked: [^\]]+\]/g, '');
      for (const w of ws) expect(outside, printed).not.toMatch(new RegExp(`\\b${w}\\b`));
    }
    expect(new Redactor().mask(forms[1][0])).toMatch(/^Word #\[masked: seed phrase\]\n/);
    expect(new Redactor().mask(forms[2][0])).toBe('2024-05-02T10:00:00Z [masked: seed phrase]\n');
    // Kept: shouted words that are not the list's, the list's own order shouted, a numbered checklist of list words in order.
    const kept = ['BUILD FAILED WITH THREE ERRORS AFTER TWELVE MINUTES OF WAITING ON THE REMOTE CACHE SERVER\n', `${wordlist.slice(100, 112).join(' ').toUpperCase()}\n`, wordlist.slice(40, 52).map((w, i) => `Step ${i + 1}: ${w}`).join('\n') + '\n', `2024-05-02T10:00:00Z ${wordlist.slice(7, 19).join(' ')}\n`];
    for (const k of kept) expect(new Redactor().mask(k)).toBe(k);
  });

  it("postmap -q of a SASL password map prints `user:password` alone: masked and remembered; another map's answer kept", () => {
    const pw = `${s(AN, 6)}-${s(AN, 5)}!${s('0123456789', 2)}`;
    const r = new Redactor();
    expect(r.maskCommandOutput('postmap -q "[smtp.mailrelay.net]:587" hash:/etc/postfix/sasl_passwd', `relay@mailrelay.net:${pw}\n`)).toBe('[masked: password printed by postmap -q]\n');
    expect(r.mask(`relay@mailrelay.net:${pw}\n`)).not.toContain(pw);
    expect(new Redactor().maskCommandOutput('postmap -q example.com hash:/etc/postfix/transport', 'smtp:[relay.example.com]:587\n')).toBe('smtp:[relay.example.com]:587\n');
  });

  itUnless(missing('jq'))("jq's object built of picked secrets under names of its own (`{db: .storage.postgres.password}`: adv168 F23), by real jq", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mish-s33-'));
    try {
      const session = s(AN, 64), db = s(AN, 32), smtp = `Garage${s('0123456789', 4)}*`;
      writeFileSync(path.join(dir, 'c.json'), JSON.stringify({ session: { secret: session, name: 'authelia_session' }, storage: { postgres: { password: db, host: 'db.internal' } }, notifier: { smtp: { password: smtp, username: 'mail' } } }));
      const filter = '{session: .session.secret, db: .storage.postgres.password, host: .storage.postgres.host, smtp: .notifier.smtp.password, user: .notifier.smtp.username}';
      const out = execFileSync('jq', [filter, 'c.json'], { cwd: dir }).toString();
      expect(out).toContain(db);
      const shown = new Redactor().maskCommandOutput(`jq '${filter}' c.json`, out);
      for (const v of [session, db, smtp]) expect(shown).not.toContain(v);
      expect(shown).toContain('"host": "db.internal"');
      expect(shown).toContain('"user": "mail"');
      // An object of names that say nothing, picked from keys that say nothing, is kept.
      const plain = execFileSync('jq', ['{h: .storage.postgres.host, u: .notifier.smtp.username}', 'c.json'], { cwd: dir }).toString();
      expect(new Redactor().maskCommandOutput("jq '{h: .storage.postgres.host, u: .notifier.smtp.username}' c.json", plain)).toBe(plain);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("Nextcloud's occ config:system:get of a password prints it bare (adv168 F7); another setting's value kept", () => {
    const pw = `Marble${s('0123456789', 4)}@`, redis = s(HEX, 48);
    const shown = new Redactor().maskCommandOutput('./occ config:system:get dbuser; ./occ config:system:get dbpassword; ./occ config:system:get redis password', `nextcloud\n${pw}\n${redis}\n`);
    for (const v of [pw, redis]) expect(shown).not.toContain(v);
    expect(new Redactor().maskCommandOutput('sudo -u www-data php occ config:system:get dbpassword', `${pw}\n`)).toBe('[masked: secret printed by occ config:system:get]\n');
    expect(new Redactor().maskCommandOutput('sudo -u www-data php occ config:system:get dbhost', 'localhost:5432\n')).toBe('localhost:5432\n');
  });

  itUnless(missing('grep'))("ESPHome's api encryption key under grep -n -A's line numbers (adv168 F31), by real grep", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mish-s33-'));
    try {
      const key = Buffer.from(s(AN, 32)).toString('base64'), ota = s(AN, 16);
      writeFileSync(path.join(dir, 'garage-door.yaml'), `esphome:\n  name: garage-door\n\nlogger:\n\napi:\n  encryption:\n    key: "${key}"\n\nota:\n  - platform: esphome\n    password: "${ota}"\n`);
      const out = execFileSync('grep', ['-n', '-A7', '-E', '^(api|ota):', 'garage-door.yaml'], { cwd: dir }).toString();
      expect(out).toMatch(/^6:api:$/m);
      const shown = new Redactor().maskCommandOutput("grep -n -A7 -E '^(api|ota):' garage-door.yaml", out);
      for (const v of [key, ota]) expect(shown).not.toContain(v);
      expect(shown).toContain('7-  encryption:');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  itUnless(missing('base64'))("a Cloudflare Tunnel token decoded by base64 -d: its secret `s` beside the account tag and the tunnel's UUID (adv168 F34)", () => {
    const secret = Buffer.from(s(AN, 32)).toString('base64');
    const token = Buffer.from(JSON.stringify({ a: s(HEX, 32), t: '8df7a1fa-692b-4634-9074-9d485804f7e9', s: secret })).toString('base64');
    const out = execFileSync('base64', ['-d'], { input: token }).toString();
    expect(out).toContain(secret);
    for (const shown of [new Redactor().mask(`${out}\n`), new Redactor().mask(`${JSON.stringify(JSON.parse(out), null, 2)}\n`)]) {
      expect(shown).not.toContain(secret);
      expect(shown).toContain('8df7a1fa-692b-4634-9074-9d485804f7e9');
    }
    const other = '{"a":"x","t":"y","s":"' + secret + '"}\n';
    expect(new Redactor().mask(other)).toBe(other);
  });

  it("kept: Zigbee2MQTT's `network_key: GENERATE`, Adyen's client key and Braintree's tokenization key (public, in the browser), `authorization: SOME_CONSTANT,` in code (adv168 L6, adv169 L2, L3)", () => {
    const kept = [
      'advanced:\n  pan_id: 44740\n  network_key: GENERATE\n  channel: 20\n',
      `{\n  "clientKey": "test_${s('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 32)}",\n  "environment": "test"\n}\n`,
      `4:export const TOKENIZATION_KEY = 'sandbox_${s('abcdefghijklmnopqrstuvwxyz0123456789', 8)}_${s('abcdefghijklmnopqrstuvwxyz0123456789', 16)}';\n`,
      '7:  return dropin.create({ authorization: TOKENIZATION_KEY, container: el });\n  fetch(url, { headers: { authorization: token, accept: "json" } });\n',
      // Adyen's client key under Spring's `client-key:` (the kubeconfig rule's name; remembered, it masked the key everywhere after),
      // a kubeconfig's `client-key:` file path.
      `adyen:\n  client-key: live_${s('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 32)}\n  environment: LIVE\n`,
      'users:\n- name: u\n  user:\n    client-key: /home/u/.kube/k.pem\n',
    ];
    for (const k of kept) expect(new Redactor().mask(k)).toBe(k);
    // Still masked: a header's token at the line's end, a bearer token, Braintree's private key.
    const t = s(AN, 32);
    expect(new Redactor().mask(`> Authorization: ${t}\n`)).not.toContain(t);
    expect(new Redactor().mask(`BRAINTREE_PRIVATE_KEY=${s(HEX, 32)}\n`)).toContain('[masked:');
  });

  it("Synology's trusted-device token under `device_id` (adv168 F17); a device's UUID or hex id kept", () => {
    const did = s(AN + '_-', 86);
    expect(new Redactor().mask(`{"data": {"account": "backup", "device_id": "${did}", "is_portal_port": false}}\n`)).not.toContain(did);
    const kept = '{"device_id": "8df7a1fa-692b-4634-9074-9d485804f7e9", "x": 1}\ndevice_id=' + s(HEX, 64) + '\n';
    expect(new Redactor().mask(kept)).toBe(kept);
  });

  itUnless(missing('python3'))("a payment card's number and security code in a gateway's debug log, a form body, a setting (adv169 F20); test cards, a masked PAN, a non-Luhn id kept", () => {
    // A Luhn-valid number that is no published test card, made here.
    const luhnDigit = (body: string) => {
      let sum = 0;
      for (let i = body.length - 1, dbl = true; i >= 0; i--, dbl = !dbl) {
        let d = Number(body[i]);
        if (dbl && (d *= 2) > 9) d -= 9;
        sum += d;
      }
      return String((10 - (sum % 10)) % 10);
    };
    const body = `45397${s('0123456789', 10)}`;
    const pan = body + luhnDigit(body);
    const cvc = `${1 + Math.floor(rnd() * 8)}${s('0123456789', 2)}`;
    const log = execFileSync('python3', ['-c', 'import json,sys; print("DEBUG POST /v1/authorize body=" + json.dumps({"merchant": "acme-eu", "amount": 4999, "card": {"number": sys.argv[1], "exp_month": "09", "cvc": sys.argv[2], "holder": "M. Keller"}}, separators=(",", ":")))', pan, cvc]).toString();
    const shown = new Redactor().maskCommandOutput('grep -m1 authorize logs/gateway-debug.log', log);
    expect(shown).not.toContain(pan);
    expect(shown).toContain('"cvc":"[masked: card security code]"');
    expect(shown).toContain('"exp_month":"09"');
    expect(mayHoldSecret(`card_number: ${pan.replace(/(\d{4})(?=\d)/g, '$1 ')}\n`)).toBe(true);
    for (const t of [`card[number]=${pan}&card[exp_month]=09&card[cvc]=${cvc}&amount=10\n`, `card_number: ${pan.replace(/(\d{4})(?=\d)/g, '$1 ')}\n`]) {
      const out = new Redactor().mask(t);
      expect(out, t).toContain('[masked: card number]');
      expect(out.replace(/\D/g, ''), t).not.toContain(pan);
    }
    const kept = ['cardNumber=4242424242424242 cvc=123\n', `card_number: ${body}${(Number(luhnDigit(body)) + 1) % 10}\n`, 'order card_id=1234567890123456\n', 'masked card: 453977******5633\n', "'card' => ['number' => '5105105105105100', 'cvc' => '123']\n"];
    for (const k of kept) expect(new Redactor().mask(k)).toBe(k);
  });

  it("the own attack on this session's guards (adv170): a label of words before the number, PHP's var_dump of a card, ISO 8583's (PAN), ccnum, a Python dict of a tunnel token, DSM's `did`, grep -rn's file prefix above a key", async () => {
    const { generateMnemonic } = await import('@scure/bip39');
    const { wordlist } = await import('@scure/bip39/wordlists/english.js');
    const words = generateMnemonic(wordlist, 256).split(' ');
    const labelled = words.map((w, i) => `Mnemonic word ${i + 1}: ${w}`).join('\n') + '\n';
    expect(mayHoldSecret(labelled)).toBe(true);
    // The label's own `word` is on the list too: look past the labels and the masks.
    const shownPhrase = new Redactor().mask(labelled).replace(/\[masked: [^\]]+\]/g, '').replace(/^Mnemonic word /gm, '');
    for (const w of words) expect(shownPhrase).not.toMatch(new RegExp(`\\b${w}\\b`));
    const pan = '4539778481545633';
    const forms = [
      `array(2) {\n  ["card_number"]=>\n  string(16) "${pan}"\n  ["cvv"]=>\n  string(3) "316"\n}\n`,
      `DE002 (PAN): ${pan}\nDE004 (Amount): 000000001000\n`,
      `POST /pay body=ccnum=${pan}&exp=0927&cvv2=316\n`,
      `cc_number=${pan}\n`,
    ];
    for (const f of forms) expect(new Redactor().mask(f), f).not.toContain(pan);
    expect(new Redactor().mask(forms[0])).toContain('string(3) "[masked: card security code]"');
    for (const k of [`span: ${pan} expand=${pan}\n`, `ccnumeric=${pan}\n`, `panel=${pan}\n`]) expect(new Redactor().mask(k)).toBe(k);
    const secret = Buffer.from(s(AN, 32)).toString('base64');
    expect(new Redactor().mask(`{'a': '${s(HEX, 32)}', 't': '8df7a1fa-692b-4634-9074-9d485804f7e9', 's': '${secret}'}\n`)).not.toContain(secret);
    const did = s(AN + '_-', 86);
    expect(new Redactor().mask(`{"data":{"did":"${did}","sid":"x"},"success":true}\n`)).not.toContain(did);
    const key = Buffer.from(s(AN, 32)).toString('base64');
    expect(new Redactor().mask(`esphome/door.yaml:1:api:\nesphome/door.yaml-2-  encryption:\nesphome/door.yaml-3-    key: "${key}"\n`)).not.toContain(key);
  });

  it("a dev chain's published phrase under its name is kept (Ganache's `Mnemonic:`, a truffle-config's MNEMONIC=, `using mnemonic=`), as it is bare; one word changed is masked", () => {
    for (const p of ['candy maple cake sugar pudding cream honey rich smooth crumble sweet treat', 'myth like bonus scare over problem client lizard pioneer submit female collect', 'bottom drive obey lake curtain smoke basket hold race lonely fit walk']) {
      for (const t of [`HD Wallet\n==================\nMnemonic:      ${p}\n`, `MNEMONIC="${p}"\n`, `using mnemonic=${p}\n`, `{"mnemonic": "${p}"}\n`]) expect(new Redactor().mask(t)).toBe(t);
      const changed = p.replace(/\w+$/, 'cheese');
      expect(new Redactor().mask(`MNEMONIC="${changed}"\n`)).not.toContain(changed);
    }
  });

  itUnless(missing('jq'))("jq's rows of picked keys with a secret's among them (@tsv, @csv, join) and an object keyed by the data, by real jq", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mish-s33-'));
    try {
      const pws = [s(AN, 18), s(AN, 18)];
      writeFileSync(path.join(dir, 'u.json'), JSON.stringify([{ name: 'svc', role: 'deploy', password: pws[0] }, { name: 'ops', role: 'admin', password: pws[1] }]));
      for (const filter of ['.[] | [.name, .password] | @tsv', '.[] | [.name, .password] | @csv', '.[] | [.name, .password] | join(":")', 'map({(.name): .password}) | add']) {
        const out = execFileSync('jq', ['-r', filter, 'u.json'], { cwd: dir }).toString();
        expect(out).toContain(pws[0]);
        const shown = new Redactor().maskCommandOutput(`jq -r '${filter}' u.json`, out);
        for (const v of pws) expect(shown, filter).not.toContain(v);
      }
      const plain = execFileSync('jq', ['-r', '.[] | [.name, .role] | @tsv', 'u.json'], { cwd: dir }).toString();
      expect(new Redactor().maskCommandOutput("jq -r '.[] | [.name, .role] | @tsv' u.json", plain)).toBe(plain);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("blind pass 171 (frontend tooling): a browser's cookie store by sqlite3, a header's value picked by its name with jq; an extension manifest's public key kept", () => {
    const rows = `localhost|__clerk_db_jwt|dvb_${s(AN, 27)}\n.acme.localhost|user_session|${s(AN, 48)}\n`;
    const shown = new Redactor().maskCommandOutput(`sqlite3 chrome/Cookies "select host_key, name, value from cookies where host_key like '%localhost%'"`, rows);
    for (const v of rows.split('\n').filter(Boolean).map((l) => l.split('|')[2])) expect(shown).not.toContain(v);
    const ff = `host                   name       value\n---------------------  ---------  --------------------------\nlegacy.acme.localhost  PHPSESSID  ${s('abcdefghijklmnopqrstuvwxyz0123456789', 26)}\n`;
    const ffShown = new Redactor().maskCommandOutput("sqlite3 -header -column ff/cookies.sqlite 'select host, name, value from moz_cookies order by host'", ff);
    expect(ffShown).not.toContain(ff.split('\n')[2].split(/\s+/)[2]);
    expect(ffShown.split('\n')[0]).toBe(ff.split('\n')[0]);
    const token = `tok_${s(HEX, 48)}`;
    const picked = new Redactor().maskCommandOutput(`unzip -p t.zip trace.network | jq -r '.snapshot.request.headers[] | select(.name=="cookie" or .name=="authorization") | .value'`, `sid=${s(AN, 20)}\nToken ${token}\n`);
    expect(picked).not.toContain(token);
    expect(new Redactor().maskCommandOutput(`jq -r '.log.entries[].request.headers[] | select(.name=="accept") | .value' x.har`, 'application/json\n')).toBe('application/json\n');
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'der' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
    const manifest = `{\n  "name": "Acme Clipper",\n  "key": "${publicKey.toString('base64')}"\n}\n`;
    expect(new Redactor().mask(manifest)).toBe(manifest);
  });
});

describe('session 34: blind pass 172 (Java and .NET application servers, middleware)', () => {
  it("credentials files of Java servers read by grep (jmxremote.password, users.properties, jetty's realm): each row's password, roles and names kept", () => {
    const [a, b] = [pw(), `Spring${s('0123456789', 3)}#`];
    const jmx = `monitorRole  ${a}\ncontrolRole  ${b}\n`;
    const shown = new Redactor().maskCommandOutput("grep -v '^#' conf/jmxremote.password", jmx);
    expect(shown).toBe('monitorRole  [masked: password printed by grep of a credentials file]\ncontrolRole  [masked: password printed by grep of a credentials file]\n');
    const users = `users.properties:admin=${a}\nusers.properties:orders-producer=${b}\n`;
    const usersShown = new Redactor().maskCommandOutput("grep -H -v -e '^#' users.properties", users);
    for (const v of [a, b]) expect(usersShown).not.toContain(v);
    expect(usersShown).toContain('users.properties:orders-producer=[masked:');
    const realm = `admin: ${a}, admin\nuser: ${b}, user\n`;
    expect(new Redactor().maskCommandOutput('cat etc/jetty-realm.properties', realm)).toMatch(/^admin: \[masked: [^\]]+\], admin\nuser: \[masked: [^\]]+\], user\n$/);
    // Several files at once (ActiveMQ's credentials.properties beside them): every line whole.
    const mixed = `credentials.properties:activemq.username=system\nusers.properties:admin=${a}\njetty-realm.properties:user: ${b}, user\n`;
    const mixedShown = new Redactor().maskCommandOutput("grep -H -v -e '^#' credentials.properties users.properties jetty-realm.properties", mixed);
    for (const v of [a, b]) expect(mixedShown).not.toContain(v);
    // grep -c counts; another properties file's rows stay.
    expect(new Redactor().maskCommandOutput("grep -c . conf/jmxremote.password", '2\n')).toBe('2\n');
    const app = 'server.port=8080\nspring.application.name=orders\n';
    expect(new Redactor().maskCommandOutput('grep -v ^# application.properties', app)).toBe(app);
  });

  it("an Erlang cookie file, a GSKit stash decoded by its script, WebSphere's {xor} decoded: masked; ls beside them kept", () => {
    const cookie = s('ABCDEFGHIJKLMNOPQRSTUVWXYZ', 20);
    expect(new Redactor().maskCommandOutput("grep -nE '^default_' etc/rabbitmq/rabbitmq.conf; cat var/lib/rabbitmq/.erlang.cookie; echo", `3:default_vhost = /orders\n${cookie}\n`)).not.toContain(cookie);
    const stash = pw();
    expect(new Redactor().maskCommandOutput('python3 unstash.py ssl/key.sth', `${stash}\n`)).not.toContain(stash);
    const rows = `Cell02/billing_oracle    BILLING      Harbor2025*\nCell02/sftp_partner      partnerftp   ${pw()}\n`;
    const shown = new Redactor().maskCommandOutput('python3 xordecode.py config/cells/Cell02/security.xml', rows);
    for (const line of rows.split('\n').filter(Boolean)) expect(shown).not.toContain(line.split(/\s+/)[2]);
    // A script that decodes no credential (a JWT's claims, a URL) is no decoder.
    expect(new Redactor().maskCommandOutput('python3 decode_jwt.py token.txt', '{"sub": "alice", "exp": 1700000000}\n')).toBe('{"sub": "alice", "exp": 1700000000}\n');
  });

  it('WebLogic {AES256}, IIS [enc:…:enc], WildFly <secret value=>, WLST connect() by position, GSKit -pw, rootpw and olcRootPW:: under grep prefixes', () => {
    const aes = b64(s(AN, 48));
    const enc = b64(s(AN, 190));
    const secretValue = b64(pw());
    const [wlst, gsk, root] = [pw(), pw(), pw()];
    const olc = b64(pw());
    const text = [
      `orders_domain/config/config.xml:8:    <credential-encrypted>{AES256}${aes}</credential-encrypted>`,
      `5:    <processModel identityType="SpecificUser" userName="CORP\\svc" password="[enc:IISWASOnlyCngProvider:${enc}:enc]" />`,
      `                    <secret value="${secretValue}"/>`,
      `wlst/deploy_orders.py:3:connect('weblogic', '${wlst}', 't3://wls-admin-01.corp.example:7001')`,
      `3:runmqakm -cert -list -db /var/mqm/qmgrs/QM/ssl/key.kdb -pw ${gsk}`,
      `etc/openldap/slapd.conf:5:rootpw ${root}`,
      `etc/openldap/slapd.d/cn=config/olcDatabase={2}mdb.ldif:7:olcRootPW:: ${olc}`,
      '',
    ].join('\n');
    const shown = new Redactor().mask(text);
    for (const v of [aes, enc, secretValue, wlst, gsk, root, olc]) expect(shown, v).not.toContain(v);
    expect(shown).toContain("connect('weblogic', '[masked: password]', 't3://wls-admin-01.corp.example:7001')");
    // Kept: a connect() of a host and a port, a WLST call by name already a rule's, a rootpw hash.
    const kept = "db.connect('orders', 'reporting', 5432)\nrootpw {SSHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=\n";
    expect(new Redactor().mask(kept)).toBe(kept);
  });

  it(".NET's Jwt settings picked alone by jq (Issuer, Audience, Key: no section name printed), a Python table with a PASSWORD column one blank apart", () => {
    const key = b64(s(AN, 64));
    const jwt = `{\n  "Issuer": "https://orders.corp.example",\n  "Audience": "orders-api",\n  "Key": "${key}"\n}\n`;
    expect(new Redactor().maskCommandOutput("jq '.ConnectionStrings, .AzureAd, .Jwt' appsettings.Production.json", jwt)).not.toContain(key);
    // An S3 object's key beside no issuer stays.
    const s3 = '{\n  "Bucket": "orders-exports",\n  "Key": "2024/11/03/orders-000123.csv.gz"\n}\n';
    expect(new Redactor().mask(s3)).toBe(s3);
    const [p1, p2] = [pw(), `Autumn_harbor${s('0123456789', 2)}`];
    const table = [
      'NAME               TYPE                             USER         PASSWORD',
      'UserDatabase       org.apache.catalina.UserDatabase -            -',
      `jdbc/Billing       javax.sql.DataSource             billing_svc  ${p1}`,
      `jdbc/Reporting     javax.sql.DataSource             rpt_reader   ${p2}`,
      '',
    ].join('\n');
    const shown = new Redactor().maskCommandOutput('python3 tools/resources.py conf/server.xml', table);
    for (const v of [p1, p2]) expect(shown).not.toContain(v);
    expect(shown).toContain('UserDatabase       org.apache.catalina.UserDatabase -            -');
  });

  it("an access log's Basic credentials, then decoded by base64 -d in the same output: the user:password lines masked too; Java's default keystore password kept", () => {
    const p = `Spring${s('0123456789', 2)}!`;
    const q = pw();
    const [h1, h2] = [b64(`deployer:${p}`), b64(`svc_batch:${q}`)];
    const out = `10.20.3.14 - svc_batch [03/Nov/2024:10:22:31 +0000] "GET /manager/text/list HTTP/1.1" 200 512 "Basic ${h2}"\n10.20.3.22 - deployer [03/Nov/2024:10:23:02 +0000] "PUT /manager/text/deploy HTTP/1.1" 200 64 "Basic ${h1}"\n---\ndeployer:${p}\nsvc_batch:${q}\n`;
    const shown = new Redactor().maskCommandOutput("tail -n 2 logs/access.log; echo ---; grep -o 'Basic [A-Za-z0-9+/=]*' logs/access.log | sort -u | while read -r _ b; do echo \"$b\" | base64 -d; echo; done", out);
    for (const v of [h1, h2, p, q]) expect(shown, v).not.toContain(v);
    const yml = 'server:\n  ssl:\n    key-store-password: ${KEYSTORE_PASSWORD:changeit}\n';
    expect(new Redactor().maskCommandOutput('cat application.yml', yml)).toBe(yml);
  });
});

describe('session 34: blind pass 173 (Windows administration met from a Linux box)', () => {
  const utf16b64 = (t: string) => Buffer.from(t, 'utf16le').toString('base64');

  it("unattend.xml's <Value> under grep's prefixes and in a diff, its base64 of UTF-16LE anywhere, its decoded `…AdministratorPassword` line; Panther's placeholder kept", () => {
    const [a, b] = [pw(), `EmberMaple${s('0123456789', 2)}*`];
    const grepped = `6:                <Password>\n7-                    <Value>${utf16b64(`${a}Password`)}</Value>\n--\n15:                <AdministratorPassword>\n16-                    <Value>${b}</Value>\n`;
    const shown = new Redactor().mask(grepped);
    for (const v of [utf16b64(`${a}Password`), b]) expect(shown).not.toContain(v);
    const encoded = utf16b64(`${a}AdministratorPassword`);
    const diff = ` <AdministratorPassword>\n-                    <Value>${b}</Value>\n-                    <PlainText>true</PlainText>\n+                    <Value>${encoded}</Value>\n+                    <PlainText>false</PlainText>\n`;
    const diffShown = new Redactor().mask(diff);
    for (const v of [b, encoded]) expect(diffShown).not.toContain(v);
    expect(new Redactor().mask(`${a}AdministratorPassword\n${b}Password\n`)).toBe('[masked: windows setup password]AdministratorPassword\n[masked: windows setup password]Password\n');
    // Identifiers ending in Password, Panther's log's placeholder, an encoded PowerShell command with no credential.
    const kept = `ResetPassword\nChangePassword\n7-                    <Value>*SENSITIVE*DATA*DELETED*</Value>\npowershell -EncodedCommand ${utf16b64('Get-Service | Where-Object Status -eq Running')}\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("a DPAPI blob (Export-Clixml's <SS N=\"Password\">), VNC's PasswordViewOnly bytes, impacket's targets and hashes, %SQLCMD% -P, schtasks /rp *…", () => {
    const dpapi = `01000000d08c9ddf0115d1118c7a00c04fc297eb01000000${s(HEX, 300)}`;
    const view = Array.from({ length: 8 }, () => s(HEX, 2)).join(',');
    const [p1, p2] = [pw(), `*${s(AN, 13)}`];
    const [nt1, nt2] = [s(HEX, 32), s(HEX, 32)];
    const text = [
      `      <SS N="Password">${dpapi}</SS>`,
      `"PasswordViewOnly"=hex:${view}`,
      `impacket-psexec 'corp.local/administrator:${p1}@10.20.0.5'`,
      `impacket-wmiexec -hashes aad3b435b51404eeaad3b435b51404ee:${nt1} corp.local/svc_backup@10.20.0.12`,
      `evil-winrm -i 10.20.0.5 -u administrator -H ${nt2}`,
      `4:%SQLCMD% -S SQL01\\PROD -U backup_op -P ${p1} -b -Q "BACKUP DATABASE [ERP]"`,
      `schtasks /create /tn "Upload" /ru CORP\\svc /rp ${p2} /rl highest /f`,
      '',
    ].join('\n');
    const shown = new Redactor().mask(text);
    for (const v of [dpapi, view, p1, p2, nt1, nt2]) expect(shown, v).not.toContain(v);
    expect(shown).toContain('-hashes aad3b435b51404eeaad3b435b51404ee:[masked: nt hash]');
    // schtasks' `/rp *` prompts for the password: kept.
    expect(new Redactor().mask('schtasks /create /tn x /ru CORP\\svc /rp * /f\n')).toBe('schtasks /create /tn x /ru CORP\\svc /rp * /f\n');
  });

  it("a stored password decoded by a one-off (FileZilla's Pass, a VNC decrypter), a Basic header decoded after it, a signed .rdp's signature kept", () => {
    const p = pw();
    const code = "python3 -c \"import base64, xml.etree.ElementTree as ET; [print(s.findtext('Host'), s.findtext('User'), base64.b64decode(s.findtext('Pass')).decode()) for s in ET.parse('recentservers.xml').iter('Server')]\"";
    expect(new Redactor().maskCommandOutput(code, `10.20.0.44 scanner ${p}\n`)).not.toContain(p);
    expect(new Redactor().maskCommandOutput('python3 vncpwd.py ultravnc.ini', `passwd   3F9474273D29492F00 -> ${p}\n`)).not.toContain(p);
    const basic = b64(`svc_nexus:${p}`);
    const out = `2:$headers = @{ Authorization = "Basic ${basic}" }\nsvc_nexus:${p}\n`;
    const shown = new Redactor().maskCommandOutput("grep -n Authorization sync.ps1; grep -o 'Basic [A-Za-z0-9+/=]*' sync.ps1 | cut -d' ' -f2 | base64 -d; echo", out);
    for (const v of [basic, p]) expect(shown).not.toContain(v);
    const rdp = `full address:s:rds01.corp.local\nsignscope:s:Full Address,Alternate Full Address\nsignature:s:AQABAAEAAAA${s(B64, 400)}==\n`;
    expect(new Redactor().mask(rdp)).toBe(rdp);
  });
});

describe("session 34: the own attack on this session's guards (adv174: 50 forms, 13 through → 3)", () => {
  it('WLST with variables, every GSKit -pw of a line, getTGT with no host, rdesktop, SqlPackage, keyed SecureStrings and DPAPI in base64, a YAML Jwt, a letters-only setup password, a decoder run directly', () => {
    const [a, b, c, d, e] = [pw(), pw(), pw(), pw(), pw()];
    const keyed = `76492d1116743f0423413b16050a5345MgB8${b64(s(AN, 60))}`;
    const dpapi = `AQAAANCMnd8BFdERjHoAwE/Cl+sBAAAA${s(B64, 200)}`;
    const jwtKey = b64(s(AN, 64));
    const text = [
      `wlst/b.py:9:connect(adminUser, '${a}', adminUrl)`,
      `gsk8capicmd_64 -keydb -changepw -db key.kdb -pw ${b} -new_pw ${c}`,
      `getTGT.py 'corp.local/svc_sql:${d}' -dc-ip 10.0.0.5`,
      `rdesktop -u administrator -p '${e}' rds01`,
      `sqlpackage /a:Publish /sf:db.dacpac /tsn:db01 /tu:sa /tp:${a}`,
      keyed,
      dpapi,
      'Issuer: https://idp.corp.example',
      'Audience: orders',
      `Key: ${jwtKey}`,
      'GraniteMeadowAdministratorPassword',
      '',
    ].join('\n');
    const shown = new Redactor().mask(text);
    for (const v of [a, b, c, d, e, keyed, dpapi, jwtKey, 'GraniteMeadow']) expect(shown, v).not.toContain(v);
    expect(new Redactor().maskCommandOutput('./gpp-decrypt.py j1Uyj3Vx8TY9LtLZil2uAuZkFQA', `${a}\n`)).not.toContain(a);
    // Kept: a database connect() by host and port variables, a YAML key beside no issuer, an identifier ending in AdministratorPassword's words alone.
    const kept = "conn = db.connect(host, 'orders', port)\nBucket: exports\nKey: 2024/11/03/orders.csv.gz\n";
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe("session 35: the own attack's three left (adv174)", () => {
  it("a Java server's credentials files under grep -r's prefix: each row's password, the roles and users kept; a role not remembered", () => {
    const [a, b, c, d] = [pw(), pw(), pw(), pw()];
    const out = [
      `conf/jmxremote.password:monitorRole  ${a}`,
      `conf/jmxremote.access:monitorRole   readonly`,
      `conf/activemq/users.properties:12:admin=${b}, admin`,
      `etc/jetty-realm.properties:admin: ${c}, server-administrator`,
      `/etc/rsyncd.secrets:backup:${d}`,
      '',
    ].join('\n');
    const shown = new Redactor().maskCommandOutput('grep -rn . conf/ etc/', out);
    for (const v of [a, b, c, d]) expect(shown).not.toContain(v);
    for (const kept of ['conf/jmxremote.password:monitorRole  [masked', 'conf/jmxremote.access:monitorRole   readonly', 'users.properties:12:admin=[masked', ', admin', '/etc/rsyncd.secrets:backup:[masked']) expect(shown).toContain(kept);
  });

  it("a base64 decoder's user:password line (Basic decoded from a value never shown encoded), Python's bytes too; a digest, a URN, a host:port kept", () => {
    const p = pw();
    for (const [cmd, out] of [
      [`echo ${b64(`svc_nexus:${p}`)} | base64 -d`, `svc_nexus:${p}`],
      [`python3 -c 'import base64;print(base64.b64decode("x"))'`, `b'svc_nexus:${p}'\n`],
      [`node -e 'console.log(Buffer.from(process.argv[1], "base64").toString())' x`, `svc_nexus:${p}\n`],
    ]) {
      const shown = new Redactor().maskCommandOutput(cmd, out);
      expect(shown, cmd).not.toContain(p);
      expect(shown, cmd).toContain('svc_nexus:[masked: password');
    }
    const kept = ['sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', 'urn:uuid:123e4567-e89b-12d3-a456-426614174000', 'db.internal:5432', 'nginx:1.25.3', 'arn:aws:iam::123456789012:role/x', 'https://example.com/a'];
    for (const k of kept) expect(new Redactor().maskCommandOutput('echo x | base64 -d', `${k}\n`)).toBe(`${k}\n`);
  });

  it("strings of a registry hive: the data under a value's name that says password; other names' data kept", () => {
    const p = pw();
    const out = `DefaultUserName\nAdministrator\nDefaultDomainName\nCORP\nDefaultPassword\n${p}\nPasswordExpiryWarning\n14\n`;
    const shown = new Redactor().maskCommandOutput('strings -el NTUSER.DAT | grep -A1 Default', out);
    expect(shown).not.toContain(p);
    expect(shown).toContain('DefaultUserName\nAdministrator\nDefaultDomainName\nCORP\nDefaultPassword\n[masked');
    expect(shown).toContain('PasswordExpiryWarning\n14\n');
  });
});

describe("session 35: pass 171's leftovers (frontend tooling)", () => {
  it("an environment read's literal fallback under a setting's plain name (wdio's key: process.env.BROWSERSTACK_ACCESS_KEY || '…'); a URL's fallback and a placeholder kept", () => {
    const k = s(AN, 20);
    const text = `    key: process.env.BROWSERSTACK_ACCESS_KEY || '${k}',\n    other: os.environ.get("STRIPE_SECRET_KEY") or "${k}x"\n`;
    const shown = new Redactor().mask(text);
    expect(shown).not.toContain(k);
    const kept = "url: process.env.API_URL || 'http://localhost:3000',\nkey: process.env.SAUCE_ACCESS_KEY || 'YOUR_ACCESS_KEY',\nname: process.env.KEY_NAME || 'production-signing',\n";
    expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("a Rails session cookie by its shape under the app's own cookie name (AES-GCM data--iv--tag, URL-encoded or not; 4.x's data--HMAC); command lines with -- kept", () => {
    const b = (n: number) => Buffer.from(s(AN, n)).toString('base64').replace(/=+$/, '');
    const gcm = `${b(96)}--${b(12)}--${b(16)}==`;
    const encoded = gcm.replace(/\+/g, '%2B').replace(/\//g, '%2F').replace(/=/g, '%3D');
    const old = `${b(60)}--${s(HEX, 40)}`;
    for (const v of [gcm, encoded, old]) {
      const shown = new Redactor().mask(`localhost\t_shopfront_session=${v}\n{"name":"_shopfront_session","value":"${v}"}\n`);
      expect(shown, v).not.toContain(v.slice(0, 24));
    }
    const kept = 'git log --oneline -- src/a.ts\nnpm install --save-dev --ignore-scripts\n----------------------------------------\n';
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe("session 34: a printer's many values all mask its output (the session remembers 128: fail closed under volume)", () => {
  const rows = Array.from({ length: 300 }, (_, i) => `user${i}:${s(AN, 16)}`);
  const out = `${rows.join('\n')}\n`;
  const leaked = (shown: string) => rows.filter((r) => shown.includes(r.split(':')[1])).length;

  it('the hooked CLI\'s path: maskCommandOutput of 300 rows masks all 300; mish\'s own lines after a jmx file\'s rows kept', () => {
    expect(leaked(new Redactor().maskCommandOutput('cat /etc/rsyncd.secrets', out))).toBe(0);
    const jmx = `${Array.from({ length: 300 }, (_, i) => `role${i}  ${s(AN, 16)}`).join('\n')}\n[mish: lines 101-200 omitted (100 lines, 3KB); read them: mish raw c1 --lines 101-200]\n[exit 0 · 300 lines]\n`;
    const shown = new Redactor().maskCommandOutput("grep -v '^#' conf/jmxremote.password", jmx);
    expect(shown).toContain('\n[exit 0 · 300 lines]\n');
    expect(shown).toContain('[mish: lines 101-200 omitted');
  });

  it("the server's path: a command's stream learns 300 printed values, the reply masked later holds none of them", () => {
    const r = new Redactor();
    r.noteCommand('c1', 'cat /etc/rsyncd.secrets');
    r.stream('c1').pushBytes(Buffer.from(out));
    expect(leaked(r.mask(`${out}[exit 0 · 300 lines]\n`))).toBe(0);
  });
});

describe("session 36: pass 176's leftovers (mobile app build and release)", () => {
  const k = () => s(AN + '_-', 37);

  it("masks CodePush's deployment keys in its deployments table (the Key column beside CodePush's own titles); a Key column of other tables kept", () => {
    const a = k(), b = k();
    const table = `┌────────────┬───────────────────────────────────────┬─────────────────────┬──────────────────────┐\n│ Name       │ Key                                   │ Update Metadata     │ Install Metrics      │\n├────────────┼───────────────────────────────────────┼─────────────────────┼──────────────────────┤\n│ Production │ ${a} │ Label: v42          │ Active: 61% (18,213) │\n│            │                                       │ App Version: 4.12.0 │ Total: 29,871        │\n├────────────┼───────────────────────────────────────┼─────────────────────┼──────────────────────┤\n│ Staging    │ ${b} │ Label: v57          │ Active: 3% (41)      │\n└────────────┴───────────────────────────────────────┴─────────────────────┴──────────────────────┘\n`;
    const shown = new Redactor().mask(table);
    for (const v of [a, b]) expect(shown).not.toContain(v);
    expect(shown).toContain('│ Production │ [masked: codepush deployment key] │ Label: v42 ');
    expect(mayHoldSecret(table)).toBe(true);
    const jira = '| Key      | Summary                              | Status      |\n| PROJ-123 | Rotate signing config for release    | In Progress |\n| PROJ-124 | 0f3c9a8e1b2d4c5f6a7b8c9d0e1f2a3b4c5d | Done        |\n';
    expect(new Redactor().mask(jira)).toBe(jira);
  });

  it("masks a plist's value on the line under its key in grep -A's output, and a fastlane log's printed password under its command (grep -n's prefixes or not)", () => {
    const v = k(), p = `${s('abcdefghijklmnopqrstuvwxyz', 4)}-${s('abcdefghijklmnopqrstuvwxyz', 4)}-${s('abcdefghijklmnopqrstuvwxyz', 4)}-${s('abcdefghijklmnopqrstuvwxyz', 4)}`;
    const plist = `ios/Shop/Info.plist:6:\t<key>CodePushDeploymentKey</key>\nios/Shop/Info.plist-7-\t<string>${v}</string>\n`;
    expect(new Redactor().mask(plist)).toBe(plist.replace(v, '[masked: key]'));
    for (const log of [`[09:14:00]: $ security find-generic-password -a ci@acme.io -s AC_PASSWORD -w\n[09:14:01]: ▸ ${p}\n`, `4:[09:14:00]: $ security find-generic-password -a ci@acme.io -s AC_PASSWORD -w\n5-[09:14:01]: ▸ ${p}\n[09:14:02]: Successfully uploaded the build\n`, `2024-05-01T10:00:00.1234567Z [09:14:00]: $ security find-generic-password -s AC -w\n2024-05-01T10:00:01.1234567Z [09:14:01]: ▸ ${p}\n`]) {
      const shown = new Redactor().mask(log);
      expect(shown, log).not.toContain(p);
      expect(shown).toContain('▸ [masked: password printed by security find-generic-password -w]\n');
    }
  });
});

describe("session 36: pass 177's leftovers (media servers, game development, live streaming)", () => {
  const hex = (n: number) => s(HEX, n);
  it('masks a tracker passkey, a Steam Guard revocation code, a Plex claim token, a Restream key, an OBS profile\'s stream key beside its RTMP server, transmission-remote\'s -n password', () => {
    const passkey = hex(32), claim = `claim-${s(AN, 19)}7`, restream = `re_${s('0123456789', 7)}_${hex(20)}`, yt = `${s('abcdefghijklmnopqrstuvwxyz0123456789', 4)}-${s('abcdefghijklmnopqrstuvwxyz0123456789', 4)}-${s('abcdefghijklmnopqrstuvwxyz0123456789', 4)}-${s('abcdefghijklmnopqrstuvwxyz0123456789', 4)}-${s('abcdefghijklmnopqrstuvwxyz0123456789', 4)}`, rpc = `Lantern.${s(AN, 8)}91`;
    const cases: [string, string, string][] = [
      ['jq .', `{\n  "extraFieldData": {\n    "passkey": "${passkey}",\n    "freeleech": false\n  }\n}\n`, passkey],
      ['jq .', `{\n  "account_name": "kestrel_build",\n  "revocation_code": "R55914"\n}\n`, 'R55914'],
      ['base64 -d', `${claim}\n`, claim],
      ['grep -rn key obs/', `obs/Restream/service.json:1:{"settings":{"key":"${restream}","server":"rtmp://live.restream.io/live"}}\n`, restream],
      ['cat service.json', `{\n    "settings": {\n        "key": "${yt}",\n        "server": "rtmp://a.rtmp.youtube.com/live2",\n        "service": "YouTube - RTMPS"\n    },\n    "type": "rtmp_common"\n}\n`, yt],
      ['grep transmission ps.txt', `abc 9981 0.0 0.0 8840 3300 pts/0 S+ 21:40 0:00 transmission-remote 127.0.0.1:9091 -n transmission:${rpc} -l\n`, rpc],
    ];
    for (const [cmd, out, v] of cases) expect(new Redactor().maskCommandOutput(cmd, out), cmd).not.toContain(v);
    const kept = '{\n  "settings": {\n    "key": "",\n    "server": "rtmp://a.rtmp.youtube.com/live2"\n  },\n  "type": "rtmp_common"\n}\nclaim-check: enabled\n';
    expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("masks a temporary password after the words that say where it is (not the word), a YAML list under grep -A, xxd -c 64's column, a *creds file; 'password is incorrect' kept", () => {
    const tmp = s(AN, 9), k1 = hex(40), k2 = hex(40), steam = hex(32).toUpperCase(), butler = s(AN, 40);
    const q = new Redactor().mask(`The WebUI administrator password was not set. A temporary password is provided for this session: ${tmp}\n`);
    expect(q).not.toContain(tmp);
    expect(q).toContain('password is provided for this session: [masked: password]');
    const list = new Redactor().mask(`Settings.asset:8:  secretKey:\nSettings.asset-9-  - ${k1}\nSettings.asset-10-  - ${k2}\nSettings.asset-11-  Platforms: 0b0000000d000000\n`);
    for (const v of [k1, k2]) expect(list).not.toContain(v);
    expect(list).toContain('Platforms: 0b0000000d000000');
    const row = Buffer.concat([Buffer.from(`steam_webapi_key=${steam}`), Buffer.alloc(64 - 17 - 32)]);
    const xxd = `00000040: ${row.toString('hex').replace(/(.{4})/g, '$1 ').trim()}  ${row.toString('latin1').replace(/[^\x20-\x7e]/g, '.')}\n`;
    expect(new Redactor().maskCommandOutput('xxd -c 64 cfg.bin', xxd)).not.toContain(steam);
    expect(new Redactor().maskCommandOutput('cat .config/itch/butler_creds; echo', `${butler}\n`)).not.toContain(butler);
    const kept = 'Your password is incorrect.\nThe password is required\n';
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe("session 36: pass 178's leftovers (chat and mail servers)", () => {
  it("masks register_new_matrix_user's -p and -k, prosodyctl register's password, ZNC's server and nickserv passwords, mmctl token generate's token; Olm's public keys and a bare Server line kept", () => {
    const pw = `falcon-Pepper-${s('0123456789', 2)}`, shared = `${s(AN, 20)}*q=,&@`, prosody = s(HEX, 32), nick = `Mosaic.granite#${s('0123456789', 3)}`, srv = s(AN, 18), bnc = `tundra${s('0123456789', 4)}!`, mm = s('abcdefghijklmnopqrstuvwxyz0123456789', 26);
    const out = `3:register_new_matrix_user -u ci-bot -p '${pw}' -a -k '${shared}' http://localhost:8008\n5:prosodyctl register focus auth.meet.example.org ${prosody}\n18:\t\tLoadModule = nickserv ${nick}\n25:\t\tServer = irc.oftc.net +6697 ${srv}\n29:\t\tServer = bnc.example.org +7000 admin/oftc:${bnc}\n`;
    const shown = new Redactor().maskCommandOutput('grep -n -E "register|Server|LoadModule" notes.txt', out);
    for (const v of [pw, shared, prosody, nick, srv, bnc]) expect(shown, v).not.toContain(v);
    expect(new Redactor().maskCommandOutput('./mmctl token generate ci-bot "deploy hook"', `${mm}: deploy hook\n`)).toBe('[masked: token printed by mmctl token generate]: deploy hook\n');
    const kept = 'server = ntp.example.org iburst\nServer = irc.libera.chat +6697\n  "sender_key": "IrN3UHkU9Ho9Q3SfUqHMcI86mgYrB9AIgOGIQPw0PI4",\n  "identity_key": "IrN3UHkU9Ho9Q3SfUqHMcI86mgYrB9AIgOGIQPw0PI4"\n';
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe("session 36: mobile release command lines (pass 176's what-to-try-next)", () => {
  it("masks CodePush's --deploymentKey and other camelCase --…Key/--…Secret flags, expo login's password, an EAS secret's value; record keys, public keys, a plain EAS variable and a reference kept", () => {
    const v = () => s(AN, 24);
    const [a, b, c, d, e] = [v(), v(), v(), v(), v()];
    const lines = `code-push release-react MyApp-iOS ios --deploymentKey ${a}\n+ tool upload --clientSecret=${b} --verbose\nexpo login -u dev -p ${c}\neas secret:create --scope project --name SENTRY_AUTH_TOKEN --value ${d} --type string\neas env:create --name TOKEN --visibility secret --value ${e}\n`;
    const shown = new Redactor().mask(lines);
    for (const x of [a, b, c, d, e]) expect(shown, x).not.toContain(x);
    const kept = 'aws dynamodb query --partitionKey user1234567890abcdef --table x\ncli --publicKey MCowBQYDK2VwAyEA1234567890abcdef\neas env:create --name API_URL --value https://api.acme.io\neas secret:create --name X --value $SECRET\ntool --cacheKey build-1234567890abcdef\n';
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe("session 36: a DSN that is a URL shows its host and project (pass 176 L14)", () => {
  it("masks a Sentry DSN's key and a database DSN's user part only; a DSN that is no URL masked whole as before", () => {
    const key = s(HEX, 32), secret = s(HEX, 32), pw = s(AN, 16);
    const shown = new Redactor().mask(`  dsn: 'https://${key}@o4679565545476671.ingest.de.sentry.io/7621319122983370',\nSENTRY_DSN=https://${key}:${secret}@sentry.acme.io/12\nDATABASE_DSN=postgres://app:${pw}@db.internal:5432/app\nPDO_DSN=mysql:host=db;dbname=shop;password=${pw}\n`);
    for (const v of [key, secret, pw]) expect(shown).not.toContain(v);
    expect(shown).toContain("dsn: 'https://[masked: dsn]@o4679565545476671.ingest.de.sentry.io/7621319122983370',\n");
    expect(shown).toContain('SENTRY_DSN=https://[masked: dsn]@sentry.acme.io/12\n');
    expect(shown).toContain('@db.internal:5432/app\n');
    // The stream (mish serve's learn-only pass over the raw output) learns the user part too, not the whole URL.
    const line = `4:  dsn: 'https://${key}@o4679565545476671.ingest.de.sentry.io/7621319122983370',\n`;
    const r = new Redactor();
    r.noteCommand('c1', 'grep -n dsn src/sentry.ts');
    r.stream('c1').pushBytes(Buffer.from(line));
    expect(r.mask(line)).toBe(line.replace(key, '[masked: dsn]'));
  });
});

describe("session 36: pass 175's leftover (integration platforms' webhooks)", () => {
  it("masks a webhook URL whose path or host is the capability: Make's (any zone, Integromat's), IFTTT's key, Pipedream's endpoint; their docs' hosts and ids kept", () => {
    const lower = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const make = s(lower, 32), legacy = s(lower, 32), ifttt = s(AN + '_-', 22), pd = `eo${s(lower, 16)}`;
    const out = `.env:1:MAKE_WEBHOOK_URL=https://hook.eu1.make.com/${make}\nscripts/notify.sh:4:curl -X POST https://hook.integromat.com/${legacy} -d @payload.json\nIFTTT: https://maker.ifttt.com/trigger/door_opened/with/key/${ifttt}\nsource: https://${pd}.m.pipedream.net\n`;
    const shown = new Redactor().maskCommandOutput('grep -rn -i hook scripts/ .env', out);
    for (const v of [make, legacy, ifttt, pd]) expect(shown, v).not.toContain(v);
    expect(shown).toContain('https://hook.eu1.make.com/[masked: make webhook]');
    expect(mayHoldSecret(out)).toBe(true);
    const kept = 'See https://www.make.com/en/help/tools/webhooks and https://maker.ifttt.com/use/ for setup.\nhttps://pipedream.com/docs/workflows/triggers\n';
    expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("masks the other automation hooks whose URL is the capability: Teams' incoming webhook (both hosts), Airtable's, Netlify's build hook; the team's GUID and the hosts kept", () => {
    const g = () => `${s(HEX, 8)}-${s(HEX, 4)}-4${s(HEX, 3)}-a${s(HEX, 3)}-${s(HEX, 12)}`;
    const team = g(), tenant = g();
    const teamsOld = `${s(HEX, 32)}/${g()}`, teamsNew = `${s(HEX, 32)}/${g()}/V2${s(AN + '_-', 43)}`;
    const airtable = `app${s(AN, 14)}/wfl${s(AN, 14)}/wtr${s(AN, 14)}`, netlify = s(HEX, 24);
    const out = `TEAMS_WEBHOOK_URL=https://outlook.office.com/webhook/${team}@${tenant}/IncomingWebhook/${teamsOld}\nteams: https://acme.webhook.office.com/webhookb2/${team}@${tenant}/IncomingWebhook/${teamsNew}\n  "url": "https://hooks.airtable.com/workflows/v1/genericWebhook/${airtable}",\ncurl -X POST -d {} https://api.netlify.com/build_hooks/${netlify}\n`;
    const shown = new Redactor().mask(out);
    for (const v of [teamsOld, teamsNew, airtable, netlify]) expect(shown, v).not.toContain(v.slice(-12));
    expect(shown).toContain(`https://outlook.office.com/webhook/${team}@${tenant}/IncomingWebhook/[masked: teams webhook]\n`);
    expect(shown).toContain('https://api.netlify.com/build_hooks/[masked: netlify build hook]\n');
  });

  it("a JAAS line inside a connector's JSON (escaped quotes): the password masked between its quotes, the JSON left whole", () => {
    const p = s(AN, 32);
    const line = `    "sasl.jaas.config": "org.apache.kafka.common.security.plain.PlainLoginModule required username=\\"${s('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 16)}\\" password=\\"${p}\\";",\n`;
    const shown = new Redactor().mask(`{\n  "config": {\n${line}    "tasks.max": "1"\n  }\n}\n`);
    expect(shown).toContain(' password=\\"[masked: password]\\";",\n');
    expect(shown).not.toContain(p);
  });
});

describe("session 37: pass 179 (research computing)", () => {
  it("masks a bare `key` shaped like an API key beside its service's url or its account: .cdsapirc, .ecmwfapirc, Galaxy's .parsec.yml, bioblend's object; a key beside nothing, or a word, kept", () => {
    const cds = `704903:${uuid()}`, ecmwf = s(HEX, 32), parsec = s(HEX, 32), bio = s(HEX, 32);
    const out = `url: https://cds.climate.copernicus.eu/api/v2\nkey: ${cds}\n---\n{\n    "url"   : "https://api.ecmwf.int/v1",\n    "key"   : "${ecmwf}",\n    "email" : "jane.doe@uni.edu"\n}\n---\n__default: main\nmain:\n    key: ${parsec}\n    url: https://usegalaxy.org\n---\n{ url: 'https://usegalaxy.eu', key: '${bio}', verify: true }\n`;
    const shown = new Redactor().mask(out);
    for (const v of [cds, ecmwf, parsec, bio]) expect(shown, v).not.toContain(v);
    expect(shown).toContain('key: [masked: api key]\n');
    // A cache's or a list's key (no service's address, no account beside it; a word; a path) stays.
    const kept = `cache:\n  key: ${s(HEX, 32)}\n  paths: [node_modules]\n{ id: 7, key: 'settings.title', url: '/settings' }\nurl: https://x.example\nkey: uploads/2024/report.pdf\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("masks a dict whose keys are the tokens (JupyterHub's api_tokens, on grep -A's lines too), R's `token <- \"…\"`, `dvc remote modify … secret_access_key <v>`, MATLAB's installation key and Mathematica's mathpass; R's calls kept", () => {
    const t1 = s(HEX, 32), t2 = s(HEX, 32), r = s(HEX, 32), dvc = s(AN, 40);
    const key = Array.from({ length: 26 }, () => s('0123456789', 5)).join('-'), math = `${s('0123456789', 4)}-${s('0123456789', 3)}-${s('0123456789', 3)}:2,0,8,8:80001:20270101`;
    const shown = new Redactor().maskCommandOutput('grep -A3 api_tokens jupyterhub_config.py', `c.JupyterHub.api_tokens = {\n    '${t1}': 'grader',\n    "${t2}": "monitor",\n}\n`);
    for (const v of [t1, t2]) expect(shown, v).not.toContain(v);
    expect(shown).toContain("'[masked: token]': 'grader',\n");
    const code = `token <- "${r}"\nres <- GET(url, add_headers(Authorization = paste("token", token)))\nout <- content(res, token = token)$data\n`;
    const shownR = new Redactor().mask(code);
    expect(shownR).not.toContain(r);
    expect(shownR).toContain('add_headers(Authorization = paste("token", token)))\nout <- content(res, token = token)$data\n');
    expect(new Redactor().mask(`  503  dvc remote modify --local s3store secret_access_key ${dvc}\n  504  dvc remote modify s3store endpointurl https://minio.local\n`)).toBe('  503  dvc remote modify --local s3store secret_access_key [masked: access key]\n  504  dvc remote modify s3store endpointurl https://minio.local\n');
    expect(new Redactor().mask(`destinationFolder=/opt/matlab\nfileInstallationKey=${key}\nagreeToLicense=yes\n`)).not.toContain(key);
    const m = new Redactor().maskCommandOutput('cat ~/.Mathematica/Licensing/mathpass', `math-node1\t6512-83391-90431\t${math}\n`);
    expect(m).not.toContain(math);
    expect(m).toContain('math-node1\t6512-83391-90431\t[masked:');
  });
});

describe("session 37: the own attack's leftovers (adv180)", () => {
  it("masks Make's webhook in JSON's escaped slashes, IFTTT's key after the event's placeholder, a tracker's passkey in a bencoded announce URL, Groovy's '\"…\"' resValue", () => {
    const make = s(LOWER_AN, 32), ifttt = s(AN, 22), pk = s(LOWER_AN, 31) + '7', cp = s(AN, 32);
    const r = new Redactor();
    const json = `{"flow":[{"module":"http","mapper":{"url":"https:\\/\\/hook.eu1.make.com\\/${make}","method":"post"}}]}\n`;
    expect(r.mask(json)).not.toContain(make);
    for (const ev of ['{event}', '%s', '<event>']) expect(r.mask(`url = f"https://maker.ifttt.com/trigger/${ev}/with/key/${ifttt}"\n`)).not.toContain(ifttt);
    const torrent = `b'd8:announce76:https://tracker.example.org/announce/${pk}/announce13:creation datei1700000000e'\n`;
    expect(r.mask(torrent)).toBe(torrent.replace(pk, '[masked: tracker passkey]'));
    expect(r.mask(`https://tracker.example.org/announce/${pk}\n`)).not.toContain(pk);
    expect(r.mask(`41:            resValue "string", "CodePushDeploymentKey", '"${cp}"'\n`)).toBe(`41:            resValue "string", "CodePushDeploymentKey", '"[masked: key]"'\n`);
    const kept = 'udp://tracker.opentrackr.org:1337/announce\nhttps://acme.example/announce/2024-release-notes\nhttps://maker.ifttt.com/use/\n';
    expect(r.mask(kept)).toBe(kept);
  });

  it("masks a test grid's key above its user and TOML's username/key, and a password on the line under `Initial password is printed below:`", () => {
    const k1 = s(AN, 19) + '4', k2 = s(AN, 19) + '5', pw = s(AN, 44);
    const shown = new Redactor().mask(`exports.config = {\n    key: '${k1}',\n    user: 'janedoe_Xk3',\n}\n[browserstack]\nusername = "janedoe_Xk3"\nkey = "${k2}"\n`);
    for (const v of [k1, k2]) expect(shown, v).not.toContain(v);
    const log = `Initial password is printed below:\n${pw}\nNOTE: this file will be deleted in the first reconfigure run after 24 hours.\n`;
    expect(new Redactor().mask(log)).toBe(log.replace(pw, '[masked: password]'));
    const kept = 'The changelog is printed below:\nrelease-2024-11-29-abcdef\n';
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe("session 37: pass 181 (network gear and edge infrastructure)", () => {
  it("masks IOS' SNMP communities (under grep's and a diff's prefixes, a trap host's), IKEv2's local/remote keys, NTP's key, an AP's wpa-psk, Junos' community block, keepalived's auth_pass; hashes, names and public keys kept", () => {
    const [c1, c2, c3, c4, j] = [s(AN, 12) + '!', s(AN, 14), s(AN, 12), s(AN, 13), `Lantern-27-${s(LOWER_AN, 5)}`];
    const [psk1, psk2, ntp, wpa, wpa2, vrrp] = [s(AN, 20), s(AN, 20), s('0123456789ABCDEF', 22), s(AN, 14), s(AN, 14), s(AN, 8)];
    const cfg = `79:snmp-server community ${c1} RO 10\n80:snmp-server community ${c2} RW 11\n83:snmp-server host 10.20.0.50 version 2c ${c1}\n-snmp-server community ${c3} RO 10\n+snmp-server community ${c4} RO 10\n49:  pre-shared-key local ${psk1}\n50:  pre-shared-key remote ${psk2}\n85:ntp authentication-key 1 md5 ${ntp} 7\n-   wpa-psk ascii 0 ${wpa}\n+   wpa-psk ascii 7 ${wpa2}\n    community ${j} {\n        authorization read-only;\n9-        auth_pass ${vrrp}\n`;
    const shown = new Redactor().mask(cfg);
    for (const v of [c1, c2, c3, c4, j, psk1, psk2, ntp, wpa, wpa2, vrrp]) expect(shown, v).not.toContain(v);
    expect(shown).toContain('83:snmp-server host 10.20.0.50 version 2c [masked: snmp community]\n');
    expect(shown).toContain('  pre-shared-key local [masked: ike pre-shared key]\n');
    const kept = `23:enable secret 5 $1$rFIfTc4p$TZJaPyWXad3AUj9v92x7u1\n81:snmp-server location DC1-Row4-Rack12\nsnmp-server host 10.0.0.9 version 3 priv noc-v3\n    community MY-COMM members 65000:100;\n        auth_type PASS\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("masks VyOS' quoted secrets, OPNsense's key file (`key=` above `secret=`), PAN-OS' LUFRPT key, an OpenVPN credentials file; a VyOS public key kept", () => {
    const wg = `${s(B64, 43)}=`, psk = `9=L%${s(AN, 20)}#K`, opn = s(AN, 40) + '/' + s(AN, 39), opnSecret = s(AN, 80), pan = `LUFRPT${s(AN, 60)}==`, ovpn = `Orbit-${s(AN, 10)}@`;
    const vyos = `set interfaces wireguard wg0 private-key '${wg}'\nset vpn ipsec authentication psk HQ secret '${psk}'\nset interfaces wireguard wg0 peer hq public-key 'Bq2${s(AN, 40)}='\n`;
    const shown = new Redactor().mask(vyos);
    for (const v of [wg, psk]) expect(shown, v).not.toContain(v);
    expect(shown).toContain("public-key 'Bq2");
    expect(new Redactor().maskCommandOutput('cat OPNsense.internal_root_apikey.txt', `key=${opn}\nsecret=${opnSecret}\n`)).toBe('key=[masked: api key]\nsecret=[masked: secret]\n');
    expect(new Redactor().mask(`<response status = 'success'><result><key>${pan}</key></result></response>\n`)).toContain('<key>[masked: pan-os api key]</key>');
    expect(new Redactor().maskCommandOutput('grep -n auth-user-pass client.ovpn; cat edge.pass', `5:auth-user-pass /etc/openvpn/client/edge.pass\nana.kowalski\n${ovpn}\n`)).not.toContain(ovpn);
  });
});

describe("session 37: pass 182 (content management and business applications)", () => {
  it("masks wp-cli's config table's values with their blanks, Magento's rotated crypt key over two lines, HANA's hdbsql -p and hdbuserstore SET, NetSuite's token id beside its secret, Moodle's password salt", () => {
    const nonce = `H!bBtl#8oJv+bX$Bhk${s(AN, 14)} P#kJ&5OKJv=OlZ-%6)5gFi.#%0C<L[q`, oldKey = s(HEX, 32), newKey = `base64${s(AN, 43)}=`;
    const [h1, h2, tok, salt] = [`Nutmeg_${s(AN, 8)}#`, `Kestrel_${s(AN, 8)}!`, s(HEX, 64), `/acr0;+F6X^BY7oR>.zWF${s(AN, 12)}}-CgjNJ`];
    const table = `| DB_NAME      | wp_harbor                                                        | constant |\n| NONCE_KEY    | ${nonce} | constant |\n| WP_DEBUG     |                                                                  | constant |\n`;
    expect(new Redactor().mask(table)).toBe(table.replace(nonce, '[masked: key]'));
    const php = `    'crypt' => [\n        'key' => '${oldKey}\n${newKey}'\n    ],\n`;
    expect(new Redactor().mask(php)).toBe(`    'crypt' => [\n        'key' => '[masked: signing key]\n[masked: signing key]'\n    ],\n`);
    const sh = `scripts/backup.sh:3:hdbsql -i 00 -n hana01:30015 -u BACKUP_OPERATOR -p '${h1}' "BACKUP DATA USING FILE ('x')"\nnotes/hana.txt:2:hdbuserstore SET MONKEY hana01:30015 MONITOR_AGENT ${h2}\n`;
    const shownSh = new Redactor().mask(sh);
    for (const v of [h1, h2]) expect(shownSh, v).not.toContain(v);
    expect(new Redactor().mask(`{'account': '7214503_SB1', 'token_id': '${tok}', 'token_secret': '${s(HEX, 64)}', 'realm': '7214503_SB1'}\n`)).not.toContain(tok);
    expect(new Redactor().mask(`16:$CFG->passwordsaltmain = '${salt}';\n`)).not.toContain(salt);
    // An id beside no secret (a record's `token_id`), a settings table's words, stay.
    const kept = `{'token_id': 42, 'user': 'a'}\n{"token_id": "${s(HEX, 32)}", "expires": 3600}\n| WP_DEBUG     | false | constant |\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe("session 37: pass 183 (secret managers and identity)", () => {
  it("masks recovery codes after their label (a vault item's note in JSON, a line of them) and a recovery codes file; prose about them kept", () => {
    const [a, b] = [`${s(HEX, 5)}-${s(HEX, 5)}`, `${s(HEX, 5)}-${s(HEX, 5)}`];
    const shown = new Redactor().mask(`  "notes": "Recovery codes:\\n${a}\\n${b}",\nYour backup codes: 1234 5678, 8765 4321\n`);
    for (const v of [a, b, '1234 5678', '8765 4321']) expect(shown, v).not.toContain(v);
    expect(new Redactor().maskCommandOutput('cat github-recovery-codes.txt', `${a}\n${b}\n`)).not.toContain(a);
    const kept = 'recovery codes are stored in the vault\nRecovery codes: see docs/2fa.md\n';
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe("session 37: the own attack on its rules (adv186)", () => {
  it("masks bioblend's key as a call's keyword argument beside its url, MATLAB's installer flag, NTP's hmac-sha2-256 key, VyOS' secret under grep -n, recovery codes by name; kwargs beside nothing kept", () => {
    const [bio, ntp, vy, rc] = [s(HEX, 32), s(AN, 24), `${s(AN, 20)}=`, `${s(HEX, 5)}-${s(HEX, 5)}`];
    const key = Array.from({ length: 26 }, () => s('0123456789', 5)).join('-');
    const out = `gi = GalaxyInstance(url='https://usegalaxy.eu', key='${bio}')\nsudo ./install -mode silent -fileInstallationKey ${key}\nntp authentication-key 2 hmac-sha2-256 ${ntp}\n2:set vpn ipsec authentication psk HQ secret '${vy}'\n{\n  "recovery_codes": [\n    "${rc}"\n  ]\n}\n`;
    const shown = new Redactor().mask(out);
    for (const v of [bio, key, ntp, vy, rc]) expect(shown, v).not.toContain(v);
    const kept = `cache.get(name='x', key='${s(HEX, 32)}')\nntp trusted-key 1\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe("session 37: passes 184 and 185 (device fleets; database administration)", () => {
  it("masks a `key` in an object a secret's name opens (Zigbee2MQTT's network_key, TTN's app_key), TTN's NNSXS key, LMIC's NWKSKEY/APPSKEY arrays, a PSK by its name, mosquitto_sub --pw, a password array under its name, Elasticsearch's digit-free New value", () => {
    const [z, t1, psk, pw, a1, a2, es] = [s(HEX, 32), s('0123456789ABCDEF', 32), s(AN, 24), s(AN, 22), `Lantern${s(AN, 8)}#`, `Pepper${s(AN, 8)}%`, `qiKQAigKz+afBCXRrtMd`];
    const b32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', ttn = `NNSXS.${s(b32, 39)}.${s(b32, 52)}`;
    const bytes = Array.from({ length: 16 }, () => `0x${s('0123456789ABCDEF', 2)}`).join(', ');
    const out = `{\n  "network_key": {\n    "key": "${z}"\n  },\n  "app_key": {\n      "key": "${t1}"\n  }\n}\n  INFO API key value: ${ttn}\n5:static const PROGMEM u1_t NWKSKEY[16] = { ${bytes} };\napp/prj.conf:4:CONFIG_GOLIOTH_SAMPLE_PSK="${psk}"\nExecStart=/usr/bin/mosquitto_sub -h 10.0.0.5 -u logger --pw ${pw} -t '#'\n  "sta_pwd": [\n    "${a1}",\n    "${a2}"\n  ],\nNew value: ${es}\n`;
    const shown = new Redactor().mask(out);
    for (const v of [z, t1, ttn, bytes.slice(0, 20), psk, pw, a1, a2, es]) expect(shown, v).not.toContain(v);
    const kept = `{\n  "device": {\n    "key": "${s(HEX, 32)}"\n  }\n}\nCONFIG_GOLIOTH_SAMPLE_PSK_ID="greenhouse-07@farm"\n  "sta_ssid": [\n    "Hollis-IoT",\n    "Hollis-Guest"\n  ],\nNew value: enabled\nNew value: read-only\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe("session 37: pass 187 (smaller clouds' CLIs)", () => {
  it("masks Yandex Cloud's IAM token printed alone; an IBM CRN's resource key id kept", () => {
    const t = `t1.9euelZ3JU_${s(AN + '_-', 128)}.${s(AN + '_-', 86)}`;
    expect(new Redactor().maskCommandOutput('yc iam create-token', `${t}\n`)).toBe('[masked: yandex iam token]\n');
    const crn = `crn:v1:bluemix:public:cloud-object-storage:global:a/${s(HEX, 32)}:${uuid()}:resource-key:${uuid()}`;
    const kept = `cos-writer  ${crn}\nID:            ${crn}\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe("session 37: the closing attack (adv189)", () => {
  it("masks a YAML `key:` under a secret-named mapping (Zigbee2MQTT's network_key, TTN's app_key) and snmpd's rocommunity under grep's prefix; a device's key kept", () => {
    const [a, b, c] = [s(HEX, 32), s('0123456789ABCDEF', 32), s(AN, 12) + '7'];
    const shown = new Redactor().mask(`advanced:\n  network_key:\n    key: ${a}\nroot_keys:\n  app_key:\n    key: ${b}\netc/snmp/snmpd.conf:1:rocommunity ${c} 10.0.0.0/8\n`);
    for (const v of [a, b, c]) expect(shown, v).not.toContain(v);
    const kept = `device:\n  key: ${s(HEX, 32)}\nnetwork_key:\n  - 1\n  - 2\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe("session 38: the closing attack's leftovers (adv189, adv186)", () => {
  it("masks node's bare dict key under api_tokens, IOS' community inside a JSON string, Junos' NTP and OSPF keys, VyOS' config.boot and unquoted set lines, a key beside its url in a diff and under grep -A, recovery codes in HTML and listed below their label", () => {
    const [tok, com, ntp, ospf, wg, psk, vy] = [`f${s(HEX, 31)}`, s(AN, 12) + '7', s(AN, 18) + '3', `$9$${s(AN, 20)}`, `${s(B64, 43)}=`, s(AN, 16) + '5', s(AN, 14) + '2'];
    const [u, k1, code, c1, c2, c3, gk] = [uuid(), uuid(), s(LOWER_AN, 16) + '4', `${s(HEX, 5)}-${s(HEX, 5)}`, `${s(HEX, 5)}-${s(HEX, 5)}`, '3333 3039', s(HEX, 32)];
    const forms: [string, string[]][] = [
      [`{ api_tokens: { ${tok}: 'grader' } }`, [tok]],
      [`{"changed":true,"commands":["snmp-server community ${com} RO 10"]}`, [com]],
      [`set system ntp authentication-key 1 type md5 value "${ntp}"`, [ntp]],
      [`set protocols ospf area 0 interface ge-0/0/0 authentication md5 1 key "${ospf}"`, [ospf]],
      [`wireguard wg0 {\n    private-key ${wg}\n}`, [wg]],
      [`ipsec {\n    site-to-site {\n        pre-shared-secret ${psk}\n    }\n}`, [psk]],
      [`["set vpn ipsec authentication psk HQ secret ${vy}"]`, [vy]],
      [`@@ -1,2 +1,2 @@\n-url: https://cds.example.org/api/v2\n-key: 1234:${u}\n+url: https://cds.example.org/api/v2\n+key: 1234:${k1}`, [u, k1]],
      [`2:main:\n3-    key: ${gk}\n4-    url: https://usegalaxy.org\n`, [gk]],
      [`<p>Backup codes:</p><pre>${code}</pre>`, [code]],
      [`Recovery codes:\n- ${c1}\n- ${c2}\n`, [c1, c2]],
      [`Backup codes\n1. ${c3}\n`, [c3]],
    ];
    for (const [text, values] of forms) {
      const shown = new Redactor().mask(text);
      for (const v of values) expect(shown, v).not.toContain(v);
    }
    const kept = `wireguard wg0 {\n    private-key /config/auth/wg0.key\n    private-key wg0.key\n}\nset the webhook secret before deploying\n{ settings: { featureFlagsEnabledForTeam: 'yes' } }\nBackup codes\n1. Store them somewhere safe\n2. Print them\n+key: value\n+url: x\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe("session 38: pass 184's leftovers (device fleets)", () => {
  it("masks ESPHome's API key under encryption: in a diff, a balena envs table (id first, a name as wide as its column), Golioth's PSK set in Zephyr's shell, an NVS CSV through column -t, configparser's repr of -D…=\\'\"…\"\\'", () => {
    const [esp, w, m, aws, gpsk, nvs, tok, cp] = [`${s(B64, 43)}=`, `Tundra${s(AN, 6)}*`, `vh${s(AN, 12)}!3`, s(AN, 40), s(HEX, 32), `Ember${s(AN, 8)}6%`, s(AN, 43), `Juniper${s(AN, 6)}9&`];
    const out = [
      ` api:\n   encryption:\n-    key: "${s(B64, 43)}="\n+    key: "${esp}"\n ota:`,
      `ID      NAME                  VALUE                                    FLEET\n2184410 WIFI_PASSWORD         ${w.padEnd(41)}gh/greenhouse\n2184411 MQTT_PASSWORD         ${m.padEnd(41)}gh/greenhouse\n2184412 AWS_SECRET_ACCESS_KEY ${aws} gh/greenhouse\n2184413 LOG_LEVEL             debug                                    gh/greenhouse`,
      `uart:~$ settings set golioth/psk-id greenhouse-08@farm\nuart:~$ settings set golioth/psk ${gpsk}`,
      `key           type       encoding  value\nwifi          namespace            \npass          data       string    ${nvs}\ndevice_token  data       string    ${tok}\nhw_rev        data       u8        3`,
      `{'build_flags': '-DWIFI_SSID=\\'"Hollis-IoT"\\' -DWIFI_PASS=\\'"${cp}"\\''}`,
    ].join('\n');
    const shown = new Redactor().mask(out);
    for (const v of [esp, w, m, aws, gpsk, nvs, tok, cp]) expect(shown, v).not.toContain(v);
    for (const v of ['greenhouse-08@farm', 'Hollis-IoT', '2184413 LOG_LEVEL             debug', 'hw_rev        data       u8        3', 'gh/greenhouse']) expect(shown, v).toContain(v);
    const kept = `cache:\n  encryption:\n    key: none\nID      NAME       VALUE     FLEET\n2184413 LOG_LEVEL  debug     gh/greenhouse\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe("session 38: pass 192 (web3 development)", () => {
  const wallet = async () => {
    const { createBase58check } = await import('@scure/base');
    const { createHash, randomBytes } = await import('node:crypto');
    const b58 = createBase58check((d: Uint8Array) => new Uint8Array(createHash('sha256').update(d).digest()));
    const key = randomBytes(32);
    const extended = (version: string, last: number) => b58.encode(Buffer.concat([Buffer.from(version, 'hex'), Buffer.from([3]), randomBytes(8), randomBytes(32), Buffer.from([last]), randomBytes(32)]));
    return { b58, wifC: b58.encode(Buffer.concat([Buffer.from([0x80]), key, Buffer.from([1])])), wifU: b58.encode(Buffer.concat([Buffer.from([0x80]), key])), tprv: extended('04358394', 0), xpubLike: extended('0488b21e', 2) };
  };

  it("masks WIF keys and extended private keys by their checksum (dumpwallet rows, descriptors, alone); a broken checksum, an xpub, addresses and signatures kept", async () => {
    const { wifC, wifU, tprv, xpubLike } = await wallet();
    const mac = `0201036c6e6402f801030a10${s(HEX, 180)}`;
    const out = `${wifC} 2024-05-14T08:21:36Z hdseed=1 # addr=bc1qu6ekem\n${wifU}\nwpkh(${tprv}/84h/1h/0h/0/*)#srlqp34u\nGrpc-Metadata-macaroon: ${mac.toUpperCase()}\n`;
    const shown = new Redactor().mask(out);
    for (const v of [wifC, wifU, tprv, mac.toUpperCase()]) expect(shown, v).not.toContain(v);
    const broken = wifC.slice(0, -1) + (wifC.endsWith('a') ? 'b' : 'a');
    const kept = `${broken}\n${xpubLike}\n{"Token": "0x${s(HEX, 40)}", "signature": "0x${s(HEX, 130)}"}\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("masks a dev chain's listed private keys, hardhat's accounts, a quoted or labelled recovery phrase, Substrate's seed, geth's unlock password, a Solana key from base58, Infura's id as a URL's user, `keys export --unarmored-hex`", async () => {
    const { wordlist } = await import('@scure/bip39/wordlists/english.js');
    const { generateMnemonic } = await import('@scure/bip39');
    const [k0, k1, k2, seed, gpw, sol, inf] = [s(HEX, 64), s(HEX, 64), s(HEX, 64), s(HEX, 64), `Halyard-${s(AN, 6)}4!`, s('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 88), s(HEX, 32)];
    const [p1, p2, p3] = [generateMnemonic(wordlist), generateMnemonic(wordlist), generateMnemonic(wordlist)];
    const forms: [string, string[]][] = [
      [`Available Accounts\n==================\n\n(0) 0x${s(HEX, 40)} (10000 ETH)\n\nPrivate Keys\n==================\n\n(0) 0x${k0}\n(1) 0x${k1}\n`, [k0, k1]],
      [`      accounts: ["0x${k2}"],`, [k2]],
      [`cast wallet private-key "${p1}" 0`, [p1]],
      [`  mnemonic: {\n    phrase: '${p2}',\n`, [p2]],
      [`Secret phrase:       ${p3}\n  Secret seed:       0x${seed}\n`, [p3, seed]],
      [`3:personal.unlockAccount(eth.accounts[0], "${gpw}", 300)`, [gpw]],
      [`const payer = Keypair.fromSecretKey(bs58.decode("${sol}"));`, [sol]],
      [`<add key="Ethereum:RpcUrl" value="https://${inf}:${s(AN, 20)}@mainnet.infura.io/v3/${inf}" />`, [inf]],
    ];
    for (const [text, values] of forms) {
      const shown = new Redactor().mask(text);
      for (const v of values) expect(shown, v).not.toContain(v);
    }
    const hex = s(HEX, 64);
    expect(new Redactor().maskCommandOutput('echo y | ./bin/gaiad keys export validator --unarmored-hex --unsafe', `${hex}\n`)).not.toContain(hex);
    const addr = `0x${s(HEX, 40)}`;
    const kept = `Available Accounts\n==================\n(0) ${addr} (10000 ETH)\nPrivate Keys: see the vault\naccounts: ["${addr}"]\necho "the quick brown fox jumps over the lazy dog and runs away from the farm"\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe("session 38: passes 190, 191, 193 (IaC, homelab, enterprise Java/.NET)", () => {
  it("masks Hiera's namespaced block scalar (under grep -A too), a random_password's result by address, Proxmox's token.cfg, an escaped properties URI, jenkins-cli -auth, Jenkins' credential dump rows, jasypt's OUTPUT, Elytron's clear-text, appcmd /text:…password", () => {
    const [blk, rp, px, uni, jt, jp, js, jas, ct, app] = [`${s(B64, 43)}=`, `koj.${s(AN, 10)}^4*`, uuid(), s(AN, 20), `11${s(HEX, 32)}`, `Cobalt@${s(AN, 8)}1`, s(AN, 24), `m4g${s(AN, 10)}%q`, `Falcon&${s(AN, 8)}5`, `Harbor!${s(AN, 8)}7`];
    const forms: [string, string[]][] = [
      [`profile::app::session_secret: |\n  ${blk}\n`, [blk]],
      [`data/common.yaml:3:profile::app::session_secret: |\ndata/common.yaml-4-  ${blk}\n`, [blk]],
      [`module.db.random_password.master.result = ${rp}\n`, [rp]],
      [`etc/pve/priv/token.cfg:root@pam!terraform ${px}\n`, [px]],
      [`db.mongo.uri=mongodb\\://unifi\\:${uni}@unifi-db\\:27017/unifi?tls\\=false\n`, [uni]],
      [`3:java -jar jenkins-cli.jar -s http://127.0.0.1:8080/ -auth admin:${jt} who-am-i\n`, [jt]],
      [`nexus-deployer : UsernamePasswordCredentialsImpl : deployer : ${jp}\ngitlab-api : StringCredentialsImpl :  : ${js}\n`, [jp, js]],
      [`ivGeneratorClassName: org.jasypt.iv.RandomIvGenerator\n\n----OUTPUT----------------------\n\n${jas}\n`, [jas]],
      [`    "result" => {\n        "clear-text" => "${ct}",\n        "store" => undefined\n`, [ct]],
    ];
    for (const [text, values] of forms) {
      const shown = new Redactor().mask(text);
      for (const v of values) expect(shown, v).not.toContain(v);
    }
    expect(new Redactor().maskCommandOutput(`./bin/appcmd list apppool "LegacyPool" /text:processModel.password`, `${app}\r\n`)).not.toContain(app);
    const fp = Array.from({ length: 32 }, () => s('0123456789ABCDEF', 2)).join(':');
    const kept = `master.pem:  C1:72:${fp.slice(6)}\nencryptionsalt: v1:${s(B64, 12)}=:v1:${s(B64, 16)}:${s(B64, 43)}=\n----OUTPUT----------------------\n\nEncryption finished\n-auth @/home/me/.jenkins-token\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
    expect(new Redactor().maskCommandOutput('./bin/appcmd list apppool /text:name', 'LegacyPool\r\n')).toBe('LegacyPool\r\n');
  });
});

describe("session 38: rows of a script's words and a table's privkey column (adv190 F34, adv192 F35)", () => {
  it("masks a `<resource> <secret name> <value>` row and a table's privkey cell; a sentence's third word and a row without a digit kept", () => {
    const [pw, key, pk] = [`Tundra${s(AN, 8)}63%`, s(HEX, 32), s(HEX, 64)];
    const shown = new Redactor().mask(`main password ${pw}\ndefault apiKey ${key}\n| path | address | privkey |\n|------|---------|---------|\n| m/0 | 0x${s(HEX, 40)} | ${pk} |\n`);
    for (const v of [pw, key, pk]) expect(shown, v).not.toContain(v);
    const kept = `Enter password carefully\nreset password tomorrow\nstore token somewhere\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe("session 38: the own attack on its rules (adv194) and passes 195-197 (observability, SaaS, Windows)", () => {
  it("masks other coins' WIF and extended keys, Loop's and base64 lnd macaroons, listed keys under compose's and grep's prefixes, a multi-line hardhat array, a Python list of phrase words, and the wallet forms' variants", async () => {
    const { createBase58check } = await import('@scure/base');
    const { createHash, randomBytes } = await import('node:crypto');
    const { generateMnemonic } = await import('@scure/bip39');
    const { wordlist } = await import('@scure/bip39/wordlists/english.js');
    const b58 = createBase58check((d: Uint8Array) => new Uint8Array(createHash('sha256').update(d).digest()));
    const ltcWif = b58.encode(Buffer.concat([Buffer.from([0xb0]), randomBytes(32), Buffer.from([1])]));
    const ltpv = b58.encode(Buffer.concat([Buffer.from('019d9cfe', 'hex'), Buffer.from([3]), randomBytes(8), randomBytes(32), Buffer.from([0]), randomBytes(32)]));
    const loop = `0201046c6f6f7002f801030a10${s(HEX, 160)}`;
    const b64mac = `AgEDbG5k${s(AN + '-_', 120)}`;
    const [k0, k1, k2, k3, seed] = [s(HEX, 64), s(HEX, 64), s(HEX, 64), s(HEX, 64), s(HEX, 64)];
    const phrase = generateMnemonic(wordlist).split(' ');
    const [gpw, wpw, sol] = [`Halyard*${s(AN, 8)}3`, `Keel*${s(AN, 8)}1`, s('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 88)];
    const forms: [string, string[]][] = [
      [`${ltcWif}\n`, [ltcWif]],
      [`wpkh(${ltpv}/84h/2h/0h/0/*)#8m4q2x7d\n`, [ltpv]],
      [`${loop}\n`, [loop]],
      [`lndconnect://127.0.0.1:10009?cert=MIIC&macaroon=${b64mac}\n`, [b64mac]],
      [`anvil-1  | Private Keys\nanvil-1  | ==================\nanvil-1  | \nanvil-1  | (0) 0x${k0}\n`, [k0]],
      [`9:Private Keys\n10-==================\n11-(0) 0x${k1}\n`, [k1]],
      [`      accounts: [\n        "0x${k2}",\n        "0x${k3}",\n      ],\n`, [k2, k3]],
      [`restoring from [${phrase.map((w) => `'${w}'`).join(', ')}]\n`, [phrase.slice(0, 4).map((w) => `'${w}'`).join(', ')]],
      [`  "secretSeed": "0x${seed}",\n`, [seed]],
      [`{"jsonrpc":"2.0","method":"personal_unlockAccount","params":["0x${s(HEX, 40)}","${gpw}",300],"id":1}\n`, [gpw]],
      [`3:w3.geth.personal.unlock_account(w3.eth.accounts[0], "${wpw}", 300)\n`, [wpw]],
      [`PAYER = Keypair.from_base58_string("${sol}")\n`, [sol]],
    ];
    for (const [text, values] of forms) {
      const shown = new Redactor().mask(text);
      for (const v of values) expect(shown, v).not.toContain(v);
    }
    const hex = s('0123456789ABCDEF', 64);
    expect(new Redactor().maskCommandOutput('echo y | ./bin/evmosd keys unsafe-export-eth-key dev0 --keyring-backend test', `${hex}\n`)).not.toContain(hex);
    expect(new Redactor().maskCommandOutput('echo y | ./bin/gaiad --home ./node0 keys export validator --unarmored-hex --unsafe', `${hex}\n`)).not.toContain(hex);
    const kept = `{"network": "testnet", "accounts": ["0x${s(HEX, 64)}"]}\n    Merge: "report any issue inside local network before you leave office today please"\ntoken:root@pam!terraform:0:0::\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("masks the infrastructure forms' variants: a block scalar under grep -r and in a diff, cat -n's Proxmox row, escaped URIs with no user or doubled backslashes, -auth quoted and in an array, Jenkins' TSV dump, a short jasypt result, secret-value=, appcmd -text:, blank-led and Discord codes, settings write, a normal diff's key, Nagios macros, compact routing keys, dsadd -pwd, an HMAC key in a log, passwordBase64", () => {
    const [b1, b2, px, r1, r2, ja, jt, j1, j2, js, wf, app, c1, c2, d1, zp, dk, nu, nk, rk, ds, hm, lb] = [
      `${s(B64, 43)}=`, `${s(B64, 43)}=`, uuid(), s(AN, 24), s(AN, 20), `Adm1n$${s(AN, 8)}!`, `11${s(HEX, 32)}`, `Cobalt#${s(AN, 8)}9`, s(AN, 24), `Sw${s(AN, 3)}!7`, `Falcon!${s(AN, 8)}9`, `Harbor#${s(AN, 8)}4`,
      `${s(HEX, 5)}-${s(HEX, 5)}`, `${s(HEX, 5)}-${s(HEX, 5)}`, `gc${s(LOWER_AN, 1)}m-8u${s(LOWER_AN, 2)}`, s(HEX, 32), s(HEX, 32), `3Slo${s(AN, 10)}+uX`, `Harbor_${s(AN, 6)}5&`, s(HEX, 32), `Cobalt9${s(AN, 6)}#17`, s('0123456789ABCDEF', 64), `K1Nl${s(AN, 20)}c=`,
    ];
    const forms: [string, string[]][] = [
      [`data/common.yaml:profile::app::session_secret: |\ndata/common.yaml-  ${b1}\n`, [b1]],
      [`+profile::db::password: >-\n+  ${b2}\n`, [b2]],
      [`     1\troot@pam!terraform ${px}\n`, [px]],
      [`spring.data.redis.url=redis\\://\\:${r1}@cache.internal\\:6379/0\n`, [r1]],
      [`"db.mongo.uri=mongodb\\\\://unifi\\\\:${r2}@unifi-db\\\\:27017/unifi"\n`, [r2]],
      [`++ echo java -jar jenkins-cli.jar -s http://127.0.0.1:8080/ -auth 'admin:${ja}' who-am-i\n`, [ja]],
      [`    command: ["java", "-jar", "/opt/jenkins-cli.jar", "-auth", "admin:${jt}", "reload"]\n`, [jt]],
      [`nexus-deployer\tcom.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl\tdeployer\t${j1}\ngitlab-api\torg.jenkinsci.plugins.plaincredentials.impl.StringCredentialsImpl\t\t${j2}\n`, [j1, j2]],
      [`----OUTPUT----------------------\n\n${js}\n`, [js]],
      [`/subsystem=elytron/credential-store=cs:add-alias(alias=db-password, secret-value="${wf}")\n`, [wf]],
      [`Recovery codes:\n\n${c1}\n${c2}\n`, [c1, c2]],
      [`Backup codes\n* ${d1}\n`, [d1]],
      [`uart:~$ settings write string golioth/psk ${zp}\n`, [zp]],
      [`1,2c1,2\n< url: https://cds.example.org/api\n< key: ${dk}\n---\n> url: https://cds.example.org/api\n`, [dk]],
      [`13:$USER4$=${nu}\n19:$USER7$=${nk}\n`, [nu, nk]],
      [`{"routing_key":"${rk}","event_action":"trigger","dedup_key":"disk-full-web01"}\n`, [rk]],
      [`dsadd user "CN=Svc,OU=Service Accounts,DC=corp,DC=local" -samid svc -pwd ${ds} -mustchpwd no\n`, [ds]],
      [`2024-07-02T10:11:02.115Z DEBUG [adyen-webhook] HmacValidator using key=${hm}\n`, [hm]],
      [`Administrator\t2024-11-30T04:11:09.482Z\t${lb}\n`, []],
    ];
    for (const [text, values] of forms) {
      const shown = new Redactor().mask(text);
      for (const v of values) expect(shown, v).not.toContain(v);
    }
    expect(new Redactor().maskCommandOutput(`jq -r '.credentials[] | [.accountName, .backupDateTime, .passwordBase64] | @tsv' laps.json`, `Administrator\t2024-11-30T04:11:09.482Z\t${lb}\n`)).not.toContain(lb);
    expect(new Redactor().maskCommandOutput(`./bin/appcmd list apppool "LegacyPool" -text:processModel.password`, `${app}\r\n`)).not.toContain(app);
    const kept = `$USER1$=/usr/lib/nagios/plugins\ndsadd user "CN=x" -pwd * -mustchpwd yes\nsignature:s:${s(B64, 200)}=\nrecovery codes: none\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe("session 38: a CLI's capital label padded to a lower-case value is no table header (adv196)", () => {
  it("keeps the line after `TOKEN ENDPOINT AUTH  client_secret_post` and mish's own `[exit 0]` after `ENDPOINT AUTH  none`", () => {
    for (const kept of ['TOKEN ENDPOINT AUTH  client_secret_post\nGRANTS               client_credentials\n', 'TOKEN ENDPOINT AUTH  none\n[exit 0]\n']) expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe("session 38: a pod spec's secret value changed in a diff (adv195 F46)", () => {
  it("masks both the removed and the added `value:` under `- name: DD_API_KEY`; a non-secret name's change kept", () => {
    const [a, b] = [s(HEX, 32), s(HEX, 32)];
    const shown = new Redactor().mask(`             - name: DD_API_KEY\n-              value: ${a}\n+              value: ${b}\n`);
    for (const v of [a, b]) expect(shown, v).not.toContain(v);
    const kept = `             - name: DD_SITE\n-              value: datadoghq.com\n+              value: datadoghq.eu\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe("session 38: pass 199 (hosting panels, DNS and certificates)", () => {
  it("masks Plesk's shown password and new API key, a DNSSEC RSA key file's private fields, a token picked by awk and decoded; the key file's public fields kept", () => {
    const [pw, key, tok] = [`Granite%${s(AN, 6)}9909`, uuid(), s(AN + '-_', 40)];
    expect(new Redactor().maskCommandOutput('./bin/plesk bin admin --show-password', `${pw}\n`)).not.toContain(pw);
    expect(new Redactor().maskCommandOutput(`plesk bin secret_key --create -ip-address 127.0.0.1 -description 'terraform'`, `${key}\n`)).not.toContain(key);
    const fields = ['PrivateExponent', 'Prime1', 'Prime2', 'Exponent1', 'Exponent2', 'Coefficient'].map((f) => [f, `${s(B64, 86)}==`] as const);
    const modulus = `${s(B64, 170)}=`;
    const file = `Private-key-format: v1.3\nAlgorithm: 8 (RSASHA256)\nModulus: ${modulus}\nPublicExponent: AQAB\n${fields.map(([f, v]) => `${f}: ${v}`).join('\n')}\nCreated: 20250101000000\n`;
    const shown = new Redactor().mask(file);
    for (const [, v] of fields) expect(shown, v).not.toContain(v);
    for (const v of [modulus, 'PublicExponent: AQAB', 'Created: 20250101000000']) expect(shown, v).toContain(v);
    expect(new Redactor().maskCommandOutput(`awk '/api-token:/{print $2}' cloudflare-secret.yaml | base64 -d; echo`, `${tok}\n`)).not.toContain(tok);
  });
});

describe("session 38: pass 200 (queues and streaming)", () => {
  it("masks a made password in a member chain's shape inside kafka-configs' SCRAM brackets; Service Bus' lockToken and code's obj.attr kept", () => {
    const [a, b] = [`MeadowVelvet${s('0123456789', 2)}.${s('abcdefghijklmnopqrstuvwxyz', 3)}`, `walnutEmber${s('0123456789', 2)}.Rm2`];
    const shown = new Redactor().mask(`3:bin/kafka-configs.sh --alter --add-config 'SCRAM-SHA-256=[iterations=8192,password=${a}],SCRAM-SHA-512=[password=${b}]' --entity-type users\n`);
    for (const v of [a, b]) expect(shown, v).not.toContain(v);
    const kept = `{\n  "messageId": "${s(HEX, 32)}",\n  "lockToken": "${uuid()}",\n  "sequenceNumber": "52776558133249"\n}\nusers[password=form.password]\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });
});

describe("session 38: a file's secret printed beside another command's lines of that file (adv195 L26, adv198 L6)", () => {
  it("masks the secret file's line but not the settings another command printed, nor those settings later in the session", () => {
    const r = new Redactor();
    const psk = s(HEX, 64);
    const shown = r.maskCommandOutput("grep -n '^TLS' zabbix_agentd.conf && cat zabbix_agentd.psk", `1:TLSConnect=psk\n2:TLSPSKIdentity=PSK-web01-prod\n${psk}\n`);
    expect(shown).not.toContain(psk);
    expect(shown).toContain('2:TLSPSKIdentity=PSK-web01-prod');
    const later = 'TLSPSKIdentity=PSK-web01-prod-2024\nwandb: View project at: https://wandb.ai/acme-ml/llama3-sft\n';
    expect(r.mask(later)).toBe(later);
  });
});

describe("session 38: the closing attack (adv201)", () => {
  it("masks a phrase encoded in base64url and one on a diff's + line (checksums holding), PagerDuty's routing key in a hook payload's escaped JSON", async () => {
    const { generateMnemonic } = await import('@scure/bip39');
    const { wordlist } = await import('@scure/bip39/wordlists/english.js');
    const [p1, p2, rk] = [generateMnemonic(wordlist), generateMnemonic(wordlist), s(HEX, 32)];
    const b64url = Buffer.from(`${p1}\n`).toString('base64url');
    const forms: [string, string[]][] = [
      [`${b64url}\n`, [b64url]],
      [`+## ledger backup (temp, move to safe)\n+${p2}\n`, [p2]],
      [`"curl -sS -X POST https://events.pagerduty.com/v2/enqueue -d '{\\"routing_key\\":\\"${rk}\\",\\"event_action\\":\\"trigger\\"}'"\n`, [rk]],
    ];
    for (const [text, values] of forms) {
      const shown = new Redactor().mask(text);
      for (const v of values) expect(shown, v).not.toContain(v);
    }
    const kept = `+report any issue inside local network before you leave office today please\n`;
    expect(new Redactor().mask(kept)).toBe(kept);
  });

  it("reads a pipeline whose first stage is a subshell or a group without failing (a hooked run's output was withheld)", () => {
    const out = '+ TXID=abc\n926d044b1e0ee5f3dfedd8b7\n';
    for (const cmd of ['( set -x; TXID=$(cat txid) ) 2>&1 | head -n 5', '{ echo hi; } | cat', '( echo hi ) | cat']) expect(new Redactor().maskCommandOutput(cmd, out), cmd).toBe(out);
  });
});

describe("session 39: session 38's leftovers", () => {
  it("masks jq --stream's leaf events, compact and pretty; a path's other leaves kept", () => {
    const [k, p] = [s(AN, 32), s(AN, 16)];
    const compact = `[["service","api_key"],"${k}"]\n[["service","password"],"${p}"]\n[["service","port"],8080]\n[["service","region"],"eu-west-1"]\n`;
    const shown = new Redactor().maskCommandOutput('jq --stream -c . config.json', compact);
    for (const v of [k, p]) expect(shown, v).not.toContain(v);
    expect(shown).toContain('[["service","region"],"eu-west-1"]');
    const pretty = `[\n  [\n    "service",\n    "api_key"\n  ],\n  "${k}"\n]\n`;
    expect(new Redactor().maskCommandOutput('jq --stream . config.json', pretty)).not.toContain(k);
    const [t0, t1] = [s(AN, 32), s(AN, 32)];
    const items = new Redactor().maskCommandOutput('jq --stream -c . tokens.json', `[["tokens",0],"${t0}"]\n[["tokens",1],"${t1}"]\n[["tokens",1]]\n[["regions",0],"eu-west-1-a"]\n`);
    for (const v of [t0, t1]) expect(items, v).not.toContain(v);
    expect(items).toContain('[["regions",0],"eu-west-1-a"]');
  });

  it("masks a Zabbix user macro's value in a template's XML and YAML and its API's JSON; a macro of no secret kept", () => {
    const [a, b, c] = [s(AN, 14), s(AN, 12), s(HEX, 32)];
    const xml = `      <macros>\n        <macro>\n          <macro>{$DB.PASSWORD}</macro>\n          <value>${a}</value>\n        </macro>\n        <macro>\n          <macro>{$DB.PORT}</macro>\n          <value>5432</value>\n        </macro>\n      </macros>\n`;
    const shownXml = new Redactor().maskCommandOutput('cat template.xml', xml);
    expect(shownXml).not.toContain(a);
    expect(shownXml).toContain('<value>5432</value>');
    const yaml = `macros:\n  - macro: '{$DB.PASSWORD}'\n    value: ${b}\n    type: SECRET_TEXT\n  - macro: '{$API.TOKEN}'\n    value: '${c}'\n  - macro: '{$HOST.NAME}'\n    value: web01\n`;
    const shownYaml = new Redactor().maskCommandOutput('cat template.yaml', yaml);
    for (const v of [b, c]) expect(shownYaml, v).not.toContain(v);
    expect(shownYaml).toContain('value: web01');
    const json = `{"jsonrpc":"2.0","result":[{"hostmacroid":"12","macro":"{$SNMP.PASSWORD}","value":"${a}"}],"id":1}\n`;
    expect(new Redactor().mask(json)).not.toContain(a);
  });

  it("masks the keys of a dict of objects under a plural secret name (cfssl's auth_keys); its other fields kept", () => {
    const [k1, k2] = [s(HEX, 16), s(HEX, 32)];
    const conf = `{\n  "auth_keys": {\n    "primary": {\n      "type": "standard",\n      "key": "${k1}"\n    },\n    "ocsp": { "type": "standard", "key": "${k2}" }\n  },\n  "signing": { "default": { "expiry": "8760h" } }\n}\n`;
    const shown = new Redactor().maskCommandOutput('cat ca-config.json', conf);
    for (const v of [k1, k2]) expect(shown, v).not.toContain(v);
    for (const v of ['"type": "standard"', '"expiry": "8760h"']) expect(shown, v).toContain(v);
    const yaml = `auth_keys:\n  primary:\n    type: standard\n    key: ${k1}\n  ocsp:\n    type: standard\n    key: "${k2}"\nsigning:\n  default:\n    expiry: 8760h\n`;
    const shownYaml = new Redactor().maskCommandOutput('cat ca-config.yaml', yaml);
    for (const v of [k1, k2]) expect(shownYaml, v).not.toContain(v);
    for (const v of ['type: standard', 'expiry: 8760h']) expect(shownYaml, v).toContain(v);
  });

  it("masks a secret file's line holding `=` under tail's header, the other file's minted line too; the other file's address kept", () => {
    const [pw, api] = [`${s(AN, 10)}=${s(AN, 12)}`, s(AN, 20)];
    const shown = new Redactor().maskCommandOutput('tail -n +1 .password .api', `==> .password <==\n${pw}\n\n==> .api <==\nadmin@example.com\n${api}\n`);
    for (const v of [pw, api]) expect(shown, v).not.toContain(v);
    expect(shown).toContain('admin@example.com');
  });

  it("masks a CLI table's KEY column of minted keys; a KEY column of names, cache keys and UUIDs kept", () => {
    const [a, b] = [s(HEX, 32), s(HEX, 40)];
    const shown = new Redactor().maskCommandOutput('./keys | column -t', `NAME     KEY                               SITE\napi      ${a}  datadoghq.com\napp      ${b}  datadoghq.com\n`);
    for (const v of [a, b]) expect(shown, v).not.toContain(v);
    const id = uuid();
    const kept = `KEY                                        TYPE    TTL\nuser_sessions_2024_archive_partition_00001  hash    -1\nfeature:flags:checkout                     string  300\n${id}       string  60\n`;
    expect(new Redactor().maskCommandOutput('./redis-keys | column -t', kept)).toBe(kept);
  });
});

describe("session 39: pass 203 (backup and sync tools)", () => {
  it("masks a password file named after a dot (kopia's `repository.config.kopia-password`) decoded or printed; a source file of that name kept", () => {
    const pw = `${s(AN, 9)}*${s(AN, 5)}^${s(AN, 6)}#${s(AN, 4)}`;
    for (const cmd of ['base64 -d .config/kopia/repository.config.kopia-password; echo', 'cat app.password']) expect(new Redactor().maskCommandOutput(cmd, `${pw}\n`), cmd).not.toContain(pw);
    expect(new Redactor().maskCommandOutput('cat src/auth.password.ts', `${pw}\n`)).toContain(pw);
  });
});

describe("session 39: pass 205 (media production, live streaming, package publishing)", () => {
  it("masks Wowza's push targets' stream names when minted (YouTube's groups, Facebook's FB- key, alone too); a local stream's name kept", () => {
    const yt = Array.from({ length: 5 }, () => s(LOWER_AN, 4)).join('-');
    const fb = `FB-${s('0123456789', 16)}-0-Ab${s(AN + '_-', 34)}`;
    const map = `2:cam1={"entryName":"ytPrimary", "profile":"rtmp", "host":"a.rtmp.youtube.com", "application":"live2", "streamName":"${yt}", "sendSSL":"false"}\n3:cam1={"entryName":"fbLive", "profile":"rtmp", "host":"live-api-s.facebook.com", "port":"443", "application":"rtmp", "streamName":"${fb}"}\n4:cam2={"entryName":"local", "profile":"rtmp", "host":"10.0.0.5", "application":"live", "streamName":"cam2_720p"}\n`;
    const shown = new Redactor().maskCommandOutput('grep -n streamName conf/live/PushPublishMap.txt', map);
    for (const v of [yt, fb]) expect(shown, v).not.toContain(v);
    expect(shown).toContain('"streamName":"cam2_720p"');
    expect(new Redactor().mask(`${fb}\n`)).not.toContain(fb);
  });
});

describe("session 39: pass 202 (mail and chat servers you host)", () => {
  it("masks a Mongo-stored setting's value beside its `_id` (node's inspect), swaks' AUTH LOGIN password in base64 without TLS; the user and a host kept", () => {
    const [pw, sec, b] = [`Maple#${s(AN, 8)}`, s(AN, 40), b64(`Ember!${s(AN, 8)}`)];
    const settings = `[\n  { _id: 'SMTP_Host', value: 'smtp.example.org' },\n  { _id: 'SMTP_Password', value: '${pw}' },\n  {\n    _id: 'Accounts_OAuth_Custom-Keycloak-secret',\n    value: '${sec}'\n  }\n]\n`;
    const shown = new Redactor().maskCommandOutput(`node -e 'console.log(s.filter(x=>/SMTP|OAuth/.test(x._id)))'`, settings);
    for (const v of [pw, sec]) expect(shown, v).not.toContain(v);
    expect(shown).toContain("value: 'smtp.example.org'");
    const user = b64('relay@example.org');
    const swaks = `<-  250 AUTH LOGIN PLAIN\n -> AUTH LOGIN\n<-  334 VXNlcm5hbWU6\n -> ${user}\n<-  334 UGFzc3dvcmQ6\n -> ${b}\n<-  235 2.7.0 Authentication successful\n`;
    const shownSwaks = new Redactor().mask(swaks);
    expect(shownSwaks).not.toContain(b);
    expect(shownSwaks).toContain(` -> ${user}`);
  });

  it("masks smbpasswd's and pdbedit -w's NT and LM hashes, tdbdump's secrets.tdb passwords, ejabberd's issued token; unset LM hashes, a SID's record and the scopes kept", () => {
    const [nt1, lm2, nt2] = [s(HEX, 32).toUpperCase(), s(HEX, 32).toUpperCase(), s(HEX, 32).toUpperCase()];
    const rows = `alice:1001:${'X'.repeat(32)}:${nt1}:[U          ]:LCT-65F1A2B3:\nbob:1002:${lm2}:${nt2}:[U          ]:LCT-65F1A2C9:\n`;
    for (const cmd of ['cat private/smbpasswd', 'pdbedit -L -w']) {
      const shown = new Redactor().maskCommandOutput(cmd, rows);
      for (const v of [nt1, lm2, nt2]) expect(shown, `${cmd} ${v}`).not.toContain(v);
      expect(shown, cmd).toContain(`alice:1001:${'X'.repeat(32)}:`);
    }
    const [bind, machine] = [s(AN, 22), `${s(AN, 8)}#${s(AN, 8)}!`];
    const dump = `{\nkey(13) = "SECRETS/SID/EXAMPLE"\ndata(68) = "\\01\\04\\00\\00\\00\\00\\00\\05\\15\\00"\n}\n{\nkey(55) = "SECRETS/LDAP_BIND_PW/cn=samba,ou=services,dc=corp,dc=example,dc=org"\ndata(23) = "${bind}\\00"\n}\n{\nkey(33) = "SECRETS/MACHINE_PASSWORD/EXAMPLE"\ndata(18) = "${machine}\\00"\n}\n`;
    const shownDump = new Redactor().maskCommandOutput('tdbdump /var/lib/samba/private/secrets.tdb', dump);
    for (const v of [bind, machine]) expect(shownDump, v).not.toContain(v);
    expect(shownDump).toContain('data(68) = "\\01\\04');
    const tok = s(AN, 32);
    const shownTok = new Redactor().maskCommandOutput('ejabberdctl oauth_issue_token admin@example.org 3600 "ejabberd:admin"', `${tok}\t["ejabberd:admin"]\t3600 seconds\n`);
    expect(shownTok).not.toContain(tok);
    expect(shownTok).toContain('["ejabberd:admin"]\t3600 seconds');
  });

  it("lets the hooked CLI's cheap check see Samba's `-U user%password` in ps", () => {
    const out = ` 3033 net ads join -U Administrator%Autumn2021$ocT createcomputer=Servers/Mail\n`;
    expect(mayHoldSecret(JSON.stringify({ output: out }))).toBe(true);
  });

  it("keeps a public key whose body a private key printed earlier in the session holds (opendkim-genkey's DNS record after its key); the private key's other lines stay masked", () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const spki = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    const parts = spki.match(/.{1,250}/g)!;
    const record = `mail._domainkey\tIN\tTXT\t( "v=DKIM1; h=sha256; k=rsa; "\n\t  "p=${parts.join('"\n\t  "')}" )  ; ----- DKIM key mail for example.org\n`;
    const r = new Redactor();
    expect(r.maskCommandOutput('cat mail.private', pem)).not.toContain(pem.split('\n')[10]);
    expect(r.maskCommandOutput('cat mail.txt', record)).toBe(record);
    const inner = pem.split('\n')[12];
    expect(r.mask(`${inner}\n`)).not.toContain(inner);
  });
});

describe("session 39: pass 206 (security tools' output)", () => {
  const HEXU = () => s(HEX, 32);
  it("masks Kerberos keys, NL$KM, DPAPI keys, NT hashes after a tool's prefix or the empty LM hash, by their name, Rubeus' keys and tickets; the empty password's NT hash kept", () => {
    const [a256, a128, des, nlkm, dk, nt1, nt2, nt3, nt4, dpapi, rk] = [s(HEX, 64), HEXU(), s(HEX, 16), s(HEX, 128), s(HEX, 128), HEXU(), HEXU(), HEXU(), HEXU(), HEXU(), `${s(B64, 43)}=`];
    const kirbi = `doIF${s(B64, 400)}`;
    const forms: [string, string[]][] = [
      [`CORP\\WS042$:aes256-cts-hmac-sha1-96:${a256}\nCORP\\WS042$:aes128-cts-hmac-sha1-96:${a128}\nCORP\\WS042$:des-cbc-md5:${des}\n[*] NL$KM \nNL$KM:${nlkm}\n`, [a256, a128, des, nlkm]],
      [`Decrypted key with User Key (MD4 protected)\nDecrypted key: 0x${dk}\n`, [dk]],
      [`3:SMB         10.10.20.31     445    WS031            Administrator:500:aad3b435b51404eeaad3b435b51404ee:${nt1}:::\n`, [nt1]],
      [`Administrator\t500\taad3b435b51404eeaad3b435b51404ee\t${nt2}\n`, [nt2]],
      [`    "NThash": "${nt3}",\nAD_NTHASH=${nt4}\n`, [nt3, nt4]],
      [`\t * DPAPI    : ${dpapi}\n`, [dpapi]],
      [`    Base64(key)              :  ${rk}\n    Base64EncodedTicket   :\n\n      ${kirbi}\n`, [rk, kirbi]],
    ];
    for (const [text, values] of forms) {
      const shown = new Redactor().mask(text);
      for (const v of values) expect(shown, v).not.toContain(v);
    }
    const empty = `Guest:501:aad3b435b51404eeaad3b435b51404ee:31d6cfe0d16ae931b73c59d7e0c089c0:::\n`;
    expect(new Redactor().mask(empty)).toBe(empty);
  });

  it("masks a brute forcer's found passwords (nmap text and XML, netexec), secretsdump's service password, a potfile's rows, john --show's passwords, sqlmap's cracked cell, a glued AWS pair", () => {
    const [p1, p2, p3, p4, p5, p6, p7] = [`Welcome${s('0123456789', 4)}!`, `Autumn@${s('0123456789', 4)}*`, `Maple#${s('0123456789', 4)}#`, `${s(AN, 8)}.~r_*${s(AN, 4)}`, `Penguin${s('0123456789', 4)}#`, `Chelsea#${s('0123456789', 4)}?`, `Sunshine${s('0123456789', 4)}*`];
    const aws = s(AN + '/+', 40);
    const hash = HEXU();
    const forms: [string, string, string[]][] = [
      ['grep -B1 -A3 Accounts scan.nmap', `| ftp-brute:\n|   Accounts:\n|     admin:${p1} - Valid credentials\n|_  Statistics: Performed 12 guesses\n`, [p1]],
      ['grep -n -A6 http-brute scan.xml', `5:<script id="http-brute" output="&#xa;  Accounts: &#xa;    manager:${p2} - Valid credentials&#xa;  Statistics: x">\n8-<elem key="password">${p2}</elem>\n`, [p2]],
      ['./bin/nxc smb 10.10.20.15 -u users.txt -p passwords.txt', `SMB         10.10.20.15     445    DC01             [+] corp.local\\svc_backup:${p3} (Pwn3d!)\n`, [p3]],
      ["sed -n '/Dumping LSA Secrets/,$p' ws042.secrets", `[*] _SC_MSSQLSERVER \nCORP\\svc_sql:${p4}\n`, [p4]],
      ['tail -n 2 hashcat.potfile', `${hash}:${p5}\n`, [hash, p5]],
      ['./bin/john --show --format=NT ntds.hashes', `Administrator:${p6}:500:aad3b435b51404eeaad3b435b51404ee:${HEXU()}:::\n\n1 password hash cracked, 0 left\n`, [p6]],
      ['cat users.csv', `id,email,password,api_token\n1,admin@shop.local,${HEXU()} (${p7}),x\n`, [p7]],
      ["jq -c '{Raw, RawV2}' th.jsonl", `{"RawV2":"AKIA${s('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}${aws}"}\n`, [aws]],
    ];
    for (const [cmd, text, values] of forms) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, `${cmd}: ${v}`).not.toContain(v);
    }
    expect(new Redactor().maskCommandOutput('./bin/john --show x', `u:${p6}:500:::\n\n1 password hash cracked, 0 left\n`)).toContain('1 password hash cracked, 0 left');
  });

  it("lets the hooked CLI's cheap check see impacket's domain/user:password@host, nmap's and netexec's found credentials", () => {
    for (const out of [' 3399 python3 smbexec.py corp.local/svc_backup:MQ2_rUOLyF.D#1@10.10.20.15\n', '|     admin:Welcome1! - Valid credentials\n', 'SMB  10.0.0.1  445  DC01  [+] corp\\bob:Winter1 (Pwn3d!)\n'])
      expect(mayHoldSecret(JSON.stringify({ output: out })), out).toBe(true);
  });
});

describe("session 39: passes 207-209 (GitOps, web frameworks, data pipelines)", () => {
  it("keeps a SealedSecret's ciphertext under a secret's name (in a diff too) and a Secret's key named by a *Key setting; a token of the same length masked", () => {
    const sealed = () => Buffer.concat([Buffer.from([2, 0]), Buffer.from(s(AN, 560))]).toString('base64');
    const [a, b] = [sealed(), sealed()];
    const diff = `spec:\n  encryptedData:\n-    token: ${a}\n+    token: ${b}\n`;
    expect(new Redactor().maskCommandOutput('git diff', diff)).toBe(diff);
    const values = `      existingSecret: pg-auth\n      passwordSecretKey: admin-password\n      userPasswordKey: password\n`;
    expect(new Redactor().maskCommandOutput('grep -n -i password values-prod.yaml', values)).toBe(values);
    const tok = Buffer.from(s(AN, 560)).toString('base64');
    expect(new Redactor().mask(`    token: ${tok}\n`)).not.toContain(tok);
  });

  it("masks files printed by a for loop, pydantic's revealed secret, a value below its key under grep's marks, Symfony's vault key, the second cookie of a JSON header", () => {
    const [k1, k2, sec, base, tok] = [s(HEX, 32), s(HEX, 32), s(AN + '_-', 43), s(B64, 64), `eyJpdiI6${s(AN, 120)}%3D%3D`];
    const key = Array.from({ length: 32 }, () => `\\x${s('0123456789ABCDEF', 2)}`).join('');
    const forms: [string, string, string[]][] = [
      ['for f in config/master.key config/credentials/production.key; do echo "== $f"; cat "$f"; echo; done', `== config/master.key\n${k1}\n== config/credentials/production.key\n${k2}\n`, [k1, k2]],
      [`python3 -c "from settings import s; print(repr(s)); print(s.webhook_secret.get_secret_value())"`, `Settings(app_name='orders-api', webhook_secret=SecretStr('**********'))\n${sec}\n`, [sec]],
      ["grep -n -A2 secret_key_base config/*.exs", `config/prod.secret.exs:4:  secret_key_base:\nconfig/prod.secret.exs-5-    "${base}"\nconfig/prod.secret.exs-6-\n`, [base]],
      ['cat config/secrets/prod/prod.decrypt.private.php', `<?php // prod.decrypt.private on Fri, 14 Mar 2025 10:22:01 +0000\n\nreturn "${key}";\n`, [key]],
      ["jq '.content.headers' telescope-entry.json", `{\n  "cookie": "XSRF-TOKEN=${s(AN, 40)}; storefront_session=${tok}"\n}\n`, [tok]],
    ];
    for (const [cmd, text, values] of forms) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, `${cmd}: ${v}`).not.toContain(v);
    }
    const other = 'hello\n' + s(HEX, 32) + '\n';
    expect(new Redactor().maskCommandOutput('for f in README.md notes.txt; do cat "$f"; done', other)).toBe(other);
    const kept = "config/prod.secret.exs:4:  secret_key_base:\nconfig/prod.secret.exs-5-    System.get_env(\"SECRET_KEY_BASE\")\n";
    expect(new Redactor().maskCommandOutput('grep -n -A1 secret_key_base config/*.exs', kept)).toContain('4:  secret_key_base:');
  });

  it("masks spark-defaults' padded dotted keys under grep's numbers, a realm file's password named by grep -r's prefix, meltano's current values; a table of last-updated times kept", () => {
    const [sk, pw, m1] = [s(AN + '+/', 40), `Marble-Juniper${s('0123456789', 4)}`, `Juniper*Walnut${s('0123456789', 4)}`];
    const forms: [string, string, string[]][] = [
      ['grep -n s3a conf/spark-defaults.conf', `8:spark.hadoop.fs.s3a.bucket.acme-partner-drop.secret.key   ${sk}\n`, [sk]],
      ['grep -rn -i -e password -e connect-admin config/', `config/connect.password:connect-admin: ${pw},admin\n`, [pw]],
      ['./bin/meltano config target-snowflake list', `password [env: TARGET_SNOWFLAKE_PASSWORD] current value: '${m1}' (from \`.env\`)\naccount [env: TARGET_SNOWFLAKE_ACCOUNT] current value: 'acme-eu1' (from \`.env\`)\n`, [m1]],
    ];
    for (const [cmd, text, values] of forms) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, `${cmd}: ${v}`).not.toContain(v);
    }
    expect(new Redactor().maskCommandOutput('./bin/meltano config target-snowflake list', `account [env: TARGET_SNOWFLAKE_ACCOUNT] current value: 'acme-eu1' (from \`.env\`)\n`)).toContain("'acme-eu1'");
    const table = 'Key                      Last Updated Timestamp\npg_password              1710148442118\nsnowflake_private_key    1710148442999\n';
    expect(new Redactor().maskCommandOutput('databricks secrets list-secrets etl', table)).toBe(table);
  });
});

describe("session 39: passes 210 and 212 (remote access and VPNs, password managers and desktop stores)", () => {
  it("masks Guacamole's param, ip xfrm's keys, x11vnc's -passwd, KiTTY's and TeamViewer's stored passwords, MobaXterm's [Passwords]; a WireGuard public key kept", () => {
    const [g, k1, k2, vnc, kitty, tv, moba] = [`D^1vOp${s(AN, 8)}`, s(HEX, 64), s(HEX, 72), `Voyager!${s(AN, 8)}`, s(HEX, 48).toUpperCase(), Array.from({ length: 16 }, () => s(HEX, 2)).join(' '), s(B64, 40)];
    const forms: [string, string, string[]][] = [
      ['grep -n -i password user-mapping.xml', `8:            <param name="password">${g}</param>\n`, [g]],
      ['ip xfrm state', `\tauth-trunc hmac(sha256) 0x${k1} 128\n\taead rfc4106(gcm(aes)) 0x${k2} 128\n`, [k1, k2]],
      ['ps -eww -o pid,args', `13341 /bin/sh ./bin/x11vnc -display :0 -forever -rfbport 5900 -passwd ${vnc}\n`, [vnc]],
      ['grep -rH -i password kitty/Sessions', `kitty/Sessions/prod-db:Password\\${kitty}\\\n`, [kitty]],
      ['grep -n Password global.conf', `6:[bin  ] PermanentPassword = ${tv}\n`, [tv]],
      ["sed -n '/^\\[Passwords\\]/,/^\\[Bookmarks\\]/p' MobaXterm.ini", `[Passwords]\nssh22:root@10.0.0.4=${moba}\n[Bookmarks]\n`, [moba]],
    ];
    for (const [cmd, text, values] of forms) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, `${cmd}: ${v}`).not.toContain(v);
    }
    const pub = `${s(B64, 43)}=`;
    const wg = `interface: wg0\n  public key: ${pub}\n  listening port: 51820\n`;
    expect(new Redactor().maskCommandOutput('wg show', wg)).toBe(wg);
  });

  it("masks bw unlock's master password, a browser export's row without its header, HexChat's P=, a 1Password Secret Key; keepassxc's PROTECTED and a tool's own mask of stars kept", () => {
    const [bw, ff, hc] = [`lantern-pickle-${s(LOWER_AN, 8)}-78`, `_4%_w9YX${s(AN, 8)}`, `Meadow_juniper${s('0123456789', 2)}$`];
    const sk = `A3-${s('ABCDEFGHJKLMNPQRSTVWXYZ23456789', 6)}-${s('ABCDEFGHJKLMNPQRSTVWXYZ23456789', 6)}-${Array.from({ length: 5 }, () => s('ABCDEFGHJKLMNPQRSTVWXYZ23456789', 5)).join('-')}`;
    const forms: [string, string, string[]][] = [
      ["grep -n -E 'bw |BW_' .bash_history", `3:bw unlock '${bw}' --raw\n`, [bw]],
      ["grep -n -i git logins.csv", `2:"https://github.com","mokafor","${ff}",,"https://github.com","{63c2b4a1-1c2d-4e5f-8a9b-0c1d2e3f4a5b}","1699012345123","1699012345123","1699012345123"\n`, [ff]],
      ['grep -rni -e "^P=" .config', `.config/hexchat/servlist.conf:6:P=${hc}\n`, [hc]],
      ["grep -A2 'SECRET KEY' Emergency-Kit.txt", `SECRET KEY\n${sk}\n`, [sk]],
    ];
    for (const [cmd, text, values] of forms) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, `${cmd}: ${v}`).not.toContain(v);
    }
    const kept = 'Title: bastion\nUserName: ops\nPassword: PROTECTED\nURL: ssh://10.0.0.4\n';
    expect(new Redactor().maskCommandOutput('keepassxc-cli show Passwords.kdbx Servers/bastion', kept)).toBe(kept);
  });
});

describe("session 39: the own attack (adv211)", () => {
  it("masks mimikatz' dcsync keys and LSA text, Rubeus' hashes and a wrapped ticket's head, SharpDPAPI's keys, found passwords of netexec without a domain, metasploit and ncrack, Zabbix macro rows and contexts, SMTP transcripts' other marks, a value under grep -r's context line", () => {
    const H = () => s(HEX, 32);
    const [nt, a256, a128, des, txt, rc4, sha, pw1, pw2, pw3, z1, z2, z3, b1, b2, q] = [H(), s(HEX, 64), H(), s(HEX, 16), `Quartz.${s(AN, 8)}`, H(), s(HEX, 40).toUpperCase(), `Orchid${s('0123456789', 4)}!`, `Lantern${s('0123456789', 4)}!`, `Walnut.Orchid${s('0123456789', 4)}`, `Canyon#${s(AN, 8)}`, `Marble!${s(AN, 8)}`, s(AN, 18), b64(`Osprey!${s(AN, 6)}`), b64(`Thistle#${s(AN, 6)}`), `Meadow_${s(AN, 8)}`];
    const kirbi = `doIFeDCC${s(B64, 92)}`;
    const forms: [string, string, string[]][] = [
      ['cat loot/dcsync-krbtgt.txt', `  Hash NTLM: ${nt}\n    ntlm- 0: ${nt}\n      aes256_hmac       (4096) : ${a256}\n      aes128_hmac       (4096) : ${a128}\n      des_cbc_md5       (4096) : ${des}\n`, [nt, a256, a128, des]],
      ['cat loot/lsa-secrets.txt', `Secret  : DefaultPassword\ncur/text: ${txt}\n`, [txt]],
      ["grep -n Using loot/rubeus-run.txt", `3:[*] Using rc4_hmac hash: ${rc4}\n`, [rc4]],
      ['cat loot/rubeus-asktgt.txt', `  [*] base64(ticket.kirbi):\n\n      ${kirbi}\n`, [kirbi]],
      ['cat loot/sharpdpapi.txt', `{616f5c23-4748-4382-9a5d-87b630b9c020}:${sha}\n`, [sha]],
      ["grep -F '[+]' scans/nxc.txt", `SSH         10.0.0.5        22     10.0.0.5         [+] root:${pw1}  Linux - Shell access!\n`, [pw1]],
      ['grep -n Success scans/msf.log', `2:[+] 10.0.0.5:22 - Success: 'root:${pw2}' 'uid=0(root) gid=0(root)'\n`, [pw2]],
      ['cat scans/ncrack-ssh.txt', `10.0.0.8 21/tcp ftp: 'backup' '${pw3}'\n`, [pw3]],
      ["jq -r '.result[] | \"\\(.macro)\\t\\(.value)\"' macros.json", `{$MYSQL.PASSWORD}\t${z1}\n{$MYSQL.PORT}\t3306\n`, [z1]],
      ["sed -n '/macros:/,$p' template_mysql.yaml", `      macros:\n        - macro: '{$MYSQL.PASSWORD:"db01"}'\n          value: '${z2}'\n        - macro: '{$MYSQL.PASSWORD:"db02"}'\n          value: ${z3}\n`, [z2, z3]],
      ['tail -n 12 logs/report-mailer.log', `Net::SMTP=GLOB(0x55d0c8a1e2f8)<<< 334 UGFzc3dvcmQ6\nNet::SMTP=GLOB(0x55d0c8a1e2f8)>>> ${b1}\n`, [b1]],
      ['msmtp --debug -t', `<-- 334 UGFzc3dvcmQ6\n--> ${b2}\n`, [b2]],
      ["grep -r -A1 'password:$' config/", `config/database.yml:  password:\nconfig/database.yml-    "${q}"\n`, [q]],
    ];
    for (const [cmd, text, values] of forms) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, `${cmd}: ${v}`).not.toContain(v);
    }
    expect(new Redactor().maskCommandOutput("sed -n '/macros:/,$p' t.yaml", `        - macro: '{$MYSQL.PASSWORD:"db01"}'\n          value: 'x-y-z-1'\n`)).toContain('{$MYSQL.PASSWORD:"db01"}');
  });

  it("keeps an RSA public key beside its JSON-escaped private key, a 3072-bit SealedSecret, the empty NT hash in capitals, gh's cache keys, a password-policy file's settings, a site's own stream names, meltano's public *_KEY_* settings", () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const spki = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    const dkim = JSON.stringify({ pubkey: spki, dkim_txt: `v=DKIM1;k=rsa;t=s;s=email;p=${spki}`, privkey: pem }, null, 2) + '\n';
    const shownDkim = new Redactor().maskCommandOutput('jq . dkim.json', dkim);
    expect(shownDkim).toContain(spki);
    expect(shownDkim).not.toContain(pem.split('\n')[12]);
    const sealed = Buffer.concat([Buffer.from([1, 128]), Buffer.from(s(AN, 420))]).toString('base64');
    const sealedYaml = `spec:\n  encryptedData:\n    password: ${sealed}\n`;
    expect(new Redactor().maskCommandOutput('cat sealed-db.yaml', sealedYaml)).toBe(sealedYaml);
    const kept: [string, string][] = [
      ['cat loot/pwdump7.txt', 'Guest:501:AAD3B435B51404EEAAD3B435B51404EE:31D6CFE0D16AE931B73C59D7E0C089C0:::\n'],
      ['gh cache list --limit 3', `ID          KEY                                                    SIZE       CREATED\n4417263518  node-cache-Linux-x64-npm-${s(HEX, 40)}  48.21 MiB  about 2 hours ago\n4391842207  Linux-gradle-${s(HEX, 40)}                301.7 MiB  about 1 day ago\n`],
      ['head -n 20 hardening/password-policy.txt hardening/sshd-policy.txt', '==> hardening/password-policy.txt <==\nminlen=14\ndcredit=-1\nucredit=-1\nenforce_for_root\n\n==> hardening/sshd-policy.txt <==\nPermitRootLogin no\n'],
      ['cat conf/live/PushPublishMap.txt', 'studio_b={"entryName":"origin", "profile":"rtmp", "host":"origin2.media.example.net", "application":"live", "streamName":"studio_b_program_1080p"}\n'],
      ['meltano config tap-rest-api-msdk list', "api_key_header [env: TAP_REST_API_MSDK_API_KEY_HEADER] current value: 'X-Partner-Api-Key' (from `meltano.yml`)\nprimary_keys [env: TAP_REST_API_MSDK_PRIMARY_KEYS] current value: 'order_id' (from `meltano.yml`)\n"],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
  });
});

describe("session 39: a DSN with no credentials in it (pass 208 L28)", () => {
  it("keeps a transport's DSN with no user, password or secret parameter, in a later command too; a DSN's key or password masked", () => {
    const r = new Redactor();
    const kept = 'MESSENGER_TRANSPORT_DSN=doctrine://default?auto_setup=0\nREDIS_DSN=redis://cache:6379/0\n';
    expect(r.mask(kept)).toBe(kept);
    expect(r.mask('  MESSENGER_TRANSPORT_DSN n/a             "doctrine://default?auto_setup=0"\n')).toContain('doctrine://default?auto_setup=0');
    const [key, pw] = [s(HEX, 32), `S3cr${s(AN, 8)}`];
    const shown = new Redactor().mask(`SENTRY_DSN=https://${key}@o1.ingest.sentry.io/42\nMAILER_DSN=smtp://smtp.example.com:25?password=${pw}\n`);
    for (const v of [key, pw]) expect(shown, v).not.toContain(v);
  });
});

describe("session 39: the hooked CLI's cheap check sees this session's short found passwords (adv211 F40)", () => {
  it("lets metasploit's, ncrack's, mimikatz' and netexec's found passwords through to the scanner", () => {
    for (const out of ["2:[+] 10.0.0.5:22 - Success: 'root:Saffron2025!' 'uid=0(root)'\n", "10.0.0.8 21/tcp ftp: 'backup' 'Walnut.Orchid3144'\n", 'cur/text: Quartz.Saffron55\n', 'SSH  10.0.0.5  22  h  [+] root:Orchid2025!  Linux\n'])
      expect(mayHoldSecret(JSON.stringify({ command: 'grep -n x y', output: out })), out).toBe(true);
  });
});

describe("session 39: the closing attack (adv213)", () => {
  it("masks KeyTabExtract's and pypykatz' hashes, kerbrute's and crowbar's found passwords, Zabbix macros as CSV, meltano's APIKEY, swaks under compose's prefix", () => {
    const [k1, nt, pw1, pw2, z, m, b] = [s(HEX, 64), s(HEX, 32), `Falcon#${s(AN, 8)}`, `Willow!${s(AN, 8)}`, `Lantern*${s(AN, 6)}`, s(AN, 17), b64(`Falcon.${s(AN, 8)}`)];
    const forms: [string, string, string[]][] = [
      ['python3 keytabextract.py http.keytab', `[+] Keytab File successfully imported.\n\tREALM : CORP.LOCAL\n\tAES-256 HASH : ${k1}\n`, [k1]],
      ['grep -A8 "== MSV ==" lsass.pypykatz.txt', `\t\t== MSV ==\n\t\t\tUsername: svc_sql\n\t\t\tNT: ${nt}\n`, [nt]],
      ["grep 'VALID LOGIN' kerbrute.out", `2024/06/11 09:14:02 >  [+] VALID LOGIN:\t jdoe@corp.local:${pw1}\n`, [pw1]],
      ['cat crowbar.log', `2024-06-11 09:14:02 RDP-SUCCESS : 10.0.0.12:3389 - administrator:${pw2}\n`, [pw2]],
      ["jq -r '.result[] | [.macro, .value, .description] | @csv' macros.json", `"{$SMTP.PASSWORD}","${z}","mail relay"\n`, [z]],
      ['meltano config target-s3-csv list', `api_key [env: TAP_AIRTABLE_APIKEY] current value: '${m}' (from \`.env\`)\n`, [m]],
      ["grep -A5 'AUTH LOGIN' compose.log", `mailer-1  |  -> AUTH LOGIN\nmailer-1  | <-  334 UGFzc3dvcmQ6\nmailer-1  |  -> ${b}\n`, [b]],
    ];
    for (const [cmd, text, values] of forms) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, `${cmd}: ${v}`).not.toContain(v);
    }
  });

  it("keeps a KEY column of SHA-256 object ids, a pot of the empty password's hash, Zabbix's Vault secret paths", () => {
    const kept: [string, string][] = [
      ['column -t -s $"\\t" objects.tsv', `KEY                                                               SIZE   LAST_MODIFIED\n${s(HEX, 64)}  18234  2024-06-10T22:14:03Z\n`],
      ['cat john.pot', '$NT$31d6cfe0d16ae931b73c59d7e0c089c0:\n'],
      ["jq -r '.result[] | \"\\(.macro)\\t\\(.value)\"' macros.json", '{$MYSQL.PASSWORD}\tsecret/zabbix/mysql:password\n{$VMWARE.PASSWORD}\tkv/data/vcenter:password\n'],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
  });
});

describe("session 39: a key path without its leading slash before a TAB (adv213 F2)", () => {
  it("masks jq's paths(scalars) rows whose path ends in a secret's name; the other rows kept", () => {
    const pw = `Zephyr@${s(AN, 10)}`;
    const t = `ServiceSettings/SiteURL\thttps://chat.example.org\nEmailSettings/SMTPUsername\tmailer\nEmailSettings/SMTPPassword\t${pw}\nSqlSettings/DriverName\tpostgres\n`;
    const shown = new Redactor().maskCommandOutput(`jq -r 'paths(scalars) as $p | [($p|map(tostring)|join("/")), getpath($p)] | @tsv' config.json`, t);
    expect(shown).not.toContain(pw);
    for (const v of ['SiteURL\thttps://chat.example.org', 'SMTPUsername\tmailer', 'DriverName\tpostgres']) expect(shown, v).toContain(v);
  });
});

describe("session 39: the closing attack's and own attack's leftovers, second round", () => {
  it("masks ejabberd's REST rows, a keytab's dicts, mimikatz' masterkey and cur/hex, ktutil's keys, a ccache in base64, sqlmap's boxed cracked cells, AUTH LOGIN after a journal prefix and with ^M, Zabbix XML with <type> between, 26-character KEY cells", () => {
    const [tok, k1, mk, hexb, kk, kh, p1, b1, b2, z, mm] = [s(AN, 32), s(HEX, 64), s(HEX, 128), Array.from({ length: 16 }, () => s(HEX, 2)).join(' '), s(HEX, 64), s(HEX, 64), `Zephyr-Pylon${s('0123456789', 4)}`, b64(`Quartz!${s(AN, 8)}`), b64(`Cobalt.${s(AN, 8)}`), `Basalt*${s(AN, 8)}`, s(LOWER_AN, 26)];
    const ccache = `BQQADAABAAj${s(B64, 300)}`;
    const forms: [string, string, string[]][] = [
      ["jq -r '.[] | \"\\(.token)\\t\\(.user)\\t\\(.expires_in)\"' oauth_list_tokens.json", `${tok}\tadmin@xmpp.example.org\t31535879 seconds\n`, [tok]],
      ['python3 dump_keytab.py svc_backup.keytab', `{'principal': 'svc_backup@CORP.LOCAL', 'kvno': 4, 'etype': 'aes256-cts-hmac-sha1-96', 'key': '${k1}'}\n`, [k1]],
      ['cat mimikatz.log', `[masterkey] with volatile cache: SID:S-1-5-21-1-2-3-1105\n  key : ${mk}\n`, [mk]],
      ['cat loot/lsa-secrets.txt', `Secret  : NL$KM\ncur/hex : ${hexb}\n`, [hexb]],
      ["printf 'rkt http.keytab\\nlist -k\\nq\\n' | ktutil", `   1    2       HTTP/app.corp.example.com@CORP.EXAMPLE.COM (0x${kk})\n`, [kk]],
      ['ktutil -k http.keytab list --keys', `  2  aes256-cts-hmac-sha1-96  HTTP/app.corp.example.com@CORP.EXAMPLE.COM  2024-03-01           ${kh}\n`, [kh]],
      ['base64 -w0 Administrator.ccache; echo', `${ccache}\n`, [ccache]],
      ['cat output/blog.example.org/log', `+----+--------+------------------------------------------------------+\n| id | user   | user_pass                                            |\n+----+--------+------------------------------------------------------+\n| 1  | admin  | $P$B${s(AN, 30)} (${p1}) |\n+----+--------+------------------------------------------------------+\n`, [p1]],
      ["grep -F 'mailer.go' gitea.journal", `Jun 11 09:14:02 app01 gitea[812]: mailer.go:311:sendMail() [T] S: 334 UGFzc3dvcmQ6\nJun 11 09:14:02 app01 gitea[812]: mailer.go:311:sendMail() [T] C: ${b1}\n`, [b1]],
      ['cat -v smtp-session.typescript', `334 UGFzc3dvcmQ6^M\n${b2}^M\n`, [b2]],
      ["grep -A2 '<macro>{\\$' zbx_export_templates.xml", `          <macro>{$SMTP.PASSWORD}</macro>\n          <type>SECRET_TEXT</type>\n          <value>${z}</value>\n`, [z]],
      ["column -t -s $'\\t' bot-tokens.tsv", `NAME         KEY                         OWNER\nci-notify    ${mm}  jenkins-bot\n`, [mm]],
    ];
    for (const [cmd, text, values] of forms) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, `${cmd}: ${v}`).not.toContain(v);
    }
  });
});

describe("session 40: the closing attack 213's leftovers", () => {
  it("masks a block scalar under docker compose's log prefix, a loop's labelled secret files, a set-cookie list, the SHA-1 below an NT hash or a master key, cracked rows", () => {
    const [sig, ck, p1, p2, cookie, nt, sha, mk, msha, c1, c2] = [s(B64, 64), s(HEX, 64), `Harbor@${s(AN, 8)}`, s(AN, 30), s(HEX, 64), s(HEX, 32), s(HEX, 40), s(HEX, 128), s(HEX, 40), `Willow@${s(AN, 9)}`, `Tundra-${s(AN, 10)}`];
    const forms: [string, string, string[]][] = [
      ["grep -A1 '_secret:' compose.log", `web-1  |   signing_secret: >-\nweb-1  |     ${sig}\n--\nweb-1  |   cookie_secret:\nweb-1  |     ${ck}\n`, [sig, ck]],
      ['for svc in smtp xmpp; do printf "%s " "$svc"; cat "secrets/${svc}_password"; done', `smtp ${p1}\nxmpp ${p2}\n`, [p1, p2]],
      ['node inspect.js', `{\n  headers: {\n    'set-cookie': [\n      'theme=dark; Path=/',\n      'remember_me=${cookie}; Max-Age=2592000; Path=/; HttpOnly'\n    ]\n  }\n}\n`, [cookie]],
      ["grep -A8 '== MSV ==' lsass.pypykatz.txt", `\t== MSV ==\n\t\tUsername: jdoe\n\t\tLM: NA\n\t\tNT: ${nt}\n\t\tSHA1: ${sha}\n`, [nt, sha]],
      ['cat mimikatz.log', `[DC] 'dc01.corp.local' will be the DC server\n  key : ${mk}\n  sha1: ${msha}\n`, [mk, msha]],
      ['cat cracked.out', `${s(HEX, 32)}:${c1}\n${s(HEX, 32)}:${c2}\n`, [c1, c2]],
    ];
    for (const [cmd, text, values] of forms) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, `${cmd}: ${v}`).not.toContain(v);
    }
    // Kept: a theme cookie, a loop's labels, a git commit's SHA-1 under no hash, a single hash:name line, compose's other lines.
    const kept: [string, string][] = [
      ['node inspect.js', `{\n  'set-cookie': [\n    'theme=dark; Path=/'\n  ]\n}\n`],
      ['git log --format="  NT: NA%n  SHA1: %H" -1', `  NT: NA\n  SHA1: ${'a1'.repeat(20)}\n`],
      ['cat sums.txt', `${'d41d8cd98f00b204e9800998ecf8427e'}:empty.txt\nREADME\n`],
      ['docker compose logs web', 'web-1  |   log_level: >-\nweb-1  |     debug\n'],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
    expect(new Redactor().maskCommandOutput(forms[1][0], forms[1][1])).toContain('smtp ');
  });
});

describe("session 40: blind passes 215–218 (telephony, HPC, game servers, healthcare and banking)", () => {
  it("masks RCON, fs_cli, SIPp and sapcontrol passwords on command lines, glued PW names, PascalCase directives, security keys, HSM PINs and keys, FTP scripts' PASS, pmpasswd, conda tokens on any host, jupyterhub and nextflow printers, passwords.d files", () => {
    const [rc, fs, sp, sap, pw1, pw2, d1, sk, pin, zpk, ftp, enc, dec, tok, hub, nf] = [s(AN, 16), `${s(AN, 8)}#${s(AN, 4)}`, `${s(AN, 6)}@${s(AN, 5)}`, `Quartz_${s(AN, 9)}=`, `Kraken_${s(AN, 8)}!`, `Kg_${s(AN, 11)}`, s(AN, 14), b64(s(AN, 32)), `${s(AN, 4)}-${s(AN, 4)}-${s(AN, 4)}-${s(AN, 4)}`, s(HEX, 32).toUpperCase(), `AQ${s(AN, 5)}@`, `${s(B64, 22)}==`, `Glacier-${s(AN, 8)}!`, `ra-${uuid()}`, s(HEX, 32), `${s(B64, 40)}`];
    const forms: [string, string, string[]][] = [
      ["grep -n '^Exec' minecraft.service", `10:ExecStop=/usr/local/bin/mcrcon -H 127.0.0.1 -P 25575 -p ${rc} stop\n`, [rc]],
      ['ps -o args=', `fs_cli -H 127.0.0.1 -P 8021 -p ${fs} -x status\n`, [fs]],
      ["( set -x; ./bin/sipp -au 1004 -ap \"$SIP_PW\" 127.0.0.1 )", `++ ./bin/sipp -sf reg.xml -au 1004 -ap ${sp} -s 1004 -m 1 127.0.0.1:5060\n`, [sp]],
      ['ps -o pid=,user=,args=', `12145 root     sapcontrol -nr 00 -host sapprd01 -user sapadm ${sap} -function GetProcessList\n`, [sap]],
      ["docker inspect cs2 | jq -r '.[0].Config.Env[]'", `CS2_RCONPW=${pw1}\n`, [pw1]],
      ["grep -E '^DB(RW|RO)' kamctlrc", `DBRWPW="${pw2}"\n`, [pw2]],
      ['cat battleye/BEServer_x64.cfg', `RConPassword ${d1}\nRConPort 2306\n`, [d1]],
      ['grep -n -i remote SpaceEngineers-Dedicated.cfg', `10:  <RemoteSecurityKey>${sk}</RemoteSecurityKey>\n`, [sk]],
      ["node -e 'console.log(require(\"./config/hsm.js\"))'", `{\n  partition: 'PAY-PRD-01',\n  coPin: '${pin}'\n}\n`, [pin]],
      ['diff -u switch.properties.bak switch.properties', `+acquirer.zpk.clear=${zpk}\n`, [zpk]],
      ['cat -n jobs/submit.ftp', `     2\tquote USER BATCH01\n     3\tquote PASS ${ftp}\n`, [ftp]],
      ['./bin/pmpasswd x -e CRYPT_DATA', `Encrypted string -->${enc}<--\nWill decrypt to -->${dec}<--\n`, [enc, dec]],
      ['cat .condarc', `custom_channels:\n  internal: https://conda.hpc.lab/t/${tok}\n`, [tok]],
      ['./bin/jupyterhub token admin', `[I 2024-05-14 09:12:03.118 JupyterHub app:2859] Running JupyterHub version 4.1.5\n${hub}\n`, [hub]],
      ['./bin/nextflow secrets get AWS_SECRET', `${nf}\n`, [nf]],
      ['base64 -w0 etc/condor/passwords.d/POOL; echo', `${s(B64, 120)}==\n`, []],
    ];
    forms[forms.length - 1][2].push(forms[forms.length - 1][1].trim());
    for (const [cmd, text, values] of forms) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, `${cmd}: ${v}`).not.toContain(v);
    }
    // Kept: a placeholder in angle brackets, a WS-Security digest, a test runner's PASS, an Unreal URL's other options, a key's check value.
    const kept: [string, string][] = [
      ["./bin/asterisk -rx 'sip show peer 6001'", '  Secret       : <Set>\n  MD5Secret    : <Not set>\n  Remote Secret: <Not set>\n'],
      ['cat logs/soap-digest.log', `  <wsse:Password Type="http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest">${b64(s(AN, 20))}</wsse:Password>\n`],
      ['npx jest', ' PASS  src/app.test.ts\n PASS  src/util.test.ts (5.1 s)\n'],
      ['cat x.cfg', 'zmk_kcv=1A2B3C\n'],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
    const ark = new Redactor().maskCommandOutput('ps -ef', `  482  ./ShooterGameServer "TheIsland?listen?ServerPassword=${s(AN, 10)}?Port=7777?MaxPlayers=40" -server\n`);
    expect(ark).toContain('?Port=7777?MaxPlayers=40');
    // A list of the secrets' names beside the printer of one: the names stay, the value is masked.
    const listed = new Redactor().maskCommandOutput('./bin/nextflow secrets list; ./bin/nextflow secrets get AWS_SECRET', `AWS_SECRET\nGITHUB_TOKEN\n${nf}\n`);
    expect(listed).toContain('AWS_SECRET\nGITHUB_TOKEN\n');
    expect(listed).not.toContain(nf);
    // awk's pick of a secret's line printed after its file's name.
    const tokenLine = s(AN, 64);
    const awked = new Redactor().maskCommandOutput(`awk -F': ' '/^token/ {print FILENAME": "$2}' plugins/BungeeGuard/config.yml`, `plugins/BungeeGuard/config.yml: ${tokenLine}\n`);
    expect(awked).not.toContain(tokenLine);
    expect(awked).toContain('plugins/BungeeGuard/config.yml: ');
  });

  it("masks Magento's config:show values (one path alone, `path - value` lines), SAP Commerce's initial passwords, eBay's Cert ID; keeps composer's content-hash", () => {
    const [bt, pp, fx, ip, cert] = [s(HEX, 32), s(AN, 16), s(AN, 16), `Sunset%${s(AN, 8)}`, `PRD-${s(HEX, 12)}-${s(HEX, 4)}-${s(HEX, 4)}-${s(HEX, 4)}-${s(HEX, 4)}`];
    const forms: [string, string, string[]][] = [
      ['./bin/magento config:show payment/braintree/private_key', `${bt}\n`, [bt]],
      ["./bin/magento config:show | grep -iE 'paypal|fedex'", `paypal/wpp/api_password - ${pp}\ncarriers/fedex/key - ${fx}\npaypal/wpp/api_mode - live\n`, [pp, fx]],
      ["grep -nE 'password' config/local.properties", `6:initialpassword.admin=${ip}\n`, [ip]],
      ['cat ebay.yaml', `  appid: AcmeOutf-ShopSync-PRD-b73109e60-b5f417ce\n  certid: ${cert}\n`, [cert]],
    ];
    for (const [cmd, text, values] of forms) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, `${cmd}: ${v}`).not.toContain(v);
    }
    for (const [cmd, text] of [
      ["jq '{\"content-hash\": .\"content-hash\"}' composer.lock", `  "content-hash": "${s(HEX, 32)}",\n`],
      ['./bin/magento config:show | grep paypal', 'paypal/wpp/api_mode - live\n'],
      ['cat ebay.yaml', '  appid: AcmeOutf-ShopSync-PRD-b73109e60-b5f417ce\n'],
    ]) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
  });

  it("masks a key ceremony's clear component in groups of four hex digits, not its check value", () => {
    const comp = Array.from({ length: 8 }, () => s(HEX, 4).toUpperCase()).join(' ');
    const shown = new Redactor().maskCommandOutput('grep -H Component ceremony/zmk_comp*.txt', `ceremony/zmk_comp1.txt:Component      : ${comp}\nceremony/zmk_comp1.txt:KCV            : 1A2B3C\n`);
    expect(shown).not.toContain(comp);
    expect(shown).toContain('KCV            : 1A2B3C');
  });
});

describe("session 40: the closing attack adv219's fixes", () => {
  it("masks block scalars under timestamps and journald's prefix, cracked files by name, .token files, escaped-quote passwords in a hook's log, Informatica's and Kamailio's and sipsak's passwords, pypykatz' SHAHash, a PKCS#11 PIN, camelCase payment keys and PIN names", () => {
    const [t1, t2, t3, cr, tok, sap, rc, pm, kam, sha, pin, so, zpk, rpw] = [s(HEX, 64), s(B64, 43), s(AN, 40), `Orchid${s(AN, 8)}#`, `ra-${uuid()}`, `Walnut_${s(AN, 6)}#`, `_zG?${s(AN, 10)}`, `Tundra-${s(AN, 8)}?`, `t+${s(AN, 10)}`, s(HEX, 40), s(AN, 12), `@${s(AN, 9)}`, s(HEX, 32).toUpperCase(), `Lj+-${s(AN, 12)}`];
    const forms: [string, string, string[]][] = [
      ["grep -A6 'effective values' logs/compose-hub.log", `proxy-1  | 2024-12-06T06:01:02.120210874Z   secretToken: |\nproxy-1  | 2024-12-06T06:01:02.120210874Z     ${t1}\n`, [t1]],
      ["grep -F 'ood-portal[' logs/journal-ood.txt", `Dec 06 06:01:02 hpc-login01 ood-portal[2211]:   client_secret: |\nDec 06 06:01:02 hpc-login01 ood-portal[2211]:     ${t2}\n`, [t2]],
      ['cat pod.log', `[pod/lims-worker-5d8f6/worker] 2024-12-06T06:01:02.120219021Z   api_token: |\n[pod/lims-worker-5d8f6/worker] 2024-12-06T06:01:02.120219021Z     ${t3}\n`, [t3]],
      ['tail -n 1 cracked.out', `${s(HEX, 32)}:${cr}\n`, [cr]],
      ['cat .continuum/anaconda-client/tokens/*.token; echo', `${tok}\n`, [tok]],
      ['tail -n 2 .claude/hooks.log', `{"command":"sapcontrol -nr 00 -user sapadm \\"${sap}\\" -function Stop"}\n{"command":"mcrcon -H 127.0.0.1 -P 25575 -p \\"${rc}\\" \\"say hi\\""}\n`, [sap, rc]],
      ['bash -x run_wf.sh 2>&1', `+ pmrep connect -r REP_ETL -d Domain_ETL -n Administrator -x '${pm}'\n`, [pm]],
      ['tail -n 2 .bash_history', `kamctl add 1001 ${kam}\n`, [kam]],
      ["jq -c '.msv' lsass.json", `{"credtype":"msv","SHAHash":"${sha}"}\n`, [sha]],
      ['grep -rn pkcs11 nginx/', `nginx/NOTES:1:openssl req -engine pkcs11 -key "pkcs11:object=tls-key?pin-value=${pin}" -out edge.csr\n`, [pin]],
      ['( set -x; softhsm2-util … )', `+ softhsm2-util --init-token --free --label edge-tls --so-pin ${so} --pin ${so}x\n`, [so]],
      ["node -e 'console.log(require(\"./switch.config.js\"))'", `{\n  acquirerZpk: '${zpk}',\n  cryptoOfficerPin: '${pin}'\n}\n`, [zpk, pin]],
      ['jq .Server appsettings.json', `  "RconPw": "${rpw}",\n`, [rpw]],
      // Second round: a `while read` loop's labels, an ARRCON argv list in a Python error.
      ["printf 'ldap\\nsmtp\\n' | while read s; do printf '%s ' \"$s\"; cat \"secrets/$s\"; echo; done", `ldap ${cr}\nsmtp ${pm}\n`, [cr, pm]],
      // Pass 220: radtest's password and shared secret, Shibboleth's data sealer keys.
      ["grep -nE 'radtest' .bash_history", `3:radtest -t mschap jdoe@campus.edu '${cr}' 127.0.0.1 0 ${pin}\n`, [cr, pin]],
      ['cat sealer.keys; wc -l sealer.keys', `1:${b64(s(AN, 32))}\n2:${t2}=\n2 sealer.keys\n`, [`${t2}=`]],
      ['python3 save_world.py 2>&1 | tail -n 4', `subprocess.CalledProcessError: Command '['./bin/ARRCON', '-H', '127.0.0.1', '-P', '27020', '-p', '${rc}', 'saveworld']' returned non-zero exit status 1.\n`, [rc]],
    ];
    for (const [cmd, text, values] of forms) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, `${cmd}: ${v}`).not.toContain(v);
    }
  });

  it("keeps what adv219's look-alikes printed: md5sum's hash:file rows, a cache key's SHA-256 above a commit, a test log's PASS, notes in angle brackets, WSE's PasswordDigest, a key's check value, env: references, a radio's TXPW, preference cookies", () => {
    const kept: [string, string][] = [
      ["md5sum reads/*.fastq | awk '{print $1\":\"$2}'", `${s(HEX, 32)}:reads/S1_R1.fastq\n${s(HEX, 32)}:reads/S1_R2.fastq\n${s(HEX, 32)}:notes.txt\n`],
      ['cat ci/cache-restore.log', `key : ${s(HEX, 64)}\nsha1: ${s(HEX, 40)}\n`],
      ['cat build/test-suite.log', 'lexer: string literal PASS (14 asserts)\nparser: quote PASS (9 asserts)\n'],
      ['cat deploy/values.example.yaml', '  password: <rcon password, 16+ chars>\n  password: <not set>.\n'],
      ['cat soap/request.xml', `<wsse:Password Type="wsse:PasswordDigest">${b64(s(AN, 20))}</wsse:Password>\n`],
      ['grep -n acquirer switch.properties', `2:acquirer.zpk.kcv=${s(HEX, 16).toUpperCase()}\n`],
      ['jq .pkcs11 hsm.json', '{\n  "userPin": "env:HSM_USER_PIN"\n}\n'],
      ['grep -n TXPW board/*.env', '3:BLE_TXPW=ESP_PWR_LVL_P9\n'],
      ['node headers.js', "{\n  'set-cookie': [\n    'tz=Europe%2FAmsterdam; Path=/; Max-Age=31536000',\n    'ab_bucket=checkout-v2; Path=/',\n    'consent=necessary.analytics; Path=/'\n  ]\n}\n"],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
  });

  it("masks MAVProxy's signing passphrase and Husarnet's join code (pass 222 F6, F36); prose about a signing key kept", () => {
    const [ph, jc] = [`Nimbus-${s(AN, 6)}-${s('0123456789', 4)}`, s(AN, 22)];
    const a = new Redactor().maskCommandOutput('grep -n signing .mavproxy/mavinit.scr', `4:module load signing\n5:signing setup ${ph}\n6:signing key ${ph}\n`);
    expect(a).not.toContain(ph);
    const b = new Redactor().maskCommandOutput('grep -n -B1 JOINCODE docker-compose.yml', `15:      - JOINCODE=fc94:b01d:1803:8dd8:b293:5c7d:7639:932a/${jc}\n`);
    expect(b).not.toContain(jc);
    const prose = 'We use signing key rotation yearly.\n';
    expect(new Redactor().maskCommandOutput('cat notes.txt', prose)).toBe(prose);
  });

  it("masks a rotated RSA key's diff lines in a read's window that starts inside the old key (pass 222 F20: the session's 128 values overflowed)", () => {
    const pem = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const [a, b] = [pem().trimEnd().split('\n'), pem().trimEnd().split('\n')];
    const diff = ['--- a.key', '+++ b.key', '@@ -1,27 +1,27 @@', ` ${a[0]}`, ...a.slice(1, -1).map((l) => `-${l}`), ...b.slice(1, -1).map((l) => `+${l}`), ` ${a[a.length - 1]}`].join('\n') + '\n';
    const r = new Redactor();
    r.maskCommandOutput('diff -u a.key b.key', diff);
    const body = a.slice(1, -1);
    for (let i = 0; i + 3 <= body.length; i += 3) {
      const window = body.slice(i, i + 3).map((l) => `-${l}`).join('\n') + '\n';
      const shown = r.mask(window);
      for (const l of body.slice(i, i + 3)) if (l.length >= 40) expect(shown, `line ${i}`).not.toContain(l);
    }
  });

  it("keeps a rotated key's diff lines apart: the new line, as long as the old, is no fold of the old value (pass 223 F28)", () => {
    const [o, n] = [s(B64, 86).replace(/[+/]/g, '-'), s(B64, 86).replace(/[+/]/g, '_')];
    const shown = new Redactor().maskCommandOutput('git diff', `@@ -1,2 +1,2 @@\n-GOCARDLESS_SECRET_KEY=${o}\n+GOCARDLESS_SECRET_KEY=${n}\n[exit 0]\n`);
    expect(shown).toBe('@@ -1,2 +1,2 @@\n-GOCARDLESS_SECRET_KEY=[masked: key]\n+GOCARDLESS_SECRET_KEY=[masked: key]\n[exit 0]\n');
  });

  it("masks session 40's stop-check leftovers: a join code's name after a prefix, ftp's `--> PASS`, `adminPw`, a glob loop over a secret directory, a bare Set-Cookie string", () => {
    const [jc, pw, tok, sid] = [s(AN, 22), `Qx${s(AN, 8)}7!`, s(AN, 50), s(AN, 40)];
    const cases: [string, string, string][] = [
      ['env', `HUSARNET_JOINCODE=fc94:b01d::1/${jc}\n`, jc],
      ['cat ftp.log', `--> USER deploy\n--> PASS ${pw}\n`, pw],
      ['cat values.yaml', `adminPw: ${pw}\n`, pw],
      ['for f in tokens.d/*; do cat "$f"; done', `${tok}\n`, tok],
      ['node x.js', `[ 'session=${sid}; Path=/; HttpOnly' ]\n`, sid],
    ];
    for (const [cmd, text, v] of cases) expect(new Redactor().maskCommandOutput(cmd, text), cmd).not.toContain(v);
    const kept: [string, string][] = [
      ['cat radio.yaml', 'maxPw: 20\n'],
      ['node prefs.js', "[ 'theme=dark; Path=/', 'tz=Europe%2FAmsterdam; Path=/; Max-Age=31536000' ]\n"],
      ['for f in logs/*; do cat "$f"; done', `build ${s(HEX, 40)} ok\n`],
      ['npm test', '--> PASS src/a.test.ts (3 tests)\n'],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
  });

  it("masks network gear's secrets (pass 224): IOS' `key 0` under grep's prefix, FortiOS' psksecret, Aruba's ciphertext and hex, a host line's key, RANCID's .cloginrc, tac_plus' key, RouterOS' PASSWORD column", () => {
    const pw = () => `${s(AN, 6)}#${s(AN, 6)}!${s('0123456789', 3)}`;
    const [k0, enc, plain, ct, hex48, hex64, hostKey, vty, ena, tac, ros] = [pw(), b64(s(AN, 110)), pw(), `AQB${s(B64, 60).replace(/[+/]/g, 'x')}`, s(HEX, 48), s(HEX, 64), pw(), pw(), pw(), pw(), pw()];
    const cases: [string, string, string[]][] = [
      ['grep -n -A3 -E "^radius server" core.cfg', `11:radius server ISE-RAD1\n12- address ipv4 10.40.1.22 auth-port 1812\n13- key 0 ${k0}\n14-!\n`, [k0]],
      ['grep -n psksecret fgt.conf', `12:        set psksecret ENC ${enc}\n17:        set psksecret "${plain}"\n`, [enc, plain]],
      ['grep -rn ciphertext aruba/', `aruba/cx.cfg:2:user admin group administrators password ciphertext ${ct}\naruba/md.cfg:1:mgmt-user admin root ${hex48}\naruba/md.cfg:5:   wpa-passphrase ${hex64}\n`, [ct, hex48, hex64]],
      ['sed -n 3,8p hp2930.cfg', `radius-server host 10.40.1.22 key "${hostKey}"\n`, [hostKey]],
      ["grep -v '^#' .cloginrc", `add user *.core.example.lan rancid\nadd password *.core.example.lan {${vty}} {${ena}}\n`, [vty, ena]],
      ['grep key tac_plus.conf', `key = "${tac}"\n`, [tac]],
      ["ssh admin@r '/ppp secret print'", `Flags: X - DISABLED\n#   NAME         SERVICE  PASSWORD        PROFILE\n0   jkowalski    l2tp     ${ros}  default-encryption\n`, [ros]],
    ];
    for (const [cmd, text, values] of cases) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    // A gpg listing's key id, a host line without a key, a Junos `key` word in prose stay.
    const kept: [string, string][] = [
      ['grep -n host tacacs.cfg', 'radius-server host 10.40.1.22 auth-port 1812 acct-port 1813\n'],
      ['cat notes.txt', 'add password rotation to the runbook\n'],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
  });

  it("masks pass 225-226's leaks (a Klaviyo key, a SAML response, a PKCE verifier, a keytab in base64) and keeps an Elastic cloud id, two references, tracking cookies", () => {
    const klaviyo = `pk_${s(HEX, 34)}`;
    const saml = encodeURIComponent(b64(`<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_${s(HEX, 32)}"><saml:Assertion>${s(AN, 200)}</saml:Assertion></samlp:Response>`));
    const verifier = s(AN, 64);
    // An MIT keytab (version 2) of one aes256 key, built to its format: size, components, realm, principal, type, time, kvno, key.
    const realm = Buffer.from('CORP.EXAMPLE.IO');
    const comps = [Buffer.from('HTTP'), Buffer.from('web01.corp.example.io')];
    const key = Buffer.from(s(HEX, 64), 'hex');
    const u16 = (n: number) => Buffer.from([n >> 8, n & 0xff]);
    const u32 = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32BE(n); return b; };
    const entry = Buffer.concat([u16(comps.length), u16(realm.length), realm, ...comps.flatMap((c) => [u16(c.length), c]), u32(1), u32(1700000000), Buffer.from([3]), u16(18), u16(key.length), key]);
    const keytab = Buffer.concat([Buffer.from([5, 2]), u32(entry.length), entry]).toString('base64');
    const cases: [string, string, string][] = [
      ['grep -n -e ApiKeySession src/*.js', `5:const session = new ApiKeySession('${klaviyo}');\n`, klaviyo],
      ['grep -n SAMLResponse logs/app.log', `2:2025-03-04T10:11:13Z DEBUG saml: POST /saml/acs body=SAMLResponse=${saml}&RelayState=%2Fdashboard\n`, saml],
      ['grep -n token debug.log', `2:DEBUG oidc: POST https://sso.example.io/token body: grant_type=authorization_code&code=${s(AN, 40)}&client_id=spa&code_verifier=${verifier}\n`, verifier],
      ['base64 -w0 http.keytab; echo', `${keytab}\n`, keytab],
    ];
    for (const [cmd, text, v] of cases) expect(new Redactor().maskCommandOutput(cmd, text), cmd).not.toContain(v);
    const cloudId = `analytics-prod:${b64(`us-central1.gcp.cloud.es.io:443$${s(HEX, 32)}$${s(HEX, 32)}`)}`;
    const kept: [string, string][] = [
      ['grep -n cloud filebeat.yml', `1:cloud.id: "${cloudId}"\n2:cloud.auth: "\${ES_USER}:\${ES_PASS}"\n`],
      ['curl -sv http://127.0.0.1:8080/landing', `< Set-Cookie: _fbp=fb.1.1796544154926.4862832874; Path=/; Max-Age=7776000\n< Set-Cookie: _gcl_au=1.1.1432567890.1796544154; Path=/\n`],
      ['node key.js', `const stripe = Stripe('pk_test_${s(AN, 24)}');\n`],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
  });

  it("masks an echo of a secret file read inside it, in a loop (adv219 F6, F50)", () => {
    const [a, b] = [`Qx${s(AN, 10)}7!`, s(AN, 40)];
    const one = new Redactor().maskCommandOutput('for s in smtp db; do echo "$s: $(cat secrets/${s}_password)"; done', `smtp: ${a}\ndb: ${a}x\n`);
    expect(one).not.toContain(a);
    expect(one).toContain('smtp: ');
    const two = new Redactor().maskCommandOutput('for f in tokens.d/*; do echo "${f#tokens.d/}: $(cat "$f")"; done', `pool: ${b}\n`);
    expect(two).not.toContain(b);
    const kept = 'build: 1.2.3\n';
    expect(new Redactor().maskCommandOutput('for f in VERSION; do echo "$f: $(cat "$f")"; done', kept)).toBe(kept);
  });

  it("masks a WireGuard private key beside its own public key (pass 224 F17), numeric HSM PINs, a CookieJar's repr, ftp's `user NAME PASSWORD` (adv219 F36, F11, F43)", () => {
    const pair = () => {
      const { privateKey, publicKey } = generateKeyPairSync('x25519');
      return [privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(-32).toString('base64'), publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64')];
    };
    const [[priv, pub], [, otherPub]] = [pair(), pair()];
    const wg = new Redactor().maskCommandOutput('python3 -c "…print(name, pubkey, privkey)"', `server wg-rw ${pub} ${priv}\npeer laptop ${otherPub} psk=none\n`);
    expect(wg).not.toContain(priv);
    expect(wg).toContain(pub);
    expect(wg).toContain(otherPub);
    const pin = s('0123456789', 8);
    const sid = s(AN, 43);
    const ftpPw = `C1${s(AN, 5)}@`;
    const cases: [string, string, string][] = [
      ["env | grep -E '^(HSM|PKCS11)_'", `PKCS11_MODULE=/usr/lib/libCryptoki2_64.so\nPKCS11_PIN=${pin}\n`, pin],
      ['python3 -c "print(list(jar))"', `[Cookie(version=0, name='connect.sid', value='${sid}', port=None, port_specified=False, domain='127.0.0.1')]\n`, sid],
      ['cat -n jobs/submit.sh', `     3\tftp -n -v mvs1.lab.internal <<EOF\n     4\tuser ETLUSR ${ftpPw}\n     5\tquote site filetype=jes\n`, ftpPw],
    ];
    for (const [cmd, text, v] of cases) expect(new Redactor().maskCommandOutput(cmd, text), cmd).not.toContain(v);
    // A board's pins, a log's user lines, two keys that are no pair (digests) stay.
    const [d1, d2] = [s(B64, 43) + '=', s(B64, 43) + '='];
    const kept: [string, string][] = [
      ['cat board.env', 'LED_PIN=13\nGPIO_PIN=4\nRESET_PIN=22\n'],
      ['journalctl -u sshd', 'user alice disabled\nuser bob 42\n'],
      ['cat SHA256SUMS.b64', `${d1} ${d2}\n`],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
  });

  it("masks passes 227-229's leaks: wp-cli's salts and porcelain passwords, a box table's token columns, Netlify's longer PATs, Slack's desktop session, BitLocker and FileVault recovery keys, a SCEP challenge", () => {
    const salt = `9AQMu!xy;q${s(AN, 10)}|YZBf${s(AN, 8)} ?-j&Y0G@Jhs`;
    const salt2 = `${s(AN, 6)}|o*Bg&EN ${s(AN, 20)}`;
    const [app, tok1, tok2, nfp, xoxd, scep] = [s(AN, 24), s(AN, 43), s(AN, 43), `nfp_${s(AN, 40)}`, `xoxd-${s(AN, 20)}%2B${s(AN, 30)}%2F${s(AN, 10)}`, s(HEX, 32).toUpperCase()];
    const bitlocker = Array.from({ length: 8 }, () => String(11 * Math.floor(rnd() * 60000)).padStart(6, '0')).join('-');
    const fv = Array.from({ length: 6 }, () => s('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', 4)).join('-');
    const cases: [string, string, string[]][] = [
      ['wp config get SECURE_AUTH_SALT', `${salt}\n`, [salt]],
      ['wp config list', `+-----------+-------+----------+\n| name      | value | type     |\n+-----------+-------+----------+\n| DB_NAME   | wordpress | constant |\n| AUTH_SALT | ${salt2} | constant |\n`, [salt2, salt2.slice(salt2.indexOf('|') + 1)]],
      ['wp user application-password create editor ci --porcelain', `${app}\n`, [app]],
      ['contentful space accesstoken list', `┌──────┬──────┬──────┐\n│ Name              │ Delivery API token │ Preview API token │\n├──────┼──────┼──────┤\n│ Website (Next.js) │ ${tok1} │ ${tok2} │\n└──────┴──────┴──────┘\n`, [tok1, tok2]],
      ['grep -n netlify .bash_history', `4:netlify deploy --dir=public --prod --auth ${nfp}\n`, [nfp]],
      ["strings -n 12 'Slack/Local Storage/leveldb/000004.log'", `d=${xoxd}; lc=1796548638\n`, [xoxd, xoxd.slice(0, 25)]],
      ['manage-bde -protectors -get C:', `    Numerical Password:\n      ID: {${uuid().toUpperCase()}}\n      Password:\n        ${bitlocker}\n`, [bitlocker]],
      ['fdesetup changerecovery -personal', `New personal recovery key = '${fv}'\n`, [fv]],
      ['python3 -c "…pprint(payload)"', `{'Challenge': '${scep}',\n 'Key Type': 'RSA',\n 'URL': 'https://ndes.example.io/certsrv/mscep/mscep.dll'}\n`, [scep]],
    ];
    for (const [cmd, text, values] of cases) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    const kept: [string, string][] = [
      ['cat content/post.md', `+translationKey: ${uuid()}\n`],
      ['sqlite3 -header -column Cookies "select host_key, name from cookies"', 'host_key     name\n.google.com  NID\n'],
      ['node webauthn.js', `{ challenge: '${s(AN, 43)}' }\n`],
      ['cat board.txt', 'ABCD-EFGH-IJKL-MNOP-QRST-UVWX is the test pattern\n'],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
  });

  it("keeps a loop's labels beside any printer: a setting's name before its value is not remembered as a secret (pass 228 L20)", () => {
    const [a, b] = [s(AN, 20), s(AN, 24)];
    const r = new Redactor();
    const shown = r.maskCommandOutput('for k in xpack.security.http.ssl.keystore.secure_password s3.client.default.secret_key; do printf "%s=" "$k"; ./bin/elasticsearch-keystore show "$k"; done', `xpack.security.http.ssl.keystore.secure_password=${a}\ns3.client.default.secret_key=${b}\n`);
    expect(shown).not.toContain(a);
    expect(shown).not.toContain(b);
    const list = 'keystore.seed\ns3.client.default.secret_key\nxpack.security.http.ssl.keystore.secure_password\n';
    expect(r.maskCommandOutput('./bin/elasticsearch-keystore list', list)).toBe(list);
  });

  it("masks hostapd's wpa_psk rows (pass 224 F37) and a file find's -exec shell prints after its name (adv219 F8)", () => {
    const [hex, phrase, pw] = [s(HEX, 64), `Hazel-${s(AN, 8)}9!`, `Qx${s(AN, 10)}7!`];
    const a = new Redactor().maskCommandOutput("grep -n -E '^wpa' hostapd.conf; cat hostapd.wpa_psk", `6:wpa=2\n# per-station PSKs\n68:cd:10:77:af:26 ${hex}\n00:00:00:00:00:00 ${phrase}\n`);
    expect(a).not.toContain(hex);
    expect(a).not.toContain(phrase);
    expect(a).toContain('68:cd:10:77:af:26');
    const b = new Redactor().maskCommandOutput(`find secrets -type f -exec sh -c 'printf "%s=" "\${1##*/}"; cat "$1"; echo' _ {} \\;`, `smtp=${pw}\ndb=${pw}x\n`);
    expect(b).not.toContain(pw);
    expect(b).toContain('smtp=');
  });

  it("masks a Neon password printed bare (pass 228 F36) and a Hex repo's auth_key in an Erlang map (pass 230 F33); the quick check lets a PIN's digits and ftp's user line through to the scanner", () => {
    const [npg, hexKey] = [`npg_${s(AN, 12)}`, s(HEX, 32)];
    expect(new Redactor().maskCommandOutput("python3 -c 'print(u.username, u.password, u.hostname)'", `neondb_owner ${npg} ep-cool-darkness-a1b2c3d4.us-east-2.aws.neon.tech\n`)).not.toContain(npg);
    expect(new Redactor().maskCommandOutput('cat .hex/hex.config', `{'$repos',#{<<"hexpm:acme">> =>\n    #{auth_key => <<"${hexKey}">>,\n      fetch_public_key => true}}}.\n`)).not.toContain(hexKey);
    expect(mayHoldSecret(`PKCS11_PIN=${s('0123456789', 8)}\n`)).toBe(true);
    expect(mayHoldSecret('     4\tuser ETLUSR C1MYSMY@\n')).toBe(true);
  });

  it("masks a script(1) typescript's command output (pass 231 F7) and Cloudflare's rolled token (pass 232 F34); a decoded user:password's user stays visible later (pass 231 L10)", () => {
    const tok = uuid();
    const ts = `Script started on 2026-12-06 09:41:26+00:00 [COMMAND="./bin/heroku auth:token" <not executed on terminal>]\n ›   Warning: token will expire 05/02/2025\n${tok}\n\nScript done on 2026-12-06 09:41:26+00:00 [COMMAND_EXIT_CODE="0"]\n`;
    expect(new Redactor().maskCommandOutput('cat typescript', ts)).not.toContain(tok);
    const cf = s(AN, 40);
    const roll = new Redactor().maskCommandOutput(`curl -sv -X PUT -H "Authorization: Bearer $(cat .cf-token)" "https://api.cloudflare.com/client/v4/user/tokens/${s(HEX, 32)}/value"`, `< HTTP/2 200\n<\n{"result":"${cf}","success":true,"errors":[],"messages":[]}\n`);
    expect(roll).not.toContain(cf);
    expect(roll).toContain('"success":true');
    const r = new Redactor();
    const ghp = `ghp_${s(AN, 36)}`;
    expect(r.maskCommandOutput(`jq -r '.auths["ghcr.io"].auth' .docker/config.json | base64 -d`, `octo-dev:${ghp}\n`)).not.toContain(ghp);
    const hosts = 'github.com:\n    users:\n        octo-dev:\n    user: octo-dev\n';
    expect(r.maskCommandOutput('cat .config/gh/hosts.yml', hosts)).toBe(hosts);
  });

  it("keeps a secret's digest under a DIGEST column (fly and supabase secrets list: pass 232 L19, L23) and a Secret Manager reference (L15); a key under a VALUE column masked", () => {
    const kept: [string, string][] = [
      ['fly secrets list -a billing-api', `NAME            \tDIGEST          \tCREATED AT\nDATABASE_URL    \t${s(HEX, 16)}\t2024-11-02T09:14:55Z\nSTRIPE_API_KEY  \t${s(HEX, 16)}\t2025-03-17T13:40:02Z\n`],
      ['supabase secrets list', `  NAME                      | DIGEST\n  --------------------------|------------------------------------------------------------------\n  OPENAI_API_KEY            | ${s(HEX, 64)}\n  SB_SECRET_KEY             | ${s(HEX, 64)}\n`],
      ['gcloud run services describe checkout', '    Secrets:\n      SESSION_SECRET checkout-session-secret:latest\n      STRIPE_SECRET_KEY stripe-secret-key:7\n'],
    ];
    for (const [cmd, text] of kept) {
      const r = new Redactor();
      r.noteCommand('c1', cmd);
      r.stream('c1').pushBytes(Buffer.from(text));
      expect(r.maskCommandOutput(cmd, text), cmd).toBe(text);
    }
    const key = `sk_live_${s(AN, 24)}`;
    expect(new Redactor().maskCommandOutput('mise env --json', `NAME            VALUE\nSTRIPE_API_KEY  ${key}\n`)).not.toContain(key);
  });

  it("masks a generator's key under its `Private Key:` heading and a base64url `sk_test_` key (pass 235 F35, F40); keeps FCM registration tokens and Pusher's app key (L3, L10)", () => {
    const [pub, priv] = [`B${s(AN, 86)}`, s(AN, 43)];
    const vapid = new Redactor().maskCommandOutput('npx web-push generate-vapid-keys', `=======================================\n\nPublic Key:\n${pub}\n\nPrivate Key:\n${priv}\n\n=======================================\n`);
    expect(vapid).not.toContain(priv);
    expect(vapid).toContain(pub);
    const knock = `sk_test_${s(AN, 20)}-${s(AN, 22)}`;
    expect(new Redactor().maskCommandOutput('sed -n 1,6p src/notify/knock.ts', `export const knock = new Knock("${knock}");\n`)).not.toContain(knock);
    const kept: [string, string][] = [
      ['tail -n 1 logs/push.log', `2024-04-05T10:10:00.412Z INFO fcm.send ok user=1000 token=${s(AN, 22)}:APA91b${s(AN, 134)} message_id=projects/x/messages/0:17\n`],
      ['grep -n X-Pusher logs/webhooks.log', `1:2024-04-05 10:11:12 POST /webhooks/pusher X-Pusher-Key=${s(HEX, 20)} events=channel_occupied\n`],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
  });

  it("masks a decrypted SSM parameter in aws' table and JSON output (pass 233 F8); keeps IBM Cloud's API key ids and TeamCity's credentialsJSON references (L21, pass 234 L11)", () => {
    const pw = `FGRTG!SnC=${s(AN, 12)}!##eS%bJ8G`;
    const table = `||  Name            |  /prod/payments/db_password  ||\n||  Type            |  SecureString                ||\n||  Value           |  ${pw}  ||\n||  Version         |  7                           ||\n`;
    const t = new Redactor().maskCommandOutput('aws ssm get-parameter --name /prod/payments/db_password --with-decryption --output table', table);
    expect(t).not.toContain(pw);
    expect(t).toContain('||  Version         |  7');
    const json = `{\n    "Parameter": {\n        "Name": "/prod/payments/db_host",\n        "Value": "${pw}",\n        "Version": 7\n    }\n}\n`;
    expect(new Redactor().maskCommandOutput('aws ssm get-parameter --name /prod/payments/db_host --with-decryption', json)).not.toContain(pw);
    const id = `ApiKey-${uuid()}`;
    const kept: [string, string][] = [
      ['ibmcloud iam api-keys', `ID                                            Name     Description\n${id}   ci-key   for GitHub Actions   crn:v1:bluemix:public:iam-identity::a/${s(HEX, 32)}::apikey:${id}\n`],
      ["grep -n credentialsJSON .teamcity/settings.kts", `4:        password("env.NEXUS_PASSWORD", "credentialsJSON:${uuid()}", display = ParameterDisplay.HIDDEN)\n`],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
  });

  it("masks the closing attack adv236's variants: key 0 in diffs and under nl, FortiOS behind a compose prefix and in diff -u, Aruba Instant's mgmt-user, Comware's keys, RANCID's plain hosts and userpassword, tac_plus' unquoted key, a WireGuard key above its public key, P11_PIN, ftp's user under grep -rn, a spaced WordPress application password, wp-cli.phar, Erlang binary keys, a SAMLResponse input, PKCE in JSON, FileVault's plist, husarnet join, VAPID's heading, secretsmanager's text row", () => {
    const pw = () => `${s(AN, 6)}-${s(AN, 5)}-${s('0123456789', 2)}!`;
    const [a, b, c, d, e, f, g, h] = [pw(), pw(), pw(), pw(), pw(), pw(), pw(), pw()];
    const enc = b64(s(AN, 90));
    const { privateKey, publicKey } = generateKeyPairSync('x25519');
    const [wgPriv, wgPub] = [privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(-32).toString('base64'), publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64')];
    const app = Array.from({ length: 6 }, () => s(AN, 4)).join(' ');
    const [tok1, tok2, saml, verifier, code, rk, join, vapid] = [s(AN, 48), s(AN, 48), b64(`<samlp:Response ID="_${s(HEX, 32)}">${s(AN, 120)}</samlp:Response>`), s(AN, 64), s(AN, 40), Array.from({ length: 6 }, () => s('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', 4)).join('-'), s(AN, 22), s(AN, 43)];
    const cases: [string, string, string[]][] = [
      ['diff cfg/edge1.cfg.orig cfg/edge1.cfg', `3c3\n<  key 0 ${a}\n---\n>  key 0 ${b}\n`, [a, b]],
      ['nl -ba cfg/wan.cfg', `     4\tradius server R1\n     5\t key 0 ${c}\n`, [c]],
      ['tail -n 20 logs/provision.log', `fgt-provision-1  |         set psksecret "${d}"\n`, [d]],
      ['diff -u fgt-0601.conf fgt-0602.conf', `-        set psksecret ENC ${enc}\n`, [enc]],
      ['grep -n mgmt-user iap.cfg', `4:mgmt-user admin ${s(HEX, 64)}\n`, []],
      ['grep -n -A6 "radius scheme" comware.cfg', `4- key authentication cipher $c$3$${s(B64, 40)}\n5- key accounting simple ${e}\n`, [e]],
      ['cat .cloginrc', `add password core-sw1 ${f} ${g}\n`, [f, g]],
      ["grep -n '^add' .cloginrc", `2:add userpassword *.corp.example {${h}}\n`, [h]],
      ['cat tac_plus.conf', `key = ${a}\n`, [a]],
      ['k=$(wg genkey); echo "$k"; echo "$k" | wg pubkey', `${wgPriv}\n${wgPub}\n`, [wgPriv]],
      ['grep -n P11 deploy/.env', `3:P11_PIN=${s('0123456789', 8)}\n`, []],
      ["grep -rn '^user ' deploy/", `deploy/upload-ftp.sh:3:user deploy ${b}\n`, [b]],
      ['bin/wp user application-password create admin deploy-ci', `Success: Created application password.\nPassword: ${app}\n`, [app.slice(5)]],
      ['./wp-cli.phar config get AUTH_SALT', `+A@]{E3z8?NJO}^#?*y@eGC{Wo<bAC1 F:a/C${s(AN, 10)}\n`, []],
      ['cat rebar3-shell.log', `{ok,#{<<"access_token">> => <<"${tok1}">>,\n      <<"refresh_token">> => <<"${tok2}">>}}\n`, [tok1, tok2]],
      ['cat acs-post.html', `<input type="hidden" name="SAMLResponse" value="${saml}"/>\n`, [saml]],
      ['jq -c . req.json', `{"grant_type":"authorization_code","client_id":"spa-web","code":"${code}","code_verifier":"${verifier}"}\n`, [code, verifier]],
      ['cat rk.plist', `\t<key>RecoveryKey</key>\n\t<string>${rk}</string>\n`, [rk]],
      ["grep -n 'husarnet join' .bash_history", `2:sudo husarnet join fc94:b01d:1803:8dd8:b293:5c7d:7639:932a/${join} web01\n`, [join]],
      ['node gen-vapid.mjs', `VAPID Public Key:\nB${s(AN, 86)}\n\nVAPID Private Key:\n${vapid}\n`, [vapid]],
      ['aws secretsmanager get-secret-value --secret-id prod/smtp --output text', `arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/smtp-AbCdEf\t1717236000.123\tprod/smtp\t${c}\t${uuid()}\n`, [c]],
    ];
    for (const [cmd, text, values] of cases) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
      if (values.length === 0) expect(shown, cmd).toContain('[masked:');
    }
    // TSV's digests under a DIGEST title that does not line up (adv236 L3); prose about keys stays.
    const kept: [string, string][] = [
      ['jq -r \'.[] | [.Name, .Digest, .CreatedAt] | @tsv\' secrets.json', `NAME\tDIGEST\tCREATED AT\nSTRIPE_SECRET_KEY\t${s(HEX, 16)}\t2024-05-01T10:00:00Z\nGITHUB_TOKEN\t${s(HEX, 16)}\t2024-05-03T10:00:00Z\n`],
      ['cat notes.txt', 'key = value pairs are read one a line\nadd password policy docs\n'],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
  });

  it('masks every private key of a table of 24 WireGuard peers, again when an equal text is scanned twice; smart-card PINs by a camelCase name', () => {
    const lines: string[] = [];
    const privs: string[] = [];
    for (let i = 0; i < 24; i++) {
      const { privateKey, publicKey } = generateKeyPairSync('x25519');
      privs.push(privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(-32).toString('base64'));
      lines.push(`peer${i} ${publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64')} ${privs[i]}`);
    }
    const table = lines.join('\n') + '\n';
    // A budget kept by the text's value spent the first scan's derivations on the second (0 of 24 masked then).
    for (const text of [table, (' ' + table).slice(1)]) {
      const shown = new Redactor().maskCommandOutput('python3 peers.py', text);
      for (const v of privs) expect(shown).not.toContain(v);
    }
    const pin = s('123456789', 6);
    for (const name of ['yubikeyPin', 'pivPin', 'lunaPin']) expect(new Redactor().maskCommandOutput('cat card.json', `{"${name}": "${pin}"}\n`), name).not.toContain(pin);
    expect(new Redactor().maskCommandOutput('cat board.json', '{"ledPin": "13", "resetPin": "2204"}\n')).toBe('{"ledPin": "13", "resetPin": "2204"}\n');
  });

  it('masks behind log prefixes, grep and cat -n (rescanned without them), JSON escapes, sed -n l wraps and the session-42 passes (237–241)', () => {
    const psk = `Fw${s(AN, 10)}!9`;
    const [p1, p2, p3] = [pw(), pw(), pw()];
    const enc1 = s(B64, 60);
    const enc2 = s(B64, 40) + '==';
    const ghp = `ghp_${s(AN, 36)}`;
    const akia = `AKIA${s('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}`;
    const pin = s('123456789', 6);
    const challenge = s(AN, 12);
    const hex16 = () => s(HEX, 32);
    const [z1, z2, tclk, netKey, pskc] = [hex16().toUpperCase(), hex16().toUpperCase(), hex16(), hex16(), hex16()];
    const cache = `02000000${s(HEX, 340)}`;
    const ticket = `6C74E37B2D480901-${s(HEX, 16).toUpperCase()}-D15D9-8DC811643A09477-${s(AN, 40)}`;
    const yt = `urvw-f0cm-kqes-k4z9-${s('abcdefghijklmnopqrstuvwxyz', 4)}`;
    const borg = [`hqlhbGdvcml0aG2mc2hhMjU2pGRhdGHaAZ5Q${s(AN, 40)}`, s(B64, 80), s(B64, 60), 'c2lvbgE='];
    const kopia = b64(`Juniper${s('0123456789', 4)}+ember`);
    const nc = `${s(AN, 5)}-${s(AN, 5)}-${s(AN, 5)}-${s(AN, 5)}-${s(AN, 5)}`;
    const tk = s(AN, 16);
    const auth = s(HEX, 50);
    const bytes = Array.from({ length: 16 }, () => `0x${s(HEX, 2)}`).join(', ');
    const cases: [string, string, string[]][] = [
      ['journalctl -u fgt-sync --no-pager', `Dec 06 10:00:01 mgmt01 fgt-sync[812]:     edit "to-hq"\nDec 06 10:00:01 mgmt01 fgt-sync[812]:         set psksecret ${psk}\n`, [psk]],
      ['kubectl logs -l app=fgt --prefix', `[pod/fgt-backup-7d9f/backup]     edit "to-dc2"\n[pod/fgt-backup-7d9f/backup]         set psksecret ${psk}x\n`, [`${psk}x`]],
      ['cat -n ~/.cloginrc', `     1\tadd user core-* netops\n     2\tadd password core-* ${p1} ${p2}\n`, [p1, p2]],
      ['contentful space show', `┌──────────────────────────────────────┐\n│ Content Preview API token            │\n├──────────────────────────────────────┤\n│ ${s(AN, 43)} │\n└──────────────────────────────────────┘\n`, []],
      ['find .secrets -type f -exec cat {} \\;', `${p3}\n`, [p3]],
      ["grep -n 'key 7' nxos-run.cfg", `14:  key 7 "fewhg${s(AN, 12)}"\n`, []],
      ['sed -n l fortigate.conf', `    set psksecret ENC ${enc1}\\\n${enc2}$\n`, [enc1, enc2]],
      ['jq -c .messages[0] transcript.json', `{"text":"created\\n${ghp}\\nok","k":"\\t${akia}\\r"}\n`, [ghp, akia]],
      ['cat values.yaml', `auth:\n  adminPw2: ${p1}\n`, [p1]],
      ['cat hsm.yaml', `pkcs11:\n  module: /usr/lib/softhsm/libsofthsm2.so\n  pin: ${pin}\n`, [pin]],
      ['cat ca.json', `{\n  "type": "SCEP",\n  "name": "scep-prov",\n  "challenge": "${challenge}"\n}\n`, [challenge]],
      ['grep -n -E set_ main.cpp', `30:  wifi_wifiap.set_password("${p2}");\n44:  ota->set_auth_password("${hex16()}");\n`, [p2]],
      ['grep -rn -E PASS src include', `src/main.ino:10:char pass[] = "${p3}";\ninclude/config.h:8:#define WIFI_PASS "${p1}"\n`, [p3, p1]],
      ['cat -n include/secrets.h', `     7\tconst char WIFI_PASSWORD[] = "${p2}";\n`, [p2]],
      ['jq . settings.json', `{\n  "securityKeys": {\n    "S2_Unauthenticated": "${z1}",\n    "S0_Legacy": "${z2}"\n  }\n}\n`, [z1, z2]],
      ['jq . coordinator_backup.json', `    "zstack": {\n      "tclk_seed": "${tclk}"\n    }\n`, [tclk]],
      ['ot-ctl dataset active', `Channel: 15\nNetwork Key: ${netKey}\nPSKc: ${pskc}\nDone\n`, [netKey, pskc]],
      ["sed -n '/ConnectCache/,/}/p' config.vdf", `\t"ConnectCache"\n\t{\n\t\t"5535b8531"\t\t"${cache}"\n\t}\n`, [cache]],
      ['grep -rn -A2 k_rgubEncryptedAppTicketKey src/', `src/keys.h:5:static const uint8 k_rgubEncryptedAppTicketKey[k_nSteamEncryptedAppTicketSymmetricKeyLen] = {\nsrc/keys.h-6-\t${bytes},\nsrc/keys.h-7-};\n`, [bytes.slice(0, 30)]],
      ['jq .data login.json', `{\n  "PlayFabId": "6C74E37B2D480901",\n  "SessionTicket": "${ticket}"\n}\n`, [ticket]],
      ["grep -rn '\"key\"' .config/obs-studio/basic/profiles/", `.config/obs-studio/basic/profiles/YouTube/service.json:4:        "key": "${yt}",\n`, [yt]],
      ['grep -n executeMethod ci.log', `3:+ /opt/unity/Editor/Unity -batchmode -keystorePass '${p1}' -keyaliasName rel -keyaliasPass '${p2}'\n`, [p1, p2]],
      ['cat borg/web01/config', `[repository]\nversion = 1\nkey = ${borg[0]}\n\t${borg[1]}\n\t${borg[2]}\n\t${borg[3]}\n\n`, borg],
      ['ls -la .config/kopia/ && cat .config/kopia/repository.config.kopia-password; echo', `total 16\n-rw-r--r-- 1 root root   24 Dec  6 15:57 repository.config.kopia-password\n${kopia}\n`, [kopia]],
      ["ps auxww | grep '[n]extcloudcmd'", `root  11300  0.0  0.0 7880 4896 ? S 15:58 0:00 nextcloudcmd --silent -u alice -p ${nc} /home/alice/Nextcloud https://cloud.example.org\n`, [nc]],
      ['cat logs/gateway.log', `2024-06-11T09:14:03.120Z DEBUG AuthorizeRequest card={"number":"4376955102301879","exp_month":"08","cvc":"423"}\n`, ['4376955102301879']],
      ['cat -n anet-request.xml', `     4\t    <name>83JX8SGoNe</name>\n     5\t    <transactionKey>${tk}</transactionKey>\n`, [tk]],
      ['strings -n 8 flash_4M.bin', `nvs.net80211\nsta.ssid\nZiggo-7C21-IoT\nsta.pswd\n${p3}\n@sta.authmode\n`, [p3]],
      [`awk -F: '{ printf "%-28s %-8s %-10s %s\\n", $1, $3, $4, $5 }' home/.pgpass`, `localhost                    *        postgres   ${p1}\ndb.internal.acme.com         billing  billing_ro ${p2}\n`, [p1, p2]],
      ['jq -r .key home/.kaggle/kaggle.json', `${s(HEX, 32)}\n`, []],
      ['cat app/etc/local.xml', `        <crypt>\n            <key><![CDATA[${s(HEX, 32)}]]></key>\n        </crypt>\n`, []],
      ['cat app/etc/local.xml', `                    <username><![CDATA[mage_prod]]></username>\n                    <password><![CDATA[${p3}]]></password>\n`, [p3]],
      ['grep -n Paddle laravel.log', `2:[2024-06-11 09:14:03] production.DEBUG: Paddle request {"body":"vendor_id=871575&vendor_auth_code=${auth}"}\n`, [auth]],
    ];
    for (const [cmd, text, values] of cases) {
      // The hooked CLI skips the scanner for a text this check says holds none (a rule's words must be in it), unless the
      // command is a secret's printer (masked by the command, not the text).
      expect(mayHoldSecret(text) || secretPrinterOf(cmd) !== undefined, cmd).toBe(true);
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
      if (values.length === 0) expect(shown, cmd).toContain('[masked:');
    }
    // Kept: an SSH key's fingerprint that starts like a Fauna secret, a handshake's salt beside its challenge, a dict of names,
    // a ticket's id, a log of times (no grep prefix), a setter of a cache key, the Z-Wave keys' names.
    const kept: [string, string][] = [
      ['ssh-keygen -lf id_ed25519.pub', '256 SHA256:fnEImCu7gSZnCEWwZQvsyZ5zTOyHBidzlbtD9mfOwFY jdoe@laptop (ED25519)\n'],
      ['cat ws-trace.log', `{"d":{"authentication":{"challenge":"${b64(s(AN, 32))}","salt":"${b64(s(AN, 32))}"},"rpcVersion":1},"op":0}\n`],
      ['jq .tokens cfg.json', '{"tokens": {"grader": "service", "admin": "user"}}\n'],
      ['cat issue.yaml', 'ticket: PROJ-1234\nsession_ticket: none\n'],
      ['cat app.log', '12:30:45 set password policy\n12:30:46 add password rules loaded\n'],
      ['cat cache.ts', 'cache.setCacheKey("user-profile");\n'],
      [`awk -F: '{print $1, $4}' ~/.pgpass`, 'db.internal billing_ro\n'],
      ['cat local.xml', '<username><![CDATA[mage_prod]]></username>\n<key><![CDATA[catalog_product]]></key>\n'],
      ['grep -rn NEXT_PUBLIC_ web/', `web/.env.production:4:NEXT_PUBLIC_SENTRY_DSN=https://${s(HEX, 32)}@o4505459445110935.ingest.de.sentry.io/4507936309294396\n`],
      ['jq -r .links[].href order.json', 'https://www.paypal.com/checkoutnow?token=G81HVZYM0X34R1AWT\nhttps://www.sandbox.paypal.com/cgi-bin/webscr?cmd=_express-checkout&token=EC-5YJ748178G052312W\n'],
      ['cat ebics-response.xml', `      <DataEncryptionInfo authenticate="true">\n        <TransactionKey>${b64(s(AN, 200))}</TransactionKey>\n      </DataEncryptionInfo>\n`],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
    // A read that starts inside borg's key (a window of one continuation line) masks it: the lines are learned.
    const session = new Redactor();
    session.maskCommandOutput('cat borg/web01/config', `[repository]\nkey = ${borg[0]}\n\t${borg[1]}\n\t${borg[2]}\n`);
    expect(session.mask(`\t${borg[2]}\n`)).not.toContain(borg[2]);
    const zwave = new Redactor().maskCommandOutput('jq . settings.json', `{\n  "securityKeys": {\n    "S2_Unauthenticated": "${z1}"\n  }\n}\n`);
    expect(zwave).toContain('"S2_Unauthenticated"');
  });

  it('masks what the closing attack adv245 found: more prefixes, SGR codes written as text, code calls, a Go card; keeps Matrix keys, PayPal ids, issue keys', () => {
    const [p1, p2, p3] = [pw(), pw(), pw()];
    const enc = s(B64, 40) + '=';
    const ghp = `ghp_${s(AN, 36)}`;
    const xoxb = `xoxb-460809284311-4122010940812-${s(AN, 24)}`;
    const glpat = `glpat-${s(AN, 20)}`;
    const cases: [string, string, string[]][] = [
      ['tail -n 20 log/syslog', `2024-12-06T10:00:01.485568+00:00 fw-sync fgt-apply[2231]:     edit "hq"\n2024-12-06T10:00:01.485568+00:00 fw-sync fgt-apply[2231]:         set psksecret ENC ${enc}\n`, [enc]],
      ['cat netpush.journal', `Dec 06 10:14:02.118627 netops-01 netpush[3310]: tacacs server t1\nDec 06 10:14:02.118627 netops-01 netpush[3310]:  key ${p1}\n`, [p1]],
      ['grep fgt-apply log/syslog.1', `Dec  6 10:22:41 fw-sync fgt-apply:     edit "x"\nDec  6 10:22:41 fw-sync fgt-apply:         set psksecret "${p2}"\n`, [p2]],
      [`awk '{printf "%5d  %s\\n", NR, $0}' core-sw1.cfg`, `   20  radius server r1\n   21   key ${p3}\n   22  !\n`, [p3]],
      ['git blame .cloginrc', `^bdf9bd4 (Dana Whitfield 2024-03-14 09:12:44 +0000 3) add password core-* {${p1}} {${p2}}\n`, [p1, p2]],
      ['grep -rn psksecret "FW Backups/"', `FW Backups/fgt-edge-02.conf:16:        set psksecret ENC ${enc}\n`, [enc]],
      ['grep -n psksecret logs/compose.log', `51:syslog-1  | Dec  6 10:31:07 fgt-prov fgt-push[812]:         set psksecret ENC ${enc}\n`, [enc]],
      ['tail -n 3 x-json.log', `{"log":"cloning as \\u001b[1m${ghp}\\u001b[22m\\n","stream":"stdout"}\n`, [ghp]],
      ['cat -v logs/doctor.log', `^[[32mok^[[39m slack      ^[[2m${xoxb}^[[22m  (bot)\n`, [xoxb]],
      ['sed -n l logs/runner.log', `\\033[33mWARN\\033[0m using \\033[1m${glpat}\\033[0m$\n`, [glpat]],
      ['grep -rn addAP src/', `src/main.ino:10:  wifiMulti.addAP("Barn-IoT", "${p1}");\nsrc/main.ino:11:  WiFi.begin(ssid, "${p2}");\n`, [p1, p2]],
      ['grep -n set_password seed.py', `5:keyring.set_password("smtp.office365.com", "alerts@acme.io", "${p3}")\n`, [p3]],
      ['grep -rn toCharArray src/', `src/KeyStoreLoader.java:11:            ks.load(in, "${p1}".toCharArray());\n`, [p1]],
      ['grep -rn SetBasicAuth internal/', `internal/push.go:13:\treq.SetBasicAuth("grafana-agent", "${p2}")\n`, [p2]],
      ['tail -n 2 logs/payments.log', '2024/12/06 charge req=&{Amount:4599 Card:{Number:5545168117988648 ExpMonth:9 ExpYear:2027 CVC:445}}\n', ['5545168117988648']],
      ['tail -n 6 .bash_history', 'softhsm2-util --init-token --slot 0 --label ca --pin 48213377 --so-pin 21818308\n', ['48213377', '21818308']],
      ['cat -A nas-borg/config', `[repository]$\nkey = hqlhbGdvcml0aG2mc2hhMjU2pGRh${s(AN, 40)}$\n^I${enc.slice(0, 40)}$\n^Ic2lvbgE=$\n`, [enc.slice(0, 40)]],
    ];
    for (const [cmd, text, values] of cases) {
      // The hooked CLI skips the scanner for a text this check says holds none (a rule's words must be in it), unless the
      // command is a secret's printer (masked by the command, not the text).
      expect(mayHoldSecret(text) || secretPrinterOf(cmd) !== undefined, cmd).toBe(true);
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    const kept: [string, string][] = [
      ['grep -n paypal/return access.log', '10.0.0.5 - - [06/Dec/2024:10:00:01 +0000] "GET /checkout/paypal/return?token=EC-MLB8GN1CNK6K69QUI&PayerID=QWERTY12345AB HTTP/1.1" 302 0 "-" "Mozilla/5.0 (X11; Linux x86_64)"\n'],
      ['jq .results export.json', '[{"ticketKey": "PLAT-14160", "ticket_key": "OPS-3964"}]\n'],
      ['curl keys/query | jq .', `{\n  "master_keys": {\n    "@ops-bot4:matrix.acme.io": {\n      "keys": {\n        "ed25519:${s(AN, 43)}": "${s(AN, 43)}"\n      },\n      "user_id": "@ops-bot4:matrix.acme.io"\n    }\n  }\n}\n`],
      ['cat x.java', 'char[] c = "hello world".toCharArray();\n'],
      ['sort | uniq -c', '     21 key alpha\n      3 GET /\n'],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
  });

  it('masks what the stop check adv246 found: grep -T and grep -r without numbers, honcho and swarm prefixes, short-monotonic and RFC 5424 syslog, Rust colour codes, GitLab key bases, fetchmail, NickServ, chrony keys', () => {
    const [p1, p2, p3] = [pw(), pw(), pw()];
    const enc = s(B64, 40) + '==';
    const glpat = `glpat-${s(AN, 20)}`;
    const hex = s(HEX, 128);
    const cases: [string, string, string[]][] = [
      ["grep -rnT -e 'set psksecret' configs/", `configs/fw-hq.conf:  9:\t        set psksecret ENC ${enc}\n`, [enc]],
      ['tail -n 20 logs/provision.log', `10:02:11 provision.1 |     edit "hq"\n10:02:12 provision.1 |         set psksecret "${p1}"\n`, [p1]],
      ['cat netpush.journal.txt', `[ 81234.553417] mgmt01 netpush[2211]: tacacs server a\n[ 81234.553417] mgmt01 netpush[2211]:  key ${p2}\n`, [p2]],
      ['tail -n 15 remote/fw-cfgsync.log', `<189>1 2024-12-06T10:00:01.512433+00:00 fw-cfgsync cfgsync 3321 - -         set psksecret ENC ${enc}\n`, [enc]],
      ['cat fwbackup.service.log', `fwbackup.1.q8v2ndk1lz7wx3m0c9hj4r5te@swarm-w2    |         set psksecret ENC ${enc}\n`, [enc]],
      ["grep -r -e 'set psksecret' backups/", `backups/fgt-store-014.conf:        set psksecret ENC ${enc}\nbackups/fgt-store-015.conf:        set passwd ENC ${enc}\n`, [enc]],
      ['tail -n 16 target/test-run.log', `  left: "\\u{1b}[1mgitlab:\\u{1b}[0m \\u{1b}[33m${glpat}\\u{1b}[0m\\n"\n`, [glpat]],
      ["jq '.gitlab_rails' gitlab-secrets.json", `{\n  "db_key_base": "${hex}",\n  "otp_key_base": "${hex}x"\n}\n`, [hex]],
      ['cat .fetchmailrc', `poll pop.gmx.net proto POP3 user "ops-archive@gmx.de" pass "${p3}" is ops here options ssl\n`, [p3]],
      ['grep -n autosendcmd .irssi/config', `4:    autosendcmd = "/msg NickServ IDENTIFY deploybot ${p1};wait 2000";\n`, [p1]],
      ['cat etc/chrony/chrony.keys', `1 SHA1 HEX:${s(HEX, 40).toUpperCase()}\n3 MD5 ASCII:${p2}\n`, [p2]],
    ];
    for (const [cmd, text, values] of cases) {
      // The hooked CLI skips the scanner for a text this check says holds none (a rule's words must be in it), unless the
      // command is a secret's printer (masked by the command, not the text).
      expect(mayHoldSecret(text) || secretPrinterOf(cmd) !== undefined, cmd).toBe(true);
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    const kept: [string, string][] = [
      ['cat notes.md', 'see src/app.ts: the entry point\nand docs/README.md: the manual\n'],
      ['cat chat.log', '10:02:12 alice | hello there\n10:02:13 bob | IDENTIFY the user first\n'],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
  });

  it("masks session 42's final attack and adv246's last leaks: short-iso journald, Heroku, Tilt and Skaffold prefixes, diff -y's right column, git's word diff, NUL-separated argv, api%5Fkey, op --fields password, sed of a YAML key, KeePass pairs, numeric passwords, minisign keys, tagged YAML blocks", () => {
    const [p1, p2, p3, p4] = [pw(), pw(), pw(), pw()];
    const enc = s(B64, 40) + '==';
    const hex = s(HEX, 40);
    const key = s(AN, 32);
    // minisign's secret key: `Ed`, `Sc`, `B2`, then 152 bytes (salt, limits, the key), base64.
    const gossip = Buffer.from(s(HEX, 64), 'hex').toString('base64');
    const nt = s(HEX, 32);
    const spaced = (n: number) => Array.from({ length: n }, () => s(HEX, 2)).join(' ');
    const master = [spaced(16).toUpperCase(), spaced(16).toUpperCase()];
    // Rubeus' ticket: `doIF…` in lines of 100, six blanks before each.
    const ticketLines = `doIFmjCCBZagAwIBBaEDAgEWooIEnzCCBJthggSXMIIEk6ADAgEFoQwbCkNPUlAuTE9DQUyiHzAdoAMCAQKhFjAUGwZrcmJ0Z3Qb${s(B64, 700)}`.match(/.{1,100}/g)!;
    const ticket = ticketLines.map((l) => `      ${l}`).join('\n');
    const minisign = Buffer.concat([Buffer.from('EdScB2'), Buffer.from(s(HEX, 304), 'hex')]).toString('base64');
    const cases: [string, string, string[]][] = [
      ['journalctl -o short-iso -u fgt', `2024-12-06T10:00:01+0000 mgmt fgt[1]:     edit "a"\n2024-12-06T10:00:01+0000 mgmt fgt[1]:         set psksecret ${p1}\n`, [p1]],
      ['heroku logs --tail', `2024-12-06T10:00:01.123456+00:00 app[web.1]:   key ${p2}\n2024-12-06T10:00:02.123456+00:00 app[web.1]: ok\n`, [p2]],
      ['tilt logs', `api │ set psksecret ENC ${enc}\napi │ next\n`, [enc]],
      ['skaffold dev', `[api-7d9f app] set psksecret ENC ${enc}\n[api-7d9f app] ok\n`, [enc]],
      ['cat q.txt', `https://api.example.com/v1?api%5Fkey=${key}&x=1\n`, [key]],
      ['op item get db --fields password', `${p3}\n`, [p3]],
      ['sed -n "s/^api_key: //p" cfg.yml', `${hex}\n`, [hex]],
      ['diff -y -W 200 a.conf b.conf', `        set remote-gw 192.0.2.50\t\t\t      |\t        set psksecret ENC ${enc}\n`, [enc]],
      ['git diff --word-diff', `--- a/.cloginrc\n+++ b/.cloginrc\n@@ -1,3 +1,3 @@\nadd password    core-sw*        [-{${p1}}        {${p2}}-]{+{${p3}}        {${p4}}+}\n`, [p1, p2, p3, p4]],
      ['cat proc/4388/cmdline', `sshpass\0-p\0${p4}\0rsync\0-a\0/srv/\0`, [p4]],
      ['cat export.xml', `\t\t\t\t\t<Key>Password</Key>\n\t\t\t\t\t<Value ProtectInMemory="True">${p1}</Value>\n`, [p1]],
      ["grep -rn password conf/directory/", `conf/directory/default/1001.xml:5:      <param name="vm-password" value="932896"/>\n`, ['932896']],
      ['cat .minisign/minisign.key', `untrusted comment: minisign encrypted secret key\n${minisign}\n`, [minisign]],
      ['cat config/settings.yml', `mailer:\n  dkim_private_seed: !!binary |\n    ${s(B64, 64)}\n  from: ops\n`, []],
      // adv245's: Kratos' secrets lists, consul's installed keys, stern's prefix.
      ['cat kratos.yml', `secrets:\n  cookie:\n    - ${key}\n  cipher:\n    - ${key}c\n`, [key, `${key}c`]],
      ['consul keyring -list', `==> Gathering installed encryption keys...\n\nWAN:\n  ${gossip} [3/3]\n`, [gossip]],
      ['stern web', `web-7d4b9c8f6d-x2k8q app     edit "hq"\nweb-7d4b9c8f6d-x2k8q app         set psksecret ENC ${enc}\n`, [enc]],
      // Passes 247-249: llm's keys.json as a table, theHarvester's keys under grep, AD tools' output.
      ["jq -r 'to_entries[] | \"\\(.key)\\t\\(.value)\"' .config/io.datasette.llm/keys.json | column -t -s $'\\t'", `mistral     ${key}\n`, [key]],
      ["grep -nA2 -E '^  (hunter|shodan):' .theHarvester/api-keys.yaml", `21:  hunter:\n22-    key: ${hex}\n`, [hex]],
      ['cat history', `6:: 1710409540:0;bloodhound-python -d corp.local -u j.harper -p '${p1}' -ns 10.0.20.5 -c All --zip\n`, [p1]],
      ['cat certipy.log', `[*] Trying to retrieve NT hash for 'svc_ca'\n[*] NT hash for 'svc_ca': ${nt}\n`, [nt]],
      ['jq -r … lsass.json', `b.osei\tNT=${nt}\tSHA1=${hex}\nb.osei\tMK{555c05d7-cc6d-4ed5-8a6f-112aba980293}=${nt}${nt}${nt}${nt}\n`, [nt, hex]],
      ['cat nxc.txt', `SMB         10.0.20.16      445    WS02             [m.jones][CREDENTIAL] Domain:target=TERMSRV/jump01.corp.local - CORP\\m.jones-adm:${p2}\n`, [p2]],
      ['cat mimikatz.log', `\t * Username : ws01$\n\t * Password : ${spaced(24)}\n`, []],
      ['cat rubeus.txt', `[*] base64(ticket.kirbi):\n\n${ticket}\n\n  ASREP (key)              :  ${nt.toUpperCase()}\n`, [...ticketLines, nt.toUpperCase()]],
      ['cat aircrack.txt', `                       KEY FOUND! [ ${p3} ]\n\n      Master Key     : ${master[0]} \n                       ${master[1]} \n`, [p3, ...master]],
      ['tail -n 14 remote_console.log', `iex(shop@10.0.2.14)2> Application.get_env(:shop, ShopWeb.Endpoint)[:secret_key_base]\n"${key}${key}"\n`, [`${key}${key}`]],
      ["grep -n -A2 -E 'SECRET_KEY_BASE' config/runtime.exs", `17:    System.get_env("SECRET_KEY_BASE") ||\n18-      "${key}${key}"\n19-\n`, [`${key}${key}`]],
      // Pass 251: gMSADumper, an AD Description's note, ktpass, an ODBC DSN's PWD, `net  use` in Sysmon's CommandLine, LAPS' JSON.
      ['tail loot/gmsa.txt', `svc_sqlgmsa$:::${nt}\n`, [nt]],
      ['powershell.exe Get-ADUser svc_scan3f -Properties Description', `Description       : Scanner account - Ricoh MFP 3rd floor. pw ${p1} (rotated 2023-11)\n`, [p1]],
      ["sed -n '/ktpass/,/^```/p' runbooks/sso-keytab.md", `ktpass /out C:\\Temp\\portal.keytab /princ HTTP/portal@CORP /mapuser CORP\\svc_portal /pass ${p2} /crypto AES256-SHA1\n`, [p2]],
      ['reg.exe query "HKLM\\SOFTWARE\\ODBC\\ODBC.INI\\ERP_REPORTING"', `    UID    REG_SZ    rpt_reader\n    PWD    REG_SZ    ${p3}\n`, [p3]],
      ['powershell.exe Get-WinEvent', `               CommandLine: net  use \\\\fs01.corp.local\\it$ /user:CORP\\helpdesk2 ${p4} /persistent:no\n`, [p4]],
      ['ldapsearch … | sed -n "s/^msLAPS-Password: //p"', `{"n":"Administrator","t":"1da88354aecb510","p":"${p1}x"}\n`, [`${p1}x`]],
      ['cat msf_spool.txt', `host        origin      service        public  private        realm  private_type  JtR Format\n----        ------      -------        ------  -------        -----  ------------  ----------\n10.0.20.12  10.0.20.12  22/tcp (ssh)   root    ${p4}         Password\n`, [p4]],
    ];
    for (const [cmd, text, values] of cases) {
      expect(mayHoldSecret(text) || secretPrinterOf(cmd) !== undefined, cmd).toBe(true);
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
      expect(shown, cmd).toContain('[masked: ');
    }
    // NULs read as blanks end a value: the words after it stay.
    expect(new Redactor().maskCommandOutput('cat proc/1/cmdline', `/usr/bin/mysql\0--password=${p2}\0-h\0db\0`)).toBe('/usr/bin/mysql\0--password=[masked: password]\0-h\0db\0');
    const kept: [string, string][] = [
      ['mvn package', '[INFO] Building app 1.0\n[INFO] BUILD SUCCESS\n'],
      ['cat notes.txt', '[todo list] buy milk\n[done list] call bob\n'],
      ['diff -y a b', 'port 8080\t\t\t\t      |\tport 8081\n'],
      ['git diff --word-diff', '--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\nRun [-npm test-]{+npm run test+} first.\n'],
      ['tilt logs', 'api │ listening on :8080\napi │ ready\n'],
      ['cat cfg', 'password_min_length: 8\npassword_expiry_days=90\nmysql -h db -P 3306 -e "select 1"\nrandom_seed: 1234\n'],
      ['op item get db --fields username', 'ci-bot\n'],
      ['sed -n "s/^host: //p" cfg.yml', 'db.internal\n'],
      ['cat minisign.pub', 'untrusted comment: minisign public key 2D8A4F3C1B2E9F70\nRWRwn+IbGa7JLR/CEd/a+0VGk8IxYwaoMt6vP8DVHkaVfSkz7YLdbVSA\n'],
      ['cat words', 'hello-world-abcde team standup at ten\nnotes-12345 jan review budget\n'],
      ['cat cassette.yml', 'Set-Cookie:\n  - theme=dark; Path=/\n'],
      ['grep -n -A2 "^cloud" filebeat.yml | cut -d: -f2 | base64 -d', 'eu-west-1.aws.found.io:443$502de444cb9c6970ca5065860b9b8446$37168535dae1bf32f057603d0e4767ec\n'],
      ['cat aircrack.txt', '      EAPOL HMAC     : D0 0C 04 01 31 25 10 4E 19 06 39 E2 AA 23 74 FA \n'],
      ['./app', 'registering deploy key: {Name:ci-deploy ReadOnly:true}\n'],
      ['cat notes.md', 'pass --Option=Value1 to the tool\nthe password Manager is open\nuse pwd /tmp/Abc1!xyzzz\n'],
      ['grep -n STRIPE .env', '3:STRIPE_KEY=pk_live_51zbcjRfOqllUQbNcfrIhQHvyWZY4JVmALxAT6o8Bk9S9hZ1e8CcTJuHC4ptGMJ4P6WmE8ZaZRrKpnr1GGIiL46RsLowV44bq70\n'],
      ['cat vt.json', '{\n  "ssdeep": "3072:KFb5GysLtIyadGXSu2jSBh917d5HBrzcNqrvOYYr:bXeZQzh8xBxZCRL08MwUdQSDfAtu"\n}\n'],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
  });

  it('masks what the closing attack adv253 found: shown NULs, op 1 and labels with blanks, numeric passwords by more names, signify keys, anchored block scalars, ekeys and DCSync rows, pry results, Ory secrets, word diffs without headers; keeps test results, nginx upstreams, Ansible vaults, public keys cut by sed', () => {
    const [p1, p2, p3] = [pw(), pw(), pw()];
    const nt = s(HEX, 32);
    const key = s(AN, 32);
    // signify's secret key: `Ed`, `BK`, 42 rounds, then 98 bytes.
    const signify = Buffer.concat([Buffer.from('EdBK'), Buffer.from([0, 0, 0, 42]), Buffer.from(s(HEX, 196), 'hex')]).toString('base64');
    const cases: [string, string, string[]][] = [
      ['cat -v proc/5120/cmdline', `mysql^@-h^@db.internal^@-p${p1}^@analytics^@\n`, [p1]],
      ["python3 -c 'print(open(\"proc/6001/cmdline\",\"rb\").read())'", `b'sshpass\\x00-p\\x00${p2}\\x00scp\\x00'\n`, [p2]],
      ['op get item "Prod Postgres" --fields password', `${p3}\n`, [p3]],
      ['op item get "Windows Server" --fields "label=license key"', 'AF0SO-6X34Y-J0I0T-U34VH-LL60O\n', ['AF0SO-6X34Y-J0I0T-U34VH-LL60O']],
      ['head -n 20 conf/db.env', 'DBPASS=11101476\npassword=9991185784 # rotated\n', ['11101476', '9991185784']],
      ['cat .signify/release.sec', `untrusted comment: signify secret key\n${signify}\n`, [signify]],
      ['cat deploy/compose.yaml', `  POSTGRES_PASSWORD: &pgpw |-\n    ${p1}q\n`, [`${p1}q`]],
      ['cat loot/mimikatz.log', `\t * Key List :\n\t   rc4_hmac_nt       ${nt}\n  Hash NTLM: ${nt}a\n`.replace(`${nt}a`, s(HEX, 32)), [nt]],
      ['cat notes/pry-session.txt', `[1] pry(main)> ENV['DB_PASSWORD']\n=> "${p2}q"\n`, [`${p2}q`]],
      ['cat docker-compose.yml', `      - SECRETS_DEFAULT=${key}\n      - SECRETS_CIPHER=${key}c\n`, [key, `${key}c`]],
      ['cd repo && git diff --word-diff | grep -F "add password"', `add password edge-* [-{${p3}q}-]{+{${p3}z}+}\n`, [`${p3}q`, `${p3}z`]],
      ['cat logs/notifier.log', `2024/12/06 10:00:01 smtp password: {String:${p1}z Valid:true}\n`, [`${p1}z`]],
    ];
    for (const [cmd, text, values] of cases) {
      expect(mayHoldSecret(text) || secretPrinterOf(cmd) !== undefined, cmd).toBe(true);
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
      expect(shown, cmd).toContain('[masked: ');
    }
    const kept: [string, string][] = [
      ['npx jest', ' PASS  src/auth/OAuth2Callback.test.tsx (5.214 s)\n PASS  src/api/Http2ClientPool.test.ts\n'],
      ['go test ./...', '=== RUN   TestOAuth2Flow\n--- PASS: TestOAuth2Flow (0.00s)\n'],
      ['git log --oneline', 'e3b7052 fix(auth): pass OAuth2Config to the token client\n77908bc docs: pw reset now goes through SelfService2Portal\n'],
      ['cat shop.conf', '        proxy_pass http://shop_v2;\n'],
      ['find docs -print0', 'docs\0docs/password\0docs/password/LockoutPolicyV3.md\0'],
      ['cat group_vars/prod.yml', 'ansible_become_password: !vault |\n    $ANSIBLE_VAULT;1.1;AES256\n    36346438613361626637\n'],
      ["sed -n 's/^ *public_key: //p' wg/peers.yaml", 'Qj+v9QfSgmNSuwsZAQGlI3GYIhS6vuTUq22KfRr7Vwg=\n'],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
  });
});

describe('session 44: blind passes 254 to 258 and the closing attack adv253s leftovers', () => {
  it('masks what passes 254 to 256 found: a keychain dump, fs_cli answers, BIND and PowerDNS TSIG keys, dig -y, a person made password of a Proxmox id shape; keeps Digest parameters, DKIM headers, idempotency tokens and a hex dump row ASCII column', () => {
    const [p1, p2] = [pw(), pw()];
    const tsig = b64(s(AN, 32));
    const hexOf = (t: string) => Buffer.from(t).toString('hex').toUpperCase();
    const cases: [string, string, string[]][] = [
      ['cat keychain-dump.txt', `keychain: "/Users/ci/Library/Keychains/ci.keychain-db"\nversion: 512\nclass: "genp"\nattributes:\n    0x00000007 <blob>="match_password"\n    "svce"<blob>="match_password"\ndata:\n"${p1}"\nkeychain: "/Users/ci/Library/Keychains/ci.keychain-db"\nclass: "inet"\nattributes:\n    "srvr"<blob>="git.example.com"\ndata:\n0x${hexOf(p2)}  "${p2}"\n`, [p1, p2, hexOf(p2)]],
      ['cat fs_cli-session.log', `freeswitch@pbx01> global_getvar domain\n10.20.0.5\nfreeswitch@pbx01> global_getvar default_password\n${p1}\nfreeswitch@pbx01> /exit\n`, [p1]],
      ['cat Kddns-update.+163+34012.private', `Private-key-format: v1.3\nAlgorithm: 163 (HMAC_SHA256)\nKey: ${tsig}\nBits: AAA=\n`, [tsig]],
      ['cat Kddns.+157+1234.key', `ddns. IN KEY 512 3 157 ${tsig}\n`, [tsig]],
      ['tail -n 2 .bash_history', `dig -y hmac-sha256:xfr-ns2.example.net:${tsig} @ns1.example.net example.net AXFR\ndig -y xfr:${tsig}x @ns1 example.net AXFR\n`, [tsig, `${tsig}x`]],
      ['pdnsutil list-tsig-keys', `ddns-key. hmac-sha256. ${tsig}\n`, [tsig]],
      ['cat etc/app/config.yaml', 'database:\n  user: tracking\n  password: "w@lnut!Pistachio130"\n', ['w@lnut!Pistachio130']],
    ];
    for (const [cmd, text, values] of cases) {
      expect(mayHoldSecret(text) || secretPrinterOf(cmd) !== undefined, cmd).toBe(true);
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    const kept: [string, string][] = [
      ['grep Authorization register.txt', 'Authorization: Digest username="4155550310", realm="sip.example.com", nonce="1796596296/51b2de27b6e70f1de2a3cb5aea83ece0", response="cb9ea357fa25085e113d436bcd96bcdb", algorithm=MD5\n'],
      ['sed -n 1p msg.eml', 'DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=example.net;\n'],
      ['grep Idempotency webhook.log', 'headers: Host=hooks.example.net; I-Twilio-Idempotency-Token=65f1c9fd-7e21-45bc-82c2-8654dde5f14f\n'],
      ['cat security-find.txt', 'keychain: "/Library/Keychains/System.keychain"\nclass: 0x80001000\nattributes:\n    "alis"<blob>="Apple Root CA"\ndata:\n0x3082\n'],
      ['proxmox token list', 'token: root@pam!terraform\n'],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
    // A remembered `xxd` row's ASCII column is no piece of a value at a later line's start.
    const r = new Redactor();
    r.maskCommandOutput('xxd sasl_passwd', '00000000: 5b73 6d74 702e 7265 6c61 792e 6578 616d  [smtp.relay.exam\n00000010: 706c 652e 636f 6d5d 3a35 3837 2061 7069  ple.com]:587 api\n');
    const policy = '# relay pinned by cert fingerprint\n[smtp.relay.example.com]:587  fingerprint match=9A:1D:99:F8\n';
    expect(r.maskCommandOutput('cat postfix/tls_policy', policy)).toBe(policy);
  });

  it('masks values security tools print below their labels and in their rows: getnthash, gettgtpkinit behind Python logging, pypykatz masterkeys, lsassy', () => {
    const [nt, key, mk] = [s(HEX, 32), s(HEX, 64), s(HEX, 128)];
    const p1 = pw();
    const cases: [string, string, string[]][] = [
      ['python3 getnthash.py -key k corp/dc01$', `[*] Requesting ticket to self with PAC\nRecovered NT Hash\n${nt}\n`, [nt]],
      ['python3 gettgtpkinit.py -cert-pfx a.pfx corp/dc01$ dc01.ccache', `INFO:minikerberos:Requesting TGT\nINFO:minikerberos:AS-REP encryption key (you might need this later):\nINFO:minikerberos:${key}\nINFO:minikerberos:Saved TGT to file\n`, [key]],
      ['pypykatz dpapi prekey', `[GUID] 1d8b3c1a-2f4e-4b6a-9c8d-7e6f5a4b3c2d\n[MASTERKEY] ${mk}\n`, [mk]],
      ['lsassy -u admin -p x 10.0.0.5', `[+] 10.0.0.5 CORP\\alice  ${nt}\n[+] 10.0.0.5 CORP\\svc_sql  ${p1}\n`, [nt, p1]],
    ];
    for (const [cmd, text, values] of cases) {
      expect(mayHoldSecret(text) || secretPrinterOf(cmd) !== undefined, cmd).toBe(true);
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    const kept: [string, string][] = [
      ['git log -1', 'commit 3f2a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a\nRecovered NT Hash support in the parser\n'],
      ['nxc smb 10.0.0.0/24', '[+] 10.0.0.5 CORP\\alice  (Pwn3d!)\n'],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
  });

  it('masks what pass 258 found in terminal traces: asciinema input at a password prompt, an expect script answer, a password typed as a user name; keeps GPG key ids', () => {
    const [p1, p2, p3] = [pw(), pw(), `_5v!${s(AN, 12)}%0`];
    const cases: [string, string, string[]][] = [
      ['cat ssh.cast', `{"version": 2, "width": 80, "height": 24}\n[0.5, "o", "$ ssh ops@10.20.0.7\\r\\n"]\n[1.02, "o", "ops@10.20.0.7's password: "]\n[3.71, "i", "${p1}\\r"]\n[3.9, "o", "\\r\\nWelcome\\r\\n"]\n`, [p1]],
      ['cat ssh.cast', `{"version":2,"width":80,"height":24}\n[1.02,"o","Enter passphrase for key '/home/ops/.ssh/id_ed25519': "]\n[3.71,"i","${p2}\\r"]\n`, [p2]],
      ['cat -n login.exp', `     4\texpect "*password:"\n     5\tsend "${p1}\\r"\n     6\texpect "$ "\n     7\tsend -- "sudo -i\\r"\n`, [p1]],
      ['grep -E "Invalid user|Failed password" secure', `May 13 03:12:55 bastion sshd[22913]: Invalid user ${p3} from 10.0.9.14 port 51234\nMay 13 03:12:57 bastion sshd[22913]: Failed password for invalid user ${p3} from 10.0.9.14 port 51234 ssh2\n`, [p3]],
    ];
    for (const [cmd, text, values] of cases) {
      expect(mayHoldSecret(text) || secretPrinterOf(cmd) !== undefined, cmd).toBe(true);
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    const kept: [string, string][] = [
      ['grep -n GPG .bashrc', '2:export GPG_SIGNING_KEY=7DA8A446460F6B93\n3:export GPG_FINGERPRINT=FA889C65145884A65F029C4C7DA8A446460F6B93\n'],
      ['cat ssh.cast', '[0.5, "o", "$ ls\\r\\n"]\n[0.6, "i", "ls\\r"]\n[0.7, "o", "README.md\\r\\n"]\n'],
      ['cat -n deploy.exp', '     1\texpect "$ "\n     2\tsend "git pull --rebase\\r"\n'],
      ['grep Invalid secure', 'May 13 03:12:58 bastion sshd[22913]: Invalid user oracle from 10.0.9.14 port 51234\nMay 13 03:12:58 bastion sshd[22913]: Invalid user web-admin.2 from 10.0.9.14 port 51234\n'],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
  });

  it('masks what passes 257 and 259 found: a quoted password column, an ssm table through an endpoint, git-crypt keys, himalaya raw passwords, IMAP LOGIN behind a debug prefix, Signal keys, msmtp diffs, decoded FileZilla passwords, OpenVPN auth files; keeps HMACs and ciphertexts under secret names', () => {
    const [p1, p2, p3] = [pw(), pw(), pw()];
    const hex64 = s(HEX, 64);
    const gitCrypt = Buffer.concat([Buffer.from('\0GITCRYPTKEY'), Buffer.from(s(HEX, 96), 'hex')]).toString('base64');
    const row = (arn: string, name: string, value: string) => `||  ${arn}  |  text  |  1714000000.5  |  ${name}  |  SecureString |  ${value}  |  9  ||`;
    const cases: [string, string, string[]][] = [
      ['keepassxc-cli export -f csv vault.kdbx | cut -d, -f2-4 | column -s, -t', `"Title"         "Username"              "Password"\n"Work mail"     "jordan.reyes@acme.io"  "${p1}"\n"ipmi-r740"     "ADMIN"                 "9H779X4NSY"\n`, [p1, '9H779X4NSY']],
      ['aws --endpoint-url http://127.0.0.1:18259 ssm get-parameters-by-path --path /prod --with-decryption --output table', `|| ARN | DataType | LastModifiedDate | Name | Type | Value | Version ||\n|+----+----+\n${row('arn:aws:ssm:us-east-1:418273645091:parameter/prod/admin_password', '/prod/admin_password', p2)}\n`, [p2]],
      ['base64 -w0 .git/git-crypt/keys/default; echo', `${gitCrypt}\n`, [gitCrypt]],
      ['grep -n auth .config/himalaya/config.toml', `9:backend.auth.type = "password"\n10:backend.auth.raw = "${p1}"\n`, [p1]],
      ["grep -E '> GMKJ' offlineimap-debug.log", `  DEBUG[imap]:   18:02.61 Account sync Fastmail [sync] > GMKJ2 LOGIN dana@whitfield.dev "${p3}"\n`, [p3]],
      ['cat .config/Signal/config.json', `{\n  "key": "${hex64}",\n  "mediaPermissions": true\n}\n`, [hex64]],
      ['git -C dotfiles --no-pager diff', `@@ -9,6 +9,6 @@ host smtp.gmail.com\n user dana@gmail.com\n-password zfcvnlimgnjtgvct\n+password epwoxjuyiifdtsis\n`, ['zfcvnlimgnjtgvct', 'epwoxjuyiifdtsis']],
      [`grep -oP '(?<=<Pass encoding="base64">)[^<]+' .config/filezilla/recentservers.xml | base64 -d; echo`, `${p2}\n`, [p2]],
      ['grep -n auth-user-pass proton.ovpn && cat auth.txt', `10:auth-user-pass auth.txt\nZph7ogC32totIcjuwwMi6J62+pmp\n${hex64.slice(0, 32)}\n`, [hex64.slice(0, 32)]],
    ];
    for (const [cmd, text, values] of cases) {
      expect(mayHoldSecret(text) || secretPrinterOf(cmd) !== undefined, cmd).toBe(true);
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    // The table's other columns stay.
    const table = new Redactor().maskCommandOutput(cases[1][0], cases[1][1]);
    expect(table).toContain('/prod/admin_password');
    const kept: [string, string][] = [
      ['tail -n 1 log/vault_audit.log | jq -c .', `{"token":"hmac-sha256:${hex64}","path":"secret/data/payments/api","data":{"db_password":"hmac-sha256:${s(HEX, 64)}"}}\n`],
      ["jq '.ciphers | to_entries[0].value' bw-data.json", '{\n  "login": {\n    "password": "2.NVRDE9NHQ3WjoZuKuoDZdA==|51MrrdKUptXBGND/NF7CsWIIfBhRey7g|ftmQECvplx5RgBuCZdrqD46AFa/3UGGnYXhBpd/fCYw="\n  }\n}\n'],
      ['aws ssm get-parameter --name /prod/payments/stripe_secret_key', `{\n    "Parameter": {\n        "Type": "SecureString",\n        "Value": "AQICAHhug43sBdISLgpzCU3EXjq1SPJuS2jYN8C4h1OwiizmHyGRjtpODgBCuZVlS5jUSsJ48TdMvBIivKbTB1uZhP4iFb2eE1/AHawzvd0aaEOtomR5Iaw4mWL4myqpFKg37"\n    }\n}\n`],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
  });

  it('masks pass 251s leftover: Windows LAPS JSON pretty-printed by jq; keeps other short-keyed JSON', () => {
    const p1 = pw();
    const cases: [string, string, string[]][] = [
      ['jq . laps.json', `{\n  "n": "Administrator",\n  "t": "1da88354aecb510",\n  "p": "${p1}"\n}\n`, [p1]],
      ['Get-Content laps.json', `{\n    "n":  "Administrator",\n    "t":  "1da88354aecb510",\n    "p":  "${p1}q"\n}\n`, [`${p1}q`]],
    ];
    for (const [cmd, text, values] of cases) {
      expect(mayHoldSecret(text) || secretPrinterOf(cmd) !== undefined, cmd).toBe(true);
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    const kept: [string, string][] = [
      ['jq . event.json', '{\n  "n": "deploy",\n  "p": "src/main.ts"\n}\n'],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
  });

  it('masks what the closing attack adv263 found at this session rules edges and pass 262s debug pages; keeps what those rules had damaged', () => {
    const [p1, p2, p3, p4] = [pw(), pw(), pw(), pw()];
    const [hex32, hex40] = [s(HEX, 32), s(HEX, 40)];
    const [tsig, tsig2] = [b64(s(AN, 32)), b64(s(AN, 30))];
    const cookie = `CfDJ8${s(AN + '-_', 120)}`;
    const cases: [string, string, string[]][] = [
      ["grep -A1 '^data:' login-dump.txt", `data:\n"${p1}"\n--\ndata:\n"${p2}"\n`, [p1, p2]],
      ['grep -r "^Key:" keys/', `keys/Kddns-key.+163+40312.private:Key: ${tsig}\n`, [tsig]],
      ['tail -n +3 Kupd.+163+00417.private', `Key: ${tsig2}\nBits: AAA=\n`, [tsig2]],
      ['cat deploy.exp', `expect "*assword:"\nsend -- {${p1}}\nexpect "Enter PEM pass phrase:"\nsleep 1\nsend "${p2}\\r"\n`, [p1, p2]],
      ['cat login.py', `child.expect('Password:')\nchild.sendline('${p3}')\n`, [p3]],
      ['grep sshd auth.log', `sshd[4411]: Connection closed by invalid user Sparrow!orchid14 10.0.9.14 port 51234 [preauth]\nsshd[4415]: input_userauth_request: invalid user Kestrel!145%otter [preauth]\nsshd[4419]: Invalid user Orchid@maple47 from 10.0.9.14 port 51250\n`, ['Sparrow!orchid14', 'Kestrel!145%otter', 'Orchid@maple47']],
      ['cat lsassy.txt', `[+] 10.0.0.5 CORP.LOCAL\\jsnow  [PWD] ${p4}\n[+] dc01.corp.local CORP\\svc_sql  ${p1}\nLSASSY      10.0.0.5        445    DC01             CORP\\svc_backup ${hex32}\n`, [p4, p1, hex32]],
      ['python3 imap_check.py 2>&1', `  59:50.64 > b'IPEJ1 LOGIN alerts@example.com "${p2}"'\n`, [p2]],
      ['diff msmtprc.bak msmtprc', `< password ${p3}\n---\n> password ${p4}\n`, [p3, p4]],
      ['cat .env', `GPG_PASSPHRASE=${s(HEX, 16)}\n`.replace(/=(.*)/, `=${hex32.slice(0, 16)}`), [hex32.slice(0, 16)]],
      ['cat .env', 'SMTP_SECRET=cascade@mail!Marigold36\n', ['cascade@mail!Marigold36']],
      ['column -s, -t < keepass.csv', `"Title"   "Username"  "Password"  "Last Modified"\n"GitHub"  "alice"     "${p1}"  "2024-05-01T10:00:00Z"\n`, [p1]],
      ['cat cf.cast', `[2.20, "o", "\\r\\nPassword> "]\n[3.71, "i", "${p2}\\r"]\n[1.20, "o", "? Master password: [input is hidden] "]\n[3.71, "i", "${p3}\\r"]\n`, [p2, p3]],
      ["sqlite3 -header app.db 'select id, email, otp_secret, recovery_codes from users'", `id|email|otp_secret|recovery_codes\n1|a@example.com|${s(AN, 32)}|a9b97-ded14 2daf1-6cb75 95bcb-f2a00\n`, ['a9b97-ded14 2daf1-6cb75']],
      ["sqlite3 -csv app.db 'select id, password from users'", `1,${p4}|hrb\n`, [`${p4}|hrb`]],
      ['cat stern-mailer.log', `mailer-7d4b9c8f6d-x2k8q mailer db0.internal:5432:app:app_rw:${p1}\nmailer-8f5c7b9d4e-p9zr4 mailer db1.internal:5432:app:app_rw:${p2}\nmailer-7d4b9c8f6d-x2k8q mailer ok\nmailer-8f5c7b9d4e-p9zr4 mailer ok\n`, [p1, p2]],
      ['cat turbo.log', `db:dump: replica0.internal:5432:orders:orders_ro:${p3}\ndb:dump: replica1.internal:5432:orders:orders_ro:${p4}\ndb:dump: done\n`, [p3, p4]],
      ["./fs_cli -x 'global_getvar default_password'", `${p1}\n`, [p1]],
      ["curl -s http://127.0.0.1:26201/x | grep -A1 HTTP_AUTHORIZATION", `          <td>HTTP_AUTHORIZATION</td>\n          <td class="code"><pre>&#x27;Token ${hex40}&#x27;</pre></td>\n`, [hex40]],
      ["jq '.context.headers' flare-report.json", `{\n  "authorization": [\n    "Bearer 7|${s(AN, 40)}"\n  ]\n}\n`.replace('7|', '7|'), []],
      ["aws cloudformation describe-stacks --stack-name orders-prod --query 'Stacks[0].Outputs' --output table", `|  API Gateway key for partner integration|  PartnerApiKeyValue |  ${s(AN, 40)}x  |\n|                                         |  BucketName         |  orders-prod-artifacts-118032449946  |\n`.replace(/ {2}(\w{40}x)/, (_, k) => `  ${k}`), []],
      ["curl -s http://127.0.0.1:26206/x | sed -e 's/<[^>]*>//g'", `    .AspNetCore.Identity.Application\n    ${cookie}\n    Ocp-Apim-Subscription-Key\n    ${hex32}\n`, [cookie, hex32]],
    ];
    for (const [cmd, text, values] of cases) {
      expect(mayHoldSecret(text) || secretPrinterOf(cmd) !== undefined, cmd).toBe(true);
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    // The Authorization list's item, and the list's bracket kept.
    const flare = new Redactor().maskCommandOutput("jq '.context.headers' flare-report.json", '{\n  "authorization": [\n    "Bearer 7|aqW6UhZfCQD0Pb3FkSLyzaPArQrpKZ3hyAdf37tQ4628676f"\n  ]\n}\n');
    expect(flare).toContain('"authorization": [\n');
    expect(flare).not.toContain('aqW6UhZfCQD0Pb3FkSLyzaPArQrpKZ3hyAdf37tQ4628676f');
    const kept: [string, string][] = [
      ['grep sshd auth.log', 'sshd[4411]: Invalid user CORP\\jsmith from 10.0.9.14 port 51234\nsshd[4415]: Invalid user oracle+test from 203.0.113.7 port 40112\nsshd[4416]: Invalid user user(1) from 203.0.113.7 port 40113\nsshd[4417]: Invalid user ops1@example.com from 203.0.113.7 port 40114\n'],
      ['cat chpw.exp', 'expect "passwd: password updated successfully"\nsend "exit\\r"\nexpect "password changed"\nsend "logout\\r"\n'],
      ['column -s, -t tokens.csv', '"Token"        "Lemma"       "POS"\n"Running"      "run"         "VERB"\n"Kubernetes"   "Kubernetes"  "PROPN"\n'],
      ['cat .env', 'GPG_KEY_ID=7DA8A446460F6B93\nsigning.gnupg.keyName=24875D73\n'],
      ['env | cut -d= -f1', 'DB_PASSWORD\nGITHUB_TOKEN\nHOME\n'],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
    const cfKey = s(AN, 40);
    const cf = new Redactor().maskCommandOutput('aws cloudformation describe-stacks --output table', `|  API Gateway key for partner integration|  PartnerApiKeyValue |  ${cfKey}  |\n|                                         |  BucketName         |  orders-prod-artifacts-118032449946  |\n`);
    expect(cf).not.toContain(cfKey);
    expect(cf).toContain('orders-prod-artifacts-118032449946');
    const cfText = new Redactor().maskCommandOutput('aws cloudformation describe-stacks --output text', `OUTPUTS\tAdminPasswordValue\t${cfKey}\nOUTPUTS\tBucketName\tmy-bucket-123\n`);
    expect(cfText).not.toContain(cfKey);
    expect(cfText).toContain('my-bucket-123');
    const cols = new Redactor().maskCommandOutput("sqlite3 -header app.db 'select id, author, reference, design, encoding, token from api_tokens'", `id|author|reference|design|encoding|token\n1|alice|REF-2291|v2-blue|base64url|${p1}\n`);
    expect(cols).toContain('1|alice|REF-2291|v2-blue|base64url|');
    expect(cols).not.toContain(p1);
  });

  it('masks what passes 264 and 265 led to: a bare -p password in ps output, which the CLI quick check had skipped, and a Source server login token', () => {
    const p1 = pw();
    const gslt = s(HEX, 32).toUpperCase();
    const cases: [string, string, string[]][] = [
      ["ps -eo pid,etime,args | grep '[m]crcon'", `12638       00:00 /bin/sh ./mcrcon -H 127.0.0.1 -P 25575 -p ${p1} say Restarting in 5 minutes\n`, [p1]],
      ["grep -E '^(hostname|sv_setsteamaccount)' csgo/cfg/server.cfg", `hostname "EU #1"\nsv_setsteamaccount "${gslt}"\n`, [gslt]],
      ['ps aux | grep srcds', `steam  4411  ./srcds_run -game csgo +sv_setsteamaccount ${gslt} +map de_dust2\n`, [gslt]],
    ];
    for (const [cmd, text, values] of cases) {
      expect(mayHoldSecret(text), cmd).toBe(true);
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    const kept: [string, string][] = [['grep ProjectID DefaultGame.ini', `ProjectID=${gslt}\n`]];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
  });
});

describe('session 45: the stop-time check of session 44 and the leads of passes 263 to 265', () => {
  it('masks answers to password prompts in expect and pexpect scripts whose prompt has a regular expression end or a quote inside', () => {
    const [p1, p2, p3] = [pw(), pw(), pw()];
    const cases: [string, string, string[]][] = [
      ['cat login.exp', `spawn sftp ops@h\nexpect -re "(P|p)assword: $"\nsend -- "${p1}\\r"\n`, [p1]],
      ['cat login.exp', `spawn ssh ops@h\nexpect -re {assword:\\s*$}\nsend -- "${p3}\\r"\n`, [p3]],
      ['cat auto.py', `p = pexpect.spawn("ssh root@h")\np.expect("root@h's password:")\np.sendline("${p2}")\n`, [p2]],
    ];
    for (const [cmd, text, values] of cases) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    // What a script sends after a prompt that asks no password stays.
    const kept = 'expect "Are you sure you want to continue connecting (yes/no)?"\nsend "yes\\r"\nexpect "$ "\nsend "uptime\\r"\n';
    expect(new Redactor().maskCommandOutput('cat login.exp', kept)).toBe(kept);
  });

  it('masks pypykatz masterkeys in its text output, a Signal key through jq, a BIND key line picked by sed, a netrc password in the left column of diff -y', () => {
    const [mk, sha, sig, tsig, p1] = [s(HEX, 128), s(HEX, 40), s(HEX, 64), b64(s(AN, 32)), pw()];
    const cases: [string, string, string[]][] = [
      ['pypykatz lsa minidump l.dmp', `== DPAPI [3e7]==\n\t\tluid 999\n\t\tkey_guid 1d8b3c1a-2f4e-4b6a-9c8d-7e6f5a4b3c2d\n\t\tmasterkey ${mk}\n\t\tsha1_masterkey ${sha}\n`, [mk, sha]],
      ['jq . "$HOME/.config/Signal/config.json"', `{\n  "key": "${sig}",\n  "mediaPermissions": true\n}\n`, [sig]],
      ['jq -r .key ~/.config/Signal/config.json', `${sig}\n`, [sig]],
      ["sed -n '3p' Kddns.+163+51230.private", `Key: ${tsig}\n`, [tsig]],
      ['diff -y netrc.old netrc', `machine git.example.com\t\t\t\t\t\tmachine git.example.com\nlogin alice\t\t\t\t\t\t\tlogin alice\npassword ${p1}\t\t\t\t      |\tpassword ${pw()}\n`, [p1]],
    ];
    for (const [cmd, text, values] of cases) {
      expect(mayHoldSecret(text) || secretPrinterOf(cmd) !== undefined, cmd).toBe(true);
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    // Signal's other settings and the key's guid stay; a sed that rewrites is no line picker.
    expect(new Redactor().maskCommandOutput('jq . ~/.config/Signal/config.json', `{\n  "key": "${sig}",\n  "mediaPermissions": true\n}\n`)).toContain('"mediaPermissions": true');
    expect(new Redactor().maskCommandOutput('pypykatz lsa minidump l.dmp', `\t\tkey_guid 1d8b3c1a-2f4e-4b6a-9c8d-7e6f5a4b3c2d\n\t\tmasterkey ${mk}\n`)).toContain('1d8b3c1a-2f4e-4b6a-9c8d-7e6f5a4b3c2d');
    expect(secretPrinterOf("sed 's/a/b/' Kddns.+163+51230.private")).toBeUndefined();
  });

  it('reads psql expanded rows by title: the secret column masked, the others kept', () => {
    const [t1, t2] = [pw(), pw()];
    const text = `-[ RECORD 1 ]--------\nid       | 1\nusername | svc\npassword | ${t1}\n-[ RECORD 2 ]--------\nid       | 2\nusername | ci\npassword | ${t2}\n\n`;
    for (const cmd of ["psql -x -c 'select id, username, password from creds'", "psql -x -c 'select * from creds'"]) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      expect(shown, cmd).not.toContain(t1);
      expect(shown, cmd).not.toContain(t2);
      for (const k of ['username | svc', 'username | ci', 'id       | 2', '-[ RECORD 2 ]--------']) expect(shown, cmd).toContain(k);
    }
    // Two columns: the titles are not read as a table's cells.
    const two = `-[ RECORD 1 ]--\nusername | svc\npassword | ${t1}\n`;
    const shown = new Redactor().maskCommandOutput("psql -x -c 'select username, password from creds'", two);
    expect(shown).not.toContain(t1);
    expect(shown).toContain('username | svc');
  });

  it('masks what passes 264 and 265 printed: a secret picked by its name then decoded, an XML-RPC login, an attribute between name and value, a glued secret flag', () => {
    const [p1, key, p2, hex] = [pw(), s(HEX, 40), pw(), s(HEX, 64)];
    const cases: [string, string, string[]][] = [
      [`jq -r '.variables[] | select(.env_variable=="RCON_PASS_B64") | .value' backup/server-vars.json | base64 -d`, `${p1}\n`, [p1]],
      [`aws ecs describe-task-definition --task-definition web | jq -r '.taskDefinition.containerDefinitions[].environment[] | select(.name == "DB_PASSWORD") | .value'`, `${p2}\n`, [p2]],
      ['python3 odoo_sync.py -v', `send: b"<?xml version='1.0'?>\\n<methodCall>\\n<methodName>authenticate</methodName>\\n<params>\\n<param>\\n<value><string>acme-prod</string></value>\\n</param>\\n<param>\\n<value><string>integration@acme.com</string></value>\\n</param>\\n<param>\\n<value><string>${key}</string></value>\\n</param>\\n</params>\\n</methodCall>\\n"\n`, [key]],
      ['cat request.xml', `<methodCall>\n<methodName>execute_kw</methodName>\n<params>\n<param><value><string>acme</string></value></param>\n<param><value><int>7</int></value></param>\n<param><value><string>${p2}</string></value></param>\n<param><value><string>res.partner</string></value></param>\n</params>\n</methodCall>\n`, [p2]],
      ['grep -h mid.instance agent/config.xml', `   <parameter name="mid.instance.username" value="svc_mid_server"/>\n   <parameter name="mid.instance.password" secure="true" value="${p1}"/>\n`, [p1]],
      ['grep -n tokensecret .bash_history', `4:suitecloud account:savetoken --account 4821337_SB1 --authid acme-sb1 --tokenid ${s(HEX, 64)} --tokensecret ${hex}\n`, [hex]],
    ];
    for (const [cmd, text, values] of cases) {
      expect(mayHoldSecret(text) || secretPrinterOf(cmd) !== undefined, cmd).toBe(true);
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    // The login and the database stay; an entry picked by a name that is no secret stays.
    const rpc = new Redactor().maskCommandOutput('python3 odoo_sync.py -v', cases[2][1]);
    expect(rpc).toContain('integration@acme.com');
    expect(rpc).toContain('acme-prod');
    expect(secretPrinterOf(`jq -r '.environment[] | select(.name == "DB_HOST") | .value' td.json`)).toBeUndefined();
    const user = '   <parameter name="mid.instance.username" secure="false" value="svc_mid_server"/>\n';
    expect(new Redactor().maskCommandOutput('cat config.xml', user)).toBe(user);
  });

  it('masks what passes 266 to 268 printed: cookies picked by jq, a signed session cookie in node inspect, a Playwright fill below a password input, Selenium IDE rows, hCaptcha, LiveKit and Agora secrets, letters only under a padded name', () => {
    const [sess, p1, p2, lk, lk2] = [s(AN + '_-', 43), pw(), pw(), s(AN, 43), s(AN, 43)];
    const [hc, cert, sid, sig] = ['0x' + s(HEX, 40), s(HEX, 32), s(AN, 32), s(AN, 43)];
    const letters = 'HUPTyLQGDYTtDeOJ';
    const cases: [string, string, string[]][] = [
      [`jq -r '.cookies[] | [.name, .value, .domain, .httpOnly] | @tsv' playwright/.auth/user.json`, `__Host-session\t${sess}\tapp.example.com\ttrue\n`, [sess]],
      [`jq -r '.sessions[] | .id as $s | .cookieJar.cookies[] | "\\($s) \\(.key)=\\(.value)"' SDK_SESSION_POOL_STATE.json`, `session_HLSr4lSidk at-main=Atza|IwEB${sess}\n`, [sess]],
      ['node -e "console.log(require(\'./cookies.json\'))"', `[\n  {\n    name: 'connect.sid',\n    value: 's%3A${sid}.${sig.replace(/[+/]/g, '%2B')}',\n    domain: 'admin.example.dev'\n  }\n]\n`, [sid]],
      ['cat test-output.txt', `    Call log:\n      - waiting for getByLabel('Password')\n      -   locator resolved to <input id="pw" type="password" name="password"/>\n      - fill("${p1}")\n      -   attempting fill action\n`, [p1]],
      [`jq -r '.tests[].commands[] | [.command, .target, .value] | @tsv' member-portal.side`, `open\t/login\t\ntype\tid=email\tops@acme-shop.io\ntype\tid=password\t${p2}\n`, [p2]],
      [`awk -F= '/SECRET/ {printf "%-30s %s\\n", $1, $2}' .env.local`, `HCAPTCHA_SECRET                ${hc}\n`, [hc]],
      ['cat .env', `HCAPTCHA_SECRET=${hc}\n`, [hc]],
      ["tr '\\0' ' ' < /proc/4187/cmdline", `/usr/local/bin/livekit-server --config /etc/livekit.yaml --keys APIub7TQruOYzyI: ${lk} --node-ip 203.0.113.7\n`, [lk]],
      ["yq -r '.data[\"keys.yaml\"]' livekit-keys.yaml | base64 -d", `APIUzBxzdNoWFno: ${lk2}\n`, [lk2]],
      ['python3 token.py', `App ID         : 0d1f2e3c4b5a69788796a5b4c3d2e1f0\nApp Certificate: ${cert}\n`, [cert]],
      [`awk -F= '/SECRET/ {printf "%-32s %s\\n", $1, $2}' common/config/core/env`, `CORE_SECRET                      ${letters}\nJOBSERVICE_SECRET                ${s(AN, 16)}\n`, [letters]],
      ['grep -n prosodyctl .bash_history', '3:sudo prosodyctl register dana meet.example.com Maplecobalt77#\n', ['Maplecobalt77#']],
    ];
    for (const [cmd, text, values] of cases) {
      expect(mayHoldSecret(text) || secretPrinterOf(cmd) !== undefined, cmd).toBe(true);
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    // The quick check alone says look at the prosodyctl line (the hooked CLI skips the scanner otherwise).
    expect(mayHoldSecret('3:sudo prosodyctl register dana meet.example.com Maplecobalt77#\n')).toBe(true);
    // A cookie row's name and domain stay; the App ID stays; what a test fills into another input stays.
    const row = new Redactor().maskCommandOutput(cases[0][0], cases[0][1]);
    expect(row).toContain('__Host-session\t');
    expect(row).toContain('\tapp.example.com\ttrue');
    expect(new Redactor().maskCommandOutput('python3 token.py', cases[9][1])).toContain('0d1f2e3c4b5a69788796a5b4c3d2e1f0');
    const kept: [string, string][] = [
      ['cat test-output.txt', `      -   locator resolved to <input id="email" type="email"/>\n      - fill("ops@acme-shop.io")\n`],
      ['cat page.html', `<input type="password" name="pw">\n<script>fill("not-a-call-log")</script>\n`],
      ['cat answer.sdp', 'a=ice-ufrag:Yf3k\na=ice-pwd:Tpc/kM/CF+jHdFo0d9JhQ5QO\n'],
      ['cat server.log', '{"plainToken":"hvNDTGoZbye9yRDrQX4HC6","encryptedToken":"a54a967fb38f2d0b5cde1e9b1c7f2a0e3d4c5b6a7f8e9d0c1b2a3f4e5d6c1c929"}\n'],
      ['grep -o data-sitekey login.html', 'data-sitekey="6LcJmZfzAAAAAPShvuvpRQCFcjs3bm3N8CjFKnvt"\n'],
      ["jq -r '.variations_seed_signature' 'Local State'", 'MEQCICp8tuIIlWlPan3jhCl/g5dKZuUxMz0seDLv2heL7anOAiBW2S6f74BA0Q5FYRrmoQwDo7KhyLU4HHJRuw0TtARbuA==\n'],
      ['cat .env', 'WALLET_ADDRESS=0xb1a7e7568163731cd3006ed83df7fa1fdc4d6e60\n'],
      ['cat notes.txt', 'CORE_SECRET                      NotSetYet\n'],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
  });

  it('masks what passes 269 to 271 printed: a Dropbox refresh token with no name, a tokenKey column, a JWT secret JSON in an env file, a Convex admin key, ttyd credentials, a mosh key, a JetBrains join token', () => {
    const [dbx, tk, jwt, cvx, p1, mosh, jt] = [s(AN, 11) + 'AAAAAAAAAA' + s(AN + '_-', 43), s(AN, 50), s(AN, 48), '01' + s(HEX, 96), pw(), s(AN, 22), '46502979-f149-486b-a25a-b14abdf09ce9'];
    const cases: [string, string, string[]][] = [
      ['sqlite3 .n8n/database.sqlite "SELECT data FROM execution_data WHERE executionId = 412"', `[{"startData":"1"},["9"],"${dbx}","files.content.read","7596535812"]\n`, [dbx]],
      ["sqlite3 -header -column pb_data/data.db 'select id, email, tokenKey, verified from _superusers'", `id               email              tokenKey                                            verified\n---------------  -----------------  --------------------------------------------------  --------\nzks6akaham97mn8  admin@example.com  ${tk}  1\n`, [tk]],
      ['diff -u .env.example .env', `-HASURA_GRAPHQL_JWT_SECRET=\n+HASURA_GRAPHQL_JWT_SECRET={"type":"HS512","key":"${jwt}","claims_namespace":"https://hasura.io/jwt/claims"}\n`, [jwt]],
      ['docker inspect hasura', `"Env": ["HASURA_GRAPHQL_JWT_SECRET={\\"type\\":\\"HS256\\",\\"key\\":\\"${jwt}\\"}"]\n`, [jwt]],
      ['cat admin-key.out', `Admin key:\nconvex-self-hosted|${cvx}\n`, [cvx]],
      ["grep -n '^ExecStart' ttyd.service", `7:ExecStart=/usr/local/bin/ttyd --port 7681 --credential dev:${p1} --writable tmux new -A -s main\n`, [p1]],
      ['cat mosh-server.out', `\r\nMOSH CONNECT 60001 ${mosh}\r\n`, [mosh]],
      ["grep -E 'link:' remote-dev-server.out", `Join link: tcp://127.0.0.1:5990#jt=${jt}&p=IU&fp=B151216C458B2B1E9A1036502738CA23501866FF3DD733168C7A645283BC2D5D&cb=241.14494.240\n`, [jt]],
    ];
    for (const [cmd, text, values] of cases) {
      expect(mayHoldSecret(text) || secretPrinterOf(cmd) !== undefined, cmd).toBe(true);
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    // The columns beside the key, the JWT secret's other fields and the link's fingerprint stay; shipped placeholders stay.
    const table = new Redactor().maskCommandOutput(cases[1][0], cases[1][1]);
    expect(table).toContain('admin@example.com');
    expect(new Redactor().maskCommandOutput(cases[2][0], cases[2][1])).toContain('"claims_namespace":"https://hasura.io/jwt/claims"');
    expect(new Redactor().maskCommandOutput(cases[7][0], cases[7][1])).toContain('fp=B151216C458B2B1E9A1036502738CA23501866FF3DD733168C7A645283BC2D5D');
    const kept: [string, string][] = [
      ["grep -E 'SECRET|CODE' .env.example", 'APP_SECRET_TOKEN=REPLACE_ME_NOW!\nINVITATION_CODE=try-huginn\n'],
      ['cat .env.example', 'APP_KEYS="toBeModified1,toBeModified2"\n'],
      ['base64 logo.png', 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==\n'],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
  });

  it('masks the password line of MySQL master.info by its place, and learns a hex dump row without its offset column (pass 273)', () => {
    const p1 = pw();
    const info = `33\nmysql-bin.000142\n81723\n10.20.1.4\nrepl\n${p1}\n3306\n60\n`;
    expect(mayHoldSecret(info)).toBe(true);
    const shown = new Redactor().maskCommandOutput('head -8 master.info', info);
    expect(shown).not.toContain(p1);
    for (const k of ['mysql-bin.000142', '10.20.1.4', 'repl', '3306']) expect(shown).toContain(k);
    expect(mayHoldSecret(`33\nbinlog.000002\n157\ndb1\nrepl\n${p1}\n3306\n`)).toBe(true);
    // A log's lines alike (a count, a file, numbers) hold no password where the port is not a number.
    const log = '12\nmysql-bin.000007\n4\nhost\nuser\nnote\nnot-a-port\n';
    expect(new Redactor().maskCommandOutput('cat notes', log)).toBe(log);
    // An xxd row masked whole is learned without its offset: a later base64 of zero-padded text keeps its end.
    const r = new Redactor();
    r.maskCommandOutput('xxd rs-password.txt', '00000000: 6870 3d57 7762 3154 5537 5173 6b4c 6c7a  hp=Wwb1TU7QskLlz\n');
    const label = 'U1RBUlQgV0FMIExPQ0FUSU9OOiAwLzIwMDAwMjggKGZpbGUgMDAwMDAwMDEwMDAwMDAwMDAwMDAw\n';
    expect(r.maskCommandOutput('base64 backup_label', label)).toBe(label);
  });

  it('masks the closing attack adv272s forms at the new rules edges and keeps its look-alikes', () => {
    const [p1, p2, p3, p4, p5, nt, mk] = [pw(), pw(), pw(), pw(), pw(), s(HEX, 32), s(HEX, 128)];
    const [lk, cvx, tsig] = [s(AN, 43), '01' + s(HEX, 96), b64(s(AN, 32))];
    const cases: [string, string, string[]][] = [
      ['cat push.exp', `spawn git push origin main\nexpect "Password for 'https://ci-bot@git.acme.io':"\nsend "${p1}\\r"\n`, [p1]],
      ['cat rotate.py', `child.expect(['[Pp]assword:', pexpect.EOF, pexpect.TIMEOUT])\nchild.sendline(b'${p2}')\n`, [p2]],
      ['cat dump.grep', `packagename:domain:user:NT:LM:SHA1:masterkey:sha1_masterkey:key_guid:plaintext\nmsv:CORP:alice:${nt}::${s(HEX, 40)}::::\ndpapi::::::${mk}:${s(HEX, 40)}:1ed4c2a0-5f3e-4b6a-9c8d-7e6f5a4b3c2d:\nkerberos:CORP.LOCAL:alice:::::::${p3}\n`, [nt, mk, p3]],
      ["sed -ne 3p 'Kxfer-key.+165+41022.private'", `Key: ${tsig}\n`, [tsig]],
      ["python3 -c \"import xmlrpc.client as x, xml.dom.minidom as m; print(m.parseString(x.dumps(('acme_prod','admin@acme.io','pw',{}),'authenticate')).toprettyxml(indent='  '))\"", `<?xml version="1.0" ?>\n<methodCall>\n  <methodName>authenticate</methodName>\n  <params>\n    <param>\n      <value>\n        <string>acme_prod</string>\n      </value>\n    </param>\n    <param>\n      <value>\n        <string>admin@acme.io</string>\n      </value>\n    </param>\n    <param>\n      <value>\n        <string>${p4}</string>\n      </value>\n    </param>\n  </params>\n</methodCall>\n`, [p4]],
      ['jq -c . req.json', `{"jsonrpc":"2.0","method":"call","params":{"service":"common","method":"login","args":["acme_prod","admin@acme.io","${p5}"]},"id":1}\n`, [p5]],
      ['cat radius-proxy.service', `ExecStart=/usr/local/bin/radius-proxy --listen 127.0.0.1:1812 --sharedsecret ${p1} --upstream 127.0.0.1:11812\n`, [p1]],
      ["jq -r --arg n DB_PASSWORD '.containerDefinitions[0].environment[] | select(.name == $n) | .value' taskdef.json", `${p2}\n`, [p2]],
      [`jq -r '.spec.containers[].env[] | select(.name|endswith("_PASSWORD")) | .value' pod.json`, `${p3}\n`, [p3]],
      ["jq -c '.cookies[] | {name, value}' state.json", `{"name":"_shop_session","value":"${s(AN, 40)}"}\n`, []],
      ['cat cy.txt', `>  9 |     cy.get('input[type="password"]').type('${p4}')\n`, [p4]],
      ["jq -c '.tests[].commands[] | {command, target, value}' login.side", `{"command":"type","target":"id=password","value":"${p5}"}\n`, [p5]],
      ['python3 keys.py', `{\n  "keys": {\n    "APIFdiRmyR3Y61H": "${lk}"\n  }\n}\n`, [lk]],
      ['cat keygen.log', `acme_prod|${cvx}\n`, [cvx]],
      ['jq -c .services.term compose.json', `{"image":"tsl0922/ttyd","command":["ttyd","-W","-c","admin:${p1}","bash"]}\n`, [p1]],
      ['node -e "console.log(cookies)"', `{ 'app.sid': 's:${s(AN, 32)}.${s(AN, 43)}', theme: 'dark' }\n`, []],
      [`awk -F'"' '/"key"/{print $4}' snap/signal-desktop/current/.config/Signal/config.json`, `${mk.slice(0, 64)}\n`, [mk.slice(0, 64)]],
      [`python3 -c "import json,os; print(json.load(open(os.path.expanduser('.config/Signal/config.json')))['key'])"`, `${mk.slice(64)}\n`, [mk.slice(64)]],
    ];
    cases[9][2].push(cases[9][1].slice(39, 79));
    cases[15][2].push(cases[15][1].slice(14, 14 + 2 + 32 + 1 + 43));
    for (const [cmd, text, values] of cases) {
      expect(mayHoldSecret(text) || secretPrinterOf(cmd) !== undefined, cmd).toBe(true);
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    // Its look-alikes: an ELF header in base64, a sha512 row that starts 01, an analytics jt=, a public key as Hasura's key.
    const kept: [string, string][] = [
      ['head -c 48 /usr/bin/ls | base64 -w0', 'f0VMRgIBAQAAAAAAAAAAAAMAPgABAAAA0GEAAAAAAABAAAAAAAAAAHBHAgAAAAAA\n'],
      ['sqlite3 art.db "select name, sha512 from artifacts"', `agent-linux-amd64|01${s(HEX, 126)}\n`],
      ['cat access.log', '10.0.0.1 - - "GET /px.gif?ev=view&jt=46502979-f149-486b-a25a-b14abdf09ce9&v=2 HTTP/1.1" 200 43\n'],
      ['cat hasura.env', 'HASURA_GRAPHQL_JWT_SECRET={"type":"ES256","key":"-----BEGIN PUBLIC KEY-----\\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\\n-----END PUBLIC KEY-----\\n"}\n'],
      ['cat outputs.txt', 'APIFdiRmyR3Y61Hx: deploy\nAPIDeploymentIds: f6fef3c4314869c0a960c93df47bdca0\n'],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
  });

  it('masks a PKCS#8 EC private key in base64 with no armour (SPIRE keys.json, pass 275) and keeps its public key', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const der = privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
    const spki = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64');
    const text = `{\n  "keys": {\n    "x509-CA-A": "${der}",\n    "JWT-Signer-B": "${p384}"\n  },\n  "public": "${spki}"\n}\n`;
    const shown = new Redactor().maskCommandOutput('jq . data/server/keys.json', text);
    expect(shown).not.toContain(der.slice(40, 120));
    expect(shown).not.toContain(p384.slice(40, 120));
    expect(shown).toContain(spki);
  });

  it('masks Envoy secrets given inline and keeps an inline response body (pass 275)', () => {
    const [a, b] = [s(AN + '_-', 40), b64(s(AN, 32))];
    const text = `26-      generic_secret:\n27-        secret:\n28:          inline_string: "${a}"\n32:          inline_string: "${b}"\n`;
    const shown = new Redactor().maskCommandOutput('grep -n -B3 inline_string envoy.yaml', text);
    expect(shown).not.toContain(a);
    expect(shown).not.toContain(b);
    const body = '        direct_response:\n          status: 200\n          body:\n            inline_string: "service is up and running"\n';
    expect(new Redactor().maskCommandOutput('cat envoy.yaml', body)).toBe(body);
  });

  it('masks OMERO passwords on command lines in shell history (pass 274)', () => {
    const p1 = 'Agar0s3.2019';
    const text = `3:omero login -s omero.lab.example.org -u jdoe -w '${p1}'\n5:omero import -s omero.lab.example.org -u jdoe -w ${p1} -d 4522 /data/stack_02.czi\n`;
    expect(mayHoldSecret(text)).toBe(true);
    const shown = new Redactor().maskCommandOutput('grep -n omero .bash_history', text);
    expect(shown).not.toContain(p1);
    expect(shown).toContain('-u jdoe -w ');
    expect(shown).toContain('/data/stack_02.czi');
  });

  it('keeps a card receipt approval code and an OAI-PMH resumption token, and still masks a Redis AUTH (passes 276 and 277)', () => {
    const kept: [string, string][] = [
      ['cat receipt.txt', 'VISA CREDIT **** **** **** 4242\nAUTH CODE: 0X88KF\nAID: A0000000031010\n'],
      ['grep -o resumptionToken listrecords.xml', '<resumptionToken completeListSize="8812" cursor="0">b2FpX2RjLy8xMDAvL21ldGFkYXRhUHJlZml4PW9haV9kYw==</resumptionToken>\n'],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
    const p1 = pw();
    for (const line of [`127.0.0.1:6379> AUTH ${p1}\n`, `127.0.0.1:6379> AUTH default ${p1}\n`]) expect(new Redactor().maskCommandOutput('cat redis.log', line)).not.toContain(p1);
  });
});

describe('session 46: the stop-time check of session 45 and the leads of pass 276', () => {
  it("masks the answer to an expect prompt that names its key's file (`for key '<path>'`)", () => {
    const [p1, p2] = [pw(), pw()];
    const cases: [string, string, string][] = [
      ['cat unlock.exp', `spawn ssh-add /home/u/.ssh/id_ed25519\nexpect -exact "Enter passphrase for key '/home/u/.ssh/id_ed25519': "\nsend -- "${p1}\\r"\nexpect eof\n`, p1],
      ['cat rekey.exp', `spawn ssh-keygen -p -f k\nexpect "Enter old passphrase for key 'k': "\nsend "${p2}\\r"\n`, p2],
    ];
    for (const [cmd, text, value] of cases) expect(new Redactor().maskCommandOutput(cmd, text), cmd).not.toContain(value);
  });

  it('reads a settings table by row: the value of each row whose name is a secret, the other rows kept', () => {
    const [k1, k2, p1] = [s(HEX, 40), s(HEX, 40), pw()];
    const cases: [string, string, string[]][] = [
      [
        `sqlite3 -header -column ojs.db "select user_id, setting_name, setting_value from user_settings where setting_name like 'apiKey%'"`,
        `user_id  setting_name   setting_value                           \n-------  -------------  ----------------------------------------\n1        apiKey         ${k1}\n1        apiKeyEnabled  1                                       \n17       apiKey         ${k2}\n`,
        [k1, k2],
      ],
      [`sqlite3 ojs.db "select setting_name, setting_value from journal_settings"`, `name|Journal of Tests\napiSecret|${k1}\nprimaryLocale|en\n`, [k1]],
      [`mysql -e "select * from user_settings\\G"`, `*************************** 1. row ***************************\n      user_id: 1\n setting_name: smtpPassword\nsetting_value: ${p1}\n*************************** 2. row ***************************\n      user_id: 1\n setting_name: orcid\nsetting_value: 0000-0002-1825-0097\n`, [p1]],
    ];
    for (const [cmd, text, values] of cases) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    // The rows that name no secret keep their values, and the header its titles.
    const shown = new Redactor().maskCommandOutput(cases[0][0], cases[0][1]);
    expect(shown).toContain('apiKeyEnabled  1');
    expect(shown).toContain('user_id  setting_name   setting_value');
    expect(new Redactor().maskCommandOutput(cases[2][0], cases[2][1])).toContain('setting_value: 0000-0002-1825-0097');
    const sha = s(HEX, 40);
    const plain = `name|value\nbuild_commit|${sha}\nprimaryLocale|en\n`;
    expect(new Redactor().maskCommandOutput('sqlite3 app.db "select name, value from meta"', plain)).toBe(plain);
  });

  it("masks pyzotero's key by position, EZproxy's user.txt passwords and ticket secret, OCLC's wskey", () => {
    const [z, p1, p2, t, ws] = [s(AN, 24), pw(), pw(), s(AN, 24), s(AN, 80)];
    const cases: [string, string, string[]][] = [
      ['grep -rn "zotero.Zotero(" scripts/', `scripts/sync_bib.py:6:zot = zotero.Zotero(LIBRARY_ID, 'group', '${z}')\n`, [z]],
      ["grep -v '^#' user.txt", `ezadmin:${p1}:admin\nill-staff:${p2}\n::Ticket\nTimeValid 10\nSHA512 ${t}\nExpired; Deny expired.html\n/Ticket\n`, [p1, p2, t]],
      ["yq '.oclc' config.yml", `{\n  "institution_id": 128807,\n  "wskey": "${ws}",\n  "secret": "${s(AN, 24)}"\n}\n`, [ws]],
    ];
    for (const [cmd, text, values] of cases) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    // EZproxy's directives and its users' names stay.
    const shown = new Redactor().maskCommandOutput(cases[1][0], cases[1][1]);
    for (const kept of ['ezadmin:', ':admin', 'ill-staff:', '::Ticket', 'TimeValid 10', 'Expired; Deny expired.html']) expect(shown).toContain(kept);
  });

  it("masks Shopify's webhook HMAC as Square's, a BIND key's value printed by sed's s///p, Consul's ACL tokens block", () => {
    const [h, tsig, t1, t2] = [b64(s(AN, 32)).slice(0, 43) + '=', b64(s(AN, 32)), uuid(), uuid()];
    const cases: [string, string, string[]][] = [
      ['grep -A3 webhook app.log', `  X-Shopify-Hmac-SHA256: ${h}\n  x-shopify-topic: orders/create\n`, [h]],
      ["sed -n 's/^Key: //p' Kddns.+163+51230.private", `${tsig}\n`, [tsig]],
      ['cat consul.hcl', `acl {\n  enabled = true\n  tokens {\n    agent = "${t1}"\n    default = "${t2}"\n  }\n}\n`, [t1, t2]],
      ['jq .acl consul.json', `{\n  "enabled": true,\n  "tokens": {\n    "initial_management": "${t1}",\n    "agent": "${t2}"\n  }\n}\n`, [t1, t2]],
    ];
    for (const [cmd, text, values] of cases) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    // A UUID outside such a block stays (a Terraform default, a GraphQL selection named tokens).
    const kept = `variable "subscription" {\n  default = "${t1}"\n}\ntokens {\n  id\n  name\n}\n`;
    expect(new Redactor().maskCommandOutput('cat main.tf', kept)).toBe(kept);
  });

  it('masks the leads of passes 278 to 280: Junos in clear, net-snmp usmUser keys, NetBox peppers, Netmiko writes, Hue keys, SDK keys by position', () => {
    const [p1, p2, p3, p4, k1, k2, pep, nm, hue, co, wb] = [pw(), pw(), pw(), pw(), s(HEX, 40), s(HEX, 32), s(AN, 56), 'x7' + pw(), s(AN, 40), s(AN, 40), s(HEX, 40)];
    const cases: [string, string, string[]][] = [
      ['cat junos/srx.set', `set system login user netops authentication plain-text-password-value "${p1}"\nset system tacplus-server 10.20.0.21 secret "${p2}"\nset security ike policy POL-HQ pre-shared-key ascii-text "${p3}"\nset protocols bgp group IBGP authentication-key "${p4}"\n`, [p1, p2, p3, p4]],
      ["grep -n '^usmUser' /var/lib/snmp/snmpd.conf", `18:usmUser 1 3 0x80001f8880d2a6f50b63e3b86500000000 0x6e6d7300 0x6e6d7300 NULL .1.3.6.1.6.3.10.1.1.3 0x${k1} .1.3.6.1.6.3.10.1.2.4 0x${k2} ""\n`, [k1, k2]],
      ["grep -n -A1 PEPPERS netbox/configuration.py", `26:API_TOKEN_PEPPERS = {\n27-    1: '${pep}',\n`, [pep]],
      ["grep -n write_channel netmiko.log", `12:DEBUG:netmiko:write_channel: b'enable\\n'\n15:DEBUG:netmiko:write_channel: b'${nm}\\n'\n18:DEBUG:netmiko:write_channel: b'terminal length 0\\n'\n`, [nm]],
      ['curl -sv http://127.0.0.1:8080/api/x/lights/1', `> GET /api/${hue}/lights/1 HTTP/1.1\n> Host: 127.0.0.1:8080\n`, [hue]],
      ['python3 -c "print(nb)"', `['import cohere\\n', "co = cohere.Client('${co}')\\n"]\nwandb.login('${wb}')\n`, [co, wb]],
    ];
    for (const [cmd, text, values] of cases) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    // The commands Netmiko writes, the protocols' OIDs, the Junos keyword, a Hue bridge's other paths stay.
    const shown = new Redactor().maskCommandOutput(cases[3][0], cases[3][1]);
    expect(shown).toContain("b'enable\\n'");
    expect(shown).toContain("b'terminal length 0\\n'");
    expect(new Redactor().maskCommandOutput(cases[0][0], cases[0][1])).toContain('pre-shared-key ascii-text "');
    expect(new Redactor().maskCommandOutput(cases[1][0], cases[1][1])).toContain('.1.3.6.1.6.3.10.1.2.4 ');
  });

  it('masks a Thread dataset TLV, an ESPHome noise PSK as bytes, an IoT device key by its label; keeps a board pin', () => {
    const nk = s(HEX, 32), pskc = s(HEX, 32);
    const tlv = `0e080000000000010000000300000f35060004001fffe00208${s(HEX, 16)}0708fd${s(HEX, 14)}0510${nk}030f4f70656e5468726561642d3162326301021b2c0410${pskc}0c0402a0f7f8`;
    const bytes = Array.from({ length: 32 }, () => Math.floor(rnd() * 256)).join(', ');
    const dk = b64(s(AN, 32)).slice(0, 43) + '=';
    const cases: [string, string, string[]][] = [
      [`jq -r '.data.datasets[] | [.source, .tlv] | @tsv' .storage/thread.datasets`, `Google\t${tlv}\n`, [nk, pskc]],
      ["grep -rn set_noise_psk .esphome/build/", `.esphome/build/g/src/main.cpp:34:  api_apiserver_id->set_noise_psk({${bytes}});\n`, [bytes]],
      ['python3 derive.py thermostat-01', `derived device key: ${dk}\n`, [dk]],
    ];
    for (const [cmd, text, values] of cases) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    const kept = 'binary_sensor:\n  - platform: gpio\n    pin: GPIO4\n';
    expect(new Redactor().maskCommandOutput('cat kitchen.yaml', kept)).toBe(kept);
    // A hex string of another layout stays (a digest that starts 0e08).
    const digest = `0e08${s(HEX, 60)}`;
    expect(new Redactor().maskCommandOutput('sha256sum f', `${digest}  f\n`)).toContain(digest);
  });

  it("masks pass 281's leads: Mirth's XStream map entries, Orthanc's server lists", () => {
    const [k1, p1, t1, p2] = [s(HEX, 32), pw(), s(AN, 32), pw()];
    const cases: [string, string, string[]][] = [
      ["grep -nE '<string>|<username>' ADT_to_HIE.xml", `20:            <string>X-Api-Key</string>\n22:              <string>${k1}</string>\n`, [k1]],
      ["sed -n '/<configurationMap>/,/<\\/configurationMap>/p' server-config.xml", `      <entry>\n        <string>SFTP_PASSWORD</string>\n        <com.mirth.connect.util.ConfigurationProperty>\n          <value>${p1}</value>\n        </com.mirth.connect.util.ConfigurationProperty>\n      </entry>\n      <entry>\n        <string>PHARMACY_WS_TOKEN</string>\n          <value>${t1}</value>\n`, [p1, t1]],
      ['cat orthanc.json', `  "DicomWeb" : {\n    "Servers" : {\n      "vna" : [ "https://vna.example.org/dicom-web/", "smh-orthanc", "${p2}" ]\n    }\n  }\n`, [p2]],
    ];
    for (const [cmd, text, values] of cases) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    // A map's entry that names no secret, and a list of URLs, stay.
    const kept = `        <string>CHANNEL_NAME</string>\n          <value>ADT_to_HIE</value>\n  "mirrors": [ "https://a.example.org/x", "https://b.example.org/y", "https://c.example.org/z" ]\n`;
    expect(new Redactor().maskCommandOutput('cat export.xml', kept)).toBe(kept);
  });

  it("masks pass 282's leads and a Django key in parentheses: an .intunewin's MacKey, Tanium's token, SECRET_KEY = '(…)…(…)'", () => {
    const [mac, tan, dj] = [b64(s(AN, 32)).slice(0, 43) + '=', `token-${s(HEX, 56)}`, `(xkjo3-5ag@e-0)hni3${s(LOWER_AN, 12)}@h1g91p9wbs_i-9g5@y=)+(6qp)`];
    const cases: [string, string, string[]][] = [
      ['unzip -p Install.intunewin IntuneWinPackage/Metadata/Detection.xml', `    <EncryptionKey>${b64(s(AN, 32))}</EncryptionKey>\n    <MacKey>${mac}</MacKey>\n`, [mac]],
      ['curl -sv -H @tanium.hdr http://127.0.0.1:8443/api/v2/session/current', `> session: ${tan}\n`, [tan]],
      ['grep -n SECRET_KEY netbox/configuration.py', `24:SECRET_KEY = '${dj}'\n`, [dj]],
    ];
    for (const [cmd, text, values] of cases) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    // A note in parentheses under a secret's name stays.
    const kept = "SECRET_KEY = '(set in production)'\n";
    expect(new Redactor().maskCommandOutput('cat settings.py', kept)).toBe(kept);
  });

  it("masks a Secret's entries listed by jq's to_entries, secrets.yaml printed as a dict, a credentials file among a glob's; keeps AWS' clientToken", () => {
    const [p1, c1, a1, a2, o1] = [pw(), s(AN, 43), b64(s(AN, 32)), b64(s(AN, 32)), pw()];
    const cases: [string, string, string[]][] = [
      [`jq -r '.data | to_entries[] | "\\(.key)\\t\\(.value)\\t\\(.value|@base64d)"' db-secret.json`, `password\t${b64(p1)}\t${p1}\nsmart-client-secret\t${b64(c1)}\t${c1}\nusername\taGFwaQ==\thapi\n`, [p1, b64(p1), c1, b64(c1)]],
      [`python3 -c "import yaml, pprint; pprint.pprint(yaml.safe_load(open('esphome/secrets.yaml')))"`, `{'api_key_garage': '${a1}',\n 'api_key_office': '${a2}',\n 'wifi_ssid': 'HomeNet-IoT'}\n`, [a1, a2]],
      ['head -n 20 openvpn/client/*', `==> openvpn/client/auth.txt <==\nsvc-nms\n${o1}\n\n==> openvpn/client/client.conf <==\nclient\nremote vpn.example.com 1194\n`, [o1]],
    ];
    for (const [cmd, text, values] of cases) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    expect(new Redactor().maskCommandOutput(cases[0][0], cases[0][1])).toContain('username\taGFwaQ==\thapi');
    expect(new Redactor().maskCommandOutput(cases[1][0], cases[1][1])).toContain("'wifi_ssid': 'HomeNet-IoT'");
    expect(new Redactor().maskCommandOutput(cases[2][0], cases[2][1])).toContain('remote vpn.example.com 1194');
    // Another directory's glob reads as before; an IoT shadow's idempotency token stays.
    const src = '==> src/a.py <==\nimport os\nprint(1)\n';
    expect(new Redactor().maskCommandOutput('head -n 5 src/*', src)).toBe(src);
    const shadow = `{\n  "state": {"desired": {"on": true}},\n  "clientToken": "${uuid()}"\n}\n`;
    expect(new Redactor().maskCommandOutput('jq . shadow.json', shadow)).toBe(shadow);
  });

  it('masks the leads of passes 283 to 285: a removed requirepass line, CouchDB admins, an ES API key in an enrollment token, a Secret by jq, key APIs, cookies by jq, Zapier MCP URLs', () => {
    const [r1, c1, es, el, mk, tv, sid, zp] = [pw(), pw(), s(AN, 22), b64(s(AN, 24)), s(HEX, 64), s(AN, 32), s(AN, 48), b64(`${uuid()}:${uuid()}`)];
    const cases: [string, string, string[]][] = [
      ['git --no-pager diff redis.conf', `@@ -1,3 +1,3 @@\n-requirepass ${r1}\n+requirepass ${pw()}\n`, [r1]],
      ["sed -n '/^\\[admins\\]/,/^$/p' etc/local.ini", `[admins]\nadmin = ${c1}\n`, [c1]],
      ['base64 -d < kibana-enrollment.token | jq .', `{\n  "ver": "8.14.0",\n  "adr": [\n    "10.20.0.6:9200"\n  ],\n  "key": "${s(AN, 20)}:${es}"\n}\n`, [es]],
      ["jq -r '.data.elastic' secret.json", `${el}\n`, [el]],
      [`curl -s http://127.0.0.1:7700/keys | jq '.results[] | {name, uid, key}'`, `{\n  "name": "Default Admin API Key",\n  "uid": "${uuid()}",\n  "key": "${mk}"\n}\n`, [mk]],
      [`curl -s http://127.0.0.1:8108/keys -X POST -d '{}' | jq .`, `{\n  "actions": ["documents:*"],\n  "id": 3,\n  "value": "${tv}"\n}\n`, [tv]],
      [`jq -c '.cookies[] | {name, domain, value}' storage-state.json`, `{"name":"user_session","domain":"github.com","value":"${sid}"}\n{"name":"NEXT_LOCALE","domain":"app.example.org","value":"en"}\n`, [sid]],
      [`grep -o '"serverUrl": "[^"]*"' mcp_config.json`, `"serverUrl": "https://mcp.zapier.com/api/mcp/s/${zp}/mcp"\n`, [zp]],
    ];
    for (const [cmd, text, values] of cases) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    // An analytics or preference cookie printed by jq stays.
    const ga = `_ga=GA1.1.5706303315.1760343600\n_ga_X1Y2=GS1.1.1760426400.3.1.1760427000.0.0.0\nNEXT_LOCALE=en\n`;
    expect(new Redactor().maskCommandOutput(`jq -r '.cookies[] | "\\(.name)=\\(.value)"' storage-state.json`, ga)).toBe(ga);
  });

  it("reads a pandas DataFrame's column under a secret's title: right-aligned, an index column first, a cell with a blank", () => {
    const [p1, p2, p3] = [pw(), pw(), pw()];
    const w = Math.max(p1.length, p2.length, p3.length, 'sftp_password'.length);
    const r = (v: string) => v.padStart(w);
    const text = `       partner                       host       user  ${r('sftp_password')}\n0  Bacs Bureau        sftp.bureau.example  bx_ldgr01  ${r(p1)}\n1  Commerzbank    mft.commerzbank.example   LDGR_MFT  ${r(p2)}\n2   JPM Access  transmissions.jpm.example   ldgr_h2h  ${r(p3)}\n`;
    const shown = new Redactor().maskCommandOutput('python3 show.py', text);
    for (const v of [p1, p2, p3]) expect(shown).not.toContain(v);
    for (const kept of ['Bacs Bureau', 'sftp.bureau.example', 'bx_ldgr01', 'sftp_password']) expect(shown).toContain(kept);
  });

  it("keeps a session's id in camelCase (an agent transcript's sessionId), masks the sessionid cookie", () => {
    const [id, sid] = [uuid(), s(LOWER_AN, 32)];
    const line = `{"uuid":"${uuid()}","sessionId":"${id}","requestId":"req_011CJOZL0GuzVOhnDYyXs6AD"}\n`;
    expect(new Redactor().maskCommandOutput("jq -c '{uuid, sessionId, requestId}' t.jsonl", line)).toBe(line);
    expect(new Redactor().maskCommandOutput('curl -sv http://127.0.0.1:8000/', `> Cookie: sessionid=${sid}\n`)).not.toContain(sid);
  });

  it('masks a passphrase of words padded from its name; keeps a line of prose', () => {
    const phrase = `pharm orthanc ${Math.floor(rnd() * 90) + 10} cedar`;
    const text = `  host                   sftp.example.org\n  passPhrase             ${phrase}\n`;
    expect(new Redactor().maskCommandOutput('python3 dump_props.py Claims.xml', text)).not.toContain(phrase);
    const prose = '  passphrase    required for the key\n';
    expect(new Redactor().maskCommandOutput('man ssh-keygen', prose)).toBe(prose);
  });

  it("the hooked CLI's quick check looks at every form session 46's rules read", () => {
    const forms = [
      `15:DEBUG:netmiko:write_channel: b'x7${pw()}\\n'\n`,
      `18:usmUser 1 3 0x80001f88 0x6e 0x6e NULL .1.3.6.1.6.3.10.1.1.3 0x${s(HEX, 40)} .1.3.6.1.6.3.10.1.2.4 0x${s(HEX, 32)} ""\n`,
      `> GET /api/${s(AN, 40)}/lights/1 HTTP/1.1\n`,
      `main.cpp:34:  api->set_noise_psk({166, 246, 69, 244, 50, 49, 104, 93, 6, 70, 197, 3, 112, 93, 212, 12});\n`,
      `derived device key: ${b64(s(AN, 32))}\n`,
      `        <string>SFTP_PASSWORD</string>\n          <value>${pw()}</value>\n`,
      `      "vna" : [ "https://vna.example.org/dicom-web/", "smh-orthanc", "${pw()}" ]\n`,
      `> session: token-${s(HEX, 56)}\n`,
      `[admins]\nadmin = ${pw()}\n`,
      `-requirepass ${pw()}\n`,
      `  passPhrase             pharm orthanc 27 cedar\n`,
      `set system tacplus-server 10.20.0.21 secret "${pw()}"\n`,
      `  tokens {\n    agent = "${uuid()}"\n  }\n`,
      `co = cohere.Client('${s(AN, 40)}')\n`,
      `  "wskey": "${s(AN, 80)}",\n`,
    ];
    for (const text of forms) expect(mayHoldSecret(text), text).toBe(true);
  });

  it('masks the leads of passes 286 and 287: single-dash password options, setters, mkstore, EBS scripts, MQSC, parfiles, {xor} decoded, SES SMTP passwords, an AUTH PLAIN built by printf', () => {
    const [p1, p2, p3, p4, p5, p6, p7, p8, p9, p10] = Array.from({ length: 10 }, () => pw() + '7');
    const ses = 'B' + b64(s(AN, 32)).slice(1, 44);
    const cases: [string, string, string[]][] = [
      ["sed -n '/Deploy/,/Finished/p' consoleText", `+ java -cp weblogic.jar weblogic.Deployer -adminurl t3://h:7001 -username deployer -password ${p1} -deploy x.war\n`, [p1]],
      ['grep -n AdminTask deploy.py', `3:AdminTask.createAuthDataEntry('[-alias OrdersOraAuth -user ORDERS_APP -password ${p2} -description "Oracle"]')\n`, [p2]],
      ['grep -rn setPassword wlst/', `wlst/create_ds.py:5:cmo.setPassword('${p3}')\n`, [p3]],
      ['grep -E mkstore history.txt', `  501  orapki wallet create -wallet /u01/w -pwd ${p4} -auto_login\n  502  mkstore -wrl /u01/w -createCredential PRODDB apps ${p5}\n`, [p4, p5]],
      ["sed -n '/## Steps/,$p' runbook.md", `1. \`adstpall.sh apps/${p6}\`\nFNDCPASS apps/${p6} 0 Y system/${p7} SYSTEM APPLSYS ${p8}\n`, [p6, p7, p8]],
      ['runmqsc QMPROD1 < connauth.mqsc', `       :    LDAPPWD('${p9}') +\n`, [p9]],
      ['cat exp_full.par', `USERID="system/${p10}@PRODDB"\nDIRECTORY=DATA_PUMP_DIR\n`, [p10]],
      [`grep -o 'password="{xor}[^"]*"' security.xml | sed -E 's/.*\\{xor\\}([^"]*)"/\\1/' | base64 -d | python3 -c "import sys; print(bytes(b ^ 0x5f for b in sys.stdin.buffer.read()).decode())"`, `${p1}\n`, [p1]],
      ['python3 smtp_credentials_generate.py "$KEY" us-east-1', `${ses}\n`, [ses]],
      [`printf '\\0%s\\0%s' notify@example.org "$(cat .smtp-pass)" | base64 -w0; echo`, `${b64(`\0notify@example.org\0${p2}`)}\n`, [b64(`\0notify@example.org\0${p2}`)]],
    ];
    for (const [cmd, text, values] of cases) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    // The option's prose, an MQ accounting token, octoDNS' reference to the environment stay.
    const kept = 'Use the -password option to set it.\n  AccountingToken :\n   X\'0431BC35286D24552ED1035A8D97874BCCEF66A9FDDE6A54598326B428FD43FC\'\n    token: env/CLOUDFLARE_TOKEN\n';
    expect(new Redactor().maskCommandOutput('cat notes.txt', kept)).toBe(kept);
  });

  it("masks Splunk's $7$ settings (reversible on the host); keeps an scrypt $7$ hash and New Relic's browser key", () => {
    const enc = `$7$${b64(s(AN, 48))}`;
    const shown = new Redactor().maskCommandOutput('./bin/splunk btool server list --debug', `/opt/splunkforwarder/etc/system/local/server.conf    sslPassword = ${enc}\n`);
    expect(shown).not.toContain(enc.slice(3));
    const kept = `user:$7$101$${s(AN, 16)}$${b64(s(AN, 64))}\nNREUM.loader_config={accountID:"3312345",licenseKey:"NRJS-${s(HEX, 19)}",applicationID:"1782283961"}\n`;
    expect(new Redactor().maskCommandOutput('cat index.html', kept)).toBe(kept);
  });

  it("masks Oxidized's router.db rows (the password and the enable secret); keeps a row of fewer fields", () => {
    const [p1, e1, p2] = [pw(), pw(), pw()];
    const text = `core1-ams1:ios:netops:${p1}:${e1}\nmx1-ams1:junos:oxidized-ro:${p2}\nsw1:eos\n`;
    const shown = new Redactor().maskCommandOutput('cat oxidized/router.db', text);
    for (const v of [p1, e1, p2]) expect(shown).not.toContain(v);
    expect(shown).toContain('core1-ams1:ios:netops:');
    expect(shown).toContain('sw1:eos');
  });

  it("masks the closing attack's and passes 290-291's leads at the new rules' edges", () => {
    const [p1, p2, p3, p4, p5, p6, p7] = Array.from({ length: 7 }, () => pw() + '7');
    const [k1, z1, t1, t2, nk] = [s(AN, 40), s(AN, 24), uuid(), uuid(), s(HEX, 32)];
    const hue = s('ABCDEFGHIJ', 10) + s('abcdefghij', 10) + s('0123456789', 10) + s(AN, 10);
    const tlv = `000300000f35060004001fffe00208${s(HEX, 16)}0708fd${s(HEX, 14)}0510${nk}030f4f70656e5468726561642d31623263`;
    const storj = '1' + s('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 300);
    const [dk, ses, hmac, tsig, ks] = [b64(s(AN, 32)), `B${b64(s(AN, 32)).slice(1)}`, `${b64(s(AN, 32)).slice(0, 43)}=`, b64(s(AN, 32)), `djJ8${b64(s(AN, 60))}`];
    const cases: [string, string, string[]][] = [
      [`sqlite3 -line ojs.db "select setting_value, setting_name from user_settings where user_id = 7"`, `setting_value = ${k1}\n setting_name = apiKey\n\nsetting_value = en\n setting_name = locale\n`, [k1]],
      ['cat renew.exp', `spawn openssl rsa -in /etc/pki/tls/private/very-long-host-name.internal.example.org.2024-11.key\nexpect "Enter pass phrase for /etc/pki/tls/private/very-long-host-name.internal.example.org.2024-11.key:"\nsend "${p1}\\r"\n`, [p1]],
      ['cat add-key.exp', `expect -re {Enter passphrase for .*: ?$}\nsend -- "${p2}\\r"\n`, [p2]],
      ['grep -n "Zotero(" sync.py', `4:zot = Zotero(LIBRARY_ID, "group", "${z1}")\n`, [z1]],
      ['jq -c .acl consul.json', `{"enabled":true,"tokens":{"initial_management":"${t1}","agent":"${t2}"}}\n`, [t1, t2]],
      ["grep -E 'secret|password' junos-set.conf", `set system login user ops authentication plain-text-password-value ${p3}\n`, [p3]],
      ['grep usmUser snmpd.conf', `usmUser 1 3 0x80001f88 0x6f 0x6f NULL .1.3.6.1.6.3.10.1.1.5 0x${s(HEX, 64)} .1.3.6.1.4.1.14832.1.4 0x${nk} ""\n`, [nk]],
      ['grep write_channel netmiko.log', `DEBUG:netmiko:write_channel: b"Copper'n'Pixel76\\n"\n`, ["Copper'n'Pixel76"]],
      ['curl -sv http://127.0.0.1:18741/api/x 2>&1', `> GET /api/${hue} HTTP/1.1\n`, [hue]],
      ['grep -n cohere.Client analysis.ipynb', `    "co = cohere.Client(\\"${k1}\\")\\n",\n`, [k1]],
      [`jq -r '.data.datasets[] | .tlv' thread.datasets`, `${tlv}\n`, [nk]],
      ['python3 derive_keys.py dev-0042', `Device key (SAS): ${dk}\n`, [dk]],
      [`jq -r '.data | to_entries[] | "\\(.value)\\t\\(.key)"' db-secret.json`, `${b64(p4)}\tpassword\n`, [b64(p4)]],
      [`jq -r '.data | to_entries[] | [.key, (.value | @base64d)] | @csv' api-secret.json`, `"api-token","${k1}"\n`, [k1]],
      ['cat backup-settings.txt', `  passPhrase           marble the juniper 9 saffron ember\n`, ['marble the juniper 9 saffron ember']],
      ['grep -n createAuthDataEntry create_auth.py', `4:AdminTask.createAuthDataEntry(['-alias', 'orders', '-user', 'app', '-password', '${p5}'])\n`, [p5]],
      ['grep -n dbca .bash_history', `12  dbca -silent -createDatabase -sysPassword ${p6} -systemPassword ${p7}\n`, [p6, p7]],
      ['grep FNDCPASS .bash_history', `FNDCPASS apps/${p1} 0 Y system/${p2} ALLORACLE ${p3}\n`, [p3]],
      ['cat qm.mqsc', `DEFINE AUTHINFO(LDAP) LDAPPWD(0LFWDSWNW2K0) REPLACE\n`, ['0LFWDSWNW2K0']],
      ['cat dirprm/ext1.prm', `USERID c##ggadmin@ORCLCDB, PASSWORD ${p4}\n`, [p4]],
      [`./smtp_credentials_generate.py "$KEY" eu-west-1`, `${ses}\n`, [ses]],
      ['python3 dump_meta.py', `HTTP_X_SHOPIFY_HMAC_SHA256       ${hmac}\n`, [hmac]],
      ["sed -n '/^Key:/{s/^Key: //;p}' Kacme.+165+41234.private", `${tsig}\n`, [tsig]],
      ['head -n 6 logs/rclone-sync.log', `DEBUG : rclone: Version "v1.66.0" starting with parameters ["rclone" "-vv" "--s3-secret-access-key" "${k1}" "--s3-endpoint" "s3.wasabisys.com"]\n`, [k1]],
      ['jq . access.json', `{\n  "access": {\n    "main": "${storj}"\n  }\n}\n`, [storj]],
      ["grep -n admin/cli .bash_history", `5:sudo -u www-data php admin/cli/cfg.php --component=auth_ldap --name=bind_pw --set='${p5}'\n`, [p5]],
      ['tail -n 3 srv.log', `127.0.0.1 - - [07/Dec/2026 06:01:24] "GET /api_v3/service/media/action/list?format=1&ks=${ks}&filter:objectType=X HTTP/1.1" 404 -\n`, [ks]],
      ["sed -n '/passwordpeppers/,/];/p' config.php", `$CFG->passwordpeppers = [\n    1 => '${p6}',\n];\n`, [p6]],
      ['grep -nE jwk- config/dynamic_settings.yml', `8:        jwk-present.json: "{\\"kty\\":\\"RSA\\",\\"e\\":\\"AQAB\\",\\"d\\":\\"${s(AN, 40)}\\"}"\n`, []],
    ];
    for (const [cmd, text, values] of cases) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
      expect(shown, cmd).toContain('[masked: ');
    }
    // What the rules' edges must keep: a policy table's rule, a placeholder, consent cookies, design tokens, a catalogue's
    // peppers, a firmware file answering a copy prompt, a repository's tag list, LTI's public consumer key.
    const kept: [string, string][] = [
      ['column -t -s $\'\\t\' policy.tsv', 'passphrase  min 4 words\n'],
      ['grep -n zapier README.md', '12: "url": "https://mcp.zapier.com/api/mcp/s/YOUR_ZAPIER_MCP_SECRET/mcp"\n'],
      [`jq -r '.cookies[] | "\\(.name)=\\(.value)"' state.json`, '_clck=1x2y3z%7C2%7Cfq1%7C0%7C1750\nOptanonConsent=isGpcEnabled=0&datestamp=Mon+Dec+07+2026\n'],
      ['cat tokens.json', '{\n  "tokens": {\n    "font-stack": "Inter,system-ui,-apple-system,sans-serif",\n    "radius": "4px"\n  }\n}\n'],
      ['cat catalog.py', "CHILI_PEPPERS = {\n    1: 'HAB-RED-2024-XL',\n}\n"],
      ['grep write_channel copy.log', "DEBUG:netmiko:write_channel: b'c2960x-universalk9-mz.152-7.E8.bin\\n'\n"],
      ['cat deps.json', '[ "https://github.com/acme/dicom-router", "main", "release-2024.11" ]\n'],
      ["tr '&' '\\n' < launch_body.txt", 'oauth_consumer_key=moodle.lakeside-college.edu\noauth_nonce=8f0e2c1b\n'],
    ];
    for (const [cmd, text] of kept) expect(new Redactor().maskCommandOutput(cmd, text), cmd).toBe(text);
  });

  it("masks the stop-time check's leads: escaped quotes in an expect prompt, HCL's tokens = {, a # in an [admins] password, a key API's one-line answer, a parfile's userid = '…'", () => {
    const [p1, p2, p3, u1] = ['Aa' + pw() + '#x9', 'Bb' + pw(), 'Cc' + pw() + '#q', uuid()];
    const k1 = s(HEX, 64);
    const cases: [string, string, string[]][] = [
      ['cat unlock.exp', `expect "Enter passphrase for key \\"/home/u/.ssh/id_rsa\\": "\nsend "${p1}\\r"\n`, [p1]],
      ['cat consul.hcl', `acl = {\n  tokens = {\n    agent_recovery = "${u1}"\n  }\n}\n`, [u1]],
      ['grep -A2 admins local.ini', `[admins]\nroot = ${p3}\n`, [p3]],
      ['curl -s http://127.0.0.1:7700/keys/abc', `{"name":"Admin","key":"${k1}","uid":"${uuid()}"}\n`, [k1]],
      ['cat imp.par', `userid = 'scott/${p2}@orcl'\n`, [p2]],
    ];
    for (const [cmd, text, values] of cases) {
      const shown = new Redactor().maskCommandOutput(cmd, text);
      for (const v of values) expect(shown, cmd).not.toContain(v);
    }
    // An [admins] comment after `;` stays.
    expect(new Redactor().maskCommandOutput('cat local.ini', `[admins]\n; admin = plain text here\n`)).toContain('; admin = plain text here');
  });
});

/** Each case's values are masked in its command's reply, and the hooked CLI's quick check looks at its output (or a printer names it). */
function expectMaskedForms(cases: readonly [string, string, readonly string[]][]): void {
  for (const [cmd, text, values] of cases) {
    const shown = new Redactor().maskCommandOutput(cmd, text);
    for (const v of values) expect(shown, cmd).not.toContain(v);
    expect(mayHoldSecret(text) || secretPrinterOf(cmd) !== undefined, cmd).toBe(true);
  }
}

describe('session 47: the leads of passes 292 to 304 and the closing attack adv301', () => {
  it('masks what passes 292-295 found through: QGIS dots, ArcGIS by position, a jq row by name after to_entries, an R data.frame, Moonraker, Bambu codes, EMQX keys', () => {
    const [p1, p2, p3, p4, p5] = ['.' + s(AN, 14) + '.', 'Basemap.meridian4767!', 'Rstats4Life_Oslo', 'Moonlit_Kayak_08', pw()];
    const [k1, k2, k3] = [s(AN, 32), s(HEX, 32), s(AN, 34)];
    const [c1, c2, c3] = ['97913088', '48771502', '46823529'];
    const cases: [string, string, string[]][] = [
      ['unzip -p roads.qgz roads.qgs', `<datasource>dbname='osm' host=10.20.4.30 port=5432 user='osm_reader' password='${p1}' sslmode=disable key='osm_id'</datasource>\n`, [p1]],
      ['sed -n 1,10p publish.py', `gis = GIS(PORTAL, "gis_publisher", "${p2}", verify_cert=False)\n`, [p2]],
      ['cat conn.py', `arcpy.CreateDatabaseConnection_management(out, "gis.sde", "POSTGRESQL", "db01", "DATABASE_AUTH", "sde", "${p5}", "SAVE_USERNAME")\n`, [p5]],
      [`jq -r 'to_entries[] | [.key, .value.url, (.value.api_key // "-")] | @tsv' servers.json`, `prod\thttps://connect.lab.example.org\t${k1}\nstaging\thttps://connect-stg.lab.example.org\t-\n`, [k1]],
      ['cat creds.txt', `    user           password admin      start expire\n1  admin   ${p3}  TRUE 2024-01-01   <NA>\n2 viewer   ${p4} FALSE 2024-03-15 2024-12-31\n`, [p3, p4]],
      ['curl -s http://127.0.0.1:7125/access/api_key | jq .', `{\n  "result": "${k2}"\n}\n`, [k2]],
      [`jq '.data.entries[] | .options' core.config_entries`, `{\n  "host": "192.168.1.88",\n  "access_code": "${c1}",\n  "usage_hours": 412.5\n}\n`, [c1]],
      [`jq '{access_code}' BambuStudio.conf`, `{\n  "access_code": {\n    "01P00A033574380": "${c2}",\n    "00M09A895895298": "${c1}"\n  }\n}\n`, [c2, c1]],
      [`node -e 'console.log(require("./farm.json"))'`, `    {\n      name: 'p1s-3',\n      accessCode: '${c3}'\n    }\n`, [c3]],
      ['cat etc/default_api_key.conf', `9f02d4b0deab42a2:${k3}:administrator\n`, [k3]],
    ];
    expectMaskedForms(cases);
  });

  it("masks what pass 296 found through: Phrase's SDK by position, a Zendesk token after its user, curl's -u KEY:X, Mintlify keys in a key column and in hex", () => {
    const [t1, t2, k1, m1, h1] = [s(AN, 22) + '_' + s(AN, 20), s(AN, 40), 'k' + s(AN, 19), 'mint_' + s(AN, 26) + 'a1Z', s(HEX, 40)];
    const m2 = 'mint_dsc_' + s(AN, 25) + 'b2Y';
    const cases: [string, string, string[]][] = [
      ['grep -rn "Phrase.setup" app/src/', `app/src/main/java/App.kt:9:        Phrase.setup(this, "${s(HEX, 32)}", "${t1}")\n`, [t1]],
      ['grep ZendeskSyncJob log/production.log', `I, [2024-05-14T09:12:03.118403 #12]  INFO -- : [ActiveJob] Enqueued ZendeskSyncJob to Sidekiq(default) with arguments: "acmehelp", "ops@acmehelp.io/token", "${t2}"\n`, [t2]],
      ["grep -rn -- '-u ' scripts/", `scripts/export.sh:4:curl -s -u "${k1}:X" -H "Content-Type: application/json" \\\n`, [k1]],
      ['column -s, -t integrations.csv', `service         owner        key                                       rotated\nhelpscout-docs  support-ops  ${h1}  2024-03-01\nmintlify        docs-team    ${m1}         2024-04-18\n`, [h1, m1]],
      ['xxd -p -c 64 .mintlify/assistant-key', `${Buffer.from(m2 + '\n').toString('hex')}\n`, [Buffer.from(m2).toString('hex')]],
    ];
    expectMaskedForms(cases);
  });

  it("keeps what pass 296 showed must stay: a locale file's labels, a docs template's {api_token}, Zendesk's widget key, PostHog's project key", () => {
    const r = new Redactor();
    const labels = ['Neues Passwort', 'Passwort', 'Geheimnis', 'API-Schlüssel', 'Mot de passe', 'New password'];
    const locale = r.maskCommandOutput(`jq '.settings' locales/de/common.json`, `{\n${labels.map((l, i) => `  "${['password', 'newPassword', 'secret', 'apiKey', 'pw', 'password2'][i]}": "${l}"`).join(',\n')}\n}\n`);
    for (const l of labels) expect(locale).toContain(`"${l}"`);
    expect(r.maskCommandOutput('grep -n token: docs/auth.mdx', '10:Basic auth uses `-u {email_address}/token:{api_token}`.\n')).toContain('{api_token}');
    const widget = uuid();
    expect(r.maskCommandOutput('grep -n ze-snippet public/index.html', `3:<script id="ze-snippet" src="https://static.zdassets.com/ekr/snippet.js?key=${widget}"></script>\n`)).toContain(widget);
    const phc = 'phc_' + s(AN, 43);
    expect(r.maskCommandOutput(`jq '.analytics' mint.json`, `{\n  "posthog": {\n    "apiKey": "${phc}"\n  }\n}\n`)).toContain(phc);
    // A password that only holds such a word is still one; a Solana mint's words are no Mintlify key.
    const weak = 'Passwort' + s('0123456789', 3) + '!';
    expect(r.maskCommandOutput('cat .env', `DB_PASSWORD=${weak}\n`)).not.toContain(weak);
    expect(r.maskCommandOutput('cat idl.json', '  "name": "mint_authority_for_pool_vault",\n')).toContain('mint_authority_for_pool_vault');
  });

  it("masks what passes 297-300 found through: CXF's Authorization=[Basic …], a cut WS-Security password, Sabre's session, Mews tokens, OCPP variables, ChargePoint's key, dev-certs -p, Vault unseal keys, CiviCRM keys", () => {
    const basic = b64(`Universal API/uAPI${s('0123456789', 10)}:${pw()}`);
    const [p1, p2, p3] = ['WS' + s(AN, 8), pw(), 'Marlin.Cobalt.' + s('0123456789', 3)];
    const sabre = `Shared/IDL:IceSess\\/SessMgr:1\\.0.IDL/Common/!ICESMS\\/ACPCRTD!ICESMSLB\\/CRT.LB!-${s('0123456789', 19)}!150625!0`;
    const mews = `${s('0123456789ABCDEF', 32)}-${s('0123456789ABCDEF', 31)}`;
    const [unseal, site, cred] = [b64(s(AN, 32)), s(AN, 32), b64(s(AN, 32))];
    const cp = s(HEX, 40);
    const cases: [string, string, string[]][] = [
      ["sed -n '2,10p' uapi-client.log", `Headers: {Accept=[*/*], Authorization=[Basic ${basic}], SOAPAction=[""]}\n`, [basic]],
      ["grep -oh -e '<wsse:Password>[^<]*' -e '<wsse:BinarySecurityToken[^<]*' Session*.xml", `<wsse:Password>${p1}\n<wsse:BinarySecurityToken valueType="String" EncodingType="wsse:Base64Binary">${sabre}\n`, [p1, sabre]],
      ['jq .Mews appsettings.Development.json', `{\n  "ClientToken": "${mews}"\n}\n`, [mews]],
      [`jq -c '.payload' logs/csms.jsonl`, `{"setVariableData":[{"attributeType":"Actual","attributeValue":"${p2}","component":{"name":"SecurityCtrlr"},"variable":{"name":"BasicAuthPassword"}}]}\n`, [p2]],
      ["sed -n '/<soapenv:Header>/,/<\\/soapenv:Header>/p' getStations.xml", `        <wsse:Username>${cp}</wsse:Username>\n`, [cp]],
      ["grep -n 'dev-certs https -' scripts/dev-setup.sh", `scripts/dev-setup.sh:5:dotnet dev-certs https -ep "$HOME/.aspnet/https/api.pfx" -p '${p3}' --trust\n`, [p3]],
      ['docker compose logs vault', `vault-1  | Unseal Key: ${unseal}\nvault-1  | Root Token: hvs.${s(AN, 24)}\n`, [unseal]],
      ['grep -n "define(" sites/default/civicrm.settings.php', `35:  define( 'CIVICRM_SITE_KEY', '${site}');\n39:  define( 'CIVICRM_CRED_KEYS' , 'aes-cbc:hkdf-sha256:${cred}');\n`, [site, cred]],
    ];
    expectMaskedForms(cases);
  });

  it("keeps what passes 297-300 showed must stay: OpenTravel's EchoToken, api.data.gov's DEMO_KEY, an OCPP setting's value, a person's user name", () => {
    const r = new Redactor();
    const echo = s(HEX, 32);
    expect(r.maskCommandOutput('head -n 1 rate.xml', `<OTA_HotelRateAmountNotifRQ xmlns="http://www.opentravel.org/OTA/2003/05" EchoToken="${echo}" Version="1.0">\n`)).toContain(echo);
    expect(r.maskCommandOutput('curl -sv https://api.data.gov/x', '> GET /ed/v1/schools?api_key=DEMO_KEY&school.state=OR HTTP/1.1\n')).toContain('api_key=DEMO_KEY&');
    expect(r.maskCommandOutput('jq -c .payload csms.jsonl', '{"setVariableData":[{"attributeValue":"600","component":{"name":"OCPPCommCtrlr"},"variable":{"name":"HeartbeatInterval"}}]}\n')).toContain('"600"');
    expect(r.maskCommandOutput('cat req.xml', '<wsse:Username>svc-chargepoint</wsse:Username>\n')).toContain('svc-chargepoint');
  });

  it("masks what the closing attack adv301 found through the session's rules: grep -r prefixes, two-blank JSON, quotes in passwords, escaped quotes, more tools and spellings", () => {
    const [u1, u2, u3] = [uuid(), uuid(), uuid()];
    const [p1, p2, p3, p4] = ["9vQ'xT67#mLp7Rz!e", '.k8$Wm7zMrJDE.', 'jtGMe2!LvDv1XOi', 'ruP3107cZ@4wY5'];
    const [k1, k2, k3, k4] = [s(AN, 20) + '7', s(AN, 19) + '3', s(AN, 31) + 'x', s(AN, 43)];
    const [h1, z1, m1] = [s(HEX, 32), s(AN, 39) + '1', 'mint_' + s(AN, 26) + 'b2Z'];
    const cases: [string, string, string[]][] = [
      ["grep -rn -A3 'tokens {' consul.d/", `consul.d/acl.hcl:6:  tokens {\nconsul.d/acl.hcl-7-    agent   = "${u1}"\n`, [u1]],
      ['cat consul.json', `{\n  "acl":  {\n    "tokens":  {\n      "agent":  "${u2}",\n      "default":  "${u3}"\n    }\n  }\n}\n`, [u2, u3]],
      ['cat local.d/10-admins.ini', `[admins]\nadmin = ${p1}\nbackup = ${k1}\n`, [p1, k1]],
      ['grep datasource project.qgs', `<datasource>dbname='gis' user='u' password='${p2}' sslmode=disable</datasource>\n`, [p2]],
      ['grep -h "GIS(" notebooks/a.ipynb', `    "gis = GIS(\\"https://www.arcgis.com\\", \\"jdoe\\", \\"${p4}\\")\\n",\n`, [p4]],
      ['grep -n CreateEnterpriseGeodatabase setup.py', `12:arcpy.CreateEnterpriseGeodatabase_management("POSTGRESQL", "db", "gis", "DATABASE_AUTH", "postgres", "${pw()}", "SDE_SCHEMA", "sde", "${p3}", "", "kc")\n`, [p3]],
      ['wget -qO- http://127.0.0.1:7125/access/api_key', `{"result":"${h1}"}\n`, [h1]],
      ['cat .env', 'BAMBU_ACCESS_CODE=16570179\n', ['16570179']],
      ['grep -r -A3 \'"access_code"\' .config/', '.config/BambuStudio/BambuStudio.conf:    "access_code": {\n.config/BambuStudio/BambuStudio.conf-        "01P00A451200124": "34868805",\n', ['34868805']],
      ["grep -rn 'Phrase.setup' lib/", `lib/main.dart:4:  Phrase.setup("${s(HEX, 32)}", "${k4}");\n`, [k4]],
      ['cat lrange.txt', `1) "{\\"job_class\\":\\"ZendeskSyncJob\\",\\"arguments\\":[\\"support@acme.io/token\\",\\"${z1}\\"]}"\n`, [z1]],
      ['grep -n freshdesk hist', `2:curl -s https://acme.freshdesk.com/api/v2/contacts -u ${k2}:X\n3:curl -v -u ${k1}:x -H 'Accept: */*'\n`, [k2, k1]],
      ['cat fd.py', `r = requests.get(url, auth=("${k2}", "X"))\n`, [k2]],
      ["column -t -s, -o ' | ' integrations.csv", `service | owner | Key                              | rotated\nsearch  | ana   | ${k3} | 2024-05-02\n`, [k3]],
      ["grep -o '<wsse:Username>[^<]*' cp.xml", `<wsse:Username>${s(HEX, 40).toUpperCase()}\n`, []],
      ['grep ChangeConfiguration csms.log', `{"key":"AuthorizationKey","value":"${s(HEX, 40)}"}\n`, []],
      ['cat rekey.txt', `Key 1: ${b64(s(AN, 33))}\n`, []],
      ['grep -n CIVICRM pool.d/civicrm.conf', `4:env[CIVICRM_SITE_KEY] = ${k3}\n`, [k3]],
      ['cat Drop.txt', `admin key: ${m1}\n`, [m1]],
    ];
    // (The cases with no listed value: the line's secret, read back from the text.)
    expectMaskedForms(cases.map(([cmd, text, values]) => [cmd, text, values.length ? values : [/[0-9A-Fa-f]{40}|[A-Za-z0-9+/]{44}/.exec(text)![0]]]));
    // The mask names the tool that ran (wget, not curl).
    expect(new Redactor().maskCommandOutput('wget -qO- http://127.0.0.1:7125/access/api_key', `{"result":"${h1}"}\n`)).toContain("[masked: api key printed by wget of Moonraker's key API]");
  });

  it("keeps what adv301 showed must stay: a passphrase is no label, labels with French colons and notes, Terraform's accessor ids, SSH fingerprints, a Solidity mint_, Mews' demo tokens, a camelCase template, a tidytext token", () => {
    const r = new Redactor();
    for (const phrase of ['Lantern-Key-Drizzle-Orchard', 'orchard secret lantern', 'Lantern-Token-Willow']) expect(r.maskCommandOutput('cat .env', `DB_PASSWORD=${phrase}\n`)).not.toContain(phrase);
    const labels = r.maskCommandOutput(`jq -r '.auth | to_entries[] | "\\(.key)\\t\\(.value)"' locales/fr.json`, 'password\tMot de passe :\napi_key\tClé API (facultatif)\npassword\tパスワードを入力\nforgot_password\tPasswort vergessen?\n');
    for (const l of ['Mot de passe :', 'Clé API (facultatif)', 'パスワードを入力', 'Passwort vergessen?']) expect(labels).toContain(l);
    const acc = uuid();
    expect(r.maskCommandOutput('cat tf-output.txt', `consul_accessors = {\n  tokens = {\n    "agent" = "${acc}"\n  }\n}\n`)).toContain(acc);
    const fp = `SHA256:${s(B64, 43)}`;
    expect(r.maskCommandOutput('cat sshca.ini', `[admins]\nalice = ${fp}\n`)).toContain(fp);
    expect(r.maskCommandOutput("grep -n 'function mint_' src/Drop.sol", '2:    function mint_ToAddressWithMetadata721URI(address to) external {}\n')).toContain('mint_ToAddressWithMetadata721URI');
    const demo = 'E0D439EE522F44368DC78E1BFB03710C-D24FB11DBE31D4621C4817E028D9E1D';
    expect(r.maskCommandOutput('cat mews_demo.py', `    "ClientToken": "${demo}",\n`)).toContain(demo);
    expect(r.maskCommandOutput('cat docs.md', '-u {emailAddress}/token:{apiToken}\n')).toContain('{apiToken}');
    const tokens = r.maskCommandOutput('cat out/tokens.txt', '  doc_id   token   n\n1      1 covid19  14\n2      1    h1n1   3\n');
    expect(tokens).toContain('h1n1');
    const pseudonym = s(HEX, 64);
    expect(r.maskCommandOutput('cat participants.xml', `<Participant><Username>${pseudonym}</Username></Participant>\n`)).toContain(pseudonym);
    expect(r.maskCommandOutput('grep -rn CIVICRM templates/', "t.php:39:define('CIVICRM_CRED_KEYS', '%%credKeys%%');\n")).toContain('%%credKeys%%');
  });

  it("masks what passes 302-304 found through: Authorize.Net's transaction key, UPS' licence, USPS' USERID, an X12 ISA header, SRA's download ticket", () => {
    const [t1, l1, u1, a1, p1, d1] = [s(AN, 16), s('0123456789ABCDEF', 16), `${s('0123456789', 3)}${s('ABCDEFGHIJKLMNOPQRSTUVWXYZ', 5)}${s('0123456789', 4)}`, s(AN, 10), s(AN, 10), uuid().toUpperCase()];
    expectMaskedForms([
      ['grep AuthNet Web.config', `    <add key="AuthNetApiLoginId" value="${s(AN, 9)}" />\n    <add key="AuthNetTransactionKey" value="${t1}" />\n`, [t1]],
      ['head -n 6 logs/ups-rate-request.xml', `  <AccessLicenseNumber>${l1}</AccessLicenseNumber>\n  <UserId>acme_ops</UserId>\n`, [l1]],
      ["grep -h 'ShippingAPI.dll' logs/app.log", `[2025-03-01 10:22:03] production.DEBUG: GET https://secure.shippingapis.com/ShippingAPI.dll?API=Verify&XML=%3CAddressValidateRequest%20USERID%3D%22${u1}%22%3E\n`, [u1]],
      ["sed -n '1,4p' inbound/850.edi", `ISA*03*${a1}*01*${p1}*ZZ*ACMEWHSE       *ZZ*BIGRETAILER    *250301*1022*U*00401*000004721*0*P*>~\n`, [a1, p1]],
      ['cat .ncbi/user-settings.mkfg', `/repository/user/protected/dbGaP-28475/download-ticket = "${d1}"\n`, [d1]],
    ]);
    // An ISA header without credentials (qualifiers 00, blanks) stays whole.
    const isa = 'ISA*00*          *00*          *ZZ*ACMEWHSE       *ZZ*BIGRETAILER    *250301*1022*U*00401*000004721*0*P*>~\n';
    expect(new Redactor().maskCommandOutput('cat 850.edi', isa)).toBe(isa);
  });

  it('keeps what they showed must stay: an Ignition signature, R columns beside the password, a usage count, a PHP constant joined by dots', () => {
    const sig = s(HEX, 64);
    const r = new Redactor();
    expect(r.maskCommandOutput('cat resource.json', `  "attributes": {\n    "lastModificationSignature": "${sig}"\n  }\n`)).toContain(sig);
    const frame = r.maskCommandOutput('cat creds.txt', `    user           password admin      start expire\n1  admin   ${pw()}  TRUE 2024-01-01   <NA>\n`);
    for (const kept of ['admin   ', 'TRUE 2024-01-01   <NA>']) expect(frame).toContain(kept);
    expect(r.maskCommandOutput('cat stats.json', `  "access_code_uses": 12345678,\n  "build": "20240513"\n`)).toContain('12345678');
    expect(r.maskCommandOutput('cat db.php', `$dsn = 'host=db;password='.DB_PASS.';port=5432';\n`)).toContain('.DB_PASS.');
  });
});

describe('session 48: the leads of passes 305 to 307, and calls laid over lines', () => {
  it('masks what passes 305-307 found through: awk picking a field by name, sqlite3 -column under a two-letter title, MUNGE, an xCAT CSV, Authorization=OAuth, YouTube streamName, sessionId, a quoted $args, a WHIP URL', () => {
    const [yt, my, munge, p1, p2, hmac] = [`${s('abcdefghijklmnopqrstuvwxyz', 4)}-g13v-i9r4-${s('abcdefghijklmnopqrstuvwxyz', 4)}-m0xk`, 'photon76Heron#', s(B64, 120), 'Ph0t0n!348', 'P8#rknY2jOgD', `${s(B64, 86)}==`];
    const [a1, a2, tw, yt2, bill, sf, key, whip] = [s(AN, 12), s(AN, 12), s('abcdefghijklmnopqrstuvwxyz0123456789', 30), `${s('abcdefghijklmnopqrstuvwxyz', 4)}-coeu-crvu-k3pn-41kc`, `!AR${s(AN, 100)}`, `00D5g000004Dxyz!AQ${s(AN, 80)}`, s(AN, 24), `${s(HEX, 32)}k${s(HEX, 32)}`];
    expectMaskedForms([
      [`awk -F= '$1=="YT_KEY"{print $2}' lofi-stream.env`, `${yt}\n`, [yt]],
      [`awk -F' *= *' '$1=="password"{print $2}' .my.cnf`, `${my}\n`, [my]],
      [`sqlite3 -header -column azuracast.db "select id, short_name, source_pw, admin_pw from station"`, `id  short_name  source_pw     admin_pw    \n--  ----------  ------------  ------------\n1   kxrp        ${a1}  ${a2}\n`, [a1, a2]],
      ['munge -n -t 300', `MUNGE:${munge}:\n`, [munge]],
      ['tabdump passwd', `#key,username,password,cryptmethod,authdomain,comments,disable\n"system","root","${p1}",,,,\n"ipmi","ADMIN","${p2}",,,,\n"omapi","xcat_key","${hmac}",,,,\n`, [p1, p2, hmac]],
      ['cat streamlink/config', `twitch-api-header=Authorization=OAuth ${tw}\n`, [tw]],
      [`curl -s "http://127.0.0.1:18305/youtube/v3/liveStreams?part=cdn&mine=true" | jq '.items[] | {id, ingestion: .cdn.ingestionInfo}'`, `{\n  "id": "Yh1sKq",\n  "ingestion": {\n    "streamName": "${yt2}",\n    "ingestionAddress": "rtmp://a.rtmp.youtube.com/live2"\n  }\n}\n`, [yt2]],
      ["grep -E 'Login.json|sessionId' logs/billsync.log", `2024-06-03 09:12:41,603 DEBUG billsync.client response 200 {"response_status":0,"response_data":{"sessionId":"${bill}","orgId":"008015xd8NRUJItmOO1P"}}\n`, [bill]],
      ['cat sf-login.json', `{"sessionId": "${sf}", "serverUrl": "https://acme.my.salesforce.com"}\n`, [sf]],
      ['grep PUBLISH logs/rtmp_access.log', `10.0.4.21 [07/Dec/2025:09:58:12 +0000] PUBLISH "live" "studio" "key=${key}" - 51201 3412 "" "FMLE/3.0 (compatible; FMSc/1.0)" (1h 2m 11s)\n`, [key]],
      ['curl -s http://127.0.0.1:18305/stream/live_inputs/x | jq .result.webRTC', `{\n  "url": "https://customer-uef072e9ltp53zxe.cloudflarestream.com/${whip}/webRTC/publish"\n}\n`, [whip]],
    ]);
    // Twitch's stream key is said to be one (it was read as a payment key).
    expect(new Redactor().mask(`"key": "live_123456789_${s(AN, 30)}"`)).toContain('[masked: twitch stream key]');
  });

  it('masks a client given its credentials by position in a call a formatter laid over lines', () => {
    const [p1, k1, k2] = ['Tq8!vRz2pLm', s(AN, 24), s(AN, 40)];
    expectMaskedForms([
      ['sed -n 1,8p publish.py', `gis = GIS(\n    "https://www.arcgis.com",\n    "analyst",\n    "${p1}",\n)\n`, [p1]],
      ['cat sync.py', `zot = zotero.Zotero(\n    1234567,\n    "user",\n    "${k1}",\n)\n`, [k1]],
      ['cat notebook.py', `client = cohere.Client(\n    "${k2}"\n)\n`, [k2]],
    ]);
  });

  it('masks what passes 309-310 and the closing attack adv308 found through: testing-cloud tunnels, Testmo, .testingbot, Plastic SCM, ShotGrid, passcodes, Deadline, call layouts, sessionId and streamName elsewhere, Authorization => and X-…-Authorization=', () => {
    const [bs, sauce, tm, tb1, tb2, soc, sg, pc, dl] = [s(AN, 20), uuid(), `eyJpdiI6${s(AN, 120)}`, s(HEX, 32), s(HEX, 32), `${s(B64, 43)}=`, `kuib)${s('abcdefghijklmnopqrstuvwxyz0123456789', 20)}`, 'kestrel-thistle-9779', 'Thistle-pelican1082'];
    const [g1, g2, g3, j1, sid, dev, yt, oa, k1, awkv] = ['VelvetGlacier4102!', 'SparrowGranite4473@', 'Cobalt.Falcon9079%', 'Orchid.Falcon5678#', `!AR${s(AN, 100)}`, s(AN, 36), `${s('abcdefghijklmnopqrstuvwxyz', 4)}-4usq-g5jq-wddo-qbjs`, `y0_${s(AN, 56)}`, s(AN, 20), 'Copper-Tangerine6417%'];
    expectMaskedForms([
      ["ps -eo pid,etime,args | grep '[B]rowserStackLocal'", `31264       00:00 /bin/sh ./bin/BrowserStackLocal --key ${bs} --local-identifier gh-7376948592 --force-local --daemon start
`, [bs]],
      ["grep -n 'sc ' logs/e2e.txt", `8:2024-05-20T12:00:03.2001177Z + ./sc-4.9.2-linux/bin/sc -u oauth-m.keller-76c80 -k ${sauce} --region us-west -i gh-7376948592
`, [sauce]],
      ['set -a; . ./ci.env; set +a; printenv TESTMO_URL TESTMO_TOKEN', `https://acme.testmo.net
testmo_api_${tm}
`, [tm]],
      ['cat .testingbot', `${tb1}:${tb2}
`, [tb1, tb2]],
      ["grep -n -E 'SecurityConfig' .plastic4/client.conf", `6:  <SecurityConfig>::0:bruno@arenagames.dev:|SoC|${soc}:</SecurityConfig>
`, [soc]],
      ['grep -i shotgun Shotgun.dlinit', `ShotgunScriptKey=${sg}
`, [sg]],
      ["jq '.webhooks[] | {id, passcode}' webhooks.json", `{
  "id": "1874",
  "passcode": "${pc}"
}
`, [pc]],
      ['grep -n SetAuthenticationCredentials submit_nuke.py', `6:con.SetAuthenticationCredentials("farm_submit", "${dl}")
`, [dl]],
      ['cat publish_layers.py', `gis = GIS("https://www.arcgis.com",
          "analyst",
          "${g1}")
`, [g1]],
      ['cat connect.py', `def connect():
    gis = GIS(
        "https://x.com",
        "bob",  # service account
        "${g2}",
        )
    return gis
`, [g2]],
      ['diff -u a/etl.py b/etl.py', `--- a/etl.py
+++ b/etl.py
@@ -1,3 +1,6 @@
+gis = GIS(
+    "https://x.com",
+    "bob",
+    "${g3}",
+)
`, [g3]],
      ['cat Db.java', `        Connection c = DriverManager.getConnection(
            "jdbc:postgresql://db.internal:5432/billing", "billing_app", "${j1}");
`, [j1]],
      ['cat sync.log', `2024-06-03 09:12:41 INFO [sessionId=${sid}] c.e.BillSync done
`, [sid]],
      ['cat body.txt', `sessionId=${sid}&devKey=${dev}&data={}
`, [sid, dev]],
      ['cat live.yaml', `  ingestion:
    streamName: ${yt}
`, [yt]],
      ['tail -n 5 sidekiq.log', `INFO: {"Accept"=>"application/json", "Authorization"=>"OAuth ${oa}"}
`, [oa]],
      ['cat gw.log', `{Host=api.internal, X-Forwarded-Authorization=OAuth ${oa}, Accept=*/*}
`, [oa]],
      ['cat hook.log', `DEBUG on_publish args=['name=studio', 'key=${k1}']
`, [k1]],
      [`awk -F': *' '$1 == "password" { gsub(/"/, "", $2); print $2 }' db.yml`, `${awkv}
`, [awkv]],
      [`nawk -F= '$1=="SERVICE_API_KEY"{printf "%s\\n", $2}' .env`, `${awkv}
`, [awkv]],
    ]);
  });

  it('keeps what they showed must stay: HLS key tags, a signature header\'s time, a UUID or hex sessionId, calls of ordinary arguments, PHP\'s print_r', () => {
    const r = new Redactor();
    const hls = '#EXT-X-KEY:METHOD=AES-128,URI="https://keys.kxrp.example/hls/key/1842",IV=0x7E2A6B1C9D0F4E3A8B2C1D0E9F8A7B6C\n#EXT-X-SESSION-KEY:METHOD=SAMPLE-AES,URI="skd://key65"\n';
    expect(r.maskCommandOutput('cat hls/stream.m3u8', hls)).toBe(hls);
    expect(r.maskCommandOutput('grep -i mux-signature logs/webhooks.log', `Mux-Signature: t=1733566811,v1=${s(HEX, 64)}\n`)).toContain('t=1733566811');
    for (const id of [uuid(), s(HEX, 64)]) expect(r.maskCommandOutput('cat trace.json', `{"sessionId": "${id}"}\n`)).toContain(id);
    const call = 'result = compute(\n    alpha,\n    "beta",\n    gamma=3,\n)\n';
    expect(r.maskCommandOutput('cat run.py', call)).toBe(call);
    // A parameter's name in code under `--token` (click's option over lines: adv308 L1), a taint and a SASL mechanism quoted as
    // `key=`/`auth=` (L12), Paddle's signature time (L9), a date awk picks by a name that is no secret's (L14), OpenTok's room.
    const click = '@click.option(\n    "--token",\n    "auth_token_path",\n)\ndef main(auth_token_path):\n';
    expect(r.maskCommandOutput('cat cli.py', click)).toBe(click);
    const quoted = 'kubectl taint nodes gpu-node-01 "key=dedicated:NoSchedule"\nkafka-configs --describe "auth=SCRAM-SHA-512"\n';
    expect(r.maskCommandOutput('cat history.txt', quoted)).toBe(quoted);
    expect(r.maskCommandOutput('cat paddle.log', `Paddle-Signature: ts=1733566811;h1=${s(HEX, 64)}\n`)).toContain('ts=1733566811');
    expect(r.maskCommandOutput(`awk -F= '$1=="API_KEY_ROTATED"{print $2}' .env`, '2024-11-02\n')).toBe('2024-11-02\n');
    const picks = `awk -F= '$1=="API_KEY_FILE"{print $2}' .env; awk -F= '$1=="API_KEY_ROTATED"{print $2}' .env`;
    expect(r.maskCommandOutput(picks, '/run/secrets/stream.txt\n2024-11-02\n')).toBe('/run/secrets/stream.txt\n2024-11-02\n');
    const room = `2_MX4${s(AN, 60)}-fg`;
    expect(r.maskCommandOutput('jq . room.json', `{\n  "sessionId": "${room}"\n}\n`)).toContain(room);
    const printR = 'Array\n(\n    [password] => Array\n        (\n        )\n)\n';
    expect(r.maskCommandOutput('php -r "print_r($cfg);"', printR)).toBe(printR);
  });
});

describe('session 49: the leads of passes 313 to 316', () => {
  it('masks what passes 313, 314 and 316 found through: a devpi login token, a Gemfury token as a URL user, an OAuth code beside its grant, webhook signing keys by rotation, an EFM session, a Wi-Fi key, a GPP cpassword decrypted', () => {
    const [devpi, fury, code, k1, k2, efm, wifi, gpp] = [`ci.WyJjaSIsW10sIjYuMTAuMCJd.${s(AN, 6)}.${s(AN + '_-', 27)}`, s('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', 20), s(AN, 20), s(AN, 32), s(AN, 32), uuid(), '-7!r_^U7^vR!Rc.ogkXM', 'nk8W.8YQ9!*74N6q'];
    const gppKey = '4e9906e8fcb66cc9faf49310620ffee8f496e806cc057990209b09a433b66c1b';
    expectMaskedForms([
      ['jq . .devpi/client/current.json', `{\n  "auth": [\n    "ci",\n    "${devpi}"\n  ],\n  "index": "https://devpi.acme-corp.io/ci/dev"\n}\n`, [devpi.slice(3)]],
      ['git remote -v', `fury\thttps://${fury}@git.fury.io/acme-corp/acme-cli.git (fetch)\nfury\thttps://${fury}@git.fury.io/acme-corp/acme-cli.git (push)\n`, [fury]],
      ["grep -E 'Supplying headers' logs/clio-sync.log", `2024-05-14 09:12:44,102 DEBUG requests_oauthlib.oauth2_session: Supplying headers {'Accept': 'application/json'} and data {'grant_type': 'authorization_code', 'code': '${code}', 'redirect_uri': 'http://127.0.0.1:8765/callback'}\n`, [code]],
      [`node -e "console.log(require('./box.config.js'))"`, `{\n  clientID: '3eftk9gvyks8zijn642lz0m5pw7olihk',\n  webhookSignatureKeys: {\n    primary: '${k1}',\n    secondary: '${k2}'\n  },\n  folderRoot: '0'\n}\n`, [k1, k2]],
      ["grep -A8 RESP_IN logs/efm-client.log", `    Payload: <s:Envelope><s:Body><AuthenticateUserResponse><UserID>${uuid()}</UserID><PasswordHash>${efm}</PasswordHash></AuthenticateUserResponse></s:Body></s:Envelope>\n`, [efm]],
      ["grep -B2 -A2 'keyMaterial' 'Wi-Fi-CorpGuest.xml'", `\t\t\t\t<keyType>passPhrase</keyType>\n\t\t\t\t<protected>false</protected>\n\t\t\t\t<keyMaterial>${wifi}</keyMaterial>\n\t\t\t</sharedKey>\n`, [wifi]],
      [`echo "$c" | base64 -d | openssl enc -d -aes-256-cbc -K ${gppKey} -iv 00000000000000000000000000000000 | iconv -f UTF-16LE -t UTF-8`, `${gpp}\n`, [gpp]],
      [`nawk -F= '/^SECRET_KEY=/{print $2}' .env`, `${pw()}\n`, []],
    ]);
    // Builders given a credential by method (Rust's Postmark client, reqwest: session 48's stop-time check), and a process
    // substitution fed to a printer.
    const [pm, bearer, basic, hex40] = [uuid(), s(AN, 24), 'Hunter2!Spring', s(HEX, 40)];
    expectMaskedForms([
      ['grep -n token src/mail.rs', `12:    let client = PostmarkClient::builder().token("${pm}").build();\n`, [pm]],
      ['cat src/api.rs', `let r = reqwest::Client::new().get(u).bearer_auth("${bearer}").send().await?;\nlet s = c.get(v).basic_auth("admin", Some("${basic}")).send();\n`, [bearer, basic]],
      ['cut -d= -f2 <(grep TOKEN .env)', `${hex40}\n`, [hex40]],
    ]);
    // Pass 319's: the Actions runner's RSA parameters pretty-printed, a Jenkins agent's JNLP secret, the script console decrypting.
    const [d, p, q, dq, agent] = [s(B64, 342) + '==', s(B64, 171) + '=', s(B64, 171) + '=', s(B64, 171) + '=', s(HEX, 64)];
    expectMaskedForms([
      ['cat actions-runner/.credentials_rsaparams', `{\n  "d": "${d}",\n  "dp": "${s(B64, 171)}=",\n  "dq": "${dq}",\n  "exponent": "AQAB",\n  "p": "${p}",\n  "q": "${q}"\n}\n`, [d, p, q, dq]],
      ['curl -s http://127.0.0.1:8080/computer/build-agent-04/jenkins-agent.jnlp', `<jnlp codebase="http://127.0.0.1:8080/computer/build-agent-04/"><application-desc><argument>${agent}</argument><argument>build-agent-04</argument></application-desc></jnlp>\n`, [agent]],
      ["curl -s --data-urlencode 'script@decrypt.groovy' http://127.0.0.1:8080/scriptText", 'Tundravelvet93%\n', ['Tundravelvet93%']],
    ]);
    // Pass 318's: BigCommerce's downloaded credentials, each value below its label (64 hex: a key, not a text's bytes).
    const bc = s(HEX, 64);
    expectMaskedForms([['cat BigCommerce-API-Credentials.txt', `ACCESS TOKEN: \n${s(LOWER_AN, 31)}\n\nCLIENT ID: \n${s(LOWER_AN, 31)}\n\nCLIENT SECRET: \n${bc}\n`, [bc]]]);
    const drone = `---\nkind: signature\nhmac: ${s(HEX, 64)}\n\n...\n`;
    expect(new Redactor().maskCommandOutput('cat .drone.yml', drone)).toBe(drone);
    expect(new Redactor().mask('let t = lexer.token("IDENT_01");\nk8s.secret("db-credentials")\n')).toBe('let t = lexer.token("IDENT_01");\nk8s.secret("db-credentials")\n');
    // The devpi user before its token stays.
    expect(new Redactor().mask(`"${devpi}"`)).toBe('"ci.[masked: signed session token]"');
  });

  it('masks what the closing attack adv320 and passes 317-318 found through at the new rules\' edges', () => {
    const [fury, efm1, efm2, efm3, ruby, qs, go, otp] = [s(AN, 20).replace(/^./, 'Q').replace(/.$/, '7'), uuid(), uuid(), uuid(), `${s(AN, 40)}9`, `${s(AN, 40)}5`, s(HEX, 32), 'Cobalt_cobalt753%2B'];
    const [sig1, sig2, sig3, cur, prev, tok] = [`NDI.axa58A.${s(AN, 25)}aZ`, `eyJpZCI6N30.${s(AN, 25)}aZ`, `ci.WyJjaSIsW10sIjE3MTgwMDAwMDAiXQ.axbF_A.${s(AN, 84)}aZ`, s(HEX, 64), s(HEX, 64), s(HEX, 40)];
    expectMaskedForms([
      ['cat pip.conf', `[global]\nextra-index-url = https://pypi.fury.io/${fury}/acme/\n`, [fury]],
      ['cat resp.xml', `<a:AuthenticateUserResponse><a:PasswordHash>${efm1}</a:PasswordHash></a:AuthenticateUserResponse>\n`, [efm1]],
      ['grep AuthenticateUser efm.log', `DEBUG payload=&lt;PasswordHash&gt;${efm2}&lt;/PasswordHash&gt;\n`, [efm2]],
      [`python3 -c "import json; print(json.load(open('auth.json')))"`, `{'UserID': '${uuid()}', 'PasswordHash': '${efm3}'}\n`, [efm3]],
      ['grep -A2 TokensController production.log', `  Parameters: {"grant_type"=>"authorization_code", "code"=>"${ruby}", "redirect_uri"=>"https://app.test/cb"}\n`, [ruby]],
      ['python3 -c "print(parse_qs(body))"', `{'grant_type': ['authorization_code'], 'code': ['${qs}']}\n`, [qs]],
      ['cat svc.log', `2024/06/01 10:00:00 token request: map[code:[${go}] grant_type:[authorization_code]]\n`, [go]],
      ['python3 kr.py', `send: b'nonce=1796655204921&otp=${otp}'\n`, [otp]],
      ['cat app.log', `magic link for user 42 issued: ${sig1}\n"login": "${sig2}",\n"auth": ["ci", "${sig3}"]\n`, [sig1, sig2, sig3.slice(3)]],
      ['cat config.toml', `[webhook.signing_keys]\ncurrent = "${cur}"\nprevious = "${prev}"\n`, [cur, prev]],
      ["./tools/goawk -F= '/^API_TOKEN=/{print $2}' .env", `tok_${s(AN, 32)}\n`, []],
      ['column -t -s, users.csv', 'user     pw         shell\nmrivera  Sunflower  /bin/bash\n', ['Sunflower']],
      ['grep delta access.log', `GET /api/v2/projects/114/delta?token=${tok}&since=2024-06-01 200\n`, [tok]],
      ['cat release.json', `{\n  "ed25519_secret_key": "${s(HEX, 128)}",\n  "token": "npm_Qz…"\n}\n`, []],
      ['cat kraken.key', `${s(B64, 56)}\n${s(B64, 86)}==\n`, []],
    ]);
    const [kk, ks] = [s(B64, 56), `${s(B64, 86)}==`];
    const kraken = new Redactor().maskCommandOutput('cat kraken.key', `${kk}\n${ks}\n`);
    expect(kraken).not.toContain(kk);
    expect(kraken).not.toContain(ks);
    expect(new Redactor().mask(`{\n  "ed25519_secret_key": "${cur}${prev}",\n  "token": "npm_Qz…"\n}\n`)).not.toContain(cur);
  });

  it('keeps what the attack showed the new rules must not take: error codes, code that reads a code, key ids and public halves, an account name, a class, cursors', () => {
    const r = new Redactor();
    const kept = [
      'time=2024-06-01T10:08:00Z level=warn grant_type=authorization_code status=400 code=invalid_grant hint="used"\n',
      '{"grant_type":"authorization_code","error":{"code":"ERR_BAD_REQUEST","status":400}}\n',
      'app/oauth.py:14:    token = exchange(grant_type="authorization_code", code=request.args["code"])\n',
      `{\n  signingKeys: {\n    kid: '2024-06-rot-a',\n    alg: 'EdDSA',\n    publicKeyX: '${s(AN + '_-', 43)}'\n  }\n}\n`,
      'fury\thttps://acme-platform-team@git.fury.io/acme-platform-team/web-app.git (fetch)\n',
      "{\n  keyMaterial: CryptoKey {\n    type: 'secret',\n    extractable: false\n  }\n}\n",
      `[\n  {\n    "token": "npm_He…",\n    "key": "${s(HEX, 128)}",\n    "readonly": false\n  }\n]\n`,
      `GET https://graph.microsoft.com/v1.0/me/drive/root/delta(token='${s(AN, 60)}') 200\n`,
      `Jupiter swap executed: wallet=SzTWqMVJoYfE4txnzAH9Apq3N1cZZiRXeK2EPEcoRwXv txSig=${s('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 88)} status=confirmed\n`,
      `---\nkind: signature\nhmac: ${s(HEX, 64)}\n`,
      // Pass 322's: a Google OAuth client's id under `oauth`, Branch's app key (public by design).
      `  "oauth": [\n    "102644860703-${s(LOWER_AN, 32)}.apps.googleusercontent.com"\n  ]\n`,
      `\t\t<key>live</key>\n\t\t<string>key_live_${s(AN, 32)}</string>\n`,
    ];
    for (const t of kept) expect(r.mask(t)).toBe(t);
  });

  it('keeps what they showed must stay: a certificate of completion\'s prose and signature id, a Graph delta link\'s cursor, npm\'s token ids', () => {
    const r = new Redactor();
    const coc = `Signer Events                      Signature\nDana Whitfield                     Signature Adoption: Pre-selected Style\ndwhitfield@harrowlaw.com           Signature ID:\n                                   ${uuid().toUpperCase()}\n                                   Using IP Address: 203.0.113.42\n`;
    expect(r.maskCommandOutput('cat coc.txt', coc)).toBe(coc);
    const delta = `https://graph.microsoft.com/v1.0/drives/b!Z5U8MzILCFqzULreAAIVLEGz0AxtqdI8yKqj17ZK/root/delta?token=${s(AN, 80)}\n`;
    expect(r.maskCommandOutput(`jq -r '."@odata.deltaLink"' delta.json`, delta)).toBe(delta);
    const paging = `"@odata.nextLink": "https://graph.microsoft.com/v1.0/users?$skiptoken=${s(AN, 60)}"\n`;
    expect(r.maskCommandOutput('cat page.json', paging)).toBe(paging);
    const npm = `[\n  {\n    "key": "${s(HEX, 128)}",\n    "token": "npm_He…",\n    "readonly": false,\n    "id": "22320c"\n  }\n]\n`;
    expect(r.maskCommandOutput('npm token list --json', npm)).toBe(npm);
    // …while a token in a URL's query, a key column's minted cell and a password column's word still are masked.
    expect(r.mask(`GET /api/items?token=${s(AN, 40)}`)).toContain('[masked:');
  });
});

describe('session 50: the stop-time attack 323\'s leads', () => {
  it('masks what attack 323 found through: a key under `_MASTER`, gron\'s bearer, dasel and xmlstarlet picks, chrony\'s keys cut by perl, OAuth codes beside their flow, an untimed itsdangerous token of a number, node\'s PasswordHash, .NET\'s RSA XML', () => {
    const [meili, bearer, dasel, xml, chrony, code1, code2, code3, ph] = [s(AN, 32), s(AN, 40), 'Vx9!kQ2#mLp7@Rz', s(AN, 24), s(HEX, 40), s(AN, 43), s(AN, 40), s(AN, 32), uuid()];
    const itsd = `MTIzNDU.${s(AN + '-_', 27)}`;
    const [d, p, q] = [s(B64, 170) + '==', s(B64, 86) + '==', s(B64, 86) + '=='];
    expectMaskedForms([
      ['docker inspect meili --format "{{json .Config.Env}}"', `["MEILI_ENV=production","MEILI_MASTER=${meili}","PATH=/usr/local/bin"]\n`, [meili]],
      ['gron config.json | grep auth', `json.auth = {};\njson.auth.bearer = "${bearer}";\njson.auth.type = "bearer";\n`, [bearer]],
      ['dasel -f config.yaml smtp.password', `${dasel}\n`, [dasel]],
      ['dasel -f config.toml -r toml ".smtp.password"', `'${dasel}'\n`, [dasel]],
      [`xmlstarlet sel -t -v '//add[@key="ApiSecret"]/@value' web.config`, `${xml}\n`, [xml]],
      [`perl -ne 'print "$2\\n" if /^(\\d+)\\s+SHA1\\s+HEX:(\\S+)/' /etc/chrony/chrony.keys`, `${chrony}\n`, [chrony]],
      ['mitmdump -nr flows.mitm --flow-detail 3', `POST http://127.0.0.1:8765/oauth/token\n    grant_type:   authorization_code\n    code:         ${code1}\n    redirect_uri: http://127.0.0.1:8765/callback\n`, [code1]],
      [`php -r 'print_r($_GET);'`, `Array\n(\n    [code] => ${code2}\n    [state] => af0ifjsldkj\n)\n`, [code2]],
      ['cat token-request.json', `{\n  "grant_type": "authorization_code",\n  "code": "${code3}",\n  "redirect_uri": "http://127.0.0.1/cb"\n}\n`, [code3]],
      ['tail -1 app.log', `INFO callback: {'code': '${code3}', 'state': 'af0ifjsldkj', 'scope': 'openid'}\n`, [code3]],
      ['grep session app.log', `session cookie set: ${itsd}\n`, [itsd]],
      [`node -e "console.log(require('./efm.json'))"`, `{ UserID: '${uuid()}', PasswordHash: '${ph}', Expires: 1733580000 }\n`, [ph]],
      ['cat key.xml', `<RSAKeyValue><Modulus>${s(B64, 170)}==</Modulus><Exponent>AQAB</Exponent><P>${p}</P><Q>${q}</Q><D>${d}</D></RSAKeyValue>\n`, [d, p, q]],
    ]);
    // Passes 324-326 on this session's first build: Ruby's inspect of a PagerDuty client, OnCall's integration URL, an INI key picked
    // by awk, a parsed URL's password printed by python, Go's `%+v` of a client's keys (its later fields kept).
    const [rk, oncall, mb, pwd, api, app] = [s(HEX, 32), `J0${s(AN, 23)}`, `live_${s(AN, 25)}`, 'Pylon@9373/Thistle:EYVmB', s(HEX, 32), s(HEX, 40)];
    expectMaskedForms([
      ['grep DEBUG production.log', `D, [2024-05-14T10:02:11.019 #12] DEBUG -- : notifier=#<PagerDuty::Client:0x00007f3c2a1e9b48 @token="${s(AN, 20)}", @routing_key="${rk}", @from="deploys@tidewater.example">\n`, [rk]],
      [`python3 -c "import json; print(json.load(open('integrations.json'))['results'])"`, `[{'id': 'C7D1ZCE4B0PMV', 'link': 'https://oncall-prod-eu-west-0.grafana.net/oncall/integrations/v1/alertmanager/${oncall}/'}]\n`, [oncall]],
      [`awk -F' *= *' '/^access_key/ {print $2}' messagebird.ini`, `${mb}\n`, [mb]],
      [`python3 -c "from urllib.parse import urlsplit, unquote; u = urlsplit(open('conn_uri.txt').read().strip()); print(u.scheme, u.hostname, u.port, u.username, unquote(u.password))"`, `postgres pg-meta.prod.internal 5432 airflow_ro ${pwd}\n`, [pwd]],
      ['grep level=debug exporter.log', `ts=2024-05-14T09:50:01.113Z level=debug client="&{Site:datadoghq.eu APIKey:${api} AppKey:${app} Timeout:30s}"\n`, [api, app]],
    ]);
    // Pass 329's: restic's password file as hex, rclone's remotes printed by pprint (each `key` beside its `account` or `user`).
    const [az, swift] = [s(B64, 86) + '==', s(AN, 32)];
    expectMaskedForms([
      ['xxd -p .restic-pw', `${Buffer.from('#Uz+7x230rgQoOL7bYjl\n').toString('hex')}\n`, [Buffer.from('#Uz+7x230rgQoOL7bYjl\n').toString('hex')]],
      [`python3 -c 'import configparser,pprint; c=configparser.ConfigParser(); c.read("rclone.conf"); pprint.pprint({s: dict(c[s]) for s in c.sections()})'`, `{'azarchive': {'access_tier': 'Cool',\n               'account': 'acmearchive01',\n               'key': '${az}',\n               'type': 'azureblob'},\n 'ovh': {'auth': 'https://auth.cloud.ovh.net/v3',\n         'key': '${swift}',\n         'region': 'GRA',\n         'user': 'user-8kQ2'}}\n`, [az, swift]],
    ]);
    // Pass 328's: an HMAC key in Salesforce Commerce's preferences (named in an attribute), Paddle's notification secret under
    // var_dump's `string(N)` after a label.
    const [hmac, paddle] = [s(HEX, 64).toUpperCase(), `pdl_ntfset_${s(LOWER_AN, 26)}_${s(AN, 32)}`];
    expectMaskedForms([
      [`grep -E 'Adyen_(merchantCode|notification)' preferences.xml`, `<preference preference-id="Adyen_merchantCode">AcmeShopECOM</preference>\n<preference preference-id="Adyen_notification_hmac">${hmac}</preference>\n`, [hmac]],
      ['tail -n 12 storage/logs/laravel.log', `[2024-05-02 10:31:07] production.DEBUG: webhook secret: string(70) "${paddle}"\n`, [paddle]],
      ['grep -h paddle logs/*.txt', `${paddle}\n`, [paddle]],
    ]);
    const prefs = '<preference preference-id="Adyen_merchantCode">AcmeShopECOM</preference>\n';
    expect(new Redactor().mask(prefs)).toBe(prefs);
    // Pass 327's look-alike: a SAML response's digest decoded and grepped is no `user:password`.
    const saml = `ID="id10052026308647066368747754"\n<ds:DigestValue>${s(B64, 43)}=\n`;
    expect(new Redactor().maskCommandOutput(`base64 -d saml-response.b64 | grep -oE 'ID="[^"]*"|<ds:DigestValue>[^<]+'`, saml)).toBe(saml);
    // Pass 332's: Cilium's IPsec keys decoded (by their place after the algorithm); a sops file's age recipient beside its value kept.
    const [gcm, auth, enc] = [s(HEX, 40), s(HEX, 64), s(HEX, 32)];
    expectMaskedForms([
      [`yq -r '.data.keys' cilium-ipsec-keys.yaml | base64 -d; echo`, `3+ rfc4106(gcm(aes)) ${gcm} 128\n`, [gcm]],
      [`kubectl get secret cilium-ipsec-keys -n kube-system -o jsonpath='{.data.keys}' | base64 -d`, `5 hmac(sha256) ${auth} cbc(aes) ${enc}\n`, [auth, enc]],
    ]);
    const sops = `ENC[AES256_GCM,data:${s(B64, 28)},iv:${s(B64, 43)}=,tag:${s(B64, 22)}==,type:str]\nage13ezzjrqvsygwn4tjhn5vacwpcu54atuke7dw546ur7npvpc58yrsxsj7xp\n`;
    expect(new Redactor().maskCommandOutput(`yq -r '.stringData.password, .sops.age[0].recipient' orders-db.enc.yaml`, sops)).toBe(sops);
    // Pass 331's: a Redis ACL password after another rule than `on`, Azure Cache for Redis' key under `*_PRIMARY_KEY`, Redis' AUTH
    // in `strings` of a capture.
    const [acl, auth2] = ['Velvet_falcon1442+', s(AN, 48)];
    expectMaskedForms([
      ['cat users.acl', `user default off nopass sanitize-payload resetchannels -@all\nuser app on sanitize-payload >${acl} ~app:* &* -@all +@read\n`, [acl]],
      ['strings redis-6379.pcap', `AUTH\n${auth2}\nPING\nfeature-flags:checkout\n`, [auth2]],
    ]);
    const cacheKey = 'yzTH8aeBdZRlSr2kK5BAid8sI1S6m5Vid8MeaUo7M6A=';
    expect(new Redactor().maskCommandOutput('env', `CACHE_PRIMARY_KEY=${cacheKey}\n`)).not.toContain(cacheKey);
    const dbKeys = 'PRIMARY_KEY=order_id_2024_v2_composite\ntable_primary_key: user_id\n';
    expect(new Redactor().mask(dbKeys)).toBe(dbKeys);
    // Session 49's leftover: Bybit's key by its place in a websocket login's arguments (pass 317 F21).
    const bybit = s(AN, 18);
    expectMaskedForms([['grep auth ws.log', `>>> {"op": "auth", "args": ["${bybit}", 1733580000000, "${s(HEX, 64)}"]}\n`, [bybit]]]);
    const go = new Redactor().maskCommandOutput('grep level=debug exporter.log', `client="&{Site:datadoghq.eu APIKey:${api} Timeout:30s}"\n`);
    expect(go).toContain('Timeout:30s}');
    expect(new Redactor().mask(`[{'id': 'C7D1ZCE4B0PMV', 'link': 'https://oncall.example/oncall/integrations/v1/alertmanager/'}]`)).toContain('C7D1ZCE4B0PMV');
  });

  it('masks what the closing attack adv333 found at the new rules\' edges, and keeps the look-alikes it showed they took', () => {
    const [pb, px, rsaD, efm1, efm2, rk1, rk2, key1, key2, key3, meili, bearer1, hmac, its1, its2] = [s(B64, 171) + '=', s(B64, 43) + '=', s(B64, 86) + '==', uuid(), uuid(), s(HEX, 32), s(HEX, 32), s(AN, 18), s(AN, 24), uuid(), `rz${s(AN, 14)}7Q`, s(AN, 40), s(HEX, 64).toUpperCase(), `WzkxNTEsInJlc2V0Il0.${s(AN, 27)}`, `MTcyNDkzMzE5MjI5OTIxNTM3NQ.${s(AN, 27)}`];
    const [live, msal] = [`live_${s(AN, 25)}`, `0.AR8A${s(AN, 60)}`];
    const cases: [string, string, string[], string[]][] = [
      ['cat dsa-public.xml', `<DSAKeyValue><P>${pb}</P><Q>${px}</Q><G>${pb}</G><Y>${pb}</Y></DSAKeyValue>\n`, [], [pb, px]],
      ['cat dsa-private.xml', `<DSAKeyValue><P>${pb}</P><Q>${px}</Q><G>${pb}</G><Y>${pb}</Y><X>${px}</X></DSAKeyValue>\n`, [`<X>${px}`], []],
      ['cat keypair.xml', `<xkms:RSAKeyPair>\n  <xkms:Modulus>${pb}</xkms:Modulus>\n  <xkms:D>${rsaD}</xkms:D>\n</xkms:RSAKeyPair>\n`, [rsaD], []],
      ['grep TokenRsaXml web.config', `<add key="TokenRsaXml" value="&lt;RSAKeyValue&gt;&lt;Modulus&gt;${pb}&lt;/Modulus&gt;&lt;D&gt;${rsaD}&lt;/D&gt;&lt;/RSAKeyValue&gt;" />\n`, [rsaD], []],
      ['cat keys.json', `{"rsa_xml":"<RSAKeyValue><Modulus>${pb.replace(/\//g, '\\/')}<\\/Modulus><D>${rsaD.replace(/\//g, '\\/')}<\\/D><\\/RSAKeyValue>"}\n`, [rsaD.replace(/\//g, '\\/')], []],
      ['grep AuthenticateUserResponse efm-client.log', `EfmClient : AuthenticateUserResponse(userID=${uuid()}, passwordHash=${efm1}, expirationDateTime=2024-05-15T10:02:11)\n`, [efm1], []],
      ['yq -y . session.json', `UserID: ${uuid()}\nPasswordHash: ${efm2}\n`, [efm2], []],
      ['grep PagerDutyConfig notify.log', `INFO notifier ready: PagerDutyConfig(routing_key='${rk1}', severity='critical')\n`, [rk1], []],
      ['grep -A2 pagerduty_configs alertmanager.yml', `      - routing_key: ${rk2}  # payments-prod service\n`, [rk2], []],
      ['python3 -c "print(json.dumps(login, sort_keys=True))"', `{"args": ["${key1}", 1796666583843, "${s(HEX, 64)}"], "op": "auth"}\n`, [key1], []],
      ['grep authKeyExpires ws.log', `>> {"op": "authKeyExpires", "args": ["${key2}", 1796666633, "${s(HEX, 64)}"]}\n`, [key2], []],
      ['grep user.auth ws.log', `send: {"method": "user.auth", "params": ["API", "${key3}", "${s(HEX, 64)}", 1796666633], "id": 1234}\n`, [key3], []],
      ['jq -r ".[0].Config.Env[]" inspect.json', `MEILI_MASTER=${meili}\nREDIS_MASTER=redis-node-0-headless-svc\nHBASE_MASTER=hbase-master-2-headless\n`, [meili], ['redis-node-0-headless-svc', 'hbase-master-2-headless']],
      ['jq . client.json', `{\n  "auth": {\n    "bearer": "${bearer1}"\n  }\n}\n`, [bearer1], []],
      ['grep -i adyen preferences.xml', `<preference preference-id="Adyen_notification_hmac" xml:lang="x-default">${hmac}</preference>\n`, [hmac], []],
      ['grep reset mail.log', `sent: https://app.acme.test/reset/${its1}\n`, [its1], []],
      ['tail -n 1 app.log', `INFO confirm link issued: /confirm/${its2}\n`, [its2], []],
      ['xxd -p .restic_pw', `${Buffer.from('Glacier79%Zephyr31\n').toString('hex')}\n`, [Buffer.from('Glacier79%Zephyr31\n').toString('hex')], []],
      [`awk -F' *= *' '/^[[:space:]]*access_key/ {print $2}' messagebird.ini`, `${live}\n`, [live], []],
      ['cat ntp/keys', `1 M wATCvbryKP7B6M\n`, ['wATCvbryKP7B6M'], []],
      ['jq . tokenreq.json', `{\n  "clientId": "${uuid()}",\n  "code": "${msal}",\n  "redirectUri": "http://localhost:3000/auth/callback"\n}\n`, [msal], []],
      ['jq . exchange.json', `{\n  "client_id": "Iv1.0a1b2c3d4e5f6a7b",\n  "client_secret": "${s(HEX, 40)}",\n  "code": "df114689418b53243c2d"\n}\n`, ['df114689418b53243c2d'], []],
      // The look-alikes it showed the first round took.
      ['cat app.log', 'info: ODataApi.CustomerAddressesController[0]\n', [], ['ODataApi.CustomerAddressesController[0]']],
      ['tail -n 1 access.log', '"GET /api/integrations/v1/hubspot/ContactPropertyMappings/ HTTP/1.1" 200\n', [], ['ContactPropertyMappings']],
      ['git remote -v', 'fury\thttps://acmeWidgetsPlatformTeam@git.fury.io/acmewidgets/web.git (fetch)\n', [], ['acmeWidgetsPlatformTeam']],
      ['jq . shipment.json', '{\n  "code": "1Z9A4W870392651742",\n  "state": "in_transit"\n}\n', [], ['1Z9A4W870392651742']],
      ['cat inventory.log', 'Array\n(\n    [code] => SKU-4471-BLK-XL-2024\n    [state] => in_stock\n)\n', [], ['SKU-4471-BLK-XL-2024']],
      [`python3 -c "from urllib.parse import urlsplit; u = urlsplit(open('mirror.txt').read().strip()); print(u.hostname, u.port, u.password is None)"`, 'mirror.acme-internal.dev 8443 True\n', [], ['mirror.acme-internal.dev 8443 True']],
      [`python3 -c "import json, types; s = json.load(open('session.json'), object_hook=lambda d: types.SimpleNamespace(**d)); print(s.user, s.token.expires_at)"`, 'octo-bot 2024-06-01T00:00:00Z\n', [], ['octo-bot']],
      [`python3 -c "import yaml, pprint; pprint.pprint(yaml.safe_load(open('signing.yaml')))"`, "{'release': {'account': 'release-bot@acme.dev',\n             'key': '449D4BB084A21E8EB0B05BF07BA1384E5258C0C2',\n             'keyring': '/etc/apt/keyrings/acme.gpg'}}\n", [], ['449D4BB084A21E8EB0B05BF07BA1384E5258C0C2']],
      ['grep option settings.html', '  <option value="hmac" id="hmac">HMAC-SHA256 signature</option>\n', [], ['HMAC-SHA256 signature']],
      ['grep hmac res/values/strings.xml', '<string name="pref_summary_hmac">Signs each upload with HMAC-SHA256</string>\n', [], ['Signs each upload with HMAC-SHA256']],
      ['jq -r .webhook_url jenkins-github.json', 'https://ci.acme.dev/github-webhook/\n', [], ['https://ci.acme.dev/github-webhook/']],
      // The stop-time check 334's: awk over a `.netrc` printing each password after its machine; a `random_password`'s result dumped.
      [`awk '$1=="machine"{m=$2} $1=="password"{print m": "$2}' .netrc`, `api.heroku.com: ${efm1}\nnexus.acme.internal: ${key2}\n`, [efm1, key2], ['api.heroku.com:', 'nexus.acme.internal:']],
      ['python3 -c "…json.dumps(attributes)"', `random_password.db {"id": "none", "length": 24, "min_numeric": 0, "override_special": "!#%&*()-_=+[]{}<>:?", "result": "nHFhyKJrH<x}2w:7kH(f>ePU", "special": true}\n`, ['nHFhyKJrH<x}2w:7kH(f>ePU'], ['"override_special": "!#%&*()-_=+[]{}<>:?"']],
    ];
    for (const [command, output, values, keep] of cases) {
      const masked = new Redactor().maskCommandOutput(command, output);
      for (const v of values) expect(masked, `${command}: ${v}`).not.toContain(v);
      for (const k of keep) expect(masked, `${command}: ${k}`).toContain(k);
    }
  });

  it('keeps what the new names and readers must leave: codes that are no grant\'s, git\'s master, addresses under `_MASTER`, a public RSA key, a PascalCase account on Gemfury', () => {
    const r = new Redactor();
    const sha = s(HEX, 40);
    const kept = [
      '{"code": 404, "state": "failed", "message": "not found"}\n',
      '{\n  "code": "ERR_BAD_REQUEST",\n  "state": "open"\n}\n',
      `{"code": "${s(AN, 20)}", "message": "coupon applied"}\n`,
      'exit code 1\nstatus code: 503\n',
      'To github.com:acme/app.git\n   1a2b3c4..5d6e7f8  master -> master\n',
      `SPARK_MASTER=spark://10.0.0.1:7077\nGIT_MASTER=${sha}\nPG_MASTER=db-primary-01.internal\n`,
      '{"bearer": true, "scheme": "bearer", "bearerFormat": "JWT"}\n',
      'Array\n(\n    [code] => 200\n    [state] => done\n)\n',
      `<RSAKeyValue><Modulus>${s(B64, 170)}==</Modulus><Exponent>AQAB</Exponent></RSAKeyValue>\n`,
      `<p>TheQuickBrownFoxJumpsOverTheLazyDogAgainAndAgain</p>\n`,
      'fury\thttps://NorthwindTradersApps@git.fury.io/northwind/web.git (fetch)\n',
      'build MTAwMA.ReleaseCandidateForProdDeploys finished\n',
    ];
    for (const t of kept) expect(r.mask(t)).toBe(t);
    // chrony's keys file read whole: each key, its id and type kept.
    const keys = `# keys\n1 SHA1 HEX:${sha}\n2 MD5 ASCII:Gx8vQ2mLp7Rz\n`;
    const masked = r.maskCommandOutput('cat /etc/chrony/chrony.keys', keys);
    expect(masked).not.toContain(sha);
    expect(masked).not.toContain('Gx8vQ2mLp7Rz');
    expect(masked).toContain('1 SHA1 HEX:');
    expect(masked).toContain('# keys');
  });
});

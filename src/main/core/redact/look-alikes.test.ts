/**
 * Values that stand where a secret could and are none (look-alikes.ts, learned-secrets.ts): adversary pass 12's damaged
 * look-alikes. A pagination or idempotency token, a placeholder, a browser-exposed key, a Secret's name, a sops ciphertext,
 * code that reads the environment, and a default password that is also a word must reach the agent as printed — the agent
 * pages with the token, edits the file, runs the container by its name.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Redactor } from './redactor.js';

const kept: [string, string][] = [
  // Adversary pass 15: a tool's own mask, plural names of lists that are no secrets, an environment word that is a name's own.
  ['a wrapped cell under a row that is no secret', '| description  | Deploys the shop API to production every night at two, unless   |\n|              | a freeze is on                                                   |\n| name         | ci-deployer                                                      |\n'],
  ["Ecto's bound values of columns that name no secret", 'SELECT u0."id" FROM "users" AS u0 WHERE (u0."email" = $1) AND (u0."token_count" > $2) ["dana@acme.io", 3]\n'],
  ["the secrecy crate's Debug and hypothesis' strategies (code, not values)", '    database_url: Secret([REDACTED alloc::string::String]),\n    api_key: Secret([REDACTED alloc::string::String]),\n    @given(token=text(alphabet=st.characters(min_codepoint=32), min_size=1))\n'],
  ["git's and kubectl's traces of a header they redacted", '10:22:31.540017 http.c:800              => Send header: Authorization: Basic <redacted>\nI0311 10:22:31.520140   48213 round_trippers.go:473]     Authorization: Bearer <masked>\n'],
  ["an ExternalSecret's and node-config's names of secrets", '  data:\n  - secretKey: DB_PASSWORD\n    remoteRef:\n      key: prod/shop\n{\n  "db": {"password": "DB_PASSWORD"},\n  "jwt": {"secret": "JWT_SECRET"}\n}\n'],
  ["a commit's PGP signature", '  "verification": {\n    "verified": true,\n    "signature": "-----BEGIN PGP SIGNATURE-----\\n\\nwsFcBAABCAAQBQJl7xwzCRBK7hj4Ov3rIwAAdHIIAKf2\\n-----END PGP SIGNATURE-----\\n"\n  }\n'],
  ["Podfile.lock's checksums of pods named …Auth", 'SPEC CHECKSUMS:\n  AppAuth: 3bb1d1cd9340bd09f5ed189fb00b1cc28e1e8570\n  FirebaseAuth: 1c7b3d9f2a4e6c8b0d2f4a6c8e0b2d4f6a8c0e2b\n'],
  ["artisan route:list's rows", '  POST       confirm-password ............... Auth\\ConfirmablePasswordController@store\n'],
  ["a reference without a fallback and a fallback that is a placeholder", "  'password' => env('DB_PASSWORD'),\n  'secret' => env('APP_SECRET', ''),\n  token: process.env.TOKEN ?? 'changeme',\n"],
  ["yarn.lock's cookie packages", '"@auth/core@npm:0.37.2":\n  dependencies:\n    "@types/cookie": "npm:0.6.0"\n    cookie: "npm:0.6.0"\n'],
  ["Slack's request signature", '{"x-slack-request-timestamp":"1710152551","x-slack-signature":"v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503"}\n'],
  ["an ERB environment read (a reference)", '  password: <%= ENV["SHOP_DATABASE_PASSWORD"] %>\n  username: <%= ENV.fetch("DB_USERNAME") { "shop" } %>\n'],
  ["sops' encrypted_regex (bars of a regular expression, no table)", 'creation_rules:\n  - path_regex: secrets/prod/.*\\.ya?ml$\n    encrypted_regex: ^(data|stringData|password|token|.*_key)$\n'],
  ["fish's set --show of a variable's scope", '$DB_PASSWORD: set in global scope, exported, with 1 elements\n$API_TOKEN: set in universal scope, unexported, with 1 elements\n'],
  ["Kafka's ProducerConfig with its own mask", '\tssl.keystore.password = null\n\tssl.truststore.password = [hidden]\n\tssl.truststore.type = JKS\n'],
  ['plural names whose lists are no secrets', 'ALLOWED_HOSTS=api.acme.io,admin.acme.io\nprimary_keys: id,tenant_id\nsort_keys=created_at,updated_at\n'],
  ['a secret-named setting that is a switch per environment', 'SESSION_SECRET_PROD=true\nAPI_TOKEN_CI=false\n'],
  ['aws s3api list-objects-v2: the next page', '{\n    "Contents": [],\n    "NextToken": "eyJDb250aW51YXRpb25Ub2tlbiI6IG51bGwsICJib3RvX3RydW5jYXRlX2Ftb3VudCI6IDJ9"\n}\n'],
  ['aws ec2: an idempotency token', '        "KeyName": "deploy-key-2024",\n        "ClientToken": "terraform-20240311102231-7Qz9Wm2Xc4Vb",\n'],
  ['google APIs: the next page', '{\n  "nextPageToken": "CiAKGjBpNDd2Nmp2Zml2cXRwYjBpOXA\\u003d",\n  "items": []\n}\n'],
  ['.env.example placeholders', 'DATABASE_URL=postgres://USER:PASSWORD@localhost:5432/app\nDB_PASSWORD=CHANGE_ME\nJWT_SECRET=replace-with-64-random-hex-chars\nSTRIPE_SECRET_KEY=sk_test_...\nSENTRY_DSN=https://<key>@o0.ingest.sentry.io/<project>\nSMTP_PASSWORD=__SET_ME__\nAPI_KEY=<insert-api-key>\n'],
  ['keys a browser gets by design', 'NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY=pk_live_51Hq8xZ2mN4pR7tV9wY3bD6fG8hJ0kL2\nNEXT_PUBLIC_POSTHOG_KEY=phc_Zq8xK2mN4pR7tV9wY3bD6fG8hJ0kL2mN4pR7tV9wY3b\n'],
  ["a Compose file's secrets by name", 'services:\n  worker:\n    secrets:\n      - stripe_api_key\n      - db_password\nsecrets:\n  db_password:\n    file: ./secrets/db_password.txt\n'],
  ["helm values naming a Secret", 'admin:\n  existingSecret: grafana-admin\n  passwordKey: admin-password\nenvFromSecret: grafana-env\n'],
  ['a sops file', 'db:\n    password: ENC[AES256_GCM,data:hFdQGl8xZ2mN4pR7tV9w,iv:RSjmRPMRVRY3ueRm6bISrAKFWx/gA+7EHApuIuqanm1=,tag:pHDDg+1U5ehRXTDRDz0rEb==,type:str]\n'],
  ['code that reads the environment', 'export default {\n  connection: {\n    password: process.env.DB_PASSWORD,\n  },\n  stripe: {\n    apiKey: process.env.STRIPE_SECRET_KEY,\n    webhookSecret: process.env.STRIPE_WEBHOOK_SECRET!,\n    token: import.meta.env.VITE_TOKEN ?? "",\n  },\n};\n'],
  // Adversary pass 13.
  ['terraform plan: a sensitive value Terraform hides itself', '      + result           = (sensitive value)\n      + id               = (known after apply)\n'],
  ['kubectl describe: a value from a Secret', "      DB_PASSWORD:        <set to the key 'password' in secret 'db-creds'>  Optional: false\n"],
  ["an ARN that names a secret", '            "ARN": "arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/shop/db-password-AbCdEf",\n'],
  ['a webhook delivery signature (a digest)', '  "X-Hub-Signature": "sha1=0c3e2b6a7f9d1e4b5a8c7d6e5f4a3b2c1d0e9f8a",\n'],
  ['a token the tool starred itself', '  - Token: gho_************************************\n'],
  // Adversary pass 14.
  ["MySQL's access-denied error", "SQLSTATE[HY000] [1045] Access denied for user 'shop'@'172.18.0.5' (using password: YES)\n"],
  ["a chart's NOTES command (a command substitution)", '    export POSTGRES_PASSWORD=$(kubectl get secret --namespace default pg-postgresql -o jsonpath="{.data.postgres-password}" | base64 -d)\n'],
  ['Go and Rust reading the environment', '\tcfg.DB.Password = os.Getenv("DB_PASSWORD")\n    let api_key = std::env::var("PARTNER_API_KEY")?;\n'],
  ["cosign's verified checks", 'The following checks were performed on each of these signatures:\n  - The cosign claims were validated\n  - The signatures were verified against the specified public key\n'],
  ["Ansible's no_log placeholder and an option value", '        "login_password": "VALUE_SPECIFIED_IN_NO_LOG_PARAMETER",\n        "update_password": "always",\n'],
  ["dotenvx's encrypted values", 'STRIPE_SECRET_KEY="encrypted:BDqDBibm4wsYqMpCjTQ6BsDHmMadg9K3dAt+Z9HPMtxEIqqrbZ4gd3K2D"\n'],
  ["a test's escaped byte", "Falsifying example: test_parse(\n    token='\\x80',\n)\n"],
  ["Cloud Run's Secret Manager references", '+ gcloud run deploy api --set-secrets=DB_PASSWORD=db-password:latest,API_KEY=api-key:3\n'],
  // Adversary pass 18: a release key's fingerprint in the official language images, docker's warning about --password.
  ['GPG_KEY in a python image', 'PATH=/usr/local/bin:/usr/bin\nGPG_KEY=A035C8C19219BA821ECEA86B64E628F8D684696D\nPYTHON_VERSION=3.12.2\n'],
  ["docker login's warning", 'WARNING! Using --password via the CLI is insecure. Use --password-stdin.\n'],
  // Adversary pass 19: where a password is read from, a placeholder a settings class prints, a URL that is no secret in a plan.
  ['git config --list with an SSH signing key (public)', 'file:/home/dana/.gitconfig\tuser.signingkey=ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHk3h0f2Xq8Zr2y9mD1wJ0mQbL4xk7PZs8C5vT3nE1aR dana@ws\n'],
  ['keytool reading its password from a variable', '$ keytool -list -v -keystore upload.jks -storepass:env KS_PASS\n'],
  ["pydantic's SecretStr", "Settings(database_url='sqlite://', api_key=SecretStr('**********'), debug=False)\n"],
  ["Gradle's non-secret buildConfigField", '        buildConfigField("String", "API_URL", "\\"https://api.acme.io\\"")\n'],
  ["a HAR's ordinary query parameters and a name that only ends in key", '  "queryString": [\n    {\n      "name": "monkey",\n      "value": "banana1234567"\n    },\n    {\n      "name": "page",\n      "value": "2"\n    }\n  ],\n'],
  ["a JSON API's data that is no Vault secret", '{\n  "data": {\n    "id": 42,\n    "type": "order"\n  }\n}\n'],
  ["an access key's id in a CLI's padded rows", 'AccessKey                SCWOXVWP3IBBH1ULVZC5\nApplicationID            75af9e2e-42e2-4a7e-9862-49c314e82afb\n'],
  ["CircleCI's own masked values", '{"items": [{"name": "NPM_TOKEN", "value": "xxxxAb12", "created-at": "2024-02-01T10:12:44.512Z"}]}\n'],
  // Session 11: sentences about a password (not one), a scheme word alone, placeholders after Bearer, a hash beside its name in a tab row.
  ['sentences about a password', 'Error: password is required\npassword is too short (min 12 characters)\nPassword is 8 characters long\nthe password was changed to comply\n'],
  ["a bearer placeholder and a token's type", 'curl -H "Authorization: Bearer $TOKEN" https://api.acme.io\nuse Bearer YOUR_ACCESS_TOKEN\n{"token_type": "bearer", "expires_in": 3600}\n'],
  ['a password hash in a tab-separated row', 'user\tdana\npassword_hash\t5f4dcc3b5aa765d61d8327deb882cf99\n'],
  ["an HTML table's cells about a password", '<tr><td>Password</td><td>Use your SSO login</td></tr>\n<tr><td>Password policy</td><td>12chars</td></tr>\n<tr><td>Token</td><td>${{ secrets.NPM_TOKEN }}</td></tr>\n'],
  ["the Stripe CLI's own redaction (its run of stars shortened by the squasher)", "  live_mode_api_key = 'rk_live_***Jd5S'\n  test_mode_api_key = 'sk_test_*********************x8Qm'\n"],
  ["a keyword list fed from a binding of the same name", '  config :shop, ShopWeb.Endpoint,\n    secret_key_base: secret_key_base\n'],
  ['a cookie jar line that is a comment', '# Netscape HTTP Cookie File\n# https://curl.se/docs/http-cookies.html\n'],
  ["a notebook cell's result of an expression that names no secret", '{"cell_type": "code", "outputs": [{"data": {"text/plain": ["\'eu-central-1-abcdef\'"]}, "output_type": "execute_result"}], "source": ["os.environ[\\"AWS_REGION\\"]"]}\n'],
  ["an f-string's placeholder after Authorization", "headers={'Authorization': f'Token {drf_token}'}\n"],
  ["Bundler's settings", 'BUNDLE_PATH=vendor/bundle\nBUNDLE_WITHOUT=development:test\n'],
  ['a list of argv with -p that is no password', "['git', 'log', '-p', 'HEAD']\n['mkdir', '-p', '/tmp/build']\n"],
  ['a MessagePack frame of no secret printed as hex (adversary pass 79)', `payload: ${Buffer.concat([Buffer.from([0x82, 0xa5]), Buffer.from('event'), Buffer.from([0xad]), Buffer.from('order.created'), Buffer.from([0xa8]), Buffer.from('order_id'), Buffer.from([0xd9, 0x24]), Buffer.from('9f1c2a7e-0b7d-4f3a-9c5e-1b2d9a8f7e6d')]).toString('hex')}\n`],
  ["an SMS log's message id beside a Twilio account SID, a JWT-shaped pagination cursor with no alg, a translation's key bound in Prisma (adversary pass 82)", 'account=AC4c35aaae926aa32298ebd9e419e19937 sid=SMacabc57d28ef69c10f3d243e2c6b7f63 status=sent internal_msg_id=f40f50d28ac58a522974112a4c0b6689\n{"items":[],"page_token":"eyJ0eXAiOiJjdXJzb3IiLCJ2IjoyfQ.eyJhZnRlciI6NTA2ODc5NjkwLCJzaGFyZCI6M30.5360cbbf5f8fd770"}\nprisma:query SELECT "public"."Translation"."id" FROM "public"."Translation" WHERE "public"."Translation"."key" = $1\nParams: ["checkout.button.label_primary_x",1,0]\n'],
  ["git's signing key id and gpg's listing of it, a JWT header decoded on a command line (adversary pass 84)", '[user]\n\tsigningkey = 1232BEA2A883A018\nsec   ed25519/1232BEA2A883A018 2024-03-11 [SC]\n      A883A01871D27B101232BEA21232BEA2A883A018\n$ echo -n \'eyJhbGciOiJIUzI1NiJ9\' | base64 --decode\n{"alg":"HS256"}\n'],
  ["docker ps -q --no-trunc: 64-digit ids one a line (PEM's width, no key: adversary pass 82)", `${Array.from({ length: 8 }, (_, i) => createHash('sha256').update(String(i)).digest('hex')).join('\n')}\n`],
  ['a settings table whose values are words', 'NAME            TYPE     REQUIRED\napi_token       string   required\nauth.password   string   optional\n'],
  ["a certificate's colon hex (openssl x509 -text), indented", '        Serial Number:\n            d8:01:32:a4:bc:a4:1e:c3:c7:3f:86:e7:aa:74:55:b6\n                Modulus:\n                    12:45:5b:e4:fa:2c:91:0d:33:aa:bc:de:f0:11:22:33:44\n'],
  ["ssh-keygen's empty passphrase and encrypt flags", "ssh-keygen -t ed25519 -N '' -f ~/.ssh/id\nencrypt = true\n"],
  ["Azurite's published development key", 'AccountName=devstoreaccount1;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;\n'],
  ["Gradle properties read from elsewhere", 'username.set(providers.gradleProperty("ossrhUser"))\npassword.set(providers.gradleProperty("ossrhPassword"))\n'],
  ["bun.lock's package tuples (a package named like a secret)", '    "jsonwebtoken": ["jsonwebtoken@9.0.2", "", { "dependencies": { "jws": "^3.2.2" } }, "sha512-gy2cgAci/Cclh1ZB5jFahApIj3s1T+l3KwxJjnpjp1dPSBywq1eR+D0kQdqFGeTcDBGiD729TavpJnVOCZq0TQ=="],\n'],
  ['a literal piped into an ordinary command, and config directives whose values are words', "echo 'hello world' | grep hello\n  shared_key required\n  log_level debug\n"],
  ["a REPL's answer to an expression that names no secret", 'shop(dev)> Rails.application.credentials.dig(:aws, :region)\n=> "eu-central-1"\n>>> settings.TIME_ZONE\n\'Europe/Berlin\'\n'],
  // Adversary pass 24: parameters bound to columns that name no secret (bound-params.ts), and a password hash's column (isSecretName says no).
  ["knex's and Prisma's parameters of columns that name no secret", `  knex:query insert into "users" ("email", "name", "user_id", "expires") values ($1, $2, $3, $4) undefined +0ms\n  knex:bindings [ 'dana@acme.io', 'Dana Scully', 'usr_8f2k3m9q4z7x1c5v', '2024-04-10T09:22:31.512Z' ] undefined +0ms\nQuery: SELECT "id", "email" FROM "public"."User" WHERE "email" = $1 AND "id" = $2 LIMIT $3 OFFSET $4\nParams: ["dana@acme.io","clu0a9b8c0000wxyz5678ijkl",1,0]\n`],
  ["Sequelize's and Prisma's parameters beside a token's type and expiry", `Executing (default): INSERT INTO "Sessions" ("id","userId","tokenType","expiresAt") VALUES (DEFAULT,$1,$2,$3) RETURNING "id"; "usr_8f2k3m9q4z7x1c5v", "Bearer", "2024-04-10 09:22:31.512 +00:00"\nQuery: INSERT INTO "public"."Account" ("id","token_type","expires_at","password_hash") VALUES ($1,$2,$3,$4)\nParams: ["clu1x2k4p0001abcd1234efgh","Bearer",1710753751,"5f4dcc3b5aa765d61d8327deb882cf99"]\n`],
];

describe('look-alikes real tools print beside secrets (adversary pass 12)', () => {
  for (const [name, text] of kept) it(`keeps ${name}`, () => expect(new Redactor().mask(text)).toBe(text));

  it('a default password that is a word is masked where it stands, and not remembered (docker ps shows the postgres image)', () => {
    const r = new Redactor();
    expect(r.mask('DATABASE_URL=postgres://postgres:postgres@localhost:5432/shop\n')).toBe('DATABASE_URL=postgres://postgres:[masked: url password]@localhost:5432/shop\n');
    const ps = 'postgres:16-alpine   shop-postgres-1   Up 2 hours (healthy)\n';
    expect(r.mask(ps)).toBe(ps);
  });

  it('a password with more than letters is remembered as before (masked wherever it shows later)', () => {
    const r = new Redactor();
    expect(r.mask('DATABASE_URL=postgres://app:Hk3mP9qR2sT7@localhost:5432/shop\n')).toBe('DATABASE_URL=postgres://app:[masked: url password]@localhost:5432/shop\n');
    expect(r.mask('the backup used Hk3mP9qR2sT7\n')).toBe('the backup used [masked: url password]\n');
  });

  it('a real value beside the placeholders and references is still masked', () => {
    const out = new Redactor().mask('DB_PASSWORD=CHANGE_ME\nJWT_SECRET=Zq8xK2mN4pR7tV9wY3bD6fG8\napiKey: process.env.STRIPE_SECRET_KEY,\nwebhookSecret: whsec_Hq8xZ2mN4pR7tV9wY3bD6fG8hJ0kL2\n');
    expect(out).toBe('DB_PASSWORD=CHANGE_ME\nJWT_SECRET=[masked: secret]\napiKey: process.env.STRIPE_SECRET_KEY,\nwebhookSecret: [masked: secret]\n');
  });
});

describe('blobs of encoded random bytes', () => {
  // A certificate, an image or a signed payload printed whole: 4 MB of random base64 held an Okta-, a Fauna- and a
  // PagerDuty-shaped run every few hundred KB, base64url a Typeform- and an ngrok-shaped one (session 13's vendor shapes).
  it('hold no secret in base64, base64url or hex (2 MB of each, seeded)', () => {
    let seed = 0x5eed13;
    const bytes = Buffer.alloc(1_500_000);
    for (let i = 0; i < bytes.length; i++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      bytes[i] = seed >>> 24;
    }
    for (const encoding of ['base64', 'base64url', 'hex'] as const) {
      const blob = bytes.toString(encoding).slice(0, 2_000_000);
      const found = new Redactor().find(`data:\n${blob}\n`);
      expect(found.map((f) => f.kind), encoding).toEqual([]);
    }
  });
});

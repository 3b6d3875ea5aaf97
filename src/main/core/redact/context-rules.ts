/**
 * Secrets recognised by where they stand rather than by their shape: the value of a key named
 * like a secret (env, export, JSON, YAML, TOML, INI, .npmrc), HTTP headers as `curl -v` prints
 * them, tokens in URL query strings, credentials on command lines, credential file lines
 * (.pgpass, .netrc, docker config.json, kubeconfig, Kubernetes Secret data), Azure connection
 * strings and SAS signatures. Each rule runs only on the lines the context gate (scanner.ts)
 * hits, and each value passes the look-alike guard (look-alikes.ts) before it is masked.
 */

export interface ContextRule {
  kind: string | ((m: RegExpExecArray) => string);
  /** Global pattern with a `secret` group: the value. */
  re: RegExp;
  /** The value must pass the look-alike guard (otherwise only references and placeholders are kept). */
  guard?: boolean;
  /**
   * Lowercase literals one of which is in every match (found case-insensitively): the rule runs
   * only on the lines where the scanner's one pass (keyword-automaton.ts) saw one.
   */
  keywords: string[];
  /** And only on lines this cheap test passes (a connection string's `;`, a command's name). */
  needs?: RegExp;
  /**
   * A sticky test at the end of a keyword's hit (it may look behind the hit) that turns the hit away before its line is cut
   * out: for a keyword a common output holds where the rule can never match (a progress bar's `=====>`).
   */
  unless?: RegExp;
  /**
   * Its keywords that are a name's word too (`pass`, `token`: NAME_WORDS) share that word's entry
   * in the one pass, its `unless` included (`passed` triggers nothing): no new automaton states.
   * The automaton's table stays within 16-bit offsets (keyword-automaton.ts), a third faster.
   */
  sharesNameWords?: boolean;
  /**
   * On a table's header line (far-names.ts isTableHeader: a rule under it, no row above it) a value that is a word of letters
   * is the next column's title (`| Secret | Description |`, `| token | count |`), not a secret.
   */
  wordsNotOnHeader?: boolean;
  /**
   * A table's cell: a value too wide for its column goes on in the rows below whose label cell is empty (`| secret | AbC… |`
   * then `|        | …xyz |`: the OpenStack client fitted to the terminal, adv14 C49). Each piece is masked.
   */
  wrapsIntoRows?: boolean;
  /**
   * The rule finds a value by its own shape (`sk_live_…`), not by where it stands: found again wherever it shows, it is not
   * remembered (a finding by context is: the session's search grows with each; the live keys' rule doubled the bench's).
   */
  shape?: boolean;
}

/**
 * A key named like a secret, its last word deciding: `GITHUB_TOKEN`, `db_password`, `apiKey`,
 * `client-secret`, `_authToken`, `_auth`, `refresh_token`, `id_token`, `token`, `AccountKey`.
 * `*_KEY` needs a word before it that is not a look-alike's (`primary_key`, `sort_key` and
 * `public_key` are not secrets); `*_KEY_ID`, `token_type`, `max_tokens`, `*_PATH`, `*_FILE`,
 * `*_URL` end in another word and never match.
 */
// `CSRFKey`, `JwtKey`, `AuthKey` in a Go struct's `%+v` (adv39 F37): a camelCase key after an acronym, no separator to split on.
// `COOKIE_SIGNING` (adv41 F01): a signing secret without its `_KEY`. A PIN (`HSM_PIN`, `pin_code`), not `spin` nor camelCase `userPin`.
// Segment's `SegmentWriteKey` in an Info.plist (adv90 F34): an analytics write key, camelCase.
// A private tracker's `passkey` (Prowlarr's indexer settings, an announce URL's: pass 177 F13).
// `pw` and `cred` alone (node's inspect `{ user: 'api', pw: '…' }`, pry's `:cred=>"…"`: adv71 F37, F06). App Center's CodePush
// `DeploymentKey` (adv106 F19, F20); a licence's serial (`UNITY_SERIAL`). A JWT by its name (`INTERNAL_API_JWT`, wrapped over a
// box table's rows where its shape is cut: adv112 F11), fly.io's WireGuard `localprivate`, 1Password's `one-time password seed`,
// an OAuth device flow's `device_code` (it polls for the token: adv113 F26), Splunk's `pass4SymmKey` (adv116 F19), MongoDB's
// `replicaSetKey` (bitnami's chart makes it 10 letters and digits, too short for a camelCase key's token shape: adv120 F29), a
// vendor's secret key by its short name (`twilio_sk`, `stripe_sk`: adv121 F38; not DynamoDB's index sort keys `gsi1_sk`), Honeycomb
// Refinery's `ReceiveKeys` (API keys it accepts: adv116 F17).
// An account's recovery and backup codes by name (`"recovery_codes": ["…"]`: the own attack on pass 183's fix).
// LoRaWAN's session and root keys as an LMIC sketch names them (`NWKSKEY`, `APPSKEY`, `APPKEY`: pass 184 F25).
// Moodle's password salts (`$CFG->passwordsaltmain`, `passwordsaltalt1`: pass 182 F28).
// A licence's installation key (MATLAB's silent installer: `fileInstallationKey=<26 groups of 5 digits>`: pass 179).
// ESP-IDF's NVS key for the station's password (`sta.pswd` in `strings` of a flash dump: pass 238 S18).
// A webhook's `passcode` (Figma's: pass 310 F25); ShotGrid's script key (`ShotgunScriptKey=` of Deadline's event plugin: F31);
// Bill.com's `devKey` (adv308 I3).
// An OAuth code, by name or as scanner.ts names a `code` beside its flow's fields (`oauth_code`).
// OCLC's web service key (`wskey:` beside its `secret:`: pass 276 F33). Key material (a Wi-Fi profile's passphrase: pass 316 F6). A MAC's key (an `.intunewin`'s `<MacKey>`: pass 282 F11). A pepper (NetBox's `API_TOKEN_PEPPERS`: pass 280 F29).
export const SECRET_NAME =
  /(?:pass(?:word|wd|[_-]?phrase|code)?(?:view[_-]?only)?|pswd|mnemonic|(?:seed|recovery|secret)[_-]?phrase|[a-z0-9][_.-]pw|(?<![a-z0-9])pw|bindpw|rootpw|totp(?:[_-]?secret)?|otp[_-]?secret|signing\w{0,16}key|auth[_.-]?tokens|pwd|secret(?:[_.-]?(?:key(?:[_.-]?base)?|id|string|data|value))?|token|auth(?:[_.-]?(?:token|ident|tok))?|cred(?:entials?|s)?|hmac(?:[_.-]?secret)?|(?:api|access|private|priv|signing|encryption|master|session|client|secret|admin|licen[cs]e|installation|webhook|account|service|app|script|dev|deploy(?:ment)?|root|shared|hmac|validation|decryption|deterministic|xsrf|csrf|jwt|cipher|auth|enc|aes|crypto|kek|dek|write|receive|pass|mac)[_.-]?key|(?:cookie|session|jwt|token|webhook)[_.-]?signing|basic[_.-]auth[_.-]user[_.-]info|[a-z0-9][_.-]key|apikey|pat|sig(?:nature)?|cookie|salt(?:main|alt\d{0,2})?|(?:nwk|app)s?key|dsn|plaintext(?:[_.-]?value)?|clear[_-]?text|(?<![a-z0-9])pin(?:[_.-]?code)?|(?:licen[cs]e|unity|product)[_.-]?serial|(?<![a-z0-9])(?:sessionid|phpsessid|jsessionid|asp\.net_sessionid|laravel_session)|(?:[a-z0-9][_.-]|(?<![a-z0-9]))jwt|localprivate|(?:password|totp|otp|mfa|2fa|key|secret|private|master|wallet)[ _.-]?seed|device[_.-]?code|(?:revocation|recovery|backup)[_.-]?code|pass4symmkey|replica[_.-]?set[_.-]?key|(?<!(?:^|[_.-])[gl]si\d{0,2})[a-z0-9][_.-]sk|(?:[a-z0-9][_.-]|(?<![a-z0-9]))csrf|(?<![a-z0-9])ha1b?|(?<![a-z0-9])wskey|peppers?|key[_-]?material|(?:api[_.-]?key|apikey|key)[_.-]private|oauth[_.-]?code)$/i;

/**
 * Words one of which ends every name SECRET_NAME takes, each with what may not follow it where
 * it ends a name (`passed`, `author`, `keyboard`, `compat` are no secret's name): the key=value
 * search runs only on lines with one of them.
 */
export const NAME_WORDS: { word: string; unless?: RegExp }[] = [
  { word: 'pass', unless: /(?:ed|es|ing)\b/iy },
  // A wallet's recovery words (`MNEMONIC="ridge orbit …"`, `seed_phrase`), a name ending `_PW` (`DB_PW`), a TOTP seed (adv12 A46, A26; adv13 B44).
  { word: 'mnemonic' },
  { word: 'phrase', unless: /[a-z]/iy },
  { word: 'pw', unless: /[a-z]|\d[a-z0-9]/iy },
  // A pre-shared key's name (`CONFIG_GOLIOTH_SAMPLE_PSK="…"`, u-boot's `wlan_psk=…`: pass 184 F29, F35; isSecretName's `psk`).
  { word: 'psk', unless: /[a-z0-9]/iy },
  // Thread's pre-shared key for the commissioner (`PSKc: <32 hex>` of `ot-ctl dataset active`: pass 238 S40).
  { word: 'pskc', unless: /[a-z0-9]/iy },
  // A login's ticket (PlayFab's `SessionTicket`: pass 239 F12); isSecretName says which (a `ticket: PROJ-12` is no secret).
  { word: 'ticket', unless: /[a-z0-9]/iy },
  { word: 'totp' },
  { word: 'pwd' },
  { word: 'pswd' },
  // GitLab's `gitlab-secrets.json` keys (`db_key_base`, `otp_key_base`, `encrypted_settings_key_base`: adv246 F39).
  { word: 'key_base' },
  { word: 'secret' },
  { word: 'token' },
  { word: 'auth', unless: /ors?\b/iy },
  { word: 'cred' },
  { word: 'cookie' },
  // `keys` only as a plural name (`APP_KEYS=k1,k2`): not `keystore`, `keyboard`.
  { word: 'key', unless: /(?!s(?![a-z]))[a-z]/iy },
  // A personal access token's name (`GITHUB_PAT`, `ado_pat`, `githubPat`), not a word ending in it (`compat`, cargo's
  // `future-incompat`: 300 hits of a build log each read for a value, a fifth of its names' cost).
  { word: 'pat', unless: /\w|(?<=[a-z]pat|COMPAT)/y },
  // SIP digest's `ha1` and `ha1b` (Kamailio's subscriber table: MD5s of user:realm:password, which authenticate as the password
  // does: adv156 F5); not `sha1`.
  { word: 'ha1', unless: /(?<=[a-z0-9]ha1)|(?!b(?![a-z0-9]))[a-z0-9]/iy },
  // A pepper (NetBox's `API_TOKEN_PEPPERS = {`: pass 280 F29), not `peppermint`.
  { word: 'pepper', unless: /(?!s(?![a-z0-9]))[a-z0-9]/iy },
  // A Wi-Fi profile's passphrase (`netsh wlan export profile key=clear`: `<keyMaterial>…</keyMaterial>`: pass 316 F6), a KMS key's
  // imported material (`KeyMaterial`).
  { word: 'keymaterial', unless: /[a-z0-9]/iy },
  { word: 'sig', unless: /\w/y },
  { word: 'signature' },
  { word: 'salt' },
  { word: 'dsn' },
  // A PIN (an HSM's, a smart card's: `pin_hex=…`, adv48 F30); not `pinned`, `pinning`.
  { word: 'pin', unless: /[a-z]/iy },
  // A decrypted value (`"Plaintext": …` of `aws kms decrypt`, a pulumi secret's `"plaintext"`: adv15 D27; the GitHub provider's
  // `plaintext_value` in a Terraform state: 130 F04).
  // A SCEP payload's `Challenge` (isSecretName keeps WebAuthn's and PKCE's lower-case nonces): pass 229 F14.
  { word: 'challenge', unless: /(?!password)[a-z]/iy },
  { word: 'verifier', unless: /[a-z]/iy },
  { word: 'plaintext' },
  // WildFly's Elytron credential reference (`credential-reference={clear-text=…}`, jboss-cli's `"clear-text" => "…"`: adv193 F26).
  { word: 'clear-text' },
  { word: 'cleartext' },
  { word: 'clear_text' },
  { word: 'signing', unless: /[a-z]/iy },
  // Confluent's Schema Registry credentials (`basic.auth.user.info = KEY:SECRET` in a connector's config: adv37 F28).
  { word: 'user.info' },
  // An HMAC secret named `hmac` alone (`shop.partner.hmac` in a Spring Cloud Config source: adv20 F09).
  { word: 'hmac' },
  // Grafana's datasource header values (`httpHeaderValue1`, in secureJsonData: adv16 D16), which isSecretName takes by name.
  { word: 'httpheadervalue' },
  // Session cookies by their frameworks' names (Django's `sessionid`, PHP's `PHPSESSID`, Java's `JSESSIONID`, ASP.NET's, Laravel's)
  // outside a Cookie header: Django's DEBUG page's `COOKIES:` section (`sessionid = '…'`: adv58 F10). A generic `session_id` is
  // an id in logs and hook payloads, not taken.
  { word: 'sessionid', unless: /\w/y },
  { word: 'sessid', unless: /\w/y },
  { word: 'laravel_session', unless: /\w/y },
  // A licence's serial (`UNITY_SERIAL=…` of a game CI's environment: adv106 F29): not a device's serial number.
  { word: 'serial', unless: /[a-z]/iy },
  // A JWT named as one (`API_JWT`, not `jwt_issuer`, `jwtKey`'s `jwt` nor .NET's `Jwt:Key` path), a WireGuard key (fly.io's `localprivate`), a TOTP seed.
  { word: 'jwt', unless: /[a-z0-9_.-]|:[A-Za-z]/iy },
  { word: 'localprivate' },
  // A vendor's secret key by its short name (`twilio_sk`: isSecretName's `_sk`, not DynamoDB's `gsi1_sk`).
  { word: '_sk', unless: /[a-z0-9_]/iy },
  { word: 'seed', unless: /[a-z]/iy },
  { word: 'device_code' },
  { word: 'devicecode' },
  // Steam Guard's `revocation_code` (a maFile's: it removes the authenticator from the account, pass 177 F34).
  { word: 'revocation_code' },
  { word: 'revocationcode' },
  { word: 'recovery_code' },
  { word: 'recoverycode' },
  { word: 'backup_code' },
  { word: 'backupcode' },
  // A list of secrets under an encoding's name (Vault's `unseal_keys_b64`, `recovery_keys_hex`: scanner.ts singularOfList).
  { word: 's_b64', unless: /[a-z0-9]/iy },
  { word: 's_hex', unless: /[a-z0-9]/iy },
  // A CSRF token under its bare name (Pi-hole's `"csrf": "…"` beside its session's `sid`: adv143); an encryption key under a
  // name ending `_encryption` when its value is shaped like a key (scanner.ts SHAPED_KEY_NAME: ESPHome's
  // `esphome_api_encryption: "<base64 of 32 bytes>"` in secrets.yaml, adv144; not `server_side_encryption: AES256`).
  { word: 'csrf', unless: /[a-z0-9]/iy },
  // …and its session's `sid` when shaped like a key (scanner.ts CAMEL_KEY_NAME's test; not `inside`, `consider`).
  { word: 'sid', unless: /[a-z0-9]/iy },
  // …and a login's trusted-device token under `device_id` when it is long and random (Synology DSM's `"device_id"` beside its
  // `sid` lets a login skip the second factor: adv168 F17; a device's UUID or hex id stays).
  { word: 'device_id', unless: /[a-z0-9]/iy },
  // (DSM's own login answer names it `did`: `{"data":{"did":"…","sid":"…"}}`.)
  { word: 'did', unless: /[a-z0-9]/iy },
  { word: 'encryption', unless: /[a-z0-9]/iy },
  // A bearer token under the scheme's name (gron's `json.auth.bearer = "…";`: attack 323), a name's last word before its separator
  // only (the header's `Bearer eyJ…` is the header rule's; `bearer` alone is a token type's value as often: `token_type: bearer`).
  // (`bearer` alone too, when its value is shaped like a token: scanner.ts CAMEL_KEY_NAME; `"auth": {"bearer": "…"}`, adv333 S31.)
  { word: 'bearer', unless: /[a-z0-9]|(?![ \t]*(?:["'\]]|=>|[:=]))/iy },
  // A key under a name ending `_MASTER` when its value is shaped like one (scanner.ts CAMEL_KEY_NAME: `MEILI_MASTER=…`, attack
  // 323), before its separator only (git's `origin/master` is no name).
  // (camelCase too, `meiliMaster`: adv333 S29; the value's shape decides: a host's name under `REDIS_MASTER` stays, L6.)
  { word: 'master', unless: /(?<![_.-]master|[a-z0-9]master)|[a-z0-9]|(?![ \t]*(?:["'\]]|=>|[:=]))/iy },
  // An OAuth authorization code beside its flow's fields (scanner.ts namedValue's `oauth_code`: a token request's `"code"` below its
  // `"grant_type"`, a callback's `[code] =>` above its `[state] =>`: attack 323): `code` alone as a name, before its separator
  // (not `exit code 1`, `status_code`).
  { word: 'code', unless: /(?<=[a-z0-9_.$-]code)|[a-z0-9_-]|(?![ \t]*(?:["'\]]|=>|[:=]))/iy },
];

/**
 * Apprise's schemes of services whose keys its URLs carry in their parts (not `json://`, `mailto://`, `ntfy://`: a URL's user and
 * password, which the URL rule reads). The most used of its ~100: each is a word of the keyword pass.
 */
const APPRISE_SCHEMES = ['pover', 'pushover', 'discord', 'slack', 'gotify', 'gotifys', 'pbul', 'pushbullet', 'msteams', 'mmost', 'mmosts', 'rocket', 'rockets', 'ifttt', 'prowl', 'join', 'opsgenie', 'pagerduty', 'signl4', 'spush', 'zulip', 'lametric', 'bark', 'barks', 'pjet', 'pjets', 'flock', 'gchat', 'wxteams', 'webex', 'twist', 'guilded', 'revolt', 'notica', 'psafer', 'psafers', 'pushed', 'pushy', 'spike', 'streamlabs', 'techulus', 'threema'];

/** Keys ending in KEY that are not secrets (database, sorting, caching and public keys; Olm's and Megolm's public keys in a Matrix
 * event or a device's keys, `sender_key`, `identity_key`, `one_time_key`, `fallback_key`: pass 178 L6; `GPG_KEY`, a release key's fingerprint in the official language images: adv18 K03; PubNub's publish / subscribe keys, reCAPTCHA's site key: client-side by design, adv42 K02; a site's `translationKey` (Hugo's
 * front matter, a UUID: pass 227 L28) and a cookie's `host_key` (Chrome's Cookies table: pass 229 L8); Pusher's app key (`X-Pusher-Key`, `PUSHER_APP_KEY`: a client's,
 * beside its secret: pass 235 L10); not a write key: Algolia's is an admin's, adv32 F30). */
export const NOT_SECRET_KEY_NAME = /(?:^|[_.-])(?:PUBLISHABLE|PRIMARY|FOREIGN|SORT|PARTITION|CACHE|PUBLIC|PUB|ROUTING|IDEMPOTENCY|LOOKUP|GROUP|OBJECT|HASH|RANGE|MAP|REGISTRY|SSH_PUBLIC|UNIQUE|INDEX|SHARD|DEDUP|ROW|MESSAGE|EVENT|S3|BUCKET|FILE|LOG|METRIC|TRACE|STATE|NAMESPACE|CONFIG|LABEL|SEARCH|SEQUENCE|COMPOSITE|NATURAL|SURROGATE|TABLE|HOT|FUNCTION|ENTER|ESC|ESCAPE|TAB|SHIFT|CTRL|ALT|MONKEY|TURKEY|DONKEY|HOCKEY|JOCKEY|WHISKEY|GPG|PGP|PUBLISH|SUBSCRIBE|SITE|INCIDENT|SENDER|IDENTITY|ONE_TIME|FALLBACK|SIGNED_CURVE25519|CURVE25519|ED25519_PUBLIC|VERIFY|TRANSLATION|I18N|L10N|LOCALE|HOST|PUSHER|PUSHER_APP)_KEY$/i;

/** Names whose values are never secrets though their last word says so (counts, types, lifetimes). */
// (A websocket handshake's `Sec-WebSocket-Key` is a nonce: adv49 F08.)
// (Pulumi's `encryptionsalt: v1:…` in a stack's settings file: the passphrase's salt, committed with the stack: adv190 L14.)
// (Azure Service Bus' `lockToken`: a peeked message's lock handle, a UUID: adv200 L17.)
// (A mail's `DKIM-Signature:` and ARC headers travel with every message: pass 255 L4.)
// (OAI-PMH's `resumptionToken` is a harvest's paging cursor: pass 276 L12.)
// (A captcha's site key is the page's, public: `data-sitekey`, a solver's `websiteKey`; Chrome's `variations_seed_signature` signs
// the public field-trial seed: pass 266 L1, L28.)
// (An SDP's `a=ice-pwd:` is one call's ICE password, sent in clear in its signalling; Zoom's webhook check `plainToken` is its
// challenge and `encryptedToken` the answer: pass 268 L7, L14.)
// (Ignition's `lastModificationSignature` in every project resource is a SHA-256 of its files: pass 295 L5; OpenTravel's
// `EchoToken` a message's correlation id, in every OTA message a channel manager sends: pass 297 L17.)
// (DocuSign's `X-DocuSign-TraceToken: <uuid>` names a request for support, as a trace id does: pass 312 L30.)
export const NOT_SECRET_NAME = /^sec-websocket-key$|^(?:max|min|num|total|input|output|prompt|completion|cached|used|remaining)[_-]?tokens?$|^update[_-]password$|(?:next|continuation|page|paging|pagination|idempotency|starting|resume|resumption|sync|cursor)[_-]?(?:page[_-]?)?token$|^(?:next|continuation)[_-]?\w*token$|(?:existing|env[_-]?from|from|external|sealed)[_-]?secret$|^(?:next|expo|nuxt)_public_|^public_|(?:^|[_.-]|[a-z](?=Public))public[_.-]?api[_.-]?key$|(?:^|[_-])(?:bypass|compass|passthrough|password_(?:min|max)|pass(?:ed|ing|es)|passthru)$|^(?:no[_-]?)?auth$|^author$|^sig(?:n)?$|^hashed[_-]?(?:secret|password|token|key)$|^encryptionsalt$|^lock[_-]?token$|(?:^|-)dkim-signature$|^arc-(?:message-signature|seal)$|(?:^|=)ice-pwd$|^(?:plain|encrypted)[_-]?token$|^variations_(?:safe_)?seed_signature$|^(?:data-)?(?:web)?site[_-]?key$|^accounting[_-]?token$|^oauth_(?:consumer_key|signature)$|^lastModificationSignature$|^EchoToken$|^#?EXT-X-(?:SESSION-)?KEY$|(?:^|[-_])trace[-_]?token$|^\$?(?:skip|delta)token$|^(?:tx|transaction)[_-]?sig(?:nature)?$/i;

/** A value that ends at whitespace, a quote, `,` `;` `}` (JSON, env, YAML, TOML, INI). */
// CJK punctuation ends it too (`AccessKeySecret：…，bucket：…` in a Chinese log line: adv18 F26), and an escaped line break or tab (a
// file's lines in a JSON string, `SECRET=…\nAPI_KEY=…`, or in a JSON string in one, `\\n`: the mask ran on over the next lines,
// adv18 F28, F30).
// A NUL ends it too (`/proc/<pid>/environ` read without `tr`: one value ran over the next variables, adv38 F07).
// A comma goes on in the value unless a blank, another separator or a next pair's name and `=` / `:` follows it (`-e
// POSTGRES_PASSWORD=Cq,6%u3x34R0=q4ZAB` in `ps`: adv70 F07; `a=1,b=2` is two pairs).
export const KEY_VALUE_VALUE = `(?<secret>(?:[^\\s"',;}\\]\\\\，、。；」）\\x00]|,(?![A-Za-z_][\\w.-]{0,64}[=:])(?=[^\\s"',;}\\]])|\\\\[^nrt\\\\\\r\\n]|\\\\\\\\(?![nrt"\\\\]))+)`;

/** `NAME=value`, `NAME: value`, `"name": "value"`, `name = 'value'`, `name => value`, `export NAME=value`: found from the separator back (scanner.ts), the name tested with SECRET_NAME. */

/** .npmrc: `//registry.npmjs.org/:_authToken=…`, `_auth=…`, `_password=…`. */
export const NPMRC: ContextRule = { kind: 'npm registry credential', keywords: ['_auth', '_password'], needs: /_auth|_password/, re: /(?<![A-Za-z0-9])(?:_authToken|_auth|_password)(?:[ \t]*=[ \t]*|"[ \t]+)["']?(?<secret>[^\s"']{4,})/g };

/** HTTP headers as curl -v (`> `, `< `), HTTP clients and `-H '…'` print them. */
export const HEADERS: ContextRule[] = [
  // A token sent as a WebSocket subprotocol (a browser sets no Authorization on a WebSocket: `Sec-WebSocket-Protocol: actioncable-v1-json,
  // auth.<token>`, Kubernetes' `base64url.bearer.authorization.k8s.io.<token>`: adv78 F25).
  { keywords: ['sec-websocket-protocol'], kind: 'websocket token', re: /Sec-WebSocket-Protocol:[^\n]*?(?:^|[ \t,])(?:auth\.|base64url\.bearer\.authorization\.k8s\.io\.)(?<secret>[\w.=-]{16,4096})/gi },
  // A header an nginx or Apache config sets (`nginx -T`: `proxy_set_header Authorization "Bearer …";`, `proxy_set_header api-key …;`: adv12 A08).
  // Any header whose name ends in a credential's word (`proxy_set_header X-Upstream-Token …;`: adv88); an nginx variable (`$…`) is not a value.
  // curl -v naming Basic auth's user (`* Server auth using Basic with user '<key>'`): an API key sent as the user with an empty
  // password (`curl -u KEY:`, Lambda Cloud's, Stripe's: adv164 F25). A user of 20+ characters with a digit and both cases, or 32+
  // hex; a person's or a service's name (`alice`, `svc-backup-operator-01`) stays, and a Twilio SID (`AC…`, `SK…`: public, its
  // secret is the password).
  { kind: 'api key', keywords: ['with user'], re: /^\* Server auth using Basic with user '(?![A-Z]{2}[0-9a-f]{32}')(?<secret>(?=[^'\n]{0,255}\d)(?=[^'\n]{0,255}[A-Z])(?=[^'\n]{0,255}[a-z])[^'\s]{20,256}|[0-9a-f]{32,128})'/gm },
  // HAProxy's `http-request set-header X-Api-Key <value>` (add-header, http-response: adv166 F17) is the same header
  // set; HAProxy's `%[req.hdr(host)]` is a sample expression, not a value. Caddy's `request_header` / `header_up` too
  // (its `{env.API_KEY}` a placeholder).
  { keywords: ['authorization', 'key', 'token', 'secret', 'password'], needs: /(?:proxy|grpc)_set_header|add_header|RequestHeader|\b(?:set|add)-header|\b(?:request_header|header_up)\b/, kind: 'authorization header', re: /\b(?:proxy_set_header|grpc_set_header|add_header|RequestHeader[ \t]+(?:set|append|add)|http-(?:request|response)[ \t]+(?:set|add)-header|request_header|header_up)[ \t]+(?:(?:Proxy-)?Authorization|[\w-]{0,48}(?:Key|Token|Secret|Password|Passwd))[ \t]+["']?(?:(?:Bearer|Basic|Token)[ \t]+)?(?<secret>(?!\$|%\[|\{[\w.-]+\})[^\s"';]+)/gi },
  // (The OpenTelemetry collector's debug exporter prints a header as `http.request.header.authorization: Slice(["Bearer …"])`:
  // the wrapper is skipped, adv20 F32.)
  // A header in a map's print (Java's `{Authorization=Bearer …, Accept=…}`, a query string `Authorization=…&`: adv12 A39).
  // (Or in a list, a map of header lists: Apache CXF's `Headers: {Authorization=[Basic …]}`: pass 297 F17.)
  // Not a call that makes the value (R's `add_headers(Authorization = paste("token", token))`: pass 179).
  { keywords: ['authorization'], needs: /authorization["']?[ \t]*=/i, kind: 'authorization header', re: /(?<![\w-])(?:HTTP_)?(?:Proxy-|PROXY_|X-(?:[A-Za-z0-9]{1,32}-){1,3})?Authorization["']?(?:=(?!>)|[ \t]+=(?!>)[ \t]*)["']?\[?(?:(?:Bearer|Basic|Token|OAuth|Bot|GenieKey|Splunk|SSWS|Key|Api-Key)[ \t]+)?(?![A-Za-z_][\w.$]{0,63}\()(?<secret>[^\s,}&"';\]]+)/gi },
  { keywords: ['authorization'], needs: /authorization/i, kind: (m) => (/^basic$/i.test(m.groups!.scheme ?? '') ? 'basic auth' : 'authorization header'), re: /(?:(?<![A-Za-z0-9-])|(?<=\\[rn]))(?:Proxy-|X-(?:[A-Za-z0-9]{1,32}-){1,3})?Authorization["']?[ \t]*:[ \t]*(?:\[\]string\{|\[|Slice\(\[)?(?:[fFrRbB]{1,2}(?=["']))?["']?(?!Digest[ \t]+[A-Za-z]{1,16}=)(?:(?<scheme>Bearer|Basic|Token|Digest|Negotiate|NTLM|Bot|AWS4-HMAC-SHA256|SharedKey|SSWS|GenieKey|Splunk|Key|Api-Key|OAuth)[ \t]+)?(?!(?:enabled|disabled|true|false|none|required|optional|on|off)[ \t]*(?:\r?$|[#,}]))(?![A-Za-z_][\w.:]{0,64}\()(?!(?:[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z][A-Za-z]{0,40}(?:\.[A-Za-z_]\w{0,40}){0,3})[ \t]*[,})])(?![[{][ \t]*\r?$)(?<secret>(?:[^\s"'`\\\][]|\[(?!\\[rn]\]))+(?:[ \t]+(?:[^\s"'`\\\][]|\[(?!\\[rn]\]))+)*)/gim },
  // (A list opened at the line's end, `"authorization": [` of a Laravel error report's headers, is no value: its item on the next
  // line is bound-values.ts authorizationListItem's, adv262 F20.)
  // (Digest's parameters, `username="…", realm=…, nonce=…, response=…`, are no credential: the response is a hash bound to the
  // server's nonce, pass 255 L2.)
  // (The Authorization rule above: a setting's switch is no header's value, mongod.conf's `authorization: enabled`: 131 F16; nor a
  // call that makes it, fastlane's `git_basic_authorization: Base64.strict_encode64("…")`: its argument is read as itself, 134 F17.
  // A `]` ends it: curl's `* h2h3 [authorization: Bearer …]`, 137 F08; and Apache HttpClient's wire log's `[\r][\n]`, 141 F14.)
  // (Nor a variable in code's object: `dropin.create({ authorization: TOKENIZATION_KEY, container })`, `{ authorization: token }`:
  // adv169 L3; a constant's or a word's name then `,`, `}` or `)`.)
  // (Guarded: in code `APIKey: viper.GetString("api.key")`, `apiKey: process.env.X })` are no headers: adv46 K01, adv45 K05. Not a URL's
  // user (`https://x-access-token:ghp_…@github.com/…`: the URL's rule masks its password; this one took the host and path too: 129 F23).)
  // (Its value's later words stop at a field's `Name:`: Go's `%+v` of a client, `{Site:… APIKey:… AppKey:… Timeout:30s}`: pass 324 F34;
  // an empty key's next field is no value, `{apiKey: timeout:30s}`: adv333 L7.)
  { kind: 'api key header', guard: true, keywords: ['key', 'token', 'secret', 'team', 'auth', 'art-api'], needs: /:(?<=(?:key|token|secret|team|auth|art-api)[ \t]*:)/i, re: /(?:(?<![A-Za-z0-9/-])|(?<=\\[rn]))(?:X-(?:Api|Auth|Access|Vault|Goog-Api|Amz-Security|Figma|Shopify-Access|Postmark-Server|Riot|Cassandra|Emby)-?(?:Key|Token)?|Api-?Key|Private-Token|Job-Token|Deploy-Token|X-Token|X-Secret|X-Session-Token|X-CSRF-Token|X-XSRF-Token|Circle-Token|Travis-API-Token|DD-API-KEY|DD-APPLICATION-KEY|X-Honeycomb-Team|X-Sentry-Auth|X-JFrog-Art-Api)[ \t]*:[ \t]*(?:\[\]string\{|Slice\(\[)?["']?(?<secret>(?![a-z][A-Za-z0-9]{1,63}:[A-Za-z0-9])(?:[^\s"'`\\[]|\[(?!\\[rn]\])){4,}(?:[ \t]+(?![A-Za-z][A-Za-z0-9]{1,63}:)[^\s"'`\\]+)*)/gi },
  // A session header an app's API takes in place of a cookie (Metabase's `X-Metabase-Session: <uuid>`, `X-Session-Token`, `X-Session-Id`:
  // adv126 F10, in http.client's one-line `send: b'…\r\n…'` too): the session, whatever its shape.
  { kind: 'session header', keywords: ['-session'], needs: /x-(?:[a-z0-9]+-)?session(?:-token|-id|-key)?[ \t]*:/i, re: /(?:(?<![A-Za-z0-9-])|(?<=\\[rn]))X-(?:[A-Za-z0-9]+-)?Session(?:-Token|-Id|-Key)?[ \t]*:[ \t]*(?<secret>[A-Za-z0-9._~+\/=-]{16,4096})/gi },
  // The OpenTelemetry exporter's headers in its environment (`OTEL_EXPORTER_OTLP_HEADERS=x-honeycomb-team=…`, `…_TRACES_HEADERS=
  // authorization=Basic%20…`: 137 F06): `name=value` pairs joined by `,`, a credential's header among them.
  { kind: 'api key header', keywords: ['_headers'], needs: /OTEL_EXPORTER_OTLP\w*_HEADERS/i, re: /OTEL_EXPORTER_OTLP\w*_HEADERS["']?[ \t]*[=:][ \t]*["']?(?:[^\s"',=]{1,64}=[^\s"',]{0,256},){0,8}?(?:[\w-]{0,32}(?:team|key|token|auth|authorization|secret|password)[\w-]{0,32})=(?:(?:Basic|Bearer)(?:%20|[ \t]))?(?<secret>[^\s"',]{4,4096})/gi },
  // Shopify's (`X-Shopify-Hmac-Sha256: <base64>`, the body's HMAC, no timestamp in it) as Square's `x-square-hmacsha256-signature`
  // is by its name: masked alike (pass 277 L3 found one masked, the other shown).
  { kind: 'webhook signature', keywords: ['hmac-sha256', 'hmac_sha256'], re: /(?:(?<![\w-])X-[\w-]{1,32}-Hmac-Sha256[ \t]*:|(?<![\w])HTTP_X_\w{1,32}_HMAC_SHA256['"]?(?:[ \t]*[:=,]|[ \t]))[ \t]*['"]?(?<secret>[A-Za-z0-9+/]{43}=)(?![A-Za-z0-9+/=])/gi },
  // A webhook's HMAC signature header (GitHub's `X-Hub-Signature-256: sha256=<hex>`, and every `X-…-Signature: sha1=…`: 138 F13):
  // no timestamp is signed, so the signature replays its payload; the name rule's digest guard kept the `sha256=` value.
  { kind: 'webhook signature', keywords: ['signature'], needs: /signature(?:-256)?[ \t]*:[ \t]*sha/i, re: /(?<![\w-])(?:X-(?:[\w-]{0,32}-)?)?Signature(?:-256)?[ \t]*:[ \t]*sha(?:1|256|512)=(?<secret>[0-9a-fA-F]{40,128})(?![0-9a-fA-F])/gi },
  // Stripe's `Stripe-Signature: t=<time>,v1=<hex>[,v0=<hex>]` (a webhook replayed from a log): the signatures with their time (the
  // name rule took the time alone for the value and left the signatures).
  { kind: 'stripe signature', keywords: ['stripe-signature'], re: /Stripe-Signature[ \t]*:[ \t]*(?<secret>t=\d{1,12}(?:,v\d=[0-9a-f]{64}){1,4})(?![0-9a-f])/gi },
  // Fly.io's Authorization scheme, `FlyV1 fm2_…[,fm2_…]` (`fly tokens create` prints it so: adversary pass 102 F50), whatever the
  // tokens' length (the vendor rule wants 100 characters).
  { kind: 'fly.io token', keywords: ['flyv1 '], re: /(?<![\w-])FlyV1 (?<secret>fm[12][ar]?_[A-Za-z0-9+/_-]{16,4096}={0,3}(?:,fm[12][ar]?_[A-Za-z0-9+/_-]{16,4096}={0,3}){0,16})/g },
  // A bearer credential written anywhere (an OpenAPI document's `example: Bearer sk-…`, a log's `using Bearer …`, a README's
  // curl line: adv21 F44): after the scheme's word, a token of 20 characters and up with a digit in it (`Bearer <token>`,
  // `Bearer YOUR_API_KEY` and `Bearer $TOKEN` have none, or are placeholders the guard keeps).
  { kind: 'bearer token', keywords: ['bearer'], needs: /bearer[ \t]+[A-Za-z0-9]/i, re: /(?<![A-Za-z0-9_-])Bearer[ \t]+(?<secret>(?=[A-Za-z._~+\/-]*\d)[A-Za-z0-9._~+\/-]{20,4096}=*)(?![A-Za-z0-9._~+\/=-])/gi, guard: true },
];

/** Cookie headers: each value masked, the names and attributes (Path, Expires, HttpOnly) kept. */
export const COOKIE_WORDS = ['cookie'];
/** `terraform output -json`: a sensitive output's `"value"` follows its `"sensitive": true` (keys are sorted). */
export const TERRAFORM_SENSITIVE_WORDS = ['"sensitive": true'];
/** PuTTY key files (.ppk): the `Private-Lines: N` lines after the header are the private key. */
export const PUTTY_WORDS = ['private-lines:'];
/**
 * Lines that announce a generated credential printed alone on a later line (Jenkins' first start; Elasticsearch 8's first
 * start: `Password for the elastic user (reset with …):` and `Copy the following enrollment token …`, adv12 A15): the
 * scanner reads the next non-blank line. And secretsdump's LSA secret `[*] DefaultPassword` (Winlogon's auto-logon password),
 * then `<user>:<password>` (adv124's leftover).
 */
// Or `Initial password is printed below:` (a container's first start: adv180), the credential's name before `is printed below`.
// Or a service's password in secretsdump's LSA secrets (`[*] _SC_MSSQLSERVER` then `CORP\svc_sql:<password>`: pass 206 F2).
// Or a generator's `Private Key:` heading alone on its line, the key on the next (web-push's `generate-vapid-keys`: pass 235 F35).
export const NEXT_LINE_VALUE_WORDS = ['following ', 'elastic user', '[*] defaultpassword', 'printed below', '----output----', '[*] _sc_', 'private key:'];
/** HAR files (browser devtools' network export): a header's `"name": "Authorization"` (or `Cookie`, `Set-Cookie`, `Proxy-Authorization`) with its `"value"` on the same or the next line; words the pass knows already. */
export const HAR_HEADER_WORDS = ['authorization', 'cookie', 'x-api-key', 'x-auth-token', 'private-token', 'x-honeycomb-team'];
/**
 * A HAR's `queryString` (and `postData.params`) item whose name is a credential's URL parameter (`{"name": "sig", "value": "…"}`:
 * the URL's `sig=` is masked, its decoded copy in the list was not, adv19 F44). The words end at the name's last letter, as
 * the header words do, so the rule finds the `"value"` after its closing quote.
 */
export const HAR_PARAMS = ['sig', 'signature', 'token', 'access_token', 'api_key', 'key', 'secret', 'client_secret', 'password', 'code', 'x-amz-signature'];
/** An Azure Functions host key's name (`{"name": "default", "value": "…"}`): its value is the key when it is a long base64 word. */
export const AZURE_KEY_NAMES = ['default', '_master', 'master'];
/** As browsers and `jq` write a HAR (a blank after the colon): each word costs the keyword table states, so one spelling. */
export const HAR_PARAM_WORDS = [...[...HAR_PARAMS, ...AZURE_KEY_NAMES].map((p) => `"name": "${p}`), '"type": "password'];
/** composer's auth.json (and COMPOSER_AUTH): a section whose every value is a host's token (`"github-oauth": {"github.com": "gho_…"}`); found from the name's word (`auth`, `token`; `bearer` its own). */
export const COMPOSER_SECTION = /^(?:github-oauth|gitlab-oauth|gitlab-token|forgejo-token|bearer)$/;
/** A `composer config -l` row holding a credential (the rules below name which sections), and the lines it may be on. */
const COMPOSER_ROW = /^\[(?:(?:github-oauth|gitlab-oauth|bearer|forgejo-token|gitlab-token)\.(?![^\]\s]*\.username\])[^\]\s]+|(?:http-basic|bitbucket-oauth)\.[^\]\s]+\.(?:password|consumer-secret))\] (?<secret>\S+)/gm;
const COMPOSER_ROW_NEEDS = /^\[[a-z-]+\.\S+\] \S/m;
export const COMPOSER_SECTION_WORDS = ['bearer'];
// Or a JSON object's header (`"cookie": "a=…; b=…"` of Laravel Telescope's entry: pass 208 F12), its key's closing quote before `:`.
export const COOKIE_LINE = /(?<![A-Za-z0-9-])(?:Set-)?Cookie["']?[ \t]*:[ \t]*/gi;
export const COOKIE_ATTRIBUTES = /^(?:path|domain|expires|max-age|secure|httponly|samesite|priority|partitioned|version|comment)$/i;

/**
 * Query parameters that carry credentials: `?sig=`, `&token=`, `key=`, `X-Amz-Signature=`, `access_token=`; and a connection
 * string's (`;password=…;encrypt=true`): the value ends at `;` (131 F11: the settings after it were masked with it).
 */
// `appid` is OpenWeatherMap's key (32 hex), not Chromatic's project id (a 24-hex ObjectId, `/build?appId=…`: adv32 K07).
// A vendor's own signature parameter (`x-amz-customauthorizer-signature=`: adv144 J7), a session id (`_sid=`, Synology's and
// Pi-hole's: adv143 F10); `session=FileStation` (a word, Synology's API name) is no session's id.
// PayPal's checkout `token=` is the order's id (17 capitals and digits, `EC-` before it in the classic API: pass 237 L5).
// Microsoft Graph's delta link (`…/root/delta?token=…`) is a sync's cursor, of no use without the caller's bearer token: pass 314 L13
// (its hosts as GRAPH_DELTA_BEFORE names them).
// Zendesk's Web Widget snippet (`static.zdassets.com/ekr/snippet.js?key=<uuid>`) is in every page that shows it: pass 296 L5.
/**
 * The text before a Microsoft Graph delta link's `token` (`https://graph.microsoft.com/…/delta?` or `…/delta(`): a sync's cursor,
 * kept (pass 314 L13, L14) on Graph's and SharePoint's hosts only — another API's `/delta?token=` is a credential (adv320 C4).
 * URL_PARAM's look-behind names the same hosts.
 */
export const GRAPH_DELTA_BEFORE = /(?:graph\.microsoft\.com|sharepoint\.com)\/[^\s?]{0,512}\/delta[?(]$/;
/** How far back GRAPH_DELTA_BEFORE is read. */
export const GRAPH_DELTA_LOOKBACK = 600;
export const URL_PARAM: ContextRule = {
  kind: (m) => `${m.groups!.param.toLowerCase()} in url`,
  keywords: ['sig=', 'signature=', 'token=', 'auth=', 'key=', 'secret=', 'password=', 'pass=', 'pwd=', 'code=', 'credential=', 'jwt=', 'session=', 'sessionid=', 'appid=', 'sid=', 'verifier=', 'otp='], needs: /[?&;][\w-]+=/,
  re: /(?<!zdassets\.com\\?\/ekr\\?\/snippet\.js)[?&;](?<param>sig|signature|[\w-]{1,64}[-_]signature|_?sid(?==[\w-]{16})|(?<!(?:graph\.microsoft\.com|sharepoint\.com)\/[^\s?]{0,512}\/delta\?)token(?==(?!(?:EC-)?[0-9A-Z]{17}(?:[\s&#"'<>;]|$)))|access_token|refresh_token|id_token|reset_password_token|password_reset_token|reset_token|confirmation_token|unlock_token|invitation_token|magic_token|auth|auth_token|key|api_key|apikey|api-key|secret|client_secret|password|pass|pwd|code|X-Amz-Signature|X-Amz-Security-Token|X-Goog-Signature|X-Goog-Credential|jwt|session(?==(?![A-Za-z]{1,32}(?:[\s&#"'<>;]|$)))|sessionid|private_token|apitoken|code_verifier|otp|appid(?==(?![0-9a-f]{24}(?:[\s&#"'<>]|$))))=(?<secret>[^\s&#"'<>;]{4,})/gi,
};

/**
 * A password-reset token in a URL's path (an access log, a framework's debug output: adv13 B39): Laravel's
 * `/reset-password/<64 hex>`, Django's `/reset/<uidb64>/<set-password token>/`, `/password/reset/<token>`.
 */
export const URL_RESET_TOKEN: ContextRule = {
  kind: 'password reset token',
  keywords: ['reset'],
  needs: /reset(?:-password)?\//i,
  // Drupal's one-time login link (`drush uli`: `/user/reset/<uid>/<timestamp>/<hmac>/login`: adv20 F45): the uid and time before it.
  re: /\/(?:reset-password|password\/reset|password-reset|reset)\/(?:[A-Za-z0-9_-]{1,16}\/){0,2}(?<secret>[A-Za-z0-9_-]{20,128})(?=[/?#\s"]|$)/gi,
};

/** A bot token in a URL path: `/bot123456789:AA…/getMe` (Telegram). */
/**
 * A webhook's token in its URL path (`POST /hooks/<token>` in an access log, `/api/webhooks/<id>/<token>`: adv62 F15): a path
 * segment after `/hooks/` or `/webhooks/` (at most two segments later) that looks made, both cases and a digit, 20 characters
 * and up — not a slug, a numeric or hex id, a UUID.
 */
export const URL_HOOK: ContextRule = { kind: 'webhook token in url', guard: true, keywords: ['hooks/', 'hook/'], needs: /\/(?:web)?hooks?\/[\w/-]{20,}/i, re: /\/(?:web)?hooks?\/(?:[\w-]{1,64}\/){0,2}(?<secret>(?=[\w-]*\d)(?=[\w-]*[A-Z])(?=[\w-]*[a-z])[\w-]{20,256})(?![\w-])/g };
export const URL_BOT: ContextRule = { kind: 'telegram bot token', keywords: ['/bot'], needs: /\/bot\d/, re: /\/bot(?<secret>\d{6,12}:[A-Za-z0-9_-]{30,})/g };

/** Credentials in any URL (`https://u:pw@`, `redis://:pw@`, `amqp://`, `git+https://`): the password only, the host stays. */
// Also a token as the URL's user with no password (`https://<PAT>@dev.azure.com/…` in `git remote -v`, a pip index
// `https://<token>@pypi.fury.io/…`: adv12 A01, A02): 20 or more token characters, letters and digits both (a user name is
// shorter: `git@`, `x-access-token@`).
export const URL_CREDENTIALS: ContextRule = {
  kind: 'url password',
  // An .xcconfig writes `//` as `/$()/` (`//` starts a comment there: `https:/$()/user:pw@host`, adv32 F17).
  keywords: ['://', ':/$()/'],
  needs: /:\/(?:\$\(\))?\/(?:[^\s:/@]*(?:@[^\s:/@]+)?:@?[^\s@/]+|[\w-]{20,})@/,
  // A password with an unencoded `@` (a Rust or Python Debug print of the URL a program built: adv14 C09) ends at the last
  // `@` before the host, as Python's urlsplit and libpq read it (one first is left beside the mask: a value starting `@` reads
  // as a reference). A URL with no host after its `@` (kombu's `sqs://key:secret@`:
  // adv27 F18) too.
  // A token as the password may be long (an AWS CodeArtifact token, ~1,100 characters, in a pip index URL: adv31 F22).
  // A quoted-printable mail body writes the `=` before the URL as `=3D` (cron's mail: `db_url=3Dpostgresql://…`: adv29 F28).
  // A user that is a mail address, its `@` unencoded (`smtp://alerts@acme.io:<password>@smtp.acme.io:587`: adv93). A password
  // that ends in `@` (`app:GV_vMU8PcDuOW_@@db`: a random value of adv84 F11) keeps it.
  // Not an Ethereum node's `enode://<public key>@host:port` (geth's `self=enode://…` log line: its node id, public; adv161 F17).
  // Nor a Sentry DSN's public key alone as its user (`https://<32 hex>@o45.ingest.de.sentry.io/…`, a frontend's
  // `NEXT_PUBLIC_SENTRY_DSN`: pass 242 L22): public by design; a legacy DSN's `key:secret@` is the password branch.
  re: /(?:\b|(?<==3D))(?!enode:)[a-z][a-z0-9+.-]{1,20}:\/(?:\$\(\))?\/(?:[^\s:/@]{0,256}(?:@[^\s:/@]{1,256})?:|(?=[\w-]{20,256}@)(?![0-9a-f]{32}@[\w.-]{0,128}sentry)(?=[A-Za-z_-]*\d)(?=[\d_-]*[A-Za-z]))@?(?<secret>[^\s@/]{1,4096}(?:@[^\s@/"'<>]{1,256}){0,3}@{0,3})(?=@(?:[^\s@]|\s|$))/gi,
};

/** A column's type as a database client prints a schema (psql `\d`, mysql `DESCRIBE`, sqlite `PRAGMA table_info`), either case. */
const SQL_TYPE =
  '(?:[Tt]ext|TEXT|[Ii]nteger|INTEGER|int[248]?|INT|bigint|BIGINT|smallint|SMALLINT|tinyint|mediumint|[bB]ig[sS]erial|serial|SERIAL|uuid|UUID|bytea|BLOB|blob|jsonb?|JSONB?|bool(?:ean)?|BOOL(?:EAN)?|date|DATE|datetime|DATETIME|time(?:stamp(?:tz)?)?|TIMESTAMP|numeric|NUMERIC|decimal|DECIMAL|real|REAL|float[48]?|FLOAT|double|DOUBLE|money|inet|cidr|citext|n?varchar|N?VARCHAR|n?char|N?CHAR|varbinary|VARBINARY|binary|BINARY|(?:long|medium|tiny)text|enum|bit|xml|string)(?:\\(\\d+(?:,[ \\t]?\\d+)?\\))?(?:\\[\\])?';

/** LLM providers' names, as tools key their API keys by them. */
const AI_PROVIDERS = ['openai', 'anthropic', 'mistral', 'groq', 'cohere', 'gemini', 'together', 'fireworks', 'deepseek', 'perplexity', 'replicate', 'huggingface', 'voyage', 'openrouter', 'xai', 'cerebras', 'deepinfra', 'anyscale'];

/**
 * A command's argument as a shell passes it: single-quoted, double-quoted or a bare word (not an option's `-`), each at most
 * 256 characters (a bound: a megabyte line of quotes reads each once).
 */
/** A recovery code's shapes (GitHub's `06efc-bf8a8`, `1234 5678`, `1234-5678`, a run of lower-case letters and digits). */
export const RECOVERY_CODE = String.raw`(?:[0-9a-f]{4,6}-[0-9a-f]{4,6}|(?=[a-z-]{0,8}\d)[a-z0-9]{4}-[a-z0-9]{4}|\d{4}[ -]\d{4}|(?=[a-z]{0,19}\d)[a-z0-9]{8,20})`;
/** A line's prefix of grep's (`file:12:`, `file-12-`, `12:`) or a diff's (`-`, `+`), before a line rule's `^`-anchored text. */
const LINE_PREFIX = String.raw`(?:(?:[^\s:]{1,256}[-:])?\d{1,9}[-:]|[-+])?`;
/**
 * A network device's config line's prefix through every wrapper an agent reads one with: grep's and a diff's (LINE_PREFIX), `cat
 * -n`'s tab, a side-by-side diff's `<`/`>`, `docker compose logs`' `service  |` (a router's config is read through all of them).
 */
const WIDE_LINE_PREFIX = String.raw`(?:(?:[^\s:]{1,256}[-:])?\d{1,9}[-:]|[ \t]*\d{1,9}\t|[<>][ \t]|[-+]|[\w.-]{1,64}[ \t]{1,16}\|[ \t]?)?`;
const ARG = String.raw`'[^'\n]{1,256}'|"[^"\n]{1,256}"|[^\s'"-][^\s'"]{0,255}`;
/** A rule's pattern: `before` (a command and its option, as regex source), then the argument after it as the secret. */
/**
 * A command's words up to an option, its quoted arguments read whole: a password before it may hold `&`, `;` or `|` (`-p
 * '6%9_gj#=BnE7&J' -a '…'`: adv93 F24's second password was read as after the command's end).
 */
const QUOTED_OR_WORDS = String.raw`(?:'[^'\n]{0,256}'|"[^"\n]{0,256}"|[^\n|;&'"]){0,512}?`;
const argAfter = (before: string): RegExp => new RegExp(`${before}(?<secret>${ARG})`, 'g');

/** Credentials on command lines as `ps`, shell history and CI logs show them. */
export const COMMAND_LINE: ContextRule[] = [
  // mysql/mariadb family: -pSECRET (attached; `-p` alone prompts; a password may start with `-`: `-p-!g!…`, adv83 F23), --password=SECRET
  { kind: 'password on command line', keywords: ['mysql', 'maria'], needs: /mysql|maria/, re: /\b(?:mysql|mariadb|mysqldump|mysqladmin|mysqlimport|mysqlsh|mysqlcheck|mariadb-dump)\b[^\n|;&]{0,1024}?[ \t"']-p(?<secret>[^\s'"][^\s'"]*|'[^'\n]+'|"[^"\n]+")/g },
  // jenkins-cli's `-auth <user>:<api token>` (adv193 F4: `java -jar jenkins-cli.jar -s … -auth admin:11…`); `-auth @file` names a file.
  { kind: 'password on command line', keywords: ['-auth ', '"-auth"'], needs: /(?:^|[ \t])-auth[ \t]|"-auth"/, re: /(?:^|[ \t])-auth[ \t]+['"]?(?![@$])[^\s:'"]{1,128}:(?<secret>[^\s'"]{4,256})|"-auth"[ \t]*,[ \t]*"(?![@$])[^\s:"]{1,128}:(?<secret2>[^\s"]{4,256})"/g, guard: true },
  // Active Directory's `dsadd user … -pwd <pw>` / `dsmod user … -pwd <pw>` (a provisioning batch file: adv197 F18); `-pwd *` prompts.
  { kind: 'password on command line', keywords: ['dsadd', 'dsmod'], needs: /\bds(?:add|mod)\b/i, re: /\bds(?:add|mod)\b[^\n|&]{0,2048}?[ \t]-pwd[ \t]+(?<secret>"[^"\n]{1,256}"|[^\s*"][^\s"]{0,255})/gi, guard: true },
  { kind: 'password on command line', keywords: ['sshpass'], needs: /sshpass/, re: /\bsshpass[ \t]+-p[ \t]*(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/g },
  // (After a row's id and one blank too: `balena envs`' `2184410 WIFI_PASSWORD   …   <fleet>`: pass 184 F28.)
  // A box table's row labelled as a secret (`confluent api-key create`: `| API Secret | … |`, adv12 A16): not `| API Key |`, an id.
  // A table's row with a variable's name in one cell and its value in the next, blanks between (`column -t` of a CSV of keys,
  // PowerShell's `Get-ChildItem env:`: adversary pass 99 F33): an upper-case name ending in a secret's word, then a value with a
  // letter and a digit, each cell alone between runs of two blanks (or a tab) or the line's ends; a name that says secret
  // (isSecretName: not `CACHE_KEY`).
  { kind: 'secret', keywords: ['secret', 'token', 'pass', 'key', 'auth', 'pwd'], sharesNameWords: true, needs: /[A-Z0-9]_(?:[A-Z]+_)*(?:TOKEN|KEY|SECRET|PASSWORD|PASSWD|PASS|PWD|AUTH)(?:[ \t]{2}|\t)/, re: /(?:^|[ \t]{2}|\t|(?<=^\d{1,12}) )(?<name>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:TOKEN|KEY|SECRET|PASSWORD|PASSWD|PASS|PWD|AUTH))(?:[ \t]{2,16}|\t{1,4})(?<secret>(?=[^\s]{0,511}\d)(?=[^\s]{0,511}[A-Za-z])[A-Za-z0-9_+/=.~-]{16,512})(?=[ \t]{2}|\t|\r?$)/gm, guard: true },
  // A box table's row of a constant's name and its value, the value's blanks and all (`wp config list`: `| NONCE_KEY | <64
  // characters of a WordPress salt, a blank among them> | constant |`: pass 182 F2); the name must be a secret's.
  { kind: 'secret', keywords: ['key', 'salt', 'secret', 'token', 'pass'], sharesNameWords: true, needs: /^[ \t]*\|[ \t]*[A-Z][A-Z0-9]*_[A-Z0-9_]*[ \t]*\|/m, re: /^[ \t]*\|[ \t]*(?<name>[A-Z][A-Z0-9]*_[A-Z0-9_]*)[ \t]*\|[ \t]*(?<secret>[^\s|](?:[^|\n]{0,1022}[^\s|])?)[ \t]*\|/gm, guard: true },
  { kind: 'secret', keywords: ['secret', 'token', 'pass'], sharesNameWords: true, wrapsIntoRows: true, needs: /^\|.*\|/m, re: /^\|[ \t]*(?:[A-Za-z]+[ \t])?(?:Secret|Token|Password|Passphrase|Secret[ \t]Key)[ \t]*\|[ \t]*(?<secret>(?=[^\s|]*\d)[^\s|]{12,})(?=[ \t]*\|)/gim },
  // A secret store's write with the value as an option (adv13 B08, B09: `aws ssm put-parameter --name /x/DB_PASSWORD --type
  // SecureString --value '…'`, `az keyvault secret set --name x --value '…'`), as shell history and `set -x` print it.
  { kind: 'password on command line', keywords: ['secret', 'pass', 'token', 'key'], sharesNameWords: true, needs: /--value/, re: /\b(?:ssm[ \t]+put-parameter\b[^\n|;&]{0,1024}?(?:SecureString|[Pp]assword|[Ss]ecret|[Tt]oken|[Kk]ey)|keyvault[ \t]+secret[ \t]+set)\b[^\n|;&]{0,1024}?[ \t]--value(?:=|[ \t]+)(?<secret>'[^'\n]+'|"[^"\n]+"|(?![-$<])[^\s'"]+)/g },
  // A setting's name then its value as two words (adv13 B11: `dotnet user-secrets set "Smtp:Password" "pw"`, `netlify env:set
  // MAILGUN_SIGNING_KEY v`, `vercel env add`… are prompts): only a secret's name.
  { kind: 'secret', keywords: ['secret', 'pass', 'token', 'key', 'auth'], sharesNameWords: true, needs: /(?:user-secrets[ \t]+set|env:set|config:set|variables?[ \t]+set)[ \t]/, re: /\b(?:user-secrets[ \t]+set|env:set|config:set|variables?[ \t]+set)[ \t]+["']?(?<name>[\w:.-]+)["']?[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|(?![-$<])[^\s'"]+)/g },
  // skopeo's `--src-creds user:pw`, `--dest-creds`, `--creds` (adv13 B22).
  { kind: 'password on command line', keywords: ['cred'], sharesNameWords: true, needs: /--(?:src-|dest-)?creds/, re: /--(?:src-|dest-)?creds(?:=|[ \t]+)["']?[^\s:'"]+:(?<secret>[^\s'"]+)/g },
  // PowerShell's parameters (adv13 B46: `nuget sources add … -Password pw`, `-ApiKey k`), one dash and a capital.
  // A script's own parameters named so too (`-SqlPwd`, `-DbPassword`, `-AdminToken` in an Azure Pipelines task's echoed
  // ScriptArguments: adv34 F39).
  { kind: 'password on command line', keywords: ['pass', 'pwd', 'secret', 'token', 'key'], sharesNameWords: true, needs: /[ \t]-[A-Za-z]\w{0,32}(?:Password|Pwd|Secret|Token|ApiKey)[ \t]/, re: /(?<![\w-])-(?:[A-Za-z][A-Za-z0-9]{0,32})?(?:Password|Pwd|Secret|ClientSecret|Token|AccessToken|ApiKey|NuGetApiKey)[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|(?![-$<(])[^\s'"]+)/g },
  // A Dockerfile's old `ENV NAME value` (a blank, no `=`: adv13 B16): only a secret's name.
  { kind: 'secret', keywords: ['pass', 'secret', 'token', 'key', 'auth'], sharesNameWords: true, needs: /^ENV[ \t]/m, re: /^ENV[ \t]+(?<name>[A-Za-z_]\w*)[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|(?![$])[^\s'"=]\S*)(?=[ \t]*\r?$)/gm },
  // A secret's variable named in a sentence, its value after it with no `=` (`deploying using VERCEL_TOKEN Xq7p…`, `authenticating
  // with NETLIFY_AUTH_TOKEN nfp_…`: adv69): an upper-case secret's name, a blank, a made value (a letter and a digit, 12 and up).
  { kind: 'secret', keywords: ['pass', 'pwd', 'secret', 'token', 'key', 'auth', 'cred'], sharesNameWords: true, needs: /\b(?:using|with|via)[ \t]+\$?[A-Z]/, re: /\b(?:using|with|via)[ \t]+\$?(?<name>[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)[ \t]+(?<secret>(?=[\w+/=.-]*\d)(?=[\w+/=.-]*[A-Za-z])[\w+/=.-]{12,512})(?=[\s,;)]|$)/g, guard: true },
  // A generated password announced in a sentence (adv16 D50: gitea's `generated random password is '…'`; D44: mongo-express's
  // `basicAuth credentials are "admin:pw"`; D49: Django REST framework's `Generated token <40 hex> for user dana`).
  // After a word that says where it is (linuxserver's qBittorrent: `A temporary password is provided for this session: <pw>`, pass
  // 177 F15; the word had been masked, the password left).
  { kind: 'password', keywords: ['pass'], sharesNameWords: true, needs: /(?:random|generated|temporary|initial|default) password (?:is|was set to) /i, re: /\b(?:random|generated|temporary|initial|default) password (?:is|was set to)(?:[ \t]+(?:provided|generated|shown|printed|given|displayed)(?:[ \t]+(?:for|in)[ \t]+[^:\n]{1,48}?)?:)?[ \t]+(?!(?:provided|generated|shown|printed|given|displayed|required|not|none|empty)\b)(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'",;]+)/gi },
  // Any password told in a sentence (`Your new VPN password is: …` in a mail body, `the password for bob is now …`: adv21 F35):
  // the value must look made (a digit in it, 8 characters and up), not a word that says something about the password
  // (`password is required`, `password is too short`, `password is not set`).
  // The short words too (`the staging db pw is oXnbCeBRP btw`, `temp admin pass is s#a7IZkgX`: adv71 F28, F31): a made value is a
  // digit in it, or a capital after its first letter (the pattern is case-sensitive for that test: with `i`, `[A-Z]` took any letter,
  // and `password is provided`, `… is incorrect` masked their word: pass 177 F15).
  { kind: 'password', keywords: ['pass', 'pw', 'pwd'], sharesNameWords: true, needs: /(?:pass(?:word|phrase|code|wd)?|pwd?) (?:for \S+ )?(?:is|was|has been)\b/i, re: /(?<![\w-])(?:[Pp]ass(?:word|phrase|code|wd)?|PASS(?:WORD|PHRASE|CODE|WD)?|[Pp]wd?|PWD?)(?: (?:for|FOR) [^\s:]{1,64})? (?:is(?: now)?|IS(?: NOW)?|was (?:set|reset|changed) to|has been (?:set|reset|changed) to)(?::)?[ \t]+(?<secret>'[^'\n]{6,256}'|"[^"\n]{6,256}"|(?=[^\s'",;]*\d|[^\s'",;]+[A-Z])[^\s'",;]{8,256})/g, guard: true },
  // ktpass' `/pass <password>` (a keytab's account password in a runbook: adv251 F42; `/pass *` prompts for it).
  { kind: 'password on command line', keywords: ['ktpass'], re: /\bktpass(?:\.exe)?\b[^\n|;&]{0,1024}?[ \t][/-]pass[ \t]+(?<secret>"[^"\n]+"|(?!\*(?:\s|$))[^\s"]+)/gi },
  // Windows LAPS' `msLAPS-Password` JSON (`{"n":"Administrator","t":"<hex time>","p":"…"}`, ldapsearch's value: adv251 F27).
  { kind: 'password', keywords: ['"p":'], needs: /"t"[ \t]*:[ \t]*"[0-9a-f]{14,16}"/, re: /"n"[ \t]*:[ \t]*"[^"\n]{1,256}"[ \t]*,[ \t]*"t"[ \t]*:[ \t]*"[0-9a-f]{14,16}"[ \t]*,[ \t]*"p"[ \t]*:[ \t]*"(?<secret>(?:[^"\\\n]|\\.){1,256})"/g },
  // A password in a note after `pw`/`pwd` (an AD account's Description: `Scanner account … pw Lantern@5472Lantern (rotated …)`:
  // adv251 F39): a made word — lower and upper case, and a symbol or three digits, 10-64 characters. Not after `pass`/`PASS`:
  // jest's `PASS src/auth/OAuth2Callback.test.tsx`, go test's `--- PASS: TestOAuth2Flow`, nginx's `proxy_pass`, a commit's `pass
  // OAuth2Config to …` (adv253 L1, L2, L5).
  { kind: 'password', keywords: ['pw', 'pwd'], sharesNameWords: true, re: /(?<![\w./-])[Pp][Ww][Dd]?(?:[ \t]*[:=])?[ \t]+(?![-$%<{(\[/~.])(?=[^\s]{0,63}[a-z])(?=[^\s]{0,63}[A-Z])(?=[^\s]{0,63}(?:[^\w\s]|\d{3}))(?<secret>[^\s()'"]{10,64})(?=[\s),;]|\.(?:\s|$)|$)/g },
  // A password that is a number, alone after its name at its line's end (`password=123456`, FreeSWITCH's `<param name="vm-password"
  // value="932896"/>`, a voicemail PIN: adv246 F14; `DBPASS=…`, a comment after it, 10 digits: adv253 F26): 4–10 digits. The look-alike guard keeps numbers elsewhere, a password's
  // name's loosely (mysql's `-P 3306`, `localhost:8080` under a `user:password` comment).
  { kind: 'password', keywords: ['pass'], sharesNameWords: true, needs: /(?:pass(?:word|wd)?|pwd)["']?[ \t]*(?:[:=][ \t]*["']?|"[ \t]+value=")\d{4,10}/i, re: /(?<![\w-])(?:[\w.-]{0,32}[_.-]|[A-Z]{2,8})?(?:[Pp]ass(?:word|wd)?|PASS(?:WORD|WD)?|[Pp]wd|PWD)(?:["']?[ \t]*[:=][ \t]*["']?|"[ \t]+value=")(?<secret>\d{4,10})(?=["']?(?:[ \t]*\/?>)?[ \t]*(?:[,;][ \t]*)?(?:[ \t]#[^\n]*)?\r?$)/gm },
  // …in other languages: German's `Passwort … auf X gesetzt`, Portuguese `a senha … é X`, Spanish `la contraseña … es X`, French `le
  // mot de passe … est X` (adv71 F29, F34): the value made (a digit, or a capital after its first letter), 8 characters and up.
  { kind: 'password', keywords: ['pass', 'senha', 'contrase'], sharesNameWords: true, needs: /(?:passwort|kennwort)[^\n]{0,60} auf \S|(?:senha|contraseña|mot de passe)[^\n]{0,60} (?:é|es|est) \S/i, re: /(?:(?:[Pp]asswort|[Kk]ennwort)[^\n]{0,60}? auf[ \t]+(?<secret>(?=\S*\d|\S+[A-Z])\S{8,256})(?=[ \t]+(?:gesetzt|geändert|zurückgesetzt))|(?:senha|contraseña|mot de passe)[^\n]{0,60}? (?:é|es|est)(?: :)?[ \t]+(?<secret2>(?=[^\s,;]*\d|[^\s,;]+[A-Z])[^\s,;]{8,256}))/gi, guard: true },
  // A credential handed over in a chat message or a mail (Slack's `text`, Discord's `content`: adv61 F46, F47, F34): a secret's
  // word, then what it is for or a note in brackets (a plain `secret: …` is a key's, read by its name), a colon, then a value that looks made (a letter and a digit, 12 characters
  // and up): `the api token for staging: …`, `API access token (do not share): …`; or the value in a code span after the word
  // (`pass \`…\``), letters of both kinds or a digit and a symbol in it, not a variable's name (`\`GITHUB_TOKEN\``); or the value
  // straight after the word, made (both cases and a digit, 20 characters and up: `print("secret", s)` in a notebook: adv65 F49).
  { kind: 'secret', keywords: ['pass', 'token', 'secret', 'key', 'cred'], sharesNameWords: true, needs: /`| for | from |\(/, re: /(?:(?<![A-Za-z])(?:pass(?:word|phrase|code)?|token|secret|api[ _-]?key|access[ _-]?key|credentials?)(?:[ \t]+\([^()\n]{1,40}\)|[ \t]+(?:for|from)[ \t]+[^\s:]{1,64}(?:[ \t][^\s:]{1,64})?)[ \t]*:[ \t]+(?<secret>(?=[^\s"'`]*\d)(?=[^\s"'`]*[A-Za-z])[^\s"'`]{12,512})|(?:pass(?:word|wd|phrase)?|pwd?|token|secret|api[ _-]?key)[ \t]*(?:[:=][ \t]*)?`(?![A-Z_][A-Z0-9_]*`|\$)(?<secret2>(?=[^`\s]*[a-z])(?=[^`\s]*[A-Z\d])(?=[^`\s]*[^A-Za-z`\s])[^`\s]{8,256}|(?=[^`\s]*[a-z])(?=[^`\s]*[A-Z])(?=[^`\s]*\d)[^`\s]{8,256})(?=`))/gi, guard: true },
  { kind: 'secret', keywords: ['pass', 'token', 'secret', 'key'], sharesNameWords: true, needs: /(?:password|passwd|secret|token|api[ _-]?key) [\w+/=-]{20}/i, re: /\b(?:[Pp]assword|[Pp]asswd|[Ss]ecret|[Tt]oken|[Aa]pi[ _-]?[Kk]ey)[ \t]+(?<secret>(?=[\w+/=-]*\d)(?=[\w+/=-]*[A-Z])(?=[\w+/=-]*[a-z])[\w+/=-]{20,512})(?![\w+/=-])/g, guard: true },
  { kind: 'basic auth', keywords: ['cred'], sharesNameWords: true, needs: /credentials are "/, re: /\bcredentials are "[^":\n]{1,64}:(?<secret>[^"\n]+)(?=")/g },
  { kind: 'token', keywords: ['token'], sharesNameWords: true, needs: /Generated token [0-9a-f]{40} for user/, re: /\bGenerated token (?<secret>[0-9a-f]{40}) for user/g },
  // A secret's variable set by a server's config (adv16 D18, D19): Apache's `SetEnv DB_PASSWORD "…"`, nginx's `fastcgi_param APP_SECRET …;`;
  // and fish's `set -gx DB_PASSWORD …` (D21). The name must be a secret's.
  { kind: 'secret', keywords: ['pass', 'pwd', 'secret', 'token', 'key', 'auth', 'cred', 'salt', 'dsn'], sharesNameWords: true, needs: /\b(?:SetEnv|fastcgi_param|uwsgi_param|scgi_param|set)[ \t]/, re: /(?:^|[\s;])(?:SetEnv|fastcgi_param|uwsgi_param|scgi_param|set(?:[ \t]+-[A-Za-z]+)+)[ \t]+(?<name>[A-Za-z_][\w]*)[ \t]+(?<secret>"[^"\n]+"|'[^'\n]+'|[^\s;"'$][^\s;"']*)/gm, guard: true },
  // MySQL's first start (adv13 B15): `A temporary password is generated for root@localhost: pw`.
  { kind: 'password', keywords: ['pass'], sharesNameWords: true, needs: /temporary password is generated/, re: /temporary password is generated for [^\s:]+:[ \t]+(?<secret>\S+)/g },
  // age's `-p` with no passphrase typed (adv13 B43): `age: using autogenerated passphrase "otter-violin-…"`.
  { kind: 'password', keywords: ['pass'], sharesNameWords: true, needs: /autogenerated passphrase/, re: /autogenerated passphrase "(?<secret>[^"\n]+)/g },
  // An LDAP client's or server's config (adv12 A10: nslcd.conf `bindpw pw`, slapd.conf `rootpw pw`, pam_ldap.conf's `bind_pw pw`:
  // adv124 F26): the directive, a blank, the value.
  { kind: 'password', keywords: ['pw'], sharesNameWords: true, needs: /^(?:[^\s:]{1,256}:)?(?:\d{1,9}:)?[ \t]*(?:bind_?pw|rootpw)\b/m, re: /^(?:[^\s:]{1,256}:)?(?:\d{1,9}:)?[ \t]*(?:bind_?pw|rootpw)[ \t]+(?<secret>(?![{]SSHA|[{]CRYPT)[^\s]+)(?=[ \t]*\r?$)/gm },
  // PowerShell's `ConvertTo-SecureString "pw" -AsPlainText` (adv13 B46) in its history.
  // …with its switches first (`-AsPlainText "pw" -Force`, `-AsPlainText -Force -String 'pw'`), a bare word, or the value piped in
  // (`"pw" | ConvertTo-SecureString -AsPlainText -Force`: adv145 F02).
  { kind: 'password', keywords: ['asplaintext'], needs: /ConvertTo-SecureString/i, re: /ConvertTo-SecureString(?=[^\n]{0,512}-AsPlainText)(?:[ \t]+-(?:AsPlainText|Force)\b)*[ \t]+(?:-String[ \t]+)?(?:(?<q>["'])(?<secret>(?:(?!\k<q>)[^\n]){1,256})\k<q>|(?<secret2>[^\s"'$(@-][^\s)]{0,255}))/gi },
  { kind: 'password', keywords: ['asplaintext'], needs: /\|[ \t]*ConvertTo-SecureString/i, re: /(?<q>["'])(?<secret>(?:(?!\k<q>)[^\n]){1,256})\k<q>[ \t]*\|[ \t]*ConvertTo-SecureString\b(?=[^\n|]{0,512}-AsPlainText)/gi },
  // Publishing and registry CLIs' short credential options, as `set -x` and shell history show them (adv24 F08, F44, F45, F46,
  // F19): `dotnet nuget push -k KEY`, `vsce publish -p PAT`, `ovsx publish -p TOKEN`, `anaconda -t TOKEN upload`, `jwt encode -S
  // SECRET`, and `cargo login [--registry R] TOKEN` (the token a bare operand).
  { kind: 'token on command line', keywords: ['nuget', 'vsce', 'ovsx', 'anaconda', 'jwt'], needs: /\b(?:nuget|vsce|ovsx|anaconda|jwt)\b/, re: /\b(?:(?:dotnet[ \t]+)?nuget[ \t]+push\b[^\n|;&]{0,1024}?[ \t](?:-k|--api-key)|(?:vsce|ovsx)[ \t]+publish\b[^\n|;&]{0,1024}?[ \t](?:-p|--pat)|anaconda\b[^\n|;&]{0,1024}?[ \t](?:-t|--token)|jwt[ \t]+encode\b[^\n|;&]{0,1024}?[ \t](?:-S|--secret))(?:=|[ \t]+)(?<secret>'[^'\n]+'|"[^"\n]+"|(?![-$<])[^\s'"]+)/g, guard: true },
  { kind: 'token on command line', keywords: ['cargo login'], re: /\bcargo[ \t]+login(?:[ \t]+--registry(?:=|[ \t]+)[^\s]+)?[ \t]+(?<secret>(?![-$<])[^\s'"]{16,})/g, guard: true },
  // curl's cookies on its command line (`-b 'a=1; session=…'`, a browser's "Copy as cURL": adv24 F19): the cookie string.
  { kind: 'cookie', keywords: ['curl'], needs: /[ \t](?:-b|--cookie)[ \t]/, re: /\bcurl\b[^\n|;&]{0,1024}?[ \t](?:-b|--cookie)[ \t]+(?:'(?<secret>[^'\n]*=[^'\n]*)(?=')|"(?<secret2>[^"\n]*=[^"\n]*)(?="))/g },
  // …on a continuation line of its own (a "Copy as cURL" command: `curl '…' \` then `  -b '…'`).
  { kind: 'cookie', keywords: ["-b '", '-b "', '--cookie '], needs: /^[ \t]+(?:-b|--cookie)[ \t]+['"][^'"\n]*=/m, re: /^[ \t]+(?:-b|--cookie)[ \t]+(?:'(?<secret>[^'\n]*=[^'\n]*)(?=')|"(?<secret2>[^"\n]*=[^"\n]*)(?="))/gm },
  // An argv printed as a Python list (`az --debug`'s `Command arguments: ['login', '-u', 'bob', '-p', '…']`: adv24 F50): the item
  // after a credential option's item (`-p` only in a login's list: it is many tools' other option).
  { kind: 'password on command line', keywords: ['pass', 'secret', 'token', 'key'], sharesNameWords: true, needs: /['"]--?[\w-]*(?:password|passwd|secret|token|key)['"],?[ \t]*['"]/i, re: /['"](?:--(?:[\w-]*-)?(?:password|passwd|secret|token|api-key|account-key|key|sas-token)|-(?:password|passwd|pwd))['"](?:,|(?=[ \t]))[ \t]*(?<q>['"])(?<secret>(?:(?!\k<q>)[^\n\\]|\\.){1,4096}?)(?=\k<q>)/gi, guard: true },
  { kind: 'password on command line', keywords: ["'-p'", '"-p"'], needs: /['"](?:-u|--username|login)['"]/, re: /['"](?:-u|--username|login)['"],[^\]\n]{0,256}?['"]-p['"],[ \t]*(?<q>['"])(?<secret>(?:(?!\k<q>)[^\n\\]|\\.){1,4096}?)(?=\k<q>)/g, guard: true },
  // wget -d echoes its options (`Setting --password (password) to …`, `--http-password`, `--ftp-password`, `--proxy-password`: adv24 F13).
  { kind: 'password on command line', keywords: ['pass'], sharesNameWords: true, needs: /^Setting --/m, re: /^Setting --(?:http-|ftp-|proxy-)?password \([\w]+\) to (?<secret>\S+)/gm, guard: true },
  // A test filling a password field (Playwright's code frame `page.getByLabel('Password').fill('…')`, `locator('#password').fill`,
  // Cypress `cy.get('#password').type('…')`: adv24 F35): the typed text.
  { kind: 'password', keywords: ['pass'], sharesNameWords: true, needs: /\.(?:fill|type|pressSequentially|setValue|sendKeys)\(/, re: /(?:getByLabel|getByPlaceholder|getByTestId|locator|get|find|\$)\([ \t]*(?<q>['"`])[^'"`\n]{0,64}pass(?:word|wd|phrase)?[^'"`\n]{0,64}\k<q>(?:[ \t]*,[ \t]*\{[^}\n]{0,128}\})?[ \t]*\)[ \t]*\.(?:fill|type|pressSequentially|setValue|sendKeys)\([ \t]*(?<q2>['"`])(?<secret>(?:(?!\k<q2>)[^\n\\]|\\.){1,512})(?=\k<q2>)/gi, guard: true },
  // Windows remote shells' passwords (PowerShell's Get-History: `winrs -u:DOMAIN\\user -p:pw`, `PsExec64.exe \\\\host -u u -p pw`: adv26 F23);
  // ssh-keygen's old and new passphrases (`-P old -N new`, not `-N ''`), unrar / rar / 7z's attached `-ppw` (F28).
  { kind: 'password on command line', keywords: ['winrs', 'psexec'], needs: /\b(?:winrs|psexec(?:64)?)\b/i, re: /\b(?:winrs\b[^\n|;&]{0,1024}?[ \t]-p(?:assword)?:|psexec(?:64)?(?:\.exe)?\b[^\n|;&]{0,1024}?[ \t]-p[ \t]+)(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/gi, guard: true },
  { kind: 'passphrase on command line', keywords: ['ssh-keygen'], needs: /[ \t]-[PN][ \t]/, re: /[ \t]-[PN](?<=\bssh-keygen\b[^\n|;&]{0,512}?[ \t]-[PN])[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|(?!['"]{2})[^\s'"-][^\s'"]*)/g, guard: true },
  { kind: 'password on command line', keywords: ['rar ', '7z ', '7za '], needs: /\b(?:un)?rar|7za?\b/, re: /\b(?:(?:un)?rar|7za?)[ \t]+[a-z][^\n|;&]{0,1024}?[ \t]-p(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"-][^\s'"]*)/g, guard: true },
  // Hex's organization key (`mix hex.organization auth acme --key K`, adv27 F24); Elixir Req's auth tuple (`auth: {:basic, "u:pw"}`,
  // `{:bearer, "t"}`: F38); `dotnet user-jwts key`'s signing key (F39); Quarkus' `config encrypt` (the secret and the generated key: F42).
  { kind: 'key on command line', keywords: ['hex.organization'], re: /\bhex\.organization[ \t]+(?:auth|key)\b[^\n|;&]{0,1024}?[ \t]--key(?:=|[ \t]+)(?<secret>[^\s'"]+)/g, guard: true },
  { kind: 'password', keywords: ['{:basic', '{:bearer'], re: /\{:(?:basic,[ \t]*"[^":\n]*:|bearer,[ \t]*")(?<secret>[^"\n]+)(?=")/g, guard: true },
  { kind: 'signing key', keywords: ['signing key for issuer'], re: /Signing Key for issuer '[^'\n]*':[ \t]*(?<secret>\S+)/gi },
  { kind: 'secret', keywords: ['was encrypted to', 'generated encryption key'], re: /\bThe secret (?<secret>\S+)(?= was encrypted to)|generated encryption key \(base64\):[ \t]*(?<secret2>\S+)/g },
  // An Azure Key Vault secret's response body (an SDK's network trace: `{"value":"…","id":"https://x.vault.azure.net/secrets/…"}`: F32).
  { kind: 'key vault secret', keywords: ['.vault.azure.net/secrets/'], re: /"value"[ \t]*:[ \t]*"(?<secret>(?:[^"\\\n]|\\.){1,8192})(?="[ \t]*,[ \t]*"id"[ \t]*:[ \t]*"https:\/\/[\w.-]+\.vault\.azure\.net\/secrets\/)/g },
  // Gradle's Kotlin DSL lazy properties (`password.set("…")`, `apiKey.set(…)`: F02): the name's value.
  { kind: 'password', keywords: ['.set("', ".set('"], needs: /(?:pass(?:word)?|token|secret|key)\.set\(/i, re: /\b(?:\w*(?:[Pp]assword|[Tt]oken|[Ss]ecret|[Aa]pi[Kk]ey|ApiKey))\.set\([ \t]*(?<q>["'])(?<secret>(?:(?!\k<q>)[^\n\\]|\\.){1,4096})(?=\k<q>)/g, guard: true },
  // A Cloudsmith entitlement token in a repository's path (`dl.cloudsmith.io/<token>/org/repo/…`, a cargo or pip index: F28).
  { kind: 'entitlement token', keywords: ['dl.cloudsmith.io/'], re: /dl\.cloudsmith\.io\/(?!basic\/|public\/)(?<secret>[A-Za-z0-9]{12,64})(?=\/)/g },
  // Ops tools (adversary pass 28): Kafka's JAAS PlainLoginModule users (`user_svc-orders="…"`: F02), Redis Sentinel's
  // `sentinel auth-pass <master> pw` / `sentinel sentinel-pass pw` (F12), Kerberos' `kadmin -w pw` / `addprinc -pw pw` (F29),
  // Squid's `cache_peer … login=user:pw` (F37), Dovecot's `{PLAIN}pw` / `{CLEARTEXT}pw` (F39), Pulsar's `tokenSecretKey=data:;base64,…` (F06).
  { kind: 'password', keywords: ['user_'], needs: /LoginModule|\buser_[\w.-]+="/, re: /\buser_[\w.-]+[ \t]*=[ \t]*"(?<secret>[^"\n]+)(?=")/g, guard: true },
  { kind: 'password', keywords: ['auth-pass', 'sentinel-pass'], re: /\bsentinel[ \t]+(?:auth-pass[ \t]+\S+|sentinel-pass)[ \t]+(?<secret>\S+)/g, guard: true },
  { kind: 'password on command line', keywords: ['kadmin', 'addprinc', 'ktadd'], needs: /\b(?:kadmin(?:\.local)?|addprinc|add_principal|cpw|change_password)\b/, re: /(?:\bkadmin(?:\.local)?\b[^\n|;&]{0,1024}?[ \t]-w[ \t]+|\b(?:addprinc|add_principal|cpw|change_password)\b[^\n|;&]{0,1024}?[ \t]-pw[ \t]+)(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/g, guard: true },
  { kind: 'password', keywords: ['login='], needs: /\bcache_peer\b|\blogin=[^:\s]+:/, re: /\blogin=[^:\s]+:(?<secret>[^\s]+)/g, guard: true },
  // …and `{CRAM-MD5}` / `{DIGEST-MD5}`: stored for a challenge-response, each logs in as it stands (adv165 F4); a hash scheme stays.
  { kind: 'password', keywords: ['{plain}', '{cleartext}', '{plain-md5}', '{clear}', '{cram-md5}', '{digest-md5}'], re: /\{(?:PLAIN|CLEARTEXT|CLEAR)\}(?<secret>[^:\s]+)|\{(?:CRAM|DIGEST)-MD5\}(?<secret2>[0-9a-fA-F]{32,64})\b/g, guard: true },
  // Dovecot's auth debug log (adv165 F5): a SASL PLAIN answer (`AUTH\t1\tPLAIN\t…\tresp=<base64 of \0user\0password>`) and a
  // mismatch's typed password (`SHA512-CRYPT(<password>) != '<stored hash>'`), on an auth process's line only (a test's
  // `assert SHA256(payload) != '…'` is no password).
  { kind: 'password', keywords: ['resp='], needs: /\tPLAIN\t/, re: /\bAUTH\t[0-9]{1,10}\tPLAIN\t[^\n]{0,512}?\tresp=(?<secret>[A-Za-z0-9+\/]{8,1024}={0,2})/g },
  { kind: 'password', keywords: [") != '"], needs: /\bauth(?:-worker)?(?:\(\d{1,10}\))?: /, re: /\b[A-Z][A-Z0-9]{1,15}(?:-[A-Z0-9]{1,15}){0,3}\((?<secret>[^\n]{1,256}?)\) != '/g },
  // Postfix's `static:` map answers every lookup with its `user:password` (`smtp_sasl_password_maps = static:user:pw`: adv165 F3).
  { kind: 'password', keywords: ['static:'], needs: /_maps[ \t]*=/, re: /(?<![\w$])[a-z]\w{0,64}_maps[ \t]*=[ \t]*(?:[^\n]{0,256}?[ \t,])?static:[^:\s,]{1,256}:(?<secret>[^\s,]+)/g },
  { kind: 'secret', keywords: [';base64,'], needs: /(?:[Ss]ecret|[Kk]ey|[Tt]oken)\w*[ \t]*[=:][ \t]*data:;?base64,/, re: /(?:[Ss]ecret|[Kk]ey|[Tt]oken)\w*[ \t]*[=:][ \t]*data:;?base64,(?<secret>[A-Za-z0-9+\/=]{16,})/g },
  // A literal piped into a command that takes a credential on its input (`echo -n 'pw' | kubeseal --raw`, `| kinit`, `|
  // docker login --password-stdin`, `| chpasswd`: adv28 F23, F29), as shell history shows it.
  { kind: 'password on command line', keywords: ['kubeseal', 'kinit', 'password-stdin', 'chpasswd', 'with-token', '--stdin'], needs: /\|[ \t]*(?:sudo[ \t]+)?(?:kubeseal|kinit|chpasswd|passwd[ \t]+--stdin|htpasswd[ \t][^|\n]*-i|[\w-]+[ \t][^|\n]*--password-stdin|gh[ \t]+auth[ \t]+login[ \t][^|\n]*--with-token|vault[ \t]+login[ \t]+-)/, re: /\b(?:echo(?:[ \t]+-[neE]+)*|printf(?:[ \t]+'%s')?|cat[ \t]+<<<)[ \t]+(?<q>['"])(?<secret>(?:(?!\k<q>)[^\n$`\\]){4,4096})(?=\k<q>[ \t]*\|[ \t]*(?:sudo[ \t]+)?(?:kubeseal|kinit|chpasswd|passwd[ \t]+--stdin|htpasswd[ \t]|[\w-]+[ \t][^|\n]*--password-stdin|gh[ \t]+auth[ \t]+login|vault[ \t]+login))/g, guard: true },
  // A GitHub Actions runner's `.credentials_rsaparams` and a JWK's private members (`"d"`, `"p"`, `"q"`, `"dp"`, `"dq"`,
  // `"inverseQ"` / `"qi"`) in one-line JSON (F47).
  { kind: 'private key', keywords: ['"inverseq"', '"dp"', '"qi"'], needs: /"(?:inverseQ|dp|qi)"[ \t]*:/, re: /"(?:d|dp|dq|p|q|qi|inverseQ)"[ \t]*:[ \t]*"(?<secret>[A-Za-z0-9+\/=_-]{16,})(?=")/g },
  // …and pretty-printed, one member a line (the GitHub Actions runner's `.credentials_rsaparams`: `"d": "…",` then `"dp"`, …: pass 319
  // F1; a JWK's private members): `d`, `p`, `q`, `dq` each holding 40 or more characters of base64, not hex (a digest's).
  { kind: 'private key', keywords: ['"d"', '"p"', '"q"', '"dq"'], needs: /"(?:d|p|q|dq)"[ \t]*:[ \t]*"[A-Za-z0-9+\/_-]{40}/, re: /"(?:d|dq|p|q)"[ \t]*:[ \t]*"(?<secret>(?![0-9a-fA-F]{40,}")[A-Za-z0-9+\/=_-]{40,})(?=")/g },
  // …and .NET's XML of them (`RSA.ToXmlString(true)`: `<RSAKeyValue><Modulus>…</Modulus><Exponent>AQAB</Exponent><P>…</P>…<D>…</D>`,
  // on one line or one element a line: attack 323): the private members; the modulus and exponent are the public key's.
  // (Namespaced, `<xkms:D>` of an XKMS key pair; XML-escaped in a config's attribute, `&lt;D&gt;`; in JSON with its slashes
  // escaped, `<\/D>`: adv333 S14-S16. `P` and `Q` only where the line shows RSA: a DSA public key's `<P>`, `<Q>` are public, adv333 L1;
  // DSA's private `<X>` only beside DSA's `<Y>`: S13.)
  { kind: 'private key', keywords: ['<d>', '<p>', '<q>', '<dp>', '<dq>', '<inverseq>', ':d>', '&lt;d&gt;', '<x>'], needs: /(?:<|&lt;)(?:\w{1,16}:)?(?:D|P|Q|DP|DQ|InverseQ|X)(?:>|&gt;)(?:[A-Za-z0-9+\/]|\\\/){40}/, re: /(?:<|&lt;)(?:\w{1,16}:)?(?:(?<m>D|DP|DQ|InverseQ)|(?<pq>P|Q)(?=(?:>|&gt;)[^\n]*?(?:<|&lt;)(?:\w{1,16}:)?(?:DP|DQ|InverseQ|Modulus)(?:>|&gt;))|(?<=(?:<|&lt;)(?:\w{1,16}:)?(?:DP|DQ|InverseQ|Modulus|RSAKeyValue)(?:>|&gt;)[^\n]*?(?:<|&lt;)(?:\w{1,16}:)?)(?<pq2>P|Q)|(?<x>X)(?=(?:>|&gt;)[^\n]*?(?:<|&lt;)\/(?:\w{1,16}:)?DSAKeyValue)|(?<=(?:<|&lt;)(?:\w{1,16}:)?Y(?:>|&gt;)[^\n]*?(?:<|&lt;))(?<x2>X))(?:>|&gt;)(?<secret>(?:[A-Za-z0-9+\/]|\\\/){40,4096}={0,2})(?=(?:<|&lt;)\\?\/)/g },
  // `caddy hash-password --plaintext pw` (adv13 B24), Cassandra's and Hive's shells' `-p pw`, MQTT's `-P pw`, Windows' `net use … pw /user:`, `schtasks … /rp pw` (adv13 B23, B47, B50; `/rp *` prompts, a password may begin with `*`: adv173 F19).
  { kind: 'password on command line', keywords: ['--plaintext'], needs: /--plaintext/, re: /--plaintext(?:=|[ \t]+)(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/g },
  // …and Hive's JDBC URL's settings (`jdbc:hive2://h:10000/default;ssl=true -n etl -p …`), its main class run by java
  // (`org.apache.hive.beeline.BeeLine`: adv142 C5).
  { kind: 'password on command line', keywords: ['cqlsh', 'beeline'], needs: /cqlsh|beeline/i, re: /\b(?:cqlsh|beeline)\b(?:[^\n|;&]|;(?![ \t])){0,1024}?[ \t]-p[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"-][^\s'"]*)/gi },
  // SAP's `sapcontrol -user <user> <password>` (its password a positional after the user: pass 218 F20).
  { kind: 'password on command line', keywords: ['sapcontrol'], re: /\bsapcontrol\b[^\n|;&]{0,1024}?[ \t]-user[ \t]+\S{1,64}[ \t]+(?:\\"(?<secret2>(?:[^"\\\n]|\\[^"\n]){1,256})\\"|(?<secret>'[^'\n]+'|"[^"\n]+"|(?![-\\])[^\s'"\\]+))/g },
  // An FTP script's or a debug trace's login (`quote PASS …`, `literal PASS …`, `ftp -d`'s `---> PASS …`, `--> PASS`: pass 218 F22); a test
  // runner's `PASS src/a.test.ts` has neither.
  // The command is its line's (a line number or a grep mark before it): `string literal PASS (14 asserts)` of a test log is none (adv219 L3).
  { kind: 'password', keywords: ['quote pass ', 'literal pass ', '--> pass '], re: /^[ \t]*(?:[\w./-]{0,256}[:-])?(?:\d{1,9}[\t:-][ \t]*)?(?:(?:quote|literal)|-{2,3}>)[ \t]+PASS[ \t]+(?<secret>[^\s(]\S{0,255})[ \t]*\r?$/gim },
  // Informatica's `pmpasswd` (pass 218 F25): the encrypted form (pmpasswd decrypts it back) and the password it decrypts to.
  { kind: 'password', keywords: ['string -->', 'decrypt to -->'], re: /(?:Encrypted string|Will decrypt to) -->(?<secret>[^\n]{1,1024}?)<--/g },
  // A payment HSM's clear keys by their names (`acquirer.zpk.clear=<32 hex>`, `ZMK_COMPONENT_1`, `acquirerZpk`: pass 218 F15,
  // adv219 F38; not a key's check value, `zpk.kcv`: adv219 L6): zone and terminal
  // master and PIN keys, a DUKPT base key; single, double or triple length.
  { kind: 'key', keywords: ['zmk', 'zpk', 'tmk', 'tpk', 'bdk', 'ipek'], re: /(?:(?<![A-Za-z])(?:zmk|zpk|tmk|tpk|bdk|ipek|ZMK|ZPK|TMK|TPK|BDK|IPEK)(?![a-z])|(?<=[a-z])(?:Zmk|Zpk|Tmk|Tpk|Bdk|Ipek)(?![a-z]))(?:(?!kcv|KCV|check|Check|CHECK)[\w.-]){0,32}["']?[ \t]*[:=][ \t]*["']?(?<secret>[0-9A-Fa-f]{48}|[0-9A-Fa-f]{32}|[0-9A-Fa-f]{16})(?![0-9A-Fa-f])/g },
  // A key ceremony's clear components (`Component      : 1E27 09C0 … 8A66`, a Thales console's `Enter component:` echo: pass 218
  // F14): a double- or triple-length key in groups of four hex digits; its check value (`KCV: 1A2B3C`) is none.
  { kind: 'key', keywords: ['component'], re: /\bComponent[ \t]*(?:(?:#\d?|\d)[ \t]*)?:[ \t]*(?<secret>[0-9A-Fa-f]{4}(?:[ \t][0-9A-Fa-f]{4}){7}(?:(?:[ \t][0-9A-Fa-f]{4}){8}){0,2})(?![ \t]?[0-9A-Fa-f])/gi },
  // Magento's `bin/magento config:show` (`paypal/wpp/api_password - …`, `carriers/fedex/key - …`: blind pass 221 F4): a config
  // path of three segments, the last naming a secret, ` - `, the value.
  { kind: 'secret', keywords: ['pass', 'secret', 'key', 'token', 'signature'], sharesNameWords: true, needs: / - /, re: /^(?:[a-z0-9_]{1,64}\/){2}[a-z0-9_]{0,64}(?:password|secret|key|token|signature)[a-z0-9_]{0,32} - (?<secret>\S{6,1024})\r?$/gm },
  // A PKCS#11 URI's PIN (`pkcs11:token=…;object=…?pin-value=…`: adv219 F34); softhsm2-util's and pkcs11-tool's PINs (F35), each
  // of them on the line (`--pin … --so-pin …`: adv245 F49).
  { kind: 'password', keywords: ['pin-value='], re: /[?;&]pin-value=(?<secret>[^;&"'\s]{1,256})/g },
  { kind: 'password on command line', keywords: ['softhsm2-util', 'pkcs11-tool', 'p11tool'], re: /[ \t]--(?:so-)?pin(?<=\b(?:softhsm2-util|pkcs11-tool|p11tool)\b[^\n|;&]{0,1024}?[ \t]--(?:so-)?pin)(?:=|[ \t]+)(?<secret>'[^'\n]+'|"[^"\n]+"|(?![-$])[^\s'"]+)/g },
  // A game server's RCON clients (`mcrcon -H 127.0.0.1 -P 25575 -p …` in a unit's ExecStop: blind pass 217 F10; ARRCON's `-p`):
  // `-P` is the port.
  // FreeSWITCH's `fs_cli -H … -P 8021 -p …` (pass 215 F8, F9), SIPp's `-au user -ap …` (F37).
  // Informatica's `pmrep connect … -x`, `pmcmd … -p`, `infacmd … -pd` (adv219 F44, F45); Kamailio's `kamctl add <user> <pw>`, sipsak's
  // `-a` (F30); the value in a JSON string's escaped quotes too (a hook's log of the command: F28, F29).
  { kind: 'password on command line', keywords: ['mcrcon', 'arrcon', 'fs_cli', 'sipp', 'pmrep', 'pmcmd', 'infacmd', 'sipsak'], needs: /mcrcon|arrcon|fs_cli|sipp|pmrep|pmcmd|infacmd|sipsak/i, re: /\b(?:mcrcon|ARRCON|arrcon|fs_cli|sipp|sipsak|pmrep|pmcmd|infacmd(?:\.sh)?)\b(?:[^\n|;&]|;(?![ \t])){0,1024}?[ \t](?:-p|-ap|-a|-x|-pd|--pass(?:word)?)(?:=|[ \t]+)(?:\\"(?<secret2>(?:[^"\\\n]|\\[^"\n]){1,256})\\"|(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"\\-][^\s'"\\]*))/g },
  // …as an argv list (Python's `CalledProcessError: Command '['./bin/ARRCON', '-H', …, '-p', '…', …]'`: adv219 F27); `-P` is the port.
  { kind: 'password on command line', keywords: ['mcrcon', 'arrcon', 'fs_cli', 'sipp'], needs: /\[[ \t]*["'](?:[\w./-]*\/)?(?:mcrcon|ARRCON|arrcon|fs_cli|sipp)["']/, re: /\[[ \t]*["'](?:[\w./-]*\/)?(?:mcrcon|ARRCON|arrcon|fs_cli|sipp)["'][^\]\n]{0,1024}?["'](?:-p|-ap)["'][ \t]*,[ \t]*(?<q>["'])(?<secret>(?:(?!\k<q>)[^\n]){1,256})\k<q>/g, guard: true },
  // MAVProxy's MAVLink signing passphrase (`signing setup <phrase>`, `signing key <phrase>` in mavinit.scr: pass 222 F6); Husarnet's
  // join code (`JOINCODE=<ipv6>/<token>`: F36).
  { kind: 'password', keywords: ['signing setup ', 'signing key '], re: /^[ \t]*(?:[\w./-]{0,256}[:-])?(?:\d{1,9}[:-])?signing[ \t]+(?:setup|key)[ \t]+(?<secret>[^\s#]{6,256})[ \t]*\r?$/gm },
  { kind: 'token', keywords: ['husarnet join '], re: /\bhusarnet[ \t]+join[ \t]+(?:[0-9a-f]{1,4}(?::[0-9a-f]{0,4}){2,7}\/)?(?<secret>[A-Za-z0-9]{16,64})\b/g },
  { kind: 'token', keywords: ['joincode'], re: /(?:\b|_)JOINCODE["']?[ \t]*[=:][ \t]*["']?(?:[0-9a-f]{1,4}(?::[0-9a-f]{0,4}){2,7}\/)?(?<secret>[A-Za-z0-9]{16,64})\b/gi },
  // FreeRADIUS' `radtest [-t mschap] <user> <password> <server> <nas-port> <secret>` (pass 220 F13): its password and the shared secret.
  // (Six options at most: unbounded, a megabyte line of `radtest -x` tried every way of taking the options' words, 1,186 s.)
  { kind: 'password on command line', keywords: ['radtest'], re: /\bradtest(?:[ \t]+-[tPx46](?:[ \t]+(?!-)\S{1,32})?){0,6}[ \t]+\S{1,256}[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/g },
  { kind: 'password on command line', keywords: ['radtest'], re: /\bradtest(?:[ \t]+-[tPx46](?:[ \t]+(?!-)\S{1,32})?){0,6}[ \t]+\S{1,256}[ \t]+(?:'[^'\n]+'|"[^"\n]+"|[^\s'"]+)[ \t]+\S{1,256}[ \t]+\d{1,5}[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/g },
  { kind: 'password on command line', keywords: ['kamctl', 'pmpasswd'], re: /\b(?:kamctl[ \t]+(?:add|passwd)[ \t]+\S{1,128}|pmpasswd)[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|(?!-)[^\s'"]+)/g },
  { kind: 'password on command line', keywords: ['mosquitto_'], needs: /mosquitto_/, re: /\bmosquitto_(?:sub|pub|rr)\b[^\n|;&]{0,1024}?[ \t](?:-P|--pw)[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"-][^\s'"]*)/g },
  // A Teams incoming webhook (adv13 B40): its URL is the credential (`@` breaks the token run a vendor rule would read).
  { kind: 'teams webhook', keywords: ['webhook.office.com'], needs: /webhookb2/, re: /webhook\.office\.com\/webhookb2\/(?<secret>[\w@.-]+\/IncomingWebhook\/[0-9a-f]{32}\/[\w-]+(?:\/[\w-]+)?)/g },
  { kind: 'password on command line', keywords: ['net ', 'net\t'], needs: /net[ \t]+use/i, re: /\bnet[ \t]+use[ \t]+(?:(?:[A-Za-z]:|\*)[ \t]*)?\\\\\S+[ \t]+(?<secret>(?![/"'])[^\s"']+)(?=[ \t]+\/user:)/gi },
  { kind: 'password on command line', keywords: ['/rp '], needs: /\/rp[ \t]/i, re: /\bschtasks\b[^\n]{0,1024}?[ \t]\/rp[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|(?!\*(?:\s|$))[^\s'"]+)/gi },
  // redis-server's `--requirepass pw` (a Compose file's `command:`, `ps`: adv14 C45); ioredis' debug log of AUTH (`auth([ 'user', 'pw' ])`, C35).
  // …and as a JSON or YAML flow list's items (`command: ["redis-server", "--requirepass", "…"]`: adv60 F04).
  { kind: 'password on command line', keywords: ['requirepass'], needs: /--requirepass/, re: /--requirepass(?:=|[ \t]+|(?<q>["'])[ \t]*,[ \t]*(?=\k<q>))["']?(?<secret>[^\s'"]+)/g },
  { kind: 'password', keywords: ['auth'], sharesNameWords: true, needs: /auth\(\[/, re: /\bauth\(\[[ \t]*(?:'[^'\n]*'|"[^"\n]*")[ \t]*,[ \t]*['"](?<secret>[^'"\n]+)/g },
  // HAProxy (adv12 A09): `user admin insecure-password pw`, `stats auth admin:pw`.
  { kind: 'password', keywords: ['pass'], sharesNameWords: true, needs: /insecure-password/, re: /\binsecure-password[ \t]+(?<secret>[^\s]+)/g },
  { kind: 'password', keywords: ['auth'], sharesNameWords: true, needs: /stats[ \t]+auth/, re: /\bstats[ \t]+auth[ \t]+[^\s:]+:(?<secret>[^\s]+)/g },
  // `reg query` of a value named like a secret (adv12 A35: Winlogon's `DefaultPassword    REG_SZ    pw`), or its bytes (TightVNC's
  // `Password    REG_BINARY    84BE…`: DES under a fixed key, reversible: adv124 F33).
  // (An ODBC DSN's `PWD    REG_SZ    …` under `ODBC.INI`: adv251 F43.)
  { kind: 'password', keywords: ['pass', 'secret', 'token', 'key', 'pwd'], sharesNameWords: true, needs: /REG_(?:EXPAND_|MULTI_)?SZ|REG_BINARY/, re: /^[ \t]+(?:\w*(?:Password|Passwd|Secret|Token|ApiKey|AccessKey)\w*|PWD|Pwd)[ \t]+REG_(?:(?:EXPAND_|MULTI_)?SZ|BINARY)[ \t]+(?<secret>\S[^\r\n]*?)(?=[ \t]*\r?$)/gm },
  // `netsh wlan show profile name=X key=clear` (adv12 A36): `Key Content            : pw`.
  // And in other languages' Windows (adv20 F28: `Schlüsselinhalt`; French `Contenu de la clé`, Spanish `Contenido de la clave`;
  // the keyword table takes ASCII: the words' ASCII parts).
  { kind: 'password', keywords: ['key content', 'sselinhalt', 'contenu de la cl', 'contenido de la clave', 'do da chave', 'contenuto chiave'], needs: /Key Content|Schlüsselinhalt|Contenu de la cl|Contenido de la clave|Conteúdo da chave|Contenuto chiave/i, re: /(?:Key Content|Schlüsselinhalt|Contenu de la clé|Contenido de la clave|Conteúdo da chave|Contenuto chiave)[ \t]*:[ \t]*(?<secret>\S(?:[^\r\n]*\S)?)(?=[ \t]*\r?$)/gim },
  // PuTTY's `plink -pw pw`, `pscp -pw pw` (adv12 A40: as `ps` shows them).
  { kind: 'password on command line', keywords: ['-pw'], needs: /plink|pscp|psftp/, re: /\b(?:plink|pscp|psftp)(?:\.exe)?\b[^\n|;&]{0,1024}?[ \t]-pw[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/g },
  // An FTP or POP3 transcript (`curl -v ftp://…`'s `> PASS pw`, a `USER`/`PASS` exchange: adv12 A37): the command in capitals,
  // sent (`> `; lftp -d's `---> `: adv29 F21) or under its USER line; not jest's `PASS src/app.test.js`.
  { kind: 'password', keywords: ['pass'], sharesNameWords: true, needs: /(?:^|> )PASS /m, re: /(?:^|\n)(?:(?:---)?> PASS|(?<=(?:^|\n)(?:(?:---)?> )?USER [^\n]*\n(?:(?:<--- |< )[^\n]*\n)?)PASS)[ \t]+(?<secret>[^\s]+)/g },
  // An IMAP transcript (`curl -v imaps://…`'s `> A002 LOGIN user pw`, a client's `C: a1 LOGIN "user" "pw"`: adv29 F22): the
  // tagged LOGIN command's second argument, quoted or not; or behind a debug log's prefix (imaplib2's `DEBUG[imap]: … [sync] >
  // GMKJ2 LOGIN user "pw"`, offlineimap's `-d imap`: pass 259 F36).
  { kind: 'password', keywords: [' login '], needs: / LOGIN /, re: /(?:^|\n|[ \t]> (?:b['"])?)(?:> |C: )?[A-Za-z]{0,4}\d{1,6}[ \t]+LOGIN[ \t]+(?:"(?:[^"\\\n]|\\.)*"|[^\s"]+)[ \t]+(?:"(?<secret>(?:[^"\\\n]|\\.)+)(?=")|(?<secret2>[^\s"]+))/g },
  // Any `--<word>-key` / `--<word>-secret` option whose name says secret, then a token-like word (rclone's `--b2-key K001…` in
  // `pstree -a`: adv37 F40): letters and digits both, 16 characters and up, no file name.
  // Or with a section's dots and underscores (Nakama's `--socket.server_key …`: adv148 F16).
  { kind: 'key on command line', keywords: ['-key ', '-secret ', '-key\t', '-secret\t', '_key ', '_secret '], needs: /--[\w.-]{1,64}[-_](?:key|secret)[ \t]/, re: /(?<![A-Za-z0-9-])--(?<name>(?:[a-z0-9]+[-_.]){1,4}(?:key|secret))[ \t]+(?<secret>(?![-\/.])(?=[A-Za-z0-9+\/_=-]*\d)(?=[A-Za-z0-9+\/_=-]*[A-Za-z])[A-Za-z0-9+\/_=-]{16,512})(?![^\s'"])/g, guard: true },
  // The same in camelCase (CodePush's `release-react … --deploymentKey <key>`, `--apiKey`, `--clientSecret`: pass 176's next
  // forms), not a key that names a record or a public half (`--partitionKey`, `--publicKey`, `--kmsKey`).
  { kind: 'key on command line', keywords: ['key ', 'secret ', 'key=', 'secret='], needs: /--[a-z][a-z0-9]*(?:Key|Secret)[ \t=]/, re: /(?<![A-Za-z0-9-])--(?!(?:public|primary|partition|sort|foreign|cache|host|ssh|gpg|pgp|kms|idempotency|object|row|hash|range|lookup|index|map|message|dedup|routing|license|product|registry)(?:Key|Secret)\b)(?<name>[a-z][a-z0-9]{1,31}(?:Key|Secret))(?:[ \t]+|=)(?<secret>(?![-\/.])(?=[A-Za-z0-9+\/_=-]*\d)(?=[A-Za-z0-9+\/_=-]*[A-Za-z])[A-Za-z0-9+\/_=-]{16,512})(?![^\s'"])/g, guard: true },
  // Transmission's remote client with its RPC user and password (`transmission-remote host:9091 -n user:pw`, `--auth=user:pw`, as ps
  // shows it: pass 177 F17); `-ne` reads them from the environment.
  { kind: 'password on command line', keywords: ['transmission-remote'], re: /\btransmission-remote\b[^\n|;&]{0,1024}?[ \t](?:-n|--auth)(?:=|[ \t]+)["']?[^\s:'"]{1,128}:(?<secret>[^\s'"]{1,256})/g, guard: true },
  // Matrix's and Prosody's accounts made from a command line (pass 178 F9): Synapse's `register_new_matrix_user -u bot -p <pw> -k
  // <registration shared secret>`, `prosodyctl register <user> <host> <password>`.
  { kind: 'password on command line', keywords: ['register_new_matrix_user'], re: /[ \t](?:-p|--password|-k|--shared-secret)(?<=\bregister_new_matrix_user\b[^\n|;&]{0,1024}[ \t](?:-p|--password|-k|--shared-secret))(?:=|[ \t]+)(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"-][^\s'"]*)/g, guard: true },
  { kind: 'password on command line', keywords: ['prosodyctl register'], re: /\bprosodyctl[ \t]+register[ \t]+[^\s'"]{1,128}[ \t]+[^\s'"]{1,253}[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"-][^\s'"]*)/g, guard: true },
  // ZNC's znc.conf (pass 178 F48): a network's `Server = <host> [+]<port> <password>` (the password a bouncer's `user/network:pw`
  // when the server is another ZNC) and the nickserv module's password argument (`LoadModule = nickserv <pw>`), under grep's prefix or
  // not.
  { kind: 'password', keywords: ['server =', 'server='], needs: /^(?:[^\s:]{1,256}[-:])?(?:\d{1,9}[-:])?[ \t]*Server[ \t]*=/m, re: /^(?:[^\s:]{1,256}[-:])?(?:\d{1,9}[-:])?[ \t]*Server[ \t]*=[ \t]*[A-Za-z0-9.:[\]-]{1,253}[ \t]+\+?\d{1,5}[ \t]+(?<secret>[^\s]{1,256})[ \t]*\r?$/gm, guard: true },
  { kind: 'password', keywords: ['nickserv'], needs: /LoadModule[ \t]*=[ \t]*nickserv[ \t]/i, re: /\bLoadModule[ \t]*=[ \t]*nickserv[ \t]+(?<secret>[^\s]{1,256})[ \t]*\r?$/gim, guard: true },
  // Expo's CLI login with a password (`expo login -u dev -p …`, `expo-cli login --password …`) and an EAS secret or environment
  // variable set from a command line (`eas secret:create --name X --value …`, `eas env:create … --visibility secret --value …`; a
  // plain one, `--visibility plaintext`, is a setting).
  { kind: 'password on command line', keywords: ['expo login', 'expo-cli login'], re: /\bexpo(?:-cli)?[ \t]+login\b[^\n|;&]{0,1024}?[ \t](?:-p|--password)(?:=|[ \t]+)(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"-][^\s'"]*)/g, guard: true },
  { kind: 'secret', keywords: ['eas secret:', 'eas env:'], re: /\beas[ \t]+(?:secret:(?:create|push)|env:(?:create|update)(?=[^\n]{0,1024}--visibility(?:=|[ \t]+)(?:secret|sensitive)\b))\b[^\n|;&]{0,1024}?[ \t]--value(?:=|[ \t]+)(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"$-][^\s'"]*)/g, guard: true },
  { kind: 'password on command line', keywords: ['login'], needs: /login/, re: /\b(?:docker|podman|nerdctl|buildah|skopeo|helm|oras|crane)[ \t]+(?:registry[ \t]+)?login\b[^\n|;&]{0,1024}?[ \t](?:-p|--password)(?:=|[ \t]+)(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/g },
  // `--user` and `--proxy-user` are found from `-us` (a Mailchimp key's word): their own words cost the keyword table ~30 states.
  // curl's short options run together, `-u` last (`curl -fsSu elastic:pw`: adv38 F25).
  // Maven's encrypted passwords alone on a line (`mvn --encrypt-master-password` prints `{<base64>}`: adv118 F29), reversible by
  // design (settings-security.xml's master password decrypts the others; its key is Maven's own). In an element, `<password>`'s rule.
  { kind: 'maven encrypted password', keywords: ['=}'], needs: /^[ \t]*\{[A-Za-z0-9+/]{20,}={1,2}\}[ \t]*\r?$/m, re: /^[ \t]*\{(?<secret>[A-Za-z0-9+/]{20,512}={1,2})\}[ \t]*\r?$/gm },
  // pgbouncer's userlist.txt (`"user" "password"` a line, not indented: adv114 F04); its md5 and SCRAM hashes stay, as hashes do.
  { kind: 'password', keywords: ['" "'], needs: /^"[^"\s]{1,64}" "/m, re: /^"[^"\s]{1,64}"[ \t]+"(?!md5[0-9a-f]{32}"|SCRAM-SHA-256\$)(?<secret>(?=[^"\s]{0,255}\d)(?=[^"\s]{0,255}[A-Za-z])[^"\s]{8,256})(?="[ \t]*\r?$)/gm, guard: true },
  // Nagios' and Icinga's database checks (`check_mysql -H db -u nagios -p '…'`, `check_pgsql -p …`: adv116 F46).
  { kind: 'password on command line', keywords: ['check_mysql', 'check_pgsql'], re: /\bcheck_(?:mysql(?:_query)?|pgsql)\b[^\n|;&]{0,1024}?[ \t](?:-p|--password)(?:=|[ \t]*)(?<secret>'[^'\n]+'|"[^"\n]+"|(?![-$])[^\s'"]+)/g, guard: true },
  // Better Stack's heartbeat URL (`https://uptime.betterstack.com/api/v1/heartbeat/<token>`: a cron's `curl`, adv116 F44, F45).
  { kind: 'heartbeat token', keywords: ['/heartbeat/'], needs: /betterstack\.com\/api\/v\d\/heartbeat\//, re: /betterstack\.com\/api\/v\d\/heartbeat\/(?<secret>[A-Za-z0-9]{16,64})/g },
  // PagerDuty's Events v2 integration key (`"routing_key":"R0…"`; a broker's routing key is none: NOT_SECRET_KEY_NAME): its shape, 32 characters from R0.
  { kind: 'pagerduty routing key', keywords: ['routing_key'], needs: /routing_key["']?[ \t]*[:=][ \t]*["']?R0/, re: /routing_key["']?[ \t]*[:=][ \t]*["']?(?<secret>R0[A-Za-z0-9]{30})(?![A-Za-z0-9])/g },
  // etcdctl's and etcd's `--user name:password` (adv114 F47).
  { kind: 'password on command line', keywords: ['etcdctl'], needs: /--user[ \t=]/, re: /\betcdctl\b[^\n|;&]{0,1024}?[ \t]--user(?:=|[ \t]+)(?:'|")?[^\s:'"]+:(?:'(?<secret2>[^'\n]+)(?=')|(?<secret>[^\s'"]+))/g, guard: true },
  // An API key sent as the user with no password (`curl -u live_…:` of Scale's, Stripe's `-u sk_live_…:`: 136 F43), and curl's
  // verbose echo of it (`* Server auth using Basic with user '…'`): the user is the credential when its password is empty; a
  // key's length and a digit in it (a user's name is shorter, or words).
  // (Not a Twilio account SID, an id, as the user beside its token: `curl -u AC…:$TOKEN`, adv156 F8.)
  { kind: 'api key as user', keywords: [' -u', '\t-u', 'with user'], needs: /curl|with user '/, re: /(?:\bcurl\b[^\n|;&]{0,1024}?[ \t](?:-u|--user)(?:=|[ \t]*)["']?(?<secret>(?=[\w-]*\d)[\w-]{24,256}):(?=["']?(?:[ \t]|\r?$))|\bauth using \w+ with user '(?!AC[0-9a-f]{32}')(?<secret2>(?=[\w-]*\d)[\w-]{24,256})'(?=[ \t]*\r?$))/g, guard: true },
  // The user may be empty (`curl -u :<PAT>`: Azure DevOps' token as the password, adv145 F22).
  { kind: 'password on command line', keywords: [' -u', '\t-u', '-us', 'curl'], needs: /curl|wget|http|xh/, re: /\b(?:curl|wget|http|httpie|xh)\b[^\n|;&]{0,1024}?[ \t](?:-u|-[A-Za-z]{1,8}u(?=[ \t]*[^\s:'"]+:)|--user|--proxy-user|-U)(?:=|[ \t]*)(?:'|")?[^\s:'"]*:(?:'(?<secret2>[^'\n]+)(?=')|(?<secret>[^\s'"]+))/g },
  { kind: 'password on command line', keywords: ['--pass', '--db-password', '--admin-password', '--client-secret', '--secret', '--token', '--api-key', '--apikey', '--access-token', '--auth-token', '--http-password', '--ftp-password', '--proxy-password', '--private-key-password', '--registry-password', '--oauth-token', '--bearer-token', '--pwd', '--sec-attr'], needs: /--/, re: /(?<![A-Za-z0-9-])--(?:password|passwd|pass|pwd|db-password|admin-password|client-secret|secret|token|api-key|apikey|access-token|auth-token|http-password|ftp-password|proxy-password|passphrase|private-key-password|registry-password|oauth-token|bearer-token|sec-attr)(?:=|[ \t]+(?!via the CLI)|(?<q>["'])[ \t]*,[ \t]*(?=\k<q>))(?:[A-Z][A-Z0-9_]*=|id=)?(?<secret>'[^'\n]+'|"[^"\n]+"|(?![-$<]|\[masked)[^\s'"]+)/g, guard: true },
  // Any long option that ends in a credential's word (`--db-pass pw`, `--admin-token=t`, `--aws-secret-key k`): as `ps` shows a worker's flags.
  // Not a switch that turns one off or asks for it (`--no-password`, `--skip-password db`), nor a pagination token (`--starting-token`).
  // Azure's `--account-key '…'` quoted too (adv142 C7: unquoted the name rule took it, single-quoted nothing did).
  // Or glued, a word then `secret` (SuiteCloud's `--tokenid … --tokensecret <hex>`, `--clientsecret`: pass 265 S33). (The option's
  // name read 64 characters at most: unbounded, a run of dashes was read to its end from each of its dashes, quadratic.)
  { kind: 'password on command line', keywords: ['pass', 'pwd', 'secret', 'token', 'key'], sharesNameWords: true, needs: /--(?:[\w-]{1,64}[-_](?:pass(?:word|wd)?|pwd|secret|token|key|api-?key)|master-key|(?:token|client|consumer|app|api|oauth|access|shared)secret)\b/i, re: /(?<![\w-])--(?!(?:no|skip|without|disable|ask|prompt|read|next|starting|page|continuation|pagination|resume|sync)[-_])(?:[a-z][\w-]{0,64}[-_](?:password|passwd|pass|pwd|secret|token|api-?key|access-key|secret-key|auth-key|account-key|storage-key|shared-key|sas-token)|master-key|account-key|storage-key|sas-token|(?:token|client|consumer|app|api|oauth|access|shared)secret)(?:=|[ \t]+)(?<secret>'[^'\n]+'|"[^"\n]+"|(?![-$<]|\[masked)[^\s'"]+)/gi, guard: true },
  // Proxmox's login ticket (`PVE:root@pam:<hex time>::<base64 signature>`, `/api2/json/access/ticket`'s `"ticket"` and the
  // `PVEAuthCookie`: adv143 F08); Backup Server's and Mail Gateway's too. The user and the time stay.
  { kind: 'proxmox ticket', keywords: ['pve:', 'pbs:', 'pmg:'], re: /(?<![\w-])(?:PVE|PBS|PMG):[\w.@%-]{1,128}:[0-9A-F]{8}::(?<secret>[A-Za-z0-9+/]{40,1024}={0,2})/g },
  // A notification service's URL as Apprise writes it (Home Assistant's, Uptime Kuma's, changedetection's `notify` settings):
  // the service's keys are the URL's user, host and path (`pover://<user key>@<token>`, `discord://<id>/<token>`,
  // `slack://T…/B…/<token>`, `gotify://host/<token>`, `pbul://<token>`: adv143). Each part shaped like a key (letters and digits,
  // both, 15 and up; no host's name, before a dot) is one; ids of digits (a webhook's, a chat's) and short ids stay. (The cheap
  // tests first: the URL's head is read back only from a part's start, 15 characters long.)
  { kind: 'notification url token', keywords: APPRISE_SCHEMES.map((x) => `${x}://`), re: new RegExp(String.raw`(?<=[\/@:])(?=(?:o\.)?[A-Za-z0-9_-]{15})(?<=(?<![\w+.-])(?:${APPRISE_SCHEMES.join('|')}):\/\/(?:[^\s'"<>]{0,512}?[\/@:])?)(?<secret>(?=[\w.-]{0,127}\d)(?=[\w.-]{0,127}[A-Za-z])(?:o\.)?[A-Za-z0-9_-]{15,128})(?![\w-]|\.[A-Za-z])`, 'gi') },
  // Uptime Kuma's push monitor token in its URL's path (`/api/push/<token>?status=up`: adv143 F11).
  { kind: 'push token in url', keywords: ['/api/push/'], re: /\/api\/push\/(?<secret>(?=[A-Za-z0-9]{0,63}\d)(?=[A-Za-z0-9]{0,63}[A-Za-z])[A-Za-z0-9]{8,64})(?=[?#/\s"'&]|$)/g },
  // A command line as a program's list of arguments (Python's `subprocess` in a traceback: `["redis-cli", "-h", "redis", "-a",
  // "<pw>"]`: adv143 F28): a password flag's next item, for the clients that take one so.
  { kind: 'password on command line', keywords: ['redis-cli', 'mysql', 'mariadb', 'sshpass', 'mongosh', 'mongo', 'beeline', 'sqlcmd', 'valkey-cli'], needs: /\[[ \t]*["'](?:[\w./-]*\/)?(?:redis-cli|valkey-cli|mysql|mysqldump|mariadb|sshpass|mongo|mongosh|mongodump|beeline|sqlcmd)["']/, re: /\[[ \t]*["'](?:[\w./-]*\/)?(?:redis-cli|valkey-cli|mysql|mysqldump|mariadb|sshpass|mongo|mongosh|mongodump|beeline|sqlcmd)["'][^\]\n]{0,1024}?["'](?:-a|-p|-P|--pass|--password|--pwd)["'][ \t]*,[ \t]*(?<q>["'])(?<secret>(?:(?!\k<q>)[^\n]){1,256})\k<q>/g, guard: true },
  // A long option that ends in `auth` with a credential's value (`--twilio-auth <32 hex>` in systemd's CGroup line: adv144 C7): a
  // digit and 12 characters (`--http-auth basic` is a scheme).
  { kind: 'password on command line', keywords: ['auth'], sharesNameWords: true, needs: /--[\w-]{1,64}[-_]auth\b/i, re: /(?<![\w-])--[a-z][\w-]{0,64}[-_]auth(?:=|[ \t]+)(?<secret>(?=[^\s'"]*\d)[^\s'"$<-][^\s'"]{11,255})/gi, guard: true },
  // az's device keys (`az iot hub device-identity create … --pk <base64> --sk <base64>`: adv144 C5).
  { kind: 'key on command line', keywords: ['--pk', '--sk', '--primary-key', '--secondary-key'], needs: /\baz\b/, re: /[ \t]--(?:pk|sk|primary-key|secondary-key)(?:=|[ \t]+)["']?(?<secret>[A-Za-z0-9+/]{16,512}={0,2})/g },
  // A setting's `name value` line of a config file with no `=` (mosquitto's bridge `remote_password <pw>`: adv143 F35, adv144 F4),
  // grep's file name and line number before it: a name of words joined by `_` in lower case (a config file's; `API_SECRET bytes:`
  // is a label) that ends in a credential's word; the value may hold `#` (mosquitto's comments start a line), not end in `:`, and
  // is no lower-case word or SQL type (a table's `api_token text,`, `api_token varchar(64)`).
  { kind: 'password', keywords: ['_password ', '_passwd ', '_secret ', '_token '], sharesNameWords: true, needs: /_(?:password|passwd|secret|token)[ \t]+\S/i, re: /^(?:[\w./-]{1,256}[:-])?(?:\d{1,7}[:-])?[ \t]*(?:[a-z][a-z0-9]*_){1,6}(?:password|passwd|secret|token)[ \t]+(?<secret>(?![a-z]+(?:\(\d+(?:,\d+)?\))?[,;]?[ \t]*\r?$)[^\s#'"=:{[(<][^\s'"]{2,254}[^\s'":,;])[ \t]*\r?$/gm, guard: true },
  // The same in camelCase (`--dbPassword pw`, `--adminToken=t`, `--awsSecretKey k`: yargs and commander take either spelling); the word's capital
  // says where it starts. Not `--noPassword`, `--nextToken`, `--pageToken` (AWS SDK and Google API pagination).
  { kind: 'password on command line', keywords: ['pass', 'pwd', 'secret', 'token', 'key'], sharesNameWords: true, needs: /--[a-z][a-zA-Z0-9]*(?:Pass|Pwd|Secret|Token|Key)/, re: /(?<![\w-])--(?!(?:no|skip|without|disable|ask|prompt|read|next|starting|page|continuation|pagination|resume|sync|nextPage)[A-Z])[a-z][a-zA-Z0-9]*(?:Password|Passwd|Pass|Pwd|Secret|Token|ApiKey|AccessKey|SecretKey|AuthKey|MasterKey)(?:=|[ \t]+)(?<secret>'[^'\n]+'|"[^"\n]+"|(?![-$<]|\[masked)[^\s'"]+)/g, guard: true },
  { kind: 'password on command line', keywords: ['password=', 'pwd=', 'auth=', 'sshpass='], needs: /PASSWORD=|PWD=|AUTH=|SSHPASS=/, re: /(?<![A-Za-z0-9_])(?:PGPASSWORD|MYSQL_PWD|REDISCLI_AUTH|SSHPASS|PASSWORD|MSSQL_SA_PASSWORD|SA_PASSWORD|ANSIBLE_VAULT_PASSWORD)=(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'";]+)/g },
  // Vertica's `vsql -w PW`, openfortivpn's `-p PW` / `--password=PW`, `wpa_passphrase SSID PW` (a Wi-Fi passphrase), as ps and
  // history show them (adv49 F23, F26, F27).
  { kind: 'password on command line', keywords: ['vsql'], needs: /\bvsql\b/, re: /\bvsql\b[^\n|;&]{0,1024}?[ \t]-w[ \t]*(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"-][^\s'"]*)/g, guard: true },
  { kind: 'password on command line', keywords: ['openfortivpn'], re: /\bopenfortivpn\b[^\n|;&]{0,1024}?[ \t](?:-p[ \t]+|--password[= ])(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"-][^\s'"]*)/g, guard: true },
  { kind: 'wifi passphrase', keywords: ['wpa_passphrase'], re: /\bwpa_passphrase[ \t]+(?:'[^'\n]*'|"[^"\n]*"|[^\s'"|;&]+)[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"|;&<>]+)/g, guard: true },
  // expect's answer to a password prompt (`expect "assword:"; send "pw\r"`, in `expect -c` on a command line or a script: adv49 F24).
  { kind: 'password', keywords: ['send "', 'send \\"', 'send --'], needs: /assword|assphrase/, re: /(?:assword|assphrase)[^\n]{0,64}?(?:\r?\n[ \t]*)?\bsend[ \t]+(?:--[ \t]+)?\\?"(?<secret>(?:[^"\\\n]|\\[^r"\n]){1,1024}?)(?=\\r\\?")/g, guard: true },
  // Perl DBI's `connect($dsn, $user, $password)` as a stack trace prints its arguments (`Carp::confess`: `main::db_connect("dbi:Pg:
  // dbname=app;host=db", "app", "<password>") called at …`: adv100 F20), or code writes it: the string after the DSN's and the user's.
  // A session's id looked up in the table that stores sessions (Laravel's database driver: ``select * from `sessions` where `id` =
  // <40 characters>`` in a QueryException's SQL, adv122 F46; Django's `django_session` by its `session_key`): a live session's token.
  { kind: 'session id', keywords: ['sessions', 'django_session'], re: /\b(?:from|update)[ \t]+[`"]?(?:sessions|django_session)[`"]?[ \t]+(?:set[ \t][^\n]{0,256}?[ \t])?where[ \t]+[`"]?(?:id|session_key)[`"]?[ \t]*=[ \t]*['"]?(?<secret>[A-Za-z0-9]{32,128})(?![A-Za-z0-9])/gi },
  // PHP's PDO constructor's arguments (dsn, user, password) in a trace: Laravel's debug JSON (`"class":"PDO","type":"->",
  // "args":["mysql:host=…","forge","<pw>"`) and PHP's text trace (`PDO->__construct('mysql:…', 'forge', '<pw>', Array)`: adv104 F10).
  { kind: 'password', keywords: ['"pdo"'], re: /"class":[ \t]*"PDO"[^\n{}]{0,256}?"args":[ \t]*\[[ \t]*"[^"\n]{0,512}",[ \t]*"[^"\n]{0,256}",[ \t]*"(?<secret>[^"\n]{1,256})(?=")/g, guard: true },
  { kind: 'password', keywords: ['pdo->__construct('], re: /PDO->__construct\('[^'\n]{0,512}', '[^'\n]{0,256}', '(?<secret>[^'\n]{1,256})(?=')/g, guard: true },
  // A JWT's signing key as the call's second argument in code a traceback shows (`jwt.encode({…}, "<key>", algorithm="HS256")`,
  // `jwt.sign(payload, '<key>', {…})`: adv104 F04): the quoted argument after the first top-level comma that ends an argument.
  { kind: 'jwt signing key', keywords: ['jwt.encode(', 'jwt.sign(', 'jwt.decode(', 'jwt.verify('], re: /\bjwt\.(?:encode|sign|decode|verify)\([^\n]{0,512}?,[ \t]*(?<q>["'])(?<secret>[^"'\n]{8,512})(?=\k<q>[ \t]*[,)])/g, guard: true },
  // WildFly Elytron's credential reference with its password in clear (`<credential-reference clear-text="…"/>`: adv104 F30).
  // Credentials encrypted with a key that sits beside them on the same host (adv172 F8, F24): WebLogic's `{AES256}…` / `{AES}…` /
  // `{3DES}…` (the domain's SerializedSystemIni.dat decrypts them: WLST's `decrypt()`), IIS's `[enc:IISCngProvider:…:enc]` (the
  // machine's key container). Whoever reads the file can read the password.
  { kind: 'encrypted password', keywords: ['{aes', '{3des}'], re: /\{(?:AES256|AES|3DES)\}(?<secret>[A-Za-z0-9+/]{16,4096}={0,2})/g },
  { kind: 'encrypted password', keywords: ['[enc:'], re: /\[enc:[A-Za-z]{1,64}:(?<secret>[A-Za-z0-9+/]{16,8192}={0,2}):enc\]/g },
  // A Windows DPAPI blob in hex (`ConvertFrom-SecureString`'s output, `Export-Clixml`'s `<SS N="Password">…</SS>`: adv173 F17):
  // its header (version 1, DPAPI's provider GUID) then the encrypted password, which the user's own session decrypts.
  { kind: 'dpapi blob', keywords: ['01000000d08c9ddf0115d1118c7a00c04fc297eb'], re: /(?<secret>01000000d08c9ddf0115d1118c7a00c04fc297eb[0-9a-fA-F]{16,65536})/gi },
  // Impacket's and its kin's targets and hashes (adv173 F26): `impacket-psexec 'corp/administrator:pw@10.0.0.5'`, `secretsdump.py
  // dom/user:pw@dc`, `-hashes LM:NT` (an NT hash logs in by pass-the-hash; LM's empty-password constant is kept), `evil-winrm -H
  // <NT>` / `-p pw`, `nxc smb … -p pw` / `-H <NT>`, `pth-winexe -U 'dom/user%LM:NT'`; `getTGT.py 'dom/user:pw'` has no host.
  { kind: 'password on command line', keywords: ['impacket', 'psexec', 'wmiexec', 'smbexec', 'atexec', 'dcomexec', 'secretsdump', 'gettgt', 'getst', 'getnpusers', 'getuserspns', 'lookupsid', 'mssqlclient', 'smbclient.py'], re: /\b(?:impacket-\w+|(?:psexec|wmiexec|smbexec|atexec|dcomexec|secretsdump|getTGT|getST|GetNPUsers|GetUserSPNs|lookupsid|mssqlclient|smbclient|rpcdump|reg|services|ticketer|addcomputer)\.py)\b[^\n|;&]{0,1024}?[ \t](?<!-hashes[ \t])['"]?(?:[\w.-]{1,256}\/)?[\w.$-]{1,256}:(?<secret>[^@\s'"]{1,256})(?:@|(?=['"]?(?:[ \t]|\r?$)))/gm, guard: true },
  { kind: 'nt hash', keywords: ['-hashes'], re: /[ \t]-hashes[ \t]+['"]?(?:[0-9a-fA-F]{32})?:(?<secret>[0-9a-fA-F]{32})\b/g },
  { kind: 'nt hash', keywords: ['-hashes'], re: /[ \t]-hashes[ \t]+['"]?(?!aad3b435b51404eeaad3b435b51404ee)(?<secret>[0-9a-fA-F]{32}):/gi },
  // (And the other AD tools that take `-p`: bloodhound-python, certipy, bloodyAD, ldapdomaindump, smbmap, enum4linux, coercer,
  // rusthound, pywhisker: adv247 F30.)
  { kind: 'password on command line', keywords: ['evil-winrm', 'nxc', 'netexec', 'crackmapexec', 'cme ', 'bloodhound', 'certipy', 'bloodyad', 'ldapdomaindump', 'smbmap', 'enum4linux', 'coercer', 'rusthound', 'pywhisker'], re: /\b(?:evil-winrm|nxc|netexec|crackmapexec|cme|bloodhound(?:-ce)?-python|certipy(?:-ad)?|bloodyAD|ldapdomaindump|smbmap|enum4linux(?:-ng)?|coercer|rusthound(?:-ce)?|pywhisker(?:\.py)?)\b[^\n|;&]{0,1024}?[ \t](?:-p|--password|-H|--hash(?:es)?)[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|(?![-$<])[^\s'"]+)/g, guard: true },
  { kind: 'nt hash', keywords: ['pth-'], re: /\bpth-\w+\b[^\n|;&]{0,1024}?[ \t]-U[ \t]*['"]?[^\s%'"]{1,256}%(?:[0-9a-fA-F]{32}:)?(?<secret>[0-9a-fA-F]{32})/g },
  // rdesktop's `-p pw` (`-p -` reads it from stdin).
  { kind: 'password on command line', keywords: ['rdesktop'], re: /\brdesktop\b[^\n|;&]{0,1024}?[ \t]-p[ \t]*(?<secret>'[^'\n]+'|"[^"\n]+"|(?![-$<])[^\s'"]+)/g, guard: true },
  // SqlPackage's target and source passwords (`/tp:pw`, `/TargetPassword:pw`, `/sp:`, `/SourcePassword:`).
  { kind: 'password on command line', keywords: ['sqlpackage'], re: /\bsqlpackage(?:\.exe)?\b[^\n|;&]{0,1024}?[ \t]\/(?:tp|sp|TargetPassword|SourcePassword):(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/gi, guard: true },
  // PowerShell's SecureString exported with a key (`ConvertFrom-SecureString -Key`: its AES form's fixed header), and DPAPI's blob in
  // base64 (`AQAAANCMnd8BFdERjHoAwE/Cl+s…`, its header's base64): each decrypts where its key is.
  { kind: 'dpapi blob', keywords: ['76492d1116743f0423413b16050a5345'], re: /(?<secret>76492d1116743f0423413b16050a5345[A-Za-z0-9+/]{16,65536}={0,2})/g },
  { kind: 'dpapi blob', keywords: ['aqaaancmnd8bfderjhoawe'], re: /(?<secret>AQAAANCMnd8BFdERjHoAwE\/Cl\+[s-v][A-Za-z0-9+/]{16,65536}={0,2})/g },
  // Windows setup's encoded password decoded (`… | base64 -d | iconv -f utf-16le`: adv173 F4): the password with `Password` or
  // `AdministratorPassword` glued to its end, a line of its own; before `Password` alone a digit or a symbol in it (an identifier,
  // `ResetPassword`, stays).
  { kind: 'windows setup password', keywords: ['password'], sharesNameWords: true, needs: /Password\r?$/m, re: /^(?:(?<secret2>[^\s<>"'=:]{6,256}?)AdministratorPassword|(?=[^\s]*[\d!#$%&*+.?@^~])(?<secret>[^\s<>"'=:]{6,256}?)Password)\r?$/gm },
  // WildFly's legacy security realm identity (`<server-identities><secret value="<base64 of the password>"/>`: adv172 F4).
  { kind: 'password', keywords: ['<secret'], re: /<secret[ \t]+value=(?<q>["'])(?<secret>[^"'\n]{1,1024})(?=\k<q>)/g, guard: true },
  { kind: 'password', keywords: ['clear-text='], re: /\bclear-text=(?<q>["'])(?<secret>[^"'\n]{1,256})(?=\k<q>)/g, guard: true },
  // SmallRye Config's debug log of where each setting came from (Quarkus: `SRCFG01001: The config quarkus.datasource.password was
  // loaded from application.properties:10 with the value <pw>`: adv104 F13): the value, when the setting's name says secret.
  { kind: 'secret', keywords: ['with the value '], re: /\bThe config (?<name>[\w.\[\]"-]{1,256}) was loaded from [^\n]{0,512}? with the value (?<secret>\S{1,512})/g, guard: true },
  { kind: 'password', keywords: ['dbi:'], re: /(?<q>["'])dbi:[A-Za-z]\w{0,31}:[^"'\n]{0,512}\k<q>,[ \t]*(?<q2>["'])[^"'\n]{0,256}\k<q2>,[ \t]*(?<q3>["'])(?<secret>[^"'\n]{1,256})(?=\k<q3>)/g, guard: true },
  // expect's debug log (`expect -d`: `send: sending "<password>\r" to { exp4 }`, the prompt matched lines above: adv97 F27): a
  // made word (upper and lower case and a digit or symbol, no blank): a command sent (`ls -la`, `./deploy.sh`, `yes`) is none.
  { kind: 'password', keywords: ['send: sending'], re: /\bsend: sending "(?<secret>(?=[^"\s]{0,255}[a-z])(?=[^"\s]{0,255}[A-Z])(?=[^"\s]{0,255}[^A-Za-z"\s])[^"\s\\]{8,256})(?=(?:\\r|\\n)?" to \{)/g, guard: true },
  // Kubernetes' exec / attach over a websocket sends the bearer token base64url-encoded as a subprotocol
  // (`Sec-WebSocket-Protocol: base64url.bearer.authorization.k8s.io.<token>`: adv49 F08).
  { kind: 'kubernetes bearer token', keywords: ['bearer.authorization.k8s.io.'], re: /base64url\.bearer\.authorization\.k8s\.io\.(?<secret>[A-Za-z0-9_-]{8,8192})/g },
  // rabbitmqadmin's `-p` / `--password` (a CI log's `set -x` line: adv126 F24); its `-P` is a port. twine's (`twine upload -u __token__
  // -p pypi-…` in a CI step: 129 F25).
  { kind: 'password on command line', keywords: ['rabbitmqadmin', 'twine'], re: /\b(?:rabbitmqadmin|twine)\b[^\n|;&]{0,1024}?[ \t](?:-p|--password(?:=|[ \t]))[ \t]*(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/g },
  { kind: 'password on command line', keywords: ['redis-cli', 'valkey-cli', 'keydb-cli'], needs: /(?:redis|valkey|keydb)-cli/, re: /\b(?:redis|valkey|keydb)-cli\b[^\n|;&]{0,1024}?[ \t]-a[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/g },
  { kind: 'password on command line', keywords: ['mongo'], needs: /mongo/, re: /\b(?:mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport)\b[^\n|;&]{0,1024}?[ \t]-p[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"-][^\s'"]*)/g },
  { kind: 'password on command line', keywords: ['sqlcmd', 'osql', 'bcp', 'ldap', 'smbclient', 'rpcclient', 'net ', 'net\t'], needs: /sqlcmd|SQLCMD|osql|OSQL|bcp|BCP|ldap|smbclient|rpcclient|net[ \t]+(?:use|ads|rpc)/, re: /\b(?:sqlcmd|SQLCMD|osql|OSQL|bcp|BCP|ldapsearch|ldapmodify|ldapadd|ldapdelete|ldappasswd|smbclient|rpcclient|net[ \t]+(?:use|ads|rpc))\b[^\n|;&]{0,1024}?[ \t](?:-P|-w|-U[ \t]*[^\s%]+%)[ \t]*(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"-][^\s'"]*)/g },
  { kind: 'password on command line', keywords: ['openssl'], needs: /openssl/, re: /\bopenssl\b[^\n]{0,1024}?-pass(?:in|out)?[ \t]+pass:(?<secret>[^\s'"]+)/g },
  { kind: 'password on command line', keywords: ['lftp'], needs: /lftp/, re: /\blftp\b[^\n]{0,1024}?[ \t]-u[ \t]+[^\s,]+,(?<secret>[^\s'"]+)/g },
  // NcFTP's clients (`ncftpput -u user -p 'pw' host dir file` in a history: 141 F25).
  // Nextcloud's and ownCloud's sync clients (`nextcloudcmd -u alice -p <app password> DIR URL` in `ps`: pass 241 F23).
  { kind: 'password on command line', keywords: ['nextcloudcmd', 'owncloudcmd'], re: /\b(?:nextcloudcmd|owncloudcmd)\b[^\n|;&]{0,1024}?[ \t](?:-p|--password)[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"-][^\s'"]*)/g },
  // .NET's development certificate exported with a password (`dotnet dev-certs https -ep x.pfx -p '<pw>'` in a setup script and a
  // history: pass 300 F27).
  { kind: 'password on command line', keywords: ['dev-certs'], re: /\bdev-certs[ \t]+https\b[^\n|;&]{0,1024}?[ \t](?:-p|--password)[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"-][^\s'"]*)/g },
  { kind: 'password on command line', keywords: ['ncftp'], needs: /ncftp/, re: /\bncftp(?:put|get|ls|batch)?\b[^\n|;&]{0,1024}?[ \t]-p[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"-][^\s'"]*)/g },
  { kind: 'password on command line', keywords: ['htpasswd'], needs: /htpasswd/, re: /\bhtpasswd\b[^\n]{0,1024}?[ \t](?:-[a-zA-Z]*n[a-zA-Z]*b[a-zA-Z]*|-[a-zA-Z]*b[a-zA-Z]*n[a-zA-Z]*|-n[ \t]+-[a-zA-Z]*b[a-zA-Z]*)[ \t]+(?:-\S+[ \t]+)*\S+[ \t]+["']?(?<secret>[^\s'"]+)|\bhtpasswd\b[^\n]{0,1024}?[ \t]-[a-zA-Z]*b[a-zA-Z]*[ \t]+(?:-\S+[ \t]+)*\S+[ \t]+\S+[ \t]+["']?(?<secret2>[^\s'"]+)/g },
  // A value piped into a command that reads a credential on stdin: `echo pw | docker login --password-stdin`, `| sudo -S`, `| gh auth login --with-token`, `| chpasswd`.
  // (openconnect's `--passwd-on-stdin`: adv49 F27.)
  { kind: 'password on command line', keywords: ['pass', 'token', 'secret', 'sudo -s'], sharesNameWords: true, needs: /\|/, re: /\b(?:echo|printf)[ \t]+(?:-[neE]+[ \t]+)?(?:'%s(?:\\n)?'[ \t]+)?(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s|'"<>;&]+)(?=[ \t]*\|[ \t]*(?:sudo[ \t]+-S\b|[\w./-]*(?:docker|podman|nerdctl|buildah|helm|oras|skopeo|crane)[ \t][^\n|;&]*--password-stdin|(?:sudo[ \t]+)?(?:openconnect|openfortivpn)[ \t][^\n|;&]*--passw(?:or)?d-on-stdin|gh[ \t]+auth[ \t]+login\b[^\n|;&]*--with-token|gh[ \t]+secret[ \t]+set\b|gcloud[ \t]+secrets[ \t]+(?:create|versions[ \t]+add)\b[^\n|;&]*--data-file[= ]-|(?:npx[ \t]+)?wrangler[ \t]+secret[ \t]+put\b|vercel[ \t]+env[ \t]+add\b|(?:sudo[ \t]+)?chpasswd\b|(?:sudo[ \t]+)?passwd[ \t]+--stdin|(?:sudo[ \t]+)?(?:adcli|realm)[ \t][^\n|;&]*--stdin-password|(?:sudo[ \t]+)?tee[ \t]+(?:-a[ \t]+)?[^\s|;&<>]*(?:secret|passw|token|credential)[^\s|;&<>]*))/g },
  // A literal written into a file whose path names a secret (`echo 'pw' > /run/secrets/db_password`; through `| tee`: above; adv127 F19).
  { kind: 'password on command line', keywords: ['pass', 'token', 'secret'], sharesNameWords: true, needs: />/, re: /\b(?:echo|printf)[ \t]+(?:-[neE]+[ \t]+)?(?:'%s(?:\\n)?'[ \t]+)?(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s|'"<>;&]+)(?=[ \t]*>>?[ \t]*[^\s|;&<>]*(?:secret|passw|token|credential)[^\s|;&<>]*)/g },
  // A literal fed through process substitution to a credential option or sshpass (`--password-file <(echo pw)`, `sshpass -f <(echo pw)`):
  // the command line the audit, the console and `ps` show holds it; `<(echo "$PW")` is a reference and stays.
  { kind: 'password on command line', keywords: ['pass', 'pwd', 'token', 'secret', 'cred', 'auth', 'key'], sharesNameWords: true, needs: /<\((?:echo|printf)[ \t]/, re: /(?:(?<![A-Za-z0-9-])--?[\w-]*(?:pass|pwd|token|secret|cred|auth|key)[\w-]*(?:=|[ \t]+)|\bsshpass\b[^\n|;&]{0,1024}?[ \t]-[fd][ \t]*)<\((?:echo|printf)[ \t]+(?:-[neE]+[ \t]+)?(?:'%s(?:\\n)?'[ \t]+)?(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s)'"]+)(?=[ \t]*\))/g, guard: true },
  // A literal fed through a here-string to a command that reads a credential on stdin (`docker login --password-stdin <<< pw`,
  // `sudo -S … <<< pw`, `gh auth login --with-token <<< tok`, `chpasswd <<< 'bob:pw'`, `passwd --stdin bob <<< pw`, `vault login … password=- <<< pw`).
  { kind: 'password on command line', keywords: ['pass', 'token', 'secret', 'sudo -s'], sharesNameWords: true, needs: /<<</, re: /(?:--password-stdin|--with-token|--stdin|\bsudo[ \t]+-S\b|\bchpasswd\b|[ \t][\w-]*(?:password|pass|passwd|token|secret)=-(?=[ \t]))[^\n|;&<]*<<<[ \t]*(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"|;&]+)/g, guard: true },
  // composer's auth settings (docs: getcomposer.org/doc/articles/authentication-for-private-packages.md): `composer config [-g] github-oauth.github.com TOKEN`,
  // `gitlab-token.host TOKEN`, `bearer.host TOKEN`, `http-basic.host USER PASSWORD`, `bitbucket-oauth.host KEY SECRET`.
  { kind: 'composer auth token', keywords: ['composer'], needs: /[ \t]config\b/, re: /\bcomposer\b[^\n|;&]{0,1024}?[ \t]config\b[^\n|;&]{0,1024}?[ \t](?:(?:github-oauth|gitlab-oauth|gitlab-token|bearer|forgejo-token)\.\S+[ \t]+(?:-\S+[ \t]+)*|(?:http-basic|bitbucket-oauth)\.\S+[ \t]+(?:-\S+[ \t]+)*[^\s-]\S*[ \t]+)(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"-][^\s'"]*)/g, guard: true },
  // Oracle's `user/password@db` connect string (adv4 M24): `sqlplus scott/tiger@orcl`, `sqlplus -s sys/pw@//host:1521/svc as sysdba`. `/@db` (a wallet) and `/ as sysdba` have none.
  // Oracle's other clients take the same connect string (`expdp system/pw@db`, `impdp`, `sqlldr`, `dgmgrl`, `rman target sys/pw@db
  // catalog rman/pw@cat`: adv19 F38).
  { kind: 'password on command line', keywords: ['sqlplus', 'expdp', 'impdp', 'sqlldr', 'dgmgrl', 'rman'], re: /\b(?:sqlplus|expdp|impdp|sqlldr|dgmgrl|rman)\b[^\n|;&]{0,1024}?[ \t](?:-[A-Za-z]+[ \t]+|(?:target|catalog|auxiliary|userid)[ \t=]+)*["']?[A-Za-z0-9_$#.]+\/(?<secret>[^\s@'"/]+)(?=@|["']?(?:[ \t]|$))/gm, guard: true },
  // adv4's extra forms, as a shell history shows them: `zip -P pw`, `7z a -ppw`, `xfreerdp /p:pw`, `mysqladmin … password NEW`, keytool's
  // `-storepass pw` / `-keypass pw`, `nmcli … wifi connect X password pw`. `ipmitool … -P pw`, `rabbitmqctl add_user U PW`.
  // keytool's and jarsigner's password options, each of them on a line (`-storepass a -keypass b`: the second was left, adv67 F39);
  // `mkpasswd`'s password operand (`mkpasswd -m sha-512 pw` in a history: adv67 F40). Unity's Android signing options on its
  // batchmode command line (`-keystorePass 'pw' -keyaliasPass 'pw'` in a CI log: pass 239 F36).
  { kind: 'password on command line', keywords: ['pass'], sharesNameWords: true, needs: /[ \t]-(?:(?:src|dest)?(?:store|key)pass|key(?:store|alias)Pass)[ \t]/, re: /(?<=[ \t])-(?:(?:src|dest)?(?:store|key)pass|key(?:store|alias)Pass)[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|(?![-$<])[^\s'"]+)/g, guard: true },
  // IBM GSKit's key database tools (IBM MQ's `runmqakm`, `runmqckm`, `gsk8capicmd_64`, WebSphere's `ikeycmd`): `-pw pw`, `-new_pw pw`
  // (adv172 F31: a shell history's `runmqakm -cert -list -db key.kdb -pw …`); each of them on the line (`-changepw -pw old -new_pw new`).
  { kind: 'password on command line', keywords: ['runmqakm', 'runmqckm', 'gsk8capicmd', 'gsk7capicmd', 'gskcapicmd', 'ikeycmd'], re: /[ \t]-(?:new_)?pw(?<=\b(?:runmq[ac]km|gsk[78]?capicmd(?:_64)?|ikeycmd)\b[^\n|;&]{0,1024}?[ \t]-(?:new_)?pw)[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|(?![-$<])[^\s'"]+)/g, guard: true },
  // WebLogic's WLST (adv172 F11): `connect('weblogic', 'pw', 't3://admin:7001')` takes the user and the password by position
  // before the admin server's URL; `nmConnect('nodemanager', 'pw', host, port, …)` by position too. The user and the URL may be a
  // script's variables (`connect(adminUser, 'pw', adminUrl)`: session 34's own attack).
  { kind: 'password', keywords: ['connect('], needs: /connect\(/i, re: /\b(?:connect\((?=[ \t]*(?:(['"])[^'"\n]{1,256}\1|[A-Za-z_]\w{0,64})[ \t]*,[ \t]*(['"])[^'"\n]{1,256}\2[ \t]*,[ \t]*(?:['"]?(?:t3s?|https?|iiops?|http):\/\/|\w{0,32}[Uu][Rr][Ll]\w{0,32}[ \t]*\)))|nmConnect\()[ \t]*(?:(['"])[^'"\n]{1,256}\3|[A-Za-z_]\w{0,64})[ \t]*,[ \t]*(['"])(?<secret>[^'"\n]{1,256})\4/g, guard: true },
  { kind: 'password on command line', keywords: ['mkpasswd'], re: /\bmkpasswd(?:[ \t]+(?:-[msSR]|--method|--salt|--rounds)(?:=|[ \t]+)[^\s]+|[ \t]+-[5s])*[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|(?![-$<])[^\s'"]+)(?=(?:[ \t]+[^\s-][^\s]*)?[ \t]*\r?$)/g, guard: true },
  { kind: 'password on command line', keywords: ['zip'], needs: /zip/, re: /\b(?:zip|zipcloak|unzip)\b[^\n|;&]{0,1024}?[ \t](?:-P|--password)[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/g, guard: true },
  { kind: 'password on command line', keywords: ['7z'], re: /\b7z[ar]?\b[^\n|;&]{0,1024}?[ \t]-p(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/g, guard: true },
  { kind: 'password on command line', keywords: ['/p:'], needs: /rdp/i, re: /\b[\w-]*rdp\b[^\n|;&]{0,1024}?[ \t]\/p:(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/gi, guard: true },
  // Found from `ipmitool` (not ` -p`: gcc's `-pipe` and `-Wunused-parameter` put thousands of hits in a build log, each a line cut).
  { kind: 'password on command line', keywords: ['ipmitool'], re: /\bipmitool\b[^\n|;&]{0,1024}?[ \t]-P[ \t]*(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/g, guard: true },
  { kind: 'password on command line', keywords: ['add_user'], needs: /rabbitmqctl/, re: /\brabbitmqctl\b[^\n|;&]{0,1024}?[ \t]add_user[ \t]+(?:'[^'\n]+'|"[^"\n]+"|[^\s'"]+)[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/g, guard: true },
  { kind: 'password on command line', keywords: ['pass'], sharesNameWords: true, needs: /rabbitmqctl/, re: /\brabbitmqctl\b[^\n|;&]{0,1024}?[ \t](?:add_user|change_password)[ \t]+(?:'[^'\n]+'|"[^"\n]+"|[^\s'"]+)[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/g, guard: true },
  { kind: 'password on command line', keywords: ['mysql'], needs: /mysqladmin/, re: /\bmysqladmin\b[^\n|;&]{0,1024}?[ \t]password[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/g, guard: true },
  { kind: 'password on command line', keywords: ['pass'], sharesNameWords: true, needs: /keytool|jarsigner/, re: /\b(?:keytool|jarsigner)\b[^\n|;&]{0,1024}?[ \t]-(?:store|key|srcstore|deststore|srckey|destkey|new)pass[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/g, guard: true },
  { kind: 'password on command line', keywords: ['pass'], sharesNameWords: true, needs: /nmcli/, re: /\bnmcli\b[^\n|;&]{0,1024}?[ \t](?:password|wifi-sec\.psk|802-11-wireless-security\.psk)[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/g, guard: true },
  // Adversary pass 5 (session 5), as shell history, `set -x` and `ps` show them. `<tool> config set <secret's name> <value>` (npm, pnpm, yarn,
  // git, aws configure, kubectl config set, …): the name must be a secret's (`//host/:_authToken`, `npmAuthToken`, `github.token`,
  // `aws_secret_access_key`, `users.bob.token`); git's `user.signingkey` names a key id, not a key.
  { kind: 'password on command line', keywords: ['pass', 'pwd', 'secret', 'token', 'auth', 'cred', 'key'], sharesNameWords: true, needs: /config|\bset\b/, re: /\b(?:npm|pnpm|yarn|bun|git|aws|gh|glab|pip3?|conda|heroku|gcloud|az|firebase|netlify|vercel|hub|dvc|kubectl|oc|doctl|cargo)\b[^\n|;&]{0,1024}?[ \t](?:config|configure|(?<=\b[np]?npm[ \t]+)set)\b(?:[ \t]+(?:set|add|set-credentials|-f[ \t]+\S+|--(?:location|file|profile)(?:=|[ \t]+)\S+|--?[a-z][\w-]*(?:=\S+)?))*[ \t]+(?![^\s=]*signingkey\s)["']?(?:[^\s="'-][^\s="']*[/:.])?(?<name>[A-Za-z_][\w-]*)["']?[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/gi, guard: true },
  // `curl --oauth2-bearer TOKEN`; `gh secret set NAME --body VALUE` / `-b VALUE`; `ngrok config add-authtoken TOKEN` / `ngrok authtoken TOKEN`;
  // `mosquitto_passwd -b FILE USER PW`; `ldappasswd -s NEWPW` / `-a OLDPW`; `poetry config http-basic.REPO USER PW` / `pypi-token.REPO TOKEN`.
  { kind: 'password on command line', keywords: ['bearer'], needs: /--oauth2-bearer/, re: /--oauth2-bearer(?:=|[ \t]+)(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/g, guard: true },
  { kind: 'token', keywords: ['secret'], sharesNameWords: true, needs: /\bgh[ \t]+secret[ \t]+set\b/, re: /\bgh[ \t]+secret[ \t]+set\b[^\n|;&]{0,1024}?[ \t](?:-b[ \t]*|--body(?:=|[ \t]+))(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"-][^\s'"]*)/g, guard: true },
  { kind: 'token', keywords: ['auth', 'token'], sharesNameWords: true, needs: /ngrok/, re: /\bngrok\b[^\n|;&]{0,1024}?[ \t](?:config[ \t]+add-authtoken|authtoken)[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"-][^\s'"]*)/g, guard: true },
  { kind: 'password on command line', keywords: ['pass'], sharesNameWords: true, needs: /mosquitto_passwd/, re: /\bmosquitto_passwd\b[^\n|;&]{0,1024}?[ \t]-[a-zA-Z]*b[a-zA-Z]*[ \t]+(?:-\S+[ \t]+)*\S+[ \t]+\S+[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/g, guard: true },
  { kind: 'password on command line', keywords: ['ldap'], needs: /ldappasswd/, re: /\bldappasswd\b[^\n|;&]{0,1024}?[ \t]-[sa][ \t]*(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"-][^\s'"]*)/g, guard: true },
  // Words of their own (the table has room since `-us` took the curl rule's four): redis `ACL SETUSER bob on >pw` (redis-cli's line, a
  // prompt's echo, MONITOR's quoted form); MinIO's `mc alias set NAME URL ACCESS_KEY SECRET_KEY` (and its older spelling `mc config host add`; `alias` alone hit every gcc line's
  // `-fno-strict-aliasing`, 1.2% of reply masking); poetry's auth settings.
  // Every `>password` of the line; the look back is bounded (an ACL line is short): unbounded, 50,000 `>` on one line took 9 s.
  { kind: 'password', keywords: ['setuser'], re: />(?<=\bSETUSER\b[^\n]{0,512}?[ \t]"?>)(?<secret>[^\s"]+)/gi, guard: true },
  { kind: 'secret key', keywords: ['alias set', 'host add'], needs: /\bmc[ \t]/, re: /\bmc\b[^\n|;&]{0,1024}?[ \t](?:alias[ \t]+set|config[ \t]+host[ \t]+add)[ \t]+(?:-\S+[ \t]+)*\S+[ \t]+\S+[ \t]+\S+[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/g, guard: true },
  { kind: 'password on command line', keywords: ['poetry'], needs: /[ \t]config\b/, re: /\bpoetry\b[^\n|;&]{0,1024}?[ \t]config\b[^\n|;&]{0,1024}?[ \t](?:pypi-token\.\S+[ \t]+|http-basic\.\S+[ \t]+(?:-\S+[ \t]+)*[^\s-]\S*[ \t]+)(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"-][^\s'"]*)/g, guard: true },
  // Password managers' session keys (`bw unlock`'s `export BW_SESSION="…"` and `--session …`, `op signin`'s `export OP_SESSION_acme="…"`:
  // adv18 F41, F43): a session key unlocks the whole vault until it expires.
  { kind: 'vault session key', keywords: ['bw_session', 'op_session_', '--session'], needs: /BW_SESSION|OP_SESSION_|--session[ \t]/, re: /(?:(?<![\w-])(?:BW_SESSION|OP_SESSION_\w+)["']?[ \t]*=[ \t]*|--session(?<=\bbw\b[^\n]*--session)[ \t]+)["']?(?<secret>[A-Za-z0-9+/=_-]{20,})/g },
  // Adversary pass 20's command lines, as shell history and `ps` show them: a package feed's password (`dotnet nuget add source …
  // -p PAT`, `nuget sources add -Password`, `conan remote login NAME USER -p …`), a CI secret's value (`drone secret add … --data`,
  // `woodpecker-cli secret add … --value`), mongosh's `changeUserPassword("u", "…")`, an encryption key or passphrase (`openssl enc
  // -k …` / `-K <hex>`, `rar -hp…`, `qpdf --encrypt USER OWNER`), a client certificate's password (`curl --cert file.p12:…`, `-E`)
  // and a connection URI without a scheme (`mysqlsh --uri user:…@host`).
  // MATLAB's silent installer given its licence's installation key (`./install -mode silent -fileInstallationKey <26 groups of 5
  // digits>`: the own attack on pass 179's fix).
  { kind: 'licence key', keywords: ['fileinstallationkey'], re: /-fileInstallationKey[ \t=]+(?<secret>\d{5}(?:-\d{5}){3,31})(?![\d-])/g },
  // SAP HANA's clients (pass 182 F24): `hdbsql … -p <password>`, `hdbuserstore SET <key> <host:port> <user> <password>`.
  { kind: 'password on command line', keywords: ['hdbsql'], re: /\bhdbsql\b[^\n|;&]{0,1024}?[ \t]-p[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/g },
  { kind: 'password on command line', keywords: ['hdbuserstore'], re: /\bhdbuserstore\b(?:[ \t]+-[\w-]{1,32}){0,4}[ \t]+SET[ \t]+\S{1,256}[ \t]+\S{1,256}[ \t]+\S{1,256}[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/gi },
  // DVC's remote settings (`dvc remote modify --local s3store secret_access_key <value>`, `… password …`, `… gdrive_client_secret …`:
  // pass 179): the option's name, a secret's, says what the value after it is.
  { kind: 'password on command line', keywords: ['dvc'], needs: /\bdvc[ \t]+remote[ \t]+modify\b/, re: /\bdvc[ \t]+remote[ \t]+modify\b(?:[ \t]+--?[a-z][\w-]{0,32}){0,4}[ \t]+[^\s'"-][^\s'"]{0,255}[ \t]+(?<name>[A-Za-z_][\w-]{0,63})[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/g, guard: true },
  { kind: 'password on command line', keywords: ['nuget', 'conan'], needs: /\b(?:nuget|conan)\b/, re: /\b(?:nuget[ \t]+(?:add|update)[ \t]+source|nuget(?:\.exe)?[ \t]+sources[ \t]+(?:add|update)|conan[ \t]+(?:remote[ \t]+login|user))\b[^\n|;&]{0,1024}?[ \t](?:-p|--password|-Password)(?:=|[ \t]+)(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"-][^\s'"]*)/gi, guard: true },
  { kind: 'secret', keywords: ['secret add', 'secret update'], needs: /\b(?:drone|woodpecker(?:-cli)?)\b/, re: /\b(?:drone|woodpecker(?:-cli)?)[ \t]+(?:org[ \t]+)?secret[ \t]+(?:add|update)\b[^\n|;&]{0,1024}?[ \t]--(?:data|value)(?:=|[ \t]+)(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"@-][^\s'"]*)/g, guard: true },
  // …and `db.auth("user", "…")` (adv114 F17), of another database too (`db.getSiblingDB("admin").auth(…)`: 131 F16).
  { kind: 'password', keywords: ['.auth('], re: /\bdb(?:\.getSiblingDB\([ \t]*["'][^"'\n]{1,128}["'][ \t]*\)|\[["'][^"'\n]{1,128}["']\])?\.auth\([ \t]*(?<q>["'])[^"'\n]*\k<q>[ \t]*,[ \t]*(?<q2>["'])(?<secret>[^"'\n]+)(?=\k<q2>)/g, guard: true },
  { kind: 'password', keywords: ['changeuserpassword'], re: /\bchangeUserPassword\([ \t]*(?<q>["'])[^"'\n]*\k<q>[ \t]*,[ \t]*(?<q2>["'])(?<secret>[^"'\n]+)(?=\k<q2>)/g, guard: true },
  { kind: 'password on command line', keywords: ['openssl'], needs: /\benc\b|\bopenssl[ \t]+(?:aes|des|bf|camellia|chacha)/, re: /\bopenssl[ \t]+(?:enc|aes[\w-]*|des[\w-]*|bf[\w-]*|camellia[\w-]*|chacha20)\b[^\n|;&]{0,1024}?[ \t]-(?:k|K|kfile-content)[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"-][^\s'"]*)/g, guard: true },
  { kind: 'password on command line', keywords: ['-hp'], needs: /\b(?:rar|unrar)\b/, re: /\b(?:rar|unrar)[ \t]+[a-z]\b[^\n|;&]{0,1024}?[ \t]-hp(?<secret>[^\s'"-][^\s'"]*)/g, guard: true },
  { kind: 'password on command line', keywords: ['qpdf'], needs: /--encrypt/, re: /\bqpdf\b[^\n|;&]{0,1024}?[ \t]--encrypt[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"-][^\s'"]*)/g, guard: true },
  { kind: 'password on command line', keywords: ['qpdf'], needs: /--encrypt/, re: /\bqpdf\b[^\n|;&]{0,1024}?[ \t]--encrypt[ \t]+(?:'[^'\n]*'|"[^"\n]*"|\S+)[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"-][^\s'"]*)/g, guard: true },
  { kind: 'password on command line', keywords: ['--cert'], needs: /\bcurl\b/, re: /\bcurl\b[^\n|;&]{0,1024}?[ \t]--cert(?:=|[ \t]+)["']?(?:[^\s:'"]|\\:)+:(?<secret>[^\s'"]+)/g, guard: true },
  { kind: 'password on command line', keywords: ['--uri'], needs: /--uri/, re: /[ \t]--uri(?:=|[ \t]+)["']?(?![a-z][\w+.-]*:\/\/)[^\s:@/'"]+:(?<secret>[^\s@'"]+)(?=@)/g, guard: true },
  { kind: 'password on command line', keywords: ['login'], needs: /az[ \t]+login/, re: /\baz[ \t]+login\b[^\n]{0,1024}?[ \t](?:-p|--password)[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/g },
];

/**
 * What a program printed after a password prompt with the typed answer echoed back (a script's
 * `read -p`, `expect` logs, a PTY with echo on): ssh's and git's prompts name what they ask for
 * (`Enter passphrase for key '/root/.ssh/id_ed25519': `, `bob@host's password: `, `[sudo] password
 * for bob: `, `Password for 'https://bob@github.com': `) and prompts in other languages
 * (`Passwort: `, `contraseña: `, `mot de passe : `, `пароль: `, `密码：`). The value must be the
 * last word on its line (a prompt followed by more output, `Password: got 12`, is the program's
 * next output; a prompt with nothing after it is no secret) and no status word.
 */
const PROMPT_WORDS = "pass(?:word|phrase|code)|PIN|passwort|kennwort|contrase(?:ña|na)|mot de passe|senha|wachtwoord|l(?:ö|o)senord|adgangskode|passord|salasana|heslo|jelsz(?:ó|o)|parola|(?:ş|s)ifre|has(?:ł|l)o|пароль";
/** Words of scripts written without blanks: a letter may stand right before them (Linux-PAM's zh_CN `当前的密码：`, sudo's `bob 的密码：`, `bob のパスワード:`). */
const PROMPT_WORDS_UNSPACED = "密码|密碼|口令|パスワード|비밀번호|암호";
/** A word after the prompt's word and before its colon (Linux-PAM's translations: es `Contraseña actual: `, fr `Mot de passe actuel : `, de `… Passwort ein: `). */
const PROMPT_AFTER_WORD = "(?:[ \\t]+(?:actual|actuel(?:le)?|ein|again|atual|attuale|huidig|nuevamente|administrat(?:eur|or|ore)|admin|initial(?:e)?|inicial|temporaire|temporal|tempor(?:á|a)ria|nouveau|nuevo|nova|neues|root))?";
const PROMPT_FOR = "(?:[ \\t]+(?:for|für|fur|de|para|pour|voor|för|dla|için|per|для|van|til|pro)[ \\t]+(?:[^\\s:：'\"]{1,64}[ \\t]+)?(?:'[^'\\n]{0,256}'|\"[^\"\\n]{0,256}\"|[^\\s:：'\"]{1,256}))?";
const PROMPT_STATUS = '(?!(?:ok|done|got|success|saved|accepted|authenticated|correct|incorrect|wrong|denied|invalid|sorry|error|failed|welcome|match(?:ed)?|mismatch)[ \\t]*\\r?$)';
export const PROMPT: ContextRule = {
  kind: 'password',
  // `pass` (a name's word) covers password, passphrase, passcode, Passwort, passord, mot de passe.
  keywords: ['pass', 'pin for', 'kennwort', 'contrase', 'senha', 'wachtwoord', 'senord', 'parola', 'ifre', 'haslo'],
  sharesNameWords: true,
  // Not inside a flow map (`x-smtp: &smtp {host: …, password: …}`: adv38 F03): a pair there, whose value the key's rule reads
  // (the prompt's word ran on over the map's `}`).
  // (Looked back for from the word's end, 256 characters at most: before the word it was tried at every position of a line.)
  re: new RegExp(`(?:(?<![\\p{L}\\p{N}_])(?:${PROMPT_WORDS})|(?:${PROMPT_WORDS_UNSPACED}))(?<!\\{[^\\n{}]{0,256})${PROMPT_AFTER_WORD}${PROMPT_FOR}[ \\t\\u3000]*[:：][ \\t\\u3000]*${PROMPT_STATUS}(?<secret>[^\\s'"]\\S*)(?=[ \\t]*\\r?$)`, 'gimu'),
  guard: true,
};

/**
 * A token's or a key's label in another language, then a colon (`API-Schlüssel:`, `Chave de API:`, `clé API :`, `Токен
 * доступа:`, `アクセストークン：`, `API 密钥：`: adv67 F01, F04, F05, F07), then a made value (a letter and a digit, 12
 * characters and up) that ends the line. The passwords' words are PROMPT's.
 */
/** A box table's row labelled as a key in another language (`| 访问密钥 | … |` of aliyun's `--language zh`: adv67 F06). */
export const FOREIGN_KEY_ROW: ContextRule = {
  kind: 'secret',
  keywords: [],
  re: /^\|[ \t]*(?:访问密钥|密钥|秘钥|令牌|访问令牌|アクセスキー|シークレット|トークン|Schl(?:ü|ue)ssel|Chave(?: secreta)?|Clave(?: secreta)?|Cl(?:é|e) secr(?:è|e)te|Токен|Секретный ключ|Ключ)[ \t]*\|[ \t]*(?<secret>(?=[^\s|]*\d)[^\s|]{12,})(?=[ \t]*\|)/gimu,
  guard: true,
};

export const FOREIGN_KEY_LABEL: ContextRule = {
  kind: 'secret',
  // Its Latin labels' words (the others' lines are read from their colons: nonAsciiPrompts); not `api`, in every URL's host.
  keywords: ['schl', 'chave', 'clave', 'api :', "d'api"],
  re: /(?<![\p{L}\p{N}_])(?:api[- ]?schl(?:ü|ue)ssel|(?:zugangs|geheim)?schl(?:ü|ue)ssel|chave(?: de api| secreta| de acesso)?|clave(?: de api| secreta| de acceso)?|cl(?:é|e)(?: d'api| api| secr(?:è|e)te)|токен(?: доступа)?|ключ(?: api| доступа)?|секретный ключ|アクセストークン|トークン|apiキー|シークレット|访问密钥|密钥|秘钥|令牌|api ?密钥|访问令牌|토큰|api ?키)[ \t\u3000]*[:：][ \t\u3000]*(?<secret>(?=[^\s'"]*\d)(?=[^\s'"]*\p{L})[^\s'"]{12,512})(?=[ \t]*\r?$)/gimu,
  guard: true,
};

/** An argument of a call before the credential: a string literal, or an expression without a comma (`$dsn`, `cfg.user`, `env('X')`). */
const CALL_ARG = `(?:'[^'\\n]{0,512}'|"[^"\\n]{0,512}"|[\\w$.:>\\[\\]-]{1,128}(?:\\([^(),\\n]{0,128}\\))?)`;
/** The credential's argument: a string literal, the value inside its quotes (group `secret` or `secret2`). */
const CALL_STRING_ARG = `(?:'(?<secret>[^'\\n]{1,4096})(?=')|"(?<secret2>[^"\\n]{1,4096})(?="))`;

/** Credential files' formats. */
export const FILES: ContextRule[] = [
  // Python's basic auth as a tuple (`'auth': ('svc-etl', '…')` in a pprint of a requests config, `auth=('user', '…')`: adv65 F16).
  // …and a user and password pair under a credentials' name, in a tuple or a list (`upstream creds: ["svc_sync", "…"]`,
  // `UPSTREAM_CREDS = ('svc_sync', '…')`: adv69).
  { kind: 'password', keywords: ['auth', 'cred'], sharesNameWords: true, needs: /(?:auth|creds|credentials)['"]?[ \t]*[:=][ \t]*[([]/i, re: /(?<![A-Za-z0-9])(?:auth|creds|credentials)['"]?[ \t]*[:=][ \t]*[([][ \t]*(['"])[^'"\n]{1,128}\1[ \t]*,[ \t]*(['"])(?<secret>[^'"\n]{4,256})(?=\2[ \t]*[)\]])/gi },
  // A Google Apps Script web app's deployment id (`https://script.google.com/macros/s/AKfyc…/exec`: adv75 F21): a capability URL,
  // anyone holding it may call the script when it is deployed for anyone, like a webhook's.
  { kind: 'apps script deployment id', keywords: ['script.google.com/macros/s/'], re: /script\.google\.com\/macros\/s\/(?<secret>AKfyc[\w-]{20,256})(?=\/|\b)/g },
  // ClickHouse's MySQL and PostgreSQL table engines and functions (`ENGINE = MySQL('host:3306', 'db', 'table', 'user', '…')`,
  // `SHOW CREATE TABLE`'s output: adv74 F13): the fifth argument is the password.
  { kind: 'password', keywords: ['mysql(', 'postgresql(', 'mongodb('], re: /\b(?:MySQL|PostgreSQL|MongoDB|mysql|postgresql|mongodb)\([ \t]*'[^'\n]{1,256}'[ \t]*,[ \t]*'[^'\n]{0,128}'[ \t]*,[ \t]*'[^'\n]{0,128}'[ \t]*,[ \t]*'[^'\n]{1,128}'[ \t]*,[ \t]*'(?<secret>[^'\n]{1,512})(?=')/g, guard: true },
  // A row of tab-separated cells whose one before last names a secret and whose last is its value (`aws cloudformation
  // describe-stacks --query Outputs --output text`: Description, OutputKey, OutputValue: adv74 F25).
  { kind: 'secret', keywords: ['pass', 'pwd', 'secret', 'token', 'key'], sharesNameWords: true, needs: /\t/, re: /(?:^|\t)(?<name>[A-Za-z][A-Za-z0-9]{0,63})\t(?<secret>[^\t\n\r]{6,512})(?=\r?$)/gm, guard: true },
  // A JDBC URL, its user and its password as a positional toString prints them (Scala's case class `JdbcConfig(jdbc:postgresql://…,
  // dw_loader,<password>,30)`: adv71 F44): the field after the user.
  { kind: 'password', keywords: ['jdbc:'], re: /\bjdbc:[a-z0-9]+:[^\s,()]{1,512},[ \t]?[\w.@-]{1,64},[ \t]?(?<secret>[^\s,()]{6,256})(?=[,)])/g, guard: true },
  // A Rails session cookie by its shape, whatever the app named it (`_shopfront_session=…`: pass 171 S3): 5.2+'s AES-GCM
  // `<data>--<12-byte iv>--<16-byte tag>` in base64 (URL-encoded or not), 4.x's `<data>--<40-hex HMAC>`.
  { kind: 'session cookie', shape: true, keywords: ['--'], needs: /--(?:(?:[A-Za-z0-9+/]|%2[BbFf]){16}--|[0-9a-f]{40})/, re: /(?<![A-Za-z0-9+/%-])(?<secret>(?:[A-Za-z0-9+/]|%2[BbFf]){24,4096}(?:=|%3[Dd]){0,2}--(?:(?:[A-Za-z0-9+/]|%2[BbFf]){16}--(?:[A-Za-z0-9+/]|%2[BbFf]){22}(?:=|%3[Dd]){0,2}|[0-9a-f]{40}))(?![A-Za-z0-9+/%=])/g },
  // A live key in a vendor's `<kind>_live_<random>` shape (Stripe's `sk_live_`, `rk_live_`; `ak_live_` of an OpenAPI example:
  // adv65 F45), not a publishable one (`pk_live_`: public by design).
  // (Not Branch's `key_live_…`: its app key is embedded in every app that uses it, public by design: pass 322 L9.)
  { kind: 'live api key', shape: true, keywords: ['_live_'], re: /(?<![A-Za-z0-9_])(?<secret>(?!pk_|key_live_[A-Za-z0-9]{32}(?![A-Za-z0-9]))[a-z]{2,6}_live_[A-Za-z0-9]{24,128})(?![A-Za-z0-9])/g },
  // A user and a password as a login call's two string arguments (Perl's Net::SMTP `$smtp->auth('user', 'pw')`, Python's
  // `smtp.login("me@x", "pw")`, `ftp.login('user', 'pw')`: 141 F05): the second.
  { kind: 'password', keywords: ['auth(', 'login(', 'authenticate(', 'setauthenticationcredentials('], re: /(?:->|\.)(?:auth|login|authenticate|SetAuthenticationCredentials)\([ \t]*(["'])[^"'\n]{1,128}\1[ \t]*,[ \t]*(["'])(?<secret>[^"'\n]{4,256})(?=\2[ \t]*[,)])/g, guard: true },
  // A PHP session's file (`/var/lib/php/sessions/sess_<id>`: head's header of it, 141 F22): the name holds the session's id.
  { kind: 'php session id', keywords: ['/sess_'], re: /\/sess_(?<secret>[A-Za-z0-9,-]{20,128})(?![A-Za-z0-9,-])/g },
  // New Relic's PHP agent's licence key (`newrelic.license = "<40 hex>"` in newrelic.ini: 141 F40).
  { kind: 'new relic license key', keywords: ['newrelic.license'], re: /\bnewrelic\.license[ \t]*=[ \t]*["']?(?<secret>[0-9a-f]{40}|[A-Za-z0-9]{36}NRAL)(?![A-Za-z0-9])/g },
  // Postmark's server (or account) token, a UUID, as its SDK's client is made with it (`new ServerClient('…')`: 140 F41): a UUID
  // alone is a look-alike; the call says what it is.
  { kind: 'postmark token', keywords: ['serverclient(', 'accountclient('], re: /\b(?:Server|Account)Client\([ \t]*(["'])(?<secret>[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\1/g },
  // A Healthchecks.io ping URL (`https://hc-ping.com/<uuid>` or `/<ping key>/<slug>`, a cron's `curl` in a trace: 140 F23): a
  // capability, whoever holds it reports the job's state.
  { kind: 'healthchecks ping key', keywords: ['hc-ping.com/'], re: /\bhc-ping\.com\/(?<secret>[A-Za-z0-9_-]{22,36})(?![A-Za-z0-9_-])/g },
  // A log's prose naming what it uses (`verifying request signature with secret <hex>`, Slack Bolt's debug: 140 F36): a made word.
  { kind: 'secret', keywords: ['with secret ', 'with token ', 'with key ', 'with password ', 'with api key '], re: /\bwith (?:secret|token|key|password|api key) (?<secret>(?=[A-Za-z0-9_+/=-]*\d)[A-Za-z0-9_+/=-]{16,256})(?![A-Za-z0-9_+/=-])/gi, guard: true },
  // A Twilio API key's secret beside its SID in a call's arguments (`Client("SK…", "<secret>", "AC…")` of twilio-python, a grep hit
  // of it: 133 F43): the SID says what the next string is.
  { kind: 'twilio api key secret', keywords: ['"sk', "'sk"], re: /(["'])SK[0-9a-f]{32}\1[ \t]*,[ \t]*(["'])(?<secret>[A-Za-z0-9]{32})(?=\2)/g },
  // Maven's master password in `~/.m2/settings-security.xml` (`<master>{…}</master>`: pass 134 F37): it decrypts every `{…}` password
  // of settings.xml.
  { kind: 'maven master password', keywords: ['<master>'], re: /<master>[ \t]*(?<secret>\{[A-Za-z0-9+/=]{8,1024}\})[ \t]*<\/master>/g },
  // A Google service account key file's `private_key_id` (adv62 F49, adv63 F34, adv64 F06: three fresh passes counted it): the
  // key's id, published as the `kid` of the JWTs it signs, but written in the credential file beside the key; masked with it.
  { kind: 'service account key id', keywords: ['private_key_id'], re: /"private_key_id"[ \t]*:[ \t]*"(?<secret>[0-9a-f]{40})(?=")/g },
  // R's `str()` of a list (`..$ dbpass  : chr "…"`: adv59 F06): the type word between the name and its string.
  // The name is the rule's `name` group: the scanner keeps only a secret's name and masks with its kind.
  { kind: 'password', keywords: [': chr "'], re: /\$ (?<name>[\w.]{1,64})[ \t]*: chr "(?<secret>[^"\n]{4,})(?=")/g },
  // A keytab's keys as `klist -k -K` prints them: the enctype in parentheses, then the key in hex (`(aes256-cts-hmac-sha1-96)
  // (0x476b…)`: adv59 F26); the principal's own key, a password's equivalent.
  { kind: 'kerberos key', keywords: ['-hmac-', 'arcfour-', 'camellia', 'des3-'], re: /\((?:aes|arcfour|des|des3|camellia)[\w-]{2,48}\)[ \t]+\(0x(?<secret>[0-9a-f]{16,})(?=\))/g },
  // Unleash's API tokens (`*:*.<64 hex>`, `project:env.<64 hex>`: a `*` splits a token run: adv45 F33).
  { kind: 'unleash token', keywords: ['*:'], re: /(?<![\w*])(?:\*|[\w-]{1,64}):(?:\*|[\w-]{1,64})\.(?<secret>[a-f0-9]{64})(?![a-f0-9])/g },
  // An Erlang node's distribution cookie on its command line (`… -setcookie <cookie> -sname shop`, a release's `ps`: adv46 F32).
  { kind: 'erlang cookie', keywords: ['-setcookie'], re: /(?<![\w-])-setcookie[ \t]+['"]?(?<secret>[^\s'"]{1,256})/g },
  // Network gear and servers (adv93): Cisco's reversible type 7 (`password 7 <hex>`, `key 7 …`, `md5 7 …`), an IKE pre-shared key
  // (`crypto isakmp key <key> address …`), Junos' reversible `$9$…` secrets; `wg show all dump`'s private and preshared keys (an
  // interface's line: name, private, public, port; a peer's: name, public, preshared, endpoint); `nsupdate -y <alg>:<name>:<key>`;
  // FreeIPA's install passwords (`-p`, `-a`); iDRAC's `racadm -p`; MinIO's `mc admin user add <alias> <user> <secret>`;
  // chisel's `--auth user:password`; Postfix's sasl_passwd (`[host]:port user:password`); a Ceph keyring's `key = AQ…==`; a
  // cloudflared's and a Go exporter's password flags (`-redis.password …`); Nagios' `$USERn$=` macros that are no path.
  { kind: 'password', keywords: [' 7 '], needs: /\b(?:password|secret|key|md5)[ \t]+7[ \t]+[0-9A-F]{4}/, re: /\b(?:password|secret|key|md5)[ \t]+7[ \t]+(?<secret>[0-9A-F]{4,256})\b/g },
  // NX-OS's type 7 is letters shifted, quoted (`tacacs-server host 10.0.0.5 key 7 "fewhg123"`, `key 7 "…"` of a server group).
  { kind: 'password', keywords: [' 7 "'], re: /\b(?:password|secret|key|md5)[ \t]+7[ \t]+"(?<secret>[^"\s]{4,256})"/g },
  // fetchmail's `user "…" pass "…"` (its short keyword: adv246 F22); a NickServ IDENTIFY sent by a client's config (irssi's
  // `autosendcmd = "/msg NickServ IDENTIFY nick pw;…"`: F23); chrony's and ntpd's keys files (`2 SHA256 HEX:<hex>`: F25).
  { kind: 'password', keywords: ['pass "', "pass '"], re: /\buser(?:name)?[ \t]+(?:"[^"\n]{1,256}"|'[^'\n]{1,256}'|\S{1,256})[ \t]+pass[ \t]+(?:"(?<secret>[^"\n]{1,256})"|'(?<secret2>[^'\n]{1,256})')/g },
  { kind: 'password', keywords: ['identify '], needs: /nickserv[ \t]+identify[ \t]/i, re: /\bNickServ[ \t]+IDENTIFY[ \t]+(?:[^\s";]{1,64}[ \t]+)?(?<secret>[^\s";]{4,256})/gi, guard: true },
  { kind: 'ntp key', keywords: ['hex:', 'ascii:'], re: /^[ \t]*\d{1,5}[ \t]+(?:MD5|SHA1|SHA256|SHA384|SHA512|SHA3-\d{3}|AES128|AES256|CMAC|M)[ \t]+(?:HEX|ASCII):(?<secret>\S{4,256})/gim },
  // A YouTube stream key (five groups of four: `"key": "urvw-f0cm-kqes-k4z9-wdwj"` of OBS's service.json found by `grep -rn`, no
  // server beside it: pass 239 F14); YouTube's own API names it `"streamName"` under `cdn.ingestionInfo` (pass 305 F36), in
  // Python's quotes, YAML, escaped JSON too (adv308 Y2–Y4).
  { kind: 'stream key', keywords: ['"key"', 'streamname', 'stream_name'], re: /(?:"key"|\\?["']?(?:streamName|stream_name)\\?["']?)[ \t]*:[ \t]*\\?["']?(?<secret>(?=[a-z0-9-]{0,23}\d)[a-z0-9]{4}(?:-[a-z0-9]{4}){4})(?![a-z0-9-])/g },
  // A setter's string argument in code (ESPHome's generated `wifi_wifiap.set_password("…")`, `->set_auth_password("…")`: pass 238
  // S8; `client.setApiKey("…")`, `SetAccessToken("…")`), its last after others (`keyring.set_password("smtp", "alerts@…", "…")`:
  // adv245 F26): the value the program is configured with.
  { kind: 'password', keywords: ['password(', 'passwd(', 'passphrase(', 'secret(', 'token(', 'key(', 'psk('], needs: /(?:^|[^A-Za-z0-9])(?:set_?|Set)[A-Za-z0-9_]{0,32}(?:password|passwd|passphrase|psk|secret|token|key)\([^)\n]{0,256}"/i, re: /(?<![A-Za-z0-9])(?:set_?|Set)(?<name>[A-Za-z0-9_]{0,32}(?:password|passwd|passphrase|psk|secret|token|api_?key|auth_?key|private_?key|access_?key|secret_?key))\([ \t]*(?:(?:"[^"\n]{0,128}"|'[^'\n]{0,128}'|[\w.]{1,64})[ \t]*,[ \t]*){0,3}"(?<secret>[^"\\\n]{4,256})"[ \t]*\)/gi, guard: true },
  // A builder's method given the credential (Rust's `PostmarkClient::builder().token("<uuid>")`, reqwest's `.bearer_auth("…")`,
  // `Client::new().api_key("…")`, `.with_token("…")`: session 48's stop-time check): a literal with a letter and a digit, 8 and up,
  // no blank, not a constant's name (a lexer's `.token("IDENT_01")`).
  { kind: 'token', keywords: ['token(', 'key(', 'secret(', 'password(', 'auth('], needs: /\.(?:with_)?[a-z_]{0,16}(?:token|key|secret|password|auth)\([ \t]*(?:Some\()?"/i, re: /\.(?:with_|with(?=[A-Z]))?(?:[Aa]pi_?[Kk]ey|[Aa]pi_?[Tt]oken|[Aa]ccess_?[Tt]oken|[Aa]uth_?[Tt]oken|[Bb]earer_?[Aa]uth|[Bb]earer_?[Tt]oken|[Tt]oken|[Cc]lient_?[Ss]ecret|[Ss]ecret|[Pp]assword)\([ \t]*(?:Some\([ \t]*)?"(?<secret>(?![A-Z][A-Z0-9_]*")(?=[^"\n]{0,255}\d)(?=[^"\n]{0,255}[A-Za-z])[^"\\\s]{8,256})"/g, guard: true },
  // …and reqwest's `.basic_auth("user", Some("…"))`: the password, the second argument.
  { kind: 'password', keywords: ['basic_auth('], re: /\.basic_auth\([ \t]*(?:"[^"\n]{0,128}"|[\w.]{1,64})[ \t]*,[ \t]*Some\([ \t]*"(?<secret>[^"\\\n]{4,256})"/g },
  // Java's password idiom, a literal turned into a char array (`ks.load(in, "…".toCharArray())`: adv245 F27); Go's
  // `req.SetBasicAuth("user", "…")` (F28); Arduino's Wi-Fi joins (`wifiMulti.addAP("ssid", "…")`, `WiFi.begin(ssid, "…")`,
  // `WiFi.softAP("ap", "…")`: F25).
  { kind: 'password', keywords: ['.tochararray()'], re: /"(?<secret>[^"\\\s]{6,256})"\.toCharArray\(\)/g, guard: true },
  { kind: 'password', keywords: ['basicauth('], re: /\b[Ss]et[Bb]asic[Aa]uth\([ \t]*(?:"[^"\n]{0,128}"|[\w.]{1,64})[ \t]*,[ \t]*"(?<secret>[^"\\\n]{4,256})"/g, guard: true },
  { kind: 'wi-fi password', keywords: ['addap(', 'wifi.begin(', 'softap('], re: /\b(?:addAP|WiFi\.begin|softAP)\([ \t]*(?:"[^"\n]{1,64}"|[\w.]{1,64})[ \t]*,[ \t]*"(?<secret>[^"\\\n]{8,63})"/g, guard: true },
  { kind: 'ike pre-shared key', keywords: ['isakmp key'], re: /\bcrypto[ \t]+isakmp[ \t]+key[ \t]+(?:[06][ \t]+)?(?<secret>\S{1,256})(?=[ \t]+(?:address|hostname)\b)/g },
  { kind: 'password', keywords: ['$9$'], re: /(?<![\w$])(?<secret>\$9\$[^\s"';]{4,512})/g },
  // Splunk's encrypted setting (`sslPassword = $7$<base64>` in server.conf, outputs.conf, passwords.conf: pass 288 F12): reversible
  // with `etc/auth/splunk.secret` on the same host, as `$9$` is. Not an scrypt hash (`$7$<params>$<salt>$<hash>`: more `$`).
  { kind: 'splunk encrypted secret', keywords: ['$7$'], re: /(?<![\w$])(?<secret>\$7\$[A-Za-z0-9+\/]{40,512}={0,2})(?![\w$+\/=])/g },
  // IKEv2 keyring's `pre-shared-key local|remote [0|6] <key>` (pass 181 F4: the word was taken for the key).
  // Cisco's other secrets (adversary pass 106; its type 5 and 8 hashes stay, as hashes do): a RADIUS or TACACS+ server's plain
  // `key <key>` on its own indented line (after grep's `13- ` too: pass 224 F2), the ASA's `pre-shared-key <psk>` and `ldap-login-password <pw>`,
  // an SNMPv3 user's `auth <alg> <pass>` and `priv <alg> [bits] <pass>`. A gpg listing's `      key <16 or 40 upper-case hex>`
  // (a subkey's id or fingerprint, public: pass 82 L42) is not such a key.
  { kind: 'password', keywords: ['key '], sharesNameWords: true, needs: new RegExp(String.raw`^${WIDE_LINE_PREFIX}[ \t]+key[ \t]+(?:0[ \t]+)?\S+[ \t]*\r?$`, 'm'), re: new RegExp(String.raw`^${WIDE_LINE_PREFIX}[ \t]+key[ \t]+(?:0[ \t]+)?(?![0-9A-F]{16}(?:[0-9A-F]{24})?[ \t]*\r?$)(?<secret>(?![0-9][ \t])[^\s"'{};]{4,256})(?=[ \t]*\r?$)`, 'gm'), guard: true },
  { kind: 'ike pre-shared key', keywords: ['pre-shared-key ', 'ldap-login-password '], re: /\b(?:pre-shared-key|ldap-login-password)[ \t]+(?:address[ \t]+\S{1,64}[ \t]+(?:\d{1,3}(?:\.\d{1,3}){3}[ \t]+)?key[ \t]+|(?:local|remote)[ \t]+)?(?:[06][ \t]+)?(?:(?:ascii-text|hexadecimal)[ \t]+"?)?(?<secret>(?!\*{3})[^\s"']{1,256})/g, guard: true },
  { kind: 'snmp password', keywords: [' auth '], needs: /\bv3[ \t]+auth[ \t]/, re: /\bv3[ \t]+auth[ \t]+(?:md5|sha\w{0,8})[ \t]+(?<secret>\S{1,256})/gi },
  { kind: 'snmp password', keywords: [' priv '], needs: /\bv3[ \t]+auth[ \t][^\n]*[ \t]priv[ \t]/, re: /\bv3[ \t]+auth[ \t][^\n]{0,512}?[ \t]priv[ \t]+(?:des|3des|aes)(?:[ \t]+(?:128|192|256))?[ \t]+(?<secret>\S{1,256})/gi },
  // FortiOS' `set <…password|passwd|psksecret|key…> ENC <base64>` (a reversible encryption with a published key): the value; its
  // `ENC ********` placeholder stays. After grep's `12:` too (pass 224 F20).
  { kind: 'password', keywords: [' enc '], needs: new RegExp(String.raw`^${WIDE_LINE_PREFIX}[ \t]*set[ \t]+\S+[ \t]+ENC[ \t]`, 'm'), re: new RegExp(String.raw`^${WIDE_LINE_PREFIX}[ \t]*set[ \t]+[\w-]*(?:password|passwd|psksecret|secret|key|passphrase)[\w-]*[ \t]+ENC[ \t]+(?<secret>[A-Za-z0-9+/=]{8,4096})`, 'gm') },
  // An account's recovery codes listed after their label (a password manager's note: `"notes": "Recovery codes:\n06efc-bf8a8\n…"`
  // of `bw get item`, pass 183 F3; a line of them after the label): the list, sixteen codes at most, masked as one (GitHub's
  // `xxxxx-xxxxx` hex, two groups of four digits, or 8-20 lower-case letters and digits holding a digit), a separator between each;
  // tags after the colon (`</p><pre>`: adv189 F48).
  { kind: 'recovery codes', keywords: ['recovery code', 'backup code', 'recovery_code', 'backup_code'], re: new RegExp(String.raw`(?:[Rr]ecovery|[Bb]ackup)[ _-]codes?\b[^\n\\:]{0,32}(?::(?:[ \t]*<\/?[A-Za-z][A-Za-z0-9]{0,9}>){0,4}|\\n)[ \t]*(?:\\n[ \t]*)?(?<secret>${RECOVERY_CODE}(?![\w-])(?:(?:[ \t]*,[ \t]*|[ \t]+|\\n)${RECOVERY_CODE}(?![\w-])){0,15})`, 'g') },
  // VyOS' and EdgeOS' configuration commands (`show configuration commands`: pass 181 F11): a secret's setting, every value in
  // single quotes (`set interfaces wireguard wg0 private-key '…'`, `set vpn ipsec authentication psk HQ secret '…'`); a
  // `public-keys … key '…'` is an SSH public key.
  { kind: 'password', keywords: ['private-key ', 'preshared-key ', ' secret ', 'shared-secret '], needs: /(?:^|[-:])[ \t]*set[ \t]/m, re: new RegExp(String.raw`^${LINE_PREFIX}[ \t]*set[ \t]+(?:[^\s']{1,128}[ \t]+){1,12}(?:private-key|preshared-key|pre-shared-secret|shared-secret|secret)[ \t]+'(?<secret>[^'\n]{1,512})'`, 'gm') },
  // …the same typed without quotes, on a line or inside a string (a playbook's `["set vpn ipsec … secret <psk>"]`: adv189 F19), a
  // value holding a digit (a word after `secret` in a sentence has none);
  { kind: 'password', keywords: ['private-key ', 'preshared-key ', ' secret ', 'shared-secret '], needs: /(?:^|[-:"'])[ \t]*set[ \t]/m, re: new RegExp(String.raw`(?:^${LINE_PREFIX}|(?<=["']))[ \t]*set[ \t]+(?:[^\s']{1,128}[ \t]+){1,12}(?:private-key|preshared-key|pre-shared-secret|shared-secret|secret)[ \t]+(?<secret>(?=[^\s'"]{0,511}\d)[^\s'"\\,\]]{6,512})`, 'gm'), guard: true },
  // …and its config.boot, a setting alone on its indented line inside braces (`private-key <key>`, `pre-shared-secret <psk>`:
  // adv189 F18), not a file's path or name.
  { kind: 'password', keywords: ['private-key ', 'preshared-key ', 'pre-shared-secret ', 'shared-secret '], re: new RegExp(String.raw`^${LINE_PREFIX}[ \t]+(?:private-key|preshared-key|pre-shared-secret|shared-secret)[ \t]+(?![^\s"]{0,256}\.(?:pem|key|crt|der|p12|pfx|txt|conf)"?[ \t]*\r?$)"?(?<secret>[^\s"{}/$'<~.%][^\s"{};]{7,511})"?[ \t]*\r?$`, 'gm'), guard: true },
  // Zephyr's settings shell (`uart:~$ settings set golioth/psk <psk>`: pass 184 F29): a setting whose path ends in a secret's name.
  { kind: 'password', keywords: ['settings set ', 'settings write '], re: /\bsettings[ \t]+(?:set|write(?:[ \t]+(?:string|hex))?)[ \t]+(?:[\w.-]{1,64}\/){1,8}(?<name>[\w.-]{1,64})[ \t]+(?<secret>"[^"\n]{1,512}"|[^\s"']{4,512})/g, guard: true },
  // Jenkins' credentials listed by a script-console dump (`<id> : UsernamePasswordCredentialsImpl : <user> : <password>`,
  // `<id> : StringCredentialsImpl :  : <secret>`: adv193 F2): the row's last field.
  // …or tab-separated with the class's full name (`…\tcom.cloudbees.plugins.credentials.impl.UsernamePasswordCredentialsImpl\tuser\tpw`: adv194 F35).
  { kind: 'password', keywords: ['credentialsimpl'], re: /^[^\t\n]{1,256}\t(?:[\w$]{1,64}\.){0,12}\w{0,64}Credentials\w{0,32}Impl\t[^\t\n]{0,256}\t(?<secret>[^\t\n]{0,511}[^\s])[ \t]*\r?$/gm, guard: true },
  { kind: 'password', keywords: ['credentialsimpl'], re: /[ \t]:[ \t]+\w{0,64}Credentials\w{0,32}Impl[ \t]+:[ \t]*[^:\n]{0,256}?[ \t]*:[ \t]+(?<secret>\S[^\n]{0,511}?)[ \t]*\r?$/gm, guard: true },
  // Proxmox VE's API tokens file (`/etc/pve/priv/token.cfg`: `<user>@<realm>!<token id> <secret UUID>`, on grep's prefix: adv191 F4).
  { kind: 'proxmox api token', keywords: ['@pam!', '@pve!', '@pbs!'], re: /(?:^[ \t]*\d{1,9}\t|^|[:-])[\w.-]{1,64}@(?:pam|pve|pbs|[\w.-]{1,32})![\w.-]{1,64}[ \t]+(?<secret>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})[ \t]*\r?$/gm },
  // A connection URL's password in a Java properties file, its colons escaped (UniFi's `db.mongo.uri=mongodb\://unifi\:<pw>@host\:27017`: adv191 F12).
  { kind: 'password in url', keywords: ['\\://', '\\\\://'], re: /\b[a-z][\w+.-]{1,20}\\{1,4}:\/\/[^\s:@\/\\]{0,128}\\{1,4}:(?<secret>[^\s@\/\\]{1,256})@/g, guard: true },
  // Substrate's `subkey generate` / `inspect`: `Secret seed:       0x<64 hex>` (adv192 F19).
  { kind: 'private key', keywords: ['secret seed:'], re: /\bSecret seed:[ \t]+(?<secret>0x[0-9a-fA-F]{64})\b/g },
  // geth's console unlocking an account with its password (`personal.unlockAccount(eth.accounts[0], "…", 300)` in its history: adv192 F39).
  // …web3.py's `unlock_account(…)`, and the JSON-RPC call's params (`"method":"personal_unlockAccount","params":["0x…","…",300]`: adv194 F20, F21).
  { kind: 'password', keywords: ['personal_unlockaccount'], re: /"personal_unlockAccount"[^\n]{0,64}?"params"[ \t]*:[ \t]*\[[ \t]*"[^"\n]{1,128}"[ \t]*,[ \t]*"(?<secret>(?:[^"\\\n]|\\.){1,256})"/g, guard: true },
  { kind: 'password', keywords: ['unlockaccount(', 'unlock_account('], re: /\bunlock(?:Account|_account)\([^,()\n]{1,128},[ \t]*(?<q>["'])(?<secret>(?:(?!\k<q>)[^\n]){1,256})\k<q>/g, guard: true },
  // Solana's keypair from its base58 secret key in code (`Keypair.fromSecretKey(bs58.decode("…"))`: adv192 F16): 64 bytes, 86-88 characters.
  { kind: 'private key', keywords: ['fromsecretkey(', 'from_base58_string('], re: /\b(?:fromSecretKey\([ \t]*(?:[\w.]{0,32}\.)?(?:bs58|base58)(?:\.default)?\.decode|from_base58_string)\([ \t]*["'`](?<secret>[1-9A-HJ-NP-Za-km-z]{80,90})["'`]/g },
  // Infura's project id as a URL's user (`https://<id>:<secret>@mainnet.infura.io/v3/<id>`: adv192 F26).
  { kind: 'infura project key', keywords: ['infura.io'], re: /\/\/(?<secret>[0-9a-f]{32}):[^@\s\/]{1,256}@[\w.-]{0,64}infura\.io\b/g },
  // A Terraform random_password's result by its resource address (`module.db.random_password.master.result = …` of a script walking
  // a state's sensitive attributes: adv190 F15).
  { kind: 'password', keywords: ['random_password.'], re: /\brandom_password\.[\w-]{1,128}(?:\[[^\]\n]{1,64}\])?\.result["']?[ \t]*[=:][ \t]*["']?(?<secret>[^\s"']{4,512})/g, guard: true },
  // A script's row of three words, the second a secret's name (`console.log(resource, key, value)` of a stack's decrypted inputs:
  // `main password <pw>`, `default apiKey <hex>`: adv190 F34): the third, holding a digit or a symbol.
  { kind: 'secret', keywords: ['secret', 'token', 'pass', 'key', 'auth', 'pwd'], sharesNameWords: true, re: /^[\w.:/@-]{1,64} (?<name>[A-Za-z][\w.-]{2,63}) (?<secret>(?=[^\s]{0,511}[\d!@#$%^&*+=])[^\s]{8,512})[ \t]*\r?$/gm, guard: true },
  // A keyed hash's key printed by a log line (`HmacValidator using key=<64 hex>`: adv196 F10): a key, hmac key or secret of 32
  // bytes and up in hex after `key=` within a log's words.
  { kind: 'secret', keywords: ['key='], needs: /(?:hmac|signing|webhook|secret)[\w ]{0,40}key=/i, re: /(?:hmac|signing|webhook|secret)[\w ]{0,40}?\bkey=(?<secret>[0-9A-Fa-f]{64,128})\b/gi },
  // Nagios' resource macros (`$USER3$=<password>` in resource.cfg, made to hold what plugins' command lines must not show:
  // adv195 F33), under grep's prefix too; `$USER1$=/usr/lib/nagios/plugins` is a path.
  { kind: 'password', keywords: ['$user'], re: new RegExp(String.raw`^${LINE_PREFIX}[ \t]*\$USER\d{1,3}\$[ \t]*=[ \t]*(?<secret>[^\s]{4,512})`, 'gm'), guard: true },
  // A DNSSEC private key file's RSA fields (BIND's `K<zone>.+008+<tag>.private`: `PrivateExponent:`, `Prime1:` … `Coefficient:`:
  // adv199 F36); its `Modulus:` and `PublicExponent:` are the public key's.
  { kind: 'private key', keywords: ['privateexponent:', 'prime1:', 'prime2:', 'exponent1:', 'exponent2:', 'coefficient:'], re: new RegExp(String.raw`^${LINE_PREFIX}[ \t]*(?:PrivateExponent|Prime[12]|Exponent[12]|Coefficient):[ \t]+(?<secret>[A-Za-z0-9+/]{16,4096}={0,2})[ \t]*\r?$`, 'gm') },
  // Tasmota's console commands (`Backlog SSID1 x; Password1 <pw>; MqttPassword <pw>`).
  { kind: 'password', keywords: ['password1 ', 'password2 ', 'mqttpassword ', 'webpassword '], re: /(?:^|[;>]|Backlog)[ \t]*(?:Password[12]|MqttPassword|WebPassword)[ \t]+(?<secret>[^;\s]{1,256})/gm, guard: true },
  { kind: 'wireguard private key', keywords: ['=\t'], needs: /^[\w.-]{1,15}\t[A-Za-z0-9+/]{43}=\t[A-Za-z0-9+/]{43}=\t/, re: /^[\w.-]{1,15}\t(?<secret>[A-Za-z0-9+/]{43}=)(?=\t[A-Za-z0-9+/]{43}=\t(?:\d{1,5}|\(none\))\t)/gm },
  // A peer's endpoint has its port after a colon: an interface's line has its listening port there, after its public key (the
  // lead's check of adv143 F48: the interface's public key was masked as a preshared one).
  { kind: 'wireguard preshared key', keywords: ['=\t'], needs: /^[\w.-]{1,15}\t[A-Za-z0-9+/]{43}=\t[A-Za-z0-9+/]{43}=\t/, re: /^[\w.-]{1,15}\t[A-Za-z0-9+/]{43}=\t(?<secret>[A-Za-z0-9+/]{43}=)(?=\t(?:\(none\)|(?=[\d.[\]a-fA-F]{0,63}:)[\d.:[\]a-fA-F]{2,64})\t)/gm },
  { kind: 'tsig key', keywords: ['nsupdate', 'dig ', 'delv '], re: /\b(?:nsupdate|dig|delv)\b[^\n|;&]{0,512}?[ \t]-y[ \t]+['"]?(?:hmac-[\w-]{1,32}:)?[\w.-]{1,253}:(?<secret>[A-Za-z0-9+/]{8,512}={0,2})/g },
  // A legacy HMAC key's public file holds the secret too (`ddns. IN KEY 512 3 157 <base64>`: algorithms 157, 161–165 are HMAC's,
  // pass 255's next forms); PowerDNS' `pdnsutil list-tsig-keys` (`name. hmac-sha256. <secret>`) and `generate-tsig-key`.
  { kind: 'tsig key', keywords: [' key '], needs: /\bKEY[ \t]+\d+[ \t]+3[ \t]+(?:157|16[1-5])[ \t]/, re: /\bIN[ \t]+KEY[ \t]+\d{1,5}[ \t]+3[ \t]+(?:157|16[1-5])[ \t]+(?<secret>[A-Za-z0-9+/]{8,1024}={0,2})/g },
  // grep's lines of an HMAC key file, its name before each (`keys/Kddns.+163+40312.private:Key: …`: adv263 T1).
  // A table's row that ends in a name's cell and its value's (aws' `--output table` of CloudFormation's outputs or parameters:
  // `|  <description> |  PartnerApiKeyValue |  <key> |`, pass 260 CF1): the value when the name is a secret's (less a `Value`
  // its output's name ends in), a value with a digit (a documentation table's `| Secret | Description |` is titles).
  { kind: 'secret', keywords: ['pass', 'pwd', 'secret', 'token', 'key', 'auth', 'cred'], sharesNameWords: true, needs: /^\|[^\n]*\|[ \t]*\r?$/, re: /^\|(?:[^|\n]{0,4096}\|){0,32}?[ \t]+(?<name>[A-Za-z][A-Za-z0-9_.-]{2,127}?)(?:Value)?[ \t]+\|[ \t]+(?<secret>(?=[^\s|]{0,4095}\d)[^\s|]{8,4096})[ \t]+\|[ \t]*\r?$/gm, guard: true },
  // …and their `--output text` rows (`OUTPUTS\tAdminPasswordValue\t<value>`, `PARAMETERS\tDbPassword\t<value>`).
  { kind: 'secret', keywords: ['pass', 'pwd', 'secret', 'token', 'key', 'auth', 'cred'], sharesNameWords: true, needs: /^(?:OUTPUTS|PARAMETERS)\t/, re: /^(?:OUTPUTS|PARAMETERS)\t(?:[^\t\n]{0,1024}\t)?(?<name>[A-Za-z][A-Za-z0-9_.-]{2,127}?)(?:Value)?\t(?<secret>[^\s]{6,4096})[ \t]*\r?$/gm, guard: true },
  // A Source engine server's Game Server Login Token (srcds' `sv_setsteamaccount "<32 hex>"` in server.cfg, `+sv_setsteamaccount
  // <token>` on its command line: pass 264 F9).
  { kind: 'token', keywords: ['sv_setsteamaccount'], re: /\bsv_setsteamaccount[ \t]+"?(?<secret>[0-9A-Fa-f]{32})(?![0-9A-Fa-f])/g },
  // Django REST framework's token as its header carries it, quoted (`'Token <40 hex>'` in a debug page's META, a repr): adv262 F2.
  { kind: 'token', keywords: ['token '], needs: /Token [0-9a-f]{40}/, re: /(?:['"`]|&#x27;|&#39;|&quot;)Token (?<secret>[0-9a-f]{40})(?=['"`&])/g },
  { kind: 'tsig key', keywords: ['.private:key:'], re: /\.\+(?:157|16[1-5])\+\d{1,5}\.private:(?:\d+:)?Key:[ \t]+(?<secret>[A-Za-z0-9+/]{8,1024}={0,2})/g },
  { kind: 'tsig key', keywords: ['. hmac-', 'create new tsig key '], re: /(?:^[ \t]*[\w.-]{1,253}\.[ \t]+hmac-[a-z0-9]{2,16}\.|Create new TSIG key [\w.-]{1,253} hmac-[a-z0-9]{2,16})[ \t]+(?<secret>[A-Za-z0-9+/]{8,1024}={0,2})[ \t]*\r?$/gm },
  { kind: 'password', keywords: ['ipa-'], needs: /\bipa-(?:server|replica|client)-install\b/, re: argAfter(String.raw`(?<=\bipa-(?:server|replica|client)-install\b${QUOTED_OR_WORDS}[ \t])(?:-[pa]|-w|--ds-password|--admin-password|--password)[ \t=]+`) },
  // Coverage and scanning CLIs given their UUID token on the command line (a CI step's xtrace: adversary pass 103 F50):
  // `codecov … -t <token>` / `--token`, `snyk auth <token>`, `snyk config set api=<token>`.
  // Jenkins' inbound agent's secret on its command line (`java -jar agent.jar -url … -secret <64 hex> -name …`, `ps` in a CI pod:
  // adv120 F49): the one-dash option of agent.jar, 64 hex digits.
  // …and in the clear, as a provisioning script sets it (`set psksecret "…"`, `set passwd "…"`: pass 224 F22); `set password`'s
  // value is the name rules'.
  { kind: 'ike pre-shared key', keywords: ['set psksecret', 'set passwd ', 'set secondary-secret', 'set key-secret'], re: new RegExp(String.raw`^${WIDE_LINE_PREFIX}[ \t]*set[ \t]+(?:psksecret|passwd|secondary-secret|key-secret)[ \t]+(?!ENC[ \t])"?(?<secret>[^\s"]{4,256})`, 'gm'), guard: true },
  // Aruba's secrets: AOS-CX's `ciphertext AQB…` (reversible with the switch's key: `password ciphertext`, `key ciphertext`,
  // `auth-pass ciphertext`), ArubaOS' `mgmt-user <user> <role> <hex>` and a WLAN's `wpa-passphrase <hex>` (pass 224 F23).
  { kind: 'network device password', keywords: ['ciphertext aq'], re: /\bciphertext[ \t]+(?<secret>AQ[A-Za-z0-9+/=]{16,4096})/g },
  { kind: 'network device password', keywords: ['mgmt-user ', 'wpa-passphrase '], re: /\b(?:mgmt-user[ \t]+\S{1,64}(?:[ \t]+(?![0-9a-f]{32})\S{1,64})?|wpa-passphrase)[ \t]+(?<secret>[0-9a-f]{32,256})(?![0-9a-f])/g },
  // A RADIUS or TACACS+ server's key on its host line (ProCurve's `radius-server host <ip> key "…"`, IOS' `tacacs-server host <ip>
  // key 0 …`: pass 224 F24).
  { kind: 'network device password', keywords: ['radius-server host', 'tacacs-server host'], re: /\b(?:radius|tacacs)-server[ \t]+host[ \t]+\S{1,256}(?:[ \t]+(?!key\b)\S{1,64}){0,8}?[ \t]+key[ \t]+(?:[07][ \t]+)?(?!ciphertext\b)"?(?<secret>[^\s"]{4,256})/g },
  // HPE Comware's RADIUS scheme keys (`key authentication cipher $c$3$…`, reversible; `key accounting simple <plain>`: adv236 F11).
  { kind: 'network device password', keywords: ['key authentication ', 'key accounting '], re: /\bkey[ \t]+(?:authentication|accounting)[ \t]+(?:cipher|simple)[ \t]+(?<secret>\S{4,256})/g },
  // tac_plus' key unquoted (`key = Meadow-Falcon-55!`: adv236 F14), a line of its own; a digit and a symbol in it (a config's `key =
  // name` of another format is a word).
  { kind: 'tacacs key', keywords: ['key ='], needs: /^[ \t]*key[ \t]*=[ \t]*[^\s"]/m, re: /^[ \t]*key[ \t]*=[ \t]*(?<secret>(?=[^\s"]{0,255}\d)(?=[^\s"]{0,255}[^\w\s"])[^\s"#]{8,256})[ \t]*\r?$/gm, guard: true },
  // RANCID's .cloginrc (`add password <host glob> {<vty password>} {<enable password>}`: pass 224 F35): each braced or bare word.
  { kind: 'password', keywords: ['add password', 'add enapassword', 'add userpassword'], re: /^(?:(?:[^\s:]{1,256}:)?\d{1,9}[:-])?[ \t]*add[ \t]+(?:password|enapassword|userpassword)[ \t]+(?:\S{1,256}[ \t]+\{(?<secret>[^}\n]{1,256})\}|[^\s.*]{0,256}[.*]\S{0,256}[ \t]+(?<secret2>[^\s{}]{1,256}))(?=(?:[ \t]+(?:\{[^}\n]{0,256}\}|[^\s{}]{1,256}))?[ \t]*\r?$)/gm },
  { kind: 'password', keywords: ['add password'], re: /^(?:(?:[^\s:]{1,256}:)?\d{1,9}[:-])?[ \t]*add[ \t]+password[ \t]+\S{1,256}[ \t]+(?:\{[^}\n]{0,256}\}[ \t]+\{(?<secret>[^}\n]{1,256})\}|[^\s{}]{1,256}[ \t]+(?<secret2>[^\s{}]{1,256}))(?=[ \t]*\r?$)/gm },
  // …a plain host's two bare words (`add password core-sw1 <vty> <enable>`: adv236 F12): the first too.
  { kind: 'password', keywords: ['add password'], re: /^(?:(?:[^\s:]{1,256}:)?\d{1,9}[:-])?[ \t]*add[ \t]+password[ \t]+[^\s{}]{1,256}[ \t]+(?<secret>[^\s{}]{1,256})(?=[ \t]+[^\s{}]{1,256}[ \t]*\r?$)/gm },
  // tac_plus' shared key (`key = "…"` at a file's top or in a host block: pass 224 F39), its own config's word for the secret.
  { kind: 'tacacs key', keywords: ['key = "'], needs: /^[ \t]*key[ \t]*=[ \t]*"[^"\n]{4,}"/m, re: /^(?:(?:[^\s:]{1,256}[-:])?\d{1,9}[-:])?[ \t]*key[ \t]*=[ \t]*"(?<secret>[^"\n]{4,256})"[ \t]*\r?$/gm, guard: true },
  { kind: 'jenkins agent secret', keywords: [' -secret '], re: /(?<=[ \t])-secret[ \t]+(?<secret>[0-9a-f]{64})(?![0-9a-f])/g },
  // hiera-eyaml's decrypted values in `eyaml edit` / `eyaml decrypt -f` (`DEC(3)::PKCS7[<plain text>]!`, adv120 F21): what is
  // inside is the secret the ENC block encrypts, whatever its key is named. Its own help line (`DEC(<num>)::PKCS7[]!`) holds none.
  // A value runs to the next `DEC(` at most (a line of openings with no `]!` is read once, not 4 KB from each).
  { kind: 'eyaml secret', keywords: ['::pkcs7[', '::gpg['], re: /\bDEC\(\d{1,6}\)::(?:PKCS7|GPG)\[(?<secret>(?:(?!DEC\()[^\]\n]){1,4096})(?=\]!)/g },
  // Cisco IOS / NX-OS configuration (`show running-config`: adv124 F01–F05): a password or key in the clear (type 0) or in type 7
  // (reversible by design), not a hash (types 5, 8, 9): `enable password`, `username … password 0|7`, `key-string [7]`, a BGP
  // Junos' set form in clear (a `junos_config src=` file before commit encrypts it: pass 280 F9): a login's
  // `plain-text-password-value "…"`, a TACACS+ or RADIUS server's `secret "…"`, a BGP group's `authentication-key "…"`.
  { kind: 'network device password', keywords: ['plain-text-password-value', ' secret "', 'authentication-key "'], re: /\b(?:plain-text-password-value|(?:tacplus|radius)-server[ \t]+\S{1,64}[ \t]+secret|authentication-key)[ \t]+(?:"(?<secret>[^"\n]{1,256})"|(?<secret2>[^\s";]{4,256}))/g },
  // net-snmp's persistent `usmUser` rows (`/var/lib/snmp/snmpd.conf`: pass 280 F40): the auth protocol's OID, then its localized
  // key, the privacy protocol's OID, then its key: each logs in as the user's passphrase does.
  { kind: 'snmp localized key', keywords: ['usmuser'], re: /(?<=[ \t])\.1\.3\.6\.1\.[\d.]{3,40}[ \t]+(?<secret>0x[0-9a-fA-F]{16,128})(?![0-9a-fA-F])/g },
  // `neighbor … password`, `tacacs-server key 7 "…"`, `radius-server key`, OSPF's `authentication-key` / `message-digest-key N md5`.
  // NTP's `ntp authentication-key N md5 <key> [7]` and an autonomous AP's `wpa-psk ascii|hex [0|7] <psk>` (pass 181 F4, F36).
  // Junos' `authentication-key N type md5 value "…"` (NTP) and `authentication md5 N key "…"` (OSPF): adv189 F15.
  { kind: 'network device password', keywords: ['enable password', 'enable secret', ' password 0 ', ' password 7 ', 'key-string', 'neighbor ', 'tacacs-server key', 'radius-server key', 'authentication-key', 'authentication md5', 'message-digest-key', ' secret 0 ', 'wpa-psk '], re: /(?:\benable[ \t]+(?:password|secret)(?:[ \t]+level[ \t]+\d{1,2})?|\busername[ \t]+\S{1,64}(?:[ \t]+privilege[ \t]+\d{1,2})?[ \t]+(?:password|secret)|\bkey-string|\bneighbor[ \t]+\S{1,64}[ \t]+password|\b(?:tacacs|radius)-server[ \t]+key|\bip[ \t]+ospf[ \t]+(?:authentication-key|message-digest-key[ \t]+\d{1,3}[ \t]+md5)|\bntp[ \t]+authentication-key[ \t]+\d{1,5}[ \t]+(?:md5|sha1|hmac-sha[\w-]{0,12}|cmac-aes-128)|\bauthentication-key[ \t]+\d{1,5}[ \t]+type[ \t]+(?:md5|sha1|sha256)[ \t]+value|\bauthentication[ \t]+md5[ \t]+\d{1,3}[ \t]+key|\bwpa-psk[ \t]+(?:ascii|hex))(?![ \t]+[1-689][ \t])(?:[ \t]+[07](?=[ \t]))?[ \t]+"?(?<secret>[^\s"]{4,256})/g },
  // NX-OS's SNMPv3 user with localized keys (`snmp-server user u role auth md5 0x… priv 0x… localizedkey`): each key.
  { kind: 'snmp key', keywords: ['localizedkey'], re: /\b(?:auth[ \t]+(?:md5|sha\w{0,8})|priv(?:[ \t]+aes-128)?)[ \t]+(?<secret>0x[0-9a-fA-F]{32,128})(?=[^\n]{0,256}\blocalizedkey\b)/g },
  // tac_plus.conf's user passwords in the clear (`login = cleartext "…"`, `pap = cleartext …`: adv124 F23).
  { kind: 'password', keywords: ['cleartext'], re: /\b(?:login|enable|pap|chap|arap|opap|global)[ \t]*=[ \t]*cleartext[ \t]+"?(?<secret>[^\s"]{1,256})/g },
  // `meltano config <plugin> list` (pass 209 F21): `password [env: TARGET_SNOWFLAKE_PASSWORD] current value: '…' (from `.env`)`, the
  // setting's environment variable naming the secret.
  { kind: 'password', keywords: ['current value:'], re: /\[env:[ \t]+[A-Z0-9_]*(?:PASSWORD|PASSPHRASE|SECRET|TOKEN|API_KEY|APIKEY|PRIVATE_KEY|SECRET_KEY|_PASS|PWD)\][ \t]+current value:[ \t]+(?:'(?<secret>[^'\n]{1,1024})'|"(?<secret2>[^"\n]{1,1024})")/g },
  // impacket's secretsdump (`user:rid:<LM hash>:<NT hash>:::`; a machine account's in its LSA secrets without the rid) and mimikatz' `* NTLM : …` / `* SHA1 : …`: an NT hash signs in as
  // its user (pass-the-hash), so it is a credential, not a digest (adv124 F39, F40); DPAPI's machine and user keys.
  // A row after a tool's prefix too (netexec's `SMB  10.0.0.5  445  WS031  Administrator:500:…:::`, a diff's `+`: pass 206 F5, F32);
  // not the well-known hash of an empty password (`31d6cfe0…`: a disabled Guest's, L8).
  { kind: 'nt hash', keywords: [':::'], re: /(?:^|(?<=[ \t+]))[^\s:]{1,256}:(?:\d{1,10}:)?[0-9a-fA-F]{32}:(?!31d6cfe0d16ae931b73c59d7e0c089c0)(?<secret>[0-9a-fA-F]{32})(?=:::)/gim },
  // gMSADumper's `svc_sql$:::<nt hash>` (no RID, no LM half: adv251 F33).
  { kind: 'nt hash', keywords: [':::'], re: /(?:^|(?<=[ \t+]))[^\s:]{1,256}:::(?!31d6cfe0d16ae931b73c59d7e0c089c0)(?<secret>[0-9a-fA-F]{32})(?![0-9a-fA-F:])/gm },
  // mimikatz' `* DPAPI : …` beside them (pass 206 F8).
  { kind: 'nt hash', keywords: ['* ntlm', '* sha1', '* dpapi'], re: /\*[ \t]+(?:NTLM|SHA1|DPAPI|sha1\(key\))[ \t]*:[ \t]*(?!31d6cfe0d16ae931b73c59d7e0c089c0)(?<secret>[0-9a-f]{32}(?:[0-9a-f]{8})?)\b/g },
  { kind: 'dpapi key', keywords: ['dpapi_machinekey', 'dpapi_userkey'], re: /\bdpapi_(?:machine|user)key:(?<secret>0x[0-9a-f]{40})/g },
  // mimikatz' machine account's Kerberos password as spaced hex bytes (`* Password : 7e 85 88 db …`: adv247 F12).
  { kind: 'password', keywords: ['* password'], re: /\*[ \t]+Password[ \t]*:[ \t]*(?<secret>(?:[0-9a-f]{2} ){15,511}[0-9a-f]{2})\b/g },
  // certipy's `NT hash for 'svc_ca': <hex>` (adv247 F33); pypykatz' fields reshaped by jq, `NT=<hex>`, `MK{<guid>}=<masterkey>` (F14).
  { kind: 'nt hash', keywords: ['nt hash for'], re: /\bNT hash for '[^'\n]{1,256}':[ \t]+(?!31d6cfe0d16ae931b73c59d7e0c089c0)(?<secret>[0-9a-fA-F]{32})(?![0-9a-fA-F])/g },
  { kind: 'nt hash', keywords: ['nt=', 'nthash='], unless: /(?![0-9a-fA-F]{32})/y, re: /(?<![\w-])(?:NT|NThash)=(?!31d6cfe0d16ae931b73c59d7e0c089c0)(?<secret>[0-9a-fA-F]{32})(?![0-9a-fA-F])/g },
  // …and the SHA1 beside it (pypykatz' `SHAHash`, DPAPI's pre-key; a `SHA1=` alone is a file's digest: Sysmon's `Hashes=`).
  { kind: 'nt hash', keywords: ['nt='], unless: /(?![0-9a-fA-F]{32})/y, re: /(?<![\w-])NT=[0-9a-fA-F]{32}[ \t]+SHA1=(?<secret>[0-9a-fA-F]{40})(?![0-9a-fA-F])/g },
  { kind: 'dpapi key', keywords: ['mk{'], re: /\bMK\{[0-9a-fA-F-]{36}\}=(?<secret>[0-9a-fA-F]{64,128})(?![0-9a-fA-F])/g },
  // A password typed where the user name goes, as sshd logs it (`Invalid user _5v!Dwzt…%0 from 10.0.9.14`, `Failed password for
  // invalid user … from`: pass 258 F26): a "user" holding a character no login name has (a symbol other than `. _ - @ $`).
  // (A letter, a digit and a symbol no login name has, or `@` without a domain's dot (`Orchid@maple47`): `CORP\\jsmith`,
  // `oracle+test`, `user(1)`, `ops1@example.com` are names an attacker tried: adv263
  // LA1, LA2. Its other lines too: `Connection closed by invalid user X <ip>`, `input_userauth_request: invalid user X [preauth]`.)
  { kind: 'password', keywords: ['invalid user '], re: /\b[Ii]nvalid user (?<secret>(?=[^\s]{0,255}[A-Za-z])(?=[^\s]{0,255}\d)(?=[^\s]{0,255}[!#$%^&*?~=;,@])(?![^\s]{0,255}@[^\s]{0,255}\.)[^\s]{6,256})(?= from | \d{1,3}(?:\.\d{1,3}){3} | \[preauth\]|[ \t]*\r?$)/gm, guard: true },
  // pypykatz' `dpapi prekey`/`masterkey` lines (`[GUID] …` then `[MASTERKEY] <hex>`: adv253's leftover); lsassy's credentials
  // (`[+] 10.0.0.5 CORP\\alice  <password or NT hash>`, two blanks before it).
  { kind: 'dpapi key', keywords: ['[masterkey]'], re: /\[MASTERKEY\][ \t]+(?<secret>[0-9a-fA-F]{64,128})(?![0-9a-fA-F])/g },
  // pypykatz' text output's DPAPI block (`== DPAPI [3e7]==` then tab-indented `masterkey <hex>` and `sha1_masterkey <hex>`: the
  // stop-time check's leftover).
  { kind: 'dpapi key', keywords: ['masterkey '], re: /^[ \t]+(?:sha1_)?masterkey[ \t]+(?<secret>[0-9a-fA-F]{40,128})[ \t]*\r?$/gm },
  // (lsassy 3 tags each value, `[NT] <hash> | [SHA1] <hash>`, `[PWD] <password>`; a host by its name; netexec's module rows,
  // `LSASSY  10.0.0.5  445  DC01  CORP\\svc  <value>`: adv263 X1–X3.)
  // (Its `needs` anchored at the line's start: `\\[^\n]*[ \t]{2}` searched from every backslash of a megabyte line of `[+] a\\b:`
  // was quadratic, 103 s on CI: hostile text 859.)
  { kind: 'password', keywords: ['[+] '], needs: /^\[\+\] \S{1,253} [\w.-]{1,64}\\[^\s]{0,256}[ \t]{2}/, re: /^\[\+\] [\w.:-]{1,253} [\w.-]{1,64}\\{1,2}[\w.$-]{1,64}[ \t]{2,}(?:\[(?:NT|PWD|LM|SHA1|AES\d*)\] )?(?<secret>[^\s]{4,256})(?:[ \t]*\|[ \t]*\[(?:NT|PWD|LM|SHA1|AES\d*)\] (?<secret2>[^\s]{4,256}))?[ \t]*\r?$/gm, guard: true },
  { kind: 'password', keywords: ['lsassy '], re: /^LSASSY[ \t]+\S{1,253}[ \t]+\d{1,5}[ \t]+\S{1,64}[ \t]+[\w.-]{1,64}\\{1,2}[\w.$-]{1,64}[ \t]+(?<secret>[^\s]{4,256})[ \t]*\r?$/gm, guard: true },
  // pypykatz' text output (`NT: <hex>`) and mimikatz' DCSync (`Hash NTLM: <hex>`): adv253 F30, F33.
  { kind: 'nt hash', keywords: ['nt:', 'hash ntlm:'], unless: /(?![ \t]+[0-9a-fA-F]{32})/y, re: /(?<![\w-])(?:NT|Hash NTLM):[ \t]+(?!31d6cfe0d16ae931b73c59d7e0c089c0)(?<secret>[0-9a-fA-F]{32})(?![0-9a-fA-F])/g },
  // mimikatz' `sekurlsa::ekeys` rows (`rc4_hmac_nt       <hex>`, `aes256_hmac <hex>`: adv253 F33): a Kerberos key a row.
  { kind: 'kerberos key', keywords: ['rc4_hmac', 'rc4_md4', 'aes256_hmac', 'aes128_hmac'], re: /\b(?:rc4_hmac_nt(?:_exp)?|rc4_hmac_old(?:_exp)?|rc4_md4|aes256_hmac|aes128_hmac)[ \t]+(?!31d6cfe0d16ae931b73c59d7e0c089c0)(?<secret>[0-9a-f]{32}(?:[0-9a-f]{32})?)(?![0-9a-f])/g },
  // Rubeus' `ASREP (key) : <hex>` under its ticket (adv247 F34): the user's long-term key the request used.
  { kind: 'kerberos key', keywords: ['asrep (key)'], re: /\bASREP \(key\)[ \t]*:[ \t]+(?<secret>[0-9A-Fa-f]{32}(?:[0-9A-Fa-f]{32})?)(?![0-9A-Fa-f])/g },
  // netexec's and DonPAPI's decrypted DPAPI credential: `[CREDENTIAL] Domain:target=… - CORP\user:password` (adv247 F7).
  { kind: 'password', keywords: ['[credential]'], re: /\[CREDENTIAL\][^\n[]{0,512}? - (?:[^\s\\:]{1,64}\\)?[^\s\\:]{1,128}:(?<secret>[^\n]{1,256}?)[ \t]*\r?$/gm },
  // aircrack-ng's `KEY FOUND! [ passphrase ]` and the keys it derived, rows of spaced hex bytes (adv247 F35; the rows below the
  // first: valueContinuations). Not its `EAPOL HMAC` (a frame's MIC).
  { kind: 'wi-fi key', keywords: ['key found!'], re: /KEY FOUND! \[ (?<secret>[^\n]{1,63}?) \]/g },
  { kind: 'wi-fi key', keywords: ['master key', 'transient key'], needs: /(?:Master|Transient) Key[ \t]*:/, re: /\b(?:Master|Transient) Key[ \t]*:[ \t]+(?<secret>(?:[0-9A-F]{2} ){15}[0-9A-F]{2})/g },
  // An NT hash after the empty LM hash wherever it stands (Volatility's hashdump table, metasploit's `creds`, john's `--show`,
  // netexec's rows: pass 206 F7, F21, F26): the LM half `aad3b435…` says the next 32 hex digits are the NT half.
  { kind: 'nt hash', keywords: ['aad3b435b51404ee'], re: /\baad3b435b51404eeaad3b435b51404ee[:\t ]{1,8}(?!31d6cfe0d16ae931b73c59d7e0c089c0)(?<secret>[0-9a-fA-F]{32})(?![0-9a-fA-F])/gi },
  // Kerberos long-term keys as secretsdump and `klist -k -K` print them (`krbtgt:aes256-cts-hmac-sha1-96:<hex>`: pass 206 F2, F3):
  // a key signs tickets as its account (a krbtgt's forges any), so a credential, not a hash.
  { kind: 'kerberos key', keywords: ['-cts-hmac-sha', 'des-cbc-md5', 'des3-cbc-sha1', 'rc4_hmac', 'rc4-hmac'], re: /\b(?:aes(?:128|256)-cts-hmac-sha(?:1-96|256-128|384-192)|des-cbc-md5|des3-cbc-sha1|rc4[_-]hmac(?:[_-]nt)?)[:\t ]{1,4}(?:\(?0x)?(?<secret>[0-9a-fA-F]{16,64})(?![0-9a-fA-F])/gi },
  // LSA secrets: the cached logons' key `NL$KM:<hex>` (pass 206 F2); dpapi.py's `Decrypted key: 0x…` of a master key (F40).
  { kind: 'lsa secret', keywords: ['nl$km:'], re: /\bNL\$KM:(?<secret>[0-9a-fA-F]{64,256})(?![0-9a-fA-F])/g },
  { kind: 'dpapi key', keywords: ['decrypted key:'], re: /\bDecrypted key:[ \t]*(?<secret>0x[0-9a-fA-F]{32,256})(?![0-9a-fA-F])/g },
  // Rubeus' session key and tickets (`Base64(key) : …`, a `.kirbi` in base64, `doI…`: pass 206 F41): a ticket is used as it is
  // (pass-the-ticket). A KRB-CRED's DER starts `76 82`: `doI` then its length's letter.
  { kind: 'kerberos key', keywords: ['base64(key)'], re: /\bBase64\(key\)[ \t]*:[ \t]*(?<secret>[A-Za-z0-9+/]{16,128}={0,2})/g },
  { kind: 'kerberos ticket', keywords: ['doib', 'doic', 'doid', 'doie', 'doif', 'doig', 'doih'], re: /(?<![A-Za-z0-9+/])(?<secret>doI[B-H][A-Za-z0-9+/]{80,16384}={0,2})/g },
  // A brute forcer's found credentials: nmap's `|     user:password - Valid credentials` (its XML's `&#xa;` too) and `<elem
  // key="password">…</elem>`; netexec's `[+] domain\user:password (Pwn3d!)` (pass 206 F4, F24, F25).
  { kind: 'password', keywords: ['valid credentials'], re: /(?:^\|[ \t]+|&#xa;[ \t]+)[^\s:]{1,128}:(?<secret>\S(?:[^\n&]{0,255}?\S)?) - Valid credentials/gm },
  { kind: 'password', keywords: ['<elem key="pass', '<elem key="secret', '<elem key="token'], re: /<elem key="(?:password|pass|passwd|secret|token)">(?<secret>[^<\n]{1,256})<\/elem>/g },
  // …and without a domain on a protocol's row (`SSH  10.0.0.5  22  10.0.0.5  [+] root:<pw>  Linux - Shell access!`: adv211 F39).
  { kind: 'password', keywords: ['[+] '], needs: /^(?:SMB|SSH|FTP|MSSQL|LDAP|WINRM|RDP|VNC|WMI|NFS|MYSQL|POSTGRES)[ \t]/m, re: /^(?:SMB|SSH|FTP|MSSQL|LDAP|WINRM|RDP|VNC|WMI|NFS|MYSQL|POSTGRES)[ \t][^\n]{0,256}?\[\+\][ \t]+(?:[^\s\\:]{1,128}\\)?[^\s:\\]{1,128}:(?<secret>[^\s]{1,256}?)(?=[ \t]+\(Pwn3d!\)|[ \t]{2}|[ \t]*\r?$)/gm },
  // Metasploit's login scanners (`[+] 10.0.0.5:22 - Success: 'root:<pw>' …`) and ncrack's results (`10.0.0.5 22/tcp ssh: 'root'
  // '<pw>'`): adv211 F40, F38.
  { kind: 'password', keywords: ["success: '"], re: /\bSuccess: '[^':\n]{0,128}:(?<secret>[^'\n]{1,256})'/g },
  { kind: 'password', keywords: ['/tcp '], needs: /\/tcp [\w-]{1,32}: '/, re: /\b\d{1,5}\/tcp [\w-]{1,32}: '[^'\n]{0,128}' '(?<secret>[^'\n]{1,256})'/g },
  // mimikatz' dcsync (`Hash NTLM: …`, `ntlm- 0: …`, `aes256_hmac       (4096) : …`) and lsadump::secrets' `cur/text: <password>`,
  // Rubeus' `[*] Using rc4_hmac hash: …`, SharpDPAPI's `{<guid>}:<sha1>` master keys (adv211 F28, F30, F37, F32).
  { kind: 'nt hash', keywords: ['hash ntlm:', 'ntlm- ', 'lm  - '], re: /\b(?:Hash NTLM|ntlm-[ \t]*\d{1,3}|lm[ \t]*-[ \t]*\d{1,3})[ \t]*:[ \t]*(?!31d6cfe0d16ae931b73c59d7e0c089c0)(?<secret>[0-9a-fA-F]{32})(?![0-9a-fA-F])/gi },
  { kind: 'kerberos key', keywords: ['_hmac', 'des_cbc_md5'], re: /\b(?:aes(?:128|256)_hmac(?:_plain)?|des_cbc_md5|rc4_hmac(?:_nt)?|aes(?:128|256)_cts_hmac_sha1)[ \t]*(?:\(\d{1,6}\)[ \t]*)?(?:hash[ \t]*)?:[ \t]*(?<secret>[0-9a-fA-F]{16,64})(?![0-9a-fA-F])/gi },
  { kind: 'lsa secret', keywords: ['cur/text:', 'old/text:'], re: /\b(?:cur|old)\/text:[ \t]*(?<secret>\S[^\n]{0,255}?)\r?$/gm },
  { kind: 'dpapi key', keywords: ['}:'], needs: /\{[0-9a-fA-F-]{36}\}:[0-9A-Fa-f]{40}/, re: /\{[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\}:(?<secret>[0-9A-Fa-f]{40})(?![0-9A-Fa-f])/g },
  { kind: 'password', keywords: ['[+] '], needs: /\[\+\][ \t]+[^\s\\]{1,128}\\/, re: /\[\+\][ \t]+[^\s\\:]{1,128}\\[^\s:\\]{1,128}:(?<secret>[^\s]{1,256}?)(?=[ \t]+\(Pwn3d!\)|[ \t]*\r?$)/gm },
  // An NT hash by its name (pypykatz' JSON `"NThash": "…"`, an engagement's `AD_NTHASH=…`: pass 206 F9, F28).
  { kind: 'nt hash', keywords: ['nthash', 'nt_hash', 'ntlm_hash', 'ntlmhash', 'nt-hash', 'lmhash', 'lm_hash'], re: /(?<![A-Za-z])(?:NT|LM|NTLM)[_-]?hash["']?[ \t]*[:=][ \t]*["']?(?!31d6cfe0d16ae931b73c59d7e0c089c0|aad3b435b51404eeaad3b435b51404ee)(?<secret>[0-9a-fA-F]{32})(?![0-9a-fA-F])/gi },
  // …and pypykatz' JSON beside it: `"SHAHash"`, `"DPAPI"` (adv219 F14: what DPAPI takes in the password's place).
  { kind: 'nt hash', keywords: ['"shahash"', '"dpapi"'], re: /"(?:SHAHash|DPAPI)"[ \t]*:[ \t]*"(?<secret>[0-9a-fA-F]{32}(?:[0-9a-fA-F]{8})?)"/g },
  // An element whose name is in its attribute (Guacamole's `<param name="password">…</param>`, `<property name="secret">…`:
  // pass 210 F32): the element's text.
  { kind: 'password', keywords: ['password">', 'passwd">', 'secret">', 'token">', 'passphrase">'], re: /<(?<tag>[A-Za-z][\w:.-]{0,63})[ \t][^<>\n]{0,256}?\b(?:name|key|id)=["'][\w.:-]{0,64}(?:password|passwd|secret|token|passphrase)["'][ \t]*>(?<secret>[^<\n]{1,1024})<\/\k<tag>>/gi },
  // …and an HMAC's or an API key's so named (Salesforce Commerce's `<preference preference-id="Adyen_notification_hmac">`, other
  // attributes after it: pass 328 F9, adv333 S21): one word of 16 characters and up (an app's strings, `<string
  // name="hint_api_key">Paste the key…</string>`, and a form's `<option id="hmac">HMAC-SHA256 signature</option>` are prose: adv333
  // L15, L16).
  { kind: 'key', keywords: ['hmac"', 'key"'], needs: /(?:hmac|key)["'][^<>\n]{0,256}>[^<\s]{16}/i, re: /<(?<tag>[A-Za-z][\w:.-]{0,63})[ \t][^<>\n]{0,256}?\b(?:name|key|[\w-]{0,32}id)=["'](?![\w.:-]{0,64}(?:hint|summary|title|label|desc|description|placeholder|help)[_.-])[\w.:-]{0,64}(?:[_.-]hmac|(?:api|secret|private|hmac|signing|encryption|access)[_-]?key)["'](?:[ \t]+[\w:.-]{1,64}=["'][^"'<>\n]{0,256}["'])*[ \t]*>(?<secret>[^<\s]{16,1024})<\/\k<tag>>/gi },
  // IPsec SAs' keys as `ip xfrm state` prints them (`auth-trunc hmac(sha256) 0x… 128`, `enc cbc(aes) 0x…`, `aead rfc4106(gcm(aes))
  // 0x… 128`: pass 210 F17).
  { kind: 'ipsec key', keywords: ['auth-trunc ', 'enc cbc(', 'enc ctr(', 'enc rfc', 'aead rfc', 'aead gcm', 'auth hmac(', 'enc des', 'enc aes'], needs: /\b(?:auth-trunc|auth|enc|aead)[ \t]+\S+[ \t]+0x[0-9a-fA-F]{16}/, re: /\b(?:auth-trunc|auth|enc|aead)[ \t]+[\w-]+(?:\([\w()-]{0,64}\))?[ \t]+(?<secret>0x[0-9a-fA-F]{16,1024})(?![0-9a-fA-F])/g },
  // …and Cilium's IPsec keys secret, decoded (`<spi>[+] rfc4106(gcm(aes)) <hex> 128`, `<spi> hmac(sha256) <hex> cbc(aes) <hex>`:
  // pass 332 F41): its keys by their place after the algorithm, no `0x`.
  { kind: 'ipsec key', keywords: ['rfc4106(gcm(aes))', 'hmac(sha', 'cbc(aes)'], needs: /^[ \t]*\d{1,3}\+?[ \t]+(?:rfc4106|hmac|cbc)\(/m, re: /(?<=^[ \t]*\d{1,3}\+?[ \t]+(?:\S{1,32}[ \t]+(?:0x)?[0-9a-fA-F]{32,128}[ \t]+)?)(?:rfc4106\(gcm\(aes\)\)|hmac\((?:sha1|sha256|sha384|sha512|md5)\)|cbc\(aes\))[ \t]+(?:0x)?(?<secret>[0-9a-fA-F]{32,128})(?![0-9a-fA-F])/gm },
  { kind: 'password', keywords: ['x11vnc'], re: argAfter(String.raw`\bx11vnc\b[^\n|;&]{0,1024}?[ \t]-passwd[ \t]+`) },
  // KiTTY's session files (`Password\<hex>\`: pass 210 F38) and TeamViewer's `[bin  ] PermanentPassword = 32 c3 …` (F37).
  { kind: 'password', keywords: ['password\\'], re: /(?:^|[\/:])Password\\(?<secret>[0-9A-Fa-f]{16,1024})(?![0-9A-Za-z])/gm },
  { kind: 'password', keywords: ['[bin'], re: /\[bin[ \t]*\][ \t]+\w*(?:Password|Passwd|Key|Secret|Token)\w*[ \t]*=[ \t]*(?<secret>[0-9a-fA-F]{2}(?: [0-9a-fA-F]{2}){7,255})/g },
  // Bitwarden's `bw unlock <master password>` in a history or `ps` (pass 212 F35); `--passwordenv`, `--passwordfile` name where it is.
  { kind: 'password', keywords: ['bw unlock', 'bw login'], re: /\bbw[ \t]+(?:unlock|login[ \t]+[^\s'"-][^\s'"]*)[ \t]+(?!-)(?<q>['"]?)(?<secret>[^\s'"]{4,256})\k<q>(?=[ \t]|\r?$)/gm },
  // A browser's password export row as grep shows it, its header gone (Firefox's `"url","username","password","httpRealm",
  // "formActionOrigin","guid","timeCreated",…`: pass 212 F2): the third field, the row told by its `{guid}` and its 13-digit time.
  { kind: 'password', keywords: ['","{'], needs: /"\{[0-9a-f-]{36}\}","\d{13}"/, re: /^(?:[^\s:]{1,256}:)?(?:\d{1,9}:)?"https?:\/\/[^"\n]{0,1024}","[^"\n]{0,256}","(?<secret>(?:[^"\n]|"")+)",[^\n]{0,1024}?"\{[0-9a-f-]{36}\}","\d{13}"/gm },
  // HexChat's `servlist.conf` (`P=<password>` under a network: pass 212 F39), named by grep's prefix.
  { kind: 'password', keywords: ['servlist.conf'], re: /servlist\.conf[:-](?:\d{1,9}[:-])?(?:P|B)=(?<secret>[^\n]{1,256}?)\r?$/gm },
  // A Zabbix user macro beside its value in a row (`jq -r '.result[] | "\\(.macro)\\t\\(.value)"'`: adv211 F3; `@csv`: adv213 F3); a Vault
  // secret macro's path (`secret/zabbix/mysql:password`: adv213 L8) is no value.
  { kind: 'password', keywords: ['{$'], needs: /\{\$[A-Z0-9_.]*(?:PASSWORD|SECRET|TOKEN|PASS|KEY)/, re: /\{\$[A-Z0-9_.]*(?:PASSWORD|SECRET|TOKEN|PASSPHRASE|API\.KEY|APIKEY|PASS)[A-Z0-9_.]*(?::[^}\n]{0,128})?\}"?(?:[\t ]+|,")(?![\w-]{1,64}(?:\/[\w.-]{1,64}){1,8}:[\w.-]{1,64}(?:[\s",]|$))(?<secret>[^\s",]{1,256})/g },
  // pypykatz' text (`== MSV ==` then `NT: …`, `DPAPI: …`), KeyTabExtract's `AES-256 HASH : …`, kerbrute's `[+] VALID LOGIN:\t
  // user@dom:<pw>`, crowbar's `RDP-SUCCESS : host:port - user:<pw>` (adv213 F27, F23, F31, F32).
  { kind: 'nt hash', keywords: ['nt: ', 'dpapi: ', 'lm: '], re: /^[ \t]+(?:NT|LM|DPAPI):[ \t]*(?!31d6cfe0d16ae931b73c59d7e0c089c0)(?<secret>[0-9a-fA-F]{32})(?![0-9a-fA-F])/gm },
  { kind: 'kerberos key', keywords: [' hash : ', ' hash: '], re: /\b(?:NTLM|AES-256|AES-128|AES256|AES128|RC4|DES|DES3) HASH[ \t]*:[ \t]*(?<secret>[0-9a-fA-F]{16,64})(?![0-9a-fA-F])/gi },
  { kind: 'password', keywords: ['valid login:'], re: /\bVALID LOGIN:[ \t]+[^\s:]{1,256}:(?<secret>\S[^\n]{0,255}?)\r?$/gm },
  { kind: 'password', keywords: ['-success :'], re: /\b[A-Z]{2,16}-SUCCESS[ \t]*:[ \t]*\S{1,256}[ \t]+-[ \t]+[^\s:]{0,128}:(?<secret>\S[^\n]{0,255}?)\r?$/gm },
  // ejabberd's REST `oauth_list_tokens` as jq rows (`<token>\t<jid>\t<N> seconds`), a keytab's entries as Python dicts (`'etype':
  // 'aes256-…', 'key': '<hex>'`), mimikatz' `dpapi::masterkey` key (128 hex) and lsadump's `cur/hex :` bytes, ktutil's keys (MIT's
  // `(0x<hex>)` after the principal, Heimdal's last column), a ccache in base64 (MIT's v4 header `05 04 00 0c 00 01 00 08`):
  // adv213 F22, F24, F26, F29; adv211 F26, F27, F30.
  { kind: 'oauth token', keywords: [' seconds'], re: /^(?<secret>[A-Za-z0-9_-]{24,128})\t[^\s@]{1,128}@[^\s]{1,256}\t\d{1,12} seconds\r?$/gm },
  { kind: 'kerberos key', keywords: ["'etype'", '"etype"'], re: /["']etype["'][ \t]*:[ \t]*["'](?:aes|des|rc4|arcfour|camellia)[^"'\n]{0,64}["'][ \t]*,[ \t]*["']key["'][ \t]*:[ \t]*["'](?<secret>[0-9a-fA-F]{16,64})["']/g },
  { kind: 'dpapi key', keywords: ['key : '], re: /^[ \t]+key[ \t]*:[ \t]*(?<secret>[0-9a-fA-F]{128})(?![0-9a-fA-F])/gm },
  { kind: 'lsa secret', keywords: ['cur/hex', 'old/hex'], re: /\b(?:cur|old)\/hex[ \t]*:[ \t]*(?<secret>[0-9a-fA-F]{2}(?: [0-9a-fA-F]{2}){7,1023})/g },
  { kind: 'kerberos key', keywords: [' (0x'], re: /@[A-Z0-9.-]{1,256}[ \t]+\(0x(?<secret>[0-9a-fA-F]{16,64})\)/g },
  { kind: 'kerberos key', keywords: ['-cts-hmac-sha', 'des-cbc-md5', 'des3-cbc-sha1'], re: /\b(?:aes(?:128|256)-cts-hmac-sha(?:1-96|256-128|384-192)|des-cbc-md5|des3-cbc-sha1)[ \t][^\n]{0,256}?[ \t](?<secret>[0-9a-fA-F]{32,64})[ \t]*\r?$/gm },
  { kind: 'kerberos ticket', keywords: ['bqqadaabaaj'], re: /(?<![A-Za-z0-9+/])(?<secret>BQQADAABAAj[A-Za-z0-9+/]{100,65536}={0,2})/g },
  // An AWS key pair glued (trufflehog's `RawV2`: the id then its secret, pass 206 F13): the 40 characters after the id.
  { kind: 'aws secret access key', keywords: ['akia', 'asia'], re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/g },
  // SonarQube's `sonar.login` (`-Dsonar.login=<token>`, `SONAR_LOGIN`): the token before `sonar.token` replaced it, or a user's
  // name beside `sonar.password` — a token only (20 characters and up, a digit among them: closing measure 111 F24).
  { kind: 'sonarqube token', keywords: ['sonar.login', 'sonar_login'], re: /(?:(?<=-D)|(?<![\w.]))sonar[._]login[ \t]*[=:][ \t]*["']?(?<secret>(?=[^\s"']{0,255}\d)[^\s"']{20,256})/gi, guard: true },
  { kind: 'codecov token', keywords: ['codecov'], re: argAfter(String.raw`\bcodecov(?:\.sh|uploader)?\b[^\n|;&]{0,512}?[ \t](?:-t|--token)(?:[ \t]+|=)`) },
  { kind: 'snyk token', keywords: ['snyk'], needs: /\bsnyk[ \t]+(?:auth|config[ \t]+set)\b/, re: argAfter(String.raw`\bsnyk[ \t]+(?:auth(?:[ \t]+--[\w-]+(?:=\S+)?){0,8}|config[ \t]+set[ \t]+api=)[ \t]*(?<=[ \t=])`) },
  { kind: 'password', keywords: ['racadm'], re: argAfter(String.raw`\bracadm\b[^\n|;&]{0,512}?[ \t]-p[ \t]+`) },
  // racadm's `set <group>.<index>.Password <value>` (iDRAC's users: adv106 F41), remote or in its own shell.
  { kind: 'password', keywords: ['racadm'], needs: /\bset[ \t]+iDRAC\./i, re: argAfter(String.raw`\bracadm\b[^\n|;&]{0,512}?[ \t]set[ \t]+iDRAC\.[\w.#-]{0,128}\.(?:Password|Passphrase|SHA256Password)[ \t]+`) },
  { kind: 'secret key', keywords: ['mc admin user add'], re: /\bmc[ \t]+admin[ \t]+user[ \t]+add[ \t]+\S+[ \t]+\S+[ \t]+(?<secret>'[^'\n]{1,256}'|"[^"\n]{1,256}"|[^\s'"]{1,256})/g },
  { kind: 'private key seed', keywords: ['chisel'], re: argAfter(String.raw`\bchisel[ \t]+server\b[^\n|;&]{0,1024}?[ \t]--key[ \t]+`) },
  { kind: 'password', keywords: ['--auth'], re: /(?<![\w-])--auth[ \t=]+['"]?[^\s:'"]{1,128}:(?<secret>[^\s'"]{4,256})/g, guard: true },
  { kind: 'password', keywords: [']:'], needs: /^\[[\w.-]{1,253}\](?::\d{1,5})?[ \t]+\S+:\S/, re: /^\[[\w.-]{1,253}\](?::\d{1,5})?[ \t]+[^\s:]{1,256}:(?<secret>\S{4,256})(?=[ \t]*\r?$)/gm },
  { kind: 'ceph key', keywords: ['key'], sharesNameWords: true, needs: /\bkey[ \t]*[=:][ \t]*AQ/, re: /\bkey[ \t]*[=:][ \t]*(?<secret>AQ[A-Za-z0-9+/]{36}==)/g },
  { kind: 'password', keywords: ['pass', 'pwd', 'token', 'secret'], sharesNameWords: true, needs: /(?:^|[ \t])-[a-z][\w-]{0,32}\.(?:password|pass|pwd|token|secret)[ \t]+\S/, re: argAfter(String.raw`(?:^|[ \t])-[a-z][\w-]{0,32}\.(?:password|pass|pwd|token|secret)[ \t]+`), guard: true },
  { kind: 'password', keywords: ['$user'], re: /^(?:[^\s:]{1,256}:\d{1,9}:)?\$USER\d{1,3}\$=(?<secret>[^/\s.$][^\s]{3,256})(?=[ \t]*\r?$)/gm, guard: true },
  // …and in the kernel's environment as a term (`rabbitmqctl environment`: `{kernel,[…,{cookie,'…'}]}`, an atom: adv89 F12).
  { kind: 'erlang cookie', keywords: ['{cookie,'], re: /\{cookie,[ \t]*(?:'(?<secret>[^'\n]{1,256})(?=')|"(?<secret2>[^"\n]{1,256})(?="))/g },
  // Windows' signtool's PFX password (`signtool sign … /f cert.pfx /p "…"`, as electron-builder prints a failed command: adv90 F23).
  { kind: 'password', keywords: ['signtool'], re: /\bsigntool(?:\.exe)?\b[^\n]{0,2048}?[ \t]\/p[ \t]+(?<secret>"[^"\n]{1,256}"|[^\s"]{1,256})/gi },
  // `aws sts assume-role --output text` (and get-session-token, get-federation-token): the CREDENTIALS row's fields in their
  // names' order, tab-separated: key id, expiration, secret key, session token (adv95 F50). The token, last on the row.
  { kind: 'aws session token', keywords: ['credentials\t'], re: /^CREDENTIALS\t(?:AKIA|ASIA)[A-Z2-7]{16}\t[^\t\n]{1,64}\t[A-Za-z0-9/+]{40}\t(?<secret>[A-Za-z0-9/+=]{16,4096})(?=\r?$)/gm },
  // steamcmd's `+login <user> <password>` (a CI trace: adv90 F24); `+login anonymous` has none.
  { kind: 'password', keywords: ['+login'], re: /\+login[ \t]+(?!anonymous\b)[^\s+'"]{1,128}[ \t]+(?<secret>'[^'\n]{1,256}'|"[^"\n]{1,256}"|[^\s+'"][^\s'"]{0,255})/g },
  // macOS `security`'s keychain passwords (`create-keychain -p`, `unlock-keychain -p`, `set-key-partition-list -k`) and a
  // certificate's import password (`import … -P`): a CI trace (adv90 F49).
  { kind: 'password', keywords: ['security'], needs: /\bsecurity[ \t]+(?:create-keychain|unlock-keychain|set-key-partition-list|import)\b/, re: argAfter(String.raw`\bsecurity[ \t]+(?:(?:create|unlock)-keychain\b[^\n]{0,1024}?[ \t]-p|set-key-partition-list\b[^\n]{0,1024}?[ \t]-k|import\b[^\n]{0,1024}?[ \t]-P)[ \t]+`) },
  // espota's (PlatformIO's OTA upload) `--auth=` password, under `upload_flags =` (adv90 F27): a made word, not `none`.
  { kind: 'password', keywords: ['--auth='], re: /(?<![\w-])--auth=(?<secret>(?=[^\s"']*[\d_.!@#$%^&*+=-])(?=[^\s"']*[A-Za-z])[^\s"']{6,256})/g, guard: true },
  // fastlane's FASTLANE_SESSION: Ruby's YAML of HTTP::Cookie objects, printed with literal `\n`s (`spaceauth`: adv90 F13): each value.
  { kind: 'cookie', keywords: ['http::cookie'], re: /!ruby\/object:HTTP::Cookie(?:(?:\\n|\r?\n)[ \t]*(?!value:)\w{1,32}:[^\n\\]{0,256}){0,8}(?:\\n|\r?\n)[ \t]*value:[ \t]+(?<secret>[^\s\\'"]{8,8192})/g },
  // A Unity license file's `DeveloperData` (base64 of the serial the same file shows masked: adv90 F25).
  { kind: 'license serial', keywords: ['developerdata'], re: /<DeveloperData[ \t]+Value="(?<secret>[A-Za-z0-9+/=]{8,4096})(?=")/g },
  // express-session's debug log (`DEBUG=express-session`: `saving <sid>`, `fetching <sid>`: adv91 F19): a session's id is its
  // bearer credential; its signed cookie (`connect.sid=s%3A<sid>.<signature>`) wherever it is printed.
  { kind: 'session id', keywords: ['express-session'], re: /express-session[ \t]+(?:saving|fetching|destroying|regenerating|touching)[ \t]+(?<secret>[\w-]{20,128})/g },
  { kind: 'session cookie', keywords: ['connect.sid='], re: /\bconnect\.sid=(?<secret>s(?:%3A|:)[\w-]{20,128}\.[\w+/%-]{20,128}(?:%3D|=){0,2})/g },
  // …and quoted in node's inspect, not encoded (`'app.sid': 's:<sid>.<signature>'`: adv272 S45): `s:`, the id, a dot, 43 of base64.
  { kind: 'session cookie', keywords: ["'s:", '"s:'], re: /(?<=['"])(?<secret>s:[\w-]{20,128}\.[A-Za-z0-9+/]{43})(?=['"])/g },
  // …and the signed value alone, URL-encoded as a cookie jar stores it (`value: 's%3A<sid>.<signature>'` of node's inspect, its name
  // `connect.sid` on the line above: pass 266 F3): `s%3A`, the id, a dot, the HMAC's base64.
  { kind: 'session cookie', keywords: ['s%3a'], re: /(?<![\w%])(?<secret>s%3A[\w-]{20,128}\.[\w%-]{27,128})/g },
  // connect-redis's session keys (`redis-cli MONITOR`, `KEYS sess:*`: `"sess:<sid>"`: adv91 F48), and Phoenix's `live_socket_id`
  // of phx.gen.auth (`"users_sessions:<url-safe base64 of the session token>"`: F24).
  { kind: 'session id', keywords: ['sess:'], re: /(?<![\w:-])sess:(?<secret>[\w-]{24,128})(?![\w-])/g },
  { kind: 'session token', keywords: ['_sessions:'], re: /\b[a-z_]{1,32}_sessions:(?<secret>[\w-]{32,128})(?![\w-])/g },
  // A SQL literal compared with or set to a column named `key` of a table of keys or tokens (PostgreSQL's `log_statement=all`:
  // `FROM api_keys WHERE key = '…'`; a Sentry breadcrumb's `UPDATE "accounts_apikey" SET "key" = '…'`: adv91 F49, F30).
  { kind: 'api key', keywords: ['key'], sharesNameWords: true, needs: /\bkey\\?["`\]]?[ \t]*=[ \t]*'/i, re: /\b(?:FROM|UPDATE|INTO|JOIN)[ \t]+(?:\\?["`[]?\w{1,64}\\?["`\]]?\.)?\\?["`[]?\w{0,32}(?:api_?keys?|tokens?|secrets?|credentials?)\w{0,32}\\?["`\]]?[^\n;]{0,512}?[ \t,.]\\?["`[]?key\\?["`\]]?[ \t]*=[ \t]*'(?<secret>[^'\n]{8,512})(?=')/gi, guard: true },
  // macOS `security find-generic-password -g`: a password with bytes past ASCII as hex, then its escaped echo (adv46 F35).
  { kind: 'password', keywords: ['password: 0x'], re: /\bpassword: 0x[0-9A-Fa-f]{2,4096}[ \t]+"(?<secret>(?:[^"\\\n]|\\.){1,4096})(?=")/g },
  // X (Twitter) app-only bearer tokens: twenty-odd `A`s then the rest, `%2B` / `%3D` percent-encoded (a `%` splits a token run,
  // so no vendor rule sees one whole: adv42 F30). The rest holds a lowercase letter and a digit (27 MB of `A` is no token).
  { kind: 'x bearer token', keywords: ['aaaaaaaaaaaaaaaaaaaa'], re: /(?<![A-Za-z0-9%])(?<secret>A{20,24}(?!A)(?=[A-Za-z0-9%]{0,1024}[a-z])(?=[A-Za-z0-9%]{0,1024}\d)[A-Za-z0-9%]{60,1024})(?![A-Za-z0-9%])/g },
  // LiveKit's `keys:` map, an API key's id (`API` + 12) for each secret (livekit.yaml: adv42 F26).
  { kind: 'api secret', keywords: ['api'], needs: /^[ \t]+API[A-Za-z0-9]{12}:[ \t]/m, re: /^[ \t]+API[A-Za-z0-9]{12}:[ \t]+(?<secret>[A-Za-z0-9]{32,128})(?=[ \t]*\r?$)/gm },
  // A key file of an LLM tool keyed by provider (`llm keys path`'s keys.json: `"mistral": "<32>"`, aider's and litellm's
  // settings: adv39 F34): a token-shaped value (letters of both cases and digits, no `-` or `.`: not a model's name).
  { kind: 'api key', keywords: AI_PROVIDERS, re: new RegExp(`(?<![\\w-])["']?(?:${AI_PROVIDERS.join('|')})["']?[ \\t]*[:=][ \\t]*["']?(?<secret>(?=[A-Za-z0-9_]*\\d)(?=[A-Za-z0-9_]*[A-Z])(?=[A-Za-z0-9_]*[a-z])[A-Za-z0-9_]{24,200})(?=["'\\s,}]|$)`, 'gim') },
  // A Java .properties line with a blank for its separator (`spring.datasource.password 6mHW*…`: adv41 F44): a dotted name at
  // the line's start, one value to the line's end; not a lowercase word (`app.password changed`).
  { kind: 'password', keywords: ['pass', 'secret', 'token', 'key'], sharesNameWords: true, needs: /^[ \t]*[a-z][\w-]*\.[\w.-]+[ \t]+\S+[ \t]*\r?$/m, re: /^[ \t]*(?<name>[a-z][\w-]*(?:\.[\w-]+)+)[ \t]+(?<secret>(?![a-z]+[ \t]*\r?$)[^\s=:]\S{0,1023})(?=[ \t]*\r?$)/gm, guard: true },
  // RubyGems' credentials file keys a host's key by its URL (`https://gems.acme.io: <key>`, beside `:rubygems_api_key:`: adv41 F20).
  // Found from `gem` (a gem host's name, the file's `:rubygems_api_key:`): from `http` it read every URL's line (~7% of masking).
  { kind: 'api key', keywords: ['gem'], needs: /^:?https?:\/\/\S+:[ \t]+[A-Za-z0-9_]{20,}/m, re: /^:?https?:\/\/[^\s:]+(?::\d+)?\/?[^\s:]*:[ \t]+(?<secret>(?=[A-Za-z_]*\d)[A-Za-z0-9_]{20,256})(?=[ \t]*\r?$)/gm },
  // A token as a URL's user with an empty password (`https://<token>:@pypi.fury.io/acme/`, as Gemfury documents it: adv41 F25).
  { kind: 'url token', keywords: [':@'], re: /:\/\/(?<secret>(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{16,256})(?=:@)/g },
  // Tokens whose own punctuation splits the scanner's token runs, so no vendor rule sees them whole (adversary pass 40):
  // Braintree's access tokens (`access_token$production$<16>$<32 hex>`), Salesforce session ids (`00D<org id>!<session>`).
  { kind: 'braintree access token', keywords: ['access_token$'], re: /(?<![\w$])(?<secret>access_token\$(?:production|sandbox)\$[0-9a-z]{16}\$[0-9a-f]{32})(?![0-9a-f])/g },
  { kind: 'salesforce session id', keywords: ['00d'], needs: /00D[A-Za-z0-9]{12,15}!/, re: /(?<![A-Za-z0-9])(?<secret>00D[A-Za-z0-9]{12,15}![A-Za-z0-9._]{80,1024})/g },
  // ltrace's call of getenv and what it returned (`prog->getenv("LICENSED_KEY") = "…"`: adv37 F07), the variable's name a secret's.
  { kind: 'secret', keywords: ['getenv('], needs: /getenv\("/, re: /\bgetenv\("(?<name>[A-Za-z_][A-Za-z0-9_]{0,80})"\)[ \t]*=[ \t]*"(?<secret>[^"\n]{1,4096})(?=")/g },
  // `openssl enc … -P` prints the derived key and IV (`salt=…`, `key=<hex>`, `iv =<hex>`: adv39 F42): the key in capitals, alone on
  // its line (a bare `key` names anything elsewhere).
  { kind: 'key', keywords: ['key='], needs: /^key=[0-9A-F]{32}/m, re: /^key=(?<secret>[0-9A-F]{32,128})(?=\r?$)/gm },
  // A parsed URL's repr: Python's `urlparse(…)` (`ParseResult(scheme='postgres', netloc='shop:pw@db:5432', …)`: adv39 F26) and
  // urllib3's `Url(…, auth='shop:pw', …)`, no `://` before the credentials.
  { kind: 'url password', keywords: ['netloc=', 'auth='], needs: /\b(?:netloc|auth)=['"]/, re: /\b(?:netloc=(['"])[^'"\s:@/]{0,256}:(?<secret>[^'"\s]{1,1024})(?=@[^'"@\s]{1,256}\1)|auth=(['"])[^'"\s:@/]{1,256}:(?<secret2>[^'"\s]{1,1024})(?=\3[,)]))/g },
  // Secret scanners' own reports print what they found (adversary pass 31): trufflehog's `Raw result: …` (an LDAP result is the
  // URL, the bind DN and the password, tab-separated: the whole result), GitLab's secret detection `raw_source_code_extract`.
  { kind: 'secret', keywords: ['raw result:'], re: /\bRaw result:[ \t]+(?<secret>\S(?:[^\r\n]*\S)?)/g },
  { kind: 'secret', keywords: ['raw_source_code_extract'], re: /"raw_source_code_extract"[ \t]*:[ \t]*"(?<secret>(?:[^"\\\n]|\\.){1,4096})(?=")/g },
  // git filter-repo's and BFG's replacement lines (`literal:pw==>***REMOVED***`, `pw==>x`; the default type is literal): the text
  // replaced is the secret being scrubbed. Not `regex:` / `glob:` lines (patterns), nor `$1 ==> "x"` (jshell: a blank before), nor
  // a progress bar (`[=====>] 20%`: a word of `[` and `=`).
  { kind: 'secret', keywords: ['==>'], unless: /(?<=(?:^|[\s[])=*==>)/y, needs: /^(?:literal:)?(?!regex:|glob:)[^\s#[=]\S{2,4094}?==>/, re: /^(?:literal:)?(?!regex:|glob:)(?<secret>[^\s#[=]\S{2,4094}?)(?===>)/gm },
  // An AWS secret access key right after its key id (`Aws::Credentials.new('AKIA…', '…')`, `AKIA…:…`, a CSV row: adv31 F39).
  { kind: 'aws secret access key', keywords: ['akia', 'asia'], re: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z2-7]{16}['"]?[ \t]*[,:;=|\t][ \t]*['"]?(?<secret>[A-Za-z0-9\/+]{40})(?![A-Za-z0-9\/+=])/g },
  // A credential as a positional argument of the calls that take one (adversary pass 31: `new PDO(dsn, 'user', 'pw')` in a `git grep`
  // of old revisions, `algoliasearch('APPID', '<admin key>')` in `git log -S`, jsforce's `conn.login("user@x", "pw+token")` in a
  // hook's report): the call's name says which argument it is; a variable there is a reference, kept.
  { kind: 'password', keywords: ['pdo(', 'mysqli', 'mysql_connect(', 'getconnection(', 'sequelize('], needs: /PDO\(|mysqli|mysql_connect\(|getConnection\(|Sequelize\(/, re: new RegExp(`(?:\\bnew[ \\t]+\\\\?PDO|\\bnew[ \\t]+mysqli|\\bmysqli_connect|\\bmysql_connect|\\bDriverManager\\.getConnection|\\bnew[ \\t]+Sequelize)\\([ \\t]*${CALL_ARG},[ \\t]*${CALL_ARG},[ \\t]*${CALL_STRING_ARG}`, 'g') },
  { kind: 'algolia admin key', keywords: ['algoliasearch('], re: new RegExp(`\\balgoliasearch\\([ \\t]*${CALL_ARG},[ \\t]*${CALL_STRING_ARG}`, 'g') },
  { kind: 'password', keywords: ['.login('], re: new RegExp(`\\.login\\([ \\t]*${CALL_ARG},[ \\t]*${CALL_STRING_ARG}`, 'g') },
  // Go's `%+v` of a url.URL value: its Userinfo's String() (`User:mirror:pw Host:registry.acme.io`: adv30 F29).
  { kind: 'url password', keywords: ['user:'], needs: / Host:/, re: /(?:^|[{ ])User:[^\s:@]{1,256}:(?<secret>[^\s]{1,4096})(?= Host:)/g },
  // Chrome DevTools' "Copy as PowerShell": `$session.Cookies.Add((New-Object System.Net.Cookie("sessionid", "…", "/", "host")))`
  // (adv32 F44): a cookie's value, as a Cookie header's are.
  { kind: 'cookie', keywords: ['net.cookie('], re: /System\.Net\.Cookie\([ \t]*"[^"\n]{1,256}"[ \t]*,[ \t]*"(?<secret>[^"\n]{1,4096})(?=")/g },
  // Cypress Cloud's record key (`cypress run --record --key <uuid>` in a `bash -x` trace: adv32 F46): a UUID, a credential here.
  { kind: 'record key', keywords: ['cypress'], needs: /--key/, re: /\bcypress[ \t]+run\b[^\n|;&]{0,1024}?[ \t]--key(?:=|[ \t]+)["']?(?<secret>[^\s'"]+)/g },
  // `wandb login <key>` (a W&B API key, 40 hex, `local-` before it for a server's: adv33 F22), as shell history shows it.
  { kind: 'api key', keywords: ['wandb'], needs: /wandb[ \t]+login/, re: /\bwandb[ \t]+login\b[^\n|;&]{0,512}?[ \t](?<secret>(?:local-)?[0-9a-f]{40})(?![0-9a-f])/g },
  // DuckDB's `CREATE SECRET (TYPE gcs, KEY_ID '…', SECRET '…')` (adv33 F41): its credential parameters, as `-echo` prints them.
  { kind: 'secret', keywords: ['secret', 'token', 'pass'], sharesNameWords: true, needs: /CREATE[ \t]+(?:OR[ \t]+REPLACE[ \t]+)?(?:PERSISTENT[ \t]+|TEMPORARY[ \t]+)?SECRET\b/i, re: /\b(?:SECRET|CLIENT_SECRET|SESSION_TOKEN|PASSWORD)(?=[ \t]+')(?<=\bCREATE[ \t]+(?:OR[ \t]+REPLACE[ \t]+)?(?:PERSISTENT[ \t]+|TEMPORARY[ \t]+)?SECRET\b[^;\n]{0,2048}?[\s,(](?:SECRET|CLIENT_SECRET|SESSION_TOKEN|PASSWORD))[ \t]+'(?<secret>[^'\n]{1,4096})(?=')/gi },
  // kubeadm's certificate key (`kubeadm join … --control-plane --certificate-key <64 hex>`: it decrypts the uploaded control-plane
  // certificates; adv35 F22).
  { kind: 'certificate key', keywords: ['--certificate-key'], re: /--certificate-key(?:=|[ \t]+)(?<secret>[0-9a-f]{64})(?![0-9a-f])/g },
  // Windows' own commands with a password as a positional argument, as PSReadLine's history and `echo on` batch files show them
  // (adv34 F06, F13): `net user NAME PASSWORD /add`, `net use \\\\host\\share PASSWORD /user:X` or `/user:X PASSWORD`, `rasdial
  // ENTRY USER PASSWORD`. `*` prompts for it; an option (`/add`) is none.
  // (`net  use \\host…` with two blanks, as Sysmon's CommandLine shows what was typed: adv251 F38.)
  { kind: 'password on command line', keywords: ['net user ', 'net use ', 'use \\\\', 'rasdial'], needs: /\bnet[ \t]+use|\bnet[ \t]+user|rasdial/i, re: /\b(?:net[ \t]+user[ \t]+(?:"[^"\n]+"|[^\s/"]+)|net[ \t]+use\b[^\n|&]{0,512}?[ \t]\/user:[^\s"]+|rasdial[ \t]+(?:"[^"\n]+"|[^\s"]+)[ \t]+(?:"[^"\n]+"|[^\s"/]+))[ \t]+(?<secret>(?![/*])"[^"\n]+"|(?![/*])[^\s"]+)/gi },
  // SQLCMD mode's `:connect server -U user -P pw` and `:setvar NamePassword "…"` (adv34 F32).
  { kind: 'password on command line', keywords: [':connect'], needs: /-P[ \t]/, re: /^[ \t]*:connect\b[^\n]{0,512}?[ \t]-P[ \t]+(?<secret>"[^"\n]+"|[^\s"]+)/gim },
  { kind: 'password', keywords: [':setvar'], re: /^[ \t]*:setvar[ \t]+(?<name>\w{1,128})[ \t]+(?:"(?<secret>[^"\n]{1,4096})(?=")|(?<secret2>[^\s"]{1,4096}))/gim },
  // Azure Pipelines' logging command (`##vso[task.setvariable variable=funcHostKey;isOutput=true]…`, echoed by a debug log:
  // adv34 F40): the value of a variable a secret's name names.
  // (camelCase too: `funcHostKey`).
  { kind: 'secret', keywords: ['task.setvariable'], re: /##vso\[task\.setvariable[ \t]+variable=[\w.-]{0,128}(?:[Kk]ey|KEY|[Tt]oken|TOKEN|[Ss]ecret|SECRET|[Pp]assword|PASSWORD|[Pp]wd|PWD)(?:;[^\]\n]{0,256})?\](?<secret>[^\r\n]{1,4096})/g },
  // Chocolatey's source credentials (`choco source add -n=x -s=URL -u=user -p="…"`: adv34 F44).
  { kind: 'password on command line', keywords: ['choco'], needs: /(?:-p|--password)\b/, re: /\bchoco(?:latey)?\b[^\n|;&]{0,1024}?[ \t](?:-p|--password)(?:=|[ \t]+)(?:"(?<secret>[^"\n]+)(?=")|(?<secret2>[^\s"']+))/g },
  // Chocolatey's API key (`choco apikey --key <guid> --source …`, `choco push --api-key …`: a GUID, adv145 F24).
  { kind: 'api key', keywords: ['choco'], needs: /(?:-k|--key|--api-key|--apikey)\b/, re: /\bchoco(?:latey)?(?:\.exe)?[ \t]+(?:apikey|setapikey|push)\b[^\n|;&]{0,1024}?[ \t](?:-k|--key|--api-key|--apikey)(?:=|[ \t]+)["']?(?<secret>[^\s"']{8,256})/g },
  // Windows' certutil with a PFX's password (`certutil -f -p <pw> -importpfx …`, `-exportPFX -p`: adv145 F38).
  { kind: 'password', keywords: ['certutil'], re: /\bcertutil(?:\.exe)?\b[^\n|;&]{0,1024}?[ \t][-/]p[ \t]+(?:"(?<secret>[^"\n]{1,256})(?=")|(?<secret2>[^\s"]{1,256}))/gi },
  // Unity's licence serial on the editor's command line (`Unity -batchmode -serial E3-XXXX-XXXX-XXXX-XXXX-XXXX -username …`: a
  // build agent's activation, adv148 F7).
  { kind: 'unity licence serial', keywords: ['-serial'], re: /(?:^|[\s"'])-serial[ \t]+["']?(?<secret>[A-Z0-9]{2}(?:-[A-Z0-9]{4}){5})(?![\w-])/g },
  // Nakama's `--database.address user:password@host:port/db` (no scheme, so no URL rule reads it: adv148 F16), CockroachDB's too.
  { kind: 'database password', keywords: ['database.address'], re: /--database\.address[ \t=]+["']?[^\s:@"'\/]{1,64}:(?<secret>[^\s@"']{1,256})(?=@)/g },
  // Backtrace's crash submission URL (`https://unreal.backtrace.io/post/<universe>/<64 hex token>`, `submit.backtrace.io/<universe>/
  // <token>/json`: Unreal's DataRouterUrl, adv148 F21); its `?token=` form is a query's.
  { kind: 'backtrace submission token', keywords: ['backtrace.io/'], re: /\bbacktrace\.io\/(?:post\/)?[\w-]{1,64}\/(?<secret>[0-9a-f]{64})(?![0-9a-f])/g },
  // Plastic SCM's (Unity Version Control's) `<SecurityConfig>`: `::0:user:|SoC|<encrypted password>`, `Unity::user:<SSO token>`
  // (client.conf, profiles.conf: adv148 F32): what follows the last colon.
  { kind: 'plastic scm credential', keywords: ['<securityconfig>'], re: /<SecurityConfig>[^<\n]{0,512}:(?<secret>[^:<\n]{6,1024})(?=<\/SecurityConfig>)/gi },
  // Unreal's DefaultCrypto.ini (adv148 F35): a pak's secondary keys (`+SecondaryEncryptionKeys=(Guid=…,Name="DLC",Key="<base64>")`)
  // and the pak signing key's private exponent (its modulus and public exponent stay).
  { kind: 'encryption key', keywords: ['encryptionkeys='], re: /EncryptionKeys=\([^)\n]{0,512}?\bKey="(?<secret>[A-Za-z0-9+\/]{22,86}={0,2})"/g },
  { kind: 'signing key', keywords: ['privateexponent'], re: /\b\w{0,64}PrivateExponent[ \t]*=[ \t]*"?(?<secret>[A-Za-z0-9+\/]{16,4096}={0,2})/g },
  // NetSuite's token-based auth: the token id is the access token's half beside its secret (`NS_TOKEN_ID=<64 hex>`: adv149 F20);
  // other `*_TOKEN_ID`s are ids.
  { kind: 'token', keywords: ['token_id'], re: /\b(?:NS|NETSUITE|TBA)_TOKEN_ID["']?[ \t]*[=:][ \t]*["']?(?<secret>[0-9a-fA-F]{64})(?![0-9a-fA-F])/g },
  // SMTP's `AUTH PLAIN <base64 of \0user\0password>` anywhere on a line (strace's `write(5, "AUTH PLAIN …\r\n", 58)`: adv155 F24).
  { kind: 'password', keywords: ['auth plain '], re: /\bAUTH[ \t]+PLAIN[ \t]+(?<secret>[A-Za-z0-9+\/]{8,1024}={0,2})(?![A-Za-z0-9+\/=])/g },
  // libcurl's user and password option as ltrace or a debugger shows it (`curl_easy_setopt(0x…, 10005, "user:password")`,
  // CURLOPT_USERPWD by name; CURLOPT_PASSWORD alone: adv155 F25).
  { kind: 'password', keywords: ['10005', 'curlopt_userpwd', 'curlopt_password'], re: /(?:setopt\([^,()\n]{1,64},[ \t]*10005|\bCURLOPT_USERPWD)[ \t]*,[ \t]*"[^":\n]{0,256}:(?<secret>[^"\n]{1,512})"|\bCURLOPT_PASSWORD[ \t]*,[ \t]*"(?<secret2>[^"\n]{1,512})"/g },
  // NocoDB's `NC_DB` connection string: a URL whose query holds the user and password as `u=` and `p=` (`pg://host:5432?u=postgres
  // &p=…&d=db`: adv154 F18).
  { kind: 'database password', keywords: ['&p='], re: /[?&]u=[^&\s"']{1,256}&p=(?<secret>[^&\s"']{1,512})/g },
  // Kamailio's and OpenSIPS' module parameters (`modparam("auth", "secret", "…")`: the nonce secret, adv156 F4): a parameter that
  // names a secret, then its quoted value.
  { kind: 'secret', keywords: ['modparam('], re: /\bmodparam\([ \t]*"[\w.-]{1,64}"[ \t]*,[ \t]*"(?<name>[\w.-]{1,64})"[ \t]*,[ \t]*"(?<secret>[^"\n]{1,1024})(?=")/g, guard: true },
  // coturn's long-term credentials (`user=<name>:<password>`, or `:0x<md5 key>`, a line of turnserver.conf: adv156 F17), after
  // grep's file name and line number too (`grep -n user= turnserver.conf`'s `42:user=…`: session 30's attack A19).
  { kind: 'password', keywords: ['user='], needs: /^(?:[\w./-]{1,256}[:-])?(?:\d{1,7}[:-])?[ \t]*user=[^:\s]{1,128}:\S/m, re: /^(?:[\w./-]{1,256}[:-])?(?:\d{1,7}[:-])?[ \t]*user=[^:\s]{1,128}:(?<secret>0x[0-9a-fA-F]{32}|\S{6,256})[ \t]*\r?$/gm },
  // A Matrix homeserver's signing key file (`ed25519 a_Qm7x <base64 seed>`, Synapse's `*.signing.key`: adv156 F19); a public key
  // is printed as `"ed25519:a_Qm7x": {"key": …}`.
  // After grep's file name and line number too (`grep -r signing /data`'s `/data/x.signing.key:ed25519 …`: session 30's attack A16).
  { kind: 'signing key', keywords: ['ed25519 '], needs: /^(?:[\w./-]{1,256}[:-])?(?:\d{1,7}[:-])?ed25519[ \t]/m, re: /^(?:[\w./-]{1,256}[:-])?(?:\d{1,7}[:-])?ed25519[ \t]+\w{1,64}[ \t]+(?<secret>[A-Za-z0-9+\/]{43})={0,1}[ \t]*\r?$/gm },
  // Blockchain RPC providers' keys in their endpoint's path (adv161 F4, F22, F34: a foundry.toml's `[rpc_endpoints]`, a jq of
  // networks, an ethers error's `url:`): QuickNode's `<name>.<chain>.quiknode.pro/<token>/`, Ankr's `rpc.ankr.com/<chain>/<key>`,
  // Chainstack's `<node>.p2pify.com/<key>`, NodeReal's `…nodereal.io/v1/<key>` (Alchemy's and Infura's are vendor rules).
  { kind: 'rpc endpoint key', keywords: ['quiknode.pro/', 'rpc.ankr.com/', 'p2pify.com/', 'nodereal.io/v1/'], re: /(?:\.quiknode\.pro|rpc\.ankr\.com\/[a-z0-9_]{1,40}|\.p2pify\.com|\.nodereal\.io\/v1)\/(?<secret>[0-9a-fA-F]{32,64})(?![\w-])/g },
  // Foundry's `[etherscan]` table: a chain's `{ key = "<34 upper-case letters and digits>" }` (Etherscan's and its forks' API
  // keys: adv161 F4).
  { kind: 'etherscan api key', keywords: ['key = "', 'key="'], re: /\{[ \t]*key[ \t]*=[ \t]*"(?<secret>[A-Z0-9]{34})"/g },
  // The Graph's deploy key (`graph auth --studio <key>`, `graph auth --product hosted-service <key>`, in a CI log: adv161 F20).
  { kind: 'deploy key', keywords: ['graph auth '], re: /\bgraph[ \t]+auth[ \t]+(?:--studio[ \t]+|--product[ \t]+\S+[ \t]+|(?:https?:\/\/\S+[ \t]+))?(?<secret>[0-9a-f]{32})(?![0-9a-f])/g },
  // A wallet's private key logged by a label in prose (`loaded signer key 0x<64 hex> from env`: adv161 F33): the words before
  // `key` say it (a transaction's or a block's hash beside it has its own label: `tx=`, `blockHash=`).
  { kind: 'private key', keywords: ['signer key', 'wallet key', 'private key', 'deployer key', 'signing key'], re: /\b(?:signer|wallet|private|deployer|signing)[ \t]+key[ \t:=]{1,4}(?<secret>0x[0-9a-fA-F]{64})(?![0-9a-fA-F])/gi },
  // Infura's project id is its API key (the `/v3/<id>` of its URLs: a truffle-config's `const infuraProjectId = "…"`, adv161 F35).
  { kind: 'infura project key', keywords: ['infuraprojectid', 'infura_project_id'], re: /\binfura_?project_?id["']?[ \t]*[=:][ \t]*["'`]?(?<secret>[0-9a-fA-F]{32})(?![0-9a-fA-F])/gi },
  // A mnemonic's words unquoted after its name (`using mnemonic=<24 words>` in a Python debug line: adv161 F27): 12 to 24
  // lower-case words of BIP-39's lengths, to the line's end or a quote. Not the test mnemonics every tool documents (Hardhat's
  // and anvil's `test test … junk`, BIP-39's `abandon … about`; the dev chains' phrases of look-alikes.ts DOCUMENTED_PHRASES).
  { kind: 'mnemonic', keywords: ['mnemonic'], re: /\bmnemonic[ \t]*[=:][ \t]*(?!test(?:[ \t]test){10}[ \t]junk\b|abandon(?:[ \t]abandon){10}[ \t]about\b|candy maple cake sugar pudding cream honey rich smooth crumble sweet treat\b|myth like bonus scare over problem client lizard pioneer submit female collect\b|bottom drive obey lake curtain smoke basket hold race lonely fit walk\b)(?<secret>[a-z]{3,8}(?:[ \t][a-z]{3,8}){11,23})(?=[ \t]*(?:["',;)]|\r?$))/gim },
  // Media content keys (adv162 F20, F21): Bento4's `mp4decrypt --key <KID or track>:<key>` and shaka-packager's raw keys
  // (`--keys label=SD:key_id=<KID>:key=<key>`); a KID alone is public (a manifest's `default_KID`).
  { kind: 'content key', keywords: ['--key', ':key='], needs: /--key(?:=|[ \t]+)["']?(?:[0-9a-fA-F]{32}|\d{1,4}):[0-9a-fA-F]{32}|key_id=[0-9a-fA-F]{32}:key=/, re: /(?<![\w-])--key(?:=|[ \t]+)["']?(?:[0-9a-fA-F]{32}|\d{1,4}):(?<secret>[0-9a-fA-F]{32})(?![0-9a-fA-F])|\bkey_id=[0-9a-fA-F]{32}:key=(?<secret2>[0-9a-fA-F]{32})(?![0-9a-fA-F])/g },
  // An RTMP ingest URL's stream key, its last path segment after the application (`rtmp://a.rtmp.youtube.com/live2/<key>`, with
  // YouTube's backup `live2?backup=1/<key>`, Twitch's `app/live_<id>_<key>`: adv162 F27): YouTube's groups of four, a random
  // word of 16 and more with a digit and both cases, or 24 hex digits and more (a stream's name, `live/ch1`, `live/test`,
  // `live/camera_front_door_1080`, stays).
  { kind: 'stream key', keywords: ['rtmp'], needs: /rtmps?:\/\//i, re: /\brtmps?:\/\/[^\s\/'"]{1,256}\/(?:[^\s\/?'"]{1,128}\/){0,4}[^\s\/?'"]{1,128}(?:\?[^\s\/'"]{0,128})?\/(?<secret>[a-z0-9]{4}(?:-[a-z0-9]{4}){3,4}(?![\w-])|(?=[^\s'"\/?&]{0,255}\d)(?=[^\s'"\/?&]{0,255}[a-z])(?=[^\s'"\/?&]{0,255}[A-Z])[A-Za-z0-9_.~=-]{16,256}(?![\w.~=-])|[0-9a-f]{24,256}(?![\w.~=-]))/g },
  // SDES-SRTP's master keys in SDP (`a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:<base64>|2^31`, a decrypted SIP trace: adv156 F32):
  // they decrypt the call's media.
  { kind: 'srtp master key', keywords: ['inline:'], re: /\ba=crypto:\d{1,10}[ \t]+[A-Z0-9_]{1,64}[ \t]+inline:(?<secret>[A-Za-z0-9+\/]{20,128}={0,2})/g },
  // An S3-compatible store's access key id by its name (MinIO's, Ceph RGW's, Wasabi's: 20 upper-case letters and digits, no `AKIA`
  // for the vendor rule to find; AWS's own are masked so: adv151 F4, F27), and `mc alias set <alias> <url> <access> <secret>` (F15).
  { kind: 'access key id', keywords: ['access_key_id', 'accesskeyid'], re: /(?<![\w-])(?:aws_access_key_id|AWS_ACCESS_KEY_ID|accessKeyId|AccessKeyId|AccessKeyID)["']?[ \t]*[=:][ \t]*["']?(?<secret>[A-Z0-9]{20})(?![A-Za-z0-9])/g },
  { kind: 'access key id', keywords: ['alias set', 'host add'], re: /\bmc(?:\.exe)?[ \t]+(?:alias[ \t]+set|config[ \t]+host[ \t]+add)[ \t]+\S+[ \t]+\S+[ \t]+["']?(?<secret>[A-Za-z0-9+\/_-]{16,128})(?=["']?[ \t])/g },
  // A secret's name given a decoder's call of a literal (`c.JupyterHub.cookie_secret = bytes.fromhex('<64 hex>')`: adv151 F10;
  // `base64.b64decode("…")`, `unhexlify(b'…')`, `Buffer.from('…', 'hex')`): the literal is the secret, whatever the code around it.
  { kind: 'secret', keywords: ['fromhex(', 'b64decode(', 'unhexlify(', 'buffer.from('], re: /(?<![\w])(?<name>[A-Za-z_]\w{0,63})["']?\]?[ \t]*[=:][ \t]*(?:bytes\.fromhex|(?:base64\.)?(?:urlsafe_|standard_)?b64decode|(?:binascii\.)?(?:unhexlify|a2b_hex)|Buffer\.from)\([ \t]*[bu]?(["'])(?<secret>[A-Za-z0-9+\/=_-]{16,4096})\2/g },
  // Capistrano's and Sinatra's settings (`set :s3_secret, "…"`: adv31 F45): a symbol that names a secret, then its value.
  { kind: 'secret', keywords: ['pass', 'pwd', 'secret', 'token', 'key', 'auth', 'cred'], sharesNameWords: true, needs: /\bset[ \t]+:\w+,/, re: /\bset[ \t]+:(?<name>\w{1,64}),[ \t]*(?:"(?<secret>(?:[^"\\\n]|\\.){1,4096})(?=")|'(?<secret2>[^'\n]{1,4096})(?='))/g },
  // Consul's and Nomad's gossip encryption key (`encrypt = "…"` in a server block, `"encrypt": "…"` in JSON: adv26 F04): base64 of
  // 16 or 32 bytes.
  { kind: 'gossip encryption key', keywords: ['encrypt'], needs: /\bencrypt"?[ \t]*[=:][ \t]*"[A-Za-z0-9+\/]{22,}/, re: /(?:^|[\s{,])"?encrypt"?[ \t]*[=:][ \t]*"(?<secret>[A-Za-z0-9+\/]{22}==|[A-Za-z0-9+\/]{43}=)(?=")/gm },
  // …and as `consul keyring -list` prints the installed ones, each alone on its line before its count of members (`  O8eQ…= [3/3]`
  // under `WAN:` and `dc1 (LAN):`: adv245).
  { kind: 'gossip encryption key', keywords: ['= ['], unless: /(?!\d{1,5}\/\d{1,5}\])/y, needs: /=[ \t]+\[\d{1,5}\/\d{1,5}\]/, re: /^[ \t]+(?<secret>[A-Za-z0-9+\/]{43}=|[A-Za-z0-9+\/]{22}==)[ \t]+\[\d{1,5}\/\d{1,5}\][ \t]*\r?$/gm },
  // Bundler's credentials for a gem source in the environment (`BUNDLE_GEMS__CONTRIBSYS__COM=user:pw`: the host's dots as `__`,
  // adv24 F24); its settings (`BUNDLE_PATH`, `BUNDLE_WITHOUT`) have no `__`.
  { kind: 'gem source credentials', keywords: ['bundle_'], needs: /BUNDLE_\w*__/, re: /\bBUNDLE_[A-Z0-9_]*[A-Z0-9]__[A-Z0-9_]*[A-Z0-9][ \t]*[=:][ \t]*["']?(?<secret>[^\s"']{4,})/g, guard: true },
  // A `Set-Cookie` header's value as a quoted string of its own (`[ 'session=…; Path=/; HttpOnly' ]`, a list printed without the
  // header's name: session 40's stop check): a cookie's value before its attributes; a preference's words (`Europe%2FAmsterdam`,
  // `checkout-v2`: as the header list's preferenceValue) and what the look-alike guard keeps stay.
  { kind: 'cookie', keywords: ['; path=', '; httponly', '; secure', '; samesite=', '; expires=', '; max-age=', '; domain='], re: /(?<q>['"])[ \t]*[^\s=;'"]{1,256}=(?![A-Za-z]{1,16}(?:(?:[._/ -]|%2F)[A-Za-z0-9]{1,12}){0,3};)(?<secret>[^;'"\s]{8,8192});[ \t]*(?:Path=|Domain=|Expires=|Max-Age=|HttpOnly\b|Secure\b|SameSite=)/gi, guard: true },
  // A WordPress application password as `wp user application-password create` prints it (`Password: GxhV Z8he tDfX ubrK pqSC
  // d89F`: six groups of four, adv236 F31).
  { kind: 'password', keywords: ['password: '], sharesNameWords: true, re: /\bPassword:[ \t]+(?<secret>[A-Za-z0-9]{4}(?: [A-Za-z0-9]{4}){5})(?![ \t]*\S)/g },
  // WP-CLI's `wp config list` box: a constant's value whole, up to its row's `| constant |` (a salt holds bars and blanks: `| AUTH_KEY
  // | …|o*Bg&EN … | constant |` was masked to its first bar, pass 227 F3).
  { kind: 'secret', keywords: ['| constant', '| variable'], re: /^\|[ \t]*(?<name>[A-Za-z_][A-Za-z0-9_]{0,63})[ \t]*\|[ \t](?<secret>[^\n]{1,512}?)[ \t]*\|[ \t]*(?:constant|variable)[ \t]*\|[ \t]*\r?$/gm },
  // Neon's role passwords (`npg_` and 12 characters and up, shorter than a token run: `urlsplit(DATABASE_URL).password` prints one
  // bare, pass 228 F36).
  { kind: 'neon password', keywords: ['npg_'], re: /(?<![A-Za-z0-9_-])(?<secret>npg_[A-Za-z0-9]{12,64})(?![A-Za-z0-9_-])/g },
  // Slack's desktop session cookie (`d=xoxd-…`, URL-encoded as Slack stores it, `%2B` and all: pass 229 F8): a token run ends at `%`.
  { kind: 'slack session', keywords: ['xoxd-'], re: /(?<![A-Za-z0-9_-])(?<secret>xoxd-[0-9A-Za-z%+/=_-]{20,4096})/g },
  // FileVault's recovery key (`fdesetup changerecovery -personal`: `New personal recovery key = 'XXXX-…'`, six groups of four:
  // pass 229 F36), by its label or a plist's `RecoveryKey`.
  { kind: 'recovery key', keywords: ['recovery key', 'recoverykey'], re: /recovery[ _]?key[^\n=:]{0,16}[=:][ \t]*(?:<string>)?['"]?(?<secret>[A-Z0-9]{4}(?:-[A-Z0-9]{4}){5})(?![A-Za-z0-9-])/gi },
  // Python's `http.cookiejar.Cookie` as a list prints it (`[Cookie(version=0, name='connect.sid', value='…', …)]`: adv219 F11).
  { kind: 'cookie', keywords: ['cookie(version='], re: /\bCookie\(version=\d{1,3}, name='[^'\n]{1,256}', value='(?<secret>[^'\n]{8,8192})(?=')/g, guard: true },
  // ftp's own login command in a script's here-document (`ftp -n host <<EOF` then `user NAME PASSWORD`: adv219 F43), a number
  // before it (`cat -n`); the password holds a digit or a symbol (`user alice disabled` of a log is prose).
  { kind: 'password', keywords: ['user '], needs: /^[ \t]*(?:(?:[^\s:]{1,256}:)?\d{1,9}[\t:-][ \t]*)?user[ \t]+\S+[ \t]+\S+[ \t]*\r?$/m, re: /^[ \t]*(?:(?:[^\s:]{1,256}:)?\d{1,9}[\t:-][ \t]*)?user[ \t]+[\w.@-]{1,64}[ \t]+(?<secret>(?=\S{0,255}[\d@#$%!?*&^~])[^\s'"]{4,256})(?=[ \t]*\r?$)/gm, guard: true },
  // Python's cookie jar printed (`<Cookie sessionid=… for localhost.local/>`, requests' RequestsCookieJar repr: adv24 F14).
  { kind: 'cookie', keywords: ['<cookie '], re: /<Cookie [^=\s]{1,128}=(?<secret>[^\s]{8,4096}?)(?= for [^\s]*\/>)/g, guard: true },
  // A TLS key log (SSLKEYLOGFILE, NSS's format: `CLIENT_RANDOM <client random> <master secret>`, TLS 1.3's traffic secrets:
  // adv12 A34): the second hex field decrypts the session.
  { kind: 'tls session secret', keywords: ['client_random', 'traffic_secret', 'exporter_secret'], re: /^(?:CLIENT_RANDOM|(?:CLIENT|SERVER)_(?:HANDSHAKE_)?TRAFFIC_SECRET(?:_\d+)?|(?:EARLY_)?EXPORTER_SECRET|CLIENT_EARLY_TRAFFIC_SECRET) [0-9a-fA-F]{64} (?<secret>[0-9a-fA-F]{64,128})(?=\r?$)/gm },
  // A cookie jar (`curl -c`, Netscape's cookies.txt: adv23 F43): domain, subdomains flag, path, secure flag, expiry, name, value
  // (the seventh tab-separated field). A session's cookie is a credential wherever it shows, as in a `Cookie:` header.
  { kind: 'cookie', keywords: ['\tfalse\t', '\ttrue\t'], needs: /\t(?:TRUE|FALSE)\t[^\t\n]*\t(?:TRUE|FALSE)\t\d+\t/, re: /^(?:#HttpOnly_)?[^\s#][^\t\n]*\t(?:TRUE|FALSE)\t[^\t\n]*\t(?:TRUE|FALSE)\t\d+\t[^\t\n]+\t(?<secret>[^\t\n]{8,8192}?)(?=\r?$)/gm, guard: true },
  // Bitwarden's hidden custom field (`bw list items`: `{"name":"…","value":"…","type":1}`, type 1 = hidden: adv23 F29).
  { kind: 'hidden field', keywords: ['"type":1', '"type": 1'], needs: /"value"[ \t]*:[ \t]*"[^"\n]+"[ \t]*,[ \t]*"type"[ \t]*:[ \t]*1\b/, re: /"value"[ \t]*:[ \t]*"(?<secret>(?:[^"\\\n]|\\.){1,8192})(?="[ \t]*,[ \t]*"type"[ \t]*:[ \t]*1\b)/g },
  // An Azure Functions host's keys as ARM lists them (`az rest … /host/default/listKeys`, `az functionapp keys set`: `{"name":
  // "default", "value": "…"}`: adv110 F31): a key's name that says nothing, its value a long base64 word. On one line here; az's
  // pretty JSON, the value on the next line, is the HAR rule's (AZURE_KEY_NAMES).
  { kind: 'azure function key', keywords: ['"default"', '"_master"', '"master"'], needs: /"name"[ \t]*:[ \t]*"(?:default|_?master)"/, re: /"name"[ \t]*:[ \t]*"(?:default|_?master)"[ \t]*,[ \t]*"value"[ \t]*:[ \t]*"(?<secret>[A-Za-z0-9+/_-]{32,256}={0,2})(?=")/g },
  // A credential typed `password` in compact JSON (Keycloak's realm import, `jq -c`: adv113 F21); pretty-printed, the HAR rule's.
  { kind: 'password', keywords: ['"type":"password'], re: /"type":"password",(?:"\w{1,32}":(?:"[^"\\\n]{0,64}"|[\w.-]{1,32}),){0,2}"value":"(?<secret>(?:[^"\\\n]|\\.){1,1024})(?=")/g, guard: true },
  // 1Password's field of type CONCEALED flattened to a row (`jq -r '.fields[] | [.label, .type, .value] | @tsv'`, a table): the
  // value after the type (adv112 F41).
  { kind: 'concealed field', keywords: ['concealed'], needs: /CONCEALED(?:\t| {2,}|[ \t]*[│|])/, re: /\bCONCEALED(?:\t| {2,}|[ \t]*[│|][ \t]*)(?<secret>[^\s│|]{1,1024})/g, guard: true },
  // Caddy: a DNS provider's API token (`acme_dns cloudflare <token>`, `dns cloudflare <token>`: adv23 F14); header_up / header_down
  // / header of an API key header (as nginx's proxy_set_header below).
  { kind: 'dns provider token', keywords: ['acme_dns', 'dns cloudflare', 'dns digitalocean', 'dns route53', 'dns gandi', 'dns porkbun', 'dns hetzner'], re: /\b(?:acme_)?dns[ \t]+(?:cloudflare|digitalocean|gandi|porkbun|hetzner|duckdns|vultr|linode|namecheap|godaddy|dnsimple|desec|netlify|ovh|azure|googleclouddns|route53)[ \t]+(?<secret>(?![{$])[^\s{}]{16,})/g, guard: true },
  { kind: 'api key header', keywords: ['header_up', 'header_down'], needs: /header_(?:up|down)/, re: /\bheader_(?:up|down)[ \t]+[+-]?(?:Authorization|X-Api-Key|Api-Key|X-[\w-]*(?:Key|Token|Secret)|Private-Token)[ \t]+"?(?:(?:Bearer|Basic|Token)[ \t]+)?(?<secret>(?![{$])[^\s"]{8,})/gi, guard: true },
  // A SAML response posted to a service provider (`SAMLResponse=<base64 of the signed assertion>`, URL-encoded in a form body a
  // debug log prints: pass 226 F27): a bearer credential until it expires, whoever replays it signs in.
  { kind: 'saml response', keywords: ['samlresponse'], re: /name=["']SAMLResponse["'][ \t]+value=["'](?<secret>[A-Za-z0-9+/%=]{40,1048576})/g },
  { kind: 'saml response', keywords: ['samlresponse'], re: /(?<![\w-])SAMLResponse["']?[ \t]*[=:][ \t]*["']?(?<secret>[A-Za-z0-9+/%=]{40,1048576})/g },
  // An OAuth authorization code in a token request's form (Spring's `{grant_type=[authorization_code], code=[…]}`, a form body
  // `grant_type=authorization_code&code=…`: adv23 F37): it buys the tokens until it is used.
  // …and in a JSON body (`{"grant_type":"authorization_code",…,"code":"…"}`: adv236 F20), either order.
  { kind: 'authorization code', keywords: ['authorization_code'], needs: /"grant_type"/, re: /"grant_type"[ \t]*:[ \t]*"authorization_code"[^\n]{0,512}?"code"[ \t]*:[ \t]*"(?<secret>(?![A-Z][A-Z0-9_]*")[^"\s\\]{8,4096})(?=")|"code"[ \t]*:[ \t]*"(?<secret2>(?![A-Z][A-Z0-9_]*")[^"\s\\]{8,4096})"(?=[^\n]{0,512}?"grant_type"[ \t]*:[ \t]*"authorization_code")/g, guard: true },
  { kind: 'authorization code', keywords: ['authorization_code'], needs: /grant_type/, re: /grant_type=\[?authorization_code\]?(?:[^\n]{0,512}?)[,&{ ]\s*code=\[?(?<secret>(?=[^\s\],&]{0,255}\d)[^\s\],&]{8,})/g, guard: true },
  // Hadoop's ABFS / WASB account key (`fs.azure.account.key.<account>.dfs.core.windows.net`, in Spark's conf as a pair, a
  // property, a `--conf` or core-site.xml: adv20 F08): the name ends in the account's host, not in a secret's word.
  { kind: 'azure storage account key', keywords: ['fs.azure.account.key.'], re: /fs\.azure\.account\.key\.[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+){0,6}["']?(?:<\/name>[ \t]*<value>|[ \t]*[,=:][ \t]*["']?|[ \t]+)(?<secret>[A-Za-z0-9+\/]{40,}={0,2})/g },
  // Hadoop's ABFS OAuth client secret (`fs.azure.account.oauth2.client.secret[.<account>.dfs.core.windows.net]`, Databricks'
  // `spark.conf.set("…", "…")`: adv86 F35), beside the account key's rule above.
  { kind: 'azure client secret', keywords: ['oauth2.client.secret'], re: /oauth2\.client\.secret(?:\.[A-Za-z0-9-]+){0,8}["']?(?:<\/name>[ \t]*<value>|[ \t]*[,=:][ \t]*["']?|[ \t]+)(?<secret>[A-Za-z0-9~._-]{16,256})/g, guard: true },
  // An HTML form's password field with its value filled in (a saved page, a server-rendered form in a test log).
  { kind: 'password', keywords: ['pass'], sharesNameWords: true, needs: /<input\b[^>]{0,1024}?\btype=["']?password/i, re: /<input\b(?=[^>]{0,1024}?\btype=["']?password\b)[^>]{0,1024}?\bvalue=["'](?<secret>[^"'\n]+)(?=["'])/gi, guard: true },
  // Redis `AUTH [user] password` at a redis-cli prompt or in a MONITOR / protocol log; SMTP `AUTH PLAIN <base64>` (a mail client's debug log,
  // Python smtplib's `send: 'AUTH PLAIN …\r\n'`: adv81 F56). Its user holds no colon: a receipt's `AUTH CODE: 0X88KF` is a label and an
  // approval code (pass 277 L25).
  { kind: 'password', keywords: ['auth ', 'auth"'], needs: /AUTH"?[ \t]/, re: /(?:^|[>\]][ \t]*|send: b?')(?:AUTH|"AUTH")[ \t]+(?:"?[^\s":]+"?[ \t]+)?(?!"?(?:PLAIN|LOGIN|CRAM-MD5|DIGEST-MD5|XOAUTH2|OAUTHBEARER|NTLM|GSSAPI)[ \t]*\r?$)"?(?<secret>[^\s"]+?)(?="?[ \t]*\r?$|\\r\\n'[ \t]*\r?$)/gm, guard: true },
  // A value stored under a key named like a credential, as redis-cli MONITOR logs it (`"SET" "api_token:dana" "…" "EX" "3600"`, SETEX's
  // seconds between: adv48 F20) or a prompt shows it (`127.0.0.1:6379> SET api_token:dana …`): a word of the key says what it holds
  // (`cfg:ldap:bind_pw` too: adv74 F10).
  { kind: 'token', keywords: ['"set', '"psetex"', '> set', '>set'], needs: /(?:"(?:P?SETEX|SETNX|GETSET|SET)"|> ?SET)[ \t]/i, re: /(?:"(?:SET|SETNX|GETSET|P?SETEX)"[ \t]+"[^"\n]{0,128}?(?<![a-z])(?:api[_.-]?key|apikey|access[_.-]?key|tokens?|secrets?|passw(?:or)?ds?|pw|pwd|credentials?|refresh[_.-]?tokens?)(?![a-z])[^"\n]{0,128}"[ \t]+(?:"\d{1,10}"[ \t]+)?"(?<secret>(?:[^"\\\n]|\\.){4,4096})(?=")|>[ \t]?SET[ \t]+\S{0,128}?(?<![a-z])(?:api[_.-]?key|apikey|access[_.-]?key|tokens?|secrets?|passw(?:or)?ds?|pw|pwd|credentials?)(?![a-z])\S{0,128}[ \t]+(?<secret2>[^\s"']{4,4096}))/gi, guard: true },
  // RESP3's handshake with its credentials (`HELLO 3 AUTH user pw SETNAME x`, redis-cli MONITOR's `"HELLO" "3" "AUTH" "u" "pw"`: adv22 F08).
  { kind: 'password', keywords: ['auth ', 'auth"'], needs: /HELLO"?[ \t]+"?\d/i, re: /\bHELLO"?[ \t]+"?\d"?[ \t]+"?AUTH"?[ \t]+"?[^\s"]+"?[ \t]+"?(?<secret>(?:[^\s"\\]|\\.)+)/gi, guard: true },
  // `declare -p` of an array whose name is a secret's (`declare -A CREDS=([smtp]="…" [db]="…" )`: adv18 F15): every element is a value.
  // The look back is bounded (1 KB after the `(`: it runs at every `[`, a longer bound costs a hostile line quadratically).
  { kind: 'secret', keywords: ['=(['], needs: /\b(?:declare|typeset)[ \t]+-/, re: /(?<=\b(?:declare|typeset)[ \t]+-[aAgilnrtux]*[aA][aAgilnrtux]*[ \t]+\w*(?:CRED|TOKEN|SECRET|PASS|PWD|KEY|AUTH)\w*=\((?:[^\n)]{0,1024}?[ \t])?)\[[^\]\n]{1,128}\]=(?:"(?<secret>(?:[^"\\\n]|\\.){1,4096})(?=")|'(?<secret2>[^'\n]{1,4096})(?='))/gi },
  // A template's placeholder replaced by a value in a sed script (`sed -i -e 's|__DB_PASSWORD__|…|g'` as `bash -x` prints it, `s/{{API_TOKEN}}/…/`:
  // adv18 F14): the placeholder names what the value is.
  { kind: 'secret', keywords: ['pass', 'pwd', 'secret', 'token', 'key', 'auth', 'cred'], sharesNameWords: true, needs: /\bs([|\/#,:@])[^\n]{0,4096}?(?:PASSWORD|SECRET|TOKEN|KEY|PASS|PWD|CRED|AUTH)/, re: /(?<![\w-])s(?<d>[|\/#,:@])[_%@{$]*[A-Z0-9_]*(?:PASSWORD|SECRET|TOKEN|KEY|PASS|PWD|CRED|AUTH)[A-Z0-9_]*[_%@}]*\k<d>(?<secret>(?:(?!\k<d>)[^\n\\]|\\.){1,4096}?)(?=\k<d>)/g, guard: true },
  // nix.conf's `access-tokens = host=token host2=PAT:token` (adv18 F45): each host's token (within 1 KB of the line's start: the
  // look back runs at every word, so a longer bound is a quadratic cost on a hostile line).
  { kind: 'access token', keywords: ['access-tokens'], re: /(?<![\w.:-])(?=[\w.:-]{1,256}=)(?<=^[ \t]*(?:extra-)?access-tokens[ \t]*=(?:[^\n]{0,1024}?[ \t])?)[\w.:-]+=(?:PAT:|OAuth2:)?(?<secret>[^\s=]+)/gm, guard: true },
  // Redis' wire protocol (RESP) as strace (`\r\n` escapes) and ngrep (`..`) print it: `*3\r\n$4\r\nAUTH\r\n$7\r\ndefault\r\n$32\r\n<password>\r\n`
  // (adv18 F04, F20). The password is AUTH's last argument: the one after which no `$<length>` follows.
  { kind: 'password', keywords: ['auth\\r\\n', 'auth..'], re: /(?:(?<![A-Za-z0-9])|(?<=\\[rn]))AUTH(?<sep>\\r\\n|\.\.)(?:\$\d{1,3}\k<sep>(?:(?!\k<sep>)[^\s"]){1,256}\k<sep>)?\$\d{1,3}\k<sep>(?<secret>(?:(?!\k<sep>)[^\s"]){1,512})(?=\k<sep>(?!\$))/g, guard: true },
  // A key named in prose before it (`[smoke] using api key 042bc5…`, `auth token: …` is a key's name: adv18 F35): a long run of
  // letters and digits, both, right after the words.
  // Or after a colon, base64 too (a rotation script's `  new api key: 1urK…/e3Vx…`: adv54 F50).
  { kind: 'api key', keywords: ['api key', 'access token', 'auth token', 'secret key'], re: /(?<![\w-])(?:api key|access token|auth token|secret key)(?:[ \t]+is)?(?:[ \t]*:)?[ \t]+(?<secret>(?=[A-Za-z0-9_+/-]{0,127}\d)(?=[A-Za-z0-9_+/-]{0,127}[A-Za-z])[A-Za-z0-9_+/-]{32,128}={0,2})(?![\w+/=-])/gi },
  { kind: 'password on command line', keywords: ['catalog'], needs: /\brman\b/, re: /\brman\b[^\n|;&]{0,1024}?[ \t]catalog[ \t]+["']?[A-Za-z0-9_$#.]+\/(?<secret>[^\s@'"/]+)(?=@|["']?(?:[ \t]|$))/gm, guard: true },
  // Azure Pipelines' logging command setting a secret variable (`##vso[task.setvariable variable=X;issecret=true]VALUE`: adv19 F23).
  { kind: 'secret', keywords: ['issecret=true'], re: /##vso\[task\.setvariable\b[^\]\n]*\bissecret=true\b[^\]\n]*\](?<secret>[^\r\n]+?)(?=['"]?[ \t]*\r?$)/gim },
  // Gradle's generated constants and resources (`buildConfigField("String", "PARTNER_SECRET", "\"…\"")`, `resValue("string",
  // "intercom_api_key", "…")`: adv19 F40): the name is an argument, the value the next; in Groovy's single quotes around its
  // double ones too (`resValue "string", "CodePushDeploymentKey", '"…"'`: adv180).
  { kind: 'secret', keywords: ['buildconfigfield', 'resvalue'], re: /\b(?:buildConfigField|resValue)[ \t]*\(?[ \t]*["'][\w.]+["'][ \t]*,[ \t]*["'](?<name>[A-Za-z_][\w.-]*)["'][ \t]*,[ \t]*(?:'"|["'](?:\\")?)(?<secret>(?:[^"\\\n]|\\[^"\n]){4,}?)(?=(?:\\")?["'])/g, guard: true },
  // snmpd.conf: a community string (`rocommunity <community> [source]`) and a USM user's keys (`createUser bob SHA "…" AES "…"`: adv19 F06).
  { kind: 'snmp community', keywords: ['community'], re: new RegExp(String.raw`^${LINE_PREFIX}[ \t]*(?:ro|rw)community6?[ \t]+(?<secret>[^\s#]+)`, 'gm'), guard: true },
  // …a trap sink's community (`trap2sink <host> <community>`, `trapcommunity …`: adv93 F30), a switch's (Cisco's `snmp-server
  // community … RO`, Junos' `set snmp community …`: F32, F33), and the net-snmp tools' options (`snmpwalk -v2c -c <community>`,
  // `-cX` glued, v3's `-A <auth passphrase>` and `-X <privacy passphrase>`: F31).
  // A line may carry grep's `file:line:` or a diff's `-`/`+` (`git log -p` of a switch's config: pass 181 F2, F35); Cisco's
  // `snmp-server host <host> [traps|informs] version 1|2c <community>` names the community its traps carry.
  { kind: 'snmp community', keywords: ['sink', 'trapcommunity', 'community'], re: new RegExp(String.raw`^${LINE_PREFIX}[ \t]*(?:(?:trap2?|inform)sink[ \t]+\S+|trapcommunity|snmp-server[ \t]+community|set[ \t]+snmp[ \t]+community)[ \t]+(?:[07][ \t]+)?(?<secret>[^\s#]+)`, 'gm'), guard: true },
  // …and a switch's line inside a string (Ansible's `"commands": ["snmp-server community … RO 10"]` in -vvv output: adv189 F12).
  { kind: 'snmp community', keywords: ['community'], needs: /["']snmp-server[ \t]+community[ \t]/, re: /(?<=["'])snmp-server[ \t]+community[ \t]+(?:[07][ \t]+)?(?<secret>[^\s#"'\\]{1,256})/g, guard: true },
  { kind: 'snmp community', keywords: ['snmp-server host'], re: /\bsnmp-server[ \t]+host[ \t]+\S{1,256}(?:[ \t]+(?:traps|informs))?[ \t]+version[ \t]+(?:1|2c)[ \t]+(?<secret>[^\s#]{1,256})/g, guard: true },
  // Junos' community in its hierarchy (`community <name> {`, its `authorization read-only;` below: pass 181 F6); a policy's BGP
  // community is written on one line (`community <name> members …;`).
  { kind: 'snmp community', keywords: ['community '], needs: /\bcommunity[ \t]+\S+[ \t]+\{/, re: new RegExp(String.raw`^${LINE_PREFIX}[ \t]*community[ \t]+"?(?<secret>[^\s"{]{1,256})"?[ \t]+\{[ \t]*\r?$`, 'gm') },
  { kind: 'snmp community', keywords: ['snmp'], needs: /\bsnmp(?:walk|get|getnext|bulkwalk|bulkget|set|table|trap|inform|df|status|netstat|delta|translate)\b/, re: argAfter(String.raw`(?<=\bsnmp(?:walk|get|getnext|bulkwalk|bulkget|set|table|trap|inform|df|status|netstat|delta)\b[^\n|;&]{0,256}?[ \t])-(?:c[ \t]*|[AX][ \t]+)`) },
  { kind: 'snmp key', keywords: ['createuser'], re: /\bcreateUser[ \t]+(?:-e[ \t]+\S+[ \t]+)?\S+[ \t]+(?:MD5|SHA(?:-\d+)?)[ \t]+(?:"(?<secret>[^"\n]+)(?=")|(?<secret2>[^\s"]+))/g, guard: true },
  { kind: 'snmp key', keywords: ['createuser'], re: /\bcreateUser[ \t]+(?:-e[ \t]+\S+[ \t]+)?\S+[ \t]+(?:MD5|SHA(?:-\d+)?)[ \t]+(?:"[^"\n]+"|[^\s"]+)[ \t]+(?:DES|AES(?:-?\d+)?)[ \t]+(?:"(?<secret>[^"\n]+)(?=")|(?<secret2>[^\s"]+))/g, guard: true },
  // A header as a pair of strings (Elixir's `conn.req_headers`: `{"authorization", "Bearer …"}`, Python's `[('x-api-key', '…')]`,
  // Erlang's, Rust's tuples: adv19 F30). The scheme stays; the credential after it is masked.
  // Not the scheme alone, a code's string joined to a variable (Go's `req.Header.Set("Authorization", "Bearer "+c.token)`: adv52 K07).
  // A Sentry event's `request.headers` as `[name, value]` arrays, any `X-…-Token` / `-Secret` (`["X-Api-Token", "…"]`: adv48 F50;
  // not any `-Key`: `X-Cache-Key`, `X-Idempotency-Key` are no credentials).
  { kind: 'authorization header', keywords: ['authorization', 'api-key', 'auth-token', 'x-token', 'private-token', 'api-token', '-token"', '-secret"'], needs: /["'][ \t]*,[ \t]*b?["']/, re: /[{(\[][ \t]*b?(?<q>["'])(?:proxy-)?(?:authorization|x-api-key|api-key|x-auth-token|x-access-token|x-token|private-token|x-api-token|api-token|x-[a-z0-9-]{1,32}-(?:token|secret))\k<q>[ \t]*,[ \t]*b?(?<q2>["'])(?!(?:Bearer|Basic|Token|token|Bot|Digest)[ \t]*\k<q2>)(?:(?:Bearer|Basic|Token|token|Bot|Digest)[ \t]+)?(?<secret>(?:(?!\k<q2>)[^\n\\]|\\.){4,4096}?)(?=\k<q2>)/gi, guard: true },
  // Erlang terms (`rabbitmqctl environment`: `{default_pass,<<"…">>}`, a sys.config's `{password, "…"}`: adv12 A07).
  { kind: 'secret', keywords: ['pass', 'secret', 'token', 'key', 'cred'], sharesNameWords: true, needs: /\{[a-z_]\w*,[ \t]*(?:<<)?"/, re: /\{(?<name>[a-z_]\w*),[ \t]*(?:<<)?"(?<secret>[^"\n]+)(?="(?:>>)?[ \t]*\})/g, guard: true },
  // …and an Erlang map's binary (`#{auth_key => <<"…">>}` of Hex's `hex.config`: pass 230 F33).
  { kind: 'secret', keywords: ['pass', 'secret', 'token', 'key', 'cred'], sharesNameWords: true, needs: /=>[ \t]*<<"/, re: /(?:(?<![\w.-])|<<")(?<name>[a-z_]\w*)(?:">>)?[ \t]*=>[ \t]*<<"(?<secret>[^"\n]+)(?=">>)/g, guard: true },
  // `bundle config` (adv12 A03): a gem source's credentials (`user:password`) on the line under its host, quoted.
  { kind: 'gem source credentials', keywords: ['set for'], re: /^Set for (?:the current user|your local app|your project)[^\n:]*\):[ \t]*"(?<secret>[^"\s:]+:[^"\s]+)(?=")/gm },
  // Deno's DENO_AUTH_TOKENS (`token@host;user:password@host2`, adv13 B34): each entry's credential before its `@`.
  { kind: 'token', keywords: ['deno_auth_tokens'], re: /(?<=\bDENO_AUTH_TOKENS=["']?(?:[^\s;"']{1,1024};){0,32})(?:[^\s:;@"']{1,256}:)?(?<secret>[^\s;@"']{4,1024})(?=@)/g },
  // An XML element named by its `name` attribute (Android's SharedPreferences: `<string name="refresh_token">…</string>`, a
  // Java properties XML's `<entry key="db.password">…</entry>`: adv20 F26).
  // Other attributes may follow the name (Android's `<string name="segment_write_key" translatable="false">`: adv90 F50), or come
  // before it (react-native-code-push's `<string moduleConfig="true" name="CodePushDeploymentKey">`: adv106 F20), four at most.
  { kind: 'secret', keywords: ['pass', 'secret', 'token', 'key', 'cred', 'auth'], sharesNameWords: true, needs: /<(?:string|entry)[ \t]+(?:[\w:.-]{1,64}="[^"\n]{0,64}"[ \t]+){0,4}(?:name|key)=/, re: /<(?:string|entry)[ \t]+(?:[\w:.-]{1,64}="[^"\n]{0,64}"[ \t]+){0,4}(?:name|key)=(?<q>["'])(?<name>[^"'\n]{1,128})\k<q>(?:[ \t]+[\w:.-]{1,64}=(?:"[^"\n]{0,256}"|'[^'\n]{0,256}'))*[ \t]*>(?<secret>[^<\n]{1,8192})(?=<\/(?:string|entry)>)/g, guard: true },
  // An Android manifest's `<meta-data android:name="com.bugsnag.android.API_KEY" android:value="…"/>` (adv90 F50): the name's last part.
  { kind: 'secret', keywords: ['pass', 'secret', 'token', 'key', 'cred', 'auth'], sharesNameWords: true, needs: /<meta-data[ \t]/, re: /<meta-data[ \t]+android:name="(?:[\w-]{1,64}\.){0,8}(?<name>[\w-]{1,64})"[ \t]+android:value="(?<secret>[^"\n]{1,4096})(?=")/g, guard: true },
  // gitea's new token (`gitea admin user generate-access-token`: `Access token was successfully created: <40 hex>`, adv20 F22): the
  // sentence says what it is, so its git-SHA shape is no look-alike here.
  { kind: 'access token', keywords: ['successfully created'], re: /\b(?:Access token|Token) was successfully created(?: for [^:\n]+)?:[ \t]*(?<secret>[A-Za-z0-9_-]{20,128})(?=[ \t]*\r?$)/gm },
  // sbt's credentials (`Credentials("Artifactory Realm", "host", "user", "…")`: adv20 F39): the fourth argument.
  { kind: 'password', keywords: ['credentials('], re: /\bCredentials\([ \t]*"[^"\n]*"[ \t]*,[ \t]*"[^"\n]*"[ \t]*,[ \t]*"[^"\n]*"[ \t]*,[ \t]*"(?<secret>[^"\n]+)(?=")/g, guard: true },
  // A setting and its value as a pair of strings (pyspark's `sc.getConf().getAll()`: `('spark.hadoop.fs.s3a.secret.key', '…')`,
  // Python's `dict.items()`, a Scala tuple: adv20 F08). Or a row's first two columns (a key/value table's `INSERT INTO settings
  // VALUES('smtp_password','…','2024-03-01')` in `sqlite3 .dump`, pg_dump --inserts: adv22 F05).
  { kind: 'secret', keywords: ['pass', 'secret', 'token', 'key', 'cred', 'auth'], sharesNameWords: true, needs: /\([ \t]*["'][\w.:-]+["'][ \t]*,[ \t]*["']/, re: /\([ \t]*(?<q>["'])(?<name>[\w.:-]{1,256})\k<q>[ \t]*,[ \t]*(?<q2>["'])(?<secret>(?:(?!\k<q2>)[^\n\\]|\\.){4,8192})(?=\k<q2>[ \t]*[),])/g, guard: true },
  // GitHub Actions' `::add-mask::value`: the workflow asks for the value to be masked; a raw log (`act`, `gh run view --log` of a step's echo) shows it.
  // The value ends before an echo's closing quote (`echo '::add-mask::…'` in a `set -x` trace): masked with the quote, the value learned
  // would not match its other lines (`+ REF=…` before it: adv18 F34).
  { kind: 'masked ci value', keywords: ['add-mask'], re: /::add-mask::(?<secret>[^\r\n]+?)(?=['"]?[ \t]*\r?$)/gm },
  // .pgpass: hostname:port:database:username:password (port a number or *); after Gemini CLI's `Stdout: ` (adv18 F31), after a
  // diff's mark (`diff -u ~/.pgpass.bak ~/.pgpass`: adv41 F04), after a file's path and `: ` (awk's `FILENAME": "$0`: closing measure 128 F29). Not secretsdump's `user:rid:lm:nt:::` (adv124 F40). Not openssl's hex rows (`    06:58:a7:bd:…`: a modulus, a signature), after a read's line number too (adv26 K06).
  // (A key's fingerprint after a file's name is no row: `salt-key -F`'s `master.pem:  C1:72:18:DE:…`, whose second pair may be digits: adv190 L12.)
  { kind: 'pgpass password', keywords: [':0', ':1', ':2', ':3', ':4', ':5', ':6', ':7', ':8', ':9', ':*'], needs: /:(?:\d{2,5}|\*):[^:\s]+:[^:\s]+:/, re: /^(?![^\n]{0,512}:[0-9a-fA-F]{32}:[0-9a-fA-F]{32}:::)(?![ \t]*(?:[0-9a-fA-F]{2}:){4})(?:[ \t]*\d+(?!\d)[│|:]?[ \t]*)?(?![ \t]*(?:[0-9a-fA-F]{2}:){4})(?:(?:Stdout|Output):[ \t]*|[^\s:]{0,512}[/.][^\s:]{0,512}:[ \t]*)?(?![ \t]*(?:[0-9a-fA-F]{2}:){4})[-+ ]?[A-Za-z0-9.*_-]+:(?:\d{1,5}|\*):[^:\s]+:[^:\s]+:(?<secret>[^\s]+)$/gm },
  // .netrc: machine host login user password secret (one line or several; under grep's `6-` context prefix: adv109 F22); the
  // catch-all entry at a line's start (`default login anonymous password …`, under `cat -n`'s number: adv121 F31). msmtprc's
  // too, whose value is the rest of the line:
  // a Google app password as Google shows it, four groups of four letters (`password abcd efgh ijkl mnop`: adv93). After a line's
  // number (`nl -ba`, `cat -n`, `grep -n`: adv96 F11), or a diff's marker (a dotfiles repo's `-password old` / `+password new`:
  // pass 259 F39); `diff -y`'s left column, a tab run and the right column's marker or a netrc word after it (adv263 G2; the run
  // bounded, a column's width: unbounded, a megabyte of tabs after a value was read from each of its positions).
  { kind: 'netrc password', keywords: ['password'], needs: /password/, re: /^(?:[ \t]*\d+(?!\d)[│|:\t-]?|[-+](?!-)|[<>] )?[ \t]*password[ \t]+(?<secret>[a-z]{4}(?: [a-z]{4}){3}|\S+)(?=[ \t]*$|(?=[ \t]{0,80}\t)[ \t]{1,88}(?:[|<>](?:[ \t]|$)|(?:password|login|machine)[ \t]))|(?:\bmachine\b|^(?:[ \t]*\d+(?!\d)[│|:\t-]?)?[ \t]*default[ \t]).*?[ \t]password[ \t]+(?<secret2>\S+)/gm },
  // …and one upper-cased (`tr a-z A-Z < ~/.netrc`: adv110 F18), its words all capitals on one line.
  { kind: 'netrc password', keywords: ['password'], needs: /\bMACHINE[ \t][^\n]*[ \t]PASSWORD[ \t]/, re: /\bMACHINE[ \t][^\n]{0,1024}?[ \t]PASSWORD[ \t]+(?<secret>\S+)/g },
  // kubeconfig: client-key-data (a base64 PEM key), token:, password:.
  // (Not Adyen's `client-key:` in a Spring application.yml: a client key is public, Drop-in's in the browser: adv169 L2; nor a
  // kubeconfig's `client-key: /path/to/key.pem`, a file's path.)
  { kind: 'kubeconfig credential', keywords: ['client-key', '-token'], needs: /client-key|-token/, re: /(?<![A-Za-z0-9-])(?:client-key-data|client-key|id-token|refresh-token|access-token)["']?[ \t]*:[ \t]*["']?(?!(?:test|live)_[A-Z0-9]{32}(?![\w-])|[~/])(?<secret>[^\s"',]{8,})/g },
  // docker config.json: "auth": "base64(user:password)", identitytoken, registrytoken.
  { kind: 'docker registry auth', keywords: ['"auth"', '"identitytoken"', '"registrytoken"', '"secret"'], needs: /"(?:auth|identitytoken|registrytoken|IdentityToken|Secret)"/, re: /"(?:auth|identitytoken|registrytoken|IdentityToken|Secret)"[ \t]*:[ \t]*"(?<secret>[^"\s]{4,})(?=")/g },
  // Oracle thin JDBC URLs: jdbc:oracle:thin:user/password@//host:1521/SERVICE.
  { kind: 'url password', keywords: ['oracle:thin:'], re: /oracle:thin:[^\s/@:]+\/(?<secret>[^\s@]+)(?=@)/gi },
  // keepalived's VRRP password (`authentication {` then `auth_type PASS` and `auth_pass <pw>`: pass 181 F23), under grep's prefix too.
  { kind: 'password', keywords: ['auth_pass'], re: /(?<![\w-])auth_pass[ \t]+(?<secret>"[^"\n]{1,256}"|[^\s"#]{1,256})/g, guard: true },
  // redis.conf and `CONFIG SET`: requirepass / masterauth / the TLS key's tls-key-file-pass (adv114 F22) with the password after whitespace.
  // (A diff's removed line too, `-requirepass …`: pass 284 F31; not `--requirepass`, the option's rule above.)
  // MONITOR's quoted words too (`"CONFIG" "SET" "masterauth" "…"`: adv29 F24).
  { kind: 'password', keywords: ['requirepass', 'masterauth', 'key-file-pass'], re: /(?:(?<![A-Za-z0-9_-])|(?<=^-))(?:requirepass|masterauth|tls-(?:client-)?key-file-pass)"?[ \t]+(?<secret>"[^"\n]+"|'[^'\n]+'|[^\s"']+)/gim, guard: true },
  // A Postgres PasswordMessage as strace prints the bytes a client writes (`write(3, "p\0\0\0\25<password>\0", 21)`: adv80 F24):
  // `p`, a 4-byte length, the password to its NUL.
  { kind: 'password', keywords: ['"p\\0\\0\\0'], re: /"p\\0\\0\\0(?:\\[0-7]{1,3}|\\[abtnvfr]|[ -~])(?<secret>(?:[^"\\\n]|\\[^0\n]){1,256}?)(?=\\0)/g },
  // `az storage account keys list -o table` (and `az cosmosdb keys list`'s rows): `key1  FULL  <88 base64>` under a Value column
  // (adv83 F35); `-o tsv` too (tabs).
  { kind: 'azure storage account key', keywords: ['key1', 'key2'], needs: /\bkey\d[ \t]+(?:FULL|READ)\b/, re: /\bkey\d[ \t]+(?:FULL|READ)[ \t]+(?<secret>[A-Za-z0-9+/]{40,}={0,2})(?=[ \t]*\r?$)/g },
  // Redis ACL users in redis.conf and users.acl (`user alice on >pw ~* +@all`: adv80 F49; `ACL SETUSER` has its rule above): each
  // `>` word is a password (a `#` word is its SHA-256: kept). Looked back for the line's `user` a bounded way (a line of `>`s).
  // Found by `on >` (the user switched on, then its passwords: how every example writes it) or `pass >` (`resetpass`, `nopass`).
  // After a line's number too (`grep -n ^user users.acl`: adv96 F41).
  // (Or after any of ACL's other rules: `user app on sanitize-payload >pw`, `allkeys >`, `~* >`, `+@all >`: pass 331 F6.)
  { kind: 'password', keywords: ['on >', 'pass >', 'payload >', 'channels >', 'keys >', 'commands >', '* >', 'all >', 'reset >'], needs: /^(?:[ \t]*\d+(?!\d)[│|:\t]?)?[ \t]*user[ \t]/, re: />(?<=^(?:[ \t]*\d+(?!\d)[│|:\t]?)?[ \t]*user[ \t][^\n]{0,256}?[ \t]>)(?<secret>[^\s>]{1,1024})/gm },
  // Vault's table output (`vault login`, `vault write auth/approle/…/secret-id`): the credential rows, value after 2+ spaces.
  { kind: 'token', keywords: ['token ', 'secret_id ', 'client_token ', 'wrapping_token '], re: /^(?:token|secret_id|client_token|wrapping_token)[ \t]{2,}(?<secret>\S+)[ \t]*$/gm, guard: true },
  // Tools that print a generated credential as a labelled line (adv3 M11, M12, M15): nomad's `Secret ID    = <uuid>` (`acl bootstrap`, `acl token create`; a
  // space in the label, so no key=value name), vault's `Unseal Key 1: …` / `Recovery Key 1: …` (`operator init`), elasticsearch's `New value: …`
  // (`elasticsearch-reset-password`; a letter and a digit and 8+ characters, or both cases and 16+ (its generator draws from
  // `[A-Za-z0-9*_+=-]`: one in twenty has no digit, pass 185 F15), so `New value: enabled` and `New value: 30` stay) and
  // `PASSWORD elastic = …` (`elasticsearch-setup-passwords auto`).
  { kind: 'token', keywords: ['secret'], sharesNameWords: true, needs: /Secret ID/, re: /^[ \t]*Secret ID[ \t]*=[ \t]*(?<secret>\S+)(?=[ \t]*\r?$)/gm, guard: true },
  { kind: 'vault unseal key', keywords: ['key'], sharesNameWords: true, needs: /(?:Unseal|Recovery) Key \d/, re: /(?:Unseal|Recovery) Key \d+:[ \t]*(?<secret>\S+)/g, guard: true },
  { kind: 'password', keywords: ['new value:'], re: /^New value:[ \t]*(?<secret>(?=\S*\d)(?=\S*[A-Za-z])\S{8,}|(?=\S*[a-z])(?=\S*[A-Z])\S{16,})(?=[ \t]*\r?$)/gm, guard: true },
  { kind: 'password', keywords: ['pass'], sharesNameWords: true, needs: /^PASSWORD [\w-]+ = /m, re: /^PASSWORD [\w-]+ = (?<secret>\S+)/gm, guard: true },
  // Wi-Fi keys (M18): wpa_supplicant.conf `psk="…"` (or 64 hex), NetworkManager's `802-11-wireless-security.psk:` (`nmcli -s connection show`),
  // ifupdown's `wpa-psk …`. `key_mgmt=WPA-PSK` and `psk-flags: 0` are no value.
  { kind: 'wi-fi key', keywords: ['psk'], needs: /psk[ \t]*[=:]|wpa-psk[ \t]/i, re: /(?<![A-Za-z0-9_])(?:(?:[\w-]+\.)?psk[ \t]*[=:]|wpa-psk[ \t])[ \t]*(?<secret>"[^"\n]+"|[^\s"]{8,})/gi, guard: true },
  // strongSwan's ipsec.secrets (adv4 M18): `[ids] : PSK "…"` (also `EAP`, `XAUTH`, `NTLM` secrets after the same ` : TYPE `; found from `psk` only,
  // the word the Wi-Fi rule already has: no new automaton states). `: RSA key.pem` names a file.
  { kind: 'ipsec secret', keywords: ['psk', ': eap', ': xauth'], needs: /:[ \t]*(?:PSK|EAP|XAUTH)[ \t]/, re: /(?:^|[ \t]):[ \t]*(?:PSK|EAP|XAUTH)[ \t]+(?<secret>"[^"\n]+"|'[^'\n]+'|0[xs][^\s]+|[^\s"'#]+)/gm, guard: true },
  // FileZilla's sitemanager.xml / recentservers.xml (M23): `<Pass encoding="base64">…</Pass>` (base64 of the password) or `<Pass>…</Pass>`.
  { kind: 'password', keywords: ['pass'], sharesNameWords: true, needs: /<Pass[ >]/, re: /<Pass(?:[ \t]+encoding="[^"]*")?>(?<secret>[^<\s]+)(?=<\/Pass>)/g, guard: true },
  // Java servers' and daemons' credentials files under grep's prefix with the file's name (`grep -r Role conf/`, `grep -rn . etc/`:
  // `conf/jmxremote.password:monitorRole  <pw>`, `…/users.properties:12:admin=<pw>, admin`, `/etc/rsyncd.secrets:backup:<pw>`;
  // session 34's own attack): each row's password, as a printer of the file reads it (secret-printers.ts CREDENTIAL_ROW_FILES)
  // when the file is named on the command line. A comment row (`#`, `!`) is none.
  { kind: 'password', keywords: ['jmxremote.password', 'users.properties', 'realm.properties', 'rsyncd.secrets', 'sasl_passwd'], needs: /(?:jmxremote\.password|(?:users|realm)\.properties|rsyncd\.secrets|sasl_passwd)[:-]/, re: /^(?:[^\s:]{0,256}\/)?(?:jmxremote\.password[:-](?:\d{1,9}[:-])?[ \t]*[^\s#]\S{0,255}[ \t]+|(?:[\w.]{1,64}-)?(?:users|realm)\.properties[:-](?:\d{1,9}[:-])?[ \t]*[^\s=:#!]{1,255}[ \t]*[=:][ \t]*|rsyncd\.secrets[:-](?:\d{1,9}[:-])?[ \t]*[^\s:#]{1,255}:|sasl_passwd[:-](?:\d{1,9}[:-])?[ \t]*[^\s#]\S{0,255}[ \t]+[^\s:]{0,255}:)(?<secret>[^\s,]{1,1024})/gm },
  // LDIF (M19): `userPassword:: <base64>` (`::` marks base64, which the key=value search does not take), `unicodePwd::`, samba hashes, `olcRootPW:`.
  { kind: 'ldap password', keywords: ['pass', 'pwd', 'rootpw:', 'rootpw::'], sharesNameWords: true, needs: /^(?:[^\s:]{1,256}:(?:\d{1,9}:)?|\d{1,9}:)?(?:userPassword|unicodePwd|samba(?:NT|LM)Password|olcRootPW)::?/im, re: /^(?:[^\s:]{1,256}:(?:\d{1,9}:)?|\d{1,9}:)?(?:userPassword|unicodePwd|samba(?:NT|LM)Password|olcRootPW)::?[ \t]*(?<secret>\S+)/gim, guard: true },
  // LiveKit's API key and secret as its server reads them (`--keys "APIub7TQruOYzyI: <secret>"`, `LIVEKIT_KEYS`, a keys file, or
  // decoded from a Kubernetes Secret, a JSON map's `"APIxxxx": "…"`): the key `API` and 12 letters and digits, then the secret of
  // both cases (pass 268 F4, F40; a CloudFormation output's `APIDeploymentId: <hex>` is none: adv272 L13).
  { kind: 'livekit api secret', keywords: ['api'], needs: /API[A-Za-z0-9]{12}["']?:/, re: /(?<![\w-])API[A-Za-z0-9]{12}["']?:[ \t]*["']?(?<secret>(?=[A-Za-z0-9]{0,63}[A-Z])(?=[A-Za-z0-9]{0,63}[a-z])[A-Za-z0-9]{32,64})(?![A-Za-z0-9])/g },
  // Agora's App Certificate (32 hex digits beside its App ID: a token builder's printout `App Certificate: <hex>`, `AGORA_APP_CERT=`:
  // pass 268 F22); a certificate's name elsewhere is a public one's.
  { kind: 'agora app certificate', keywords: ['app certificate', 'app_certificate', 'appcertificate', 'app-certificate', 'app_cert'], re: /(?<![A-Za-z])app[ _-]?cert(?:ificate)?["']?[ \t]*[:=][ \t]*["']?(?<secret>[0-9a-f]{32})(?![0-9a-fA-F])/gi },
  // hCaptcha's secret key has an Ethereum address' shape (`0x` and 40 hex digits, a look-alike under other names): under its
  // name, in an env file, JSON or a padded table (`HCAPTCHA_SECRET   0x…` of awk: pass 266 F23).
  { kind: 'hcaptcha secret', keywords: ['hcaptcha'], re: /\bhcaptcha[\w.-]{0,32}?secret[\w-]{0,16}["']?(?:[ \t]*[:=][ \t]*|[ \t]{2,})["']?(?<secret>0x[0-9a-fA-F]{40})(?![0-9a-fA-F])/gi },
  // A Selenium IDE test's commands as rows (`jq -r '… | [.command, .target, .value] | @tsv' test.side`: pass 266 F32): what `type`
  // enters in a field whose locator names a password.
  { kind: 'password', keywords: ['type\t'], needs: /^type\t/m, re: /^type\t(?:id|name|css|xpath|linkText)=[^\t\n]{0,256}?(?:pass(?:word|wd)?|pwd)[^\t\n]{0,256}\t(?<secret>[^\t\n]{1,256}?)[ \t]*\r?$/gim },
  // Hasura's JWT secret, a JSON object as an environment variable's value (`HASURA_GRAPHQL_JWT_SECRET={"type":"HS512","key":"…",
  // "claims_namespace":…}` in a `.env` or its diff, its quotes escaped in `docker inspect`: pass 271 F24): its `key`.
  { kind: 'jwt secret', keywords: ['jwt_secret'], re: /JWT_SECRET["']?[ \t]*[=:][ \t]*['"]?\{[^\n{}]{0,512}?\\?"key\\?"[ \t]*:[ \t]*\\?"(?<secret>(?!-----BEGIN)[^"\\\n]{8,4096})/gi },
  // A self-hosted Convex backend's admin key (`generate_admin_key.sh`: `<instance name>|01<hex>`, alone on its line: pass 271 F34);
  // not a digest's length (sqlite3's `name|<sha512>` row that starts `01`: adv272 L10).
  { kind: 'convex admin key', keywords: ['|01'], re: /(?<![\w|-])[a-z][a-z0-9_-]{0,63}\|(?<secret>01(?![0-9a-f]{62}(?:[0-9a-f]{32}|[0-9a-f]{64})?(?![0-9a-f]))[0-9a-f]{78,510})(?![0-9a-f])/g },
  // mosh-server's answer (`MOSH CONNECT <port> <key>`: the session's AES key, base64 of 16 bytes: pass 270 F32).
  { kind: 'mosh session key', keywords: ['mosh connect '], re: /\bMOSH CONNECT \d{1,5} (?<secret>[A-Za-z0-9+/]{22})(?![A-Za-z0-9+/])/g },
  // JetBrains Code With Me / Gateway join links (`#jt=<uuid>&p=IU&fp=…`: the join token, pass 270 F34); an analytics `&jt=<uuid>`
  // with no product code after it is none (adv272 L11).
  { kind: 'join token', keywords: ['jt='], re: /(?:#|&|\\u0026)jt=(?<secret>[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})(?=(?:&|\\u0026)p=)/g },
  // A Bambu Lab printer's LAN access code (8 digits: the password of its MQTT and FTPS in LAN mode) under its names (`"access_code":
  // "…"` of Home Assistant's entry, node's `accessCode: '…'`, `dev_access_code`: pass 293 F19, F37); digits alone are a count elsewhere.
  { kind: 'access code', keywords: ['access_code', 'accesscode'], re: /(?<![A-Za-z])(?:(?:dev_|lan_|user_)?access_code|accessCode)["']?[ \t]*[:=][ \t]*["']?(?<secret>\d{8})(?![\w.-])/gi },
  // ArcGIS' Python API signed in by position (`GIS(url, "user", "<password>")`: pass 292 F10), and arcpy's database connection
  // (`…, "DATABASE_AUTH", "sde", "<password>", …`).
  // (In a notebook's JSON its quotes are escaped, `GIS(\"…\", \"user\", \"pw\")`; arcpy's `DATABASE_USER` and the geodatabase
  // admin's `"SDE_SCHEMA", "sde", "<pw>"` too: adv301 F14-F16.)
  { kind: 'password', keywords: ['gis(', 'database_auth', 'database_user', 'sde_schema'], re: /(?:\bGIS\([ \t]*[^,()\n]{1,256},|\\?["'](?:DATABASE_AUTH|DATABASE_USER|SDE_SCHEMA)\\?["'][ \t]*,)[ \t]*(?<u>\\?["'])[^"'\\\n]{1,128}\k<u>[ \t]*,[ \t]*(?<q>\\?["'])(?<secret>[^"'\\\n]{1,256})\k<q>/g },
  // EMQX's bootstrap API keys (`default_api_key.conf`: `<key id>:<secret>:<role>` a line each: pass 295 F17): the secret.
  { kind: 'api secret', keywords: [':administrator', ':viewer', ':publisher'], re: /^[ \t]*[\w-]{1,64}:(?<secret>[A-Za-z0-9]{16,128}):(?:administrator|viewer|publisher)[ \t]*\r?$/gm },
  // Zendesk's API token after its `<email>/token` user (an ActiveJob's arguments, `"agent@x.io/token", "<40>"`; basic auth's
  // `<email>/token:<40>`: pass 296 F16).
  { kind: 'zendesk api token', keywords: ['/token", "', '/token\\",\\"', '/token:'], re: /[\w.+-]{1,64}@[\w.-]{1,253}\/token(?:\\?"[ \t]*,[ \t]*\\?"|:)(?<secret>[A-Za-z0-9]{40})(?![A-Za-z0-9])/g },
  // Freshdesk's (and others') API key as curl's user with a dummy password (`curl -u "<key>:X"`: pass 296 F17).
  // (`:x` in lower case too, at a line's end; python-requests' `auth=("<key>", "X")`: adv301 F39-F41.)
  { kind: 'api key', keywords: [':x', ', "x")', ", 'x')"], re: /(?:(?<![\w-])-u|--user)[ \t=]*(?<q>["']?)(?<secret>(?=[A-Za-z0-9]{0,63}\d)(?=[A-Za-z0-9]{0,63}[A-Za-z])[A-Za-z0-9]{16,64}):[xX]\k<q>(?![^\s"'])|\bauth[ \t]*=[ \t]*\([ \t]*(?<q2>["'])(?<secret2>(?=[A-Za-z0-9]{0,63}\d)(?=[A-Za-z0-9]{0,63}[A-Za-z])[A-Za-z0-9]{16,64})\k<q2>[ \t]*,[ \t]*["'][xX]["'][ \t]*\)/g },
  // Phrase's OTA SDK set up by position (`Phrase.setup(this, "<distribution id>", "<environment secret>")`: pass 296 F9).
  // (Flutter's without a context, Java's `getApplicationContext()`, the id from a constant: adv301 F34-F36.)
  { kind: 'phrase ota secret', keywords: ['phrase.setup('], re: /\bPhrase\.setup\([ \t]*(?:[\w.]{1,64}(?:\(\))?[ \t]*,[ \t]*)?(?:"[0-9a-f]{32}"|[A-Za-z_][\w.]{0,64})[ \t]*,[ \t]*"(?<secret>[A-Za-z0-9_-]{32,64})"/g },
  // A WS-Security password cut out by `grep -o '<wsse:Password>[^<]*'` (no closing tag: pass 297 F44); not a digest's.
  { kind: 'password', keywords: ['password>'], re: /<(?:[\w-]{1,32}:)?Password(?![^>\n]{0,256}PasswordDigest)(?:[ \t][^>\n]{0,256})?>(?<secret>[^<\s]{1,256})[ \t]*\r?$/gm },
  // Sabre's session token (`Shared/IDL:IceSess\/SessMgr:1\.0.IDL/Common/!ICESMS\/…!<digits>!<digits>!0`, a SessionCreate's
  // BinarySecurityToken: pass 297 F44).
  // (PHP's json_encode escapes its slashes, `Shared\/IDL:IceSess\\\/…`: adv301 F50.)
  { kind: 'sabre session token', keywords: ['shared/idl:icesess', 'shared\\/idl:icesess'], re: /(?<secret>Shared\\?\/IDL:IceSess[^\s<"']{16,1024})/g },
  // Vault's unseal and recovery keys (`vault operator init`: `Unseal Key 1: <base64 of 32 bytes>`; a dev server's log `Unseal Key:`,
  // under compose's prefix: pass 300 F38), base64 or hex.
  // (`vault operator rekey` prints `Key 1: …`: adv301 F57; shares encrypted to PGP keys are hundreds of characters: kept, L13.)
  { kind: 'vault unseal key', keywords: ['unseal key', 'recovery key', 'key 1:', 'key 2:', 'key 3:', 'key 4:', 'key 5:'], re: /(?<![\w-])(?:(?:Unseal|Recovery) )?Key(?: \d{1,2})?:[ \t]*(?<secret>[A-Za-z0-9+/]{43}=|[A-Za-z0-9+/]{44}(?:[A-Za-z0-9+/]{4}){0,4}={0,2}|[0-9a-f]{64,66})(?![A-Za-z0-9+/=])/g },
  // CiviCRM's keys in civicrm.settings.php (`define( 'CIVICRM_SITE_KEY', '…')`, `CIVICRM_CRED_KEYS` / `CIVICRM_SIGN_KEYS` with their
  // `aes-cbc:hkdf-sha256:` scheme: pass 299 F1); a site key's name is a captcha's elsewhere.
  { kind: 'civicrm key', keywords: ['civicrm_site_key', 'civicrm_cred_keys', 'civicrm_sign_keys'], // (Two keys in rotation, space-separated; php-fpm's `env[CIVICRM_SITE_KEY] = …`; not the shipped template's `%%credKeys%%`: adv301
  // F60, F61, L7.)
  re: /\bCIVICRM_(?:SITE_KEY|CRED_KEYS|SIGN_KEYS)(?<q>['"]?)\]?[ \t]*(?:,|=>?)[ \t]*(?<r>['"]?)(?<secret>(?!\$|getenv|env\(|%%)[^'"\s,;)]{12,1024})(?:[ \t]+(?<secret2>(?!%%)[^'"\s,;)]{12,1024}))?\k<r>/g },
  // An OCPP 2.0.1 SetVariables entry (`{"attributeValue":"…","component":{…},"variable":{"name":"BasicAuthPassword"}}` in a CSMS's
  // JSON log line, the name after the value or before it: pass 298 F30): a charger's password or authorization key.
  { kind: 'password', keywords: ['attributevalue'], re: /"attributeValue"[ \t]*:[ \t]*"(?<secret>[^"\\\n]{1,256})"(?=(?:[^\n{}]{0,256}\{[^\n{}]{0,256}\}){0,2}[^\n{}]{0,256}"variable"[ \t]*:[ \t]*\{[ \t]*"name"[ \t]*:[ \t]*"(?:BasicAuthPassword|AuthorizationKey|[A-Za-z0-9]{0,48}Password)")|"variable"[ \t]*:[ \t]*\{[ \t]*"name"[ \t]*:[ \t]*"(?:BasicAuthPassword|AuthorizationKey|[A-Za-z0-9]{0,48}Password)"[ \t]*\}[ \t]*,(?:[^\n{}]{0,256}\{[^\n{}]{0,256}\}){0,2}[^\n{}]{0,256}"attributeValue"[ \t]*:[ \t]*"(?<secret2>[^"\\\n]{1,256})"/g },
  // ChargePoint's web services take the API key as WS-Security's user (`<wsse:Username><40 hex></wsse:Username>`: pass 298 F22);
  // a person's user name is no run of hex.
  // (40 hex, ChargePoint's: a SHA-256 pseudonym's 64 is none, adv301 L10; upper-case, or cut by grep -o: F48, F49.)
  { kind: 'api key', keywords: ['username>'], re: /<(?:[\w-]{1,32}:)?Username>(?<secret>[0-9a-fA-F]{40})(?:<\/|[ \t]*\r?$)/gm },
  // OCPP 1.6's configuration keys (`{"key":"AuthorizationKey","value":"…"}` of ChangeConfiguration, GetConfiguration's with
  // `"readonly"` between: adv301 F54).
  { kind: 'password', keywords: ['"authorizationkey"', '"basicauthpassword"'], re: /"key"[ \t]*:[ \t]*"(?:AuthorizationKey|BasicAuthPassword)"[ \t]*,[ \t]*(?:"readonly"[ \t]*:[ \t]*\w{1,5}[ \t]*,[ \t]*)?"value"[ \t]*:[ \t]*"(?<secret>[^"\\\n]{1,256})"/g },
  // Mintlify's API keys (`mint_` admin, `mint_dsc_` assistant: letters and digits of both cases, bare in a `column -t` table of
  // integrations: pass 296 F39); a Solana program's `mint_authority` is words, and a Solidity function's name is followed by its
  // `(` (`mint_BatchWithPermit2SignatureAndFee(`: adv301 L12). A context rule, not a vendor one: that `(` is past a token's run.
  { kind: 'mintlify api key', keywords: ['mint_'], re: /(?<![A-Za-z0-9_+/-])(?<secret>mint_(?:dsc_)?(?=[A-Za-z0-9]{0,39}\d)(?=[A-Za-z0-9]{0,39}[a-z])(?=[A-Za-z0-9]{0,39}[A-Z])[A-Za-z0-9]{24,40})(?![A-Za-z0-9_+/-])(?![ \t]*\()/g },
  // CiviCRM's second key in rotation (`'aes-cbc:hkdf-sha256:<new> aes-cbc:hkdf-sha256:<old>'`: adv301 F60).
  { kind: 'civicrm key', keywords: ['civicrm_cred_keys', 'civicrm_sign_keys'], re: /\bCIVICRM_(?:CRED|SIGN)_KEYS['"]?\]?[ \t]*(?:,|=>?)[ \t]*['"]?[^'"\s,;)]{12,1024}[ \t]+(?<secret>(?!%%)[^'"\s,;)]{12,1024})/g },
  // Authorize.Net's transaction key (16 letters and digits: `<add key="AuthNetTransactionKey" value="…"/>`, its API's
  // `"transactionKey": "…"`: pass 302 F26); not EBICS' `<TransactionKey>`, a bank's key encrypted to the customer (long base64).
  { kind: 'authorize.net transaction key', keywords: ['transactionkey', 'transaction_key'], re: /transaction[_.-]?key\\?["']?(?:[ \t]*[:=][ \t]*|["'][ \t]+value=|>)\\?["']?(?<secret>[A-Za-z0-9]{16})(?![A-Za-z0-9+/=])/gi },
  // UPS' access licence number (16 upper-case hex: its legacy XML and JSON requests' credential beside the user: pass 303 F7).
  { kind: 'ups access license', keywords: ['accesslicensenumber'], re: /AccessLicenseNumber(?:>|\\?"?[ \t]*[:=][ \t]*\\?")(?<secret>[0-9A-F]{16})(?![0-9A-Za-z])/g },
  // USPS Web Tools' USERID (the account's credential: `ShippingAPI.dll?API=Verify&XML=<AddressValidateRequest USERID="…">`, often
  // percent-encoded in a log: pass 303 F9).
  { kind: 'usps userid', keywords: ['userid'], needs: /ShippingAPI\.dll|Request(?:%20|[ \t])USERID/i, re: /(?:%20|[ \t])USERID(?:%3D|=)(?:%22|")(?<secret>[0-9A-Z]{8,20})(?:%22|")/gi },
  // An X12 interchange's ISA header: ISA02 under qualifier `03` (authorization information) and ISA04 under `01` (the security
  // password), fixed-width fields of 10 (pass 303 F10).
  { kind: 'edi password', keywords: ['isa*', 'isa|'], re: /(?:^|~[ \t]*)ISA(?<s>[*|])03\k<s>(?<secret>[^*|\s][^*|\n]{0,9}?)[ ]*\k<s>/gm },
  { kind: 'edi password', keywords: ['isa*', 'isa|'], re: /(?:^|~[ \t]*)ISA(?<s>[*|])\d\d\k<s>[^*|\n]{10}\k<s>01\k<s>(?<secret>[^*|\s][^*|\n]{0,9}?)[ ]*\k<s>/gm },
  // SRA toolkit's dbGaP download ticket (`/repository/user/protected/dbGaP-<n>/download-ticket = "<UUID>"` in user-settings.mkfg:
  // pass 304 F14).
  { kind: 'dbgap download ticket', keywords: ['download-ticket'], re: /\/download-ticket[ \t]*=[ \t]*"(?<secret>[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})"/g },
  // An API's session token under `sessionId` (Bill.com's `"sessionId":"!AR…"`, Salesforce's `00D…!AQ…`; its form bodies'
  // `sessionId=…&devKey=`: pass 306 F13; Python's quotes, XML, a log's `[sessionId=…]`: adv308 I1–I5): minted, 40 characters
  // and more, all three kinds. A transcript's or a trace's
  // `"sessionId": "<uuid>"` is an identifier (isSecretName's exception: pass 285) and stays, as does any hex; so do the ids a
  // browser is given (Stripe Checkout's `cs_live_…`, OpenTok's `1_MX…`/`2_MX…` room: adv308 L5, L6).
  { kind: 'session token', keywords: ['"sessionid"', "'sessionid'", '<sessionid>', 'sessionid='], re: /(?:(?<q>["'])[Ss]essionId\k<q>[ \t]*:[ \t]*["']|<sessionId>|(?:^|[?&\s=[(])sessionId=)(?<secret>(?!cs_(?:live|test)_|[12]_MX)(?=[^"'&\s<\]]{0,255}[A-Z])(?=[^"'&\s<\]]{0,255}[a-z])(?=[^"'&\s<\]]{0,255}\d)[A-Za-z0-9!._~+/=-]{40,256})(?=["'&\s<\])]|$)/gm },
  // A query string quoted alone, no `?` before it: nginx-rtmp's access log writes a publish's `$args` so (`PUBLISH "live"
  // "studio" "key=<stream key>"`: pass 305 F6). A minted value, 12 characters and up, both cases and a digit, no `:` (a taint's
  // `"key=value:NoSchedule"`, kafka's `"auth=SCRAM-SHA-512"` stay: adv308 L12).
  { kind: (m) => `${m.groups!.param.toLowerCase()} in url`, keywords: ['"key=', '"token=', '"sig=', '"secret=', '"auth=', '"api_key=', '"apikey=', "'key=", "'token=", "'secret="], re: /(?<q>["'])(?<param>key|token|sig|secret|auth|api_key|apikey)=(?<secret>(?=[^\s&"']{0,255}\d)(?=[^\s&"']{0,255}[a-z])(?=[^\s&"']{0,255}[A-Z])[A-Za-z0-9_.~+/=-]{12,256})(?=\k<q>|&)/g, guard: true },
  // Testing clouds' tunnels given their key on the command line (`ps`, a `bash -x` trace: pass 309 F6, F7): BrowserStackLocal's
  // and LambdaTest's `--key`/`-k`, Sauce Connect's `sc … -k <access key>` / `--access-key`.
  { kind: 'access key', keywords: ['browserstacklocal', 'lambdatest', '/lt ', 'lt --', 'sc -u', 'sc -k', '/sc ', 'sc run'], re: /(?:\bBrowserStackLocal|\bLT|\blambdatest-tunnel|(?:^|[\s/])sc(?:[ \t]+run)?)(?=[ \t])[^\n]{0,512}?[ \t](?:--key|-k|--access-key|--api-key)(?:[ \t]+|=)(?<secret>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[A-Za-z0-9]{16,64})(?![\w-])/gm },
  // Plastic SCM's stored password (`<SecurityConfig>::0:<user>:|SoC|<base64>:` of client.conf, `|SoC|` its reversible
  // encryption's mark: pass 310 F5).
  { kind: 'plastic scm password', keywords: ['|soc|'], re: /\|SoC\|(?<secret>[A-Za-z0-9+/]{16,512}={0,2})/g },
  // A header printed by Ruby's or PHP's inspect (`"Authorization"=>"OAuth y0_…"`, print_r's `[Authorization] => Bearer …`: adv308 H3,
  // H4): a scheme, then the credential (code building one, `'Bearer ' . $token`, has a quote after the scheme).
  { kind: 'authorization header', keywords: ['authorization'], needs: /authorization["'\]]?[ \t]*=>/i, re: /(?<![\w-])(?:Proxy-|X-(?:[A-Za-z0-9]{1,32}-){1,3})?Authorization["'\]]?[ \t]*=>[ \t]*["']?(?:Bearer|Basic|Token|OAuth|Bot|GenieKey|Splunk|SSWS|Key|Api-Key)[ \t]+(?<secret>[A-Za-z0-9._~+/=-]{8,4096})/gi },
  // JSignPdf's keystore and key passwords (`java -jar JSignPdf.jar -kst PKCS12 -ksf x.p12 -ksp '…' -ka alias`: pass 312 F24).
  { kind: 'password on command line', keywords: ['jsignpdf'], re: /\bJSignPdf\b[^\n]{0,1024}?[ \t](?:-ksp|-kp|--keystore-password|--key-password)[ \t]+(?<q>['"]?)(?<secret>(?!-)[^\s'"]{4,256})\k<q>/gi },
  // An OAuth authorization code beside its grant's type (requests_oauthlib's DEBUG `Supplying headers … and data {'grant_type':
  // 'authorization_code', 'code': '…', …}`: pass 314 F03; a token request's JSON or form body): exchanged for tokens until used.
  // (Ruby's `"code"=>"…"`, parse_qs' `'code': ['…']`, Go's `code:[…]`, a quoted `-d "code=…"` too; minted only, a letter and a digit:
  // an error's `code=invalid_grant`, axios' `"code":"ERR_BAD_REQUEST"`, source's `code=request.args["code"]` stay: adv320 L4-L6.)
  { kind: 'oauth authorization code', keywords: ['authorization_code'], re: /(?:(?<q>["'])code\k<q>[ \t]*(?::|=>)[ \t]*\[?[ \t]*["']|(?:^|[\s{(,[])code:\[|(?:^|[?&\s{(,"'])code=)(?<secret>(?!authorization_code\b)(?![A-Z][A-Z0-9_]*\b)(?=[A-Za-z0-9._~+/%!*-]{0,1023}\d)(?=[A-Za-z0-9._~+/%!*-]{0,1023}[A-Za-z])[A-Za-z0-9._~+/%!*-]{8,1024})(?![\w\[(])/g },
  // Tyler's EFM (court e-filing) session credential: `AuthenticateUser` answers a `<PasswordHash>` that is a UUID, sent back in every
  // later call's header (pass 314 F32). A hash is never a UUID's shape, so only that shape is taken.
  // (A namespace's prefix, XML escaped in a log, a dict's `'PasswordHash': '…'`: adv320 E1-E3; node's inspect, the name unquoted:
  // `{ UserID: '…', PasswordHash: '…' }`, attack 323; Lombok's `toString`, `passwordHash=<uuid>`, and YAML's unquoted value: adv333
  // S17, S18.)
  { kind: 'session token', keywords: ['passwordhash'], needs: /PasswordHash(?:>|&gt;|["']?[ \t]*[:=])/i, re: /(?:<(?:\w{1,32}:)?PasswordHash>|&lt;(?:\w{1,32}:)?PasswordHash&gt;|(?:(?<q>["'])PasswordHash\k<q>|(?<![\w$.])[Pp]asswordHash)[ \t]*[:=][ \t]*["']?)(?<secret>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?![\w-])/gi },
  // A Jenkins agent's secret, the first argument of its JNLP file's `<application-desc>` (`…/jenkins-agent.jnlp` fetched by curl:
  // pass 319 F18), or after `-secret` in the newer layout: 64 hex.
  { kind: 'jenkins agent secret', keywords: ['<application-desc', '<argument>-secret</argument>'], re: /(?:<application-desc\b[^>]{0,256}>\s{0,64}|<argument>-secret<\/argument>\s{0,64})<argument>(?<secret>[0-9a-f]{64})<\/argument>/g },
  // Bybit's websocket login (`{"op": "auth", "args": ["<api key>", <expires>, "<signature>"]}`: pass 317 F21, by position): the key,
  // first of the arguments (the signature is one request's HMAC, kept as other signatures are).
  // (Python's repr of it, BitMEX's `authKeyExpires`, the keys sorted with `args` first: adv333 S8, S10, S11; Phemex's `user.auth`
  // whose key is the second of its `params`, after `"API"`: S12.)
  { kind: 'api key', keywords: ["auth'", 'auth"', 'authkeyexpires'], needs: /["']op["'][ \t]*:[ \t]*["'](?:auth|authKeyExpires)["']/, re: /["']op["'][ \t]*:[ \t]*["'](?:auth|authKeyExpires)["'][ \t]*,[ \t]*["']args["'][ \t]*:[ \t]*\[[ \t]*["'](?<secret>[A-Za-z0-9]{16,64})["']|["']args["'][ \t]*:[ \t]*\[[ \t]*["'](?<secret2>[A-Za-z0-9]{16,64})["'](?=[^\]\n]{0,256}\][ \t]*,[ \t]*["']op["'][ \t]*:[ \t]*["'](?:auth|authKeyExpires)["'])/g },
  { kind: 'api key', keywords: ['user.auth'], needs: /["']method["'][ \t]*:[ \t]*["']user\.auth["']/, re: /["']method["'][ \t]*:[ \t]*["']user\.auth["'][ \t]*,[ \t]*["']params["'][ \t]*:[ \t]*\[[ \t]*["']API["'][ \t]*,[ \t]*["'](?<secret>[\w-]{16,64})["']/g },
  // A Terraform `random_password`'s result in its attributes dumped on one line (`json.dumps(r['instances'][0]['attributes'])` of a
  // state: session 50's stop-time check 334 S24), known by its generator's settings beside it.
  { kind: 'password', keywords: ['"override_special"', '"min_numeric"'], needs: /"result"[ \t]*:/, re: /"result"[ \t]*:[ \t]*"(?<secret>(?:[^"\\\n]|\\.){4,512})"(?=[^\n]{0,2048}?"(?:override_special|min_numeric)"|(?<="(?:override_special|min_numeric)"[^\n]{0,2048}?"result"[ \t]*:[ \t]*"(?:[^"\\\n]|\\.){4,512}"))/g },
  // Grafana OnCall's integration URL (`https://oncall-prod-….grafana.net/oncall/integrations/v1/alertmanager/<token>/`, in an API
  // answer's `link`: pass 324 F45): the token after the integration's type is all an alert source posts with. A digit in it (another
  // API's `/api/integrations/v1/hubspot/ContactPropertyMappings/` is a resource's name: adv333 L4).
  { kind: 'grafana oncall integration token', keywords: ['/integrations/v1/'], re: /\/integrations\/v1\/[a-z][a-z0-9_]{1,40}\/(?<secret>(?=[A-Za-z0-9]{0,63}[a-z])(?=[A-Za-z0-9]{0,63}[A-Z])(?=[A-Za-z0-9]{0,63}\d)[A-Za-z0-9]{16,64})(?=\/|[\s"'<>]|$)/g },
  // Gemfury's token as a URL's user (`https://<token>@git.fury.io/…` of `git remote -v`, `https://<token>@npm.fury.io/…`: pass 313
  // F32): letters alone sometimes, where URL_CREDENTIALS asks a digit of a user it takes for a token.
  // Minted only (both cases, 20 letters and digits): Gemfury's documented `https://<username>@git.fury.io/<username>/…` has the
  // account's name there (adv320 L9), one built of words too (`NorthwindTradersApps`, `acmeWidgetsPlatformTeam`,
  // `NorthwindTraders2024Apps`: attack 323, adv333 L5). Or the token as the path's first
  // segment (`https://pypi.fury.io/<token>/acme/`: G1, G6).
  { kind: 'gemfury token', keywords: ['fury.io'], re: /:\/\/(?:(?<secret>(?=[A-Za-z0-9]{0,63}[a-z])(?=[A-Za-z0-9]{0,63}[A-Z])(?!(?:[A-Z]?[a-z]{2,}|\d{2,4}){2,}(?![A-Za-z0-9]))[A-Za-z0-9]{20,64})(?=(?::[^\s@/]{0,256})?@(?:[\w-]+\.)?fury\.io\b)|(?:pypi|npm|gem|push|repo|maven|nuget|deb|yum|go|apt)\.fury\.io\/(?<secret2>(?=[A-Za-z0-9]{0,63}[a-z])(?=[A-Za-z0-9]{0,63}[A-Z])(?=[A-Za-z0-9]{0,63}\d)[A-Za-z0-9]{20,64})(?=\/))/g },
  // pyzotero's client by position: `zotero.Zotero(library_id, 'group', '<24 letters and digits>')`, its third argument the API key
  // (pass 276 F12: a script's line found by grep, no name beside the key).
  { kind: 'zotero api key', keywords: ['zotero('], re: /\b(?:zotero\.)?Zotero\([ \t]*[^,()\n]{1,128},[ \t]*(?:(?<t>['"])(?:user|group)\k<t>|[\w.]{1,64})[ \t]*,[ \t]*(?<q>['"])(?<secret>[A-Za-z0-9]{24})\k<q>/g },
  // SDK clients given their key by position (`cohere.Client('<40>')` in a notebook's source, `wandb.login('<40 hex>')`,
  // `comet_ml.Experiment('<25>', …)`, `MistralClient('<32>')`: pass 279 F22): the first argument, no name beside it.
  { kind: 'api key', keywords: ['cohere.client', 'cohere.asyncclient', 'wandb.login(', 'comet_ml.experiment(', 'mistralclient('], re: /\b(?:cohere\.(?:Async)?Client(?:V2)?|wandb\.login|comet_ml\.Experiment|MistralClient)\([ \t]*\\?(?<q>['"])(?<secret>[A-Za-z0-9_-]{20,128})\\?\k<q>/g },
  // A Philips Hue bridge's user name in its API's path (`GET /api/<40>/lights/1` in curl -v and an access log: pass 278 F34).
  { kind: 'hue api key', keywords: ['/api/'], needs: /\/api\/[A-Za-z0-9-]{40}(?:\/|[ \t?]|$)/m, re: /\/api\/(?:(?<secret>[A-Za-z0-9-]{40})\/(?=(?:lights|groups|config|sensors|scenes|rules|schedules|resourcelinks|capabilities)\b)|(?<secret2>(?=[A-Za-z0-9-]{0,39}[a-z])(?=[A-Za-z0-9-]{0,39}[A-Z])(?=[A-Za-z0-9-]{0,39}\d)[A-Za-z0-9-]{40})(?=[ \t?]|\/?$))/gm },
  // Netmiko's (and paramiko's) debug log of what it writes to a device: a word of letters with digits or signs alone is a password
  // or an enable secret answering a prompt (`write_channel: b'<secret>\n'` after `b'enable\n'`: pass 280 F35); commands have
  // blanks or are plain words (`b'terminal length 0\n'`, `b'enable\n'`, a user's `b'netops\r\n'`).
  { kind: 'password', keywords: ["write_channel: b'", 'write_channel: b"'], re: /\bwrite_channel: b(?<q>['"])(?<secret>(?=[^\s'"\\]{0,64}[A-Za-z])(?=[^\s"\\]{0,64}[\d@#$%^&*!?+=~'])(?![^\s"\\]{0,64}\.(?:bin|img|tar|gz|tgz|zip|pkg|cfg|conf|txt|log|iso|SPA)\\)(?:(?!\k<q>)[^\s\\]){6,64})(?:\\r)?\\n\k<q>/g, guard: true },
  // An Azure IoT device's symmetric key under a label of words (a DPS group key derived for a device and printed by a script,
  // `derived device key: <base64 of 32 bytes>`: pass 278 F25); a WireGuard `public key:` is no such label.
  { kind: 'device key', keywords: ['device key', 'primary key', 'secondary key', 'symmetric key'], re: /(?<![\w-])(?:device|primary|secondary|symmetric)[ \t]key(?:[ \t]*\([^()\n]{1,32}\))?[ \t]*[:=][ \t]*(?<secret>[A-Za-z0-9+/]{43}=|[A-Za-z0-9+/]{86}==)(?![A-Za-z0-9+/=])/gi },
  // Orthanc's remote servers and peers (`"vna" : [ "https://…/dicom-web/", "user", "<password>" ]` in orthanc.json's `Servers`,
  // `OrthancPeers`: pass 281 F14): a list of a URL, a user and a password, the last a made word.
  { kind: 'password', keywords: ['"http'], needs: /\[[ \t]*"https?:\/\/[^"\n]{1,256}"[ \t]*,[ \t]*"[^"\n]{1,128}"[ \t]*,[ \t]*"[^"\s]{1,256}"[ \t]*\]/, re: /\[[ \t]*"https?:\/\/[^"\n]{1,256}"[ \t]*,[ \t]*"[^"\s]{1,128}"[ \t]*,[ \t]*"(?<secret>(?=[^"\s]{0,256}[A-Z])(?=[^"\s]{0,256}[a-z])(?=[^"\s]{0,256}[^A-Za-z"\s])[^"\s:/]{6,256})"[ \t]*\]/g, guard: true },
  // An Elasticsearch API key as `<id>:<api_key>` (20 and 22 characters of base64url) under a `key` field: a Kibana or Fleet
  // enrollment token decoded (`{"ver":…,"adr":[…],"fgr":…,"key":"<id>:<api_key>"}`: pass 284 F10).
  { kind: 'elasticsearch api key', keywords: ['"key"'], re: /"key"[ \t]*:[ \t]*"[A-Za-z0-9_-]{20}:(?<secret>[A-Za-z0-9_-]{22})"/g },
  // Zapier's MCP server URL: its path's segment after `/s/` is the secret (base64 of two UUIDs: pass 285 F24).
  { kind: 'zapier mcp secret', keywords: ['mcp.zapier.com'], re: /\bmcp\.zapier\.com\/api\/mcp\/s\/(?<secret>(?=[A-Za-z0-9+\/=_-]{0,512}[a-z])(?=[A-Za-z0-9+\/=_-]{0,512}\d)[A-Za-z0-9+\/=_-]{20,512})(?=\/|["'\s]|$)/gm },
  // A passphrase of words padded from its name in a script's dump of settings (`passPhrase             pharm orthanc 27 cedar`: pass
  // 281 F3): the words to the line's end (one word alone is the padded name reader's); a line of prose (a stop word among two to
  // four words, `passphrase    required for the key`, or a rule's word among more, `min 4 words`) is none; a passphrase of five
  // words and more may hold a stop word (`marble the juniper 9 saffron ember`: adv289 F35).
  { kind: 'passphrase', keywords: ['passphrase'], re: /(?<![\w-])(?:[A-Za-z]{0,32}[_-]?)?pass[_-]?phrase[ \t]{2,}(?<secret>(?!(?:\S{1,64} ){0,11}(?:required|optional|none|see|min|max|minimum|maximum|least|words?|characters?|chars|length|not|if|when|set|unset|must|should)(?: |[ \t]*\r?$))(?:[^\s:=]{1,64}(?: \S{1,64}){4,11}|(?!(?:\S{1,64} ){0,3}(?:the|an?|to|for|of|is|are|and|or|in|on|with|by|be)(?: |[ \t]*\r?$))[^\s:=]{1,64}(?: \S{1,64}){1,3}))[ \t]*\r?$/gim, guard: true },
  // A Java or Oracle tool's single-dash password option (`weblogic.Deployer … -password …` in a Jenkins trace, `wsadmin.sh … -user
  // u -password …`, `tibemsadmin … -password …` in a crontab, AdminTask's `[-user u -password …]`, `orapki wallet create … -pwd
  // …`: pass 287 F12, F16, F22, F33): a value with a letter and a digit or a sign (a word after it is prose: `the -password
  // option`).
  { kind: 'password on command line', keywords: ['-password', '-passwd', '-pwd'], needs: /(?:^|[ \t\[("'])-(?:password|passwd|pwd)[ \t=]/, re: /(?:^|(?<=[ \t\[("']))-(?:password|passwd|pwd)(?:=|[ \t]+)(?<secret>'[^'\n]{1,256}'|"[^"\n]{1,256}"|(?=[^\s'"\])]{0,255}[^\sA-Za-z'"\])])(?=[^\s'"\])]{0,255}[A-Za-z])(?![-$<%]|\[masked)[^\s'"\])]{4,256})/gm, guard: true },
  // A setter of a password or a secret in a script (WLST's `cmo.setPassword('…')`, a bean's `ds.setPassword("…")`: pass 287 F11).
  { kind: 'password', keywords: ['.setpassword(', '.setpasswd(', '.setsecret(', '.setapikey(', '.setclientsecret('], re: /\.set(?:Password|Passwd|Secret|ApiKey|ClientSecret)\([ \t]*(?<q>['"])(?<secret>(?:(?!\k<q>)[^\n\\]|\\.){1,256})\k<q>[ \t]*\)/g, guard: true },
  // Oracle's wallet: `mkstore … -createCredential <alias> <user> <password>` (a shell history: pass 287 F22).
  { kind: 'password on command line', keywords: ['credential'], needs: /-(?:create|modify)Credential/, re: /\bmkstore\b[^\n|;&]{0,1024}?[ \t]-(?:create|modify)Credential[ \t]+\S{1,128}[ \t]+\S{1,128}[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/g },
  // Oracle E-Business Suite's scripts given `apps/<password>` (`adstpall.sh apps/…`, `FNDCPASS apps/… 0 Y system/… SYSTEM APPLSYS
  // <new>`: pass 287 F25): each user's password after its `/`, and FNDCPASS' new password, its last argument.
  { kind: 'password on command line', keywords: ['adstpall', 'adstrtal', 'adautocfg', 'fndcpass'], re: /\b(?:ad(?:stpall|strtal|autocfg|admin|preclone)\.(?:sh|pl)|FNDCPASS)[ \t]+\w{1,30}\/(?<secret>[^\s\/@'"`]{3,128})/g },
  { kind: 'password on command line', keywords: ['fndcpass'], re: /\bFNDCPASS[ \t]+\S{1,160}[ \t]+\d{1,3}[ \t]+Y[ \t]+\w{1,30}\/(?<secret>[^\s\/@'"`]{3,128})/g },
  { kind: 'password on command line', keywords: ['fndcpass'], re: /\bFNDCPASS[ \t]+\S{1,160}[ \t]+\d{1,3}[ \t]+Y[ \t]+\S{1,160}[ \t]+(?:(?:SYSTEM|ORACLE|USER)[ \t]+\S{1,64}|ALLORACLE)[ \t]+(?<secret>[^\s'"`]{3,128})/g },
  // IBM MQ's MQSC: an AUTHINFO's `LDAPPWD('…')`, a channel's `PASSWORD('…')` (runmqsc's echo: pass 287 F31).
  { kind: 'password', keywords: ['ldappwd(', 'password('], re: /\b(?:LDAPPWD|PASSWORD)\((?:'(?<secret>[^'\n]{1,256})'|(?<secret2>[A-Z0-9]{4,256}))\)/g, guard: true },
  // Oracle Data Pump's and SQL*Loader's parameter file (`USERID="system/<password>@PRODDB"`, `userid=scott/<password>`: pass 287
  // F23): the password after the user's `/`, to the last `@` before the service (a password may hold an `@`).
  { kind: 'password', keywords: ['userid'], needs: /userid[ \t]*=/i, re: /(?<![\w.-])USERID[ \t]*=[ \t]*(?:(?<q>["'])[\w$#]{1,30}\/(?<secret>(?:(?!\k<q>)[^\n]){1,128}?)(?:@[\w.:\/-]{1,128})?\k<q>|[\w$#]{1,30}\/(?<secret2>[^\s@"'\/]{1,128}))/gi, guard: true },
  // Oracle GoldenGate's parameter file (`USERID c##ggadmin@ORCLCDB, PASSWORD <password>`: adv289 F42).
  { kind: 'password', keywords: ['userid'], needs: /,[ \t]*PASSWORD[ \t]/i, re: /\bUSERID[ \t]+[^\s,]{1,128}[ \t]*,[ \t]*PASSWORD[ \t]+(?<secret>[^\s,]{1,256})/gi, guard: true },
  // Consul's ACL tokens on one line (`jq -c .acl`: `"tokens":{"initial_management":"<uuid>","agent":"<uuid>"}`: adv289 F10).
  { kind: 'consul acl token', keywords: ['"tokens"'], re: /"(?:agent|default|initial_management|agent_recovery|agent_master|master|replication|dns|config_file_service_registration)"(?<="tokens"[ \t]*:[ \t]*\{[^{}\n]{0,512})[ \t]*:[ \t]*"(?<secret>[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})"/g },
  // A setting named by one option and set by the next (Moodle's `admin/cli/cfg.php --name=bind_pw --set='…'`: pass 291 F3).
  { kind: 'password on command line', keywords: ['--set'], needs: /--name[= ]/, re: /(?:^|[ \t])--name[= ]['"]?(?<name>[\w.-]{1,64})['"]?[ \t]+--set[= ](?<secret>'[^'\n]+'|"[^"\n]+"|[^\s'"]+)/g, guard: true },
  // A private JWK written as a JSON string's text (`jwk-present.json: "{\"kty\":\"RSA\",…,\"d\":\"…\",\"p\":\"…\"}"` in Canvas'
  // dynamic_settings.yml: pass 291 F14): each private member's value.
  { kind: 'private key', keywords: ['\\"kty\\"'], re: /\\"(?:d|p|q|dp|dq|qi|k)\\"[ \t]*:[ \t]*\\"(?<secret>[A-Za-z0-9_-]{16,4096})\\"/g },
  // Kaltura's session in a URL's query (`ks=djJ8…`, a v2 KS: `v2|<partner>|…` in base64: pass 291 F32).
  { kind: 'kaltura session', keywords: ['ks=djj8'], re: /[?&]ks=(?<secret>djJ8[A-Za-z0-9+\/=_%-]{20,4096})/g },
  // OMERO's CLI password flag (`omero login -s host -u jdoe -w '…'`, `omero import … -w …`: pass 274 F13).
  { kind: 'password on command line', keywords: ['omero'], re: /\bomero\b[^\n|;&]{0,1024}?[ \t](?:-w|--password)(?:=|[ \t]+)(?<secret>'[^'\n]+'|"[^"\n]+"|(?![-$<])[^\s'"]+)/g, guard: true },
  // ttyd's and GoTTY's basic auth (`ttyd --credential dev:<password>`, `-c user:pass`, a unit's `ExecStart=`: pass 270 F19).
  { kind: 'password on command line', keywords: ['ttyd', 'gotty'], re: /\b(?:ttyd|gotty)\b[^\n|;&]{0,1024}?(?:[ \t]|["'],[ \t]*["'])(?:--credential|-c)(?:=|[ \t]+|["'],[ \t]*)["']?[^\s:'"]{1,128}:(?<secret>[^\s'"]{1,256})/g },
  // Odoo's JSON-RPC login (`"method":"login","args":["db","user","<password>"]`, `authenticate`, `execute_kw`'s `[db, uid,
  // "<password>", …]`: adv272 S22): the third argument.
  { kind: 'password', keywords: ['"args"'], needs: /"service"\s*:\s*"(?:common|object)"/, re: /"args"\s*:\s*\[\s*"[^"\n]{0,256}"\s*,\s*(?:"[^"\n]{0,256}"|\d{1,12})\s*,\s*"(?<secret>[^"\\\n]{1,256})"/g },
  // pypykatz' `--grep` rows (`packagename:domain:user:NT:LM:SHA1:masterkey:sha1_masterkey:key_guid:plaintext`: adv272 S5): the NT
  // hash, the masterkey and the plaintext by their columns.
  { kind: 'nt hash', keywords: ['msv:', 'dpapi:', 'kerberos:', 'wdigest:', 'tspkg:', 'credman:', 'cloudap:', 'livessp:', 'ssp:'], re: /^(?:msv|dpapi|kerberos|wdigest|tspkg|credman|cloudap|livessp|ssp):[^:\n]{0,256}:[^:\n]{0,256}:(?<secret>[0-9a-fA-F]{32}):/gm },
  { kind: 'dpapi key', keywords: ['dpapi:'], re: /^dpapi:(?:[^:\n]{0,256}:){5}(?<secret>[0-9a-fA-F]{64,128}):(?<secret2>[0-9a-fA-F]{40})?:/gm },
  { kind: 'password', keywords: ['msv:', 'kerberos:', 'wdigest:', 'tspkg:', 'credman:', 'cloudap:', 'livessp:', 'ssp:'], re: /^(?:msv|kerberos|wdigest|tspkg|credman|cloudap|livessp|ssp):(?:[^:\n]{0,256}:){8}(?<secret>[^\n]{1,256}?)[ \t]*\r?$/gm },
  // Cypress' and WebdriverIO's code frames typing into a password input on the same line (`cy.get('input[type="password"]')
  // .type('…')`: adv272 S32).
  { kind: 'password', keywords: ['type="password"', "type='password'", 'type=password'], re: /type=["']?password["']?\][^\n]{0,128}?\)\.(?:type|fill|setValue|sendKeys|addValue)\((?:'(?<secret>(?:[^'\\\n]|\\.){1,256})'|"(?<secret2>(?:[^"\\\n]|\\.){1,256})")/g },
  // A Selenium IDE test's commands as jq objects (`{"command":"type","target":"id=password","value":"…"}`: adv272 S33).
  { kind: 'password', keywords: ['"command":"type"', '"command": "type"'], re: /"command"\s*:\s*"type"\s*,\s*"target"\s*:\s*"[^"\n]{0,256}?(?:pass(?:word|wd)?|pwd)[^"\n]{0,256}"\s*,\s*"value"\s*:\s*"(?<secret>(?:[^"\\\n]|\\.){1,256})"/gi },
  // Envoy's secrets given inline (`generic_secret: secret: inline_string: "…"`, an OAuth2 filter's client and HMAC secrets in a
  // bootstrap: pass 275 F5): a minted value (a response body or a PEM block is text or has its armour's rules).
  { kind: 'secret', keywords: ['inline_string:', 'inline_bytes:'], re: /\binline_(?:string|bytes):[ \t]*["']?(?<secret>[A-Za-z0-9+/=_.-]{16,4096})["']?[ \t]*\r?$/gm, guard: true },
  // PHP constants (wp-config.php): define('DB_PASSWORD', '…'), define('AUTH_KEY', '…'); the name must be a secret's.
  { kind: 'password', keywords: ['define('], re: /\bdefine\([ \t]*["'](?<name>[A-Za-z0-9_]+)["'][ \t]*,[ \t]*(?<secret>'[^'\n]+'|"[^"\n]+")/g, guard: true },
  // .NET / NuGet config: <add key="ClearTextPassword" value="…" />; the key must be a secret's name.
  { kind: 'password', keywords: ['key="', "key='"], re: /\bkey=["'](?<name>[A-Za-z0-9_.:-]+)["'][ \t]+value=(?<secret>"[^"\n]+"|'[^'\n]+')/gi, guard: true },
  // `composer config -l` rows (`[github-oauth.github.com] gho_…`, `[gitlab-token.host] …`, `[http-basic.host.password] …`): a token's
  // section, or a password / secret under http-basic and bitbucket-oauth; `[http-basic.host.username] bob` stays.
  { kind: 'composer auth token', keywords: ['auth', 'token', 'pass', 'secret'], sharesNameWords: true, needs: COMPOSER_ROW_NEEDS, re: COMPOSER_ROW, guard: true },
  // …and its `[bearer.host]` rows by their own word: a name's `bearer` is a name's last word before its separator (NAME_WORDS),
  // which a row's section is not.
  { kind: 'composer auth token', keywords: ['bearer'], needs: COMPOSER_ROW_NEEDS, re: new RegExp(COMPOSER_ROW.source, COMPOSER_ROW.flags), guard: true },
  // SQL that sets a password (a migration, psql's / mysql's echo, a query log, shell history): PostgreSQL `CREATE|ALTER ROLE … PASSWORD '…'`,
  // MySQL `IDENTIFIED [WITH plugin] BY '…'`, `SET PASSWORD [FOR user] = '…'` (its `FOR` form was turned away by `needs`: adv114 F13). `PASSWORD NULL` and `IDENTIFIED BY PASSWORD '*hash'` forms aside, a quoted literal.
  // MySQL 5's `SET PASSWORD FOR 'u'@'%' = PASSWORD('…')` (a general query log: adv22 F10): the literal in the function.
  // (Its `needs` with one run of blanks on each side of the `=`: `[ \t]*(?:=[ \t]*)?` split a megabyte of blanks after `password` two
  // ways at each length, quadratic: found by session 45's hostile `psql -x` row of a padded title.)
  { kind: 'password', keywords: ['pass', 'identified'], sharesNameWords: true, needs: /PASSWORD[ \t]*(?:=[ \t]*)?N?['"]|PASSWORD\(|PASSWORD[ \t]+FOR[ \t]|IDENTIFIED\b/i, re: /\b(?:(?:ENCRYPTED[ \t]+)?PASSWORD(?:[ \t]+FOR[ \t]+\S+)?(?:[ \t]*=[ \t]*|[ \t]+)(?:(?:OLD_)?PASSWORD\([ \t]*)?|IDENTIFIED(?:[ \t]+WITH[ \t]+\w+)?[ \t]+BY(?![ \t]+PASSWORD\b)[ \t]+)N?(?<secret>'(?:[^'\\\n]|\\.|'')+'|"[^"\n]+")/gi, guard: true },
  // T-SQL's Unicode literal (`CREATE LOGIN x WITH PASSWORD = N'…'`: adv15 D29) is read above (the `N` before the quote).
  // A Go MySQL DSN (go-sql-driver: `user:pw@tcp(host:3306)/db`, no scheme: adv15 D33).
  { kind: 'password', keywords: ['@tcp(', '@unix('], needs: /@(?:tcp|unix)\(/, re: /(?<![\w:/])[\w.-]{1,64}:(?<secret>[^\s:@/'"]{1,256})(?=@(?:tcp|unix)\()/g },
  // Passwords as a command's operand in shell history (adv15 D28): `grafana cli admin reset-admin-password pw`, macOS
  // `security add-generic-password … -w pw`, `xcrun altool … -p pw` (an app-specific password).
  { kind: 'password on command line', keywords: ['reset-admin-password'], needs: /reset-admin-password/, re: /\breset-admin-password[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|(?![-$])[^\s'"]+)/g },
  { kind: 'password on command line', keywords: ['pass'], sharesNameWords: true, needs: /add-(?:generic|internet)-password/, re: /\badd-(?:generic|internet)-password\b[^\n|;&]{0,1024}?[ \t]-w[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|(?![-$])[^\s'"]+)/g },
  { kind: 'password on command line', keywords: ['altool'], needs: /altool/, re: /\baltool\b[^\n|;&]{0,1024}?[ \t](?:-p|--password)[ \t]+(?<secret>'[^'\n]+'|"[^"\n]+"|(?![-@$])[^\s'"]+)/g },
  // fish's `set --show NAME` (adv15 D05): `$NAME[1]: |value|` and `$NAME: originally inherited as |value|`, the value between bars.
  { kind: 'secret', keywords: ['pass', 'secret', 'token', 'key', 'pwd'], sharesNameWords: true, needs: /^\$\w+(?:\[\d+\])?: (?:originally inherited as )?\|/m, re: /^\$\w*(?:PASSWORD|PASSWD|PASS|PWD|SECRET|TOKEN|KEY)(?:\[\d+\])?: (?:originally inherited as )?\|(?<secret>[^|\n]{1,4096})(?=\|\r?$)/gim },
  // requests' basic auth tuple in a traceback's source line (`auth=("shop-sync", "…")`: adv17 F38).
  { kind: 'basic auth', keywords: ['auth'], sharesNameWords: true, needs: /auth=\(/, re: /\bauth=\([ \t]*(?<q>["'])[^"'\n]{1,128}\k<q>[ \t]*,[ \t]*(?<q2>["'])(?<secret>[^"'\n]{1,1024})(?=\k<q2>[ \t]*\))/g },
  // Rails' SQL log binds (`[["token", "…"], ["LIMIT", 1]]`: adv13 B17), a bound column's name then its value.
  { kind: 'secret', keywords: ['pass', 'pwd', 'secret', 'token', 'key', 'salt', 'digest'], sharesNameWords: true, needs: /\[\["/, re: /\[[ \t]*"(?<name>[A-Za-z_][\w.]*)"[ \t]*,[ \t]*"(?<secret>(?:[^"\\\n]|\\.){4,4096})"[ \t]*\]/g, guard: true },
  // PHP's PDO constructor in a stack trace (`PDO->__construct('mysql:host=…', 'shop', 'pw', Array)`, Laravel's log: adv13 B36): the third argument.
  { kind: 'password', keywords: ['pdo'], needs: /PDO->__construct\(|createPdoConnection\(/, re: /(?:PDO->__construct|->createPdoConnection)\('[^'\n]*',[ \t]*(?:'[^'\n]*'|NULL),[ \t]*'(?<secret>[^'\n]+)'/g },
  // IBM Cloud's `api-key-create` table: `API Key` then blanks then the key (adv15 D23).
  { kind: 'api key', keywords: ['key'], sharesNameWords: true, needs: /^API Key[ \t]{2,}/m, re: /^API Key[ \t]{2,}(?<secret>[A-Za-z0-9_-]{32,64})(?=[ \t]*\r?$)/gm },
  // A label with a blank in it (`S3 Secret Key: …` in `supabase status`, MinIO's `Secret Key:`, a console's `Secret access key: …`): no key=value name.
  { kind: 'secret key', keywords: ['key'], sharesNameWords: true, needs: /(?:secret|private|signing|encryption|master)(?: access)? key[ \t]*[:=]/i, re: /(?<![\w-])(?:secret|private|signing|encryption|master)(?:[ \t]+access)?[ \t]+key[ \t]*[:=][ \t]*(?<secret>[^\s'"]\S*)(?=[ \t]*\r?$)/gim, guard: true },
  // Other labels of two or three words (a CLI's human layout: `API Key: …`, Azure's `Account Key: …`, `Deploy Key`, Nomad's
  // `Secret ID` realigned by `column -t`, 1Password's `one-time password seed:`: adv112 F40, adv113 F44), after a colon, an `=`
  // or two blanks: one word at the line's end, 16 characters and up with a digit (a label's prose is none). Not `Access Key`
  // (an access key's id: MinIO's, AWS's).
  { kind: (m) => (/^api/i.test(m[0]) ? 'api key' : /key/i.test(m[0]) ? 'key' : /id/i.test(m[0]) ? 'secret id' : 'totp seed'), keywords: ['key', 'secret', 'seed'], sharesNameWords: true, needs: /(?:key|secret id|seed|secret)(?:[ \t]*[:=]|[ \t]{2})/i, re: /(?<![\w-])(?:(?:api|deploy(?:ment)?|account|app(?:lication)?|admin|service|licen[cs]e|webhook)[ \t]+key|secret[ \t]+id|(?:one-time[ \t]+password|totp|otp|2fa|mfa)[ \t]+(?:seed|secret))(?:[ \t]*[:=][ \t]*|[ \t]{2,})(?<secret>(?=[^\s'"]{0,255}\d)[^\s'"]{16,256})(?=[ \t]*\r?$)/gim, guard: true },
  // A table's row of a secret's name and its value (adversary pass 5): box-drawing tables (`railway variables`, `doppler secrets`,
  // `infisical secrets`) and ASCII ones (`aws … --output table`'s `|  SecretString |  … |`, psql's expanded `password | …`). The
  // value is one whole cell; a cell of words (`| token | Your API token |`) is prose, and placeholders stay (guard). A column's SQL type is
  // no value (a schema: psql's `\d users` row ` password | text | …`, mysql's `DESCRIBE`: `| password | varchar(255) | YES |`).
  // A name after a bar is a padded cell (`| token |`): a bar with no blank after it is a regular expression's (`password|token|.*_key`
  // in sops' encrypted_regex: adv15 M22); psql's unaligned rows (`password|…`) have the name first on the line.
  { kind: 'secret', keywords: ['pass', 'pwd', 'secret', 'token', 'auth', 'cred', 'key', 'cookie', 'salt', 'dsn', 'jwt'], sharesNameWords: true, wordsNotOnHeader: true, wrapsIntoRows: true, needs: /[│║┃|][ \t]*[^\s│║┃|]+[ \t]*(?:[│║┃|]|\r?$)/, re: new RegExp(`(?:^[ \\t]*|[│║┃|][ \\t]+)(?<name>[A-Za-z][\\w.-]*)[ \\t]*[│║┃|][ \\t]*(?!${SQL_TYPE}[ \\t]*(?:[│║┃|]|\\r?$))(?<secret>'[^'\\n│║┃|]+'|"[^"\\n│║┃|]+"|[^\\s│║┃|'"][^\\s│║┃|]*)(?=[ \\t]*(?:[│║┃|]|\\r?$))`, 'gm'), guard: true },
  // A .pgpass made columns (`column -t -s: ~/.pgpass`, from a file of any name: adv105 F29, adv108 F30): host, PostgreSQL's port
  // (5432, or 5433-5435 of a second cluster: adv117 F30) or pgbouncer's (or `*`), database, user, then the password, two blanks
  // or more around the port (one after a value that fills its column: awk's `printf "%-10s %s"` of a 10-letter user, adv123
  // F31): six characters or more, not a word in one case (a table's `STATUS` column: `api  5432  app  admin  running`).
  { kind: 'password', keywords: ['5432', '5433', '5434', '5435', '6432', '  *  '], needs: /[ \t]{2}(?:543[2-5]|6432|\*)[ \t]{2}/, re: /^[ \t]*(?:[\w.-]{1,253}|\*)[ \t]{2,}(?:543[2-5]|6432|\*)[ \t]{2,}(?:[\w.-]{1,63}|\*)[ \t]+(?:[\w.@-]{1,63}|\*)[ \t]+(?<secret>(?=\S{0,255}[^A-Za-z\s]|\S{0,255}[a-z]\S{0,255}[A-Z]|\S{0,255}[A-Z]\S{0,255}[a-z])\S{6,256})[ \t]*\r?$/gm, guard: true },
  // A SAS token's signature at a line's start (its query split into lines by `tr '&' '\n'`: adv108 F35): `sig=` then an HMAC-SHA256
  // in base64, percent-encoded or not (43 characters and its `=`). A bare `sig=` names nothing else (NOT_SECRET_NAME), so its shape.
  { kind: 'sas signature', keywords: ['sig='], needs: /^[ \t]*sig=/m, re: /^[ \t]*sig=(?<secret>(?:[A-Za-z0-9+/]|%2[BbFf]){43}(?:=|%3[Dd]))(?![\w%])/gm },
  // Azure (and ADO.NET) connection strings: AccountKey=…;, SharedAccessKey=…, Password=…;
  // Its keywords are the names' last words, shared with the key=value search (`AccountKey` ends in `key`, `ClientSecret` in `secret`): no
  // automaton states of its own (the table is at its 16-bit limit; keyword-automaton.test.ts).
  // `Password`, `Pwd` and `Token` with no blank before their `=`, as connection strings write them: with blanks, a statement of
  // code (`const token = signSession(user.id);`: adv43 K01) is no connection string.
  // (Not a name's last word: a URL's `id_token=` in an access log whose user agent holds `;`, 141 F21. An unquoted value ends at a
  // written line break too: http.client's `send: b'…;version=2\r\n…Authorization: Token token=…\r\nX-Auth-Token: …'`
  // took the next header's name with it: 133 F10.)
  // Not a value in escaped quotes (`password=\"…\";` of a JAAS line inside JSON: pass 175 F31): the `\` alone was taken, the
  // key=value search masks what the quotes hold.
  // (Not a word's end after a hyphen: a header's `I-Twilio-Idempotency-Token=<uuid>` in a log's `;` list is the name rule's: pass
  // 255 L10.)
  { kind: 'azure connection string key', keywords: ['key', 'signature', 'pass', 'pwd', 'secret', 'token'], sharesNameWords: true, needs: /;/, re: /(?<![A-Za-z0-9_-])(?:(?:AccountKey|SharedAccessKey|SharedAccessSignature|User Password|SharedSecret|AccessKey|ClientSecret)[ \t]*=[ \t]*|(?<![?&])(?:Password|(?!PWD=\/)Pwd|Token)=)(?<secret>"[^"\n]+"|'[^'\n]+'|\$'(?:[^'\\\n]|\\.)+'|(?!\\["'])(?:[^;\s"'\\]|\\(?![rn]))+)/gi },
];

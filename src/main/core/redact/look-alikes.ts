/**
 * The look-alike guard: values that stand where a secret could but are not one, kept visible so
 * masking does not damage what the agent acts on. Context rules ask it about every value; vendor
 * rules about documentation examples only (their shapes are specific enough).
 */

/** Documentation example keys (AWS's `AKIAIOSFODNN7EXAMPLE`, `…EXAMPLEKEY`), placeholders and fill characters. */
// Azurite's published development account key (the same in every install: adv27 K06) is an example too.
// A tool's own star mask counts as one while it leaves at most a prefix's 16 characters (`sk-proj-********`); LiteLLM's verbose
// curl shows all but the last 44 characters of a key, then 44 stars (adv33 F32): that is the key's head, masked.
// kubeadm's own example bootstrap token (`abcdef.0123456789abcdef` in `kubeadm config print join-defaults`: adv35 K08).
// `PLACEHOLDER` anywhere (`sk_test_placeholder`), a test's word pair (`test-token`, `fake_key`: a spec's `ENV.fetch("X", "test-token")`),
// a vendor's prefix then x's (`dp.st.xxxx` in a doc: adv51 K05, K10).
// A setting's word for "make one for me" or "none" (Zigbee2MQTT's `network_key: GENERATE`: adv168 L6; `auto`, `unset`, `default`).
// (Shipped placeholders: Huginn's `REPLACE_ME_NOW!`, Strapi's `APP_KEYS="toBeModified1,toBeModified2"`: passes 269 L18, 271 L24.)
// A template's name in braces (`token:{api_token}` in an API's docs, read to the `}`: pass 296 L12; `{{API_KEY}}`, `{apiToken}`:
// adv301 L18).
// api.data.gov's public `DEMO_KEY` (`?api_key=DEMO_KEY` in every example of its docs: pass 299 L14).
const EXAMPLE = /EXAMPLE|PLACEHOLDER|^DEMO_KEY$|^\{\{?(?:[a-z]+(?:_[a-z]+)+|[A-Z]+(?:_[A-Z]+)+|[a-z]+(?:[A-Z][a-z]+)+)\}?\}?$|^(?:test|dummy|fake|sample|example|mock|stub)[_-][a-z]{2,16}(?:[_-][a-z]{2,16})?$|^[\w.-]{0,24}[._-](?:x{4,}|X{4,})$|^abcdef\.0123456789abcdef$|^Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq\/K1SZFPTOtr\/KBHBeksoGMGw==$|^(?:x+|X+|\*+|•+|\.+|#+|-+|_+|0+|1234(?:5678?)?|abc(?:def|123)?|test|dummy|fake|sample|placeholder|change[_-]?(?:me|it)|\*sensitive\*data\*deleted\*|secret|password|token|null|undefined|none|nil|true|false|yes|no|on|off|redacted|masked|hidden|omitted|required|optional|string|value|todo|tbd|generate|auto(?:generated?)?|unset|empty|default|disabled|your[_-]?[\w-]*|my[_-]\w+|\w+[_-]here|__[A-Z][A-Z0-9_]*__|VALUE_SPECIFIED_IN_NO_LOG_PARAMETER|(?:yes|no)\)|(?:\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|[nrt0]))+|[\w-]{0,16}\*{6,}[\w*-]*|[A-Za-z0-9_-]*[A-Za-z0-9][_-]\*{3,}[A-Za-z0-9]{0,8}|(?:replace|fill|set|insert|enter|put|add)[_-](?:me|with|in|your)(?![a-z0-9])[\w-]*!?|to[_-]?be[_-]?modified\d{0,2}|[\w-]{0,24}(?:\.{3}|…))$|(?:^|[/:@=])<[a-z][\w -]*>(?:[/:@]|$)/i;

/**
 * Test keys the vendors publish for everyone to use (`.env.example` files copy them: adv39 K06): Stripe's documentation keys,
 * Cloudflare Turnstile's always-pass / always-fail secrets and site keys, Google reCAPTCHA's test pair, the request signature of
 * AWS's Signature Version 4 worked example (made with its documented `…EXAMPLEKEY`; test fixtures copy it: adv103 L07). They
 * grant nothing.
 */
// Mews' documented demo Connector tokens (its docs' `ClientToken` / `AccessToken` for api.mews-demo.com: adv301 L6).
const DOCUMENTED_TEST_KEY = /^(?:E0D439EE522F44368DC78E1BFB03710C-D24FB11DBE31D4621C4817E028D9E1D|C66EF7B239D24632943D115EDE9CB810-EA00F8FD8294692C940F6B5A8F9453D|sk_test_4eC39HqLyjWDarjtT1zdp7dc|5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7|pk_test_TYooMQauvdEDq54NiTphI7jx|[123]x0{20,31}AA|6LeIxAcTAAAAAGG-vFI1TnRWxMZNFuojJ4WifJWe|6LeIxAcTAAAAAJcZVRqyHh71UMIEGNQ_MXjiZKhI)$/;

/**
 * Public by design: a Mapbox public token (`pk.eyJ…`, shipped to every browser that shows the map: adv40 K01); Stripe's
 * publishable key (`pk_live_…` under `STRIPE_KEY`: adv252 L29). (A Sentry DSN's
 * public key stays masked by choice: earlier passes counted it a secret, adv42 K05 a look-alike; it lets anyone post events.)
 * RevenueCat's public SDK keys (`appl_`, `goog_`, `amzn_`, `strp_`, `rcb_`: shipped in the app, its secret keys are `sk_`: adv146
 * F23). Adyen's client keys (`test_`/`live_` and 32 upper-case letters and digits: Drop-in's, in the browser) and Braintree's
 * tokenization keys (`sandbox_<8>_<16>`, `production_…`: given to the browser's Drop-in; its private key is the secret): adv169 L2,
 * L3. An RSA public key's SPKI in base64 (a browser extension manifest's `"key"`, which pins its id: adv171 L14). New Relic's
 * browser key (`NRJS-…`, in every instrumented page's loader config: pass 288 L24). PostHog's project key (`phc_…`, in every
 * page's snippet; its personal keys are `phx_`: pass 296 L17). A Google OAuth client's id (`<project>-<32>.apps.googleusercontent.com`, in every app's `google-services.json`: pass 322 L1). And a
 * placeholder written in a vendor's shape, its body a run of one filler character or a `<…>` note (`hf_xxxx…`,
 * `dp.st.dev.XXXX…`, `shpat_<32 hex characters>`: adv40 K08); a real token never repeats a character twelve times.
 */
const PUBLIC_OR_PLACEHOLDER = /^\d{6,14}-[a-z0-9]{32}\.apps\.googleusercontent\.com$|^pk\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$|^NRJS-[A-Za-z0-9]{19,32}$|^pk_(?:live|test)_[A-Za-z0-9]{24,247}$|^(?:appl|goog|amzn|strp|rcb)_[A-Za-z0-9]{24,40}$|^phc_[A-Za-z0-9]{32,64}$|^(?:test|live)_[A-Z0-9]{32}$|^MII[BC]IjANBgkqhkiG9w0BAQEFAAOCA[QgI]8AMII[BC]CgKCA[QgI]EA[A-Za-z0-9+/]{200,800}={0,2}$|^(?:sandbox|production)_[a-z0-9]{8}_[a-z0-9]{16}$|([xX#.0_-])\1{11,}|^[A-Za-z][\w.-]{1,24}<(?:[a-z][a-z ]*|\d+)>?$/;
/** Jest's asymmetric matchers in a failed test's diff (`"refreshToken": Any<String>,`: 129 F18): a type, no value. */
const TEST_MATCHER = /^(?:Any<[A-Z]\w{0,31}>|Anything|(?:Object|Array|String)Containing|StringMatching)(?!\w)/;
/** The first word of a placeholder in angle brackets with blanks in it, which ends an unquoted value (`KEY=<your stripe secret key>` of a `.env.example`: adv58 K07). */
const ANGLE_PLACEHOLDER_HEAD = /^<(?:your|insert|paste|put|add|enter|replace|the|my|a|an)$/i;

/**
 * References to a secret rather than the secret: `$VAR`, `${VAR}`, `%VAR%`, `{{ x }}`, `<token>`, `***`, a mask. `<token>$`:
 * `cat -A` marks each line's end with `$` (adv101 L08).
 */
// Also PHP's superglobals and members (`$_ENV['X'] ?? …`, `$this->config[`: adv46 K03), HCL's references (`var.db_password`,
// `local.x`, `random_password.db.result`: K04), Spring's `${vcap.services.kms.credentials.key:}` (adv17 K16), and a reference's tail as a line shows it (`process.env.X });`, `…!,"` in a
// read's quoted status line: adv45 K05, adv46 K05). PowerShell's environment drive (`$token = $env:API_TOKEN`) and the cmdlets that
// ask for or fetch a secret (`$password = Read-Host -AsSecureString`: adv48 K03): where a value comes from, not a value. A format's
// placeholder (Rust's and Python's `{}` / `{0}`, printf's `%s`, Python's `%(password)s`: `format!("postgres://{}:{}@{}", …)`: adv49 K03).
// Home Assistant's and ESPHome's `!secret name` (a reference to secrets.yaml: adv59 F25, where the name was remembered and masked).
// HOCON's optional substitution (`db.password = ${?DB_PASSWORD}`: adv89 L09). A user and a password as two references
// (Beats' `cloud.auth: "${ES_USER}:${ES_PASS}"`: pass 225 L17). A Secret Manager secret's name and version (`gcloud run services
// describe`'s `STRIPE_SECRET_KEY stripe-secret-key:7`, `--set-secrets=…=name:latest`: pass 232 L15). TeamCity's secure values
// (`password("env.NEXUS_PASSWORD", "credentialsJSON:<uuid>")`, `%vault:…%`: pass 234 L11): the server holds the value.
// A PKCS#11 or HSM config's `env:NAME` (a PIN read from the environment: adv219 L9) too. A note in parentheses holds none
// inside (a Django key may start with `(` and end with `)`, `(xkjo3-…)hni…(6qp)`: pass 280 F29).
const REFERENCE = /^(?:\$\{?[A-Za-z_]\w{0,127}\}?:\$\{?[A-Za-z_]\w{0,127}\}?|credentialsJSON:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|%vault:[^%\s]{1,256}%|[a-z][a-z0-9_-]{2,254}:(?:latest|\d{1,6})|!secret [\w.-]{1,64}|env[:/][A-Za-z_][A-Za-z0-9_]{0,127}|\{\d{0,2}(?::[^{}\s]{0,16})?\}|%(?:\([\w.]{1,64}\))?[sdr]|\$[Ee]nv:[A-Za-z_]\w*|(?:Read-Host|Get-Credential|Get-Secret|ConvertTo-SecureString|Get-AzKeyVaultSecret)\b.*|(?:Get|Set|New|Add|Remove|Invoke|Import|Export|ConvertTo|ConvertFrom|Read|Select|Join|Resolve|Test|Start|Connect|Find|Copy|Protect|Unprotect)-[A-Z][A-Za-z]{2,48}(?:[ \t(].*)?|@(?:p\d{1,4}|__[A-Za-z]\w{0,62}_\d{1,4})|\$_?[A-Za-z_]\w*(?:\[.*|->.*)|\$\{\??[A-Za-z_][\w.-]*(?::.*)?\}?|(?:var|local|data|module|each)\.[\w.-]+|random_(?:password|string|id)\.[\w.-]+|\{[A-Za-z_][\w.]*\}|\$?\{\{.*|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\$\(.*\)|%[A-Za-z_][A-Za-z0-9_]*%|\{\{.*\}\}|<[^>]*>\$?|\[(?![\d,\s]+\])[^\]]*\]|\*{3,}.*|\([^()]*\)|(?:process\.env|import\.meta\.env|Bun\.env)(?:\.\w+|\[[^\]]+\])[!,;)}\]"' \t]*(?:\s*(?:\?\?|\|\|).*)?|os\.environ.*|os\.[Gg]etenv\(.*|(?:std::)?env::var(?:_os)?\(.*|\$\(.*|encrypted:.*|(?:System\.getenv|Deno\.env\.get|ENV\.fetch)\(.*|ENV\[.*|env\(.*|ENC\[.*|EV\[.*|\((?:sensitive|known)\b.*|<set\b.*|(?:[A-Z][A-Z0-9_]*=[\w./-]+:(?:latest|\d+)|[\w./-]+:latest)(?:,[A-Z][A-Z0-9_]*=[\w./-]+:(?:latest|\d+))*|secrets\.\w+.*|!Ref|!Sub|!GetAtt|vault:.*|op:\/\/.*|arn:aws:.*|projects\/.*\/secrets\/.*)$/;

/** Content digests and hashes that are not credentials: `sha512-…` integrity, `sha256:…` image digests, git SHAs in their own fields. */
const DIGEST = /^(?:sha(?:1|224|256|384|512)[-:=][A-Za-z0-9+/=]+|md5[-:][A-Za-z0-9+/=]+|blake2b?[-:].+|[a-f0-9]{7,12})$/;

/** Paths and URLs without credentials: a key file's path is not the key (`SSH_KEY=~/.ssh/id_ed25519`). */
const PATH = /^(?:~\/|\.\.?\/|\/(?:etc|home|usr|var|tmp|opt|root|Users|run|srv|mnt|proc|dev|app|workspace|data|secrets|keys|certs|config|private)\/|[A-Za-z]:\\|file:\/\/)[^\s]*$|^[\w.-]+\.(?:pem|key|json|p12|pfx|crt|jks|txt|env|gpg|asc|ya?ml|toml)$/;

/** Plain numbers (ports, counts, lifetimes) and durations are not secrets. */
// …also in an opening parenthesis (openssl's `Private-Key: (2048 bit, 2 primes)`: adv57 F49, where `(2048` was masked).
// …and a Unix time in seconds or milliseconds of 2017–2033 (`databricks secrets list-secrets`' `Last Updated Timestamp` beside
// each secret's name: pass 209 L16); a PIN is shorter.
const NUMBER = /^\(?-?\d{1,6}(?:\.\d+)?(?:ms|s|m|h|d)?$|^1[5-9]\d{8}(?:\d{3})?$/;

/** Code and prose: an English word in lowercase, a call, a type name. */
// A call is code (`getToken()`, `crypto.randomBytes(32`, `Secret([REDACTED …`, `text(alphabet=st.characters(`): a name of three
// characters or a dotted one, then arguments that are a whole call's or words and code punctuation; a Django key is no call
// though `(` is in its alphabet (`h4(r0!vhu#…(ux_ta3i…`: its `!#%^&*+` are no code's, adv17 F29).
const PROSE = /^[a-z]{1,15}$|^(?=[^(]*\()(?:[A-Za-z_]\w{2,}|[A-Za-z_]\w*\.[\w.]+)(?:\([^()]*\)[\w.]*)*(?:\([\w."' $:=,()[\]<>-]*)?$|^(?:string|number|boolean|object|str|int|bytes|Optional\[.*|List\[.*)$/;
/**
 * A method's call or an indexer on a member chain, cut at its argument (`viper.GetString(`, `builder.Configuration[`,
 * `GetValue<string>(`, PHP's `$_ENV[`: adv46 K01, K02): code, whose quoted argument is a setting's name. A wrapper's call
 * (`Some("…")`, `SecretStr('…')`) has no member chain. A call whose first argument opens a literal (`jwt.encode({`: adv104 F04) too.
 * And a Go struct printed by `%+v` (`deploy key: {Name:ci-deploy PublicKey:…}`: adv250 L8): its first field, not a value —
 * unless it wraps the value (`sql.NullString`'s `{String:… Valid:true}`: adv253 F50).
 */
export const CALL_OR_INDEX_HEAD = /^:[A-Za-z_]\w*\($|^\{[A-Za-z_$][\w$]*:$|^\{(?!(?:String|Str|Value|Secret|Password|Token|Key|Bytes):)[A-Z][A-Za-z0-9]{0,63}:[^\s:{}]*$|^(?:await[ \t]+)?[A-Za-z_$][\w$]*(?:(?:\??\.|::|->)[A-Za-z_$][\w$]*)+(?:<[\w.,<>?]*>)?[([][{[]?$|^\$[A-Za-z_]\w*\[$/;
/** A secret's type in a declaration (pydantic's `db_password: SecretStr`, .NET's `SecureString`: adv44 K02), for a password's name too. */
// Or a generic type (Rust's `pub refresh_token: Option<String>,`, `Secret<String>`, `Vec<u8>`, TypeScript's `Promise<string>`: adv49 K03).
// .NET's full name of it too, PowerShell's table of a PSCredential (`System.Security.SecureString` under `SecurePassword`: adv79 F36).
// R's `str()` type words before a value (`..$ dbpass  : chr "…"`: adv59 F06; the value itself is FILES' R rule's).
const SECRET_TYPE = /^(?:chr|num|int|logi|cplx|Secret(?:Str|Bytes)|SecretString|(?:System\.Security\.)?SecureString|(?:Option|Optional|Vec|Box|Arc|Rc|Cow|Secret|SecretBox|Promise|Nullable|List|Array|Set|Map|HashMap)<[\w<>:, &'\[\]]{1,64}>)$/;

/** A tool's own mask, the value's last characters kept or not (`xxxx`, `****`, CircleCI's `xxxxAb12`: adv20 K15). */
/** A JVM array's identity as `toString()` prints it (`[B@6d06d69c`, `[Ljava.lang.String;@1b6d3586`: a Kotlin data class's ByteArray: adv30 K03), not its contents. */
/** A public key's type word (`user.signingkey=ssh-ed25519 AAAA…` in `git config --list`: adv37 K04): the value's first word, no secret. */
const SSH_KEY_TYPE = /^(?:ssh-(?:ed25519|rsa|dss)|ecdsa-sha2-nistp\d{3}|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)$/;
/**
 * An SSH public key's blob alone (its wire format names its type: `AAAAC3NzaC1lZDI1NTE5…` is `ssh-ed25519`), as a host key's
 * setting holds it (Airflow's SFTP connection's `host_key`: adv142 P4). A private key's OpenSSH blob starts `b3BlbnNzaC1rZXk`.
 */
const SSH_PUBLIC_BLOB = /^AAAA(?:B3NzaC1yc2E|B3NzaC1kc3M|C3NzaC1lZDI1NTE5|E2VjZHNhLXNoYTItbmlzdHA|GnNrLXNzaC1lZDI1NTE5|InNrLWVjZHNhLXNoYTItbmlzdHA)[A-Za-z0-9+/]{20,}={0,2}$/;
/** An .rdp file's integer setting (`prompt for credentials:i:0`: adv34 K01): `i:` and a number. */
const RDP_INTEGER = /^i:\d{1,10}$/;
const JVM_ARRAY_IDENTITY = /^\[+(?:[BCDFIJSZ]|L[\w.$]+;)@[0-9a-f]{1,8}$/;
// …or its word for one (keepassxc-cli's `Password: PROTECTED` without `-s`: pass 212 L3).
const OWN_MASK = /^(?:x{4,}|X{4,}|\*{3,}|•{3,})[A-Za-z0-9]{0,4}$|^(?:PROTECTED|HIDDEN|REDACTED|<hidden>|<redacted>|\(hidden\)|\(redacted\))$/;
/**
 * A PEM armour line alone (`tls.key:-----BEGIN RSA PRIVATE KEY-----` in `grep -r -A3 BEGIN`, the value read to its blank:
 * adv38 F46): no value; a key's block is the key-block rule's (private-keys.ts), and a remembered `-----BEGIN` masked every
 * certificate's armour after it. A value that goes on past its armour (a JSON string's key, `\n` and its body) is a value.
 */
const ARMOUR = /^-{5}(?:BEGIN|END)(?: [A-Z0-9 ]{1,64}-{5})?$/;

/** A reference or placeholder (`$VAR`, `<token>`, `***`): never a secret, whatever its context. */
export function isReference(value: string): boolean {
  const v = stripQuotes(value);
  return REFERENCE.test(v) || OWN_MASK.test(v) || v.startsWith('[masked:');
}

/** A placeholder or a documentation example (`CHANGE_ME`, `__SET_ME__`, `<key>`, `sk_test_...`, `PASSWORD`): kept by every rule. */
export function isPlaceholder(value: string): boolean {
  const v = stripQuotes(value);
  return EXAMPLE.test(v) || DOCUMENTED_TEST_KEY.test(v) || isSecretLabel(v);
}

/**
 * A form's label for a secret, as a UI's strings name it (a locale file's `"password": "Neues Passwort"`, `"secret":
 * "Geheimnis"`, `"apiKey": "API-Schlüssel"`, `"Passwort vergessen?"`: pass 296 L11, adv301 L4, masked in every translation an
 * agent edits): a capitalised label of at most four words of letters whose first or last word is a secret's name in a UI's
 * languages, one hyphen at most; or a CJK label ending in one (`请输入密码`). A passphrase is none: its words are lower-case
 * (`orchard secret lantern`), hyphen-joined (`Lantern-Key-Drizzle-Orchard`) or the name is inside (adv301 F8-F10);
 * `SuperSecret`, `Passwort123!` are passwords.
 */
export function isSecretLabel(v: string): boolean {
  if (v.length > 48) return false;
  // (French sets a blank before its colon, `Mot de passe :`; a note may follow in parentheses, `Clé API (facultatif)`: adv301 L5.)
  const t = v.replace(/[ \t]*\([^()]{1,32}\)$/, '').replace(/[ \t]?[?:.…]$/, '');
  if (CJK_SECRET_LABEL.test(t)) return true;
  return /^\p{Lu}/u.test(t) && (t.match(/-/g)?.length ?? 0) <= 1 && SECRET_LABEL.test(t);
}
const SECRET_LABEL_WORD = String.raw`(?:passwor[dt]|passphrase|kennwort|geheimnis|schlüssel|zugangstoken|mot de passe|clé|jeton|contraseña|clave|secreto|senha|chave|segredo|segreto|wachtwoord|sleutel|hasło|klucz|heslo|jelszó|lösenord|adgangskode|salasana|пароль|ключ|secret|token|api[ -]key|key)`;
const SECRET_LABEL = new RegExp(String.raw`^(?:${SECRET_LABEL_WORD}(?:[ '’-]\p{L}+){0,3}|(?:\p{L}+[ '’-]){1,3}${SECRET_LABEL_WORD})$`, 'iu');
const CJK_SECRET_LABEL = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul} ]{0,12}(?:パスワード|密码|密碼|비밀번호)[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul} ]{0,12}$/u;

/** A tool's own mask cut at its `]` by a value's end (Kafka's `ssl.truststore.password = [hidden]`: adv15 M30). */
const TOOL_MASK = /^\[(?:hidden|redacted|masked|omitted|filtered|protected|sensitive|secret|removed|private)$/i;
/**
 * A package's version or its resolution (yarn.lock's `cookie: "npm:0.6.0"`: a dependency named like a secret, adv16 M12), and a
 * request signature's digest (Slack's `v0=<hex>`, Stripe's `v1=`: adv16 M24, as `sha256=` is).
 */
const VERSION_OR_SIGNATURE = /^(?:(?:npm|workspace|patch|portal|link|file):[^\s]*|[~^]?\d+\.\d+(?:\.\d+)?(?:-[\w.]+)?|v\d=[0-9a-f]{32,})$/;

/**
 * Windows' and ASP.NET's setting words where a secret's name stands (adv145): unattend.xml's setup passes (`<settings
 * pass="specialize">`) and machineKey's `validationKey="AutoGenerate,IsolateApps"` (a key made at run time, not one written).
 */
const WINDOWS_SETTING_WORD = /^(?:windowsPE|offlineServicing|generalize|specialize|auditSystem|auditUser|oobeSystem|AutoGenerate(?:,Isolate(?:Apps|ByAppId))*)$/;

/**
 * Phrases dev chains print for their well-known test accounts (public, in their docs; not of a repeated byte, unlike the ones
 * isPhrase keeps by shape): Truffle's `truffle develop`, Ganache's `--deterministic`, Substrate's DEV_PHRASE (`//Alice`).
 */
export const DOCUMENTED_PHRASES = new Set([
  'candy maple cake sugar pudding cream honey rich smooth crumble sweet treat',
  'myth like bonus scare over problem client lizard pioneer submit female collect',
  'bottom drive obey lake curtain smoke basket hold race lonely fit walk',
]);

/** Is `value` (a context rule's match) a look-alike to keep visible? `password`: the key names a password. */
export function isLookAlike(value: string, password = false): boolean {
  const v = stripQuotes(value);
  if (v.length < 3 || WINDOWS_SETTING_WORD.test(v)) return true;
  if (v.startsWith('eyJ') && isPublicJwt(v)) return true;
  // A dev chain's published phrase under its name (Ganache's `Mnemonic:      myth like …`, a truffle-config's `MNEMONIC="candy …"`).
  if (v.length >= 50 && DOCUMENTED_PHRASES.has(v.trim())) return true;
  // A password may be a lowercase word; a token or a key never is.
  return ETHEREUM_PUBLIC.test(v) || CIPHERTEXT_OR_HMAC.test(v) || FCM_REGISTRATION_TOKEN.test(v) || IBM_API_KEY_ID.test(v) || RDP_SIGNED_STRING.test(v) || (!password && PROXMOX_TOKEN_ID.test(v)) || EXAMPLE.test(v) || DOCUMENTED_TEST_KEY.test(v) || isSecretLabel(v) || PUBLIC_OR_PLACEHOLDER.test(v) || REFERENCE.test(v) || OWN_MASK.test(v) || DIGEST.test(v) || PATH.test(v) || NUMBER.test(v) || (!password && (PROSE.test(v) || ISSUE_KEY.test(v) || SNAKE_WORDS.test(v))) || v.startsWith('[masked:') || TOOL_MASK.test(v) || VERSION_OR_SIGNATURE.test(v) || JVM_ARRAY_IDENTITY.test(v) || RDP_INTEGER.test(v) || SSH_KEY_TYPE.test(v) || SSH_PUBLIC_BLOB.test(v) || ARMOUR.test(v) || SECRET_TYPE.test(v) || CALL_OR_INDEX_HEAD.test(v) || ANGLE_PLACEHOLDER_HEAD.test(v) || TEST_MATCHER.test(v) || BOARD_PIN.test(v) || SIGNED_AT.test(v) || AGE_RECIPIENT.test(v);
}

/** An age recipient (`age1` and 58 of bech32: the public half; its secret is `AGE-SECRET-KEY-1…`), beside a sops file's value (pass 332 L25). */
const AGE_RECIPIENT = /^age1[qpzry9x8gf2tvdw0s3jn54khce6mua7l]{58}$/;

/**
 * An Ethereum address (20 bytes) or a signature (65 bytes: r, s, v) under a name that says secret: a deployment's `"Token":
 * "0xcc2d…"` (the token contract's address), an EIP-2612 permit's `"signature": "0x…"` (public in its transaction): adv192 L5, L16.
 * A private key is 32 bytes (64 hex digits).
 */
const ETHEREUM_PUBLIC = /^0x(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{130})$/;
/**
 * A ciphertext or an HMAC that stands where its secret would (pass 257 L4, L10, L17): Vault's audit log hashes every secret it
 * logs (`"client_token": "hmac-sha256:<64 hex>"`); Bitwarden's CLI stores each field encrypted (`"password": "2.<iv>|<ct>|<mac>"`);
 * an SSM SecureString read without `--with-decryption` is KMS' ciphertext blob (`AQICAHh…`). None signs in; the key that opens
 * them is elsewhere.
 */
const CIPHERTEXT_OR_HMAC = /^hmac-sha256:[0-9a-f]{64}$|^[0-6]\.[A-Za-z0-9+/]{22}==\|[A-Za-z0-9+/]{4,8192}={0,2}(?:\|[A-Za-z0-9+/]{43}=)?$|^AQI[BC]AH[A-Za-z0-9+/]{100,8192}={0,2}$/;
/**
 * A Firebase Cloud Messaging registration token (a device's address: 22 characters, `:APA91b`, ~140 more: pass 235 L3), under a
 * `token=` of a delivery log; the legacy server key that sends to it starts `AAAA` and has 11 characters before its colon.
 */
const FCM_REGISTRATION_TOKEN = /^[A-Za-z0-9_-]{22}:APA91b[A-Za-z0-9_-]{100,220}$/;
/**
 * A webhook signature header's timestamp part (`Mux-Signature: t=1733566811,v1=<hmac>`, Stripe's and Twilio's alike: pass 305
 * L14; Paddle's `ts=…;h1=…`: adv308 L9): a time, read as the header's value up to its comma.
 */
const SIGNED_AT = /^ts?=\d{9,13}$/;
/** A board's pin by its name (ESPHome's and Tasmota's `pin: GPIO4`, Zephyr's `P0.13`: pass 278 F9), under a `pin:` that is no PIN. */
const BOARD_PIN = /^(?:GPIO(?:_NUM_)?\d{1,2}|gpio\d{1,2}|P\d\.\d{1,2})$/;
/**
 * Lower-case words joined by `_` (`auth_token_path`, a parameter's name: click's `@click.option(\n "--token",\n "auth_token_path")`,
 * adv308 L1): a name in code, not a token's value; a password may be one.
 */
const SNAKE_WORDS = /^[a-z]{2,16}(?:_[a-z]{2,16}){1,5}$/;
/** An issue tracker's key (Jira's `PLAT-14160` under `ticket_key`, `issueKey`: adv245 L6); a password's name keeps its value a password. */
const ISSUE_KEY = /^[A-Z][A-Z0-9]{1,9}-\d{1,7}$/;
/** An IBM Cloud API key's id (`ApiKey-<uuid>`, in `ibmcloud iam api-keys` and its CRN: pass 233 L21); the key itself is 44 characters. */
const IBM_API_KEY_ID = /^ApiKey-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** An .rdp file's typed string setting of a long base64 (`signature:s:<the file's signature>`: adv197 L12); a password is `51:b:`. */
const RDP_SIGNED_STRING = /^s:[A-Za-z0-9+/]{100,}={0,2}$/;
/**
 * A Proxmox API token's id and its settings (user.cfg's `token:root@pam!terraform:0:0::`: adv194 L7); its secret is a UUID after `=`.
 * Not under a password's name: a person's `w@lnut!Pistachio130` has its shape (pass 256 F33).
 */
// (In lower case: `cascade@mail!Marigold36` under `SMTP_SECRET` is a person's password: adv263 P4.)
const PROXMOX_TOKEN_ID = /^[a-z0-9._-]{1,64}@[a-z0-9._-]{1,32}![a-z0-9._-]{1,64}(?::[^\s=]{0,256}(?: [^\s=]{1,64}){0,8}:?)?$/;

/** A JWT's three parts (the payload read back only for this shape). */
const JWT_PARTS = /^eyJ[A-Za-z0-9_-]{8,2048}\.(?<payload>eyJ[A-Za-z0-9_-]{8,4096})\.[A-Za-z0-9_-]{16,1024}$/;

/**
 * A JWT public by design: Supabase's anon key (`"role":"anon"`, `"iss":"supabase"` in its payload: shipped to every browser as
 * `NEXT_PUBLIC_SUPABASE_ANON_KEY`, beside its `service_role` key, which is a secret: adv154 F1, F2, F36).
 */
export function isPublicJwt(jwt: string): boolean {
  const m = JWT_PARTS.exec(jwt);
  if (!m) return false;
  const payload = Buffer.from(m.groups!.payload, 'base64url').toString('latin1');
  return /"role"\s*:\s*"anon"/.test(payload) && /"iss"\s*:\s*"supabase(?:-demo)?"/.test(payload);
}

/** A vendor rule's match that is a documentation example (`AKIAIOSFODNN7EXAMPLE`, `ghp_xxxxxxxx…`). */
export function isExampleToken(token: string): boolean {
  return /EXAMPLE/.test(token) || /(.)\1{11,}/.test(token) || DOCUMENTED_TEST_KEY.test(token) || PUBLIC_OR_PLACEHOLDER.test(token);
}

function stripQuotes(v: string): string {
  // Markdown's code span closing after the value (`` `…:_authToken=<your-token>` in your shell``: adv49 K09) is no part of it.
  if (v.length >= 2 && v[v.length - 1] === '`' && v[0] !== '`') v = v.slice(0, -1);
  return v.length >= 2 && (v[0] === '"' || v[0] === "'" || v[0] === '`') && v[v.length - 1] === v[0] ? v.slice(1, -1) : v;
}

/** A made word: no blank, 10 characters and up, three of lower case, upper case, digits and symbols; not JSON (a JWT's header). */
export function madeWord(v: string): boolean {
  if (v.length < 10 || /\s/.test(v) || /^[{[]/.test(v)) return false;
  return [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z\d]/].filter((c) => c.test(v)).length >= 3;
}

/** Shorter lines are not taken for a printed secret (`OK`, `none`): remembered for the session, a shorter value would mask ordinary words (as MIN_ENV_SECRET_LENGTH). */
export const MIN_PRINTED_CHARS = 6;

/**
 * A value that looks minted, not written (secret-printers.ts amongOthers, named-encodings.ts): one word, no path or URL, and mixed enough — three of lower case, upper
 * case, digits and symbols, or letters and digits over MINTED_ALNUM_CHARS (a base64 or hex token). A name (`DATABASE_URL`), a
 * version (`v20.11.1`), a path or a word is not.
 */
export function mintedWord(value: string, minMixed = MIN_MINTED_CHARS): boolean {
  if (/\s/.test(value) || NOT_MINTED.test(value) || value.length < MIN_PRINTED_CHARS) return false;
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z\d]/].filter((c) => c.test(value)).length;
  if (classes >= 3 && value.length >= minMixed) return true;
  if (classes < 2) return false;
  // Letters of both cases only: a random one changes case often (`HgOFjBqZxw`, a piece of `fold -w 10`), a name rarely (`JavaScript`).
  if (/^[A-Za-z]+$/.test(value)) return !CAMEL_CASE.test(value) && (value.match(/[a-z](?=[A-Z])|[A-Z](?=[a-z])/g) ?? []).length >= MIN_RANDOM_CASE_CHANGES;
  return /\d/.test(value) && /[A-Za-z]/.test(value) && value.length >= MINTED_ALNUM_CHARS;
}
/** Case changes in a word of letters, not camel case, that make it random-looking (`eRHGOrdFLY`: 3; `McDonald`: 2). */
const MIN_RANDOM_CASE_CHANGES = 3;
/** A name in camel or Pascal case (`getElementById`, `JavaScript`, `HTTPServer`): words, an acronym of a few letters, not a random mix (`DXXREHVLACkwGzeto`). */
const CAMEL_CASE = /^(?:[A-Z]{1,5}|[a-z]+)?(?:[A-Z][a-z]+)*[A-Z]{0,5}$/;
/**
 * An assignment (the scanner reads its value by its name), a path, a URL, a date or a time, a version, a word then a date or a
 * version (`release-2024.11.29`: adv110 L01): written, not minted. An
 * assignment's name is two characters and up, and a value follows its `=` (base64's padding, `U2VjcmV0MTIz=`, and a password
 * starting `N=` are values: adv76 F12).
 */
const NOT_MINTED = /^(?:[A-Z_][A-Z\d_]+=(?!=|$)|[.~]?\/|[a-z][\w+.-]*:\/\/|\d{4}-\d\d-\d\d|\d\d?:\d\d|v?\d+\.\d+(?:\.\d+)?(?:[-+.]|$)|[a-z]{2,16}[-_]v?\d{1,4}(?:[.-]\d{1,4}){1,3}$)/i;
/**
 * A mixed word this long: a password is (generators and policies ask 12 or more), a build tag or an id beside it rarely is
 * (`build-42`, `release_7B`); a shorter password among other lines is the price of not masking those.
 */
const MIN_MINTED_CHARS = 12;
/** A letters-and-digits word this long is a token's shape (a hex or lower-case base32 secret): shorter ones are ids and versions. */
const MINTED_ALNUM_CHARS = 20;

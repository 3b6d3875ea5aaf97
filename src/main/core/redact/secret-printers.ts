/**
 * Commands whose whole output is a credential: `gh auth token`, `aws configure get
 * aws_secret_access_key`, `vault read -field=password …`, `kubectl get secret … -o
 * jsonpath='{.data.x}' | base64 -d`, `pass show x`, `op read op://…`, `printenv GITHUB_TOKEN`, `xxd -p /run/secrets/db`,
 * `psql -Atc 'select password from …'`, `redis-cli HGET k refresh_token`, `buildkite-agent meta-data get db-password`, `aws redshift
 * get-cluster-credentials --output text`.
 * Their output is a bare value with nothing around it that says "secret" (the scanner reads
 * text, and a random string alone on a line is no secret by its shape), but the command line
 * says it: the hosts that know the command (sh_run's stream, the CLI run path, hooked runs) ask
 * here, and each value line of such a command's output is masked as `[masked: <kind> printed by
 * <tool>]` and remembered for the session. The raw bytes stay exact for the operator.
 */
import { pairColumns, pairedCellValues, queryCellValues, selectedColumns, selectedTitles, type PairColumns, type SelectedColumn } from './query-rows.js';
import { parseCommandLine, type SimpleCommand, type WordInfo } from '../router/parse.js';
import { basename } from '../router/wrappers.js';
import { SECRET_ENV_NAME } from './quick-check.js';
import { isSecretLabel, isLookAlike, isReference, MIN_PRINTED_CHARS, mintedWord } from './look-alikes.js';
import { isCookieSetting, isSecretName, MISH_NOTE_LINE, scanSecrets } from './scanner.js';
import { PRIVATE_KEY_FILE } from './private-keys.js';

/** awk by its names (the one-true-awk is `nawk` on the BSDs and macOS; Go's `goawk`): one constant, so every awk reader knows them all. */
const AWK = /^(?:awk|gawk|mawk|nawk|goawk)$/;

export interface SecretPrinter {
  /** What the value is: `token`, `password`, `secret`. */
  kind: string;
  /** The command as the mask names it: `gh auth token`, `vault read`. */
  tool: string;
  /**
   * A later stage of the pipeline transforms the value (`| rev`, `| xxd -p`, `| sed 's/./& /g'`):
   * its output carries the value in a shape no value test knows, so every line of it is the
   * credential (message or not), not only a line that is one word.
   */
  transformed?: boolean;
  /**
   * The output is a document or a table, and these fields of it are the new credential (`oci iam customer-secret-key create`'s
   * `"key"`, `twilio api:core:keys:create`'s `Secret` column): a field a name test would not take alone (`key`, `otp`).
   */
  fields?: string[];
  /** With `fields`: the output also ends in the value alone (`gcloud … --log-http` logs the response body, then prints the value). */
  alsoBare?: boolean;
  /**
   * Words of the command's query (a database client's `select …`): an output line made of these only, and of a table's rules, is
   * the result's column titles (`id | password`), kept and not remembered (a title `password` remembered would mask the word for the session).
   */
  keep?: string[];
  /** A query's select list (query-rows.ts): its rows read by column where they split into its cells, the others whole. */
  queryColumns?: { columns: SelectedColumn[] | '*'; isSecretTitle: (title: string) => boolean };
  /** A query of a settings table (query-rows.ts pairedCellValues): each row's value when its name is a secret's; `'*'`: the header's pair. */
  queryPairs?: PairColumns | '*';
  /** jq's entries listed by key (`to_entries[] | "\\(.key)\\t\\(.value)"`): each line's cells after a secret's key (keyedRowValues). */
  keyedRows?: boolean;
  /** jq's cookies, a line each (`name=value`, `{"name":…,"value":…}`): each line's value, a setting's kept (cookieLineValues). */
  cookieLines?: boolean;
  /** With amongOthers: the files were named by a glob; only the sections (`==> file <==`) of credentials files are read. */
  globbed?: boolean;
  /**
   * The output is names and values on alternate lines (redis-cli's `HGETALL`, `CONFIG GET`, raw): the line after a name that says
   * secret is a credential (pairValues).
   */
  pairs?: boolean;
  /**
   * The output is rows of cells, tab-separated (aws `--output text`) or `name = value` (elasticsearch-service-tokens), and these
   * cells of a row are credentials: each remembered alone too, besides the row (a status line shows the row cut, `last: "<the
   * password's start>…"`, where the row remembered is not found).
   */
  cells?: number[];
  /**
   * The printer is an echo of a secret variable among commands that print other lines (`cat .envrc; direnv allow; echo
   * $INTERNAL_API_TOKEN`: adv61 F12; `cut -d= -f1 .env; printf %s "$T" | fold -w 10`: adv59): which output lines are its is
   * not known, so only a line that is one minted-looking word (mintedWord) is taken for the value, and the other commands'
   * lines (names, paths, versions, messages) stay.
   */
  amongOthers?: boolean;
  /** A file's secret printed beside another command's lines of that file: its `name=value` lines are that command's, not the secret's. */
  besideSettings?: boolean;
  /** A printer's output beside another command's (`nextflow secrets list; nextflow secrets get X`): a constant's name is that command's. */
  besideOthers?: boolean;
  /** A loop's words an echo beside the printer prints before each value (`printf "%s " "$svc"; cat "secrets/${svc}_password"`). */
  loopLabels?: string[];
  /** Each line starts with the file's name and a separator (awk's `print FILENAME": "$2`). */
  fileNamed?: boolean;
  /**
   * With amongOthers: the lines are values of any settings (`cut -d= -f2- settings.txt`, `env | awk -F= …`), where commit SHAs,
   * UUIDs, hex ids and pods' names are as common as secrets: a value taken also mixes upper and lower case (a token, a password)
   * and is no UUID (adv82 L09, L10).
   */
  mixedCase?: boolean;
  /**
   * Other printers of the same line (`wg show wg0 preshared-keys; wg show wg0 private-key`: adv59 F18): their values are read
   * from the output too, each by its own printer's reading (a row's cells, a bare line).
   */
  also?: SecretPrinter[];
  /**
   * The output is a script that prints the credential (an askpass helper: `#!/bin/sh` then `echo '…'`: adv61 F26): the literal
   * its `echo` or `printf` line prints is the value; the rest of the script stays.
   */
  scriptEchoes?: boolean;
  /**
   * Each output line is a line of text written backwards (`rev config.txt`: adv76 F26): read forwards, what the scanner finds in
   * it (`SLACK_BOT_TOKEN=xoxb-…` from `…-bxox=NEKOT_TOB_KCALS`) is the value, backwards as printed.
   */
  reversedLines?: boolean;
  /**
   * Each output character is another's under a substitution (`tr 'A-Za-z' 'N-ZA-Mn-za-m'`, rot13: adv102 F10): `translated`
   * maps each printed character back. What the scanner finds in the text mapped back is the value, as printed.
   */
  translated?: ReadonlyMap<string, string>;
  /**
   * The output is a credentials file's rows of one known layout (CREDENTIAL_ROW_FILES): each row's group `v` is the credential;
   * a line of another shape (not blank, not a comment) is one whole. Ignored when a later stage transforms the output.
   */
  rows?: RegExp;
  /**
   * With `rows`: what a line tool puts before each row (grep's `file:` and `12:`, `file-` and `12-` on context lines): taken off
   * before the row is read.
   */
  rowPrefix?: RegExp;
  /**
   * The command decodes base64 (`… | base64 -d`, `b64decode(…)`, `atob`, `Buffer.from(…, 'base64')`) and prints nothing else known:
   * an output line that is `user:password` alone (Basic's decoded credentials, a docker `auth`, Python's `b'user:pw'`) has its
   * password taken (decodedPairValues); every other line stays.
   */
  decodedPairs?: boolean;
  /**
   * The command reads the text out of a binary (`strings -el NTUSER.DAT | grep -A1 DefaultPassword`: a registry value's name on a
   * line, its data on the next): a minted word under a line that is a secret's name alone is one (namedAboveValues).
   */
  namesAbove?: boolean;
  /** The command dumps a TDB database (`tdbdump secrets.tdb`): the `data(N) = "…"` under a `key(N) = "SECRETS/…"` naming a secret (tdbSecretValues). */
  tdbSecrets?: boolean;
}

/** The mask's kind for a value printed by `printer`. */
export function printedKind(printer: SecretPrinter): string {
  return `${printer.kind} printed by ${printer.tool}`;
}

/** An aws `--query` that picks a secret field: `Credentials.SecretAccessKey`, `SecretString`, `Parameter.Value`, `authorizationData[0].authorizationToken`. */
const AWS_SECRET_QUERY = /Plaintext|SecretAccessKey|SessionToken|SecretString|SecretBinary|Password|Secret|[Tt]oken|Parameters?(?:\[[^\]]*\])?\.Value|PrivateKey|AccessKey(?!Id)|KeyMaterial/;
/** A `--query` whose last field is metadata about a secret, not its value: `SecretList[].Name`, `ARN`, `Parameter.Version`. */
const AWS_METADATA_QUERY = /(?:Name|Names|ARN|Arn|Id|Ids|Date|Version|Type|Description|Tags?)\]?['"}\]]*$/;
/** An az `--query` whose last field is a secret's value: `value` (of a Key Vault secret), `primaryKey`, `[0].value` (of keys list), `accessToken`, a connection string. */
const AZ_SECRET_QUERY = /(?:^|[.\]])(?:value|primaryKey|secondaryKey|primaryMasterKey|key1|key2|accessToken|password|passwords\[\d*\]\.value|primaryConnectionString|connectionString)['"]?$/;
/** aws calls whose `--output text` rows hold a credential, by service: `redshift get-cluster-credentials`, `sso get-role-credentials`, … */
const AWS_TEXT_CREDENTIALS: Record<string, { calls: RegExp; cells: number[] }> = {
  // The text output's cells follow the fields' names sorted: `DbPassword`, `DbUser`, `Expiration` (adv22 F34).
  redshift: { calls: /^get-cluster-credentials(?:-with-iam)?$/, cells: [0] },
  'redshift-serverless': { calls: /^get-credentials$/, cells: [0] },
  // `ROLECREDENTIALS <accessKeyId> <expiration> <secretAccessKey> <sessionToken>`.
  sso: { calls: /^get-role-credentials$/, cells: [3, 4] },
  // `AUTHENTICATIONRESULT <AccessToken> <ExpiresIn> <IdToken> <RefreshToken> <TokenType>`.
  'cognito-idp': { calls: /^(?:admin-)?(?:initiate-auth|respond-to-auth-challenge)$/, cells: [1, 3, 4] },
  // `<authorizationToken> <expiration>`.
  codeartifact: { calls: /^get-authorization-token$/, cells: [0] },
};
/** A kubeconfig field that holds a credential: `token`, `client-key-data`, `password`, an auth provider's `id-token`/`access-token`. */
const KUBE_SECRET_FIELD = /token|client-key|password|secret|auth-provider/i;

/** A name (a config key, a field, a variable) that names a secret. */
const SECRET_FIELD = /pass(?:word|wd|phrase)?|secret|token|_auth|api[_-]?key|private[_-]?key|credential/i;

/** composer's auth sections (auth.json; `composer config` keys): a host's token, or a host's password / consumer secret. */
const COMPOSER_AUTH_KEY = /^(?:github-oauth|gitlab-oauth|gitlab-token|bearer|forgejo-token|http-basic|bitbucket-oauth)(?:\.|$)(?!.*\.(?:username|consumer-key)$)/;

/**
 * A file that holds one credential: a Docker / Compose / Kubernetes secret mount, or a name that says so (not `/etc/passwd`); a
 * `*creds` file (itch.io's `butler_creds`: its API key alone, pass 177 F38); a `*.pass` file (OpenVPN's `auth-user-pass` file: its
 * user, then its password: pass 181 F14).
 */
// (Ansible's `.vault_pass` / `vault_pass.txt`, Sui's `sui.keystore` of base64 keys: adv190 F22, adv192 F37.)
// A name ending in a password's word after a dot, with no extension after it (kopia's `repository.config.kopia-password`: pass 203).
// git-crypt's key (`.git/git-crypt/keys/default`, printed by `base64 -w0`: pass 257 F34); OpenVPN's `auth-user-pass` file as its
// guides name it (`auth.txt`, `vpn-auth.txt`: pass 259 F16); TestingBot's `~/.testingbot` (`<key>:<secret>`: pass 309 F30); an exchange's key file (krakenex's `kraken.key`, its key and secret bare on two lines: pass 317 F23).
const SECRET_FILE = /(?:^|\/)git-crypt\/keys\/[^/]+$|(?:^|\/)(?:[\w-]*[_-])?auth\.txt$|(?:^|\/)config\/(?:credentials\/[^/]+|master)\.key$|(?:^|\/)\.config\/solana\/[^/]+\.json$|(?:^|\/)(?:run\/secrets|\.?secrets)\/[^/]+$|[^/.]\.[^/.]*(?:passphrase|password)$|(?:^|\/)\.?[^/.]*(?:passphrase|password|secret|token|apikey|api_key|keyfile|creds|(?:session|signing|encryption|master|cookie|write|deploy|admin|webhook)[_-]?key)[^/.]*(?:\.(?:txt|key|bin|aes|secret))?$|\.psk$|(?:^|\/)identity\.secret$|(?:^|\/)[^/]+\.secret$|(?:^|\/)\.irodsA$|(?:^|\/)nodekey$|(?:^|\/)(?:privatekey|presharedkey|private\.key)$|(?:^|\/)\.erlang\.cookie$|\.sth$|(?:^|\/)[^/]+\.pass$|(?:^|\/)[^/]+\.pw$|(?:^|\/)[^/]*(?:recovery|backup)[_-]codes[^/]*$|(?:^|\/)\.?vault[_-]?pass(?:\.txt)?$|(?:^|\/)sui\.keystore$|(?:^|\/)(?:passwords|tokens)\.d\/[^/]+$|(?:^|\/)[^/]*cracked[^/]*$|(?:^|\/)[^/]+\.token$|(?:^|\/)sealer\.keys$|(?:^|\/)SerializedSystemIni\.dat$|(?:^|\/)\.?[^/.]*[-_](?:pass|pw|pwd)$|(?:^|\/)\.testingbot$|(?:^|\/)(?:kraken|binance|bitfinex|bitstamp|bybit|okx|kucoin|coinbase|gemini|exchange)[^/]*\.key$/i;

/** `john --show`'s row: the account, then its cracked password (the row's summary line, `2 password hashes cracked`, is none). */
const JOHN_SHOW_ROW = /^(?:\d+ password hash(?:es)? cracked\b[^\n]*|[^:\n]{1,256}:(?<v>[^:\n]{1,256})(?::|\r?$))/;
/** ejabberd's issued OAuth token: the row's first word, before its scopes. */
const EJABBERD_TOKEN_ROW = /^[ \t]*(?<v>[A-Za-z0-9_-]{16,256})[ \t]+(?:\[|[^\s@]{1,128}@)/;
/** A row of Samba's smbpasswd format: its LM hash (unless unset, `XXXX…`) and NT hash. */
const SMBPASSWD_ROW = /^[ \t]*[^\s:#]+:\d+:(?:X{32}:|NO PASSWORDX{21}:)?(?<v>(?:[0-9A-Fa-f]{32}:)?[0-9A-Fa-f]{32}):/;
/** The JDK's JMX agent's password file (CREDENTIAL_ROW_FILES). */
const JMX_PASSWORD_FILE = /(?:^|\/)jmxremote\.password$/;
/** A Java server's property file of users and their passwords (CREDENTIAL_ROW_FILES). */
const PROPERTY_USERS_FILE = /(?:^|\/)(?:[\w.]+-)?(?:users|realm)\.properties$/;

/** Mathematica's licence passwords (`~/.Mathematica/Licensing/mathpass`, CREDENTIAL_ROW_FILES). */
const MATHPASS_FILE = /(?:^|\/)mathpass$/;

/** A sed script that only prints lines as they are: `3p`, `2,4p`, `$p`, `/^Key:/p`, `5,$p` (the printer's `sed -n` reads). */
const SED_LINE_PICK = /^(?:(?:\d+|\$|\/[^/\n]{1,128}\/)(?:,(?:\d+|\$|\/[^/\n]{1,128}\/))?)?p$/;

/** A sed substitution with the `p` flag (`s/^Key: //p`, `s|^pw=||p`): with `-n`, only the lines it rewrote are printed. */
const SED_PRINTED_SUBSTITUTION = /^s([^\w\s\\])(?:(?!\1)[^\\\n]|\\.)*\1(?:(?!\1)[^\\\n]|\\.)*\1[gI0-9]*p[gI0-9]*$/;

/** Signal Desktop's `config.json` and its `"key": "<64 hex>"` row (CREDENTIAL_ROW_FILES; jq's output of it). */
const SIGNAL_CONFIG_FILE = /(?:^|\/)Signal(?: Beta)?\/config\.json$/;
/** Its path anywhere in a script's text. */
const SIGNAL_CONFIG_PATH = /(?:^|[\/'"])Signal(?: Beta)?\/config\.json(?![\w.])/;
const SIGNAL_CONFIG_ROW = /^(?:[ \t]*(?:"key"[ \t]*:[ \t]*)?"?(?<v>[0-9a-fA-F]{64})"?[ \t]*(?:,[ \t]*)?\r?|.*)$/;

/** dasel's options that take the next word (its file, formats, a value to put): no selector. */
const DASEL_VALUE_OPTIONS = new Set(['-f', '--file', '-r', '--read', '-w', '--write', '-p', '--parser', '-v', '--value', '-t', '--type', '-o', '--out', '-i', '--in', '--indent']);

/** chrony's and ntpd's symmetric keys file (`1 SHA1 HEX:<hex>`, `2 M <password>`: attack 323 read it with perl; RHEL's `/etc/ntp/keys`: adv333 S52). */
const NTP_KEYS_FILE = /(?:^|\/)(?:chrony|ntp)\.keys$|(?:^|\/)ntp\/keys$/;

/** Files whose every row is a credential (cat printer): see printerOf. */
const CREDENTIAL_ROWS_FILE = new RegExp(
  `(?:^|\\/)(?:develocity|enterprise)\\/keys\\.properties$|${NTP_KEYS_FILE.source}|(?:^|\\/)pgbouncer\\/userlist\\.txt$|(?:^|\\/)(?:sasl_passwd|rsyncd\\.secrets|passwd\\.client|ipsec\\.secrets)$|(?:^|\\/)settings-security\\.xml$|(?:^|\\/)davfs2\\/secrets$|(?:^|\\/)openvpn\\/(?:[^/]+\\/)*[^/]*(?:auth|pass|cred|login)[^/]*$|${JMX_PASSWORD_FILE.source}|${PROPERTY_USERS_FILE.source}|${MATHPASS_FILE.source}`,
  'i',
);

/**
 * A row of `wg show <if|all> dump` (the interface's name first with `all`): an interface's `private public port fwmark` (`v`), a
 * peer's `public preshared|(none) endpoint allowed-ips handshake rx tx keepalive` (`v2`).
 */
const WG_DUMP_ROW = /^(?:[\w.-]+\t)?(?:(?<v>[A-Za-z0-9+/]{43}=)\t[A-Za-z0-9+/]{43}=\t\d+\t\S+|[A-Za-z0-9+/]{43}=\t(?:\(none\)|(?<v2>[A-Za-z0-9+/]{43}=))(?:\t[^\t]*){6})[ \t]*$/;

/** The last words of names in a `secrets.yaml` that are no secret (`wifi_ssid`, `mqtt_user`, `home_latitude`, `kind`). */
const HA_PLAIN_WORDS = 'ssid|user(?:name)?|login|latitude|longitude|elevation|lat|lon|host(?:name)?|broker|server|port|url|e?mail|domain|ip|address|name|zone|id|unit_system|currency|country|language|location|city|kind|type|version';
/** A `secrets.yaml` line: a top-level lower-case name and its value (`v`, quoted or bare) unless its name ends in HA_PLAIN_WORDS; else kept. */
const HA_SECRETS_ROW = new RegExp(`^(?:(?!(?:[a-z][a-z0-9_-]*[_-])?(?:${HA_PLAIN_WORDS})[ \\t]*:)[a-z][a-z0-9_-]*[ \\t]*:[ \\t]+(?<q>["']?)(?<v>[^\\s"'#|>&*!](?:.*[^\\s"'])?)\\k<q>[ \\t]*\\r?|.*)$`);

/** An address then a block that substitutes and prints (`/^Key:/{s/^Key: //;p}`: adv289 F47). */
const SED_ADDRESSED_SUBSTITUTION = /^(?:\/[^/\n]{1,128}\/|\d{1,9}|\$)?[ \t]*\{[ \t]*s([^\w\s\\])(?:(?!\1)[^\\\n]|\\.)*\1(?:(?!\1)[^\\\n]|\\.)*\1[gI0-9]*[ \t]*;[ \t]*p[ \t]*;?[ \t]*\}$/;

/** Words a glob's wildcard is tried as: the names credentials files of a directory go by (`auth.txt`, `passwd`, `credentials`). */
const GLOB_FILLS = ['auth', 'pass', 'credentials', 'secret'];
/** A glob operand (`openvpn/client/*`) one of whose matches may be a credentials file of rows (CREDENTIAL_ROWS_FILE). */
function globMayNameCredentials(operand: string): boolean {
  if (!/[*?[]/.test(operand) || operand.length > 256) return false;
  return GLOB_FILLS.some((w) => {
    const file = operand.replace(/\*|\?|\[[^\]]*\]/g, w);
    return CREDENTIAL_ROWS_FILE.test(file);
  });
}

/** `secrets.yaml` named in a script's text. */
const HA_SECRETS_PATH = /(?:^|[\/'"\s(])secrets\.ya?ml(?![\w.])/;
/** A dict's or JSON object's entry on its line (`{'api_key_garage': '…',`, `  "ota_password": "…",`), its value `v` unless its name is a plain setting's. */
const HA_SECRETS_DICT_ROW = new RegExp(`^(?:[ \\t{]*(?<q>['"])(?!(?:[a-z0-9_-]*[_-])?(?:${HA_PLAIN_WORDS})\\k<q>)[a-z][a-z0-9_-]*\\k<q>[ \\t]*:[ \\t]*(?<r>['"])(?<v>[^'"\\n]+)\\k<r>[ \\t]*[,}]*[ \\t]*\\r?|.*)$`);

/**
 * Files of credentials in rows whose layout is known (the lead's check after session 26: `cat sasl_passwd` was masked whole, its
 * relay hosts and user names with the passwords): each row's password alone (`v`); a line of another shape, not a comment, whole.
 * `alone`: read only when the file is printed alone (beside other files its rows are left to the scanner, as before).
 */
const CREDENTIAL_ROW_FILES: readonly { file: RegExp; row: RegExp; alone?: boolean }[] = [
  // postfix's `[smtp.example.net]:587 user@example.net:password` (the password runs to the line's end, colons and all).
  { file: /(?:^|\/)sasl_passwd$/, row: /^[ \t]*\S+[ \t]+[^\s:]*:(?<v>\S(?:.*\S)?)[ \t]*$/ },
  // rsyncd's `user:password` (`@group:password`).
  { file: /(?:^|\/)rsyncd\.secrets$/, row: /^[ \t]*[^\s:]+:(?<v>\S(?:.*\S)?)[ \t]*$/ },
  // exim's `passwd.client`: `host:user:password` (`*.example.com:bob:pw`).
  { file: /(?:^|\/)passwd\.client$/, row: /^[ \t]*[^\s:]+:[^\s:]*:(?<v>\S(?:.*\S)?)[ \t]*$/ },
  // davfs2's `secrets`: `url-or-mountpoint user password` (the password may be quoted).
  { file: /(?:^|\/)davfs2\/secrets$/, row: /^[ \t]*\S+[ \t]+\S+[ \t]+"?(?<v>[^\s"](?:.*[^\s"])?)"?[ \t]*$/ },
  // pgbouncer's `userlist.txt`: `"user" "password-or-hash"` (an md5 or SCRAM verifier logs in to pgbouncer as the password does).
  { file: /(?:^|\/)pgbouncer\/userlist\.txt$/, row: /^[ \t]*"(?:[^"]|"")*"[ \t]+"(?<v>(?:[^"]|"")+)"/ },
  // An htpasswd file: `user:hash` rows stay, as /etc/shadow's do (`$apr1$…`, `$2y$…`, `{SHA}…`, a 13-character crypt); a row whose
  // value is none of those is a password in clear (Apache reads one so on Windows: 141 F33, `guest:Dragon2098-`).
  // Home Assistant's and ESPHome's `secrets.yaml`: `name: value` at the top level, each a secret the configuration reads by
  // `!secret name` — whatever its name says (`esphome_ota`, `router_pin`: adv144). Names of what is no secret stay (a Wi-Fi
  // ssid, a user, a place, a host, a port, an id; a Kubernetes manifest's `kind:`); other lines (indented, camelCase) are left
  // to the scanner, as every line is in another YAML file.
  { file: /(?:^|\/)secrets\.ya?ml$/, row: HA_SECRETS_ROW, alone: true },
  // A tool's `api-keys.yaml` (theHarvester's `apikeys:` / `hunter:` / `key: …`), grep's lines of it without the parent's name
  // (adv247 F36): every `key:`, `secret:`, `token:` value; other lines kept.
  // subfinder's `provider-config.yaml` (`shodan:` then `  - <key>`, a provider's keys as list items: adv253 F47).
  { file: /(?:^|\/)provider-config\.ya?ml$/i, row: /^(?:[ \t]*-[ \t]+(?<q>["']?)(?<v>[^\s"'#]{8,})\k<q>[ \t]*\r?|.*)$/ },
  { file: /(?:^|\/)api[_-]?keys\.ya?ml$/i, row: /^(?:[ \t]*(?:key|secret|token|api[_-]?key)[ \t]*:[ \t]+(?<q>["']?)(?<v>[^\s"'#]{8,})\k<q>[ \t]*\r?|.*)$/ },
  // Signal Desktop's `config.json`: its SQLCipher database key, `"key": "<64 hex>"` (a digest's shape: pass 259 F37); other lines
  // kept.
  // (jq's too, `jq . config.json` or `jq -r .key config.json`: the key alone on its line, quoted or bare.)
  { file: SIGNAL_CONFIG_FILE, row: SIGNAL_CONFIG_ROW },
  // BIND's HMAC key file (`K<name>.+163+<tag>.private`): its `Key:` line (`sed -n 3p`, `tail -n +3` of it: adv263 T2, T3).
  { file: /(?:^|\/)K[^/]*\.\+(?:157|16[1-5])\+\d{1,5}\.private$/, row: /^(?:Key:[ \t]+(?<v>[A-Za-z0-9+/]{8,1024}={0,2})[ \t]*\r?|.*)$/ },
  // Perforce's tickets file (`~/.p4tickets`, `p4tickets.txt` on Windows): `host:port=user:<32 hex>` (adv148 F28).
  { file: /(?:^|\/)\.?p4tickets(?:\.txt)?$/, row: /^[ \t]*[^\s=]+=[^\s:]*:(?<v>[0-9A-Fa-f]{32})[ \t]*\r?$/ },
  // hostapd's `wpa_psk_file`: `[keyid=… ][vlanid=… ]<station MAC> <64 hex or a passphrase>` rows (pass 224 F37).
  { file: /(?:^|\/)[^/]*\.wpa_psk$/, row: /^[ \t]*(?:(?:keyid|vlanid|wps|password)=\S+[ \t]+)*(?:[0-9A-Fa-f]{2}:){5}[0-9A-Fa-f]{2}[ \t]+(?<v>\S(?:.*\S)?)[ \t]*\r?$/ },
  // chrony's and ntpd's keys: `<id> [<type>] [HEX:|ASCII:]<key>` rows (attack 323); comments kept.
  { file: NTP_KEYS_FILE, row: /^(?:[ \t]*\d{1,10}[ \t]+(?:[A-Za-z][A-Za-z0-9-]{0,15}[ \t]+)?(?:HEX:|ASCII:)?(?<v>[^\s#]\S*)[ \t]*\r?|.*)$/ },
  // The JDK's JMX agent's `jmxremote.password`: `role  password` rows (adv172 F40).
  { file: JMX_PASSWORD_FILE, row: /^[ \t]*\S+[ \t]+(?<v>\S(?:.*\S)?)[ \t]*\r?$/ },
  // A Java server's property file of users (adv172 F29): ActiveMQ's and Karaf's `users.properties` (`user=password`, `user =
  // password,roles`), Artemis' `artemis-users.properties`, Jetty's `realm.properties` / `jetty-realm.properties` (`user: password,
  // role`; an `OBF:` password is reversible), WildFly's `mgmt-users.properties` / `application-users.properties` (`user=<HA1 hex>`,
  // which logs in by HTTP digest as the password does).
  { file: PROPERTY_USERS_FILE, row: /^[ \t]*[^\s=:#!]+[ \t]*[=:][ \t]*(?<v>[^\s,]+)(?:[ \t]*,.*)?[ \t]*\r?$/ },
  // Oxidized's `router.db` (its default CSV source: `name:model:username:password[:enable]`: pass 280 F38): the password and the
  // enable secret after it; a row of fewer fields (`name:model`) kept.
  { file: /(?:^|\/)router\.db$/, row: /^(?:[ \t]*[^\s:#][^\s:]*:[^\s:]+:[^\s:]*:(?<v>[^:\n\r]+(?::[^:\n\r]+)?)[ \t]*\r?|.*)$/ },
  // EZproxy's `user.txt`: `user:password[:admin]` rows, a `::Ticket` block's shared secret (`SHA512 <secret>`, `MD5 …`) and an LDAP
  // block's `BindPassword …`; its directives (`::CGI=…`, `TimeValid 10`, `IfUnauthenticated; Stop`) kept (pass 276 F23).
  { file: /(?:^|\/)user\.txt$/i, row: /^(?:[ \t]*(?:[^\s:#;/][^\s:]*:|(?:SHA(?:1|256|512)|MD5|BindPassword(?:[ \t]+-Obscure)?)[ \t]+)(?<v>[^\s:]+)(?::\S*)?[ \t]*\r?|.*)$/ },
  // Mathematica's `mathpass`: `<machine> <MathID> <password>` (pass 179; the password's `1234-567-890:2,0,8,8:80001:20270101`).
  { file: MATHPASS_FILE, row: /^[ \t]*\S+[ \t]+\S+[ \t]+(?<v>\S+)[ \t]*\r?$/ },
  // Symfony's secrets vault decryption key (`config/secrets/prod/prod.decrypt.private.php`: `return "\x2F\xCB…";`, pass 208 F36):
  // the key's bytes as a PHP string.
  { file: /\.decrypt\.private\.php$/, row: /^[ \t]*return[ \t]+(?<v>"[^"\n]{16,4096}"|'[^'\n]{16,4096}')[ \t]*;/ },
  // A password cracker's pot (hashcat's `hashcat.potfile`, john's `john.pot`: `<hash>:<plain>`, pass 206 F6): each
  // line whole: the password, and the hash, which for an NT hash signs in as the password does.
  { file: /(?:^|\/)(?:hashcat\.potfile|john\.pot|[^/]+\.pot(?:file)?)$/, row: /^(?:(?:\$NT\$)?31d6cfe0d16ae931b73c59d7e0c089c0:[^\n]*|(?<v>[^\n]{1,16384}?)[ \t]*\r?)$/i },
  // Samba's `smbpasswd` file (`user:uid:LM:NT:[flags]:LCT-…:`): the NT hash logs in as the password does (pass-the-hash), the LM
  // hash too where one is set (pass 202 F36); `pdbedit -L -w` prints the same rows (SMBPASSWD_ROW).
  { file: /(?:^|\/)smbpasswd$/, row: SMBPASSWD_ROW },
  { file: /(?:^|\/)\.?htpasswd(?:[._-][\w-]+)?$/, row: /^[ \t]*[^\s:]+:(?:(?:\$[\w.\/$=+-]+|\{S?SHA\}\S+|[.\/0-9A-Za-z]{13})[ \t]*$|(?<v>\S(?:.*\S)?)[ \t]*$)/, alone: true },
];

/** A row of `p4 tickets`: the server, the user in parentheses, the ticket. */
/** `mmctl token generate`'s line: the token (26 lower-case letters and digits, Mattermost's id shape), `:`, its description. */
const MMCTL_TOKEN_ROW = /^[ \t]*(?<v>[a-z0-9]{26}):(?:[ \t][^\n]*)?\r?$/;
const P4_TICKETS_ROW = /^[ \t]*\S+[ \t]+\([^)\s]{1,256}\)[ \t]+(?<v>[0-9A-Fa-f]{32})[ \t]*\r?$/;

/** Option `name` of argv (`-o x`, `-ox`, `--output=x`, `--output x`), or undefined. */
function option(argv: readonly string[], short: string | undefined, long: string): string | undefined {
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (a === `--${long}` || (short && a === `-${short}`)) return argv[i + 1] ?? '';
    if (a.startsWith(`--${long}=`)) return a.slice(long.length + 3);
    if (short && a.startsWith(`-${short}`) && !a.startsWith('--') && a.length > 2) return a.slice(2).replace(/^=/, '');
  }
  return undefined;
}

const has = (argv: readonly string[], ...flags: string[]) => argv.some((a) => flags.includes(a) || flags.some((f) => f.startsWith('--') && a.startsWith(`${f}=`)));
/** Options that take the next word as their value (`-n prod`, `--profile x`, aws' `--endpoint-url URL`: pass 257 F26): that word is no operand. */
const VALUE_FLAGS = new Set(['--endpoint-url', '--ca-bundle', '--cli-read-timeout', '--cli-connect-timeout', '-n', '--namespace', '--context', '--kubeconfig', '--cluster', '--user', '-l', '--selector', '-o', '--output', '--profile', '--region', '--project', '--subscription', '--vault-name', '--name', '--query', '-s', '-a', '--secret-id', '--account', '--app', '-R', '--repo', '--hostname', '-h', '--field', '--fields', '--vault', '--user-name', '--extract', '-C']);

/** The words that are not options (subcommands and operands). */
function operands(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (VALUE_FLAGS.has(a)) i++;
    else if (!a.startsWith('-')) out.push(a);
  }
  return out;
}

/** One command's argv (wrappers seen through; `words` as written, from argv[0] on): what it prints, if its output is a credential. */
function printerOf(argv: readonly string[], words: readonly WordInfo[] = []): SecretPrinter | undefined {
  const name = basename(argv[0] ?? '');
  const [sub, sub2, sub3] = operands(argv);
  switch (name) {
    // (wget fetches the same answers: the mask names the tool that ran.)
    case 'wget':
    case 'curl':
      // Cloudflare's token API: a token created (`POST …/user/tokens`: `result.value`) or rolled (`PUT …/tokens/<id>/value`: the
      // new token as `result`), under names the scanner reads as anything's (pass 232 F34).
      if (argv.some((a) => CLOUDFLARE_TOKEN_API.test(a))) return { kind: 'api token', tool: `${name} of Cloudflare's token API`, fields: ['result', 'value'] };
      // A search engine's key API (Meilisearch's `GET /keys` lists `"key": "<64 hex>"`, Typesense's `POST /keys` answers `"value":
      // "…"`: pass 284 F20, F23): the keys' fields, by the URL's path (`/keys`, `/keys/<uid>`), through a jq after it too.
      if (argv.some((a) => SEARCH_KEYS_API.test(a))) return { kind: 'api key', tool: `${name} of a search engine's key API`, fields: ['key', 'value'] };
      // Moonraker's key API (`GET /access/api_key` answers `{"result": "<32 hex>"}`, a printer's key under a word that says nothing:
      // pass 293 F10).
      return argv.some((a) => MOONRAKER_KEY_API.test(a)) ? { kind: 'api key', tool: `${name} of Moonraker's key API`, fields: ['result'] } : undefined;
    case 'gh':
      // `gh auth token` prints the token alone; `gh auth status -t` is text the scanner reads.
      return sub === 'auth' && sub2 === 'token' ? { kind: 'token', tool: 'gh auth token' } : undefined;
    case 'aws':
      if (sub === 'configure' && sub2 === 'get' && sub3 && SECRET_FIELD.test(sub3)) return { kind: 'secret', tool: 'aws configure get' };
      if (sub === 'ecr' && (sub2 === 'get-login-password' || sub2 === 'get-authorization-token')) return { kind: 'password', tool: `aws ecr ${sub2}` };
      // Its text output is one tab-separated row (ARN, date, name, the secret, the version: adv236 F50): the secret's field.
      if (sub === 'secretsmanager' && sub2 === 'get-secret-value' && option(argv, undefined, 'output') === 'text') return { kind: 'secret', tool: 'aws secretsmanager get-secret-value', rows: SECRETSMANAGER_TEXT_ROW };
      // Text output puts a list's values on one tab-separated line (`get-parameters-by-path --query 'Parameters[].Value'`): masked whole (transformed).
      if (sub === 'ssm' && /^get-parameters?(?:-by-path)?$/.test(sub2 ?? '') && has(argv, '--with-decryption') && option(argv, undefined, 'output') === 'text') return { kind: 'secret', tool: `aws ssm ${sub2}`, transformed: true };
      // `iam create-access-key --output text`: one row `ACCESSKEY <id> <date> <secret> Active <user>`.
      if (sub === 'iam' && sub2 === 'create-access-key' && option(argv, undefined, 'output') === 'text') return { kind: 'secret', tool: 'aws iam create-access-key', transformed: true };
      // The decrypted parameter as a document or a table (`--output table`: `||  Value  |  <secret>  ||`, the default JSON's
      // `"Value": "…"`: pass 233 F8): its `Value` field, whatever the parameter's name says; a secret's `SecretString` likewise.
      // A list's table (`get-parameters-by-path --output table`: a row a parameter under `ARN | … | Type | Value | Version`, pass
      // 257 F26): its `Value` column (query-rows.ts), the other columns kept; whole rows where no header is read.
      if (sub === 'ssm' && /^get-parameters(?:-by-path)?$/.test(sub2 ?? '') && has(argv, '--with-decryption') && option(argv, undefined, 'query') === undefined && option(argv, undefined, 'output') === 'table') return { kind: 'secret', tool: `aws ssm ${sub2}`, transformed: true, queryColumns: { columns: '*', isSecretTitle: (t) => t === 'Value' } };
      if (sub === 'ssm' && /^get-parameters?(?:-by-path)?$/.test(sub2 ?? '') && has(argv, '--with-decryption') && option(argv, undefined, 'query') === undefined) return { kind: 'secret', tool: `aws ssm ${sub2}`, fields: ['Value'] };
      if (sub === 'secretsmanager' && sub2 === 'get-secret-value' && option(argv, undefined, 'query') === undefined) return { kind: 'secret', tool: 'aws secretsmanager get-secret-value', fields: ['SecretString', 'SecretBinary'] };
      // Any call whose text output is a secret field picked by `--query` (`sts get-session-token --query Credentials.SecretAccessKey --output text`),
      // or the credentials `sts` hands out as one tab-separated text row (`sts assume-role --output text`).
      // `--query <secret field>` in any output mode (adv4 M14): the default JSON prints the value as one quoted word, `text` and
      // `table` print it in a row; masked whole either way. A query that ends in a name, an id or an ARN is metadata (`SecretList[].Name`).
      const query = option(argv, undefined, 'query') ?? '';
      if (AWS_SECRET_QUERY.test(query) && !AWS_METADATA_QUERY.test(query)) return { kind: 'secret', tool: `aws ${sub} ${sub2}`, transformed: true };
      if (option(argv, undefined, 'output') === 'text') {
        if (sub === 'sts' && /^(?:get-session-token|assume-role(?:-with-saml|-with-web-identity)?|get-federation-token)$/.test(sub2 ?? '')) return { kind: 'secret', tool: `aws sts ${sub2}`, transformed: true };
        // Other calls that hand out a credential, as tab-separated rows with no names (the JSON and YAML name their fields: the
        // scanner's): Redshift's temporary database password, first in its row (adv22 F34: `<password>\tIAM:etl\t<expiration>`),
        // SSO's role credentials, Cognito's tokens, CodeArtifact's token.
        const credentials = AWS_TEXT_CREDENTIALS[sub ?? ''];
        if (credentials?.calls.test(sub2 ?? '')) return { kind: 'secret', tool: `aws ${sub} ${sub2}`, transformed: true, cells: credentials.cells };
      }
      return undefined;
    case 'npm':
    case 'pnpm':
    case 'yarn':
      return sub === 'config' && sub2 === 'get' && sub3 && SECRET_FIELD.test(sub3) ? { kind: 'token', tool: `${name} config get` } : undefined;
    case 'gcloud':
      if (sub === 'auth' && /^print-(?:access|identity)-token$/.test(sub2 ?? '')) return { kind: 'token', tool: `gcloud auth ${sub2}` };
      if (sub === 'auth' && sub2 === 'application-default' && /^print-access-token$/.test(sub3 ?? '')) return { kind: 'token', tool: 'gcloud auth application-default print-access-token' };
      if (sub === 'secrets' && sub2 === 'versions' && sub3 === 'access') {
        // `--format=json|yaml|…` prints the version as a document, the value base64 in `payload.data` (adv21 F17); `value(…)` / `get(…)` bare.
        const format = option(argv, undefined, 'format') ?? '';
        if (/^(?:json|yaml|text|flattened|default|list|table|csv|diff)\b/.test(format)) return { kind: 'secret', tool: 'gcloud secrets versions access', fields: ['data', 'payload.data'] };
        // `--log-http` (adv24 F49): the response's body (`"payload": {"data": "<base64>"}`) is logged before the value is printed.
        if (has(argv, '--log-http')) return { kind: 'secret', tool: 'gcloud secrets versions access', fields: ['data', 'payload.data'], alsoBare: true };
        return { kind: 'secret', tool: 'gcloud secrets versions access' };
      }
      // `gcloud redis instances get-auth-string` (adv12 A19): `authString: <uuid>`, masked whole (a UUID alone is a look-alike).
      if (sub === 'redis' && argv.includes('get-auth-string')) return { kind: 'password', tool: 'gcloud redis instances get-auth-string', transformed: true };
      return undefined;
    case 'az': {
      // JSON (the default) names its fields (`"accessToken": …`): the scanner reads it. A bare value is `-o tsv` / `--output tsv`.
      const bare = /^(?:tsv|none)$/.test(option(argv, 'o', 'output') ?? '');
      if (sub === 'account' && sub2 === 'get-access-token' && bare) return { kind: 'token', tool: 'az account get-access-token' };
      if (sub === 'keyvault' && sub2 === 'secret' && sub3 === 'show' && bare) return { kind: 'secret', tool: 'az keyvault secret show' };
      // `--query` of a secret field in any output (adv13 B05: `az keyvault secret show … --query value` prints `"…"`), masked whole.
      if (AZ_SECRET_QUERY.test(option(argv, undefined, 'query') ?? '')) return { kind: 'secret', tool: `az ${operands(argv).slice(0, 3).join(' ')} --query`, transformed: true };
      // The secret as a document (`-o json|jsonc|yaml|yamlc`) or a table (`-o table`: a `Value` column, adv21 F18): its value field,
      // whatever the secret's name says (the scanner reads `"value"` beside a name that says key, not beside `prod-db`).
      if (sub === 'keyvault' && sub2 === 'secret' && sub3 === 'show' && option(argv, undefined, 'query') === undefined) return { kind: 'secret', tool: 'az keyvault secret show', fields: ['value', 'Value'] };
      // `az storage account keys list -o tsv`, `az cosmosdb keys list -o tsv`, `az … keys list -o table`: rows of `<date> key1 FULL <key>`, masked whole.
      const keysAt = argv.indexOf('keys');
      // `az functionapp keys list` (adv13 B04): JSON of `functionKeys` / `systemKeys` objects whose fields are names, not secrets' names.
      if (keysAt > 0 && argv[keysAt + 1] === 'list' && /^(?:functionapp|webapp)$/.test(sub ?? '')) return { kind: 'key', tool: `az ${sub} keys list`, transformed: true };
      if (keysAt > 0 && argv[keysAt + 1] === 'list' && /^(?:tsv|table)$/.test(option(argv, 'o', 'output') ?? '')) return { kind: 'key', tool: `az ${argv.slice(1, keysAt + 2).filter((a) => !a.startsWith('-')).join(' ')}`, transformed: true };
      return undefined;
    }
    case 'wp':
    case 'wp-cli':
    case 'wp-cli.phar':
      // WP-CLI's `wp config get DB_PASSWORD` (or AUTH_KEY, …) prints one wp-config.php constant bare; only a secret's name.
      // A key's or a salt's value holds blanks and symbols (`9AQMu!xy;…@ ?-j&Y0G`: pass 227 F4): its line is masked whole.
      if (sub === 'config' && sub2 === 'get' && sub3 !== undefined && (SECRET_FIELD.test(sub3) || SECRET_ENV_NAME.test(sub3) || /(?:KEY|SALT)$/i.test(sub3))) return { kind: 'secret', tool: 'wp config get', ...(/(?:KEY|SALT)$/i.test(sub3) ? { transformed: true } : {}) };
      // `wp user application-password create <user> <name> --porcelain` prints the new password alone (pass 227 F5).
      if (sub === 'user' && sub2 === 'application-password' && sub3 === 'create' && argv.includes('--porcelain')) return { kind: 'password', tool: 'wp user application-password create' };
      return undefined;
    // A new credential printed below prose (`New access token expires on …` then the token; balena's `Registered api key 'x':`
    // then the key and `This key will not be shown again`: adv143): the lines that are one minted word.
    case 'p4':
    case 'p4.exe': {
      // Perforce (adv148 F28, F29): `p4 login -p` prints the ticket alone on its line (after `Enter password:`), `p4 tickets` one
      // per row (`ssl:host:1666 (user) <32 hex>`). Global options (`-u user -p port`) come before the command.
      const at = argv.findIndex((a, i) => i > 0 && (a === 'login' || a === 'tickets'));
      if (at < 0) return undefined;
      if (argv[at] === 'tickets') return { kind: 'perforce ticket', tool: 'p4 tickets', rows: P4_TICKETS_ROW };
      return argv.slice(at + 1).includes('-p') ? { kind: 'perforce ticket', tool: 'p4 login -p', amongOthers: true } : undefined;
    }
    // Mattermost's `mmctl token generate <user> <description>` prints `<26-character token>: <description>` (pass 178 F15).
    case 'mmctl':
      return sub === 'token' && sub2 === 'generate' ? { kind: 'token', tool: 'mmctl token generate', rows: MMCTL_TOKEN_ROW } : undefined;
    case 'particle':
      return sub === 'token' && sub2 === 'create' ? { kind: 'token', tool: 'particle token create', amongOthers: true } : undefined;
    case 'balena':
      return sub === 'api-key' && sub2 === 'generate' ? { kind: 'api key', tool: 'balena api-key generate', amongOthers: true } : undefined;
    case 'heroku':
      if (sub === 'auth:token') return { kind: 'token', tool: 'heroku auth:token' };
      // `heroku config:get X` prints one config value bare; only a secret-named X is taken for a credential (a value is remembered
      // for the session: NODE_ENV's `production` would mask the word everywhere). DATABASE_URL-like values carry `://u:pw@`, read by the scanner.
      if (sub === 'config:get' && sub2 && (SECRET_FIELD.test(sub2) || SECRET_ENV_NAME.test(sub2) || /KEY(?:_BASE)?$/i.test(sub2))) return { kind: 'secret', tool: 'heroku config:get' };
      return undefined;
    case 'pulumi':
      // `pulumi config get dbPassword` prints a secret value decrypted; same rule as heroku config:get. `stack output X --show-secrets` too.
      if (sub === 'config' && sub2 === 'get' && sub3 && SECRET_FIELD.test(sub3)) return { kind: 'secret', tool: 'pulumi config get' };
      if (sub === 'stack' && sub2 === 'output' && sub3 && has(argv, '--show-secrets')) return { kind: 'secret', tool: 'pulumi stack output --show-secrets' };
      return undefined;
    case 'sops':
      // `sops -d --extract '["db"]["password"]' f`: one decrypted value (its lines masked whole). `sops -d f` prints the whole
      // decrypted file, keys and all: the scanner's key rules read it, so it is no printer.
      if ((has(argv, '-d', '--decrypt') || sub === 'decrypt') && option(argv, undefined, 'extract') !== undefined) return { kind: 'secret', tool: 'sops --extract', transformed: true };
      return undefined;
    case 'composer': {
      // `composer config -g github-oauth.github.com` (a read: one key, no value) prints the token alone; `composer config -g
      // github-oauth` prints `{"github.com":"gho_…"}` (one word). `composer config -l` prints `[key] value` rows the scanner reads.
      if (sub !== 'config' || has(argv, '--unset', '--list', '-l', '--editor', '-e')) return undefined;
      const keys = operands(argv).slice(1);
      return keys.length === 1 && COMPOSER_AUTH_KEY.test(keys[0]) ? { kind: 'token', tool: 'composer config' } : undefined;
    }
    case 'kubeadm':
      // A bootstrap token `abcdef.0123456789abcdef` alone (with `--print-join-command`, a `kubeadm join … --token X` line the command-line rule reads).
      return sub === 'token' && (sub2 === 'create' || sub2 === 'generate') ? { kind: 'token', tool: `kubeadm token ${sub2}`, transformed: has(argv, '--print-join-command') } : undefined;
    case 'docker':
      // `docker swarm join-token -q worker` prints the join token alone (without -q: a `docker swarm join --token SWMTKN-1-…` line, a vendor shape).
      if (sub === 'swarm' && sub2 === 'join-token' && has(argv, '-q', '--quiet')) return { kind: 'token', tool: 'docker swarm join-token -q' };
      // `docker swarm unlock-key [-q] [--rotate]` (adv4 M01): the swarm's key-encryption key `SWMKEY-1-…`; with -q alone, without it on
      // its own indented line after a sentence (the sentence has spaces: kept).
      return sub === 'swarm' && sub2 === 'unlock-key' ? { kind: 'key', tool: 'docker swarm unlock-key' } : undefined;
    case 'argocd':
      // The value, a blank line, then an advice sentence (spaces: kept).
      return sub === 'admin' && sub2 === 'initial-password' ? { kind: 'password', tool: 'argocd admin initial-password' } : undefined;
    case 'keepassxc-cli':
      // `show -s` reveals protected fields; with `-a Password` the value is alone on its line (without -a: `Password: …`, a key the scanner reads).
      return sub === 'show' && has(argv, '-s', '--show-protected') ? { kind: 'password', tool: 'keepassxc-cli show -s' } : undefined;
    case 'nmcli': {
      // `nmcli -s -g 802-11-wireless-security.psk connection show X`: the Wi-Fi key bare (`-g` prints values without names).
      const fields = option(argv, 'g', 'get-values') ?? '';
      // `-g` prints values only, one a line: each line is masked whole (a passphrase may have blanks: adv28 F31).
      return has(argv, '-s', '--show-secrets') && /psk|password|secret|wep-key|pin/i.test(fields) ? { kind: 'password', tool: 'nmcli -s -g', transformed: true } : undefined;
    }
    case 'git': {
      // A secret file as it was in a commit (`git show 7c1d9e0^:config/credentials/production.key`, `git cat-file -p HEAD:.env.key`:
      // adv31 F12): a secret file's printer, as `cat` of it is.
      if (sub === 'show' || sub === 'cat-file') {
        const files = argv.slice(argv.indexOf(sub) + 1).flatMap((a) => (!a.startsWith('-') && a.includes(':') ? [a.slice(a.indexOf(':') + 1)] : []));
        return files.length > 0 && files.some((f) => SECRET_FILE.test(f)) ? { kind: 'secret', tool: `git ${sub} of a secret file` } : undefined;
      }
      // `git config --get sendemail.smtppass`, `git config credential.x.password`: the value alone.
      if (sub !== 'config') return undefined;
      const words: string[] = [];
      for (let i = argv.indexOf('config') + 1; i < argv.length; i++) {
        if (/^(?:-f|--file|--blob|--type|--default)$/.test(argv[i])) i++;
        else if (!argv[i].startsWith('-')) words.push(argv[i]);
      }
      // One operand (a read; `git config k v` sets), its last part naming a secret.
      const key = words.length === 1 ? words[0] : undefined;
      return key && /pass|secret|token|(?:api|access|private)[_-]?key/i.test(key.split('.').pop() ?? '') && !has(argv, '--list', '-l', '--unset', '--unset-all', '--edit', '-e', '--add', '--replace-all') ? { kind: 'password', tool: 'git config --get' } : undefined;
    }
    case 'occ':
    case 'php':
    case 'console':
    case 'symfony': {
      // `php artisan key:generate --show`: Laravel's APP_KEY (`base64:…`) alone.
      if (name === 'php' && sub === 'artisan' && sub2 === 'key:generate' && has(argv, '--show')) return { kind: 'key', tool: 'php artisan key:generate --show' };
      // Nextcloud's `occ config:system:get dbpassword` (`redis password`, `secret`, `passwordsalt`; `config:app:get APP KEY`): one
      // setting's value bare (adv168 F7).
      const occ = name === 'occ' ? operands(argv) : sub === 'occ' ? operands(argv).slice(1) : undefined;
      if (occ && /^config:(?:system|app):get$/.test(occ[0] ?? '') && occ.slice(1).some((k) => SECRET_FIELD.test(k) || /salt$/i.test(k))) return { kind: 'secret', tool: `occ ${occ[0]}` };
      // Symfony's vault (M17): `secrets:reveal NAME` prints the value bare; `secrets:list --reveal` a `Secret  Value  Local Value` table,
      // every line masked whole (the names go with them: the table is the secrets).
      const ops = operands(argv);
      if (ops.includes('secrets:reveal')) return { kind: 'secret', tool: 'symfony secrets:reveal' };
      if (ops.includes('secrets:list') && has(argv, '--reveal', '-r')) return { kind: 'secret', tool: 'symfony secrets:list --reveal', transformed: true };
      return undefined;
    }
    case 'vault':
    case 'bao': {
      // Vault's flags take one dash or two: `-field=password`, `--field password`.
      const field = argv.some((a) => /^--?field(?:=|$)/.test(a));
      if (field && /^(?:read|kv|write|token|login)$/.test(sub ?? '')) return { kind: 'secret', tool: `${name} ${sub} -field` };
      if (sub === 'print' && sub2 === 'token') return { kind: 'token', tool: `${name} print token` };
      // A dynamic SSH one-time password (`vault write ssh/creds/<role> ip=…`: its `key` row) and a root token's OTP
      // (`vault operator generate-root -init`: its `OTP` row): adv19 F02, F03.
      if (sub === 'write' && /^ssh[\w-]*\/creds\//.test(sub2 ?? '')) return { kind: 'one-time password', tool: `${name} write ssh/creds`, fields: ['key'] };
      if (sub === 'operator' && sub2 === 'generate-root' && has(argv, '-init', '--init')) return { kind: 'one-time password', tool: `${name} operator generate-root -init`, fields: ['OTP'] };
      return undefined;
    }
    case 'oci':
      // A new S3-compatible secret key (`oci iam customer-secret-key create`: `"key": "…"`, adv19 F14), an auth token's `"token"`.
      if (sub === 'iam' && /^(?:customer-secret-key|auth-token|smtp-credential)$/.test(sub2 ?? '') && sub3 === 'create') return { kind: 'secret', tool: `oci iam ${sub2} create`, fields: ['key', 'token', 'password'] };
      return undefined;
    case 'appcenter':
      // `appcenter codepush deployment list -k` (`--displayKeys`): a box table of deployments with each one's deployment key in its
      // `Key` column (pass 134 F29); the key lets anyone push or query the app's updates.
      return sub === 'codepush' && sub2 === 'deployment' && sub3 === 'list' && has(argv, '-k', '--displayKeys') ? { kind: 'deployment key', tool: 'appcenter codepush deployment list', fields: ['Key'] } : undefined;
    case 'headscale':
      // `headscale preauthkeys list` / `create` (adv143): a table whose `Key` column is each pre-auth key (48 hex digits: a node
      // joins the tailnet with it); `create` prints the key alone.
      if (sub === 'preauthkeys' && sub2 === 'list') return { kind: 'pre-auth key', tool: 'headscale preauthkeys list', fields: ['Key', 'key'] };
      if (sub === 'preauthkeys' && sub2 === 'create') return { kind: 'pre-auth key', tool: 'headscale preauthkeys create', amongOthers: true };
      return undefined;
    case 'twilio':
      // `twilio api:core:keys:create` (adv19 F16): the new key's `Secret` column (a table with no rule under its titles).
      return sub === 'api:core:keys:create' ? { kind: 'secret', tool: 'twilio api:core:keys:create', fields: ['Secret', 'secret'] } : undefined;
    case 'kubectl':
    case 'oc': {
      // A Secret's values through a template: `-o jsonpath='{.data.password}'` (base64) or decoded by a later `base64 -d`.
      if ((sub === 'get' || sub === 'create') && /^secrets?(?:\/|$)/.test(sub === 'get' ? (sub2 ?? '') : sub2 ?? '')) {
        const out = option(argv, 'o', 'output') ?? '';
        // Several values on a line (`{.data.*}`, a `range`, two fields: adv120 F28's base64 words, blank-separated): each line whole.
        if (/^(?:jsonpath|go-template|template)/.test(out)) return { kind: 'secret', tool: `${name} ${sub} secret`, ...(/\*|\brange\b|\}[^{}]*\{/.test(out) ? { transformed: true } : {}) };
        // `-o custom-columns=NAME:.metadata.name,TOKEN:.data.token` (adv8 A01): a table whose column holds a value, under a header in
        // capitals and no rule (no table form the scanner knows). Its rows are masked whole (the name beside the value with it).
        if (/^custom-columns(?:-file)?=/.test(out) && /\.(?:data|stringData)\b/.test(out)) return { kind: 'secret', tool: `${name} get secret -o custom-columns`, transformed: true };
      }
      if (sub === 'create' && sub2 === 'token') return { kind: 'token', tool: `${name} create token` };
      // OpenShift's `oc whoami -t` / `--show-token` prints the session's bearer token (`sha256~…`) alone.
      if (name === 'oc' && sub === 'whoami' && has(argv, '-t', '--show-token')) return { kind: 'token', tool: 'oc whoami -t' };
      // The krew plugin `kubectl view-secret NAME [KEY]` (M16): a key's value decoded, bare (all keys: `key='value'` lines, one word each).
      if (sub === 'view-secret') return { kind: 'secret', tool: `${name} view-secret` };
      // The kubeconfig's credentials through a template: `config view --raw -o jsonpath='{.users[0].user.token}'` (without --raw they print REDACTED/DATA+OMITTED).
      if (sub === 'config' && sub2 === 'view' && has(argv, '--raw')) {
        const out = option(argv, 'o', 'output') ?? '';
        if (/^(?:jsonpath|go-template|template)/.test(out) && KUBE_SECRET_FIELD.test(out + argv.join(' '))) return { kind: 'credential', tool: `${name} config view --raw` };
      }
      return undefined;
    }
    case 'pass':
    case 'gopass':
      // `pass show x`, `pass x` (show is the default), not `pass ls`, `pass insert`, `pass git …`.
      if (sub === 'show' || (sub !== undefined && sub2 === undefined && !/^(?:ls|list|find|search|grep|insert|add|edit|generate|rm|mv|cp|git|init|help|version|otp|sync|setup)$/.test(sub))) return { kind: 'password', tool: `${name} show` };
      return undefined;
    case 'op':
      if (sub === 'read') return { kind: 'secret', tool: 'op read' };
      // `--fields` prints the fields' values bare: with `--reveal`, or (op before 2.20 printed concealed fields without it) when
      // a field is named as a secret (`--fields password`, `label=credential`: session 42's final attack).
      // (op 1's `op get item X --fields password` too; a field's label with blanks, `label=license key`: adv253 F18, F19.)
      if ((sub === 'item' && sub2 === 'get') || (sub === 'get' && sub2 === 'item')) {
        const fields = option(argv, undefined, 'fields');
        if (fields !== undefined && (has(argv, '--reveal') || fields.split(',').some((f) => isSecretName(f.replace(/^(?:label|type)=/, '').trim().replace(/[ \t]+/g, '_'))))) return { kind: 'secret', tool: 'op item get --fields' };
      }
      return undefined;
    case 'plesk':
      // `plesk bin admin --show-password` prints the admin's password alone; `plesk bin secret_key --create` a new API key (adv199 F16, F17).
      if (sub === 'bin' && sub2 === 'admin' && has(argv, '--show-password')) return { kind: 'password', tool: 'plesk bin admin --show-password' };
      return sub === 'bin' && sub2 === 'secret_key' && has(argv, '--create', '-create') ? { kind: 'api key', tool: 'plesk bin secret_key --create' } : undefined;
    case 'appcmd':
    case 'appcmd.exe': {
      // IIS' `appcmd list apppool "<pool>" /text:processModel.password` (adv193 F36): one attribute's value alone, a secret's by its name.
      const attribute = argv.find((a) => /^[/-]text:/i.test(a))?.slice(6) ?? '';
      return isSecretName(attribute.split('.').pop() ?? '') ? { kind: 'password', tool: `appcmd /text:${attribute}` } : undefined;
    }
    case 'security':
      return /^find-(?:generic|internet)-password$/.test(sub ?? '') && has(argv, '-w') ? { kind: 'password', tool: `security ${sub} -w` } : undefined;
    case 'secret-tool':
      return sub === 'lookup' ? { kind: 'secret', tool: 'secret-tool lookup' } : undefined;
    case 'bw':
      return sub === 'get' && (sub2 === 'password' || sub2 === 'totp' || sub2 === 'notes') ? { kind: 'password', tool: `bw get ${sub2}` } : undefined;
    case 'lpass':
      return sub === 'show' && has(argv, '--password') ? { kind: 'password', tool: 'lpass show --password' } : undefined;
    case 'doppler':
      return sub === 'secrets' && sub2 === 'get' && has(argv, '--plain') ? { kind: 'secret', tool: 'doppler secrets get --plain' } : undefined;
    case 'terraform':
    case 'tofu':
      // `terraform output -raw db_password`: a sensitive output printed bare; only when its name says so.
      if (sub === 'output' && has(argv, '-raw', '--raw') && sub2 && SECRET_FIELD.test(sub2)) return { kind: 'secret', tool: `${name} output -raw` };
      // `terraform output [-json] db_password` prints a sensitive output named on the line, quoted (adv21 F50: a named output; its `to_entries` listing of them all is the scanner's, name TAB value).
      return sub === 'output' && sub2 && SECRET_FIELD.test(sub2) ? { kind: 'secret', tool: `${name} output`, transformed: true } : undefined;
    case 'xmllint': {
      // `xmllint --xpath 'string(//server[id="nexus"]/password)' settings.xml` (adv41 F48): one element's text, bare.
      const xpath = option(argv, undefined, 'xpath') ?? '';
      return SECRET_FIELD.test(xpath) ? { kind: 'secret', tool: 'xmllint --xpath', transformed: true } : undefined;
    }
    case 'xmlstarlet':
    case 'xml': {
      // `xmlstarlet sel -t -v '//add[@key="ApiSecret"]/@value' web.config` (attack 323): each `-v` expression's value, bare, as
      // xmllint's `--xpath` (`xml` is its name in some distributions).
      if (sub !== 'sel' && sub !== 'select') return undefined;
      const values = argv.filter((_, i) => argv[i - 1] === '-v' || argv[i - 1] === '--value-of');
      return values.some((x) => SECRET_FIELD.test(x)) ? { kind: 'secret', tool: `${name} sel -v`, transformed: true } : undefined;
    }
    case 'dasel': {
      // `dasel -f config.yaml smtp.password`, `dasel -f c.toml -r toml '.smtp.password'`, `-s`/`--selector` (attack 323): one node's
      // value, bare (quoted in TOML's output), when the selector's last key names a secret.
      let selector = option(argv, 's', 'selector');
      for (let i = 1; i < argv.length && selector === undefined; i++) {
        if (DASEL_VALUE_OPTIONS.has(argv[i])) i++;
        else if (!argv[i].startsWith('-') && !/^(?:select|put|delete|query)$/.test(argv[i])) selector = argv[i];
      }
      const last = (selector ?? '').split(/[.[\]'"()]+/).filter(Boolean).pop() ?? '';
      return SECRET_FIELD.test(last) ? { kind: 'secret', tool: 'dasel', transformed: true } : undefined;
    }
    case 'consul':
      // `consul keygen` (adv4 M02): a gossip encryption key, bare base64. `consul kv get app/db_password` (M11): a value, when its key names a secret.
      if (sub === 'keygen') return { kind: 'key', tool: 'consul keygen' };
      return sub === 'kv' && sub2 === 'get' && sub3 !== undefined && SECRET_FIELD.test(sub3.split('/').pop() ?? '') ? { kind: 'secret', tool: 'consul kv get' } : undefined;
    case 'wg':
      // WireGuard (M03): `wg genkey`, `wg genpsk`, `wg show wg0 private-key` / `preshared-keys` print keys bare (`wg pubkey` a public one).
      if (sub === 'genkey' || sub === 'genpsk') return { kind: 'key', tool: `wg ${sub}` };
      // `wg show wg0 dump` (adv13 B27): tab-separated rows, the private key and each peer's preshared key among them.
      // Its rows' private and preshared keys alone (adv143 F48: the public keys, endpoints and counters were masked with them).
      if (sub === 'show' && argv.includes('dump')) return { kind: 'key', tool: 'wg show dump', rows: WG_DUMP_ROW };
      if (sub === 'showconf') return { kind: 'key', tool: 'wg showconf', transformed: true };
      // `preshared-keys` prints a row a peer: its public key, a tab, the key (adv59 F18): the second cell.
      if (sub === 'show' && operands(argv).includes('preshared-keys')) return { kind: 'key', tool: 'wg show preshared-keys', cells: [1] };
      return sub === 'show' && operands(argv).includes('private-key') ? { kind: 'key', tool: 'wg show private-key' } : undefined;
    case 'conjur':
      // CyberArk Conjur's CLI (adv61 F21): `conjur variable get -i prod/db/password` prints the value alone.
      return sub === 'variable' && sub2 === 'get' ? { kind: 'secret', tool: 'conjur variable get' } : undefined;
    case 'keyctl':
      // The kernel keyring (adv61 F22): `keyctl print %user:deploy-token` / `keyctl pipe <id>` print a key's payload.
      return sub === 'print' || sub === 'pipe' ? { kind: 'secret', tool: `keyctl ${sub}` } : undefined;
    case 'rbw':
      // Bitwarden's rbw (M04): `rbw get NAME` prints the password (with --full, the password then `Field: value` lines the scanner reads).
      return sub === 'get' ? { kind: 'password', tool: 'rbw get' } : undefined;
    case 'keyring':
      // python keyring's CLI (M05): `keyring get SERVICE USER`.
      return sub === 'get' ? { kind: 'password', tool: 'keyring get' } : undefined;
    case 'rclone':
      // `rclone reveal OBSCURED` (M06): the plain password of a config's obscured one.
      return sub === 'reveal' ? { kind: 'password', tool: 'rclone reveal' } : undefined;
    case 'age':
    case 'rage':
      // `age -d [-i key] FILE` to stdout (M07): the decrypted file (a password, a .env: its one-word lines). With -o, to a file.
      return has(argv, '-d', '--decrypt') && option(argv, 'o', 'output') === undefined ? { kind: 'secret', tool: `${name} -d` } : undefined;
    case 'gpg':
    case 'gpg2':
      // `gpg -d ~/.password-store/x.gpg` (M08: what `pass show` runs) or a file whose name says it holds a credential; to stdout.
      return argv.some((a) => a === '--decrypt' || /^-[a-zA-Z]*d[a-zA-Z]*$/.test(a)) && option(argv, 'o', 'output') === undefined && operands(argv).some((a) => /password-store\/|(?:pass(?:word|wd)?|secret|token|cred)[^/]*\.(?:gpg|asc|pgp)$/i.test(a))
        ? { kind: 'password', tool: `${name} -d` }
        : undefined;
    case 'systemd-creds':
      // `systemd-creds decrypt IN [-]` (M09: no output file, or `-`, is stdout) and `systemd-creds cat NAME` print the credential.
      if (sub === 'cat') return { kind: 'secret', tool: 'systemd-creds cat' };
      return sub === 'decrypt' && (argv.includes('-') || operands(argv).length <= 2) ? { kind: 'secret', tool: 'systemd-creds decrypt' } : undefined;
    case 'magento':
      // `bin/magento config:show <path>` of one setting prints its value alone (pass 221 F3); of all, `path - value` lines (the scanner's).
      return sub === 'config:show' && argv[2] !== undefined && SECRET_FIELD.test(argv[2].split('/').pop() ?? '') ? { kind: 'secret', tool: 'magento config:show' } : undefined;
    case 'jupyterhub':
      // `jupyterhub token USER` prints a new API token alone on its line (blind pass 216 F10).
      return sub === 'token' ? { kind: 'token', tool: 'jupyterhub token' } : undefined;
    case 'nextflow':
      // `nextflow secrets get NAME` prints the secret's value (pass 216 F34); `secrets list`, the names.
      return sub === 'secrets' && argv[2] === 'get' ? { kind: 'secret', tool: 'nextflow secrets get' } : undefined;
    case 'infisical':
      // `infisical secrets get NAME --plain` (M10): the value alone (without --plain, a table the scanner may not read: taken too).
      if (sub === 'secrets' && sub2 === 'get') return { kind: 'secret', tool: 'infisical secrets get', transformed: !has(argv, '--plain', '--raw') };
      // `infisical secrets` lists the environment's secrets in a box table, their values under SECRET VALUE (adv59 F16).
      return sub === 'secrets' && (sub2 === undefined || sub2.startsWith('-')) ? { kind: 'secret', tool: 'infisical secrets', fields: ['SECRET VALUE'] } : undefined;
    case 'salt-call':
    case 'salt': {
      // `salt-call pillar.get db:password` (M12): `local:` then the value indented under it (printedValue skips the `local:` label).
      const fn = operands(argv).findIndex((a) => /^(?:pillar\.get|pillar\.item|config\.get)$/.test(a));
      const key = fn >= 0 ? operands(argv)[fn + 1] : undefined;
      return key !== undefined && SECRET_FIELD.test(key.split(':').pop() ?? '') ? { kind: 'secret', tool: `${name} pillar.get` } : undefined;
    }
    case 'netlify':
      // `netlify env:get SESSION_SECRET` (M13): same rule as heroku config:get.
      return sub === 'env:get' && sub2 && (SECRET_FIELD.test(sub2) || SECRET_ENV_NAME.test(sub2) || /KEY(?:_BASE)?$/i.test(sub2)) ? { kind: 'secret', tool: 'netlify env:get' } : undefined;
    case 'microk8s':
      // `microk8s add-node` (adv4 X05): join commands whose URL path holds the token (`microk8s join 10.0.0.5:25000/<token>/<hash>`);
      // its lines are masked whole (the advice sentences with them).
      return sub === 'add-node' ? { kind: 'token', tool: 'microk8s add-node', transformed: true } : undefined;
    case 'borg':
      // `borg key export REPO [-]` (adv4 X07): the repository key (`BORG_KEY <id>` then base64 lines) to stdout when no file is named.
      return sub === 'key' && sub2 === 'export' && operands(argv).filter((a) => a !== '-').length <= 3 ? { kind: 'key', tool: 'borg key export', transformed: true } : undefined;
    case 'airflow':
      // `airflow config get-value core fernet_key` (adv20 F30): one setting's value alone.
      return sub === 'config' && sub2 === 'get-value' && sub3 !== undefined && (SECRET_FIELD.test(operands(argv)[3] ?? '') || /fernet_key|sql_alchemy_conn|secret/.test(operands(argv)[3] ?? '')) ? { kind: 'secret', tool: 'airflow config get-value' } : undefined;
    case 'elasticsearch-keystore':
    case 'opensearch-keystore':
      // `bin/elasticsearch-keystore show <setting>` (adv20 F43): the secure setting's value alone.
      return sub === 'show' ? { kind: 'secret', tool: `${name} show` } : undefined;
    case 'mix':
      // `mix phx.gen.secret`: a generated secret_key_base.
      return sub === 'phx.gen.secret' ? { kind: 'secret', tool: 'mix phx.gen.secret' } : undefined;
    case 'dotenvx':
      // `dotenvx get NAME` (adv15 D13): the decrypted value alone (without a name, a JSON document the scanner reads).
      return sub === 'get' && sub2 !== undefined && isSecretVariable(sub2) ? { kind: `$${sub2} value`, tool: 'dotenvx get' } : undefined;
    case 'rails':
    case 'rake':
      // `rails secret` / `rake secret`: a generated secret_key_base (128 hex).
      if (sub === 'secret') return { kind: 'secret', tool: `${name} secret` };
      // `rails credentials:fetch smtp.password` (Rails 7.1+, adv27 F43): one credential's value alone, when its key names a secret.
      return sub === 'credentials:fetch' && sub2 !== undefined && (SECRET_FIELD.test(sub2.split('.').pop() ?? '') || /(?:key|key_base)$/i.test(sub2)) ? { kind: 'secret', tool: 'rails credentials:fetch' } : undefined;
    case 'printenv': {
      // Several names (`printenv TESTMO_URL TESTMO_TOKEN`: pass 309 F22): a line a set name's value, in their order; a secret's
      // among others is read as a minted word (a URL's line stays).
      const names = operands(argv);
      if (names.length > 1) return names.some(isSecretVariable) ? { kind: 'secret', tool: 'printenv', ...(names.every(isSecretVariable) ? {} : { amongOthers: true }) } : undefined;
      return sub !== undefined && isSecretVariable(sub) ? { kind: `$${sub} value`, tool: 'printenv' } : undefined;
    }
    case 'echo':
    case 'printf':
    case 'print':
      return echoedSecret(name, words);
    case 'cat':
    case 'head':
    case 'tail':
    case 'less':
    case 'more':
    case 'bat':
    case 'batcat':
    case 'nl':
      // A credential file's bytes counted off (`tail -c 120 .env`: adv159 F45): its first (or last) line is a piece of a line, a
      // value's end with no name before it; its minted words only (amongOthers: the whole lines are assignments, which the
      // scanner reads).
      if ((name === 'tail' || name === 'head') && argv.some((a) => /^-[A-Za-z]*c|^--bytes\b/.test(a)) && operands(argv).some((a) => CREDENTIAL_TEXT_FILE.test(a) || SECRET_FILE.test(a)))
        return { kind: 'secret', tool: `${name} -c of a credential file`, amongOthers: true };
      // pppd's `chap-secrets` / `pap-secrets` / `srp-secrets` (M25): `client server secret addresses` rows, no word on a row that
      // says "secret" for the scanner. The file is credentials throughout: every line masked whole (its comments too; they are no loss).
      if (operands(argv).some((a) => /(?:^|\/)(?:chap|pap|srp)-secrets$/.test(a))) return { kind: 'secret', tool: `${name} ppp secrets`, transformed: true };
      // Other files of credentials in rows no word of which says so (adv4 M19, M21, M22, X08, X11): postfix's `sasl_passwd`
      // (`[host]:port user:password`), davfs2's `secrets` (`url user password`), rsyncd's `rsyncd.secrets` (`user:password`), exim's
      // `passwd.client` (`host:user:password`), Maven's `settings-security.xml` (`<master>{…}</master>`, X09), an OpenVPN `auth-user-pass` file (user line, password line), strongSwan's `ipsec.secrets`.
      // Those of a known layout printed alone (CREDENTIAL_ROW_FILES): each row's password; the others every line whole.
      {
        // (head's and tail's `-n 20`: its count is no file.)
        const files = operands(argv).filter((a) => !/^\d+$/.test(a));
        const rows = CREDENTIAL_ROW_FILES.filter((f) => files.some((a) => f.file.test(a)));
        // One file's layout: its rows' passwords; files of several layouts at once (or head's headers between them): whole lines.
        if (rows.length === 1 && files.length === 1) return { kind: 'password', tool: `${name} credentials file`, rows: rows[0].row };
        if (rows.some((f) => !f.alone)) return { kind: 'password', tool: `${name} credentials file`, transformed: true };
      }
      if (operands(argv).some((a) => CREDENTIAL_ROWS_FILE.test(a))) return { kind: 'secret', tool: `${name} credentials file`, transformed: true };
      // A glob the shell expands (`head -n 20 openvpn/client/*`: pass 280 F25) names no file here; when a file it may match is a
      // credentials file, head's and tail's `==> file <==` headers say which section is whose (headedSections).
      if (operands(argv).some(globMayNameCredentials)) return { kind: 'secret', tool: `${name} of a secret file`, transformed: true, amongOthers: true, globbed: true };
      // A file that holds one credential bare (Docker and Compose secrets `/run/secrets/db_password`, Jenkins' `initialAdminPassword`,
      // `token.txt`): its one-word lines (a YAML or JSON file's lines have blanks: the scanner reads those).
      // With other files (`cat .nexmorc private.key`: adv156 F9), which lines are the secret file's is not known: its minted words
      // only, the other files' settings (`app_id=<uuid>`, `private_key=./private.key`) left to the scanner.
      {
        const files = operands(argv);
        if (!files.some((a) => SECRET_FILE.test(a))) return undefined;
        return { kind: 'secret', tool: `${name} secret file`, ...(files.some((a) => !SECRET_FILE.test(a) && !/^\d+$/.test(a)) ? { amongOthers: true } : {}) };
      }
    case 'sed': {
      // Lines picked out of a credentials file of a known row layout as they are (`sed -n 3p K….+163+….private`, `sed -n '2,4p'
      // sasl_passwd`: adv263 T2): its rows, read as cat's.
      // (`-ne 3p`: `-n` and `-e` glued, adv272 S8.)
      const glued = argv.indexOf('-ne');
      if (!argv.includes('-n') && glued < 0 && !argv.includes('--quiet') && !argv.includes('--silent')) return undefined;
      // (Not operands(): `-n` takes head's count, not sed's script.)
      const ops = argv.slice(1).filter((a, i, all) => !a.startsWith('-') && all[i - 1] !== '-e' && all[i - 1] !== '-ne');
      const e = glued > 0 ? glued : argv.indexOf('-e');
      const script = e > 0 ? argv[e + 1] : ops[0];
      const files = e > 0 ? ops : ops.slice(1);
      if (script === undefined || files.length === 0) return undefined;
      // (Only a file of a known row layout: a YAML or env file's picked lines are the scanner's, whose names say which is secret.)
      const read = printerOf(['cat', ...files]);
      // A substitution that prints what it rewrote (`sed -n 's/^Key: //p' K….private`: session 45's leftover): the rows' values
      // without their names, in no layout: every line whole.
      if (SED_PRINTED_SUBSTITUTION.test(script.trim()) || SED_ADDRESSED_SUBSTITUTION.test(script.trim())) return read?.rows ? { kind: read.kind, tool: 'sed -n s///p of a credentials file', transformed: true } : undefined;
      if (!script.split(';').every((pick) => SED_LINE_PICK.test(pick.trim()))) return undefined;
      return read?.rows ? { ...read, tool: read.tool.replace(/^cat/, 'sed -n') } : undefined;
    }
    case 'jq':
    case 'gojq':
    case 'jaq':
      // Signal Desktop's config through jq (the stop-time check's leftover: `jq . …/Signal/config.json`): its key's row.
      return operands(argv).some((a) => SIGNAL_CONFIG_FILE.test(a)) ? { kind: 'password', tool: `${name} of a credentials file`, rows: SIGNAL_CONFIG_ROW } : undefined;
    case 'smtp_credentials_generate.py':
      // Run by its shebang (`./smtp_credentials_generate.py "$KEY" eu-west-1`: adv289 F44).
      return { kind: 'ses smtp password', tool: 'smtp_credentials_generate.py' };
    case 'awk':
    case 'gawk':
    case 'mawk':
    case 'nawk':
    case 'python':
    case 'python3':
    case 'node':
      // …and through a script that reads it (`awk -F'"' '/"key"/{print $4}' …/config.json`, `python3 -c "…open('…/Signal/config.json')…"`:
      // adv272 S6, S7): the key printed bare is a row too.
      if (argv.slice(1).some((a) => SIGNAL_CONFIG_PATH.test(a))) return { kind: 'password', tool: `${name} of a credentials file`, rows: SIGNAL_CONFIG_ROW };
      if (name.startsWith('python') && SES_SMTP_PASSWORD_SCRIPT.test(argv[1] ?? '')) return { kind: 'ses smtp password', tool: 'smtp_credentials_generate.py' };
      // Home Assistant's or ESPHome's `secrets.yaml` loaded by a script and printed as a dict (`pprint.pprint(yaml.safe_load(…))`,
      // `json.dumps(…, indent=2)`: pass 278 F11): each entry's value, but a plain setting's (HA_PLAIN_WORDS).
      return !AWK.test(name) && argv.slice(1).some((a) => HA_SECRETS_PATH.test(a)) ? { kind: 'secret', tool: `${name} of secrets.yaml`, rows: HA_SECRETS_DICT_ROW } : undefined;
    case 'ejabberdctl':
      // `ejabberdctl oauth_issue_token <jid> <ttl> <scopes>` (pass 202 F32): `<token>\t["scopes"]\t<ttl> seconds`, the token first.
      return sub === 'oauth_issue_token' || sub === 'oauth_list_tokens' ? { kind: 'oauth token', tool: 'ejabberdctl oauth_issue_token', rows: EJABBERD_TOKEN_ROW } : undefined;
    case 'john':
      // `john --show` (pass 206 F7): `user:<cracked password>:<rid>:…` rows, then a count; the password is the second field.
      return argv.includes('--show') || argv.some((a) => a.startsWith('--show=')) ? { kind: 'password', tool: 'john --show', rows: JOHN_SHOW_ROW } : undefined;
    case 'tdbdump':
      // Samba's `secrets.tdb` dumped (pass 202 F37): its secrets' records (tdbSecretValues); another database's are the scanner's.
      return { kind: 'password', tool: 'tdbdump', tdbSecrets: true };
    case 'pdbedit':
      // `pdbedit -L -w` (`--smbpasswd-style`): the users' LM and NT hashes in smbpasswd's rows (pass 202 F36).
      return argv.some((a) => /^-[A-Za-z]*w|^--smbpasswd-style$/.test(a)) ? { kind: 'password hash', tool: 'pdbedit -w', rows: SMBPASSWD_ROW } : undefined;
    case 'kcadm.sh':
    case 'kcadm':
      // Keycloak's admin CLI (adv13 B30): `kcadm.sh get clients/<id>/client-secret` prints `{"type" : "secret", "value" : "…"}`.
      return sub === 'get' && /\/client-secret$/.test(sub2 ?? '') ? { kind: 'secret', tool: 'kcadm.sh get client-secret', transformed: true } : undefined;
    case 'openstack':
      // `openstack token issue` (adv12 A18): a Fernet token (`gAAAAAB…`) in the `id` row of a table; masked whole.
      return sub === 'token' && sub2 === 'issue' ? { kind: 'token', tool: 'openstack token issue', transformed: true } : undefined;
    case 'glab':
      // GitLab's CLI (adv12 A24): `glab variable get KEY` prints a CI/CD variable's value bare; only a secret's name.
      return sub === 'variable' && sub2 === 'get' && sub3 !== undefined && (SECRET_FIELD.test(sub3) || SECRET_ENV_NAME.test(sub3)) ? { kind: 'secret', tool: 'glab variable get' } : undefined;
    case 'firebase':
      // `firebase functions:secrets:access NAME [VERSION]` (adv27 F22): the secret's value alone.
      return sub === 'functions:secrets:access' ? { kind: 'secret', tool: 'firebase functions:secrets:access' } : undefined;
    case 'postmap':
      // `postmap -q '[smtp.example.net]:587' hash:/etc/postfix/sasl_passwd` (adv167 F11): a SASL map's `user:password` alone.
      return has(argv, '-q') && argv.some((a) => /(?:^|[:/])(?:sasl_passwd|[^/\s]*(?:passw|secret|cred)[^/\s]*)$/i.test(a)) ? { kind: 'password', tool: 'postmap -q', transformed: true } : undefined;
    case 'fs_cli': {
      // FreeSWITCH's `fs_cli -x 'global_getvar default_password'`: the variable's value alone (adv263 FS1).
      const x = option(argv, 'x', 'execute');
      const v = x === undefined ? undefined : /^\s*global_getvar\s+(\S+)\s*$/.exec(x)?.[1];
      return v !== undefined && isSecretName(v) ? { kind: 'secret', tool: 'fs_cli global_getvar' } : undefined;
    }
    case 'snyk':
      // `snyk config get api` (adv23 F17): the CLI's stored API token (a UUID) alone.
      return sub === 'config' && sub2 === 'get' && sub3 === 'api' ? { kind: 'token', tool: 'snyk config get api' } : undefined;
    case 'cloudflared':
      // `cloudflared tunnel token NAME` (adv12 A47): the tunnel's run token (base64 JSON with its secret) bare.
      return sub === 'tunnel' && sub2 === 'token' ? { kind: 'token', tool: 'cloudflared tunnel token' } : undefined;
    case 'psql':
    case 'mysql':
    case 'mariadb':
    case 'sqlite3':
    case 'duckdb':
    case 'sqlcmd':
    case 'clickhouse-client':
    case 'clickhouse':
    case 'cqlsh':
      return queryPrinted(name, queriesOf(argv));
    case 'buildkite-agent':
      // `buildkite-agent secret get NAME` prints a Buildkite secret's value alone; `meta-data get KEY` a build's stored value, a
      // credential when its key names one (adv22 F02: `meta-data get "db-password"`; not `release-version`).
      if (sub === 'secret' && sub2 === 'get') return { kind: 'secret', tool: 'buildkite-agent secret get' };
      return sub === 'meta-data' && sub2 === 'get' && sub3 !== undefined && isSecretName(sub3) ? { kind: 'secret', tool: 'buildkite-agent meta-data get' } : undefined;
    case 'redis-cli':
    case 'valkey-cli':
    case 'keydb-cli':
      return redisPrinted(name, argv);
    case 'elasticsearch-service-tokens':
      // `elasticsearch-service-tokens create elastic/kibana NAME` (adv22 F49): `SERVICE_TOKEN elastic/kibana/NAME = <token>`, masked whole.
      return sub === 'create' ? { kind: 'token', tool: 'elasticsearch-service-tokens create', transformed: true, cells: [1] } : undefined;
    case 'elasticsearch-create-enrollment-token':
      // An enrollment token (base64 JSON holding an API key) alone.
      return { kind: 'token', tool: 'elasticsearch-create-enrollment-token' };
    case 'elasticsearch-reset-password':
      // With `-s` (silent) the new password alone; without, `New value: …` (the scanner's; a sentence is kept by the value test).
      return { kind: 'password', tool: 'elasticsearch-reset-password' };
    case 'fly':
    case 'flyctl':
      // `fly tokens create deploy` prints `FlyV1 fm2_…,fm2_…` (a scheme word and the macaroons: masked whole); `fly auth token` the token alone.
      if (sub === 'tokens' && sub2 === 'create') return { kind: 'token', tool: `${name} tokens create`, transformed: true };
      return sub === 'auth' && sub2 === 'token' ? { kind: 'token', tool: `${name} auth token` } : undefined;
    case 'influx':
      // InfluxDB 2's `influx auth create` / `auth list`: a table whose `Token` column is the token (its title row kept).
      // With `--json` its `"token"` fields are the scanner's.
      return sub === 'auth' && /^(?:create|list|ls|find)$/.test(sub2 ?? '') && !has(argv, '--json') ? { kind: 'token', tool: `influx auth ${sub2}`, transformed: true, keep: ['ID', 'Description', 'Token', 'User', 'Name', 'Permissions', 'Status'] } : undefined;
    case 'puppet':
    case 'hiera': {
      // `puppet lookup profile::db::password` prints `--- value`; `hiera db_password` the value (adv102 F47). The key's last part names it.
      const key = name === 'hiera' ? sub : sub === 'lookup' ? sub2 : undefined;
      return key !== undefined && SECRET_FIELD.test(key.split('::').pop() ?? '') ? { kind: 'secret', tool: `${name}${name === 'puppet' ? ' lookup' : ''}` } : undefined;
    }
    case 'etcdctl':
      // `etcdctl get /app/db/password` prints the key, then the value, each alone on its line.
      return sub === 'get' && sub2 !== undefined && SECRET_FIELD.test(sub2.split('/').pop() ?? '') ? { kind: 'secret', tool: 'etcdctl get' } : undefined;
    default:
      // A Cosmos SDK chain's daemon (`gaiad`, `osmosisd`, `simd`): `keys export <name> --unarmored-hex --unsafe` prints the
      // private key in hex after its warning (adv192 F20).
      // (Global options before `keys` too: `--home ./node0`; Ethermint's `keys unsafe-export-eth-key`: adv194 F24, F25.)
      {
        const k = argv.indexOf('keys');
        const verb = k > 0 ? argv[k + 1] : undefined;
        return verb === 'unsafe-export-eth-key' || (verb === 'export' && has(argv, '--unarmored-hex')) ? { kind: 'private key', tool: `${name} keys ${verb}` } : undefined;
      }
  }
}

/** redis-cli's options that take the next word (so it is no command). */
const REDIS_VALUES = new Set(['-h', '-p', '-s', '-a', '-u', '-r', '-i', '-n', '-d', '-D', '-t', '--user', '--pass', '--sni', '--cacert', '--cacertdir', '--cert', '--key', '--tls-ciphers', '--tls-ciphersuites', '--pattern', '--count', '--quoted-pattern', '--eval', '--memkeys-samples', '--cluster', '--functions-rdb', '--rdb', '--pipe-timeout']);
/** The last part of a redis key (`oauth:xero:tenant:42` → `42`, `session:api_token` → `api_token`): what names its value. */
const keyLeaf = (key: string) => key.split(/[:/]/).pop() ?? '';

/**
 * redis-cli (valkey-cli, keydb-cli) reading a credential (adv22 F09): `GET session:api_token` (the key's last part names a secret),
 * `HGET oauth:xero:tenant:42 refresh_token` (the field does): the value alone, quoted at a terminal (`"…"`), bare with `--raw` or
 * into a pipe. `HMGET key f1 f2` prints its fields' values one a line: masked whole when a field names a secret. `HGETALL` and
 * `CONFIG GET` print a name, then its value (`pairs`); at a terminal as `1) "access_token"` / `2) "…"` rows the scanner reads.
 * Not `GET page:views`, `HGET user:42 email`.
 */
function redisPrinted(name: string, argv: readonly string[]): SecretPrinter | undefined {
  let i = 1;
  while (i < argv.length && argv[i].startsWith('-')) i += REDIS_VALUES.has(argv[i]) ? 2 : 1;
  const [command, key, ...rest] = argv.slice(i);
  const tool = `${name} ${command?.toUpperCase()}`;
  switch (command?.toUpperCase()) {
    case 'GET':
    case 'GETDEL':
    case 'GETEX':
      return key !== undefined && isSecretName(keyLeaf(key)) ? { kind: 'secret', tool } : undefined;
    case 'HGET':
      return rest[0] !== undefined && isSecretName(rest[0]) ? { kind: 'secret', tool } : undefined;
    case 'HMGET':
      return rest.some((f) => isSecretName(f)) ? { kind: 'secret', tool, transformed: true } : undefined;
    case 'HGETALL':
      return key !== undefined ? { kind: 'secret', tool, pairs: true } : undefined;
    case 'CONFIG':
      return key?.toUpperCase() === 'GET' ? { kind: 'password', tool: `${name} CONFIG GET`, pairs: true } : undefined;
    default:
      return undefined;
  }
}

/**
 * A variable that names a secret (`$GITHUB_TOKEN`, `$DB_PASSWORD`), not something about one (`$TOKEN_FILE`,
 * `$SECRET_NAME`, `$PASSWORD_MIN_LENGTH`): what `printenv NAME` and `echo "$NAME"` print is the value itself.
 */
function isSecretVariable(name: string): boolean {
  return SECRET_ENV_NAME.test(name) && !SECRET_METADATA_NAME.test(name);
}

/** A variable's last word that says it holds something about a secret, not the secret. */
const SECRET_METADATA_NAME = /_(?:FILE|PATH|DIR|NAME|ID|LEN(?:GTH)?|TTL|EXPIR\w*|URL|HOST|PORT|TYPE|HEADER|COUNT|SIZE|ENV|VAR|ARN|REF)S?$/i;

/**
 * The variables a word as written expands (`$NAME`, `${NAME}`, `${NAME:-x}`, `${NAME:0:8}`), each with whether it is the
 * word alone; not in single quotes or after a backslash, not `${#NAME}` (a length), `${!NAME}` (another variable's name)
 * or `${NAME:+set}` (a word in its place when it is set).
 */
function expansionsIn(text: string): { name: string; alone: boolean }[] {
  const out: { name: string; alone: boolean }[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '"') quoted = !quoted;
    else if (c === "'" && !quoted) {
      const end = text.indexOf("'", i + 1);
      i = end < 0 ? text.length : end;
    } else if (c === '$') {
      EXPANSION.lastIndex = i;
      const m = EXPANSION.exec(text);
      if (!m) continue;
      // Alone: the word is the expansion, in double quotes or not (`$X`, `"${X}"`).
      out.push({ name: m[1] ?? m[2], alone: text.replace(/^"(.*)"$/s, '$1') === m[0] && !m[0].includes(':') });
      i += m[0].length - 1;
    }
  }
  return out;
}

/** One expansion at its `$` (sticky): `${NAME` not followed by `+`/`:+` (group 1), or `$NAME` (group 2); a braced one up to its `}`. */
const EXPANSION = /\$(?:\{(?![#!])([A-Za-z_]\w*)(?!:?\+)[^}]*\}|([A-Za-z_]\w*))/y;

/**
 * `echo "$GITHUB_TOKEN"`, `printf '%s\n' "$DB_PASSWORD"`, `echo "token=${NPM_TOKEN}"` (adv8 A28): the agent asks the shell for a
 * secret variable's value (sourced from a `.env`, exported by a script), and the value comes back bare. A word that is the
 * expansion alone prints a one-word line (the value test holds); one with text around it prints a line masked whole.
 */
function echoedSecret(name: string, words: readonly WordInfo[]): SecretPrinter | undefined {
  let found: string | undefined;
  let alone = true;
  for (const word of words.slice(1)) {
    if (word.literal) continue;
    for (const e of expansionsIn(word.text)) {
      if (!isSecretVariable(e.name)) continue;
      found ??= e.name;
      alone &&= e.alone;
    }
  }
  if (found === undefined) return undefined;
  return { kind: `$${found} value`, tool: name, ...(alone ? {} : { transformed: true }) };
}

/**
 * Later stages of a pipeline that leave the value as it is, or only cut and decode it (`| tr -d
 * '\n'`, `| base64 -d`, `| head -n1`): a value line of their output is still one word. `sed`,
 * `awk` and `tr` other than `tr -d` rewrite it (`sed 's/./& /g'`): they count as transforms. `iconv` only re-encodes it.
 */
const PASS_THROUGH = /^(?:base64|basenc|cat|head|tail|xargs|jq|yq|cut|tee|openssl|grep|iconv)$/;
const passesThrough = (argv: readonly string[]) => PASS_THROUGH.test(basename(argv[0] ?? '')) || (basename(argv[0] ?? '') === 'tr' && /^-[a-z]*d[a-z]*$/.test(argv[1] ?? ''));

/**
 * Later stages whose output cannot carry the value: a count (`wc`), a yes/no (`grep -q`, `test`),
 * a digest (`sha256sum`), nothing (`true`, `head -c0`), or a consumer that reads it as input and
 * prints its own message (`docker login --password-stdin`, `gh auth login --with-token`, a
 * clipboard). Every other stage keeps the printer (secretPrinterOf says why).
 */
function isReducer(argv: readonly string[]): boolean {
  const name = basename(argv[0] ?? '');
  switch (name) {
    case 'wc':
    case 'md5sum':
    case 'sha1sum':
    case 'sha224sum':
    case 'sha256sum':
    case 'sha384sum':
    case 'sha512sum':
    case 'b2sum':
    case 'cksum':
    case 'sum':
    case 'true':
    case 'false':
    case ':':
    case 'test':
    case '[':
    case 'pbcopy':
    case 'xclip':
    case 'xsel':
    case 'wl-copy':
    case 'clip.exe':
      return true;
    case 'wg':
      // `wg genkey | tee server.key | wg pubkey` (adv15 M20): the public key derived from the private one.
      return argv[1] === 'pubkey';
    case 'grep':
    case 'egrep':
    case 'fgrep':
    case 'rg':
      // A count, a yes/no or file names, not the matching lines.
      return argv.slice(1).some((a) => /^(?:--count|--quiet|--silent|--files-with(?:out)?-matches|-[A-Za-z]*[cqlL][A-Za-z]*)$/.test(a));
    case 'head':
      return argv.slice(1).some((a, i, rest) => /^(?:-c|--bytes)=?0$/.test(a) || (/^(?:-c|--bytes)$/.test(a) && rest[i + 1] === '0'));
    case 'docker':
    case 'podman':
    case 'nerdctl':
    case 'buildah':
    case 'helm':
    case 'oras':
    case 'skopeo':
    case 'crane':
      return argv.includes('login') && argv.includes('--password-stdin');
    case 'gh':
      return argv[1] === 'auth' && argv[2] === 'login';
    case 'vault':
    case 'bao':
      return argv[1] === 'login';
    default:
      return false;
  }
}

/** Does this stage send its standard output to a file (not a terminal-bound device)? Then nothing of it reaches the agent (nor a later stage). */
function stdoutToFile(stage: SimpleCommand): boolean {
  return stage.redirects.some(
    (r) =>
      (r.op === '>' || r.op === '>>' || r.op === '&>' || r.op === '&>>' || r.op === '>|') &&
      (r.fd === undefined || r.fd === 1) &&
      !/^\/dev\/(?:stdout|stderr|tty|fd\/[12])$/.test(r.target ?? ''),
  );
}

/**
 * What `command` (a shell line) prints, when its output a terminal shows is a credential: the
 * last pipeline of the line whose first stage is a printer, with no later stage a reducer
 * (isReducer) and no stage's output sent to a file; not inside `$(…)`. `undefined` for everything
 * else (and for a line that does not parse).
 *
 * Why every stage but a reducer keeps the printer (it was the other way round: only listed
 * pass-through stages did): the stages that can carry a value in a new shape have no end (`rev`,
 * `xxd -p`, `od -c`, `base32`, `sed 's/./& /g'`, `tr a-z A-Z`, `perl -pe`, `python -c`, …), and an
 * adversary picks the one not listed; the stages that cannot carry it are few and closed (a
 * count, a yes/no, a digest, a consumer). Over-masking the output of a pipeline that starts with
 * a credential printer costs the agent little (the mask says what and why); missing one sends the
 * credential to the model provider. A stage outside PASS_THROUGH marks the printer `transformed`:
 * every line it prints is masked whole, spaces and all.
 */
export function secretPrinterOf(command: string, depth = 0): SecretPrinter | undefined {
  if (!(PRINTER_WORDS.test(command) || SECRET_FILE_WORDS.test(command) || DECODER_WORDS.test(command)) || depth > MAX_NESTED_LINES) return undefined;
  const parsed = parseCommandLine(command);
  if (!parsed.ok) return undefined;
  const pipelines = new Map<number, SimpleCommand[]>();
  // A loop's label (`printf "%s " "$svc"` before `cat "secrets/${svc}_password"`: adv213 F39): it prints the loop's own words.
  const labels = new Set<number>();
  // `while read s` / `read -r s` variables: a label printer's too.
  const readVariables = new Set(parsed.line.commands.filter((c) => basename(c.argv[0] ?? '') === 'read').flatMap((c) => c.argv.slice(1).filter((a) => /^[A-Za-z_]\w*$/.test(a))));
  for (const c of parsed.line.commands) {
    if (c.context !== 'top') continue;
    const p = pipelines.get(c.pipeline.index) ?? [];
    p[c.pipeline.position] = withLoopWords(c, parsed.line.loops);
    pipelines.set(c.pipeline.index, p);
    if (printsLoopLabel(c, parsed.line.loops, readVariables)) labels.add(c.pipeline.index);
  }
  const printsOnlyLabels = (p: SimpleCommand[]) => p.length === 1 && labels.has(p[0].pipeline.index);
  const substituted = processSubstitutionFed([...pipelines.values()], depth);
  if (substituted) return substituted;
  const printed = new Map<SimpleCommand[], SecretPrinter>();
  for (const stages of pipelines.values()) {
    // A stage that is a subshell or a group (`( set -x; … ) 2>&1 | head`) leaves a hole, which `some` skips: spread, the hole is
    // undefined (a hooked run's output of every such pipeline was withheld: stagePrinter read the hole's argv, adv201 L2, L10).
    if (stages.length === 0 || [...stages].some((s) => s === undefined)) continue;
    const printer = pipelinePrinter(stages, depth) ?? echoedSecretFile(stages, parsed.line.commands, parsed.line.loops, depth);
    if (printer) printed.set(stages, printer);
  }
  const echoes = (printer: SecretPrinter | undefined) => printer !== undefined && (ECHOES.has(printer.tool) || printer.tool.endsWith(HERE_STRING_TOOL));
  let found: SecretPrinter | undefined;
  let amongOthers: SecretPrinter | undefined;
  const also: SecretPrinter[] = [];
  let anyTransformed = false;
  for (const [stages, printer] of printed) {
    // An echo is the line's output only beside commands that print nothing (`source .env && echo "$X"`) or other echoes of a
    // credential (`printf %q "$PW"; echo; printf %s "$PW" | od -c`, adv21 F28): after `cat f;` (a secret file's printer too: its
    // lines are a document's, `cat secrets.txt` of many `name: value` lines) its printer would mask the file's lines whole. A
    // here-string's too.
    if (echoes(printer) && [...pipelines.values()].some((p) => p !== stages && !echoes(printed.get(p)) && !p.every((c) => c !== undefined && printsNothing(c.argv)))) {
      amongOthers ??= printer;
      continue;
    }
    if (found && !echoes(found) && !echoes(printer)) also.push(found);
    found = printer;
    anyTransformed ||= printer.transformed === true && !printer.fields;
  }
  if (found && also.length) found = { ...found, also };
  if (!found && amongOthers) return { ...amongOthers, amongOthers: true };
  // A file's secret printed beside another command's lines of the same file (`grep -n '^TLS' agentd.conf && cat agentd.psk`,
  // `grep NEPTUNE .env && grep NEPTUNE_API_TOKEN .env | cut -d= -f2- | base64 -d`: adv195 L26, adv198 L6): its settings' lines
  // (`TLSPSKIdentity=PSK-web01`, `NEPTUNE_PROJECT=acme-ml/llama3-sft`) are the other command's. Taken for the secret's, they were
  // remembered as secrets and masked in later commands' output; a secret they name is the scanner's to find by its name.
  // Any printer's (`printf "%s=" "$k"; elasticsearch-keystore show "$k"` in a loop: pass 228 L20, whose setting names were taken
  // for the values and masked in a later `elasticsearch-keystore list`).
  if (found && labels.size > 0 && !found.amongOthers && !found.fields) found = { ...found, loopLabels: parsed.line.loops.flatMap((l) => l.words) };
  if (found && !found.amongOthers && !found.fields && FILE_PRINTER_TOOL.test(found.tool) && [...pipelines.entries()].some(([, p]) => !printed.has(p) && !printsOnlyLabels(p) && !p.every((c) => c !== undefined && printsNothing(c.argv)))) return { ...found, besideSettings: true };
  if (found && !found.amongOthers && !found.fields && [...pipelines.entries()].some(([, p]) => !printed.has(p) && !printsOnlyLabels(p) && !p.every((c) => c !== undefined && printsNothing(c.argv)))) found = { ...found, besideOthers: true };
  // A base64 decoder of something no rule names (`echo <b64> | base64 -d`, `python3 -c '…b64decode("…")'`): its `user:password`
  // lines (session 34's own attack: a Basic credential decoded from a value never shown encoded).
  // WebSphere's `{xor}` password decoded (`… | base64 -d | python3 -c "…b ^ 0x5f…"`: pass 287 F14): the clear password, bare.
  if (!found && depth === 0 && XOR_PASSWORD.test(command) && DECODES_BASE64.test(command)) return { kind: 'password', tool: 'a WebSphere {xor} decoder', transformed: true };
  if (!found && depth === 0 && DECODES_BASE64.test(command)) return { kind: 'password', tool: 'a base64 decoder', decodedPairs: true };
  // `strings` of a binary (a registry hive, a core dump): a value's name, its data on the next line (session 34's own attack).
  if (!found && depth === 0 && [...pipelines.values()].some((p) => basename(p[0]?.argv[0] ?? '') === 'strings')) return { kind: 'password', tool: 'strings', namesAbove: true };
  // A line of echoes only, one of them a transform's: its output's lines are masked whole.
  return found && anyTransformed && echoes(found) && !found.transformed && !found.fields ? { ...found, transformed: true } : found;
}

/**
 * What one pipeline prints, when it is a credential: its first stage a printer, or a later one run once per input (`… | xargs -I{}
 * vault kv get …`, `… | parallel …`: adv21 F05), with no stage after it a reducer and no stage's output sent to a file.
 */
/**
 * A loop's command with its variable read as the loop's words (`for f in config/master.key …; do cat "$f"; done` reads as `cat
 * config/master.key …`: pass 208 F16), so a file it prints is known by its name.
 */
function withLoopWords(c: SimpleCommand, loops: readonly { variable: string; words: string[] }[]): SimpleCommand {
  if (loops.length === 0 || !c.argv.some((a) => VARIABLE_IN.test(a))) return c;
  // Each word put in the variable's place: `"$f"` becomes the word, a path built from it (`"secrets/${svc}_password"`: adv213 F39) each path.
  const argv = c.argv.flatMap((a) => {
    const inside = VARIABLE_IN.exec(a);
    const loop = inside ? loops.find((l) => l.variable === inside[1] && l.words.length > 0) : undefined;
    return loop ? loop.words.map((w) => a.replace(VARIABLE_IN, () => w)) : [a];
  });
  return { ...c, argv };
}
/**
 * An echo of a secret file read inside it (`echo "$s: $(cat secrets/${s}_password)"`, `echo "${f#tokens.d/}: $(cat "$f")"` in a
 * loop: adv219 F6, F50): the file's printer, its value after a one-word label on each line (the label's words the line may not give).
 */
function echoedSecretFile(stages: readonly SimpleCommand[], commands: readonly SimpleCommand[], loops: readonly { variable: string; words: string[] }[], depth: number): SecretPrinter | undefined {
  const echo = stages[0];
  // (Or encoded after: `printf '\0%s\0%s' user "$(cat .smtp-pass)" | base64 -w0`, an AUTH PLAIN string built by hand: pass 286
  // F7. Its output is the secret encoded: every line whole.)
  const encoded = stages.length > 1 && stages.slice(1).every((st) => FILE_ENCODER.test(basename(st.argv[0] ?? '')) && !st.stdoutRedirected);
  // (A stage piped on is "redirected" too: the encoder's pipe.)
  if ((stages.length !== 1 && !encoded) || !ECHOES.has(basename(echo.argv[0] ?? '')) || (echo.stdoutRedirected && !(encoded && !echo.redirects.some((r) => r.op.includes('>')))) || !echo.argv.some((a) => a.includes('$(') || a.includes('`'))) return undefined;
  for (const c of commands) {
    if (c.context !== 'substitution' || c.pos < echo.pos || c.end > echo.end || c.pipeline.length !== 1) continue;
    const printer = stagePrinter(withLoopWords(c, loops), depth);
    if (printer && FILE_PRINTER_TOOL.test(printer.tool) && !printer.fields) return { ...printer, tool: `echo of ${printer.tool}`, loopLabels: [], ...(encoded ? { transformed: true } : {}) };
  }
  return undefined;
}

/** An echo or printf whose arguments hold no variable but a loop's (its words are literals of the line): no setting's line. */
// Or a `while read` loop's variable (`printf 'ldap\nsmtp\n' | while read s; do printf '%s ' "$s"; cat "secrets/$s"`: adv219 F7),
// whose words the line does not give: its printer takes a one-word label off each line.
// Or a script's positional parameter (`find secrets -exec sh -c 'printf "%s=" "${1##*/}"; cat "$1"' _ {} \;`: adv219 F8): a file's name.
function printsLoopLabel(c: SimpleCommand, loops: readonly { variable: string; words: string[] }[], readVariables: ReadonlySet<string>): boolean {
  if (!ECHOES.has(basename(c.argv[0] ?? '')) || c.redirects.length > 0) return false;
  const positional = c.argv.slice(1).some((a) => POSITIONAL_IN.test(a));
  if (loops.length === 0 && readVariables.size === 0 && !positional) return false;
  let labelled = positional;
  for (const a of c.argv.slice(1)) {
    for (const m of a.matchAll(new RegExp(VARIABLE_IN, 'g'))) {
      if (!loops.some((l) => l.variable === m[1]) && !readVariables.has(m[1])) return false;
      labelled = true;
    }
    if (a.includes('$(') || a.includes('`')) return false;
  }
  return labelled;
}
/** A positional parameter inside an argument (`$1`, `${1##…}`). */
const POSITIONAL_IN = /\$\{?[1-9]/;
/** A variable inside an argument (`${svc}`, `$svc`): group 1 its name. */
const VARIABLE_IN = /\$\{?([A-Za-z_]\w*)\}?/;

function pipelinePrinter(stages: readonly SimpleCommand[], depth: number): SecretPrinter | undefined {
  let at = 0;
  let printer = stagePrinter(stages[0], depth) ?? secretDocumentPicked(stages) ?? jsonFieldPicked(stages) ?? awkFieldPicked(stages) ?? assignmentCut(stages) ?? encodedCredentialFile(stages) ?? consoleEvaluated(stages) ?? pgpassFieldsPrinted(stages) ?? namesCutFromCredentialFile(stages) ?? secretKeyLineCut(stages) ?? reversedText(stages) ?? substitutedText(stages) ?? gppDecrypted(stages) ?? jenkinsScriptDecrypted(stages);
  for (let i = 1; !printer && i < stages.length; i++) {
    if (!runsPerInput(stages[i]) && !(i === stages.length - 1 && answersPrompt(stages[0]))) continue;
    printer = stagePrinter(stages[i], depth);
    at = i;
  }
  if (!printer) return undefined;
  if (stages.slice(at).some(stdoutToFile) || stages.slice(at + 1).some((s) => isReducer(s.argv))) return undefined;
  const transformed = printer.transformed || stages.slice(at + 1).some((s) => !passesThrough(s.argv));
  return transformed ? { ...printer, transformed: true } : printer;
}

/**
 * `terraform console` (or tofu's) fed an expression on its input that names a secret (`echo 'nonsensitive(random_password.db.result)'
 * | terraform console`, `terraform console <<< 'var.db_password'`: adv39 F09): it prints the value alone, quoted.
 */
function consoleEvaluated(stages: readonly SimpleCommand[]): SecretPrinter | undefined {
  const at = stages.findIndex((s) => /^(?:terraform|tofu)$/.test(basename(s.argv[0] ?? '')) && operands(s.argv)[0] === 'console');
  if (at < 0) return undefined;
  const fed = stages[at].redirects.flatMap((r) => (r.op === '<<<' && r.target !== undefined ? [r.target] : []));
  if (at > 0 && /^(?:echo|printf)$/.test(basename(stages[at - 1].argv[0] ?? ''))) fed.push(...stages[at - 1].argv.slice(1));
  return fed.some((e) => CONSOLE_SECRET_EXPRESSION.test(e)) ? { kind: 'secret', tool: `${basename(stages[at].argv[0])} console`, transformed: true } : undefined;
}
/** An expression that names a secret: a secret-named field, or a generated password's result. */
const CONSOLE_SECRET_EXPRESSION = new RegExp(`${SECRET_FIELD.source}|random_password|private_key_pem|\\bsensitive\\b`, 'i');

/**
 * A pipeline's first command given its input as a process substitution (`cut -d= -f2 <(grep TOKEN .env)`, `awk … <(sops -d x)`:
 * session 48's stop-time check): read as the pipeline it stands for, the substituted command first (`grep TOKEN .env | cut -d=
 * -f2`). The printers read pipelines; the substitution's output was nobody's.
 */
function processSubstitutionFed(pipelines: readonly SimpleCommand[][], depth: number): SecretPrinter | undefined {
  for (const stages of pipelines) {
    const first = stages[0];
    if (first === undefined || [...stages].some((s) => s === undefined)) continue;
    const k = first.argv.findIndex((a, i) => i > 0 && PROCESS_SUBSTITUTION.test(a));
    if (k < 0) continue;
    const inner = PROCESS_SUBSTITUTION.exec(first.argv[k])![1];
    const words = [first.argv.filter((_, i) => i !== k), ...stages.slice(1).map((s) => s.argv)];
    const line = [inner, ...words.map((w) => w.map(singleQuoted).join(' '))].join(' | ');
    const printer = secretPrinterOf(line, depth + 1);
    if (printer) return printer;
  }
  return undefined;
}
/** A word that is a process substitution alone, group 1 its command. */
const PROCESS_SUBSTITUTION = /^<\((?!\()([^]+)\)$/;
/** A word quoted for a command line rebuilt from its words. */
const singleQuoted = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

/**
 * A Group Policy Preferences `cpassword` decrypted by hand (`echo "$c" | base64 -d | openssl enc -d -aes-256-cbc -K 4e9906e8… -iv
 * 0… | iconv -f UTF-16LE -t UTF-8`: pass 316 F14): openssl given the AES key Microsoft published (MS-GPPREF) prints the
 * account's password alone, and nothing says so but the key on its command line.
 */
function gppDecrypted(stages: readonly SimpleCommand[]): SecretPrinter | undefined {
  const decrypts = stages.some((s) => basename(s.argv[0] ?? '') === 'openssl' && s.argv.includes('-d') && s.argv.some((a, i) => GPP_AES_KEY.test(a) && (s.argv[i - 1] === '-K' || a.startsWith('-K'))));
  return decrypts ? { kind: 'password', tool: 'openssl of a GPP cpassword' } : undefined;
}
/**
 * Jenkins' script console asked to decrypt a stored secret (`curl --data-urlencode 'script@decrypt.groovy' …/scriptText`, or the
 * script inline: `script=println(hudson.util.Secret.decrypt('{AQAA…}'))`: pass 319 F20): it answers the plaintext alone.
 */
function jenkinsScriptDecrypted(stages: readonly SimpleCommand[]): SecretPrinter | undefined {
  const asks = stages.some((s) => /^(?:curl|wget|http|https)$/.test(basename(s.argv[0] ?? '')) && s.argv.some((a) => /\/scriptText\b/.test(a)) && s.argv.some((a) => JENKINS_DECRYPT_SCRIPT.test(a)));
  return asks ? { kind: 'password', tool: "Jenkins' script console" } : undefined;
}
/** A script console's script that decrypts: a file named so (`script@decrypt.groovy`), or the call in it. */
const JENKINS_DECRYPT_SCRIPT = /^script@\S*(?:decrypt|secret|cred|passw|reveal)\S*$|Secret\.decrypt\(|\.getPlainText\(\)|SystemCredentialsProvider|CredentialsProvider\.lookupCredentials/i;

/** The AES-256 key of every GPP `cpassword` (MS-GPPREF 2.2.1.1.4), as openssl's `-K` takes it. */
const GPP_AES_KEY = /(?:^-K)?4e9906e8fcb66cc9faf49310620ffee8f496e806cc057990209b09a433b66c1b$/i;

/** A stage that runs its command once per line of its input: `xargs …` (seen through by the parser) or `parallel …`. */
/**
 * A first stage that only answers the next one's prompt (`echo y | gaiad keys export … --unarmored-hex`: adv192 F20; `yes |`):
 * the pipeline's output is its last stage's.
 */
const answersPrompt = (stage: SimpleCommand) => /^(?:echo|printf|yes)$/.test(basename(stage.argv[0] ?? '')) && stage.argv.slice(1).every((a) => a.length <= MAX_ANSWER_CHARS);
/** Longest word of a prompt's answer fed by a pipe (`y`, `yes`, `-n`). */
const MAX_ANSWER_CHARS = 8;
const runsPerInput = (stage: SimpleCommand) => basename(stage.argv[0] ?? '') === 'parallel' || stage.words.slice(0, stage.argvStart).some((w) => basename(w.value) === 'xargs');

/** Lines inside lines (`docker exec app sh -c 'bash -c "eval …"'`) read at most this deep: no real command nests further. */
const MAX_NESTED_LINES = 3;
/** The here-string printer's tool ends so (`cat <<<`): like an echo, the line's output only beside silent commands. */
const HERE_STRING_TOOL = ' <<<';

/**
 * What a pipeline's first stage prints when that is a credential: a printer of the table (printerOf), a secret variable fed to
 * a command as a here-string (`cat <<< "$TOKEN"`), an inline script that prints one (`node -p process.env.GITHUB_TOKEN`,
 * `python3 -c 'print(os.environ["API_KEY"])'`), or the same inside a line the stage runs (`bash -c '…'`, `eval …`,
 * `docker exec app …`, `kubectl exec pod -- …`: adversary pass 11's forms).
 */
function stagePrinter(stage: SimpleCommand, depth: number): SecretPrinter | undefined {
  const run = packageRun(stage.argv);
  return (
    printerOf(stage.argv, stage.words.slice(stage.argvStart)) ??
    (run ? printerOf(run) : undefined) ??
    hereStringPrinted(stage) ??
    secretFileRead(stage.argv, stage.redirects.flatMap((r) => (r.op === '<' && r.target !== undefined ? [r.target] : []))) ??
    queryHereString(stage) ??
    argvPrinter(stage.argv, depth)
  );
}

/** Package runners' options that take the next word (`npx -p pkg`, `npx --package=pkg` is one word). */
const RUNNER_VALUE_OPTIONS = new Set(['-p', '--package', '-c', '--call']);

/** The command a package runner runs (`npx dotenvx get X`, `bunx …`, `pnpm dlx …`, `yarn dlx …`, `npm exec -- …`: adv15 D13), or undefined. */
function packageRun(argv: readonly string[]): string[] | undefined {
  const name = basename(argv[0] ?? '');
  let i = name === 'npx' || name === 'bunx' || name === 'pnpx' ? 1 : (name === 'pnpm' || name === 'yarn') && argv[1] === 'dlx' ? 2 : name === 'npm' && argv[1] === 'exec' ? 2 : -1;
  if (i < 0) return undefined;
  for (; i < argv.length && argv[i].startsWith('-'); i++) {
    if (argv[i] === '--') return argv.slice(i + 1);
    if (RUNNER_VALUE_OPTIONS.has(argv[i])) i++;
  }
  return i < argv.length ? argv.slice(i) : undefined;
}

/** printerOf for an argv with no words as written (one a container or a shell runs), and the argv's inline scripts and nested lines. */
function argvPrinter(argv: readonly string[], depth: number): SecretPrinter | undefined {
  if (depth > MAX_NESTED_LINES) return undefined;
  const inner = execArgv(argv) ?? injectorArgv(argv) ?? findExecArgv(argv);
  if (inner) return printerOf(inner) ?? secretFileRead(inner) ?? argvPrinter(inner, depth + 1);
  const line = nestedLine(argv) ?? remoteLine(argv);
  if (line !== undefined) return secretPrinterOf(line, depth + 1);
  return parallelPrinted(argv, depth) ?? inlineScriptPrinted(argv) ?? decoderScriptRun(argv);
}

/**
 * A script whose name says it reveals stored credentials (`python3 unstash.py key.sth`, `python3 xordecode.py security.xml`,
 * `gpp-decrypt <cpassword>`, `./jasypt-decrypt.sh`: adv172 F10, F28): what it prints is the decoded passwords, in whatever rows
 * it prints them. Masked whole.
 */
function decoderScriptRun(argv: readonly string[]): SecretPrinter | undefined {
  const first = basename(argv[0] ?? '');
  const script = INTERPRETER.test(first) ? argv.slice(1).find((a) => !a.startsWith('-')) : argv[0];
  if (script === undefined) return undefined;
  const name = basename(script).replace(/\.(?:py|pl|rb|js|mjs|ts|sh|ps1)$/i, '');
  return DECODER_SCRIPT.test(name) ? { kind: 'password', tool: `${name} (a credential decoder)`, transformed: true } : undefined;
}
/** A decoding call whose argument names a password (`b64decode(x.findtext('Pass'))`, `decrypt(cfg['password'])`, `unhexlify(pwd)`). */
const DECODED_SECRET_CALL = /(?:b64decode|decodebytes|b32decode|a85decode|unhexlify|fromhex|decrypt\w*|unprotect\w*|deobfuscate\w*|atob)[ \t]*\([^)\n]{0,200}?(?:pass(?:word|wd)?|pwd|secret|cred(?:ential)?s?|token)\b/i;
/** A script's name that says it decodes or decrypts stored credentials (`unstash`, `xordecode`, `gpp-decrypt`, `decrypt_passwords`). */
const DECODER_SCRIPT = /^(?:un(?:stash|obfuscate|xor)|vnc(?:pwd|passwd|decrypt)|(?:\w*[_-])?(?:xor|gpp|cpassword|pass(?:word)?s?|pwd?s?|creds?|credentials?|secrets?|vault|keystore|jasypt|stash|wls|weblogic|websphere)[_-]?(?:de(?:code|crypt|obfuscate)|reveal|unmask)(?:[_-]\w*)?|de(?:code|crypt|obfuscate)[_-]?(?:xor|pass(?:word)?s?|pwd?s?|creds?|credentials?|secrets?|stash|cpassword|gpp)(?:[_-]\w*)?)$/i;

/** The tools of printers that read a secret's file or line (secretFileRead, encodedCredentialFile, secretKeyLineCut). */
const FILE_PRINTER_TOOL = /secret file|credential file|of a secret's line|of an assignment/;

/** GNU parallel's options that take the next word (so it is no command). */
const PARALLEL_VALUES = new Set(['-j', '--jobs', '-P', '-N', '-n', '--max-args', '-L', '--max-lines', '--colsep', '-C', '-a', '--arg-file', '-S', '--sshlogin', '--joblog', '--results', '--delay', '--timeout', '-I', '--tagstring', '--retries', '--memfree', '--load', '--workdir', '--wd', '--env', '--halt', '-E', '--sshloginfile', '--slf', '--basefile', '--bf', '--return', '--transfer-file', '--tf', '--eta-file', '--shebang-wrap', '--template', '--tmpdir']);

/**
 * `parallel [--tag] 'vault kv get -field=password secret/{}' ::: orders billing` (adv21 F05): the command run once per argument,
 * as one word (a line) or as the words before `:::`. With `--tag` (or `--tagstring`) each output line starts with its argument:
 * the lines are masked whole. `--dry-run` prints the commands, not their output.
 */
function parallelPrinted(argv: readonly string[], depth: number): SecretPrinter | undefined {
  if (basename(argv[0] ?? '') !== 'parallel' || has(argv, '--dry-run', '--dryrun')) return undefined;
  let i = 1;
  while (i < argv.length && argv[i].startsWith('-') && argv[i] !== '--') i += PARALLEL_VALUES.has(argv[i]) ? 2 : 1;
  if (argv[i] === '--') i++;
  const end = argv.findIndex((a, j) => j >= i && /^:::[:+]*$/.test(a));
  const command = argv.slice(i, end < 0 ? argv.length : end);
  if (command.length === 0) return undefined;
  const printer = command.length === 1 ? secretPrinterOf(command[0], depth + 1) : (printerOf(command) ?? secretFileRead(command) ?? argvPrinter(command, depth + 1));
  if (!printer) return undefined;
  return has(argv, '--tag', '--tagstring') && !printer.fields ? { ...printer, transformed: true } : printer;
}

/**
 * `find /run/secrets -type f -exec cat {} \;` (adv21 F05): the command `-exec` (`-execdir`, `-ok`) runs, each `{}` standing for
 * the paths find walks: the start path and the `-name` pattern stand in for them (`/run/secrets/*`, `./*password*`).
 */
function findExecArgv(argv: readonly string[]): string[] | undefined {
  if (basename(argv[0] ?? '') !== 'find') return undefined;
  const exec = argv.findIndex((a) => /^-(?:exec|execdir|ok|okdir)$/.test(a));
  if (exec < 0) return undefined;
  const start = argv.slice(1).find((a) => !a.startsWith('-') && !/^[()!]$/.test(a)) ?? '.';
  const nameAt = argv.findIndex((a) => /^-i?(?:name|path|wholename)$/.test(a));
  const pattern = nameAt > 0 && nameAt < exec ? argv[nameAt + 1] ?? '*' : '*';
  const path = `${start.replace(/\/+$/, '')}/${pattern}`;
  const end = argv.findIndex((a, j) => j > exec && (a === ';' || a === '+'));
  const inner = argv.slice(exec + 1, end < 0 ? argv.length : end).map((a) => a.replaceAll('{}', path));
  return inner.length ? inner : undefined;
}

/**
 * `cat <<< "$TOKEN"`, `base64 -d <<< "$API_KEY"` (adv11): a here-string of a secret variable, into a command that prints its
 * input (anything but a reducer or a consumer: `docker login --password-stdin <<< "$PW"` prints its own message).
 */
function hereStringPrinted(stage: SimpleCommand): SecretPrinter | undefined {
  if (isReducer(stage.argv) || basename(stage.argv[0] ?? '') === 'read') return undefined;
  for (const r of stage.redirects) {
    if (r.op !== '<<<' || r.target === undefined) continue;
    const found = expansionsIn(r.target).find((e) => isSecretVariable(e.name));
    if (!found) continue;
    const alone = expansionsIn(r.target).every((e) => e.alone) && passesThrough(stage.argv);
    return { kind: `$${found.name} value`, tool: `${basename(stage.argv[0] ?? '')}${HERE_STRING_TOOL}`, ...(alone ? {} : { transformed: true }) };
  }
  return undefined;
}

/** Shells whose `-c` runs a line (`bash -lc '…'`, `su - app -c '…'`); `eval` runs its words joined. */
const LINE_SHELLS = new Set(['bash', 'sh', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'busybox', 'su', 'runuser']);

/** The line a `bash -c LINE` / `su -c LINE` / `eval WORDS` runs, or undefined. */
function nestedLine(argv: readonly string[]): string | undefined {
  const name = basename(argv[0] ?? '');
  if (name === 'eval') return argv.length > 1 ? argv.slice(1).join(' ') : undefined;
  // `watch -n1 CMD…` runs its words joined as a line, over and over (adv21 F05).
  if (name === 'watch') {
    let i = 1;
    while (i < argv.length && argv[i].startsWith('-')) i += /^(?:-n|--interval|-q|--equexit)$/.test(argv[i]) ? 2 : 1;
    return i < argv.length ? argv.slice(i).join(' ') : undefined;
  }
  if (!LINE_SHELLS.has(name)) return undefined;
  let from = 1;
  if (name === 'busybox') {
    if (!/^(?:sh|ash|bash)$/.test(argv[1] ?? '')) return undefined;
    from = 2;
  }
  for (let i = from; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--command' || (/^-[A-Za-z]*c[A-Za-z]*$/.test(a) && !a.startsWith('--'))) {
      // The line is the first word after the options (`bash -c -e 'x'` is rare, but bash reads it so); the words after it are its
      // `$0`, `$1`, … (`sh -c '…cat "$1"…' _ {}` of find's -exec: adv219 F8), put in their places.
      for (let j = i + 1; j < argv.length; j++) if (!argv[j].startsWith('-')) return withPositionals(argv[j], argv.slice(j + 2));
      return undefined;
    }
    if (a.startsWith('--command=')) return a.slice('--command='.length);
  }
  return undefined;
}

/** `line` with its plain positional parameters (`"$1"`, `${2}`, `$1`) replaced by `args` quoted; `${1##…}` and the like stay. */
function withPositionals(line: string, args: readonly string[]): string {
  if (args.length === 0 || !line.includes('$')) return line;
  const quote = (w: string) => `'${w.replace(/'/g, `'\\''`)}'`;
  return line.replace(/"?\$(?:\{([1-9])\}|([1-9])(?![0-9]))"?/g, (m, a, b) => {
    const w = args[Number(a ?? b) - 1];
    return w === undefined ? m : quote(w);
  });
}

/** `aws secretsmanager get-secret-value --output text`'s row: ARN, creation date, name, the secret string (group v), version id. */
const SECRETSMANAGER_TEXT_ROW = /^arn:aws[\w-]*:secretsmanager:[^\t\n]+\t[^\t\n]*\t[^\t\n]*\t(?<v>[^\t\n]+)\t/;

/** Cloudflare's API paths that answer with a token's value: creating one, rolling one. */
const CLOUDFLARE_TOKEN_API = /\/client\/v4\/(?:user|accounts\/[0-9a-f]{32})\/tokens(?:\/[0-9a-f]{32}\/value)?\/?(?:[?#"']|$)/;

/** Options of `docker exec` / `kubectl exec` that take the next word (so that word is no container or command). */
const DOCKER_EXEC_VALUES = new Set(['-e', '--env', '--env-file', '-u', '--user', '-w', '--workdir', '--detach-keys', '--index']);
const KUBECTL_EXEC_VALUES = new Set(['-c', '--container', '-n', '--namespace', '--context', '--kubeconfig', '-f', '--filename', '--pod-running-timeout']);

/**
 * The argv a container runs: `docker exec [opts] CONTAINER CMD…` (podman, nerdctl, `docker compose exec SERVICE CMD…`,
 * `docker run --rm IMAGE CMD…` is another image's environment and left out), `kubectl exec POD [-c C] -- CMD…` (oc too).
 * `docker exec app printenv DB_PASSWORD` prints the container's secret as `printenv` does here.
 */
function execArgv(argv: readonly string[]): string[] | undefined {
  const name = basename(argv[0] ?? '');
  if (name === 'kubectl' || name === 'oc') {
    if (!argv.includes('exec')) return undefined;
    const dash = argv.indexOf('--');
    if (dash > 0) return dash + 1 < argv.length ? argv.slice(dash + 1) : undefined;
    // The older form without `--`: `kubectl exec POD CMD…` (options before the pod).
    let i = argv.indexOf('exec') + 1;
    while (i < argv.length && argv[i].startsWith('-')) i += KUBECTL_EXEC_VALUES.has(argv[i]) ? 2 : 1;
    return i + 1 < argv.length ? argv.slice(i + 1) : undefined;
  }
  if (!/^(?:docker|podman|nerdctl)$/.test(name) && name !== 'docker-compose') return undefined;
  let i = 1;
  if (argv[i] === 'compose' || argv[i] === 'container') i++;
  if (name === 'docker-compose' || argv[i - 1] === 'compose') {
    while (i < argv.length && argv[i].startsWith('-')) i += /^(?:-f|--file|-p|--project-name|--profile|--env-file)$/.test(argv[i]) ? 2 : 1;
  }
  if (argv[i] !== 'exec') return undefined;
  i++;
  while (i < argv.length && argv[i].startsWith('-')) i += DOCKER_EXEC_VALUES.has(argv[i]) ? 2 : 1;
  return i + 1 < argv.length ? argv.slice(i + 1) : undefined;
}

/**
 * Secret managers that run a command with the secrets in its environment, after `--` (`doppler run -- printenv DB_PASSWORD`,
 * `op run -- …`, `infisical run -- …`, `chamber exec svc -- …`, `aws-vault exec prod -- …`: adv18 F38): what it prints is
 * the command's output, and a printer there prints an injected secret.
 */
const SECRET_INJECTORS = new Map<string, string>([
  ['doppler', 'run'],
  ['op', 'run'],
  ['infisical', 'run'],
  ['chamber', 'exec'],
  ['aws-vault', 'exec'],
  ['dotenvx', 'run'],
  ['teller', 'run'],
  ['berglas', 'exec'],
  ['phase', 'run'],
]);

/** The argv a secret manager runs with its secrets (SECRET_INJECTORS), or undefined. */
function injectorArgv(argv: readonly string[]): string[] | undefined {
  const sub = SECRET_INJECTORS.get(basename(argv[0] ?? ''));
  if (sub === undefined || argv[1] !== sub) return undefined;
  const dash = argv.indexOf('--');
  return dash > 0 && dash + 1 < argv.length ? argv.slice(dash + 1) : undefined;
}

/** `ssh` options that take the next word (so it is no host). */
const SSH_VALUES = new Set(['-b', '-c', '-D', '-E', '-e', '-F', '-I', '-i', '-J', '-L', '-l', '-m', '-O', '-o', '-p', '-Q', '-R', '-S', '-W', '-w', '-B']);

/**
 * A line run somewhere the secrets are: `sops exec-env FILE 'CMD'` (the decrypted file as its environment), `fly ssh console
 * -C 'CMD'` (a machine's), `ssh HOST CMD…` (another host's), `heroku run CMD…`, `railway run CMD…` (adv18 F37, F39).
 */
function remoteLine(argv: readonly string[]): string | undefined {
  const name = basename(argv[0] ?? '');
  if (name === 'sops' && (argv[1] === 'exec-env' || argv[1] === 'exec-file')) {
    const ops = argv.slice(2).filter((a) => !a.startsWith('-'));
    return ops.length >= 2 ? ops[ops.length - 1] : undefined;
  }
  if ((name === 'fly' || name === 'flyctl') && argv[1] === 'ssh' && argv[2] === 'console') {
    const i = argv.findIndex((a) => a === '-C' || a === '--command');
    if (i > 0) return argv[i + 1];
    return argv.find((a) => a.startsWith('--command='))?.slice('--command='.length);
  }
  if (name === 'ssh') {
    let i = 1;
    while (i < argv.length && argv[i].startsWith('-')) i += SSH_VALUES.has(argv[i]) ? 2 : 1;
    return i + 1 < argv.length ? argv.slice(i + 1).join(' ') : undefined;
  }
  if ((name === 'heroku' || name === 'railway') && argv[1] === 'run') {
    let i = 2;
    while (i < argv.length && argv[i].startsWith('-')) i += /^(?:-a|--app|-r|--remote|-s|--size|-e|--env|--service|--environment)$/.test(argv[i]) ? 2 : 1;
    if (argv[i] === '--') i++;
    return i < argv.length ? argv.slice(i).join(' ') : undefined;
  }
  return undefined;
}

/** Interpreters whose inline script (`node -e`, `python3 -c`, `ruby -e`, `perl -e`, `php -r`, `deno eval`) may print an environment variable. */
const INTERPRETER = /^(?:node|nodejs|deno|bun|python[\d.]*|pypy3?|ruby|perl|php|rails|manage\.py|pwsh|powershell(?:\.exe)?|Rscript)$/;
/** A value picked out of a document by its key in a script (`json.load(f)["client_secret"]`, `data['api_key']`: adv13 B38). */
const SUBSCRIPT_READ = /\[\s*["']([A-Za-z_][\w-]*)["']\s*\]/g;
/**
 * A framework's settings read in a script (`settings.SECRET_KEY` in `manage.py shell -c`, `Rails.application.credentials
 * .secret_key_base` in `rails runner`: adv12 A27, A28): the attribute, in group 1, names the secret.
 */
const SETTINGS_READ = /\b(?:settings|config|conf|credentials|secrets|app\.config|Rails\.application(?:\.(?:credentials|secrets))?)\.([A-Za-z_]\w*)\b(?!\s*\()/g;
/**
 * Any object's attribute that names a secret, read in a script (a parsed URL's `urlsplit(uri).password`, `args.token`: passes 325 F28,
 * 326 F29, each printing the decoded password beside the URL's host and user): the attribute, in group 1.
 */
// (The chain's last attribute, not compared or tested: `u.password is None`, `u.password === ''`, `s.token.expires_at` print no
// secret: adv333 L10-L12.)
const ATTRIBUTE_READ = /(?<=[\w)\]])\.([A-Za-z_]\w*)\b(?![\w.[(]|\s*\()(?!\s*(?:is\b|[=!]==?|[<>]|in\b|not\b|\?|&&|\|\||and\b|or\b))/g;
/** A framework's settings read by a call (Laravel's `config('app.key')`, `env('APP_KEY')`: adv104): the key, in group 1, names it. */
const CONFIG_CALL_READ = /\b(?:config|env|Config::get|Settings\.get)\(\s*["']([A-Za-z_][\w.-]{0,128})["']\s*[,)]/g;
/** A script's read of an environment variable, its name in group 1: each language's spelling. */
const ENV_READS = [
  /process\.env\.([A-Za-z_]\w*)/g,
  /process\.env\[\s*["'`]([A-Za-z_]\w*)["'`]\s*\]/g,
  /(?:Deno\.env\.get|(?:os\.)?getenv|os\.environ\.get|ENV\.fetch)\(\s*["']([A-Za-z_]\w*)["']/g,
  /Bun\.env\.([A-Za-z_]\w*)/g,
  /(?:environ|ENV|\$_ENV|\$_SERVER)\[\s*["']([A-Za-z_]\w*)["']\s*\]/g,
  /\$ENV\{\s*["']?([A-Za-z_]\w*)["']?\s*\}/g,
  /\$env:([A-Za-z_]\w*)/gi,
  /Sys\.getenv\(\s*["']([A-Za-z_]\w*)["']/g,
];
/** A generator of secrets called in a script (Django's `get_random_secret_key()`, like `rails secret`: adv15 D43). */
// Or a secret revealed (pydantic's `SecretStr.get_secret_value()`: pass 208 F28).
const SECRET_GENERATOR = /\bget_random_secret_key\(\)|\bkeyring::key_get\(|-AsPlainText\b|\.get_secret_value\(\)/;
/** The script prints something: a language's print call (`node -p` prints its expression's value whatever it is). */
const SCRIPT_PRINTS = /(?:^|[^\w.])(?:console\.\w+|process\.stdout\.write|sys\.stdout\.write|print|printf|println|puts|say|echo|var_dump|p|pp)\b/;

/**
 * `node -p process.env.GITHUB_TOKEN`, `node -e 'console.log(process.env.NPM_TOKEN)'`, `python3 -c 'import os;
 * print(os.environ["API_KEY"])'`, `ruby -e 'puts ENV["DB_PASSWORD"]'`, `perl -e 'print $ENV{TOKEN}'` (adv11): an inline script
 * that reads a secret variable and prints. The value printed alone (`print(os.environ["X"])`, `node -p process.env.X`) is a
 * one-word line; printed inside other text (`print("token=" + …)`, an f-string), the script's lines are masked whole.
 */
function inlineScriptPrinted(argv: readonly string[]): SecretPrinter | undefined {
  const name = basename(argv[0] ?? '');
  if (!INTERPRETER.test(name)) return undefined;
  // PowerShell writes what an expression yields (`pwsh -Command '$env:DB_PASSWORD'`, adv13 B37), as `node -p` does.
  // R prints an expression's value too (`Rscript -e 'Sys.getenv("X")'`: `[1] "…"`, adv20 F05).
  const evaluates = /^(?:pwsh|powershell|Rscript)/i.test(name) || (argv.some((a) => /^(?:--print|-[A-Za-z]*p[A-Za-z]*)$/.test(a)) && /^(?:node|nodejs|bun|deno)$/.test(name));
  for (const code of argv.slice(1)) {
    if (code.startsWith('-') && !code.includes('(')) continue;
    // A generator or a secret store read in the script (Django's key, R's `keyring::key_get`, PowerShell's `Get-Secret -AsPlainText`).
    if (SECRET_GENERATOR.test(code) && (evaluates || SCRIPT_PRINTS.test(code))) return { kind: 'secret', tool: `${name} ${SECRET_GENERATOR.exec(code)![0].replace(/\($/, '')}` };
    for (const read of [...ENV_READS, SETTINGS_READ, SUBSCRIPT_READ, CONFIG_CALL_READ, ATTRIBUTE_READ]) {
      read.lastIndex = 0;
      const byName = read === SETTINGS_READ || read === SUBSCRIPT_READ || read === CONFIG_CALL_READ || read === ATTRIBUTE_READ;
      for (const m of code.matchAll(read)) {
        if (byName ? !isSecretName(m[1]) : !isSecretVariable(m[1])) continue;
        if (!evaluates && !SCRIPT_PRINTS.test(code)) continue;
        const ref = m[0].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        const alone = (evaluates && code.trim() === m[0]) || new RegExp(`(?:^|[;\\s(])(?:print|console\\.log|puts|say|echo|p)\\s*\\(?\\s*[\\w$.]*${ref}\\s*\\)?\\s*(?:;|$|\\n)`).test(code);
        return { kind: `${byName ? '' : '$'}${m[1]} value`, tool: `${name} inline script`, ...(alone ? {} : { transformed: true }) };
      }
    }
    // A secret file read and printed (`print(repr(open('/run/secrets/db','rb').read()))`, `fs.readFileSync('…')`, `File.read('…')`,
    // `Path('…').read_text()`: adv21 F31), in whatever shape the script gives it: masked whole.
    if (FILE_READ_CALL.test(code) && (evaluates || SCRIPT_PRINTS.test(code))) {
      const file = [...code.matchAll(QUOTED_PATH)].map((m) => m[2]).find((f) => SECRET_FILE.test(f) || CREDENTIAL_ROWS_FILE.test(f));
      if (file !== undefined) return { kind: 'secret', tool: `${name} inline script of a secret file`, transformed: true };
    }
    // A stored password decoded and printed (`base64.b64decode(s.findtext('Pass'))` over FileZilla's servers, `decrypt(cpassword)`:
    // adv173 F7): the script's lines are the passwords beside their hosts and users. Masked whole.
    if (DECODED_SECRET_CALL.test(code) && (evaluates || SCRIPT_PRINTS.test(code))) return { kind: 'password', tool: `${name} inline decoder of a password`, transformed: true };
  }
  return undefined;
}

/** A script's read of a file: python's `open(` / `read_text(`, node's `readFileSync(`, ruby's `File.read(`, php's `file_get_contents(`, perl's `open(`. */
const FILE_READ_CALL = /\b(?:open|read_text|read_bytes|readFileSync|readFile|File\.(?:read|open|readlines|binread)|IO\.read|file_get_contents|file|slurp|fopen|Get-Content|readLines|read_file)\s*\(|\bGet-Content\b|\bcat\s/;
/** A quoted word of a script (group 2), a path to test for a secret file. */
const QUOTED_PATH = /(["'`])([^"'`\s]{1,256})\1/g;

/**
 * `kubectl get secret db -o json | jq -r .data.password | base64 -d` (adv4 M15): the Secret as a
 * document is text the scanner reads (its keys named), but a later `jq`/`yq` stage picks one
 * value out of it, bare.
 */
function secretDocumentPicked(stages: readonly SimpleCommand[]): SecretPrinter | undefined {
  const argv = stages[0].argv;
  const name = basename(argv[0] ?? '');
  if (name !== 'kubectl' && name !== 'oc') return undefined;
  const [sub, sub2] = operands(argv);
  if (sub !== 'get' || !/^secrets?(?:\/|$)/.test(sub2 ?? '') || !/^(?:json|yaml)$/.test(option(argv, 'o', 'output') ?? '')) return undefined;
  return stages.slice(1).some((s) => /^(?:jq|yq|gojq|jaq)$/.test(basename(s.argv[0] ?? ''))) ? { kind: 'secret', tool: `${name} get secret | jq` } : undefined;
}

/** The echo printers' tools (echoedSecret), and the commands that may stand beside one in a line: they print nothing. */
const ECHOES = new Set(['echo', 'printf', 'print']);
const SILENT = new Set(['source', '.', 'unset', 'cd', 'true', ':']);
/** Builtins that print every variable (or option) when given no argument: silent only with one (`set -a`, `export X=1`). */
const SILENT_WITH_ARGUMENTS = new Set(['export', 'set', 'local', 'declare', 'typeset', 'readonly', 'shopt']);
const printsNothing = (argv: readonly string[]) => SILENT.has(basename(argv[0] ?? '')) || (argv.length === 1 && basename(argv[0] ?? '') === 'echo') || (SILENT_WITH_ARGUMENTS.has(basename(argv[0] ?? '')) && argv.length > 1 && !argv.slice(1).every((a) => /^-[pF]+$/.test(a)));

/** jq's and yq's options that take the next word (two: `--arg name value`), so that word is no filter. */
const JQ_ONE_VALUE = new Set(['-f', '--from-file', '--indent', '-L', '-o', '--output-format', '-p', '--input-format', '-I', '--expression', '--front-matter']);
const JQ_TWO_VALUES = new Set(['--arg', '--argjson', '--slurpfile', '--rawfile']);
/** A search for a secret variable's assignment in a pattern (`^DB_PASSWORD=`, `'API_TOKEN *='`, `(?<=SECRET_KEY=)`, YAML's `^api_key:`): the name in group 1. */
const ASSIGNMENT_PATTERN = /([A-Za-z_][A-Za-z0-9_]*)(?:\\?\s\*|\[ \]\*| ?\*)?\)?[=:]/g;
/**
 * An XML element's opening tag in a pattern (`(?<=<Pass encoding="base64">)[^<]+`: FileZilla's saved password, then `| base64 -d`:
 * pass 259 F28): its name in group 1, and the names of a password's element.
 */
const ELEMENT_PATTERN = /<([A-Za-z_][\w.-]{0,63})(?:\s[^>]{0,256})?>/g;
const SECRET_ELEMENT = /^(?:Pass|Passwd|Password|Secret|Token|ApiKey|PSK|PreSharedKey)$/i;
/** A stage that cuts an assignment down to its value: `cut -d= -f2-`, `awk -F= '{print $2}'`, `sed 's/^[^=]*=//'`, `perl -pe 's/.*=//'`. */
function cutsAtEquals(argv: readonly string[], delimiters = '=:'): boolean {
  const name = basename(argv[0] ?? '');
  const args = argv.slice(1);
  const delimiter = (d: string | undefined) => d !== undefined && d.length === 1 && delimiters.includes(d);
  if (name === 'cut') return args.some((a, i) => delimiter(/^(?:-d|--delimiter=?)(.)$/.exec(a)?.[1]) || (/^(?:-d|--delimiter)$/.test(a) && delimiter(args[i + 1])));
  if (AWK.test(name)) return args.some((a, i) => delimiter(/^-F(.)$/.exec(a)?.[1]) || (a === '-F' && delimiter(args[i + 1])));
  // (sed's `s/^name: //` cuts at a colon only where `:` is asked for: not `NAME=value` lines' cut, namesCutFromCredentialFile's.)
  const cut = delimiters.includes(':') ? /s(.)[^\n]*[=:][^\n]*\1\1/ : /s(.)[^\n]*=[^\n]*\1\1/;
  return /^(?:sed|perl)$/.test(name) && args.some((a) => cut.test(a));
}

/**
 * `grep '^DB_PASSWORD=' .env.production | cut -d= -f2-`, `sed -n 's/^API_TOKEN=//p' .env`, `awk -F= '/^SECRET_KEY=/{print
 * $2}' .env`, `grep -oP '(?<=DB_PASSWORD=).*' .env` (adv12 A25): a secret variable's assignment found in a file and cut down
 * to its value, which comes out alone on its line (the assignment itself, `DB_PASSWORD=…`, is text the scanner reads).
 */
function assignmentCut(stages: readonly SimpleCommand[]): SecretPrinter | undefined {
  for (const [i, stage] of stages.entries()) {
    const name = basename(stage.argv[0] ?? '');
    if (!/^(?:grep|egrep|rg|sed|perl)$/.test(name) && !AWK.test(name)) continue;
    const secret = stage.argv.slice(1).flatMap((a) => [...[...a.matchAll(ASSIGNMENT_PATTERN)].map((m) => m[1]), ...[...a.matchAll(ELEMENT_PATTERN)].map((m) => m[1]), ...alternativeNames(a)]).find((n) => isSecretVariable(n) || SECRET_ELEMENT.test(n) || isSecretName(n));
    if (secret === undefined) continue;
    // The stage cuts the line itself (sed, awk, perl, grep -o) or a later one does.
    if (name === 'sed' && stage.argv.some((a) => /^(?:-i|--in-place)/.test(a))) continue; // edits the file, prints nothing
    // The stage cuts the line itself (sed's `s/…=//`, awk -F=, perl, grep -o of a lookbehind) or a later one does.
    const cutsItself = /^(?:grep|egrep|rg)$/.test(name) ? stage.argv.some((a) => /^-[A-Za-z]*o[A-Za-z]*$|^--only-matching$/.test(a)) && stage.argv.some((a) => a.includes('(?<=')) : cutsAtEquals(stage.argv) || name === 'perl';
    if (!cutsItself && !stages.slice(i + 1).some((s) => cutsAtEquals(s.argv))) continue;
    // Values joined onto one line by a later stage (`| xargs echo`, `| paste -sd' '`, `| tr '\n' ' '`: adv159 F9): each line whole.
    const joined = stages.slice(i + 1).some((s) => joinsLines(s));
    return { kind: `$${secret} value`, tool: `${name} of an assignment`, ...(joined ? { transformed: true } : {}) };
  }
  return undefined;
}

/** The names a pattern's alternation makes before an `=` (`_(SECRET|KEY)=`: `_SECRET`, `_KEY`; `(DB|API)_PASSWORD=` too). */
function alternativeNames(pattern: string): string[] {
  const out: string[] = [];
  for (const m of pattern.matchAll(/([A-Za-z0-9_]*)\(((?:[A-Za-z0-9_]+\|)+[A-Za-z0-9_]+)\)([A-Za-z0-9_]*)\\?=/g)) for (const alt of m[2].split('|')) out.push(`${m[1]}${alt}${m[3]}`);
  return out;
}

/** A stage that joins its input's lines with blanks: `xargs` (echo, its default), `paste -s` with a blank delimiter, `tr '\n' ' '`. */
function joinsLines(stage: SimpleCommand): boolean {
  const argv = stage.argv;
  const name = basename(argv[0] ?? '');
  if (name === 'xargs') {
    const command = argv.slice(1).filter((a) => !a.startsWith('-'));
    return command.length === 0 || basename(command[0]) === 'echo';
  }
  if (name === 'paste') return argv.some((a) => /^-[A-Za-z]*s/.test(a)) && argv.some((a, i) => /^-d[ \t]/.test(a) || (a === '-d' && /^[ \t]/.test(argv[i + 1] ?? '')));
  return name === 'tr' && argv.length === 3 && /^(?:\\n|\n)$/.test(argv[1]) && /^[ \t]$/.test(argv[2]);
}

/** A `.pgpass` file (`host:port:database:user:password` a line). */
const PGPASS_FILE = /(?:^|\/)\.pgpass$/;
/** awk's field separator set to `:` (`-F:`, `-F ':'`, `-F':'`). */
const AWK_COLON_SEPARATOR = /^-F(?::|'?:'?|"?:"?)$/;

/**
 * awk's columns of a `.pgpass` (`awk -F: '{ printf "%-28s %s\n", $1, $5 }' ~/.pgpass`: pass 242 F33): its password, field 5
 * (or `$NF`), is the printed column at its place among the fields printed, one word of each row; the other columns stay.
 */
function pgpassFieldsPrinted(stages: readonly SimpleCommand[]): SecretPrinter | undefined {
  const awk = stages.find((st) => AWK.test(basename(st.argv[0] ?? '')));
  if (!awk || !awk.argv.some((a, i) => AWK_COLON_SEPARATOR.test(a) || (a === '-F' && awk.argv[i + 1] === ':'))) return undefined;
  if (!awk.argv.slice(1).some((a) => PGPASS_FILE.test(a))) return undefined;
  const program = awk.argv.find((a) => /\bprintf?\b/.test(a));
  if (program === undefined) return undefined;
  const fields = [...program.slice(program.search(/\bprintf?\b/)).matchAll(/\$(\d+|NF)\b/g)].map((m) => m[1]);
  const at = fields.findIndex((f) => f === '5' || f === 'NF');
  if (at < 0) return undefined;
  const row = at === fields.length - 1 ? /^(?:.*[ \t])?(?<v>\S+)[ \t]*\r?$/ : new RegExp(String.raw`^[ \t]*(?:\S+[ \t]+){${at}}(?<v>\S+)`);
  return { kind: 'password', tool: 'awk of .pgpass', rows: row };
}

/**
 * A credential file's values without their names (`cut -d= -f2- .env`, `awk -F= '{print $2}' .env`, `sed 's/^.*=//' .env`: adv76
 * F11-F13): no name is left beside a value to say which are secrets, so each line that is one minted-looking word is taken for
 * one (amongOthers), and the file's other values (`production`, `5432`, a host) stay.
 */
function namesCutFromCredentialFile(stages: readonly SimpleCommand[]): SecretPrinter | undefined {
  const reads = credentialFileReader(stages);
  // A line picked by its name (`grep '^DB_HOST=' .env | cut …`) is that name's value: assignmentCut reads a secret's.
  if (stages.some((s) => /^(?:grep|egrep|rg)$/.test(basename(s.argv[0] ?? '')) && s.argv.slice(1).some((a) => NAMES_AN_ASSIGNMENT.test(a)))) return undefined;
  // The names' field (`cut -d= -f1`, `awk -F= '{print $1}'`) prints no value.
  const cut = stages.slice(Math.max(reads, 0)).find((s) => cutsAtEquals(s.argv) && !printsNamesOnly(s.argv));
  if (cut === undefined) return undefined;
  if (reads >= 0) return { kind: 'value', tool: `${basename(cut.argv[0] ?? '')} of a credential file`, amongOthers: true };
  // Any file's (or `env`'s) `NAME=value` lines cut at their `=`, whatever the file is called (`cut -d= -f2- form-F11.txt`, `env |
  // awk -F= '{print $2}'`: adv76): values of settings, and a minted-looking one among them is a secret's. Not `:` (a log's fields).
  return cutsAtEquals(cut.argv, '=') ? { kind: 'value', tool: `${basename(cut.argv[0] ?? '')} of NAME=value lines`, amongOthers: true, mixedCase: true } : undefined;
}

/** `rev` of any file or input (`rev config.txt`, `cat x | rev`): its lines are read backwards (SecretPrinter.reversedLines). */
function reversedText(stages: readonly SimpleCommand[]): SecretPrinter | undefined {
  const at = stages.findIndex((s) => basename(s.argv[0] ?? '') === 'rev');
  // A second `rev` after it turns the text forwards again: the scanner reads it as is.
  if (at < 0 || stages.slice(at + 1).some((s) => basename(s.argv[0] ?? '') === 'rev')) return undefined;
  return { kind: 'reversed secret', tool: 'rev', reversedLines: true };
}

/**
 * `tr SET1 SET2` that swaps characters one for one (rot13's `tr 'A-Za-z' 'N-ZA-Mn-za-m'`, a digit shift; adv102 F10): its output
 * read back through the inverse map (SecretPrinter.translated). Not `tr -d`/`-s`/`-c` (they drop or squeeze), not a map that
 * sends two characters to one (not reversible), not the identity, not case folding alone (`tr a-z A-Z`: the scanner reads
 * names case-insensitively, and a token's case lost is lost either way).
 */
function substitutedText(stages: readonly SimpleCommand[]): SecretPrinter | undefined {
  for (const s of stages) {
    if (basename(s.argv[0] ?? '') !== 'tr' || s.argv.length !== 3 || s.argv[1].startsWith('-')) continue;
    const from = trSet(s.argv[1]);
    const to = trSet(s.argv[2]);
    if (!from || !to || from.length !== to.length || from.length > MAX_TR_SET) continue;
    const back = new Map<string, string>();
    let moved = 0;
    for (let i = 0; i < from.length; i++) {
      const prior = back.get(to[i]);
      if (prior !== undefined && prior !== from[i]) return undefined;
      back.set(to[i], from[i]);
      if (to[i] !== from[i] && to[i].toLowerCase() !== from[i].toLowerCase()) moved++;
    }
    return moved > 0 ? { kind: 'encoded secret', tool: 'tr', translated: back } : undefined;
  }
  return undefined;
}

/** A tr set's longest reading (all of Latin-1's bytes). */
const MAX_TR_SET = 256;

/** A tr set's characters in order: ranges (`a-z`) expanded; `undefined` for classes, repeats or escapes (not read). */
function trSet(set: string): string[] | undefined {
  if (/[[\\]/.test(set)) return undefined;
  const out: string[] = [];
  for (let i = 0; i < set.length; i++) {
    if (set[i + 1] === '-' && i + 2 < set.length) {
      const a = set.charCodeAt(i);
      const b = set.charCodeAt(i + 2);
      if (b < a || b - a > MAX_TR_SET) return undefined;
      for (let c = a; c <= b; c++) out.push(String.fromCharCode(c));
      i += 2;
    } else out.push(set[i]);
  }
  return out;
}

/** The secrets the scanner finds in each line mapped back through `back`, as they stand in the output (substituted). */
function translatedLineValues(text: string, back: ReadonlyMap<string, string>): string[] {
  const values: string[] = [];
  for (const line of text.split('\n')) {
    if (line.length < MIN_PRINTED_CHARS) continue;
    // Code unit by code unit, so the offsets line up (a set's characters are single code units: trSet reads them so).
    let plain = '';
    for (let i = 0; i < line.length; i++) plain += back.get(line[i]) ?? line[i];
    for (const f of scanSecrets(plain)) values.push(line.slice(f.start, f.end));
  }
  return values;
}

/** A pattern that names a variable's assignment (`^DB_HOST=`): ASSIGNMENT_PATTERN's `=` form, without its global state. */
const NAMES_AN_ASSIGNMENT = new RegExp(ASSIGNMENT_PATTERN.source.replace('[=:]', '='));
/** cut's or awk's first field alone (the names of `NAME=value` lines). */
function printsNamesOnly(argv: readonly string[]): boolean {
  const name = basename(argv[0] ?? '');
  const args = argv.slice(1).join(' ');
  if (name === 'cut') return /(?:^|\s)(?:-f|--fields=?)\s*1(?!\d|-|,)/.test(args);
  if (AWK.test(name)) return /print[ \t]+\$1\b/.test(args) && !/\$(?:[2-9]|NF)\b/.test(args);
  return false;
}

/** awk's or cut's field of a line (`awk '{print $2}'`, `cut -d' ' -f2`, `cut -d: -f2`): what is left after a name. */
function printsAField(argv: readonly string[]): boolean {
  const name = basename(argv[0] ?? '');
  if (AWK.test(name)) return argv.slice(1).some((a) => /print[ \t]+\$(?:[2-9]|NF)\b/.test(a));
  return name === 'cut' && argv.slice(1).some((a) => /^-f|^--fields/.test(a));
}

/** An awk program that selects lines by a pattern and prints a field of them (`/api-token:/{print $2}`): the pattern (group p). */
// Or after the file's name (`{print FILENAME": "$2}`: blind pass 217 F13).
const AWK_PICK_PRINT = /^\s*\/(?<p>[^/]{1,128})\/\s*\{\s*print\s+(?<f>FILENAME\s*(?:"[^"\n]{0,8}"\s*)?,?\s*)?\$[1-9]/;

/**
 * awk picking the line by its first field's name and printing another field (`awk -F= '$1=="YT_KEY"{print $2}' stream.env`,
 * `awk -F' *= *' '$1=="password"{print $2}' .my.cnf`: passes 305 F44, 307 F38): what it prints is the named value, alone. The
 * name is the scanner's test (`API_KEY_ROTATED`, a date's name, is none: adv308 L14).
 */
function awkFieldPicked(stages: readonly SimpleCommand[]): SecretPrinter | undefined {
  let printer: SecretPrinter | undefined;
  for (const s of stages) {
    const name = basename(s.argv[0] ?? '');
    if (!AWK.test(name)) continue;
    const program = operands(s.argv)[0] ?? '';
    const m = AWK_FIELD_EQUALS.exec(program);
    // (Or one rule of several, printing the value last after other text: `$1=="machine"{m=$2} $1=="password"{print m": "$2}` over a
    // `.netrc`: session 50's stop-time check 334 S46. Each line's last word is the value.)
    const among = m ? null : AWK_RULE_PRINTS_LAST.exec(program);
    const field = m?.groups!.n ?? m?.groups!.r ?? among?.groups!.n;
    if ((!m && !among) || field === undefined || (m ?? among)!.groups!.by === (m ?? among)!.groups!.out) continue;
    // Every pick a secret's (`awk … API_KEY_FILE …; awk … API_KEY_ROTATED …` prints a path and a date: adv308 L14).
    if (!isSecretName(field) || SECRET_METADATA_NAME.test(field)) return undefined;
    printer ??= { kind: /^[A-Za-z_]\w*$/.test(field) ? `$${field} value` : 'value', tool: `${name} of a secret's line`, ...(among ? { rows: LAST_WORD_ROW } : {}) };
  }
  return printer;
}

/**
 * An awk program that picks lines by a field's name and prints another field (`$1=="password"{print $2}`, `$1 ~ /^api_key$/ {
 * print $3 }`; after other statements, or by printf: `{ gsub(/"/, "", $2); print $2 }`, `{printf "%s\n", $2}`: adv308 A3, A6): the name (group n, or r of a regex), the field compared (by) and the one printed (out).
 */
/** One of an awk program's rules picking a line by a field's name and printing another field last (`$1=="password"{print m": "$2}`). */
const AWK_RULE_PRINTS_LAST = /(?:^|[\s;}])\$(?<by>[1-9])\s*==\s*(?<q>["'])(?<n>[^"'\n]{1,128})\k<q>\s*\{\s*print\s+[^{}\n]{0,128}?\$(?<out>[1-9])\s*;?\s*\}/;
/** A row's last word (the value AWK_RULE_PRINTS_LAST's line ends in). */
const LAST_WORD_ROW = /^(?:.*[ \t])?(?<v>\S+)[ \t]*\r?$/;
const AWK_FIELD_EQUALS = /^\s*\$(?<by>[1-9])\s*(?:==\s*(?<q>["'])(?<n>[^"'\n]{1,128})\k<q>|~\s*\/\^?(?<r>[\w.-]{1,128})\$?\/)\s*\{[^{}\n]{0,256}?\bprintf?\s*\(?\s*(?:"[^"\n]{0,32}"\s*,\s*)?\$(?<out>[1-9])\s*\)?\s*;?\s*\}\s*$/;

/**
 * A secret's line found by its key and cut to its value (`grep 'password:' secret.yaml | awk '{print $2}' | base64 -d`, `grep
 * token config.ini | cut -d' ' -f3`: adv76 F19): the line's name is gone from the output; each line that is one minted-looking
 * word is the value.
 */
function secretKeyLineCut(stages: readonly SimpleCommand[]): SecretPrinter | undefined {
  // awk picking the line by the name and printing a field of it in one (`awk '/api-token:/{print $2}' secret.yaml | base64 -d`:
  // adv199 F45).
  // (Or a name the scanner takes, `/^access_key/` of an INI file: pass 326 F23.)
  const picked = stages.findIndex((s) => {
    const p = AWK.test(basename(s.argv[0] ?? '')) ? AWK_PICK_PRINT.exec(operands(s.argv)[0] ?? '')?.groups!.p : undefined;
    // (After the pattern's anchor and blanks: `/^[[:space:]]*access_key/`, `/^\s*token/`: adv333 S39.)
    return p !== undefined && (SECRET_FIELD.test(p) || isSecretName(p.replace(/^\^?(?:\[\[:(?:space|blank):\]\]|\\s|\[ \\t\]| )?[*+]?/, '').replace(/[^\w.-][^]*$/, '')));
  });
  if (picked >= 0) {
    const fileNamed = AWK_PICK_PRINT.exec(operands(stages[picked].argv)[0] ?? '')?.groups!.f !== undefined;
    return { kind: 'value', tool: `${basename(stages[picked].argv[0] ?? '')} of a secret's line`, amongOthers: true, ...(fileNamed ? { fileNamed } : {}) };
  }
  const at = stages.findIndex((s) => /^(?:grep|egrep|fgrep|rg)$/.test(basename(s.argv[0] ?? '')) && operands(s.argv).slice(0, 1).some((p) => SECRET_FIELD.test(p)));
  if (at < 0) return undefined;
  const cut = stages.slice(at + 1).find((s) => printsAField(s.argv) || cutsAtEquals(s.argv));
  return cut ? { kind: 'value', tool: `${basename(cut.argv[0] ?? '')} of a secret's line`, amongOthers: true } : undefined;
}

/**
 * Files of credentials a scanner reads as text (`cat .env` is read there: its names say which values are secrets), that an
 * encoding hides from it: `.env*`, `.pgpass`, `.netrc`, `.npmrc`, `.pypirc`, `.git-credentials`, AWS's `credentials`, a
 * kubeconfig, docker's `config.json`, private keys, Terraform state and variables; llm's `keys.json` (its keys by their provider's
 * name alone, `"mistral": "…"`: adv248 F5).
 */
const CREDENTIAL_TEXT_FILE = /(?:^|\/)(?:\.env(?:\.[\w.-]+)?|\.pgpass|\.netrc|_netrc|\.npmrc|\.pypirc|\.git-credentials|\.dockercfg|credentials(?:\.json)?|io\.datasette\.llm\/keys\.json|kubeconfig|\.kube\/config|\.docker\/config\.json|id_(?:rsa|ed25519|ecdsa|dsa)|[^/]+\.(?:pem|key|p12|pfx|tfstate|tfvars)|terraform\.tfstate(?:\.backup)?)$/;
/** Commands whose output is an encoding of their input: base64, hex, octal, compressed, an archive. */
const ENCODER = /^(?:base64|base32|basenc|xxd|od|hexdump|gzip|bzip2|xz|zstd|lz4|brotli|tar|zip|openssl|uuencode|rev)$/;

/** Does the stage print an encoding of its input: an ENCODER, openssl only as `base64` / `enc` (`openssl x509 -text` prints a certificate), tar only to stdout? */
function encodes(argv: readonly string[]): boolean {
  const name = basename(argv[0] ?? '');
  if (!ENCODER.test(name)) return false;
  if (name === 'openssl') return argv[1] === 'base64' || argv[1] === 'enc';
  if (name === 'tar') {
    const f = argv.findIndex((a, i) => i > 0 && /^-?[A-Za-z]*f[A-Za-z]*$/.test(a) && !a.startsWith('--'));
    return f < 0 || argv[f + 1] === '-';
  }
  return true;
}

/** Commands that print a file they read, as it is or in another shape: an encoder (hex, octal, base32, reversed) or a text tool. */
const FILE_ENCODER = /^(?:xxd|od|hexdump|hd|base32|base64|basenc|uuencode|rev)$/;
const FILE_TEXT_TOOL = /^(?:cat|head|tail|less|more|bat|batcat|nl|tac|strings|sed|awk|gawk|mawk|nawk|cut|tr|perl|dd|fold|fmt|paste|sort|uniq|column|iconv|expand|grep|egrep|fgrep|rg)$/;
/** Tools whose first operand is a script or a pattern (`sed 's/x/y/' FILE`, `grep token FILE`), unless `-e` / `-f` gives it. */
const SCRIPT_FIRST = /^(?:sed|awk|gawk|mawk|nawk|grep|egrep|fgrep|rg)$/;
/** Their options that take the next word, per tool (so it is no file). */
const FILE_TOOL_VALUES: Record<string, readonly string[]> = {
  grep: ['-m', '-A', '-B', '-C', '-d', '-D', '--max-count', '--context'],
  rg: ['-m', '-A', '-B', '-C', '-g', '-t', '-T', '--glob', '--type'],
  awk: ['-F', '-v'],
  sed: ['-l'],
  cut: ['-d', '-f', '-c', '-b', '--delimiter', '--fields'],
  xxd: ['-c', '-g', '-l', '-s', '-o', '-n', '-cols', '-len', '-seek'],
  od: ['-A', '-j', '-N', '-t', '-w', '-S'],
  hexdump: ['-n', '-s', '-e'],
  hd: ['-n', '-s', '-e'],
  base64: ['-w'],
  base32: ['-w'],
  basenc: ['-w'],
  fold: ['-w'],
  strings: ['-n', '-t', '-e'],
  sort: ['-k', '-t', '-S', '-T'],
  iconv: ['-f', '-t'],
  head: ['-n', '-c'],
  tail: ['-n', '-c'],
  column: ['-s', '-c', '-o'],
  paste: ['-d'],
};
/** A document's extension: a text tool's output of it is text the scanner reads (`sed -n 1,9p k8s/secrets/app.yaml`). */
const DOCUMENT_EXTENSION = /\.(?:ya?ml|json|toml|ini|conf|cfg|md|rst|xml|env|properties|html?|[cm]?[jt]sx?|py|rb|go|rs|java|sh|tf|hcl|csv|tsv|log|sql)$/i;

/** The files a file-printing tool's argv names (its operands less a script or pattern, `dd`'s `if=`). */
function fileOperands(name: string, argv: readonly string[]): string[] {
  if (name === 'dd') return argv.flatMap((a) => (a.startsWith('if=') ? [a.slice(3)] : []));
  if (name === 'tr') return []; // sets, not files: tr reads its input
  const values = new Set(FILE_TOOL_VALUES[name.replace(/^(?:egrep|fgrep)$/, 'grep').replace(AWK, 'awk')] ?? []);
  const out: string[] = [];
  let scriptGiven = false;
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') {
      out.push(...argv.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      out.push(a);
      continue;
    }
    if (name === 'perl') {
      // `perl -pe SCRIPT FILE`, `perl -lne SCRIPT FILE`: the script follows a cluster ending in e / E.
      if (/^-[A-Za-z]*[eE]$/.test(a)) i++;
      scriptGiven = true;
    } else if (/^(?:-e|-f|--expression|--file|--regexp)$/.test(a)) {
      scriptGiven = true;
      i++;
    } else if (/^(?:-[ef].|--(?:expression|file|regexp)=)/.test(a) && SCRIPT_FIRST.test(name)) scriptGiven = true;
    else if (values.has(a)) i++;
  }
  if (SCRIPT_FIRST.test(name) && !scriptGiven) out.shift();
  return out;
}

/**
 * `xxd -p /run/secrets/smtp_password`, `od -c db_password.txt`, `base32 secrets/api_token`, `rev …`, `sed 's/./& /g' …`, `tr -d
 * '\n' < /run/secrets/db`, `dd if=…` (adv21 F37): a file that holds one credential (SECRET_FILE) or credentials in rows
 * (CREDENTIAL_ROWS_FILE), named as an operand or fed in by `<`, printed by a tool that prints what it reads (the cat family
 * names only its operands: printerOf). Its output is the credential in some shape: masked whole. A tool that prints no value
 * (`ls`, `stat`, `wc -c`, `sha256sum`, `cp`, `chmod`) is no such tool; nor `sed -i` (an edit) or `dd of=FILE`.
 */
function secretFileRead(argv: readonly string[], inputs: readonly string[] = []): SecretPrinter | undefined {
  const name = basename(argv[0] ?? '');
  const encoder = FILE_ENCODER.test(name);
  if (!encoder && !FILE_TEXT_TOOL.test(name)) return undefined;
  if (isReducer(argv) || (/^(?:sed|perl)$/.test(name) && argv.some((a) => /^(?:-i|--in-place)/.test(a) || /^-[A-Za-z]*i/.test(a) && name === 'perl')) || (name === 'dd' && argv.some((a) => a.startsWith('of=') && !/^of=\/dev\/(?:stdout|tty|fd\/1)$/.test(a)))) return undefined;
  // A private key's file read by a line tool (`nl -ba server.key | sed -n '10,14p'`, `sed -n '10,14p' id_rsa`: adv41 F49, adv36
  // F45): the lines it prints are the key's body without its armour, which no block rule finds. `cat` of the whole file is the
  // scanner's (its BEGIN / END lines are there).
  const keyFile = (f: string) => PRIVATE_KEY_FILE.test(f) && (name !== 'cat' || argv.length > 2);
  const secretFile = (f: string) => CREDENTIAL_ROWS_FILE.test(f) || keyFile(f) || (SECRET_FILE.test(f) && (encoder || !DOCUMENT_EXTENSION.test(f)));
  // An askpass helper (`cat "$SSH_ASKPASS"`, `cat ~/bin/git-askpass.sh`): a script that echoes the passphrase.
  if (!encoder && fileOperands(name, argv).some((f) => ASKPASS_FILE.test(f))) return { kind: 'password', tool: `${name} of an askpass script`, scriptEchoes: true };
  const picked = rowsPicked(name, argv);
  if (picked) return picked;
  return [...fileOperands(name, argv), ...inputs].some(secretFile) ? { kind: 'secret', tool: `${name} of a secret file`, transformed: true } : undefined;
}

/** Tools that print lines of a file as they are, or a choice of them: a credentials file's layout still reads their rows. */
const LINE_PICKER = /^(?:grep|egrep|fgrep|rg|sort|tac|uniq)$/;
/** grep's options that print no line as it is (`-o` a match, `-c` counts, `-l` names, `-q` nothing, `-b` byte offsets before it). */
const PICKS_NO_WHOLE_LINE = /^-[A-Za-z]*[oclLqbZz]|^--(?:only-matching|count|files-with(?:out)?-match(?:es)?|quiet|silent|byte-offset|null)$/;

/**
 * `grep -v '^#' conf/jmxremote.password`, `grep -H -v '^#' users.properties` (adv172 F40, F29): lines of one credentials file of a
 * known layout (CREDENTIAL_ROW_FILES) picked by a line tool, each row's password, after grep's `file:` / `12:` prefix.
 */
function rowsPicked(name: string, argv: readonly string[]): SecretPrinter | undefined {
  if (!LINE_PICKER.test(name) || argv.slice(1).some((a) => PICKS_NO_WHOLE_LINE.test(a) && /^(?:grep|egrep|fgrep|rg)$/.test(name))) return undefined;
  const files = fileOperands(name, argv);
  const layout = files.length > 0 ? CREDENTIAL_ROW_FILES.find((f) => files.every((a) => f.file.test(a))) : undefined;
  if (!layout) return undefined;
  const names = files.map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  return { kind: 'password', tool: `${name} of a credentials file`, rows: layout.row, rowPrefix: new RegExp(`^(?:(?:${names})[:-])?(?:\\d+[:-])?`) };
}

/** A file or a variable naming an askpass helper (`$SSH_ASKPASS`, `$GIT_ASKPASS`, `askpass.sh`, `git-askpass`). */
const ASKPASS_FILE = /askpass/i;
/** A script's line that prints a literal: `echo 'pw'`, `echo -n "pw"`, `printf '%s\n' 'pw'`, `printf pw`. */
const ECHOED_LITERAL = /^[ \t]*(?:exec[ \t]+)?(?:echo(?:[ \t]+-[neE]+)?|printf(?:[ \t]+(['"])%s(?:\\n)?\1)?)[ \t]+(?:'(?<single>[^'\n]+)'|"(?<double>[^"$`\n]+)"|(?<bare>[^\s'"$`;|&]+))[ \t]*(?:;[ \t]*)?\r?$/gm;

/** The literals a script's `echo` / `printf` lines print (scriptEchoes). */
function echoedLiterals(text: string): string[] {
  const out: string[] = [];
  for (const m of text.replace(DECORATION, '').matchAll(ECHOED_LITERAL)) {
    const v = m.groups!.single ?? m.groups!.double ?? m.groups!.bare;
    if (v !== undefined && v.length >= MIN_PRINTED_CHARS && !isReference(v)) out.push(v);
  }
  return out;
}

/** Database clients and how each takes a query on its command line: `psql -c`, `mysql -e`, `sqlite3 DB SQL`, `sqlcmd -Q`, … */
const QUERY_OPTIONS: Record<string, { short: string; long: string[]; operand?: boolean }> = {
  psql: { short: 'c', long: ['--command'] },
  mysql: { short: 'e', long: ['--execute'] },
  mariadb: { short: 'e', long: ['--execute'] },
  sqlite3: { short: '', long: ['-cmd'], operand: true },
  duckdb: { short: 'c', long: ['-cmd'], operand: true },
  sqlcmd: { short: 'Qq', long: ['--query'] },
  'clickhouse-client': { short: 'q', long: ['--query'] },
  clickhouse: { short: 'q', long: ['--query'] },
  cqlsh: { short: 'e', long: ['--execute'] },
};

/** The queries a database client's argv carries (`-Atc Q`, `--command=Q`, `-e Q`, sqlite3's operand after the database). */
function queriesOf(argv: readonly string[]): string[] {
  const spec = QUERY_OPTIONS[basename(argv[0] ?? '')];
  if (!spec) return [];
  const out: string[] = [];
  const operands: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i];
    const eq = spec.long.find((l) => a.startsWith(`${l}=`));
    if (eq) out.push(a.slice(eq.length + 1));
    else if (spec.long.includes(a)) out.push(argv[++i] ?? '');
    else if (spec.short && /^-[A-Za-z]+$/.test(a) && spec.short.includes(a[a.length - 1])) out.push(argv[++i] ?? '');
    else if (!a.startsWith('-')) operands.push(a);
  }
  if (spec.operand) out.push(...operands.slice(1));
  return out;
}

/** A column that holds a credential (`password`, `api_key`, `reset_password_token`, `client_secret`, `rolpassword`). */
// (PocketBase's `_superusers.tokenKey`, the key its tokens are signed with: pass 271 F9.)
const SECRET_COLUMN = /(?:password|passwd|passphrase|secret|token|api_?key|private_?key|secret_?key|access_?key|signing_?key|encryption_?key|master_?key|token_?key|auth_?key|session_?key|hmac_?key|jwt_?key|credentials?)$|^(?:\w*_)?pwd$/i;
/** …not a hash of one or a flag about one: a hash is not the credential (`password_hash` ends otherwise; `hashed_password`, `is_secret`). */
const HASHED_COLUMN = /^(?:is|has|hashed|encrypted|crypted|salted|bcrypt|digest)_|^(?:hashed|encrypted|crypted)(?=[a-z]*password)/i;
/** Functions whose value is no credential (a count, a length, a digest): the column inside them prints nothing of its value. */
const REDUCING_SQL = /^(?:count|length|char_length|character_length|octet_length|bit_length|len|datalength|md5|sha1|sha2|sha224|sha256|sha384|sha512|digest|crypt|hashtext|crc32|bool|exists|max_length)$/i;
/**
 * A table of credentials (`secrets`, `api_tokens`, Django REST framework's `authtoken_token`, `oauth2_provider_accesstoken`): its
 * `value` or `key` column is one (DRF's token is a 40-hex `key`: adv164 F33), and `select *` of it prints one. A browser's
 * cookie store too (Chrome's `cookies`, Firefox's `moz_cookies`: `select host_key, name, value from cookies`, adv171 S6, S7).
 */
const SECRET_TABLE = /(?:secrets?|credentials?|tokens?|passwords|api_?keys?|cookies)$/i;
/**
 * Words of a column's name that say it may hold a credential in some form (a query's column shown beside a secret's is shown only
 * without one): `api_key_enc`, `password_salt`, `recovery_codes`, `security_answer`, `refresh`; Kamailio's `ha1` (digest auth
 * signs in with it: pass 255 F10).
 */
const CREDENTIAL_WORDS = new Set(['pass', 'passwd', 'password', 'passwords', 'passphrase', 'pwd', 'pw', 'secret', 'secrets', 'token', 'tokens', 'key', 'keys', 'apikey', 'cred', 'creds', 'credential', 'credentials', 'auth', 'cipher', 'ciphertext', 'enc', 'encrypted', 'salt', 'hash', 'hashed', 'digest', 'pin', 'otp', 'totp', 'mfa', 'seed', 'mnemonic', 'private', 'priv', 'cookie', 'cookies', 'session', 'sid', 'sig', 'signature', 'cert', 'jwt', 'bearer', 'refresh', 'recovery', 'answer', 'verifier', 'dsn', 'conn', 'connection', 'uri', 'url', 'ha1', 'ha1b']);
function hasCredentialWord(name: string): boolean {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().split(/[^a-z0-9]+/).some((w) => CREDENTIAL_WORDS.has(w));
}
/** The titles a credentials table shows in clear under `select *` (its other columns are masked: a name says little there). */
const PUBLIC_TITLE = /^(?:id|uuid|name|title|label|description|user|username|user_?id|login|email|account|account_?id|owner|owner_?id|host|hostname|port|service|provider|type|kind|scopes?|abilities|status|enabled|active|revoked|region|env|environment|created|created_?at|updated_?at|expires|expires_?at|expiry|last_used_?at|tokenable_type|tokenable_id|version|count)$/i;
/** The column titles of a token table that `select *` prints (Django's, Rails', Laravel's, a hand-made one's). */
const STAR_TITLES = ['id', 'key', 'token', 'value', 'name', 'user', 'user_id', 'created', 'created_at', 'updated_at', 'expires', 'expires_at', 'last_used_at', 'scopes', 'abilities', 'description', 'tokenable_type', 'tokenable_id'];
/** A secret table's columns that hold its credential though their names say nothing alone. */
const SECRET_TABLE_COLUMN = /^(?:value|data|plaintext|secret_value|key)$/i;

/**
 * Does a query print a credential: a `select` (or `returning`) list that names a secret column, outside a count, a length, a
 * digest or a comparison (`select count(*) … where password is null` prints a count), or a secret table's `value`?
 */
function selectsSecret(query: string): boolean {
  const q = query.replace(/'(?:[^']|'')*'/g, "''").replace(/--[^\n]*/g, '');
  for (const m of q.matchAll(/\b(?:select|returning)\b([\s\S]*?)(?:\bfrom\s+([\w."]+)|\bwhere\b|\bunion\b|;|$)/gi)) if (listSelectsSecret(m[1], m[2])) return true;
  return false;
}

/** Does a select list (or one of its items) print a secret, from `table` (its name as the query wrote it, if any)? */
function listSelectsSecret(list: string, table: string | undefined): boolean {
  // Innermost calls first: a reducing one goes with its argument, any other leaves its argument (`encode(convert_to(password, …))`).
  for (let before = ''; before !== list; ) {
    before = list;
    list = list.replace(/\b(\w+)\s*\(([^()]*)\)/g, (_, fn: string, args: string) => (REDUCING_SQL.test(fn) ? '' : ` ${args} `));
  }
  list = list.replace(/[\w."]+\s+is\s+(?:not\s+)?null|[\w."]+\s*(?:=|<>|!=|\blike\b|\bilike\b)\s*[\w."']+/gi, '');
  const columns = (list.match(/[A-Za-z_][\w."]*/g) ?? []).map((c) => c.replace(/"/g, '').split('.').pop() ?? '');
  if (columns.some((c) => SECRET_COLUMN.test(c) && !HASHED_COLUMN.test(c))) return true;
  return table !== undefined && secretTable(table) && (/(?:^|[\s,.])\*/.test(list) || columns.some((c) => SECRET_TABLE_COLUMN.test(c)));
}

/** A table of credentials by its name (`public.api_tokens`, `"secrets"`). */
function secretTable(table: string): boolean {
  return SECRET_TABLE.test(table.replace(/"/g, '').split('.').pop() ?? '');
}

/**
 * `psql -Atc "select encode(convert_to(password, 'UTF8'), 'hex') from svc_accounts"`, `mysql -N -e "select api_key from …"`,
 * `sqlite3 app.db "select token from sessions"` (adv21 F27): a database client asked for a secret column. Its rows are the
 * credentials, in whatever shape the query gave them (hex, base64, beside an id): masked whole; its column titles and a table's
 * rules (`keep`: the query's words) stay.
 */
function queryPrinted(name: string, queries: readonly string[]): SecretPrinter | undefined {
  const query = queries.find(selectsSecret);
  if (query === undefined) return settingsQueryPrinted(name, queries);
  // `select *` names no column: a token table's usual titles are kept as the header's words (a header of others is masked, not shown).
  const star = /\bselect\s+\*/i.test(query) ? STAR_TITLES : [];
  // Its rows by column where the output splits into the list's cells (query-rows.ts): the other columns stay.
  // (A column the list shows beside a secret is shown only when no word of its name is a credential's: `api_key_enc`,
  // `password_salt` beside `api_key` stay masked, as every cell was before.)
  // (Its words, not its letters: `reference`, `design`, `encoding` beside a token are shown: adv263 LA5.) Under `select *` of a
  // credentials table, every column but the titles such tables show in clear (adv263 Q3).
  const columns = selectedColumns(query, (item, table) => listSelectsSecret(item, table) || (item.match(/[A-Za-z_]\w*/g) ?? []).some(hasCredentialWord));
  const starTitle = (t: string) => hasCredentialWord(t) || SECRET_TABLE_COLUMN.test(t) || !PUBLIC_TITLE.test(t);
  return {
    kind: 'secret',
    tool: `${name} query of a secret column`,
    transformed: true,
    keep: [...new Set(['?column?', ...star, ...[...queries.join(' ').matchAll(/[A-Za-z_][\w]*/g)].map((m) => m[0])])],
    ...(columns !== undefined ? { queryColumns: { columns, isSecretTitle: starTitle } } : {}),
  };
}

/**
 * `sqlite3 -header ojs.db "select user_id, setting_name, setting_value from user_settings"`, `select option_name, option_value from
 * wp_options`, `select * from settings` (pass 276 F6): a settings table, no column a secret's, each row naming its own. Each row's
 * value whose name is a secret's (pairedCellValues); the other rows, and an output not read so, the scanner's as before.
 */
function settingsQueryPrinted(name: string, queries: readonly string[]): SecretPrinter | undefined {
  for (const query of queries) {
    // (`select *` of a table whose name says settings: a users table's `name` and `value`-less columns are no pair.)
    if (/\bselect\s+(?:[\w."]+\.)?\*\s+from\s+[\w."]*(?:setting|option|config|conf\b|meta|param|propert|preference|variable|attribute|kv\b)/i.test(query)) return { kind: 'secret', tool: `${name} query of a settings table`, queryPairs: '*' };
    const titles = selectedTitles(query);
    const pair = titles && pairColumns(titles);
    if (pair) return { kind: 'secret', tool: `${name} query of a settings table`, queryPairs: pair };
  }
  return undefined;
}

/** `psql <<< "select password from users"`: a database client's query as a here-string. */
function queryHereString(stage: SimpleCommand): SecretPrinter | undefined {
  const name = basename(stage.argv[0] ?? '');
  if (!QUERY_OPTIONS[name]) return undefined;
  const queries = stage.redirects.flatMap((r) => (r.op === '<<<' && r.target !== undefined ? [r.target.replace(/^(["'])([\s\S]*)\1$/, '$2')] : []));
  return queries.length ? queryPrinted(name, queries) : undefined;
}

/** The first stage that reads a credential text file (an operand, or `<` FILE), or -1. */
function credentialFileReader(stages: readonly SimpleCommand[]): number {
  return stages.findIndex((s) => operands(s.argv).some((a) => CREDENTIAL_TEXT_FILE.test(a)) || s.redirects.some((r) => r.op === '<' && r.target !== undefined && CREDENTIAL_TEXT_FILE.test(r.target)));
}

/**
 * `gzip -c .env.production | base64 -w0`, `base64 ~/.aws/credentials`, `xxd -p ~/.pgpass`, `tar cz .env | base64` (adv18 F01,
 * F03): a credential file (CREDENTIAL_TEXT_FILE) read by a stage, and that stage or a later one encodes it. The scanner reads
 * the file as text; encoded, nothing in it names a secret: every line of the output is masked.
 */
function encodedCredentialFile(stages: readonly SimpleCommand[]): SecretPrinter | undefined {
  const reads = credentialFileReader(stages);
  if (reads < 0) return undefined;
  const files = [...operands(stages[reads].argv), ...stages[reads].redirects.flatMap((r) => (r.op === '<' && r.target !== undefined ? [r.target] : []))].filter((a) => CREDENTIAL_TEXT_FILE.test(a));
  // An env file's names and values split at `=` (`column -t -s= .env`: adv159 F6) stay a name and a value, blanks between, which
  // the scanner reads (a secret's padded value): not an encoding; its `DEPLOY_SHA` and `LOG_LEVEL` had been masked with it.
  const envSplitAtEquals = (argv: readonly string[]) => columnSeparator(argv) === '=' && files.length > 0 && files.every((f) => ENV_FILE.test(f));
  const encoder = stages.slice(reads).find((s) => encodes(s.argv) || (splitsIntoColumns(s.argv) && !envSplitAtEquals(s.argv)));
  return encoder ? { kind: 'credential file', tool: `${basename(encoder.argv[0] ?? '')} of a credential file`, transformed: true } : undefined;
}

/**
 * `column -s: -t ~/.pgpass` (closing measure 105 F29): a credential file's separators turned into blanks, its rows lose the
 * shape the scanner reads (`host:port:db:user:password`), as an encoding would hide it.
 */
function splitsIntoColumns(argv: readonly string[]): boolean {
  return basename(argv[0] ?? '') === 'column' && argv.slice(1).some((a) => /^-[A-Za-z]*s|^--separator\b/.test(a));
}

/** `column`'s separator (`-s=`, `-ts =`, `--separator==`), if given. */
function columnSeparator(argv: readonly string[]): string | undefined {
  for (let i = 1; i < argv.length; i++) {
    const short = /^-[A-Za-z]*s(.*)$/.exec(argv[i]);
    const long = /^--separator(?:=(.*))?$/.exec(argv[i]);
    const m = short ?? long;
    if (m) return m[1] ? m[1] : argv[i + 1];
  }
  return undefined;
}

/** An env file (`.env`, `.env.production`). */
const ENV_FILE = /(?:^|\/)\.env(?:\.[\w.-]+)?$/;

/** A key holding a webhook's URL (`webhook`, `webhook_url`, `slackWebhookUrl`, `hook_url`). */
const WEBHOOK_URL_KEY = /^(?:\w*[_-])?(?:web)?hook(?:[_-]?url)?$|^[a-z]\w*(?:Web)?[Hh]ook(?:Url|URL)?$/;

/** jq's `getpath(["a","b"])`: the list's strings are the path's keys. */
const GETPATH = /getpath\(\s*\[([^\]]*)\]\s*\)/g;
/** A key a jq/yq filter names: `.token`, `.db.password`, `.["api_key"]`, `."client-secret"`, `.data["db-password"]` (adv126 F33). */
const FILTER_KEY = /(?:\.\s*(?:\[\s*)?|\[\s*)"([^"]{1,128})"|\.([A-Za-z_][\w-]{0,127})/g;

/**
 * `jq -r .token creds.json`, `curl -s … | jq -r .access_token`, `yq '.db.password' config.yaml` (adv9 B12, B13): a JSON or
 * YAML document's field picked out bare by a filter whose last key names a secret (`.token`, not `.token_type`, `.name`,
 * `.items[].id`). The value comes out alone on its line, nothing around it naming it.
 */
function jsonFieldPicked(stages: readonly SimpleCommand[]): SecretPrinter | undefined {
  let found: SecretPrinter | undefined;
  for (const stage of stages) {
    const name = basename(stage.argv[0] ?? '');
    if (!/^(?:jq|gojq|jaq|yq)$/.test(name)) continue;
    let filter: string | undefined;
    for (let i = 1; i < stage.argv.length && filter === undefined; i++) {
      const a = stage.argv[i];
      if (JQ_TWO_VALUES.has(a)) i += 2;
      else if (JQ_ONE_VALUE.has(a)) i++;
      else if (a === '--') continue;
      else if (a.startsWith('-') && a.length > 1) continue;
      else if (name === 'yq' && /^(?:e|eval|ea|eval-all)$/.test(a)) continue;
      else filter = a;
    }
    if (filter === undefined) continue;
    // `getpath(["auth","token"])` picks what `.auth.token` does (adv11).
    const keys = filter.replace(GETPATH, (_, list: string) => (list.match(/"[^"]*"/g) ?? []).map((k) => `.[${k}]`).join(''));
    // An object built of picked keys under names of its own (`{session: .session.secret, db: .storage.postgres.password}`:
    // adv168 F23): the output's fields under those names hold the secrets, and the names say nothing.
    const renamed = renamedSecretFields(keys);
    if (renamed.fields.length) {
      found = { kind: `.${renamed.key} value`, tool: name, fields: renamed.fields };
      continue;
    }
    // A row of picked keys, a secret's among them (`[.name, .password] | @tsv`, `@csv`, `join(":")`): each output line is a row
    // holding the secret, masked whole (a tab-separated row's secret cell remembered alone too); and an object whose keys are
    // made from the data (`{(.name): .password}`): each line below a key holds a value.
    // A header's value picked by its name (`.headers[] | select(.name=="authorization") | .value`, a HAR's or a Playwright
    // trace's: adv171 S37): `Token …`, `Bearer …`, a cookie string, each line whole.
    if (SECRET_HEADER_SELECTED.test(keys) && lastFilterKey(keys) === 'value') {
      found = { kind: 'header value', tool: name, transformed: true };
      continue;
    }
    // A browser's cookies picked with their values (a Playwright storageState's `.cookies[] | [.name, .value, .domain] | @tsv`,
    // Crawlee's `.cookieJar.cookies[] | "\\(.key)=\\(.value)"`: pass 266 F1, F37): each cookie's value — a row's other cells stay
    // where the value is a tab-separated cell; a line built otherwise is masked whole.
    // (Or jq's object shorthand, `{name, value}`: adv272 S28.)
    if (COOKIES_PICKED.test(keys) && /\.value\b|[{,]\s*value\s*[,}]/.test(keys)) {
      const columns = cookieValueColumns(keys);
      // (A line built otherwise, `"\\(.name)=\\(.value)"` or `{name, domain, value}` with `-c`: each line's value, a setting's and an
      // analytics cookie's kept (pass 285 F18, L19: masked whole, `_ga=GA1.1…` and `NEXT_LOCALE=en` with the session's).)
      found = columns ? { kind: 'cookie value', tool: name, queryColumns: { columns, isSecretTitle: () => false } } : { kind: 'cookie value', tool: name, cookieLines: true };
      continue;
    }
    // An entry picked by a secret's name then its value (`.variables[] | select(.env_variable=="RCON_PASS_B64") | .value`, ECS's
    // `.environment[] | select(.name=="DB_PASSWORD") | .value`: pass 264 F36): the value bare, masked whole.
    // (`select(.name == $n)` with `--arg n DB_PASSWORD`, `select(.name|endswith("_PASSWORD"))`: adv272 S25, S26.)
    const argName = /select\(\s*\.(?:name|key|Name|Key)\s*==\s*\$(\w+)\s*\)/.exec(keys);
    const argValue = argName ? stage.argv.find((a, i) => stage.argv[i - 2] === '--arg' && stage.argv[i - 1] === argName[1]) : undefined;
    const suffix = /select\(\s*\.(?:name|key|Name|Key)\s*\|\s*(?:endswith|contains|test)\(\s*"([\w.-]{1,64})"\s*\)\s*\)/.exec(keys);
    const selected = NAME_SELECTED.exec(keys)?.[1] ?? argValue;
    // (A suffix names a secret as a whole name ending so would: `_PASSWORD` as `X_PASSWORD`.)
    const shown = selected ?? (suffix ? `*${suffix[1]}` : undefined);
    const asName = selected ?? (suffix ? `X${suffix[1].startsWith('_') ? '' : '_'}${suffix[1]}` : undefined);
    if (asName !== undefined && isSecretName(asName) && /^value$/i.test(lastFilterKey(keys) ?? '')) {
      found = { kind: `${shown} value`, tool: name, transformed: true };
      continue;
    }
    // (Before entries listed by their key: `to_entries[] | [.key, .value.url, (.value.api_key // "-")] | @tsv` picks a secret's
    // cell by name, rsconnect's servers.json: pass 294 F4.)
    const row = secretRow(keys);
    if (row) {
      found = { kind: `.${row.key} value`, tool: name, transformed: true, ...(row.cell !== undefined ? { cells: [row.cell] } : {}) };
      continue;
    }
    // Entries listed by their key (`.data | to_entries[] | "\\(.key)\\t\\(.value)\\t\\(.value|@base64d)"`, `[.key, .value] | @tsv`: a
    // Kubernetes Secret's, pass 281 F31): each line's cells after its key, when the key names a secret (keyedRowValues).
    // (Not of a credentials file, whose every value is one whatever its key: `llm`'s `keys.json`, read as such below.)
    if (/\bto_entries\b/.test(keys) && KEY_FIRST.test(keys) && !stage.argv.slice(1).some((a) => CREDENTIAL_TEXT_FILE.test(a))) {
      found = { kind: 'secret', tool: `${name} to_entries`, keyedRows: true };
      continue;
    }
    // A Kubernetes Secret's data by its key, whatever the key says (`jq -r '.data.elastic' secret.json`, ECK's user `elastic`:
    // pass 284 F15): of a file named for secrets or of `kubectl get secret`'s output; the value bare (base64, or decoded after).
    if (SECRET_DATA_PICKED.test(keys) && (stage.argv.slice(1).some((a) => /secret/i.test(a) && !a.startsWith('.')) || stages.some((st) => /^(?:kubectl|oc)$/.test(basename(st.argv[0] ?? '')) && st.argv.includes('get') && st.argv.some((a) => /^secrets?(?:\/|$)/.test(a))))) {
      found = { kind: 'secret', tool: `${name} of a Secret's data` };
      continue;
    }
    // Outputs joined by commas (`.OPENAI_API_KEY, .tokens.refresh_token, .last_refresh`: adv109 F37), each its own last key.
    const lasts = topLevelOutputs(keys).map(lastFilterKey);
    if (lasts.every((l) => l === undefined)) continue;
    // A filter with no key (`.`, `length`) leaves what came before it; a later one with a key picks that key out instead.
    // A string with the value interpolated (`"Bearer \(.token)"`, adv11) prints it inside text: its lines are masked whole.
    // A docker config's `.auths[…].auth` is base64 of `user:password` (adv64 F37); a bare `auth` elsewhere may name a method.
    // Kaggle's `kaggle.json` names its API key `key` (`jq -r .key ~/.kaggle/kaggle.json`: pass 242 F39), as ngrok's and others' do not.
    const keyFile = stage.argv.slice(1).some((a) => KEY_NAMED_KEY_FILE.test(a));
    // A webhook's URL (`jq -r .webhook slack.json | rev | cut -d/ -f1 | rev`: session 49's stop-time check 321 cut Slack's secret
    // segment out alone): its path is the credential, posting to it needs nothing else.
    // (Only cut down by a later stage: printed whole, a hook's URL is the scanner's to read, and a CI server's own
    // `https://ci.acme.dev/github-webhook/` is none: adv333 L19.)
    const cutLater = stages.indexOf(stage) < stages.length - 1;
    const secret = lasts.filter((l) => l !== undefined && (isSecretName(l) || (l === 'auth' && /\bauths\b/.test(keys)) || (l === 'key' && keyFile) || (cutLater && WEBHOOK_URL_KEY.test(l))));
    // Some outputs a secret's, some not: which lines are the secret's is not known, so a minted word among them is (amongOthers).
    found = secret.length > 0 ? { kind: `.${secret[secret.length - 1]} value`, tool: name, ...(keys.includes('\\(') ? { transformed: true } : {}), ...(secret.length < lasts.length ? { amongOthers: true } : {}) } : undefined;
  }
  return found;
}

/** WebSphere's obfuscated password (`{xor}` + base64 of the password's bytes XOR 0x5f) named in a command. */
const XOR_PASSWORD = /\{xor\\?\}/i;
/** AWS' script that derives an SES SMTP password from an IAM secret key and prints it alone (pass 286 F37). */
const SES_SMTP_PASSWORD_SCRIPT = /(?:^|\/)smtp_credentials_generate\.py$/;

/** A URL of Meilisearch's or Typesense's key API: a host, `/keys` or `/keys/<id>`, no more path (a query may follow). */
const SEARCH_KEYS_API = /^(?:https?:\/\/)?[^\s/]{1,253}\/keys(?:\/[\w-]{1,64})?\/?(?:\?[^\s]*)?$/;

/** Moonraker's (Klipper's API server) key API: `/access/api_key`, its answer the key. */
// (Its one-shot tokens too, `/access/oneshot_token`, and the key by JSON-RPC, `"method":"access.get_api_key"`: adv301 F25, F26.)
const MOONRAKER_KEY_API = /^(?:https?:\/\/)?[^\s/]{1,253}\/access\/(?:api_key|oneshot_token)\/?$|"method"[ \t]*:[ \t]*"access\.(?:get_api_key|oneshot_token)"/;

/** A filter that picks one entry of a Secret's data: `.data.elastic`, `.data["tls.key"]`, `.stringData.password` (nothing after it). */
const SECRET_DATA_PICKED = /^\s*\.(?:data|stringData)(?:\.[\w-]{1,253}|\[\s*"[^"\n]{1,253}"\s*\])\s*(?:\|\s*@base64d\s*)?$/;

/** A cookie's value in a JSON object on its line (`{"name":"sid","domain":…,"value":"…"}`, jq's `-c`). */
const COOKIE_JSON_VALUE = /"value"[ \t]*:[ \t]*"(?<v>(?:[^"\\\n]|\\.){1,8192})"/g;
/** A cookie as `name=value` (after a session's id and a blank too: `"\\($s) \\(.key)=\\(.value)"`). */
const COOKIE_PAIR_LINE = /(?:^|[ \t])(?<n>[^\s=;"']{1,256})=(?<v>[^\s;]{1,8192})/;
/** Cookies that count visitors or hold a preference: no session (Segment's anonymous id, Google's, Meta's, Hotjar's; a locale). */
// (Consent banners' and Clarity's, Bing's, TikTok's, Pinterest's too: adv289 L11.)
const ANALYTICS_COOKIE = /^(?:ajs_(?:anonymous|user)_id|_ga(?:_\w{1,32})?|_gid|_gcl_\w{1,16}|_fbp|_hj\w{1,64}|_cl(?:ck|sk)|_uet(?:sid|vid)|_ttp|_tt_enable_cookie|_pin_unauth|Optanon(?:Consent|AlertBoxClosed)|CookieConsent|cookieyes-consent|NEXT_LOCALE|locale|lang|theme)$/;

/** The values of jq's cookie lines: each line's `"value"` or `name=value`, but a setting's (isCookieSetting) or an analytics cookie's. */
function cookieLineValues(text: string): string[] {
  const values: string[] = [];
  const take = (v: string) => {
    const at = isCookieSetting(v) ? undefined : printedLine(v);
    if (at) values.push(v.slice(at.start, at.end));
  };
  for (const line of text.split('\n')) {
    let json = false;
    for (const m of line.matchAll(COOKIE_JSON_VALUE)) {
      json = true;
      const name = /"name"[ \t]*:[ \t]*"([^"\n]{1,256})"/.exec(line)?.[1];
      if (!(name && ANALYTICS_COOKIE.test(name))) take(m.groups!.v);
    }
    if (json) continue;
    const pair = COOKIE_PAIR_LINE.exec(line);
    if (pair) {
      if (!ANALYTICS_COOKIE.test(pair.groups!.n)) take(pair.groups!.v);
    } else take(line); // a line built otherwise: whole, as before
  }
  return values;
}

/** A line built with the entry's key first: `"\\(.key)…`, `[.key, …]`. */
// (Or after the value, `"\\(.value)\t\\(.key)"`, and `[.key, …] | @csv`: adv289 F26, F27.)
const KEY_FIRST = /\\\(\.key\)|\[\s*\.key\s*,|,\s*\.key\s*\]/;
/** A keyed row: its key, then a tab, `: ` or `=`, then its cells. */
const KEYED_ROW = /^(?<key>[^\s:=][^\t:=\n]{0,127}?)(?:\t|: |=)(?<rest>.*)$/;

/** The cells after a secret's key on each line of a keyed listing (`password<TAB><base64><TAB><decoded>`), each trimmed. */
function keyedRowValues(text: string): string[] {
  const values: string[] = [];
  const take = (cells: string[]) => {
    for (const cell of cells) {
      const v = printedLine(cell);
      if (v) values.push(cell.slice(v.start, v.end));
    }
  };
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/, '');
    // A CSV row (`@csv`: `"api-token","…"`): its cells unquoted, the key first or last.
    const csv = CSV_ROW.test(line) ? line.slice(1, -1).split('","') : undefined;
    const tabbed = line.includes('\t') ? line.split('\t') : undefined;
    const cells = csv ?? tabbed;
    if (cells && cells.length >= 2) {
      // (A key is a name: a last cell that is a URL, `https://…/oauth/access_token`, names nothing: adv301 L11.)
      const keyAt = (c: string) => KEY_CELL.test(c.trim()) && isSecretName(c.trim());
      if (keyAt(cells[0])) take(cells.slice(1));
      else if (keyAt(cells[cells.length - 1])) take(cells.slice(0, -1));
      continue;
    }
    const m = KEYED_ROW.exec(line);
    if (m && isSecretName(m.groups!.key.trim())) take([m.groups!.rest]);
  }
  return values;
}
/** An entry's key as a cell: a name, no URL or path. */
const KEY_CELL = /^[\w.-]{1,128}$/;
/** A row of jq's `@csv`: quoted cells joined by commas. */
const CSV_ROW = /^"[^"\n]*"(?:,"[^"\n]*")+$/;

/** A credential file whose API key is its field `key` (Kaggle's). */
const KEY_NAMED_KEY_FILE = /(?:^|\/)kaggle\.json$/;

/** An entry of a jq object construction: `name: <filter>` or `"name": <filter>` after `{` or `,` (the filter up to the next `,`, `{`, `}`). */
const OBJECT_ENTRY = /[{,]\s*(?:"([^"\n]{1,64})"|([A-Za-z_][\w-]{0,63}))\s*:\s*([^,{}]{1,512})/g;

/** Renamed fields read at most (a real object has a few; each is searched for in the whole output). */
const MAX_RENAMED_FIELDS = 16;

/** The names an object construction gives to keys that name secrets (`{db: .postgres.password}` → `db`), and the last such key. */
function renamedSecretFields(filter: string): { fields: string[]; key?: string } {
  const fields: string[] = [];
  let key: string | undefined;
  if (!filter.includes('{')) return { fields };
  for (const m of filter.matchAll(OBJECT_ENTRY)) {
    if (fields.length >= MAX_RENAMED_FIELDS) break;
    const picked = lastFilterKey(m[3]);
    if (picked === undefined || !isSecretName(picked)) continue;
    fields.push(m[1] ?? m[2]);
    key = picked;
  }
  return { fields, key };
}

/** A jq filter selecting a credential header by its name (`select(.name == "authorization")`, `ascii_downcase == "cookie"`). */
const SECRET_HEADER_SELECTED = /\.name\b[^"|]{0,40}==\s*"(?:proxy-)?(?:authorization|cookie|set-cookie|x-api-key|x-auth-token|api-key)"/i;
/** A jq filter that walks a cookie list (`.cookies[]`, `.cookieJar.cookies[]`, `.["cookies"]`). */
const COOKIES_PICKED = /\.(?:cookies|cookieJar)\b|\["cookies"\]/i;

/** A `[…] | @tsv` row of a cookie's fields: its columns, the `.value` one secret; undefined for another output. */
function cookieValueColumns(filter: string): SelectedColumn[] | undefined {
  if (!filter.includes('@tsv')) return undefined;
  for (const m of filter.matchAll(ARRAY_BUILT)) {
    const cells = topLevelOutputs(m[1]).map((c) => c.trim());
    if (cells.some((c) => c === '.value')) return cells.map((c) => ({ title: undefined, secret: c === '.value' }));
  }
  return undefined;
}

/** A jq filter selecting an entry by its name's field (`select(.name == "DB_PASSWORD")`, `.key`, `.env_variable`), the name (group 1). */
const NAME_SELECTED = /select\(\s*\.(?:name|Name|key|Key|env_variable|variable|ParameterKey|OutputKey)\s*==\s*"([A-Za-z_][\w.-]{0,127})"\s*\)/;
/** An array built of picked keys (`[.name, .password]`): its elements, up to its `]`. */
const ARRAY_BUILT = /\[([^[\]{}]{1,1024})\]/g;
/** An object entry whose key is made from the data: `(.name): <filter>`. */
const MADE_KEY_ENTRY = /[{,]\s*\(\s*[^()]{1,256}\)\s*:\s*([^,{}]{1,512})/g;

/**
 * A jq filter that prints rows of picked keys, a secret's among them (`[.name, .password] | @tsv`), or an object keyed by the
 * data (`{(.name): .password}`): the secret's key, and for `@tsv` its cell.
 */
function secretRow(filter: string): { key: string; cell?: number } | undefined {
  if (/@tsv|@csv|\bjoin\s*\(/.test(filter)) {
    for (const m of filter.matchAll(ARRAY_BUILT)) {
      const cells = topLevelOutputs(m[1]).map(lastFilterKey);
      const at = cells.findIndex((c) => c !== undefined && isSecretName(c));
      if (at >= 0) return { key: cells[at]!, ...(filter.includes('@tsv') ? { cell: at } : {}) };
    }
  }
  for (const m of filter.matchAll(MADE_KEY_ENTRY)) {
    const picked = lastFilterKey(m[1]);
    if (picked !== undefined && isSecretName(picked)) return { key: picked };
  }
  return undefined;
}

/** The last key a jq path names (`.db.password` → `password`; a named entry's `.value` is its name's), undefined when none. */
function lastFilterKey(path: string): string | undefined {
  let last: string | undefined;
  for (const m of path.matchAll(FILTER_KEY)) {
    const key = m[1] ?? m[2];
    // A named entry's `.value` is what the name names (`terraform output -json | jq -r .db_password.value`, adv21 F50).
    last = /^value$/i.test(key) && last !== undefined && /[\w"\]-]/.test(path[m.index - 1] ?? '') ? last : key;
  }
  return last;
}

/** A jq filter's outputs joined by commas outside brackets, parentheses and strings (`.a, .b.c` → `.a`, ` .b.c`). */
function topLevelOutputs(filter: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let from = 0;
  for (let i = 0; i < filter.length; i++) {
    const c = filter[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      out.push(filter.slice(from, i));
      from = i + 1;
    }
  }
  out.push(filter.slice(from));
  return out;
}

/** A cheap gate before parsing: the line names one of the printers. */
const PRINTER_WORDS = /<<<|\/keys\b|\/api_key\b|oneshot_token|get_api_key|\b(?:smtp_credentials_generate|magento|jupyterhub|nextflow|firebase|pdbedit|tdbdump|john|potfile|\.pot\b|ejabberdctl|xmllint|credentials:fetch|snyk|psql|mysql|mariadb|sqlite3|duckdb|sqlcmd|clickhouse(?:-client)?|cqlsh|parallel|watch|Rscript|airflow|elasticsearch-keystore|opensearch-keystore|psk|oci|twilio|base64|openssl|base32|basenc|xxd|od|hexdump|gzip|bzip2|xz|zstd|lz4|brotli|tar|zip|uuencode|ssh|fly|flyctl|infisical|chamber|aws-vault|teller|berglas|phase|railway|kcadm|dotenvx|pwsh|powershell|openstack|glab|cloudflared|rails|grep|egrep|rg|sed|awk|gawk|mawk|nawk|goawk|perl|eval|exec|node|nodejs|deno|bun|python[\d.]*|pypy3?|ruby|perl|gh|aws|echo|printf|print|jq|gojq|jaq|yq|composer|npm|pnpm|yarn|gcloud|az|heroku|pulumi|sops|kubeadm|docker|argocd|keepassxc-cli|nmcli|git|php|vault|bao|kubectl|oc|pass|gopass|op|security|secret-tool|bw|lpass|doppler|terraform|tofu|printenv|etcdctl|borg|microk8s|consul|wg|rbw|conjur|keyctl|keyring|rclone|age|rage|gpg2?|systemd-creds|infisical|salt-call|salt|netlify|mix|rails|rake|console|symfony|sasl_passwd|rsyncd|passwd\.client|ipsec|davfs2|openvpn|cat|head|tail|less|more|bat|batcat|nl|chap-secrets|pap-secrets|srp-secrets|wp|buildkite-agent|redis-cli|valkey-cli|keydb-cli|elasticsearch-service-tokens|elasticsearch-create-enrollment-token|elasticsearch-reset-password|influx|cut|rev|puppet|hiera|tr|column|appcenter|appcmd|plesk|unarmored-hex|unsafe-export-eth-key|particle|balena|headscale|p4|occ|strings|scriptText|dasel|xmlstarlet|xml)\b/;

/** …or a script's name that says it decodes stored credentials (DECODER_SCRIPT: `./gpp-decrypt.py …`, `./xordecode.pl …`). */
const DECODER_WORDS = /decrypt|decode|deobfusc|unobfusc|unstash|unxor|reveal|unmask|vncpwd|vncpasswd/i;

/** …or a file's name that says it holds a credential (SECRET_FILE, CREDENTIAL_ROWS_FILE: `sed … /run/secrets/db`, `find … -exec`). */
const SECRET_FILE_WORDS = /secret|passw|passphrase|token|api_?key|\.psk|userlist|askpass/i;

/**
 * Escape sequences (colour) and carriage returns a PTY line may carry, and the note mish's CLI
 * puts after output that ends without a newline (render.ts: `kubectl … | base64 -d` prints the
 * value bare, adv4 M15): none of them is part of the value.
 */
const DECORATION = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\r| ⏎ \(no newline at end\)(?=(?:\x1b\[[0-9;?]*[A-Za-z]|\r)*$)/g;

/**
 * The value a printer's output line holds, if it is one: the line without colour and CR,
 * trimmed, one word (a message, `no oauth token found`, has spaces), not a placeholder
 * (`undefined`, `null`, `(protected)`). Returns [start, end) in `line`, or undefined.
 */
export function printedValue(line: string): { start: number; end: number } | undefined {
  const bare = line.replace(DECORATION, '');
  // R's print of a string (`[1] "…"`, adv20 F05), a quoted string (redis-cli's `"…"` at a terminal, adv22 F09): the string.
  // A YAML document of one scalar (`puppet lookup`'s `--- value`, adv102 F47): the scalar.
  const value = bare.trim().replace(YAML_DOCUMENT, '').replace(R_STRING, '$1');
  // A blank escaped by a backslash is part of the word (bash's `printf %q` of a password with a blank: adv59 F37).
  if (value.length < MIN_PRINTED_CHARS || /(?<!\\)\s/.test(value) || /^\(.*\)$/.test(value) || LABEL.test(value) || isLookAlike(value, true)) return undefined;
  const start = line.indexOf(value);
  return start < 0 ? undefined : { start, end: start + value.length };
}

/** A YAML document's start before its one scalar on the same line. */
const YAML_DOCUMENT = /^--- (?=\S)/;

/** R's print of one string, `[1] "value"`, or a string in double quotes. */
const R_STRING = /^(?:\[1\] )?"([^"\s]*)"$/;

/** A YAML-style label a printer puts above the value (salt's `local:`, a minion's `web1:`), no value. */
const LABEL = /^[A-Za-z][\w.-]*:$/;

/** The values a printer's output holds: its `fields` when it names them (fieldValues), else its value lines (printedValues). */
export function printerValues(printer: SecretPrinter, text: string): string[] {
  if (printer.scriptEchoes) return echoedLiterals(text);
  if (printer.reversedLines) return reversedLineValues(text);
  if (printer.translated) return translatedLineValues(text, printer.translated);
  if (printer.also) return [...printerValues({ ...printer, also: undefined }, text), ...printer.also.flatMap((p) => printerValues(p, text))];
  if (printer.loopLabels) return printerValues({ ...printer, loopLabels: undefined }, withoutLabels(text, printer.loopLabels));
  if (printer.fileNamed) return printerValues({ ...printer, fileNamed: undefined }, text.replace(FILE_NAME_PREFIX, ''));
  if (printer.fields) return printer.alsoBare ? [...fieldValues(text, printer.fields), ...printedValues(text, false, printer.keep)] : fieldValues(text, printer.fields);
  if (printer.pairs) return pairValues(text);
  if (printer.decodedPairs) return decodedPairValues(text);
  if (printer.namesAbove) return namedAboveValues(text);
  if (printer.tdbSecrets) return tdbSecretValues(text);
  if (printer.rows && !printer.transformed) return rowValues(text, printer.rows, printer.rowPrefix);
  if (printer.keyedRows) return keyedRowValues(text);
  if (printer.cookieLines) return cookieLineValues(text);
  if (printer.queryPairs) return pairedCellValues(text, printer.queryPairs === '*' ? undefined : printer.queryPairs, isSecretName, printedLine) ?? [];
  if (printer.queryColumns) {
    const cells = queryCellValues(text, printer.queryColumns.columns, printer.queryColumns.isSecretTitle, printedLine);
    if (cells !== undefined) return cells;
  }
  let values = printer.besideSettings ? printedValues(text, printer.transformed, printer.keep).filter((v) => !SETTING_LINE.test(v)) : printedValues(text, printer.transformed, printer.keep);
  // (The other command's lines that name secrets, `AWS_SECRET`, `GITHUB_TOKEN` of a list: pass 216 F34's names were masked.)
  if (printer.besideOthers) values = values.filter((v) => !CONSTANT_NAME_LINE.test(v));
  // A transform's line of characters spaced apart (`sed 's/./& /g'`: adv59 F42) is the word they spell.
  // A transform's pieces are shorter (`fold -w 10`: adv59 F44).
  if (printer.amongOthers) {
    // head's and tail's headers say whose lines follow (`tail -n +1 .password .api`: `==> .password <==`): a secret file's
    // one-word lines are its values, a `=` in them too (a Chainlink node's `.password`: pass 192); the other files' minted words as before.
    const sections = printer.tool.endsWith('secret file') ? headedSections(text) : undefined;
    if (sections)
      return sections.flatMap(([file, body]) => {
        const lines = printedValues(body, printer.transformed, printer.keep);
        // (A file of one or two lines holds a value; a longer one is a document its name only seems to say is secret: `password-policy.txt`.)
        if (printer.globbed) return CREDENTIAL_ROWS_FILE.test(file) ? lines : [];
        return SECRET_FILE.test(file) && lines.length <= 2 ? lines : lines.filter((v) => takenAmongOthers(printer, v));
      });
    return values.filter((v) => takenAmongOthers(printer, v));
  }
  return printer.cells ? [...values, ...cellValues(text, printer.cells)] : values;
}

/** A line's file name and its separator (`config.yml: `, `a/b.conf:`). */
const FILE_NAME_PREFIX = /^[^\s:]{1,1024}:[ \t]?/gm;
/** `text` with a loop's word and its separator (`smtp `, `db: `, `[api] `) taken off the start of each line that has one. */
function withoutLabels(text: string, words: readonly string[]): string {
  return text
    .split('\n')
    .map((line) => {
      // No words known (a `while read` loop's): a first word, when one word follows it.
      if (words.length === 0) return ONE_WORD_LABEL.exec(line)?.groups!.v ?? line;
      const w = words.find((x) => x.length > 0 && line.startsWith(x) && LABEL_SEPARATOR.test(line.slice(x.length, x.length + 3)));
      return w === undefined ? line : line.slice(w.length).replace(LABEL_SEPARATOR, '');
    })
    .join('\n');
}
// (Not a base64 word's padding: `…bg==` is no label `…bg` and a value `=`: pass 286 F7.)
const ONE_WORD_LABEL = /^[^\s:=]{1,64}(?:[\]):=]?[ \t]+|[:=])(?<v>[^\s=]\S{0,4095})[ \t]*\r?$/;
const LABEL_SEPARATOR = /^[\]):=]?[ \t]+|^[:=]/;

/** head's and tail's header before each file's lines when given several files. */
const HEAD_FILE_HEADER = /^==> (.{1,1024}) <==\r?$/gm;

/** The output of head or tail of several files as [file, its lines] (undefined: no headers, or lines before the first). */
function headedSections(text: string): [string, string][] | undefined {
  const heads = [...text.matchAll(HEAD_FILE_HEADER)];
  if (heads.length === 0 || text.slice(0, heads[0].index).trim() !== '') return undefined;
  return heads.map((h, i) => [h[1], text.slice(h.index + h[0].length, i + 1 < heads.length ? heads[i + 1].index : text.length)]);
}

/** Is `v`, a line of a printer's output among other lines (SecretPrinter.amongOthers), taken for its value? */
export function takenAmongOthers(printer: SecretPrinter, v: string): boolean {
  if (printer.mixedCase && !(/[a-z]/.test(v) && /[A-Z]/.test(v) && !UUID.test(v))) return false;
  // A setting's line (`2:TLSPSKIdentity=PSK-web01-prod`, grep's prefix and all) is another command's: a secret it names is the
  // scanner's to find by that name.
  if (SETTING_LINE.test(v)) return false;
  return printer.transformed ? mintedWord(SPACED_CHARACTERS.test(v) ? v.replace(/ /g, '') : v, MIN_MINTED_PIECE_CHARS) : mintedWord(v);
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A constant's name alone (`AWS_SECRET`, `DB_PASSWORD`): capitals and digits joined by `_`. */
const CONSTANT_NAME_LINE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
/**
 * A `name=value` line, after grep's `N:` or `file:N:` maybe; not base64 whose padding ends it (kopia's saved password,
 * `SnVuaXBl…ZXI=`, beside `ls -la`'s lines: pass 241 F7).
 */
const SETTING_LINE = /^(?:[^\s:=]{1,256}:)?(?:\d{1,9}[:-])?[A-Za-z_][\w.-]{0,127}=(?!={0,2}[ \t]*\r?$)/;

/** The secrets the scanner finds in each line read backwards, as they stand in the output (backwards). */
function reversedLineValues(text: string): string[] {
  const values: string[] = [];
  for (const line of text.split('\n')) {
    if (line.length < MIN_PRINTED_CHARS) continue;
    const forwards = [...line.replace(/\r$/, '')].reverse().join('');
    for (const f of scanSecrets(forwards)) values.push([...forwards.slice(f.start, f.end)].reverse().join(''));
  }
  return values;
}

/** Each row's credential (group `v` of `row`) of a credentials file's `text`; a line of another shape whole (printedLine). */
function rowValues(text: string, row: RegExp, prefix?: RegExp): string[] {
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const decorated = raw.replace(DECORATION, '');
    const line = prefix ? decorated.replace(prefix, '') : decorated;
    // Nor mish's own lines after the output (`[exit 0 · 5,000 lines]`, `[mish: … elided]`): `role  password`'s layout took them.
    if (/^[ \t]*(?:#|$)/.test(line) || MISH_NOTE_LINE.test(decorated)) continue;
    const m = row.exec(line);
    if (m) {
      // A row with no `v` is one the layout keeps (an htpasswd row's hash).
      const v = m.groups?.v ?? m.groups?.v2;
      if (v !== undefined && v.length >= MIN_PRINTED_CHARS && !isReference(v)) out.push(v);
      continue;
    }
    const whole = printedLine(line);
    if (whole) out.push(line.slice(whole.start, whole.end));
  }
  return out;
}

/** A command that decodes base64: coreutils' and basenc's `-d`, openssl's, Python's, JavaScript's, .NET's. */
const DECODES_BASE64 = /\bbase64[ \t]+(?:[^|;&\n]{0,256}[ \t])?(?:-[A-Za-z]*[dD]\b|--decode\b)|\bbasenc\b[^|;&\n]{0,256}[ \t](?:-d|--decode)\b|\bopenssl[ \t]+(?:base64|enc[ \t][^|;&\n]{0,256}-a)[^|;&\n]{0,256}[ \t]-d\b|\b(?:b64decode|standard_b64decode|urlsafe_b64decode|decodebytes|atob|FromBase64String)\b|\bBuffer\.from\([^)]{0,512}['"]base64(?:url)?['"]/;
/**
 * A decoded `user:password` alone on its line, or as Python prints bytes (`b'user:password'`): a user's name (no blank, no colon,
 * not a URL's scheme: `//` does not follow; not a digest's algorithm or a URN's, ARN's or DID's scheme: `sha256:<hex>`,
 * `urn:uuid:…`), then the password to the line's end. Not a host's port and ids after it (Elastic Cloud's `cloud.id` decoded:
 * `eu-west-1.aws.found.io:443$<es id>$<kibana id>`, adv249 L25). Nor an XML element's namespace (a SAML response decoded and
 * grepped, `<ds:DigestValue>…`: pass 327 L10).
 */
const DECODED_PAIR = /^(?:b(?<q>['"]))?[ \t]*(?!(?:sha\d*|md5|blake\w*|sm3|crc32|urn|arn|did|data|mailto|tag|git|ssh|https?|ftp|file|s3|gs):)(?<user>[^\s:'"/<>]{1,128}):(?!\/\/)(?<v>[^\s'"]{4,512})\k<q>?[ \t]*\r?$/i;

/** The passwords of a base64 decoder's `user:password` lines (SecretPrinter.decodedPairs). */
function decodedPairValues(text: string): string[] {
  const out: string[] = [];
  for (const line of text.replace(DECORATION, '').split('\n')) {
    if (line.length > 1024 || !line.includes(':')) continue;
    const pair = DECODED_PAIR.exec(line)?.groups;
    const v = pair?.v;
    // A host's port and ids (the user a host name: adv253 F49's `user:8500$…` is a password).
    if (v !== undefined && /^\d{1,5}\$/.test(v) && pair!.user.includes('.')) continue;
    if (v !== undefined && !isReference(v) && !isLookAlike(v, true)) out.push(v);
  }
  return out;
}

/** A TDB record's key naming a secret of Samba's `secrets.tdb`: a machine account's or an LDAP bind's password, a trust's. */
const TDB_SECRET_KEY = /^key\(\d{1,9}\) = "SECRETS\/(?:[^"\n]*\/)?(?:[A-Z_.$]*(?:PASSWORD|_PW|\.ACC|SECRET|_KEY)[A-Z_.]*)(?:\/[^"\n]*)?"\r?$/;
/** The record's data on the next line, a C string (its `\00` end left out). */
const TDB_DATA = /^data\(\d{1,9}\) = "(?<v>[^"\n]*?)(?:\\00)?"\r?$/;

/** The data of the records whose keys name a secret in `tdbdump`'s output (pass 202 F37: `SECRETS/LDAP_BIND_PW/<dn>`). */
function tdbSecretValues(text: string): string[] {
  const out: string[] = [];
  const lines = text.replace(DECORATION, '').split('\n');
  for (let i = 0; i + 1 < lines.length; i++) {
    if (lines[i].length > 1024 || !TDB_SECRET_KEY.test(lines[i])) continue;
    const v = TDB_DATA.exec(lines[i + 1])?.groups?.v;
    if (v !== undefined && v.length >= MIN_PRINTED_CHARS) out.push(v);
  }
  return out;
}

/** A line that is one word, a secret's name maybe (namedAboveValues; the longest registry value's name is far shorter). */
const ONE_NAME_LINE = /^[ \t]*([A-Za-z][\w.-]{3,63})[ \t]*\r?$/;

/** The minted words under a line that is a secret's name alone (SecretPrinter.namesAbove). */
function namedAboveValues(text: string): string[] {
  const out: string[] = [];
  const lines = text.replace(DECORATION, '').split('\n');
  for (let i = 0; i + 1 < lines.length; i++) {
    const name = ONE_NAME_LINE.exec(lines[i])?.[1];
    // (Or Redis' `AUTH` command, its password the next string of the protocol: `strings` of a capture, pass 331 F35.)
    if (name === undefined || !(name === 'AUTH' || isSecretName(name))) continue;
    const v = lines[i + 1].trim();
    if (mintedWord(v) && !isLookAlike(v, true)) out.push(v);
  }
  return out;
}

/** A piece of a transformed value this long is read as minted: `fold -w 8` and wider. */
const MIN_MINTED_PIECE_CHARS = 8;
/** Characters one a word, a blank between (`sed 's/./& /g'`, `fold -w1 | paste -sd' '`). */
const SPACED_CHARACTERS = /^(?:\S ){5,}\S?$/;

/** The cells `at` of each row of `text` (cells split at tabs or ` = `) that are a value (printedValue). */
function cellValues(text: string, at: readonly number[]): string[] {
  const out: string[] = [];
  for (const line of text.replace(DECORATION, '').split('\n')) {
    const cells = line.split(/\t| = /);
    if (cells.length < 2) continue;
    for (const i of at) {
      const v = cells[i] === undefined ? undefined : printedValue(cells[i]);
      if (v) out.push(cells[i].slice(v.start, v.end));
    }
  }
  return out;
}

/**
 * The values of a name / value listing one a line (redis-cli `--raw HGETALL k`: `user`, `bob`, `access_token`, `<token>`): each
 * value whose name says secret. Numbered rows (`3) "access_token"`, a terminal's) are the scanner's (redisFieldBelow).
 */
export function pairValues(text: string): string[] {
  const out: string[] = [];
  const lines = text.replace(DECORATION, '').split('\n');
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const name = lines[i].trim();
    if (/^\d+\)/.test(name) || !isSecretName(name)) continue;
    const v = printedValue(lines[i + 1]);
    if (v) out.push(lines[i + 1].slice(v.start, v.end));
  }
  return out;
}

/**
 * The values of `fields` in a printer's output: a JSON field (`"key": "…"`), a row of a key / value listing (`key   …`, Vault's
 * and scw's tables), or the cell under a column's title in a table aligned by blanks (the cell starts where its title does).
 */
export function fieldValues(text: string, fields: readonly string[]): string[] {
  const out: string[] = [];
  // Colour out (`az … -o jsonc` colours each key and value): the values found are substrings of the output all the same.
  text = text.replace(DECORATION, '');
  const lines = text.split('\n');
  for (const f of fields) {
    const name = f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (const m of text.matchAll(new RegExp(`"${name}"[ \\t]*:[ \\t]*"((?:[^"\\\\\\n]|\\\\.){${MIN_PRINTED_CHARS},8192})"`, 'g'))) out.push(m[1]);
    const row = new RegExp(`^[ \\t]*${name}[ \\t]{2,}(\\S{${MIN_PRINTED_CHARS},})[ \\t]*\\r?$`);
    // A YAML (or gcloud text) row, `  data: <value>` (adv21 F17: `gcloud secrets versions access --format=yaml`).
    const yaml = new RegExp(`^[ \\t]*(?:- )?${name}:[ \\t]+(['"]?)(\\S{${MIN_PRINTED_CHARS},}?)\\1[ \\t]*\\r?$`);
    // A box table's title follows its border (`│ SECRET VALUE   │`: infisical's, adv59 F16).
    let boxRead = 0;
    const title = new RegExp(`(?:^|[ \\t]{2}|[│┃|] )(${name})(?=[ \\t]{2,}|[ \\t]*[│┃|]|[ \\t]*\\r?$)`);
    // A vertical table's row, the name's cell then the value's (`aws … --output table`: `||  Value  |  <secret>  ||`: pass 233 F8).
    const cells = new RegExp(`^[ \\t]*\\|{1,2}[ \\t]+${name}[ \\t]+\\|[ \\t]+([^\\s|](?:[^|\\n]{0,8190}[^\\s|])?)[ \\t]*\\|{1,2}[ \\t]*\\r?$`);
    for (const [i, line] of lines.entries()) {
      const c = cells.exec(line);
      if (c) {
        if (c[1].length >= MIN_PRINTED_CHARS) out.push(c[1]);
        continue;
      }
      const r = row.exec(line);
      if (r) out.push(r[1]);
      const y = yaml.exec(line);
      if (y) out.push(y[2]);
      const t = title.exec(line);
      if (!t || r) continue;
      const at = t.index + t[0].length - t[1].length;
      // A box table is read to its bottom border: a listing's rows are many. Its rows are read once (a title among them is not
      // read again: a hostile output of title lines would be read rows × lines).
      const boxed = /[│┃|] $/.test(t[0].slice(0, t[0].length - t[1].length));
      if (boxed && i < boxRead) continue;
      const stop = Math.min(lines.length, i + 1 + (boxed ? MAX_BOX_ROWS : MAX_FIELD_ROWS));
      for (let k = i + 1; k < stop; k++) {
        const below = lines[k];
        if (boxed) boxRead = k + 1;
        if (boxed && BOX_BOTTOM.test(below)) break;
        const cell = /^\S+/.exec(below.slice(at));
        if (cell && cell[0].length >= MIN_PRINTED_CHARS && (at === 0 || /\s/.test(below[at - 1]))) out.push(cell[0]);
      }
    }
  }
  return out.filter((v) => !isLookAlike(v, true) && !/^\(.*\)$/.test(v));
}
/** Rows read under a field's title in a table (a creation command prints one or a few). */
const MAX_FIELD_ROWS = 8;
/** Rows read under a box table's title (a listing: a project's secrets), up to its bottom border. */
const MAX_BOX_ROWS = 1000;
/** A box table's bottom border: `└───┴───┘`, `╰──…`, `+---+---+`. */
const BOX_BOTTOM = /^\s*[└╰┗]|^\s*\+-[-+]*\+\s*$/;

/**
 * The values a printer's output `text` holds: each of its lines that is one (printedValue); of a
 * `transformed` printer's output, each line whole (printedLine).
 */
export function printedValues(text: string, transformed = false, keep?: readonly string[]): string[] {
  const out: string[] = [];
  const titles = keep && new Set(keep.map((w) => w.toLowerCase()));
  for (const line of text.split('\n')) {
    if (titles && isTitleLine(line, titles)) continue;
    const v = transformed ? printedLine(line) : printedValue(line);
    if (v) out.push(line.slice(v.start, v.end));
  }
  return out;
}

/**
 * A line of a query's result made of the query's words (its column titles) and a table's rules (`----+----`, `+---+`, `│`) only,
 * or a row the database hid the value of (`pg_user`'s `********`, adv14 L12).
 */
function isTitleLine(line: string, titles: ReadonlySet<string>): boolean {
  const words = line.replace(DECORATION, '').split(/[\s|+,│┃┆║─━═┼╋╬┬┴├┤┌┐└┘╭╮╰╯]+/).filter((w) => w !== '' && !/^[-=_:]+$/.test(w));
  return words.every((w) => titles.has(w.toLowerCase())) || words.some((w) => /^\*{3,}$/.test(w));
}

/**
 * A line of a transformed credential (`| sed 's/./& /g'`, `| od -c`): the line without colour and
 * CR, trimmed, spaces inside kept; not a short line, a placeholder or a look-alike (od's last
 * offset line `0000051`).
 */
export function printedLine(line: string): { start: number; end: number } | undefined {
  const bare = line.replace(DECORATION, '');
  const value = bare.trim();
  // The whole look-alike guard only for a one-word line: its EXAMPLE test is a substring one, and a row that holds a documentation
  // key id beside the secret (`ACCESSKEY AKIA…EXAMPLE… <secret>`, adv3 M06) would be kept whole. A line with blanks is kept only
  // when it is a reference or a bracketed note as a whole (mish's own `[exit 0]` trailer).
  // Documentation domains are left out of a one-word line's look-alike test: they make a host name an example, not the row's
  // credential (exim's `*.example.com:bob@example.com:pw`, adv4 X08, was kept whole for its `example`).
  // Node's inspect of a Buffer (`<Buffer 37 65 64 …>`: adv59 F40) is the bytes, not a `<placeholder>`.
  if (value.replace(/\s+/g, '').length < MIN_PRINTED_CHARS || /^\(.*\)$/.test(value) || (/\s/.test(value) ? (isReference(value) && !NODE_BUFFER.test(value)) || isSecretLabel(value) : isLookAlike(value.replace(DOC_DOMAIN, ''), true))) return undefined;
  const start = line.indexOf(value);
  return start < 0 ? undefined : { start, end: start + value.length };
}

/** Node's `util.inspect` of a Buffer: `<Buffer 37 65 …>`, 50 bytes at most, then `… N more bytes>`. */
const NODE_BUFFER = /^<Buffer(?: [0-9a-f]{2})+(?: \.\.\. \d+ more bytes?)?>$/;

/** RFC 2606's documentation domains and their subdomains (`*.example.com`, `mail.example.org`). */
// Started at a name's first character only: tried at every character of a megabyte word it read the word from each (quadratic).
const DOC_DOMAIN = /(?<![\w*.-])(?:[\w*-]+\.)*example\.(?:com|org|net)\b/gi;


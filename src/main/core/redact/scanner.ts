/**
 * The synchronous secret scanner: where the secrets are in a text, and what kind each is.
 *
 * One pass over the text (keyword-automaton.ts: an Aho-Corasick automaton over every rule's
 * literal anchors, gitleaks' keyword idea) finds where each rule could match, and the runs of
 * 20+ token characters; the costly patterns run only there:
 * - a vendor rule (vendor-rules.ts) on a token run that holds one of its keywords (`ghp_` in
 *   `ghp_…`); runs long enough for a keyword-less rule (Discord bot tokens) or for base64 that
 *   decodes to a secret are looked at too;
 * - a context rule (context-rules.ts) on a line that holds one of its keywords (`mysql` for
 *   `mysql -pSECRET`, `://` for `https://user:pw@host`, a secret's name for `NAME=value`).
 * Private key blocks are walked line by line (private-keys.ts); `data:` blocks of Kubernetes
 * Secrets by their indentation.
 */
import { notebookResults, quotedResultUnderPrompt, replResults } from './repl-results.js';
import { auditRecordFindings } from './audit-records.js';
import { byteArrayFindings, spacedLineFindings } from './byte-arrays.js';
import { GZIP_BASE64_TWICE_WORD, GZIP_BASE64_WORD, gzipBase64Findings } from './compressed-blobs.js';
import { mayHoldUuencoded, uuencodedFindings } from './uuencoded.js';
import { recordingFindings } from './terminal-recordings.js';
import { diagnosedLocals } from './diagnosed-locals.js';
import { escapedQuoteFindings } from './escaped-quotes.js';
import { msgpackPairFindings } from './msgpack-reprs.js';
import { madeWord } from './look-alikes.js';
import { isWireguardPrivateBeside, MAX_DERIVATIONS, type DerivationBudget } from './wireguard-pairs.js';
import { dropDigestCells } from './digest-columns.js';
import { prefixedLineFindings } from './prefixed-lines.js';
import { CALL_WORDS, multiLineCallFindings } from './multi-line-calls.js';
import { wordDiffFindings } from './word-diff-lines.js';
import { msfCredsRows } from './msf-creds.js';
import { keychainDumpItems } from './keychain-dumps.js';
import { indexOfAscii, LowBytes } from './low-bytes.js';
import { KeywordAutomaton } from './keyword-automaton.js';
import { VENDOR_RULES, type VendorRule } from './vendor-rules.js';
import { COMMAND_LINE, COMPOSER_SECTION, COMPOSER_SECTION_WORDS, COOKIE_ATTRIBUTES, COOKIE_LINE, COOKIE_WORDS, FILES, AZURE_KEY_NAMES, HAR_HEADER_WORDS, HAR_PARAM_WORDS, HAR_PARAMS, NEXT_LINE_VALUE_WORDS, PROMPT, FOREIGN_KEY_LABEL, FOREIGN_KEY_ROW, GRAPH_DELTA_BEFORE, GRAPH_DELTA_LOOKBACK, PUTTY_WORDS, TERRAFORM_SENSITIVE_WORDS, HEADERS, KEY_VALUE_VALUE, NAME_WORDS, NOT_SECRET_KEY_NAME, NOT_SECRET_NAME, NPMRC, SECRET_NAME, URL_BOT, URL_HOOK, URL_CREDENTIALS, URL_PARAM, URL_RESET_TOKEN, type ContextRule } from './context-rules.js';
import { CALL_OR_INDEX_HEAD, isExampleToken, isLookAlike, isPlaceholder, isReference, mintedWord } from './look-alikes.js';
import { bareKeyBodies, isDigit, keyFileHunks, loneKeyLines, privateKeyBlocks } from './private-keys.js';
import { CARD_WORD, PAN_WORDS, cardNumberAt, panFieldAt } from './card-numbers.js';
import { hexDumpFindings, mayHoldBareOdRows, mayHoldOdDump } from './hex-dumps.js';
import { opensslPrivateNumbers, publicSecretData, TOOL_BLOCK_WORDS } from './tool-blocks.js';
import { BarePhrases, isPhraseText, quotedPhrases } from './bare-mnemonics.js';
import { plainText } from './escapes.js';
import { API_KEY_LINES, API_KEYS_WORD, apiKeysBlock, COOKIE_LIST_LINES, cookieListValues, SECRET_SECTION_LINES, SECRET_SECTION_WORDS, secretSectionEntries, startsCookieList, yamlCookieItems } from './credential-sections.js';
import { ADDITIONAL_ENDPOINTS_LINES, ADDITIONAL_ENDPOINTS_WORD, additionalEndpointKeys, XTRACE_STDIN_LINES, XTRACE_STDIN_WORDS, xtraceStdinValue, ARGV_LINES, ARGV_LINE_WORDS, argvLineCredential, SECRET_PAYLOAD_LINES, SECRET_PAYLOAD_WORD, secretPayloadData, SVN_SIMPLE_LINES, SVN_SIMPLE_WORD, svnSimplePassword, RUBY_COOKIE_LINES, RUBY_COOKIE_WORD, rubyCookieValue, P4_LOGIN_LINES, P4_LOGIN_WORD, p4LoginTicket, AWS_KEY_PAIR_LINES, AWS_KEY_PAIR_WORDS, awsSecretBelowId, KEY_BESIDE_USER_LINES, KEY_BESIDE_USER_WORDS, keyBesideUser, CODEPUSH_TABLE_LINES, CODEPUSH_TABLE_WORDS, codePushKeys, STREAM_KEY_LINES, STREAM_KEY_WORD, streamKeyBesideServer, RECOVERY_LIST_LINES, RECOVERY_LIST_WORDS, recoveryCodeList, PRIVATE_KEY_LIST_LINES, PRIVATE_KEY_LIST_WORD, privateKeyList, ACCOUNTS_LINES, ACCOUNTS_WORD, hardhatAccounts, SHA1_BELOW_KEY_LINES, SHA1_BELOW_KEY_WORDS, sha1BelowKey, HMAC_KEY_FILE_LINES, HMAC_KEY_FILE_WORD, hmacKeyBelowAlgorithm, HEX_BELOW_LABEL_LINES, HEX_BELOW_LABEL_WORDS, hexBelowLabel, EXPECT_SEND_LINES, EXPECT_SEND_LINES_ABOVE, EXPECT_SEND_WORDS, expectSendValue, LAPS_PRETTY_LINES_ABOVE, LAPS_PRETTY_WORDS, lapsPrettyPassword, AUTHORIZATION_LIST_LINES, AUTHORIZATION_LIST_WORDS, authorizationListItem, XMLRPC_LOGIN_LINES, XMLRPC_LOGIN_WORDS, xmlRpcLoginPassword, PASSWORD_INPUT_LINES, PASSWORD_INPUT_WORDS, passwordInputFilled, MASTER_INFO_LINES, MASTER_INFO_LINES_ABOVE, MASTER_INFO_WORDS, masterInfoPassword, WRAPPED_JWT_LINES, WRAPPED_JWT_WORD, wrappedJwtRest, REGISTERED_USERS_LINES, REGISTERED_USERS_WORD, registeredUsersPasswords, STEAM_CONNECT_CACHE_LINES, STEAM_CONNECT_CACHE_WORD, steamConnectCache, BCRYPT_HASH_WORD, CONCEALED_FIELD_WORDS, LINES_ABOVE_PARAMETERS, MEMCACHED_LINES, MEMCACHED_WORDS, memcachedValue, PYDANTIC_INPUT_WORD, pydanticInputValues, ZABBIX_LOGIN_LINES, ZABBIX_LOGIN_WORD, zabbixSession, PARAMETERS_WORD, postgresParameters, PROXMOX_TOKEN_LINES, PROXMOX_TOKEN_WORD, proxmoxTokenValue, RANDOM_PASSWORD_LINES, RANDOM_PASSWORD_WORD, randomPasswordResult, SECRET_OBJECT_LINES, SECRET_OBJECT_WORD, secretObjectValue, VAULT_DATA_LINES, VAULT_DATA_WORDS, vaultSecretData } from './bound-values.js';
import { BOUND_PARAMS_LINES_ABOVE, BOUND_PARAMS_WORDS, boundParams, EF_PARAMS_WORD, EF_STATEMENT_LINES, efCoreParams } from './bound-params.js';
import { base64Kind, type SecretFinding } from './finding.js';
import { foldedLineFindings, foldLinesAfter } from './folded-lines.js';
import { encodedValueKind } from './named-encodings.js';
import { COLUMN_DEFINITION_LINE, COLUMN_LIST_BEFORE, COLUMN_LIST_LINE, createHead, CREATE_TABLE, FarNames, isTableHeader, MAX_HEADER_LINE, MAX_TABLE_ROWS, sqlHead, TYPES_ROW, walkUp, type NameTests } from './far-names.js';

export type { SecretFinding } from './finding.js';

/** Shortest run the vendor rules look at: the shortest vendor token (`LTAI…`, `AKIA…`) is 20+ characters. */
const MIN_RUN = 20;
/** The characters of a token run: word characters and the separators tokens, base64 and URLs are made of. */
const RUN_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.+/=:~-';

const LINE_RULES: ContextRule[] = [NPMRC, URL_CREDENTIALS, URL_PARAM, URL_BOT, URL_HOOK, URL_RESET_TOKEN, ...HEADERS, ...COMMAND_LINE, ...FILES, PROMPT, FOREIGN_KEY_LABEL];
/** Context "rules" that are code, numbered after LINE_RULES: the key=value search and cookie headers. */
const NAME_RULE = LINE_RULES.length;
const COOKIE_RULE = LINE_RULES.length + 1;
const TERRAFORM_RULE = LINE_RULES.length + 2;
const PUTTY_RULE = LINE_RULES.length + 3;
const HAR_RULE = LINE_RULES.length + 4;
const NEXT_LINE_RULE = LINE_RULES.length + 5;
const COMPOSER_RULE = LINE_RULES.length + 6;
/** Sections whose every entry is a credential (credential-sections.ts): a cookie list, serverless' `api keys:`. */
const COOKIE_LIST_RULE = LINE_RULES.length + 7;
const API_KEYS_RULE = LINE_RULES.length + 8;
/** Values bound away from their name (bound-values.ts): PostgreSQL's logged parameters, a Terraform state's random password. */
const PARAMETERS_RULE = LINE_RULES.length + 9;
const RANDOM_PASSWORD_RULE = LINE_RULES.length + 10;
/** An API Gateway key object (`"stageKeys": […]`): its `"value"`, printed before its name (flaggedObjectValue). */
const STAGE_KEYS_RULE = LINE_RULES.length + 11;
// Also an object flagged secret by its type: SSM's `"Type": "SecureString"` (`get-parameters-by-path --with-decryption`), a
// Postman environment's `"type": "secret"` (adv19 F12, F34).
const FLAGGED_OBJECT_WORDS = ['"stagekeys"', '"securestring"', '"type": "secret"'];
/** A Bitwarden Secrets Manager secret object (bound-values.ts secretObjectValue). */
const SECRET_OBJECT_RULE = LINE_RULES.length + 12;
/** A Vault KV v2 secret as JSON (bound-values.ts vaultSecretData). */
const VAULT_DATA_RULE = LINE_RULES.length + 13;
/** An ORM's list of bound parameters (bound-params.ts): knex's `bindings`, Prisma's `Params:`, Sequelize's `Executing (`. */
const BOUND_PARAMS_RULE = LINE_RULES.length + 14;
/** EF Core's parameters, listed before their statement (bound-params.ts efCoreParams). */
const EF_PARAMS_RULE = LINE_RULES.length + 15;
/** Proxmox VE's API token, printed once under its `full-tokenid` (bound-values.ts proxmoxTokenValue). */
const PROXMOX_TOKEN_RULE = LINE_RULES.length + 16;
/** SMTP's AUTH LOGIN: the password's base64 sent after the server's `334 UGFzc3dvcmQ6` (`Password:`) prompt (smtpPasswordLine). */
const SMTP_PASSWORD_RULE = LINE_RULES.length + 17;
/** The server's `334 ` prompt for the password in base64 (`Password:`), lower case as the pass finds words. */
const SMTP_PASSWORD_PROMPT = 'ugfzc3dvcmq6';
/** A memcached item's data under its header (bound-values.ts memcachedValue). */
const MEMCACHED_RULE = LINE_RULES.length + 18;
/** Zabbix's API session in a `user.login` response (bound-values.ts zabbixSession). */
const ZABBIX_LOGIN_RULE = LINE_RULES.length + 19;
/** Datadog's extra endpoints' API keys (bound-values.ts additionalEndpointKeys). */
const ADDITIONAL_ENDPOINTS_RULE = LINE_RULES.length + 20;
/** A credential fed on stdin by a pipeline traced by `set -x` (bound-values.ts xtraceStdinValue). */
const XTRACE_STDIN_RULE = LINE_RULES.length + 21;
/** A command line read one argument a line (bound-values.ts argvLineCredential). */
const ARGV_LINE_RULE = LINE_RULES.length + 22;
/** A Google Secret Manager version's payload under its name (bound-values.ts secretPayloadData). */
const SECRET_PAYLOAD_RULE = LINE_RULES.length + 23;
/** An INI or TOML section named for secrets (credential-sections.ts secretSectionEntries). */
const SECRET_SECTION_RULE = LINE_RULES.length + 24;
/** Subversion's cached password (bound-values.ts svnSimplePassword). */
const SVN_SIMPLE_RULE = LINE_RULES.length + 25;
/** A Ruby HTTP::Cookie dumped as YAML (bound-values.ts rubyCookieValue). */
const RUBY_COOKIE_RULE = LINE_RULES.length + 26;
/** Perforce's `p4 login -p` ticket in a log (bound-values.ts p4LoginTicket); Steam's cached logins (steamConnectCache). */
const P4_LOGIN_RULE = LINE_RULES.length + 27;
const STEAM_CONNECT_CACHE_RULE = LINE_RULES.length + 28;
/** An AWS key pair a line each; a JWT cut by a wrap; Orthanc's users (bound-values.ts). */
const AWS_KEY_PAIR_RULE = LINE_RULES.length + 29;
const WRAPPED_JWT_RULE = LINE_RULES.length + 30;
const REGISTERED_USERS_RULE = LINE_RULES.length + 31;
/** A test grid's access key beside its user (bound-values.ts keyBesideUser). */
const KEY_BESIDE_USER_RULE = LINE_RULES.length + 37;
/** CodePush's deployments table (bound-values.ts codePushKeys). */
const CODEPUSH_TABLE_RULE = LINE_RULES.length + 38;
/** A stream key beside its RTMP server (bound-values.ts streamKeyBesideServer). */
const STREAM_KEY_RULE = LINE_RULES.length + 39;
/** Recovery codes listed below their label (bound-values.ts recoveryCodeList). */
const RECOVERY_LIST_RULE = LINE_RULES.length + 40;
/** A dev chain's private keys listed below their heading (bound-values.ts privateKeyList). */
const PRIVATE_KEY_LIST_RULE = LINE_RULES.length + 41;
/** Hardhat's accounts as private keys (bound-values.ts hardhatAccounts). */
const ACCOUNTS_RULE = LINE_RULES.length + 42;
/** A dumper's SHA-1 below an NT hash or a DPAPI master key (bound-values.ts sha1BelowKey). */
const SHA1_BELOW_KEY_RULE = LINE_RULES.length + 43;
/** BIND's HMAC key file's `Key:` below its algorithm (bound-values.ts hmacKeyBelowAlgorithm). */
const HMAC_KEY_FILE_RULE = LINE_RULES.length + 44;
/** A key or hash alone below its label (bound-values.ts hexBelowLabel). */
const HEX_BELOW_LABEL_RULE = LINE_RULES.length + 45;
/** An expect script's answer to a password prompt (bound-values.ts expectSendValue). */
const EXPECT_SEND_RULE = LINE_RULES.length + 46;
/** Windows LAPS' password JSON pretty-printed (bound-values.ts lapsPrettyPassword). */
const LAPS_PRETTY_RULE = LINE_RULES.length + 47;
/** An Authorization header's list, its item on the next line (bound-values.ts authorizationListItem). */
const AUTHORIZATION_LIST_RULE = LINE_RULES.length + 48;
/** An XML-RPC login's third parameter (bound-values.ts xmlRpcLoginPassword). */
const XMLRPC_LOGIN_RULE = LINE_RULES.length + 49;
/** What Playwright's call log fills into a password input (bound-values.ts passwordInputFilled). */
const PASSWORD_INPUT_RULE = LINE_RULES.length + 50;
/** MySQL's `master.info` password line (bound-values.ts masterInfoPassword). */
const MASTER_INFO_RULE = LINE_RULES.length + 51;
/** SMTP's AUTH LOGIN as strace shows the client's writes (straceAuthLoginAnswer): no server prompt in view. */
const STRACE_AUTH_LOGIN_RULE = LINE_RULES.length + 32;
/**
 * A Cloudflare Tunnel's run token decoded (`base64 -d` of the `eyJhIjoi…` token: `{"a":"<account tag>","t":"<tunnel UUID>",
 * "s":"<secret>"}`, adv168 F34): the secret under its one-letter name, the account tag and the tunnel's UUID before it saying what
 * it is (cloudflareTunnelSecret).
 */
const CLOUDFLARE_TUNNEL_RULE = LINE_RULES.length + 33;
/** A payment card's number and security code in its fields (card-numbers.ts). */
const CARD_NUMBER_RULE = LINE_RULES.length + 34;
/** The number under `pan` (`DE002 (PAN):`, `"pan":`) and `ccnum`, `cc_number` (card-numbers.ts panFieldAt). */
const PAN_RULE = LINE_RULES.length + 35;
const CCNUM_RULE = LINE_RULES.length + 36;
const TUNNEL_SECRET_WORDS = ['"s":', "'s':"];
/** Before the tunnel secret's name: the account tag and the tunnel's UUID, compact or pretty-printed (`jq .`), or Python's dict. */
const TUNNEL_FIELDS_BEFORE = /(?<q>["'])a\k<q>[ \t\r\n]{0,16}:[ \t\r\n]{0,16}\k<q>[0-9a-f]{32}\k<q>[ \t\r\n]{0,16},[ \t\r\n]{0,16}\k<q>t\k<q>[ \t\r\n]{0,16}:[ \t\r\n]{0,16}\k<q>[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}\k<q>[ \t\r\n]{0,16},[ \t\r\n]{0,16}\k<q>s\k<q>:$/;
/** Characters TUNNEL_FIELDS_BEFORE may span. */
const TUNNEL_FIELDS_CHARS = 160;
/** The tunnel's secret: base64 of 32 bytes (or more), quoted. */
const TUNNEL_SECRET = /[ \t]{0,16}(?<q>["'])(?<v>[A-Za-z0-9+/]{40,88}={0,2})\k<q>/y;
/** `auth login` as the pass finds it (lower case). */
const AUTH_LOGIN_WORD = 'auth login';
/** Lines after the client's `AUTH LOGIN` its answers are looked for on (a full strace puts the server's reads between). */
const STRACE_AUTH_LOGIN_LINES = 6;
/** Lines an SMTP transcript puts between the prompt and the client's answer (smtplib's debug prints the reply twice). */
const SMTP_PASSWORD_LINES = 3;
/** Lines around an API Gateway key's `"stageKeys"` its object's `"value"` may be on (`get-api-keys` prints ~6 fields). */
const STAGE_KEYS_LINES_AROUND = 8;

/** One keyword of the pass and what it triggers. */
interface Keyword {
  word: string;
  /** Context use only where this (sticky, at the keyword's end) does not match: `pass` in `passed`. */
  unless?: RegExp;
  /** Vendor rules to try on the token run the keyword is in. */
  vendor: VendorRule[];
  /** Context rules (indexes: LINE_RULES, NAME_RULE, COOKIE_RULE) to run on the keyword's line. */
  context: number[];
  /** Whole-text rules (GATE_*) this keyword lets run: the pass's hits stand in for a search of the whole text per rule. */
  gate: number;
  /** More of them (MARK_*: the GATE_* bits are all taken). */
  mark: number;
}

/**
 * Whole-text rules the pass's hits open, so no rule searches the whole text for its literal: each
 * such search (`includes('-----')`) cost ~3% of a reply's masking, ~5% on a text with a
 * character past U+00FF (V8 searches a two-byte string slower; 32 of the bench's 41 replies are).
 */
const GATE_KEY_BLOCK = 1;
/** `data:` (a Secret's data block) and `stringData:`: both from the word `ata:`, told apart at the hit. */
const GATE_DATA_BLOCK = 2;
const GATE_STRING_DATA_BLOCK = 16;
const GATE_TOKEN_TABLE = 4;
/** A private key's DER start in base64 (`MIIEowIBAAKC…`, `MII…ADANBgkqhkiG9w0BAQEFAASC…`, `b3BlbnNzaC1rZXktdjE…`): its body with no armour. */
const GATE_KEY_BODY = 32;
/** A hex dump row's offset at a line's start (hex-dumps.ts: `00000000  68 74…`, `00000010: 6874…`, tcpdump's `\t0x0000:  4500…`). */
const GATE_HEX_ROW = 8;
/** auditd's raw records (`msg=audit(`: audit-records.ts). */
const GATE_AUDIT = 64;
/** A REPL's or a debugger's prompt (repl-results.ts: `irb(`, `In [`, `>>> `, `debug> `, `(Pdb) ` …), before its own finer checks. */
const GATE_REPL = 128;
/** Session 16's whole-text rules, each opened by its words' hits rather than a search of the text (each such search cost ~3%). */
const GATE_SECRETS_CONTEXT = 256;
const GATE_SEED_PHRASE = 512;
const GATE_TF_SENSITIVE = 1024;
const GATE_AWS_KEY_ID = 2048;
const GATE_QUOTED_PRINTABLE = 4096;
const GATE_OVERSTRUCK = 8192;
/** gzip's output in base64 (`H4sI…`: compressed-blobs.ts). */
const GATE_GZIP_BASE64 = 16384;
/** `base64 -d` / `--decode` / `-D` on a command line (decodedLiterals). */
const GATE_BASE64_DECODE = 32768;
/** A shell prompt's mark (`$ `, `% `, xtrace's `+ `): a transcript's commands (transcript-commands.ts). */
const GATE_PROMPT_MARK = 65536;
/** Rarer whole-text readers' words, once searched for in every text (a search each): a diff's file lines (keyFileHunks),
 * ASCII85's `<~`, a literal written backwards (`.reverse()`, `[::-1]`), `head`'s `==> … <==` headers. */
const GATE_DIFF_FILE = 1 << 17;
const GATE_ASCII85 = 1 << 18;
const GATE_REVERSED = 1 << 19;
const GATE_FILE_HEADER = 1 << 20;
/** A uuencoded file's `begin <mode>` (uuencoded.ts), an asciinema recording's output event (terminal-recordings.ts). */
const GATE_UUENCODED = 1 << 21;
const GATE_RECORDING = 1 << 22;
/** A test framework's failed assertion that names its operand (ExUnit's `code:  assert`, pytest's `+  where `). */
const GATE_ASSERTION = 1 << 23;
/** A URL with its slashes escaped (`https:\/\/…`: PHP's json_encode), for the Redactor's decoded lines (escapes.ts withoutStringEscapes). */
const GATE_ESCAPED_URL = 1 << 24;
/** A secret's name written with a blank after each character (`sed 's/./& /g'`: byte-arrays.ts spacedLineFindings). */
const GATE_SPACED = 1 << 25;
/** A quote or a letter written as an HTML reference, `\x22` or `\u0070` (escaped-quotes.ts); a MessagePack string's header in a bytes repr (msgpack-reprs.ts). */
const GATE_ESCAPED_QUOTE = 1 << 26;
const GATE_MSGPACK = 1 << 27;
/** pydantic's validation error's rejected value (bound-values.ts pydanticInputValues). */
const GATE_PYDANTIC = 1 << 28;
/**
 * `0x` (byte-arrays.ts: a C array's `0x4d, 0x5a, …`) and a notebook's `"text/plain"` (repl-results.ts): searches that cost ~1% each
 * (a two-byte text searched for `0` or `"` finds candidates everywhere). No keyword holds a line break: `\n` would be a 69th
 * character for the table's classes (keyword-automaton.ts NARROW_CLASSES).
 */
const GATE_HEX_LIST = 1 << 29;
const GATE_NOTEBOOK = 1 << 30;
/**
 * A public key's marks, for the Redactor's keepPublicKeys (its findings inside a public key are the private key's pieces):
 * an SSH key's blob (its type's encoding, or a blank then `AAAA` after the type's name), an RSA SPKI's algorithm identifier in
 * base64; a PEM block's `-----BEGIN` is GATE_KEY_BLOCK's. (Three searches of every text before: ~5% of a reply's masking,
 * `-----BEGIN`'s `-` being a common character. The last bit: a negative number, still truthy under `&`.)
 */
const GATE_PUBLIC_KEY = 1 << 31;
/** A shell prompt's marks: a command follows each, after its blank. The ASCII ones are the keyword pass's gate words. */
export const PROMPT_MARKS = ['$ ', '% ', '+ '];
/** A PowerShell prompt's head (`PS C:\Users\dev> `, `PS /home/dev> `, `PS ~> `): its words open the transcripts' reader too. */
export const POWERSHELL_PROMPT_WORDS = ['ps c:\\', 'ps d:\\', 'ps /', 'ps ~'];
/** starship's and others' `❯ ` (no keyword: the pass reads ASCII; a one-byte text is answered at once). */
export const NON_ASCII_PROMPT_MARK = '❯ ';
/** The gates' words: every private key block has `-----BEGIN` or `-----END` (private-keys.ts); `data:` and `stringData:` lines share `ata:`; `TOKEN` (a column's name) is `token`'s hit, checked for capitals. */
const GATE_WORDS: [string, number][] = [
  ['-----begin', GATE_KEY_BLOCK],
  ['-----end', GATE_KEY_BLOCK],
  ['ata:', GATE_DATA_BLOCK | GATE_STRING_DATA_BLOCK],
  ['token', GATE_TOKEN_TABLE],
  ['0000', GATE_HEX_ROW],
  // The DER starts of private keys as base64 (private-keys.ts bareKeyBodies): PKCS#1 RSA, PKCS#8 RSA, OpenSSH, SEC1 EC, PKCS#8 Ed25519,
  // PKCS#8 EC (P-256's and P-384's algorithm identifiers).
  ['ibaakc', GATE_KEY_BODY],
  ['adanbgkqhkig9w0baqefaasc', GATE_KEY_BODY],
  ['b3blbnnzac1rzxktdje', GATE_KEY_BODY],
  ['mhccaqee', GATE_KEY_BODY],
  ['mc4caqawbqydk2vwbciei', GATE_KEY_BODY],
  ['ageambmgbyqgsm49ageg', GATE_KEY_BODY],
  ['ageambagbyqgsm49ageg', GATE_KEY_BODY],
  // An RSA key's public then private exponent, at each base64 alignment (private-keys.ts RSA_PRIVATE_EXPONENT): a block's middle.
  ['agmbaaecg', GATE_KEY_BODY],
  ['idaqabao', GATE_KEY_BODY],
  ['caweaaqk', GATE_KEY_BODY],

  ['msg=audit(', GATE_AUDIT],
  ['"github_token": ', GATE_SECRETS_CONTEXT],
  ...(['seed phrase', 'recovery phrase', 'mnemonic'] as const).map((w): [string, number] => [w, GATE_SEED_PHRASE]),
  ['_sensitive"', GATE_TF_SENSITIVE],
  ['"sensitive_values"', GATE_TF_SENSITIVE],
  ['akia', GATE_AWS_KEY_ID],
  ['asia', GATE_AWS_KEY_ID],
  [GZIP_BASE64_WORD, GATE_GZIP_BASE64],
  [GZIP_BASE64_TWICE_WORD, GATE_GZIP_BASE64],
  ['base64 -', GATE_BASE64_DECODE],
  ['--- a/', GATE_DIFF_FILE],
  ['+++ b/', GATE_DIFF_FILE],
  ['<~', GATE_ASCII85],
  ['.reverse()', GATE_REVERSED],
  ['[::-1]', GATE_REVERSED],
  [' <==', GATE_FILE_HEADER],
  ['begin ', GATE_UUENCODED],
  [', "o", "', GATE_RECORDING],
  // (A cast written compact, JSON.stringify's `[1.02,"o","…"]`: pass 258 F6.)
  [',"o","', GATE_RECORDING],
  ['code:  assert ', GATE_ASSERTION],
  ['+  where ', GATE_ASSERTION],
  [':\\/\\/', GATE_ESCAPED_URL],
  ...(['&quot;', '&#3', '&#x2', '&apos;', '\\x2', '\\x3', '\\x4', '\\x5', '\\x6', '\\x7', '\\u00'] as const).map((w): [string, number] => [w, GATE_ESCAPED_QUOTE]),
  ...(['\\xa', '\\xb'] as const).map((w): [string, number] => [w, GATE_MSGPACK]),
  [PYDANTIC_INPUT_WORD, GATE_PYDANTIC],
  ...(['t o k e n', 'p a s s', 's e c r e t', 'k e y ', 'a u t h'] as const).map((w): [string, number] => [w, GATE_SPACED]),
  ...PROMPT_MARKS.map((w): [string, number] => [w, GATE_PROMPT_MARK]),
  ...POWERSHELL_PROMPT_WORDS.map((w): [string, number] => [w, GATE_PROMPT_MARK]),
  // script(1)'s typescript header names its command (transcript-commands.ts).
  ['script started on ', GATE_PROMPT_MARK],
  ['quoted-printable', GATE_QUOTED_PRINTABLE],
  ['=3d', GATE_QUOTED_PRINTABLE],
  ['\b', GATE_OVERSTRUCK],
  ['0x', GATE_HEX_LIST],
  ['"text/plain"', GATE_NOTEBOOK],
  // SSH_PUBLIC_KEY's blobs (redactor.ts): `ssh-rsa AAAA…`, and each type's encoding in base64 (rsa, dss, ed25519, ecdsa, sk-*).
  ...([' aaaa', 'aaaab3nzac1', 'aaaac3nzac1', 'aaaae2vjzhnh', 'aaaagnnrlxnz', 'aaaainnrlwvj', 'bgkqhkig9w0baqefaaoc'] as const).map((w): [string, number] => [w, GATE_PUBLIC_KEY]),
  // A prompt's words (the pass is case-insensitive: `in [` opens the gate for `for x in [` too; mayHoldPrompt then looks closer), and
  // PowerShell's reads of a secure string as plain text (adv74 F33).
  ...(['irb(', 'in [', 'jshell> ', 'iex(', '>>> ', ')> ', 'debug> ', '(pdb) ', '(lldb) ', '(dlv) ', 'ipdb> ', 'freeswitch@', 'asplaintext', 'getnetworkcredential', 'ptrtostring'] as const).map((w): [string, number] => [w, GATE_REPL]),
];

/**
 * Whole-text readers' words past the GATE_* bits: a NUL as shown (`^@`, `\x00`), Metasploit's table title, a word diff's markers,
 * a keychain dump's password item.
 */
const MARK_SHOWN_NUL = 1;
const MARK_MSF_TABLE = 2;
const MARK_WORD_DIFF = 4;
/** A macOS keychain dump's password item (keychain-dumps.ts). */
const MARK_KEYCHAIN = 8;
/** A client's call word (multi-line-calls.ts CALL_WORDS). */
const MARK_CALL = 16;
const MARK_WORDS: [string, number][] = [
  ['class: "genp"', MARK_KEYCHAIN],
  ['class: "inet"', MARK_KEYCHAIN],
  // (Or a dump's `data:` lines cut out by grep: keychain-dumps.ts reads only a `data:` line alone, then a quoted one.)
  ['data:', MARK_KEYCHAIN],
  ['^@', MARK_SHOWN_NUL],
  ['\\x00', MARK_SHOWN_NUL],
  ['private_type', MARK_MSF_TABLE],
  ['-]{+', MARK_WORD_DIFF],
  ['-]', MARK_WORD_DIFF],
  ['+}', MARK_WORD_DIFF],
];

const KEYWORDS: Keyword[] = [];
{
  const byKey = new Map<string, Keyword>();
  const entry = (word: string, unless?: RegExp) => {
    const w = word.toLowerCase();
    const key = `${w}\u0000${unless?.source ?? ''}`;
    let e = byKey.get(key);
    if (!e) byKey.set(key, (e = { word: w, unless, vendor: [], context: [], gate: 0, mark: 0 }));
    return e;
  };
  for (const r of VENDOR_RULES) for (const k of r.keywords) entry(k).vendor.push(r);
  const nameUnless = new Map(NAME_WORDS.map((n) => [n.word, n.unless]));
  LINE_RULES.forEach((r, i) => r.keywords.forEach((k) => entry(k, r.sharesNameWords ? nameUnless.get(k) : r.unless).context.push(i)));
  for (const { word, unless } of NAME_WORDS) entry(word, unless).context.push(NAME_RULE);
  for (const w of COOKIE_WORDS) entry(w).context.push(COOKIE_RULE);
  for (const w of TERRAFORM_SENSITIVE_WORDS) entry(w).context.push(TERRAFORM_RULE);
  for (const w of PUTTY_WORDS) entry(w).context.push(PUTTY_RULE);
  for (const w of [...HAR_HEADER_WORDS, ...HAR_PARAM_WORDS]) entry(w).context.push(HAR_RULE);
  for (const w of NEXT_LINE_VALUE_WORDS) entry(w).context.push(NEXT_LINE_RULE);
  for (const w of COMPOSER_SECTION_WORDS) entry(w).context.push(COMPOSER_RULE);
  for (const w of COOKIE_WORDS) entry(w).context.push(COOKIE_LIST_RULE);
  entry(API_KEYS_WORD).context.push(API_KEYS_RULE);
  entry(PARAMETERS_WORD).context.push(PARAMETERS_RULE);
  entry(RANDOM_PASSWORD_WORD).context.push(RANDOM_PASSWORD_RULE);
  entry(BCRYPT_HASH_WORD).context.push(RANDOM_PASSWORD_RULE);
  for (const w of FLAGGED_OBJECT_WORDS) entry(w).context.push(STAGE_KEYS_RULE);
  for (const w of [SECRET_OBJECT_WORD, ...CONCEALED_FIELD_WORDS]) entry(w).context.push(SECRET_OBJECT_RULE);
  for (const w of VAULT_DATA_WORDS) entry(w).context.push(VAULT_DATA_RULE);
  for (const w of BOUND_PARAMS_WORDS) entry(w).context.push(BOUND_PARAMS_RULE);
  entry(EF_PARAMS_WORD).context.push(EF_PARAMS_RULE);
  entry(PROXMOX_TOKEN_WORD).context.push(PROXMOX_TOKEN_RULE);
  entry(SMTP_PASSWORD_PROMPT).context.push(SMTP_PASSWORD_RULE);
  entry(AUTH_LOGIN_WORD).context.push(STRACE_AUTH_LOGIN_RULE);
  for (const w of TUNNEL_SECRET_WORDS) entry(w).context.push(CLOUDFLARE_TUNNEL_RULE);
  entry(CARD_WORD).context.push(CARD_NUMBER_RULE);
  // A word of its own: nothing after it but `ber` of `cc_number` (`panel`, `pancake`, `ccnumeric` are none).
  for (const w of PAN_WORDS) entry(w, w === 'pan' ? /[a-z]/iy : /(?!ber(?![a-z]))[a-z]/iy).context.push(w === 'pan' ? PAN_RULE : CCNUM_RULE);
  for (const w of MEMCACHED_WORDS) entry(w).context.push(MEMCACHED_RULE);
  entry(ZABBIX_LOGIN_WORD).context.push(ZABBIX_LOGIN_RULE);
  entry(ADDITIONAL_ENDPOINTS_WORD).context.push(ADDITIONAL_ENDPOINTS_RULE);
  for (const w of XTRACE_STDIN_WORDS) entry(w).context.push(XTRACE_STDIN_RULE);
  for (const w of ARGV_LINE_WORDS) entry(w).context.push(ARGV_LINE_RULE);
  entry(SECRET_PAYLOAD_WORD).context.push(SECRET_PAYLOAD_RULE);
  for (const w of SECRET_SECTION_WORDS) entry(w).context.push(SECRET_SECTION_RULE);
  entry(SVN_SIMPLE_WORD).context.push(SVN_SIMPLE_RULE);
  entry(RUBY_COOKIE_WORD).context.push(RUBY_COOKIE_RULE);
  entry(P4_LOGIN_WORD).context.push(P4_LOGIN_RULE);
  entry(STEAM_CONNECT_CACHE_WORD).context.push(STEAM_CONNECT_CACHE_RULE);
  for (const w of AWS_KEY_PAIR_WORDS) entry(w).context.push(AWS_KEY_PAIR_RULE);
  entry(WRAPPED_JWT_WORD).context.push(WRAPPED_JWT_RULE);
  entry(REGISTERED_USERS_WORD).context.push(REGISTERED_USERS_RULE);
  for (const w of KEY_BESIDE_USER_WORDS) entry(w).context.push(KEY_BESIDE_USER_RULE);
  for (const w of CODEPUSH_TABLE_WORDS) entry(w).context.push(CODEPUSH_TABLE_RULE);
  entry(STREAM_KEY_WORD).context.push(STREAM_KEY_RULE);
  for (const w of RECOVERY_LIST_WORDS) entry(w).context.push(RECOVERY_LIST_RULE);
  entry(PRIVATE_KEY_LIST_WORD).context.push(PRIVATE_KEY_LIST_RULE);
  entry(ACCOUNTS_WORD).context.push(ACCOUNTS_RULE);
  for (const w of SHA1_BELOW_KEY_WORDS) entry(w).context.push(SHA1_BELOW_KEY_RULE);
  entry(HMAC_KEY_FILE_WORD).context.push(HMAC_KEY_FILE_RULE);
  for (const w of HEX_BELOW_LABEL_WORDS) entry(w).context.push(HEX_BELOW_LABEL_RULE);
  for (const w of EXPECT_SEND_WORDS) entry(w).context.push(EXPECT_SEND_RULE);
  for (const w of LAPS_PRETTY_WORDS) entry(w).context.push(LAPS_PRETTY_RULE);
  for (const w of AUTHORIZATION_LIST_WORDS) entry(w).context.push(AUTHORIZATION_LIST_RULE);
  for (const w of XMLRPC_LOGIN_WORDS) entry(w).context.push(XMLRPC_LOGIN_RULE);
  for (const w of PASSWORD_INPUT_WORDS) entry(w).context.push(PASSWORD_INPUT_RULE);
  for (const w of MASTER_INFO_WORDS) entry(w).context.push(MASTER_INFO_RULE);
  for (const [w, gate] of GATE_WORDS) entry(w).gate |= gate;
  for (const [w, mark] of MARK_WORDS) entry(w).mark |= mark;
  // A tool block's own word (`"kty"`): found by the pass, read by toolBlocks only.
  for (const b of TOOL_BLOCK_WORDS) entry(b.word);
  // A client's call a formatter may lay over lines (multi-line-calls.ts).
  for (const w of CALL_WORDS) {
    const holders = [...byKey.values()].filter((e) => e.word === w);
    for (const e of holders.length > 0 ? holders : [entry(w)]) e.mark |= MARK_CALL;
  }
  KEYWORDS.push(...byKey.values());
}
/** Does the scanner's keyword table fit 16-bit offsets (keyword-automaton.ts `wide`)? New rules share existing words where they can (ContextRule.sharesNameWords) to keep it so. */
export const keywordTableIsCompact = (): boolean => !AUTOMATON.wide;
/** How many states the table has (65,535 at most to stay compact): for the lead's check of new keywords' cost. */
export const keywordStates = (): number => AUTOMATON.states;
/** The table's row width and the characters that share a class to keep it 64 (keyword-automaton.ts NARROW_CLASSES). */
export const keywordRows = (): { width: number; sharedChars: string } => ({ width: AUTOMATON.rowWidth, sharedChars: AUTOMATON.sharedChars });

/** Per keyword id: the tool blocks (tool-blocks.ts) whose word it is. */
const TOOL_BLOCKS_OF: (typeof TOOL_BLOCK_WORDS)[] = KEYWORDS.map((k) => TOOL_BLOCK_WORDS.filter((b) => b.word === k.word));

/** The tool blocks (vault tables, redis CONFIG GET, a Secret as JSON, openssl's numbers, 1Password fields) whose word the pass found, each read once. */
function toolBlocks(text: string, hits: number[], out: SecretFinding[]): void {
  let done: Set<unknown> | undefined;
  for (let j = 0; j < hits.length; j += 2) {
    const blocks = TOOL_BLOCKS_OF[hits[j]];
    if (blocks.length === 0) continue;
    for (const b of blocks) {
      if (done?.has(b.find) || !b.at(text, hits[j + 1])) continue;
      (done ??= new Set()).add(b.find);
      b.find(text, isSecretName, out);
    }
  }
}

/** Rules without a literal (Discord bot tokens): tried on runs long enough to hold one. */
const NO_KEYWORD: VendorRule[] = VENDOR_RULES.filter((r) => r.keywords.length === 0);

/** The token boundary every rule without a literal starts with (vendor-rules.ts `B`; its `BB` implies it). */
const TOKEN_START = '(?<![A-Za-z0-9_-])';
/**
 * One search standing for several rules without a literal (their patterns after their start, as alternatives, their groups
 * unnamed), tried once on a long run before the rules are: a build log's long runs (paths, URLs, ~7,000 in the bench's
 * 3.4 MB) each took the twelve rules' searches, a sixth of the reply's masking time; nearly none holds a match. The
 * boundary is written once, before the alternatives.
 */
function gateOf(rules: readonly VendorRule[]): RegExp {
  return new RegExp(
    `${TOKEN_START}(?:${rules
      .map((r) => {
        const source = r.re.source.replace(/\(\?<[A-Za-z_]\w*>/g, '(?:');
        for (const start of [TOKEN_START, '(?<![A-Za-z0-9_+/-])']) if (source.startsWith(start)) return source.slice(start.length);
        throw new Error(`scanner: rule ${r.kind} without a literal does not start at a token boundary`);
      })
      .join('|')})`,
    [...new Set(rules.flatMap((r) => [...r.re.flags]))].filter((f) => f !== 'g' && f !== 'y' && f !== 'd').join(''),
  );
}
/**
 * The rules whose tokens hold a `:` between two parts (a Twilio SID and its token, an Ably key, a key and secret pair) have
 * their own search, tried only on a run with such a colon (colonPair): a URL's `https:` has too few characters before it.
 */
const COLON_RULES = NO_KEYWORD.filter((r) => r.runHas === ':');
const NO_KEYWORD_GATE = gateOf(NO_KEYWORD.filter((r) => r.runHas !== ':'));
const COLON_GATE = gateOf(COLON_RULES);

const AUTOMATON = new KeywordAutomaton(
  KEYWORDS.map((k) => k.word),
  RUN_CHARS,
);

/** Per keyword id: its gates (GATE_*). */
const GATE_OF = Uint32Array.from(KEYWORDS, (k) => k.gate);
const MARK_OF = Uint8Array.from(KEYWORDS, (k) => k.mark);

/** The ends of the pass's hits of a client's call word (MARK_CALL), in order. */
function callHitEnds(hits: number[]): number[] {
  const ends: number[] = [];
  for (let j = 0; j < hits.length; j += 2) if (MARK_OF[hits[j]] & MARK_CALL) ends.push(hits[j + 1]);
  return ends;
}

/** The MARK_* bits the pass's hits set. */
function marksOf(hits: number[]): number {
  let marks = 0;
  for (let j = 0; j < hits.length; j += 2) marks |= MARK_OF[hits[j]];
  return marks;
}

/** The gates the pass's hits open (`TOKEN` checked in capitals: `token` hits are common; `0000` at a line's start). */
function gatesOf(text: string, hits: number[]): number {
  let gates = 0;
  for (let j = 0; j < hits.length; j += 2) {
    const g = GATE_OF[hits[j]];
    if (g === 0) continue;
    const end = hits[j + 1];
    if (g === GATE_TOKEN_TABLE) {
      if (text.startsWith('TOKEN', end - 5)) gates |= g;
    } else if (g === GATE_HEX_ROW) {
      // Or after a tab and `0x` (tcpdump -X's `\t0x0000:`), or an indent (Java's HexDumpEncoder under javax.net.debug's `(`).
      if ((end === 4 || text.charCodeAt(end - 5) === 0x0a || (text.startsWith('\t0x', end - 7) && (end === 7 || text.charCodeAt(end - 8) === 0x0a)) || indentedLineStart(text, end - 4)) && text.startsWith('0000', end - 4)) gates |= g;
    } else if (g === (GATE_DATA_BLOCK | GATE_STRING_DATA_BLOCK)) {
      if (text.startsWith('data:', end - 5)) gates |= GATE_DATA_BLOCK;
      else if (text.startsWith('stringData:', end - 11)) gates |= GATE_STRING_DATA_BLOCK;
    } else gates |= g;
  }
  return gates;
}

/** Is `at` after a line's indent of blanks (8 at most: a bounded look back)? */
function indentedLineStart(text: string, at: number): boolean {
  let i = at;
  while (i > 0 && at - i < 8 && (text.charCodeAt(i - 1) === 0x20 || text.charCodeAt(i - 1) === 0x09)) i--;
  return i < at && (i === 0 || text.charCodeAt(i - 1) === 0x0a);
}

/** Where the first line with `word` (ending in `ata:`, a gate's word) starts: the data block rules' headers are looked for from there. */
function firstLineWith(text: string, hits: number[], word: string): number {
  for (let j = 0; j < hits.length; j += 2) {
    const start = hits[j + 1] - word.length;
    if (GATE_OF[hits[j]] & GATE_DATA_BLOCK && text.startsWith(word, start)) return text.lastIndexOf('\n', start) + 1;
  }
  return 0;
}

/** What one scan saw besides its findings, for the Redactor's readers that need more than the scanner (transcripts' printers). */
export interface ScanReport {
  /** A shell prompt's mark (`$ `, `% `, `+ `, `❯ `): the text may be a transcript. */
  promptMarks?: boolean;
  /** A URL with its slashes escaped (`:\/\/`). */
  escapedUrls?: boolean;
  /** A public key's marks (an SSH key's blob, a PEM armour line, an RSA SPKI's identifier): the text may print one. */
  publicKeyMarks?: boolean;
}

/** Every secret of `text` (unsorted; may overlap: the masker merges); `report`, when given, what the scan saw besides. */
export function scanSecrets(text: string, report?: ScanReport): SecretFinding[] {
  const outermost = scanDepth === 0;
  scanDepth++;
  try {
    return scanText(text, outermost, report);
  } finally {
    scanDepth--;
  }
}
/** scanSecrets calls under way (a view's or a decoded value's scan runs inside its text's). */
let scanDepth = 0;
/**
 * The outermost scan's bytes, apart from the automaton's buffer that the scans inside it (a view's, a decoded value's) reuse:
 * its byte searches read them to its end. (With one buffer, nine bytes in ten of the bench's replies were read again as
 * text: a scan inside had taken the buffer before the searches ran.)
 */
const OUTER_BYTES = new LowBytes();

/** scanSecrets of `text`; `outermost`: no other scan is under way (its bytes are its own to the end). */
function scanText(text: string, outermost: boolean, report?: ScanReport): SecretFinding[] {
  const out: SecretFinding[] = [];
  if (text.length < 3) return out;
  const { hits, runs, bytes } = AUTOMATON.pass(text, MIN_RUN, outermost ? OUTER_BYTES : undefined);
  // NULs between words (`cat /proc/<pid>/cmdline`, `find -print0`: adv246 F36) are read as blanks, the text's length kept, so
  // its findings' offsets are the text's: `sshpass\0-p\0…` is a command line, and a value ends at its NUL. (A byte search: a
  // character whose low byte is 0, `─` U+2500, sends it to the text's own.)
  // Only an argument list's (a NUL before an option, `\0-p`): `find -print0`'s paths read as words had made `docs/password <path>` a
  // setting and its value (adv253 L3).
  if (bytes.subarray(0, text.length).indexOf(0) >= 0 && text.includes('\0-')) return scanSecrets(text.replaceAll('\0', ' '), report);
  // …and as `cat -v` shows them (`^@`) or Python's bytes (`\x00` between words): read again with blanks of the same length, beside
  // the text as it is (a password may hold `^@`: blanks alone would cut it in two; adv253 F14, F15).
  const marks = marksOf(hits);
  const nulView = inNulView || !(marks & MARK_SHOWN_NUL) ? undefined : shownNulsAsBlanks(text, bytes.subarray(0, text.length));
  const gates = gatesOf(text, hits);
  // The pass's bytes for byte searches below, while no other pass (a decoded value's scan) has reused them.
  const pass = AUTOMATON.passes;
  const textBytes = bytes.subarray(0, text.length);
  const ownBytes = (): Buffer | undefined => (outermost || AUTOMATON.passes === pass ? textBytes : undefined);
  // Metasploit's `creds` table (msf-creds.ts): its title searched in the bytes while they are the text's (no keyword reads it).
  const msfTable = (marks & MARK_MSF_TABLE) !== 0;
  vendorFindings(text, hits, runs, bytes, out, outermost);
  wrappedBase64(text, runs, out);
  hexEncodedText(text, runs, out);
  crackedHashRows(text, runs, out);
  contextFindings(text, hits, out);
  // Lines behind a log tool's prefix, grep's or `cat -n`'s, scanned again without it (a rule anchored at a line's start, a list
  // of bytes under its name's line); three prefixes deep at most (grep's of compose's of journald's: adv245 F9; `1:1:1:…` would
  // strip one a level).
  if (prefixDepth < MAX_PREFIX_DEPTH) {
    prefixDepth++;
    try {
      prefixedLineFindings(text, out, scanSecrets, ownBytes());
    } finally {
      prefixDepth--;
    }
  }
  // A client's call laid over lines by a formatter (`GIS(\n    url,\n    user,\n    password,\n)`), read as one line by the
  // rules that read arguments by position; not inside a view of them.
  if (!inCallView && marks & MARK_CALL) {
    inCallView = true;
    try {
      multiLineCallFindings(text, callHitEnds(hits), out, scanSecrets);
    } finally {
      inCallView = false;
    }
  }
  // git's `--word-diff` lines, read as the old and the new file had them (a diff's, or its marked lines without headers: grep's
  // of them, `--no-prefix`: adv253 F2, F3); not the views again.
  if (!inWordDiff && (gates & GATE_DIFF_FILE || marks & MARK_WORD_DIFF)) {
    inWordDiff = true;
    try {
      wordDiffFindings(text, out, scanSecrets);
    } finally {
      inWordDiff = false;
    }
  }
  if (gates & GATE_KEY_BLOCK) out.push(...privateKeyBlocks(text));
  if (gates & GATE_KEY_BODY) out.push(...bareKeyBodies(text));
  // A diff of a private key's file: two searches (a rare form's keywords would be hits to turn away in every diff's one pass).
  else if (gates & GATE_DIFF_FILE) keyFileHunks(text, out);
  if (gates & GATE_DATA_BLOCK) secretDataBlocks(text, out, firstLineWith(text, hits, 'data:'));
  if (gates & GATE_STRING_DATA_BLOCK) stringDataBlocks(text, out, firstLineWith(text, hits, 'stringData:'));
  if (gates & GATE_TOKEN_TABLE) tokenTableRows(text, out);
  toolBlocks(text, hits, out);
  percentEncoded(text, out, scanSecrets);
  if (gates & GATE_ESCAPED_QUOTE) escapedQuoteFindings(text, out, scanSecrets);
  if (gates & GATE_MSGPACK) msgpackPairFindings(text, columnKind, out);
  if (gates & GATE_PYDANTIC) pydanticInputValues(text, columnKind, out);
  // Decoded once, not again (`=3D3D3D…` decodes to one `=` less each time: a megabyte of it would be read half a million times).
  if (!inQuotedPrintable && gates & GATE_QUOTED_PRINTABLE && text.includes('=3D')) {
    inQuotedPrintable = true;
    try {
      quotedPrintable(text, out, scanSecrets);
    } finally {
      inQuotedPrintable = false;
    }
  }
  if (gates & GATE_OVERSTRUCK) overstruck(text, out, scanSecrets);
  byteArrayFindings(text, out, scanSecrets, columnKind, (gates & GATE_HEX_LIST) !== 0);
  if (gates & GATE_SPACED) spacedLineFindings(text, out, scanSecrets);
  if (gates & GATE_ASCII85) ascii85Secrets(text, out);
  if (gates & GATE_GZIP_BASE64) gzipBase64Findings(text, out, scanSecrets);
  if (gates & GATE_AUDIT) auditRecordFindings(text, out, scanSecrets);
  // PsySH's and node's `> ` prompt counts beside a `= ` or a `'…'` result line only (no keyword holds a line break: a search).
  if (gates & GATE_REPL || indexOfAscii(text, ownBytes(), '\n= ') >= 0 || quotedResultUnderPrompt(text, ownBytes())) replResults(text, isSecretName, out);
  if (gates & GATE_NOTEBOOK) notebookResults(text, isSecretName, out);
  if (gates & GATE_HEX_ROW || mayHoldOdDump(text) || mayHoldBareOdRows(text, ownBytes())) hexDumpFindings(text, out, scanSecrets, columnKind);
  if (gates & GATE_UUENCODED && mayHoldUuencoded(text)) uuencodedFindings(text, out, scanSecrets);
  if (gates & GATE_RECORDING) recordingFindings(text, out, scanSecrets);
  if (gates & GATE_ASSERTION) assertionOperands(text, out);
  // loguru's and better_exceptions' values under the code (no keyword: `└` is past ASCII, which the pass does not read).
  if (text.includes('└ ')) diagnosedLocals(text, (name) => (isSecretName(name) ? kindOfName(name) : undefined), (v) => isLookAlike(v, true), out);
  // Prompts in scripts with no ASCII keyword (`пароль:`, `密码：`): the one pass reads ASCII keywords only.
  nonAsciiPrompts(text, out);
  // A word a fold cut over lines (`fold -w 76`, a terminal's wrap), joined back; on the same walk of the lines, a wallet's
  // recovery words with no line saying so (no keyword holds them).
  const phrases = new BarePhrases(text, out);
  foldedLineFindings(text, out, scanSecrets, phrases);
  phrases.finish();
  quotedPhrases(text, out, ownBytes());
  if (gates & GATE_SECRETS_CONTEXT) secretsContextDump(text, out);
  if (gates & GATE_TF_SENSITIVE) terraformSensitiveFields(text, out);
  if (gates & GATE_AWS_KEY_ID) awsSecretBesideId(text, out);
  twilioTokenBesideSid(text, out);
  if (gates & GATE_SEED_PHRASE) seedPhraseLines(text, out);
  if (out.length > 0 && gates & GATE_QUOTED_PRINTABLE) softBreakTails(text, out);
  if (out.length > 0) valueContinuations(text, out);
  // A private key's body lines scattered among other lines (`env | sort`): only where a private key was found.
  if (out.some((f) => f.kind === 'private key')) loneKeyLines(text, out);
  if (gates & GATE_REVERSED) reversedLiterals(text, out);
  if (text.includes('?')) answersToPasswordQuestions(text, out);
  if (gates & GATE_BASE64_DECODE) decodedLiterals(text, out);
  // A transcript's prompt lines (transcript-commands.ts, read by the Redactor: its printers' module reads this one).
  if (report) {
    report.promptMarks = (gates & GATE_PROMPT_MARK) !== 0 || text.includes(NON_ASCII_PROMPT_MARK);
    report.escapedUrls = (gates & GATE_ESCAPED_URL) !== 0;
    report.publicKeyMarks = (gates & (GATE_PUBLIC_KEY | GATE_KEY_BLOCK)) !== 0;
  }
  if (gates & GATE_FILE_HEADER) secretFilesUnderHeaders(text, out);
  if (msfTable) msfCredsRows(text, out);
  if (marks & MARK_KEYCHAIN) keychainDumpItems(text, out);
  if (nulView !== undefined) {
    inNulView = true;
    try {
      // (A loop, not a spread: a text of 250,000 findings overflowed the call stack with `push(...)`.)
      for (const f of scanSecrets(nulView)) out.push(f);
    } finally {
      inNulView = false;
    }
  }
  narrowUrlDsns(text, out);
  if (out.length > 0) dropDigestCells(text, out);
  return out;
}

/**
 * A value named `dsn` that is a URL with a user part (Sentry's `https://<public key>@o1.ingest.sentry.io/42`, a database's
 * `postgres://app:<pw>@db/app`): its user part is the credential; the host and the project or database stay (pass 176 L14: the
 * whole DSN masked hid what an agent checks a config by). The key itself stays masked: a legacy Sentry DSN's `key:secret@` and a
 * database's `user:password@` have the same place.
 */
function narrowUrlDsns(text: string, out: SecretFinding[]): void {
  for (const f of out) {
    if (f.kind !== 'dsn') continue;
    DSN_URL_USER.lastIndex = f.start;
    const m = DSN_URL_USER.exec(text);
    if (m && DSN_URL_USER.lastIndex <= f.end) {
      const [start, end] = m.indices!.groups!.user!;
      f.start = start;
      f.end = end;
    }
  }
}
/** At a DSN's start: a URL's scheme, then its user part up to the `@` before the host (sticky; no blank, `/` or `@` in it). */
const DSN_URL_USER = /[a-z][a-z0-9+.-]{1,20}:\/\/(?<user>[^\s/@'"]{1,512})@[A-Za-z0-9.-]{1,253}(?=[:/'"\s]|$)/dy;

/**
 * A base64 literal echoed into `base64 -d` on a command line (a shell history's `echo 'MlZ1d0BA…' | base64 -d`: adv84 F12): the
 * literal is masked when its text is a secret a rule reads, or a made word (a password: three kinds of characters, 10 and up).
 */
function decodedLiterals(text: string, out: SecretFinding[]): void {
  ECHOED_INTO_DECODE.lastIndex = 0;
  for (let m = ECHOED_INTO_DECODE.exec(text); m; m = ECHOED_INTO_DECODE.exec(text)) {
    const b = m.groups!.b;
    const decoded = Buffer.from(b, 'base64').toString('latin1').replace(/\r?\n$/, '');
    if (!/^[\x20-\x7e\t\n]+$/.test(decoded)) continue;
    if (!madeWord(decoded) && scanSecrets(decoded).length === 0) continue;
    const [start, end] = m.indices!.groups!.b!;
    out.push({ start, end, kind: 'base64 secret', byContext: true });
  }
}
/** `echo` / `printf` of a base64 literal, quoted or not, piped into base64's decode. */
const ECHOED_INTO_DECODE = /\b(?:echo|printf)[ \t]+(?:-[neE]+[ \t]+|'%s'[ \t]+|"%s"[ \t]+)?(?<q>['"]?)(?<b>[A-Za-z0-9+/]{8,4096}={0,2})\k<q>[ \t]*\|[ \t]*base64[ \t]+(?:-d|--decode|-D)\b/dg;

/** `head` / `tail` of several files: a file's header line (`==> /run/secrets/db_password <==`), sticky at a line's start. */
const FILE_HEADER = /==> (?<path>[^\n]{1,1024}?) <==\r?$/my;
/** The line start of the next `==> ` header after the one at `h`, or -1. */
function nextHeader(text: string, h: number): number {
  const n = text.indexOf('\n==> ', h);
  return n < 0 ? -1 : n + 1;
}
/** A file's lines read under its header at most (a secret file holds a value, a key, a few lines). */
const MAX_SECRET_FILE_LINES = 64;

/**
 * The lines of a secret's file under its header in `head` / `tail` output of several files (`head /run/secrets/*`: Docker's
 * and Kubernetes' mounted secrets, no name on the value's line: adv74 F39): a file under a `secrets` directory, or named like
 * a secret (`db_password`, `api_key.txt`), to the next header or a blank line.
 */
function secretFilesUnderHeaders(text: string, out: SecretFinding[]): void {
  // Each header's line start: the text's, then each line break's before `==> ` (a plain search, not a regex over the text).
  for (let h = text.startsWith('==> ') ? 0 : text.indexOf('\n==> ') + 1; h >= 0; h = nextHeader(text, h)) {
    if (h === 0 && !text.startsWith('==> ')) break;
    FILE_HEADER.lastIndex = h;
    const m = FILE_HEADER.exec(text);
    if (!m) continue;
    const path = m.groups!.path;
    const base = path.slice(path.lastIndexOf('/') + 1).replace(/\.(?:txt|key|pem|secret)$/, '');
    // Or a key file by its extension (MongoDB's replica set `rs0.key`, base64 lines: 131 F16; a TLS key's PEM body).
    const underSecrets = /(?:^|\/)(?:run\/)?secrets\/[^/]+$|\.key$|(?:^|[/_.-])keyfile$/i.test(path);
    // A users file of `user:password` lines (`/etc/nginx/users.plain` with its format comment dropped: adv108 F36): each line's
    // password, when it is made (BASIC_PAIR) and no hash (`$apr1$…`, `{SHA}…`).
    if (!underSecrets && !isSecretName(base) && USERS_FILE.test(base)) {
      userPasswordLines(text, m.index + m[0].length + 1, out);
      continue;
    }
    if (!underSecrets && !isSecretName(base)) continue;
    const kind = isSecretName(base) ? kindOfName(base) : 'secret';
    eachLineUnderHeader(text, m.index + m[0].length + 1, (line, at) => {
      // A PEM block's frame is found by its own rule; the body lines and a one-line value are the file's. Not an account's line
      // of `/etc/passwd` or `/etc/group` (`root:x:0:0:…`: the name says `passwd`, the file holds none), nor a password's hash
      // (`admin:$apr1$…` of an htpasswd file: hashes stay visible, as in /etc/shadow).
      // Nor an INI file's comment, section or setting whose name is no secret's (`~/.aws/credentials`: `[default]`, `region =
      // eu-west-1`, a comment quoting the docs' example key: closing measure 128 F35); its secrets' settings are the name rule's.
      if (line.startsWith('-----') || ACCOUNT_OR_HASH_LINE.test(line) || INI_COMMENT_OR_SECTION.test(line)) return;
      // A secret's setting: its value (sbt's `~/.sbt/sonatype_credentials`' `password=…` lost its name with the line: 134 F44).
      const setting = INI_SETTING.exec(line);
      if (setting && !isSecretName(setting[1])) return;
      const value = setting ? setting[0].length - 1 : 0;
      out.push({ start: at + value, end: at + line.length, kind, byContext: true });
    });
  }
}

/** Each line of a file printed under head's `==> path <==` from `at` (its line and offset), to a blank line or the next header. */
function eachLineUnderHeader(text: string, at: number, each: (line: string, at: number) => void): void {
  for (let n = 0; n < MAX_SECRET_FILE_LINES && at < text.length; n++) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 ? text.length : nl;
    const line = text.slice(at, end).replace(/\r$/, '');
    // A NUL line is the break between two fields of a reply scanned together (redactor.ts FIELD_BREAK): the fields after the
    // output (`exited`, the session's directory) are no lines of the file (139 F18: a header alone ended the output, and the
    // reply's status was masked into one no client accepts).
    // Nor is mish's own line after the output (`[exit 0]`, `[procs] 1 ended: …`, a cut's note): the reply's text, not the file's.
    if (line.trim() === '' || line.startsWith('==> ') || line.includes('\u0000') || MISH_NOTE_LINE.test(line)) break;
    each(line, at);
    at = end + 1;
  }
}

/** A line mish adds to a reply after a command's output: the status line, the background processes' line, a note. */
export const MISH_NOTE_LINE = /^\[(?:exit\b|procs\] |mish: |\.\.\. [\d,]+ lines? omitted|killed\b|timed out\b|signal\b)/;
/** An INI file's comment or section header; a YAML document's start (`---` of `~/.gem/credentials`: 137 F35). */
const INI_COMMENT_OR_SECTION = /^[ \t]*(?:[#;]|\[[^\]\n]{1,128}\][ \t]*$|---[ \t]*$)/;
/** An INI file's setting (`region = eu-west-1`), or YAML's (`:rubygems_api_key: …`, a Ruby symbol as the key): its name. */
const INI_SETTING = /^[ \t]*:?([A-Za-z][\w.-]{0,127})[ \t]*(?:=|:(?=[ \t]))[ \t]*\S/;
/** An account's line (`name:x:0:0:…`, `name:x:0:`) or a user's password hash (`name:$apr1$…`, `name:{SHA}…`, `name:$2y$…`). */
const ACCOUNT_OR_HASH_LINE = /^[\w.-]{1,64}:(?:[x*!]?:\d|\$[0-9a-z]{1,6}\$|\{S?SHA\})/;
/** A file of users and their passwords by its name (`users`, `users.plain`, `accounts.list`): not `/etc/passwd`, whose `x` is none. */
const USERS_FILE = /^(?:users?|accounts?|logins?)(?:\.(?:plain|list|conf|db|csv))?$/i;

/** The `user:password` lines from `at` to a blank line or the next header: each made password (BASIC_PAIR), hashes left. */
function userPasswordLines(text: string, from: number, out: SecretFinding[]): void {
  eachLineUnderHeader(text, from, (line, at) => {
    const colon = line.indexOf(':');
    if (BASIC_PAIR.test(line) && !/^[$*!{]/.test(line.slice(colon + 1))) out.push({ start: at + colon + 1, end: at + line.length, kind: 'password', byContext: true });
  });
}

/** A message that asks for a password, at its line's end (`what's the password?`, `какой пароль?`, `Passwort?`). */
const PASSWORD_QUESTION = /(?:pass(?:word|wd)?|\bpw|пароль|passwort|kennwort|contraseña|senha|mot de passe|wachtwoord|密码|パスワード|비밀번호)[ \t]*\?[ \t]*[)"'\]]?[ \t]*\r?$/i;
/** A chat line's message that is one made word (a digit and a letter, 8 to 64 characters), after a speaker's `: ` or `> `. */
const ONE_WORD_ANSWER = /^[^\n]{0,96}?(?::|>)[ \t]+(?<v>(?=[^\s]*\d)(?=[^\s]*\p{L})[^\s"'<>]{8,64})[ \t]*\r?$/u;
/** A chat line's speaker before its message: a name and `: `, or `<name> `. */
const SPEAKER = /^[^\n]{0,96}?(?:\p{L}[^\s:]{0,48}:[ \t]|<[^\s>]{1,48}>[ \t])/u;
/** Lines after the question an answer is looked for on. */
const ANSWER_LINES = 2;

/**
 * A password asked for in a chat and answered alone on a following line (`[10:15] Ольга: нет, какой пароль?` then `[10:15]
 * Дмитрий: Gh3S$VnAT`: adv71 F36; Slack's and Teams' exports, a ticket's comments): the answer, when it is one made word.
 */
function answersToPasswordQuestions(text: string, out: SecretFinding[]): void {
  let lineDone = -1;
  for (let q = text.indexOf('?'); q >= 0; q = text.indexOf('?', q + 1)) {
    if (q < lineDone) continue;
    const nl = text.indexOf('\n', q);
    lineDone = nl < 0 ? text.length : nl;
    if (nl < 0) return;
    const lineStart = text.lastIndexOf('\n', q) + 1;
    const head = text.slice(Math.max(lineStart, q - 32), lineDone);
    // A chat's line: a speaker before the message (`Ольга: `, `<bob> `), not a page's `Forgot password?`.
    if (!PASSWORD_QUESTION.test(head) || !SPEAKER.test(text.slice(lineStart, Math.min(q, lineStart + 128)))) continue;
    for (let at = nl + 1, n = 0; n < ANSWER_LINES && at < text.length; n++) {
      const e = text.indexOf('\n', at);
      const end = e < 0 ? text.length : e;
      const m = ONE_WORD_ANSWER.exec(text.slice(at, end));
      if (m && !isLookAlike(m.groups!.v, true)) {
        const start = at + m[0].lastIndexOf(m.groups!.v);
        out.push({ start, end: start + m.groups!.v.length, kind: 'password', byContext: true });
        break;
      }
      if (e < 0) break;
      at = e + 1;
    }
  }
}

/** A string literal reversed back by the code that prints it: JavaScript's `.split("").reverse().join("")`, Python's `[::-1]`. */
const REVERSED_LITERAL = /(["'])(?<v>[^"'\\\n]{8,512})\1(?:\.split\([ \t]*(["'])\3[ \t]*\)\.reverse\(\)\.join\(|\[::-1\])/g;

/** A secret written backwards (`const t = "OvQl…_phg".split("").reverse().join("")`, a scanner's dodge: adv71 F21): read forwards. */
function reversedLiterals(text: string, out: SecretFinding[]): void {
  REVERSED_LITERAL.lastIndex = 0;
  for (let m = REVERSED_LITERAL.exec(text); m; m = REVERSED_LITERAL.exec(text)) {
    const v = m.groups!.v;
    const inner = scanSecrets([...v].reverse().join(''))[0];
    if (inner) out.push({ start: m.index + 1, end: m.index + 1 + v.length, kind: `reversed ${inner.kind}` });
  }
}

/** A quoted value's next piece joined by `+` (`"sk_live_CMaKZATV" + "4pXVWELPKC91ZTzd"`), sticky after the closing quote. */
const PLUS_PIECE = /[ \t]*\+[ \t]*(?<q>["'])(?<v>[^"'\\\n]{1,4096})\k<q>/y;
/** A single quote written inside a single-quoted word and the word's rest (`'\\''…'`, `'"'"'…'`), sticky at the closing quote. */
const QUOTE_JOIN = /'(?:\\''|"'"')(?<v>[^'\n]{0,4096})'/y;
/** The rest of a quoted value a wrap carried to the next line (`Bearer npm_nqdv…` then `dJd5…" retries=3`), sticky after the break. */
const WRAPPED_QUOTED_TAIL = /[ \t]*(?<v>[A-Za-z0-9+/=._~-]{2,512})"/y;
/** A piece of a value `sed -n l` wrapped: the next line's token characters to its wrap (`\` and the line's end) or its end mark `$`. */
const SED_L_PIECE = /(?<v>[A-Za-z0-9+/=._~-]{1,512})(?<mark>\\\n|\$(?=\r?\n|$))/y;
/** Pieces of a concatenation followed, and characters of a line read back for its open quote. */
const MAX_CONCATENATED_PIECES = 8;
const MAX_OPEN_QUOTE_LOOKBACK = 4096;

/**
 * The rest of a value found whole up to where its text goes on elsewhere: a string literal continued by `+ "…"` (code that
 * splits a key in two: adv71 F22), and a quoted value a terminal or a log's wrap cut at the line's end, its tail up to the
 * closing quote on the next line (adv71 F50). Each piece takes the value's kind.
 */
function valueContinuations(text: string, out: SecretFinding[]): void {
  for (let n = out.length, k = 0; k < n; k++) {
    const f = out[k];
    const q = text.charCodeAt(f.end);
    if (f.end - f.start >= MIN_SPACED_HEX_ROW && SPACED_HEX_ROW.test(text.slice(f.start, f.end))) spacedHexRows(text, f, out);
    else if (q === 0x27 && text.charCodeAt(f.start - 1) === q && text.startsWith("\\''", f.end + 1)) {
      // bash's quoting of a single quote inside a single-quoted word (`set -x`: `PGPASSWORD='u%36r'\''+ebL-=8b1uN_'`: adv74 F03,
      // and Ansible's `'"'"'`): the value goes on after the join, to the next quote.
      for (let at = f.end, p = 0; p < MAX_CONCATENATED_PIECES; p++) {
        QUOTE_JOIN.lastIndex = at;
        const m = QUOTE_JOIN.exec(text);
        if (!m) break;
        const start = at + m[0].length - 1 - m.groups!.v.length;
        if (m.groups!.v.length > 0) out.push({ start, end: start + m.groups!.v.length, kind: f.kind, byContext: f.byContext });
        at += m[0].length - 1;
      }
    } else if ((q === 0x22 || q === 0x27) && text.charCodeAt(f.start - 1) === q) {
      let at = f.end + 1;
      for (let p = 0; p < MAX_CONCATENATED_PIECES; p++) {
        PLUS_PIECE.lastIndex = at;
        const m = PLUS_PIECE.exec(text);
        if (!m) break;
        const start = at + m[0].length - 1 - m.groups!.v.length;
        out.push({ start, end: start + m.groups!.v.length, kind: f.kind, byContext: f.byContext });
        at += m[0].length;
      }
    } else if (q === 0x5c && text.charCodeAt(f.end + 1) === 0x0a) {
      // `sed -n l`'s wrap (a line cut at 69 characters ends in `\`, the line's end is marked `$`: adv236 F2's FortiGate `ENC …`):
      // the value goes on at the next line's start, to its own wrap or end mark.
      for (let at = f.end + 2, p = 0; p < MAX_CONCATENATED_PIECES; p++) {
        SED_L_PIECE.lastIndex = at;
        const m = SED_L_PIECE.exec(text);
        if (!m) break;
        out.push({ start: at, end: at + m.groups!.v.length, kind: f.kind, byContext: true });
        if (m.groups!.mark === '$') break;
        at += m[0].length;
      }
    } else if (q === 0x24 && text.charCodeAt(f.end + 1) === 0x0a) {
      // `cat -A`'s end mark after the value (`key = hqlh…$`): its continuation lines after it.
      indentedBase64Lines(text, f, out, f.end + 1);
    } else if (q === 0x0a || (q === 0x0d && text.charCodeAt(f.end + 1) === 0x0a)) {
      // An open double quote on the value's line before it (an odd count of quotes).
      const from = Math.max(text.lastIndexOf('\n', f.start - 1) + 1, f.start - MAX_OPEN_QUOTE_LOOKBACK);
      let quotes = 0;
      for (let i = from; i < f.start; i++) if (text.charCodeAt(i) === 0x22) quotes++;
      if (quotes % 2 === 0) {
        indentedBase64Lines(text, f, out);
        continue;
      }
      WRAPPED_QUOTED_TAIL.lastIndex = f.end + (q === 0x0d ? 2 : 1);
      const m = WRAPPED_QUOTED_TAIL.exec(text);
      if (m) out.push({ start: m.index + m[0].length - 1 - m.groups!.v.length, end: m.index + m[0].length - 1, kind: f.kind, byContext: f.byContext });
    }
  }
}

/** A row of spaced hex bytes (aircrack-ng's keys, mimikatz' password bytes): 8 bytes and more. */
const SPACED_HEX_ROW = /^(?:[0-9A-Fa-f]{2} ){7,}[0-9A-Fa-f]{2}$/;
const MIN_SPACED_HEX_ROW = 23;
/** Rows of a value's spaced hex bytes below its first, read at most (aircrack's Transient Key has four). */
const MAX_SPACED_HEX_ROWS = 8;

/**
 * The rows below a value of spaced hex bytes that go on at its column, blanks before them (aircrack-ng's `Master Key : 8C 41 …`
 * then `                  C5 F6 …`: adv247 F35): each row a piece of the value, learned.
 */
function spacedHexRows(text: string, f: SecretFinding, out: SecretFinding[]): void {
  const column = f.start - (text.lastIndexOf('\n', f.start - 1) + 1);
  let nl = text.indexOf('\n', f.end);
  for (let n = 0; n < MAX_SPACED_HEX_ROWS && nl >= 0; n++) {
    const start = nl + 1 + column;
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const head = text.slice(nl + 1, start);
    if (head.length !== column || head.trim() !== '') return;
    let valueEnd = end;
    while (valueEnd > start && (text.charCodeAt(valueEnd - 1) === 0x20 || text.charCodeAt(valueEnd - 1) === 0x0d)) valueEnd--;
    if (valueEnd - start < MIN_SPACED_HEX_ROW || valueEnd - start > 3 * 64 || !SPACED_HEX_ROW.test(text.slice(start, valueEnd))) return;
    out.push({ start, end: valueEnd, kind: f.kind, byContext: true });
    nl = end < text.length ? end : -1;
  }
}

/** A line of an INI value's continuation: indented, base64 alone (borg's repokey `key = …` then its lines, a tab each). */
// `cat -A` writes the tab as `^I` and marks the line's end with `$` (adv245 F10).
const INDENTED_BASE64_LINE = /\r?\n(?:[ \t]+|(?:\^I)+)(?<v>[A-Za-z0-9+/]{4,4096}={0,2})\$?[ \t]*\r?(?=\n|$)/dy;
/** A configparser setting's head before its value (`key = `), at most MAX_SETTING_HEAD characters. */
const SETTING_HEAD = /^[ \t]*[\w.-]{1,64}[ \t]*[=:][ \t]*$/;
const MAX_SETTING_HEAD = 96;
/** A line of base64 alone this long or longer is a wrapped value's first line, its continuation lines indented as it (Rubeus' 100). */
const MIN_WRAPPED_VALUE_LINE = 64;
/** A base64 value's continuation lines read at most (a 2 KB key in 80-character lines). */
const MAX_BASE64_CONTINUATION_LINES = 64;
/** The value's own base64 (its first line), which continuation lines extend. */
const BASE64_VALUE = /^[A-Za-z0-9+/]{16,4096}={0,2}$/;

/**
 * A base64 value continued on indented lines below its line (Python configparser's multi-line values: borg's repository
 * `config`, `key = hqlhbGdv…` then `\t<80 characters>` lines: pass 241 F6): each line is the value's.
 */
function indentedBase64Lines(text: string, f: SecretFinding, out: SecretFinding[], from = f.end): void {
  if (!BASE64_VALUE.test(text.slice(f.start, f.end))) return;
  // The value's line is its setting's (`key = …`); a heredoc's or a list's lines are found by their own rules.
  const lineStart = text.lastIndexOf('\n', f.start - 1) + 1;
  // Or the value alone on its line, indented, as long as a wrapped line is (Rubeus' `base64(ticket.kirbi):` then the ticket in
  // lines of 100, six blanks before each: adv247 F34).
  const head = text.slice(lineStart, f.start);
  const wrappedAlone = f.end - f.start >= MIN_WRAPPED_VALUE_LINE && head.length > 0 && head.trim() === '';
  if (f.start - lineStart > MAX_SETTING_HEAD || (!wrappedAlone && !SETTING_HEAD.test(head))) return;
  let at = from;
  for (let n = 0; n < MAX_BASE64_CONTINUATION_LINES; n++) {
    INDENTED_BASE64_LINE.lastIndex = at;
    const m = INDENTED_BASE64_LINE.exec(text);
    if (!m) return;
    const [start, end] = m.indices!.groups!.v!;
    // Learned (byContext): a read that starts inside the value (a window of its lines alone) has no name or shape to go by.
    out.push({ start, end, kind: f.kind, byContext: true });
    at = INDENTED_BASE64_LINE.lastIndex;
  }
}

/**
 * GitHub Actions' secrets context printed whole (`echo '${{ toJSON(secrets) }}'` in a step: a self-hosted runner's log, `gh run
 * view --log`: adv61 F44): an object whose `"github_token"` field marks it, each field a secret whatever its name (`"SLACK_BOT"`).
 * Its fields' lines are read up and down from that one, each line a field, to the object's braces.
 */
function secretsContextDump(text: string, out: SecretFinding[]): void {
  // Lines read already (a hostile text of many `github_token` lines is read once, not once a mention).
  let readTo = 0;
  let upTo = 0;
  for (let at = text.indexOf('"github_token": '); at >= 0; at = text.indexOf('"github_token": ', at + 1)) {
    if (at < readTo) continue;
    const lineStart = text.lastIndexOf('\n', at) + 1;
    readTo = text.indexOf('\n', at) + 1 || text.length;
    const read = (from: number) => {
      CONTEXT_FIELD.lastIndex = from;
      return CONTEXT_FIELD.exec(text);
    };
    if (!read(lineStart)) continue;
    const lines: number[] = [lineStart];
    // Up: lines before, each a field, to the object's opening line.
    for (let s = lineStart, n = 0; s > 0 && n < MAX_CONTEXT_FIELDS; n++) {
      s = text.lastIndexOf('\n', s - 2) + 1;
      if (s < upTo) break;
      if (!read(s)) break;
      lines.push(s);
    }
    // Down: lines after, to the object's closing line.
    for (let s = text.indexOf('\n', lineStart) + 1, n = 0; s > 0 && n < MAX_CONTEXT_FIELDS; n++, s = text.indexOf('\n', s) + 1) {
      if (!read(s)) break;
      lines.push(s);
      readTo = text.indexOf('\n', s) + 1 || text.length;
    }
    upTo = readTo;
    for (const s of lines) {
      const m = read(s)!;
      const v = m.groups!.v;
      if (v.length < MIN_CONTEXT_VALUE || /^\*+$/.test(v) || isReference(v)) continue;
      const [start, end] = m.indices!.groups!.v!;
      out.push({ start, end, kind: 'secret (github actions secrets context)', byContext: true });
    }
  }
}
/** The three groups of four letters after a Google app password's first, to the line's end. */
const APP_PASSWORD_GROUPS = /(?: [a-z]{4}){3}(?=[ \t]*(?:\r?\n|$))/y;
/** A field's line of the secrets context: any log prefix, then `"NAME": "value"`, maybe a comma. */
const CONTEXT_FIELD = /[^\n]{0,256}?"[A-Za-z_][A-Za-z0-9_]{0,255}": "(?<v>(?:[^"\\\n]|\\.){1,8192})",?[ \t]*\r?(?=\n|$)/dy;
/** Fields read each way from `github_token` (a repository has at most 100 secrets, an organisation's add some hundreds). */
const MAX_CONTEXT_FIELDS = 1000;
/** A value this short is no secret's (`true`, a region). */
const MIN_CONTEXT_VALUE = 4;

/**
 * Values on the lines below a name whose line ends at its `=` (`at`: after the separator): INI continuation lines (indented, one
 * value a line, to the first line that is not) or a heredoc's lines (`<<-EOT`, maybe inside a call: `trimspace(<<-EOT`) to its
 * end marker. Each line's value is masked unless it is a look-alike or a reference. Did it read any?
 */
function valuesBelow(text: string, at: number, name: string, out: SecretFinding[]): boolean {
  const nl = text.indexOf('\n', at);
  if (nl < 0 || nl - at > MAX_HEREDOC_OPENING) return false;
  const rest = text.slice(at, nl);
  const heredoc = HEREDOC_OPENING.exec(rest);
  if (!heredoc && !/^[ \t]*\r?$/.test(rest)) return false;
  let found = false;
  let s = nl + 1;
  for (let n = 0; n < MAX_VALUE_LINES_BELOW && s < text.length; n++) {
    const end = text.indexOf('\n', s) < 0 ? text.length : text.indexOf('\n', s);
    const line = text.slice(s, end).replace(/\r$/, '');
    const value = line.trim();
    if (heredoc ? value === heredoc[1] : !/^[ \t]/.test(line) || value === '') break;
    if (value.length >= MIN_CONTEXT_VALUE && !/\s/.test(value) && !isLookAlike(value, PASSWORD_NAME.test(name)) && !isReference(value)) {
      const start = s + line.indexOf(value);
      out.push({ start, end: start + value.length, kind: kindOfName(name), byContext: true });
      found = true;
    }
    s = end + 1;
  }
  return found || heredoc !== null;
}
/** A plain `=` separator (INI, HCL, shell): not PHP's `=>` (var_dump's `["DB_HOST"]=>` then its value below: adv57 F26), not `:=`. */
const INI_EQUALS = /^["']?[ \t]*=[ \t]*$/;
/** A heredoc opened at a line's end: `<<EOT`, `<<-EOT`, `<<~EOT`, quoted or inside a call (`trimspace(<<-EOT`); its marker. */
const HEREDOC_OPENING = /^[ \t]*(?:[\w.]+\()?<<[-~]?["']?([A-Za-z_]\w{0,31})["']?[ \t]*\r?$/;
/** The rest of a name's line read for a heredoc's opening, at most. */
const MAX_HEREDOC_OPENING = 64;
/** Lines read below a name for its value (a heredoc of a key is ~30 lines; continuation lines a handful). */
const MAX_VALUE_LINES_BELOW = 64;

/**
 * An AWS secret access key beside its key id under names that say nothing (Rust's `{:#?}` of a struct, `id: "AKIA…"` then
 * `key: "…"`: adv65 F21): a 40-character value in the AWS secret's alphabet, both cases and a digit, on the id's line or the
 * few after it.
 */
function awsSecretBesideId(text: string, out: SecretFinding[]): void {
  AWS_KEY_ID.lastIndex = 0;
  for (let m = AWS_KEY_ID.exec(text); m; m = AWS_KEY_ID.exec(text)) {
    if (m[0].endsWith('EXAMPLE')) continue;
    AWS_SECRET_AFTER_ID.lastIndex = m.index + m[0].length;
    const v = AWS_SECRET_AFTER_ID.exec(text);
    if (!v || !/[a-z]/.test(v.groups!.v) || !/[A-Z]/.test(v.groups!.v) || !/\d/.test(v.groups!.v)) continue;
    const [start, end] = v.indices!.groups!.v!;
    out.push({ start, end, kind: 'aws secret access key', byContext: true });
  }
}
const AWS_KEY_ID = /\b(?:AKIA|ASIA)[A-Z2-7]{16}\b/g;

/**
 * A Twilio auth token (32 lowercase hex) beside its account SID (`AC` + 32 hex) as a separate argument or field (Celery's
 * `args=('AC…', '<token>', '+1555…')`, a client's `Client("AC…", "…")`: adv78 F21): the argument right after the SID. The pair
 * joined by `:` is a vendor rule (vendor-rules.ts).
 */
function twilioTokenBesideSid(text: string, out: SecretFinding[]): void {
  for (let i = text.indexOf('AC'); i >= 0; i = text.indexOf('AC', i + 2)) {
    // Most `AC`s start a word in capitals (`ACCESS`, `ACTION`): a SID's third character is a lower-case hex digit or a digit.
    const c = text.charCodeAt(i + 2);
    if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66))) continue;
    TWILIO_ACCOUNT_SID.lastIndex = i;
    if (!TWILIO_ACCOUNT_SID.test(text)) continue;
    TWILIO_TOKEN_AFTER_SID.lastIndex = i + 34;
    const v = TWILIO_TOKEN_AFTER_SID.exec(text) ?? twilioTokenBelow(text, i);
    if (!v) continue;
    const [start, end] = v.indices!.groups!.v!;
    out.push({ start, end, kind: 'twilio auth token', byContext: true });
  }
  // An API key's SID (`SK…`, its vendor rule's finding) alone on its line, a token alone on the next (`strings` of a binary built
  // with both: adv157 F29).
  for (let k = 0, n = out.length; k < n; k++) {
    const f = out[k];
    if (f.kind !== TWILIO_KEY_SID_KIND || f.end - f.start !== 34) continue;
    const v = twilioTokenBelow(text, f.start);
    if (v) out.push({ start: v.indices!.groups!.v![0], end: v.indices!.groups!.v![1], kind: 'twilio auth token', byContext: true });
  }
}

/** The token alone on the line below a SID at `i` that starts its line. */
function twilioTokenBelow(text: string, i: number): RegExpExecArray | null {
  if (i > 0 && text.charCodeAt(i - 1) !== 0x0a) return null;
  TWILIO_TOKEN_BELOW_SID.lastIndex = i + 34;
  return TWILIO_TOKEN_BELOW_SID.exec(text);
}
/** The kind of the vendor rule for an API key's SID (vendor-rules.ts). */
const TWILIO_KEY_SID_KIND = 'twilio api key';
/** An account SID at `AC` (sticky): not inside a longer word. */
const TWILIO_ACCOUNT_SID = /(?<![A-Za-z0-9_])AC[a-f0-9]{32}(?![A-Za-z0-9_])/y;
/** After a SID that starts its line: the end of that line, then a line of 32 lowercase hex alone. */
const TWILIO_TOKEN_BELOW_SID = /[ \t]*\r?\n(?<v>[a-f0-9]{32})[ \t]*\r?(?=\n|$)/dy;
/**
 * Right after the SID, the next argument or item: a comma, maybe a line break and indent, then 32 lowercase hex, quoted alike.
 * Not any hex further on (`sid=SM… internal_msg_id=<32 hex>` in a log line: a message's id, adv82 L18).
 */
const TWILIO_TOKEN_AFTER_SID = /(?<q>["']?)[ \t]*,[ \t]*(?:\r?\n[ \t]*)?\k<q>(?<v>[a-f0-9]{32})\k<q>(?![A-Za-z0-9_])/dy;
/** After the id: on its line or the next three, a quoted or separated 40-character value (the first such; a tab: `--output text`'s columns). */
const AWS_SECRET_AFTER_ID = /[^\n]{0,160}?(?:\n[^\n]{0,160}?){0,3}?[ \t"'=:,](?<v>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/dy;

/**
 * Terraform's JSON plan and state (`terraform show -json`): `before_sensitive`, `after_sensitive` and `sensitive_values` flag a
 * resource's sensitive attributes `"key": true`; the same attributes' values in `before`, `after` and `values` are masked
 * whatever their names (`datadog_api_key`'s `"key"`: adv65 F46).
 */
function terraformSensitiveFields(text: string, out: SecretFinding[]): void {
  const names = new Set<string>();
  SENSITIVE_OBJECT.lastIndex = 0;
  for (let m = SENSITIVE_OBJECT.exec(text); m && names.size < MAX_SENSITIVE_NAMES; m = SENSITIVE_OBJECT.exec(text)) {
    for (const f of m.groups!.body.matchAll(FLAGGED_TRUE)) names.add(f[1]);
  }
  if (names.size === 0) return;
  const fields = new RegExp(`"(?:${[...names].map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})"[ \t]*:[ \t]*"(?<v>(?:[^"\\\n]|\\.){1,8192})"`, 'dg');
  for (const f of text.matchAll(fields)) {
    const v = f.groups!.v;
    if (v.length < MIN_CONTEXT_VALUE || isReference(v)) continue;
    const [start, end] = f.indices!.groups!.v!;
    out.push({ start, end, kind: 'sensitive value', byContext: true });
  }
}
/** A plan's object of sensitive flags, up to its first closing brace (flags are `true` or nested objects of them). */
const SENSITIVE_OBJECT = /"(?:before_sensitive|after_sensitive|sensitive_values)"[ \t]*:[ \t]*\{(?<body>[^}]{0,4096})\}/g;
/** An attribute flagged sensitive. */
const FLAGGED_TRUE = /"([\w-]{1,64})"[ \t]*:[ \t]*true/g;
/** Attribute names read from a plan's flags, at most. */
const MAX_SENSITIVE_NAMES = 64;

/**
 * A failed assertion's value under the code that names it (adversary pass 100 F38): ExUnit's `code:  assert <expr> == …` then
 * `left:  "<value>"`, pytest's `+  where '<value>' = <expr>`. The expression's last name (`[:secret_key_base]`, `.SECRET_KEY`,
 * `['API_TOKEN']`, `.get('password')`) says whether the value is a secret's; found by context, the value is remembered, so its
 * other places in the failure (pytest's `assert '<value>' == …` above) are masked too.
 */
function assertionOperands(text: string, out: SecretFinding[]): void {
  for (const re of [EXUNIT_LEFT, PYTEST_WHERE]) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const name = LAST_NAME.exec(m.groups!.expr)?.[1];
      if (name === undefined || !isSecretName(name)) continue;
      const value = m.groups!.secret;
      const start = m.index + m[0].lastIndexOf(value) + 1;
      if (value.length > 2 && !isLookAlike(value.slice(1, -1), true)) out.push({ start, end: start + value.length - 2, kind: kindOfName(name), byContext: true });
    }
  }
}
const EXUNIT_LEFT = /^[ \t]*code:[ \t]+assert[ \t]+(?<expr>[^\n]{1,1024}?)[ \t]+(?:===?|=~)[ \t][^\n]*\n[ \t]*left:[ \t]+(?<secret>"(?:[^"\\\n]|\\.){1,1024}")/gm;
const PYTEST_WHERE = /^[^\n+]{0,16}\+[ \t]+where[ \t]+(?<secret>'[^'\n]{1,1024}'|"[^"\n]{1,1024}")[ \t]+=[ \t]+(?<expr>[^\n]{1,1024}?)\r?$/gm;
/** An expression's last name: a key (`[:name]`, `['NAME']`, `.get('name')`) or a field (`.NAME`), a call's `()` after it. */
const LAST_NAME = /([A-Za-z_]\w{0,80})['"]?[\])]?(?:\(\))?[ \t]*$/;

/**
 * A wallet's recovery words on the line after the one that says so (`solana-keygen new`: `Save this seed phrase to recover your
 * new keypair:` then 12 or 24 words: adv59 F27; `cast wallet new-mnemonic`'s `Phrase:` then the words): a line of 12, 15, 18,
 * 21 or 24 lower-case words, a blank line or a rule between at most.
 */
function seedPhraseLines(text: string, out: SecretFinding[]): void {
  SEED_PHRASE_SAYS.lastIndex = 0;
  for (let m = SEED_PHRASE_SAYS.exec(text); m; m = SEED_PHRASE_SAYS.exec(text)) {
    SEED_WORDS_BELOW.lastIndex = text.indexOf('\n', m.index + m[0].length) + 1;
    if (SEED_WORDS_BELOW.lastIndex === 0) break;
    const w = SEED_WORDS_BELOW.exec(text);
    if (!w) continue;
    const [start, end] = w.indices!.groups!.v!;
    if (SEED_WORD_COUNTS.has(w.groups!.v.split(' ').length)) out.push({ start, end, kind: 'seed phrase', byContext: true });
    SEED_PHRASE_SAYS.lastIndex = end;
  }
}
/** A line that says the recovery words follow. */
const SEED_PHRASE_SAYS = /(?:seed|recovery|mnemonic|secret recovery) phrase[^\n]{0,80}|\bmnemonic\b[^\n]{0,80}|^Phrase:[ \t]*\r?$/gim;
/** The words' line after it (a blank line or a rule of `=` / `-` between at most). */
const SEED_WORDS_BELOW = /(?:[ \t]*\r?\n|[=-]{3,}\r?\n){0,2}[ \t]*(?<v>[a-z]{3,8}(?: [a-z]{3,8}){11,23})[ \t]*\r?(?=\n|$)/dy;
/** BIP39's phrase lengths. */
const SEED_WORD_COUNTS = new Set([12, 15, 18, 21, 24]);

/**
 * A secret a quoted-printable mail body cut at its soft line break (`=` ending the line, 76 columns: adv61 F34): its tail on the
 * lines after is masked as the secret. Only in a text that says it is quoted-printable (its header, or an encoded `=3D`).
 */
function softBreakTails(text: string, out: SecretFinding[]): void {
  for (const f of out.slice()) {
    let at = f.end;
    for (let n = 0; n < MAX_SOFT_BREAKS; n++) {
      if (text.charCodeAt(at) === 0x3d) at++;
      else if (text.charCodeAt(at - 1) !== 0x3d) break;
      if (text.charCodeAt(at) === 0x0d) at++;
      if (text.charCodeAt(at) !== 0x0a) break;
      SOFT_BREAK_TAIL.lastIndex = at + 1;
      const m = SOFT_BREAK_TAIL.exec(text);
      if (!m) break;
      out.push({ start: m.index, end: m.index + m[0].length, kind: f.kind });
      at = m.index + m[0].length;
    }
  }
}
/** The line before a Drone signature's `hmac:` (its document's kind), read back this far at most. */
const DRONE_SIGNATURE_KIND = /(?:^|\n)kind:[ \t]*signature\r?\n$/;
const DRONE_SIGNATURE_KIND_CHARS = 32;
/** npm's id of a token (a SHA-512 in hex), and its token's head printed after it in `npm token list --json` (NPM_TOKEN_LOOKAHEAD characters on). */
const NPM_TOKEN_KEY = /^[0-9a-f]{128}$/;
const NPM_TOKEN_HEAD = /"token":[ \t]*"npm_[A-Za-z0-9]{0,8}(?:…|\.\.\.)"/;
const NPM_TOKEN_LOOKAHEAD = 256;
/** Is the object around `at` (its braces, NPM_TOKEN_LOOKAHEAD characters either side at most) one of npm's token list, a token's head in it? */
function npmTokenBeside(text: string, at: number): boolean {
  const from = Math.max(0, at - NPM_TOKEN_LOOKAHEAD);
  const open = text.lastIndexOf('{', at);
  const close = text.indexOf('}', at);
  const object = text.slice(Math.max(from, open), close < 0 ? Math.min(text.length, at + NPM_TOKEN_LOOKAHEAD) : Math.min(close, at + NPM_TOKEN_LOOKAHEAD));
  return NPM_TOKEN_HEAD.test(object);
}
/** A class's name (node's inspect prints an object's before its brace). */
const CLASS_NAME = /^[A-Z][a-z]+(?:[A-Z][a-z0-9]*)+$/;
/** Lines a value goes on over after soft breaks (a 76-column body: a token of 700 characters is ten lines). */
const MAX_SOFT_BREAKS = 12;
/** A soft-broken value's piece on the next line: token characters to the line's end or its next soft break. */
const SOFT_BREAK_TAIL = /[A-Za-z0-9+/_.~-]{1,76}(?==?[ \t]*(?:\r?\n|$))/y;

/**
 * Only the secrets found by their context (passwords after `-p`, keys named like secrets, …):
 * what a command's stream state learns for the session. Shapes (vendor tokens, keys) are found
 * again wherever they show, so the stream does not look for them.
 */
export function scanContextSecrets(text: string): SecretFinding[] {
  const out: SecretFinding[] = [];
  if (text.length < 3) return out;
  const { hits } = AUTOMATON.pass(text, 0);
  contextFindings(text, hits, out);
  const gates = gatesOf(text, hits);
  if (gates & GATE_DATA_BLOCK) secretDataBlocks(text, out, firstLineWith(text, hits, 'data:'));
  if (gates & GATE_STRING_DATA_BLOCK) stringDataBlocks(text, out, firstLineWith(text, hits, 'stringData:'));
  percentEncoded(text, out, scanContextSecrets);
  foldedLineFindings(text, out, scanContextSecrets);
  // As the reply's scan does: the stream learns a DSN's user part, not the whole URL (it would mask the host later).
  narrowUrlDsns(text, out);
  return out;
}

/** FOREIGN_KEY_ROW's labels' words past U+00FF (their rows are found by these; Latin labels are not looked for in rows). */
const ROW_LABEL_WORDS = ['密钥', '令牌', 'トークン', 'Токен'];
/** A letter of the scripts whose prompt words have no ASCII keyword: Latin Extended-A (`hasło`), Cyrillic, kana, CJK, Hangul. */
const isPromptScriptLetter = (c: number) => (c >= 0x100 && c <= 0x17f) || (c >= 0x400 && c <= 0x4ff) || (c >= 0x3040 && c <= 0x30ff) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af);

/**
 * Prompts in scripts with no ASCII keyword (`Пароль:`, `密码：`, `パスワード:`, `Hasło:`): such a
 * word ends right before a colon (a blank between at most), its last or last-but-one letter in
 * one of those scripts. Each colon is found with indexOf and PROMPT runs on the lines that pass
 * (a character-class regex, or an includes per word, read every character of any text with a
 * character past U+00FF in it: 5-9% of a reply's scan).
 */
function nonAsciiPrompts(text: string, out: SecretFinding[]): void {
  let done = -1;
  const look = (i: number) => {
    const j = text.charCodeAt(i - 1) === 0x20 ? i - 2 : i - 1;
    if (j <= done || !(isPromptScriptLetter(text.charCodeAt(j)) || isPromptScriptLetter(text.charCodeAt(j - 1)))) return;
    const start = text.lastIndexOf('\n', i) + 1;
    const nl = text.indexOf('\n', i);
    done = nl < 0 ? text.length : nl;
    apply(PROMPT, text.slice(start, done), start, out);
    apply(FOREIGN_KEY_LABEL, text.slice(start, done), start, out);
  };
  // A table's row labelled in such a script (no colon: `| 访问密钥 | … |`): the line of each label word (searched like the words
  // above: at no cost in a text with no character past U+00FF), when it starts with `|`.
  let rowDone = -1;
  for (const word of ROW_LABEL_WORDS) {
    eachLineHolding(text, word, (start, end) => {
      if (start <= rowDone || text.charCodeAt(start) !== 0x7c) return;
      rowDone = end;
      apply(FOREIGN_KEY_ROW, text.slice(start, end), start, out);
    });
  }
  for (let i = text.indexOf(':'); i > 0; i = text.indexOf(':', i + 1)) look(i);
  done = -1;
  for (let i = text.indexOf('：'); i > 0; i = text.indexOf('：', i + 1)) look(i);
  // A target between the word and the colon (`[sudo] пароль для bob: `): the word's own line. Searching a text with no
  // character past U+00FF for these costs nothing (V8 answers at once for a one-byte string).
  for (const word of UNSPACED_PROMPT_WORDS) {
    eachLineHolding(text, word, (start, end) => {
      if (end > done) apply(PROMPT, text.slice(start, end), start, out);
    });
  }
}

/**
 * `visit(start, end)` once for each line of `text` that holds `word`: a word's next use on a line already visited is passed over
 * before its line's start is looked for (a megabyte line of labels walked back to its start for each use took 9 s).
 */
function eachLineHolding(text: string, word: string, visit: (start: number, end: number) => void): void {
  let lineEnd = -1;
  for (let i = text.indexOf(word); i >= 0; i = text.indexOf(word, i + word.length)) {
    if (i < lineEnd) continue;
    const nl = text.indexOf('\n', i);
    lineEnd = nl < 0 ? text.length : nl;
    visit(text.lastIndexOf('\n', i) + 1, lineEnd);
  }
}

/**
 * Prompt words with no ASCII keyword whose target may stand between them and the colon: sudo's ru `[sudo] пароль для bob: `, pl
 * `hasło użytkownika bob: ` (zh `bob 的密码：`, ja `bob のパスワード:`, ko `bob의 암호:` end in the word: the colon loop finds them).
 */
const UNSPACED_PROMPT_WORDS = ['ароль', 'ło'];


/**
 * Is text[i] (after a `%`) the hex of a character that separates a key from its value or quotes it: `%22` `"`, `%27` `'`, `%3A`
 * `:`, `%3D` `=`, `%20` ` `? Or of one a key's name holds, `%5F` `_` and `%2D` `-` (`?api%5Fkey=…`: session 42's final attack).
 */
function separatorEscapeAt(text: string, i: number): boolean {
  const a = text.charCodeAt(i);
  const b = text.charCodeAt(i + 1) | 0x20;
  return (a === 0x32 && (b === 0x30 || b === 0x32 || b === 0x37 || b === 0x64)) || (a === 0x33 && (b === 0x61 || b === 0x64)) || (a === 0x35 && b === 0x66);
}

/**
 * URL-encoded text (a form body `password%3D…`, a JSON body in a query `%7B%22password%22%3A%22…%22%7D`,
 * a redirect URL in a log): each blank-delimited word with an encoded separator in it is
 * percent-decoded (ASCII escapes only) and scanned with `scan`; a finding is mapped back to the
 * encoded span it came from. Decoded text has no such escape left unless it was encoded twice:
 * the second pass decodes once more, no further.
 */
function percentEncoded(text: string, out: SecretFinding[], scan: (t: string) => SecretFinding[]): void {
  // `%` found with indexOf (a progress bar's `45%` costs one comparison each), the word around an escape taken once.
  for (let p = text.indexOf('%'); p >= 0; p = text.indexOf('%', p + 1)) {
    // Or one encoded twice (`%253D`: a redirect parameter inside another URL's query, adv79 F19): decoded twice below.
    if (!separatorEscapeAt(text, p + 1) && !(text.startsWith('25', p + 1) && separatorEscapeAt(text, p + 3))) continue;
    let start = p;
    while (start > 0 && !isBlankCode(text.charCodeAt(start - 1))) start--;
    let end = p;
    while (end < text.length && !isBlankCode(text.charCodeAt(end))) end++;
    p = end;
    // Decoded characters and, for each, its offset in the word (one more entry: the word's end).
    let decoded = '';
    const at: number[] = [];
    // A key in a form-encoded query (Airflow's `get_uri`: `private_key_content=-----BEGIN+ENCRYPTED+PRIVATE+KEY-----%0AMIIF…`:
    // adv33 F13): a `+` written as is is a blank there (the key's own `+` is written `%2B`).
    const formKey = text.slice(start, end).includes('-----BEGIN+');
    for (let i = start; i < end; ) {
      const hex = text.charCodeAt(i) === 0x25 && i + 3 <= end ? text.slice(i + 1, i + 3) : '';
      at.push(i - start);
      if (/^[0-7][0-9A-Fa-f]$/.test(hex)) {
        decoded += String.fromCharCode(Number.parseInt(hex, 16));
        i += 3;
      } else {
        decoded += formKey && text.charCodeAt(i) === 0x2b ? ' ' : text[i];
        i++;
      }
    }
    at.push(end - start);
    for (const f of scan(decoded)) {
      const s = start + at[f.start];
      const e = start + at[f.end];
      if (e > s) out.push({ start: s, end: e, kind: f.kind, byContext: f.byContext });
    }
  }
}

/** A NUL as `cat -v` shows it, and as Python's bytes repr escapes it (scanSecrets reads both as blanks too). */
const NUL_SHOWN = Buffer.from('^@');
const NUL_ESCAPED = Buffer.from('\\x00');
/** Python's `\x00` between words, not one of a run of escapes (a key's bytes, `\x12\x00\x34`, are the byte readers'). */
const ESCAPED_NUL_BETWEEN_WORDS = /(?<!\\x[0-9a-fA-F]{2})\\x00(?!\\x)/g;
/** Is a text's shown-NUL view being scanned (not made again)? */
let inNulView = false;

/** `text` with its shown NULs (`^@`, `\x00` between words) as blanks of the same length; undefined when it has none. */
function shownNulsAsBlanks(text: string, bytes: Buffer): string | undefined {
  let view = text;
  if (bytes.indexOf(NUL_SHOWN) >= 0 && view.includes('^@')) view = view.replaceAll('^@', '  ');
  if (bytes.indexOf(NUL_ESCAPED) >= 0 && view.includes('\\x00')) view = view.replace(ESCAPED_NUL_BETWEEN_WORDS, '    ');
  return view === text ? undefined : view;
}
/** Prefixed lines' views being scanned (prefixed-lines.ts), and how deep they may nest. */
let prefixDepth = 0;
const MAX_PREFIX_DEPTH = 3;
/** Are a word diff's views being scanned (word-diff-lines.ts: they are not read as one again)? */
let inWordDiff = false;
/** In multiLineCallFindings' view: its lines are calls joined already. */
let inCallView = false;
/** Is a quoted-printable block's decoded text being scanned (it is not decoded again)? */
let inQuotedPrintable = false;
/** Lines of one quoted-printable block at most (its soft breaks join them): a mail's paragraph; a megabyte is read in blocks. */
const MAX_QP_LINES = 64;
/** A quoted-printable escape: `=` and two upper-case hex digits (RFC 2045), or a soft line break (`=` at a line's end). */
const QP_ESCAPE = /=(?:[0-9A-F]{2}|\r?\n)/y;

/**
 * Quoted-printable text (a mail's body as `quopri`, `mutt`'s raw view or a `.eml` file shows it: `key=3Dsk-proj-…`, a value cut by
 * a soft break `=` at the line's end: adv95 F20): the lines around each `=3D` (an encoded `=`, in every such body with a setting or
 * an attribute), joined over their soft breaks, are decoded and scanned with `scan`; a finding is mapped back to its characters.
 */
function quotedPrintable(text: string, out: SecretFinding[], scan: (t: string) => SecretFinding[]): void {
  let done = 0;
  for (let p = text.indexOf('=3D'); p >= 0; p = text.indexOf('=3D', Math.max(p + 3, done))) {
    // The block: back over lines ending in a soft break, on while a line ends in one.
    let start = text.lastIndexOf('\n', p) + 1;
    for (let n = 0; n < MAX_QP_LINES && start >= 2 && start - 2 >= done && softBreakBefore(text, start); n++) start = text.lastIndexOf('\n', start - 2) + 1;
    let end = lineEndAt(text, p);
    for (let n = 0; n < MAX_QP_LINES && text.charCodeAt(end - 1) === 0x3d && end < text.length; n++) end = lineEndAt(text, text.indexOf('\n', end) + 1);
    done = end;
    let decoded = '';
    const at: number[] = [];
    for (let i = start; i < end; ) {
      QP_ESCAPE.lastIndex = i;
      const m = text.charCodeAt(i) === 0x3d ? QP_ESCAPE.exec(text) : null;
      if (m && m[0].length === 3 && m[0] !== '=\r\n') {
        at.push(i);
        decoded += String.fromCharCode(Number.parseInt(m[0].slice(1), 16));
      } else if (!m) {
        at.push(i);
        decoded += text[i];
      }
      i += m ? m[0].length : 1;
    }
    at.push(end);
    for (const f of scan(decoded)) {
      const s = at[f.start];
      const e = f.end > f.start ? (at[f.end - 1] ?? end) + (text.charCodeAt(at[f.end - 1]) === 0x3d ? 3 : 1) : s;
      if (e > s) out.push({ start: s, end: e, kind: f.kind, byContext: f.byContext });
    }
  }
}

/** Does the line before the one at `lineStart` end in a soft break (`=` then the line break)? */
function softBreakBefore(text: string, lineStart: number): boolean {
  const e = text.charCodeAt(lineStart - 2) === 0x0d ? lineStart - 2 : lineStart - 1;
  return text.charCodeAt(e - 1) === 0x3d;
}

/**
 * Overstruck text, as `man` prints bold and underline to a pipe (`p\bpa\bas\bs…`: `MANPAGER=cat man … | sed -n …`, adv50 F30;
 * the squasher's reply drops the backspaces, a raw read keeps them): each line with a backspace is read with every character and
 * backspace before another character left out, and a finding is mapped back to the characters it came from.
 */
function overstruck(text: string, out: SecretFinding[], scan: (t: string) => SecretFinding[]): void {
  for (let b = text.indexOf('\b'); b >= 0; b = text.indexOf('\b', b + 1)) {
    const start = text.lastIndexOf('\n', b) + 1;
    let end = text.indexOf('\n', b);
    if (end < 0) end = text.length;
    b = end;
    let clean = '';
    const at: number[] = [];
    // Every backspace left out too (one at the line's end, two in a row): the clean line has none, so it is not read this way again.
    for (let i = start; i < end; i++) {
      if (text.charCodeAt(i) === 0x08) continue;
      if (text.charCodeAt(i + 1) === 0x08 && i + 2 < end && text.charCodeAt(i + 2) !== 0x08) {
        i++;
        continue;
      }
      at.push(i);
      clean += text[i];
    }
    at.push(end);
    for (const f of scan(clean)) {
      const s = at[f.start];
      const e = at[f.end - 1] + 1;
      if (e > s) out.push({ start: s, end: e, kind: f.kind, byContext: f.byContext });
    }
  }
}

const isBlankCode = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0b || c === 0x0c;

/**
 * Lines after a keyword's line its context rule reads: a sensitive terraform output's `"value"`
 * (up to 6 lines after `"sensitive": true`), a PuTTY key's `Private-Lines: N` lines (28 for a
 * 4096-bit RSA key). Every other context rule reads the keyword's own line.
 */
const TERRAFORM_LINES_AFTER = 7;
const PUTTY_LINES_AFTER = 32;
const HAR_LINES_AFTER = 1;
/** Jenkins prints its password after a blank line: the value line is the second after the keyword's. */
const NEXT_LINE_LINES_AFTER = 3;
/** A composer auth section's hosts, one a line (auth.json is pretty-printed): a few hosts at most. */
const COMPOSER_LINES_AFTER = 8;
const LINES_AFTER: number[] = KEYWORDS.map((k) => Math.max(0, ...k.context.map((r) => (r === TERRAFORM_RULE ? TERRAFORM_LINES_AFTER : r === PUTTY_RULE ? PUTTY_LINES_AFTER : r === HAR_RULE ? HAR_LINES_AFTER : r === NEXT_LINE_RULE ? NEXT_LINE_LINES_AFTER : r === COMPOSER_RULE ? COMPOSER_LINES_AFTER : r === API_KEYS_RULE ? API_KEY_LINES : r === RANDOM_PASSWORD_RULE ? RANDOM_PASSWORD_LINES : r === STAGE_KEYS_RULE ? STAGE_KEYS_LINES_AROUND : r === SECRET_OBJECT_RULE ? SECRET_OBJECT_LINES : r === VAULT_DATA_RULE ? VAULT_DATA_LINES : r === EF_PARAMS_RULE ? EF_STATEMENT_LINES : r === PROXMOX_TOKEN_RULE ? PROXMOX_TOKEN_LINES : r === SMTP_PASSWORD_RULE ? SMTP_PASSWORD_LINES : r === STRACE_AUTH_LOGIN_RULE ? STRACE_AUTH_LOGIN_LINES : r === MEMCACHED_RULE ? MEMCACHED_LINES : r === ZABBIX_LOGIN_RULE ? ZABBIX_LOGIN_LINES : r === ADDITIONAL_ENDPOINTS_RULE ? ADDITIONAL_ENDPOINTS_LINES : r === XTRACE_STDIN_RULE ? XTRACE_STDIN_LINES : r === ARGV_LINE_RULE ? ARGV_LINES + 1 : r === SECRET_PAYLOAD_RULE ? SECRET_PAYLOAD_LINES : r === SECRET_SECTION_RULE ? SECRET_SECTION_LINES : r === SVN_SIMPLE_RULE ? SVN_SIMPLE_LINES : r === RUBY_COOKIE_RULE ? RUBY_COOKIE_LINES : r === P4_LOGIN_RULE ? P4_LOGIN_LINES : r === STEAM_CONNECT_CACHE_RULE ? STEAM_CONNECT_CACHE_LINES : r === AWS_KEY_PAIR_RULE ? AWS_KEY_PAIR_LINES : r === WRAPPED_JWT_RULE ? WRAPPED_JWT_LINES : r === REGISTERED_USERS_RULE ? REGISTERED_USERS_LINES : r === KEY_BESIDE_USER_RULE ? KEY_BESIDE_USER_LINES : r === CODEPUSH_TABLE_RULE ? CODEPUSH_TABLE_LINES : r === STREAM_KEY_RULE ? STREAM_KEY_LINES : r === RECOVERY_LIST_RULE ? RECOVERY_LIST_LINES + 1 : r === PRIVATE_KEY_LIST_RULE ? PRIVATE_KEY_LIST_LINES + 2 : r === ACCOUNTS_RULE ? ACCOUNTS_LINES : r === SHA1_BELOW_KEY_RULE ? SHA1_BELOW_KEY_LINES : r === HMAC_KEY_FILE_RULE ? HMAC_KEY_FILE_LINES : r === HEX_BELOW_LABEL_RULE ? HEX_BELOW_LABEL_LINES : r === EXPECT_SEND_RULE ? EXPECT_SEND_LINES : r === AUTHORIZATION_LIST_RULE ? AUTHORIZATION_LIST_LINES : r === XMLRPC_LOGIN_RULE ? XMLRPC_LOGIN_LINES : r === PASSWORD_INPUT_RULE ? PASSWORD_INPUT_LINES : r === MASTER_INFO_RULE ? MASTER_INFO_LINES : 0))));
/** Lines above a salt's the byte path's window holds: a keystore's `kdfparams` opening and its four parameters. */
const SALT_LINES_ABOVE = 6;
/** Per keyword: lines above its line its rule reads (PostgreSQL's parameters: the statement's). */
// And a salt's: a KDF's parameters above it tell a public salt (a V3 keystore's `kdfparams`: publicByName, adv161 F8).
const LINES_BEFORE: number[] = KEYWORDS.map((k) => (k.word === 'salt' ? SALT_LINES_ABOVE : k.context.includes(PARAMETERS_RULE) ? LINES_ABOVE_PARAMETERS : k.context.includes(STAGE_KEYS_RULE) ? STAGE_KEYS_LINES_AROUND : k.context.includes(BOUND_PARAMS_RULE) ? BOUND_PARAMS_LINES_ABOVE : k.context.includes(XTRACE_STDIN_RULE) ? XTRACE_STDIN_LINES : k.context.includes(SECRET_PAYLOAD_RULE) ? 1 : k.context.includes(STREAM_KEY_RULE) ? STREAM_KEY_LINES : k.context.includes(EXPECT_SEND_RULE) ? EXPECT_SEND_LINES_ABOVE : k.context.includes(LAPS_PRETTY_RULE) ? LAPS_PRETTY_LINES_ABOVE : k.context.includes(MASTER_INFO_RULE) ? MASTER_INFO_LINES_ABOVE : 0));
/** Per keyword: may it name a cookie list (COOKIE_LIST_RULE)? Then the byte path reads the list's lines when it does. */
const NAMES_COOKIE_LIST = Uint8Array.from(KEYWORDS, (k) => (k.context.includes(COOKIE_LIST_RULE) ? 1 : 0));
/** What `data:` and `stringData:` lines share. */
const DATA_MARK = Buffer.from('ata:');
/** Per keyword: does the key=value search run on it (a name's word)? Then a value may start on the next line. */
const NAMES_A_VALUE = Uint8Array.from(KEYWORDS, (k) => (k.context.includes(NAME_RULE) ? 1 : 0));
/** After a name's word, the rest of a line whose value starts on the next line: a YAML block scalar's indicator (`|`, `>-`), an object's `{` (composer's `"github-oauth": {`) or nothing after `:`. */
// Or a string in three quotes opened at the line's end (TOML's `password = """`, Python's `SECRET_KEY = """`: adv50 F15, F19), an
// INI name with its value on the continuation lines (`=` alone), a heredoc (`= <<-EOT`: adv67 F25, F26).
const VALUE_ON_NEXT_LINES = /^[\w.-]*["']?[ \t]*(?::[ \t]*(?:(?:(?:!!(?:binary|str)|!<tag:yaml\.org,2002:(?:binary|str)>|&[\w-]{1,64})[ \t]+){0,2}[|>][+-]?[1-9]?[+-]?[ \t]*(?:#.*)?|\{|\[)?|=[ \t]*(?:"""|'''|(?:[\w.]+\()?<<[-~]?["']?\w+["']?)?[ \t]*)\r?$/;
/** After a name's word, the rest of a line that ends with the name (`- name: DB_PASSWORD`): its `value` may be on the next line (pairedValue). */
const PAIR_NAME_END = /^[\w.-]*["']?[ \t]*(?:,[ \t]*)?\r?$/;
/** The paired value's line: the next, or after up to four other fields of its object (`"Type": "SecureString",` of an SSM parameter). */
const PAIR_LINES_AFTER = 5;
/** After a name's word, PHP's var_dump key (`["db_password"]=>`): its value is on the next line (`  string(14) "…"`). */
const VAR_DUMP_KEY_END = /^[\w.-]*"(?::(?:"[\w\\]{1,256}":)?(?:protected|private))?\]=>[ \t]*\r?$/;
/** Longest rest of a line after a name's word the next-line tests read (a name is at most 81 characters: isSecretName). */
const MAX_NAME_REST = 512;
/** Lines above and below `"secret": true` its object's `"value"` may be on (flaggedObjectValue): pulumi's is the line above. */
const FLAG_LINES_AROUND = 3;
/** Most lines of a YAML block scalar's value masked (its lines past these are a document, not a credential; the byte path reads this many after the name). */
const MAX_BLOCK_LINES = 64;
/** A `data:` line is `data:` and indentation: longer lines hold `data:` in something else (a data URL). */
const MAX_DATA_LINE = 64;

/**
 * Per keyword, a byte test its rules' every match passes (scanContextSecretsInBytes decodes a
 * line only when it does): most keyword hits of build output are URLs without credentials,
 * `path`, `:12` of a time, which no rule can match. Each test is weaker than its rules.
 */
const NEED_NOTHING = 0;
const NEED_WINDOW = 1;
/** A name's word (the key=value search): `=` or `:` after the name (SEPARATOR), or `>` (an element). */
const NEED_SEPARATOR = 2;
/** `://` (URL_CREDENTIALS): `user:password@` after it. */
const NEED_AT = 3;
/** `:5432` (.pgpass): `:port:database:user:` from the hit's colon. */
const NEED_COLONS = 4;
/** An HTTP header's name (`X-Api-Key`, `Private-Token`): `:` after it (blanks between). */
const NEED_HEADER = 5;
/** `.npmrc`'s `_auth`, `_authToken`, `_password`: `=` after the name. */
const NEED_NPMRC = 6;
/** A query parameter (`?token=`, `&sig=`): `?`, `&` or `;` before its name. */
const NEED_QUERY = 7;
/** `pass` (a name, a prompt, a value piped to a stdin reader, an HTML password field): a separator after the name, or `:` `：` `|` `=` `<` `]` on the line. */
const NEED_PASS = 8;
const SHARED_PASS_RULES = LINE_RULES.flatMap((r, i) => (r.sharesNameWords && r.keywords.includes('pass') ? [i] : []));
const URL_CREDENTIALS_RULE = LINE_RULES.indexOf(URL_CREDENTIALS);
const HEADER_RULES = HEADERS.map((h) => LINE_RULES.indexOf(h));
const NPMRC_RULE = LINE_RULES.indexOf(NPMRC);
const URL_PARAM_RULE = LINE_RULES.indexOf(URL_PARAM);
const PGPASS_RULE = LINE_RULES.findIndex((r) => r.kind === 'pgpass password');
const BYTE_NEED = Uint8Array.from(KEYWORDS, (k) => {
  if (k.context.length === 0) return NEED_NOTHING;
  if (k.context.every((r) => r === NAME_RULE)) return NEED_SEPARATOR;
  if (k.context.every((r) => r === URL_CREDENTIALS_RULE)) return NEED_AT;
  if (k.context.every((r) => r === PGPASS_RULE)) return NEED_COLONS;
  if (k.context.every((r) => HEADER_RULES.includes(r) || r === HAR_RULE)) return NEED_HEADER;
  if (k.context.every((r) => r === NAME_RULE || SHARED_PASS_RULES.includes(r))) return NEED_PASS;
  if (k.context.every((r) => r === NPMRC_RULE)) return NEED_NPMRC;
  if (k.context.every((r) => r === URL_PARAM_RULE)) return NEED_QUERY;
  return NEED_WINDOW;
});

/** After the name around a hit ending at `end`: a separator (`=`, `:`, after an optional `\"` and blanks) or `>`. */
/**
 * The run of name characters the byte tests last measured (its start, its end), and the one read backwards over a query's
 * parameter name: hits inside one long run (`token_token_…`, `sk_live_sk_live_…` over a megabyte line, each a name's word) are
 * answered from it instead of reading it to its end again (each hit did: minutes a megabyte). Reset at each byte scan: the
 * stream's scratch buffer is reused.
 */
let runFrom = -1;
let runTo = -1;
let backFrom = -1;
let backTo = -1;

/** Where the name characters from `i` end (at `lineEnd` at most). */
function nameCharsEnd(buf: Buffer, i: number, lineEnd: number): number {
  if (i >= runFrom && i <= runTo) return runTo;
  const from = i;
  while (i < lineEnd && buf[i] < 128 && NAME_CHAR[buf[i]] === 1) i++;
  runFrom = from;
  runTo = i;
  return i;
}

/** Where the name characters and dashes before `i` (inclusive) start, less one: the byte before them (-1 at the text's start). */
function nameCharsStartBefore(buf: Buffer, i: number): number {
  if (i >= backFrom && i <= backTo) return backFrom - 1;
  const to = i;
  while (i >= 0 && buf[i] < 128 && (NAME_CHAR[buf[i]] === 1 || buf[i] === 0x2d)) i--;
  if (to > i) {
    backFrom = i + 1;
    backTo = to;
  }
  return i;
}

function separatorAfter(buf: Buffer, end: number, lineEnd: number): boolean {
  let i = end;
  i = nameCharsEnd(buf, i, lineEnd);
  // `>` (an element), `%` (URL-encoded: `password%3D…`, percentEncoded).
  if (buf[i] === 0x3e || buf[i] === 0x25) return true;
  if (buf[i] === 0x5c) i++;
  if (buf[i] === 0x22 || buf[i] === 0x27) i++;
  // An array's key (`[api_secret] => …` of PHP's print_r, `$cfg['password'] = …`).
  if (buf[i] === 0x5d) {
    // jq's `--stream` event (`[["svc","api_key"],"…"]`: jqStreamLeaf).
    if (buf[i + 1] === 0x2c && buf[i - 1] === 0x22) return true;
    i++;
  } else if (buf[i] === 0x2c && buf[i - 1] === 0x22 && buf[i + 1] >= 0x30 && buf[i + 1] <= 0x39) return true; // …of a list's item (`[["tokens",0],"…"]`)
  while (buf[i] === 0x20 || buf[i] === 0x09) i++;
  // R's `<-` / `<<-` (SEPARATOR).
  if (buf[i] === 0x3c) return buf[i + 1] === 0x2d || (buf[i + 1] === 0x3c && buf[i + 2] === 0x2d);
  return buf[i] === 0x3a || buf[i] === 0x3d;
}

/** A key path's last part ends the line (`/config/shop/db_password`, keyPathValueBelow): the value is the next line. */
function keyPathAt(buf: Buffer, end: number, lineEnd: number, line: ByteLine): boolean {
  let i = end;
  i = nameCharsEnd(buf, i, lineEnd);
  if (buf[i] === 0x0d) i++;
  return i >= lineEnd && buf[line.start] === 0x2f;
}

/** A capitals name first on its line, two blanks after it (paddedEnvValue): its value may be the rest of the line. */
function paddedAt(buf: Buffer, end: number, lineEnd: number, line: ByteLine): boolean {
  let i = end;
  i = nameCharsEnd(buf, i, lineEnd);
  if (!((buf[i] === 0x20 || buf[i] === 0x09) && (buf[i + 1] === 0x20 || buf[i + 1] === 0x09))) return false;
  const c = buf[line.start];
  // (Or a digit: grep's line number before a dotted setting's name, paddedEnvValue.)
  if ((c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39)) return true;
  if (c < 0x61 || c > 0x7a) return false;
  // …or a lower-case dotted name first on its line (spark-defaults.conf's `spark.hadoop.fs.s3a.secret.key   …`): its run only is read.
  const from = nameCharsStartBefore(buf, end - 1) + 1;
  if (from !== line.start) return false;
  for (let d = from; d < end; d++) if (buf[d] === 0x2e) return true;
  return false;
}

/** The byte test of a keyword's rules (BYTE_NEED) at a hit ending at `end` on a line ending at `lineEnd`. */
/** NEED_PASS's answer for the line that ends at `lineEnd` of the buffer being scanned (reset by each scanContextSecretsInBytes). */
let passLine = { lineEnd: -1, has: false };

function bytesMayMatch(need: number, buf: Buffer, end: number, lineEnd: number, line: ByteLine): boolean {
  // URL-encoded text after the keyword (`authorization%3A%20…`): its decoded form is scanned (percentEncoded).
  if (buf[end] === 0x25) return true;
  switch (need) {
    case NEED_SEPARATOR:
      return separatorAfter(buf, end, lineEnd) || farName(buf, end, lineEnd, line) || keyPathAt(buf, end, lineEnd, line) || paddedAt(buf, end, lineEnd, line);
    case NEED_AT:
      return userinfoAfter(buf, end, lineEnd);
    case NEED_COLONS:
      return pgpassAfter(buf, end - 2, lineEnd);
    case NEED_HEADER: {
      // The header regexes end their name with the keyword (`X-Api-Key`, `X-Auth-Token`: the last word's own hit), then `[ \t]*:`.
      let i = end;
      while (buf[i] === 0x20 || buf[i] === 0x09) i++;
      return buf[i] === 0x3a || buf[i] === 0x22 || buf[i] === 0x27;
    }
    case NEED_NPMRC: {
      let i = end;
      while (i < lineEnd && ((buf[i] | 0x20) >= 0x61 && (buf[i] | 0x20) <= 0x7a)) i++;
      while (buf[i] === 0x20 || buf[i] === 0x09) i++;
      return buf[i] === 0x3d;
    }
    case NEED_PASS: {
      if (separatorAfter(buf, end, lineEnd) || farName(buf, end, lineEnd, line) || keyPathAt(buf, end, lineEnd, line) || paddedAt(buf, end, lineEnd, line)) return true;
      // A command line's credential operand (the hit ends `pass`): a `passwd` command (`mosquitto_passwd -b f u pw`, `ldappasswd -s pw`)
      // or an option (`-storepass pw`, `--passphrase pw`): no separator on such a line.
      if ((buf[end] | 0x20) === 0x77 && (buf[end + 1] | 0x20) === 0x64) return true;
      let w = end - 5;
      while (w >= 0 && (buf[w] | 0x20) >= 0x61 && (buf[w] | 0x20) <= 0x7a) w--;
      if (w >= 0 && buf[w] === 0x2d) return true;
      // Asked once a line: a line of `pass` words and no separator was read whole at each (100,000 of them: 2 minutes).
      if (passLine.lineEnd === lineEnd) return passLine.has;
      const lineStart = end > 1 ? buf.lastIndexOf(0x0a, end - 2) + 1 : 0;
      let has = false;
      for (let i = lineStart; i < lineEnd && !has; i++) {
        const b = buf[i];
        // `:` `|` `=`, 0xEF (the lead byte of a full-width colon `：`), `<` (`<(echo pw)`, `<<< pw`), `]` (composer's `[github-oauth.host] tok`).
        // `'` (SQL's `PASSWORD '…'`).
        has = b === 0x3a || b === 0x7c || b === 0x3d || b === 0xef || b === 0x3c || b === 0x5d || b === 0x27 || b === 0x22;
      }
      passLine = { lineEnd, has };
      return has;
    }
    case NEED_QUERY: {
      // Back over the parameter's name (the keyword may end inside it: `access_token=`).
      const i = nameCharsStartBefore(buf, end - 2);
      return i >= 0 && (buf[i] === 0x3f || buf[i] === 0x26 || buf[i] === 0x3b);
    }
    default:
      return true;
  }
}

/** What follows the name around a hit (afterName): a blank or a table's separator, a CSV separator, a list's `,` or `)`, `" {`, else. */
const AFTER_CELL = 1;
const AFTER_CSV = 2;
const AFTER_LIST = 3;
const AFTER_LABEL = 4;
const AFTER_OTHER = 0;

/**
 * What follows the name around a hit ending at `end` (its characters, then a closing quote, backtick or `]`): decides, at
 * the cost of a few bytes, which of FarNames' forms the name may head, so the line-wide tests run only for those.
 */
function afterName(buf: Buffer, end: number, lineEnd: number): number {
  let i = end;
  i = nameCharsEnd(buf, i, lineEnd);
  if (i >= lineEnd || buf[i] === 0x0d) return AFTER_CSV; // the line's end: a table's or a CSV header's last name
  let b = buf[i];
  if (b === 0x20 || b === 0x7c || b === 0xe2) return AFTER_CELL;
  if (b === 0x2c || b === 0x09 || b === 0x3b) return AFTER_CSV;
  if (b === 0x22 || b === 0x60 || b === 0x5d) {
    const quote = b;
    const closed = ++i;
    while (buf[i] === 0x20 || buf[i] === 0x09) i++;
    b = buf[i];
    if (quote === 0x22 && b === 0x7b) return AFTER_LABEL;
    // A quoted column's type after a blank (mysqldump's `\`api_token\` varchar(64)`): a schema's column (FarNames.schemaColumn).
    if (i > closed && (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7a) return AFTER_CELL;
    if (b === 0x2c || b === 0x29) return AFTER_LIST;
    if (b === 0x09 || b === 0x3b || i >= lineEnd || b === 0x0d) return AFTER_CSV;
    return AFTER_OTHER;
  }
  if (b === 0x29) return AFTER_LIST;
  return AFTER_OTHER;
}

/**
 * May the name around a hit head one of FarNames' forms, so that the rows or the statement after it are read: a table's
 * header over a rule, a CSV header, a SQL column list after INSERT or COPY, an HCL label? Checked from the name outwards.
 */
function farName(buf: Buffer, end: number, lineEnd: number, line: ByteLine): boolean {
  switch (afterName(buf, end, lineEnd)) {
    case AFTER_CELL:
      return line.ruleAfter() || line.createAbove(end) >= 0 || line.csvHeader();
    case AFTER_CSV:
      return line.ruleAfter() || line.csvHeader() || line.sqlBefore(end) || line.sqlAbove(end) >= 0;
    case AFTER_LIST:
      return line.sqlBefore(end) || line.csvHeader() || line.sqlAbove(end) >= 0;
    case AFTER_LABEL:
      return true;
    default:
      return false;
  }
}

/** Are the bytes at `i` the ASCII word `w`? */
function bytesAre(buf: Buffer, i: number, w: string): boolean {
  for (let j = 0; j < w.length; j++) if (buf[i + j] !== w.charCodeAt(j)) return false;
  return true;
}

/**
 * What the byte path knows about the line of the hit it looks at: worked out once per line (hits come in order), so a
 * line of a megabyte with thousands of names costs its length once, not once per name.
 */
class ByteLine {
  /** The line's `\n` (the line is [start, end]). */
  end = -1;
  /** Its start, worked out when first asked (most hits fail their byte test without it: a native search per line saved). */
  private begin = -1;
  /** Is the next line a table's rule (unknown: -1)? Where the first INSERT / COPY of the line starts (unknown: -2; none: -1)? */
  private rule = -1;
  private sql = -2;
  /** Is the line a CSV header (unknown: -1)? */
  private csv = -1;
  /** Where the statement starts whose column list runs down to this line (unknown: -2; none: -1). */
  private above = -2;
  /** The last line sqlAbove worked out: its start, its answer, and how many lines up it looked (a walk from the line under it reuses it). */
  private lastAbove = { line: -1, found: -1, depth: 0 };
  /** Where the CREATE TABLE starts whose column list holds this line's name (unknown: -2; none: -1); the last line worked out. */
  private create = -2;
  private lastCreate = { line: -1, found: -1, depth: 0 };
  /** A position on the current line (the hit that made it current). */
  private lineOfLastHit = 0;

  /** Where the line starts. */
  get start(): number {
    if (this.begin < 0) this.begin = this.lineOfLastHit > 0 ? this.buf.lastIndexOf(0x0a, this.lineOfLastHit - 1) + 1 : 0;
    return this.begin;
  }

  constructor(private readonly buf: Buffer) {}

  /** Makes this the line of a hit ending at `hitEnd`. */
  of(hitEnd: number): void {
    // Hits come in order: one past the last line's end is on a later line.
    if (hitEnd - 1 <= this.end && hitEnd - 1 >= this.lineOfLastHit) return;
    this.lineOfLastHit = hitEnd - 1;
    this.end = this.buf.indexOf(0x0a, hitEnd - 1);
    this.begin = -1;
    this.rule = -1;
    this.sql = -2;
    this.csv = -1;
    this.above = -2;
    this.create = -2;
  }

  /**
   * Is this line a CSV or TSV header (FarNames.csvColumn: names, quoted or not, separated by `,` or a tab; blanks only
   * next to a separator)? A log line of words with a comma is none, and gets no window of rows.
   */
  csvHeader(): boolean {
    if (this.csv < 0) {
      let seps = 0;
      let ok = this.end - this.start <= MAX_HEADER_LINE;
      let word = false;
      // A tab-aligned table's titles may hold a blank (`User Name`: FarNames' ALIGNED_TITLE); a CSV's capitalised titles two
      // (`Secret access key`: FarNames' CSV_TITLE, a header that starts with a capital).
      // (Searched in the line only: from the line to the buffer's end, a buffer of tab rows with no double tab was read to its end
      // at each row — quadratic, 5 s for 40,000 `path/NAME<TAB>value` rows.)
      const tabAligned = ok && this.buf.subarray(this.start, this.end).indexOf(DOUBLE_TAB) >= 0;
      const titled = this.buf[this.start] >= 0x41 && this.buf[this.start] <= 0x5a;
      let titleBlanks = 0;
      for (let i = this.start; ok && i < this.end; i++) {
        const b = this.buf[i];
        // `|` too: sqlite3's `-header` list mode (`id|user_id|token`); a markdown table's `| a | b |` has blanks and is none.
        if (b === 0x2c || b === 0x09 || b === 0x3b || b === 0x7c) {
          seps++;
          word = false;
          titleBlanks = 0;
        } else if (b === 0x20) {
          const n = this.buf[i + 1];
          ok = !word || n === 0x2c || n === 0x20 || n === 0x0d || i + 1 === this.end || (tabAligned && n < 128 && NAME_CHAR[n] === 1) || (titled && ++titleBlanks <= 2 && n < 128 && NAME_CHAR[n] === 1);
        } else if (b < 128 && (NAME_CHAR[b] === 1 || b === 0x22)) word = true;
        else ok = b === 0x0d;
      }
      this.csv = ok && seps > 0 ? 1 : 0;
    }
    return this.csv === 1;
  }

  /** Where the line before this one starts (this one's start when there is none). */
  prevStart(): number {
    return this.start > 1 ? this.buf.lastIndexOf(0x0a, this.start - 2) + 1 : this.start;
  }

  /** Is the next line a table's rule (ruleLineAt: tableColumn's TABLE_RULE, or box drawing), this one short enough to be its header? */
  ruleAfter(): boolean {
    // Or the header is a box's top border (ClickHouse), or a row of column types stands between it and its rule (DuckDB).
    if (this.rule < 0) this.rule = this.end - this.start <= MAX_HEADER_LINE && (ruleLineAt(this.buf, this.end + 1) || borderHeaderAt(this.buf, this.start) || typesRowThenRule(this.buf, this.end + 1)) ? 1 : 0;
    return this.rule === 1;
  }

  /** Is there `INSERT` or `COPY` (upper or lower case) on the line before `hitEnd`? A column list may name secrets (FarNames.sqlColumn). */
  sqlBefore(hitEnd: number): boolean {
    if (this.sql === -2) {
      this.sql = -1;
      const buf = this.buf;
      for (let i = this.start; i < this.end; i++) {
        const c = buf[i] | 0x20;
        if ((c === 0x69 && (bytesAre(buf, i, 'INSERT') || bytesAre(buf, i, 'insert'))) || (c === 0x63 && (bytesAre(buf, i, 'COPY') || bytesAre(buf, i, 'copy')))) {
          this.sql = i;
          break;
        }
      }
    }
    return this.sql >= 0 && this.sql < hitEnd;
  }

  /**
   * Where the line starts whose INSERT or COPY has a column list running over lines down to the name around a hit ending at
   * `hitEnd` (FarNames.sqlAbove, the same tests on the same lines), or -1: the window then starts there.
   */
  sqlAbove(hitEnd: number): number {
    if (this.above === -2) {
      this.above = -1;
      const buf = this.buf;
      const before = nameStart(buf, hitEnd, this.start);
      if (before - this.start <= MAX_HEADER_LINE && listPrefix(buf, this.start, before) && COLUMN_LIST_BEFORE.test(buf.toString('latin1', this.start, before))) {
        const answer = walkUp(this.start - 1, (end) => this.lineBefore(end), sqlHead, COLUMN_LIST_LINE, (start) => (start === this.lastAbove.line ? this.lastAbove : undefined));
        this.above = answer.found;
        this.lastAbove = { line: this.start, found: answer.found, depth: answer.depth };
      }
    }
    return this.above;
  }

  /**
   * Where the CREATE TABLE starts whose column list holds the name around a hit ending at `hitEnd` (FarNames.createAbove, the
   * same tests): on this line before the name, or up the definitions' lines when the name starts its line; -1 if none.
   */
  createAbove(hitEnd: number): number {
    if (this.create === -2) {
      this.create = -1;
      const buf = this.buf;
      const before = nameStart(buf, hitEnd, this.start);
      // The name first on its line (blanks and an opening quote before it), or the line a CREATE statement: looked at in the
      // bytes first (most names with a blank after them are a log's words: no copy of the line, no search of it, for them).
      let i = before - 1;
      if (i >= this.start && (buf[i] === 0x22 || buf[i] === 0x60 || buf[i] === 0x5b)) i--;
      while (i >= this.start && (buf[i] === 0x20 || buf[i] === 0x09)) i--;
      const first = i < this.start;
      if (before - this.start <= MAX_HEADER_LINE && !first && createLeads(buf, this.start, before)) {
        CREATE_TABLE.lastIndex = 0;
        if (CREATE_TABLE.test(buf.toString('latin1', this.start, before))) this.create = this.start;
      } else if (before - this.start <= MAX_HEADER_LINE && first) {
        // The definitions come in order: the line above was asked already, and its answer holds one line farther up.
        const a = walkUp(this.start - 1, (end) => this.lineBefore(end), createHead, COLUMN_DEFINITION_LINE, (start) => (start === this.lastCreate.line ? this.lastCreate : undefined));
        this.create = a.found;
        this.lastCreate = { line: this.start, found: a.found, depth: a.depth };
      }
    }
    return this.create;
  }

  /** The line of the bytes ending at `end` ([start, text as latin1]), or undefined when it is too long. */
  private lineBefore(end: number): [number, string] | undefined {
    const start = this.buf.lastIndexOf(0x0a, end - 1) + 1;
    return end - start > MAX_HEADER_LINE ? undefined : [start, this.buf.toString('latin1', start, end)];
  }
}

/** Are buf[from, to) only what COLUMN_LIST_BEFORE allows (blanks, names' characters, quotes, commas)? Looked at before a copy for the regex. */
function listPrefix(buf: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const b = buf[i];
    if (b >= 128 || (NAME_CHAR[b] !== 1 && b !== 0x20 && b !== 0x09 && b !== 0x2c && b !== 0x22 && b !== 0x60 && b !== 0x5b && b !== 0x5d)) return false;
  }
  return true;
}

/** Does buf[from, to) start with `CREATE` or `create` after blanks (a dump's schema statement starts its line)? */
function createLeads(buf: Buffer, from: number, to: number): boolean {
  let i = from;
  while (i < to && (buf[i] === 0x20 || buf[i] === 0x09)) i++;
  return i + 6 <= to && (bytesAre(buf, i, 'CREATE') || bytesAre(buf, i, 'create'));
}

/** Bytes of a name (NAME_CHAR) before `end`: where the name around a hit starts. */
function nameStart(buf: Buffer, end: number, lineStart: number): number {
  let i = end;
  while (i > lineStart && buf[i - 1] < 128 && NAME_CHAR[buf[i - 1]] === 1) i--;
  return i;
}

/** Is the line starting at `from` a table's rule (ASCII, or box drawing: U+2500-U+257F, UTF-8 E2 94/95 xx), at most MAX_HEADER_LINE long? */
function ruleLineAt(buf: Buffer, from: number): boolean {
  let dashes = 0;
  const stop = Math.min(buf.length, from + MAX_HEADER_LINE);
  for (let i = from; i < stop; i++) {
    const b = buf[i];
    if (b === 0x0a) return dashes >= 3;
    if (b === 0x2d) dashes++;
    else if (b === 0xe2 && (buf[i + 1] === 0x94 || buf[i + 1] === 0x95)) {
      dashes++;
      i += 2;
    } else if (b !== 0x2b && b !== 0x7c && b !== 0x3a && b !== 0x3d && b !== 0x20 && b !== 0x09 && b !== 0x0d) return false;
  }
  return false;
}

/** Does the line at `from` start (after blanks) with a box's top-left corner and a line (`┌─`, FarNames' BORDER_HEADER)? */
function borderHeaderAt(buf: Buffer, from: number): boolean {
  let i = from;
  while (buf[i] === 0x20 || buf[i] === 0x09) i++;
  return buf[i] === 0xe2 && buf[i + 1] === 0x94 && buf[i + 2] === 0x8c && buf[i + 3] === 0xe2 && buf[i + 4] === 0x94 && buf[i + 5] === 0x80;
}

/** Is the line at `from` a row of column types (FarNames' TYPES_ROW) with a rule on the line after it? */
function typesRowThenRule(buf: Buffer, from: number): boolean {
  let i = from;
  while (buf[i] === 0x20 || buf[i] === 0x09) i++;
  if (buf[i] !== 0x7c && !(buf[i] === 0xe2 && buf[i + 1] === 0x94 && buf[i + 2] === 0x82)) return false;
  const nl = buf.indexOf(0x0a, from);
  if (nl < 0 || nl - from > MAX_HEADER_LINE) return false;
  return TYPES_ROW.test(buf.toString('utf8', from, nl)) && ruleLineAt(buf, nl + 1);
}

/** Two tabs: a tab-aligned table's header holds them. */
const DOUBLE_TAB = Buffer.from('\t\t');

const isBlank = (b: number) => b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0a || b === 0x0b || b === 0x0c;

/** URL_CREDENTIALS' `needs` on bytes, from the end of `://`: `[^\s:/@]*(?:@[^\s:/@]+)?:[^\s@/]+@` (non-ASCII counts as not blank: weaker). */
function userinfoAfter(buf: Buffer, end: number, lineEnd: number): boolean {
  let i = end;
  while (i < lineEnd && buf[i] !== 0x3a && buf[i] !== 0x2f && buf[i] !== 0x40 && !isBlank(buf[i])) i++;
  // A token as the user with no password (URL_CREDENTIALS).
  if (buf[i] === 0x40 && i - end >= MIN_URL_TOKEN_USER) return true;
  // A user that is a mail address (URL_CREDENTIALS: `smtp://alerts@acme.io:<password>@`).
  if (buf[i] === 0x40) for (i++; i < lineEnd && buf[i] !== 0x3a && buf[i] !== 0x2f && buf[i] !== 0x40 && !isBlank(buf[i]); ) i++;
  if (buf[i] !== 0x3a) return false;
  // A password may start with an unencoded `@` (URL_CREDENTIALS).
  if (buf[++i] === 0x40) i++;
  const from = i;
  while (i < lineEnd && buf[i] !== 0x40 && buf[i] !== 0x2f && !isBlank(buf[i])) i++;
  return i > from && buf[i] === 0x40;
}

/** The shortest URL user taken for a token (URL_CREDENTIALS' second form: `https://<token>@host`). */
const MIN_URL_TOKEN_USER = 20;

const isBlankCodeUnit = (c: number) => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a || c === 0x0b || c === 0x0c;

/** userinfoAfter on the text (a character past ASCII counts as not blank: weaker than the rule's `\s`). */
function userinfoAfterText(text: string, end: number): boolean {
  let i = end;
  let c = text.charCodeAt(i);
  while (i < text.length && c !== 0x3a && c !== 0x2f && c !== 0x40 && !isBlankCodeUnit(c)) c = text.charCodeAt(++i);
  if (c === 0x40 && i - end >= MIN_URL_TOKEN_USER) return true;
  if (c === 0x40) {
    c = text.charCodeAt(++i);
    while (i < text.length && c !== 0x3a && c !== 0x2f && c !== 0x40 && !isBlankCodeUnit(c)) c = text.charCodeAt(++i);
  }
  if (c !== 0x3a) return false;
  if (text.charCodeAt(++i) === 0x40) i++;
  const from = i;
  c = text.charCodeAt(i);
  while (i < text.length && c !== 0x40 && c !== 0x2f && !isBlankCodeUnit(c)) c = text.charCodeAt(++i);
  return i > from && c === 0x40;
}

/** pgpassAfter on the text, from the port's colon at `colon`. */
function pgpassAfterText(text: string, colon: number): boolean {
  let i = colon + 1;
  if (text.charCodeAt(i) === 0x2a) i++;
  else {
    const from = i;
    while (i < text.length && i - from < 6 && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++;
    if (i === from || i - from > 5) return false;
  }
  for (let field = 0; field < 3; field++) {
    if (text.charCodeAt(i) !== 0x3a) return false;
    if (field === 2) return true;
    const from = ++i;
    while (i < text.length && text.charCodeAt(i) !== 0x3a && !isBlankCodeUnit(text.charCodeAt(i))) i++;
    if (i === from) return false;
  }
  return false;
}

/** The .pgpass rule's shape on bytes, from its port's colon at `colon`: `:(\d{1,5}|\*):[^:\s]+:[^:\s]+:`. */
function pgpassAfter(buf: Buffer, colon: number, lineEnd: number): boolean {
  let i = colon + 1;
  if (buf[i] === 0x2a) i++;
  else {
    const from = i;
    while (i < lineEnd && i - from < 6 && buf[i] >= 0x30 && buf[i] <= 0x39) i++;
    if (i === from || i - from > 5) return false;
  }
  for (let field = 0; field < 3; field++) {
    if (buf[i] !== 0x3a) return false;
    if (field === 2) return true;
    const from = ++i;
    while (i < lineEnd && buf[i] !== 0x3a && !isBlank(buf[i])) i++;
    if (i === from) return false;
  }
  return false;
}

/**
 * scanContextSecrets on raw UTF-8 bytes (a command's output as the PTY delivers it, whole lines:
 * `buf[n - 1]` is a newline), without decoding all of it: one pass over the bytes finds the
 * context keywords; only their lines (and the lines their rule reads after them, and a `data:`
 * block to the end) are decoded and scanned. Returns the values found and their kinds.
 */
export function scanContextSecretsInBytes(buf: Buffer, n: number): { value: string; kind: string }[] {
  passLine = { lineEnd: -1, has: false };
  runFrom = runTo = backFrom = backTo = -1;
  const out: { value: string; kind: string }[] = [];
  const hits = AUTOMATON.hitsInBytes(buf, n);
  const dataStart = dataBlockStart(buf, n);
  const line = new ByteLine(buf);
  let from = -1;
  let to = -1;
  const scan = () => {
    if (from < 0) return;
    // A window with colour codes (`jq .` under a PTY) is read without them (escapes.ts).
    const raw = buf.toString('utf8', from, to);
    const text = plainText(raw);
    for (const f of scanContextSecrets(text)) out.push({ value: text.slice(f.start, f.end), kind: f.kind });
  };
  for (let j = 0; j < hits.length; j += 2) {
    const id = hits[j];
    const need = BYTE_NEED[id];
    if (need === NEED_NOTHING) continue;
    const end = hits[j + 1];
    if (end > dataStart) break; // the data block's window reads from there to the end
    if (end <= to && LINES_AFTER[id] === 0 && NAMES_A_VALUE[id] === 0) continue; // its line is in the window already
    line.of(end);
    // A name on a line in the window already: the lines after it are too, unless another keyword's window ended with the line
    // (`"api_key",` is also an HTTP header's word): then the name's own test may need the rows below (a CSV header's).
    if (end <= to && LINES_AFTER[id] === 0 && to > line.end) continue;
    let lineEnd = line.end;
    if (need !== NEED_WINDOW && !bytesMayMatch(need, buf, end, lineEnd, line)) continue;
    // A line a table's rule follows is a header or a table's last row: the line above tells which (isTableHeader), so the window holds it.
    let lineStart = NAMES_A_VALUE[id] === 1 && afterName(buf, end, lineEnd) !== AFTER_OTHER && line.ruleAfter() ? line.prevStart() : line.start;
    // PostgreSQL's parameters line: its statement is on the lines above.
    for (let up = 0; up < LINES_BEFORE[id] && lineStart > 1; up++) lineStart = buf.lastIndexOf(0x0a, lineStart - 2) + 1;
    // `"secret": true` flags its object's `"value"` on a line above (flaggedObjectValue): the window starts there.
    if (NAMES_A_VALUE[id] === 1 && bytesAre(buf, end, '": true')) for (let up = 0; up < FLAG_LINES_AROUND && lineStart > 1; up++) lineStart = buf.lastIndexOf(0x0a, lineStart - 2) + 1;
    // A name whose value starts on the next line (`password: |`, `"client_secret":` then the value): the rule reads the lines after it.
    // Those tests read the name's tail and a few characters: a longer rest of the line is none of them (and not copied for each name on it).
    const rest = NAMES_A_VALUE[id] === 1 ? (lineEnd - end <= MAX_NAME_REST ? buf.toString('latin1', end, lineEnd) : '\u0000') : '';
    const after =
      NAMES_A_VALUE[id] === 1 && VALUE_ON_NEXT_LINES.test(rest)
        ? MAX_BLOCK_LINES
        : NAMES_A_VALUE[id] === 1 && farName(buf, end, lineEnd, line)
          ? MAX_TABLE_ROWS + 1
          : NAMES_A_VALUE[id] === 1 && (PAIR_NAME_END.test(rest) || VAR_DUMP_KEY_END.test(rest))
            ? PAIR_LINES_AFTER
            : NAMES_A_VALUE[id] === 1 && rest.startsWith('": true')
              ? FLAG_LINES_AROUND
              : NAMES_COOKIE_LIST[id] === 1 && startsCookieList(rest)
                ? COOKIE_LIST_LINES
                : LINES_AFTER[id];
    // A value a fold cut over the lines after its name's (folded-lines.ts): the window holds its pieces.
    const folded = NAMES_A_VALUE[id] === 1 ? foldLinesAfter(buf, line.start, lineEnd, n) : 0;
    for (let a = Math.max(after, folded); a > 0 && lineEnd < n - 1; a--) lineEnd = buf.indexOf(0x0a, lineEnd + 1);
    // A column list over lines (line.sqlAbove; its line may also read as a CSV header), a schema's column (line.createAbove):
    // the window starts at its statement's line.
    if (after === MAX_TABLE_ROWS + 1 && line.sqlAbove(end) >= 0) lineStart = Math.min(lineStart, line.sqlAbove(end));
    if (after === MAX_TABLE_ROWS + 1 && line.createAbove(end) >= 0) lineStart = Math.min(lineStart, line.createAbove(end));
    // A CSV/TSV line's own line above tells whether it is a header or a row under one (FarNames.csvColumn): the window holds it.
    if (after === MAX_TABLE_ROWS + 1 && line.csvHeader()) lineStart = Math.min(lineStart, line.prevStart());
    if (lineStart <= to) {
      // A window that reads lines above its hit (PostgreSQL's parameters) may start before the open one.
      from = Math.min(from, lineStart);
      to = Math.max(to, lineEnd);
    } else {
      scan();
      from = lineStart;
      to = lineEnd;
    }
  }
  if (dataStart < n) {
    if (from < 0 || to < dataStart) {
      scan();
      from = dataStart;
    }
    to = n - 1;
  }
  scan();
  opensslNumbersInBytes(buf, n, out);
  return out;
}

/** The labels that open openssl's private numbers (`openssl rsa -text`'s first, `pkey -text`'s of EC, DSA and EdDSA keys). */
const PRIVATE_NUMBER_MARKS = [Buffer.from('privateExponent:'), Buffer.from('\npriv:')];

/**
 * openssl's private numbers (tool-blocks.ts opensslPrivateNumbers), learned from the raw output: the reply the squasher folds
 * may show their lines without a label (adv57 F49), and only values remembered from the stream find them there. Two byte
 * searches a batch; the numbers' lines from the first label to the batch's end decoded when one is there.
 */
function opensslNumbersInBytes(buf: Buffer, n: number, out: { value: string; kind: string }[]): void {
  let first = -1;
  for (const mark of PRIVATE_NUMBER_MARKS) {
    const i = buf.indexOf(mark);
    if (i >= 0 && i < n && (first < 0 || i < first)) first = i;
  }
  if (first < 0) return;
  const start = first > 0 ? buf.lastIndexOf(0x0a, first - 1) + 1 : 0;
  const text = buf.toString('latin1', start, n);
  const found: SecretFinding[] = [];
  opensslPrivateNumbers(text, found);
  for (const f of found) out.push({ value: text.slice(f.start, f.end), kind: f.kind });
}

/** Where the first `data:` or `stringData:` line (a Kubernetes Secret's data block, secretDataBlocks, stringDataBlocks) of buf[0, n) starts; n if none. */
function dataBlockStart(buf: Buffer, n: number): number {
  // One search for both (`ata:`): a second full search of the batch for `stringData:` cost ~8% of the stream's time.
  for (let i = buf.indexOf(DATA_MARK); i >= 0 && i < n; i = buf.indexOf(DATA_MARK, i + 1)) {
    const lineStart = i > 0 ? buf.lastIndexOf(0x0a, i - 1) + 1 : 0;
    const lineEnd = buf.indexOf(0x0a, i);
    if (lineEnd - lineStart <= MAX_DATA_LINE && /^[ \t]*(?:data|stringData):[ \t]*\r?$/.test(buf.toString('latin1', lineStart, lineEnd))) return lineStart;
  }
  return n;
}

const BACKSLASH = 0x5c;
/** An SGR colour code's text before a run (`\u001b[1m`, `\033[0;33m`, `cat -v`'s `^[[2m`): its escape's spelling, `[`, the numbers. */
// (Rust's Debug writes it `\u{1b}`: adv246 F10.)
const SGR_TEXT_BEFORE = /(?:\\u001[bB]|\\u\{1[bB]\}|\\x1[bB]|\\033|\\e|\^\[|\x1b)\[(?:\d{1,3};){0,4}$/;
/** Characters read back for SGR_TEXT_BEFORE. */
const SGR_LOOKBACK = 24;
/**
 * Where a token run's own text starts after an SGR colour code written as text, which the run begins with (`22m`, `1m` of
 * `\u001b[1mghp_…` in a container's JSON log, `^[[2mxoxb-…` under `cat -v`, `\033[1mglpat-…` under `sed -n l`: adv245 F16–F18).
 */
function afterSgrText(text: string, start: number): number {
  const before = text.charCodeAt(start - 1);
  if (before !== 0x5b && before !== 0x3b) return start;
  let i = start;
  while (i < start + 3 && isDigit(text.charCodeAt(i))) i++;
  if (i === start || text.charCodeAt(i) !== 0x6d) return start;
  return SGR_TEXT_BEFORE.test(text.slice(Math.max(0, start - SGR_LOOKBACK), start)) ? i + 1 : start;
}
/** A JSON string's one-letter escapes of white space (`\n`, `\t`, `\r`, `\b`, `\f`), whose letter a token run starts with. */
const isEscapeLetter = (c: number) => c === 0x6e || c === 0x74 || c === 0x72 || c === 0x62 || c === 0x66;
/** The vendor rules on each token run: those whose keyword the pass found in it, and the keyword-less ones on long runs. */
function vendorFindings(text: string, hits: number[], runs: number[], bytes: Uint8Array, out: SecretFinding[], ownsBytes = false): void {
  // The pass's bytes, until a decoded value's own scan (base64Secret) runs a pass over them (unless they are the caller's own).
  const pass = ownsBytes ? -1 : AUTOMATON.passes;
  const wireguard: DerivationBudget = { left: MAX_DERIVATIONS };
  let h = 0;
  for (let r = 0; r < runs.length; r += 2) {
    // A run after a JSON string's escape (`"created\nghp_…"`, `\tAKIA…`: adv236 F31's `\nnfp_…`) starts after its letter: the
    // token's own start, which every vendor rule reads as its boundary.
    const start = runs[r] > 0 && text.charCodeAt(runs[r] - 1) === BACKSLASH && isEscapeLetter(text.charCodeAt(runs[r])) ? runs[r] + 1 : afterSgrText(text, runs[r]);
    const end = runs[r + 1];
    // Hits are in order of their end; those ending before this run are in no later run either.
    while (h < hits.length && hits[h + 1] <= start) h += 2;
    let rules: Set<VendorRule> | undefined;
    for (let j = h; j < hits.length && hits[j + 1] <= end; j += 2) {
      const k = KEYWORDS[hits[j]];
      if (k.vendor.length > 0 && hits[j + 1] - k.word.length >= start) for (const v of k.vendor) (rules ??= new Set()).add(v);
    }
    let run: string | undefined;
    // (A run shorter than the rest's shortest can hold only the untimed number's token, its 27-character signature last.)
    if (end - start >= MIN_NO_KEYWORD_RUN && (end - start >= MIN_OTHER_NO_KEYWORD_RUN || text.charCodeAt(end - 28) === 0x2e)) {
      const b = pass < 0 || AUTOMATON.passes === pass ? bytes : undefined;
      if (hasTokenSegment(b, text, start, end) && NO_KEYWORD_GATE.test((run ??= text.slice(start, end)))) for (const v of NO_KEYWORD) (rules ??= new Set()).add(v);
      else if (colonPair(b, text, start, end) && COLON_GATE.test((run ??= text.slice(start, end)))) for (const v of COLON_RULES) (rules ??= new Set()).add(v);
    }
    if (rules === undefined && end - start < MIN_BASE64_RUN) continue;
    if (!(rules && vendorRun(run ?? text.slice(start, end), start, rules, out)) && end - start >= MIN_BASE64_RUN) base64Secret(text, pass < 0 || AUTOMATON.passes === pass ? bytes : undefined, start, end, out, wireguard);
  }
}

/** The vendor rules `rules` on one token run at offset `at`: did one match? */
function vendorRun(run: string, at: number, rules: Set<VendorRule>, out: SecretFinding[]): boolean {
  let found = false;
  {
    for (const r of rules) {
      if ((r.runHas !== undefined && !run.includes(r.runHas)) || (r.runMay !== undefined && !r.runMay(run))) continue;
      r.re.lastIndex = 0;
      for (let v = r.re.exec(run); v; v = r.re.exec(run)) {
        const secret = v.groups?.secret;
        const s = at + v.index + (secret !== undefined ? v[0].lastIndexOf(secret) : 0);
        const len = secret !== undefined ? secret.length : v[0].length;
        if (!(r.example ?? isExampleToken)(v[0]) && (r.check === undefined || r.check(v[0]))) {
          out.push({ start: s, end: s + len, kind: r.kind });
          found = true;
        }
        if (v[0].length === 0) r.re.lastIndex++;
      }
    }
  }
  return found;
}

/**
 * The shortest stretch of `[A-Za-z0-9_-]` every token of a rule without a literal holds: a Discord bot token's first part (24),
 * a key-and-secret pair's secret (24); the others' are longer (a NATS seed 58, a Mailgun key 50, a Twilio SID 34, an Ably
 * key's secret 43). A build log's long runs are paths and URLs of short words between `/` and `.`: this test, on the pass's
 * bytes, turns away most before NO_KEYWORD_GATE's search (a tenth of the reply's masking time when every run took it).
 */
const MIN_NO_KEYWORD_SEGMENT = 24;
/** A token segment's characters (`[A-Za-z0-9_-]`), by character code. */
const SEGMENT_CHAR = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-') SEGMENT_CHAR[c.charCodeAt(0)] = 1;

/**
 * Does text[start, end) hold MIN_NO_KEYWORD_SEGMENT segment characters in a row? Read on the pass's low bytes when they are
 * still its (a character past 0xFF may read as one: a test that lets more through, never fewer), else on the text.
 */
function hasTokenSegment(bytes: Uint8Array | undefined, text: string, start: number, end: number): boolean {
  let len = 0;
  for (let i = start; i < end; i++) {
    const c = bytes !== undefined ? bytes[i] : text.charCodeAt(i) & 0xff;
    if (c < 128 && SEGMENT_CHAR[c] === 1) {
      if (++len >= MIN_NO_KEYWORD_SEGMENT) return true;
    } else len = 0;
  }
  return false;
}

/**
 * The fewest segment characters before and after the `:` of a COLON_RULES token: an Ably key's id (6, after its `.`) and
 * a Bitwarden token's secret (22); the others' are longer.
 */
const MIN_BEFORE_COLON = 6;
const MIN_AFTER_COLON = 22;

/**
 * Does text[start, end) hold a `:` with MIN_BEFORE_COLON segment characters before it and MIN_AFTER_COLON after it, base64's
 * `+` and `/` counted after it too (a Bitwarden token's secret is standard base64)? Read as hasTokenSegment reads.
 */
function colonPair(bytes: Uint8Array | undefined, text: string, start: number, end: number): boolean {
  let len = 0;
  let afterColon = false;
  for (let i = start; i < end; i++) {
    const c = bytes !== undefined ? bytes[i] : text.charCodeAt(i) & 0xff;
    if (c < 128 && (SEGMENT_CHAR[c] === 1 || (afterColon && (c === 0x2b || c === 0x2f)))) {
      len++;
      if (afterColon && len >= MIN_AFTER_COLON) return true;
    } else {
      afterColon = c === COLON && len >= MIN_BEFORE_COLON;
      len = 0;
    }
  }
  return false;
}

/** Base64 shorter than this is not decoded (24 characters: 18 bytes, shorter than any token it could hold). */
const MIN_BASE64_RUN = 24;
/**
 * The shortest token of a rule with no literal to look for: an itsdangerous token of a number untimed (31: `MTI.<27>`, attack
 * 323), of an id timed (36: `NDI.<6>.<27>`), or a JSON payload's two parts; an ngrok authtoken is 49 (`2`, 26, `_`, 21), Mailgun's private key 50 (32 hex, two of 8, dashes between), a NATS
 * nkey seed 58 (`S`, its type, 56 base32), Discord's bot tokens 59 and up.
 */
const MIN_NO_KEYWORD_RUN = 31;
/** The shortest token of the other rules with no literal (an itsdangerous token of an id, timed: `NDI.<6>.<27>`). */
const MIN_OTHER_NO_KEYWORD_RUN = 36;

/** Standard base64's alphabet (`A-Za-z0-9+/`), by character code. */
const BASE64_CHAR = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') BASE64_CHAR[c.charCodeAt(0)] = 1;
const COLON = 0x3a;
const EQUALS = 0x3d;

/**
 * Base64 that decodes to a secret (a Kubernetes Secret's `tls.key: LS0tLS1CRUdJTi…`, a docker
 * `auth` blob, an encoded token), in the run text[start, end): its value (after the last `:`,
 * or the last `=` that is not padding) is decoded and scanned; if the decoded text holds a
 * secret the whole encoded value is masked. Most runs are paths and words: one backward walk
 * over the characters rejects them before anything is copied.
 */
function base64Secret(text: string, bytes: Uint8Array | undefined, start: number, end: number, out: SecretFinding[], wireguard: DerivationBudget): void {
  let padEnd = end;
  while (padEnd > start && text.charCodeAt(padEnd - 1) === EQUALS) padEnd--;
  if (end - padEnd > 2) {
    base32Secret(text, start, padEnd, end, out);
    return;
  }
  if (bytes !== undefined && !mayBeBase64(bytes, start, padEnd, end)) return;
  let from = start;
  let lower = false;
  let upper = false;
  let url = false;
  for (let i = padEnd - 1; i >= start; i--) {
    const c = text.charCodeAt(i);
    if (c === COLON || c === EQUALS) {
      from = i + 1;
      break;
    }
    if (c === DASH || c === UNDERSCORE) url = true;
    else if (c >= 128 || BASE64_CHAR[c] === 0) return;
    if (c >= 97 && c <= 122) lower = true;
    else if (c >= 65 && c <= 90) upper = true;
  }
  const len = end - from;
  if (!lower && upper && from === start) {
    base32Secret(text, start, padEnd, end, out);
    return;
  }
  if (len < MIN_BASE64_RUN || !lower || !upper) return;
  // Unpadded or base64url (`-`, `_`): a JSON object's encoding (`eyJ` is `{"`, `ewo` `{\n`: a token's payload, a connection
  // blob in an environment variable: adv56 F32), an env file's (`base64url` of `.env`: adv88 F30). A name or an id with a dash
  // decodes to binary and is dropped below; its first four characters are decoded first, so most cost three bytes.
  if (len % 4 === 1) return;
  if ((len % 4 !== 0 || url) && !printableHead(text, from)) return;
  const raw = Buffer.from(text.slice(from, end), url ? 'base64url' : 'base64');
  const decoded = raw.toString('utf8');
  // Binary (a hash, compressed data) is no credential text; UTF-16LE text is Windows' (below).
  if (!/^[\t\n\r\x20-\x7e]+$/.test(decoded)) {
    if (isKeytab(raw)) out.push({ start: from, end, kind: 'base64 kerberos keytab' });
    else if (isWireguardPrivateBeside(text, raw, from, end, wireguard)) out.push({ start: from, end, kind: 'wireguard private key' });
    else utf16Secret(raw, from, end, out);
    return;
  }
  const inner = /-----BEGIN[ A-Z0-9]*PRIVATE KEY/.test(decoded) ? 'private key' : innerKind(decoded);
  if (!inner) return;
  out.push({ start: from, end, kind: base64Kind(inner) });
}

/**
 * A Kerberos keytab (MIT's format, version 2: `05 02`, then its first entry's size, its principal's component count, its realm's
 * length and the realm in letters: `base64 -w0 http.keytab` for a Kubernetes Secret, pass 226 F40): its keys sign in as the service.
 */
function isKeytab(raw: Buffer): boolean {
  if (raw.length < 32 || raw[0] !== 5 || raw[1] !== 2) return false;
  const size = raw.readInt32BE(2);
  const components = raw.readUInt16BE(6);
  const realm = raw.readUInt16BE(8);
  return size >= 20 && size <= raw.length - 6 && components >= 1 && components <= 8 && realm >= 1 && realm <= 255 && /^[A-Za-z0-9.-]+$/.test(raw.toString('latin1', 10, 10 + realm));
}

/** The name Windows setup appends to a password before it encodes it (unattend.xml's `<Value>`, `<PlainText>false`). */
const UNATTEND_SUFFIX = /^[\x20-\x7e]+(?:AdministratorPassword|Password)$/;

/**
 * Base64 of UTF-16LE text (every odd byte zero): Windows setup's encoded password (unattend.xml's `<Value>`: base64 of the
 * password and `Password` or `AdministratorPassword` in UTF-16LE, seen away from its element in a diff or an extract: adv173 F3,
 * F5), or a PowerShell `-EncodedCommand` that holds a credential (read as the text it is).
 */
function utf16Secret(raw: Buffer, start: number, end: number, out: SecretFinding[]): void {
  if (raw.length < 8 || raw.length % 2 !== 0) return;
  for (let i = 1; i < raw.length; i += 2) if (raw[i] !== 0) return;
  const decoded = raw.toString('utf16le');
  if (!/^[\t\n\r\x20-\x7e]+$/.test(decoded)) return;
  const inner = UNATTEND_SUFFIX.test(decoded) ? 'windows setup password' : innerKind(decoded);
  if (inner) out.push({ start, end, kind: base64Kind(inner), byContext: true });
}

/**
 * base64Secret's walk over the text's low bytes (the pass's): false where the walk over the text returns early. A run is
 * read by both alike up to its first character past ASCII, where the text's walk returns: so a run this turns away is one
 * that walk turns away, and the text is read again only for the few it lets through (a tenth of the reply's masking time
 * was this walk by charCodeAt, over the build log's ~20,000 runs of 24 and more characters).
 */
function mayBeBase64(bytes: Uint8Array, start: number, padEnd: number, end: number): boolean {
  let from = start;
  let seen = 0;
  for (let i = padEnd - 1; i >= start; i--) {
    const f = B64_BYTE[bytes[i]];
    if (f >= B64_STOP) {
      if (f === B64_STOP) return false;
      from = i + 1;
      break;
    }
    seen |= f;
  }
  if (seen === B64_UPPER && from === start) return true; // base32's case (capitals and digits): the text's walk decides
  return end - from >= MIN_BASE64_RUN && (seen & B64_BOTH) === B64_BOTH && (end - from) % 4 !== 1;
}
/** base64's bytes for mayBeBase64's walk, one table read each: a lower-case letter, an upper-case one, another of base64's or base64url's characters, a separator (`:`, `=`) or none. */
const B64_LOWER = 1;
const B64_UPPER = 2;
const B64_BOTH = B64_LOWER | B64_UPPER;
const B64_OTHER = 0;
const B64_STOP = 8;
const B64_SEPARATOR = 9;
const B64_BYTE = new Uint8Array(256).fill(B64_STOP);
for (let c = 0; c < 128; c++) {
  if (c >= 97 && c <= 122) B64_BYTE[c] = B64_LOWER;
  else if (c >= 65 && c <= 90) B64_BYTE[c] = B64_UPPER;
  else if (BASE64_CHAR[c] === 1 || c === 0x2d || c === 0x5f) B64_BYTE[c] = B64_OTHER; // `-`, `_`: base64url
  else if (c === COLON || c === EQUALS) B64_BYTE[c] = B64_SEPARATOR;
}

/** Do the first four characters at `from` (base64 or base64url) decode to three printable characters (a text's start)? */
function printableHead(text: string, from: number): boolean {
  let acc = 0;
  for (let i = from; i < from + 4; i++) {
    const c = text.charCodeAt(i);
    const v = c >= 65 && c <= 90 ? c - 65 : c >= 97 && c <= 122 ? c - 71 : c >= 48 && c <= 57 ? c + 4 : c === 0x2b || c === DASH ? 62 : 63;
    acc = (acc << 6) | v;
  }
  for (let shift = 16; shift >= 0; shift -= 8) {
    const b = (acc >> shift) & 0xff;
    if (!(b >= 0x20 && b <= 0x7e) && b !== 0x0a && b !== 0x09 && b !== 0x0d) return false;
  }
  return true;
}

const DASH = 0x2d;
const UNDERSCORE = 0x5f;
/** RFC 4648's base32 alphabet, by character code: its value plus one (0: not in it). */
const BASE32_VALUE = new Uint8Array(128);
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'].entries()) BASE32_VALUE[c.charCodeAt(0)] = i + 1;

/**
 * Base32 that decodes to a secret (`base32 token.txt`, a TOTP-style export of a config line: adv56 F29): capitals and 2-7
 * only, at least MIN_BASE64_RUN characters, padded to a multiple of eight when padded; decoded with no library (Node has
 * none built in; the alphabet is five lines) and read like base64's (innerKind). A TOTP seed alone decodes to binary: kept.
 */
function base32Secret(text: string, start: number, padEnd: number, end: number, out: SecretFinding[]): void {
  if (padEnd - start < MIN_BASE64_RUN || end - padEnd > 6 || (end > padEnd && (end - start) % 8 !== 0)) return;
  const bytes: number[] = [];
  let acc = 0;
  let bits = 0;
  for (let i = start; i < padEnd; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? BASE32_VALUE[c] : 0;
    if (v === 0) return;
    acc = ((acc << 5) | (v - 1)) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((acc >> bits) & 0xff);
    }
  }
  const decoded = Buffer.from(bytes).toString('latin1');
  if (!/^[\t\n\r\x20-\x7e]+$/.test(decoded)) return;
  const inner = innerKind(decoded);
  if (inner) out.push({ start, end, kind: `base32 ${inner}` });
}

/**
 * Adobe's ASCII85 (`<~…~>`: PostScript, PDF streams, Python's `a85encode(adobe=True)`: adv56 F30) that decodes to a
 * secret: the whole encoded text is masked. Looked for by its opening `<~` only.
 */
function ascii85Secrets(text: string, out: SecretFinding[]): void {
  blocks: for (let at = text.indexOf('<~'); at >= 0; ) {
    const close = text.indexOf('~>', at + 2);
    if (close < 0) return;
    // The last opening before the close (each text between them read once: `<~<~<~…~>` is no quadratic search).
    const i = text.lastIndexOf('<~', close - 2);
    at = text.indexOf('<~', close + 2);
    const body = text.slice(i + 2, close).replace(/\s+/g, '');
    if (body.length < MIN_BASE64_RUN || !/^[!-uz]+$/.test(body)) continue;
    const bytes: number[] = [];
    for (let g = 0; g < body.length; ) {
      if (body[g] === 'z') {
        bytes.push(0, 0, 0, 0);
        g++;
        continue;
      }
      const group = body.slice(g, g + 5);
      g += 5;
      if (group.includes('z') || group.length === 1) continue blocks;
      const padded = group.padEnd(5, 'u');
      let v = 0;
      for (const ch of padded) v = v * 85 + (ch.charCodeAt(0) - 33);
      if (v > 0xffffffff) continue blocks;
      const four = [v >>> 24, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];
      bytes.push(...four.slice(0, group.length - 1));
    }
    const decoded = Buffer.from(bytes).toString('latin1');
    if (!/^[\t\n\r\x20-\x7e]+$/.test(decoded)) continue;
    const inner = innerKind(decoded);
    if (inner) out.push({ start: i, end: close + 2, kind: `ascii85 ${inner}` });
  }
}

/** Shortest line of a wrapped base64 block (`base64` wraps at 76, PEM and `openssl base64` at 64, some tools at 60). */
const MIN_WRAPPED_LINE = 40;

/** Is text[start, end) all standard base64 characters (padding aside)? */
function allBase64(text: string, start: number, end: number): boolean {
  let e = end;
  while (e > start && text.charCodeAt(e - 1) === EQUALS && end - e < 2) e--;
  for (let i = start; i < e; i++) {
    const c = text.charCodeAt(i);
    if (c >= 128 || BASE64_CHAR[c] === 0) return false;
  }
  return true;
}

/** The end of the line at `i` (before a CR). */
function lineEndAt(text: string, i: number): number {
  const nl = text.indexOf('\n', i);
  const e = nl < 0 ? text.length : nl;
  return text.charCodeAt(e - 1) === 0x0d ? e - 1 : e;
}

/**
 * Text written in hex (`python3 -c 'print(open(".env","rb").read().hex())'`, `xxd -p` of a config in one run, a hex-encoded
 * payload in a log: adv65 F30): a run of hex digits, MIN_HEX_TEXT_RUN and up, whose bytes are printable text is decoded and
 * scanned; a finding covers the digits of its characters. A digest's bytes are not text: its run is left at its first byte that
 * is not (most at the first or second).
 */
/** Shortest hash a cracked row starts with (32 hex digits: MD5, NT, LM). */
const CRACKED_HASH_DIGITS = 32;
/** A file's path or name (`reads/S1_R1.fastq`, `notes.txt`): a row of a digest and its file, not a cracked password. */
const FILE_NAME_PLAIN = /\/|^[\w-]+(?:\.[\w-]+)*\.[a-z][a-z0-9]{0,5}$/;
/** A cracked row: its hash (MD5/NT/LM, `$NT$` too), `:`, the password up to the line's end. */
const CRACKED_ROW = /(?:\$NT\$)?(?:[0-9a-f]{32}|[0-9A-F]{32}):(?<plain>[^\r\n]{1,256})\r?(?=\n|$)/y;

/**
 * A password cracker's rows wherever it wrote them (`hashcat -o cracked.out`, then `cat cracked.out`: `<hash>:<password>` a line,
 * adv213 F34; its pot by name is secret-printers'): two such rows one after the other, each masked whole (the NT hash signs in as
 * its user, the password is one). Found from the pass's runs: a row's hash and `:` start a run at its line's start.
 */
function crackedHashRows(text: string, runs: number[], out: SecretFinding[]): void {
  let prevEnd = -2;
  let prev: SecretFinding | undefined;
  for (let r = 0; r < runs.length; r += 2) {
    const start = runs[r];
    if (runs[r + 1] - start <= CRACKED_HASH_DIGITS || (start > 0 && text.charCodeAt(start - 1) !== 0x0a)) continue;
    const colon = text.charCodeAt(start + CRACKED_HASH_DIGITS) === 0x3a ? start + CRACKED_HASH_DIGITS : text.startsWith('$NT$', start) ? start + CRACKED_HASH_DIGITS + 4 : -1;
    if (colon < 0 || text.charCodeAt(colon) !== 0x3a) continue;
    CRACKED_ROW.lastIndex = start;
    const m = CRACKED_ROW.exec(text);
    // (md5sum's `<md5>:<file>` rows, joined by awk: a path or a file's name with its extension is no password: adv219 L1.)
    if (!m || FILE_NAME_PLAIN.test(m.groups!.plain)) continue;
    const row: SecretFinding = { start, end: start + m[0].length - (m[0].endsWith('\r') ? 1 : 0), kind: 'cracked password', byContext: true };
    if (start === prevEnd + 1) {
      if (prev) out.push(prev);
      out.push(row);
      prev = undefined;
    } else prev = row;
    prevEnd = CRACKED_ROW.lastIndex;
  }
}

function hexEncodedText(text: string, runs: number[], out: SecretFinding[]): void {
  for (let r = 0; r < runs.length; r += 2) {
    const start = runs[r];
    const end = runs[r + 1];
    // A shorter run, a line of its own, may be a password's hex under its name (`client_secret:` over perl's `unpack("H*")`, an
    // 18-character password's 36 digits: adv110 F01, F04, F06); read for a name only (encodedValueKind, below).
    const short = end - start < MIN_HEX_TEXT_RUN;
    if (short && end - start < MIN_NAMED_HEX_RUN) continue;
    const whole = wholeHexLine(text, start, end);
    if (short && !whole) continue;
    // `xxd -p` wraps its digits at 60 (30 bytes a line, adv95 F15): a whole line of hex digits and the lines of its width below
    // it (the last may be shorter: too short for a run of its own) are one text, its name on one line and its value on the next.
    const lines = whole ? hexLinesFrom(text, start, end) : undefined;
    if (lines) while (r + 2 < runs.length && runs[r + 2] < lines[lines.length - 1]) r += 2;
    const decoded = hexText(text, lines ?? [start, end], short ? MIN_NAMED_HEX_RUN : MIN_HEX_TEXT_RUN);
    if (decoded === undefined) continue;
    const found = short && !lines ? [] : scanSecrets(decoded.text);
    // A made word under a secret's name (`aws_secret_access_key (hex):` above `xxd -p`'s line: adv107 F03), whole.
    if (found.length === 0) {
      const kind = encodedValueKind(text, start, lines?.[lines.length - 1] ?? end, decoded.text, columnKind, true);
      if (kind !== undefined) found.push({ start: 0, end: decoded.text.length, kind, byContext: true });
    }
    for (const f of found) {
      // A finding's digits, line by line (its bytes' first digits are decoded.at).
      for (let b = f.start; b < f.end; ) {
        let e = b + 1;
        while (e < f.end && decoded.at[e] === decoded.at[e - 1] + 2) e++;
        out.push({ start: decoded.at[b], end: decoded.at[e - 1] + 2, kind: `hex ${f.kind}`, byContext: f.byContext });
        b = e;
      }
    }
  }
}

/** Is [start, end) a whole line of an even count of hex digits? */
function wholeHexLine(text: string, start: number, end: number): boolean {
  if ((end - start) % 2 !== 0 || (start > 0 && text.charCodeAt(start - 1) !== 0x0a) || lineEndAt(text, end) !== end) return false;
  for (let i = start; i < end; i++) if (HEX_VALUE[text.charCodeAt(i)] === undefined) return false;
  return true;
}

/** Lines of hex digits in a block this many at most (a megabyte of a dump is read a block at a time, each on its own). */
const MAX_HEX_LINES = 64;

/**
 * The whole hex line [start, end) and the lines below it of its width, then one shorter (`xxd -p`'s last): their spans as
 * start, end pairs; undefined when no line below continues it.
 */
function hexLinesFrom(text: string, start: number, end: number): number[] | undefined {
  const width = end - start;
  const spans = [start, end];
  for (let e = end; spans.length < 2 * MAX_HEX_LINES; ) {
    const next = text.charCodeAt(e) === 0x0d ? e + 2 : e + 1;
    if (next >= text.length || text.charCodeAt(next - 1) !== 0x0a) break;
    let i = next;
    while (i < next + width && HEX_VALUE[text.charCodeAt(i)] !== undefined) i++;
    if (i === next || lineEndAt(text, next) !== i || (i - next) % 2 !== 0) break;
    spans.push(next, i);
    if (i - next < width) break;
    e = i;
  }
  return spans.length > 2 ? spans : undefined;
}

/**
 * The bytes the hex digits in `spans` (start, end pairs) write, when they are text: printable, or binary with a long printable
 * stretch (a frame's payload); with each byte's first digit's offset. Undefined for a digest's or a key's bytes, or digits that end early.
 */
function hexText(text: string, spans: number[], minDigits: number): { text: string; at: number[] } | undefined {
  let decoded = '';
  const at: number[] = [];
  // The printable stretch being read, the longest read, and whether a byte that is not text was met.
  let stretch = 0;
  let longest = 0;
  let binary = false;
  let left = 0;
  for (let s = 0; s < spans.length; s += 2) left += spans[s + 1] - spans[s];
  for (let s = 0; s < spans.length; s += 2) {
    const end = spans[s + 1];
    let i = spans[s];
    for (; i + 1 < end; i += 2, left -= 2) {
      const hi = HEX_VALUE[text.charCodeAt(i)] ?? 255;
      const lo = HEX_VALUE[text.charCodeAt(i + 1)] ?? 255;
      if (hi > 15 || lo > 15) return undefined;
      const b = hi * 16 + lo;
      at.push(i);
      if ((b >= 0x20 && b < 0x7f) || b === 0x09) {
        decoded += String.fromCharCode(b);
        if (++stretch > longest) longest = stretch;
        continue;
      }
      if (b === 0x0a || b === 0x0d) {
        decoded += String.fromCharCode(b);
        stretch = 0;
        continue;
      }
      // A binary frame's byte (MessagePack's `\x81\xa5token\xd9\x28ghp_…`, CBOR, a length prefix: adv79 F31) reads as a line
      // break, one character a byte so a finding maps back; a digest's bytes hold no long printable stretch and are left.
      binary = true;
      decoded += '\n';
      stretch = 0;
      // No stretch long enough is left to read (a digest's 32 bytes end here, most within their first half).
      if (longest < MIN_TEXT_IN_BINARY && left / 2 - 1 < MIN_TEXT_IN_BINARY) return undefined;
    }
    if (i + 1 < end) return undefined;
  }
  if (decoded.length * 2 < minDigits || (binary && longest < MIN_TEXT_IN_BINARY)) return undefined;
  return { text: decoded, at };
}
/** Hex digits this many and up may be text written in hex (24 characters: shorter holds no secret worth its decoding). */
const MIN_HEX_TEXT_RUN = 48;
/** Hex digits this many and up, a whole line under a secret's name, may be its value (named-encodings.ts' 10 characters). */
const MIN_NAMED_HEX_RUN = 20;
/**
 * Printable bytes in a row, this many and up, make a binary payload's hex worth reading as text: a token is longer, and random
 * bytes (a digest, a key) rarely hold such a stretch ((95/256)^16, about one in ten million).
 */
const MIN_TEXT_IN_BINARY = 16;
/** Each hex digit's value, by character code (anything else: undefined). */
const HEX_VALUE: number[] = [];
for (const [i, c] of [...'0123456789abcdef'].entries()) HEX_VALUE[c.charCodeAt(0)] = HEX_VALUE[c.toUpperCase().charCodeAt(0)] = i;

/**
 * Base64 wrapped over lines (`base64 ~/.ssh/id_ed25519`, `base64 -w 76 .env`, `openssl base64`): lines of one width
 * (a multiple of 4, MIN_WRAPPED_LINE or more), each a whole token run, then a shorter last line. The block is joined and
 * decoded; when the decoded text holds a private key or a secret (innerKind), every line of the block is masked (one line
 * alone may decode to nothing: the secret is cut across lines). Binary (an image) and plain text stay.
 */
function wrappedBase64(text: string, runs: number[], out: SecretFinding[]): void {
  for (let r = 0; r < runs.length; r += 2) {
    const start = runs[r];
    const width = runs[r + 1] - start;
    // The first line may open a JSON string (GitHub's contents API: `"content": "<60 base64 characters>\n…"`, decoded: adv18 F02).
    if (width < MIN_WRAPPED_LINE || width % 4 !== 0 || (start > 0 && text.charCodeAt(start - 1) !== 0x0a && text.charCodeAt(start - 1) !== 0x22) || lineEndAt(text, start) !== runs[r + 1] || !allBase64(text, start, runs[r + 1])) continue;
    const lines = [[start, runs[r + 1]]];
    let next = r + 2;
    // More lines of the same width, each starting on the line after the last.
    for (; next < runs.length; next += 2) {
      const [ps, pe] = lines[lines.length - 1];
      void ps;
      const s = runs[next];
      const gap = text.charCodeAt(pe) === 0x0d ? 2 : 1;
      if (s !== pe + gap || runs[next + 1] - s !== width || lineEndAt(text, s) !== runs[next + 1] || !allBase64(text, s, runs[next + 1])) break;
      lines.push([s, runs[next + 1]]);
    }
    // A shorter last line (padding and all; it may be too short to be a run).
    const last = lines[lines.length - 1][1];
    const tailStart = last + (text.charCodeAt(last) === 0x0d ? 2 : 1);
    if (tailStart < text.length && text.charCodeAt(tailStart - 1) === 0x0a) {
      const tailEnd = lineEndAt(text, tailStart);
      if (tailEnd > tailStart && tailEnd - tailStart < width && (tailEnd - tailStart) % 4 === 0 && allBase64(text, tailStart, tailEnd)) {
        lines.push([tailStart, tailEnd]);
        if (next < runs.length && runs[next] === tailStart) next += 2;
      }
    }
    r = next - 2;
    if (lines.length < 2) continue;
    const bytes = Buffer.from(lines.map(([a, b]) => text.slice(a, b)).join(''), 'base64');
    if (width === PEM_WIDTH && armourlessKeyBody(text, lines, bytes)) {
      for (const [a, b] of lines) out.push({ start: a, end: b, kind: 'private key', byContext: true });
      continue;
    }
    const decoded = bytes.toString('utf8');
    if (!/^[\t\n\r\x20-\x7e]+$/.test(decoded)) continue;
    const inner = /-----BEGIN[ A-Z0-9]*PRIVATE KEY/.test(decoded) ? 'private key' : innerKind(decoded);
    if (!inner) continue;
    // Remembered for the session, each line (byContext): a later read of the block's last line alone (`cThoVDNM…Cg==`, the value's tail) is masked.
    for (const [a, b] of lines) out.push({ start: a, end: b, kind: base64Kind(inner), byContext: true });
  }
}

/** PEM's line width (RFC 7468): a key's and a certificate's body lines, `openssl base64`'s. */
const PEM_WIDTH = 64;
/** Full lines of a PEM body, at least, for a block with no armour to be read as a key's. */
const MIN_ARMOURLESS_KEY_LINES = 3;
/** A printable run this long in the bytes says text or a certificate's names or dates (a UTCTime is 13; 240 random bytes hold a run of 12 about once in 600, of 10 once in 100: session 19 measured a five-line window of a key left visible so 15 times in 2,000). */
const MAX_PRINTABLE_IN_KEY = 12;
/** Lines above and below a block where an armour line (`-----BEGIN …`, `-----END …`) makes it that armour's, not a bare key's. */
const ARMOUR_NEAR_LINES = 3;

/**
 * Lines from the middle of a private key with no armour in view (`sed -n 10,14p key.pem`, a file whose name says nothing: closing
 * measures 83 and 85): three or more full lines of PEM's 64 columns whose bytes are random (no printable run of
 * MAX_PRINTABLE_IN_KEY: a certificate's middle holds names, URLs and dates), not a whole DER object (`MI…`: bareKeyBodies reads a
 * key's), and no armour line near (a certificate's, a PGP message's stay; a private key's armour is privateKeyBlocks'). Random
 * bytes printed at 64 columns (`openssl rand -base64 300`, `openssl enc -a`) are masked too: no context tells them apart.
 */
function armourlessKeyBody(text: string, lines: number[][], bytes: Buffer): boolean {
  if (lines.filter(([a, b]) => b - a === PEM_WIDTH).length < MIN_ARMOURLESS_KEY_LINES || text.startsWith('MI', lines[0][0])) return false;
  // Base64 of random bytes mixes cases on every line; hex (`docker ps -q --no-trunc`'s 64-digit ids one a line: pass 82) does not.
  const first = text.slice(lines[0][0], lines[0][1]);
  if (!/[A-Z]/.test(first) || !/[a-z]/.test(first)) return false;
  let run = 0;
  for (const b of bytes) {
    run = b >= 0x20 && b < 0x7f ? run + 1 : 0;
    if (run >= MAX_PRINTABLE_IN_KEY) return false;
  }
  // The lines around the block: an armour line there makes it that armour's.
  let above = lines[0][0];
  for (let n = 0; n < ARMOUR_NEAR_LINES && above > 0; n++) above = text.lastIndexOf('\n', above - 2) + 1;
  let below = lines[lines.length - 1][1];
  for (let n = 0; n < ARMOUR_NEAR_LINES && below >= 0 && below < text.length; n++) below = text.indexOf('\n', below + 1);
  const around = text.slice(above, lines[0][0]) + text.slice(lines[lines.length - 1][1], below < 0 ? text.length : below);
  return !around.includes('-----');
}

/** A table's header with a column named TOKEN (`kubeadm token list`: `TOKEN   TTL   EXPIRES   USAGES …`): what is before the column. */
const TOKEN_HEADER = /(?<before>(?:[^\n]*?[ \t]{2,})?)TOKEN(?=[ \t]{2,}\S|[ \t]*\r?$)/y;
/** A bootstrap token (`[a-z0-9]{6}.[a-z0-9]{16}`, kubeadm's documented form) at the start of a cell. */
const BOOTSTRAP_TOKEN_CELL = /^[a-z0-9]{6}\.[a-z0-9]{16}(?=[ \t]|\r?$)/;

/**
 * `kubeadm token list`: the cells under a TOKEN column that hold a bootstrap token, on the rows after the header up to a
 * blank line. By its column, never by the shape alone: bundlers name assets the same way (`vendor.3f9a0c1e2b4d5f6a.js`).
 */
function tokenTableRows(text: string, out: SecretFinding[]): void {
  // The line of the last TOKEN looked at, and its header's column (-1: none): a line is read once, however many TOKENs it holds
  // (a megabyte line of them, each walked back to the line's start, took 35 s).
  let lineStart = -1;
  let lineEnd = -1;
  let headerColumn = -1;
  for (let i = text.indexOf('TOKEN'); i >= 0; i = text.indexOf('TOKEN', i + 5)) {
    if (i >= lineEnd) {
      lineStart = text.lastIndexOf('\n', i) + 1;
      const nl = text.indexOf('\n', i);
      lineEnd = nl < 0 ? text.length : nl;
      // A column's name: at the line's start or after 2+ blanks, then 2+ blanks or the line's end (`GITHUB_TOKEN=…` is none).
      TOKEN_HEADER.lastIndex = lineStart;
      const m = TOKEN_HEADER.exec(text);
      headerColumn = m && m.index === lineStart ? m.groups!.before.length : -1;
    }
    if (i - lineStart !== headerColumn) continue;
    const column = headerColumn;
    for (let at = text.indexOf('\n', i) + 1; at > 0 && at < text.length; ) {
      const nl = text.indexOf('\n', at);
      const end = nl < 0 ? text.length : nl;
      if (/^[ \t\r]*$/.test(text.slice(at, end))) break;
      const cell = BOOTSTRAP_TOKEN_CELL.exec(text.slice(at + column, end));
      if (cell) out.push({ start: at + column, end: at + column + cell[0].length, kind: 'kubeadm bootstrap token', byContext: true });
      at = end + 1;
    }
  }
}

/** What secret a decoded text holds, if any: a vendor token, else a value its context rules find. */
function innerKind(decoded: string): string | undefined {
  // (A Basic credential's `user:password` is shorter than a token may be: `deployer:Spring36!` is 24 characters of base64.)
  if (decoded.length < MIN_RUN) return BASIC_PAIR.test(decoded) && !RELAY_GLOBAL_ID.test(decoded) && !ELASTIC_CLOUD_ID.test(decoded) ? 'basic auth credential' : undefined;
  // A store's macaroon (`snapcraft export-login -`: base64 of `{"t":"u1-macaroon","v":{"r":"…"}}`: adv90 F44), or one alone in
  // its own serialization (`001clocation login.ubuntu.com\n0026identifier …`).
  if (MACAROON.test(decoded)) return 'macaroon';
  // cloudflared's tunnel token (`cloudflared tunnel token <name>`: base64 of `{"a":<account>,"t":<tunnel id>,"s":<secret>}`: adv93 F09).
  if (CLOUDFLARED_TOKEN.test(decoded)) return 'tunnel token';
  // A wallet's recovery phrase encoded (`basenc --base64url backup/recovery.txt`: adv201 F04).
  if (decoded.length >= MIN_DECODED_PHRASE_CHARS && decoded.length <= MAX_DECODED_PHRASE_CHARS && isPhraseText(decoded)) return 'seed phrase';
  const found: SecretFinding[] = [];
  const { hits, runs, bytes } = AUTOMATON.pass(decoded, MIN_RUN);
  vendorFindings(decoded, hits, runs, bytes, found);
  // A credential named by its key (`aws_secret_access_key = …` of a credentials file, `"password": …`) in the decoded text too.
  if (found.length === 0) contextFindings(decoded, hits, found);
  // A Basic credential's `user:password` with nothing around it (`echo -n 'deploy-bot:…' | base64`, `openssl enc -base64`: adv76
  // F23), the password made (a digit, a letter, and a symbol or both cases).
  if (found.length === 0 && BASIC_PAIR.test(decoded) && !RELAY_GLOBAL_ID.test(decoded) && !ELASTIC_CLOUD_ID.test(decoded)) return 'basic auth credential';
  // An API key as Basic's user with no password (`printf '%s:' "$WRITE_KEY" | base64`: Segment's, Stripe's, Mailchimp's way;
  // adv158 F19), a minted word.
  const keyAsUser = found.length === 0 ? BASIC_KEY_AS_USER.exec(decoded) : null;
  if (keyAsUser && mintedWord(keyAsUser[1])) return 'basic auth credential';
  return found[0]?.kind;
}

/** A phrase's length in characters: 12 words of 3 letters and blanks, 24 of 8. */
const MIN_DECODED_PHRASE_CHARS = 47;
const MAX_DECODED_PHRASE_CHARS = 240;
/** A cloudflared tunnel token's JSON: account tag, tunnel id, then its secret. */
const CLOUDFLARED_TOKEN = /^\{"a":"[0-9a-f]{32}","t":"[0-9a-f-]{36}","s":"/;
/** A macaroon's JSON wrapper (Snapcraft's, Charmcraft's) or its v1 serialization's first packet. */
const MACAROON = /"t"[ \t]*:[ \t]*"u1-macaroon"|^00[0-9a-f]{2}location /;

/**
 * A GraphQL Relay global id decoded: its type's name, a colon and the object's UUID or number (Saleor's `Order:<uuid>`,
 * `base64("Checkout:…")` in every `"id"`: adv147 F49), no user's password.
 */
const RELAY_GLOBAL_ID = /^[A-Z][A-Za-z]{1,63}:(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d{1,20})\n?$/;
/** An Elastic Cloud id decoded (`cloud.id: "<name>:<base64>"`: the host, its port, then the Elasticsearch and Kibana ids: pass 225 L17). */
const ELASTIC_CLOUD_ID = /^[\w.-]{1,253}:\d{1,5}\$[0-9a-f]{32}(?:\$[0-9a-f]{32}){1,2}\n?$/;
/** A key alone before a colon (Basic's user, the password empty). */
const BASIC_KEY_AS_USER = /^([A-Za-z0-9_.-]{16,256}):\n?$/;
/** `user:password` alone, the password 8 characters and up with a digit and a letter and a symbol or letters of both cases. */
const BASIC_PAIR = /^[\w.@+-]{1,64}:(?=[^\s:]*\d)(?=[^\s:]*[A-Za-z])(?=[^\s:]*[^\sA-Za-z\d:]|[^\s:]*[a-z][^\s:]*[A-Z]|[^\s:]*[A-Z][^\s:]*[a-z])[^\s:]{8,128}\n?$/;

/**
 * The context rules where the pass found one of their keywords: the value of a name that holds
 * a secret's word, found from the word; the line rules on each line that holds one of theirs.
 */
function contextFindings(text: string, hits: number[], out: SecretFinding[]): void {
  let lineStart = 0;
  let lineEnd = -1;
  let nameEnd = -1;
  // Values named from afar (a table's header, a SQL column list, an HCL label): made at the first name that needs it
  // (a holder, not a closure: this runs once per window of the stream, and a closure per call cost more than the rule).
  const far: FarHolder = { text, names: undefined, noLineEndBefore: -1, inlineObject: -1, inlineHasSecret: false };
  const on: number[] = [];
  /** By hit rule: the end of the window it last read, when it says (HitRule). */
  let readTo: Map<number, number> | undefined;
  for (let j = 0; j < hits.length; j += 2) {
    const k = KEYWORDS[hits[j]];
    if (k.context.length === 0) continue;
    const end = hits[j + 1];
    if (k.unless) {
      k.unless.lastIndex = end;
      if (k.unless.test(text)) continue;
    }
    // The two byte tests that turn away most hits of build output (a URL without credentials, `:12` of a time), on the text:
    // no line is cut out and no `needs` regex run for them.
    const need = BYTE_NEED[hits[j]];
    if (need === NEED_AT && text.charCodeAt(end) !== 0x25 && !userinfoAfterText(text, end)) continue;
    if (need === NEED_COLONS && text.charCodeAt(end) !== 0x25 && !pgpassAfterText(text, end - 2)) continue;
    for (const r of k.context) {
      if (r === NAME_RULE) {
        // One look per name (`DB_PASSWORD_TOKEN` holds two words).
        // And none inside a long value read already (`a_token:a_token:…` over a megabyte line: each name's value ran to the line's
        // end, 40 s a megabyte): what a name there would read is a piece of that value, masked or kept with it.
        if (end > nameEnd) {
          longValueEnd = -1;
          nameEnd = namedValue(text, end - k.word.length, end, out, far);
          if (longValueEnd > nameEnd) nameEnd = longValueEnd;
        }
        continue;
      }
      const atHit = HIT_RULES.get(r);
      if (atHit) {
        // A hit inside what its rule read at an earlier hit (a line of Datadog's endpoints' names) is read already.
        if (readTo !== undefined && end < (readTo.get(r) ?? -1)) continue;
        const to = atHit(text, end, out);
        if (typeof to === 'number') (readTo ??= new Map()).set(r, to);
        continue;
      }
      if (r === COMPOSER_RULE) {
        // `"bearer": {…}` (the other sections' names end in a name's word: namedValue).
        if (text.charCodeAt(end) === 0x22 && text.charCodeAt(end - 7) === 0x22) composerSection(text, end + 1, out);
        continue;
      }
      if (end > lineEnd) {
        if (on.length) lineRules(text, lineStart, lineEnd, on, out);
        on.length = 0;
        lineStart = text.lastIndexOf('\n', end - 1) + 1;
        const nl = text.indexOf('\n', end - 1);
        lineEnd = nl < 0 ? text.length : nl;
      }
      if (!on.includes(r)) on.push(r);
    }
  }
  if (on.length) lineRules(text, lineStart, lineEnd, on, out);
}

/**
 * A code rule that reads from its keyword's hit, given the text and the hit's end; it may return where what it read ends, and a
 * later hit of its words before that is not read again.
 */
type HitRule = (text: string, end: number, out: SecretFinding[]) => number | void;
/** The code rules that read from their keyword's hit (context rules numbered after LINE_RULES). */
const HIT_RULES = new Map<number, HitRule>([
  [TERRAFORM_RULE, sensitiveValue],
  [PUTTY_RULE, puttyPrivateLines],
  [HAR_RULE, harHeaderValue],
  [NEXT_LINE_RULE, nextLineValue],
  // `"cookies": [` (the hit is `cookie`: a list's name goes on with `s`).
  // Or a header's list (`'set-cookie': [`: the hit's `s` is set-'s).
  [COOKIE_LIST_RULE, (text, end, out) => (text.charCodeAt(end) === 0x73 || (text.charCodeAt(end - 10) | 0x20) === 0x73 ? cookieListValues(text, end, out, isCookieSetting) : undefined)],
  [API_KEYS_RULE, apiKeysBlock],
  [PARAMETERS_RULE, (text, end, out) => postgresParameters(text, end, isSecretName, out)],
  [RANDOM_PASSWORD_RULE, randomPasswordResult],
  // `aws apigateway get-api-keys --include-values` (adv12 A22): the key's `"value"` comes before its `"name"`.
  [STAGE_KEYS_RULE, flaggedObjectValue],
  [SECRET_OBJECT_RULE, secretObjectValue],
  [VAULT_DATA_RULE, vaultSecretData],
  [BOUND_PARAMS_RULE, (text, end, out) => boundParams(text, end, columnKind, out)],
  [EF_PARAMS_RULE, (text, end, out) => efCoreParams(text, end, columnKind, out)],
  [PROXMOX_TOKEN_RULE, proxmoxTokenValue],
  [SMTP_PASSWORD_RULE, smtpPasswordLine],
  [STRACE_AUTH_LOGIN_RULE, straceAuthLoginAnswer],
  [CLOUDFLARE_TUNNEL_RULE, cloudflareTunnelSecret],
  [CARD_NUMBER_RULE, cardNumberAt],
  [PAN_RULE, (text, end, out) => panFieldAt(text, end, 3, out)],
  [CCNUM_RULE, (text, end, out) => panFieldAt(text, end, text.charCodeAt(end - 6) === 0x63 ? 6 : 5, out)],
  [MEMCACHED_RULE, (text, end, out) => memcachedValue(text, end, columnKind, out)],
  [ZABBIX_LOGIN_RULE, zabbixSession],
  [ADDITIONAL_ENDPOINTS_RULE, additionalEndpointKeys],
  [XTRACE_STDIN_RULE, xtraceStdinValue],
  [ARGV_LINE_RULE, argvLineCredential],
  [SECRET_PAYLOAD_RULE, secretPayloadData],
  [SECRET_SECTION_RULE, secretSectionEntries],
  [SVN_SIMPLE_RULE, svnSimplePassword],
  [RUBY_COOKIE_RULE, rubyCookieValue],
  [P4_LOGIN_RULE, p4LoginTicket],
  [STEAM_CONNECT_CACHE_RULE, steamConnectCache],
  [AWS_KEY_PAIR_RULE, awsSecretBelowId],
  [WRAPPED_JWT_RULE, wrappedJwtRest],
  [REGISTERED_USERS_RULE, registeredUsersPasswords],
  [KEY_BESIDE_USER_RULE, keyBesideUser],
  [CODEPUSH_TABLE_RULE, codePushKeys],
  [STREAM_KEY_RULE, streamKeyBesideServer],
  [RECOVERY_LIST_RULE, recoveryCodeList],
  [PRIVATE_KEY_LIST_RULE, privateKeyList],
  [ACCOUNTS_RULE, hardhatAccounts],
  [SHA1_BELOW_KEY_RULE, sha1BelowKey],
  [HMAC_KEY_FILE_RULE, hmacKeyBelowAlgorithm],
  [HEX_BELOW_LABEL_RULE, hexBelowLabel],
  [EXPECT_SEND_RULE, expectSendValue],
  [LAPS_PRETTY_RULE, lapsPrettyPassword],
  [AUTHORIZATION_LIST_RULE, authorizationListItem],
  [XMLRPC_LOGIN_RULE, xmlRpcLoginPassword],
  [PASSWORD_INPUT_RULE, passwordInputFilled],
  [MASTER_INFO_RULE, masterInfoPassword],
]);

/**
 * The client's answer on a later line (within SMTP_PASSWORD_LINES): the password in base64, alone after a transcript's mark (swaks'
 * ` ~> ` and, without TLS, ` -> `: pass 202 F44; smtplib's `send: '…\r\n'`, `C: `, `> `, or none: openssl s_client): adv116 F40, F41.
 */
const SMTP_ANSWER = /(?:[^\n]{0,256}\n){1,3}?(?:[\w.-]{1,64}[ \t]{1,8}\|[ \t]{0,4})?[ \t]*(?:~> |--> |-> |[^\n]{0,128}>>> |send: b?'|(?:[^\n]{0,256}[ \t])?C: |> |[^\n]{0,160}client in: CONT\t[0-9]{1,10}\t|)(?<v>(?=[A-Za-z0-9+/]{0,511}[0-9+/=]|[A-Za-z0-9+/]{0,511}[A-Z])[A-Za-z0-9+/]{4,512}={0,2})(?:\\r\\n'|\\r|\^M|'|[ \t])*\r?(?=\n|$)/dy;

function smtpPasswordLine(text: string, at: number, out: SecretFinding[]): void {
  // The prompt's own line (`334 UGFzc3dvcmQ6`, `Msg: b'UGFzc3dvcmQ6'`) is skipped: the answer is on a line after it.
  SMTP_ANSWER.lastIndex = at;
  const m = SMTP_ANSWER.exec(text);
  if (!m || m.groups!.v === 'UGFzc3dvcmQ6') return;
  const [start, end] = m.indices!.groups!.v!;
  out.push({ start, end, kind: 'smtp password', byContext: true });
}

/**
 * The client's `AUTH LOGIN` as strace prints a write (`sendto(3, "AUTH LOGIN <user in base64>\r\n", …)`, `write(…)`), then its
 * later writes of base64 alone: smtplib sends the user with the command and the password next, with no `334 UGFzc3dvcmQ6` in
 * view when only the writes are shown (`strace -e trace=sendto`, adv165 F15). Without the user on the command line, the first
 * answer is the user and the second the password.
 */
const STRACE_AUTH_LOGIN = /(?<inline>[ \t]+[A-Za-z0-9+\/]{4,512}={0,2})?\\r\\n"/y;
const STRACE_BASE64_WRITE = /^[^\n"]{0,64}\b(?:sendto|write|send|sendmsg)\([0-9]{1,6},[ \t]*(?:\{msg_name=[^\n"]{0,80}?msg_iov=)?(?:\[\{iov_base=)?"(?<v>[A-Za-z0-9+\/]{4,512}={0,2})\\r\\n"/;

/** A decoded Cloudflare Tunnel token's secret (CLOUDFLARE_TUNNEL_RULE), from its name's hit. */
function cloudflareTunnelSecret(text: string, end: number, out: SecretFinding[]): void {
  if (!TUNNEL_FIELDS_BEFORE.test(text.slice(Math.max(0, end - TUNNEL_FIELDS_CHARS), end))) return;
  TUNNEL_SECRET.lastIndex = end;
  const m = TUNNEL_SECRET.exec(text);
  if (!m) return;
  const start = end + m[0].length - 1 - m.groups!.v.length;
  out.push({ start, end: start + m.groups!.v.length, kind: 'cloudflare tunnel secret', byContext: true });
}

function straceAuthLoginAnswer(text: string, end: number, out: SecretFinding[]): number | void {
  // Only a traced write: the `AUTH LOGIN` opens its quoted buffer.
  if (text.charCodeAt(end - AUTH_LOGIN_WORD.length - 1) !== 0x22) return;
  STRACE_AUTH_LOGIN.lastIndex = end;
  const m = STRACE_AUTH_LOGIN.exec(text);
  if (!m) return;
  let skip = m.groups!.inline ? 0 : 1;
  // Where it has read to is returned: the lines read are not read again for a later hit among them (a megabyte line of them).
  let at = text.indexOf('\n', end);
  if (at < 0) return text.length;
  for (let n = 0; n < STRACE_AUTH_LOGIN_LINES; n++) {
    const next = text.indexOf('\n', at + 1);
    const line = text.slice(at + 1, next < 0 ? text.length : next);
    const w = STRACE_BASE64_WRITE.exec(line);
    if (w && skip-- === 0) {
      const start = at + 1 + line.indexOf(`"${w.groups!.v}`) + 1;
      out.push({ start, end: start + w.groups!.v.length, kind: 'smtp password', byContext: true });
      return start;
    }
    if (next < 0) return text.length;
    at = next;
  }
  return at;
}

/** A column's kind of secret when its name is a secret's (bound-params.ts). */
const columnKind = (name: string): string | undefined => (isSecretName(name) ? kindOfName(name) : undefined);

const PASSWORD_NAME = /pass|pwd/i;
/**
 * A token's or a smart card's PIN by its name (`PKCS11_PIN`, `HSM_USER_PIN`, `LUNA_CO_PIN`, `SIM_PIN`: adv219 F36), whose value is
 * digits as a rule (a number is a look-alike elsewhere); a board's `LED_PIN=13`, `GPIO_PIN` name a pin, no secret.
 */
const HSM_PIN_NAME = /(?:pkcs11|p11|hsm|luna|softhsm|token|(?:^|[_.-])(?:so|co|cu|user|admin|partition|crypto[_-]?officer|crypto[_-]?user)|sim|smartcard|piv|yubikey)[_.-]?pin$/i;
const PIN_DIGITS = /^["']?\d{4,16}["']?$/;
/** A token's module, library or section in the lines above a bare `pin:` (`pkcs11:` then `module: …libsofthsm2.so`: adv236 F15). */
const HSM_SECTION = /pkcs ?#?11|softhsm|cryptoki|(?<![a-z])hsm(?![a-z])|yubi(?:key|hsm)|smart[_ -]?card|(?<![a-z])piv(?![a-z])/i;
/** Characters above a bare `pin` read for its section (a few lines of a YAML or INI section). */
const HSM_SECTION_LOOKBACK = 400;
/** Is the name at text[from] a token's PIN: named so (HSM_PIN_NAME), or a bare `pin` in a token's section? */
const isHsmPin = (name: string, text: string, from: number): boolean =>
  HSM_PIN_NAME.test(name) || (/^pin$/i.test(name) && HSM_SECTION.test(text.slice(Math.max(0, from - HSM_SECTION_LOOKBACK), from)));
/** A diff's old and new words of a name's value (`re`, sticky, at `at`; its `groups`): each the name's, look-alikes aside. Did `re` match? */
function changedWords(text: string, re: RegExp, at: number, groups: readonly string[], name: string, out: SecretFinding[]): boolean {
  re.lastIndex = at;
  const w = re.exec(text);
  if (!w) return false;
  for (const g of groups) {
    const word = w.groups![g];
    if (word === undefined || isLookAlike(word, PASSWORD_NAME.test(name)) || isReference(word)) continue;
    const [start, end] = w.indices!.groups![g]!;
    out.push({ start, end, kind: kindOfName(name), byContext: true });
  }
  return true;
}

/** Word-diff porcelain after a name: its line's end, a `-` and / or a `+` line of one word (quotes aside), then the `~` line. */
const PORCELAIN_WORDS = /[ \t]*\r?\n[-+](?<q>["']?)(?<a>[^\s"']{1,4096})\k<q>\r?\n(?:[-+](?<r>["']?)(?<b>[^\s"']{1,4096})\k<r>\r?\n)?~/dy;
/** A .properties line's continuation (a `\\` ending the line), then the next line's indent. */
const PROPERTIES_CONTINUATION = /\\\r?\n[ \t]*(?=\S)/y;
/**
 * Between a key and its value: `=`, `:`, `=>`, `:=`, after an optional closing quote (escaped inside a JSON string) and
 * an array key's `]`. PHP marks an object's protected and private properties inside the key: var_dump's
 * `["password":protected]=>`, `["password":"App\\User":private]=>`; print_r's `[password:protected] => `, `[password:App\\User:private] => `.
 */
// Or dynaconf's typed listing (`dynaconf list`: `SECRET_KEY<str> '…'`: adv23 F11).
// Ruby's `||=` (`ENV["MATCH_PASSWORD"] ||= "…"` in a Fastfile: adv32 F18); an escaped `=` (Xcode's build log: `export
// PARTNER_API_SECRET\=…`: F16).
// Scala's and Kotlin's map arrow between blanks (`Map(spark.jdbc.password -> …, …)`: adv89 F50).
// R's assignment arrow (`token <- "…"`, `<<-`: pass 179), a blank or a quote after it.
// A quoted-printable mail's `=` is `=3D` (`password=3D …` of a mailed account: adv48 F24), read so when a blank follows.
// A note of the value's size or encoding in parentheses (`signing_key (32 bytes): 48:52:…`, `api_key (base64) = …`: adv95 F17).
// A C array's declarator (`char pass[] = "…"`, `WIFI_PASSWORD[64] = "…"` of an Arduino sketch: pass 238 S20, S21).
const SEPARATOR = /(?:[ \t]?\((?:\d{1,5}[ \t]?(?:bytes?|bits?|chars?|characters)|hex|base64(?:url)?|b64|utf-?8|ascii|pem|der|raw|plain(?:text)?|hidden|encoded|decoded)\))?(?:\\{0,15}["'])?(?::(?:"[\w\\]{1,256}":|[\w\\]{1,256}:)?(?:protected|private)(?=\]))?(?:\[[\w+]{0,32}\])?\]?[ \t]*(?:=>|:=|\|\|=|=3D(?=[ \t])|(?<=[ \t])->(?=[ \t])|(?<=[\w"' \t])<<?-(?=[ \t"'])|\\?[:=：])[ \t]*|<(?:str|int|float|bool|list|dict)>[ \t]+/y;
/** The value right after a separator: quoted, or up to whitespace, a quote, `,` `;` `}` `]`. */
const VALUE_AT = new RegExp(
  [
    // Grafana's ini quotes a value holding `#` or `;` in three quotes (`password = """…"""`: adv36 F05).
    `"""(?<triple>[^\\n]{1,4096}?)"""`,
    // …and TOML's multi-line string, the value on the lines below its opening quotes (`client_secret = """` then `…"""`: adv41 F45).
    `"""\\r?\\n(?<tripleBelow>[^"]{1,4096}?)"""`,
    // …or TOML's literal one, in three single quotes (`password = '''` then the value: adv50 F15).
    `'''\\r?\\n(?<literalBelow>[^']{1,4096}?)'''`,
    // A JSON string (escapes included: a JSON document in a string, `"SecretString": "{\"password\": …}"`, is masked whole).
    `"(?<quoted>(?:[^"\\\\\\n]|\\\\.){1,8192})"`,
    `'(?<single>[^'\\n]{1,8192})'`,
    // Bash's ANSI-C quoting (`direnv export bash`: `export DB_PASSWORD=$'fEshA\\'AYJR pE6h';`: adv18 F18).
    `\\$'(?<ansi>(?:[^'\\\\\\n]|\\\\.){1,8192})'`,
    // A C string's define inside Python's repr of a single-quoted string (configparser's `'-DWIFI_PASS=\\'"…"\\''` of a
    // platformio.ini's build_flags: pass 184 F41).
    `\\\\'"(?<pyrepr>[^"'\\\\\\n]{1,2048})"\\\\'`,
    // Inside a JSON string: `\"password\":\"…\"`.
    `\\\\"(?<escaped>(?:[^"\\\\\\n]|\\\\[^"\\n]){1,2048})\\\\"`,
    // …and inside a JSON string inside another (an SQS message's body encoded twice: `\\\"password\\\":\\\"…\\\"`: adv88), a
    // value without backslashes between the escaped quotes.
    `\\\\{3,15}"(?<deep>[^"\\\\\\n]{1,2048})\\\\{3,15}"`,
    KEY_VALUE_VALUE,
  ].join('|'),
  'y',
);

/** The line rules `on` (indexes of LINE_RULES, or COOKIE_RULE) on one line at `offset`. */
/** Lines a command continued with `\` is read over at most (FreeIPA's or a container's install line: a dozen options). */
const MAX_COMMAND_CONTINUED_LINES = 8;

/**
 * The line at [lineStart, lineEnd) and, when it ends in a shell's `\` continuation, the lines it goes on to, each `\` and line
 * break read as blanks (the same length: offsets stay): a command's option on a later line than its name (`ipa-server-install
 * \` then `  -p …`: adv93). Its end.
 */
function continuedLine(text: string, lineEnd: number): number {
  let end = lineEnd;
  for (let n = 0; n < MAX_COMMAND_CONTINUED_LINES && end < text.length; n++) {
    const cr = text.charCodeAt(end - 1) === 0x0d ? 1 : 0;
    if (text.charCodeAt(end - 1 - cr) !== 0x5c || text.charCodeAt(end - 2 - cr) === 0x5c) break;
    const nl = text.indexOf('\n', end + 1);
    end = nl < 0 ? text.length : nl;
  }
  return end;
}
/** A shell's line continuation: `\`, maybe a CR, a line break. */
const CONTINUATION = /\\(\r?)\n/g;

function lineRules(text: string, lineStart: number, lineEnd: number, on: number[], out: SecretFinding[]): void {
  const end = continuedLine(text, lineEnd);
  const line = end === lineEnd ? text.slice(lineStart, lineEnd) : text.slice(lineStart, end).replace(CONTINUATION, (_, cr: string) => (cr ? '   ' : '  '));
  for (const r of on) {
    const rule = LINE_RULES[r];
    if (r === COOKIE_RULE) cookies(line, lineStart, out);
    else if (!rule.needs || rule.needs.test(line)) {
      const found = out.length;
      apply(rule, line, lineStart, out, rule.wordsNotOnHeader && isTableHeader(text, lineStart, lineEnd) ? HEADER_WORD : undefined);
      if (rule.wrapsIntoRows && out.length > found) wrappedCells(text, lineEnd, out[out.length - 1].kind, out);
    }
  }
}

/** A row below a table's row whose label cell is empty, one cell after it (the wrapped rest of a value): `|      | …xyz |`. */
const WRAPPED_ROW = /\n(?<row>[│║┃|][ \t]+[│║┃|][ \t]*(?<piece>[^\s│║┃|]+)[ \t]*[│║┃|][ \t]*\r?)(?=\n|$)/dy;
/** Rows a wrapped value goes on in (an 86-character secret in a 40-column cell takes three). */
const MAX_WRAPPED_ROWS = 8;

/** The pieces of a value a table wrapped into the rows after the row ending at `lineEnd` (ContextRule.wrapsIntoRows). */
function wrappedCells(text: string, lineEnd: number, kind: string, out: SecretFinding[]): void {
  let at = lineEnd;
  for (let n = 0; n < MAX_WRAPPED_ROWS; n++) {
    WRAPPED_ROW.lastIndex = at;
    const m = WRAPPED_ROW.exec(text);
    if (!m) return;
    const [start, end] = m.indices!.groups!.piece!;
    out.push({ start, end, kind, byContext: true });
    at = WRAPPED_ROW.lastIndex;
  }
}

/** A table header's cell that is a title, not a value (ContextRule.wordsNotOnHeader). */
const HEADER_WORD = /^[A-Za-z][A-Za-z ()_-]*$/;

/** A name's characters (`DB_PASSWORD`, `client.secret`, `api-key`), by character code. */
const NAME_CHAR = new Uint8Array(128);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-') NAME_CHAR[c.charCodeAt(0)] = 1;
const isNameChar = (c: number) => c < 128 && NAME_CHAR[c] === 1;

/** A deployment environment's name after a secret's name (`_PRODUCTION`, `-staging`, `_CI`): an upper-case one, or a lower-case one after `_`/`-`. */
const ENVIRONMENT_SUFFIX = /(?<=[A-Za-z])(?:[_-](?:PRODUCTION|PROD|STAGING|STAGE|DEVELOPMENT|DEV|TEST|TESTING|CI|LOCAL|QA|UAT|PREVIEW|LIVE|SANDBOX)|[_-](?:production|prod|staging|stage|development|dev|test|testing|ci|local|qa|uat|preview|live|sandbox))$/;
/** `_OVERWRITE` / `_OVERRIDE` after a name (a value set in place of a generated one). */
const OVERRIDE_SUFFIX = /(?<=[A-Za-z])[_-](?:OVERWRITE|OVERRIDE|overwrite|override)$/;
/** Azure's key fields, camelCase as its CLI prints them: `primaryKey`, `secondaryMasterKey`, `primaryReadonlyMasterKey`, `key1`. */
const AZURE_KEY_NAME = /^(?:(?:primary|secondary)(?:Readonly)?(?:Master)?Key|key[12])$/;

/** Is `name` (a key, a constant, an element) a secret's name: `DB_PASSWORD`, `apiKey`, not `max_tokens`, `primary_key`? */
export function isSecretName(name: string): boolean {
  const known = SECRET_NAME_ANSWERS.get(name);
  if (known !== undefined) return known;
  const answer = secretNameAnswer(name);
  if (SECRET_NAME_ANSWERS.size >= MAX_NAME_ANSWERS) SECRET_NAME_ANSWERS.clear();
  // Its own copy as the key: a slice of a reply would keep the whole reply alive while it is cached.
  SECRET_NAME_ANSWERS.set(name.length < MIN_SLICED ? name : (name + ' ').slice(0, -1), answer);
  return answer;
}
/**
 * isSecretName's answers by name: a text names the same few settings on many lines (a log, a table's rows, a hostile megabyte
 * of one name), and each answer is some 40 patterns' tests.
 */
const SECRET_NAME_ANSWERS = new Map<string, boolean>();
/** Answers kept at most (then all forgotten: names are short, so ~0.5 MB at most). */
const MAX_NAME_ANSWERS = 4096;
/** V8 makes a slice this long or longer a view of its parent string (shorter ones are copies). */
const MIN_SLICED = 13;

function secretNameAnswer(name: string): boolean {
  // nginx's upstream directives (`proxy_pass http://shop_v2;`, `fastcgi_pass unix:…`: adv253 L5), no password.
  if (/^(?:proxy|fastcgi|uwsgi|scgi|grpc|memcached)_pass$/i.test(name)) return false;
  // Ory Kratos' and Hydra's secrets as environment (`SECRETS_DEFAULT`, `SECRETS_COOKIE`, `SECRETS_CIPHER`, `SECRETS_SYSTEM`: adv253 F44).
  if (/^SECRETS_(?:DEFAULT|COOKIE|CIPHER|SYSTEM|PAGINATION)(?:_\d+)?$/.test(name)) return true;
  // git's `user.signingkey` as .gitconfig writes it: a GPG key's id or fingerprint, or an SSH public key (adv84 L05).
  if (name === 'signingkey' || name === 'user.signingkey') return false;
  // AWS' idempotency token, camelCase in its APIs and documents (an IoT shadow's `"clientToken": "<uuid>"`, EC2's `ClientToken`:
  // pass 278 L25); Vault's `client_token` (snake case) is a credential.
  if (name === 'clientToken' || name === 'ClientToken') return false;
  // A session's id in camelCase (an agent transcript's `"sessionId": "<uuid>"` on every line, Langfuse's traces, SSM's
  // `SessionId`: pass 285 L1, L21): an identifier; the cookie `sessionid` (Django's) and `SESSIONID` stay secrets' names.
  if (name === 'sessionId' || name === 'SessionId') return false;
  // himalaya's TOML (`backend.auth.raw = "…"`, `imap.passwd.raw`: the password itself, as against `.cmd`: pass 259 F5).
  if (/(?:^|[._])(?:auth|passwd|password)\.raw$/i.test(name)) return true;
  // A word ending in `pat` (`compat`, `incompat`), no personal access token's name (NAME_WORDS' `pat`).
  if (/[a-z]pat$|COMPAT$/.test(name)) return false;
  // A basic auth's `user:password` as one setting (Prefect's `PREFECT_SERVER_API_AUTH_STRING = "admin:…"`: adv142 E5).
  if (/(?:^|[_.-])auth[_.-]?string$/i.test(name)) return true;
  // .NET's strong names (`PublicKeyToken=b77a5c561934e089` in web.config, machine.config: adv145 F09, L07): a public key's hash.
  if (/^publickeytoken$/i.test(name)) return false;
  // Azure's keys (`az redis list-keys`, `az cosmosdb keys list`, `az cognitiveservices account keys list`: adv13 B01, B02), which
  // the database words (`primary_key`) and a bare `key` would keep.
  if (AZURE_KEY_NAME.test(name)) return true;
  // A Wi-Fi pre-shared key under a program's name for it (`static const uint8_t wifi_psk[] = {72, 117, …}`: adv69).
  if (/(?:^|[_.-])psk$/i.test(name)) return true;
  // A password's `PW` run into the word before it (kamctlrc's `DBRWPW=`, a game server's `CS2_RCONPW`, `ADMINPW`: blind passes 215
  // F11, 217 F18), in one case; a game server's `RemoteSecurityKey` (pass 217 F38).
  // (Not a radio's transmit power, `BLE_TXPW`: adv219 L10.) Its camelCase too (`RconPw`, `AdminPW`, `adminPw`: adv219 F31; not `maxPw`, a power).
  // A second one numbered (`adminPw2`: adv236 F50).
  if (/(?:^|_)(?![TR]X)[A-Z][A-Z0-9]{1,15}PW\d?$|(?:^|_)(?![tr]x)[a-z][a-z0-9]{1,15}pw\d?$|^(?![TtRr]x|[Mm](?:ax|in)P)[A-Za-z][a-z0-9]{1,15}P[Ww]\d?$/.test(name) || /(?:^|[a-z_.-])security[_.-]?key$/i.test(name)) return true;
  // An HSM's or a smart card's PIN, its role's too (Luna's `coPin`, PKCS#11's `soPin`, `userPin`: pass 218 F39), camelCase as
  // much as `LUNA_CO_PIN`: one list with the digits' exception (HSM_PIN_NAME).
  if (HSM_PIN_NAME.test(name)) return true;
  // A SCEP payload's challenge password (`Challenge` in a .mobileconfig, `challengePassword`: pass 229 F14); WebAuthn's and PKCE's
  // challenges are nonces, written lower-case or after `code_`.
  if (/^Challenge$|scep[_-]?challenge|^challenge[_-]?password$/i.test(name) && !/^challenge$/.test(name)) return true;
  // PKCE's code verifier (`"code_verifier": "…"` in a token request's JSON: adv236 F20): the secret half of the pair; the
  // challenge derived from it is public. FileVault's `RecoveryKey` in `fdesetup -outputplist` (F41).
  if (/^code[_-]?verifier$|^(?:personal)?recovery[_-]?key$/i.test(name)) return true;
  // Payment gateways' API keys by their own names: Authorize.Net's `transactionKey` (camelCase in its XML and JSON: pass 237 S34),
  // a `merchantKey`; Paddle Classic's `vendor_auth_code` (S13), a key, no OAuth code. Not EBICS' `<TransactionKey>` (L27): the
  // order's key encrypted for the bank, as it travels.
  if (/^(?:transaction|merchant)Key$/.test(name) || /vendor[_-]?auth[_-]?code$/i.test(name)) return true;
  // GitLab's key bases (`db_key_base`, `otp_key_base`, `encrypted_settings_key_base` of gitlab-secrets.json: adv246 F39).
  if (/(?:^|_)(?:db|otp|encrypted_settings|openid_connect_signing)_key_base$/i.test(name)) return true;
  // Steamworks' encrypted app ticket key (`k_rgubEncryptedAppTicketKey`: pass 239 F5), PlayFab's `SessionTicket` (F12); Z-Stack's
  // trust center link key seed (`tclk_seed` of a Zigbee coordinator's backup: pass 238 S13), Thread's `PSKc` (S40).
  // (Not Jira's `ticketKey`, `ticket_key`: an issue's key, `PLAT-14160`: adv245 L6.)
  if (/app[_-]?ticket[_-]?key$|^session[_-]?ticket$|(?:^|_)tclk(?:[_-]?seed)?$|^pskc$/i.test(name)) return true;
  // SAP Commerce's initial passwords by user (`initialpassword.admin=…` in local.properties: pass 221 F24).
  if (/^initialpassword\.[\w-]{1,64}$/i.test(name)) return true;
  // Grafana's datasource headers (`secureJsonData: httpHeaderValue1: Bearer …`: adv16 D16): an encrypted field by design.
  if (/^httpHeaderValue\d{0,2}$/.test(name)) return true;
  // Vercel's Deployment Protection bypass secret (`x-vercel-protection-bypass` header, `VERCEL_AUTOMATION_BYPASS_SECRET`: adv32
  // F39): `bypass` alone names a switch.
  if (/^x-vercel-protection-bypass$/i.test(name)) return true;
  // Rails' Active Record encryption keys (`ACTIVE_RECORD_ENCRYPTION_PRIMARY_KEY`, a chart's `activeRecordEncryption.primaryKey`:
  // adv35 F18): a primary key here is a key, not a table's column.
  if (/encryption[_.-]?primary[_.-]?key$/i.test(name)) return true;
  // The Gradle Plugin Portal's API key (`gradle.publish.key`, beside its `gradle.publish.secret`: adv118 F30): not PubNub's publish key.
  if (/^gradle[_.-]publish[_.-]key$/i.test(name)) return true;
  // An Ansible task's registered result printed by `debug` (`db_secret.stdout`, its `stdout_lines`: adv120 F19): the name without it.
  if (/[a-z]\.stdout(?:_lines)?$/i.test(name)) name = name.replace(/\.stdout(?:_lines)?$/i, '');
  // A secret written in an encoding its name says (`pin_hex`, `token_b64`, `password_base64`: adv48 F30; `SESSION_SECRET_B36`,
  // `_b32`, `_b58`: adv102 F09): the name without it.
  if (/[a-z][_.-](?:hex|b(?:32|36|58|62|64|85)|base(?:32|36|58|62|64|85)|encoded)$/i.test(name)) name = name.replace(/[_.-](?:hex|b(?:32|36|58|62|64|85)|base(?:32|36|58|62|64|85)|encoded)$/i, '');
  // A secret's name with its encoding after it, camelCase (Graph's Windows LAPS `passwordBase64`: adv197 F33).
  name = name.replace(/(?<=[a-z])(?:Base64|B64|Hex)$/, '');
  // A second one of a kind (`PASSWORD2` beside `PASSWORD` in `az acr credential show`, `token_2`): the name without its number.
  // Or a version of it (`ses_smtp_password_v4`: adv17 F09).
  if (/[a-z][_-]v\d{1,2}$/i.test(name)) name = name.replace(/[_-]v\d{1,2}$/i, '');
  // (Not SIP digest's `ha1`, whose 1 is the name's.)
  if (/[a-z][_-]?\d{1,2}$/i.test(name) && !/(?:^|[_.-])ha1$/i.test(name)) name = name.replace(/[_-]?\d{1,2}$/, '');
  // One of a kind per environment (dotenvx's `DOTENV_PRIVATE_KEY_PRODUCTION`, `API_TOKEN_STAGING`: adv15 D12): the name without it.
  name = name.replace(ENVIRONMENT_SUFFIX, '');
  // A setting that replaces a generated one (Flowise's `FLOWISE_SECRETKEY_OVERWRITE`: adv99 F42): the name before the word.
  name = name.replace(OVERRIDE_SUFFIX, '');
  // .NET's configuration sections in environment variables (`Jwt__Key`, `Smtp__Password`: adv16 D02): `__` is the section's `:`.
  if (name.includes('__')) name = name.replace(/__+/g, '_');
  if (name.length === 0 || name.length > 81 || !/^[A-Za-z_]/.test(name) || !SECRET_NAME.test(name)) return false;
  // An environment variable named `…SYNC_TOKEN` is a sync service's credential (`SYNC_TOKEN => …` in `launchctl print`: adv46
  // F12); a `syncToken` / `next_sync_token` in an API's JSON is a page's cursor (NOT_SECRET_NAME).
  if (/^[A-Z][A-Z0-9]*_?SYNC_TOKEN$|^SYNC_TOKEN$/.test(name)) return true;
  // AWS's `ClientToken` is an idempotency token, Vault's `client_token` a credential: told apart by the spelling.
  if (name === 'ClientToken') return false;
  return !NOT_SECRET_NAME.test(name) && !NOT_SECRET_KEY_NAME.test(name.replace(/[.-]/g, '_').replace(/([a-z])([A-Z])/g, '$1_$2'));
}

/** A namespace prefix's characters at most (`wsse:`, `soapenv:`, `ns2:`) read back from a name for its element's `<`. */
const MAX_XML_PREFIX = 24;
/** An element's attributes' characters at most, read on to its tag's `>`. */
const MAX_XML_ATTRIBUTES = 512;

/**
 * Where the opening tag of the element named [k, e) ends (its `>`), or -1 when the name opens no element: `<name>`, `<ns:name>`,
 * `<name attr="…">` (a self-closing `<name … />` holds no text).
 */
function elementTagEnd(text: string, k: number, e: number): number {
  let lt = k - 1;
  if (lt >= 0 && text.charCodeAt(lt) === 0x3a) {
    lt--;
    while (lt >= 0 && k - lt <= MAX_XML_PREFIX && isNameChar(text.charCodeAt(lt))) lt--;
    if (lt === k - 2) return -1;
  }
  if (lt < 0 || text.charCodeAt(lt) !== 0x3c) return -1;
  const c = text.charCodeAt(e);
  if (c === 0x3e) return e;
  if (c !== 0x20 && c !== 0x09) return -1;
  for (let i = e + 1; i < text.length && i - e <= MAX_XML_ATTRIBUTES; i++) {
    const a = text.charCodeAt(i);
    if (a === 0x3e) return text.charCodeAt(i - 1) === 0x2f ? -1 : i;
    if (a === 0x3c || a === 0x0a) return -1;
  }
  return -1;
}

/** After an element's `<Name>`: blanks, a line break, then a `<Value>` child's text. */
// Under grep's prefix (`grep -n -A1 '<Password>'`: `7-` before the value's line) or diff's mark (`-`, `+`, a blank: adv173 F3, F5).
// (The blanks before the line break are the group's: two runs of blanks side by side split a run of n blanks n ways, n² in all —
// `<password>` then 30,000 blanks took 0.8 s, 60,000 3.6 s: session 48's blank-run sweep, on `<sessionid>`.)
const NESTED_XML_VALUE = /(?:[ \t]*\r?\n(?:[^\s<:]{1,256}[-:])?(?:\d{1,9}[-:])?[-+ ]?)?[ \t]*<Value>(?<v>[^<>\n]{1,4096})<\/Value>/dy;
/**
 * An XML element's text after `<name>`, up to its closing tag (`<password>…</password>`: Maven, Jenkins, Tomcat), or its CDATA
 * section's (Magento 1's `app/etc/local.xml`: `<password><![CDATA[…]]></password>`, `<key><![CDATA[…]]></key>`: pass 243 F37).
 */
const XML_VALUE_AT = /(?:<!\[CDATA\[(?<cdata>[^\]\n]{1,2048})\]\]>|(?<secret>[^<>\n]{1,2048}))<\//y;
/** `<![CDATA[`'s characters before a CDATA value. */
const CDATA_OPEN = 9;
/** `auth` alone names a switch (`auth: true`) as often as a credential: its value counts when it is base64 of `user:password` (docker's `auth`, in YAML as in JSON). */
const BARE_AUTH = /^auth$/i;

/**
 * The value of the name around text[from, to) (a secret's word: `pass`, `token`, `key`) when
 * the name is a secret's (`NAME=value`, `"name": "value"`, `name: value`, `name => value`,
 * `<name>value</name>`): the name is widened to its characters both ways, and must be followed
 * by a separator (or be an element). Returns the name's end (the caller looks at each name once).
 */
/** Characters either side of a name read for its inline object's braces (a TOML inline table, a one-line JSON object). */
const MAX_INLINE_OBJECT = 512;
/** A field's name in an inline object (`password = `, `"password": `, `password: `, `:password =>`), group n. */
const INLINE_FIELD_NAME = /[{,][ \t]*:?["']?(?<n>[A-Za-z_][\w-]{0,63})["']?[ \t]*(?:=>?|:)/g;

/**
 * Is the name at [k, e) a field of an object opened on its own line (`{` before it, no `}` between) that has another field named
 * as a secret's (`password`, `token`)? The object is read to its `}` on the line, MAX_INLINE_OBJECT characters either side, once
 * per object (far.inlineObject: a line of a thousand `key = …` fields reads its object once).
 */
function secretSiblingInline(text: string, k: number, e: number, far: FarHolder, sign: (name: string) => boolean = namesSecret): boolean {
  // Only the default question's answer is kept per object (another question reads the object again: a rarer case).
  const cached = sign === namesSecret;
  let open = -1;
  for (let i = k - 1; i >= 0 && k - i <= MAX_INLINE_OBJECT; i--) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x7d) return false;
    // A call's keyword arguments are an object too for another question (bioblend's `GalaxyInstance(url='…', key='…')`).
    if (c === 0x7b || (!cached && c === 0x28)) {
      open = i;
      break;
    }
  }
  if (open < 0) return false;
  if (cached && far.inlineObject === open) return far.inlineHasSecret;
  let close = e;
  while (close < text.length && close - e <= MAX_INLINE_OBJECT && text.charCodeAt(close) !== 0x0a && text.charCodeAt(close) !== 0x7d) close++;
  // (Its fields read as an object's: the `(` as its `{`.)
  const object = text.charCodeAt(open) === 0x28 ? `{${text.slice(open + 1, close)}` : text.slice(open, close);
  let found = false;
  INLINE_FIELD_NAME.lastIndex = 0;
  for (let f = INLINE_FIELD_NAME.exec(object); f && !found; f = INLINE_FIELD_NAME.exec(object)) found = sign(f.groups!.n);
  if (!cached) return found;
  far.inlineObject = open;
  far.inlineHasSecret = found;
  return found;
}

/** Names that hold a public value in the shapes publicByName knows. */
const PUBLIC_BY_SHAPE = /^(?:salt|signature|token)$/i;
/** A CREATE2 salt's value (`0x` and 32 bytes in hex). */
const HEX_SALT_VALUE = /^["']?0x[0-9a-fA-F]{64}(?![0-9a-fA-F])/;
/** A Solana transaction's signature (64 bytes in base58: 86-88 characters). */
const BASE58_SIGNATURE = /^["']?[1-9A-HJ-NP-Za-km-z]{86,88}(?![A-Za-z0-9])/;
/** A KDF's parameter beside its salt (scrypt's and PBKDF2's, as a V3 keystore's `kdfparams` holds them). */
const namesKdfParameter = (n: string) => /^(?:dklen|n|r|p|c|prf|iterations|rounds)$/i.test(n);

/** Is the salt or signature named at text[k, e), its value at `at`, one of the public ones (PUBLIC_BY_SHAPE)? */
function publicByName(text: string, k: number, e: number, at: number): boolean {
  const value = text.slice(at, at + 96);
  const name = text.slice(k, e).toLowerCase();
  if (name === 'token') return MAILGUN_TOKEN.test(value) && mailgunSignature(text, k);
  if (name === 'signature') return BASE58_SIGNATURE.test(value) || (MAILGUN_SIGNATURE.test(value) && mailgunSignature(text, k));
  // A handshake's salt beside its challenge (obs-websocket's Hello: `"authentication":{"challenge":"…","salt":"…"}`: pass 239 L23),
  // both sent in the clear for the client to answer.
  if (CHALLENGE_BESIDE.test(text.slice(Math.max(0, k - KDF_NEAR_CHARS), k + KDF_NEAR_CHARS))) return true;
  return HEX_SALT_VALUE.test(value) || (/^["']?[0-9a-fA-F]{32,128}["']?/.test(value) && (secretSiblingLines(text, k, namesKdfParameter) || KDF_NEAR.test(text.slice(Math.max(0, k - KDF_NEAR_CHARS), k + KDF_NEAR_CHARS))));
}
/** A challenge in base64 beside a salt (publicByName). */
const CHALLENGE_BESIDE = /"challenge"[ \t]*:[ \t]*"[A-Za-z0-9+/]{16,128}={0,2}"/;
/**
 * A KDF's own words near a salt (`dklen`, `kdfparams`), read either side of it, whatever stands between (jq's colours: the
 * stream reads a PTY's raw bytes, its windows may begin at the salt's line, below its object's opening; the reply read it whole,
 * the stream learnt the salt and masked the reply by it: adv161 F8).
 */
const KDF_NEAR = /\b(?:dklen|kdfparams)\b/;
const KDF_NEAR_CHARS = 320;
/**
 * A Mailgun webhook's `signature` object (adv165 L26): `"token"` (50 hex, a nonce made for each event), `"timestamp"` and
 * `"signature"` (the HMAC of the two, 64 hex), which the receiver checks with its own signing key: public, in every payload.
 */
const MAILGUN_TOKEN = /^["']?[0-9a-f]{50}["']?(?![0-9a-f])/;
const MAILGUN_SIGNATURE = /^["']?[0-9a-f]{64}["']?(?![0-9a-f])/;
const MAILGUN_NEAR_CHARS = 200;
const MAILGUN_TIMESTAMP = /"timestamp"[ \t]*:[ \t]*"?[0-9]{10}\b/;
function mailgunSignature(text: string, k: number): boolean {
  const near = text.slice(Math.max(0, k - MAILGUN_NEAR_CHARS), k + MAILGUN_NEAR_CHARS);
  return MAILGUN_TIMESTAMP.test(near) && near.includes('"token"') && near.includes('"signature"');
}

/**
 * How a listing marks each line before its text: a diff's `+`, `-` or ` `; grep's `N:`, `N-`, `file:N:`, `file-N-` (a `key:`
 * beside its `url:` in a `git log -p` hunk or under grep -A: adv189 F45, adv186 F3). Each sticky, read at a line's start.
 */
// (A normal diff's `< ` and `> ` too: adv194 F51; grep -r's `file-` without line numbers: F52, its name holding a `/` or `.`.)
const LINE_MARKS = [/[+ -]|[<>] /y, /(?:[^\s:]{1,256}[-:])?\d{1,9}[-:]/y, /[^\s:/.-]{0,128}(?:[/.][^\s:/.-]{1,128}){1,8}[-:]/y];
/** A line mark's longest (grep's file name, its line number, two separators). */
const MAX_LINE_MARK = 268;
/** The line mark that fills [its line's start, at) exactly, and that start; undefined when none does (or no line starts near). */
function lineMarkBefore(text: string, at: number): { lineStart: number; mark: RegExp } | undefined {
  let lineStart = at;
  while (lineStart > 0 && at - lineStart <= MAX_LINE_MARK && text.charCodeAt(lineStart - 1) !== 0x0a) lineStart--;
  if (lineStart > 0 && text.charCodeAt(lineStart - 1) !== 0x0a) return undefined;
  for (const mark of LINE_MARKS) {
    mark.lastIndex = lineStart;
    if (mark.test(text) && mark.lastIndex === at) return { lineStart, mark };
  }
  return undefined;
}
/** Where a line starting at `at` has its text after `mark` (none: `at`); -1 when the line lacks the mark (the listing ended). */
function afterMark(text: string, at: number, mark: RegExp | undefined): number {
  if (!mark) return at;
  mark.lastIndex = at;
  return mark.test(text) ? mark.lastIndex : -1;
}

/** Lines either side of a field read for its siblings (an SDK's client config printed by node's inspect has a handful). */
const MAX_SIBLING_LINES = 8;
/** Deepest indent of a field read for its siblings (a pretty-printer's nesting; deeper is a long line's middle). */
const MAX_SIBLING_INDENT = 64;
/** A field's line: its indent, its name (quoted or not), then `:` or `=`. */
// (print_r's `[name] => value` too: a callback's `[code]` beside its `[state]`, attack 323.)
const SIBLING_FIELD = /(?<ind>[ \t]*)(?:["']?(?<n>[A-Za-z_][\w.-]{0,63})["']?[ \t]*[:=]|\[(?<p>[A-Za-z_][\w.-]{0,63})\][ \t]*=>)/y;

/**
 * Is the name at k, first on its line, a field of a multi-line object (node's inspect, pretty JSON, YAML: `key: '…'` then
 * `secret: '…'` on the next line: Dwolla's client config, adv149 F13) with a sibling field named as a secret's? The siblings are
 * the lines at its indent up and down to a line indented less (the object's opening, ending `{` or `:`, above).
 */
function secretSiblingLines(text: string, k: number, sign: (name: string) => boolean = namesSecret): boolean {
  // Back over the indent only (a field first on its line is indented a few blanks; a name far along a long line is no field of
  // this kind, and its line's start is not searched for: a megabyte line of `key = 1,` searched back from each took 30 s).
  const quoted = text.charCodeAt(k - 1) === 0x22 || text.charCodeAt(k - 1) === 0x27 || (text.charCodeAt(k - 1) === 0x5b && text.charCodeAt(k - 2) === 0x20) ? 1 : 0;
  let textStart = k - quoted;
  while (textStart > 0 && k - textStart <= MAX_SIBLING_INDENT && (text.charCodeAt(textStart - 1) === 0x20 || text.charCodeAt(textStart - 1) === 0x09)) textStart--;
  let lineStart = textStart;
  let mark: RegExp | undefined;
  if (lineStart > 0 && text.charCodeAt(lineStart - 1) !== 0x0a) {
    // A diff's or grep's mark before the indent: each sibling's line has one too.
    const marked = lineMarkBefore(text, textStart);
    if (!marked) return false;
    ({ lineStart, mark } = marked);
  }
  const indent = k - quoted - textStart;
  if (indent <= 0) return false;
  let opened = false;
  for (let at = lineStart, n = 0; at > 0 && n < MAX_SIBLING_LINES; n++) {
    at = text.lastIndexOf('\n', at - 2) + 1;
    const from = afterMark(text, at, mark);
    if (from < 0) break;
    const side = siblingAt(text, from, indent, sign);
    if (side === true) return true;
    if (side === 'above') {
      const end = text.indexOf('\n', at);
      // (Or print_r's `(` alone on its line, under `Array`.)
      opened = /[{:][ \t]*\r?$|^[ \t]*\([ \t]*\r?$/.test(text.slice(at, end < 0 ? text.length : end).slice(-MAX_INLINE_OBJECT));
      // pprint's and Ruby's pp's object opens with its first field on the line (`{'remote': {'account': 'x',` then the others
      // under it): that field, at the others' column after the `{`, is one of them (pass 329 F35).
      if (!opened && from + indent < (end < 0 ? text.length : end) && text.charCodeAt(from + indent - 1) === 0x7b) {
        SIBLING_FIELD.lastIndex = from + indent;
        const f = SIBLING_FIELD.exec(text);
        if (f && sign(f.groups!.n ?? f.groups!.p)) return true;
        opened = f !== null;
      }
      break;
    }
  }
  if (!opened) return false;
  for (let at = text.indexOf('\n', k) + 1, n = 0; at > 0 && at < text.length && n < MAX_SIBLING_LINES; n++) {
    const from = afterMark(text, at, mark);
    if (from < 0) break;
    const side = siblingAt(text, from, indent, sign);
    if (side === true) return true;
    if (side === 'above') break;
    at = text.indexOf('\n', at) + 1;
  }
  return false;
}

/** A sibling field named as a secret's (not another `key`). */
const namesSecret = (n: string) => !/^key$/i.test(n) && isSecretName(n);
/** A sibling that names a keyed hash's algorithm (`algorithm: 'sha256'` beside `key:` in Akamai EdgeAuth's config: adv162 F14). */
const namesHmacAlgorithm = (n: string) => /^(?:algorithm|alg|hash_?algorithm|hmac_?algorithm|digest)$/i.test(n);
/** A `key` field's value that is a keyed hash's key: 32 hex digits or more (128 bits and up). */
const HEX_KEY_VALUE = /^["']?[ \t]*[:=][ \t]*["']?[0-9a-fA-F]{32,128}(?![\w.-])/;
/**
 * A service's address or an account beside a `key`: an API client's config (`.cdsapirc`'s `url:` then `key:`, `.ecmwfapirc`'s
 * `"url"` and `"email"`, Galaxy's `.parsec.yml`, bioblend's `{ url: …, key: … }`: pass 179) or a test grid's user after its key
 * (adv180). A bare `key` names nothing alone; beside where it is used, in its shape, it is the account's API key.
 */
const namesServiceOrAccount = (n: string) => /^(?:url|uri|api_?url|base_?url|endpoint|server|user|username|email|login)$/i.test(n);
/** A storage account's name beside its `key` (rclone's azureblob and B2 remotes printed by pprint: pass 329 F35). */
const namesAccount = (n: string) => /^account(?:_?name)?$/i.test(n);
/** …whose value then is a key's base64, both cases (a GPG key's fingerprint beside a release account's name is hex: adv333 L13). */
const ACCOUNT_KEY_VALUE = /^["']?[ \t]*[:=][ \t]*["']?(?=[A-Za-z0-9+/]{0,127}[a-z])(?=[A-Za-z0-9+/]{0,127}[A-Z])[A-Za-z0-9+/]{30,128}={0,2}["']?[ \t]*(?:,[ \t]*)?\r?(?:\n|$)/;
/** Before an object's `{`: its name (group p) and `:` or `=>`. */
const NAME_BEFORE_BRACE = /["']?(?<p>[A-Za-z_][\w.-]{0,63})["']?[ \t]*(?::|=>)[ \t]*$/;
/** A file's directory at its line's start, no blank or colon in it (grep -r's prefix before a file's name read as a name). */
const GREP_FILE_PREFIX = /(?:^|\n)[^\s:]{0,256}\/$/;
/** After the prefix's `:`: grep's line number maybe, then a realm's `user: password[,role…]` row. */
const REALM_ROW = /(?:\d{1,9}:)?[ \t]*(?!\d{1,9}:)[^\s:=#]{1,128}[ \t]*[:=][ \t]*(?<v>[^\s,]{1,256}?)(?<!:)(?:,[^\n]*)?\r?$/dmy;
/** Characters above a field read for its object's opening (a few fields). */
const PARENT_LOOKBACK = 256;
/** Is the field at k in an object whose name is a secret's (its `{` within PARENT_LOOKBACK, no other bracket between)? */
function secretParentAbove(text: string, k: number): boolean {
  const from = Math.max(0, k - PARENT_LOOKBACK);
  let i = k - 1;
  for (; i >= from; i--) {
    const c = text.charCodeAt(i);
    if (c === 0x7b) break;
    if (c === 0x7d || c === 0x5b || c === 0x5d) return false;
  }
  if (i < from) return false;
  const p = NAME_BEFORE_BRACE.exec(text.slice(Math.max(0, i - 72), i));
  return p !== null && isSecretName(p.groups!.p);
}
/** A DSN's name (`DATABASE_DSN`, `sentry_dsn`, `MESSENGER_TRANSPORT_DSN`). */
const DSN_NAME = /dsn$/i;
/** A URL without userinfo (no `@`), a port maybe, a path and a query none of whose parameters names a secret. */
const DSN_WITHOUT_CREDENTIALS = /^["']?[a-z][a-z0-9+.-]{0,31}:\/\/[^\s@/?#:]{0,256}(?::\d{1,5})?(?:\/[^\s@?#]{0,256})?(?:\?(?![^\s#]{0,512}(?:pass|pwd|secret|token|key|auth|sig)[\w-]{0,32}=)[^\s@#]{0,512})?["']?$/i;
/** A name whose value is the key of a Secret, not its value (`passwordSecretKey`, `userPasswordKey`, `tokenSecretKeyRef`). */
const KEY_NAMING_NAME = /(?:Key|_key|KeyRef|KeyName|SecretName)$/;
/** kubeseal's ciphertext in base64: the encrypted session key's length in two bytes (256, 384 or 512: RSA-2048 to 4096), then that key, then the data (isSealedCiphertext). */
const SEALED_CIPHERTEXT = /^(?:AQ|AY|Ag)[A-D][A-Za-z0-9+/]{400,}={0,2}$/;
/** AES-GCM's nonce and tag after the session key at least (the data may be empty). */
const SEALED_MIN_TAIL = 16;

/**
 * A SealedSecret's `encryptedData` value (kubeseal's output, safe to commit: pass 207 L3, under `token:` in a diff): its length
 * prefix names an RSA key's size and the bytes after it hold that key and a GCM tail. Read by its structure, not its parent: the
 * byte path reads a window that may not hold `encryptedData:`.
 */
function isSealedCiphertext(value: string): boolean {
  if (!SEALED_CIPHERTEXT.test(value)) return false;
  const bytes = Buffer.from(value, 'base64');
  const keyLength = (bytes[0] << 8) | bytes[1];
  return (keyLength === 256 || keyLength === 384 || keyLength === 512) && bytes.length >= 2 + keyLength + SEALED_MIN_TAIL;
}

/** The line above a YAML field: its indent (group i) and a mapping's name alone (group p), the line's end after its `:`. */
const YAML_PARENT_LINE = /^(?<i>[ \t]*)["']?(?<p>[A-Za-z_][\w.-]{0,63})["']?:[ \t]*\r?$/;
/** Is the field at k, indented, the first of a YAML mapping on the line above whose name is a secret's (`network_key:` then `  key: …`)? */
function secretYamlParentAbove(text: string, k: number): boolean {
  let textStart = k;
  while (textStart > 0 && k - textStart <= MAX_SIBLING_INDENT && (text.charCodeAt(textStart - 1) === 0x20 || text.charCodeAt(textStart - 1) === 0x09)) textStart--;
  if (textStart === k || textStart === 0) return false;
  let lineStart = textStart;
  let mark: RegExp | undefined;
  if (text.charCodeAt(lineStart - 1) !== 0x0a) {
    // A diff's `+` or grep's `N-` before the indent (ESPHome's `encryption:` then `+    key: …` in a diff: pass 184 F40).
    const marked = lineMarkBefore(text, textStart);
    if (!marked || marked.lineStart === 0) return false;
    ({ lineStart, mark } = marked);
  }
  // The line above (in a diff, the line above on the key's side: a `+` line's old `-` lines between are passed over).
  const other = mark && text.charCodeAt(lineStart) === 0x2b ? 0x2d : mark && text.charCodeAt(lineStart) === 0x2d ? 0x2b : -1;
  let above = lineStart;
  for (let n = 0; n < MAX_SIBLING_LINES; n++) {
    const end = above - 1;
    above = end;
    while (above > 0 && end - above <= PARENT_LOOKBACK && text.charCodeAt(above - 1) !== 0x0a) above--;
    if (above > 0 && text.charCodeAt(above - 1) !== 0x0a) return false;
    if (text.charCodeAt(above) !== other || above === 0) break;
  }
  if (text.charCodeAt(above) === other) return false;
  const from = afterMark(text, above, mark);
  if (from < 0) return false;
  const p = YAML_PARENT_LINE.exec(text.slice(from, text.indexOf('\n', from)));
  return p !== null && p.groups!.i.length < k - textStart && (isSecretName(p.groups!.p) || (p.groups!.p === 'encryption' && ESPHOME_KEY.test(text.slice(k, k + ESPHOME_KEY_CHARS))));
}
/** ESPHome's API encryption key under `encryption:` (pass 184 F40): 32 bytes in base64 (`key: "…="`), the line's end after it. */
const ESPHOME_KEY = /^key[ \t]*:[ \t]*["']?[A-Za-z0-9+/]{43}=["']?[ \t]*\r?(?:\n|$)/;
const ESPHOME_KEY_CHARS = 64;
/** An OAuth 1.0 token's id (TOKEN_ID), beside its secret. */
const TOKEN_ID_NAME = /^token[_-]?id$/i;
const namesTokenSecret = (n: string) => /^token[_-]?secret$/i.test(n);
/** Is a field `sign` names beside the `code` at k, in its inline object, on sibling lines or at the top level? */
function oauthSibling(text: string, k: number, e: number, far: FarHolder, sign: (name: string) => boolean): boolean {
  return secretSiblingInline(text, k, e, far, sign) || secretSiblingLines(text, k, sign) || topLevelSibling(text, k, sign);
}
/** An OAuth flow's fields beside its code: a token request's (`grant_type`, `redirect_uri`, `code_verifier`, `client_secret`; snake or camel case). */
const namesOAuthFlow = (n: string) => /^(?:grant_?type|redirect_?uri|code_?verifier|client_?secret)$/i.test(n);
/** A callback's `state` beside its code: a weaker sign (a shipment's or a product's `state` beside its `code`: adv333 L8, L9), so the code must mix cases. */
const namesOAuthState = (n: string) => /^(?:state|session_state)$/.test(n);
/** An OAuth code's mixed cases (a tracking number's `1Z9A4W…` and a SKU's capitals are none). */
const MIXED_CASE_CODE = /^["'\]]?[ \t]*(?:=>|[:=])[ \t]*\[?[ \t]*["']?(?=[\w.~+\/%!*-]{0,1023}[a-z])(?=[\w.~+\/%!*-]{0,1023}[A-Z])/;
/** After a `code` name: its separator, then a minted value (a letter and a digit, 16 characters and up; not an upper-case constant). */
const OAUTH_CODE_VALUE = /^["'\]]?[ \t]*(?:=>|[:=])[ \t]*\[?[ \t]*["']?(?![A-Z][A-Z0-9_]*(?![\w.~+\/%!*-]))(?=[\w.~+\/%!*-]{0,1023}\d)(?=[\w.~+\/%!*-]{0,1023}[A-Za-z])[\w.~+\/%!*-]{16,1024}(?![\w.~+\/%!*-])/;
/** Characters after a `code` name read for OAUTH_CODE_VALUE (its separator's blanks and a long code). */
const OAUTH_CODE_READ = 1100;
/** …or a secret's name, at the top level (OPNsense's API key file: `key=…` then `secret=…`: pass 181 F10). */
const namesServiceOrSecret = (n: string) => namesServiceOrAccount(n) || namesSecret(n);
/**
 * A `key` field's value shaped like an API key: a UUID (after a user's number too: CDS's `704903:<uuid>`), 32-128 hex digits,
 * 16-128 letters and digits holding both, or 32-128 of base64 holding both (OPNsense's `key=`: pass 181 F10).
 */
const API_KEY_SHAPE = String.raw`(?:(?:\d{1,12}:)?[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[0-9a-fA-F]{32,128}|(?=[A-Za-z]{0,127}\d)(?=\d{0,127}[A-Za-z])[A-Za-z0-9]{16,128}|(?=[A-Za-z+/]{0,127}\d)(?=[\d+/]{0,127}[A-Za-z])[A-Za-z0-9+/]{32,128}={0,2})`;
const API_KEY_VALUE = new RegExp(String.raw`^["']?[ \t]*[:=][ \t]*["']?${API_KEY_SHAPE}["']?[ \t]*(?:,[ \t]*)?\r?(?:\n|$)`);
/** An inline object's `key` value (the same shapes, then the object's next field or its end). */
const API_KEY_VALUE_INLINE = new RegExp(String.raw`^["']?[ \t]*[:=][ \t]*["']?${API_KEY_SHAPE}["']?[ \t]*[,})]`);
/** Lines above and below a top-level `key` read for a sibling (a dotfile of a few settings). */
const TOP_LEVEL_SIBLING_LINES = 3;
/** A line longer than this ends the read for siblings (a field's line is short; a long one is no dotfile's). */
const MAX_TOP_LEVEL_LINE = 512;
/** A top-level field's line: its name first (quoted or not), then `:` or `=` (YAML's, TOML's, an ini's). */
const TOP_LEVEL_FIELD = /["']?(?<n>[A-Za-z_][\w.-]{0,63})["']?[ \t]*[:=]/y;

/**
 * Is the name at k, first on its line and not indented, one of a few top-level settings with a sibling `sign` names, up to
 * TOP_LEVEL_SIBLING_LINES lines above or below (a section's `[` line or a blank ends the read)?
 */
function topLevelSibling(text: string, k: number, sign: (name: string) => boolean): boolean {
  let lineStart = text.charCodeAt(k - 1) === 0x22 || text.charCodeAt(k - 1) === 0x27 ? k - 1 : k;
  let mark: RegExp | undefined;
  if (lineStart > 0 && text.charCodeAt(lineStart - 1) !== 0x0a) {
    // A diff's `+` or grep's `N:` before the name: each sibling's line has one too.
    const marked = lineMarkBefore(text, lineStart);
    if (!marked) return false;
    ({ lineStart, mark } = marked);
  }
  const fieldAt = (lineAt: number): boolean | undefined => {
    const at = afterMark(text, lineAt, mark);
    if (at < 0) return undefined;
    const c = text.charCodeAt(at);
    if (c === 0x0a || c === 0x0d || c === 0x5b || Number.isNaN(c)) return undefined;
    TOP_LEVEL_FIELD.lastIndex = at;
    const f = TOP_LEVEL_FIELD.exec(text);
    return f ? sign(f.groups!.n) : false;
  };
  // Above: each line's start, walking back no further than MAX_TOP_LEVEL_LINE.
  for (let at = lineStart, n = 0; at > 0 && n < TOP_LEVEL_SIBLING_LINES; n++) {
    let b = at - 1;
    const stop = Math.max(0, b - MAX_TOP_LEVEL_LINE);
    while (b > stop && text.charCodeAt(b - 1) !== 0x0a) b--;
    if (b > 0 && text.charCodeAt(b - 1) !== 0x0a) break;
    const f = fieldAt(b);
    if (f === undefined) break;
    if (f) return true;
    at = b;
  }
  for (let at = lineStart, n = 0; n < TOP_LEVEL_SIBLING_LINES; n++) {
    const nl = text.indexOf('\n', at);
    if (nl < 0 || nl - at > MAX_TOP_LEVEL_LINE) break;
    at = nl + 1;
    const f = fieldAt(at);
    if (f === undefined) break;
    if (f) return true;
  }
  return false;
}

/** The line at `at` beside a field indented `indent`: a sibling `sign` names (true), a line indented less ('above'), or other. */
function siblingAt(text: string, at: number, indent: number, sign: (name: string) => boolean): boolean | 'above' | undefined {
  SIBLING_FIELD.lastIndex = at;
  const f = SIBLING_FIELD.exec(text);
  let ind = 0;
  while (ind < indent && (text.charCodeAt(at + ind) === 0x20 || text.charCodeAt(at + ind) === 0x09)) ind++;
  if (ind < indent) return text.charCodeAt(at + ind) === 0x0a || text.charCodeAt(at + ind) === 0x0d ? undefined : 'above';
  if (!f || f.groups!.ind.length !== indent) return undefined;
  return sign(f.groups!.n ?? f.groups!.p) ? true : undefined;
}

/** An Elixir or Erlang binary written as its bytes (`<<199, 173, 21, …>>`), eight bytes at least (a token's shortest). */
const BINARY_BYTES = /<<(?<v>\d{1,3}(?:,[ \t]*\d{1,3}){7,8191})>>/dy;
/** print_r's longest value (a WordPress salt is 64 characters). */
const MAX_PRINT_R_VALUE = 4096;
/** print_r's value: the rest of its line (group secret, as VALUE_AT's unquoted value). */
const PRINT_R_VALUE = /(?<secret>\S[^\n]{0,4095}?)[ \t]*\r?(?=\n|$)/y;

/** print_r's nested array or object (`[auth] => Array`, `[client] => Foo\Client Object`): no value on the line. */
const PRINT_R_NESTED = /^(?:Array|[\w\\]{1,256} Object)$/;

/** A PayPal order's id: 17 capitals and digits, `EC-` before them in the classic Express Checkout. */
const PAYPAL_ORDER_ID = /^(?:EC-)?(?=[A-Z]{0,16}\d)(?=\d{0,16}[A-Z])[0-9A-Z]{17}$/;
/** The `<crypt>` element's opening just above a `<key>` (blanks and a line break between), and how far back it is looked for. */
const CRYPT_ELEMENT_ABOVE = /<crypt>[ \t]*\r?\n?[ \t]*<$/;
const CRYPT_LOOKBACK = 64;
/** A SCEP provisioner's type a few lines above (step-ca's `"type": "SCEP"`), and how far above it is looked for. */
const SCEP_ABOVE = /["']?type["']?[ \t]*[:=][ \t]*["']?SCEP\b/i;
const SCEP_LOOKBACK = 256;
/** An unquoted value longer than this is read once: a name inside it is not looked at again (namedValue's caller). */
const MAX_VALUE_RELOOK = 256;
/** Where the long unquoted value namedValue read ends (-1: none): set by namedValue, read by its caller. */
let longValueEnd = -1;

/** A name of a GPG setting, and a key's id (short, long) or fingerprint as GPG prints them. */
const GPG_NAME = /(?:^|[^a-z])(?:gpg|pgp|gnupg)(?:[^a-z]|$)/i;
const GPG_KEY_ID = /^(?:0x)?(?:[0-9A-F]{8}|[0-9A-F]{16}|[0-9A-F]{40}|[0-9a-f]{16}|[0-9a-f]{40})$/;
/** …naming a key or its id or fingerprint, not its passphrase (`GPG_PASSPHRASE=<openssl rand -hex 8>` is a secret: adv263 P1–P3). */
const GPG_ID_NAME = /key|fingerprint|fpr|(?:^|[^a-z])id$/i;
const GPG_SECRET_NAME = /pass|pwd|secret|private|token|pin/i;

function namedValue(text: string, from: number, to: number, out: SecretFinding[], far: FarHolder): number {
  let e = to;
  while (e < text.length && isNameChar(text.charCodeAt(e))) e++;
  let k = from;
  while (k > 0 && isNameChar(text.charCodeAt(k - 1))) k--;
  // An option's dashes are not the name's (`-Dspring.datasource.password=…`, a JVM property on a command line), nor a path's
  // dot after an index (`hostvars[inventory_hostname].vault_db_password`: adv14 C47).
  while (k < from && (text.charCodeAt(k) === 0x2d || text.charCodeAt(k) === 0x2e)) k++;
  // grep's context line's number at the line's start (`grep -A6`: `4-token = …`, adv116 F19) is not the name's.
  if (k < from && isDigit(text.charCodeAt(k)) && (k === 0 || text.charCodeAt(k - 1) === 0x0a)) {
    let d = k;
    while (d < from && isDigit(text.charCodeAt(d))) d++;
    if (text.charCodeAt(d) === 0x2d && d < from) k = d + 1;
  }
  if (e - k === 6 && text.charCodeAt(e) === 0x22 && /^apikey$/i.test(text.slice(k, e))) valueFromName(text, k, e, POSTMAN_API_KEY, out);
  SEPARATOR.lastIndex = e;
  const m = SEPARATOR.exec(text);
  // A scope's `::` (PHP's `JWT::decode(…)` in a stack trace, Rust's `Token::new`: 130 F22), no name's separator.
  if (m && text.charCodeAt(e) === 0x3a && text.charCodeAt(e + 1) === 0x3a) return e;
  // `<password>`; a namespaced one with attributes too (WS-Security's `<wsse:Password Type="…#PasswordText">`: adv95 F41).
  const tagEnd = m ? -1 : elementTagEnd(text, k, e);
  const element = tagEnd >= 0;
  // …but not its `#PasswordDigest` (a SHA-1 of nonce, time and password: no credential, pass 218 L1).
  if (element && text.slice(e, tagEnd).includes('PasswordDigest')) return e;
  // go test's `--- PASS: TestOAuth2Flow (0.00s)`: a test's result, no password's name (adv253 L1).
  if (k >= 4 && text.startsWith('--- ', k - 4) && /^(?:PASS|FAIL|SKIP)$/.test(text.slice(k, e))) return e;
  if (!m && !element) {
    // The name read by an environment call with a literal fallback, no `name =` before it (Elixir's `System.get_env("SECRET_KEY_BASE")
    // ||` with the value on the line below, under grep's numbers: adv252 F14): the fallback.
    if (text.charCodeAt(k - 1) === 0x22 || text.charCodeAt(k - 1) === 0x27) envCallFallback(text, k, e, out);
    pairedValue(text, k, e, out);
    arrayPairValue(text, k, e, out);
    jqStreamLeaf(text, k, e, out);
    jqStreamItem(text, k, e, out);
    optionValueBelow(text, k, e, out);
    bareNameValueBelow(text, k, e, out);
    keyPathValueBelow(text, k, e, out);
    commentedNameValueBelow(text, k, e, out);
    envReadFallbackOfName(text, k, e, out);
    formatCommentRows(text, k, e, out);
    paddedEnvValue(text, k, e, out);
    dotLeaderValue(text, k, e, out);
    spacedQuotedValue(text, k, e, out);
    ednKeywordValue(text, k, e, out);
    if (text.charCodeAt(k - 1) === 0x24) valueFromName(text, k, e, R_PRINTED_ELEMENT, out);
    redisFieldBelow(text, k, e, out);
    expiringTokenBelow(text, k, e, out);
    rNamedVectorValue(text, k, e, out);
    nameValueTableRow(text, k, e, out);
    valueColumnCell(text, k, e, out);
    plistValue(text, k, e, out);
    xmlPropertyValue(text, k, e, out);
    htmlCellValue(text, k, e, out);
    (far.names ??= new FarNames(far.text, NAME_TESTS)).at(k, e, out);
    return e;
  }
  // keytool's and jarsigner's `-storepass:env VAR` / `-keypass:file F` (adv19 K04): where the password is, not a password.
  if (m && text.charCodeAt(k - 1) === 0x2d && /^:(?:env|file)[ \t]/.test(text.slice(e, e + 6))) return e;
  // A URL's user (`https://x-token-auth:<token>@bitbucket.org`: adv39 F20): the URL rule masks its password, up to the host; read
  // as a name, the value ran on over the host.
  if (m && k >= 3 && text.startsWith('://', k - 3)) return e;
  // Bash's `${DB_PASSWORD:?DB_PASSWORD must be set}` (adv48 K01): the message printed when the variable is unset, no value. (A
  // default, `${X:-…}`, may be a value and is read as one.)
  if (m && k >= 2 && text.startsWith('${', k - 2) && text.startsWith(':?', e)) return e;
  // Helm's checksum annotations (`checksum/secret: <sha256>`: adv35 K04): a digest of the Secret's manifest, not a secret.
  if (m && text.startsWith('checksum/', k - 9)) return e;
  // The JMX agent's password file named by grep's prefix (`grep -r Role conf/`: `conf/jmxremote.password:monitorRole  <pw>`): the
  // role after it is no value (the row's password is context-rules' JMX row under a prefix); read as one, every later `monitorRole`
  // was masked (session 34's own attack).
  if (m && m[0] === ':' && JMX_FILE_BEFORE.test(text.slice(Math.max(0, k - 10), e))) return e;
  // A Zabbix user macro's context (`{$MYSQL.PASSWORD:"db01"}`: adv211 F4) is no value: its `value` field is (pairedValue).
  if (m && text.charCodeAt(k - 1) === 0x24 && text.charCodeAt(k - 2) === 0x7b && text.charCodeAt(e) === 0x3a) {
    pairedValue(text, k, e, out);
    return e;
  }
  // A password file named by grep -r's prefix (`config/connect.password:connect-admin: <pw>,admin`: a Jetty realm's
  // `user: password,role` rows, pass 209 F17): its name is the file's, and the row after it holds the password. Any file's name
  // there is no setting's (`config/prod.secret.exs:4:  secret_key_base:` took `secret_key_base:` for a value: pass 208 F33).
  if (m && m[0] === ':' && text.charCodeAt(k - 1) === 0x2f && text.slice(k, e).includes('.') && GREP_FILE_PREFIX.test(text.slice(Math.max(0, k - MAX_LINE_MARK), k))) {
    REALM_ROW.lastIndex = e + 1;
    const row = isSecretName(text.slice(k, e)) ? REALM_ROW.exec(text) : null;
    if (row && !isLookAlike(row.groups!.v, true)) out.push({ start: row.indices!.groups!.v![0], end: row.indices!.groups!.v![1], kind: 'password', byContext: true });
    return e;
  }
  // Public values with a secret's name (adv161 F8, F49, F50): a CREATE2 salt (`"salt": "0x<64 hex>"`, a deployment's), a KDF's
  // salt among its parameters (a V3 keystore's `kdfparams`: `dklen`, `n`, `r`, `p`), a Solana transaction's signature (88 base58).
  if (m && PUBLIC_BY_SHAPE.test(text.slice(k, e)) && publicByName(text, k, e, e + m[0].length)) return e;
  let name = text.slice(k, e);
  // A word of an ARN (`arn:aws:secretsmanager:…:secret:prod/db-AbC`, adv13 L24): a resource's name, no value.
  if (m && text.charCodeAt(k - 1) === 0x3a && /arn:aws[\w-]*:[^\s"']*$/.test(text.slice(Math.max(0, k - 160), k))) return e;
  // A word of IBM Cloud's CRN (`crn:v1:bluemix:public:…:resource-key:<uuid>`: a service key's id, pass 187 L31), as of an ARN.
  if (m && text.charCodeAt(k - 1) === 0x3a && /\bcrn:v1:[^\s"']*$/.test(text.slice(Math.max(0, k - 256), k))) return e;
  // A word of a URN (`grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`, RFC 7523's: 139 F42): a name's part, no value.
  if (m && text.charCodeAt(k - 1) === 0x3a && /\burn:[\w.:-]*$/i.test(text.slice(Math.max(0, k - 160), k))) return e;
  // A signed .rdp file's `signature:s:AQABAAEAAAA…` (a PKCS#7 signature over its `signscope` fields: public; adv173 L27).
  if (m && text.charCodeAt(e) === 0x3a && text.startsWith('s:AQABAAEAAAA', e + 1) && name === 'signature') return e;
  // Cloud Run's `--set-secrets=DB_PASSWORD=db-password:latest` (adv13 B10): names of Secret Manager secrets and versions, no value.
  if (m && /--(?:set|update|remove)-secrets[= ][^\s]*$/.test(text.slice(Math.max(0, k - 256), k))) return e;
  // .NET configuration keys (`dotnet user-secrets list`: `Jwt:Key = …`, adv12 A31): a key under a signing section.
  // A SCEP provisioner's challenge password written lower-case (step-ca's ca.json: `"type": "SCEP"` above `"challenge": "…"`:
  // adv236 F44); WebAuthn's `challenge` is a nonce, and no SCEP is above it.
  if (name === 'challenge' && SCEP_ABOVE.test(text.slice(Math.max(0, k - SCEP_LOOKBACK), k))) name = 'scep_challenge';
  // An OAuth authorization code beside its flow's fields (a token request's `"code"` below `"grant_type"`, mitmproxy's `code:` below
  // `grant_type:`, a callback's `{'code': '…', 'state': '…'}` or print_r's `[code] =>` above `[state] =>`: attack 323): minted, 16
  // characters and up (an error's `"code": "ERR_BAD_REQUEST"`, `"code": 404` beside a job's `state` stay). GitHub's exchange names
  // its `client_secret` beside it (adv333 S2); MSAL's camelCase `redirectUri`, `codeVerifier` (S1).
  else if (name === 'code' && m && OAUTH_CODE_VALUE.test(text.slice(e, e + OAUTH_CODE_READ)) && (oauthSibling(text, k, e, far, namesOAuthFlow) || (MIXED_CASE_CODE.test(text.slice(e, e + OAUTH_CODE_READ)) && oauthSibling(text, k, e, far, namesOAuthState)))) name = 'oauth_code';
  // Kaggle's kaggle.json (adv14 C50): `{"username": "…", "key": "…"}`, an account's key beside its user.
  // Pretty-printed too (`jq . ~/.kaggle/kaggle.json`: `"username"` on the line above: 136 F08).
  if (/^key$/.test(name) && /"username"[ \t]*:[ \t]*"[^"\n]*"[ \t]*,[ \t]*(?:\r?\n[ \t]*)?"$/.test(text.slice(Math.max(0, k - 96), k))) name = 'api_key';
  // rclone.conf's B2 remote (adv15 D42): `account = …` then `key = …`, an account's application key.
  else if (/^key$/.test(name) && /(?:^|\n)account[ \t]*=[ \t]*\S+\r?\n$/.test(text.slice(Math.max(0, k - 128), k))) name = 'api_key';
  // Magento 1's encryption key, an element of `<crypt>` (`<crypt>` then `<key><![CDATA[…]]></key>` in app/etc/local.xml: pass 243 F37).
  if (element && /^key$/.test(name) && CRYPT_ELEMENT_ABOVE.test(text.slice(Math.max(0, k - CRYPT_LOOKBACK), k))) name = 'encryption_key';
  // In appsettings.json the key is a field of the section (`"Jwt": {` … `"Key": "…"`, adv12 A32).
  if (/^key$/i.test(name) && (/(?:jwt|signing|encryption|hmac|secret|token)[:]$/i.test(text.slice(Math.max(0, k - 16), k)) || KEY_SECTION_ABOVE.test(text.slice(Math.max(0, k - KEY_SECTION_LOOKBACK), k)) || JWT_SETTINGS_ABOVE.test(text.slice(Math.max(0, k - KEY_SECTION_LOOKBACK), k)) || DEBUG_VIEW_SECTION_ABOVE.test(text.slice(Math.max(0, k - KEY_SECTION_LOOKBACK), k)))) name = 'signing_key';
  // A label in prose (`Your new API key:`, `Licence key: …`, `Secret key` as a table's row): the words before `key` name it.
  else if (/^key$/i.test(name) && m && PROSE_KEY_LABEL.test(text.slice(Math.max(0, k - 16), k))) name = 'api_key';
  // A list of keys whose items have a `key` field (mongosh's `apiKeys: [ { label: 'zapier', key: '…' } ]`, adv14 C34).
  else if (/^key$/.test(name) && API_SECTION_ABOVE.test(text.slice(Math.max(0, k - KEY_SECTION_LOOKBACK), k))) name = 'api_key';
  else if (/^key$/i.test(name) && (KEY_LIST_ABOVE.test(text.slice(Math.max(0, k - KEY_SECTION_LOOKBACK), k)) || YAML_KEY_LIST_ABOVE.test(text.slice(Math.max(0, k - KEY_SECTION_LOOKBACK), k)))) name = 'api_key';
  // A `key` in the same inline object as a secret's name (a TOML inline table `alpha = { password = "…", key = "…" }`, a
  // one-line JSON or Ruby hash: adv88): a credential record's key.
  else if (/^key$/i.test(name) && m && (secretSiblingInline(text, k, e, far) || secretSiblingLines(text, k))) name = 'api_key';
  // A hex `key` beside the algorithm that keys a hash with it (an EdgeAuth or HMAC signer's config printed by node: adv162 F14).
  else if (/^key$/i.test(name) && m && HEX_KEY_VALUE.test(text.slice(e, e + 140)) && secretSiblingLines(text, k, namesHmacAlgorithm)) name = 'signing_key';
  // A `key` field of an object a secret's name opens (Zigbee2MQTT's `"network_key": {` then `"key": "<32 hex>"`, The Things
  // Stack's `"app_key": {`, `"nwk_s_enc_key": {`: pass 184 F14, F23, F24).
  else if (/^key$/i.test(name) && m && (secretParentAbove(text, k) || secretYamlParentAbove(text, k))) name = 'secret_key';
  // OAuth 1.0's token beside its secret (NetSuite's token-based auth: `token_id` / `token_secret`, `TOKEN_ID=` / `TOKEN_SECRET=`:
  // pass 182 F25): the token's half of the pair, as its consumer key is.
  else if (TOKEN_ID_NAME.test(name) && m && (secretSiblingInline(text, k, e, far, namesTokenSecret) || secretSiblingLines(text, k, namesTokenSecret) || topLevelSibling(text, k, namesTokenSecret))) name = 'oauth_token';
  // A `key` shaped like an API key beside the service's address or its account (an API client's dotfile: pass 179; adv180).
  else if (/^key$/i.test(name) && m && ((API_KEY_VALUE.test(text.slice(e, e + 160)) && (secretSiblingLines(text, k, namesServiceOrAccount) || topLevelSibling(text, k, namesServiceOrSecret))) || (API_KEY_VALUE_INLINE.test(text.slice(e, e + 160)) && secretSiblingInline(text, k, e, far, namesServiceOrAccount)))) name = 'api_key';
  else if (/^key$/i.test(name) && m && ACCOUNT_KEY_VALUE.test(text.slice(e, e + 160)) && secretSiblingLines(text, k, namesAccount)) name = 'api_key';
  // Rails' `active_record_encryption:` keys (`primary_key`, `deterministic_key`: adv15 D10, D34), a database word elsewhere.
  else if (/^(?:primary|deterministic)_key$/.test(name) && /active_record_encryption/.test(text.slice(Math.max(0, k - KEY_SECTION_LOOKBACK), k))) name = 'encryption_key';
  // A JSON object flagged `"secret": true` (pulumi's `config --json --show-secrets`, adv11): its `"value"` is the secret.
  if (m && SECRET_FLAG_NAME.test(name) && text.startsWith('true', e + m[0].length)) flaggedObjectValue(text, k, out);
  // composer's auth.json: `"github-oauth": {"github.com": "…"}`, every host's value.
  if (text.charCodeAt(e) === 0x22 && COMPOSER_SECTION.test(name)) composerSection(text, e + 1, out);
  const bareAuth = BARE_AUTH.test(name);
  // PagerDuty's integration key is a `routing_key` (alertmanager.yml, adv13 B41): 32 hex digits; a message queue's routing key is words.
  // Grafana's PagerDuty contact point names it `integrationKey` (adv20 F34).
  if (m && /^(?:routing|integration)[_-]?key$/i.test(name)) {
    ROUTING_KEY_VALUE.lastIndex = e + m[0].length;
    const r = ROUTING_KEY_VALUE.exec(text);
    if (r) out.push({ start: r.index + r[0].length - 32, end: r.index + r[0].length, kind: 'pagerduty routing key', byContext: true });
    return e;
  }
  // A header's name as an array's key (VarDumper's `"authorization" => array:1 [` then `0 => "Bearer …"`: adv17 F37).
  VAR_DUMPER_ARRAY.lastIndex = m ? e + m[0].length : 0;
  const headerArray = m !== null && m[0].includes('=>') && /^(?:proxy-)?authorization$/i.test(name) && VAR_DUMPER_ARRAY.test(text);
  // A PascalCase or camelCase `…Key` no list names (`CosmosDbKey`, `StorageKey` in local.settings.json: adv44 F03): a secret's
  // name when its value is shaped like one (letters and digits, 20 characters and up); `PartitionKey`, `i18nKey` stay names.
  // (A key pair's half under `*_PRIMARY_KEY` / `*_SECONDARY_KEY`, a database's word elsewhere, when its value is a key's base64:
  // Azure Cache for Redis' `CACHE_PRIMARY_KEY=<44 of base64>`: pass 331 F17.)
  const pairedKey = !bareAuth && !headerArray && m !== null && PAIRED_KEY_NAME.test(name) && !isSecretName(name);
  const camelKey = pairedKey || (!bareAuth && !headerArray && m !== null && (CAMEL_KEY_NAME.test(name) || name === 'sid' || name === 'device_id' || name === 'did') && !isSecretName(name) && !NOT_SECRET_KEY_NAME.test(name.replace(/([a-z0-9])([A-Z])/g, '$1_$2')));
  if (!bareAuth && !headerArray && !camelKey && !isSecretName(name)) {
    // A plural secret's name (`tokens`, `passwords`, Vault's `unseal_keys_b64`): its list's items, each a secret of the singular's kind.
    const single = m ? singularOfList(name) : undefined;
    if (m && single !== undefined && isSecretName(single)) {
      // A YAML list (`tokens:` then `  - …` items).
      if (m[0].includes(':')) yamlListItems(text, e + m[0].length, single, out);
      // A comma list (Strapi's `APP_KEYS=k1,k2,k3,k4`, Bitnami's `KAFKA_CLIENT_PASSWORDS=p1,p2`: adv15 D11, D03).
      commaListItems(text, e + m[0].length, single, out);
      // An array of strings, on one line or over lines (TOML's `webhook_keys = [ "…", "…" ]`, JSON's `"session_keys": [` then one
      // string a line: adv41 F39, F45; `vault operator init -format=json`'s `"unseal_keys_b64": [`: adv113 F07).
      quotedArrayItems(text, e + m[0].length, single, out);
      // A dict whose keys are the secrets (JupyterHub's `api_tokens = {'<token>': 'grader', …}`: pass 179).
      dictKeyItems(text, e + m[0].length, single, out);
      // …or whose entries are objects holding the secret (cfssl's `"auth_keys": {"primary": {"type": "standard", "key": "…"}}`: pass 199).
      dictEntryKeyFields(text, e + m[0].length, single, out);
      if (m[0].includes(':')) yamlEntryKeyFields(text, k, e + m[0].length, single, out);
      // INI continuation lines (`access_keys =` then one indented key a line: adv67 F25).
      if (INI_EQUALS.test(m[0])) valuesBelow(text, e + m[0].length, single, out);
    }
    return e;
  }
  // An array of strings under a secret's name (Tasmota's `"sta_pwd": [` then a password a line: pass 184 F33): every item.
  // (Not a cookie header's list: its items are `name=value; attributes`, read below.)
  if (m && !camelKey && text.charCodeAt(e + m[0].length) === 0x5b && !/^(?:set-)?cookie$/i.test(name)) {
    const found = out.length;
    quotedArrayItems(text, e + m[0].length, name, out);
    if (out.length > found) return e;
  }
  // A value on the lines below its name: INI's continuation lines (`api_key =` then the value indented) or a heredoc (HCL's
  // `secret = trimspace(<<-EOT` … `EOT`: adv67 F26).
  if (m && INI_EQUALS.test(m[0]) && valuesBelow(text, e + m[0].length, name, out)) return e;
  // A list under a secret's name (ngrok's `basic_auth:` then `- "user:pw"`: adv16 D24): each item.
  if (m && m[0].includes(':') && YAML_LIST_AFTER.test(text.slice(e + m[0].length, e + m[0].length + 256))) {
    // A cookie header's values as items (a VCR cassette's `Set-Cookie:` then `- sid=…; path=/; HttpOnly`: 140 F10): each
    // cookie's value, its name and attributes kept (an item with attributes read as a sentence was kept whole).
    // (A list of bare values under `cookie:` is secrets, each one: Kratos' cookie secrets, adv245.)
    if (/^(?:set-)?cookie$/i.test(name) && YAML_COOKIE_ITEM_AFTER.test(text.slice(e + m[0].length, e + m[0].length + 512))) yamlCookieItems(text, e, (v) => COOKIE_SETTING.test(v), out);
    else yamlListItems(text, e + m[0].length, name, out);
    return e;
  }
  const valueAt = element ? XML_VALUE_AT : VALUE_AT;
  valueAt.lastIndex = m ? e + m[0].length : tagEnd + 1;
  // An element whose value is a `<Value>` child (Windows' unattend.xml: `<AdministratorPassword>` then `<Value>…</Value>` and
  // `<PlainText>`; adv34 F28): the child's text.
  if (element) {
    NESTED_XML_VALUE.lastIndex = tagEnd + 1;
    const nested = NESTED_XML_VALUE.exec(text);
    if (nested) {
      const [start, end] = nested.indices!.groups!.v!;
      if (!isLookAlike(nested.groups!.v, PASSWORD_NAME.test(name)) && !isReference(nested.groups!.v)) out.push({ start, end, kind: kindOfName(name), byContext: true });
      return e;
    }
  }
  // A Rails ERB tag (`password: <%= ENV.fetch("DB_PASSWORD") { "…" } %>`, config/database.yml: adv16 D01): the environment is
  // a reference, kept; a literal fallback in it is the value.
  if (m && text.startsWith('<%', valueAt.lastIndex)) {
    erbFallback(text, valueAt.lastIndex, name, out);
    return e;
  }
  // A positional parameter (`"token" = $1`) whose values the same log line lists after the statement (TypeORM's `-- PARAMETERS:
  // ["…",42]`, Ecto's trailing `["…"]`: adv17 F21, F33): the value at its position.
  POSITIONAL.lastIndex = valueAt.lastIndex;
  const positional = m && m[0].includes('=') ? POSITIONAL.exec(text) : null;
  if (positional) {
    boundByPosition(text, valueAt.lastIndex, Number(positional.groups!.n), name, out);
    return e;
  }
  // An environment read with a literal fallback (Laravel's `'password' => env('DB_PASSWORD', '…')`, `os.getenv("X", "…")`,
  // `process.env.X || '…'`, `ENV.fetch("X", "…")`: adv17 F04): the read is a reference, kept; the fallback is the value.
  // Elixir's runtime.exs breaks the read onto the lines below (`secret_key_base =` / `System.get_env("X") ||` / `"…"`: adv23 F01).
  LINE_BREAK_AT.lastIndex = valueAt.lastIndex;
  ENV_READ_FALLBACK.lastIndex = m && LINE_BREAK_AT.test(text) ? LINE_BREAK_AT.lastIndex : valueAt.lastIndex;
  const read = m ? ENV_READ_FALLBACK.exec(text) : null;
  if (read) {
    const g = read.groups!.v !== undefined ? 'v' : read.groups!.w !== undefined ? 'w' : read.groups!.x !== undefined ? 'x' : 'y';
    const [start, end] = read.indices!.groups![g]!;
    if (!isLookAlike(read.groups![g], PASSWORD_NAME.test(name))) out.push({ start, end, kind: kindOfName(name), byContext: true });
    return e;
  }
  // PHP's var_dump of a value after a label (`webhook secret: string(70) "…"` in a Laravel log: pass 328 F23): the quoted string.
  VAR_DUMP_INLINE.lastIndex = valueAt.lastIndex;
  if (m && VAR_DUMP_INLINE.test(text)) valueAt.lastIndex = VAR_DUMP_INLINE.lastIndex;
  if (m && m[0].includes('=>')) {
    // PHP's var_dump: `["db_password"]=>` then `  string(14) "…"` on the next line.
    VAR_DUMP_NEXT.lastIndex = valueAt.lastIndex;
    VAR_DUMPER_ARRAY.lastIndex = valueAt.lastIndex;
    if (VAR_DUMP_NEXT.test(text)) valueAt.lastIndex = VAR_DUMP_NEXT.lastIndex;
    // Symfony's VarDumper (`dump($request->headers->all())`: `"authorization" => array:1 [` then `0 => "Bearer …"`: adv17 F37).
    else if (VAR_DUMPER_ARRAY.test(text)) valueAt.lastIndex = VAR_DUMPER_ARRAY.lastIndex;
    else {
      // Ruby's pp breaks a long pair after `=>` (`{:secret_key_base=>` then the value on the next line: adv15 D34).
      NEXT_LINE_QUOTE.lastIndex = valueAt.lastIndex;
      if (NEXT_LINE_QUOTE.test(text)) valueAt.lastIndex = NEXT_LINE_QUOTE.lastIndex;
    }
  } else if (m && m[0].includes(':')) {
    BLOCK_SCALAR.lastIndex = valueAt.lastIndex;
    if (BLOCK_SCALAR.test(text)) {
      blockScalar(text, k, BLOCK_SCALAR.lastIndex, name, out);
      return e;
    }
    DESCRIBE_DATA_VALUE.lastIndex = valueAt.lastIndex;
    const described = DESCRIBE_DATA_VALUE.exec(text);
    if (described) {
      const [start, end] = described.indices!.groups!.v!;
      if (!isLookAlike(described.groups!.v, PASSWORD_NAME.test(name))) out.push({ start, end, kind: kindOfName(name), byContext: true });
      return e;
    }
    // A YAML mapping under the name whose `value:` field is the value (GitLab CI's expanded variables: `CYPRESS_RECORD_KEY:` then
    // `  value: "…"` and `  description: …`: adv26 F07), its fields before `value:` at most three.
    const endsLine = m[0].endsWith(':') || /:[ \t]*$/.test(m[0]);
    YAML_VALUE_FIELD_BELOW.lastIndex = valueAt.lastIndex;
    const valueField = endsLine && YAML_VALUE_FIELD_BELOW.test(text);
    if (valueField) valueAt.lastIndex = YAML_VALUE_FIELD_BELOW.lastIndex;
    // salt's nested outputter, YAML's plain scalar on the next line (`password:` then the value alone, indented deeper: adv19 F04).
    const below = endsLine && !valueField ? indentedValueBelow(text, k, valueAt.lastIndex) ?? proseValueBelow(text, k, valueAt.lastIndex) : undefined;
    if (below) {
      if (!isLookAlike(below.value, PASSWORD_NAME.test(name))) out.push({ start: below.start, end: below.start + below.value.length, kind: kindOfName(name), byContext: true });
      return e;
    }
    // Pretty-printed JSON (`"client_secret":` then the value on the next line, indented).
    NEXT_LINE_QUOTE.lastIndex = valueAt.lastIndex;
    ONE_ITEM_ARRAY.lastIndex = valueAt.lastIndex;
    if (NEXT_LINE_QUOTE.test(text)) valueAt.lastIndex = NEXT_LINE_QUOTE.lastIndex;
    // A one-item array of the value, pretty-printed (a Keycloak realm export's component config: `"secret": [` then the value
    // on the next line, `"privateKey": [` likewise: adv20 F16).
    else if (ONE_ITEM_ARRAY.test(text)) valueAt.lastIndex = ONE_ITEM_ARRAY.lastIndex;
    // A secret's object with its value a field of it (`"DB_PASSWORD": {"isSecret": null, "value": "…"}` of `az pipelines
    // variable list`, adv12 A23; pulumi's `"proj:dbPassword": {"value": …}`).
    else if (text.charCodeAt(valueAt.lastIndex) === 0x7b) {
      OBJECT_VALUE_FIELD.lastIndex = valueAt.lastIndex + 1;
      BSON_BINARY.lastIndex = valueAt.lastIndex;
      ESCAPED_OBJECT_FIELD.lastIndex = valueAt.lastIndex;
      if (BSON_BINARY.test(text)) valueAt.lastIndex = BSON_BINARY.lastIndex;
      else if (OBJECT_VALUE_FIELD.test(text)) valueAt.lastIndex = OBJECT_VALUE_FIELD.lastIndex;
      // A JSON object inside a string, its first field a secret's by name (Okta's token storage in a localStorage dump:
      // `\"accessToken\":{\"accessToken\":\"eyJ…\",\"expiresAt\":…}`): that field is read by its own name; the object read as
      // one unquoted value masked the fields after it (expiry, scopes) with it.
      else {
        const f = ESCAPED_OBJECT_FIELD.exec(text);
        if (f && isSecretName(f.groups!.n)) return e;
      }
    }
  }
  // gdb prints a `char *` as its address then its string (`password = 0x5555555596b0 "…"`: adv15 D04): the string is the value.
  GDB_POINTER.lastIndex = valueAt.lastIndex;
  if (m && GDB_POINTER.test(text)) valueAt.lastIndex = GDB_POINTER.lastIndex;
  // A string literal's prefix (Python's bytes `b'…'` in a repr or botocore's headers, `r"…"`, Elixir's charlist `~c"…"`: adv30
  // F02, F44): the string is the value.
  // Rust's pretty Debug of an Option breaks after `Some(` (`api_key: Some(` then `"…",` on the next line: adv33 F24).
  SOME_BELOW.lastIndex = valueAt.lastIndex;
  if (m && SOME_BELOW.test(text)) valueAt.lastIndex = SOME_BELOW.lastIndex;
  STRING_PREFIX.lastIndex = valueAt.lastIndex;
  if (m && STRING_PREFIX.test(text)) valueAt.lastIndex = STRING_PREFIX.lastIndex;
  // fish's `set --show` says where a variable is set before it shows the value (`$DB_PASSWORD: set in global scope`: adv15 D05).
  FISH_SCOPE.lastIndex = valueAt.lastIndex;
  if (m && text.charCodeAt(k - 1) === 0x24 && FISH_SCOPE.test(text)) return e;
  // `git diff --word-diff`'s change of a value (`DB_PASSWORD=[-old-]{+new+}`, adv13 B29): both words are the name's.
  if (m && text.startsWith('[-', valueAt.lastIndex) && changedWords(text, WORD_DIFF, valueAt.lastIndex, ['old', 'new'], name, out)) return e;
  // A Java .properties value continued on the next line (`ldap.bind.password=\\` then `    pw`: adv29 F32): the next line's.
  PROPERTIES_CONTINUATION.lastIndex = valueAt.lastIndex;
  if (m && !element && PROPERTIES_CONTINUATION.test(text)) valueAt.lastIndex = PROPERTIES_CONTINUATION.lastIndex;
  // `git diff --word-diff=porcelain` (adv31 F02): the name on a context line, the old and new words on `-` / `+` lines of their
  // own, then `~` (the line's end).
  if (m && changedWords(text, PORCELAIN_WORDS, valueAt.lastIndex, ['a', 'b'], name, out)) return e;
  // A list of one string (Python's `parse_qs`: `'sig': ['…']`, a JSON `"token": ["…"]`: adv27 F34).
  INLINE_LIST_STRING.lastIndex = valueAt.lastIndex;
  if (m && INLINE_LIST_STRING.test(text)) valueAt.lastIndex = INLINE_LIST_STRING.lastIndex;
  // A .reg file's binary value (`"Password"=hex:a3,d2,79,…`, continued with `,\\` over lines: TightVNC's, adv34 F23): every byte.
  if (m && !element && text.startsWith('hex', valueAt.lastIndex)) {
    REG_HEX_VALUE.lastIndex = valueAt.lastIndex;
    const h = REG_HEX_VALUE.exec(text);
    if (h) {
      const [start, end] = h.indices!.groups!.v!;
      // Not remembered: a list of bytes repeats its own prefix every three characters (the remembered values' search would
      // compare it at each: 51 s for 1 MB).
      out.push({ start, end, kind: kindOfName(name) });
      return e;
    }
  }
  // An Elixir or Erlang binary of bytes (Plug.Debugger's session: `"user_token" => <<199, 173, 21, …>>`: adv91 F24): every byte.
  if (m && text.startsWith('<<', valueAt.lastIndex)) {
    BINARY_BYTES.lastIndex = valueAt.lastIndex;
    const b = BINARY_BYTES.exec(text);
    if (b) {
      const [start, end] = b.indices!.groups!.v!;
      out.push({ start, end, kind: kindOfName(name), byContext: true });
      return e;
    }
  }
  // Python's implicit concatenation of string pieces in parentheses (pprint splits a long value so: `'GPG_PASSPHRASE': ('kzqv … '`
  // then `'mzpv …'),`: adv46 F06): every piece.
  if (m && text.charCodeAt(valueAt.lastIndex) === 0x28 && concatenatedPieces(text, valueAt.lastIndex, name, out)) return e;
  // A YAML anchor or tag before the value (`DD_API_KEY: &ddkey …`, `password: !!str …`: adv38 F03): the value follows it.
  YAML_NODE_PROPERTIES.lastIndex = valueAt.lastIndex;
  if (m && m[0].includes(':') && YAML_NODE_PROPERTIES.test(text)) valueAt.lastIndex = YAML_NODE_PROPERTIES.lastIndex;
  const valueFrom = valueAt.lastIndex;
  let v = valueAt.exec(text);
  // PHP's print_r (`[AUTH_KEY] => }}85k^B0…`: adv89 F15): an unquoted value runs to its line's end, whatever its symbols.
  if (m && text.charCodeAt(k - 1) === 0x5b && m[0] === '] => ' && (!v || v.groups!.secret !== undefined) && valueFrom >= far.noLineEndBefore) {
    PRINT_R_VALUE.lastIndex = valueFrom;
    const whole = PRINT_R_VALUE.exec(text);
    // A line longer than a value (a megabyte of `[password] => x`): not read again up to where this read gave up.
    if (!whole) far.noLineEndBefore = valueFrom + MAX_PRINT_R_VALUE;
    if (whole && PRINT_R_NESTED.test(whole.groups!.secret)) return e;
    if (whole) v = whole;
  }
  // A long unquoted value is read once: the names inside it are its text (below).
  if (v && v.groups!.secret !== undefined && v.groups!.secret.length > MAX_VALUE_RELOOK) longValueEnd = v.index + v[0].length;
  if (!v) {
    // A quoted value the line ends inside (`fold -w 64` of a JSON session file, a terminal's hard wrap: adv22 F41): its piece
    // on this line, and its pieces on the lines below up to its closing quote.
    if (m && !element) wrappedQuotedValue(text, valueFrom, name, out);
    return e;
  }
  // A wrapper's call around a quoted value (Rust's `Some("…")`, pydantic's `SecretStr('**********')`, `Secret("…")`: adv19 F45,
  // K06): the value is the quoted argument, not the call's head.
  // A lookup's call names the key it reads (`token = request.headers.get("Authorization", "")`: adv44 K02), not a value.
  if (v.groups!.secret !== undefined && (LOOKUP_CALL_HEAD.test(v.groups!.secret) || CALL_OR_INDEX_HEAD.test(v.groups!.secret))) return e;
  // A tool's word for no value in angle brackets, blanks in it (Asterisk's `MD5Secret    : <Not set>`: pass 215 L2, masked as
  // `<Not` and leaving `set>`).
  if (v.groups!.secret !== undefined && text.charCodeAt(v.index) === 0x3c && ANGLE_NOTE.test(text.slice(v.index, v.index + MAX_ANGLE_NOTE))) return e;
  if (v.groups!.secret !== undefined && CALL_HEAD.test(v.groups!.secret) && (text.charCodeAt(valueAt.lastIndex) === 0x22 || text.charCodeAt(valueAt.lastIndex) === 0x27)) {
    v = valueAt.exec(text);
    if (!v) return e;
  }
  // An unquoted value that is an auth scheme's word then the credential (`FLY_API_TOKEN=FlyV1 fm2_…`, `API_TOKEN=Bearer …`:
  // adv21 F24): the word after the scheme is the value (the scheme alone is no secret, and masking it showed the token).
  if (v.groups!.secret !== undefined && AUTH_SCHEME_WORD.test(v.groups!.secret)) {
    let at = v.index + v[0].length;
    while (text.charCodeAt(at) === 0x20 || text.charCodeAt(at) === 0x09) at++;
    SCHEME_CREDENTIAL.lastIndex = at;
    const after = at > v.index + v[0].length ? SCHEME_CREDENTIAL.exec(text) : null;
    if (after) v = after;
  }
  // A passphrase of words in a quoted assignment (systemd's `Environment="BORG_PASSPHRASE=word word word"`: adv28 F42): the
  // value runs to the closing quote.
  if (v.groups!.secret !== undefined && text.charCodeAt(k - 1) === 0x22 && PHRASE_NAME.test(name)) {
    const close = text.indexOf('"', v.index);
    const nl = text.indexOf('\n', v.index);
    if (close > v.index + v[0].length && (nl < 0 || close < nl) && close - v.index <= MAX_PHRASE_CHARS) {
      PHRASE_TO_QUOTE.lastIndex = v.index;
      const p = PHRASE_TO_QUOTE.exec(text);
      if (p) v = p;
    }
  }
  const quoted = v.groups!.quoted ?? v.groups!.single ?? v.groups!.ansi ?? v.groups!.triple ?? v.groups!.tripleBelow ?? v.groups!.literalBelow ?? v.groups!.cdata;
  let value = quoted ?? v.groups!.escaped ?? v.groups!.deep ?? v.groups!.pyrepr ?? v.groups!.secret;
  if (value === undefined || (isLookAlike(value, PASSWORD_NAME.test(name)) && !(PIN_DIGITS.test(value) && isHsmPin(name, text, from)))) return e;
  // A key of a Secret named where the password is (Helm's `passwordSecretKey: admin-password`, `existingSecretPasswordKey:
  // password`: pass 207 L25): a secret's name as a lower-case identifier under a name that ends in a key's, no password.
  if (quoted === undefined && KEY_NAMING_NAME.test(name) && isNameOfSecret(value)) return e;
  // A GPG key's id or fingerprint under a GPG name (`GPG_SIGNING_KEY=7DA8A446460F6B93`, `GPG_KEY=…40 hex`: pass 258 L8): public, as
  // git's `user.signingkey`; an armoured or base64 key under the same name is longer and not hex.
  if (GPG_NAME.test(name) && GPG_ID_NAME.test(name) && !GPG_SECRET_NAME.test(name) && GPG_KEY_ID.test(value)) return e;
  // A DSN with no credentials in it (Symfony's `MESSENGER_TRANSPORT_DSN=doctrine://default?auto_setup=0`: pass 208 L28): a transport's
  // address, no user or password before a host, no secret's parameter.
  if (DSN_NAME.test(name) && DSN_WITHOUT_CREDENTIALS.test(value)) return e;
  // A SealedSecret's ciphertext under `encryptedData:` (kubeseal's output, safe to commit: pass 207 L3, in a diff too).
  if (isSealedCiphertext(value)) return e;
  // The shell's working directory (`env`'s `PWD=/home/alice`, sudo's log `; PWD=/srv ;`: 129 F26), not a password.
  if (quoted === undefined && (value.charCodeAt(0) === 0x2f || value.charCodeAt(0) === 0x7e) && /^(?:OLD)?PWD$/.test(name)) return e;
  // A file's name before a line of it (`grep root /etc/passwd /etc/group`: `/etc/passwd:root:x:0:0:…`): an account, not a password.
  if (quoted === undefined && text.charCodeAt(k - 1) === 0x2f && ACCOUNT_OR_HASH_LINE.test(value)) return e;
  // A logger's name before its message (`gateway.auth: headers={'host': …}`: adv75): a word and `={` is code, not a value.
  if (quoted === undefined && /^[A-Za-z_][\w.]{0,64}=[{[(]$/.test(value)) return e;
  // A YAML alias (`DD_API_KEY: *ddkey`) of an anchor the text sets: a reference to the value, which is masked where it stands.
  if (quoted === undefined && value.charCodeAt(0) === 0x2a && YAML_ALIAS.test(value) && text.includes(`&${value.slice(1)}`)) return e;
  // A secret's name as the value (node-config's `"password": "DB_PASSWORD"`, an ExternalSecret's `secretKey: JWT_SECRET`:
  // adv17 K11, K15) names where the secret comes from; a public signature (`-----BEGIN PGP SIGNATURE-----`, K13) is none.
  if ((/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(value) && isSecretName(value)) || /^-----BEGIN (?:PGP|SSH) SIGNATURE-----/.test(value)) return e;
  // Code building a string (`"password=" + pw + "&x"`): between the quotes is the operator, no value; and a literal that ends
  // where a value would start, joined to a variable (`dsn = "host=db user=app password=" + pw`: adv72 L21), holds none.
  // (PHP's dots with nothing around them join a constant, `'.DB_PASS.'`; a made word between two dots is a password's own: QGIS'
  // `password='.cuWxy2lSfOSG5s.'`, pass 292 F23.)
  // (A `$` inside is a password's too, `'.k8$Wm7z….'`: PHP's variable starts the join, `'.$pw.'`: adv301 F12.)
  if (quoted !== undefined && CONCATENATION_OPERATOR.test(value) && (/[ \t+&|(]/.test(value) || value.charCodeAt(1) === 0x24 || !mintedWord(value.slice(1, -1)))) return e;
  if (quoted !== undefined && /[=:]$/.test(value) && JOINED_AFTER.test(text.slice(v.index + v[0].length, v.index + v[0].length + 8))) return e;
  // A cookie cleared (`Set-Cookie: sessionid=; Max-Age=0`: adv78 L06): its name and an empty value.
  if (quoted === undefined && /^(?:set-)?cookie$/i.test(name) && /^[\w.-]{1,64}=$/.test(value)) return e;
  // A .NET or Java type's name (PowerShell's `Get-Credential | Format-List`: `SecurePassword : System.Security.SecureString`: adv74).
  if (quoted === undefined && /^(?:System|Microsoft|java|javax)\.[A-Za-z][\w.]{2,128}$/.test(value)) return e;
  // A lexer's token type (`lexer: token=IDENT value=…`: adv71 L09): a bare `token` whose value is one upper-case word.
  if (quoted === undefined && /^token$/i.test(name) && /^[A-Z][A-Z_]{1,23}$/.test(value)) return e;
  // A setting's name read by a call (`let apiKey = config.get("apiKey");`: adv43 K01): a camelCase or dotted secret's name
  // without a digit names the setting.
  if (quoted !== undefined && value.length <= MAX_NAME_AS_VALUE && NAME_AS_VALUE.test(value) && isSecretName(value)) return e;
  // Code, not configuration: an unquoted value that is an expression (`const password = req.body.password;`, `this.token =
  // response.data.accessToken;`: adv43 K01), where a statement ends after it or a declaration starts the line. A secret in code
  // is a string literal.
  if (quoted === undefined && (WHOLE_CALL.test(value) || SETTING_REFERENCE.test(value) || (MEMBER_CHAIN.test(value) && !mintedSegment(value) && !(PASSWORD_NAME.test(name) && MADE_PASSWORD_CHAIN.test(value)) && (CODE_AFTER.test(text.slice(v.index + v[0].length, v.index + v[0].length + 8)) || CODE_DECLARATION_BEFORE.test(text.slice(Math.max(0, k - CODE_LOOKBACK), k)))))) return e;
  // A type annotation, not a value (pydantic's `client_secret: SecretStr = Field(...)`: adv44 K02).
  if (quoted === undefined && m && m[0].includes(':') && ANNOTATION_AFTER.test(text.slice(v.index + v[0].length, v.index + v[0].length + 8))) return e;
  // A parameter's type closing its list (Kotlin's `fun authenticate(username: String, password: CharArray): AccessToken`: adv51 K03).
  if (quoted === undefined && m && m[0].includes(':') && PARAMETER_TYPE.test(value) && text.lastIndexOf('(', k) > text.lastIndexOf('\n', k)) return e;
  // Or letters alone in both cases, changing case as random text does (bitnami's `replicaSetKey`: adv103 F16 when no digit fell in).
  if (camelKey && !TOKEN_SHAPED.test(value) && !(value.length >= 20 && /^[A-Za-z]+$/.test(value) && mintedWord(value)) && !(/master$/i.test(name) && MASTER_KEY_VALUE.test(value))) return e;
  if (pairedKey && !PAIRED_KEY_VALUE.test(value)) return e;
  // A lowercase `sid` is a session's id, a login's credential (Pi-hole's `"sid": "…"` beside its `csrf`: adv143); Twilio's `sid`
  // (two letters and 32 hex digits) is a resource's id, as is a Windows security id (`S-1-5-21-…`); IAM's statement ids are `Sid`.
  if (camelKey && name === 'sid' && (TWILIO_SID.test(value) || WINDOWS_SID.test(value))) return e;
  // Under a `_MASTER` name a key is random, both cases and a digit, no dashes, 16 characters and up (Meilisearch takes 16), or 32
  // hex and more: a commit (`GIT_MASTER=<sha>`) and a host's name (`REDIS_MASTER=redis-node-0-headless-svc`: adv333 L6) stay.
  if (camelKey && /master$/i.test(name) && !MASTER_KEY_VALUE.test(value)) return e;
  // A device's token is long and random, both cases and digits (a UUID, a hex digest of the hardware, `web-12` are ids).
  if (camelKey && (name === 'device_id' || name === 'did') && !(value.length >= MIN_DEVICE_TOKEN && /[A-Z]/.test(value) && /[a-z]/.test(value) && /\d/.test(value))) return e;
  // A variable of the same name (Elixir's `secret_key_base: secret_key_base`, a keyword list fed from a binding: adv23 F01): remembered, it masked the name everywhere.
  if (quoted === undefined && SNAKE_NAME.test(value) && isSecretName(value)) return e;
  // A pod's checksum in Podfile.lock (`SPEC CHECKSUMS:` then `  FirebaseAuth: <sha1>`: adv17 K24), the section's rows to a blank line.
  if (/^[0-9a-f]{40}$/.test(value) && inPodChecksums(text, k)) return e;
  // A bare `auth` beside a user's line is that user's password or token (Hatch's `[publish.index]` `user = …` / `auth = …`: adv23 F47).
  if (bareAuth && !isBasicAuthBase64(value) && !USER_LINE_ABOVE.test(text.slice(Math.max(0, k - USER_LINE_LOOKBACK), k))) return e;
  // A name that is `hmac` alone may name the algorithm (`"hmac": "sha256"`): a secret is 16 characters and up.
  if (HMAC_NAME.test(name) && value.length < MIN_HMAC_SECRET) return e;
  if (quoted === undefined && m && isPromptFollowUp(text, k, e, m[0], v.index + v[0].length, value)) return e;
  if (quoted !== undefined && m && !/^\\?["']/.test(m[0]) && insideOpenString(text, k, text[v.index])) return e;
  const s = v.groups!.tripleBelow !== undefined || v.groups!.literalBelow !== undefined ? v.index + v[0].indexOf(value, 3) : v.index + (v.groups!.ansi !== undefined ? 2 : v.groups!.triple !== undefined ? 3 : v.groups!.cdata !== undefined ? CDATA_OPEN : quoted !== undefined ? 1 : v.groups!.escaped !== undefined ? 2 : v.groups!.deep !== undefined ? v[0].indexOf('"') + 1 : v.groups!.pyrepr !== undefined ? 3 : 0);
  // A cookie header's `name=value`: the cookie's name stays (`Set-Cookie: sessionid=[masked: cookie]`), its value is masked.
  // A quoted one too (`'set-cookie': ['refresh=…; Path=/; HttpOnly']`): to its first `;`, the attributes stay.
  const cookieName = /^(?:set-)?cookie$/i.test(name) ? COOKIE_NAME_BEFORE_VALUE.exec(value)?.[0].length ?? 0 : 0;
  if (cookieName > 0) value = value.slice(cookieName);
  // A cookie masked already (a reply masked twice: `Cookie: sid=[masked: cookie]`, closing measure 128 F08).
  if (cookieName > 0 && (value.startsWith('[masked:') || COOKIE_SETTING.test(value.replace(/;[^]*$/, '')))) return e;
  if (cookieName > 0 && quoted !== undefined && value.indexOf(';') > 0) value = value.slice(0, value.indexOf(';'));
  // A URL query's parameter (`?token=eyJ…&v=3`: adv75), or its fragment's (OAuth's implicit flow: `#id_token=…&token_type=…`,
  // 129 F20): its value ends at the next parameter.
  const amp = quoted === undefined && (text.charCodeAt(k - 1) === 0x3f || text.charCodeAt(k - 1) === 0x26 || text.charCodeAt(k - 1) === 0x23) ? value.indexOf('&') : -1;
  if (amp === 0) return e;
  if (amp > 0) value = value.slice(0, amp);
  // (A documented placeholder there too: api.data.gov's `?api_key=DEMO_KEY&…`, pass 299 L14.)
  if (amp > 0 && isPlaceholder(value)) return e;
  // An Unreal server's URL of options (`TheIsland?listen?ServerPassword=…?ServerAdminPassword=…?Port=7777`: blind pass 217 F16,
  // the options after it masked with it): the value ends at the next `?option=`.
  const nextOption = quoted === undefined && text.charCodeAt(k - 1) === 0x3f ? value.search(NEXT_URL_OPTION) : -1;
  if (nextOption > 0) value = value.slice(0, nextOption);
  // A call's keyword argument given the variable of its name (R's `content(res, token = token)$data`, `f(password=password)`:
  // pass 179): code, no value.
  if (quoted === undefined && (value === name || value.startsWith(`${name})`)) && openParenBefore(text, k)) return e;
  // A pair inside parentheses (`invalid_auth (token=xoxb-…)`: 129 F41), the last of several (`booting (env=staging, app_token=
  // xapp-…)`: 137 F39): the closing one is the text's.
  if (quoted === undefined && value.length > 1 && value.endsWith(')') && !value.includes('(') && (text.charCodeAt(k - 1) === 0x28 || openParenBefore(text, k))) value = value.slice(0, -1);
  // Apache HttpClient's wire log writes a line's end as `[\r][\n]` (`>> "X-Api-Key: …[\r][\n]"`: 141 F14): its `[` is the log's.
  if (quoted === undefined && value.length > 1 && value.endsWith('[') && /^\\[rn]\]/.test(text.slice(s + cookieName + value.length, s + cookieName + value.length + 3))) value = value.slice(0, -1);
  // PayPal's checkout `token=` is its order's id (`checkoutnow?token=G81HVZYM0X34R1AWT`, `EC-…` in the classic API, before
  // `&PayerID=`: pass 237 L5, adv245 L4).
  if (name === 'token' && PAYPAL_ORDER_ID.test(value)) return e;
  // Microsoft Graph's delta link (`…/root/delta?token=…`, as its `$deltatoken=`/`$skiptoken=`): a sync's cursor, of no use without
  // the caller's own bearer token (pass 314 L13); on Graph's hosts only.
  if (name === 'token' && GRAPH_DELTA_BEFORE.test(text.slice(Math.max(0, k - GRAPH_DELTA_LOOKBACK), k))) return e;
  // An object's class in node's inspect (`keyMaterial: CryptoKey {`: adv320 L10), not a value.
  if (CLASS_NAME.test(value) && text.startsWith(' {', s + value.length)) return e;
  // `npm token list --json`'s `"key"`: the SHA-512 of a token (128 hex), printed beside the token's first characters (`"token":
  // "npm_He…"`) as its id (pass 313 L29).
  // Drone's signature document (`kind: signature` then `hmac: <64 hex>` in `.drone.yml`): the pipeline's signature, committed with it
  // (pass 319 L15).
  if (name === 'hmac' && DRONE_SIGNATURE_KIND.test(text.slice(Math.max(0, k - DRONE_SIGNATURE_KIND_CHARS), k))) return e;
  if (name.endsWith('key') && NPM_TOKEN_KEY.test(value) && text.startsWith('key"', k) && npmTokenBeside(text, k)) return e;
  out.push({ start: s + cookieName, end: s + cookieName + value.length, kind: bareAuth ? (isBasicAuthBase64(value) ? 'docker registry auth' : 'password') : kindOfName(name), byContext: true });
  if (quoted === undefined && v.groups!.secret !== undefined) continuedLines(text, s + cookieName + value.length, kindOfName(name), out);
  // A Google app password written as Google shows it, four groups of four letters (`spring.mail.password=qgvv tlnb dgxr xzha` in a
  // properties file, whose value runs to the line's end: adv62 F07): the groups after the first word.
  if (quoted === undefined && value.length === 4) {
    APP_PASSWORD_GROUPS.lastIndex = s + 4;
    const groups = APP_PASSWORD_GROUPS.exec(text);
    if (groups && /^[a-z]{4}$/.test(value)) out.push({ start: s + 5, end: s + 4 + groups[0].length, kind: kindOfName(name), byContext: true });
  }
  // A plan's or a diff's change of the value (`~ password: "old" => "new"` in pulumi preview, `~ "API_SECRET" = "old" -> "new"`
  // in terraform plan: adv19 F09, F10): the new value is the name's too.
  CHANGED_TO.lastIndex = s + value.length;
  const change = CHANGED_TO.exec(text);
  if (change) {
    const next = change.groups!.q ?? change.groups!.s ?? change.groups!.b!;
    if (!isLookAlike(next, PASSWORD_NAME.test(name)) && !isReference(next)) {
      const at = change.index + change[0].length - next.length - (change.groups!.b === undefined ? 1 : 0);
      out.push({ start: at, end: at + next.length, kind: kindOfName(name), byContext: true });
    }
  }
  // Elasticsearch's API key response: `"api_key": "…", "encoded": "<base64 of id:api_key>"` (adv12 A14).
  if (quoted !== undefined && /^api_key$/.test(name)) {
    ENCODED_AFTER.lastIndex = s + value.length;
    const enc = ENCODED_AFTER.exec(text);
    if (enc) out.push({ start: enc.index + enc[0].length - 1 - enc.groups!.v.length, end: enc.index + enc[0].length - 1, kind: kindOfName(name), byContext: true });
  }
  return e;
}

/** A type name (a generic's arguments, a nullable `?`) and the `)` that closes a parameter list, then `:` or `,` (a return type). */
// Or a primitive's lowercase name (TypeScript's `verify(body: string, signature: string) {`: adv55 K08).
const PARAMETER_TYPE = /^(?:[A-Z][A-Za-z]*(?:<[\w<>, ?]{1,64}>)?|string|number|boolean|bigint|unknown|any|str|int|bytes|bool)\??\)[:,]?$/;

/** A YAML node's anchor (`&name`) or tag (`!!str`, `!secret`, `!<tag:…>`) before its value, and the blanks after it. */
const YAML_NODE_PROPERTIES = /(?:&[^\s,[\]{}]{1,128}|!!?[\w-]{0,64}|!<[^>\n]{1,256}>)[ \t]+(?=\S)/y;
/** A YAML alias: `*` and an anchor's name. */
const YAML_ALIAS = /^\*[^\s,[\]{}]{1,128}$/;

/** A .properties value's next piece: the `\\` that ends its line, then the next line's text (its indent aside). */
const CONTINUED_LINE = /\\\r?\n[ \t]*(?<v>\S(?:[^\r\n]*\S)?)[ \t]*\r?(?=\n|$)/dy;
/** Lines one value may be continued over. */
const MAX_CONTINUED_LINES = 16;

/** The lines a `\\`-continued value goes on over (Java .properties: `ldap.bind.password=abc\\` then `    def`: adv29 F32). */
function continuedLines(text: string, at: number, kind: string, out: SecretFinding[]): void {
  for (let n = 0; n < MAX_CONTINUED_LINES; n++) {
    CONTINUED_LINE.lastIndex = at;
    const c = CONTINUED_LINE.exec(text);
    if (!c) return;
    let [start, end] = c.indices!.groups!.v!;
    const more = text.charCodeAt(end - 1) === 0x5c;
    if (more) end--;
    if (end > start) out.push({ start, end, kind, byContext: true });
    if (!more) return;
    at = end;
  }
}

/** Longest line of an R named vector's names or values read (R prints 80 columns wide; a wide console a few hundred). */
const MAX_R_VECTOR_LINE = 2048;
/** A line of names only (R's named vector: names right-aligned over their values). */
const R_NAMES_LINE = /^[ \t]*(?:[A-Za-z._][\w.]{0,127}[ \t]+)*[A-Za-z._][\w.]{0,127}[ \t]*\r?$/;
/** A line of quoted values only (a character vector's values, below their names). */
const R_VALUES_LINE = /^[ \t]*(?:"(?:[^"\\\n]|\\.){0,2048}"[ \t]*)+\r?$/;
const R_VALUE = /"((?:[^"\\\n]|\\.){0,2048})"/g;

/**
 * R's named character vector (`Sys.getenv(c("OSF_PAT", "REDCAP_API_TOKEN"))` in a `.Rout`: adv151 F21): a line of names, the
 * next line their quoted values in the same order; the value under a secret's name.
 */
function rNamedVectorValue(text: string, k: number, e: number, out: SecretFinding[]): void {
  // The line's ends searched in windows of MAX_R_VECTOR_LINE (a slice is a view, its search native): a megabyte line of names is
  // not walked for each of its hits (the hang guard's `--b2-key --a-key …`, 1.4 s of its 4.5).
  const from = Math.max(0, k - MAX_R_VECTOR_LINE);
  const back = text.slice(from, k).lastIndexOf('\n');
  if (back < 0 && from > 0) return;
  const lineStart = back < 0 ? 0 : from + back + 1;
  const ahead = text.slice(e, lineStart + MAX_R_VECTOR_LINE + 1).indexOf('\n');
  if (ahead < 0) return;
  const nl = e + ahead;
  // The values' line starts with a quote: tested before the names' line is cut out and read.
  let q = nl + 1;
  while (text.charCodeAt(q) === 0x20 || text.charCodeAt(q) === 0x09) q++;
  if (text.charCodeAt(q) !== 0x22) return;
  const line = text.slice(lineStart, nl);
  if (!R_NAMES_LINE.test(line)) return;
  let below = text.indexOf('\n', nl + 1);
  if (below < 0) below = text.length;
  if (below - nl - 1 > MAX_R_VECTOR_LINE) return;
  const next = text.slice(nl + 1, below);
  if (!R_VALUES_LINE.test(next)) return;
  const names = line.trim().split(/[ \t]+/);
  const values = [...next.matchAll(R_VALUE)];
  const index = text.slice(lineStart, k).trim().split(/[ \t]+/).filter((w) => w !== '').length;
  if (names.length !== values.length || names[index] !== text.slice(k, e) || !isSecretName(names[index])) return;
  const v = values[index];
  if (v[1].length === 0 || isLookAlike(v[1], PASSWORD_NAME.test(names[index]))) return;
  const start = nl + 1 + v.index! + 1;
  out.push({ start, end: start + v[1].length, kind: kindOfName(names[index]), byContext: true });
}

/** particle's label, then the token alone on the next line, indented: `New access token expires on <date>` / `    <40 hex>`. */
const EXPIRING_TOKEN_BELOW = /[ \t]+expires[ \t]+on[ \t][^\n]{1,120}\n[ \t]+(?<v>[A-Za-z0-9._-]{20,512})[ \t]*\r?(?=\n|$)/dy;
/** The words before `token` on particle's label line. */
const EXPIRING_TOKEN_LABEL = /(?:^|\n)[ \t]*New access $/;

/**
 * `particle token create`'s output saved and printed by another command (`cat`: adv144, where no command names it): its token
 * below the label line, hex digits and all (a digest below a label stays elsewhere; this label says what it is).
 */
function expiringTokenBelow(text: string, k: number, e: number, out: SecretFinding[]): void {
  if (e - k !== 5 || !EXPIRING_TOKEN_LABEL.test(text.slice(Math.max(0, k - 24), k))) return;
  EXPIRING_TOKEN_BELOW.lastIndex = e;
  const m = EXPIRING_TOKEN_BELOW.exec(text);
  if (!m) return;
  const [start, end] = m.indices!.groups!.v!;
  out.push({ start, end, kind: 'token', byContext: true });
}

/** A name's line ending at its colon, then one word alone on the next line (no colon after it: no key of a nested map). */
const WORD_BELOW = /[ \t]*\r?\n(?<ind>[ \t]*)(?<v>[^\s#:-][^\s]*?)[ \t]*\r?(?=\n|$)/dy;

/** A label's line ending at its colon, a blank line at most, then one word alone on a line (a CLI's `Your new API key:` then the key). */
const PROSE_WORD_BELOW = /[ \t]*\r?\n(?:[ \t]*\r?\n)?[ \t]*(?<v>[^\s]+?)[ \t]*\r?(?=\n|$)/dy;
/** A label's words before its name, from its line's start (`Your new API`, `Here is your`): letters, blanks, an apostrophe. */
const PROSE_LABEL_BEFORE = /(?:^|\n)[ \t]*(?:[A-Za-z][A-Za-z']*[ \t]+){0,6}$/;

/**
 * The value a CLI prints alone below its label (`Your new API key:`, `token:`, then a blank line or none, then the key at any
 * indent: particle's, balena's, many a `create` command's): a line whose words are only the label's, and a word below shaped
 * like a key (TOKEN_SHAPED: a YAML key's nested map or a sentence is none).
 */
/** Hex below a label this long at least is a key (a 256-bit key's 64 digits; 32 under `client_secret:` stays, as pass 107's forms of no secret have it). */
const MIN_HEX_KEY_BELOW = 64;
/** Do these hex digits spell printable ASCII (a text's bytes, not a key's)? */
function hexSpellsText(hex: string): boolean {
  for (let i = 0; i + 1 < hex.length; i += 2) {
    const b = parseInt(hex.slice(i, i + 2), 16);
    if (!((b >= 0x20 && b < 0x7f) || b === 0x09 || b === 0x0a || b === 0x0d)) return false;
  }
  return true;
}

function proseValueBelow(text: string, k: number, at: number): { start: number; value: string } | undefined {
  if (!PROSE_LABEL_BEFORE.test(text.slice(Math.max(0, k - 64), k))) return undefined;
  PROSE_WORD_BELOW.lastIndex = at;
  const m = PROSE_WORD_BELOW.exec(text);
  // Hex digits alone stay when they spell a text's bytes (`token (hex):` then `72656c65…`, pass 110's look-alikes) or are short;
  // a key's 64 of random hex is the value (BigCommerce's downloaded `CLIENT SECRET: ` then 64 hex below: pass 318 F29).
  if (!m || !TOKEN_SHAPED.test(m.groups!.v)) return undefined;
  if (/^[0-9a-f]+$/i.test(m.groups!.v) && (m.groups!.v.length < MIN_HEX_KEY_BELOW || hexSpellsText(m.groups!.v))) return undefined;
  return { start: m.indices!.groups!.v![0], value: m.groups!.v };
}

/** The word on the line below a name whose line ends at its colon, indented deeper than the name: its value. */
function indentedValueBelow(text: string, k: number, at: number): { start: number; value: string } | undefined {
  const marked = markedValueBelow(text, k, at);
  if (marked !== null) return marked;
  WORD_BELOW.lastIndex = at;
  const m = WORD_BELOW.exec(text);
  if (!m || m.groups!.v.endsWith(':')) return undefined;
  const lineStart = text.lastIndexOf('\n', k - 1) + 1;
  let nameIndent = 0;
  while (lineStart + nameIndent < k && (text.charCodeAt(lineStart + nameIndent) === 0x20 || text.charCodeAt(lineStart + nameIndent) === 0x09)) nameIndent++;
  if (m.groups!.ind.length <= nameIndent) return undefined;
  return { start: m.indices!.groups!.v![0], value: m.groups!.v };
}

/** A container's name before each of its lines in a multiplexed log (compose pads names to one width: a blank at least). */
// A timestamp after it (`--timestamps`: adv219 F1, F4); journald's `Dec 06 06:01:02 host unit[pid]: ` (F2).
const LOG_PREFIX_MARK = /(?:[A-Za-z0-9][\w.-]{0,127}[ \t]+\| |\[pod\/[^\s\]]{1,253}\] |[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d [\w.-]{1,128} [\w.@-]{1,128}(?:\[\d{1,10}\])?: )(?:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,9})?(?:Z|[+-]\d\d:?\d\d) )?/y;
/** After a name's colon under grep's mark: the line's end, the next line's mark (grep's context `file-N-` or match `file:N:`). */
const MARKED_LINE_END = /[ \t]*\r?\n/y;
/** The rest of that next line: its indent (group ind) and one word (group v), as WORD_BELOW's. */
const MARKED_WORD = /(?<ind>[ \t]*)(?<v>[^\s#:-][^\s]*?)[ \t]*\r?(?=\n|$)/dy;

/**
 * indentedValueBelow under grep's marks (`grep -n -A2 secret_key_base config/*.exs`: `config/prod.secret.exs:4:  secret_key_base:`
 * then `config/prod.secret.exs-5-    "…"`: pass 208 F33): null when the name's line has no grep mark before its indent.
 */
function markedValueBelow(text: string, k: number, at: number): { start: number; value: string } | undefined | null {
  let lineStart = k;
  while (lineStart > 0 && k - lineStart <= MAX_LINE_MARK + MAX_SIBLING_INDENT && text.charCodeAt(lineStart - 1) !== 0x0a) lineStart--;
  if (lineStart === k || (lineStart > 0 && text.charCodeAt(lineStart - 1) !== 0x0a) || text.charCodeAt(lineStart) === 0x20 || text.charCodeAt(lineStart) === 0x09) return null;
  // grep's `file:N:` / `N:` (LINE_MARKS[1]), or `file:` without numbers (`grep -r -A1`, LINE_MARKS[2]: adv211 F47).
  // Or a log multiplexer's (`docker compose logs`' `web-1  | `, `kubectl logs --prefix`'s `[pod/web-7d4b/app] `: adv213 F42).
  let mark = LOG_PREFIX_MARK;
  let from = afterMark(text, lineStart, mark);
  for (const other of [LINE_MARKS[1], LINE_MARKS[2]]) {
    if (from >= 0 && from <= k) break;
    mark = other;
    from = afterMark(text, lineStart, mark);
  }
  if (from < 0 || from > k) return null;
  let nameIndent = 0;
  while (from + nameIndent < k && (text.charCodeAt(from + nameIndent) === 0x20 || text.charCodeAt(from + nameIndent) === 0x09)) nameIndent++;
  if (from + nameIndent !== k) return null;
  MARKED_LINE_END.lastIndex = at;
  if (!MARKED_LINE_END.test(text)) return undefined;
  const next = afterMark(text, MARKED_LINE_END.lastIndex, mark);
  if (next < 0) return undefined;
  MARKED_WORD.lastIndex = next;
  const m = MARKED_WORD.exec(text);
  if (!m || m.groups!.v.endsWith(':') || m.groups!.ind.length <= nameIndent) return undefined;
  return { start: m.indices!.groups!.v![0], value: m.groups!.v };
}

/** A word diff's removed and added words (`[-old-]{+new+}`, either alone). */
const WORD_DIFF = /\[-(?<old>(?:(?!-\])[^\n]){1,4096})-\](?:\{\+(?<new>(?:(?!\+\})[^\n]){1,4096})\+\})?/dy;
/** The next option of an Unreal-style URL in a value (`?Port=7777`). */
const NEXT_URL_OPTION = /\?[A-Za-z][\w.-]{0,63}=/;
/** A note in angle brackets instead of a value (`<Not set>`, `<not configured>`, `<none>`). */
// A blank in it makes it a note whatever else it holds (`<rcon password, 16+ chars>`: adv219 L4); a value stops at a blank.
const ANGLE_NOTE = /^<(?:[A-Za-z][A-Za-z-]{0,30}|[A-Za-z][^\s<>]{0,40}(?: [^\s<>]{1,40}){1,8})>(?![^\s,;.])/;
const MAX_ANGLE_NOTE = 360;
/** A call's head as a bare value: a name and its open parenthesis (`Some(`, `SecretStr(`). */
const CALL_HEAD = /^[A-Za-z_][\w.:]{0,63}\($/;
/** A secret's name as a program spells it (`apiKey`, `db.password`, `client_secret`): letters and separators, no digit. */
// One way to match each string: `[A-Za-z]*(?:[_.-]?[A-Za-z]+)*` split a run of letters every way before a digit failed it, 2^n
// tries (a docker `"auth"` of 30 letters then a digit never returned: adv55 F31).
const NAME_AS_VALUE = /^[A-Za-z]+(?:[_.-][A-Za-z]+)*$/;
/** Longest value NAME_AS_VALUE is tried on. */
const MAX_NAME_AS_VALUE = 48;
/** An expression: a member chain (`req.body.password`, `self.cfg.token`, `env?.X`) or a call on one (`getpass.getpass()`). */
const MEMBER_CHAIN = /^(?:await[ \t]+)?[A-Za-z_$][\w$]*(?:(?:\??\.|::|->)[A-Za-z_$][\w$]*)+(?:\(.*)?$|^[A-Za-z_$][\w$]{2,}\(.*$/;
/**
 * A part of a dotted value no identifier is (`uZI1sRk_PBQLMZ` of a password `vhhBE.uZI1sRk_PBQLMZ` in Micronaut's
 * `${DATASOURCES_DEFAULT_PASSWORD:vhhBE.uZI1sRk_PBQLMZ}`: adv104 F14): both cases and a digit, not camelCase (`getUser2`,
 * `AccessToken`): a made word, so the value is no member chain of code.
 */
/**
 * A password a person made in a member chain's shape: words, then digits, a dot and a few letters (`MeadowVelvet19.qis`,
 * `walnutEmber77.Rm2` in `kafka-configs --add-config 'SCRAM-SHA-512=[password=…]'`: adv200 F3); `obj.attr` in code has no digits
 * ending its first part.
 */
const MADE_PASSWORD_CHAIN = /^[A-Za-z]{3,32}\d{2,6}\.[A-Za-z0-9]{2,6}$/;
function mintedSegment(value: string): boolean {
  for (const part of value.split(/\??\.|::|->|\(/)) {
    if (/[a-z]/.test(part) && /[A-Z]/.test(part) && /\d/.test(part) && !CAMEL_CASE_WORD.test(part)) return true;
  }
  return false;
}
const CAMEL_CASE_WORD = /^_?[A-Za-z][a-z]*(?:[A-Z][a-z]+|[A-Z]{2,}(?![a-z]))*\d*$/;
/** A whole call of plain arguments (`getpass.getpass()`, `sign(user.id, opts)`): code wherever it stands (a random key's `!@#%^&*` are no arguments'). */
const WHOLE_CALL = /^(?:await[ \t]+)?[A-Za-z_$][\w$]*(?:(?:\??\.|::|->)[A-Za-z_$][\w$]*)*\([\w$.]*\)$/;
/** After an expression in code: a statement's `;` or the end of an argument list, object or array (`{ clientSecret: cfg.apiKey })`: adv44 K01). */
const CODE_AFTER = /^[ \t]*[;,)}\]]/;
/** A setting read from a settings object by its constant's name (`password = settings.DB_PASSWORD`: adv44 K02). */
const SETTING_REFERENCE = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*\.[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
/** After a value: `=` (not `==`): the value was a type annotation's type. */
const ANNOTATION_AFTER = /^[ \t]+=(?!=)/;
/** A lookup's call head (`request.headers.get(`, `os.getenv(`, `config.fetch(`): its quoted argument is a key's name. */
// Or a Jenkinsfile's `credentials('harbor-robot')` (adv53 K03): the argument is a credential's id in Jenkins' store.
const LOOKUP_CALL_HEAD = /(?:^|[.:>])(?:get|getenv|get_env|fetch|env|getProperty|getString|getSecret|getValue|lookup|param|header|require|credentials)\($/;
/**
 * `…Key` after a lowercase letter or digit, case kept: a camelCase or PascalCase key's name. Or a name ending `_encryption`
 * (ESPHome's `esphome_api_encryption: "<base64 of 32 bytes>"`: adv144), which names a setting as often (`sse_encryption: aws:kms`,
 * `server_side_encryption: AES256`): either is a secret's name only when its value is shaped like a key (TOKEN_SHAPED). Or a name
 * ending `_MASTER` (`MEILI_MASTER=<key>`: attack 323; `SPARK_MASTER=spark://…`, `PG_MASTER=db-01.internal` are addresses).
 */
/**
 * A key's label's word before `key` in prose (`API key`, `secret key`, `license key`): not `access key` (AWS's is a key's id). A
 * Thread or Zigbee network's (`Network Key: <32 hex>` of `ot-ctl dataset active`: pass 238 S40).
 */
const PROSE_KEY_LABEL = /(?:^|[\s'"(])(?:api|secret|licen[cs]e|deploy|signing|encryption|master|auth|network)[ \t]$/i;
/** Shortest `device_id` read as a trusted device's token (Synology's is 86; a UUID 36, a SHA-256 hex id 64 but one case). */
const MIN_DEVICE_TOKEN = 48;
/** A Twilio resource's sid (`AC…`, `SK…`, `PN…`: two letters, 32 hex digits). */
const TWILIO_SID = /^[A-Z]{2}[0-9a-f]{32}$/;
/** A Windows security identifier (`S-1-5-21-3623811015-…-1013`). */
const WINDOWS_SID = /^S-1(?:-\d+)+$/;
/** A master key's value (CAMEL_KEY_NAME's `_MASTER`): mixed case and a digit, no dashes; or hex other than a commit's 40. */
const MASTER_KEY_VALUE = /^(?:(?=[^A-Z]*[A-Z])(?=[^a-z]*[a-z])(?=\D*\d)[A-Za-z0-9_+/=]{16,256}|(?![0-9a-f]{40}$)[0-9a-f]{32,128})$/;
/** A key pair's half named as a database's key would be (PAIRED_KEY_VALUE says which). */
const PAIRED_KEY_NAME = /(?:^|[_.-])(?:PRIMARY|SECONDARY|primary|secondary)[_.-](?:KEY|key)$/;
/** A key's base64 (30 bytes and up, both cases): not a column's name (`order_id`), a number or a UUID. */
const PAIRED_KEY_VALUE = /^(?=[^+/=]*[A-Z])(?=[^+/=]*[a-z])(?=[^+/=]*\d)[A-Za-z0-9+/]{40,88}={0,2}$/;
const CAMEL_KEY_NAME = /[a-z0-9]Key$|[A-Za-z0-9][_.-](?:[Ee]ncryption|ENCRYPTION|[Mm]aster|MASTER)$|[a-z0-9]Master$|(?:^|[_.-])[Bb]earer$/;
/** A value shaped like a key: letters and digits (base64's `+/=`, `-`, `_`), 20 characters and up, a digit and a letter in it. */
const TOKEN_SHAPED = /^(?=[^\d]*\d)(?=[^A-Za-z]*[A-Za-z])[A-Za-z0-9+/=_-]{20,}$/;
/** A declaration or a member before a name on its line (`const `, `let `, `private final String `, `this.`, `self.`, `$this->`). */
const CODE_DECLARATION_BEFORE = /(?:^|\n)[ \t]*(?:export[ \t]+)?(?:(?:const|let|var|val|final|auto|my|local|static|private|public|protected|readonly|internal)[ \t]+)+(?:[\w<>[\]?.]+[ \t]+)?$|(?:\bthis|\bself)\.$|\$this->$/;
/** How far back CODE_DECLARATION_BEFORE reads (a declaration's keywords and type are short). */
const CODE_LOOKBACK = 160;
/** An HTTP auth scheme's word (and Fly.io's macaroon scheme `FlyV1`), written before the credential in a variable's value. */
const AUTH_SCHEME_WORD = /^(?:Bearer|Basic|Token|Bot|FlyV1|SSWS|GenieKey|Splunk|OAuth|Digest)$/i;
/** After a scheme's word and its blanks: the credential (one word, at least 8 characters; `secret` as VALUE_AT names it). */
const SCHEME_CREDENTIAL = /(?<secret>[^\s"',;}\]\\]{8,8192})/y;
/** After a value: a change to a new one (`=> "new"`, `-> "new"`), quoted or bare. */
const CHANGED_TO = /["']?[ \t]*(?:->|=>)[ \t]*(?:"(?<q>(?:[^"\\\n]|\\.){1,4096})"|'(?<s>[^'\n]{1,4096})'|(?<b>[^\s"',;}\]]+))/y;
/** A pointer's address before its string (gdb's `char *`). */
const GDB_POINTER = /0x[0-9a-f]{4,16}[ \t]+(?=")/y;
/** A .reg file's `hex:` / `hex(N):` value: bytes in hex, comma-separated, a line continued by `,\\` and the next line's indent. */
const REG_HEX_VALUE = /hex(?:\([0-9a-f]\))?:(?<v>[0-9a-f]{2}(?:,(?:\\\r?\n[ \t]*)?[0-9a-f]{2}){0,8191})/dy;
/** `Some(` ending its line, then the next line's indent before a quoted value. */
const SOME_BELOW = /Some\([ \t]*\r?\n[ \t]*(?=")/y;
/** A string literal's prefix before its quote: Python's `b` / `r` / `u` / `rb`, an Elixir sigil's `~c`, Objective-C's `@`. */
// Objective-C's `@"…"` too (react-native-config's GeneratedDotEnv.m: `@"PARTNER_CLIENT_SECRET":@"…"`: adv32 F29).
// T-SQL's Unicode literal `N'…'` (`@rmtpassword = N'…'`: adv34 F30).
const STRING_PREFIX = /(?:[bBrRuU]{1,2}|~[a-zA-Z]|@|N)(?=["'])/y;
/** fish's `set --show` line of a variable's scope (`set in global scope, exported, with 1 elements`, `originally inherited as |…|`). */
const FISH_SCOPE = /(?:set in (?:global|universal|local|function) scope|originally inherited as )/y;

/** The rest of a name's line is empty and the next line is a YAML list's item (`  - …`). */
// Under grep -A's prefix or not (`Settings.asset-9-  - <key>`: a Unity asset's `secretKey:` list, pass 177 F39).
const YAML_LIST_AFTER = /^[ \t]*\r?\n(?:[^\s:]{1,256}[-:]\d{1,9}[-:]|\d{1,9}[-:])?[ \t]*-[ \t]+\S/;
/** YAML_LIST_AFTER whose first item is a cookie's `name=value` (a cassette's `Set-Cookie:` list), not a bare value. */
const YAML_COOKIE_ITEM_AFTER = /^[ \t]*\r?\n(?:[^\s:]{1,256}[-:]\d{1,9}[-:]|\d{1,9}[-:])?[ \t]*-[ \t]+["']?[^\s="']{1,256}=/;
/** Is `at` in Podfile.lock's `SPEC CHECKSUMS:` section (no blank line since its header)? */
const POD_CHECKSUMS = 'SPEC CHECKSUMS:';
/** The last text inPodChecksums was asked about, and whether it has the section's header at all. */
let podSections: { text: string; any: boolean } | undefined;
function inPodChecksums(text: string, at: number): boolean {
  // Asked once per 40-hex value under a secret's name: a text of thousands (and no section) was searched back whole each time.
  if (podSections?.text !== text) podSections = { text, any: text.includes(POD_CHECKSUMS) };
  if (!podSections.any) return false;
  const header = text.lastIndexOf(POD_CHECKSUMS, at);
  return header >= 0 && text.lastIndexOf('\n\n', at) < header;
}

/** A positional parameter at a value's start (`$1`, `$12`). */
const POSITIONAL = /\$(?<n>\d{1,3})\b/y;
/** The list of bound values at a log line's end: TypeORM's `-- PARAMETERS: [...]`, Ecto's ` [...]`. */
const BOUND_LIST = /(?:-- PARAMETERS:[ \t]*|[ \t])\[(?<list>[^\n]*)\][ \t]*\r?$/;
/** One item of a bound list: a JSON string or anything to the next comma. */
const BOUND_ITEM = /[ \t]*(?:"(?<s>(?:[^"\\\n]|\\.)*)"|[^,\n]*)[ \t]*(?:,|$)/dy;

/** The `n`th value of the bound list at the end of the line holding `at`, when it is a string (a value of a secret's column). */
function boundByPosition(text: string, at: number, n: number, name: string, out: SecretFinding[]): void {
  const lineEnd = text.indexOf('\n', at);
  const end = lineEnd < 0 ? text.length : lineEnd;
  const tail = text.slice(at, end);
  const m = BOUND_LIST.exec(tail);
  if (!m || n < 1) return;
  const listAt = at + m.index + m[0].indexOf('[') + 1;
  const list = m.groups!.list;
  BOUND_ITEM.lastIndex = 0;
  for (let i = 1; BOUND_ITEM.lastIndex < list.length; i++) {
    const before = BOUND_ITEM.lastIndex;
    const item = BOUND_ITEM.exec(list);
    if (!item || BOUND_ITEM.lastIndex === before) return;
    if (i !== n) continue;
    const v = item.groups!.s;
    if (v === undefined || isLookAlike(v, PASSWORD_NAME.test(name))) return;
    const [start, stop] = item.indices!.groups!.s!;
    out.push({ start: listAt + start, end: listAt + stop, kind: kindOfName(name), byContext: true });
    return;
  }
}

/**
 * An environment read with a literal fallback, at a value's start: the fallback in group v (a call's second argument, or
 * django-environ's keyword: `env("X", default="…")`, 137 F02) or w (after `||`/`??`); x: Elixir's on the next line; y: Kotlin's
 * and Gradle's (`System.getenv("X") ?: "…"`, `providers.gradleProperty("x").getOrElse("…")`: adv32 F02).
 */
const ENV_READ_FALLBACK = /(?:(?:env|getenv|os\.getenv|os\.environ\.get|ENV\.fetch|Deno\.env\.get|System\.getenv|System\.get_env)\([ \t]*(?<q1>["'])[A-Za-z_][\w.]*\k<q1>[ \t]*,[ \t]*(?:default[ \t]*=[ \t]*)?(?<q2>["'])(?<v>[^"'\n]{1,1024})\k<q2>|(?:process\.env|import\.meta\.env|Bun\.env|ENV)(?:\.[A-Za-z_]\w*|\[[ \t]*["'][A-Za-z_]\w*["'][ \t]*\])[ \t]*(?:\|\||\?\?|or)[ \t]*(?<q3>["'])(?<w>[^"'\n]{1,1024})\k<q3>|System\.get_env\([ \t]*"[A-Za-z_]\w*"[ \t]*\)[ \t]*\|\|[ \t]*\r?\n?[ \t]*"(?<x>[^"\n]{1,1024})"|(?:System\.getenv|System\.getProperty|providers\.(?:gradleProperty|environmentVariable)|(?:project\.)?findProperty)\([ \t]*(?<q5>["'])[\w.-]{1,128}\k<q5>[ \t]*\)(?:\.orNull)?(?:[ \t]*(?:\?:|\|\||\?\?)[ \t]*|\.(?:getOrElse|orElse)\([ \t]*)(?<q4>["'])(?<y>[^"'\n]{1,1024})\k<q4>)/dy;
/** An environment read's call before its quoted name (ENV_READ_FALLBACK's calls), to the quote. */
const ENV_CALL_BEFORE = /(?:System\.get_env|System\.getenv|os\.getenv|os\.environ\.get|Deno\.env\.get|ENV\.fetch|getenv|env)\([ \t]*["']$/;
/** Characters before a name read for its environment call (the longest call's name and its parenthesis). */
const ENV_CALL_LOOKBACK = 24;

/** The literal fallback of the environment read whose quoted name is text[k, e) (ENV_READ_FALLBACK read from the call's start). */
function envCallFallback(text: string, k: number, e: number, out: SecretFinding[]): void {
  const call = ENV_CALL_BEFORE.exec(text.slice(Math.max(0, k - ENV_CALL_LOOKBACK), k));
  if (!call) return;
  ENV_READ_FALLBACK.lastIndex = k - call[0].length;
  const read = ENV_READ_FALLBACK.exec(text);
  if (!read) return;
  const g = read.groups!.v !== undefined ? 'v' : read.groups!.w !== undefined ? 'w' : read.groups!.x !== undefined ? 'x' : 'y';
  const name = text.slice(k, e);
  if (!isSecretName(name) || isLookAlike(read.groups![g], PASSWORD_NAME.test(name))) return;
  const [start, end] = read.indices!.groups![g]!;
  out.push({ start, end, kind: kindOfName(name), byContext: true });
}

/** Blanks, a line break and the next line's indent: a value on the line below its name. */
const LINE_BREAK_AT = /[ \t]*\r?\n[ \t]*/y;
/** An ERB tag to its end on the line. */
const ERB_TAG = /<%=?(?<expr>[^\n]*?)%>/y;
/** A literal fallback in an ERB expression: `ENV.fetch("X") { "…" }`, `ENV.fetch("X", "…")`, `ENV["X"] || "…"`. */
const ERB_FALLBACK = /(?:\{[ \t]*|,[ \t]*|\|\|[ \t]*)(?<q>["'])(?<v>[^"'\n]{1,1024})\k<q>/dg;

/** The literal fallbacks of the ERB tag at `at` (erb's environment reads are references). */
function erbFallback(text: string, at: number, name: string, out: SecretFinding[]): void {
  ERB_TAG.lastIndex = at;
  const tag = ERB_TAG.exec(text);
  if (!tag) return;
  const exprAt = at + tag[0].indexOf(tag.groups!.expr);
  for (const f of tag.groups!.expr.matchAll(ERB_FALLBACK)) {
    const v = f.groups!.v;
    // `ENV.fetch("DB_PASSWORD", …)`'s first argument is the variable's name, not a value.
    if (isLookAlike(v, PASSWORD_NAME.test(name)) || /^[A-Z][A-Z0-9_]*$/.test(v)) continue;
    const [start, end] = f.indices!.groups!.v!;
    out.push({ start: exprAt + start, end: exprAt + end, kind: kindOfName(name), byContext: true });
  }
}

/** After an API key's value, its `"encoded"` form in the same object (no brace between). */
const ENCODED_AFTER = /"[^{}]{0,256}?"encoded"[ \t]*:[ \t]*"(?<v>[A-Za-z0-9+/=]{8,4096})"/y;

/** A PagerDuty routing key after its name's separator: 32 hex digits, quoted or not, alone. */
// (Or the next field after it on the same line: `jq -c`'s `{"routing_key":"…","event_action":…}`: adv195 F34.)
// (Or inside a JSON string, its quotes escaped: a hook payload's `-d '{\"routing_key\":\"…\"}'`: adv201 F33.)
// (Or Ruby's inspect of the client holding it: `#<PagerDuty::Client … @routing_key="…", @from="…">`, the next field an `@name=` or
// the object's `>`: pass 324 F37.)
// (A dataclass' repr, the next keyword argument `, severity='…'`, its `)`; a YAML comment after it: adv333 S46, S47.)
const ROUTING_KEY_VALUE = /\\?["']?[a-f0-9]{32}(?=\\?["']?[ \t]*(?:,[ \t]*\\?["']?[A-Za-z_][\w-]{0,63}\\?["']?[ \t]*:|,[ \t]*@?[A-Za-z_]\w{0,63}=|[,}>)]?[ \t]*(?:#[^\n]{0,256})?\r?(?:\n|$)))/y;
/** A JSON field that flags its object's value as a secret (`"secret": true`); the name as namedValue widens it (`isSecret` is none). */
const SECRET_FLAG_NAME = /^secret$/i;
/** Of a flagged object, the characters read either side of the flag for its braces (pulumi's object is three lines). */
const FLAGGED_OBJECT_CHARS = 1024;
/** A JSON string field `"value": "…"` (group v). */
const JSON_VALUE_FIELD = /"[Vv]alue"[ \t]*:[ \t]*"(?<v>(?:[^"\\\n]|\\.){1,4096})"/g;
/** Any JSON string field `"name": "…"` (group v). */
const JSON_STRING_FIELD = /"[^"\\\n]{1,256}"[ \t]*:[ \t]*"(?<v>(?:[^"\\\n]|\\.){1,4096})"/g;

/**
 * `{"value": "…", "secret": true}` (pulumi's `config --json --show-secrets`: the value comes before the flag; a secret not shown
 * has no `"value"`): the object around the flag at `at` and its string `"value"`s (a structured secret's JSON-encoded value).
 */
function flaggedObjectValue(text: string, at: number, out: SecretFinding[]): void {
  // The object's braces, counted (a structured value's `"objectValue": {…}` and a JSON-encoded `"{\"a\":1}"` are balanced).
  let open = -1;
  for (let i = at - 1, depth = 0; i >= 0 && at - i <= FLAGGED_OBJECT_CHARS; i--) {
    const c = text.charCodeAt(i);
    if (c === 0x7d) depth++;
    else if (c === 0x7b && depth-- === 0) {
      open = i;
      break;
    }
  }
  if (open < 0) return;
  let close = Math.min(text.length, at + FLAGGED_OBJECT_CHARS);
  for (let i = at, depth = 0; i < close; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b) depth++;
    else if (c === 0x7d && depth-- === 0) close = i;
  }
  const body = text.slice(open, close);
  // A structured secret (`pulumi config set --secret --path db.password …`): its `objectValue`'s strings are the secret too.
  const object = body.indexOf('"objectValue"');
  if (object >= 0) {
    JSON_STRING_FIELD.lastIndex = object + 13;
    for (let v = JSON_STRING_FIELD.exec(body); v; v = JSON_STRING_FIELD.exec(body)) {
      const value = v.groups!.v;
      if (v.index + v[0].length > close - open || isReference(value) || isLookAlike(value, true)) continue;
      const s = open + v.index + v[0].length - 1 - value.length;
      out.push({ start: s, end: s + value.length, kind: 'secret', byContext: true });
    }
  }
  JSON_VALUE_FIELD.lastIndex = 0;
  for (let v = JSON_VALUE_FIELD.exec(body); v; v = JSON_VALUE_FIELD.exec(body)) {
    const value = v.groups!.v;
    if (isReference(value) || isLookAlike(value, true)) continue;
    const s = open + v.index + v[0].length - 1 - value.length;
    out.push({ start: s, end: s + value.length, kind: 'secret', byContext: true });
  }
}

/** A signing section's object open above a bare `Key` field, no other object opened or closed between. */
// Also PHP's arrays (Magento's `'crypt' => ['key' => …]`: adv15 D32).
// Or an object named for a key it holds (a GraphQL mutation's result `{"rotate_partner_key": {"key": "…"}}`, `"api_key": {"key": …}`:
// adv24 F26).
const KEY_SECTION_ABOVE = /["']?(?:jwt|signing|encryption|hmac|jwtsettings|jwtoptions|tokens?|crypt|[\w-]*(?:api|secret|private|partner|signing|access|master)[_-]?key)["']?[ \t]*(?::|=>)[ \t]*[{[][^{}[\]]*["']$/i;
/**
 * A JWT's settings object, its name not printed (`jq '.Jwt' appsettings.json`: `{ "Issuer": …, "Audience": …, "Key": …}`: adv172
 * F21): its issuer among the flat fields before the key.
 */
// Or YAML (`Issuer: …` then `Audience: …` at the key's indentation: session 34's own attack).
const JWT_SETTINGS_ABOVE = /\{[^{}[\]]*["']?(?:Valid)?Issuer["']?[ \t]*[:=][^{}[\]]*["']$|(?:^|\n)([ \t]*)(?:Valid)?Issuer[ \t]*:[^\n]*\r?\n(?:\1[A-Za-z]\w{0,64}[ \t]*:[^\n]*\r?\n){0,4}\1$/;
/** Above a `key` field: a list of API keys or tokens, then the item's object opened, its flat fields before the key. */
const KEY_LIST_ABOVE = /["']?(?:api[_-]?keys|access[_-]?keys|secret[_-]?keys|tokens|credentials)["']?[ \t]*:[ \t]*\[[ \t\r\n]*\{[^{}[\]]*["']?$/i;
/** How far above a `Key` field its section's name is looked for (a few fields). */
const KEY_SECTION_LOOKBACK = 256;
/** .NET's `IConfigurationRoot.GetDebugView()`: a signing section's line (`Jwt:`), then its `Key=` indented below, its siblings between (adv46 F08). */
// Each line may carry grep's number (`grep -n -A7 '^api:'`: `12:api:`, `13-  encryption:`, `14-    key: "…"`: adv168 F31), and its
// file's name (`grep -rn`: `esphome/door.yaml-3-    key: …`).
const DEBUG_VIEW_SECTION_ABOVE = /(?:^|\n)(?:[\w./-]{1,200}?[:-]\d{1,9}[:-]|\d{1,9}[:-])?[ \t]*(?:jwt|jwtsettings|jwtoptions|signing|encryption|hmac|tokens?)[ \t]*:[ \t]*\r?\n(?:(?:[\w./-]{1,200}?[:-]\d{1,9}[:-]|\d{1,9}[:-])?[ \t]+[^\n]*\r?\n){0,8}(?:[\w./-]{1,200}?[:-]\d{1,9}[:-]|\d{1,9}[:-])?[ \t]+$/i;
/** YAML's `api:` section above a `key` field (the OpenTelemetry collector's Datadog exporter: `api:` then `  key: <32 hex>`: adv91 F45). */
const API_SECTION_ABOVE = /(?:^|\n)(?:[\w./-]{1,200}?[:-]\d{1,9}[:-]|\d{1,9}[:-])?[ \t]*api[ \t]*:[ \t]*\r?\n(?:(?:[\w./-]{1,200}?[:-]\d{1,9}[:-]|\d{1,9}[:-])?[ \t]+[^\n]*\r?\n){0,8}(?:[\w./-]{1,200}?[:-]\d{1,9}[:-]|\d{1,9}[:-])?[ \t]+$/;
/** Above a `key` field: a YAML list of keys or credentials, the item's other fields before it (Kong's `keyauth_credentials:` then `- key: …`: adv91 F46). */
const YAML_KEY_LIST_ABOVE = /(?:api[_-]?keys|access[_-]?keys|secret[_-]?keys|tokens|credentials)["']?[ \t]*:[ \t]*\r?\n(?:[ \t]*(?:-[ \t]*)?[\w-]{1,64}:[ \t]+\S[^\n]*\r?\n){0,6}[ \t]*(?:-[ \t]*)?$/i;

/** Characters before a paired name read for its field (`"ParameterKey": "`, `"Name": "/prod/app/` of an SSM parameter's path). */
const PAIR_NAME_LOOKBACK = 96;

/** Before a name that is the value of a `name` / `key` field: `"name": "`, `- name: `, `"key":"`, `Name=`; 1Password's `"label": "`. */
// Or padded, a label column (EAS CLI's `eas env:list --format long`: `Name        ALGOLIA_ADMIN_KEY` then `Value       …`: adv32 F27).
// Its quotes may be escaped: a JSON document in a JSON string (kubectl's `last-applied-configuration` annotation:
// `{\"name\":\"DB_PASSWORD\",\"value\":\"…\"}`: adv37 F15).
// Other fields may stand between on the line, and the value be a JSON-encoded list of one string (a Jaeger span's tag:
// `{"key":"http.request.header.x_api_key","type":"string","value":"[\"…\"]"}`: adv91 F28).
// A Mongo-stored setting's `_id` (Rocket.Chat's settings in node's inspect: `{ _id: 'SMTP_Password', value: '…' }`: pass 202 F29).
// A Zabbix user macro's (`- macro: '{$DB.PASSWORD}'` then `value: …` in a template's YAML, `{"macro":"{$…}","value":…}` of its API:
// pass 195), the name inside `{$…}`, a context after it (`{$MYSQL.PASSWORD:"db01"}`: adv211 F4).
const PAIR_NAME_BEFORE = /(?:(?:\\?["'])?(?:name|key|Name|Key|variable|ParameterKey|OutputKey|keyName|KeyName|Property|label|macro|_id)(?:\\?["'])?(?:[ \t]*[:=][ \t]*|[ \t]{2,})(?:\\?["'])?(?:[\w.-]*\/){0,8}(?:\{\$)?)$/;
/** After that name: its `value` field, on the same line or the next (`, "value": "…"`, `\n  value: …`); an empty object or list
 * among the fields between (`az keyvault secret show`'s `"tags": {},` between `"name"` and `"value"`: pass 135 F33), or an XML
 * element's other attributes (ServiceNow's `<parameter name="mid.instance.password" secure="true" value="…"/>`: pass 265 S25). */
const PAIR_VALUE_AT = /(?::(?:\\?"[^"\n]{0,64}\\?"|[^}"'\n]{0,64}))?\}?(?:\\?["'])?[ \t]*(?:,[ \t]*)?(?:"(?![Vv]alue")\w{1,32}"[ \t]*:[ \t]*(?:"[^"\\\n]{0,64}"|[\w.-]{1,32})[ \t]*,[ \t]*){0,2}(?:(?![Vv]alue=)[\w:-]{1,32}=(?:"[^"\n]{0,64}"|'[^'\n]{0,64}')[ \t]+){0,3}(?:\r?\n[ \t]*(?:"(?![Vv]alue")\w{1,32}"[ \t]*:[ \t]*(?:\{\}|\[\]|[^\n{}[\]]{0,256}),|(?![Vv]alue\b)\w{1,32}:[ \t]*[^\n{}[\]:]{0,256})[ \t]*){0,4}(?:\r?\n(?:[-+](?=[ \t]))?[ \t]*(?:[+~][ \t]+)?)?(?:\\?["'])?(?:value|Value|ParameterValue|OutputValue)(?:\\?["'])?(?:[ \t]*[:=][ \t]*|[ \t]{2,})(?:\\"(?<v>(?:[^"\\\n]|\\[^"\n]){1,2048})\\"|"\[\\"(?<listed>[^"\\\n]{1,2048})\\"\]"|"(?<quoted>(?:[^"\\\n]|\\.){1,2048})"|'(?<single>[^'\n]{1,2048})'|(?<bare>[^\s"',}\]]+))/dy;

/**
 * A name/value pair whose name is a secret's (`env: - name: DB_PASSWORD ⏎ value: …` in a pod spec, ECS's `{"name":
 * "DB_PASSWORD", "value": "…"}`, GitLab's CI variables `{"key": "DEPLOY_TOKEN", "value": "…"}`): the value is masked.
 */
/** A table cell or a definition term that is the name alone (`<td>Password</td>`, `<th class="k">API token</th>`, `<dt>Secret</dt>`), from its text's end. */
const HTML_NAME_CELL_END = /^[ \t]*<\/(?:td|th|dt)>[ \t]*\r?\n?[ \t]*<(?:td|dd)\b[^>\n]{0,256}>[ \t]*(?<v>[^<\s][^<\n]{0,4095}?)[ \t]*<\/(?:td|dd)>/d;
/** The cell's opening tag right before the name (its words between: `API` of `API token`). */
const HTML_NAME_CELL_START = /<(?:td|th|dt)\b[^>\n]{0,256}>[ \t]*(?:[A-Za-z][\w-]*[ \t]+){0,3}$/;

/**
 * A secret's name in an HTML table's or definition list's cell, its value in the next cell (a wiki page fetched with curl,
 * an HTML report: `<td>Password</td><td>…</td>`, or the next cell on the next line: adv21 F33's table without its entities).
 */
function htmlCellValue(text: string, k: number, e: number, out: SecretFinding[]): void {
  if (text.charCodeAt(e) !== 0x3c && text.charCodeAt(e) !== 0x20) return;
  if (!HTML_NAME_CELL_START.test(text.slice(Math.max(0, k - 320), k))) return;
  const m = HTML_NAME_CELL_END.exec(text.slice(e, e + 4096 + 600));
  if (!m) return;
  const value = m.groups!.v;
  if (isLookAlike(value, PASSWORD_NAME.test(text.slice(k, e))) || isReference(value) || /\s/.test(value)) return;
  const at = e + m.indices!.groups!.v![0];
  out.push({ start: at, end: at + value.length, kind: kindOfName(text.slice(k, e)), byContext: true });
}

function pairedValue(text: string, k: number, e: number, out: SecretFinding[]): void {
  if (!(k > 0 && PAIR_NAME_BEFORE.test(text.slice(Math.max(0, k - PAIR_NAME_LOOKBACK), k)))) return;
  const found = out.length;
  valueFromName(text, k, e, PAIR_VALUE_AT, out);
  // A diff that changed the value (`- name: DD_API_KEY` then `-  value: <old>` and `+  value: <new>`: adv195 F46): the new one too.
  if (out.length === found) return;
  DIFF_NEW_VALUE.lastIndex = text.indexOf('\n', out[out.length - 1].end);
  const v = DIFF_NEW_VALUE.lastIndex > 0 ? DIFF_NEW_VALUE.exec(text) : null;
  if (v && !isLookAlike(v.groups!.v, PASSWORD_NAME.test(text.slice(k, e)))) {
    const [start, end] = v.indices!.groups!.v!;
    out.push({ start, end, kind: out[out.length - 1].kind, byContext: true });
  }
}
/** A diff's added value line right after the removed one: `+`, blanks, `value:`, the value. */
const DIFF_NEW_VALUE = /\n\+[ \t]*(?:value|Value)[ \t]*:[ \t]*["']?(?<v>[^\s"',}\]]{1,2048})/dy;

/** A lowercase identifier (`db_password`, `stripe-api-key`) that is a secret's name: what names a secret, never one. */
const isNameOfSecret = (value: string) => value.length <= 64 && /^[a-z][a-z0-9]*(?:[_.-][a-z0-9]+)+$/.test(value) && isSecretName(value);

/**
 * A pair in an array or a tuple, a header's name then its value (Sentry's `"headers": [["X-Api-Key", "…"], …]`, pretty-printed
 * over lines: adv61 F48; Python's `('X-Api-Key', '…')`): the value when the name is a secret's and the pair closes after it.
 */
function arrayPairValue(text: string, k: number, e: number, out: SecretFinding[]): void {
  const q = text.charCodeAt(k - 1);
  if ((q !== 0x22 && q !== 0x27) || !ARRAY_PAIR_OPEN.test(text.slice(Math.max(0, k - 1 - ARRAY_PAIR_LOOKBACK), k - 1))) return;
  // A list of two constants is none (Cognito's `["ALLOW_REFRESH_TOKEN_AUTH", "ALLOW_USER_SRP_AUTH"]`: adv12 L30).
  if (CONSTANT_NAME.test(text.slice(k, e))) return;
  // The Authorization header's pair (Sentry's event JSON pretty-printed: `[` / `"Authorization",` / `"Token …"` / `]`: adv91
  // F30): the credential after its scheme. One line's pair is the header rules'.
  if (AUTHORIZATION_NAME.test(text.slice(k, e))) {
    AUTHORIZATION_PAIR_VALUE.lastIndex = e;
    const a = AUTHORIZATION_PAIR_VALUE.exec(text);
    if (a && !isLookAlike(a.groups!.v, false) && !isReference(a.groups!.v)) {
      const [start, end] = a.indices!.groups!.v!;
      out.push({ start, end, kind: 'authorization header', byContext: true });
    }
    return;
  }
  const before = out.length;
  valueFromName(text, k, e, ARRAY_PAIR_VALUE, out);
  if (out.length > before && CONSTANT_NAME.test(text.slice(out[before].start, out[before].end))) out.length = before;
}
/**
 * jq's `--stream` events (`jq --stream -c .`: `[["service","api_key"],"<value>"]`; pretty over lines without `-c`: adv194): a
 * leaf's path, its last element the name, then the leaf's value and the event's closing bracket. The name's quote follows the
 * path's `[` or `,`.
 */
function jqStreamLeaf(text: string, k: number, e: number, out: SecretFinding[]): void {
  if (text.charCodeAt(k - 1) !== 0x22) return;
  // Its events in a JSON string (`jq -c '[tostream] | tojson'`: `[[\"email\",\"smtp_pass\"],\"…\"]`, adv213 F1).
  const escaped = text.charCodeAt(k - 2) === 0x5c && text.charCodeAt(e) === 0x5c && text.charCodeAt(e + 1) === 0x22;
  if (!escaped && text.charCodeAt(e) !== 0x22) return;
  let b = escaped ? k - 3 : k - 2;
  while (b >= 0 && (text.charCodeAt(b) === 0x20 || text.charCodeAt(b) === 0x0a || text.charCodeAt(b) === 0x0d)) b--;
  const c = text.charCodeAt(b);
  if (c !== 0x5b && c !== 0x2c) return;
  valueFromName(text, k, e, escaped ? JQ_STREAM_LEAF_ESCAPED : JQ_STREAM_LEAF, out);
}
/** After a plural name in a path: its quote, a comma, the index, the path's `]`, a comma, the leaf's string, the event's `]`. */
const JQ_STREAM_ITEM = /",\d{1,6}\][ \t]*,[ \t]*"(?<v>(?:[^"\\\n]|\\.){1,2048})"[ \t]*\]/dy;
/** jq's `--stream` event of a list's item under a plural secret name (`[["tokens",0],"<value>"]`): the leaf. */
function jqStreamItem(text: string, k: number, e: number, out: SecretFinding[]): void {
  if (text.charCodeAt(k - 1) !== 0x22 || text.charCodeAt(e) !== 0x22 || text.charCodeAt(e + 1) !== 0x2c) return;
  const name = text.slice(k, e);
  const item = singularOfList(name) ?? name;
  if (!isSecretName(item)) return;
  JQ_STREAM_ITEM.lastIndex = e;
  const v = JQ_STREAM_ITEM.exec(text);
  if (v && !isLookAlike(v.groups!.v, PASSWORD_NAME.test(item)) && !isReference(v.groups!.v)) out.push({ start: v.indices!.groups!.v![0], end: v.indices!.groups!.v![1], kind: kindOfName(item), byContext: true });
}
/** After a path's last name: its quote, the path's `]`, a comma, the leaf's string, the event's `]` (blanks and line breaks between). */
const JQ_STREAM_LEAF = /"\s{0,16}\][ \t]*,\s{0,16}"(?<quoted>(?:[^"\\\n]|\\.){1,2048})"\s{0,16}\]/dy;
/** …with its quotes escaped (the events in a JSON string): the value ends at the first `\"` (a quote inside it is `\\\"`). */
const JQ_STREAM_LEAF_ESCAPED = /\\"[ \t]*\][ \t]*,[ \t]*\\"(?<quoted>(?:[^"\\\n]|\\\\\\"|\\[^"]){1,2048})\\"[ \t]*\]/dy;
/** The Authorization header's name (or the proxy's). */
const AUTHORIZATION_NAME = /^(?:Proxy-)?Authorization$/i;
/** After it in a pair over lines: its quote, a comma, a line break, the value's quote, a scheme, the credential, its quote. */
const AUTHORIZATION_PAIR_VALUE = /["'][ \t]*,[ \t]*\r?\n[ \t]*["'](?:(?:Bearer|Basic|Token|token|Bot|Digest|Key)[ \t]+)?(?<v>[^\s"'\\]{8,4096})["'][ \t]*(?:,[ \t]*)?(?:\r?\n[ \t]*)?[\])]/dy;
/** An enum's constant (`ALLOW_USER_SRP_AUTH`): a header's name is not written so, nor its value. */
const CONSTANT_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
/** Before the name's quote: the pair's opening bracket, maybe a line break and indent between. */
const ARRAY_PAIR_OPEN = /[[(][ \t]*(?:\r?\n[ \t]*)?$/;
/** The opening bracket is looked for this far back: a line break and an indent. */
const ARRAY_PAIR_LOOKBACK = 48;
/** After the name: its quote, a comma, the value in quotes (on the same line or the next), the pair's closing bracket. */
const ARRAY_PAIR_VALUE = /["'][ \t]*,[ \t]*(?:\r?\n[ \t]*)?(?:"(?<quoted>(?:[^"\\\n]|\\.){1,2048})"|'(?<single>[^'\n]{1,2048})')[ \t]*(?:,[ \t]*)?(?:\r?\n[ \t]*)?[\])]/dy;

/**
 * A property list's `<key>NAME</key>` then `<string>value</string>` (a launchd plist's EnvironmentVariables: adv13 B06), the value's
 * line under grep's `-A` prefix or not (`ios/App/Info.plist-7-\t<string>…`: pass 176 F25).
 */
// KeePass's XML export has the same layout: `<Key>Password</Key>` then `<Value ProtectInMemory="True">…</Value>` (adv246 F13).
const PLIST_VALUE = /<\/key>[ \t]*(?:\r?\n(?:[\w./-]{1,256}[:-](?:\d{1,7}[:-])?)?)?[ \t]*<(?<e>string|value)(?:[ \t][^>\n]{0,128})?>(?<v>[^<\n]{1,2048})<\/\k<e>>/diy;

function plistValue(text: string, k: number, e: number, out: SecretFinding[]): void {
  if (text.startsWith('<key>', k - 5) || text.startsWith('<Key>', k - 5)) valueFromName(text, k, e, PLIST_VALUE, out);
}

/** Hadoop's ABFS / WASB account key property's name, before the account's host. */
const AZURE_ACCOUNT_KEY_PROPERTY = 'fs.azure.account.key.';
/** A property's `<name>NAME</name>` then `<value>…</value>` (Hadoop's core-site.xml, Maven's `httpHeaders` in settings.xml: adv27 F03). */
// The value may stand on a line of its own between `<value>` and `</value>` (an XML formatter's layout: 131 F44).
// Wowza's `<Property>`'s `<Name>` and `<Value>` (its Application.xml: adv162 F9) in either case; under grep's prefix (`grep -n -A1
// '<Name>secureToken'`: `14-` before the value's line).
const XML_PROPERTY_VALUE = /<\/name>[ \t]*(?:\r?\n(?:[^\s<:]{1,256}[-:])?(?:\d{1,9}[-:])?)?[ \t]*<value>(?:(?<v>[^<\n]{1,2048})|[ \t]*\r?\n[ \t]*(?<bare>[^<\s][^<\n]{0,2047}?)[ \t]*\r?\n[ \t]*)<\/value>/diy;

/** PowerShell's CLIXML of a hashtable (`Export-Clixml`: `<S N="Key">ApiToken</S>` then `<S N="Value">…</S>`: adv34 F08). */
const CLIXML_ENTRY_VALUE = /<\/S>[ \t]*\r?\n?[ \t]*<S N="Value">(?<v>[^<\n]{1,2048})<\/S>/dy;

function xmlPropertyValue(text: string, k: number, e: number, out: SecretFinding[]): void {
  if (text.startsWith('<name>', k - 6) && text.startsWith(AZURE_ACCOUNT_KEY_PROPERTY, k)) {
    // Hadoop's ABFS / WASB account key: its name ends in the account's host, no secret's word (its `<value>` on the next line: adv96 F44).
    XML_PROPERTY_VALUE.lastIndex = e;
    const v = XML_PROPERTY_VALUE.exec(text);
    const group = v?.groups!.v !== undefined ? 'v' : 'bare';
    if (v && /^[A-Za-z0-9+/]{40,}={0,2}$/.test(v.groups![group] ?? '')) out.push({ start: v.indices!.groups![group]![0], end: v.indices!.groups![group]![1], kind: 'azure storage account key', byContext: true });
  } else if (text.startsWith('<name>', k - 6) || text.startsWith('<Name>', k - 6)) valueFromName(text, k, e, XML_PROPERTY_VALUE, out);
  else if (text.startsWith('<S N="Key">', k - 11)) valueFromName(text, k, e, CLIXML_ENTRY_VALUE, out);
  else if (text.startsWith('<macro>{$', k - 9)) valueFromName(text, k, e, ZABBIX_MACRO_VALUE, out);
  else if (text.startsWith('<string>', k - 8)) valueFromName(text, k, e, XSTREAM_ENTRY_VALUE, out);
}

/**
 * An XStream map's entry (Mirth Connect's channel and server exports: a header's `<string>X-Api-Key</string>` then its
 * `<list>` and `<string>…</string>`, the configuration map's `<string>SFTP_PASSWORD</string>` then `<value>…</value>`: pass 281
 * F4, F35), under grep's prefixes too.
 */
const XSTREAM_ENTRY_VALUE = /<\/string>[ \t]*(?:\r?\n(?:[^\s<:]{1,256}[-:])?(?:\d{1,9}[-:])?[ \t]*(?:<(?:list|linked-list|entry|com\.mirth[\w.]{0,128})>[ \t]*)?){1,2}<(?:string|value)>(?<v>[^<\n]{1,2048})<\/(?:string|value)>/diy;
/** A Zabbix template's user macro (`<macro>{$DB.PASSWORD}</macro>` then `<value>…</value>` on the next line: pass 195): as a property's. */
// (Zabbix 6's export puts `<type>SECRET_TEXT</type>` or a `<description>` between: adv213 F4.)
const ZABBIX_MACRO_VALUE = new RegExp(XML_PROPERTY_VALUE.source.replace('<\\/name>', '\\}<\\/macro>(?:[ \\t]*\\r?\\n(?:[^\\s:]{1,256}[-:])?(?:\\d{1,9}[-:])?[ \\t]*<(?!value>)[A-Za-z]{1,32}>[^<\\n]{0,256}<\\/[A-Za-z]{1,32}>){0,3}'), 'diy');

/**
 * When text[k, e) is a secret's name: the value the sticky `re` (flags `dy`) finds from the name's end — its `v`, `quoted`,
 * `single` or `bare` group, the first that matched — unless it is a look-alike.
 */
function valueFromName(text: string, k: number, e: number, re: RegExp, out: SecretFinding[]): void {
  const name = text.slice(k, e);
  if (!isSecretName(name)) return;
  re.lastIndex = e;
  const v = re.exec(text);
  if (!v) return;
  const group = VALUE_GROUPS.find((g) => v.groups![g] !== undefined);
  if (group === undefined || isLookAlike(v.groups![group], PASSWORD_NAME.test(name))) return;
  const [start, end] = v.indices!.groups![group]!;
  out.push({ start, end, kind: kindOfName(name), byContext: true });
}
/** The groups a value may be in, in valueFromName's regexes. */
const VALUE_GROUPS = ['v', 'listed', 'quoted', 'single', 'bare'] as const;

/** After a name first on its row: two or more blanks, then the row's cells to the line's end. */
const ROW_CELLS = /(?:[ \t]{2,}|\t)(?<cells>\S[^\n]*?)[ \t]*\r?(?=\n|$)/y;
/** …after one blank (a name that fills its column), and the value column's title in the header. */
const TIGHT_ROW_CELLS = / (?<cells>\S[^\n]*?)[ \t]*\r?(?=\n|$)/y;
const VALUE_COLUMN_TITLE = /\b(?:[Vv]alue|VALUE)\b/;
/** A `Name  Value` table's header (PowerShell's `Get-ChildItem Env:`, Symfony's `debug:dotenv`: `Variable  Value  .env.dev  .env`). */
// Also with columns between (`az … appsettings list -o table`: `Name  SlotSetting  Value`; Symfony's `debug:container --env-vars`:
// `Name  Default value  Real value`: adv15 D24, D44).
// Or an id's column first (`balena envs`: `ID      NAME      VALUE      FLEET`, upper-case: pass 184 F28).
const NAME_VALUE_HEADER = /^[ \t]*(?:ID(?:[ \t]{2,}|\t))?(?:Name|NAME|Key|KEY|Variable|VARIABLE)(?:[ \t]{2,}|\t)(?:[A-Z]\w*(?: [a-z]+)?(?:[ \t]{2,}|\t)){0,3}(?:(?:Real|Local|Current) )?(?:[Vv]alue|VALUE)\b/;
/** A table's row or rule line: a first cell (after an id's number and a blank) then two or more blanks (or nothing), or dashes and blanks. */
const TABLE_LINE = /^[ \t]*(?:[- \t]+|(?:\d{1,12} )?\S+(?:(?:[ \t]{2,}|\t)\S.*)?)\r?$/;
/** The last row nameValueTableRow walked up from, and the header above it (undefined: none). */
let lastRow: { text: string; start: number; header: string | undefined } = { text: '', start: -1, header: undefined };
/** Between a table's cells: a tab or more, or two blanks or more. */
const CELL_GAP = /\t+[ \t]*| {2,}[ \t]*/;
/** A column of a row's metadata, not its value (chamber's `Version  LastModified  User`, a listing's dates). */
const METADATA_COLUMN = /^(?:Version|LastModified|Last Modified|Modified|Created|Updated|User|Type|Date|Fleet|Device|Service|Scope)$/i;
/** An id's longest number in a table's first column. */
const MAX_ID_DIGITS = 12;
/** Rows read up from a name for its table's header. */
const MAX_ROWS_ABOVE = 200;

/**
 * A row of a `Name  Value` table whose name is a secret's (adv12 A30, A33): its cells after the name are the value (Symfony's
 * debug:dotenv has one a file; `n/a` where a file sets none). The header must be above, with rows and rules between.
 */
function nameValueTableRow(text: string, k: number, e: number, out: SecretFinding[]): void {
  let i = k - 1;
  while (i >= 0 && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i--;
  // An id's number in the first column (`2184410 WIFI_PASSWORD  …`): the name is the row's second cell.
  let idColumn = false;
  if (i >= 0 && text.charCodeAt(i) !== 0x0a && i < k - 1) {
    let d = i;
    while (d >= 0 && i - d < MAX_ID_DIGITS && isDigit(text.charCodeAt(d))) d--;
    while (d >= 0 && (text.charCodeAt(d) === 0x20 || text.charCodeAt(d) === 0x09)) d--;
    if (d < i && (d < 0 || text.charCodeAt(d) === 0x0a) && isDigit(text.charCodeAt(i))) {
      idColumn = true;
      i = d;
    }
  }
  if (i < 0 || text.charCodeAt(i) !== 0x0a) return;
  ROW_CELLS.lastIndex = e;
  let row = ROW_CELLS.exec(text);
  // A name as wide as its column has one blank after it (`AWS_SECRET_ACCESS_KEY wJalr…`): its value must start under the header's.
  const tight = !row;
  if (tight) {
    TIGHT_ROW_CELLS.lastIndex = e;
    row = TIGHT_ROW_CELLS.exec(text);
  }
  if (!row) return;
  const name = text.slice(k, e);
  if (!isSecretName(name)) return;
  // Up the rows (none blank) to the header; a row already walked from answers for the rows above it (a table of a thousand
  // secret-named rows and no header walks each line once, not once a row).
  let end = i;
  let header: string | undefined;
  const rowStart = i + 1;
  for (let n = 0; n < MAX_ROWS_ABOVE && end > 0; n++) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    if (lastRow.text === text && lastRow.start === start) {
      header = lastRow.header;
      break;
    }
    const line = text.slice(start, end);
    if (NAME_VALUE_HEADER.test(line)) {
      header = line;
      break;
    }
    // Only the table's rows (a first cell, two or more blanks, the rest) and its rules are between.
    if (!TABLE_LINE.test(line)) break;
    end = start - 1;
  }
  lastRow = { text, start: rowStart, header };
  if (header === undefined || idColumn !== /^[ \t]*ID[ \t]/.test(header)) return;
  if (tight && header.search(VALUE_COLUMN_TITLE) !== e + 1 - rowStart) return;
  const cells = row.groups!.cells;
  const at = row.index + row[0].indexOf(cells);
  // A header of as many cells as the row names each: a cell under a column of metadata (chamber's `Version  LastModified  User`:
  // adv18 F44) is no value.
  const titles = header.trim().split(CELL_GAP).slice(idColumn ? 1 : 0);
  const rowCells = text.slice(k, row.index + row[0].length).trim().split(CELL_GAP);
  const metadata = titles.length === rowCells.length ? new Set(titles.flatMap((t, i) => (METADATA_COLUMN.test(t) ? [i - 1] : []))) : new Set<number>();
  let cell = -1;
  for (const c of cells.matchAll(/\S+(?: \S+)*/g)) {
    cell++;
    if (metadata.has(cell)) continue;
    if (c[0] === 'n/a' || isReference(c[0]) || isLookAlike(c[0], true)) continue;
    out.push({ start: at + c.index!, end: at + c.index! + c[0].length, kind: kindOfName(name), byContext: true });
  }
}

/** redis-cli's reply rows: `3) "access_token"` then `4) "…"` (HGETALL, CONFIG GET, a hash's fields: adv12 A48). */
const REDIS_FIELD_BEFORE = /(?:^|\n)[ \t]*\d+\)[ \t]+"$/;
const REDIS_VALUE_BELOW = /"\r?\n[ \t]*\d+\)[ \t]+"(?<v>(?:[^"\\\n]|\\.){1,4096})"/dy;

function redisFieldBelow(text: string, k: number, e: number, out: SecretFinding[]): void {
  if (text.charCodeAt(e) === 0x22 && REDIS_FIELD_BEFORE.test(text.slice(Math.max(0, k - 16), k))) valueFromName(text, k, e, REDIS_VALUE_BELOW, out);
}

/** After a name first on its line: blanks, one quoted literal, the end of the line (`storePassword 'x'` in Gradle, `password "x"` in a Ruby DSL). */
const SPACED_QUOTED_VALUE = /[ \t]+(?:"(?<quoted>[^"\\\n]{1,2048})"|'(?<single>[^'\n]{1,2048})')[ \t]*(?:[;,][ \t]*)?\r?(?=\n|$)/dy;

/** A C macro's definition up to its name, first on its line (`#define `, `# define `), a diff's `+` or `-` before it (adv144 E3). */
const C_DEFINE_BEFORE = /(?:^|\n)[+-]?[ \t]*#[ \t]*define$/;

/** A Groovy / Gradle or Ruby DSL setting (adv12 A05: `signingConfigs { release { storePassword '…'` ): a method call with no separator. */
function spacedQuotedValue(text: string, k: number, e: number, out: SecretFinding[]): void {
  let i = k - 1;
  while (i >= 0 && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i--;
  // Or first after grep's prefix (`105-`, `app/build.gradle:105:`: `grep -n -A12 signingConfigs`, adv32 F01).
  // Or a C macro's (`#define SECRET_PASS "…"` in an Arduino secrets.h: adv90 F33).
  const firstOnLine = i < 0 || text.charCodeAt(i) === 0x0a || ((text.charCodeAt(i) === 0x2d || text.charCodeAt(i) === 0x3a) && grepPrefixEndsAt(text, i)) || (text.charCodeAt(i) === 0x65 && C_DEFINE_BEFORE.test(text.slice(Math.max(0, i - 15), i + 1)));
  if (firstOnLine) valueFromName(text, k, e, SPACED_QUOTED_VALUE, out);
}
/**
 * A Postman collection's API key auth (`"apikey": [{"key": "value", "value": "…", …}, {"key": "key", "value": "X-API-Key"}]`:
 * adv60 F27): the item whose `"key"` is `"value"` holds the key, in either place of the list.
 */
const POSTMAN_API_KEY = /"[ \t]*:[ \t]*\[\s{0,64}(?:\{[^{}]{0,512}\}\s{0,64},\s{0,64})?\{\s{0,64}"key"[ \t]*:[ \t]*"value"[ \t]*,\s{0,64}"value"[ \t]*:[ \t]*"(?<v>[^"\\\n]{1,2048})"/dy;

/** R's print of a named list: `$api_key` alone on its line, then its element `[1] "…"` (adv89 F27). */
const R_PRINTED_ELEMENT = /[ \t]*\r?\n\[1\][ \t]+"(?<quoted>(?:[^"\\\n]|\\.){1,4096})"[ \t]*\r?(?=\n|$)/dy;

/** After an EDN keyword (Clojure's `:secret-key`): blanks (or a line break: pprint puts a long value on the next line, adv89 F08), one quoted string, then what may follow a map's value. */
const EDN_VALUE = /(?:[ \t]+|[ \t]*\r?\n[ \t]*)"(?<quoted>(?:[^"\\\n]|\\.){1,2048})"(?=[\s,}\])]|$)/dy;

/** A Clojure / EDN map's entry (`{:secret-key "…", …}` of `pprint`, aero's config: adv59 F02): a keyword, no separator, its string. */
function ednKeywordValue(text: string, k: number, e: number, out: SecretFinding[]): void {
  if (k === 0 || text.charCodeAt(k - 1) !== 0x3a) return;
  const before = k >= 2 ? text.charCodeAt(k - 2) : 0x0a;
  if (before === 0x20 || before === 0x09 || before === 0x0a || before === 0x7b || before === 0x5b || before === 0x28 || before === 0x2c) valueFromName(text, k, e, EDN_VALUE, out);
}

/** A name that is the JMX agent's password file's (namedValue: its `password` after `jmxremote.`). */
const JMX_FILE_BEFORE = /(?:^|[\s\/])jmxremote\.password$/;
/** grep's prefix of a line: its file (with `-H`, several files) and its number, `:` for a match, `-` for context. */
const GREP_LINE_PREFIX = /^(?:[^\s:]{1,256}[-:])?\d{1,9}[-:]$/;
/** The longest prefix GREP_LINE_PREFIX takes (a file's name of 256, its number, two marks). */
const MAX_GREP_PREFIX = 268;

/** Does a grep prefix end at text[i] (its line's start no further back than MAX_GREP_PREFIX: a megabyte line is read back once)? */
function grepPrefixEndsAt(text: string, i: number): boolean {
  let j = i;
  while (j > 0 && i - j < MAX_GREP_PREFIX && text.charCodeAt(j - 1) !== 0x0a) j--;
  if (j > 0 && text.charCodeAt(j - 1) !== 0x0a) return false;
  return GREP_LINE_PREFIX.test(text.slice(j, i + 1));
}

/** An option alone on its line, as an argument list prints (`--db-password`, `"--admin-token",`): the dashes and the line's start before it. */
// Or a YAML list's items (`docker compose config`'s `command:` list: `- --requirepass` then `- <value>`: adv35 F07).
const OPTION_ALONE_BEFORE = /(?:^|\n)[ \t]*(?:-[ \t]+)?["']?--?$/;
/** After the option: the end of its line, then the next line's one word (quoted and followed by `,` in a JSON array). */
const VALUE_BELOW = /["']?,?[ \t]*\r?\n[ \t]*(?:-[ \t]+)?(?:"(?<quoted>[^"\s\\]{1,2048})"|'(?<single>[^'\s]{1,2048})'|(?<bare>[^\s"',-][^\s"',]{0,2047}))[ \t]*(?:,[ \t]*)?\r?(?=\n|$)/dy;

/**
 * An option that names a secret alone on its line and its value alone on the next (adv12 A11, A26): `kubectl describe pod`'s
 * `Args:` and `docker inspect`'s `"Args": [` print a command line one argument a line (`--db-password` then the value).
 */
function optionValueBelow(text: string, k: number, e: number, out: SecretFinding[]): void {
  if (k >= 2 && text.charCodeAt(k - 1) === 0x2d && OPTION_ALONE_BEFORE.test(text.slice(Math.max(0, k - 64), k))) valueFromName(text, k, e, VALUE_BELOW, out);
}

/**
 * A secret's name alone on its line and its value alone on the next: a debug page's table read as text (the ASP.NET developer
 * exception page through `sed 's/<[^>]*>//g'`: `Ocp-Apim-Subscription-Key` then its 32 hex digits, adv262 F31; `lynx -dump`'s).
 * The value must be made or minted (a list of names one a line, `env | cut -d= -f1`'s `GITHUB_TOKEN` under `DB_PASSWORD`, is
 * no value).
 */
const NAME_ALONE_BEFORE = /(?:^|\n)[ \t]{0,64}$/;
const NAME_ALONE_VALUE_BELOW = /:?[ \t]*\r?\n[ \t]{0,64}(?<v>[^\s]{8,4096})[ \t]*\r?(?=\n|$)/dy;

function bareNameValueBelow(text: string, k: number, e: number, out: SecretFinding[]): void {
  const c = text.charCodeAt(e);
  if (c !== 0x0a && c !== 0x0d && c !== 0x3a && c !== 0x20 && c !== 0x09) return;
  if (!NAME_ALONE_BEFORE.test(text.slice(Math.max(0, k - 66), k))) return;
  const name = text.slice(k, e);
  if (!isSecretName(name)) return;
  NAME_ALONE_VALUE_BELOW.lastIndex = e;
  const m = NAME_ALONE_VALUE_BELOW.exec(text);
  if (!m) return;
  const v = m.groups!.v;
  if (!(madeWord(v) || mintedWord(v)) || isLookAlike(v, PASSWORD_NAME.test(name)) || isReference(v)) return;
  const [start, end] = m.indices!.groups!.v!;
  out.push({ start, end, kind: kindOfName(name), byContext: true });
}

/** Before a key path's last part, at a line's start: `/config/shop/` (etcd's keys; a key-value store's path). */
const KEY_PATH_BEFORE = /(?:^|\n)\/(?:[\w.-]+\/){0,16}$/;
/** After the key path's last part: the line ends, the next line is one word (the value). */
const KEY_PATH_VALUE_BELOW = /\r?\n(?<v>[^\s]{1,4096})\r?(?=\n|$)/dy;

/** `oc extract secret/x --to=-` (adv35 F17): `# <key>` alone on its line, the value on the next (one word, no `#`). */
const COMMENTED_NAME_BEFORE = /(?:^|\n)# $/;
const COMMENTED_VALUE_BELOW = /\r?\n(?<v>[^\s#][^\s]{0,4095})\r?(?=\n|$)/dy;

/**
 * A comment naming its file's line format (`# user:password (plain, converted to htpasswd at build)`: adv108 F36), then the
 * lines below it of that format: each `name:value` line's value, to the first line of another shape (a blank, a comment).
 */
const FORMAT_COMMENT_BEFORE = /(?:^|\n)[ \t]*(?:#|\/\/|;)[^\n]{0,64}?\b(?:user(?:name)?|login|e-?mail):$/i;
/** A row below such a comment: one word of `:`-separated fields (no blank), not a comment. */
const FORMAT_ROW = /^[^\s:#;/][^\s]{0,1023}$/;
/** Rows read under such a comment (a users file of a few accounts). */
const MAX_FORMAT_ROWS = 64;

function formatCommentRows(text: string, k: number, e: number, out: SecretFinding[]): void {
  if (text.charCodeAt(k - 1) !== 0x3a || !FORMAT_COMMENT_BEFORE.test(text.slice(Math.max(0, k - 96), k))) return;
  const name = text.slice(k, e);
  if (!isSecretName(name)) return;
  // The name's field in the format (`# user:password`: the second; `.pgpass`'s `# hostname:port:database:username:password`: the
  // fifth, 131 F03: the whole `port:database:user:password` was masked): each row's value is the rest from that field.
  const comment = text.slice(text.lastIndexOf('\n', k - 1) + 1, k);
  let field = 0;
  for (let c = comment.indexOf(':'); c >= 0; c = comment.indexOf(':', c + 1)) field++;
  let at = text.indexOf('\n', e);
  for (let n = 0; n < MAX_FORMAT_ROWS && at >= 0; n++) {
    const start = at + 1;
    const nl = text.indexOf('\n', start);
    const row = text.slice(start, nl < 0 ? Math.min(text.length, start + 1025) : Math.min(nl, start + 1025)).replace(/\r$/, '');
    if (!FORMAT_ROW.test(row)) return;
    let c = -1;
    for (let f = 0; f < field && (c >= 0 || f === 0); f++) c = row.indexOf(':', c + 1);
    if (c < 0) return;
    const v = row.slice(c + 1);
    if (v.length > 0 && v.length <= 256 && !isLookAlike(v, true)) out.push({ start: start + c + 1, end: start + row.length, kind: kindOfName(name), byContext: true });
    at = nl;
  }
}

function commentedNameValueBelow(text: string, k: number, e: number, out: SecretFinding[]): void {
  if (k >= 2 && text.charCodeAt(k - 1) === 0x20 && COMMENTED_NAME_BEFORE.test(text.slice(Math.max(0, k - 3), k))) valueFromName(text, k, e, COMMENTED_VALUE_BELOW, out);
}

/** `etcdctl get --prefix /config/shop/` (adv15 D14): a key on its line, its value on the next; the key's last part names a secret. */
function keyPathValueBelow(text: string, k: number, e: number, out: SecretFinding[]): void {
  if (k > 0 && text.charCodeAt(k - 1) === 0x2f && KEY_PATH_BEFORE.test(text.slice(Math.max(0, k - 256), k))) valueFromName(text, k, e, KEY_PATH_VALUE_BELOW, out);
}

/** An environment read up to the variable's name (`process.env.`, `ENV["`, `os.getenv("`): the name after it is the read's. */
const ENV_READ_OF_NAME = /(?:(?:process\.env|import\.meta\.env|Bun\.env|ENV)\.|(?:process\.env|import\.meta\.env|Bun\.env|ENV|os\.environ)\[[ \t]*["']|(?:\benv|getenv|os\.environ\.get|ENV\.fetch|Deno\.env\.get|System\.getenv)\([ \t]*["'])([A-Za-z_]\w{0,127})$/;
/** After the variable's name: the read's literal fallback (`|| '…'`, `?? "…"`, `or '…'`; a call's second argument `, "…"`). */
const FALLBACK_AFTER_NAME = /(?:["'][ \t]*[\])])?[ \t]*(?:\|\||\?\?|or)[ \t]*(?<q>["'])(?<v>[^"'\n]{1,1024})\k<q>|["'][ \t]*,[ \t]*(?:default[ \t]*=[ \t]*)?(?<q2>["'])(?<w>[^"'\n]{1,1024})\k<q2>/dy;

/**
 * An environment read with a literal fallback, the variable's name saying secret whatever the setting's name (wdio's `key:
 * process.env.BROWSERSTACK_ACCESS_KEY || '…'`: pass 171 S27; a name that says secret before the read is namedValue's).
 */
function envReadFallbackOfName(text: string, k: number, e: number, out: SecretFinding[]): void {
  const read = ENV_READ_OF_NAME.exec(text.slice(Math.max(0, k - 24), e));
  if (!read || !isSecretName(read[1])) return;
  FALLBACK_AFTER_NAME.lastIndex = e;
  const m = FALLBACK_AFTER_NAME.exec(text);
  if (!m) return;
  const g = m.groups!.v !== undefined ? 'v' : 'w';
  const [start, end] = m.indices!.groups![g]!;
  if (!isLookAlike(m.groups![g], PASSWORD_NAME.test(read[1]))) out.push({ start, end, kind: kindOfName(read[1]), byContext: true });
}

/** After a variable's name first on its line: blanks, then one word to the line's end (R's `Sys.getenv()`, `env | column -t -s=`). */
const PADDED_VALUE = /[ \t]{2,}(?<v>[^\s]{8,4096})[ \t]*\r?(?=\n|$)/dy;
/** Column titles of metadata about a secret, not its value: a digest, a version, a date, who changed it. */
const METADATA_TITLE = /^(?:DIGEST|CHECKSUM|HASH|VERSION|VERSIONS|CREATED|CREATED AT|UPDATED|UPDATED AT|LAST MODIFIED|MODIFIED|LAST USED|DATE|TYPE|USER|SOURCE|STATUS|ID|EXPIRES|EXPIRY)$/i;
/** How many lines above a row its table's header may be. */
const MAX_HEADER_LINES_ABOVE = 64;

/** Column titles of a cell that holds a setting's value. */
const VALUE_TITLE = /^(?:VALUE|VALUES|SECRET|TOKEN|KEY|PASSWORD|CREDENTIAL|DATA)$/i;

/**
 * The title of the column the cell at `at` (on the line starting at `lineStart`) is under: the table's first line (up the lines
 * with two columns or more, to a blank line or other text), when it has no digit, its title starting at the same column;
 * undefined when there is none.
 */
function columnTitleAt(text: string, lineStart: number, at: number): string | undefined {
  const col = at - lineStart;
  let header: string | undefined;
  let end = lineStart - 1;
  for (let n = 0; n < MAX_HEADER_LINES_ABOVE && end > 0; n++) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(start, end).replace(/\r$/, '');
    if (!/\S {2,}\S/.test(line)) break;
    header = line;
    end = start - 1;
  }
  if (header === undefined || /\d/.test(header) || col >= header.length || (col > 0 && header[col - 1] !== ' ')) return undefined;
  return /^\S+(?: \S+)*/.exec(header.slice(col))?.[0];
}

/** Capitalised words run together (`RConPassword`, `AdminPassword`, `ServerKey`). */
const PASCAL_NAME = /^[A-Z][a-z0-9]*(?:[A-Z][A-Za-z0-9]*)+$/;
/** Capitalised words joined by `_` (Fluent Bit's `Splunk_Token`, `HTTP_Passwd`, `Shared_Key`). */
const CAPITAL_SNAKE_NAME = /^[A-Z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+$/;
/** One blank, then the value alone to the line's end. */
const DIRECTIVE_VALUE = /[ ](?<v>[^\s]{8,4096})[ \t]*\r?(?=\n|$)/dy;
/** A setting's name: camelCase, snake_case or dotted, or a mix (`dbPassword`, `auth.password`, `auth.postgresPassword`). */
const SETTING_NAME = /^[a-z][a-z0-9]*(?:[._-][a-z0-9]+|[._-]?[A-Z][a-z0-9]*)+$|^[A-Z][A-Za-z0-9_]*$/;
/** Two or more blanks, then a cell of one word followed by another column (two or more blanks then text). */
const PADDED_CELL = /[ \t]{2,}(?<v>[^\s]{8,4096})(?=[ \t]{2,}\S)/dy;
/** One TAB then the value alone to the line's end (a two-column tab-separated row). */
const TAB_VALUE = /\t(?<v>[^\s]{8,4096})[ \t]*\r?(?=\n|$)/dy;
/** An SSM parameter path's longest (AWS allows 1,011 characters; a few segments are usual). */
const MAX_PARAMETER_PATH = 256;
/** A parameter path's characters (AWS: letters, digits, `.`, `-`, `_`, `/`). */
const isPathCode = (c: number): boolean => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2d || c === 0x5f || c === 0x2f;
/** One lower-case word (`apikey`, `passwd`). */
const LOWER_WORD = /^[a-z][a-z0-9]*$/;
/** A snake_case name (`rds_master_password`): two or more lower-case words joined by `_`. */
const SNAKE_NAME = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;
/** A date or a time first in a value (`gh secret list`'s `DB_PASSWORD  2024-03-11T10:22:31Z`: when it was set). */
const DATE_VALUE = /^\d{4}-\d{2}-\d{2}|^\d{1,2}:\d{2}/;

/**
 * A variable's name in capitals first on its line, blanks, its value alone after them (adv15 D06: R's `Sys.getenv()` pads the
 * names; `env | column -t -s=`): a value with a digit in it, not a date (a listing of when each secret was set).
 */
/** A jest result's test file after its `PASS` (blanks, a path to a `.test.`/`.spec.` file or one under `__tests__/`). */
const JEST_TEST_FILE = /^[ \t]{1,4}\S*(?:\.(?:test|spec)\.[cm]?[jt]sx?|__tests__\/\S+)(?=[ \t]|\r?$|\r?\n)/;
const MAX_JEST_PATH = 512;

/** A value of letters only under a secret's (not a password's) name, this long at least: a generator's (Harbor's 16), not a word. */
const MIN_LETTERS_SECRET = 16;

function paddedEnvValue(text: string, k: number, e: number, out: SecretFinding[]): void {
  // First on its line, indented or not (Fluent Bit's `    HTTP_Passwd    …`: adv20 F35).
  // Or after a label's upper-case words (auth0's `  CLIENT SECRET        …`: adv20 F17).
  let b = k;
  // Or a path's last segment before one TAB (an SSM parameter's name in `aws ssm get-parameters-by-path --output text`'s
  // `/prod/api/db_password<TAB>…` rows: pass 135 F25): the path, from its `/` first on the line, is the name's.
  if (text.charCodeAt(e) === 0x09 && text.charCodeAt(k - 1) === 0x2f) {
    let p = k - 1;
    while (p > 0 && k - p < MAX_PARAMETER_PATH && isPathCode(text.charCodeAt(p - 1))) p--;
    // (Or a path of keys without its leading `/`: jq's `paths(scalars)` joined by `/`, `EmailSettings/SMTPPassword<TAB>…`: adv213 F2.)
    if (p === 0 || text.charCodeAt(p - 1) === 0x0a) b = p;
  }
  for (let words = 0; words < 2 && b > 1 && text.charCodeAt(b - 1) === 0x20 && isUpper(text.charCodeAt(b - 2)); words++) {
    let w = b - 1;
    while (w > 0 && isUpper(text.charCodeAt(w - 1))) w--;
    b = w;
  }
  while (b > 0 && (text.charCodeAt(b - 1) === 0x20 || text.charCodeAt(b - 1) === 0x09) && k - b < MAX_PADDED_INDENT + 32) b--;
  // After grep's `N:` or `file:N:` (`grep -n s3a conf/spark-defaults.conf`: a dotted setting padded to its value, pass 209 F12).
  if (b > 0 && text.charCodeAt(b - 1) !== 0x0a) {
    const marked = b === k ? lineMarkBefore(text, b) : undefined;
    if (!marked || marked.mark === LINE_MARKS[0]) return;
    b = marked.lineStart;
  }
  const name = text.slice(k, e);
  // An environment's name, or a CLI's field in PascalCase (`scw iam api-key create`: `SecretKey   <uuid>`: adv19 F15).
  // Or a snake_case name then one TAB (a tool's `name<TAB>value` rows: `terraform output -json | jq -r '… "\(.key)\t\(.value.value)"'`,
  // adv21 F50): a tab-separated row is data, not a sentence.
  const tabbed = text.charCodeAt(e) === 0x09;
  // Or any setting's name in a name / value table (`pulumi stack output --show-secrets`' `dbPassword   …`, argocd's
  // `--show-params` `auth.password   …`, `mise set`'s KEY  VALUE  SOURCE rows: adv24 F10, F42, F21): the value is the next
  // cell, the line's last or one before a further column.
  // Capitalised words joined by `-` too (a presigned URL's query as a table: `X-Amz-Signature   <hex>`: adv115 F14).
  const upper = /^[A-Z][A-Za-z0-9_-]*$/.test(name);
  // Or an indented one-word directive padded to its value (Fluent Bit's `    apikey          <key>`: adv116 F23).
  const directiveWord = b < k && LOWER_WORD.test(name) && text.charCodeAt(e) === 0x20 && text.charCodeAt(e + 1) === 0x20;
  if (!(upper || directiveWord || (tabbed && SNAKE_NAME.test(name)) || SETTING_NAME.test(name)) || !isSecretName(name)) return;
  // jest's result line (` PASS  src/api/Http2ClientPool.test.ts`): a test file, no password (adv253 L1).
  if (name === 'PASS' && JEST_TEST_FILE.test(text.slice(e, e + MAX_JEST_PATH))) return;
  PADDED_VALUE.lastIndex = e;
  TAB_VALUE.lastIndex = e;
  PADDED_CELL.lastIndex = e;
  // An indented config directive with one blank (Fluentd's `  shared_key …`, `  aws_sec_key …`: adv28 F18): a snake_case name.
  DIRECTIVE_VALUE.lastIndex = e;
  // Fluent Bit's classic keys too (`    Splunk_Token <uuid>`, `    HTTP_Passwd …` where the name is its section's longest: adv150 F21).
  // A game server's config too, its PascalCase names first on their lines (BattlEye's `RConPassword …`, a dedicated server's
  // `AdminPassword …`: blind pass 217 F31).
  const directive = text.charCodeAt(e) === 0x20 && ((b < k && (SNAKE_NAME.test(name) || CAPITAL_SNAKE_NAME.test(name))) || PASCAL_NAME.test(name)) ? DIRECTIVE_VALUE.exec(text) : null;
  const last = PADDED_VALUE.exec(text) ?? (tabbed ? TAB_VALUE.exec(text) : null) ?? directive;
  const m = last ?? PADDED_CELL.exec(text);
  if (!m) return;
  // A cell under a column of metadata (`fly secrets list`'s DIGEST, a CREATED AT: adv18 K04) is no value; a cell with a
  // column after it counts only under a title that says value (a window of lines the stream learns from may lack the title
  // row: nothing is learned from it then, and the reply, read whole, masks it).
  const title = columnTitleAt(text, b, m.indices!.groups!.v![0]);
  if ((title !== undefined && METADATA_TITLE.test(title)) || (!last && (title === undefined || !VALUE_TITLE.test(title)))) return;
  const v = m.groups!.v;
  // A digit in it, or a password's made word (`EWpseq%bIzhTlvREfx`: a generator's, no digit: adv150 F21) or random letters of both
  // cases (`KgXLuoSVYnNJltns`: about one in 16 draws of 16 letters and digits has no digit; a test's showed). Under a secret's or
  // a key's name too when long enough (Harbor's `CORE_SECRET   HUPTyLQGDYTtDeOJ`, awk's table of its env file: pass 267 F28).
  if ((!/\d/.test(v) && !(PASSWORD_NAME.test(name) ? madeWord(v) || mintedWord(v) : v.length >= MIN_LETTERS_SECRET && mintedWord(v))) || DATE_VALUE.test(v) || isLookAlike(v, PASSWORD_NAME.test(name))) return;
  // An access key's id beside its secret (`AccessKey   SCWOXVWP3IBBH1ULVZC5`, AWS's AKIA…): upper-case letters and digits.
  if (/^AccessKey$/.test(name) && /^[A-Z0-9]{16,24}$/.test(v)) return;
  const [start, end] = m.indices!.groups!.v!;
  out.push({ start, end, kind: kindOfName(name), byContext: true });
  if (last) wrappedUnderValue(text, start, end, kindOfName(name), out);
}

/** A row's cells after its first: two or more blanks (or a TAB), a cell of words with single blanks between. */
const ROW_CELL = /(?:[ \t]{2,}|\t)(?<v>\S+(?: \S+)*)/dy;
/** A row's cells read at most for the one under a `value` column. */
const MAX_ROW_CELLS = 8;
/**
 * A secret's name first in a table's row, its value in a later column under a title `value` (an ESP-IDF NVS partition's CSV through
 * `column -t`: `key  type  encoding  value`, then `pass  data  string  <password>`: pass 184 F36).
 */
function valueColumnCell(text: string, k: number, e: number, out: SecretFinding[]): void {
  if (k > 0 && text.charCodeAt(k - 1) !== 0x0a) return;
  const name = text.slice(k, e);
  if (!isSecretName(name)) return;
  let at = e;
  for (let n = 0; n < MAX_ROW_CELLS; n++) {
    ROW_CELL.lastIndex = at;
    const m = ROW_CELL.exec(text);
    if (!m) return;
    at = ROW_CELL.lastIndex;
    const [start, end] = m.indices!.groups!.v!;
    if (!/^value$/i.test(columnTitleAt(text, k, start) ?? '')) continue;
    const v = m.groups!.v;
    if (v !== 'n/a' && !isReference(v) && !isLookAlike(v, PASSWORD_NAME.test(name))) out.push({ start, end, kind: kindOfName(name), byContext: true });
    return;
  }
}

/** Lines a table's wrapped value goes on in at most (PowerShell's `Format-Table -Wrap` of a 4 KB value at 90 columns: ~45). */
const MAX_WRAPPED_VALUE_LINES = 64;
/**
 * A value the table wrapped under its column (PowerShell's `Get-ChildItem env: | Format-Table -Wrap`: the rest of a JWT on the
 * lines below, blank up to the Value column: adv84 F06): each line that is blanks to the value's column, then one word.
 */
function wrappedUnderValue(text: string, start: number, end: number, kind: string, out: SecretFinding[]): void {
  const col = start - (text.lastIndexOf('\n', start - 1) + 1);
  let at = text.indexOf('\n', end);
  for (let n = 0; at >= 0 && n < MAX_WRAPPED_VALUE_LINES; n++) {
    const lineStart = at + 1;
    let i = lineStart;
    while (i - lineStart < col && text.charCodeAt(i) === 0x20) i++;
    if (i - lineStart !== col) return;
    let j = i;
    while (j < text.length && text.charCodeAt(j) > 0x20) j++;
    if (j === i) return;
    at = text.indexOf('\n', j);
    const lineEnd = at < 0 ? text.length : text.charCodeAt(at - 1) === 0x0d ? at - 1 : at;
    if (j !== lineEnd) return;
    out.push({ start: i, end: j, kind, byContext: true });
  }
}

const isUpper = (c: number) => c >= 0x41 && c <= 0x5a;
/** Blanks a padded row may be indented by (a config section's four or eight). */
const MAX_PADDED_INDENT = 16;
/** After a name: a row's dot leaders, then the value alone to the line's end (Laravel's `artisan config:show`, `about`). */
const DOT_LEADER_VALUE = /[ \t]+\.{3,}[ \t]+(?<v>[^\s]{1,4096})[ \t]*\r?(?=\n|$)/dy;

/** `  connections ⇁ mysql ⇁ password ........ secret  ` (adv12 A29): a secret's name, dot leaders, its value. */
function dotLeaderValue(text: string, k: number, e: number, out: SecretFinding[]): void {
  // The name is a setting's: after config:show's `⇁ ` or first on its row, a few words of a label before it (passport's
  // `Client secret ….`); `route:list`'s `POST       confirm-password …. Controller@store` is a route (adv17 K27).
  if (text.charCodeAt(e) === 0x20 && text.charCodeAt(e + 1) === 0x2e && DOT_LEADER_NAME_BEFORE.test(text.slice(Math.max(0, k - 256), k))) valueFromName(text, k, e, DOT_LEADER_VALUE, out);
}
/** Before a dot-leader row's setting: `⇁ ` (a nested key) or only blanks from the line's start. */
const DOT_LEADER_NAME_BEFORE = /(?:⇁ |(?:^|\n)[ \t]*(?:[A-Za-z]+ ){0,3})$/;

/** A plural's ending (`tokens`, `passwords`, `secrets`), an encoding's name after it (Vault's `unseal_keys_b64`, `recovery_keys_hex`). */
const PLURAL = /s(?:[_.-](?:b64|base64|hex))?$/i;
/** The singular a list's name is the plural of (`unseal_keys_b64` → `unseal_key`), undefined for a name that is none. */
const singularOfList = (name: string): string | undefined => (PLURAL.test(name) ? name.replace(PLURAL, '') : undefined);
/** A comma list after a plural name's separator: quoted or not, items of token characters (no blanks), two or more. */
const COMMA_LIST = /["']?(?<list>[^\s,"';]{8,1024}(?:,[^\s,"';]{8,1024}){1,31})["']?(?=[\s;,\]}]|$)/y;

/** The items of a comma list (COMMA_LIST) at `from`, each masked unless a look-alike. */
function commaListItems(text: string, from: number, singular: string, out: SecretFinding[]): void {
  COMMA_LIST.lastIndex = from;
  const m = COMMA_LIST.exec(text);
  if (!m) return;
  const items = m.groups!.list.split(',');
  if (items.some((v) => isLookAlike(v, PASSWORD_NAME.test(singular)))) return;
  let at = m.index + (text.charCodeAt(m.index) === 0x22 || text.charCodeAt(m.index) === 0x27 ? 1 : 0);
  for (const v of items) {
    out.push({ start: at, end: at + v.length, kind: kindOfName(singular), byContext: true });
    at += v.length + 1;
  }
}

/** One string piece of a parenthesized concatenation, and the blanks and line break after it. */
const CONCATENATED_PIECE = /(?<q>["'])(?<v>(?:(?!\k<q>)[^\\\n]|\\.){0,4096})\k<q>[ \t]*(?:\r?\n[ \t]*)?/dy;
/** Pieces of one concatenation read at most. */
const MAX_PIECES = 16;

/** The pieces of `('…' '…')` at `at` (two or more, closed by `)`): each masked; false when the text is no such concatenation. */
function concatenatedPieces(text: string, at: number, name: string, out: SecretFinding[]): boolean {
  let pos = at + 1;
  const pieces: [number, number][] = [];
  let value = '';
  for (let n = 0; n < MAX_PIECES; n++) {
    CONCATENATED_PIECE.lastIndex = pos;
    const m = CONCATENATED_PIECE.exec(text);
    if (!m) break;
    pieces.push(m.indices!.groups!.v!);
    value += m.groups!.v;
    pos = CONCATENATED_PIECE.lastIndex;
  }
  if (pieces.length < 2 || text.charCodeAt(pos) !== 0x29 || isLookAlike(value, PASSWORD_NAME.test(name))) return false;
  for (const [start, end] of pieces) if (end > start) out.push({ start, end, kind: kindOfName(name), byContext: true });
  return true;
}

/** An array's opening bracket, then blanks and line breaks. */
const ARRAY_OPEN = /\[[ \t\r\n]*/y;
/** One quoted string of an array, and what follows it: a comma (another item) or the closing bracket. */
const QUOTED_ARRAY_ITEM = /(?:"(?<quoted>[^"\\\n]{1,2048})"|'(?<single>[^'\n]{1,2048})')[ \t\r]*(?<after>,[ \t\r\n]*|\n[ \t]*\]|\])/dy;
/** Items of one array read at most (a key ring is a few keys). */
const MAX_ARRAY_ITEMS = 64;

/** The quoted items of an array right at `from` (after a plural secret name's separator): every item, when none is a look-alike. */
function quotedArrayItems(text: string, from: number, singular: string, out: SecretFinding[]): void {
  ARRAY_OPEN.lastIndex = from;
  if (!ARRAY_OPEN.test(text)) return;
  let at = ARRAY_OPEN.lastIndex;
  const items: SecretFinding[] = [];
  for (let n = 0; n < MAX_ARRAY_ITEMS; n++) {
    QUOTED_ARRAY_ITEM.lastIndex = at;
    const m = QUOTED_ARRAY_ITEM.exec(text);
    if (!m) return;
    const g = m.groups!.quoted !== undefined ? 'quoted' : 'single';
    if (isLookAlike(m.groups![g], PASSWORD_NAME.test(singular))) return;
    const [start, end] = m.indices!.groups![g]!;
    items.push({ start, end, kind: kindOfName(singular), byContext: true });
    at = QUOTED_ARRAY_ITEM.lastIndex;
    if (!m.groups!.after.startsWith(',')) break;
  }
  out.push(...items);
}

/** A dict's opening brace, then blanks and line breaks. */
const DICT_OPEN = /\{[ \t\r\n]*/y;
/**
 * One entry of a dict whose keys are the secrets (JupyterHub's `c.JupyterHub.api_tokens = {'<token>': 'grader'}`: pass 179), on
 * grep's context line too (`jupyterhub_config.py-13-`): the key, 16 characters and up (MIN_DICT_KEY_SECRET), quoted or bare as node's inspect prints an
 * identifier (`{ api_tokens: { f471…: 'grader' } }`: adv189 F4), its `:` and the value up to a comma,
 * the dict's end or the line's.
 */
const DICT_KEY_ITEM = /(?:[\w./-]{1,256}-(?:\d{1,9}-)?)?[ \t]*(?:(?<q>["'])(?<k>[^"'\s\\]{1,512})\k<q>|(?<u>[A-Za-z_$][\w$]{15,511}))[ \t]*:[ \t]*(?:"(?<v>[^"\n]{0,512})"|'(?<v2>[^'\n]{0,512})'|[^,}\n]{1,512})[ \t]*(?<after>,[ \t\r]*\n?|\r?\n|\})/dy;
/** A Matrix dict's key that names a public key (`ed25519:<device>`, `curve25519:…`, `signed_curve25519:…`) or a user (`@u:server`). */
const MATRIX_PUBLIC_KEY_ENTRY = /^(?:(?:signed_)?curve25519|ed25519):|^@[\w.=/+-]{1,255}:[\w.-]{1,255}$/;
/** A dict's key that is a secret is 16 characters and up (a token; the dict's names are shorter as a rule). */
const MIN_DICT_KEY_SECRET = 16;
/** A dict's value that is itself a key (hex or base64 of 16 bytes and up): the dict's keys then name them (KEY_VALUED_DICT). */
const KEY_SHAPED_VALUE = /^(?:[0-9A-Fa-f]{32,512}|(?=[A-Za-z0-9+/]{0,511}\d)(?=[A-Za-z0-9+/]{0,511}[A-Z])(?=[A-Za-z0-9+/]{0,511}[a-z])[A-Za-z0-9+/]{22,512}={0,2})$/;

/** The quoted keys of a dict right at `from` (after a plural secret name's separator): each key a secret of the singular's kind. */
function dictKeyItems(text: string, from: number, singular: string, out: SecretFinding[]): void {
  DICT_OPEN.lastIndex = from;
  if (!DICT_OPEN.test(text)) return;
  let at = DICT_OPEN.lastIndex;
  for (let n = 0; n < MAX_ARRAY_ITEMS; n++) {
    DICT_KEY_ITEM.lastIndex = at;
    const m = DICT_KEY_ITEM.exec(text);
    if (!m) return;
    const key = m.groups!.k ?? m.groups!.u;
    const value = m.groups!.v ?? m.groups!.v2;
    // Matrix's public keys by their algorithm and device (`"ed25519:XYDIYKDAKM": "<public key>"`) and its users' ids as a dict's
    // keys (`"@ops-bot4:matrix.acme.io": {…}` of `/keys/query`: adv245 L2): public, each.
    if (MATRIX_PUBLIC_KEY_ENTRY.test(key)) {
      at = DICT_KEY_ITEM.lastIndex;
      if (m.groups!.after === '}') return;
      while (text.charCodeAt(at) === 0x20 || text.charCodeAt(at) === 0x09) at++;
      continue;
    }
    // A dict of named keys (Z-Wave JS UI's `"securityKeys": {"S2_Unauthenticated": "<32 hex>", …}`: pass 238 S39): the values.
    if (value !== undefined && KEY_SHAPED_VALUE.test(value)) {
      const [start, end] = m.indices!.groups!.v ?? m.indices!.groups!.v2!;
      out.push({ start, end, kind: kindOfName(singular), byContext: true });
    } else if (key.length >= MIN_DICT_KEY_SECRET && /\d/.test(key) && /[A-Za-z]/.test(key) && !isLookAlike(key, PASSWORD_NAME.test(singular))) {
      const [start, end] = m.indices!.groups!.k ?? m.indices!.groups!.u!;
      out.push({ start, end, kind: kindOfName(singular), byContext: true });
    }
    at = DICT_KEY_ITEM.lastIndex;
    if (m.groups!.after === '}') return;
    while (text.charCodeAt(at) === 0x20 || text.charCodeAt(at) === 0x09) at++;
  }
}

/** How far a dict of objects is read for their secret fields (dictEntryKeyFields): a few entries of a config. */
const MAX_DICT_OF_OBJECTS = 4096;
/** An entry's field holding the secret itself: `key`, `secret`, `token` (not a `value` beside a `name`, which names what it is), a quoted string of 8 characters and up. */
const ENTRY_SECRET_FIELD = /(?<![\w-])["']?(?:key|secret|token)["']?[ \t]*:[ \t]*(?:"(?<quoted>[^"\\\n]{8,2048})"|'(?<single>[^'\n]{8,2048})')/dg;

/** The text and end of the last dict dictEntryKeyFields read. */
let lastDictRead = { text: '', end: -1 };
/** The secret fields of the objects in a dict right at `from` (after a plural secret name's separator), to the dict's end. */
function dictEntryKeyFields(text: string, from: number, singular: string, out: SecretFinding[]): void {
  // Inside a dict read already (nested or repeated names over a hostile megabyte): read once, not MAX_DICT_OF_OBJECTS a name.
  if (lastDictRead.text === text && from < lastDictRead.end) return;
  DICT_OPEN.lastIndex = from;
  if (!DICT_OPEN.test(text)) return;
  // The dict's end: its closing brace at depth 0, braces inside strings aside; a dict longer than the bound is read to there.
  let depth = 1;
  let quote = 0;
  let end = DICT_OPEN.lastIndex;
  const limit = Math.min(text.length, end + MAX_DICT_OF_OBJECTS);
  for (; end < limit && depth > 0; end++) {
    const c = text.charCodeAt(end);
    if (quote !== 0) {
      if (c === 0x5c) end++;
      else if (c === quote) quote = 0;
    } else if (c === 0x22 || c === 0x27) quote = c;
    else if (c === 0x7b) depth++;
    else if (c === 0x7d) depth--;
  }
  lastDictRead = { text, end };
  const password = PASSWORD_NAME.test(singular);
  const body = text.slice(DICT_OPEN.lastIndex, end);
  for (const v of body.matchAll(ENTRY_SECRET_FIELD)) {
    const group = v.groups!.quoted !== undefined ? 'quoted' : 'single';
    const value = v.groups![group]!;
    if (isLookAlike(value, password) || isReference(value)) continue;
    const [start, stop] = v.indices!.groups![group]!;
    out.push({ start: DICT_OPEN.lastIndex + start, end: DICT_OPEN.lastIndex + stop, kind: kindOfName(singular), byContext: true });
  }
}

/** An entry's secret field in YAML (`key: …`, `secret: …`, `token: …`), on a line of the mapping under a plural secret name. */
const YAML_ENTRY_SECRET_FIELD = /^(?<indent>[ \t]*)(?:key|secret|token):[ \t]+(?:"(?<quoted>[^"\n]{8,2048})"|'(?<single>[^'\n]{8,2048})'|(?<bare>[^\s"'#][^\s#]{7,2047}))[ \t]*\r?$/d;
/** A list's item of one word, 16 characters and up, under an entry of those mappings. */
const YAML_ENTRY_LIST_ITEM = /^[ \t]*-[ \t]+(?:"(?<quoted>[^"\s]{16,2048})"|'(?<single>[^'\s]{16,2048})'|(?<bare>[^\s"'#][^\s#]{15,2047}))[ \t]*\r?$/d;

/**
 * The secret fields of the mappings under a plural secret name in YAML (cfssl's `auth_keys:` then `primary:` / `type: standard` /
 * `key: …`), from `from` (right after its `:`): the lines indented deeper than the name's, MAX_BLOCK_LINES at most.
 */
function yamlEntryKeyFields(text: string, nameAt: number, from: number, singular: string, out: SecretFinding[]): void {
  let at = from;
  while (text.charCodeAt(at) === 0x20 || text.charCodeAt(at) === 0x09 || text.charCodeAt(at) === 0x0d) at++;
  if (text.charCodeAt(at) !== 0x0a) return;
  let lineStart = nameAt;
  while (lineStart > 0 && text.charCodeAt(lineStart - 1) !== 0x0a) lineStart--;
  const indent = nameAt - lineStart;
  const password = PASSWORD_NAME.test(singular);
  for (let n = 0, start = at + 1; n < MAX_BLOCK_LINES && start < text.length; n++) {
    const nl = text.indexOf('\n', start);
    const end = nl < 0 ? text.length : nl;
    if (end - start > MAX_DICT_OF_OBJECTS) return;
    const line = text.slice(start, end);
    if (line.trim() !== '') {
      let deep = 0;
      while (deep < line.length && (line.charCodeAt(deep) === 0x20 || line.charCodeAt(deep) === 0x09)) deep++;
      if (deep <= indent) return;
      // Or an item of a list under an entry (Ory Kratos' `secrets:` / `cookie:` / `- …`, its `cipher:` and `default:` lists: adv245).
      const v = YAML_ENTRY_SECRET_FIELD.exec(line) ?? YAML_ENTRY_LIST_ITEM.exec(line);
      if (v && deep > indent + 1 && !isNameOfSecret(v.groups!.bare ?? '')) {
        const group = v.groups!.quoted !== undefined ? 'quoted' : v.groups!.single !== undefined ? 'single' : 'bare';
        const value = v.groups![group]!;
        if (!isLookAlike(value, password) && !isReference(value)) out.push({ start: start + v.indices!.groups![group]![0], end: start + v.indices!.groups![group]![1], kind: kindOfName(singular), byContext: true });
      }
    }
    if (nl < 0) return;
    start = nl + 1;
  }
}

/** After `name:` and the end of its line, the items of a YAML list: `- value` lines (indented or not), each a scalar. */
const YAML_LIST_ITEM = /(?:[^\s:]{1,256}[-:]\d{1,9}[-:]|\d{1,9}[-:])?[ \t]*-[ \t]+(?:"(?<quoted>[^"\n]{1,2048})"[ \t]*(?:#[^\n]*)?\r?|'(?<single>[^'\n]{1,2048})'[ \t]*(?:#[^\n]*)?\r?|(?<bare>[^\s#"'][^\n]*))(?=\n|$)/y;
/** A bare item without its comment (` # …`: a `#` after a blank) and trailing blanks; in code, linear (a regex for it backtracked quadratically on a long run of blanks). */
function yamlBareValue(bare: string): string {
  const hash = bare.search(/[ \t]#/);
  let end = hash < 0 ? bare.length : hash;
  while (end > 0 && (bare.charCodeAt(end - 1) === 0x20 || bare.charCodeAt(end - 1) === 0x09 || bare.charCodeAt(end - 1) === 0x0d)) end--;
  return bare.slice(0, end);
}

/** The items of a YAML list under a plural secret's name, from `from` (right after its `:`), MAX_BLOCK_LINES at most. */
function yamlListItems(text: string, from: number, singular: string, out: SecretFinding[]): void {
  let at = from;
  while (text.charCodeAt(at) === 0x20 || text.charCodeAt(at) === 0x09 || text.charCodeAt(at) === 0x0d) at++;
  if (text.charCodeAt(at) !== 0x0a) return;
  at++;
  const password = PASSWORD_NAME.test(singular);
  for (let n = 0; n < MAX_BLOCK_LINES; n++) {
    YAML_LIST_ITEM.lastIndex = at;
    const v = YAML_LIST_ITEM.exec(text);
    if (!v) return;
    const value = v.groups!.quoted ?? v.groups!.single ?? yamlBareValue(v.groups!.bare!);
    // A list of maps (`- name: DB` then `value: …`): its items are not the secrets themselves.
    if (v.groups!.bare !== undefined && /:(?:[ \t]|$)/.test(value)) return;
    // A secret's name, not its value (`secrets:` / `- db_password` in a Compose file or a pod spec, adv12 L06); a sentence
    // (cosign's `these signatures:` then `- The cosign claims were validated`, adv14 L23).
    if (isNameOfSecret(value) || /\S\s+\S+\s+\S/.test(value)) {
      at = YAML_LIST_ITEM.lastIndex + 1;
      continue;
    }
    if (!isLookAlike(value, password)) {
      const s = v.index + v[0].indexOf(value, v[0].indexOf('-') + 1);
      out.push({ start: s, end: s + value.length, kind: kindOfName(singular), byContext: true });
    }
    at = YAML_LIST_ITEM.lastIndex + 1;
  }
}

/**
 * A YAML block scalar's indicator after `key:` (`|`, `>`, `|-`, `>+2`; YAML's own tag before it, `!!binary |`: adv246 F35; not an
 * application's, `!vault |` of Ansible's ciphertext: adv253 L11), nothing but a comment after it on the line.
 */
const BLOCK_SCALAR = /(?:(?:!!(?:binary|str)|!<tag:yaml\.org,2002:(?:binary|str)>|&[\w-]{1,64})[ \t]+){0,2}[|>][+-]?[1-9]?[+-]?[ \t]*(?:#[^\n]*)?(?=\r?\n)/y;
/** MongoDB Extended JSON's binary (`mongoexport`: `"signingSecret":{"$binary":{"base64":"…","subType":"00"}}`, adv22 F07): up to the base64's quote. */
const BSON_BINARY = /\{[ \t]*"\$binary"[ \t]*:[ \t]*\{[ \t]*"base64"[ \t]*:[ \t]*(?=")/y;
/** In a secret's object, up to its `"value":` (other flat fields before it, no object opened or closed), the value's quote next. */
// Also DynamoDB's typed attribute (`"refresh_token": {"S": "…"}` of `aws dynamodb get-item`: adv15 D21), and a field whose
// name ends in `Value` (Firestore's export: `"adminPassword": {"stringValue": "…"}`, adv88; `"Value"`, `"secretValue"`).
/** A JSON object inside a string (its quotes escaped, once or deeper), its first field's name (group n). */
const ESCAPED_OBJECT_FIELD = /\{[ \t]*\\{1,15}"(?<n>[A-Za-z_][\w-]{0,63})\\{1,15}"[ \t]*:/y;
const OBJECT_VALUE_FIELD = /[^{}]{0,512}?["']?(?:[Vv]alue|S)["']?[ \t]*:[ \t]*(?=")/y;
/** `kubectl describe configmap`'s data: the name and `:` alone on a line, a `----` rule, the value's line (adv15 D01). */
const DESCRIBE_DATA_VALUE = /[ \t]*\r?\n-{3,}[ \t]*\r?\n(?<v>[^\r\n]{1,4096}?)[ \t]*\r?(?=\n|$)/dy;
/** The rest of the name's line empty, then up to three `field: …` lines indented, then `value:` and its blanks. */
const YAML_VALUE_FIELD_BELOW = /[ \t]*\r?\n(?:[ \t]+(?!value:)[\w-]{1,64}:[^\n]*\r?\n){0,3}[ \t]+value:[ \t]*(?=\S)/y;
/** The rest of a line after `"key":` empty, the next line's quoted value. */
const NEXT_LINE_QUOTE = /[ \t]*\r?\n[ \t]*(?=["'])/y;
/** `[` and blanks before a quoted string that is the list's only item (bun.lock's `"jsonwebtoken": ["jsonwebtoken@9.0.2", "", …]` is no value). */
// Go's `%#v` of a header map writes the list as a slice literal (`"X-Api-Key":[]string{"…"}`: adv30 F33).
const INLINE_LIST_STRING = /(?:\[|\[\]string\{)[ \t]*(?=(["'])(?:(?!\1)[^\n\\]|\\.){1,4096}\1[ \t]*[\]}])/y;
/**
 * A quote then 8+ characters of a string to the line's end (no closing quote on the line). Single quotes too: PHP's array
 * (Magento's env.php after a key's rotation: `'key' => '<old key>` then `<new key>'` on the next line: pass 182 F7).
 */
const UNCLOSED_QUOTE = /(?<q>["'])(?<v>(?:(?!\k<q>)[^\\\n]|\\[^\n]){8,8192})\r?(?=\n)/y;
/** A wrapped value's next piece: a line of one word (no blank, no quote), or a word up to the closing quote. */
const WRAPPED_PIECE = /(?<v>[^\s"]{1,8192})(?<close>")?/y;
const WRAPPED_PIECE_SINGLE = /(?<v>[^\s']{1,8192})(?<close>')?/y;
/** A wrapped value spans at most this many lines below the name's (a 4 KB token folded at 64 columns). */
const MAX_WRAPPED_LINES = 64;

/** A quoted value that the line ends inside (UNCLOSED_QUOTE at `at`): each piece masked, on the name's line and the lines below. */
function wrappedQuotedValue(text: string, at: number, name: string, out: SecretFinding[]): void {
  UNCLOSED_QUOTE.lastIndex = at;
  const first = UNCLOSED_QUOTE.exec(text);
  if (!first || /\s/.test(first.groups!.v) || isLookAlike(first.groups!.v, PASSWORD_NAME.test(name))) return;
  const kind = kindOfName(name);
  out.push({ start: at + 1, end: at + 1 + first.groups!.v.length, kind, byContext: true });
  let line = text.indexOf('\n', at) + 1;
  const piece = first.groups!.q === "'" ? WRAPPED_PIECE_SINGLE : WRAPPED_PIECE;
  for (let n = 0; line > 0 && n < MAX_WRAPPED_LINES; n++) {
    piece.lastIndex = line;
    const p = piece.exec(text);
    if (!p) return;
    const end = line + p.groups!.v.length;
    // A piece is the whole line, or ends at the closing quote.
    if (p.groups!.close === undefined && !/^\r?(?:\n|$)/.test(text.slice(end, end + 2))) return;
    out.push({ start: line, end, kind, byContext: true });
    if (p.groups!.close !== undefined) return;
    line = text.indexOf('\n', end) + 1;
  }
}

/** A `user` / `username` line at most two lines above the name (which starts the slice's last line). */
const USER_LINE_ABOVE = /(?:^|\n)[ \t]*"?user(?:name)?"?[ \t]*[=:][^\n]*\r?\n(?:[^\n]*\r?\n){0,2}[ \t]*"?$/;
/** How far back USER_LINE_ABOVE looks. */
const USER_LINE_LOOKBACK = 384;
/** A name of a passphrase or password (a value that may hold blanks). */
const PHRASE_NAME = /pass(?:phrase|word)|mnemonic|phrase$/i;
/** A passphrase's words up to the closing quote of the assignment around it. */
const PHRASE_TO_QUOTE = /(?<secret>[^"\n]{1,1024})(?=")/y;
/** A passphrase is at most this long (a hostile line's quote far away is no closing one). */
const MAX_PHRASE_CHARS = 1024;
/** A name whose last word is `hmac` (or `hmac_secret`): an HMAC's secret, or its algorithm. */
const HMAC_NAME = /(?:^|[_.-])hmac$/i;
/** Fewer characters than this under an `hmac` name: an algorithm's name (`sha256`), no secret (an HMAC key is 16 bytes and up). */
const MIN_HMAC_SECRET = 16;
/** `[` ending the line, the next line one quoted item and the line after it closing the array: where the item starts. */
// In single quotes too (Node's inspect: `'set-cookie': [` then `'refresh=…; Path=/'`: adv92 F14).
const ONE_ITEM_ARRAY = /\[[ \t]*\r?\n[ \t]*(?=(["'])(?:(?!\1)[^\\\n]|\\.){1,8192}\1[ \t]*\r?\n[ \t]*\])/y;
/** After VarDumper's `"key" =>`: `array:1 [`, then the next line's `0 => ` before the quoted value. */
const VAR_DUMPER_ARRAY = /[ \t]*array:\d{1,4}[ \t]*\[[ \t]*\r?\n[ \t]*0[ \t]*=>[ \t]*(?=")/y;
/** var_dump's `string(N) ` before a quoted value on the name's line. */
const VAR_DUMP_INLINE = /string\(\d{1,9}\)[ \t]*(?=")/y;
/** After var_dump's `["key"]=>`: the next line's `string(N) ` before the quoted value. */
const VAR_DUMP_NEXT = /[ \t]*\r?\n[ \t]*string\(\d+\)[ \t]*(?=")/y;

/**
 * A YAML block scalar's lines (`password: |` then the value, more indented than the key): each
 * content line is masked as the name's kind (a line at a time, so the output keeps its lines);
 * up to MAX_BLOCK_LINES. A block whose whole content is one look-alike (`${DB_PASSWORD}`,
 * `changeme`) stays. `from`: the end of the indicator's line (its newline).
 */
function blockScalar(text: string, k: number, from: number, name: string, out: SecretFinding[]): void {
  // The key's column is its line's first after a grep's or a diff's mark, its indent and a list item's `- ` (Hiera's namespaced
  // `profile::app::session_secret: |` starts its line; under grep -A the value's line is `data/common.yaml-4-  …`: adv190 F30).
  const lineStart = text.lastIndexOf('\n', k - 1) + 1;
  const mark = blockLineMark(text, lineStart, k);
  let keyAt = afterMark(text, lineStart, mark);
  const contentStart = keyAt;
  while (keyAt < k && (text.charCodeAt(keyAt) === 0x20 || text.charCodeAt(keyAt) === 0x09)) keyAt++;
  if (text.charCodeAt(keyAt) === 0x2d && (text.charCodeAt(keyAt + 1) === 0x20 || text.charCodeAt(keyAt + 1) === 0x09)) {
    keyAt++;
    while (keyAt < k && (text.charCodeAt(keyAt) === 0x20 || text.charCodeAt(keyAt) === 0x09)) keyAt++;
  }
  const keyColumn = keyAt - contentStart;
  const lines: { start: number; end: number }[] = [];
  let at = text.indexOf('\n', from);
  for (let n = 0; at >= 0 && n < MAX_BLOCK_LINES; n++) {
    const start = afterMark(text, at + 1, mark);
    if (start < 0) break;
    const nl = text.indexOf('\n', start);
    let end = nl < 0 ? text.length : nl;
    if (text.charCodeAt(end - 1) === 0x0d) end--;
    let c = start;
    while (c < end && (text.charCodeAt(c) === 0x20 || text.charCodeAt(c) === 0x09)) c++;
    if (c < end) {
      if (c - start <= keyColumn) break;
      let e = end;
      while (e > c && (text.charCodeAt(e - 1) === 0x20 || text.charCodeAt(e - 1) === 0x09)) e--;
      lines.push({ start: c, end: e });
    } else if (nl < 0) break;
    at = nl;
  }
  if (lines.length === 0) return;
  if (lines.length === 1 && isLookAlike(text.slice(lines[0].start, lines[0].end), PASSWORD_NAME.test(name))) return;
  const kind = kindOfName(name);
  for (const l of lines) out.push({ start: l.start, end: l.end, kind, byContext: true });
}

/** A grep mark (`file:3:`, `4-`) or a log multiplexer's (`web-1  | `) before a key at k on its line, or none (a diff's or a blank's would read a YAML indent's blank as one). */
function blockLineMark(text: string, lineStart: number, k: number): RegExp | undefined {
  // (The log multiplexer's first: `[pod/web-7d4b/app] ` reads as grep's file mark `[pod/web-`.)
  for (const grep of [LOG_PREFIX_MARK, LINE_MARKS[1], LINE_MARKS[2]]) {
    grep.lastIndex = lineStart;
    if (grep.test(text) && grep.lastIndex <= k) return grep;
  }
  // A diff's added or removed line (`+profile::db::password: >-` then `+  …`: adv194 F28): the same sign on each of its lines.
  const sign = text.charCodeAt(lineStart);
  return sign === 0x2b ? ADDED_LINE : sign === 0x2d && text.charCodeAt(lineStart + 1) !== 0x2d ? REMOVED_LINE : undefined;
}
const ADDED_LINE = /\+/y;
const REMOVED_LINE = /-/y;

/**
 * A password prompt as a terminal shows it: `Password: `, `Enter passphrase: `, `New password: `
 * (a capitalised word, or a word after `Enter`/`New`/`Retype`/…), then `: `. Nothing is typed
 * back (`read -s`, sudo, ssh), so what follows it on the same line is the next thing the program
 * printed (`Password: got 12` from `read -s -p "Password: " pw; echo "got ${#pw}"`), not a value.
 */
const PROMPT_NAME = /^(?:[Pp]ass(?:word|phrase|code)|PIN|Pin)$/;
const PROMPT_LEAD = /(?:^|[\s\]])(?:enter|new|retype|re-enter|repeat|confirm|current|old|verify|your|vault|sudo|key|the)[ \t]+$/i;
/** After the value on a prompt's line: more output (not a YAML comment, a `,` or `}` of a flow map). */
const MORE_OUTPUT = /[ \t]+[^\s#,}\]]/y;
/** Alone after a prompt, a status word is the program's next output, not the password (a lowercase word in general may be one). */
const STATUS_WORD = /^(?:ok|OK|done|got|success|saved|accepted|authenticated|correct|incorrect|wrong|denied|invalid|sorry|error|failed|welcome|match(?:ed)?|mismatch)$/;

/**
 * Is the value after `name:` (text[k, e), separator `sep`, value ending at `valueEnd`) what a
 * program printed after a password prompt rather than a password? The name must be a prompt's
 * (`Password` capitalised, or `password` after `Enter `) with `: ` after it, and the value be
 * followed on the same line by more output, or be a status word (`ok`, `done`, `denied`). `DB_PASSWORD: x`,
 * `password: hunter2` in YAML, `"password": "…"` stay secrets.
 */
function isPromptFollowUp(text: string, k: number, e: number, sep: string, valueEnd: number, value: string): boolean {
  if (sep[0] !== ':' || !/^:[ \t]+$/.test(sep)) return false;
  const name = text.slice(k, e);
  if (!PROMPT_NAME.test(name)) return false;
  const capitalised = name[0] >= 'A' && name[0] <= 'Z';
  if (!capitalised) {
    const lineStart = text.lastIndexOf('\n', k - 1) + 1;
    if (!PROMPT_LEAD.test(text.slice(Math.max(lineStart, k - 24), k))) return false;
  }
  MORE_OUTPUT.lastIndex = valueEnd;
  return MORE_OUTPUT.test(text) || STATUS_WORD.test(value);
}

/**
 * `read -p "Enter password: " pw; echo "got"`: is the name at `k` inside a `quote` string opened
 * earlier on its line (an odd number of them before it)? Then the quote after `: ` closes that
 * string (a prompt on a command line) and what it "quotes" is shell code, not a value.
 */
// The count goes on from the last call's when it is the same text, line and quote and `k` is further on (the names of a line are
// asked about left to right): counted from the line's start each time, a megabyte line of `"GET" "api_token:` took 40 s.
function insideOpenString(text: string, k: number, quote: string): boolean {
  const c = openStringCount;
  // The same line as the last call's: no line break between (the search back for the line's start is as long as the line).
  const sameLine = c.text === text && c.quote === quote && c.at <= k && !text.slice(c.at, k).includes('\n');
  const lineStart = sameLine ? c.lineStart : text.lastIndexOf('\n', k - 1) + 1;
  let open = sameLine ? c.open : false;
  let i = text.indexOf(quote, sameLine ? c.at : lineStart);
  for (; i >= 0 && i < k; i = text.indexOf(quote, i + 1)) open = !open;
  c.text = text;
  c.lineStart = lineStart;
  c.quote = quote;
  c.at = k;
  c.open = open;
  return open;
}
/** insideOpenString's count so far: the quotes of `text` from `lineStart` up to `at`, odd (`open`) or even. */
const openStringCount = { text: '', lineStart: -1, quote: '', at: 0, open: false };

/** Base64 of `user:password` (printable text with a colon): what docker's `auth` holds. */
function isBasicAuthBase64(value: string): boolean {
  if (value.length < 8 || value.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return false;
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  return /^[\x21-\x7e]+:[\x20-\x7e]+$/.test(decoded);
}

/** A sensitive output's value within the next lines of `"sensitive": true` (terraform output -json): strings only. */
const SENSITIVE_VALUE_AT = /(?:[^\n]*\n){0,6}?[ \t]*"value":[ \t]*"(?<secret>(?:[^"\\\n]|\\.){1,4096})"/y;

function sensitiveValue(text: string, at: number, out: SecretFinding[]): void {
  SENSITIVE_VALUE_AT.lastIndex = at;
  const m = SENSITIVE_VALUE_AT.exec(text);
  if (!m || isReference(m.groups!.secret)) return;
  const end = m.index + m[0].length - 1;
  out.push({ start: end - m.groups!.secret.length, end, kind: 'terraform sensitive output', byContext: true });
}

/** After a HAR header's `"name": "Authorization"`: its `"value"` (same line or the next). */
// Or a YAML pair (Envoy's `request_headers_to_add`: `key: "authorization"` then `value: "Basic …"`: adv23 F10).
const HAR_VALUE_AT = /"?[ \t]*(?:,[ \t]*)?\r?\n?[ \t]*"?value"?[ \t]*[:=][ \t]*"(?<secret>(?:[^"\\\n]|\\.){4,8192})"/y;

/** An Azure Functions host key's value: base64 (or its URL-safe alphabet), 32 characters and up. */
const AZURE_HOST_KEY = /^[A-Za-z0-9+/_-]{32,256}={0,2}$/;

function harHeaderValue(text: string, at: number, out: SecretFinding[]): void {
  // The keyword ends the header's quoted name (`"Set-Cookie"`), the value of a `"name":` field.
  // (HCL writes `key = "x-honeycomb-team"` then `value = "…"`: Grafana Alloy's header block, adv28 F17.)
  const named = text.charCodeAt(at) === 0x22 ? /(?:"(?<field>name|key|type)"|\b(?:name|key))[ \t]*[:=][ \t]*"(?<n>[\w-]*)$/.exec(text.slice(Math.max(0, at - 64), at))?.groups : undefined;
  const name = named?.n;
  if (name === undefined) return;
  // A credential typed `password` (Keycloak's realm import: `"credentials": [{"type": "password", "value": "…"}]`: adv113 F21).
  const typed = named!.field === 'type';
  if (typed && name !== 'password') return;
  // A parameter's word is the whole name (`"name": "key"`, not `"name": "monkey"` or `"name": "keyword"`).
  const param = HAR_PARAMS.includes(name.toLowerCase());
  // An Azure Functions host key (`az rest … /host/default/listKeys`: adv110 F31), pretty-printed: a long base64 value only.
  const hostKey = AZURE_KEY_NAMES.includes(name);
  if (!param && !hostKey && !/(?:authorization|cookie|x-api-key|x-auth-token|private-token|x-honeycomb-team)$/i.test(name)) return;
  HAR_VALUE_AT.lastIndex = at;
  const m = HAR_VALUE_AT.exec(text);
  if (!m || isReference(m.groups!.secret) || (param && isLookAlike(m.groups!.secret, false)) || (hostKey && !AZURE_HOST_KEY.test(m.groups!.secret))) return;
  const end = m.index + m[0].length - 1;
  out.push({ start: end - m.groups!.secret.length, end, kind: typed ? 'password' : hostKey ? 'azure function key' : param ? `${name.toLowerCase()} in url` : /cookie/i.test(name) ? 'cookie' : 'authorization header', byContext: true });
}

/**
 * A generated password announced on one line and printed alone on a later one (adv3 M14, Jenkins' first start:
 * `Please use the following password to proceed to installation:`, a blank line, the value): the first non-blank
 * line within NEXT_LINE_LINES_AFTER, when it is one word of 8+ characters and no look-alike.
 */
/** The rest of jasypt's `----OUTPUT----------------------` line: dashes only (read no further than JASYPT_RULE_CHARS). */
const JASYPT_RULE_END = /^-{0,64}\r?\n/;
const JASYPT_RULE_CHARS = 72;
/** The result alone on a line below the rule (a password of 4 characters and up: adv194 F36's had 7). */
const JASYPT_VALUE = /[^\n]*\n(?:[ \t\r]*\n){0,2}[ \t]*(?<secret>[^\s]{4,4096})[ \t]*\r?(?:\n|$)/y;
/** Characters before a `Private Key:` heading read back for its line's start (a blank indent, a word or two). */
const MAX_HEADING_HEAD = 40;
const NEXT_LINE_VALUE = /[^\n]*\n(?:[ \t\r]*\n){0,2}[ \t]*(?<secret>[^\s]{8,})[ \t]*\r?(?:\n|$)/y;

/** After `following `: a credential's name within two words (`password`, `enrollment token`, `API key`). */
const FOLLOWING_CREDENTIAL = /^(?:[\w-]+ ){0,2}(?:password|passphrase|token|secret|key)\b/i;

/** Before `printed below`: a credential's name and `is` / `will be` (`Initial password is printed below:`). */
const CREDENTIAL_IS_BEFORE = /(?:password|passphrase|token|secret|key)[ \t]+(?:is|are|will[ \t]+be)[ \t]+$/i;
/** After `printed below`: a colon or a stop at most, then the line's end. */
const PRINTED_BELOW_ENDS_LINE = /^[:.]?[ \t]*\r?\n/;
/** Characters before `printed below` CREDENTIAL_IS_BEFORE reads. */
const CREDENTIAL_IS_CHARS = 24;

/** A service's name after `[*] _SC_` read at most (a Windows service's name is up to 256 characters). */
const MAX_LSA_SERVICE_NAME = 256;
/** secretsdump's line after `[*] DefaultPassword`: the account (or `(Unknown User)`), a colon, the password. */
const LSA_DEFAULT_PASSWORD = /[ \t]*\r?\n[^\n:]{1,256}:(?<secret>[^\n]{1,256}?)\r?(?=\n|$)/y;

function nextLineValue(text: string, at: number, out: SecretFinding[]): void {
  if (text.charCodeAt(at - 1) === 0x64 || text.charCodeAt(at - 1) === 0x44 || text.charCodeAt(at - 1) === 0x5f) {
    // (`[*] _SC_<service>`: its name to the line's end first.)
    if (text.charCodeAt(at - 1) === 0x5f) for (const stop = Math.min(text.length, at + MAX_LSA_SERVICE_NAME); at < stop && /[\w$.-]/.test(text[at]); ) at++;
    LSA_DEFAULT_PASSWORD.lastIndex = at;
    const m = LSA_DEFAULT_PASSWORD.exec(text);
    if (m) out.push({ start: m.index + m[0].length - m.groups!.secret.length, end: m.index + m[0].length, kind: 'password', byContext: true });
    return;
  }
  // A `Private Key:` heading alone on its line (web-push's `generate-vapid-keys`: pass 235 F35): one token of the key's on a line
  // below it (a `Public Key:` heading and its key above it stay).
  if (text.charCodeAt(at - 1) === 0x3a) {
    // The heading's line start, a few blanks back at most (a megabyte line of headings is not walked back from each).
    // A word or two may come before it (`VAPID Private Key:`: adv236 F52).
    let lineStart = at - 'private key:'.length;
    for (let n = 0; n < MAX_HEADING_HEAD && lineStart > 0 && text.charCodeAt(lineStart - 1) !== 0x0a; n++) lineStart--;
    if ((lineStart > 0 && text.charCodeAt(lineStart - 1) !== 0x0a) || !/^[ \t]*(?:[A-Za-z0-9-]{1,16} ){0,2}Private Key:$/i.test(text.slice(lineStart, at)) || !/^[ \t]*\r?\n/.test(text.slice(at, at + 8))) return;
    NEXT_LINE_VALUE.lastIndex = at;
    const m = NEXT_LINE_VALUE.exec(text);
    if (!m || m.groups!.secret.length < 32 || !/^[A-Za-z0-9+/_=-]+$/.test(m.groups!.secret) || isLookAlike(m.groups!.secret, true)) return;
    const start = m.index + m[0].lastIndexOf(m.groups!.secret);
    out.push({ start, end: start + m.groups!.secret.length, kind: 'private key', byContext: true });
    return;
  }
  // jasypt's CLI (`decrypt.sh input=… password=…`, adv193 F19): its result alone on the line under `----OUTPUT-----…` (the
  // plaintext; `encrypt.sh`'s ciphertext there is masked too, harmlessly). The rule line must be dashes to its end.
  if (text.charCodeAt(at - 1) === 0x2d) {
    if (!JASYPT_RULE_END.test(text.slice(at, at + JASYPT_RULE_CHARS))) return;
    JASYPT_VALUE.lastIndex = at;
    const m = JASYPT_VALUE.exec(text);
    if (m && !isLookAlike(m.groups!.secret, true)) out.push({ start: m.index + m[0].lastIndexOf(m.groups!.secret), end: m.index + m[0].lastIndexOf(m.groups!.secret) + m.groups!.secret.length, kind: 'password', byContext: true });
    return;
  }
  // `following ` is read only before a credential's name (`the following password`, `the following enrollment token`: not
  // apt's `The following packages will be installed:`); `elastic user` only after `Password for the`; `printed below` only after
  // a credential's name and `is` (`Initial password is printed below:`).
  const last = text.charCodeAt(at - 1) | 0x20;
  // (`printed below` ends its line: NEXT_LINE_VALUE reads the rest of the line, a megabyte of `printed below` read it from each.)
  if (last === 0x77 ? !PRINTED_BELOW_ENDS_LINE.test(text.slice(at, at + 8)) || !CREDENTIAL_IS_BEFORE.test(text.slice(Math.max(0, at - 13 - CREDENTIAL_IS_CHARS), at - 13)) : last === 0x72 ? !/password for the $/i.test(text.slice(Math.max(0, at - 30), at - 12)) : !FOLLOWING_CREDENTIAL.test(text.slice(at, at + 48))) return;
  NEXT_LINE_VALUE.lastIndex = at;
  const m = NEXT_LINE_VALUE.exec(text);
  if (!m || isLookAlike(m.groups!.secret, true)) return;
  const start = m.index + m[0].lastIndexOf(m.groups!.secret);
  out.push({ start, end: start + m.groups!.secret.length, kind: 'password', byContext: true });
}

/** After a composer auth section's name: its object, flat (a host's `{"username": …, "token": …}` is read by the key rules). */
// Or jq's `to_entries` of the file (`{"key":"bearer","value":{"repo.acme.example":"…"}}`: adv118 F33).
const COMPOSER_OBJECT_AT = /(?:[ \t]*,[ \t]*"value")?[ \t]*:[ \t]*\{(?<body>[^{}]{0,4096})\}/y;
const COMPOSER_HOST_VALUE = /"[^"\\\n]+"[ \t\r\n]*:[ \t\r\n]*"(?<secret>(?:[^"\\\n]|\\.){4,4096})"/g;

/** auth.json's `"github-oauth": {"github.com": "gho_…", …}` (and `gitlab-oauth`, `gitlab-token`, `bearer`): every host's value. */
function composerSection(text: string, at: number, out: SecretFinding[]): void {
  COMPOSER_OBJECT_AT.lastIndex = at;
  const m = COMPOSER_OBJECT_AT.exec(text);
  if (!m) return;
  const body = m.groups!.body;
  const bodyAt = m.index + m[0].length - 1 - body.length;
  COMPOSER_HOST_VALUE.lastIndex = 0;
  for (let v = COMPOSER_HOST_VALUE.exec(body); v; v = COMPOSER_HOST_VALUE.exec(body)) {
    const secret = v.groups!.secret;
    if (isReference(secret)) continue;
    const s = bodyAt + v.index + v[0].length - 1 - secret.length;
    out.push({ start: s, end: s + secret.length, kind: 'composer auth token', byContext: true });
  }
}

/** `Private-Lines: N` in a PuTTY key: the N lines after it. */
const PUTTY_COUNT_AT = /[ \t]*(?<n>\d{1,3})[ \t]*\r?\n/y;

function puttyPrivateLines(text: string, at: number, out: SecretFinding[]): void {
  PUTTY_COUNT_AT.lastIndex = at;
  const m = PUTTY_COUNT_AT.exec(text);
  if (!m) return;
  const start = m.index + m[0].length;
  let end = start;
  for (let n = Number(m.groups!.n); n > 0 && end < text.length; n--) {
    const nl = text.indexOf('\n', end);
    end = nl < 0 ? text.length : nl + 1;
  }
  if (end > start) out.push({ start, end: text[end - 1] === '\n' ? end - 1 : end, kind: 'private key' });
}

/** A cookie's name and its `=` at a cookie header's value's start (`sessionid=`). */
const COOKIE_NAME_BEFORE_VALUE = /^[\w.-]{1,64}=(?=[^=])/;
/** After a string literal: a concatenation's operator (`+`, PHP's `.`). */
const JOINED_AFTER = /^[ \t]*(?:\+|\.[ \t]*\$)/;
/** A "value" that is code building a string between two literals (`"password=" + pw + ";"`, `'token=' . $t`), quotes and all. */
const CONCATENATION_OPERATOR = /^["']?[ \t]*(?:\+|\.|&|\|\|)(?:[ \t]*[A-Za-z_$][\w.$]{0,64}(?:\(\))?[ \t]*(?:\+|\.|&|\|\|))?[ \t]*["']?$/;

function apply(rule: ContextRule, line: string, offset: number, out: SecretFinding[], notValue?: RegExp): void {
  rule.re.lastIndex = 0;
  let masked: boolean | undefined;
  for (let m = rule.re.exec(line); m; m = rule.re.exec(line)) {
    const secret = m.groups?.secret ?? m.groups?.secret2;
    if (secret === undefined || secret.length === 0) continue;
    if (notValue?.test(secret)) continue;
    if (isReference(secret) || isPlaceholder(secret) || (rule.guard === true && isLookAlike(secret, true)) || CONCATENATION_OPERATOR.test(secret) || isSealedCiphertext(secret)) continue;
    // A rule that reads a name too (`define('DB_PASSWORD', …)`, `key="ClearTextPassword" value=…`): only a secret's name.
    const name = m.groups?.name;
    if (name !== undefined && !isSecretName(name)) continue;
    // The secret ends the match (a rule's convention: what follows it is a lookahead); where a rule consumed a character after it
    // (oracle:thin's `@`: 131 F14, the mask had landed one character late), it is found in the match.
    let at = m.index + m[0].length - secret.length;
    if (!line.startsWith(secret, at)) at = m.index + m[0].lastIndexOf(secret);
    masked ??= line.includes('[masked: ');
    if (insideSecretReferences(line, at) || (masked && overlapsMask(line, at, at + secret.length))) continue;
    // A quoted value is masked inside its quotes: an XML attribute, a JSON string or a command's argument keeps its shape
    // (`password="[masked: password]"`, adv16: the quotes went with the value, leaving `password=[masked: password] roles=…`).
    const quoted = secret.length >= 2 && (secret[0] === '"' || secret[0] === "'") && secret[secret.length - 1] === secret[0] ? 1 : 0;
    const s = offset + at + quoted;
    out.push({ start: s, end: s + secret.length - 2 * quoted, kind: name !== undefined ? kindOfName(name) : typeof rule.kind === 'string' ? rule.kind : rule.kind(m), byContext: rule.shape !== true });
    if (m[0].length === 0) rule.re.lastIndex++;
  }
}

/**
 * Does line[start, end) run into a mask (`[masked: password]`)? A reply masked twice (the reply guard over an engine's masked
 * text) showed `AUTH [masked: [masked: password]` when redis' rule read the mask's first word as the user (closing measure 128).
 */
function overlapsMask(line: string, start: number, end: number): boolean {
  // Read within the value and a mask's length before it: a search back to the line's start for each value was quadratic.
  const from = Math.max(0, start - MAX_MASK_CHARS);
  const piece = line.slice(from, end);
  const open = piece.lastIndexOf('[masked: ');
  if (open < 0) return false;
  const close = piece.indexOf(']', open);
  return from + open >= start || close < 0 || from + close >= start;
}
/** A mask's longest text (`[masked: secret printed by git show of a secret file]` and its like are under 100). */
const MAX_MASK_CHARS = 256;

/** Is `at` in a word that lists Secret Manager references (`--set-secrets=DB_PASSWORD=db-password:latest`: names and versions)? */
function insideSecretReferences(line: string, at: number): boolean {
  // The word's start, looked for back a bounded way: `lastIndexOf('\t')` walked the whole line back for each finding of a line
  // with no tab (100,000 header tuples on one line took 39 s).
  let start = at;
  while (start > 0 && at - start < MAX_REFERENCES_WORD && line.charCodeAt(start - 1) !== 0x20 && line.charCodeAt(start - 1) !== 0x09) start--;
  return line.charCodeAt(start) === 0x2d && SECRET_REFERENCES_OPTION.test(line.slice(start, at));
}
/** The longest `--set-secrets=…` word looked through for its option (Cloud Run lists a few dozen references). */
const MAX_REFERENCES_WORD = 4096;
const SECRET_REFERENCES_OPTION = /^--(?:set|update|remove)-secrets[= ]/;

/** A cookie's value that is a setting, no credential: one word or a small number (`theme=dark`, `lang=en`, `seen=1732886400`: closing measure 128 F08). */
// Google Analytics' client id (`_ga=GA1.2.1183728195.1717171717`: 130 F10) is a visitor's number, no session; Meta's pixel's
// browser id (`_fbp=fb.1.<ms>.<random>`) and Google Ads' `_gcl_au=1.1.<random>.<seconds>` too (pass 225 L29); GA4's session
// cookie `_ga_<id>=GS1.1.<seconds>.3.1.<seconds>.0.0.0` (pass 285 L19).
// A page to return to (NextAuth's `callback-url=https%3A%2F%2Fportal.example.com%2Fdashboard`: 133 F17; remembered as a secret, it
// masked the `location:` header's URL too): a URL, encoded or not, with no query and no user in it.
const COOKIE_SETTING = /^(?:[a-z]{1,16}|[A-Z][a-z]{1,15}|\d{1,10}|[a-z]{2}[-_][A-Za-z]{2}|G[AS]\d\.\d\.\d{1,12}(?:\.\d{1,12}){1,8}|fb\.\d\.\d{10,13}\.\d{1,20}|\d\.\d\.\d{5,12}\.\d{9,13}|https?(?::\/\/|%3A%2F%2F)(?:[\w.~-]|%2F|\/){1,512})$/i;
export const isCookieSetting = (v: string) => COOKIE_SETTING.test(v);

/** `Cookie: a=1; sid=…` / `set-cookie: sid=…; Path=/; HttpOnly`: every value but the attributes' and settings'. */
function cookies(line: string, offset: number, out: SecretFinding[]): void {
  COOKIE_LINE.lastIndex = 0;
  const m = COOKIE_LINE.exec(line);
  if (!m) return;
  let pos = m.index + m[0].length;
  // A header in quotes ends at its closing quote: a "Copy as cURL" command's `-H 'cookie: …; theme=dark' \` is read with the lines
  // its `\` continues, and its last cookie ran on over the next headers (138 F16).
  const opened = m.index > 0 ? line.charCodeAt(m.index - 1) : -1;
  // A JSON object's key (`"cookie": "…"`): its value's own quotes bound it.
  const keyed = (opened === 0x27 || opened === 0x22) && m[0].includes(String.fromCharCode(opened)) && line.charCodeAt(pos) === opened;
  if (keyed) pos++;
  const closing = opened === 0x27 || opened === 0x22 ? line.indexOf(String.fromCharCode(opened), pos) : -1;
  const end = closing >= 0 ? closing : line.length;
  const quoted = line.charCodeAt(pos) === 0x27 || line.charCodeAt(pos) === 0x22;
  for (const part of line.slice(pos, end).split(';')) {
    const eq = part.indexOf('=');
    const name = (eq < 0 ? part : part.slice(0, eq)).trim();
    // A header printed as a quoted string (Node's inspect: `Cookie: 'auth_token=…',`, adv92 F14): its closing quote and comma stay,
    // after its last cookie too (`'connect.sid=…; theme=dark',`: 133 F11).
    const quotedPart = quoted;
    // A header line's written line break after its last cookie (axios' inspect: `'Cookie: …; _shopify_y=…\r\n' +`: 137 F11) too.
    const value = eq < 0 ? '' : part.slice(eq + 1).replace(quotedPart ? /['"],?\s*$/ : /\s+$/, '').replace(/\s+$/, '').replace(/(?:\\[rn])+$/, '');
    if (eq >= 0 && value.length >= 4 && !COOKIE_ATTRIBUTES.test(name) && !value.startsWith('[masked:') && !COOKIE_SETTING.test(value)) {
      const s = offset + pos + eq + 1;
      out.push({ start: s, end: s + value.length, kind: 'cookie', byContext: true });
    }
    pos += part.length + 1;
  }
}

/** Characters before a name its line is read back for an open parenthesis (a log line's message: a few pairs). */
const PAREN_LOOKBACK = 256;
/** Is a `(` open before `k` on its line (more opened than closed, within PAREN_LOOKBACK)? */
function openParenBefore(text: string, k: number): boolean {
  let depth = 0;
  for (let i = k - 1; i >= 0 && k - i <= PAREN_LOOKBACK; i--) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) break;
    if (c === 0x29) depth--;
    else if (c === 0x28 && ++depth > 0) return true;
  }
  return false;
}

/** A text's FarNames, made when first needed. */
interface FarHolder {
  text: string;
  names: FarNames | undefined;
  /** print_r's value was looked for in vain up to here (no line ends before it): not again (namedValue). */
  noLineEndBefore: number;
  /** The inline object whose fields were last read for a secret's name (secretSiblingInline), and whether one was. */
  inlineObject: number;
  inlineHasSecret: boolean;
}

/** What FarNames asks of the scanner. */
const NAME_TESTS: NameTests = { isSecretName: (n) => isSecretName(n), kindOfName: (n) => kindOfName(n) };

/** What the mask of a key-named value says: `password`, `token`, `api key`, `secret`. */
function kindOfName(name: string): string {
  const n = name.toLowerCase();
  if (/pass|pwd|(?:^|[_.-])pw$|^clear[_-]?text$/.test(n)) return 'password';
  if (/psk$/.test(n)) return 'wi-fi key';
  if (/(?:^|[_.-])pin(?:[_.-]?code)?(?:[_.-]|$)/.test(n)) return 'pin';
  if (/priv(?:ate)?[_.-]?key/.test(n)) return 'private key';
  if (/api[_.-]?key|apikey/.test(n)) return 'api key';
  if (/access[_.-]?key/.test(n)) return 'access key';
  if (/^oauth[_.-]?code$/.test(n)) return 'oauth authorization code';
  if (/token|pat$|bearer$/.test(n)) return 'token';
  if (/cookie/.test(n)) return 'cookie';
  if (/auth/.test(n)) return 'auth credential';
  if (/credential/.test(n)) return 'credential';
  if (/dsn/.test(n)) return 'dsn';
  if (/jwt$/.test(n)) return 'jwt';
  if (/(?:totp|otp|mfa|2fa)[ _.-]?seed$/.test(n)) return 'totp seed';
  if (/seed$/.test(n)) return 'seed';
  // A key that signs (`JWT_SIGNING_KEY`, `signingKey`: 133 F03, 138 F02) is a key, not a signature.
  if (/sign(?:ing)?[_.-]?key/.test(n)) return 'signing key';
  if (/sig/.test(n)) return 'signature';
  if (/key/.test(n)) return 'key';
  return 'secret';
}

/**
 * The items of each block under a `<header>:` line alone on its line (a Kubernetes Secret's `data:` / `stringData:`): the
 * lines indented deeper than the header that `item` matches (its group 1 the indentation), up to the first that does not.
 * `value` gets each item's match and returns the value's [start, end) in the line, or undefined to keep it.
 */
function indentedBlockItems(text: string, header: RegExp, item: RegExp, value: (m: RegExpExecArray, line: string) => [number, number] | undefined, out: SecretFinding[], from: number): void {
  header.lastIndex = from;
  for (let m = header.exec(text); m; m = header.exec(text)) {
    const indent = m[1].length;
    let at = m.index + m[0].length + 1;
    while (at < text.length) {
      const nl = text.indexOf('\n', at);
      const line = text.slice(at, nl < 0 ? text.length : nl).replace(/\r$/, '');
      const it = item.exec(line);
      if (!it || it[1].length <= indent) break;
      const v = value(it, line);
      if (v) out.push({ start: at + v[0], end: at + v[1], kind: 'kubernetes secret data', byContext: true });
      if (nl < 0) break;
      at = nl + 1;
    }
  }
}

const STRING_DATA_HEADER = /^([ \t]*)stringData:[ \t]*\r?$/gm;
const STRING_DATA_ITEM = /^([ \t]+)([A-Za-z0-9._-]+):[ \t]+(?:"(?<q>[^"\n]+)"|'(?<s>[^'\n]+)'|(?<v>[^\s#|>][^\n]*?))[ \t]*$/;
const DATA_HEADER = /^([ \t]*)data:[ \t]*\r?$/gm;
const DATA_ITEM = /^([ \t]+)([A-Za-z0-9._-]+):[ \t]+(?<v>[A-Za-z0-9+/]+={0,2})[ \t]*$/;

/**
 * `stringData:` blocks (a Kubernetes Secret's plain-text values, as manifests, Helm templates and
 * `kubectl apply --dry-run -o yaml` print them): every value indented under it is secret data,
 * whatever its key is named (`db-conn:`); references and placeholders stay.
 */
function stringDataBlocks(text: string, out: SecretFinding[], from: number): void {
  indentedBlockItems(text, STRING_DATA_HEADER, STRING_DATA_ITEM, (m, line) => {
    const v = m.groups!.q ?? m.groups!.s ?? m.groups!.v!;
    if (isReference(v) || isLookAlike(v, true)) return undefined;
    const s = line.lastIndexOf(v);
    return [s, s + v.length];
  }, out, from);
}

/**
 * `data:` blocks of Kubernetes Secrets as `kubectl get secret -o yaml` prints them: every value
 * indented under `data:` that is base64 of printable text is secret data (a ConfigMap's `data:`
 * holds plain text, which does not decode to printable text, and its `binaryData:` is binary).
 */
function secretDataBlocks(text: string, out: SecretFinding[], from: number): void {
  indentedBlockItems(text, DATA_HEADER, DATA_ITEM, (m, line) => {
    const v = m.groups!.v;
    if (v.length < 4 || v.length % 4 !== 0) return undefined;
    const decoded = Buffer.from(v, 'base64').toString('utf8');
    if (!/^[\t\n\r\x20-\x7e]+$/.test(decoded) || publicSecretData(m[2], decoded)) return undefined;
    const s = line.trimEnd().length - v.length;
    return [s, s + v.length];
  }, out, from);
}

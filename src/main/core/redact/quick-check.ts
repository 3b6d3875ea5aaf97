/**
 * Cheap checks that need no scanner (scanner.ts: its rule tables are compiled on load): which environment
 * variables hold secrets, and whether a short text could hold any secret at all. The CLI uses
 * them to skip loading the scanner for audit records that cannot contain a secret (`npm test`).
 */

/**
 * Environment variable names whose values are secrets: `GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`,
 * `PGPASSWORD`, `OPENAI_API_KEY`, `NPM_CONFIG__AUTH`, `SSH_PASSPHRASE`, `DB_CREDENTIALS`, …; the short ones a script
 * names a password by (`$PW`, `$PASS`, `$DB_PASS`, `MYSQL_PWD`: session 30's attack A49), not `$PWD`, `$OLDPWD` or a script's
 * saved directory (`$ORIG_PWD`, `$START_PWD`): `*_PWD` names a password after a service's or an account's word only.
 */
export const SECRET_ENV_NAME = /TOKEN|SECRET|PASSWORD|PASSWD|PASSPHRASE|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIAL|_AUTH$|^AUTH_|SESSION_?KEY|SIGNING_?KEY|^(?:PW|PASS)$|_(?:PW|PASS)$|(?:^|_)(?:DB|MYSQL|MARIADB|SQL|PG|REDIS|ADMIN|USER|SMTP|MAIL|FTP|LDAP|BIND)_PWD$/i;

/** Shorter values are not masked: `1`, `true`, `dev` would mask ordinary output everywhere, and are no secret. */
export const MIN_ENV_SECRET_LENGTH = 6;

/** Values of `env` whose names look like secrets, longest first (so a value containing another is masked whole). */
export function secretEnvValues(env: Record<string, string | undefined>): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value.length < MIN_ENV_SECRET_LENGTH || !SECRET_ENV_NAME.test(name)) continue;
    out.push({ name, value });
  }
  return out.sort((a, b) => b.value.length - a.value.length);
}

/**
 * A wallet's recovery words with no name near them (bare-mnemonics.ts): 12 words of 3-8 lower-case letters with nothing but
 * blanks, line breaks (the CLI's JSON writes them `\n`), a list's commas, quotes and brackets and list numbers (`1.`, `12)`, `#3`)
 * between, by shape only (the word list is
 * the scanner's to read). Without it a hooked run's `cat seed.txt` skipped the scanner: 8 of 10 generated phrases hold none of
 * the words below (`lounge over undo peasant …`). A word starts the run only at a word's start (or after an escape's `\n`), so
 * each try reads 12 words at most: linear. Case-sensitive, unlike the check below.
 */
/**
 * Tools whose command lines carry a password as an operand or after a flag the scanner's command-line rules read
 * (context-rules.ts COMMAND_LINE), a short one holding none of the words above: shell history or `ps` of `prosodyctl register
 * dana meet.example.com Maplecobalt77#` was masked in sh_run's reply and printed by the hooked CLI (pass 268 F11). Each a tool's
 * name as those rules' keywords spell it.
 */
const CREDENTIAL_TOOLS = /dsadd|dev-certs|dsmod|prosodyctl|radtest|kamctl|etcdctl|rabbitmqadmin|hdbsql|hdbuserstore|cqlsh|beeline|sapcontrol|softhsm2-util|pkcs11-tool|p11tool|mcrcon|arrcon|fs_cli|sipp|sipsak|pmrep|pmcmd|infacmd|husarnet|nickserv|check_pgsql|impacket|wmiexec|smbexec|atexec|dcomexec|gettgt|getst|getnpusers|getuserspns|lookupsid|mssqlclient|evil-winrm|nxc|netexec|crackmapexec|bloodhound|certipy|bloodyad|smbmap|enum4linux|coercer|rusthound|pywhisker|pth-|rdesktop|sqlpackage|twine|osql|bcp |rpcclient|nextcloudcmd|owncloudcmd|ncftp|runmqakm|runmqckm|gsk[78]?capicmd|ktadd|kubeseal|vsce|ovsx|nsupdate|x11vnc|conan|dvc |ttyd|gotty|omero/i;
const BARE_WORDS_RUN = /(?:(?<![a-z])|(?<=\\[ntr]))[a-z]{3,8}(?:(?:[ \t\r\n,'"[\]]|\\[ntr"]|#?\d{1,2}[.):]?(?=[ \t]))+[a-z]{3,8}(?![a-z])){11}/;
/**
 * A phrase a word a line under a label (`Word #1: armed`, `Mnemonic 2. render`): 12 such lines. Anchored at a line's start and
 * each line's parts disjoint (letters, then blanks, then digits), so a try reads 12 lines at most (the label as an optional part of
 * the run above took 280 s on a megabyte of `Word #1 `).
 */
const LABELED_WORDS = /(?:^"?|\n|\\n)[ \t]*(?:[A-Za-z]{1,12}[ \t]+){1,3}#?\d{1,2}[.):]?[ \t]+[A-Za-z]{3,8}[ \t]*(?:(?:\r?\n|(?:\\r)?\\n)[ \t]*(?:[A-Za-z]{1,12}[ \t]+){1,3}#?\d{1,2}[.):]?[ \t]+[A-Za-z]{3,8}[ \t]*){11}/;
/** The same run shouted (`INCREASE DAWN PEOPLE …`: some wallets' backups print the words upper-case). */
const BARE_WORDS_RUN_UPPER = /(?:(?<![A-Z])|(?<=\\[ntr]))[A-Z]{3,8}(?:(?:[ \t\r\n,'"[\]]|\\[ntr"]|#?\d{1,2}[.):]?(?=[ \t]))+[A-Z]{3,8}(?![A-Z])){11}/;

/**
 * Could `text` hold a secret the scanner finds? Every rule of scanner.ts needs one of: a token run of 16+ characters or an Azure AD secret's `8Q~` (keys
 * and tokens: `ghp_…`, `AKIA…`, `sk-…`, `xoxb-…`, JWT parts, PEM body lines), `://` or `oracle:thin:` (URLs and
 * connection strings with passwords), `-----BEGIN` (private keys), or a word that names a
 * secret next to its value (`password=`, `aws_secret_access_key =`, `AWS_ACCOUNT_ID=`,
 * `--token …`, a password prompt in another language: `Kennwort:`, `пароль:`; a dump's rows: od -c's `  \n` (two blanks and a
 * backslash: in the CLI's JSON too), an offset `0000…` at a line's start (the JSON's first line after its quote: a hooked
 * run's `xxd .vault_pass` skipped the scanner, adv190 F22); text written as its bytes: a C array's `0x67, 0x68`, escapes `\x4e\x4f`,
 * `\u0067` (a name's letter too: `\u0070assword`), an HTML reference (`&#34;`, `&quot;`: a name's quotes), `\116\117`, a list `[103,104,…]` or of characters `['n', 'p', …]`, a secret's name spaced out (`T O K E N`), Node's `<Buffer 67 68 …>`, ASCII85's `<~`; strace's Postgres password message `"p\0\0\0`, a Redis ACL user's `>password`). False means no pattern can match; true means "look". When the scanner gains a
 * rule for a shorter shape, this check must learn it (redactor.test.ts runs every generated
 * sample through it). (Recovery codes below their label, jasypt's `----OUTPUT----`, Nagios' `$USERn$`, Elytron's `clear-text`:
 * session 38's readers, whose values are short enough to hold none of the words or runs above: adv194 F40-F42 leaked on the CLI;
 * Samba's `-U user%password` in `ps`: pass 202 F34, masked in sh_run's reply, not on the CLI; impacket's `domain/user:password@host`,
 * nmap's `Valid credentials`, netexec's `[+] domain\user:password`: pass 206 F31, F24, F4; metasploit's `Success: 'user:pw'` (adv211
 * F40 leaked on the CLI only), ncrack's rows, mimikatz' `cur/text:`, HexChat's servlist, `bw unlock`; a PIN's name before digits
 * (`PKCS11_PIN=07897632`) and ftp's `user NAME PASSWORD`: session 41's readers. A bare `-p <password>` in `ps` (`mcrcon -H … -p
 * Odin*creeper822!`: pass 264 F7, masked in sh_run's reply, printed by the CLI), a keychain dump's `data:` lines cut out by grep
 * and a compact asciinema cast: session 44's; XML-RPC logins and MySQL's `master.info` (its binlog's name): session 45's;
 * Netmiko's writes to a device and CouchDB's `[admins]`: session 46's; a Bambu printer's 8-digit `access_code`, ArcGIS' `GIS(url, user, password)` and an X12
 * `ISA*…` header: session 47's.)
 */
export function mayHoldSecret(text: string): boolean {
  // The keywords first: most outputs that hold a secret say so, and the words' run is the rarer case.
  return /[A-Za-z0-9_-]{16,}|\dQ~|component[ \t]*(?:(?:#\d?|\d)[ \t]*)?:[ \t]*[0-9a-f]{4} |--(?:so-)?pin\b|pin-value=|pin["']?[ \t]*[=:]|user [\w.@-]{1,64} [^\s'"]{0,255}[\d@#$%!?*&^~]|:\/\/|oracle:thin:|-----BEGIN|-----END|pass|pwd|secret|key|token|account|auth|cred|cookie|access_?code|\bgis\(|\bISA[*|]|sig|salt|dsn|mysql|maria|curl|<<<|<\(|sudo -S|composer|poetry|setuser|bearer|  \\|(?:^"?|\n|\\n)0000|0x0000:|wget|login|redis-cli|mongo|sqlplus|expdp|impdp|sqlldr|dgmgrl|rman|community|sink |createuser| : eap | : xauth |\]:\d{1,5} |mc admin user add|racadm|set for |deno_auth|qpdf|-hp|sselinhalt|contenu de la cl|contenido de la clave|do da chave|contenuto chiave|successfully created|credentials\(|changeuserpassword|--uri|--cert|nuget|psk|zip|7z|\/p:|ipmitool|psexec|winrs|kadmin|kinit|addprinc|{plain}|{cleartext}| -pw |pw|mnemonic|phrase|card|totp|recovery code|backup code|----output|\$user\d|clear-text|redis\\?:|mosquitto|net use|\/rp\s|plaintext|\/hooks\/|alchemy|infura|anaconda|"kty"|webhook|rabbitmqctl|openssl|lftp|sqlcmd|ldap|smbclient|-U ?[^\s%]{1,256}%\S|[\w.-]{1,256}\/[\w.$-]{1,256}:[^\s@/]{1,256}@|valid credentials|pwn3d|\[\+\] [^\s\\]{1,128}\\|\[\+\] [^\s:]{1,128}:|success: '|\/tcp [\w-]{1,32}: '|cur\/text|servlist|bw unlock|machine|:(?:\d{1,5}|\*):|wort|contrase|senha|wachtwoord|senord|has[lł]o|parola|ifre|heslo|jelsz|salasana|adgangskode|passord|пароль|密码|密碼|口令|パスワード|비밀번호|암호|==>|user:[^\s:@]+:[^\s]+ host:|rasdial|net use |net user |private_|vsql|fortivpn|assword|0x[0-9a-f]{2},\s*0x|\\x[0-9a-f]{2}\\x|\\u00[2-7][0-9a-f]|&#x?[0-9]|&quot;|\\[0-3][0-7]{2}\\[0-3]|\[-?\d{1,3}(?:,[ \t]?| )-?\d{1,3}(?:,[ \t]?| )|<~|<buffer [0-9a-f]{2} |\x08.|"p\\0\\0\\0|(?:^"?|\n|\\n)(?:[ \t]*\d+[│|:\t]?)?[ \t]*user[ \t][^\n]*[ \t]>|begin [0-7]{3}|=3D|\0|dbi:|└ '|send: sending|, "o", "|t o k e n|p a s s|s e c r e t|k e y |a u t h|identify |ascii:|addap\(|wifi\.begin|softap\(|tochararray|challenge|pswd|use \\\\|"p" ?:|ktpass|REG_SZ|(?:^|\n)data:\r?\n"|,"o","|[ \t]-p ?[^\s-]|'[^'\n]', '[^'\n]', '|methodname>(?:authenticate|execute_kw|login)<|binlog\.0|-bin\.0|write_channel: b['"]|\[admins\]/i.test(text) || CREDENTIAL_TOOLS.test(text) || BARE_WORDS_RUN.test(text) || BARE_WORDS_RUN_UPPER.test(text) || LABELED_WORDS.test(text);
}

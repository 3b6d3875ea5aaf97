/**
 * Credentials in multi-line blocks some tools print, found by the block's shape (adversary pass, issue 21 session 4): vault's
 * `Key  Value` tables, redis-cli's `CONFIG GET` pairs, a Kubernetes Secret as JSON, `openssl pkey -text`'s private numbers and
 * 1Password's concealed fields. Each gate is a native substring search; the block is read only when it is there.
 */
import type { SecretFinding } from './finding.js';
import { isLookAlike, isReference, mintedWord } from './look-alikes.js';

/**
 * The keyword (of the scanner's one pass) each block holds, and the check at a hit of it (`end`: the keyword's end) that
 * says the block may be there. No block costs a search of its own: the pass has found the words already.
 */
export const TOOL_BLOCK_WORDS: { word: string; at: (text: string, end: number) => boolean; find: (text: string, isSecretName: (name: string) => boolean, out: SecretFinding[]) => void }[] = [
  // vault's `Key  Value` header (`key` then blanks then `Value`).
  { word: 'key', at: (t, e) => t.startsWith('Key', e - 3) && /^[ \t]{2,}Value\r?\n---/.test(t.slice(e, e + 64)), find: vaultTables },
  // `borg key export`'s repokey: `BORG_KEY <repository id>` first on its line, then its base64 lines (adv143 F49).
  { word: 'borg_key', at: (t, e) => (e === 8 || t.charCodeAt(e - 9) === 0x0a) && /^ [0-9a-f]{64}[ \t]*\r?\n/.test(t.slice(e, e + 68)), find: (t, _n, out) => borgKeyLines(t, out) },
  // `pulumi config --show-secrets`' `KEY  VALUE` header in capitals, no rule under it (adv10 C10).
  { word: 'key', at: (t, e) => t.startsWith('KEY', e - 3) && /^[ \t]{2,}VALUE[ \t]*\r?\n/.test(t.slice(e, e + 64)), find: pulumiConfig },
  // `openssl pkey -text`: `Private-Key: (2048 bit, 2 primes)`, `ED25519 Private-Key:`.
  { word: 'key', at: (t, e) => t.startsWith('Private-Key:', e - 11), find: (t, _n, out) => opensslPrivateNumbers(t, out) },
  // …or a piece of it without that header (`… -text | sed -n '/^privateExponent/,/^prime2/p'`: adv165 F7): a private number's
  // label alone first on its line, its hex lines below.
  ...(['privateexponent:', 'prime1:', 'prime2:', 'exponent1:', 'exponent2:', 'coefficient:', 'priv:'] as const).map((word) => ({ word, at: (t: string, e: number) => labelAloneOnLine(t, e, word.length), find: (t: string, _n: (name: string) => boolean, out: SecretFinding[]) => opensslPrivateNumbers(t, out) })),
  // redis-cli's `1) "requirepass"`.
  { word: 'requirepass', at: (t, e) => t.charCodeAt(e) === 0x22 && t.charCodeAt(e - 12) === 0x22, find: (t, _n, out) => redisConfigGet(t, out) },
  { word: 'masterauth', at: (t, e) => t.charCodeAt(e) === 0x22 && t.charCodeAt(e - 11) === 0x22, find: (t, _n, out) => redisConfigGet(t, out) },
  // A Secret as JSON: `"kind": "Secret"`.
  { word: 'secret', at: (t, e) => t.startsWith('Secret"', e - 6) && /"kind"[ \t]*:[ \t]*"$/.test(t.slice(Math.max(0, e - 20), e - 6)), find: (t, _n, out) => secretJsonData(t, out) },
  // A private JSON Web Key (adv12 A44): `"kty"` and the private members `d`, `p`, `q`, `dp`, `dq`, `qi` (RSA, EC, OKP) or `k` (oct).
  // …printed by a REPL too: Elixir's and Ruby's `"d" => "…"`, Python's `'d': '…'` (140 F50).
  { word: '"kty"', at: () => true, find: (t, _n, out) => privateJwk(t, out) },
  { word: "'kty'", at: () => true, find: (t, _n, out) => privateJwk(t, out) },
  // Secret scanners' JSON reports (adversary pass 31): ggshield's `"occurrences": [{"match": "…"`, gitleaks' SARIF result (`"…
  // has detected secret for file …"`, its region's `"snippet": {"text": "…"}`), detect-secrets' report (`"secrets": "…"`).
  { word: '"occurrences"', at: () => true, find: (t, _n, out) => scannerMatches(t, OCCURRENCE_MATCH, out) },
  { word: 'detected secret', at: () => true, find: (t, _n, out) => scannerMatches(t, SARIF_SNIPPET, out) },
  { word: '"secrets"', at: (t, e) => /^[ \t]*:[ \t]*"/.test(t.slice(e, e + 16)), find: (t, _n, out) => scannerMatches(t, REPORT_SECRETS, out) },
  // A Jupyter kernel's connection file: its `"key"` signs the kernel's messages (whoever has it runs code in the kernel: adv33 F38).
  { word: '"signature_scheme"', at: () => true, find: (t, _n, out) => kernelKeys(t, out) },
  // kubeadm's `[upload-certs] Using certificate key:` then the key alone on the next line (adv35 F22).
  { word: 'using certificate key:', at: () => true, find: (t, _n, out) => scannerMatches(t, KUBEADM_CERTIFICATE_KEY, out) },
  // IPython's `%whos`: `Variable   Type   Data/Info`, a rule, then `name  type  value` rows (adv30 F07).
  { word: 'data/info', at: (t, e) => t.startsWith('Data/Info', e - 9), find: whosTable },
  // 1Password's fields: `"reference": "op://vault/item/field"`, with `"type": "CONCEALED"` in the same object.
  { word: '://', at: (t, e) => t.startsWith('"op://', e - 6), find: (t, _n, out) => concealedFields(t, out) },
];

/** vault's `Key  Value` table header and its `---  -----` rule (`vault kv get`, `vault read database/creds/x`). */
const VAULT_TABLE = /^Key([ \t]{2,})Value[ \t]*\r?\n---[ \t]{2,}-----[ \t]*\r?$/gm;
const VAULT_ROW = /^(?<key>\S+)[ \t]{2,}(?<value>\S.*?)[ \t]*\r?$/;
/** Above a table, vault's `====== Data ======` (a KV secret's own values: every row is secret data). */
const VAULT_DATA_TITLE = /=+ (?:Secret )?Data =+[ \t]*\r?\n(?:[^\n]*\n)?$/;
/**
 * A KV secret's rows that are plainly where the credential is used, not the credential: a database secret's `username`, `host`,
 * `port` (the lead's own check after session 26: a Data table's user and host were masked with its password). Kept only when the
 * value is no made word (mintedWord: a dynamic user `v-approle-app-Xk3j9QzLp2` stays masked); any other key's value is secret data.
 */
const VAULT_PLAIN_DATA_KEY = /^(?:user(?:_?name)?|login|host(?:_?name)?|server|port|db(?:_?name)?|database|schema|region|endpoint|url|engine|email|account|project|namespace|driver|sslmode|ssl_?mode)$/i;

/**
 * vault's tables: under `====== Data ======` (`vault kv get`) every row's value is the secret's data; elsewhere (`vault read
 * database/creds/x`, `vault token create`) the rows whose key names a secret (`password`, `token`, `secret_id`).
 */
function vaultTables(text: string, isSecretName: (name: string) => boolean, out: SecretFinding[]): void {
  VAULT_TABLE.lastIndex = 0;
  for (let m = VAULT_TABLE.exec(text); m; m = VAULT_TABLE.exec(text)) {
    const data = VAULT_DATA_TITLE.test(text.slice(Math.max(0, m.index - 120), m.index));
    for (let at = m.index + m[0].length + 1; at > 0 && at < text.length; ) {
      const nl = text.indexOf('\n', at);
      const end = nl < 0 ? text.length : nl;
      const row = VAULT_ROW.exec(text.slice(at, end));
      if (!row) break;
      const { key, value } = row.groups!;
      const plainData = data && !isSecretName(key) && VAULT_PLAIN_DATA_KEY.test(key) && !mintedWord(value);
      if (((data && !plainData) || isSecretName(key)) && !isReference(value) && !(value.length < 4 || /^(?:n\/a|<nil>|map\[\]|\[\]|true|false|\d+[smhd]?)$/.test(value))) {
        const s = at + row[0].indexOf(value, key.length);
        out.push({ start: s, end: s + value.length, kind: data ? 'vault secret data' : 'token', byContext: true });
      }
      if (nl < 0) break;
      at = nl + 1;
    }
  }
}

/** `BORG_KEY <64 hex>` alone on a line, then the key's base64 lines (76 wide; the last shorter, with its padding). */
const BORG_KEY_HEADER = /^BORG_KEY [0-9a-f]{64}[ \t]*\r?\n/gm;
const BORG_KEY_LINE = /^[A-Za-z0-9+/]{4,100}={0,2}(?=\r?$)/;
/** Lines of one repokey read at most (a key is ~10 lines of 76). */
const MAX_BORG_KEY_LINES = 128;

/** Each base64 line of a `borg key export` repokey after its header: masked one by one, as a read may show one alone. */
function borgKeyLines(text: string, out: SecretFinding[]): void {
  BORG_KEY_HEADER.lastIndex = 0;
  for (let m = BORG_KEY_HEADER.exec(text); m; m = BORG_KEY_HEADER.exec(text)) {
    let at = m.index + m[0].length;
    for (let n = 0; n < MAX_BORG_KEY_LINES && at < text.length; n++) {
      const nl = text.indexOf('\n', at);
      const line = BORG_KEY_LINE.exec(text.slice(at, nl < 0 ? text.length : nl));
      if (!line) break;
      out.push({ start: at, end: at + line[0].length, kind: 'borg key', byContext: true });
      if (nl < 0) break;
      at = nl + 1;
    }
  }
}

/** pulumi's config table: `KEY  VALUE` at a line's start, then `name  value` rows to a blank line. */
const PULUMI_TABLE = /^KEY[ \t]{2,}VALUE[ \t]*\r?$/gm;
/** Rows read under one header (a stack's config has tens). */
const MAX_PULUMI_ROWS = 256;

/**
 * `pulumi config --show-secrets` (adv10 C10): the rows whose key names a secret (`dbPassword`, `myproj:apiToken`: the part after
 * the namespace's `:`); a secret not shown is `[secret]`, no value.
 */
function pulumiConfig(text: string, isSecretName: (name: string) => boolean, out: SecretFinding[]): void {
  rowsUnder(text, PULUMI_TABLE, VAULT_ROW, MAX_PULUMI_ROWS, (row, at) => {
    const { key, value } = row.groups!;
    if (isSecretName(key.slice(key.lastIndexOf(':') + 1)) && !/\s/.test(value) && value !== '[secret]' && !isReference(value) && !isLookAlike(value, true)) {
      const s = at + row[0].indexOf(value, key.length);
      out.push({ start: s, end: s + value.length, kind: 'secret', byContext: true });
    }
  });
}

/** Each line after each `header` match that `row` reads, to the first it does not (at most `maxRows` a header): `visit(row, lineStart)`. */
function rowsUnder(text: string, header: RegExp, row: RegExp, maxRows: number, visit: (row: RegExpExecArray, at: number) => void): void {
  header.lastIndex = 0;
  for (let m = header.exec(text); m; m = header.exec(text)) {
    let at = m.index + m[0].length + 1;
    for (let n = 0; n < maxRows && at < text.length; n++) {
      const nl = text.indexOf('\n', at);
      const end = nl < 0 ? text.length : nl;
      const r = row.exec(text.slice(at, end));
      if (!r) break;
      visit(r, at);
      at = end + 1;
    }
  }
}

/** redis-cli's `CONFIG GET requirepass`: `1) "requirepass"` then `2) "…"`. */
const REDIS_CONFIG_PAIR = /^(?:[ \t]*\d+\)[ \t]+)"(?:requirepass|masterauth)"\r?\n[ \t]*\d+\)[ \t]+"(?<secret>(?:[^"\\\n]|\\.)+)"/gm;

function redisConfigGet(text: string, out: SecretFinding[]): void {
  REDIS_CONFIG_PAIR.lastIndex = 0;
  for (let m = REDIS_CONFIG_PAIR.exec(text); m; m = REDIS_CONFIG_PAIR.exec(text)) {
    const v = m.groups!.secret;
    const s = m.index + m[0].length - 1 - v.length;
    out.push({ start: s, end: s + v.length, kind: 'password', byContext: true });
  }
}

/** A Kubernetes Secret as JSON (`kubectl get secret -o json`): its `"data"` object's values (base64). */
const SECRET_JSON_DATA = /"data"[ \t]*:[ \t]*\{(?<body>[^{}]{0,65536})\}/g;
const JSON_PAIR = /"[^"\\\n]+"[ \t\r\n]*:[ \t\r\n]*"(?<v>[A-Za-z0-9+/]+={0,2})"/g;

/** Certificates only (a service account token's `ca.crt`, a TLS Secret's chain): public. */
const PUBLIC_PEM_ONLY = /^(?:\s*-----BEGIN (?:TRUSTED )?CERTIFICATE-----[A-Za-z0-9+/=\s]+-----END (?:TRUSTED )?CERTIFICATE-----)+\s*$/;
/** A Kubernetes name (a namespace's: `kube-system`). */
const DNS_LABEL = /^[a-z0-9](?:[-a-z0-9]{0,61}[a-z0-9])?$/;

/**
 * A Secret's item that is public (adv143 F21: a service account token Secret's `ca.crt` and `namespace` were masked, and the
 * certificate's last piece, the base64 of its END line, learned and masked in every later certificate): certificates only, or
 * the namespace's name under `namespace`.
 */
export function publicSecretData(key: string, decoded: string): boolean {
  return PUBLIC_PEM_ONLY.test(decoded) || (key === 'namespace' && DNS_LABEL.test(decoded));
}

/** Every value of a Secret's `"data"` that is base64 of printable text (as secretDataBlocks for YAML). */
function secretJsonData(text: string, out: SecretFinding[]): void {
  SECRET_JSON_DATA.lastIndex = 0;
  for (let m = SECRET_JSON_DATA.exec(text); m; m = SECRET_JSON_DATA.exec(text)) {
    const body = m.groups!.body;
    const bodyAt = m.index + m[0].length - 1 - body.length;
    JSON_PAIR.lastIndex = 0;
    for (let p = JSON_PAIR.exec(body); p; p = JSON_PAIR.exec(body)) {
      const v = p.groups!.v;
      if (v.length < 8 || v.length % 4 !== 0) continue;
      const decoded = Buffer.from(v, 'base64').toString('utf8');
      if (!/^[\t\n\r\x20-\x7e]+$/.test(decoded) || publicSecretData(/"([^"\\\n]+)"/.exec(p[0])![1], decoded)) continue;
      const s = bodyAt + p.index + p[0].length - 1 - v.length;
      out.push({ start: s, end: s + v.length, kind: 'kubernetes secret data', byContext: true });
    }
  }
}

/** A label that starts its line and ends it (`privateExponent:` then a line break). */
function labelAloneOnLine(t: string, end: number, length: number): boolean {
  const start = end - length;
  const next = t.charCodeAt(end);
  return (start === 0 || t.charCodeAt(start - 1) === 0x0a) && (next === 0x0a || next === 0x0d);
}

/**
 * `openssl pkey -text` / `openssl rsa -text`: the private numbers' labels, each followed by indented `xx:xx:…` lines; the
 * squasher's marks of lines it folded may stand between them in a reply (`[... 1 similar line ...]`: adv57 F49).
 */
const PRIVATE_NUMBER = /^(?:privateExponent|prime1|prime2|exponent1|exponent2|coefficient|priv|private-key|x):[ \t]*\r?\n(?<hex>(?:(?:[ \t]+[0-9a-f]{2}(?::[0-9a-f]{2})*:?|\[\.\.\. [^\n\]]{1,80} \.\.\.\])[ \t]*\r?(?:\n|$))+)/gm;

/**
 * The private numbers' lines, each remembered for the session (byContext): a reply the squasher folded shows some of them
 * without their label (`[... 11 lines omitted ...]` took `privateExponent:`), and a read's status line the last one alone.
 */
export function opensslPrivateNumbers(text: string, out: SecretFinding[]): void {
  PRIVATE_NUMBER.lastIndex = 0;
  for (let m = PRIVATE_NUMBER.exec(text); m; m = PRIVATE_NUMBER.exec(text)) {
    let at = m.index + m[0].length - m.groups!.hex.length;
    for (const line of m.groups!.hex.split('\n')) {
      const t = line.trim();
      if (t && !t.startsWith('[... ')) {
        const s = at + line.indexOf(t);
        out.push({ start: s, end: s + t.length, kind: 'private key', byContext: true });
      }
      at += line.length + 1;
    }
  }
}

/** 1Password's JSON (`op item get --format json`): a field of `"type": "CONCEALED"` and its `"value"` in the same object. */
const CONCEALED_VALUE = /"type"[ \t]*:[ \t]*"CONCEALED"[^{}]{0,400}?"value"[ \t]*:[ \t]*"(?<v>(?:[^"\\\n]|\\.){1,4096})"/g;

function concealedFields(text: string, out: SecretFinding[]): void {
  CONCEALED_VALUE.lastIndex = 0;
  for (let m = CONCEALED_VALUE.exec(text); m; m = CONCEALED_VALUE.exec(text)) {
    const v = m.groups!.v;
    if (isReference(v) || isLookAlike(v, true)) continue;
    const s = m.index + m[0].length - 1 - v.length;
    out.push({ start: s, end: s + v.length, kind: 'password', byContext: true });
  }
}

/** A JWK object (`{…"kty": …}` without nested objects) and its private members' values (base64url). */
const JWK_OBJECT = /\{[^{}]{0,16384}?["']kty["'][^{}]{0,16384}\}/g;
const JWK_PRIVATE_MEMBER = /(["'])(?:d|p|q|dp|dq|qi|k)\1[ \t\r\n]*(?::|=>)[ \t\r\n]*(["'])(?<v>[A-Za-z0-9_-]{16,})\2/g;

function privateJwk(text: string, out: SecretFinding[]): void {
  JWK_OBJECT.lastIndex = 0;
  for (let m = JWK_OBJECT.exec(text); m; m = JWK_OBJECT.exec(text)) {
    JWK_PRIVATE_MEMBER.lastIndex = 0;
    for (let v = JWK_PRIVATE_MEMBER.exec(m[0]); v; v = JWK_PRIVATE_MEMBER.exec(m[0])) {
      const s = m.index + v.index + v[0].length - 1 - v.groups!.v.length;
      // Remembered (byContext): a read of one member's line alone shows no `kty` (adv113 F19's one-line windows).
      out.push({ start: s, end: s + v.groups!.v.length, kind: 'private key', byContext: true });
    }
  }
}

/** ggshield's occurrence: `"occurrences": [` then the object's `"match": "…"` (its first field), pretty-printed or not. */
const OCCURRENCE_MATCH = /"occurrences"[ \t]*:[ \t]*\[[ \t\r\n]*\{[ \t\r\n]*"match"[ \t]*:[ \t]*"(?<v>(?:[^"\\\n]|\\.){1,4096})"/g;
/** gitleaks' SARIF result: its message, then (a location's region, fields between) the snippet's text. */
const SARIF_SNIPPET = /has detected secret for file [^\n]{0,512}\n(?:[^\n]*\n){0,24}?[ \t]*"snippet"[ \t]*:[ \t]*\{[ \t\r\n]*"text"[ \t]*:[ \t]*"(?<v>(?:[^"\\\n]|\\.){1,4096})"/g;
/** detect-secrets' `audit --report`: a finding's `"secrets": "…"` (a string; the baseline's own field is a list of objects). */
const REPORT_SECRETS = /"secrets"[ \t]*:[ \t]*"(?<v>(?:[^"\\\n]|\\.){1,4096})"/g;

/** kubeadm's certificate key, printed on the line after its announcement. */
const KUBEADM_CERTIFICATE_KEY = /Using certificate key:[ \t]*\r?\n(?<v>[0-9a-f]{64})(?![0-9a-f])/g;

/** Each `re` match's `v` in `text`: a value a secret scanner's report shows as what it found (placeholders and references kept). */
function scannerMatches(text: string, re: RegExp, out: SecretFinding[]): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const v = m.groups!.v;
    if (isReference(v) || v.length < 4) continue;
    const s = m.index + m[0].length - 1 - v.length;
    out.push({ start: s, end: s + v.length, kind: 'secret', byContext: true });
  }
}

/** `%whos`' header and its rule of dashes. */
const WHOS_HEADER = /^Variable[ \t]+Type[ \t]+Data\/Info[ \t]*\r?\n-{8,}[ \t]*\r?$/gm;
/** A row: the variable, its type, its value (IPython cuts a long one in its middle: `abc<...>xyz`). */
const WHOS_ROW = /^(?<name>[A-Za-z_]\w*)[ \t]+(?<type>[\w.]+)[ \t]+(?<value>\S[^\r\n]*?)[ \t]*\r?$/;
/** Rows read under one header (a namespace has tens of names). */
const MAX_WHOS_ROWS = 512;

/** `%whos`: the rows whose variable names a secret (`api_key`, `db_password`); a DSN's password by the URL rule already. */
function whosTable(text: string, isSecretName: (name: string) => boolean, out: SecretFinding[]): void {
  rowsUnder(text, WHOS_HEADER, WHOS_ROW, MAX_WHOS_ROWS, (row, at) => {
    const { name, type, value } = row.groups!;
    if (type !== 'str' || !isSecretName(name) || isReference(value) || isLookAlike(value, true)) return;
    // The value ends the row (blanks and a CR after it aside).
    const s = at + row[0].replace(/[ \t]*\r?$/, '').length - value.length;
    out.push({ start: s, end: s + value.length, kind: 'secret', byContext: true });
  });
}

/** A kernel connection file's `"signature_scheme": "hmac-…"`, and its `"key"` (the file's other fields between, either side). */
const KERNEL_SCHEME = /"signature_scheme"[ \t]*:[ \t]*"hmac-/g;
const KERNEL_KEY = /"key"[ \t]*:[ \t]*"(?<v>[^"\\\n]{8,256})"/g;
/** How far around the scheme the key is looked for (the file is a dozen short fields). */
const KERNEL_FILE_REACH = 1024;

function kernelKeys(text: string, out: SecretFinding[]): void {
  KERNEL_SCHEME.lastIndex = 0;
  for (let m = KERNEL_SCHEME.exec(text); m; m = KERNEL_SCHEME.exec(text)) {
    const from = Math.max(0, m.index - KERNEL_FILE_REACH);
    const window = text.slice(from, m.index + KERNEL_FILE_REACH);
    KERNEL_KEY.lastIndex = 0;
    for (let k = KERNEL_KEY.exec(window); k; k = KERNEL_KEY.exec(window)) {
      const s = from + k.index + k[0].length - 1 - k.groups!.v.length;
      out.push({ start: s, end: s + k.groups!.v.length, kind: 'kernel key', byContext: true });
    }
  }
}

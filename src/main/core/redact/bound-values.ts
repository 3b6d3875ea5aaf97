/**
 * Values bound to a secret's name away from it, which no key=value rule sees:
 * - PostgreSQL's log of an extended-protocol query (`log_statement`, `log_min_duration_statement`):
 *   `execute <unnamed>: UPDATE "users" SET "password_reset_token" = $1 …` then, on the next line,
 *   `DETAIL:  parameters: $1 = '…', $2 = '…'` — the value of each parameter a secret's column is
 *   compared with or set to (adv13 B14);
 * - a Terraform state's `random_password` resource: its `"result"` is the generated password
 *   (`terraform state pull`, adv13 B26); `terraform show` prints it `(sensitive value)`.
 * The scanner calls these at their keyword's hit; the byte path reads LINES_ABOVE_PARAMETERS
 * lines above a parameters line and RANDOM_PASSWORD_LINES below a resource's type.
 */
import { RECOVERY_CODE } from './context-rules.js';
import type { SecretFinding } from './finding.js';
import { nthCell } from './far-names.js';
import { isLookAlike } from './look-alikes.js';

/** The keyword of PostgreSQL's parameters line. */
export const PARAMETERS_WORD = 'parameters: $';
/** Lines above a parameters line its statement may start on (the LOG line; a long statement wraps onto a few). */
const MAX_STATEMENT_LINES = 4;
/** Characters of the statement read (a statement longer than this is a bulk load, not a credential's lookup). */
const MAX_STATEMENT_CHARS = 16 * 1024;
/** In a statement: a column compared with or set to a parameter (`"token" = $1`, `reset_token=$3`). */
const COLUMN_PARAMETER = /(?:"(?<q>[^"\n]{1,128})"|(?<b>[A-Za-z_][\w]{0,127}))[ \t]*(?:=|<>|!=)[ \t]*\$(?<n>\d{1,4})\b/g;
/** An INSERT's column list and its VALUES of parameters (`INSERT INTO t ("email", "password") VALUES ($1, $2)`). */
const INSERT_PARAMETERS = /\((?<cols>[^()\n]{1,4096})\)[ \t]*VALUES[ \t]*\((?<vals>[^()\n]{1,4096})\)/gi;
/** One parameter's value in the DETAIL line: `$1 = '…'` (`''` inside), or NULL. */
const PARAMETER_VALUE = /\$(?<n>\d{1,4})[ \t]*=[ \t]*'(?<v>(?:[^'\n]|'')*)'/dg;

/** A bound parameter's column's name: secret or not (scanner.ts isSecretName, passed in so this module does not import it back). */
export type IsSecretName = (name: string) => boolean;

/** PostgreSQL's `DETAIL:  parameters: $1 = '…'` after the hit ending at `at`: the values of parameters bound to a secret's column. */
export function postgresParameters(text: string, at: number, isSecretName: IsSecretName, out: SecretFinding[]): void {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  let from = lineStart;
  for (let n = 0; n < MAX_STATEMENT_LINES && from > 0; n++) from = text.lastIndexOf('\n', from - 2) + 1;
  const statement = text.slice(Math.max(from, lineStart - MAX_STATEMENT_CHARS), lineStart);
  const secret = new Set<string>();
  COLUMN_PARAMETER.lastIndex = 0;
  for (const m of statement.matchAll(COLUMN_PARAMETER)) {
    const column = m.groups!.q ?? m.groups!.b;
    if (isSecretName(column)) secret.add(m.groups!.n);
  }
  for (const m of statement.matchAll(INSERT_PARAMETERS)) {
    const cols = m.groups!.cols.split(',').map((c) => c.trim().replace(/^"(.*)"$/, '$1'));
    const vals = m.groups!.vals.split(',').map((v) => v.trim());
    cols.forEach((c, i) => {
      const p = /^\$(\d{1,4})$/.exec(vals[i] ?? '');
      if (p && isSecretName(c)) secret.add(p[1]);
    });
  }
  if (secret.size === 0) return;
  const lineEnd = text.indexOf('\n', at);
  const line = text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd);
  for (const m of line.matchAll(PARAMETER_VALUE)) {
    const v = m.groups!.v;
    if (!secret.has(m.groups!.n) || v.length === 0 || isLookAlike(v, true)) continue;
    const [start, end] = m.indices!.groups!.v!;
    out.push({ start: lineStart + start, end: lineStart + end, kind: 'secret', byContext: true });
  }
}
/** Lines above a parameters line the byte path reads (its statement's). */
export const LINES_ABOVE_PARAMETERS = MAX_STATEMENT_LINES;

/** The keyword of a Terraform state's random password. */
export const RANDOM_PASSWORD_WORD = '"random_password"';
/** Lines after a resource's type its `"result"` may be on (`terraform state pull` pretty-prints ~25 attributes). */
export const RANDOM_PASSWORD_LINES = 48;
/** After the type: up to the resource's `"result": "…"`, not past another resource's `"type":`. */
const RESULT_AFTER_TYPE = /(?:(?!"type"[ \t]*:)[\s\S]){0,4096}?"result"[ \t]*:[ \t]*"(?<v>(?:[^"\\\n]|\\.){1,1024})"/dy;

/**
 * Its attributes alone (`terraform state pull | jq '… | .attributes'`: no `"type"` in view, adv51 F16): `"bcrypt_hash"` is a
 * random_password's attribute (random_string's result is no secret and has none), its `"result"` a few lines below.
 */
export const BCRYPT_HASH_WORD = '"bcrypt_hash"';
const RESULT_AFTER_HASH = /(?:(?!"(?:type|bcrypt_hash)"[ \t]*:)[^}]){0,2048}?"result"[ \t]*:[ \t]*"(?<v>(?:[^"\\\n]|\\.){1,1024})"/dy;

/**
 * `terraform show`'s HCL of the state (`resource "random_password" "db" {` … `    result      = "…"`, when the provider did not
 * mark it sensitive: adv101 F20): its `result` in the block, before the block's closing `}` at a line's start.
 */
const RESULT_IN_BLOCK = /(?:(?!\n\})[\s\S]){0,4096}?\n[ \t]*result[ \t]*=[ \t]*"(?<v>(?:[^"\\\n]|\\.){1,1024})"/dy;

/**
 * A `random_password` resource's `"result"` after the hit (its `"type": "random_password"`, its `"bcrypt_hash"`, or HCL's
 * `resource "random_password"`) ending at `at`.
 */
export function randomPasswordResult(text: string, at: number, out: SecretFinding[]): void {
  const afterHash = text.startsWith(BCRYPT_HASH_WORD, at - BCRYPT_HASH_WORD.length);
  const hcl = !afterHash && text.startsWith('resource ', at - RANDOM_PASSWORD_WORD.length - 9);
  if (!afterHash && !hcl && !/"type"[ \t]*:[ \t]*$/.test(text.slice(Math.max(0, at - 40), at - RANDOM_PASSWORD_WORD.length))) return;
  const RESULT_AFTER = afterHash ? RESULT_AFTER_HASH : hcl ? RESULT_IN_BLOCK : RESULT_AFTER_TYPE;
  RESULT_AFTER.lastIndex = at;
  const m = RESULT_AFTER.exec(text);
  if (!m || isLookAlike(m.groups!.v, true)) return;
  const [start, end] = m.indices!.groups!.v!;
  out.push({ start, end, kind: 'password', byContext: true });
}

/** Bitwarden Secrets Manager's secret object (`bws secret list`, `bws secret get`): `"object": "secret"`, its value a few fields below. */
export const SECRET_OBJECT_WORD = '"object": "secret"';
/** Lines below `"object": "secret"` its `"value"` is on (bws prints id, organizationId, projectId and key first). */
export const SECRET_OBJECT_LINES = 10;
const SECRET_OBJECT_VALUE = /,(?:\s*"(?!value")\w{1,32}"[ \t]*:[ \t]*(?:"[^"\n]{0,512}"|[\w.-]{1,64}),){0,8}\s*"value"[ \t]*:[ \t]*"(?<v>(?:[^"\\\n]|\\.){1,8192})"/dy;

/**
 * 1Password's concealed field (`op item get --format json`: `"type": "CONCEALED"`, then its purpose and label, then `"value"`),
 * whatever its label says (`CI deploy key`: adv101 F46): read as a bws secret's value is.
 */
export const CONCEALED_FIELD_WORDS = ['"type": "concealed"', '"type":"concealed"'];

/** A bws secret's `"value"`, whatever its `"key"` is called (`orders-db`: adv18 F42); a 1Password concealed field's. */
export function secretObjectValue(text: string, at: number, out: SecretFinding[]): void {
  SECRET_OBJECT_VALUE.lastIndex = at;
  const m = SECRET_OBJECT_VALUE.exec(text);
  // A URL with a password in it (`postgres://app:…@db/orders`) keeps its user and host: the URL's rule masks the password.
  if (!m || isLookAlike(m.groups!.v, true) || /^[a-z][\w+.-]*:\/\/[^/\s:@]*:[^@\s]+@/i.test(m.groups!.v)) return;
  const [start, end] = m.indices!.groups!.v!;
  out.push({ start, end, kind: 'secret', byContext: true });
}

/** Vault's KV v2 secret as JSON (`vault kv get -format=json`): `"data": {` then `"data": {` (the secret's fields), then `"metadata"`. */
export const VAULT_DATA_WORDS = ['"data": {', '"data":{'];
/** Lines of a KV v2 secret's fields read after its outer `"data": {` (a secret holds a few keys). */
export const VAULT_DATA_LINES = 24;
/** The inner `"data": {` right after the outer one (blanks and a line break between). */
const INNER_DATA = /\s*"data"[ \t]*:[ \t]*\{/y;
/** One string field of the inner object, its value in `v`; the object ends at the first `}`. */
const DATA_FIELD = /\s*"(?:[^"\\\n]|\\.){1,256}"[ \t]*:[ \t]*(?:"(?<v>(?:[^"\\\n]|\\.){0,8192})"|[^,}\n]{1,64})[ \t]*,?/dy;
/** Fields read of one secret at most. */
const MAX_DATA_FIELDS = 64;

/**
 * `vault kv get -format=json secret/…` (adv19 F01): every string in the secret's own `data` (the inner object) is a value
 * of the secret, whatever its key is called (`admin`, `migrator`); the outer object's `metadata` beside it is not.
 */
export function vaultSecretData(text: string, at: number, out: SecretFinding[]): void {
  INNER_DATA.lastIndex = at;
  if (!INNER_DATA.test(text)) return;
  let pos = INNER_DATA.lastIndex;
  for (let n = 0; n < MAX_DATA_FIELDS; n++) {
    DATA_FIELD.lastIndex = pos;
    const m = DATA_FIELD.exec(text);
    if (!m) return;
    pos = DATA_FIELD.lastIndex;
    const v = m.groups!.v;
    if (v !== undefined && v.length > 0 && !isLookAlike(v, true)) {
      const [start, end] = m.indices!.groups!.v!;
      out.push({ start, end, kind: 'vault secret', byContext: true });
    }
  }
}

/**
 * A Google Secret Manager version as `gcloud secrets versions access --format=json|yaml` prints it (pass 135 F32: its output
 * read later with `cat`, no command to say so): `"name": "projects/<n>/secrets/<id>/versions/<v>"` then `"payload": {"data":
 * "<base64 of the secret>"}`. `data` names nothing; the version's name above the payload does.
 */
export const SECRET_PAYLOAD_WORD = 'payload';
/** Lines below `payload` its `data` field is on (JSON's `{` ends the payload's line; YAML puts `data:` on the next). */
export const SECRET_PAYLOAD_LINES = 2;
/** Characters above the payload its version's name is looked for in (gcloud prints `name` first: one line). */
const SECRET_VERSION_LOOKBACK = 512;
const SECRET_VERSION_NAME = /\/secrets\/[\w-]{1,255}\/versions\/\w{1,32}/;
/** From the hit: the payload's `data` field, its value base64 (group v). */
const SECRET_PAYLOAD_DATA = /["']?[ \t]*:[ \t]*\{?[ \t]*\r?\n?[ \t]*["']?data["']?[ \t]*:[ \t]*["']?(?<v>[A-Za-z0-9+/_-]{4,65536}={0,2})/dy;

export function secretPayloadData(text: string, at: number, out: SecretFinding[]): void {
  SECRET_PAYLOAD_DATA.lastIndex = at;
  if (!SECRET_PAYLOAD_DATA.test(text) || !SECRET_VERSION_NAME.test(text.slice(Math.max(0, at - SECRET_VERSION_LOOKBACK), at))) return;
  valueGroupAt(SECRET_PAYLOAD_DATA, text, at, 'secret manager payload', out);
}

/**
 * Subversion's cached credentials (`~/.subversion/auth/svn.simple/<md5>`: 141 F31), a hash dump of `K <len>` / key / `V <len>` /
 * value lines, keys sorted: `passtype` then `password` and its value (in clear with the `simple` store).
 */
export const SVN_SIMPLE_WORD = 'passtype';
/** Lines below `passtype` the password's value is on (its own `V`, value, then `K 8`, `password`, `V n`). */
export const SVN_SIMPLE_LINES = 6;
const SVN_SIMPLE_PASSWORD = /[^\n]{0,64}\n(?:[^\n]{0,64}\n){0,3}?K 8\r?\npassword\r?\nV \d{1,4}\r?\n(?<v>[^\r\n]{1,1024})/dy;

export function svnSimplePassword(text: string, at: number, out: SecretFinding[]): void {
  valueGroupAt(SVN_SIMPLE_PASSWORD, text, at, 'svn password', out);
}

/**
 * An AWS access key id alone on its line and its secret alone on the next (`strings` of a binary that embeds a key pair: adv153
 * F27): the secret, mixed case (a SHA's lower-case hex below an id is none).
 */
export const AWS_KEY_PAIR_WORDS = ['akia', 'asia'];
export const AWS_KEY_PAIR_LINES = 1;
const AWS_SECRET_BELOW = /[A-Z2-7]{16}[ \t]*\r?\n[ \t]*(?<v>(?=[A-Za-z0-9\/+]{0,39}[a-z])(?=[A-Za-z0-9\/+]{0,39}[A-Z])[A-Za-z0-9\/+]{40})[ \t]*\r?(?=\n|$)/dy;

export function awsSecretBelowId(text: string, at: number, out: SecretFinding[]): void {
  // The id first on its line (blanks before it at most).
  let b = at - 4;
  while (b > 0 && (text.charCodeAt(b - 1) === 0x20 || text.charCodeAt(b - 1) === 0x09)) b--;
  if (b > 0 && text.charCodeAt(b - 1) !== 0x0a) return;
  valueGroupAt(AWS_SECRET_BELOW, text, at, 'aws secret access key', out);
}

/**
 * A test grid's credentials as a runner's config names them: WebdriverIO's `user:` then `key:` (BrowserStack's 20 letters and
 * digits, Sauce Labs' UUID: pass 171 S27), on one line or the next two. A bare `key` names nothing alone (a cache's, a map's, an
 * i18n string's); beside a `user` of the same object it is that user's access key. The `user` is a bare name too (not
 * `db_user:`), and the value a token's shape: a UUID, or 16-64 letters and digits holding both. The `key` line may carry grep's
 * `file:line:` prefix (`grep -rn -A1 user: .`).
 */
export const KEY_BESIDE_USER_WORDS = ['user:', "user':", 'user":', 'username:', "username':", 'username":'];
export const KEY_BESIDE_USER_LINES = 2;
const KEY_BESIDE_USER = /[^\n]{0,256}?(?:[,{][ \t]*|\r?\n(?:[^\n]{0,256}\r?\n)?(?:[\w./-]{1,256}[:-](?:\d{1,7}[:-])?)?[ \t]*)["']?key["']?[ \t]*:[ \t]*(?<q>["']?)(?<v>[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|(?=[A-Za-z]{0,63}[0-9])(?=[0-9]{0,63}[A-Za-z])[A-Za-z0-9]{16,64})\k<q>(?![A-Za-z0-9_.-])/dy;

/** The hit's key is bare `user` or `username`, quoted or not: nothing of a name's before it (`db_user:`, `.user:`, `$user:`). */
const BARE_USER_KEY = /(?<![\w.$-])["']?user(?:name)?["']?:$/i;
/** Characters before a hit's end BARE_USER_KEY reads (`'username':` and one before). */
const BARE_USER_KEY_CHARS = 12;

export function keyBesideUser(text: string, at: number, out: SecretFinding[]): void {
  if (!BARE_USER_KEY.test(text.slice(Math.max(0, at - BARE_USER_KEY_CHARS), at))) return;
  valueGroupAt(KEY_BESIDE_USER, text, at, 'api key', out);
}

/**
 * App Center CodePush's deployments table (`appcenter codepush deployment list --displayKeys`, `code-push deployment ls -k`):
 * `│ Name │ Key │ Update Metadata │ Install Metrics │`, each deployment's key in the `Key` (`Deployment Key`) column (pass 176
 * F24). A column titled `Key` says nothing alone; beside CodePush's own titles it is the key that publishes updates to the app's
 * users. Read from the header's hit to the table's end (a line that is no row or rule).
 */
export const CODEPUSH_TABLE_WORDS = ['update metadata', 'install metrics'];
/** Lines of a deployments table read under its header (a deployment takes two or three: its metadata's lines wrap). */
export const CODEPUSH_TABLE_LINES = 64;
const CODEPUSH_KEY_TITLE = /^[ \t]*(?:Deployment[ \t])?Key[ \t]*$/i;
/** A deployment key: base64url of 32 bytes or so, alone in its cell (a wrapped row's empty cell has none). */
const CODEPUSH_KEY_CELL = /^[ \t]*([A-Za-z0-9_-]{30,64})[ \t]*$/;
/** A table's row or rule: a box's or ASCII's cell separator, or a border's corner, first on the line. */
const TABLE_LINE = /^[ \t]*[│|├┌└┼╞╟+]/;
/** Cells a header is read for its `Key` title (CodePush's table has four). */
const MAX_CODEPUSH_COLUMNS = 16;

export function codePushKeys(text: string, at: number, out: SecretFinding[]): number | void {
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const nl = text.indexOf('\n', at);
  const lineEnd = nl < 0 ? text.length : nl;
  if (lineEnd - lineStart > MAX_CODEPUSH_LINE) return lineEnd;
  const header = text.slice(lineStart, lineEnd);
  let keyCell: ((row: string) => [number, number] | undefined) | undefined;
  for (let c = 1; c <= MAX_CODEPUSH_COLUMNS && keyCell === undefined; c++) {
    const cell = nthCell(c)(header);
    if (cell === undefined) break;
    if (CODEPUSH_KEY_TITLE.test(header.slice(cell[0], cell[1]))) keyCell = nthCell(c);
  }
  if (keyCell === undefined) return lineEnd;
  let end = lineEnd;
  for (let n = 0; n < CODEPUSH_TABLE_LINES && end < text.length; n++) {
    const start = end + 1;
    const next = text.indexOf('\n', start);
    const rowEnd = next < 0 ? text.length : next;
    const row = text.slice(start, Math.min(rowEnd, start + MAX_CODEPUSH_LINE));
    if (!TABLE_LINE.test(row)) break;
    const cell = keyCell(row);
    const m = cell && CODEPUSH_KEY_CELL.exec(row.slice(cell[0], cell[1]));
    if (cell && m) {
      const s = start + cell[0] + m[0].indexOf(m[1]);
      out.push({ start: s, end: s + m[1].length, kind: 'codepush deployment key', byContext: true });
    }
    end = rowEnd;
  }
  return end;
}
/** A deployments table's line is a few hundred characters: a longer one is no such table's. */
const MAX_CODEPUSH_LINE = 4096;

/**
 * A streaming service's key beside its RTMP server (OBS's `basic/profiles/<name>/service.json`: `{"settings": {"key": "…",
 * "server": "rtmp://a.rtmp.youtube.com/live2", "service": "YouTube - RTMPS"}, "type": "rtmp_common"}`, pretty-printed or on one
 * line: pass 177 F24, F27). The stream key lets anyone broadcast on the channel; a bare `"key"` says so only beside its server.
 * Read from each `rtmp` hit (the server's URL, the `rtmp_common` type) over the lines around it.
 */
export const STREAM_KEY_WORD = 'rtmp';
/** Lines around the hit the key may be on (OBS writes four or five settings a line each). */
export const STREAM_KEY_LINES = 6;
/** Characters read on each side of the hit at most. */
const STREAM_KEY_CHARS = 1024;
// Wowza's push targets (`PushPublishMap.txt`: `{"profile":"rtmp", "host":"a.rtmp.youtube.com", …, "streamName":"<key>"}`: pass
// 205 F10): a stream's name is a key when minted (a digit, 16 characters and up: YouTube's `xxxx-xxxx-xxxx-xxxx-xxxx`), not `cam1`.
const STREAM_KEY = /"(?:key|streamName|stream_key|streamKey)"[ \t]*:[ \t]*"(?<v>[^"\s]{6,512})"/dg;
const STREAM_SERVICE = /"(?:server|service|host)"[ \t]*:[ \t]*"/;
/** A streaming service's ingest host in the window: a stream's name pushed there is its key (a site's own origin's is a name: adv211 L11). */
const STREAMING_SERVICE_HOST = /"(?:server|service|host)"[ \t]*:[ \t]*"[^"\n]{0,128}(?:youtube|facebook|fbcdn|twitch|live-video\.net|restream|kick\.com|tiktok|x\.com|twitter|periscope|linkedin|vimeo|dlive|trovo|mux\.com|ivs\.|cloudflarestream|castr)/i;
/** A stream's name taken for its key: minted, not a name of words. */
const MINTED_STREAM_NAME = /^(?=.{0,511}\d)(?=.{0,511}[a-z])[\w-]{16,512}$/i;

export function streamKeyBesideServer(text: string, at: number, out: SecretFinding[]): number | void {
  let from = Math.max(0, at - STREAM_KEY_CHARS);
  let to = Math.min(text.length, at + STREAM_KEY_CHARS);
  // Whole lines, at most STREAM_KEY_LINES each way.
  // Walked back a character at a time no further than `from` (lastIndexOf read a megabyte line back to its start at each window).
  for (let n = 0, i = at; n <= STREAM_KEY_LINES && i > from; n++) {
    while (i > from && text.charCodeAt(i - 1) !== 0x0a) i--;
    if (i > from) {
      if (n === STREAM_KEY_LINES) from = i;
      i--;
    }
  }
  let down = at;
  for (let n = 0; n <= STREAM_KEY_LINES && down >= 0 && down < to; n++) down = text.indexOf('\n', down + 1);
  if (down >= 0) to = Math.min(to, down);
  const window = text.slice(from, to);
  if (!STREAM_SERVICE.test(window)) return to;
  // (Asked once a window, not once a stream's name in it.)
  let serviceHost: boolean | undefined;
  STREAM_KEY.lastIndex = 0;
  for (let m = STREAM_KEY.exec(window); m; m = STREAM_KEY.exec(window)) {
    const [start, end] = m.indices!.groups!.v!;
    if (isLookAlike(m.groups!.v) || (!m[0].startsWith('"key"') && !(MINTED_STREAM_NAME.test(m.groups!.v) && (serviceHost ??= STREAMING_SERVICE_HOST.test(window))))) continue;
    out.push({ start: from + start, end: from + end, kind: 'stream key', byContext: true });
  }
  return to;
}

/**
 * A JWT cut by a line wrap (a CI log's long `curl -H 'Authorization: Bearer eyJ…` line wrapped at the terminal's width: adv153
 * F36): the head ends its line, the rest starts the next (its dots and signature). The rest is masked; the head is the header
 * rule's or the JWT rule's.
 */
export const WRAPPED_JWT_WORD = 'eyj';
export const WRAPPED_JWT_LINES = 1;
/** Longest piece of a wrapped token read on either line (a JWT of a few KB). */
const WRAPPED_JWT = /[A-Za-z0-9_-]{8,8192}(?:\.[A-Za-z0-9_-]{0,8192})?[ \t]*\r?\n(?<v>[A-Za-z0-9_-]{0,8192}\.[A-Za-z0-9_-]{8,8192}(?:\.[A-Za-z0-9_-]{0,8192})?)(?![A-Za-z0-9_.-])/dy;

export function wrappedJwtRest(text: string, at: number, out: SecretFinding[]): void {
  // Once per token (a run of `eyJeyJ…` is read from its first only): the head starts where no base64url character is before it.
  const start = at - 3;
  if (start > 0 && /[A-Za-z0-9_.-]/.test(text[start - 1])) return;
  valueGroupAt(WRAPPED_JWT, text, at, 'jwt', out);
}

/**
 * Orthanc's `"RegisteredUsers": { "<user>": "<password>", … }` (orthanc.json: adv152 F7): each user's password, whatever the
 * user is called.
 */
export const REGISTERED_USERS_WORD = '"registeredusers"';
/** Lines of the object read (a user a line). */
export const REGISTERED_USERS_LINES = 16;
const REGISTERED_USERS_OPEN = /[ \t]*:[ \t]*\{/y;
/** One `"user": "password"` pair inside the object, blanks and line breaks between; ends at the object's `}`. */
const REGISTERED_USER = /[\s,]*"(?:[^"\\\n]|\\.){1,256}"[ \t]*:[ \t]*"(?<v>(?:[^"\\\n]|\\.){1,1024})"/dy;

export function registeredUsersPasswords(text: string, at: number, out: SecretFinding[]): void {
  REGISTERED_USERS_OPEN.lastIndex = at;
  if (!REGISTERED_USERS_OPEN.test(text)) return;
  let from = REGISTERED_USERS_OPEN.lastIndex;
  for (let n = 0; n < REGISTERED_USERS_LINES; n++) {
    REGISTERED_USER.lastIndex = from;
    const m = REGISTERED_USER.exec(text);
    if (!m) return;
    const [start, end] = m.indices!.groups!.v!;
    out.push({ start, end, kind: 'password', byContext: true });
    from = REGISTERED_USER.lastIndex;
  }
}

/**
 * Perforce's `p4 login -p` in a CI log (adv148 F29): the ticket alone on a line below the command (after `Enter password:`),
 * a log's timestamp before it.
 */
export const P4_LOGIN_WORD = 'login -p';
/** Lines below the command its ticket is on. */
export const P4_LOGIN_LINES = 4;
const P4_COMMAND_BEFORE = /\bp4(?:\.exe)?\b[^\n]{0,256}$/;
const P4_TICKET_BELOW = /[^\n]{0,256}\n(?:[^\n]{0,256}\n){0,3}?(?:[^\n]{0,64}?[\]\s])?(?<v>[0-9A-F]{32})[ \t]*\r?(?=\n|$)/dy;

/** Characters before the hit its command's line may hold (`p4 -p ssl:host:1666 -u user`). */
const P4_LINE_BEFORE = 512;

export function p4LoginTicket(text: string, at: number, out: SecretFinding[]): void {
  // The line's start, looked for no further back than a command's line is long (lastIndexOf walked a megabyte line back to its
  // start at each `login -p` on it: 10 s a megabyte of `docker login -p…`).
  let lineStart = at;
  const limit = Math.max(0, at - P4_LINE_BEFORE);
  while (lineStart > limit && text.charCodeAt(lineStart - 1) !== 0x0a) lineStart--;
  if (lineStart > 0 && text.charCodeAt(lineStart - 1) !== 0x0a) return;
  if (!P4_COMMAND_BEFORE.test(text.slice(lineStart, at - P4_LOGIN_WORD.length))) return;
  valueGroupAt(P4_TICKET_BELOW, text, at, 'perforce ticket', out);
}

/**
 * Steam's `config.vdf` (a build agent's `steamcmd` login, adv148 F38): the `"ConnectCache"` block's values, each a cached login
 * (`"<8 hex>"  "<hex>"`, 9 or 10 with an account's suffix: pass 239 F4's `"5535b8531"`) that logs in without the password.
 */
export const STEAM_CONNECT_CACHE_WORD = '"connectcache"';
/** Lines below the block's name its entries are on (its `{`, a few accounts). */
export const STEAM_CONNECT_CACHE_LINES = 8;
const STEAM_CONNECT_CACHE_ENTRY = /[^\n]{0,256}?\n[ \t]*"[0-9a-f]{8,10}"[ \t]+"(?<v>[0-9a-f]{64,4096})"/dy;

export function steamConnectCache(text: string, at: number, out: SecretFinding[]): void {
  const nl = text.indexOf('\n', at);
  if (nl < 0) return;
  // Its `{` line, then the entries: each read from the line before it.
  const brace = text.indexOf('\n', nl + 1);
  if (brace < 0 || !/^[ \t]*\{[ \t]*\r?$/.test(text.slice(nl + 1, brace))) return;
  for (let from = brace, n = 0; n < STEAM_CONNECT_CACHE_LINES - 1; n++) {
    STEAM_CONNECT_CACHE_ENTRY.lastIndex = from;
    const m = STEAM_CONNECT_CACHE_ENTRY.exec(text);
    if (!m) return;
    const [start, end] = m.indices!.groups!.v!;
    out.push({ start, end, kind: 'steam login cache', byContext: true });
    from = text.indexOf('\n', end);
    if (from < 0) return;
  }
}

/**
 * A Ruby `HTTP::Cookie` dumped as YAML (fastlane's spaceship session, `~/.fastlane/spaceship/<user>/cookie`, the `http-cookie`
 * gem's YAML jar: adv146 F29, Apple's `myacinfo`): its `value:` field, the cookie, whatever the cookie is called.
 */
export const RUBY_COOKIE_WORD = 'ruby/object:http::cookie';
/** Lines below the object's tag its `value:` is on (`name:` comes first; the gem writes ~10 fields). */
export const RUBY_COOKIE_LINES = 8;
// Lines of the object only (no `- ` item's start), 256 characters at most before the value's line.
const RUBY_COOKIE_VALUE = /[^\n]{0,64}\n(?:(?![ \t]*- )[^\n]{0,256}\n){0,7}?[ \t]+value:[ \t]+(?<q>["']?)(?<v>[^\s"'](?:[^\n"']{2,8190}[^\s"'])?)\k<q>[ \t]*\r?(?=\n|$)/dy;

export function rubyCookieValue(text: string, at: number, out: SecretFinding[]): void {
  valueGroupAt(RUBY_COOKIE_VALUE, text, at, 'cookie', out);
}

/**
 * Proxmox VE's API token as `pveum user token add` / `pvesh create /access/users/<u>/token/<id>` print it once (adv106 F45): a
 * key/value table (`│ full-tokenid │ root@pam!backup │` … `│ value │ <uuid> │`) or JSON (`"full-tokenid":"…", … "value":"<uuid>"`).
 * The name `value` says nothing; the `full-tokenid` row above it does.
 */
export const PROXMOX_TOKEN_WORD = 'full-tokenid';
/** Lines below `full-tokenid` its `value` row is on (the table's `info` row and rules between). */
export const PROXMOX_TOKEN_LINES = 6;
/** From the hit: the `value` row's cell (a box or ASCII table) or field (JSON), within PROXMOX_TOKEN_LINES lines. */
// Lines of 256 characters at most (a table's row; a megabyte line of the word is not read to its end at each).
const PROXMOX_TOKEN_VALUE = /(?:[^\n]{0,256}\n){0,6}?[^\n]{0,256}?(?:[│|][ \t]*value[ \t]*[│|][ \t]*|"value"[ \t]*:[ \t]*")(?<v>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/dy;

export function proxmoxTokenValue(text: string, at: number, out: SecretFinding[]): void {
  valueGroupAt(PROXMOX_TOKEN_VALUE, text, at, 'proxmox api token', out);
}

/** The `v` group of the sticky `re` matched at `at`, a value of `kind` found by its context. */
function valueGroupAt(re: RegExp, text: string, at: number, kind: string, out: SecretFinding[]): void {
  re.lastIndex = at;
  const m = re.exec(text);
  if (!m) return;
  const [start, end] = m.indices!.groups!.v!;
  out.push({ start, end, kind, byContext: true });
}

/**
 * A memcached item with its data on the next line, exactly as long as its header says: a `get`'s answer over nc or telnet
 * (`VALUE <key> <flags> <bytes>[ <cas>]`) and memcached-tool's dump (`add <key> <flags> <exptime> <bytes>`): adv114 F23. The key
 * names what is cached (`api_token:svc-billing`, `session.secret`); a part of it that names a secret makes the data one.
 */
export const MEMCACHED_WORDS = ['value ', 'add '];
/** The data's line: the one after the header. */
export const MEMCACHED_LINES = 1;
const MEMCACHED_ITEM = /(?:VALUE (?<k>\S{1,250}) \d{1,10} (?<n>\d{1,7})(?: \d{1,20})?|add (?<k2>\S{1,250}) \d{1,10} \d{1,10} (?<n2>\d{1,7}))\r?\n(?<v>[^\r\n]{1,4096})/dy;
/** A key's parts: memcached keys are namespaced with `:`, `.`, `/`, `|` or `#`. */
const KEY_PART = /[^:./|#]+/g;
/** Shorter data is no secret (a flag, a count). */
const MIN_MEMCACHED_VALUE = 6;

export function memcachedValue(text: string, end: number, kindOf: (name: string) => string | undefined, out: SecretFinding[]): void {
  const start = text.startsWith('VALUE ', end - 6) ? end - 6 : text.startsWith('add ', end - 4) ? end - 4 : -1;
  if (start < 0 || (start > 0 && text.charCodeAt(start - 1) !== 0x0a)) return;
  MEMCACHED_ITEM.lastIndex = start;
  const m = MEMCACHED_ITEM.exec(text);
  if (!m) return;
  const g = m.groups!;
  const length = Number(g.n ?? g.n2);
  // Its length as the header says, the line's end after it (data longer than the read is no token).
  if (length < MIN_MEMCACHED_VALUE || g.v.length !== length || !/^\r?(?:\n|$)/.test(text.slice(m.index + m[0].length, m.index + m[0].length + 2))) return;
  let kind: string | undefined;
  for (const part of (g.k ?? g.k2).match(KEY_PART) ?? []) if ((kind = kindOf(part)) !== undefined) break;
  if (kind === undefined) return;
  const [s, e] = m.indices!.groups!.v!;
  out.push({ start: s, end: e, kind, byContext: true });
}

/**
 * pydantic's validation error (v2): the field's location alone on a line, then its message with the rejected value as
 * `input_value='…'` (`hmac_secret` / `  String should have at least 32 characters [type=string_too_short, input_value='…', …]`:
 * adv122 F13). A field that names a secret (its location's last part: `db.password`) makes the value one, whatever was wrong with it.
 */
export const PYDANTIC_INPUT_WORD = 'input_value=';
const PYDANTIC_MESSAGE = /[ \t]{2}[^\n]{0,2048}?\[type=[\w.]{1,64},[ \t]*input_value=(?:'(?<s>(?:[^'\\\n]|\\.){1,4096})'|"(?<d>(?:[^"\\\n]|\\.){1,4096})")/dy;
/** The field's location: names and indexes joined by `.` (`settings.db.password`, `items.0.token`), alone on its line. */
const PYDANTIC_FIELD = /^([\w.-]{1,256})\r?$/;

export function pydanticInputValues(text: string, kindOf: (name: string) => string | undefined, out: SecretFinding[]): void {
  // One look per line (a message holds one value; a megabyte line of the word is not read back to its start at each).
  for (let at = text.indexOf(PYDANTIC_INPUT_WORD); at >= 0; at = text.indexOf(PYDANTIC_INPUT_WORD, nextLine(text, at))) {
    const lineStart = text.lastIndexOf('\n', at) + 1;
    if (lineStart < 2) continue;
    const aboveStart = text.lastIndexOf('\n', lineStart - 2) + 1;
    const field = PYDANTIC_FIELD.exec(text.slice(aboveStart, lineStart - 1));
    if (!field) continue;
    const kind = kindOf(field[1].slice(field[1].lastIndexOf('.') + 1));
    if (kind === undefined) continue;
    PYDANTIC_MESSAGE.lastIndex = lineStart;
    const m = PYDANTIC_MESSAGE.exec(text);
    if (!m) continue;
    const [start, end] = m.indices!.groups!.s ?? m.indices!.groups!.d!;
    if (!isLookAlike(text.slice(start, end), true)) out.push({ start, end, kind, byContext: true });
  }
}

/** Where the line after the one holding `at` starts (the text's length when it is the last). */
function nextLine(text: string, at: number): number {
  const nl = text.indexOf('\n', at);
  return nl < 0 ? text.length : nl + 1;
}

/**
 * Zabbix's API session: the JSON-RPC `user.login` request, then its response's `"result"`, 32 hex digits (`jq .` of a
 * request/response log: adv116 F48). The result of another method is no secret; this one signs every later call.
 */
export const ZABBIX_LOGIN_WORD = '"user.login"';
/** Lines from the request's method to its response's result (the request's params, pretty-printed, then the response). */
export const ZABBIX_LOGIN_LINES = 16;
const ZABBIX_SESSION = /(?:[^\n]{0,256}\n){0,16}?[^\n]{0,256}?"result"[ \t]*:[ \t]*"(?<v>[0-9a-f]{32})"/dy;

export function zabbixSession(text: string, at: number, out: SecretFinding[]): void {
  valueGroupAt(ZABBIX_SESSION, text, at, 'session id', out);
}

/**
 * Datadog's extra intake endpoints, each URL with its list of API keys (`additional_endpoints:` then `"https://…":` and `- <32
 * hex>` in datadog.yaml's `apm_config` / `logs_config`, or `DD_ADDITIONAL_ENDPOINTS='{"https://…": ["…"]}'`: adv116 F09): the
 * keys, 32 hex digits, within the lines below the name.
 */
export const ADDITIONAL_ENDPOINTS_WORD = 'additional_endpoints';
/** Lines below the name the keys may be on (a few URLs, a few keys each). */
export const ADDITIONAL_ENDPOINTS_LINES = 12;
const DATADOG_KEY = /(?<![0-9a-fA-F])[0-9a-f]{32}(?![0-9a-fA-F])/g;

/** Returns the end of the hit's line: the scanner reads no later hit on it (a megabyte line of names is read once, not per name). */
export function additionalEndpointKeys(text: string, at: number, out: SecretFinding[]): number {
  const lineEnd = text.indexOf('\n', at);
  let end = at;
  for (let n = 0; n <= ADDITIONAL_ENDPOINTS_LINES && end < text.length; n++) {
    const nl = text.indexOf('\n', end + 1);
    end = nl < 0 ? text.length : nl;
  }
  // A window of 4 KB at most (a megabyte line after the name is not read for each of its hits).
  end = Math.min(end, at + 4096);
  const window = text.slice(at, end);
  DATADOG_KEY.lastIndex = 0;
  for (let m = DATADOG_KEY.exec(window); m; m = DATADOG_KEY.exec(window)) out.push({ start: at + m.index, end: at + m.index + 32, kind: 'datadog api key', byContext: true });
  return lineEnd < 0 ? text.length : lineEnd;
}

/**
 * bash's trace (`set -x`) of a pipeline that feeds a credential on stdin (`echo "$TOKEN" | docker login … --password-stdin`):
 * each side is traced on a line of its own, expanded (`+ docker login ghcr.io -u bot --password-stdin`, then `+ echo <token>`, in
 * either order, a function's trace between them): the echoed value on a traced line within XTRACE_STDIN_LINES of the consumer's
 * (closing measure 128 F25). The consumer's line must be traced too (`+ ` at its start).
 */
export const XTRACE_STDIN_WORDS = ['password-stdin', 'with-token', 'passwd-on-stdin', 'stdin-password'];
/** Lines above and below the consumer's line its echo may be traced on (a stub's or a wrapper's trace between). */
export const XTRACE_STDIN_LINES = 3;
/** A traced echo or printf of one word (bash quotes the expanded value when it holds blanks or quotes; `printf %s` loses its quotes). */
const XTRACE_ECHO = /^\++ (?:echo|printf)(?: -[neE]+)*(?: '?%s(?:\\n)?'?)? (?:'(?<q>[^'\s]{8,4096})'|(?<w>[^\s'"\\]{8,4096}))\r?$/;
/** A value shaped as a credential: a digit in it, or both cases (`'build'`, `done` are a script's words). */
const CREDENTIAL_SHAPED = /\d|[A-Z][^]*[a-z]|[a-z][^]*[A-Z]/;

/**
 * The line holding `at` as [start, end) (end at its newline or the text's end), when it is at most `max` characters long; found
 * without walking a longer line (a hit on a megabyte line reads a few hundred characters, not the line).
 */
function shortLineAt(text: string, at: number, max: number): [number, number] | undefined {
  let start = at;
  while (start > 0 && text.charCodeAt(start - 1) !== 0x0a) if (at - --start > max) return undefined;
  let end = at;
  while (end < text.length && text.charCodeAt(end) !== 0x0a) if (++end - start > max) return undefined;
  return [start, end];
}

/** A traced line longer than this is no pipeline's side (a traced echo of a value is under it; a megabyte line is not walked per hit). */
const MAX_TRACE_LINE = 4608;

export function xtraceStdinValue(text: string, at: number, out: SecretFinding[]): void {
  const line = shortLineAt(text, at, MAX_TRACE_LINE);
  if (!line || !/^\++ /.test(text.slice(line[0], line[0] + 8))) return;
  const [lineStart, lineEnd] = line;
  const look = (s: number): void => {
    const nl = text.indexOf('\n', s);
    const m = XTRACE_ECHO.exec(text.slice(s, Math.min(nl < 0 ? text.length : nl, s + MAX_TRACE_LINE)));
    const v = m && (m.groups!.q ?? m.groups!.w);
    if (typeof v !== 'string' || !CREDENTIAL_SHAPED.test(v) || isLookAlike(v, true)) return;
    const start = s + m!.index + m![0].lastIndexOf(v);
    out.push({ start, end: start + v.length, kind: 'password on command line', byContext: true });
  };
  // Up and down from the consumer's line through traced lines only (a line of output ends the pipeline's trace).
  for (let n = 0, s = lineStart; n < XTRACE_STDIN_LINES && s > 0; n++) {
    s = text.lastIndexOf('\n', s - 2) + 1;
    if (text.charCodeAt(s) !== 0x2b) break;
    look(s);
  }
  for (let n = 0, nl = lineEnd; n < XTRACE_STDIN_LINES && nl >= 0 && nl + 1 < text.length; n++) {
    const s = nl + 1;
    if (text.charCodeAt(s) !== 0x2b) break;
    look(s);
    nl = text.indexOf('\n', s);
  }
}

/**
 * A command line read one argument a line (`tr '\0' '\n' < /proc/<pid>/cmdline`, `xargs -n1`, a debugger's argv): the
 * tool's name alone on its line, then its arguments below it, `-p` and the password on two lines (sshpass) or glued
 * (`-pSECRET`, mysql) — 130 F28; on one line the command-line rules read them.
 */
export const ARGV_LINE_WORDS = ['sshpass', 'mysql', 'mariadb'];
/** Argument lines read below the tool's name. */
export const ARGV_LINES = 16;
/** The longest line that may be a tool's name alone (a path to it). */
const MAX_TOOL_LINE = 256;
const ARGV_TOOL_LINE = /^(?:\S*\/)?(?:sshpass|mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\r?$/;
const ARGV_PASSWORD = /^(?:-p(?<glued>\S{1,256})|--password=(?<long>\S{1,256}))\r?$/;

export function argvLineCredential(text: string, at: number, out: SecretFinding[]): void {
  // The tool's line is short (a megabyte line of `mysql -h x …` is not walked for each of its hits), and arguments follow it.
  const line = shortLineAt(text, at, MAX_TOOL_LINE);
  if (!line || line[1] >= text.length || !ARGV_TOOL_LINE.test(text.slice(line[0], line[1]))) return;
  const nl = line[1];
  const sshpass = text.startsWith('sshpass', at - 7);
  for (let n = 0, s = nl + 1; n < ARGV_LINES && s < text.length; n++) {
    const e = text.indexOf('\n', s);
    const end = e < 0 ? text.length : e;
    if (end - s > 1024) return;
    const arg = text.slice(s, end);
    if (sshpass && /^-p\r?$/.test(arg) && e >= 0) {
      // sshpass's password is the next argument.
      const e2 = text.indexOf('\n', e + 1);
      const v = text.slice(e + 1, e2 < 0 ? text.length : e2).replace(/\r$/, '');
      if (v.length > 0 && v.length <= 256 && !isLookAlike(v, true)) out.push({ start: e + 1, end: e + 1 + v.length, kind: 'password on command line', byContext: true });
      return;
    }
    const m = ARGV_PASSWORD.exec(arg);
    const v = m && (m.groups!.glued ?? m.groups!.long);
    if (typeof v === 'string' && !isLookAlike(v, true)) {
      const start = s + arg.lastIndexOf(v);
      out.push({ start, end: start + v.length, kind: 'password on command line', byContext: true });
      return;
    }
    if (e < 0) return;
    s = e + 1;
  }
}

/**
 * An account's recovery codes listed below their label, one line each or a few to a line, bare or as a list's items (`Recovery
 * codes:` then `- fedda-6efb9` lines, `Backup codes` then `1. 3333 3039`: adv186 F32, F33), or in HTML after it (`<p>Backup
 * codes:</p>` then `<pre>…</pre>`: adv189 F48). The label's line holds nothing after it but a colon and tags (a code on it is
 * the line rule's); the list ends at the first line that is not codes.
 */
export const RECOVERY_LIST_WORDS = ['recovery code', 'backup code'];
/** Lines of codes read below the label (an account issues 8 to 16). */
export const RECOVERY_LIST_LINES = 16;
/** The label's rest: a plural, a few words (`for github.com`), a colon, closing and opening tags, the line's end. */
const RECOVERY_LABEL_END = /s?\b[^\n:<]{0,32}:?(?:[ \t]*<\/?[A-Za-z][A-Za-z0-9]{0,9}>){0,4}[ \t]*\r?\n(?:[ \t]*\r?\n)?/y;
/**
 * Before a listed line: grep's `file-N-`, `N-` or `file-` (grep -r -A: adv194 F42, F13), or docker compose's `service-1  | `
 * (F12). A file's name holds no `-` here (grep's separator is the first).
 */
const LIST_LINE_PREFIX = String.raw`(?:[^\s:|-]{1,256}[-:](?:\d{1,9}[-:])?|\d{1,9}[-:]|[\w.-]{1,64}[ \t]{1,16}\|[ \t]?)?`;
/** One line of codes: a list's mark (`- `, `* `, `1. `, `2) `), tags, codes between blanks or commas, tags. */
const RECOVERY_LIST_LINE = new RegExp(
  String.raw`${LIST_LINE_PREFIX}[ \t]*(?:[-*\u2022][ \t]+|\d{1,2}[.)][ \t]+)?(?:<[A-Za-z][A-Za-z0-9]{0,9}>)*(?<v>${RECOVERY_CODE}(?![\w-])(?:(?:[ \t]*,[ \t]*|[ \t]+)${RECOVERY_CODE}(?![\w-])){0,7})(?:<\/[A-Za-z][A-Za-z0-9]{0,9}>)*[ \t]*(?:,[ \t]*)?\r?(?:\n|$)`,
  'dy',
);

export function recoveryCodeList(text: string, at: number, out: SecretFinding[]): number | void {
  return listBelowHeading(text, at, RECOVERY_LABEL_END, RECOVERY_LIST_LINE, RECOVERY_LIST_LINES, 'recovery codes', out);
}

/**
 * The values of a list below its heading: `headingEnd` (sticky) read from the keyword's hit to the list's first line, then up to
 * `maxLines` lines of `line` (sticky, its group `v` the value), stopping at the first line that is not one. Where it stopped.
 */
function listBelowHeading(text: string, at: number, headingEnd: RegExp, line: RegExp, maxLines: number, kind: string, out: SecretFinding[]): number | void {
  headingEnd.lastIndex = at;
  if (!headingEnd.test(text)) return;
  let from = headingEnd.lastIndex;
  for (let n = 0; n < maxLines; n++) {
    line.lastIndex = from;
    const m = line.exec(text);
    if (!m) break;
    const [start, end] = m.indices!.groups!.v!;
    out.push({ start, end, kind, byContext: true });
    from = line.lastIndex;
  }
  return from;
}

/**
 * A dev chain's funded accounts' keys listed below their heading (Foundry's `anvil`, Ganache: `Private Keys` then a rule of `=`,
 * then a blank line maybe, then `(0) 0x<64 hex>` a line: adv192 F7, F8). The heading's line holds nothing else (a colon at most).
 */
export const PRIVATE_KEY_LIST_WORD = 'private keys';
/** Lines of keys read below the heading (anvil's and Ganache's default is 10 accounts; a `--accounts 100` run prints more). */
export const PRIVATE_KEY_LIST_LINES = 128;
const PRIVATE_KEY_HEADING_END = new RegExp(String.raw`:?[ \t]*\r?\n(?:${LIST_LINE_PREFIX}[ \t]*[=-]{3,80}[ \t]*\r?\n)?(?:${LIST_LINE_PREFIX}[ \t]*\r?\n)?`, 'y');
const PRIVATE_KEY_LINE = new RegExp(String.raw`${LIST_LINE_PREFIX}[ \t]*\(\d{1,4}\)[ \t]+(?<v>(?:0x)?[0-9a-fA-F]{64})[ \t]*\r?(?:\n|$)`, 'dy');

export function privateKeyList(text: string, at: number, out: SecretFinding[]): number | void {
  return listBelowHeading(text, at, PRIVATE_KEY_HEADING_END, PRIVATE_KEY_LINE, PRIVATE_KEY_LIST_LINES, 'private key', out);
}

/**
 * Hardhat's network accounts as private keys (`accounts: ["0x<64 hex>", …]` in hardhat.config.js: adv192 F1): each 32-byte hex
 * string of the array, over lines too (an address is 20 bytes). Read item by item from the name: linear (a look-behind to the
 * array's start from each item took 11 s on a megabyte).
 */
export const ACCOUNTS_WORD = 'accounts';
export const ACCOUNTS_LINES = 64;
const ACCOUNTS_OPEN = /["']?[ \t]*:[ \t]*\[/y;
const ACCOUNT_KEY_ITEM = /[ \t\r\n]*(?<q>["'`])(?<k>(?:0x)?[0-9a-fA-F]{64})\k<q>[ \t\r\n]*(?<after>,|\])/dy;
/** Items of one array read at most. */
const MAX_ACCOUNT_ITEMS = 256;

export function hardhatAccounts(text: string, at: number, out: SecretFinding[]): number | void {
  // JavaScript's bare key only: a JSON document's `"accounts": ["0x<64 hex>"]` is another chain's addresses (Aptos' are 32
  // bytes: adv194 L3).
  if (text.charCodeAt(at - ACCOUNTS_WORD.length - 1) === 0x22 || text.charCodeAt(at) === 0x22) return;
  ACCOUNTS_OPEN.lastIndex = at;
  if (!ACCOUNTS_OPEN.test(text)) return;
  let i = ACCOUNTS_OPEN.lastIndex;
  for (let n = 0; n < MAX_ACCOUNT_ITEMS; n++) {
    ACCOUNT_KEY_ITEM.lastIndex = i;
    const m = ACCOUNT_KEY_ITEM.exec(text);
    if (!m) break;
    const [start, end] = m.indices!.groups!.k!;
    out.push({ start, end, kind: 'private key', byContext: true });
    i = ACCOUNT_KEY_ITEM.lastIndex;
    if (m.groups!.after === ']') break;
  }
  return i;
}

/**
 * The SHA-1 a credential dumper prints below an NT hash or a DPAPI master key (pypykatz' `NT: …` then `SHA1: …`, mimikatz'
 * `dpapi::masterkey` `key : …` then `sha1: …`: adv213 F26, F27): DPAPI takes it in the key's place (mimikatz' `/masterkey:<sha1>`,
 * the user's password's SHA-1 derives the master keys' key), so it is the credential's other form. A `SHA1:` line elsewhere (a
 * file's digest) is no line below one of these.
 */
export const SHA1_BELOW_KEY_WORDS = ['nt: ', 'key : '];
export const SHA1_BELOW_KEY_LINES = 2;
/** The hit's line from its word: the NT hash (or its mask: a later read of a hash the session remembers) or the master key (64 bytes: a SHA-256 cache key's line above a commit's `sha1:` is none, adv219 L2). */
const HASH_LINE_AT = /(?:NT:[ \t]*(?:[0-9a-fA-F]{32}|\[masked[^\]\n]{0,64}\])|key[ \t]*:[ \t]*[0-9a-f]{128})[ \t]*\r?\n/y;
/** The next line's (or the one after it's) `SHA1: <40 hex>`. */
const SHA1_LINE = /[ \t]*(?:[A-Za-z]{1,16}:[ \t]*[^\n]{0,128}\r?\n[ \t]*)?(?:SHA1|sha1):[ \t]*(?<v>[0-9a-fA-F]{40})(?![0-9a-fA-F])/dy;
/** Most blanks before the word on its line (an indent: a dumper's nesting). */
const MAX_HASH_INDENT = 32;

export function sha1BelowKey(text: string, at: number, out: SecretFinding[]): void {
  const nt = (text.charCodeAt(at - 4) | 0x20) === 0x6e;
  const from = at - (nt ? 4 : 6);
  let i = from;
  while (i > 0 && from - i <= MAX_HASH_INDENT && (text.charCodeAt(i - 1) === 0x20 || text.charCodeAt(i - 1) === 0x09)) i--;
  if (i > 0 && text.charCodeAt(i - 1) !== 0x0a) return;
  HASH_LINE_AT.lastIndex = from;
  if (!HASH_LINE_AT.test(text)) return;
  SHA1_LINE.lastIndex = HASH_LINE_AT.lastIndex;
  const m = SHA1_LINE.exec(text);
  if (!m) return;
  const [start, end] = m.indices!.groups!.v!;
  out.push({ start, end, kind: nt ? 'nt hash' : 'dpapi key', byContext: true });
}

/**
 * BIND's `dnssec-keygen -a HMAC-SHA256` key file (`K<name>.+163+<tag>.private`): `Algorithm: 163 (HMAC_SHA256)`, then `Key:` and
 * the TSIG secret in base64 (pass 255 F36); a DNSSEC key's fields are other rules' (`PrivateKey:`, `PrivateExponent:`).
 */
export const HMAC_KEY_FILE_WORD = '(hmac_';
export const HMAC_KEY_FILE_LINES = 1;
const HMAC_KEY_BELOW = /[A-Z0-9]{1,16}\)[ \t]*\r?\nKey:[ \t]+(?<v>[A-Za-z0-9+/]{4,1024}={0,2})[ \t]*\r?(?=\n|$)/dy;

export function hmacKeyBelowAlgorithm(text: string, at: number, out: SecretFinding[]): void {
  HMAC_KEY_BELOW.lastIndex = at;
  const m = HMAC_KEY_BELOW.exec(text);
  if (!m) return;
  const [start, end] = m.indices!.groups!.v!;
  out.push({ start, end, kind: 'tsig key', byContext: true });
}

/**
 * A key or hash a tool prints alone on the line below its label: impacket's getnthash.py (`Recovered NT Hash` then 32 hex digits),
 * PKINITtools' gettgtpkinit.py (`AS-REP encryption key (you might need this later):` then the key, each line behind Python
 * logging's `INFO:minikerberos:`): adv253's leftovers.
 */
export const HEX_BELOW_LABEL_WORDS = ['recovered nt hash', 'you might need this later):'];
export const HEX_BELOW_LABEL_LINES = 2;
// (gettgtpkinit.py logs each line twice, with a time and as `INFO:minikerberos:`: the label's twin may come first, adv263 X4.)
const HEX_BELOW = /[ \t]*\r?\n(?:[^\n]{0,160}you might need this later\):[ \t]*\r?\n)?(?:[A-Z]{4,8}:[\w.]{1,64}:|\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} [\w.]{1,64} [A-Z]{4,8} {1,8})?[ \t]*(?<v>[0-9a-fA-F]{32}(?:[0-9a-fA-F]{32})?)[ \t]*\r?(?=\n|$)/dy;

export function hexBelowLabel(text: string, at: number, out: SecretFinding[]): void {
  HEX_BELOW.lastIndex = at;
  const m = HEX_BELOW.exec(text);
  if (!m) return;
  const [start, end] = m.indices!.groups!.v!;
  out.push({ start, end, kind: end - start === 32 && (text.charCodeAt(at - 1) | 0x20) === 0x68 ? 'nt hash' : 'kerberos key', byContext: true });
}

/**
 * An expect script's answer to a password prompt: `expect "*password:"` then `send "Tango$copper42\r"` (pass 258 F27; `send --`,
 * `exp_send`, Tcl's braces `send -- {…}`, a `sleep` between; pexpect's `child.expect('Password:')` then `child.sendline('…')`:
 * adv263 E1–E6). The prompt is what the `expect` waits for last: a password's, passphrase's, PIN's or secret's word then at most
 * its colon and a wildcard (`expect "passwd: password updated successfully"` then `send "exit\r"` answers no prompt: adv263 LA3).
 * A variable sent (`send "$pw\r"`) is the script's reference, not the value.
 */
export const EXPECT_SEND_WORDS = ['send "', 'send -- "', 'send {', 'send -- {', 'sendline(', 'send('];
export const EXPECT_SEND_LINES = 0;
/** The `expect` line above the `send` and a line between (a raw read's window takes them in). */
export const EXPECT_SEND_LINES_ABOVE = 2;
/** The sent string: to its closing quote or brace, less the `\r` / `\n` the script ends it with. */
const SENT = /(?<v>(?:[^"'{}\\\n]|\\(?![rn]["'}]))+?)(?:\\[rn])?["'}]/dy;
/** The lines above read for the prompt's `expect` (characters at most). */
const EXPECT_ABOVE_CHARS = 512;
/** A braced value's characters read at most (a password is short; a megabyte of braces is not walked). */
const MAX_BRACED_VALUE = 512;
/**
 * The prompt's words inside the `expect`'s quotes: a double-quoted prompt may hold a `'` (`"root@h's password:"`), a single-quoted
 * one a `"`; a regular expression's ending `$` or `\\s*` (`-re "(P|p)assword: $"`): the stop-time check's leftovers.
 */
const PROMPT_WORD = String.raw`(?:assword|passwd|passphrase|pass phrase|passcode|PIN|secret)[ \t]*(?:for (?:(?:[\w-]{1,32}[ \t]+)?(?:'[^'\n]{1,128}'|\\"[^"\n\\]{1,128}\\")|[^\n"'{}:]{1,256}))?[:?>]?[ \t]*\??(?:\\s[*+]?)?\*?[ \t]*\$?`;
const PROMPT_QUOTED = String.raw`(?:"[^\n"{}]{0,128}?${PROMPT_WORD}"|'[^\n'{}]{0,128}?${PROMPT_WORD}'|\{[^\n"'{}]{0,128}?${PROMPT_WORD}\})`;
const EXPECTS_PASSWORD = new RegExp(
  String.raw`\bexpect(?:_exact)?\b[ \t]*\(?[ \t]*\[?[ \t]*[rbu]?(?:-re[ \t]+|-exact[ \t]+|-gl[ \t]+)?${PROMPT_QUOTED}(?:[ \t]*,[^\n]{0,256})?\]?\)?[ \t]*\r?\n(?:[ \t\d]*(?:sleep\b[^\n]*|#[^\n]*|)\r?\n)?[ \t\d]*[\w.]*(?:exp_)?send(?:line)?[ \t]*\(?[ \t]*(?:--[ \t]+)?b?["'{]$`,
  'i',
);

export function expectSendValue(text: string, at: number, out: SecretFinding[]): void {
  if (text.charCodeAt(at) === 0x24) return;
  // (The hit ends at the opening quote or brace; pexpect's `sendline(` before its quote.)
  let from = at;
  if (text.charCodeAt(at - 1) === 0x28) {
    // (Python's bytes literal too: `sendline(b'…')`: adv272 S3.)
    if (text.charCodeAt(at) === 0x62) from = ++at;
    if (text.charCodeAt(at) !== 0x27 && text.charCodeAt(at) !== 0x22) return;
    from = at + 1;
    if (text.charCodeAt(from) === 0x24) return;
  }
  const before = text.slice(Math.max(0, from - EXPECT_ABOVE_CHARS), from);
  if (!EXPECTS_PASSWORD.test(before)) return;
  // Tcl's braces nest (`{Kestrel{juniper}716}`): the value runs to the brace that closes the first.
  if (text.charCodeAt(from - 1) === 0x7b) {
    let depth = 1;
    let end = from;
    for (; end < text.length && end - from < MAX_BRACED_VALUE && text.charCodeAt(end) !== 0x0a; end++) {
      const c = text.charCodeAt(end);
      if (c === 0x7b) depth++;
      else if (c === 0x7d && --depth === 0) break;
    }
    if (depth === 0 && end - from >= 4) out.push({ start: from, end, kind: 'password', byContext: true });
    return;
  }
  SENT.lastIndex = from;
  const m = SENT.exec(text);
  if (!m) return;
  const [start, end] = m.indices!.groups!.v!;
  if (end - start >= 4) out.push({ start, end, kind: 'password', byContext: true });
}

/**
 * Windows LAPS' password JSON pretty-printed (`jq . laps.json`: `"n": "Administrator",` / `"t": "<hex time>",` / `"p": "…"` each on
 * its line: adv251's leftover); the compact form is a line rule's (context-rules.ts).
 */
export const LAPS_PRETTY_WORDS = ['"p": "', '"p":  "'];
export const LAPS_PRETTY_LINES_ABOVE = 2;
// (PowerShell's ConvertTo-Json writes two blanks after each colon: `"p":  "…"`.)
const LAPS_ABOVE = /"n"[ \t]*:[ \t]*"[^"\n]{1,256}"[ \t]*,[ \t]*\r?\n[ \t]*"t"[ \t]*:[ \t]*"[0-9a-fA-F]{14,16}"[ \t]*,[ \t]*\r?\n[ \t]*"p":[ \t]{1,2}"$/;
const LAPS_VALUE = /(?<v>(?:[^"\\\n]|\\.){1,256})"/dy;

export function lapsPrettyPassword(text: string, at: number, out: SecretFinding[]): void {
  if (!LAPS_ABOVE.test(text.slice(Math.max(0, at - 600), at))) return;
  LAPS_VALUE.lastIndex = at;
  const m = LAPS_VALUE.exec(text);
  if (!m) return;
  const [start, end] = m.indices!.groups!.v!;
  out.push({ start, end, kind: 'password', byContext: true });
}

/**
 * An Authorization header's values as a list, its first item on the next line (`"authorization": [` then `"Bearer 7|…"`: a
 * Laravel Ignition/Flare report's headers through jq, PSR-7's and Symfony's dumps: adv262 F20).
 */
export const AUTHORIZATION_LIST_WORDS = ['"authorization": [', "'authorization': [", '"authorization":['];
export const AUTHORIZATION_LIST_LINES = 1;
const AUTHORIZATION_ITEM = /[ \t]*\r?\n[ \t]*(?<q>["'])(?:(?:Bearer|Basic|Token|Bot|Digest)[ \t]+)?(?<v>[^"'\s][^"'\n]{3,4096}?)\k<q>(?=[ \t]*(?:,[ \t]*)?\r?(?:\n|$))/dy;

export function authorizationListItem(text: string, at: number, out: SecretFinding[]): void {
  AUTHORIZATION_ITEM.lastIndex = at;
  const m = AUTHORIZATION_ITEM.exec(text);
  if (!m) return;
  const [start, end] = m.indices!.groups!.v!;
  out.push({ start, end, kind: 'authorization header', byContext: true });
}


/**
 * Odoo's external API over XML-RPC (`common.authenticate(db, login, password, {})`, `object.execute_kw(db, uid, password, …)`):
 * the call's third parameter, a password or an API key with no name beside it, as Python's `xmlrpc.client` prints it verbose
 * (`send: b"<?xml …<methodName>authenticate</methodName>\n<params>…"`, its line breaks escaped: pass 265 S9) or a request body
 * logged over lines.
 */
export const XMLRPC_LOGIN_WORDS = ['<methodname>authenticate<', '<methodname>execute_kw<', '<methodname>login<'];
/** A call pretty-printed: `<params>`, and `<param>`, `<value>`, `<string>`, `</value>`, `</param>` a line each for two parameters first. */
export const XMLRPC_LOGIN_LINES = 20;
/** Blanks or a line break, escaped in a bytes literal (`\n`) or not. */
const XML_GAP = String.raw`(?:\\n|\s){0,32}`;
const XML_PARAM = String.raw`${XML_GAP}<param>${XML_GAP}<value>${XML_GAP}(?:<(?:string|int|i4)>[^<\n]{0,256}<\/(?:string|int|i4)>|[^<\n]{0,256})${XML_GAP}<\/value>${XML_GAP}<\/param>`;
// (Pretty-printed, each tag on its line: adv272 S20.)
const XMLRPC_THIRD_PARAM = new RegExp(String.raw`\/methodName>${XML_GAP}<params>(?:${XML_PARAM}){2}${XML_GAP}<param>${XML_GAP}<value>${XML_GAP}(?:<string>)?(?<v>[^<\n\\]{4,256})<`, 'dy');

export function xmlRpcLoginPassword(text: string, at: number, out: SecretFinding[]): void {
  XMLRPC_THIRD_PARAM.lastIndex = at;
  const m = XMLRPC_THIRD_PARAM.exec(text);
  if (!m) return;
  const [start, end] = m.indices!.groups!.v!;
  out.push({ start, end, kind: 'password', byContext: true });
}

/**
 * Playwright's call log of a failed fill (`locator resolved to <input … type="password" …/>` then `- fill("…")`: pass 266 F31; a
 * login test's failure prints it): the text filled into a password input, on one of the next lines.
 */
export const PASSWORD_INPUT_WORDS = ['type="password"', "type='password'"];
export const PASSWORD_INPUT_LINES = 3;
/** A call log's line is an element's tag at most: longer, it is no call log's. */
const MAX_CALL_LOG_LINE = 1024;
const FILLED_BELOW = /[^\n]{0,1024}\n(?:[ \t]*-[^\n]{0,1024}\n){0,2}?[ \t]*-[ \t]+(?:fill|type|pressSequentially)\((?:"(?<d>(?:[^"\\\n]|\\.){1,256})"|'(?<s>(?:[^'\\\n]|\\.){1,256})')\)/dy;

export function passwordInputFilled(text: string, at: number, out: SecretFinding[]): void {
  // Only a call log's line (its `- ` item or a `locator resolved to`): an HTML page's input is no call.
  // (Its start looked for back a call log line's length at most: a megabyte line of inputs is not walked for each.)
  let lineStart = at;
  while (lineStart > 0 && text.charCodeAt(lineStart - 1) !== 0x0a) if (at - --lineStart > MAX_CALL_LOG_LINE) return;
  if (!/^[ \t]*-[ \t]/.test(text.slice(lineStart, lineStart + 64))) return;
  FILLED_BELOW.lastIndex = at;
  const m = FILLED_BELOW.exec(text);
  if (!m) return;
  const [start, end] = m.indices!.groups!.d ?? m.indices!.groups!.s!;
  out.push({ start, end, kind: 'password', byContext: true });
}

/**
 * MySQL's legacy `master.info` (a replica's connection to its source, one field a line, the password's meaning its line number
 * alone: `33`, `mysql-bin.000142`, a position, the host, the user, the password, the port: pass 273 F13), found by its binlog's
 * name: the sixth line under a line count, when the seventh is a port.
 */
export const MASTER_INFO_WORDS = ['-bin.0', 'binlog.0'];
export const MASTER_INFO_LINES = 5;
export const MASTER_INFO_LINES_ABOVE = 1;
/** The binlog's line, and the count's above it, read back this far at most. */
const MAX_MASTER_INFO_LINE = 128;
const MASTER_INFO = /\d{1,3}\r?\n[\w.-]{1,128}\.\d{6}\r?\n\d{1,20}\r?\n[\w.:-]{1,253}\r?\n[^\n]{1,128}\n(?<v>[^\n\r]{1,256})\r?\n\d{1,5}\r?(?:\n|$)/dy;

export function masterInfoPassword(text: string, at: number, out: SecretFinding[]): void {
  let lineStart = at;
  while (lineStart > 0 && text.charCodeAt(lineStart - 1) !== 0x0a) if (at - --lineStart > MAX_MASTER_INFO_LINE) return;
  if (lineStart === 0) return;
  let above = lineStart - 1;
  while (above > 0 && text.charCodeAt(above - 1) !== 0x0a) if (lineStart - --above > MAX_MASTER_INFO_LINE) return;
  MASTER_INFO.lastIndex = above;
  const m = MASTER_INFO.exec(text);
  if (!m) return;
  const [start, end] = m.indices!.groups!.v!;
  out.push({ start, end, kind: 'replication password', byContext: true });
}

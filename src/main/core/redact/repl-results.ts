/**
 * A REPL's answer to an expression that reads a secret: the name is only in what was typed (`shop(dev)> Rails.application
 * .credentials.dig(:aws, :secret_access_key)`, `In [2]: settings.EMAIL_HOST_PASSWORD`, `jshell> System.getenv("X_SECRET")`,
 * `iex(1)> System.fetch_env!("GUARDIAN_SECRET_KEY")`, PsySH's `> config('services.postmark.token')`), the value on the result
 * line below it (`=> "…"`, `Out[2]: '…'`, `$1 ==> "…"`, `"…"`, `= "…"`): adversary pass 20's F01, F02, F04, F06, F07.
 * The value is masked when it is a quoted string on the first result line within RESULT_LINES of the prompt, and what the
 * expression reads, its last word, names a secret (`secret_access_key`, `token`, `EMAIL_HOST_PASSWORD`).
 */
import type { SecretFinding } from './finding.js';
import { indexOfAscii } from './low-bytes.js';

/** A prompt and what was typed after it: PowerShell's (`PS C:\\src> `, the docs' `PS> `: adv110 F39), irb, a Rails console (`app(env)>`), IPython, jshell, iex (a remote console's `iex(node@host)2> ` too: adv250 F28), PsySH / node (`> `), Python. */
// Debuggers too: `node inspect`'s `debug> exec …` (adv30 F18), pdb's `(Pdb) p …`, ipdb's, lldb's and delve's prompts. And
// FreeSWITCH's fs_cli (`freeswitch@pbx01> global_getvar default_password`, its answer bare below: pass 255 F8).
const PROMPT = /^(?:PS(?: [^\n>]{1,256})?> |irb\([^)\n]*\):\d+:\d+[>*] |(?:\[\d{1,6}\] )?[\w-]{1,64}\([\w-]{1,32}\)(?::\d+)?[>*] |In \[\d+\]: |jshell> |iex\((?:\d+\)|[\w.-]{1,64}@[\w.:-]{1,253}\)\d+)> |>>> |> |debug> (?:exec |repl )?|\((?:Pdb|lldb|dlv)\) |ipdb> |freeswitch@[\w.-]{1,253}> )(?<expr>[^\n]{1,2048})$/;
/**
 * Does the text hold a REPL's prompt? Plain searches before any regex reads lines (a search of every line start cost a 20 MB
 * log 7% of its masking): `> ` alone (curl -v's request lines) counts only beside PsySH's `= ` result or node's `'…'` one.
 */
function mayHoldPrompt(text: string): boolean {
  return (text.includes('PS ') && text.includes('> ')) || text.includes('PS> ') || text.includes('irb(') || text.includes('In [') || text.includes('jshell> ') || text.includes('iex(') || text.includes('>>> ') || text.includes(')> ') || text.includes('debug> ') || text.includes(') ') && /\((?:Pdb|lldb|dlv)\) /.test(text) || text.includes('ipdb> ') || text.includes('freeswitch@') || (text.includes('> ') && (text.includes('\n= ') || quotedResultUnderPrompt(text)));
}
/** Node's REPL: a `> ` line, then a line that starts with a quote (its result), somewhere in the text (a few looks at most). */
export function quotedResultUnderPrompt(text: string, bytes?: Buffer): boolean {
  let looks = 0;
  for (let i = indexOfAscii(text, bytes, "\n'"); i > 0 && looks++ < MAX_RESULT_LOOKS; i = indexOfAscii(text, bytes, "\n'", i + 2)) {
    const start = text.lastIndexOf('\n', i - 1) + 1;
    if (i - start <= 2048 + 2 && text.startsWith('> ', start)) return true;
  }
  return false;
}
/** Quoted lines looked at for a prompt above them (a YAML or a repr of many such lines is no REPL's). */
const MAX_RESULT_LOOKS = 64;

/**
 * A result line holding one quoted string, after the REPL's own mark; Python's bytes (`b'\x83\xebrU-…'` of a Flask
 * `SECRET_KEY`: adv71 F19); or a pair of them, a tuple or a constructor's repr, the second the secret (pdb's `p
 * session.auth` → `('integration-bot', '…')`, `>>> creds` → `Creds('svc-backup', '…')`: adv71 F38, F39).
 */
const RESULT = /^(?:=> |Out\[\d+\]: |\$\d+ ==> |= |)(?:[bB]|[A-Za-z_][\w.]{0,63}\(|\()?(?:(?<q1>["'])[^"'\n]{1,128}\k<q1>,[ \t]*)?(?<q>["'])(?<v>(?:(?!\k<q>)[^\\\n]|\\.){4,8192})\k<q>\)?[ \t]*\r?$/;
/** A result that is a list of strings, bytes or not (`['…', '…']`, `[b'…', b'…']`, `=> ["…", "…"]`). */
const LIST_RESULT = /^(?:=> |Out\[\d+\]: |\$\d+ ==> |= |)\[(?:[bB]?(["'])[^"'\n]{4,512}\1,?[ \t]*){1,64}\][ \t]*\r?$/;
/** One item of such a list: its quoted value (group v), the closing quote last. */
const LIST_ITEM = /[bB]?(["'])(?<v>[^"'\n]{4,512})\1/g;
/** PowerShell reading a secure string as plain text: `ConvertFrom-SecureString -AsPlainText`, `GetNetworkCredential().Password`, `PtrToStringAuto`. */
const PLAIN_TEXT_READ = /ConvertFrom-SecureString\b[^\n]*-AsPlainText|GetNetworkCredential\(\)\.Password|PtrToString(?:Auto|BSTR|Uni)\b/i;
/** Such a read's result: the text alone on its line, unquoted. */
const BARE_RESULT = /^(?<q>)(?<v>[^\s]{6,512})[ \t]*\r?$/;
/** An expression's last word that reads a credential pair: `session.auth`, `client.credentials`. */
const READS_CREDENTIALS = /^(?:auth|basic_auth|credentials|creds)$/i;
/** A conversion of what an expression read, as its last words (`.toString('hex')`, `.hex()`, `.decode()`, `base64.b64encode(…)`). */
const CONVERSION = /^(?:toString|hex|base64|base64url|utf-?8|ascii|latin1|binary|decode|encode|b64encode|urlsafe_b64encode|from|Buffer|String|str|repr|bytes|to_s|inspect|unpack1?|strip|trim|toJSON|stringify|get_secret_value|reveal|expose_secret)$/;
/** Lines below the prompt the result may be on (IPython leaves none; a warning may come first). */
const RESULT_LINES = 3;
/** A word of the expression (a method, a key, a symbol, a string's content). */
const WORD = /[A-Za-z_][\w]*/g;

/** Every prompt line of a text, the expression in `expr` (PROMPT, searched through the text: no split of a large output). */
const PROMPTS = new RegExp(PROMPT.source.slice(0, -1) + '\\r?$', 'gm');

/** The secret values REPL results in `text` hold, by the secret names their expressions read; `isSecretName` tests a word. */
export function replResults(text: string, isSecretName: (name: string) => boolean, out: SecretFinding[]): void {
  if (!mayHoldPrompt(text)) return;
  PROMPTS.lastIndex = 0;
  for (let p = PROMPTS.exec(text); p; p = PROMPTS.exec(text)) {
    // What the expression reads is its last word (`dig(:aws, :region)` reads a region, however `credentials` is named before it).
    const words = p.groups!.expr.match(WORD) ?? [];
    // Less the conversions after it (`Buffer.from(encKey).toString('hex')` reads `encKey`: adv71 F20).
    while (words.length > 1 && CONVERSION.test(words[words.length - 1])) words.pop();
    const last = words[words.length - 1];
    // An object's `auth` (requests' session: the user and password pair) reads a credential, whatever a bare `auth:` names elsewhere.
    // PowerShell's decryption of a secure string prints the plain text bare on the line below (adv74 F33).
    const plain = PLAIN_TEXT_READ.test(p.groups!.expr);
    // A plural name (`fernet_keys()`, `settings.API_TOKENS`: adv122 F05) reads a list of what its singular names.
    const plural = last !== undefined && /[a-z]s$/i.test(last) && !isSecretName(last) && isSecretName(last.slice(0, -1));
    if (!plain && !plural && (last === undefined || !(isSecretName(last) || READS_CREDENTIALS.test(last)))) continue;
    // fs_cli answers bare (`global_getvar` prints the variable's value alone on its line).
    const bareAnswers = p[0].startsWith('freeswitch@');
    let lineStart = p.index + p[0].length + 1;
    for (let j = 0; j < RESULT_LINES && lineStart < text.length; j++) {
      const nl = text.indexOf('\n', lineStart);
      const line = text.slice(lineStart, nl < 0 ? text.length : nl);
      if (PROMPT.test(line.replace(/\r$/, ''))) break;
      // A list of strings (`['…', '…']`, bytes `[b'…', b'…']`): each item.
      if (LIST_RESULT.test(line)) {
        for (const item of line.matchAll(LIST_ITEM)) out.push({ start: lineStart + item.index! + item[0].length - 1 - item.groups!.v.length, end: lineStart + item.index! + item[0].length - 1, kind: 'secret', byContext: true });
        break;
      }
      const r = plural ? null : RESULT.exec(line) ?? (plain || bareAnswers ? BARE_RESULT.exec(line) : null);
      if (r) {
        const start = lineStart + r[0].indexOf(r.groups!.v, r[0].indexOf(r.groups!.q));
        out.push({ start, end: start + r.groups!.v.length, kind: 'secret', byContext: true });
        break;
      }
      if (nl < 0) break;
      lineStart = nl + 1;
    }
  }
}

/** A notebook's execute_result (`"text/plain": [` then the repr's JSON string on the same or the next line). */
const NOTEBOOK_RESULT = /"text\/plain"[ \t]*:[ \t]*\[[ \t]*\r?\n?[ \t]*"(?<v>(?:[^"\\\n]|\\.){4,8192})"/g;
/** A cell's source array (its strings up to the closing `]`). */
// One way to read each blank: the blanks after a string, then a comma and its blanks (no overlap: a hostile run of blanks
// cannot be split many ways).
const NOTEBOOK_SOURCE = /"source"[ \t]*:[ \t]*(?<src>\[\s*(?:"(?:[^"\\\n]|\\.)*"\s*(?:,\s*)?)*\]|"(?:[^"\\\n]|\\.)*")/g;
/** How far from a result its cell's source may be (nbformat writes `outputs` before `source`). */
const NOTEBOOK_CELL_SPAN = 4096;
/** A Python repr of a string: `'…'` or `"…"` (as JSON holds it: `\"…\"`). */
const PY_REPR = /^(?:'(?<s>[^'\\]*)'|\\"(?<d>[^"\\]*)\\")$/;

/**
 * A Jupyter notebook's cell whose last source line is an expression reading a secret (`os.environ["WANDB_API_KEY"]`,
 * `settings.SECRET_KEY`) and whose `execute_result` shows its value (`"text/plain": ["'…'"]`: adversary pass 23's F44,
 * `jq '.cells[2]' notebook.ipynb`): the value inside the repr's quotes is masked, as a REPL's answer is.
 */
export function notebookResults(text: string, isSecretName: (name: string) => boolean, out: SecretFinding[]): void {
  if (!text.includes('"text/plain"') || !text.includes('"source"')) return;
  NOTEBOOK_RESULT.lastIndex = 0;
  for (let r = NOTEBOOK_RESULT.exec(text); r; r = NOTEBOOK_RESULT.exec(text)) {
    const repr = PY_REPR.exec(r.groups!.v);
    if (!repr) continue;
    const last = lastSourceWord(text, r.index);
    if (last === undefined || !(isSecretName(last) || READS_CREDENTIALS.test(last))) continue;
    const value = repr.groups!.s ?? repr.groups!.d!;
    if (value.length < 4) continue;
    const start = r.index + r[0].length - 1 - r.groups!.v.length + (repr.groups!.s !== undefined ? 1 : 2);
    out.push({ start, end: start + value.length, kind: 'secret', byContext: true });
  }
}

/** The last word of the last source line of the cell around a result at `at` (its `"source"` after the result, or before it). */
function lastSourceWord(text: string, at: number): string | undefined {
  const from = Math.max(0, at - NOTEBOOK_CELL_SPAN);
  const cell = text.slice(from, at + NOTEBOOK_CELL_SPAN);
  const cellStart = cell.lastIndexOf('"cell_type"', at - from);
  let best: string | undefined;
  NOTEBOOK_SOURCE.lastIndex = 0;
  for (let m = NOTEBOOK_SOURCE.exec(cell); m; m = NOTEBOOK_SOURCE.exec(cell)) {
    // The cell's own source: after the cell's start, and the nearest one after the result if there is one.
    if (m.index < cellStart) continue;
    best = m.groups!.src;
    if (m.index > at - from) break;
  }
  if (best === undefined) return undefined;
  let lines: unknown;
  try {
    lines = JSON.parse(best);
  } catch {
    return undefined;
  }
  const source = Array.isArray(lines) ? lines.join('') : String(lines);
  const lastLine = source.trimEnd().split('\n').pop() ?? '';
  const words = lastLine.match(WORD) ?? [];
  return words[words.length - 1];
}

/**
 * A REPL's answer to an expression that reads a secret: the name is only in what was typed (`shop(dev)> Rails.application
 * .credentials.dig(:aws, :secret_access_key)`, `In [2]: settings.EMAIL_HOST_PASSWORD`, `jshell> System.getenv("X_SECRET")`,
 * `iex(1)> System.fetch_env!("GUARDIAN_SECRET_KEY")`, PsySH's `> config('services.postmark.token')`), the value on the result
 * line below it (`=> "…"`, `Out[2]: '…'`, `$1 ==> "…"`, `"…"`, `= "…"`): adversary pass 20's F01, F02, F04, F06, F07.
 * The value is masked when it is a quoted string on the first result line within RESULT_LINES of the prompt, and what the
 * expression reads, its last word, names a secret (`secret_access_key`, `token`, `EMAIL_HOST_PASSWORD`).
 */
import type { SecretFinding } from './finding.js';

/** A prompt and what was typed after it: irb, a Rails console (`app(env)>`), IPython, jshell, iex, PsySH / node (`> `), Python. */
const PROMPT = /^(?:irb\([^)\n]*\):\d+:\d+[>*] |[\w-]{1,64}\([\w-]{1,32}\)(?::\d+)?[>*] |In \[\d+\]: |jshell> |iex\(\d+\)> |>>> |> )(?<expr>[^\n]{1,2048})$/;
/** Where a REPL's prompt may be in a text: the cheap test before lines are read. */
const ANY_PROMPT = /^(?:irb\(|[\w-]{1,64}\([\w-]{1,32}\)(?::\d+)?[>*] |In \[\d+\]: |jshell> |iex\(\d+\)> |>>> |> )/m;
/** A result line holding one quoted string, after the REPL's own mark. */
const RESULT = /^(?:=> |Out\[\d+\]: |\$\d+ ==> |= |)(?<q>["'])(?<v>(?:(?!\k<q>)[^\\\n]|\\.){4,8192})\k<q>[ \t]*\r?$/;
/** Lines below the prompt the result may be on (IPython leaves none; a warning may come first). */
const RESULT_LINES = 3;
/** A word of the expression (a method, a key, a symbol, a string's content). */
const WORD = /[A-Za-z_][\w]*/g;

/** The secret values REPL results in `text` hold, by the secret names their expressions read; `isSecretName` tests a word. */
export function replResults(text: string, isSecretName: (name: string) => boolean, out: SecretFinding[]): void {
  if (!ANY_PROMPT.test(text)) return;
  const lines = text.split('\n');
  let at = 0;
  const starts = lines.map((l) => {
    const s = at;
    at += l.length + 1;
    return s;
  });
  for (let i = 0; i < lines.length; i++) {
    const p = PROMPT.exec(lines[i].replace(/\r$/, ''));
    if (!p) continue;
    // What the expression reads is its last word (`dig(:aws, :region)` reads a region, however `credentials` is named before it).
    const words = p.groups!.expr.match(WORD) ?? [];
    const last = words[words.length - 1];
    if (last === undefined || !isSecretName(last)) continue;
    for (let j = i + 1; j < Math.min(lines.length, i + 1 + RESULT_LINES); j++) {
      if (PROMPT.test(lines[j])) break;
      const r = RESULT.exec(lines[j]);
      if (!r) continue;
      const start = starts[j] + r[0].indexOf(r.groups!.v, r[0].indexOf(r.groups!.q));
      out.push({ start, end: start + r.groups!.v.length, kind: 'secret', byContext: true });
      break;
    }
  }
}

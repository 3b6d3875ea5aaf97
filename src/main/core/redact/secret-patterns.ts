/**
 * Where secrets sit in a text: secretlint's maintained rules (@secretlint/core with the
 * recommend preset: AWS, GCP service-account keys, GitHub, GitLab, npm, Slack, OpenAI,
 * Anthropic, private keys, basic-auth URLs, database connection strings, …) plus the few
 * patterns that preset lacks, each with the reason it is here.
 *
 * secretlint lints one "file" per call and is async; a call costs ~0.15 ms of set-up plus
 * ~75 MB/s of scanning, so callers hand it whole texts (a reply, a batch of lines joined with
 * "\n", an audit record), never a line or a chunk at a time. The rule set is built once.
 */
import { lintSource } from '@secretlint/core';
import { rules as presetRules } from '@secretlint/secretlint-rule-preset-recommend';

/** One secret found in a text: [start, end) in UTF-16 units, and what kind it is. */
export interface SecretFinding {
  start: number;
  end: number;
  /** Short kind shown in the mask: `aws`, `github`, `private-key`, `jwt`, `password`, … */
  label: string;
}

type LintConfig = Parameters<typeof lintSource>[0]['options']['config'];

const RULE_PREFIX = '@secretlint/secretlint-rule-';
const COMMENT_FILTER_ID = `${RULE_PREFIX}filter-comments`;

/**
 * The recommend preset's rules, registered one by one with two changes: AWS access key ids are
 * scanned too (off by default because a key id alone is not a credential, but it names the
 * account and pairs with a secret nearby), and the comment filter is left out: it lets a text
 * say `secretlint-disable` and hide the secrets after it, and command output is not trusted to
 * say that. (Listed one by one because @secretlint/core 12 ignores `disabled` on a rule inside a
 * preset.) Built once per process: lintSource only reads it.
 */
const CONFIG: LintConfig = {
  rules: presetRules
    .filter((rule) => rule.meta.id !== COMMENT_FILTER_ID)
    .map((rule) => ({ id: rule.meta.id, rule, options: rule.meta.id === `${RULE_PREFIX}aws` ? { enableIDScanRule: true } : {} })),
};

/** Rules whose match is a whole URL: only the password in it is masked, so the agent still sees the host. */
const URL_RULES = new Set(['basicauth', 'database-connection-string']);

/** Characters a token-like secret is made of: a match that ends inside such a run is extended to its end. */
const TOKEN_CHAR = /[A-Za-z0-9+/=_-]/;

/**
 * Patterns the recommend preset lacks. Each one says why it is here.
 * The matched group `secret` (or the whole match when there is none) is what gets masked.
 */
const EXTRA_PATTERNS: { label: string; re: RegExp; gate?: RegExp }[] = [
  // JSON Web Tokens: no rule in the recommend preset. Header and payload are base64url JSON
  // objects ("eyJ" is base64 of `{"`); a bearer JWT is a credential until it expires.
  { label: 'jwt', re: /\beyJ[A-Za-z0-9_-]{5,}\.eyJ[A-Za-z0-9_-]{5,}\.(?<secret>[A-Za-z0-9_-]{8,})/g },
  // `password=…`, `PASSWORD: …`, `"client_secret": "…"`, `--password=…`: secretlint has no
  // generic assignment rule (its AWS rule covers only AWS_SECRET_ACCESS_KEY=). The value is
  // masked, the name kept; `$VAR`, `${VAR}`, `<…>` and `***` values are references, not secrets.
  {
    label: 'password',
    gate: /passw|passphrase|secret|api[_-]?key|access[_-]?key|auth[_-]?token|private[_-]?key/gi,
    re: /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]*(?:passwd|password|passphrase|secret|api[_-]?key|access[_-]?key|auth[_-]?token|access[_-]?token|private[_-]?key)[A-Za-z0-9_-]*["']?[ \t]*(?:[:=]|=>)[ \t]*["']?(?<secret>(?![$<*]|\[redacted|\{\{|(?:true|false|null|none|yes|no)\b)[^\s"',;]{3,})/gi,
  },
  // `--password value` / `-p value`-style flags are too ambiguous; only the long flag with a space.
  { label: 'password', gate: /--(?:passw|passphrase|secret|token|api-key)/gi, re: /(?<![\w-])--(?:password|passwd|passphrase|secret|token|api-key)[ \t]+["']?(?<secret>(?![-$<*]|\[redacted)[^\s"']{3,})/gi },
  // Credentials in any URL (`redis://:pw@`, `amqp://u:pw@`, `git+https://u:pw@`): secretlint's
  // basic-auth rule takes http(s)/ftp only with [-\w] passwords, its database rule mysql,
  // postgres and mongodb only.
  { label: 'url-password', gate: /:\/\//g, re: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/@]{0,256}:(?<secret>[^\s@/]{1,256})@[^\s@]/gi },
  // Google API keys (AIza…): the preset's GCP rule only recognises service-account JSON files.
  { label: 'gcp', re: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
];

/** Ranges of the secrets in `text` (unsorted, may overlap). */
export async function findSecrets(text: string): Promise<SecretFinding[]> {
  const out: SecretFinding[] = [];
  if (text.length === 0) return out;
  const result = await lintSource({
    source: { content: text, filePath: 'mish-output', contentType: 'text' },
    options: { config: CONFIG, noPhysicFilePath: true },
  });
  for (const m of result.messages) {
    const rule = m.ruleId.startsWith(RULE_PREFIX) ? m.ruleId.slice(RULE_PREFIX.length) : m.ruleId;
    let [start, end] = m.range;
    if (URL_RULES.has(rule)) {
      const pw = urlPassword(text, start, end);
      if (pw) out.push({ start: pw[0], end: pw[1], label: 'url-password' });
      else out.push({ start, end, label: rule });
      continue;
    }
    if (m.messageId === 'AWSSecretAccessKey') {
      // The rule reports [start of the `KEY = …` assignment, + length of the value]: keep the name, mask the value.
      const assign = /(?:=>|[:=])\s*["']?/.exec(text.slice(start, end));
      if (assign) start += assign.index + assign[0].length;
      end = Math.max(end, start);
    }
    if (rule !== 'privatekey' && rule !== 'gcp') while (end < text.length && TOKEN_CHAR.test(text[end])) end++;
    out.push({ start, end, label: LABELS[rule] ?? rule });
  }
  for (const { label, re, gate } of EXTRA_PATTERNS) {
    if (!gate) {
      matchAll(text, 0, re, label, out);
      continue;
    }
    // The costly pattern (a class at its start: tried at every position) runs only on the lines
    // where its cheap literal gate hits: most output has no `password`, `secret` or `://` at all.
    gate.lastIndex = 0;
    let doneTo = -1;
    for (let g = gate.exec(text); g; g = gate.exec(text)) {
      if (g.index < doneTo) continue;
      const from = text.lastIndexOf('\n', g.index) + 1;
      const nl = text.indexOf('\n', g.index);
      const to = nl < 0 ? text.length : nl;
      matchAll(text.slice(from, to), from, re, label, out);
      doneTo = to;
      gate.lastIndex = to;
    }
  }
  out.push(...privateKeyBlocks(text));
  return out;
}

/** Every match of `re` in `text` (which starts at `offset` of the whole), its `secret` group or the whole match. */
function matchAll(text: string, offset: number, re: RegExp, label: string, out: SecretFinding[]): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const secret = m.groups?.secret;
    if (secret !== undefined) {
      const at = offset + m.index + m[0].lastIndexOf(secret);
      out.push({ start: at, end: at + secret.length, label });
    } else out.push({ start: offset + m.index, end: offset + m.index + m[0].length, label });
    if (m[0].length === 0) re.lastIndex++;
  }
}

/** A line's gutter as mish shows lines: indentation (sh_spawn's tail) or a line number (`12│ `, read_raw). */
const GUTTER = /^[ \t]*(?:\d+[│|:] ?)?[ \t]*/;
const BASE64_LINE = /^[A-Za-z0-9+/=]+$/;
const PEM_BEGIN = /-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_END = /-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----/g;
const PEM_END_AT_START = /^-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----/;
/** PEM body lines are 64 (or 70) chars; shorter ones are taken only as a block's last line. */
const MIN_BODY_LINE = 16;

/**
 * Private key blocks as mish shows them, which secretlint's rule (a whole, clean block whose
 * body starts with "MI") misses: a block cut by a capped reply or a read_raw page, a block
 * with line numbers or indentation in front of each line, a small EC key ("MHc…"), a block
 * whose middle the squasher folded. Masked from BEGIN forward over body lines (to END when
 * it is there), and from END backward over the body lines before it. Walked line by line,
 * not by one regex, so a long run of base64 lines costs linear time.
 */
function privateKeyBlocks(text: string): SecretFinding[] {
  const out: SecretFinding[] = [];
  const lineAt = (from: number) => {
    const nl = text.indexOf('\n', from);
    const end = nl < 0 ? text.length : nl;
    const raw = text.slice(from, end).replace(/\r$/, '');
    const gutter = GUTTER.exec(raw)![0].length;
    return { start: from + gutter, body: raw.slice(gutter), next: nl < 0 ? -1 : nl + 1 };
  };
  PEM_BEGIN.lastIndex = 0;
  for (let m = PEM_BEGIN.exec(text); m; m = PEM_BEGIN.exec(text)) {
    let end = m.index + m[0].length;
    const nl = text.indexOf('\n', end);
    for (let at = nl < 0 ? -1 : nl + 1; at >= 0 && at < text.length; ) {
      const l = lineAt(at);
      const close = PEM_END_AT_START.exec(l.body);
      if (close) {
        end = l.start + close[0].length;
        break;
      }
      const header = /^[A-Za-z-]+: \S/.test(l.body);
      const short = l.body.length < MIN_BODY_LINE && !(l.next >= 0 && PEM_END_AT_START.test(lineAt(l.next).body));
      if (!header && (!BASE64_LINE.test(l.body) || short)) break;
      end = l.start + l.body.length;
      at = l.next;
    }
    out.push({ start: m.index, end, label: 'private-key' });
  }
  PEM_END.lastIndex = 0;
  for (let m = PEM_END.exec(text); m; m = PEM_END.exec(text)) {
    let start = -1;
    for (let lineStart = text.lastIndexOf('\n', m.index - 1) + 1; lineStart > 0; ) {
      const prevStart = text.lastIndexOf('\n', lineStart - 2) + 1;
      const l = lineAt(prevStart);
      // Any length right before END (a body's last line is short), full-length lines above it.
      if (!BASE64_LINE.test(l.body) || (start >= 0 && l.body.length < MIN_BODY_LINE)) break;
      start = l.start;
      lineStart = prevStart;
    }
    if (start >= 0) out.push({ start, end: m.index + m[0].length, label: 'private-key' });
  }
  return out;
}

/** Shorter names for the mask of a few rules. */
const LABELS: Record<string, string> = { privatekey: 'private-key', gcp: 'gcp-service-account' };

/** The [start, end) of the password in a `scheme://user:password@host…` match, if there is one. */
function urlPassword(text: string, start: number, end: number): [number, number] | undefined {
  const m = /:\/\/[^\s:/@]*:([^\s@/]+)@/.exec(text.slice(start, end));
  if (!m) return undefined;
  const at = start + m.index + m[0].length - 1 - m[1].length;
  return [at, at + m[1].length];
}

/**
 * The policy decision on one command line: pure (no file system, no process), cheap (it runs
 * before every command), and failing closed. Every simple command the line would run is
 * resolved (resolve.ts), judged by the policy's layers (built-in < user < project < env < CLI;
 * a project file may only tighten), and the line gets its strictest command's decision with
 * that rule's id and reason.
 */
import path from 'node:path';
import { parseCommandLine } from '../router/parse.js';
import { NETWORK_TOOLS, positionalArgs, resolveLine, type ResolvedCommand } from './resolve.js';
import { candidateRules, RANK, ruleMatches, viewOf, type CompiledRule, type MatchContext, type PolicyError, type Verdict } from './rules.js';
import { HOOK_CONFIG_RULE, hookConfigChange, hookConfigMention, hookConfigPaths, mishInitChange, mishOwnPaths, OWN_FILES_RULE, OWN_PATH_VARIABLES, ownFileChange, ownFileMention } from './own-files.js';
import { PREFIX, SHELLS } from './wrappers.js';

export type { Verdict } from './rules.js';

export type LayerName = 'builtin' | 'user' | 'project' | 'env' | 'cli';

export interface PolicyLayer {
  name: LayerName;
  file: string;
  rules: CompiledRule[];
  default?: Verdict;
}

export interface Policy {
  /** Lowest precedence first. */
  layers: PolicyLayer[];
  /** Malformed files: every decision is at least `ask` while any is listed (stricter, never looser). */
  errors: PolicyError[];
}

export interface PolicyMatch {
  rule: string;
  decision: Verdict;
  reason: string;
  /** The simple command (source text) it is about. */
  text: string;
}

export interface PolicyDecision {
  decision: Verdict;
  rule: string;
  reason: string;
  /** Every resolved simple command, as argv arrays (wrappers seen through). */
  commands: string[][];
  /** Every command or line finding above `allow`, strictest first. */
  matches: PolicyMatch[];
}

export interface DecideContext extends MatchContext {
  /**
   * mish's own configuration, policy, state and audit paths (own-files.ts); default: from
   * process.env, plus every policy file the policy was loaded from and the built-in grammars
   * folder it came with (policyOwnPaths).
   */
  ownPaths?: string[];
  /** The agent hosts' user-scope hook configuration files (own-files.ts hookConfigPaths); default: from process.env. */
  hookFiles?: string[];
  /**
   * The CDPATH of the shell the line runs in (a relative `cd` may land in any of its folders).
   * Not read from process.env here: the hook decides on the environment its front forwards only.
   */
  cdpath?: string;
  /**
   * The router's parse of this very line (parseCommandLine) succeeded: the caller parsed it
   * already (planLine), so its second opinion is not asked again.
   */
  routerParsed?: boolean;
}

const layerPaths = new WeakMap<Policy, string[]>();

/**
 * The files this policy was read from (absolute ones: `--policy FILE` and $MISH_POLICY
 * included) and the grammars folder holding the built-in rules (grammars/_meta/policy.toml,
 * wherever mish is installed): changing them changes the policy, so they are mish's own files.
 */
export function policyOwnPaths(policy: Policy): string[] {
  let out = layerPaths.get(policy);
  if (!out) {
    out = [];
    for (const l of policy.layers) {
      if (!path.isAbsolute(l.file)) continue;
      out.push(l.file);
      if (l.name === 'builtin' && path.basename(path.dirname(l.file)) === '_meta') out.push(path.dirname(path.dirname(l.file)));
    }
    layerPaths.set(policy, out);
  }
  return out;
}

/**
 * Longest argv (characters, words joined) judged by the rules' regexes: some of them are
 * quadratic in it (`git (?:.* )?gc (?:.* )?--prune=now` on `git gc gc gc …` took 7 s at 60 KB),
 * and user rules may be worse. A longer command is asked about, never matched on a part of it.
 */
export const MAX_JUDGED_ARGV_CHARS = 8192;
/**
 * A line longer than this is asked about without being parsed: parsing sits outside the step
 * budget, and a 2 MB line of 200,000 words took 70 s to decide (the server stops answering
 * meanwhile). Agents' command lines, heredocs included, are far shorter.
 */
export const MAX_ANALYSED_LINE_CHARS = 64 * 1024;

/** Programs that only read the files they name (or print their names): naming mish's own files is fine for them. */
/**
 * Wrappers whose command or string the resolver reads and judges as commands of their own
 * (`bash -c 'cat ~/.config/mish/policy.toml'` is the cat's decision, not the bash's).
 */
const UNWRAPPED = new Set<string>([...SHELLS, ...Object.keys(PREFIX), 'eval', 'env', 'su', 'runuser', 'ssh', 'xargs', 'parallel', 'watch', 'flock', 'script', 'tmux', 'screen', 'sg', 'at', 'batch']);
const OWN_FILE_READERS = new Set(['cat', 'less', 'more', 'head', 'tail', 'ls', 'stat', 'file', 'wc', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'diff', 'cmp', 'md5sum', 'sha1sum', 'sha256sum', 'bat', 'jq', 'mish', 'cp', 'test', '[', '[[', 'realpath', 'readlink', 'du', 'tree', 'echo', 'printf', 'find', 'fd', 'cd', 'pushd', 'basename', 'dirname', 'view', 'xxd', 'od', 'hexdump', 'strings', 'sort', 'uniq', 'cut', 'column', 'nl', 'tac', 'mkdir', 'touch']);
/** Facts that hold a nested mish or mish's own files at forbid (resolve.ts adds them). */
const FORBID_FACTS: Record<string, string> = {
  'mish-policy-override': 'an agent may not change the policy it runs under (mish --policy / --policy-default / $MISH_POLICY*); the operator sets the policy',
  'mish-operator-command': "is an operator's command (approvals, attach, console): an agent may not decide its own requests",
};

/** Rule id of decisions held at `ask` because a policy file is malformed. */
export const POLICY_ERROR_RULE = 'policy-file-error';

const SECRET_PATH =
  /(?:^|[\s@=<:,'"(])(?:~|\$HOME|\$\{HOME\}|\/home\/[^/\s]+|\/root)\/\.(?:ssh(?:\/(?!config\b|known_hosts\b)(?![^\s'"]*\.pub\b)|\/?(?=$|[\s'"]))|gnupg\b|aws\/credentials|aws\b|kube\/config|docker\/config\.json|netrc|git-credentials|npmrc|pypirc|password-store|config\/gcloud|vault-token)|(?:^|[\s@=<:/'"])\.env(?:\.[\w-]+)?(?=$|[\s'")])|\/etc\/(?:shadow|gshadow|sudoers)\b|\bid_(?:rsa|dsa|ecdsa|ed25519)(?!\.pub)\b|\.(?:pem|p12|pfx|kdbx)\b|\bprivate[_-]?key\b/;
const ENV_DUMP = /\$\(\s*(?:env|printenv|set|export\s+-p|declare\s+-x)\s*\)|`\s*(?:env|printenv)\s*`|\/proc\/(?:self|\d+|\$\$|\*)\/environ/;
/** Option values that name a key for the tool's own use (client certs, identity files), not an upload. */
const OWN_KEY_OPTIONS: Record<string, Set<string>> = {
  // …and files a download is saved to (curl -o cert.pem: a download, not an upload).
  curl: new Set(['--cert', '-E', '--key', '--cacert', '--capath', '--netrc-file', '-K', '--config', '--proxy-cert', '--proxy-key', '-o', '--output', '-D', '--dump-header', '-c', '--cookie-jar', '--output-dir', '--etag-save', '--stderr', '--trace', '--trace-ascii', '--libcurl']),
  wget: new Set(['-O', '--output-document', '-o', '--output-file', '-a', '--append-output', '-P', '--directory-prefix', '--certificate', '--private-key', '--ca-certificate']),
  ssh: new Set(['-i', '-F', '-o', '-S', '-E']),
  scp: new Set(['-i', '-F', '-o', '-S']),
  sftp: new Set(['-i', '-F', '-o', '-S']),
  rsync: new Set(['-e', '--rsh']),
  openssl: new Set(['-key', '-cert', '-CAfile', '-in', '-out', '-keyout', '-CAkey', '-signkey']),
};

/** openssl's commands that connect somewhere (a TLS client, a timing client, an OCSP request to a responder's URL). */
const OPENSSL_NETWORK_COMMANDS = new Set(['s_client', 's_time', 'ocsp']);

/** Secrets or the environment leaving over the network. */
function exfiltration(c: ResolvedCommand): string | undefined {
  if (!NETWORK_TOOLS.has(c.name)) return undefined;
  // openssl reaches the network only by its client commands: `openssl md5 -c` of a public key's DER, piped from `openssl rsa
  // -pubin -in key.pem`, was refused as an upload (blind pass 233 L16).
  if (c.name === 'openssl' && !OPENSSL_NETWORK_COMMANDS.has(c.argv[1] ?? '')) return undefined;
  const args = c.argv.slice(1);
  const considered: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (OWN_KEY_OPTIONS[c.name]?.has(args[i])) {
      i++;
      continue;
    }
    if (/^--(?:cert|key|cacert|identity|private-key)=/.test(args[i])) continue;
    // The URL fetched from names a remote file, not a local one being sent.
    if ((c.name === 'curl' || c.name === 'wget') && /^[a-z][a-z0-9+.-]*:\/\//i.test(args[i]) && !/\$|`/.test(args[i])) continue;
    considered.push(args[i]);
  }
  if (c.name === 'scp' || c.name === 'rsync' || c.name === 'sftp') {
    const pos = positionalArgs(considered);
    const remote = pos.some((p) => /^[^/\s]*:/.test(p));
    if (remote && pos.some((p) => !/^[^/\s]*:/.test(p) && SECRET_PATH.test(` ${p}`))) return 'secret-upload';
  } else if (c.name !== 'ssh') {
    if (considered.some((a) => SECRET_PATH.test(` ${a}`))) return 'secret-upload';
  }
  if (considered.some((a) => ENV_DUMP.test(a))) return 'env-upload';
  if (c.redirects.some((r) => (r.op === '<' || r.op === '<>') && SECRET_PATH.test(` ${r.target}`))) return 'secret-upload';
  for (const u of c.upstream) {
    if (u.argv.slice(1).some((a) => SECRET_PATH.test(` ${a}`)) || u.redirects.some((r) => r.op === '<' && SECRET_PATH.test(` ${r.target}`))) return 'secret-upload';
    if ((u.name === 'env' || u.name === 'printenv') && u.argv.length === 1) return 'env-upload';
    if (u.argv.some((a) => /^--export-secret-(?:sub)?keys\b/.test(a))) return 'secret-upload';
    if ((u.name === 'set' || u.name === 'export' || u.name === 'declare') && u.argv.length <= 2) return 'env-upload';
    if (u.argv.some((a) => ENV_DUMP.test(a) || /\/proc\/(?:self|\d+)\/environ/.test(a))) return 'env-upload';
  }
  return undefined;
}

interface Item {
  text: string;
  argv?: string[];
  decision: Verdict;
  rule: string;
  reason: string;
  explicit: boolean;
}

function judge(cmd: ResolvedCommand, policy: Policy, ctx: MatchContext): Item {
  const view = viewOf(cmd);
  let best: { rule: CompiledRule; layer: LayerName } | undefined;
  for (const layer of policy.layers) {
    let top: CompiledRule | undefined;
    for (const r of candidateRules(layer.rules, cmd.name)) if (ruleMatches(r, view, ctx) && (!top || RANK[r.decision] > RANK[top.decision])) top = r;
    if (!top) continue;
    // A project file lives in the repository the agent works in: it may tighten, never loosen.
    if (layer.name === 'project' && best && RANK[top.decision] < RANK[best.rule.decision]) continue;
    best = { rule: top, layer: layer.name };
  }
  if (best) return { text: cmd.text, argv: cmd.argv, decision: best.rule.decision, rule: best.rule.id, reason: best.rule.reason, explicit: true };
  const d = defaultDecision(policy);
  return { text: cmd.text, argv: cmd.argv, decision: d.decision, rule: d.rule, reason: d.reason, explicit: false };
}

function defaultDecision(policy: Policy): { decision: Verdict; rule: string; reason: string } {
  let d: Verdict = 'allow';
  let from = 'built-in';
  for (const l of policy.layers) {
    if (!l.default) continue;
    if (l.name === 'project' && RANK[l.default] < RANK[d]) continue;
    d = l.default;
    from = l.file;
  }
  return { decision: d, rule: 'default', reason: d === 'allow' ? 'no policy rule matched' : `no policy rule matched; the default decision is ${d} (${from})` };
}

class LineTooLong extends Error {}

/** The last protected paths worked out, and the variables' values they were worked out from. */
let lastProtected: { key: string; own: string[]; hookFiles: string[] } | undefined;

/**
 * mish's own paths and the agents' hook files for `home` and the environment (OWN_PATH_VARIABLES): worked out again only
 * when one of those variables changed (they cost ~120 µs a line, most of a `true`'s decision, for the same answer).
 */
function protectedPaths(home: string | undefined): { own: string[]; hookFiles: string[] } {
  const env: Record<string, string | undefined> = {};
  for (const v of OWN_PATH_VARIABLES) env[v] = process.env[v];
  if (home) env.HOME = home;
  const key = OWN_PATH_VARIABLES.map((v) => env[v] ?? '\u0001').join('\u0000');
  if (lastProtected?.key !== key) lastProtected = { key, own: mishOwnPaths(env), hookFiles: hookConfigPaths(env) };
  return lastProtected;
}

/** The policy's decision on a command line. Never throws; a line it cannot read is never allowed. */
export function decide(line: string, policy: Policy, context: DecideContext = {}): PolicyDecision {
  const ctx: DecideContext = { ...context, home: context.home ?? process.env.HOME };
  const guarded = ctx.ownPaths && ctx.hookFiles ? undefined : protectedPaths(ctx.home);
  const own = ctx.ownPaths ?? [...guarded!.own, ...policyOwnPaths(policy)];
  const hookFiles = ctx.hookFiles ?? guarded!.hookFiles;
  let items: Item[];
  let commands: string[][] = [];
  try {
    if (line.length > MAX_ANALYSED_LINE_CHARS) throw new LineTooLong();
    const resolution = resolveLine(line, ctx.cwd, { CDPATH: ctx.cdpath });
    // The router's parse is a second opinion on a line the resolver read whole; one it could not is already asked about.
    const top = ctx.routerParsed || resolution.lineFacts.some((f) => f.fact === 'parse-error' || f.fact === 'analysis-budget') ? { ok: true as const } : parseCommandLine(line);
    if (!top.ok && !resolution.lineFacts.some((f) => f.fact === 'parse-error')) resolution.lineFacts.push({ fact: 'parse-error', text: `${top.error.message} (line ${top.error.line}, column ${top.error.column})` });
    for (const c of resolution.commands) {
      const f = exfiltration(c);
      if (f) c.facts.add(f);
    }
    commands = resolution.commands.filter((c) => c.argv.length > 0).map((c) => c.argv);
    items = resolution.commands.map((c) =>
      c.argv.reduce((n, a) => n + a.length + 1, 0) > MAX_JUDGED_ARGV_CHARS
        ? { text: c.text.slice(0, 200), argv: c.argv, decision: 'ask' as const, rule: 'analysis-budget', reason: `the command is too long to check against the policy (over ${MAX_JUDGED_ARGV_CHARS} characters); a human must decide`, explicit: true }
        : judge(c, policy, ctx),
    );
    // mish's own files and policy: forbid whatever the policy files say (a policy must not allow rewriting itself).
    for (const c of resolution.commands) {
      const change = ownFileChange(viewOf(c), own, ctx.cwd, ctx.home);
      if (change) items.push({ text: c.text, argv: c.argv, decision: 'forbid', rule: OWN_FILES_RULE, reason: `changes mish's own configuration, policy or audit files (${change}); only the operator edits them`, explicit: true });
      else if (c.name !== '' && !OWN_FILE_READERS.has(c.name) && !UNWRAPPED.has(c.name)) {
        // Editors, interpreters, archivers, anything not known to only read: it may change what it names.
        const named = ownFileMention(c, own, ctx.home);
        if (named) items.push({ text: c.text, argv: c.argv, decision: 'ask', rule: OWN_FILES_RULE, reason: `names mish's own files (${named}) and may change them; a human must decide`, explicit: true });
      }
      // The agents' hook configuration (where mish's hook lives) and `mish init`: the agent may not switch its supervision off.
      const hook = change ? undefined : (mishInitChange(c) ?? hookConfigChange(viewOf(c), hookFiles, ctx.cwd, ctx.home, own));
      if (hook) items.push({ text: c.text, argv: c.argv, decision: hook.decision, rule: HOOK_CONFIG_RULE, reason: hook.reason, explicit: true });
      else if (!change && c.name !== '' && !OWN_FILE_READERS.has(c.name) && !UNWRAPPED.has(c.name)) {
        const named = hookConfigMention(c, hookFiles, ctx.home);
        if (named) items.push({ text: c.text, argv: c.argv, decision: 'ask', rule: HOOK_CONFIG_RULE, reason: `names ${named}, an agent's hook configuration (where mish's hook is installed), and may change it; a human must decide`, explicit: true });
      }
      for (const f of c.facts) if (FORBID_FACTS[f]) items.push({ text: c.text, argv: c.argv, decision: 'forbid', rule: f, reason: FORBID_FACTS[f], explicit: true });
    }
    for (const f of resolution.lineFacts) {
      if (FORBID_FACTS[f.fact]) {
        items.push({ text: f.text, decision: 'forbid', rule: f.fact, reason: FORBID_FACTS[f.fact], explicit: true });
        continue;
      }
      const pseudo: ResolvedCommand = { argv: [], literal: [], glob: [], name: '', text: f.text, via: [], redirects: [], pipedFrom: [], pipedTo: [], upstream: [], sql: [], facts: new Set([f.fact]) };
      const it = judge(pseudo, policy, ctx);
      // A line finding no rule names still fails closed.
      const why = f.fact === 'analysis-budget' ? `${f.text}; a human must decide` : `cannot be checked statically (${f.fact})`;
      items.push(it.explicit ? it : { text: f.text, decision: 'ask', rule: f.fact, reason: why, explicit: true });
    }
  } catch (e) {
    if (e instanceof LineTooLong) items = [{ text: line.slice(0, 200), decision: 'ask', rule: 'analysis-budget', reason: `the line is too long to analyse (over ${MAX_ANALYSED_LINE_CHARS} characters); a human must decide`, explicit: true }];
    else items = [{ text: line, decision: 'ask', rule: 'policy-internal-error', reason: `the policy check failed (${(e as Error).message}); a human must decide`, explicit: true }];
  }
  if (policy.errors.length) {
    const e = policy.errors[0];
    items.push({ text: line, decision: 'ask', rule: POLICY_ERROR_RULE, reason: `policy file is malformed (${e.file}${e.line ? `:${e.line}` : ''}${e.rule ? `, rule "${e.rule}"` : ''}: ${e.message}); decisions are held at ask until it is fixed`, explicit: true });
  }
  const sorted = [...items].sort((a, b) => RANK[b.decision] - RANK[a.decision]);
  const worst = sorted[0];
  const matches: PolicyMatch[] = [];
  const seen = new Set<string>();
  for (const it of sorted) {
    if (it.decision === 'allow') continue;
    const key = `${it.rule}\u0000${it.text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    matches.push({ rule: it.rule, decision: it.decision, reason: it.reason, text: it.text });
  }
  if (!worst) {
    const d = defaultDecision(policy);
    return { ...d, commands, matches };
  }
  // An allow is reported by the rule that allowed it, if one did.
  const shown = worst.decision === 'allow' ? (items.find((i) => i.explicit) ?? worst) : worst;
  return { decision: worst.decision, rule: shown.rule, reason: shown.reason, commands, matches };
}

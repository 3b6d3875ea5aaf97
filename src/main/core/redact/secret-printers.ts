/**
 * Commands whose whole output is a credential: `gh auth token`, `aws configure get
 * aws_secret_access_key`, `vault read -field=password …`, `kubectl get secret … -o
 * jsonpath='{.data.x}' | base64 -d`, `pass show x`, `op read op://…`, `printenv GITHUB_TOKEN`.
 * Their output is a bare value with nothing around it that says "secret" (the scanner reads
 * text, and a random string alone on a line is no secret by its shape), but the command line
 * says it: the hosts that know the command (sh_run's stream, the CLI run path, hooked runs) ask
 * here, and each value line of such a command's output is masked as `[masked: <kind> printed by
 * <tool>]` and remembered for the session. The raw bytes stay exact for the operator.
 */
import { parseCommandLine, type SimpleCommand } from '../router/parse.js';
import { basename } from '../router/wrappers.js';
import { SECRET_ENV_NAME } from './quick-check.js';
import { isLookAlike } from './look-alikes.js';

export interface SecretPrinter {
  /** What the value is: `token`, `password`, `secret`. */
  kind: string;
  /** The command as the mask names it: `gh auth token`, `vault read`. */
  tool: string;
}

/** The mask's kind for a value printed by `printer`. */
export function printedKind(printer: SecretPrinter): string {
  return `${printer.kind} printed by ${printer.tool}`;
}

/** A name (a config key, a field, a variable) that names a secret. */
const SECRET_FIELD = /pass(?:word|wd|phrase)?|secret|token|_auth|api[_-]?key|private[_-]?key|credential/i;

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
/** Options that take the next word as their value (`-n prod`, `--profile x`): that word is no operand. */
const VALUE_FLAGS = new Set(['-n', '--namespace', '--context', '--kubeconfig', '--cluster', '--user', '-l', '--selector', '-o', '--output', '--profile', '--region', '--project', '--subscription', '--vault-name', '--name', '--query', '-s', '-a', '--secret-id', '--account', '--app', '-R', '--repo', '--hostname', '-h', '--field', '--fields', '--vault']);

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

/** One command's argv (wrappers seen through): what it prints, if its output is a credential. */
function printerOf(argv: readonly string[]): SecretPrinter | undefined {
  const name = basename(argv[0] ?? '');
  const [sub, sub2, sub3] = operands(argv);
  switch (name) {
    case 'gh':
      // `gh auth token` prints the token alone; `gh auth status -t` is text the scanner reads.
      return sub === 'auth' && sub2 === 'token' ? { kind: 'token', tool: 'gh auth token' } : undefined;
    case 'aws':
      if (sub === 'configure' && sub2 === 'get' && sub3 && SECRET_FIELD.test(sub3)) return { kind: 'secret', tool: 'aws configure get' };
      if (sub === 'ecr' && (sub2 === 'get-login-password' || sub2 === 'get-authorization-token')) return { kind: 'password', tool: `aws ecr ${sub2}` };
      if (sub === 'secretsmanager' && sub2 === 'get-secret-value' && option(argv, undefined, 'output') === 'text') return { kind: 'secret', tool: 'aws secretsmanager get-secret-value' };
      if (sub === 'ssm' && sub2 === 'get-parameter' && has(argv, '--with-decryption') && option(argv, undefined, 'output') === 'text') return { kind: 'secret', tool: 'aws ssm get-parameter' };
      return undefined;
    case 'npm':
    case 'pnpm':
    case 'yarn':
      return sub === 'config' && sub2 === 'get' && sub3 && SECRET_FIELD.test(sub3) ? { kind: 'token', tool: `${name} config get` } : undefined;
    case 'gcloud':
      if (sub === 'auth' && /^print-(?:access|identity)-token$/.test(sub2 ?? '')) return { kind: 'token', tool: `gcloud auth ${sub2}` };
      if (sub === 'auth' && sub2 === 'application-default' && /^print-access-token$/.test(sub3 ?? '')) return { kind: 'token', tool: 'gcloud auth application-default print-access-token' };
      if (sub === 'secrets' && sub2 === 'versions' && sub3 === 'access') return { kind: 'secret', tool: 'gcloud secrets versions access' };
      return undefined;
    case 'az': {
      // JSON (the default) names its fields (`"accessToken": …`): the scanner reads it. A bare value is `-o tsv` / `--output tsv`.
      const bare = /^(?:tsv|none)$/.test(option(argv, 'o', 'output') ?? '');
      if (sub === 'account' && sub2 === 'get-access-token' && bare) return { kind: 'token', tool: 'az account get-access-token' };
      if (sub === 'keyvault' && sub2 === 'secret' && sub3 === 'show' && bare) return { kind: 'secret', tool: 'az keyvault secret show' };
      return undefined;
    }
    case 'heroku':
      return sub === 'auth:token' ? { kind: 'token', tool: 'heroku auth:token' } : undefined;
    case 'vault':
    case 'bao': {
      // Vault's flags take one dash or two: `-field=password`, `--field password`.
      const field = argv.some((a) => /^--?field(?:=|$)/.test(a));
      if (field && /^(?:read|kv|write|token|login)$/.test(sub ?? '')) return { kind: 'secret', tool: `${name} ${sub} -field` };
      if (sub === 'print' && sub2 === 'token') return { kind: 'token', tool: `${name} print token` };
      return undefined;
    }
    case 'kubectl':
    case 'oc': {
      // A Secret's values through a template: `-o jsonpath='{.data.password}'` (base64) or decoded by a later `base64 -d`.
      if ((sub === 'get' || sub === 'create') && /^secrets?(?:\/|$)/.test(sub === 'get' ? (sub2 ?? '') : sub2 ?? '')) {
        const out = option(argv, 'o', 'output') ?? '';
        if (/^(?:jsonpath|go-template|template)/.test(out)) return { kind: 'secret', tool: `${name} ${sub} secret` };
      }
      if (sub === 'create' && sub2 === 'token') return { kind: 'token', tool: `${name} create token` };
      return undefined;
    }
    case 'pass':
    case 'gopass':
      // `pass show x`, `pass x` (show is the default), not `pass ls`, `pass insert`, `pass git …`.
      if (sub === 'show' || (sub !== undefined && sub2 === undefined && !/^(?:ls|list|find|search|grep|insert|add|edit|generate|rm|mv|cp|git|init|help|version|otp|sync|setup)$/.test(sub))) return { kind: 'password', tool: `${name} show` };
      return undefined;
    case 'op':
      if (sub === 'read') return { kind: 'secret', tool: 'op read' };
      if (sub === 'item' && sub2 === 'get' && option(argv, undefined, 'fields') !== undefined && has(argv, '--reveal')) return { kind: 'secret', tool: 'op item get --fields' };
      return undefined;
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
      return sub === 'output' && has(argv, '-raw', '--raw') && sub2 && SECRET_FIELD.test(sub2) ? { kind: 'secret', tool: `${name} output -raw` } : undefined;
    case 'printenv':
      return sub !== undefined && SECRET_ENV_NAME.test(sub) ? { kind: `$${sub} value`, tool: 'printenv' } : undefined;
    default:
      return undefined;
  }
}

/** Later stages of a pipeline that pass the value through (decode, trim, pick a line). */
const PASS_THROUGH = /^(?:base64|basenc|cat|tr|head|tail|xargs|jq|yq|sed|cut|awk|tee|openssl)$/;

/**
 * What `command` (a shell line) prints, when its output a terminal shows is a credential: the
 * last pipeline of the line whose first stage is a printer and whose later stages only decode or
 * trim (`| base64 -d`, `| tr -d '\n'`); its output not redirected to a file, not inside `$(…)`.
 * `undefined` for everything else (and for a line that does not parse).
 */
export function secretPrinterOf(command: string): SecretPrinter | undefined {
  if (!PRINTER_WORDS.test(command)) return undefined;
  const parsed = parseCommandLine(command);
  if (!parsed.ok) return undefined;
  const pipelines = new Map<number, SimpleCommand[]>();
  for (const c of parsed.line.commands) {
    if (c.context !== 'top') continue;
    const p = pipelines.get(c.pipeline.index) ?? [];
    p[c.pipeline.position] = c;
    pipelines.set(c.pipeline.index, p);
  }
  let found: SecretPrinter | undefined;
  for (const stages of pipelines.values()) {
    if (stages.length === 0 || stages.some((s) => s === undefined)) continue;
    const printer = printerOf(stages[0].argv);
    if (!printer) continue;
    if (!stages.slice(1).every((s) => PASS_THROUGH.test(basename(s.argv[0] ?? '')))) continue;
    const last = stages[stages.length - 1];
    if (last.redirects.some((r) => r.op === '>' || r.op === '>>' || r.op === '&>' || r.op === '>|')) continue;
    found = printer;
  }
  return found;
}

/** A cheap gate before parsing: the line names one of the printers. */
const PRINTER_WORDS = /\b(?:gh|aws|npm|pnpm|yarn|gcloud|az|heroku|vault|bao|kubectl|oc|pass|gopass|op|security|secret-tool|bw|lpass|doppler|terraform|tofu|printenv)\b/;

/** Escape sequences (colour) and carriage returns a PTY line may carry. */
const DECORATION = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\r/g;

/**
 * The value a printer's output line holds, if it is one: the line without colour and CR,
 * trimmed, one word (a message, `no oauth token found`, has spaces), not a placeholder
 * (`undefined`, `null`, `(protected)`). Returns [start, end) in `line`, or undefined.
 */
export function printedValue(line: string): { start: number; end: number } | undefined {
  const bare = line.replace(DECORATION, '');
  const value = bare.trim();
  if (value.length < MIN_PRINTED_CHARS || /\s/.test(value) || /^\(.*\)$/.test(value) || isLookAlike(value, true)) return undefined;
  const start = line.indexOf(value);
  return start < 0 ? undefined : { start, end: start + value.length };
}

/** The values a printer's output `text` holds: each of its lines that is one (printedValue). */
export function printedValues(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const v = printedValue(line);
    if (v) out.push(line.slice(v.start, v.end));
  }
  return out;
}

/** Shorter lines are not taken for a printed secret (`OK`, `none`): remembered for the session, a shorter value would mask ordinary words (as MIN_ENV_SECRET_LENGTH). */
export const MIN_PRINTED_CHARS = 6;

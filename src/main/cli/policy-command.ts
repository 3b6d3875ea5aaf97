/**
 * `mish policy explain "<command line>"`: the policy decision on a line as JSON (decision,
 * rule, reason, the resolved simple commands), executing nothing — for operators writing rules
 * and for tests. `mish policy check [FILE…]`: validate the policy files in effect (or the
 * files given) and print every error with file, line and rule.
 */
import { parseArgs } from 'node:util';
import { builtinGrammarsDir } from '../core/router/meta.js';
import { compilePolicyText, decide, formatPolicyError, loadPolicy, type PolicyError } from '../core/policy/index.js';
import { readFileSync } from 'node:fs';
import { explainLines } from '../core/policy/explain-lines.js';
import { UsageError } from './usage-error.js';

export const POLICY_HELP = `usage: mish policy explain [--cwd DIR] [--session NAME] [--] "<command line>"
       mish policy explain --stdin [--cwd DIR] [--session NAME] < history.txt
       mish policy check [FILE…]

explain  print the policy decision on a command line as JSON, run nothing:
         {"decision": "allow"|"confirm"|"ask"|"operator"|"forbid", "rule": …, "reason": …,
          "commands": [every simple command the line would run, as argv arrays]}
         --cwd DIR       judge relative paths as if run in DIR (default: here)
         --session NAME  judge rules limited to that session
         --stdin         judge every line read from stdin (one command line per line; blank
                         lines and # comments skipped), one JSON object per line (JSON Lines)
                         with its line number "n" and "line": audit a shell history at once
check    validate the policy files in effect here (built-in, user, project, $MISH_POLICY,
         --policy), or the FILEs given; print each error with file, line and rule; exit 1
         if any is malformed

Policy files, lowest precedence first: grammars/_meta/policy.toml (built in),
$XDG_CONFIG_HOME/mish/policy.toml (or ~/.config/mish/policy.toml), .mish/policy.toml (here
or a parent folder; it may only tighten), $MISH_POLICY and $MISH_POLICY_DEFAULT, then
mish --policy FILE / --policy-default DECISION. See docs/policy.md.
`;

export interface PolicyCliOptions {
  policyFile?: string;
  policyDefault?: string;
}

export function runPolicy(argv: string[], opts: PolicyCliOptions = {}): number {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') {
    process.stdout.write(POLICY_HELP);
    return sub === undefined ? 2 : 0;
  }
  if (sub === 'explain') return explainCommand(rest, opts);
  if (sub === 'check') return checkCommand(rest, opts);
  throw new UsageError(`mish policy: unknown subcommand '${sub}' (explain or check; see mish policy --help)`);
}

function explainCommand(argv: string[], opts: PolicyCliOptions): number {
  let parsed;
  try {
    // `--` ends explain's own options: `mish policy explain -- '-rf /'` explains a line starting with `-`.
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { cwd: { type: 'string' }, session: { type: 'string' }, stdin: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  } catch (e) {
    const unknown = /Unknown option '([^']*)'/.exec((e as Error).message);
    if (unknown) throw new UsageError(`mish policy explain: unknown option '${unknown[1]}'; to explain a command line starting with '-', put -- before it: mish policy explain -- '${unknown[1]} …'`);
    throw new UsageError(`mish policy explain: ${(e as Error).message} (see mish policy --help)`);
  }
  if (parsed.values.help) {
    process.stdout.write(POLICY_HELP);
    return 0;
  }
  if (parsed.values.stdin) {
    if (parsed.positionals.length) throw new UsageError('mish policy explain: --stdin reads the lines from stdin; give no command line with it');
    const cwd = parsed.values.cwd ?? process.cwd();
    const policy = loadPolicy({ grammarsDir: builtinGrammarsDir(), cwd, cliFile: opts.policyFile, cliDefault: opts.policyDefault });
    for (const e of policy.errors) process.stderr.write(`mish: policy: ${formatPolicyError(e)}\n`);
    let text: string;
    try {
      text = readFileSync(0, 'utf8');
    } catch (e) {
      throw new UsageError(`mish policy explain --stdin: cannot read stdin (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
    }
    const out: string[] = [];
    for (const r of explainLines(text, policy, { cwd, session: parsed.values.session, cdpath: process.env.CDPATH })) out.push(JSON.stringify({ n: r.n, line: r.line, decision: r.decision, rule: r.rule, reason: r.reason, commands: r.commands }));
    process.stdout.write(out.length ? `${out.join('\n')}\n` : '');
    return 0;
  }
  if (parsed.positionals.length === 0) throw new UsageError('mish policy explain: give the command line to explain, quoted (see mish policy --help)');
  const line = parsed.positionals.join(' ');
  const cwd = parsed.values.cwd ?? process.cwd();
  const policy = loadPolicy({ grammarsDir: builtinGrammarsDir(), cwd, cliFile: opts.policyFile, cliDefault: opts.policyDefault });
  for (const e of policy.errors) process.stderr.write(`mish: policy: ${formatPolicyError(e)}\n`);
  const d = decide(line, policy, { cwd, session: parsed.values.session, cdpath: process.env.CDPATH });
  process.stdout.write(`${JSON.stringify({ decision: d.decision, rule: d.rule, reason: d.reason, commands: d.commands })}\n`);
  return 0;
}

function checkCommand(files: string[], opts: PolicyCliOptions): number {
  if (files.includes('--help') || files.includes('-h')) {
    process.stdout.write(POLICY_HELP);
    return 0;
  }
  let errors: PolicyError[] = [];
  let checked: string[];
  if (files.length) {
    checked = files;
    for (const f of files) {
      let text: string;
      try {
        text = readFileSync(f, 'utf8');
      } catch (e) {
        errors.push({ file: f, message: `cannot read: ${(e as NodeJS.ErrnoException).code ?? String(e)}` });
        continue;
      }
      errors.push(...compilePolicyText(text, f).errors);
    }
  } else {
    const policy = loadPolicy({ grammarsDir: builtinGrammarsDir(), cliFile: opts.policyFile, cliDefault: opts.policyDefault });
    errors = policy.errors;
    checked = policy.layers.map((l) => `${l.file} (${l.name}, ${l.rules.length} rules${l.default ? `, default ${l.default}` : ''})`);
  }
  for (const e of errors) process.stderr.write(`${formatPolicyError(e)}\n`);
  if (errors.length) {
    process.stderr.write(`${errors.length} error${errors.length === 1 ? '' : 's'}: decisions are held at ask or stricter until fixed\n`);
    return 1;
  }
  process.stdout.write(`ok: ${checked.join('\n    ')}\n`);
  return 0;
}

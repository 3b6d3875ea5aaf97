/**
 * `mish audit [filters]`: lists the audit log; `mish audit verify`: checks its hash chain and
 * names every record that was edited, removed, inserted, reordered or cut off.
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { defaultAuditPath, readAuditRecords } from '../core/audit/audit-log.js';
import type { AuditRecord } from '../core/audit/types.js';
import { verifyAuditLog } from '../core/audit/verify.js';
import { exitOnClosedOutput } from './closed-output.js';
import { UsageError } from './usage-error.js';

export const AUDIT_HELP = `usage: mish audit [--session NAME] [--agent NAME] [--decision D] [--kind K]
                  [--since TIME] [--limit N] [--json] [--log PATH]
       mish audit verify [--json] [--log PATH]

The audit log holds one record per command, decision, approval, handoff and session event,
with who acted (agent, operator, user or policy); secrets are masked before it is written.
Each record is hash-chained to the one before. Log: $MISH_AUDIT_LOG, else
$XDG_STATE_HOME/mish/audit.jsonl, else ~/.local/state/mish/audit.jsonl (mode 0600).

  --session NAME   only records of this session
  --agent NAME     only records of MCP clients whose name/version contains NAME
  --decision D     only this decision: ran, refused, started, yes, no, created, …
  --kind K         only command | decision | approval | handoff | session
  --since TIME     only records from TIME on: an ISO date/time, or an age (30m, 2h, 7d)
  --limit N        the newest N matching records (default 50; 0 = all)
  --json           print the records as a JSON array
  --log PATH       another log file

verify exits 0 when the chain is intact, 1 when it is broken (each broken record is named
with its line and why), 2 on bad usage.
`;

export const AUDIT_VERIFY_HELP = `usage: mish audit verify [--json] [--log PATH]

Checks the audit log's hash chain and its head file. Names each record that was edited
(its contents no longer match its hash), removed (a seq is missing), inserted (a seq twice,
or a record that does not chain to the one before), reordered (seqs out of order), and a
log cut off at the end (the head file names a later record). Exit 0: intact; 1: broken.
  --json       print the verdict as JSON
  --log PATH   another log file
`;

/** Listed when no --limit is given: the recent past, not a screenful of years. */
const DEFAULT_LIMIT = 50;

const KINDS = ['command', 'decision', 'approval', 'handoff', 'session'];

export function runAudit(argv: string[]): number {
  exitOnClosedOutput();
  if (argv[0] === 'verify') return runVerify(argv.slice(1));
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      session: { type: 'string' },
      agent: { type: 'string' },
      decision: { type: 'string' },
      kind: { type: 'string' },
      since: { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean' },
      log: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(AUDIT_HELP);
    return 0;
  }
  if (positionals.length) throw new UsageError(`mish audit: unknown subcommand '${positionals[0]}' (see mish audit --help)`);
  if (values.kind !== undefined && !KINDS.includes(values.kind)) throw new UsageError(`mish audit: --kind must be one of ${KINDS.join(', ')}`);
  const limit = values.limit === undefined ? DEFAULT_LIMIT : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 0) throw new UsageError(`mish audit: --limit takes a whole number ≥ 0, not '${values.limit}'`);
  const since = values.since === undefined ? undefined : parseSince(values.since);
  const log = values.log ?? defaultAuditPath();
  let records: AuditRecord[];
  try {
    records = readAuditRecords(log);
  } catch (e) {
    throw new UsageError(`mish audit: cannot read ${log}: ${(e as Error).message}`);
  }
  const matching = records.filter(
    (r) =>
      (values.session === undefined || r.session === values.session) &&
      (values.agent === undefined || (r.agent ?? '').toLowerCase().includes(values.agent.toLowerCase())) &&
      (values.decision === undefined || r.decision === values.decision) &&
      (values.kind === undefined || r.kind === values.kind) &&
      (since === undefined || Date.parse(r.ts) >= since),
  );
  const shown = limit === 0 ? matching : matching.slice(-limit);
  if (values.json) {
    process.stdout.write(`${JSON.stringify(shown, null, 2)}\n`);
    return 0;
  }
  if (records.length === 0) {
    process.stdout.write(`no audit records in ${log}\n`);
    return 0;
  }
  for (const r of shown) process.stdout.write(`${formatRecord(r)}\n`);
  if (shown.length < matching.length) process.stdout.write(`(newest ${shown.length} of ${matching.length} matching records; --limit 0 for all)\n`);
  else if (matching.length === 0) process.stdout.write(`no record matches (${records.length} in ${log})\n`);
  return 0;
}

function runVerify(argv: string[]): number {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { json: { type: 'boolean' }, log: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    process.stdout.write(AUDIT_VERIFY_HELP);
    return 0;
  }
  if (positionals.length) throw new UsageError(`mish audit verify: unexpected argument '${positionals[0]}' (see mish audit verify --help)`);
  const log = values.log ?? defaultAuditPath();
  const v = verifyAuditLog(log);
  if (values.json) process.stdout.write(`${JSON.stringify({ log, ...v }, null, 2)}\n`);
  else if (v.ok && v.records === 0 && !existsSync(log)) process.stdout.write(`ok: ${log}: no audit log yet (nothing recorded)\n`);
  else if (v.ok) process.stdout.write(`ok: ${log}: ${v.records} record(s), chain intact${v.last ? `, last seq ${v.last.seq} (${v.last.hash.slice(0, 16)}…)` : ''}\n`);
  else {
    process.stdout.write(`BROKEN: ${log}: ${v.problems.length} problem(s) in ${v.records} record(s)\n`);
    for (const p of v.problems) process.stdout.write(`  ${p.line === 0 ? 'log' : `record ${p.line}${p.seq !== undefined ? ` (seq ${p.seq})` : ''}`}: ${p.why}\n`);
  }
  return v.ok ? 0 : 1;
}

const AGE = /^(\d+)\s*(s|m|h|d|w)$/;
const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `--since`: an age (`30m`, `2h`, `7d`) or an ISO date / date-time; ms since the epoch. */
export function parseSince(s: string, now = Date.now()): number {
  const age = AGE.exec(s.trim());
  if (age) return now - Number(age[1]) * UNIT_MS[age[2]];
  const t = Date.parse(s);
  if (Number.isNaN(t)) throw new UsageError(`mish audit: --since takes an ISO date/time (2026-05-01, 2026-05-01T12:00) or an age (30m, 2h, 7d), not '${s}'`);
  return t;
}

/** One line per record: `12  2026-05-01 12:00:03  command ran  by agent (claude-code/1.0)  [default c3]  exit 0  npm test`. */
export function formatRecord(r: AuditRecord): string {
  const ts = r.ts.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
  const who = `by ${r.by}${r.agent ? ` (${r.agent})` : ''}`;
  const where = [r.session, r.id].filter(Boolean).join(' ');
  const facts = [
    r.exitCode !== undefined && r.exitCode !== null ? `exit ${r.exitCode}` : '',
    r.rule ? `rule ${r.rule}` : '',
    r.reason ? `(${r.reason})` : '',
  ].filter(Boolean);
  return [String(r.seq).padStart(4), ts, `${r.kind} ${r.decision ?? ''}`.trim(), who, where ? `[${where}]` : '', ...facts, r.command ?? ''].filter(Boolean).join('  ');
}
